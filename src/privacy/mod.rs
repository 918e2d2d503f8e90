//! Privacy: the accountant (exact Gaussian/GDP, RDP, zCDP, the papers' own
//! formulas), neighbouring relations and sensitivities, clipping, and the
//! Gaussian mechanism. Every algorithm in the crate takes its σ from here.

pub mod clipping;
pub mod error;
pub mod gdp;
pub mod relation;

pub use error::AccountingError;
pub use relation::Relation;
pub mod calibration;
pub mod formulas;
pub mod gaussian;
pub mod rdp;
pub mod zcdp;
