//! Scenarios: one folder per paper's experiment, each behind the [`Scenario`]
//! trait, and one list of them ([`registry::SCENARIOS`]). The CLI, the wasm
//! module and the page read the registry and the scenarios' descriptions
//! (presets, field table, charts) instead of switching on names.
//!
//! A scenario turns text settings into a checked config (generic, through
//! its field table: [`field::Config::from_pairs`] gives a [`Checked`]),
//! plans its private releases as typed privacy events, and starts a [`Run`]:
//! a step-wise state machine that a worker drives in bounded steps, with
//! progress, a [`View`] of what is finished (charts, tables, the explain-ε
//! entries, CSV files) and, for a run split over workers, a compact part that
//! [`Configured::merge`] combines ([`shards`]). What every scenario does the
//! same way is written once, in [`adapter`]; a scenario implements
//! [`adapter::Experiment`] with what is its own.

pub mod adapter;
pub mod audit;
pub mod claims;
pub mod config_common;
pub mod configured;
pub mod csv_out;
pub mod error;
pub mod explain;
pub mod field;
pub mod job_sweep;
pub mod labels;
pub mod machine;
#[cfg(test)]
mod method_texts;
pub mod prelude;
pub mod privacy_entries;
pub mod registry;
pub mod risk_axis;
pub mod round;
pub mod shards;
pub mod statement;
pub mod table;
pub mod text;
pub mod tradeoff;
pub mod workers;

pub use configured::Configured;
pub use error::{ConfigError, RunError};
pub use explain::ExplainEntry;
pub use field::Checked;
pub use field::FieldInfo;
pub use machine::Machine;
// The scenarios' modules (`scenarios::fedrep`, …) and the list, as the registry declares them.
pub use adapter::stamps_of;
pub use registry::*;
pub use shards::{
    assign_longest_first, decode_partials, decode_parts, fnv1a64, Coverage, Plan, Shard, Stamps,
    FNV_START,
};
pub use table::Table;

use crate::plot::ChartSpec;
use serde::Serialize;

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
}

/// A scenario's small test size, declared once: a preset and the settings
/// over it on which its sweep (and its audit) runs in well under a second.
/// The test suite's tables (`tests/merge_fuzz.rs`, `tests/audit.rs`) read it
/// from the registry and add only what each test is about (its ε list, a
/// calibration), so no test repeats a scenario's sizes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TestSize {
    pub preset: &'static str,
    pub settings: &'static [(&'static str, &'static str)],
}

/// What a scenario says of itself (its `impl Experiment`'s `ABOUT`): all of
/// its [`ScenarioInfo`] but what the registry derives. Its own serialization
/// is only for the test that every field of it is described.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct About {
    pub id: &'static str,
    pub title: &'static str,
    /// One paragraph for the page's header (plain text).
    pub lede: &'static str,
    /// The page's first screen: two sentences saying what to look at (which
    /// chart, and what it shows as ε or the scenario's own setting moves).
    pub look_at: &'static str,
    /// The paper(s), for the footer and the docs.
    pub source: &'static str,
    /// Who one "unit of privacy" is: "user" or "training sample".
    pub unit: &'static str,
    pub presets: &'static [Preset],
    pub charts: &'static [ChartInfo],
    /// A short guided lesson (a few steps, each setting the controls).
    pub lesson: &'static [LessonStep],
    /// What the lesson and the captions say the charts show, each with the
    /// predicate that decides it on a finished run.
    pub claims: &'static [claims::Claim],
    /// The `results.csv` columns that measure the outcome (a risk, a loss, an
    /// error): a finite number in every row of any run that ends
    /// (`tests/fuzz_configs.rs` checks it for every scenario).
    pub metrics: &'static [&'static str],
    /// Its small test size ([`TestSize`]; not described to the page).
    #[serde(skip)]
    pub test_size: TestSize,
}

