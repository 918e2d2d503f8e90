//! A sweep driven step by step (whole, a shard of it, or a share of its users), and
//! the merge of its workers' parts.

use super::configuration::{Checking, Configuration};
use super::{errors_to_js, preset_or_default, to_js};
use crate::scenarios::{self, Configured, Run, StartResult};
use wasm_bindgen::prelude::*;

/// Whether a pool of `workers` workers should share each run's users
/// (`Runner.user_split`) rather than take whole runs (`Runner.shard`): the
/// scenario's cost model decides; false for settings that do not validate
/// (`Configuration.split_by_users`).
#[wasm_bindgen]
pub fn split_by_users(
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
    workers: usize,
) -> Result<bool, JsError> {
    let preset = preset_or_default(preset);
    // An unknown preset throws; settings that do not check split nothing.
    scenarios::by_preset(&preset).map_err(|e| JsError::new(&e.to_string()))?;
    match Configuration::of(Some(preset), fields) {
        Ok(c) => Ok(c.split_by_users(workers)),
        Err(Checking::Js(e)) => Err(e),
        Err(Checking::Refused(_)) => Ok(false),
    }
}

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
    /// Validates and prepares the whole sweep; a bad config throws an error
    /// whose `message` lists `field: message` lines.
    #[wasm_bindgen(constructor)]
    pub fn new(
        preset: Option<String>,
        #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
    ) -> Result<Runner, JsError> {
        Runner::shard(preset, fields, 0, 1)
    }

    /// Shard `shard` of `shards` of the sweep (one per worker of a pool); the
    /// shards' `part()`s merge with [`merge`] (`Configuration.shard`).
    pub fn shard(
        preset: Option<String>,
        #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
        shard: usize,
        shards: usize,
    ) -> Result<Runner, JsError> {
        configuration(preset, fields)?.shard(shard, shards)
    }

    /// [`Runner::shard`] of a sweep whose jobs `skip` are kept from the
    /// previous run ([`reuse`]): the shard computes its share of the others;
    /// merge its parts with the kept ones ([`merge`]'s `kept_part`).
    pub fn skipping(
        preset: Option<String>,
        #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
        shard: usize,
        shards: usize,
        skip: Vec<u32>,
    ) -> Result<Runner, JsError> {
        configuration(preset, fields)?.skipping(shard, shards, skip)
    }

    /// Worker `index` of `count` that compute every run of the sweep
    /// together, each its share of every pass over the users: after each pass
    /// the run waits ([`waiting`](Self::waiting)) until it is given every
    /// worker's [`outbox`](Self::outbox), in worker order
    /// ([`deliver`](Self::deliver)). Every worker ends with the whole view.
    pub fn user_split(
        preset: Option<String>,
        #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
        index: usize,
        count: usize,
    ) -> Result<Runner, JsError> {
        configuration(preset, fields)?.user_split(index, count)
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

    /// This shard's results, compact and exact, for [`merge`].
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

/// The view (`{ charts, tables, privacy, files }`) of a sweep computed by
/// several workers, from their `part()`s in worker order: exactly what one
/// worker gives. `finished`: every worker is done, and the parts must hold
/// exactly the sweep these settings plan (else, as for progress, only what
/// they hold must be of it); the scenario's merge checks either
/// (`Configuration.merge`).
#[wasm_bindgen(unchecked_return_type = "View")]
/// `kept_part` and `kept_jobs`: the results kept from the previous run
/// ([`reuse`]), when the workers computed only the other jobs.
pub fn merge(
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
    parts: Vec<js_sys::Uint8Array>,
    finished: Option<bool>,
    kept_part: Option<Vec<u8>>,
    kept_jobs: Option<Vec<u32>>,
) -> Result<JsValue, JsError> {
    let preset = preset_or_default(preset);
    // An unknown preset throws its own message; other settings a run error.
    scenarios::by_preset(&preset).map_err(|e| JsError::new(&e.to_string()))?;
    Configuration::of(Some(preset), fields)
        .map_err(Checking::thrown_as_run_error)?
        .merge(parts, finished, kept_part, kept_jobs)
}

/// The configuration the free functions delegate to; bad settings throw
/// `field: message` lines, as its constructor does.
pub(super) fn configuration(
    preset: Option<String>,
    fields: JsValue,
) -> Result<Configuration, JsError> {
    Configuration::of(preset, fields).map_err(Checking::thrown)
}
