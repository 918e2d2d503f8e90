//! A checked configuration of one scenario (`new Configuration(preset,
//! settings)`), parsed and checked once and then asked for estimates, runs,
//! merges and the result cache: the JS face of `scenarios::Configured`, as
//! ruff's wasm `Workspace::new(options)` parses its options once and then
//! serves its methods. Every question about settings is a method here (the
//! privacy statement's in statement.rs, the round's in round.rs): nothing
//! else in the JS API takes `(preset, settings)` text to parse again, but for
//! the two shortcuts `new Runner` and `new Auditor`, which build one.

use super::audit::Auditor;
use super::cache::{kept_of, kept_to_js};
use super::machine::machine_of;
use super::runner::Runner;
use super::{errors_to_js, fields_from_js, preset_or_default, to_js};
use crate::scenarios::{self, audit, ConfigError, Configured, Coverage, Shard};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// A preset with settings over it, checked once (every check, the derived
/// ones too).
#[wasm_bindgen]
pub struct Configuration {
    inner: Box<dyn Configured>,
}

impl Configuration {
    /// The configuration of a preset (default: the default preset) and
    /// settings from JS, or the error its constructor throws.
    pub(super) fn of(preset: Option<String>, fields: JsValue) -> Result<Self, JsValue> {
        let fields = fields_from_js(fields)?;
        let inner = scenarios::configure(&preset_or_default(preset), &scenarios::borrowed(&fields))
            .map_err(|errors| refused(&errors))?;
        Ok(Configuration { inner })
    }

    /// The checked configuration, for the methods the other files add.
    pub(super) fn configured(&self) -> &dyn Configured {
        self.inner.as_ref()
    }
}

/// A field-tagged error for the page's form: `{ field, message }`.
#[derive(Serialize)]
struct FieldError {
    field: String,
    message: String,
}

/// The error a refused configuration throws: its `message` has a `field:
/// message` line each (what a person reads), and its `errors` the same as
/// `FieldError[]` (what the page's form marks at each field), so that the
/// page checks its settings once, by building the configuration it then asks.
fn refused(errors: &[ConfigError]) -> JsValue {
    let thrown = JsValue::from(errors_to_js(errors));
    let fields: Vec<FieldError> = errors
        .iter()
        .map(|e| FieldError {
            field: e.field().to_string(),
            message: e.to_string(),
        })
        .collect();
    // Setting a property on a fresh Error cannot fail; were it to, the message still says it all.
    if let Ok(list) = to_js(&fields) {
        let _ = js_sys::Reflect::set(&thrown, &"errors".into(), &list);
    }
    thrown
}

#[wasm_bindgen]
impl Configuration {
    /// Checks a preset (default: the default preset) with these settings
    /// over it; bad settings throw an error whose `message` lists
    /// `field: message` lines and whose `errors` lists them as
    /// `FieldError[]` (every problem at once).
    #[wasm_bindgen(constructor)]
    pub fn new(
        preset: Option<String>,
        #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
    ) -> Result<Configuration, JsValue> {
        Configuration::of(preset, fields)
    }

    /// The preset's canonical name.
    pub fn preset(&self) -> String {
        self.inner.preset().to_string()
    }

    /// The scenario's id.
    pub fn scenario(&self) -> String {
        self.inner.info().id.to_string()
    }

