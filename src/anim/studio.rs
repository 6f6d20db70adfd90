//! The two things a GoldSrc model (and the QC it was made from) adds to playing clips, as the engine and the
//! Half-Life Asset Manager do them: blend sequences and bone controllers. Pure computation on local poses; the
//! controller ([`super::Controller`]) calls it where a set is sampled and after the mix.
//!
//! **Blend sequences** mix 2–9 animations of one sequence by one or two blend parameters (`0..=1` here; the
//! engine's byte `blending[i] / 255`). As `StudioSetupBones` (Half-Life SDK `cl_dll/StudioModelRenderer.cpp`)
//! and HLAM's `BoneTransformer::SetUpBones`: two animations or any count but 4 and 9 slerp the first two by
//! parameter 0; four are a 2 × 2 grid — 0↔1 and 2↔3 by parameter 0, then the two results by parameter 1; nine
//! are a 3 × 3 grid, where each parameter picks the lower or upper pair of rows/columns at the byte value 127
//! and runs twice as fast within it. Rotations slerp (shortest arc) and positions lerp, per bone
//! (`SlerpBones`).
//!
//! **Bone controllers** add a value to one channel of a bone: units on X/Y/Z, degrees on XR/YR/ZR
//! (`StudioCalcBoneAdjust`, `CalculateBoneAdjust`). The engine adds it to the channel's Euler angle before the
//! angles become a rotation (`Rz·Ry·Rx`), frame by frame; here it is added to the mixed local pose: exactly,
//! for XR (a turn after the bone's rotation: `R·Rx(a)`) and ZR (before it: `Rz(a)·R`); for YR through the one
//! of the rotation's two Euler decompositions nearest the bone's angles (a compiled model's stored angles;
//! else the bind rotation's own decomposition), which is exact unless an animation swings the bone's Y angle
//! across ±90° from them.

use glam::{EulerRot, Quat, Vec3};

use crate::anim::ClipBinding;
use crate::scene::{BlendRange, BoneController, Clip, ControllerChannel, Skeleton, Transform};

/// Which animations of a blend sequence are mixed, and how.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BlendPlan {
    /// One animation as it is.
    Single(usize),
    /// `a` to `b` by `s`.
    Pair { a: usize, b: usize, s: f32 },
    /// `a`↔`b` and `c`↔`d` by `s`, then the two by `t`.
    Grid { a: usize, b: usize, c: usize, d: usize, s: f32, t: f32 },
}

/// The plan for a sequence of `count` animations at `parameters` (each `0..=1`).
pub fn blend_plan(count: usize, parameters: [f32; 2]) -> BlendPlan {
    let [x, y] = parameters.map(|p| if p.is_finite() { p.clamp(0.0, 1.0) } else { 0.0 });
    match count {
        0 | 1 => BlendPlan::Single(0),
        4 => BlendPlan::Grid { a: 0, b: 1, c: 2, d: 3, s: x, t: y },
        9 => {
            // The byte values the engine keeps, and HLAM's split of each at 127.
            let half = |v: f32| {
                let byte = v * 255.0;
                if byte > 127.0 { (1, (byte - 127.0) * 2.0 / 255.0) } else { (0, byte * 2.0 / 255.0) }
            };
            let ((col, s), (row, t)) = (half(x), half(y));
            let a = row * 3 + col;
            BlendPlan::Grid { a, b: a + 1, c: a + 3, d: a + 4, s: s.clamp(0.0, 1.0), t: t.clamp(0.0, 1.0) }
        }
        _ => BlendPlan::Pair { a: 0, b: 1, s: x },
    }
}

/// A blend sequence's further animations bound to a skeleton, for samplers outside the controller (the
/// `render` and `pose` commands): samples the clip and its blends at the given parameters as the controller does.
#[derive(Clone, Debug)]
pub struct BlendSampler {
    bindings: Vec<ClipBinding>,
    scratch: [Vec<Transform>; 3],
}

impl BlendSampler {
    /// `None` for a clip that is no blend sequence.
    pub fn new(skeleton: &Skeleton, clip: &Clip) -> Option<Self> {
        let blend = clip.script.as_ref()?.blend.as_ref()?;
        let bindings = blend.animations.iter().map(|a| ClipBinding::new(skeleton, a)).collect();
        Some(Self { bindings, scratch: Default::default() })
    }

