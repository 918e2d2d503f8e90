//! `dp-explorer bench`: times the shared benchmarks natively. `scripts/bench.sh`
//! runs the same benchmarks in headless chromium and prints both side by side.

use super::errors::CliError;
use crate::bench::{run_bench, BENCHES};
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Run only these benchmarks (default: all).
    #[arg(long = "only", value_name = "NAME")]
    pub only: Vec<String>,
    /// Repetitions; the fastest is reported (less noise from the machine).
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
    /// One JSON object per line: {"bench": NAME, "native_s": seconds, "result": …}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &BenchArgs) -> Result<String, CliError> {
    let names: Vec<&str> = if args.only.is_empty() {
        BENCHES.iter().map(|b| b.0).collect()
    } else {
        args.only.iter().map(String::as_str).collect()
    };
    // As before threads were lent: a run may use the machine's other cores
    // for its dense work (the DP-GD cell's feature blocks and steps).
    let _loan = crate::cores::Loan::new(crate::cores::machine_cores() - 1);
    let mut out = String::new();
    for name in names {
        let mut best = f64::INFINITY;
        let mut summary = String::new();
        for _ in 0..args.repeat.max(1) {
            let t = Instant::now();
            summary = run_bench(name)?;
            best = best.min(t.elapsed().as_secs_f64());
        }
        if args.json {
            out.push_str(&format!(
                "{}\n",
                serde_json::json!({ "bench": name, "native_s": best, "result": summary })
            ));
        } else {
            out.push_str(&format!("{name:<24} {best:>8.3} s   {summary}\n"));
        }
    }
    Ok(out)
}
