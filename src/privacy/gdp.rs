//! Exact composition of Gaussian mechanisms via Gaussian differential privacy
//! (Balle & Wang 2018, Thm 8; Dong, Roth & Su, Cor. 2.13).
//!
//! T Gaussian steps with noise multiplier z = σ/s compose exactly to μ-GDP with
//! μ = √T/z (heterogeneous stages: μ² = Σ_t (s_t/σ_t)²). The tight (ε, δ) curve
//! of μ-GDP (Balle & Wang 2018, Thm 8; Dong, Roth & Su 2022, Cor. 2.13) is
//!
//! ```text
//! δ(ε) = Φ(μ/2 − ε/μ) − e^ε · Φ(−μ/2 − ε/μ).
//! ```
//!
//! Everything is evaluated in log space, and every solver returns the
//! conservative end of its final bracket: the ε reported is never smaller, and
//! the μ never larger, than the exact value.

use super::bisect;
use super::error::{check_delta, check_epsilon, AccountingError, MAX_MU};
use std::sync::OnceLock;

const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_8; // ½ ln(2π)

/// ln Φ(x), the log of the standard normal CDF, accurate in both tails.
///
/// x > 0: ln(1 − ½ erfc(x/√2)) via ln_1p; −20 < x ≤ 0: ln(½ erfc(−x/√2));
/// x ≤ −20: the asymptotic (Mills ratio) series
/// −x²/2 − ln(−x) − ½ ln(2π) + ln(1 − 1/x² + 3/x⁴ − 15/x⁶ + 105/x⁸ − 945/x¹⁰ + 10395/x¹²),
/// whose truncation error at x = −20 is below 1e-13 (the three-term asymptotic series
/// extended by three more terms).
pub fn log_phi(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x > 0.0 {
        (-0.5 * libm::erfc(x / std::f64::consts::SQRT_2)).ln_1p()
    } else if x > -20.0 {
        (0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)).ln()
    } else if x == f64::NEG_INFINITY {
        f64::NEG_INFINITY
    } else {
        let r = 1.0 / (x * x);
        // 1 − r + 3r² − 15r³ + 105r⁴ − 945r⁵ + 10395r⁶, by Horner.
        let series =
            1.0 + r * (-1.0 + r * (3.0 + r * (-15.0 + r * (105.0 + r * (-945.0 + r * 10395.0)))));
        -0.5 * x * x - (-x).ln() - LN_SQRT_2PI + series.ln()
    }
}

/// The inverse Mills ratio φ(t)/Φ(t) = d/dt ln Φ(t).
fn mills(t: f64) -> f64 {
    (-0.5 * t * t - LN_SQRT_2PI - log_phi(t)).exp()
}

/// 16-point Gauss–Legendre nodes and weights on [−1, 1], computed once by
/// Newton's method on the Legendre polynomial.
fn gauss_legendre() -> &'static [(f64, f64); 16] {
    static NODES: OnceLock<[(f64, f64); 16]> = OnceLock::new();
    NODES.get_or_init(|| {
        const N: usize = 16;
        let mut out = [(0.0, 0.0); N];
        for (i, slot) in out.iter_mut().enumerate() {
            let mut x = (std::f64::consts::PI * (i as f64 + 0.75) / (N as f64 + 0.5)).cos();
            let mut dp = 1.0;
            for _ in 0..100 {
                let (mut p0, mut p1) = (1.0, x);
                for k in 2..=N {
                    let kf = k as f64;
                    let p2 = ((2.0 * kf - 1.0) * x * p1 - (kf - 1.0) * p0) / kf;
                    p0 = p1;
                    p1 = p2;
                }
                dp = N as f64 * (x * p1 - p0) / (x * x - 1.0);
                let step = p1 / dp;
                x -= step;
                if step.abs() < 1e-16 {
                    break;
                }
            }
            *slot = (x, 2.0 / ((1.0 - x * x) * dp * dp));
        }
        out
    })
}

/// ln Φ(a) − ln Φ(b) for b < a. For a short interval the difference of two large
/// logs would cancel, so it is integrated instead: ∫_b^a φ/Φ.
fn log_phi_difference(a: f64, b: f64) -> f64 {
    let width = a - b;
    if width < 1.0 {
        let (mid, half) = (0.5 * (a + b), 0.5 * width);
        half * gauss_legendre()
            .iter()
            .map(|&(x, w)| w * mills(mid + half * x))
            .sum::<f64>()
    } else {
        log_phi(a) - log_phi(b)
    }
}

/// ln δ(ε) for μ-GDP; −∞ when δ(ε) underflows or μ = 0. Internal: may return −∞
/// but never NaN for non-NaN inputs with μ ≥ 0.
pub(crate) fn log_delta(mu: f64, epsilon: f64) -> f64 {
    if mu <= 0.0 {
        return if epsilon >= 0.0 {
            f64::NEG_INFINITY
        } else {
            0.0
        };
    }
    if epsilon == f64::INFINITY {
        return f64::NEG_INFINITY;
    }
    let a = 0.5 * mu - epsilon / mu;
    let b = -0.5 * mu - epsilon / mu;
    if !a.is_finite() || !b.is_finite() {
        return if a == f64::INFINITY {
            0.0
        } else {
            f64::NEG_INFINITY
        };
    }
    let la = log_phi(a);
    // δ = Φ(a)·(1 − e^x) with x = ε + ln Φ(b) − ln Φ(a) < 0.
    let x = epsilon - log_phi_difference(a, b);
    if x >= 0.0 || x.is_nan() || la == f64::NEG_INFINITY {
        return f64::NEG_INFINITY;
    }
    (la + (-x.exp_m1()).ln()).min(0.0)
}

