//! The raw records of an ASE file, still in the file's terms (world-space vertices, ticks, 3ds Max axis-angles):
//! what `parse` produces and `build` turns into the scene model. Plain data, no behaviour beyond small lookups.

use glam::{Mat4, Vec3, Vec4};
use rustc_hash::FxHashMap;

use crate::scene::Warning;

#[derive(Clone, Debug)]
pub(super) struct Scene {
    pub first_frame: i64,
    pub last_frame: i64,
    pub frame_speed: f32,
    pub ticks_per_frame: f32,
    pub file_name: String,
    /// Whether the file had a `*SCENE` block.
    pub present: bool,
}

impl Default for Scene {
    fn default() -> Self {
        Self {
            first_frame: 0,
            last_frame: 0,
            frame_speed: 30.0,
            ticks_per_frame: 160.0,
            file_name: String::new(),
            present: false,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub(super) struct RawMap {
    pub class: String,
    pub bitmap: String,
    pub u_offset: f32,
    pub v_offset: f32,
    pub u_tiling: f32,
    pub v_tiling: f32,
    pub angle: f32,
}

#[derive(Clone, Debug, Default)]
pub(super) struct RawMaterial {
    pub line: usize,
    pub name: String,
    pub class: String,
    pub ambient: Option<[f32; 3]>,
    pub diffuse: Option<[f32; 3]>,
    pub specular: Option<[f32; 3]>,
    pub transparency: f32,
    pub two_sided: bool,
    pub diffuse_map: Option<RawMap>,
    /// `*SUBMATERIAL i` blocks by index (Multi/Sub-Object).
    pub subs: Vec<(u32, RawMaterial)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NodeKind {
    Geometry,
    Helper,
    Camera,
    Light,
    Shape,
    /// The `.Target` of a target camera or light, written inside its owner's block.
    Target,
}

impl NodeKind {
    pub fn label(self) -> &'static str {
        match self {
            NodeKind::Geometry => "geometry",
            NodeKind::Helper => "helper",
            NodeKind::Camera => "camera",
            NodeKind::Light => "light",
            NodeKind::Shape => "shape",
            NodeKind::Target => "target",
        }
    }
}

/// One face of `*MESH_FACE_LIST`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct RawFace {
    pub v: [u32; 3],
    /// Smoothing groups as bits (group g → bit g−1).
    pub smoothing: u32,
    pub mtl: u32,
}

/// Marks a face corner without a texture / colour vertex.
pub(super) const NONE: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
pub(super) struct RawChannel {
    pub channel: u32,
    pub tverts: Vec<Vec3>,
    /// Per face; `[NONE; 3]` where the file gave none.
    pub tfaces: Vec<[u32; 3]>,
}

#[derive(Clone, Debug, Default)]
pub(super) struct RawMesh {
    pub line: usize,
    pub time: i64,
    pub positions: Vec<Vec3>,
    pub faces: Vec<RawFace>,
    /// The main texture channel.
    pub uv: RawChannel,
    pub cverts: Vec<Vec3>,
    pub cfaces: Vec<[u32; 3]>,
    /// Per face: the three corner normals (`*MESH_VERTEXNORMAL`), NaN where missing. Empty without
    /// `*MESH_NORMALS`.
    pub normals: Vec<[Vec3; 3]>,
    pub extra_channels: Vec<RawChannel>,
    pub weights: Option<RawSkin>,
    /// `*MESH_ANIMATION` written inside the mesh (some exporters do).
    pub frames: Vec<RawMesh>,
}

/// Skin weights: a bone list and, per listed vertex, (bone list index, weight) pairs.
#[derive(Clone, Debug, Default)]
pub(super) struct RawSkin {
    pub line: usize,
    pub bones: Vec<String>,
    /// (vertex index, first pair, pair count).
    pub vertices: Vec<(u32, u32, u32)>,
    pub pairs: Vec<(u32, f32)>,
}

impl RawSkin {
    /// Index of the bone a soft-skin entry names by the token's bytes as written. Long weight lists name the same
    /// few bones over and over, so the bytes are looked up first and a name is decoded (and allocated) only for
    /// bytes not seen before; two spellings that decode to the same name still share one bone.
    pub(super) fn bone_index<'a>(&mut self, token: &'a [u8], lookup: &mut BoneLookup<'a>) -> u32 {
        if let Some(&index) = lookup.by_token.get(token) {
            return index;
        }
        let name = crate::io::text::decode_name(token);
        let index = *lookup.by_name.entry(name).or_insert_with_key(|name| {
            self.bones.push(name.clone());
            (self.bones.len() - 1) as u32
        });
        lookup.by_token.insert(token, index);
        index
    }
}

/// The bones a soft-skin block has named so far, by token bytes and by decoded name (see
/// [`RawSkin::bone_index`]).
#[derive(Default)]
pub(super) struct BoneLookup<'a> {
    by_token: FxHashMap<&'a [u8], u32>,
    by_name: FxHashMap<String, u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) enum TrackKind {
    /// `*CONTROL_*_TRACK`: per-sample values (rotations relative, identical samples left out).
    #[default]
    Sampled,
    Linear,
    Bezier,
    Tcb,
}

