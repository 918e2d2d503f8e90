//! How fast the machine that runs a sweep is against the one the cost models
//! were fitted on (this project's extension). The cost models of the scenarios
//! give seconds on the reference machine; a short fixed probe, timed where the
//! sweep will run (natively by the CLI, in the page at start), says how much
//! slower or faster this machine is, for each of two kinds of work (the page
//! and the CLI scale their estimates by it):
//! - scalar: drawing normal variates and short dot products and updates, the
//!   work of FedRep, FLUTE, trace and the classifier;
//! - dense: blocked matrix products and the lower-triangle symmetric product,
//!   the work of DP-GD, whose speed depends on the vector units (AVX-512,
//!   AVX2, wasm's 128-bit SIMD) more than the scalar work does.
//!
//! The estimate stays a pure function of the settings and a [`Machine`]: the
//! probe's timing happens outside (the page times it with
//! `performance.now()`), and tests pass [`Machine::REFERENCE`].

use crate::dense::{gemm, symmetric_lower_product};
use crate::rng::{fast_stream, Purpose};
use rand::RngExt;
use rand_distr::StandardNormal;

/// This machine's time over the reference machine's, per kind of work (1: as
/// fast as the reference; 2: twice as slow).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Machine {
    pub scalar: f64,
    pub dense: f64,
}

/// One chunk of probe work of a kind, timed in milliseconds (the fastest of a
/// few chunks, so a compiler's tier-up or a burst of load is not counted).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbeTimes {
    pub scalar_ms: f64,
    pub dense_ms: f64,
}

/// The probe on the reference machine in a page (headless chromium, the
/// module on the page's main thread, the fastest of 4 chunks after one to warm
/// up: www/main.js `machineFactors`), where the page's models were fitted
/// (`make estimates`, docs/performance.md: 2.8–3.3 ms and 2.6–3.6 ms on most
/// pages, the machine's load average about 10; the median of the chunks read
/// 8.5 ms under that load, so the fastest is the machine's speed).
pub const REFERENCE_WASM: ProbeTimes = ProbeTimes {
    scalar_ms: 3.1,
    dense_ms: 3.2,
};

/// The probe natively on the reference machine (`dp-explorer sweep` times it
/// after a sweep, for the estimate it prints, src/cli/machine.rs: the fastest
/// of 5 chunks after one to warm up), where the native cost models were
/// fitted: the project's 2-core AMD EPYC (Zen 4, AVX-512), quiet (load
/// average 1.0): 1.88–1.91 ms and
/// 0.855–0.871 ms over six sweeps. With the narrower builds of the
/// lower-triangle kernel forced (`DP_EXPLORER_SIMD`), the dense chunk read
/// 0.935 ms (`avx2`) and 1.72–1.74 ms (`scalar`): it sees the vector units, as
/// the DP-GD kernels do (faer's own kernels stay AVX-512 here; on a CPU
/// without AVX-512 they slow the chunk too).
pub const REFERENCE_NATIVE: ProbeTimes = ProbeTimes {
    scalar_ms: 1.9,
    dense_ms: 0.86,
};

/// Seconds the page spends on a run besides the workers' sweep, on the
/// reference machine (the default of `Experiment::page_overhead_seconds`).
/// Fitted to the presets that compute least (`flute-c1`, `dpgd-quick`,
/// `trace-lstar`: 0.4–0.5 s from Run to done on a quiet machine,
/// docs/performance.md).
pub const PAGE_OVERHEAD_SECONDS: f64 = 0.3;

/// Seconds the page spends per point of a curve over rounds (carrying it in
/// every snapshot, drawing it, its table), on the reference machine: fitted to
/// the presets of hundreds of rounds (`flute-gamma`, `fedrep-linear-sim`).
pub const POINT_SECONDS: f64 = 0.75e-4;

/// The factors are kept in this range: a probe disturbed by far more than any
/// machine differs (a paused tab, a debugger) must not make an estimate absurd.
const FACTOR_RANGE: (f64, f64) = (0.25, 16.0);

impl Machine {
    /// The machine the models were fitted on (and the tests' machine).
    pub const REFERENCE: Machine = Machine {
        scalar: 1.0,
        dense: 1.0,
    };

    /// This machine from its probe times against the reference's.
    pub fn from_probe(measured: ProbeTimes, reference: ProbeTimes) -> Machine {
        let factor = |t: f64, r: f64| {
            if t.is_finite() && t > 0.0 {
                (t / r).clamp(FACTOR_RANGE.0, FACTOR_RANGE.1)
            } else {
                1.0
            }
        };
        Machine {
            scalar: factor(measured.scalar_ms, reference.scalar_ms),
            dense: factor(measured.dense_ms, reference.dense_ms),
        }
    }

    /// Seconds on this machine of work that takes `scalar` and `dense` seconds
    /// on the reference.
    pub fn seconds(&self, scalar: f64, dense: f64) -> f64 {
        scalar * self.scalar + dense * self.dense
    }

    /// This machine's factor for work of `kind`.
    pub fn factor(&self, kind: ProbeKind) -> f64 {
        match kind {
            ProbeKind::Scalar => self.scalar,
            ProbeKind::Dense => self.dense,
        }
    }
}

