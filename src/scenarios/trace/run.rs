//! The trace-regression sweep as a step-wise runner: one step is one dataset
//! (n, repeat). On it: the non-private spectral start and RGrad (the
//! reference), then for every ε and every private configuration the private
//! initialization (Zha 2024, Algorithm 1, or the clipped variant) and DP-RGrad
//! from it (Algorithm 2), and the l* trade-off runs at the first n.

use super::config::{PrivacyKind, TraceConfig, Variant};
use super::method::Method;
use super::plan::{plan, TracePlan};
use crate::algorithms::dp_rgrad::{RGrad, RGradParams};
use crate::algorithms::dp_spectral_init::{
    clipped_init, clipped_l_hat, dp_spectral_init, spectral_estimate, LowRank,
};
use crate::data::trace_regression::{TraceData, Truth};
use crate::metrics::principal_angle_distance;
use crate::rng::{combine, NoiseSource};
use crate::scenarios::csv_out::csv_record;
use crate::scenarios::job_sweep::{Finished, JobSweep, OneJobPerStep};
use crate::scenarios::RunError;
use serde::{Deserialize, Serialize};

fn variant_name(v: Variant) -> &'static str {
    match v {
        Variant::Paper => "paper",
        Variant::Clipped => "clipped",
    }
}

fn privacy_name(p: PrivacyKind) -> &'static str {
    match p {
        PrivacyKind::Strong => "strong",
        PrivacyKind::Weak => "weak",
    }
}

/// One result row. Non-applicable numbers are NaN.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceRow {
    pub method: Method,
    /// "paper" or "clipped" ("" for the non-private rows).
    pub variant: String,
    /// "strong" or "weak" ("" for the non-private rows).
    pub privacy: String,
    pub n: usize,
    /// Target ε of each algorithm (NaN: not private; written `inf`).
    pub epsilon: f64,
    pub repeat: usize,
    /// l* of the run (0 for an initialization).
    pub iterations: usize,
    /// ‖M̃ − M‖_F.
    pub error_fro: f64,
    /// ‖ŨŨᵀ − UUᵀ‖ = sin of the largest principal angle (left subspaces).
    pub subspace_error: f64,
    /// ε spent by the exact accountant: at δ for an initialization, at 2δ for
    /// the whole run (∞: not private).
    pub epsilon_spent: f64,
    /// The noise: s₁ of the init (or of the clipped L̂) and the loop's sd.
    pub sigma_init: f64,
    pub sigma_loop: f64,
    /// ‖M_l − M‖_F for l = 0..=l* (empty for an initialization).
    pub trajectory: Vec<f64>,
}

csv_record! { TraceRow {
    text: method variant privacy n;
    inf: epsilon;
    text: repeat iterations;
    num: error_fro subspace_error epsilon_spent sigma_init sigma_loop;
} }

pub fn csv(rows: &[TraceRow]) -> String {
    crate::scenarios::csv_out::file_of(rows)
}

/// One dataset's runs.
struct Dataset<'a> {
    c: &'a TraceConfig,
    truth: Truth,
    data: TraceData,
    l_hat: nalgebra::DMatrix<f64>,
    n: usize,
    repeat: usize,
    seed: u64,
}

