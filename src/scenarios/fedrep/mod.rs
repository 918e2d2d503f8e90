//! Private FedRep (Snedeker, Zhou & Bassily, ICML 2025): personalized
//! federated learning with a shared representation, private at the level of
//! users (Algorithm 1 with the private initialization of Algorithm 2),
//! against non-private FedRep, local GD and Priv-AltMin (Jain et al. 2021).
//!
//! - [`config`]: the settings (field table, presets, checks);
//! - [`plan`]: what each private run releases and its σ's;
//! - [`run`]: the sweep as a step-wise state machine, split over workers;
//! - [`charts`], [`guides`]: the two charts and their tables;
//! - [`results`]: result rows and CSV.

pub mod audit;
pub mod charts;
mod checks;
pub mod claims;
pub mod config;
pub mod cost;
mod fields;
pub mod guides;
mod jobs;
pub mod method;
pub mod plan;
pub mod results;
pub mod run;

use self::charts::{angle_table, charts_for_config, risk_table};
use self::config::{FedRepConfig, PRESETS};
use self::results::{angle_csv, csv_string, AngleCurve, ResultRow};
use self::run::{merge_shards, FedRepSweep};
use crate::scenarios::prelude::*;
use crate::scenarios::{fnv1a64, FNV_START};

/// The scenario (the registry lists it).
pub struct FedRep;

const CHARTS: &[ChartInfo] = &[
    ChartInfo {
        id: "risk-chart",
        name: "risk chart",
        alt: "Excess population risk versus epsilon; the same numbers are in the table below",
        caption: "Excess population risk (mean over users, closed form) versus ε. The dashed lines are the non-private references. \
                  Notice: more privacy (smaller ε) means more noise and a larger risk; as ε grows, Private FedRep approaches non-private FedRep. \
                  The dotted theory guide is the shape Theorem 10 predicts, A/(nε)² + floor: the floor is non-private FedRep's risk and the one constant A \
                  is fitted to the finished Private FedRep points (least squares of the logarithms); if the points follow it, the privacy cost falls like 1/ε². \
                  The table's “clipped users” is a diagnostic computed from the data without noise: ε does not cover it.",
        toggle: Some(("theory guide", "theory guide A/(nε)² + floor")),
        animate: false,
        claims: &[
            "fedrep-risk-falls-with-eps",
            "fedrep-approaches-non-private",
            "fedrep-authors-code-overspends",
        ],
    },
    ChartInfo {
        id: "angle-chart",
        name: "angle chart",
        alt: "Principal angle between the learned and the true representation over rounds; the same numbers are in the table below",
        caption: "Distance between the learned representation U_t and the truth U* (sine of the largest principal angle) after each round. \
                  Solid lines: Private FedRep, one colour per ε; dotted lines in the same colour: Priv-AltMin at that ε; dashed: non-private FedRep. \
                  With less privacy budget, the noise leaves a run further from U*. With many rounds (the linear-simulation preset) each curve \
                  falls geometrically and then stays at a floor: the non-private one at the label noise's level, the private ones where each \
                  round's noise balances the progress, higher for smaller ε.",
        toggle: None,
        animate: true,
        claims: &["fedrep-angle-larger-for-smaller-eps"],
    },
];

