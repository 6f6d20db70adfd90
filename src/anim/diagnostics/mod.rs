//! Rig diagnostics: checks an [`Asset`] for the problems that make a skinned character look wrong and are hard
//! to see by watching it — bone offset matrices that do not invert the bind pose, weights out of range or that
//! do not sum to 1, unweighted vertices, bones that drive nothing, tracks that bind to no bone (or bones no
//! track animates), mirrored or non-uniform scale, degenerate triangles, missing textures, and what every clip
//! does to the surface: where it opens, where a joint comes apart or a vertex flies off, and how far it
//! stretches (the worst moment and place of each clip are found without playing it).
//!
//! What counts as an error is what a render of the character shows and a shipped, working asset does not
//! (docs/findings.md): the surface opening where the bind pose is closed, a joint coming apart, a vertex flying
//! off, a broken bind pose, weights or indices out of range. A closed surface that only stretches, creases or
//! pulls a spike is a warning ranked by how far it moves, never an error.
//!
//! Each problem is a [`Finding`] whose [`Subject`] names what it is about (a bone, a vertex, a triangle, a
//! material, a clip, a track), so a UI can select it in the viewport and a script can read it as JSON. One
//! defect is one finding: the same kind at the same place ([`Region`]: a mesh and the bones there, or a set of
//! track names) in several clips, vertices or tracks is merged into the worst of them, with the clips it shows
//! in ([`Finding::clips`]) and how many instances it stands for ([`Finding::occurrences`]) — `collect` does it.
//! Pure computation over `scene` data: reads the asset, never changes it, no I/O, no GPU.

mod collect;
mod geometry;
mod rig;
mod seams;
mod stretch;
mod tear;

use glam::Mat4;
use serde::{Deserialize, Serialize};

use crate::scene::Asset;

use collect::Collector;

/// How bad a finding is. Ordered most severe first, so sorting puts errors on top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A render of the character shows it broken (the surface opens, a joint comes apart, the skin moves at
    /// the bind pose, a vertex flies off), or its data is out of range.
    Error,
    /// Probably unintended; worth a look (e.g. a visibly stretched joint, trimmed influences, a track for a
    /// bone that is not there).
    Warning,
    /// Worth knowing, often fine (e.g. a helper bone that drives no vertex).
    Info,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// What a finding is about. The order is the order findings of equal severity are listed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// Arrays that disagree, indices or weights out of range, non-finite numbers, keys out of order.
    InvalidData,
    /// `|offset × to-root(bind) − I|` above the tolerance: the skin moves at the bind pose.
    BindPose,
    /// In a clip, vertices that coincide in the bind pose (the two sides of a seam of one surface) move apart:
    /// the surface opens.
    SurfaceOpens,
    /// In a clip, a vertex goes to infinity or beyond the character's reach.
    VertexFlies,
    /// In a clip, a bone comes off its joint: the skin across it opens further than bending at joints that hold
    /// together can open it.
    JointApart,
    /// A vertex's weights do not sum to 1 (or the file's did not and were renormalised on load).
    WeightSum,
    /// Vertices had more than four influences in the file; the smallest were dropped.
    TrimmedInfluences,
    /// A vertex with no weight (skinned to the origin), or vertices the file left unweighted.
    UnweightedVertex,
    /// A bone no vertex is weighted to.
    UnusedBone,
    /// A clip track whose bone the skeleton does not have (ignored when playing).
    UnmatchedTrack,
    /// A second track for a bone that already has one in the same clip (ignored when playing).
    DuplicateTrack,
    /// A bone some clip has no track for (it keeps its bind pose there).
    UnanimatedBone,
    /// A negative scale (determinant < 0): winding and normals flip below this bone.
    MirroredScale,
    /// Non-uniform scale, or shear it causes in children's to-root matrices.
    NonUniformScale,
    /// A triangle with zero area or a repeated vertex.
    DegenerateTriangle,
    /// A material names a texture that was not found.
    MissingTexture,
    /// An edge stretched beyond the threshold in the current pose.
    PoseStretch,
    /// The largest distortion of a closed surface in a clip (stretch, a crease, a spike that stays attached):
    /// a warning when it is large enough to see, ranked by how far it moves; never an error.
    ClipStretch,
}

