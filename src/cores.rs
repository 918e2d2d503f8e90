//! Threads a run may borrow for its dense work (natively): the threads of a
//! `sweep --threads N` whose shares are done (fewer jobs left than threads),
//! or the cores `dp-explorer bench` lends. None by default, so a library
//! caller, `sweep --threads 1` and each `--shard` process compute on their own
//! thread only, and `--threads N` never runs more than N threads busy at once.
//!
//! A borrowed thread only changes *which* thread computes a piece of work,
//! never the work or its order (the DP-GD kernel path's feature blocks computed
//! ahead, the steps' noise images drawn ahead, the steps' second band of rows:
//! `algorithms::dp_gd_kernel`), so the
//! results are the same bits whatever is lent. In wasm nothing is ever lent
//! (no threads).

use std::sync::atomic::{AtomicUsize, Ordering};

/// Threads lent and not borrowed now.
static SPARE: AtomicUsize = AtomicUsize::new(0);

/// One borrowed thread, given back when dropped.
#[must_use = "the thread is given back when the lease is dropped"]
pub struct Lease(());

impl Drop for Lease {
    fn drop(&mut self) {
        SPARE.fetch_add(1, Ordering::AcqRel);
    }
}

/// A thread to run a piece of work beside this one, if one is lent and free.
pub fn borrow() -> Option<Lease> {
    if cfg!(target_arch = "wasm32") {
        return None;
    }
    SPARE
        .fetch_update(Ordering::AcqRel, Ordering::Acquire, |s| s.checked_sub(1))
        .ok()
        .map(|_| Lease(()))
}

/// Threads lent while it lives: `count` more from now on, taken back (as they
/// are given back, if borrowed) when it is dropped.
#[must_use = "the threads are taken back when the loan is dropped"]
pub struct Loan {
    count: AtomicUsize,
}

impl Loan {
    pub fn new(count: usize) -> Loan {
        SPARE.fetch_add(count, Ordering::AcqRel);
        Loan {
            count: AtomicUsize::new(count),
        }
    }

    /// One more thread lent (a sweep thread whose share is done).
    pub fn add(&self) {
        self.count.fetch_add(1, Ordering::AcqRel);
        SPARE.fetch_add(1, Ordering::AcqRel);
    }
}

impl Drop for Loan {
    fn drop(&mut self) {
        let mut left = self.count.load(Ordering::Acquire);
        // A borrowed thread comes back when its work ends (a feature block,
        // a band; a run's noise images once all are computed, or one refill
        // after the run is dropped): wait for it.
        while left > 0 {
            if SPARE
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |s| s.checked_sub(1))
                .is_ok()
            {
                left -= 1;
            } else {
                std::thread::yield_now();
            }
        }
    }
}

/// The cores of this machine (1 where unknown).
pub fn machine_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loan_lends_its_threads_once_each_and_takes_them_back() {
        // Other tests of this process may lend too: count only this loan's.
        let loan = Loan::new(2);
        let leases: Vec<Lease> = std::iter::from_fn(borrow).take(2).collect();
        assert_eq!(leases.len(), 2);
        drop(leases);
        loan.add();
        drop(loan);
    }
}
