//! The viewport's GPU path: the `render` renderer lives in egui-wgpu's `callback_resources` (installed once
//! with eframe's target format, sample count and depth buffer), the open asset is uploaded when the document
//! changes, and each frame an egui paint callback carries that frame's [`FrameData`] (camera, palette,
//! shading, overlays) to `prepare` and `paint`.
//!
//! GPU state is kept here, apart from the persisted UI state; nothing here decides *what* to show (that is the
//! `UiState` and the viewport), only how to hand it to the renderer.

use eframe::egui;
use eframe::egui_wgpu;
use glam::Mat4;

use crate::render::{BoneStyle, Depth, FrameData, ModelId, OrbitCamera, ShadingMode, SkeletonStyle};

use crate::ui::state::document::Document;
use crate::ui::state::settings::UiState;

/// MSAA samples of the window (eframe `multisampling`) and so of the renderer's pipelines, unless the
/// `BONESCOPE_MSAA` environment variable says otherwise (1, 2, 4 or 8: for slow software rasterisers, or drivers
/// that cannot multisample the window).
pub const SAMPLE_COUNT: u32 = 4;

/// The sample count to use: `BONESCOPE_MSAA`, else [`SAMPLE_COUNT`] unless the only adapters are OpenGL ones
/// (a multisampled window shows black there) or CPU rasterisers.
pub fn sample_count() -> u32 {
    // eframe's web painter draws without multisampling; the scene must match its render pass.
    if cfg!(target_arch = "wasm32") {
        return 1;
    }
    static CHOSEN: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *CHOSEN.get_or_init(|| {
        if let Some(n) = std::env::var("BONESCOPE_MSAA")
            .ok()
            .and_then(|v| v.trim().parse::<u32>().ok())
            .filter(|n| matches!(n, 1 | 2 | 4 | 8))
        {
            return n;
        }
        // A CPU rasteriser (lavapipe, llvmpipe, WARP) pays for every sample of the whole window, egui included:
        // 4× MSAA cost most of its frame time, so a machine whose only adapters are CPU or GL ones draws without.
        if software_only() { 1 } else { SAMPLE_COUNT }
    })
}

/// True when no adapter is a hardware one on a modern API: every adapter is a CPU rasteriser or OpenGL. Decided
/// before the window exists, so it looks at the adapters the way egui-wgpu will (same backends, `WGPU_BACKEND`
/// honoured).
pub fn software_only() -> bool {
    // A web page cannot list adapters without waiting for the browser, which a frame cannot do.
    if cfg!(target_arch = "wasm32") {
        return false;
    }
    static ONLY: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ONLY.get_or_init(|| {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = desc_backends();
        let instance = wgpu::Instance::new(desc);
        let adapters = pollster::block_on(instance.enumerate_adapters(desc_backends()));
        let hardware = |a: &wgpu::Adapter| {
            let info = a.get_info();
            info.backend != wgpu::Backend::Gl && info.device_type != wgpu::DeviceType::Cpu
        };
        !adapters.iter().any(hardware)
    })
}

fn desc_backends() -> wgpu::Backends {
    wgpu::Backends::from_env().unwrap_or(wgpu::Backends::PRIMARY | wgpu::Backends::GL)
}

/// What the app keeps about the GPU.
#[derive(Default)]
pub struct GpuState {
    pub adapter: String,
    pub backend: String,
    /// The renderer is in `callback_resources`.
    pub renderer: bool,
    /// The uploaded model and the document generation it belongs to.
    model: Option<(u64, ModelId)>,
    /// Draw with the egui painter even though the renderer is there (View menu), e.g. to compare.
    pub force_painter: bool,
    /// Why there is no renderer (the viewport then uses the egui painter).
    pub unavailable: Option<String>,
    /// How the installed renderer reads palettes (storage buffers, or data textures on WebGL2 and GL).
    pub palette_path: Option<crate::render::PalettePath>,
}

impl GpuState {
    /// Creates the renderer in the render state's callback resources.
    pub fn new(rs: Option<&egui_wgpu::RenderState>) -> Self {
        let mut s = Self::default();
        let Some(rs) = rs else {
            s.unavailable = Some("no wgpu render state".into());
            return s;
        };
        let info = rs.adapter.get_info();
        s.adapter = info.name;
        s.backend = format!("{:?}", info.backend);
        // The renderer picks its palette path from the device: storage buffers, or data textures where the
        // vertex stage cannot read storage buffers (WebGL2, and GL adapters, which egui-wgpu opens with WebGL2
        // limits).
        // Pipeline creation reports problems as validation errors: catch them instead of dying on them.
        let scope = rs.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let installed = crate::render::viewport::install(Some(rs), sample_count());
        // In a web page the answer comes from the browser later, which this frame cannot wait for: there a
        // failure shows in the browser's console instead.
        #[cfg(target_arch = "wasm32")]
        let popped = {
            drop(scope);
            None::<wgpu::Error>
        };
        #[cfg(not(target_arch = "wasm32"))]
        let popped = pollster::block_on(scope.pop());
        match popped {
            None => s.renderer = installed,
            Some(e) => s.unavailable = Some(format!("the renderer could not be created: {e}")),
        }
        if s.renderer {
            s.palette_path = crate::render::viewport::with_renderer(rs, |r| r.palette_path());
        }
        s
    }

