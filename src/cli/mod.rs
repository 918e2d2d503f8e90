//! The native CLI: `dp-explorer sweep` reproduces a figure as CSV + SVG (or
//! one share of it, `--shard`, that `dp-explorer merge` joins), `dp-explorer
//! account` prints what each accountant says about a mechanism.

pub mod account;
pub mod args;
pub mod audit;
pub mod bench;
pub mod describe;
pub mod errors;
pub mod files;
pub mod machine;
pub mod merge;
pub mod resume;
pub mod shard;
pub mod step;
pub mod sweep;
pub mod user_split;

pub use errors::CliError;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "dp-explorer",
    version,
    about = "Differential privacy made visible: the papers' private algorithms as reproducible sweeps (CSV + SVG), and privacy accounting"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Time the benchmarks natively (scripts/bench.sh adds the browser column).
    Bench(bench::BenchArgs),
    /// Every scenario's presets, settings and charts, from the registry (--json: the page's describe.json).
    Describe(describe::DescribeArgs),
    /// Run a sweep (a preset of any scenario, with overrides) and write its CSV files and SVG charts.
    Sweep(sweep::SweepArgs),
    /// Join the shard files of `sweep --shard I/N` into the files and charts of one sweep.
    Merge(merge::MergeArgs),
    /// Print ε (or σ) for a Gaussian mechanism under every accountant.
    Account(account::AccountArgs),
    /// Attack a preset's private runs and write lower bounds on ε beside the accountant's.
    Audit(audit::AuditArgs),
    /// One private round of a preset's run in slow motion: clipped, summed, noised, stepped (this project's extension).
    Step(step::StepArgs),
}

pub fn main() -> ExitCode {
    // `sweep --help` lists every scenario's presets and settings, read from the registry.
    let matches = Cli::command()
        .mut_subcommand("sweep", |c| c.after_help(sweep::settings_help()))
        .get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    // The kernels' build switch is read once per process; a value it cannot honour is refused here.
    #[cfg(target_arch = "x86_64")]
    if let Err(message) = crate::dense::x86_build_from_env() {
        eprintln!("error: {message}");
        return ExitCode::from(2);
    }
    let outcome = match cli.command {
        Command::Account(args) => account::run(&args),
        Command::Audit(args) => audit::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Describe(args) => describe::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Sweep(args) => sweep::run(&args),
        Command::Step(args) => step::run(&args),
    };
    match outcome {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(error.exit_code())
        }
    }
}
