//! Times the parts of the default Private FedRep sweep (native).
use dp_explorer::experiment::{FedRepConfig, FedRepSweep};
use std::time::Instant;

fn main() {
    let mut sweep = FedRepSweep::new(FedRepConfig::default()).unwrap();
    let mut last = Instant::now();
    let mut label = sweep.phase_label();
    let mut totals: Vec<(String, f64)> = Vec::new();
    loop {
        let done = sweep.step().unwrap();
        let t = last.elapsed().as_secs_f64();
        let key: String = label.split(':').next().unwrap().to_string();
        match totals.iter_mut().find(|(k, _)| *k == key) {
            Some(e) => e.1 += t,
            None => totals.push((key, t)),
        }
        last = Instant::now();
        label = sweep.phase_label();
        if done {
            break;
        }
    }
    for (k, t) in totals {
        println!("{k:<40} {t:.3} s");
    }
}
