//! Every CSV file the project writes is well formed: every output file of
//! every preset (at the sizes of its stored case under
//! `tests/fixtures/baseline/`), its `claims.csv`, and every audit's `audit.csv` and `scores.csv`
//! (honest and deliberately broken runs) parse with a real CSV reader, every
//! record has exactly its header's number of fields, the header's names are
//! unique, and every field of a numeric column is a number or empty (not
//! applicable). A method named with a comma (the trace audit's
//! "dp-rgrad, paper's sensitivities") once shifted every later field of its
//! rows by one.

mod common;

use common::StoredCase;
use dp_explorer::scenarios::audit::{AuditMode, AuditOptions};
use dp_explorer::scenarios::claims::claims_csv;
use dp_explorer::scenarios::{self, OutputFile, Shard};

/// The columns that hold text; every other column holds numbers.
const TEXT_COLUMNS: &[&str] = &[
    "method",
    "variant",
    "privacy",
    "mode",
    "broken",
    "side",
    "relation",
    "calibration",
    "claim",
    "text",
    "held",
    "numbers",
];

/// Settings an audit of a scenario needs beyond its stored case (the DP-FLUTE
/// runs on; trace sizes an audit accepts: issue 31's `TB`).
fn audit_settings(scenario: &str) -> &'static [(&'static str, &'static str)] {
    match scenario {
        "flute" => &[("private", "on")],
        "trace" => &[
            ("n", "1000,2000"),
            ("repeats", "2"),
            ("epsilons", "1,2"),
            ("iterations", "3"),
        ],
        _ => &[],
    }
}

/// Every registry preset with its stored cases (each preset has one).
fn cases_of_every_preset() -> Vec<StoredCase> {
    let cases = common::stored_cases();
    let mut out = Vec::new();
    for (_, p) in scenarios::all_presets() {
        let of_preset: Vec<_> = cases
            .iter()
            .filter(|c| c.preset == p.name)
            .cloned()
            .collect();
        assert!(
            !of_preset.is_empty(),
            "no stored case for preset {0}: store one at a test size with \
             `make fixtures PRESET={0} SET=\"key=value ...\"` (docs/testing.md)",
            p.name
        );
        out.extend(of_preset);
    }
    out
}

/// The file's records under its header, checked; panics naming the file,
/// record and column at fault.
fn parse(what: &str, file: &OutputFile) -> (Vec<String>, Vec<csv::StringRecord>) {
    let at = format!("{what}: {}", file.name);
    assert!(file.text.ends_with('\n'), "{at}: no final line break");
    // Flexible: a record of another width is reported below with its number.
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(file.text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap_or_else(|e| panic!("{at}: header: {e}"))
        .iter()
        .map(String::from)
        .collect();
    for (i, name) in header.iter().enumerate() {
        assert!(!name.is_empty(), "{at}: column {i} has no name");
        assert!(
            !header[..i].contains(name),
            "{at}: column {name} named twice"
        );
    }
    let mut records = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let record = record.unwrap_or_else(|e| panic!("{at}: record {i}: {e}"));
        assert_eq!(
            record.len(),
            header.len(),
            "{at}: record {i} has {} fields under a header of {}: {record:?}",
            record.len(),
            header.len()
        );
        for (column, field) in header.iter().zip(record.iter()) {
            if column == "broken" {
                assert!(
                    field == "true" || field == "false",
                    "{at}: record {i}: broken = {field:?}"
                );
            } else if !TEXT_COLUMNS.contains(&column.as_str()) {
                assert!(
                    field.is_empty() || field.parse::<f64>().is_ok(),
                    "{at}: record {i}: {column} = {field:?} is not a number \
                     (if {column} holds text, list it in TEXT_COLUMNS)"
                );
            }
        }
        records.push(record);
    }
    assert!(!records.is_empty(), "{at}: no record under the header");
    (header, records)
}

/// (files, records, fields holding a comma) parsed.
#[derive(Default)]
struct Counts {
    files: usize,
    records: usize,
    with_comma: usize,
}

