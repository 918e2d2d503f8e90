//! Browser tests of the wasm API (`wasm-pack test --headless --chrome`):
//! validation errors, a small run to the end with the shape of its results,
//! and drawing on a real canvas.
#![cfg(target_arch = "wasm32")]

use dp_explorer::wasm::{chart_svg, draw_chart, preset_fields, validate_fields, Runner};
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

#[wasm_bindgen_test]
fn valid_fields_give_no_errors() {
    let errors: Array = validate_fields(Some("fedrep-paper".into()), small())
        .unwrap()
        .into();
    assert_eq!(errors.length(), 0);
}

#[wasm_bindgen_test]
fn k_greater_than_d_is_an_error_at_field_k() {
    let errors: Array = validate_fields(Some("fedrep-paper".into()), fields(&[("k", "60")]))
        .unwrap()
        .into();
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
        let errors: Array = validate_fields(None, fields(&[(key, value)]))
            .unwrap()
            .into();
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
fn a_small_run_goes_to_the_end_with_rows_curves_and_charts() {
    let mut runner = Runner::new(Some("fedrep-paper".into()), small()).unwrap();
    let mut steps = 0;
    while !runner.step().unwrap() {
        steps += 1;
        assert!(steps < 10_000);
    }
    let snap = runner.snapshot().unwrap();
    assert_eq!(get(&snap, "finished").as_bool(), Some(true));
    assert_eq!(get(&snap, "done").as_f64(), get(&snap, "total").as_f64());
    let rows: Array = get(&snap, "rows").into();
    let methods: Vec<String> = rows
        .iter()
        .map(|r| get(&r, "method").as_string().unwrap())
        .collect();
    for m in ["fedrep", "local-gd", "private-fedrep"] {
        assert!(
            methods.iter().any(|x| x == m),
            "{m} missing from {methods:?}"
        );
    }
    for r in rows.iter() {
        let risk = get(&r, "excess_risk").as_f64().unwrap();
        assert!(risk.is_finite() && risk >= 0.0);
        if get(&r, "method").as_string().unwrap() == "private-fedrep" {
            let privacy = get(&r, "privacy");
            let spent = get(&privacy, "epsilon_exact").as_f64().unwrap();
            let target = get(&privacy, "epsilon_target").as_f64().unwrap();
            assert!(
                (spent - target).abs() < 1e-6 * target,
                "spent {spent} for target {target}"
            );
            assert!(get(&r, "sigma").as_f64().unwrap() > 0.0);
        }
    }
    let curves: Array = get(&snap, "curves").into();
    assert!(curves.length() >= 3);
    // One angle curve per run that has a U: every row but local GD's.
    let local = methods.iter().filter(|m| *m == "local-gd").count() as u32;
    assert_eq!(curves.length(), rows.length() - local);
    let charts: Array = get(&snap, "charts").into();
    assert_eq!(charts.length(), 2);
    let csv = runner.csv();
    assert!(csv.starts_with(
        "method,epsilon,delta,seed,excess_risk,mse,principal_angle,sigma,epsilon_spent"
    ));
    assert!(csv.lines().count() >= 5);
    assert_eq!(csv.lines().count(), rows.length() as usize + 1);
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
    let mut runner = Runner::new(Some("fedrep-paper".into()), small()).unwrap();
    while !runner.step().unwrap() {}
    let snap = runner.snapshot().unwrap();
    let charts: Array = get(&snap, "charts").into();
    for spec in charts.iter() {
        let c = canvas(640, 400);
        assert_eq!(non_white_pixels(&c), 0);
        draw_chart(c.clone(), spec.clone(), 1.0).unwrap();
        let ink = non_white_pixels(&c);
        assert!(ink > 2000, "only {ink} pixels drawn");
        let svg = chart_svg(spec, 640, 400).unwrap();
        assert!(svg.contains("<svg") && svg.contains("polyline"));
    }
}

#[wasm_bindgen_test]
fn a_malformed_chart_spec_is_an_error_not_a_panic() {
    let c = canvas(100, 100);
    assert!(draw_chart(c, fields(&[("title", "x")]), 1.0).is_err());
}
