//! QC `$origin`, `$scale` and `rotate` applied to the loaded SMD data, so a character opened from its QC stands
//! where, and at the size, the compiled model does.
//!
//! studiomdl changes the data as it grabs each file: a reference mesh's skeleton and vertices are scaled (its
//! `scale_vertex`), and an animation's root bones are moved by −origin, turned about Z and scaled, its other bones'
//! translations scaled (`grab_option_animation`). Since vertices ride on the skeleton, placing the root bones
//! moves the whole model by the same map `p ↦ scale · Rz · (p − origin)`; this module applies that map to a
//! mesh file (skeleton, vertices, morphs and vertex frames, then the bone offset matrices from the new bind pose,
//! so the bind pose still reproduces the vertices) and to an animation clip (keys and tangents). The reference
//! mesh gets the origin and angle too, so that the bind pose and the sequences agree: studiomdl's reference pose
//! is never shown in the game, but a viewer shows it, and a model that jumped between the two would look broken.
//! See [`Placement`] for the exact reading.

use std::collections::HashSet;

use glam::Vec3;

use crate::scene::{Asset, Clip, Mesh, Placement, Skeleton, normalize_bone_name};

/// Places a loaded mesh file: root bones by the whole map, other bones' translations scaled, every vertex,
/// normal, morph delta and vertex frame moved with them, offset matrices recomputed.
pub fn place_asset(asset: &mut Asset, placement: &Placement) {
    if placement.is_identity() {
        return;
    }
    place_skeleton(&mut asset.skeleton, placement);
    for mesh in &mut asset.meshes {
        place_mesh(mesh, placement);
    }
}

/// Places a skeleton's bind pose and recomputes its offset matrices.
pub fn place_skeleton(skeleton: &mut Skeleton, placement: &Placement) {
    if placement.is_identity() {
        return;
    }
    let turn = placement.rotation();
    for (bind, parent) in skeleton.bind_local.iter_mut().zip(&skeleton.parents) {
        if parent.is_none() {
            bind.translation = placement.place_point(bind.translation);
            bind.rotation = (turn * bind.rotation).normalize();
        } else {
            bind.translation *= placement.scale;
        }
    }
    skeleton.recompute_inverse_bind();
}

fn place_mesh(mesh: &mut Mesh, placement: &Placement) {
    let turn = placement.rotation();
    let turn_normal = |n: &mut Vec3| *n = turn * *n;
    mesh.positions.iter_mut().for_each(|p| *p = placement.place_point(*p));
    mesh.normals.iter_mut().for_each(turn_normal);
    for target in &mut mesh.morph_targets {
        target.position_deltas.iter_mut().for_each(|d| *d = placement.place_offset(*d));
        target.normal_deltas.iter_mut().for_each(turn_normal);
    }
    for frame in &mut mesh.vertex_frames {
        frame.positions.iter_mut().for_each(|p| *p = placement.place_point(*p));
        frame.normals.iter_mut().for_each(turn_normal);
    }
}