/// Everything the page and the CLI need to present a scenario: what it says
/// of itself ([`About`], whose fields read through this value) and what the
/// registry derives from its config and its `Experiment` consts.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioInfo {
    pub about: About,
    /// Its field table, read from its config.
    pub fields: Vec<FieldInfo>,
    /// Whether a sweep can be split over several workers.
    pub splits: bool,
    /// Whether a sweep can also share each run's users between workers
    /// ([`Configured::start_user_split`]; [`Configured::split_by_users`] says when
    /// it pays).
    pub user_split: bool,
    /// Whether one private round of its runs can be shown in slow motion
    /// ([`Scenario::round`]; the page's "Look inside one round").
    pub round: bool,
}

impl std::ops::Deref for ScenarioInfo {
    type Target = About;
    fn deref(&self) -> &About {
        &self.about
    }
}

/// The description `describe --json` and the page read, in its keys' order:
/// the derived entries stand where the page's readers have always found them.
/// Written by hand for that order, so a field added to [`About`] must be
/// added here too (`tests/scenario.rs` fails until it is).
impl Serialize for ScenarioInfo {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let a = &self.about;
        let mut out = serializer.serialize_struct("ScenarioInfo", 14)?;
        out.serialize_field("id", a.id)?;
        out.serialize_field("title", a.title)?;
        out.serialize_field("lede", a.lede)?;
        out.serialize_field("look_at", a.look_at)?;
        out.serialize_field("source", a.source)?;
        out.serialize_field("unit", a.unit)?;
        out.serialize_field("presets", a.presets)?;
        out.serialize_field("fields", &self.fields)?;
        out.serialize_field("charts", a.charts)?;
        out.serialize_field("splits", &self.splits)?;
        out.serialize_field("user_split", &self.user_split)?;
        out.serialize_field("lesson", a.lesson)?;
        out.serialize_field("claims", a.claims)?;
        out.serialize_field("metrics", a.metrics)?;
        out.serialize_field("round", &self.round)?;
        out.end()
    }
}

/// wasm in a worker against the native time: the Private FedRep benchmarks'
/// wasm/native, 0.85–1.22 (docs/performance.md), rounded up.
pub const WASM_FACTOR: f64 = 1.3;

/// The name of a sweep's results file.
pub const RESULTS: &str = "results.csv";

/// One output file of a run (the CLI writes it; the page exports the first).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OutputFile {
    pub name: &'static str,
    pub text: String,
}

