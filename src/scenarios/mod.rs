//! Scenarios: one folder per paper's experiment, each behind the [`Scenario`]
//! trait, and one list of them ([`registry::SCENARIOS`]). The CLI, the wasm
//! module and the page read the registry and the scenarios' descriptions
//! (presets, field table, charts) instead of switching on names.
//!
//! A scenario turns text settings into a validated config (generic, through
//! its field table: [`field::from_pairs`]), plans its private releases as
//! typed privacy events, and starts a [`Run`]: a step-wise state machine that
//! a worker drives in bounded steps, with progress, a [`View`] of what is
//! finished (charts, tables, the explain-ε entries, CSV files) and, for a run
//! split over workers, a compact part that [`Scenario::merge`] combines.

pub mod audit;
pub mod claims;
pub mod csv_out;
pub mod error;
pub mod explain;
pub mod field;
pub mod labels;
pub mod registry;
pub mod table;
pub mod text;

pub use error::{ConfigError, RunError};
pub use explain::ExplainEntry;
pub use field::FieldInfo;
// The scenarios' modules (`scenarios::fedrep`, …) and the list, as the registry declares them.
pub use registry::*;
pub use table::Table;

use crate::plot::ChartSpec;
use serde::{Deserialize, Serialize};

/// A named starting point of a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Preset {
    /// The name used in URLs and `--preset` (unique across scenarios).
    pub name: &'static str,
    /// What the page's menu says.
    pub label: &'static str,
}

/// One chart of a scenario: where it is drawn and what it says.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ChartInfo {
    /// The canvas id on the page and the SVG file name of the CLI.
    pub id: &'static str,
    /// A short name for buttons, file names and readouts ("risk chart").
    pub name: &'static str,
    /// The canvas's accessible description.
    pub alt: &'static str,
    /// The caption under the chart: what it shows, and what to notice.
    pub caption: &'static str,
    /// A series-name prefix the page can hide with a checkbox (a fitted
    /// guide, not a measurement), with the checkbox's label.
    pub toggle: Option<(&'static str, &'static str)>,
    /// Its x axis counts iterations (rounds): the page can play the curves
    /// round by round.
    pub animate: bool,
    /// The ids of the scenario's [`claims::Claim`]s that the caption states
    /// (the page marks each held or not held under the caption after a run).
    pub claims: &'static [&'static str],
}

/// One step of a scenario's short lesson: what to look at, and the settings
/// that show it (applied on top of the step's preset).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LessonStep {
    pub title: &'static str,
    pub text: &'static str,
    pub preset: &'static str,
    pub settings: &'static [(&'static str, &'static str)],
    /// The ids of the scenario's [`claims::Claim`]s the text states: the page
    /// marks each after a run, and `tests/claims.rs` requires each to hold on
    /// this step's settings.
    pub claims: &'static [&'static str],
    /// Smaller settings (on top of `settings`) on which the test suite checks
    /// the step's claims, chosen so the claims still hold there; empty: the
    /// step's own settings are small enough.
    #[serde(skip)]
    pub test_settings: &'static [(&'static str, &'static str)],
}

/// Everything the page and the CLI need to present a scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScenarioInfo {
    pub id: &'static str,
    pub title: &'static str,
    /// One paragraph for the page's header (plain text).
    pub lede: &'static str,
    /// The paper(s), for the footer and the docs.
    pub source: &'static str,
    /// Who one "unit of privacy" is: "user" or "training sample".
    pub unit: &'static str,
    pub presets: &'static [Preset],
    pub fields: Vec<FieldInfo>,
    pub charts: &'static [ChartInfo],
    /// Whether a sweep can be split over several workers.
    pub splits: bool,
    /// Whether a sweep can also share each run's users between workers
    /// ([`Scenario::start_user_split`]; [`Scenario::split_by_users`] says when
    /// it pays).
    pub user_split: bool,
    /// A short guided lesson (a few steps, each setting the controls).
    pub lesson: &'static [LessonStep],
    /// What the lesson and the captions say the charts show, each with the
    /// predicate that decides it on a finished run.
    pub claims: &'static [claims::Claim],
}

