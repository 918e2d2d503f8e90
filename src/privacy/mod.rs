//! Privacy: the accountant (exact Gaussian/GDP, RDP, zCDP, the papers' own
//! formulas), neighbouring relations and sensitivities, clipping, and the
//! Gaussian mechanism. Every algorithm in the crate takes its σ from here.
//!
//! - [`gdp`]: exact composition of Gaussian stages (the default, the headline ε);
//! - [`rdp`], [`zcdp`]: the looser accountants, shown for comparison;
//! - [`formulas`]: the papers' own noise formulas, to reproduce their figures;
//! - [`calibration`]: σ from a target (ε, δ), exactly or by a paper's formula;
//! - [`report`]: what a run spends, under every accountant, in plain words;
//! - [`relation`]: neighbouring datasets and the sensitivity of a clipped mean;
//! - [`gaussian`]: the Gaussian mechanism itself; [`clipping`]: bounding norms.

pub mod calibration;
pub mod clipping;
pub mod error;
pub mod formulas;
pub mod gaussian;
pub mod gdp;
pub mod rdp;
pub mod relation;
pub mod report;
pub mod zcdp;

pub use calibration::{calibrate_exact, Calibration};
pub use error::AccountingError;
pub use relation::Relation;
pub use report::{GaussianStage, PrivacyReport};
