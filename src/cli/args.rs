//! The settings a command is given, as (key, text) pairs: its preset, then a
//! `--config` JSON file, `--set KEY=VALUE` and `--seed` (`sweep` and `audit`).
//! Depends on no other command.

use super::errors::{CliError, FileAction};
use crate::scenarios;
use std::io::Read;
use std::path::Path;

/// Largest `--config` file read (a config is a few hundred bytes).
const MAX_CONFIG_BYTES: u64 = 4 << 20;

/// `--preset` and `--set`, as a command that runs one preset's settings
/// takes them (`audit`, `step`; `sweep` adds `--config`).
#[derive(clap::Args, Debug)]
pub struct PresetArgs {
    /// The preset (`sweep --help` lists every scenario's presets and settings).
    #[arg(long)]
    pub preset: Option<String>,
    /// Override a setting, as for `sweep` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

impl PresetArgs {
    /// Where its settings come from: `--preset`, `--set`, then `seed` (as
    /// `--set seed=S`; `step`'s `--seed`, none for `audit`, whose seed is the
    /// game's).
    pub fn sources(&self, seed: Option<u64>) -> SettingsArgs<'_> {
        SettingsArgs {
            preset: self.preset.as_deref(),
            set: &self.set,
            seed,
            ..SettingsArgs::default()
        }
    }
}

/// Where a command's settings come from, in the order they apply.
#[derive(Clone, Copy, Debug, Default)]
pub struct SettingsArgs<'a> {
    /// `--preset` (default: the `preset` key of the config file, or the page's default).
    pub preset: Option<&'a str>,
    /// `--config`: a JSON file of settings.
    pub config: Option<&'a Path>,
    /// `--set KEY=VALUE`, in order.
    pub set: &'a [String],
    /// `--seed` (as `--set seed=S`).
    pub seed: Option<u64>,
}

fn split_pair(s: &str) -> Result<(&str, &str), CliError> {
    s.split_once('=')
        .map(|(k, v)| (k.trim(), v.trim()))
        .ok_or_else(|| {
            CliError::argument(
                "--set",
                format!("--set expects KEY=VALUE (got \"{}\")", shorten(s)),
            )
        })
}

fn shorten(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).take(60).collect()
}

/// The text of a `--config` file: a regular file of at most a few MB, with
/// any UTF-8 byte-order mark dropped.
fn read_config_file(path: &Path) -> Result<String, CliError> {
    let meta = std::fs::metadata(path).map_err(|e| CliError::io(FileAction::Read, path, e))?;
    if !meta.is_file() {
        return Err(CliError::file(path, " is not a regular file"));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_CONFIG_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| CliError::io(FileAction::Read, path, e))?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(CliError::file(
            path,
            format!(
                " is larger than {} MB; a config is a small JSON object of settings",
                MAX_CONFIG_BYTES >> 20
            ),
        ));
    }
    let text = String::from_utf8(bytes).map_err(|_| CliError::file(path, " is not UTF-8 text"))?;
    Ok(text.trim_start_matches('\u{feff}').to_string())
}

/// The key of the privacy statement in the page's JSON export (skipped on input).
pub const STATEMENT_KEY: &str = "privacy_statement";

/// The preset, then the --config file's settings, --set, and --seed, as
/// (key, text) pairs.
pub fn preset_and_pairs(
    args: SettingsArgs<'_>,
) -> Result<(String, Vec<(String, String)>), CliError> {
    let mut preset = args.preset.map(str::to_string);
    let mut pairs = Vec::new();
    if let Some(path) = args.config {
        let text = read_config_file(path)?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| CliError::file(path, format!(": {e}")))?;
        let obj = value
            .as_object()
            .ok_or_else(|| CliError::file(path, ": expected a JSON object of settings"))?;
        for (k, v) in obj {
            let text = match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Array(a) => a
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
                other => other.to_string(),
            };
            // The page's JSON export holds the run's privacy statement beside
            // its settings: a record of the run, not a setting.
            if k == STATEMENT_KEY {
                continue;
            }
            if k == "preset" {
                match &preset {
                    None => preset = Some(text),
                    Some(p) if p.trim().eq_ignore_ascii_case(text.trim()) => {}
                    Some(p) => {
                        return Err(CliError::argument(
                            "--preset",
                            format!(
                                "preset: --preset {} and the preset \"{}\" of {} differ; give one",
                                shorten(p),
                                shorten(&text),
                                path.display()
                            ),
                        ))
                    }
                }
            } else {
                pairs.push((k.clone(), text));
            }
        }
    }
    let preset = preset.unwrap_or_else(|| scenarios::default_preset().to_string());
    if let Some(path) = args.config {
        unknown_config_keys(path, &preset, &pairs)?;
    }
    for s in args.set {
        let (k, v) = split_pair(s)?;
        pairs.push((k.to_string(), v.to_string()));
    }
    if let Some(seed) = args.seed {
        pairs.push(("seed".into(), seed.to_string()));
    }
    Ok((preset, pairs))
}

