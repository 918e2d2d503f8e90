//! The one implementation of [`Scenario`] and [`Run`], for every scenario.
//!
//! What every scenario did the same way (text to a checked config, the preset
//! listing, validation, starting a sweep on its share, its part with its
//! stamps, the merge of parts checked against the plan, the cached
//! description) is written here once, over the typed [`Experiment`] a scenario
//! implements with what is its own: its description ([`About`]), how to
//! start its sweep, how a part is shown ([`Experiment::view`]) and its audit.
//! Its [`Sweep`] (its `run.rs`) is the state machine that the adapter steps,
//! with its config and what a part of it holds.
//!
//! The registry lists each scenario as an [`Adapter`] of its experiment.

use super::audit::{AuditOptions, AuditTargets};
use super::configured::{Configuration, Configured};
use super::field::target::with_risk_columns;
use super::field::{Checked, Config};
use super::risk_axis::on_risk_axes;
use super::round::{RoundRequest, RoundTrace};
use super::shards::{decode_parts, decode_parts_beside, Coverage, Plan, Shard, Stamps};
use super::{
    About, ConfigError, Kept, Machine, Run, RunError, Scenario, ScenarioInfo, View, RESULTS,
    WASM_FACTOR,
};
use crate::plot::ChartSpec;
use crate::privacy::PrivacyReport;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;
use std::sync::OnceLock;

/// A scenario's sweep as a step-wise state machine (its `run.rs`), stepped
/// by the adapter's [`Run`]: the methods of the same names there say what
/// each does; a sweep not split by users keeps the defaults of the last three.
pub trait Sweep: Send + 'static {
    /// Its scenario's settings (field table, presets, checks).
    type Config;
    /// What a worker's results hold (rows, reports, curves): a part of a
    /// sweep split over workers is this after its [`Stamps`].
    type Part;
    /// The config the sweep runs (checked when the sweep was started).
    fn config(&self) -> &Self::Config;
    /// The results the sweep holds so far.
    fn part(&self) -> Self::Part;
    fn step(&mut self) -> Result<bool, RunError>;
    fn is_done(&self) -> bool;
    fn progress(&self) -> (usize, usize);
    fn phase(&self) -> String;
    fn waiting(&self) -> bool {
        false
    }
    fn take_outbox(&mut self) -> Option<Vec<u8>> {
        None
    }
    fn deliver(&mut self, _parts: &[Vec<u8>]) -> Result<(), RunError> {
        Err(RunError::Part("this run is not split by users".into()))
    }
    fn hand_out_chunks(&mut self) -> bool {
        false
    }
    fn claim(&mut self) -> bool {
        false
    }
    fn grant(&mut self, _chunk: usize) -> Result<(), RunError> {
        Err(RunError::Part(
            "this run's chunks are not handed out".into(),
        ))
    }
}

/// The part of a sweep whose rows each carry their privacy report (`None`:
/// a non-private row): its finished rows, and their reports in the same order.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Rows<R> {
    pub rows: Vec<R>,
    pub reports: Vec<Option<PrivacyReport>>,
}

impl<R: Clone> Rows<R> {
    pub fn of(rows: &[R], reports: &[Option<PrivacyReport>]) -> Self {
        Rows {
            rows: rows.to_vec(),
            reports: reports.to_vec(),
        }
    }
}

impl<R> Rows<R> {
    /// The private rows, each with its report.
    pub fn private(&self) -> impl Iterator<Item = (&R, &PrivacyReport)> {
        self.rows
            .iter()
            .zip(&self.reports)
            .filter_map(|(r, p)| p.as_ref().map(|p| (r, p)))
    }
}

/// The part of a sweep that also draws curves against the rounds: its
/// finished rows (`R`: plain rows, or [`Rows`] with their reports) and its
/// curves (`C`), in job order.
#[derive(Serialize, Deserialize)]
pub struct RowsAndCurves<R, C> {
    pub rows: R,
    pub curves: Vec<C>,
}

impl<R: Default, C> Default for RowsAndCurves<R, C> {
    fn default() -> Self {
        RowsAndCurves {
            rows: R::default(),
            curves: Vec::new(),
        }
    }
}

impl<R> Default for Rows<R> {
    fn default() -> Self {
        Rows {
            rows: Vec::new(),
            reports: Vec::new(),
        }
    }
}

