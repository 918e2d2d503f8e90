//! A sweep spread over machines: `sweep --shard I/N` runs one share of the
//! sweep and writes it as one shard file; `merge` (src/cli/merge.rs) reads the
//! N files and joins them with the scenario's own merge, the one `--threads`
//! and the page's worker pool use, so the files are those of one run.
//!
//! A shard file is one line of JSON (what is needed to merge: the preset, the
//! settings as (key, text) pairs, I, N, the format version and the build, and
//! a digest of all that and the part together), a newline, then the share's
//! part bytes exactly as [`Run::part`] gives them. The settings travel in the
//! file so that `merge` needs no `--config` or `--set`, and so that shards of
//! different sweeps cannot be joined.
//!
//! What is checked where: the digest (FNV-1a over the header, settings and
//! shard count included, and the part) catches a damaged or truncated copy
//! and a header edited by hand. It is unkeyed, so whoever edits a header can
//! recompute it: what refuses a share relabelled with other settings (another
//! seed, preset, ε or shard count) is the part itself, which names the share
//! it was computed as and, per job, a fingerprint of every setting it was
//! computed from; the scenario's merge compares them with the plan of the
//! settings the header claims and requires every job of it exactly once
//! ([`crate::scenarios::decode_parts`]).

use super::errors::{CliError, FileAction};
use crate::scenarios::{self, Configured, Run, Shard};
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Most shards `--shard I/N` takes: far beyond any machine count that pays
/// off, small enough that a typo (`--shard 0/40000`) is caught.
pub const MAX_SHARDS: usize = 1024;
/// What the header's `format` says; anything else is not a shard file.
const FORMAT: &str = "dp-explorer shard";
/// Raised when the layout of the header or of the part changes (2: the
/// digest covers the header, the parts carry their jobs' fingerprints).
const FORMAT_VERSION: u32 = 2;
/// Largest shard file read: a share's results are kilobytes to megabytes, so
/// anything larger is not a shard file.
const MAX_SHARD_FILE_BYTES: u64 = 1 << 30;

/// `--shard I/N`: share I (counted from 0) of N.
///
/// The message does not repeat the flag: clap puts it before the message.
pub fn parse_shard(text: &str) -> Result<Shard, CliError> {
    let refused = |message: String| CliError::argument("--shard", message);
    let usage = "expected I/N, share I of N counted from 0 (e.g. 0/4, 1/4, 2/4, 3/4)";
    let (i, n) = text
        .split_once('/')
        .ok_or_else(|| refused(format!("{usage}; there is no '/'")))?;
    let whole = |s: &str, what: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| refused(format!("{usage}; {what} must be a whole number")))
    };
    let (index, count) = (whole(i, "I")?, whole(n, "N")?);
    if count == 0 || count > MAX_SHARDS {
        return Err(refused(format!(
            "N (the number of shares) must be between 1 and {MAX_SHARDS}"
        )));
    }
    if index >= count {
        return Err(refused(format!(
            "I must be below N: the {count} shares are numbered 0 to {}",
            count - 1
        )));
    }
    Ok(Shard { index, count })
}

/// The file a shard writes into its `--out` directory.
pub fn file_name(shard: Shard) -> String {
    format!("shard-{}-of-{}.part", shard.index, shard.count)
}

/// Whether a file name is one [`file_name`] gives (the `merge` directories
/// may hold other files too).
pub fn is_shard_file_name(name: &str) -> bool {
    name.starts_with("shard-") && name.ends_with(".part")
}

/// The first line of a shard file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    pub format: String,
    pub version: u32,
    /// The version of the build that ran the share: runs of different builds
    /// need not give the same numbers.
    pub dp_explorer: String,
    /// The preset's canonical name.
    pub preset: String,
    /// The settings applied to the preset, in order (`--config`, `--set`, `--seed`).
    pub settings: Vec<(String, String)>,
    pub shard: usize,
    pub shards: usize,
    /// A share with no runs: a shard other than 0 of a sweep that does not split.
    pub empty: bool,
    /// Length of the part: a truncated copy is named as such.
    pub part_bytes: usize,
    /// FNV-1a of this header (with `digest` empty), a newline and the part:
    /// a damaged copy or an edited header is refused instead of merged.
    pub digest: String,
}

/// A shard file as read.
#[derive(Debug)]
pub struct ShardFile {
    pub path: PathBuf,
    pub header: Header,
    pub part: Vec<u8>,
}

