//! The classifier sweep as a step-wise runner: for every seed and dimension,
//! one dataset (Snedeker et al., the setting of Theorem 17), the JL matrix,
//! the candidates' scores (Algorithm 3, lines 1–4, computed once), then one
//! draw of the exponential mechanism per ε (and per candidate count for the
//! error-versus-N_c chart) with each user's head fitted on S¹ (line 6), and
//! the baselines. One step is one (seed, d).

use super::config::{ClassifierConfig, Cover};
use super::plan::em_report;
use crate::algorithms::jl_exponential::{
    direction_set, exact_cover, exponential_mechanism, jl_matrix, map_points, min_margin_loss,
    project, random_candidates, score,
};
use crate::data::margin_classification::{MarginDataset, Points};
use crate::linalg::{gaussian_matrix, orthonormalize};
use crate::rng::{combine, stream, NoiseSource, Purpose};
use crate::scenarios::csv_out::csv_record;
use crate::scenarios::job_sweep::{Finished, JobSweep, OneJobPerStep};
use crate::scenarios::RunError;
use nalgebra::DMatrix;
use serde::{Deserialize, Serialize};

/// Directions of the inner minimisation when k = 3 (fixed, data-independent).
const DIRECTIONS: usize = 96;

/// The stream index of the candidates (the directions: the next one), above
/// every d (the JL matrices' indices).
const CANDIDATES: u64 = 1 << 32;

/// Algorithm 3's lines 1–3 for one (seed, d): the data, the JL matrix M, the
/// data-independent candidates, the inner minimisation's directions, and S⁰
/// projected (line 2).
pub(super) struct Setup {
    pub data: MarginDataset,
    pub test: Vec<Points>,
    pub m: DMatrix<f64>,
    pub candidates: Vec<DMatrix<f64>>,
    pub directions: Vec<Vec<f64>>,
    pub projected: Vec<Vec<f64>>,
}

pub(super) fn setup(c: &ClassifierConfig, seed: u64, d: usize) -> Result<Setup, String> {
    let data = c.model(seed, d).generate()?;
    let test = data.test_points(c.test_points)?;
    let key = d as u64;
    let m = jl_matrix(
        c.k_prime,
        d,
        &mut stream(seed, Purpose::Initialization, key),
    );
    // The candidates (k′×k) and the inner minimisation's directions (k) do
    // not depend on d: the same at every d of the sweep.
    let candidates = match c.cover {
        Cover::Exact => exact_cover(c.k_prime, c.k, c.cover_gamma, super::config::MAX_CANDIDATES)
            .ok_or("cover: the exact cover is too large")?,
        Cover::Random => random_candidates(
            c.k_prime,
            c.k,
            c.largest_candidates(),
            &mut stream(seed, Purpose::Initialization, CANDIDATES),
        ),
    };
    let directions = direction_set(
        c.k,
        DIRECTIONS,
        &mut stream(seed, Purpose::Initialization, CANDIDATES + 1),
    );
    let projected: Vec<Vec<f64>> = data.train.iter().map(|p| project(&m, p)).collect();
    Ok(Setup {
        data,
        test,
        m,
        candidates,
        directions,
        projected,
    })
}

/// What computed a row. Its text (the CSV's `method` column, its `Display`)
/// is its serde name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// "jl-em": Algorithm 3 at an ε of the grid, among the configured candidates.
    JlEm,
    /// "jl-em-candidates": the same at the middle ε among a candidate count of
    /// the chart.
    JlEmCandidates,
    /// "best-candidate": the score's argmax (not private).
    BestCandidate,
    /// "local-only": each user alone, nothing shared.
    LocalOnly,
    /// "true-model": U* with heads fitted on S¹.
    TrueModel,
}

crate::serde_named!(Method);

/// One result row. Non-applicable numbers are NaN.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassifierRow {
    pub method: Method,
    pub d: usize,
    /// Target ε (NaN: not private).
    pub epsilon: f64,
    pub seed: u64,
    /// 0-1 error on fresh points, against the true labels, mean over users.
    pub error01: f64,
    /// Candidates the mechanism drew from (0: none).
    pub candidates: usize,
    /// ε spent (pure, δ = 0); ∞ for a method that is not private.
    pub epsilon_spent: f64,
    /// The score f of the chosen representation (NaN: not a candidate).
    pub score: f64,
}

csv_record! { ClassifierRow {
    text: method d;
    num: epsilon;
    text: seed;
    num: error01;
    text: candidates;
    num: epsilon_spent score;
} }

pub fn csv(rows: &[ClassifierRow]) -> String {
    crate::scenarios::csv_out::file_of(rows)
}

/// The local-only baseline at dimension d: each user fits its head on all of its own
/// points (training and held out) over a random representation, shared by no one.
fn local_only_error(
    c: &ClassifierConfig,
    data: &MarginDataset,
    test: &[Points],
    directions: &[Vec<f64>],
    seed: u64,
    d: usize,
) -> f64 {
    let key = d as u64;
    let random_u = orthonormalize(gaussian_matrix(
        d,
        c.k,
        &mut stream(seed, Purpose::Initialization, combine(key, 3)),
    ));
    let alone: Vec<Points> = data
        .train
        .iter()
        .zip(&data.holdout)
        .map(|(a, b)| Points {
            x: [a.x.as_slice(), b.x.as_slice()].concat(),
            y: [a.y.as_slice(), b.y.as_slice()].concat(),
        })
        .collect();
    error_of(&random_u, &alone, test, c.gamma, directions)
}

