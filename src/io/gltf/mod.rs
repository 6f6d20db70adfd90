//! Export to binary glTF 2.0 (`.glb`): skinned meshes (four joints and weights), the skin with its inverse
//! bind matrices, the bone hierarchy as nodes, every clip as an animation, materials with their base-colour
//! textures embedded, morph targets, and MRTK recordings.
//!
//! glTF is right-handed, Y up, so the asset's axis conversion `C` is baked in once, in `builder`: positions
//! and normals become `C·v`, every bone matrix `C·M·C⁻¹` (which keeps local transforms proper rotations even
//! when `C` mirrors), and triangle winding is reversed where it is clockwise in the viewer frame (a clockwise file
//! such as a PSK, or a mirroring `C`). The JSON is built with `gltf-json`, the
//! GLB container with `gltf::binary`.
//!
//! Layout: `builder` holds the document being written (buffer, accessors, the axis conversion); `mesh`
//! writes the skeleton, skin, materials and meshes (with their default morph weights, [`ExportOptions`]);
//! `animation` the clips, and `morph_weights` their morph weight tracks as `weights` channels; `recording` the
//! recordings. Each
//! adds to the builder and none calls another, except that clips and recordings share the channel function of
//! `animation`. Sampling curves uses `anim`'s curve maths (see the layer note in `lib.rs`).

mod animation;
mod builder;
mod mesh;
mod morph_weights;
mod recording;

use gltf::json;

use crate::anim::MorphLayout;
use crate::scene::Asset;
use builder::Builder;

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("nothing to export: the file has no mesh, no skeleton and no recording")]
    Empty,
    #[error("the export is larger than the 4 GiB a .glb can hold")]
    TooLarge,
    #[error("glTF serialisation failed: {0}")]
    Serialize(String),
}

/// What an export wrote, and what it had to leave out or change.
#[derive(Clone, Debug, Default)]
pub struct ExportReport {
    pub nodes: usize,
    pub meshes: usize,
    pub animations: usize,
    pub images: usize,
    pub warnings: Vec<String>,
}

/// Choices an export takes beyond the asset itself.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExportOptions {
    /// Default morph weights, one per slot of `MorphLayout::of_meshes(&asset.meshes)` (the weights a glTF viewer
    /// shows when no animation plays, e.g. set with `export --morph NAME=WEIGHT`); missing ones are 0.
    pub morph_weights: Vec<f32>,
}

/// Exports the asset (with the clips bound to it) as a `.glb` byte buffer, every morph weight at 0 by default.
pub fn export_glb(asset: &Asset) -> Result<(Vec<u8>, ExportReport), ExportError> {
    export_glb_with(asset, &ExportOptions::default())
}

/// [`export_glb`] with options.
pub fn export_glb_with(asset: &Asset, options: &ExportOptions) -> Result<(Vec<u8>, ExportReport), ExportError> {
    if asset.meshes.is_empty() && asset.skeleton.is_empty() && asset.recordings.is_empty() {
        return Err(ExportError::Empty);
    }
    let mut builder = Builder::new(asset.axes.to_viewer);
    let bone_nodes = builder.skeleton_nodes(&asset.skeleton);
    let skin =
        (!asset.skeleton.is_empty() && !asset.meshes.is_empty()).then(|| builder.skin(&asset.skeleton, &bone_nodes));
    let materials: Vec<_> = asset.materials.iter().map(|m| builder.material(m)).collect();
    let mut scene_nodes: Vec<json::Index<json::Node>> =
        asset.skeleton.parents.iter().zip(&bone_nodes).filter(|(p, _)| p.is_none()).map(|(_, n)| *n).collect();
    let layout = MorphLayout::of_meshes(&asset.meshes);
    let mut mesh_nodes = Vec::new();
    for (m, mesh) in asset.meshes.iter().enumerate() {
        if mesh.indices.is_empty() {
            builder.report.warnings.push(format!("mesh '{}' has no triangles: not exported", mesh.name));
            continue;
        }
        let defaults = options.morph_weights.get(layout.mesh_range(m)).unwrap_or_default();
        let gltf_mesh = builder.mesh(mesh, &materials, skin.is_some(), defaults);
        let node = builder.root.push(json::Node {
            mesh: Some(gltf_mesh),
            skin,
            name: Some(mesh.name.clone()),
            ..Default::default()
        });
        scene_nodes.push(node);
        mesh_nodes.push((m, node));
    }
    for clip in &asset.clips {
        builder.animation(clip, &asset.skeleton, &bone_nodes, &layout, &mesh_nodes);
    }
    recording::export_recordings(&mut builder, &asset.recordings, &mut scene_nodes);
    let scene = builder.root.push(json::Scene {
        extensions: None,
        extras: Default::default(),
        name: asset.path.as_ref().and_then(|p| p.file_stem()).map(|s| s.to_string_lossy().into_owned()),
        nodes: scene_nodes,
    });
    builder.root.scene = Some(scene);
    builder.finish()
}