    /// True when this frame draws the scene on the GPU.
    pub fn active(&self) -> bool {
        self.renderer && !self.force_painter
    }

    /// The status line's name of what draws the viewport.
    pub fn renderer_name(&self) -> &'static str {
        match (self.active(), self.palette_path) {
            (true, Some(crate::render::PalettePath::DataTextures)) => "wgpu renderer, palette in textures",
            (true, _) => "wgpu renderer",
            (false, _) => "egui painter",
        }
    }

    /// Uploads the document's asset when it is not the one on the GPU (and frees the old one).
    pub fn sync(&mut self, rs: Option<&egui_wgpu::RenderState>, doc: &Document) {
        if !self.renderer || self.model.is_some_and(|(g, _)| g == doc.generation) {
            return;
        }
        let Some(rs) = rs else { return };
        let old = self.model.take();
        self.model = crate::render::viewport::with_renderer(rs, |renderer| {
            if let Some((_, old)) = old {
                renderer.remove(old);
            }
            (doc.generation, renderer.upload(&doc.asset))
        });
    }

    pub fn model(&self) -> Option<ModelId> {
        self.model.map(|(_, id)| id)
    }
}

/// What one frame shows.
pub struct SceneInput<'a> {
    pub doc: &'a Document,
    pub to_root: &'a [Mat4],
    pub palette: &'a [Mat4],
    /// One weight per morph target of the model (the controller's layout), after manual overrides.
    pub morph_weights: &'a [f32],
    /// Input recordings evaluated now (hands, gaze, head camera), drawn depth-tested with the mesh.
    pub recordings: &'a [crate::anim::recording::RecordingPose],
    /// Meshes not drawn (body-group choices not shown).
    pub hidden_meshes: &'a [usize],
    /// The skin family's material remap (empty: none).
    pub material_remap: &'a [usize],
    /// The model script's hitboxes, attachments and boxes, when shown.
    pub script_shapes: Option<&'a crate::ui::views::model_script_shapes::ScriptShapes>,
    /// The displacement the morph-displacement mode shows as full red.
    pub morph_range: f32,
    pub state: &'a UiState,
    pub camera: &'a OrbitCamera,
    pub selected: Option<usize>,
    /// Bounds of the current pose (viewer frame), for the grid and the box.
    pub bounds: Option<crate::scene::Bounds>,
    pub dark: bool,
    /// The viewport's background (sRGB).
    pub background: [u8; 4],
}

/// Bones of the bind-pose ghost: a translucent grey-blue, quieter than the live skeleton.
const GHOST_BONE: [u8; 4] = [150, 165, 200, 110];

