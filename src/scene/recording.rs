//! Recordings of tracked input (MRTK input animation files): camera pose, two hands of 27 joints with tracked
//! and pinch states, eye gaze, markers. Plain data; evaluating it at a time lives in `anim::unity_curve` and
//! `anim::recording`, reading and writing it in `io::mrtk` / `io::mrtk_write`. Nothing here knows a file's bytes.
//!
//! Every curve is a Unity `AnimationCurve` as the file stores it: raw wrap modes, keys with tangents, weights and
//! weighted mode. Values stay exactly as read (no sorting, no clamping) so that the writer reproduces the file byte
//! for byte; evaluation interprets them. Coordinates are Unity's: left-handed, Y up, metres.

use std::fmt;

/// Unity `WrapMode`: what a curve does before its first and after its last key.
///
/// `AnimationCurve.Evaluate` treats Default, Once and ClampForever alike (hold the end key's value); Once only
/// means "stop" for whole clips. Values that are not a Unity wrap mode are kept (for writing back) and clamp.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub enum WrapMode {
    #[default]
    Default,
    Once,
    Loop,
    PingPong,
    ClampForever,
    /// Any other Int32 found in a file.
    Unknown(i32),
}

impl WrapMode {
    pub fn from_raw(raw: i32) -> Self {
        match raw {
            0 => WrapMode::Default,
            1 => WrapMode::Once,
            2 => WrapMode::Loop,
            4 => WrapMode::PingPong,
            8 => WrapMode::ClampForever,
            other => WrapMode::Unknown(other),
        }
    }

    pub fn raw(self) -> i32 {
        match self {
            WrapMode::Default => 0,
            WrapMode::Once => 1,
            WrapMode::Loop => 2,
            WrapMode::PingPong => 4,
            WrapMode::ClampForever => 8,
            WrapMode::Unknown(v) => v,
        }
    }
}

/// Unity `WeightedMode` bits: 1 = the key's in-weight is used (segment before it), 2 = its out-weight is used
/// (segment after it).
pub mod weighted_mode {
    pub const NONE: i32 = 0;
    pub const IN: i32 = 1;
    pub const OUT: i32 = 2;
    pub const BOTH: i32 = 3;
}

/// One key of a float curve (Unity `Keyframe`). Tangents are in value units per second; an infinite tangent makes
/// the segment on that side stepped.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Keyframe {
    pub time: f32,
    pub value: f32,
    pub in_tangent: f32,
    pub out_tangent: f32,
    pub in_weight: f32,
    pub out_weight: f32,
    /// Raw `WeightedMode` (see [`weighted_mode`]); kept as read.
    pub weighted_mode: i32,
}

impl Keyframe {
    /// The key MRTK's reader makes from a 1.1 time/value pair: zero tangents and weights, weighted mode Both —
    /// which makes the segment linear.
    pub fn linear(time: f32, value: f32) -> Self {
        Self { time, value, weighted_mode: weighted_mode::BOTH, ..Self::default() }
    }

    /// A key whose segments are plain (unweighted) cubic Hermite with the given tangents.
    pub fn hermite(time: f32, value: f32, in_tangent: f32, out_tangent: f32) -> Self {
        Self { time, value, in_tangent, out_tangent, in_weight: 1.0 / 3.0, out_weight: 1.0 / 3.0, weighted_mode: 0 }
    }
}

/// A float `AnimationCurve`.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct FloatCurve {
    pub pre_wrap: WrapMode,
    pub post_wrap: WrapMode,
    /// In file order (Unity writes them with ascending times).
    pub keys: Vec<Keyframe>,
}

impl FloatCurve {
    pub fn new(keys: Vec<Keyframe>) -> Self {
        Self { keys, ..Self::default() }
    }

    /// Time of the last key, 0 when empty.
    pub fn end_time(&self) -> f32 {
        self.keys.last().map_or(0.0, |k| k.time)
    }
}

/// One key of a bool curve: the value switches to `value` at `time` (MRTK reads `value > 0.5` as true).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct BoolKey {
    pub time: f32,
    pub value: f32,
}

/// An on/off curve (hand tracked, pinching): a step function of its keys.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct BoolCurve {
    pub pre_wrap: WrapMode,
    pub post_wrap: WrapMode,
    pub keys: Vec<BoolKey>,
}

impl BoolCurve {
    pub fn new(keys: Vec<BoolKey>) -> Self {
        Self { keys, ..Self::default() }
    }

    pub fn end_time(&self) -> f32 {
        self.keys.last().map_or(0.0, |k| k.time)
    }
}

/// Position X, Y, Z and rotation quaternion X, Y, Z, W — the file's order.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct PoseCurves {
    pub position: [FloatCurve; 3],
    pub rotation: [FloatCurve; 4],
}

