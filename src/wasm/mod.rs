//! The #[wasm_bindgen] boundary (wasm32 only).
