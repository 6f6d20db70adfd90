//! Per-frame draw data: the camera, the model instances with their palettes and morph weights, the shading mode
//! and the overlay lists. Plain owned data (Send + Sync), so the viewer can hand a `FrameData` to an egui paint callback and
//! tests can build one by hand; [`super::Renderer::prepare`] turns it into GPU buffers.

use glam::Mat4;

use super::camera::CameraMatrices;
use super::overlay::Overlay;

/// Handle of an uploaded asset ([`super::Renderer::upload`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ModelId(pub(crate) usize);

/// How surfaces are coloured: the one list of shading modes of the viewer, `render` and the check thumbnails.
/// Command-line names: `textured`, `solid`, `normals`, `weights` (or `bone-weights`), `dominant` (or
/// `dominant-bone`), `stretch`, `vertex-colors`, `morph`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize, serde::Deserialize)]
pub enum ShadingMode {
    /// Material colour × texture (a checker where a texture is missing), lit.
    #[default]
    Textured,
    /// Material colour only, lit.
    Solid,
    /// Viewer-frame normals as RGB.
    Normals,
    /// Weight of the selected bone: dark blue (0) → red (1).
    #[value(name = "weights", alias = "bone-weights")]
    #[serde(alias = "BoneWeights")]
    BoneWeight,
    /// Each vertex in the colour of the bone with its largest weight.
    #[value(name = "dominant", alias = "dominant-bone")]
    DominantBone,
    /// Vertex stretch against the bind pose ([`crate::anim::edges`]): blue compressed, grey unchanged, red
    /// stretched.
    Stretch,
    /// The file's vertex colours, lit (other modes ignore them).
    #[value(name = "vertex-colors")]
    #[serde(alias = "VertexColors")]
    VertexColor,
    /// How far the active morph targets move each vertex before skinning, as a heat map from 0 to
    /// [`FrameData::stretch_range`] (model units).
    #[value(name = "morph")]
    MorphDisplacement,
}

impl ShadingMode {
    pub const ALL: [ShadingMode; 8] = [
        ShadingMode::Textured,
        ShadingMode::Solid,
        ShadingMode::Normals,
        ShadingMode::BoneWeight,
        ShadingMode::DominantBone,
        ShadingMode::Stretch,
        ShadingMode::VertexColor,
        ShadingMode::MorphDisplacement,
    ];

    /// The `mode` value of the shaders' `Camera`.
    pub fn code(self) -> u32 {
        match self {
            ShadingMode::Textured => 0,
            ShadingMode::Solid => 1,
            ShadingMode::Normals => 2,
            ShadingMode::BoneWeight => 3,
            ShadingMode::DominantBone => 4,
            ShadingMode::Stretch => 5,
            ShadingMode::VertexColor => 6,
            ShadingMode::MorphDisplacement => 7,
        }
    }

    /// Name for menus.
    pub fn label(self) -> &'static str {
        match self {
            ShadingMode::Textured => "Textured",
            ShadingMode::Solid => "Solid",
            ShadingMode::Normals => "Normals",
            ShadingMode::BoneWeight => "Bone weights",
            ShadingMode::DominantBone => "Dominant bone",
            ShadingMode::Stretch => "Stretch",
            ShadingMode::VertexColor => "Vertex colours",
            ShadingMode::MorphDisplacement => "Morph displacement",
        }
    }
}

/// One drawn copy of a model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelInstance {
    pub model: ModelId,
    /// Placement in the viewer frame, applied after the model's axis conversion.
    pub placement: Mat4,
    /// This instance's skinning palette: `palettes[palette_start .. palette_start + palette_len]`.
    pub palette_start: u32,
    pub palette_len: u32,
    /// This instance's morph-target weights: `morph_weights[morph_start .. morph_start + morph_len]`, one per
    /// target of the model (numbered as [`crate::anim::MorphLayout`] numbers them); empty for none.
    pub morph_start: u32,
    pub morph_len: u32,
    /// Drawn only as faint translucent edges behind the solid instances (e.g. the bind pose beside the
    /// animated one); never filled, so it cannot hide what it is compared with.
    pub ghost: bool,
}

