//! One interface over the algorithms that learn a shared representation U
//! round by round (FedRep, private or not, and Priv-AltMin), so a sweep steps
//! any of them the same way: a bounded amount of work at a time, until done,
//! with the principal-angle history dist(U_t, U*) for t = 0, 1, … so far.

use super::fedrep::{FedRep, USER_BLOCK};
use super::priv_altmin::PrivAltMin;
use crate::data::shared_representation::FederatedDataset;
use nalgebra::DMatrix;

pub trait RepresentationLearner: Send {
    /// At most about `max_users` users' work of the current round; true when
    /// every round is done.
    fn advance(&mut self, data: &FederatedDataset, max_users: usize) -> bool;
    fn is_done(&self) -> bool;
    /// The current representation U_t (d×k, orthonormal columns).
    fn u(&self) -> &DMatrix<f64>;
    /// dist(U_t, U*) for t = 0, 1, … so far.
    fn angles(&self) -> &[f64];
    /// Fraction of users clipped in the last round (NaN when the algorithm
    /// clips per sample and does not count users).
    fn clipped_fraction(&self) -> f64;
    /// Where the run is, in words ("round 3 of 5").
    fn position(&self) -> String;
}

/// `is_done` and `u`, which every learner answers with its own inherent
/// method of the same name.
macro_rules! answered_by_inherent_methods {
    ($learner:ident) => {
        fn is_done(&self) -> bool {
            $learner::is_done(self)
        }
        fn u(&self) -> &DMatrix<f64> {
            $learner::u(self)
        }
    };
}

impl RepresentationLearner for FedRep {
    fn advance(&mut self, data: &FederatedDataset, max_users: usize) -> bool {
        self.step_blocks(data, (max_users / USER_BLOCK).max(1));
        FedRep::is_done(self)
    }
    answered_by_inherent_methods!(FedRep);
    fn angles(&self) -> &[f64] {
        FedRep::angles(self)
    }
    fn clipped_fraction(&self) -> f64 {
        FedRep::clipped_fraction(self)
    }
    fn position(&self) -> String {
        format!("round {} of {}", self.round(), self.params().rounds)
    }
}

impl RepresentationLearner for PrivAltMin {
    fn advance(&mut self, data: &FederatedDataset, max_users: usize) -> bool {
        PrivAltMin::advance(self, data, max_users);
        PrivAltMin::is_done(self)
    }
    answered_by_inherent_methods!(PrivAltMin);
    fn angles(&self) -> &[f64] {
        self.angle_history()
    }
    fn clipped_fraction(&self) -> f64 {
        f64::NAN
    }
    fn position(&self) -> String {
        format!("iteration {} of {}", self.iteration(), self.params().rounds)
    }
}
