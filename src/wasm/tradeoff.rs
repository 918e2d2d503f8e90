//! The trade-off chart of the run Explain ε shows (`scenarios::tradeoff`):
//! the accountant's curve, its (ε, δ) region, the audit's boxed points and a
//! calibrated risk, as a chart spec the page draws like any other.

use super::to_js;
use crate::privacy::risk::Risk;
use crate::scenarios::audit::AuditRow;
use crate::scenarios::statement::Release;
use crate::scenarios::tradeoff;
use serde::Deserialize;
use wasm_bindgen::prelude::*;

/// What the chart reads of an explain entry: the release it carries.
#[derive(Deserialize)]
struct Entry {
    release: Option<Release>,
}

/// A risk as the page gives it.
#[derive(Deserialize)]
struct Target {
    fpr: f64,
    tpr: f64,
}

/// The trade-off chart of one explain entry (a snapshot's `privacy[i]`):
/// `rows` a finished audit's rows (those of other releases are left out; `[]`
/// without an audit), `target` the risk the run was calibrated to
/// (`{ fpr, tpr }`, or null). Throws for an entry without a release, or a
/// target outside 0 < fpr < tpr < 1 (naming the field).
#[wasm_bindgen(unchecked_return_type = "TradeoffChart")]
pub fn tradeoff_chart(
    #[wasm_bindgen(unchecked_param_type = "ExplainEntry")] entry: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AuditRow[]")] rows: JsValue,
    #[wasm_bindgen(unchecked_param_type = "{ fpr: number; tpr: number } | null")] target: JsValue,
) -> Result<JsValue, JsError> {
    let bad = |what: &str, e: serde_wasm_bindgen::Error| JsError::new(&format!("{what}: {e}"));
    let entry: Entry = serde_wasm_bindgen::from_value(entry)
        .map_err(|e| bad("entry must be a snapshot's privacy entry", e))?;
    let rows: Vec<AuditRow> =
        serde_wasm_bindgen::from_value(rows).map_err(|e| bad("rows must be an audit's rows", e))?;
    let target: Option<Target> = serde_wasm_bindgen::from_value(target)
        .map_err(|e| bad("target must be { fpr, tpr } or null", e))?;
    let target = target
        .map(|t| Risk::new(t.tpr, t.fpr))
        .transpose()
        .map_err(|e| JsError::new(&e.to_string()))?;
    let release = entry
        .release
        .ok_or_else(|| JsError::new("this entry carries no release to draw"))?;
    let chart = tradeoff::tradeoff_chart(&release, &rows, target)
        .ok_or_else(|| JsError::new("this entry's release has no report"))?;
    to_js(&chart)
}
