//! `dp-explorer account`: what each accountant says about `steps` releases of
//! a Gaussian mechanism. Given σ it prints the ε spent; given ε, the σ needed;
//! given a risk (an attacker's TPR at an FPR), the μ that allows exactly that
//! risk, the σ per release that gives it and the ε it spends.

use super::errors::CliError;
use crate::privacy::error::{check_delta, check_sensitivity, check_steps};
use crate::privacy::query::{epsilon_for_sigma, sigma_for_epsilon};
use crate::privacy::rdp::{epsilon_classic, epsilon_improved, epsilon_improved_grid};
use crate::privacy::report::fmt_num;
use crate::privacy::risk::{loss_above, Risk};
use crate::privacy::{AccountingError, GaussianStage};
use serde_json::json;

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("given").required(true).args(["sigma", "epsilon", "tpr"])))]
pub struct AccountArgs {
    /// Noise standard deviation σ of each step: print the ε it spends.
    #[arg(long)]
    pub sigma: Option<f64>,
    /// Target ε: print the σ per step that each accountant needs.
    #[arg(long)]
    pub epsilon: Option<f64>,
    /// Target risk: the attacker's true-positive rate at false-positive rate --fpr (0 < FPR < TPR < 1).
    /// Prints μ = Φ⁻¹(1 − FPR) − Φ⁻¹(1 − TPR), the σ per release that gives it and the ε it spends.
    #[arg(long, requires = "fpr")]
    pub tpr: Option<f64>,
    /// The false-positive rate at which --tpr is the attacker's most (e.g. 0.01).
    #[arg(long, requires = "tpr")]
    pub fpr: Option<f64>,
    /// δ of (ε, δ)-DP (e.g. 1e-5): every membership test has TPR ≤ e^ε·FPR + δ. Not a chance of failure:
    /// the chance that the privacy loss exceeds ε is printed beside it.
    #[arg(long)]
    pub delta: f64,
    /// Number of Gaussian releases composed.
    #[arg(long, default_value_t = 1)]
    pub steps: u64,
    /// L2 sensitivity of each release (e.g. 2C/n for a mean of n clipped updates, replace-one).
    #[arg(long, default_value_t = 1.0)]
    pub sensitivity: f64,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &AccountArgs) -> Result<String, CliError> {
    Ok(match (args.sigma, args.epsilon, args.tpr.zip(args.fpr)) {
        (Some(sigma), None, None) => epsilon_from_sigma(args, sigma)?,
        (None, Some(epsilon), None) => sigma_from_epsilon(args, epsilon)?,
        (None, None, Some((tpr, fpr))) => sigma_from_risk(args, tpr, fpr)?,
        _ => {
            return Err(CliError::argument(
                "--sigma",
                "give exactly one of --sigma, --epsilon and --tpr (with --fpr)",
            ))
        }
    })
}

fn header(args: &AccountArgs) -> String {
    format!(
        "{} Gaussian release(s) of sensitivity {}, δ = {}\n\n",
        args.steps,
        fmt_num(args.sensitivity),
        fmt_num(args.delta)
    )
}

/// The JSON line of an answer: what was given (its name and value), the
/// quantity answered, the common settings, then the accountants' `numbers`.
fn json_answer(
    args: &AccountArgs,
    (given, value): (&str, f64),
    quantity: &str,
    numbers: serde_json::Value,
) -> String {
    let mut v = serde_json::Map::new();
    v.insert("given".into(), json!(given));
    v.insert("quantity".into(), json!(quantity));
    v.insert(given.into(), json!(value));
    v.insert("delta".into(), json!(args.delta));
    v.insert("steps".into(), json!(args.steps));
    v.insert("sensitivity".into(), json!(args.sensitivity));
    if let serde_json::Value::Object(numbers) = numbers {
        v.extend(numbers);
    }
    format!("{}\n", serde_json::Value::Object(v))
}

/// What every accountant says about `steps` releases at σ: the JSON numbers
/// and the table's rows.
struct Spent {
    mu: f64,
    exact: f64,
    numbers: serde_json::Map<String, serde_json::Value>,
    rows: String,
}

