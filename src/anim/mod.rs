//! Pure computation over `scene` data: pose maths (local → to-root → skinning palette), morph-target weights,
//! CPU reference skinning (morphs first), curves, clip sampling, blending and the animation controller. No GPU, no UI, no I/O; per-frame jobs write
//! into buffers the caller owns.
//!
//! Matrix convention: glam column vectors. The D3DX literature's row-vector products reverse: its
//! `to_root = local * parent_to_root` is `parent_to_root * local` here, and its skinning matrix
//! `offset * to_root` is `to_root * offset`.

pub mod blend;
pub mod controller;
pub mod curve;
pub mod diagnostics;
pub mod morph;
pub mod pose;
pub mod recording;
pub mod sample;
pub mod skin;
pub mod tcb;
pub mod tween;
pub mod unity_curve;

pub use blend::{Blender, BoneMask, apply_additive};
pub use controller::{Controller, PlaybackType};
pub use diagnostics::{DiagnoseOptions, Finding, FindingKind, Severity, Subject, diagnose};
pub use morph::{MorphBinding, MorphLayout, apply_morphs};
pub use pose::{Pose, PoseError, bind_pose_error, local_to_model, skinning_palette};
pub use sample::ClipBinding;
pub use skin::{skin_mesh, skin_mesh_morphed, skin_vertex};
