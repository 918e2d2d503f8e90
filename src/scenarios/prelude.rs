//! What a scenario's `mod.rs` needs to implement [`Experiment`], in one glob
//! import (`use crate::scenarios::prelude::*;`): the trait and its types, the
//! `About` a scenario fills in, the pieces of its `View`, and the helpers
//! every scenario's view uses. Each scenario wrote out the same dozen names
//! from five modules; a prelude, as in std and serde, keeps that list in one
//! place, so that a new trait item or `About` type reaches every scenario here.

pub use super::adapter::{AuditFn, AuditSizeBy, Experiment, RoundFn, Rows, RowsAndCurves, Sweep};
pub use super::csv_out::number_or;
pub use super::explain::run_entry;
pub use super::field::Config;
pub use super::About;
pub use super::{
    ChartInfo, Checked, ConfigError, LessonStep, Machine, OutputFile, Plan, RunError, Shard,
    TestSize, View,
};
pub use serde::{Deserialize, Serialize};