fn spent_at(args: &AccountArgs, sigma: f64) -> Result<Spent, AccountingError> {
    let spent = epsilon_for_sigma(sigma, args.delta, args.steps, args.sensitivity)?;
    let stage = GaussianStage::new("steps", "Gaussian", args.sensitivity, sigma, args.steps);
    let (exact, zcdp) = (spent.epsilon.exact, spent.epsilon.zcdp);
    let improved = epsilon_improved(stage.rdp_slope(), args.delta)?;
    let grid = epsilon_improved_grid(stage.rdp_slope(), args.delta)?;
    let classic = epsilon_classic(stage.rdp_slope(), args.delta)?;
    let numbers = json!({
        "noise_multiplier": stage.noise_multiplier(),
        "mu": stage.mu(),
        "exact": exact,
        "rdp": improved.epsilon,
        "rdp_alpha": improved.alpha,
        "rdp_grid": grid.epsilon,
        "rdp_grid_alpha": grid.alpha,
        "rdp_grid_alpha_at_edge": grid.alpha_at_edge,
        "rdp_classic": classic.epsilon,
        "rdp_classic_alpha": classic.alpha,
        "zcdp": zcdp,
        "loss_above_epsilon": loss_above(stage.mu(), exact),
    });
    let mut rows = format!("{:<36} {:>14} {:>10}\n", "accountant", "ε", "α");
    rows += &row("exact (Gaussian DP, tight)", exact, None);
    rows += &row(
        "RDP, improved conversion",
        improved.epsilon,
        Some(improved.alpha),
    );
    rows += &row(
        if grid.alpha_at_edge {
            "RDP, improved, usual grid (α at edge)"
        } else {
            "RDP, improved, usual grid"
        },
        grid.epsilon,
        Some(grid.alpha),
    );
    rows += &row(
        "RDP, classic conversion",
        classic.epsilon,
        Some(classic.alpha),
    );
    rows += &row("zCDP, simple conversion", zcdp, None);
    let serde_json::Value::Object(numbers) = numbers else {
        unreachable!("json! of an object literal is an object")
    };
    Ok(Spent {
        mu: stage.mu(),
        exact,
        numbers,
        rows,
    })
}

fn epsilon_from_sigma(args: &AccountArgs, sigma: f64) -> Result<String, AccountingError> {
    let spent = spent_at(args, sigma)?;
    if args.json {
        let numbers = serde_json::Value::Object(spent.numbers);
        return Ok(json_answer(args, ("sigma", sigma), "epsilon", numbers));
    }
    let mut s = header(args);
    s += &format!(
        "σ = {} per release: noise multiplier z = σ/s = {}, μ = √T·s/σ = {}\n\n",
        fmt_num(sigma),
        fmt_num(sigma / args.sensitivity),
        fmt_num(spent.mu)
    );
    s += &spent.rows;
    s += &reading(args.steps, spent.mu, spent.exact, args.delta);
    Ok(s)
}

/// `--tpr T --fpr A`: the μ of the Gaussian curve through (A, T) (Kulynych &
/// Gomez 2024), the σ per release that gives it, σ = s·√K/μ, and what every
/// accountant says that σ spends. Refused values name their flag.
fn sigma_from_risk(args: &AccountArgs, tpr: f64, fpr: f64) -> Result<String, CliError> {
    let risk = Risk::new(tpr, fpr).map_err(|e| match e.field() {
        "fpr" => CliError::argument("--fpr", format!("invalid --fpr: {e}")),
        _ => CliError::argument("--tpr", format!("invalid --tpr: {e}")),
    })?;
    check_delta(args.delta)
        .map_err(|e| CliError::argument("--delta", format!("invalid --delta: {e}")))?;
    check_steps(args.steps)
        .map_err(|e| CliError::argument("--steps", format!("invalid --steps: {e}")))?;
    check_sensitivity(args.sensitivity)
        .map_err(|e| CliError::argument("--sensitivity", format!("invalid --sensitivity: {e}")))?;
    let mu = risk.mu();
    let sigma = args.sensitivity * (args.steps as f64).sqrt() / mu;
    let spent = spent_at(args, sigma)?;
    if args.json {
        let mut numbers = spent.numbers;
        numbers.insert("fpr".into(), json!(fpr));
        numbers.insert("mu".into(), json!(mu));
        numbers.insert("sigma".into(), json!(sigma));
        numbers.insert("epsilon".into(), json!(spent.exact));
        numbers.insert("epsilon_pure".into(), json!(risk.pure_epsilon()));
        let numbers = serde_json::Value::Object(numbers);
        return Ok(json_answer(args, ("tpr", tpr), "sigma", numbers));
    }
    let mut s = header(args);
    s += &format!(
        "target risk: an attacker's true-positive rate at most {} at false-positive rate {}\n\
         μ = Φ⁻¹(1 − FPR) − Φ⁻¹(1 − TPR) = {} for the whole run (the Gaussian trade-off curve through it)\n\
         σ = s·√T/μ = {} per release (noise multiplier z = σ/s = {})\n\n",
        fmt_num(tpr),
        fmt_num(fpr),
        fmt_num(mu),
        fmt_num(sigma),
        fmt_num(sigma / args.sensitivity),
    );
    s += &spent.rows;
    s += &format!(
        "\nA pure ε-DP mechanism would need ε = max(ln(TPR/FPR), ln((1 − FPR)/(1 − TPR))) = {} to allow the same risk.\n",
        fmt_num(risk.pure_epsilon())
    );
    s += &reading(args.steps, spent.mu, spent.exact, args.delta);
    Ok(s)
}

