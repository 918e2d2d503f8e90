//! What the private runs of the trace-regression scenario release, as typed
//! privacy events, and their noise.
//!
//! The paper's variant (Zha 2024, Theorems 1, 3, 6, 7): the initialization's
//! three releases at (ε/3, δ/3) each, s = √(2 ln(1.25·3/δ))·Δ·3/ε =
//! √(18 ln(3.75/δ))·Δ/ε (App. A.2's log(3.75/δ), not the box's log(3/δ)), and
//! l* DP-RGrad releases at (ε/l*, δ/l*), sd = √(2 ln(1.25 l*/δ))·l*·Δ_l/ε (the
//! box's factor 2). Δ's are the paper's high-probability values with the true
//! σ's and a constant C (natural logarithms):
//!   Δ⁽¹⁾ = C(√r σ₁ + σ_ξ)/σ_r · √r/n · ln n,  Δ⁽²⁾ = C(√r σ₁ + σ_ξ) · √r/n · ln n,
//!   Δ_l = C η/n (σ_ξ + σ_r) √(r(d1 + d2) ln n);
//! weak DP drops the terms in σ₁ and σ_r (Theorems 6 and 7).
//!
//! The clipped variant (this project's extension): the clipped L̂ once, with
//! sensitivity 2τ_yτ_x/n, then l* clipped tangent gradients, sensitivity
//! 2ητ/n each, calibrated exactly to (2ε, 2δ) in total (the paper's total),
//! half of μ² each.

use super::config::{PrivacyKind, TraceConfig, Variant};
use crate::privacy::{
    calibration::calibrate_mu, AccountingError, Calibration, PrivacyEvent, PrivacyReport, Relation,
};
use crate::scenarios::field::Config;

/// The noise of one private run and its reports.
#[derive(Clone, Debug)]
pub struct TracePlan {
    /// Paper: s₁ (projectors) and s₂ (core); clipped: s₁ = the noise on L̂, s₂ unused.
    pub s1: f64,
    pub s2: f64,
    /// sd of N_l.
    pub loop_sd: f64,
    /// The initialization's releases alone (target ε).
    pub init_report: PrivacyReport,
    /// Everything (target 2ε).
    pub report: PrivacyReport,
}

/// Δ⁽¹⁾, Δ⁽²⁾, Δ_l of the paper at sample size n.
pub fn paper_sensitivities(c: &TraceConfig, n: usize, privacy: PrivacyKind) -> (f64, f64, f64) {
    let r = c.r as f64;
    let s1 = c.singular_values[0];
    let sr = c.singular_values[c.r - 1];
    let nf = n as f64;
    let ln = nf.ln();
    let (top, loop_signal) = match privacy {
        PrivacyKind::Strong => (r.sqrt() * s1 + c.noise, c.noise + sr),
        PrivacyKind::Weak => (c.noise, c.noise),
    };
    let d2 = c.constant * top * r.sqrt() / nf * ln;
    let d1 = d2 / sr;
    let dl = c.constant * c.eta / nf * loop_signal * (r * (c.d1 + c.d2) as f64 * ln).sqrt();
    (d1, d2, dl)
}

fn relation_note(privacy: PrivacyKind) -> &'static str {
    match privacy {
        PrivacyKind::Strong => "Neighbours differ in one sample (X_i, y_i) (replace one).",
        PrivacyKind::Weak => "Weak DP (the paper's §5): neighbours share every X_i and differ in one y_i only; the sensitivities drop the terms in σ₁ and σ_r.",
    }
}

