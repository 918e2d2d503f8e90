//! Benchmarks shared by the native CLI (`dp-explorer bench`) and the browser
//! (`www/bench.html`): the same Rust code is timed in both, so the two numbers
//! are directly comparable. Benchmarks report numbers; tests assert behaviour.

use crate::algorithms::fedrep::FedRep;
use crate::algorithms::fedrep::FedRepParams;
use crate::algorithms::private_init::{spectral_init, spectral_statistic};
use crate::data::shared_representation::Storage;
use crate::privacy::AccountingError;
use crate::rng::NoiseSource;
use crate::scenarios::fedrep::config::FedRepConfig;
use crate::scenarios::fedrep::method::Method;
use crate::scenarios::fedrep::plan::plan_private_fedrep;
use crate::scenarios::fedrep::run::FedRepSweep;
use crate::scenarios::field::{Config, PrivacyTarget};
use crate::scenarios::{self, Checked, ConfigError, RunError, Shard};

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
    (
        "dpgd-paper-cell",
        "one cell of the paper's Fig. 3 grid: d = 100, n = 2000, n_test = 1000, p = 4000, ε = 4, T = 500 (θ*, GD and DP-GD; scripts/dpgd_numpy_port.py is the public numpy code on the same cell)",
    ),
    (
        "dense-gram-faer",
        "K = ΦΦᵀ at n = 2000, p = 4000, lower triangle (faer natively; in wasm the module's own simd128 tiles, src/dense.rs)",
    ),
    (
        "dense-gram-nalgebra",
        "K = ΦΦᵀ at n = 2000, p = 4000 through nalgebra (full product)",
    ),
    (
        "dense-kw-faer",
        "100 products K·W, K 2000×2000, W 2000×4 (a batch of DP-GD kernel steps), faer",
    ),
    (
        "dense-kw-nalgebra",
        "100 products K·W, K 2000×2000, W 2000×4, nalgebra",
    ),
    (
        "dense-kw-symmetric",
        "500 products K·W, K 2000×2000 (lower triangle read), W 2000×2 (the paper cell's steps), one thread",
    ),
    (
        "dense-eigen-faer",
        "symmetric eigendecomposition at n = 2000, faer",
    ),
    (
        "dense-eigen-nalgebra",
        "symmetric eigendecomposition at n = 2000, nalgebra",
    ),
];

/// The DP-GD sweep settings of the `dpgd-paper-cell` benchmark.
pub const DPGD_PAPER_CELL: &[(&str, &str)] =
    &[("p_grid", "4000"), ("trace_p", "none"), ("epsilons", "4")];

