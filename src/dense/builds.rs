//! The builds of the lower-triangle kernel (AVX-512, AVX2, wasm simd128, portable)
//! and the x86-64 build that runs.

use super::kernel::{symmetric_lower_diagonal_block, symmetric_lower_kernel};
use super::symmetric::{LANES, PANEL};

/// The vector build of the hand-written x86-64 kernels: the widest this CPU
/// has, or a narrower one forced by the environment variable
/// `DP_EXPLORER_SIMD` (`avx2` or `scalar`; read once per process). A
/// benchmarking switch, to time the AVX2 path on a machine with AVX-512:
/// every build gives the same bits (tested), so results never depend on it.
/// It does not reach faer's products, which choose AVX-512 or AVX2 at run
/// time through the standard library's detection (docs/performance.md).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum X86Build {
    Avx512,
    Avx2,
    Scalar,
}

/// The x86-64 build [`symmetric_lower_product`] runs (see [`X86Build`]): the
/// one `DP_EXPLORER_SIMD` asks for, or the widest this CPU has when it is
/// unset or refused ([`x86_build_from_env`] says why; the CLI refuses to run
/// with it).
#[cfg(target_arch = "x86_64")]
pub fn x86_build() -> X86Build {
    static BUILD: std::sync::OnceLock<X86Build> = std::sync::OnceLock::new();
    *BUILD.get_or_init(|| x86_build_from_env().unwrap_or_else(|_| widest_x86_build()))
}

/// The widest build this CPU runs.
#[cfg(target_arch = "x86_64")]
fn widest_x86_build() -> X86Build {
    if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
    {
        X86Build::Avx512
    } else if std::arch::is_x86_feature_detected!("avx2") {
        X86Build::Avx2
    } else {
        X86Build::Scalar
    }
}

/// The build `DP_EXPLORER_SIMD` asks for (`avx2`, `scalar`; unset or empty:
/// the widest), or why it cannot be honoured: an unknown value, or AVX2 on a
/// CPU without it. A benchmarking switch must never fall back silently, or a
/// timing would be labelled with a build that did not run.
#[cfg(target_arch = "x86_64")]
pub fn x86_build_from_env() -> Result<X86Build, String> {
    let forced = std::env::var("DP_EXPLORER_SIMD").unwrap_or_default();
    match forced.as_str() {
        "" => Ok(widest_x86_build()),
        "scalar" => Ok(X86Build::Scalar),
        "avx2" if std::arch::is_x86_feature_detected!("avx2") => Ok(X86Build::Avx2),
        "avx2" => Err("DP_EXPLORER_SIMD=avx2, but this CPU has no AVX2".into()),
        other => Err(format!(
            "DP_EXPLORER_SIMD=\"{other}\" is not a build; use avx2 or scalar (or leave it unset for the widest)"
        )),
    }
}

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m256d, _mm256_add_pd, _mm256_loadu_pd, _mm256_mul_pd, _mm256_set1_pd, _mm256_setzero_pd,
    _mm256_storeu_pd,
};

/// The x86-64 builds: 256-bit vectors of 4 lanes under the given features.
#[cfg(target_arch = "x86_64")]
macro_rules! symmetric_lower_kernel_256 {
    ($features:literal, $name:ident) => {
        symmetric_lower_kernel!(
            #[target_feature(enable = $features)]
            $name, __m256d, 4,
            zero: _mm256_setzero_pd(), splat: _mm256_set1_pd, load: _mm256_loadu_pd,
            store: _mm256_storeu_pd, add: _mm256_add_pd, mul: _mm256_mul_pd
        );
    };
}

// AVX-512VL gives the 256-bit code 32 registers: two columns per pass fit (with
// AVX2's 16 the dispatch pairs columns as well; some accumulators spill).
#[cfg(target_arch = "x86_64")]
symmetric_lower_kernel_256!("avx512f,avx512vl", symmetric_lower_avx512);
#[cfg(target_arch = "x86_64")]
symmetric_lower_kernel_256!("avx2", symmetric_lower_avx2);

// wasm: explicit simd128, two v128 per chunk of 4 rows (in a crate of its own
// V8 ran the auto-vectorised portable loop about 2× slower; in this crate's
// build the two took the same time: docs/performance.md).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use std::arch::wasm32::{f64x2_add, f64x2_mul, f64x2_splat, v128, v128_load, v128_store};

/// Completes a kernel macro's arguments (`symmetric_lower_kernel!`,
/// `gram_lower_kernel!`, after their name and vector type) with wasm's simd128
/// operations on two-lane `v128` vectors: one list for every wasm kernel.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
macro_rules! with_simd128 {
    ($kernel:ident!($($head:tt)*)) => {
        $kernel!(
            $($head)*
            zero: f64x2_splat(0.0), splat: f64x2_splat,
            load: |p: *const f64| v128_load(p as *const v128),
            store: |p: *mut f64, v: v128| v128_store(p as *mut v128, v),
            add: f64x2_add, mul: f64x2_mul
        );
    };
}
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(super) use with_simd128;

// wasm: two columns of W per pass, as natively (A read once for both). 500
// products at n = 2000, two columns, in a module of the kernel alone (node 20,
// CPU s, medians of 3 in each of several processes): one column per pass
// 0.90–1.36, two 0.74–0.82. In this crate, the paper cell
// (`run_bench("dpgd-paper-cell")`, node, alternating, 7 runs each) took
// 2.90–3.25 s of CPU (median 3.06) against 2.98–3.47 s (3.21), the products'
// self time in its profile 0.76–0.80 s against 0.85–0.89 s.
// A panel's columns in sub-passes of four (V8 has 15 xmm registers; a whole
// panel keeps 32 accumulators and 16 splats for two columns, and spills)
// measured no faster: 0.76–0.83 against 0.76–0.82 s in one sweep.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
with_simd128!(symmetric_lower_kernel!(symmetric_lower_fallback, v128, 2,));

// Anywhere else (and x86-64 without AVX2): four scalar lanes.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
symmetric_lower_kernel!(
    symmetric_lower_fallback, f64, 1,
    zero: 0.0, splat: |x: f64| x, load: |p: *const f64| *p,
    store: |p: *mut f64, v: f64| *p = v,
    add: |x: f64, y: f64| x + y, mul: |x: f64, y: f64| x * y
);
