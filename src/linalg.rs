//! Small helpers over nalgebra. k (the representation size) is small, so the hot
//! loops use direct k×k solves on caller-owned scratch instead of general
//! decompositions; d×k and d×d work goes through nalgebra.

use nalgebra::{DMatrix, DVector, SymmetricEigen};
use rand::{Rng, RngExt};
use rand_distr::StandardNormal;

/// Dot product with four independent accumulators: without fast-math, a single
/// running sum is a chain of dependent additions that neither pipelines nor
/// vectorizes; four partial sums do both (natively and in wasm).
#[inline(always)]
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0.0f64; 4];
    let mut ca = a.chunks_exact(4);
    let mut cb = b.chunks_exact(4);
    for (x, y) in (&mut ca).zip(&mut cb) {
        acc[0] += x[0] * y[0];
        acc[1] += x[1] * y[1];
        acc[2] += x[2] * y[2];
        acc[3] += x[3] * y[3];
    }
    let tail: f64 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}

/// y += alpha·x (vectorizes: no reduction).
#[inline(always)]
pub fn axpy(alpha: f64, x: &[f64], y: &mut [f64]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += alpha * xi;
    }
}

/// Upper triangle of the row-major d×d `c` += Σ_t coef_t·v_t v_tᵀ, with the
/// v_t the first `coefs.len()` rows of `vectors` (row-major, d each). Half the work of a full
/// product, and each c entry is loaded once per four rank-one terms, so the
/// loop is bound by arithmetic, not by memory (natively and in wasm SIMD).
/// The lower triangle is left alone: see [`mirror_upper`].
pub fn symmetric_rank_update_upper(c: &mut [f64], d: usize, vectors: &[f64], coefs: &[f64]) {
    let terms = coefs.len();
    assert!(
        vectors.len() >= terms * d,
        "symmetric_rank_update_upper: too few vectors"
    );
    // Terms t.. as a group of N (its rows and coefficients).
    fn group<'v, const N: usize>(
        vectors: &'v [f64],
        coefs: &[f64],
        d: usize,
        t: usize,
    ) -> Group<'v, N> {
        (
            std::array::from_fn(|q| &vectors[(t + q) * d..(t + q + 1) * d]),
            std::array::from_fn(|q| coefs[t + q]),
        )
    }
    let g4 = |t| group::<4>(vectors, coefs, d, t);
    let g2 = |t| group::<2>(vectors, coefs, d, t);
    let g1 = |t| group::<1>(vectors, coefs, d, t);
    const NONE: Group<'static, 0> = ([], []);
    // Groups of four terms, then two, then one, each group's sum added to c
    // in that order. Every group of four but the last in a pass of its own;
    // the last four with the two and the one after them in one pass over c,
    // which adds the same group sums in the same order ((c + s₄) + s₂) + s₁.
    let (fours, two, one) = (terms / 4, terms % 4 >= 2, terms % 2 == 1);
    let mut t = 0;
    while t + 4 < 4 * fours {
        rank_update_upper_groups(c, d, g4(t), NONE, NONE);
        t += 4;
    }
    match (fours > 0, two, one) {
        (true, true, true) => rank_update_upper_groups(c, d, g4(t), g2(t + 4), g1(t + 6)),
        (true, true, false) => rank_update_upper_groups(c, d, g4(t), g2(t + 4), NONE),
        (true, false, true) => rank_update_upper_groups(c, d, g4(t), g1(t + 4), NONE),
        (true, false, false) => rank_update_upper_groups(c, d, g4(t), NONE, NONE),
        (false, true, true) => rank_update_upper_groups(c, d, g2(t), g1(t + 2), NONE),
        (false, true, false) => rank_update_upper_groups(c, d, g2(t), NONE, NONE),
        (false, false, true) => rank_update_upper_groups(c, d, g1(t), NONE, NONE),
        (false, false, false) => {}
    }
}

