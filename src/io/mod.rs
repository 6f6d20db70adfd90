//! File formats in, the neutral [`scene`](crate::scene) model out. Each loader is
//! `load(bytes, &LoadOptions) -> Result<Asset, LoadError>`; this module detects the format (magic bytes first,
//! extension second), reads files from disk ([`read_path`], the fast reader) and loads their bytes
//! ([`load_bytes`]; [`load_path`] is the two), finds companion files (textures: [`textures`]; animations beside a
//! mesh), binds animation files to a model ([`bind`]) and builds a file set one file at a time, keeping every
//! file's error ([`LoadedSet`]), and defines the one error type loaders return. It knows nothing about the GPU or
//! the UI.

// File input must never panic this layer: errors are returned instead (tests may unwrap, see clippy.toml).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub(crate) mod actorx;
pub mod ase;
pub mod binary;
pub(crate) mod companions;
pub mod dmx;
pub mod gltf;
pub mod mdl;
pub mod mrtk;
pub mod mrtk_write;
pub mod psa;
pub mod psk;
pub mod script;
pub mod smd;
pub(crate) mod smoothing;
pub(crate) mod text;
pub(crate) mod textures;
pub(crate) mod upright;
pub mod vmt;
pub mod vtf;
pub mod zengin;

use std::path::{Path, PathBuf};

/// Where in a file a problem is (shared with the warnings of [`crate::scene::Warning`]).
pub use crate::scene::Position;
use crate::scene::{Asset, BindReport, Format, Retarget};

pub use crate::files::{FileAccess, FileBytes, Files, MemoryFiles};
pub use companions::animation_companions;
pub use textures::{FolderCache, find_texture, resolve_texture};

/// What kind of problem stopped a load; [`LoadError::message`] says the details. Callers and tests match on
/// this rather than on the message's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LoadErrorKind {
    /// The file could not be opened or read; the operating system's reason.
    Io(std::io::ErrorKind),
    /// A directory (or something else that is not a regular file) was given.
    NotAFile,
    /// Larger than [`MAX_FILE_SIZE`].
    TooLarge,
    /// Zero bytes.
    Empty,
    /// Neither the first bytes nor the extension name a format bonescope reads.
    UnknownFormat,
    /// The bytes are not the format this loader reads (its magic number or first chunk is missing).
    NotThisFormat,
    /// The data ends inside something it declares (a chunk, a record count, a block, a triangle).
    Truncated,
    /// A version or variant of the format that is not supported, or a limit of the viewer's (bone count).
    Unsupported,
    /// The data is there but wrong: bad syntax, a value out of range, references to things that do not exist.
    /// The kind of every error made with [`LoadError::new`] and its shorthands.
    Malformed,
    /// Files that do not fit together (a VTA whose vertices are not the model's).
    Mismatch,
    /// Nothing was given to load.
    NoInput,
}

/// A file that could not be loaded: which file, where in it, what kind of problem, and what exactly was wrong
/// (or expected). Displayed as `file: line 12: message` (the parts that are known).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}{message}", location(.file.as_deref(), *.position))]
pub struct LoadError {
    /// Set by [`load_path`] and [`LoadError::in_file`]; `None` for in-memory loads.
    pub file: Option<PathBuf>,
    pub position: Position,
    pub kind: LoadErrorKind,
    pub message: String,
}

/// `"path: line 12: "`, the known parts of where an error is.
fn location(file: Option<&Path>, position: Position) -> String {
    let mut out = String::new();
    if let Some(file) = file {
        out += &format!("{}: ", file.display());
    }
    if position != Position::File {
        out += &format!("{position}: ");
    }
    out
}

impl LoadError {
    /// A [`LoadErrorKind::Malformed`] error at `position`; [`LoadError::with_kind`] says otherwise.
    pub fn new(position: Position, message: impl Into<String>) -> Self {
        Self { file: None, position, kind: LoadErrorKind::Malformed, message: message.into() }
    }

    pub fn at_line(line: usize, message: impl Into<String>) -> Self {
        Self::new(Position::Line(line), message)
    }

    pub fn at_byte(offset: u64, message: impl Into<String>) -> Self {
        Self::new(Position::Byte(offset), message)
    }

    pub fn whole_file(message: impl Into<String>) -> Self {
        Self::new(Position::File, message)
    }

