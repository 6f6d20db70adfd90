//! Reader of MRTK input animation recordings (versions 1.0 and 1.1, see `specs/mrtk-input-animation.md`) into a
//! [`Recording`]. It owns the byte layout only: no evaluation (that is `anim::unity_curve`), no writing (that is
//! `io::mrtk_write`, which must stay its exact mirror so that read → write reproduces the file).
//!
//! The file is .NET `BinaryWriter` output: little-endian, one-byte bools, strings as a 7-bit-encoded length plus
//! UTF-8. Version 1.1 exists with two key layouts (MRTK's writer: 8-byte time/value keys; the published page:
//! 28-byte keys), which nothing in the file tells apart, so 1.1 is parsed with 8-byte keys first and, when that
//! does not consume the file exactly, again with 28-byte keys. Every count is checked against the bytes that
//! remain before anything is allocated from it. Recordings are in Unity's frame (left-handed, Y up, metres);
//! the asset's [`AxisConversion`] mirrors Z to reach the viewer's right-handed frame.

use std::fmt;

use super::{LoadError, LoadErrorKind, LoadOptions, MRTK_MAGIC};
use crate::scene::{
    Asset, AxisConversion, BoolCurve, BoolKey, FloatCurve, Format, HAND_JOINT_NAMES, Hand, HandCurves, KeyLayout,
    Keyframe, Marker, PoseCurves, Position, RayCurves, Recording, RecordingLayout, Warning, WrapMode, weighted_mode,
};

/// Loads a recording as an asset (format Mrtk, one recording, Unity → viewer axes).
pub fn load(bytes: &[u8], _opts: &LoadOptions) -> Result<Asset, LoadError> {
    let (recording, warnings) = read_recording(bytes)?;
    let mut asset = Asset::new(Format::Mrtk);
    asset.recordings.push(recording);
    asset.axes = AxisConversion::unity_left_handed();
    asset.warnings = warnings;
    Ok(asset)
}

/// Parses a recording. Warnings are problems the file survives (and that make the writer's bytes differ from
/// the file's): bool bytes other than 0/1, unknown wrap or weighted modes, keys out of time order, marker names
/// that are not UTF-8 or whose length is not minimally encoded, bytes after the marker list.
pub fn read_recording(bytes: &[u8]) -> Result<(Recording, Vec<Warning>), LoadError> {
    let mut r = Reader::new(bytes);
    let magic = r.take(8, || "the file ends inside the 8-byte magic number".to_owned())?;
    if magic != MRTK_MAGIC {
        let found = magic.iter().rev().map(|b| format!("{b:02x}")).collect::<String>();
        return Err(LoadError::at_byte(
            0,
            format!("not an MRTK input animation: magic is 0x{found}, expected 0x6a8faf6e0f9e42c6"),
        )
        .with_kind(LoadErrorKind::NotThisFormat));
    }
    let major = r.i32(|| "the file ends inside the major version".to_owned())?;
    let minor = r.i32(|| "the file ends inside the minor version".to_owned())?;
    match (major, minor) {
        (1, 0) => {
            let mut p = Parse::new(bytes, KeyLayout::Full);
            let rec = p.recording(major, minor)?;
            Ok((rec, p.finish()))
        }
        (1, 1) => read_v1_1(bytes),
        _ => Err(LoadError::at_byte(
            8,
            format!("MRTK input animation version {major}.{minor} is not supported (bonescope reads 1.0 and 1.1)"),
        )
        .with_kind(LoadErrorKind::Unsupported)),
    }
}

/// Version 1.1: 8-byte keys unless only 28-byte keys make the file add up.
fn read_v1_1(bytes: &[u8]) -> Result<(Recording, Vec<Warning>), LoadError> {
    let mut short = Parse::new(bytes, KeyLayout::TimeValue);
    let short_result = match short.recording(1, 1) {
        Ok(rec) if short.trailing == 0 => return Ok((rec, short.finish())),
        other => other,
    };
    let mut full = Parse::new(bytes, KeyLayout::Full);
    let full_result = full.recording(1, 1);
    match (short_result, full_result) {
        (_, Ok(rec)) if full.trailing == 0 => Ok((rec, full.finish())),
        (Ok(rec), _) => Ok((rec, short.finish())),
        (Err(_), Ok(rec)) => Ok((rec, full.finish())),
        (Err(a), Err(b)) => {
            // Failing before the first key, both readings agree: nothing to add.
            if a == b {
                return Err(a);
            }
            // Report the reading that got further (the likelier layout) and where the other one stopped.
            let (mut best, other, other_layout) =
                if byte_of(&a) >= byte_of(&b) { (a, b, KeyLayout::Full) } else { (b, a, KeyLayout::TimeValue) };
            best.message = format!(
                "{} (read as {}; as {} it fails at {}: {})",
                best.message,
                other_layout.other().short_name(),
                other_layout.short_name(),
                other.position,
                other.message
            );
            Err(best)
        }
    }
}

