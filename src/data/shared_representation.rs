//! The shared-representation linear model of Private FedRep's experiments
//! (Snedeker et al. §3.4 / App. B.4; docs/algorithms.md, Private FedRep):
//! U* = Q of a QR of a Gaussian d×k matrix; per user v_i* ~ N(0, I_k) (or unit
//! norm, as in the authors' code); x ~ N(0, I_d); y = xᵀU*v_i* + N(0, R²).
//!
//! Each user's data is drawn from its own stream (seed, UserData, i), so user i's
//! data is the same whatever n is and however users are split into chunks.

use crate::data::labelled::Labelled;
use crate::data::normal_lanes::{lanes_enabled, NormalLanes, LANES};
use crate::linalg::{axpy, dot, gaussian_matrix, orthonormalize};
use crate::rng::{fast_stream, stream, Purpose};
use nalgebra::DMatrix;
use rand::RngExt;
use rand_distr::StandardNormal;

/// What defines a dataset.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedRepresentationModel {
    pub n: usize,
    pub d: usize,
    pub k: usize,
    /// Points per user, S⁰ and S¹ together.
    pub m: usize,
    /// |S⁰|: the first `m_train` points of each user (the rest are S¹).
    pub m_train: usize,
    /// Label noise standard deviation R.
    pub noise: f64,
    /// v_i* normalized to unit length (the authors' code) instead of N(0, I_k).
    pub unit_heads: bool,
    pub seed: u64,
}

/// Where the users' points live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// In memory: n·m·(d+1) numbers.
    Stored,
    /// Regenerated from (seed, user) on every pass: nothing per user is kept.
    Streamed,
}

/// Which of a user's points a pass needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// S⁰ only (initialization and rounds): S¹ is not even drawn when streamed.
    Train,
    /// S⁰ and S¹.
    All,
}

/// One user, as a pass over the users sees it.
#[derive(Clone, Copy, Debug)]
pub struct UserView<'a> {
    pub index: usize,
    pub train: Points<'a>,
    /// S¹ (empty when the pass asked for `Part::Train`).
    pub holdout: Points<'a>,
    pub v_star: &'a [f64],
    pub w_star: &'a [f64],
}

/// Room for [`LANES`] users' heads and points (slot b's at `v[b·k..]`,
/// `w[b·d..]`, `x[b·m·d..]`, `y[b·m..]`) and their normal draws.
#[derive(Clone, Debug, Default)]
pub struct UserBatch {
    pub v: Vec<f64>,
    pub w: Vec<f64>,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    normals: Vec<f64>,
}

impl UserBatch {
    pub fn new(model: &SharedRepresentationModel) -> Self {
        let (d, k, m) = (model.d, model.k, model.m);
        UserBatch {
            v: vec![0.0; LANES * k],
            w: vec![0.0; LANES * d],
            x: vec![0.0; LANES * m * d],
            y: vec![0.0; LANES * m],
            normals: Vec::new(),
        }
    }
}

/// A generated dataset. When stored, features are row-major per user: user i's
/// point j is `x[(i·m + j)·d ..][..d]`; when streamed, the per-user vectors are
/// empty and [`FederatedDataset::for_each_user`] regenerates each user.
#[derive(Clone, Debug)]
pub struct FederatedDataset {
    pub model: SharedRepresentationModel,
    /// U*, d×k with orthonormal columns.
    pub u_star: DMatrix<f64>,
    pub storage: Storage,
    /// v_i*, row-major n×k.
    pub v_star: Vec<f64>,
    /// w_i* = U* v_i*, row-major n×d (for the closed-form risk).
    pub w_star: Vec<f64>,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
}

/// One user's points as slices: `x` is rows×d row-major.
pub type Points<'a> = Labelled<&'a [f64], &'a [f64]>;

impl<'a> Points<'a> {
    /// Points `range` of this set.
    pub fn slice(&self, range: std::ops::Range<usize>, d: usize) -> Points<'a> {
        Points {
            x: &self.x[range.start * d..range.end * d],
            y: &self.y[range],
        }
    }
}

