//! Benchmarks shared by the native CLI (`dp-explorer bench`) and the browser
//! (`www/bench.html`): the same Rust code is timed in both, so the two numbers
//! are directly comparable. Benchmarks report numbers; tests assert behaviour.

use crate::algorithms::fedrep::FedRep;
use crate::algorithms::fedrep::FedRepParams;
use crate::algorithms::private_init::{spectral_init, spectral_statistic};
use crate::data::shared_representation::Storage;
use crate::rng::NoiseSource;
use crate::scenarios::fedrep::config::FedRepConfig;
use crate::scenarios::fedrep::plan::plan_private_fedrep;
use crate::scenarios::fedrep::run::FedRepSweep;
use crate::scenarios::field::Config;
use crate::scenarios::{self, Shard};

/// (name, what it measures).
pub const BENCHES: &[(&str, &str)] = &[
    (
        "fedrep-default-sweep",
        "the default Private FedRep sweep (paper's Figure 1 setting, every method and ε)",
    ),
    (
        "private-fedrep-run",
        "one Private FedRep run at n = 20000, d = 50, k = 2, m = 10, T = 5, ε = 1 (data, private init, rounds, final heads)",
    ),
    (
        "dpgd-browser-sweep",
        "the DP-GD browser preset (d = 20, n = 400, p up to 8000, every method and ε, loss-versus-T runs)",
    ),
    (
        "private-fedrep-run-1m",
        "one Private FedRep run at n = 10⁶, d = 50, k = 2, m = 10, T = 5, ε = 1, users regenerated on every pass",
    ),
];

/// Runs one benchmark to the end and returns a one-line summary of its result
/// (so the work cannot be optimized away and the output can be sanity-checked).
pub fn run_bench(name: &str) -> Result<String, String> {
    match name {
        "fedrep-default-sweep" => {
            let mut sweep = FedRepSweep::new(FedRepConfig::default()).map_err(|e| e.to_string())?;
            sweep.run_to_end().map_err(|e| e.to_string())?;
            let best = sweep
                .rows()
                .iter()
                .filter(|r| r.method == "private-fedrep")
                .map(|r| r.excess_risk)
                .fold(f64::INFINITY, f64::min);
            Ok(format!(
                "{} rows; best private excess risk {best:.3e}",
                sweep.rows().len()
            ))
        }
        "private-fedrep-run" => {
            let config = FedRepConfig {
                epsilons: vec![1.0],
                ..FedRepConfig::default()
            };
            Ok(format!("excess risk {:.3e}", private_fedrep_run(&config)?))
        }
        "dpgd-browser-sweep" => {
            let (_, mut run) =
                scenarios::start("dpgd-browser", &[], Shard::WHOLE).map_err(|e| {
                    e.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join("; ")
                })?;
            scenarios::run_to_end(run.as_mut()).map_err(|e| e.to_string())?;
            let lines = run.view().files[0].text.lines().count();
            Ok(format!("{lines} CSV lines"))
        }
        "private-fedrep-run-1m" => {
            let config = FedRepConfig {
                n: 1_000_000,
                epsilons: vec![1.0],
                altmin: false,
                ..FedRepConfig::default()
            };
            Ok(format!("excess risk {:.3e}", private_fedrep_run(&config)?))
        }
        other => Err(format!(
            "unknown benchmark \"{other}\"; known: {}",
            BENCHES.iter().map(|b| b.0).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// One Private FedRep run at the config's first ε: draw data, Algorithm 2,
/// T rounds of Algorithm 1, final heads. Returns the excess risk.
pub fn private_fedrep_run(config: &FedRepConfig) -> Result<f64, String> {
    config.validate().map_err(|e| e.to_string())?;
    let data = match config.storage() {
        Storage::Stored => config.model().generate(),
        Storage::Streamed => config.model().streamed(),
    };
    let plan = plan_private_fedrep(config, config.epsilons[0]).map_err(|e| e.to_string())?;
    let stat = spectral_statistic(&data, Some(config.init_clip), config.init_normalization);
    let mut rng = NoiseSource::new(config.seed).release(u64::MAX);
    let u0 = spectral_init(&stat, plan.init_sigma.unwrap_or(0.0), config.k, &mut rng);
    let params = FedRepParams {
        rounds: config.rounds,
        step: config.step,
        clip: Some(config.clip),
        sigma: plan.sigma,
        batch: config.batch,
    };
    let mut run = FedRep::new(&data, u0, params, config.seed);
    while !run.is_done() {
        run.step(&data);
    }
    Ok(run.finish(&data).excess_risk)
}