/// The digest of a header and its part: 64-bit FNV-1a over the header's JSON
/// with `digest` empty, a newline and the part (not a defence against a
/// forger, who can recompute it; see the module's doc).
pub fn digest(header: &Header, part: &[u8]) -> Result<String, CliError> {
    let blank = Header {
        digest: String::new(),
        ..header.clone()
    };
    let mut hash = scenarios::fnv1a64(scenarios::FNV_START, &header_json(&blank)?);
    hash = scenarios::fnv1a64(hash, b"\n");
    Ok(format!("{:016x}", scenarios::fnv1a64(hash, part)))
}

fn header_for(
    preset: &str,
    pairs: &[(&str, &str)],
    shard: Shard,
    part: &[u8],
    empty: bool,
) -> Result<Header, CliError> {
    let mut header = Header {
        format: FORMAT.into(),
        version: FORMAT_VERSION,
        dp_explorer: env!("CARGO_PKG_VERSION").into(),
        preset: preset.into(),
        settings: pairs
            .iter()
            .map(|&(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        shard: shard.index,
        shards: shard.count,
        empty,
        part_bytes: part.len(),
        digest: String::new(),
    };
    header.digest = digest(&header, part)?;
    Ok(header)
}

/// The bytes of a shard file.
pub fn encode(header: &Header, part: &[u8]) -> Result<Vec<u8>, CliError> {
    // serde_json escapes newlines inside strings, so the header is one line.
    let mut bytes = header_json(header)?;
    bytes.push(b'\n');
    bytes.extend_from_slice(part);
    Ok(bytes)
}

fn header_json(header: &Header) -> Result<Vec<u8>, CliError> {
    serde_json::to_vec(header).map_err(|e| CliError::Internal(e.to_string()))
}

fn not_a_shard(path: &Path, why: &str) -> CliError {
    CliError::file(
        path,
        format!(" is not a shard file of `dp-explorer sweep --shard` ({why})"),
    )
}

/// A shard file's bytes, checked: format, version, length and digest.
pub fn decode(path: &Path, bytes: Vec<u8>) -> Result<ShardFile, CliError> {
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| not_a_shard(path, "no header line"))?;
    let value: serde_json::Value = serde_json::from_slice(&bytes[..end])
        .map_err(|_| not_a_shard(path, "its first line is not JSON"))?;
    if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(not_a_shard(path, "no \"format\": \"dp-explorer shard\""));
    }
    let version = value.get("version").and_then(|v| v.as_u64());
    if version != Some(u64::from(FORMAT_VERSION)) {
        return Err(CliError::file(
            path,
            format!(
                " is a shard file of format version {}; this dp-explorer reads version \
                 {FORMAT_VERSION}: run the shards and the merge with one build",
                version.map_or("(none)".into(), |v| v.to_string())
            ),
        ));
    }
    let header: Header = serde_json::from_value(value)
        .map_err(|e| not_a_shard(path, &format!("bad header: {e}")))?;
    let part = bytes[end + 1..].to_vec();
    let rerun = format!(
        "copy it again or rerun shard {} of {}",
        header.shard, header.shards
    );
    if part.len() != header.part_bytes {
        return Err(CliError::file(
            path,
            format!(
                " is truncated: {} bytes of results where its header says {}; {rerun}",
                part.len(),
                header.part_bytes
            ),
        ));
    }
    if digest(&header, &part)? != header.digest {
        return Err(CliError::file(
            path,
            " is damaged or was edited: its header and results do not match the digest in \
             its header (so its shard number may be wrong too); copy it again or rerun its share",
        ));
    }
    Ok(ShardFile {
        path: path.to_path_buf(),
        header,
        part,
    })
}

/// Reads and checks one shard file.
pub fn read(path: &Path) -> Result<ShardFile, CliError> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SHARD_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| CliError::io(FileAction::Read, path, e))?;
    if bytes.len() as u64 > MAX_SHARD_FILE_BYTES {
        return Err(not_a_shard(path, "larger than 1 GB"));
    }
    decode(path, bytes)
}

