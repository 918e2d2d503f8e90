//! The privacy statement of a finished run, modelled on TF Privacy's DP-SGD
//! statement: for every private method the run shows, what one unit of
//! privacy is, the neighbouring relation, the mechanism and its releases,
//! whether the initialization is private, the accountant and the ε it
//! spends at δ, δ against 1/n, and what the guarantee does not cover.
//!
//! It is written from the privacy reports the view's explain entries carry
//! ([`Release`]: each built by the scenario's plan from its `PrivacyEvent`s),
//! never by hand per scenario. Every sentence is a true statement about
//! (ε, δ)-DP or μ-GDP: (ε, δ) bounds every test, TPR ≤ e^ε·FPR + δ
//! (Kairouz, Oh & Viswanath 2015, Thm. 2.1); a run of Gaussian releases only
//! is μ-GDP, TPR ≤ Φ(Φ⁻¹(FPR) + μ), and its privacy loss exceeds ε with
//! probability exactly Φ(−ε/μ + μ/2) (Dong, Roth & Su, "Gaussian Differential
//! Privacy", JRSS-B 2022).

use super::explain::ExplainEntry;
use super::field::target::RISK_NOTE;
use super::ScenarioInfo;
use crate::privacy::attacker::delta_reading;
use crate::privacy::report::{fmt_eps, fmt_num};
use crate::privacy::risk::loss_above;
use crate::privacy::{Calibration, PrivacyReport, Relation};
use serde::{Deserialize, Serialize};

/// The name of the file the CLI writes.
pub const FILE_NAME: &str = "privacy-statement.txt";

/// One private release as an explain entry shows it: the accountant's report
/// of each run the entry stands for, whom it protects and how many of them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Release {
    /// The method, as the entry names it.
    pub who: String,
    /// The unit of privacy ("user", "sample", "client").
    pub unit: String,
    /// The number of units in the data (0: unknown).
    pub n: usize,
    /// One report per run the entry stands for (at least one).
    pub reports: Vec<PrivacyReport>,
}

impl Release {
    /// One run's release.
    pub fn new(who: &str, unit: &str, n: usize, report: &PrivacyReport) -> Self {
        Release {
            who: who.into(),
            unit: unit.into(),
            n,
            reports: vec![report.clone()],
        }
    }
}

/// The statement of a finished view: a header naming the scenario and the
/// run's seed, then one block per private method.
pub fn of_view(
    info: &ScenarioInfo,
    settings: &[(&str, String)],
    entries: &[ExplainEntry],
) -> String {
    let releases: Vec<&Release> = entries.iter().filter_map(|e| e.release.as_ref()).collect();
    write(info, settings, &releases, None)
}

/// The statement of a run the page shows: the page holds the settings it ran
/// (checked once into `configured`) and the releases its snapshot's explain
/// entries carry, so it writes the same text as [`of_view`] on that run's view
/// (the CLI's `privacy-statement.txt`).
pub fn of_releases(configured: &dyn super::Configured, releases: &[Release]) -> String {
    let settings = configured.settings();
    let releases: Vec<&Release> = releases.iter().collect();
    write(configured.info(), &settings, &releases, None)
}

/// The statement in one line, for the footer of an exported chart: per
/// private method its mechanism, neighbouring relation, the ε spent at δ and
/// the accountant ("Privacy: Private FedRep: Gaussian mechanism, replace-one,
/// ε = 3.175 to 7.714 at δ = 1e-6, exact GDP accountant").
pub fn line_of(releases: &[&Release]) -> String {
    let blocks = group(releases);
    if blocks.is_empty() {
        return "Privacy: no private release (nothing shown carries a differential privacy guarantee)".into();
    }
    let parts: Vec<String> = blocks.iter().map(Block::line).collect();
    format!("Privacy: {}", parts.join("; "))
}

/// [`line_of`] the releases of a view's explain entries.
pub fn line_of_view(entries: &[ExplainEntry]) -> String {
    let releases: Vec<&Release> = entries.iter().filter_map(|e| e.release.as_ref()).collect();
    line_of(&releases)
}