/// Why a benchmark gave no result.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BenchError {
    #[error("unknown benchmark \"{name}\"; known: {}", BENCHES.iter().map(|b| b.0).collect::<Vec<_>>().join(", "))]
    Unknown { name: String },
    /// The benchmark's settings were refused (a bug: they are fixed here).
    #[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))]
    Config(Vec<ConfigError>),
    #[error(transparent)]
    Run(#[from] RunError),
    #[error(transparent)]
    Accounting(#[from] AccountingError),
    #[error("the eigendecomposition did not converge")]
    NoConvergence,
}

/// Runs one benchmark to the end and returns a one-line summary of its result
/// (so the work cannot be optimized away and the output can be sanity-checked).
pub fn run_bench(name: &str) -> Result<String, BenchError> {
    match name {
        "fedrep-default-sweep" => {
            let config = Checked::new(FedRepConfig::default()).map_err(BenchError::Config)?;
            let mut sweep = FedRepSweep::new(config).map_err(|e| BenchError::Config(vec![e]))?;
            sweep.run_to_end()?;
            let best = sweep
                .rows()
                .iter()
                .filter(|r| r.method == Method::PrivateFedrep)
                .map(|r| r.excess_risk)
                .fold(f64::INFINITY, f64::min);
            Ok(format!(
                "{} rows; best private excess risk {best:.3e}",
                sweep.rows().len()
            ))
        }
        "private-fedrep-run" => {
            let config = FedRepConfig {
                target: PrivacyTarget::epsilons(vec![1.0]),
                ..FedRepConfig::default()
            };
            Ok(format!("excess risk {:.3e}", private_fedrep_run(&config)?))
        }
        "dpgd-browser-sweep" => {
            let lines = preset_csv("dpgd-browser", &[])?.lines().count();
            Ok(format!("{lines} CSV lines"))
        }
        "dpgd-paper-cell" => {
            let csv = preset_csv("dpgd-paper", DPGD_PAPER_CELL)?;
            let dp = csv
                .lines()
                .find(|l| l.starts_with("dp-gd,"))
                .and_then(|l| l.split(',').nth(11))
                .unwrap_or("?")
                .to_string();
            #[cfg(target_arch = "x86_64")]
            let dp = format!("{dp} (x86 kernels: {:?})", crate::dense::x86_build());
            Ok(format!("DP-GD test loss {dp}"))
        }
        name if name.starts_with("dense-") => dense_bench(name),
        "private-fedrep-run-1m" => {
            let config = FedRepConfig {
                n: 1_000_000,
                target: PrivacyTarget::epsilons(vec![1.0]),
                altmin: false,
                ..FedRepConfig::default()
            };
            Ok(format!("excess risk {:.3e}", private_fedrep_run(&config)?))
        }
        other => Err(BenchError::Unknown { name: other.into() }),
    }
}

/// Runs a preset with `pairs` on one worker and returns its first file (the results CSV).
fn preset_csv(preset: &str, pairs: &[(&str, &str)]) -> Result<String, BenchError> {
    let (_, mut run) = scenarios::start(preset, pairs, Shard::WHOLE).map_err(BenchError::Config)?;
    scenarios::run_to_end(run.as_mut())?;
    Ok(run.view().files[0].text.clone())
}

/// faer against nalgebra on the dense kernels of the DP-GD kernel path.
fn dense_bench(name: &str) -> Result<String, BenchError> {
    use nalgebra::DMatrix;
    let (n, p, b) = (2000, 4000, 4);
    let phi: Vec<f64> = (0..n * p).map(|i| (i as f64 * 0.618_034).sin()).collect();
    let gram_faer = || {
        let mut k = vec![0.0; n * n];
        crate::dense::gram_lower_add(&mut k, n, &phi, p, 1.0);
        crate::dense::mirror_lower(&mut k, n);
        k
    };
    let summary = |x: &[f64]| format!("sum {:.6e}", x.iter().sum::<f64>());
    match name {
        "dense-gram-faer" => Ok(summary(&gram_faer())),
        "dense-kw-symmetric" => {
            let k: Vec<f64> = gram_faer().iter().map(|x| x / p as f64).collect();
            let mut w: Vec<f64> = (0..n * 2).map(|i| (i as f64).cos()).collect();
            let mut out = vec![0.0; n * 2];
            // Timed apart from the Gram matrix natively: the line reports the
            // products alone (wasm32-unknown-unknown has no clock in std; the
            // page's line is the whole benchmark). One thread, the same work
            // as in wasm; `examples/dense_kernels.rs` times them with a second
            // core.
            #[cfg(not(target_arch = "wasm32"))]
            let started = std::time::Instant::now();
            for _ in 0..500 {
                crate::dense::symmetric_lower_product(&mut out, &k, n, &w, 2);
                out.iter_mut().for_each(|x| *x /= n as f64);
                std::mem::swap(&mut out, &mut w);
            }
            #[cfg(not(target_arch = "wasm32"))]
            return Ok(format!(
                "{}; the products alone {:.3} s",
                summary(&w),
                started.elapsed().as_secs_f64()
            ));
            #[cfg(target_arch = "wasm32")]
            Ok(summary(&w))
        }
        "dense-gram-nalgebra" => {
            let a = DMatrix::from_column_slice(n, p, &phi);
            Ok(summary((&a * a.transpose()).as_slice()))
        }
        "dense-kw-faer" | "dense-kw-nalgebra" => {
            // A well-scaled K: the Gram matrix over p.
            let k: Vec<f64> = gram_faer().iter().map(|x| x / p as f64).collect();
            let mut w: Vec<f64> = (0..n * b).map(|i| (i as f64).cos()).collect();
            let mut out = vec![0.0; n * b];
            if name == "dense-kw-faer" {
                for _ in 0..100 {
                    crate::dense::gemm(&mut out, n, b, &k, n, &w, 1.0 / n as f64, false);
                    std::mem::swap(&mut out, &mut w);
                }
            } else {
                let km = DMatrix::from_column_slice(n, n, &k);
                let mut wm = DMatrix::from_column_slice(n, b, &w);
                let mut om = DMatrix::zeros(n, b);
                for _ in 0..100 {
                    om.gemm(1.0 / n as f64, &km, &wm, 0.0);
                    std::mem::swap(&mut om, &mut wm);
                }
                w = wm.as_slice().to_vec();
            }
            Ok(summary(&w))
        }
        "dense-eigen-faer" => {
            let k = gram_faer();
            let (values, _) =
                crate::dense::symmetric_eigen(&k, n).ok_or(BenchError::NoConvergence)?;
            Ok(summary(&values))
        }
        "dense-eigen-nalgebra" => {
            let k = DMatrix::from_vec(n, n, gram_faer());
            let eig = nalgebra::SymmetricEigen::new(k);
            Ok(summary(eig.eigenvalues.as_slice()))
        }
        other => Err(BenchError::Unknown { name: other.into() }),
    }
}

/// One Private FedRep run at the config's first ε: draw data, Algorithm 2,
/// T rounds of Algorithm 1, final heads. Returns the excess risk.
pub fn private_fedrep_run(config: &FedRepConfig) -> Result<f64, BenchError> {
    config.validate().map_err(|e| BenchError::Config(vec![e]))?;
    let data = match config.storage() {
        Storage::Stored => config.model().generate(),
        Storage::Streamed => config.model().streamed(),
    };
    let plan = plan_private_fedrep(config, config.target.epsilons[0])?;
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
