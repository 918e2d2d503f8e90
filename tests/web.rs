//! Browser tests of the wasm API (`make test-wasm`: headless chromium):
//! the registry as the page reads it, validation errors, a small run to the
//! end with the shape of its results, shards merged, and drawing on a real
//! canvas.
#![cfg(target_arch = "wasm32")]

use dp_explorer::wasm::{
    chart_svg, draw_chart, epsilon_for_sigma, epsilon_for_stages, find_preset, preset_fields,
    scenarios, sigma_for_epsilon, Configuration, Runner,
};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn fields(pairs: &[(&str, &str)]) -> JsValue {
    let obj = Object::new();
    for (k, v) in pairs {
        Reflect::set(&obj, &JsValue::from_str(k), &JsValue::from_str(v)).unwrap();
    }
    obj.into()
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap()
}

/// A small but real sweep: every method, two ε values.
fn small() -> JsValue {
    fields(&[
        ("n", "400"),
        ("d", "8"),
        ("k", "2"),
        ("m", "10"),
        ("epsilons", "1,8"),
    ])
}

/// The field errors a refused configuration throws (`error.errors`, what the
/// page's form marks), or none for settings that check.
fn field_errors(preset: Option<&str>, settings: JsValue) -> Array {
    match Configuration::new(preset.map(String::from), settings) {
        Ok(_) => Array::new(),
        Err(thrown) => get(&thrown, "errors").into(),
    }
}

#[wasm_bindgen_test]
fn valid_fields_give_no_errors() {
    assert_eq!(field_errors(Some("fedrep-paper"), small()).length(), 0);
}

#[wasm_bindgen_test]
fn k_greater_than_d_is_an_error_at_field_k() {
    let errors = field_errors(Some("fedrep-paper"), fields(&[("d", "10"), ("k", "20")]));
    assert!(errors.length() >= 1);
    let e = errors.get(0);
    assert_eq!(get(&e, "field").as_string().unwrap(), "k");
    assert!(get(&e, "message")
        .as_string()
        .unwrap()
        .contains("k must be ≤ d"));
}

#[wasm_bindgen_test]
fn bad_epsilon_delta_and_n_are_each_named() {
    for (key, value) in [
        ("epsilons", "0"),
        ("delta", "1.5"),
        ("n", "0"),
        ("n", "many"),
    ] {
        let errors = field_errors(None, fields(&[(key, value)]));
        assert!(errors.length() >= 1, "{key}={value}");
        assert_eq!(get(&errors.get(0), "field").as_string().unwrap(), key);
    }
}

#[wasm_bindgen_test]
fn a_bad_config_cannot_start_a_runner() {
    let err = Runner::new(None, fields(&[("delta", "0")]))
        .err()
        .expect("refused");
    let message = get(&JsValue::from(err), "message").as_string().unwrap();
    assert!(message.contains("delta"), "{message}");
}

#[wasm_bindgen_test]
fn preset_fields_list_the_papers_setting() {
    let pairs: Array = preset_fields("fedrep-paper").unwrap().into();
    let n = pairs
        .iter()
        .find(|p| Array::from(p).get(0).as_string().unwrap() == "n")
        .unwrap();
    assert_eq!(Array::from(&n).get(1).as_string().unwrap(), "20000");
}

#[wasm_bindgen_test]
fn every_scenario_describes_its_presets_fields_and_charts() {
    let list: Array = scenarios().unwrap().into();
    assert!(list.length() >= 2);
    for s in list.iter() {
        let id = get(&s, "id").as_string().unwrap();
        let presets: Array = get(&s, "presets").into();
        let fields: Array = get(&s, "fields").into();
        let charts: Array = get(&s, "charts").into();
        assert!(
            presets.length() >= 1 && fields.length() >= 5 && charts.length() >= 1,
            "{id}"
        );
        for f in fields.iter() {
            assert!(get(&f, "label").as_string().is_some_and(|l| !l.is_empty()));
            assert!(get(&f, "default").as_string().is_some());
        }
        // Each preset is found back, with its scenario.
        let first = get(&presets.get(0), "name").as_string().unwrap();
        let found = find_preset(&first.to_uppercase()).unwrap();
        assert_eq!(get(&found, "scenario").as_string().unwrap(), id);
        assert_eq!(get(&found, "preset").as_string().unwrap(), first);
    }
    assert!(find_preset("nope").is_err());
}

