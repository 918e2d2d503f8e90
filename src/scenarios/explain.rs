//! The "Explain ε" panel as data: one entry per private run (or group of
//! runs), each a summary line, tables and notes, built from the runs'
//! [`PrivacyReport`]s. The page draws any scenario's entries the same way.

use super::table::{cell, Table};
use crate::privacy::attacker::AttackerReading;
use crate::privacy::report::{fmt_eps, fmt_num};
use crate::privacy::PrivacyReport;
use serde::Serialize;

/// One collapsible entry of the panel.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExplainEntry {
    /// The line shown when the entry is folded.
    pub summary: String,
    /// Short paragraphs before the tables.
    pub paragraphs: Vec<String>,
    pub tables: Vec<Table>,
    pub notes: Vec<String>,
    /// The plain-language reading of the ε spent.
    pub reading: Option<String>,
    /// The ε spent in an attacker's terms: posterior bound, (FPR, TPR) region.
    pub attacker: Option<AttackerReading>,
    /// The reports of the runs it shows, for the privacy statement.
    pub release: Option<super::statement::Release>,
}

/// What `p`'s ε spent lets an attacker do, for a guarantee protecting each of
/// the `n` `unit`s in the data: the exact Gaussian curve too when every stage
/// is Gaussian, and δ judged against 1/n.
pub fn attacker_reading(p: &PrivacyReport, unit: &str, n: usize) -> AttackerReading {
    let reading =
        AttackerReading::new(p.epsilon_exact, p.delta, p.gaussian_mu(), unit).with_population(n);
    // A run calibrated to a risk is read at that risk's false-positive rate.
    match p.risk {
        Some(risk) => reading.at_false_positive_rate(risk.fpr),
        None => reading,
    }
}

/// One warning line for each (δ, n) among `entries` whose δ is at least 1/n
/// (every scenario's runs are judged alike), for the CLI's summary: at such
/// a δ a release that published one record at random meets the guarantee.
/// Empty when no entry's δ is that large.
pub fn delta_warnings(entries: &[ExplainEntry]) -> String {
    let mut seen: Vec<(u64, usize)> = Vec::new();
    let mut out = String::new();
    for a in entries.iter().filter_map(|e| e.attacker.as_ref()) {
        let Some(n) = a.population.filter(|_| a.delta_at_least_one_over_n()) else {
            continue;
        };
        if seen.contains(&(a.delta.to_bits(), n)) {
            continue;
        }
        seen.push((a.delta.to_bits(), n));
        out.push_str(&format!(
            "warning: δ = {} ≥ 1/n (n = {n}): a release that published one record at random would meet \
             this δ, so these runs' guarantee is weak whatever ε says; δ well below 1/n is the usual rule\n",
            fmt_num(a.delta)
        ));
    }
    out
}

/// The released stages of one run: mechanism, relation, sensitivity, σ, releases.
pub fn stages_table(p: &PrivacyReport) -> Table {
    let mut t = Table::new(
        if p.pure.is_empty() {
            "Released stages (each a Gaussian mechanism)"
        } else {
            "Released stages"
        },
        &[
            "stage",
            "mechanism",
            "neighbouring relation",
            "sensitivity s",
            "σ",
            "noise multiplier σ/s",
            "releases",
        ],
    );
    for s in &p.stages {
        t.push(vec![
            s.name.clone(),
            s.mechanism.clone(),
            p.relation.name().to_string(),
            cell(s.sensitivity),
            cell(s.sigma),
            cell(s.sigma / s.sensitivity),
            s.steps.to_string(),
        ]);
    }
    for s in &p.pure {
        t.push(vec![
            s.name.clone(),
            format!(
                "{} over {} candidates: pure ε = {} per release",
                s.mechanism,
                s.candidates,
                fmt_num(s.epsilon)
            ),
            p.relation.name().to_string(),
            cell(s.sensitivity),
            "— (no Gaussian noise)".into(),
            "—".into(),
            s.steps.to_string(),
        ]);
    }
    t
}

