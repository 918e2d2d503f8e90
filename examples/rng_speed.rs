//! How fast are per-user streams? (normals per second, native)
use dp_explorer::rng::{stream, Purpose};
use rand::RngExt;
use rand_distr::StandardNormal;
use std::time::Instant;
fn main() {
    let t = Instant::now();
    let mut acc = 0.0;
    let users = 200_000u64;
    for i in 0..users {
        let mut r = stream(1, Purpose::UserData, i);
        for _ in 0..255 {
            acc += r.sample::<f64, _>(StandardNormal);
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{:.2} ns per normal (acc {acc:.1})",
        s / (users as f64 * 255.0) * 1e9
    );
}
