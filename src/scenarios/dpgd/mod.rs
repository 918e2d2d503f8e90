//! DP-GD on random features (Bombari & Mondelli, "Privacy for Free in the
//! Overparameterized Regime"): noisy clipped gradient descent on a random
//! features model, private at the level of training samples; as the width p
//! grows past n, DP-GD does not get worse.
//!
//! - [`config`]: the settings (field table, presets, checks);
//! - [`plan`]: what a run releases, its σ and its report;
//! - [`run`]: the sweep as a step-wise state machine, rows and CSV;
//! - [`charts`]: the four charts.

pub mod audit;
pub mod charts;
mod checks;
pub mod claims;
pub mod config;
pub mod cost;
pub mod plan;
pub mod round;
mod rows;
pub mod run;

use self::config::{DpGdCalibration, DpGdConfig, PRESETS};
use self::plan::{dpgd_epsilon_spent, dpgd_report, dpgd_sigma};
use self::run::{write_csv, DpGdRow, DpGdSweep, Method};
use crate::plot::ChartSpec;
use crate::privacy::report::{fmt_eps, fmt_num};
use crate::privacy::PrivacyReport;
use crate::scenarios::explain::{attacker_reading, ExplainEntry};
use crate::scenarios::prelude::*;
use crate::scenarios::table::{cell, Table};

/// The scenario (the registry lists it).
pub struct DpGd;

const CHARTS: &[ChartInfo] = &[
    ChartInfo {
        id: "dpgd-eps-chart",
        name: "loss versus ε chart",
        alt: "Test loss of DP-GD versus epsilon for a few widths; the same numbers are in the table below",
        caption: "Test loss of DP-GD versus ε for a few widths p. From p = n/2 up the loss falls as ε grows (less noise); far \
                  below n it is mostly the small model's bias and moves little. Compare each curve with “predict 0”, the \
                  trivial baseline: a private run below it has learned something despite the noise. All four presets use \
                  δ = 1/n, the paper's choice: at that δ a release that published one training sample at random would meet \
                  the guarantee, so read these ε as a comparison between runs, not as strong privacy (δ well below 1/n is \
                  the usual rule).",
        toggle: None,
        animate: false,
        claims: &["dpgd-loss-falls-with-eps", "dpgd-below-predict-0"],
    },
    ChartInfo {
        id: "dpgd-width-chart",
        name: "loss versus width chart",
        alt: "Test loss versus width p for the minimum-norm solution, plain GD and DP-GD at each epsilon; the same numbers are in the table below",
        caption: "Test loss (mean squared error on fresh samples) versus the width p, log–log. The dashed θ* = Φ⁺Y is the \
                  non-private interpolator; the solid lines are DP-GD, one per ε. θ* peaks at p = n (double descent); \
                  the paper's claim is that DP-GD does not get worse as p grows past n.",
        toggle: None,
        animate: false,
        claims: &["dpgd-double-descent", "dpgd-no-worse-past-n"],
    },
    ChartInfo {
        id: "dpgd-steps-chart",
        name: "loss versus T chart",
        alt: "Test loss of DP-GD versus the number of steps T, one curve per traced width; the same numbers are in the table below",
        caption: "Test loss versus the number of steps T at a fixed ε (each point a separate run, its noise calibrated \
                  for its own T). Too few steps underfit, too many add noise.",
        toggle: None,
        animate: false,
        claims: &["dpgd-best-t-inside"],
    },
    ChartInfo {
        id: "dpgd-rescaled-chart",
        name: "loss versus ηTp/d chart",
        alt: "The same test losses versus eta times T times p over d; the same numbers are in the table below",
        caption: "The same runs against the rescaled time ηT·p/d. If the right training time scales like d/p, the \
                  curves for different p reach their best loss at about the same rescaled time.",
        toggle: None,
        animate: false,
        claims: &["dpgd-rescaled-minima-line-up"],
    },
];