fn run_to_end(mut runner: Runner) -> Runner {
    let mut steps = 0;
    while !runner.step().unwrap() {
        steps += 1;
        assert!(steps < 10_000);
    }
    runner
}

#[wasm_bindgen_test]
fn a_small_run_goes_to_the_end_with_tables_charts_accounting_and_csv() {
    let runner = run_to_end(Runner::new(Some("fedrep-paper".into()), small()).unwrap());
    let snap = runner.snapshot().unwrap();
    assert_eq!(get(&snap, "scenario").as_string().unwrap(), "fedrep");
    assert_eq!(get(&snap, "finished").as_bool(), Some(true));
    assert_eq!(get(&snap, "done").as_f64(), get(&snap, "total").as_f64());
    let tables: Array = get(&snap, "tables").into();
    assert_eq!(tables.length(), 2);
    let rows: Array = get(&tables.get(0), "rows").into();
    let methods: Vec<String> = rows
        .iter()
        .map(|r| Array::from(&r).get(0).as_string().unwrap())
        .collect();
    for m in [
        "FedRep (non-private)",
        "local GD (non-private)",
        "Private FedRep",
    ] {
        assert!(
            methods.iter().any(|x| x == m),
            "{m} missing from {methods:?}"
        );
    }
    // Every private run is explained: its ε spent is the target (exact calibration).
    let privacy: Array = get(&snap, "privacy").into();
    assert_eq!(privacy.length(), 4, "2 private methods × 2 ε");
    for e in privacy.iter() {
        let summary = get(&e, "summary").as_string().unwrap();
        assert!(
            summary.contains("target ε = 1: spends ε = 1 at")
                || summary.contains("target ε = 8: spends ε = 8 at"),
            "{summary}"
        );
    }
    let charts: Array = get(&snap, "charts").into();
    assert_eq!(charts.length(), 2);
    let csv = runner.csv();
    assert!(csv.starts_with(
        "method,epsilon,delta,seed,excess_risk,mse,principal_angle,sigma,epsilon_spent"
    ));
    assert_eq!(csv.lines().count(), rows.length() as usize + 1);
    let files: Array = get(&snap, "files").into();
    assert_eq!(get(&files.get(0), "text").as_string().unwrap(), csv);
}

#[wasm_bindgen_test]
fn shards_merged_in_the_browser_give_the_single_worker_csv() {
    let whole = run_to_end(Runner::new(Some("fedrep-paper".into()), small()).unwrap());
    let configuration = Configuration::new(Some("fedrep-paper".into()), small()).unwrap();
    let parts: Vec<js_sys::Uint8Array> = (0..2)
        .map(|i| {
            let r = run_to_end(configuration.shard(i, 2).unwrap());
            js_sys::Uint8Array::from(r.part().as_slice())
        })
        .collect();
    let merged = configuration.merge(parts, Some(true), None, None).unwrap();
    let files: Array = get(&merged, "files").into();
    assert_eq!(get(&files.get(0), "text").as_string().unwrap(), whole.csv());
    // No parts: the empty charts the page draws before a run.
    let empty = Configuration::new(Some("dpgd-quick".into()), JsValue::UNDEFINED)
        .unwrap()
        .merge(vec![], None, None, None)
        .unwrap();
    assert_eq!(Array::from(&get(&empty, "charts")).length(), 4);
}

fn canvas(width: u32, height: u32) -> web_sys::HtmlCanvasElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let canvas: web_sys::HtmlCanvasElement = document
        .create_element("canvas")
        .unwrap()
        .dyn_into()
        .unwrap();
    canvas.set_width(width);
    canvas.set_height(height);
    document.body().unwrap().append_child(&canvas).unwrap();
    canvas
}

fn non_white_pixels(canvas: &web_sys::HtmlCanvasElement) -> usize {
    let ctx: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let data = ctx
        .get_image_data(0.0, 0.0, canvas.width() as f64, canvas.height() as f64)
        .unwrap()
        .data();
    data.chunks(4)
        .filter(|p| p[3] > 0 && (p[0] < 240 || p[1] < 240 || p[2] < 240))
        .count()
}

