//! # dp_explorer
//!
//! Differential privacy in personalized federated learning, made visible.
//!
//! The pure core (everything except [`wasm`]) compiles and tests natively; the
//! `#[wasm_bindgen]` boundary lives in `src/wasm/` only.
//!
//! Layers, top to bottom: [`scenarios`] (one folder per paper's experiment
//! behind one trait, and one registry list: configs, sweeps as step-wise runs),
//! [`algorithms`] (one file per algorithm, each a state machine with `step()`),
//! [`privacy`] (accountant, clipping, mechanisms), [`data`] (seeded synthetic
//! data models), and small helpers [`linalg`], [`metrics`], [`rng`]; [`plot`]
//! draws the charts on any plotters backend.

pub mod algorithms;
pub mod bench;
pub mod cores;
pub mod data;
pub mod dense;
pub mod describe;
pub mod linalg;
pub mod metrics;
pub mod names;
pub mod plot;
pub mod privacy;
pub mod rng;
pub mod scenarios;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;

#[cfg(target_arch = "wasm32")]
pub mod wasm;
