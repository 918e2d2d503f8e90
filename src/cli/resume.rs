//! A long `sweep` that survives being stopped: while it runs, each job it
//! finishes is kept in OUT/.jobs/ (one file per job, written through a
//! temporary name so that a kill never leaves a half-written file under a
//! kept name), beside `sweep.json`, the settings it runs. `sweep --resume`
//! with the same settings and OUT reads them back, computes only the other
//! jobs and writes exactly the files of an uninterrupted sweep (the
//! scenario's merge beside the kept results, as the page's result cache
//! does). The folder is removed once the sweep's files are written.
//!
//! A job file is one line of JSON (format, version, the job's number, the
//! length of its results and an FNV-1a digest of that line and the results),
//! a newline, then the job's results as the scenario keeps them
//! ([`Configured::keep_finished`]): stamped, like a shard's part, with the
//! job's fingerprint of every setting, which [`Configured::join_kept`] checks
//! against the settings resumed. A scenario whose jobs cannot be skipped
//! ([`Configured::keeps_jobs`] false) keeps nothing: `--resume` computes it
//! whole.

use super::errors::{CliError, FileAction};
use super::files::create_dir;
use crate::scenarios::{self, Configured, Kept, Run, RunError};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The folder of kept jobs, inside OUT.
pub const DIR: &str = ".jobs";
/// The settings of the sweep whose jobs the folder keeps.
const MANIFEST: &str = "sweep.json";
const MANIFEST_FORMAT: &str = "dp-explorer kept jobs";
const JOB_FORMAT: &str = "dp-explorer kept job";
/// Raised when the layout of the manifest or of a job file changes.
const VERSION: u32 = 1;
/// How often a running sweep looks for newly finished jobs.
const CHECK_EVERY: Duration = Duration::from_millis(50);

/// `sweep.json`: what a resumed sweep must match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    format: String,
    version: u32,
    dp_explorer: String,
    /// The preset's canonical name.
    preset: String,
    /// Every setting of the checked config as text ([`Configured::settings`]).
    settings: Vec<(String, String)>,
}

/// The first line of a job file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JobHeader {
    format: String,
    version: u32,
    job: usize,
    part_bytes: usize,
    /// FNV-1a of this line (with `digest` empty), a newline and the results.
    digest: String,
}

/// The file of kept job `job`.
fn job_file_name(job: usize) -> String {
    format!("job-{job}.part")
}

/// The job a kept file's name gives (None: not a job file).
fn job_of_file_name(name: &str) -> Option<usize> {
    name.strip_prefix("job-")?
        .strip_suffix(".part")?
        .parse()
        .ok()
}

fn json<T: Serialize>(value: &T) -> Result<Vec<u8>, CliError> {
    serde_json::to_vec(value).map_err(|e| CliError::Internal(e.to_string()))
}

fn digest(header: &JobHeader, part: &[u8]) -> Result<String, CliError> {
    let blank = JobHeader {
        digest: String::new(),
        ..header.clone()
    };
    let hash = scenarios::fnv1a64(scenarios::FNV_START, &json(&blank)?);
    let hash = scenarios::fnv1a64(hash, b"\n");
    Ok(format!("{:016x}", scenarios::fnv1a64(hash, part)))
}

/// Writes `bytes` to `dir/name` through a temporary name and a rename: a kill
/// leaves the old file or the new one, never part of one.
fn write_atomically(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), CliError> {
    let path = dir.join(name);
    let partial = dir.join(format!("{name}.tmp"));
    std::fs::write(&partial, bytes).map_err(|e| CliError::io(FileAction::Write, &partial, e))?;
    std::fs::rename(&partial, &path).map_err(|e| CliError::io(FileAction::Write, &path, e))
}

/// A job file's bytes, checked: format, version, length, digest and name.
fn decode_job(path: &Path, job: usize, bytes: &[u8]) -> Result<Vec<u8>, CliError> {
    let damaged = |why: &str| {
        CliError::file(
            path,
            format!(" is damaged ({why}): remove it, and `sweep --resume` computes that job again"),
        )
    };
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| damaged("no header line"))?;
    let header: JobHeader = serde_json::from_slice(&bytes[..end])
        .map_err(|_| damaged("its first line is not its header"))?;
    if header.format != JOB_FORMAT || header.version != VERSION {
        return Err(damaged("not a kept job of this dp-explorer"));
    }
    let part = &bytes[end + 1..];
    if part.len() != header.part_bytes {
        return Err(damaged("truncated"));
    }
    if digest(&header, part)? != header.digest {
        return Err(damaged("its results do not match its digest"));
    }
    if header.job != job {
        return Err(damaged("its name and its header name other jobs"));
    }
    Ok(part.to_vec())
}

