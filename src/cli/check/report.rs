//! What `check` found, as plain data: one [`CharacterReport`] per character (or per file that did not load, or
//! that paired with no character), each with how its files were paired and its [`CheckFinding`]s located by
//! file, line or byte, clip, frame, bone and place. One finding is one defect: `occurrences` says how many
//! instances (clips, vertices, overlays) it stands for, `clips` which clips show it. The text summary, the JSON
//! and the HTML page are all written from this.

use std::path::{Path, PathBuf};

use bonescope::anim::diagnostics::{FindingKind, Severity, Subject};
use serde::{Deserialize, Serialize};

/// What a finding is about: one of the rig diagnostics, or a problem with the files themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CheckKind {
    /// A file that did not load (its error says where and why).
    LoadError,
    /// A model script names a file that is not there.
    MissingFile,
    /// An animation that loaded but could not be bound to its character (a VTA whose vertices are not the mesh's).
    BindError,
    /// An animation or companion file that pairs with no character (by name or by what it holds): checked
    /// alone.
    Unpaired,
    /// A Gothic overlay script without a mesh of its own: its animations are checked on its base model.
    OverlayOnBase,
    /// A model script's sequence for which no clip was built (a frame range outside its file, an alias of
    /// nothing, a file that holds no animation).
    SequenceNotLoaded,
    /// A part of a model script whose bind pose differs from the character's: its vertices were moved onto
    /// the shared skeleton, which shows wrongly if the difference is a mistake.
    BindPoseMoved,
    /// A file that does not say how it is to be read (which exporter wrote it, so which axes): read as guessed.
    AmbiguousFile,
    /// Anything else a loader had to change, guess or skip to read a file (its message says what).
    LoadWarning,
    /// A rig diagnostic (`anim::diagnostics`).
    Rig(FindingKind),
}

impl CheckKind {
    /// Every kind, in the order the summary lists them.
    pub fn all() -> Vec<CheckKind> {
        let mut all = vec![
            CheckKind::LoadError,
            CheckKind::MissingFile,
            CheckKind::BindError,
            CheckKind::Unpaired,
            CheckKind::OverlayOnBase,
            CheckKind::SequenceNotLoaded,
            CheckKind::BindPoseMoved,
            CheckKind::AmbiguousFile,
            CheckKind::LoadWarning,
        ];
        all.extend(FindingKind::ALL.map(CheckKind::Rig));
        all
    }

    /// The name in text, JSON and HTML output (the rig kinds keep their diagnostics names).
    pub fn name(self) -> &'static str {
        match self {
            CheckKind::LoadError => "load_error",
            CheckKind::MissingFile => "missing_file",
            CheckKind::BindError => "bind_error",
            CheckKind::Unpaired => "unpaired",
            CheckKind::OverlayOnBase => "overlay_on_base",
            CheckKind::SequenceNotLoaded => "sequence_not_loaded",
            CheckKind::BindPoseMoved => "bind_pose_moved",
            CheckKind::AmbiguousFile => "ambiguous_file",
            CheckKind::LoadWarning => "load_warning",
            CheckKind::Rig(kind) => kind.name(),
        }
    }
}

impl Serialize for CheckKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for CheckKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        CheckKind::all()
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown finding kind '{name}'")))
    }
}

/// One problem, with where it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckFinding {
    pub severity: Severity,
    pub kind: CheckKind,
    pub message: String,
    /// The file it is in or comes from (the animation a clip was read from, the mesh a material belongs to).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// Line in `file` (load errors of text files, model script lines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Byte offset in `file` (load errors of binary files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub byte: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clip: Option<String>,
    /// Seconds from the clip's start, and the frame at the clip's rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bone: Option<String>,
    /// What in the loaded character it is about (rig findings: indices into the character's arrays).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<Subject>,
    /// The two vertices (indices into the subject's mesh) of the edge concerned (stretch findings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edge: Option<[u32; 2]>,
    /// The measured quantity (stretch ratio, bind-pose error, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<f32>,
    /// Surface findings: how far the surface moved at the worst moment, as a fraction of the character's size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extent: Option<f32>,
    /// The mesh it is in, named by its file (and body group or registered mesh).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mesh: Option<String>,
    /// The file of that mesh.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mesh_file: Option<PathBuf>,
    /// Where the defect is, in words: the mesh and the bones there, or the names that place it. The same kind
    /// at the same place is one defect, wherever else it was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<String>,
    /// Every clip the defect shows in, worst first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clips: Vec<ClipRef>,
    /// How many instances this defect stands for: clips (of this character and of others that found it),
    /// vertices, triangles or materials of its place.
    #[serde(default = "one")]
    pub occurrences: usize,
    /// How many defects this one stands for: more than 1 for the line that sums up the defects of a kind past
    /// the first hundred at its severity.
    pub count: usize,
    /// True for a line that sums up findings left out of the list.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub summary: bool,
}

