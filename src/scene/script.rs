//! What a character's model script says beyond meshes and clips: the Valve QC (`$body`, `$sequence`, `$hbox`,
//! `$attachment`, …) or Gothic MDS/MMS (`meshAndTree`, `ani`, `aniAlias`, `aniBlend`, `morphAni`, …) that the
//! character was opened from, as plain data.
//!
//! The loader (`io::script`) fills it; the viewer reads it to switch body-group choices, draw hitboxes,
//! attachments and boxes on their bones, follow "next" transitions and label events. Clips built from the script
//! carry the playback rules the controller needs ([`ClipScript`] on each clip); this description keeps
//! everything else, including what was read and deliberately not used ([`IgnoredCommand`]). Positions and boxes
//! are in the script's own units and frame (QC: the SMD's Z-up frame; the asset's `AxisConversion` applies).
//!
//! Every item records where it was written: `file` indexes [`ModelScript::files`] (0 is the script itself,
//! further entries are included files) and `line` is 1-based in that file.

use std::path::PathBuf;

use glam::{Quat, Vec3};
use serde::Serialize;

use super::{Bounds, VertexFrame};

/// The script languages bonescope reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum ScriptLanguage {
    /// Valve studiomdl QC (Half-Life and Source model sources).
    ValveQc,
    /// Gothic model script (`Model ("…") { … }`).
    GothicMds,
    /// Gothic morph-mesh script (`morphMesh ("…") { … }`).
    GothicMms,
    /// A compiled GoldSrc model (`.mdl`, version 10): not a script, but it describes the same things a QC
    /// does (what studiomdl kept of it), so it is read into the same description.
    GoldSrcMdl,
}

impl ScriptLanguage {
    pub fn name(self) -> &'static str {
        match self {
            ScriptLanguage::ValveQc => "Valve QC",
            ScriptLanguage::GothicMds => "Gothic MDS",
            ScriptLanguage::GothicMms => "Gothic MMS",
            ScriptLanguage::GoldSrcMdl => "compiled GoldSrc model",
        }
    }
}

/// The description of a model script.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelScript {
    pub language: ScriptLanguage,
    /// The files read, the script first, then every included file in the order they were entered.
    pub files: Vec<PathBuf>,
    /// `$modelname`, `Model ("…")`, `morphMesh ("…")`.
    pub name: String,
    /// Folders textures are searched in (QC `$cdtexture`), resolved.
    pub texture_dirs: Vec<PathBuf>,
    /// QC `$cdmaterials`, as written: folders under a game's `materials` folder holding the `.vmt` materials
    /// the meshes name (searched for in `materials` folders above the script and in the user's texture folders).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub material_dirs: Vec<String>,
    /// QC `$scale`, the last one written. Each body choice and sequence keeps the value in effect where it was
    /// read, in its [`Placement`], and is placed by it.
    pub scale: Option<f32>,
    /// QC `$origin`, the last one written (see `scale`).
    pub origin: Option<Vec3>,
    /// QC `$bbox`: the bounding box.
    pub bbox: Option<Bounds>,
    /// QC `$cbox`: the clipping (collision) box.
    pub cbox: Option<Bounds>,
    /// QC `$eyeposition`.
    pub eye_position: Option<Vec3>,
    /// Groups of interchangeable meshes; the viewer shows one choice per group (QC `$body`/`$bodygroup`, MDS
    /// `meshAndTree`/`registerMesh`, MMS `morphRef`).
    pub body_groups: Vec<BodyGroup>,
    /// Every animation the script defines, in script order (QC `$sequence`, MDS `ani`/`aniAlias`, MMS
    /// `morphAni`). Each loaded one is a clip of the same name.
    pub sequences: Vec<ScriptSequence>,
    /// QC `$hbox`.
    pub hitboxes: Vec<Hitbox>,
    /// QC `$attachment`.
    pub attachments: Vec<Attachment>,
    /// QC `$controller`, a compiled model's bone controllers: values a game sets at run time that turn or move
    /// one channel of a bone (a head that looks around, a turret's yaw, a mouth).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub controllers: Vec<BoneController>,
    /// QC `$texturegroup`, a compiled model's skin families: switchable sets of textures. Empty when the
    /// model has only its own textures; otherwise the first family is the default skin.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skin_families: Vec<SkinFamily>,
    /// A compiled model's transition graph between sequence nodes (`node`, `transition` options of QC
    /// sequences): `transition_graph[from − 1][to − 1]` is the node to go through next (0: none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub transition_graph: Vec<Vec<u8>>,
    /// MDS `aniBlend`: names that cross-fade into another animation instead of playing frames.
    pub ani_blends: Vec<AniBlend>,
    /// MDS `aniComb`: animations the game combines from others at run time (listed, not played).
    pub ani_combs: Vec<AniComb>,
    /// MDS `aniDisable`: animations switched off.
    pub ani_disabled: Vec<String>,
    /// MDS `modelTag`.
    pub model_tags: Vec<ModelTag>,
    /// Commands read and not used for viewing, in script order.
    pub ignored: Vec<IgnoredCommand>,
}