/// A run's share of a sweep split over workers (shard `index` of `count`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// The whole sweep in one worker.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// An error unless this share exists (index below a count of at least 1).
    pub fn check(self) -> Result<(), ConfigError> {
        if self.count == 0 || self.index >= self.count {
            return Err(ConfigError::invalid(
                "shards",
                format!("shard {} of {} does not exist", self.index, self.count),
            ));
        }
        Ok(())
    }

    /// For a sweep that does not split (`info().splits` is false): only the
    /// first shard exists.
    pub fn only_first(self) -> Result<(), Vec<ConfigError>> {
        if self.index == 0 {
            Ok(())
        } else {
            Err(vec![ConfigError::invalid(
                "shards",
                "this sweep runs in one worker",
            )])
        }
    }
}

/// Which of `shards` shards computes each job, from the jobs' relative costs:
/// the costliest first, each to the least loaded shard (ties to the lower job
/// and shard index; the classic longest-processing-time rule). It depends only
/// on the costs and the shard count, so every worker computes the same plan.
/// wasm in a worker against the native time: the Private FedRep benchmarks'
/// wasm/native, 0.85–1.22 (docs/performance.md), rounded up.
pub const WASM_FACTOR: f64 = 1.3;

pub fn assign_longest_first(costs: &[f64], shards: usize) -> Vec<usize> {
    let mut by_cost: Vec<(usize, f64)> = costs.iter().copied().enumerate().collect();
    by_cost.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut load = vec![0.0f64; shards.max(1)];
    let mut owner = vec![0; costs.len()];
    for (job, cost) in by_cost {
        let target = (0..load.len())
            .min_by(|&a, &b| load[a].total_cmp(&load[b]).then(a.cmp(&b)))
            .unwrap_or(0);
        load[target] += cost;
        owner[job] = target;
    }
    owner
}

/// 64-bit FNV-1a of `bytes`, continuing from `hash` (start with [`FNV_START`]):
/// a cheap digest that any change of one byte changes (each step is a
/// bijection of the state). Unkeyed: it detects damage, not a forger, who can
/// recompute it.
pub fn fnv1a64(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The FNV-1a offset basis.
pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// How much of a sweep's plan a merge must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// The finished sweep (the CLI's `merge` and `--threads`, the page's pool
    /// once every worker is done): every job of the plan exactly once, from
    /// finished parts, each at its place among the shards.
    Whole,
    /// What the workers have finished so far (the page's progress, a stopped
    /// sweep, the empty charts before a run): every job given must be of the
    /// plan and given once; jobs may be missing.
    SoFar,
}

/// What a part says of itself, written by [`Run::part`] before its results
/// and checked by [`decode_parts`] against the plan of the settings it is
/// merged under: the share it was computed as, whether its run had finished,
/// and per job (run) it holds, the job's place in the plan with a fingerprint
/// of the scenario, every setting (seed included) and the job. A part edited
/// to claim other settings (another seed, preset, ε, shard count) keeps the
/// fingerprints of the settings it was computed from, so the merge refuses it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamps {
    pub shard: usize,
    pub shards: usize,
    pub finished: bool,
    /// (job, fingerprint), in job order, each job once.
    pub jobs: Vec<(usize, u64)>,
}

impl Stamps {
    /// The jobs the part lists (for a part whose rows carry no job: a sweep
    /// that does not split).
    pub fn listed(&self) -> Vec<usize> {
        self.jobs.iter().map(|s| s.0).collect()
    }
}

/// A sweep's jobs as its settings plan them: how many, each one's fingerprint
/// (see [`Stamps`]) and its name for messages. The run that computes a part
/// and the merge that reads it build the plan from their settings the same
/// way, so the fingerprints agree exactly when the settings do.
pub struct Plan<'a> {
    config: u64,
    jobs: usize,
    label: Box<dyn Fn(usize) -> String + 'a>,
}

impl<'a> Plan<'a> {
    /// `fields`: every setting as text ([`field::Config::to_fields`]);
    /// `label(job)`: the job in words ("seed 3, Private FedRep at ε = 4").
    pub fn new(
        scenario: &str,
        fields: &[(&str, String)],
        jobs: usize,
        label: impl Fn(usize) -> String + 'a,
    ) -> Self {
        let mut hash = fnv1a64(FNV_START, b"dp-explorer plan\0");
        hash = fnv1a64(hash, scenario.as_bytes());
        for (name, value) in fields {
            hash = fnv1a64(hash, b"\0");
            hash = fnv1a64(hash, name.as_bytes());
            hash = fnv1a64(hash, b"=");
            hash = fnv1a64(hash, value.as_bytes());
        }
        Plan {
            config: hash,
            jobs,
            label: Box::new(label),
        }
    }

