//! DP low-rank trace regression (Zha 2024, "Near-optimal differentially
//! private low-rank trace regression with guaranteed private
//! initialization"): the private spectral initialization (Algorithm 1) and
//! DP-RGrad (Algorithm 2) against non-private RGrad, on the Gaussian design.
//! The paper has no experiments; this is the first implementation. The
//! clipped variant, with worst-case sensitivities, is this project's extension.
//!
//! - [`config`]: the settings; [`plan`]: the releases and their noise;
//! - [`run`]: one dataset per step; [`charts`]: five charts.

pub mod audit;
pub mod charts;
mod checks;
pub mod claims;
pub mod config;
pub mod method;
pub mod plan;
pub mod run;

use self::config::{TraceConfig, PRESETS};
use self::method::Method;
use self::run::{csv, TraceRow, TraceSweep};
use crate::privacy::report::fmt_num;
use crate::scenarios::prelude::*;

/// The scenario (the registry lists it).
pub struct Trace;

const CHARTS: &[ChartInfo] = &[
    ChartInfo {
        id: "trace-eps-chart",
        name: "error versus ε chart",
        alt: "Frobenius error versus epsilon for the private initialization and DP-RGrad, with the non-private reference, the theory's shape and the lower bound's; the same numbers are in the table below",
        caption: "‖M̃ − M‖_F at the first n, median over repeats. The privacy part of the error falls like 1/(nε) (Theorem 3): \
                  the dotted curve is eq. 7's shape with one fitted constant, the lower one the minimax lower bound's shape (Theorem 2); \
                  the gap between them is the paper's σ_r term. The paper's ε holds only on a likely event (see Explain ε).",
        toggle: None,
        animate: false,
        claims: &["trace-error-falls-with-eps", "trace-rgrad-improves-start"],
    },
    ChartInfo {
        id: "trace-n-chart",
        name: "error versus n chart",
        alt: "Frobenius error of DP-RGrad versus the sample size at each epsilon, with slopes -1/2 and -1; the same numbers are in the table below",
        caption: "DP-RGrad's error against n at each ε. Theorem 3 predicts two regimes: at small n the privacy term dominates \
                  and the error falls like 1/n, at large n the statistical term, like 1/√n; they cross near n ≈ r(d1 + d2)/ε².",
        toggle: None,
        animate: false,
        claims: &["trace-error-falls-with-n"],
    },
    ChartInfo {
        id: "trace-trajectory-chart",
        name: "trajectory chart",
        alt: "Frobenius error of the DP-RGrad iterates versus the iteration; the same numbers are in the table below",
        caption: "‖M_l − M‖_F over DP-RGrad's iterations at the first n. The theory's picture: geometric at first, then flat \
                  at the noise floor.",
        toggle: None,
        animate: true,
        claims: &["trace-iterates-contract"],
    },
    ChartInfo {
        id: "trace-lstar-chart",
        name: "l* trade-off chart",
        alt: "Final Frobenius error versus the number of iterations at one epsilon; the same numbers are in the table below",
        caption: "Each iteration gets ε/l*: more iterations contract further but each is noisier (the noise grows like l*). Empty \
                  unless l* values are set.",
        toggle: None,
        animate: false,
        claims: &["trace-lstar-inside"],
    },
    ChartInfo {
        id: "trace-subspace-chart",
        name: "subspace error chart",
        alt: "Subspace error of the initialization and the final iterate versus epsilon; the same numbers are in the table below",
        caption: "sin of the largest principal angle between the estimated and the true left subspace, for the initialization and \
                  the final iterate.",
        toggle: None,
        animate: false,
        claims: &[],
    },
];

