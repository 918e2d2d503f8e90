//! What an ε spent means to one person in the data, in an attacker's terms.
//!
//! Differential privacy is a bound on every membership test (Wasserman &
//! Zhou 2010; Kairouz, Oh & Viswanath 2015, Thm. 2.1): whatever test an
//! attacker runs on everything a run releases to decide "this person's data
//! is in" against "it is not" (or, for replace-one, "their value is a"
//! against "it is b"), its true- and false-positive rates satisfy
//!
//!   TPR ≤ e^ε · FPR + δ   and   1 − FPR ≤ e^ε · (1 − TPR) + δ.
//!
//! For a run made only of Gaussian stages the exact bound is the Gaussian
//! trade-off curve of its composed μ (Dong, Roth & Su 2022, Def. 2.7 and
//! Cor. 3.3): TPR ≤ Φ(Φ⁻¹(FPR) + μ), inside the (ε, δ) region.
//!
//! Two readings of the region for someone who has never seen DP:
//! - the posterior bound: an attacker who was 50 % sure is, after seeing an
//!   output whose privacy loss (the log of its likelihood ratio) is at most ε,
//!   at most e^ε / (1 + e^ε) sure (Bayes' rule). δ is *not* the chance of an
//!   output with a larger loss: for a Gaussian run that chance is exactly
//!   Φ(−ε/μ + μ/2) (often 10–20 × δ; [`super::risk::loss_above`]); for a bare
//!   (ε, δ) guarantee the region above only gives, for any ε′ > ε,
//!   P(loss > ε′) ≤ δ / (1 − e^(ε − ε′)), e.g. at most 2δ above ε + ln 2;
//! - the best membership guess from a 50/50 prior is right at most
//!   (1 + max(TPR − FPR)) / 2 of the time over the region.

use super::audit::phi;
use super::risk;
use serde::Serialize;

/// How many points of each boundary curve are sampled for drawing.
const CURVE_POINTS: usize = 41;

/// An ε spent, read as what it lets an attacker do.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttackerReading {
    /// The ε actually spent at δ (not the target).
    pub epsilon: f64,
    pub delta: f64,
    /// The composed μ of a run made only of Gaussian stages (none otherwise).
    pub mu: Option<f64>,
    /// The attacker's prior that the person is in (0.5).
    pub prior: f64,
    /// The most the attacker can believe after seeing an output whose privacy loss is at
    /// most ε: e^ε / (1 + e^ε) from the 50 % prior.
    pub posterior: f64,
    /// For a Gaussian run, the exact chance that the privacy loss exceeds ε (the outputs
    /// the posterior bound does not cover): Φ(−ε/μ + μ/2). None without μ, or at δ = 0.
    pub loss_above_epsilon: Option<f64>,
    /// The guarantee as frequencies (Nanayakkara et al., USENIX Security
    /// 2023): of 100 people in and 100 out, how many of those in an attacker
    /// who wrongly accuses at most one of those out can find.
    pub frequencies: String,
    /// The best accuracy of any membership guess from a 50/50 prior.
    pub best_accuracy: f64,
    /// (FPR, TPR) along the upper edge of the region every test stays in, by (ε, δ).
    pub region: Vec<[f64; 2]>,
    /// The same edge for the exact Gaussian trade-off curve of μ, when there is one.
    pub gaussian_curve: Vec<[f64; 2]>,
    /// What ε is, in one plain sentence: the panel's opening line.
    pub plain: String,
    /// The posterior bound and the best guess, in one sentence for the panel.
    pub sentence: String,
    /// Why the worst case (the posterior bound) and the average (the best
    /// guess) differ, in one short sentence (None where they are not compared).
    pub why_two: Option<String>,
    /// A membership test, TPR, FPR and e^ε in words, with the bound they obey.
    pub test_bound: String,
    /// δ against 1/n: a sentence, when the number of people is known.
    pub delta_reading: Option<String>,
    /// n, the number of people (the unit of privacy) in the data, when known.
    pub population: Option<usize>,
}

