//! DP-GD on random features simulated in n dimensions ("the kernel path"):
//! the same Algorithm 1 of Bombari & Mondelli ("Privacy for Free in the
//! Overparameterized Regime", §3) as `dp_gd_random_features`, drawn exactly in
//! distribution, at O(n²) a step instead of O(np), for the widths p ≥ n where
//! the paper's claim lives (its Fig. 3 goes to p ≈ 2·10⁵).
//!
//! Why it is the same algorithm. Algorithm 1 reads θ only through the training
//! predictions u = Φθ: the residuals r = u − y, the clip factors
//! s_i = min(1, C/(2|r_i|‖φ_i‖)) with ‖φ_i‖² = K_ii (K = ΦΦᵀ), and the update
//! θ ← θ − η(2/n)Φᵀ(r ⊙ s) + c·ξ_t (c = √η·(2C/n)·σ, ξ_t ~ N(0, I_p)). Its image
//! is
//!
//! ```text
//! u ← u − η(2/n)·K (r ⊙ s) + c·Φξ_t,      Φξ_t ~ N(0, K), independent over t,
//! ```
//!
//! so (u_t) is a Markov chain in R^n with the same law whichever way it is
//! computed. We draw Φξ_t = R z_t with z_t ~ N(0, I_n) and any R with RRᵀ = K:
//! the Cholesky factor L when p ≥ 1.5n (K is then safely positive definite: its
//! smallest eigenvalue grows like p once p is well above n, Lemma C.5; if the
//! factorization fails anyway the eigendecomposition takes over), otherwise
//! R = U Λ^{1/2} from K = UΛUᵀ, which
//! needs no positive definiteness (eigenvalues rounded below 0 are clamped; at
//! p < n, K is singular and the path is still exact).
//!
//! The final θ_T = −η(2/n)Φᵀa + cZ with a = Σ_t r_t ⊙ s_t and Z = Σ_t ξ_t
//! ~ N(0, T·I_p). The dynamics saw Z only through S = ΦZ = Σ_t Φξ_t. Given S,
//! Z = ΦᵀK⁺S + (I − ΦᵀK⁺Φ)ζ for a fresh ζ ~ N(0, T·I_p) (the conditional law of
//! a Gaussian given a linear image), so
//!
//! ```text
//! θ̃ = Φᵀ(−η(2/n)a + c·K⁺(S − Φζ)) + c·ζ
//! ```
//!
//! has exactly the joint law of θ_T with the whole training trajectory, and its
//! test predictions Φ_test θ̃ (hence the test loss) have exactly the law of
//! Algorithm 1's. ζ is drawn twice from one replayed stream: once in the pass
//! that builds K (for Φζ) and once in the final pass (for θ̃ block by block).
//!
//! Φ is not stored at large p: both passes build the features a block of
//! neurons at a time from the inputs and V (`frozen_weights_block`), so the
//! memory is O(n² + (n + n_test)·block), and p = 2·10⁵ with n = 2000 (Φ alone
//! 3.2 GB) fits. Up to [`KEEP_FEATURES_MAX`] values the first pass keeps its
//! blocks for the second instead (the same numbers, computed once). The min-norm baseline θ* = Φ⁺Y (eq. 3.7) shares K and its
//! eigendecomposition: θ* = Φᵀα with α = K⁺Y.
//!
//! Every run of one width steps together, as the columns of an n×B matrix
//! (K times a matrix each step, the noise images of 32 steps per run in one
//! product), each column from its own noise streams, so a run's result does not
//! depend on which runs share its batch.

use std::sync::Arc;

use rand::RngExt;
use rand_distr::StandardNormal;

mod factor;
mod noise_images;

use crate::algorithms::dp_gd_random_features::DpGdParams;
use crate::data::random_features::{frozen_weights_block, Activation, RfInputs};
use crate::dense;
use crate::privacy::clipping::clip_factor;
use crate::rng::NoiseRng;
pub use factor::factors_by_cholesky;
use factor::Factor;
use noise_images::NoiseAhead;

