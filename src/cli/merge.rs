//! `dp-explorer merge`: joins the shard files of `sweep --shard I/N` into the
//! files and charts one `sweep` writes, byte for byte. It refuses shards of
//! different sweeps, a missing share, a share given twice, a damaged or edited
//! file (the digest over header and part) and a share whose results are not
//! the plan of the settings its header claims (the scenario's merge checks
//! every job's fingerprint and that every job is there once), naming the
//! file, so a failed job of an array is found before anything is written.

use super::errors::{CliError, FileAction};
use super::files::{create_dir, write_view};
use super::shard::{self, ShardFile};
use crate::scenarios::{self, Coverage, RunError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The --out directories of `sweep --shard I/N` (or shard files): every
    /// shard-I-of-N.part in them is read. All N shares of one sweep must be
    /// there, each once; the settings travel in the files.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// Output directory for the CSV files and one SVG per chart, exactly as a
    /// single `sweep` of the same settings writes them.
    #[arg(long)]
    pub out: PathBuf,
}

/// The shard files named by the arguments: a directory gives every shard file
/// in it (other files are left alone), a file gives itself. A path given
/// twice (`shards/0 shards/0`) counts once.
fn shard_paths(args: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut paths = Vec::new();
    for arg in args {
        let meta = std::fs::metadata(arg).map_err(|e| CliError::io(FileAction::Read, arg, e))?;
        if meta.is_dir() {
            let found = shard_files_in(arg)?;
            if found.is_empty() {
                return Err(CliError::file(
                    arg,
                    " holds no shard file (shard-I-of-N.part): give the --out directories of \
                     `dp-explorer sweep --shard I/N`",
                ));
            }
            paths.extend(found);
        } else {
            paths.push(arg.clone());
        }
    }
    let mut seen = Vec::new();
    paths.retain(|p| {
        let key = std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
        let fresh = !seen.contains(&key);
        seen.push(key);
        fresh
    });
    Ok(paths)
}

fn shard_files_in(dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    let unreadable = |e| CliError::io(FileAction::Read, dir, e);
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let entry = entry.map_err(unreadable)?;
        let name = entry.file_name();
        if name.to_str().is_some_and(shard::is_shard_file_name) {
            found.push(entry.path());
        }
    }
    // Directory order is the file system's: sort, so messages are stable.
    found.sort();
    Ok(found)
}