impl Counts {
    fn add(&mut self, records: &[csv::StringRecord]) {
        self.files += 1;
        self.records += records.len();
        self.with_comma += records
            .iter()
            .flat_map(|r| r.iter())
            .filter(|f| f.contains(','))
            .count();
    }
}

#[test]
fn every_output_file_of_every_preset_parses_with_the_headers_width() {
    let (mut counts, mut claim_files) = (Counts::default(), 0);
    for stored in cases_of_every_preset() {
        let case = &stored.name;
        let (scenario, _) = scenarios::by_preset(&stored.preset).unwrap();
        let run = common::finished(&stored.preset, &stored.pairs(), Shard::WHOLE);
        let view = scenarios::judged(scenario, run.view());
        assert_eq!(view.files[0].name, "results.csv", "{case}");
        for file in &view.files {
            let (_, records) = parse(case, file);
            counts.add(&records);
        }
        // claims.csv, which the CLI writes beside them: one record per claim.
        if !view.claims.is_empty() {
            let claims = OutputFile {
                name: "claims.csv",
                text: claims_csv(&view.claims),
            };
            let (_, records) = parse(case, &claims);
            assert_eq!(records.len(), view.claims.len(), "{case}: claims.csv");
            for (r, v) in records.iter().zip(&view.claims) {
                assert_eq!((&r[0], &r[1]), (v.id, v.text), "{case}: claims.csv");
            }
            counts.add(&records);
            claim_files += 1;
        }
    }
    println!(
        "sweeps: {} files ({claim_files} claims.csv), {} records, {} fields holding a comma",
        counts.files, counts.records, counts.with_comma
    );
}

#[test]
fn every_audit_file_parses_and_gives_back_the_audited_methods() {
    let runs = 4;
    let mut counts = Counts::default();
    let mut audited = 0;
    for stored in cases_of_every_preset() {
        let (case, preset) = (&stored.name, &stored.preset);
        let (scenario, _) = scenarios::by_preset(preset).unwrap();
        if !scenario.has_audit() {
            continue;
        }
        let mut pairs = stored.pairs();
        pairs.extend_from_slice(audit_settings(scenario.info().id));
        for broken in [false, true] {
            let what = format!("audit of {case}{}", if broken { " (broken)" } else { "" });
            let options = AuditOptions {
                runs,
                mode: AuditMode::WhiteBox,
                broken,
                seed: 1,
            };
            let mut audit = scenarios::start_audit(preset, &pairs, options)
                .unwrap_or_else(|e| panic!("{what}: {e:?}"));
            while !audit.step(64) {}
            let view = audit.view();
            let names: Vec<_> = view.files.iter().map(|f| f.name).collect();
            assert_eq!(names, ["audit.csv", "scores.csv"], "{what}");
            let methods: Vec<&str> = audit.rows().iter().map(|r| r.method.as_str()).collect();
            assert!(!methods.is_empty(), "{what}: nothing audited");

            // audit.csv: one record per audited release, its method read back whole.
            let (header, records) = parse(&what, &view.files[0]);
            let m = header.iter().position(|h| h == "method").unwrap();
            let read: Vec<&str> = records.iter().map(|r| &r[m]).collect();
            assert_eq!(read, methods, "{what}: audit.csv's methods");
            counts.add(&records);

            // scores.csv: every run of each side of each release.
            let (header, records) = parse(&what, &view.files[1]);
            let m = header.iter().position(|h| h == "method").unwrap();
            assert_eq!(records.len(), 2 * runs * methods.len(), "{what}: scores");
            for r in &records {
                assert!(
                    methods.contains(&&r[m]),
                    "{what}: scores.csv method {:?}",
                    &r[m]
                );
            }
            counts.add(&records);
            audited += 1;
        }
    }
    assert!(audited > 0);
    println!(
        "audits: {audited} audits, {} files, {} records, {} fields holding a comma",
        counts.files, counts.records, counts.with_comma
    );
}
