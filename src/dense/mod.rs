//! Dense kernels at sizes in the thousands (n = 2000–3000): Gram matrices,
//! matrix–matrix products and the symmetric eigendecomposition, through `faer`
//! (pure Rust, cache-blocked, SIMD natively and in wasm), and one hand-written
//! kernel, [`symmetric_lower_product`], for the memory-bound products with a
//! symmetric matrix and one or two columns. nalgebra stays for the small
//! fixed-size algebra everywhere else; docs/performance.md has the measurements that
//! decided which library runs what.
//!
//! Every matrix here is a column-major slice with its dimensions, so callers keep
//! plain `Vec<f64>` storage. faer runs on one thread (`Par::Seq`): the
//! page runs one worker per core and the CLI shares the machine. The one
//! exception is [`symmetric_lower_product_on`], whose caller may give half of
//! a product to a second core when `crate::cores` lends one (an idle sweep thread).
//!
//! The files: `faer_ops.rs` (the products, Cholesky and eigen through faer),
//! `symmetric.rs` (the lower-triangle product, its bands; `symmetric/second_core.rs`
//! its helper thread), `kernel.rs` (its one macro-written kernel), `builds.rs` (the
//! kernel's per-ISA builds and which one runs), `gram_tiles.rs` (wasm's Gram tiles).

mod builds;
mod faer_ops;
mod gram_tiles;
mod kernel;
mod symmetric;
#[cfg(test)]
mod tests;

#[cfg(target_arch = "x86_64")]
pub use builds::{x86_build, x86_build_from_env, X86Build};
pub use faer_ops::{
    gemm, gram_lower_add, mirror_lower, symmetric_eigen, trmm_lower, Cholesky, Left,
};
pub use symmetric::{
    band_split, symmetric_lower_product, symmetric_lower_product_on, BAND_MIN_M, SECOND_CORE_MIN_M,
};

/// Clears the upper halves of the vector registers after a faer call.
///
/// faer's x86 kernels (AVX-512, chosen at run time) return with them dirty,
/// and the rest of the crate is built for baseline x86-64 (SSE2): SSE code
/// after a dirty upper state ran about 2× slower on these machines, for as
/// long as the thread lived (a Private FedRep run at n = 10⁶ after a DP-GD
/// sweep in one `dp-explorer bench` process: 18.4 s against 9.7 s alone).
/// VZEROUPPER is what compilers emit at the end of AVX code for this reason.
#[inline]
fn clean_upper_state() {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the CPU has AVX (checked just above).
        unsafe { std::arch::x86_64::_mm256_zeroupper() };
    }
}
