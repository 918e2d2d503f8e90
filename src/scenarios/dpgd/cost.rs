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
    c.repeats as f64 * c.p_grid.iter().map(|&p| width_work(c, p)).sum::<f64>()
}

/// The operations of one width of one seed: its features, θ*, GD, one DP-GD
/// run per ε and its traced runs (the unit a sweep's shards share out).
pub fn width_work(c: &DpGdConfig, p: usize) -> f64 {
    if c.uses_kernel(p) {
        return kernel_work(c, p);
    }
    let (n, n_test, d) = (c.n as f64, c.n_test as f64, c.d as f64);
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
    features + min_norm + runs + 2.0 * n_test * pf
}

/// One width on the kernel path (`dp_gd_kernel`): two passes of features, the
/// Gram matrix (n²p/2), its eigendecomposition (≈ 4n³ in faer), each run's
/// steps (K times the clipped residuals and the noise image, 2n² each) and the
/// final draws. Its products are matrix–matrix, about 4× faster per operation
/// than the direct path's matrix–vector ones (hence the factor).
fn kernel_work(c: &DpGdConfig, p: usize) -> f64 {
    let (n, n_test, d, pf) = (c.n as f64, c.n_test as f64, c.d as f64, p as f64);
    let mut runs = vec![c.schedule(p, c.time_scale).1; 1 + c.epsilons.len()];
    if c.trace_p.contains(&p) {
        runs.extend(
            c.trace_time_scales
                .iter()
                .map(|&ts| c.trace_schedule(p, ts).1),
        );
    }
    let b = runs.len() as f64;
    let features = 2.0 * (n + n_test) * pf * (2.0 * d + 10.0);
    let gram = n * n * pf / 2.0 + 4.0 * n * n * n;
    let steps: f64 = runs.iter().map(|&t| t as f64 * 2.0 * n * n).sum();
    let final_draws = (n + n_test) * pf * 2.0 * (b + 1.0);
    // The batch's steps are sequential and each reads all of K (8n² bytes)
    // however few runs are left: the longest run sets a memory-bound floor
    // (fitted to `dpgd-paper`'s loss-versus-T runs, 2–3 ms a step at n = 2000).
    let longest = runs.iter().copied().max().unwrap_or(0) as f64;
    (features + gram + steps + final_draws) / 4.0 + 4.0 * longest * n * n
}

/// Seconds the sweep takes on one core (an estimate, within about 2×).
pub fn sweep_seconds(c: &DpGdConfig) -> f64 {
    sweep_work(c) * SECONDS_PER_GFLOP * 1e-9
}