    /// The plan of a sweep that does not split: one job, all of it.
    pub fn whole(scenario: &str, fields: &[(&str, String)]) -> Self {
        Plan::new(scenario, fields, 1, |_| "the whole sweep".to_string())
    }

    /// The number of jobs of the sweep.
    pub fn len(&self) -> usize {
        self.jobs
    }

    pub fn is_empty(&self) -> bool {
        self.jobs == 0
    }

    /// The fingerprint of job `job` under these settings.
    pub fn fingerprint(&self, job: usize) -> u64 {
        fnv1a64(fnv1a64(self.config, b"\0job "), &(job as u64).to_le_bytes())
    }

    /// The job in words.
    pub fn label(&self, job: usize) -> String {
        (self.label)(job)
    }

    /// The stamps of a part of `shard` that holds `jobs` (any order, repeats
    /// counted once).
    pub fn stamps(
        &self,
        shard: Shard,
        finished: bool,
        jobs: impl IntoIterator<Item = usize>,
    ) -> Stamps {
        Stamps {
            shard: shard.index,
            shards: shard.count,
            finished,
            jobs: sorted_once(jobs)
                .into_iter()
                .map(|j| (j, self.fingerprint(j)))
                .collect(),
        }
    }
}

fn sorted_once(jobs: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut jobs: Vec<usize> = jobs.into_iter().collect();
    jobs.sort_unstable();
    jobs.dedup();
    jobs
}

/// At most this many jobs are named in a message; the rest are counted.
const JOBS_NAMED: usize = 4;

fn name_jobs(plan: &Plan, jobs: &[usize]) -> String {
    let mut text = jobs
        .iter()
        .take(JOBS_NAMED)
        .map(|&j| plan.label(j))
        .collect::<Vec<_>>()
        .join("; ");
    if jobs.len() > JOBS_NAMED {
        text.push_str(&format!(" and {} more", jobs.len() - JOBS_NAMED));
    }
    text
}

/// Partials of workers split by users ([`Run::deliver`]), decoded (postcard
/// bytes; what a worker computes in memory for the others, not a merge).
pub fn decode_partials<P: serde::de::DeserializeOwned>(
    parts: &[Vec<u8>],
) -> Result<Vec<P>, RunError> {
    parts
        .iter()
        .map(|bytes| postcard::from_bytes(bytes).map_err(|e| RunError::Part(e.to_string())))
        .collect()
}

