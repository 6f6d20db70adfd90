//! The neutral scene model: plain data that every loader produces and everything downstream reads.
//!
//! Nothing here knows a file format, a GPU or a window. Data is stored in the **file's own coordinate frame and
//! units**; [`AxisConversion`] on the [`Asset`] says how to get to the viewer's canonical frame (right-handed,
//! Y up), so the conversion happens in exactly one place per format (the loader declares it) and is applied once
//! (as the model matrix when drawing, or on request in the CLI).
//!
//! Also here: [`Bounds`] (the one box type), [`Position`] (where in a file, for warnings and load errors), the
//! influence reducer every loader shares, and [`samples`], the scenes made by code.

// File input must never panic this layer: errors are returned instead (tests may unwrap, see clippy.toml).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod asset;
pub(crate) mod bone_match;
mod bounds;
mod clip;
mod influences;
mod material;
mod mesh;
pub mod parts;
pub mod placeholder;
mod reading;
mod recording;
pub(crate) mod retarget;
pub mod samples;
mod script;
mod skeleton;
pub(crate) mod vertex_animation;

pub use asset::{
    Asset, AxisConversion, BindReport, Format, Position, SKELETON_DIFFERENCE, SkeletonDifference, TrackMatch, UpAxis,
    Warning, WarningLevel,
};
pub use bone_match::{NameRule, ambiguous_names, match_tracks};
pub use bounds::Bounds;
pub use clip::{BoneTrack, CallbackKey, Clip, Curve, Interpolation, KeyTimes, MorphTrack, SharedTimes};
pub use influences::{InfluenceReport, Influences, reduce_influences};
pub use material::{AlphaMode, Material, TextureFolder, TexturePixels, TextureRef};
pub use mesh::{Mesh, MeshError, MorphTarget, Subset, VertexFrame};
pub use parts::{BindDifference, Part, PartReport};
pub use reading::Reading;
pub use recording::*;
pub use retarget::{Retarget, RootMotion, TranslationMode};
pub use script::{
    Activity, AniBlend, AniComb, Attachment, BlendRange, BodyChoice, BodyGroup, BoneController, ClipBlend, ClipScript,
    ClipVertexFrames, ControllerChannel, Hitbox, IgnoredCommand, ModelScript, ModelTag, Placement, ScriptEvent,
    ScriptLanguage, ScriptSequence, SequenceKind, SkinFamily,
};
pub use skeleton::{Skeleton, SkeletonError, Transform, normalize_bone_name, parent_first_order};
pub use vertex_animation::{VERTEX_ANIMATION_CLIP, convert_vertex_animation};