/// A short lesson: what ε is, the trade-off, how more users make privacy
/// cheaper, what clipping does. Each step states claims the page checks on
/// the run (`claims.rs`).
const LESSON: &[LessonStep] = &[
    LessonStep {
        title: "What ε is",
        text: "Each private run adds Gaussian noise to what it releases, enough that one user's data changes the chance of \
               any outcome by at most a factor e^ε (plus a small δ). Run the paper's setting and open “Explain ε”: it shows \
               the noise σ each run adds and the ε it spends.",
        preset: "fedrep-paper",
        settings: &[],
        claims: &["fedrep-spent-within-target"],
    },
    LessonStep {
        title: "The trade-off",
        text: "Smaller ε means more noise and a larger risk. On the risk chart, Private FedRep's curve falls as ε grows \
               towards the dashed non-private FedRep line. Try one ε with the slider under the ε values.",
        preset: "fedrep-paper",
        settings: &[("epsilons", "0.5,1,2,4,8,16")],
        claims: &["fedrep-risk-falls-with-eps", "fedrep-approaches-non-private"],
    },
    LessonStep {
        title: "More users make privacy cheaper",
        text: "The noise is added to an average over n users, so each user's influence is 1/n: with 5 times fewer users the \
               same ε costs much more risk. At n = 4000 Private FedRep stays far above non-private FedRep at every ε. Pin \
               this run for the next step.",
        preset: "fedrep-paper",
        settings: &[("n", "4000"), ("altmin", "off")],
        claims: &["fedrep-far-at-every-eps", "fedrep-risk-falls-with-eps"],
    },
    LessonStep {
        title: "Back to 20000 users",
        text: "The same settings with n = 20000: each user's influence is 5 times smaller, so is the noise, and at the \
               largest ε Private FedRep now comes within 100 times the non-private line. Compare with the pinned run at \
               n = 4000.",
        preset: "fedrep-paper",
        settings: &[("n", "20000"), ("altmin", "off")],
        claims: &["fedrep-close-with-many-users", "fedrep-risk-falls-with-eps"],
    },
    LessonStep {
        title: "What clipping does",
        text: "Each user's gradient is clipped to norm ψ, which bounds the sensitivity 2ψ/n: σ grows in proportion to ψ. \
               The paper's ψ = 10 is far above every gradient here, so it clips no one and only adds noise. With ψ = 1 \
               still no user is clipped (see “clipped users” in the table), σ is 10 times smaller and the risk at each ε \
               much lower: pin this run, then try ψ = 10 to compare.",
        preset: "fedrep-paper",
        settings: &[("clip", "1"), ("altmin", "off")],
        claims: &["fedrep-no-user-clipped", "fedrep-risk-falls-with-eps"],
    },
    LessonStep {
        title: "Clipping too hard",
        text: "With ψ = 0.01 nearly every user's gradient is clipped: each step is shortened, and the run is biased, not \
               only noisier. Even non-private FedRep, clipped at the same ψ as the paper does, no longer reaches the \
               accuracy it had at ψ = 1 (compare with the pinned run). The share of clipped users is a diagnostic of the \
               data computed without noise: ε does not cover it, and a real deployment would not publish it.",
        preset: "fedrep-paper",
        settings: &[("clip", "0.01"), ("altmin", "off")],
        claims: &["fedrep-nearly-every-user-clipped", "fedrep-risk-falls-with-eps"],
    },
];

/// The finished rows and curves of one worker: what a part holds. A job is a
/// run, numbered by its `order` in the sweep.
pub type Part = RowsAndCurves<Vec<ResultRow>, AngleCurve>;

impl Experiment for FedRep {
    type Sweep = FedRepSweep;

    const ABOUT: About = About {
        id: "fedrep",
        title: "Private FedRep",
        lede: "Private FedRep (Snedeker, Zhou & Bassily, ICML 2025): personalized federated learning with a shared representation, \
               private at the level of users, against Priv-AltMin (Jain et al., NeurIPS 2021).",
        look_at: "Watch the risk chart: each private curve falls as ε grows, towards the dashed non-private FedRep line, because a smaller ε means more noise. \
                  Move the slider under the ε values to read the risk at one ε, and open “Explain ε” for what that ε lets an attacker learn about one user.",
        source: "Snedeker, Zhou, Bassily, Private Model Personalization Revisited (ICML 2025)",
        unit: "user",
        presets: PRESETS,
        charts: CHARTS,
        lesson: LESSON,
        claims: claims::CLAIMS,
        metrics: &["excess_risk", "mse"],
        test_size: TestSize {
            preset: "fedrep-paper",
            settings: &[("n", "200"), ("d", "10"), ("k", "2"), ("m", "10"), ("rounds", "3"),
                ("local_steps", "3"), ("altmin_rounds", "2")],
        },
    };
    // Its sweep shares runs between workers, or each run's users where few
    // large runs would leave workers idle (`cost::split_by_users`).
    const SPLITS: bool = true;
    const USER_SPLIT: bool = true;
    const ROUND: Option<RoundFn<FedRepConfig>> = Some(run::round::round_of);
    const AUDIT: Option<AuditFn<FedRepConfig>> = Some(audit::fedrep_audit_targets);
    const AUDIT_SIZE: Option<AuditSizeBy<FedRepConfig>> = Some(audit::AUDIT_SIZE);

