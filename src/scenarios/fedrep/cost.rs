//! How much work a Private FedRep sweep is, in floating-point operations
//! (approximately), before it runs: the page's time estimate and the bound on
//! absurd settings both read it. Each term counts the inner loops of one
//! phase; the constant that turns it into seconds is measured
//! (`SECONDS_PER_GFLOP`).

use super::config::{FedRepConfig, InitMode};
use crate::algorithms::priv_altmin::participants;
use crate::data::shared_representation::Storage;

/// Seconds per 10⁹ counted operations on one core of this project's machines
/// (wasm in one worker and native are within 1.5× of each other): fitted to
/// `dp-explorer sweep --threads 1` on the presets and on n = 10⁶ (README, Speed).
pub const SECONDS_PER_GFLOP: f64 = 0.18;

/// Drawing one Gaussian coordinate of a user's data, in operations.
const DRAW: f64 = 8.0;

/// The operations of the whole sweep (every seed, every method and ε).
pub fn sweep_work(c: &FedRepConfig) -> f64 {
    let (n, d, k, m) = (c.n as f64, c.d as f64, c.k as f64, c.m as f64);
    let m_train = c.m_train() as f64;
    let eps = c.epsilons.len() as f64;
    let draw_all = n * m * d * DRAW;
    let streamed = c.storage() == Storage::Streamed;
    // A pass over the users regenerates them when the data is streamed.
    let pass = if streamed { draw_all } else { 0.0 };
    let data = if streamed { 0.0 } else { draw_all };
    let statistic = if c.init == InitMode::Random {
        0.0
    } else {
        n * (m_train + 1.0) * d * d + pass
    };
    // A round: each user's head (m'·d·k) and gradient (m'·d·k), both twice
    // over the points; the final pass refits the heads on S¹.
    let fedrep_run = c.rounds as f64 * (4.0 * n * m_train * d * k + pass)
        + 2.0 * n * (m - m_train) * d * k
        + pass;
    let local_run = 4.0 * n * c.local_steps as f64 * m_train * d + pass;
    let altmin_run = if c.altmin {
        let reads: f64 = (0..c.altmin_rounds)
            .map(|t| participants(c.altmin_mode.mode(), c.altmin_rounds, c.n, t).len() as f64)
            .sum();
        // Per participant: its Gram matrix and k² block updates (d² each), its head.
        let per_user = (m_train + k * k) * d * d + 4.0 * m_train * d * k;
        let dk = d * k;
        reads * per_user
            + c.altmin_rounds as f64 * (dk * dk * dk / 3.0 + if streamed { draw_all } else { 0.0 })
            + 2.0 * n * (m - m_train) * d * k
            + pass
    } else {
        0.0
    };
    let per_seed = data + statistic + (1.0 + eps) * fedrep_run + local_run + eps * altmin_run;
    c.seeds as f64 * per_seed
}

/// Seconds the sweep takes on one core (an estimate, within about 2×).
pub fn sweep_seconds(c: &FedRepConfig) -> f64 {
    sweep_work(c) * SECONDS_PER_GFLOP * 1e-9
}