/// Everything the renderer needs for one frame.
#[derive(Clone, Debug)]
pub struct FrameData {
    pub camera: CameraMatrices,
    /// Target size in pixels (point overlays are sized in pixels).
    pub viewport: [u32; 2],
    pub shading: ShadingMode,
    /// Bone for the weight heat map (and free for the UI to highlight).
    pub selected_bone: Option<usize>,
    /// Draw the triangle edges over the surfaces.
    pub wireframe: bool,
    /// Linear RGBA of the wireframe.
    pub wire_color: [f32; 4],
    /// Cull back faces per the format's winding; off shows both sides of every triangle (for files whose
    /// winding is wrong).
    pub cull_back_faces: bool,
    /// Edge-ratio deviation shown as full red or blue in [`ShadingMode::Stretch`]; in
    /// [`ShadingMode::MorphDisplacement`], the displacement (model units) shown as full red.
    pub stretch_range: f32,
    pub instances: Vec<ModelInstance>,
    /// Meshes (indices into each model's asset meshes) not drawn this frame: body-group choices not shown.
    pub hidden_meshes: Vec<usize>,
    /// The material drawn in place of each material (a skin family's `remap`, indices into each model's asset
    /// materials); empty: every material as it is.
    pub material_remap: Vec<usize>,
    /// All instances' palettes, back to back.
    pub palettes: Vec<Mat4>,
    /// All instances' morph-target weights, back to back.
    pub morph_weights: Vec<f32>,
    pub overlay: Overlay,
    /// Fill the viewport with this sRGB colour before the models (the viewer's background, drawn here because
    /// the renderer's flat fill is far cheaper than egui's on a CPU rasteriser); offscreen targets clear instead.
    pub background: Option<[u8; 4]>,
}

impl FrameData {
    pub fn new(camera: CameraMatrices, viewport: [u32; 2]) -> Self {
        Self {
            camera,
            viewport,
            shading: ShadingMode::Textured,
            selected_bone: None,
            wireframe: false,
            wire_color: [0.02, 0.02, 0.03, 0.55],
            cull_back_faces: true,
            stretch_range: crate::anim::edges::STRETCH_COLOUR_RANGE,
            instances: Vec::new(),
            hidden_meshes: Vec::new(),
            material_remap: Vec::new(),
            palettes: Vec::new(),
            morph_weights: Vec::new(),
            overlay: Overlay::default(),
            background: None,
        }
    }

    /// Adds a copy of `model` posed with `palette` (an empty palette, for a model without bones, becomes one
    /// identity matrix).
    pub fn add_instance(&mut self, model: ModelId, placement: Mat4, palette: &[Mat4]) {
        self.push_instance(model, placement, palette, &[], false);
    }

    /// Adds a copy of `model` posed with `palette` and morphed with `morph_weights` (one per target of the
    /// model, as [`crate::anim::Controller::evaluate_morph_weights`] writes them; targets past the slice stay at
    /// 0). Only the non-zero weights reach the GPU.
    pub fn add_morphed_instance(&mut self, model: ModelId, placement: Mat4, palette: &[Mat4], morph_weights: &[f32]) {
        self.push_instance(model, placement, palette, morph_weights, false);
    }

    /// Adds a ghost copy of `model` (see [`ModelInstance::ghost`]).
    pub fn add_ghost_instance(&mut self, model: ModelId, placement: Mat4, palette: &[Mat4]) {
        self.push_instance(model, placement, palette, &[], true);
    }

    fn push_instance(&mut self, model: ModelId, placement: Mat4, palette: &[Mat4], morphs: &[f32], ghost: bool) {
        let palette_start = self.palettes.len() as u32;
        if palette.is_empty() {
            self.palettes.push(Mat4::IDENTITY);
        } else {
            self.palettes.extend_from_slice(palette);
        }
        let palette_len = self.palettes.len() as u32 - palette_start;
        let morph_start = self.morph_weights.len() as u32;
        self.morph_weights.extend_from_slice(morphs);
        let morph_len = morphs.len() as u32;
        self.instances.push(ModelInstance {
            model,
            placement,
            palette_start,
            palette_len,
            morph_start,
            morph_len,
            ghost,
        });
    }

    /// Drops the instances, palettes and overlay lists, keeping their allocations for the next frame.
    pub fn clear(&mut self) {
        self.instances.clear();
        self.palettes.clear();
        self.morph_weights.clear();
        self.overlay.clear();
    }
}