/// Each user's head fitted on `fit` points by the inner minimisation with
/// the 0-1 loss (ρ = 0), then the 0-1 error of sign(⟨x, U v_i⟩) on `test`.
fn error_of(
    u: &DMatrix<f64>,
    fit: &[Points],
    test: &[Points],
    gamma: f64,
    directions: &[Vec<f64>],
) -> f64 {
    let (d, k) = (u.nrows(), u.ncols());
    let mut total = 0.0;
    for (f, t) in fit.iter().zip(test) {
        let w = map_points(&f.x, u);
        let (_, v) = min_margin_loss(&w, &f.y, k, gamma, 0.0, directions);
        let uv = u * nalgebra::DVector::from_column_slice(&v);
        let wrong = (0..t.len())
            .filter(|&j| {
                let s: f64 = t.x[j * d..(j + 1) * d]
                    .iter()
                    .zip(uv.iter())
                    .map(|(a, b)| a * b)
                    .sum();
                t.y[j] * s <= 0.0
            })
            .count();
        total += wrong as f64 / t.len().max(1) as f64;
    }
    total / fit.len().max(1) as f64
}

/// A whole sweep, one (seed, d) per step.
pub type ClassifierSweep = JobSweep<ClassifierConfig>;

/// A job is one (seed, d): the data, every candidate's score, the baselines
/// and the mechanism's draws.
impl OneJobPerStep for ClassifierConfig {
    type Job = (u64, usize);
    type Row = ClassifierRow;

    fn jobs(&self) -> Vec<(u64, usize)> {
        (0..self.seeds)
            .flat_map(|s| {
                let seed = self.seed.wrapping_add(s as u64);
                self.dimensions().into_iter().map(move |d| (seed, d))
            })
            .collect()
    }

    fn phase((seed, d): (u64, usize)) -> String {
        format!("seed {seed}, d = {d}: scoring the candidates")
    }

    fn run(&self, job: (u64, usize), out: &mut Finished<ClassifierRow>) -> Result<(), RunError> {
        run_job(self, job, out).map_err(RunError::Config)
    }
}

/// One (seed, d), its rows added to `out`.
fn run_job(
    c: &ClassifierConfig,
    (seed, d): (u64, usize),
    out: &mut Finished<ClassifierRow>,
) -> Result<(), String> {
    let Setup {
        data,
        test,
        m,
        candidates,
        directions,
        projected,
    } = setup(c, seed, d)?;
    let key = d as u64;
    let labels: Vec<&[f64]> = data.train.iter().map(|p| p.y.as_slice()).collect();
    let scores: Vec<f64> = candidates
        .iter()
        .map(|cand| score(cand, &projected, &labels, c.gamma, c.margin, &directions))
        .collect();
    let main = match c.cover {
        Cover::Exact => candidates.len(),
        Cover::Random => c.candidates,
    };
    let back = |index: usize| m.transpose() * &candidates[index]; // line 5: MᵀŨ
    let row = |method: Method, epsilon: f64, error01: f64, count: usize, spent: f64, s: f64| {
        ClassifierRow {
            method,
            d,
            epsilon,
            seed,
            error01,
            candidates: count,
            epsilon_spent: spent,
            score: s,
        }
    };
    // Baselines.
    let truth = error_of(&data.u_star, &data.holdout, &test, c.gamma, &directions);
    out.push(
        row(
            Method::TrueModel,
            f64::NAN,
            truth,
            0,
            f64::INFINITY,
            f64::NAN,
        ),
        None,
    );
    let best = (0..main)
        .max_by(|&a, &b| scores[a].total_cmp(&scores[b]).then(b.cmp(&a)))
        .unwrap_or(0);
    let best_error = error_of(&back(best), &data.holdout, &test, c.gamma, &directions);
    out.push(
        row(
            Method::BestCandidate,
            f64::NAN,
            best_error,
            main,
            f64::INFINITY,
            scores[best],
        ),
        None,
    );
    let local = local_only_error(c, &data, &test, &directions, seed, d);
    out.push(
        row(
            Method::LocalOnly,
            f64::NAN,
            local,
            0,
            f64::INFINITY,
            f64::NAN,
        ),
        None,
    );
    // Line 4: one draw of the mechanism among the first `count` candidates
    // at ε, from its own noise stream (`stream`), and its row.
    let sensitivity = 1.0 / c.n as f64;
    let mut draw = |method: Method, eps: f64, count: usize, stream: u64| -> Result<(), String> {
        let mut rng = NoiseSource::new(seed).release(combine(key, stream));
        let chosen = exponential_mechanism(&scores[..count], eps, sensitivity, &mut rng)
            .ok_or("no candidate to choose from")?;
        let error = error_of(&back(chosen), &data.holdout, &test, c.gamma, &directions);
        let report = em_report(c, eps, count).map_err(|e| e.to_string())?;
        let spent = report.epsilon_exact;
        out.push(
            row(method, eps, error, count, spent, scores[chosen]),
            Some(report),
        );
        Ok(())
    };
    // At every ε, among all the candidates.
    for (e, &eps) in c.target.epsilons.iter().enumerate() {
        draw(Method::JlEm, eps, main, e as u64)?;
    }
    // Error versus the number of candidates, at the middle ε, at the main d.
    if d == c.d && c.cover == Cover::Random {
        let eps = c.target.epsilons[c.target.epsilons.len() / 2];
        for (g, &count) in c.candidate_grid.iter().enumerate() {
            draw(Method::JlEmCandidates, eps, count, 1000 + g as u64)?;
        }
    }
    Ok(())
}