/// The renderer's input for one frame in a viewport of `size_px` pixels.
pub fn frame_data(model: ModelId, input: &SceneInput, size_px: [u32; 2]) -> FrameData {
    let aspect = size_px[0] as f32 / size_px[1].max(1) as f32;
    let mut f = FrameData::new(input.camera.matrices(aspect), size_px);
    f.background = Some(input.background);
    let state = input.state;
    f.shading = state.shading;
    if state.shading == ShadingMode::MorphDisplacement {
        f.stretch_range = input.morph_range;
    }
    f.selected_bone = input.selected;
    f.wireframe = state.overlays.wireframe;
    f.wire_color = if input.dark { [0.0, 0.0, 0.0, 0.55] } else { [0.02, 0.02, 0.05, 0.45] };
    f.cull_back_faces = state.cull_back_faces;
    f.hidden_meshes = input.hidden_meshes.to_vec();
    f.material_remap = input.material_remap.to_vec();
    if state.overlays.mesh {
        f.add_morphed_instance(model, Mat4::IDENTITY, input.palette, input.morph_weights);
    }
    if state.overlays.bind_ghost {
        f.add_ghost_instance(model, Mat4::IDENTITY, &input.doc.bind_palette);
        let to_viewer = input.doc.asset.axes.to_viewer;
        let joints: Vec<Mat4> = input.doc.bind_to_root.iter().map(|m| to_viewer * *m).collect();
        let style = SkeletonStyle {
            bones: BoneStyle::Lines,
            joints: true,
            axis_length: 0.0,
            bone_color: GHOST_BONE,
            joint_color: GHOST_BONE,
            selected: None,
            selected_color: GHOST_BONE,
            joint_size: 4.0,
            depth: Depth::Tested,
        };
        f.overlay.skeleton(&input.doc.asset.skeleton.parents, &joints, &style);
    }
    let bounds = input.bounds.filter(|b| !b.is_empty()).unwrap_or(input.doc.bind_bounds);
    let bind = input.doc.bind_bounds;
    if state.overlays.grid && bind.is_empty() && !bounds.is_empty() {
        // Nothing in a bind pose (a recording alone): under what is shown.
        f.overlay.ground_grid(&bounds);
    } else if state.overlays.grid && !bind.is_empty() {
        // The ground stays at the bind pose's feet (a running or jumping character moves over it; the grid does
        // not float with its lowest point), and the grid is centred under the joints wherever they go.
        let mut joints = crate::scene::Bounds::EMPTY;
        for m in input.to_root {
            joints.add(input.doc.asset.axes.to_viewer.transform_point3(m.w_axis.truncate()));
        }
        let under = if joints.is_empty() { bind.center() } else { joints.center() };
        f.overlay.ground_grid_at(glam::Vec3::new(under.x, bind.min.y, under.z), bind.size().max_element());
    }
    if state.overlays.bounds && !bounds.is_empty() {
        f.overlay.aabb(&bounds, [200, 170, 60, 255], Depth::Tested);
    }
    if !input.recordings.is_empty() {
        let shapes = crate::ui::views::recording_shapes::recording_shapes(
            input.recordings,
            input.doc.asset.axes.to_viewer,
            state.overlays.joint_axes,
        );
        for (a, b, color) in shapes.segments {
            f.overlay.line(a, b, color, Depth::Tested);
        }
        for (p, color, size) in shapes.points {
            f.overlay.point(p, size, color, Depth::Tested);
        }
    }
    if let Some(shapes) = input.script_shapes {
        for &(a, b, color) in &shapes.segments {
            f.overlay.line(a, b, color, Depth::OnTop);
        }
    }
    if state.overlays.skeleton || state.overlays.joint_axes {
        let to_viewer = input.doc.asset.axes.to_viewer;
        let joints: Vec<Mat4> = input.to_root.iter().map(|m| to_viewer * *m).collect();
        let radius = input.doc.bind_bounds.sizing_radius();
        let style = SkeletonStyle {
            bones: BoneStyle::Lines,
            joints: state.overlays.skeleton,
            axis_length: if state.overlays.joint_axes { radius * 0.05 } else { 0.0 },
            bone_color: if input.dark { [120, 220, 255, 255] } else { [0, 90, 160, 255] },
            joint_color: if input.dark { [150, 230, 255, 255] } else { [0, 70, 140, 255] },
            selected: input.selected,
            selected_color: [255, 150, 30, 255],
            joint_size: 7.0,
            depth: Depth::OnTop,
        };
        if state.overlays.skeleton {
            // Joints closer on screen than their markers are wide (a face's) are drawn smaller.
            let pixels_per_unit = size_px[1] as f32 / (2.0 * input.camera.half_height()).max(f32::MIN_POSITIVE);
            let mut sizes = Vec::new();
            crate::render::overlay::joint_marker_sizes(
                &input.doc.joint_spacing,
                pixels_per_unit,
                style.joint_size,
                &mut sizes,
            );
            f.overlay.skeleton_sized(&input.doc.asset.skeleton.parents, &joints, &style, &sizes);
        } else {
            // Axes only: no bones or joints.
            for j in &joints {
                f.overlay.axes(j, style.axis_length, Depth::OnTop);
            }
        }
    }
    f
}

/// Adds the 3D scene to `painter` over `rect` (points).
pub fn paint(painter: &egui::Painter, rect: egui::Rect, frame: FrameData) {
    painter.add(crate::render::viewport::paint_callback(rect, frame));
}

/// Where [`flat_fill`] keeps whether the flat-fill pipeline is installed and the next free slot of this frame.
fn flat_fill_id() -> egui::Id {
    egui::Id::unique("bonescope flat fills")
}

/// Installs the flat-fill pipeline ([`crate::render::flat_fill`]) for the window; [`flat_fill`] uses egui without it.
pub fn install_flat_fills(ctx: &egui::Context, rs: Option<&egui_wgpu::RenderState>) {
    if crate::render::flat_fill::install(rs, sample_count()) {
        ctx.data_mut(|d| d.insert_temp(flat_fill_id().with("installed"), true));
    }
}

/// Fills `rect` (clipped to `painter`'s clip) with an opaque `color`, through the flat-fill pipeline where it is
/// installed (on a CPU rasteriser far cheaper than egui's fill shader for large areas), else with egui. Square
/// corners only.
pub fn flat_fill(painter: &egui::Painter, rect: egui::Rect, color: egui::Color32) {
    let ctx = painter.ctx();
    let id = flat_fill_id();
    let installed = ctx.data(|d| d.get_temp::<bool>(id.with("installed"))).unwrap_or(false);
    let slot = (installed && color.is_opaque() && rect.is_positive()).then(|| {
        let pass = ctx.cumulative_pass_nr();
        ctx.data_mut(|d| {
            let next = d.get_temp_mut_or_insert_with(id, || (pass, 0u32));
            if next.0 != pass {
                *next = (pass, 0);
            }
            next.1 += 1;
            next.1 - 1
        })
    });
    match slot.filter(|s| *s < crate::render::flat_fill::SLOTS) {
        Some(slot) => {
            let callback = crate::render::flat_fill::FlatFillCallback { slot, color: color.to_array() };
            painter.add(egui_wgpu::Callback::new_paint_callback(rect, callback));
        }
        None => {
            painter.rect_filled(rect, 0.0, color);
        }
    }
}
