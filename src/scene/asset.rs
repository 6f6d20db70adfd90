//! `Asset`: everything one opened file (plus the animation files bound to it) contributes to the viewer, and
//! the rule for binding clips from another file by bone name.

use std::path::PathBuf;

use glam::{Mat3, Mat4, Vec3};

use super::{
    Clip, Material, Mesh, ModelScript, NameRule, Reading, Recording, Retarget, Skeleton, ambiguous_names, match_tracks,
};

/// The file formats bonescope reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Format {
    Psk,
    Psa,
    Smd,
    Vta,
    Ase,
    Mrtk,
    /// Valve QC model script (the whole character it describes).
    Qc,
    /// Gothic MDS model script.
    Mds,
    /// Gothic MMS morph-mesh script.
    Mms,
    /// Valve DMX (Source datamodel: models, animations, flex controls; keyvalues2 or binary, plain or gzip).
    Dmx,
    /// Compiled GoldSrc (Half-Life) model, MDL version 10 (`IDST`), with its texture and sequence-group files.
    HlMdl,
    /// Gothic MSB: an MDS compiled by the engine (`io::zengin::msb`).
    ZenMsb,
    /// ZenGin compiled model hierarchy (`.MDH`).
    ZenMdh,
    /// ZenGin compiled model mesh (`.MDM`: soft-skin and node meshes).
    ZenMdm,
    /// ZenGin compiled model (`.MDL`: hierarchy and mesh in one file).
    ZenMdl,
    /// ZenGin compiled model animation (`.MAN`).
    ZenMan,
    /// ZenGin compiled morph mesh (`.MMB`) with its animations.
    ZenMmb,
    /// ZenGin compiled multi-resolution (static) mesh (`.MRM`).
    ZenMrm,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Psk => "Unreal ActorX PSK (skeletal mesh)",
            Format::Psa => "Unreal ActorX PSA (skeletal animation)",
            Format::Smd => "Valve SMD",
            Format::Vta => "Valve VTA (vertex animation)",
            Format::Ase => "3ds Max ASE",
            Format::Mrtk => "MRTK input animation",
            Format::Qc => "Valve QC model script",
            Format::Mds => "Gothic MDS model script",
            Format::Mms => "Gothic MMS morph-mesh script",
            Format::Dmx => "Valve DMX",
            Format::HlMdl => "GoldSrc compiled model (MDL v10)",
            Format::ZenMsb => "Gothic MSB compiled model script",
            Format::ZenMdh => "Gothic compiled model hierarchy (MDH)",
            Format::ZenMdm => "Gothic compiled model mesh (MDM)",
            Format::ZenMdl => "Gothic compiled model (MDL)",
            Format::ZenMan => "Gothic compiled model animation (MAN)",
            Format::ZenMmb => "Gothic compiled morph mesh (MMB)",
            Format::ZenMrm => "Gothic compiled multi-resolution mesh (MRM)",
        }
    }
}

/// How to go from the file's coordinate frame to the viewer's (right-handed, Y up, units kept).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct AxisConversion {
    /// Applied to model-space points: `viewer = to_viewer * file`.
    pub to_viewer: Mat4,
    /// What the conversion does, for `info` and the docs.
    pub description: &'static str,
}

impl AxisConversion {
    pub const IDENTITY: Self = Self { to_viewer: Mat4::IDENTITY, description: "none (already right-handed, Y up)" };

    /// Right-handed Z up (SMD, ASE): `(x, y, z) → (x, z, −y)`, a rotation, winding unchanged.
    pub fn z_up_right_handed() -> Self {
        Self {
            to_viewer: Mat4::from_mat3(Mat3::from_cols(Vec3::X, -Vec3::Z, Vec3::Y)),
            description: "right-handed Z up → Y up: (x, y, z) → (x, z, −y)",
        }
    }

    /// A Gothic morph-mesh head's frame (the head bone's: +X up the neck, +Y towards the face, +Z the head's
    /// left): `(x, y, z) → (z, x, y)`, a rotation that stands it upright facing +Z.
    pub fn gothic_morph_head() -> Self {
        Self {
            to_viewer: Mat4::from_mat3(Mat3::from_cols(Vec3::Y, Vec3::Z, Vec3::X)),
            description: "Gothic morph-mesh head (head bone's frame: +X up, +Y front) → Y up, facing +Z: (x, y, z) → (z, x, y)",
        }
    }