/// A short lesson: privacy for free as p grows, and the training time.
const LESSON: &[LessonStep] = &[
    LessonStep {
        title: "Privacy per training sample",
        text: "Here the unit of privacy is one training sample: DP-GD clips each sample's gradient and adds Gaussian noise \
               at every step. Run the quick preset and read “Explain ε”.",
        preset: "dpgd-quick",
        settings: &[],
        claims: &["dpgd-spent-within-target", "dpgd-loss-falls-with-eps"],
    },
    LessonStep {
        title: "Wider models",
        text: "The loss-versus-width chart shows the non-private interpolator θ* peaking where p = n (double descent), \
               and DP-GD at each ε (the mean of three seeds, with their band). The paper's claim: DP-GD does not get worse as p \
               grows past n. Check it on the chart.",
        preset: "dpgd-browser",
        // Three seeds: one seed's loss past n is noisy (1.56× at seed 2).
        settings: &[("seeds", "3")],
        claims: &["dpgd-double-descent", "dpgd-no-worse-past-n"],
    },
    LessonStep {
        title: "How long to train",
        text: "Each point of the loss-versus-T chart is a separate run with its noise calibrated for its own T: too few \
               steps underfit, too many add noise.",
        preset: "dpgd-browser",
        settings: &[],
        claims: &["dpgd-best-t-inside", "dpgd-rescaled-minima-line-up"],
    },
];

/// Who one unit of privacy is in this scenario: one training sample (xᵢ, yᵢ).
const UNIT: &str = "training sample";

/// The finished rows of a run and their reports: what a part holds. A job is
/// a (seed, width) group, numbered by its rows' `order`.
#[derive(Default, Serialize, Deserialize)]
pub struct Part {
    rows: Vec<DpGdRow>,
    trace: Vec<DpGdRow>,
    reports: Vec<Option<PrivacyReport>>,
    trace_reports: Vec<Option<PrivacyReport>>,
}

impl Experiment for DpGd {
    type Sweep = DpGdRun;

    const ABOUT: About = About {
        id: "dpgd",
        title: "DP-GD on random features",
        lede: "DP-GD on random features (Bombari & Mondelli, “Privacy for free in the overparameterized regime”): noisy clipped \
               gradient descent on a random-features model, private at the level of training samples. The paper's claim: as the \
               width p grows past n, DP-GD does not get worse.",
        look_at: "Watch the loss versus width chart: the non-private interpolator peaks where the width p equals n, while DP-GD at each ε does not get worse as p grows past n. \
                  The loss versus ε chart shows the price of privacy: the loss falls as ε grows, and a run below “predict 0” has learned something despite the noise.",
        source: "Bombari, Mondelli, Privacy for Free in the Overparameterized Regime",
        unit: UNIT,
        presets: PRESETS,
        charts: CHARTS,
        lesson: LESSON,
        claims: claims::CLAIMS,
        metrics: &["test_loss", "train_loss", "excess_risk"],
        test_size: TestSize {
            preset: "dpgd-quick",
            settings: &[("n", "20"), ("p_grid", "5,10,20"), ("trace_p", "none")],
        },
    };
    // Its sweep shares (seed, width) jobs between workers.
    const SPLITS: bool = true;
    const ROUND: Option<RoundFn<DpGdConfig>> = Some(round::round_of);
    const AUDIT: Option<AuditFn<DpGdConfig>> = Some(audit::dpgd_audit_targets);

    fn start(config: Checked<DpGdConfig>, shard: Shard) -> Result<DpGdRun, Vec<ConfigError>> {
        DpGdRun::new(config, shard).map_err(|e| vec![e])
    }

    fn view(c: &DpGdConfig, part: &Part) -> View {
        let Part {
            rows,
            trace,
            reports,
            trace_reports,
        } = part;
        let all: Vec<DpGdRow> = [&rows[..], trace].concat();
        let charts = charts_for_config(c, &all);
        let private: Vec<(&DpGdRow, &PrivacyReport)> = rows
            .iter()
            .zip(reports)
            .chain(trace.iter().zip(trace_reports))
            .filter_map(|(r, p)| p.as_ref().map(|p| (r, p)))
            .collect();
        let mut csv = Vec::new();
        // Writing to memory cannot fail.
        let _ = write_csv(&all, &mut csv);
        let files = vec![OutputFile::results(
            String::from_utf8_lossy(&csv).into_owned(),
        )];
        View::of_charts(charts, privacy_entries(&private, c.n), files, summary(&all))
    }

