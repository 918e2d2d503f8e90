//! The per-run state machines of a seed's sweep: starting a run (its U_0 from
//! Algorithm 2 or at random, its noise seed, its privacy plan), and stepping a
//! whole run of Priv-AltMin (Jain et al. 2021) or local GD to its final pass.

use super::super::config::InitMode;
use super::super::jobs::{is_fedrep, Job};
use super::super::plan::plan_priv_altmin;
use super::{GroupRun, Phase, Running, SeedSweep, USERS_PER_LOCAL_STEP, USERS_PER_STEP};
use crate::algorithms::fedrep::{final_risk_sum, risk_from_sum};
use crate::algorithms::local_gd::{local_gd_risk_sum, LocalGdParams};
use crate::algorithms::priv_altmin::PrivAltMin;
use crate::algorithms::private_init::{spectral_init, SpectralAccumulator};
use crate::linalg::{gaussian_matrix, orthonormalize};
use crate::rng::{combine, stream, NoiseSource, Purpose};
use crate::scenarios::RunError;
use nalgebra::DMatrix;

impl SeedSweep {
    pub(super) fn step_job(
        &mut self,
        index: usize,
        running: Option<Running>,
    ) -> Result<Phase, RunError> {
        let (order, job) = self.jobs[index].clone();
        let running = match running {
            Some(r) => r,
            None => self.start_job(index)?,
        };
        let next = match running {
            Running::FedRepGroup { runs, next, local } => {
                return self.step_fedrep_group(index, runs, next, local)
            }
            Running::SplitLocalGd { next_user } => {
                return Ok(self.split_local_gd_step(index, next_user))
            }
            Running::Model {
                mut model,
                privacy,
                sigma,
                mut finishing,
            } => {
                self.units_done += 1;
                let unfinished = if !model.is_done() {
                    model.advance(&self.data, USERS_PER_STEP);
                    true
                } else {
                    self.final_heads_step(model.u(), &mut finishing)
                };
                if unfinished {
                    Some(Running::Model {
                        model,
                        privacy,
                        sigma,
                        finishing,
                    })
                } else {
                    let sum = finishing.map_or(0.0, |f| f.1);
                    self.push_model_result(
                        order,
                        &job,
                        model.as_ref(),
                        sum,
                        sigma,
                        privacy.map(|p| *p),
                    )?;
                    None
                }
            }
            Running::LocalGd { next_user, sum } => {
                self.units_done += 1;
                let end = (next_user + USERS_PER_LOCAL_STEP).min(self.config.n);
                let sum =
                    sum + local_gd_risk_sum(&self.data, &self.local_gd_params(), next_user..end);
                if end < self.config.n {
                    Some(Running::LocalGd {
                        next_user: end,
                        sum,
                    })
                } else {
                    let risk = risk_from_sum(&self.data, sum);
                    self.push_result(order, &job, risk, None, 0.0, None, f64::NAN)?;
                    None
                }
            }
        };
        Ok(match next {
            Some(r) => Phase::Jobs {
                index,
                running: Some(r),
            },
            None => self.after_job(index),
        })
    }

    /// One step of a run's final pass (heads refitted on S¹ with the final U,
    /// closed-form risk), USERS_PER_STEP users at a time: `finishing` holds
    /// (next user, Σ excess risk so far). True while users remain.
    pub(super) fn final_heads_step(
        &self,
        u: &DMatrix<f64>,
        finishing: &mut Option<(usize, f64)>,
    ) -> bool {
        let n = self.config.n;
        let (next, sum) = finishing.unwrap_or((0, 0.0));
        let end = (next + USERS_PER_STEP).min(n);
        *finishing = Some((end, sum + final_risk_sum(&self.data, u, next..end)));
        end < n
    }

    pub(super) fn local_gd_params(&self) -> LocalGdParams {
        LocalGdParams {
            steps: self.config.local_steps,
            step: self.config.local_step,
            clip: Some(self.config.clip),
        }
    }

    /// Noise seed of a job: independent of every other job and of the data.
    pub(super) fn job_seed(&self, job: &Job) -> u64 {
        let tag = match job {
            Job::FedRepReference => 1,
            Job::LocalGd => 2,
            Job::PrivateFedRep { epsilon_index } => 100 + *epsilon_index as u64,
            Job::PrivAltMin { epsilon_index } => 200 + *epsilon_index as u64,
        };
        combine(self.config.seed, tag)
    }