    fn start(config: Checked<FedRepConfig>, shard: Shard) -> Result<FedRepSweep, Vec<ConfigError>> {
        FedRepSweep::new_shard(config, shard).map_err(|e| vec![e])
    }

    fn start_user_split(
        config: Checked<FedRepConfig>,
        share: Shard,
    ) -> Result<FedRepSweep, Vec<ConfigError>> {
        FedRepSweep::new_user_split(config, share).map_err(|e| vec![e])
    }

    fn split_by_users(config: &FedRepConfig, workers: usize) -> bool {
        cost::split_by_users(config, workers)
    }

    fn view(config: &FedRepConfig, part: &Part) -> View {
        let Part { rows, curves } = part;
        View {
            charts: charts_for_config(config, rows, curves),
            tables: vec![risk_table(rows), angle_table(curves)],
            settings: Vec::new(),
            privacy: rows
                .iter()
                .filter_map(|r| {
                    r.privacy
                        .as_ref()
                        .map(|p| run_entry(r.method.label(), p, "user", config.n))
                })
                .collect(),
            files: vec![
                OutputFile::results(csv_string(rows)),
                OutputFile {
                    name: "angles.csv",
                    text: angle_csv(curves),
                },
            ],
            claims: Vec::new(),
            summary: summary(rows),
            risk_axis: Vec::new(),
            by_epsilon: Vec::new(),
        }
    }

    fn worker_peak_bytes(config: &FedRepConfig) -> f64 {
        crate::scenarios::workers::WORKER_BASE_BYTES + config.memory_bytes() as f64
    }

    fn estimated_seconds(config: &FedRepConfig, machine: &Machine) -> f64 {
        machine.seconds(cost::sweep_seconds(config), 0.0)
    }

    fn estimated_wasm_seconds(config: &FedRepConfig, machine: &Machine) -> f64 {
        machine.seconds(cost::sweep_seconds(config) * cost::PAGE_FACTOR, 0.0)
    }

    fn estimated_thread_seconds(config: &FedRepConfig, threads: usize, machine: &Machine) -> f64 {
        let work = cost::busiest_worker_work(config, threads);
        machine.seconds(work * cost::SECONDS_PER_GFLOP * 1e-9, 0.0)
    }

    fn estimated_worker_seconds(config: &FedRepConfig, workers: usize, machine: &Machine) -> f64 {
        let work = cost::busiest_worker_work(config, workers);
        machine.seconds(
            work * cost::SECONDS_PER_GFLOP * 1e-9 * cost::PAGE_FACTOR,
            0.0,
        )
    }

    fn page_overhead_seconds(config: &FedRepConfig) -> f64 {
        cost::page_overhead_seconds(config)
    }