impl OutputFile {
    /// `results.csv`: a sweep's rows, the first file of every view.
    pub fn results(text: String) -> Self {
        OutputFile {
            name: RESULTS,
            text,
        }
    }
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
    /// The settings of the run shown (`Config::to_fields`): what the claims'
    /// scopes read. Filled by the adapter for every run and merge.
    #[serde(skip)]
    pub settings: Vec<(&'static str, String)>,
    /// A console table of the rows (the CLI prints it).
    #[serde(skip)]
    pub summary: String,
    /// When risks drive the run and its ε charts show the attacker's success
    /// ([`risk_axis`]): each risk on that axis with the target ε it stands
    /// for, in the settings' order (the page's readout names both). Empty
    /// (and not written) otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub risk_axis: Vec<(f64, f64)>,
    /// The charts as the scenario drew them over ε, when [`View::charts`]
    /// shows them on the risk axis (empty otherwise): the claims, written
    /// against ε, are judged on these.
    #[serde(skip)]
    pub by_epsilon: Vec<ChartSpec>,
}

impl View {
    /// The view of a scenario whose tables are its charts' numbers (one
    /// table per chart, [`table::chart_table`]); the claims are judged once
    /// the run is finished ([`judged`]).
    pub fn of_charts(
        charts: Vec<ChartSpec>,
        privacy: Vec<ExplainEntry>,
        files: Vec<OutputFile>,
        summary: String,
    ) -> Self {
        View {
            tables: charts.iter().map(table::chart_table).collect(),
            charts,
            privacy,
            files,
            claims: Vec::new(),
            settings: Vec::new(),
            summary,
            risk_axis: Vec::new(),
            by_epsilon: Vec::new(),
        }
    }
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

/// A sweep in progress: bounded steps, progress, a view of what is finished
/// ([`adapter::SweepRun`] for every scenario).
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
    /// This run's results in the compact form [`Configured::merge`] reads
    /// (exact: every number keeps its bits).
    fn part(&self) -> Vec<u8>;
    /// Split by users ([`Configured::start_user_split`]): whether the run waits
    /// for the other workers' partials; `step()` does nothing meanwhile.
    fn waiting(&self) -> bool;
    /// Split by users: this worker's partials of the pass it just finished
    /// (small: sums over its users), once; every worker of the group gets them.
    fn take_outbox(&mut self) -> Option<Vec<u8>>;
    /// Split by users: every worker's partials of the pass the run waits on,
    /// in worker order; the run applies them and can step again (an error for
    /// a run not split by users).
    fn deliver(&mut self, parts: &[Vec<u8>]) -> Result<(), RunError>;
    /// Split by users: from now on (before the first step) this worker's
    /// chunks of each pass are handed out as it frees up, by the pool
    /// numbering each pass's chunks in the order workers ask
    /// ([`claim`](Self::claim), [`grant`](Self::grant)), instead of a fixed
    /// share; the results do not change (sums are added in chunk order).
    /// False for a run that cannot.
    fn hand_out_chunks(&mut self) -> bool;
    /// Handed out: whether the run asks for one more chunk (a claim to send
    /// the pool, counted as sent). It asks a little ahead of its work.
    fn claim(&mut self) -> bool;
    /// Handed out: the pool's answer to a claim, in the order claimed: the
    /// number of a chunk of the pass in progress (past its last: none left).
    fn grant(&mut self, chunk: usize) -> Result<(), RunError>;
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
    view.claims = if view.by_epsilon.is_empty() {
        claims::judge(scenario.info().claims, &view)
    } else {
        // The claims are written against ε: judged on the charts over ε.
        let over_epsilon = View {
            charts: view.by_epsilon.clone(),
            ..view.clone()
        };
        claims::judge(scenario.info().claims, &over_epsilon)
    };
    view
}

/// The merged view of shards' parts ([`Configured::merge`], checked to
/// `coverage`), with the claims judged on it.
pub fn merge_judged(
    configured: &dyn Configured,
    parts: &[Vec<u8>],
    coverage: Coverage,
) -> Result<View, RunError> {
    Ok(judged(
        configured.scenario(),
        configured.merge(parts, coverage)?,
    ))
}

/// Results kept from an earlier sweep for a sweep of new settings
/// ([`Configured::reuse`]): a part stamped with the new settings' plan (as the
/// whole sweep's only shard) holding the jobs `jobs` (new numbering), which
/// the new sweep does not compute again ([`Configured::start_skipping`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    pub part: Vec<u8>,
    pub jobs: Vec<usize>,
}

/// A run, or why it cannot start ([`Configured::start`]).
pub type StartResult = Result<Box<dyn Run>, Vec<ConfigError>>;