    /// Unity's frame, left-handed Y up (MRTK recordings): `(x, y, z) → (x, y, −z)`, a mirror, winding flips.
    pub fn unity_left_handed() -> Self {
        Self {
            to_viewer: Mat4::from_scale(Vec3::new(1.0, 1.0, -1.0)),
            description: "Unity left-handed Y up → right-handed Y up: (x, y, z) → (x, y, −z)",
        }
    }

    /// True when the conversion mirrors (determinant < 0), so triangle winding flips.
    pub fn mirrors(&self) -> bool {
        self.to_viewer.determinant() < 0.0
    }

    /// This conversion turned so that `up`, an axis of the file, points up (+Y) in the viewer: for files whose
    /// exporter or root bone laid the character down. The smallest turn does it (a quarter or half turn about a
    /// horizontal axis), so what already was horizontal moves least; the result stays a rotation or mirror
    /// with exact zeros and ones where this one had them.
    pub fn with_file_up(&self, up: UpAxis) -> Self {
        self.turned_up(up, up.description())
    }

    /// [`AxisConversion::with_file_up`] described as `description` (why `up` was taken).
    pub fn turned_up(&self, up: UpAxis, description: &'static str) -> Self {
        let now = self.to_viewer.transform_vector3(up.vector()).normalize_or(Vec3::Y);
        let turn = if now.dot(Vec3::Y) < -0.999 {
            glam::Quat::from_rotation_x(std::f32::consts::PI)
        } else {
            glam::Quat::from_rotation_arc(now, Vec3::Y)
        };
        let snapped = (Mat4::from_quat(turn) * self.to_viewer).to_cols_array().map(|v| {
            let r = v.round();
            if (v - r).abs() < 1e-5 { r } else { v }
        });
        Self { to_viewer: Mat4::from_cols_array(&snapped), description }
    }
}

/// An axis of a file's own frame, for View › Up axis (and the viewer's `--up`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum UpAxis {
    #[cfg_attr(feature = "cli", value(name = "+x"))]
    PlusX,
    #[cfg_attr(feature = "cli", value(name = "-x"))]
    MinusX,
    #[cfg_attr(feature = "cli", value(name = "+y"))]
    PlusY,
    #[cfg_attr(feature = "cli", value(name = "-y"))]
    MinusY,
    #[cfg_attr(feature = "cli", value(name = "+z"))]
    PlusZ,
    #[cfg_attr(feature = "cli", value(name = "-z"))]
    MinusZ,
}

impl UpAxis {
    pub const ALL: [UpAxis; 6] =
        [UpAxis::PlusX, UpAxis::MinusX, UpAxis::PlusY, UpAxis::MinusY, UpAxis::PlusZ, UpAxis::MinusZ];

    pub fn vector(self) -> Vec3 {
        match self {
            UpAxis::PlusX => Vec3::X,
            UpAxis::MinusX => -Vec3::X,
            UpAxis::PlusY => Vec3::Y,
            UpAxis::MinusY => -Vec3::Y,
            UpAxis::PlusZ => Vec3::Z,
            UpAxis::MinusZ => -Vec3::Z,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            UpAxis::PlusX => "+X",
            UpAxis::MinusX => "−X",
            UpAxis::PlusY => "+Y",
            UpAxis::MinusY => "−Y",
            UpAxis::PlusZ => "+Z",
            UpAxis::MinusZ => "−Z",
        }
    }

    fn description(self) -> &'static str {
        match self {
            UpAxis::PlusX => "set by hand: the file's +X is up",
            UpAxis::MinusX => "set by hand: the file's −X is up",
            UpAxis::PlusY => "set by hand: the file's +Y is up",
            UpAxis::MinusY => "set by hand: the file's −Y is up",
            UpAxis::PlusZ => "set by hand: the file's +Z is up",
            UpAxis::MinusZ => "set by hand: the file's −Z is up",
        }
    }
}

impl Default for AxisConversion {
    fn default() -> Self {
        Self::IDENTITY
    }
}

/// Where in a file something is: a load error ([`crate::io::LoadError`]) or a [`Warning`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Position {
    /// The file as a whole (e.g. empty, unknown format, a count over the whole file).
    #[default]
    File,
    /// 1-based line of a text file.
    Line(usize),
    /// Byte offset in a binary file.
    Byte(u64),
}

