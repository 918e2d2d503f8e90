//! Private personalized classification (Snedeker, Zhou & Bassily, ICML 2025,
//! Algorithm 3 and Theorem 17): the JL + exponential-mechanism learner, a
//! user-level (ε, 0)-DP mechanism, at a small scale: the candidates are the
//! exact γ-cover where it is small, or random candidates drawn without the
//! data (this project's choice, labelled as such).
//!
//! - [`config`]: the settings; [`plan`]: the pure-ε release and its report;
//! - [`run`]: the sweep over seeds and dimensions; [`charts`]: three charts;
//! - [`claims`]: what the lesson and captions say the charts show, checked.

pub mod audit;
pub mod charts;
pub mod claims;
pub mod config;
pub mod plan;
pub mod run;

use self::config::{ClassifierConfig, PRESETS};
use self::run::{csv, ClassifierRow, ClassifierSweep};
use crate::scenarios::prelude::*;

/// The scenario (the registry lists it).
pub struct Classifier;

const CHARTS: &[ChartInfo] = &[
    ChartInfo {
        id: "jl-eps-chart",
        name: "error versus ε chart",
        alt: "0-1 error of the private learner versus epsilon, against the baselines; the same numbers are in the table below",
        caption: "0-1 error on fresh points (against the true labels) versus ε at the main d, for Algorithm 3 and three \
                  references: the candidate with the best score (non-private), each user alone on a random representation, and \
                  the true U* with heads fitted on S¹. The mechanism is pure ε-DP: δ = 0. With random candidates the error falls as \
                  ε grows, and at the largest ε it is within 0.01 of the best candidate's. \
                  The model: each input keeps a share a = 0.98 of its norm in the true subspace span(U*) (a = 0.6 in the \
                  k = 1 preset; in the ball model the share shrinks like 1/√d instead), and each training label is flipped with probability 5 %; the \
                  error is measured against the true labels, so the flips are no floor under it.",
        toggle: None,
        animate: false,
        claims: &[
            "jl-pure-epsilon",
            "jl-error-falls-with-eps",
            "jl-near-best-candidate",
        ],
    },
    ChartInfo {
        id: "jl-d-chart",
        name: "error versus d chart",
        alt: "0-1 error versus the dimension d at a fixed JL dimension; the same numbers are in the table below",
        caption: "0-1 error versus the input dimension d, at a fixed JL dimension k′ and the same candidates for every d. Theorem \
                  17's bound does not depend on d, given the margin ρ (theory). With the default inputs (x = U*z + P⊥g: a share a \
                  of ‖x‖ = r in span(U*), the margin independent of d, this project's data model) the error at the largest ε is \
                  flat in d. With inputs = ball (x uniform in the d-ball) the label's signal shrinks like 1/√d and the error \
                  climbs towards chance (0.5), for the best candidate too. At k′ = 2 (jl-exact) each d's JL matrix matters more \
                  than d does, and the curve is not flat.",
        toggle: None,
        animate: false,
        claims: &["jl-flat-in-d"],
    },
    ChartInfo {
        id: "jl-candidates-chart",
        name: "error versus candidates chart",
        alt: "0-1 error versus the number of random candidates at one epsilon; the same numbers are in the table below",
        caption: "0-1 error versus the number of random candidates at one ε. In theory a larger range may hold a better \
                  representation but costs log N_c/(εn) to search. With the default inputs nearly every input lies in span(U*), \
                  so even a few random candidates include a good one and the curve is flat. Empty for the exact cover.",
        toggle: None,
        animate: false,
        claims: &["jl-candidates-flat"],
    },
];

const LESSON: &[LessonStep] = &[
    LessonStep {
        title: "A pure ε mechanism",
        text: "The exponential mechanism picks one candidate representation with probability ∝ exp(ε·n·score/2): no Gaussian \
               noise, and δ = 0. This preset draws from the exact γ-cover of B_F, the paper's range, at a toy size (k = 1, \
               k′ = 2, γ = 0.5: 16 candidates); “Explain ε” says how far that is from what Theorem 17 needs. With 16 \
               candidates the mechanism finds the best one already at a small ε: the error left is the projection's. At \
               k′ = 2 the JL map folds the part of each input orthogonal to U* onto the signal, so even the best candidate \
               errs where the true U* does not.",
        preset: "jl-exact",
        settings: &[],
        claims: &["jl-pure-epsilon", "jl-near-best-candidate"],
    },
    LessonStep {
        title: "Error flat in d",
        text: "Theorem 17's bound does not depend on the dimension d. With the default inputs the margin does not either \
               (x = U*z + P⊥g, so ⟨x, U*v*⟩ = ⟨z, v*⟩ at every d), and on the error-versus-d chart the error at the largest \
               ε stays flat from d = 10 to 300, near the best candidate.",
        preset: "jl-random",
        settings: &[],
        claims: &["jl-flat-in-d", "jl-near-best-candidate"],
    },
    LessonStep {
        title: "A margin that shrinks with d",
        text: "Inputs uniform in the d-ball, the theorem's domain with no more structure: the label's signal ⟨x, U*v*⟩ \
               shrinks like 1/√d, while the projection to k′ dimensions distorts inner products by about ‖x‖·‖U*v*‖/√k′. \
               The best candidate's error climbs towards chance as d grows: Theorem 17's comparator, the best ρ-margin loss, \
               itself grows with d here.",
        preset: "jl-random",
        settings: &[("inputs", "ball")],
        claims: &["jl-ball-climbs-to-chance"],
    },
    LessonStep {
        title: "The price of privacy",
        text: "The exponential mechanism favours a candidate by exp(ε·n·score/2): at a small ε it spreads its pick over \
               many candidates, and as ε grows it concentrates on the best scores. On the error-versus-ε chart the error falls as ε grows, to the best \
               candidate's at the largest ε.",
        preset: "jl-random",
        settings: &[],
        claims: &["jl-error-falls-with-eps", "jl-near-best-candidate"],
    },
];