/// Neurons per block of features in the two passes over Φ.
pub const FEATURE_BLOCK: usize = 256;
/// Feature values ((n + n_test)·p) up to which the first pass keeps Φ and Φ_test
/// for the second (128 MB): below it the second pass reads them instead of
/// recomputing (the activation is about a third of the time at n = 2000,
/// p = 4000); above it memory stays O(n² + (n + n_test)·block).
pub const KEEP_FEATURES_MAX: usize = 1 << 24;
/// Up to this many active runs a step's K·W reads only K's lower triangle
/// (`dense::symmetric_lower_product`, half the memory, once per run); with
/// more, faer's blocked product (all of K once) is faster. At n = 2000 natively
/// the lower-triangle product took 1.9 ms for 4 runs against faer's 2.7–3.0,
/// 3.5–3.9 ms for 8 against 3.3.
pub const SYMMETRIC_MAX_RUNS: usize = 6;
/// Steps of noise images drawn at once per run (one matrix product).
pub(crate) const NOISE_CHUNK: usize = 32;
/// Multiply–adds one `step()` may spend (about 0.1–0.3 s natively).
pub const KERNEL_WORK_PER_UNIT: usize = 400_000_000;

/// One run of the batch: its parameters and its two noise streams.
#[derive(Clone, Debug)]
pub struct KernelRunSpec {
    pub params: DpGdParams,
    /// The z_t of the noise images Φξ_t = U Λ^{1/2} z_t, n per step.
    pub noise: NoiseRng,
    /// The fresh ζ ~ N(0, T·I_p) of the final draw, p values (replayed).
    pub fresh: NoiseRng,
}

/// What a finished run reports (as `DpGd` would after T steps).
#[derive(Clone, Debug, PartialEq)]
pub struct KernelRunResult {
    pub train_loss: f64,
    pub test_loss: f64,
    /// Fraction of (sample, step) pairs whose gradient was clipped.
    pub mean_clipped_fraction: f64,
    /// Per-coordinate std of the noise per step, √η·(2C/n)·σ.
    pub noise_std: f64,
}

/// The min-norm baseline θ* = Φ⁺Y of this width.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelMinNorm {
    pub train_loss: f64,
    pub test_loss: f64,
    /// Eigenvalues of K kept by the pseudo-inverse (the numerical rank of Φ).
    pub rank: usize,
}

#[derive(Clone, Debug)]
struct Column {
    params: DpGdParams,
    noise_std: f64,
    noise: NoiseRng,
    fresh_start: NoiseRng,
    fresh: NoiseRng,
    /// Φθ_t.
    u: Vec<f64>,
    /// Σ_t r_t ⊙ s_t.
    grad_sum: Vec<f64>,
    /// Σ_t z_t (so S = U Λ^{1/2}·z_sum).
    z_sum: Vec<f64>,
    /// Φζ.
    phi_fresh: Vec<f64>,
    /// Noise images c·U Λ^{1/2} z_t of the next steps (n each), and how many are left.
    images: Vec<f64>,
    images_left: usize,
    t: usize,
    clipped_total: usize,
    /// The vector v with θ̃ = Φᵀv + c·ζ, and Φ_test θ̃.
    v: Vec<f64>,
    test_pred: Vec<f64>,
}