fn byte_of(e: &LoadError) -> u64 {
    match e.position {
        Position::Byte(b) => b,
        _ => 0,
    }
}

/// Bounds-checked little-endian cursor.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0 }
    }

    fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// `n` bytes, or an error at the current offset built by `what` (only on failure, so no allocation on the
    /// happy path).
    fn take(&mut self, n: usize, what: impl FnOnce() -> String) -> Result<&'a [u8], LoadError> {
        let start = self.pos;
        match start.checked_add(n).and_then(|end| self.bytes.get(start..end)) {
            Some(s) => {
                self.pos = start + n;
                Ok(s)
            }
            None => Err(LoadError::truncated(
                start as u64,
                format!("{} ({n} bytes needed, {} remain)", what(), self.remaining()),
            )),
        }
    }

    fn array<const N: usize>(&mut self, what: impl FnOnce() -> String) -> Result<[u8; N], LoadError> {
        let s = self.take(N, what)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    fn i32(&mut self, what: impl FnOnce() -> String) -> Result<i32, LoadError> {
        self.array::<4>(what).map(i32::from_le_bytes)
    }

    fn f32(&mut self, what: impl FnOnce() -> String) -> Result<f32, LoadError> {
        self.array::<4>(what).map(f32::from_le_bytes)
    }

    fn u8(&mut self, what: impl FnOnce() -> String) -> Result<u8, LoadError> {
        self.array::<1>(what).map(|[b]| b)
    }
}

/// Which curve is being read, for messages (formatted only when something is wrong).
#[derive(Clone, Copy, Debug)]
enum CurveName {
    Camera(usize),
    Tracked(Hand),
    Pinch(Hand),
    Joint(Hand, usize, usize),
    Gaze(usize),
}

const POSE_CHANNELS: [&str; 7] =
    ["position X", "position Y", "position Z", "rotation X", "rotation Y", "rotation Z", "rotation W"];
const RAY_CHANNELS: [&str; 6] = ["origin X", "origin Y", "origin Z", "direction X", "direction Y", "direction Z"];

impl fmt::Display for CurveName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pose = |c: usize| POSE_CHANNELS.get(c).copied().unwrap_or("?");
        match *self {
            CurveName::Camera(c) => write!(f, "camera {}", pose(c)),
            CurveName::Tracked(h) => write!(f, "{} hand tracked", h.name()),
            CurveName::Pinch(h) => write!(f, "{} hand pinch", h.name()),
            CurveName::Joint(h, j, c) => {
                write!(f, "{} hand {} {}", h.name(), HAND_JOINT_NAMES.get(j).copied().unwrap_or("?"), pose(c))
            }
            CurveName::Gaze(c) => write!(f, "eye gaze {}", RAY_CHANNELS.get(c).copied().unwrap_or("?")),
        }
    }
}

/// Counts a kind of non-fatal problem and remembers where it first happened.
#[derive(Default)]
struct Tally {
    count: usize,
    first: Option<(u64, String)>,
}

impl Tally {
    fn note(&mut self, offset: usize, what: impl FnOnce() -> String) {
        self.count += 1;
        if self.first.is_none() {
            self.first = Some((offset as u64, what()));
        }
    }

    fn warning(self, summary: &str, warnings: &mut Vec<Warning>) {
        if let Some((offset, first)) = self.first {
            let more = if self.count > 1 { format!(" ({} in all)", self.count) } else { String::new() };
            warnings.push(Warning::new(Position::Byte(offset), format!("{summary}: {first}{more}")));
        }
    }
}

/// One reading of the file with one key layout.
struct Parse<'a> {
    r: Reader<'a>,
    layout: KeyLayout,
    /// Bytes left after the marker list (0 for a file that adds up).
    trailing: usize,
    trailing_at: usize,
    bad_bool: Tally,
    unknown_wrap: Tally,
    unknown_weighted: Tally,
    unordered: Tally,
    bad_string: Tally,
}