impl PoseCurves {
    /// The seven curves in file order.
    pub fn curves(&self) -> impl Iterator<Item = &FloatCurve> {
        self.position.iter().chain(self.rotation.iter())
    }

    pub fn curves_mut(&mut self) -> impl Iterator<Item = &mut FloatCurve> {
        self.position.iter_mut().chain(self.rotation.iter_mut())
    }

    /// True when no curve has a key (a joint that was not recorded).
    pub fn is_empty(&self) -> bool {
        self.curves().all(|c| c.keys.is_empty())
    }

    pub fn key_count(&self) -> usize {
        self.curves().map(|c| c.keys.len()).sum()
    }
}

/// Origin X, Y, Z and direction X, Y, Z — the file's order.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct RayCurves {
    pub origin: [FloatCurve; 3],
    pub direction: [FloatCurve; 3],
}

impl RayCurves {
    pub fn curves(&self) -> impl Iterator<Item = &FloatCurve> {
        self.origin.iter().chain(self.direction.iter())
    }

    pub fn curves_mut(&mut self) -> impl Iterator<Item = &mut FloatCurve> {
        self.origin.iter_mut().chain(self.direction.iter_mut())
    }

    pub fn key_count(&self) -> usize {
        self.curves().map(|c| c.keys.len()).sum()
    }
}

/// Joints per hand (MRTK `TrackedHandJoint`, including `None`).
pub const HAND_JOINT_COUNT: usize = 27;

/// Joint names in file order (MRTK `TrackedHandJoint`).
pub const HAND_JOINT_NAMES: [&str; HAND_JOINT_COUNT] = [
    "None",
    "Wrist",
    "Palm",
    "ThumbMetacarpalJoint",
    "ThumbProximalJoint",
    "ThumbDistalJoint",
    "ThumbTip",
    "IndexMetacarpal",
    "IndexKnuckle",
    "IndexMiddleJoint",
    "IndexDistalJoint",
    "IndexTip",
    "MiddleMetacarpal",
    "MiddleKnuckle",
    "MiddleMiddleJoint",
    "MiddleDistalJoint",
    "MiddleTip",
    "RingMetacarpal",
    "RingKnuckle",
    "RingMiddleJoint",
    "RingDistalJoint",
    "RingTip",
    "PinkyMetacarpal",
    "PinkyKnuckle",
    "PinkyMiddleJoint",
    "PinkyDistalJoint",
    "PinkyTip",
];

/// Index of a joint by its MRTK name (exact), e.g. `joint_index("IndexTip") == Some(11)`.
pub fn joint_index(name: &str) -> Option<usize> {
    HAND_JOINT_NAMES.iter().position(|n| *n == name)
}

/// Bones to draw between joints (parent, child) as joint indices: wrist → each metacarpal → knuckle → middle →
/// distal → tip (the thumb: wrist → metacarpal → proximal → distal → tip). `None` and `Palm` are points only.
pub const HAND_BONES: [(usize, usize); 24] = [
    (1, 3),
    (3, 4),
    (4, 5),
    (5, 6),
    (1, 7),
    (7, 8),
    (8, 9),
    (9, 10),
    (10, 11),
    (1, 12),
    (12, 13),
    (13, 14),
    (14, 15),
    (15, 16),
    (1, 17),
    (17, 18),
    (18, 19),
    (19, 20),
    (20, 21),
    (1, 22),
    (22, 23),
    (23, 24),
    (24, 25),
    (25, 26),
];

/// Which hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Hand {
    Left,
    Right,
}

impl Hand {
    pub const BOTH: [Hand; 2] = [Hand::Left, Hand::Right];

    pub fn index(self) -> usize {
        match self {
            Hand::Left => 0,
            Hand::Right => 1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Hand::Left => "left",
            Hand::Right => "right",
        }
    }
}

/// One hand's curves.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct HandCurves {
    pub tracked: BoolCurve,
    pub pinch: BoolCurve,
    /// One pose curve set per joint, in [`HAND_JOINT_NAMES`] order.
    pub joints: [PoseCurves; HAND_JOINT_COUNT],
}

impl HandCurves {
    pub fn joint_key_count(&self) -> usize {
        self.joints.iter().map(PoseCurves::key_count).sum()
    }

    /// Joints with at least one key.
    pub fn recorded_joints(&self) -> usize {
        self.joints.iter().filter(|j| !j.is_empty()).count()
    }
}

/// A named point on the recording's timeline.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Marker {
    pub time: f32,
    pub name: String,
}

