//! The one kernel of the lower-triangle product, written once as a macro for
//! every build (`builds.rs`).

/// y = A w on the panel's own PANEL×PANEL triangle (rows and columns
/// j0..j0 + width), scalar, in the order every build shares.
#[inline(always)]
pub(super) unsafe fn symmetric_lower_diagonal_block(
    y: *mut f64,
    a: *const f64,
    lda: usize,
    w: *const f64,
    j0: usize,
    width: usize,
) {
    for j in j0..j0 + width {
        let wj = *w.add(j);
        *y.add(j) += *a.add(j * lda + j) * wj;
        for i in j + 1..j0 + width {
            let k = *a.add(j * lda + i);
            *y.add(i) += k * wj;
            *y.add(j) += k * *w.add(i);
        }
    }
}

/// Writes `unsafe fn $name<const NC: usize>(y, a, m, w)`: y_c = A w_c for NC
/// columns in one pass over A's lower triangle, with a vector type of `$width`
/// lanes and its operations. The order of the floating-point operations is the
/// same for every vector type (LANES accumulators per panel column):
/// - the panel's triangle, scalar ([`symmetric_lower_diagonal_block`]);
/// - each row i below it: t = y_i, then t += A_{i,j0+p}·w_{j0+p} for p = 0..PANEL;
/// - each panel column's dot product with w: lane l takes the rows with
///   (i − start) mod LANES = l in increasing i; the last (m − start) mod LANES rows
///   go into lane 0 after them; then y_{j0+p} += ((l0 + l1) + l2) + l3.
macro_rules! symmetric_lower_kernel {
    ($(#[$attr:meta])* $name:ident, $vector:ty, $width:expr,
     zero: $zero:expr, splat: $splat:expr, load: $load:expr, store: $store:expr,
     add: $add:expr, mul: $mul:expr) => {
        $(#[$attr])*
        pub(super) unsafe fn $name<const NC: usize>(
            y: [*mut f64; NC],
            a: *const f64,
            lda: usize,
            lo: usize,
            m: usize,
            w: [*const f64; NC],
        ) {
            // Vectors per chunk of LANES rows.
            const V: usize = LANES / $width;
            for &yc in &y {
                for i in 0..m {
                    *yc.add(i) = 0.0;
                }
            }
            let mut j0 = 0;
            while j0 < m {
                let width = PANEL.min(m - j0);
                // Left of the band's rows (lo is a multiple of PANEL): the
                // panel's rows lo..m only; else its triangle, then the rows below.
                let start = if j0 < lo {
                    lo
                } else {
                    for c in 0..NC {
                        symmetric_lower_diagonal_block(y[c], a, lda, w[c], j0, width);
                    }
                    if width < PANEL {
                        break;
                    }
                    j0 + width
                };
                let mut cols = [a; PANEL];
                let mut wj: [[$vector; PANEL]; NC] = [[$zero; PANEL]; NC];
                for p in 0..PANEL {
                    cols[p] = a.add((j0 + p) * lda + start);
                    for c in 0..NC {
                        wj[c][p] = $splat(*w[c].add(j0 + p));
                    }
                }
                let mut acc: [[[$vector; V]; PANEL]; NC] = [[[$zero; V]; PANEL]; NC];
                let full = (m - start) / LANES * LANES;
                let mut off = 0;
                while off < full {
                    for v in 0..V {
                        let o = off + v * $width;
                        let mut t: [$vector; NC] = [$zero; NC];
                        let mut wc: [$vector; NC] = [$zero; NC];
                        for c in 0..NC {
                            t[c] = $load(y[c].add(start + o));
                            wc[c] = $load(w[c].add(start + o));
                        }
                        for p in 0..PANEL {
                            let k = $load(cols[p].add(o));
                            for c in 0..NC {
                                t[c] = $add(t[c], $mul(k, wj[c][p]));
                                acc[c][p][v] = $add(acc[c][p][v], $mul(k, wc[c]));
                            }
                        }
                        for c in 0..NC {
                            $store(y[c].add(start + o), t[c]);
                        }
                    }
                    off += LANES;
                }
                for c in 0..NC {
                    let mut lanes = [[0.0f64; LANES]; PANEL];
                    for p in 0..PANEL {
                        for v in 0..V {
                            $store(lanes[p].as_mut_ptr().add(v * $width), acc[c][p][v]);
                        }
                    }
                    for i in start + full..m {
                        let wi = *w[c].add(i);
                        for p in 0..PANEL {
                            let k = *cols[p].add(i - start);
                            *y[c].add(i) += k * *w[c].add(j0 + p);
                            lanes[p][0] += k * wi;
                        }
                    }
                    for p in 0..PANEL {
                        *y[c].add(j0 + p) += lanes[p].iter().sum::<f64>();
                    }
                }
                j0 += PANEL;
            }
        }
    };
}

pub(super) use symmetric_lower_kernel;
