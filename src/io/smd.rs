//! Valve SMD (StudioMDL Data: Half-Life 1 and Source flavours, reference and animation files) and VTA (vertex
//! animation) into the scene model. Owns the SMD/VTA grammar, welding and the VTA matching rule; knows nothing
//! of rendering, and leaves the shared scene types and tokenizer as they are.
//!
//! - **Reference SMD** (`nodes`, `skeleton` with `time 0`, `triangles`): a skeleton whose bind pose is the first
//!   skeleton frame, and one mesh. Triangle corners are in model space at that pose, so inverse bind matrices
//!   are the inverse bind to-root matrices. Each vertex line is `bone x y z nx ny nz u v`, plus in the Source
//!   flavour `links (bone weight)*links`; links replace the parent bone, weights short of 1 leave the rest to the
//!   parent, and the four largest are kept and renormalised (`scene::reduce_influences`).
//! - **Animation SMD** (`skeleton` with one `time` block per frame, no triangles): a clip named
//!   [`DEFAULT_CLIP_NAME`] (renamed after the file's stem by [`crate::io::load_path`]) at
//!   `LoadOptions::default_fps`. It binds to a reference by bone name (`Asset::bind_animations`). A bone a frame
//!   does not list holds its previous value.
//! - **VTA** (`vertexanimation`): morph targets; see [`attach_vta`] and the `vta` submodule for the matching
//!   rule, and `vta_alone` for what a VTA opened on its own shows.
//!
//! Rotations are Euler radians applied X, then Y, then Z (`Rx·Ry·Rz·T` with row vectors, glam's
//! `T·Rz·Ry·Rx`). The file is right-handed Z up; the asset declares `AxisConversion::z_up_right_handed()` and
//! the data stays in the file's frame. UVs are stored with a top-left origin (`v' = 1 − v`), as wgpu samples.
//! Materials are de-duplicated by name (one subset per material, in first-use order) and textures resolved
//! next to the file. Corners weld into one vertex only when position, normal, UV and influences are
//! bit-identical; the mesh keeps the corner → vertex map (`Mesh::corner_vertices`), so
//! `corner_vertices.len()` is the number of corners, `vertex_count()` the welded vertices.

mod build;
mod lex;
mod parse;
mod vta;
mod vta_alone;
mod weld;

use std::path::Path;

use super::{LoadError, LoadErrorKind, LoadOptions};
use crate::scene::{Asset, AxisConversion, Format, Material, Position, Warning};

pub use build::MISSING_TEXTURES;
pub use vta::VtaBinding;

/// The name the loader gives an animation SMD's clip (the file has no name for it).
pub const DEFAULT_CLIP_NAME: &str = "anim";

/// Frames per second used when the options give an unusable rate.
const STUDIOMDL_FPS: f32 = 30.0;

fn fps(opts: &LoadOptions) -> f32 {
    if opts.default_fps.is_finite() && opts.default_fps > 0.0 { opts.default_fps } else { STUDIOMDL_FPS }
}

/// Loads an SMD: reference (skeleton + mesh), animation (skeleton + clip), or both. A `vertexanimation` block in
/// the same file becomes morph targets of its mesh.
pub fn load(bytes: &[u8], opts: &LoadOptions) -> Result<Asset, LoadError> {
    let text = super::text::decode_text(bytes);
    let mut p = parse::parse(&text)?;
    let mut asset = Asset::new(Format::Smd);
    asset.axes = AxisConversion::z_up_right_handed();
    let mut warnings = std::mem::take(&mut p.warnings);
    asset.skeleton = build::skeleton(&p, &mut warnings);
    let has_triangles = p.mesh.as_ref().is_some_and(|m| m.triangle_count() > 0);
    if p.mesh.is_some() && !has_triangles {
        warnings.push(Warning::new(Position::File, "the `triangles` block is empty"));
    }
    if !has_triangles || p.skeleton_frames.len() > 1 {
        asset.clips.extend(build::clip(&p, DEFAULT_CLIP_NAME, fps(opts), &mut warnings));
    }
    if let Some(builder) = p.mesh.take().filter(|m| m.triangle_count() > 0) {
        let (mut mesh, mut materials) = builder.finish(DEFAULT_MESH_NAME);
        build::fix_normals(&mut mesh, &mut warnings);
        build::resolve_textures(&mut materials, opts, &mut warnings);
        influence_warnings(&p, &mut warnings);
        mesh.influence_report = p.influences;
        asset.meshes.push(mesh);
        asset.materials = materials;
    }
    if let Some(anim) = vta::vertex_animation(&p, fps(opts), &mut warnings) {
        if asset.meshes.is_empty() {
            warnings.push(Warning::new(
                Position::File,
                "a `vertexanimation` block without triangles: open the file as a VTA",
            ));
        } else if !anim.morphs.is_empty() {
            asset.warnings = std::mem::take(&mut warnings);
            vta::attach(&mut asset, &anim)?;
            warnings = std::mem::take(&mut asset.warnings);
        }
    }
    if asset.skeleton.is_empty() && asset.meshes.is_empty() {
        return Err(LoadError::at_line(p.last_line.max(1), "the file declares no bones and no triangles"));
    }
    asset.warnings = warnings;
    Ok(asset)
}

