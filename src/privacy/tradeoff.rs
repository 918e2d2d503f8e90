//! A run's guarantee as a membership attacker's trade-off: the highest
//! true-positive rate (TPR) any test can have at each false-positive rate
//! (FPR), and an audit's attack as rates with their confidence boxes.
//!
//! - A μ-GDP run (all releases Gaussian): TPR ≤ Φ(Φ⁻¹(FPR) + μ), exactly
//!   (Dong, Roth & Su, "Gaussian Differential Privacy", JRSS-B 2022, Def. 2.7;
//!   [`risk::tpr_at`]).
//! - (ε, δ)-DP: TPR ≤ e^ε·FPR + δ and 1 − FPR ≤ e^ε·(1 − TPR) + δ (Kairouz,
//!   Oh & Viswanath 2015, Thm. 2.1; [`attacker::tpr_bound`] is the lower of
//!   the two); δ = 0 is pure ε-DP.
//! - An attack point's box: the two-sided Clopper–Pearson interval of each
//!   rate at level α (α/2 in each tail), so its upper ends are the audit's
//!   FPR⁺ and its lower TPR end 1 − FNR⁺, the corner the audit's bounds use.
//!   The in- and out-runs are independent, so both true rates lie in the box
//!   with probability at least (1 − α)² ≥ 1 − 2α; and with probability at
//!   least 1 − α, FPR ≤ FPR⁺ and TPR ≥ 1 − FNR⁺ (the audit's union bound):
//!   a box whose lower-right corner lies above an increasing bound refutes
//!   that bound at confidence 1 − α (Nasr et al., "Tight auditing of
//!   differentially private machine learning", 2023).

use super::attacker::tpr_bound;
use super::audit::{clopper_pearson_lower, clopper_pearson_upper, AttackPoint};
use super::risk::tpr_at;

/// Points per decade of the log-spaced part of [`fpr_grid`].
const PER_DECADE: usize = 8;
/// The smallest positive FPR drawn: where a log axis starts.
pub const LOWEST_FPR: f64 = 1e-5;
/// Where the grid turns from log-spaced to evenly spaced.
const LOG_UNTIL: f64 = 0.1;
/// The even step above [`LOG_UNTIL`].
const EVEN_STEP: f64 = 0.025;

/// The FPRs a curve is drawn at: 0, then log-spaced from [`LOWEST_FPR`] to
/// 0.1 (a log axis shows the low-FPR regime, where attacks that matter
/// live), then evenly to 1 (a linear axis), with `extra` (a target's FPR, say)
/// among them so the curve is computed exactly there. Increasing, no repeats.
pub fn fpr_grid(extra: &[f64]) -> Vec<f64> {
    let decades = (LOG_UNTIL / LOWEST_FPR).log10().round() as usize;
    let log =
        (0..decades * PER_DECADE).map(|i| LOWEST_FPR * 10f64.powf(i as f64 / PER_DECADE as f64));
    let steps = ((1.0 - LOG_UNTIL) / EVEN_STEP).round() as usize;
    let even = (0..=steps).map(|j| LOG_UNTIL + j as f64 * EVEN_STEP);
    let mut xs: Vec<f64> = std::iter::once(0.0)
        .chain(log)
        .chain(even)
        .chain(extra.iter().copied().filter(|x| (0.0..=1.0).contains(x)))
        .map(|x| x.min(1.0))
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup_by(|a, b| (*a - *b).abs() <= 1e-12 * b.abs().max(1e-300));
    xs
}

/// The μ-GDP trade-off curve as (FPR, highest TPR) at `xs`.
pub fn gaussian_curve(mu: f64, xs: &[f64]) -> Vec<(f64, f64)> {
    xs.iter().map(|&x| (x, tpr_at(mu, x))).collect()
}

/// The upper edge of the (ε, δ) region as (FPR, highest TPR) at `xs`.
pub fn region_edge(epsilon: f64, delta: f64, xs: &[f64]) -> Vec<(f64, f64)> {
    xs.iter()
        .map(|&x| (x, tpr_bound(epsilon, delta, x)))
        .collect()
}

/// An attack point's rates with their Clopper–Pearson intervals: `[lo, hi]`
/// of its FPR and of its TPR, and the observed rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateBox {
    pub fpr: f64,
    pub tpr: f64,
    pub fpr_interval: [f64; 2],
    pub tpr_interval: [f64; 2],
}

