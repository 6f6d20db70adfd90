//! Evaluating a whole MRTK [`Recording`] at a time: both hands (tracked, pinching, 27 joint poses), the eye-gaze
//! ray and the camera pose, written into a [`RecordingPose`] the caller keeps between frames. The pose also keeps
//! one segment hint per curve, so scrubbing or playing forward finds each curve's segment in O(1); evaluation
//! never allocates. Values stay in the file's frame (Unity: left-handed, Y up) — the asset's `AxisConversion`
//! takes them to the viewer. No I/O, no GPU.

use glam::{Quat, Vec3};

use super::unity_curve::{evaluate_bool, evaluate_with_hint};
use crate::scene::{HAND_JOINT_COUNT, HAND_JOINT_NAMES, Hand, HandCurves, PoseCurves, RayCurves, Recording};

/// One joint of an evaluated hand.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct JointPose {
    pub name: &'static str,
    /// False when the file has no keys for this joint (its pose is then the origin with no rotation).
    pub recorded: bool,
    pub position: Vec3,
    pub rotation: Quat,
}

impl Default for JointPose {
    fn default() -> Self {
        Self { name: "", recorded: false, position: Vec3::ZERO, rotation: Quat::IDENTITY }
    }
}

/// One evaluated hand.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct HandPose {
    /// The recording has hand data (version 1.0 always does; 1.1 says so in its header).
    pub present: bool,
    pub tracked: bool,
    pub pinching: bool,
    /// In [`HAND_JOINT_NAMES`] order (index 0 is `None`).
    pub joints: [JointPose; HAND_JOINT_COUNT],
}

impl Default for HandPose {
    fn default() -> Self {
        Self {
            present: false,
            tracked: false,
            pinching: false,
            joints: std::array::from_fn(|i| JointPose { name: HAND_JOINT_NAMES[i], ..JointPose::default() }),
        }
    }
}

/// A position and rotation (camera, head).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct PoseSample {
    pub position: Vec3,
    pub rotation: Quat,
}

/// The eye-gaze ray; `direction` is unit length (zero when the curves give a zero vector).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct GazeRay {
    pub origin: Vec3,
    pub direction: Vec3,
}

// One segment hint per curve, in file order: camera 7, per hand 2 bool + 27 × 7, gaze 6.
const CAMERA_SLOT: usize = 0;
const HAND_SLOTS: usize = 2 + 7 * HAND_JOINT_COUNT;
const fn hand_slot(hand: usize) -> usize {
    7 + hand * HAND_SLOTS
}
const GAZE_SLOT: usize = hand_slot(2);
const SLOTS: usize = GAZE_SLOT + 6;

#[derive(Clone, PartialEq)]
struct SegmentHints([u32; SLOTS]);

impl Default for SegmentHints {
    fn default() -> Self {
        Self([0; SLOTS])
    }
}

impl std::fmt::Debug for SegmentHints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SegmentHints({SLOTS})")
    }
}

/// Everything a recording says at one time, in the file's frame. Reuse one value across frames: evaluation
/// overwrites it and keeps its segment hints.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct RecordingPose {
    pub time: f32,
    pub left: HandPose,
    pub right: HandPose,
    /// `None` when the recording has no eye gaze.
    pub gaze: Option<GazeRay>,
    /// `None` when the recording has no camera pose.
    pub camera: Option<PoseSample>,
    #[serde(skip)]
    hints: SegmentHints,
}

impl RecordingPose {
    /// Convenience: a fresh pose evaluated at `t`.
    pub fn at(rec: &Recording, t: f32) -> Self {
        let mut pose = Self::default();
        evaluate(rec, t, &mut pose);
        pose
    }

    pub fn hand(&self, hand: Hand) -> &HandPose {
        match hand {
            Hand::Left => &self.left,
            Hand::Right => &self.right,
        }
    }
}

/// Evaluates every stream of `rec` at `t` into `out` (no allocation).
pub fn evaluate(rec: &Recording, t: f32, out: &mut RecordingPose) {
    out.time = t;
    let hints = &mut out.hints.0;
    out.camera = rec.camera.as_ref().map(|c| {
        let (position, rotation) = evaluate_pose(c, t, &mut hints[CAMERA_SLOT..CAMERA_SLOT + 7]);
        PoseSample { position, rotation }
    });
    for hand in Hand::BOTH {
        let curves = rec.hands.as_ref().map(|h| &h[hand.index()]);
        let pose = match hand {
            Hand::Left => &mut out.left,
            Hand::Right => &mut out.right,
        };
        let slot = hand_slot(hand.index());
        evaluate_hand(curves, t, &mut hints[slot..slot + HAND_SLOTS], pose);
    }
    out.gaze = rec.gaze.as_ref().map(|g| evaluate_ray(g, t, &mut hints[GAZE_SLOT..GAZE_SLOT + 6]));
}

fn evaluate_hand(curves: Option<&HandCurves>, t: f32, hints: &mut [u32], out: &mut HandPose) {
    let Some(curves) = curves else {
        *out = HandPose::default();
        return;
    };
    let (state, joint_hints) = hints.split_at_mut(2);
    out.present = true;
    out.tracked = evaluate_bool(&curves.tracked, t, &mut state[0]);
    out.pinching = evaluate_bool(&curves.pinch, t, &mut state[1]);
    for ((joint, pose), h) in curves.joints.iter().zip(out.joints.iter_mut()).zip(joint_hints.chunks_exact_mut(7)) {
        pose.recorded = !joint.is_empty();
        (pose.position, pose.rotation) = evaluate_pose(joint, t, h);
    }
}

