//! What an algorithm releases, as typed privacy events, in the spirit of
//! `dp_accounting`'s `DpEvent`: an algorithm's parameters say what it releases
//! (a Gaussian release with its sensitivity and σ, repeated T times, composed
//! with others, applied to disjoint groups of users, or a release that is not
//! private at all), and the accountant composes the events. Nobody has to run
//! an algorithm to learn what it releases, or recognise a release by its name.

use super::error::{check_sensitivity, check_sigma, check_steps, AccountingError};
use serde::{Deserialize, Serialize};

/// One Gaussian release: `sigma`-std noise added to a statistic whose L2
/// sensitivity under the run's neighbouring relation is `sensitivity`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GaussianRelease {
    /// What is released, e.g. "training rounds (Alg. 1)".
    pub name: String,
    /// How, e.g. "Gaussian noise on the mean of n clipped gradients (d×k)".
    pub mechanism: String,
    pub sensitivity: f64,
    pub sigma: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PrivacyEvent {
    /// One release of the Gaussian mechanism.
    Gaussian(GaussianRelease),
    /// The same event `count` times, adaptively (sequential composition).
    Repeated {
        event: Box<PrivacyEvent>,
        count: u64,
    },
    /// Events one after another (sequential composition).
    Composed(Vec<PrivacyEvent>),
    /// The event applied once to each of `groups` disjoint groups of users:
    /// every user's data enters one group only, so for any one user it is one
    /// event (parallel composition).
    Disjoint {
        event: Box<PrivacyEvent>,
        groups: u64,
    },
    /// One draw of the exponential mechanism over a data-independent set of
    /// `candidates`, with a score of the given sensitivity: pure ε-DP (δ = 0).
    Exponential {
        name: String,
        mechanism: String,
        epsilon: f64,
        sensitivity: f64,
        candidates: u64,
    },
    /// A release computed from the data without any noise: not private. Never
    /// accounted as private; the report says so.
    NonPrivate { name: String, why: String },
}

impl PrivacyEvent {
    /// One Gaussian release.
    pub fn gaussian(
        name: impl Into<String>,
        mechanism: impl Into<String>,
        sensitivity: f64,
        sigma: f64,
    ) -> Self {
        PrivacyEvent::Gaussian(GaussianRelease {
            name: name.into(),
            mechanism: mechanism.into(),
            sensitivity,
            sigma,
        })
    }

    /// This event `count` times (0 times: nothing is released).
    pub fn repeated(self, count: u64) -> Self {
        PrivacyEvent::Repeated {
            event: Box::new(self),
            count,
        }
    }

    /// This event on each of `groups` disjoint groups of users.
    pub fn on_disjoint_groups(self, groups: u64) -> Self {
        PrivacyEvent::Disjoint {
            event: Box::new(self),
            groups,
        }
    }

    /// The Gaussian stages the accountant composes, in order: each Gaussian
    /// release with how many times one user's data enters it.
    pub fn gaussian_stages(&self) -> Vec<GaussianStage> {
        let mut out = Vec::new();
        self.for_each_release(1, &mut |event, times| {
            if let PrivacyEvent::Gaussian(g) = event {
                out.push(GaussianStage::new(
                    g.name.clone(),
                    g.mechanism.clone(),
                    g.sensitivity,
                    g.sigma,
                    times,
                ));
            }
        });
        out
    }

    /// The pure-ε releases, each with how many times one user's data enters it.
    pub fn pure_stages(&self) -> Vec<PureStage> {
        let mut out = Vec::new();
        self.for_each_release(1, &mut |event, times| {
            if let PrivacyEvent::Exponential {
                name,
                mechanism,
                epsilon,
                sensitivity,
                candidates,
            } = event
            {
                out.push(PureStage {
                    name: name.clone(),
                    mechanism: mechanism.clone(),
                    epsilon: *epsilon,
                    sensitivity: *sensitivity,
                    candidates: *candidates,
                    steps: times,
                });
            }
        });
        out
    }