impl ModelScript {
    pub fn new(language: ScriptLanguage) -> Self {
        Self {
            language,
            files: Vec::new(),
            name: String::new(),
            texture_dirs: Vec::new(),
            material_dirs: Vec::new(),
            scale: None,
            origin: None,
            bbox: None,
            cbox: None,
            eye_position: None,
            body_groups: Vec::new(),
            sequences: Vec::new(),
            hitboxes: Vec::new(),
            attachments: Vec::new(),
            controllers: Vec::new(),
            skin_families: Vec::new(),
            transition_graph: Vec::new(),
            ani_blends: Vec::new(),
            ani_combs: Vec::new(),
            ani_disabled: Vec::new(),
            model_tags: Vec::new(),
            ignored: Vec::new(),
        }
    }

    /// The sequence of this name (case-insensitive, as both engines look names up).
    pub fn sequence(&self, name: &str) -> Option<&ScriptSequence> {
        self.sequences.iter().find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// `GROUP=CHOICE` (the `--body` option): a body group and one of its choices, each by name (any case) or by
    /// number from 0; an error saying what there is when either names nothing.
    pub fn find_body_choice(&self, spec: &str) -> Result<(usize, usize), String> {
        let Some((group, choice)) = spec.split_once('=') else { return Err("expected GROUP=CHOICE".to_owned()) };
        let pick = |name: &str, names: &[&str]| {
            let name = name.trim();
            (name.parse::<usize>().ok().filter(|i| *i < names.len()))
                .or_else(|| names.iter().position(|n| n.eq_ignore_ascii_case(name)))
        };
        let groups: Vec<&str> = self.body_groups.iter().map(|g| g.name.as_str()).collect();
        let Some(g) = pick(group, &groups) else {
            let list = if groups.is_empty() { "none".to_owned() } else { groups.join(", ") };
            return Err(format!("no body group \"{group}\"; the model has: {list}"));
        };
        let choices: Vec<&str> = self.body_groups[g].choices.iter().map(|c| c.name.as_str()).collect();
        let Some(c) = pick(choice, &choices) else {
            return Err(format!(
                "body group \"{}\" has no choice \"{choice}\"; it has: {}",
                self.body_groups[g].name,
                choices.join(", ")
            ));
        };
        Ok((g, c))
    }

    /// The names of the ignored commands, each once, in first-use order.
    pub fn ignored_names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for c in &self.ignored {
            if !out.iter().any(|n| n.eq_ignore_ascii_case(&c.name)) {
                out.push(&c.name);
            }
        }
        out
    }
}

/// A set of interchangeable meshes (HLMV's "body part"): one choice is shown at a time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BodyGroup {
    pub name: String,
    pub choices: Vec<BodyChoice>,
    pub file: usize,
    pub line: usize,
}

