//! Local gradient descent, the paper's "local optimization" baseline (Snedeker
//! et al., Fig. 2): each user learns its own w_i ∈ R^d from its own S⁰ points,
//! with no collaboration and no noise. As in the authors' code (docs/algorithms.md, The public code behind the papers):
//! w starts at 0, batches of one point cycle over the user's points, and each
//! gradient 2x(xᵀw − y) is clipped in L2 norm.

use crate::data::shared_representation::{FederatedDataset, Part, Points};
use crate::metrics::excess_risk_linear;
use crate::privacy::clipping::clip_frobenius;

#[derive(Clone, Debug, PartialEq)]
pub struct LocalGdParams {
    pub steps: usize,
    pub step: f64,
    pub clip: Option<f64>,
}

impl Default for LocalGdParams {
    /// The authors' code: 5 steps of size 0.065, gradients clipped at 10.
    fn default() -> Self {
        LocalGdParams {
            steps: 5,
            step: 0.065,
            clip: Some(10.0),
        }
    }
}

/// Users `range` trained locally; returns the sum of their excess risks
/// ‖w_i − w_i*‖² (the caller averages), so the work can be split in chunks.
pub fn local_gd_risk_sum(
    data: &FederatedDataset,
    params: &LocalGdParams,
    range: std::ops::Range<usize>,
) -> f64 {
    let mut scratch = LocalGdScratch::new(data.d());
    let mut total = 0.0;
    data.for_each_user(range, Part::Train, |user| {
        total += scratch.user_risk(params, user.train, user.w_star);
    });
    total
}

/// One user's w and gradient, allocated once per pass, so that another pass
/// over the users (FedRep's final heads) can train each user it reads too.
#[derive(Clone, Debug)]
pub struct LocalGdScratch {
    w: Vec<f64>,
    g: Vec<f64>,
}

impl LocalGdScratch {
    pub fn new(d: usize) -> Self {
        LocalGdScratch {
            w: vec![0.0; d],
            g: vec![0.0; d],
        }
    }

    /// The excess risk ‖w_i − w_i*‖² of one user trained locally on its S⁰
    /// points `pts`.
    pub fn user_risk(&mut self, params: &LocalGdParams, pts: Points<'_>, w_star: &[f64]) -> f64 {
        let d = self.w.len();
        let (w, g) = (&mut self.w, &mut self.g);
        w.iter_mut().for_each(|v| *v = 0.0);
        if !pts.is_empty() {
            for s in 0..params.steps {
                let j = s % pts.len();
                let x = &pts.x[j * d..(j + 1) * d];
                let r = 2.0 * (x.iter().zip(w.iter()).map(|(a, b)| a * b).sum::<f64>() - pts.y[j]);
                g.iter_mut().zip(x).for_each(|(gp, xp)| *gp = r * xp);
                if let Some(c) = params.clip {
                    clip_frobenius(g, c);
                }
                w.iter_mut()
                    .zip(g.iter())
                    .for_each(|(wp, gp)| *wp -= params.step * gp);
            }
        }
        excess_risk_linear(w, w_star)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::shared_representation::SharedRepresentationModel;

    #[test]
    fn zero_steps_leave_the_risk_of_the_zero_predictor() {
        let data = SharedRepresentationModel {
            n: 10,
            d: 4,
            k: 2,
            m: 4,
            m_train: 2,
            noise: 0.0,
            unit_heads: true,
            seed: 1,
        }
        .generate();
        let p = LocalGdParams {
            steps: 0,
            ..Default::default()
        };
        // w = 0 → risk ‖w*‖² = ‖v*‖² = 1 for unit heads.
        assert!((local_gd_risk_sum(&data, &p, 0..10) / 10.0 - 1.0).abs() < 1e-12);
    }

    #[test]
    fn many_steps_on_enough_points_learn_each_users_model() {
        let data = SharedRepresentationModel {
            n: 5,
            d: 3,
            k: 1,
            m: 60,
            m_train: 50,
            noise: 0.0,
            unit_heads: true,
            seed: 2,
        }
        .generate();
        let p = LocalGdParams {
            steps: 2000,
            step: 0.02,
            clip: None,
        };
        assert!(local_gd_risk_sum(&data, &p, 0..5) / 5.0 < 1e-6);
    }
}
