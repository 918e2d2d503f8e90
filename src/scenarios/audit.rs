//! The audit game, the same for every scenario: a scenario supplies its
//! audited releases ([`AuditTarget`]: the neighbouring pair under its
//! relation, with a worst-case canary, and the attack's score of one private
//! run), and [`AuditRun`] runs each R times per side with fresh noise, the data
//! fixed, then turns the scores into lower bounds on ε with
//! `privacy::audit` (Clopper–Pearson and Gaussian-DP routes, 95 %).
//!
//! The threshold is chosen on a held-out half of each side's scores and the
//! bounds are computed on the other half only (Nasr et al. 2023): it never
//! sees the scores it is judged on.

use crate::privacy::audit::{audit_bounds, threshold_from_holdout, AuditBounds};
use serde::{Deserialize, Serialize};

/// What the observer sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum AuditMode {
    /// Every released iterate (the threat model of the accountant): the score
    /// sums the released noise's projections on the canary's direction.
    #[default]
    WhiteBox,
    /// Only the final output.
    Final,
}

impl AuditMode {
    pub fn name(self) -> &'static str {
        match self {
            AuditMode::WhiteBox => "white-box",
            AuditMode::Final => "final",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "white-box" | "whitebox" | "white" => Some(AuditMode::WhiteBox),
            "final" | "final-output" => Some(AuditMode::Final),
            _ => None,
        }
    }
}

/// How the game is played.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditOptions {
    /// Runs per side (half choose the threshold, half are judged).
    pub runs: usize,
    pub mode: AuditMode,
    /// Deliberately broken: half the noise the accountant asked for, while
    /// claiming the same ε (to see the audit catch a privacy bug).
    pub broken: bool,
    pub seed: u64,
}

impl Default for AuditOptions {
    fn default() -> Self {
        AuditOptions {
            runs: 1000,
            mode: AuditMode::WhiteBox,
            broken: false,
            seed: 1,
        }
    }
}

/// Most runs per side accepted.
pub const MAX_AUDIT_RUNS: usize = 100_000;

/// One audited private release of a scenario.
pub trait AuditTarget: Send {
    /// The method audited, as `results.csv` names it.
    fn method(&self) -> String;
    /// The target ε of the run and what the accountant says it spends.
    fn epsilon(&self) -> f64;
    fn epsilon_spent(&self) -> f64;
    fn delta(&self) -> f64;
    /// The canary and the neighbouring pair, in words (for the report).
    fn canary(&self) -> String;
    /// One private run with fresh noise `run` (the same `run` on both sides
    /// draws different noise), the canary in (`true`) or out; its score (larger
    /// means "in").
    fn score(&mut self, canary_in: bool, run: u64) -> f64;
}

/// One audited release's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditRow {
    pub method: String,
    pub epsilon: f64,
    pub epsilon_spent: f64,
    pub delta: f64,
    pub runs: usize,
    pub mode: String,
    pub broken: bool,
    pub canary: String,
    pub bounds: AuditBounds,
}

pub const AUDIT_HEADER: &str = "method,epsilon,epsilon_spent,delta,runs,mode,broken,epsilon_lb_cp,epsilon_lb_gdp,mu_lb,threshold,fnr,fpr";

/// `audit.csv`.
pub fn audit_csv(rows: &[AuditRow]) -> String {
    let mut out = format!("{AUDIT_HEADER}\n");
    for r in rows {
        let p = r.bounds.points.first();
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            r.method,
            r.epsilon,
            r.epsilon_spent,
            r.delta,
            r.runs,
            r.mode,
            r.broken,
            r.bounds.epsilon_lb_cp,
            r.bounds.epsilon_lb_gdp,
            r.bounds.mu_lb,
            p.map_or(f64::NAN, |p| p.threshold),
            p.map_or(f64::NAN, |p| p.fnr),
            p.map_or(f64::NAN, |p| p.fpr),
        ));
    }
    out
}

/// The confidence of the bounds: 95 %.
pub const AUDIT_ALPHA: f64 = 0.05;

/// The game over a scenario's targets, in bounded steps.
pub struct AuditRun {
    targets: Vec<Box<dyn AuditTarget>>,
    options: AuditOptions,
    scores: Vec<(Vec<f64>, Vec<f64>)>,
    rows: Vec<AuditRow>,
    /// (target, run) of the next pair of runs.
    next: (usize, usize),
}

impl AuditRun {
    pub fn new(targets: Vec<Box<dyn AuditTarget>>, options: AuditOptions) -> Self {
        let scores = targets.iter().map(|_| (Vec::new(), Vec::new())).collect();
        AuditRun {
            targets,
            options,
            scores,
            rows: Vec::new(),
            next: (0, 0),
        }
    }

    pub fn is_done(&self) -> bool {
        self.next.0 >= self.targets.len()
    }

    /// (pairs of runs done, in all).
    pub fn progress(&self) -> (usize, usize) {
        let total = self.targets.len() * self.options.runs;
        (
            (self.next.0 * self.options.runs + self.next.1).min(total),
            total,
        )
    }

    /// Up to `pairs` more pairs of runs (in and out); true once done.
    pub fn step(&mut self, pairs: usize) -> bool {
        for _ in 0..pairs {
            let (t, r) = self.next;
            let Some(target) = self.targets.get_mut(t) else {
                return true;
            };
            let run = r as u64;
            let s_in = target.score(true, run);
            let s_out = target.score(false, run);
            self.scores[t].0.push(s_in);
            self.scores[t].1.push(s_out);
            if r + 1 >= self.options.runs {
                self.finish(t);
                self.next = (t + 1, 0);
            } else {
                self.next = (t, r + 1);
            }
        }
        self.is_done()
    }

    fn finish(&mut self, t: usize) {
        let (ins, outs) = &self.scores[t];
        let h = ins.len() / 2;
        let threshold = threshold_from_holdout(&ins[..h], &outs[..h], AUDIT_ALPHA);
        let target = &self.targets[t];
        let bounds = audit_bounds(
            &ins[h..],
            &outs[h..],
            &[threshold],
            target.delta(),
            AUDIT_ALPHA,
        );
        self.rows.push(AuditRow {
            method: target.method(),
            epsilon: target.epsilon(),
            epsilon_spent: target.epsilon_spent(),
            delta: target.delta(),
            runs: self.options.runs,
            mode: self.options.mode.name().into(),
            broken: self.options.broken,
            canary: target.canary(),
            bounds,
        });
    }

    pub fn rows(&self) -> &[AuditRow] {
        &self.rows
    }

    /// `scores.csv`: every run's score.
    pub fn scores_csv(&self) -> String {
        let mut out = String::from("method,epsilon,side,run,score\n");
        for (t, (ins, outs)) in self.scores.iter().enumerate() {
            let target = &self.targets[t];
            for (side, v) in [("in", ins), ("out", outs)] {
                for (i, s) in v.iter().enumerate() {
                    out.push_str(&format!(
                        "{},{},{side},{i},{s}\n",
                        target.method(),
                        target.epsilon()
                    ));
                }
            }
        }
        out
    }
}
