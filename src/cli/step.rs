//! `dp-explorer step`: one private round of a preset's run in slow motion
//! (the page's "Look inside one round"): each contribution's norm before
//! clipping, the clip bound and the share clipped, the clipped sum, the
//! noise's σ and norm, the release, the model's step, and the 2-D picture's
//! points (`--json`). This project's teaching extension; the round itself is
//! the paper's algorithm, replayed from the run's own data and noise.

use super::args::{preset_and_pairs, PresetArgs};
use super::errors::CliError;
use crate::scenarios::round::RoundRequest;
use crate::scenarios::{self};

#[derive(clap::Args, Debug)]
pub struct StepArgs {
    #[command(flatten)]
    pub settings: PresetArgs,
    /// The run's seed (as `--set seed=S`).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The round to show, from 1 to the run's rounds (or steps), of the run at the first ε of the list
    /// and the first seed (the output's first line names the run; a scenario without a round is refused).
    #[arg(long)]
    pub round: usize,
    /// Print the round as JSON (every number, the picture's points).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &StepArgs) -> Result<String, CliError> {
    let (preset, pairs) = preset_and_pairs(args.settings.sources(args.seed))?;
    let pairs = scenarios::borrowed(&pairs);
    let configured = scenarios::configure(&preset, &pairs)?;
    let trace = configured.round(RoundRequest { round: args.round })?;
    if args.json {
        let mut text = serde_json::to_string_pretty(&trace)
            .map_err(|e| CliError::argument("--json", e.to_string()))?;
        text.push('\n');
        return Ok(text);
    }
    let mut out = format!("{}: {}\n", trace.head.method, trace.head.run);
    for line in trace.stage_lines() {
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(
        "(this project's extension: one round of the paper's algorithm replayed from the run's data and noise; --json prints every number)\n",
    );
    Ok(out)
}
