//! Priv-AltMin (Jain, Rush, Smith, Song, Thakurta 2021, "Differentially Private
//! Model Personalization"), the baseline of Private FedRep's experiments
//! (Snedeker et al. §5; docs/algorithms.md, Baselines), run one alternating iteration per
//! [`PrivAltMin::step`].
//!
//! One iteration t:
//! 1. **V-step (local, never released).** Each participating user i fits its
//!    head v_i by least squares of y on X U_t over its *head points*
//!    (ridge `head_ridge`; the authors' re-implementation uses 1e-6).
//! 2. **U-step (private).** Over the *statistic points* of all participating
//!    users, with w = clip(vec(x v_iᵀ), c_x) and ỹ = clamp(y, ±c_y):
//!    W = Σ w wᵀ ((dk)×(dk)), b = Σ ỹ w (dk). The server releases
//!    W̃ = W + (G + Gᵀ)/2 with G_{ab} ~ N(0, σ_W²) i.i.d., and b̃ = b + N(0, σ_b² I).
//!    Noise is added to the raw **sums** (not to averages).
//! 3. u solves (W̃ + ridge·N_t·I) u = b̃, i.e. (W̃/N_t + ridge·I) u = b̃/N_t, where
//!    N_t is the number of statistic points of the iteration (a public count).
//!    U_{t+1} = Q of the QR of reshape(u) (d×k).
//!
//! **Modes** ([`AltMinMode`], which users): DisjointSubsets (Jain et al.):
//! users are split into T groups by identity (i mod T, data-independent), group
//! t is used only in iteration t. AllUsers (the public re-implementation,
//! docs/algorithms.md): every user every iteration.
//! **Splits** ([`SampleSplit`], which of a user's S⁰ points): the
//! re-implementation fits the head on the first ⌊|S⁰|/2⌋ points and accumulates
//! W, b over all of S⁰; FreshHalves uses the other points for W, b (the
//! fresh-samples structure analyses need — the Jain et al. paper is not in the
//! project's sources, so pairing it with DisjointSubsets is our reading, not a
//! quoted detail); Shared is textbook AltMin (everything on all of S⁰).
//!
//! **Vectorization.** vec is column-major: w[q·d + p] = c·x_p·v_q, so u reshapes
//! into U column by column. (The re-implementation uses row-major vec; the
//! solution U is the same, only the coordinates are permuted.)
//!
//! **The U-step's statistic** (the Kronecker structure that accumulates W without
//! forming dk-vector outer products, and why its symmetric noise is an exact Gaussian
//! mechanism): [`statistics`].
//!
//! # Sensitivity (user level; see [`statistic_sensitivity`])
//! ‖vec(x vᵀ)‖ = ‖x‖‖v‖, so each clipped w has ‖w‖ ≤ c_x whatever v_i is (v_i
//! is computed from the user's own data and public U_t, and is never released).
//! One sample adds w wᵀ with ‖w wᵀ‖_F = ‖w‖² ≤ c_x², and ỹ w with ‖ỹ w‖ ≤ c_y c_x.
//! A user with m' statistic points adds a PSD A = Σ_j w_j w_jᵀ with
//! ‖A‖_F ≤ tr A ≤ m' c_x², and a vector of norm ≤ m' c_y c_x.
//! * add/remove one user: s_W = m' c_x², s_b = m' c_x c_y.
//! * replace one user: A − B with A, B ⪰ 0 has ‖A − B‖_F² = ‖A‖² + ‖B‖² − 2⟨A,B⟩
//!   ≤ ‖A‖² + ‖B‖² (⟨A,B⟩ = tr(AB) ≥ 0), so s_W = √2 m' c_x²; b can flip sign,
//!   so s_b = 2 m' c_x c_y.
//!
//! # Composition
//! AllUsers: every user is in every iteration → T-fold composition.
//! DisjointSubsets: a user's data enters only its group's release; later
//! iterations see it only through the released U (post-processing), so by
//! parallel composition the cost is that of **one** iteration. See
//! [`PrivAltMinParams::privacy_events`]. The number of users n (hence N_t in the
//! ridge) is treated as public, as everywhere in the project.

mod statistics;

