//! The files a command writes: its output directory, a file in it, a chart as SVG,
//! a view's files and charts (`sweep`, `merge`, `audit`, a shard). Depends on no
//! other command.

use super::errors::{CliError, FileAction};
use crate::plot::chart_svg_with_footer;
use crate::scenarios::{self, ScenarioInfo, View};
use std::path::{Path, PathBuf};

pub fn write_file(dir: &Path, name: &str, contents: &[u8]) -> Result<PathBuf, CliError> {
    let path = dir.join(name);
    std::fs::write(&path, contents).map_err(|e| CliError::io(FileAction::Write, &path, e))?;
    Ok(path)
}

/// Creates the output directory `dir` (and its parents).
pub fn create_dir(dir: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|e| CliError::io(FileAction::Create, dir, e))
}

/// A chart as SVG, at the size every written chart has, with `footer` (the
/// run's privacy statement in one line) under it.
pub fn svg(spec: &crate::plot::ChartSpec, footer: Option<&str>) -> Result<String, CliError> {
    chart_svg_with_footer(spec, 800, 500, footer).map_err(|e| CliError::Internal(e.to_string()))
}

/// Writes a view's files, its privacy statement and one SVG per chart (named
/// by the chart's id) into `dir`: what `sweep` and `merge` write.
pub fn write_view(dir: &Path, info: &ScenarioInfo, view: &View) -> Result<Vec<PathBuf>, CliError> {
    let mut written = Vec::new();
    for file in &view.files {
        written.push(write_file(dir, file.name, file.text.as_bytes())?);
    }
    if !view.claims.is_empty() {
        let csv = scenarios::claims::claims_csv(&view.claims);
        written.push(write_file(dir, "claims.csv", csv.as_bytes())?);
    }
    let statement = scenarios::statement::of_view(info, &view.settings, &view.privacy);
    written.push(write_file(
        dir,
        scenarios::statement::FILE_NAME,
        statement.as_bytes(),
    )?);
    let footer = scenarios::statement::line_of_view(&view.privacy);
    for (spec, chart) in view.charts.iter().zip(info.charts) {
        let svg = svg(spec, Some(&footer))?;
        written.push(write_file(
            dir,
            &format!("{}.svg", chart.id),
            svg.as_bytes(),
        )?);
    }
    Ok(written)
}
