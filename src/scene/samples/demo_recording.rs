//! A demo MRTK input recording made by code: about four seconds in which two hands open, the left then the
//! right pinches (thumb tip meeting index tip), both relax, while the head turns from side to side and the eye
//! gaze sweeps faster than the head. Keys are sampled at 30 Hz the way MRTK's recorder stores them (version 1.1,
//! 8-byte linear keys, every joint but `None` keyed on every frame), in Unity's frame: left-handed, Y up,
//! metres, the user at the origin looking down +Z. Tests and benches write it with `io::mrtk_write`; the
//! `make_recording` example puts it in `assets/`. Nothing here reads or writes files.

use std::f32::consts::{PI, TAU};

use glam::{Quat, Vec3};

use crate::scene::{
    BoolCurve, BoolKey, FloatCurve, HAND_JOINT_COUNT, Hand, HandCurves, Keyframe, Marker, PoseCurves, RayCurves,
    Recording, RecordingLayout,
};

/// Length of the demo in seconds.
pub const DURATION: f32 = 4.0;
/// Key rate.
pub const RATE: f32 = 30.0;

/// The demo recording (4 s at 30 Hz).
pub fn demo_recording() -> Recording {
    recording_with(DURATION, RATE)
}

/// The demo's motion over `duration` seconds sampled at `rate` Hz (the motion repeats every 4 s); benches use
/// long versions of it.
pub fn recording_with(duration: f32, rate: f32) -> Recording {
    let frames = (duration * rate).round().max(1.0) as usize + 1;
    let mut camera = PoseBuilder::default();
    let mut gaze: [Vec<Keyframe>; 6] = Default::default();
    let mut joints: [[PoseBuilder; HAND_JOINT_COUNT]; 2] = Default::default();
    for f in 0..frames {
        let t = (f as f32 / rate).min(duration);
        let phase = t % DURATION;
        let (head_pos, head_rot) = head(phase);
        camera.push(t, head_pos, head_rot);
        let (origin, direction) = gaze_ray(phase, head_pos, head_rot);
        for (c, v) in gaze.iter_mut().zip(origin.to_array().into_iter().chain(direction.to_array())) {
            c.push(Keyframe::linear(t, v));
        }
        for hand in Hand::BOTH {
            let pose = hand_pose(hand, phase);
            // Joint 0 (`None`) is not a real joint; MRTK leaves it unrecorded.
            for (j, (p, q)) in pose.iter().enumerate().skip(1) {
                joints[hand.index()][j].push(t, *p, *q);
            }
        }
    }
    let [left, right] = joints;
    let hands = [hand_curves(Hand::Left, left, duration), hand_curves(Hand::Right, right, duration)];
    let [ox, oy, oz, dx, dy, dz] = gaze.map(FloatCurve::new);
    let mut rec = Recording {
        name: "demo".to_owned(),
        layout: RecordingLayout::V1_1,
        camera: Some(camera.finish()),
        hands: Some(hands),
        gaze: Some(RayCurves { origin: [ox, oy, oz], direction: [dx, dy, dz] }),
        markers: [(0.8, "hands open"), (1.6, "left pinch"), (2.8, "right pinch"), (3.4, "release")]
            .into_iter()
            .filter(|(time, _)| *time <= duration)
            .map(|(time, name)| Marker { time, name: name.to_owned() })
            .collect(),
        duration: 0.0,
    };
    rec.duration = rec.compute_duration();
    rec
}

/// Collects pose keys, keeping quaternions in one hemisphere so that component interpolation takes the short
/// way.
#[derive(Default)]
struct PoseBuilder {
    keys: [Vec<Keyframe>; 7],
    last: Option<Quat>,
}

impl PoseBuilder {
    fn push(&mut self, t: f32, p: Vec3, q: Quat) {
        let q = match self.last {
            Some(prev) if prev.dot(q) < 0.0 => -q,
            _ => q,
        };
        self.last = Some(q);
        let values = [p.x, p.y, p.z, q.x, q.y, q.z, q.w];
        for (c, v) in self.keys.iter_mut().zip(values) {
            c.push(Keyframe::linear(t, v));
        }
    }

    fn finish(self) -> PoseCurves {
        let [px, py, pz, qx, qy, qz, qw] = self.keys.map(FloatCurve::new);
        PoseCurves { position: [px, py, pz], rotation: [qx, qy, qz, qw] }
    }
}

