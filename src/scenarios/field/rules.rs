//! The declarative rules of one setting: the interval its value (or every
//! entry of its list) must lie in, and what a list must be (non-empty, not too
//! long, each entry once, largest first). A field states its rules on the
//! [`Field`](super::Field) builder (`.range(2..=5000)`, `.positive()`,
//! `.non_empty()`, …); one function applies them, so a bound is written once
//! and every refusal has the same shape: the field, the requirement and the
//! value received ("eta must be in (0, 10] (got 0)", "epsilons: every ε must
//! be in [0.001, 100] (got 0)").
//!
//! The shape follows linfa's `ParamGuard` idea (parameters checked in one
//! place before an algorithm sees them), with the checks as data rather than
//! code, so that the rules of all scenarios read alike.

use crate::scenarios::error::ConfigError;

/// One end of an [`Interval`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum End {
    /// No bound on this side (only finite numbers reach a rule: the parsers
    /// refuse NaN and ±∞).
    Unbounded,
    /// The end itself is allowed.
    Closed(f64),
    /// The end itself is not allowed.
    Open(f64),
}

/// The values a number may take: `[lo, hi]`, `(lo, hi]`, …, or half-bounded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub lo: End,
    pub hi: End,
}

impl Interval {
    pub const ANY: Interval = Interval {
        lo: End::Unbounded,
        hi: End::Unbounded,
    };

    /// `[lo, hi]`.
    pub const fn closed(lo: f64, hi: f64) -> Self {
        Interval {
            lo: End::Closed(lo),
            hi: End::Closed(hi),
        }
    }

    /// `(lo, hi]`.
    pub const fn open_closed(lo: f64, hi: f64) -> Self {
        Interval {
            lo: End::Open(lo),
            hi: End::Closed(hi),
        }
    }

    /// `[lo, hi)`.
    pub const fn closed_open(lo: f64, hi: f64) -> Self {
        Interval {
            lo: End::Closed(lo),
            hi: End::Open(hi),
        }
    }

    /// `(lo, hi)`.
    pub const fn open(lo: f64, hi: f64) -> Self {
        Interval {
            lo: End::Open(lo),
            hi: End::Open(hi),
        }
    }

    /// The values both `self` and `other` allow: at each end the tighter
    /// bound (at one number, the open end).
    pub fn narrowed(&self, other: Interval) -> Interval {
        Interval {
            lo: tighter(self.lo, other.lo, 1.0),
            hi: tighter(self.hi, other.hi, -1.0),
        }
    }

    /// Whether `x` lies in the interval (never for NaN).
    pub fn contains(&self, x: f64) -> bool {
        let above = match self.lo {
            End::Unbounded => x.is_finite(),
            End::Closed(lo) => x >= lo,
            End::Open(lo) => x > lo,
        };
        let below = match self.hi {
            End::Unbounded => x.is_finite(),
            End::Closed(hi) => x <= hi,
            End::Open(hi) => x < hi,
        };
        above && below
    }

    /// What a value must be, as a message says it: "between 2 and 5000" for
    /// whole numbers, "in (0, 1000]" for reals, "at least 1", "> 0 and finite".
    pub fn requirement(&self, whole: bool) -> String {
        let bound = |x: f64| in_full(x, whole);
        match (self.lo, self.hi) {
            (End::Closed(lo), End::Closed(hi)) if whole => {
                format!("between {} and {}", bound(lo), bound(hi))
            }
            (End::Unbounded, End::Unbounded) => "finite".into(),
            (End::Closed(lo), End::Unbounded) => format!("at least {}", bound(lo)),
            (End::Open(lo), End::Unbounded) => format!("> {} and finite", bound(lo)),
            (End::Unbounded, End::Closed(hi)) => format!("at most {}", bound(hi)),
            (End::Unbounded, End::Open(hi)) => format!("< {}", bound(hi)),
            (lo, hi) => {
                let left = match lo {
                    End::Closed(x) => format!("[{}", bound(x)),
                    End::Open(x) => format!("({}", bound(x)),
                    End::Unbounded => "(−∞".into(),
                };
                let right = match hi {
                    End::Closed(x) => format!("{}]", bound(x)),
                    End::Open(x) => format!("{})", bound(x)),
                    End::Unbounded => "∞)".into(),
                };
                format!("in {left}, {right}")
            }
        }
    }
}

