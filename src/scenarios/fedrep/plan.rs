//! The privacy plan of the private runs of a Private FedRep sweep: what each
//! releases (typed privacy events), the σ's that meet the target ε under the
//! chosen calibration, and the report of what the run actually spends.

use super::config::{FedRepConfig, InitMode};
use crate::algorithms::priv_altmin::{AltMinMode, PrivAltMinParams};
use crate::privacy::formulas::{classic_gaussian_sigma, priv_altmin_authors_code_sigmas};
use crate::privacy::{
    calibration::{calibrate_mu, fedrep_sigma},
    AccountingError, Calibration, PrivacyEvent, PrivacyReport, Relation,
};
use crate::scenarios::field::Config;

/// The release of Algorithm 2 (private initialization), shared by both
/// private methods; at σ = None, the non-private spectral start (the authors'
/// code), and nothing at all for a random start (it never sees the data).
fn init_event(
    c: &FedRepConfig,
    sensitivity: f64,
    sigma: Option<f64>,
    covers: &str,
) -> Option<PrivacyEvent> {
    match (c.init, sigma) {
        (InitMode::Private, Some(sigma)) => Some(PrivacyEvent::gaussian(
            "private initialization (Alg. 2)",
            "Gaussian noise on the mean of n clipped Z_i (d×d)",
            sensitivity,
            sigma,
        )),
        (InitMode::NonPrivate, _) | (InitMode::Private, None) => Some(PrivacyEvent::NonPrivate {
            name: "initialization".into(),
            why: format!("the spectral estimator runs without clipping or noise (as in the authors' code), so the ε shown covers {covers} only"),
        }),
        (InitMode::Random, _) => None,
    }
}

/// The report of a private run's releases at target ε, with a note when the
/// start is random (it never sees the data, so it is no release).
fn run_report(
    c: &FedRepConfig,
    epsilon: f64,
    events: Vec<PrivacyEvent>,
) -> Result<PrivacyReport, AccountingError> {
    let mut report = PrivacyReport::from_event(
        &PrivacyEvent::Composed(events),
        c.delta,
        c.relation,
        c.calibration,
        epsilon,
    )?;
    c.risk_target().mark(&mut report, epsilon);
    if c.init == InitMode::Random {
        report.add_note("initialization is random (a QR of a Gaussian matrix drawn from the seed): it never looks at the data, so it costs no budget and the ε shown covers everything");
    }
    Ok(report)
}

/// σ's and the accounting of one Private FedRep run.
pub struct PrivateFedRepPlan {
    /// σ of Algorithm 2's noise (None: non-private initialization).
    pub init_sigma: Option<f64>,
    /// σ̂ of the training rounds.
    pub sigma: f64,
    pub report: PrivacyReport,
}

/// Calibrates Private FedRep at target ε: under `exact`, the initialization
/// (if private) and the T rounds share the budget (init_share of μ²) and compose
/// to exactly (ε, δ); under `paper` / `authors-code` the σ's are the papers'
/// formulas (Alg. 2 line 1 for the init) and the report says what they spend.
pub fn plan_private_fedrep(
    c: &FedRepConfig,
    epsilon: f64,
) -> Result<PrivateFedRepPlan, AccountingError> {
    let s_train = c.relation.mean_sensitivity(c.clip, c.n);
    let s_init = c.relation.mean_sensitivity(c.init_clip, c.n);
    let private_init = c.init == InitMode::Private;
    let (init_sigma, sigma) = match (c.calibration, private_init) {
        (Calibration::Exact, true) => {
            let s = calibrate_mu(
                c.risk_target().mu(epsilon)?,
                &[
                    (1, s_init, c.init_share),
                    (c.rounds as u64, s_train, 1.0 - c.init_share),
                ],
            )?;
            (Some(s[0]), s[1])
        }
        (Calibration::Exact, false) => (
            None,
            calibrate_mu(
                c.risk_target().mu(epsilon)?,
                &[(c.rounds as u64, s_train, 1.0)],
            )?[0],
        ),
        (cal, init) => {
            let sigma = fedrep_sigma(
                cal,
                c.relation,
                c.clip,
                c.rounds as u64,
                c.n,
                epsilon,
                c.delta,
            )?;
            // Alg. 2 line 1: σ̂_init = ψ_init·√(2 ln(1.25/δ))/(nε).
            let init_sigma =
                init.then(|| classic_gaussian_sigma(c.init_clip / c.n as f64, epsilon, c.delta));
            (init_sigma, sigma)
        }
    };
    let mut events: Vec<PrivacyEvent> = init_event(c, s_init, init_sigma, "the training rounds")
        .into_iter()
        .collect();
    events.push(
        PrivacyEvent::gaussian(
            "training rounds (Alg. 1)",
            "Gaussian noise on the mean of n clipped gradients (d×k)",
            s_train,
            sigma,
        )
        .repeated(c.rounds as u64),
    );
    let mut report = run_report(c, epsilon, events)?;
    report.add_note("each user refits its head on its own held-out points; heads are never released (billboard model)");
    Ok(PrivateFedRepPlan {
        init_sigma,
        sigma,
        report,
    })
}

