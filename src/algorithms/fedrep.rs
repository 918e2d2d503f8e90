//! Private FedRep (Snedeker et al., Algorithm 1) and, with σ = 0, non-private
//! FedRep as the paper runs it (Collins et al. 2021 with disjoint v/U batches).
//!
//! Each round: every user fits its head v_i exactly on batch B, computes the
//! gradient of its batch-B' loss w.r.t. U, clips it in Frobenius norm to ψ; the
//! server averages, adds N(0, σ̂²) to every entry, takes a step and
//! re-orthonormalizes by QR. At the end each user refits its head on S¹.

mod final_heads;

use crate::data::shared_representation::{FederatedDataset, Part, Points};
use crate::linalg::{axpy, dot, least_squares_head, orthonormalize, HeadScratch};
use crate::metrics::principal_angle_distance;
use crate::privacy::clipping::clip_factor;
use crate::privacy::gaussian::add_gaussian_noise;
use crate::rng::NoiseSource;
#[cfg(test)]
use crate::rng::{stream, Purpose};
pub use final_heads::{
    final_and_local_sums, final_risk, final_risk_sum, final_risk_sums, risk_from_sum, FinalRisk,
};
use nalgebra::DMatrix;
use serde::{Deserialize, Serialize};

/// Users per block of the gradient sum (see [`FedRep::block_partials`]).
pub const USER_BLOCK: usize = 1024;

/// One block's Σ clip(∇_i) (d×k column-major) and how many of its users were clipped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlockPartial {
    pub sum: Vec<f64>,
    pub clipped: usize,
}

/// Which of a user's S⁰ points feed the head fit (B) and the gradient (B') in a
/// round; the paper's b ≤ ⌊m/2T⌋ is infeasible at its own m and T (Lemma 9; docs/algorithms.md, Private FedRep: open choices).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum BatchMode {
    /// All of S⁰ every round, split in halves: B = first ⌈|S⁰|/2⌉, B' = the rest
    /// (B and B' disjoint within a round, as Alg. 1 line 5 asks).
    #[default]
    Split,
    /// All of S⁰ for both the head and the gradient (the authors' code).
    Full,
    /// Fresh disjoint batches of b = ⌊|S⁰|/(2T)⌋ points each round: the analysed
    /// algorithm (Lemma 9); needs 2bT ≤ |S⁰|.
    Fresh,
}

