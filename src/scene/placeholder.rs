//! Placeholder tracks: keys an exporter wrote for bones the animation never moved, as the identity (no rotation,
//! zero translation) rather than the bone's bind pose. The Unreal kit's walk PSA carries such keys for the 22
//! face bones of its head; played, every face bone falls onto the head bone's origin and the face caves in. A
//! track is a placeholder when its translation and rotation are both keyed, each constant over the clip, and
//! equal to the identity, while the bone's bind pose is not the identity (where it is, the keys change
//! nothing). Such tracks are left out when a clip is bound ([`crate::anim::ClipBinding`]): the bone keeps its
//! bind pose, the bind report lists it, and [`super::Retarget::apply_placeholder_tracks`] plays them anyway.
//!
//! Pure data; reads no files.

use glam::{Quat, Vec3};

use super::{BoneTrack, Curve, Transform};

/// How far from zero a translation may be, and how far from 1 a quaternion's |w|, and still be the identity an
/// exporter wrote (they write exact zeros; a little room for float noise in the file).
const TRANSLATION_EPSILON: f32 = 1e-5;
const ROTATION_EPSILON: f32 = 1e-6;

/// A bind pose this close to the identity (translation length, rotation angle in radians) is the identity: keys
/// of the identity change nothing there.
const BIND_TRANSLATION_EPSILON: f32 = 1e-4;
const BIND_ANGLE_EPSILON: f32 = 1e-3;

/// Whether `track` is a placeholder for a bone whose bind pose (local) is `bind`; see the module notes.
pub fn is_placeholder(track: &BoneTrack, bind: &Transform) -> bool {
    let bind_is_identity = bind.translation.length() <= BIND_TRANSLATION_EPSILON
        && bind.rotation.normalize().angle_between(Quat::IDENTITY) <= BIND_ANGLE_EPSILON;
    if bind_is_identity || track.translation.is_empty() || track.rotation.is_empty() {
        return false;
    }
    let zero = |v: &Vec3| v.length() <= TRANSLATION_EPSILON;
    let identity = |q: &Quat| q.is_finite() && q.w.abs() >= 1.0 - ROTATION_EPSILON;
    let one = |s: &Vec3| (*s - Vec3::ONE).abs().max_element() <= TRANSLATION_EPSILON;
    all(&track.translation, zero)
        && all(&track.rotation, identity)
        && (track.scale.is_empty() || all(&track.scale, one))
}

fn all<T>(curve: &Curve<T>, test: impl Fn(&T) -> bool) -> bool {
    curve.values.iter().all(test)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn track(t: Vec3, r: Quat) -> BoneTrack {
        BoneTrack {
            bone_name: "eye_l".into(),
            translation: Curve::linear(vec![0.0, 1.0], vec![t, t]),
            rotation: Curve::linear(vec![0.0, 1.0], vec![r, r]),
            scale: Curve::default(),
        }
    }

    #[test]
    fn identity_keys_on_a_bone_that_sits_elsewhere_are_placeholders() {
        let bind = Transform::from_translation_rotation(Vec3::new(3.9, 7.8, 3.3), Quat::from_rotation_x(-1.57));
        // The kit's walk writes (0, 0, 0, −1): the identity with its sign flipped.
        assert!(is_placeholder(&track(Vec3::ZERO, Quat::from_xyzw(0.0, -0.0, 0.0, -1.0)), &bind));
        assert!(!is_placeholder(&track(Vec3::new(0.0, 0.0, 1.0), Quat::IDENTITY), &bind), "moved");
        assert!(!is_placeholder(&track(Vec3::ZERO, Quat::from_rotation_z(0.1)), &bind), "turned");
        // On a bone whose bind pose is the identity the keys change nothing: not reported.
        assert!(!is_placeholder(&track(Vec3::ZERO, Quat::IDENTITY), &Transform::IDENTITY));
        // A track that varies is an animation, even if it starts at the identity.
        let mut varying = track(Vec3::ZERO, Quat::IDENTITY);
        varying.rotation.values[1] = Quat::from_rotation_y(0.5);
        assert!(!is_placeholder(&varying, &bind));
        // Rotation keys alone (no translation keyed) are an animation of the orientation.
        let mut rotation_only = track(Vec3::ZERO, Quat::IDENTITY);
        rotation_only.translation = Curve::default();
        assert!(!is_placeholder(&rotation_only, &bind));
    }
}
