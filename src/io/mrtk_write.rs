//! Writer of MRTK input animation recordings, the exact mirror of `io::mrtk`: for every file the reader loads
//! without warnings, `write(read(file)) == file`. MRTK recordings are not public, so the tests, the benches and
//! the demo make theirs with this. It owns the byte layout only; it never changes the recording.
//!
//! What is written follows `recording.layout`: version 1.0 (28-byte keys, camera and hands always, no gaze) or
//! 1.1 (presence flags, then 8-byte time/value keys or 28-byte keys), and a marker list when the layout says the
//! file had one or there are markers. 8-byte keys store time and value only: tangents, weights and weighted
//! modes are dropped (the reader makes linear keys of them, as MRTK does).

use crate::scene::{BoolCurve, FloatCurve, KeyLayout, PoseCurves, RayCurves, Recording};

use super::MRTK_MAGIC;

/// A recording that the chosen layout cannot represent.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum WriteError {
    #[error("version {0}.{1} cannot be written: bonescope writes MRTK input animation 1.0 and 1.1")]
    UnsupportedVersion(i32, i32),
    #[error("version 1.0 has no eye gaze: write version 1.1 or remove the gaze curves")]
    GazeInVersion10,
    #[error("version 1.0 stores 28-byte keys: set the key layout to Full")]
    ShortKeysInVersion10,
    #[error("{0} has more than 2147483647 entries")]
    TooMany(&'static str),
}

/// The file bytes of `rec`.
pub fn write(rec: &Recording) -> Result<Vec<u8>, WriteError> {
    let mut out = Vec::with_capacity(estimated_size(rec));
    write_to(rec, &mut out)?;
    Ok(out)
}

/// Appends the file bytes of `rec` to `out` (on error `out` may hold a partial file).
pub fn write_to(rec: &Recording, out: &mut Vec<u8>) -> Result<(), WriteError> {
    let layout = rec.layout;
    let v1_1 = match (layout.major, layout.minor) {
        (1, 0) => {
            if rec.gaze.is_some() {
                return Err(WriteError::GazeInVersion10);
            }
            if layout.key_layout != KeyLayout::Full {
                return Err(WriteError::ShortKeysInVersion10);
            }
            false
        }
        (1, 1) => true,
        (major, minor) => return Err(WriteError::UnsupportedVersion(major, minor)),
    };
    let mut w = Writer { out, keys: layout.key_layout };
    w.out.extend_from_slice(&MRTK_MAGIC);
    w.i32(layout.major);
    w.i32(layout.minor);
    if v1_1 {
        w.out.extend([u8::from(rec.camera.is_some()), u8::from(rec.hands.is_some()), u8::from(rec.gaze.is_some())]);
    }
    // Version 1.0 always has camera and hands: absent ones are written as empty curves.
    let empty_pose = PoseCurves::default();
    let empty_bool = BoolCurve::default();
    if let Some(camera) = rec.camera.as_ref().or((!v1_1).then_some(&empty_pose)) {
        w.pose(camera)?;
    }
    match &rec.hands {
        Some([left, right]) => {
            for curve in [&left.tracked, &right.tracked, &left.pinch, &right.pinch] {
                w.bool_curve(curve)?;
            }
            for joint in left.joints.iter().chain(right.joints.iter()) {
                w.pose(joint)?;
            }
        }
        None if !v1_1 => {
            for _ in 0..4 {
                w.bool_curve(&empty_bool)?;
            }
            for _ in 0..2 * crate::scene::HAND_JOINT_COUNT {
                w.pose(&empty_pose)?;
            }
        }
        None => {}
    }
    if let Some(gaze) = &rec.gaze {
        w.ray(gaze)?;
    }
    if layout.marker_list || !rec.markers.is_empty() {
        w.count(rec.markers.len(), "the marker list")?;
        for marker in &rec.markers {
            w.f32(marker.time);
            w.string(&marker.name)?;
        }
    }
    Ok(())
}

/// Bytes the file will take, near enough to allocate once.
fn estimated_size(rec: &Recording) -> usize {
    let key = rec.layout.key_layout.bytes_per_key();
    let floats: usize = rec.float_curves().map(|c| 12 + c.keys.len() * key).sum();
    let bools: usize = rec.bool_curves().map(|c| 12 + c.keys.len() * 8).sum();
    let markers: usize = rec.markers.iter().map(|m| 9 + m.name.len()).sum();
    // Version 1.0 files without camera or hands still carry their (empty) curves.
    19 + floats + bools + 4 + markers + 12 * (7 + 4 + 2 * 7 * crate::scene::HAND_JOINT_COUNT)
}

