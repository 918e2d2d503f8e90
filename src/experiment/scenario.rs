//! One interface over every scenario the page and the CLI can run: Private
//! FedRep (presets `fedrep-*`) and DP-GD on random features (`dpgd-*`). The
//! preset name decides the scenario; fields are text, as everywhere else.
//!
//! DP-GD's σ comes from the accountant here ([`dpgd_sigma`]), and every private
//! DP-GD row gets its [`PrivacyReport`] (one Gaussian stage: T releases of the
//! mean clipped gradient, replace-one sensitivity 2C/n).

use super::dpgd_sweep::{
    self, Calibration as DpGdCalibration, DpGdConfig, DpGdRow, DpGdSweep, SigmaQuery, SpentQuery,
};
use super::fedrep_config::FEDREP_PRESETS;
use super::fedrep_sweep::SweepSnapshot;
use super::results::csv_string;
use super::{ConfigError, FedRepConfig, FedRepSweep};
use crate::plot::ChartSpec;
use crate::privacy::calibration::sigma_for_epsilon_exact;
use crate::privacy::formulas::dpgd_prop32_multiplier;
use crate::privacy::report::fmt_num;
use crate::privacy::{AccountingError, Calibration, GaussianStage, PrivacyReport, Relation};
use serde::Serialize;

/// Which experiment a preset belongs to.
/// Serialized as its [`Scenario::id`]: "fedrep" / "dpgd".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Scenario {
    /// Private FedRep (Snedeker, Zhou & Bassily): presets `fedrep-*`.
    #[serde(rename = "fedrep")]
    FedRep,
    /// DP-GD on random features (Bombari & Mondelli): presets `dpgd-*`.
    #[serde(rename = "dpgd")]
    DpGd,
}

impl Scenario {
    pub const ALL: [Scenario; 2] = [Scenario::FedRep, Scenario::DpGd];

    /// The scenario of a preset name (None: not a known preset).
    pub fn of_preset(preset: &str) -> Option<Scenario> {
        let p = preset.trim().to_ascii_lowercase();
        if FEDREP_PRESETS.contains(&p.as_str()) {
            Some(Scenario::FedRep)
        } else if dpgd_sweep::PRESETS.contains(&p.as_str()) {
            Some(Scenario::DpGd)
        } else {
            None
        }
    }

    /// "fedrep" / "dpgd" (the page's `data-scenario`).
    pub fn id(self) -> &'static str {
        match self {
            Scenario::FedRep => "fedrep",
            Scenario::DpGd => "dpgd",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Scenario::FedRep => "Private FedRep",
            Scenario::DpGd => "DP-GD on random features",
        }
    }

    pub fn presets(self) -> &'static [&'static str] {
        match self {
            Scenario::FedRep => FEDREP_PRESETS,
            Scenario::DpGd => &dpgd_sweep::PRESETS,
        }
    }
}

/// A preset as the page lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PresetInfo {
    pub name: &'static str,
    pub scenario: Scenario,
    pub group: &'static str,
}

/// Every preset of every scenario, grouped by scenario.
pub fn presets() -> Vec<PresetInfo> {
    Scenario::ALL
        .iter()
        .flat_map(|&s| {
            s.presets().iter().map(move |&name| PresetInfo {
                name,
                scenario: s,
                group: s.title(),
            })
        })
        .collect()
}

