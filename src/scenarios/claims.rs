//! Claims that check themselves. A sentence on the page that says what a chart
//! shows ("the risk falls as ε grows", "the error is flat in d") is a claim
//! about the run's data, so it is declared as data: beside its text, in the
//! scenario's description, sits a predicate over the finished run's [`View`]
//! (its charts and tables, the numbers the reader sees). After a run the page
//! marks each claim held or not held *in this run*, with the numbers that
//! decided it, and `dp-explorer sweep` writes the same verdicts to
//! `claims.csv`. A learner who moves a setting until a claim breaks has learned
//! where it holds: the page says so.
//!
//! Lesson steps ([`super::LessonStep::claims`]) and chart captions
//! ([`super::ChartInfo::claims`]) name their claims by id; `tests/claims.rs`
//! runs every lesson step and requires its claims to hold.

use super::View;
use crate::plot::{ChartSpec, Series};
use crate::privacy::report::fmt_num;
use serde::Serialize;

/// What a predicate found in a run: held or not, with the numbers that decided
/// it, or undecided when the run does not show what the claim is about (one ε
/// only, a method switched off, no finished point).
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    Held(String),
    NotHeld(String),
    Undecided(String),
}

impl Check {
    /// Held when `held`, else not held; the same numbers either way.
    pub fn from_bool(held: bool, numbers: impl Into<String>) -> Self {
        if held {
            Check::Held(numbers.into())
        } else {
            Check::NotHeld(numbers.into())
        }
    }
}

/// A claim of a scenario's description: an id (stable: `claims.csv`, the
/// tests and the page's marks use it), the sentence a reader sees, where it is
/// asserted, and the predicate that decides it on a finished run.
#[derive(Clone, Copy, Serialize)]
pub struct Claim {
    pub id: &'static str,
    pub text: &'static str,
    /// The settings the sentence was written for: off them the claim is not
    /// decided ("not this run's setting"), never marked as failed.
    pub scope: Scope,
    #[serde(skip)]
    pub check: fn(&View) -> Check,
}

/// The settings of the run a view shows, as the field table writes them
/// (`Config::to_fields`): what a claim's [`Scope`] reads.
#[derive(Clone, Copy, Debug)]
pub struct Settings<'a>(pub &'a [(&'static str, String)]);

impl<'a> Settings<'a> {
    /// A setting's text ("exact", "0.01", "1,2,4").
    pub fn text(&self, key: &str) -> Option<&'a str> {
        self.0
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
    }
    /// A setting's values as numbers: one for a number, several for a list.
    pub fn numbers(&self, key: &str) -> Vec<f64> {
        self.text(key)
            .map(|t| t.split(',').filter_map(|x| x.trim().parse().ok()).collect())
            .unwrap_or_default()
    }
    /// Within when the setting `key` (every value of a list) is at most `bound`.
    pub fn at_most(&self, key: &str, bound: f64) -> Result<(), String> {
        self.bounded(key, |x| x <= bound)
    }
    /// Within when the setting `key` (every value of a list) is at least `bound`.
    pub fn at_least(&self, key: &str, bound: f64) -> Result<(), String> {
        self.bounded(key, |x| x >= bound)
    }
    /// Within when the setting `key` reads `value`.
    pub fn is(&self, key: &str, value: &str) -> Result<(), String> {
        match self.text(key) {
            Some(v) if v == value => Ok(()),
            v => Err(format!("{key} = {}", v.unwrap_or("—"))),
        }
    }
    fn bounded(&self, key: &str, ok: impl Fn(f64) -> bool) -> Result<(), String> {
        let values = self.numbers(key);
        if !values.is_empty() && values.iter().all(|&x| ok(x)) {
            Ok(())
        } else {
            Err(format!("{key} = {}", self.text(key).unwrap_or("—")))
        }
    }
}

/// Where a claim is asserted: a sentence for the reader ("clip ψ ≤ 0.01") and
/// the test of a run's settings, which names what differs when it fails
/// ("clip = 10").
#[derive(Clone, Copy, Serialize)]
pub struct Scope {
    pub text: &'static str,
    #[serde(skip)]
    pub within: fn(Settings) -> Result<(), String>,
}

/// A claim about every run of its scenario.
pub const EVERY_RUN: Scope = Scope {
    text: "every run",
    within: |_| Ok(()),
};

impl std::fmt::Debug for Claim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Claim({})", self.id)
    }
}

impl PartialEq for Claim {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && self.text == other.text
    }
}

