//! The steps' noise images c·R z_t: drawn in turn, or ahead on a lent thread
//! (natively, issue 44).
//!
//! Every noisy run refills its images c·R z_t every [`NOISE_CHUNK`] steps: the
//! normals z_t and one product R·Z (about a sixth of the paper-size cell's
//! steps). Which steps refill is known before the first one (every unfinished
//! run steps together), so when `cores` lends a thread at the factorization,
//! that thread draws every refill's normals while this one factors K, then
//! computes their images, one refill after the other, while this one steps.
//! The same draws, in the same order, through the same product of the same
//! batch ([`Factor::root_mul`]): the images are the same bits as those drawn
//! in turn, whichever thread computes them.

use std::collections::VecDeque;
use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::sync::Arc;

use rand::RngExt;
use rand_distr::StandardNormal;

use super::factor::Factor;
use super::{KernelWidth, NOISE_CHUNK};
use crate::rng::NoiseRng;

/// Noise values (n for each step of each noisy run) up to which the images are
/// drawn ahead: they are all held until used (64 MB; the paper-size cell needs
/// 8). Above it each refill is drawn in its turn.
pub(super) const NOISE_AHEAD_MAX: usize = 1 << 23;

impl KernelWidth {
    /// Draws the next noise images (up to [`NOISE_CHUNK`] steps) of every
    /// active noisy run that has used up its previous ones.
    pub(super) fn refill_noise(&mut self) {
        let n = self.n;
        let need: Vec<(usize, usize)> = self
            .columns
            .iter()
            .enumerate()
            .filter(|(_, c)| c.noise_std > 0.0 && !c.is_done() && c.images_left == 0)
            .map(|(j, c)| (j, NOISE_CHUNK.min(c.params.steps - c.t)))
            .collect();
        if need.is_empty() {
            return;
        }
        let images = match &self.noise_ahead {
            Some(ahead) => {
                let (counts, images) = ahead.next();
                let asked: Vec<usize> = need.iter().map(|x| x.1).collect();
                assert_eq!(
                    counts, asked,
                    "the refills drawn ahead are the ones asked for"
                );
                images
            }
            None => {
                let total: usize = need.iter().map(|x| x.1).sum();
                let mut z = vec![0.0; n * total];
                let mut offset = 0;
                for &(j, steps) in &need {
                    let c = &mut self.columns[j];
                    let out = &mut z[offset * n..(offset + steps) * n];
                    draw_steps(&mut c.noise, &mut c.z_sum, out);
                    offset += steps;
                }
                let mut images = vec![0.0; n * total];
                self.root_mul(&z, total, &mut images);
                images
            }
        };
        let mut offset = 0;
        for &(j, steps) in &need {
            let c = &mut self.columns[j];
            let scale = c.noise_std;
            c.images = images[offset * n..(offset + steps) * n]
                .iter()
                .map(|x| scale * x)
                .collect();
            c.images_left = steps;
            offset += steps;
        }
    }
}

/// The z_t of the steps of one refill of one run into `out` (n each, n =
/// `z_sum.len()`), each added to `z_sum`. Step by step, so z_t is the same
/// whatever the chunking; the one draw of both paths, so they agree.
fn draw_steps(noise: &mut NoiseRng, z_sum: &mut [f64], out: &mut [f64]) {
    for zt in out.chunks_exact_mut(z_sum.len()) {
        for (zi, acc) in zt.iter_mut().zip(z_sum.iter_mut()) {
            *zi = noise.sample(StandardNormal);
            *acc += *zi;
        }
    }
}

/// The refills of runs of these step counts, in order: at t = 0, then every
/// [`NOISE_CHUNK`] steps, each run with T > t (in the runs' order) and its
/// next min(NOISE_CHUNK, T − t) steps, as `refill_noise` asks for them.
fn refills(steps: &[usize]) -> Vec<Vec<(usize, usize)>> {
    let longest = steps.iter().copied().max().unwrap_or(0);
    (0..longest)
        .step_by(NOISE_CHUNK)
        .map(|t| {
            steps
                .iter()
                .enumerate()
                .filter(|&(_, &s)| s > t)
                .map(|(r, &s)| (r, NOISE_CHUNK.min(s - t)))
                .collect()
        })
        .collect()
}