impl<'a> Parse<'a> {
    fn new(bytes: &'a [u8], layout: KeyLayout) -> Self {
        let mut r = Reader::new(bytes);
        r.pos = 16;
        Self {
            r,
            layout,
            trailing: 0,
            trailing_at: 0,
            bad_bool: Tally::default(),
            unknown_wrap: Tally::default(),
            unknown_weighted: Tally::default(),
            unordered: Tally::default(),
            bad_string: Tally::default(),
        }
    }

    fn finish(self) -> Vec<Warning> {
        let mut w = Vec::new();
        self.bad_bool.warning("a bool byte is neither 0 nor 1 (read as true, written back as 1)", &mut w);
        self.unknown_wrap.warning("unknown wrap mode (evaluated as clamp)", &mut w);
        self.unknown_weighted.warning("unknown weighted mode (only its In and Out bits are used)", &mut w);
        self.unordered.warning("key times do not ascend (evaluation assumes they do)", &mut w);
        self.bad_string.warning("marker name", &mut w);
        if self.trailing > 0 {
            w.push(Warning::new(
                Position::Byte(self.trailing_at as u64),
                format!("{} byte(s) after the marker list, ignored", self.trailing),
            ));
        }
        w
    }

    fn recording(&mut self, major: i32, minor: i32) -> Result<Recording, LoadError> {
        let (has_camera, has_hands, has_gaze) = if minor >= 1 {
            (self.flag("has camera pose")?, self.flag("has hand data")?, self.flag("has eye gaze")?)
        } else {
            (true, true, false)
        };
        let mut rec = Recording::default();
        if has_camera {
            let mut camera = PoseCurves::default();
            self.pose(&mut camera, CurveName::Camera)?;
            rec.camera = Some(camera);
        }
        if has_hands {
            let mut hands: [HandCurves; 2] = Default::default();
            for hand in Hand::BOTH {
                hands[hand.index()].tracked = self.bool_curve(CurveName::Tracked(hand))?;
            }
            for hand in Hand::BOTH {
                hands[hand.index()].pinch = self.bool_curve(CurveName::Pinch(hand))?;
            }
            for hand in Hand::BOTH {
                for (j, joint) in hands[hand.index()].joints.iter_mut().enumerate() {
                    self.pose(joint, |c| CurveName::Joint(hand, j, c))?;
                }
            }
            rec.hands = Some(hands);
        }
        if has_gaze {
            let mut gaze = RayCurves::default();
            for (c, curve) in gaze.curves_mut().enumerate() {
                *curve = self.float_curve(CurveName::Gaze(c))?;
            }
            rec.gaze = Some(gaze);
        }
        let marker_list = self.r.remaining() > 0;
        if marker_list {
            rec.markers = self.markers()?;
            self.trailing = self.r.remaining();
            self.trailing_at = self.r.pos;
        }
        rec.layout = RecordingLayout { major, minor, key_layout: self.layout, marker_list };
        rec.duration = rec.compute_duration();
        Ok(rec)
    }

    fn flag(&mut self, what: &'static str) -> Result<bool, LoadError> {
        let at = self.r.pos;
        let b = self.r.u8(|| format!("the file ends inside the '{what}' flag"))?;
        if b > 1 {
            self.bad_bool.note(at, || format!("'{what}' is {b}"));
        }
        Ok(b != 0)
    }

    fn pose(&mut self, out: &mut PoseCurves, name: impl Fn(usize) -> CurveName) -> Result<(), LoadError> {
        for (c, curve) in out.curves_mut().enumerate() {
            *curve = self.float_curve(name(c))?;
        }
        Ok(())
    }

