//! Metrics of the papers: the principal-angle distance between subspaces and the
//! closed-form population risk of a linear predictor under x ~ N(0, I_d).

use nalgebra::DMatrix;

/// dist(U, U*) = ‖(I − UUᵀ)U*‖₂ for orthonormal U, U* (Snedeker et al., Def. 2):
/// the sine of the largest principal angle, computed as √(1 − σ_min(UᵀU*)²).
/// U is re-orthonormalized first, so an approximately orthonormal U is fine.
///
/// NaN when U has a non-finite entry (a diverged run): no decomposition is
/// attempted on it (an SVD of a NaN matrix may not terminate), and no angle
/// is ever shown for it. A U far from unit scale is divided by its largest
/// entry before the QR (the angle does not depend on U's scale), so a huge
/// but finite U cannot overflow the QR into NaN.
pub fn principal_angle_distance(u: &DMatrix<f64>, u_star: &DMatrix<f64>) -> f64 {
    if !crate::linalg::all_finite(u) {
        return f64::NAN;
    }
    let largest = u.amax();
    let q = if largest > 1e100 || (largest > 0.0 && largest < 1e-100) {
        u / largest
    } else {
        u.clone()
    }
    .qr()
    .q();
    let c = q.transpose() * u_star;
    match crate::linalg::singular_values(&c) {
        Some(s) => {
            let s_min = s.last().copied().unwrap_or(0.0);
            (1.0 - s_min * s_min).max(0.0).sqrt()
        }
        None => f64::NAN,
    }
}

/// Excess population risk of the predictor w for a user whose true model is w*:
/// E[(y − xᵀw)²] − R² = ‖w − w*‖² when x has identity covariance and the label
/// noise is independent (Snedeker et al., proof of Lemma 35).
pub fn excess_risk_linear(w: &[f64], w_star: &[f64]) -> f64 {
    w.iter().zip(w_star).map(|(a, b)| (a - b) * (a - b)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_is_zero_for_the_same_subspace_and_one_for_orthogonal_ones() {
        let e = DMatrix::<f64>::identity(4, 4);
        let a = e.columns(0, 2).into_owned();
        let rotated = DMatrix::from_columns(&[e.column(1).into_owned(), -e.column(0).into_owned()]);
        let b = e.columns(2, 2).into_owned();
        assert!(principal_angle_distance(&a, &rotated) < 1e-7);
        assert!((principal_angle_distance(&a, &b) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn distance_is_the_sine_of_the_angle_between_lines() {
        let t: f64 = 0.3;
        let a = DMatrix::from_column_slice(2, 1, &[1.0, 0.0]);
        let b = DMatrix::from_column_slice(2, 1, &[t.cos(), t.sin()]);
        assert!((principal_angle_distance(&a, &b) - t.sin()).abs() < 1e-12);
    }

    /// The angle does not depend on U's scale: a huge finite U (which would
    /// overflow an unscaled QR into NaN) gives the angle of U itself.
    #[test]
    fn a_huge_finite_u_gives_its_angle_and_a_non_finite_one_nan() {
        let t: f64 = 0.3;
        let a = DMatrix::from_column_slice(2, 1, &[1.0, 0.0]);
        let b = DMatrix::from_column_slice(2, 1, &[t.cos(), t.sin()]);
        assert!((principal_angle_distance(&(&b * 1e300), &a) - t.sin()).abs() < 1e-12);
        assert!((principal_angle_distance(&(&b * 1e-300), &a) - t.sin()).abs() < 1e-12);
        let bad = DMatrix::from_column_slice(2, 1, &[f64::INFINITY, 1.0]);
        assert!(principal_angle_distance(&bad, &a).is_nan());
    }

    #[test]
    fn excess_risk_is_the_squared_distance_of_the_weights() {
        assert_eq!(excess_risk_linear(&[1.0, 2.0], &[0.0, 0.0]), 5.0);
    }
}