impl std::fmt::Display for Position {
    /// `line 12`, `byte 5120`, or nothing for the whole file.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Position::File => Ok(()),
            Position::Line(l) => write!(f, "line {l}"),
            Position::Byte(b) => write!(f, "byte {b}"),
        }
    }
}

/// The written form — `line 12`, `byte 5120`, empty for the whole file — for code that builds positions as
/// text. Text of any other shape means the whole file.
impl From<&str> for Position {
    fn from(text: &str) -> Self {
        let number = |prefix: &str| text.strip_prefix(prefix).and_then(|n| n.trim().parse::<u64>().ok());
        if let Some(line) = number("line ").and_then(|n| usize::try_from(n).ok()) {
            Position::Line(line)
        } else if let Some(byte) = number("byte ") {
            Position::Byte(byte)
        } else {
            Position::File
        }
    }
}

impl From<String> for Position {
    fn from(text: String) -> Self {
        Position::from(text.as_str())
    }
}

/// Compares with the written form (`line 12`, `byte 5120`, empty).
impl PartialEq<&str> for Position {
    fn eq(&self, text: &&str) -> bool {
        match self {
            Position::File => text.is_empty(),
            Position::Line(l) => text.strip_prefix("line ").is_some_and(|n| n == l.to_string()),
            Position::Byte(b) => text.strip_prefix("byte ").is_some_and(|n| n == b.to_string()),
        }
    }
}

/// A non-fatal problem found while loading, with where it is.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Warning {
    /// The file the position is in, when it is not the asset's own file (a file a model script names, an
    /// animation bound to the model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    pub position: Position,
    pub message: String,
    /// [`WarningLevel::Error`] when part of what was asked for is missing (a file a model script names that is
    /// not there): the rest loaded and is usable, but the asset is incomplete, and `info` exits non-zero.
    #[serde(skip_serializing_if = "WarningLevel::is_warning")]
    pub level: WarningLevel,
}

/// How bad a [`Warning`] is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WarningLevel {
    /// Loaded, with something to know.
    #[default]
    Warning,
    /// Something is missing from what loaded.
    Error,
}

impl WarningLevel {
    fn is_warning(&self) -> bool {
        *self == WarningLevel::Warning
    }
}

impl Warning {
    /// A warning at `position` (a [`Position`], or its written form).
    pub fn new(position: impl Into<Position>, message: impl Into<String>) -> Self {
        Self { file: None, position: position.into(), message: message.into(), level: WarningLevel::Warning }
    }

    /// An error-level warning: part of the asset is missing, the rest loaded.
    pub fn error(position: impl Into<Position>, message: impl Into<String>) -> Self {
        Self { level: WarningLevel::Error, ..Self::new(position, message) }
    }

    /// True for an error-level warning.
    pub fn is_error(&self) -> bool {
        self.level == WarningLevel::Error
    }

