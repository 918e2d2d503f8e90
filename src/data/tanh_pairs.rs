//! tanh on two values at once, with exactly the bits of the scalar tanh that
//! wasm's `f64::tanh` runs (musl's tanh and expm1, as ported in Rust's libm),
//! for the random features' activation in wasm.
//!
//! Why: in wasm the activation of the paper-size DP-GD cell (12·10⁶ values) is
//! about a tenth of the cell's time, spent in one scalar call per value whose
//! branches follow the sign and size of a random pre-activation, so they
//! mispredict. Here both lanes compute every branch's formula in IEEE
//! arithmetic, with the same operations in the same order as the scalar
//! code, and each lane keeps the branch the scalar code would have taken: the
//! same bits (tested against the `libm` crate natively, and against
//! `f64::tanh` in wasm in tests/web.rs). Inputs outside the range written out
//! here (|x| < 2⁻²⁸, |x| ≥ 19, NaN) take the scalar call.
//!
//! This project's speed-up, not part of any paper. Natively the activation
//! stays the platform's scalar tanh (another algorithm, so other last bits).

/// Two f64 lanes and the operations the algorithm needs: IEEE operations lane
/// by lane, so every implementation gives the same bits.
pub trait Pair: Copy {
    type Mask: Copy;
    fn splat(x: f64) -> Self;
    fn add(self, b: Self) -> Self;
    fn sub(self, b: Self) -> Self;
    fn mul(self, b: Self) -> Self;
    fn div(self, b: Self) -> Self;
    fn neg(self) -> Self;
    fn abs(self) -> Self;
    fn lt(self, b: Self) -> Self::Mask;
    fn ge(self, b: Self) -> Self::Mask;
    fn and(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    fn all(m: Self::Mask) -> bool;
    /// Lane by lane: `a` where the mask is set, else `b`.
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
    /// Rounded toward zero (as `x as i32` then back, for |x| < 2³¹).
    fn trunc(self) -> Self;
    /// 2^k and 2^−k for integral k in [−1022, 1022].
    fn pow2(self) -> (Self, Self);
    fn eq(self, b: Self) -> Self::Mask;
}

/// The lanes as plain f64 values: the reference for the vector builds, and
/// what the native tests run.
impl Pair for [f64; 2] {
    type Mask = [bool; 2];
    #[inline(always)]
    fn splat(x: f64) -> Self {
        [x, x]
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        [self[0] + b[0], self[1] + b[1]]
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        [self[0] - b[0], self[1] - b[1]]
    }
    #[inline(always)]
    fn mul(self, b: Self) -> Self {
        [self[0] * b[0], self[1] * b[1]]
    }
    #[inline(always)]
    fn div(self, b: Self) -> Self {
        [self[0] / b[0], self[1] / b[1]]
    }
    #[inline(always)]
    fn neg(self) -> Self {
        [-self[0], -self[1]]
    }
    #[inline(always)]
    fn abs(self) -> Self {
        [self[0].abs(), self[1].abs()]
    }
    #[inline(always)]
    fn lt(self, b: Self) -> [bool; 2] {
        [self[0] < b[0], self[1] < b[1]]
    }
    #[inline(always)]
    fn ge(self, b: Self) -> [bool; 2] {
        [self[0] >= b[0], self[1] >= b[1]]
    }
    #[inline(always)]
    fn and(a: [bool; 2], b: [bool; 2]) -> [bool; 2] {
        [a[0] && b[0], a[1] && b[1]]
    }
    #[inline(always)]
    fn all(m: [bool; 2]) -> bool {
        m[0] && m[1]
    }
    #[inline(always)]
    fn select(m: [bool; 2], a: Self, b: Self) -> Self {
        [
            if m[0] { a[0] } else { b[0] },
            if m[1] { a[1] } else { b[1] },
        ]
    }
    #[inline(always)]
    fn trunc(self) -> Self {
        [self[0].trunc(), self[1].trunc()]
    }
    #[inline(always)]
    fn pow2(self) -> (Self, Self) {
        let p = |k: f64, s: i64| f64::from_bits(((0x3ff + s * k as i64) as u64) << 52);
        (
            [p(self[0], 1), p(self[1], 1)],
            [p(self[0], -1), p(self[1], -1)],
        )
    }
    #[inline(always)]
    fn eq(self, b: Self) -> [bool; 2] {
        [self[0] == b[0], self[1] == b[1]]
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128 {
    use super::Pair;
    use std::arch::wasm32::*;

    /// wasm's two-lane f64 vector (IEEE lane by lane, as the scalar code).
    #[derive(Clone, Copy)]
    pub struct F64x2(pub v128);

    /// Methods that are one simd128 instruction on the lanes, as
    /// `name(args) -> Result = instruction`.
    macro_rules! lanewise {
        ($($name:ident($($arg:ident),*) -> $out:ident = $op:ident;)*) => {$(
            #[inline(always)]
            fn $name(self $(, $arg: Self)*) -> lanewise!(@type $out) {
                lanewise!(@wrap $out, $op(self.0 $(, $arg.0)*))
            }
        )*};
        (@type Pair) => { Self };
        (@type Mask) => { v128 };
        (@wrap Pair, $e:expr) => { F64x2($e) };
        (@wrap Mask, $e:expr) => { $e };
    }

    impl Pair for F64x2 {
        type Mask = v128;
        #[inline(always)]
        fn splat(x: f64) -> Self {
            F64x2(f64x2_splat(x))
        }
        lanewise! {
            add(b) -> Pair = f64x2_add;
            sub(b) -> Pair = f64x2_sub;
            mul(b) -> Pair = f64x2_mul;
            div(b) -> Pair = f64x2_div;
            neg() -> Pair = f64x2_neg;
            abs() -> Pair = f64x2_abs;
            trunc() -> Pair = f64x2_trunc;
            lt(b) -> Mask = f64x2_lt;
            ge(b) -> Mask = f64x2_ge;
            eq(b) -> Mask = f64x2_eq;
        }
        #[inline(always)]
        fn and(a: v128, b: v128) -> v128 {
            v128_and(a, b)
        }
        #[inline(always)]
        fn all(m: v128) -> bool {
            i64x2_all_true(m)
        }
        #[inline(always)]
        fn select(m: v128, a: Self, b: Self) -> Self {
            F64x2(v128_bitselect(a.0, b.0, m))
        }
        #[inline(always)]
        fn pow2(self) -> (Self, Self) {
            let k = i64x2_extend_low_i32x4(i32x4_trunc_sat_f64x2_zero(self.0));
            let bias = i64x2_splat(0x3ff);
            (
                F64x2(i64x2_shl(i64x2_add(bias, k), 52)),
                F64x2(i64x2_shl(i64x2_sub(bias, k), 52)),
            )
        }
    }
}

// musl's expm1 (libm's `expm1.rs`): ln 2 split in two, 1/ln 2, and the
// polynomial's coefficients, by their bits as musl's comments give them.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
const INVLN2: f64 = f64::from_bits(0x3ff7_1547_652b_82fe);
const Q1: f64 = f64::from_bits(0xbfa1_1111_1111_10f4);
const Q2: f64 = f64::from_bits(0x3f5a_01a0_19fe_5585);
const Q3: f64 = f64::from_bits(0xbf14_ce19_9eaa_dbb7);
const Q4: f64 = f64::from_bits(0x3ed0_cfca_86e6_5239);
const Q5: f64 = f64::from_bits(0xbe8a_fdb7_6e09_c32d);

/// The smallest float whose high 32 bits exceed `word` (for x ≥ 0 the order of
/// the bits is the order of the values, so `w > word` is `x ≥ above(word)`).
const fn above(word: u64) -> f64 {
    f64::from_bits((word + 1) << 32)
}

/// The range written out here: 2⁻²⁸ ≤ |x| < 19 (then 2|x| < 56·ln 2, so expm1
/// needs none of its overflow cases, and its tiny-argument case never comes).
const LOW: f64 = 1.0 / (1u64 << 28) as f64;
const HIGH: f64 = 19.0;

/// expm1 of `x` (|x| in [2⁻²⁷, 38], and ≥ −1.5·ln 2): musl's steps, every
/// branch computed, each lane keeping its own.
#[inline(always)]
fn expm1_pair<P: Pair>(x: P) -> P {
    let s = P::splat;
    let ax = x.abs();
    let neg = x.lt(s(0.0));
    // |x| > ln2/2: reduce; below 1.5·ln2 by one ln 2, else by k = round(x/ln 2).
    let reduce = ax.ge(s(above(0x3fd6_2e42)));
    let near = ax.lt(s(f64::from_bits(0x3ff0_a2b2 << 32)));
    let k_near = P::select(neg, s(-1.0), s(1.0));
    let hi_near = P::select(neg, x.add(s(LN2_HI)), x.sub(s(LN2_HI)));
    let lo_near = P::select(neg, s(-LN2_LO), s(LN2_LO));
    let k_far = x
        .mul(s(INVLN2))
        .add(P::select(neg, s(-0.5), s(0.5)))
        .trunc();
    let hi_far = x.sub(k_far.mul(s(LN2_HI)));
    let lo_far = k_far.mul(s(LN2_LO));
    let k = P::select(reduce, P::select(near, k_near, k_far), s(0.0));
    let hi = P::select(near, hi_near, hi_far);
    let lo = P::select(near, lo_near, lo_far);
    let reduced = hi.sub(lo);
    let c = P::select(reduce, hi.sub(reduced).sub(lo), s(0.0));
    let x = P::select(reduce, reduced, x);
    // x is now in the primary range.
    let hfx = s(0.5).mul(x);
    let hxs = x.mul(hfx);
    // 1 + hxs·(Q1 + hxs·(Q2 + hxs·(Q3 + hxs·(Q4 + hxs·Q5)))), inside out.
    let q = s(Q4).add(hxs.mul(s(Q5)));
    let q = s(Q3).add(hxs.mul(q));
    let q = s(Q2).add(hxs.mul(q));
    let q = s(Q1).add(hxs.mul(q));
    let r1 = s(1.0).add(hxs.mul(q));
    let t = s(3.0).sub(r1.mul(hfx));
    let e = hxs.mul(r1.sub(t).div(s(6.0).sub(x.mul(t))));
    let k0 = x.sub(x.mul(e).sub(hxs));
    let e = x.mul(e.sub(c)).sub(c).sub(hxs);
    let km1 = s(0.5).mul(x.sub(e)).sub(s(0.5));
    let k1 = P::select(
        x.lt(s(-0.25)),
        s(-2.0).mul(e.sub(x.add(s(0.5)))),
        s(1.0).add(s(2.0).mul(x.sub(e))),
    );
    // 2 ≤ k ≤ 55 here (k < −1 and k > 56 need |x| beyond this range).
    let (twopk, uf) = k.pow2();
    let below20 = x.sub(e).add(s(1.0).sub(uf)).mul(twopk);
    let from20 = x.sub(e.add(uf)).add(s(1.0)).mul(twopk);
    let big = P::select(k.lt(s(20.0)), below20, from20);
    P::select(
        k.eq(s(0.0)),
        k0,
        P::select(k.eq(s(-1.0)), km1, P::select(k.eq(s(1.0)), k1, big)),
    )
}

/// tanh of both lanes, when both are in [`LOW`, `HIGH`) in absolute value;
/// None otherwise (NaN included), for the scalar call.
#[inline(always)]
pub fn tanh_pair<P: Pair>(x: P) -> Option<P> {
    let s = P::splat;
    let ax = x.abs();
    if !P::all(P::and(ax.ge(s(LOW)), ax.lt(s(HIGH)))) {
        return None;
    }
    // musl: |x| > log(3)/2: 1 − 2/(expm1(2|x|) + 2); |x| > log(5/3)/2:
    // expm1(2|x|)/(expm1(2|x|) + 2); else −expm1(−2|x|)/(expm1(−2|x|) + 2).
    let large = ax.ge(s(above(0x3fe1_93ea)));
    let middle = ax.ge(s(above(0x3fd0_58ae)));
    let twice = s(2.0).mul(ax);
    let em = expm1_pair(P::select(middle, twice, twice.neg()));
    let t = P::select(
        large,
        s(1.0).sub(s(2.0).div(em.add(s(2.0)))),
        P::select(middle, em, em.neg()).div(em.add(s(2.0))),
    );
    Some(P::select(x.lt(s(0.0)), t.neg(), t))
}

/// Every value of `zs` replaced by its tanh, two at a time through `P`, the
/// rest (and pairs outside the written-out range) through `scalar`.
#[inline(always)]
pub fn tanh_in_place_with<P: Pair>(
    zs: &mut [f64],
    load: impl Fn(&[f64]) -> P,
    store: impl Fn(P, &mut [f64]),
    scalar: impl Fn(f64) -> f64,
) {
    let mut pairs = zs.chunks_exact_mut(2);
    for pair in &mut pairs {
        match tanh_pair(load(pair)) {
            Some(t) => store(t, pair),
            None => pair.iter_mut().for_each(|z| *z = scalar(*z)),
        }
    }
    for z in pairs.into_remainder() {
        *z = scalar(*z);
    }
}

/// `zs` through tanh: in wasm two at a time with simd128 (the bits of
/// `f64::tanh` there); elsewhere one `f64::tanh` per value.
pub fn tanh_in_place(zs: &mut [f64]) {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use std::arch::wasm32::{v128, v128_load, v128_store};
        // SAFETY: each chunk holds exactly two f64 (16 bytes); unaligned access is fine.
        tanh_in_place_with(
            zs,
            |p| simd128::F64x2(unsafe { v128_load(p.as_ptr() as *const v128) }),
            |t, p| unsafe { v128_store(p.as_mut_ptr() as *mut v128, t.0) },
            f64::tanh,
        );
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    zs.iter_mut().for_each(|z| *z = z.tanh());
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// The plain-lanes build against the `libm` crate's tanh (the code wasm's
    /// `f64::tanh` runs), bit for bit.
    fn check(values: &[f64]) {
        let mut zs = values.to_vec();
        tanh_in_place_with(
            &mut zs,
            |p| [p[0], p[1]],
            |t, p| p.copy_from_slice(&t),
            libm::tanh,
        );
        for (&x, &t) in values.iter().zip(&zs) {
            assert_eq!(
                t.to_bits(),
                libm::tanh(x).to_bits(),
                "tanh({x:e}) = {t:e}, libm {:e}",
                libm::tanh(x)
            );
        }
    }

    #[test]
    fn pairs_give_the_bits_of_libm_tanh_over_every_branch() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        // Uniform on [−20, 20], log-uniform magnitudes from 2⁻³⁰ to 2⁵, and
        // the branch points (of tanh and of expm1 at 2|x|) with their
        // neighbours.
        let mut values: Vec<f64> = (0..400_000)
            .map(|_| rng.random_range(-20.0..20.0))
            .collect();
        values.extend((0..400_000).map(|_| {
            let m = 2f64.powf(rng.random_range(-30.0..5.0));
            if rng.random::<bool>() {
                m
            } else {
                -m
            }
        }));
        let words = [
            0x3fe1_93ea_u64,
            0x3fd0_58ae,
            0x3fd6_2e42,
            0x3ff0_a2b2,
            0x4033_0000,
            0x3e30_0000,
        ];
        for w in words {
            for base in [
                f64::from_bits(w << 32),
                f64::from_bits((w + 1) << 32),
                f64::from_bits(w << 32) / 2.0,
            ] {
                for step in -3i64..=3 {
                    let x = f64::from_bits((base.to_bits() as i64 + step) as u64);
                    values.extend([x, -x]);
                }
            }
        }
        // k = round(2|x|/ln 2) at 19 and 20 (expm1's two formulas for 2^k).
        for k in [2.0, 19.0, 20.0, 21.0, 54.0] {
            let x = k * std::f64::consts::LN_2 / 2.0;
            values.extend([x, -x, x * (1.0 + 1e-15), x * (1.0 - 1e-15)]);
        }
        values.extend([
            0.0,
            -0.0,
            1e-310,
            -1e-310,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            19.0,
            -19.0,
            25.0,
        ]);
        check(&values);
    }
}