fn hand_curves(hand: Hand, joints: [PoseBuilder; HAND_JOINT_COUNT], duration: f32) -> HandCurves {
    let joints = joints.map(PoseBuilder::finish);
    // Tracking: the right hand comes into view at 0.25 s; the left one is lost at 3.75 s.
    let tracked = match hand {
        Hand::Left => steps(&[(0.0, true), (3.75, false)], duration),
        Hand::Right => steps(&[(0.0, false), (0.25, true)], duration),
    };
    // Pinching while the pinch amount is over 0.7 (found on a fine grid).
    let mut pinch_keys = vec![(0.0, false)];
    let mut state = false;
    let n = (duration * 200.0) as usize;
    for i in 0..=n {
        let t = i as f32 / 200.0;
        let now = pinch_amount(hand, t % DURATION) > 0.7;
        if now != state {
            pinch_keys.push((t, now));
            state = now;
        }
    }
    HandCurves { tracked, pinch: steps(&pinch_keys, duration), joints }
}

fn steps(keys: &[(f32, bool)], duration: f32) -> BoolCurve {
    BoolCurve::new(
        keys.iter()
            .filter(|(t, _)| *t <= duration)
            .map(|&(time, on)| BoolKey { time, value: if on { 1.0 } else { 0.0 } })
            .collect(),
    )
}

fn smoothstep(e0: f32, e1: f32, x: f32) -> f32 {
    let s = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    s * s * (3.0 - 2.0 * s)
}

/// Head: standing at 1.6 m, turning ±20° over the four seconds and nodding slightly.
fn head(t: f32) -> (Vec3, Quat) {
    let yaw = 0.35 * (TAU * t / DURATION).sin();
    let pitch = 0.06 * (TAU * t / 2.0).sin();
    let pos = Vec3::new(0.03 * (TAU * t / DURATION).sin(), 1.6 + 0.01 * (TAU * t / 2.0).sin(), 0.0);
    (pos, Quat::from_rotation_y(yaw) * Quat::from_rotation_x(pitch))
}

/// Gaze: from between the eyes, sweeping ±25° around the head's forward twice as fast as the head turns.
fn gaze_ray(t: f32, head_pos: Vec3, head_rot: Quat) -> (Vec3, Vec3) {
    let sweep = Quat::from_rotation_y(0.45 * (TAU * t / 2.0).sin()) * Quat::from_rotation_x(0.12 * (PI * t).cos());
    let origin = head_pos + head_rot * Vec3::new(0.0, -0.02, 0.08);
    (origin, (head_rot * sweep * Vec3::Z).normalize())
}

/// How open the fingers are: curled at the start, open by 0.8 s, half closed again at the end.
fn openness(t: f32) -> f32 {
    0.2 + 0.8 * smoothstep(0.0, 0.8, t) - 0.45 * smoothstep(3.4, 4.0, t)
}

/// How far the thumb and index close in: the left hand around 1.6 s, the right around 2.8 s.
fn pinch_amount(hand: Hand, t: f32) -> f32 {
    let (start, end) = match hand {
        Hand::Left => (1.1, 2.3),
        Hand::Right => (2.3, 3.5),
    };
    smoothstep(start, start + 0.4, t) * (1.0 - smoothstep(end - 0.4, end, t))
}

/// A finger of the right hand in the hand's frame (palm down, fingers along +Z, thumb towards −X).
struct Finger {
    metacarpal: Vec3,
    knuckle: Vec3,
    lengths: [f32; 3],
    /// Spread angle about Y.
    yaw: f32,
    /// Flexion of each segment when fully curled.
    curl: [f32; 3],
}

const FINGERS: [Finger; 4] = [
    Finger {
        metacarpal: Vec3::new(-0.018, 0.0, 0.02),
        knuckle: Vec3::new(-0.026, 0.0, 0.09),
        lengths: [0.04, 0.024, 0.02],
        yaw: -0.08,
        curl: [1.1, 1.4, 0.9],
    },
    Finger {
        metacarpal: Vec3::new(-0.005, 0.0, 0.02),
        knuckle: Vec3::new(-0.006, 0.0, 0.095),
        lengths: [0.044, 0.028, 0.022],
        yaw: 0.0,
        curl: [1.2, 1.4, 0.9],
    },
    Finger {
        metacarpal: Vec3::new(0.008, 0.0, 0.02),
        knuckle: Vec3::new(0.013, -0.002, 0.09),
        lengths: [0.041, 0.026, 0.021],
        yaw: 0.07,
        curl: [1.25, 1.4, 0.9],
    },
    Finger {
        metacarpal: Vec3::new(0.02, 0.0, 0.018),
        knuckle: Vec3::new(0.03, -0.005, 0.08),
        lengths: [0.032, 0.02, 0.018],
        yaw: 0.16,
        curl: [1.3, 1.4, 0.9],
    },
];

