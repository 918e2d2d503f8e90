//! `dp-explorer audit`: attacks a preset's private runs (every ε of its list)
//! and writes the lower bounds on ε beside the accountant's (`audit.csv`) and
//! every run's score (`scores.csv`). The scenario supplies its canary and
//! score through the registry; the game and the bounds are shared.

use super::args::{preset_and_pairs, PresetArgs};
use super::errors::CliError;
use super::files::{create_dir, svg, write_file};
use crate::scenarios;
use crate::scenarios::audit::{fmt_duration, AuditMode, AuditOptions, AUDIT_CHARTS};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct AuditArgs {
    #[command(flatten)]
    pub settings: PresetArgs,
    /// Runs per side (canary in, canary out); half choose the threshold, half are judged.
    /// 0 (the default): the scenario's default, the most its attacks want that fit about 12 s in the page,
    /// at fewer records (users, clients, samples) where its runs would not fit otherwise; runs given
    /// here are played at the preset's records.
    #[arg(long, default_value_t = 0)]
    pub runs: usize,
    /// What the attacker sees: every released iterate (white-box) or the final output.
    #[arg(long, default_value = "white-box")]
    pub mode: String,
    /// Deliberately broken runs, same claimed ε: half the noise the accountant asked for
    /// (the exponential mechanism: its exponent without the factor 2).
    #[arg(long)]
    pub broken: bool,
    /// The audit's seed (the noise of its runs).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output directory for audit.csv and scores.csv.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(args: &AuditArgs) -> Result<String, CliError> {
    let mode = AuditMode::parse(&args.mode).ok_or_else(|| {
        CliError::argument(
            "--mode",
            format!(
                "--mode is white-box or final (got \"{}\")",
                args.mode.chars().take(40).collect::<String>()
            ),
        )
    })?;
    let (preset, pairs) = preset_and_pairs(args.settings.sources(None))?;
    let pairs = scenarios::borrowed(&pairs);
    let options = AuditOptions {
        runs: args.runs,
        mode,
        broken: args.broken,
        seed: args.seed,
    };
    scenarios::check_audit_runs(&options)?;
    let configured = scenarios::configure(&preset, &pairs)?;
    let mut audit = scenarios::audit_of(
        configured.as_ref(),
        options,
        scenarios::audit::DEFAULT_AUDIT_SECONDS,
    )?;
    create_dir(&args.out)?;
    let estimate = audit.estimated_seconds();
    // Said before the game starts (the report is printed at the end).
    let at = audit
        .size()
        .map_or(String::new(), |s| format!(" {}", s.words()));
    let cut = if args.runs == 0 && audit.runs() < audit.runs_wanted() {
        format!(
            " (fewer than the {} its attacks want: they would not fit the default's budget)",
            audit.runs_wanted()
        )
    } else {
        String::new()
    };
    println!(
        "auditing {} release{} × {} runs per side{at}{cut}: estimated {} on one core",
        audit.releases(),
        if audit.releases() == 1 { "" } else { "s" },
        audit.runs(),
        fmt_duration(estimate)
    );
    let started = Instant::now();
    while !audit.step(64) {}
    let seconds = started.elapsed().as_secs_f64();
    let mut out = format!(
        "{:<34} {:>8} {:>10} {:>10} {:>10} {:>8} {:>7}\n",
        "method", "ε", "ε spent", "ε_LB (CP)", "ε_LB (GDP)", "μ_LB", "caught"
    );
    for r in audit.rows() {
        out.push_str(&format!(
            "{:<34} {:>8} {:>10.4} {:>10.4} {:>10.4} {:>8.4} {:>7}\n",
            r.method,
            r.epsilon,
            r.epsilon_spent,
            r.bounds.epsilon_lb_cp,
            r.bounds.epsilon_lb_gdp,
            r.bounds.mu_lb,
            if r.exceeds_claim() { "yes" } else { "no" }
        ));
    }
    out.push_str(&format!(
        "audit of {} runs per side ({} mode{}) took {seconds:.2} s (estimated {estimate:.2} s); 95 % lower bounds, threshold chosen on a held-out half (or fixed in advance where the score's midpoint is known)\n",
        audit.runs(),
        mode.name(),
        if args.broken { ", deliberately broken" } else { "" }
    ));
    out.push_str("ε_LB (CP) bounds ε itself; the Gaussian-DP route rules out μ-GDP for μ < μ_LB, and its ε_LB (GDP) is the ε of μ_LB-GDP, which assumes the Gaussian trade-off shape\n");
    let view = audit.view();
    if let Some(size) = audit.size().filter(|s| s.resized()) {
        out.push_str(&size.note());
        out.push('\n');
    }
    for file in &view.files {
        let path = write_file(&args.out, file.name, file.text.as_bytes())?;
        out.push_str(&format!("wrote {}\n", path.display()));
    }
    let path = write_file(
        &args.out,
        scenarios::statement::FILE_NAME,
        audit
            .statement(configured.info(), &configured.settings())
            .as_bytes(),
    )?;
    out.push_str(&format!("wrote {}\n", path.display()));
    for (spec, chart) in view.charts.iter().zip(AUDIT_CHARTS) {
        let path = write_file(
            &args.out,
            &format!("{}.svg", chart.id),
            svg(spec, None)?.as_bytes(),
        )?;
        out.push_str(&format!("wrote {}\n", path.display()));
    }
    Ok(out)
}