/// Of two ends on one side, the one that allows less: `up` is 1 for lower
/// ends (the larger is tighter), −1 for upper ends.
fn tighter(a: End, b: End, up: f64) -> End {
    let key = |e: End| match e {
        End::Unbounded => None,
        // At one number the open end allows less.
        End::Closed(x) => Some((up * x, 0)),
        End::Open(x) => Some((up * x, 1)),
    };
    match (key(a), key(b)) {
        (None, _) => b,
        (_, None) => a,
        (Some(ka), Some(kb)) => {
            if kb.0 > ka.0 || (kb.0 == ka.0 && kb.1 > ka.1) {
                b
            } else {
                a
            }
        }
    }
}

/// A number as a person reads it in a bound: 5000, 0.001, 1e6, 1e-12 (not
/// a run of zeros).
pub fn bound(x: f64) -> String {
    if x != 0.0 && !(1e-4..1e6).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// A number of a whole-number setting in full (10000000), else as [`bound`].
fn in_full(x: f64, whole: bool) -> String {
    if whole && x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        bound(x)
    }
}

/// The numbers a rule reads from a setting's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Numbers {
    One(f64),
    List(Vec<f64>),
}

/// The rules of one setting (all optional; none by default).
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    /// The value, or every entry of a list, lies in this interval.
    pub interval: Option<Interval>,
    /// The noun for one entry of a list in messages ("ε", "width").
    pub item: &'static str,
    /// A list must hold at least one entry.
    pub non_empty: bool,
    /// A list holds at most this many entries.
    pub max_len: Option<usize>,
    /// A list names each entry once.
    pub distinct: bool,
    /// A list is in non-increasing order (largest first).
    pub largest_first: bool,
    /// Why the bound is there, said after it: "between 4 and 10000 (…)".
    pub note: Option<&'static str>,
    /// Why the interval is wider than the shared field's (set only by
    /// [`Field::widened_to`](super::Field::widened_to)).
    pub widened: Option<&'static str>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            interval: None,
            item: "value",
            non_empty: false,
            max_len: None,
            distinct: false,
            largest_first: false,
            note: None,
            widened: None,
        }
    }
}

impl Rules {
    /// The first rule `numbers` break, as an error at `field`; `shown` is the
    /// value as text (for a single value), `whole` whether it counts things.
    pub fn check(
        &self,
        field: &str,
        numbers: &Numbers,
        shown: impl FnOnce() -> String,
        whole: bool,
    ) -> Option<ConfigError> {
        let item = self.item;
        let requirement = |interval: Interval| match self.note {
            Some(note) => format!("{} ({note})", interval.requirement(whole)),
            None => interval.requirement(whole),
        };
        match numbers {
            Numbers::One(x) => {
                let interval = self.interval?;
                (!interval.contains(*x))
                    .then(|| ConfigError::out_of_range(field, &requirement(interval), shown()))
            }
            Numbers::List(xs) => {
                if self.non_empty && xs.is_empty() {
                    return Some(ConfigError::invalid(
                        field,
                        format!("give at least one {item}"),
                    ));
                }
                if let Some(max) = self.max_len.filter(|&max| xs.len() > max) {
                    return Some(ConfigError::invalid(
                        field,
                        format!("at most {max} entries (got {})", xs.len()),
                    ));
                }
                if let Some(interval) = self.interval {
                    if let Some(&x) = xs.iter().find(|&&x| !interval.contains(x)) {
                        return Some(ConfigError::invalid(
                            field,
                            format!(
                                "every {item} must be {} (got {})",
                                requirement(interval),
                                in_full(x, whole)
                            ),
                        ));
                    }
                }
                if self.distinct {
                    let mut sorted = xs.clone();
                    sorted.sort_by(f64::total_cmp);
                    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
                        return Some(ConfigError::invalid(
                            field,
                            format!("list each {item} once (got {} twice)", in_full(w[0], whole)),
                        ));
                    }
                }
                if self.largest_first && xs.windows(2).any(|w| w[0] < w[1]) {
                    return Some(ConfigError::invalid(
                        field,
                        format!("list the {item}s largest first"),
                    ));
                }
                None
            }
        }
    }
}

