//! Tables the page shows under each chart (and anywhere else): plain text
//! cells, so every scenario's numbers reach the page in one shape.

use crate::plot::ChartSpec;
use crate::privacy::report::fmt_num;
use serde::Serialize;

/// An HTML-ready table: a caption, column headers, rows of text cells (the
/// first cell of a row is its header).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    pub caption: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(caption: impl Into<String>, headers: &[&str]) -> Self {
        Table {
            caption: caption.into(),
            headers: headers.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }
}

/// The numbers behind a chart: one row per x, one column per series
/// (a horizontal reference shows its level on every row).
pub fn chart_table(spec: &ChartSpec) -> Table {
    let mut xs: Vec<f64> = spec
        .series
        .iter()
        .filter(|s| !s.horizontal)
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .filter(|x| x.is_finite())
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let mut headers = vec![spec.x_label.clone()];
    headers.extend(spec.series.iter().map(|s| s.name.clone()));
    let rows = xs
        .iter()
        .map(|&x| {
            let mut row = vec![fmt_num(x)];
            for s in &spec.series {
                let y = if s.horizontal {
                    s.points.first().map(|p| p.1)
                } else {
                    s.points.iter().find(|p| p.0 == x).map(|p| p.1)
                };
                row.push(y.map_or(String::from("—"), fmt_num));
            }
            row
        })
        .collect();
    Table {
        caption: format!("{} ({})", spec.title, spec.y_label),
        headers,
        rows,
    }
}

/// A number for a table cell: "—" when not applicable (NaN), "∞" for +∞.
/// A number in a CSV file: empty when not applicable (NaN), `inf` for ∞,
/// otherwise every digit (Rust's shortest round-trip form).
pub fn csv_number(x: f64) -> String {
    super::csv_out::number(x)
}

pub fn cell(x: f64) -> String {
    if x.is_nan() {
        "—".into()
    } else if x == f64::INFINITY {
        "∞".into()
    } else {
        fmt_num(x)
    }
}