    /// The mixed local pose at `time` into `out`; `own` is the clip's own binding.
    pub fn sample(
        &mut self,
        skeleton: &Skeleton,
        clip: &Clip,
        own: &ClipBinding,
        time: f32,
        parameters: [f32; 2],
        out: &mut [Transform],
    ) {
        let Some(blend) = clip.script.as_ref().and_then(|s| s.blend.as_ref()) else {
            own.sample(skeleton, clip, time, out);
            return;
        };
        let count = 1 + blend.animations.len().min(self.bindings.len());
        let sample = |index: usize, into: &mut [Transform]| match index
            .checked_sub(1)
            .and_then(|v| Some((blend.animations.get(v)?, self.bindings.get(v)?)))
        {
            Some((animation, binding)) => binding.sample(skeleton, animation, time, into),
            None => own.sample(skeleton, clip, time, into),
        };
        let mut scratch = std::mem::take(&mut self.scratch);
        for buffer in &mut scratch {
            buffer.resize(out.len(), Transform::IDENTITY);
        }
        let [b, c, d] = &mut scratch;
        match blend_plan(count, parameters) {
            BlendPlan::Single(a) => sample(a, out),
            BlendPlan::Pair { a, b: other, s } => {
                sample(a, out);
                sample(other, b);
                slerp_poses(out, b, s);
            }
            BlendPlan::Grid { a, b: ib, c: ic, d: id, s, t } => {
                sample(a, out);
                sample(ib, b);
                sample(ic, c);
                sample(id, d);
                slerp_poses(out, b, s);
                slerp_poses(c, d, s);
                slerp_poses(out, c, t);
            }
        }
        self.scratch = scratch;
    }
}

/// `into = slerp(into, from, s)` bone by bone (HLAM `SlerpBones`): rotations along the shortest arc, positions
/// and scales linearly.
pub fn slerp_poses(into: &mut [Transform], from: &[Transform], s: f32) {
    let s = s.clamp(0.0, 1.0);
    for (a, b) in into.iter_mut().zip(from) {
        a.rotation = a.rotation.slerp(b.rotation, s).normalize();
        a.translation = a.translation.lerp(b.translation, s);
        a.scale = a.scale.lerp(b.scale, s);
    }
}

/// A blend parameter's value in its range's units (degrees, units) as the `0..=1` fraction the mix uses
/// (HLMV's `SetBlending`, without its byte rounding); a range that is empty (the file names no control) takes
/// the fraction itself.
pub fn blend_fraction(range: Option<&BlendRange>, value: f32) -> f32 {
    match range.filter(|r| (r.end - r.start).abs() > f32::EPSILON) {
        Some(r) => ((value - r.start) / (r.end - r.start)).clamp(0.0, 1.0),
        None => value.clamp(0.0, 1.0),
    }
}

/// The inverse of [`blend_fraction`]: the value a fraction stands for.
pub fn blend_value(range: Option<&BlendRange>, fraction: f32) -> f32 {
    match range.filter(|r| (r.end - r.start).abs() > f32::EPSILON) {
        Some(r) => r.start + fraction * (r.end - r.start),
        None => fraction,
    }
}

/// The controller a user names: by index, by its bone and channel (`Neck.YR`, `Neck YR`), or by its bone when
/// only one controller drives it; `mouth` for the mouth controller.
pub fn find_controller(controllers: &[BoneController], name: &str) -> Option<usize> {
    let name = name.trim();
    if let Ok(i) = name.parse::<usize>() {
        return (i < controllers.len()).then_some(i);
    }
    if name.eq_ignore_ascii_case("mouth") {
        return controllers.iter().position(|c| c.index == 4);
    }
    let (bone, channel) = match name.rsplit_once(['.', ' ', ':']) {
        Some((b, c)) if ControllerChannel::parse(c).is_some() => (b, Some(c)),
        _ => (name, None),
    };
    let mut matches = (controllers.iter().enumerate())
        .filter(|(_, c)| c.bone.eq_ignore_ascii_case(bone))
        .filter(|(_, c)| channel.is_none_or(|ch| c.channel.label().eq_ignore_ascii_case(ch)))
        .map(|(i, _)| i);
    let first = matches.next();
    if matches.next().is_some() { None } else { first }
}

/// One controller's effect, resolved to a bone index once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneAdjustment {
    pub bone: usize,
    pub channel: ControllerChannel,
    /// Units (translations) or radians (rotations).
    pub amount: f32,
    /// The bone's angles `(z, y, x)`, to pick the Euler decomposition a YR adjustment uses.
    reference: Vec3,
}