impl CheckFinding {
    pub fn new(severity: Severity, kind: CheckKind, message: impl Into<String>) -> Self {
        Self {
            severity,
            kind,
            message: message.into(),
            file: None,
            line: None,
            byte: None,
            clip: None,
            time: None,
            frame: None,
            bone: None,
            subject: None,
            edge: None,
            value: None,
            extent: None,
            mesh: None,
            mesh_file: None,
            place: None,
            clips: Vec::new(),
            occurrences: 1,
            count: 1,
            summary: false,
        }
    }

    pub fn in_file(mut self, file: &Path) -> Self {
        self.file = Some(file.to_path_buf());
        self
    }

    pub fn at_line(mut self, line: usize) -> Self {
        self.line = Some(line);
        self
    }

    /// Worst first: severity, then kind (file problems before rig problems), then how far the surface moved
    /// (warnings ranked by size), then the larger value; a line summing up left-out findings after the findings
    /// of its severity and kind (its value is a count).
    pub fn rank(&self, other: &Self) -> std::cmp::Ordering {
        let measure = |v: Option<f32>| v.map_or(f32::NEG_INFINITY, |x| if x.is_nan() { f32::INFINITY } else { x });
        (self.severity, self.kind, self.summary)
            .cmp(&(other.severity, other.kind, other.summary))
            .then(measure(other.extent).total_cmp(&measure(self.extent)))
            .then(measure(other.value).total_cmp(&measure(self.value)))
    }
}

fn one() -> usize {
    1
}

/// A clip a defect shows in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClipRef {
    pub clip: String,
    /// The file the clip was read from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
    /// The character that played it, when another than the finding's own (an overlay on its base model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub character: Option<String>,
    /// The worst moment there, in seconds and as a frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame: Option<u32>,
    pub severity: Severity,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<f32>,
}

/// A file of a character other than its main one, and how it came to be the character's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairedFile {
    pub file: PathBuf,
    /// `script` (a model script names it), `part`, `name`, `folder`, `prefix`, `skeleton` or `vertices`
    /// (docs/check-json.md).
    pub method: String,
    /// The evidence, in words.
    pub detail: String,
}

impl PairedFile {
    pub fn new(file: &Path, how: &super::pair::Pairing) -> Self {
        Self { file: file.to_path_buf(), method: how.method.to_owned(), detail: how.detail.clone() }
    }
}

/// How a character's files were grouped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Grouping {
    /// A model script (QC/MDS/MMS) and the files it names.
    Script,
    /// A mesh with the files paired with it (`pairing` says how each was).
    Paired,
    /// An animation or companion file that paired with no character, checked alone.
    Unpaired,
    /// One file that did not load, on its own.
    File,
}

/// Counts per severity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub error: usize,
    pub warning: usize,
    pub info: usize,
}

impl Counts {
    pub fn add(&mut self, severity: Severity, n: usize) {
        match severity {
            Severity::Error => self.error += n,
            Severity::Warning => self.warning += n,
            Severity::Info => self.info += n,
        }
    }

    /// Findings at `level` or worse.
    pub fn at_least(&self, level: Severity) -> usize {
        match level {
            Severity::Error => self.error,
            Severity::Warning => self.error + self.warning,
            Severity::Info => self.error + self.warning + self.info,
        }
    }

    /// Defects per severity (a summing-up line counts as the defects it stands for).
    pub fn of(findings: &[CheckFinding]) -> Self {
        let mut counts = Counts::default();
        for f in findings {
            counts.add(f.severity, f.count);
        }
        counts
    }