/// δ(ε) of μ-GDP: the smallest δ for which μ-GDP implies (ε, δ)-DP. Always in
/// [0, 1]; a NaN or negative μ gives 1 (no guarantee), μ = 0 gives 0.
pub fn delta_for_epsilon(mu: f64, epsilon: f64) -> f64 {
    if mu.is_nan() || epsilon.is_nan() || mu < 0.0 || mu == f64::INFINITY {
        return 1.0;
    }
    let d = log_delta(mu, epsilon).exp();
    if d.is_finite() {
        d.clamp(0.0, 1.0)
    } else {
        1.0
    }
}

pub(crate) fn check_mu(mu: f64) -> Result<f64, AccountingError> {
    if mu.is_finite() && (0.0..=MAX_MU).contains(&mu) {
        Ok(mu)
    } else {
        Err(AccountingError::Mu {
            value: mu,
            max: MAX_MU,
        })
    }
}

/// Evaluating ln δ(ε) carries a relative error up to about 2e-13 (measured against
/// 80-digit arithmetic), more than the bisection's bracket: the solvers step
/// ε this far up, so the ε reported for a μ is never below the exact one.
const EVAL_MARGIN: f64 = 5e-13;

/// Smallest ε such that μ-GDP implies (ε, δ)-DP (bisection on ln δ(ε) − ln δ,
/// returning the upper end of the final bracket, raised by [`EVAL_MARGIN`]).
/// 0 when δ(0) ≤ δ.
pub fn epsilon_for_mu(mu: f64, delta: f64) -> Result<f64, AccountingError> {
    check_delta(delta)?;
    check_mu(mu)?;
    let target = delta.ln();
    let above = |eps: f64| log_delta(mu, eps) > target; // δ(ε) still too large
    if !above(0.0) {
        return Ok(0.0);
    }
    let (mut lo, mut hi) = (0.0, 1.0);
    while above(hi) {
        lo = hi;
        hi *= 2.0;
    }
    let (_, hi) = bisect(lo, hi, 300, above);
    Ok(hi * (1.0 + EVAL_MARGIN))
}

/// Largest μ such that μ-GDP implies (ε, δ)-DP (bisection on μ, returning the
/// lower end of the final bracket). The per-step noise multiplier for T steps is
/// then z = √T/μ.
pub fn mu_for_epsilon(epsilon: f64, delta: f64) -> Result<f64, AccountingError> {
    check_epsilon(epsilon)?;
    check_delta(delta)?;
    let target = delta.ln();
    let ok = |mu: f64| log_delta(mu, epsilon) <= target; // (ε, δ) holds at this μ
    let (mut lo, mut hi);
    if ok(1.0) {
        lo = 1.0;
        hi = 2.0;
        while ok(hi) {
            lo = hi;
            hi *= 2.0;
        }
    } else {
        hi = 1.0;
        lo = 0.5;
        while !ok(lo) {
            hi = lo;
            lo *= 0.5;
        }
    }
    let (lo, _) = bisect(lo, hi, 300, ok);
    Ok(lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::privacy::relative_error as rel;

    #[test]
    fn log_phi_is_continuous_across_the_series_threshold() {
        let below = log_phi(-20.0 - 1e-9);
        let above = log_phi(-20.0 + 1e-9);
        assert!(rel(below, above) < 1e-9, "{below} vs {above}");
        assert!(rel(log_phi(-40.0), -804.608_442_013_754_2) < 1e-12);
        assert!(log_phi(40.0) == 0.0 || log_phi(40.0) < 0.0);
        // Φ(40) = 1 − 4e-350: ln Φ is 0 to double precision, not merely ≤ 0.
        assert!(log_phi(40.0) > -1e-300, "{}", log_phi(40.0));
        // ln Φ(5) = ln(1 − Φ(−5)), Φ(−5) = 2.866515718791939e-7.
        let p = 2.866_515_718_791_939e-7_f64;
        assert!(rel(log_phi(5.0), (-p).ln_1p()) < 1e-8, "{}", log_phi(5.0));
        assert!(rel(log_phi(0.0), -std::f64::consts::LN_2) < 1e-15);
    }

    #[test]
    fn quadrature_matches_the_direct_difference_where_both_are_accurate() {
        for (a, b) in [(0.3, -0.5), (-3.0, -3.9), (2.0, 1.2), (-25.0, -25.5)] {
            let q = log_phi_difference(a, b);
            let d = log_phi(a) - log_phi(b);
            assert!(rel(q, d) < 1e-11, "{a} {b}: {q} vs {d}");
        }
    }

    #[test]
    fn delta_is_one_minus_tv_at_epsilon_zero() {
        // δ(0) = 2Φ(μ/2) − 1 = erf(μ/(2√2)).
        for mu in [0.01, 0.5, 1.0, 3.0] {
            let want = libm::erf(mu / (2.0 * std::f64::consts::SQRT_2));
            assert!(rel(delta_for_epsilon(mu, 0.0), want) < 1e-12);
        }
    }
}