const LESSON: &[LessonStep] = &[
    LessonStep {
        title: "Private low-rank regression",
        text: "A rank-2 matrix M is seen through noisy linear measurements y = ⟨X, M⟩ + ξ. The private start releases two noisy \
               projectors and a noisy core; DP-RGrad then refines it with noisy steps on the rank-r manifold.",
        preset: "trace-paper",
        settings: &[],
        claims: &["trace-error-falls-with-eps", "trace-rgrad-improves-start"],
    },
    LessonStep {
        title: "An ε that needs an oracle",
        text: "The paper sets its noise from high-probability sensitivities that use the true σ's and an unknown constant C: open \
               Explain ε. The clipped variant (this project's extension) clips every sample and its ε holds for any data: \
               the whole run is calibrated to 2ε, split in halves of μ², so its start alone spends more than ε.",
        preset: "trace-paper",
        settings: &[("variant", "clipped"), ("data", "direct"), ("n", "10000,20000"), ("repeats", "3"), ("epsilons", "1,5")],
        claims: &["trace-run-within-2eps"],
    },
    LessonStep {
        title: "More iterations are not free",
        text: "Each iteration spends ε/l*: past a few iterations the extra noise outweighs the extra contraction.",
        preset: "trace-lstar",
        settings: &[],
        claims: &["trace-lstar-inside"],
    },
    LessonStep {
        title: "Weak DP closes the gap",
        text: "If neighbours share every X_i (weak DP), the σ_r term leaves the sensitivity and the error drops.",
        preset: "trace-weak",
        settings: &[],
        claims: &["trace-weak-below-strong"],
    },
];

impl Experiment for Trace {
    type Sweep = TraceSweep;

    const ABOUT: About = About {
        id: "trace",
        title: "DP low-rank trace regression",
        lede: "Zha (2024): estimate a rank-r matrix M from y = ⟨X, M⟩ + ξ privately, with a private spectral start (Algorithm 1) \
               and DP Riemannian gradient descent (Algorithm 2). The paper has no experiments; this is the first implementation. \
               Its noise comes from high-probability sensitivities with oracle constants; the clipped variant, with worst-case \
               sensitivities, is this project's extension.",
        look_at: "Watch the error versus ε chart: the private estimate's error falls as ε grows, and DP-RGrad's noisy steps improve on the private start. \
                  The error versus n chart shows what more samples buy: the privacy part of the error fades as n grows.",
        source: "Zha, Near-optimal differentially private low-rank trace regression with guaranteed private initialization (arXiv:2403.15999, 2024), Algorithms 1–2",
        unit: "sample",
        presets: PRESETS,
        charts: CHARTS,
        lesson: LESSON,
        claims: claims::CLAIMS,
        metrics: &["error_fro"],
        test_size: TestSize {
            preset: "trace-paper",
            settings: &[("d1", "5"), ("d2", "5"), ("n", "100"), ("repeats", "2"),
                ("iterations", "3")],
        },
    };
    const AUDIT: Option<AuditFn<TraceConfig>> = Some(audit::trace_audit_targets);
    const AUDIT_SIZE: Option<AuditSizeBy<TraceConfig>> = Some(audit::AUDIT_SIZE);

    fn start(config: Checked<TraceConfig>, _: Shard) -> Result<TraceSweep, Vec<ConfigError>> {
        Ok(TraceSweep::new(config))
    }