/// The first difference between the kept sweep's manifest and this one's, as
/// "n: 2000 in the kept jobs, 3000 now" (None: the same sweep).
fn difference(kept: &Manifest, now: &Manifest) -> Option<String> {
    if kept.dp_explorer != now.dp_explorer {
        return Some(format!(
            "they were computed by dp-explorer {}, this is {}",
            kept.dp_explorer, now.dp_explorer
        ));
    }
    if kept.preset != now.preset {
        return Some(format!(
            "--preset: {} in the kept jobs, {} now",
            kept.preset, now.preset
        ));
    }
    let value = |m: &Manifest, key: &str| {
        m.settings
            .iter()
            .find(|(k, _)| k == key)
            .map_or("(none)".to_string(), |(_, v)| v.clone())
    };
    kept.settings
        .iter()
        .chain(&now.settings)
        .map(|(k, _)| k)
        .find(|k| value(kept, k) != value(now, k))
        .map(|k| {
            format!(
                "{k}: {} in the kept jobs, {} now",
                value(kept, k),
                value(now, k)
            )
        })
}

/// The kept job files in `dir`, by job number.
fn job_files(dir: &Path) -> Result<Vec<(usize, PathBuf)>, CliError> {
    let unreadable = |e| CliError::io(FileAction::Read, dir, e);
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let entry = entry.map_err(unreadable)?;
        if let Some(job) = entry.file_name().to_str().and_then(job_of_file_name) {
            found.push((job, entry.path()));
        }
    }
    found.sort();
    Ok(found)
}

/// What a sweep keeps as it runs, and where.
pub struct Keeper<'a> {
    configured: &'a dyn Configured,
    dir: PathBuf,
    /// Whether the scenario's jobs can be kept (else nothing is written).
    active: bool,
}

/// A sweep about to run: where it keeps its jobs, and what it kept before.
pub struct Prepared<'a> {
    pub keeper: Keeper<'a>,
    /// The jobs kept by the interrupted sweep (`--resume`), joined.
    pub kept: Kept,
    /// Whether the scenario keeps jobs at all.
    pub keeps_jobs: bool,
}

/// Sets up OUT/.jobs for a sweep of these settings. With `resume`, reads the
/// jobs kept there (refusing other settings, naming the first that differs,
/// and a damaged job file, naming it); without, refuses a folder that holds
/// kept jobs, so that an interrupted sweep's work is never thrown away or
/// mixed in unasked.
pub fn prepare<'a>(
    configured: &'a dyn Configured,
    out: &Path,
    resume: bool,
) -> Result<Prepared<'a>, CliError> {
    let dir = out.join(DIR);
    let now = Manifest {
        format: MANIFEST_FORMAT.into(),
        version: VERSION,
        dp_explorer: env!("CARGO_PKG_VERSION").into(),
        preset: configured.preset().into(),
        settings: configured
            .settings()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    };
    let keeps_jobs = configured.keeps_jobs();
    let mut kept = Kept::default();
    if dir.is_dir() {
        let files = job_files(&dir)?;
        let manifest_path = dir.join(MANIFEST);
        let manifest = match std::fs::read(&manifest_path) {
            Ok(bytes) => Some(
                serde_json::from_slice::<Manifest>(&bytes)
                    .ok()
                    .filter(|m| m.format == MANIFEST_FORMAT && m.version == VERSION)
                    .ok_or_else(|| {
                        CliError::file(
                            &manifest_path,
                            format!(
                                " is damaged (not the settings of a sweep of this dp-explorer): \
                                 remove {} to start over",
                                dir.display()
                            ),
                        )
                    })?,
            ),
            Err(_) => None,
        };
        if !resume {
            if !files.is_empty() {
                let whose = match manifest.as_ref().and_then(|m| difference(m, &now)) {
                    None => "these settings".to_string(),
                    Some(diff) => format!("other settings ({diff})"),
                };
                return Err(CliError::file(
                    &dir,
                    format!(
                        " holds {} finished jobs of an interrupted sweep of {whose}: add --resume \
                         to continue it, or remove {} to start over",
                        files.len(),
                        dir.display()
                    ),
                ));
            }
        } else if !files.is_empty() {
            let Some(manifest) = manifest else {
                return Err(CliError::file(
                    &manifest_path,
                    format!(
                        " is missing, so the kept jobs' settings are unknown: remove {} to start \
                         over",
                        dir.display()
                    ),
                ));
            };
            if let Some(diff) = difference(&manifest, &now) {
                return Err(CliError::argument(
                    "--resume",
                    format!(
                        "{} keeps jobs of a sweep of other settings ({diff}): resume with the \
                         settings it was started with, or remove {} to start over",
                        dir.display(),
                        dir.display()
                    ),
                ));
            }
            let mut parts = Vec::with_capacity(files.len());
            for (job, path) in &files {
                let bytes =
                    std::fs::read(path).map_err(|e| CliError::io(FileAction::Read, path, e))?;
                parts.push(decode_job(path, *job, &bytes)?);
            }
            kept = configured.join_kept(&parts).map_err(|e| match e {
                RunError::PartRefused { part, message } => CliError::file(
                    &files[part].1,
                    format!(
                        " is refused ({message}): remove it, and `sweep --resume` computes \
                             that job again"
                    ),
                ),
                other => CliError::Run(other),
            })?;
        }
        // What is not kept now (an empty folder's, temporary files) is dropped.
        if kept.jobs.is_empty() {
            remove(&dir)?;
        } else {
            for entry in
                std::fs::read_dir(&dir).map_err(|e| CliError::io(FileAction::Read, &dir, e))?
            {
                let path = entry
                    .map_err(|e| CliError::io(FileAction::Read, &dir, e))?
                    .path();
                if path.extension().is_some_and(|e| e == "tmp") {
                    let _ = std::fs::remove_file(&path);
                }
            }
        }
    }
    if keeps_jobs {
        create_dir(&dir)?;
        write_atomically(&dir, MANIFEST, &json(&now)?)?;
    }
    Ok(Prepared {
        keeper: Keeper {
            configured,
            dir,
            active: keeps_jobs,
        },
        kept,
        keeps_jobs,
    })
}