    /// The data ends at `offset` inside something it declared.
    pub fn truncated(offset: u64, message: impl Into<String>) -> Self {
        Self::at_byte(offset, message).with_kind(LoadErrorKind::Truncated)
    }

    /// Opening or reading failed (`doing`: "cannot open", "cannot read").
    pub fn io(doing: &str, error: &std::io::Error) -> Self {
        Self::whole_file(format!("{doing}: {error}")).with_kind(LoadErrorKind::Io(error.kind()))
    }

    pub fn with_kind(mut self, kind: LoadErrorKind) -> Self {
        self.kind = kind;
        self
    }

    pub fn in_file(mut self, path: &Path) -> Self {
        self.file = Some(path.to_path_buf());
        self
    }
}

/// The checks every file goes through before its format's loader sees it: not a directory, not over
/// [`MAX_FILE_SIZE`]. Returns its size.
pub fn check_file(files: &Files, path: &Path) -> Result<u64, LoadError> {
    let len = match files.kind(path).map_err(|e| LoadError::io("cannot open", &e))? {
        crate::files::Kind::Folder => {
            return Err(LoadError::whole_file("is a directory, not a file").with_kind(LoadErrorKind::NotAFile));
        }
        crate::files::Kind::File { len } => len,
    };
    if len > MAX_FILE_SIZE {
        return Err(LoadError::whole_file(format!("{len} bytes is larger than the {MAX_FILE_SIZE}-byte limit"))
            .with_kind(LoadErrorKind::TooLarge));
    }
    Ok(len)
}

/// Detects the format of a file's bytes (read in full), or says why it cannot be loaded: empty, or of no format
/// bonescope reads.
pub fn detect_file_format(bytes: &[u8], path: &Path) -> Result<Format, LoadError> {
    if bytes.is_empty() {
        return Err(LoadError::whole_file("the file is empty (0 bytes)").with_kind(LoadErrorKind::Empty));
    }
    detect_format(bytes, Some(path)).ok_or_else(|| {
        LoadError::whole_file(
            "unknown format: not PSK/PSA (ACTRHEAD/ANIMHEAD), SMD/VTA (`version 1`), DMX (`<!-- dmx encoding`), ASE (`*3DSMAX_ASCIIEXPORT`), a GoldSrc MDL (`IDST`), an MRTK recording, a QC/MDS/MMS model script or a compiled Gothic file (MDH, MDM, MDL, MAN, MMB, MRM, MSB)",
        )
        .with_kind(LoadErrorKind::UnknownFormat)
    })
}

/// Options every loader may read.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// Folder the file lives in, for resolving textures and other companions. `None` for in-memory data.
    pub base_dir: Option<PathBuf>,
    /// Frame rate given to formats that do not store one (SMD animations): 30 by default, like studiomdl.
    pub default_fps: f32,
    /// Folders the user keeps textures in, searched after the file's own folder (`--textures DIR`).
    pub texture_dirs: Vec<PathBuf>,
    /// Folder listings of this load, shared by its files: each folder is read once ([`textures`]).
    pub folders: FolderCache,
    /// How animation files bound to a model are retargeted to its skeleton ([`bind`]).
    pub retarget: Retarget,
    /// Where files are read from: the disk by default ([`files`]).
    pub files: Files,
    /// The axis of the model's file that points up, given by hand (`--up`); `None`: the format's convention,
    /// unless the character's own bones say it lies down ([`upright`]).
    pub up: Option<crate::scene::UpAxis>,
}

impl Default for LoadOptions {
    fn default() -> Self {
        Self {
            base_dir: None,
            default_fps: 30.0,
            texture_dirs: Vec::new(),
            folders: FolderCache::default(),
            retarget: Retarget::default(),
            files: Files::disk(),
            up: None,
        }
    }
}

/// The magic of MRTK input animation files (Int64 `0x6a8faf6e0f9e42c6`, little-endian).
pub const MRTK_MAGIC: [u8; 8] = [0xc6, 0x42, 0x9e, 0x0f, 0x6e, 0xaf, 0x8f, 0x6a];