    /// Pre-wrap, post-wrap, key count; returns the count after checking `count × key_size` fits.
    fn curve_header(&mut self, name: CurveName, key_size: usize) -> Result<(WrapMode, WrapMode, usize), LoadError> {
        let at = self.r.pos;
        let header = self.r.array::<12>(|| format!("the file ends inside the header of curve '{name}'"))?;
        let [p0, p1, p2, p3, q0, q1, q2, q3, c0, c1, c2, c3] = header;
        let pre = WrapMode::from_raw(i32::from_le_bytes([p0, p1, p2, p3]));
        let post = WrapMode::from_raw(i32::from_le_bytes([q0, q1, q2, q3]));
        for mode in [pre, post] {
            if let WrapMode::Unknown(v) = mode {
                self.unknown_wrap.note(at, || format!("{v} in curve '{name}'"));
            }
        }
        let count = i32::from_le_bytes([c0, c1, c2, c3]);
        let count_at = (at + 8) as u64;
        let Ok(count) = usize::try_from(count) else {
            return Err(LoadError::at_byte(count_at, format!("curve '{name}' has a negative key count ({count})")));
        };
        let remaining = self.r.remaining();
        if count.checked_mul(key_size).is_none_or(|need| need > remaining) {
            return Err(LoadError::truncated(
                count_at,
                format!(
                    "curve '{name}' declares {count} keys of {key_size} bytes ({} bytes) but only {remaining} bytes \
                     remain",
                    count as u128 * key_size as u128
                ),
            ));
        }
        Ok((pre, post, count))
    }

    fn float_curve(&mut self, name: CurveName) -> Result<FloatCurve, LoadError> {
        let size = self.layout.bytes_per_key();
        let (pre_wrap, post_wrap, count) = self.curve_header(name, size)?;
        let at = self.r.pos;
        let data = self.r.take(count * size, || format!("the file ends inside the keys of curve '{name}'"))?;
        let mut keys = Vec::with_capacity(count);
        match self.layout {
            KeyLayout::TimeValue => {
                let (pairs, _) = data.as_chunks::<8>();
                keys.extend(pairs.iter().map(|&[a0, a1, a2, a3, b0, b1, b2, b3]| {
                    Keyframe::linear(f32::from_le_bytes([a0, a1, a2, a3]), f32::from_le_bytes([b0, b1, b2, b3]))
                }));
            }
            KeyLayout::Full => {
                let (records, _) = data.as_chunks::<28>();
                for (i, rec) in records.iter().enumerate() {
                    let (w, _) = rec.as_chunks::<4>();
                    let &[time, value, it, ot, iw, ow, mode] = w else { continue };
                    let key = Keyframe {
                        time: f32::from_le_bytes(time),
                        value: f32::from_le_bytes(value),
                        in_tangent: f32::from_le_bytes(it),
                        out_tangent: f32::from_le_bytes(ot),
                        in_weight: f32::from_le_bytes(iw),
                        out_weight: f32::from_le_bytes(ow),
                        weighted_mode: i32::from_le_bytes(mode),
                    };
                    if !(weighted_mode::NONE..=weighted_mode::BOTH).contains(&key.weighted_mode) {
                        let m = key.weighted_mode;
                        self.unknown_weighted.note(at + i * 28 + 24, || format!("{m} in key {i} of curve '{name}'"));
                    }
                    keys.push(key);
                }
            }
        }
        if let Some(i) = keys.windows(2).position(|w| !matches!(w, [a, b] if a.time <= b.time)) {
            self.unordered.note(at + (i + 1) * size, || format!("key {} of curve '{name}'", i + 1));
        }
        Ok(FloatCurve { pre_wrap, post_wrap, keys })
    }

    fn bool_curve(&mut self, name: CurveName) -> Result<BoolCurve, LoadError> {
        let (pre_wrap, post_wrap, count) = self.curve_header(name, 8)?;
        let at = self.r.pos;
        let data = self.r.take(count * 8, || format!("the file ends inside the keys of curve '{name}'"))?;
        let (pairs, _) = data.as_chunks::<8>();
        let keys: Vec<BoolKey> = pairs
            .iter()
            .map(|&[a0, a1, a2, a3, b0, b1, b2, b3]| BoolKey {
                time: f32::from_le_bytes([a0, a1, a2, a3]),
                value: f32::from_le_bytes([b0, b1, b2, b3]),
            })
            .collect();
        if let Some(i) = keys.windows(2).position(|w| !matches!(w, [a, b] if a.time <= b.time)) {
            self.unordered.note(at + (i + 1) * 8, || format!("key {} of curve '{name}'", i + 1));
        }
        Ok(BoolCurve { pre_wrap, post_wrap, keys })
    }

