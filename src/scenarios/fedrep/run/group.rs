//! The grouped FedRep pass: every FedRep run of a seed (the non-private
//! reference and Private FedRep at each ε, Algorithm 1) in lock-step, each pass
//! over the users (a round's user blocks, then the final heads) read or
//! regenerated once for all of them; a round's server step (Alg. 1 lines 8–10)
//! once a run has every block.

use super::super::jobs::Job;
use super::super::plan::plan_private_fedrep;
use super::user_split::{append_per_run, blocks_of_chunk, users_of_chunk, Partials, Take};
use super::{GroupRun, Phase, Running, SeedSweep};
use crate::algorithms::fedrep::{
    block_partials_of_runs, final_and_local_sums, risk_from_sum, FedRep, FedRepParams,
};
use crate::algorithms::private_init::spectral_init;
use crate::privacy::{AccountingError, PrivacyReport};
use crate::rng::{stream, Purpose};
use crate::scenarios::RunError;
use nalgebra::DMatrix;

impl SeedSweep {
    /// One chunk of this worker's share of the current pass of the FedRep
    /// group (chunk `next` of a contiguous share, or the next handed out) (every run's gradient sums of a round's blocks, or every run's
    /// final risks); after its last chunk, a whole run applies the pass and a
    /// run split by users posts its partials.
    pub(super) fn step_fedrep_group(
        &mut self,
        index: usize,
        mut runs: Vec<GroupRun>,
        next: usize,
        local: bool,
    ) -> Result<Phase, RunError> {
        let rounds_done = runs[0].model.is_done();
        let n = self.config.n;
        // `next`: this worker's next chunk of a contiguous share.
        let mut next = next;
        if let Take::Chunk(c) = self.take_chunk(&mut next) {
            if rounds_done {
                let us: Vec<&DMatrix<f64>> = runs.iter().map(|r| r.model.u()).collect();
                let params = self.local_gd_params();
                let users = users_of_chunk(n, c);
                let (sums, local_sum) =
                    final_and_local_sums(&self.data, &us, local.then_some(&params), users);
                // Per run its chunk's sum; local GD's after the runs'.
                let mut per_run: Vec<Vec<f64>> = sums.into_iter().map(|s| vec![s]).collect();
                if local {
                    per_run.push(vec![local_sum]);
                }
                append_per_run(&mut self.mine.sums, per_run);
            } else {
                let mut models: Vec<&mut FedRep> = runs.iter_mut().map(|r| &mut r.model).collect();
                let partials =
                    block_partials_of_runs(&mut models, &self.data, blocks_of_chunk(n, c));
                append_per_run(&mut self.mine.blocks, partials);
            }
            self.mine.chunks.push(c);
            // A unit is one run's chunk, as when the runs went one by one.
            self.units_done += runs.len();
        }
        let done = self.share_done(next);
        if done && self.share.is_none() {
            let all = std::mem::take(&mut self.mine);
            return self.apply_group_pass(index, runs, local, all);
        }
        if done {
            self.post();
        }
        Ok(Phase::Jobs {
            index,
            running: Some(Running::FedRepGroup { runs, next, local }),
        })
    }

    /// Every run's partials of the group's pass (all the blocks, or all the
    /// chunks, in order): a round's server step for each run (Alg. 1 lines
    /// 8–10), or each run's row and curve after the final heads.
    pub(super) fn apply_group_pass(
        &mut self,
        index: usize,
        mut runs: Vec<GroupRun>,
        local: bool,
        all: Partials,
    ) -> Result<Phase, RunError> {
        if !runs[0].model.is_done() {
            for (run, blocks) in runs.iter_mut().zip(&all.blocks) {
                run.model.apply_partials(&self.data, blocks);
            }
            // The next pass starts at this worker's first block or user.
            return Ok(Phase::Jobs {
                index,
                running: Some(Running::FedRepGroup {
                    runs,
                    next: 0,
                    local,
                }),
            });
        }
        let mut last = index + runs.len() - 1;
        let mut sums = all.sums.into_iter();
        for (run, sums) in runs.into_iter().zip(sums.by_ref()) {
            // Added from 0 in chunk order, whatever the workers.
            let sum = sums.iter().fold(0.0, |s, c| s + c);
            self.push_model_result(run.order, &run.job, &run.model, sum, run.sigma, run.privacy)?;
        }
        if local {
            // Local GD's chunks, added as in a pass of its own.
            last += 1;
            let sum = sums
                .next()
                .unwrap_or_default()
                .iter()
                .fold(0.0, |s, c| s + c);
            let (order, job) = self.jobs[last].clone();
            let risk = risk_from_sum(&self.data, sum);
            self.push_result(order, &job, risk, None, 0.0, None, f64::NAN)?;
        }
        Ok(self.after_job(last))
    }

    /// A FedRep run (the non-private reference or Private FedRep at one ε)
    /// from its U_0, with its privacy report and σ̂.
    pub(super) fn new_fedrep(
        &self,
        job: &Job,
    ) -> Result<(FedRep, Option<PrivacyReport>, f64), AccountingError> {
        let c = &self.config;
        match job {
            Job::PrivateFedRep { epsilon_index } => {
                let epsilon = c.target.epsilons[*epsilon_index];
                let plan = plan_private_fedrep(c, epsilon)?;
                let seed = self.job_seed(job);
                let u0 = self.initialization(*epsilon_index, plan.init_sigma);
                let params = FedRepParams {
                    rounds: c.rounds,
                    step: c.step,
                    clip: Some(c.clip),
                    sigma: plan.sigma,
                    batch: c.batch,
                };
                Ok((
                    FedRep::new(&self.data, u0, params, seed),
                    Some(plan.report),
                    plan.sigma,
                ))
            }
            _ => {
                let u0 = match self.stat.as_ref() {
                    Some(stat) => {
                        let mut rng = stream(self.job_seed(job), Purpose::Initialization, 0);
                        spectral_init(stat, 0.0, c.k, &mut rng)
                    }
                    None => self.random_initialization(),
                };
                let params = FedRepParams {
                    rounds: c.rounds,
                    step: c.step,
                    clip: Some(c.clip),
                    sigma: 0.0,
                    batch: c.batch,
                };
                Ok((
                    FedRep::new(&self.data, u0, params, self.job_seed(job)),
                    None,
                    0.0,
                ))
            }
        }
    }
}
