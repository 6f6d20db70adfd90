//! bonescope: read skinned, animated characters (Unreal ActorX PSK/PSA, Valve SMD/VTA, 3ds Max ASE) and MRTK
//! input recordings into one neutral scene model, evaluate their animation, and check their rigs.
//!
//! # Layers
//! Each module depends only on the ones above it in this list:
//! - [`files`]: where files are read from (the disk, or files held in memory by the web page and tests),
//!   behind one small interface that the loaders and the renderer's texture decoding read through.
//! - [`scene`]: plain data (skeleton, meshes, materials, clips, recordings, [`scene::Bounds`], load warnings)
//!   and the built-in [`scene::samples`] (the demo character and recording, made by code).
//! - [`anim`]: pure computation over `scene` data: curves, pose maths, skinning, posed bounds, the controller,
//!   diagnostics.
//! - [`io`]: file formats in (and glTF out), producing `scene` data. It uses `anim`'s curve maths where a format
//!   needs it — ASE's TCB keys (`anim::tcb`, `anim::curve`), glTF export baking clips and recordings
//!   (`anim::curve`, `anim::recording`) — and `anim` never uses `io`, so the arrow only points one way.
//! - [`source`]: what the program opens: a file (through `io`) or a built-in sample.
//! - `render` (wgpu; the orbit camera, the renderer, headless rendering), reading `scene` and `anim`, never
//!   `io`; and `ui` (egui), which uses everything above. Both need the default `gui` feature.
//! - [`AppError`]: the error of the program's edges (the viewer and the command line); the layers below keep
//!   their own ([`io::LoadError`], [`io::gltf::ExportError`], `render::RenderError`).
//!
//! The command line itself (`src/main.rs`, `src/cli/`: `info`, `pose`, `export`, `render`) is the binary's,
//! built with the `cli` feature. `cargo build --no-default-features --lib` gives the format + animation library
//! alone, without GPU, GUI or argument-parsing crates.
//!
//! Where this differs from the project's first architecture notes: `io` may use `anim`'s curve maths (above);
//! sample scenes are `scene::samples` rather than assets on disk; the camera lives in `render::camera`; glTF
//! export is `io::gltf`; and `source` sits between `io` and the program.

#![forbid(unsafe_code)]

pub mod anim;
pub mod args;
mod error;
pub mod files;
pub mod io;
#[cfg(feature = "gui")]
pub mod render;
pub mod scene;
pub mod source;
#[cfg(feature = "gui")]
pub mod ui;

pub use error::AppError;

// Short paths to the sample scenes, for code written before they moved under `scene::samples`.
#[doc(hidden)]
pub use scene::samples::{demo, demo_recording};
