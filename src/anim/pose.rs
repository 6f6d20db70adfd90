//! Local transforms → to-root matrices → skinning palette, as flat-array jobs (one forward pass, parents first).

use glam::Mat4;

use crate::scene::{Clip, Skeleton, Transform};

use super::sample::ClipBinding;

/// A complete pose with its own buffers: local transforms, to-root matrices and the skinning palette. For
/// tools and tests; the controller fills caller-owned buffers instead of allocating a `Pose` per frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pose {
    pub local: Vec<Transform>,
    pub to_root: Vec<Mat4>,
    pub palette: Vec<Mat4>,
    /// Morph-target weights, one per slot of the controller's [`super::MorphLayout`] (filled by
    /// [`super::Controller::evaluate_pose`]; empty for a pose made from bones alone).
    pub morph_weights: Vec<f32>,
}

impl Pose {
    /// The bind (reference) pose.
    pub fn bind(skeleton: &Skeleton) -> Pose {
        let mut pose = Pose { local: skeleton.bind_local.clone(), ..Pose::default() };
        pose.update(skeleton);
        pose
    }

    /// The pose of `clip` at `time` seconds (clamped to the clip's keys).
    pub fn from_clip(skeleton: &Skeleton, clip: &Clip, time: f32) -> Pose {
        let mut pose = Pose { local: vec![Transform::IDENTITY; skeleton.len()], ..Pose::default() };
        ClipBinding::new(skeleton, clip).sample(skeleton, clip, time, &mut pose.local);
        pose.update(skeleton);
        pose
    }