/// The settings as `--set` would give them, for messages.
fn settings_text(settings: &[(String, String)]) -> String {
    if settings.is_empty() {
        return "no --set".into();
    }
    settings
        .iter()
        .map(|(k, v)| format!("--set {k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The first setting whose value differs, as in "n: 100 against 2000" (the
/// last value of a key counts, as when the settings are applied).
fn first_difference(a: &[(String, String)], b: &[(String, String)]) -> String {
    let value = |pairs: &[(String, String)], key: &str| {
        pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map_or("the preset's".to_string(), |(_, v)| v.clone())
    };
    a.iter()
        .chain(b)
        .map(|(k, _)| k)
        .find(|k| value(a, k) != value(b, k))
        .map_or("the order of the settings".into(), |k| {
            format!("{k}: {} against {}", value(b, k), value(a, k))
        })
}

/// Why `other` cannot be merged with `first` (None: same sweep and build).
fn mismatch(first: &ShardFile, other: &ShardFile) -> Option<CliError> {
    let (a, b) = (&first.header, &other.header);
    let f = first.path.display();
    let what = if a.dp_explorer != b.dp_explorer {
        format!(
            "was written by dp-explorer {}, {f} by {}",
            b.dp_explorer, a.dp_explorer
        )
    } else if a.preset != b.preset {
        format!(
            "ran --preset {}, but {f} ran --preset {}",
            b.preset, a.preset
        )
    } else if a.settings != b.settings {
        let (sa, sb) = (settings_text(&a.settings), settings_text(&b.settings));
        let diff = first_difference(&a.settings, &b.settings);
        format!("ran {sb}, but {f} ran {sa} (first difference: {diff})")
    } else if a.shards != b.shards {
        format!(
            "is one of {} shards, but {f} is one of {}",
            b.shards, a.shards
        )
    } else {
        return None;
    };
    Some(CliError::merge_at(
        &other.path,
        format!(
            "{} {what}: merge only the shards of one sweep",
            other.path.display()
        ),
    ))
}

/// Which shares are missing, and how to make them (`given`: the files read).
fn missing_message(missing: &[String], count: usize, given: &[PathBuf]) -> String {
    let mut list = missing
        .iter()
        .take(20)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if missing.len() > 20 {
        list.push_str(", …");
    }
    let given = file_list(given);
    match missing {
        [one] => format!(
            "shard {one} of {count} is missing (given: {given}): run `dp-explorer sweep` with the \
             same settings and --shard {one}/{count}, and give its directory too"
        ),
        _ => format!(
            "shards {list} of {count} are missing (given: {given}): run `dp-explorer sweep` with \
             the same settings and --shard I/{count} for each, and give their directories too"
        ),
    }
}

/// The shards in index order, once each and all N of them.
fn complete(files: Vec<ShardFile>, count: usize) -> Result<Vec<ShardFile>, CliError> {
    let given: Vec<PathBuf> = files.iter().map(|f| f.path.clone()).collect();
    let mut by_index: BTreeMap<usize, ShardFile> = BTreeMap::new();
    for f in files {
        let index = f.header.shard;
        if index >= count {
            return Err(CliError::merge_at(
                &f.path,
                format!(
                    "{} says it is shard {index} of {count}, which does not exist",
                    f.path.display()
                ),
            ));
        }
        if let Some(earlier) = by_index.get(&index) {
            return Err(CliError::merge_at(
                &f.path,
                format!(
                    "shard {index} of {count} is given twice: {} and {}; give each share once",
                    earlier.path.display(),
                    f.path.display()
                ),
            ));
        }
        by_index.insert(index, f);
    }
    let missing: Vec<String> = (0..count)
        .filter(|i| !by_index.contains_key(i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(CliError::MergeRefused {
            file: None,
            message: missing_message(&missing, count, &given),
        });
    }
    Ok(by_index.into_values().collect())
}

/// The shard files of one sweep, checked: same build, preset, settings and N;
/// every share once.
fn check_shards(files: Vec<ShardFile>) -> Result<Vec<ShardFile>, CliError> {
    let first = files.first().ok_or_else(|| CliError::MergeRefused {
        file: None,
        message: "no shard file given: give the --out directories of `dp-explorer sweep \
                  --shard I/N`"
            .into(),
    })?;
    if let Some(problem) = files.iter().find_map(|f| mismatch(first, f)) {
        return Err(problem);
    }
    let own = env!("CARGO_PKG_VERSION");
    if first.header.dp_explorer != own {
        return Err(CliError::merge_at(
            &first.path,
            format!(
                "{} was written by dp-explorer {}, this is {own}: run the shards and the merge \
                 with one build",
                first.path.display(),
                first.header.dp_explorer
            ),
        ));
    }
    let count = first.header.shards;
    complete(files, count)
}

/// Only a sweep that does not split has empty shares (all but shard 0); a file
/// saying otherwise was written by a build whose scenario differs.
fn check_shares(shards: &[ShardFile], splits: bool, name: &str) -> Result<(), CliError> {
    if let Some(odd) = shards.iter().find(|s| s.header.empty && !s.part.is_empty()) {
        return Err(CliError::merge_at(
            &odd.path,
            format!(
                "{} says its share is empty but holds {} bytes of results: run the shards and \
                 the merge with one build",
                odd.path.display(),
                odd.part.len()
            ),
        ));
    }
    match shards
        .iter()
        .find(|s| s.header.empty != (!splits && s.header.shard != 0))
    {
        Some(odd) => Err(CliError::merge_at(
            &odd.path,
            format!(
                "{} does not match this build's {name} sweep (its share is {}empty): run the \
                 shards and the merge with one build",
                odd.path.display(),
                if odd.header.empty { "" } else { "not " }
            ),
        )),
        None => Ok(()),
    }
}

/// The files, for a message about all of them.
fn file_list(paths: &[PathBuf]) -> String {
    let mut list = paths
        .iter()
        .take(8)
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    if paths.len() > 8 {
        list.push_str(&format!(" and {} more", paths.len() - 8));
    }
    list
}

/// A refused merge as a message naming the file at fault (`paths[i]` holds
/// part `i`), or every file when no one file is (a job that no part holds).
fn merge_error(error: RunError, paths: &[PathBuf]) -> CliError {
    let rerun = "rerun its share with the settings of the merge, or give the shards of one sweep";
    let of_all = |message| CliError::MergeRefused {
        file: None,
        message,
    };
    match error {
        RunError::PartRefused { part, message } => match paths.get(part) {
            Some(path) => {
                CliError::merge_at(path, format!("{}: {message}; {rerun}", path.display()))
            }
            None => of_all(format!("shard {part}: {message}")),
        },
        RunError::Incomplete(message) => of_all(format!(
            "{message}: the shard files {} do not hold the whole sweep of the settings their \
             headers claim; rerun the shards with those settings",
            file_list(paths)
        )),
        other => of_all(format!("{}: {other}", file_list(paths))),
    }
}

/// The shard files under `dirs`, checked and merged: the view one `sweep` of
/// their settings gives, or a message naming the file at fault.
pub struct Merged {
    pub view: scenarios::View,
    pub info: &'static scenarios::ScenarioInfo,
    /// The preset's canonical name, the settings and N, as the headers say.
    pub preset: &'static str,
    pub settings: Vec<(String, String)>,
    pub shards: usize,
}

/// Reads, checks and merges the shard files under `dirs` (nothing written).
pub fn merged_view(dirs: &[PathBuf]) -> Result<Merged, CliError> {
    let files = shard_paths(dirs)?
        .iter()
        .map(|p| shard::read(p))
        .collect::<Result<Vec<_>, _>>()?;
    merge_files(files)
}

/// Checks and merges shard files already read ([`shard::read`], or
/// [`shard::decode`] of bytes in memory): what [`merged_view`] does after
/// reading them.
pub fn merge_files(files: Vec<ShardFile>) -> Result<Merged, CliError> {
    let shards = check_shards(files)?;
    let Some(first) = shards.first() else {
        return Err(CliError::MergeRefused {
            file: None,
            message: "no shard file given".into(),
        });
    };
    let header = first.header.clone();
    let (scenario, name) = scenarios::by_preset(&header.preset)
        .map_err(|e| CliError::file(&first.path, format!(": {e}")))?;
    let info = scenario.info();
    check_shares(&shards, info.splits, name)?;
    let pairs = scenarios::borrowed(&header.settings);
    let (paths, parts): (Vec<PathBuf>, Vec<Vec<u8>>) = shards
        .into_iter()
        .filter(|s| !s.header.empty)
        .map(|s| (s.path, s.part))
        .unzip();
    // Settings the headers claim that do not check are refused as the merge
    // of those files.
    let configured = scenario
        .configure(name, &pairs)
        .map_err(|e| merge_error(RunError::from(e), &paths))?;
    let view = scenarios::merge_judged(configured.as_ref(), &parts, Coverage::Whole)
        .map_err(|e| merge_error(e, &paths))?;
    Ok(Merged {
        view,
        info,
        preset: name,
        settings: header.settings,
        shards: header.shards,
    })
}

pub fn run(args: &MergeArgs) -> Result<String, CliError> {
    let merged = merged_view(&args.dirs)?;
    create_dir(&args.out)?;
    let count = merged.shards;
    let mut out = merged.view.summary.clone();
    out.push_str(&scenarios::claims::summary(&merged.view.claims));
    out.push_str(&scenarios::explain::delta_warnings(&merged.view.privacy));
    out.push_str(&format!(
        "merged {count} shard{} of --preset {} with {}\n",
        if count == 1 { "" } else { "s" },
        merged.preset,
        settings_text(&merged.settings)
    ));
    for p in write_view(&args.out, merged.info, &merged.view)? {
        out.push_str(&format!("wrote {}\n", p.display()));
    }
    Ok(out)
}
