//! [`AppError`]: the one error type of the program's edges — the command line and the viewer — which load
//! files, render, export and write results. The layers below keep their own errors ([`LoadError`],
//! [`ExportError`], `render::RenderError`); this wraps them unchanged, so the message a user reads is the
//! layer's own, and adds what only the edges do (writing files, checking arguments, opening a window).

use std::path::PathBuf;

use crate::io::LoadError;
use crate::io::gltf::ExportError;

/// What went wrong at the command line or in the viewer.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Export(#[from] ExportError),
    #[cfg(feature = "gui")]
    #[error(transparent)]
    Render(#[from] crate::render::RenderError),
    /// A result could not be written.
    #[error("{}: cannot write: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Arguments that name nothing there is (an unknown clip or bone, a malformed `--track`).
    #[error("{0}")]
    Invalid(String),
    /// Some of the files given could not be opened; the others were used. Each failure was reported on its own.
    #[error("{0} file(s) could not be opened (see above); the output is of the others")]
    SomeFilesFailed(usize),
    /// The viewer window could not be opened or run.
    #[error("{0}")]
    Window(String),
}

impl AppError {
    /// A write to `path` that failed with `source`.
    pub fn write(path: impl Into<PathBuf>, source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Self::Write { path: path.into(), source: source.into() }
    }
}