/// An audit of a scenario's private releases, from its checked config.
pub type AuditFn<C> = fn(&Checked<C>, &AuditOptions) -> AuditTargets;

/// One private round of a scenario's run in slow motion, from its checked
/// config ([`super::round`]).
pub type RoundFn<C> = fn(&Checked<C>, RoundRequest) -> Result<RoundTrace, Vec<ConfigError>>;

/// The setting that sizes a scenario's audit (its records), which a default
/// audit too slow at the preset's size lowers ([`super::audit::AuditRun::sized`]).
pub struct AuditSizeBy<C> {
    /// The setting, whose value `n′` (as text) the audit's rebuild sets.
    pub field: &'static str,
    /// The records it counts, plural ("users").
    pub noun: &'static str,
    /// The records the audit of a config runs at.
    pub of: fn(&C) -> usize,
    /// The fewest records the audit of a config may run at.
    pub floor: fn(&C) -> usize,
    /// Why the game at fewer records is the same ([`super::audit::SizeField::why`]).
    pub why: &'static str,
}

/// The fewest clients (users) a federated scenario's audit runs at: its
/// white-box score needs no more, and at fewer the rounds' costs that do not
/// grow with the clients (the shared factor's update, its QR or k×k solves)
/// are no longer a small part of a run, so the cost model's estimate, linear
/// in the clients, would run low.
pub const FEDERATED_AUDIT_FLOOR: usize = 50;

fn federated_floor<C>(_: &C) -> usize {
    FEDERATED_AUDIT_FLOOR
}

impl<C> AuditSizeBy<C> {
    /// A federated scenario's audit, sized by its clients `n` (`of` a
    /// config, called `noun`), at least [`FEDERATED_AUDIT_FLOOR`].
    pub const fn federated(noun: &'static str, of: fn(&C) -> usize, why: &'static str) -> Self {
        AuditSizeBy {
            field: "n",
            noun,
            of,
            floor: federated_floor::<C>,
            why,
        }
    }
}

/// `one` seconds shared by `by` workers or threads, for a sweep that splits
/// (else all on one).
fn shared_evenly(splits: bool, one: f64, by: usize) -> f64 {
    if splits {
        one / by.max(1) as f64
    } else {
        one
    }
}

/// An experiment's settings: its sweep's config.
pub type ConfigOf<E> = <<E as Experiment>::Sweep as Sweep>::Config;

/// What a worker's results of an experiment hold: its sweep's part.
pub type PartOf<E> = <<E as Experiment>::Sweep as Sweep>::Part;

