//! Rig diagnostics: checks an [`Asset`] for the problems that make a skinned character look wrong and are hard
//! to see by watching it — bone offset matrices that do not invert the bind pose, weights that do not sum to 1
//! or were trimmed, unweighted vertices, bones that drive nothing, tracks that bind to no bone, mirrored or
//! non-uniform scale, degenerate triangles, missing textures, and edges that stretch in the current pose or in
//! any clip (the worst clip time and edge are found without playing the clip).
//!
//! Each problem is a [`Finding`] whose [`Subject`] names what it is about (a bone, a vertex, a triangle, a
//! material, a clip, a track), so a UI can select it in the viewport and a script can read it as JSON.
//! Pure computation over `scene` data: reads the asset, never changes it, no I/O, no GPU.

mod geometry;
mod rig;
mod stretch;
mod tear;

use glam::Mat4;
use serde::{Deserialize, Serialize};

use crate::scene::Asset;

/// How bad a finding is. Ordered most severe first, so sorting puts errors on top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The character will render wrongly (e.g. a bone offset that moves the skin at the bind pose).
    Error,
    /// Probably unintended; worth a look (e.g. trimmed influences, a track for a bone that is not there).
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
    /// Arrays that disagree, indices out of range, non-finite numbers, keys out of order.
    InvalidData,
    /// `|offset × to-root(bind) − I|` above the tolerance: the skin moves at the bind pose.
    BindPose,
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
    /// The largest edge stretch over a clip, with its time and edge.
    ClipStretch,
}

impl FindingKind {
    pub const ALL: [FindingKind; 15] = [
        FindingKind::InvalidData,
        FindingKind::BindPose,
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
            FindingKind::WeightSum => "vertices whose weights do not sum to 1",
            FindingKind::TrimmedInfluences => "meshes with trimmed influences",
            FindingKind::UnweightedVertex => "unweighted vertices",
            FindingKind::UnusedBone => "bones that influence no vertex",
            FindingKind::UnmatchedTrack => "tracks with no matching bone",
            FindingKind::DuplicateTrack => "duplicate tracks",
            FindingKind::UnanimatedBone => "bones without a track",
            FindingKind::MirroredScale => "mirrored scales",
            FindingKind::NonUniformScale => "non-uniform scales",
            FindingKind::DegenerateTriangle => "degenerate triangles",
            FindingKind::MissingTexture => "missing textures",
            FindingKind::PoseStretch => "stretched edges",
            FindingKind::ClipStretch => "clip stretch results",
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

/// One problem found in an asset.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    pub severity: Severity,
    pub kind: FindingKind,
    pub subject: Subject,
    /// A sentence a user can act on; names bones, meshes and clips by name.
    pub message: String,
    /// The measured quantity (bind-pose error, weight sum, stretch ratio, a count), for sorting and filtering.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<f32>,
    /// Where in which clip it happens (clip stretch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<ClipTime>,
    /// The two vertices (indices into the subject's mesh) of the edge concerned (stretch findings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edge: Option<[u32; 2]>,
    /// How many findings this one stands for: 1, or for a line that sums up the findings of a kind and severity
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
            at: None,
            edge: None,
            count: 1,
            summary: false,
        }
    }

    pub fn with_value(mut self, value: f32) -> Self {
        self.value = Some(value);
        self
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} ({}): {}", self.severity.name(), self.kind.name(), self.subject, self.message)
    }
}

/// Thresholds and limits. `Default` gives values suited to characters in any unit.
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
    /// Growth of an edge, as a fraction of the character's size, at which it is a tear (an error) whatever
    /// the joints allow: a spike or slab reaching this far out is visible in any full-body view (`tear`).
    pub tear_reach: f32,
    /// Growth of an edge beyond what bending at intact joints can make it (its hinge length), as a fraction of
    /// the character's size, at which it is a tear: the skin comes apart at a joint (`tear`).
    pub tear_gap: f32,
    /// The fraction of either tear limit at which a stretch is a warning (visible in a close look).
    pub warn_fraction: f32,
    /// Whether to sample every clip for edge stretch (the only check whose cost grows with clip count).
    pub clip_stretch: bool,
    /// Poses sampled per clip (every source frame when the clip has no more frames than this).
    pub samples_per_clip: usize,
    /// Edges measured per mesh at most; larger meshes are measured on an even sample of their triangles.
    pub max_edges: usize,
    /// Findings listed per kind at most; the rest are summed up in one finding.
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
            tear_gap: 0.04,
            warn_fraction: 0.5,
            clip_stretch: true,
            samples_per_clip: 30,
            max_edges: 1_000_000,
            max_per_kind: 100,
            current_palette: None,
        }
    }
}