fn influence_warnings(p: &parse::Parsed, warnings: &mut Vec<Warning>) {
    let r = &p.influences;
    if r.trimmed > 0 {
        warnings.push(Warning::new(
            Position::File,
            format!(
                "{} triangle corner(s) have more than four bone links (up to {}); the four largest were kept",
                r.trimmed, r.max_influences
            ),
        ));
    }
    if r.renormalized > r.trimmed {
        warnings.push(Warning::new(
            Position::File,
            format!(
                "{} triangle corner(s) have link weights summing to more than 1; renormalised",
                r.renormalized - r.trimmed
            ),
        ));
    }
}

/// Loads a VTA: the skeleton (if any), a mesh of the base frame that carries one morph target per later frame,
/// over VTA vertex indices, and the frames as a flex clip. The mesh's faces are rebuilt from the corner order
/// when the file follows it, else it is a point mesh (see the `vta_alone` module). Use [`attach_vta`] to give
/// the morphs (and the clip) to the reference mesh.
pub fn load_vta(bytes: &[u8], opts: &LoadOptions) -> Result<Asset, LoadError> {
    let text = super::text::decode_text(bytes);
    let mut p = parse::parse(&text)?;
    let mut asset = Asset::new(Format::Vta);
    asset.axes = AxisConversion::z_up_right_handed();
    let mut warnings = std::mem::take(&mut p.warnings);
    asset.skeleton = build::skeleton(&p, &mut Vec::new());
    let Some(anim) = vta::vertex_animation(&p, fps(opts), &mut warnings) else {
        return Err(LoadError::at_line(
            p.last_line.max(1),
            "no `vertexanimation` block: this is not a VTA file (open it as an SMD)",
        )
        .with_kind(LoadErrorKind::NotThisFormat));
    };
    if p.mesh.is_some() {
        warnings.push(Warning::new(Position::File, "the VTA's `triangles` block was ignored"));
    }
    let (mesh, flex_clip) = vta_alone::vta_mesh(anim, &mut asset.readings, &mut warnings);
    if mesh.triangle_count() > 0 {
        asset.materials.push(Material::named("vta"));
    }
    asset.meshes.push(mesh);
    asset.clips.push(flex_clip);
    asset.warnings = warnings;
    Ok(asset)
}

/// Gives the morph targets of a loaded VTA to the reference it was made for (the mesh that matches most of its
/// vertices). VTA vertex `i` is the reference's triangle corner `i` (through `Mesh::corner_vertices`) when that
/// corner sits at the VTA's base position; otherwise it is matched by position (and normal). Vertices that match
/// nothing are reported in the returned counts and as a warning on `reference`.
pub fn attach_vta(reference: &mut Asset, vta: &Asset) -> Result<VtaBinding, LoadError> {
    let anim = vta::from_vta_asset(vta)
        .ok_or_else(|| LoadError::whole_file("the VTA has no vertex animation frames after its base frame"))?;
    vta::attach(reference, &anim)
}

/// The mesh's name before the file's is known (an SMD names none).
const DEFAULT_MESH_NAME: &str = "smd";

/// Names what the loader could not name after the file: clips called [`DEFAULT_CLIP_NAME`] after its stem
/// (`walk.smd` → `walk`, so several animation SMDs bound to one mesh stay apart), and the mesh after its name
/// (`scientist_ref.smd`, so the meshes of a model script's bodies, and the findings about them, say which file).
pub fn name_after_file(asset: &mut Asset, path: &Path) {
    let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else { return };
    for clip in &mut asset.clips {
        if clip.name == DEFAULT_CLIP_NAME {
            clip.name = stem.to_owned();
        }
    }
    let file = path.file_name().map_or_else(|| stem.to_owned(), |n| n.to_string_lossy().into_owned());
    for mesh in &mut asset.meshes {
        if mesh.name == DEFAULT_MESH_NAME {
            mesh.name.clone_from(&file);
        }
    }
}