impl Column {
    fn is_done(&self) -> bool {
        self.t >= self.params.steps
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Gram { next: usize },
    Eigen,
    Steps,
    Final { next: usize },
    Done,
}

/// All runs of one width p, from the Gram pass to the test losses, in bounded
/// `step()`s.
pub struct KernelWidth {
    inputs: Arc<RfInputs>,
    seed: u64,
    p: usize,
    activation: Activation,
    n: usize,
    n_test: usize,
    phase: Phase,
    /// K = ΦΦᵀ, n×n column-major (lower triangle while it is accumulated).
    k: Vec<f64>,
    /// ‖φ_i‖ = √K_ii.
    row_norms: Vec<f64>,
    factor: Option<Arc<Factor>>,
    /// The steps' noise images being drawn ahead on a lent thread, if one was
    /// lent at the factorization (`noise_images`).
    noise_ahead: Option<NoiseAhead>,
    /// Whether a thread was lent for them (the tests ask, so that a test of the
    /// lent path knows it ran).
    noise_was_ahead: bool,
    columns: Vec<Column>,
    /// θ* = Φᵀα: α = K⁺Y and Φ_test θ*.
    alpha: Vec<f64>,
    star_test_pred: Vec<f64>,
    star_train_loss: f64,
    rank: usize,
    failed: Option<String>,
    /// The first pass's feature blocks (Φ_blk, Φ_test,blk) kept for the
    /// second when (n + n_test)·p ≤ [`KEEP_FEATURES_MAX`]; each is taken
    /// (freed) as the second pass reads it.
    kept: Option<Vec<(Vec<f64>, Vec<f64>)>>,
    /// A pass's next feature block, being computed on another thread
    /// (natively): its first neuron, whether it has the test features, the thread.
    ahead: Option<(usize, bool, FeatureThread)>,
    /// Whether blocks may be computed ahead, on a thread borrowed from
    /// `cores` (none lent: each block in its turn).
    ahead_allowed: bool,
    /// Whether a step's lower-triangle product may give one of its two bands
    /// of rows to a thread borrowed from `cores`
    /// (`dense::symmetric_lower_product_on`).
    steps_second_core: bool,
}

#[cfg(not(target_arch = "wasm32"))]
type FeatureThread = std::thread::JoinHandle<(Vec<f64>, Vec<f64>)>;
/// No threads in wasm: nothing is ever computed ahead.
#[cfg(target_arch = "wasm32")]
type FeatureThread = NoThread;
#[cfg(target_arch = "wasm32")]
struct NoThread;
#[cfg(target_arch = "wasm32")]
impl NoThread {
    fn join(self) -> Result<(Vec<f64>, Vec<f64>), ()> {
        Err(())
    }
}

/// Whether the first pass keeps its feature blocks for the second:
/// (n + n_test)·p ≤ [`KEEP_FEATURES_MAX`].
pub fn keeps_features(n: usize, n_test: usize, p: usize) -> bool {
    (n + n_test).saturating_mul(p) <= KEEP_FEATURES_MAX
}

/// Features of neurons `start .. start + count` for the training inputs and,
/// with `test`, the test inputs: (Φ_blk n×count, Φ_test,blk n_test×count or
/// empty), column-major.
fn feature_block(
    inputs: &RfInputs,
    seed: u64,
    act: Activation,
    start: usize,
    count: usize,
    test: bool,
) -> (Vec<f64>, Vec<f64>) {
    let d = inputs.d();
    let w = frozen_weights_block(seed, start, count, d);
    let features = |x: &[f64], rows: usize| {
        let mut out = vec![0.0; rows * count];
        dense::gemm(&mut out, rows, count, x, d, w.as_slice(), 1.0, false);
        act.apply_in_place(&mut out);
        out
    };
    let train = features(inputs.train.x.as_slice(), inputs.n());
    let test = if test {
        features(inputs.test.x.as_slice(), inputs.n_test())
    } else {
        Vec::new()
    };
    (train, test)
}

impl KernelWidth {
    /// Plans every run of width p on these inputs (θ₀ = 0 for each).
    /// Parameters are checked by the caller (as for `DpGd::new`).
    pub fn new(
        inputs: Arc<RfInputs>,
        seed: u64,
        p: usize,
        activation: Activation,
        runs: Vec<KernelRunSpec>,
    ) -> Self {
        let n = inputs.n();
        let n_test = inputs.n_test();
        let columns = runs
            .into_iter()
            .map(|r| Column {
                noise_std: r.params.noise_std(n),
                params: r.params,
                noise: r.noise,
                fresh_start: r.fresh.clone(),
                fresh: r.fresh,
                u: vec![0.0; n],
                grad_sum: vec![0.0; n],
                z_sum: vec![0.0; n],
                phi_fresh: vec![0.0; n],
                images: Vec::new(),
                images_left: 0,
                t: 0,
                clipped_total: 0,
                v: vec![0.0; n],
                test_pred: vec![0.0; n_test],
            })
            .collect();
        KernelWidth {
            inputs,
            seed,
            p,
            activation,
            n,
            n_test,
            phase: Phase::Gram { next: 0 },
            k: vec![0.0; n * n],
            row_norms: Vec::new(),
            factor: None,
            noise_ahead: None,
            noise_was_ahead: false,
            columns,
            alpha: vec![0.0; n],
            star_test_pred: vec![0.0; n_test],
            star_train_loss: f64::NAN,
            rank: 0,
            failed: None,
            kept: keeps_features(n, n_test, p).then(Vec::new),
            ahead: None,
            ahead_allowed: true,
            steps_second_core: true,
        }
    }

