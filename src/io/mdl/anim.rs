//! The run-length-compressed animation values of a compiled GoldSrc model (`mstudioanimvalue_t`), decoded
//! frame by frame exactly as the engine reads them.
//!
//! A channel (one of a bone's X, Y, Z, XR, YR, ZR in one blend of one sequence) is a list of runs. Each run is
//! a header word — `valid` (low byte) and `total` (high byte) — followed by `valid` 16-bit values: the run
//! covers `total` frames, the first `valid` of them with their own value and the rest repeating the last one.
//! Frame `k` is found as the engine finds it (Half-Life SDK `cl_dll/studio_util`'s `StudioCalcBoneQuaternion`
//! and `StudioCalcBonePosition`, HLAM's `BoneTransformer::CalculateBoneQuaternion` and `CalculateBonePosition`,
//! assimp's `extract_anim_value`): skip whole runs while `total <= k` (subtracting `total` and stepping
//! `valid + 1` words), then take the `k + 1`-th word when `valid > k`, else the `valid`-th — which, for a run
//! with `valid == 0`, is the run's own header word read as a value, as the engine does.
//!
//! Interpolation between frames is left to the clip (the engine lerps the two frames' values), so decoding
//! per frame is exact. A run with `total == 0` would make the engine loop for ever; here it is an error, as is
//! a run that reaches past the end of the data. Work is one pass over the runs, whatever the frame count.

use crate::io::LoadError;
use crate::io::binary::slice_at;

/// Decodes `frames` values of the channel whose first run header is at byte `start` of `data` (a whole file,
/// so errors name file offsets; `base` is added when `data` is a part of one) into `out` (cleared first).
/// `what` names the channel for errors.
pub fn decode_channel(
    data: &[u8],
    start: usize,
    base: u64,
    frames: usize,
    out: &mut Vec<i16>,
    what: &dyn Fn() -> String,
) -> Result<(), LoadError> {
    out.clear();
    let word = |at: usize| -> Result<[u8; 2], LoadError> {
        match slice_at(data, at, 2) {
            Some(b) => Ok([b[0], b[1]]),
            None => Err(LoadError::truncated(
                base + at as u64,
                format!("{}: an animation value at byte {} runs past the end of the data", what(), base + at as u64),
            )),
        }
    };
    let mut at = start;
    while out.len() < frames {
        let header = word(at)?;
        let (valid, total) = (usize::from(header[0]), usize::from(header[1]));
        if total == 0 {
            return Err(LoadError::at_byte(
                base + at as u64,
                format!("{}: a run of animation values covers 0 frames (the engine would never finish it)", what()),
            ));
        }
        // The words this run may read: its `valid` values (value `i` is the word `i + 1` after the header).
        let take = total.min(frames - out.len());
        for i in 0..take {
            let index = if valid > i { i + 1 } else { valid };
            let bytes = word(at + 2 * index)?;
            out.push(i16::from_le_bytes(bytes));
        }
        at += 2 * (valid + 1);
    }
    Ok(())
}

/// Half-float (IEEE 754 binary16) to `f32`: Xash3D's `STUDIO_NF_UV_COORDS` stores texture coordinates so.
pub fn half_to_f32(bits: u16) -> f32 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((bits >> 10) & 0x1f);
    let mantissa = f32::from(bits & 0x3ff);
    match exponent {
        0 => sign * mantissa * 2f32.powi(-24),
        31 if mantissa == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        e => sign * (1.0 + mantissa / 1024.0) * 2f32.powi(e - 15),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(words: &[u16]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    fn header(valid: u8, total: u8) -> u16 {
        u16::from(valid) | (u16::from(total) << 8)
    }

    fn decode(data: &[u8], frames: usize) -> Result<Vec<i16>, LoadError> {
        let mut out = Vec::new();
        decode_channel(data, 0, 0, frames, &mut out, &|| "test".to_owned())?;
        Ok(out)
    }

    /// The engine's own frame lookup, written as the SDK writes it, to check the one-pass decoder against.
    fn engine_value(words: &[u16], frame: usize) -> i16 {
        let mut p = 0;
        let mut k = frame;
        while usize::from((words[p] >> 8) as u8) <= k {
            k -= usize::from((words[p] >> 8) as u8);
            p += usize::from(words[p] as u8) + 1;
        }
        let valid = usize::from(words[p] as u8);
        if valid > k { words[p + k + 1] as i16 } else { words[p + valid] as i16 }
    }

    #[test]
    fn runs_repeat_their_last_value_and_match_the_engines_lookup() {
        // 3 values over 5 frames, then 1 value over 2 frames, then a run of 2 values over 2 frames.
        let words = [header(3, 5), 10, 20, 30, header(1, 2), 0xfff6, header(2, 2), 7, 8];
        let data = runs(&words);
        let decoded = decode(&data, 9).unwrap();
        assert_eq!(decoded, [10, 20, 30, 30, 30, -10, -10, 7, 8]);
        for (frame, value) in decoded.iter().enumerate() {
            assert_eq!(*value, engine_value(&words, frame), "frame {frame}");
        }
        // Fewer frames than the runs cover: the rest is not read.
        assert_eq!(decode(&data, 2).unwrap(), [10, 20]);
    }

    #[test]
    fn a_run_without_values_reads_its_own_header_as_the_engine_does() {
        let words = [header(0, 3)];
        let data = runs(&words);
        let expected = header(0, 3) as i16;
        assert_eq!(decode(&data, 3).unwrap(), [expected; 3]);
        assert_eq!(engine_value(&words, 2), expected);
    }

    #[test]
    fn bad_runs_are_errors_naming_the_byte() {
        let e = decode(&runs(&[header(1, 0), 5]), 1).unwrap_err();
        assert_eq!(e.position, crate::scene::Position::Byte(0));
        let e = decode(&runs(&[header(2, 4), 5]), 3).unwrap_err();
        assert_eq!(e.kind, crate::io::LoadErrorKind::Truncated);
        assert_eq!(e.position, crate::scene::Position::Byte(4));
        // Data that ends before the frames do.
        assert!(decode(&runs(&[header(1, 2), 5]), 3).is_err());
    }

    #[test]
    fn half_floats() {
        assert_eq!(half_to_f32(0x3c00), 1.0);
        assert_eq!(half_to_f32(0x3800), 0.5);
        assert_eq!(half_to_f32(0xc000), -2.0);
        assert_eq!(half_to_f32(0x0000), 0.0);
        assert!((half_to_f32(0x3555) - 0.333_25).abs() < 1e-4);
    }
}