/// Bayes' rule with a likelihood ratio of at most e^ε: the largest posterior
/// from `prior`, p·e^ε / (p·e^ε + 1 − p), written to stay finite for large ε.
pub fn posterior_bound(epsilon: f64, prior: f64) -> f64 {
    let odds = prior / (1.0 - prior);
    // p e^ε / (p e^ε + 1 − p) = 1 / (1 + e^−ε / odds)
    1.0 / (1.0 + (-epsilon).exp() / odds)
}

/// The highest TPR any test at false-positive rate `fpr` can have under
/// (ε, δ)-DP: min(1, e^ε·FPR + δ, 1 − e^−ε·(1 − δ − FPR)).
pub fn tpr_bound(epsilon: f64, delta: f64, fpr: f64) -> f64 {
    let a = epsilon.exp() * fpr + delta;
    let b = 1.0 - (-epsilon).exp() * (1.0 - delta - fpr);
    a.min(b).clamp(0.0, 1.0)
}

/// How much wider than ε the bare (ε, δ) statement of the sentence is: at
/// ε′ = ε + ln 2, P(loss > ε′) ≤ δ / (1 − e^(ε − ε′)) = 2δ.
const BARE_WIDENING: f64 = std::f64::consts::LN_2;

/// max over the (ε, δ) region of TPR − FPR, reached where its two edges meet
/// (FPR = (1 − δ)/(1 + e^ε)): (e^ε − 1)(1 − δ)/(1 + e^ε) + δ.
fn best_advantage(epsilon: f64, delta: f64) -> f64 {
    // (e^ε − 1)/(1 + e^ε) = tanh(ε/2), finite for any ε.
    ((epsilon / 2.0).tanh() * (1.0 - delta) + delta).min(1.0)
}

/// What δ means beside 1/n, the chance of one person among n being picked at random.
pub fn delta_reading(delta: f64, n: usize) -> String {
    let one_in_n = 1.0 / n as f64;
    if delta == 0.0 {
        "δ = 0: no slack in the bound (TPR ≤ e^ε·FPR exactly).".into()
    } else if delta >= one_in_n {
        format!(
            "δ ≥ 1/n (n = {n}): a release that published one person's whole record at random would meet \
             this δ, so this guarantee is weak whatever ε says; δ well below 1/n is the usual rule."
        )
    } else if delta > 0.1 * one_in_n {
        format!(
            "δ is below 1/n (n = {n}) but not far below: the slack δ adds to every test's \
             true-positive rate is small, not negligible (δ ≤ 1/(10 n) is a common rule)."
        )
    } else {
        format!(
            "δ is far below 1/n (n = {n}): the slack δ adds to every test's true-positive rate \
             is negligible for any one person."
        )
    }
}

impl AttackerReading {
    /// The reading of (ε, δ) spent; `mu` when the run is Gaussian only; `unit`
    /// names whom the guarantee protects ("user", "training sample").
    pub fn new(epsilon: f64, delta: f64, mu: Option<f64>, unit: &str) -> Self {
        let prior = 0.5;
        let mu = mu.filter(|m| m.is_finite() && *m > 0.0);
        let fprs = (0..CURVE_POINTS).map(|i| {
            // Denser near FPR = 0, where the bound climbs fastest.
            let t = i as f64 / (CURVE_POINTS - 1) as f64;
            t * t
        });
        let region = fprs
            .clone()
            .map(|f| [f, tpr_bound(epsilon, delta, f)])
            .collect();
        let gaussian_curve = mu
            .map(|m| fprs.map(|f| [f, risk::tpr_at(m, f)]).collect())
            .unwrap_or_default();
        let mut advantage = best_advantage(epsilon, delta);
        if let Some(m) = mu {
            // The Gaussian curve's largest TPR − FPR: 2Φ(μ/2) − 1, tighter than (ε, δ).
            advantage = advantage.min(2.0 * phi(m / 2.0) - 1.0);
        }
        let posterior = posterior_bound(epsilon, prior);
        let best_accuracy = (1.0 + advantage) / 2.0;
        let loss_above_epsilon = mu
            .filter(|_| delta > 0.0)
            .map(|m| risk::loss_above(m, epsilon));
        let sentence = sentence(epsilon, delta, loss_above_epsilon, best_accuracy, unit);
        let why_two = why_two(epsilon, delta, loss_above_epsilon, mu, best_accuracy);
        let frequencies = frequencies(epsilon, delta, mu, FREQUENCY_FPR);
        AttackerReading {
            epsilon,
            delta,
            mu,
            prior,
            posterior,
            loss_above_epsilon,
            frequencies,
            best_accuracy,
            region,
            gaussian_curve,
            plain: plain(epsilon, delta, unit),
            sentence,
            why_two,
            test_bound: test_bound(epsilon, delta, unit),
            delta_reading: None,
            population: None,
        }
    }