    /// Occurrences per severity: the instances the defects stand for.
    pub fn occurrences_of(findings: &[CheckFinding]) -> Self {
        let mut counts = Counts::default();
        for f in findings {
            counts.add(f.severity, f.occurrences);
        }
        counts
    }

    pub fn plus(mut self, other: &Counts) -> Self {
        self.error += other.error;
        self.warning += other.warning;
        self.info += other.info;
        self
    }
}

/// One character (or one file that did not load) and what was found in it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CharacterReport {
    /// The script's model name, else the main file's name.
    pub name: String,
    pub grouping: Grouping,
    /// The script or reference mesh (or the only file).
    pub main: PathBuf,
    /// Every file of the character, the main one first.
    pub files: Vec<PathBuf>,
    /// How each file other than the main one came to be the character's (loose files; a script's are named
    /// by it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pairing: Vec<PairedFile>,
    /// For a Gothic overlay checked on its base model: the base's script.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overlay_of: Option<PathBuf>,
    /// Whether the character loaded (its rig was checked).
    pub loaded: bool,
    pub bones: usize,
    pub vertices: usize,
    pub triangles: usize,
    /// Clip names, in the character's order.
    pub clips: Vec<String>,
    /// Its defects per severity.
    pub counts: Counts,
    /// The instances its defects stand for, per severity.
    #[serde(default)]
    pub occurrences: Counts,
    /// Worst first.
    pub findings: Vec<CheckFinding>,
    /// A JPEG of the character at its worst clip frame (`--thumbnails`).
    #[serde(skip)]
    pub thumbnail: Option<Vec<u8>>,
}

impl CharacterReport {
    pub fn new(name: impl Into<String>, grouping: Grouping, main: &Path) -> Self {
        Self {
            name: name.into(),
            grouping,
            main: main.to_path_buf(),
            files: vec![main.to_path_buf()],
            pairing: Vec::new(),
            overlay_of: None,
            loaded: false,
            bones: 0,
            vertices: 0,
            triangles: 0,
            clips: Vec::new(),
            counts: Counts::default(),
            occurrences: Counts::default(),
            findings: Vec::new(),
            thumbnail: None,
        }
    }

    /// Sorts the findings worst first and counts them.
    pub fn finish(mut self) -> Self {
        self.findings.sort_by(CheckFinding::rank);
        self.counts = Counts::of(&self.findings);
        self.occurrences = Counts::occurrences_of(&self.findings);
        self
    }
}

/// Everything one run found.
#[derive(Debug)]
pub struct Report {
    /// The paths given on the command line.
    pub roots: Vec<PathBuf>,
    /// Files of the formats read (scripts, meshes, animations) found under them.
    pub files: usize,
    /// Other files found and left alone (textures, notes).
    pub other_files: usize,
    pub characters: Vec<CharacterReport>,
    pub elapsed: std::time::Duration,
}

impl Report {
    /// Defects per severity.
    pub fn counts(&self) -> Counts {
        self.characters.iter().fold(Counts::default(), |total, c| total.plus(&c.counts))
    }

    /// The instances the defects stand for, per severity.
    pub fn occurrences(&self) -> Counts {
        self.characters.iter().fold(Counts::default(), |total, c| total.plus(&c.occurrences))
    }

    /// Defects and occurrences per kind that occurs, in [`CheckKind::all`] order.
    pub fn by_kind(&self) -> Vec<(CheckKind, Counts, Counts)> {
        CheckKind::all()
            .into_iter()
            .filter_map(|kind| {
                let (mut counts, mut occurrences) = (Counts::default(), Counts::default());
                for f in self.characters.iter().flat_map(|c| &c.findings).filter(|f| f.kind == kind) {
                    counts.add(f.severity, f.count);
                    occurrences.add(f.severity, f.occurrences);
                }
                (counts != Counts::default()).then_some((kind, counts, occurrences))
            })
            .collect()
    }

    /// The `n` worst findings over every character, with the character each belongs to.
    pub fn worst(&self, n: usize) -> Vec<(&CharacterReport, &CheckFinding)> {
        let mut all: Vec<(&CharacterReport, &CheckFinding)> =
            self.characters.iter().flat_map(|c| c.findings.iter().map(move |f| (c, f))).collect();
        all.sort_by(|a, b| a.1.rank(b.1));
        all.truncate(n);
        all
    }
}
