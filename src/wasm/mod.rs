//! The JS-facing API (the `pkg/` package) and the only `#[wasm_bindgen]`
//! code: thin wrappers that delegate 1:1 to the pure core (as rapier.js
//! does), convert values with serde-wasm-bindgen, and turn every error into a
//! `JsError` at the boundary. Nothing here knows a scenario by name:
//! everything goes through the registry (`crate::scenarios`). Nothing here
//! panics on user input; a panic elsewhere is reported by
//! `console_error_panic_hook`. The TypeScript shapes below mirror the Rust
//! types that serde writes; docs/js-api.md shows the API in use.
//!
//! One file per domain: `registry.rs` (the scenarios' descriptions and
//! presets), `configuration.rs` (the `Configuration` class: settings checked
//! once, its errors for the form, then asked for estimates, workers, runs,
//! merges, the result cache and audits; every question about settings is one
//! of its methods), `runner.rs` (a sweep driven step by step), `cache.rs`
//! (the result cache's kept parts), `audit.rs`, `machine.rs` (the machine
//! probe), `round.rs` (`Configuration.round`: one private round in slow
//! motion), `drawing.rs` (charts on a canvas or as SVG), `bench.rs` and
//! `accounting.rs` (ε and σ for the explain panel), `statement.rs` (the
//! privacy statement, `Configuration.privacy_statement`) and `tradeoff.rs`
//! (the trade-off chart of a run).
//! This file: the TypeScript shapes, the panic hook, and the conversions every
//! file shares.

mod accounting;
mod audit;
mod bench;
mod cache;
mod configuration;
mod drawing;
mod machine;
mod registry;
mod round;
mod runner;
mod statement;
mod tradeoff;

pub use accounting::{epsilon_for_sigma, epsilon_for_stages, sigma_for_epsilon};
pub use audit::{audit_charts, audit_overlay, Auditor};
pub use bench::{bench_names, run_bench};
pub use configuration::Configuration;
pub use drawing::{chart_svg, draw_chart};
pub use machine::{machine_factors, machine_probe};
pub use registry::{default_preset, describe_json, find_preset, preset_fields, scenarios};
pub use runner::Runner;
pub use tradeoff::tradeoff_chart;

use crate::scenarios::{self, ConfigError};
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
  /** Whether a sweep can be split over several workers (Configuration.shard + merge). */
  splits: boolean;
  /** Whether workers can also share each run's users (Configuration.user_split; its split_by_users says when). */
  user_split: boolean;
  lesson: LessonStep[];
  /** What the lesson and captions say the charts show: judged on every finished run (`View.claims`). */
  claims: { id: string; text: string; scope: { text: string } }[];
  /** The results.csv columns that measure the outcome: a finite number in every row. */
  metrics: string[];
  /** Whether one private round of its runs can be shown in slow motion (Configuration.round). */
  round: boolean;
  /** Whether its private runs can be audited (Auditor). */
  audit: boolean;
}
/** One private round in slow motion (Configuration.round): every number on the scale of the clipped sum Σ clip(g_i). */
export interface RoundTrace {
  method: string; run: string; unit: string; round: number; rounds: number; epsilon: number; delta: number;
  /** Each contribution's norm before clipping (all of them). */
  raw_norms: number[];
  clip: number; clipped_fraction: number; sum_norm: number; non_private_sum_norm: number;
  /** σ per coordinate of the noise added to the sum, in noise_dims coordinates. */
  sigma: number; noise_dims: number; noise_norm: number; release_norm: number; signal_to_noise: number;
  /** The plane of the sum (first axis) and of the noise's part orthogonal to it; at most 400 contributions drawn. */
  plane: { drawn: number[]; contributions: [number, number][]; clipped: [number, number][]; sum: [number, number];
    noise: [number, number]; release: [number, number]; non_private_sum: [number, number] };
  step: { measure: string; before: number; after: number; change_norm: number };
  /** σ at other target ε (the run's calibration), [ε, σ] in increasing ε. */
  sigma_by_epsilon: [number, number][];
}
/** An audit's charts, their tables, audit.csv and scores.csv, what the bounds show in words, and the audited releases. */
/** One note of an audit: its verdict first (at most 160 characters), then what decided it. */
export interface AuditNote { verdict: string; details: string }
export interface AuditView { charts: ChartSpec[]; tables: Table[]; files: OutputFile[]; notes: AuditNote[]; rows: AuditRow[] }
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
  /** "line": solid without markers; "markers": no line, and its band drawn as the box it spans. */
  name: string; points: [number, number][]; style: "solid" | "dashed" | "dotted" | "line" | "markers";
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
  /** The opening plain sentence; why the worst case and the average best guess differ; the picture's terms. */
  plain: string; why_two: string | null; test_bound: string;
  /** A Gaussian run's exact chance that the privacy loss exceeds ε, Φ(−ε/μ + μ/2); null otherwise. */
  loss_above_epsilon: number | null;
  /** The guarantee as frequencies: of 100 insiders, how many an attacker wrongly accusing 1 of 100 outsiders finds. */
  frequencies: string;
  /** The number of units of privacy (users, samples) δ is judged against; null where unknown. */
  population: number | null;
}
export interface ExplainEntry {
  summary: string; paragraphs: string[]; tables: Table[]; notes: string[]; reading: string | null;
  attacker: AttackerReading | null;
  /** The accountant's reports of the runs the entry shows, its unit of privacy and n: what the privacy statement is written from. */
  release: { who: string; unit: string; n: number; reports: unknown[] } | null;
}
/** The trade-off chart of a run (Explain ε): its spec, the table under it, and what it shows in sentences. */
export interface TradeoffChart { spec: ChartSpec; table: Table; notes: string[] }
export interface OutputFile { name: string; text: string }
/** What a run has to show: charts, one table per chart, explain-ε entries, files (results.csv first). */
export interface Verdict { id: string; text: string; status: 'held' | 'not-held' | 'undecided'; numbers: string }
export interface View { charts: ChartSpec[]; tables: Table[]; privacy: ExplainEntry[]; files: OutputFile[]; claims: Verdict[]; risk_axis?: [number, number][] }
export interface Snapshot extends View { scenario: string; done: number; total: number; phase: string; finished: boolean }
export interface ChartLayout {
  left: number; right: number; top: number; bottom: number;
  x_min: number; x_max: number; y_min: number; y_max: number; log_x: boolean; log_y: boolean;
  /** The smallest font drawn, in canvas pixels. */
  min_font_px: number;
  /** The tick labels drawn, as numbers in data units: x left to right, y bottom to top. */
  x_ticks: number[]; y_ticks: number[];
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

/// The preset the page sends, or the default one.
fn preset_or_default(preset: Option<String>) -> String {
    preset.unwrap_or_else(|| scenarios::default_preset().to_string())
}
