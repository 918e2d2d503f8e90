//! Result rows of a sweep and their CSV form. One row per (method, ε, seed);
//! a non-private method has ε = ∞ (written `inf`), σ = 0 and ε spent = ∞.

use crate::privacy::PrivacyReport;
use serde::{Deserialize, Serialize};
use std::io::Write;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultRow {
    /// `private-fedrep`, `fedrep`, `local-gd`, `priv-altmin`, …
    pub method: String,
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
    pub method: String,
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

fn num(x: f64) -> String {
    if x.is_infinite() && x > 0.0 {
        "inf".into()
    } else if x.is_nan() {
        "nan".into()
    } else {
        format!("{x}")
    }
}

/// Quotes a CSV text field if needed.
fn text(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

impl ResultRow {
    pub fn csv_fields(&self) -> Vec<String> {
        let p = self.privacy.as_ref();
        // The training release is the last stage; its sensitivity and multiplier are reported.
        let train = p.and_then(|p| p.stages.last());
        vec![
            text(&self.method),
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
            text(&self.variant),
        ]
    }
}

pub fn write_csv(rows: &[ResultRow], out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "{}", CSV_COLUMNS.join(","))?;
    for r in rows {
        writeln!(out, "{}", r.csv_fields().join(","))?;
    }
    Ok(())
}

/// The CSV as a string (for the page's export).
pub fn csv_string(rows: &[ResultRow]) -> String {
    let mut buf = Vec::new();
    write_csv(rows, &mut buf).expect("writing to memory");
    String::from_utf8(buf).expect("CSV is UTF-8")
}

/// `angles.csv`: one row per (method, ε, round), the principal-angle curves.
pub fn angle_csv(curves: &[AngleCurve]) -> String {
    let mut out = String::from("method,epsilon,round,principal_angle\n");
    for c in curves {
        let eps = c.epsilon.map_or("inf".to_string(), |e| format!("{e}"));
        for (t, a) in c.angles.iter().enumerate() {
            out.push_str(&format!("{},{eps},{t},{a}\n", c.method));
        }
    }
    out
}
