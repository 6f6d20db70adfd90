//! The functions the web page (`web/index.html`) calls: start the viewer in a canvas, hand over the files the
//! user dropped or picked, and open them. Everything else is the `bonescope` crate's `ui::web`.

use wasm_bindgen::prelude::*;

/// Starts the viewer in the canvas with id `canvas_id`; opens what the page's `?open=` parameters name.
#[wasm_bindgen]
pub async fn start(canvas_id: String) -> Result<(), JsValue> {
    // A panic shows in the browser's console with its message, not as "unreachable executed".
    std::panic::set_hook(Box::new(|info| web_sys::console::error_1(&JsValue::from_str(&info.to_string()))));
    let canvas = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(&canvas_id))
        .ok_or_else(|| JsValue::from_str(&format!("no element #{canvas_id} in the page")))?
        .dyn_into::<web_sys::HtmlCanvasElement>()
        .map_err(|_| JsValue::from_str(&format!("#{canvas_id} is not a canvas")))?;
    bonescope::ui::start_web(canvas).await
}

/// Keeps a dropped or picked file under its path relative to what was dropped (`crab/crab.qc`).
#[wasm_bindgen]
pub fn add_file(relative_path: String, bytes: Vec<u8>) {
    bonescope::ui::web::add_file(&relative_path, bytes);
}

/// Opens the files (or folders) added under these relative paths: as a new model, or (`add`) bound to the open
/// one.
#[wasm_bindgen]
pub fn open_added(relative_paths: Vec<String>, add: bool) {
    bonescope::ui::web::open_added(&relative_paths, add);
}
