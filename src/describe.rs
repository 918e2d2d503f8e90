//! What the page needs to draw itself before the wasm module has loaded, read
//! from the registry: every scenario's description (presets, field table,
//! charts, lesson, claims; the same object as the wasm `scenarios()`), each
//! preset's settings, each preset's empty charts (titles and axes), the audit's
//! charts and the default preset. One builder for both faces: the CLI's
//! `dp-explorer describe --json` and the wasm `describe_json()`, which `make
//! build` runs in node to write `www/pkg/describe.json` (no native build).

use crate::scenarios::{
    self, audit::AUDIT_CHARTS, ChartInfo, Coverage, RunError, ScenarioInfo, SCENARIOS,
};
use serde::Serialize;
use std::collections::BTreeMap;

/// A preset's settings and its charts before any run (title, axis labels, scales).
#[derive(Serialize)]
pub struct PresetDescription {
    /// `[[name, text], …]` in the field table's order (the wasm `preset_fields`).
    pub fields: Vec<(&'static str, String)>,
    /// Charts with no data, in the scenario's chart order (the wasm `merge` of no parts).
    pub charts: Vec<crate::plot::ChartSpec>,
}

/// One scenario: its description as the wasm `scenarios()` gives it, and its presets.
#[derive(Serialize)]
pub struct ScenarioDescription {
    #[serde(flatten)]
    pub info: &'static ScenarioInfo,
    pub audit: bool,
    pub preset_settings: BTreeMap<&'static str, PresetDescription>,
}

#[derive(Serialize)]
pub struct Description {
    /// The crate's version: a page can tell a description from another release.
    pub version: &'static str,
    pub default_preset: &'static str,
    pub scenarios: Vec<ScenarioDescription>,
    pub audit_charts: &'static [ChartInfo],
}

/// The description of every scenario; an error names the preset whose settings
/// or empty charts could not be made (a bug in its scenario).
pub fn description() -> Result<Description, String> {
    let mut out = Vec::new();
    for s in SCENARIOS {
        let info = s.info();
        let mut preset_settings = BTreeMap::new();
        for p in info.presets {
            let fields = s
                .preset_fields(p.name)
                .map_err(|e| format!("preset {}: {e}", p.name))?;
            let pairs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let charts = s
                .configure(p.name, &pairs)
                .map_err(RunError::from)
                .and_then(|c| c.merge(&[], Coverage::SoFar))
                .map_err(|e| format!("preset {}: {e}", p.name))?
                .charts;
            preset_settings.insert(p.name, PresetDescription { fields, charts });
        }
        out.push(ScenarioDescription {
            audit: s.has_audit(),
            info,
            preset_settings,
        });
    }
    Ok(Description {
        version: env!("CARGO_PKG_VERSION"),
        default_preset: scenarios::default_preset(),
        scenarios: out,
        audit_charts: AUDIT_CHARTS,
    })
}

/// The description as the text of `describe.json`: one line of JSON and a newline.
pub fn description_json() -> Result<String, String> {
    let text = serde_json::to_string(&description()?).map_err(|e| e.to_string())?;
    Ok(format!("{text}\n"))
}
