//! A sweep that does one job per step, in a fixed order, each job adding
//! result rows with their privacy reports: the trace regression's (a job is
//! one dataset, (n, repeat)) and the classifier's (a job is one (seed, d)).
//! The queue, the progress, the phase line and the finished rows are written
//! once here; a scenario says what a job is and how one runs
//! ([`OneJobPerStep`], implemented by its config).

use crate::privacy::PrivacyReport;
use crate::scenarios::adapter::{Rows, Sweep};
use crate::scenarios::{Checked, RunError};

/// What a one-job-per-step sweep of this config does.
pub trait OneJobPerStep: Send + 'static {
    /// What one step does.
    type Job: Copy + Send + 'static;
    /// A result row.
    type Row: Clone + Send + 'static;
    /// The sweep's jobs, in the order they run.
    fn jobs(&self) -> Vec<Self::Job>;
    /// The progress line while `job` is the next to run.
    fn phase(job: Self::Job) -> String;
    /// Runs `job`, adding its rows (with their reports) to `out`.
    fn run(&self, job: Self::Job, out: &mut Finished<Self::Row>) -> Result<(), RunError>;
}

/// The rows a sweep has finished, each with its privacy report (`None`: a
/// row that is not private), in the order they were added.
pub struct Finished<R> {
    rows: Vec<R>,
    reports: Vec<Option<PrivacyReport>>,
}

impl<R> Finished<R> {
    pub fn push(&mut self, row: R, report: Option<PrivacyReport>) {
        self.rows.push(row);
        self.reports.push(report);
    }
}

/// The sweep: a config, its jobs in order, and the rows finished so far.
pub struct JobSweep<C: OneJobPerStep> {
    config: C,
    jobs: Vec<C::Job>,
    next: usize,
    done: Finished<C::Row>,
}

impl<C: OneJobPerStep> JobSweep<C> {
    /// The sweep of a checked config: its jobs, none run yet.
    pub fn new(config: Checked<C>) -> Self {
        Self::of(config.into_inner())
    }

    fn of(config: C) -> Self {
        let jobs = config.jobs();
        JobSweep {
            config,
            jobs,
            next: 0,
            done: Finished {
                rows: Vec::new(),
                reports: Vec::new(),
            },
        }
    }

    pub fn rows(&self) -> &[C::Row] {
        &self.done.rows
    }

    pub fn reports(&self) -> &[Option<PrivacyReport>] {
        &self.done.reports
    }

    /// Runs the next job; Ok(true) once every job is done. A job that fails
    /// keeps the rows it had added and stays the next one.
    pub fn step(&mut self) -> Result<bool, RunError> {
        let Some(&job) = self.jobs.get(self.next) else {
            return Ok(true);
        };
        self.config.run(job, &mut self.done)?;
        self.next += 1;
        Ok(self.is_done())
    }
}

impl<C: OneJobPerStep> Sweep for JobSweep<C> {
    type Config = C;
    type Part = Rows<C::Row>;

    fn config(&self) -> &C {
        &self.config
    }

    /// Its finished rows with their reports: the part of every
    /// one-job-per-step scenario.
    fn part(&self) -> Rows<C::Row> {
        Rows::of(self.rows(), self.reports())
    }

    fn step(&mut self) -> Result<bool, RunError> {
        JobSweep::step(self)
    }

    fn is_done(&self) -> bool {
        self.next >= self.jobs.len()
    }

    fn progress(&self) -> (usize, usize) {
        (self.next, self.jobs.len())
    }

    fn phase(&self) -> String {
        match self.jobs.get(self.next) {
            Some(&job) => C::phase(job),
            None => "done".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Jobs are numbers; job j adds j rows, and job 3 fails once.
    struct Count {
        fail_at: std::sync::atomic::AtomicUsize,
    }

    impl OneJobPerStep for Count {
        type Job = usize;
        type Row = (usize, usize);
        fn jobs(&self) -> Vec<usize> {
            vec![1, 3, 2]
        }
        fn phase(job: usize) -> String {
            format!("job {job}")
        }
        fn run(&self, job: usize, out: &mut Finished<(usize, usize)>) -> Result<(), RunError> {
            use std::sync::atomic::Ordering::SeqCst;
            for i in 0..job {
                out.push((job, i), None);
            }
            if self
                .fail_at
                .compare_exchange(job, usize::MAX, SeqCst, SeqCst)
                .is_ok()
            {
                return Err(RunError::Config("job 3 failed".into()));
            }
            Ok(())
        }
    }

    #[test]
    fn jobs_run_in_order_one_per_step_and_a_failed_one_is_next_again() {
        let config = Count { fail_at: 3.into() };
        let mut sweep = JobSweep::of(config);
        assert_eq!((sweep.progress(), sweep.phase()), ((0, 3), "job 1".into()));
        assert!(!sweep.step().unwrap());
        assert_eq!((sweep.progress(), sweep.phase()), ((1, 3), "job 3".into()));
        assert!(sweep.step().is_err());
        assert_eq!(sweep.progress(), (1, 3), "the failed job stays next");
        assert_eq!(sweep.rows().len(), 1 + 3);
        assert!(!sweep.step().unwrap());
        assert!(sweep.step().unwrap());
        assert!(sweep.is_done() && sweep.phase() == "done" && sweep.progress() == (3, 3));
        assert!(
            sweep.step().unwrap(),
            "stepping a finished sweep is a no-op"
        );
        assert_eq!(sweep.rows().len(), 1 + 3 + 3 + 2);
        assert_eq!(sweep.rows()[0], (1, 0));
        assert_eq!(sweep.rows().last(), Some(&(2, 1)));
        assert_eq!(sweep.reports().len(), sweep.rows().len());
    }
}
