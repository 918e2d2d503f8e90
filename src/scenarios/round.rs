//! One round of a private algorithm in slow motion (this project's teaching
//! view, modelled on GAN Lab's step-by-step mode): every private algorithm here
//! does the same four things each round (Private FedRep, Snedeker et al.
//! Alg. 1 lines 6–9; DP-GD, Bombari & Mondelli Alg. 1): each contribution (a
//! user's or a sample's gradient) is clipped to a norm bound, the clipped
//! contributions are summed, Gaussian noise is added, and the model steps with
//! the noisy sum. A [`RoundTrace`] holds what each stage computed, replayed
//! from the run's own data, initialization and noise stream, with every count
//! and norm over all contributions and a 2-D picture of a sample of them.
//!
//! Everything is on the scale of the sum Σ clip(g_i): the noise whose standard
//! deviation per coordinate is `sigma` is the noise the mechanism adds to that
//! sum (the algorithms add it to a mean or to the step; the trace rescales it).

use serde::Serialize;

/// At most this many contributions are drawn (a fixed, evenly spaced sample);
/// counts and norms are always over all of them.
pub const MOST_DRAWN: usize = 400;

/// A point of the 2-D picture.
pub type Point2 = [f64; 2];

/// The plane a round is drawn in: its first axis along the sum of the clipped
/// contributions (the signal), its second along the part of the noise
/// orthogonal to it. The sum, the noise and the release lie in it exactly;
/// each contribution is drawn as its projection onto it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plane {
    /// Which contributions are drawn (indices into `raw_norms`).
    pub drawn: Vec<usize>,
    /// Each drawn contribution before clipping.
    pub contributions: Vec<Point2>,
    /// Each drawn contribution after clipping.
    pub clipped: Vec<Point2>,
    /// Σ clip(g_i).
    pub sum: Point2,
    /// The noise added to the sum.
    pub noise: Point2,
    /// What is released: the sum plus the noise.
    pub release: Point2,
    /// Σ g_i without clipping or noise (what a non-private round would use).
    pub non_private_sum: Point2,
}

/// The model's step, measured the way the scenario's chart measures it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelStep {
    /// What is measured ("training loss", "principal angle to U*").
    pub measure: &'static str,
    pub before: f64,
    pub after: f64,
    /// ‖model after − model before‖ (Frobenius).
    pub change_norm: f64,
}

/// One private round, stage by stage (`dp-explorer step --json` prints it,
/// every field of `head` and `measured` at the top level).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoundTrace {
    #[serde(flatten)]
    pub head: RoundHead,
    #[serde(flatten)]
    pub measured: Measured,
    pub plane: Plane,
    pub step: ModelStep,
    /// σ (on the sum's scale, as `sigma`) that the run's calibration gives
    /// at other targets ε, as (ε, σ) pairs in increasing ε: the run's ε list
    /// and a grid from 0.05 to 100, for a live ε slider that rescales the same
    /// noise draw (the noise at ε′ is this round's draw times σ(ε′)/σ).
    pub sigma_by_epsilon: Vec<[f64; 2]>,
}

/// The `drawn` contributions of `count`: all when few, else an evenly spaced sample.
pub fn drawn_indices(count: usize) -> Vec<usize> {
    if count <= MOST_DRAWN {
        return (0..count).collect();
    }
    (0..MOST_DRAWN).map(|i| i * count / MOST_DRAWN).collect()
}

/// Euclidean norm.
pub fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The plane's two unit axes: e₁ along `sum`, e₂ along the part of `noise`
/// orthogonal to it (Gram–Schmidt; a zero sum puts e₁ along the noise).
pub fn plane_axes(sum: &[f64], noise: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let unit = |v: Vec<f64>| {
        let n = norm(&v);
        if n > 0.0 {
            v.iter().map(|x| x / n).collect()
        } else {
            vec![0.0; v.len()]
        }
    };
    let first = if norm(sum) > 0.0 { sum } else { noise };
    let e1 = unit(first.to_vec());
    let along = dot(noise, &e1);
    let e2 = unit(noise.iter().zip(&e1).map(|(z, e)| z - along * e).collect());
    (e1, e2)
}

/// A vector's coordinates in the plane.
pub fn project(v: &[f64], axes: &(Vec<f64>, Vec<f64>)) -> Point2 {
    [dot(v, &axes.0), dot(v, &axes.1)]
}

/// The stages' numbers of a round from what it computed: the contributions'
/// norms before clipping and their clip factors, the clipped sum, the noise
/// added to it and the unclipped sum (vectors on the sum's scale), the drawn
/// contributions' projections (`project_drawn`, given the axes, returns each
/// drawn contribution's coordinates before clipping), and the model's step.
pub struct Stages<'a> {
    pub raw_norms: Vec<f64>,
    pub factors: &'a [f64],
    pub clip: f64,
    pub sum: &'a [f64],
    pub noise: &'a [f64],
    pub non_private_sum: &'a [f64],
    pub sigma: f64,
}

