//! `dp-explorer describe`: what the page needs to draw itself before the wasm
//! module has loaded, read from the registry (`crate::describe`, which the wasm
//! `describe_json()` shares): every scenario's description
//! (presets, field table, charts, lesson, claims; the same object as the wasm
//! `scenarios()`), each preset's settings, each preset's empty charts (titles
//! and axes), the audit's charts and the default preset. `make build` writes
//! it to `www/pkg/describe.json`; with `--json` it is that file, without a
//! short listing.

use super::errors::CliError;
use crate::describe::{description, description_json};

#[derive(clap::Args, Debug)]
pub struct DescribeArgs {
    /// Print the whole description as one JSON document (the page's describe.json).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &DescribeArgs) -> Result<String, CliError> {
    if args.json {
        return description_json().map_err(CliError::Internal);
    }
    let d = description().map_err(CliError::Internal)?;
    let mut out = String::new();
    for s in &d.scenarios {
        out.push_str(&format!(
            "{} ({}): {}\n",
            s.info.title, s.info.id, s.info.source
        ));
        for p in s.info.presets {
            let default = if p.name == d.default_preset {
                " (default)"
            } else {
                ""
            };
            out.push_str(&format!("  {:<22} {}{default}\n", p.name, p.label));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios::{self, SCENARIOS};

    #[test]
    fn the_json_holds_every_preset_with_its_settings_and_charts() {
        let text = run(&DescribeArgs { json: true }).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let listed = v["scenarios"].as_array().unwrap();
        assert_eq!(listed.len(), SCENARIOS.len());
        assert_eq!(v["default_preset"], scenarios::default_preset());
        for (s, d) in SCENARIOS.iter().zip(listed) {
            let info = s.info();
            assert_eq!(d["id"], info.id);
            assert_eq!(d["lede"], info.lede);
            assert_eq!(d["look_at"], info.look_at);
            assert_eq!(d["fields"].as_array().unwrap().len(), info.fields.len());
            assert_eq!(d["audit"], s.has_audit());
            for p in info.presets {
                let got = &d["preset_settings"][p.name];
                let want = s.preset_fields(p.name).unwrap();
                let fields = got["fields"].as_array().unwrap();
                assert_eq!(fields.len(), want.len(), "{}", p.name);
                for (pair, (k, val)) in fields.iter().zip(&want) {
                    assert_eq!(pair[0], *k, "{}", p.name);
                    assert_eq!(pair[1], val.as_str(), "{}", p.name);
                }
                let charts = got["charts"].as_array().unwrap();
                assert_eq!(charts.len(), info.charts.len(), "{}", p.name);
                assert!(charts
                    .iter()
                    .all(|c| !c["title"].as_str().unwrap().is_empty()));
            }
        }
    }
}
