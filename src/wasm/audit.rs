//! The audit: its charts, the `Auditor` that runs it, its marks on a scenario's chart.

use super::configuration::{audit_options, Configuration};
use super::drawing::spec_from_js;
use super::{errors_to_js, to_js};
use crate::scenarios::{self, audit, Configured};
use wasm_bindgen::prelude::*;

/// The audit's charts (ids, names, captions): `ChartInfo[]`.
#[wasm_bindgen(unchecked_return_type = "ChartInfo[]")]
pub fn audit_charts() -> Result<JsValue, JsError> {
    to_js(&scenarios::audit::AUDIT_CHARTS)
}

/// An audit of a preset's private runs: each run R times per side with a
/// worst-case canary in or out, then lower bounds on ε (95 %).
#[wasm_bindgen]
pub struct Auditor {
    inner: scenarios::audit::AuditRun,
}

impl Auditor {
    /// The audit of `configured` with checked `options` (`Configuration.auditor`).
    pub(super) fn of(
        configured: &dyn Configured,
        options: audit::AuditOptions,
    ) -> Result<Auditor, JsError> {
        let inner =
            scenarios::audit_of(configured, options, scenarios::audit::DEFAULT_AUDIT_SECONDS)
                .map_err(|errors| errors_to_js(&errors))?;
        Ok(Auditor { inner })
    }
}

#[wasm_bindgen]
impl Auditor {
    /// `new Configuration(preset, settings).auditor(…)` in one call.
    /// `runs`: per side, 0 for the default ([`Auditor::runs`]); `mode`:
    /// "white-box" or "final"; `broken`: the scenario's deliberate bug (half
    /// the noise, or the exponent without its factor 2), same claim.
    /// A bad setting throws an error with `field: message` lines.
    #[wasm_bindgen(constructor)]
    pub fn new(
        preset: Option<String>,
        #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
        runs: usize,
        mode: &str,
        broken: bool,
        seed: u32,
    ) -> Result<Auditor, JsValue> {
        // The runs asked for are checked before the settings: a bad count is the one error.
        let options = audit_options(runs, mode, broken, seed)?;
        scenarios::check_audit_runs(&options).map_err(|errors| errors_to_js(&errors))?;
        Ok(Auditor::of(
            Configuration::of(preset, fields)?.configured(),
            options,
        )?)
    }

    /// Pairs of runs until `budget_ms` milliseconds have passed (or the end);
    /// true when the audit is finished.
    pub fn run_for(&mut self, budget_ms: f64) -> bool {
        let start = js_sys::Date::now();
        loop {
            if self.inner.step(4) {
                return true;
            }
            if js_sys::Date::now() - start >= budget_ms {
                return false;
            }
        }
    }

    /// Seconds the whole audit takes in one wasm worker, estimated before it
    /// runs (the audit is refused above the limit a sweep has), on a machine
    /// whose `machine_factors` are `[scalar, dense]` (none: the reference
    /// machine; the default runs per side never depend on the machine).
    pub fn estimated_seconds(&self, machine: Option<Vec<f64>>) -> Result<f64, JsError> {
        Ok(self
            .inner
            .estimated_wasm_seconds_on(&super::machine::machine_of(machine)?))
    }

    /// Before it runs: which audited ε its size can be expected to catch,
    /// for deliberately broken runs whose attack knows its chances exactly
    /// (`AuditRun::reach`); undefined otherwise.
    pub fn reach(&self) -> Option<String> {
        self.inner.reach()
    }

    /// Runs per side: the ones asked for, or the default (asked for with 0:
    /// the most the attacks want that fit about 12 s in one worker).
    pub fn runs(&self) -> usize {
        self.inner.runs()
    }

    /// The most runs per side its attacks want, to catch their deliberately
    /// broken runs (a default under it was cut to fit the time budget).
    pub fn runs_wanted(&self) -> usize {
        self.inner.runs_wanted()
    }

    /// The records it is audited at, in words ("at n = 400 of the preset's
    /// 20 000 users", or "at the preset's n = 400 users"); undefined for a
    /// scenario whose audit no setting sizes.
    pub fn size_words(&self) -> Option<String> {
        self.inner.size().map(|s| s.words())
    }

    /// Whether the default was resized: audited at fewer records than the
    /// preset's, so that the runs its attacks want fit its time budget.
    pub fn resized(&self) -> bool {
        self.inner.size().is_some_and(|s| s.resized())
    }

    /// `[pairs of runs done, in all]`.
    pub fn progress(&self) -> Vec<f64> {
        let (done, total) = self.inner.progress();
        vec![done as f64, total as f64]
    }

    /// `{ charts, tables, files, notes }` of what is finished.
    #[wasm_bindgen(unchecked_return_type = "AuditView")]
    pub fn view(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.view())
    }
}

/// A scenario's chart with the audited releases drawn on it (a segment at
/// each audited point from the attack's lower bound on ε to the ε claimed); other
/// charts come back as they are.
#[wasm_bindgen(unchecked_return_type = "ChartSpec")]
pub fn audit_overlay(
    #[wasm_bindgen(unchecked_param_type = "ChartSpec")] spec: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AuditRow[]")] rows: JsValue,
) -> Result<JsValue, JsError> {
    let spec = spec_from_js(spec)?;
    let rows: Vec<scenarios::audit::AuditRow> =
        serde_wasm_bindgen::from_value(rows).map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&scenarios::audit::audit_overlay(&spec, &rows))
}