/// The shards' parts of a merge (postcard bytes from [`Run::part`], part `i`
/// being shard `i` of `parts.len()`), decoded and checked against `plan`, the
/// plan of the settings they are merged under. `held(part)` gives the part's
/// stamps and the job of each of its result rows. Refused, naming the part
/// ([`RunError::PartRefused`]): bytes that do not decode; a part computed as
/// another share; a job the plan does not have, or whose fingerprint is not
/// the plan's (computed from other settings); a job another part holds too;
/// and with [`Coverage::Whole`], an unfinished part, or rows of jobs it does
/// not stamp (or a stamped job without rows). With [`Coverage::Whole`] the
/// parts must also hold every job ([`RunError::Incomplete`]). So a merge that
/// passes holds exactly the plan's results, each computed from these settings.
pub fn decode_parts<P: serde::de::DeserializeOwned>(
    parts: &[Vec<u8>],
    plan: &Plan,
    coverage: Coverage,
    held: impl Fn(&P) -> (&Stamps, Vec<usize>),
) -> Result<Vec<P>, RunError> {
    let count = parts.len();
    let refuse = |part: usize, message: String| RunError::PartRefused { part, message };
    let mut owner: Vec<Option<usize>> = vec![None; plan.len()];
    let mut decoded = Vec::with_capacity(count);
    for (i, bytes) in parts.iter().enumerate() {
        let part: P = match postcard::take_from_bytes(bytes) {
            Ok((part, [])) => part,
            Ok((_, rest)) => {
                return Err(refuse(
                    i,
                    format!(
                        "its results end in {} bytes that are not results",
                        rest.len()
                    ),
                ))
            }
            Err(e) => return Err(refuse(i, format!("its results could not be read ({e})"))),
        };
        let (stamps, row_jobs) = held(&part);
        if (stamps.shard, stamps.shards) != (i, count) {
            return Err(refuse(
                i,
                format!(
                    "its results were computed as shard {} of {}, but it is given as shard {i} of {count}",
                    stamps.shard, stamps.shards
                ),
            ));
        }
        if coverage == Coverage::Whole && !stamps.finished {
            return Err(refuse(i, "its run had not finished".into()));
        }
        for &(job, fingerprint) in &stamps.jobs {
            if job >= plan.len() {
                return Err(refuse(
                    i,
                    format!(
                        "it holds job {job}, but these settings plan {} jobs: it was computed \
                         from other settings",
                        plan.len()
                    ),
                ));
            }
            if fingerprint != plan.fingerprint(job) {
                return Err(refuse(
                    i,
                    format!(
                        "its results for {} were computed from other settings than the ones \
                         merged (another seed, preset or setting)",
                        plan.label(job)
                    ),
                ));
            }
            if let Some(other) = owner[job] {
                return Err(refuse(
                    i,
                    format!(
                        "it holds {}, which shard {other} holds too: each job once",
                        plan.label(job)
                    ),
                ));
            }
            owner[job] = Some(i);
        }
        if coverage == Coverage::Whole {
            let listed: Vec<usize> = stamps.jobs.iter().map(|s| s.0).collect();
            let rows = sorted_once(row_jobs);
            if let Some(&job) = rows.iter().find(|j| listed.binary_search(j).is_err()) {
                return Err(refuse(
                    i,
                    format!("it holds results of job {job}, which it does not list"),
                ));
            }
            if let Some(&job) = listed.iter().find(|j| rows.binary_search(j).is_err()) {
                return Err(refuse(
                    i,
                    format!("it lists {} but holds no result of it", plan.label(job)),
                ));
            }
        }
        decoded.push(part);
    }
    if coverage == Coverage::Whole {
        let missing: Vec<usize> = (0..plan.len()).filter(|&j| owner[j].is_none()).collect();
        if !missing.is_empty() {
            return Err(RunError::Incomplete(format!(
                "{} of the {} jobs of these settings are in no part: {}",
                missing.len(),
                plan.len(),
                name_jobs(plan, &missing)
            )));
        }
    }
    Ok(decoded)
}

/// One output file of a run (the CLI writes it; the page exports the first).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OutputFile {
    pub name: &'static str,
    pub text: String,
}

/// What a run has to show so far.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// In the order of the scenario's [`ChartInfo`]s.
    pub charts: Vec<ChartSpec>,
    /// One table per chart, same order.
    pub tables: Vec<Table>,
    /// The explain-ε panel.
    pub privacy: Vec<ExplainEntry>,
    /// `results.csv` first, then any other file (e.g. `angles.csv`).
    pub files: Vec<OutputFile>,
    /// The scenario's claims judged on these results: filled by
    /// [`judged`] once the run is finished (empty while it runs).
    pub claims: Vec<claims::Verdict>,
    /// A console table of the rows (the CLI prints it).
    #[serde(skip)]
    pub summary: String,
}

/// What the page reads while and after a run: progress and the view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Snapshot {
    pub scenario: &'static str,
    pub done: usize,
    pub total: usize,
    pub phase: String,
    pub finished: bool,
    #[serde(flatten)]
    pub view: View,
}

/// A sweep in progress: bounded steps, progress, a view of what is finished.
pub trait Run: Send {
    /// One bounded unit of work; Ok(true) once everything is done.
    fn step(&mut self) -> Result<bool, RunError>;
    fn is_done(&self) -> bool;
    /// (units done, total units).
    fn progress(&self) -> (usize, usize);
    /// What is being computed now, in words.
    fn phase(&self) -> String;
    /// Charts, tables, explain-ε entries and files of what is finished.
    fn view(&self) -> View;
    /// This run's results in the compact form [`Scenario::merge`] reads
    /// (exact: every number keeps its bits).
    fn part(&self) -> Vec<u8>;
    /// Split by users ([`Scenario::start_user_split`]): whether the run waits
    /// for the other workers' partials; `step()` does nothing meanwhile.
    fn waiting(&self) -> bool {
        false
    }
    /// Split by users: this worker's partials of the pass it just finished
    /// (small: sums over its users), once; every worker of the group gets them.
    fn take_outbox(&mut self) -> Option<Vec<u8>> {
        None
    }
    /// Split by users: every worker's partials of the pass the run waits on,
    /// in worker order; the run applies them and can step again.
    fn deliver(&mut self, _parts: &[Vec<u8>]) -> Result<(), RunError> {
        Err(RunError::Part("this run is not split by users".into()))
    }
}

