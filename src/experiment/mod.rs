//! Experiments: configs (parsed from text, validated once, in Rust), sweeps over
//! ε and seeds, and a step-wise runner with progress and cancellation points.

pub mod error;
pub mod fields;

pub use error::ConfigError;
pub mod dpgd_sweep;
