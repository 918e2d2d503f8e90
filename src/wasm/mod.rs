//! The JS-facing API (the `pkg/` package) and the only `#[wasm_bindgen]`
//! code: thin wrappers that delegate 1:1 to the pure core (as rapier.js
//! does), convert values with serde-wasm-bindgen, and turn every error into a
//! `JsError` at the boundary. Nothing here knows a scenario by name:
//! everything goes through the registry (`crate::scenarios`). Nothing here
//! panics on user input; a panic elsewhere is reported by
//! `console_error_panic_hook`. The TypeScript shapes below mirror the Rust
//! types that serde writes; docs/js-api.md shows the API in use.

use crate::plot::{self, ChartLayout, ChartSpec, ReadablePoint};
use crate::scenarios::machine::{self, ProbeKind, ProbeTimes};
use crate::scenarios::{self, ConfigError, Coverage, Kept, Machine, Run, Shard};
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use serde::Serialize;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** Settings as text, by name: `{ n: "20000", epsilons: "1,2,4" }` (numbers are taken as text too). */
export type Settings = Record<string, string | number>;
/** A named starting point of a scenario. */
export interface Preset { name: string; label: string }
export interface ChoiceInfo { value: string; label: string }
/** One setting of a scenario's field table. */
export interface FieldInfo {
  name: string;
  kind: "integer" | "real" | "seed" | "real-list" | "integer-list" | "switch" | "choice";
  label: string; help: string; group: string;
  /** One of the few settings shown at once (true), or folded under "More settings". */
  essential: boolean;
  /** Older names still read. */
  aliases: string[];
  slider: Slider | null;
  choices: ChoiceInfo[];
  /** The value in the scenario's first preset. */
  default: string;
}
/** One chart of a scenario. `toggle`: [series-name prefix, label] of a series a reader may hide;
 * `animate`: its x axis counts rounds, so it can be played round by round. */
export interface ChartInfo { id: string; name: string; alt: string; caption: string; toggle: [string, string] | null; animate: boolean;
  /** The ids of the scenario's claims the caption states (judged in `View.claims` after a run). */
  claims: string[] }
/** One step of a scenario's lesson: the preset and settings that show it. */
export interface LessonStep { title: string; text: string; preset: string; settings: [string, string][];
  /** The ids of the scenario's claims the step states. */
  claims: string[] }
/** A slider that sets one value of a list setting. */
export interface Slider { min: number; max: number; log: boolean }
export interface ScenarioInfo {
  id: string; title: string; lede: string; look_at: string; source: string;
  /** Who one unit of privacy is: "user" or "training sample". */
  unit: string;
  presets: Preset[]; fields: FieldInfo[]; charts: ChartInfo[];
  /** Whether a sweep can be split over several workers (Runner.shard + merge). */
  splits: boolean;
  /** Whether workers can also share each run's users (Runner.user_split; split_by_users says when). */
  user_split: boolean;
  lesson: LessonStep[];
  /** What the lesson and captions say the charts show: judged on every finished run (`View.claims`). */
  claims: { id: string; text: string }[];
  /** The results.csv columns that measure the outcome: a finite number in every row. */
  metrics: string[];
  /** Whether its private runs can be audited (Auditor). */
  audit: boolean;
}
/** An audit's charts, their tables, audit.csv and scores.csv, what the bounds show in words, and the audited releases. */
export interface AuditView { charts: ChartSpec[]; tables: Table[]; files: OutputFile[]; notes: string[]; rows: AuditRow[] }
/** One audited release: its claim and the attack's lower bounds (95 %; NaN: the route does not apply). The Gaussian-DP
 * route rules out μ-GDP for μ < mu_lb; its epsilon_lb_gdp is the ε of mu_lb-GDP, which assumes the Gaussian trade-off
 * shape. `worst_case`: false where the claimed ε rests on high-probability sensitivities a canary may exceed. */
