#!/usr/bin/env python3
"""One cell of the public numpy code behind Bombari & Mondelli, "Privacy for Free
in the Overparameterized Regime" (repository privacy-for-free, main_RF.py),
ported to run one configuration from the command line and print its time.

The same operations, in the same order, as main_RF.py's loop body for one p:
  - data: x ~ N(0, I_d), y = sign(u.x), u ~ N(0, I_d/d); n train, n_test test;
  - features: V ~ N(0, 1/d) (p x d), Phi = tanh(X V^T), Phi_t = tanh(X_t V^T);
  - theta* = pinv(Phi) Y (numpy's SVD pseudo-inverse);
  - DP-GD (Algorithm 1): theta_0 = 0, T = int(tau / eta) steps of per-sample
    gradients 2 phi_i (phi_i.theta - y_i), each clipped to norm C, averaged,
    theta <- theta - eta g + sqrt(eta) (2C/n) sigma N(0, I_p), with
    sigma = sqrt(eta T) sqrt(8 ln(1/delta)) / eps (Prop. 3.2), C = c sqrt(p),
    tau = C_time d / p, eta = 1/p, delta = 1/n.
Two changes make it a fair speed reference, neither changes a number: tanh is
numpy's (the original wraps a Python lambda in np.vectorize), and the per-sample
loop is vectorized (the norm of 2 phi_i r_i is 2 |r_i| ||phi_i||, the clipped mean
is (2/n) Phi^T (r * s)). The per-step train and test losses that main_RF.py
records are computed only with --curves (DP Explorer computes final losses).

Prints one JSON line: {"bench": ..., "numpy_s": total seconds, phases, losses}.
"""
import argparse
import json
import os
import time

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--d", type=int, default=100)
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--n-test", type=int, default=1000)
    ap.add_argument("--p", type=int, default=4000)
    ap.add_argument("--eps", type=float, default=4.0)
    ap.add_argument("--clip-scale", type=float, default=0.5, help="C = clip_scale * sqrt(p)")
    ap.add_argument("--time-scale", type=float, default=5.0, help="tau = time_scale * d / p")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--curves", action="store_true", help="also record the per-step losses, as main_RF.py does")
    ap.add_argument("--bench", default="dpgd-paper-cell", help="name printed in the JSON line")
    a = ap.parse_args()

    rng = np.random.default_rng(a.seed)
    d, n, nt, p = a.d, a.n, a.n_test, a.p
    t0 = time.perf_counter()

    u = rng.standard_normal(d) / np.sqrt(d)
    delta = 1 / n
    eta = 1 / p
    clip = a.clip_scale * np.sqrt(p)
    tau = a.time_scale * d / p
    T = int(round(tau / eta))
    sigma = np.sqrt(eta * T) * np.sqrt(8 * np.log(1 / delta)) / a.eps

    X = rng.standard_normal((n, d))
    Xt = rng.standard_normal((nt, d))
    Y = np.sign(X @ u)
    Yt = np.sign(Xt @ u)
    V = rng.standard_normal((p, d)) / np.sqrt(d)
    Phi = np.tanh(X @ V.T)
    Phit = np.tanh(Xt @ V.T)
    t_features = time.perf_counter()

    theta_star = np.linalg.pinv(Phi) @ Y
    t_pinv = time.perf_counter()

    row_norms = np.linalg.norm(Phi, axis=1)
    theta = np.zeros(p)
    train_losses, test_losses = [], []
    clipped = 0
    noise_std = np.sqrt(eta) * (2 * clip / n) * sigma
    for _ in range(T):
        r = Phi @ theta - Y
        if a.curves:
            train_losses.append(float(r @ r / n))
            rt = Phit @ theta - Yt
            test_losses.append(float(rt @ rt / nt))
        norms = 2 * np.abs(r) * row_norms
        s = np.minimum(1.0, clip / np.maximum(norms, 1e-300))
        clipped += int(np.count_nonzero(norms > clip))
        g = (2 / n) * (Phi.T @ (r * s))
        theta = theta - eta * g + noise_std * rng.standard_normal(p)
    t_steps = time.perf_counter()

    def mse(A, y, th):
        r = A @ th - y
        return float(r @ r / len(y))

    out = {
        "bench": a.bench,
        "numpy_s": t_steps - t0,
        "features_s": t_features - t0,
        "pinv_s": t_pinv - t_features,
        "steps_s": t_steps - t_pinv,
        "T": T,
        "test_loss": mse(Phit, Yt, theta),
        "train_loss": mse(Phi, Y, theta),
        "test_loss_star": mse(Phit, Yt, theta_star),
        "clipped_fraction": clipped / (T * n),
        "threads": os.environ.get("OPENBLAS_NUM_THREADS", "default"),
        "numpy": np.__version__,
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
