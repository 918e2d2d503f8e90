//! FLUTE: federated representation learning in the under-parameterized regime
//! (Liu, Shen & Yang, ICML 2024): the linear FLUTE of Algorithm 1 against
//! FedRep and FedRep(RI) on the paper's synthetic data, when the true rank r
//! exceeds the representation size k. DP-FLUTE and the comparison with Private
//! FedRep are this project's extension (the paper has no privacy).
//!
//! - [`config`]: the settings and presets; [`plan`]: the private releases;
//! - [`run`]: the sweep, round by round; [`charts`]: six charts.

pub mod audit;
pub mod charts;
mod checks;
pub mod claims;
pub mod config;
pub mod plan;
pub mod run;

use self::config::{FluteConfig, PRESETS};
use self::run::{csv, curves_csv, Curve, FluteRow, FluteSweep};
use crate::scenarios::prelude::*;

/// The scenario (the registry lists it).
pub struct Flute;

const CHARTS: &[ChartInfo] = &[
    ChartInfo {
        id: "flute-error-chart",
        name: "error chart",
        alt: "The paper's error (1/M) Σ‖B wᵢ − φᵢ‖ versus rounds for FLUTE and FedRep in two forms, each from two starts, with the ERM floor and the rank-k truncation's error; the same numbers are in the table below",
        caption: "The paper's error against the true regressors, mean over seeds (Fig. 1 and 3). With k < r no model reaches 0. \
                  Dashed: the finite-N ERM floor, the error of the best fit of eq. 2 to these samples (with few samples it overfits, \
                  and a regularized or noisy run can end below it), and the error of the rank-k truncation Φₖ, the best rank-k model \
                  in Frobenius norm (for this mean of norms a reference, not a lower bound). The paper does not specify its FedRep, so \
                  both readings are drawn. “Gradient steps” is FedRep as its code runs it: each client takes τ_h gradient steps on its \
                  head, then one on B, and the server averages B, with no QR, at FLUTE's η and c; FedRep starts from the \
                  method-of-moments subspace with zero heads, FedRep(RI) from FLUTE's exact random (B⁰, W⁰). “Alternating minimization \
                  + QR” is Collins et al.'s analysed form (exact heads, a step on U, QR), which ignores the start's scale. At App. C.1 \
                  (flute-c1), from the same random start, FLUTE comes within 10 % of the ERM floor in less than half the rounds of \
                  gradient FedRep(RI), the paper's finding. “Summed as FLUTE's” (this project's extension, on at flute-c1) is gradient \
                  FedRep(RI) whose server sums the clients' steps on B, as FLUTE's data step does, instead of averaging them (M times \
                  the step): with no regularizer it gets there within a fifth of FLUTE's rounds, so FLUTE's lead over FedRep(RI) is \
                  its summed step, not its regularizer. Gradient FedRep from its moments start gets there no later than FLUTE, and \
                  the analysed form sooner than both, from either start. FLUTE and the four FedReps of the paper's readings end \
                  within 10 % of the floor.",
        toggle: None,
        animate: true,
        claims: &[
            "flute-before-gradient-fedrep-ri",
            "flute-summed-fedrep-ri-as-quick",
            "flute-gradient-fedrep-moments-as-quick",
            "flute-altmin-quickest",
            "flute-all-end-at-erm-floor",
        ],
    },
    ChartInfo {
        id: "flute-sv-chart",
        name: "singular values chart",
        alt: "The singular values of FLUTE's BW versus rounds against the singular values of Phi; the same numbers are in the table below",
        caption: "σⱼ(BW) of FLUTE against σⱼ(Φ) (dashed). From a small start the components are learned one at a time, largest \
                  first, each settling near its λⱼ; the (k+1)-th level is what a rank-k model must leave out.",
        toggle: None,
        animate: true,
        claims: &["flute-one-component-at-a-time"],
    },
    ChartInfo {
        id: "flute-angle-chart",
        name: "principal angle chart",
        alt: "Sine of the largest principal angle between span(B) and U_k versus rounds; the same numbers are in the table below",
        caption: "How far span(B) is from the top-k singular subspace U_k of Φ (not used in the paper; the FedRep papers' distance). \
                  Finite samples leave a floor.",
        toggle: None,
        animate: true,
        claims: &[],
    },
    ChartInfo {
        id: "flute-balance-chart",
        name: "balancedness chart",
        alt: "The balancedness of FLUTE's and gradient FedRep's factors versus rounds; the same numbers are in the table below",
        caption: "‖BᵀB − WWᵀ‖_F. FLUTE's regularizer (with γ₁ = 2γ₂ it is γ₂‖BᵀB − WWᵀ‖²) keeps its two factors balanced; \
                  gradient FedRep has no such term, and its heads, which carry the scale, leave it far from balance.",
        toggle: None,
        animate: true,
        claims: &["flute-stays-balanced"],
    },
    ChartInfo {
        id: "flute-eps-chart",
        name: "error versus ε chart",
        alt: "Final error versus epsilon for DP-FLUTE and Private FedRep, with the non-private levels; the same numbers are in the table below",
        caption: "This project's extension (no paper reports it): DP-FLUTE (each client's contribution clipped, Gaussian noise on \
                  the sums) and Private FedRep on the same clients, at the same client-level ε. The paper's error is mostly what a \
                  rank-k model must leave out, so privacy moves it little; the next chart shows the learned subspace. Empty unless \
                  “private runs” is on.",
        toggle: None,
        animate: false,
        claims: &["flute-private-error-moves-little"],
    },
    ChartInfo {
        id: "flute-eps-angle-chart",
        name: "distance versus ε chart",
        alt: "Final distance between span(B) and U_k versus epsilon for DP-FLUTE and Private FedRep, with the non-private levels; the same numbers are in the table below",
        caption: "The same private runs: the sine of the largest principal angle between span(B) and U_k at the end, where the \
                  cost of privacy shows: DP-FLUTE's distance falls as ε grows. Private FedRep (at flute-private its step, clip and \
                  initialization clip are tuned so that its distance falls with ε) falls too, but ends farther from U_k than \
                  DP-FLUTE at every ε: its heads and its gradients use disjoint halves of each client's samples and its gradients \
                  are clipped, and even at ε = 100 it stays 0.25–0.3 from U_k, where the non-private FedRep ends within 0.1. \
                  Empty unless “private runs” is on.",
        toggle: None,
        animate: false,
        claims: &["flute-private-angle-falls", "flute-private-fedrep-farther"],
    },
    ChartInfo {
        id: "flute-gamma-chart",
        name: "γ ablation chart",
        alt: "Final FLUTE error versus samples per client for three ratios of gamma1 to gamma2; the same numbers are in the table below",
        caption: "Fig. 4: the final error for γ₁ = 2γ₂, γ₂ and (2/3)γ₂ at several N (γ₁ > 2γ₂ diverges and is refused). \
                  Empty unless N values are set.",
        toggle: None,
        animate: false,
        claims: &[],
    },
];