/// One experiment of a paper: what a scenario has that is its own. The
/// [`Adapter`] makes a [`Scenario`] of it.
pub trait Experiment: Send + Sync + 'static {
    /// Its sweep; each worker steps one. Its settings and what a worker's
    /// results hold are the sweep's ([`ConfigOf`], [`PartOf`]), declared
    /// once there.
    type Sweep: Sweep<
        Config: Config + Default + Send + Sync,
        Part: Serialize + DeserializeOwned + Default,
    >;

    /// Its description (the page's header, presets, charts, lesson, claims).
    const ABOUT: About;
    /// Whether a sweep splits over workers, each starting with its [`Shard`]:
    /// by default not (only the first shard exists and runs the whole sweep),
    /// as most scenarios' few runs are not worth sharing.
    const SPLITS: bool = false;
    /// Whether workers can also share each run's users
    /// ([`Experiment::start_user_split`]): by default not.
    const USER_SPLIT: bool = false;
    /// Its audit, if it has one (the page offers it).
    const AUDIT: Option<AuditFn<ConfigOf<Self>>> = None;
    /// The setting that sizes its audit, if a default audit may lower it.
    const AUDIT_SIZE: Option<AuditSizeBy<ConfigOf<Self>>> = None;
    /// Its round in slow motion, if it has one (the page's "Look inside one
    /// round", `dp-explorer step`).
    const ROUND: Option<RoundFn<ConfigOf<Self>>> = None;

    /// Its sweep, or the share of it of `shard` (a scenario that does not
    /// split is only ever given the whole sweep).
    fn start(
        config: Checked<ConfigOf<Self>>,
        shard: Shard,
    ) -> Result<Self::Sweep, Vec<ConfigError>>;
    /// Everything shown for these results (a run's own, or merged parts').
    fn view(config: &ConfigOf<Self>, part: &PartOf<Self>) -> View;
    /// Seconds the sweep takes on one core natively on `machine`, from its
    /// size (within about 2×).
    fn estimated_seconds(config: &ConfigOf<Self>, machine: &Machine) -> f64;

    /// Seconds in one wasm worker of a page on `machine`: by default the
    /// native estimate times [`WASM_FACTOR`].
    fn estimated_wasm_seconds(config: &ConfigOf<Self>, machine: &Machine) -> f64 {
        Self::estimated_seconds(config, machine) * WASM_FACTOR
    }
    /// Seconds of the work of the busiest of the page's `workers` workers: by
    /// default the one-worker estimate shared evenly by a sweep that splits.
    fn estimated_worker_seconds(config: &ConfigOf<Self>, workers: usize, machine: &Machine) -> f64 {
        shared_evenly(
            Self::SPLITS,
            Self::estimated_wasm_seconds(config, machine),
            workers,
        )
    }
    /// Seconds of the busiest of `threads` native threads sharing the sweep
    /// as `sweep --threads` shares it (each on a core of its own): by default
    /// the one-thread estimate shared evenly by a sweep that splits.
    fn estimated_thread_seconds(config: &ConfigOf<Self>, threads: usize, machine: &Machine) -> f64 {
        shared_evenly(
            Self::SPLITS,
            Self::estimated_seconds(config, machine),
            threads,
        )
    }
    /// The most memory one of the page's workers holds for its share of the
    /// sweep (bytes; by default [`super::workers::WORKER_BASE_BYTES`]): what
    /// bounds the pool's size ([`super::workers::workers_for`]).
    fn worker_peak_bytes(_config: &ConfigOf<Self>) -> f64 {
        super::workers::WORKER_BASE_BYTES
    }
    /// Seconds the page spends on a run of these settings besides the
    /// workers' sweep, on the reference machine: starting the run, merging
    /// and judging the parts, drawing the charts and tables.
    fn page_overhead_seconds(_config: &ConfigOf<Self>) -> f64 {
        super::machine::PAGE_OVERHEAD_SECONDS
    }
    /// The sweep's jobs under these settings: by default one, the whole sweep.
    fn plan(config: &ConfigOf<Self>) -> Plan<'_> {
        Plan::whole(Self::ABOUT.id, &config.to_fields())
    }
    /// The jobs whose results `part` holds finished (its stamps list them):
    /// by default the whole sweep's one job.
    fn finished_jobs(_part: &PartOf<Self>) -> Vec<usize> {
        vec![0]
    }
    /// The job of each result `part` holds (checked against its stamps by
    /// [`decode_parts`]): by default its finished jobs.
    fn row_jobs(part: &PartOf<Self>) -> Vec<usize> {
        Self::finished_jobs(part)
    }
    /// Checked parts, shard by shard, as one: by default the only one (a
    /// sweep that does not split has one part, or none yet).
    fn combine(parts: Vec<PartOf<Self>>) -> PartOf<Self> {
        debug_assert!(parts.len() <= 1, "a sweep that splits combines its parts");
        parts.into_iter().next().unwrap_or_default()
    }
    /// The key of job `job` under these settings for the page's result cache
    /// ([`Configured::reuse`]): a fingerprint of every setting the job's numbers
    /// depend on, so that two jobs (of these or other settings) with the same
    /// key give the same results bit for bit. `None` (the default): the job
    /// is never kept, always computed.
    fn job_key(_config: &ConfigOf<Self>, _job: usize) -> Option<u64> {
        None
    }
    /// The results of `part` of the jobs `renumber` maps, each renumbered as
    /// the job it maps to (the rest dropped): needed only by a scenario with
    /// [`Experiment::job_key`]s.
    fn renumber(_part: PartOf<Self>, _renumber: &dyn Fn(usize) -> Option<usize>) -> PartOf<Self> {
        PartOf::<Self>::default()
    }
    /// [`Experiment::start`] without the jobs `skip` (kept from an earlier
    /// sweep); only a scenario with [`Experiment::job_key`]s is given any.
    fn start_skipping(
        config: Checked<ConfigOf<Self>>,
        shard: Shard,
        skip: &[usize],
    ) -> Result<Self::Sweep, Vec<ConfigError>> {
        if skip.is_empty() {
            Self::start(config, shard)
        } else {
            Err(vec![ConfigError::invalid(
                "shards",
                format!(
                    "the {} scenario keeps no results of earlier runs",
                    Self::ABOUT.id
                ),
            )])
        }
    }
    /// Whether `workers` workers should share each run's users (its cost
    /// model decides).
    fn split_by_users(_config: &ConfigOf<Self>, _workers: usize) -> bool {
        false
    }
    /// Worker `share` of a group sharing every run's users (for a scenario
    /// whose [`Experiment::USER_SPLIT`] is set).
    fn start_user_split(
        _config: Checked<ConfigOf<Self>>,
        _share: Shard,
    ) -> Result<Self::Sweep, Vec<ConfigError>> {
        Err(vec![no_user_split(Self::ABOUT.id)])
    }
}

