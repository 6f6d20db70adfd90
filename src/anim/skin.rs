//! CPU reference skinning: morph targets first (see [`super::morph::apply_morphs`]), then four-influence vertex
//! blending of positions and normals. The GPU shader must agree with this within float tolerance; tests and
//! diagnostics use it as the ground truth.

use glam::{Mat4, Vec3};

use crate::scene::Mesh;

/// Blends one vertex: `v' = Σ w_i · (palette[j_i] · v)`; the normal uses the 3×3 part and is renormalised.
/// Influences naming a bone outside the palette are skipped (the mesh validator reports them).
#[inline]
pub fn skin_vertex(
    palette: &[Mat4],
    joints: [u16; 4],
    weights: [f32; 4],
    position: Vec3,
    normal: Vec3,
) -> (Vec3, Vec3) {
    let mut p = Vec3::ZERO;
    let mut n = Vec3::ZERO;
    for (j, w) in joints.into_iter().zip(weights) {
        if w == 0.0 {
            continue;
        }
        if let Some(m) = palette.get(usize::from(j)) {
            p += w * m.transform_point3(position);
            n += w * m.transform_vector3(normal);
        }
    }
    (p, n.normalize_or_zero())
}

/// Skins a whole mesh into caller-owned buffers (resized to the vertex count).
pub fn skin_mesh(mesh: &Mesh, palette: &[Mat4], positions: &mut Vec<Vec3>, normals: &mut Vec<Vec3>) {
    positions.clear();
    normals.clear();
    let count = mesh.positions.len();
    for i in 0..count {
        let joints = mesh.joints.get(i).copied().unwrap_or([0; 4]);
        let weights = mesh.weights.get(i).copied().unwrap_or([1.0, 0.0, 0.0, 0.0]);
        let normal = mesh.normals.get(i).copied().unwrap_or(Vec3::Y);
        let (p, n) = skin_vertex(palette, joints, weights, mesh.positions[i], normal);
        positions.push(p);
        normals.push(n);
    }
}

/// Morphs a mesh with `morph_weights` (one per [`Mesh::morph_targets`] entry; missing ones count as 0), then skins
/// it, into caller-owned buffers: what the GPU's vertex shader computes for an instance with those weights.
pub fn skin_mesh_morphed(
    mesh: &Mesh,
    palette: &[Mat4],
    morph_weights: &[f32],
    positions: &mut Vec<Vec3>,
    normals: &mut Vec<Vec3>,
) {
    super::morph::apply_morphs(mesh, morph_weights, positions, normals);
    for (i, (p, n)) in positions.iter_mut().zip(normals.iter_mut()).enumerate() {
        let joints = mesh.joints.get(i).copied().unwrap_or([0; 4]);
        let weights = mesh.weights.get(i).copied().unwrap_or([1.0, 0.0, 0.0, 0.0]);
        (*p, *n) = skin_vertex(palette, joints, weights, *p, *n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{local_to_model, skinning_palette};
    use crate::scene::{Skeleton, Transform};
    use glam::Quat;

    /// A worked three-bone blend: vertex (30,20,0), weights 0.25/0.5/0.25, translation-only bones; only bone 3
    /// moves (from (25,0,0) to (30,−10,0)). Expected (31.25, 17.5, 0).
    #[test]
    fn worked_three_bone_blend() {
        let mut s = Skeleton::default();
        s.push("b1", None, Transform::from_translation_rotation(Vec3::new(40.0, 40.0, 0.0), Quat::IDENTITY));
        s.push("b2", None, Transform::from_translation_rotation(Vec3::new(35.0, 10.0, 0.0), Quat::IDENTITY));
        s.push("b3", None, Transform::from_translation_rotation(Vec3::new(25.0, 0.0, 0.0), Quat::IDENTITY));
        s.recompute_inverse_bind();
        // Its coordinates in each bone's space: (−10,−20,0), (−5,10,0), (5,20,0).
        let v = Vec3::new(30.0, 20.0, 0.0);
        assert!(s.inverse_bind[0].transform_point3(v).abs_diff_eq(Vec3::new(-10.0, -20.0, 0.0), 1e-5));
        assert!(s.inverse_bind[1].transform_point3(v).abs_diff_eq(Vec3::new(-5.0, 10.0, 0.0), 1e-5));
        assert!(s.inverse_bind[2].transform_point3(v).abs_diff_eq(Vec3::new(5.0, 20.0, 0.0), 1e-5));

        let mut pose = s.bind_local.clone();
        pose[2].translation = Vec3::new(30.0, -10.0, 0.0);
        let mut to_root = vec![Mat4::IDENTITY; 3];
        local_to_model(&s.parents, &pose, &mut to_root).unwrap();
        let mut palette = vec![Mat4::IDENTITY; 3];
        skinning_palette(&s.inverse_bind, &to_root, &mut palette).unwrap();
        let (p, _) = skin_vertex(&palette, [0, 1, 2, 0], [0.25, 0.5, 0.25, 0.0], v, Vec3::Z);
        assert!(p.abs_diff_eq(Vec3::new(31.25, 17.5, 0.0), 1e-4), "{p}");
    }

    #[test]
    fn normals_rotate_with_the_bone_and_stay_unit() {
        let palette = [Mat4::from_scale_rotation_translation(
            Vec3::splat(3.0),
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
            Vec3::ONE,
        )];
        let (p, n) = skin_vertex(&palette, [0; 4], [1.0, 0.0, 0.0, 0.0], Vec3::X, Vec3::X);
        assert!(p.abs_diff_eq(Vec3::new(1.0, 4.0, 1.0), 1e-5));
        assert!(n.abs_diff_eq(Vec3::Y, 1e-5));
    }
}
