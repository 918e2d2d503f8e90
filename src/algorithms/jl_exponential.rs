//! Algorithm 3 of Snedeker, Zhou & Bassily (ICML 2025): a user-level (ε, 0)-DP
//! learner for personalized margin classification. Project the inputs with a
//! random ±1/√k′ matrix M (JL, line 1–2), pick a k′×k matrix Ũ from a
//! data-independent candidate set with the exponential mechanism (line 3–4),
//! map it back, U^priv = MᵀŨ (line 5), and let each user fit its head on its
//! held-out half (line 6, local: never released).
//!
//! The score of a candidate is f(Ũ) = −(1/n) Σ_i min_{‖v‖≤Γ} L̂_ρ(Ũ, v; (S_i⁰)_M):
//! each user's inner minimum lies in [0, 1] and depends on that user's data
//! only, so replacing one user moves f by at most 1/n (the sensitivity).
//! Sampling is Gumbel-max: argmax_c ε·f(c)/(2/n) + G_c with G_c ~ Gumbel(0, 1),
//! which draws c with probability ∝ exp(ε n f(c)/2).

use crate::data::margin_classification::Points;
use nalgebra::DMatrix;
use rand::{Rng, RngExt};
use rand_distr::StandardNormal;

/// The JL matrix of line 1: k′×d, entries uniform on {±1/√k′}.
pub fn jl_matrix(k_prime: usize, d: usize, rng: &mut impl Rng) -> DMatrix<f64> {
    let s = 1.0 / (k_prime as f64).sqrt();
    DMatrix::from_fn(k_prime, d, |_, _| if rng.random::<bool>() { s } else { -s })
}

/// The radius √(2k) of the Frobenius ball B_F the candidates live in (line 3).
pub fn ball_radius(k: usize) -> f64 {
    (2.0 * k as f64).sqrt()
}

/// The exact γ-cover of B_F ⊂ R^{k′×k} (the project's small-scale option (a)):
/// an axis grid of spacing 2γ/√(k′k) on [−√(2k), √(2k)]^{k′k}, each point
/// projected onto B_F (projection is non-expansive, so the set is still a
/// γ-cover). Its size is (√(2k)·√(k′k)/γ)^{k′k}; `None` when over `limit`.
pub fn exact_cover(
    k_prime: usize,
    k: usize,
    gamma: f64,
    limit: usize,
) -> Option<Vec<DMatrix<f64>>> {
    let dim = k_prime.saturating_mul(k);
    if dim == 0 || dim > 64 || gamma.is_nan() || gamma <= 0.0 {
        return None;
    }
    let r = ball_radius(k);
    let spacing = 2.0 * gamma / (dim as f64).sqrt();
    // Cells of side ≤ spacing, each represented by its centre: every point of
    // a cell is within (spacing/2)·√(k′k) = γ of it.
    let per_axis = ((2.0 * r / spacing - 1e-9).ceil() as usize).max(1);
    let total = (per_axis as f64).powi(dim as i32);
    if total.is_nan() || total > limit as f64 {
        return None;
    }
    let axis: Vec<f64> = (0..per_axis)
        .map(|j| -r + (j as f64 + 0.5) * (2.0 * r / per_axis as f64))
        .collect();
    let mut out = Vec::with_capacity(total as usize);
    let mut index = vec![0usize; dim];
    loop {
        let mut c = DMatrix::from_fn(k_prime, k, |a, b| axis[index[b * k_prime + a]]);
        let norm = c.norm();
        if norm > r {
            c *= r / norm;
        }
        out.push(c);
        // Next grid point (odometer).
        let mut pos = 0;
        loop {
            if pos == dim {
                return Some(out);
            }
            index[pos] += 1;
            if index[pos] < per_axis {
                break;
            }
            index[pos] = 0;
            pos += 1;
        }
    }
}

/// The project's option (b): `count` candidates drawn uniformly in B_F,
/// independently of the data (a Gaussian direction and radius √(2k)·u^{1/(k′k)}).
/// The exponential mechanism over them is still ε-DP; its guarantee is then
/// relative to the best candidate (log N_c in place of log |N^γ|).
pub fn random_candidates(
    k_prime: usize,
    k: usize,
    count: usize,
    rng: &mut impl Rng,
) -> Vec<DMatrix<f64>> {
    let dim = (k_prime * k) as f64;
    let r = ball_radius(k);
    (0..count)
        .map(|_| {
            let g = DMatrix::from_fn(k_prime, k, |_, _| rng.sample::<f64, _>(StandardNormal));
            let u: f64 = rng.random();
            let norm = g.norm().max(f64::MIN_POSITIVE);
            g * (r * u.powf(1.0 / dim) / norm)
        })
        .collect()
}

/// Directions for the inner minimisation when k > 2: a fixed,
/// data-independent set (unit vectors from their own stream), so each user's
/// inner value still depends on that user's data only.
pub fn direction_set(k: usize, count: usize, rng: &mut impl Rng) -> Vec<Vec<f64>> {
    (0..count)
        .map(|_| {
            let v: Vec<f64> = (0..k)
                .map(|_| rng.sample::<f64, _>(StandardNormal))
                .collect();
            let norm = v
                .iter()
                .map(|a| a * a)
                .sum::<f64>()
                .sqrt()
                .max(f64::MIN_POSITIVE);
            v.into_iter().map(|a| a / norm).collect()
        })
        .collect()
}

