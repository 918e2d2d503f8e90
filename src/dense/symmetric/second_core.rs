//! The helper thread of [`super::symmetric_lower_product_on`] (natively): one per
//! process, started at its first use, asleep between products.

use super::Band;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

const POSTED: u8 = 0;
const HELPER: u8 = 1;
const DONE: u8 = 2;
const CALLER: u8 = 3;

/// A band handed over, with its stride and who took it.
struct Posted {
    band: Band,
    ld: usize,
    state: Arc<AtomicU8>,
}

struct Helper {
    slot: Mutex<Option<Posted>>,
    wake: Condvar,
    /// Whether the slot holds a band (read while spinning, without the lock).
    posted: AtomicBool,
}

/// How long the helper spins for the next band before it sleeps: the
/// steps' products come every few hundred µs, and a thread woken from
/// sleep on a machine shared with other work may wait for its core
/// longer than a product takes.
const SPIN: Duration = Duration::from_micros(50);

fn helper() -> Option<&'static Helper> {
    static HELPER: OnceLock<Option<&'static Helper>> = OnceLock::new();
    *HELPER.get_or_init(|| {
        let helper: &'static Helper = Box::leak(Box::new(Helper {
            slot: Mutex::new(None),
            wake: Condvar::new(),
            posted: AtomicBool::new(false),
        }));
        std::thread::Builder::new()
            .name("dp-explorer band".into())
            .spawn(move || helper.serve())
            .ok()
            .map(|_| helper)
    })
}

impl Helper {
    fn serve(&self) {
        loop {
            let since = Instant::now();
            while !self.posted.load(Ordering::Acquire) && since.elapsed() < SPIN {
                std::hint::spin_loop();
            }
            let posted = {
                let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
                loop {
                    if let Some(posted) = slot.take() {
                        self.posted.store(false, Ordering::Release);
                        break posted;
                    }
                    slot = self.wake.wait(slot).unwrap_or_else(|e| e.into_inner());
                }
            };
            // A band its caller took back is stale: skipped.
            if posted
                .state
                .compare_exchange(POSTED, HELPER, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                // SAFETY: the caller waits for DONE before its buffers go.
                unsafe { posted.band.run_with_stride(posted.ld) };
                posted.state.store(DONE, Ordering::Release);
            }
        }
    }
}

/// Computes `other` (A's and W's leading dimension `ld`) on the helper
/// thread and `own` on this one; `other` here too if the helper has not
/// taken it by the time `own` is done. Returns once both are computed.
///
/// # Safety
/// Both bands' pointers must be valid for the whole call, their outputs
/// disjoint.
pub(super) unsafe fn run_beside(other: &Band, own: &Band, ld: usize) {
    let Some(helper) = helper() else {
        other.run_with_stride(ld);
        own.run();
        return;
    };
    let state = Arc::new(AtomicU8::new(POSTED));
    {
        let mut slot = helper.slot.lock().unwrap_or_else(|e| e.into_inner());
        *slot = Some(Posted {
            band: *other,
            ld,
            state: Arc::clone(&state),
        });
        helper.posted.store(true, Ordering::Release);
    }
    helper.wake.notify_one();
    own.run();
    if state
        .compare_exchange(POSTED, CALLER, Ordering::AcqRel, Ordering::Acquire)
        .is_ok()
    {
        other.run_with_stride(ld);
        return;
    }
    // The helper has the band: wait for it, yielding soon, since on a busy
    // machine the helper may have been woken on this thread's own core
    // (spinning 16× longer measured no better and costs that core).
    let mut spins = 0u32;
    while state.load(Ordering::Acquire) != DONE {
        if spins < 1 << 10 {
            std::hint::spin_loop();
            spins += 1;
        } else {
            std::thread::yield_now();
        }
    }
}
