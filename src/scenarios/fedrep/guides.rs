//! Theory guides drawn over measured curves.
//!
//! Private FedRep's excess risk (Snedeker et al., Theorem 10) has the
//! shape Õ(C₁/(n²ε²) + C₂/(nm)) + R²k/m: a privacy term that falls like
//! 1/(nε)² and a floor that does not depend on ε. The constants hide
//! polylog factors and problem constants, so the page does not claim them:
//! it takes the floor B from the finished non-private FedRep run and fits ONE
//! constant A so that A/(nε)² + B passes as close as possible to the finished
//! Private FedRep points (least squares between the logarithms). The guide
//! then shows whether the *shape* 1/ε² is what the runs follow.

use crate::plot::{LineStyle, Series};

/// The name of the guide series (the page toggles series that start with "theory guide").
pub const GUIDE_NAME: &str = "theory guide: A/(nε)² + floor (fitted)";

/// A fitted guide `excess(ε) ≈ a/(n·ε)² + floor`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateFit {
    pub a: f64,
    pub floor: f64,
    pub n: f64,
}

impl RateFit {
    pub fn at(&self, epsilon: f64) -> f64 {
        self.a / (self.n * epsilon).powi(2) + self.floor
    }
}

fn log_loss(points: &[(f64, f64)], n: f64, floor: f64, log_a: f64) -> f64 {
    let a = log_a.exp();
    points
        .iter()
        .map(|&(e, y)| {
            let r = (a / (n * e).powi(2) + floor).ln() - y.ln();
            r * r
        })
        .sum()
}

/// Fits A in `A/(nε)² + floor` to `(ε, excess)` points by least squares in
/// log space. Points with ε ≤ 0, non-finite values or excess ≤ 0 are ignored;
/// None when fewer than two points remain, or when no point lies above the
/// floor (then nothing is left for the 1/ε² term to explain).
pub fn fit_private_rate(points: &[(f64, f64)], n: usize, floor: f64) -> Option<RateFit> {
    let n = n as f64;
    let floor = if floor.is_finite() && floor > 0.0 {
        floor
    } else {
        0.0
    };
    let pts: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|&(e, y)| e.is_finite() && e > 0.0 && y.is_finite() && y > 0.0)
        .collect();
    if pts.len() < 2 || n <= 0.0 {
        return None;
    }
    // Each point above the floor alone would give A = (y − floor)·(nε)².
    let exact: Vec<f64> = pts
        .iter()
        .filter(|&&(_, y)| y > floor)
        .map(|&(e, y)| ((y - floor) * (n * e).powi(2)).ln())
        .collect();
    if exact.is_empty() {
        return None;
    }
    let lo = exact.iter().copied().fold(f64::INFINITY, f64::min) - 3.0;
    let hi = exact.iter().copied().fold(f64::NEG_INFINITY, f64::max) + 3.0;
    // Coarse scan, then golden-section search around the best cell: the loss
    // is smooth in log A, and the scan keeps it from a poor local minimum.
    let cells = 240;
    let h = (hi - lo) / cells as f64;
    let best = (0..=cells)
        .map(|i| lo + h * i as f64)
        .min_by(|&x, &y| log_loss(&pts, n, floor, x).total_cmp(&log_loss(&pts, n, floor, y)))?;
    let (mut a, mut b) = (best - h, best + h);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..80 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if log_loss(&pts, n, floor, c) < log_loss(&pts, n, floor, d) {
            b = d;
        } else {
            a = c;
        }
    }
    Some(RateFit {
        a: ((a + b) / 2.0).exp(),
        floor,
        n,
    })
}

/// The guide as a dotted series over [eps_lo, eps_hi] (log-spaced ε).
pub fn guide_series(fit: &RateFit, eps_lo: f64, eps_hi: f64, color: usize) -> Series {
    let count = 48;
    let (l, h) = (eps_lo.ln(), eps_hi.max(eps_lo).ln());
    Series {
        name: GUIDE_NAME.into(),
        points: (0..count)
            .map(|i| {
                let e = (l + (h - l) * i as f64 / (count - 1) as f64).exp();
                (e, fit.at(e))
            })
            .collect(),
        style: LineStyle::Dotted,
        color,
        horizontal: false,
        band: Vec::new(),
        faded: false,
        in_legend: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_on_the_model_give_back_its_constant() {
        let (a, floor, n) = (3.5e4, 2e-4, 20_000);
        let pts: Vec<(f64, f64)> = [1.0, 2.0, 4.0, 6.0, 8.0]
            .iter()
            .map(|&e| (e, a / (n as f64 * e).powi(2) + floor))
            .collect();
        let fit = fit_private_rate(&pts, n, floor).unwrap();
        assert!((fit.a / a - 1.0).abs() < 1e-6, "{fit:?}");
        assert!((fit.at(3.0) - (a / (n as f64 * 3.0).powi(2) + floor)).abs() < 1e-12);
    }

    #[test]
    fn the_fit_minimizes_the_log_error_not_the_raw_error() {
        // Scattered by factors ×2 and ×½ around the model: in log space the
        // errors cancel, so the fit is the model's A (a raw least squares fit
        // would be pulled up by the ×2 point at the largest risk).
        let (a, n) = (100.0, 10);
        let model = |e: f64| a / (n as f64 * e).powi(2);
        let pts = vec![(1.0, 2.0 * model(1.0)), (2.0, 0.5 * model(2.0))];
        let fit = fit_private_rate(&pts, n, 0.0).unwrap();
        assert!((fit.a / a - 1.0).abs() < 1e-6, "{fit:?}");
        // The loss really is smallest there.
        let at = |x: f64| log_loss(&pts, n as f64, 0.0, x);
        assert!(at(fit.a.ln()) <= at(fit.a.ln() + 0.01));
        assert!(at(fit.a.ln()) <= at(fit.a.ln() - 0.01));
    }

    #[test]
    fn too_few_or_unusable_points_give_no_guide() {
        assert!(fit_private_rate(&[(1.0, 0.1)], 100, 0.01).is_none());
        assert!(fit_private_rate(&[(1.0, 0.1), (2.0, f64::NAN), (0.0, 1.0)], 100, 0.0).is_none());
        // Everything at or below the floor: nothing for the 1/ε² term.
        assert!(fit_private_rate(&[(1.0, 0.01), (2.0, 0.005)], 100, 0.01).is_none());
    }

    #[test]
    fn the_series_is_dotted_named_and_spans_the_range() {
        let fit = RateFit {
            a: 1.0,
            floor: 0.5,
            n: 1.0,
        };
        let s = guide_series(&fit, 1.0, 8.0, 0);
        assert_eq!(s.name, GUIDE_NAME);
        assert_eq!(s.style, LineStyle::Dotted);
        assert!(
            (s.points[0].0 - 1.0).abs() < 1e-12 && (s.points.last().unwrap().0 - 8.0).abs() < 1e-9
        );
        assert!((s.points[0].1 - 1.5).abs() < 1e-12);
        assert!(s.points.windows(2).all(|w| w[1].1 < w[0].1));
    }
}
