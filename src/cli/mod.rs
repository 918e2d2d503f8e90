//! The native CLI: `dp-explorer sweep` reproduces a figure as CSV + SVG,
//! `dp-explorer account` prints what each accountant says about a mechanism.

pub mod account;
pub mod bench;
pub mod sweep;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "dp-explorer",
    version,
    about = "Differential privacy made visible: Private FedRep (personalized federated learning) and DP-GD on random features; reproducible sweeps and privacy accounting"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Time the benchmarks natively (scripts/bench.sh adds the browser column).
    Bench(bench::BenchArgs),
    /// Run a sweep (a preset: fedrep-* or dpgd-*, with overrides) and write results.csv and SVG charts.
    Sweep(sweep::SweepArgs),
    /// Print ε (or σ) for a Gaussian mechanism under every accountant.
    Account(account::AccountArgs),
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Account(args) => account::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Sweep(args) => sweep::run(&args),
    };
    match outcome {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
