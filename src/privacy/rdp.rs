//! Rényi DP of (composed) Gaussian mechanisms and its conversion to (ε, δ)
//! (Mironov 2017; Balle et al. 2020; docs/algorithms.md, Privacy accounting).
//!
//! One Gaussian step has RDP(α) = α·s²/(2σ²); composition adds, so any sequence
//! of Gaussian steps has RDP(α) = slope·α with slope = Σ steps·s²/(2σ²).
//! Internally the order is parametrised by β = α − 1 > 0, which keeps full
//! precision when the optimal α is close to 1 (little noise).

use super::bisect;
use super::error::{check_delta, check_epsilon, AccountingError};

/// An (ε, δ) bound obtained from RDP, with the order α that attains it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RdpEpsilon {
    pub epsilon: f64,
    pub alpha: f64,
    /// Grid search: α* is the smallest or largest order of the grid, so a wider
    /// grid could give a smaller ε. Continuous search: α* lies outside the usual
    /// grid [1.1, 63], i.e. a grid-based library would report a looser ε.
    pub alpha_at_edge: bool,
}

/// The usual grid of orders {1.1, 1.2, …, 10.9} ∪ {11, 12, …, 63}.
pub fn usual_grid() -> Vec<f64> {
    (11..=109)
        .map(|k| k as f64 / 10.0)
        .chain((11..=63).map(|k| k as f64))
        .collect()
}

const GRID_MIN: f64 = 1.1;
const GRID_MAX: f64 = 63.0;

fn check_slope(slope: f64) -> Result<f64, AccountingError> {
    if slope.is_finite() && slope > 0.0 {
        Ok(slope)
    } else {
        Err(AccountingError::RdpSlope { value: slope })
    }
}

/// Improved conversion at order α = 1 + β (Balle et al. 2020, Thm 21; Canonne,
/// Kamath & Steinke 2020, Prop. 12):
/// ε(α) = r(α) + ln(1 − 1/α) − (ln δ + ln α)/(α − 1).
fn improved_at(slope: f64, beta: f64, ln_delta: f64) -> f64 {
    let alpha = 1.0 + beta;
    slope * alpha + (beta.ln() - beta.ln_1p()) - (ln_delta + beta.ln_1p()) / beta
}

/// Classic conversion at order α = 1 + β (Mironov 2017, Prop. 3):
/// ε(α) = r(α) + ln(1/δ)/(α − 1).
fn classic_at(slope: f64, beta: f64, ln_delta: f64) -> f64 {
    slope * (1.0 + beta) - ln_delta / beta
}

/// Improved conversion, α optimised continuously.
///
/// d ε/dα = slope + (ln δ + ln α)/(α − 1)², so the optimum solves
/// slope·β² + ln(1 + β) + ln δ = 0, whose left side increases in β: a unique
/// root, found by bisection. Any α gives a valid bound, so an inexact root can
/// only make ε slightly larger, never smaller. ε is floored at 0.
pub fn epsilon_improved(rdp_slope: f64, delta: f64) -> Result<RdpEpsilon, AccountingError> {
    check_delta(delta)?;
    check_slope(rdp_slope)?;
    let ln_delta = delta.ln();
    let h = |beta: f64| rdp_slope * beta * beta + beta.ln_1p() + ln_delta;
    let (mut lo, mut hi) = if h(1.0) < 0.0 {
        let mut lo = 1.0;
        while h(2.0 * lo) < 0.0 {
            lo *= 2.0;
        }
        (lo, 2.0 * lo)
    } else {
        let mut hi = 1.0;
        while h(0.5 * hi) >= 0.0 {
            hi *= 0.5;
        }
        (0.5 * hi, hi)
    };
    (lo, hi) = bisect(lo, hi, 200, |x| h(x) < 0.0);
    let beta = if improved_at(rdp_slope, lo, ln_delta) < improved_at(rdp_slope, hi, ln_delta) {
        lo
    } else {
        hi
    };
    let alpha = 1.0 + beta;
    Ok(RdpEpsilon {
        epsilon: improved_at(rdp_slope, beta, ln_delta).max(0.0),
        alpha,
        alpha_at_edge: !(GRID_MIN..=GRID_MAX).contains(&alpha),
    })
}