/// Writes the shard file through a temporary name, so that a shard killed
/// mid-write (a job's time limit) leaves no file that `merge` would read.
fn write(dir: &Path, header: &Header, part: &[u8]) -> Result<PathBuf, CliError> {
    let shard = Shard {
        index: header.shard,
        count: header.shards,
    };
    let path = dir.join(file_name(shard));
    let partial = dir.join(format!("{}.tmp", file_name(shard)));
    std::fs::write(&partial, encode(header, part)?)
        .map_err(|e| CliError::io(FileAction::Write, &partial, e))?;
    std::fs::rename(&partial, &path).map_err(|e| CliError::io(FileAction::Write, &path, e))?;
    Ok(path)
}

/// The part of share `shard`, and whether it is empty. A sweep that does not
/// split runs whole in shard 0 (as in the page's pool) and leaves the others
/// empty, so `merge` sees exactly one part, as for one worker.
fn run_part(configured: &dyn Configured, shard: Shard) -> Result<Option<Vec<u8>>, CliError> {
    let splits = configured.info().splits;
    if !splits && shard.index != 0 {
        return Ok(None);
    }
    let share = if splits { shard } else { Shard::WHOLE };
    let mut run: Box<dyn Run> = configured.start(share)?;
    scenarios::run_to_end(run.as_mut())?;
    Ok(Some(run.part()))
}

/// `sweep --shard I/N`: runs share I of N of `configured` and writes its
/// shard file into `out`; its header keeps the settings as given (`pairs`),
/// which `merge` configures again.
pub fn run_share(
    configured: &dyn Configured,
    pairs: &[(&str, &str)],
    shard: Shard,
    out: &Path,
) -> Result<String, CliError> {
    super::files::create_dir(out)?;
    let preset = configured.preset();
    let started = Instant::now();
    let part = run_part(configured, shard)?;
    let seconds = started.elapsed().as_secs_f64();
    let (index, count) = (shard.index, shard.count);
    let mut text = match &part {
        Some(_) => format!("shard {index} of {count} took {seconds:.3} s\n"),
        None => format!(
            "shard {index} of {count} is empty: a {preset} sweep does not split, shard 0 runs all of it\n"
        ),
    };
    let bytes = part.as_deref().unwrap_or(&[]);
    let header = header_for(preset, pairs, shard, bytes, part.is_none())?;
    let path = write(out, &header, bytes)?;
    text.push_str(&format!(
        "wrote {}\njoin the {count} shards with: dp-explorer merge DIR... --out OUT\n",
        path.display()
    ));
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_shares_and_refuses_what_is_not_one() {
        assert_eq!(parse_shard("2/4").unwrap(), Shard { index: 2, count: 4 });
        assert_eq!(parse_shard("0/1").unwrap(), Shard::WHOLE);
        for bad in ["3/2", "4/4", "a/b", "0/0", "1", "-1/2", "0/2000", ""] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
        assert!(parse_shard("3/2")
            .unwrap_err()
            .to_string()
            .contains("0 to 1"));
    }

    #[test]
    fn a_shard_file_reads_back_and_damage_is_refused() {
        let part = vec![0u8, 10, 255, b'\n', 7];
        let pairs = [("n", "100"), ("label", "a\nb")];
        let header = header_for(
            "some-preset",
            &pairs,
            Shard { index: 1, count: 3 },
            &part,
            false,
        )
        .unwrap();
        let bytes = encode(&header, &part).unwrap();
        let path = Path::new("x.part");
        let read = decode(path, bytes.clone()).unwrap();
        assert_eq!((read.header, read.part), (header, part));
        let truncated = bytes[..bytes.len() - 1].to_vec();
        assert!(decode(path, truncated)
            .unwrap_err()
            .to_string()
            .contains("truncated"));
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert!(decode(path, flipped)
            .unwrap_err()
            .to_string()
            .contains("damaged"));
        // The header is digested too: an edited setting or shard count is refused.
        let end = bytes.iter().position(|&b| b == b'\n').unwrap();
        let line = std::str::from_utf8(&bytes[..end]).unwrap();
        for (from, to) in [("\"100\"", "\"200\""), ("\"shards\":3", "\"shards\":2")] {
            let mut edited = line.replacen(from, to, 1).into_bytes();
            assert_ne!(edited, line.as_bytes());
            edited.extend_from_slice(&bytes[end..]);
            assert!(decode(path, edited)
                .unwrap_err()
                .to_string()
                .contains("was edited"));
        }
        assert!(decode(path, b"results\n1,2\n".to_vec())
            .unwrap_err()
            .to_string()
            .contains("not a shard file"));
    }
}