const LESSON: &[LessonStep] = &[
    LessonStep {
        title: "Too small a representation",
        text: "The true regressors have rank r = 10 but the model only k = 2: no 2-dimensional representation fits every client, \
               so the error cannot reach 0. Watch FLUTE and every FedRep settle at the finite-N ERM floor, above even the error \
               of the rank-k truncation.",
        preset: "flute-c1",
        settings: &[],
        claims: &["flute-all-end-at-erm-floor"],
    },
    LessonStep {
        title: "FLUTE against the FedRep the paper ran",
        text: "From the same tiny random start, FLUTE leaves its plateau and reaches the ERM floor in less than half the rounds \
               FedRep takes when run as its code runs it (FedRep(RI), gradient steps), as the paper reports (§7.1). From its \
               data-driven start gradient FedRep gets there no later than FLUTE, and the alternating-minimization FedRep, which \
               refits every head exactly, sooner than both: FLUTE's lead is over gradient averaging from the same start, not over \
               every FedRep. And the lead is FLUTE's server step, not its regularizer: FedRep(RI) whose server sums the \
               clients' steps as FLUTE's does (“summed as FLUTE's”, this project's extension) gets there as soon as FLUTE.",
        preset: "flute-c1",
        settings: &[("seeds", "3")],
        claims: &[
            "flute-before-gradient-fedrep-ri",
            "flute-summed-fedrep-ri-as-quick",
            "flute-gradient-fedrep-moments-as-quick",
            "flute-altmin-quickest",
        ],
    },
    LessonStep {
        title: "One component at a time",
        text: "From a tiny random start FLUTE picks up the singular directions of Φ one by one, the largest first. Look at the \
               singular-values chart.",
        preset: "flute-c1",
        settings: &[("k", "4")],
        claims: &["flute-one-component-at-a-time"],
    },
    LessonStep {
        title: "When r = k, everyone agrees",
        text: "In the over-parameterized case a k-dimensional representation fits every client: FLUTE and the \
               alternating-minimization FedReps end within 0.001 of U_k, and gradient FedRep, slower, within 0.005 in 600 rounds.",
        preset: "flute-overparam",
        settings: &[],
        claims: &["flute-overparam-same-subspace"],
    },
    LessonStep {
        title: "Privacy (this project's extension)",
        text: "With 2000 clients, DP-FLUTE clips each client's contribution and adds Gaussian noise. The paper's error hardly \
               moves with ε: DP-FLUTE's stays within 10 % of FLUTE's at every ε, since it is mostly what a rank-2 model must leave \
               out. The cost of privacy shows in the distance to U_k, which falls as ε grows. Private FedRep, its step and clips \
               tuned for this preset, falls with ε too, but ends farther from U_k than DP-FLUTE at every ε: it fits its heads \
               and its gradients on disjoint halves of each client's 20 samples.",
        preset: "flute-private",
        // Three seeds (one alone is not monotone in ε); FLUTE is at its floor
        // long before 150 rounds, which keeps the step under 10 s.
        settings: &[("seeds", "3"), ("rounds", "150")],
        claims: &[
            "flute-private-error-moves-little",
            "flute-private-angle-falls",
            "flute-private-fedrep-farther",
        ],
    },
];