/// A range of whole or real numbers as the builder takes it (`2..=5000`,
/// `0.0..=1.0`): a closed interval.
pub trait IntoInterval {
    fn into_interval(self) -> Interval;
}

impl IntoInterval for std::ops::RangeInclusive<usize> {
    fn into_interval(self) -> Interval {
        Interval::closed(*self.start() as f64, *self.end() as f64)
    }
}

impl IntoInterval for std::ops::RangeInclusive<f64> {
    fn into_interval(self) -> Interval {
        Interval::closed(*self.start(), *self.end())
    }
}

impl IntoInterval for Interval {
    fn into_interval(self) -> Interval {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_say_their_ends_and_keep_them() {
        let i = Interval::open_closed(0.0, 1e3);
        assert!(!i.contains(0.0) && i.contains(1e3) && !i.contains(1000.5));
        assert!(!i.contains(f64::NAN));
        assert_eq!(i.requirement(false), "in (0, 1000]");
        assert_eq!(
            Interval::closed(2.0, 5000.0).requirement(true),
            "between 2 and 5000"
        );
        assert_eq!(
            Interval::closed(1e-12, 1e6).requirement(false),
            "in [1e-12, 1e6]"
        );
        assert_eq!(
            Interval::closed_open(0.0, 0.5).requirement(false),
            "in [0, 0.5)"
        );
        let positive = Interval {
            lo: End::Open(0.0),
            hi: End::Unbounded,
        };
        assert_eq!(positive.requirement(false), "> 0 and finite");
        assert!(!positive.contains(f64::INFINITY) && positive.contains(1e300));
    }

    #[test]
    fn a_list_is_refused_at_its_first_broken_rule() {
        let rules = Rules {
            interval: Some(Interval::closed(1e-3, 100.0)),
            item: "ε",
            non_empty: true,
            distinct: true,
            ..Rules::default()
        };
        let check = |xs: &[f64]| {
            rules
                .check("epsilons", &Numbers::List(xs.to_vec()), String::new, false)
                .map(|e| e.to_string())
        };
        assert_eq!(check(&[1.0, 2.0]), None);
        assert_eq!(check(&[]).unwrap(), "epsilons: give at least one ε");
        assert_eq!(
            check(&[0.0, 2.0]).unwrap(),
            "epsilons: every ε must be in [0.001, 100] (got 0)"
        );
        assert_eq!(
            check(&[2.0, 1.0, 2.0]).unwrap(),
            "epsilons: list each ε once (got 2 twice)"
        );
        let largest_first = Rules {
            largest_first: true,
            item: "singular value",
            ..Rules::default()
        };
        assert!(largest_first
            .check("s", &Numbers::List(vec![1.0, 2.0]), String::new, false)
            .is_some());
    }

    #[test]
    fn one_value_is_refused_with_its_text() {
        let rules = Rules {
            interval: Some((2..=5000).into_interval()),
            ..Rules::default()
        };
        let e = rules
            .check("n", &Numbers::One(1.0), || "1".into(), true)
            .unwrap();
        assert_eq!(e.field(), "n");
        assert_eq!(e.to_string(), "n must be between 2 and 5000 (got 1)");
    }
}