export interface AuditRow {
  method: string; epsilon: number; epsilon_spent: number; delta: number; runs: number; mode: string; broken: boolean;
  canary: string;
  bounds: { runs_in: number; runs_out: number; delta: number; alpha: number; epsilon_lb_cp: number; mu_lb: number; epsilon_lb_gdp: number;
    points: { threshold: number; fnr: number; fpr: number; fnr_upper: number; fpr_upper: number }[] };
  /** The curve of the scenario's ε chart that draws this release, if any. */
  curve: string | null;
  worst_case: boolean;
  /** Whether the threshold was fixed before any run (every run judged), not chosen on a held-out half. */
  threshold_fixed: boolean;
  /** The records (users, clients, samples) audited at, and the preset's: they differ where a default audit was
   * resized to fit its time budget; null where no setting sizes the audit. */
  n: number | null; preset_n: number | null;
}
export interface FoundPreset { scenario: string; preset: string }
export interface FieldError { field: string; message: string }
export interface Series {
  name: string; points: [number, number][]; style: "solid" | "dashed" | "dotted";
  color: number; horizontal?: boolean; band?: [number, number, number][]; faded?: boolean; in_legend?: boolean;
}
export interface ChartSpec {
  title: string; x_label: string; y_label: string; log_x: boolean; log_y: boolean;
  x_hint: [number, number] | null; series: Series[];
}
export interface Table { caption: string; headers: string[]; rows: string[][] }
/** An ε spent in an attacker's terms: posterior from a 50 % prior, the (FPR, TPR) region's upper edge. */
export interface AttackerReading {
  epsilon: number; delta: number; mu: number | null; prior: number; posterior: number; best_accuracy: number;
  region: [number, number][]; gaussian_curve: [number, number][]; sentence: string; delta_reading: string | null;
}
export interface ExplainEntry {
  summary: string; paragraphs: string[]; tables: Table[]; notes: string[]; reading: string | null;
  attacker: AttackerReading | null;
}
export interface OutputFile { name: string; text: string }
/** What a run has to show: charts, one table per chart, explain-ε entries, files (results.csv first). */
export interface Verdict { id: string; text: string; status: 'held' | 'not-held' | 'undecided'; numbers: string }
export interface View { charts: ChartSpec[]; tables: Table[]; privacy: ExplainEntry[]; files: OutputFile[]; claims: Verdict[] }
export interface Snapshot extends View { scenario: string; done: number; total: number; phase: string; finished: boolean }
export interface ChartLayout {
  left: number; right: number; top: number; bottom: number;
  x_min: number; x_max: number; y_min: number; y_max: number; log_x: boolean; log_y: boolean;
  /** The smallest font drawn, in canvas pixels. */
  min_font_px: number;
}
export interface ReadablePoint { series: number; name: string; x: number; y: number; px: number; py: number; horizontal: boolean }
export interface Drawn { layout: ChartLayout; points: ReadablePoint[] }
/** `steps` releases of a Gaussian mechanism with L2 `sensitivity` and noise std `sigma`. */
export interface Stage { name: string; mechanism: string; sensitivity: number; sigma: number; steps: number }
export interface EpsilonSpent {
  delta: number; mu: number; exact: number; rdp: number; rdp_alpha: number;
  rdp_classic: number; rdp_classic_alpha: number; zcdp: number;
}
export interface SigmaNeeded {
  epsilon: number; delta: number; steps: number; sensitivity: number; exact: number;
  rdp: number; rdp_alpha: number; rdp_classic: number; rdp_classic_alpha: number; zcdp: number;
}
"#;

/// The message of the last panic (a panic aborts the call: JS sees only a
/// `RuntimeError`; the worker asks for this to tell the page what happened).
static LAST_PANIC: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

/// Installs the panic hook: a panic's message goes to the console and is kept
/// for [`last_panic`] (runs by itself when the module is initialised).
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        if let Ok(mut last) = LAST_PANIC.lock() {
            *last = info.to_string();
        }
    }));
}

