//! A checked configuration of one scenario, and everything a caller does with
//! it.
//!
//! A [`Scenario`] describes itself (info, presets, fields) and turns a preset
//! and settings into a [`Configured`] once ([`Scenario::configure`]: every
//! check, the derived ones included). The CLI, the wasm module and the tests
//! hold that value and ask it to start, estimate, merge, reuse and audit, so
//! the settings are parsed at the edge and nowhere again. It is written once,
//! over the [`Checked`] config of an [`Experiment`] ([`Configuration`]).

use super::adapter::{
    combined, has_job_keys, held, no_round, no_user_split, view_of, ConfigOf, Experiment, PartOf,
    Stamped, SweepRun,
};
use super::audit::{AuditOptions, AuditTargets, SizeField};
use super::field::{Checked, Config};
use super::round::{RoundRequest, RoundTrace};
use super::shards::{decode_parts, Coverage, Shard};
use super::{ConfigError, Kept, Machine, RunError, Scenario, ScenarioInfo, StartResult, View};
use std::any::Any;
use std::collections::HashMap;

/// A checked configuration of one scenario ([`Scenario::configure`]): what a
/// caller does with the settings, none of it parsing them again. Shared by
/// the CLI's sweep threads, hence `Send + Sync`.
pub trait Configured: Send + Sync {
    /// The scenario it configures.
    fn scenario(&self) -> &'static dyn Scenario;
    /// Its scenario's description.
    fn info(&self) -> &'static ScenarioInfo {
        self.scenario().info()
    }
    /// The preset's canonical name.
    fn preset(&self) -> &'static str;
    /// Every setting of the checked config as text, in the field table's
    /// order (what the settings mean, however they were written): what the
    /// CLI's kept jobs of an interrupted sweep are compared with.
    fn settings(&self) -> Vec<(&'static str, String)>;
    /// A run of `shard` (a scenario that does not split runs the whole sweep
    /// in shard 0 and refuses the others).
    fn start(&self, shard: Shard) -> StartResult;
    /// [`Configured::start`] for a sweep whose jobs `skip` are kept from an
    /// earlier one ([`Configured::reuse`]): the shard computes its share of
    /// the other jobs.
    fn start_skipping(&self, shard: Shard, skip: &[usize]) -> StartResult;
    /// Worker `share.index` of a group of `share.count` that compute every run
    /// together: each computes its share of each pass over the users, they
    /// exchange the partials ([`super::Run::take_outbox`],
    /// [`super::Run::deliver`]), and each ends with exactly the single-worker
    /// view. An error for a scenario that does not split by users.
    fn start_user_split(&self, share: Shard) -> StartResult;
    /// Whether `workers` workers should share each run's users
    /// ([`Configured::start_user_split`]) rather than take whole runs: the
    /// scenario's cost model decides (false for a scenario that cannot).
    fn split_by_users(&self, workers: usize) -> bool;
    /// Seconds the sweep takes on one core natively on the reference machine,
    /// estimated from its size before it runs (within about 2×).
    fn estimated_seconds(&self) -> f64 {
        self.estimated_seconds_on(&Machine::REFERENCE)
    }
    /// The same on `machine` (its factors over the reference machine, as the
    /// CLI's probe measures them: src/cli/machine.rs).
    fn estimated_seconds_on(&self, machine: &Machine) -> f64;
    /// Seconds `sweep --threads threads` takes on a machine of `cores` cores
    /// (`machine`'s factors): the busiest thread's share as the sweep shares
    /// it out, and never less than the one-thread work spread over the cores
    /// (more threads than cores share them).
    fn estimated_seconds_on_threads(&self, threads: usize, cores: usize, machine: &Machine) -> f64;
    /// Seconds the sweep takes in one wasm worker on `machine` (the JS
    /// package's `estimated_seconds`): the native estimate times
    /// [`super::WASM_FACTOR`], or, for a scenario whose kinds of work run at
    /// different ratios in wasm (DP-GD), its own estimate with its wasm speeds.
    fn estimated_wasm_seconds_on(&self, machine: &Machine) -> f64;
    /// Seconds from Run to done in the page with `workers` workers on
    /// `machine` (the page's probe's factors): the busiest worker's share of
    /// the sweep (as the pool splits it) and the page's own work.
    fn estimated_page_seconds(&self, workers: usize, machine: &Machine) -> f64;
    /// Workers the page's pool runs this sweep on, on a machine of `cores`
    /// cores and `memory_bytes` of memory (none: not known): every core, as
    /// far as the cost model's per-worker peak memory allows
    /// ([`super::workers::workers_for`]).
    fn workers_for(&self, cores: usize, memory_bytes: Option<f64>) -> usize;
    /// The view of shards' [`super::Run::part`]s merged (part `i` is shard
    /// `i` of `parts.len()`; a sweep that does not split has one part, the
    /// whole): exactly one run's view. The parts are checked against the plan
    /// of this configuration with [`decode_parts`], to `coverage`; no parts
    /// with [`Coverage::SoFar`] gives the empty charts.
    fn merge(&self, parts: &[Vec<u8>], coverage: Coverage) -> Result<View, RunError> {
        self.merge_beside(parts, None, coverage)
    }
    /// [`Configured::merge`] of shards that computed every job but those of
    /// `kept`, results kept from an earlier sweep ([`Configured::reuse`]).
    fn merge_beside(
        &self,
        parts: &[Vec<u8>],
        kept: Option<&Kept>,
        coverage: Coverage,
    ) -> Result<View, RunError>;
    /// A finished sweep's results (its shards' parts beside what it `kept`) as
    /// one part: what the page's result cache holds of the last run.
    fn whole_part(&self, parts: &[Vec<u8>], kept: Option<&Kept>) -> Result<Vec<u8>, RunError>;
    /// The page's result cache: the results of a finished sweep of `old` (its
    /// [`Configured::whole_part`], `old_whole`) that a sweep of this
    /// configuration would compute again bit for bit, as results of this
    /// one's jobs. A job is kept when its key (the scenario's
    /// [`Experiment::job_key`]: every setting a job's numbers depend on) is
    /// one of `old`'s; a scenario without job keys, or an `old` of another
    /// scenario, keeps nothing. Errors only for a part that is not of `old`.
    fn reuse(&self, old: &dyn Configured, old_whole: &[u8]) -> Result<Kept, RunError>;
    /// Whether a sweep of this configuration can keep its finished jobs and a
    /// later sweep skip them ([`Configured::keep_finished`],
    /// [`Configured::start_skipping`]): only a scenario whose jobs have keys;
    /// the others are computed whole again.
    fn keeps_jobs(&self) -> bool;
    /// The finished jobs of `part` (a shard's [`super::Run::part`], its run
    /// finished or not) but those of `known`, each as a [`Kept`] of that job
    /// alone, stamped as the whole sweep's: what an interrupted sweep keeps
    /// of its work. Empty where [`Configured::keeps_jobs`] is false. An error
    /// for a part that does not decode or is not of this configuration.
    fn keep_finished(&self, part: &[u8], known: &[usize]) -> Result<Vec<Kept>, RunError>;
    /// Kept parts ([`Configured::keep_finished`]'s) as one [`Kept`], for
    /// [`Configured::start_skipping`] and [`Configured::merge_beside`]: each
    /// checked against the plan of this configuration (its jobs'
    /// fingerprints, its rows those of the jobs it lists) and no job in two; a
    /// refusal names the kept part at fault ([`RunError::PartRefused`], its
    /// index in `kept`).
    fn join_kept(&self, kept: &[Vec<u8>]) -> Result<Kept, RunError>;
    /// The private releases an audit attacks, each with its worst-case canary
    /// and the attack's score; a scenario without one says so at `preset`.
    fn audit_targets(&self, options: &AuditOptions) -> AuditTargets;
    /// [`Configured::audit_targets`] with the setting that sizes the audit
    /// ([`Configured::audit_size`]) set to `records` and checked again: the
    /// smaller game a default audit too slow at this size plays.
    fn audit_targets_at(&self, options: &AuditOptions, records: usize) -> AuditTargets;
    /// The setting that sizes its audit (its records), with its value here;
    /// None where no setting does.
    fn audit_size(&self) -> Option<SizeField>;
    /// One private round of its run in slow motion ([`RoundTrace`]); an
    /// error naming `preset` for a scenario without one, `round` for a round
    /// outside the run, or the field that makes the run non-private.
    fn round(&self, request: RoundRequest) -> Result<RoundTrace, Vec<ConfigError>>;
    /// Itself, for [`Configured::reuse`] to recognise a configuration of the
    /// same scenario.
    fn as_any(&self) -> &dyn Any;
}