    /// The frequencies read at the false-positive rate a run was calibrated
    /// to (its risk's, Kulynych & Gomez 2024) rather than at 1 in 100: the
    /// sentence then shows the attacker's success the run was set to allow.
    pub fn at_false_positive_rate(mut self, fpr: f64) -> Self {
        self.frequencies = frequencies(self.epsilon, self.delta, self.mu, fpr);
        self
    }

    /// Adds the reading of δ against the number of people in the data.
    pub fn with_population(mut self, n: usize) -> Self {
        if n > 0 {
            self.delta_reading = Some(delta_reading(self.delta, n));
            self.population = Some(n);
        }
        self
    }

    /// δ ≥ 1/n: publishing one person's record at random would meet this δ,
    /// so the guarantee is weak whatever ε says. False when n is unknown.
    pub fn delta_at_least_one_over_n(&self) -> bool {
        self.population
            .is_some_and(|n| self.delta > 0.0 && self.delta >= 1.0 / n as f64)
    }
}

/// The false-positive rate of the frequencies sentence: 1 wrongly accused of 100.
pub const FREQUENCY_FPR: f64 = 0.01;

/// The largest true-positive rate of any test at false-positive rate `fpr`:
/// the exact Gaussian trade-off curve where the run is μ-GDP (Dong, Roth & Su
/// 2022), else the (ε, δ) region's TPR ≤ e^ε·FPR + δ.
pub fn tpr_limit(epsilon: f64, delta: f64, mu: Option<f64>, fpr: f64) -> f64 {
    match mu {
        Some(m) => risk::tpr_at(m, fpr),
        None => (epsilon.exp() * fpr + delta).min(1.0),
    }
}

/// "Of 100 people …": the attacker's success at false-positive rate `fpr` as
/// counts out of 100 people in and 100 out (of 1000, or more, where 100·fpr is
/// under one person), rounded up so that "at most" stays true.
fn frequencies(epsilon: f64, delta: f64, mu: Option<f64>, fpr: f64) -> String {
    let mut people = 100.0;
    while people * fpr < 1.0 - 1e-9 && people < 1e9 {
        people *= 10.0;
    }
    let found = people * tpr_limit(epsilon, delta, mu, fpr);
    // Rounded up (less a hair for the last bit of the float), so "at most" stays true.
    let found = if found < 10.0 {
        ((found * 10.0 - 1e-9).ceil() / 10.0).to_string()
    } else {
        (found - 1e-9).ceil().to_string()
    };
    let source = if mu.is_some() {
        "from this run's exact trade-off curve"
    } else {
        "from TPR ≤ e^ε·FPR + δ"
    };
    let (p, accused) = (people.to_string(), super::report::fmt_num(people * fpr));
    format!(
        "In frequencies: of {p} people in the data and {p} not in it, an attacker whose test wrongly accuses on \
         average at most {accused} of the {p} outsiders finds on average at most {found} of the {p} insiders ({source}; guessing alone finds {accused})."
    )
}