struct Writer<'a> {
    out: &'a mut Vec<u8>,
    keys: KeyLayout,
}

impl Writer<'_> {
    fn i32(&mut self, v: i32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    fn f32(&mut self, v: f32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    fn count(&mut self, n: usize, what: &'static str) -> Result<(), WriteError> {
        let n = i32::try_from(n).map_err(|_| WriteError::TooMany(what))?;
        self.i32(n);
        Ok(())
    }

    fn pose(&mut self, pose: &PoseCurves) -> Result<(), WriteError> {
        pose.curves().try_for_each(|c| self.float_curve(c))
    }

    fn ray(&mut self, ray: &RayCurves) -> Result<(), WriteError> {
        ray.curves().try_for_each(|c| self.float_curve(c))
    }

    fn float_curve(&mut self, curve: &FloatCurve) -> Result<(), WriteError> {
        self.i32(curve.pre_wrap.raw());
        self.i32(curve.post_wrap.raw());
        self.count(curve.keys.len(), "a curve")?;
        match self.keys {
            KeyLayout::TimeValue => {
                for k in &curve.keys {
                    self.f32(k.time);
                    self.f32(k.value);
                }
            }
            KeyLayout::Full => {
                for k in &curve.keys {
                    for v in [k.time, k.value, k.in_tangent, k.out_tangent, k.in_weight, k.out_weight] {
                        self.f32(v);
                    }
                    self.i32(k.weighted_mode);
                }
            }
        }
        Ok(())
    }

    fn bool_curve(&mut self, curve: &BoolCurve) -> Result<(), WriteError> {
        self.i32(curve.pre_wrap.raw());
        self.i32(curve.post_wrap.raw());
        self.count(curve.keys.len(), "a curve")?;
        for k in &curve.keys {
            self.f32(k.time);
            self.f32(k.value);
        }
        Ok(())
    }

    /// .NET `BinaryWriter.Write(string)`: 7-bit-encoded UTF-8 byte length, then the bytes.
    fn string(&mut self, s: &str) -> Result<(), WriteError> {
        let len = u32::try_from(s.len())
            .ok()
            .filter(|&l| l <= i32::MAX as u32)
            .ok_or(WriteError::TooMany("a marker name"))?;
        let mut v = len;
        while v >= 0x80 {
            self.out.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.out.push(v as u8);
        self.out.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Marker, RecordingLayout};

    #[test]
    fn string_lengths_use_dotnet_7_bit_encoding() {
        let mut out = Vec::new();
        let mut w = Writer { out: &mut out, keys: KeyLayout::Full };
        w.string("").unwrap();
        w.string(&"a".repeat(127)).unwrap();
        w.string(&"b".repeat(128)).unwrap();
        w.string(&"c".repeat(300)).unwrap();
        assert_eq!(out[0], 0);
        assert_eq!(out[1], 127);
        assert_eq!(&out[129..131], &[0x80, 0x01]);
        assert_eq!(&out[259..261], &[0xac, 0x02]); // 300 = 0b10_0101100
    }

    #[test]
    fn version_1_0_refuses_gaze_and_short_keys() {
        let rec = Recording { layout: RecordingLayout::V1_0, gaze: Some(RayCurves::default()), ..Default::default() };
        assert_eq!(write(&rec), Err(WriteError::GazeInVersion10));
        let layout = RecordingLayout { key_layout: KeyLayout::TimeValue, ..RecordingLayout::V1_0 };
        assert_eq!(write(&Recording { layout, ..Default::default() }), Err(WriteError::ShortKeysInVersion10));
        let layout = RecordingLayout { major: 2, ..RecordingLayout::V1_1 };
        assert_eq!(write(&Recording { layout, ..Default::default() }), Err(WriteError::UnsupportedVersion(2, 1)));
    }

    #[test]
    fn empty_version_1_0_has_every_curve() {
        let rec = Recording { layout: RecordingLayout::V1_0, markers: vec![], ..Default::default() };
        let bytes = write(&rec).unwrap();
        // Header, 7 + 4 + 378 empty curves of 12 bytes, an empty marker list.
        assert_eq!(bytes.len(), 16 + 12 * (7 + 4 + 2 * 27 * 7) + 4);
        let with_marker = Recording {
            layout: RecordingLayout { marker_list: false, ..RecordingLayout::V1_1 },
            markers: vec![Marker { time: 1.0, name: "é".into() }],
            ..Default::default()
        };
        let bytes = write(&with_marker).unwrap();
        assert_eq!(bytes.len(), 16 + 3 + 4 + 4 + 1 + 2);
    }
}