impl Experiment for Classifier {
    type Sweep = ClassifierSweep;

    const ABOUT: About = About {
        id: "classifier",
        title: "Private classification (JL + exponential mechanism)",
        lede: "Algorithm 3 of Snedeker, Zhou & Bassily (ICML 2025): personalized margin classification, user-level (ε, 0)-DP. \
               Project the data with a random JL matrix, pick a representation with the exponential mechanism, let each user \
               fit its own head. A pure-ε mechanism beside the Gaussian ones, at a small scale: the paper's cover is \
               astronomically large, so the default draws random candidates (this project's choice). The paper fixes only \
               the ball the inputs live in; by default they keep most of their norm in span(U*), with a margin that does not \
               depend on d (this project's data model; the uniform ball is an option).",
        look_at: "Watch the error versus ε chart: at a small ε the exponential mechanism picks a representation nearly at random, at a large ε it finds the best candidate. \
                  The error versus d chart shows the paper's claim: with the default inputs the error does not grow with the dimension d.",
        source: "Snedeker, Zhou, Bassily, Private Model Personalization Revisited (ICML 2025), Algorithm 3",
        unit: "user",
        presets: PRESETS,
        charts: CHARTS,
        lesson: LESSON,
        claims: claims::CLAIMS,
        metrics: &["error01"],
        test_size: TestSize {
            preset: "jl-random",
            settings: &[("n", "50"), ("m", "10"), ("candidates", "20"), ("d_grid", "none"),
                ("candidate_grid", "none"), ("test_points", "10")],
        },
    };
    const AUDIT: Option<AuditFn<ClassifierConfig>> = Some(audit::classifier_audit_targets);

    fn start(
        config: Checked<ClassifierConfig>,
        _: Shard,
    ) -> Result<ClassifierSweep, Vec<ConfigError>> {
        Ok(ClassifierSweep::new(config))
    }

    fn view(c: &ClassifierConfig, part: &Rows<ClassifierRow>) -> View {
        // One entry per (ε, candidate count): the same release for every d and seed.
        let privacy = part.one_entry_per_release(
            |r| Some((r.epsilon.to_bits(), r.candidates)),
            |r, p| {
                let who = format!("JL + exponential mechanism, {} candidates", r.candidates);
                run_entry(&who, p, "user", c.n)
            },
        );
        let rows = &part.rows;
        let files = vec![OutputFile::results(csv(rows))];
        View::of_charts(charts::charts(c, rows), privacy, files, summary(rows))
    }

    fn estimated_seconds(c: &ClassifierConfig, machine: &Machine) -> f64 {
        // Scoring dominates: every candidate, every S⁰ point, mapped (k′k) and swept.
        let points = (c.n * c.m / 2) as f64;
        let candidates = c.largest_candidates().max(16) as f64;
        let per = (c.k_prime * c.k) as f64 * 2.0 + 40.0;
        let scoring: f64 = c.seeds as f64 * c.dimensions().len() as f64 * candidates * points * per;
        // Drawing the inputs and the test points: about 13 ns per drawn
        // coordinate; the ball rejects whole d-vectors (1/acceptance draws per
        // input), the subspace model only z (k coordinates) and then draws g
        // and removes its U* part (about 1 + 2k/3 passes over d).
        let drawing: f64 = c.seeds as f64
            * c.dimensions()
                .iter()
                .map(|&d| {
                    let model = c.model(c.seed, d);
                    let per_input = match c.inputs {
                        config::InputModel::Ball => d as f64 / model.acceptance().max(1e-2),
                        config::InputModel::Subspace => {
                            d as f64 * (1.0 + 2.0 * c.k as f64 / 3.0)
                                + c.k as f64 / model.acceptance().max(1e-2)
                        }
                    };
                    (c.n * (c.m + c.test_points)) as f64 * per_input
                })
                .sum::<f64>();
        machine.seconds(scoring * 2.0e-9 + drawing * 13.0e-9, 0.0)
    }

    /// The page's worker over the native estimate: fitted to `jl-random` and
    /// `jl-exact` in the page (`make estimates`, docs/performance.md).
    fn estimated_wasm_seconds(c: &ClassifierConfig, machine: &Machine) -> f64 {
        Self::estimated_seconds(c, machine) * 0.9
    }
}

/// The CLI's table of the rows.
fn summary(rows: &[ClassifierRow]) -> String {
    let mut out = format!(
        "{:<18} {:>6} {:>8} {:>8} {:>10} {:>10}\n",
        "method", "d", "ε", "seed", "0-1 error", "candidates"
    );
    for r in rows {
        out.push_str(&format!(
            "{:<18} {:>6} {:>8} {:>8} {:>10.4} {:>10}\n",
            r.method,
            r.d,
            number_or(r.epsilon, "—"),
            r.seed,
            r.error01,
            r.candidates
        ));
    }
    out
}