/// Detects the format from the first bytes, then from the extension.
pub fn detect_format(bytes: &[u8], path: Option<&Path>) -> Option<Format> {
    if bytes.starts_with(b"ACTRHEAD") {
        return Some(Format::Psk);
    }
    if bytes.starts_with(b"ANIMHEAD") {
        return Some(Format::Psa);
    }
    if bytes.starts_with(&MRTK_MAGIC) {
        return Some(Format::Mrtk);
    }
    // Its header, or a gzip stream that starts with one (`.dmx.gz`).
    if dmx::sniff(bytes) || path.is_some_and(dmx::is_dmx_name) {
        return Some(Format::Dmx);
    }
    // A compiled GoldSrc model by its magic, never by `.mdl` alone (Gothic's compiled MDL shares the extension).
    if mdl::is_mdl(bytes) {
        return Some(Format::HlMdl);
    }
    if zengin::msb::is_msb(bytes) {
        return Some(Format::ZenMsb);
    }
    if let Some(format) = zengin::sniff(bytes) {
        return Some(format);
    }
    let head = text::decode_text(&bytes[..bytes.len().min(4096)]).into_owned();
    let first_token = text::Tokens::new(&head).next_token().unwrap_or_default().to_ascii_lowercase();
    if first_token.starts_with(b"*3dsmax_asciiexport") {
        return Some(Format::Ase);
    }
    let extension =
        path.and_then(Path::extension).and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    if let Some(format) = script::format_from_extension(&extension) {
        return Some(format);
    }
    if first_token == b"version" {
        // SMD and VTA share the header; VTA has a `vertexanimation` block and is usually named .vta.
        let is_vta = extension == "vta" || memchr::memmem::find(&head, b"vertexanimation").is_some();
        return Some(if is_vta { Format::Vta } else { Format::Smd });
    }
    match extension.as_str() {
        "psk" | "pskx" => Some(Format::Psk),
        "psa" => Some(Format::Psa),
        "smd" => Some(Format::Smd),
        "vta" => Some(Format::Vta),
        "ase" => Some(Format::Ase),
        "bin" | "mrtk" => Some(Format::Mrtk),
        other if zengin::format_from_extension(other).is_some() => zengin::format_from_extension(other),
        // A model script under another name (`.txt`, `.qci`): recognised by its first words.
        _ => script::sniff(&bytes[..bytes.len().min(4096)]),
    }
}

/// Loads bytes of a known format.
pub fn load_format(format: Format, bytes: &[u8], opts: &LoadOptions) -> Result<Asset, LoadError> {
    match format {
        Format::Psk => psk::load(bytes, opts),
        Format::Psa => psa::load(bytes, opts),
        Format::Smd => smd::load(bytes, opts),
        Format::Vta => smd::load_vta(bytes, opts),
        Format::Ase => ase::load(bytes, opts),
        Format::Mrtk => mrtk::load(bytes, opts),
        Format::Dmx => dmx::load(bytes, opts),
        Format::Qc | Format::Mds | Format::Mms | Format::ZenMsb => script::load(format, bytes, None, opts),
        Format::HlMdl => mdl::load(bytes, None, opts),
        Format::ZenMdh | Format::ZenMdm | Format::ZenMdl | Format::ZenMan | Format::ZenMmb | Format::ZenMrm => {
            zengin::load(format, bytes, None, opts)
        }
    }
}

/// Largest file the loaders accept (text formats are parsed in memory).
pub const MAX_FILE_SIZE: u64 = 4 << 30;

/// Reads one file into memory after [`check_file`]'s checks, through `files` (on a disk, the fast reader:
/// [`crate::files::disk_read::read_file`]). The first half of [`load_path`]: the viewer's loader reads here (showing progress
/// between files) and then calls [`load_bytes`], so both run the same code. Errors name the file.
pub fn read_path(files: &Files, path: &Path) -> Result<FileBytes, LoadError> {
    let fail = |e: LoadError| e.in_file(path);
    check_file(files, path).map_err(fail)?;
    files.read(path).map_err(|e| fail(LoadError::io("cannot read", &e)))
}

