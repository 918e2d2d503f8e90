//! The finite-sample optimum of FLUTE's plain ERM (Liu, Shen & Yang, eq. 2):
//! min over B (d×k) and W (k×M) of (1/M) Σ_i (1/N) Σ_j (x_ijᵀ B w_i − y_ij)²,
//! by alternating least squares. Each half-step is an exact minimisation, so
//! the objective never increases; started from the truth's balanced
//! factorization it settles in the optimum next to it. Its distance to Φ is the
//! "finite-N ERM floor" the FLUTE charts draw: what no algorithm minimising
//! eq. 2 on these samples can beat (docs/algorithms.md, FLUTE).

use crate::data::shared_representation::{FederatedDataset, Part};
use crate::linalg::{dot, least_squares_head, HeadScratch};
use nalgebra::{DMatrix, DVector};

/// Each client's least-squares head on its N points given the shared B
/// (the FedRep head step): column i of the k×M result.
pub fn least_squares_heads(data: &FederatedDataset, b: &DMatrix<f64>) -> DMatrix<f64> {
    let (d, k, m) = (data.d(), b.ncols(), data.n());
    let cols = b.as_slice();
    let mut heads = DMatrix::zeros(k, m);
    let mut scratch = HeadScratch::new(k);
    let mut v = vec![0.0; k];
    let mut a = Vec::new();
    data.for_each_user(0..m, Part::Train, |user| {
        let pts = user.train;
        a.clear();
        for j in 0..pts.len() {
            let x = &pts.x[j * d..(j + 1) * d];
            for q in 0..k {
                a.push(dot(x, &cols[q * d..(q + 1) * d]));
            }
        }
        least_squares_head(&a, pts.y, k, 0.0, &mut scratch, &mut v);
        heads.column_mut(user.index).copy_from_slice(&v);
    });
    heads
}

/// The B minimising the ERM objective for fixed heads W: the normal equations
/// Σ_i (w_i w_iᵀ ⊗ X_iᵀX_i/N) vec(B) = Σ_i vec(X_iᵀ y_i w_iᵀ/N) (dk×dk,
/// column-major vec). None when they are singular.
pub fn least_squares_representation(
    data: &FederatedDataset,
    w: &DMatrix<f64>,
) -> Option<DMatrix<f64>> {
    let (d, k, m) = (data.d(), w.nrows(), data.n());
    let dk = d * k;
    let mut lhs = DMatrix::<f64>::zeros(dk, dk);
    let mut rhs = DVector::<f64>::zeros(dk);
    let mut c = vec![0.0; d * d];
    let mut xy = vec![0.0; d];
    data.for_each_user(0..m, Part::Train, |user| {
        let pts = user.train;
        let n = pts.len().max(1) as f64;
        c.iter_mut().for_each(|v| *v = 0.0);
        xy.iter_mut().for_each(|v| *v = 0.0);
        for j in 0..pts.len() {
            let x = &pts.x[j * d..(j + 1) * d];
            for p in 0..d {
                xy[p] += x[p] * pts.y[j] / n;
                for s in 0..d {
                    c[p * d + s] += x[p] * x[s] / n;
                }
            }
        }
        let wi = w.column(user.index);
        for q in 0..k {
            for p in 0..d {
                rhs[q * d + p] += xy[p] * wi[q];
                for r in 0..k {
                    let wqr = wi[q] * wi[r];
                    for s in 0..d {
                        lhs[(q * d + p, r * d + s)] += wqr * c[p * d + s];
                    }
                }
            }
        }
    });
    let solution = lhs.cholesky()?.solve(&rhs);
    Some(DMatrix::from_column_slice(d, k, solution.as_slice()))
}

/// The ERM objective (1/M) Σ_i (1/N) Σ_j (x_ijᵀ B w_i − y_ij)².
pub fn erm_objective(data: &FederatedDataset, b: &DMatrix<f64>, w: &DMatrix<f64>) -> f64 {
    let (d, m) = (data.d(), data.n());
    let mut total = 0.0;
    data.for_each_user(0..m, Part::Train, |user| {
        let bw: Vec<f64> = (b * w.column(user.index)).iter().copied().collect();
        let pts = user.train;
        let mut s = 0.0;
        for j in 0..pts.len() {
            let r = dot(&pts.x[j * d..(j + 1) * d], &bw) - pts.y[j];
            s += r * r;
        }
        total += s / pts.len().max(1) as f64;
    });
    total / m.max(1) as f64
}

/// Alternating least squares from B⁰: heads, then B, `iterations` times or
/// until the objective improves by less than `tolerance` (relative).
/// Returns (B, W) with W the heads of the final B.
pub fn alternating_least_squares(
    data: &FederatedDataset,
    b0: DMatrix<f64>,
    iterations: usize,
    tolerance: f64,
) -> (DMatrix<f64>, DMatrix<f64>) {
    let mut b = b0;
    let mut w = least_squares_heads(data, &b);
    let mut last = erm_objective(data, &b, &w);
    for _ in 0..iterations {
        let Some(next) = least_squares_representation(data, &w) else {
            break;
        };
        b = next;
        w = least_squares_heads(data, &b);
        let now = erm_objective(data, &b, &w);
        let done = last - now <= tolerance * last.abs().max(1e-300);
        last = now;
        if done {
            break;
        }
    }
    (b, w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::under_parameterized::{Spectrum, UnderParameterizedModel};

    #[test]
    fn every_half_step_lowers_the_objective_and_the_b_step_solves_its_normal_equations() {
        let data = UnderParameterizedModel {
            clients: 12,
            samples: 9,
            d: 6,
            k: 2,
            rank: 6,
            spectrum: Spectrum::Decaying,
            noise: 0.5,
            seed: 3,
        }
        .generate();
        let p = &data.points;
        let b0 = DMatrix::from_fn(6, 2, |i, j| ((i + 2 * j) as f64).sin());
        let w0 = least_squares_heads(p, &b0);
        let f0 = erm_objective(p, &b0, &w0);
        let b1 = least_squares_representation(p, &w0).expect("solvable");
        let f1 = erm_objective(p, &b1, &w0);
        assert!(f1 <= f0 + 1e-12, "{f1} > {f0}");
        // B-step optimality: a small move of any entry does not lower the objective.
        for e in 0..12 {
            let mut moved = b1.clone();
            moved.as_mut_slice()[e] += 1e-4;
            assert!(erm_objective(p, &moved, &w0) >= f1 - 1e-12);
        }
        let (b, w) = alternating_least_squares(p, b0, 200, 1e-12);
        assert!(erm_objective(p, &b, &w) <= f1 + 1e-12);
    }
}
