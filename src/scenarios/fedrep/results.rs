//! Result rows of a sweep and their CSV form. One row per (method, ε, seed);
//! a non-private method has ε = ∞ (written `inf`), σ = 0 and ε spent = ∞.

use super::method::Method;
use crate::privacy::PrivacyReport;
use serde::{Deserialize, Serialize};
use std::io::Write;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultRow {
    /// `private-fedrep`, `fedrep`, `local-gd`, `priv-altmin`, …
    pub method: Method,
    /// Target ε (None: not private).
    pub epsilon: Option<f64>,
    pub delta: f64,
    pub seed: u64,
    /// Population excess risk, averaged over users (closed form).
    pub excess_risk: f64,
    /// Population MSE = excess risk + R².
    pub mse: f64,
    /// Final dist(U_T, U*) (NaN for methods without a shared U).
    pub principal_angle: f64,
    /// σ of the main training release (0 for non-private methods).
    pub sigma: f64,
    /// ε actually spent at δ by every private release of the run, exact accountant (∞ if not private).
    pub epsilon_spent: f64,
    /// Fraction of users clipped in the last round.
    pub clipped_fraction: f64,
    /// Free-text description of the variant (init mode, batch mode, calibration).
    pub variant: String,
    /// The full accounting of a private run.
    pub privacy: Option<PrivacyReport>,
    /// The accounting in plain words (for the page's "explain ε" panel).
    pub privacy_reading: Option<String>,
    /// Position of the run in the whole sweep (seed-major, then job): results
    /// computed by several workers are merged in this order.
    #[serde(default)]
    pub order: usize,
}

/// One principal-angle curve: dist(U_t, U*) for t = 0..=rounds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AngleCurve {
    pub method: Method,
    pub epsilon: Option<f64>,
    pub angles: Vec<f64>,
    #[serde(default)]
    pub seed: u64,
    /// Same as [`ResultRow::order`].
    #[serde(default)]
    pub order: usize,
}

pub const CSV_COLUMNS: &[&str] = &[
    "method",
    "epsilon",
    "delta",
    "seed",
    "excess_risk",
    "mse",
    "principal_angle",
    "sigma",
    "epsilon_spent",
    "epsilon_rdp",
    "epsilon_zcdp",
    "relation",
    "calibration",
    "sensitivity",
    "noise_multiplier",
    "steps",
    "clipped_fraction",
    "variant",
];

/// A number as Private FedRep's CSV files write it: NaN is `nan`.
fn num(x: f64) -> String {
    crate::scenarios::csv_out::number_or(x, "nan")
}

impl ResultRow {
    /// The row's fields, unquoted (the CSV writer quotes what needs it).
    pub fn csv_fields(&self) -> Vec<String> {
        let p = self.privacy.as_ref();
        // The training release is the last stage; its sensitivity and multiplier are reported.
        let train = p.and_then(|p| p.stages.last());
        vec![
            self.method.name().into(),
            num(self.epsilon.unwrap_or(f64::INFINITY)),
            num(self.delta),
            self.seed.to_string(),
            num(self.excess_risk),
            num(self.mse),
            num(self.principal_angle),
            num(self.sigma),
            num(self.epsilon_spent),
            num(p.map_or(f64::INFINITY, |p| p.epsilon_rdp)),
            num(p.map_or(f64::INFINITY, |p| p.epsilon_zcdp)),
            p.map_or(String::new(), |p| p.relation.name().to_string()),
            p.map_or("none".to_string(), |p| p.calibration.name().to_string()),
            num(train.map_or(0.0, |s| s.sensitivity)),
            num(train.map_or(0.0, |s| s.noise_multiplier())),
            train.map_or(0, |s| s.steps).to_string(),
            num(self.clipped_fraction),
            self.variant.clone(),
        ]
    }
}

pub fn write_csv(rows: &[ResultRow], out: &mut impl Write) -> std::io::Result<()> {
    out.write_all(csv_string(rows).as_bytes())
}

/// The CSV as a string (for the page's export).
pub fn csv_string(rows: &[ResultRow]) -> String {
    let mut out = crate::scenarios::csv_out::CsvFile::new(CSV_COLUMNS.iter().copied());
    for r in rows {
        out.row(r.csv_fields());
    }
    out.finish()
}

/// `angles.csv`: one row per (method, ε, round), the principal-angle curves.
pub fn angle_csv(curves: &[AngleCurve]) -> String {
    let mut out =
        crate::scenarios::csv_out::CsvFile::new(["method", "epsilon", "round", "principal_angle"]);
    for c in curves {
        let eps = num(c.epsilon.unwrap_or(f64::INFINITY));
        for (t, a) in c.angles.iter().enumerate() {
            out.row([c.method.name().into(), eps.clone(), t.to_string(), num(*a)]);
        }
    }
    out.finish()
}