/// The adjustments `values` (one per controller, in its units: degrees or model units, clamped into its range;
/// missing ones take the controller's rest value) make on `skeleton`. Controllers naming a bone the skeleton
/// lacks do nothing.
pub fn bone_adjustments(skeleton: &Skeleton, controllers: &[BoneController], values: &[f32]) -> Vec<BoneAdjustment> {
    let mut out = Vec::with_capacity(controllers.len());
    for (i, c) in controllers.iter().enumerate() {
        let Some(bone) = skeleton.find(&c.bone) else { continue };
        let (lo, hi) = c.range();
        let value = values.get(i).copied().filter(|v| v.is_finite()).unwrap_or_else(|| c.rest_value()).clamp(lo, hi);
        let amount = if c.channel.is_rotation() { value.to_radians() } else { value };
        let reference = match c.bone_angles {
            Some(a) => Vec3::new(a.z, a.y, a.x),
            None => skeleton.bind_local.get(bone).map_or(Vec3::ZERO, |t| {
                let (z, y, x) = t.rotation.to_euler(EulerRot::ZYX);
                Vec3::new(z, y, x)
            }),
        };
        out.push(BoneAdjustment { bone, channel: c.channel, amount, reference });
    }
    out
}

/// Applies the adjustments to a local pose, in order.
pub fn apply_adjustments(local: &mut [Transform], adjustments: &[BoneAdjustment]) {
    for adj in adjustments {
        let Some(t) = local.get_mut(adj.bone) else { continue };
        let a = adj.amount;
        match adj.channel {
            ControllerChannel::X => t.translation.x += a,
            ControllerChannel::Y => t.translation.y += a,
            ControllerChannel::Z => t.translation.z += a,
            ControllerChannel::XR => t.rotation = (t.rotation * Quat::from_rotation_x(a)).normalize(),
            ControllerChannel::ZR => t.rotation = (Quat::from_rotation_z(a) * t.rotation).normalize(),
            ControllerChannel::YR => {
                let (z, y, x) = t.rotation.to_euler(EulerRot::ZYX);
                // The other decomposition of the same rotation: (z + π, π − y, x + π).
                let pi = std::f32::consts::PI;
                let other = Vec3::new(z + pi, pi - y, x + pi);
                let canonical = Vec3::new(z, y, x);
                let distance = |e: Vec3| {
                    let d = e - adj.reference;
                    let wrap = |v: f32| (v + pi).rem_euclid(2.0 * pi) - pi;
                    wrap(d.x).abs() + wrap(d.y).abs() + wrap(d.z).abs()
                };
                let e = if distance(other) < distance(canonical) { other } else { canonical };
                t.rotation = Quat::from_euler(EulerRot::ZYX, e.x, e.y + a, e.z).normalize();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn euler(x: f32, y: f32, z: f32) -> Quat {
        Quat::from_euler(EulerRot::ZYX, z, y, x)
    }

    #[test]
    fn plans_follow_the_engines_layouts() {
        assert_eq!(blend_plan(1, [0.3, 0.7]), BlendPlan::Single(0));
        assert_eq!(blend_plan(2, [0.3, 0.7]), BlendPlan::Pair { a: 0, b: 1, s: 0.3 });
        assert_eq!(blend_plan(3, [0.3, 0.7]), BlendPlan::Pair { a: 0, b: 1, s: 0.3 });
        assert_eq!(blend_plan(4, [0.3, 0.7]), BlendPlan::Grid { a: 0, b: 1, c: 2, d: 3, s: 0.3, t: 0.7 });
        // Nine: the lower-left cell below the middle, the upper-right one above it, each twice as fast.
        let BlendPlan::Grid { a, b, c, d, s, t } = blend_plan(9, [0.25, 0.25]) else { panic!() };
        assert_eq!((a, b, c, d), (0, 1, 3, 4));
        assert!((s - 0.25 * 255.0 * 2.0 / 255.0).abs() < 1e-6 && (t - s).abs() < 1e-6);
        let BlendPlan::Grid { a, b, c, d, s, .. } = blend_plan(9, [1.0, 1.0]) else { panic!() };
        assert_eq!((a, b, c, d), (4, 5, 7, 8));
        assert!((s - 1.0).abs() < 1e-6);
        let BlendPlan::Grid { a, .. } = blend_plan(9, [0.9, 0.1]) else { panic!() };
        assert_eq!(a, 1, "right columns, lower rows");
    }

    #[test]
    fn slerp_poses_moves_from_one_pose_to_the_other() {
        let a = [Transform::from_translation_rotation(Vec3::ZERO, Quat::IDENTITY)];
        let b = [Transform::from_translation_rotation(Vec3::X * 2.0, Quat::from_rotation_z(1.0))];
        let mut mixed = a;
        slerp_poses(&mut mixed, &b, 0.5);
        assert!(mixed[0].translation.abs_diff_eq(Vec3::X, 1e-6));
        assert!(mixed[0].rotation.abs_diff_eq(Quat::from_rotation_z(0.5), 1e-6));
    }

    #[test]
    fn blend_values_map_to_fractions_and_back() {
        let range = BlendRange { control: "XR".into(), start: -25.0, end: 25.0 };
        assert_eq!(blend_fraction(Some(&range), 0.0), 0.5);
        assert_eq!(blend_fraction(Some(&range), 100.0), 1.0);
        assert_eq!(blend_value(Some(&range), 0.25), -12.5);
        let empty = BlendRange { control: String::new(), start: 0.0, end: 0.0 };
        assert_eq!(blend_fraction(Some(&empty), 0.3), 0.3);
        assert_eq!(blend_value(None, 0.3), 0.3);
    }

    /// Each rotation channel adds to the Euler angle as the engine adds `boneAdjust` before `AngleQuaternion`.
    #[test]
    fn controllers_add_to_the_euler_channel_the_engine_adds_to() {
        let mut skeleton = Skeleton::default();
        let bind = euler(0.3, -0.4, 0.5);
        skeleton.push("Neck", None, Transform::from_translation_rotation(Vec3::new(1.0, 2.0, 3.0), bind));
        let animated = euler(0.2, -0.6, 0.9);
        for (channel, expected) in [
            (ControllerChannel::XR, euler(0.2 + 0.25, -0.6, 0.9)),
            (ControllerChannel::YR, euler(0.2, -0.6 + 0.25, 0.9)),
            (ControllerChannel::ZR, euler(0.2, -0.6, 0.9 + 0.25)),
        ] {
            let c = BoneController {
                index: 0,
                bone: "neck".into(),
                channel,
                start: -60.0,
                end: 60.0,
                wraps: false,
                bone_angles: None,
                file: 0,
                line: 0,
            };
            let adj = bone_adjustments(&skeleton, &[c], &[0.25f32.to_degrees()]);
            let mut pose = [Transform::from_translation_rotation(Vec3::ZERO, animated)];
            apply_adjustments(&mut pose, &adj);
            assert!(
                pose[0].rotation.abs_diff_eq(expected, 1e-5) || pose[0].rotation.abs_diff_eq(-expected, 1e-5),
                "{channel:?}"
            );
        }
        // Translations add units; values are clamped into the range.
        let c = BoneController {
            index: 2,
            bone: "Neck".into(),
            channel: ControllerChannel::Y,
            start: 0.0,
            end: 5.0,
            wraps: false,
            bone_angles: None,
            file: 0,
            line: 0,
        };
        let adj = bone_adjustments(&skeleton, &[c], &[9.0]);
        let mut pose = [Transform::IDENTITY];
        apply_adjustments(&mut pose, &adj);
        assert_eq!(pose[0].translation, Vec3::new(0.0, 5.0, 0.0));
    }

    /// A Y angle past ±90° decomposes the other way; the decomposition nearest the stored angles is used.
    #[test]
    fn yr_uses_the_decomposition_nearest_the_stored_angles() {
        let mut skeleton = Skeleton::default();
        let bind = euler(0.1, 2.0, 0.2);
        skeleton.push("b", None, Transform::from_translation_rotation(Vec3::ZERO, bind));
        let c = BoneController {
            index: 0,
            bone: "b".into(),
            channel: ControllerChannel::YR,
            start: -90.0,
            end: 90.0,
            wraps: false,
            bone_angles: Some(Vec3::new(0.1, 2.0, 0.2)),
            file: 0,
            line: 0,
        };
        let adj = bone_adjustments(&skeleton, &[c], &[10.0]);
        let mut pose = [Transform::from_translation_rotation(Vec3::ZERO, euler(0.1, 2.1, 0.2))];
        apply_adjustments(&mut pose, &adj);
        let expected = euler(0.1, 2.1 + 10f32.to_radians(), 0.2);
        assert!(pose[0].rotation.abs_diff_eq(expected, 1e-4) || pose[0].rotation.abs_diff_eq(-expected, 1e-4));
    }
}
