//! Standard normal draws for several streams at once: each vector lane holds
//! one Xoshiro256++ state (one user's stream), and the common path of
//! rand_distr's ziggurat (`StandardNormal`: ZIGNOR, Doornik 2005) runs across
//! the lanes: 8-bit layer index from the low bits, u ∈ [−1, 1) from the high
//! 52, one multiply, one compare with the next layer's abscissa. A lane whose
//! candidate falls outside its layer's box (1.5 % of draws: a wedge or the
//! tail) rewinds its state by one step and redraws that variate with
//! rand_distr's own sampler, so every stream gives exactly the numbers
//! `rng.sample(StandardNormal)` gives it, draw by draw (tested).
//!
//! This project's speed-up, not part of any paper: the users' data of a
//! streamed run are redrawn on every pass (docs/performance.md).

use rand::{RngExt, SeedableRng, TryRng};
use rand_distr::StandardNormal;
use rand_xoshiro::rand_core::utils::fill_bytes_via_next_word;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::convert::Infallible;
use std::sync::OnceLock;

/// Streams drawn at once: 8 natively (one AVX-512 register of u64, two AVX2
/// ones), 4 in wasm (two simd128 registers; measured in docs/performance.md).
#[cfg(target_arch = "wasm32")]
pub const LANES: usize = 4;
#[cfg(not(target_arch = "wasm32"))]
pub const LANES: usize = 8;

/// Whether this build draws in lanes: natively not when `DP_EXPLORER_SIMD`
/// forces the scalar build ([`crate::dense::x86_build`]), which then fills
/// user after user with the scalar sampler (the same numbers).
pub fn lanes_enabled() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        crate::dense::x86_build() != crate::dense::X86Build::Scalar
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        true
    }
}

/// Xoshiro256++ states of `LANES` streams, word by word (`s[w][lane]`), so one
/// step of every stream is a handful of vector operations.
pub struct NormalLanes {
    s: [[u64; LANES]; 4],
}

impl NormalLanes {
    pub fn new(streams: &[Xoshiro256PlusPlus; LANES]) -> Self {
        let mut s = [[0u64; LANES]; 4];
        for (lane, rng) in streams.iter().enumerate() {
            let words = state_words(rng);
            for w in 0..4 {
                s[w][lane] = words[w];
            }
        }
        NormalLanes { s }
    }

    /// Lane `lane`'s stream as it stands now.
    pub fn stream(&self, lane: usize) -> Xoshiro256PlusPlus {
        from_words([
            self.s[0][lane],
            self.s[1][lane],
            self.s[2][lane],
            self.s[3][lane],
        ])
    }

    /// Draws `count = out.len() / LANES` standard normals from every stream,
    /// lane by lane: `out[lane·count + t]` is stream `lane`'s t-th draw.
    pub fn fill(&mut self, out: &mut [f64]) {
        assert_eq!(out.len() % LANES, 0, "normal lanes: output not whole lanes");
        let count = out.len() / LANES;
        self.fill_strided(out, count, count);
    }