impl SharedRepresentationModel {
    /// Bytes the dataset occupies in memory (features, labels, heads).
    /// (u64: on wasm32 a usize would overflow for large n and wrap silently.)
    pub fn memory_bytes(&self) -> u64 {
        let (n, m, d, k) = (self.n as u64, self.m as u64, self.d as u64, self.k as u64);
        8 * (n * m * (d + 1) + n * (k + d) + d * k)
    }

    /// U*: Q of the QR of a d×k standard Gaussian matrix.
    pub fn ground_truth(&self) -> DMatrix<f64> {
        let mut rng = stream(self.seed, Purpose::GroundTruth, 0);
        orthonormalize(gaussian_matrix(self.d, self.k, &mut rng))
    }

    /// Writes user i's head v_i*, w_i* = U*v_i*, and its first `points` points
    /// (features row-major into `x`, labels into `y`). The stream draws v_i*
    /// first, then point by point (x_j, ζ_j), so S⁰ (the first points) can be
    /// regenerated without drawing S¹.
    #[allow(clippy::too_many_arguments)]
    pub fn fill_user(
        &self,
        i: usize,
        u_star_cols: &[f64],
        points: usize,
        v: &mut [f64],
        w: &mut [f64],
        x: &mut [f64],
        y: &mut [f64],
    ) {
        let d = self.d;
        let mut rng = fast_stream(self.seed, Purpose::UserData, i as u64);
        for vq in v.iter_mut() {
            *vq = rng.sample(StandardNormal);
        }
        self.finish_head(v, w, u_star_cols);
        for j in 0..points {
            let row = &mut x[j * d..(j + 1) * d];
            for xv in row.iter_mut() {
                *xv = rng.sample(StandardNormal);
            }
            let zeta: f64 = rng.sample(StandardNormal);
            y[j] = dot(row, w) + self.noise * zeta;
        }
    }

    /// [`Self::fill_user`] for up to [`LANES`] users at once, their streams
    /// drawn side by side in vector lanes ([`NormalLanes`]): user `users[b]`
    /// goes to `batch` slot b, with exactly the numbers `fill_user` gives it.
    pub fn fill_users_in_lanes(
        &self,
        users: &[usize],
        u_star_cols: &[f64],
        points: usize,
        batch: &mut UserBatch,
    ) {
        assert!(!users.is_empty() && users.len() <= LANES);
        let (d, k, m) = (self.d, self.k, self.m);
        // A short batch repeats its last user in the spare lanes (their draws
        // go to the batch's unused slots).
        let streams: [_; LANES] = std::array::from_fn(|l| {
            let i = users[l.min(users.len() - 1)];
            fast_stream(self.seed, Purpose::UserData, i as u64)
        });
        let mut lanes = NormalLanes::new(&streams);
        // Each stream in its order, v_i* then point by point (x_j, ζ_j): the
        // draws go straight to the slots' heads and rows, the ζ_j to `normals`.
        batch.normals.resize(LANES * m, 0.0);
        lanes.fill_strided(&mut batch.v, k, k);
        for j in 0..points {
            lanes.fill_strided(&mut batch.x[j * d..], m * d, d);
            lanes.fill_strided(&mut batch.normals[j..], m, 1);
        }
        for b in 0..users.len() {
            let v = &mut batch.v[b * k..(b + 1) * k];
            let w = &mut batch.w[b * d..(b + 1) * d];
            self.finish_head(v, w, u_star_cols);
            let x = &batch.x[b * m * d..];
            let y = &mut batch.y[b * m..];
            let zeta = &batch.normals[b * m..];
            for j in 0..points {
                y[j] = dot(&x[j * d..(j + 1) * d], w) + self.noise * zeta[j];
            }
        }
    }

    /// v_i* (drawn) made unit if asked, and w_i* = U* v_i*.
    fn finish_head(&self, v: &mut [f64], w: &mut [f64], u_star_cols: &[f64]) {
        let d = self.d;
        if self.unit_heads {
            let norm = v.iter().map(|a| a * a).sum::<f64>().sqrt();
            if norm > 0.0 {
                v.iter_mut().for_each(|a| *a /= norm);
            }
        }
        w.iter_mut().for_each(|a| *a = 0.0);
        for (q, &vq) in v.iter().enumerate() {
            axpy(vq, &u_star_cols[q * d..(q + 1) * d], w);
        }
    }