/// One refill's images: each run's step count (in the runs' order) and R·Z
/// (n × their sum, column-major, unscaled).
pub(super) type Refill = (Vec<usize>, Vec<f64>);

/// The thread drawing ahead: the factor goes to it, the refills come back.
pub(super) struct NoiseAhead {
    factor: Option<Sender<Arc<Factor>>>,
    images: Receiver<Refill>,
    thread: std::thread::JoinHandle<Vec<Vec<f64>>>,
}

impl NoiseAhead {
    /// Starts drawing the refills of the noisy runs (their noise streams and
    /// step counts, in column order) at n on a thread borrowed from `cores`;
    /// `None` when none is lent or the images would not fit in
    /// [`NOISE_AHEAD_MAX`].
    pub(super) fn start(n: usize, runs: Vec<(NoiseRng, usize)>) -> Option<NoiseAhead> {
        let values = runs.iter().map(|r| r.1).sum::<usize>().saturating_mul(n);
        if runs.is_empty() || values > NOISE_AHEAD_MAX {
            return None;
        }
        let lease = crate::cores::borrow()?;
        let (factor, factor_rx) = channel();
        let (images_tx, images) = channel();
        let thread = std::thread::spawn(move || {
            let z_sums = produce(n, runs, &factor_rx, &images_tx);
            drop(lease);
            z_sums
        });
        Some(NoiseAhead {
            factor: Some(factor),
            images,
            thread,
        })
    }

    /// Hands over the noise root once K is factored.
    pub(super) fn factored(&mut self, factor: &Arc<Factor>) {
        if let Some(tx) = self.factor.take() {
            // A thread that has stopped needs nothing more.
            let _ = tx.send(Arc::clone(factor));
        }
    }

    /// The next refill's images (waiting for them if need be).
    pub(super) fn next(&self) -> Refill {
        self.images
            .recv()
            .expect("the noise thread computes every refill")
    }

    /// Σ_t z_t of each run, once every refill has been taken.
    pub(super) fn z_sums(self) -> Vec<Vec<f64>> {
        drop(self.factor);
        self.thread.join().expect("the noise thread")
    }
}

/// The noise thread: every refill's normals drawn until the factor comes, then
/// each refill's images sent in order; returns each run's Σ_t z_t.
fn produce(
    n: usize,
    mut runs: Vec<(NoiseRng, usize)>,
    factor: &Receiver<Arc<Factor>>,
    images: &Sender<Refill>,
) -> Vec<Vec<f64>> {
    let steps: Vec<usize> = runs.iter().map(|r| r.1).collect();
    let refills = refills(&steps);
    let mut z_sums = vec![vec![0.0; n]; runs.len()];
    let mut draw = |refill: &[(usize, usize)]| {
        let total: usize = refill.iter().map(|x| x.1).sum();
        let mut z = vec![0.0; n * total];
        let mut offset = 0;
        for &(r, count) in refill {
            let out = &mut z[offset * n..(offset + count) * n];
            draw_steps(&mut runs[r].0, &mut z_sums[r], out);
            offset += count;
        }
        (total, z)
    };
    let mut drawn = VecDeque::new();
    let mut root: Option<Arc<Factor>> = None;
    for refill in &refills {
        while root.is_none() {
            match factor.try_recv() {
                Ok(f) => root = Some(f),
                Err(TryRecvError::Empty) if drawn.len() < refills.len() => {
                    drawn.push_back(draw(&refills[drawn.len()]))
                }
                Err(TryRecvError::Empty) => match factor.recv() {
                    Ok(f) => root = Some(f),
                    Err(_) => return z_sums,
                },
                // No factor (the factorization failed): nothing to compute.
                Err(TryRecvError::Disconnected) => return z_sums,
            }
        }
        let (total, z) = drawn.pop_front().unwrap_or_else(|| draw(refill));
        let mut out = vec![0.0; n * total];
        if let Some(f) = &root {
            f.root_mul(&z, n, total, &mut out);
        }
        let counts = refill.iter().map(|x| x.1).collect();
        if images.send((counts, out)).is_err() {
            break;
        }
    }
    z_sums
}