/// Rotation whose +Z points along `dir` with +Y as close to `up` as possible (MRTK joints look down the bone,
/// up out of the back of the hand).
fn look_rotation(dir: Vec3, up: Vec3) -> Quat {
    let z = dir.normalize();
    let x = up.cross(z).normalize();
    let y = z.cross(x);
    Quat::from_mat3(&glam::Mat3::from_cols(x, y, z))
}

const THUMB_BASE: Vec3 = Vec3::new(-0.02, -0.012, 0.025);
const THUMB_LENGTHS: [f32; 3] = [0.048, 0.036, 0.03];

/// Thumb joints (metacarpal, proximal, distal, tip) for a yaw about Y, a roll about the thumb and a flexion
/// spread over its three bones.
fn thumb_chain(yaw: f32, roll: f32, flex: f32) -> [(Vec3, Quat); 4] {
    let mut out = [(Vec3::ZERO, Quat::IDENTITY); 4];
    let mut p = THUMB_BASE;
    let mut rot = Quat::from_rotation_y(yaw) * Quat::from_rotation_z(roll);
    for (i, len) in THUMB_LENGTHS.into_iter().enumerate() {
        out[i] = (p, rot);
        rot *= Quat::from_rotation_x(flex * [0.5, 0.9, 0.7][i]);
        p += rot * Vec3::new(0.0, 0.0, len);
    }
    out[3] = (p, rot);
    out
}

/// Thumb parameters whose tip comes closest to `target` (a shrinking grid search; cheap at this size).
fn thumb_reaching(target: Vec3, start: [f32; 3]) -> [f32; 3] {
    let mut best = start;
    let mut best_d = f32::INFINITY;
    let mut span = [0.9f32, 0.9, 0.9];
    for _ in 0..6 {
        let centre = best;
        for i in -2..=2 {
            for j in -2..=2 {
                for k in -2..=2 {
                    let c = [
                        centre[0] + span[0] * i as f32 / 2.0,
                        centre[1] + span[1] * j as f32 / 2.0,
                        (centre[2] + span[2] * k as f32 / 2.0).max(0.0),
                    ];
                    let d = (thumb_chain(c[0], c[1], c[2])[3].0 - target).length();
                    if d < best_d {
                        best_d = d;
                        best = c;
                    }
                }
            }
        }
        span = span.map(|s| s * 0.5);
    }
    best
}

/// Joint poses of the right hand in its own frame at openness `open` and pinch `pinch`.
fn right_hand_local(open: f32, pinch: f32) -> [(Vec3, Quat); HAND_JOINT_COUNT] {
    let mut out = [(Vec3::ZERO, Quat::IDENTITY); HAND_JOINT_COUNT];
    out[1] = (Vec3::ZERO, Quat::IDENTITY);
    out[2] = (Vec3::new(-0.004, -0.012, 0.05), Quat::IDENTITY);
    for (f, finger) in FINGERS.iter().enumerate() {
        let base = 7 + 5 * f;
        let extra = if f == 0 { [0.85, 0.8, 0.4].map(|e| e * pinch) } else { [0.0; 3] };
        out[base] = (finger.metacarpal, look_rotation(finger.knuckle - finger.metacarpal, Vec3::Y));
        let mut p = finger.knuckle;
        let mut rot = Quat::from_rotation_y(finger.yaw);
        for s in 0..3 {
            rot *= Quat::from_rotation_x(finger.curl[s] * (1.0 - open) + extra[s]);
            out[base + 1 + s] = (p, rot);
            p += rot * Vec3::new(0.0, 0.0, finger.lengths[s]);
        }
        out[base + 4] = (p, rot);
    }
    // Thumb: resting beside the palm, bending in as the hand closes; when pinching it swings over to meet the
    // index tip.
    let rest = [-0.75, -0.6, 0.25 + 0.25 * (1.0 - open)];
    let params = if pinch > 0.0 {
        let target = out[11].0;
        let reach = thumb_reaching(target, rest);
        std::array::from_fn(|i| rest[i] + (reach[i] - rest[i]) * pinch)
    } else {
        rest
    };
    let thumb = thumb_chain(params[0], params[1], params[2]);
    out[3..7].copy_from_slice(&thumb);
    out
}

