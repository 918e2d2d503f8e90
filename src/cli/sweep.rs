//! `dp-explorer sweep`: runs a preset's sweep natively and writes its files
//! (`results.csv`, and any other the scenario makes) plus one SVG per chart,
//! drawn by the page's chart code. The preset picks the scenario; the
//! settings, presets and chart names come from the registry.

use super::args::{preset_and_pairs, SettingsArgs};
use super::errors::CliError;
use super::files::{create_dir, write_view};
use super::shard;
use crate::scenarios::{self, field::FieldKind, Run, Shard, View, SCENARIOS};
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
    /// cores, at most 64). Runs are shared out as in the page's worker pool;
    /// the results are the same for any number of threads.
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

/// The sweep's runs shared out over `threads` shards (as the page's worker
/// pool shares them), merged by the scenario: the same view as one thread.
fn run_sharded(preset: &str, pairs: &[(&str, &str)], threads: usize) -> Result<View, CliError> {
    let (scenario, _) = scenarios::by_preset(preset)?;
    let parts = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|index| {
                scope.spawn(move || -> Result<Vec<u8>, CliError> {
                    let shard = Shard {
                        index,
                        count: threads,
                    };
                    let (_, mut run) = scenarios::start(preset, pairs, shard)?;
                    scenarios::run_to_end(run.as_mut())?;
                    Ok(run.part())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .map_err(|_| CliError::Internal("a sweep thread panicked".into()))?
            })
            .collect::<Result<Vec<_>, CliError>>()
    })?;
    Ok(scenarios::merge_judged(
        scenario,
        preset,
        pairs,
        &parts,
        scenarios::Coverage::Whole,
    )?)
}

pub fn run(args: &SweepArgs) -> Result<String, CliError> {
    let (preset, pairs) = preset_and_pairs(args.settings())?;
    let pairs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let (scenario, name) = scenarios::by_preset(&preset)?;
    let info = scenario.info();
    let errors = scenario.validate(name, &pairs);
    if !errors.is_empty() {
        return Err(CliError::Config(errors));
    }
    if let Some(share) = args.shard {
        return shard::run_share(scenario, name, &pairs, share, &args.out);
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
    let started = Instant::now();
    let view = if threads > 1 {
        run_sharded(name, &pairs, threads)?
    } else {
        let mut run: Box<dyn Run> = scenario.start(name, &pairs, Shard::WHOLE)?;
        scenarios::run_to_end(run.as_mut())?;
        scenarios::judged(scenario, run.view())
    };
    let seconds = started.elapsed().as_secs_f64();
    // The estimate is only printed beside the time taken: the machine's probe
    // (~15 ms) runs after the sweep, not before it.
    let machine = super::machine::this_machine();
    let estimate = scenario.estimated_seconds_on(name, &pairs, &machine)? / threads as f64;

    let written = write_view(&args.out, info, &view)?;
    let mut out = view.summary.clone();
    out.push_str(&scenarios::claims::summary(&view.claims));
    out.push_str(&scenarios::explain::delta_warnings(&view.privacy));
    out.push_str(&format!(
        "sweep took {seconds:.3} s on {threads} thread{} (estimated {estimate:.2} s; this machine's probe: scalar work {:.2}×, dense {:.2}× the reference machine's time)\n",
        if threads == 1 { "" } else { "s" },
        machine.scalar,
        machine.dense,
    ));
    for p in written {
        out.push_str(&format!("wrote {}\n", p.display()));
    }
    Ok(out)
}