/// The kinds of probe work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeKind {
    Scalar,
    Dense,
}

impl ProbeKind {
    /// `"scalar"` or `"dense"` (the wasm binding's argument).
    pub fn parse(name: &str) -> Option<ProbeKind> {
        match name {
            "scalar" => Some(ProbeKind::Scalar),
            "dense" => Some(ProbeKind::Dense),
            _ => None,
        }
    }
}

/// Sizes of one chunk: about 3 ms in a page on the reference machine.
const SCALAR_USERS: usize = 500;
const SCALAR_POINTS: usize = 25;
const SCALAR_D: usize = 50;
const DENSE_M: usize = 96;
const DENSE_SYMMETRIC: usize = 384;

/// One chunk of fixed probe work of `kind`; returns a number computed from it
/// (so that no compiler drops the work). The same work on every machine.
pub fn probe(kind: ProbeKind) -> f64 {
    match kind {
        ProbeKind::Scalar => scalar_chunk(),
        ProbeKind::Dense => dense_chunk(),
    }
}

/// Users' points drawn as FedRep draws them (normal variates from the fast
/// stream), each point's label a dot product, and a gradient update per point.
fn scalar_chunk() -> f64 {
    let d = SCALAR_D;
    let mut w: Vec<f64> = (0..d).map(|j| 1.0 / (j as f64 + 1.0)).collect();
    let mut x = vec![0.0; d];
    let mut total = 0.0;
    for user in 0..SCALAR_USERS {
        let mut rng = fast_stream(7, Purpose::UserData, user as u64);
        for _ in 0..SCALAR_POINTS {
            for v in x.iter_mut() {
                *v = rng.sample(StandardNormal);
            }
            let y: f64 = x.iter().zip(&w).map(|(a, b)| a * b).sum();
            let step = 1e-3 * (y - 1.0);
            for (wj, xj) in w.iter_mut().zip(&x) {
                *wj -= step * xj;
            }
            total += y;
        }
    }
    total + w.iter().sum::<f64>()
}

/// A blocked product of two DENSE_M-square matrices and the lower-triangle
/// symmetric product of a DENSE_SYMMETRIC-square matrix with two columns:
/// DP-GD's two kinds of dense steps.
fn dense_chunk() -> f64 {
    let m = DENSE_M;
    let a: Vec<f64> = (0..m * m)
        .map(|i| ((i * 7919) % 1000) as f64 * 1e-3)
        .collect();
    let b: Vec<f64> = (0..m * m)
        .map(|i| ((i * 104_729) % 997) as f64 * 1e-3)
        .collect();
    let mut c = vec![0.0; m * m];
    for _ in 0..10 {
        gemm(&mut c, m, m, &a, m, &b, 1.0, true);
    }
    let s = DENSE_SYMMETRIC;
    let k: Vec<f64> = (0..s * s).map(|i| ((i * 31) % 101) as f64 * 1e-2).collect();
    let w: Vec<f64> = (0..2 * s).map(|i| (i % 13) as f64).collect();
    let mut y = vec![0.0; 2 * s];
    for _ in 0..20 {
        symmetric_lower_product(&mut y, &k, s, &w, 2);
    }
    c.iter().step_by(97).sum::<f64>() + y.iter().sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_factor_is_the_ratio_of_the_times_and_scales_seconds_linearly() {
        let reference = ProbeTimes {
            scalar_ms: 4.0,
            dense_ms: 2.0,
        };
        let m = Machine::from_probe(
            ProbeTimes {
                scalar_ms: 8.0,
                dense_ms: 7.0,
            },
            reference,
        );
        assert_eq!(
            m,
            Machine {
                scalar: 2.0,
                dense: 3.5
            }
        );
        assert_eq!(
            Machine::from_probe(reference, reference),
            Machine::REFERENCE
        );
        assert_eq!(m.seconds(1.5, 2.0), 1.5 * 2.0 + 2.0 * 3.5);
        assert_eq!(Machine::REFERENCE.seconds(1.5, 2.0), 3.5);
    }

    #[test]
    fn a_disturbed_probe_is_held_in_range() {
        let r = REFERENCE_WASM;
        let slow = ProbeTimes {
            scalar_ms: r.scalar_ms * 1e6,
            dense_ms: f64::NAN,
        };
        let m = Machine::from_probe(slow, r);
        assert_eq!(m.scalar, FACTOR_RANGE.1);
        assert_eq!(m.dense, 1.0);
        let fast = ProbeTimes {
            scalar_ms: 0.0,
            dense_ms: r.dense_ms * 1e-6,
        };
        let m = Machine::from_probe(fast, r);
        assert_eq!((m.scalar, m.dense), (1.0, FACTOR_RANGE.0));
    }

    #[test]
    fn the_probe_is_the_same_work_every_time() {
        for kind in [ProbeKind::Scalar, ProbeKind::Dense] {
            let a = probe(kind);
            assert!(a.is_finite());
            assert_eq!(a.to_bits(), probe(kind).to_bits());
        }
        assert_eq!(ProbeKind::parse("dense"), Some(ProbeKind::Dense));
        assert_eq!(ProbeKind::parse("x"), None);
    }
}
