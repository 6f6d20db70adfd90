//! The viewport's GPU path: the `render` [`Renderer`] lives in egui-wgpu's `callback_resources` (created once
//! with eframe's target format, sample count and depth buffer), the open asset is uploaded when the document
//! changes, and each frame an egui paint callback carries that frame's [`FrameData`] (camera, palette,
//! shading, overlays) to `prepare` and `paint`.
//!
//! GPU state is kept here, apart from the persisted UI state; nothing here decides *what* to show (that is the
//! `UiState` and the viewport), only how to hand it to the renderer.

use eframe::egui;
use eframe::egui_wgpu;
use glam::Mat4;

use crate::render::{
    BoneStyle, CameraMatrices, Depth, FrameData, ModelId, Renderer, ShadingMode, SkeletonStyle,
    camera::Bounds as RBounds,
};

use super::camera::OrbitCamera;
use super::document::Document;
use super::state::{Shading, UiState};

/// MSAA samples of the window (eframe `multisampling`) and so of the renderer's pipelines.
pub const SAMPLE_COUNT: u32 = 4;

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
}

impl GpuState {
    /// Creates the renderer in the render state's callback resources.
    pub fn new(rs: Option<&egui_wgpu::RenderState>) -> Self {
        let mut s = Self::default();
        if let Some(rs) = rs {
            let info = rs.adapter.get_info();
            s.adapter = info.name;
            s.backend = format!("{:?}", info.backend);
            let renderer = Renderer::new(&rs.device, &rs.queue, rs.target_format, SAMPLE_COUNT);
            rs.renderer.write().callback_resources.insert(renderer);
            s.renderer = true;
        }
        s
    }

    /// True when this frame draws the scene on the GPU.
    pub fn active(&self) -> bool {
        self.renderer && !self.force_painter
    }

    /// Uploads the document's asset when it is not the one on the GPU (and frees the old one).
    pub fn sync(&mut self, rs: Option<&egui_wgpu::RenderState>, doc: &Document) {
        if !self.renderer || self.model.is_some_and(|(g, _)| g == doc.generation) {
            return;
        }
        let Some(rs) = rs else { return };
        let mut guard = rs.renderer.write();
        let Some(renderer) = guard.callback_resources.get_mut::<Renderer>() else { return };
        if let Some((_, old)) = self.model.take() {
            renderer.remove(old);
        }
        let id = renderer.upload(&doc.asset);
        self.model = Some((doc.generation, id));
    }

    pub fn model(&self) -> Option<ModelId> {
        self.model.map(|(_, id)| id)
    }
}

pub fn shading_mode(s: Shading) -> ShadingMode {
    match s {
        Shading::Textured => ShadingMode::Textured,
        Shading::Solid => ShadingMode::Solid,
        Shading::Normals => ShadingMode::Normals,
        Shading::BoneWeights => ShadingMode::BoneWeight,
        Shading::DominantBone => ShadingMode::DominantBone,
        Shading::Stretch => ShadingMode::Stretch,
    }
}

/// What one frame shows.
pub struct SceneInput<'a> {
    pub doc: &'a Document,
    pub to_root: &'a [Mat4],
    pub palette: &'a [Mat4],
    pub state: &'a UiState,
    pub camera: &'a OrbitCamera,
    pub selected: Option<usize>,
    /// Bounds of the current pose (viewer frame), for the grid and the box.
    pub bounds: Option<super::document::Bounds>,
    pub dark: bool,
}

/// The renderer's input for one frame in a viewport of `size_px` pixels.
pub fn frame_data(model: ModelId, input: &SceneInput, size_px: [u32; 2]) -> FrameData {
    let aspect = size_px[0] as f32 / size_px[1].max(1) as f32;
    let cam = input.camera;
    let matrices = CameraMatrices { view: cam.view(), projection: cam.projection(aspect), eye: cam.eye() };
    let mut f = FrameData::new(matrices, size_px);
    let state = input.state;
    f.shading = shading_mode(state.shading);
    f.selected_bone = input.selected;
    f.wireframe = state.overlays.wireframe;
    f.wire_color = if input.dark { [0.0, 0.0, 0.0, 0.55] } else { [0.02, 0.02, 0.05, 0.45] };
    f.cull_back_faces = state.cull_back_faces;
    if state.overlays.mesh {
        f.add_instance(model, Mat4::IDENTITY, input.palette);
    }
    let bounds = input.bounds.filter(|b| !b.is_empty()).unwrap_or(input.doc.bind_bounds);
    let rb = RBounds::from_points([bounds.min, bounds.max]);
    if state.overlays.grid && !bounds.is_empty() {
        f.overlay.ground_grid(&rb);
    }
    if state.overlays.bounds && !bounds.is_empty() {
        f.overlay.aabb(&rb, [200, 170, 60, 255], Depth::Tested);
    }
    if state.overlays.skeleton || state.overlays.joint_axes {
        let to_viewer = input.doc.asset.axes.to_viewer;
        let joints: Vec<Mat4> = input.to_root.iter().map(|m| to_viewer * *m).collect();
        let radius = input.doc.bind_bounds.radius();
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
            f.overlay.skeleton(&input.doc.asset.skeleton.parents, &joints, &style);
        } else {
            // Axes only: no bones or joints.
            for j in &joints {
                f.overlay.axes(j, style.axis_length, Depth::OnTop);
            }
        }
    }
    f
}

/// The paint callback: prepares and paints the frame with the renderer from `callback_resources`.
struct Scene3d(FrameData);

impl egui_wgpu::CallbackTrait for Scene3d {
    fn prepare(
        &self,
        _device: &wgpu::Device,
        _queue: &wgpu::Queue,
        _screen: &egui_wgpu::ScreenDescriptor,
        encoder: &mut wgpu::CommandEncoder,
        resources: &mut egui_wgpu::CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        if let Some(r) = resources.get_mut::<Renderer>() {
            r.prepare(encoder, &self.0);
        }
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &egui_wgpu::CallbackResources,
    ) {
        if let Some(r) = resources.get::<Renderer>() {
            r.paint(pass);
        }
    }
}

/// Adds the 3D scene to `painter` over `rect` (points).
pub fn paint(painter: &egui::Painter, rect: egui::Rect, frame: FrameData) {
    painter.add(egui_wgpu::Callback::new_paint_callback(rect, Scene3d(frame)));
}
