//! The extent of a posed asset in the viewer frame: the one function that boxes a pose (camera framing, the
//! ground grid, the bounding-box overlay, the `render` command's framing all use it). Which pose, or which poses
//! over a clip, to box is the caller's choice.

use glam::{Mat4, Vec3};

use super::skin::skin_vertex;
use crate::scene::{Asset, Bounds};

/// Bounds of `asset` posed with `palette` and `to_root` (from a [`super::Pose`]), in the viewer frame: every
/// skinned vertex, or, for an asset without mesh vertices, every joint origin (so a skeleton alone frames too).
/// Meshes listed in `hidden` (body-group choices not shown, parts switched off) do not count.
/// Joints do not count where there is a mesh: helper bones far from the body (cameras, weapon and effect
/// attachments, a root left at the origin) would otherwise shrink the character to a speck. A mesh without
/// weights, or an empty palette, counts with the positions it has in the file.
pub fn posed_bounds(asset: &Asset, palette: &[Mat4], to_root: &[Mat4], hidden: &[usize]) -> Bounds {
    let to_viewer = asset.axes.to_viewer;
    let mut b = Bounds::EMPTY;
    for (_, mesh) in asset.meshes.iter().enumerate().filter(|(m, _)| !hidden.contains(m)) {
        if palette.is_empty() || mesh.joints.is_empty() {
            mesh.positions.iter().for_each(|p| b.add(to_viewer.transform_point3(*p)));
            continue;
        }
        for (i, &position) in mesh.positions.iter().enumerate() {
            let joints = mesh.joints.get(i).copied().unwrap_or([0; 4]);
            let weights = mesh.weights.get(i).copied().unwrap_or([1.0, 0.0, 0.0, 0.0]);
            let (p, _) = skin_vertex(palette, joints, weights, position, Vec3::ZERO);
            b.add(to_viewer.transform_point3(p));
        }
    }
    if b.is_empty() { joint_bounds(asset, to_root) } else { b }
}

/// Bounds, in the viewer frame, of mesh vertices already placed (`positions`: one slice per mesh, in the file's
/// frame), or of the joint origins `to_root` when there are none — [`posed_bounds`] for callers that skinned the
/// meshes themselves.
pub fn bounds_of_placed<'a>(
    asset: &Asset,
    to_root: &[Mat4],
    positions: impl IntoIterator<Item = &'a [Vec3]>,
) -> Bounds {
    let to_viewer = asset.axes.to_viewer;
    let mut b = Bounds::EMPTY;
    for mesh in positions {
        mesh.iter().for_each(|p| b.add(to_viewer.transform_point3(*p)));
    }
    if b.is_empty() { joint_bounds(asset, to_root) } else { b }
}

fn joint_bounds(asset: &Asset, to_root: &[Mat4]) -> Bounds {
    let to_viewer = asset.axes.to_viewer;
    Bounds::from_points(to_root.iter().map(|m| to_viewer.transform_point3(m.w_axis.truncate())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{Pose, skin_mesh};
    use crate::scene::samples::demo::demo_asset as demo_character;

    #[test]
    fn posed_bounds_match_the_skinned_mesh_and_joints() {
        let asset = demo_character();
        let clip = &asset.clips[1];
        let pose = Pose::from_clip(&asset.skeleton, clip, clip.duration * 0.5);
        let b = posed_bounds(&asset, &pose.palette, &pose.to_root, &[]);
        let (mut positions, mut normals) = (Vec::new(), Vec::new());
        skin_mesh(&asset.meshes[0], &pose.palette, &mut positions, &mut normals);
        let expected = bounds_of_placed(&asset, &pose.to_root, [positions.as_slice()]);
        assert!(b.min.abs_diff_eq(expected.min, 1e-5) && b.max.abs_diff_eq(expected.max, 1e-5), "{b:?} {expected:?}");
        // The curl bends the stalk forward: the box is deeper than the bind pose's.
        let bind = bounds_of_placed(&asset, &asset.skeleton.bind_to_root(), [asset.meshes[0].positions.as_slice()]);
        assert!(b.size().z > bind.size().z + 0.5, "{b:?} {bind:?}");
        // A helper bone far from the body does not count where there is a mesh.
        let mut far = pose.to_root.clone();
        far[0].w_axis = glam::Vec4::new(1e4, 0.0, 0.0, 1.0);
        let with_far_joint = bounds_of_placed(&asset, &far, [positions.as_slice()]);
        assert!(with_far_joint.max.x < 1e3, "{with_far_joint:?}");
        // No mesh: the joints frame.
        let mut skeleton_only = asset.clone();
        skeleton_only.meshes.clear();
        assert!(!posed_bounds(&skeleton_only, &pose.palette, &pose.to_root, &[]).is_empty());
        // No palette: the stored positions count.
        assert_eq!(
            posed_bounds(&asset, &[], &[], &[]),
            bounds_of_placed(&asset, &[], [asset.meshes[0].positions.as_slice()])
        );
    }
}
