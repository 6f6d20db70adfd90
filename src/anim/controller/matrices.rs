//! The controller's output pass: local transforms → to-root matrices and skinning palette in one forward loop.
//! Same maths as `pose::local_to_model` followed by `pose::skinning_palette` (equal to within rounding; a unit
//! test compares them on random hierarchies), arranged for what limits this pass on SSE2-class CPUs: shuffles.
//!
//! Each matrix product `a * b` needs every entry of `b` broadcast to a whole vector, one shuffle each. So:
//! - The inverse bind matrices are broadcast once, when the [`MatrixPlan`] is built (12 vectors per bone), and
//!   the palette product reads them as plain operands: no shuffles at all.
//! - Local rotations are turned into matrix entries four bones at a time with the bones in the vector lanes
//!   (no shuffles inside the quaternion maths); each bone then broadcasts its own lane.
//! - Bone transforms are affine (last row 0 0 0 1), so products skip the known last row; the skipped terms are
//!   exact zeros. An inverse bind matrix that is not affine gets the full product in a fix-up after the loop.
//!
//! On the reference machine (BENCHMARKS.md) this took the pass from 15 ns to 8.3 ns per bone (`benches/pose.rs`).

use glam::{Mat4, Quat, Vec3, Vec4, Vec4Swizzles};

use crate::anim::pose::PoseError;
use crate::scene::{Skeleton, Transform};

/// Parent index of a bone without one (or whose parent does not come before it).
const NO_PARENT: u32 = u32::MAX;

/// An affine inverse bind matrix with each of its 12 meaningful entries broadcast: `[column * 3 + row]`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct BroadcastOffset([Vec4; 12]);

impl BroadcastOffset {
    fn new(m: &Mat4) -> Self {
        let mut out = [Vec4::ZERO; 12];
        for (column, chunk) in out.chunks_exact_mut(3).enumerate() {
            let c = m.col(column);
            chunk.copy_from_slice(&[Vec4::splat(c.x), Vec4::splat(c.y), Vec4::splat(c.z)]);
        }
        Self(out)
    }

    /// `r * offset`, with `r` and the offset affine.
    #[inline(always)]
    fn apply(&self, r: &Mat4) -> Mat4 {
        let o = &self.0;
        let column = |j: usize| r.x_axis * o[j * 3] + r.y_axis * o[j * 3 + 1] + r.z_axis * o[j * 3 + 2];
        Mat4::from_cols(column(0), column(1), column(2), column(3) + r.w_axis)
    }
}

/// What the to-root + palette pass needs from a skeleton, laid out for it. Built once per skeleton (the
/// controller keeps one); rebuild it if the skeleton's parents or inverse bind matrices change.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatrixPlan {
    parents: Vec<u32>,
    offsets: Vec<BroadcastOffset>,
    /// Bones whose inverse bind matrix is not affine (never right, but possible in a file), with that matrix.
    projective: Vec<(usize, Mat4)>,
}

impl MatrixPlan {
    pub fn new(skeleton: &Skeleton) -> Self {
        let parents = (skeleton.parents.iter().enumerate())
            .map(|(i, p)| match *p {
                Some(p) if p < i => p as u32,
                _ => NO_PARENT,
            })
            .collect();
        let projective =
            (skeleton.inverse_bind.iter().enumerate()).filter(|(_, m)| !is_affine(m)).map(|(i, m)| (i, *m)).collect();
        Self { parents, offsets: skeleton.inverse_bind.iter().map(BroadcastOffset::new).collect(), projective }
    }

    pub fn len(&self) -> usize {
        self.parents.len()
    }

    pub fn is_empty(&self) -> bool {
        self.parents.is_empty()
    }
}

/// Last row exactly 0 0 0 1.
fn is_affine(m: &Mat4) -> bool {
    m.row(3) == Vec4::W
}

fn check_len(what: &'static str, expected: usize, found: usize) -> Result<(), PoseError> {
    if expected == found { Ok(()) } else { Err(PoseError::Length { what, expected, found }) }
}