impl FindingKind {
    pub const ALL: [FindingKind; 18] = [
        FindingKind::InvalidData,
        FindingKind::BindPose,
        FindingKind::SurfaceOpens,
        FindingKind::VertexFlies,
        FindingKind::JointApart,
        FindingKind::WeightSum,
        FindingKind::TrimmedInfluences,
        FindingKind::UnweightedVertex,
        FindingKind::UnusedBone,
        FindingKind::UnmatchedTrack,
        FindingKind::DuplicateTrack,
        FindingKind::UnanimatedBone,
        FindingKind::MirroredScale,
        FindingKind::NonUniformScale,
        FindingKind::DegenerateTriangle,
        FindingKind::MissingTexture,
        FindingKind::PoseStretch,
        FindingKind::ClipStretch,
    ];

    /// The name used in JSON and text output.
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::InvalidData => "invalid_data",
            FindingKind::BindPose => "bind_pose",
            FindingKind::SurfaceOpens => "surface_opens",
            FindingKind::VertexFlies => "vertex_flies",
            FindingKind::JointApart => "joint_apart",
            FindingKind::WeightSum => "weight_sum",
            FindingKind::TrimmedInfluences => "trimmed_influences",
            FindingKind::UnweightedVertex => "unweighted_vertex",
            FindingKind::UnusedBone => "unused_bone",
            FindingKind::UnmatchedTrack => "unmatched_track",
            FindingKind::DuplicateTrack => "duplicate_track",
            FindingKind::UnanimatedBone => "unanimated_bone",
            FindingKind::MirroredScale => "mirrored_scale",
            FindingKind::NonUniformScale => "non_uniform_scale",
            FindingKind::DegenerateTriangle => "degenerate_triangle",
            FindingKind::MissingTexture => "missing_texture",
            FindingKind::PoseStretch => "pose_stretch",
            FindingKind::ClipStretch => "clip_stretch",
        }
    }

    /// A plural noun phrase for summaries ("… and 120 more {}").
    fn plural(self) -> &'static str {
        match self {
            FindingKind::InvalidData => "invalid entries",
            FindingKind::BindPose => "bones failing the bind-pose check",
            FindingKind::SurfaceOpens => "places where the surface opens",
            FindingKind::VertexFlies => "places where vertices fly off",
            FindingKind::JointApart => "joints that come apart",
            FindingKind::WeightSum => "places whose weights do not sum to 1",
            FindingKind::TrimmedInfluences => "meshes with trimmed influences",
            FindingKind::UnweightedVertex => "unweighted vertices",
            FindingKind::UnusedBone => "bones that influence no vertex",
            FindingKind::UnmatchedTrack => "sets of tracks with no matching bone",
            FindingKind::DuplicateTrack => "duplicate tracks",
            FindingKind::UnanimatedBone => "sets of bones without a track",
            FindingKind::MirroredScale => "mirrored scales",
            FindingKind::NonUniformScale => "non-uniform scales",
            FindingKind::DegenerateTriangle => "places with degenerate triangles",
            FindingKind::MissingTexture => "missing textures",
            FindingKind::PoseStretch => "stretched places",
            FindingKind::ClipStretch => "stretched places",
        }
    }

    /// What one instance of the kind is, for "… in 3 {}" notes of merged findings.
    fn instance(self) -> &'static str {
        match self {
            FindingKind::WeightSum
            | FindingKind::UnweightedVertex
            | FindingKind::InvalidData
            | FindingKind::DegenerateTriangle => "entries",
            FindingKind::MissingTexture => "materials",
            FindingKind::UnanimatedBone => "bones",
            _ => "clips",
        }
    }
}

/// The thing a finding is about: what a UI selects in the viewport or outliner. Indices are into the asset's
/// arrays (`skeleton` bones, `meshes`, a mesh's vertices / triangles, `materials`, `clips`, a clip's tracks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Subject {
    /// The asset as a whole.
    Asset,
    Bone(usize),
    Mesh(usize),
    Vertex {
        mesh: usize,
        index: usize,
    },
    /// `index` is the triangle number (its indices start at `3 * index`).
    Triangle {
        mesh: usize,
        index: usize,
    },
    Material(usize),
    Clip(usize),
    Track {
        clip: usize,
        track: usize,
    },
}

