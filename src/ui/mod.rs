//! The viewer application (eframe/egui): a menu bar, the 3D viewport, the outliner and inspector side panels,
//! the timeline with its track mixer, and the status line.
//!
//! Structure: views only *read* the viewer state and push [`Command`](commands::command::Command)s;
//! [`ViewerApp::apply`](app::ViewerApp::apply) is the one place that changes state. What survives a restart
//! (recent files, panel visibility, viewport and playback options) is
//! [`UiState`](state::settings::UiState) (serde, stored by eframe's persistence); GPU objects live apart from it
//! in the app. This module owns the command-line arguments of the viewer and starting the native window; it
//! must not parse files itself (that is `io`) or evaluate animation beyond driving `anim`.
//!
//! Layout, each folder importing only those above it (`app` and the entry points excepted):
//! - [`worker`]: a value computed on a worker thread (a leaf);
//! - [`state`]: the viewer's data, no egui: the open document and its view, the player and the model script's
//!   flow, morph overrides, diagnostics results, persisted settings, the frame clock;
//! - [`commands`]: [`Command`](commands::command::Command), and the jobs (loading, dialogs, export, file
//!   watching) whose polls return a [`JobOutcome`](commands::jobs::JobOutcome) for the app to apply;
//! - [`views`]: the egui panels, menu bar, windows, viewport, keymap and GPU drawing glue: they take state (or
//!   narrow inputs made of it) and push commands;
//! - [`app`]: [`ViewerApp`](app::ViewerApp), its struct and every `impl` of it (the frame, `apply`, how a load
//!   becomes the document);
//! - [`automation`]: the command line's scripted start-up and `--screenshot`; `web` (wasm32 only): the web page.

pub(crate) mod app;
pub(crate) mod automation;
pub mod commands;
pub(crate) mod state;
pub(crate) mod views;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub(crate) mod worker;

use std::path::PathBuf;

#[cfg(not(target_arch = "wasm32"))]
use crate::AppError;

/// Command-line arguments of the viewer (the default command of `bonescope`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ViewerArgs {
    /// Files to open: a model first, then animation files bound to it by bone name. The built-in demo when
    /// none is given. A Gothic `.vdf` archive (or a game's `Data` folder) followed by a model's name opens that
    /// model inside it (`bonescope Anims.vdf HUMANS.MDS`); given alone, the models inside to choose from.
    pub files: Vec<PathBuf>,
    /// Save a PNG of the whole window to PATH after `--after-frames` frames, then exit (for automated checks).
    #[arg(long, value_name = "PATH")]
    pub screenshot: Option<PathBuf>,
    /// Frames to draw before taking the `--screenshot` (loading finishes first).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub after_frames: u32,
    /// Initial inner window size in points, e.g. `1600x900`.
    #[arg(long, value_name = "WxH", value_parser = |s: &str| crate::args::parse_size(s, 100))]
    pub size: Option<(u32, u32)>,
    /// Clip to play first (by name); the first clip of the model when not given.
    #[arg(long, value_name = "NAME")]
    pub clip: Option<String>,
    /// Start paused at this time (seconds of the first clip) instead of playing from 0.
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f32>,
    /// Select this bone (by name) once the files are loaded.
    #[arg(long, value_name = "BONE")]
    pub select: Option<String>,
    /// Shading mode to start with (overrides the saved one).
    #[arg(long, value_enum, value_name = "MODE")]
    pub shading: Option<crate::render::ShadingMode>,
    /// Add a mixer track playing CLIP from SECONDS with WEIGHT (repeatable), e.g. `--track "Walk@0.4*0.5"`.
    #[arg(long = "track", value_name = "CLIP[@SECONDS][*WEIGHT]")]
    pub tracks: Vec<String>,
    /// Tab of the right-hand panel to show.
    #[arg(long, value_enum, value_name = "TAB")]
    pub tab: Option<state::settings::RightTab>,
    /// Once the diagnostics are in, show finding N (0 = the first listed), as a click on it would.
    #[arg(long, value_name = "N")]
    pub finding: Option<usize>,
    /// Zoom in by this factor after framing the scene (2 = twice as close).
    #[arg(long, value_name = "FACTOR")]
    pub zoom: Option<f32>,
    /// Which axis of the model file points up (as View › Up axis), for a file that opens lying down: +x, -x,
    /// +y, -y, +z or -z.
    #[arg(long, value_enum, value_name = "AXIS", allow_hyphen_values = true)]
    pub up: Option<crate::scene::UpAxis>,
    /// Look from this side of the character instead of from the front right. Its front is the one its bones'
    /// side names give (or the one made the front in View). As in Blender and 3ds Max, `right` looks from the
    /// right of the front view and so shows the character's left side; `left` shows its right side.
    #[arg(long, value_enum, value_name = "SIDE")]
    pub view: Option<crate::render::camera::ViewPreset>,
    /// Draw the viewport with the egui painter (the CPU fallback) instead of the GPU renderer.
    #[arg(long)]
    pub painter: bool,
    /// Set a morph target's weight by hand (repeatable): NAME=WEIGHT, NAME a target's name (on every mesh that has
    /// it) or MESH/TARGET; ticked "set by hand" in the Morphs tab.
    #[arg(long = "morph", value_name = "NAME=WEIGHT", value_parser = crate::anim::morph::parse_morph_setting, allow_hyphen_values = true)]
    pub morphs: Vec<crate::anim::morph::MorphSetting>,
    /// Draw with skin family N of a GoldSrc model or a QC's `$texturegroup` (0 is the default skin).
    #[arg(long, value_name = "N")]
    pub skin: Option<usize>,
    /// Show a body group's choice (repeatable): GROUP=CHOICE, each by name or by number from 0.
    #[arg(long = "body", value_name = "GROUP=CHOICE")]
    pub bodies: Vec<String>,
    /// Set a bone controller (repeatable): NAME=VALUE, NAME its number, its bone (`Neck`), its bone and channel
    /// (`Neck.YR`) or `mouth`; VALUE in degrees (rotations) or model units (translations).
    #[arg(long = "controller", value_name = "NAME=VALUE", allow_hyphen_values = true)]
    pub controllers: Vec<String>,
    /// Blend parameters of blend sequences: A or A,B, in the first clip's blend ranges (degrees for XR/YR/ZR; 0–1
    /// for a parameter the file gives no range).
    #[arg(long, value_name = "A[,B]", allow_hyphen_values = true)]
    pub blend: Option<String>,
    /// Show the bind pose ghosted behind the animated mesh.
    #[arg(long)]
    pub ghost: bool,
    /// Show a model script's hitboxes, attachments, boxes and eye position (off at first).
    #[arg(long)]
    pub hitboxes: bool,
    /// Colour theme (overrides the saved one; egui follows the system by default).
    #[arg(long, value_enum, value_name = "THEME")]
    pub theme: Option<Theme>,
    /// A folder to look for textures in after the model's own folder (repeatable; before the folders of
    /// Settings › Texture folders and a model script's texture folders).
    #[arg(long = "textures", value_name = "DIR")]
    pub textures: Vec<PathBuf>,
    /// Retargeting of the animation files opened with the model: `animation`, `rotation-only` or `scaled` (see
    /// `bonescope info --help`); each binding can be changed in the Files tab.
    #[arg(long, value_enum, value_name = "MODE")]
    pub retarget: Option<crate::scene::TranslationMode>,
    /// Root motion of the animation files opened with the model: `keep`, `lock` or `ground`.
    #[arg(long, value_enum, value_name = "MODE")]
    pub root: Option<crate::scene::RootMotion>,
    /// Where the viewer reads files (the disk; the web page gives the files dropped on it).
    #[arg(skip)]
    pub file_access: crate::files::Files,
}