/// `to_root[i] = to_root[parent(i)] * local[i]` (roots: `local[i]`), `palette[i] = to_root[i] * inverse_bind[i]`.
/// Every slice must have one entry per bone of the plan's skeleton. A parent index that does not come before
/// its child is treated as a root, as in `local_to_model`.
pub fn to_root_and_palette(
    plan: &MatrixPlan,
    local: &[Transform],
    to_root: &mut [Mat4],
    palette: &mut [Mat4],
) -> Result<(), PoseError> {
    let n = plan.len();
    check_len("inverse bind matrices", n, plan.offsets.len())?;
    check_len("local transforms", n, local.len())?;
    check_len("to-root matrices", n, to_root.len())?;
    check_len("palette", n, palette.len())?;
    let whole = n - n % 4;
    for first in (0..whole).step_by(4) {
        let l = &local[first..first + 4];
        let rotation = RotationLanes::new([l[0].rotation, l[1].rotation, l[2].rotation, l[3].rotation]);
        bone::<0>(plan, first, &rotation, local, to_root, palette);
        bone::<1>(plan, first + 1, &rotation, local, to_root, palette);
        bone::<2>(plan, first + 2, &rotation, local, to_root, palette);
        bone::<3>(plan, first + 3, &rotation, local, to_root, palette);
    }
    for i in whole..n {
        let rotation = RotationLanes::new([local[i].rotation; 4]);
        bone::<0>(plan, i, &rotation, local, to_root, palette);
    }
    for (i, offset) in &plan.projective {
        palette[*i] = to_root[*i] * *offset;
    }
    Ok(())
}

/// The 3×3 rotation matrices of four quaternions, entry by entry, one bone per lane: `[column * 3 + row]`.
struct RotationLanes([Vec4; 9]);

impl RotationLanes {
    #[inline(always)]
    fn new(q: [Quat; 4]) -> Self {
        let lanes = Mat4::from_cols(q[0].into(), q[1].into(), q[2].into(), q[3].into()).transpose();
        let (x, y, z, w) = (lanes.x_axis, lanes.y_axis, lanes.z_axis, lanes.w_axis);
        let (x2, y2, z2) = (x + x, y + y, z + z);
        let (xx, xy, xz) = (x * x2, x * y2, x * z2);
        let (yy, yz, zz) = (y * y2, y * z2, z * z2);
        let (wx, wy, wz) = (w * x2, w * y2, w * z2);
        Self([
            Vec4::ONE - (yy + zz),
            xy + wz,
            xz - wy,
            xy - wz,
            Vec4::ONE - (xx + zz),
            yz + wx,
            xz + wy,
            yz - wx,
            Vec4::ONE - (xx + yy),
        ])
    }

    /// Entry `index` of the bone in lane `LANE`, broadcast.
    #[inline(always)]
    fn broadcast<const LANE: usize>(&self, index: usize) -> Vec4 {
        let v = self.0[index];
        match LANE {
            0 => v.xxxx(),
            1 => v.yyyy(),
            2 => v.zzzz(),
            _ => v.wwww(),
        }
    }
}