/// Runs to the end (CLI, tests).
pub fn run_to_end(run: &mut dyn Run) -> Result<(), RunError> {
    while !run.step()? {}
    Ok(())
}

/// The snapshot of a run for the page: a finished run's view carries its
/// claims' verdicts.
pub fn snapshot(id: &'static str, run: &dyn Run) -> Snapshot {
    let (done, total) = run.progress();
    let finished = run.is_done();
    let view = match (finished, by_id(id)) {
        (true, Some(s)) => judged(s, run.view()),
        _ => run.view(),
    };
    Snapshot {
        scenario: id,
        done,
        total,
        phase: run.phase(),
        finished,
        view,
    }
}

/// A finished run's view with the scenario's claims judged on it.
pub fn judged(scenario: &dyn Scenario, mut view: View) -> View {
    view.claims = claims::judge(scenario.info().claims, &view);
    view
}

/// The merged view of shards' parts ([`Scenario::merge`], checked to
/// `coverage`), with the claims judged on it.
pub fn merge_judged(
    scenario: &dyn Scenario,
    preset: &str,
    pairs: &[(&str, &str)],
    parts: &[Vec<u8>],
    coverage: Coverage,
) -> Result<View, RunError> {
    Ok(judged(
        scenario,
        scenario.merge(preset, pairs, parts, coverage)?,
    ))
}

/// One experiment of a paper, behind one interface.
pub trait Scenario: Sync {
    /// Id, title, presets, field table, charts.
    fn info(&self) -> ScenarioInfo;
    /// The preset's fields as text, in the field table's order.
    fn preset_fields(&self, preset: &str) -> Result<Vec<(&'static str, String)>, ConfigError>;
    /// Every problem with these settings at once (empty: valid), including
    /// what the run would derive from them (σ from the accountant, sizes).
    fn validate(&self, preset: &str, pairs: &[(&str, &str)]) -> Vec<ConfigError>;
    /// A validated run of `shard` (a scenario that does not split runs the
    /// whole sweep in shard 0 and nothing in the others).
    fn start(
        &self,
        preset: &str,
        pairs: &[(&str, &str)],
        shard: Shard,
    ) -> Result<Box<dyn Run>, Vec<ConfigError>>;
    /// Seconds the sweep takes on one core natively, estimated from its size
    /// before it runs (within about 2×): the CLI's estimate.
    fn estimated_seconds(
        &self,
        preset: &str,
        pairs: &[(&str, &str)],
    ) -> Result<f64, Vec<ConfigError>>;
    /// Seconds the sweep takes in one wasm worker (the page's time estimate and
    /// warning): by default the native estimate times [`WASM_FACTOR`]; a
    /// scenario whose kinds of work run at different ratios in wasm (DP-GD)
    /// estimates it with its own wasm speeds.
    fn estimated_wasm_seconds(
        &self,
        preset: &str,
        pairs: &[(&str, &str)],
    ) -> Result<f64, Vec<ConfigError>> {
        Ok(self.estimated_seconds(preset, pairs)? * WASM_FACTOR)
    }
    /// The view of shards' [`Run::part`]s merged (part `i` is shard `i` of
    /// `parts.len()`; a sweep that does not split has one part, the whole):
    /// exactly one run's view. Each scenario checks the parts against the plan
    /// of these settings with [`decode_parts`], to `coverage`; no parts with
    /// [`Coverage::SoFar`] gives the empty charts.
    fn merge(
        &self,
        preset: &str,
        pairs: &[(&str, &str)],
        parts: &[Vec<u8>],
        coverage: Coverage,
    ) -> Result<View, RunError>;
    /// Whether `workers` workers should share each run's users
    /// ([`Scenario::start_user_split`]) rather than take whole runs: the
    /// scenario's cost model decides (false for a scenario that cannot).
    fn split_by_users(&self, _preset: &str, _pairs: &[(&str, &str)], _workers: usize) -> bool {
        false
    }
    /// Worker `share.index` of a group of `share.count` that compute every run
    /// together: each computes its share of each pass over the users, they
    /// exchange the partials ([`Run::take_outbox`], [`Run::deliver`]), and each
    /// ends with exactly the single-worker view.
    fn start_user_split(
        &self,
        _preset: &str,
        _pairs: &[(&str, &str)],
        _share: Shard,
    ) -> Result<Box<dyn Run>, Vec<ConfigError>> {
        Err(vec![ConfigError::invalid(
            "shards",
            format!(
                "the {} scenario does not split runs by users",
                self.info().id
            ),
        )])
    }
    /// Whether [`Scenario::audit_targets`] has an audit (the page offers it).
    fn has_audit(&self) -> bool {
        false
    }
    /// The private releases an audit attacks, each with its worst-case canary
    /// and the attack's score ([`audit::AuditTarget`]); a scenario without one
    /// says so at `preset`.
    fn audit_targets(
        &self,
        _preset: &str,
        _pairs: &[(&str, &str)],
        _options: &audit::AuditOptions,
    ) -> audit::AuditTargets {
        Err(vec![ConfigError::invalid(
            "preset",
            format!("no audit for the {} scenario yet", self.info().id),
        )])
    }
}

/// The scenario with this id.
pub fn by_id(id: &str) -> Option<&'static dyn Scenario> {
    SCENARIOS.iter().copied().find(|s| s.info().id == id)
}

