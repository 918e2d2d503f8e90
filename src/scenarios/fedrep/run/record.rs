//! What a Private FedRep sweep shows of its runs: the result row and angle
//! curve of a finished run (or the error naming the setting when its numbers
//! diverged), the runs' names and variants, and the phase label.

use super::super::jobs::{is_fedrep, Job};
use super::super::method::Method;
use super::super::results::{AngleCurve, ResultRow};
use super::{Phase, Running, SeedSweep};
use crate::algorithms::fedrep::{risk_from_sum, FinalRisk};
use crate::algorithms::stepwise::RepresentationLearner;
use crate::privacy::PrivacyReport;
use crate::scenarios::RunError;

impl SeedSweep {
    /// The row (and, for a method with a U, the angle curve) of a finished run.
    /// ε spent is the report's exact ε, or ∞ for a non-private run.
    /// A run whose numbers stopped being finite is an error naming the
    /// setting to change, never a row: no risk or angle is shown for it.
    /// The row and curve of a finished run that learned U (whole or split by
    /// users), from the sum of its users' excess risks in the final pass.
    pub(super) fn push_model_result(
        &mut self,
        order: usize,
        job: &Job,
        model: &dyn RepresentationLearner,
        risk_sum: f64,
        sigma: f64,
        privacy: Option<PrivacyReport>,
    ) -> Result<(), RunError> {
        let risk = risk_from_sum(&self.data, risk_sum);
        let clipped = model.clipped_fraction();
        self.push_result(
            order,
            job,
            risk,
            Some(model.angles()),
            sigma,
            privacy,
            clipped,
        )
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn push_result(
        &mut self,
        order: usize,
        job: &Job,
        risk: FinalRisk,
        angles: Option<&[f64]>,
        sigma: f64,
        privacy: Option<PrivacyReport>,
        clipped_fraction: f64,
    ) -> Result<(), RunError> {
        let finite_angles = angles.is_none_or(|a| a.iter().all(|x| x.is_finite()));
        if !(risk.excess_risk.is_finite() && risk.mse.is_finite() && finite_angles) {
            let c = &self.config;
            let (field, advice) = match job {
                Job::LocalGd => (
                    "local_step",
                    format!(
                        "local_step = {} is too large a step for each user's gradient descent",
                        c.local_step
                    ),
                ),
                Job::PrivAltMin { .. } => (
                    "altmin_clip",
                    "the clips set the noise's scale: try the defaults (1e-4)".to_string(),
                ),
                _ if c.clip > 100.0 => (
                    "clip",
                    format!("ψ = {} makes the noise σ = {sigma:e} per round", c.clip),
                ),
                _ => ("eta", format!("the step η = {} overshoots", c.step)),
            };
            return Err(RunError::Diverged {
                method: self.job_label(job),
                what: "its representation or risk is no longer a finite number".into(),
                field: field.into(),
                advice,
            });
        }
        let (method, epsilon) = self.job_identity(job);
        // In sweep order, whatever order the runs finish in.
        let at = self.rows.partition_point(|r| r.order < order);
        self.rows.insert(
            at,
            ResultRow {
                method,
                epsilon,
                delta: self.config.delta,
                seed: self.config.seed,
                excess_risk: risk.excess_risk,
                mse: risk.mse,
                principal_angle: angles.and_then(|a| a.last().copied()).unwrap_or(f64::NAN),
                sigma,
                epsilon_spent: privacy.as_ref().map_or(f64::INFINITY, |p| p.epsilon_exact),
                clipped_fraction,
                variant: self.variant(job),
                privacy_reading: privacy.as_ref().map(|p| p.plain_language()),
                privacy,
                order,
            },
        );
        if let Some(angles) = angles {
            let at = self.curves.partition_point(|c| c.order < order);
            self.curves.insert(at, self.curve_of(order, job, angles));
        }
        Ok(())
    }

    /// Finished curves plus the one being computed.
    pub fn curves(&self) -> Vec<AngleCurve> {
        let mut curves = self.curves.clone();
        if let Phase::Jobs {
            index,
            running: Some(running),
        } = &self.phase
        {
            match running {
                Running::Model { model, .. } => {
                    let (order, job) = &self.jobs[*index];
                    curves.push(self.curve_of(*order, job, model.angles()));
                }
                Running::FedRepGroup { runs, .. } => {
                    for run in runs {
                        curves.push(self.curve_of(run.order, &run.job, run.model.angles()));
                    }
                    curves.sort_by_key(|c| c.order);
                }
                Running::LocalGd { .. } | Running::SplitLocalGd { .. } => {}
            }
        }
        curves
    }

    pub(super) fn curve_of(&self, order: usize, job: &Job, angles: &[f64]) -> AngleCurve {
        let (method, epsilon) = self.job_identity(job);
        AngleCurve {
            method,
            epsilon,
            angles: angles.to_vec(),
            seed: self.config.seed,
            order,
        }
    }

    pub fn phase_label(&self) -> String {
        match &self.phase {
            Phase::Data { next_user } => {
                format!("drawing data: {next_user} of {} users", self.config.n)
            }
            Phase::Statistics { next_user, .. } => format!(
                "initialization statistic (Algorithm 2): {next_user} of {} users",
                self.config.n
            ),
            Phase::Jobs { index, running } => {
                let job = &self.jobs[*index].1;
                let (label, round) = match running {
                    Some(Running::Model { model, .. }) => {
                        (self.job_label(job), format!(": {}", model.position()))
                    }
                    Some(Running::FedRepGroup { runs, .. }) => {
                        let model = &runs[0].model;
                        let round = if model.is_done() {
                            ": final heads".into()
                        } else {
                            format!(": {}", RepresentationLearner::position(model))
                        };
                        (self.group_label(runs.iter().map(|r| &r.job)), round)
                    }
                    // A group not started yet: every FedRep run from here.
                    None if is_fedrep(job) => (
                        self.group_label(
                            self.jobs[*index..]
                                .iter()
                                .map(|(_, j)| j)
                                .take_while(|j| is_fedrep(j)),
                        ),
                        String::new(),
                    ),
                    _ => (self.job_label(job), String::new()),
                };
                let wait = if self.waiting {
                    " (waiting for the other workers)"
                } else {
                    ""
                };
                format!("{label}{round}{wait}")
            }
            Phase::Done => "done".into(),
        }
    }

    pub(super) fn job_identity(&self, job: &Job) -> (Method, Option<f64>) {
        match job {
            Job::FedRepReference => (Method::Fedrep, None),
            Job::LocalGd => (Method::LocalGd, None),
            Job::PrivateFedRep { epsilon_index } => (
                Method::PrivateFedrep,
                Some(self.config.target.epsilons[*epsilon_index]),
            ),
            Job::PrivAltMin { epsilon_index } => (
                Method::PrivAltmin,
                Some(self.config.target.epsilons[*epsilon_index]),
            ),
        }
    }

    pub(super) fn job_label(&self, job: &Job) -> String {
        match job {
            Job::FedRepReference => "FedRep (non-private)".into(),
            Job::LocalGd => "local GD (non-private)".into(),
            Job::PrivateFedRep { epsilon_index } => format!(
                "Private FedRep, ε = {}",
                self.config.target.epsilons[*epsilon_index]
            ),
            Job::PrivAltMin { epsilon_index } => {
                format!(
                    "Priv-AltMin, ε = {}",
                    self.config.target.epsilons[*epsilon_index]
                )
            }
        }
    }

    /// "FedRep (non-private) and Private FedRep, ε = 1, 2, 4": the runs of a group.
    pub(super) fn group_label<'a>(&self, jobs: impl Iterator<Item = &'a Job>) -> String {
        let jobs: Vec<&Job> = jobs.collect();
        let mut parts = Vec::new();
        if jobs.contains(&&Job::FedRepReference) {
            parts.push(self.job_label(&Job::FedRepReference));
        }
        let epsilons: Vec<String> = jobs
            .iter()
            .filter_map(|job| match job {
                Job::PrivateFedRep { epsilon_index } => {
                    Some(self.config.target.epsilons[*epsilon_index].to_string())
                }
                _ => None,
            })
            .collect();
        if !epsilons.is_empty() {
            parts.push(format!("Private FedRep, ε = {}", epsilons.join(", ")));
        }
        parts.join(" and ")
    }

    pub(super) fn variant(&self, job: &Job) -> String {
        let c = &self.config;
        match job {
            Job::FedRepReference => format!(
                "non-private spectral init; batch {}; clip {}",
                c.batch.name(),
                c.clip
            ),
            Job::LocalGd => format!(
                "{} steps of size {} per user; clip {}",
                c.local_steps, c.local_step, c.clip
            ),
            Job::PrivateFedRep { .. } => format!(
                "{} init; batch {}; calibration {}",
                c.init.name(),
                c.batch.name(),
                c.calibration.name()
            ),
            Job::PrivAltMin { .. } => format!(
                "{} init; {} users; T = {}; clips c_x {} c_y {}; calibration {}",
                c.init.name(),
                c.altmin_mode.name(),
                c.altmin_rounds,
                c.altmin_clip,
                c.altmin_label_clip,
                c.calibration.name()
            ),
        }
    }
}