/// One experiment of a paper, behind one interface: what the CLI, the wasm
/// module and the page call. It describes itself (info, presets, fields) and
/// checks settings into a [`Configured`] once, which serves everything done
/// with them (start, estimate, merge, reuse, audit). Every scenario
/// implements it through the one [`adapter::Adapter`] of its
/// [`adapter::Experiment`].
pub trait Scenario: Sync {
    /// Id, title, presets, field table, charts (built once).
    fn info(&self) -> &ScenarioInfo;
    /// The preset's fields as text, in the field table's order.
    fn preset_fields(&self, preset: &str) -> Result<Vec<(&'static str, String)>, ConfigError>;
    /// Whether [`Configured::audit_targets`] has an audit (the page offers it).
    fn has_audit(&self) -> bool;
    /// `preset` (one of this scenario's) with `pairs` over it, checked once:
    /// every problem at once (each naming its field), including what a run
    /// would derive from them (σ from the accountant, sizes), or the
    /// configuration every later call serves from.
    fn configure(
        &'static self,
        preset: &str,
        pairs: &[(&str, &str)],
    ) -> Result<Box<dyn Configured>, Vec<ConfigError>>;
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

/// A preset (found by name, [`by_preset`]) with these settings, checked
/// once ([`Scenario::configure`]); an unknown preset is the error at `preset`.
pub fn configure(
    preset: &str,
    pairs: &[(&str, &str)],
) -> Result<Box<dyn Configured>, Vec<ConfigError>> {
    let (s, name) = by_preset(preset).map_err(|e| vec![e])?;
    s.configure(name, pairs)
}

/// Settings held as owned `(key, text)` pairs (a command's `--set`, a shard's
/// header, the page's object of texts), borrowed as [`configure`] takes them.
pub fn borrowed(pairs: &[(String, String)]) -> Vec<(&str, &str)> {
    pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

/// Every problem with a preset and these settings (empty: valid).
pub fn validate(preset: &str, pairs: &[(&str, &str)]) -> Vec<ConfigError> {
    configure(preset, pairs).err().unwrap_or_default()
}

/// An audit of a preset's private runs with these settings, refused at `runs`
/// when it is estimated over [`audit::MAX_AUDIT_SECONDS`] (like a sweep);
/// `runs` 0 takes the default runs per side ([`audit::default_runs`]), at
/// fewer records where the scenario's setting that sizes its audit allows
/// ([`audit::AuditRun::sized`]: the configuration with that one changed).
pub fn start_audit(
    preset: &str,
    pairs: &[(&str, &str)],
    options: audit::AuditOptions,
) -> Result<audit::AuditRun, Vec<ConfigError>> {
    start_audit_within(preset, pairs, options, audit::DEFAULT_AUDIT_SECONDS)
}

/// [`start_audit`] whose default fits `budget` seconds in one wasm worker
/// instead of the page's [`audit::DEFAULT_AUDIT_SECONDS`] (tests play a
/// resized default at a test's size with it).
pub fn start_audit_within(
    preset: &str,
    pairs: &[(&str, &str)],
    options: audit::AuditOptions,
    budget: f64,
) -> Result<audit::AuditRun, Vec<ConfigError>> {
    check_audit_runs(&options)?;
    audit_of(configure(preset, pairs)?.as_ref(), options, budget)
}

/// The runs per side asked for, checked before the settings are (a bad count
/// is the one error reported).
pub fn check_audit_runs(options: &audit::AuditOptions) -> Result<(), Vec<ConfigError>> {
    // 0: the default runs per side (`audit::default_runs`).
    if options.runs != 0 && !(2..=audit::MAX_AUDIT_RUNS).contains(&options.runs) {
        return Err(vec![ConfigError::out_of_range(
            "runs",
            "between 2 and 100000 runs per side (or 0, the default)",
            options.runs,
        )]);
    }
    Ok(())
}

/// The audit of a configuration ([`start_audit_within`] once configured).
pub fn audit_of(
    configured: &dyn Configured,
    options: audit::AuditOptions,
    budget: f64,
) -> Result<audit::AuditRun, Vec<ConfigError>> {
    check_audit_runs(&options)?;
    let targets = configured.audit_targets(&options)?;
    let run = audit::AuditRun::sized(targets, configured.audit_size(), options, budget, |n| {
        configured.audit_targets_at(&options, n)
    });
    run.check_work().map_err(|e| vec![e])?;
    Ok(run)
}

/// A run with the scenario it belongs to, or why the settings cannot run.
pub type Started = Result<(&'static dyn Scenario, Box<dyn Run>), Vec<ConfigError>>;

/// Worker `share.index` of `share.count` sharing every run's users (see
/// [`Configured::start_user_split`]).
pub fn start_user_split(preset: &str, pairs: &[(&str, &str)], share: Shard) -> Started {
    let c = configure(preset, pairs)?;
    Ok((c.scenario(), c.start_user_split(share)?))
}

/// A run of a preset on these settings whose jobs `skip` are kept from an
/// earlier sweep ([`Configured::start_skipping`]).
pub fn start_skipping(
    preset: &str,
    pairs: &[(&str, &str)],
    shard: Shard,
    skip: &[usize],
) -> Started {
    let c = configure(preset, pairs)?;
    Ok((c.scenario(), c.start_skipping(shard, skip)?))
}

/// A run of a preset on these settings, checked.
pub fn start(preset: &str, pairs: &[(&str, &str)], shard: Shard) -> Started {
    let c = configure(preset, pairs)?;
    Ok((c.scenario(), c.start(shard)?))
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
        configure("fedrep-paper", PAIRS)
            .unwrap()
            .merge(parts, coverage)
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
}
