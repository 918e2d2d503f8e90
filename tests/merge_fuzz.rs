//! A merge fuzz over every scenario: the shard files of tiny sweeps (made
//! once, in memory and a scratch directory), damaged at random (byte flips,
//! truncation, header edits of the settings, shard count, shard index, seed,
//! preset, emptiness or build with the digest recomputed or not, swapped,
//! duplicated or missing files, a share of another seed or another shard count
//! relabelled as one of this sweep, a part replaced by other bytes under a
//! recomputed digest), then merged as `dp-explorer merge` does once it has
//! read the files (the damaged bytes stay in memory). Each merge
//! must either give exactly the view a single sweep of the settings it claims
//! gives (files and charts), or be refused with a message naming the damaged
//! file (any file given, for a share left out). It prints how many merges of
//! each kind it tried and how each ended.
// Native only: the CLI (`dp_explorer::cli`) is not built for wasm32 (the wasm tests' cargo build covers every target).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use dp_explorer::cli::merge::merge_files;
use dp_explorer::cli::shard::{self, Header, ShardFile};
use dp_explorer::cli::sweep::{self, SweepArgs};
use dp_explorer::scenarios::{self, Shard, SCENARIOS};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Damaged merges per scenario (5 scenarios: 2,000 in all).
const MERGES_PER_SCENARIO: usize = 400;
/// The largest shard count made.
const MAX_SHARDS: usize = 3;

/// Each scenario's tiny sweep (its declared test size, `ScenarioInfo::test_size`)
/// over two ε, so that its shards hold different runs; and a second preset of
/// the same scenario (the first other one).
fn sweeps() -> Vec<(&'static str, &'static str, Vec<String>)> {
    SCENARIOS
        .iter()
        .map(|s| {
            let info = s.info();
            let size = info.test_size;
            let other = info.presets.iter().find(|p| p.name != size.preset).unwrap();
            let mut set: Vec<String> = size
                .settings
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            set.push("epsilons=1,4".into());
            (size.preset, other.name, set)
        })
        .collect()
}

/// splitmix64: a small seeded generator, so every run of the test damages
/// the same way.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// An empty scratch directory for one test of this file.
fn scratch(name: &str) -> PathBuf {
    common::scratch("merge_fuzz", name)
}

/// The bytes of shard I of N of a sweep (`seed`: `--seed`).
fn share_bytes(preset: &str, set: &[&str], seed: u64, shard: Shard, dir: &Path) -> Vec<u8> {
    let out = dir.join(format!("{preset}-{seed}-{}-{}", shard.index, shard.count));
    let args = SweepArgs {
        preset: Some(preset.into()),
        config: None,
        set: set.iter().map(|s| s.to_string()).collect(),
        seed: Some(seed),
        out: out.clone(),
        threads: None,
        shard: Some(shard),
        resume: false,
    };
    sweep::run(&args).unwrap_or_else(|e| panic!("{preset} {shard:?}: {e}"));
    std::fs::read(out.join(shard::file_name(shard))).unwrap()
}

fn read(bytes: &[u8]) -> ShardFile {
    shard::decode(Path::new("memory"), bytes.to_vec()).unwrap()
}

/// A shard file with its header edited and its digest recomputed, as a
/// careful relabelling would.
fn relabel(bytes: &[u8], edit: impl FnOnce(&mut Header)) -> Vec<u8> {
    let file = read(bytes);
    let mut header = file.header;
    edit(&mut header);
    header.part_bytes = file.part.len();
    header.digest = shard::digest(&header, &file.part).unwrap();
    shard::encode(&header, &file.part).unwrap()
}

/// The same with another part (its length and digest recomputed).
fn with_part(bytes: &[u8], part: Vec<u8>) -> Vec<u8> {
    let mut header = read(bytes).header;
    header.part_bytes = part.len();
    header.digest = shard::digest(&header, &part).unwrap();
    shard::encode(&header, &part).unwrap()
}

/// The view a single sweep gives, as compared: every file's text and the
/// charts (as JSON: NaN compares equal to itself there).
fn fingerprint(view: &scenarios::View) -> (Vec<(String, String)>, String) {
    (
        view.files
            .iter()
            .map(|f| (f.name.to_string(), f.text.clone()))
            .collect(),
        serde_json::to_string(&view.charts).unwrap(),
    )
}

type ViewKey = (Vec<(String, String)>, String);
/// The single sweeps' views by (preset, settings).
type Singles = BTreeMap<(String, Vec<(String, String)>), ViewKey>;

