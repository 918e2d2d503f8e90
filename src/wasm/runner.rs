//! A sweep driven step by step (whole, a shard of it, or a share of its users);
//! a `Configuration` starts one and merges its workers' parts.

use super::configuration::Configuration;
use super::{errors_to_js, to_js};
use crate::scenarios::{self, Configured, Run, StartResult};
use wasm_bindgen::prelude::*;

/// A sweep of any scenario, driven step by step (in a worker).
#[wasm_bindgen]
pub struct Runner {
    scenario: &'static str,
    inner: Box<dyn Run>,
}

impl Runner {
    /// The run `start` gives of `configured`, or its errors as `field:
    /// message` lines.
    pub(super) fn started(
        configured: &dyn Configured,
        start: impl FnOnce(&dyn Configured) -> StartResult,
    ) -> Result<Runner, JsError> {
        let inner = start(configured).map_err(|errors| errors_to_js(&errors))?;
        Ok(Runner {
            scenario: configured.info().id,
            inner,
        })
    }
}

#[wasm_bindgen]
impl Runner {
    /// Validates and prepares the whole sweep (`new Configuration(preset,
    /// settings).shard(0, 1)`, the shortest way in); bad settings throw as
    /// that constructor does. A pool's shards, a user split and a sweep
    /// beside kept results start from a `Configuration` (`shard`,
    /// `user_split`, `skipping`), which also merges their parts.
    #[wasm_bindgen(constructor)]
    pub fn new(
        preset: Option<String>,
        #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
    ) -> Result<Runner, JsValue> {
        Ok(Configuration::of(preset, fields)?.shard(0, 1)?)
    }

    /// Split by users: whether the run waits for the other workers' partials.
    pub fn waiting(&self) -> bool {
        self.inner.waiting()
    }

    /// Split by users: this worker's partials of the pass it just finished
    /// (once; undefined otherwise), for every worker of the group.
    pub fn outbox(&mut self) -> Option<Vec<u8>> {
        self.inner.take_outbox()
    }

    /// Split by users: every worker's outbox of the pass the run waits on, in
    /// worker order.
    pub fn deliver(&mut self, parts: Vec<js_sys::Uint8Array>) -> Result<(), JsError> {
        let parts: Vec<Vec<u8>> = parts.iter().map(|p| p.to_vec()).collect();
        self.inner
            .deliver(&parts)
            .map_err(|e| JsError::new(&e.to_string()))
    }

    /// Split by users: hand out this worker's chunks of each pass as it
    /// frees up (before the first step); false for a run that cannot.
    pub fn hand_out_chunks(&mut self) -> bool {
        self.inner.hand_out_chunks()
    }

    /// Handed out: whether the run asks the pool for one more chunk (the
    /// claim counts as sent).
    pub fn claim(&mut self) -> bool {
        self.inner.claim()
    }

    /// Handed out: the pool's answer to a claim (a chunk number; past the
    /// pass's last: none left).
    pub fn grant(&mut self, chunk: usize) -> Result<(), JsError> {
        self.inner
            .grant(chunk)
            .map_err(|e| JsError::new(&e.to_string()))
    }

    /// One unit of work; true when the sweep is finished.
    pub fn step(&mut self) -> Result<bool, JsError> {
        self.inner.step().map_err(|e| JsError::new(&e.to_string()))
    }

    /// Steps until `budget_ms` milliseconds have passed (or the end): the
    /// worker calls this and then yields so that a "cancel" can arrive.
    pub fn run_for(&mut self, budget_ms: f64) -> Result<bool, JsError> {
        let start = js_sys::Date::now();
        loop {
            if self.step()? {
                return Ok(true);
            }
            if self.inner.waiting() || js_sys::Date::now() - start >= budget_ms {
                return Ok(false);
            }
        }
    }

    /// Progress and what is finished: `{ scenario, done, total, phase,
    /// finished, charts, tables, privacy, files }`.
    #[wasm_bindgen(unchecked_return_type = "Snapshot")]
    pub fn snapshot(&self) -> Result<JsValue, JsError> {
        to_js(&scenarios::snapshot(self.scenario, self.inner.as_ref()))
    }

    /// This shard's results, compact and exact, for `Configuration.merge`.
    pub fn part(&self) -> Vec<u8> {
        self.inner.part()
    }

    /// Steps to the end (blocking: in a worker, or for a small run) and
    /// returns the final snapshot.
    #[wasm_bindgen(unchecked_return_type = "Snapshot")]
    pub fn run_to_end(&mut self) -> Result<JsValue, JsError> {
        while !self.step()? {}
        self.snapshot()
    }

    /// (units done, total units) as `[done, total]`.
    pub fn progress(&self) -> Vec<f64> {
        let (done, total) = self.inner.progress();
        vec![done as f64, total as f64]
    }

    /// The results as CSV (header + one row per run).
    pub fn csv(&self) -> String {
        self.inner
            .view()
            .files
            .into_iter()
            .next()
            .map(|f| f.text)
            .unwrap_or_default()
    }
}