impl BatchMode {
    pub fn name(self) -> &'static str {
        crate::names::serde_name(&self)
    }

    /// (B, B') index ranges into S⁰ for round t.
    pub fn batches(
        self,
        m_train: usize,
        rounds: usize,
        t: usize,
    ) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        match self {
            BatchMode::Full => (0..m_train, 0..m_train),
            BatchMode::Split => {
                let h = m_train.div_ceil(2);
                (0..h, h..m_train)
            }
            BatchMode::Fresh => {
                let b = m_train / (2 * rounds.max(1));
                let s = 2 * b * t;
                (s..s + b, s + b..s + 2 * b)
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct FedRepParams {
    pub rounds: usize,
    /// Server step size η.
    pub step: f64,
    /// Frobenius clip ψ of each user's gradient (None: no clipping).
    pub clip: Option<f64>,
    /// Standard deviation σ̂ of the noise added to every entry of the averaged gradient.
    pub sigma: f64,
    pub batch: BatchMode,
}

/// Per-run scratch, allocated once and reused for every user.
#[derive(Clone, Debug)]
struct Scratch {
    a: Vec<f64>,
    v: Vec<f64>,
    g: Vec<f64>,
    head: HeadScratch,
}

/// A FedRep run as a state machine: `step()` is one communication round.
#[derive(Clone, Debug)]
pub struct FedRep {
    params: FedRepParams,
    u: DMatrix<f64>,
    round: usize,
    angles: Vec<f64>,
    noise: NoiseSource,
    clipped_fraction: f64,
    /// Users left out of the clipped sums as not finite, over the blocks this
    /// run computed.
    skipped: usize,
    scratch: Scratch,
    /// Block partials of the round in progress (see [`FedRep::step_blocks`]).
    pending: Vec<BlockPartial>,
    /// What the last round released: the noisy mean gradient (d×k column-major).
    released: Vec<f64>,
}

impl FedRep {
    pub fn new(
        data: &FederatedDataset,
        u_init: DMatrix<f64>,
        params: FedRepParams,
        noise: impl Into<NoiseSource>,
    ) -> Self {
        let (d, k) = (data.d(), data.k());
        let mt = data.model.m_train;
        let u = orthonormalize(u_init);
        let angles = vec![principal_angle_distance(&u, &data.u_star)];
        FedRep {
            params,
            u,
            round: 0,
            angles,
            noise: noise.into(),
            clipped_fraction: 0.0,
            skipped: 0,
            scratch: Scratch {
                a: vec![0.0; mt * k],
                v: vec![0.0; k],
                g: vec![0.0; d],
                head: HeadScratch::new(k),
            },
            pending: Vec::new(),
            released: Vec::new(),
        }
    }

    /// The Gaussian mechanism's output of the last round: (1/n) Σ clip(∇_i) + ξ
    /// (d×k column-major). Everything the server does with it (the step, the
    /// QR) is post-processing; an audit's white-box attacker sees this.
    pub fn last_release(&self) -> &[f64] {
        &self.released
    }

    pub fn is_done(&self) -> bool {
        self.round >= self.params.rounds
    }

    pub fn round(&self) -> usize {
        self.round
    }

    pub fn params(&self) -> &FedRepParams {
        &self.params
    }

    pub fn u(&self) -> &DMatrix<f64> {
        &self.u
    }

    /// dist(U_t, U*) for t = 0..=round.
    pub fn angles(&self) -> &[f64] {
        &self.angles
    }

    /// Fraction of users whose gradient was clipped in the last round.
    pub fn clipped_fraction(&self) -> f64 {
        self.clipped_fraction
    }

    /// Users whose gradient was not finite and was left out of the sum, over
    /// the rounds so far (counted in the blocks this run computed itself).
    pub fn skipped(&self) -> usize {
        self.skipped
    }

    /// One round of Algorithm 1 (lines 3–10).
    pub fn step(&mut self, data: &FederatedDataset) {
        while !self.is_done() && !self.step_blocks(data, usize::MAX) {}
    }

    /// Works on the current round for at most `max_blocks` more user blocks,
    /// and finishes the round (the server step) once every block is done;
    /// true when a round was completed. Lets a runner bound the time of one
    /// step at any n (a round over 10⁶ users takes seconds) with the same
    /// numbers as [`step`](Self::step).
    pub fn step_blocks(&mut self, data: &FederatedDataset, max_blocks: usize) -> bool {
        if self.is_done() {
            return false;
        }
        let total = data.n().div_ceil(USER_BLOCK);
        let start = self.pending.len();
        let end = start.saturating_add(max_blocks).min(total);
        let mut partials = self.block_partials(data, start..end);
        self.pending.append(&mut partials);
        if self.pending.len() < total {
            return false;
        }
        let partials = std::mem::take(&mut self.pending);
        self.apply_partials(data, &partials);
        true
    }

    /// The clipped gradient sums of the user blocks `blocks` (block b holds
    /// users b·USER_BLOCK ..) for the current round, each with its count of
    /// clipped users. Workers may compute disjoint block ranges in parallel;
    /// [`apply_partials`](Self::apply_partials) adds them in block order, so the
    /// result does not depend on how the blocks were split.
    pub fn block_partials(
        &mut self,
        data: &FederatedDataset,
        blocks: std::ops::Range<usize>,
    ) -> Vec<BlockPartial> {
        block_partials_of_runs(&mut [self], data, blocks)
            .pop()
            .unwrap_or_default()
    }

    /// The server's part of a round (Alg. 1 lines 8–10) from every block's
    /// partial sum, in block order: Û = U − η((1/n) Σ clip(∇_i) + ξ) with
    /// ξ ~ N(0, σ̂²) entrywise, then U = QR(Û).
    pub fn apply_partials(&mut self, data: &FederatedDataset, partials: &[BlockPartial]) {
        let (n, d, k) = (data.n(), data.d(), data.k());
        let mut sum = vec![0.0; d * k];
        let mut clipped = 0;
        for p in partials {
            axpy(1.0, &p.sum, &mut sum);
            clipped += p.clipped;
        }
        let mut rng = self.noise.release(self.round as u64);
        // The mean clipped gradient plus ξ ~ N(0, σ̂²) entrywise (column-major, as U).
        let mut noisy_mean: Vec<f64> = sum.iter().map(|s| s / n as f64).collect();
        add_gaussian_noise(&mut noisy_mean, self.params.sigma, &mut rng);
        let eta = self.params.step;
        let u_hat = DMatrix::from_fn(d, k, |p, q| self.u[(p, q)] - eta * noisy_mean[q * d + p]);
        self.u = orthonormalize(u_hat);
        self.released = noisy_mean;
        self.angles
            .push(principal_angle_distance(&self.u, &data.u_star));
        self.clipped_fraction = clipped as f64 / n as f64;
        self.round += 1;
    }

    /// Fits v on B, leaves g = (2/|B'|) Σ_{B'} (a_jᵀv − y_j) x_j in scratch (so the
    /// gradient is g vᵀ) and returns the clip factor min{1, ψ/‖g vᵀ‖_F}.
    #[inline(always)]
    fn user_gradient(
        &mut self,
        pts: Points<'_>,
        d: usize,
        k: usize,
        b: std::ops::Range<usize>,
        b_prime: std::ops::Range<usize>,
    ) -> f64 {
        let s = &mut self.scratch;
        // U column-major: column q is u[q·d..(q+1)·d], for contiguous dot products.
        let u = self.u.as_slice();
        // a_j = Uᵀ x_j for every point of S⁰ that is used.
        let used = b.start.min(b_prime.start)..b.end.max(b_prime.end);
        for j in used.clone() {
            let x = &pts.x[j * d..(j + 1) * d];
            for q in 0..k {
                s.a[j * k + q] = dot(x, &u[q * d..(q + 1) * d]);
            }
        }
        least_squares_head(
            &s.a[b.start * k..b.end * k],
            &pts.y[b.clone()],
            k,
            0.0,
            &mut s.head,
            &mut s.v,
        );
        s.g.iter_mut().for_each(|v| *v = 0.0);
        let scale = 2.0 / b_prime.len() as f64;
        for j in b_prime {
            let a = &s.a[j * k..(j + 1) * k];
            let pred: f64 = a.iter().zip(&s.v).map(|(x, y)| x * y).sum();
            let r = scale * (pred - pts.y[j]);
            axpy(r, &pts.x[j * d..(j + 1) * d], &mut s.g);
        }
        match self.params.clip {
            Some(psi) => {
                let g_norm = dot(&s.g, &s.g).sqrt();
                let v_norm = s.v.iter().map(|v| v * v).sum::<f64>().sqrt();
                let f = clip_factor(g_norm * v_norm, psi);
                if f == 0.0 {
                    s.g.iter_mut().for_each(|v| *v = 0.0);
                }
                f
            }
            None => 1.0,
        }
    }

    /// Every user's contribution to the current round, in user order, for a
    /// view of the round in slow motion: `f(user, ‖∇_i‖_F, clip factor, ∇_i)`
    /// with ∇_i = g vᵀ (d×k column-major) before clipping, as
    /// [`block_partials`](Self::block_partials) computes it (the same head
    /// fit and gradient; its clipped sum adds factor·∇_i in the same order).
    pub fn for_each_contribution(
        &mut self,
        data: &FederatedDataset,
        mut f: impl FnMut(usize, f64, f64, &[f64]),
    ) {
        let (d, k) = (data.d(), data.k());
        let (b, b_prime) =
            self.params
                .batch
                .batches(data.model.m_train, self.params.rounds, self.round);
        let mut contribution = vec![0.0; d * k];
        data.for_each_user(0..data.n(), Part::Train, |user| {
            let factor = self.user_gradient(user.train, d, k, b.clone(), b_prime.clone());
            let s = &self.scratch;
            let norm = dot(&s.g, &s.g).sqrt() * dot(&s.v, &s.v).sqrt();
            for q in 0..k {
                for (c, g) in contribution[q * d..(q + 1) * d].iter_mut().zip(&s.g) {
                    *c = s.v[q] * g;
                }
            }
            f(user.index, norm, factor, &contribution);
        });
    }

    /// ξ of the current round: the noise [`apply_partials`](Self::apply_partials)
    /// adds to the mean clipped gradient (drawn again from the round's own
    /// stream: the same draws, d×k column-major).
    pub fn round_noise(&self, len: usize) -> Vec<f64> {
        let mut rng = self.noise.release(self.round as u64);
        let mut xi = vec![0.0; len];
        add_gaussian_noise(&mut xi, self.params.sigma, &mut rng);
        xi
    }

    /// Final heads on S¹ with U_T (Alg. 1 line 12) and the population risk.
    pub fn finish(&mut self, data: &FederatedDataset) -> FinalRisk {
        final_risk(data, &self.u)
    }
}

/// The block partials of several FedRep runs ([`FedRep::block_partials`] of
/// each, each at its own round) in one pass over the users: a user's points
/// are read, or regenerated when the dataset is streamed, once for all the
/// runs. Each run adds its users in the same order as on its own, so its
/// partials are bit-identical to a pass of its own; with the dataset streamed,
/// regenerating the points is most of a pass, so k runs together cost far
/// less than k passes.
pub fn block_partials_of_runs(
    runs: &mut [&mut FedRep],
    data: &FederatedDataset,
    blocks: std::ops::Range<usize>,
) -> Vec<Vec<BlockPartial>> {
    let (n, d, k) = (data.n(), data.d(), data.k());
    let mut out: Vec<Vec<BlockPartial>> = runs.iter().map(|_| Vec::new()).collect();
    for block in blocks {
        let start = block * USER_BLOCK;
        let users = start.min(n)..(start + USER_BLOCK).min(n);
        let mut sums = vec![vec![0.0; d * k]; runs.len()];
        let clipped = clipped_gradient_sums(runs, data, users, &mut sums);
        for ((partials, sum), clipped) in out.iter_mut().zip(sums).zip(clipped) {
            partials.push(BlockPartial { sum, clipped });
        }
    }
    out
}

/// Σ_i clip(∇_i, ψ) over users `users` for each run (added into its d×k
/// column-major sum), each with its batches B, B' of its current round;
/// returns how many users each run clipped. Dispatches on k so that the
/// per-user loops are compiled with k a constant (fully unrolled for small k).
fn clipped_gradient_sums(
    runs: &mut [&mut FedRep],
    data: &FederatedDataset,
    users: std::ops::Range<usize>,
    sums: &mut [Vec<f64>],
) -> Vec<usize> {
    match data.k() {
        1 => gradient_sums_k(runs, data, 1, users, sums),
        2 => gradient_sums_k(runs, data, 2, users, sums),
        3 => gradient_sums_k(runs, data, 3, users, sums),
        4 => gradient_sums_k(runs, data, 4, users, sums),
        k => gradient_sums_k(runs, data, k, users, sums),
    }
}

#[inline(always)]
fn gradient_sums_k(
    runs: &mut [&mut FedRep],
    data: &FederatedDataset,
    k: usize,
    users: std::ops::Range<usize>,
    sums: &mut [Vec<f64>],
) -> Vec<usize> {
    let d = data.d();
    let mt = data.model.m_train;
    let batches: Vec<_> = runs
        .iter()
        .map(|run| run.params.batch.batches(mt, run.params.rounds, run.round))
        .collect();
    let mut clipped = vec![0usize; runs.len()];
    data.for_each_user(users, Part::Train, |user| {
        for (r, run) in runs.iter_mut().enumerate() {
            let (b, b_prime) = &batches[r];
            let factor = run.user_gradient(user.train, d, k, b.clone(), b_prime.clone());
            if factor < 1.0 {
                clipped[r] += 1;
            }
            if factor == 0.0 {
                // A non-finite gradient (clip factor 0): left out whole, since
                // 0·∞ in the head would still put NaN into the sum; counted.
                run.skipped += 1;
                continue;
            }
            // Accumulate factor · g vᵀ (each user's gradient is rank one):
            // column q gets (factor·v_q)·g.
            let s = &run.scratch;
            let sum = &mut sums[r];
            for q in 0..k {
                axpy(factor * s.v[q], &s.g, &mut sum[q * d..(q + 1) * d]);
            }
        }
    });
    clipped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::shared_representation::SharedRepresentationModel;

    fn data(n: usize) -> FederatedDataset {
        SharedRepresentationModel {
            n,
            d: 10,
            k: 2,
            m: 10,
            m_train: 5,
            noise: 0.01,
            unit_heads: false,
            seed: 5,
        }
        .generate()
    }

    /// Clipped FedRep with these settings (every test clips).
    fn params(rounds: usize, step: f64, clip: f64, sigma: f64, batch: BatchMode) -> FedRepParams {
        FedRepParams {
            rounds,
            step,
            clip: Some(clip),
            sigma,
            batch,
        }
    }

    /// Two runs from the same start, settings and seed, one on each dataset,
    /// after three rounds.
    fn twin_runs(
        one: &FederatedDataset,
        other: &FederatedDataset,
        batch: BatchMode,
        seed: u64,
    ) -> (FedRep, FedRep) {
        let params = params(3, 1.0, 10.0, 0.01, batch);
        let mut a = FedRep::new(one, perturbed_truth(one, 0.3), params.clone(), seed);
        let mut b = FedRep::new(other, perturbed_truth(other, 0.3), params, seed);
        for _ in 0..3 {
            a.step(one);
            b.step(other);
        }
        (a, b)
    }

    fn perturbed_truth(data: &FederatedDataset, amount: f64) -> DMatrix<f64> {
        let mut rng = stream(99, Purpose::Initialization, 0);
        let noise = crate::linalg::gaussian_matrix(data.d(), data.k(), &mut rng);
        &data.u_star + noise * amount
    }

    #[test]
    fn batches_are_disjoint_within_a_round_and_fresh_across_rounds() {
        assert_eq!(BatchMode::Split.batches(5, 5, 3), (0..3, 3..5));
        assert_eq!(BatchMode::Full.batches(5, 5, 0), (0..5, 0..5));
        assert_eq!(BatchMode::Fresh.batches(20, 2, 1), (10..15, 15..20));
    }

    #[test]
    fn the_user_gradient_matches_the_formula_on_a_hand_computed_case() {
        // d = 2, k = 1, U = e1, split mode with |S⁰| = 2: B = {point 0}, B' = {point 1}.
        let model = SharedRepresentationModel {
            n: 1,
            d: 2,
            k: 1,
            m: 3,
            m_train: 2,
            noise: 0.0,
            unit_heads: false,
            seed: 0,
        };
        let mut data = model.generate();
        data.x[..4].copy_from_slice(&[1.0, 2.0, 2.0, 1.0]);
        data.y[..2].copy_from_slice(&[3.0, 1.0]);
        let u = DMatrix::from_column_slice(2, 1, &[1.0, 0.0]);
        let params = params(1, 1.0, 10.0, 0.0, BatchMode::Split);
        let mut run = FedRep::new(&data, u, params, 0);
        let (b, b_prime) = BatchMode::Split.batches(2, 1, 0);
        let f = run.user_gradient(data.train(0), 2, 1, b, b_prime);
        // Point 0: a = xᵀU = 1, so v = y/a = 3. Point 1: a = 2, residual 2·3 − 1 = 5,
        // g = (2/1)·5·(2, 1) = (20, 10); ∇ = g vᵀ = (60, 30), ‖∇‖_F = √4500.
        assert!((run.scratch.v[0] - 3.0).abs() < 1e-12);
        assert!((run.scratch.g[0] - 20.0).abs() < 1e-12 && (run.scratch.g[1] - 10.0).abs() < 1e-12);
        assert!((f - 10.0 / 4500f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn clipping_bounds_every_users_gradient_whatever_its_data() {
        let mut data = data(50);
        // Make one user's data adversarial: huge features and labels.
        for v in data.x[..10 * 10].iter_mut() {
            *v *= 1e6;
        }
        for v in data.y[..10].iter_mut() {
            *v = -1e9;
        }
        let params = params(1, 1.0, 0.7, 0.0, BatchMode::Split);
        let mut run = FedRep::new(&data, data.u_star.clone(), params, 0);
        for i in 0..50 {
            let f = run.user_gradient(data.train(i), 10, 2, 0..3, 3..5);
            let g: f64 = run.scratch.g.iter().map(|v| v * v).sum::<f64>().sqrt();
            let v: f64 = run.scratch.v.iter().map(|v| v * v).sum::<f64>().sqrt();
            assert!(f * g * v <= 0.7 * (1.0 + 1e-12), "user {i}: {}", f * g * v);
        }
    }

    /// A user whose data make its gradient non-finite is left out of the
    /// clipped sum (not 0·NaN) and counted; the other users' sum is untouched.
    #[test]
    fn a_non_finite_user_is_skipped_and_counted() {
        let clean = data(50);
        let params = params(1, 1.0, 0.7, 0.0, BatchMode::Split);
        let mut run = FedRep::new(&clean, perturbed_truth(&clean, 0.3), params, 0);
        let reference = run.clone().block_partials(&clean, 0..1);
        for wild in [f64::INFINITY, f64::NAN] {
            let mut bad = clean.clone();
            // User 3's head point (in B) and a gradient point (in B').
            bad.x[3 * 10 * 10] = wild;
            bad.y[3 * 10 + 4] = wild;
            let mut r = run.clone();
            let partials = r.block_partials(&bad, 0..1);
            assert!(partials[0].sum.iter().all(|v| v.is_finite()), "{wild}");
            assert_eq!(r.skipped(), 1);
            // Only user 3's term is missing from the sum.
            let mut without = clean.clone();
            without.y[3 * 10..3 * 10 + 10]
                .iter_mut()
                .for_each(|v| *v = 0.0);
            without.x[3 * 100..3 * 100 + 100]
                .iter_mut()
                .for_each(|v| *v = 0.0);
            let expected = run.clone().block_partials(&without, 0..1);
            assert_eq!(partials[0].sum, expected[0].sum);
            assert!(partials[0].sum != reference[0].sum);
        }
        run.step(&clean);
        assert_eq!(run.skipped(), 0);
        assert!(run.u().iter().all(|v| v.is_finite()));
    }

    #[test]
    fn non_private_fedrep_drives_the_principal_angle_to_the_noise_floor() {
        let data = data(3000);
        // As in the paper's non-private baseline, gradients are still clipped:
        // a head fitted on 3 points has heavy tails (its inverse Gram matrix
        // has no finite mean), and one wild user would dominate the average.
        let params = params(30, 0.5, 10.0, 0.0, BatchMode::Split);
        let mut run = FedRep::new(&data, perturbed_truth(&data, 0.4), params, 1);
        while !run.is_done() {
            run.step(&data);
        }
        let a = run.angles();
        assert!(a[0] > 0.3, "start {}", a[0]);
        assert!(*a.last().unwrap() < 0.02, "end {}", a.last().unwrap());
        let risk = run.finish(&data);
        assert!(risk.excess_risk < 0.01, "risk {}", risk.excess_risk);
        assert!((risk.mse - risk.excess_risk - 1e-4).abs() < 1e-15);
    }

    #[test]
    fn the_same_seed_gives_the_same_run() {
        let data = data(200);
        let (a, b) = twin_runs(&data, &data, BatchMode::Full, 4);
        assert_eq!(a.angles(), b.angles());
    }

    #[test]
    fn blocks_split_across_workers_give_exactly_the_single_threaded_round() {
        let data = data(5000); // 5 blocks, the last one partial
        let params = params(3, 1.0, 1.0, 0.01, BatchMode::Full);
        let mut single = FedRep::new(&data, perturbed_truth(&data, 0.3), params, 3);
        let mut merged = single.clone();
        for _ in 0..3 {
            single.step(&data);
            // Two "workers" with their own copy of the state compute block
            // ranges [0, 2) and [2, 5); the server adds them in block order.
            let (mut w1, mut w2) = (merged.clone(), merged.clone());
            let mut partials = w1.block_partials(&data, 0..2);
            partials.extend(w2.block_partials(&data, 2..5));
            merged.apply_partials(&data, &partials);
        }
        assert_eq!(single.u().as_slice(), merged.u().as_slice());
        assert_eq!(single.angles(), merged.angles());
    }

    #[test]
    fn a_round_taken_a_few_blocks_at_a_time_is_exactly_the_whole_round() {
        let data = data(5000);
        let params = params(2, 1.0, 1.0, 0.01, BatchMode::Split);
        let mut whole = FedRep::new(&data, perturbed_truth(&data, 0.3), params, 5);
        let mut pieces = whole.clone();
        whole.step(&data);
        whole.step(&data);
        let mut completed = 0;
        let mut calls = 0;
        while !pieces.is_done() {
            completed += usize::from(pieces.step_blocks(&data, 2));
            calls += 1;
        }
        assert_eq!(completed, 2);
        assert_eq!(calls, 6, "5 blocks in steps of 2 → 3 calls per round");
        assert_eq!(whole.angles(), pieces.angles());
        let sum = final_risk_sum(&data, pieces.u(), 0..2000)
            + final_risk_sum(&data, pieces.u(), 2000..5000);
        let one = final_risk(&data, whole.u()).excess_risk;
        assert!((risk_from_sum(&data, sum).excess_risk - one).abs() <= 1e-13 * one);
    }

    #[test]
    fn runs_sharing_a_pass_over_the_users_get_exactly_their_own_partials() {
        // Streamed, so the shared pass regenerates each user once for all runs.
        let model = SharedRepresentationModel {
            n: 2500, // 3 blocks, the last one partial
            d: 10,
            k: 2,
            m: 10,
            m_train: 6,
            noise: 0.01,
            unit_heads: true,
            seed: 4,
        };
        let data = model.streamed();
        let with = |sigma, batch| params(3, 1.0, 0.5, sigma, batch);
        let mut runs = [
            FedRep::new(
                &data,
                perturbed_truth(&data, 0.3),
                with(0.0, BatchMode::Split),
                1,
            ),
            FedRep::new(
                &data,
                perturbed_truth(&data, 0.5),
                with(0.05, BatchMode::Fresh),
                2,
            ),
            FedRep::new(
                &data,
                perturbed_truth(&data, 0.2),
                with(0.01, BatchMode::Full),
                3,
            ),
        ];
        // Runs at different rounds: each must use its own batches.
        runs[1].step(&data);
        let alone: Vec<Vec<BlockPartial>> = runs
            .iter()
            .map(|r| r.clone().block_partials(&data, 0..3))
            .collect();
        let mut refs: Vec<&mut FedRep> = runs.iter_mut().collect();
        let together = block_partials_of_runs(&mut refs, &data, 0..3);
        assert_eq!(together, alone);
        assert!(alone[0][0].clipped > 0 && alone[0][0].clipped < USER_BLOCK);
        let us: Vec<&DMatrix<f64>> = runs.iter().map(|r| r.u()).collect();
        let sums = final_risk_sums(&data, &us, 100..2500);
        for (run, sum) in runs.iter().zip(&sums) {
            assert_eq!(
                final_risk_sum(&data, run.u(), 100..2500).to_bits(),
                sum.to_bits()
            );
        }
        assert!(sums[0] != sums[1]);
    }

    #[test]
    fn a_streamed_dataset_gives_exactly_the_stored_run() {
        let model = SharedRepresentationModel {
            n: 1500,
            d: 10,
            k: 2,
            m: 10,
            m_train: 5,
            noise: 0.01,
            unit_heads: true,
            seed: 9,
        };
        let (stored, streamed) = (model.generate(), model.streamed());
        let (mut a, mut b) = twin_runs(&stored, &streamed, BatchMode::Split, 2);
        assert_eq!(a.angles(), b.angles());
        assert_eq!(a.finish(&stored), b.finish(&streamed));
    }

    #[test]
    fn more_noise_leaves_a_larger_angle() {
        let data = data(2000);
        let run = |sigma| {
            let params = params(10, 0.5, 10.0, sigma, BatchMode::Split);
            let mut r = FedRep::new(&data, perturbed_truth(&data, 0.3), params, 8);
            while !r.is_done() {
                r.step(&data);
            }
            *r.angles().last().unwrap()
        };
        let (quiet, loud) = (run(0.001), run(0.1));
        assert!(quiet < loud, "{quiet} vs {loud}");
    }
}
