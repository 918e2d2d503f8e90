//! The DP-GD settings' checks and presets (`impl Config`): each field's own
//! rules are in its table (config.rs); here the rules that tie fields together,
//! the time limit (cost.rs) and, last, the accountant's σ for every private
//! run (plan.rs, through the sweep's plan), so config.rs need not import them.

use super::config::*;
use super::plan::dpgd_sigma;
use super::run::DpGdSweep;
use crate::scenarios::error::ConfigError;
use crate::scenarios::field::{
    fields_once, target, too_slow, unknown_preset, Config, OptionalList,
};

impl Config for DpGdConfig {
    fields_once!(DpGdConfig, field_table);

    /// The privacy target of the private runs at `epsilons` (not the
    /// `trace_epsilon` runs): ε values, or risks met through the exact accountant.
    fn risk_target(&self) -> target::RiskTarget<'_> {
        let formula = "Prop. 3.2 sets σ from an (ε, δ)";
        self.target
            .gaussian_calibrated(self.delta, self.calibration, formula)
    }

    /// Built-in configurations:
    /// - `dpgd-browser`: Fig. 3's shape at a browser size (d = 20, n = 400, n/d = 20
    ///   keeps the paper's ratio n/d at 20), p from 20 to 8000 around p = n; ε ∈ {1, 2, 4}.
    /// - `dpgd-paper`: the paper's d = 100, n = 2000, n_test = 1000, p up to 16000
    ///   (memory: Φ and Φ_test are (n + n_test)·p doubles). Native speed: minutes.
    /// - `dpgd-paper-full`: as `dpgd-paper` over the paper's whole width grid
    ///   ([`PAPER_WIDTHS`], p up to 199526), loss versus T at three widths; the
    ///   kernel path never stores Φ (3.2 GB at the widest), so it fits in memory.
    /// - `dpgd-quick`: d = 10, n = 100 for tests and a first look (well under a second).
    fn preset(name: &str) -> Result<Self, ConfigError> {
        let browser = browser_preset();
        // Fig. 1's setting (n = 2000, d = 100, δ = 1/n) at widths the page can run.
        let paper = DpGdConfig {
            n: 2000,
            d: 100,
            p_grid: vec![50, 125, 316, 794, 1258, 1995, 2000, 3162, 5011, 7943, 16000],
            n_test: 1000,
            delta: 1.0 / 2000.0,
            time_scale: 5.0,
            trace_p: OptionalList(vec![3162, 7943, 16000]),
            trace_time_scales: vec![1.0, 2.0, 5.0, 10.0],
            trace_eta: 3e-5,
            ..browser.clone()
        };
        match name.trim().to_ascii_lowercase().as_str() {
            "dpgd-browser" => Ok(browser),
            "dpgd-paper" => Ok(paper),
            // The paper's full width grid; the traced widths spread over it.
            "dpgd-paper-full" => Ok(DpGdConfig {
                p_grid: PAPER_WIDTHS.to_vec(),
                trace_p: OptionalList(vec![7943, 31622, 199526]),
                ..paper
            }),
            "dpgd-quick" => Ok(DpGdConfig {
                n: 100,
                d: 10,
                p_grid: vec![10, 25, 50, 100, 200, 500, 2000],
                n_test: 200,
                delta: 1.0 / 100.0,
                trace_p: OptionalList(vec![500, 2000]),
                trace_time_scales: vec![1.0, 4.0, 16.0],
                trace_eta: 5e-4,
                ..browser
            }),
            _ => Err(unknown_preset(name, PRESETS)),
        }
    }

    /// The rules across fields, each naming the field to change. Checks
    /// that need a field to be sane first (e.g. the largest width) are
    /// skipped while that field is reported.
    fn cross_checks(&self, failed: &[ConfigError]) -> Vec<ConfigError> {
        let mut errors = Vec::new();
        let bad = |field: &str| failed.iter().any(|e| e.field() == field);
        if !bad("epsilons") {
            if let Some(e) = self
                .target
                .epsilons
                .iter()
                .find_map(|&eps| self.check_prop32("epsilons", eps).err())
            {
                errors.push(e);
            }
        }
        if bad("p_grid") {
            return errors;
        }
        if let Err(e) = self.check_widths() {
            errors.push(e);
            return errors;
        }
        let p_max = self.p_grid.iter().copied().max().unwrap_or(1);
        // GD on L is stable for η < n/λ₁(K) with λ₁(K) ≲ p·(1 + n/d) for a
        // 1-Lipschitz activation, so η ≤ d/p keeps every run stable.
        let eta_limit = self.d as f64 / p_max as f64;
        if self.eta_mode == EtaMode::Fixed && !(self.eta > 0.0 && self.eta <= eta_limit) {
            errors.push(ConfigError::out_of_range(
                "eta",
                &format!(
                    "in (0, d/p] = (0, {eta_limit:.3e}] for p up to {p_max}, where GD is stable"
                ),
                self.eta,
            ));
        }
        if let Err(e) = self.check_trace() {
            errors.push(e);
        }
        if failed.is_empty() && errors.is_empty() {
            if let Err(e) = self.check_step_counts() {
                errors.push(e);
            }
        }
        if failed.is_empty() && errors.is_empty() {
            errors.extend(too_slow(
                "p_grid",
                super::cost::sweep_seconds(self, &super::cost::NATIVE),
                MAX_SECONDS,
                "the widths, n, the time scale or the number of ε and seeds",
            ));
        }
        // Last, the accountant: a σ it cannot give for some private run.
        if failed.is_empty() && errors.is_empty() {
            errors.extend(DpGdSweep::refused(self, dpgd_sigma));
        }
        errors
    }
}
