//! The controller's output pass: local transforms → to-root matrices and skinning palette in one forward loop.
//! Same maths as `pose::local_to_model` followed by `pose::skinning_palette`, fused so each bone's matrices are
//! written while still in registers, and with products that skip the known last row: bone transforms are
//! affine (last row 0 0 0 1), so a product needs 3 of the 4 column terms (the skipped terms are exact zeros,
//! so results equal the full 4×4 product). An inverse bind matrix that is not affine gets the full product.

use glam::{Mat4, Vec4};

use crate::anim::pose::PoseError;
use crate::scene::{Skeleton, Transform};

/// `a * b` for an affine `b` (last row 0 0 0 1); exact, with `a`'s last row carried through.
#[inline(always)]
fn mul_affine(a: &Mat4, b: &Mat4) -> Mat4 {
    let col = |c: Vec4| a.x_axis * c.x + a.y_axis * c.y + a.z_axis * c.z;
    Mat4::from_cols(col(b.x_axis), col(b.y_axis), col(b.z_axis), col(b.w_axis) + a.w_axis)
}

/// Last row exactly 0 0 0 1, compared as bits (one branch instead of four float compares; a −0 takes the full
/// product, which is still right).
#[inline(always)]
fn is_affine(m: &Mat4) -> bool {
    (m.x_axis.w.to_bits() | m.y_axis.w.to_bits() | m.z_axis.w.to_bits()) == 0 && m.w_axis.w.to_bits() == 1f32.to_bits()
}

fn check_len(what: &'static str, expected: usize, found: usize) -> Result<(), PoseError> {
    if expected == found { Ok(()) } else { Err(PoseError::Length { what, expected, found }) }
}

/// `to_root[i] = to_root[parent(i)] * local[i]` (roots: `local[i]`), `palette[i] = to_root[i] * inverse_bind[i]`.
/// Every slice must have one entry per bone. A parent index that does not come before its child is treated as
/// a root, as in `local_to_model`.
pub fn to_root_and_palette(
    skeleton: &Skeleton,
    local: &[Transform],
    to_root: &mut [Mat4],
    palette: &mut [Mat4],
) -> Result<(), PoseError> {
    let n = skeleton.len();
    check_len("parent indices", n, skeleton.parents.len())?;
    check_len("inverse bind matrices", n, skeleton.inverse_bind.len())?;
    check_len("local transforms", n, local.len())?;
    check_len("to-root matrices", n, to_root.len())?;
    check_len("palette", n, palette.len())?;
    for (i, ((l, parent), (offset, skin))) in
        local.iter().zip(&skeleton.parents).zip(skeleton.inverse_bind.iter().zip(palette.iter_mut())).enumerate()
    {
        let m = l.to_matrix();
        // Parents come first: to_root[p] is final. (Built from local matrices, to-root matrices are affine.)
        let r = match *parent {
            Some(p) if p < i => mul_affine(&to_root[p], &m),
            _ => m,
        };
        to_root[i] = r;
        *skin = if is_affine(offset) { mul_affine(&r, offset) } else { r * *offset };
    }
    Ok(())
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
        to_root_and_palette(&s, &local, &mut r2, &mut p2).unwrap();
        for i in 0..4 {
            assert!(r1[i].abs_diff_eq(r2[i], 1e-5), "{i}");
            assert!(p1[i].abs_diff_eq(p2[i], 1e-5), "{i}");
        }
        // A projective inverse bind matrix (never right, but possible in a file) gets the full product.
        let mut odd = s.clone();
        odd.inverse_bind[2].x_axis.w = 0.5;
        to_root_and_palette(&odd, &local, &mut r2, &mut p2).unwrap();
        assert!(p2[2].abs_diff_eq(r1[2] * odd.inverse_bind[2], 1e-5));
        // The bind pose gives the identity palette.
        to_root_and_palette(&s, &s.bind_local, &mut r2, &mut p2).unwrap();
        assert!(p2.iter().all(|m| m.abs_diff_eq(Mat4::IDENTITY, 1e-5)));
        let err = to_root_and_palette(&s, &local[..3], &mut r2, &mut p2).unwrap_err();
        assert_eq!(err, PoseError::Length { what: "local transforms", expected: 4, found: 3 });
    }
}