/// The one [`Configured`]: an experiment's checked config, with its preset
/// and the registry's scenario it belongs to.
pub struct Configuration<E: Experiment> {
    scenario: &'static dyn Scenario,
    preset: &'static str,
    config: Checked<ConfigOf<E>>,
}

impl<E: Experiment> Configuration<E> {
    /// `preset` with `pairs` over it, every check run (the derived ones
    /// too): the value every later call serves from.
    pub(super) fn new(
        scenario: &'static dyn Scenario,
        preset: &str,
        pairs: &[(&str, &str)],
    ) -> Result<Self, Vec<ConfigError>> {
        // Every check, the accountant's σ included, runs in `Checked::new`.
        let config = ConfigOf::<E>::from_pairs(preset, pairs.iter().copied())?;
        // The config parsed, so its preset is one of the scenario's.
        let wanted = preset.trim();
        let preset = E::ABOUT
            .presets
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(wanted))
            .map(|p| p.name)
            .ok_or_else(|| vec![super::field::unknown_preset(wanted, E::ABOUT.presets)])?;
        Ok(Configuration {
            scenario,
            preset,
            config,
        })
    }

    /// The share a sweep of this scenario runs as: a scenario that does not
    /// split runs whole in shard 0 and refuses the others.
    fn share(shard: Shard) -> Result<Shard, Vec<ConfigError>> {
        if E::SPLITS {
            Ok(shard)
        } else {
            shard.only_first()?;
            Ok(Shard::WHOLE)
        }
    }
}