fn sigma_from_epsilon(args: &AccountArgs, epsilon: f64) -> Result<String, AccountingError> {
    let (t, sens) = (args.steps, args.sensitivity);
    let needed = sigma_for_epsilon(epsilon, args.delta, t, sens)?;
    let sigma = &needed.sigma;
    let (exact, improved, classic, zcdp) = (sigma.exact, sigma.rdp, sigma.rdp_classic, sigma.zcdp);
    let (improved_alpha, classic_alpha) = (sigma.rdp_alpha, sigma.rdp_classic_alpha);
    if args.json {
        let numbers = json!({
            "exact": exact,
            "noise_multiplier": exact / sens,
            "rdp": improved,
            "rdp_alpha": improved_alpha,
            "rdp_classic": classic,
            "rdp_classic_alpha": classic_alpha,
            "zcdp": zcdp,
        });
        return Ok(json_answer(args, ("epsilon", epsilon), "sigma", numbers));
    }
    let mut s = header(args);
    s += &format!(
        "target ε = {}: σ per release that each accountant needs\n\n",
        fmt_num(epsilon)
    );
    s += &format!("{:<36} {:>14} {:>10}\n", "accountant", "σ", "α");
    s += &row("exact (Gaussian DP, tight)", exact, None);
    s += &row("RDP, improved conversion", improved, Some(improved_alpha));
    s += &row("RDP, classic conversion", classic, Some(classic_alpha));
    s += &row("zCDP, simple conversion", zcdp, None);
    s += &format!(
        "\nThe exact accountant needs the least noise: noise multiplier z = σ/s = {}.\n",
        fmt_num(exact / sens)
    );
    Ok(s)
}

/// What the exact ε means, in words that are true: (ε, δ) bounds every test
/// (TPR ≤ e^ε·FPR + δ), and the chance that the privacy loss of these Gaussian
/// releases exceeds ε is Φ(−ε/μ + μ/2), not δ (Dong, Roth & Su 2022).
fn reading(steps: u64, mu: f64, epsilon: f64, delta: f64) -> String {
    let p = loss_above(mu, epsilon);
    format!(
        "\nReading (exact): whatever the rest of the data, the probability of any set of outcomes of the {steps} \
         release(s) becomes at most e^ε {} times as large, plus δ = {}, with or without one contribution: \
         every membership test has TPR ≤ e^ε·FPR + δ.\n\
         The chance that the privacy loss exceeds ε: Φ(−ε/μ + μ/2) = {} ({} × δ). δ is not that chance: \
         single outcomes beyond it are more than e^ε times as likely.\n",
        exp_factor(epsilon),
        fmt_num(delta),
        fmt_num(p),
        fmt_num(p / delta),
    )
}

fn row(name: &str, value: f64, alpha: Option<f64>) -> String {
    let alpha = alpha
        .map(|a| {
            if a < 1.1 {
                format!("{a:.8}")
            } else {
                format!("{a:.4}")
            }
        })
        .unwrap_or_default();
    let value = if (1e-4..1e7).contains(&value.abs()) || value == 0.0 {
        format!("{value:.6}")
    } else {
        format!("{value:.6e}")
    };
    format!("{name:<36} {value:>14} {alpha:>10}\n")
}