/// Held, not held, or not decided by this run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Held,
    NotHeld,
    Undecided,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Held => "held",
            Status::NotHeld => "not held",
            Status::Undecided => "not decided",
        }
    }
}

/// A claim judged on one run: what the page marks and `claims.csv` holds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    pub id: &'static str,
    pub text: &'static str,
    pub status: Status,
    /// The numbers that decided it (or why the run cannot decide it).
    pub numbers: String,
}

/// Every claim judged on a finished run's view, in declaration order: a claim
/// whose scope the run's settings are outside is not decided, with what
/// differs (a view without settings, built by hand, is judged on its data).
pub fn judge(claims: &[Claim], view: &View) -> Vec<Verdict> {
    let settings = Settings(&view.settings);
    claims
        .iter()
        .map(|c| {
            let scoped = if view.settings.is_empty() {
                Ok(())
            } else {
                (c.scope.within)(settings)
            };
            let (status, numbers) = match scoped.map(|()| (c.check)(view)) {
                Err(differs) => (
                    Status::Undecided,
                    format!(
                        "not this run's setting: stated for {} (here {differs})",
                        c.scope.text
                    ),
                ),
                Ok(Check::Held(n)) => (Status::Held, n),
                Ok(Check::NotHeld(n)) => (Status::NotHeld, n),
                Ok(Check::Undecided(n)) => (Status::Undecided, n),
            };
            Verdict {
                id: c.id,
                text: c.text,
                status,
                numbers,
            }
        })
        .collect()
}

/// `claims.csv`: one row per claim (id, text, held, the numbers).
pub fn claims_csv(verdicts: &[Verdict]) -> String {
    let mut out = super::csv_out::CsvFile::new(["claim", "text", "held", "numbers"]);
    for v in verdicts {
        let held = match v.status {
            Status::Held => "yes",
            Status::NotHeld => "no",
            Status::Undecided => "undecided",
        };
        out.row([v.id, v.text, held, v.numbers.as_str()]);
    }
    out.finish()
}

/// The CLI's lines for the verdicts: one per claim, marked.
pub fn summary(verdicts: &[Verdict]) -> String {
    if verdicts.is_empty() {
        return String::new();
    }
    let head = "the page's statements (lesson steps, captions) judged on this run (claims.csv):\n";
    head.to_string()
        + &verdicts
            .iter()
            .map(|v| {
                let mark = match v.status {
                    Status::Held => "held     ",
                    Status::NotHeld => "NOT HELD ",
                    Status::Undecided => "undecided",
                };
                format!("  {mark} {}: {} ({})\n", v.id, v.text, v.numbers)
            })
            .collect::<String>()
}

// ---------- reading a view: the helpers the scenarios' predicates share ----------

/// The first series of chart `chart` whose name starts with `prefix`, with at
/// least one finite point.
pub fn series<'a>(view: &'a View, chart: usize, prefix: &str) -> Option<&'a Series> {
    view.charts.get(chart).and_then(|c| series_in(c, prefix))
}

/// The first series of a chart whose name starts with `prefix` and that
/// shows something: a finite point, or a horizontal reference's finite level.
pub fn series_in<'a>(chart: &'a ChartSpec, prefix: &str) -> Option<&'a Series> {
    chart
        .series
        .iter()
        .find(|s| s.name.starts_with(prefix) && shows(s))
}

fn shows(s: &Series) -> bool {
    if s.horizontal {
        level(s).is_some()
    } else {
        finite_points(s).next().is_some()
    }
}

/// Every series of chart `chart` whose name starts with `prefix` and has a finite point.
pub fn all_series<'a>(view: &'a View, chart: usize, prefix: &str) -> Vec<&'a Series> {
    view.charts
        .get(chart)
        .map(|c| {
            c.series
                .iter()
                .filter(|s| s.name.starts_with(prefix) && shows(s))
                .collect()
        })
        .unwrap_or_default()
}

/// A series' points with finite x and y, in x order.
pub fn finite_points(s: &Series) -> impl Iterator<Item = (f64, f64)> + '_ {
    s.points
        .iter()
        .copied()
        .filter(|(x, y)| x.is_finite() && y.is_finite())
}

/// The level of a series: its first finite y (a horizontal reference's value).
pub fn level(s: &Series) -> Option<f64> {
    s.points.iter().map(|p| p.1).find(|y| y.is_finite())
}