/// One choice of a body group.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BodyChoice {
    /// The mesh file as the script names it (`"reference"`, `"Blo_Body.asc"`), or `blank`.
    pub name: String,
    /// The file it was found at; `None` for `blank` and for files not found.
    pub path: Option<PathBuf>,
    /// Indices into `Asset::meshes` of the meshes this choice shows (empty for `blank`, for a skeleton-only
    /// `meshAndTree … DONT_USE_MESH`, or when the file did not load).
    pub meshes: Vec<usize>,
    /// QC: how the mesh was placed (the `$origin` and `$scale` in effect, or the choice's own `scale`); `None`
    /// when it is where the file has it.
    pub placement: Option<Placement>,
    pub file: usize,
    pub line: usize,
}

/// Where studiomdl puts a QC mesh or animation: the root bones' positions become `scale · Rz(rotation) · (p −
/// origin)` and their rotations turn by `Rz(rotation)`; every other bone's translation is multiplied by
/// `scale` (studiomdl's `adjust_vertex` / `scale_vertex` on the SMD data, and the `rotate`/`$origin` angle on
/// the root bones). Positions are in the SMD's own Z-up frame. The angle is the one written, relative to
/// studiomdl's fixed 90° turn to the engine's forward axis, which every model gets and the viewer leaves out.
/// Hitboxes, attachments and boxes are written in the compiled model's units and are not placed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Placement {
    pub origin: Vec3,
    pub scale: f32,
    /// About the Z axis, in degrees.
    pub rotation_degrees: f32,
}

impl Default for Placement {
    fn default() -> Self {
        Self { origin: Vec3::ZERO, scale: 1.0, rotation_degrees: 0.0 }
    }
}

impl Placement {
    /// True when it moves nothing.
    pub fn is_identity(&self) -> bool {
        *self == Self::default()
    }

    /// `None` for the identity, so that unplaced items say nothing.
    pub fn non_identity(self) -> Option<Self> {
        (!self.is_identity()).then_some(self)
    }

    /// The turn about Z.
    pub fn rotation(&self) -> Quat {
        Quat::from_rotation_z(self.rotation_degrees.to_radians())
    }

    /// A root bone's (or a model-space vertex's) position.
    pub fn place_point(&self, p: Vec3) -> Vec3 {
        self.rotation() * (p - self.origin) * self.scale
    }

    /// A model-space offset (a morph delta, a curve tangent): turned and scaled, not moved.
    pub fn place_offset(&self, v: Vec3) -> Vec3 {
        self.rotation() * v * self.scale
    }
}

/// What kind of script statement defined a sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum SequenceKind {
    /// QC `$sequence`.
    Sequence,
    /// MDS `ani`.
    Ani,
    /// MDS `aniAlias`: the frames of another animation (named here), possibly reversed.
    Alias { of: String },
    /// MMS `morphAni`: vertex animation of the morph mesh.
    MorphAni,
}

/// A QC activity (`ACT_WALK 1`: name and weight).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Activity {
    pub name: String,
    pub weight: i32,
}

/// One axis of a QC blend sequence: the control (`XR`, `LX`, …) and the range the blend covers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BlendRange {
    pub control: String,
    pub start: f32,
    pub end: f32,
}

/// An event of a sequence, at a frame of its source file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScriptEvent {
    /// Frame in the source file's numbering (QC: the SMD's `time` numbers; MDS/MMS: the ASC's frames).
    pub frame: i32,
    /// QC: the event number as written (`1003`, or a Source name such as `AE_CL_PLAYSOUND`); MDS: the event
    /// keyword without its star (`eventSFX`, `eventSFXGrnd`, `eventTag`, …).
    pub kind: String,
    /// A readable name for a numbered QC event (`SCRIPT_EVENT_FIREEVENT`), when it is a known one.
    pub kind_name: Option<String>,
    /// The event's main text: QC options string, MDS sound / effect / tag name.
    pub text: String,
    /// Every argument after the frame, as written (MDS `EMPTY_SLOT`, `R:2000`, tag parameters, …).
    pub args: Vec<String>,
    pub line: usize,
}