    fn worker_peak_bytes(config: &DpGdConfig) -> f64 {
        crate::scenarios::workers::WORKER_BASE_BYTES + cost::width_peak_bytes(config)
    }

    fn estimated_seconds(config: &DpGdConfig, machine: &Machine) -> f64 {
        machine.seconds(0.0, cost::sweep_seconds(config, &cost::NATIVE))
    }

    fn estimated_wasm_seconds(config: &DpGdConfig, machine: &Machine) -> f64 {
        machine.seconds(
            0.0,
            cost::sweep_seconds(config, &cost::WASM) * cost::PAGE_FACTOR,
        )
    }

    fn estimated_thread_seconds(config: &DpGdConfig, threads: usize, machine: &Machine) -> f64 {
        machine.seconds(0.0, cost::native_thread_seconds(config, threads))
    }

    fn estimated_worker_seconds(config: &DpGdConfig, workers: usize, machine: &Machine) -> f64 {
        machine.seconds(
            0.0,
            cost::busiest_worker_seconds(config, workers, &cost::WASM),
        )
    }

    /// The sweep's (seed, width) groups, seed-major, as the rows' `order` numbers them.
    fn plan(config: &DpGdConfig) -> Plan<'_> {
        let widths = config.p_grid.len().max(1);
        let fields = config.to_fields();
        Plan::new("dpgd", &fields, widths * config.repeats, move |group| {
            let seed = config.seed.wrapping_add((group / widths) as u64);
            match config.p_grid.get(group % widths) {
                Some(p) => format!("seed {seed}, width p = {p}"),
                None => format!("seed {seed}"),
            }
        })
    }

    fn finished_jobs(part: &Part) -> Vec<usize> {
        part.rows
            .iter()
            .chain(&part.trace)
            .map(|r| r.order)
            .collect()
    }

    /// Each shard's rows are in sweep order; a stable sort by their (seed,
    /// width) group interleaves the shards into exactly one run's.
    fn combine(parts: Vec<Part>) -> Part {
        let mut rows = Vec::new();
        let mut trace = Vec::new();
        for p in parts {
            rows.extend(p.rows.into_iter().zip(p.reports));
            trace.extend(p.trace.into_iter().zip(p.trace_reports));
        }
        rows.sort_by_key(|(r, _)| r.order);
        trace.sort_by_key(|(r, _)| r.order);
        let (rows, reports) = rows.into_iter().unzip();
        let (trace, trace_reports) = trace.into_iter().unzip();
        Part {
            rows,
            trace,
            reports,
            trace_reports,
        }
    }
}

/// The four charts, with x ranges from the config so that empty charts have axes.
fn charts_for_config(c: &DpGdConfig, rows: &[DpGdRow]) -> Vec<ChartSpec> {
    let mut charts = charts::charts(rows);
    let range = |v: &mut dyn Iterator<Item = f64>| {
        v.fold(None, |acc: Option<(f64, f64)>, x| {
            Some(acc.map_or((x, x), |(a, b)| (a.min(x), b.max(x))))
        })
    };
    let steps = c.trace_p.iter().flat_map(|&p| {
        c.trace_time_scales
            .iter()
            .map(move |&ts| c.trace_schedule(p, ts).1 as f64)
    });
    let hints = [
        range(&mut c.target.epsilons.iter().copied()),
        range(&mut c.p_grid.iter().map(|&p| p as f64)),
        range(&mut steps.into_iter()),
        range(&mut c.trace_time_scales.iter().copied()),
    ];
    for (chart, hint) in charts.iter_mut().zip(hints) {
        chart.x_hint = hint;
    }
    charts
}

