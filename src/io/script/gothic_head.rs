//! A Gothic morph-mesh head (an MMS with its `morphRef` ASC, or that ASC alone) given after a body: attached as
//! the engine attaches a head. The game's scripts give an NPC its body and head together
//! (`Mdl_SetVisualBody (self, "hum_body_Naked0", …, "Hum_Head_FatBald", …)`), and the engine hangs the head's
//! morph mesh on the model's head node: OpenGothic's `MdlVisual::setVisualBody` (`game/graphics/mdlvisual.cpp`,
//! the reimplementation of `Mdl_SetVisualBody`) binds the head mesh to the node `"BIP01 HEAD"` and moves it
//! with that node's transform. The head ASC is modelled in that node's frame (its vertices are the head bone's
//! local coordinates: `io::ase` reads a head alone that way too), so attaching it is carrying every vertex,
//! normal and morph delta through the head bone's bind transform and weighting it wholly to that bone. Its
//! morph targets and `morphAni` clips come along (the clips drive the targets of the head mesh by its name), so
//! the faces play on the body; its sequences join the body's model script.
//!
//! Data manipulation over [`Asset`]s; reads no files.

use glam::{Mat3, Mat4};

use crate::scene::parts::add_materials;
use crate::scene::{Asset, AxisConversion, Format, Part, PartReport, Reading};

/// The node the engine hangs a head on (matched as bone names are: any case, any separator).
pub const HEAD_BONE: &str = "BIP01 HEAD";

/// Whether `asset` is a Gothic morph-mesh head: meshes read in the head bone's frame (an MMS, or its base ASC
/// alone).
pub fn is_head(asset: &Asset) -> bool {
    !asset.meshes.is_empty()
        && (asset.format == Some(Format::Mms) || asset.format == Some(Format::Ase))
        && asset.axes.to_viewer == AxisConversion::gothic_morph_head().to_viewer
}

/// The model's head bone, when it has one.
pub fn head_bone(model: &Asset) -> Option<usize> {
    model.skeleton.find(HEAD_BONE)
}

/// Attaches the head's meshes to `model`'s head bone (see the module notes), leaving `head`'s clips,
/// warnings and readings for the caller to bind. `None` when the model has no head bone.
pub fn attach_head(model: &mut Asset, head: &mut Asset) -> Option<PartReport> {
    let bone = head_bone(model)?;
    let bone_name = model.skeleton.names.get(bone).cloned().unwrap_or_default();
    let bind = model.skeleton.inverse_bind.get(bone).map_or(Mat4::IDENTITY, |m| m.inverse());
    let linear = Mat3::from_mat4(bind);
    // Normals follow the inverse transpose (the same as the rotation for the rigid transforms of a rig).
    let normal_matrix = linear.inverse().transpose();
    if model.parts.is_empty() && !model.meshes.is_empty() {
        model.parts.push(Part {
            name: file_name(model.path.as_deref()),
            source: model.path.clone(),
            meshes: (0..model.meshes.len()).collect(),
        });
    }
    let material_map = add_materials(&mut model.materials, std::mem::take(&mut head.materials));
    let first_mesh = model.meshes.len();
    let mut renamed: Vec<(String, String)> = Vec::new();
    for (i, mut mesh) in std::mem::take(&mut head.meshes).into_iter().enumerate() {
        for p in &mut mesh.positions {
            *p = bind.transform_point3(*p);
        }
        for n in &mut mesh.normals {
            *n = (normal_matrix * *n).normalize_or(*n);
        }
        for target in &mut mesh.morph_targets {
            for d in &mut target.position_deltas {
                *d = linear * *d;
            }
            for d in &mut target.normal_deltas {
                *d = normal_matrix * *d;
            }
        }
        for frame in &mut mesh.vertex_frames {
            for p in &mut frame.positions {
                *p = bind.transform_point3(*p);
            }
            for n in &mut frame.normals {
                *n = (normal_matrix * *n).normalize_or(*n);
            }
        }
        let index = u16::try_from(bone).unwrap_or(0);
        for (joints, weights) in mesh.joints.iter_mut().zip(&mut mesh.weights) {
            *joints = [index, 0, 0, 0];
            *weights = [1.0, 0.0, 0.0, 0.0];
        }
        for subset in &mut mesh.subsets {
            subset.material = material_map.get(subset.material).copied().unwrap_or(subset.material);
        }
        // The head's clips drive its targets by the mesh's name, which must not be a body mesh's too.
        if model.meshes.iter().any(|m| m.name == mesh.name) {
            let unique = format!("{} (head {i})", mesh.name);
            renamed.push((std::mem::replace(&mut mesh.name, unique.clone()), unique));
        }
        model.meshes.push(mesh);
    }
    let meshes = model.meshes.len() - first_mesh;
    for clip in &mut head.clips {
        for track in &mut clip.morph_tracks {
            if let Some((_, new)) = renamed.iter().find(|(old, _)| track.mesh.as_deref() == Some(old.as_str())) {
                track.mesh = Some(new.clone());
            }
        }
        if let Some(frames) = clip.script.as_mut().and_then(|s| s.vertex_frames.as_mut()) {
            frames.mesh += first_mesh;
            for frame in &mut frames.frames {
                for p in &mut frame.positions {
                    *p = bind.transform_point3(*p);
                }
                for n in &mut frame.normals {
                    *n = (normal_matrix * *n).normalize_or(*n);
                }
            }
        }
    }
    join_scripts(model, head);
    model.parts.push(Part {
        name: file_name(head.path.as_deref()),
        source: head.path.clone(),
        meshes: (first_mesh..model.meshes.len()).collect(),
    });
    // The head's own reading (turned upright alone) no longer holds: it hangs on the bone.
    head.readings.retain(|r| !r.topic.contains("axes"));
    model.take_readings_of(
        head.path.as_deref(),
        vec![Reading::new(
            "head",
            format!("attached to the body's head bone '{bone_name}'"),
            "a Gothic morph-mesh head is modelled in the head bone's frame, and the engine hangs it on the node \
             BIP01 HEAD (Mdl_SetVisualBody; OpenGothic MdlVisual::setVisualBody)",
        )],
    );
    Some(PartReport { meshes, attached_to: Some(bone_name), ..PartReport::default() })
}

/// The head's `morphAni` sequences join the body's model script (their clips point at them by index).
fn join_scripts(model: &mut Asset, head: &mut Asset) {
    let (Some(script), Some(head_script)) = (model.model_script.as_deref_mut(), head.model_script.take()) else {
        return;
    };
    let (first_sequence, first_file) = (script.sequences.len(), script.files.len());
    script.files.extend(head_script.files);
    script.sequences.extend(head_script.sequences.into_iter().map(|mut s| {
        s.file += first_file;
        s
    }));
    for clip in &mut head.clips {
        if let Some(info) = clip.script.as_mut() {
            info.sequence += first_sequence;
        }
    }
}

fn file_name(path: Option<&std::path::Path>) -> String {
    path.and_then(|p| p.file_name()).map_or_else(|| "model".to_owned(), |n| n.to_string_lossy().into_owned())
}