    /// Draws `count` standard normals from every stream straight into their
    /// places: `out[lane·stride + t]` is stream `lane`'s t-th draw (e.g. row j
    /// of every user's points, the users `stride` apart); nothing else in
    /// `out` is written.
    pub fn fill_strided(&mut self, out: &mut [f64], stride: usize, count: usize) {
        assert!(
            count <= stride && (LANES - 1) * stride + count <= out.len(),
            "normal lanes: {count} draws {stride} apart do not fit {} numbers",
            out.len()
        );
        let place = Place { stride, count };
        #[cfg(target_arch = "x86_64")]
        match crate::dense::x86_build() {
            // SAFETY: the build is only chosen when the CPU has the features.
            crate::dense::X86Build::Avx512 => {
                return unsafe { fill_avx512(&mut self.s, out, place, ziggurat_pairs()) }
            }
            crate::dense::X86Build::Avx2 => {
                return unsafe { fill_avx2(&mut self.s, out, place, ziggurat_pairs()) }
            }
            crate::dense::X86Build::Scalar => {}
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return fill_simd128(&mut self.s, out, place, ziggurat_pairs());
        #[allow(unreachable_code)]
        fill_kernel(&mut self.s, out, place, ziggurat_x());
    }
}

/// Where the draws go: lane l's t-th (t < count) at `l·stride + t`, checked
/// against the output's length by [`NormalLanes::fill_strided`].
#[derive(Clone, Copy)]
struct Place {
    stride: usize,
    count: usize,
}

fn state_words(rng: &Xoshiro256PlusPlus) -> [u64; 4] {
    let bytes = rng.state();
    std::array::from_fn(|w| u64::from_le_bytes(bytes[8 * w..8 * w + 8].try_into().unwrap()))
}

fn from_words(words: [u64; 4]) -> Xoshiro256PlusPlus {
    let mut seed = [0u8; 32];
    for (w, word) in words.iter().enumerate() {
        seed[8 * w..8 * w + 8].copy_from_slice(&word.to_le_bytes());
    }
    Xoshiro256PlusPlus::from_seed(seed)
}

/// One lane's draw whose candidate left the box: from the state before that
/// step, rand_distr's sampler redraws it (the same first word, then the wedge
/// or the tail, and further tries if those reject).
#[inline]
fn redraw(words: [u64; 4]) -> (f64, [u64; 4]) {
    // rand_xoshiro's own generator on the lane's words (a rare path: the two
    // 32-byte conversions cost little beside the wedge's `exp`).
    let mut rng = from_words(words);
    let z: f64 = rng.sample(StandardNormal);
    (z, state_words(&rng))
}

/// The portable build (no x86-64 or wasm SIMD kernel): the same steps in
/// plain Rust over the lanes' arrays, the reference the vector kernels follow.
#[inline(always)]
fn fill_kernel(s: &mut [[u64; LANES]; 4], out: &mut [f64], place: Place, table: &[f64; 257]) {
    let [mut s0, mut s1, mut s2, mut s3] = *s;
    for t in 0..place.count {
        let row = &mut [0.0; LANES];
        let before = [s0, s1, s2, s3];
        let mut x = [0.0f64; LANES];
        let mut inside = [false; LANES];
        for l in 0..LANES {
            // Xoshiro256++ (rand_xoshiro's next_u64).
            let bits = s0[l]
                .wrapping_add(s3[l])
                .rotate_left(23)
                .wrapping_add(s0[l]);
            let t = s1[l] << 17;
            s2[l] ^= s0[l];
            s3[l] ^= s1[l];
            s1[l] ^= s2[l];
            s0[l] ^= s3[l];
            s2[l] ^= t;
            s3[l] = s3[l].rotate_left(45);
            // rand_distr's ziggurat, symmetric: layer from the low 8 bits, the
            // high 52 as a float in [2, 4), minus 3.
            let i = (bits & 0xff) as usize;
            let u = f64::from_bits((bits >> 12) | (1024u64 << 52)) - 3.0;
            let xl = u * table[i];
            inside[l] = xl.abs() < table[i + 1];
            x[l] = xl;
        }
        row.copy_from_slice(&x);
        if !inside.iter().all(|&a| a) {
            for l in 0..LANES {
                if !inside[l] {
                    let (z, w) = redraw([before[0][l], before[1][l], before[2][l], before[3][l]]);
                    row[l] = z;
                    s0[l] = w[0];
                    s1[l] = w[1];
                    s2[l] = w[2];
                    s3[l] = w[3];
                }
            }
        }
        scatter(out, place, t, row);
    }
    *s = [s0, s1, s2, s3];
}

/// Row t of the lanes' draws into each lane's place in `out`.
#[inline(always)]
fn scatter(out: &mut [f64], place: Place, t: usize, row: &[f64; LANES]) {
    debug_assert!(t < place.count && (LANES - 1) * place.stride + place.count <= out.len());
    for (l, &z) in row.iter().enumerate() {
        // SAFETY: t < count and (LANES − 1)·stride + count ≤ out.len()
        // (checked by `fill_strided`), so l·stride + t is inside `out`.
        unsafe { *out.get_unchecked_mut(l * place.stride + t) = z };
    }
}

/// Lanes whose candidate left its layer's box (bit l set): redrawn one by one
/// from their states `before` the step, the states written back into `s`.
#[cold]
#[inline(never)]
fn redraw_lanes(
    outside: u32,
    before: &[[u64; LANES]; 4],
    s: &mut [[u64; LANES]; 4],
    row: &mut [f64],
) {
    for (l, z) in row.iter_mut().enumerate() {
        if outside & (1 << l) != 0 {
            let (draw, w) = redraw([before[0][l], before[1][l], before[2][l], before[3][l]]);
            *z = draw;
            for (word, value) in w.into_iter().enumerate() {
                s[word][l] = value;
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    _mm256_add_epi64, _mm256_and_pd, _mm256_and_si256, _mm256_castsi256_pd, _mm256_cmp_pd,
    _mm256_loadu_si256, _mm256_movemask_pd, _mm256_mul_pd, _mm256_or_si256, _mm256_set1_epi64x,
    _mm256_set1_pd, _mm256_set_m128d, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_pd,
    _mm256_storeu_si256, _mm256_sub_pd, _mm256_unpackhi_pd, _mm256_unpacklo_pd, _mm256_xor_si256,
    _mm_loadu_pd, _CMP_LT_OQ,
};

/// The x86-64 kernel: the 8 lanes as two 256-bit vectors of 4 u64 (AVX2
/// intrinsics; under AVX-512VL LLVM turns each shift pair of a rotate into
/// one `vprolq`). The same operations as [`fill_kernel`], in IEEE
/// arithmetic lane by lane, hence the same bits.
#[cfg(target_arch = "x86_64")]
macro_rules! x86_lanes_kernel {
    ($features:literal, $name:ident) => {
        #[target_feature(enable = $features)]
        unsafe fn $name(
            s: &mut [[u64; LANES]; 4],
            out: &mut [f64],
            place: Place,
            pairs: &[[f64; 2]; 256],
        ) {
            // (Macros, not closures: a closure does not inherit the target
            // features, and LLVM does not inline it into this function.)
            const HALVES: usize = LANES / 4;
            macro_rules! load {
                ($s:expr) => {{
                    let mut v = [[_mm256_set1_epi64x(0); HALVES]; 4];
                    for w in 0..4 {
                        for h in 0..HALVES {
                            v[w][h] = _mm256_loadu_si256($s[w][4 * h..].as_ptr().cast());
                        }
                    }
                    v
                }};
            }
            macro_rules! store {
                ($v:expr, $s:expr) => {
                    for w in 0..4 {
                        for h in 0..HALVES {
                            _mm256_storeu_si256($s[w][4 * h..].as_mut_ptr().cast(), $v[w][h]);
                        }
                    }
                };
            }
            macro_rules! rotl {
                ($x:expr, $r:literal, $rr:literal) => {{
                    let x = $x;
                    _mm256_or_si256(_mm256_slli_epi64::<$r>(x), _mm256_srli_epi64::<$rr>(x))
                }};
            }
            let exponent = _mm256_set1_epi64x(1024 << 52);
            let low8 = _mm256_set1_epi64x(0xff);
            let no_sign = _mm256_castsi256_pd(_mm256_set1_epi64x(i64::MAX));
            let three = _mm256_set1_pd(3.0);
            let mut v = load!(s);
            for t in 0..place.count {
                let row = &mut [0.0; LANES];
                let before = v;
                let mut outside = 0u32;
                for h in 0..HALVES {
                    let (s0, s1, s2, s3) = (v[0][h], v[1][h], v[2][h], v[3][h]);
                    // Xoshiro256++.
                    let bits = _mm256_add_epi64(rotl!(_mm256_add_epi64(s0, s3), 23, 41), s0);
                    let t = _mm256_slli_epi64::<17>(s1);
                    let s2 = _mm256_xor_si256(s2, s0);
                    let s3 = _mm256_xor_si256(s3, s1);
                    let s1 = _mm256_xor_si256(s1, s2);
                    let s0 = _mm256_xor_si256(s0, s3);
                    let s2 = _mm256_xor_si256(s2, t);
                    let s3 = rotl!(s3, 45, 19);
                    (v[0][h], v[1][h], v[2][h], v[3][h]) = (s0, s1, s2, s3);
                    // The ziggurat's box test.
                    let i = _mm256_and_si256(bits, low8);
                    let u = _mm256_sub_pd(
                        _mm256_castsi256_pd(_mm256_or_si256(
                            _mm256_srli_epi64::<12>(bits),
                            exponent,
                        )),
                        three,
                    );
                    // (x_i, x_i+1) of each lane in one 128-bit load rather
                    // than gathers (vgatherqpd is slow on Zen 4).
                    let mut li = [0u64; 4];
                    _mm256_storeu_si256(li.as_mut_ptr().cast(), i);
                    macro_rules! pair {
                        ($l:literal) => {
                            _mm_loadu_pd(pairs[li[$l] as usize & 0xff].as_ptr())
                        };
                    }
                    let (even, odd) = (
                        _mm256_set_m128d(pair!(2), pair!(0)),
                        _mm256_set_m128d(pair!(3), pair!(1)),
                    );
                    let xi = _mm256_unpacklo_pd(even, odd);
                    let next = _mm256_unpackhi_pd(even, odd);
                    let x = _mm256_mul_pd(u, xi);
                    let inside = _mm256_cmp_pd::<_CMP_LT_OQ>(_mm256_and_pd(x, no_sign), next);
                    outside |= ((!_mm256_movemask_pd(inside) as u32) & 0xf) << (4 * h);
                    _mm256_storeu_pd(row[4 * h..].as_mut_ptr(), x);
                }
                if outside != 0 {
                    let (mut now, mut was) = ([[0u64; LANES]; 4], [[0u64; LANES]; 4]);
                    store!(v, now);
                    store!(before, was);
                    redraw_lanes(outside, &was, &mut now, row);
                    v = load!(now);
                }
                scatter(out, place, t, row);
            }
            store!(v, s);
        }
    };
}

#[cfg(target_arch = "x86_64")]
x86_lanes_kernel!("avx512f,avx512vl", fill_avx512);
#[cfg(target_arch = "x86_64")]
x86_lanes_kernel!("avx2", fill_avx2);

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use std::arch::wasm32::{
    f64x2_abs, f64x2_lt, f64x2_mul, f64x2_splat, f64x2_sub, i64x2_add, i64x2_bitmask, i64x2_shl,
    i64x2_shuffle, i64x2_splat, u64x2_extract_lane, u64x2_shr, v128, v128_and, v128_load, v128_or,
    v128_store, v128_xor,
};

/// The wasm kernel: the 4 lanes as two simd128 vectors of 2 u64 (no gather:
/// each lane's (x_i, x_i+1) is one 128-bit load). The same operations as
/// [`fill_kernel`], lane by lane, hence the same bits.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn fill_simd128(s: &mut [[u64; LANES]; 4], out: &mut [f64], place: Place, pairs: &[[f64; 2]; 256]) {
    const HALVES: usize = LANES / 2;
    let load = |s: &[[u64; LANES]; 4]| -> [[v128; HALVES]; 4] {
        // SAFETY: each load reads two u64 inside s[w].
        std::array::from_fn(|w| {
            std::array::from_fn(|h| unsafe { v128_load(s[w][2 * h..].as_ptr().cast()) })
        })
    };
    let store = |v: &[[v128; HALVES]; 4], s: &mut [[u64; LANES]; 4]| {
        for w in 0..4 {
            for h in 0..HALVES {
                // SAFETY: each store writes two u64 inside s[w].
                unsafe { v128_store(s[w][2 * h..].as_mut_ptr().cast(), v[w][h]) };
            }
        }
    };
    let rotl = |x: v128, r: u32| v128_or(i64x2_shl(x, r), u64x2_shr(x, 64 - r));
    let exponent = i64x2_splat(1024 << 52);
    let low8 = i64x2_splat(0xff);
    let three = f64x2_splat(3.0);
    let mut v = load(s);
    for t in 0..place.count {
        let row = &mut [0.0; LANES];
        let before = v;
        let mut outside = 0u32;
        for h in 0..HALVES {
            let (s0, s1, s2, s3) = (v[0][h], v[1][h], v[2][h], v[3][h]);
            // Xoshiro256++.
            let bits = i64x2_add(rotl(i64x2_add(s0, s3), 23), s0);
            let t = i64x2_shl(s1, 17);
            let s2 = v128_xor(s2, s0);
            let s3 = v128_xor(s3, s1);
            let s1 = v128_xor(s1, s2);
            let s0 = v128_xor(s0, s3);
            let s2 = v128_xor(s2, t);
            let s3 = rotl(s3, 45);
            (v[0][h], v[1][h], v[2][h], v[3][h]) = (s0, s1, s2, s3);
            // The ziggurat's box test.
            let i = v128_and(bits, low8);
            let u = f64x2_sub(v128_or(u64x2_shr(bits, 12), exponent), three);
            let pair = |l: u64| {
                // SAFETY: l < 256 (masked), a whole [f64; 2] entry.
                unsafe { v128_load(pairs[l as usize & 0xff].as_ptr().cast()) }
            };
            let (p0, p1) = (
                pair(u64x2_extract_lane::<0>(i)),
                pair(u64x2_extract_lane::<1>(i)),
            );
            let xi = i64x2_shuffle::<0, 2>(p0, p1);
            let next = i64x2_shuffle::<1, 3>(p0, p1);
            let x = f64x2_mul(u, xi);
            let inside = f64x2_lt(f64x2_abs(x), next);
            outside |= ((!i64x2_bitmask(inside) as u32) & 0x3) << (2 * h);
            // SAFETY: the row holds LANES f64, this half writes two of them.
            unsafe { v128_store(row[2 * h..].as_mut_ptr().cast(), x) };
        }
        if outside != 0 {
            let (mut now, mut was) = ([[0u64; LANES]; 4], [[0u64; LANES]; 4]);
            store(&v, &mut now);
            store(&before, &mut was);
            redraw_lanes(outside, &was, &mut now, row);
            v = load(&now);
        }
        scatter(out, place, t, row);
    }
    store(&v, s);
}

/// The ziggurat's layer abscissae x_0 … x_256 (x_256 = 0), read once off
/// rand_distr's own `StandardNormal` rather than copied: a generator that
/// yields one chosen word (layer i, u = 2⁻²⁰) makes the sampler return
/// u·x_i, exact since u is a power of two. The top layer's box is empty
/// (x_256 = 0), so its candidate goes to the wedge test, which a second word
/// of all ones (a uniform just under 1) passes.
pub fn ziggurat_x() -> &'static [f64; 257] {
    static TABLE: OnceLock<[f64; 257]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [0.0; 257];
        // The float 3 + 2⁻²⁰ in [2, 4): its 52 mantissa bits.
        let mantissa = (3.0f64 + 2f64.powi(-20)).to_bits() & ((1u64 << 52) - 1);
        for (i, xi) in table.iter_mut().enumerate().take(256) {
            let mut probe = Probe {
                words: [(mantissa << 12) | i as u64, u64::MAX],
                calls: 0,
            };
            let x: f64 = probe.sample(StandardNormal);
            assert!(
                probe.calls == 1 || (i == 255 && probe.calls == 2),
                "rand_distr's StandardNormal no longer draws as normal_lanes expects (layer {i})"
            );
            *xi = x * 2f64.powi(20);
        }
        table
    })
}

