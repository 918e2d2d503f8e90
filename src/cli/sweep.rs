//! `dp-explorer sweep`: runs a preset's sweep natively and writes its files
//! (`results.csv`, and any other the scenario makes) plus one SVG per chart,
//! drawn by the page's chart code. The preset picks the scenario; the
//! settings, presets and chart names come from the registry.

use super::errors::{CliError, FileAction};
use super::shard;
use crate::plot::chart_svg;
use crate::scenarios::{self, field::FieldKind, ChartInfo, Run, Shard, View, SCENARIOS};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Largest `--config` file read (a config is a few hundred bytes).
const MAX_CONFIG_BYTES: u64 = 4 << 20;
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

fn split_pair(s: &str) -> Result<(&str, &str), CliError> {
    s.split_once('=')
        .map(|(k, v)| (k.trim(), v.trim()))
        .ok_or_else(|| {
            CliError::argument(
                "--set",
                format!("--set expects KEY=VALUE (got \"{}\")", shorten(s)),
            )
        })
}

fn shorten(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).take(60).collect()
}

/// The text of a `--config` file: a regular file of at most a few MB, with
/// any UTF-8 byte-order mark dropped.
fn read_config_file(path: &Path) -> Result<String, CliError> {
    let meta = std::fs::metadata(path).map_err(|e| CliError::io(FileAction::Read, path, e))?;
    if !meta.is_file() {
        return Err(CliError::file(path, " is not a regular file"));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_CONFIG_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| CliError::io(FileAction::Read, path, e))?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(CliError::file(
            path,
            format!(
                " is larger than {} MB; a config is a small JSON object of settings",
                MAX_CONFIG_BYTES >> 20
            ),
        ));
    }
    let text = String::from_utf8(bytes).map_err(|_| CliError::file(path, " is not UTF-8 text"))?;
    Ok(text.trim_start_matches('\u{feff}').to_string())
}

/// The preset, then the --config file's settings, --set, and --seed, as
/// (key, text) pairs.
pub(super) fn preset_and_pairs(
    args: &SweepArgs,
) -> Result<(String, Vec<(String, String)>), CliError> {
    let mut preset = args.preset.clone();
    let mut pairs = Vec::new();
    if let Some(path) = &args.config {
        let text = read_config_file(path)?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| CliError::file(path, format!(": {e}")))?;
        let obj = value
            .as_object()
            .ok_or_else(|| CliError::file(path, ": expected a JSON object of settings"))?;
        for (k, v) in obj {
            let text = match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Array(a) => a
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
                other => other.to_string(),
            };
            if k == "preset" {
                match &preset {
                    None => preset = Some(text),
                    Some(p) if p.trim().eq_ignore_ascii_case(text.trim()) => {}
                    Some(p) => {
                        return Err(CliError::argument(
                            "--preset",
                            format!(
                                "preset: --preset {} and the preset \"{}\" of {} differ; give one",
                                shorten(p),
                                shorten(&text),
                                path.display()
                            ),
                        ))
                    }
                }
            } else {
                pairs.push((k.clone(), text));
            }
        }
    }
    let preset = preset.unwrap_or_else(|| scenarios::default_preset().to_string());
    if let Some(path) = &args.config {
        unknown_config_keys(path, &preset, &pairs)?;
    }
    for s in &args.set {
        let (k, v) = split_pair(s)?;
        pairs.push((k.to_string(), v.to_string()));
    }
    if let Some(seed) = args.seed {
        pairs.push(("seed".into(), seed.to_string()));
    }
    Ok((preset, pairs))
}

/// Most unknown keys of a `--config` file quoted in its error.
const UNKNOWN_KEYS_NAMED: usize = 5;

/// An error naming the `--config` file when keys of it are no setting of the
/// preset's scenario: their count, the first few and the known settings (an
/// unknown preset is left to the settings' check, which lists the presets).
fn unknown_config_keys(
    path: &Path,
    preset: &str,
    pairs: &[(String, String)],
) -> Result<(), CliError> {
    let Ok((scenario, name)) = scenarios::by_preset(preset) else {
        return Ok(());
    };
    let fields = &scenario.info().fields;
    let known = |key: &str| {
        let key = key.trim();
        fields
            .iter()
            .any(|f| f.name == key || f.aliases.contains(&key))
    };
    let unknown: Vec<&str> = pairs
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| !known(k))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    let mut names = unknown
        .iter()
        .take(UNKNOWN_KEYS_NAMED)
        .map(|k| format!("\"{}\"", shorten(k).chars().take(40).collect::<String>()))
        .collect::<Vec<_>>()
        .join(", ");
    if unknown.len() > UNKNOWN_KEYS_NAMED {
        names.push_str(&format!(" and {} more", unknown.len() - UNKNOWN_KEYS_NAMED));
    }
    let what = match unknown.len() {
        1 => format!("unknown setting {names}"),
        count => format!("{count} unknown settings: {names}"),
    };
    Err(CliError::argument(
        "--config",
        format!(
            "--config {}: {what} for --preset {name}; known settings: {}",
            path.display(),
            fields.iter().map(|f| f.name).collect::<Vec<_>>().join(", ")
        ),
    ))
}

