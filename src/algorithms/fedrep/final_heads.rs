//! The final heads of FedRep and Private FedRep (Snedeker et al., Algorithm 1 line 12): each
//! user refits v_i by least squares on its S¹ points with the released U_T, and the run reports
//! the users' average excess risk (closed form, proof of Lemma 35). Split into chunks of users
//! and over several runs' U at once, so a runner can bound a step and read each user once.

use crate::algorithms::local_gd::{LocalGdParams, LocalGdScratch};
use crate::data::shared_representation::{FederatedDataset, Part};
use crate::linalg::{axpy, dot, least_squares_head, HeadScratch};
use crate::metrics::excess_risk_linear;
use nalgebra::DMatrix;

/// What a finished run reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FinalRisk {
    /// (1/n) Σ ‖U v_i − U* v_i*‖², heads refit on S¹ (closed form, proof of Lemma 35).
    pub excess_risk: f64,
    /// Population MSE = excess risk + R².
    pub mse: f64,
}

/// Each user refits v_i by least squares on S¹ with the shared U; returns the
/// average closed-form excess risk and MSE.
pub fn final_risk(data: &FederatedDataset, u: &DMatrix<f64>) -> FinalRisk {
    let n = data.n();
    risk_from_sum(data, final_risk_sum(data, u, 0..n))
}

/// The average risk from the sum of the users' excess risks.
pub fn risk_from_sum(data: &FederatedDataset, sum: f64) -> FinalRisk {
    let excess_risk = sum / data.n() as f64;
    FinalRisk {
        excess_risk,
        mse: excess_risk + data.model.noise * data.model.noise,
    }
}

/// Σ over users `users` of ‖U v_i − w_i*‖², heads refit on S¹ (so a runner can
/// split the final pass into chunks).
pub fn final_risk_sum(
    data: &FederatedDataset,
    u: &DMatrix<f64>,
    users: std::ops::Range<usize>,
) -> f64 {
    final_risk_sums(data, &[u], users)[0]
}

/// [`final_risk_sum`] of several runs' U in one pass over the users (each
/// user's points read or regenerated once for all); each sum is bit-identical
/// to its own pass.
pub fn final_risk_sums(
    data: &FederatedDataset,
    us: &[&DMatrix<f64>],
    users: std::ops::Range<usize>,
) -> Vec<f64> {
    final_and_local_sums(data, us, None, users).0
}

/// [`final_risk_sums`] and, in the same pass, the local GD baseline's
/// [`local_gd_risk_sum`](crate::algorithms::local_gd::local_gd_risk_sum) over
/// the same users (each user's S⁰ points are part of what the final pass
/// reads): a streamed dataset is regenerated once for both. Every sum is
/// bit-identical to its own pass (the same users added in the same order).
pub fn final_and_local_sums(
    data: &FederatedDataset,
    us: &[&DMatrix<f64>],
    local: Option<&LocalGdParams>,
    users: std::ops::Range<usize>,
) -> (Vec<f64>, f64) {
    let (d, k) = (data.d(), data.k());
    let mh = data.model.m - data.model.m_train;
    let mut a = vec![0.0; mh * k];
    let mut v = vec![0.0; k];
    let mut w = vec![0.0; d];
    let mut head = HeadScratch::new(k);
    let mut totals = vec![0.0; us.len()];
    let mut local_scratch = LocalGdScratch::new(d);
    let mut local_total = 0.0;
    data.for_each_user(users, Part::All, |user| {
        let pts = user.holdout;
        for (u, total) in us.iter().zip(totals.iter_mut()) {
            let u_cols = u.as_slice();
            for j in 0..mh {
                for q in 0..k {
                    a[j * k + q] = dot(&pts.x[j * d..(j + 1) * d], &u_cols[q * d..(q + 1) * d]);
                }
            }
            least_squares_head(&a, pts.y, k, 0.0, &mut head, &mut v);
            w.iter_mut().for_each(|x| *x = 0.0);
            for q in 0..k {
                axpy(v[q], &u_cols[q * d..(q + 1) * d], &mut w);
            }
            *total += excess_risk_linear(&w, user.w_star);
        }
        if let Some(params) = local {
            local_total += local_scratch.user_risk(params, user.train, user.w_star);
        }
    });
    (totals, local_total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::local_gd::local_gd_risk_sum;
    use crate::data::shared_representation::SharedRepresentationModel;

    /// Local GD computed in the final pass gives exactly its own pass's sum,
    /// and leaves the final risks as they are, stored or streamed.
    #[test]
    fn local_gd_in_the_final_pass_gives_exactly_its_own_sum() {
        let model = SharedRepresentationModel {
            n: 300,
            d: 6,
            k: 2,
            m: 8,
            m_train: 4,
            noise: 0.1,
            unit_heads: true,
            seed: 3,
        };
        let params = LocalGdParams::default();
        for data in [model.generate(), model.streamed()] {
            let u = data.u_star.clone() + DMatrix::from_fn(6, 2, |i, j| 0.01 * (i + j) as f64);
            let us = [&u, &data.u_star];
            let (sums, local) = final_and_local_sums(&data, &us, Some(&params), 20..300);
            assert_eq!(sums, final_risk_sums(&data, &us, 20..300));
            assert_eq!(
                local.to_bits(),
                local_gd_risk_sum(&data, &params, 20..300).to_bits()
            );
            assert!(local > 0.0 && sums[0] > sums[1]);
        }
    }
}