fn remove(dir: &Path) -> Result<(), CliError> {
    match std::fs::remove_dir_all(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(CliError::io(FileAction::Write, dir, e))
        }
        _ => Ok(()),
    }
}

impl Keeper<'_> {
    /// Keeps the jobs `part` holds finished that `known` does not (and adds
    /// them to it).
    fn keep(&self, part: &[u8], known: &mut Vec<usize>) -> Result<(), CliError> {
        let kept = self.configured.keep_finished(part, known)?;
        for Kept { part, jobs } in kept {
            for &job in &jobs {
                let mut header = JobHeader {
                    format: JOB_FORMAT.into(),
                    version: VERSION,
                    job,
                    part_bytes: part.len(),
                    digest: String::new(),
                };
                header.digest = digest(&header, &part)?;
                let mut bytes = json(&header)?;
                bytes.push(b'\n');
                bytes.extend_from_slice(&part);
                write_atomically(&self.dir, &job_file_name(job), &bytes)?;
            }
            known.extend(jobs);
        }
        Ok(())
    }

    /// Steps `run` to its end, keeping each job as it finishes (looked for
    /// every 50 ms and at the end).
    pub fn run_to_end(&self, run: &mut dyn Run) -> Result<(), CliError> {
        let mut known = Vec::new();
        let mut checked = Instant::now();
        loop {
            let done = run.step()?;
            if self.active && (done || checked.elapsed() >= CHECK_EVERY) {
                self.keep(&run.part(), &mut known)?;
                checked = Instant::now();
            }
            if done {
                return Ok(());
            }
        }
    }

    /// The sweep's files are written: the kept jobs are no longer needed.
    pub fn finish(self) -> Result<(), CliError> {
        remove(&self.dir)
    }
}

/// The number of jobs a part's stamps list: what a shard computed.
pub fn jobs_in(part: &[u8]) -> Result<usize, CliError> {
    Ok(scenarios::stamps_of(part)?.jobs.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_file_names_round_trip() {
        assert_eq!(job_of_file_name(&job_file_name(17)), Some(17));
        for other in [
            "sweep.json",
            "job-3.part.tmp",
            "job-x.part",
            "shard-0-of-1.part",
        ] {
            assert_eq!(job_of_file_name(other), None, "{other}");
        }
    }

    #[test]
    fn a_job_file_reads_back_and_damage_is_refused() {
        let part = vec![1u8, b'\n', 255, 0];
        let mut header = JobHeader {
            format: JOB_FORMAT.into(),
            version: VERSION,
            job: 4,
            part_bytes: part.len(),
            digest: String::new(),
        };
        header.digest = digest(&header, &part).unwrap();
        let mut bytes = json(&header).unwrap();
        bytes.push(b'\n');
        bytes.extend_from_slice(&part);
        let path = Path::new("job-4.part");
        assert_eq!(decode_job(path, 4, &bytes).unwrap(), part);
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        let message = decode_job(path, 4, &flipped).unwrap_err().to_string();
        assert!(message.starts_with("job-4.part is damaged"), "{message}");
        assert!(decode_job(path, 4, &bytes[..bytes.len() - 1]).is_err());
        assert!(decode_job(path, 5, &bytes).is_err());
    }

    #[test]
    fn the_first_differing_setting_is_named() {
        let manifest = |preset: &str, n: &str| Manifest {
            format: MANIFEST_FORMAT.into(),
            version: VERSION,
            dp_explorer: "1".into(),
            preset: preset.into(),
            settings: vec![("n".into(), n.into()), ("seed".into(), "1".into())],
        };
        assert_eq!(difference(&manifest("a", "5"), &manifest("a", "5")), None);
        assert_eq!(
            difference(&manifest("a", "5"), &manifest("a", "6")).unwrap(),
            "n: 5 in the kept jobs, 6 now"
        );
        assert!(difference(&manifest("a", "5"), &manifest("b", "5"))
            .unwrap()
            .starts_with("--preset"));
    }
}