    /// Whether the dataset is kept in memory or regenerated user by user,
    /// under the given memory budget (bytes).
    pub fn storage_for_budget(&self, budget: u64) -> Storage {
        if self.memory_bytes() <= budget {
            Storage::Stored
        } else {
            Storage::Streamed
        }
    }

    /// A dataset with U* drawn and room for every user; users are filled by
    /// [`FederatedDataset::fill_users`], in any order or in chunks.
    pub fn allocate(&self) -> FederatedDataset {
        let (n, d, k, m) = (self.n, self.d, self.k, self.m);
        let u_star = self.ground_truth();
        FederatedDataset {
            model: self.clone(),
            u_star,
            storage: Storage::Stored,
            v_star: vec![0.0; n * k],
            w_star: vec![0.0; n * d],
            x: vec![0.0; n * m * d],
            y: vec![0.0; n * m],
        }
    }

    /// A dataset that stores nothing per user: every pass over the users
    /// regenerates their points from (seed, user) — O(d·k) memory whatever n is,
    /// and the same numbers as the stored dataset.
    pub fn streamed(&self) -> FederatedDataset {
        let u_star = self.ground_truth();
        FederatedDataset {
            model: self.clone(),
            u_star,
            storage: Storage::Streamed,
            v_star: Vec::new(),
            w_star: Vec::new(),
            x: Vec::new(),
            y: Vec::new(),
        }
    }

    /// Draws the whole dataset.
    pub fn generate(&self) -> FederatedDataset {
        let mut data = self.allocate();
        data.fill_users(0..self.n);
        data
    }
}

impl FederatedDataset {
    /// Draws users `range` (each from its own stream) into memory; nothing to
    /// do for a streamed dataset.
    pub fn fill_users(&mut self, range: std::ops::Range<usize>) {
        if self.storage == Storage::Streamed {
            return;
        }
        let model = self.model.clone();
        let (d, k, m) = (model.d, model.k, model.m);
        for i in range {
            model.fill_user(
                i,
                self.u_star.as_slice(),
                m,
                &mut self.v_star[i * k..(i + 1) * k],
                &mut self.w_star[i * d..(i + 1) * d],
                &mut self.x[i * m * d..(i + 1) * m * d],
                &mut self.y[i * m..(i + 1) * m],
            );
        }
    }

    /// Calls `f` for every user in `users` (a range, every T-th user, …), in
    /// order, with the points `part` asks for: slices of memory when stored,
    /// freshly regenerated (into buffers allocated once per call) when
    /// streamed. Both give the same numbers.
    pub fn for_each_user(
        &self,
        users: impl Iterator<Item = usize>,
        part: Part,
        mut f: impl FnMut(&UserView<'_>),
    ) {
        let (d, k, m, mt) = (self.model.d, self.model.k, self.model.m, self.model.m_train);
        match self.storage {
            Storage::Stored => {
                for i in users {
                    let holdout = match part {
                        Part::Train => self.holdout(i).slice(0..0, d),
                        Part::All => self.holdout(i),
                    };
                    f(&UserView {
                        index: i,
                        train: self.train(i),
                        holdout,
                        v_star: self.v_star(i),
                        w_star: self.w_star(i),
                    });
                }
            }
            Storage::Streamed => {
                let points = match part {
                    Part::Train => mt,
                    Part::All => m,
                };
                if lanes_enabled() {
                    let mut batch = UserBatch::new(&self.model);
                    let mut users = users.peekable();
                    while users.peek().is_some() {
                        let mut idx = [0usize; LANES];
                        let mut len = 0;
                        for i in users.by_ref().take(LANES) {
                            idx[len] = i;
                            len += 1;
                        }
                        self.model.fill_users_in_lanes(
                            &idx[..len],
                            self.u_star.as_slice(),
                            points,
                            &mut batch,
                        );
                        for (b, &i) in idx[..len].iter().enumerate() {
                            let all = Points {
                                x: &batch.x[b * m * d..(b + 1) * m * d],
                                y: &batch.y[b * m..(b + 1) * m],
                            };
                            f(&UserView {
                                index: i,
                                train: all.slice(0..mt, d),
                                holdout: all.slice(mt..points.max(mt), d),
                                v_star: &batch.v[b * k..(b + 1) * k],
                                w_star: &batch.w[b * d..(b + 1) * d],
                            });
                        }
                    }
                    return;
                }
                let (mut v, mut w) = (vec![0.0; k], vec![0.0; d]);
                let (mut x, mut y) = (vec![0.0; m * d], vec![0.0; m]);
                for i in users {
                    self.model.fill_user(
                        i,
                        self.u_star.as_slice(),
                        points,
                        &mut v,
                        &mut w,
                        &mut x,
                        &mut y,
                    );
                    let all = Points { x: &x, y: &y };
                    f(&UserView {
                        index: i,
                        train: all.slice(0..mt, d),
                        holdout: all.slice(mt..points.max(mt), d),
                        v_star: &v,
                        w_star: &w,
                    });
                }
            }
        }
    }

    pub fn n(&self) -> usize {
        self.model.n
    }
    pub fn d(&self) -> usize {
        self.model.d
    }
    pub fn k(&self) -> usize {
        self.model.k
    }

    /// All m points of user i.
    pub fn user(&self, i: usize) -> Points<'_> {
        let (m, d) = (self.model.m, self.model.d);
        Points {
            x: &self.x[i * m * d..(i + 1) * m * d],
            y: &self.y[i * m..(i + 1) * m],
        }
    }

