//! Personalized margin classification with a shared representation
//! (Snedeker, Zhou & Bassily, §4, the setting of Algorithm 3 and Theorem 17):
//! inputs x in the d-dimensional ball of radius r, a true U* (d×k, orthonormal
//! columns) shared by all users, user i's head v_i* with ‖v_i*‖ = Γ, labels
//! y = sign(⟨x, U* v_i*⟩) flipped with probability `flip`, and the margin
//! |⟨x, U* v_i*⟩| ≥ ρ the theorem's comparator L̂_ρ rewards. Each user has m
//! points: S⁰ (the first m/2) and S¹ (the rest).
//!
//! The paper fixes only the domain (the r-ball) and leaves the distribution
//! open; this project offers two (its choice, labelled on the page):
//! - [`Inputs::Subspace`] (the default): x = U*z + P⊥g with z uniform on the
//!   sphere of radius a·r in R^k and g uniform on the sphere of radius
//!   r√(1−a²) in span(U*)⊥, so ‖x‖ = r and ⟨x, U*v_i*⟩ = ⟨z, v_i*⟩: the
//!   label's signal and the margin do not depend on d (Theorem 17's bound is
//!   flat in d when its margin is). The margin is kept by rejecting z, in k
//!   dimensions, at a rate that does not depend on d.
//! - [`Inputs::Ball`]: x uniform in the d-ball. ⟨x, U*v_i*⟩ then has standard
//!   deviation about rΓ/√(d + 2): the signal, and the margin most inputs
//!   keep, shrink like 1/√d.

use crate::data::labelled::Labelled;
use crate::linalg::{gaussian_matrix, orthonormalize};
use crate::rng::{stream, Purpose};
use nalgebra::DMatrix;
use rand::{Rng, RngExt};
use rand_distr::StandardNormal;

/// How the inputs are drawn (see the module's documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Inputs {
    /// x = U*z + P⊥g: a share `signal` = a ∈ (0, 1] of ‖x‖ = r in span(U*).
    Subspace { signal: f64 },
    /// x uniform in the d-ball of radius r.
    Ball,
}

/// The model's parameters (validated by the scenario's config).
#[derive(Clone, Debug, PartialEq)]
pub struct MarginModel {
    pub n: usize,
    pub m: usize,
    pub d: usize,
    pub k: usize,
    pub inputs: Inputs,
    /// Radius r of the input ball.
    pub radius: f64,
    /// ‖v_i*‖ = Γ.
    pub gamma: f64,
    /// Inputs keep |⟨x, U*v_i*⟩| ≥ margin (0: no margin).
    pub margin: f64,
    /// Probability that a label is flipped.
    pub flip: f64,
    pub seed: u64,
}

/// One user's points: `x` row-major (points × d) and labels ±1.
pub type Points = Labelled<Vec<f64>, Vec<f64>>;

/// A drawn dataset: the truth and every user's S⁰ and S¹.
#[derive(Clone, Debug)]
pub struct MarginDataset {
    pub model: MarginModel,
    pub u_star: DMatrix<f64>,
    /// Row i: user i's head v_i* (n×k).
    pub v_star: DMatrix<f64>,
    pub train: Vec<Points>,
    pub holdout: Vec<Points>,
}

/// Most draws of an input before giving up on the margin. The scenario's
/// checks keep the chance that a draw keeps the margin at or above
/// [`MIN_ACCEPTANCE`], so 10 000 failures in a row have probability below
/// e^−100.
const MAX_TRIES: usize = 10_000;

/// The smallest share of draws that may keep the margin (the scenario's
/// check at the field `margin`).
pub const MIN_ACCEPTANCE: f64 = 0.01;

/// The stream index offset of the perpendicular parts g (Inputs::Subspace):
/// z, the flips and g come from separate streams, so a user's z and labels are
/// the same at every d and only P⊥g changes with it.
const PERPENDICULAR: u64 = 1 << 42;