    /// The same warning, placed in `file` unless it already names one.
    pub fn in_file(mut self, file: &std::path::Path) -> Self {
        self.file.get_or_insert_with(|| file.to_path_buf());
        self
    }
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_error() {
            write!(f, "error: ")?;
        }
        if let Some(name) = self.file.as_deref().and_then(std::path::Path::file_name) {
            write!(f, "{}: ", name.to_string_lossy())?;
        }
        match self.position {
            Position::File => write!(f, "{}", self.message),
            position => write!(f, "{position}: {}", self.message),
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct Asset {
    /// The format of the file it was read from; `None` for assets made by code (the samples, tests).
    pub format: Option<Format>,
    /// The file it came from (None for generated assets).
    pub path: Option<PathBuf>,
    pub skeleton: Skeleton,
    pub meshes: Vec<Mesh>,
    pub materials: Vec<Material>,
    pub clips: Vec<Clip>,
    pub recordings: Vec<Recording>,
    pub axes: AxisConversion,
    /// The files a modular character was joined from ([`super::parts`]), each with its meshes; empty for a
    /// character from one file.
    pub parts: Vec<super::Part>,
    pub warnings: Vec<Warning>,
    /// How the file was read where its meaning depends on the tool that wrote it (dialects), and why.
    pub readings: Vec<Reading>,

    // --- Model script (QC / MDS / MMS) ---
    /// The model script the character was opened from (bodies, body groups, sequences, hitboxes, attachments,
    /// boxes, ignored commands); `None` for single files.
    pub model_script: Option<Box<ModelScript>>,
}

impl Asset {
    /// An empty asset read from a file of `format` (loaders fill it in).
    pub fn new(format: Format) -> Self {
        Self { format: Some(format), ..Self::default() }
    }

    /// What to call the asset's kind in reports: the format's name, or "made by code".
    pub fn kind(&self) -> &'static str {
        self.format.map_or("made by code", Format::name)
    }

    pub fn vertex_count(&self) -> usize {
        self.meshes.iter().map(Mesh::vertex_count).sum()
    }

    pub fn triangle_count(&self) -> usize {
        self.meshes.iter().map(Mesh::triangle_count).sum()
    }

    pub fn clip(&self, name: &str) -> Option<&Clip> {
        self.clips.iter().find(|c| c.name == name).or_else(|| {
            let wanted = name.to_lowercase();
            self.clips.iter().find(|c| c.name.to_lowercase() == wanted)
        })
    }

    /// Takes the clips (and recordings) of `other` — an animation file — and matches them to this asset's
    /// skeleton by bone name ([`match_tracks`]: exact, then case, separator and prefix folding). Bones this
    /// skeleton has but a clip does not animate keep their bind pose; tracks for bones this skeleton lacks are
    /// reported (and ignored when sampling). The clips are played with `retarget` (the default: as the file says).
    pub fn bind_animations(&mut self, other: Asset) -> BindReport {
        self.bind_animations_with(other, &Retarget::default())
    }

    /// [`Asset::bind_animations`] with the given retargeting for every clip of `other`.
    pub fn bind_animations_with(&mut self, other: Asset, retarget: &Retarget) -> BindReport {
        let mut report = BindReport {
            source: other.path.clone(),
            first_clip: self.clips.len(),
            retarget: retarget.clone(),
            ..BindReport::default()
        };
        // The ground plane of root motion is the model's: its up direction in the file's frame.
        let up = self.axes.to_viewer.inverse().transform_vector3(Vec3::Y).normalize_or(Vec3::Y);
        for mut clip in other.clips {
            report.clips.push(clip.name.clone());
            clip.retarget = Retarget { up: up.to_array(), ..retarget.clone() };
            self.clips.push(clip);
        }
        self.recordings.extend(other.recordings);
        self.warnings.extend(other.warnings);
        self.take_readings_of(other.path.as_deref(), other.readings);
        self.refresh_bind_report(&mut report);
        report
    }

    /// Works out again how the clips a file bound ([`BindReport::clip_indices`]) meet the skeleton — the tracks
    /// that drive a bone and by which name rule, those that drive none, the bones none drives, the placeholder
    /// tracks, the skeleton differences — and the warnings that say it: after binding, and again when a part
    /// added bones that an earlier file's tracks animate (the kit's walk given before the head that has its face
    /// bones).
    pub fn refresh_bind_report(&mut self, report: &mut BindReport) {
        let fresh = BindReport {
            source: report.source.clone(),
            clips: std::mem::take(&mut report.clips),
            first_clip: report.first_clip,
            retarget: report.retarget.clone(),
            part: report.part.take(),
            not_joined: report.not_joined.take(),
            ..BindReport::default()
        };
        *report = fresh;
        let mut animated = vec![false; self.skeleton.len()];
        let mut first_translation: Vec<Option<Vec3>> = vec![None; self.skeleton.len()];
        let mut reported = vec![false; self.skeleton.len()];
        for clip in self.clips.get(report.clip_indices()).into_iter().flatten() {
            let names = || clip.tracks.iter().map(|t| t.bone_name.as_str());
            let matches = match_tracks(&self.skeleton, names());
            for name in ambiguous_names(&self.skeleton, names()) {
                if !report.ambiguous_names.contains(&name) {
                    report.ambiguous_names.push(name);
                }
            }
            for (track, matched) in clip.tracks.iter().zip(matches) {
                match matched {
                    Some((bone, rule)) => {
                        let bind = self.skeleton.bind_local.get(bone).copied().unwrap_or_default();
                        if super::placeholder::is_placeholder(track, &bind) {
                            if !report.placeholder_tracks.contains(&track.bone_name) {
                                report.placeholder_tracks.push(track.bone_name.clone());
                            }
                            if !clip.retarget.apply_placeholder_tracks {
                                continue;
                            }
                        }
                        animated[bone] = true;
                        if first_translation[bone].is_none() {
                            first_translation[bone] = track.translation.values.first().copied();
                        }
                        // Once per bone: a repeated name drives two bones and is listed for each.
                        if !std::mem::replace(&mut reported[bone], true) {
                            let bone_name = self.skeleton.names[bone].clone();
                            report.matched.push(TrackMatch { track: track.bone_name.clone(), bone: bone_name, rule });
                        }
                    }
                    None => {
                        if !report.unmatched_tracks.contains(&track.bone_name) {
                            report.unmatched_tracks.push(track.bone_name.clone());
                        }
                    }
                }
            }
        }
        if !report.clips.is_empty() {
            report.unanimated_bones =
                (0..self.skeleton.len()).filter(|&b| !animated[b]).map(|b| self.skeleton.names[b].clone()).collect();
        }
        report.skeleton_differences = skeleton_differences(&self.skeleton, &first_translation);
        // The warnings of this file's tracks, said once: those of an earlier binding go.
        let source = report.source.clone();
        if source.is_some() {
            let said =
                |m: &str| m.split_once(' ').is_some_and(|(_, rest)| TRACK_WARNINGS.iter().any(|p| rest.starts_with(p)));
            self.warnings.retain(|w| !(w.file == source && said(&w.message)));
        }
        let warn = |message: String| {
            let warning = Warning::new(Position::File, message);
            match &source {
                Some(file) => warning.in_file(file),
                None => warning,
            }
        };
        if !report.ambiguous_names.is_empty() {
            self.warnings.push(warn(format!(
                "{} {} {}",
                report.ambiguous_names.len(),
                TRACK_WARNINGS[0],
                report.ambiguous_names.join(", ")
            )));
        }
        if !report.unmatched_tracks.is_empty() {
            self.warnings.push(warn(format!(
                "{} {} {}",
                report.unmatched_tracks.len(),
                TRACK_WARNINGS[1],
                report.unmatched_tracks.join(", ")
            )));
        }
        if !report.placeholder_tracks.is_empty() {
            let what = if report.retarget.apply_placeholder_tracks {
                "played anyway, as asked"
            } else {
                "left at the bind pose (apply them with --apply-placeholder-tracks, or in the Files tab)"
            };
            self.warnings.push(warn(format!(
                "{} {} ({what}): {}",
                report.placeholder_tracks.len(),
                TRACK_WARNINGS[2],
                report.placeholder_tracks.join(", ")
            )));
        }
    }

    /// Adds the readings of a file bound to this one, each topic prefixed with that file's name.
    pub fn take_readings_of(&mut self, source: Option<&std::path::Path>, readings: Vec<Reading>) {
        let name = source.and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned());
        self.readings.extend(readings.into_iter().map(|mut r| {
            if let Some(name) = &name {
                r.topic = format!("{name}: {}", r.topic);
            }
            r
        }));
    }
}