/// A number in words a student reads: 1e-6 as 10⁻⁶, 2.5e-5 as 2.5 × 10⁻⁵
/// (plain decimals as they are).
pub fn in_powers_of_ten(x: f64) -> String {
    let s = super::report::fmt_num(x);
    let Some((m, e)) = s.split_once('e') else {
        return s;
    };
    let sup: String = e
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            '+' => '⁺',
            d => "⁰¹²³⁴⁵⁶⁷⁸⁹"
                .chars()
                .nth(d.to_digit(10).unwrap_or(0) as usize)
                .unwrap_or(d),
        })
        .collect();
    if m == "1" {
        format!("10{sup}")
    } else {
        format!("{m} × 10{sup}")
    }
}

/// e^ε as a number ("2.718"), or its power of ten for a large ε.
fn e_to_the(epsilon: f64) -> String {
    if epsilon < 20.0 {
        super::report::fmt_num(epsilon.exp())
    } else {
        format!("about 10^{:.0}", epsilon / std::f64::consts::LN_10)
    }
}

/// The panel's opening: what ε is, in one plain sentence, and this run's (ε, δ).
fn plain(epsilon: f64, delta: f64, unit: &str) -> String {
    let slack = if delta > 0.0 {
        " (up to a small slack δ)"
    } else {
        ""
    };
    let spent = if delta > 0.0 {
        let shown = super::report::fmt_num(delta);
        let powers = in_powers_of_ten(delta);
        let words = if powers == shown {
            String::new()
        } else {
            format!(" ({powers})")
        };
        format!(
            "ε = {} at δ = {shown}{words}",
            super::report::fmt_eps(epsilon)
        )
    } else {
        format!("ε = {} with δ = 0", super::report::fmt_eps(epsilon))
    };
    format!(
        "In plain words: ε caps how much any one {unit}'s data can change what this run releases{slack}, so the \
         smaller ε, the less anyone who sees the output can tell whether that {unit}'s data was used (or which of \
         two values it holds). This run spends {spent}."
    )
}

/// The terms of the picture in words, then the bound every test obeys.
fn test_bound(epsilon: f64, delta: f64, unit: &str) -> String {
    let bound = if delta > 0.0 {
        format!(
            "TPR ≤ e^ε × FPR + δ, where e^ε is e ≈ 2.718 to the power ε: here {} × FPR + {}",
            e_to_the(epsilon),
            super::report::fmt_num(delta)
        )
    } else {
        format!(
            "TPR ≤ e^ε × FPR, where e^ε is e ≈ 2.718 to the power ε: here {} × FPR",
            e_to_the(epsilon)
        )
    };
    format!(
        "A membership test is any rule that reads what the run releases and answers \"in\" or \"out\" for one \
         {unit}; its true-positive rate (TPR) is the share of insiders it flags, its false-positive rate (FPR) the \
         share of outsiders it wrongly flags. Every such test on this run has {bound} (the shaded region)."
    )
}

/// Why the two numbers of [`sentence`] differ: the posterior bound is a worst
/// case over outputs, the best guess an average over them. None where the
/// average is not below the worst case shown (no difference to explain), but
/// for a pure ε, where the two coincide.
fn why_two(
    epsilon: f64,
    delta: f64,
    loss_above: Option<f64>,
    mu: Option<f64>,
    best_accuracy: f64,
) -> Option<String> {
    let pct = |x: f64| format!("{:.1} %", 100.0 * x);
    let worst = if delta > 0.0 && mu.is_none() {
        posterior_bound(epsilon + BARE_WIDENING, 0.5)
    } else {
        posterior_bound(epsilon, 0.5)
    };
    if pct(worst) == pct(best_accuracy) {
        // δ = 0 and no μ: (1 + tanh(ε/2))/2 = e^ε/(1 + e^ε), the same number.
        return (delta == 0.0 && mu.is_none()).then(|| {
            "Here the worst case and the average are the same number: a pure ε allows a release that is \
             this revealing on every output."
                .to_string()
        });
    }
    if best_accuracy > worst {
        return None;
    }
    // Most outputs reveal less than the worst case where the chance of a loss above ε is under a half.
    let most = if loss_above.is_some_and(|p| p < 0.5) {
        ", most of them less revealing"
    } else {
        ""
    };
    let any = if delta > 0.0 {
        "any but those unusually revealing outputs"
    } else {
        "any output"
    };
    Some(format!(
        "Why two numbers: {} is a worst case, the most the attacker may believe after {any}; {} is how often \
         they are right on average over all outputs{most}.",
        pct(worst),
        pct(best_accuracy)
    ))
}