/// min over ‖v‖ ≤ Γ of the margin loss (1/|S|) Σ 1[y⟨w_j, v⟩ ≤ ρ] of points
/// w_j ∈ R^k (the inputs already mapped by the representation), and a
/// minimiser. For a direction v̂ the loss does not increase with ‖v‖, so the
/// minimum is on ‖v‖ = Γ (or v = 0 when every direction is worse: loss 1
/// for ρ ≥ 0). k = 1: both signs; k = 2: the exact angle sweep; k > 2: the
/// fixed `directions`.
pub fn min_margin_loss(
    w: &[f64],
    y: &[f64],
    k: usize,
    gamma: f64,
    rho: f64,
    directions: &[Vec<f64>],
) -> (f64, Vec<f64>) {
    let count = y.len();
    if count == 0 {
        return (0.0, vec![0.0; k]);
    }
    let loss_of = |v: &[f64]| {
        let bad = (0..count)
            .filter(|&j| {
                let s: f64 = w[j * k..(j + 1) * k]
                    .iter()
                    .zip(v)
                    .map(|(a, b)| a * b)
                    .sum();
                y[j] * s <= rho
            })
            .count();
        bad as f64 / count as f64
    };
    let mut best = (loss_of(&vec![0.0; k]), vec![0.0; k]);
    let mut consider = |v: Vec<f64>| {
        let l = loss_of(&v);
        if l < best.0 {
            best = (l, v);
        }
    };
    match k {
        1 => {
            consider(vec![gamma]);
            consider(vec![-gamma]);
        }
        2 => {
            if let Some(theta) = best_angle(w, y, gamma, rho) {
                consider(vec![gamma * theta.cos(), gamma * theta.sin()]);
            }
        }
        _ => {
            for dir in directions {
                consider(dir.iter().map(|a| gamma * a).collect());
            }
        }
    }
    best
}

/// k = 2: the angle θ at which v = Γ(cos θ, sin θ) satisfies the most points.
/// Point j is satisfied on the open arc |θ − φ_j| < α_j, with φ_j the angle
/// of y_j w_j and cos α_j = ρ/(Γ‖w_j‖) (no arc when ρ ≥ Γ‖w_j‖); the answer
/// is the middle of a maximal overlap of arcs, found by one sweep.
fn best_angle(w: &[f64], y: &[f64], gamma: f64, rho: f64) -> Option<f64> {
    use std::f64::consts::PI;
    let mut events: Vec<(f64, i32)> = Vec::new();
    let mut wrapped = 0; // arcs that contain the angle −π (start on the circle before it)
    for j in 0..y.len() {
        let (a, b) = (y[j] * w[2 * j], y[j] * w[2 * j + 1]);
        let norm = (a * a + b * b).sqrt();
        if gamma * norm <= rho || norm.is_nan() {
            continue;
        }
        let phi = b.atan2(a);
        let alpha = (rho / (gamma * norm)).clamp(-1.0, 1.0).acos();
        let (lo, hi) = (phi - alpha, phi + alpha);
        // Normalise to [−π, π): an arc that crosses ±π is counted from −π.
        let norm_angle = |t: f64| {
            let mut t = (t + PI).rem_euclid(2.0 * PI) - PI;
            if t >= PI {
                t -= 2.0 * PI;
            }
            t
        };
        let (s, e) = (norm_angle(lo), norm_angle(hi));
        if alpha >= PI {
            wrapped += 1; // the whole circle but one point
            continue;
        }
        if s < e {
            events.push((s, 1));
            events.push((e, -1));
        } else {
            wrapped += 1;
            events.push((e, -1));
            events.push((s, 1));
        }
    }
    if events.is_empty() && wrapped == 0 {
        return None;
    }
    // Open arcs: at equal angles, ends come before starts.
    events.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut count = wrapped;
    let mut best = (count, -PI + 1e-9, events.first().map_or(PI, |e| e.0));
    for (i, &(t, delta)) in events.iter().enumerate() {
        count += delta;
        let next = events.get(i + 1).map_or(PI, |e| e.0);
        if count > best.0 && next > t {
            best = (count, t, next);
        }
    }
    Some(0.5 * (best.1 + best.2))
}

/// Each user's S⁰ projected by M: z = Mx (k′ coordinates per point).
pub fn project(m: &DMatrix<f64>, points: &Points) -> Vec<f64> {
    let (k_prime, d) = (m.nrows(), m.ncols());
    let mut out = vec![0.0; points.len() * k_prime];
    for j in 0..points.len() {
        let x = &points.x[j * d..(j + 1) * d];
        for a in 0..k_prime {
            out[j * k_prime + a] = (0..d).map(|c| m[(a, c)] * x[c]).sum();
        }
    }
    out
}