/// Joint poses of a hand in the world at time `t` (within one 4-second cycle).
fn hand_pose(hand: Hand, t: f32) -> [(Vec3, Quat); HAND_JOINT_COUNT] {
    let local = right_hand_local(openness(t), pinch_amount(hand, t));
    let side = match hand {
        Hand::Left => -1.0,
        Hand::Right => 1.0,
    };
    let bob = 0.015 * (TAU * t / 2.0 + side).sin();
    let wrist = Vec3::new(0.16 * side, 1.3 + bob, 0.33);
    // Fingers slightly up, thumb side rolled up and inwards.
    let orient =
        Quat::from_rotation_y(-0.25 * side) * Quat::from_rotation_x(-0.35) * Quat::from_rotation_z(-0.6 * side);
    local.map(|(p, q)| {
        // The left hand is the right one mirrored across the hand's YZ plane.
        let (p, q) = match hand {
            Hand::Right => (p, q),
            Hand::Left => (Vec3::new(-p.x, p.y, p.z), Quat::from_xyzw(q.x, -q.y, -q.z, q.w)),
        };
        (wrist + orient * p, orient * q)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::recording::RecordingPose;
    use crate::scene::joint_index;

    #[test]
    fn demo_is_four_seconds_of_both_hands_gaze_and_camera() {
        let rec = demo_recording();
        assert_eq!(rec.duration, DURATION);
        let hands = rec.hands.as_ref().unwrap();
        assert_eq!(hands[0].recorded_joints(), 26);
        assert_eq!(rec.camera.as_ref().unwrap().position[0].keys.len(), 121);
        assert_eq!(rec.markers.len(), 4);
    }

    #[test]
    fn hands_pinch_in_turn_with_thumb_meeting_index() {
        let rec = demo_recording();
        let (thumb, index) = (joint_index("ThumbTip").unwrap(), joint_index("IndexTip").unwrap());
        let gap = |p: &crate::anim::recording::HandPose| (p.joints[thumb].position - p.joints[index].position).length();
        let at_left = RecordingPose::at(&rec, 1.7);
        let at_right = RecordingPose::at(&rec, 2.9);
        let open = RecordingPose::at(&rec, 0.9);
        assert!(at_left.left.pinching && !at_left.right.pinching);
        assert!(at_right.right.pinching && !at_right.left.pinching);
        assert!(!open.left.pinching && !open.right.pinching);
        assert!(gap(&at_left.left) < 0.01, "left pinch gap {}", gap(&at_left.left));
        assert!(gap(&at_right.right) < 0.01, "right pinch gap {}", gap(&at_right.right));
        assert!(gap(&open.left) > 0.05, "open gap {}", gap(&open.left));
        // Mirror images: at the same pinch amount the hands are symmetric about x = 0.
        let l = open.left.joints[index].position;
        let r = open.right.joints[index].position;
        assert!((l.x + r.x).abs() < 1e-4 && (l.z - r.z).abs() < 0.02, "{l} {r}");
    }

    #[test]
    fn bones_keep_their_lengths_while_fingers_move() {
        let rec = demo_recording();
        let len =
            |p: &RecordingPose, a: usize, b: usize| (p.right.joints[a].position - p.right.joints[b].position).length();
        let first = RecordingPose::at(&rec, 0.0);
        for i in 1..40 {
            let t = i as f32 * 0.1;
            let p = RecordingPose::at(&rec, t);
            for (a, b) in crate::scene::HAND_BONES {
                // Sampled keys are exact; linear interpolation between 30 Hz keys shortens bones a little.
                let (l0, l1) = (len(&first, a, b), len(&p, a, b));
                assert!((l0 - l1).abs() < 0.002, "bone {a}-{b} at {t}: {l0} vs {l1}");
            }
        }
    }

    #[test]
    fn head_turns_and_gaze_sweeps() {
        let rec = demo_recording();
        let yaw = |t: f32| {
            let f = RecordingPose::at(&rec, t).camera.unwrap().rotation * Vec3::Z;
            f.x.atan2(f.z)
        };
        assert!(yaw(1.0) > 0.3 && yaw(3.0) < -0.3);
        let g = RecordingPose::at(&rec, 0.5).gaze.unwrap();
        assert!((g.direction.length() - 1.0).abs() < 1e-5);
        let g2 = RecordingPose::at(&rec, 1.5).gaze.unwrap();
        assert!(g.direction.angle_between(g2.direction) > 0.3);
    }
}