/// (x_i, x_i+1) for each layer i, side by side for one load.
fn ziggurat_pairs() -> &'static [[f64; 2]; 256] {
    static PAIRS: OnceLock<[[f64; 2]; 256]> = OnceLock::new();
    PAIRS.get_or_init(|| {
        let x = ziggurat_x();
        std::array::from_fn(|i| [x[i], x[i + 1]])
    })
}

/// Yields `words`, then a word the sampler accepts at once (layer 1, u = 0),
/// so a sampler that drew otherwise than expected ends and fails the check.
struct Probe {
    words: [u64; 2],
    calls: usize,
}

impl TryRng for Probe {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok((self.try_next_u64()? >> 32) as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let word = self
            .words
            .get(self.calls)
            .copied()
            .unwrap_or((3.0f64.to_bits() & ((1u64 << 52) - 1)) << 12 | 1);
        self.calls += 1;
        Ok(word)
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Infallible> {
        fill_bytes_via_next_word(dest, || self.try_next_u64())
    }
}

/// Where the draws of a stream went outside their layer's box (a wedge or the
/// tail: the lanes' rare path, redrawn by the scalar sampler), counted off the
/// word the sampler reads, for the tests that must see that path taken.
#[cfg(test)]
#[derive(Debug, Default)]
pub(crate) struct RarePaths {
    pub wedges: usize,
    pub tails: usize,
}

#[cfg(test)]
impl RarePaths {
    /// Counts where the next `rng.sample(StandardNormal)` goes, reading the
    /// word from a copy (`rng` does not move).
    pub fn peek(&mut self, rng: &Xoshiro256PlusPlus) {
        use rand::Rng;
        let table = ziggurat_x();
        let bits = rng.clone().next_u64();
        let i = (bits & 0xff) as usize;
        let u = f64::from_bits((bits >> 12) | (1024u64 << 52)) - 3.0;
        if (u * table[i]).abs() >= table[i + 1] {
            if i == 0 {
                self.tails += 1;
            } else {
                self.wedges += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_decreases_to_zero_from_the_tail_start() {
        let x = ziggurat_x();
        assert!(
            x.windows(2).all(|p| p[0] > p[1]),
            "abscissae not decreasing"
        );
        assert_eq!(x[256], 0.0);
        // x_1 is the tail's start r of the 256-layer ziggurat (Marsaglia & Tsang 2000).
        assert!((x[1] - 3.654152885361009).abs() < 1e-12, "x_1 = {}", x[1]);
    }

    #[test]
    fn the_portable_build_draws_what_the_vector_build_draws() {
        let seeds: [Xoshiro256PlusPlus; LANES] =
            std::array::from_fn(|l| Xoshiro256PlusPlus::seed_from_u64(7 + l as u64));
        let mut lanes = NormalLanes::new(&seeds);
        let mut portable = NormalLanes::new(&seeds);
        let (mut a, mut b) = (vec![0.0; 3000 * LANES], vec![0.0; 3000 * LANES]);
        lanes.fill(&mut a);
        let place = Place {
            stride: 3000,
            count: 3000,
        };
        fill_kernel(&mut portable.s, &mut b, place, ziggurat_x());
        assert!(a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()));
        assert_eq!(lanes.s, portable.s);
    }

    #[test]
    fn strided_draws_are_the_runs_draws_in_their_places_and_nothing_else() {
        let seeds: [Xoshiro256PlusPlus; LANES] =
            std::array::from_fn(|l| Xoshiro256PlusPlus::seed_from_u64(50 + l as u64));
        let (count, stride) = (900, 1000);
        let mut runs = vec![0.0; count * LANES];
        NormalLanes::new(&seeds).fill(&mut runs);
        // In pieces of 7 draws (and a last short one), the lanes `stride` apart.
        let mut lanes = NormalLanes::new(&seeds);
        let mut spaced = vec![f64::NAN; (LANES - 1) * stride + count + 5];
        for start in (0..count).step_by(7) {
            let piece = 7.min(count - start);
            lanes.fill_strided(&mut spaced[start..], stride, piece);
        }
        for (p, z) in spaced.iter().enumerate() {
            let (l, t) = (p / stride, p % stride);
            if t < count && l < LANES {
                assert_eq!(
                    z.to_bits(),
                    runs[l * count + t].to_bits(),
                    "lane {l} draw {t}"
                );
            } else {
                assert!(z.is_nan(), "{p} written outside the lanes' places");
            }
        }
    }

    #[test]
    fn every_lane_draws_exactly_what_the_scalar_sampler_draws() {
        // 4000 draws a lane, about 50 per lane through the wedges or the tail.
        let seeds: [Xoshiro256PlusPlus; LANES] =
            std::array::from_fn(|l| Xoshiro256PlusPlus::seed_from_u64(1000 + l as u64));
        let mut lanes = NormalLanes::new(&seeds);
        let count = 4000;
        // Two calls: the streams carry on from one to the next.
        let (mut first, mut rest) = (vec![0.0; 7 * LANES], vec![0.0; (count - 7) * LANES]);
        lanes.fill(&mut first);
        lanes.fill(&mut rest);
        let draw = |l: usize, t: usize| {
            if t < 7 {
                first[l * 7 + t]
            } else {
                rest[l * (count - 7) + t - 7]
            }
        };
        let mut rare = RarePaths::default();
        for (l, seed) in seeds.iter().enumerate() {
            let mut rng = seed.clone();
            for t in 0..count {
                rare.peek(&rng);
                let z: f64 = rng.sample(StandardNormal);
                assert_eq!(draw(l, t).to_bits(), z.to_bits(), "lane {l} draw {t}");
            }
            assert_eq!(lanes.stream(l), rng, "lane {l}'s stream after the draws");
        }
        let RarePaths { wedges, tails } = rare;
        assert!(wedges > 100 && tails > 0, "wedges {wedges}, tails {tails}");
    }
}