impl RateBox {
    /// The box of `p`, judged on `runs_in` in-runs and `runs_out` out-runs, at
    /// level `alpha` (two-sided, α/2 in each tail of each rate).
    pub fn of(p: &AttackPoint, runs_in: usize, runs_out: usize, alpha: f64) -> Self {
        let count = |rate: f64, n: usize| ((rate * n as f64).round() as usize).min(n);
        let (fp, fneg) = (count(p.fpr, runs_out), count(p.fnr, runs_in));
        let a = alpha / 2.0;
        RateBox {
            fpr: p.fpr,
            tpr: 1.0 - p.fnr,
            fpr_interval: [
                clopper_pearson_lower(fp, runs_out, a),
                clopper_pearson_upper(fp, runs_out, a),
            ],
            tpr_interval: [
                1.0 - clopper_pearson_upper(fneg, runs_in, a),
                1.0 - clopper_pearson_lower(fneg, runs_in, a),
            ],
        }
    }

    /// Whether the box lies wholly above `bound` (an increasing highest TPR
    /// at each FPR): its lower-right corner (FPR⁺, 1 − FNR⁺) is above it, so
    /// the rates refute the bound at the audit's confidence.
    pub fn above(&self, bound: impl Fn(f64) -> f64) -> bool {
        self.tpr_interval[0] > bound(self.fpr_interval[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::privacy::audit::attack_point;
    use crate::privacy::risk::Risk;

    #[test]
    fn the_curve_through_the_reference_risks_gives_their_tpr() {
        // μ = 1.044796 = Φ⁻¹(0.99) − Φ⁻¹(0.9) (computed independently) at FPR 0.01 → TPR 0.10;
        // μ = 0.681494 → 0.05; μ = 1.484727 → 0.20 (μ to 6 digits: 1e-6 in TPR).
        for (mu, tpr) in [(1.044796, 0.10), (0.681494, 0.05), (1.484727, 0.20)] {
            let xs = fpr_grid(&[0.01]);
            let curve = gaussian_curve(mu, &xs);
            let at = curve.iter().find(|p| p.0 == 0.01).unwrap();
            assert!((at.1 - tpr).abs() < 2e-6, "μ = {mu}: {}", at.1);
        }
        // μ = 0 is the diagonal, and at FPR 0.5 the TPR is Φ(μ).
        let xs = fpr_grid(&[]);
        for (x, t) in gaussian_curve(0.0, &xs) {
            assert!((x - t).abs() < 1e-12, "{x}: {t}");
        }
        // Φ(1) = 0.841344746068543 (tables).
        let half = gaussian_curve(1.0, &[0.5])[0].1;
        assert!((half - 0.841_344_746_068_543).abs() < 1e-12, "{half}");
    }

    #[test]
    fn the_grid_spans_five_decades_and_the_linear_range_in_order() {
        let xs = fpr_grid(&[0.0123, 0.5, 2.0]);
        assert_eq!(xs[0], 0.0);
        assert!((xs[1] - LOWEST_FPR).abs() < 1e-18);
        assert_eq!(*xs.last().unwrap(), 1.0);
        assert!(xs.windows(2).all(|w| w[0] < w[1]), "{xs:?}");
        assert!(xs.contains(&0.0123));
        assert!(!xs.contains(&2.0));
        // Eight points a decade below 0.1: each decade has them.
        for d in 1..=4 {
            let (lo, hi) = (10f64.powi(-(d + 1)), 10f64.powi(-d));
            let n = xs
                .iter()
                .filter(|&&x| x >= lo * 0.999 && x < hi * 0.999)
                .count();
            assert!(n >= PER_DECADE, "decade {lo}: {n}");
        }
    }

    #[test]
    fn the_region_edge_is_both_inequalities_and_holds_the_gaussian_curve() {
        let (eps, delta) = (2.0, 1e-5);
        let xs = fpr_grid(&[]);
        for (x, t) in region_edge(eps, delta, &xs) {
            // The lower of e^ε·x + δ and 1 − e^−ε·(1 − δ − x), at most 1.
            let a = eps.exp() * x + delta;
            let b = 1.0 - (-eps).exp() * (1.0 - delta - x);
            assert!((t - a.min(b).min(1.0)).abs() < 1e-15, "{x}");
            // Both hypothesis-test inequalities hold on the edge.
            assert!(t <= a + 1e-15 && 1.0 - x <= eps.exp() * (1.0 - t) + delta + 1e-12);
        }
        // The μ whose ε at δ is 2 lies inside its region at every FPR.
        let mu = crate::privacy::gdp::mu_for_epsilon(eps, delta).unwrap();
        for ((x, g), (_, e)) in gaussian_curve(mu, &xs)
            .iter()
            .zip(region_edge(eps, delta, &xs))
        {
            assert!(*g <= e + 1e-9, "FPR {x}: {g} above {e}");
        }
        // Pure ε (δ = 0): the edge starts at the origin with slope e^ε.
        let pure = region_edge(1.0, 0.0, &[0.0, 0.01]);
        assert_eq!(pure[0].1, 0.0);
        assert!((pure[1].1 - 0.01 * 1f64.exp()).abs() < 1e-15);
    }

    #[test]
    fn a_box_is_the_two_sided_clopper_pearson_interval_of_each_rate() {
        // 100 in-runs, 100 out-runs: 30 in-runs below the threshold, 5 out-runs at or above.
        let ins: Vec<f64> = (0..100).map(|i| if i < 30 { 0.0 } else { 1.0 }).collect();
        let outs: Vec<f64> = (0..100).map(|i| if i < 5 { 1.0 } else { 0.0 }).collect();
        let p = attack_point(&ins, &outs, 0.5, 0.05);
        let b = RateBox::of(&p, 100, 100, 0.05);
        assert_eq!((b.fpr, b.tpr), (0.05, 0.7));
        // The upper ends are the audit's own bounds.
        assert_eq!(b.fpr_interval[1], p.fpr_upper);
        assert!((b.tpr_interval[0] - (1.0 - p.fnr_upper)).abs() < 1e-15);
        // Clopper–Pearson 95 % for 5 of 100: [0.016432, 0.112835]; for 70 of 100:
        // [0.600185, 0.787594] (bisection on exact binomial tail sums, computed independently).
        let close = |a: f64, b: f64| (a - b).abs() < 5e-6;
        assert!(close(b.fpr_interval[0], 0.016432), "{:?}", b.fpr_interval);
        assert!(close(b.fpr_interval[1], 0.112835), "{:?}", b.fpr_interval);
        assert!(close(b.tpr_interval[0], 0.600185), "{:?}", b.tpr_interval);
        assert!(close(b.tpr_interval[1], 0.787594), "{:?}", b.tpr_interval);
        // The lower bound is where the binomial tail above k − 1 reaches α/2: P[Bin(n, lo) ≥ k] = 0.025.
        let tail = |p: f64, k: usize, n: usize| -> f64 {
            (k..=n)
                .map(|j| {
                    let ln_choose = (1..=j)
                        .map(|i| ((n - j + i) as f64 / i as f64).ln())
                        .sum::<f64>();
                    (ln_choose + j as f64 * p.ln() + (n - j) as f64 * (1.0 - p).ln()).exp()
                })
                .sum()
        };
        assert!((tail(b.fpr_interval[0], 5, 100) - 0.025).abs() < 1e-9);
        // No event: the interval starts at 0; every run an event: it ends at 1.
        let none = RateBox::of(
            &attack_point(&[1.0; 10], &[0.0; 10], 0.5, 0.05),
            10,
            10,
            0.05,
        );
        assert_eq!((none.fpr_interval[0], none.tpr_interval[1]), (0.0, 1.0));
    }

    #[test]
    fn a_box_above_the_curve_refutes_it_and_one_across_does_not() {
        // The curve through (0.01, 0.1): μ = 1.044796.
        let mu = Risk::new(0.1, 0.01).unwrap().mu();
        let curve = |x: f64| tpr_at(mu, x);
        // Perfect separation on 1000 runs a side: FPR⁺ ≈ 0.0037, TPR⁻ ≈ 0.9963: far above.
        let sep = attack_point(&[1.0; 1000], &[0.0; 1000], 0.5, 0.05);
        assert!(RateBox::of(&sep, 1000, 1000, 0.05).above(curve));
        // Rates on the curve itself: the box straddles it.
        let ins: Vec<f64> = (0..1000).map(|i| if i < 900 { 0.0 } else { 1.0 }).collect();
        let outs: Vec<f64> = (0..1000).map(|i| if i < 10 { 1.0 } else { 0.0 }).collect();
        let on = RateBox::of(&attack_point(&ins, &outs, 0.5, 0.05), 1000, 1000, 0.05);
        assert!(!on.above(curve));
        assert!(on.tpr_interval[1] > curve(on.fpr_interval[0]));
    }
}