/// Loads the bytes read from `path`, detecting the format: the second half of [`load_path`]. Companions
/// (textures, files a model script names) are looked up beside `path`; an animation SMD's clip is named after
/// the file, as studiomdl names a sequence's source. Errors name the file.
pub fn load_bytes(path: &Path, bytes: &[u8], opts: &LoadOptions) -> Result<Asset, LoadError> {
    let fail = |e: LoadError| e.in_file(path);
    let format = detect_file_format(bytes, path).map_err(fail)?;
    // A bare file name's folder is the current one (`Path::parent` gives an empty path, which names no folder).
    let folder = path.parent().map(|p| if p.as_os_str().is_empty() { Path::new(".") } else { p });
    let opts = LoadOptions { base_dir: folder.map(Path::to_path_buf), ..opts.clone() };
    if script::is_script_format(format) {
        // A script's error may belong to a file it includes, which the error already names.
        return script::load(format, bytes, Some(path), &opts).map_err(|e| match e.file {
            Some(_) => e,
            None => e.in_file(path),
        });
    }
    if format == Format::HlMdl {
        // Its companions (`<name>T.mdl`, `<name>01.mdl`) are found beside `path`; their errors name them.
        return mdl::load(bytes, Some(path), &opts).map_err(|e| match e.file {
            Some(_) => e,
            None => e.in_file(path),
        });
    }
    // A compiled Gothic file looks for the files it belongs with (its hierarchy) beside it.
    let loaded = if zengin::is_zengin(format) {
        zengin::load(format, bytes, Some(path), &opts)
    } else {
        load_format(format, bytes, &opts)
    };
    let mut asset = loaded.map_err(fail)?;
    if matches!(format, Format::Smd | Format::Dmx) {
        smd::name_after_file(&mut asset, path);
    }
    asset.path = Some(path.to_path_buf());
    Ok(asset)
}

/// Reads and loads one file, detecting its format ([`read_path`], then [`load_bytes`]). Errors name the file.
pub fn load_path(path: &Path, opts: &LoadOptions) -> Result<Asset, LoadError> {
    load_bytes(path, &read_path(&opts.files, path)?, opts)
}

/// A set of files opened as one scene, as far as it could be: the model (the first file that loaded), the
/// reports of the files bound to it, and the error of each file that failed to load or to bind. A bad file
/// costs only itself: every good one is in the scene. Built one file at a time with [`LoadedSet::add`], by
/// `source::load_set` for the command line and by the viewer's loader, which adds threads and progress.
#[derive(Debug, Default)]
pub struct LoadedSet {
    /// `None` when no file loaded.
    pub asset: Option<Asset>,
    /// One per file bound to the model, in order.
    pub reports: Vec<BindReport>,
    /// One per file that failed, in order; each names its file.
    pub errors: Vec<LoadError>,
}

/// What [`LoadedSet::add`] did with a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    /// It is the set's model.
    Model,
    /// It was bound to the model (its clips, a part, a head, vertex animation).
    Bound,
    /// It loaded, but nothing of it joins the model (a mesh of another skeleton): its report says why
    /// ([`BindReport::not_joined`]), and so does a warning on the model.
    NotJoined,
    /// It failed to load or to bind (its error is in [`LoadedSet::errors`]).
    Failed,
}

impl LoadedSet {
    /// A set whose model is already open: every file added binds to it.
    pub fn onto(model: Asset) -> Self {
        Self { asset: Some(model), ..Self::default() }
    }

    /// Adds one file's load result: the first good file is the model; every later one is bound to it with
    /// [`bind`] (by bone name, or by vertex for vertex animation).
    pub fn add(&mut self, loaded: Result<Asset, LoadError>, opts: &LoadOptions) -> Added {
        let other = match loaded {
            Ok(other) => other,
            Err(e) => {
                self.errors.push(e);
                return Added::Failed;
            }
        };
        let Some(model) = &mut self.asset else {
            let mut model = other;
            upright::stand_up(&mut model, opts.up);
            self.asset = Some(model);
            return Added::Model;
        };
        let bones_before = model.skeleton.len();
        match bind(model, other, opts) {
            Ok(report) => {
                // A part that brought bones the model lacked: the files bound before it may animate them.
                if model.skeleton.len() != bones_before {
                    for earlier in &mut self.reports {
                        model.refresh_bind_report(earlier);
                    }
                }
                let joined = report.not_joined.is_none();
                self.reports.push(report);
                if joined { Added::Bound } else { Added::NotJoined }
            }
            Err(e) => {
                self.errors.push(e);
                Added::Failed
            }
        }
    }

