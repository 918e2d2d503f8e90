//! One result row of the "privacy for free" sweep (Bombari & Mondelli, §5 and
//! Fig. 3) and its CSV file: read by the runner, the charts and the plan.

use crate::scenarios::csv_out::{csv_record, file_of};
use serde::{Deserialize, Serialize};

/// What computed a row. Its text (the CSV's `method` column, the settings'
/// and the claims' ids) is its serde name, read by [`Method::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// "dp-gd": DP-GD (Algorithm 1) at a target ε of the main grid.
    DpGd,
    /// "dp-gd-trace": DP-GD in the loss-versus-T runs (Fig. 3 panels 2–3).
    DpGdTrace,
    /// "gd": GD with DP-GD's η and T, no clip, no noise.
    Gd,
    /// "min-norm": θ* = Φ⁺Y, the minimum-norm interpolator.
    MinNorm,
    /// "zero": the trivial predictor θ = 0.
    Zero,
}

impl Method {
    /// The name a reader is shown (tables, explain-ε entries).
    pub fn label(self) -> &'static str {
        match self {
            Method::DpGd => "DP-GD",
            Method::DpGdTrace => "DP-GD (loss vs T)",
            Method::Gd => "GD (non-private)",
            Method::MinNorm => "θ* = Φ⁺Y (non-private)",
            Method::Zero => "predict 0",
        }
    }

    /// A DP-GD run (of the main grid or of the loss-versus-T runs): the rows
    /// with a privacy cost.
    pub fn is_private(self) -> bool {
        matches!(self, Method::DpGd | Method::DpGdTrace)
    }
}

crate::serde_named!(Method);

/// One result row. Non-applicable numbers are NaN (empty in CSV, null in JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DpGdRow {
    pub method: Method,
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

csv_record! { DpGdRow {
    text: method p;
    num: epsilon delta;
    text: seed steps;
    num: eta clip time_scale sigma noise_std test_loss train_loss excess_risk clipped_fraction
        epsilon_spent;
} }

/// Writes a header and one line per row. NaN is written as an empty field.
pub fn write_csv(rows: &[DpGdRow], out: &mut impl std::io::Write) -> std::io::Result<()> {
    out.write_all(file_of(rows).as_bytes())
}

/// ε as the charts and the sweep's labels print it.
pub(super) fn fmt_eps(e: f64) -> String {
    format!("{e}")
}

#[cfg(test)]
mod tests {
    use super::Method;

    #[test]
    fn only_dp_gd_runs_have_a_privacy_cost() {
        let all = [
            Method::DpGd,
            Method::DpGdTrace,
            Method::Gd,
            Method::MinNorm,
            Method::Zero,
        ];
        let private: Vec<Method> = all.into_iter().filter(|m| m.is_private()).collect();
        assert_eq!(private, [Method::DpGd, Method::DpGdTrace]);
    }
}