impl Dataset<'_> {
    /// A row of this dataset with nothing measured yet.
    fn row(
        &self,
        method: Method,
        variant: &str,
        privacy: &str,
        epsilon: f64,
        iterations: usize,
    ) -> TraceRow {
        TraceRow {
            method,
            variant: variant.into(),
            privacy: privacy.into(),
            n: self.n,
            epsilon,
            repeat: self.repeat,
            iterations,
            error_fro: f64::NAN,
            subspace_error: f64::NAN,
            epsilon_spent: f64::INFINITY,
            sigma_init: f64::NAN,
            sigma_loop: f64::NAN,
            trajectory: Vec::new(),
        }
    }

    /// The noise of this dataset's private run `key`.
    fn noise(&self, key: u64) -> NoiseSource {
        NoiseSource::new(combine(self.seed, combine(self.n as u64, key)))
    }

    fn measure(&self, est: &LowRank) -> (f64, f64) {
        (
            (&est.m - &self.truth.m).norm(),
            principal_angle_distance(&est.u, &self.truth.u),
        )
    }

    /// RGrad from `start` for `iterations`, with the trajectory.
    fn descend(
        &self,
        start: &LowRank,
        iterations: usize,
        sd: f64,
        clip: Option<f64>,
        noise: NoiseSource,
    ) -> Result<(LowRank, Vec<f64>), RunError> {
        let params = RGradParams {
            eta: self.c.eta,
            iterations,
            noise_sd: sd,
            clip,
        };
        let mut run = RGrad::new(&start.m, self.c.r, params, noise);
        let mut trajectory = vec![(&run.estimate().m - &self.truth.m).norm()];
        while !run.is_done() {
            run.step(&self.data).ok_or_else(|| {
                RunError::Config("the clipped variant needs data = direct".into())
            })?;
            trajectory.push((&run.estimate().m - &self.truth.m).norm());
        }
        if trajectory.iter().any(|e| !e.is_finite()) {
            return Err(RunError::Diverged {
                method: "RGrad".into(),
                what: "‖M_l − M‖ is not finite".into(),
                field: "eta".into(),
                advice: "lower the step η".into(),
            });
        }
        Ok((run.estimate().clone(), trajectory))
    }

    /// The private initialization of `p` under `variant`.
    fn private_init(
        &self,
        variant: Variant,
        p: &TracePlan,
        noise: NoiseSource,
    ) -> Result<LowRank, RunError> {
        let mut rng = noise.release(u64::MAX);
        Ok(match variant {
            Variant::Paper => dp_spectral_init(&self.l_hat, self.c.r, p.s1, p.s2, &mut rng),
            Variant::Clipped => {
                let clipped = clipped_l_hat(
                    &self.data,
                    self.c.d1,
                    self.c.d2,
                    self.c.clip_y,
                    self.c.clip_x,
                )
                .ok_or_else(|| {
                    RunError::Config("the clipped variant needs data = direct".into())
                })?;
                clipped_init(&clipped, self.c.r, p.s1, &mut rng)
            }
        })
    }
}

/// A whole sweep, one dataset per step.
pub type TraceSweep = JobSweep<TraceConfig>;

/// A job is one dataset, (n, repeat): every run on it.
impl OneJobPerStep for TraceConfig {
    type Job = (usize, usize);
    type Row = TraceRow;

    fn jobs(&self) -> Vec<(usize, usize)> {
        let repeats = self.repeats;
        self.n
            .iter()
            .flat_map(|&n| (0..repeats).map(move |r| (n, r)))
            .collect()
    }

    fn phase((n, r): (usize, usize)) -> String {
        format!("n = {n}, repeat {}: the data and every run on it", r + 1)
    }

    fn run(
        &self,
        (n, repeat): (usize, usize),
        out: &mut Finished<TraceRow>,
    ) -> Result<(), RunError> {
        let c = self;
        let seed = c.seed.wrapping_add(repeat as u64);
        let model = c.model(n, seed);
        let truth = model.truth();
        let data = model.generate(&truth, c.data);
        let l_hat = data.l_hat(c.d1, c.d2);
        let ds = Dataset {
            c,
            truth,
            data,
            l_hat,
            n,
            repeat,
            seed,
        };
        out.nonprivate(&ds)?;
        out.private_runs(&ds)?;
        // The l* trade-off: the first n, the middle ε, the chosen configuration.
        if n == c.n[0] {
            out.lstar(&ds)?;
        }
        Ok(())
    }
}