/// The finished rows with their reports, and the curves: what a part holds.
pub type Part = RowsAndCurves<Rows<FluteRow>, Curve>;

impl Experiment for Flute {
    type Sweep = FluteSweep;

    const ABOUT: About = About {
        id: "flute",
        title: "FLUTE: a representation too small for every client",
        lede: "Liu, Shen & Yang (ICML 2024): when the clients' true regressors have rank r larger than the representation size k, \
               no k-dimensional representation fits every client, and averaging locally fitted representations can lose the top \
               directions (their Example 1). FLUTE uploads the heads too and adds a server-side regularizer that steers B to the \
               top-k subspace. Linear FLUTE (Algorithm 1) on the paper's synthetic data, against FedRep in two forms (the paper does \
               not say which it ran): from the same tiny random start, FLUTE reaches the finite-N ERM floor sooner than FedRep run \
               as its code runs it, as the paper reports (about 3 times sooner at App. C.1's 15 clients, about 8 times at 120). The \
               runs put the lead on FLUTE's server step, which sums the clients' gradients where FedRep averages them: FedRep(RI) \
               given the summed step (this project's extension) is as quick as FLUTE, and FLUTE with its regularizer nearly off is \
               no slower. From its data-driven start FedRep is about as quick, and at App. C.1 every method ends at the same floor. \
               DP-FLUTE is this project's private extension.",
        look_at: "Watch the error chart: with a representation smaller than the clients' rank (k < r) no model reaches 0, and FLUTE reaches the dashed floor sooner than FedRep as its code runs it. \
                  Turn on the private runs to see the price of privacy on the error versus ε chart.",
        source: "Liu, Shen, Yang, Federated Representation Learning in the Under-Parameterized Regime (ICML 2024), Algorithm 1, §7.1, App. C.1",
        unit: "client",
        presets: PRESETS,
        charts: CHARTS,
        lesson: LESSON,
        claims: claims::CLAIMS,
        metrics: &["error"],
        test_size: TestSize {
            preset: "flute-private",
            settings: &[("n", "50"), ("m", "10"), ("rounds", "20"), ("private_rounds", "10")],
        },
    };
    const AUDIT: Option<AuditFn<FluteConfig>> = Some(audit::flute_audit_targets);
    const AUDIT_SIZE: Option<AuditSizeBy<FluteConfig>> = Some(audit::AUDIT_SIZE);