/// The numbers of a key after its value, where the file writes them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct KeyExtras {
    /// Scale keys: the scale axis (xyz + angle).
    pub scale_axis: Vec4,
    /// TCB keys: tension, continuity, bias, ease in, ease out.
    pub tcb: [f32; 5],
    /// Bezier keys: in and out tangents when the file has them.
    pub tangents: Option<(Vec3, Vec3)>,
}

/// One controller's keys as written, in columns: sampled tracks (tens of thousands of keys in a long take) carry
/// a tick and a value per key and nothing else, so the extras of keyed controllers live in a column of their own
/// that stays empty for them.
#[derive(Clone, Debug, Default)]
pub(super) struct RawTrack {
    pub line: usize,
    pub kind: TrackKind,
    pub ticks: Vec<i64>,
    /// Per key: position/scale xyz (w 0), or rotation axis xyz + angle.
    pub values: Vec<Vec4>,
    /// Empty when no key has extras, else one per key (default where a key has none).
    pub extras: Vec<KeyExtras>,
}

impl RawTrack {
    pub fn new(line: usize, kind: TrackKind) -> Self {
        Self { line, kind, ..Self::default() }
    }

    pub fn len(&self) -> usize {
        self.ticks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ticks.is_empty()
    }

    /// Appends a key; `extras` only where the file wrote numbers after the value.
    pub fn push(&mut self, tick: i64, value: Vec4, extras: Option<KeyExtras>) {
        if let Some(e) = extras {
            self.extras.resize(self.ticks.len(), KeyExtras::default());
            self.extras.push(e);
        } else if !self.extras.is_empty() {
            self.extras.push(KeyExtras::default());
        }
        self.ticks.push(tick);
        self.values.push(value);
    }

    /// The extras of key `i` (default where the track has none).
    pub fn extras_of(&self, i: usize) -> KeyExtras {
        self.extras.get(i).copied().unwrap_or_default()
    }
}

#[derive(Clone, Debug, Default)]
pub(super) struct RawAnim {
    pub pos: Option<RawTrack>,
    pub rot: Option<RawTrack>,
    pub scale: Option<RawTrack>,
}

impl RawAnim {
    /// Keys of all three controllers (the work of building the node's track).
    pub fn key_count(&self) -> usize {
        [&self.pos, &self.rot, &self.scale].into_iter().flatten().map(RawTrack::len).sum()
    }
}

#[derive(Clone, Debug)]
pub(super) struct RawNode {
    pub kind: NodeKind,
    pub line: usize,
    pub name: String,
    pub parent: Option<String>,
    /// World matrix (glam column vectors) from `*NODE_TM`.
    pub tm: Option<Mat4>,
    pub mesh: Option<RawMesh>,
    pub frames: Vec<RawMesh>,
    pub material_ref: Option<(usize, i64)>,
    pub wire_color: Option<[f32; 3]>,
    pub anim: Option<RawAnim>,
    pub skin: Option<RawSkin>,
}

impl RawNode {
    pub(super) fn new(kind: NodeKind, line: usize) -> Self {
        Self {
            kind,
            line,
            name: String::new(),
            parent: None,
            tm: None,
            mesh: None,
            frames: Vec::new(),
            material_ref: None,
            wire_color: None,
            anim: None,
            skin: None,
        }
    }
}

/// What the file says about itself: `*3DSMAX_ASCIIEXPORT <version>` and its `*COMMENT`s (exporters sign there).
#[derive(Clone, Debug, Default)]
pub(super) struct Header {
    /// The version as written (`200` for 3ds Max's own exporter, `110` for GothicSourcer and Kerrax files).
    pub version: Option<String>,
    pub comments: Vec<String>,
}

impl Header {
    pub fn version_number(&self) -> Option<f64> {
        self.version.as_deref().and_then(|v| v.trim().parse::<f64>().ok()).filter(|v| v.is_finite())
    }
}

#[derive(Debug, Default)]
pub(super) struct RawFile {
    pub header: Header,
    pub scene: Scene,
    pub materials: Vec<(u32, RawMaterial)>,
    pub nodes: Vec<RawNode>,
    /// Top-level `*MESH_SOFTSKINVERTS` weights: (mesh node name, weights).
    pub soft_skins: Vec<(String, RawSkin)>,
    pub warnings: Vec<Warning>,
    /// Unknown top-level blocks, by name, with how often they occurred.
    pub skipped: Vec<(String, usize)>,
    /// Parallel read only: non-finite numbers of the top level (count, first line), reported with the objects'.
    pub non_finite_report: Option<(usize, usize)>,
}
