//! bonescope: read skinned, animated characters (Unreal ActorX PSK/PSA, Valve SMD/VTA, 3ds Max ASE) and MRTK
//! input recordings into one neutral scene model, evaluate their animation, and check their rigs.
//!
//! Layers, each depending only on the ones before it: [`scene`] (plain data) ← [`io`] (file formats) and
//! [`anim`] (pose maths, skinning, the controller) ← `render` (wgpu) and `ui` (egui), which need the default
//! `gui` feature.

#![forbid(unsafe_code)]

pub mod anim;
mod error;
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