fn unknown_preset(name: &str) -> ConfigError {
    ConfigError::UnknownPreset {
        name: name.chars().filter(|c| !c.is_control()).take(40).collect(),
        known: presets()
            .iter()
            .map(|p| p.name)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The scenario of `preset`; None (no preset) means the default, Private FedRep.
pub fn scenario_of(preset: Option<&str>) -> Result<Scenario, ConfigError> {
    match preset {
        None => Ok(Scenario::FedRep),
        Some(p) => Scenario::of_preset(p).ok_or_else(|| unknown_preset(p)),
    }
}

/// A preset's fields as `(name, text)` in the page's order.
pub fn fields(preset: &str) -> Result<Vec<(&'static str, String)>, ConfigError> {
    match scenario_of(Some(preset))? {
        Scenario::FedRep => Ok(FedRepConfig::preset(preset.trim())?.to_fields()),
        Scenario::DpGd => Ok(DpGdConfig::preset(preset)?.to_fields()),
    }
}

/// A DP-GD config from a preset and `key=value` pairs; every parse error at once,
/// then the first validation error.
pub fn dpgd_config<'a>(
    preset: &str,
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<DpGdConfig, Vec<ConfigError>> {
    let mut config = DpGdConfig::preset(preset).map_err(|e| vec![e])?;
    let errors: Vec<ConfigError> = pairs
        .into_iter()
        .filter(|(k, _)| k.trim() != "preset")
        .filter_map(|(k, v)| config.apply_field(k, v).err())
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    config.validate().map_err(|e| vec![e])?;
    Ok(config)
}

/// Every problem with these fields (empty: valid). For DP-GD this also asks
/// the accountant, so an ε it cannot calibrate is reported here.
pub fn validate<'a>(
    preset: Option<&str>,
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Vec<ConfigError> {
    let scenario = match scenario_of(preset) {
        Ok(s) => s,
        Err(e) => return vec![e],
    };
    match scenario {
        Scenario::FedRep => match FedRepConfig::from_pairs(preset.map(str::trim), pairs) {
            Ok(_) => Vec::new(),
            Err(errors) => errors,
        },
        Scenario::DpGd => match dpgd_config(preset.unwrap_or_default(), pairs) {
            Ok(config) => match DpGdSweep::new(config, dpgd_sigma) {
                Ok(_) => Vec::new(),
                Err(e) => vec![e],
            },
            Err(errors) => errors,
        },
    }
}

// ---------------------------------------------------------------- DP-GD σ

/// The per-step release of DP-GD, as the accountant sees it.
///
/// Algorithm 1 (`algorithms::dp_gd_random_features`) does
/// θ ← θ − ηḡ + √η·(2C/n)·σ·N(0, I) = θ − η·(ḡ + (2C/n)·(σ/√η)·N(0, I)),
/// so each step releases the mean clipped gradient ḡ (each per-sample gradient
/// clipped to norm ≤ C, so replacing one sample moves ḡ by ≤ 2C/n) plus
/// Gaussian noise of std (2C/n)·σ/√η: a Gaussian mechanism with sensitivity
/// s = 2C/n and noise multiplier σ/√η, repeated T times (adaptively; θ_t is
/// post-processing). Its GDP μ is √T·√η/σ = √(ηT)/σ.
pub fn dpgd_stage(sensitivity: f64, sigma: f64, eta: f64, steps: usize) -> GaussianStage {
    GaussianStage::new(
        "training steps",
        "Gaussian noise on the mean of n per-sample-clipped gradients",
        sensitivity,
        sensitivity * sigma / eta.sqrt(),
        steps as u64,
    )
}

/// σ of one DP-GD run (the multiplier in the algorithm's √η·(2C/n)·σ):
/// - Prop. 3.2: the paper's σ = √(ηT)·√(8 ln(1/δ))/ε;
/// - exact: the noise std on ḡ that T Gaussian steps of sensitivity 2C/n need
///   to compose to exactly (ε, δ) (GDP), turned into the algorithm's σ by
///   σ = √η·std/(2C/n).
///
/// NaN when the accountant refuses (the sweep then reports the field).
pub fn dpgd_sigma(q: &SigmaQuery) -> f64 {
    match q.calibration {
        DpGdCalibration::Prop32 => {
            dpgd_prop32_multiplier(q.eta, q.steps as u64, q.epsilon, q.delta)
        }
        DpGdCalibration::Exact => {
            match sigma_for_epsilon_exact(q.epsilon, q.delta, q.steps as u64, q.sensitivity) {
                Ok(std) => q.eta.sqrt() * std / q.sensitivity,
                Err(_) => f64::NAN,
            }
        }
    }
}

/// The ε a DP-GD run with this σ spends at δ, by the exact (GDP) accountant:
/// the same number its [`PrivacyReport`] shows.
pub fn dpgd_epsilon_spent(q: &SpentQuery) -> f64 {
    let stage = dpgd_stage(q.sensitivity, q.sigma, q.eta, q.steps);
    if stage.validate().is_err() {
        return f64::NAN;
    }
    crate::privacy::gdp::epsilon_for_mu(stage.mu(), q.delta).unwrap_or(f64::NAN)
}

fn report_calibration(c: DpGdCalibration) -> Calibration {
    match c {
        DpGdCalibration::Exact => Calibration::Exact,
        DpGdCalibration::Prop32 => Calibration::Paper,
    }
}

/// The accounting of one private DP-GD row (None for non-private rows).
pub fn dpgd_report(
    row: &DpGdRow,
    n: usize,
    calibration: DpGdCalibration,
) -> Option<Result<PrivacyReport, AccountingError>> {
    if !(row.method == "dp-gd" || row.method == "dp-gd-trace") || row.sigma <= 0.0 {
        return None;
    }
    let sensitivity = 2.0 * row.clip / n as f64;
    let stage = dpgd_stage(sensitivity, row.sigma, row.eta, row.steps);
    Some(
        PrivacyReport::from_stages(
            vec![stage],
            row.delta,
            Relation::ReplaceOne,
            report_calibration(calibration),
            row.epsilon,
        )
        .map(|mut r| {
            if calibration == DpGdCalibration::Prop32 {
                r.add_note(format!(
                    "Prop. 3.2 (the paper's formula): σ = √(ηT)·√(8 ln(1/δ))/ε = {}, so \
                     the noise on the mean gradient has multiplier σ/√η = {} per step.",
                    fmt_num(row.sigma),
                    fmt_num(row.sigma / row.eta.sqrt())
                ));
            }
            r
        }),
    )
}

// ---------------------------------------------------------------- the sweep

/// A DP-GD sweep with its σ from the accountant and its reports cached.
pub struct DpGdScenario {
    sweep: DpGdSweep,
    /// One entry per `sweep.rows()` / `sweep.trace()` row, filled as rows finish.
    reports: Vec<Option<PrivacyReport>>,
    trace_reports: Vec<Option<PrivacyReport>>,
}

impl DpGdScenario {
    pub fn new(config: DpGdConfig) -> Result<Self, ConfigError> {
        let sweep = DpGdSweep::with_epsilon_spent(config, dpgd_sigma, dpgd_epsilon_spent)?;
        Ok(DpGdScenario {
            sweep,
            reports: Vec::new(),
            trace_reports: Vec::new(),
        })
    }

    pub fn sweep(&self) -> &DpGdSweep {
        &self.sweep
    }

    /// Reports of rows that finished since the last call.
    fn update_reports(&mut self) -> Result<(), String> {
        let c = self.sweep.config();
        let (n, cal) = (c.n, c.calibration);
        for (rows, reports) in [
            (self.sweep.rows(), &mut self.reports),
            (self.sweep.trace(), &mut self.trace_reports),
        ] {
            for row in &rows[reports.len()..] {
                let report = dpgd_report(row, n, cal)
                    .transpose()
                    .map_err(|e| format!("accounting DP-GD at p = {}: {e}", row.p))?;
                reports.push(report);
            }
        }
        Ok(())
    }

    /// Main rows followed by the loss-versus-T rows.
    pub fn all_rows(&self) -> Vec<DpGdRow> {
        [self.sweep.rows(), self.sweep.trace()].concat()
    }

    /// The four charts, with x ranges from the config so that empty charts have axes.
    pub fn charts(&self) -> Vec<ChartSpec> {
        let c = self.sweep.config();
        let mut charts = dpgd_sweep::charts(&self.all_rows());
        let range = |v: &mut dyn Iterator<Item = f64>| {
            v.fold(None, |acc: Option<(f64, f64)>, x| {
                Some(acc.map_or((x, x), |(a, b)| (a.min(x), b.max(x))))
            })
        };
        let steps = c.trace_p.iter().flat_map(|&p| {
            c.trace_time_scales
                .iter()
                .map(move |&ts| c.trace_schedule(p, ts).1 as f64)
        });
        let hints = [
            range(&mut c.epsilons.iter().copied()),
            range(&mut c.p_grid.iter().map(|&p| p as f64)),
            range(&mut steps.into_iter()),
            range(&mut c.trace_time_scales.iter().copied()),
        ];
        for (chart, hint) in charts.iter_mut().zip(hints) {
            chart.x_hint = hint;
        }
        charts
    }
}

/// One HTML-ready table per chart: the chart's numbers, x down, series across.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChartTable {
    pub caption: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// The numbers behind a chart: one row per x, one column per series
/// (a horizontal reference shows its level on every row).
pub fn chart_table(spec: &ChartSpec) -> ChartTable {
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
    ChartTable {
        caption: format!("{} ({})", spec.title, spec.y_label),
        headers,
        rows,
    }
}

/// A DP-GD row with its accounting (the page's "explain ε" panel reads these).
#[derive(Clone, Debug, Serialize)]
pub struct DpGdRowView {
    #[serde(flatten)]
    pub row: DpGdRow,
    pub privacy: Option<PrivacyReport>,
    pub privacy_reading: Option<String>,
}

/// What the page reads while and after a DP-GD sweep runs.
#[derive(Clone, Debug, Serialize)]
pub struct DpGdSnapshot {
    pub scenario: Scenario,
    pub done: usize,
    pub total: usize,
    pub phase: String,
    pub finished: bool,
    /// min-norm, zero, gd and dp-gd rows.
    pub rows: Vec<DpGdRowView>,
    /// The loss-versus-T runs (method "dp-gd-trace").
    pub trace: Vec<DpGdRowView>,
    pub charts: Vec<ChartSpec>,
    /// One table per chart, same order.
    pub tables: Vec<ChartTable>,
    pub config: Vec<(&'static str, String)>,
}

/// What the page reads while and after a Private FedRep sweep runs: the
/// FedRep snapshot (done, total, phase, finished, rows, curves) plus charts.
#[derive(Clone, Debug, Serialize)]
pub struct FedRepSnapshot {
    pub scenario: Scenario,
    #[serde(flatten)]
    pub sweep: SweepSnapshot,
    pub charts: Vec<ChartSpec>,
    pub config: Vec<(&'static str, String)>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Snapshot {
    FedRep(FedRepSnapshot),
    DpGd(DpGdSnapshot),
}

/// A sweep of either scenario, driven step by step.
pub enum Sweep {
    FedRep(Box<FedRepSweep>),
    DpGd(Box<DpGdScenario>),
}

impl Sweep {
    /// Picks the scenario by preset (`fedrep-*`, `dpgd-*`; none = FedRep's
    /// defaults), applies the pairs and validates.
    pub fn from_preset_and_fields<'a>(
        preset: Option<&str>,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, Vec<ConfigError>> {
        Self::shard_from_preset_and_fields(preset, pairs, 0, 1)
    }

    /// Shard `shard` of `shards` of the sweep, for a pool of workers: a
    /// Private FedRep sweep splits its runs (see [`FedRepSweep::new_shard`]);
    /// a DP-GD sweep is not split (shard 0 runs it all, other shards are empty).
    pub fn shard_from_preset_and_fields<'a>(
        preset: Option<&str>,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
        shard: usize,
        shards: usize,
    ) -> Result<Self, Vec<ConfigError>> {
        match scenario_of(preset).map_err(|e| vec![e])? {
            Scenario::FedRep => {
                let config = FedRepConfig::from_pairs(preset.map(str::trim), pairs)?;
                Ok(Sweep::FedRep(Box::new(
                    FedRepSweep::new_shard(config, shard, shards).map_err(|e| vec![e])?,
                )))
            }
            Scenario::DpGd => {
                let config = dpgd_config(preset.unwrap_or_default(), pairs)?;
                Ok(Sweep::DpGd(Box::new(
                    DpGdScenario::new(config).map_err(|e| vec![e])?,
                )))
            }
        }
    }

    pub fn scenario(&self) -> Scenario {
        match self {
            Sweep::FedRep(_) => Scenario::FedRep,
            Sweep::DpGd(_) => Scenario::DpGd,
        }
    }

    /// One bounded unit of work; Ok(true) once everything is done.
    pub fn step(&mut self) -> Result<bool, String> {
        match self {
            Sweep::FedRep(s) => s.step().map_err(|e| e.to_string()),
            Sweep::DpGd(s) => {
                let done = s.sweep.step();
                s.update_reports()?;
                Ok(done)
            }
        }
    }

    pub fn run_to_end(&mut self) -> Result<(), String> {
        while !self.step()? {}
        Ok(())
    }

    pub fn is_done(&self) -> bool {
        match self {
            Sweep::FedRep(s) => s.is_done(),
            Sweep::DpGd(s) => s.sweep.is_done(),
        }
    }

    /// (units done, total units).
    pub fn progress(&self) -> (usize, usize) {
        match self {
            Sweep::FedRep(s) => s.progress(),
            Sweep::DpGd(s) => s.sweep.progress(),
        }
    }

    pub fn phase_label(&self) -> String {
        match self {
            Sweep::FedRep(s) => s.phase_label(),
            Sweep::DpGd(s) => s.sweep.phase_label(),
        }
    }

    /// The charts of what is finished so far (FedRep: risk, angle; DP-GD: four).
    pub fn charts(&self) -> Vec<ChartSpec> {
        match self {
            Sweep::FedRep(s) => s.charts(),
            Sweep::DpGd(s) => s.charts(),
        }
    }

    /// The config as `(name, text)` pairs.
    pub fn config_fields(&self) -> Vec<(&'static str, String)> {
        match self {
            Sweep::FedRep(s) => s.config().to_fields(),
            Sweep::DpGd(s) => s.sweep.config().to_fields(),
        }
    }

    pub fn snapshot(&self) -> Snapshot {
        match self {
            Sweep::FedRep(s) => Snapshot::FedRep(FedRepSnapshot {
                scenario: Scenario::FedRep,
                sweep: s.snapshot(),
                charts: s.charts(),
                config: s.config().to_fields(),
            }),
            Sweep::DpGd(s) => {
                let view = |rows: &[DpGdRow], reports: &[Option<PrivacyReport>]| {
                    rows.iter()
                        .enumerate()
                        .map(|(i, r)| {
                            let privacy = reports.get(i).cloned().flatten();
                            DpGdRowView {
                                row: r.clone(),
                                privacy_reading: privacy.as_ref().map(|p| {
                                    format!(
                                        "{} Here one “user” is one training sample (xᵢ, yᵢ).",
                                        p.plain_language()
                                    )
                                }),
                                privacy,
                            }
                        })
                        .collect::<Vec<_>>()
                };
                let charts = s.charts();
                let (done, total) = s.sweep.progress();
                Snapshot::DpGd(DpGdSnapshot {
                    scenario: Scenario::DpGd,
                    done,
                    total,
                    phase: s.sweep.phase_label(),
                    finished: s.sweep.is_done(),
                    rows: view(s.sweep.rows(), &s.reports),
                    trace: view(s.sweep.trace(), &s.trace_reports),
                    tables: charts.iter().map(chart_table).collect(),
                    charts,
                    config: s.sweep.config().to_fields(),
                })
            }
        }
    }

    /// Every row as CSV (header + rows; DP-GD: main rows then loss-versus-T rows).
    pub fn csv(&self) -> String {
        match self {
            Sweep::FedRep(s) => csv_string(&s.rows()),
            Sweep::DpGd(s) => {
                let mut out = Vec::new();
                dpgd_sweep::write_csv(&s.all_rows(), &mut out).expect("writing to memory");
                String::from_utf8(out).expect("CSV is UTF-8")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_pick_their_scenario() {
        assert_eq!(Scenario::of_preset("fedrep-paper"), Some(Scenario::FedRep));
        assert_eq!(Scenario::of_preset("dpgd-quick"), Some(Scenario::DpGd));
        assert_eq!(Scenario::of_preset("nope"), None);
        let all = presets();
        assert_eq!(all.len(), FEDREP_PRESETS.len() + dpgd_sweep::PRESETS.len());
        for s in Scenario::ALL {
            assert_eq!(serde_json::to_value(s).unwrap(), s.id());
        }
        let e = validate(Some("nope"), []);
        assert_eq!(e[0].field(), "preset");
        assert!(e[0].to_string().contains("dpgd-browser"));
        assert!(e[0].to_string().contains("fedrep-paper"));
    }

    #[test]
    fn fields_round_trip_for_every_preset() {
        for p in presets() {
            let f = fields(p.name).unwrap();
            let errors = validate(Some(p.name), f.iter().map(|(k, v)| (*k, v.as_str())));
            assert!(errors.is_empty(), "{}: {errors:?}", p.name);
        }
        let f = fields("dpgd-paper").unwrap();
        let c = dpgd_config("dpgd-quick", f.iter().map(|(k, v)| (*k, v.as_str()))).unwrap();
        assert_eq!(c, DpGdConfig::preset("dpgd-paper").unwrap());
    }

    #[test]
    fn dpgd_field_errors_name_their_fields() {
        let e = validate(Some("dpgd-quick"), [("n", "x"), ("p_grid", "")]);
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].field(), "n");
        assert_eq!(e[1].field(), "p_grid");
        let e = validate(Some("dpgd-quick"), [("k", "2")]);
        assert_eq!(e[0].field(), "k");
    }
}
