//! Seeded synthetic data models. Each user's (or sample's) data comes from its
//! own random stream, so a dataset is reproducible from (seed, index) alone.

pub mod labelled;
pub mod margin_classification;
pub mod normal_lanes;
pub mod random_features;
pub mod shared_representation;
pub mod tanh_pairs;
pub mod trace_regression;
pub mod under_parameterized;
