//! What the private runs of the FLUTE scenario release, as typed privacy
//! events, and the σ's that spend exactly the target ε. Both private methods
//! are client-level: one client's whole dataset is the unit.
//!
//! - DP-FLUTE (this project's extension of Algorithm 1): T Gaussian releases
//!   of the pair (S, G) of clipped sums; the sensitivity of a sum of
//!   contributions of norm ≤ ψ is ψ (add/remove one client) or 2ψ (replace one)
//!   (derived in `algorithms/flute.rs`, tested there). The start is random.
//! - Private FedRep (Snedeker et al., Algorithms 1–2), run on the same data:
//!   its private initialization and T rounds of a clipped mean, sharing the
//!   budget as the Private FedRep scenario does.

use super::config::{FluteConfig, INIT_SHARE};
use crate::privacy::{calibrate_mu, AccountingError, Calibration, PrivacyEvent, PrivacyReport};
use crate::scenarios::field::Config;

/// σ's and reports of the two private methods at one ε.
#[derive(Clone, Debug)]
pub struct FlutePlan {
    /// DP-FLUTE's noise on every entry of (S, G).
    pub flute_sigma: f64,
    pub flute_report: PrivacyReport,
    /// Private FedRep's initialization noise and round noise.
    pub init_sigma: f64,
    pub fedrep_sigma: f64,
    pub fedrep_report: PrivacyReport,
}

/// The sensitivity of DP-FLUTE's released sums.
pub fn flute_sensitivity(c: &FluteConfig) -> f64 {
    c.relation.mean_sensitivity(c.clip, 1)
}

pub fn plan(c: &FluteConfig, epsilon: f64) -> Result<FlutePlan, AccountingError> {
    let t = c.private_rounds as u64;
    // The whole run's μ: its risk's when risks drive it, else that of (ε, δ).
    let mu = c.risk_target().mu(epsilon)?;
    let s_flute = flute_sensitivity(c);
    let flute_sigma = calibrate_mu(mu, &[(t, s_flute, 1.0)])?[0];
    let flute_event = PrivacyEvent::gaussian(
        "DP-FLUTE rounds (project's extension of Alg. 1)",
        format!(
            "Gaussian noise on the sums over clients of the clipped (∇_B Lᵢ, wᵢwᵢᵀ) ({}×{} and {}×{})",
            c.d, c.k, c.k, c.k
        ),
        s_flute,
        flute_sigma,
    )
    .repeated(t);
    let mut flute_report = PrivacyReport::from_event(
        &flute_event,
        c.delta,
        c.relation,
        Calibration::Exact,
        epsilon,
    )?;
    c.risk_target().mark(&mut flute_report, epsilon);
    flute_report.add_note("DP-FLUTE is this project's extension: the paper's FLUTE is not private. Each client's whole contribution to the server's step is clipped to ψ as one vector, so no client's data can move the release by more than the sensitivity.");
    flute_report.add_note("B⁰ and W⁰ are random (N(0, α²)): the start never looks at the data and costs no budget. The heads wᵢ stay on the clients and are never released.");

    let s_init = c.relation.mean_sensitivity(c.init_clip, c.n);
    let s_train = c.relation.mean_sensitivity(c.fedrep_clip, c.n);
    let sigmas = calibrate_mu(
        mu,
        &[(1, s_init, INIT_SHARE), (t, s_train, 1.0 - INIT_SHARE)],
    )?;
    let fedrep_event = PrivacyEvent::Composed(vec![
        PrivacyEvent::gaussian(
            "private initialization (Alg. 2)",
            "Gaussian noise on the mean of n clipped Z_i (d×d)",
            s_init,
            sigmas[0],
        ),
        PrivacyEvent::gaussian(
            "training rounds (Alg. 1)",
            "Gaussian noise on the mean of n clipped gradients (d×k)",
            s_train,
            sigmas[1],
        )
        .repeated(t),
    ]);
    let mut fedrep_report = PrivacyReport::from_event(
        &fedrep_event,
        c.delta,
        c.relation,
        Calibration::Exact,
        epsilon,
    )?;
    c.risk_target().mark(&mut fedrep_report, epsilon);
    fedrep_report.add_note("Private FedRep runs on the same clients' data as FLUTE, with each client's head refitted on its own samples (local, never released).");
    Ok(FlutePlan {
        flute_sigma,
        flute_report,
        init_sigma: sigmas[0],
        fedrep_sigma: sigmas[1],
        fedrep_report,
    })
}