/// N rank-one terms: their rows v_q and coefficients.
type Group<'a, const N: usize> = ([&'a [f64]; N], [f64; N]);

/// c += Σ_q a_q v_q v_qᵀ over the upper triangle for group A, then the same
/// for group B, then C (a group of 0 terms adds nothing): each entry gets its
/// group sums (each summed from 0 in term order) added one after the other, so
/// one pass gives the bits of one pass per group.
#[inline(always)]
fn rank_update_upper_groups<const A: usize, const B: usize, const C: usize>(
    c: &mut [f64],
    d: usize,
    ga: Group<'_, A>,
    gb: Group<'_, B>,
    gc: Group<'_, C>,
) {
    /// The group's coefficients times its rows' i-th entries, and the rows
    /// from column i on.
    #[inline(always)]
    fn at<'a, const N: usize>(
        (v, coef): &Group<'a, N>,
        i: usize,
        len: usize,
    ) -> ([f64; N], [&'a [f64]; N]) {
        (
            std::array::from_fn(|q| coef[q] * v[q][i]),
            std::array::from_fn(|q| &v[q][i..i + len]),
        )
    }
    /// Σ_q a_q w_q[j], summed from 0 in term order.
    #[inline(always)]
    fn sum<const N: usize>((a, w): &([f64; N], [&[f64]; N]), j: usize) -> f64 {
        let mut s = 0.0;
        for q in 0..N {
            s += a[q] * w[q][j];
        }
        s
    }
    for i in 0..d {
        let len = d - i;
        let (a, b, cc) = (at(&ga, i, len), at(&gb, i, len), at(&gc, i, len));
        let row = &mut c[i * d + i..i * d + d];
        for (j, cij) in row.iter_mut().enumerate() {
            let mut total = *cij + sum(&a, j);
            if B > 0 {
                total += sum(&b, j);
            }
            if C > 0 {
                total += sum(&cc, j);
            }
            *cij = total;
        }
    }
}

/// Copies the upper triangle of the row-major d×d `c` onto its lower one.
pub fn mirror_upper(c: &mut [f64], d: usize) {
    for i in 0..d {
        for j in 0..i {
            c[i * d + j] = c[j * d + i];
        }
    }
}

/// A d×k matrix with i.i.d. N(0,1) entries.
pub fn gaussian_matrix(rows: usize, cols: usize, rng: &mut impl Rng) -> DMatrix<f64> {
    DMatrix::from_fn(rows, cols, |_, _| rng.sample::<f64, _>(StandardNormal))
}

/// Whether every entry is finite: the guard in front of every SVD and
/// eigendecomposition here. nalgebra's iterations have no cap (an SVD of a
/// NaN matrix loops for ever, or panics sorting its singular values), and
/// its own rescaling by the largest entry turns ∞ into NaN.
pub fn all_finite(m: &DMatrix<f64>) -> bool {
    m.iter().all(|x| x.is_finite())
}

/// The singular values of `m`, largest first; None unless every entry is finite.
pub fn singular_values(m: &DMatrix<f64>) -> Option<Vec<f64>> {
    if !all_finite(m) {
        return None;
    }
    let mut values: Vec<f64> = m.singular_values().iter().copied().collect();
    values.sort_by(|a, b| b.total_cmp(a));
    Some(values)
}

/// The eigendecomposition of the symmetric `sym`; None unless every entry is finite.
pub fn symmetric_eigen(sym: DMatrix<f64>) -> Option<SymmetricEigen<f64, nalgebra::Dyn>> {
    all_finite(&sym).then(|| SymmetricEigen::new(sym))
}

/// Q of the thin QR decomposition: orthonormal columns spanning those of `m`.
/// (Private FedRep, Alg. 1 line 10: (U_{t+1}, P_{t+1}) ← QR(Û_{t+1}).)
pub fn orthonormalize(m: DMatrix<f64>) -> DMatrix<f64> {
    m.qr().q()
}