/// Improved conversion, α minimised over [`usual_grid`] (what the standard
/// libraries do; the test vectors of docs/algorithms.md use it). ε is floored at 0.
pub fn epsilon_improved_grid(rdp_slope: f64, delta: f64) -> Result<RdpEpsilon, AccountingError> {
    check_delta(delta)?;
    check_slope(rdp_slope)?;
    let ln_delta = delta.ln();
    let (alpha, epsilon) = usual_grid()
        .into_iter()
        .map(|a| (a, improved_at(rdp_slope, a - 1.0, ln_delta)))
        .fold((f64::NAN, f64::INFINITY), |best, cur| {
            if cur.1 < best.1 {
                cur
            } else {
                best
            }
        });
    Ok(RdpEpsilon {
        epsilon: epsilon.max(0.0),
        alpha,
        alpha_at_edge: alpha == GRID_MIN || alpha == GRID_MAX,
    })
}

/// Classic conversion, α optimised continuously in closed form:
/// β* = √(ln(1/δ)/slope), ε = slope + 2√(slope·ln(1/δ)) (the same number as
/// zCDP's simple conversion with ρ = slope).
pub fn epsilon_classic(rdp_slope: f64, delta: f64) -> Result<RdpEpsilon, AccountingError> {
    check_delta(delta)?;
    check_slope(rdp_slope)?;
    let ln_delta = delta.ln();
    let l = -ln_delta;
    let beta = (l / rdp_slope).sqrt();
    let alpha = 1.0 + beta;
    let closed = rdp_slope + 2.0 * (rdp_slope * l).sqrt();
    // Evaluate at the chosen order too; report the larger (both are ≈ equal).
    let at = classic_at(rdp_slope, beta, ln_delta);
    let epsilon = if at.is_finite() {
        closed.max(at)
    } else {
        closed
    };
    Ok(RdpEpsilon {
        epsilon,
        alpha,
        alpha_at_edge: !(GRID_MIN..=GRID_MAX).contains(&alpha),
    })
}

/// Largest slope Σ steps·s²/(2σ²) whose improved (continuous-α) conversion is
/// at most ε: the inverse of [`epsilon_improved`], by bisection on the slope.
pub fn slope_for_epsilon_improved(epsilon: f64, delta: f64) -> Result<f64, AccountingError> {
    check_epsilon(epsilon)?;
    check_delta(delta)?;
    let ok = |slope: f64| {
        epsilon_improved(slope, delta)
            .map(|r| r.epsilon <= epsilon)
            .unwrap_or(false)
    };
    // The classic bound is looser, so its slope (closed form) is a lower bracket.
    let l = -delta.ln();
    let mut lo = {
        let r = epsilon / ((l + epsilon).sqrt() + l.sqrt());
        r * r
    };
    let mut guard = 0;
    while !ok(lo) && guard < 2100 {
        lo *= 0.5;
        guard += 1;
    }
    let mut hi = 2.0 * lo;
    while ok(hi) && guard < 4200 {
        guard += 1;
        lo = hi;
        hi *= 2.0;
    }
    let (lo, _) = bisect(lo, hi, 200, ok);
    Ok(lo)
}

/// Largest slope whose classic conversion is at most ε (closed form,
/// (√(ln(1/δ) + ε) − √(ln(1/δ)))², written without cancellation).
pub fn slope_for_epsilon_classic(epsilon: f64, delta: f64) -> Result<f64, AccountingError> {
    // The classic conversion of a linear RDP curve is the zCDP conversion.
    super::zcdp::rho_for_epsilon(epsilon, delta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_usual_grid_has_152_orders_from_1_1_to_63() {
        let g = usual_grid();
        assert_eq!(g.len(), 99 + 53);
        assert_eq!(g[0], 1.1);
        assert_eq!(*g.last().unwrap(), 63.0);
        assert!(g.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn continuous_alpha_is_never_worse_than_the_grid() {
        for slope in [1e-4, 0.01, 0.5, 5.0, 100.0] {
            for delta in [1e-10, 1e-5, 0.1] {
                let c = epsilon_improved(slope, delta).unwrap();
                let g = epsilon_improved_grid(slope, delta).unwrap();
                assert!(c.epsilon <= g.epsilon + 1e-12, "{slope} {delta}");
            }
        }
    }

    #[test]
    fn slope_inverses_round_trip() {
        for eps in [0.01, 1.0, 8.0, 100.0] {
            let s = slope_for_epsilon_improved(eps, 1e-5).unwrap();
            let back = epsilon_improved(s, 1e-5).unwrap().epsilon;
            assert!(
                back <= eps && (back - eps).abs() < 1e-9 * eps,
                "{eps} {back}"
            );
            let s = slope_for_epsilon_classic(eps, 1e-5).unwrap();
            let back = epsilon_classic(s, 1e-5).unwrap().epsilon;
            assert!((back - eps).abs() < 1e-9 * eps, "{eps} {back}");
        }
    }
}