pub fn plan(
    c: &TraceConfig,
    n: usize,
    epsilon: f64,
    variant: Variant,
    privacy: PrivacyKind,
) -> Result<TracePlan, AccountingError> {
    let l = c.iterations as u64;
    let (init_events, loop_event, s1, s2, loop_sd, calibration) = match variant {
        Variant::Paper => {
            let (d1, d2, dl) = paper_sensitivities(c, n, privacy);
            let factor = (18.0 * (3.75 / c.delta).ln()).sqrt() / epsilon;
            let (s1, s2) = (factor * d1, factor * d2);
            let sd = (2.0 * (1.25 * l as f64 / c.delta).ln()).sqrt() * l as f64 * dl / epsilon;
            (
                vec![
                    PrivacyEvent::gaussian(
                        "left projector ÛÛᵀ (Alg. 1, line 3)",
                        "symmetric Gaussian noise on a d1×d1 projector",
                        d1,
                        s1,
                    ),
                    PrivacyEvent::gaussian(
                        "right projector V̂V̂ᵀ (Alg. 1, line 4)",
                        "symmetric Gaussian noise on a d2×d2 projector",
                        d1,
                        s1,
                    ),
                    PrivacyEvent::gaussian(
                        "core ŨᵀL̂Ṽ (Alg. 1, line 5)",
                        "iid Gaussian noise on an r×r matrix",
                        d2,
                        s2,
                    ),
                ],
                PrivacyEvent::gaussian(
                    "DP-RGrad iterations (Alg. 2)",
                    "Gaussian noise on M_l − ηP_T(G_l), projected on the tangent space",
                    dl,
                    sd,
                )
                .repeated(l),
                s1,
                s2,
                sd,
                Calibration::Paper,
            )
        }
        Variant::Clipped => {
            let s_init = 2.0 * c.clip_y * c.clip_x / n as f64;
            let s_loop = 2.0 * c.eta * c.clip_grad / n as f64;
            // The whole run's μ: its risk's, or that of (2ε, 2δ).
            let sig = calibrate_mu(
                c.risk_target().mu(epsilon)?,
                &[(1, s_init, 0.5), (l, s_loop, 0.5)],
            )?;
            (
                vec![PrivacyEvent::gaussian(
                    "clipped L̂ (project's extension of Alg. 1)",
                    "iid Gaussian noise on the mean of n clipped y_i X_i (d1×d2)",
                    s_init,
                    sig[0],
                )],
                PrivacyEvent::gaussian(
                    "clipped DP-RGrad iterations (project's extension of Alg. 2)",
                    "Gaussian noise on the mean of n clipped tangent gradients, projected",
                    s_loop,
                    sig[1],
                )
                .repeated(l),
                sig[0],
                0.0,
                sig[1],
                Calibration::Exact,
            )
        }
    };
    let note = |report: &mut PrivacyReport| {
        match variant {
            Variant::Paper => report.high_probability_sensitivities = true,
            Variant::Clipped => {}
        }
        match variant {
            Variant::Paper => report.add_note(format!(
                "These sensitivities are the paper's high-probability bounds, with no clipping: they use the true σ₁ = {}, σ_r = {}, σ_ξ = {} and an unspecified constant C = {}. The ε shown is a guarantee only on a likely event, and only for an oracle that knows them.",
                c.singular_values[0],
                c.singular_values[c.r - 1],
                c.noise,
                c.constant
            )),
            Variant::Clipped => report.add_note(format!(
                "The clipped variant is this project's extension: |y_i| ≤ {}, ‖X_i‖_F ≤ {} and every tangent gradient ≤ {} after clipping, so the sensitivities hold whatever the data and the ε is a real guarantee.",
                c.clip_y, c.clip_x, c.clip_grad
            )),
        }
        report.add_note(relation_note(privacy));
    };
    let mut init_report = PrivacyReport::from_event(
        &PrivacyEvent::Composed(init_events.clone()),
        c.delta,
        Relation::ReplaceOne,
        calibration,
        epsilon,
    )?;
    note(&mut init_report);
    let mut all = init_events;
    all.push(loop_event);
    let mut report = PrivacyReport::from_event(
        &PrivacyEvent::Composed(all),
        (2.0 * c.delta).min(0.5),
        Relation::ReplaceOne,
        calibration,
        2.0 * epsilon,
    )?;
    c.risk_target().mark(&mut report, epsilon);
    report.add_note("The paper's total for the initialization and the loop is (2ε, 2δ) (Theorem 3); the exact accountant composes the same releases at 2δ.");
    note(&mut report);
    Ok(TracePlan {
        s1,
        s2,
        loop_sd,
        init_report,
        report,
    })
}