/// Row-major copy of a d×k matrix, for per-user loops that read one row at a time.
pub fn to_row_major(m: &DMatrix<f64>, out: &mut Vec<f64>) {
    out.clear();
    out.reserve(m.nrows() * m.ncols());
    for r in 0..m.nrows() {
        for c in 0..m.ncols() {
            out.push(m[(r, c)]);
        }
    }
}

/// Solves the k×k symmetric positive definite system A x = b in place by
/// Cholesky (A row-major, overwritten by its factor; b overwritten by x).
/// Returns false when A is not numerically positive definite.
#[inline(always)]
pub fn solve_spd_in_place(a: &mut [f64], b: &mut [f64], k: usize) -> bool {
    // Factor A = L Lᵀ, L stored in the lower triangle.
    let scale = (0..k).map(|i| a[i * k + i].abs()).fold(0.0_f64, f64::max);
    let tiny = 1e-12 * scale.max(f64::MIN_POSITIVE);
    for j in 0..k {
        let mut diag = a[j * k + j];
        for p in 0..j {
            diag -= a[j * k + p] * a[j * k + p];
        }
        if diag.is_nan() || diag <= tiny {
            return false;
        }
        let l = diag.sqrt();
        a[j * k + j] = l;
        for i in (j + 1)..k {
            let mut s = a[i * k + j];
            for p in 0..j {
                s -= a[i * k + p] * a[j * k + p];
            }
            a[i * k + j] = s / l;
        }
    }
    // Forward then backward substitution.
    for i in 0..k {
        let mut s = b[i];
        for p in 0..i {
            s -= a[i * k + p] * b[p];
        }
        b[i] = s / a[i * k + i];
    }
    for i in (0..k).rev() {
        let mut s = b[i];
        for p in (i + 1)..k {
            s -= a[p * k + i] * b[p];
        }
        b[i] = s / a[i * k + i];
    }
    true
}

/// Minimum-norm least-squares solution of A v ≈ y (A is rows×k, row-major) via
/// the SVD pseudo-inverse: the fallback when AᵀA is singular (fewer points than
/// k, or collinear points), as the authors' code does with `pinverse`.
///
/// NaN in, NaN out: no SVD of a non-finite matrix (it may not terminate).
pub fn pseudo_inverse_solve(a: &[f64], y: &[f64], rows: usize, k: usize, out: &mut [f64]) {
    let am = DMatrix::from_row_slice(rows, k, a);
    if !all_finite(&am) || !y.iter().all(|x| x.is_finite()) {
        out.iter_mut().for_each(|v| *v = f64::NAN);
        return;
    }
    let svd = am.svd(true, true);
    let eps = 1e-12 * svd.singular_values.max().max(f64::MIN_POSITIVE) * (rows.max(k) as f64);
    let x = svd
        .solve(&DVector::from_column_slice(y), eps)
        .unwrap_or_else(|_| DVector::zeros(k));
    out.copy_from_slice(x.as_slice());
}

/// Scratch for [`least_squares_head`], allocated once per run, reused per user.
#[derive(Clone, Debug)]
pub struct HeadScratch {
    gram: Vec<f64>,
    rhs: Vec<f64>,
}

impl HeadScratch {
    pub fn new(k: usize) -> Self {
        HeadScratch {
            gram: vec![0.0; k * k],
            rhs: vec![0.0; k],
        }
    }
}