/// The message of the last panic in this module ("" if none).
#[wasm_bindgen]
pub fn last_panic() -> String {
    LAST_PANIC.lock().map(|m| m.clone()).unwrap_or_default()
}

/// Panics with `message`: the end-to-end tests' trigger (tests/e2e/hooks/worker.js),
/// so that they can check that a panic inside a worker reaches the page as a
/// message and leaves the page usable. Only in a build with the cargo feature
/// `test-hooks` (`make build-e2e`), never in the package or the hosted page.
#[cfg(feature = "test-hooks")]
#[wasm_bindgen]
pub fn debug_panic(message: &str) {
    panic!("{message}");
}

fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    let serializer = serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true);
    value
        .serialize(&serializer)
        .map_err(|e| JsError::new(&e.to_string()))
}

/// Config errors as one JS error whose message has a `field: message` line each.
fn errors_to_js(errors: &[ConfigError]) -> JsError {
    JsError::new(
        &errors
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// A field-tagged error for the page: `{ field, message }`.
#[derive(Serialize)]
struct FieldError {
    field: String,
    message: String,
}

/// Reads `{ key: "text", … }` from JS; every value is taken as text.
fn fields_from_js(fields: JsValue) -> Result<Vec<(String, String)>, JsError> {
    if fields.is_undefined() || fields.is_null() {
        return Ok(Vec::new());
    }
    let raw: BTreeMap<String, serde_json::Value> = serde_wasm_bindgen::from_value(fields)
        .map_err(|e| JsError::new(&format!("fields must be an object of texts: {e}")))?;
    Ok(raw
        .into_iter()
        .map(|(k, v)| {
            let text = match v {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            };
            (k, text)
        })
        .collect())
}

fn pairs(fields: &[(String, String)]) -> Vec<(&str, &str)> {
    fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

/// The preset the page sends, or the default one.
fn preset_or_default(preset: Option<String>) -> String {
    preset.unwrap_or_else(|| scenarios::default_preset().to_string())
}

/// A scenario's description with whether it has an audit.
#[derive(Serialize)]
struct Described {
    #[serde(flatten)]
    info: scenarios::ScenarioInfo,
    audit: bool,
}

/// Every scenario: `[{ id, title, lede, source, unit, presets, fields, charts, splits, lesson, audit }]`.
#[wasm_bindgen(unchecked_return_type = "ScenarioInfo[]")]
pub fn scenarios() -> Result<JsValue, JsError> {
    let infos: Vec<_> = scenarios::SCENARIOS
        .iter()
        .map(|s| Described {
            info: s.info().clone(),
            audit: s.has_audit(),
        })
        .collect();
    to_js(&infos)
}

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

#[wasm_bindgen]
impl Auditor {
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
    ) -> Result<Auditor, JsError> {
        let fields = fields_from_js(fields)?;
        let mode = scenarios::audit::AuditMode::parse(mode)
            .ok_or_else(|| JsError::new("mode: white-box or final"))?;
        let options = scenarios::audit::AuditOptions {
            runs,
            mode,
            broken,
            seed: seed as u64,
        };
        let inner = scenarios::start_audit(&preset_or_default(preset), &pairs(&fields), options)
            .map_err(|errors| errors_to_js(&errors))?;
        Ok(Auditor { inner })
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
    /// runs (the audit is refused above the limit a sweep has).
    pub fn estimated_seconds(&self) -> f64 {
        self.inner.estimated_wasm_seconds()
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

/// The default preset's name.
#[wasm_bindgen]
pub fn default_preset() -> String {
    scenarios::default_preset().to_string()
}

/// The scenario id and canonical name of a preset (names match in any case):
/// `{ scenario, preset }`; throws for an unknown preset.
#[wasm_bindgen(unchecked_return_type = "FoundPreset")]
pub fn find_preset(name: &str) -> Result<JsValue, JsError> {
    #[derive(Serialize)]
    struct Found {
        scenario: &'static str,
        preset: &'static str,
    }
    let (s, preset) = scenarios::by_preset(name).map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&Found {
        scenario: s.info().id,
        preset,
    })
}

/// A preset's settings as `[[key, text], …]` in the page's order; throws for
/// an unknown preset.
#[wasm_bindgen(unchecked_return_type = "[string, string][]")]
pub fn preset_fields(name: &str) -> Result<JsValue, JsError> {
    let (s, preset) = scenarios::by_preset(name).map_err(|e| JsError::new(&e.to_string()))?;
    let fields = s
        .preset_fields(preset)
        .map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&fields)
}

/// Every problem with a preset (default: the default preset) and these
/// settings, as `[{ field, message }]` (empty: valid).
#[wasm_bindgen(unchecked_return_type = "FieldError[]")]
pub fn validate_fields(
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
) -> Result<JsValue, JsError> {
    let fields = fields_from_js(fields)?;
    let errors = scenarios::validate(&preset_or_default(preset), &pairs(&fields));
    let out: Vec<FieldError> = errors
        .iter()
        .map(|e| FieldError {
            field: e.field().to_string(),
            message: e.to_string(),
        })
        .collect();
    to_js(&out)
}

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

/// Seconds the sweep of a preset with these settings takes in one worker
/// (wasm), estimated from its size before it runs (within about 2×), on a
/// machine whose `machine_factors` are `[scalar, dense]` (none: the reference
/// machine); throws with `field: message` lines for settings that do not validate.
#[wasm_bindgen]
pub fn estimated_seconds(
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
    machine: Option<Vec<f64>>,
) -> Result<f64, JsError> {
    let fields = fields_from_js(fields)?;
    let preset = preset_or_default(preset);
    let (s, name) = scenarios::by_preset(&preset).map_err(|e| JsError::new(&e.to_string()))?;
    s.estimated_wasm_seconds_on(name, &pairs(&fields), &machine_of(machine)?)
        .map_err(|errors| errors_to_js(&errors))
}

/// Seconds from Run to done in the page with `workers` workers (the busiest
/// worker's share of the sweep, as the pool splits it, and the page's own
/// work), on a machine whose `machine_factors` are `[scalar, dense]` (none:
/// the reference machine); throws like `estimated_seconds`.
#[wasm_bindgen]
pub fn estimated_page_seconds(
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
    workers: usize,
    machine: Option<Vec<f64>>,
) -> Result<f64, JsError> {
    let fields = fields_from_js(fields)?;
    let preset = preset_or_default(preset);
    let (s, name) = scenarios::by_preset(&preset).map_err(|e| JsError::new(&e.to_string()))?;
    s.estimated_page_seconds(name, &pairs(&fields), workers, &machine_of(machine)?)
        .map_err(|errors| errors_to_js(&errors))
}

fn machine_of(factors: Option<Vec<f64>>) -> Result<Machine, JsError> {
    match factors.as_deref() {
        Some(&[scalar, dense]) => Ok(Machine { scalar, dense }),
        Some(_) => Err(JsError::new("machine: give [scalar, dense] factors")),
        None => Ok(Machine::REFERENCE),
    }
}

/// One chunk of the machine probe's fixed work of `kind` ("scalar" or
/// "dense"), for the page to time (`scenarios::machine`); returns a number
/// computed from it.
#[wasm_bindgen]
pub fn machine_probe(kind: &str) -> Result<f64, JsError> {
    let kind =
        ProbeKind::parse(kind).ok_or_else(|| JsError::new("kind: \"scalar\" or \"dense\""))?;
    Ok(machine::probe(kind))
}

/// This page's `[scalar, dense]` factors against the reference machine's page,
/// from the probe's milliseconds per chunk of each kind.
#[wasm_bindgen]
pub fn machine_factors(scalar_ms: f64, dense_ms: f64) -> Vec<f64> {
    let m = Machine::from_probe(
        ProbeTimes {
            scalar_ms,
            dense_ms,
        },
        machine::REFERENCE_WASM,
    );
    vec![m.scalar, m.dense]
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

fn kept_of(part: Option<Vec<u8>>, jobs: Option<Vec<u32>>) -> Option<Kept> {
    match (part, jobs) {
        (Some(part), Some(jobs)) if !jobs.is_empty() => Some(Kept {
            part,
            jobs: jobs.into_iter().map(|j| j as usize).collect(),
        }),
        _ => None,
    }
}

/// A finished sweep's results (its workers' parts, beside what it kept) as
/// one part: what the page keeps of its last run for [`reuse`].
#[wasm_bindgen]
pub fn whole_part(
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
    parts: Vec<js_sys::Uint8Array>,
    kept_part: Option<Vec<u8>>,
    kept_jobs: Option<Vec<u32>>,
) -> Result<Vec<u8>, JsError> {
    let fields = fields_from_js(fields)?;
    let preset = preset_or_default(preset);
    let (s, name) = scenarios::by_preset(&preset).map_err(|e| JsError::new(&e.to_string()))?;
    let parts: Vec<Vec<u8>> = parts.iter().map(|p| p.to_vec()).collect();
    s.whole_part(
        name,
        &pairs(&fields),
        &parts,
        kept_of(kept_part, kept_jobs).as_ref(),
    )
    .map_err(|e| JsError::new(&e.to_string()))
}

/// The page's result cache: of a finished run of `old_fields` (its
/// [`whole_part`]), the results a run of `fields` would compute again bit for
/// bit (`Scenario::reuse`), as `{ part, jobs }` (`jobs` empty: nothing kept;
/// always so for another scenario).
#[wasm_bindgen]
pub fn reuse(
    old_preset: String,
    #[wasm_bindgen(unchecked_param_type = "Settings")] old_fields: JsValue,
    old_whole: Vec<u8>,
    preset: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "Settings")] fields: JsValue,
) -> Result<JsValue, JsError> {
    let old_fields = fields_from_js(old_fields)?;
    let fields = fields_from_js(fields)?;
    let preset = preset_or_default(preset);
    let (s, name) = scenarios::by_preset(&preset).map_err(|e| JsError::new(&e.to_string()))?;
    let kept = match scenarios::by_preset(&old_preset) {
        Ok((old_s, old_name)) if old_s.info().id == s.info().id => s
            .reuse(
                old_name,
                &pairs(&old_fields),
                &old_whole,
                name,
                &pairs(&fields),
            )
            .map_err(|e| JsError::new(&e.to_string()))?,
        _ => Kept::default(),
    };
    let out = js_sys::Object::new();
    let part = js_sys::Uint8Array::from(kept.part.as_slice());
    let jobs: Vec<u32> = kept.jobs.iter().map(|&j| j as u32).collect();
    let jobs = js_sys::Uint32Array::from(jobs.as_slice());
    js_sys::Reflect::set(&out, &"part".into(), &part).map_err(|_| JsError::new("reuse: part"))?;
    js_sys::Reflect::set(&out, &"jobs".into(), &jobs).map_err(|_| JsError::new("reuse: jobs"))?;
    Ok(out.into())
}

fn spec_from_js(spec: JsValue) -> Result<ChartSpec, JsError> {
    serde_wasm_bindgen::from_value(spec)
        .map_err(|e| JsError::new(&format!("not a chart spec: {e}")))
}

/// What [`draw_chart`] returns: where the plot area is and the points a
/// reader can land on.
#[derive(Serialize)]
struct Drawn {
    layout: ChartLayout,
    points: Vec<ReadablePoint>,
}

/// Draws a chart spec on a canvas (main thread only: plotters measures text
/// through `window`). `scale` multiplies fonts and line widths (device pixel
/// ratio × the page's text size). Returns `{ layout, points }`: the plot area
/// in canvas pixels with the axis ranges, and every point a reader can land
/// on with its pixel (series whose name starts with one of `skip` left out).
#[wasm_bindgen(unchecked_return_type = "Drawn")]
pub fn draw_chart(
    canvas: web_sys::HtmlCanvasElement,
    #[wasm_bindgen(unchecked_param_type = "ChartSpec")] spec: JsValue,
    scale: f64,
    skip: Vec<String>,
) -> Result<JsValue, JsError> {
    let spec = spec_from_js(spec)?;
    let backend = CanvasBackend::with_canvas_object(canvas)
        .ok_or_else(|| JsError::new("canvas has no 2D context"))?;
    let root = backend.into_drawing_area();
    let layout = plot::draw_chart(&root, &spec, scale).map_err(|e| JsError::new(&e.to_string()))?;
    let points = plot::readable_points(&spec, &layout, &skip);
    to_js(&Drawn { layout, points })
}

/// The same chart as an SVG document (for export).
#[wasm_bindgen]
pub fn chart_svg(
    #[wasm_bindgen(unchecked_param_type = "ChartSpec")] spec: JsValue,
    width: u32,
    height: u32,
) -> Result<String, JsError> {
    let spec = spec_from_js(spec)?;
    plot::chart_svg(&spec, width, height).map_err(|e| JsError::new(&e.to_string()))
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

/// Runs a shared benchmark to the end (timed by the caller) and returns its
/// one-line summary; see `crate::bench`.
#[wasm_bindgen]
pub fn run_bench(name: &str) -> Result<String, JsError> {
    crate::bench::run_bench(name).map_err(|e| JsError::new(&e.to_string()))
}

/// The benchmark names.
#[wasm_bindgen]
pub fn bench_names() -> Vec<String> {
    crate::bench::BENCHES
        .iter()
        .map(|b| b.0.to_string())
        .collect()
}

/// The ε that `steps` releases of a Gaussian mechanism with L2 `sensitivity`
/// and noise std `sigma` spend at `delta`, under every accountant.
#[wasm_bindgen(unchecked_return_type = "EpsilonSpent")]
pub fn epsilon_for_sigma(
    sigma: f64,
    delta: f64,
    steps: u32,
    sensitivity: f64,
) -> Result<JsValue, JsError> {
    let e = crate::privacy::query::epsilon_for_sigma(sigma, delta, steps as u64, sensitivity)
        .map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&e)
}

/// The noise std σ per release that `steps` releases of L2 `sensitivity`
/// need to spend exactly (`epsilon`, `delta`), under every accountant.
#[wasm_bindgen(unchecked_return_type = "SigmaNeeded")]
pub fn sigma_for_epsilon(
    epsilon: f64,
    delta: f64,
    steps: u32,
    sensitivity: f64,
) -> Result<JsValue, JsError> {
    let s = crate::privacy::query::sigma_for_epsilon(epsilon, delta, steps as u64, sensitivity)
        .map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&s)
}

/// The ε that a list of stages (each `steps` Gaussian releases) spends
/// together at `delta`, under every accountant.
#[wasm_bindgen(unchecked_return_type = "EpsilonSpent")]
pub fn epsilon_for_stages(
    #[wasm_bindgen(unchecked_param_type = "Stage[]")] stages: JsValue,
    delta: f64,
) -> Result<JsValue, JsError> {
    let stages: Vec<crate::privacy::GaussianStage> = serde_wasm_bindgen::from_value(stages)
        .map_err(|e| {
            JsError::new(&format!(
                "stages must be [{{ name, mechanism, sensitivity, sigma, steps }}]: {e}"
            ))
        })?;
    let e = crate::privacy::query::epsilon_for_stages(&stages, delta)
        .map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&e)
}