impl ScriptEvent {
    /// What the event carries, as the callback log shows it: its text and every further option, each run of
    /// white space one space (`DEF_WINDOW 19 29`, `WINGS EMPTY_SLOT`).
    pub fn data_with_options(&self) -> String {
        let mut words: Vec<&str> = Vec::new();
        if !self.text.is_empty() {
            words.push(&self.text);
        }
        let mut skipped_text = self.text.is_empty();
        for arg in &self.args {
            if !skipped_text && *arg == self.text {
                skipped_text = true;
                continue;
            }
            words.push(arg);
        }
        words.iter().flat_map(|w| w.split_whitespace()).collect::<Vec<_>>().join(" ")
    }
}

/// An animation of the script and how it plays.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScriptSequence {
    pub name: String,
    pub kind: SequenceKind,
    /// Animation files as the script names them (QC blend sequences name several; the clip plays the first).
    pub files: Vec<String>,
    /// Where each file was found (same order; `None` when not found). Empty for aliases.
    pub paths: Vec<Option<PathBuf>>,
    /// Frames per second the clip plays at (QC `fps`, default 30; MDS `FPS:`, default 25; MMS `SPD:`).
    pub fps: f32,
    /// QC `loop`; MDS: the next animation is itself; MMS: flag `L`.
    pub looping: bool,
    /// The frame range in the source file's numbering (QC `frame a b`; MDS/MMS first and last frame). `None`
    /// where the script gives none (the whole file plays).
    pub first_frame: Option<i32>,
    pub last_frame: Option<i32>,
    /// Played backwards (MDS direction `R`; for an alias, relative to the animation it aliases).
    pub reversed: bool,
    /// QC motion flags (`LX`, `XR`, …) as written.
    pub motion: Vec<String>,
    /// MDS/MMS flags as written (`M.`, `MF`, `L`, `.`).
    pub flags: String,
    pub activity: Option<Activity>,
    /// QC `blend` ranges (multi-file blend sequences).
    pub blends: Vec<BlendRange>,
    /// MDS/MMS layer.
    pub layer: Option<i32>,
    /// The animation that follows (MDS next ani); `None` when the script names none.
    pub next: Option<String>,
    /// Cross-fade times in seconds (MDS/MMS).
    pub blend_in: f32,
    pub blend_out: f32,
    /// MMS hold time in seconds (`-1`: hold until stopped).
    pub hold: Option<f32>,
    /// MDS `CVS:` (collision volume scale).
    pub collision_scale: Option<f32>,
    pub events: Vec<ScriptEvent>,
    /// Options read and not used for viewing, as written (`node 3`, `transition 1 2`, `ikrule …`).
    pub options: Vec<String>,
    /// QC: how the animation was placed (the `$origin` and `$scale` in effect, or the sequence's own `origin`,
    /// `scale` and `rotate`); `None` when it plays where the file has it.
    pub placement: Option<Placement>,
    /// Frames of the clip that was built (0 when none was).
    pub frame_count: u32,
    /// True when a clip of this name was built.
    pub loaded: bool,
    /// Why no clip was built, or what was adjusted (missing file, frame range outside the file, …).
    pub problem: Option<String>,
    pub file: usize,
    pub line: usize,
}

impl ScriptSequence {
    pub fn new(name: impl Into<String>, kind: SequenceKind, fps: f32, file: usize, line: usize) -> Self {
        Self {
            name: name.into(),
            kind,
            files: Vec::new(),
            paths: Vec::new(),
            fps,
            looping: false,
            first_frame: None,
            last_frame: None,
            reversed: false,
            motion: Vec::new(),
            flags: String::new(),
            activity: None,
            blends: Vec::new(),
            layer: None,
            next: None,
            blend_in: 0.0,
            blend_out: 0.0,
            hold: None,
            collision_scale: None,
            events: Vec::new(),
            options: Vec::new(),
            placement: None,
            frame_count: 0,
            loaded: false,
            problem: None,
            file,
            line,
        }
    }
}