/// The statement text: `audited`, when the releases are an audit's, says so
/// (and whether its runs are deliberately broken).
pub fn write(
    info: &ScenarioInfo,
    settings: &[(&str, String)],
    releases: &[&Release],
    audited: Option<bool>,
) -> String {
    let setting = |key: &str| {
        settings
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
    };
    let mut out = format!("Privacy statement: {} ({})\n", info.title, info.id);
    match (setting("seed"), setting("seeds")) {
        (Some(seed), Some(seeds)) if seeds != "1" => {
            out.push_str(&format!("Settings' seed: {seed} ({seeds} seeds from it)\n"))
        }
        (Some(seed), _) => out.push_str(&format!("Settings' seed: {seed}\n")),
        _ => {}
    }
    match audited {
        Some(true) => out.push_str(
            "This audit's runs are deliberately broken: they do NOT have the guarantee below, which is what the unbroken runs claim.\n",
        ),
        Some(false) => out.push_str("The releases this audit attacks, as the accountant states them:\n"),
        None => {}
    }
    let blocks = group(releases);
    if blocks.is_empty() {
        out.push_str("No private release: nothing this run publishes carries a differential privacy guarantee.\n");
        return out;
    }
    for block in &blocks {
        out.push('\n');
        block.write(&mut out);
    }
    out
}

/// Releases of one method that differ only in their target ε (and so in σ).
struct Block<'a> {
    title: String,
    unit: &'a str,
    n: usize,
    runs: Vec<&'a PrivacyReport>,
}

/// What makes two releases the same method: everything but ε, σ and the sensitivity's value.
fn key(r: &Release) -> String {
    let p = &r.reports[0];
    let mut k = format!(
        "{}|{}|{:?}|{}|{:?}|",
        r.unit,
        r.n,
        p.relation,
        p.delta.to_bits(),
        p.calibration
    );
    for s in &p.stages {
        k.push_str(&format!("g:{}:{}:{};", s.name, s.mechanism, s.steps));
    }
    for s in &p.pure {
        k.push_str(&format!(
            "e:{}:{}:{}:{};",
            s.name, s.mechanism, s.candidates, s.steps
        ));
    }
    k.push_str(&format!("{}", p.high_probability_sensitivities));
    for note in non_private(p) {
        k.push_str(note);
    }
    k
}

fn group<'a>(releases: &[&'a Release]) -> Vec<Block<'a>> {
    let mut keys: Vec<String> = Vec::new();
    let mut whos: Vec<Vec<&str>> = Vec::new();
    let mut blocks: Vec<Block<'a>> = Vec::new();
    for r in releases.iter().filter(|r| !r.reports.is_empty()) {
        let k = key(r);
        let i = match keys.iter().position(|x| *x == k) {
            Some(i) => i,
            None => {
                keys.push(k);
                whos.push(Vec::new());
                blocks.push(Block {
                    title: String::new(),
                    unit: &r.unit,
                    n: r.n,
                    runs: Vec::new(),
                });
                blocks.len() - 1
            }
        };
        whos[i].push(&r.who);
        blocks[i].runs.extend(r.reports.iter());
    }
    for (b, w) in blocks.iter_mut().zip(&whos) {
        b.title = common_title(w);
    }
    blocks
}

/// The names' common start, cut at a ", " (the parts that name ε or σ differ).
fn common_title(whos: &[&str]) -> String {
    let first = whos[0];
    if whos.iter().all(|w| *w == first) {
        return first.to_string();
    }
    let mut end = first.len();
    for w in &whos[1..] {
        end = end.min(
            first
                .char_indices()
                .zip(w.chars())
                .find(|((_, a), b)| a != b)
                .map_or(first.len().min(w.len()), |((i, _), _)| i),
        );
    }
    match first[..end].rfind(", ") {
        Some(i) => first[..i].to_string(),
        None => first[..end].trim_end().to_string(),
    }
}

