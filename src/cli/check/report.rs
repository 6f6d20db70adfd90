//! What `check` found, as plain data: one [`CharacterReport`] per character (or per file that did not load),
//! each with its [`CheckFinding`]s located by file, line or byte, clip, frame and bone. The text summary, the
//! JSON and the HTML page are all written from this.

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
    /// Animations in a folder with no reference mesh: checked against the first one's skeleton.
    NoReferenceMesh,
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
            CheckKind::NoReferenceMesh,
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
            CheckKind::NoReferenceMesh => "no_reference_mesh",
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
    /// How many findings this one stands for: more than 1 for the line that sums up the findings of a kind
    /// past the first hundred at its severity.
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

    /// Worst first: severity, then kind (file problems before rig problems), then the larger value; a line
    /// summing up left-out findings after the findings of its severity and kind (its value is a count).
    pub fn rank(&self, other: &Self) -> std::cmp::Ordering {
        let value =
            |f: &Self| f.value.filter(|v| !v.is_nan()).unwrap_or(if f.value.is_some() { f32::INFINITY } else { 0.0 });
        (self.severity, self.kind, self.summary)
            .cmp(&(other.severity, other.kind, other.summary))
            .then(value(other).total_cmp(&value(self)))
    }
}

/// How a character's files were grouped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Grouping {
    /// A model script (QC/MDS/MMS) and the files it names.
    Script,
    /// A reference mesh with the animation files of its folder.
    Folder,
    /// A folder's animation files with no reference mesh beside them.
    Animations,
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

    pub fn of(findings: &[CheckFinding]) -> Self {
        let mut counts = Counts::default();
        for f in findings {
            counts.add(f.severity, f.count);
        }
        counts
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
    /// Whether the character loaded (its rig was checked).
    pub loaded: bool,
    pub bones: usize,
    pub vertices: usize,
    pub triangles: usize,
    /// Clip names, in the character's order.
    pub clips: Vec<String>,
    pub counts: Counts,
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
            loaded: false,
            bones: 0,
            vertices: 0,
            triangles: 0,
            clips: Vec::new(),
            counts: Counts::default(),
            findings: Vec::new(),
            thumbnail: None,
        }
    }

    /// Sorts the findings worst first and counts them.
    pub fn finish(mut self) -> Self {
        self.findings.sort_by(CheckFinding::rank);
        self.counts = Counts::of(&self.findings);
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
    pub fn counts(&self) -> Counts {
        let mut total = Counts::default();
        for c in &self.characters {
            total.error += c.counts.error;
            total.warning += c.counts.warning;
            total.info += c.counts.info;
        }
        total
    }

    /// Counts per kind that occurs, in [`CheckKind::all`] order.
    pub fn by_kind(&self) -> Vec<(CheckKind, Counts)> {
        CheckKind::all()
            .into_iter()
            .filter_map(|kind| {
                let mut counts = Counts::default();
                for f in self.characters.iter().flat_map(|c| &c.findings).filter(|f| f.kind == kind) {
                    counts.add(f.severity, f.count);
                }
                (counts != Counts::default()).then_some((kind, counts))
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
