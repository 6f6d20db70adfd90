//! 3ds Max ASCII Scene Export (ASE) loader: `load(bytes, opts)` → [`Asset`].
//!
//! What it reads: `*SCENE` timing (ticks → seconds), `*MATERIAL_LIST` (sub-materials flattened, diffuse bitmaps
//! resolved next to the file, UV offset/tiling kept on the material), every object (`*GEOMOBJECT`,
//! `*HELPEROBJECT`, cameras, lights and their `.Target`s, shapes; `*GROUP`s are opened) as a bone of one skeleton
//! whose hierarchy comes from `*NODE_PARENT` names (parents may come later in the file), bind pose from the world
//! `*NODE_TM`s, meshes split into render vertices (position, texture vertex, colour vertex, normal, extra map
//! channels) with one subset per material, skin weights (`*MESH_WEIGHTS`, `*MESH_SOFTSKIN`,
//! `*MESH_SOFTSKINVERTS`), `*TM_ANIMATION` as one clip in seconds, and `*MESH_ANIMATION` as vertex frames.
//! Anything else is skipped by balanced braces and listed in one warning.
//!
//! Rigid meshes (the common case: each mesh belongs to one node, as in motion-capture rigs) become one-bone
//! skinned meshes: every vertex has weight 1 on its node's bone. ASE vertices are in world space at the bind
//! frame and `inverse_bind` is the inverse of each bone's bind to-root matrix, so the same skinning path draws
//! rigid and skinned meshes.
//!
//! Coordinates: data stays in 3ds Max's frame (right-handed, Z up, the file's units); the asset declares the one
//! conversion to the viewer, [`AxisConversion::z_up_right_handed`] (`(x, y, z) → (x, z, −y)`, a rotation, so the
//! counter-clockwise winding is kept). Texture v is flipped (`v' = 1 − v`). UTF-16 files with a byte-order mark
//! load like UTF-8 ones.
//!
//! Dialects: real exporters write the animation samples differently — 3ds Max's own exporter parent-relative
//! with rotations relative to the previous sample, GothicSourcer and Kerrax (the Gothic mod kit's `.ASC` files)
//! as world transforms, with the first sample at another tick. `dialect` tells them apart (header, else the data)
//! and records the reading used in `Asset::readings`; a guess gets a warning. A file of `*MESH_ANIMATION` frames
//! only (a Gothic morph-mesh animation) is a mesh with vertex frames, and [`bind_vertex_animation`] puts such
//! frames on the mesh of the model they animate. Vertex frames are played as morph targets: one target per frame
//! and tweening weight tracks in the file's clip (`scene::vertex_animation`), made when the file is loaded and
//! again for the model's mesh when the frames are bound to it.
//!
//! Conventions checked against real data and the 3ds Max exporter rather than taken on trust (details in
//! `tracks`): 3ds Max axis-angles turn left-handed (`from_axis_angle(axis, −angle)`); relative rotation samples
//! compose as `q · previous` in glam order (the other order sends the MotionCaptureROM feet above the pelvis);
//! the first rotation sample equals the `*NODE_TM` bind rotation; Bezier tangents are per tick with the in
//! tangent pointing backwards. Not modelled: TCB ease in/out, the texture's UVW angle, and a scale axis that
//! tilts a non-uniform scale (each reported as a warning where it matters).
//!
//! Layout: `lexer` (cursor with line numbers), `parse` (text → `records`, one module per kind of block, counts
//! checked against the bytes left), `dialect` (which exporter, what samples mean), `timing` (ticks → seconds,
//! checks against `*SCENE`), `tracks` (controllers → curves), `world_samples` (world samples → parent-relative
//! keys), `materials`, `skinning` (weights → influences), `mesh` (render vertices), `vertex_frames`, `morph`
//! (vertex animation bound to another file's mesh), `build` (records → scene). Smoothing-group normals come from
//! `io::smoothing`, shared with the PSK loader. It must not touch anything outside `io` and `scene`/`anim` types.

mod build;
mod dialect;
mod lexer;
mod materials;
mod mesh;
mod morph;
mod parse;
mod records;
mod skinning;
mod timing;
mod tracks;
mod vertex_frames;
mod world_samples;

pub use morph::{bind_vertex_animation, is_vertex_animation};
pub(crate) use morph::{corner_map, remap_frame};

use super::{LoadError, LoadOptions};
use crate::scene::Asset;
#[cfg(doc)]
use crate::scene::AxisConversion;

/// Loads an ASE file from memory. Errors carry the line they were found on; non-fatal problems are in
/// `asset.warnings`.
pub fn load(bytes: &[u8], opts: &LoadOptions) -> Result<Asset, LoadError> {
    let text = super::text::decode_text(bytes);
    let raw = parse::parse(&text)?;
    let mut asset = build::build(raw, opts)?;
    // `*MESH_ANIMATION` frames play as morph targets tweened by weight tracks in the file's clip, the one morph
    // path every format shares (the frames stay on the mesh as the source).
    crate::scene::convert_vertex_animation(&mut asset);
    Ok(asset)
}