impl std::fmt::Display for Subject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Subject::Asset => write!(f, "asset"),
            Subject::Bone(i) => write!(f, "bone {i}"),
            Subject::Mesh(i) => write!(f, "mesh {i}"),
            Subject::Vertex { mesh, index } => write!(f, "vertex {index} of mesh {mesh}"),
            Subject::Triangle { mesh, index } => write!(f, "triangle {index} of mesh {mesh}"),
            Subject::Material(i) => write!(f, "material {i}"),
            Subject::Clip(i) => write!(f, "clip {i}"),
            Subject::Track { clip, track } => write!(f, "track {track} of clip {clip}"),
        }
    }
}

/// A moment in a clip, for findings that happen at a time (the UI seeks there).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ClipTime {
    pub clip: usize,
    /// Seconds from the clip's start.
    pub time: f32,
}

/// One clip a merged finding shows in: when, how badly, and its measure there.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ClipHit {
    pub clip: usize,
    /// Seconds from the clip's start (0 for findings without a moment, such as a track).
    pub time: f32,
    pub severity: Severity,
    /// The finding's measure in this clip (its `value` there).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<f32>,
    /// How far the surface moved there, as a fraction of the character's size (its `extent` there).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extent: Option<f32>,
}

/// Where on the character a finding is, as far as telling one defect from another goes: the mesh, and the
/// names that place it (the bones carrying a stretched edge or a seam, a vertex's bone, the names of unmatched
/// tracks, a texture). Two findings of one kind with equal regions are one defect.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Region {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mesh: Option<usize>,
    pub names: Vec<String>,
}

impl Region {
    /// A region of mesh `mesh` (if any) placed by `names` (sorted, so their order does not matter).
    pub fn new(mesh: Option<usize>, names: impl IntoIterator<Item = String>) -> Self {
        let mut names: Vec<String> = names.into_iter().collect();
        names.sort();
        names.dedup();
        Self { mesh, names }
    }
}

/// One problem found in an asset: one defect, with every place it was seen merged in.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    pub severity: Severity,
    pub kind: FindingKind,
    pub subject: Subject,
    /// A sentence a user can act on; names bones, meshes (by their file) and clips by name.
    pub message: String,
    /// The measured quantity (bind-pose error, weight sum, stretch ratio, a count), for sorting and filtering.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<f32>,
    /// Surface findings of clips: how far the surface moved at the worst moment (the opening, the gap or the
    /// growth of the edge), as a fraction of the character's size — what warnings are ranked by.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extent: Option<f32>,
    /// Where in which clip it happens, at its worst.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<ClipTime>,
    /// The two vertices (indices into the subject's mesh) of the edge or seam concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edge: Option<[u32; 2]>,
    /// Where it is, for telling defects apart ([`Region`]); `None` for facts that are their own place (a bone).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<Region>,
    /// Every clip it shows in, worst first (findings about clips).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub clips: Vec<ClipHit>,
    /// How many instances this defect stands for: the clips it shows in, the vertices, triangles or materials
    /// of its region (1 for a single fact).
    pub occurrences: usize,
    /// How many defects this one stands for: 1, or for a line that sums up the defects of a kind and severity
    /// past the first [`DiagnoseOptions::max_per_kind`], how many it sums up. Counts per severity add these.
    pub count: usize,
    /// True for a line that sums up findings left out of the list (its `count` says how many).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub summary: bool,
}

impl Finding {
    pub fn new(severity: Severity, kind: FindingKind, subject: Subject, message: impl Into<String>) -> Self {
        Self {
            severity,
            kind,
            subject,
            message: message.into(),
            value: None,
            extent: None,
            at: None,
            edge: None,
            region: None,
            clips: Vec::new(),
            occurrences: 1,
            count: 1,
            summary: false,
        }
    }

    pub fn with_value(mut self, value: f32) -> Self {
        self.value = Some(value);
        self
    }

    /// Placed in `region`: merged with the other findings of its kind there.
    pub fn in_region(mut self, region: Region) -> Self {
        self.region = Some(region);
        self
    }

