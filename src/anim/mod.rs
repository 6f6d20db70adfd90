//! Pure computation over `scene` data: pose maths (local → to-root → skinning palette), morph-target weights,
//! CPU reference skinning (morphs first) and the bounds of a posed asset, curves, clip sampling, blending, the
//! animation controller and the rig diagnostics. No GPU, no UI, no I/O; per-frame jobs write
//! into buffers the caller owns.
//!
//! Matrix convention: glam column vectors. The D3DX literature's row-vector products reverse: its
//! `to_root = local * parent_to_root` is `parent_to_root * local` here, and its skinning matrix
//! `offset * to_root` is `to_root * offset`.

// File input must never panic this layer: errors are returned instead (tests may unwrap, see clippy.toml).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod blend;
pub(crate) mod bounds;
pub mod controller;
pub mod curve;
pub mod diagnostics;
pub mod edges;
pub mod facing;
pub mod morph;
pub(crate) mod pose;
pub mod recording;
pub(crate) mod sample;
pub(crate) mod skin;
pub mod studio;
pub(crate) mod tcb;
pub mod tween;
pub mod unity_curve;

pub use blend::{Blender, BoneMask, apply_additive};
pub use bounds::{bounds_of_placed, posed_bounds};
pub use controller::{Controller, PlaybackType};
pub use diagnostics::{DiagnoseOptions, Finding, FindingKind, Severity, Subject, diagnose};
pub use morph::{MorphBinding, MorphLayout, apply_morphs};
pub use pose::{Pose, PoseError, bind_pose_error, local_to_model, skinning_palette};
pub use sample::ClipBinding;
pub use skin::{skin_mesh, skin_mesh_morphed, skin_vertex};