/// The runs on one dataset, each adding its rows to the sweep's.
impl Finished<TraceRow> {
    /// The non-private reference on `ds`: the spectral start, then RGrad.
    fn nonprivate(&mut self, ds: &Dataset) -> Result<(), RunError> {
        let c = ds.c;
        let start = spectral_estimate(&ds.l_hat, c.r);
        let (e, s) = ds.measure(&start);
        self.push(
            TraceRow {
                error_fro: e,
                subspace_error: s,
                ..ds.row(Method::SpectralInit, "", "", f64::NAN, 0)
            },
            None,
        );
        let (end, trajectory) = ds.descend(&start, c.iterations, 0.0, None, NoiseSource::new(0))?;
        let (e, s) = ds.measure(&end);
        self.push(
            TraceRow {
                error_fro: e,
                subspace_error: s,
                trajectory,
                ..ds.row(Method::Rgrad, "", "", f64::NAN, c.iterations)
            },
            None,
        );
        Ok(())
    }

    /// On `ds`, every private configuration at every ε: the DP initialization
    /// (Alg. 1), then DP-RGrad (Alg. 2) from it.
    fn private_runs(&mut self, ds: &Dataset) -> Result<(), RunError> {
        let (c, n) = (ds.c, ds.n);
        for (ci, (variant, privacy)) in c.private_configs().into_iter().enumerate() {
            for (ei, &eps) in c.target.epsilons.iter().enumerate() {
                let p = plan(c, n, eps, variant, privacy)?;
                let noise = ds.noise(combine(ci as u64, ei as u64));
                let init = ds.private_init(variant, &p, noise)?;
                let (e, s) = ds.measure(&init);
                let (vn, pn) = (variant_name(variant), privacy_name(privacy));
                self.push(
                    TraceRow {
                        error_fro: e,
                        subspace_error: s,
                        epsilon_spent: p.init_report.epsilon_exact,
                        sigma_init: p.s1,
                        ..ds.row(Method::DpInit, vn, pn, eps, 0)
                    },
                    Some(p.init_report.clone()),
                );
                let base = ds.row(Method::DpRgrad, vn, pn, eps, c.iterations);
                self.push_descent(ds, &init, &p, variant, noise, base)?;
            }
        }
        Ok(())
    }

    /// The l* trade-off on `ds`: DP-RGrad of the chosen configuration at the middle
    /// ε with each number of iterations l* of the grid.
    fn lstar(&mut self, ds: &Dataset) -> Result<(), RunError> {
        let (c, n) = (ds.c, ds.n);
        let eps = c.target.epsilons[c.target.epsilons.len() / 2];
        for &l in c.lstar_grid.iter() {
            let cl = TraceConfig {
                iterations: l,
                ..c.clone()
            };
            let p = plan(&cl, n, eps, c.variant, c.privacy)?;
            let noise = ds.noise(combine(1000, l as u64));
            let init = ds.private_init(c.variant, &p, noise)?;
            let base = ds.row(
                Method::DpRgradLstar,
                variant_name(c.variant),
                privacy_name(c.privacy),
                eps,
                l,
            );
            self.push_descent(ds, &init, &p, c.variant, noise, base)?;
        }
        Ok(())
    }

    /// DP-RGrad (Alg. 2) from the private start `init` under plan `p`, and
    /// its row (on `base`: method, configuration, ε, iterations) with the
    /// plan's report.
    fn push_descent(
        &mut self,
        ds: &Dataset,
        init: &LowRank,
        p: &TracePlan,
        variant: Variant,
        noise: NoiseSource,
        base: TraceRow,
    ) -> Result<(), RunError> {
        let clip = (variant == Variant::Clipped).then_some(ds.c.clip_grad);
        let (end, trajectory) = ds.descend(init, base.iterations, p.loop_sd, clip, noise)?;
        let (e, s) = ds.measure(&end);
        self.push(
            TraceRow {
                error_fro: e,
                subspace_error: s,
                epsilon_spent: p.report.epsilon_exact,
                sigma_init: p.s1,
                sigma_loop: p.loop_sd,
                trajectory,
                ..base
            },
            Some(p.report.clone()),
        );
        Ok(())
    }
}