    /// S_i⁰: the points used for training (initialization and rounds).
    pub fn train(&self, i: usize) -> Points<'_> {
        self.user(i).slice(0..self.model.m_train, self.model.d)
    }

    /// S_i¹: the held-out points for the final head fit.
    pub fn holdout(&self, i: usize) -> Points<'_> {
        self.user(i)
            .slice(self.model.m_train..self.model.m, self.model.d)
    }

    /// w_i* = U* v_i*.
    pub fn w_star(&self, i: usize) -> &[f64] {
        &self.w_star[i * self.model.d..(i + 1) * self.model.d]
    }

    /// v_i*.
    pub fn v_star(&self, i: usize) -> &[f64] {
        &self.v_star[i * self.model.k..(i + 1) * self.model.k]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(n: usize) -> SharedRepresentationModel {
        SharedRepresentationModel {
            n,
            d: 6,
            k: 2,
            m: 4,
            m_train: 2,
            noise: 0.0,
            unit_heads: false,
            seed: 11,
        }
    }

    #[test]
    fn ground_truth_has_orthonormal_columns() {
        let u = model(3).ground_truth();
        let g = u.transpose() * &u;
        assert!((g - DMatrix::<f64>::identity(2, 2)).norm() < 1e-12);
    }

    #[test]
    fn labels_follow_the_shared_representation_without_noise() {
        let data = model(5).generate();
        for i in 0..5 {
            let pts = data.user(i);
            for j in 0..pts.len() {
                let xw: f64 = pts.x[j * 6..(j + 1) * 6]
                    .iter()
                    .zip(data.w_star(i))
                    .map(|(a, b)| a * b)
                    .sum();
                assert!((xw - pts.y[j]).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn a_user_gets_the_same_data_whatever_n_is() {
        let small = model(3).generate();
        let large = model(9).generate();
        assert_eq!(small.user(2).x, large.user(2).x);
        assert_eq!(small.user(2).y, large.user(2).y);
    }

    #[test]
    fn unit_heads_have_unit_norm() {
        let mut m = model(4);
        m.unit_heads = true;
        let data = m.generate();
        for i in 0..4 {
            let norm: f64 = data.v_star(i).iter().map(|a| a * a).sum::<f64>().sqrt();
            assert!((norm - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn a_streamed_dataset_regenerates_exactly_the_stored_numbers() {
        let stored = model(7).generate();
        let streamed = model(7).streamed();
        let mut seen = 0;
        let mut a = Vec::new();
        stored.for_each_user(0..7, Part::All, |u| {
            a.push((
                u.train.x.to_vec(),
                u.train.y.to_vec(),
                u.holdout.y.to_vec(),
                u.w_star.to_vec(),
            ))
        });
        streamed.for_each_user(0..7, Part::All, |u| {
            let (x, y, h, w) = &a[u.index];
            assert_eq!(
                (x.as_slice(), y.as_slice(), h.as_slice(), w.as_slice()),
                (u.train.x, u.train.y, u.holdout.y, u.w_star)
            );
            seen += 1;
        });
        assert_eq!(seen, 7);
        // Asking for S⁰ only gives the same S⁰.
        streamed.for_each_user(3..4, Part::Train, |u| {
            assert_eq!(u.train.y, a[3].1.as_slice());
            assert!(u.holdout.is_empty());
        });
    }

    /// The users' pass fills users in vector lanes; every user must get the
    /// numbers the scalar `fill_user` gives it, bit for bit, including users
    /// whose draws go through the ziggurat's wedges and tail.
    #[test]
    fn users_filled_in_lanes_match_the_scalar_fill_bit_for_bit() {
        use crate::data::normal_lanes::RarePaths;
        let model = SharedRepresentationModel {
            n: 100_003,
            d: 7,
            k: 3,
            m: 5,
            m_train: 3,
            noise: 0.5,
            unit_heads: false,
            seed: 29,
        };
        let data = model.streamed();
        let (d, k, m) = (model.d, model.k, model.m);
        let u = data.u_star.as_slice();
        let (mut v, mut w) = (vec![0.0; k], vec![0.0; d]);
        let (mut x, mut y) = (vec![0.0; m * d], vec![0.0; m]);
        let bits = |a: &[f64]| a.iter().map(|z| z.to_bits()).collect::<Vec<_>>();
        // The same bits, or a message naming the part and the user.
        let same = |got: &[f64], want: &[f64], what: &str, i: usize| {
            assert_eq!(bits(got), bits(want), "{what} of user {i}");
        };
        let mut seen = 0;
        data.for_each_user(0..model.n, Part::All, |user| {
            let i = user.index;
            model.fill_user(i, u, m, &mut v, &mut w, &mut x, &mut y);
            assert_eq!(i, seen, "users out of order");
            same(user.v_star, &v, "v", i);
            same(user.w_star, &w, "w", i);
            same(user.train.x, &x[..3 * d], "S⁰ x", i);
            same(user.train.y, &y[..3], "S⁰ y", i);
            same(user.holdout.x, &x[3 * d..], "S¹ x", i);
            same(user.holdout.y, &y[3..], "S¹ y", i);
            seen += 1;
        });
        assert_eq!(seen, model.n);
        // S⁰ only, over a pass that skips users (a short last batch too).
        let mut seen = 0;
        data.for_each_user((5..model.n).step_by(7), Part::Train, |user| {
            let i = user.index;
            model.fill_user(i, u, 3, &mut v, &mut w, &mut x, &mut y);
            assert_eq!(i, 5 + 7 * seen);
            same(user.train.y, &y[..3], "S⁰ y", i);
            same(user.train.x, &x[..3 * d], "S⁰ x", i);
            assert!(user.holdout.is_empty());
            seen += 1;
        });
        assert_eq!(seen, (model.n - 5).div_ceil(7));
        // Unit heads, through the stored dataset's own scalar fill.
        let unit = SharedRepresentationModel {
            n: 1001,
            unit_heads: true,
            ..model.clone()
        };
        let stored = unit.generate();
        unit.streamed().for_each_user(0..unit.n, Part::All, |user| {
            let i = user.index;
            assert_eq!(bits(user.v_star), bits(stored.v_star(i)));
            assert_eq!(bits(user.train.y), bits(stored.train(i).y));
            assert_eq!(bits(user.holdout.x), bits(stored.holdout(i).x));
        });
        // The users above went through the rare paths: count their draws
        // outside the layers' boxes (the same words the sampler reads).
        let mut rare = RarePaths::default();
        for i in 0..model.n {
            let mut rng = fast_stream(model.seed, Purpose::UserData, i as u64);
            for _ in 0..k + m * (d + 1) {
                rare.peek(&rng);
                let _: f64 = rng.sample(StandardNormal);
            }
        }
        let RarePaths { wedges, tails } = rare;
        assert!(
            wedges > 10_000 && tails > 100,
            "wedges {wedges}, tails {tails}"
        );
    }

    #[test]
    fn train_and_holdout_split_each_user() {
        let data = model(2).generate();
        assert_eq!(data.train(1).len(), 2);
        assert_eq!(data.holdout(1).len(), 2);
        assert_eq!(data.holdout(1).y, &data.user(1).y[2..]);
    }
}