    /// A finding about clip `clip` (at `time` when it has a moment): it lists that clip.
    pub fn in_clip(mut self, clip: usize, time: Option<f32>) -> Self {
        if let Some(time) = time {
            self.at = Some(ClipTime { clip, time });
        }
        self.clips = vec![ClipHit {
            clip,
            time: time.unwrap_or(0.0),
            severity: self.severity,
            value: self.value,
            extent: self.extent,
        }];
        self
    }

    /// Worst first: severity, then the larger extent (how far the surface moved), then the larger value.
    pub fn rank(&self, other: &Self) -> std::cmp::Ordering {
        let measure = |v: Option<f32>| v.map_or(f32::NEG_INFINITY, |x| if x.is_nan() { f32::INFINITY } else { x });
        self.severity
            .cmp(&other.severity)
            .then(measure(other.extent).total_cmp(&measure(self.extent)))
            .then(measure(other.value).total_cmp(&measure(self.value)))
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} ({}): {}", self.severity.name(), self.kind.name(), self.subject, self.message)
    }
}

/// Thresholds and limits. `Default` gives values suited to characters in any unit: every length is a fraction
/// of the character's size (the largest side of the box around its bind pose).
#[derive(Clone, Debug, PartialEq)]
pub struct DiagnoseOptions {
    /// Largest allowed element of `offset × to-root(bind) − I` (rotation/scale part; the translation part is
    /// taken relative to the bone's distance from the origin, so large units do not trip it on rounding).
    pub bind_pose_tolerance: f32,
    /// Largest allowed `|Σ weights − 1|` per vertex.
    pub weight_sum_tolerance: f32,
    /// Relative tolerance for non-uniform scale and shear.
    pub scale_tolerance: f32,
    /// A triangle is degenerate when twice its area is below this fraction of its longest edge squared.
    pub degenerate_area_ratio: f32,
    /// Edge stretch (skinned length / bind length) below which an edge is never more than information,
    /// whatever it grows by (a long edge growing a little is a stretched panel, not an opening); the current
    /// pose lists the edges above it.
    pub stretch_threshold: f32,
    /// Growth of an edge at which a closed surface is visibly distorted (a warning, never an error): a spike or
    /// a web of skin stretched this far out is plain in a full-body view.
    pub tear_reach: f32,
    /// Growth of an edge beyond what bending at intact joints can make it (its allowance) at which a joint has
    /// come apart: an error (`joint_apart`).
    pub tear_gap: f32,
    /// Separation of vertices that coincide in the bind pose (a seam of one surface) at which the surface has
    /// visibly opened: an error (`surface_opens`).
    pub open_gap: f32,
    /// Gap at which a vertex has flown beyond the character's reach (`vertex_flies`): the skin there ends up
    /// further from where intact joints put it than the whole character is big.
    pub fly_reach: f32,
    /// The fraction of an error's limit at which the same measure is a warning (visible in a close look).
    pub warn_fraction: f32,
    /// Whether to sample every clip for what it does to the surface (the only check whose cost grows with clip
    /// count).
    pub clip_stretch: bool,
    /// Poses sampled per clip (every source frame when the clip has no more frames than this).
    pub samples_per_clip: usize,
    /// Edges measured per mesh at most; larger meshes are measured on an even sample of their triangles.
    pub max_edges: usize,
    /// Defects listed per kind at most; the rest are summed up in one finding per severity.
    pub max_per_kind: usize,
    /// The skinning palette of the pose on screen (`Pose::palette`), to check for stretch in it.
    pub current_palette: Option<Vec<Mat4>>,
}

impl Default for DiagnoseOptions {
    fn default() -> Self {
        Self {
            bind_pose_tolerance: 1e-3,
            weight_sum_tolerance: 1e-3,
            scale_tolerance: 1e-3,
            degenerate_area_ratio: 1e-6,
            stretch_threshold: 2.0,
            tear_reach: 0.15,
            tear_gap: 0.10,
            open_gap: 0.02,
            fly_reach: 1.0,
            warn_fraction: 0.5,
            clip_stretch: true,
            samples_per_clip: 30,
            max_edges: 1_000_000,
            max_per_kind: 100,
            current_palette: None,
        }
    }
}

