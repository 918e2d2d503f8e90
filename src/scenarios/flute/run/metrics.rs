//! The measures of a FLUTE sweep's model (B, W) against the data's Φ (Nasser et al. §7.1):
//! the paper's error (1/M) Σᵢ ‖B wᵢ − φᵢ‖, the singular values σ(BW) and the
//! balancedness ‖BᵀB − WWᵀ‖_F.

use crate::linalg::{all_finite, symmetric_eigen};
use nalgebra::DMatrix;

/// (1/M) Σᵢ ‖B wᵢ − φᵢ‖ (the paper's error).
pub fn mean_regressor_error(b: &DMatrix<f64>, w: &DMatrix<f64>, phi: &DMatrix<f64>) -> f64 {
    let m = phi.ncols();
    let residual = b * w - phi;
    residual.column_iter().map(|c| c.norm()).sum::<f64>() / m.max(1) as f64
}

/// σ(BW), largest first: the singular values of R W with B = QR (k×k work).
/// NaN when any number on the way is not finite (no eigendecomposition of it).
pub fn product_singular_values(b: &DMatrix<f64>, w: &DMatrix<f64>) -> Vec<f64> {
    let k = b.ncols();
    if !all_finite(b) || !all_finite(w) {
        return vec![f64::NAN; k];
    }
    let r = b.clone().qr().r();
    let rw = r * w;
    let gram = &rw * rw.transpose();
    let Some(eigen) = symmetric_eigen(gram) else {
        return vec![f64::NAN; k];
    };
    let mut values: Vec<f64> = eigen
        .eigenvalues
        .iter()
        .map(|e| e.max(0.0).sqrt())
        .collect();
    values.sort_by(|a, b| b.total_cmp(a));
    values
}

/// ‖BᵀB − WWᵀ‖_F.
pub fn balancedness(b: &DMatrix<f64>, w: &DMatrix<f64>) -> f64 {
    (b.transpose() * b - w * w.transpose()).norm()
}