/// A QC `$hbox`: a box in the space of a bone, animated with it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hitbox {
    pub group: i32,
    pub bone: String,
    pub min: Vec3,
    pub max: Vec3,
    pub file: usize,
    pub line: usize,
}

/// A QC `$attachment`: a point at an offset from a bone (weapons, effects).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Attachment {
    /// The attachment's name (Source) or index (Half-Life) as written.
    pub name: String,
    pub bone: String,
    pub offset: Vec3,
    pub file: usize,
    pub line: usize,
}

/// Which channel of its bone a [`BoneController`] drives (studio.h `STUDIO_X` … `STUDIO_ZR`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum ControllerChannel {
    X,
    Y,
    Z,
    XR,
    YR,
    ZR,
}

impl ControllerChannel {
    /// The channel as QC writes it (`XR`), any case.
    pub fn parse(word: &str) -> Option<Self> {
        Some(match word.to_ascii_uppercase().as_str() {
            "X" => Self::X,
            "Y" => Self::Y,
            "Z" => Self::Z,
            "XR" => Self::XR,
            "YR" => Self::YR,
            "ZR" => Self::ZR,
            _ => return None,
        })
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::X => "X",
            Self::Y => "Y",
            Self::Z => "Z",
            Self::XR => "XR",
            Self::YR => "YR",
            Self::ZR => "ZR",
        }
    }

    /// 0–2 for the translation channels, 3–5 for the rotations (the order of a studio bone's `value[6]`).
    pub fn index(self) -> usize {
        self as usize
    }

    /// True for the rotation channels (values in degrees).
    pub fn is_rotation(self) -> bool {
        matches!(self, Self::XR | Self::YR | Self::ZR)
    }
}

/// A QC `$controller` / compiled bone controller: `value` (degrees for rotations, model units for
/// translations) is added to one channel of a bone, between `start` and `end`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoneController {
    /// 0–3: set by the game; 4: the mouth (driven by speech). As written (`mouth` is 4).
    pub index: i32,
    pub bone: String,
    pub channel: ControllerChannel,
    pub start: f32,
    pub end: f32,
    /// Wraps round (`STUDIO_RLOOP`: a full turn, studiomdl sets it when start and end are the same angle):
    /// the value runs from `start` over 360°.
    pub wraps: bool,
    /// The bone's default Euler angles (x, y, z radians) where the file keeps them (a compiled model): they
    /// pick which of a rotation's two Euler decompositions a `YR` value is added in, as the engine adds it to
    /// these angles. `None`: the decomposition nearest the bind rotation's own.
    #[serde(skip)]
    pub bone_angles: Option<Vec3>,
    pub file: usize,
    pub line: usize,
}

impl BoneController {
    /// The range a value may take: `start`–`end`, or a full turn from `start` when the controller wraps.
    pub fn range(&self) -> (f32, f32) {
        if self.wraps { (self.start, self.start + 360.0) } else { (self.start.min(self.end), self.start.max(self.end)) }
    }

    /// The value a viewer starts with: 0 where the range allows it, else its nearer end (HLMV sets every
    /// controller to 0, which its byte encoding clamps into the range).
    pub fn rest_value(&self) -> f32 {
        let (lo, hi) = self.range();
        0.0f32.clamp(lo, hi)
    }

    /// `Neck YR`, or `mouth` for the mouth controller.
    pub fn label(&self) -> String {
        if self.index == 4 {
            format!("mouth ({} {})", self.bone, self.channel.label())
        } else {
            format!("{} {} (#{})", self.bone, self.channel.label(), self.index)
        }
    }
}