/// Held when the curve's point `at` (its peak or its best value) lies strictly
/// inside the x range, neither first nor last. `say` writes the numbers from
/// [x at, y at, first x, last x].
pub fn strictly_inside(
    pts: &[(f64, f64)],
    at: usize,
    say: impl Fn([String; 4]) -> String,
) -> Check {
    let Some(last) = pts.len().checked_sub(1) else {
        return Check::Undecided("no points".into());
    };
    Check::from_bool(
        at > 0 && at < last,
        say([pts[at].0, pts[at].1, pts[0].0, pts[last].0].map(fmt_num)),
    )
}

/// A claim's numbers in words: each item as `say` puts it, comma-separated
/// ("0.12 at ε = 1, 0.08 at ε = 2").
pub fn listed<T>(items: &[T], say: impl Fn(&T) -> String) -> String {
    items.iter().map(say).collect::<Vec<_>>().join(", ")
}

/// "y = 0.064 at ε = 1 → 8.0e-4 at ε = 8": the first and last point of a curve.
pub fn ends_text(points: &[(f64, f64)], x_name: &str) -> String {
    match (points.first(), points.last()) {
        (Some(a), Some(b)) => format!(
            "{} at {x_name} = {} → {} at {x_name} = {}",
            fmt_num(a.1),
            fmt_num(a.0),
            fmt_num(b.1),
            fmt_num(b.0)
        ),
        _ => "no points".into(),
    }
}

/// The finite points of `name`'s curve, or why a trend in x cannot be judged
/// (no curve, fewer than two points).
fn two_or_more_points(
    s: Option<&Series>,
    name: &str,
    x_name: &str,
) -> Result<Vec<(f64, f64)>, Check> {
    let Some(s) = s else {
        return Err(Check::Undecided(format!(
            "no finished {name} curve in this run"
        )));
    };
    let pts: Vec<(f64, f64)> = finite_points(s).collect();
    if pts.len() < 2 {
        return Err(Check::Undecided(format!(
            "{name} has {} finished point(s): two or more values of {x_name} are needed",
            pts.len()
        )));
    }
    Ok(pts)
}

/// A fall is a drop beyond the noise: with one seed the last point at most this
/// fraction of the first (a fall of at least a fifth, which the sentences that
/// claim a fall say); with several seeds also the last point's band wholly below
/// the first's.
pub const FALL_TO: f64 = 0.8;

/// The claim "`name` falls as x grows": at least two finite points, the last at
/// most [`FALL_TO`] times the first (and, where the curve has a band over
/// seeds, the band at the last point wholly below the band at the first), and
/// no step up beyond the noise between neighbours: beyond the seeds' band
/// where the curve has one, else by more than the fraction `slack`.
pub fn falls(s: Option<&Series>, name: &str, x_name: &str, slack: f64) -> Check {
    let pts = match two_or_more_points(s, name, x_name) {
        Ok(pts) => pts,
        Err(undecided) => return undecided,
    };
    let band_at = |x: f64| s.and_then(|s| s.band.iter().find(|b| b.0 == x).copied());
    // A rise between neighbours is a trend when it exceeds the seeds' band
    // (the later band wholly above the earlier), or with one seed `slack`.
    let rises: Vec<(f64, bool)> = pts
        .windows(2)
        .map(|w| {
            let rise = w[1].1 / w[0].1 - 1.0;
            let beyond = match (band_at(w[0].0), band_at(w[1].0)) {
                (Some(b0), Some(b1)) => b1.1 > b0.2,
                _ => rise > slack,
            };
            (rise, beyond)
        })
        .collect();
    let worst_rise = rises.iter().map(|r| r.0).fold(f64::NEG_INFINITY, f64::max);
    let (first, last) = (pts[0], pts[pts.len() - 1]);
    let ratio = last.1 / first.1;
    let mut held = ratio <= FALL_TO && !rises.iter().any(|r| r.1);
    let mut numbers = format!(
        "{name}: {} (last/first {}, a fall needs at most {})",
        ends_text(&pts, x_name),
        fmt_num(ratio),
        fmt_num(FALL_TO)
    );
    let banded = band_at(first.0).is_some();
    // Several seeds: the band at the last x wholly below the band at the first.
    if let (Some(b0), Some(b1)) = (band_at(first.0), band_at(last.0)) {
        let apart = b1.2 < b0.1;
        held &= apart;
        numbers.push_str(&format!(
            "; seeds' band {}–{} at {x_name} = {} against {}–{} at {x_name} = {}{}",
            fmt_num(b1.1),
            fmt_num(b1.2),
            fmt_num(last.0),
            fmt_num(b0.1),
            fmt_num(b0.2),
            fmt_num(first.0),
            if apart { "" } else { " (overlapping)" }
        ));
    }
    if worst_rise > 0.0 {
        let allowed = if banded {
            "allowed within the seeds' band".to_string()
        } else {
            format!("allowed {:.0} %", 100.0 * slack)
        };
        numbers.push_str(&format!(
            "; largest rise between neighbours {:.0} % ({allowed}{})",
            100.0 * worst_rise,
            if rises.iter().any(|r| r.1) {
                ", exceeded"
            } else {
                ""
            }
        ));
    }
    Check::from_bool(held, numbers)
}