/// Most unknown keys of a `--config` file quoted in its error.
const UNKNOWN_KEYS_NAMED: usize = 5;

/// An error naming the `--config` file when keys of it are no setting of the
/// preset's scenario: their count, the first few and the known settings (an
/// unknown preset is left to the settings' check, which lists the presets).
fn unknown_config_keys(
    path: &Path,
    preset: &str,
    pairs: &[(String, String)],
) -> Result<(), CliError> {
    let Ok((scenario, name)) = scenarios::by_preset(preset) else {
        return Ok(());
    };
    let fields = &scenario.info().fields;
    let known = |key: &str| {
        let key = key.trim();
        fields
            .iter()
            .any(|f| f.name == key || f.aliases.contains(&key))
    };
    let unknown: Vec<&str> = pairs
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| !known(k))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    let mut names = unknown
        .iter()
        .take(UNKNOWN_KEYS_NAMED)
        .map(|k| format!("\"{}\"", shorten(k).chars().take(40).collect::<String>()))
        .collect::<Vec<_>>()
        .join(", ");
    if unknown.len() > UNKNOWN_KEYS_NAMED {
        names.push_str(&format!(" and {} more", unknown.len() - UNKNOWN_KEYS_NAMED));
    }
    let what = match unknown.len() {
        1 => format!("unknown setting {names}"),
        count => format!("{count} unknown settings: {names}"),
    };
    Err(CliError::argument(
        "--config",
        format!(
            "--config {}: {what} for --preset {name}; known settings: {}",
            path.display(),
            fields.iter().map(|f| f.name).collect::<Vec<_>>().join(", ")
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args_with_config<'a>(path: &'a Path, set: &'a [String]) -> SettingsArgs<'a> {
        SettingsArgs {
            config: Some(path),
            set,
            ..SettingsArgs::default()
        }
    }

    /// A hundred thousand unknown keys of a --config file: one line naming
    /// the file, their count, the first few and the known settings. The
    /// presets and settings come from the registry (any scenario will do).
    #[test]
    fn unknown_config_keys_are_counted_and_named_at_the_file() {
        let set = vec!["n=30".to_string()];
        let presets = scenarios::all_presets();
        let (first, last) = (presets[0].1.name, presets[presets.len() - 1].1.name);
        let (scenario, _) = scenarios::by_preset(first).unwrap();
        let fields = &scenario.info().fields;
        let known = format!("known settings: {}, {},", fields[0].name, fields[1].name);
        let dir = std::env::temp_dir().join(format!("dp-explorer-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("many.json");
        let mut object = serde_json::Map::new();
        object.insert("preset".into(), first.into());
        object.insert(fields[1].name.into(), 2.into()); // a known setting
        for i in 0..100_000 {
            object.insert(format!("k{i:06}"), 1.into());
        }
        std::fs::write(&path, serde_json::to_vec(&object).unwrap()).unwrap();
        let error = preset_and_pairs(args_with_config(&path, &set))
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with(&format!("--config {}: ", path.display())),
            "{error}"
        );
        assert!(
            error.contains(&format!(
                "100000 unknown settings: \"k000000\", \"k000001\", \"k000002\", \"k000003\", \
                 \"k000004\" and 99995 more for --preset {first}; {known}"
            )),
            "{error}"
        );
        assert!(error.len() < 1000 && !error.contains('\n'), "{error}");

        std::fs::write(
            &path,
            format!(r#"{{"preset": "{last}", "bogus": 1, "n": 40}}"#),
        )
        .unwrap();
        let error = preset_and_pairs(args_with_config(&path, &set))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(&format!("unknown setting \"bogus\" for --preset {last}")),
            "{error}"
        );
        let one_known = format!(r#"{{"preset": "{first}", "{}": 2}}"#, fields[1].name);
        std::fs::write(&path, one_known).unwrap();
        let (preset, pairs) = preset_and_pairs(args_with_config(&path, &set)).unwrap();
        assert_eq!(preset, first);
        assert_eq!(pairs.len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
