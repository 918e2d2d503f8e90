//! `dp-explorer sweep`: runs a preset's sweep natively and writes its files
//! (`results.csv`, and any other the scenario makes) plus one SVG per chart,
//! drawn by the page's chart code. The preset picks the scenario; the
//! settings, presets and chart names come from the registry.

use super::args::{preset_and_pairs, SettingsArgs};
use super::errors::CliError;
use super::files::{create_dir, write_view};
use super::resume::{self, Keeper, Prepared};
use super::shard;
use super::user_split;
use crate::cores::Loan;
use crate::scenarios::{self, field::FieldKind, Configured, Coverage, Run, Shard, SCENARIOS};
use std::path::PathBuf;
use std::time::Instant;

/// Most threads `--threads` takes.
const MAX_THREADS: usize = 64;

#[derive(clap::Args, Debug)]
pub struct SweepArgs {
    /// Starting point; the preset picks the scenario (the list is below).
    /// Default: the page's default preset, or the `preset` key of --config.
    #[arg(long)]
    pub preset: Option<String>,
    /// A JSON file with settings (applied after the preset, before --set); a
    /// "preset" key in it chooses the preset when --preset is not given.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Override a setting, e.g. --set n=5000 --set epsilons=1,2,4 (repeatable;
    /// the settings of each scenario are listed below).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// The seed (same as --set seed=S).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Output directory for the CSV files and one SVG per chart (with
    /// --shard: for the shard file).
    #[arg(long)]
    pub out: PathBuf,
    /// Threads for a sweep that splits over workers (default: the machine's
    /// cores, at most 64); 1 is one thread. Runs are shared out as in the
    /// page's worker pool, a thread whose share is done helps the runs still
    /// going, and a sweep of few large runs shares their users instead; the
    /// results are the same for any number of threads.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Run only share I of N of the sweep (I counted from 0, N at most 1024)
    /// and write OUT/shard-I-of-N.part instead of the CSV files and charts;
    /// `dp-explorer merge` joins the N shares into exactly the files of one
    /// run, so a sweep can spread over machines (GNU parallel, a Slurm job
    /// array). A sweep that does not split runs whole in shard 0 and the other
    /// shards write an empty share. One process runs one share: not with --threads.
    #[arg(long, value_name = "I/N", value_parser = shard::parse_shard, conflicts_with = "threads")]
    pub shard: Option<Shard>,
    /// Continue a sweep that was stopped (killed, out of time) with the same
    /// settings and --out: the jobs it finished are read from OUT/.jobs and
    /// only the others are computed; the files are those of an uninterrupted
    /// sweep. While a sweep runs it keeps each finished job there (the folder
    /// is removed when the sweep's files are written); a scenario whose sweep
    /// cannot skip jobs keeps none, and --resume computes it whole. Refused
    /// if the kept jobs are of other settings (the setting is named) or a
    /// kept job is damaged (the file is named). Without --resume, a sweep
    /// into an OUT whose .jobs holds finished jobs is refused rather than
    /// throwing them away: resume it, or remove OUT/.jobs to start over.
    #[arg(long, conflicts_with = "shard")]
    pub resume: bool,
}

impl SweepArgs {
    /// Where its settings come from: `--preset`, `--config`, `--set`, `--seed`.
    pub fn settings(&self) -> SettingsArgs<'_> {
        SettingsArgs {
            preset: self.preset.as_deref(),
            config: self.config.as_deref(),
            set: &self.set,
            seed: self.seed,
        }
    }
}

/// The text after `dp-explorer sweep --help`: every scenario's presets and
/// settings, from the registry.
pub fn settings_help() -> String {
    let mut out = String::from("Presets and settings, per scenario:\n");
    for s in SCENARIOS {
        let info = s.info();
        out.push_str(&format!("\n{} ({})\n  presets:\n", info.title, info.id));
        for p in info.presets {
            out.push_str(&format!("    {:<22} {}\n", p.name, p.label));
        }
        out.push_str("  settings (--set KEY=VALUE; default in brackets):\n");
        for f in &info.fields {
            let values = match f.kind {
                FieldKind::Choice | FieldKind::Switch => format!(
                    " ({})",
                    f.choices
                        .iter()
                        .map(|c| c.value.as_str())
                        .collect::<Vec<_>>()
                        .join("|")
                ),
                FieldKind::RealList | FieldKind::IntegerList => " (list)".into(),
                _ => String::new(),
            };
            let help = if f.help.is_empty() {
                String::new()
            } else {
                format!(": {}", f.help)
            };
            out.push_str(&format!(
                "    {:<20} {}{values}{help} [{}]\n",
                f.name, f.label, f.default
            ));
        }
    }
    out
}

