//! This machine's speed against the machine the cost models were fitted on,
//! for the CLI's time estimates: the probe of `scenarios::machine`, timed
//! natively (the page times the same probe in wasm, www/main.js).

use std::hint::black_box;
use std::time::Instant;

use crate::scenarios::machine::{probe, ProbeKind, ProbeTimes, REFERENCE_NATIVE};
use crate::scenarios::Machine;

/// Chunks timed per kind after one to warm up; the fastest counts (a burst of
/// load or a page fault is not the machine's speed).
const CHUNKS: usize = 5;

/// The fastest of [`CHUNKS`] chunks of each kind, in milliseconds (about
/// 10 ms in all on the reference machine).
pub fn probe_times() -> ProbeTimes {
    let fastest_ms = |kind: ProbeKind| {
        black_box(probe(kind));
        (0..CHUNKS)
            .map(|_| {
                let started = Instant::now();
                black_box(probe(black_box(kind)));
                started.elapsed().as_secs_f64() * 1e3
            })
            .fold(f64::INFINITY, f64::min)
    };
    ProbeTimes {
        scalar_ms: fastest_ms(ProbeKind::Scalar),
        dense_ms: fastest_ms(ProbeKind::Dense),
    }
}

/// This machine's factors against [`REFERENCE_NATIVE`].
pub fn this_machine() -> Machine {
    Machine::from_probe(probe_times(), REFERENCE_NATIVE)
}
