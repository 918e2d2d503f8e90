//! Labels that tell the truth: a curve drawn at a target ε says what its runs
//! actually spend wherever that differs from the target (a paper's formula
//! may spend much less, or more, than the ε it was asked for).

use crate::privacy::report::fmt_eps;

/// " (spends ε = x)" or " (spends ε = a–b)" when any run's ε spent differs
/// from its target by more than the accountant's own margin; "" otherwise.
/// Non-finite values (non-private runs) are ignored.
pub fn spent_suffix(target_and_spent: impl IntoIterator<Item = (f64, f64)>) -> String {
    let (mut lo, mut hi, mut differs) = (f64::INFINITY, f64::NEG_INFINITY, false);
    for (target, spent) in target_and_spent {
        if !(target.is_finite() && spent.is_finite()) {
            continue;
        }
        lo = lo.min(spent);
        hi = hi.max(spent);
        differs |= (spent - target).abs() > 1e-6 * target.abs();
    }
    if !differs {
        String::new()
    } else if fmt_eps(lo) == fmt_eps(hi) {
        format!(" (spends ε = {})", fmt_eps(hi))
    } else {
        format!(" (spends ε = {}–{})", fmt_eps(lo), fmt_eps(hi))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_spent_epsilon_that_differs_from_its_target_is_shown() {
        assert_eq!(spent_suffix([(1.0, 1.0 + 1e-12), (8.0, 8.0)]), "");
        assert_eq!(spent_suffix([(8.0, 2.8391)]), " (spends ε = 2.84)");
        assert_eq!(
            spent_suffix([(1.0, 0.26), (4.0, 1.43), (f64::INFINITY, f64::INFINITY)]),
            " (spends ε = 0.26–1.43)"
        );
        assert_eq!(spent_suffix([]), "");
    }
}