fn non_private(p: &PrivacyReport) -> impl Iterator<Item = &str> {
    p.notes
        .iter()
        .map(String::as_str)
        .filter(|n| n.contains(" is NOT private"))
}

fn plural(unit: &str) -> String {
    if unit.ends_with('s') {
        unit.to_string()
    } else {
        format!("{unit}s")
    }
}

/// "a to b" (or "a" when they read the same).
fn range(values: impl Iterator<Item = f64>, fmt: fn(f64) -> String) -> String {
    let v: Vec<f64> = values.collect();
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if fmt(lo) == fmt(hi) {
        fmt(hi)
    } else {
        format!("{} to {}", fmt(lo), fmt(hi))
    }
}

impl Block<'_> {
    /// The block in a few words: mechanism, relation, ε spent at δ, accountant.
    fn line(&self) -> String {
        let p = self.runs[0];
        let (gaussian, pure) = (!p.stages.is_empty(), !p.pure.is_empty());
        let mechanism = match (gaussian, pure) {
            (true, false) => "Gaussian mechanism",
            (false, true) => "exponential mechanism",
            _ => "Gaussian and exponential mechanisms",
        };
        let spent = range(self.runs.iter().map(|r| r.epsilon_exact), fmt_eps);
        let accountant = match (gaussian, pure) {
            (true, false) => "exact GDP accountant",
            (false, true) => "pure ε-DP composition",
            _ => "exact GDP and basic composition",
        };
        format!(
            "{}: {mechanism}, {}, ε = {spent} at δ = {}, {accountant}",
            self.title,
            p.relation.name(),
            fmt_num(p.delta)
        )
    }

    fn write(&self, out: &mut String) {
        let p = self.runs[0];
        let (unit, units) = (self.unit, plural(self.unit));
        let line = |out: &mut String, s: String| {
            out.push_str(&s);
            out.push('\n');
        };
        line(out, format!("== {} ==", self.title));
        line(
            out,
            if self.n > 0 {
                format!("Unit of privacy: one {unit}: all of one {unit}'s data (n = {} {units} in the data).", self.n)
            } else {
                format!("Unit of privacy: one {unit}: all of one {unit}'s data.")
            },
        );
        line(
            out,
            format!(
                "Neighbouring relation: {} ({}).",
                p.relation.name(),
                match p.relation {
                    Relation::ReplaceOne => format!("two datasets are neighbours when one {unit}'s data is replaced by any other"),
                    Relation::AddRemoveOne => format!("two datasets are neighbours when one holds one {unit}'s data more than the other"),
                }
            ),
        );
        line(out, "Mechanism, per run:".into());
        for (i, s) in p.stages.iter().enumerate() {
            let sens = range(
                self.runs
                    .iter()
                    .filter_map(|r| r.stages.get(i))
                    .map(|s| s.sensitivity),
                fmt_num,
            );
            line(
                out,
                format!(
                    "  - {}: {} (L2 sensitivity {sens}); {} release{}",
                    s.name,
                    s.mechanism,
                    s.steps,
                    if s.steps == 1 { "" } else { "s" }
                ),
            );
        }
        for s in &p.pure {
            line(
                out,
                format!(
                    "  - {}: {} over {} data-independent candidates, score sensitivity {}; {} release{}, each pure ε-DP",
                    s.name,
                    s.mechanism,
                    s.candidates,
                    fmt_num(s.sensitivity),
                    s.steps,
                    if s.steps == 1 { "" } else { "s" }
                ),
            );
        }
        for why in non_private(p) {
            line(out, format!("  - {why}"));
        }
        let releases: u64 = p.stages.iter().map(|s| s.steps).sum::<u64>()
            + p.pure.iter().map(|s| s.steps).sum::<u64>();
        line(
            out,
            format!("Number of releases: {releases} per run, all composed in the ε below."),
        );
        line(out, initialization(p));
        let gaussian = p.gaussian_mu().is_some();
        line(
            out,
            if gaussian {
                "Accountant: exact Gaussian DP composition (Dong, Roth & Su 2022): each run is μ-GDP for μ = √(Σ steps·(s/σ)²), and its ε at δ is the exact conversion; RDP (improved conversion) and zCDP give the looser ε beside it, for the same noise.".into()
            } else if p.stages.is_empty() {
                "Accountant: pure ε-DP, composed by adding each release's ε (δ = 0); RDP and zCDP give the same ε.".into()
            } else {
                "Accountant: exact Gaussian DP composition for the Gaussian releases, and the pure releases' ε added by basic composition; RDP and zCDP give the looser ε beside it.".into()
            },
        );
        line(
            out,
            format!(
                "Calibration: {}.",
                match p.calibration {
                    _ if p.stages.is_empty() => "none needed (no noise to set: each draw runs at its target ε)",
                    Calibration::Exact => "exact (σ chosen so that the exact accountant spends the target ε)",
                    Calibration::Paper => "the paper's formula (the exact accountant then reports what it spends)",
                    Calibration::AuthorsCode => "the formula in the authors' code (the exact accountant then reports what it spends)",
                }
            ),
        );
        line(out, format!("ε spent at δ = {}:", fmt_num(p.delta)));
        let mut targets: Vec<f64> = Vec::new();
        for r in &self.runs {
            if !targets
                .iter()
                .any(|t| t.to_bits() == r.epsilon_target.to_bits())
            {
                targets.push(r.epsilon_target);
            }
        }
        for t in targets {
            let at: Vec<&PrivacyReport> = self
                .runs
                .iter()
                .copied()
                .filter(|r| r.epsilon_target.to_bits() == t.to_bits())
                .collect();
            let spent = range(at.iter().map(|r| r.epsilon_exact), fmt_eps);
            let mut s = format!("  - target ε = {}: ε = {spent}", fmt_num(t));
            if gaussian {
                let mus = range(at.iter().map(|r| r.mu_total()), fmt_num);
                let above = range(
                    at.iter().map(|r| loss_above(r.mu_total(), r.epsilon_exact)),
                    fmt_num,
                );
                s.push_str(&format!(
                    " (RDP ε = {}, zCDP ε = {}); μ = {mus}: every test of one {unit}'s data has TPR ≤ Φ(Φ⁻¹(FPR) + μ), and the privacy loss exceeds ε with probability Φ(−ε/μ + μ/2) = {above}",
                    range(at.iter().map(|r| r.epsilon_rdp), fmt_eps),
                    range(at.iter().map(|r| r.epsilon_zcdp), fmt_eps),
                ));
            } else if p.stages.is_empty() {
                s.push_str(": the privacy loss of any output is at most ε");
            } else {
                s.push_str(&format!(
                    " (RDP ε = {}, zCDP ε = {})",
                    range(at.iter().map(|r| r.epsilon_rdp), fmt_eps),
                    range(at.iter().map(|r| r.epsilon_zcdp), fmt_eps),
                ));
            }
            // A run calibrated to a risk says which (its note's first sentence).
            if let Some(note) = at[0].notes.iter().find(|n| n.starts_with(RISK_NOTE)) {
                let first = note.split(". ").next().unwrap_or(note);
                let first =
                    first
                        .trim_end_matches('.')
                        .replacen(RISK_NOTE, "calibrated to a risk", 1);
                s.push_str(&format!("; {first}"));
            }
            line(out, s);
        }
        line(
            out,
            if p.delta > 0.0 {
                "Meaning: every test that tries to tell two neighbouring datasets apart from what a run releases has TPR ≤ e^ε·FPR + δ and 1 − FPR ≤ e^ε·(1 − TPR) + δ; δ is an additive slack in that bound.".into()
            } else {
                "Meaning: every test that tries to tell two neighbouring datasets apart from what a run releases has TPR ≤ e^ε·FPR and 1 − FPR ≤ e^ε·(1 − TPR).".into()
            },
        );
        if self.n > 0 {
            line(
                out,
                format!("δ against 1/n: {}", delta_reading(p.delta, self.n)),
            );
        }
        // The notes every run of the block shares (one that names a run's σ or ε is that run's).
        let notes: Vec<&String> = p
            .notes
            .iter()
            .filter(|n| !n.contains(" is NOT private") && !n.starts_with("Warning:"))
            .filter(|n| self.runs.iter().all(|r| r.notes.contains(n)))
            .collect();
        if !notes.is_empty() {
            line(out, "Notes of the plan:".into());
            for n in notes {
                line(out, format!("  - {n}"));
            }
        }
        line(out, "Not covered:".into());
        line(out, "  - hyperparameter tuning: settings chosen by looking at results on the same data (clip, step size, rounds, the ε list) spend privacy that this statement does not count;".into());
        line(out, format!("  - statistics published beside the model without noise (the errors, losses and any clipped share in results.csv and the charts) are computed from the {units}' data and are not private;"));
        line(out, format!("  - each run is accounted alone: publishing several runs on the same {units}' data composes their budgets;"));
        if p.high_probability_sensitivities {
            line(out, "  - the sensitivities are the paper's high-probability bounds: the guarantee holds only on that likely event, not for every dataset;".into());
        }
        for why in non_private(p) {
            line(out, format!("  - {why};"));
        }
    }
}

