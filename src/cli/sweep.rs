//! `dp-explorer sweep`: runs a preset's sweep natively and writes
//! `results.csv` plus one SVG per chart, drawn by the page's chart code. The
//! preset picks the scenario: `fedrep-*` (Private FedRep) or `dpgd-*` (DP-GD
//! on random features).

use crate::experiment::dpgd_sweep::DpGdRow;
use crate::experiment::fedrep_sweep::{charts_for_config, merge_shards};
use crate::experiment::results::write_csv;
use crate::experiment::results::{AngleCurve, ResultRow};
use crate::experiment::scenario::{self, DpGdScenario, Scenario, Sweep};
use crate::experiment::{FedRepConfig, FedRepSweep};
use crate::plot::chart_svg;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct SweepArgs {
    /// Starting point; the preset picks the scenario.
    /// Private FedRep: fedrep-paper (the paper's Figure 1 setting) or
    /// fedrep-authors-code (as the public code behind the paper) or
    /// fedrep-linear-sim (FedRep's linear simulation, Collins et al.: angle over 500 rounds).
    /// DP-GD on random features: dpgd-browser (Fig. 3's shape, d = 20, n = 400),
    /// dpgd-paper (d = 100, n = 2000, p up to 16000; minutes) or dpgd-quick
    /// (d = 10, n = 100; under a second).
    #[arg(long, default_value = "fedrep-paper")]
    pub preset: String,
    /// A JSON file with config fields (applied after the preset, before --set).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Override a field, e.g. --set n=5000 --set epsilons=1,2,4 (repeatable).
    /// Private FedRep fields: n, d, k, m, epsilons, delta, rounds, step, clip,
    /// noise, seed, calibration (exact|paper|authors-code), relation
    /// (replace-one|add-remove-one), init (private|non-private|random), init_share,
    /// init_clip, init_normalization (unbiased|printed), batch (split|full|fresh),
    /// heads (gaussian|unit), local_steps, local_step, seeds (several datasets: mean and
    /// band), altmin (on|off), altmin_mode (disjoint|all-users), altmin_rounds,
    /// altmin_clip, altmin_label_clip.
    /// DP-GD fields: n, d, p_grid, n_test, epsilons, delta, calibration
    /// (prop32|exact), clip_scale (C = clip_scale·√p), time_scale (ηT = time_scale·d/p),
    /// eta_mode (inverse-p|fixed), eta, activation (tanh|sin), target (sign|linear),
    /// label_noise, seed, repeats, trace_p (none or widths), trace_epsilon,
    /// trace_time_scales, trace_eta.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// The seed (same as --set seed=S).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Output directory for results.csv and the SVG charts (Private FedRep:
    /// risk-chart.svg, angle-chart.svg, angles.csv; DP-GD: dpgd-eps-chart.svg,
    /// dpgd-width-chart.svg, dpgd-steps-chart.svg, dpgd-rescaled-chart.svg).
    #[arg(long)]
    pub out: PathBuf,
    /// Threads for a Private FedRep sweep (default: the machine's cores). Runs
    /// are shared out as in the page's worker pool; the results are the same
    /// for any number of threads.
    #[arg(long)]
    pub threads: Option<usize>,
}

fn split_pair(s: &str) -> Result<(&str, &str), String> {
    s.split_once('=')
        .map(|(k, v)| (k.trim(), v.trim()))
        .ok_or_else(|| format!("--set expects KEY=VALUE (got \"{s}\")"))
}

/// The --config file's fields, then --set, then --seed, as (key, text) pairs.
fn pairs_from_args(args: &SweepArgs) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    if let Some(path) = &args.config {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let obj = value
            .as_object()
            .ok_or_else(|| format!("{}: expected a JSON object of fields", path.display()))?;
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
            pairs.push((k.clone(), text));
        }
    }
    for s in &args.set {
        let (k, v) = split_pair(s)?;
        pairs.push((k.to_string(), v.to_string()));
    }
    if let Some(seed) = args.seed {
        pairs.push(("seed".into(), seed.to_string()));
    }
    Ok(pairs)
}

