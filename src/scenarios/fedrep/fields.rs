//! The field table of a Private FedRep sweep (Snedeker et al., Fig. 1/2; the
//! Priv-AltMin baseline of Jain et al. 2021): every setting in the page's
//! order with its label, help and group, and the labels of its choices.

use super::config::{AltMinUsers, FedRepConfig, Heads, InitMode};
use crate::algorithms::fedrep::BatchMode;
use crate::algorithms::private_init::PairNormalization;
use crate::privacy::Calibration;
use crate::scenarios::config_common::{CLIP, PRIVACY, PROBLEM};
use crate::scenarios::field::rules::Interval;
use crate::scenarios::field::{choices, common, field, sections, target_rows, Field};

const TRAINING: &str = "Training";

const ALTMIN: &str = "Priv-AltMin baseline (Jain et al. 2021)";

const OPEN: &str = "Details the paper leaves open";

/// Every setting of a Private FedRep sweep, in the page's order, with its rules.
pub(super) fn field_table() -> Vec<Field<FedRepConfig>> {
    type C = FedRepConfig;
    sections([
        (
            PROBLEM,
            vec![
                field!(n).label("users n").essential().range(2..=10_000_000),
                field!(d).label("dimension d").range(1..=1000),
                field!(k).label("representation k").range(1..=32),
                field!(m)
                    .label("points per user m")
                    .help("half train (S⁰), half refit the final heads (S¹)")
                    .range(4..=10_000)
                    .note("half the points train, in pairs for Alg. 2; half refit the heads"),
            ],
        ),
        (
            PRIVACY,
            target_rows!(delta)
                // Below 0.001 the noise needed outgrows every number a run can hold.
                .epsilons(|f| f.at_least(1e-3))
                .delta(|f| f.at_least(1e-300))
                .rows(),
        ),
        (
            TRAINING,
            vec![
                field!(rounds).label("rounds T").range(1..=1000),
                field!("eta" => step)
                    .label("step size η")
                    .aliases(&["step"])
                    .range(Interval::open_closed(0.0, 1e3)),
                field!(clip)
                    .label("clip ψ")
                    .essential()
                    .help("Frobenius norm bound of each user's gradient")
                    .range(CLIP),
            ],
        ),
        (
            PROBLEM,
            vec![
                field!(noise).label("label noise R").range(0.0..=1e3),
                field!(seed via common::seed),
                field!(seeds via common::seeds)
                    .help("datasets seed, seed+1, …: the charts show their mean and a band"),
            ],
        ),
        (
            PRIVACY,
            vec![
                field!(calibration).label("noise calibration"),
                field!(relation via common::relation),
            ],
        ),
        (TRAINING, vec![field!(init).label("initialization")]),
        (
            OPEN,
            vec![
                field!(init_share)
                    .label("init share of budget")
                    .help("share of μ² spent on the private initialization")
                    .range(Interval::open(0.0, 1.0)),
                field!(init_clip).label("init clip ψ_init").range(CLIP),
                field!(init_normalization).label("init pair factor"),
                field!(batch).label("batches"),
                field!(heads).label("true heads v*"),
                field!(local_steps).label("local GD steps").at_most(100_000),
                // Gradient descent on a user's few points diverges long before 10.
                field!(local_step)
                    .label("local GD step size")
                    .range(Interval::open_closed(0.0, 10.0)),
            ],
        ),
        (
            ALTMIN,
            vec![
                field!(altmin).label("run Priv-AltMin"),
                field!(altmin_mode).label("users per iteration"),
                field!(altmin_rounds).label("iterations").range(1..=1000),
                // The sensitivities scale with c_x² and c_x·c_y: keep them representable.
                field!(altmin_clip)
                    .label("per-sample clip c_x")
                    .range(1e-12..=1e6),
                field!(altmin_label_clip)
                    .label("label clip c_y")
                    .range(1e-12..=1e6),
            ],
        ),
    ])
}

choices!(Calibration {
    Exact => "exact (GDP composition)",
    Paper => "paper's formula (App. B.4)",
    AuthorsCode => "authors' code formula",
});

choices!(InitMode {
    Private => "private (Algorithm 2)",
    NonPrivate => "non-private spectral",
    Random => "random N(0, 1), orthonormalized (no budget)",
});

choices!(PairNormalization {
    Unbiased => "1/(m′(m′−1)) (unbiased)",
    Printed => "2/(m(m−1)) (as printed)",
});

choices!(BatchMode {
    Full => "all of S⁰ for head and gradient",
    Split => "S⁰ split: head / gradient",
    Fresh => "fresh disjoint batches (analysed)",
});

choices!(Heads {
    Unit => "unit norm (authors' code)",
    Gaussian => "N(0, I) (paper's text)",
});

choices!(AltMinUsers {
    Disjoint => "disjoint groups (Jain et al.)",
    AllUsers => "all users (authors' code)",
});