/// Runs every check on `asset`. Findings come most severe first, grouped by kind, in asset order within a kind.
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
    out.finish()
}

/// Every severity, most severe first (the order of [`Severity`]).
const SEVERITIES: [Severity; 3] = [Severity::Error, Severity::Warning, Severity::Info];

/// Counts findings per kind and keeps the first `max` of each, so a mesh with a million bad vertices gives a
/// readable list plus a summary instead of a million lines. The findings left out are summed up per severity
/// (one line each, with its [`Finding::count`]): a summary at one severity would count warnings as errors,
/// and the counts, exit codes and reports built on them would not add up.
struct Collector {
    max: usize,
    findings: Vec<Finding>,
    counts: [usize; FindingKind::ALL.len()],
    /// Findings left out, per kind and severity.
    left_out: [[usize; 3]; FindingKind::ALL.len()],
}

impl Collector {
    fn new(max: usize) -> Self {
        Self {
            max,
            findings: Vec::new(),
            counts: [0; FindingKind::ALL.len()],
            left_out: [[0; 3]; FindingKind::ALL.len()],
        }
    }

    fn push(&mut self, finding: Finding) {
        let k = finding.kind as usize;
        self.counts[k] += 1;
        if self.counts[k] <= self.max {
            self.findings.push(finding);
        } else {
            self.left_out[k][finding.severity as usize] += 1;
        }
    }

    fn finish(mut self) -> Vec<Finding> {
        for kind in FindingKind::ALL {
            let k = kind as usize;
            for severity in SEVERITIES {
                let more = self.left_out[k][severity as usize];
                if more == 0 {
                    continue;
                }
                let mut summary = Finding::new(
                    severity,
                    kind,
                    Subject::Asset,
                    format!(
                        "… and {more} more {} at {} level ({} {} in all)",
                        kind.plural(),
                        severity.name(),
                        self.counts[k],
                        kind.plural()
                    ),
                )
                .with_value(more as f32);
                summary.count = more;
                summary.summary = true;
                self.findings.push(summary);
            }
        }
        // Stable: within a severity and kind, findings stay in the order the checks made them.
        self.findings.sort_by_key(|f| (f.severity, f.kind));
        self.findings
    }
}

/// A bone's name for messages ("bone 3 'Bip01 Spine'").
fn bone_label(asset: &Asset, bone: usize) -> String {
    match asset.skeleton.names.get(bone) {
        Some(name) => format!("bone {bone} '{name}'"),
        None => format!("bone {bone}"),
    }
}

fn mesh_label(asset: &Asset, mesh: usize) -> String {
    match asset.meshes.get(mesh) {
        Some(m) if !m.name.is_empty() => format!("mesh {mesh} '{}'", m.name),
        _ => format!("mesh {mesh}"),
    }
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
    fn collector_caps_each_kind_and_sums_the_rest() {
        let mut c = Collector::new(2);
        for i in 0..5 {
            let sev = if i == 4 { Severity::Error } else { Severity::Warning };
            c.push(Finding::new(sev, FindingKind::DegenerateTriangle, Subject::Triangle { mesh: 0, index: i }, "x"));
        }
        c.push(Finding::new(Severity::Info, FindingKind::UnusedBone, Subject::Bone(1), "y"));
        let f = c.finish();
        // Two kept warnings, the left-out error and the left-out warnings summed up apart, and the info.
        assert_eq!(f.len(), 5, "{f:#?}");
        assert_eq!((f[0].severity, f[0].count), (Severity::Error, 1));
        assert!(f[0].summary && f[0].subject == Subject::Asset);
        assert!(f[0].message.contains("1 more degenerate triangles at error level (5"), "{}", f[0].message);
        let warnings: usize = f.iter().filter(|x| x.severity == Severity::Warning).map(|x| x.count).sum();
        assert_eq!(warnings, 4, "every warning is counted once: {f:#?}");
        assert_eq!(f.iter().map(|x| x.count).sum::<usize>(), 6, "the counts add up to the findings pushed");
        assert_eq!(f[4].kind, FindingKind::UnusedBone);
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