pub(super) fn write_file(dir: &Path, name: &str, contents: &[u8]) -> Result<PathBuf, CliError> {
    let path = dir.join(name);
    std::fs::write(&path, contents).map_err(|e| CliError::io(FileAction::Write, &path, e))?;
    Ok(path)
}

/// Creates the output directory `dir` (and its parents).
pub(super) fn create_dir(dir: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|e| CliError::io(FileAction::Create, dir, e))
}

/// A chart as SVG, at the size every written chart has.
pub(super) fn svg(spec: &crate::plot::ChartSpec) -> Result<String, CliError> {
    chart_svg(spec, 800, 500).map_err(|e| CliError::Internal(e.to_string()))
}

/// Writes a view's files and one SVG per chart (named by the chart's id)
/// into `dir`: what `sweep` and `merge` write.
pub(super) fn write_view(
    dir: &Path,
    charts: &[ChartInfo],
    view: &View,
) -> Result<Vec<PathBuf>, CliError> {
    let mut written = Vec::new();
    for file in &view.files {
        written.push(write_file(dir, file.name, file.text.as_bytes())?);
    }
    if !view.claims.is_empty() {
        let csv = scenarios::claims::claims_csv(&view.claims);
        written.push(write_file(dir, "claims.csv", csv.as_bytes())?);
    }
    for (spec, chart) in view.charts.iter().zip(charts) {
        let svg = svg(spec)?;
        written.push(write_file(
            dir,
            &format!("{}.svg", chart.id),
            svg.as_bytes(),
        )?);
    }
    Ok(written)
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
    let (preset, pairs) = preset_and_pairs(args)?;
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

    let written = write_view(&args.out, info.charts, &view)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn args_with_config(path: &Path) -> SweepArgs {
        SweepArgs {
            preset: None,
            config: Some(path.to_path_buf()),
            set: vec!["n=30".into()],
            seed: None,
            out: PathBuf::from("unused"),
            threads: None,
            shard: None,
        }
    }

    /// A hundred thousand unknown keys of a --config file: one line naming
    /// the file, their count, the first few and the known settings. The
    /// presets and settings come from the registry (any scenario will do).
    #[test]
    fn unknown_config_keys_are_counted_and_named_at_the_file() {
        let presets = scenarios::all_presets();
        let (first, last) = (presets[0].1.name, presets[presets.len() - 1].1.name);
        let (scenario, _) = scenarios::by_preset(first).unwrap();
        let fields = &scenario.info().fields;
        let known = format!("known settings: {}, {},", fields[0].name, fields[1].name);
        let dir = std::env::temp_dir().join(format!("dp-explorer-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("many.json");
        let mut object = serde_json::Map::new();
        object.insert("preset".into(), first.into());
        object.insert(fields[1].name.into(), 2.into()); // a known setting
        for i in 0..100_000 {
            object.insert(format!("k{i:06}"), 1.into());
        }
        std::fs::write(&path, serde_json::to_vec(&object).unwrap()).unwrap();
        let error = preset_and_pairs(&args_with_config(&path))
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with(&format!("--config {}: ", path.display())),
            "{error}"
        );
        assert!(
            error.contains(&format!(
                "100000 unknown settings: \"k000000\", \"k000001\", \"k000002\", \"k000003\", \
                 \"k000004\" and 99995 more for --preset {first}; {known}"
            )),
            "{error}"
        );
        assert!(error.len() < 1000 && !error.contains('\n'), "{error}");

        std::fs::write(
            &path,
            format!(r#"{{"preset": "{last}", "bogus": 1, "n": 40}}"#),
        )
        .unwrap();
        let error = preset_and_pairs(&args_with_config(&path))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(&format!("unknown setting \"bogus\" for --preset {last}")),
            "{error}"
        );
        let one_known = format!(r#"{{"preset": "{first}", "{}": 2}}"#, fields[1].name);
        std::fs::write(&path, one_known).unwrap();
        let (preset, pairs) = preset_and_pairs(&args_with_config(&path)).unwrap();
        assert_eq!(preset, first);
        assert_eq!(pairs.len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