/// v = argmin_v Σ_j (y_j − a_jᵀ v)² + λ‖v‖² for the rows a_j of A (rows×k,
/// row-major): with λ = `ridge` = 0 the exact per-user head of FedRep (Alg. 1
/// line 6); Priv-AltMin's re-implementation uses λ = 1e-6. Normal equations
/// with a Cholesky solve; the SVD pseudo-inverse (of the unridged problem) when
/// they are singular.
#[inline(always)]
pub fn least_squares_head(
    a: &[f64],
    y: &[f64],
    k: usize,
    ridge: f64,
    scratch: &mut HeadScratch,
    v: &mut [f64],
) {
    let rows = y.len();
    let (gram, rhs) = (&mut scratch.gram, &mut scratch.rhs);
    gram.iter_mut().for_each(|g| *g = 0.0);
    rhs.iter_mut().for_each(|r| *r = 0.0);
    for (row, &yj) in a.chunks_exact(k).zip(y) {
        for p in 0..k {
            rhs[p] += row[p] * yj;
            for q in 0..=p {
                gram[p * k + q] += row[p] * row[q];
            }
        }
    }
    for p in 0..k {
        for q in 0..p {
            gram[q * k + p] = gram[p * k + q];
        }
        gram[p * k + p] += ridge;
    }
    if (rows >= k || ridge > 0.0) && solve_spd_in_place(gram, rhs, k) {
        v.copy_from_slice(rhs);
    } else {
        pseudo_inverse_solve(a, y, rows, k, v);
    }
}

/// The eigenvectors of the k largest (algebraic) eigenvalues of a symmetric
/// matrix, as the columns of a d×k matrix.
///
/// NaN in, NaN out: no eigendecomposition of a non-finite matrix.
pub fn top_k_eigenvectors(sym: DMatrix<f64>, k: usize) -> DMatrix<f64> {
    let d = sym.nrows();
    let Some(eig) = symmetric_eigen(sym) else {
        return DMatrix::from_element(d, k, f64::NAN);
    };
    let mut order: Vec<usize> = (0..d).collect();
    order.sort_by(|&a, &b| eig.eigenvalues[b].total_cmp(&eig.eigenvalues[a]));
    DMatrix::from_fn(d, k, |r, c| eig.eigenvectors[(r, order[c])])
}

/// The rank-r truncated SVD (U d1×r, σ₁ ≥ … ≥ σ_r, V d2×r): SVD_r of Zha
/// (2024), the retraction of DP-RGrad and the spectral estimators.
///
/// NaN in, NaN out: no SVD of a non-finite matrix.
pub fn truncated_svd(m: &DMatrix<f64>, r: usize) -> (DMatrix<f64>, Vec<f64>, DMatrix<f64>) {
    let (d1, d2) = (m.nrows(), m.ncols());
    if !all_finite(m) {
        return (
            DMatrix::from_element(d1, r, f64::NAN),
            vec![f64::NAN; r],
            DMatrix::from_element(d2, r, f64::NAN),
        );
    }
    let svd = m.clone().svd(true, true);
    let mut order: Vec<usize> = (0..svd.singular_values.len()).collect();
    order.sort_by(|&a, &b| svd.singular_values[b].total_cmp(&svd.singular_values[a]));
    let u = svd.u.expect("u requested");
    let vt = svd.v_t.expect("vᵀ requested");
    (
        DMatrix::from_fn(d1, r, |i, j| u[(i, order[j])]),
        order
            .iter()
            .take(r)
            .map(|&j| svd.singular_values[j])
            .collect(),
        DMatrix::from_fn(d2, r, |i, j| vt[(order[j], i)]),
    )
}