use crate::data::shared_representation::{FederatedDataset, Part, Points};
use crate::linalg::{least_squares_head, orthonormalize, to_row_major, HeadScratch};
use crate::metrics::principal_angle_distance;
#[cfg(test)]
use crate::privacy::clipping::clip_factor;
use crate::privacy::event::PrivacyEvent;
use crate::rng::NoiseSource;
#[cfg(test)]
use crate::rng::{stream, Purpose};
use nalgebra::DMatrix;
#[cfg(test)]
use nalgebra::DVector;
use statistics::StatisticsAccumulator;
pub use statistics::{release_noise, Statistics};

/// Which users take part in which iteration (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AltMinMode {
    /// Jain et al.: users split into T disjoint groups (contiguous by index),
    /// group t used in iteration t only.
    DisjointSubsets,
    /// The public re-implementation (docs/algorithms.md): all users every iteration.
    AllUsers,
}

impl AltMinMode {
    /// The split of S⁰ each mode is described with: [`SampleSplit::FreshHalves`]
    /// for Jain et al. (our reading), [`SampleSplit::HeadOnFirstHalf`] for the
    /// re-implementation.
    pub fn default_split(self) -> SampleSplit {
        match self {
            AltMinMode::DisjointSubsets => SampleSplit::FreshHalves,
            AltMinMode::AllUsers => SampleSplit::HeadOnFirstHalf,
        }
    }
}

/// Which of a user's S⁰ points fit its head and which enter W and b.
///
/// With k = 2 and |S⁰| = 5, a head on ⌊5/2⌋ = 2 points *interpolates* them:
/// v = (X_h U)⁻¹ y_h has heavy tails (near-singular 2×2 systems), and without
/// per-sample clipping those users dominate the U-step — the non-private
/// iteration then diverges from a good init (tests/priv_altmin.rs). Clipping
/// every sample to a small norm (the authors' 1e-4) tames this.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SampleSplit {
    /// Head on the first ⌊|S⁰|/2⌋ points; W, b on all of S⁰ (the re-implementation).
    HeadOnFirstHalf,
    /// Head on the first ⌊|S⁰|/2⌋ points; W, b on the others (fresh samples).
    FreshHalves,
    /// Head, W and b all on all of S⁰ (textbook AltMin).
    Shared,
}

impl SampleSplit {
    /// Points of each user (indices into S⁰) used for the head.
    pub fn head_points(self, m_train: usize) -> std::ops::Range<usize> {
        match self {
            SampleSplit::Shared => 0..m_train,
            _ => 0..m_train / 2,
        }
    }