/// The ε the same noise spends under every accountant.
pub fn accountants_table(p: &PrivacyReport) -> Table {
    let mut t = Table::new(
        format!(
            "ε spent at δ = {} by the same noise, per accountant",
            fmt_num(p.delta)
        ),
        &["accountant", "ε", "note"],
    );
    t.push(vec![
        "exact (Gaussian DP composition)".into(),
        fmt_eps(p.epsilon_exact),
        "tight: the number this page reports".into(),
    ]);
    t.push(vec![
        "RDP, improved conversion".into(),
        fmt_eps(p.epsilon_rdp),
        alpha_note("optimal order α", p.rdp_alpha),
    ]);
    t.push(vec![
        "RDP, classic conversion".into(),
        fmt_eps(p.epsilon_rdp_classic),
        alpha_note("α", p.rdp_classic_alpha),
    ]);
    t.push(vec![
        "zCDP (Bun–Steinke)".into(),
        fmt_eps(p.epsilon_zcdp),
        "ρ + 2√(ρ ln 1/δ)".into(),
    ]);
    t
}

/// The RDP order an accountant chose, or why there is none: a run of pure
/// ε-DP releases only has no Gaussian stage, so no order (never "α = NaN").
fn alpha_note(what: &str, alpha: f64) -> String {
    if alpha.is_finite() {
        format!("{what} = {}", fmt_num(alpha))
    } else {
        "no Gaussian stage: the pure ε of each release adds".into()
    }
}

/// What the summary's "(… calibration)" means: how σ was chosen for the
/// target ε, and where the ε spent comes from. For "For experts".
pub fn calibration_words(p: &PrivacyReport) -> String {
    let how = match p.calibration {
        crate::privacy::Calibration::Exact => {
            "σ chosen so that, by the exact accountant (Gaussian DP composition), the released stages together \
             spend exactly the target ε at δ"
        }
        crate::privacy::Calibration::Paper => {
            "σ from the paper's formula for the target ε; the ε spent is what the exact accountant gives \
             for that σ, which can differ from the target"
        }
        crate::privacy::Calibration::AuthorsCode => {
            "σ from the formula in the authors' code for the target ε; the ε spent is what the exact \
             accountant gives for that σ, which can differ from the target"
        }
    };
    format!(
        "Calibration \"{}\": {how}. δ = {} is {}.",
        p.calibration.name(),
        fmt_num(p.delta),
        crate::privacy::attacker::in_powers_of_ten(p.delta)
    )
}

/// The entry of one private run: `who` names it (e.g. "Private FedRep"); the
/// guarantee protects each of the `n` `unit`s in its data ("user", "sample").
pub fn run_entry(who: &str, p: &PrivacyReport, unit: &str, n: usize) -> ExplainEntry {
    ExplainEntry {
        summary: format!(
            "{who}, target ε = {}: spends ε = {} at δ = {} ({} calibration)",
            fmt_num(p.epsilon_target),
            fmt_eps(p.epsilon_exact),
            fmt_num(p.delta),
            p.calibration.name()
        ),
        paragraphs: vec![calibration_words(p)],
        tables: vec![stages_table(p), accountants_table(p)],
        notes: p.notes.clone(),
        reading: Some(p.plain_language_among(unit, n)),
        attacker: Some(attacker_reading(p, unit, n)),
        release: Some(super::statement::Release::new(who, unit, n, p)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::privacy::{Calibration, PrivacyEvent, Relation};

    #[test]
    fn a_pure_epsilon_run_reads_without_nan() {
        let event = PrivacyEvent::Exponential {
            name: "selection".into(),
            mechanism: "exponential mechanism".into(),
            epsilon: 1.0,
            sensitivity: 1.0,
            candidates: 10,
        };
        let p =
            PrivacyReport::from_event(&event, 1e-5, Relation::ReplaceOne, Calibration::Exact, 1.0)
                .unwrap();
        let entry = run_entry("pure", &p, "user", 1000);
        let text = serde_json::to_string(&entry).unwrap();
        assert!(!text.contains("NaN"), "{text}");
        assert!(text.contains("no Gaussian stage"), "{text}");
    }

    #[test]
    fn a_delta_of_one_over_n_warns_once_and_a_smaller_one_not_at_all() {
        let stage = crate::privacy::GaussianStage::new("steps", "Gaussian", 1.0, 10.0, 100);
        let at = |delta: f64| {
            PrivacyReport::from_stages(
                vec![stage.clone()],
                delta,
                Relation::ReplaceOne,
                Calibration::Exact,
                10.0,
            )
            .unwrap()
        };
        let weak = run_entry("weak", &at(1.0 / 400.0), "sample", 400);
        let fine = run_entry("fine", &at(1e-6), "sample", 400);
        let text = delta_warnings(&[weak.clone(), fine.clone(), weak]);
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(
            text.starts_with("warning: δ = 0.0025 ≥ 1/n (n = 400)"),
            "{text}"
        );
        assert_eq!(delta_warnings(&[fine]), "");
    }
}