/// U diag(s) Vᵀ.
pub fn from_factors(u: &DMatrix<f64>, s: &[f64], v: &DMatrix<f64>) -> DMatrix<f64> {
    let mut us = u.clone();
    for (j, x) in s.iter().enumerate() {
        us.column_mut(j).scale_mut(*x);
    }
    us * v.transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_and_axpy_match_their_definitions_for_every_length() {
        for n in 0..11 {
            let a: Vec<f64> = (0..n).map(|i| i as f64 + 0.5).collect();
            let b: Vec<f64> = (0..n).map(|i| 2.0 - i as f64).collect();
            let plain: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            assert!((dot(&a, &b) - plain).abs() < 1e-12);
            let mut y = b.clone();
            axpy(3.0, &a, &mut y);
            assert!(y
                .iter()
                .zip(&a)
                .zip(&b)
                .all(|((y, a), b)| (y - (b + 3.0 * a)).abs() < 1e-12));
        }
    }

    #[test]
    fn the_symmetric_rank_update_equals_the_sum_of_outer_products() {
        // 1 to 7 terms: every mix of the 4-, 2- and 1-term kernels.
        let d = 5;
        for terms in 1..8 {
            let v: Vec<f64> = (0..terms * d)
                .map(|i| ((i * 7 % 11) as f64) - 4.5)
                .collect();
            let coefs: Vec<f64> = (0..terms)
                .map(|t| if t % 3 == 0 { 1.5 } else { -0.5 })
                .collect();
            let mut c = vec![0.25; d * d];
            symmetric_rank_update_upper(&mut c, d, &v, &coefs);
            mirror_upper(&mut c, d);
            for i in 0..d {
                for j in 0..d {
                    let plain: f64 = 0.25
                        + (0..terms)
                            .map(|t| coefs[t] * v[t * d + i] * v[t * d + j])
                            .sum::<f64>();
                    assert!(
                        (c[i * d + j] - plain).abs() < 1e-12,
                        "terms {terms} ({i},{j})"
                    );
                }
            }
        }
    }

    #[test]
    fn the_rank_update_adds_its_groups_of_terms_in_order_bit_for_bit() {
        // Every count of terms ends in one fused pass of the last four, two
        // and one: the same bits as adding the groups one call after the other.
        let d = 37;
        for terms in [1, 2, 3, 5, 6, 7, 10, 11] {
            let v: Vec<f64> = (0..terms * d)
                .map(|i| ((i * 7919 % 1013) as f64).sqrt() - 15.3)
                .collect();
            let coefs: Vec<f64> = (0..terms).map(|t| 0.3 - 0.17 * t as f64).collect();
            let start: Vec<f64> = (0..d * d).map(|i| (i as f64).cos()).collect();
            let mut fused = start.clone();
            symmetric_rank_update_upper(&mut fused, d, &v, &coefs);
            let mut grouped = start;
            // Groups of four, then two, then one, each in a call of its own.
            let mut sizes = vec![4; terms / 4];
            sizes.extend((terms % 4 >= 2).then_some(2));
            sizes.extend((terms % 2 == 1).then_some(1));
            let mut g = 0;
            for size in sizes {
                symmetric_rank_update_upper(&mut grouped, d, &v[g * d..], &coefs[g..g + size]);
                g += size;
            }
            assert_eq!(g, terms);
            let bits = |c: &[f64]| c.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&fused), bits(&grouped), "{terms} terms");
        }
    }

    #[test]
    fn the_ridge_head_solves_the_regularized_normal_equations() {
        // (AᵀA + I) v = Aᵀy with A = I, y = (2, 4): v = (1, 2).
        let mut v = [0.0; 2];
        let a = [1.0, 0.0, 0.0, 1.0];
        least_squares_head(&a, &[2.0, 4.0], 2, 1.0, &mut HeadScratch::new(2), &mut v);
        assert!(
            (v[0] - 1.0).abs() < 1e-14 && (v[1] - 2.0).abs() < 1e-14,
            "{v:?}"
        );
        // Fewer points than k: the ridge keeps the system solvable,
        // [[2,1],[1,2]] v = (2, 2) gives v = (2/3, 2/3).
        least_squares_head(
            &[1.0, 1.0],
            &[2.0],
            2,
            1.0,
            &mut HeadScratch::new(2),
            &mut v,
        );
        assert!(v.iter().all(|t| (t - 2.0 / 3.0).abs() < 1e-14), "{v:?}");
    }

    #[test]
    fn cholesky_solves_a_hand_computed_system() {
        // [[4,2],[2,3]] x = [2,1]  →  x = [0.5, 0]
        let mut a = [4.0, 2.0, 2.0, 3.0];
        let mut b = [2.0, 1.0];
        assert!(solve_spd_in_place(&mut a, &mut b, 2));
        assert!((b[0] - 0.5).abs() < 1e-14 && b[1].abs() < 1e-14);
    }

    #[test]
    fn cholesky_refuses_a_singular_system() {
        let mut a = [1.0, 1.0, 1.0, 1.0];
        let mut b = [1.0, 1.0];
        assert!(!solve_spd_in_place(&mut a, &mut b, 2));
    }

    #[test]
    fn least_squares_head_recovers_an_exact_fit() {
        // y = 2·a1 − a2 on three rows.
        let a = [1.0, 0.0, 0.0, 1.0, 1.0, 1.0];
        let y = [2.0, -1.0, 1.0];
        let mut v = [0.0; 2];
        least_squares_head(&a, &y, 2, 0.0, &mut HeadScratch::new(2), &mut v);
        assert!((v[0] - 2.0).abs() < 1e-12 && (v[1] + 1.0).abs() < 1e-12);
    }

    #[test]
    fn underdetermined_head_is_the_minimum_norm_solution() {
        // One point (1,1) with y = 2: the minimum-norm v is (1,1).
        let mut v = [0.0; 2];
        least_squares_head(
            &[1.0, 1.0],
            &[2.0],
            2,
            0.0,
            &mut HeadScratch::new(2),
            &mut v,
        );
        assert!((v[0] - 1.0).abs() < 1e-12 && (v[1] - 1.0).abs() < 1e-12);
    }

    /// Every factorization here refuses a non-finite matrix (nalgebra's SVD of
    /// one never ends, or panics) and answers a finite one, however large.
    #[test]
    fn no_factorization_is_attempted_on_a_non_finite_matrix() {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let mut m = DMatrix::from_row_slice(2, 2, &[3.0, 1.0, 1.0, 2.0]);
            m[(1, 0)] = bad;
            assert!(!all_finite(&m));
            assert_eq!(singular_values(&m), None);
            assert!(symmetric_eigen(m.clone()).is_none());
            assert!(top_k_eigenvectors(m.clone(), 1).iter().all(|x| x.is_nan()));
            let (u, s, v) = truncated_svd(&m, 1);
            assert!(u.iter().chain(&s).chain(v.iter()).all(|x| x.is_nan()));
            let mut out = [0.0; 2];
            pseudo_inverse_solve(m.as_slice(), &[1.0, 1.0], 2, 2, &mut out);
            assert!(out.iter().all(|x| x.is_nan()));
        }
        // Finite, even near the top of the range: the values, largest first.
        let m = DMatrix::from_row_slice(2, 2, &[0.0, 1e300, 2e300, 0.0]);
        let s = singular_values(&m).unwrap();
        assert!((s[0] / 2e300 - 1.0).abs() < 1e-14 && (s[1] / 1e300 - 1.0).abs() < 1e-14);
        let eig = symmetric_eigen(DMatrix::from_row_slice(2, 2, &[2.0, 0.0, 0.0, 5.0])).unwrap();
        let mut values: Vec<f64> = eig.eigenvalues.iter().copied().collect();
        values.sort_by(f64::total_cmp);
        assert_eq!(values, [2.0, 5.0]);
    }

    #[test]
    fn top_eigenvectors_of_a_diagonal_matrix_are_its_largest_axes() {
        let m = DMatrix::from_diagonal(&DVector::from_vec(vec![1.0, 5.0, -7.0, 3.0]));
        let u = top_k_eigenvectors(m, 2);
        assert!((u[(1, 0)].abs() - 1.0).abs() < 1e-12);
        assert!((u[(3, 1)].abs() - 1.0).abs() < 1e-12);
    }
}