/// How the warnings about a bound file's tracks begin (after their count), so that binding again replaces them:
/// repeated names, tracks for bones the skeleton lacks, placeholder tracks.
const TRACK_WARNINGS: [&str; 3] = [
    "bone name(s) repeat in the skeleton and the animation's bone list is not the model's, so their tracks were \
     bound in order:",
    "animated bone(s) not in the skeleton, ignored:",
    "placeholder track(s), identity keys of bones the animation does not move,",
];

/// A bone whose bind translation (its offset from its parent) differs from the animation's first frame by more
/// than this fraction of the bone's length: the animation was made for a skeleton of other proportions.
pub const SKELETON_DIFFERENCE: f32 = 0.1;

/// What binding an animation file to a skeleton found: which tracks drive which bones and by which name rule,
/// which tracks drive nothing, which bones nothing drives, where the animation's skeleton differs from the
/// model's, and how it is retargeted.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct BindReport {
    pub source: Option<PathBuf>,
    pub clips: Vec<String>,
    /// Index in the asset's clips of the first clip the file added (its clips follow in order).
    pub first_clip: usize,
    /// Every track that drives a bone, with the bone and the rule that matched them (once per track name).
    pub matched: Vec<TrackMatch>,
    /// Tracks whose bone the skeleton does not have.
    pub unmatched_tracks: Vec<String>,
    /// Track names the skeleton has more than once (Biped rigs repeat names), bound by their order because the
    /// animation's bone list is not the model's ([`ambiguous_names`]).
    pub ambiguous_names: Vec<String>,
    /// Skeleton bones that no track of the file drives (they keep the bind pose).
    pub unanimated_bones: Vec<String>,
    /// Bones whose bind translation differs from the animation's first frame by more than
    /// [`SKELETON_DIFFERENCE`] of their length, most different first.
    pub skeleton_differences: Vec<SkeletonDifference>,
    /// How the file's clips are retargeted.
    pub retarget: Retarget,
    /// Tracks whose keys are the identity, constant, for bones whose bind pose is not ([`super::placeholder`]):
    /// those bones keep their bind pose unless [`Retarget::apply_placeholder_tracks`] is set.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub placeholder_tracks: Vec<String>,
    /// Set when the file was a skeletal mesh of the same skeleton, joined to the model as a part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part: Option<super::PartReport>,
    /// Why nothing of the file joined the model (a mesh of another skeleton), when nothing did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_joined: Option<String>,
}