/// Runs every check on `asset`. Findings come most severe first, grouped by kind, worst first within a kind;
/// one finding per defect ([`Region`]).
pub fn diagnose(asset: &Asset, opts: &DiagnoseOptions) -> Vec<Finding> {
    let mut out = Collector::new(opts.max_per_kind);
    rig::check_structure(asset, &mut out);
    rig::check_bind_pose(asset, opts, &mut out);
    rig::check_scale(asset, opts, &mut out);
    rig::check_bone_usage(asset, &mut out);
    rig::check_tracks(asset, &mut out);
    geometry::check_weights(asset, opts, &mut out);
    geometry::check_triangles(asset, opts, &mut out);
    geometry::check_materials(asset, &mut out);
    stretch::check_stretch(asset, opts, &mut out);
    out.finish(asset)
}

/// Every severity, most severe first (the order of [`Severity`]).
const SEVERITIES: [Severity; 3] = [Severity::Error, Severity::Warning, Severity::Info];

/// A bone's name for messages ("bone 3 'Bip01 Spine'").
fn bone_label(asset: &Asset, bone: usize) -> String {
    match asset.skeleton.names.get(bone) {
        Some(name) => format!("bone {bone} '{name}'"),
        None => format!("bone {bone}"),
    }
}

pub(super) fn mesh_label(asset: &Asset, mesh: usize) -> String {
    format!("mesh {mesh} {}", mesh_name(asset, mesh))
}

/// What to call mesh `mesh` so a user knows which file to open: its node name with the file it was read from
/// and, for a model script, the body group or registered mesh that names it (`'zm_Skin' of HUM_ARMOR.ASC
/// (registerMesh)`). Every Gothic body mesh is called `zm_Skin` and every ActorX mesh `PSK mesh`: the node name
/// alone tells nothing.
pub fn mesh_name(asset: &Asset, mesh: usize) -> String {
    let node = asset.meshes.get(mesh).map(|m| m.name.trim()).unwrap_or_default();
    let (file, group) = mesh_source(asset, mesh);
    let file_name = file.as_deref().and_then(|f| f.rsplit(['/', '\\']).next()).unwrap_or_default().to_owned();
    let stem = file_name.rsplit_once('.').map_or(file_name.as_str(), |(s, _)| s);
    let node_says_more = !node.is_empty() && !node.eq_ignore_ascii_case(&file_name) && !node.eq_ignore_ascii_case(stem);
    let mut label = match (node_says_more, file_name.is_empty()) {
        (true, false) => format!("'{node}' of {file_name}"),
        (false, false) => format!("'{file_name}'"),
        (_, true) if !node.is_empty() => format!("'{node}'"),
        _ => "(unnamed)".to_owned(),
    };
    if let Some(group) = group {
        label.push_str(&format!(" ({group})"));
    }
    label
}

/// The file mesh `mesh` was read from, and the model script's body group that names it: from the script's
/// body choices, else the parts a modular character was joined from, else the asset's own file.
fn mesh_source(asset: &Asset, mesh: usize) -> (Option<String>, Option<String>) {
    let shown = |p: &std::path::Path| p.display().to_string();
    if let Some(script) = asset.model_script.as_deref() {
        for group in &script.body_groups {
            if let Some(choice) = group.choices.iter().find(|c| c.meshes.contains(&mesh)) {
                let file = choice.path.as_deref().map(shown).unwrap_or_else(|| choice.name.clone());
                let named = if group.choices.len() > 1 && !choice.name.is_empty() && !file.ends_with(&choice.name) {
                    format!("{} '{}', choice '{}'", body_word(&group.name), group.name, choice.name)
                } else {
                    format!("{} '{}'", body_word(&group.name), group.name)
                };
                let named = match group.name.as_str() {
                    "registerMesh" | "meshAndTree" | "morphRef" => group.name.clone(),
                    _ => named,
                };
                return (Some(file), Some(named));
            }
        }
        return (None, None);
    }
    if let Some(part) = asset.parts.iter().find(|p| p.meshes.contains(&mesh)) {
        return (Some(part.source.as_deref().map(shown).unwrap_or_else(|| part.name.clone())), None);
    }
    (asset.path.as_deref().map(shown), None)
}