/// Whether the run's initialization is private, from its releases' names.
fn initialization(p: &PrivacyReport) -> String {
    let is_init = |name: &str| name.to_lowercase().contains("initiali");
    if let Some(s) = p.stages.iter().find(|s| is_init(&s.name)) {
        format!(
            "Initialization: private: \"{}\" is a Gaussian release, accounted above.",
            s.name
        )
    } else if non_private(p).any(is_init) {
        "Initialization: NOT private (see below): it is released without noise and the ε above does not cover it.".into()
    } else {
        "Initialization: not a release of this run's privacy events (a start that does not read the data costs no budget).".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios::{run_to_end, start, Shard};

    /// The page's statement (the settings it ran and its snapshot's entries,
    /// through JSON as the page holds them) is the CLI's, written from the view.
    #[test]
    fn the_statement_from_the_pages_entries_is_the_views() {
        let pairs = [
            ("p_grid", "20,200"),
            ("trace_p", ""),
            ("epsilons", "1"),
            ("delta", "1e-4"),
        ];
        let (scenario, mut run) = start("dpgd-quick", &pairs, Shard::WHOLE).unwrap();
        run_to_end(run.as_mut()).unwrap();
        let view = run.view();
        let cli = of_view(scenario.info(), &view.settings, &view.privacy);
        let json: Vec<serde_json::Value> =
            serde_json::from_str(&serde_json::to_string(&view.privacy).unwrap()).unwrap();
        let releases: Vec<Release> = json
            .into_iter()
            .filter_map(|e| serde_json::from_value(e["release"].clone()).ok())
            .collect();
        assert!(!releases.is_empty());
        let configured = crate::scenarios::configure("dpgd-quick", &pairs).unwrap();
        let page = of_releases(configured.as_ref(), &releases);
        assert_eq!(page, cli);
        assert!(
            page.contains("Neighbouring relation: replace-one"),
            "{page}"
        );
        // The one-line form names the same mechanism, relation, δ and accountant.
        let line = line_of_view(&view.privacy);
        let spent = view
            .privacy
            .iter()
            .find_map(|e| e.release.as_ref())
            .unwrap()
            .reports[0]
            .epsilon_exact;
        for part in [
            "Gaussian mechanism",
            "replace-one",
            &format!("at δ = {}", fmt_num(1e-4)),
            "exact GDP accountant",
            &fmt_eps(spent),
        ] {
            assert!(line.contains(part), "{line} lacks {part}");
        }
        assert!(!line.contains('\n'));
    }
}