    /// The sweep's runs (seed-major, then the runs of one seed), as
    /// [`run::FedRepSweep`] numbers them in `order`.
    fn plan(config: &FedRepConfig) -> Plan<'_> {
        let per_seed = run::jobs_of_one_seed(config);
        let jobs = per_seed.len() * config.seeds;
        let fields = config.to_fields();
        Plan::new("fedrep", &fields, jobs, move |order| {
            let job = &per_seed[order % per_seed.len()];
            let seed = config.seed.wrapping_add((order / per_seed.len()) as u64);
            let eps = |i: usize| config.target.epsilons.get(i).copied().unwrap_or(f64::NAN);
            let what = match job {
                run::Job::FedRepReference => "FedRep (non-private)".to_string(),
                run::Job::LocalGd => "local GD (non-private)".to_string(),
                run::Job::PrivateFedRep { epsilon_index } => {
                    format!("Private FedRep at ε = {}", eps(*epsilon_index))
                }
                run::Job::PrivAltMin { epsilon_index } => {
                    format!("Priv-AltMin at ε = {}", eps(*epsilon_index))
                }
            };
            format!("seed {seed}, {what}")
        })
    }

    /// A run's numbers depend on every setting but the ε list (and the risks
    /// that derive it), on its seed, and on its own ε, the risk it stands for
    /// and that ε's place in the list (its noise seed, `run::runs`
    /// `job_seed`): appending an ε or a risk keeps every earlier run's key.
    fn job_key(config: &FedRepConfig, order: usize) -> Option<u64> {
        let per_seed = run::jobs_of_one_seed(config);
        let job = per_seed.get(order % per_seed.len().max(1))?;
        let mut hash = fnv1a64(FNV_START, b"fedrep job\0");
        for (name, value) in config.to_fields() {
            if name != "epsilons" && name != "risks" {
                hash = fnv1a64(hash, name.as_bytes());
                hash = fnv1a64(hash, b"=");
                hash = fnv1a64(hash, value.as_bytes());
                hash = fnv1a64(hash, b"\0");
            }
        }
        let seed = (order / per_seed.len()) as u64;
        let (kind, epsilon): (u64, Option<usize>) = match job {
            run::Job::FedRepReference => (1, None),
            run::Job::LocalGd => (2, None),
            run::Job::PrivateFedRep { epsilon_index } => (3, Some(*epsilon_index)),
            run::Job::PrivAltMin { epsilon_index } => (4, Some(*epsilon_index)),
        };
        hash = fnv1a64(hash, &seed.to_le_bytes());
        hash = fnv1a64(hash, &kind.to_le_bytes());
        if let Some(i) = epsilon {
            hash = fnv1a64(hash, &(i as u64).to_le_bytes());
            let eps = config.target.epsilons[i];
            hash = fnv1a64(hash, &eps.to_bits().to_le_bytes());
            // A risk's σ comes from its μ, not from its ε's: never another run's.
            let risk = config
                .risk_target()
                .risk_at(eps)
                .map_or(0, |r| r.tpr.to_bits());
            hash = fnv1a64(hash, &risk.to_le_bytes());
        }
        Some(hash)
    }

    fn renumber(part: Part, renumber: &dyn Fn(usize) -> Option<usize>) -> Part {
        let rows = part
            .rows
            .into_iter()
            .filter_map(|r| renumber(r.order).map(|order| ResultRow { order, ..r }))
            .collect();
        let curves = part
            .curves
            .into_iter()
            .filter_map(|c| renumber(c.order).map(|order| AngleCurve { order, ..c }))
            .collect();
        let (rows, curves) = merge_shards([(rows, curves)]);
        Part { rows, curves }
    }

    fn start_skipping(
        config: Checked<FedRepConfig>,
        shard: Shard,
        skip: &[usize],
    ) -> Result<FedRepSweep, Vec<ConfigError>> {
        FedRepSweep::new_shard_skipping(config, shard, skip).map_err(|e| vec![e])
    }

    fn finished_jobs(part: &Part) -> Vec<usize> {
        part.rows.iter().map(|r| r.order).collect()
    }

    /// A finished run has its row and (but local GD) its curve.
    fn row_jobs(part: &Part) -> Vec<usize> {
        let curves = part.curves.iter().map(|c| c.order);
        Self::finished_jobs(part)
            .into_iter()
            .chain(curves)
            .collect()
    }

    fn combine(parts: Vec<Part>) -> Part {
        let (rows, curves) = merge_shards(parts.into_iter().map(|p| (p.rows, p.curves)));
        Part { rows, curves }
    }
}

/// The CLI's table of the rows.
fn summary(rows: &[ResultRow]) -> String {
    let mut out = format!(
        "{:<16} {:>6} {:>12} {:>10} {:>10} {:>10} {:>12}\n",
        "method", "ε", "excess risk", "angle", "σ", "ε spent", "clipped"
    );
    for r in rows {
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
    out
}
