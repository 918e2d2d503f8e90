//! Every preset's output is held byte for byte: `tests/fixtures/baseline/*/`
//! holds the `results.csv` (and `angles.csv`) that the CLI wrote at small
//! sizes (`args.txt` says how each was made: `dp-explorer sweep --threads 1
//! ARGS`): for Private FedRep and DP-GD, before the scenarios moved behind one
//! trait and registry, for every preset and every value of every choice
//! setting; for a later scenario, when it was added. The same settings through
//! the registry, in one worker and split over three, must give the same bytes.

mod common;

use dp_explorer::scenarios::{self, Shard};
use std::path::Path;

fn check_files(case: &Path, view: &scenarios::View, how: &str) {
    for file in &view.files {
        let stored = case.join(file.name);
        let want = std::fs::read_to_string(&stored)
            .unwrap_or_else(|e| panic!("{}: {e}", stored.display()));
        assert!(
            file.text == want,
            "{} ({how}): {} differs from the stored output",
            case.display(),
            file.name
        );
    }
}

#[test]
fn every_preset_gives_the_stored_results_byte_for_byte() {
    let cases = common::stored_cases();
    assert!(cases.len() >= 11, "{} cases", cases.len());
    let mut presets_seen = Vec::new();
    for stored in cases {
        let (case, preset, pairs) = (&stored.dir, &stored.preset, stored.pairs());
        let (scenario, mut run) = scenarios::start(preset, &pairs, Shard::WHOLE)
            .unwrap_or_else(|e| panic!("{}: {e:?}", case.display()));
        scenarios::run_to_end(run.as_mut()).unwrap();
        let view = run.view();
        assert!(!view.files.is_empty());
        check_files(case, &view, "one worker");
        if scenario.info().splits {
            let parts: Vec<Vec<u8>> = (0..3)
                .map(|index| common::finished(preset, &pairs, Shard { index, count: 3 }).part())
                .collect();
            let merged = scenarios::configure(preset, &pairs)
                .unwrap()
                .merge(&parts, scenarios::Coverage::Whole)
                .unwrap();
            check_files(case, &merged, "three workers, merged");
        }
        presets_seen.push(stored.preset.clone());
    }
    for (_, p) in scenarios::all_presets() {
        assert!(
            presets_seen.iter().any(|s| s == p.name),
            "no stored output for preset {0}: store one at a test size with \
             `make fixtures PRESET={0} SET=\"key=value ...\"` (it writes \
             tests/fixtures/baseline/{0}-small/: args.txt and the sweep's CSV files)",
            p.name
        );
    }
}