    /// All or nothing, for callers that need every file: the scene, or the first error (`NoInput` when the set
    /// was empty).
    pub fn into_result(mut self) -> Result<(Asset, Vec<BindReport>), LoadError> {
        if !self.errors.is_empty() {
            return Err(self.errors.swap_remove(0));
        }
        match self.asset {
            Some(asset) => Ok((asset, self.reports)),
            None => Err(LoadError::whole_file("no file given").with_kind(LoadErrorKind::NoInput)),
        }
    }

    /// The scene when at least one file loaded, else the first error (`NoInput` for an empty set). The errors of
    /// the other files are left for the caller to report.
    pub fn take_asset(&mut self) -> Result<Asset, LoadError> {
        match self.asset.take() {
            Some(asset) => Ok(asset),
            None if self.errors.is_empty() => {
                Err(LoadError::whole_file("no file given").with_kind(LoadErrorKind::NoInput))
            }
            None => Err(self.errors.remove(0)),
        }
    }
}

/// Whether `asset` is something to bind to a model rather than a model of its own: animation only (no mesh;
/// clips or recordings: a PSA, an animation SMD, an MRTK recording) or vertex animation (VTA, an ASE/ASC file of
/// `*MESH_ANIMATION` frames only). The viewer binds such dropped files to the open model (what joins a model
/// given with it, parts and heads too, is [`joining`]'s to say).
pub fn binds_to_model(asset: &Asset) -> bool {
    let animation_only = asset.meshes.is_empty() && (!asset.clips.is_empty() || !asset.recordings.is_empty());
    animation_only || asset.format == Some(Format::Vta) || ase::is_vertex_animation(asset)
}

/// How a file given after a model joins it: what [`bind`] does with it, decided in one place so that every
/// command and the viewer (all through [`LoadedSet::add`]), and `info` deciding which files describe one
/// character, agree.
#[derive(Clone, Debug, PartialEq)]
pub enum Joining {
    /// VTA vertex animation: morph targets of the model's mesh, matched by vertex.
    VertexAnimation,
    /// An ASE/ASC file of `*MESH_ANIMATION` frames only, for the mesh it animates.
    AseVertexAnimation,
    /// A Gothic morph-mesh head (MMS), attached to the model's head bone as the engine attaches a head.
    Head,
    /// A skeletal mesh of the model's skeleton: its meshes join the character ([`crate::scene::parts`]).
    Part,
    /// Clips or recordings bound by bone name; `meshes_left` says why the file's meshes, when it has any, do
    /// not join.
    Animations { meshes_left: Option<String> },
    /// Nothing of it joins the model: why.
    Nothing(String),
}

impl Joining {
    /// The whole file joins the model (nothing of it is left out): `info` describes it with the model.
    pub fn whole(&self) -> bool {
        !matches!(self, Joining::Nothing(_) | Joining::Animations { meshes_left: Some(_) })
    }
}

/// How `other` joins `model` ([`Joining`]).
pub fn joining(model: &Asset, other: &Asset) -> Joining {
    if other.format == Some(Format::Vta) {
        return Joining::VertexAnimation;
    }
    if ase::is_vertex_animation(other) {
        return Joining::AseVertexAnimation;
    }
    if script::gothic_head::is_head(other) && script::gothic_head::head_bone(model).is_some() {
        return Joining::Head;
    }
    let not_a_part = if other.meshes.is_empty() { None } else { crate::scene::parts::not_a_part(model, other) };
    let Some(why) = not_a_part else {
        return if other.meshes.is_empty() { Joining::Animations { meshes_left: None } } else { Joining::Part };
    };
    if !other.clips.is_empty() || !other.recordings.is_empty() {
        return Joining::Animations { meshes_left: Some(why) };
    }
    if script::gothic_head::is_head(other) {
        return Joining::Nothing(format!(
            "it is a Gothic morph-mesh head, and the model has no head bone ({}) to attach it to",
            script::gothic_head::HEAD_BONE
        ));
    }
    Joining::Nothing(why)
}