/// A skin family (QC `$texturegroup`, a compiled model's skin table row): which texture every material is drawn
/// with under this skin.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SkinFamily {
    /// The textures the family puts in the replaceable slots, as written (QC) or named in the file (MDL).
    pub textures: Vec<String>,
    /// For each of the asset's materials, the material drawn in its place under this skin (its own index when
    /// unchanged); as long as `Asset::materials`.
    pub remap: Vec<usize>,
    pub file: usize,
    pub line: usize,
}

/// MDS `aniBlend ("name" "next" blendIn blendOut)`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AniBlend {
    pub name: String,
    pub next: String,
    pub blend_in: f32,
    pub blend_out: f32,
    pub line: usize,
}

/// MDS `aniComb ("name" layer "next" blendIn blendOut flags "prefix" count)`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AniComb {
    pub name: String,
    pub layer: i32,
    pub next: String,
    pub blend_in: f32,
    pub blend_out: f32,
    pub flags: String,
    /// Name prefix of the animations combined.
    pub prefix: String,
    pub count: i32,
    pub line: usize,
}

/// MDS `modelTag ("DEF_HIT_LIMB" "bone")`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelTag {
    pub kind: String,
    pub bone: String,
    pub line: usize,
}

/// A command that was read and is not used for viewing (`$gamma`, `$texrendermode`, `$controller`, …).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IgnoredCommand {
    pub name: String,
    /// Its arguments as written.
    pub args: Vec<String>,
    pub file: usize,
    pub line: usize,
}

/// How the model script that defined a clip says it is played. Stored on [`super::Clip::script`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClipScript {
    /// Index of the defining entry in `ModelScript::sequences`.
    pub sequence: usize,
    /// The clip repeats (QC `loop`; MDS next ani = itself; MMS flag `L`).
    pub looping: bool,
    /// The clip that follows when this one ends (MDS next ani), when the script names one.
    pub next: Option<String>,
    /// Cross-fade in and out, in seconds (MDS/MMS blend times; 0 for QC).
    pub blend_in: f32,
    pub blend_out: f32,
    /// The source frames were played backwards to make this clip.
    pub reversed: bool,
    /// A difference meant to be added to another pose (QC `delta`, `subtract`; `io::script::delta`): its keys
    /// are that difference on the bind pose, and a mixer layers it as an additive track against the bind pose.
    pub additive: bool,
    /// The source frames the clip covers, in the source file's numbering.
    pub first_frame: i32,
    pub last_frame: i32,
    /// Vertex animation of one mesh (MMS `morphAni`): full positions of `Asset::meshes[mesh]` at clip times, the
    /// source of the clip's morph weight tracks (the frames are played as that mesh's morph targets).
    pub vertex_frames: Option<ClipVertexFrames>,
    /// A blend sequence's further animations (QC `$sequence` with several files, a compiled sequence's blends):
    /// the clip itself is the first, these the second and on, mixed by one or two blend parameters
    /// (`anim::studio_blend`).
    pub blend: Option<Box<ClipBlend>>,
}

/// The animations a blend sequence mixes besides its clip's own, each keyed at the clip's times.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClipBlend {
    /// The 2nd, 3rd, … animations, in the order the sequence lists them.
    pub animations: Vec<super::Clip>,
    /// How many blend parameters mix them: 1 (a row of animations) or 2 (a grid: two per row for four, three
    /// per row for nine).
    pub parameters: usize,
    /// The parameters (`0..=1` each) a viewer starts with: where the value 0 lies in each blend range, as HLMV
    /// starts every blend at 0 (`SetBlending(i, 0.0)`); 0 for a parameter without a range.
    pub defaults: [f32; 2],
}

/// A clip's own vertex animation of one mesh, as its file gives it (`anim::tween::frame_pair` samples it; the
/// clip's morph weight tracks over the mesh's targets play the same thing).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClipVertexFrames {
    /// Index into `Asset::meshes`.
    pub mesh: usize,
    /// Frames sorted by time, each as long as the mesh's vertex arrays.
    pub frames: Vec<VertexFrame>,
}