impl BindReport {
    /// The matches that needed more than the exact name.
    pub fn folded(&self) -> impl Iterator<Item = &TrackMatch> {
        self.matched.iter().filter(|m| m.rule != NameRule::Exact)
    }

    /// The indices of the clips the file added.
    pub fn clip_indices(&self) -> std::ops::Range<usize> {
        self.first_clip..self.first_clip + self.clips.len()
    }
}

/// A track and the bone it drives.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TrackMatch {
    pub track: String,
    pub bone: String,
    pub rule: NameRule,
}

/// A bone of other length in the animation than in the model.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SkeletonDifference {
    pub bone: String,
    /// The bone's length (its bind translation's) in the model.
    pub model_length: f32,
    /// Its length at the animation's first frame.
    pub animation_length: f32,
    /// `|bind translation − first-frame translation| / model length`.
    pub difference: f32,
}

/// The bones (not roots, whose translation is a placement rather than a length) whose first-frame translation
/// differs from the bind translation by more than [`SKELETON_DIFFERENCE`] of the bone's length.
fn skeleton_differences(skeleton: &Skeleton, first_translation: &[Option<Vec3>]) -> Vec<SkeletonDifference> {
    let mut out: Vec<SkeletonDifference> = Vec::new();
    for (bone, first) in first_translation.iter().enumerate() {
        let (Some(first), Some(Some(_parent)), Some(bind)) =
            (first, skeleton.parents.get(bone), skeleton.bind_local.get(bone))
        else {
            continue;
        };
        let length = bind.translation.length();
        // A bone at its parent's origin has no length to compare against.
        if length.is_nan() || length <= 1e-6 || !first.is_finite() {
            continue;
        }
        let difference = (bind.translation - *first).length() / length;
        if difference > SKELETON_DIFFERENCE {
            out.push(SkeletonDifference {
                bone: skeleton.names[bone].clone(),
                model_length: length,
                animation_length: first.length(),
                difference,
            });
        }
    }
    out.sort_by(|a, b| b.difference.total_cmp(&a.difference));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_file_axis_can_be_made_up_with_exact_numbers_and_no_mirror() {
        let z_up = AxisConversion::z_up_right_handed();
        for up in UpAxis::ALL {
            let turned = z_up.with_file_up(up);
            assert!(turned.to_viewer.transform_vector3(up.vector()).abs_diff_eq(Vec3::Y, 1e-6), "{up:?}");
            assert!(!turned.mirrors(), "{up:?}");
            assert!(turned.to_viewer.to_cols_array().iter().all(|v| [-1.0, 0.0, 1.0].contains(v)), "{up:?}");
        }
        // The file's own up changes nothing.
        assert_eq!(z_up.with_file_up(UpAxis::PlusZ).to_viewer, z_up.to_viewer);
        // A character lying along the file's +Y (a Z-up file's front): its +Y goes up, its old up (+Z) turns to
        // face the viewer's +Z.
        let lying = z_up.with_file_up(UpAxis::PlusY);
        assert!(lying.to_viewer.transform_vector3(Vec3::Z).abs_diff_eq(Vec3::Z, 1e-6));
    }
}