/// How float keys are laid out in the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub enum KeyLayout {
    /// 28 bytes: time, value, in/out tangent, in/out weight, weighted mode (version 1.0; the published 1.1 page).
    #[default]
    Full,
    /// 8 bytes: time, value (what MRTK's own 1.1 writer produces; the reader makes linear keys of them).
    TimeValue,
}

impl KeyLayout {
    pub fn bytes_per_key(self) -> usize {
        match self {
            KeyLayout::Full => 28,
            KeyLayout::TimeValue => 8,
        }
    }

    /// "8-byte keys" / "28-byte keys".
    pub fn short_name(self) -> &'static str {
        match self {
            KeyLayout::Full => "28-byte keys",
            KeyLayout::TimeValue => "8-byte keys",
        }
    }

    /// The other layout.
    pub fn other(self) -> Self {
        match self {
            KeyLayout::Full => KeyLayout::TimeValue,
            KeyLayout::TimeValue => KeyLayout::Full,
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            KeyLayout::Full => "28-byte keys (time, value, tangents, weights, weighted mode)",
            KeyLayout::TimeValue => "8-byte keys (time, value; linear)",
        }
    }
}

/// What the file looked like, so that the writer can produce the same bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RecordingLayout {
    pub major: i32,
    pub minor: i32,
    pub key_layout: KeyLayout,
    /// The file has a marker list after the curves (possibly with 0 markers). Files that end right after the
    /// curves have none.
    pub marker_list: bool,
}

impl RecordingLayout {
    /// Version 1.0: 28-byte keys, no presence flags, no gaze.
    pub const V1_0: Self = Self { major: 1, minor: 0, key_layout: KeyLayout::Full, marker_list: true };
    /// Version 1.1 as MRTK's writer makes it: presence flags, 8-byte keys, a marker list.
    pub const V1_1: Self = Self { major: 1, minor: 1, key_layout: KeyLayout::TimeValue, marker_list: true };

    pub fn version(&self) -> String {
        format!("{}.{}", self.major, self.minor)
    }
}

impl Default for RecordingLayout {
    fn default() -> Self {
        Self::V1_1
    }
}

/// An input recording. `None` streams are absent from the file (version 1.1 flags); version 1.0 always has camera
/// and hands and never gaze.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Recording {
    pub name: String,
    pub layout: RecordingLayout,
    pub camera: Option<PoseCurves>,
    /// Left, right.
    pub hands: Option<[HandCurves; 2]>,
    pub gaze: Option<RayCurves>,
    pub markers: Vec<Marker>,
    /// Largest last-key time over all curves, in seconds (see [`Recording::compute_duration`]).
    pub duration: f32,
}

impl Recording {
    pub fn hand(&self, hand: Hand) -> Option<&HandCurves> {
        self.hands.as_ref().map(|h| &h[hand.index()])
    }

    /// Every float curve, in file order.
    pub fn float_curves(&self) -> impl Iterator<Item = &FloatCurve> {
        let camera = self.camera.iter().flat_map(PoseCurves::curves);
        let hands = self.hands.iter().flat_map(|h| h.iter()).flat_map(|h| h.joints.iter()).flat_map(PoseCurves::curves);
        let gaze = self.gaze.iter().flat_map(RayCurves::curves);
        camera.chain(hands).chain(gaze)
    }

    /// Every bool curve, in file order.
    pub fn bool_curves(&self) -> impl Iterator<Item = &BoolCurve> {
        self.hands.iter().flat_map(|[l, r]| [&l.tracked, &r.tracked, &l.pinch, &r.pinch])
    }

    /// MRTK's rule: the largest last-key time over all curves (0 when there are none). NaN times are ignored.
    pub fn compute_duration(&self) -> f32 {
        let floats = self.float_curves().map(FloatCurve::end_time);
        let bools = self.bool_curves().map(BoolCurve::end_time);
        floats.chain(bools).fold(0.0, f32::max)
    }

    /// Counts and facts for `info` and the recording panel.
    pub fn summary(&self) -> RecordingSummary {
        let mut streams = Vec::new();
        let camera_keys = self.camera.as_ref().map_or(0, PoseCurves::key_count);
        streams.push(StreamSummary::new("camera pose", self.camera.is_some(), 7, camera_keys));
        for hand in Hand::BOTH {
            let h = self.hand(hand);
            let present = h.is_some();
            let name = hand.name();
            streams.push(StreamSummary::new(
                format!("{name} hand tracked"),
                present,
                1,
                h.map_or(0, |h| h.tracked.keys.len()),
            ));
            streams.push(StreamSummary::new(
                format!("{name} hand pinch"),
                present,
                1,
                h.map_or(0, |h| h.pinch.keys.len()),
            ));
            let mut joints = StreamSummary::new(format!("{name} hand joints"), present, 7 * HAND_JOINT_COUNT, 0);
            if let Some(h) = h {
                joints.keys = h.joint_key_count();
                joints.recorded_joints = Some(h.recorded_joints());
            }
            streams.push(joints);
        }
        let gaze_keys = self.gaze.as_ref().map_or(0, RayCurves::key_count);
        streams.push(StreamSummary::new("eye gaze", self.gaze.is_some(), 6, gaze_keys));
        RecordingSummary {
            name: self.name.clone(),
            version: self.layout.version(),
            key_layout: self.layout.key_layout.describe().to_owned(),
            marker_list: self.layout.marker_list,
            duration: self.duration,
            streams,
            markers: self.markers.clone(),
        }
    }
}

