//! File formats in, the neutral [`scene`](crate::scene) model out. Each loader is
//! `load(bytes, &LoadOptions) -> Result<Asset, LoadError>`; this module detects the format (magic bytes first,
//! extension second), reads files from disk, finds companion files (textures, animations beside a mesh) and
//! defines the one error type loaders return. It knows nothing about the GPU or the UI.

// File input must never panic this layer: errors are returned instead (tests may unwrap, see clippy.toml).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod actorx;
pub mod ase;
pub mod companions;
pub mod file_bytes;
pub mod gltf;
pub mod mrtk;
pub mod mrtk_write;
pub mod psa;
pub mod psk;
pub mod script;
pub mod smd;
pub mod smoothing;
pub mod text;

use std::path::{Path, PathBuf};

/// Where in a file a problem is (shared with the warnings of [`crate::scene::Warning`]).
pub use crate::scene::Position;
use crate::scene::{Asset, BindReport, Format};

pub use companions::{animation_companions, resolve_texture};

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
pub fn check_file(path: &Path) -> Result<u64, LoadError> {
    let meta = std::fs::metadata(path).map_err(|e| LoadError::io("cannot open", &e))?;
    if meta.is_dir() {
        return Err(LoadError::whole_file("is a directory, not a file").with_kind(LoadErrorKind::NotAFile));
    }
    if meta.len() > MAX_FILE_SIZE {
        return Err(LoadError::whole_file(format!(
            "{} bytes is larger than the {MAX_FILE_SIZE}-byte limit",
            meta.len()
        ))
        .with_kind(LoadErrorKind::TooLarge));
    }
    Ok(meta.len())
}

/// Detects the format of a file's bytes (read in full), or says why it cannot be loaded: empty, or of no format
/// bonescope reads.
pub fn detect_file_format(bytes: &[u8], path: &Path) -> Result<Format, LoadError> {
    if bytes.is_empty() {
        return Err(LoadError::whole_file("the file is empty (0 bytes)").with_kind(LoadErrorKind::Empty));
    }
    detect_format(bytes, Some(path)).ok_or_else(|| {
        LoadError::whole_file(
            "unknown format: not PSK/PSA (ACTRHEAD/ANIMHEAD), SMD/VTA (`version 1`), ASE (`*3DSMAX_ASCIIEXPORT`), an MRTK recording or a QC/MDS/MMS model script",
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
}

impl Default for LoadOptions {
    fn default() -> Self {
        Self { base_dir: None, default_fps: 30.0 }
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
        Format::Qc | Format::Mds | Format::Mms => script::load(format, bytes, None, opts),
    }
}

/// Largest file the loaders accept (text formats are parsed in memory).
pub const MAX_FILE_SIZE: u64 = 4 << 30;

/// Reads and loads one file, detecting its format. Errors name the file.
pub fn load_path(path: &Path, opts: &LoadOptions) -> Result<Asset, LoadError> {
    let fail = |e: LoadError| e.in_file(path);
    let size = check_file(path).map_err(fail)?;
    let bytes = file_bytes::read_file(path, size).map_err(|e| fail(LoadError::io("cannot read", &e)))?;
    let format = detect_file_format(&bytes, path).map_err(fail)?;
    let opts = LoadOptions { base_dir: path.parent().map(Path::to_path_buf), ..opts.clone() };
    if script::is_script_format(format) {
        // A script's error may belong to a file it includes, which the error already names.
        return script::load(format, &bytes, Some(path), &opts).map_err(|e| match e.file {
            Some(_) => e,
            None => e.in_file(path),
        });
    }
    let mut asset = load_format(format, &bytes, &opts).map_err(fail)?;
    if format == Format::Smd {
        smd::name_clips_after_file(&mut asset, path);
    }
    asset.path = Some(path.to_path_buf());
    Ok(asset)
}

/// Opens a set of files as one scene: the first file is the main asset; every further file (animations: PSA,
/// animation SMDs, ASE with animation) is bound to it with [`bind`]: by bone name, or, for vertex animation (VTA, an
/// ASE/ASC file of `*MESH_ANIMATION` frames only), to the mesh it animates.
pub fn load_set(paths: &[PathBuf], opts: &LoadOptions) -> Result<(Asset, Vec<BindReport>), LoadError> {
    let Some((first, rest)) = paths.split_first() else {
        return Err(LoadError::whole_file("no file given").with_kind(LoadErrorKind::NoInput));
    };
    let mut asset = load_path(first, opts)?;
    let mut reports = Vec::new();
    for path in rest {
        reports.push(bind(&mut asset, load_path(path, opts)?)?);
    }
    Ok((asset, reports))
}

/// Binds what another file holds to `asset`, as [`load_set`] does: vertex animation (VTA morphs, an ASE/ASC file of
/// `*MESH_ANIMATION` frames only) to the mesh it animates, matched by vertex; anything else by bone name
/// ([`Asset::bind_animations`]). Errors name `other`'s file.
pub fn bind(asset: &mut Asset, other: Asset) -> Result<BindReport, LoadError> {
    let path = other.path.clone();
    let in_file = |e: LoadError| match &path {
        Some(p) => e.in_file(p),
        None => e,
    };
    if other.format == Some(Format::Vta) {
        // Morph targets for the mesh, matched by vertex rather than by bone.
        smd::attach_vta(asset, &other).map_err(in_file)?;
        return Ok(BindReport { source: other.path, ..BindReport::default() });
    }
    if ase::is_vertex_animation(&other) {
        return ase::bind_vertex_animation(asset, other).map_err(in_file);
    }
    Ok(asset.bind_animations(other))
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
        assert_eq!(load_set(&[], &opts).unwrap_err().kind, LoadErrorKind::NoInput);
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