    /// Recomputes `to_root` and `palette` from `local`.
    pub fn update(&mut self, skeleton: &Skeleton) {
        let n = skeleton.len();
        self.local.resize(n, Transform::IDENTITY);
        self.to_root.resize(n, Mat4::IDENTITY);
        self.palette.resize(n, Mat4::IDENTITY);
        // Lengths match by construction; a skeleton whose own arrays disagree leaves the identity in place.
        if local_to_model(&skeleton.parents, &self.local, &mut self.to_root).is_err() {
            self.to_root.fill(Mat4::IDENTITY);
        }
        if skinning_palette(&skeleton.inverse_bind, &self.to_root, &mut self.palette).is_err() {
            self.palette.fill(Mat4::IDENTITY);
        }
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PoseError {
    #[error("{what}: {found} entries for {expected} bones")]
    Length { what: &'static str, expected: usize, found: usize },
}

fn check_len(what: &'static str, expected: usize, found: usize) -> Result<(), PoseError> {
    if expected == found { Ok(()) } else { Err(PoseError::Length { what, expected, found }) }
}

/// `to_root[i] = to_root[parent(i)] * local[i]`, roots get their local matrix. Parents must come first (a parent
/// index that does not is treated as a root, so bad data cannot read an unwritten entry).
pub fn local_to_model(parents: &[Option<usize>], local: &[Transform], to_root: &mut [Mat4]) -> Result<(), PoseError> {
    check_len("local transforms", parents.len(), local.len())?;
    check_len("to-root matrices", parents.len(), to_root.len())?;
    for i in 0..parents.len() {
        let m = local[i].to_matrix();
        to_root[i] = match parents[i] {
            Some(p) if p < i => to_root[p] * m,
            _ => m,
        };
    }
    Ok(())
}

/// Skinning matrix per bone: `to_root * inverse_bind` (`offset * to_root` in Direct3D's row-vector form).
pub fn skinning_palette(inverse_bind: &[Mat4], to_root: &[Mat4], palette: &mut [Mat4]) -> Result<(), PoseError> {
    check_len("to-root matrices", inverse_bind.len(), to_root.len())?;
    check_len("palette", inverse_bind.len(), palette.len())?;
    for ((out, r), o) in palette.iter_mut().zip(to_root).zip(inverse_bind) {
        *out = *r * *o;
    }
    Ok(())
}

/// The bind-pose check per bone: the largest element of `|offset × to_root(bind) − I|`.
pub fn bind_pose_error(skeleton: &Skeleton) -> Vec<f32> {
    skeleton
        .bind_to_root()
        .iter()
        .zip(&skeleton.inverse_bind)
        .map(|(r, o)| {
            let d = (*r * *o) - Mat4::IDENTITY;
            d.to_cols_array().iter().fold(0.0f32, |m, x| m.max(x.abs()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3, Vec4};
    use std::f32::consts::FRAC_PI_2;

    fn approx(a: Mat4, b: Mat4) -> bool {
        a.abs_diff_eq(b, 1e-5)
    }

    #[test]
    fn three_level_hierarchy_matches_hand_computed_matrices() {
        // root: translate (1,0,0); child: rotate 90° about Z, translate (0,2,0); grandchild: translate (3,0,0),
        // scale 2.
        let parents = [None, Some(0), Some(1)];
        let local = [
            Transform::from_translation_rotation(Vec3::new(1.0, 0.0, 0.0), Quat::IDENTITY),
            Transform::from_translation_rotation(Vec3::new(0.0, 2.0, 0.0), Quat::from_rotation_z(FRAC_PI_2)),
            Transform::new(Vec3::new(3.0, 0.0, 0.0), Quat::IDENTITY, Vec3::splat(2.0)),
        ];
        let mut to_root = [Mat4::IDENTITY; 3];
        local_to_model(&parents, &local, &mut to_root).unwrap();
        // Hand-computed. Child: R_z(90) = [[0,-1],[1,0]], origin (1,2,0).
        let child = Mat4::from_cols(
            Vec4::new(0.0, 1.0, 0.0, 0.0),
            Vec4::new(-1.0, 0.0, 0.0, 0.0),
            Vec4::new(0.0, 0.0, 1.0, 0.0),
            Vec4::new(1.0, 2.0, 0.0, 1.0),
        );
        assert!(approx(to_root[1], child), "{:?}", to_root[1]);
        // Grandchild: origin = child origin + R_z(90)·(3,0,0) = (1,5,0); axes rotated and scaled by 2.
        let grandchild = Mat4::from_cols(
            Vec4::new(0.0, 2.0, 0.0, 0.0),
            Vec4::new(-2.0, 0.0, 0.0, 0.0),
            Vec4::new(0.0, 0.0, 2.0, 0.0),
            Vec4::new(1.0, 5.0, 0.0, 1.0),
        );
        assert!(approx(to_root[2], grandchild), "{:?}", to_root[2]);
        // A point (1,0,0) in the grandchild's space lands at (1,7,0).
        assert!(to_root[2].transform_point3(Vec3::X).abs_diff_eq(Vec3::new(1.0, 7.0, 0.0), 1e-5));
    }

    #[test]
    fn bind_pose_gives_identity_palette() {
        let mut s = Skeleton::default();
        s.push("root", None, Transform::new(Vec3::new(0.0, 1.0, 0.0), Quat::from_rotation_y(0.3), Vec3::ONE));
        s.push("a", Some(0), Transform::new(Vec3::new(0.5, 2.0, -1.0), Quat::from_rotation_x(1.1), Vec3::splat(1.5)));
        s.push("b", Some(1), Transform::from_translation_rotation(Vec3::Z, Quat::from_rotation_z(-0.7)));
        s.recompute_inverse_bind();
        let mut to_root = vec![Mat4::IDENTITY; 3];
        local_to_model(&s.parents, &s.bind_local, &mut to_root).unwrap();
        let mut palette = vec![Mat4::ZERO; 3];
        skinning_palette(&s.inverse_bind, &to_root, &mut palette).unwrap();
        for m in palette {
            assert!(approx(m, Mat4::IDENTITY), "{m:?}");
        }
        assert!(bind_pose_error(&s).iter().all(|e| *e < 1e-5));
    }

    #[test]
    fn offset_example_moves_60_to_80() {
        // Bone origin (50,50,50); vertex (60,60,60); the bone moves to (70,70,70).
        let mut s = Skeleton::default();
        s.push("bone", None, Transform::from_translation_rotation(Vec3::splat(50.0), Quat::IDENTITY));
        s.recompute_inverse_bind();
        let in_bone_space = s.inverse_bind[0].transform_point3(Vec3::splat(60.0));
        assert!(in_bone_space.abs_diff_eq(Vec3::splat(10.0), 1e-5));
        let moved = [Transform::from_translation_rotation(Vec3::splat(70.0), Quat::IDENTITY)];
        let mut to_root = [Mat4::IDENTITY];
        local_to_model(&s.parents, &moved, &mut to_root).unwrap();
        let mut palette = [Mat4::IDENTITY];
        skinning_palette(&s.inverse_bind, &to_root, &mut palette).unwrap();
        assert!(palette[0].transform_point3(Vec3::splat(60.0)).abs_diff_eq(Vec3::splat(80.0), 1e-4));
    }

    proptest::proptest! {
        /// The one-pass job equals the definition (product of locals along the chain to the root) for random
        /// hierarchies, and the palette of the bind pose is the identity.
        #[test]
        fn one_pass_matches_the_chain_product(
            parent_picks in proptest::collection::vec(0usize..1000, 1..12),
            values in proptest::collection::vec((-2.0f32..2.0, -3.0f32..3.0, 0.5f32..2.0), 12),
        ) {
            let parents: Vec<Option<usize>> =
                parent_picks.iter().enumerate().map(|(i, &p)| if i == 0 || p % 5 == 0 { None } else { Some(p % i) }).collect();
            let local: Vec<Transform> = (0..parents.len())
                .map(|i| {
                    let (t, a, s) = values[i];
                    Transform::new(Vec3::new(t, -t, 0.5 * t), Quat::from_euler(glam::EulerRot::XYZ, a, 0.5 * a, -a), Vec3::splat(s))
                })
                .collect();
            let mut to_root = vec![Mat4::IDENTITY; parents.len()];
            local_to_model(&parents, &local, &mut to_root).unwrap();
            for i in 0..parents.len() {
                let mut expected = local[i].to_matrix();
                let mut at = parents[i];
                while let Some(p) = at {
                    expected = local[p].to_matrix() * expected;
                    at = parents[p];
                }
                proptest::prop_assert!(to_root[i].abs_diff_eq(expected, 1e-3 * expected.abs().to_cols_array().iter().fold(1.0f32, |m, x| m.max(*x))));
            }
            let mut skeleton = Skeleton::default();
            for (i, p) in parents.iter().enumerate() {
                skeleton.push(format!("b{i}"), *p, local[i]);
            }
            skeleton.recompute_inverse_bind();
            proptest::prop_assert!(bind_pose_error(&skeleton).iter().all(|e| *e < 1e-3));
        }
    }

    #[test]
    fn mismatched_lengths_are_errors() {
        let mut to_root = [Mat4::IDENTITY; 1];
        let err = local_to_model(&[None, Some(0)], &[Transform::IDENTITY; 2], &mut to_root).unwrap_err();
        assert_eq!(err, PoseError::Length { what: "to-root matrices", expected: 2, found: 1 });
    }
}