/// One explain-ε entry per target ε (a row per width): one mechanism and
/// relation, σ and the ε actually spent per run.
fn privacy_entries(rows: &[(&DpGdRow, &PrivacyReport)], n: usize) -> Vec<ExplainEntry> {
    // (method, target ε, its runs), in order of first appearance.
    type Group<'a> = (Method, f64, Vec<(&'a DpGdRow, &'a PrivacyReport)>);
    let mut groups: Vec<Group> = Vec::new();
    for &(r, p) in rows {
        match groups
            .iter_mut()
            .find(|g| g.0 == r.method && g.1 == p.epsilon_target)
        {
            Some(g) => g.2.push((r, p)),
            None => groups.push((r.method, p.epsilon_target, vec![(r, p)])),
        }
    }
    groups
        .into_iter()
        .map(|(method, _, runs)| {
            let p = runs[0].1;
            let spent: Vec<f64> = runs.iter().map(|(_, q)| q.epsilon_exact).collect();
            let lo = spent.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = spent.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let spends = if fmt_eps(lo) == fmt_eps(hi) {
                format!("each spend ε = {}", fmt_eps(hi))
            } else {
                format!("spend ε = {} to {}", fmt_eps(lo), fmt_eps(hi))
            };
            let stage = &p.stages[0];
            let mut table = Table::new(
                "Each run (width p): its noise and the ε it spends, per accountant",
                &["p", "sensitivity s", "σ", "σ/s", "releases", "ε exact", "ε RDP", "ε zCDP"],
            );
            for (r, q) in &runs {
                let st = &q.stages[0];
                table.push(vec![
                    r.p.to_string(),
                    cell(st.sensitivity),
                    cell(st.sigma),
                    cell(st.sigma / st.sensitivity),
                    st.steps.to_string(),
                    fmt_eps(q.epsilon_exact),
                    fmt_eps(q.epsilon_rdp),
                    fmt_eps(q.epsilon_zcdp),
                ]);
            }
            ExplainEntry {
                summary: format!(
                    "{}, target ε = {}: {} runs {spends} at δ = {} ({} calibration)",
                    method.label(),
                    fmt_num(p.epsilon_target),
                    runs.len(),
                    fmt_num(p.delta),
                    p.calibration.name()
                ),
                paragraphs: [
                    format!(
                        "Mechanism: {}; neighbouring relation: {}; sensitivity s = 2C/n of the mean gradient; {} releases per run.",
                        stage.mechanism,
                        p.relation.name(),
                        stage.steps
                    ),
                    path_sentence(runs.iter().map(|(r, _)| *r)),
                    crate::scenarios::explain::calibration_words(p),
                ]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect(),
                tables: vec![table],
                notes: p.notes.clone(),
                reading: Some(p.plain_language_among(UNIT, n)),
                attacker: Some(attacker_reading(p, UNIT, n)),
                release: Some(crate::scenarios::statement::Release {
                    who: method.label().to_string(),
                    unit: UNIT.into(),
                    n,
                    reports: runs.iter().map(|(_, q)| (*q).clone()).collect(),
                }),
            }
        })
        .collect()
}

/// The widths of these rows simulated on the kernel path and on the direct
/// path, each in order of first appearance: what the explain-ε entry and the
/// CLI's summary both say of the path.
fn widths_by_path<'a>(rows: impl Iterator<Item = &'a DpGdRow>) -> (Vec<usize>, Vec<usize>) {
    let mut kernel: Vec<usize> = Vec::new();
    let mut direct: Vec<usize> = Vec::new();
    for r in rows {
        let list = if r.path == "kernel" {
            &mut kernel
        } else {
            &mut direct
        };
        if !list.contains(&r.p) {
            list.push(r.p);
        }
    }
    (kernel, direct)
}

/// Widths in words: "10, 200, 2000".
fn widths(v: &[usize]) -> String {
    v.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Which path simulated these rows, in words ("" when all are direct).
fn path_sentence<'a>(rows: impl Iterator<Item = &'a DpGdRow>) -> String {
    let (kernel, direct) = widths_by_path(rows);
    if kernel.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "Simulated on the kernel path at p = {}: the same algorithm drawn exactly in distribution through K = ΦΦᵀ in n dimensions (the released noisy steps are the same mechanism, so the accounting is unchanged).",
        widths(&kernel)
    );
    if !direct.is_empty() {
        out.push_str(&format!(
            " Direct path (θ in R^p) at p = {}.",
            widths(&direct)
        ));
    }
    out
}