fn exp_factor(eps: f64) -> String {
    if eps < 20.0 {
        format!("≈ {}", fmt_num(eps.exp()))
    } else {
        format!("≈ 10^{:.0}", eps / std::f64::consts::LN_10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Wrap {
        #[command(flatten)]
        args: AccountArgs,
    }

    fn parse(argv: &[&str]) -> Result<AccountArgs, clap::Error> {
        Wrap::try_parse_from(std::iter::once("account").chain(argv.iter().copied())).map(|w| w.args)
    }

    #[test]
    fn sigma_one_prints_the_exact_epsilon_of_the_spec() {
        let text = run(&parse(&["--sigma", "1", "--delta", "1e-5"]).unwrap()).unwrap();
        assert!(text.contains("4.377178"), "{text}");
        assert!(text.contains("4.728507"), "{text}");
        assert!(text.contains("5.298526"), "{text}");
    }

    #[test]
    fn epsilon_json_has_one_sigma_per_accountant() {
        let args = parse(&["--epsilon", "1", "--delta", "1e-5", "--json"]).unwrap();
        let v: serde_json::Value = serde_json::from_str(&run(&args).unwrap()).unwrap();
        let exact = v["exact"].as_f64().unwrap();
        assert!((exact - 3.730632).abs() < 1e-6, "{v}");
        let (rdp, classic, zcdp) = (
            v["rdp"].as_f64().unwrap(),
            v["rdp_classic"].as_f64().unwrap(),
            v["zcdp"].as_f64().unwrap(),
        );
        assert!(exact <= rdp && rdp <= classic && exact <= zcdp);
    }

    #[test]
    fn sigma_json_has_one_epsilon_per_accountant() {
        let args = parse(&[
            "--sigma", "10", "--steps", "100", "--delta", "1e-6", "--json",
        ])
        .unwrap();
        let v: serde_json::Value = serde_json::from_str(&run(&args).unwrap()).unwrap();
        assert!((v["exact"].as_f64().unwrap() - 4.886554).abs() < 1e-5);
        for k in ["rdp", "rdp_classic", "zcdp"] {
            assert!(v[k].as_f64().unwrap() > v["exact"].as_f64().unwrap());
        }
    }

    #[test]
    fn the_chance_of_a_loss_above_epsilon_is_stated_not_delta() {
        // σ = 9.446669 over 5 releases: μ = √5/σ ≈ 0.2367, ε = 1 at δ = 1e-6, and the loss
        // exceeds that ε with a chance of Φ(−1/μ + μ/2) ≈ 2.0e-5, twenty times δ.
        let argv = ["--sigma", "9.446669", "--delta", "1e-6", "--steps", "5"];
        let text = run(&parse(&argv).unwrap()).unwrap();
        assert!(
            text.contains("Φ(−ε/μ + μ/2) = 2.01e-5 (20.1 × δ)"),
            "{text}"
        );
        // The old, false reading of δ (split so a search for it finds only live text).
        assert!(
            !text.contains(concat!("probability of at ", "most δ")),
            "{text}"
        );
        let json: Vec<&str> = argv.iter().copied().chain(["--json"]).collect();
        let v: serde_json::Value =
            serde_json::from_str(&run(&parse(&json).unwrap()).unwrap()).unwrap();
        let p = v["loss_above_epsilon"].as_f64().unwrap();
        assert!((1.95e-5..2.05e-5).contains(&p), "{p}");
        assert!((p / 1e-6 - 20.0).abs() < 0.5, "{p}");
    }

    #[test]
    fn exactly_one_of_sigma_and_epsilon_is_required() {
        assert!(parse(&["--delta", "1e-5"]).is_err());
        assert!(parse(&["--sigma", "1", "--epsilon", "1", "--delta", "1e-5"]).is_err());
    }

    #[test]
    fn bad_inputs_give_messages_not_panics() {
        let err = |args: &[&str]| run(&parse(args).unwrap()).unwrap_err().to_string();
        let sigma = err(&["--sigma", "0", "--delta", "1e-5"]);
        assert!(sigma.contains("σ"), "{sigma}");
        let delta = err(&["--epsilon", "1", "--delta", "2"]);
        assert!(delta.contains("δ"), "{delta}");
        let steps = err(&["--sigma", "1", "--delta", "1e-5", "--steps", "0"]);
        assert!(steps.contains("steps"), "{steps}");
    }
}