    /// Starts run `index`; a FedRep run starts with every FedRep run after it
    /// (all of them: they come first) as one group.
    pub(super) fn start_job(&self, index: usize) -> Result<Running, RunError> {
        let c = &self.config;
        let job = &self.jobs[index].1;
        match job {
            Job::LocalGd => Ok(match self.share {
                Some(_) => Running::SplitLocalGd { next_user: 0 },
                None => Running::LocalGd {
                    next_user: 0,
                    sum: 0.0,
                },
            }),
            Job::FedRepReference | Job::PrivateFedRep { .. } => {
                let mut runs = Vec::new();
                for (order, job) in self.jobs[index..].iter().take_while(|(_, j)| is_fedrep(j)) {
                    let (model, privacy, sigma) = self.new_fedrep(job)?;
                    runs.push(GroupRun {
                        order: *order,
                        job: job.clone(),
                        model,
                        privacy,
                        sigma,
                    });
                }
                // Local GD, if this worker holds it, comes right after the group.
                let local = matches!(self.jobs.get(index + runs.len()), Some((_, Job::LocalGd)));
                // Each pass starts at this worker's first block or user.
                Ok(Running::FedRepGroup {
                    runs,
                    next: 0,
                    local,
                })
            }
            Job::PrivAltMin { .. } if self.share.is_some() => Err(RunError::Config(
                "Priv-AltMin does not split by users; run it with altmin on in whole runs".into(),
            )),
            Job::PrivAltMin { epsilon_index } => {
                let epsilon = c.target.epsilons[*epsilon_index];
                let plan = plan_priv_altmin(c, epsilon)?;
                let u0 = self.initialization(*epsilon_index, plan.init_sigma);
                let run = PrivAltMin::new(&self.data, u0, plan.params, self.job_seed(job));
                Ok(Running::Model {
                    model: Box::new(run),
                    privacy: Some(Box::new(plan.report)),
                    sigma: plan.sigma_w,
                    finishing: None,
                })
            }
        }
    }

    /// The initialization statistic's accumulator: clipped for a private
    /// initialization (Alg. 2 line 5), unclipped otherwise.
    pub(super) fn statistic_accumulator(&self) -> SpectralAccumulator {
        let clip = match self.config.init {
            InitMode::Private => Some(self.config.init_clip),
            _ => None,
        };
        SpectralAccumulator::new(&self.data, clip, self.config.init_normalization)
    }

    /// U_0 of both private methods at ε number `epsilon_index`: Algorithm 2
    /// with noise σ_init (None: the non-private spectral estimator). The noise
    /// is drawn from Private FedRep's stream for that ε, so Priv-AltMin starts
    /// from exactly Private FedRep's U_0 whenever their σ_init agree (always
    /// under `exact`, `paper` and `authors-code`; both plans give the init the
    /// same σ): the comparison is between the methods, not between two inits.
    pub(super) fn initialization(
        &self,
        epsilon_index: usize,
        init_sigma: Option<f64>,
    ) -> DMatrix<f64> {
        if self.config.init == InitMode::Random {
            return self.random_initialization();
        }
        let seed = self.job_seed(&Job::PrivateFedRep { epsilon_index });
        let mut rng = NoiseSource::new(seed).release(u64::MAX);
        let sigma = match (self.config.init, init_sigma) {
            (InitMode::Private, Some(sigma_init)) => sigma_init,
            _ => 0.0,
        };
        let stat = self.stat.as_ref().expect("statistics computed");
        spectral_init(stat, sigma, self.config.k, &mut rng)
    }

    /// `init = random`: U_0 = Q of a QR of a d×k N(0, 1) matrix, drawn from
    /// the sweep's seed only, so the reference and every private run start
    /// from the same U_0 (and it never sees the data: no privacy cost).
    pub(super) fn random_initialization(&self) -> DMatrix<f64> {
        let mut rng = stream(self.config.seed, Purpose::Initialization, u64::MAX);
        orthonormalize(gaussian_matrix(self.config.d, self.config.k, &mut rng))
    }
}