fn body_word(group: &str) -> &'static str {
    if group.is_empty() { "body" } else { "body group" }
}

fn clip_label(asset: &Asset, clip: usize) -> String {
    match asset.clips.get(clip) {
        Some(c) => format!("clip '{}'", c.name),
        None => format!("clip {clip}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regionless_findings_past_the_cap_are_summed_up_per_severity() {
        let mut c = Collector::new(2);
        for i in 0..5 {
            let sev = if i == 4 { Severity::Error } else { Severity::Warning };
            c.push(Finding::new(sev, FindingKind::BindPose, Subject::Bone(i), "x"));
        }
        c.push(Finding::new(Severity::Info, FindingKind::UnusedBone, Subject::Bone(1), "y"));
        let f = c.finish(&Asset::default());
        // Two kept warnings, the left-out error and the left-out warnings summed up apart, and the info.
        assert_eq!(f.len(), 5, "{f:#?}");
        assert_eq!((f[0].severity, f[0].count), (Severity::Error, 1));
        assert!(f[0].summary && f[0].subject == Subject::Asset);
        assert!(
            f[0].message.contains("1 more bones failing the bind-pose check at error level (5"),
            "{}",
            f[0].message
        );
        let warnings: usize = f.iter().filter(|x| x.severity == Severity::Warning).map(|x| x.count).sum();
        assert_eq!(warnings, 4, "every warning is counted once: {f:#?}");
        assert_eq!(f.iter().map(|x| x.count).sum::<usize>(), 6, "the counts add up to the findings pushed");
        assert_eq!(f[4].kind, FindingKind::UnusedBone);
    }

    #[test]
    fn meshes_are_named_by_their_file_and_body_group() {
        use crate::scene::{BodyChoice, BodyGroup, Mesh, ModelScript, ScriptLanguage};
        let mut asset =
            Asset { meshes: vec![Mesh { name: "zm_Skin".into(), ..Mesh::default() }; 2], ..Asset::default() };
        let mut script = ModelScript::new(ScriptLanguage::GothicMds);
        let choice = |name: &str, mesh: usize| BodyChoice {
            name: name.into(),
            path: Some(std::path::PathBuf::from(format!("Anims/ASC_BODIES/{name}"))),
            meshes: vec![mesh],
            placement: None,
            file: 0,
            line: 3,
        };
        script.body_groups.push(BodyGroup {
            name: "registerMesh".into(),
            choices: vec![choice("HUM_BODY.ASC", 0), choice("HUM_ARMOR.ASC", 1)],
            file: 0,
            line: 3,
        });
        asset.model_script = Some(Box::new(script));
        assert_eq!(mesh_label(&asset, 1), "mesh 1 'zm_Skin' of HUM_ARMOR.ASC (registerMesh)");
        // A single file: its name; the node name only when it says more.
        let mut single = Asset { path: Some("models/knightMesh.psk".into()), ..Asset::default() };
        single.meshes.push(Mesh { name: "knightMesh".into(), ..Mesh::default() });
        assert_eq!(mesh_name(&single, 0), "'knightMesh.psk'");
    }

    #[test]
    fn findings_serialize_with_named_subjects() {
        let mut f = Finding::new(
            Severity::Warning,
            FindingKind::ClipStretch,
            Subject::Triangle { mesh: 0, index: 7 },
            "clip 'Tear': …",
        )
        .with_value(3.5);
        f.at = Some(ClipTime { clip: 2, time: 0.5 });
        f.edge = Some([3, 4]);
        let json = serde_json::to_value(&f).unwrap();
        assert_eq!(json["severity"], "warning");
        assert_eq!(json["kind"], "clip_stretch");
        assert_eq!(json["subject"]["triangle"]["index"], 7);
        assert_eq!(json["at"]["clip"], 2);
        assert_eq!(json["edge"][1], 4);
        let bone = serde_json::to_value(Finding::new(Severity::Info, FindingKind::UnusedBone, Subject::Bone(3), ""));
        assert_eq!(bone.unwrap()["subject"]["bone"], 3);
        for kind in FindingKind::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.name());
        }
    }
}
