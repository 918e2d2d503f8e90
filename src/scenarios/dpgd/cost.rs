//! How much work a DP-GD sweep is, in floating-point operations
//! (approximately), before it runs: the page's time estimate reads it. Each
//! term counts the inner loops of one phase (Bombari & Mondelli, Algorithm 1:
//! two products with Φ per step); the constant that turns it into seconds is
//! measured (`SECONDS_PER_GFLOP`).

use super::config::DpGdConfig;

/// Seconds per 10⁹ counted operations on one core: fitted to
/// `dp-explorer sweep` on the DP-GD presets (README, Speed).
pub const SECONDS_PER_GFLOP: f64 = 0.15;

/// The operations of the whole sweep (every seed, width, ε and traced run).
pub fn sweep_work(c: &DpGdConfig) -> f64 {
    let (n, n_test, d) = (c.n as f64, c.n_test as f64, c.d as f64);
    let mut per_seed = 0.0;
    for &p in &c.p_grid {
        let pf = p as f64;
        // The features of the train and test inputs.
        let features = (n + n_test) * pf * (2.0 * d + 10.0);
        // θ* = Φ⁺Y: K = ΦΦᵀ (symmetric: n²p) or ΦᵀΦ, and a Cholesky.
        let small = n.min(pf);
        let min_norm = n.max(pf) * small * small + small * small * small / 3.0;
        // GD and one DP-GD run per ε, each T steps of two products with Φ.
        let (_, steps) = c.schedule(p, c.time_scale);
        let step = 4.0 * n * pf + pf;
        let mut runs = (1.0 + c.epsilons.len() as f64) * steps as f64 * step;
        if c.trace_p.contains(&p) {
            for &ts in &c.trace_time_scales {
                runs += c.trace_schedule(p, ts).1 as f64 * step;
            }
        }
        per_seed += features + min_norm + runs + 2.0 * n_test * pf;
    }
    c.repeats as f64 * per_seed
}

/// Seconds the sweep takes on one core (an estimate, within about 2×).
pub fn sweep_seconds(c: &DpGdConfig) -> f64 {
    sweep_work(c) * SECONDS_PER_GFLOP * 1e-9
}
