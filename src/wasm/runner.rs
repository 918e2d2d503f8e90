//! A sweep driven step by step (whole, a shard of it, or a share of its users), and
//! the merge of its workers' parts.

use super::cache::kept_of;
use super::{errors_to_js, fields_from_js, pairs, preset_or_default, to_js};
use crate::scenarios::{self, Coverage, Run, Shard};
use wasm_bindgen::prelude::*;

/// Whether a pool of `workers` workers should share each run's users
/// (`Runner.user_split`) rather than take whole runs (`Runner.shard`): the
/// scenario's cost model decides; false for settings that do not validate.
#[wasm_bindgen]
pub fn split_by_users(
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
    workers: usize,
) -> Result<bool, JsError> {
    let fields = fields_from_js(fields)?;
    let preset = preset_or_default(preset);
    let (s, name) = scenarios::by_preset(&preset).map_err(|e| JsError::new(&e.to_string()))?;
    Ok(s.split_by_users(name, &pairs(&fields), workers))
}

/// A sweep of any scenario, driven step by step (in a worker).
#[wasm_bindgen]
pub struct Runner {
    scenario: &'static str,
    inner: Box<dyn Run>,
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
    /// shards' `part()`s merge with [`merge`].
    pub fn shard(
        preset: Option<String>,
        #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
        shard: usize,
        shards: usize,
    ) -> Result<Runner, JsError> {
        let fields = fields_from_js(fields)?;
        let shard = Shard {
            index: shard,
            count: shards,
        };
        let (s, inner) = scenarios::start(&preset_or_default(preset), &pairs(&fields), shard)
            .map_err(|errors| errors_to_js(&errors))?;
        Ok(Runner {
            scenario: s.info().id,
            inner,
        })
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
        let fields = fields_from_js(fields)?;
        let shard = Shard {
            index: shard,
            count: shards,
        };
        let skip: Vec<usize> = skip.into_iter().map(|j| j as usize).collect();
        let (s, inner) =
            scenarios::start_skipping(&preset_or_default(preset), &pairs(&fields), shard, &skip)
                .map_err(|errors| errors_to_js(&errors))?;
        Ok(Runner {
            scenario: s.info().id,
            inner,
        })
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
        let fields = fields_from_js(fields)?;
        let share = Shard { index, count };
        let (s, inner) =
            scenarios::start_user_split(&preset_or_default(preset), &pairs(&fields), share)
                .map_err(|errors| errors_to_js(&errors))?;
        Ok(Runner {
            scenario: s.info().id,
            inner,
        })
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
/// they hold must be of it); the scenario's merge checks either.
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
    let fields = fields_from_js(fields)?;
    let preset = preset_or_default(preset);
    let (s, name) = scenarios::by_preset(&preset).map_err(|e| JsError::new(&e.to_string()))?;
    let parts: Vec<Vec<u8>> = parts.iter().map(|p| p.to_vec()).collect();
    let coverage = if finished == Some(true) {
        Coverage::Whole
    } else {
        Coverage::SoFar
    };
    let kept = kept_of(kept_part, kept_jobs);
    let view = s
        .merge_beside(name, &pairs(&fields), &parts, kept.as_ref(), coverage)
        .map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&scenarios::judged(s, view))
}
