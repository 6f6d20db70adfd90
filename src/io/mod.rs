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
pub mod smd;
pub mod text;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::scene::{Asset, BindReport, Format};

pub use companions::{animation_companions, resolve_texture};

/// Where in a file a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// The file as a whole (e.g. empty, unknown format).
    File,
    /// 1-based line of a text file.
    Line(usize),
    /// Byte offset in a binary file.
    Byte(u64),
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::File => Ok(()),
            Position::Line(l) => write!(f, "line {l}"),
            Position::Byte(b) => write!(f, "byte {b}"),
        }
    }
}

/// A file that could not be loaded: which file, where in it, and what was wrong (or expected).
#[derive(Clone, Debug, PartialEq)]
pub struct LoadError {
    /// Set by [`load_path`]; `None` for in-memory loads.
    pub file: Option<PathBuf>,
    pub position: Position,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{}: ", file.display())?;
        }
        if self.position != Position::File {
            write!(f, "{}: ", self.position)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for LoadError {}

impl LoadError {
    pub fn new(position: Position, message: impl Into<String>) -> Self {
        Self { file: None, position, message: message.into() }
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

    pub fn in_file(mut self, path: &Path) -> Self {
        self.file = Some(path.to_path_buf());
        self
    }
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
        _ => None,
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
    }
}

/// Largest file the loaders accept (text formats are parsed in memory).
pub const MAX_FILE_SIZE: u64 = 4 << 30;

/// Reads and loads one file, detecting its format. Errors name the file.
pub fn load_path(path: &Path, opts: &LoadOptions) -> Result<Asset, LoadError> {
    let fail = |e: LoadError| e.in_file(path);
    let meta = std::fs::metadata(path).map_err(|e| fail(LoadError::whole_file(format!("cannot open: {e}"))))?;
    if meta.is_dir() {
        return Err(fail(LoadError::whole_file("is a directory, not a file")));
    }
    if meta.len() > MAX_FILE_SIZE {
        return Err(fail(LoadError::whole_file(format!(
            "{} bytes is larger than the {MAX_FILE_SIZE}-byte limit",
            meta.len()
        ))));
    }
    let bytes = file_bytes::read_file(path, meta.len())
        .map_err(|e| fail(LoadError::whole_file(format!("cannot read: {e}"))))?;
    if bytes.is_empty() {
        return Err(fail(LoadError::whole_file("the file is empty (0 bytes)")));
    }
    let format = detect_format(&bytes, Some(path)).ok_or_else(|| {
        fail(LoadError::whole_file(
            "unknown format: not PSK/PSA (ACTRHEAD/ANIMHEAD), SMD/VTA (`version 1`), ASE (`*3DSMAX_ASCIIEXPORT`) or an MRTK recording",
        ))
    })?;
    let opts = LoadOptions { base_dir: path.parent().map(Path::to_path_buf), ..opts.clone() };
    let mut asset = load_format(format, &bytes, &opts).map_err(fail)?;
    if format == Format::Smd {
        smd::name_clips_after_file(&mut asset, path);
    }
    asset.path = Some(path.to_path_buf());
    Ok(asset)
}

/// Opens a set of files as one scene: the first file is the main asset; every further file (animations: PSA,
/// animation SMDs, ASE with animation; VTA vertex animation) is bound to it with [`bind`].
pub fn load_set(paths: &[PathBuf], opts: &LoadOptions) -> Result<(Asset, Vec<BindReport>), LoadError> {
    let Some((first, rest)) = paths.split_first() else {
        return Err(LoadError::whole_file("no file given"));
    };
    let mut asset = load_path(first, opts)?;
    let mut reports = Vec::new();
    for path in rest {
        reports.push(bind(&mut asset, load_path(path, opts)?)?);
    }
    Ok((asset, reports))
}

/// Binds what another file holds to `asset`: clips by bone name ([`Asset::bind_animations`]), or, for a VTA,
/// its vertex animation as morph targets matched by vertex. Errors name `other`'s file.
pub fn bind(asset: &mut Asset, other: Asset) -> Result<BindReport, LoadError> {
    if other.format == Some(Format::Vta) {
        smd::attach_vta(asset, &other).map_err(|e| match &other.path {
            Some(path) => e.in_file(path),
            None => e,
        })?;
        return Ok(BindReport { source: other.path, ..BindReport::default() });
    }
    Ok(asset.bind_animations(other))
}