/// The parts of the sweep's runs but those kept (`skip`), shared out over
/// `threads` shards as the page's worker pool shares them, each keeping its
/// jobs as they finish: merged beside the kept results, the same view as one
/// thread's. A thread whose share is done is lent (`cores`) to the runs
/// still going, for their dense work: so the last shares, or a sweep of
/// fewer jobs than threads, use every thread to the end.
fn run_sharded(
    configured: &dyn Configured,
    threads: usize,
    keeper: &Keeper,
    skip: &[usize],
) -> Result<Vec<Vec<u8>>, CliError> {
    let loan = &Loan::new(0);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|index| {
                scope.spawn(move || -> Result<Vec<u8>, CliError> {
                    let shard = Shard {
                        index,
                        count: threads,
                    };
                    let mut run = configured.start_skipping(shard, skip)?;
                    let ran = keeper.run_to_end(run.as_mut());
                    loan.add();
                    ran?;
                    Ok(run.part())
                })
            })
            .collect();
        user_split::joined(handles)
    })
}

pub fn run(args: &SweepArgs) -> Result<String, CliError> {
    let (preset, pairs) = preset_and_pairs(args.settings())?;
    let pairs = scenarios::borrowed(&pairs);
    let (_, name) = scenarios::by_preset(&preset)?;
    // Checked once here; everything below asks the configuration.
    let configured = scenarios::configure(name, &pairs).map_err(CliError::Config)?;
    let configured = configured.as_ref();
    let (scenario, info) = (configured.scenario(), configured.info());
    if let Some(share) = args.shard {
        return shard::run_share(configured, &pairs, share, &args.out);
    }
    let threads = match args.threads {
        Some(t) if t == 0 || t > MAX_THREADS => {
            return Err(CliError::argument(
                "--threads",
                format!("--threads must be between 1 and {MAX_THREADS} (got {t})"),
            ))
        }
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS)),
    };
    let threads = if info.splits { threads } else { 1 };
    create_dir(&args.out)?;
    let Prepared {
        keeper,
        kept,
        keeps_jobs,
    } = resume::prepare(configured, &args.out, args.resume)?;
    let started = Instant::now();
    let by_users = threads > 1 && kept.jobs.is_empty() && configured.split_by_users(threads);
    let (view, computed) = if threads == 1 && kept.jobs.is_empty() {
        let mut run: Box<dyn Run> = configured.start(Shard::WHOLE)?;
        keeper.run_to_end(run.as_mut())?;
        let computed = resume::jobs_in(&run.part())?;
        (scenarios::judged(scenario, run.view()), computed)
    } else if by_users {
        // Jobs are not kept as they finish here: every run of the sweep
        // finishes in its last pass.
        let part = user_split::run(configured, threads)?;
        let computed = resume::jobs_in(&part)?;
        let view = configured.merge_beside(&[part], Some(&kept), Coverage::Whole)?;
        (scenarios::judged(scenario, view), computed)
    } else {
        let parts = run_sharded(configured, threads, &keeper, &kept.jobs)?;
        let mut computed = 0;
        for part in &parts {
            computed += resume::jobs_in(part)?;
        }
        let view = configured.merge_beside(&parts, Some(&kept), Coverage::Whole)?;
        (scenarios::judged(scenario, view), computed)
    };
    let seconds = started.elapsed().as_secs_f64();
    // The estimate is only printed beside the time taken: the machine's probe
    // (~15 ms) runs after the sweep, not before it.
    let machine = super::machine::this_machine();
    let estimate =
        configured.estimated_seconds_on_threads(threads, crate::cores::machine_cores(), &machine);

    let written = write_view(&args.out, info, &view)?;
    keeper.finish()?;
    let mut out = view.summary.clone();
    if args.resume {
        let (k, jobs) = (kept.jobs.len(), if computed == 1 { "job" } else { "jobs" });
        out.push_str(&if keeps_jobs {
            format!("resumed: kept {k} finished jobs of the interrupted sweep, computed {computed} {jobs}\n")
        } else {
            format!(
                "resumed: a {name} sweep of these settings keeps no jobs (it cannot skip any), so it was computed whole\n"
            )
        });
    }
    out.push_str(&scenarios::claims::summary(&view.claims));
    out.push_str(&scenarios::explain::delta_warnings(&view.privacy));
    out.push_str(&format!(
        "sweep took {seconds:.3} s on {threads} thread{}{} (estimated {estimate:.2} s; this machine's probe: scalar work {:.2}×, dense {:.2}× the reference machine's time)\n",
        if threads == 1 { "" } else { "s" },
        if by_users { ", split by users" } else { "" },
        machine.scalar,
        machine.dense,
    ));
    for p in written {
        out.push_str(&format!("wrote {}\n", p.display()));
    }
    Ok(out)
}
