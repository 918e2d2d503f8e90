//! Experiments: configs (parsed from text, validated once, in Rust), sweeps over
//! ε and seeds, and a step-wise runner with progress and cancellation points.

pub mod bench;
pub mod dpgd_sweep;
pub mod error;
pub mod fedrep_config;
pub mod fedrep_sweep;
pub mod fields;
pub mod guides;
pub mod results;
pub mod scenario;

pub use error::ConfigError;
pub use fedrep_config::FedRepConfig;
pub use fedrep_sweep::FedRepSweep;
pub use scenario::{Scenario, Sweep};