/// The scenario a preset belongs to, and the preset's canonical name (names
/// are matched trimmed and in any case). An unknown name is an error at
/// `preset` that lists every preset.
pub fn by_preset(name: &str) -> Result<(&'static dyn Scenario, &'static str), ConfigError> {
    let wanted = name.trim();
    for s in SCENARIOS.iter().copied() {
        if let Some(p) = s
            .info()
            .presets
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(wanted))
        {
            return Ok((s, p.name));
        }
    }
    Err(ConfigError::UnknownPreset {
        name: wanted
            .chars()
            .filter(|c| !c.is_control())
            .take(40)
            .collect(),
        known: all_presets()
            .iter()
            .map(|(_, p)| p.name)
            .collect::<Vec<_>>()
            .join(", "),
    })
}

/// The default preset: the first preset of the first scenario.
pub fn default_preset() -> &'static str {
    SCENARIOS[0].info().presets[0].name
}

/// Every preset with its scenario's id, in registry order.
pub fn all_presets() -> Vec<(&'static str, Preset)> {
    SCENARIOS
        .iter()
        .flat_map(|s| {
            let info = s.info();
            info.presets.iter().map(move |p| (info.id, *p))
        })
        .collect()
}

/// Every problem with a preset and these settings (empty: valid).
pub fn validate(preset: &str, pairs: &[(&str, &str)]) -> Vec<ConfigError> {
    match by_preset(preset) {
        Ok((s, name)) => s.validate(name, pairs),
        Err(e) => vec![e],
    }
}

/// An audit of a preset's private runs with these settings, refused at `runs`
/// when it is estimated over [`audit::MAX_AUDIT_SECONDS`] (like a sweep).
pub fn start_audit(
    preset: &str,
    pairs: &[(&str, &str)],
    options: audit::AuditOptions,
) -> Result<audit::AuditRun, Vec<ConfigError>> {
    if !(2..=audit::MAX_AUDIT_RUNS).contains(&options.runs) {
        return Err(vec![ConfigError::out_of_range(
            "runs",
            "between 2 and 100000 runs per side",
            options.runs,
        )]);
    }
    let (s, name) = by_preset(preset).map_err(|e| vec![e])?;
    let targets = s.audit_targets(name, pairs, &options)?;
    let run = audit::AuditRun::new(targets, options);
    run.check_work().map_err(|e| vec![e])?;
    Ok(run)
}

