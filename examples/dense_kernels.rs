//! faer against nalgebra on the dense kernels of DP-GD's kernel path at
//! n = 2000 and 3000: `cargo run --release --example dense_kernels [n]`.
use std::time::Instant;

use dp_explorer::dense;
use nalgebra::{DMatrix, SymmetricEigen};

fn time<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let out = f();
    println!("{what:<44} {:>8.3} s", t.elapsed().as_secs_f64());
    out
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let p = 2 * n;
    let phi: Vec<f64> = (0..n * p).map(|i| ((i as f64) * 0.618_034).sin()).collect();
    let mut k = vec![0.0; n * n];
    time(&format!("gram n={n} p={p} faer (lower)"), || {
        dense::gram_lower_add(&mut k, n, &phi, p, 1.0)
    });
    dense::mirror_lower(&mut k, n);
    let a = DMatrix::from_column_slice(n, p, &phi);
    let kn = time(&format!("gram n={n} p={p} nalgebra (A·Aᵀ)"), || {
        &a * a.transpose()
    });
    println!(
        "  max diff {:e}",
        (kn.as_slice()
            .iter()
            .zip(&k)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max))
    );
    for b in [1, 2, 4, 8, 32] {
        let w: Vec<f64> = (0..n * b).map(|i| (i as f64).cos()).collect();
        let mut out = vec![0.0; n * b];
        let reps = 50;
        if b <= 8 {
            // The kernel path's steps up to 6 runs: K's lower triangle only
            // (two columns per pass over K where the CPU has AVX-512).
            time(&format!("{reps}× K·W n={n} B={b} lower triangle"), || {
                for _ in 0..reps {
                    dense::symmetric_lower_product(&mut out, &k, n, &w, b);
                }
            });
            // The same products with the first band on a second core.
            let mut two = vec![0.0; n * b];
            time(
                &format!("{reps}× K·W n={n} B={b} ... second core"),
                || {
                    for _ in 0..reps {
                        dense::symmetric_lower_product_on(&mut two, &k, n, &w, b, true);
                    }
                },
            );
            let same = out
                .iter()
                .zip(&two)
                .all(|(x, y)| x.to_bits() == y.to_bits());
            println!("  the same bits with a second core: {same}");
        }
        time(&format!("{reps}× K·W n={n} B={b} faer"), || {
            for _ in 0..reps {
                dense::gemm(&mut out, n, b, &k, n, &w, 1.0, false);
            }
        });
        let wn = DMatrix::from_column_slice(n, b, &w);
        let mut on = DMatrix::zeros(n, b);
        time(&format!("{reps}× K·W n={n} B={b} nalgebra"), || {
            for _ in 0..reps {
                on.gemm(1.0, &kn, &wn, 0.0);
            }
        });
    }
    time(&format!("eigen n={n} faer"), || {
        dense::symmetric_eigen(&k, n)
    });
    // This Φ's Gram matrix is singular; shift it to be positive definite.
    let shift = (0..n).map(|i| k[i * n + i]).sum::<f64>() / n as f64;
    let mut spd = k.clone();
    (0..n).for_each(|i| spd[i * n + i] += shift);
    let spd_n = DMatrix::from_column_slice(n, n, &spd);
    let ok = time(&format!("cholesky n={n} faer"), || {
        faer::MatRef::from_column_major_slice(&spd, n, n)
            .llt(faer::Side::Lower)
            .is_ok()
    });
    let ok_n = time(&format!("cholesky n={n} nalgebra"), || {
        spd_n.clone().cholesky().is_some()
    });
    println!("  factored: faer {ok}, nalgebra {ok_n}");
    if std::env::args().any(|a| a == "--nalgebra-eigen") {
        time(&format!("eigen n={n} nalgebra"), || {
            SymmetricEigen::new(kn.clone())
        });
    }
}