    /// Points of each user (indices into S⁰) that enter W and b: m' of the
    /// sensitivity is the length of this range.
    pub fn statistic_points(self, m_train: usize) -> std::ops::Range<usize> {
        match self {
            SampleSplit::FreshHalves => m_train / 2..m_train,
            _ => 0..m_train,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct PrivAltMinParams {
    /// T, the number of alternating iterations (also the number of groups in
    /// [`AltMinMode::DisjointSubsets`]).
    pub rounds: usize,
    /// c_x: L2 clip of w = vec(x vᵀ) per sample (the authors: 1e-4).
    pub feature_clip: f64,
    /// c_y: labels are clamped to [−c_y, c_y] (the authors: 1e-4).
    pub label_clip: f64,
    /// Noise std on the raw sum W = Σ w wᵀ, applied as (G + Gᵀ)/2 with
    /// G_ab ~ N(0, σ_W²): diagonal std σ_W, off-diagonal std σ_W/√2.
    /// (The authors' code: σ_W = m·c²·sqrt(4T ln(1.25/δ))/ε with m = |S⁰|.)
    pub sigma_w: f64,
    /// Noise std on the raw sum b = Σ ỹ w, i.i.d. per entry.
    /// (The authors' code: σ_b = m·σ_W.)
    pub sigma_b: f64,
    pub mode: AltMinMode,
    /// Head points and statistic points within S⁰.
    pub split: SampleSplit,
    /// Ridge of the U-step, per statistic point: (W̃ + ridge·N_t·I) u = b̃.
    /// The authors' (2/(mn))(W̃) + 1e-8·I with N_t = mn corresponds to 5e-9.
    pub ridge: f64,
    /// Ridge of the per-user head fit, (AᵀA + λI) v = Aᵀy with A = XU (sums,
    /// not averages). 0 = exact least squares (pseudo-inverse when singular).
    /// The authors' re-implementation uses 1e-6.
    pub head_ridge: f64,
}

impl PrivAltMinParams {
    /// The public re-implementation's settings (docs/algorithms.md) without noise:
    /// T = 5, clips 1e-4, all users, U-step ridge 5e-9 (see [`Self::ridge`]),
    /// head ridge 1e-6. Set σ with [`Self::with_noise_multiplier`] or directly.
    pub fn authors_code() -> Self {
        PrivAltMinParams {
            rounds: 5,
            feature_clip: 1e-4,
            label_clip: 1e-4,
            sigma_w: 0.0,
            sigma_b: 0.0,
            mode: AltMinMode::AllUsers,
            split: SampleSplit::HeadOnFirstHalf,
            ridge: 5e-9,
            head_ridge: 1e-6,
        }
    }

    /// σ_W = z·s_W and σ_b = z·s_b for the statistic points these params use
    /// with |S⁰| = `m_train`: each iteration is then μ = √2/z GDP.
    pub fn with_noise_multiplier(mut self, z: f64, m_train: usize, replace: bool) -> Self {
        let m_stat = self.split.statistic_points(m_train).len();
        let (s_w, s_b) = statistic_sensitivity(&self, m_stat, replace);
        self.sigma_w = z * s_w;
        self.sigma_b = z * s_b;
        self
    }
}

/// L2 (Frobenius for W) sensitivity of the raw sums (W, b) of one iteration
/// under user-level DP, for users contributing `points_per_user` statistic
/// points: add/remove-one (m' c_x², m' c_x c_y); replace-one
/// (√2 m' c_x², 2 m' c_x c_y). Derivation in the module docs.
pub fn statistic_sensitivity(
    params: &PrivAltMinParams,
    points_per_user: usize,
    relation_is_replace: bool,
) -> (f64, f64) {
    let m = points_per_user as f64;
    let (cx, cy) = (params.feature_clip, params.label_clip);
    if relation_is_replace {
        (std::f64::consts::SQRT_2 * m * cx * cx, 2.0 * m * cx * cy)
    } else {
        (m * cx * cx, m * cx * cy)
    }
}

impl PrivAltMinParams {
    /// What a run with these parameters releases, per user, for the
    /// accountant: the noisy W = Σ w wᵀ and b = Σ ỹ w of every iteration
    /// (sensitivities from [`statistic_sensitivity`] with the split's statistic
    /// points out of `m_train`). With all users, T iterations each (T-fold
    /// composition); with disjoint subsets, each user is in one iteration's
    /// group (parallel composition). Returns (W, b).
    pub fn privacy_events(
        &self,
        m_train: usize,
        relation_is_replace: bool,
    ) -> (PrivacyEvent, PrivacyEvent) {
        let points = self.split.statistic_points(m_train).len();
        let (s_w, s_b) = statistic_sensitivity(self, points, relation_is_replace);
        let w = PrivacyEvent::gaussian(
            "Priv-AltMin W = Σ w wᵀ",
            "symmetric Gaussian noise on the sum of clipped per-sample w wᵀ ((dk)×(dk))",
            s_w,
            self.sigma_w,
        );
        let b = PrivacyEvent::gaussian(
            "Priv-AltMin b = Σ ỹ w",
            "Gaussian noise on the sum of clamped-label ỹ·w (dk)",
            s_b,
            self.sigma_b,
        );
        let t = self.rounds as u64;
        match self.mode {
            AltMinMode::AllUsers => (w.repeated(t), b.repeated(t)),
            AltMinMode::DisjointSubsets => (w.on_disjoint_groups(t), b.on_disjoint_groups(t)),
        }
    }
}

/// The head v = argmin ‖y − X U v‖² + λ‖v‖² for rows X (rows×d row-major), U
/// row-major d×k. `a` is scratch of at least rows·k.
#[allow(clippy::too_many_arguments)]
fn fit_head(
    x: &[f64],
    y: &[f64],
    u_rows: &[f64],
    d: usize,
    k: usize,
    ridge: f64,
    a: &mut Vec<f64>,
    scratch: &mut HeadScratch,
    v: &mut [f64],
) {
    let rows = y.len();
    a.clear();
    for row in x.chunks_exact(d).take(rows) {
        for q in 0..k {
            a.push((0..d).map(|p| row[p] * u_rows[p * k + q]).sum());
        }
    }
    // Non-finite data, or data so large that the normal equations overflow:
    // head 0 (the user then contributes nothing; any head keeps the privacy).
    let energy: f64 = a.iter().chain(y).map(|t| t * t).sum();
    if !energy.is_finite() {
        v.iter_mut().for_each(|t| *t = 0.0);
        return;
    }
    least_squares_head(a, y, k, ridge, scratch, v);
    if v.iter().any(|t| !t.is_finite()) {
        v.iter_mut().for_each(|t| *t = 0.0);
    }
}

/// The users of one iteration, in increasing order.
pub type Participants = std::iter::StepBy<std::ops::Range<usize>>;

/// The users taking part in iteration t of a run over n users with T =
/// `rounds` iterations (see [`PrivAltMin::participants`]); `.len()` counts them.
pub fn participants(mode: AltMinMode, rounds: usize, n: usize, t: usize) -> Participants {
    match mode {
        AltMinMode::AllUsers => (0..n).step_by(1),
        AltMinMode::DisjointSubsets => (t.min(n)..n).step_by(rounds.max(1)),
    }
}

/// Priv-AltMin as a state machine: [`Self::step`] runs one iteration.
#[derive(Clone, Debug)]
pub struct PrivAltMin {
    params: PrivAltMinParams,
    n: usize,
    d: usize,
    k: usize,
    /// |S⁰|.
    m_train: usize,
    u: DMatrix<f64>,
    u_star: DMatrix<f64>,
    noise: NoiseSource,
    /// The current iteration's statistics so far, and how many of its
    /// participants they hold (see [`Self::advance`]).
    pending: Option<Box<(StatisticsAccumulator, usize)>>,
    t: usize,
    angles: Vec<f64>,
    failed_solves: usize,
}

impl PrivAltMin {
    /// Keeps nothing per user: every iteration reads (or, for a streamed
    /// dataset, regenerates) its participants' S⁰ and fits their heads on the fly.
    pub fn new(
        data: &FederatedDataset,
        u_init: DMatrix<f64>,
        params: PrivAltMinParams,
        noise: impl Into<NoiseSource>,
    ) -> Self {
        let (n, d, k) = (data.n(), data.d(), data.k());
        assert_eq!(u_init.shape(), (d, k), "U_init must be d×k");
        let u = orthonormalize(u_init);
        let angles = vec![principal_angle_distance(&u, &data.u_star)];
        PrivAltMin {
            params,
            n,
            d,
            k,
            m_train: data.model.m_train,
            u,
            u_star: data.u_star.clone(),
            noise: noise.into(),
            pending: None,
            t: 0,
            angles,
            failed_solves: 0,
        }
    }

    pub fn params(&self) -> &PrivAltMinParams {
        &self.params
    }

    /// Users taking part in iteration t: all, or (DisjointSubsets) the users
    /// i ≡ t (mod T). Groups are keyed by the user's identity i, not by n, so
    /// adding or removing one user changes one group only (what parallel
    /// composition needs under add/remove-one as well as replace-one).
    pub fn participants(&self, t: usize) -> Participants {
        participants(self.params.mode, self.params.rounds, self.n, t)
    }

    /// Statistic points per user (m' of the sensitivity).
    pub fn statistic_points_per_user(&self) -> usize {
        self.params.split.statistic_points(self.m_train).len()
    }

    /// What the whole run releases, for the accountant ([`PrivAltMinParams::privacy_events`]).
    pub fn privacy_events(&self, relation_is_replace: bool) -> (PrivacyEvent, PrivacyEvent) {
        self.params
            .privacy_events(self.m_train, relation_is_replace)
    }

    /// μ of the whole run as a GDP mechanism (∞ when a σ is 0).
    pub fn gdp_mu(&self, relation_is_replace: bool) -> f64 {
        let (w, b) = self.privacy_events(relation_is_replace);
        PrivacyEvent::Composed(vec![w, b])
            .gaussian_stages()
            .iter()
            .map(|s| s.steps as f64 * (s.sensitivity / s.sigma).powi(2))
            .sum::<f64>()
            .sqrt()
    }

    /// User i's head v_i on its head points with the current U (V-step; local,
    /// never released).
    pub fn head(&self, train: Points<'_>) -> Vec<f64> {
        let mut u_rows = Vec::new();
        to_row_major(&self.u, &mut u_rows);
        let mut v = vec![0.0; self.k];
        let head = self.params.split.head_points(self.m_train);
        fit_head(
            &train.x[head.start * self.d..head.end * self.d],
            &train.y[head],
            &u_rows,
            self.d,
            self.k,
            self.params.head_ridge,
            &mut Vec::new(),
            &mut HeadScratch::new(self.k),
            &mut v,
        );
        v
    }

    /// V-step then U-step sums for `users` (in order): each user's head is fitted
    /// and its statistic points added at once, so nothing per user is kept.
    fn add_participants(
        &self,
        data: &FederatedDataset,
        users: impl Iterator<Item = usize>,
        acc: &mut StatisticsAccumulator,
    ) -> usize {
        let (d, k, m) = (self.d, self.k, self.m_train);
        let head = self.params.split.head_points(m);
        let stat = self.params.split.statistic_points(m);
        let mut u_rows = Vec::new();
        to_row_major(&self.u, &mut u_rows);
        let (mut a, mut scratch, mut v) = (Vec::new(), HeadScratch::new(k), vec![0.0; k]);
        let mut count = 0;
        data.for_each_user(users, Part::Train, |user| {
            let train = user.train;
            fit_head(
                &train.x[head.start * d..head.end * d],
                &train.y[head.clone()],
                &u_rows,
                d,
                k,
                self.params.head_ridge,
                &mut a,
                &mut scratch,
                &mut v,
            );
            acc.add_user(
                &train.x[stat.start * d..stat.end * d],
                &train.y[stat.clone()],
                &v,
            );
            count += 1;
        });
        count
    }

    fn accumulator(&self) -> StatisticsAccumulator {
        StatisticsAccumulator::new(
            self.d,
            self.k,
            self.params.feature_clip,
            self.params.label_clip,
        )
    }

    /// The noiseless statistics of iteration t's U-step with the current U
    /// (the participants' heads fitted first).
    pub fn noiseless_statistics(&self, data: &FederatedDataset, t: usize) -> Statistics {
        let mut acc = self.accumulator();
        self.add_participants(data, self.participants(t), &mut acc);
        acc.finish()
    }

    /// One alternating iteration. Does nothing once `is_done()`.
    pub fn step(&mut self, data: &FederatedDataset) {
        while !self.is_done() && !self.advance(data, usize::MAX) {}
    }

    /// Works on the current iteration for at most `max_users` more
    /// participants, and releases the statistics and solves for U once all of
    /// them are in; true when an iteration was completed. Lets a runner bound
    /// the time of one step at any n with the numbers of [`step`](Self::step).
    pub fn advance(&mut self, data: &FederatedDataset, max_users: usize) -> bool {
        if self.is_done() {
            return false;
        }
        let t = self.t;
        let (mut acc, done) = match self.pending.take() {
            Some(p) => *p,
            None => (self.accumulator(), 0),
        };
        let users = self.participants(t).skip(done).take(max_users);
        let done = done + self.add_participants(data, users, &mut acc);
        if done < self.participants(t).len() {
            self.pending = Some(Box::new((acc, done)));
            return false;
        }
        self.release_and_solve(acc.finish());
        true
    }

    /// Adds iteration t's noise to the sums and solves for U_{t+1}.
    fn release_and_solve(&mut self, statistics: Statistics) {
        let t = self.t;
        let Statistics {
            mut w,
            mut b,
            points,
        } = statistics;
        let dk = self.d * self.k;
        let (nw, nb) = release_noise(self.noise, t, dk, self.params.sigma_w, self.params.sigma_b);
        w += nw;
        b += nb;
        let lam = self.params.ridge * points as f64;
        for a in 0..dk {
            w[(a, a)] += lam;
        }
        let sol = match w.clone().cholesky() {
            Some(ch) => Some(ch.solve(&b)),
            None => w.lu().solve(&b),
        };
        match sol {
            Some(u) if u.iter().all(|t| t.is_finite()) && u.norm() > 0.0 => {
                self.u = orthonormalize(DMatrix::from_column_slice(self.d, self.k, u.as_slice()));
            }
            _ => self.failed_solves += 1, // keep U_t
        }
        self.t += 1;
        self.angles
            .push(principal_angle_distance(&self.u, &self.u_star));
    }

    pub fn is_done(&self) -> bool {
        self.t >= self.params.rounds
    }

    /// Iterations done so far.
    pub fn iteration(&self) -> usize {
        self.t
    }

    /// The current U (orthonormal columns).
    pub fn u(&self) -> &DMatrix<f64> {
        &self.u
    }

    /// dist(U_t, U*) for t = 0 (the init), 1, …, iterations done.
    pub fn angle_history(&self) -> &[f64] {
        &self.angles
    }

    /// Iterations whose U-step system could not be solved (U kept unchanged).
    pub fn failed_solves(&self) -> usize {
        self.failed_solves
    }

    /// Final heads by exact least squares on each user's S¹ with the final U
    /// (local, no privacy cost), then the closed-form population risk averaged
    /// over users: (excess risk, MSE = excess + R²).
    pub fn finish(&self, data: &FederatedDataset) -> (f64, f64) {
        let risk = crate::algorithms::fedrep::final_risk(data, &self.u);
        (risk.excess_risk, risk.mse)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::shared_representation::SharedRepresentationModel;

    fn tiny_dk(d: usize, k: usize) -> FederatedDataset {
        SharedRepresentationModel {
            n: 7,
            d,
            k,
            m: 6,
            m_train: 4,
            noise: 0.1,
            unit_heads: false,
            seed: 3,
        }
        .generate()
    }

    fn params(mode: AltMinMode, cx: f64) -> PrivAltMinParams {
        PrivAltMinParams {
            rounds: 3,
            feature_clip: cx,
            label_clip: 0.7,
            sigma_w: 0.0,
            sigma_b: 0.0,
            mode,
            split: mode.default_split(),
            ridge: 0.0,
            head_ridge: 0.0,
        }
    }

    /// Explicit Σ w wᵀ and Σ ỹ w, forming each per-sample dk-vector.
    fn explicit(
        alg: &PrivAltMin,
        data: &FederatedDataset,
        t: usize,
    ) -> (DMatrix<f64>, DVector<f64>) {
        let (d, k) = (alg.d, alg.k);
        let mut w = DMatrix::zeros(d * k, d * k);
        let mut b = DVector::zeros(d * k);
        for i in alg.participants(t) {
            let train = data.train(i);
            let v = alg.head(train);
            for j in alg.params.split.statistic_points(alg.m_train) {
                let x = &train.x[j * d..(j + 1) * d];
                let mut wv = DVector::from_fn(d * k, |a, _| x[a % d] * v[a / d]);
                let f = clip_factor(wv.norm(), alg.params.feature_clip);
                wv *= f;
                let yt = train.y[j].clamp(-0.7, 0.7);
                w += &wv * wv.transpose();
                b += yt * &wv;
            }
        }
        (w, b)
    }

    fn tiny() -> FederatedDataset {
        tiny_dk(4, 2)
    }

    #[test]
    fn kronecker_statistics_equal_the_explicit_sum_of_outer_products() {
        // Several d and k (k = 3 has 6 blocks); both user modes.
        for (d, k) in [(4, 2), (7, 2), (7, 3)] {
            let data = tiny_dk(d, k);
            for mode in [AltMinMode::AllUsers, AltMinMode::DisjointSubsets] {
                // cx = 1.5 clips some samples and not others.
                let u0 = crate::linalg::gaussian_matrix(
                    d,
                    k,
                    &mut stream(1, Purpose::Initialization, 0),
                );
                let mut alg = PrivAltMin::new(&data, u0, params(mode, 1.5), 9);
                for t in 0..2 {
                    let st = alg.noiseless_statistics(&data, t);
                    let (w, b) = explicit(&alg, &data, t);
                    assert!(
                        (&st.w - &w).norm() <= 1e-12 * w.norm().max(1.0),
                        "{mode:?} d = {d} k = {k}"
                    );
                    assert!((&st.b - &b).norm() <= 1e-12 * b.norm().max(1.0));
                    assert!((&st.w - st.w.transpose()).norm() == 0.0);
                    alg.step(&data);
                }
            }
        }
    }

    #[test]
    fn with_the_true_heads_and_no_label_noise_the_u_step_returns_u_star() {
        let data = SharedRepresentationModel {
            n: 50,
            d: 8,
            k: 2,
            m: 6,
            m_train: 4,
            noise: 0.0,
            unit_heads: false,
            seed: 8,
        }
        .generate();
        let mut acc = StatisticsAccumulator::new(8, 2, 1e9, 1e9);
        for i in 0..50 {
            let train = data.train(i);
            acc.add_user(train.x, train.y, data.v_star(i));
        }
        let st = acc.finish();
        let u = st.w.cholesky().unwrap().solve(&st.b);
        let u = DMatrix::from_column_slice(8, 2, u.as_slice());
        assert!((&u - &data.u_star).norm() < 1e-9);
    }

    #[test]
    fn streamed_users_and_bounded_pieces_give_exactly_the_stored_one_pass_run() {
        let model = SharedRepresentationModel {
            n: 53,
            d: 6,
            k: 2,
            m: 6,
            m_train: 4,
            noise: 0.1,
            unit_heads: false,
            seed: 5,
        };
        let (stored, streamed) = (model.generate(), model.streamed());
        for mode in [AltMinMode::AllUsers, AltMinMode::DisjointSubsets] {
            let mut p = params(mode, 1.5);
            (p.sigma_w, p.sigma_b, p.ridge) = (0.3, 0.2, 1e-3);
            let u0 =
                crate::linalg::gaussian_matrix(6, 2, &mut stream(2, Purpose::Initialization, 0));
            let mut one = PrivAltMin::new(&stored, u0.clone(), p.clone(), 9);
            while !one.is_done() {
                one.step(&stored);
            }
            let mut pieces = PrivAltMin::new(&streamed, u0, p.clone(), 9);
            let mut calls = 0;
            while !pieces.is_done() {
                pieces.advance(&streamed, 4);
                calls += 1;
            }
            assert_eq!(one.u(), pieces.u(), "{mode:?}");
            assert_eq!(one.angle_history(), pieces.angle_history());
            assert!(calls > 2 * p.rounds, "{calls} calls");
            assert_eq!(one.finish(&stored), pieces.finish(&streamed));
        }
    }

    #[test]
    fn disjoint_groups_partition_the_users() {
        let data = tiny();
        let alg = PrivAltMin::new(
            &data,
            data.u_star.clone(),
            params(AltMinMode::DisjointSubsets, 1.0),
            0,
        );
        let mut seen = [0; 7];
        for t in 0..3 {
            for i in alg.participants(t) {
                seen[i] += 1;
            }
        }
        assert!(seen.iter().all(|&s| s == 1));
        assert_eq!(
            PrivacyEvent::Composed(vec![alg.privacy_events(true).0]).gaussian_stages()[0].steps,
            1
        );
        assert_eq!(alg.statistic_points_per_user(), 2);
    }

    #[test]
    fn sensitivity_formulas_follow_the_clipping() {
        let p = params(AltMinMode::AllUsers, 0.5);
        let (sw, sb) = statistic_sensitivity(&p, 4, false);
        assert!((sw - 4.0 * 0.25).abs() < 1e-15 && (sb - 4.0 * 0.5 * 0.7).abs() < 1e-15);
        let (rw, rb) = statistic_sensitivity(&p, 4, true);
        assert!((rw - sw * 2f64.sqrt()).abs() < 1e-15 && (rb - 2.0 * sb).abs() < 1e-15);
        let q = p.with_noise_multiplier(3.0, 4, true);
        assert!((q.sigma_w - 3.0 * rw).abs() < 1e-15 && (q.sigma_b - 3.0 * rb).abs() < 1e-15);
    }
}
