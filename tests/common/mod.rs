//! What several integration tests need the same way: the stored fixture cases,
//! the small configs of the issues' reports, a finished sweep, a scratch
//! directory. Each test file takes it with `mod common;` and uses only some of
//! it, hence the `dead_code` allowance.
#![allow(dead_code)]

use dp_explorer::scenarios::{self, Run, Shard};
use std::path::{Path, PathBuf};

/// The declared test size of the scenario of `preset` (its
/// `ScenarioInfo::test_size` settings).
pub fn test_size(preset: &str) -> &'static [(&'static str, &'static str)] {
    let (scenario, _) = scenarios::by_preset(preset).unwrap();
    scenario.info().test_size.settings
}

/// Issue 31's small classifier config (`CB` in the red team's report): the
/// classifier's declared test size over two ε.
pub fn cb() -> Vec<(&'static str, &'static str)> {
    with(test_size("jl-random"), &[("epsilons", "1,3")])
}

/// A stored fixture case (`tests/fixtures/baseline/<name>/`).
#[derive(Clone, Debug)]
pub struct StoredCase {
    pub dir: PathBuf,
    /// The folder's name.
    pub name: String,
    pub preset: String,
    pub pairs: Vec<(String, String)>,
}

impl StoredCase {
    /// The settings as the registry takes them.
    pub fn pairs(&self) -> Vec<(&str, &str)> {
        scenarios::borrowed(&self.pairs)
    }
}

/// Every stored case, in the order of their folders' names, each from its
/// args.txt line `--preset P --set k=v …`.
pub fn stored_cases() -> Vec<StoredCase> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/baseline");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|dir| {
            let text = std::fs::read_to_string(dir.join("args.txt")).unwrap();
            let words: Vec<&str> = text.split_whitespace().collect();
            let (mut preset, mut pairs) = (String::new(), Vec::new());
            for w in words.chunks(2) {
                match w {
                    ["--preset", p] => preset = p.to_string(),
                    ["--set", kv] => {
                        let (k, v) = kv.split_once('=').expect("KEY=VALUE");
                        pairs.push((k.to_string(), v.to_string()));
                    }
                    other => panic!("{}: unexpected {other:?}", dir.display()),
                }
            }
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            StoredCase {
                dir,
                name,
                preset,
                pairs,
            }
        })
        .collect()
}

/// The sweep of `preset` with `pairs` (the share `shard` of it), run to its end.
pub fn finished(preset: &str, pairs: &[(&str, &str)], shard: Shard) -> Box<dyn Run> {
    let (_, mut run) =
        scenarios::start(preset, pairs, shard).unwrap_or_else(|e| panic!("{preset}: {e:?}"));
    scenarios::run_to_end(run.as_mut()).unwrap();
    run
}

/// An empty scratch directory for one test: `<target tmp>/<suite>/<name>`.
pub fn scratch(suite: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(suite)
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `base` with the settings of `extra` put in place of its own of the same
/// name (appended at the end, in `extra`'s order).
pub fn with<'a>(
    base: &[(&'a str, &'a str)],
    extra: &[(&'a str, &'a str)],
) -> Vec<(&'a str, &'a str)> {
    let mut pairs: Vec<(&str, &str)> = base.to_vec();
    for &(k, v) in extra {
        pairs.retain(|(key, _)| *key != k);
        pairs.push((k, v));
    }
    pairs
}

/// `work` on every item, on two threads (the machine's cores) taking the items
/// in turn: every result, in no particular order.
pub fn on_two_threads<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> Vec<R> + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    while let Some(item) =
                        items.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                    {
                        out.extend(work(item));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    })
}
