//! `sweep --threads N` for a sweep of few large runs that the cost model
//! splits by users (`Configured::split_by_users`, as the page's pool does):
//! every thread computes chunks of each pass over the users, handed out as it
//! frees up (one counter per pass), and after the pass every thread applies
//! every thread's partial sums in user order. So no user is drawn twice in a
//! pass whatever N is (the CPU seconds do not grow with N, unlike N shares of
//! whole runs, each drawing its seed's users again), and every thread ends
//! with the single-thread results, bit for bit (the user-split tests under tests/).

use super::errors::CliError;
use crate::scenarios::{Configured, Shard};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// The threads' meeting point after each pass.
struct Exchange {
    state: Mutex<Posts>,
    posted: Condvar,
    /// The next chunk of the pass in progress.
    next_chunk: AtomicUsize,
}

struct Posts {
    /// Each thread's partials of the pass, as posted.
    outbox: Vec<Option<Vec<u8>>>,
    /// Passes exchanged so far.
    passes: usize,
    /// The last pass's partials, in thread order.
    delivered: Arc<Vec<Vec<u8>>>,
    /// A thread failed: the others stop at their next exchange.
    failed: bool,
}

impl Exchange {
    /// Posts thread `index`'s partials and waits for everyone's.
    fn swap(&self, index: usize, out: Vec<u8>) -> Result<Arc<Vec<Vec<u8>>>, CliError> {
        let mut posts = self.state.lock().unwrap_or_else(|e| e.into_inner());
        posts.outbox[index] = Some(out);
        let pass = posts.passes;
        if posts.outbox.iter().all(Option::is_some) {
            let parts = posts.outbox.iter_mut().filter_map(Option::take).collect();
            posts.delivered = Arc::new(parts);
            posts.passes += 1;
            // Everyone waits here, so no chunk of the next pass is claimed yet.
            self.next_chunk.store(0, Ordering::Release);
            self.posted.notify_all();
        }
        while posts.passes == pass && !posts.failed {
            posts = self.posted.wait(posts).unwrap_or_else(|e| e.into_inner());
        }
        if posts.failed {
            return Err(CliError::Internal("another sweep thread failed".into()));
        }
        Ok(Arc::clone(&posts.delivered))
    }

    fn fail(&self) {
        let mut posts = self.state.lock().unwrap_or_else(|e| e.into_inner());
        posts.failed = true;
        self.posted.notify_all();
    }
}

/// One thread's share: steps its run, granting each chunk it claims from the
/// pass's counter and exchanging its partials after each pass; its part.
fn share(
    configured: &dyn Configured,
    exchange: &Exchange,
    shard: Shard,
) -> Result<Vec<u8>, CliError> {
    let mut run = configured.start_user_split(shard)?;
    let handed_out = run.hand_out_chunks();
    loop {
        while handed_out && run.claim() {
            run.grant(exchange.next_chunk.fetch_add(1, Ordering::AcqRel))?;
        }
        if let Some(out) = run.take_outbox() {
            let parts = exchange.swap(shard.index, out)?;
            run.deliver(&parts)?;
            continue;
        }
        if run.is_done() {
            return Ok(run.part());
        }
        if run.waiting() {
            return Err(CliError::Internal(
                "a run split by users waits with nothing to post".into(),
            ));
        }
        run.step()?;
    }
}

/// Every scoped sweep thread's result, in thread order; the first error.
pub(super) fn joined<T>(
    handles: Vec<std::thread::ScopedJoinHandle<'_, Result<T, CliError>>>,
) -> Result<Vec<T>, CliError> {
    handles
        .into_iter()
        .map(|h| {
            h.join()
                .map_err(|_| CliError::Internal("a sweep thread panicked".into()))?
        })
        .collect()
}

/// Runs the sweep split by users over `threads` threads; the part of the
/// whole sweep (every thread ends with the same one).
pub fn run(configured: &dyn Configured, threads: usize) -> Result<Vec<u8>, CliError> {
    let exchange = Exchange {
        state: Mutex::new(Posts {
            outbox: vec![None; threads],
            passes: 0,
            delivered: Arc::new(Vec::new()),
            failed: false,
        }),
        posted: Condvar::new(),
        next_chunk: AtomicUsize::new(0),
    };
    let exchange = &exchange;
    let parts = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|index| {
                scope.spawn(move || {
                    let shard = Shard {
                        index,
                        count: threads,
                    };
                    // A failed or panicking thread releases the others' waits.
                    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        share(configured, exchange, shard)
                    }))
                    .unwrap_or_else(|_| Err(CliError::Internal("a sweep thread panicked".into())));
                    if result.is_err() {
                        exchange.fail();
                    }
                    result
                })
            })
            .collect();
        joined(handles)
    })?;
    let mut parts = parts.into_iter();
    parts
        .next()
        .ok_or_else(|| CliError::Internal("no sweep thread".into()))
}