/// One stream of a recording in a [`RecordingSummary`].
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct StreamSummary {
    pub name: String,
    pub present: bool,
    /// Float or bool curves in the stream.
    pub curves: usize,
    /// Keys over all its curves.
    pub keys: usize,
    /// For joint streams: joints with at least one key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recorded_joints: Option<usize>,
}

impl StreamSummary {
    fn new(name: impl Into<String>, present: bool, curves: usize, keys: usize) -> Self {
        Self { name: name.into(), present, curves: if present { curves } else { 0 }, keys, recorded_joints: None }
    }
}

/// What `bonescope info` prints about a recording.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RecordingSummary {
    pub name: String,
    pub version: String,
    pub key_layout: String,
    pub marker_list: bool,
    pub duration: f32,
    pub streams: Vec<StreamSummary>,
    pub markers: Vec<Marker>,
}

impl fmt::Display for RecordingSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.name.is_empty() {
            writeln!(f, "recording {}", self.name)?;
        }
        writeln!(f, "MRTK input animation version {}, {}", self.version, self.key_layout)?;
        writeln!(f, "duration {:.3} s", self.duration)?;
        for s in &self.streams {
            if !s.present {
                writeln!(f, "  {:<20} absent", s.name)?;
                continue;
            }
            write!(f, "  {:<20} {:>4} curve(s) {:>8} key(s)", s.name, s.curves, s.keys)?;
            if let Some(j) = s.recorded_joints {
                write!(f, ", {j} of {HAND_JOINT_COUNT} joints recorded")?;
            }
            writeln!(f)?;
        }
        if !self.marker_list {
            writeln!(f, "no marker list")?;
        } else {
            writeln!(f, "{} marker(s)", self.markers.len())?;
            for m in &self.markers {
                writeln!(f, "  {:>9.3} s  {}", m.time, m.name)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joint_table_matches_the_spec_order() {
        assert_eq!(HAND_JOINT_NAMES.len(), 27);
        assert_eq!(joint_index("Wrist"), Some(1));
        assert_eq!(joint_index("ThumbTip"), Some(6));
        assert_eq!(joint_index("IndexTip"), Some(11));
        assert_eq!(joint_index("PinkyTip"), Some(26));
        // Every joint but None and Palm is the child of exactly one bone; tips are never parents.
        for (j, name) in HAND_JOINT_NAMES.iter().enumerate().skip(1) {
            let as_child = HAND_BONES.iter().filter(|(_, c)| *c == j).count();
            let expected = usize::from(j != 1 && j != 2);
            assert_eq!(as_child, expected, "{name}");
            if name.ends_with("Tip") {
                assert!(HAND_BONES.iter().all(|(p, _)| *p != j));
            }
        }
    }

    #[test]
    fn wrap_modes_keep_unknown_values() {
        for raw in [0, 1, 2, 4, 8, 3, -1, 1000] {
            assert_eq!(WrapMode::from_raw(raw).raw(), raw);
        }
        assert_eq!(WrapMode::from_raw(4), WrapMode::PingPong);
    }

    #[test]
    fn duration_is_the_latest_key_over_all_curves() {
        let mut rec = Recording { camera: Some(PoseCurves::default()), ..Recording::default() };
        let cam = rec.camera.as_mut().unwrap();
        cam.position[1].keys = vec![Keyframe::linear(0.0, 1.0), Keyframe::linear(2.5, 1.0)];
        let mut hands: [HandCurves; 2] = Default::default();
        hands[1].pinch.keys = vec![BoolKey { time: 3.25, value: 1.0 }];
        rec.hands = Some(hands);
        assert_eq!(rec.compute_duration(), 3.25);
        let s = rec.summary();
        assert_eq!(s.streams.iter().find(|s| s.name == "camera pose").unwrap().keys, 2);
        assert_eq!(s.streams.iter().find(|s| s.name == "right hand pinch").unwrap().keys, 1);
        assert!(!s.streams.iter().find(|s| s.name == "eye gaze").unwrap().present);
        assert!(s.to_string().contains("eye gaze"));
    }
}