/// Bone `i`'s to-root matrix and palette entry; its rotation is in lane `LANE` of `rotation`.
#[inline(always)]
fn bone<const LANE: usize>(
    plan: &MatrixPlan,
    i: usize,
    rotation: &RotationLanes,
    local: &[Transform],
    to_root: &mut [Mat4],
    palette: &mut [Mat4],
) {
    let l = &local[i];
    let parent = plan.parents[i] as usize;
    // Parents come first, so to_root[parent] is final (NO_PARENT is never below i).
    let r = if parent < i {
        let p = to_root[parent];
        let column = |j: usize| {
            p.x_axis * rotation.broadcast::<LANE>(j * 3)
                + p.y_axis * rotation.broadcast::<LANE>(j * 3 + 1)
                + p.z_axis * rotation.broadcast::<LANE>(j * 3 + 2)
        };
        let (mut x, mut y, mut z) = (column(0), column(1), column(2));
        // Most rigs never scale a bone; skipping the multiply then is exact.
        if l.scale != Vec3::ONE {
            (x, y, z) = (x * l.scale.x, y * l.scale.y, z * l.scale.z);
        }
        let t = l.translation;
        Mat4::from_cols(x, y, z, p.x_axis * t.x + p.y_axis * t.y + p.z_axis * t.z + p.w_axis)
    } else {
        l.to_matrix()
    };
    to_root[i] = r;
    palette[i] = plan.offsets[i].apply(&r);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::pose::{local_to_model, skinning_palette};
    use glam::{Quat, Vec3};

    #[test]
    fn matches_the_separate_passes() {
        let mut s = Skeleton::default();
        s.push("root", None, Transform::new(Vec3::new(0.0, 1.0, 2.0), Quat::from_rotation_y(0.3), Vec3::splat(1.5)));
        s.push("a", Some(0), Transform::new(Vec3::X, Quat::from_rotation_x(1.1), Vec3::new(1.0, 2.0, 0.5)));
        s.push("b", Some(1), Transform::from_translation_rotation(Vec3::Z, Quat::from_rotation_z(-0.7)));
        s.push("c", Some(0), Transform::from_translation_rotation(-Vec3::Y, Quat::from_rotation_y(2.0)));
        s.recompute_inverse_bind();
        let local: Vec<Transform> = s
            .bind_local
            .iter()
            .map(|t| Transform { rotation: t.rotation * Quat::from_rotation_x(0.4), ..*t })
            .collect();
        let (mut r1, mut p1) = (vec![Mat4::ZERO; 4], vec![Mat4::ZERO; 4]);
        local_to_model(&s.parents, &local, &mut r1).unwrap();
        skinning_palette(&s.inverse_bind, &r1, &mut p1).unwrap();
        let (mut r2, mut p2) = (vec![Mat4::ZERO; 4], vec![Mat4::ZERO; 4]);
        to_root_and_palette(&MatrixPlan::new(&s), &local, &mut r2, &mut p2).unwrap();
        for i in 0..4 {
            assert!(r1[i].abs_diff_eq(r2[i], 1e-5), "{i}");
            assert!(p1[i].abs_diff_eq(p2[i], 1e-5), "{i}");
        }
        // A projective inverse bind matrix (never right, but possible in a file) gets the full product.
        let mut odd = s.clone();
        odd.inverse_bind[2].x_axis.w = 0.5;
        to_root_and_palette(&MatrixPlan::new(&odd), &local, &mut r2, &mut p2).unwrap();
        assert!(p2[2].abs_diff_eq(r1[2] * odd.inverse_bind[2], 1e-5));
        // The bind pose gives the identity palette.
        to_root_and_palette(&MatrixPlan::new(&s), &s.bind_local, &mut r2, &mut p2).unwrap();
        assert!(p2.iter().all(|m| m.abs_diff_eq(Mat4::IDENTITY, 1e-5)));
        let err = to_root_and_palette(&MatrixPlan::new(&s), &local[..3], &mut r2, &mut p2).unwrap_err();
        assert_eq!(err, PoseError::Length { what: "local transforms", expected: 4, found: 3 });
    }

    proptest::proptest! {
        /// Equal to the separate passes for any hierarchy: whole groups of four and a remainder, roots anywhere,
        /// unit and non-uniform scales, bind and animated poses.
        #[test]
        fn equals_the_separate_passes_on_random_hierarchies(
            picks in proptest::collection::vec((0usize..1000, -3.0f32..3.0, 0usize..4), 1..23),
        ) {
            let mut s = Skeleton::default();
            for (i, (pick, angle, kind)) in picks.iter().copied().enumerate() {
                let parent = if i == 0 || pick % 7 == 0 { None } else { Some(pick % i) };
                let scale = match kind { 0 => Vec3::new(1.0, 0.5, 2.0), 1 => Vec3::splat(1.5), _ => Vec3::ONE };
                let rotation = Quat::from_euler(glam::EulerRot::XYZ, angle, 0.3 * angle, -0.7 * angle);
                s.push(format!("b{i}"), parent, Transform::new(Vec3::new(angle, 1.0, -0.5 * angle), rotation, scale));
            }
            s.recompute_inverse_bind();
            let local: Vec<Transform> =
                s.bind_local.iter().map(|t| Transform { rotation: t.rotation * Quat::from_rotation_z(0.8), ..*t }).collect();
            let n = s.len();
            let (mut r1, mut p1) = (vec![Mat4::ZERO; n], vec![Mat4::ZERO; n]);
            local_to_model(&s.parents, &local, &mut r1).unwrap();
            skinning_palette(&s.inverse_bind, &r1, &mut p1).unwrap();
            let (mut r2, mut p2) = (vec![Mat4::ZERO; n], vec![Mat4::ZERO; n]);
            to_root_and_palette(&MatrixPlan::new(&s), &local, &mut r2, &mut p2).unwrap();
            for i in 0..n {
                let size = r1[i].abs().to_cols_array().iter().fold(1.0f32, |m, x| m.max(*x));
                proptest::prop_assert!(r1[i].abs_diff_eq(r2[i], 1e-5 * size), "to-root {}", i);
                proptest::prop_assert!(p1[i].abs_diff_eq(p2[i], 1e-4 * size), "palette {}", i);
            }
            to_root_and_palette(&MatrixPlan::new(&s), &s.bind_local, &mut r2, &mut p2).unwrap();
            proptest::prop_assert!(p2.iter().all(|m| m.abs_diff_eq(Mat4::IDENTITY, 1e-4)));
        }
    }
}