impl Stages<'_> {
    /// The numbers and the plane (not the method, run or step: the caller's).
    pub fn measure(
        self,
        project_drawn: impl Fn(&(Vec<f64>, Vec<f64>), &[usize]) -> Vec<Point2>,
    ) -> (Measured, Plane) {
        let axes = plane_axes(self.sum, self.noise);
        let drawn = drawn_indices(self.raw_norms.len());
        let contributions = project_drawn(&axes, &drawn);
        let clipped = contributions
            .iter()
            .zip(&drawn)
            .map(|(p, &i)| [p[0] * self.factors[i], p[1] * self.factors[i]])
            .collect();
        let release: Vec<f64> = self
            .sum
            .iter()
            .zip(self.noise)
            .map(|(s, z)| s + z)
            .collect();
        let above = self.raw_norms.iter().filter(|&&g| g > self.clip).count();
        let count = self.raw_norms.len().max(1);
        let (sum_norm, noise_norm) = (norm(self.sum), norm(self.noise));
        let plane = Plane {
            drawn,
            contributions,
            clipped,
            sum: project(self.sum, &axes),
            noise: project(self.noise, &axes),
            release: project(&release, &axes),
            non_private_sum: project(self.non_private_sum, &axes),
        };
        let measured = Measured {
            clipped_fraction: above as f64 / count as f64,
            sum_norm,
            non_private_sum_norm: norm(self.non_private_sum),
            sigma: self.sigma,
            noise_dims: self.noise.len(),
            noise_norm,
            release_norm: norm(&release),
            signal_to_noise: if noise_norm > 0.0 {
                sum_norm / noise_norm
            } else {
                f64::INFINITY
            },
            raw_norms: self.raw_norms,
            clip: self.clip,
        };
        (measured, plane)
    }
}

/// The numbers of every stage ([`Stages::measure`]), over all contributions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Measured {
    /// Each contribution's norm before clipping (all of them).
    pub raw_norms: Vec<f64>,
    /// The clip bound (the norm every contribution is cut to at most).
    pub clip: f64,
    /// The share of `raw_norms` above `clip`.
    pub clipped_fraction: f64,
    /// ‖Σ clip(g_i)‖.
    pub sum_norm: f64,
    /// ‖Σ g_i‖ without clipping.
    pub non_private_sum_norm: f64,
    /// Standard deviation of the noise per coordinate of the sum.
    pub sigma: f64,
    /// How many coordinates are noised (the sum's dimension).
    pub noise_dims: usize,
    /// ‖noise‖.
    pub noise_norm: f64,
    /// ‖Σ clip(g_i) + noise‖.
    pub release_norm: f64,
    /// ‖Σ clip(g_i)‖ / ‖noise‖.
    pub signal_to_noise: f64,
}

/// What a round request asks: the round (1-based) of the run at the first ε.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundRequest {
    pub round: usize,
}

impl RoundTrace {
    /// The trace from the measured stages and the caller's words.
    pub fn new(head: RoundHead, measured: Measured, plane: Plane, step: ModelStep) -> Self {
        RoundTrace {
            head,
            measured,
            plane,
            step,
            sigma_by_epsilon: Vec::new(),
        }
    }

    /// The trace with σ at other ε from `sigma_at` (None where the
    /// calibration gives none), over the run's `epsilons` and the grid.
    pub fn with_sigmas(mut self, epsilons: &[f64], sigma_at: impl Fn(f64) -> Option<f64>) -> Self {
        let mut at: Vec<f64> = (0..=40)
            .map(|i| 0.05 * (2000.0f64).powf(i as f64 / 40.0))
            .chain(epsilons.iter().copied())
            .collect();
        at.sort_by(f64::total_cmp);
        at.dedup();
        self.sigma_by_epsilon = at
            .into_iter()
            .filter_map(|e| {
                sigma_at(e)
                    .filter(|s| s.is_finite() && *s > 0.0)
                    .map(|s| [e, s])
            })
            .collect();
        self
    }

    /// The stages in words, one line each (the CLI prints them; the page
    /// shows one at a time).
    pub fn stage_lines(&self) -> Vec<String> {
        let n = self.measured.raw_norms.len();
        let clipped = (self.measured.clipped_fraction * n as f64).round() as usize;
        let largest = self.measured.raw_norms.iter().cloned().fold(0.0, f64::max);
        vec![
            format!(
                "1. contributions: {n} {unit}s' gradients at round {r} of {t}; their norms run up to {largest:.4}",
                unit = self.head.unit,
                r = self.head.round,
                t = self.head.rounds,
            ),
            format!(
                "2. clipped: {clipped} of {n} ({:.1} %) are longer than the clip bound {:.4} and are cut to it",
                100.0 * self.measured.clipped_fraction,
                self.measured.clip
            ),
            format!(
                "3. summed: ‖Σ clip(g_i)‖ = {:.4} (without clipping it would be {:.4})",
                self.measured.sum_norm, self.measured.non_private_sum_norm
            ),
            format!(
                "4. noise added: σ = {:.4} per coordinate in {} coordinates, ‖noise‖ = {:.4}; signal to noise {:.3}; ‖release‖ = {:.4}",
                self.measured.sigma, self.measured.noise_dims, self.measured.noise_norm, self.measured.signal_to_noise, self.measured.release_norm
            ),
            format!(
                "5. step taken: {} {:.4} → {:.4} (the model moved by {:.4})",
                self.step.measure, self.step.before, self.step.after, self.step.change_norm
            ),
        ]
    }
}

/// The run a round is of, in the scenario's words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoundHead {
    /// The private method and the run it was replayed from, in words.
    pub method: String,
    pub run: String,
    /// Whose contribution each one is ("user", "sample").
    pub unit: &'static str,
    /// The round shown (1-based) and the run's number of rounds.
    pub round: usize,
    pub rounds: usize,
    /// The ε the run was calibrated to, and δ.
    pub epsilon: f64,
    pub delta: f64,
}