/// The claim "each of these curves falls as x grows" ([`falls`] for each,
/// named by `name`): held when all do, undecided when one cannot be judged.
pub fn every_falls(
    curves: &[&Series],
    name: impl Fn(&Series) -> String,
    x_name: &str,
    slack: f64,
) -> Check {
    if curves.is_empty() {
        return Check::Undecided("no finished curve in this run".into());
    }
    let mut numbers = Vec::new();
    let mut held = true;
    for s in curves {
        match falls(Some(s), &name(s), x_name, slack) {
            Check::Held(n) => numbers.push(n),
            Check::NotHeld(n) => {
                held = false;
                numbers.push(format!("not: {n}"));
            }
            Check::Undecided(n) => return Check::Undecided(n),
        }
    }
    Check::from_bool(held, numbers.join("; "))
}

/// The claim "`name` is flat in x": max/min of its finite y's at most `ratio`.
pub fn flat(s: Option<&Series>, name: &str, x_name: &str, ratio: f64) -> Check {
    let pts = match two_or_more_points(s, name, x_name) {
        Ok(pts) => pts,
        Err(undecided) => return undecided,
    };
    let hi = pts.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    let lo = pts.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let r = if lo > 0.0 { hi / lo } else { f64::INFINITY };
    Check::from_bool(
        r <= ratio,
        format!(
            "{name}: from {} to {} over {x_name} = {}…{} (max/min {}, allowed {})",
            fmt_num(lo),
            fmt_num(hi),
            fmt_num(pts[0].0),
            fmt_num(pts[pts.len() - 1].0),
            fmt_num(r),
            fmt_num(ratio)
        ),
    )
}

/// The cells of table `table`'s column `header` with each row's first cell
/// (its label): the text the reader sees, as `(label, cell)`.
pub fn column<'a>(view: &'a View, table: usize, header: &str) -> Vec<(&'a str, &'a str)> {
    let Some(t) = view.tables.get(table) else {
        return Vec::new();
    };
    let Some(col) = t.headers.iter().position(|h| h == header) else {
        return Vec::new();
    };
    t.rows
        .iter()
        .filter_map(|r| Some((r.first()?.as_str(), r.get(col)?.as_str())))
        .collect()
}

/// The records of `results.csv` (the view's first file) as (header, rows) of
/// text fields (RFC 4180 quoting understood).
pub fn results(view: &View) -> (Vec<String>, Vec<Vec<String>>) {
    let Some(file) = view.files.first() else {
        return (Vec::new(), Vec::new());
    };
    let mut records = super::csv_out::records(&file.text).into_iter();
    let header = records.next().unwrap_or_default();
    (header, records.collect())
}

/// The generic claim "every private run spends at most its target ε", read
/// from `results.csv`'s `method`, `epsilon` and `epsilon_spent` columns (a
/// row without a finite target is not private).
pub fn spent_within_target(view: &View) -> Check {
    let (header, rows) = results(view);
    let col = |name: &str| header.iter().position(|h| h == name);
    let (Some(m), Some(e), Some(s)) = (col("method"), col("epsilon"), col("epsilon_spent")) else {
        return Check::Undecided("results.csv has no epsilon_spent column".into());
    };
    let mut worst: Option<(f64, f64, String)> = None;
    let mut private = 0;
    for r in &rows {
        let num = |i: usize| r.get(i).and_then(|x| x.parse::<f64>().ok());
        let (Some(t), Some(sp)) = (num(e), num(s)) else {
            continue;
        };
        if !(t.is_finite() && sp.is_finite()) {
            continue;
        }
        private += 1;
        if worst.as_ref().is_none_or(|w| sp / t > w.1 / w.0) {
            worst = Some((t, sp, r.get(m).cloned().unwrap_or_default()));
        }
    }
    match worst {
        None => Check::Undecided("no finished private run".into()),
        Some((t, sp, method)) => Check::from_bool(
            sp <= t * (1.0 + 1e-9),
            format!(
                "the largest spent/target: {method} spends ε = {} of its target {} ({} private runs)",
                fmt_num(sp),
                fmt_num(t),
                private
            ),
        ),
    }
}