/// `--theme`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Dark,
    Light,
    System,
}

/// Name of the app: the window title and the folder eframe stores its settings in.
pub const APP_NAME: &str = "bonescope";

/// Opens the viewer window and runs until it is closed (or the screenshot is written).
#[cfg(not(target_arch = "wasm32"))]
pub fn run(args: ViewerArgs) -> Result<(), AppError> {
    use eframe::egui;
    let launched = std::time::Instant::now();
    let screenshot_mode = args.screenshot.is_some();
    let size = args.size.map_or((1600.0, 900.0), |(w, h)| (w as f32, h as f32));
    let mut viewport = egui::ViewportBuilder::default()
        .with_title(APP_NAME)
        .with_app_id(APP_NAME)
        .with_inner_size([size.0, size.1])
        .with_min_inner_size([640.0, 400.0])
        .with_drag_and_drop(true);
    if screenshot_mode {
        // The screenshot must have the requested size, whatever size the window had last time.
        viewport = viewport.with_position([0.0, 0.0]);
    }
    let options = eframe::NativeOptions {
        viewport,
        renderer: eframe::Renderer::Wgpu,
        // A depth buffer for the 3D viewport, which paints into egui's render pass.
        depth_buffer: 32,
        multisampling: views::gpu::sample_count() as u16,
        // egui's dithering adds noise in its fragment shader against banding in gradients, which this UI does not
        // draw; on a CPU rasteriser it cost a quarter of the time egui's fills take.
        dithering: !views::gpu::software_only(),
        // Automated screenshots must not depend on (or change) the user's saved window and panel layout.
        persist_window: !screenshot_mode,
        ..Default::default()
    };
    let outcome = std::sync::Arc::new(std::sync::Mutex::new(None::<String>));
    let outcome_in_app = outcome.clone();
    eframe::run_native(
        APP_NAME,
        options,
        Box::new(move |cc| Ok(Box::new(app::ViewerApp::new(cc, args, outcome_in_app, launched)))),
    )
    .map_err(|e| AppError::Window(format!("could not open the viewer window: {e}")))?;
    // A screenshot run reports its failure (e.g. the PNG could not be written) through the exit status.
    match outcome.lock().map(|mut o| o.take()) {
        Ok(Some(error)) => Err(AppError::Window(error)),
        _ => Ok(()),
    }
}

/// Starts the viewer in a web page's canvas (the `web/` package calls this), opening what the page's `?open=`
/// parameters name (the demo character otherwise). The page's side of it is [`web`].
#[cfg(target_arch = "wasm32")]
pub async fn start_web(canvas: web_sys::HtmlCanvasElement) -> Result<(), wasm_bindgen::JsValue> {
    let (paths, refused) = web::open_parameters();
    let args = ViewerArgs { files: paths, file_access: web::page_files(), ..Default::default() };
    let options = eframe::WebOptions { depth_buffer: 32, ..Default::default() };
    let outcome = std::sync::Arc::new(std::sync::Mutex::new(None::<String>));
    eframe::WebRunner::new()
        .start(
            canvas,
            options,
            Box::new(move |cc| {
                web::set_context(&cc.egui_ctx);
                let mut app = app::ViewerApp::new(cc, args, outcome, web_time::Instant::now());
                if !refused.is_empty() {
                    app.notify(format!(
                        "?open= names files of other sites, which a page may not read: {}",
                        refused.join(", ")
                    ));
                }
                Ok(Box::new(app))
            }),
        )
        .await
}