    /// Every setting as `[[key, text], …]` in the page's order, as checked
    /// (what the settings mean, however they were written).
    #[wasm_bindgen(unchecked_return_type = "[string, string][]")]
    pub fn settings(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.settings())
    }

    /// Seconds the sweep takes in one worker (wasm), estimated from its size
    /// before it runs (within about 2×), on a machine whose `machine_factors`
    /// are `[scalar, dense]` (none: the reference machine).
    pub fn estimated_seconds(&self, machine: Option<Vec<f64>>) -> Result<f64, JsError> {
        Ok(self.inner.estimated_wasm_seconds_on(&machine_of(machine)?))
    }

    /// Seconds from Run to done in the page with `workers` workers (the
    /// busiest worker's share of the sweep, as the pool splits it, and the
    /// page's own work), on a machine whose `machine_factors` are given.
    pub fn estimated_page_seconds(
        &self,
        workers: usize,
        machine: Option<Vec<f64>>,
    ) -> Result<f64, JsError> {
        Ok(self
            .inner
            .estimated_page_seconds(workers, &machine_of(machine)?))
    }

    /// Workers the page's pool runs this sweep on, on a machine of `cores`
    /// cores (`navigator.hardwareConcurrency`) and `memory_bytes` of memory
    /// (`navigator.deviceMemory` in bytes; none where the browser does not
    /// say): every core, as far as the cost model's per-worker peak memory
    /// allows; 1 for a sweep that does not split.
    pub fn workers_for(&self, cores: usize, memory_bytes: Option<f64>) -> usize {
        self.inner.workers_for(cores, memory_bytes)
    }

    /// Whether a pool of `workers` workers should share each run's users
    /// (`user_split`) rather than take whole runs (`shard`): the scenario's
    /// cost model decides.
    pub fn split_by_users(&self, workers: usize) -> bool {
        self.inner.split_by_users(workers)
    }

    /// Shard `shard` of `shards` of the sweep (one per worker of a pool).
    pub fn shard(&self, shard: usize, shards: usize) -> Result<Runner, JsError> {
        let shard = Shard {
            index: shard,
            count: shards,
        };
        Runner::started(self.inner.as_ref(), |c| c.start(shard))
    }

    /// [`Configuration::shard`] without the jobs `skip` kept from the
    /// previous run ([`Configuration::reuse`]).
    pub fn skipping(&self, shard: usize, shards: usize, skip: Vec<u32>) -> Result<Runner, JsError> {
        let shard = Shard {
            index: shard,
            count: shards,
        };
        let skip: Vec<usize> = skip.into_iter().map(|j| j as usize).collect();
        Runner::started(self.inner.as_ref(), |c| c.start_skipping(shard, &skip))
    }

    /// Worker `index` of `count` that compute every run together, each its
    /// share of every pass over the users: after each pass `runner.waiting()`
    /// is true and `runner.outbox()` gives its partials once;
    /// `runner.deliver(parts)` takes every worker's (in worker order) and the
    /// run goes on. Each worker ends with the whole view.
    pub fn user_split(&self, index: usize, count: usize) -> Result<Runner, JsError> {
        let share = Shard { index, count };
        Runner::started(self.inner.as_ref(), |c| c.start_user_split(share))
    }

    /// The view (`{ charts, tables, privacy, files }`) of a sweep computed
    /// by several workers, from their `part()`s in worker order: exactly what
    /// one worker gives (no parts: the empty charts). `finished`: every
    /// worker is done, and the parts must hold exactly the sweep these
    /// settings plan (else, as for progress, only what they hold must be of
    /// it). `kept_part` and `kept_jobs`: the results kept from the previous
    /// run ([`Configuration::reuse`]), when the workers computed only the
    /// other jobs.
    #[wasm_bindgen(unchecked_return_type = "View")]
    pub fn merge(
        &self,
        parts: Vec<js_sys::Uint8Array>,
        finished: Option<bool>,
        kept_part: Option<Vec<u8>>,
        kept_jobs: Option<Vec<u32>>,
    ) -> Result<JsValue, JsError> {
        let parts: Vec<Vec<u8>> = parts.iter().map(|p| p.to_vec()).collect();
        let coverage = if finished == Some(true) {
            Coverage::Whole
        } else {
            Coverage::SoFar
        };
        let kept = kept_of(kept_part, kept_jobs);
        let view = self
            .inner
            .merge_beside(&parts, kept.as_ref(), coverage)
            .map_err(|e| JsError::new(&e.to_string()))?;
        to_js(&scenarios::judged(self.inner.scenario(), view))
    }

    /// A finished sweep's results (its workers' parts, beside what it kept)
    /// as one part: what the page keeps of its last run for `reuse`.
    pub fn whole_part(
        &self,
        parts: Vec<js_sys::Uint8Array>,
        kept_part: Option<Vec<u8>>,
        kept_jobs: Option<Vec<u32>>,
    ) -> Result<Vec<u8>, JsError> {
        let parts: Vec<Vec<u8>> = parts.iter().map(|p| p.to_vec()).collect();
        self.inner
            .whole_part(&parts, kept_of(kept_part, kept_jobs).as_ref())
            .map_err(|e| JsError::new(&e.to_string()))
    }

    /// Of a finished run of `old` (its `whole_part`, `old_whole`), the
    /// results a run of this configuration would compute again bit for bit,
    /// as `{ part, jobs }` (`jobs` empty: nothing kept; always so for another
    /// scenario).
    pub fn reuse(&self, old: &Configuration, old_whole: Vec<u8>) -> Result<JsValue, JsError> {
        let kept = self
            .inner
            .reuse(old.inner.as_ref(), &old_whole)
            .map_err(|e| JsError::new(&e.to_string()))?;
        kept_to_js(&kept)
    }

    /// An audit of its private runs (see `new Auditor`).
    pub fn auditor(
        &self,
        runs: usize,
        mode: &str,
        broken: bool,
        seed: u32,
    ) -> Result<Auditor, JsError> {
        Auditor::of(
            self.inner.as_ref(),
            audit_options(runs, mode, broken, seed)?,
        )
    }
}

/// The audit options the page passes, checked.
pub(super) fn audit_options(
    runs: usize,
    mode: &str,
    broken: bool,
    seed: u32,
) -> Result<audit::AuditOptions, JsError> {
    let mode =
        audit::AuditMode::parse(mode).ok_or_else(|| JsError::new("mode: white-box or final"))?;
    Ok(audit::AuditOptions {
        runs,
        mode,
        broken,
        seed: seed as u64,
    })
}