/// P(|u₁| ≥ s) for u uniform on the unit sphere of R^dim. With u₁ = sin φ the
/// density of φ ∈ [−π/2, π/2] is ∝ cos^{dim−2} φ: closed forms for dim ≤ 3,
/// Simpson's rule in φ (a smooth integrand) above.
pub fn sphere_tail(dim: usize, s: f64) -> f64 {
    if s.is_nan() {
        return 0.0;
    }
    if s <= 0.0 {
        return 1.0;
    }
    if s > 1.0 {
        return 0.0;
    }
    match dim {
        0 => 0.0,
        1 => 1.0,
        2 => 1.0 - s.asin() / std::f64::consts::FRAC_PI_2,
        3 => 1.0 - s,
        _ => {
            let power = (dim - 2) as i32;
            let integral = |lo: f64, hi: f64| {
                const STEPS: usize = 4000;
                let h = (hi - lo) / STEPS as f64;
                let f = |phi: f64| phi.cos().max(0.0).powi(power);
                let mut sum = f(lo) + f(hi);
                for i in 1..STEPS {
                    sum += f(lo + i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
                }
                sum * h / 3.0
            };
            let half = std::f64::consts::FRAC_PI_2;
            (integral(s.asin(), half) / integral(0.0, half)).clamp(0.0, 1.0)
        }
    }
}

impl MarginModel {
    /// The largest |⟨x, U*v_i*⟩| an input can have: a·r·Γ (subspace), r·Γ (ball).
    pub fn largest_signal(&self) -> f64 {
        match self.inputs {
            Inputs::Subspace { signal } => signal * self.radius * self.gamma,
            Inputs::Ball => self.radius * self.gamma,
        }
    }

    /// The chance that one draw keeps the margin: |⟨z, v*⟩|/(a·r·Γ) is the
    /// first coordinate of a point uniform on the sphere of R^k (subspace);
    /// ⟨x, w⟩/(r·Γ) of x uniform in the d-ball is distributed as the first
    /// coordinate of a point uniform on the sphere of R^{d+2} (ball).
    pub fn acceptance(&self) -> f64 {
        let s = self.margin / self.largest_signal();
        match self.inputs {
            Inputs::Subspace { .. } => sphere_tail(self.k, s),
            Inputs::Ball => sphere_tail(self.d + 2, s),
        }
    }

    /// The largest margin that a share `share` of the draws keeps (bisection
    /// on [`Self::acceptance`], which falls as the margin grows).
    pub fn largest_margin(&self, share: f64) -> f64 {
        let (mut lo, mut hi) = (0.0, self.largest_signal());
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            let m = MarginModel {
                margin: mid,
                ..self.clone()
            };
            if m.acceptance() >= share {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// A point uniform in the d-ball of radius r: a Gaussian direction and a
    /// radius r·u^{1/d}.
    fn ball_point(&self, rng: &mut impl Rng, out: &mut [f64]) {
        let mut norm2 = 0.0;
        for v in out.iter_mut() {
            *v = rng.sample::<f64, _>(StandardNormal);
            norm2 += *v * *v;
        }
        let u: f64 = rng.random();
        let scale = self.radius * u.powf(1.0 / self.d as f64) / norm2.sqrt().max(f64::MIN_POSITIVE);
        for v in out.iter_mut() {
            *v *= scale;
        }
    }

    /// x = U*z + P⊥g: z uniform on the sphere of radius a·r in R^k keeping
    /// |⟨z, v⟩| ≥ ρ (drawn from `rng`), g uniform on the sphere of radius
    /// r√(1−a²) in span(U*)⊥ (a Gaussian of R^d with its U* part removed,
    /// rescaled; drawn from `perp`). Returns ⟨x, U*v⟩ = ⟨z, v⟩, or None when
    /// no z kept the margin.
    #[allow(clippy::too_many_arguments)]
    fn subspace_point(
        &self,
        signal: f64,
        u: &DMatrix<f64>,
        v: &[f64],
        rng: &mut impl Rng,
        perp: &mut impl Rng,
        z: &mut [f64],
        h: &mut [f64],
        out: &mut [f64],
    ) -> Option<f64> {
        let (d, k) = (self.d, self.k);
        let mut tries = 0;
        let s = loop {
            let mut norm2 = 0.0;
            for a in z.iter_mut() {
                *a = rng.sample::<f64, _>(StandardNormal);
                norm2 += *a * *a;
            }
            let scale = signal * self.radius / norm2.sqrt().max(f64::MIN_POSITIVE);
            let mut s = 0.0;
            for (a, b) in z.iter_mut().zip(v) {
                *a *= scale;
                s += *a * b;
            }
            if s.abs() >= self.margin && s != 0.0 {
                break s;
            }
            tries += 1;
            if tries >= MAX_TRIES {
                return None;
            }
        };
        // U*z.
        for (c, x) in out.iter_mut().enumerate() {
            *x = (0..k).map(|b| u[(c, b)] * z[b]).sum();
        }
        let perp_radius = self.radius * (1.0 - signal * signal).max(0.0).sqrt();
        if d > k && perp_radius > 0.0 {
            for a in h.iter_mut() {
                *a = perp.sample::<f64, _>(StandardNormal);
            }
            // h − U*(U*ᵀh): a standard Gaussian of span(U*)⊥.
            for b in 0..k {
                let col = u.column(b);
                let c: f64 = col.iter().zip(h.iter()).map(|(p, q)| p * q).sum();
                for (a, p) in h.iter_mut().zip(col.iter()) {
                    *a -= c * p;
                }
            }
            let norm = h.iter().map(|a| a * a).sum::<f64>().sqrt();
            let scale = perp_radius / norm.max(f64::MIN_POSITIVE);
            for (x, a) in out.iter_mut().zip(h.iter()) {
                *x += scale * a;
            }
        }
        Some(s)
    }

    /// `count` points of user `i` (true U* and head `v`, length k), from its
    /// own streams `index`; labels flipped with probability `flip`. Errors
    /// when the margin cannot be met (the scenario's checks prevent it).
    pub fn points(
        &self,
        u: &DMatrix<f64>,
        v: &[f64],
        count: usize,
        index: u64,
    ) -> Result<Points, String> {
        let mut rng = stream(self.seed, Purpose::UserData, index);
        let d = self.d;
        let mut x = vec![0.0; count * d];
        let mut y = Vec::with_capacity(count);
        let failed = || {
            format!(
                "margin: no input keeps the margin {} (tried {MAX_TRIES} draws; the largest signal is {})",
                self.margin,
                self.largest_signal()
            )
        };
        match self.inputs {
            Inputs::Subspace { signal } => {
                let mut perp = stream(self.seed, Purpose::UserData, index + PERPENDICULAR);
                let (mut z, mut h) = (vec![0.0; self.k], vec![0.0; d]);
                for j in 0..count {
                    let row = &mut x[j * d..(j + 1) * d];
                    let s = self
                        .subspace_point(signal, u, v, &mut rng, &mut perp, &mut z, &mut h, row)
                        .ok_or_else(failed)?;
                    let flip = rng.random::<f64>() < self.flip;
                    y.push(if (s > 0.0) != flip { 1.0 } else { -1.0 });
                }
            }
            Inputs::Ball => {
                let w = (u * nalgebra::DVector::from_column_slice(v))
                    .as_slice()
                    .to_vec();
                for j in 0..count {
                    let row = &mut x[j * d..(j + 1) * d];
                    let mut tries = 0;
                    let s = loop {
                        self.ball_point(&mut rng, row);
                        let s: f64 = row.iter().zip(&w).map(|(a, b)| a * b).sum();
                        if s.abs() >= self.margin && s != 0.0 {
                            break s;
                        }
                        tries += 1;
                        if tries >= MAX_TRIES {
                            return Err(failed());
                        }
                    };
                    let flip = rng.random::<f64>() < self.flip;
                    y.push(if (s > 0.0) != flip { 1.0 } else { -1.0 });
                }
            }
        }
        Ok(Points { x, y })
    }

    /// The truth: U* (Q of a QR of a Gaussian d×k matrix) and heads of norm Γ
    /// from a stream of their own (the same heads at every d).
    pub fn truth(&self) -> (DMatrix<f64>, DMatrix<f64>) {
        let u = orthonormalize(gaussian_matrix(
            self.d,
            self.k,
            &mut stream(self.seed, Purpose::GroundTruth, 0),
        ));
        let mut v = gaussian_matrix(
            self.n,
            self.k,
            &mut stream(self.seed, Purpose::GroundTruth, 1),
        );
        for mut row in v.row_iter_mut() {
            let norm = row.norm().max(f64::MIN_POSITIVE);
            row *= self.gamma / norm;
        }
        (u, v)
    }

    /// User i's true direction U* v_i* (length d).
    pub fn direction(u: &DMatrix<f64>, v: &DMatrix<f64>, i: usize) -> Vec<f64> {
        (u * v.row(i).transpose()).as_slice().to_vec()
    }

    /// User i's head v_i* (length k).
    fn head(v: &DMatrix<f64>, i: usize) -> Vec<f64> {
        v.row(i).iter().copied().collect()
    }

    /// Draws every user's S⁰ and S¹.
    pub fn generate(&self) -> Result<MarginDataset, String> {
        let (u_star, v_star) = self.truth();
        let half = self.m / 2;
        let mut train = Vec::with_capacity(self.n);
        let mut holdout = Vec::with_capacity(self.n);
        for i in 0..self.n {
            let all = self.points(&u_star, &Self::head(&v_star, i), self.m, i as u64)?;
            let d = self.d;
            train.push(Points {
                x: all.x[..half * d].to_vec(),
                y: all.y[..half].to_vec(),
            });
            holdout.push(Points {
                x: all.x[half * d..].to_vec(),
                y: all.y[half..].to_vec(),
            });
        }
        Ok(MarginDataset {
            model: self.clone(),
            u_star,
            v_star,
            train,
            holdout,
        })
    }
}

impl MarginDataset {
    /// `count` fresh test points per user, with labels from the truth
    /// (no flips: the error is measured against the true model), drawn from a
    /// stream of their own.
    pub fn test_points(&self, count: usize) -> Result<Vec<Points>, String> {
        let clean = MarginModel {
            flip: 0.0,
            ..self.model.clone()
        };
        (0..self.model.n)
            .map(|i| {
                clean.points(
                    &self.u_star,
                    &MarginModel::head(&self.v_star, i),
                    count,
                    (1u64 << 40) + i as u64,
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(inputs: Inputs) -> MarginModel {
        MarginModel {
            n: 20,
            m: 10,
            d: 6,
            k: 2,
            inputs,
            radius: 1.0,
            gamma: 1.0,
            margin: 0.1,
            flip: 0.0,
            seed: 3,
        }
    }

    const SUBSPACE: Inputs = Inputs::Subspace { signal: 0.8 };

    fn dot(a: &[f64], b: &[f64]) -> f64 {
        a.iter().zip(b).map(|(p, q)| p * q).sum()
    }

    #[test]
    fn ball_points_lie_in_the_ball_keep_the_margin_and_follow_the_true_heads() {
        let data = model(Inputs::Ball).generate().unwrap();
        for i in 0..20 {
            let w = MarginModel::direction(&data.u_star, &data.v_star, i);
            for p in [&data.train[i], &data.holdout[i]] {
                assert_eq!(p.len(), 5);
                for j in 0..p.len() {
                    let x = &p.x[j * 6..(j + 1) * 6];
                    assert!(dot(x, x) <= 1.0 + 1e-12);
                    let s = dot(x, &w);
                    assert!(s.abs() >= 0.1);
                    assert_eq!(p.y[j], s.signum());
                }
            }
            assert!((data.v_star.row(i).norm() - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn subspace_points_have_norm_r_a_share_a_in_u_star_and_the_same_signal_at_every_d() {
        let (a, r) = (0.8, 2.0);
        let at = |d: usize| {
            MarginModel {
                d,
                radius: r,
                gamma: 1.5,
                margin: 0.6,
                flip: 0.2,
                ..model(SUBSPACE)
            }
            .generate()
            .unwrap()
        };
        let (small, large) = (at(6), at(40));
        for data in [&small, &large] {
            let d = data.model.d;
            for i in 0..20 {
                let w = MarginModel::direction(&data.u_star, &data.v_star, i);
                for p in [&data.train[i], &data.holdout[i]] {
                    for j in 0..p.len() {
                        let x = &p.x[j * d..(j + 1) * d];
                        assert!((dot(x, x).sqrt() - r).abs() < 1e-9);
                        // U*ᵀx = z has norm a·r and keeps the margin.
                        let z: Vec<f64> = (0..2)
                            .map(|b| dot(data.u_star.column(b).as_slice(), x))
                            .collect();
                        assert!((dot(&z, &z).sqrt() - a * r).abs() < 1e-9);
                        assert!(dot(x, &w).abs() >= 0.6);
                    }
                }
            }
        }
        // The heads, the projections ⟨x, U*v_i*⟩ and the labels (flips
        // included) do not depend on d: only P⊥g does.
        assert_eq!(small.v_star, large.v_star);
        for i in 0..20 {
            let (ws, wl) = (
                MarginModel::direction(&small.u_star, &small.v_star, i),
                MarginModel::direction(&large.u_star, &large.v_star, i),
            );
            let (ps, pl) = (&small.train[i], &large.train[i]);
            assert_eq!(ps.y, pl.y);
            for j in 0..ps.len() {
                let (ss, sl) = (
                    dot(&ps.x[j * 6..(j + 1) * 6], &ws),
                    dot(&pl.x[j * 40..(j + 1) * 40], &wl),
                );
                assert!((ss - sl).abs() < 1e-9, "{ss} {sl}");
            }
        }
    }

    #[test]
    fn the_sphere_tail_matches_its_closed_forms_and_a_monte_carlo_count() {
        // Closed forms at dim 2 and 3 against the numeric branch's neighbours:
        // the tail falls with dim at a fixed s.
        for s in [0.1, 0.4, 0.9] {
            let t: Vec<f64> = (1..8).map(|dim| sphere_tail(dim, s)).collect();
            assert!(t.windows(2).all(|w| w[0] > w[1]), "{t:?}");
        }
        let mut rng = stream(7, Purpose::Initialization, 0);
        for (dim, s) in [(2, 0.5), (3, 0.3), (5, 0.4), (12, 0.2), (102, 0.1)] {
            let draws = 40_000;
            let hits = (0..draws)
                .filter(|_| {
                    let g: Vec<f64> = (0..dim)
                        .map(|_| rng.sample::<f64, _>(StandardNormal))
                        .collect();
                    g[0].abs() / dot(&g, &g).sqrt() >= s
                })
                .count() as f64
                / draws as f64;
            let p = sphere_tail(dim, s);
            // Five standard errors.
            let se = (p * (1.0 - p) / draws as f64).sqrt();
            assert!((hits - p).abs() < 5.0 * se + 1e-4, "dim {dim}: {hits} {p}");
        }
    }

    #[test]
    fn the_acceptance_is_the_share_of_ball_draws_that_keep_the_margin() {
        let mut rng = stream(8, Purpose::Initialization, 0);
        for d in [1, 3, 20] {
            let m = MarginModel {
                d,
                margin: 0.25,
                ..model(Inputs::Ball)
            };
            let mut w = vec![0.0; d];
            w[0] = 1.0;
            let mut x = vec![0.0; d];
            let draws = 40_000;
            let hits = (0..draws)
                .filter(|_| {
                    m.ball_point(&mut rng, &mut x);
                    dot(&x, &w).abs() >= 0.25
                })
                .count() as f64
                / draws as f64;
            let p = m.acceptance();
            let se = (p * (1.0 - p) / draws as f64).sqrt();
            assert!((hits - p).abs() < 5.0 * se + 1e-4, "d {d}: {hits} {p}");
        }
        // The largest margin a share keeps inverts the acceptance.
        let m = model(SUBSPACE);
        let rho = m.largest_margin(0.3);
        let at = MarginModel { margin: rho, ..m };
        assert!((at.acceptance() - 0.3).abs() < 1e-9);
        // k = 2: |cos θ| ≥ ρ/(a r Γ) with probability 1 − (2/π) asin(ρ/(a r Γ)).
        assert!((rho / 0.8 - (0.7 * std::f64::consts::FRAC_PI_2).sin()).abs() < 1e-9);
    }

    #[test]
    fn flips_change_about_the_given_share_of_labels_and_an_impossible_margin_names_the_margin() {
        for inputs in [Inputs::Ball, SUBSPACE] {
            let m = MarginModel {
                flip: 0.3,
                n: 1,
                m: 2000,
                margin: 0.0,
                ..model(inputs)
            };
            let data = m.generate().unwrap();
            let w = MarginModel::direction(&data.u_star, &data.v_star, 0);
            let p = &data.train[0];
            let flipped = (0..p.len())
                .filter(|&j| p.y[j] != dot(&p.x[j * 6..(j + 1) * 6], &w).signum())
                .count() as f64
                / p.len() as f64;
            assert!((flipped - 0.3).abs() < 0.05, "{flipped}");
            let err = MarginModel {
                margin: 1.5,
                ..model(inputs)
            }
            .generate()
            .unwrap_err();
            assert!(err.starts_with("margin:"), "{err}");
        }
    }
}