    fn start(config: Checked<FluteConfig>, _: Shard) -> Result<FluteSweep, Vec<ConfigError>> {
        Ok(FluteSweep::new(config))
    }

    fn view(c: &FluteConfig, part: &Part) -> View {
        // One entry per (method, ε): the same release for every seed.
        let privacy = part.rows.one_entry_per_release(
            |r| Some((r.method, r.epsilon.to_bits())),
            |r, p| {
                let who = if r.method == run::Method::DpFlute {
                    format!(
                        "DP-FLUTE (project's extension), clip ψ = {}, σ = {:.4}",
                        c.clip, r.sigma
                    )
                } else {
                    format!(
                        "Private FedRep, clip ψ = {}, σ̂ = {:.4}",
                        c.fedrep_clip, r.sigma
                    )
                };
                run_entry(&who, p, "client", c.n)
            },
        );
        let (rows, curves) = (&part.rows.rows, &part.curves);
        let files = vec![
            OutputFile::results(csv(rows)),
            OutputFile {
                name: "curves.csv",
                text: curves_csv(curves, c.k),
            },
        ];
        View::of_charts(
            charts::charts(c, rows, curves),
            privacy,
            files,
            summary(rows),
        )
    }

    fn estimated_seconds(c: &FluteConfig, machine: &Machine) -> f64 {
        machine.seconds(c.estimated_seconds(), 0.0)
    }

    /// The page's worker over the native estimate: fitted to `flute-private`
    /// in the page (`make estimates`, docs/performance.md).
    fn estimated_wasm_seconds(c: &FluteConfig, machine: &Machine) -> f64 {
        Self::estimated_seconds(c, machine) * 1.3
    }

    /// The page's fixed part and the points of its curves over rounds: FLUTE
    /// and the four (or five) FedReps, the two private methods at each ε, the
    /// ablation's three ratios at each client count.
    fn page_overhead_seconds(c: &FluteConfig) -> f64 {
        let per_seed = (5 + usize::from(c.fedrep_summed)) * c.rounds
            + 2 * c.private_epsilons().len() * c.private_rounds
            + 3 * c.ablation_m.len() * c.rounds;
        crate::scenarios::machine::PAGE_OVERHEAD_SECONDS
            + (c.seeds * per_seed) as f64 * crate::scenarios::machine::POINT_SECONDS
    }
}

/// The CLI's table of the rows.
fn summary(rows: &[FluteRow]) -> String {
    let mut out = format!(
        "{:<16} {:>8} {:>5} {:>4} {:>10} {:>10} {:>10} {:>10} {:>8}\n",
        "method", "ε", "seed", "N", "error", "ERM floor", "Φₖ error", "angle", "to floor"
    );
    for r in rows {
        out.push_str(&format!(
            "{:<16} {:>8} {:>5} {:>4} {:>10.4} {:>10.4} {:>10.4} {:>10.4} {:>8}\n",
            r.method,
            number_or(r.epsilon, "—"),
            r.seed,
            r.m,
            r.error,
            r.erm_floor,
            r.population_floor,
            r.principal_angle,
            number_or(r.rounds_to_floor, "—")
        ));
    }
    out
}