#[wasm_bindgen_test]
fn drawing_a_chart_changes_the_canvas_pixels() {
    let runner = run_to_end(Runner::new(Some("fedrep-paper".into()), small()).unwrap());
    let snap = runner.snapshot().unwrap();
    let charts: Array = get(&snap, "charts").into();
    for spec in charts.iter() {
        let c = canvas(640, 400);
        assert_eq!(non_white_pixels(&c), 0);
        let drawn = draw_chart(c.clone(), spec.clone(), 1.0, vec![]).unwrap();
        let ink = non_white_pixels(&c);
        // The readable points come with their pixels, inside the canvas.
        let points: Array = get(&drawn, "points").into();
        assert!(points.length() >= 2);
        for p in points.iter() {
            let (px, py) = (
                get(&p, "px").as_f64().unwrap(),
                get(&p, "py").as_f64().unwrap(),
            );
            assert!(
                (0.0..=640.0).contains(&px) && (0.0..=400.0).contains(&py),
                "{px}, {py}"
            );
        }
        assert!(ink > 2000, "only {ink} pixels drawn");
        let svg = chart_svg(spec, 640, 400, None).unwrap();
        assert!(svg.contains("<svg") && svg.contains("polyline"));
    }
}

#[wasm_bindgen_test]
fn a_malformed_chart_spec_is_an_error_not_a_panic() {
    let c = canvas(100, 100);
    assert!(draw_chart(c, fields(&[("title", "x")]), 1.0, vec![]).is_err());
}

#[wasm_bindgen_test]
fn the_accountant_answers_as_a_user_calls_it() {
    let e = epsilon_for_sigma(1.0, 1e-5, 1, 1.0).unwrap();
    let exact = get(&e, "exact").as_f64().unwrap();
    assert!((exact - 4.377178).abs() < 1e-6, "{exact}");
    assert!(get(&e, "rdp").as_f64().unwrap() > exact);
    let s = sigma_for_epsilon(1.0, 1e-5, 100, 1.0).unwrap();
    let sigma = get(&s, "exact").as_f64().unwrap();
    assert!((sigma - 37.3063).abs() < 1e-3, "{sigma}");
    // The same releases as one stage list: the same ε.
    let stage = Object::new();
    for (k, v) in [
        ("name", JsValue::from_str("rounds")),
        ("mechanism", JsValue::from_str("Gaussian")),
    ] {
        Reflect::set(&stage, &JsValue::from_str(k), &v).unwrap();
    }
    for (k, v) in [("sensitivity", 1.0), ("sigma", sigma), ("steps", 100.0)] {
        Reflect::set(&stage, &JsValue::from_str(k), &JsValue::from_f64(v)).unwrap();
    }
    let stages = Array::of1(&stage);
    let back = epsilon_for_stages(stages.into(), 1e-5).unwrap();
    assert!((get(&back, "exact").as_f64().unwrap() - 1.0).abs() < 1e-9);
    assert!(epsilon_for_sigma(0.0, 1e-5, 1, 1.0).is_err());
    assert!(epsilon_for_stages(JsValue::from_str("nope"), 1e-5).is_err());
}

#[wasm_bindgen_test]
fn run_to_end_and_progress_as_the_docs_show() {
    let mut runner = Runner::new(Some("dpgd-quick".into()), fields(&[("epsilons", "2")])).unwrap();
    let before = runner.progress();
    assert_eq!(before[0], 0.0);
    let snap = runner.run_to_end().unwrap();
    let after = runner.progress();
    assert_eq!(after[0], after[1]);
    assert_eq!(get(&snap, "finished").as_bool(), Some(true));
    assert_eq!(Array::from(&get(&snap, "charts")).length(), 4);
}

/// The activation's two-lane tanh in wasm (src/data/tanh_pairs.rs) gives the
/// bits of `f64::tanh` here, value by value, on both sides of every branch.
#[wasm_bindgen_test]
fn the_two_lane_tanh_gives_the_bits_of_f64_tanh() {
    use dp_explorer::data::tanh_pairs::tanh_in_place;
    // A fixed spread: magnitudes from 2⁻³⁰ to 2⁵ (log-spaced) with both signs,
    // and a fine grid over [−20, 20].
    let mut values: Vec<f64> = (0..60_000)
        .map(|i| {
            let m = 2f64.powf(-30.0 + 35.0 * ((i as f64) * 0.618_033_988_7).fract());
            if i % 2 == 0 {
                m
            } else {
                -m
            }
        })
        .collect();
    values.extend((0..80_001).map(|i| -20.0 + 40.0 * i as f64 / 80_000.0));
    values.extend([0.0, -0.0, f64::NAN, f64::INFINITY, 19.0, -19.0]);
    let mut out = values.clone();
    tanh_in_place(&mut out);
    for (&x, &t) in values.iter().zip(&out) {
        assert_eq!(t.to_bits(), x.tanh().to_bits(), "tanh({x:e})");
    }
}