/// Binds what another file holds to `asset`, as [`LoadedSet::add`] does, by [`joining`]: vertex animation (VTA
/// morphs, an ASE/ASC file of `*MESH_ANIMATION` frames only) to the mesh it animates, matched by vertex; a
/// Gothic morph-mesh head to the head bone; a skeletal mesh whose bones match the model's as a part of a modular
/// character ([`crate::scene::parts`]); anything else by bone name ([`Asset::bind_animations`]). A file nothing
/// of which joins gives a report that says why ([`BindReport::not_joined`]) and a warning. Errors name
/// `other`'s file.
pub fn bind(asset: &mut Asset, other: Asset, opts: &LoadOptions) -> Result<BindReport, LoadError> {
    let path = other.path.clone();
    let in_file = |e: LoadError| match &path {
        Some(p) => e.in_file(p),
        None => e,
    };
    if zengin::binds_itself(&other) {
        // A compiled animation or mesh is rebuilt on the model's skeleton by hierarchy node index.
        return zengin::bind(asset, other, opts).map_err(in_file);
    }
    let first_clip = asset.clips.len();
    let mut report = match joining(asset, &other) {
        Joining::VertexAnimation => {
            // Morph targets for the mesh, matched by vertex rather than by bone.
            smd::attach_vta(asset, &other).map_err(in_file)?;
            BindReport { source: other.path, ..BindReport::default() }
        }
        Joining::AseVertexAnimation => ase::bind_vertex_animation(asset, other).map_err(in_file)?,
        Joining::Head => {
            let mut other = other;
            let part = script::gothic_head::attach_head(asset, &mut other);
            let mut report = asset.bind_animations_with(other, &opts.retarget);
            report.part = part;
            return Ok(report);
        }
        Joining::Part => {
            // A skeletal mesh of the same skeleton (a modular character's shirt or head): its meshes join the
            // model, and any clips it carries bind as an animation file's would.
            let mut other = other;
            let part = crate::scene::parts::add_part(asset, &mut other);
            let mut report = asset.bind_animations_with(other, &opts.retarget);
            report.part = Some(part);
            return Ok(report);
        }
        Joining::Animations { meshes_left } => {
            let report = asset.bind_animations_with(other, &opts.retarget);
            if let Some(why) = meshes_left {
                asset.warnings.push(not_joined_warning(path.as_deref(), &format!("its meshes are not joined: {why}")));
            }
            return Ok(report);
        }
        Joining::Nothing(why) => {
            asset.warnings.push(not_joined_warning(path.as_deref(), &format!("not joined to the model: {why}")));
            asset.warnings.extend(other.warnings);
            return Ok(BindReport {
                source: other.path,
                first_clip,
                retarget: opts.retarget.clone(),
                not_joined: Some(why),
                ..BindReport::default()
            });
        }
    };
    // Vertex animation adds its frames as a clip.
    report.first_clip = first_clip;
    report.clips = asset.clips.iter().skip(first_clip).map(|c| c.name.clone()).collect();
    Ok(report)
}

/// A warning on the model about a file given with it that (in part) did not join it.
fn not_joined_warning(file: Option<&Path>, message: &str) -> crate::scene::Warning {
    let warning = crate::scene::Warning::new(Position::File, message);
    match file {
        Some(f) => warning.in_file(f),
        None => warning,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_that_cannot_be_loaded_say_which_kind_of_problem() {
        let dir = std::env::temp_dir().join(format!("bonescope-io-kinds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let opts = LoadOptions::default();
        let kind_of = |path: &Path| load_path(path, &opts).unwrap_err().kind;
        let empty = dir.join("empty.psk");
        std::fs::write(&empty, b"").unwrap();
        let unknown = dir.join("notes.txt");
        std::fs::write(&unknown, b"hello").unwrap();
        assert_eq!(kind_of(&empty), LoadErrorKind::Empty);
        assert_eq!(kind_of(&unknown), LoadErrorKind::UnknownFormat);
        assert_eq!(kind_of(&dir), LoadErrorKind::NotAFile);
        assert_eq!(kind_of(&dir.join("missing.smd")), LoadErrorKind::Io(std::io::ErrorKind::NotFound));
        assert_eq!(LoadedSet::default().into_result().unwrap_err().kind, LoadErrorKind::NoInput);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn errors_read_file_position_message() {
        let e = LoadError::at_line(12, "expected 9 numbers").in_file(Path::new("hero.smd"));
        assert_eq!(e.to_string(), "hero.smd: line 12: expected 9 numbers");
        assert_eq!(e.kind, LoadErrorKind::Malformed);
        assert_eq!(LoadError::truncated(5120, "short").to_string(), "byte 5120: short");
        assert_eq!(LoadError::whole_file("nothing").to_string(), "nothing");
    }
}