/// The CLI's table: one line per row, grouped by width.
fn summary(rows: &[DpGdRow]) -> String {
    let mut rows: Vec<&DpGdRow> = rows.iter().collect();
    rows.sort_by(|a, b| {
        let trace = |r: &DpGdRow| r.method == Method::DpGdTrace;
        (trace(a), a.p, a.seed).cmp(&(trace(b), b.p, b.seed))
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
    for r in &rows {
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
    let (kernel, direct) = widths_by_path(rows.iter().copied());
    if !kernel.is_empty() {
        out.push_str(&format!(
            "path: kernel (n-dimensional, exact in distribution) at p = {}",
            widths(&kernel)
        ));
        if !direct.is_empty() {
            out.push_str(&format!("; direct at p = {}", widths(&direct)));
        }
        out.push('\n');
    } else if !direct.is_empty() {
        out.push_str("path: direct (θ in R^p) at every width\n");
    }
    out
}

/// A DP-GD sweep with its σ from the accountant and its reports cached.
pub struct DpGdRun {
    sweep: DpGdSweep,
    /// One entry per `sweep.rows()` / `sweep.trace()` row, filled as rows finish.
    reports: Vec<Option<PrivacyReport>>,
    trace_reports: Vec<Option<PrivacyReport>>,
}

impl DpGdRun {
    fn new(config: Checked<DpGdConfig>, shard: Shard) -> Result<Self, ConfigError> {
        let sweep = DpGdSweep::with_epsilon_spent(config, dpgd_sigma, dpgd_epsilon_spent, shard)?;
        Ok(DpGdRun {
            sweep,
            reports: Vec::new(),
            trace_reports: Vec::new(),
        })
    }

    /// Reports of rows that finished since the last call.
    fn update_reports(&mut self) -> Result<(), RunError> {
        let c = self.sweep.config();
        let (n, cal): (usize, DpGdCalibration) = (c.n, c.calibration);
        for (rows, reports) in [
            (self.sweep.rows(), &mut self.reports),
            (self.sweep.trace(), &mut self.trace_reports),
        ] {
            for row in &rows[reports.len()..] {
                if !(row.test_loss.is_finite() && row.train_loss.is_finite()) {
                    let (field, advice) = if row.sigma > 0.0 {
                        ("clip_scale", "a large clip scales the noise up: try 0.5")
                    } else {
                        ("eta", "the step overshoots: lower eta or the time scale")
                    };
                    return Err(RunError::Diverged {
                        method: format!("{} at p = {}", row.method, row.p),
                        what: "its loss is no longer a finite number".into(),
                        field: field.into(),
                        advice: advice.into(),
                    });
                }
                let mut report = dpgd_report(row, n, cal).transpose().map_err(|source| {
                    RunError::AccountingAt {
                        context: format!("accounting DP-GD at p = {}", row.p),
                        source,
                    }
                })?;
                if let Some(r) = report.as_mut().filter(|_| row.method == Method::DpGd) {
                    c.risk_target().mark(r, row.epsilon);
                }
                reports.push(report);
            }
        }
        Ok(())
    }
}

impl Sweep for DpGdRun {
    type Config = DpGdConfig;
    type Part = Part;
    fn config(&self) -> &DpGdConfig {
        self.sweep.config()
    }
    fn part(&self) -> Part {
        Part {
            rows: self.sweep.rows().to_vec(),
            trace: self.sweep.trace().to_vec(),
            reports: self.reports.clone(),
            trace_reports: self.trace_reports.clone(),
        }
    }
    fn is_done(&self) -> bool {
        self.sweep.is_done()
    }
    /// A step of the sweep, then the reports of the rows it finished.
    fn step(&mut self) -> Result<bool, RunError> {
        let done = self.sweep.step();
        self.update_reports()?;
        Ok(done)
    }
    fn phase(&self) -> String {
        self.sweep.phase_label()
    }
    /// (steps taken, steps planned) over every width and run.
    fn progress(&self) -> (usize, usize) {
        self.sweep.progress()
    }
}