/// Places an animation clip read with `skeleton` (the animation file's own bones: its roots are the ones moved,
/// as studiomdl tests the file's `parent == -1`). Tracks of bones the file does not have are scaled as
/// non-roots.
pub fn place_clip(clip: &mut Clip, skeleton: &Skeleton, placement: &Placement) {
    if placement.is_identity() {
        return;
    }
    let turn = placement.rotation();
    // The roots' names once, so each track costs one set lookup rather than a search of the skeleton.
    let roots: HashSet<String> = skeleton
        .names
        .iter()
        .zip(&skeleton.parents)
        .filter(|(_, parent)| parent.is_none())
        .map(|(name, _)| normalize_bone_name(name))
        .collect();
    for track in &mut clip.tracks {
        let is_root = roots.contains(&normalize_bone_name(&track.bone_name));
        let translation = &mut track.translation;
        if is_root {
            translation.values.iter_mut().for_each(|t| *t = placement.place_point(*t));
            for (a, b) in &mut translation.tangents {
                *a = placement.place_offset(*a);
                *b = placement.place_offset(*b);
            }
            let rotation = &mut track.rotation;
            rotation.values.iter_mut().for_each(|q| *q = (turn * *q).normalize());
            for (a, b) in &mut rotation.tangents {
                *a = turn * *a;
                *b = turn * *b;
            }
        } else {
            translation.values.iter_mut().for_each(|t| *t *= placement.scale);
            for (a, b) in &mut translation.tangents {
                *a *= placement.scale;
                *b *= placement.scale;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::{Mat4, Quat};

    use super::*;
    use crate::scene::{BoneTrack, Curve, Format, Transform};

    fn two_bones() -> Asset {
        let mut asset = Asset::new(Format::Smd);
        asset.skeleton.push(
            "root",
            None,
            Transform::from_translation_rotation(Vec3::new(1.0, 2.0, 3.0), Quat::IDENTITY),
        );
        asset.skeleton.push(
            "child",
            Some(0),
            Transform::from_translation_rotation(Vec3::new(0.0, 0.0, 4.0), Quat::from_rotation_x(0.3)),
        );
        asset.skeleton.recompute_inverse_bind();
        let mesh = Mesh {
            positions: vec![Vec3::new(1.0, 2.0, 7.0), Vec3::new(2.0, 2.0, 3.0)],
            normals: vec![Vec3::X, Vec3::Z],
            joints: vec![[1, 0, 0, 0], [0, 1, 0, 0]],
            weights: vec![[1.0, 0.0, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0]],
            indices: vec![0, 1, 0],
            ..Mesh::default()
        };
        asset.meshes.push(mesh);
        asset
    }

    fn placement() -> Placement {
        Placement { origin: Vec3::new(0.0, 0.0, 3.0), scale: 2.0, rotation_degrees: 90.0 }
    }

    #[test]
    fn a_placed_mesh_is_moved_turned_and_scaled_and_its_bind_pose_still_reproduces_it() {
        let mut asset = two_bones();
        place_asset(&mut asset, &placement());
        let m = &asset.meshes[0];
        // (1, 2, 7) − (0, 0, 3) = (1, 2, 4); turned 90° about Z: (−2, 1, 4); × 2.
        assert!(m.positions[0].abs_diff_eq(Vec3::new(-4.0, 2.0, 8.0), 1e-5), "{:?}", m.positions[0]);
        assert!(m.normals[0].abs_diff_eq(Vec3::Y, 1e-6));
        assert!(asset.skeleton.bind_local[1].translation.abs_diff_eq(Vec3::new(0.0, 0.0, 8.0), 1e-6));
        // Offset × to-root is the identity for every bone.
        let to_root = asset.skeleton.bind_to_root();
        for (w, inv) in to_root.iter().zip(&asset.skeleton.inverse_bind) {
            assert!((*inv * *w).abs_diff_eq(Mat4::IDENTITY, 1e-5));
        }
        // The child bone's world position is the placed map of its old one, (1, 2, 7).
        let child = to_root[1].transform_point3(Vec3::ZERO);
        assert!(child.abs_diff_eq(placement().place_point(Vec3::new(1.0, 2.0, 7.0)), 1e-5), "{child}");
    }

    #[test]
    fn a_placed_clip_moves_the_roots_and_scales_the_rest() {
        let skeleton = two_bones().skeleton;
        let mut clip = Clip {
            tracks: vec![
                BoneTrack {
                    bone_name: "root".into(),
                    translation: Curve::linear(
                        vec![0.0, 1.0],
                        vec![Vec3::new(1.0, 2.0, 3.0), Vec3::new(5.0, 2.0, 3.0)],
                    ),
                    rotation: Curve::constant(Quat::IDENTITY),
                    scale: Curve::default(),
                },
                BoneTrack {
                    bone_name: "child".into(),
                    translation: Curve::constant(Vec3::new(0.0, 0.0, 4.0)),
                    rotation: Curve::constant(Quat::IDENTITY),
                    scale: Curve::default(),
                },
            ],
            ..Clip::default()
        };
        place_clip(&mut clip, &skeleton, &placement());
        let root = &clip.tracks[0];
        assert!(root.translation.values[0].abs_diff_eq(Vec3::new(-4.0, 2.0, 0.0), 1e-5));
        assert!(root.translation.values[1].abs_diff_eq(Vec3::new(-4.0, 10.0, 0.0), 1e-5));
        assert!(root.rotation.values[0].abs_diff_eq(Quat::from_rotation_z(90f32.to_radians()), 1e-6));
        assert_eq!(clip.tracks[1].translation.values[0], Vec3::new(0.0, 0.0, 8.0));
        assert_eq!(clip.tracks[1].rotation.values[0], Quat::IDENTITY);
    }

    #[test]
    fn the_identity_changes_nothing() {
        let mut asset = two_bones();
        let before = asset.meshes[0].clone();
        place_asset(&mut asset, &Placement::default());
        assert_eq!(asset.meshes[0], before);
    }
}
