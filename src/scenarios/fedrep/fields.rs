//! The field table of a Private FedRep sweep (Snedeker et al., Fig. 1/2; the
//! Priv-AltMin baseline of Jain et al. 2021): every setting in the page's
//! order with its label, help and group, and the labels of its choices.

use super::config::{AltMinUsers, FedRepConfig, Heads, InitMode};
use crate::algorithms::fedrep::BatchMode;
use crate::algorithms::private_init::PairNormalization;
use crate::privacy::{Calibration, Relation};
use crate::scenarios::field::{Choice, Field};

const PROBLEM: &str = "Problem";

const PRIVACY: &str = "Privacy";

const TRAINING: &str = "Training";

const ALTMIN: &str = "Priv-AltMin baseline (Jain et al. 2021)";

const OPEN: &str = "Details the paper leaves open";

/// Every setting of a Private FedRep sweep, in the page's order.
pub(super) fn field_table() -> Vec<Field<FedRepConfig>> {
    type C = FedRepConfig;
    vec![
        Field::new("n", |c: &C| &c.n, |c: &mut C| &mut c.n)
            .label("users n")
            .group(PROBLEM),
        Field::new("d", |c: &C| &c.d, |c: &mut C| &mut c.d)
            .label("dimension d")
            .group(PROBLEM),
        Field::new("k", |c: &C| &c.k, |c: &mut C| &mut c.k)
            .label("representation k")
            .group(PROBLEM),
        Field::new("m", |c: &C| &c.m, |c: &mut C| &mut c.m)
            .label("points per user m")
            .help("half train (S⁰), half refit the final heads (S¹)")
            .group(PROBLEM),
        Field::new("epsilons", |c: &C| &c.epsilons, |c: &mut C| &mut c.epsilons)
            .label("ε values")
            .help("list 1,2,4 or range 1:8:1")
            .slider(0.1, 100.0, true)
            .group(PRIVACY),
        Field::new("delta", |c: &C| &c.delta, |c: &mut C| &mut c.delta)
            .label("δ")
            .group(PRIVACY),
        Field::new("rounds", |c: &C| &c.rounds, |c: &mut C| &mut c.rounds)
            .label("rounds T")
            .group(TRAINING),
        Field::new("eta", |c: &C| &c.step, |c: &mut C| &mut c.step)
            .label("step size η")
            .group(TRAINING)
            .aliases(&["step"]),
        Field::new("clip", |c: &C| &c.clip, |c: &mut C| &mut c.clip)
            .label("clip ψ")
            .help("Frobenius norm bound of each user's gradient")
            .group(TRAINING),
        Field::new("noise", |c: &C| &c.noise, |c: &mut C| &mut c.noise)
            .label("label noise R")
            .group(PROBLEM),
        Field::new("seed", |c: &C| &c.seed, |c: &mut C| &mut c.seed)
            .label("seed")
            .group(PROBLEM),
        Field::new("seeds", |c: &C| &c.seeds, |c: &mut C| &mut c.seeds)
            .label("seeds")
            .help("datasets seed, seed+1, …: the charts show their mean and a band")
            .group(PROBLEM),
        Field::new(
            "calibration",
            |c: &C| &c.calibration,
            |c: &mut C| &mut c.calibration,
        )
        .label("noise calibration")
        .group(PRIVACY),
        Field::new("relation", |c: &C| &c.relation, |c: &mut C| &mut c.relation)
            .label("neighbouring relation")
            .group(PRIVACY),
        Field::new("init", |c: &C| &c.init, |c: &mut C| &mut c.init)
            .label("initialization")
            .group(TRAINING),
        Field::new(
            "init_share",
            |c: &C| &c.init_share,
            |c: &mut C| &mut c.init_share,
        )
        .label("init share of budget")
        .help("share of μ² spent on the private initialization")
        .group(OPEN)
        .folded(),
        Field::new(
            "init_clip",
            |c: &C| &c.init_clip,
            |c: &mut C| &mut c.init_clip,
        )
        .label("init clip ψ_init")
        .group(OPEN)
        .folded(),
        Field::new(
            "init_normalization",
            |c: &C| &c.init_normalization,
            |c: &mut C| &mut c.init_normalization,
        )
        .label("init pair factor")
        .group(OPEN)
        .folded(),
        Field::new("batch", |c: &C| &c.batch, |c: &mut C| &mut c.batch)
            .label("batches")
            .group(OPEN)
            .folded(),
        Field::new("heads", |c: &C| &c.heads, |c: &mut C| &mut c.heads)
            .label("true heads v*")
            .group(OPEN)
            .folded(),
        Field::new(
            "local_steps",
            |c: &C| &c.local_steps,
            |c: &mut C| &mut c.local_steps,
        )
        .label("local GD steps")
        .group(OPEN)
        .folded(),
        Field::new(
            "local_step",
            |c: &C| &c.local_step,
            |c: &mut C| &mut c.local_step,
        )
        .label("local GD step size")
        .group(OPEN)
        .folded(),
        Field::new("altmin", |c: &C| &c.altmin, |c: &mut C| &mut c.altmin)
            .label("run Priv-AltMin")
            .group(ALTMIN),
        Field::new(
            "altmin_mode",
            |c: &C| &c.altmin_mode,
            |c: &mut C| &mut c.altmin_mode,
        )
        .label("users per iteration")
        .group(ALTMIN),
        Field::new(
            "altmin_rounds",
            |c: &C| &c.altmin_rounds,
            |c: &mut C| &mut c.altmin_rounds,
        )
        .label("iterations")
        .group(ALTMIN),
        Field::new(
            "altmin_clip",
            |c: &C| &c.altmin_clip,
            |c: &mut C| &mut c.altmin_clip,
        )
        .label("per-sample clip c_x")
        .group(ALTMIN),
        Field::new(
            "altmin_label_clip",
            |c: &C| &c.altmin_label_clip,
            |c: &mut C| &mut c.altmin_label_clip,
        )
        .label("label clip c_y")
        .group(ALTMIN),
    ]
}

impl Choice for Calibration {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (Calibration::Exact, "exact (GDP composition)"),
        (Calibration::Paper, "paper's formula (App. B.4)"),
        (Calibration::AuthorsCode, "authors' code formula"),
    ];
}

impl Choice for Relation {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (Relation::ReplaceOne, "replace one user"),
        (Relation::AddRemoveOne, "add or remove one user"),
    ];
}

impl Choice for InitMode {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (InitMode::Private, "private (Algorithm 2)"),
        (InitMode::NonPrivate, "non-private spectral"),
        (
            InitMode::Random,
            "random N(0, 1), orthonormalized (no budget)",
        ),
    ];
}

impl Choice for PairNormalization {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (PairNormalization::Unbiased, "1/(m′(m′−1)) (unbiased)"),
        (PairNormalization::Printed, "2/(m(m−1)) (as printed)"),
    ];
}

impl Choice for BatchMode {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (BatchMode::Full, "all of S⁰ for head and gradient"),
        (BatchMode::Split, "S⁰ split: head / gradient"),
        (BatchMode::Fresh, "fresh disjoint batches (analysed)"),
    ];
}

impl Choice for Heads {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (Heads::Unit, "unit norm (authors' code)"),
        (Heads::Gaussian, "N(0, I) (paper's text)"),
    ];
}

impl Choice for AltMinUsers {
    const CHOICES: &'static [(Self, &'static str)] = &[
        (AltMinUsers::Disjoint, "disjoint groups (Jain et al.)"),
        (AltMinUsers::AllUsers, "all users (authors' code)"),
    ];
}