impl<E: Experiment> Configured for Configuration<E> {
    fn scenario(&self) -> &'static dyn Scenario {
        self.scenario
    }

    fn preset(&self) -> &'static str {
        self.preset
    }

    fn settings(&self) -> Vec<(&'static str, String)> {
        self.config.to_fields()
    }

    fn start(&self, shard: Shard) -> StartResult {
        let shard = Self::share(shard)?;
        let sweep = E::start(self.config.clone(), shard)?;
        Ok(Box::new(SweepRun::<E>::new(sweep, shard)))
    }

    fn start_skipping(&self, shard: Shard, skip: &[usize]) -> StartResult {
        if skip.is_empty() {
            return self.start(shard);
        }
        let shard = Self::share(shard)?;
        let sweep = E::start_skipping(self.config.clone(), shard, skip)?;
        Ok(Box::new(SweepRun::<E>::new(sweep, shard)))
    }

    fn start_user_split(&self, share: Shard) -> StartResult {
        if !E::USER_SPLIT {
            return Err(vec![no_user_split(E::ABOUT.id)]);
        }
        let sweep = E::start_user_split(self.config.clone(), share)?;
        // Every worker of the group ends with every run: its part is the whole sweep's.
        Ok(Box::new(SweepRun::<E>::new(sweep, Shard::WHOLE)))
    }

    fn split_by_users(&self, workers: usize) -> bool {
        E::USER_SPLIT && E::split_by_users(&self.config, workers)
    }

    fn estimated_seconds_on(&self, machine: &Machine) -> f64 {
        E::estimated_seconds(&self.config, machine)
    }

    fn estimated_seconds_on_threads(&self, threads: usize, cores: usize, machine: &Machine) -> f64 {
        let one = E::estimated_seconds(&self.config, machine);
        if threads <= 1 {
            return one;
        }
        let busiest = E::estimated_thread_seconds(&self.config, threads, machine);
        busiest.max(one / threads.min(cores.max(1)) as f64)
    }

    fn estimated_wasm_seconds_on(&self, machine: &Machine) -> f64 {
        E::estimated_wasm_seconds(&self.config, machine)
    }

    fn workers_for(&self, cores: usize, memory_bytes: Option<f64>) -> usize {
        super::workers::workers_for(
            E::SPLITS,
            E::worker_peak_bytes(&self.config),
            cores,
            memory_bytes,
        )
    }

    fn estimated_page_seconds(&self, workers: usize, machine: &Machine) -> f64 {
        machine.seconds(E::page_overhead_seconds(&self.config), 0.0)
            + E::estimated_worker_seconds(&self.config, workers, machine)
    }

    fn merge_beside(
        &self,
        parts: &[Vec<u8>],
        kept: Option<&Kept>,
        coverage: Coverage,
    ) -> Result<View, RunError> {
        let part = combined::<E>(&self.config, parts, kept, coverage)?;
        Ok(view_of::<E>(&self.config, &part))
    }

    fn whole_part(&self, parts: &[Vec<u8>], kept: Option<&Kept>) -> Result<Vec<u8>, RunError> {
        let part = combined::<E>(&self.config, parts, kept, Coverage::Whole)?;
        let stamps = E::plan(&self.config).stamps(Shard::WHOLE, true, E::finished_jobs(&part));
        Ok(postcard::to_allocvec(&Stamped { stamps, part }).unwrap_or_default())
    }

    fn reuse(&self, old: &dyn Configured, old_whole: &[u8]) -> Result<Kept, RunError> {
        // Another scenario's jobs are never this one's.
        let Some(old) = old.as_any().downcast_ref::<Self>() else {
            return Ok(Kept::default());
        };
        let (old, new) = (&old.config, &self.config);
        let old_plan = E::plan(old);
        let mut parts = decode_parts::<Stamped<PartOf<E>>>(
            &[old_whole.to_vec()],
            &old_plan,
            Coverage::Whole,
            held::<E>,
        )?;
        let keys: HashMap<u64, usize> = (0..old_plan.len())
            .filter_map(|j| E::job_key(old, j).map(|k| (k, j)))
            .collect();
        let plan = E::plan(new);
        // old job -> new job, for every new job whose key an old job has.
        let map: HashMap<usize, usize> = (0..plan.len())
            .filter_map(|j| {
                E::job_key(new, j)
                    .and_then(|k| keys.get(&k))
                    .map(|&o| (o, j))
            })
            .collect();
        if map.is_empty() {
            return Ok(Kept::default());
        }
        let Some(Stamped { part, .. }) = parts.pop() else {
            return Ok(Kept::default());
        };
        let part = E::renumber(part, &|j| map.get(&j).copied());
        let mut jobs: Vec<usize> = map.into_values().collect();
        jobs.sort_unstable();
        let stamps = plan.stamps(Shard::WHOLE, true, jobs.iter().copied());
        let part = postcard::to_allocvec(&Stamped { stamps, part }).unwrap_or_default();
        Ok(Kept { part, jobs })
    }

    fn keeps_jobs(&self) -> bool {
        has_job_keys::<E>(&self.config)
    }

    fn keep_finished(&self, part: &[u8], known: &[usize]) -> Result<Vec<Kept>, RunError> {
        if !has_job_keys::<E>(&self.config) {
            return Ok(Vec::new());
        }
        let plan = E::plan(&self.config);
        let decode = || -> Result<Stamped<PartOf<E>>, RunError> {
            postcard::from_bytes(part)
                .map_err(|e| RunError::Part(format!("a running sweep's results: {e}")))
        };
        let stamps = decode()?.stamps;
        let mut kept = Vec::new();
        for (job, fingerprint) in stamps.jobs {
            if job >= plan.len() || fingerprint != plan.fingerprint(job) {
                return Err(RunError::Part(format!(
                    "a running sweep's results hold job {job}, which is not of these settings"
                )));
            }
            if known.contains(&job) {
                continue;
            }
            let part = E::renumber(decode()?.part, &|j| (j == job).then_some(job));
            let stamps = plan.stamps(Shard::WHOLE, true, [job]);
            let part = postcard::to_allocvec(&Stamped { stamps, part })
                .map_err(|e| RunError::Part(e.to_string()))?;
            kept.push(Kept {
                part,
                jobs: vec![job],
            });
        }
        Ok(kept)
    }

    fn join_kept(&self, kept: &[Vec<u8>]) -> Result<Kept, RunError> {
        let plan = E::plan(&self.config);
        let mut owner: Vec<Option<usize>> = vec![None; plan.len()];
        let mut parts = Vec::with_capacity(kept.len());
        for (i, bytes) in kept.iter().enumerate() {
            let refuse = |message: String| RunError::PartRefused { part: i, message };
            // Each is checked as a whole sweep's only shard holding its jobs.
            let mut decoded = decode_parts::<Stamped<PartOf<E>>>(
                std::slice::from_ref(bytes),
                &plan,
                Coverage::SoFar,
                held::<E>,
            )
            .map_err(|e| match e {
                RunError::PartRefused { message, .. } => refuse(message),
                other => refuse(other.to_string()),
            })?;
            let Some(Stamped { stamps, part }) = decoded.pop() else {
                return Err(refuse("it holds no results".into()));
            };
            let listed = stamps.listed();
            let mut rows = E::row_jobs(&part);
            rows.sort_unstable();
            rows.dedup();
            if rows != listed || listed.is_empty() {
                return Err(refuse(
                    "its results are not those of the jobs it lists".into(),
                ));
            }
            for &job in &listed {
                if let Some(other) = owner[job] {
                    return Err(refuse(format!(
                        "it holds {}, which kept part {other} holds too",
                        plan.label(job)
                    )));
                }
                owner[job] = Some(i);
            }
            parts.push(part);
        }
        let jobs: Vec<usize> = (0..plan.len()).filter(|&j| owner[j].is_some()).collect();
        let part = E::combine(parts);
        let stamps = plan.stamps(Shard::WHOLE, true, jobs.iter().copied());
        let part = postcard::to_allocvec(&Stamped { stamps, part })
            .map_err(|e| RunError::Part(e.to_string()))?;
        Ok(Kept { part, jobs })
    }

    fn audit_targets(&self, options: &AuditOptions) -> AuditTargets {
        match E::AUDIT {
            Some(audit) => audit(&self.config, options),
            None => Err(vec![ConfigError::invalid(
                "preset",
                format!("no audit for the {} scenario yet", E::ABOUT.id),
            )]),
        }
    }

    fn audit_targets_at(&self, options: &AuditOptions, records: usize) -> AuditTargets {
        let field = E::AUDIT_SIZE.as_ref().map_or("n", |by| by.field);
        let mut config = self.config.clone().into_inner();
        config
            .apply_field(field, &records.to_string())
            .map_err(|e| vec![e])?;
        let config = Checked::new(config)?;
        match E::AUDIT {
            Some(audit) => audit(&config, options),
            None => self.audit_targets(options),
        }
    }

    fn audit_size(&self) -> Option<SizeField> {
        let by = E::AUDIT_SIZE.as_ref()?;
        Some(SizeField {
            field: by.field,
            noun: by.noun,
            n: (by.of)(&self.config),
            floor: (by.floor)(&self.config),
            why: by.why,
        })
    }

    fn round(&self, request: RoundRequest) -> Result<RoundTrace, Vec<ConfigError>> {
        match E::ROUND {
            Some(round) => round(&self.config, request),
            None => Err(vec![no_round(E::ABOUT.id)]),
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