/// The single sweep of a preset and settings, once per (preset, settings).
fn single_view(cache: &mut Singles, preset: &str, settings: &[(String, String)]) -> ViewKey {
    cache
        .entry((preset.to_string(), settings.to_vec()))
        .or_insert_with(|| {
            let pairs = scenarios::borrowed(settings);
            let (_, mut run) = scenarios::start(preset, &pairs, Shard::WHOLE).unwrap();
            scenarios::run_to_end(run.as_mut()).unwrap();
            fingerprint(&run.view())
        })
        .clone()
}

/// The damage done to one merge's files.
const KINDS: &[&str] = &[
    "byte flips",
    "truncation",
    "settings edited, digest kept",
    "settings edited, digest recomputed",
    "shard count edited (all files)",
    "shard index edited",
    "seed relabelled (all files)",
    "preset relabelled (all files)",
    "emptiness or build edited",
    "files swapped",
    "file duplicated",
    "file missing",
    "share of another seed relabelled",
    "share of another shard count relabelled",
    "part replaced, digest recomputed",
    "no damage",
];

/// A random edit of the settings: a value changed, a setting added or one
/// removed (sometimes leaving the config as it was).
fn edit_settings(rng: &mut Rng, settings: &mut Vec<(String, String)>, fields: &[&str]) {
    match rng.below(4) {
        0 if !settings.is_empty() => {
            let i = rng.below(settings.len());
            let values = ["1", "2", "3", "2,8", "0.5", "none", "x", "10", "-1", ""];
            settings[i].1 = rng.pick(&values).to_string();
        }
        1 if !settings.is_empty() => {
            settings.remove(rng.below(settings.len()));
        }
        2 => {
            let values = ["1", "4", "20", "1,2", "on", "off"];
            let key = rng.pick(fields).to_string();
            settings.push((key, rng.pick(&values).to_string()));
        }
        _ => {
            // The seed, as `--seed` gives it.
            settings.push(("seed".into(), rng.below(4).to_string()));
        }
    }
}

struct Shares {
    preset: &'static str,
    other_preset: &'static str,
    fields: Vec<&'static str>,
    /// [N-1][I]: shard I of N of the sweep, and of the sweep with another seed.
    main: Vec<Vec<Vec<u8>>>,
    other_seed: Vec<Vec<Vec<u8>>>,
}

#[derive(Default)]
struct Tally {
    tried: usize,
    identical: usize,
    refused: usize,
}

/// The files of one damaged merge: the shares of a sweep, damaged; which
/// files the damage touched (a refusal must name one of them; empty: any file
/// given); a file given twice.
struct Damaged {
    files: Vec<Vec<u8>>,
    culprits: Vec<usize>,
    extra: Option<Vec<u8>>,
}

/// The shares of the sweep of `count` shards with the damage `kind`.
fn damage(kind: &str, shares: &Shares, rng: &mut Rng, count: usize) -> Damaged {
    let mut d = Damaged {
        files: shares.main[count - 1].clone(),
        culprits: Vec::new(),
        extra: None,
    };
    let i = rng.below(count);
    match kind {
        "byte flips" | "truncation" | "part replaced, digest recomputed" => {
            damage_bytes(kind, rng, &mut d, i)
        }
        "files swapped"
        | "file duplicated"
        | "file missing"
        | "share of another seed relabelled"
        | "share of another shard count relabelled" => damage_files(kind, shares, rng, &mut d, i),
        "no damage" => {}
        _ => damage_header(kind, shares, rng, &mut d, i),
    }
    d
}

/// Damage to the bytes of file `i`: flips, a cut, or its part replaced under
/// a recomputed digest.
fn damage_bytes(kind: &str, rng: &mut Rng, d: &mut Damaged, i: usize) {
    let file = &mut d.files[i];
    match kind {
        "byte flips" => {
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(file.len());
                file[at] ^= 1 + rng.below(255) as u8;
            }
        }
        "truncation" => {
            let len = rng.below(file.len());
            file.truncate(len);
        }
        _ => {
            let part = read(file).part;
            let new_part = match rng.below(3) {
                0 => part[..rng.below(part.len().max(1))].to_vec(),
                1 => (0..rng.below(64)).map(|_| rng.next() as u8).collect(),
                _ => {
                    let mut p = part.clone();
                    p.extend((0..1 + rng.below(8)).map(|_| rng.next() as u8));
                    p
                }
            };
            *file = with_part(file, new_part);
        }
    }
    d.culprits.push(i);
}

