//! One result row of the "privacy for free" sweep (Bombari & Mondelli, §5 and
//! Fig. 3) and its CSV file: read by the runner, the charts and the plan.

use crate::scenarios::table::csv_number as num;
use serde::{Deserialize, Serialize};

/// One result row. Non-applicable numbers are NaN (empty in CSV, null in JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DpGdRow {
    /// "dp-gd", "gd" (same η and T, no clip, no noise), "min-norm" (θ*),
    /// "zero" (the trivial predictor θ = 0) or "dp-gd-trace" (the loss-versus-T runs).
    pub method: String,
    pub p: usize,
    /// Target ε (NaN for non-private methods).
    pub epsilon: f64,
    pub delta: f64,
    pub seed: u64,
    /// T (0 for min-norm).
    pub steps: usize,
    pub eta: f64,
    /// C (NaN when not clipping).
    pub clip: f64,
    /// ηTp/d (NaN for min-norm).
    pub time_scale: f64,
    /// Noise multiplier σ from the accountant (0 for non-private methods).
    pub sigma: f64,
    /// Per-coordinate std of the noise added per step, √η·(2C/n)·σ.
    pub noise_std: f64,
    pub test_loss: f64,
    pub train_loss: f64,
    /// test_loss − test loss of θ* at the same (p, seed).
    pub excess_risk: f64,
    /// Fraction of (sample, step) pairs whose gradient was clipped.
    pub clipped_fraction: f64,
    /// ε an accountant assigns to the σ used (filled from the optional
    /// `epsilon_spent` closure, NaN otherwise or for non-private methods).
    pub epsilon_spent: f64,
    /// How the row was computed: "direct" (θ ∈ R^p, Φ stored) or "kernel"
    /// (n-dimensional simulation, exact in distribution). Not in the CSV.
    #[serde(default)]
    pub path: String,
    /// The (seed, width) group of the row, counted in sweep order: a merge of
    /// shards sorts by it. Not in the CSV.
    #[serde(default)]
    pub order: usize,
}

/// CSV columns, in order.
pub const CSV_HEADER: &str =
    "method,p,epsilon,delta,seed,steps,eta,clip,time_scale,sigma,noise_std,\
test_loss,train_loss,excess_risk,clipped_fraction,epsilon_spent";

/// Writes a header and one line per row. NaN is written as an empty field.
pub fn write_csv(rows: &[DpGdRow], out: &mut impl std::io::Write) -> std::io::Result<()> {
    let mut csv = crate::scenarios::csv_out::CsvFile::with_header(CSV_HEADER);
    for r in rows {
        csv.row([
            r.method.clone(),
            r.p.to_string(),
            num(r.epsilon),
            num(r.delta),
            r.seed.to_string(),
            r.steps.to_string(),
            num(r.eta),
            num(r.clip),
            num(r.time_scale),
            num(r.sigma),
            num(r.noise_std),
            num(r.test_loss),
            num(r.train_loss),
            num(r.excess_risk),
            num(r.clipped_fraction),
            num(r.epsilon_spent),
        ]);
    }
    out.write_all(csv.finish().as_bytes())
}

/// ε as the charts and the sweep's labels print it.
pub(super) fn fmt_eps(e: f64) -> String {
    format!("{e}")
}