/// The config of `--preset`, `--config`, `--set` and `--seed`, parsed and
/// validated by the same code as the page's fields (every bad field at once).
pub fn fedrep_config_from_args(args: &SweepArgs) -> Result<FedRepConfig, String> {
    let pairs = pairs_from_args(args)?;
    FedRepConfig::from_pairs(
        Some(&args.preset),
        pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())),
    )
    .map_err(|errors| {
        errors
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    })
}

fn write_file(dir: &Path, name: &str, contents: &[u8]) -> Result<PathBuf, String> {
    let path = dir.join(name);
    std::fs::write(&path, contents).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// One row per (method, ε, round): the principal-angle curves.
fn angle_csv(curves: &[crate::experiment::results::AngleCurve]) -> String {
    let mut out = String::from("method,epsilon,round,principal_angle\n");
    for c in curves {
        let eps = c.epsilon.map_or("inf".to_string(), |e| format!("{e}"));
        for (t, a) in c.angles.iter().enumerate() {
            out.push_str(&format!("{},{eps},{t},{a}\n", c.method));
        }
    }
    out
}

pub fn run(args: &SweepArgs) -> Result<String, String> {
    match Scenario::of_preset(&args.preset) {
        Some(Scenario::DpGd) => run_dpgd(args),
        Some(Scenario::FedRep) => run_fedrep(args),
        None => Err(format!(
            "unknown preset \"{}\"; known presets: {}",
            args.preset.chars().take(40).collect::<String>(),
            scenario::presets()
                .iter()
                .map(|p| p.name)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Chart file names of the DP-GD scenario, in `charts()` order (the page's canvas ids).
pub const DPGD_CHART_NAMES: [&str; 4] = [
    "dpgd-eps-chart",
    "dpgd-width-chart",
    "dpgd-steps-chart",
    "dpgd-rescaled-chart",
];

fn run_dpgd(args: &SweepArgs) -> Result<String, String> {
    let pairs = pairs_from_args(args)?;
    let join = |errors: Vec<crate::experiment::ConfigError>| {
        errors
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let config = scenario::dpgd_config(
        &args.preset,
        pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())),
    )
    .map_err(join)?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let started = Instant::now();
    let mut sweep = Sweep::DpGd(Box::new(
        DpGdScenario::new(config).map_err(|e| e.to_string())?,
    ));
    sweep.run_to_end()?;
    let seconds = started.elapsed().as_secs_f64();

    let mut written = vec![write_file(
        &args.out,
        "results.csv",
        sweep.csv().as_bytes(),
    )?];
    for (spec, name) in sweep.charts().iter().zip(DPGD_CHART_NAMES) {
        let svg = chart_svg(spec, 800, 500).map_err(|e| e.to_string())?;
        written.push(write_file(
            &args.out,
            &format!("{name}.svg"),
            svg.as_bytes(),
        )?);
    }
    let Sweep::DpGd(s) = &sweep else {
        unreachable!("built as DP-GD")
    };
    let mut out = dpgd_table(&s.all_rows());
    out.push_str(&format!("sweep took {seconds:.3} s\n"));
    for p in written {
        out.push_str(&format!("wrote {}\n", p.display()));
    }
    Ok(out)
}

/// The sweep's runs shared out over `threads` threads (the shards of the page's
/// worker pool), merged in sweep order: the same rows as one thread.
fn run_fedrep_on_threads(
    config: &FedRepConfig,
    threads: usize,
) -> Result<(Vec<ResultRow>, Vec<AngleCurve>), String> {
    let parts = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|shard| {
                let config = config.clone();
                scope.spawn(move || -> Result<_, String> {
                    let mut part = FedRepSweep::new_shard(config, shard, threads)
                        .map_err(|e| e.to_string())?;
                    part.run_to_end().map_err(|e| e.to_string())?;
                    Ok((part.rows(), part.curves()))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .map_err(|_| "a sweep thread panicked".to_string())?
            })
            .collect::<Result<Vec<_>, String>>()
    })?;
    Ok(merge_shards(parts))
}

/// One line per row, grouped by width.
fn dpgd_table(rows: &[DpGdRow]) -> String {
    let mut rows: Vec<&DpGdRow> = rows.iter().collect();
    rows.sort_by(|a, b| {
        (a.method == "dp-gd-trace", a.p, a.seed).cmp(&(b.method == "dp-gd-trace", b.p, b.seed))
    });
    let opt = |x: f64, f: &dyn Fn(f64) -> String| {
        if x.is_nan() {
            "—".to_string()
        } else {
            f(x)
        }
    };
    let mut out = format!(
        "{:<12} {:>6} {:>5} {:>7} {:>10} {:>10} {:>11} {:>10} {:>10} {:>8} {:>8}\n",
        "method",
        "p",
        "ε",
        "T",
        "test loss",
        "train loss",
        "excess risk",
        "σ",
        "ε spent",
        "clipped",
        "seed"
    );
    for r in rows {
        out.push_str(&format!(
            "{:<12} {:>6} {:>5} {:>7} {:>10.4} {:>10.4} {:>11.4} {:>10} {:>10} {:>8} {:>8}\n",
            r.method,
            r.p,
            opt(r.epsilon, &|e| format!("{e}")),
            r.steps,
            r.test_loss,
            r.train_loss,
            r.excess_risk,
            if r.sigma > 0.0 {
                format!("{:.3e}", r.sigma)
            } else {
                "0".into()
            },
            opt(r.epsilon_spent, &|e| format!("{e:.4}")),
            opt(r.clipped_fraction, &|c| format!("{:.1}%", 100.0 * c)),
            r.seed
        ));
    }
    out
}

fn run_fedrep(args: &SweepArgs) -> Result<String, String> {
    let config = fedrep_config_from_args(args)?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let started = Instant::now();
    let (rows, curves) = run_fedrep_on_threads(&config, threads)?;
    let seconds = started.elapsed().as_secs_f64();

    let mut csv = Vec::new();
    write_csv(&rows, &mut csv).map_err(|e| e.to_string())?;
    let mut written = vec![write_file(&args.out, "results.csv", &csv)?];
    written.push(write_file(
        &args.out,
        "angles.csv",
        angle_csv(&curves).as_bytes(),
    )?);
    for (spec, name) in charts_for_config(&config, &rows, &curves)
        .iter()
        .zip(["risk-chart.svg", "angle-chart.svg"])
    {
        let svg = chart_svg(spec, 800, 500).map_err(|e| e.to_string())?;
        written.push(write_file(&args.out, name, svg.as_bytes())?);
    }

    let mut out = String::new();
    out.push_str(&format!(
        "{:<16} {:>6} {:>12} {:>10} {:>10} {:>10} {:>12}\n",
        "method", "ε", "excess risk", "angle", "σ", "ε spent", "clipped"
    ));
    for r in &rows {
        out.push_str(&format!(
            "{:<16} {:>6} {:>12.4e} {:>10.4} {:>10.3e} {:>10.4} {:>12.3}\n",
            r.method,
            r.epsilon.map_or("∞".to_string(), |e| format!("{e}")),
            r.excess_risk,
            r.principal_angle,
            r.sigma,
            r.epsilon_spent,
            r.clipped_fraction
        ));
    }
    out.push_str(&format!(
        "sweep took {seconds:.3} s on {threads} thread{}\n",
        if threads == 1 { "" } else { "s" }
    ));
    for p in written {
        out.push_str(&format!("wrote {}\n", p.display()));
    }
    Ok(out)
}