    /// Calls `visit` on every leaf release (Gaussian, exponential or
    /// non-private), in order, with how many times one user's data enters it;
    /// a leaf that one user's data never enters (times = 0) is skipped.
    fn for_each_release(&self, times: u64, visit: &mut impl FnMut(&PrivacyEvent, u64)) {
        match self {
            PrivacyEvent::Repeated { event, count } => {
                event.for_each_release(times.saturating_mul(*count), visit)
            }
            PrivacyEvent::Composed(events) => {
                for e in events {
                    e.for_each_release(times, visit);
                }
            }
            // A user is in one group: the groups cost one event for that user
            // (none when there are no groups).
            PrivacyEvent::Disjoint { event, groups } => {
                event.for_each_release(if *groups > 0 { times } else { 0 }, visit)
            }
            leaf => {
                if times > 0 {
                    visit(leaf, times)
                }
            }
        }
    }

    /// Why each non-private part is not private, in order.
    pub fn non_private_parts(&self) -> Vec<String> {
        match self {
            PrivacyEvent::NonPrivate { name, why } => vec![format!("{name} is NOT private: {why}")],
            PrivacyEvent::Repeated { event, .. } | PrivacyEvent::Disjoint { event, .. } => {
                event.non_private_parts()
            }
            PrivacyEvent::Composed(events) => {
                events.iter().flat_map(|e| e.non_private_parts()).collect()
            }
            PrivacyEvent::Gaussian(_) | PrivacyEvent::Exponential { .. } => Vec::new(),
        }
    }
}

/// `steps` releases of a Gaussian mechanism with the given L2 sensitivity and
/// noise standard deviation σ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GaussianStage {
    /// What is released, e.g. "initialization" or "training rounds".
    pub name: String,
    /// How, e.g. "Gaussian noise on the clipped mean of user updates".
    pub mechanism: String,
    pub sensitivity: f64,
    pub sigma: f64,
    pub steps: u64,
}

impl GaussianStage {
    pub fn new(
        name: impl Into<String>,
        mechanism: impl Into<String>,
        sensitivity: f64,
        sigma: f64,
        steps: u64,
    ) -> Self {
        GaussianStage {
            name: name.into(),
            mechanism: mechanism.into(),
            sensitivity,
            sigma,
            steps,
        }
    }

    /// σ, s and steps each in range (σ = 0 cannot be accounted).
    pub fn validate(&self) -> Result<(), AccountingError> {
        check_sigma(self.sigma)?;
        check_sensitivity(self.sensitivity)?;
        check_steps(self.steps)?;
        Ok(())
    }

    /// z = σ/s.
    pub fn noise_multiplier(&self) -> f64 {
        self.sigma / self.sensitivity
    }

    /// μ = √steps·s/σ: the stage is μ-GDP.
    pub fn mu(&self) -> f64 {
        (self.steps as f64).sqrt() * self.sensitivity / self.sigma
    }

    /// steps·s²/(2σ²): the stage's RDP is this times α.
    pub fn rdp_slope(&self) -> f64 {
        let r = self.sensitivity / self.sigma;
        0.5 * self.steps as f64 * r * r
    }

    /// steps·s²/(2σ²): the stage is ρ-zCDP.
    pub fn rho(&self) -> f64 {
        self.rdp_slope()
    }
}

/// `steps` draws of a pure ε-DP mechanism (the exponential mechanism): they
/// compose by adding their ε, with δ = 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PureStage {
    pub name: String,
    pub mechanism: String,
    pub epsilon: f64,
    /// The score's sensitivity (e.g. 1/n for an average of per-user values in [0, 1]).
    pub sensitivity: f64,
    /// The size of the range the mechanism draws from.
    pub candidates: u64,
    pub steps: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_disjoint_and_composed_events_flatten_to_counted_stages() {
        let w = PrivacyEvent::gaussian("W", "sum", 2.0, 4.0);
        let b = PrivacyEvent::gaussian("b", "sum", 1.0, 3.0);
        let all = PrivacyEvent::Composed(vec![
            PrivacyEvent::NonPrivate {
                name: "init".into(),
                why: "no noise".into(),
            },
            w.clone().repeated(5),
            b.clone().on_disjoint_groups(5),
            b.clone().on_disjoint_groups(0),
            w.repeated(2).repeated(3),
        ]);
        let stages = all.gaussian_stages();
        let counts: Vec<(String, u64)> = stages.iter().map(|s| (s.name.clone(), s.steps)).collect();
        assert_eq!(
            counts,
            vec![("W".into(), 5), ("b".into(), 1), ("W".into(), 6)]
        );
        assert_eq!(
            all.non_private_parts(),
            vec!["init is NOT private: no noise".to_string()]
        );
    }
}