/// Edits of the headers (of file `i`, or of all files), the digest kept or
/// recomputed.
fn damage_header(kind: &str, shares: &Shares, rng: &mut Rng, d: &mut Damaged, i: usize) {
    let count = d.files.len();
    let files = &mut d.files;
    match kind {
        "settings edited, digest kept" => {
            // As `sed` on the header: the digest no longer matches.
            let file = read(&files[i]);
            let mut header = file.header;
            while header.settings == read(&files[i]).header.settings {
                edit_settings(rng, &mut header.settings, &shares.fields);
            }
            files[i] = shard::encode(&header, &file.part).unwrap();
            d.culprits.push(i);
        }
        "settings edited, digest recomputed" => {
            let mut settings = read(&files[i]).header.settings;
            edit_settings(rng, &mut settings, &shares.fields);
            let all = rng.below(2) == 0;
            for (j, f) in files.iter_mut().enumerate() {
                if all || j == i {
                    *f = relabel(f, |h| h.settings = settings.clone());
                    d.culprits.push(j);
                }
            }
        }
        "shard count edited (all files)" => {
            // The issue's `sed 's/"shards":3/"shards":2/'`, then the
            // files of the shares beyond the new count left out.
            let new_count = 1 + rng.below(MAX_SHARDS);
            *files = files
                .iter()
                .take(new_count)
                .map(|f| relabel(f, |h| h.shards = new_count))
                .collect();
            d.culprits = (0..files.len()).collect();
        }
        "shard index edited" => {
            let to = rng.below(count + 1);
            files[i] = relabel(&files[i], |h| h.shard = to);
            d.culprits.push(i);
        }
        "seed relabelled (all files)" => {
            let seed = rng.below(4).to_string();
            for f in files.iter_mut() {
                *f = relabel(f, |h| h.settings.push(("seed".into(), seed.clone())));
            }
            d.culprits = (0..count).collect();
        }
        "preset relabelled (all files)" => {
            // Another preset of this scenario, or the first of any scenario.
            let mut presets = vec![shares.other_preset];
            presets.extend(SCENARIOS.iter().map(|s| s.info().presets[0].name));
            let preset = rng.pick(&presets).to_string();
            for f in files.iter_mut() {
                *f = relabel(f, |h| h.preset = preset.clone());
            }
            d.culprits = (0..count).collect();
        }
        "emptiness or build edited" => {
            let recompute = rng.below(2) == 0;
            let edit = rng.below(2);
            let change = |h: &mut Header| {
                if edit == 0 {
                    h.empty = !h.empty;
                } else {
                    h.dp_explorer = "0.0.9".into();
                }
            };
            files[i] = if recompute {
                relabel(&files[i], change)
            } else {
                let file = read(&files[i]);
                let mut header = file.header;
                change(&mut header);
                shard::encode(&header, &file.part).unwrap()
            };
            d.culprits.push(i);
        }
        other => panic!("no damage of kind {other}"),
    }
}

/// Files swapped, given twice or left out, or a share of another sweep
/// relabelled as share `i` of this one.
fn damage_files(kind: &str, shares: &Shares, rng: &mut Rng, d: &mut Damaged, i: usize) {
    let count = d.files.len();
    let files = &mut d.files;
    match kind {
        "files swapped" => {
            let j = rng.below(count);
            files.swap(i, j);
        }
        "file duplicated" => {
            d.extra = Some(files[i].clone());
            d.culprits.push(i);
            d.culprits.push(count);
        }
        "file missing" => {
            files.remove(i);
        }
        "share of another seed relabelled" => {
            let header = read(&files[i]).header;
            files[i] = relabel(&shares.other_seed[count - 1][i], |h| {
                h.settings = header.settings.clone()
            });
            d.culprits.push(i);
        }
        _ => {
            let from = 1 + rng.below(MAX_SHARDS);
            let j = rng.below(from);
            let header = read(&files[i]).header;
            files[i] = relabel(&shares.main[from - 1][j], |h| {
                h.shard = header.shard;
                h.shards = header.shards;
            });
            d.culprits.push(i);
        }
    }
}

