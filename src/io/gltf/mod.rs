//! Export to binary glTF 2.0 (`.glb`): skinned meshes (four joints and weights), the skin with its inverse
//! bind matrices, the bone hierarchy as nodes, every clip as an animation, materials with their base-colour
//! textures embedded, morph targets, and MRTK recordings.
//!
//! glTF is right-handed, Y up, with the front toward +Z, so the asset's axis conversion into the viewer frame,
//! turned so the character's front is +Z ([`export_frame`]), is baked in once as `C`, in `builder`: positions
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
    /// Which way the exported character faces.
    pub facing: Facing,
}

/// Which way an exported character faces. glTF's convention is the front toward +Z, the left at +X; characters
/// are written facing +Z of the viewer frame by some tools and +X (UE1 games) or −X by others.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Facing {
    /// Turned about the up axis, a quarter turn at a time, so that the front the bones' side names give
    /// ([`crate::anim::facing`]) is +Z; as the viewer frame has it when they say nothing.
    #[default]
    Detected,
    /// As the viewer frame has it, never turned.
    AsIs,
    /// The front at this yaw about +Y in the viewer frame (radians; 0 is +Z), as a user set it.
    Yaw(f32),
}

/// The conversion from the asset's file frame to the exported glTF's: the axis conversion into the viewer
/// frame, then the quarter turns about +Y that `facing` asks for. Quarter turns keep the conversion a signed
/// permutation of the axes (exact numbers, positive scales).
pub fn export_frame(asset: &Asset, facing: Facing) -> glam::Mat4 {
    let yaw = match facing {
        Facing::Detected => crate::anim::facing::front_direction(asset).map(crate::anim::facing::yaw_facing),
        Facing::AsIs => None,
        Facing::Yaw(yaw) => Some(yaw),
    };
    let quarter_turns = yaw.filter(|y| y.is_finite()).map_or(0, |y| (y / std::f32::consts::FRAC_PI_2).round() as i32);
    glam::Mat4::from_mat3(turn_front_to_plus_z(quarter_turns)) * asset.axes.to_viewer
}

/// The rotation about +Y that brings a front `quarter_turns` quarter turns from +Z (towards +X) back to +Z,
/// written with exact zeros and ones.
fn turn_front_to_plus_z(quarter_turns: i32) -> glam::Mat3 {
    use glam::{Mat3, Vec3};
    match quarter_turns.rem_euclid(4) {
        // Front +X: x → z, z → −x.
        1 => Mat3::from_cols(Vec3::Z, Vec3::Y, -Vec3::X),
        // Front −Z: half a turn.
        2 => Mat3::from_cols(-Vec3::X, Vec3::Y, -Vec3::Z),
        // Front −X: x → −z, z → x.
        3 => Mat3::from_cols(-Vec3::Z, Vec3::Y, Vec3::X),
        _ => Mat3::IDENTITY,
    }
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
    let mut builder = Builder::new(export_frame(asset, options.facing));
    let bone_nodes = builder.skeleton_nodes(&asset.skeleton);
    let skin =
        (!asset.skeleton.is_empty() && !asset.meshes.is_empty()).then(|| builder.skin(&asset.skeleton, &bone_nodes));
    let materials: Vec<_> = asset.materials.iter().map(|m| builder.material(m)).collect();
    // Skin families as material variants (`KHR_materials_variants`), named `skin N`.
    let families = asset.model_script.as_deref().map_or(&[][..], |s| s.skin_families.as_slice());
    if families.len() > 1 {
        builder.skin_remaps = families.iter().map(|f| f.remap.clone()).collect();
        let variants = (0..families.len())
            .map(|i| json::extensions::scene::khr_materials_variants::Variant { name: format!("skin {i}") })
            .collect();
        let extensions = builder.root.extensions.get_or_insert_with(Default::default);
        extensions.khr_materials_variants = Some(json::extensions::root::KhrMaterialsVariants { variants });
        builder.root.extensions_used.push("KHR_materials_variants".to_owned());
    }
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
    // glTF has no blend sequences: each further animation of one is an animation of its own, named after it.
    let blends: Vec<&crate::scene::Clip> = (asset.clips.iter())
        .filter_map(|c| c.script.as_ref()?.blend.as_ref())
        .flat_map(|b| b.animations.iter())
        .collect();
    for clip in &blends {
        builder.animation(clip, &asset.skeleton, &bone_nodes, &layout, &mesh_nodes);
    }
    if !blends.is_empty() {
        builder.report.warnings.push(format!(
            "{} animation(s) of blend sequences exported as animations of their own (glTF cannot mix them by a \
             parameter)",
            blends.len()
        ));
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