/// One sentence for the panel: the posterior bound, the outputs it does not
/// cover (exactly for a Gaussian run, `loss_above`; by the (ε, δ) region
/// otherwise; the privacy loss itself is the expert reading's), and the best
/// guess.
fn sentence(
    epsilon: f64,
    delta: f64,
    loss_above: Option<f64>,
    best_accuracy: f64,
    unit: &str,
) -> String {
    let pct = |x: f64| format!("{:.1} %", 100.0 * x);
    let fmt = super::report::fmt_num;
    let who = format!(
        "An attacker who was 50 % sure whether one {unit}'s data is in (or which of two values it \
         holds) is, after seeing everything this run releases,"
    );
    let bound = if delta == 0.0 {
        format!("{who} at most {} sure.", pct(posterior_bound(epsilon, 0.5)))
    } else if let Some(p) = loss_above {
        format!(
            "{who} at most {} sure, except after unusually revealing outputs (see For experts): this run's Gaussian noise gives one with a chance of exactly {} ({} × δ: δ is not that chance).",
            pct(posterior_bound(epsilon, 0.5)),
            fmt(p),
            fmt(p / delta),
        )
    } else {
        format!(
            "{who} at most {} sure, except after unusually revealing outputs (a privacy loss above \
             ε + ln 2, see For experts), whose chance (ε, δ) bounds by 2δ = {} (δ does not bound the chance of a loss above ε).",
            pct(posterior_bound(epsilon + BARE_WIDENING, 0.5)),
            fmt(delta / (1.0 - (-BARE_WIDENING).exp())),
        )
    };
    format!(
        "{bound} Averaged over runs, their best guess is right at most {acc} of the time; a coin \
         flip is right 50 %.",
        acc = pct(best_accuracy),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frequencies_count_the_insiders_found_at_one_outsider_in_a_hundred() {
        // Calibrated to TPR 0.3 at FPR 0.05: read at 5 of 100 wrongly accused, 30 of 100 found;
        // at FPR 0.001, of 1000 people.
        let mu = risk::Risk::new(0.3, 0.05).unwrap().mu();
        let eps = crate::privacy::gdp::epsilon_for_mu(mu, 1e-6).unwrap();
        let at = AttackerReading::new(eps, 1e-6, Some(mu), "user").at_false_positive_rate(0.05);
        assert!(
            at.frequencies.contains("at most 5 of the 100 outsiders")
                && at.frequencies.contains("at most 30 of the 100 insiders"),
            "{}",
            at.frequencies
        );
        let rare = AttackerReading::new(eps, 1e-6, Some(mu), "user").at_false_positive_rate(0.001);
        let expected = (1000.0 * risk::tpr_at(mu, 0.001) - 1e-9).ceil();
        assert!(
            rare.frequencies.contains("at most 1 of the 1000 outsiders")
                && rare
                    .frequencies
                    .contains(&format!("at most {expected} of the 1000 insiders")),
            "{}",
            rare.frequencies
        );
        // The Gaussian curve through (FPR 0.01, TPR 0.1): 10 of 100 found.
        let mu = risk::Risk::new(0.1, 0.01).unwrap().mu();
        let gaussian = AttackerReading::new(5.136816, 1e-6, Some(mu), "user");
        assert!(
            gaussian
                .frequencies
                .contains("at most 10 of the 100 insiders"),
            "{}",
            gaussian.frequencies
        );
        assert!(gaussian.frequencies.contains("exact trade-off curve"));
        // Pure ε = 1: e·0.01 = 0.0272, 2.72 of 100, said as at most 2.8.
        let pure = AttackerReading::new(1.0, 0.0, None, "user");
        assert!(
            pure.frequencies.contains("at most 2.8 of"),
            "{}",
            pure.frequencies
        );
        // A large ε finds them all.
        let loose = AttackerReading::new(20.0, 0.0, None, "user");
        assert!(
            loose.frequencies.contains("at most 100 of"),
            "{}",
            loose.frequencies
        );
    }

    #[test]
    fn posterior_from_a_fair_prior_is_the_logistic_of_epsilon() {
        // ε = 1: e/(1 + e) ≈ 73.1 %, the figure usually quoted.
        assert!((posterior_bound(1.0, 0.5) - 0.731_058_578_6).abs() < 1e-9);
        assert_eq!(posterior_bound(0.0, 0.5), 0.5);
        // Finite and below one at any ε.
        assert!(posterior_bound(800.0, 0.5) <= 1.0);
        assert!(posterior_bound(800.0, 0.5) > 0.999);
        // A smaller prior stays smaller.
        assert!(posterior_bound(1.0, 0.1) < posterior_bound(1.0, 0.5));
    }

    #[test]
    fn the_region_holds_both_hypothesis_test_inequalities() {
        // (At ε ≳ 28, 1 − TPR underflows to 0 in f64 and the second inequality cannot be checked.)
        for &(eps, delta) in &[(0.1, 0.0), (1.0, 1e-5), (4.0, 1e-3), (10.0, 0.0)] {
            let r = AttackerReading::new(eps, delta, None, "user");
            for &[f, t] in &r.region {
                assert!(t <= f64::exp(eps) * f + delta + 1e-12);
                assert!(1.0 - f <= f64::exp(eps) * (1.0 - t) + delta + 1e-9);
                assert!((0.0..=1.0).contains(&t) && t >= f - 1e-12, "({f}, {t})");
            }
            // The best guess is right (1 + max(TPR − FPR))/2 of the time: check by scanning the edge.
            let scan = (0..=100_000)
                .map(|i| {
                    let f = i as f64 / 100_000.0;
                    tpr_bound(eps, delta, f) - f
                })
                .fold(0.0f64, f64::max);
            assert!(
                ((1.0 + scan) / 2.0 - r.best_accuracy).abs() < 1e-4,
                "ε = {eps}"
            );
        }
    }

    #[test]
    fn the_gaussian_curve_lies_inside_the_region_of_the_epsilon_it_spends() {
        let mu = 1.0;
        let delta = 1e-5;
        let eps = super::super::gdp::epsilon_for_mu(mu, delta).unwrap();
        let r = AttackerReading::new(eps, delta, Some(mu), "user");
        assert_eq!(r.gaussian_curve.len(), r.region.len());
        for (g, e) in r.gaussian_curve.iter().zip(&r.region) {
            assert!(g[1] <= e[1] + 1e-9, "{g:?} above {e:?}");
        }
        // μ = 1: the best guess is Φ(1/2) ≈ 69.1 %, tighter than (ε, δ) gives.
        assert!((r.best_accuracy - phi(0.5)).abs() < 1e-9);
        assert!(r.best_accuracy < (1.0 + best_advantage(eps, delta)) / 2.0);
    }

    #[test]
    fn delta_is_judged_against_one_over_n() {
        assert!(delta_reading(1.0 / 2000.0, 2000).contains("weak"));
        assert!(delta_reading(1e-4, 2000).contains("not far below"));
        assert!(delta_reading(1e-6, 2000).contains("negligible"));
        assert!(delta_reading(0.0, 2000).contains("no slack"));
        let r = AttackerReading::new(1.0, 5e-4, None, "user").with_population(2000);
        assert!(r.delta_at_least_one_over_n());
        assert!(r.delta_reading.unwrap().contains("weak"));
        let below = AttackerReading::new(1.0, 4.9e-4, None, "user").with_population(2000);
        assert!(!below.delta_at_least_one_over_n());
        assert!(!AttackerReading::new(1.0, 0.5, None, "user").delta_at_least_one_over_n());
    }

    #[test]
    fn the_sentence_names_the_bound_and_is_finite_for_pure_epsilon() {
        let s = AttackerReading::new(1.0, 0.0, None, "user").sentence;
        assert!(s.contains("73.1 %"), "{s}");
        assert!(!s.contains("NaN") && !s.contains("δ ="), "{s}");
        // A bare (ε, δ): the posterior of ε + ln 2 (2e/(1 + 2e) ≈ 84.5 %) outside a chance of 2δ.
        let s = AttackerReading::new(1.0, 1e-5, None, "user").sentence;
        assert!(s.contains("84.5 %") && s.contains("2δ = 2e-5"), "{s}");
        assert!(!s.contains("73.1 % sure"), "{s}");
    }

    #[test]
    fn the_opening_is_plain_and_the_two_numbers_are_told_apart() {
        let mu = 0.236;
        let eps = super::super::gdp::epsilon_for_mu(mu, 1e-6).unwrap();
        let r = AttackerReading::new(eps, 1e-6, Some(mu), "user");
        assert!(r.plain.starts_with("In plain words: ε caps"), "{}", r.plain);
        assert!(r.plain.contains("at δ = 1e-6 (10⁻⁶)"), "{}", r.plain);
        let why = r.why_two.unwrap();
        let worst = format!("{:.1} %", 100.0 * r.posterior);
        let avg = format!("{:.1} %", 100.0 * r.best_accuracy);
        assert!(why.contains(&format!("{worst} is a worst case")), "{why}");
        assert!(why.contains(&format!("{avg} is how often")), "{why}");
        assert!(why.chars().count() <= 240, "{why}");
        // A pure ε: worst case and average coincide, and the sentence says so.
        let pure = AttackerReading::new(1.0, 0.0, None, "user");
        assert!((pure.best_accuracy - pure.posterior).abs() < 1e-12);
        assert!(pure.why_two.unwrap().contains("the same number"));
        // The terms of the picture, with e^ε as a number.
        assert!(pure.test_bound.contains("A membership test is"));
        assert!(
            pure.test_bound.contains("here 2.718 × FPR"),
            "{}",
            pure.test_bound
        );
        assert_eq!(in_powers_of_ten(1e-6), "10⁻⁶");
        assert_eq!(in_powers_of_ten(2.5e-5), "2.5 × 10⁻⁵");
        assert_eq!(in_powers_of_ten(0.01), "0.01");
    }

    #[test]
    fn a_gaussian_run_states_the_exact_chance_of_a_loss_above_epsilon() {
        let (mu, delta) = (1.0, 1e-6);
        let eps = super::super::gdp::epsilon_for_mu(mu, delta).unwrap();
        let r = AttackerReading::new(eps, delta, Some(mu), "user");
        let p = r.loss_above_epsilon.unwrap();
        assert!((p - phi(-eps / mu + mu / 2.0)).abs() < 1e-15);
        // Several times δ, never δ itself.
        assert!(p > 5.0 * delta, "{p}");
        let s = &r.sentence;
        let shown = super::super::report::fmt_num(p);
        assert!(s.contains(&format!("chance of exactly {shown}")), "{s}");
        assert!(s.contains("δ is not that chance"), "{s}");
        // At δ = 0 (a pure run) there is nothing outside the bound.
        assert_eq!(
            AttackerReading::new(1.0, 0.0, Some(mu), "user").loss_above_epsilon,
            None
        );
    }
}