fn fuzz_scenario(shares: &Shares, rng: &mut Rng, tally: &mut [Tally]) {
    let mut cache = BTreeMap::new();
    for round in 0..MERGES_PER_SCENARIO {
        let kind = rng.below(KINDS.len());
        // A share left out of a sweep of one share would leave nothing to name.
        let fewest = if KINDS[kind] == "file missing" { 2 } else { 1 };
        let count = fewest + rng.below(MAX_SHARDS + 1 - fewest);
        let Damaged {
            files,
            culprits,
            extra,
        } = damage(KINDS[kind], shares, rng, count);
        // The files as `merge` reads them, each under a name of its own (the
        // bytes stay in memory: `merge_files` is `merge` after the reading).
        let paths: Vec<PathBuf> = (0..files.len() + extra.iter().len())
            .map(|j| PathBuf::from(format!("{}/{j}/shard-{j}-of-{count}.part", shares.preset)))
            .collect();
        let outcome = files
            .iter()
            .chain(extra.iter())
            .zip(&paths)
            .map(|(bytes, path)| shard::decode(path, bytes.clone()))
            .collect::<Result<Vec<_>, _>>()
            .and_then(merge_files);
        let t = &mut tally[kind];
        t.tried += 1;
        match outcome {
            Ok(merged) => {
                let expected = single_view(&mut cache, merged.preset, &merged.settings);
                assert!(
                    fingerprint(&merged.view) == expected,
                    "{}: {} (round {round}) merged into a view that is not the single sweep of \
                     --preset {} with {:?}",
                    shares.preset,
                    KINDS[kind],
                    merged.preset,
                    merged.settings
                );
                t.identical += 1;
            }
            Err(error) => {
                let message = error.to_string();
                let named: Vec<&PathBuf> = if culprits.is_empty() {
                    paths.iter().collect()
                } else {
                    culprits.iter().filter_map(|&j| paths.get(j)).collect()
                };
                assert!(
                    named
                        .iter()
                        .any(|p| message.contains(&p.display().to_string())),
                    "{}: {} (round {round}): the refusal names none of {named:?}: {message}",
                    shares.preset,
                    KINDS[kind]
                );
                t.refused += 1;
            }
        }
    }
}

#[test]
fn damaged_shares_merge_to_the_single_sweep_or_are_refused_naming_the_file() {
    let root = scratch("run");
    let made = root.join("made");
    let mut rng = Rng(0x5eed_0031);
    let mut tally: Vec<Tally> = KINDS.iter().map(|_| Tally::default()).collect();
    let sweeps = sweeps();
    for (preset, other_preset, set) in &sweeps {
        let (preset, other_preset) = (*preset, *other_preset);
        let set: Vec<&str> = set.iter().map(String::as_str).collect();
        let set = set.as_slice();
        let (scenario, _) = scenarios::by_preset(preset).unwrap();
        let fields: Vec<&'static str> = scenario.info().fields.iter().map(|f| f.name).collect();
        let make = |seed: u64| -> Vec<Vec<Vec<u8>>> {
            (1..=MAX_SHARDS)
                .map(|count| {
                    (0..count)
                        .map(|index| share_bytes(preset, set, seed, Shard { index, count }, &made))
                        .collect()
                })
                .collect()
        };
        let shares = Shares {
            preset,
            other_preset,
            fields,
            main: make(1),
            other_seed: make(2),
        };
        fuzz_scenario(&shares, &mut rng, &mut tally);
    }
    let total: usize = tally.iter().map(|t| t.tried).sum();
    println!("{total} damaged merges over {} scenarios:", sweeps.len());
    for (kind, t) in KINDS.iter().zip(&tally) {
        println!(
            "  {kind:<42} {:>4} tried: {:>4} refused naming the file, {:>4} the single sweep's view",
            t.tried, t.refused, t.identical
        );
    }
    assert_eq!(total, MERGES_PER_SCENARIO * sweeps.len());
    // Every kind was tried, and each damage that cannot leave the sweep as it
    // was (a changed byte, a cut, a share of another seed) was refused.
    for (kind, t) in KINDS.iter().zip(&tally) {
        assert!(t.tried > 0, "{kind} never tried");
    }
    for kind in [
        "byte flips",
        "truncation",
        "settings edited, digest kept",
        "file duplicated",
        "file missing",
    ] {
        let t = &tally[KINDS.iter().position(|k| *k == kind).unwrap()];
        assert_eq!(t.identical, 0, "{kind}: merged anyway");
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// Every scenario of the registry is fuzzed here (the sweeps are read from
/// it): its declared test size is one of its own presets, and its tiny sweep
/// configures, so the fuzz above starts from a checked configuration.
#[test]
fn every_scenario_of_the_registry_has_a_tiny_sweep_here() {
    let sweeps = sweeps();
    assert_eq!(sweeps.len(), SCENARIOS.len());
    for (s, (preset, other, set)) in SCENARIOS.iter().zip(&sweeps) {
        let id = s.info().id;
        for name in [preset, other] {
            let (scenario, _) = scenarios::by_preset(name).unwrap();
            assert_eq!(scenario.info().id, id, "{name} is not a preset of {id}");
        }
        let pairs: Vec<(&str, &str)> = set.iter().filter_map(|kv| kv.split_once('=')).collect();
        assert_eq!(pairs.len(), set.len());
        if let Err(e) = s.configure(preset, &pairs) {
            panic!("{id}: its test size does not configure: {e:?}");
        }
    }
}