    fn view(c: &TraceConfig, part: &Rows<TraceRow>) -> View {
        // One entry per (method, configuration, ε) at the first n.
        let privacy = part.one_entry_per_release(
            |r| {
                let shown = r.n == c.n[0] && r.method != Method::DpRgradLstar;
                shown.then(|| format!("{}/{}/{}/{}", r.method, r.variant, r.privacy, r.epsilon))
            },
            |r, p| {
                let who = format!(
                    "{}{}{}, n = {}",
                    if r.method == Method::DpInit {
                        Method::DpInit.legend()
                    } else {
                        "DP initialization + DP-RGrad (Alg. 1 + 2)"
                    },
                    if r.variant == "clipped" {
                        ", clipped (project's extension)"
                    } else {
                        ", the paper's sensitivities"
                    },
                    if r.privacy == "weak" { ", weak DP" } else { "" },
                    r.n
                );
                let mut entry = run_entry(&who, p, "sample", r.n);
                if r.variant != "clipped" {
                    entry.reading = entry.reading.map(|text| likely_event_only(text, c));
                    if let Some(a) = entry.attacker.as_mut() {
                        // Every reading of the ε holds only on that event.
                        a.plain = a.plain.replacen(
                            "In plain words: ",
                            "In plain words, if the paper's high-probability bounds hold (a likely event, not a certain one): ",
                            1,
                        );
                        a.frequencies = a.frequencies.replacen(
                            "In frequencies: ",
                            "If those bounds hold, in frequencies: ",
                            1,
                        );
                        a.sentence = format!(
                            "If the paper's high-probability bounds hold (a likely event, not a certain one): {}",
                            a.sentence
                        );
                        a.test_bound = a.test_bound.replacen(
                            "Every such test on this run has",
                            "If those bounds hold, every such test on this run has",
                            1,
                        );
                    }
                }
                entry
            },
        );
        let rows = &part.rows;
        let files = vec![OutputFile::results(csv(rows))];
        View::of_charts(charts::charts(c, rows), privacy, files, summary(rows))
    }

    fn estimated_seconds(c: &TraceConfig, machine: &Machine) -> f64 {
        machine.seconds(c.estimated_seconds(), 0.0)
    }

    /// The page's worker over the native estimate: fitted to the trace presets
    /// in the page on a quiet machine (`make estimates`, docs/performance.md).
    fn estimated_wasm_seconds(c: &TraceConfig, machine: &Machine) -> f64 {
        machine.seconds(c.estimated_seconds() * 1.5, 0.0)
    }
}

/// The paper's variant's reading: its noise is set by high-probability
/// sensitivities (Zha 2024, Theorems 1 and 3) with the true σ's and the
/// constant C, so its ε is a guarantee only on the likely event where those
/// bounds hold, and only for an oracle that knows them.
fn likely_event_only(reading: String, c: &TraceConfig) -> String {
    format!(
        "With the paper's sensitivities this ε holds only on a likely event: the paper's high-probability \
         bounds on each sample's effect, with the true σ₁ = {}, σ_r = {}, σ_ξ = {} and the constant C = {}. \
         Outside that event no ε is guaranteed. On it: {reading}",
        fmt_num(c.singular_values[0]),
        fmt_num(c.singular_values[c.r - 1]),
        fmt_num(c.noise),
        fmt_num(c.constant),
    )
}

/// The CLI's table: one line per (method, configuration, n, ε or l*), the
/// median over its repeats.
fn summary(rows: &[TraceRow]) -> String {
    let mut out = format!(
        "{:<16} {:<8} {:<7} {:>7} {:>6} {:>8} {:>10} {:>8}\n",
        "method", "variant", "privacy", "n", "ε", "repeats", "median ‖·‖_F", "sin θ"
    );
    let mut cells: Vec<(Method, String, String, usize, u64)> = Vec::new();
    for r in rows {
        let key = (
            r.method,
            r.variant.clone(),
            r.privacy.clone(),
            r.n,
            r.epsilon.to_bits() ^ r.iterations as u64,
        );
        if !cells.contains(&key) {
            cells.push(key);
        }
    }
    for (m, v, p, n, bits) in &cells {
        let same: Vec<&TraceRow> = rows
            .iter()
            .filter(|r| {
                r.method == *m
                    && &r.variant == v
                    && &r.privacy == p
                    && r.n == *n
                    && (r.epsilon.to_bits() ^ r.iterations as u64) == *bits
            })
            .collect();
        let eps = same[0].epsilon;
        out.push_str(&format!(
            "{:<16} {:<8} {:<7} {:>7} {:>6} {:>8} {:>10.4} {:>8.4}\n",
            m,
            v,
            p,
            n,
            number_or(eps, "—"),
            same.len(),
            charts::median(same.iter().map(|r| r.error_fro).collect()),
            charts::median(same.iter().map(|r| r.subspace_error).collect()),
        ));
    }
    out
}