pub(super) fn no_round(id: &str) -> ConfigError {
    ConfigError::invalid(
        "preset",
        format!(
            "the {id} scenario has no round in slow motion yet (Private FedRep and DP-GD have one)"
        ),
    )
}

pub(super) fn no_user_split(id: &str) -> ConfigError {
    ConfigError::invalid(
        "shards",
        format!("the {id} scenario does not split runs by users"),
    )
}

/// A part as [`Run::part`] writes it: its stamps, then the results.
#[derive(Serialize, Deserialize)]
pub(super) struct Stamped<P> {
    pub(super) stamps: Stamps,
    pub(super) part: P,
}

/// An experiment as the registry lists it: a [`Scenario`], with its
/// description built once.
pub struct Adapter<E> {
    experiment: PhantomData<E>,
    info: OnceLock<ScenarioInfo>,
}

impl<E: Experiment> Default for Adapter<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Experiment> Adapter<E> {
    pub const fn new() -> Self {
        Adapter {
            experiment: PhantomData,
            info: OnceLock::new(),
        }
    }
}

/// The shards' parts beside the `kept` part, checked against the plan of
/// `config` to `coverage`, as one part.
pub(super) fn combined<E: Experiment>(
    config: &ConfigOf<E>,
    parts: &[Vec<u8>],
    kept: Option<&Kept>,
    coverage: Coverage,
) -> Result<PartOf<E>, RunError> {
    let plan = E::plan(config);
    let mut kept_part = None;
    let mut kept_jobs: &[usize] = &[];
    if let Some(k) = kept.filter(|k| !k.jobs.is_empty()) {
        // The kept part is checked as a whole sweep's only shard holding its jobs.
        let mut decoded = decode_parts::<Stamped<PartOf<E>>>(
            std::slice::from_ref(&k.part),
            &plan,
            Coverage::SoFar,
            held::<E>,
        )
        .map_err(|e| RunError::Part(format!("the results kept from the previous run: {e}")))?;
        let part = decoded.pop().map(|p| p.part).unwrap_or_default();
        let mut rows = E::row_jobs(&part);
        rows.sort_unstable();
        rows.dedup();
        if rows != k.jobs {
            return Err(RunError::Part(
                "the results kept from the previous run do not hold the jobs they list".into(),
            ));
        }
        kept_jobs = &k.jobs;
        kept_part = Some(part);
    }
    let parts =
        decode_parts_beside::<Stamped<PartOf<E>>>(parts, &plan, coverage, held::<E>, kept_jobs)?;
    Ok(E::combine(
        parts.into_iter().map(|p| p.part).chain(kept_part).collect(),
    ))
}

/// The stamps a part ([`Run::part`]) leads with: the share it was computed
/// as and the jobs it holds (e.g. to count what a sweep computed).
pub fn stamps_of(part: &[u8]) -> Result<Stamps, RunError> {
    postcard::take_from_bytes::<Stamps>(part)
        .map(|(stamps, _)| stamps)
        .map_err(|e| RunError::Part(format!("its stamps could not be read ({e})")))
}

/// A part's stamps and the job of each of its results, for [`decode_parts`].
pub(super) fn held<E: Experiment>(p: &Stamped<PartOf<E>>) -> (&Stamps, Vec<usize>) {
    (&p.stamps, E::row_jobs(&p.part))
}