/// Points z (rows of `cols` coordinates) mapped by a `cols`×k matrix: w = Aᵀz.
pub fn map_points(z: &[f64], a: &DMatrix<f64>) -> Vec<f64> {
    let (cols, k) = (a.nrows(), a.ncols());
    let count = z.len() / cols.max(1);
    let mut out = vec![0.0; count * k];
    for j in 0..count {
        for b in 0..k {
            out[j * k + b] = (0..cols).map(|c| a[(c, b)] * z[j * cols + c]).sum();
        }
    }
    out
}

/// The score f(Ũ) = −(1/n) Σ_i min_{‖v‖≤Γ} L̂_ρ(Ũ, v; (S_i)_M) of line 4, from
/// the users' projected points `projected[i]` (k′ per point) and labels.
pub fn score(
    candidate: &DMatrix<f64>,
    projected: &[Vec<f64>],
    labels: &[&[f64]],
    gamma: f64,
    rho: f64,
    directions: &[Vec<f64>],
) -> f64 {
    let n = projected.len();
    if n == 0 {
        return 0.0;
    }
    let k = candidate.ncols();
    let total: f64 = projected
        .iter()
        .zip(labels)
        .map(|(z, y)| {
            let w = map_points(z, candidate);
            min_margin_loss(&w, y, k, gamma, rho, directions).0
        })
        .sum();
    -total / n as f64
}

/// The exponential mechanism by Gumbel-max: the index of
/// argmax_c ε·scores[c]/(2·sensitivity) + G_c, G_c ~ Gumbel(0, 1), i.e. a draw
/// with probability ∝ exp(ε·score/(2·sensitivity)). (ε, 0)-DP when every
/// score moves by at most `sensitivity` between neighbouring datasets.
pub fn exponential_mechanism(
    scores: &[f64],
    epsilon: f64,
    sensitivity: f64,
    rng: &mut impl Rng,
) -> Option<usize> {
    let scale = epsilon / (2.0 * sensitivity);
    let mut best: Option<(usize, f64)> = None;
    for (c, &s) in scores.iter().enumerate() {
        // Gumbel(0, 1) = −ln(−ln U), U uniform in (0, 1).
        let u: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
        let g = -(-u.ln()).ln();
        let value = scale * s + g;
        if best.is_none_or(|(_, b)| value > b) {
            best = Some((c, value));
        }
    }
    best.map(|b| b.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, Purpose};

    #[test]
    fn the_exact_cover_of_the_papers_small_example_has_sixteen_points_in_the_ball() {
        // k = 1, k′ = 2, γ = 0.5: spacing 2γ/√2 = 0.707 on [−√2, √2]²: 4 per axis.
        let cover = exact_cover(2, 1, 0.5, 1000).unwrap();
        assert_eq!(cover.len(), 16);
        assert!(cover.iter().all(|c| c.norm() <= ball_radius(1) + 1e-12));
        // Every point of the ball is within γ of the cover (sampled).
        let mut rng = stream(1, Purpose::Initialization, 0);
        for p in random_candidates(2, 1, 500, &mut rng) {
            let near = cover
                .iter()
                .map(|c| (c - &p).norm())
                .fold(f64::INFINITY, f64::min);
            assert!(near <= 0.5 + 1e-12, "{near}");
        }
        assert!(exact_cover(4, 2, 0.5, 1_000_000).is_none());
    }

    #[test]
    fn the_angle_sweep_equals_brute_force_over_a_fine_grid() {
        let mut rng = stream(2, Purpose::Initialization, 0);
        for trial in 0..40 {
            let count = 3 + trial % 9;
            let w: Vec<f64> = (0..2 * count)
                .map(|_| rng.sample::<f64, _>(StandardNormal))
                .collect();
            let y: Vec<f64> = (0..count)
                .map(|_| if rng.random::<bool>() { 1.0 } else { -1.0 })
                .collect();
            let (gamma, rho) = (1.0, if trial % 2 == 0 { 0.0 } else { 0.3 });
            let (sweep, v) = min_margin_loss(&w, &y, 2, gamma, rho, &[]);
            let brute = (0..20_000)
                .map(|i| {
                    let t = i as f64 / 20_000.0 * std::f64::consts::TAU;
                    let v = [gamma * t.cos(), gamma * t.sin()];
                    (0..count)
                        .filter(|&j| y[j] * (w[2 * j] * v[0] + w[2 * j + 1] * v[1]) <= rho)
                        .count() as f64
                        / count as f64
                })
                .fold(1.0f64, f64::min);
            assert!(
                (sweep - brute).abs() < 1e-12,
                "trial {trial}: sweep {sweep} brute {brute}"
            );
            assert!((v[0] * v[0] + v[1] * v[1]).sqrt() <= gamma + 1e-12);
        }
    }

    #[test]
    fn with_a_large_epsilon_the_mechanism_picks_the_best_candidate() {
        let scores = [-0.5, -0.2, -0.9, -0.21];
        let mut rng = stream(3, Purpose::MechanismNoise, 0);
        for _ in 0..50 {
            assert_eq!(exponential_mechanism(&scores, 1e6, 0.01, &mut rng), Some(1));
        }
    }
}