    /// Whether the first pass keeps its feature blocks for the second (by
    /// default when (n + n_test)·p ≤ [`KEEP_FEATURES_MAX`]); either way the
    /// results are the same numbers. Before the first `step()`.
    pub fn keep_features(mut self, keep: bool) -> Self {
        self.kept = keep.then(Vec::new);
        self
    }

    /// Whether feature blocks may be computed ahead on another thread (by
    /// default yes, when `cores` lends one: `sweep --threads N` with fewer
    /// jobs left than threads, `bench`); either way the results are the same
    /// numbers. Before the first `step()`.
    pub fn features_ahead(mut self, allowed: bool) -> Self {
        self.ahead_allowed = allowed;
        self
    }

    /// Whether the steps may use another thread (by default yes, when `cores`
    /// lends one: a sweep's threads whose shares are done, so busy shares
    /// never compete for a core): their noise images drawn ahead on it from
    /// the factorization on (`noise_images`), the lower-triangle products' first
    /// band of rows on it once those are drawn. Either way the results are the
    /// same numbers: the images and the bands are the same whichever thread
    /// computes them. Before the first `step()`.
    pub fn steps_on_second_core(mut self, allowed: bool) -> Self {
        self.steps_second_core = allowed;
        self
    }

    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// Whether the steps' noise images were drawn ahead on a lent thread
    /// (`noise_images`): only when `cores` had one to lend at the factorization.
    pub fn noise_drawn_ahead(&self) -> bool {
        self.noise_was_ahead
    }

