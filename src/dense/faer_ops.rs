//! The dense products, Cholesky and the symmetric eigendecomposition through faer
//! (one thread, `Par::Seq`), and the Gram matrix's lower triangle.

use faer::linalg::matmul::matmul;
use faer::linalg::matmul::triangular::{matmul as triangular_matmul, BlockStructure};
use faer::{Accum, MatMut, MatRef, Par, Side};

use super::clean_upper_state;
use super::gram_tiles::gram_lower_tiles;

fn view(a: &[f64], rows: usize, cols: usize) -> MatRef<'_, f64> {
    MatRef::from_column_major_slice(&a[..rows * cols], rows, cols)
}

fn view_mut(a: &mut [f64], rows: usize, cols: usize) -> MatMut<'_, f64> {
    MatMut::from_column_major_slice_mut(&mut a[..rows * cols], rows, cols)
}

/// Lower triangle (with the diagonal) of the m×m `c` += alpha·A Aᵀ, A m×k.
/// Half the arithmetic of the full product; the strict upper triangle is left
/// alone (see [`mirror_lower`]). Through faer natively; in wasm through this
/// module's own simd128 tiles (`gram_lower_tiles`, near the end of the file).
pub fn gram_lower_add(c: &mut [f64], m: usize, a: &[f64], k: usize, alpha: f64) {
    if m == 0 || k == 0 {
        return;
    }
    if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
        gram_lower_tiles(c, m, a, k, alpha);
        return;
    }
    let a = view(a, m, k);
    triangular_matmul(
        view_mut(c, m, m),
        BlockStructure::TriangularLower,
        Accum::Add,
        a,
        BlockStructure::Rectangular,
        a.transpose(),
        BlockStructure::Rectangular,
        alpha,
        Par::Seq,
    );
    clean_upper_state();
}

/// Copies the lower triangle of the m×m column-major `c` onto its upper one.
pub fn mirror_lower(c: &mut [f64], m: usize) {
    for j in 0..m {
        for i in 0..j {
            c[j * m + i] = c[i * m + j];
        }
    }
}

/// The left factor A of [`gemm`]: an m×k column-major slice as it is (a
/// `&[f64]` or `&Vec<f64>` converts to this), or the transpose of a stored
/// k×m one.
#[derive(Clone, Copy, Debug)]
pub enum Left<'a> {
    Plain(&'a [f64]),
    Transposed(&'a [f64]),
}

impl<'a> From<&'a [f64]> for Left<'a> {
    fn from(a: &'a [f64]) -> Self {
        Left::Plain(a)
    }
}

impl<'a> From<&'a Vec<f64>> for Left<'a> {
    fn from(a: &'a Vec<f64>) -> Self {
        Left::Plain(a)
    }
}

/// C (m×n) = alpha·A B (+ C if `add`), A m×k (or Aᵀ of a stored k×m A, see
/// [`Left`]), B k×n, on one thread.
#[allow(clippy::too_many_arguments)]
pub fn gemm<'a>(
    c: &mut [f64],
    m: usize,
    n: usize,
    a: impl Into<Left<'a>>,
    k: usize,
    b: &[f64],
    alpha: f64,
    add: bool,
) {
    if m == 0 || n == 0 {
        return;
    }
    let a = match a.into() {
        Left::Plain(a) => view(a, m, k),
        Left::Transposed(a) => view(a, k, m).transpose(),
    };
    matmul(
        view_mut(c, m, n),
        if add { Accum::Add } else { Accum::Replace },
        a,
        view(b, k, n),
        alpha,
        Par::Seq,
    );
    clean_upper_state();
}

/// C (m×n) = alpha·L B with L (m×m) lower triangular (its strict upper triangle
/// is not read): half the arithmetic of a full product.
pub fn trmm_lower(c: &mut [f64], m: usize, n: usize, l: &[f64], b: &[f64], alpha: f64) {
    if m == 0 || n == 0 {
        return;
    }
    triangular_matmul(
        view_mut(c, m, n),
        BlockStructure::Rectangular,
        Accum::Replace,
        view(l, m, m),
        BlockStructure::TriangularLower,
        view(b, m, n),
        BlockStructure::Rectangular,
        alpha,
        Par::Seq,
    );
    clean_upper_state();
}

/// The Cholesky factor of a symmetric positive definite m×m matrix.
pub struct Cholesky {
    llt: faer::linalg::solvers::Llt<f64>,
    /// L, m×m column-major (zeros above the diagonal).
    lower: Vec<f64>,
    m: usize,
}

impl Cholesky {
    /// `None` when `a` (its lower triangle is read) is not numerically positive definite.
    pub fn new(a: &[f64], m: usize) -> Option<Self> {
        let llt = view(a, m, m).llt(Side::Lower).ok();
        clean_upper_state();
        let llt = llt?;
        let l = llt.L();
        let mut lower = vec![0.0; m * m];
        for j in 0..m {
            for i in j..m {
                lower[j * m + i] = l[(i, j)];
            }
        }
        Some(Cholesky { llt, lower, m })
    }

    pub fn lower(&self) -> &[f64] {
        &self.lower
    }

    /// x ← A⁻¹x.
    pub fn solve_in_place(&self, x: &mut [f64]) {
        use faer::linalg::solvers::Solve;
        self.llt.solve_in_place(view_mut(x, self.m, 1));
        clean_upper_state();
    }
}

/// Eigendecomposition of the symmetric m×m `a` (its lower triangle is read):
/// (eigenvalues in increasing order, eigenvectors as the columns of an m×m
/// column-major matrix). `None` if the QR iteration does not converge.
pub fn symmetric_eigen(a: &[f64], m: usize) -> Option<(Vec<f64>, Vec<f64>)> {
    if m == 0 {
        return Some((Vec::new(), Vec::new()));
    }
    let evd = view(a, m, m).self_adjoint_eigen(Side::Lower).ok();
    clean_upper_state();
    let evd = evd?;
    let values: Vec<f64> = (0..m).map(|i| evd.S().column_vector()[i]).collect();
    let u = evd.U();
    let mut vectors = vec![0.0; m * m];
    for j in 0..m {
        for i in 0..m {
            vectors[j * m + i] = u[(i, j)];
        }
    }
    Some((values, vectors))
}