/// σ's and the accounting of one Priv-AltMin run.
pub struct PrivAltMinPlan {
    /// σ of Algorithm 2's noise (None: non-private initialization).
    pub init_sigma: Option<f64>,
    /// The run's parameters with σ_W and σ_b set.
    pub params: PrivAltMinParams,
    /// σ_W, noise std on the raw sum W (the row's `sigma`).
    pub sigma_w: f64,
    /// σ_b, noise std on the raw sum b.
    pub sigma_b: f64,
    pub report: PrivacyReport,
}

/// Calibrates Priv-AltMin at target ε, with the init of Private FedRep.
///
/// * `exact`: the initialization (if private) gets `init_share` of μ², as in
///   [`plan_private_fedrep`] (so the same σ_init), and the AltMin releases
///   the rest, split evenly between the W and the b releases. Both then have
///   the same noise multiplier z = σ_W/s_W = σ_b/s_b, and all stages compose to
///   exactly (ε, δ). Each release is counted as [`PrivAltMinParams::privacy_events`]
///   says: T times with all users, once with disjoint subsets (parallel
///   composition: a user's data enters only its group's W and b).
/// * `paper` / `authors-code`: σ_W, σ_b from the authors' code
///   ([`priv_altmin_authors_code_sigmas`], m = |S⁰|) and Alg. 2 line 1 for the
///   init (as Private FedRep); the report shows the ε the exact accountant
///   finds for these σ's, whatever it is.
pub fn plan_priv_altmin(c: &FedRepConfig, epsilon: f64) -> Result<PrivAltMinPlan, AccountingError> {
    let mut params = c.altmin_params();
    let replace = c.relation == Relation::ReplaceOne;
    let (w_event, b_event) = params.privacy_events(c.m_train(), replace);
    let (w_stage, b_stage) = (
        &PrivacyEvent::Composed(vec![w_event]).gaussian_stages()[0],
        &PrivacyEvent::Composed(vec![b_event]).gaussian_stages()[0],
    );
    let s_init = c.relation.mean_sensitivity(c.init_clip, c.n);
    let private_init = c.init == InitMode::Private;
    let (init_sigma, sigma_w, sigma_b) = match c.calibration {
        Calibration::Exact => {
            let train_share = if private_init {
                1.0 - c.init_share
            } else {
                1.0
            };
            let mut stages = vec![
                (w_stage.steps, w_stage.sensitivity, train_share / 2.0),
                (b_stage.steps, b_stage.sensitivity, train_share / 2.0),
            ];
            if private_init {
                stages.push((1, s_init, c.init_share));
            }
            let s = calibrate_mu(c.risk_target().mu(epsilon)?, &stages)?;
            (private_init.then(|| s[2]), s[0], s[1])
        }
        Calibration::Paper | Calibration::AuthorsCode => {
            let (sw, sb) = priv_altmin_authors_code_sigmas(
                c.altmin_clip,
                c.m_train(),
                c.altmin_rounds as u64,
                epsilon,
                c.delta,
            );
            let init_sigma = private_init
                .then(|| classic_gaussian_sigma(c.init_clip / c.n as f64, epsilon, c.delta));
            (init_sigma, sw, sb)
        }
    };
    params.sigma_w = sigma_w;
    params.sigma_b = sigma_b;
    let (w_event, b_event) = params.privacy_events(c.m_train(), replace);
    // W last: the CSV's sensitivity / multiplier / steps columns describe the
    // last stage, and the row's σ is σ_W.
    let mut events: Vec<PrivacyEvent> = init_event(c, s_init, init_sigma, "the AltMin iterations")
        .into_iter()
        .collect();
    events.extend([b_event, w_event]);
    let mut report = run_report(c, epsilon, events)?;
    report.add_note(match c.altmin_mode.mode() {
        AltMinMode::DisjointSubsets => format!(
            "Priv-AltMin splits the users into T = {} disjoint groups, one per iteration: each user's data enters one W and one b release (parallel composition); later iterations see it only through the released U",
            c.altmin_rounds
        ),
        AltMinMode::AllUsers => format!(
            "Priv-AltMin uses every user in each of its T = {} iterations: each user's data enters T W and T b releases",
            c.altmin_rounds
        ),
    });
    report.add_note("each user fits its head locally (never released) and refits it on its held-out points at the end");
    Ok(PrivAltMinPlan {
        init_sigma,
        params,
        sigma_w,
        sigma_b,
        report,
    })
}