/// A table cell as a number: "0.064", "8.0e-4", "12.5%" (as 0.125); None for
/// "—", "non-private" and other words.
pub fn cell_number(cell: &str) -> Option<f64> {
    let c = cell.trim();
    match c.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().ok().map(|x| x / 100.0),
        None => c.parse::<f64>().ok(),
    }
    .filter(|x| x.is_finite())
}

/// The ε in a series name such as "Private FedRep ε = 2 (spends 1.9)".
pub fn epsilon_in_name(name: &str) -> Option<f64> {
    let rest = name.split("ε = ").nth(1)?;
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == '-'))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::LineStyle;

    fn view_with(points: Vec<(f64, f64)>) -> View {
        View {
            charts: vec![ChartSpec {
                title: "t".into(),
                x_label: "ε".into(),
                y_label: "risk".into(),
                log_x: false,
                log_y: true,
                x_hint: None,
                series: vec![Series::line("Private", points, LineStyle::Solid, 0)],
            }],
            tables: vec![],
            privacy: vec![],
            files: vec![],
            claims: vec![],
            settings: vec![],
            summary: String::new(),
            risk_axis: vec![],
            by_epsilon: vec![],
        }
    }

    /// The verdict of a check, without its numbers.
    fn verdict(check: Check) -> &'static str {
        match check {
            Check::Held(_) => "held",
            Check::NotHeld(_) => "not held",
            Check::Undecided(_) => "undecided",
        }
    }

    #[test]
    fn a_falling_curve_holds_a_rising_one_does_not_and_one_point_decides_nothing() {
        let one = vec![(1.0, 0.5)];
        let cases = [
            (vec![(1.0, 0.5), (2.0, 0.2), (4.0, 0.1)], "Private", "held"),
            (vec![(1.0, 0.1), (2.0, 0.2)], "Private", "not held"),
            // Down, but by less than a fifth: within the noise, not a fall.
            (
                vec![(1.0, 0.5), (2.0, 0.48), (4.0, 0.45)],
                "Private",
                "not held",
            ),
            // Down overall but one neighbour step up by 50 %: not a fall.
            (
                vec![(1.0, 0.5), (2.0, 0.2), (3.0, 0.3), (4.0, 0.1)],
                "Private",
                "not held",
            ),
            (one.clone(), "Private", "undecided"),
            (one, "Absent", "undecided"),
        ];
        for (points, name, expected) in cases {
            let v = view_with(points.clone());
            let got = verdict(falls(series(&v, 0, name), "P", "ε", 0.1));
            assert_eq!(got, expected, "{name} {points:?}");
        }
    }

    #[test]
    fn flat_compares_the_largest_and_smallest_value() {
        for (points, expected) in [
            (vec![(10.0, 0.20), (30.0, 0.22), (100.0, 0.23)], "held"),
            (vec![(10.0, 0.20), (300.0, 0.5)], "not held"),
        ] {
            let v = view_with(points.clone());
            let got = verdict(flat(series(&v, 0, "Private"), "P", "d", 1.2));
            assert_eq!(got, expected, "{points:?}");
        }
    }

    #[test]
    fn cells_and_names_read_as_numbers() {
        assert_eq!(cell_number("12.5%"), Some(0.125));
        assert_eq!(cell_number("8.0e-4"), Some(8.0e-4));
        assert_eq!(cell_number("—"), None);
        assert_eq!(cell_number("non-private"), None);
        assert_eq!(
            epsilon_in_name("Private FedRep ε = 2 (spends 1.9)"),
            Some(2.0)
        );
        assert_eq!(epsilon_in_name("Private FedRep ε = 0.5"), Some(0.5));
        assert_eq!(epsilon_in_name("FedRep (non-private)"), None);
    }

    #[test]
    fn claims_csv_quotes_text_with_commas() {
        let v = Verdict {
            id: "a",
            text: "falls, then flat",
            status: Status::Held,
            numbers: "say \"x\"".into(),
        };
        assert_eq!(
            claims_csv(&[v]),
            "claim,text,held,numbers\na,\"falls, then flat\",yes,\"say \"\"x\"\"\"\n"
        );
    }
}