fn evaluate_pose(curves: &PoseCurves, t: f32, hints: &mut [u32]) -> (Vec3, Quat) {
    let mut v = [0.0f32; 7];
    for ((curve, h), v) in curves.curves().zip(hints.iter_mut()).zip(v.iter_mut()) {
        *v = evaluate_with_hint(curve, t, h);
    }
    let [px, py, pz, qx, qy, qz, qw] = v;
    (Vec3::new(px, py, pz), normalised(Quat::from_xyzw(qx, qy, qz, qw)))
}

fn evaluate_ray(curves: &RayCurves, t: f32, hints: &mut [u32]) -> GazeRay {
    let mut v = [0.0f32; 6];
    for ((curve, h), v) in curves.curves().zip(hints.iter_mut()).zip(v.iter_mut()) {
        *v = evaluate_with_hint(curve, t, h);
    }
    let [ox, oy, oz, dx, dy, dz] = v;
    GazeRay { origin: Vec3::new(ox, oy, oz), direction: Vec3::new(dx, dy, dz).normalize_or_zero() }
}

/// Component-interpolated quaternions are not unit length; a zero or non-finite one (empty curves) is identity.
fn normalised(q: Quat) -> Quat {
    let len2 = q.length_squared();
    if len2.is_finite() && len2 > 1e-12 { q * len2.sqrt().recip() } else { Quat::IDENTITY }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{BoolKey, FloatCurve, Keyframe};

    fn lin(points: &[(f32, f32)]) -> FloatCurve {
        FloatCurve::new(points.iter().map(|&(t, v)| Keyframe::linear(t, v)).collect())
    }

    fn constant_pose(p: Vec3, q: Quat) -> PoseCurves {
        PoseCurves {
            position: [lin(&[(0.0, p.x)]), lin(&[(0.0, p.y)]), lin(&[(0.0, p.z)])],
            rotation: [lin(&[(0.0, q.x)]), lin(&[(0.0, q.y)]), lin(&[(0.0, q.z)]), lin(&[(0.0, q.w)])],
        }
    }

    #[test]
    fn rotation_is_normalised_after_component_interpolation() {
        // Halfway between identity and a 90° turn about Y, component-wise: (0, 0.3535, 0, 0.8535) → normalised.
        let s = std::f32::consts::FRAC_1_SQRT_2;
        let camera = PoseCurves {
            position: [lin(&[(0.0, 0.0), (1.0, 2.0)]), lin(&[(0.0, 1.6)]), FloatCurve::default()],
            rotation: [
                lin(&[(0.0, 0.0)]),
                lin(&[(0.0, 0.0), (1.0, s)]),
                lin(&[(0.0, 0.0)]),
                lin(&[(0.0, 1.0), (1.0, s)]),
            ],
        };
        let rec = Recording { camera: Some(camera), ..Recording::default() };
        let pose = RecordingPose::at(&rec, 0.5);
        let cam = pose.camera.unwrap();
        assert!((cam.position - Vec3::new(1.0, 1.6, 0.0)).length() < 1e-6);
        assert!((cam.rotation.length() - 1.0).abs() < 1e-6);
        // Component lerp + normalise of a 90° pair lands on 45° exactly (symmetric).
        let expected = Quat::from_rotation_y(std::f32::consts::FRAC_PI_4);
        assert!(cam.rotation.angle_between(expected) < 1e-4, "{:?}", cam.rotation);
        assert!(pose.gaze.is_none());
        assert!(!pose.left.present && !pose.right.present);
    }

    #[test]
    fn hands_gaze_and_states() {
        let mut hands: [HandCurves; 2] = Default::default();
        hands[0].tracked.keys = vec![BoolKey { time: 0.0, value: 1.0 }, BoolKey { time: 2.0, value: 0.0 }];
        hands[1].pinch.keys = vec![BoolKey { time: 0.0, value: 0.0 }, BoolKey { time: 1.0, value: 1.0 }];
        let tip = crate::scene::joint_index("IndexTip").unwrap();
        hands[1].joints[tip] = constant_pose(Vec3::new(0.1, 1.2, 0.3), Quat::from_rotation_x(0.5));
        let gaze = RayCurves {
            origin: [lin(&[(0.0, 0.0)]), lin(&[(0.0, 1.6)]), lin(&[(0.0, 0.0)])],
            direction: [lin(&[(0.0, 0.0), (2.0, 2.0)]), lin(&[(0.0, 0.0)]), lin(&[(0.0, 2.0)])],
        };
        let rec = Recording { hands: Some(hands), gaze: Some(gaze), ..Recording::default() };
        let mut pose = RecordingPose::default();
        evaluate(&rec, 1.0, &mut pose);
        assert!(pose.left.present && pose.left.tracked && !pose.left.pinching);
        assert!(pose.right.pinching && !pose.right.tracked);
        let j = pose.right.joints[tip];
        assert_eq!(j.name, "IndexTip");
        assert!(j.recorded && (j.position - Vec3::new(0.1, 1.2, 0.3)).length() < 1e-6);
        assert!(j.rotation.angle_between(Quat::from_rotation_x(0.5)) < 1e-5);
        assert!(!pose.right.joints[1].recorded);
        assert_eq!(pose.right.joints[1].rotation, Quat::IDENTITY);
        let g = pose.gaze.unwrap();
        // Direction (1, 0, 2) normalised.
        assert!((g.direction - Vec3::new(1.0, 0.0, 2.0).normalize()).length() < 1e-6);
        evaluate(&rec, 2.5, &mut pose);
        assert!(!pose.left.tracked);
        assert!(pose.camera.is_none());
        let json = serde_json::to_string(&pose).unwrap();
        assert!(json.contains("\"IndexTip\"") && !json.contains("hints"));
    }
}