    /// Why the run could not finish (the eigendecomposition did not converge).
    pub fn failure(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// What it is doing, in words.
    pub fn phase_label(&self) -> String {
        match self.phase {
            Phase::Gram { next } => format!("K = ΦΦᵀ, neuron {next} of {}", self.p),
            Phase::Eigen => "eigendecomposition of K".into(),
            Phase::Steps => {
                let (done, total) = self
                    .columns
                    .iter()
                    .fold((0, 0), |(d, t), c| (d.max(c.t), t.max(c.params.steps)));
                format!(
                    "{} runs in n dimensions: step {done} of {total}",
                    self.columns.len()
                )
            }
            Phase::Final { next } => format!("test predictions, neuron {next} of {}", self.p),
            Phase::Done => "done".into(),
        }
    }

    fn steps_per_unit(&self) -> usize {
        steps_per_unit(self.n, self.columns.len())
    }

    /// Features of neurons `start .. start + count` (see [`feature_block`]).
    fn feature_block(&self, start: usize, count: usize, test: bool) -> (Vec<f64>, Vec<f64>) {
        feature_block(&self.inputs, self.seed, self.activation, start, count, test)
    }

    /// The features of a pass's block at `start` (the Gram pass, or the final
    /// pass when the first did not keep its blocks): the one computed ahead on
    /// another thread if there is one, else computed now; then, natively when
    /// `cores` lends a thread, the pass's next block is started ahead on it, so
    /// the activation (about a fifth of the paper-size cell) runs beside the
    /// products. The same function on the same inputs: the numbers do not
    /// depend on which thread computed them.
    fn pass_features(&mut self, start: usize, count: usize, test: bool) -> (Vec<f64>, Vec<f64>) {
        let block = match self.ahead.take() {
            Some((at, with_test, handle)) if at == start && with_test == test => {
                handle.join().expect("a feature block thread")
            }
            _ => self.feature_block(start, count, test),
        };
        #[cfg(not(target_arch = "wasm32"))]
        {
            let next = start + count;
            let lease = (next < self.p && self.ahead_allowed)
                .then(crate::cores::borrow)
                .flatten();
            if let Some(lease) = lease {
                let count = FEATURE_BLOCK.min(self.p - next);
                let (inputs, seed, act) = (Arc::clone(&self.inputs), self.seed, self.activation);
                let handle = std::thread::spawn(move || {
                    let block = feature_block(&inputs, seed, act, next, count, test);
                    drop(lease);
                    block
                });
                self.ahead = Some((next, test, handle));
            }
        }
        block
    }

    /// One bounded unit of work; returns true once everything is done.
    pub fn step(&mut self) -> bool {
        match self.phase {
            Phase::Gram { next } => self.gram_block(next),
            Phase::Eigen => self.eigen(),
            Phase::Steps => {
                for _ in 0..self.steps_per_unit() {
                    if !self.batch_step() {
                        self.finish_dynamics();
                        self.phase = Phase::Final { next: 0 };
                        break;
                    }
                }
            }
            Phase::Final { next } => self.final_block(next),
            Phase::Done => {}
        }
        self.is_done()
    }

    /// Pass 1: K += Φ_blk Φ_blkᵀ and Φζ += Φ_blk ζ_blk for every noisy run.
    fn gram_block(&mut self, start: usize) {
        let count = FEATURE_BLOCK.min(self.p - start);
        // The test features are only needed here to keep them for pass 2.
        let (phi, phi_test) = self.pass_features(start, count, self.kept.is_some());
        dense::gram_lower_add(&mut self.k, self.n, &phi, count, 1.0);
        let noisy: Vec<usize> = (0..self.columns.len())
            .filter(|&j| self.columns[j].noise_std > 0.0)
            .collect();
        if !noisy.is_empty() {
            let zeta = self.draw_fresh(&noisy, count);
            let mut out = vec![0.0; self.n * noisy.len()];
            dense::gemm(
                &mut out,
                self.n,
                noisy.len(),
                &phi,
                count,
                &zeta,
                1.0,
                false,
            );
            for (slot, &j) in noisy.iter().enumerate() {
                let col = &mut self.columns[j].phi_fresh;
                for (a, b) in col.iter_mut().zip(&out[slot * self.n..(slot + 1) * self.n]) {
                    *a += b;
                }
            }
        }
        if let Some(kept) = &mut self.kept {
            kept.push((phi, phi_test));
        }
        let next = start + count;
        self.phase = if next >= self.p {
            Phase::Eigen
        } else {
            Phase::Gram { next }
        };
    }

    /// The next `count` entries of ζ ~ N(0, T·I_p) of each listed run, as a
    /// count × runs column-major matrix.
    fn draw_fresh(&mut self, runs: &[usize], count: usize) -> Vec<f64> {
        let mut zeta = vec![0.0; count * runs.len()];
        for (slot, &j) in runs.iter().enumerate() {
            let c = &mut self.columns[j];
            let scale = (c.params.steps as f64).sqrt();
            for z in &mut zeta[slot * count..(slot + 1) * count] {
                let g: f64 = c.fresh.sample(StandardNormal);
                *z = scale * g;
            }
        }
        zeta
    }

    /// Factors K (one unit) and solves θ*'s α = K⁺Y.
    fn eigen(&mut self) {
        let n = self.n;
        dense::mirror_lower(&mut self.k, n);
        self.row_norms = (0..n).map(|i| self.k[i * n + i].max(0.0).sqrt()).collect();
        // The noise images' normals are drawn on a lent thread while K is
        // factored, and their images computed there once it is.
        if self.steps_second_core {
            let noisy = self.columns.iter().filter(|c| c.noise_std > 0.0);
            let runs = noisy.map(|c| (c.noise.clone(), c.params.steps)).collect();
            self.noise_ahead = NoiseAhead::start(n, runs);
            self.noise_was_ahead = self.noise_ahead.is_some();
        }
        let factor = match Factor::of(&self.k, n, self.p) {
            Ok((factor, rank)) => {
                self.rank = rank;
                factor
            }
            Err(e) => {
                self.noise_ahead = None;
                self.failed = Some(e);
                self.phase = Phase::Done;
                return;
            }
        };
        let factor = Arc::new(factor);
        if let Some(ahead) = &mut self.noise_ahead {
            ahead.factored(&factor);
        }
        self.factor = Some(factor);
        // θ* = Φᵀα with α = K⁺Y; its training predictions are Kα.
        self.alpha = self.pinv_apply(self.inputs.train.y.as_slice());
        let mut fit = vec![0.0; n];
        dense::gemm(&mut fit, n, 1, &self.k, n, &self.alpha, 1.0, false);
        self.star_train_loss = mean_sq_diff(&fit, self.inputs.train.y.as_slice());
        self.phase = Phase::Steps;
    }

    /// K⁺x (K⁻¹x when K was factored by Cholesky); 0 before K is factored.
    fn pinv_apply(&self, x: &[f64]) -> Vec<f64> {
        match &self.factor {
            Some(f) => f.pinv_apply(x, self.n),
            None => vec![0.0; self.n],
        }
    }

    /// out (n×b) = R z (b columns): the noise images Φξ of standard normals z.
    fn root_mul(&self, z: &[f64], b: usize, out: &mut [f64]) {
        match &self.factor {
            Some(f) => f.root_mul(z, self.n, b, out),
            None => out.iter_mut().for_each(|x| *x = 0.0),
        }
    }

    /// One step of every unfinished run; false when none is left.
    fn batch_step(&mut self) -> bool {
        let n = self.n;
        let active: Vec<usize> = (0..self.columns.len())
            .filter(|&j| !self.columns[j].is_done())
            .collect();
        if active.is_empty() {
            return false;
        }
        self.refill_noise();
        let y = self.inputs.train.y.as_slice();
        // W = [r ⊙ s] of each active run (Algorithm 1's clipped residuals).
        let mut w = vec![0.0; n * active.len()];
        for (slot, &j) in active.iter().enumerate() {
            let c = &mut self.columns[j];
            let ws = &mut w[slot * n..(slot + 1) * n];
            let mut clipped = 0;
            for i in 0..n {
                let mut r = c.u[i] - y[i];
                if let Some(clip) = c.params.clip {
                    let s = clip_factor(2.0 * r.abs() * self.row_norms[i], clip);
                    if s < 1.0 {
                        clipped += 1;
                        // A non-finite gradient gets factor 0 and is dropped whole.
                        r = if s == 0.0 { 0.0 } else { r * s };
                    }
                }
                ws[i] = r;
                c.grad_sum[i] += r;
            }
            c.clipped_total += clipped;
        }
        let mut kw = vec![0.0; n * active.len()];
        if active.len() <= SYMMETRIC_MAX_RUNS {
            let lease = self.steps_second_core.then(crate::cores::borrow).flatten();
            dense::symmetric_lower_product_on(
                &mut kw,
                &self.k,
                n,
                &w,
                active.len(),
                lease.is_some(),
            );
            drop(lease);
        } else {
            dense::gemm(&mut kw, n, active.len(), &self.k, n, &w, 1.0, false);
        }
        for (slot, &j) in active.iter().enumerate() {
            let c = &mut self.columns[j];
            let scale = -c.params.eta * 2.0 / n as f64;
            let kws = &kw[slot * n..(slot + 1) * n];
            if c.noise_std > 0.0 {
                let used = c.images.len() / n - c.images_left;
                let img = &c.images[used * n..(used + 1) * n];
                for ((ui, k), e) in c.u.iter_mut().zip(kws).zip(img) {
                    *ui += scale * k + e;
                }
                c.images_left -= 1;
            } else {
                for (ui, k) in c.u.iter_mut().zip(kws) {
                    *ui += scale * k;
                }
            }
            c.t += 1;
        }
        true
    }

    /// v = −η(2/n)a + c·K⁺(S − Φζ) for every run, with S = R Σ_t z_t.
    fn finish_dynamics(&mut self) {
        let n = self.n;
        if let Some(ahead) = self.noise_ahead.take() {
            let noisy = self.columns.iter_mut().filter(|c| c.noise_std > 0.0);
            for (c, z_sum) in noisy.zip(ahead.z_sums()) {
                c.z_sum = z_sum;
            }
        }
        for j in 0..self.columns.len() {
            let c = &self.columns[j];
            let drift = -c.params.eta * 2.0 / n as f64;
            let mut v: Vec<f64> = c.grad_sum.iter().map(|a| drift * a).collect();
            if c.noise_std > 0.0 {
                let mut s = vec![0.0; n];
                self.root_mul(&c.z_sum, 1, &mut s);
                s.iter_mut().zip(&c.phi_fresh).for_each(|(a, b)| *a -= b);
                let h = self.pinv_apply(&s);
                v.iter_mut()
                    .zip(&h)
                    .for_each(|(a, b)| *a += c.noise_std * b);
            }
            self.columns[j].v = v;
            self.columns[j].images = Vec::new();
        }
        for c in &mut self.columns {
            c.fresh = c.fresh_start.clone();
        }
    }

    /// Pass 2: θ̃_blk = Φ_blkᵀ v + c·ζ_blk and Φ_test,blk θ̃_blk for every run
    /// (and θ*_blk = Φ_blkᵀ α).
    fn final_block(&mut self, start: usize) {
        let (n, n_test) = (self.n, self.n_test);
        let count = FEATURE_BLOCK.min(self.p - start);
        let (phi, phi_test) = match &mut self.kept {
            Some(kept) => std::mem::take(&mut kept[start / FEATURE_BLOCK]),
            None => self.pass_features(start, count, true),
        };
        let runs = self.columns.len();
        // Columns of V: each run's v, then α.
        let mut vs = Vec::with_capacity(n * (runs + 1));
        for c in &self.columns {
            vs.extend_from_slice(&c.v);
        }
        vs.extend_from_slice(&self.alpha);
        let mut theta = vec![0.0; count * (runs + 1)];
        dense::gemm(
            &mut theta,
            count,
            runs + 1,
            dense::Left::Transposed(&phi),
            n,
            &vs,
            1.0,
            false,
        );
        let noisy: Vec<usize> = (0..runs)
            .filter(|&j| self.columns[j].noise_std > 0.0)
            .collect();
        if !noisy.is_empty() {
            let zeta = self.draw_fresh(&noisy, count);
            for (slot, &j) in noisy.iter().enumerate() {
                let c = self.columns[j].noise_std;
                let th = &mut theta[j * count..(j + 1) * count];
                for (t, z) in th.iter_mut().zip(&zeta[slot * count..(slot + 1) * count]) {
                    *t += c * z;
                }
            }
        }
        let mut pred = vec![0.0; n_test * (runs + 1)];
        dense::gemm(
            &mut pred,
            n_test,
            runs + 1,
            &phi_test,
            count,
            &theta,
            1.0,
            false,
        );
        for (j, c) in self.columns.iter_mut().enumerate() {
            for (a, b) in c
                .test_pred
                .iter_mut()
                .zip(&pred[j * n_test..(j + 1) * n_test])
            {
                *a += b;
            }
        }
        for (a, b) in self
            .star_test_pred
            .iter_mut()
            .zip(&pred[runs * n_test..(runs + 1) * n_test])
        {
            *a += b;
        }
        let next = start + count;
        self.phase = if next >= self.p {
            Phase::Done
        } else {
            Phase::Final { next }
        };
    }

    /// The results, in the order the runs were given (once done).
    pub fn results(&self) -> Vec<KernelRunResult> {
        let y = self.inputs.train.y.as_slice();
        let y_test = self.inputs.test.y.as_slice();
        self.columns
            .iter()
            .map(|c| KernelRunResult {
                train_loss: mean_sq_diff(&c.u, y),
                test_loss: mean_sq_diff(&c.test_pred, y_test),
                mean_clipped_fraction: if c.t == 0 {
                    0.0
                } else {
                    c.clipped_total as f64 / (c.t * self.n) as f64
                },
                noise_std: c.noise_std,
            })
            .collect()
    }

    /// θ* = Φ⁺Y of this width (once done).
    pub fn min_norm(&self) -> KernelMinNorm {
        KernelMinNorm {
            train_loss: self.star_train_loss,
            test_loss: mean_sq_diff(&self.star_test_pred, self.inputs.test.y.as_slice()),
            rank: self.rank,
        }
    }

    pub fn p(&self) -> usize {
        self.p
    }
}

/// Batch steps per `step()` for `runs` runs at n samples (a step costs about
/// 2n² multiply–adds per run: K times the clipped residuals, the noise image).
fn steps_per_unit(n: usize, runs: usize) -> usize {
    (KERNEL_WORK_PER_UNIT / (2 * n * n * runs.max(1)).max(1)).max(1)
}

/// The number of `step()` calls of a [`KernelWidth`] with these runs' step
/// counts at (n, p): the Gram pass, the eigendecomposition, the steps (and the
/// call that finds them done), the final pass.
pub fn units_for(n: usize, p: usize, steps: &[usize]) -> usize {
    let blocks = p.div_ceil(FEATURE_BLOCK);
    let max_t = steps.iter().copied().max().unwrap_or(0);
    2 * blocks + 1 + max_t / steps_per_unit(n, steps.len()) + 1
}

/// (1/m)‖a − b‖².
fn mean_sq_diff(a: &[f64], b: &[f64]) -> f64 {
    if b.is_empty() {
        return f64::NAN;
    }
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>() / b.len() as f64
}
