//! Native timings of the DP-GD random-features pieces:
//! `cargo run --release --example dpgd_timing [PRESET [key=value …]]`.
//!
//! σ comes from a local stand-in for the accountant (the paper's Prop. 3.2,
//! σ = √(ηT)·√(8 ln(1/δ))/ε); the crate's accountant replaces it in the app.

use std::sync::Arc;
use std::time::Instant;

use dp_explorer::algorithms::dp_gd_random_features::{DpGd, DpGdParams};
use dp_explorer::algorithms::min_norm::min_norm_least_squares;
use dp_explorer::data::random_features::{Activation, RfFeatures, Target};
use dp_explorer::rng::{stream, Purpose};
use dp_explorer::scenarios::dpgd::charts::mean_test_loss;
use dp_explorer::scenarios::dpgd::config::{DpGdConfig, SigmaQuery};
use dp_explorer::scenarios::dpgd::run::{DpGdSweep, Method};
use dp_explorer::scenarios::field::Config;
use dp_explorer::scenarios::Checked;

fn prop32(q: &SigmaQuery) -> f64 {
    (q.eta * q.steps as f64).sqrt() * (8.0 * (1.0 / q.delta).ln()).sqrt() / q.epsilon
}

fn sweep(preset: &str, settings: &[String]) {
    let mut config = DpGdConfig::preset(preset).unwrap();
    for kv in settings {
        let (k, v) = kv.split_once('=').expect("settings are key=value");
        config.apply_field(k, v).unwrap_or_else(|e| panic!("{e}"));
    }
    let t0 = Instant::now();
    let checked = Checked::new(config.clone()).unwrap_or_else(|e| panic!("{e:?}"));
    let mut s = DpGdSweep::new(checked, prop32).unwrap();
    let mut calls = 0;
    let mut longest = 0.0_f64;
    loop {
        let t = Instant::now();
        let done = s.step();
        longest = longest.max(t.elapsed().as_secs_f64());
        calls += 1;
        if done {
            break;
        }
    }
    println!(
        "\n{preset}: d={} n={} n_test={} tau={}·d/p C={}·sqrt(p): {:.2} s, {calls} step() calls, longest {:.0} ms",
        config.d,
        config.n,
        config.n_test,
        config.time_scale,
        config.clip_scale,
        t0.elapsed().as_secs_f64(),
        longest * 1e3
    );
    let rows = s.rows();
    let theta = mean_test_loss(rows, Method::MinNorm, None);
    let gd = mean_test_loss(rows, Method::Gd, None);
    let dp: Vec<_> = config
        .target
        .epsilons
        .iter()
        .map(|&e| mean_test_loss(rows, Method::DpGd, Some(e)))
        .collect();
    print!("{:>7} {:>10} {:>8}", "p", "theta*", "GD(T)");
    for e in &config.target.epsilons {
        print!(" {:>8}", format!("eps={e}"));
    }
    println!(" {:>8}", "clipped");
    for (k, &(p, l)) in theta.iter().enumerate() {
        print!("{p:>7} {l:>10.3} {:>8.3}", gd[k].1);
        for d in &dp {
            print!(" {:>8.3}", d[k].1);
        }
        let clipped = rows
            .iter()
            .find(|r| r.method == Method::DpGd && r.p == p)
            .map_or(f64::NAN, |r| r.clipped_fraction);
        println!(" {clipped:>8.2}");
    }
    println!(
        "loss vs T at eps={} (p, T, eta*T*p/d, test loss):",
        config.trace_epsilon
    );
    for r in s.trace() {
        println!(
            "  p={:>6} T={:>5} rescaled={:>5.1} test={:.3}",
            r.p, r.steps, r.time_scale, r.test_loss
        );
    }
}

fn main() {
    // `dpgd_timing PRESET [key=value …]` runs one sweep; no arguments: the default tour.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some((preset, settings)) = args.split_first() {
        sweep(preset, settings);
        return;
    }
    let (d, n, n_test) = (20, 400, 400);
    for &p in &[400usize, 2000, 8000] {
        let t0 = Instant::now();
        let data = Arc::new(RfFeatures::generate(
            1,
            d,
            n,
            n_test,
            p,
            Activation::Tanh,
            Target::Sign,
        ));
        let t_feat = t0.elapsed();
        let t0 = Instant::now();
        let sol = min_norm_least_squares(&data.train.x, &data.train.y);
        let t_eig = t0.elapsed();
        let t0 = Instant::now();
        let svd = data.train.x.clone().svd(true, true);
        let theta_svd = svd
            .solve(&data.train.y, 1e-15 * svd.singular_values.max())
            .unwrap();
        let t_svd = t0.elapsed();
        let rel = (&sol.theta - &theta_svd).norm() / theta_svd.norm();
        let params = DpGdParams {
            eta: 1.0 / p as f64,
            steps: 100,
            clip: Some(0.5 * (p as f64).sqrt()),
            sigma: 1.0,
        };
        let mut run =
            DpGd::new(data.clone(), params, stream(1, Purpose::MechanismNoise, 0)).unwrap();
        let t0 = Instant::now();
        while !run.is_done() {
            run.step();
        }
        let t_gd = t0.elapsed();
        println!(
            "n={n} p={p}: features {:.1} ms, theta* (Gram eigen) {:.1} ms [test {:.3}, train {:.2e}, kappa^2 {:.2e}], \
             SVD solve {:.1} ms (rel diff {rel:.1e}), 100 DP-GD steps {:.1} ms ({:.2} ms/step), dp test {:.3}",
            t_feat.as_secs_f64() * 1e3,
            t_eig.as_secs_f64() * 1e3,
            data.test_loss(&sol.theta),
            data.train_loss(&sol.theta),
            sol.gram_condition(),
            t_svd.as_secs_f64() * 1e3,
            t_gd.as_secs_f64() * 1e3,
            t_gd.as_secs_f64() * 10.0,
            run.test_loss(),
        );
    }
    sweep("dpgd-quick", &[]);
    sweep("dpgd-browser", &[]);
}
