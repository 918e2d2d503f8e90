//! Times the phases of a preset's sweep natively (default: the page's default
//! preset): `cargo run --release --example profile_sweep [PRESET]`.
use dp_explorer::scenarios::{self, Shard};
use std::time::Instant;

fn main() {
    let preset = std::env::args()
        .nth(1)
        .unwrap_or_else(|| scenarios::default_preset().to_string());
    let (_, mut run) = match scenarios::start(&preset, &[], Shard::WHOLE) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e:?}");
            std::process::exit(2);
        }
    };
    let mut last = Instant::now();
    let mut label = run.phase();
    let mut totals: Vec<(String, f64)> = Vec::new();
    loop {
        let done = match run.step() {
            Ok(done) => done,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
        let t = last.elapsed().as_secs_f64();
        // The unit's kind: the label up to its first colon, plus the words after
        // it up to the first number, so the phases of one width add up apart.
        let key: String = match label.split_once(": ") {
            Some((head, tail)) => format!(
                "{head}: {}",
                tail.split(|c: char| c.is_ascii_digit())
                    .next()
                    .unwrap_or_default()
            ),
            None => label.clone(),
        };
        match totals.iter_mut().find(|(k, _)| *k == key) {
            Some(e) => e.1 += t,
            None => totals.push((key, t)),
        }
        last = Instant::now();
        label = run.phase();
        if done {
            break;
        }
    }
    for (k, t) in totals {
        println!("{k:<40} {t:.3} s");
    }
}