    fn markers(&mut self) -> Result<Vec<Marker>, LoadError> {
        let at = self.r.pos as u64;
        let count = self.r.i32(|| "the file ends inside the marker count".to_owned())?;
        let Ok(count) = usize::try_from(count) else {
            return Err(LoadError::at_byte(at, format!("negative marker count ({count})")));
        };
        // Each marker takes at least 5 bytes (time + a one-byte length).
        let remaining = self.r.remaining();
        if count.checked_mul(5).is_none_or(|need| need > remaining) {
            return Err(LoadError::truncated(
                at,
                format!(
                    "the marker list declares {count} markers (5 bytes each at least) but only {remaining} bytes remain"
                ),
            ));
        }
        let mut markers = Vec::with_capacity(count);
        for i in 0..count {
            let time = self.r.f32(|| format!("the file ends inside the time of marker {i}"))?;
            let name = self.string(i)?;
            markers.push(Marker { time, name });
        }
        Ok(markers)
    }

    /// .NET `BinaryReader.ReadString`: 7-bit-encoded byte length, then UTF-8.
    fn string(&mut self, marker: usize) -> Result<String, LoadError> {
        let at = self.r.pos;
        let mut len: u32 = 0;
        let mut bytes_used = 0;
        loop {
            let b = self.r.u8(|| format!("the file ends inside the name length of marker {marker}"))?;
            bytes_used += 1;
            if bytes_used == 5 && b > 0x07 {
                return Err(LoadError::at_byte(
                    at as u64,
                    format!("the name length of marker {marker} is not a valid 7-bit-encoded Int32"),
                ));
            }
            len |= u32::from(b & 0x7f) << (7 * (bytes_used - 1));
            if b & 0x80 == 0 {
                break;
            }
        }
        let minimal = match len {
            0..=0x7f => 1,
            0x80..=0x3fff => 2,
            0x4000..=0x1f_ffff => 3,
            0x20_0000..=0x0fff_ffff => 4,
            _ => 5,
        };
        if bytes_used != minimal {
            self.bad_string.note(at, || format!("marker {marker}'s name length is not minimally encoded"));
        }
        let len = len as usize;
        let text = self.r.take(len, || format!("the file ends inside the name of marker {marker}"))?;
        match std::str::from_utf8(text) {
            Ok(s) => Ok(s.to_owned()),
            Err(_) => {
                self.bad_string.note(at, || format!("marker {marker}'s name is not UTF-8 (invalid bytes replaced)"));
                Ok(String::from_utf8_lossy(text).into_owned())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(major: i32, minor: i32) -> Vec<u8> {
        let mut b = MRTK_MAGIC.to_vec();
        b.extend(major.to_le_bytes());
        b.extend(minor.to_le_bytes());
        b
    }

    #[test]
    fn smallest_files() {
        // 1.1 with nothing present and no marker list.
        let mut b = header(1, 1);
        b.extend([0, 0, 0]);
        let (rec, w) = read_recording(&b).unwrap();
        assert!(w.is_empty());
        assert!(rec.camera.is_none() && rec.hands.is_none() && rec.gaze.is_none());
        assert!(!rec.layout.marker_list);
        // Plus an empty marker list.
        b.extend(0i32.to_le_bytes());
        let (rec, _) = read_recording(&b).unwrap();
        assert!(rec.layout.marker_list && rec.markers.is_empty());
    }

    #[test]
    fn header_errors_say_where() {
        let e = read_recording(&header(1, 1)[..11]).unwrap_err();
        assert_eq!(e.position, Position::Byte(8));
        let mut b = header(1, 1);
        b[3] ^= 0xff;
        let e = read_recording(&b).unwrap_err();
        assert_eq!(e.position, Position::Byte(0));
        assert!(e.message.contains("magic"), "{e}");
        let e = read_recording(&header(2, 0)).unwrap_err();
        assert!(e.to_string().contains("byte 8") && e.message.contains("2.0"), "{e}");
    }

    #[test]
    fn camera_curve_with_a_huge_count_is_refused_before_allocating() {
        let mut b = header(1, 1);
        b.extend([1, 0, 0]);
        b.extend(0i32.to_le_bytes());
        b.extend(0i32.to_le_bytes());
        b.extend(i32::MAX.to_le_bytes());
        let e = read_recording(&b).unwrap_err();
        assert_eq!(e.position, Position::Byte(27));
        assert!(e.message.contains("camera position X") && e.message.contains("declares 2147483647 keys"), "{e}");
    }

    #[test]
    fn axes_mirror_z() {
        let a = AxisConversion::unity_left_handed();
        assert!(a.mirrors());
        assert_eq!(a.to_viewer.transform_point3(glam::Vec3::new(1.0, 2.0, 3.0)), glam::Vec3::new(1.0, 2.0, -3.0));
    }
}