/// A run with the scenario it belongs to.
pub type Started = (&'static dyn Scenario, Box<dyn Run>);

/// Worker `share.index` of `share.count` sharing every run's users (see
/// [`Scenario::start_user_split`]).
pub fn start_user_split(
    preset: &str,
    pairs: &[(&str, &str)],
    share: Shard,
) -> Result<Started, Vec<ConfigError>> {
    let (s, name) = by_preset(preset).map_err(|e| vec![e])?;
    Ok((s, s.start_user_split(name, pairs, share)?))
}

/// A validated run of a preset with these settings.
pub fn start(
    preset: &str,
    pairs: &[(&str, &str)],
    shard: Shard,
) -> Result<Started, Vec<ConfigError>> {
    let (s, name) = by_preset(preset).map_err(|e| vec![e])?;
    Ok((s, s.start(name, pairs, shard)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAIRS: &[(&str, &str)] = &[
        ("n", "200"),
        ("d", "10"),
        ("k", "2"),
        ("m", "10"),
        ("rounds", "3"),
        ("epsilons", "1,4"),
        ("local_steps", "3"),
        ("altmin_rounds", "2"),
    ];

    fn part_of(pairs: &[(&str, &str)], shard: Shard, steps: Option<usize>) -> Vec<u8> {
        let (_, mut run) = start("fedrep-paper", pairs, shard).unwrap();
        match steps {
            Some(steps) => {
                for _ in 0..steps {
                    run.step().unwrap();
                }
            }
            None => run_to_end(run.as_mut()).unwrap(),
        }
        run.part()
    }

    fn merge(parts: &[Vec<u8>], coverage: Coverage) -> Result<View, RunError> {
        let (s, name) = by_preset("fedrep-paper").unwrap();
        s.merge(name, PAIRS, parts, coverage)
    }

    fn refused_part(result: Result<View, RunError>) -> (usize, String) {
        match result {
            Err(RunError::PartRefused { part, message }) => (part, message),
            other => panic!("expected a refused part, got {:?}", other.map(|v| v.files)),
        }
    }

    #[test]
    fn a_merge_holds_exactly_the_plan_of_its_settings() {
        let shard = |index| Shard { index, count: 2 };
        let done = [
            part_of(PAIRS, shard(0), None),
            part_of(PAIRS, shard(1), None),
        ];
        let whole = merge(&done, Coverage::Whole).unwrap();
        let (_, mut single) = start("fedrep-paper", PAIRS, Shard::WHOLE).unwrap();
        run_to_end(single.as_mut()).unwrap();
        assert_eq!(whole.files, single.view().files);

        // Progress: an unfinished part merges so far, not as the whole.
        let early = [part_of(PAIRS, shard(0), Some(3)), done[1].clone()];
        assert!(merge(&early, Coverage::SoFar).is_ok());
        let (part, message) = refused_part(merge(&early, Coverage::Whole));
        assert_eq!(part, 0);
        assert!(message.contains("not finished"), "{message}");
        // No parts: the empty view so far, but not a whole sweep.
        assert!(merge(&[], Coverage::SoFar).is_ok());
        assert!(matches!(
            merge(&[], Coverage::Whole),
            Err(RunError::Incomplete(_))
        ));

        // One share missing: the other is at the wrong place, or alone.
        let (part, message) = refused_part(merge(&done[1..], Coverage::SoFar));
        assert_eq!(part, 0);
        assert!(message.contains("computed as shard 1 of 2"), "{message}");
        // The same share twice: its runs would be counted twice.
        let twice = [done[0].clone(), done[0].clone()];
        let (part, message) = refused_part(merge(&twice, Coverage::SoFar));
        assert_eq!(part, 1);
        assert!(message.contains("computed as shard 0 of 2"), "{message}");
        // The whole sweep given with a share of it: the share's runs twice.
        let with_whole = [part_of(PAIRS, Shard::WHOLE, None), done[1].clone()];
        let (part, _) = refused_part(merge(&with_whole, Coverage::SoFar));
        assert_eq!(part, 0);

        // Parts of another seed or other settings, even so far.
        let other: Vec<(&str, &str)> = PAIRS.iter().copied().chain([("seed", "9")]).collect();
        let foreign = [part_of(&other, shard(0), None), done[1].clone()];
        let (part, message) = refused_part(merge(&foreign, Coverage::SoFar));
        assert_eq!(part, 0);
        assert!(
            message.contains("computed from other settings"),
            "{message}"
        );
        // Bytes that are not a part, or a part with bytes after it.
        let (_, message) = refused_part(merge(&[vec![1, 2, 3], done[1].clone()], Coverage::SoFar));
        assert!(message.contains("could not be read"), "{message}");
        let mut longer = done[0].clone();
        longer.push(0);
        let (_, message) = refused_part(merge(&[longer, done[1].clone()], Coverage::Whole));
        assert!(message.contains("not results"), "{message}");
    }

    /// A part as a scenario's: its stamps, then rows that name their job.
    #[derive(Serialize, Deserialize)]
    struct Toy {
        stamps: Stamps,
        rows: Vec<usize>,
    }

    fn toy_plan() -> Plan<'static> {
        Plan::new("toy", &[("x", "1".into())], 3, |j| format!("job {j}"))
    }

    /// Shard `index` of `count` listing `jobs` and holding rows of `rows`.
    fn toy(index: usize, count: usize, jobs: &[usize], rows: &[usize]) -> Vec<u8> {
        let stamps = toy_plan().stamps(Shard { index, count }, true, jobs.iter().copied());
        postcard::to_allocvec(&Toy {
            stamps,
            rows: rows.to_vec(),
        })
        .unwrap()
    }

    fn toy_merge(parts: &[Vec<u8>]) -> Result<Vec<usize>, RunError> {
        let decoded = decode_parts::<Toy>(parts, &toy_plan(), Coverage::Whole, |p| {
            (&p.stamps, p.rows.clone())
        })?;
        Ok(decoded.into_iter().flat_map(|p| p.rows).collect())
    }

    #[test]
    fn every_job_of_the_plan_once_with_its_rows() {
        let ok = [toy(0, 2, &[0, 2], &[0, 2, 2]), toy(1, 2, &[1], &[1])];
        assert_eq!(toy_merge(&ok).unwrap(), [0, 2, 2, 1]);
        let refused = |parts: &[Vec<u8>]| match toy_merge(parts) {
            Err(RunError::PartRefused { part, message }) => (part, message),
            other => panic!("expected a refusal, got {other:?}"),
        };
        let (part, message) = refused(&[toy(0, 2, &[0, 1], &[0, 1]), toy(1, 2, &[1, 2], &[1, 2])]);
        assert_eq!(part, 1);
        assert!(
            message.contains("job 1, which shard 0 holds too"),
            "{message}"
        );
        let (part, message) = refused(&[toy(0, 1, &[0, 1, 2, 5], &[0, 1, 2, 5])]);
        assert_eq!(part, 0);
        assert!(message.contains("plan 3 jobs"), "{message}");
        let (_, message) = refused(&[toy(0, 1, &[0, 1], &[0, 1, 2])]);
        assert!(
            message.contains("job 2, which it does not list"),
            "{message}"
        );
        let (_, message) = refused(&[toy(0, 1, &[0, 1, 2], &[0, 1])]);
        assert!(
            message.contains("lists job 2 but holds no result"),
            "{message}"
        );
        match toy_merge(&[toy(0, 2, &[0], &[0]), toy(1, 2, &[2], &[2])]) {
            Err(RunError::Incomplete(message)) => {
                assert!(message.contains("1 of the 3 jobs") && message.contains("job 1"));
            }
            other => panic!("expected a missing job, got {other:?}"),
        }
    }

    #[test]
    fn fingerprints_follow_every_setting_and_the_job() {
        let fields = |seed: &str| vec![("n", "200".to_string()), ("seed", seed.to_string())];
        let a = Plan::new("fedrep", &fields("1"), 3, |j| j.to_string());
        let b = Plan::new("fedrep", &fields("2"), 3, |j| j.to_string());
        let c = Plan::new("dpgd", &fields("1"), 3, |j| j.to_string());
        let fingerprints: Vec<u64> = [&a, &b, &c]
            .iter()
            .flat_map(|p| (0..3).map(|j| p.fingerprint(j)))
            .collect();
        let mut distinct = fingerprints.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), fingerprints.len());
        let again = Plan::new("fedrep", &fields("1"), 3, |_| String::new());
        assert_eq!(a.fingerprint(2), again.fingerprint(2));
        let stamps = a.stamps(Shard { index: 1, count: 2 }, true, [2, 0, 2]);
        assert_eq!(stamps.listed(), [0, 2]);
        assert_eq!((stamps.shard, stamps.shards, stamps.finished), (1, 2, true));
    }
}