/// Whether the jobs of `config` have keys, so that they can be kept and
/// skipped ([`Configured::keeps_jobs`]).
pub(super) fn has_job_keys<E: Experiment>(config: &ConfigOf<E>) -> bool {
    !E::plan(config).is_empty() && E::job_key(config, 0).is_some()
}

/// A started sweep as a [`Run`]: `shard` is the share its parts are stamped
/// as (the whole sweep for a worker of a group split by users, which ends
/// with every run).
pub struct SweepRun<E: Experiment> {
    sweep: E::Sweep,
    shard: Shard,
}

impl<E: Experiment> SweepRun<E> {
    /// `sweep`, its parts stamped as `shard`.
    pub(super) fn new(sweep: E::Sweep, shard: Shard) -> Self {
        SweepRun { sweep, shard }
    }
}

impl<E: Experiment> Run for SweepRun<E> {
    fn step(&mut self) -> Result<bool, RunError> {
        self.sweep.step()
    }
    fn is_done(&self) -> bool {
        self.sweep.is_done()
    }
    fn progress(&self) -> (usize, usize) {
        self.sweep.progress()
    }
    fn phase(&self) -> String {
        self.sweep.phase()
    }
    fn view(&self) -> View {
        view_of::<E>(self.sweep.config(), &self.sweep.part())
    }
    fn part(&self) -> Vec<u8> {
        let part = self.sweep.part();
        let stamps = E::plan(self.sweep.config()).stamps(
            self.shard,
            self.sweep.is_done(),
            E::finished_jobs(&part),
        );
        // Writing plain data to memory cannot fail; an empty part merges as nothing.
        postcard::to_allocvec(&Stamped { stamps, part }).unwrap_or_default()
    }
    fn waiting(&self) -> bool {
        self.sweep.waiting()
    }
    fn take_outbox(&mut self) -> Option<Vec<u8>> {
        self.sweep.take_outbox()
    }
    fn deliver(&mut self, parts: &[Vec<u8>]) -> Result<(), RunError> {
        self.sweep.deliver(parts)
    }
    fn hand_out_chunks(&mut self) -> bool {
        self.sweep.hand_out_chunks()
    }
    fn claim(&mut self) -> bool {
        self.sweep.claim()
    }
    fn grant(&mut self, chunk: usize) -> Result<(), RunError> {
        self.sweep.grant(chunk)
    }
}

/// The view of `part` under `config`, in x order ([`in_x_order`]), carrying
/// the config's settings for the claims' scopes; when risks drive the run,
/// `results.csv` names each row's risk and the ε charts show the attacker's
/// success on their x axis ([`on_risk_axes`]).
pub(super) fn view_of<E: Experiment>(config: &ConfigOf<E>, part: &PartOf<E>) -> View {
    let mut view = in_x_order(E::view(config, part));
    let target = config.risk_target();
    for file in view.files.iter_mut().filter(|f| f.name == RESULTS) {
        file.text = with_risk_columns(&file.text, &target);
    }
    view = on_risk_axes(view, &target);
    view.settings = config.to_fields();
    view
}

/// A scenario's view with every chart's lines in increasing x
/// ([`ChartSpec::in_x_order`]): a chart that follows the order of a list
/// setting (ε, n, widths) draws the same line for "4,1,2" as for "1,2,4".
fn in_x_order(mut view: View) -> View {
    view.charts = view.charts.into_iter().map(ChartSpec::in_x_order).collect();
    view
}

impl<E: Experiment> Scenario for Adapter<E> {
    fn info(&self) -> &ScenarioInfo {
        self.info.get_or_init(|| ScenarioInfo {
            about: E::ABOUT,
            fields: ConfigOf::<E>::field_infos(&ConfigOf::<E>::default()),
            splits: E::SPLITS,
            user_split: E::USER_SPLIT,
            round: E::ROUND.is_some(),
        })
    }

    fn preset_fields(&self, preset: &str) -> Result<Vec<(&'static str, String)>, ConfigError> {
        Ok(ConfigOf::<E>::preset(preset)?.to_fields())
    }

    fn has_audit(&self) -> bool {
        E::AUDIT.is_some()
    }

    fn configure(
        &'static self,
        preset: &str,
        pairs: &[(&str, &str)],
    ) -> Result<Box<dyn Configured>, Vec<ConfigError>> {
        Ok(Box::new(Configuration::<E>::new(self, preset, pairs)?))
    }
}
