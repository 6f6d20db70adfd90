//! Unreal ActorX PSA skeletal animation: [`parse`] reads the chunks into record arrays ([`PsaFile`]), [`load`]
//! turns every sequence into a [`Clip`] and the `BONENAMES` into the asset's skeleton (no meshes). Binding the
//! clips to a PSK is by bone name ([`Asset::bind_animations`]); track names are decoded exactly like PSK bone
//! names (Windows-1252, trimmed), so they match.
//!
//! Owns the PSA chunk layouts and sequence → clip rules; the container, bone records, rotation convention and axes
//! live in [`super::actorx`]. Must not touch GPU, UI or animation code.
//!
//! Sequence rules: the key of (sequence s, frame f, bone b) is `keys[(s.FirstRawFrame + f) * s.TotalBones + b]`;
//! frame f is at `f / AnimRate` seconds and the clip lasts `NumRawFrames / AnimRate` (TrackTime is not trusted).
//! Rotations of every bone but bone 0 are conjugated back. `SCALEKEYS`, when it has one key per `ANIMKEYS` key,
//! gives scale curves. Damage is repaired with a warning: a sequence whose frames run past the keys is re-based
//! (when its first frame is out of range, it is assumed to follow the previous sequence) and/or clamped to the
//! frames that exist; a missing or non-positive rate falls back to [`LoadOptions::default_fps`].

use bytemuck::{Pod, Zeroable};
use glam::{Quat, Vec3};

use super::actorx::{self, Chunk, Records, VBone};
use super::{LoadError, LoadErrorKind, LoadOptions};
use crate::scene::{Asset, BoneTrack, Clip, Curve, Format, KeyTimes, Position, Skeleton, Warning};

/// `AnimInfoBinary` of `ANIMINFO`, 168 bytes: one sequence.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct AnimInfoBinary {
    pub name: [u8; 64],
    pub group: [u8; 64],
    pub total_bones: i32,
    pub root_include: i32,
    pub key_compression_style: i32,
    pub key_quotum: i32,
    pub key_reduction: f32,
    pub track_time: f32,
    /// Frames per second.
    pub anim_rate: f32,
    pub start_bone: i32,
    pub first_raw_frame: i32,
    pub num_raw_frames: i32,
}

/// `VQuatAnimKey` of `ANIMKEYS`, 32 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct VQuatAnimKey {
    pub position: [f32; 3],
    /// x, y, z, w — conjugated for every bone but bone 0.
    pub orientation: [f32; 4],
    pub time: f32,
}

/// `VScaleAnimKey` of `SCALEKEYS`, 16 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct VScaleAnimKey {
    pub scale: [f32; 3],
    pub time: f32,
}

const _: () = {
    assert!(size_of::<AnimInfoBinary>() == 168);
    assert!(size_of::<VQuatAnimKey>() == 32);
    assert!(size_of::<VScaleAnimKey>() == 16);
};

/// The records of a PSA file as written.
#[derive(Clone, Debug, Default)]
pub struct PsaFile {
    pub bones: Vec<VBone>,
    pub sequences: Vec<AnimInfoBinary>,
    pub keys: Vec<VQuatAnimKey>,
    /// Empty when the file has no `SCALEKEYS`.
    pub scale_keys: Vec<VScaleAnimKey>,
    pub warnings: Vec<Warning>,
}

/// The records of a PSA file read in place from its bytes ([`Records`]): what [`load`] turns into clips without
/// copying the keys first.
#[derive(Default)]
struct PsaRecords<'a> {
    bones: Records<'a, VBone>,
    sequences: Records<'a, AnimInfoBinary>,
    keys: Records<'a, VQuatAnimKey>,
    scale_keys: Records<'a, VScaleAnimKey>,
    warnings: Vec<Warning>,
    bones_chunk: Option<Chunk<'static>>,
    sequences_chunk: Option<Chunk<'static>>,
    keys_chunk: Option<Chunk<'static>>,
    scale_chunk: Option<Chunk<'static>>,
}

/// Reads the chunks of a PSA file. Unknown chunks (and `CURVEKEYS`, Maya blend-shape curves) are skipped with a
/// warning.
pub fn parse(bytes: &[u8]) -> Result<PsaFile, LoadError> {
    let records = read_records(bytes)?;
    Ok(PsaFile {
        bones: records.bones.to_vec(),
        sequences: records.sequences.to_vec(),
        keys: records.keys.to_vec(),
        scale_keys: records.scale_keys.to_vec(),
        warnings: records.warnings,
    })
}

/// Finds the chunks and checks their record sizes; reads no record.
fn read_records(bytes: &[u8]) -> Result<PsaRecords<'_>, LoadError> {
    let mut file = PsaRecords::default();
    let chunks = actorx::read_chunks(bytes, "PSA", "ANIMHEAD", &mut file.warnings)?;
    let mut seen: Vec<&str> = Vec::new();
    for chunk in &chunks {
        let id = chunk.id.as_str();
        match id {
            "ANIMHEAD" => continue,
            "BONENAMES" | "ANIMINFO" | "ANIMKEYS" | "SCALEKEYS" => {}
            "CURVEKEYS" => {
                file.warnings.push(chunk.warning("blend-shape curves are not supported; skipped"));
                continue;
            }
            _ => {
                file.warnings.push(chunk.warning(format_args!(
                    "unknown chunk, {} bytes skipped",
                    chunk.data.len() + actorx::CHUNK_HEADER_SIZE
                )));
                continue;
            }
        }
        if seen.contains(&id) {
            file.warnings.push(chunk.warning("second chunk with this ID ignored (the first one is used)"));
            continue;
        }
        seen.push(id);
        match id {
            "BONENAMES" => {
                file.bones = chunk.view()?;
                file.bones_chunk = Some(chunk.header_only());
            }
            "ANIMINFO" => {
                file.sequences = chunk.view()?;
                file.sequences_chunk = Some(chunk.header_only());
            }
            "ANIMKEYS" => {
                file.keys = chunk.view()?;
                file.keys_chunk = Some(chunk.header_only());
            }
            "SCALEKEYS" => {
                file.scale_keys = chunk.view()?;
                file.scale_chunk = Some(chunk.header_only());
            }
            _ => {}
        }
    }
    Ok(file)
}

/// Loads a PSA file: its skeleton (from `BONENAMES`) and one clip per sequence, no meshes.
pub fn load(bytes: &[u8], opts: &LoadOptions) -> Result<Asset, LoadError> {
    assemble(read_records(bytes)?, opts)
}

/// Where a sequence's frames were taken from, after repairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FrameRange {
    first: usize,
    count: usize,
}

/// Turns the records into an asset.
fn assemble(mut file: PsaRecords, opts: &LoadOptions) -> Result<Asset, LoadError> {
    let mut warnings = std::mem::take(&mut file.warnings);
    let (Some(bones_chunk), Some(info_chunk), Some(_)) =
        (file.bones_chunk.clone(), file.sequences_chunk.clone(), file.keys_chunk.as_ref())
    else {
        let missing: Vec<&str> = [
            (file.bones_chunk.is_none(), "BONENAMES"),
            (file.sequences_chunk.is_none(), "ANIMINFO"),
            (file.keys_chunk.is_none(), "ANIMKEYS"),
        ]
        .iter()
        .filter(|(m, _)| *m)
        .map(|(_, id)| *id)
        .collect();
        return Err(LoadError::whole_file(format!(
            "PSA file has no {} chunk: nothing to animate (truncated?)",
            missing.join(" / ")
        ))
        .with_kind(LoadErrorKind::Truncated));
    };
    if file.bones.is_empty() {
        return Err(bones_chunk.error("no bones: a PSA needs at least one bone to animate"));
    }
    let (skeleton, skeleton_index) =
        actorx::build_skeleton_any_order(&file.bones.to_vec(), &bones_chunk, &mut warnings)?;

    let use_scale = if file.scale_keys.is_empty() {
        false
    } else if file.scale_keys.len() == file.keys.len() {
        true
    } else {
        if let Some(chunk) = &file.scale_chunk {
            warnings.push(chunk.warning(format_args!(
                "{} scale keys for {} ANIMKEYS keys; scale keys ignored",
                file.scale_keys.len(),
                file.keys.len()
            )));
        }
        false
    };

    let mut clips = Vec::with_capacity(file.sequences.len());
    let mut previous_end = 0usize;
    // Sequences may share frames, so the keys they expand to are budgeted (far above real files, where sequences
    // are disjoint and use each key once): a crafted file cannot make hundreds of sequences read all keys.
    let mut budget = file.keys.len().saturating_mul(4).saturating_add(1 << 16);
    for (index, info) in file.sequences.iter().enumerate() {
        let clip = build_clip(
            index,
            &info,
            &file,
            &skeleton,
            &skeleton_index,
            use_scale,
            &mut previous_end,
            &mut budget,
            &info_chunk,
            opts,
            &mut warnings,
        );
        clips.push(clip);
    }

    let mut asset = Asset::new(Format::Psa);
    asset.skeleton = skeleton;
    asset.clips = clips;
    asset.axes = actorx::unreal_axes();
    asset.warnings = warnings;
    Ok(asset)
}

#[allow(clippy::too_many_arguments)]
fn build_clip(
    index: usize,
    info: &AnimInfoBinary,
    file: &PsaRecords,
    skeleton: &Skeleton,
    skeleton_index: &[usize],
    use_scale: bool,
    previous_end: &mut usize,
    budget: &mut usize,
    info_chunk: &Chunk,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Clip {
    let decoded = actorx::decode_name(&info.name);
    let name = if decoded.is_empty() { format!("sequence {index}") } else { decoded };
    let at = info_chunk.record_offset(index);
    let warn = |warnings: &mut Vec<Warning>, message: String| {
        warnings.push(Warning::new(
            Position::Byte(at),
            format!("PSA chunk ANIMINFO, sequence {index} '{name}': {message}"),
        ));
    };

    let rate = if info.anim_rate.is_finite() && info.anim_rate > 0.0 {
        info.anim_rate
    } else {
        warn(warnings, format!("frame rate {} is not usable; {} fps assumed", info.anim_rate, opts.default_fps));
        opts.default_fps
    };

    let bone_count = skeleton.len();
    let stride = match usize::try_from(info.total_bones) {
        Ok(n) if n > 0 => {
            if n != bone_count {
                warn(
                    warnings,
                    format!("TotalBones is {n} but BONENAMES has {bone_count} bones; keys are read {n} per frame"),
                );
            }
            n
        }
        _ => {
            warn(warnings, format!("TotalBones is {}; the {bone_count} BONENAMES bones are used", info.total_bones));
            bone_count
        }
    };

    let frames_in_keys = file.keys.len() / stride;
    let wanted = usize::try_from(info.num_raw_frames).unwrap_or_else(|_| {
        warn(warnings, format!("NumRawFrames is {}; treated as 0", info.num_raw_frames));
        0
    });
    let mut range =
        frame_range(info.first_raw_frame, wanted, frames_in_keys, *previous_end, &mut |m| warn(warnings, m));
    *previous_end = range.first + range.count;
    let animated = stride.min(bone_count);
    let cost = range.count.saturating_mul(animated);
    if cost > *budget {
        warn(warnings, "sequences overlap far more than real files do; this sequence's keys were dropped".to_owned());
        range.count = 0;
    }
    *budget = budget.saturating_sub(cost);

    // One time array for the whole sequence, shared by every curve of it.
    let times: KeyTimes = (0..range.count).map(|f| f as f32 / rate).collect();
    // Keys are stored frame by frame, so they are read in that order (one pass over the sequence's bytes) and each
    // is appended to its bone's curves; a bone's keys still arrive in frame order.
    let mut curves: Vec<(Vec<Vec3>, Vec<Quat>, Vec<Vec3>)> = (0..animated)
        .map(|_| {
            let scales = Vec::with_capacity(if use_scale { range.count } else { 0 });
            (Vec::with_capacity(range.count), Vec::with_capacity(range.count), scales)
        })
        .collect();
    let (mut bad_rotations, mut bad_positions) = (0usize, 0usize);
    for frame in 0..range.count {
        let first_key = (range.first + frame) * stride;
        let keys = file.keys.range(first_key, animated);
        for (bone, ((translations, rotations, scales), key)) in curves.iter_mut().zip(keys.iter()).enumerate() {
            // The bind pose only replaces a bad first key, so it is looked up only then.
            let bind =
                || skeleton_index.get(bone).and_then(|&b| skeleton.bind_local.get(b)).copied().unwrap_or_default();
            let mut t = Vec3::from_array(key.position);
            if !t.is_finite() {
                bad_positions += 1;
                t = translations.last().copied().unwrap_or_else(|| bind().translation);
            }
            let r = actorx::bone_rotation(key.orientation, bone == 0).unwrap_or_else(|| {
                bad_rotations += 1;
                rotations.last().copied().unwrap_or_else(|| bind().rotation)
            });
            translations.push(t);
            rotations.push(r);
            if use_scale {
                let s = file.scale_keys.get(first_key + bone).map(|s| Vec3::from_array(s.scale)).unwrap_or(Vec3::ONE);
                scales.push(if s.is_finite() { s } else { Vec3::ONE });
            }
        }
    }
    let tracks: Vec<BoneTrack> = curves
        .into_iter()
        .enumerate()
        .map(|(bone, (translations, rotations, scales))| BoneTrack {
            bone_name: skeleton_index.get(bone).and_then(|&b| skeleton.names.get(b)).cloned().unwrap_or_default(),
            translation: Curve::linear(times.clone(), translations),
            rotation: Curve::linear(times.clone(), rotations),
            scale: if use_scale { Curve::linear(times.clone(), scales) } else { Curve::default() },
        })
        .collect();
    if bad_rotations + bad_positions > 0 {
        warn(
            warnings,
            format!(
                "{bad_rotations} zero or non-finite rotation key(s) and {bad_positions} non-finite position key(s) \
                 replaced by the previous key"
            ),
        );
    }
    Clip {
        name,
        duration: range.count as f32 / rate,
        frame_rate: rate,
        frame_count: u32::try_from(range.count).unwrap_or(u32::MAX),
        tracks,
        callback_keys: Vec::new(),
        ..Clip::default()
    }
}

/// Where a sequence's frames really are. A first frame outside the keys is re-based to follow the previous
/// sequence (how exporters lay sequences out); a range running past the keys is clamped. Both are reported.
fn frame_range(
    first: i32,
    wanted: usize,
    frames_in_keys: usize,
    previous_end: usize,
    warn: &mut dyn FnMut(String),
) -> FrameRange {
    let mut start = match usize::try_from(first) {
        Ok(f) if f < frames_in_keys || (wanted == 0 && f <= frames_in_keys) => f,
        _ => {
            let rebased = previous_end.min(frames_in_keys);
            warn(format!(
                "FirstRawFrame {first} is outside the {frames_in_keys} frames of keys; re-based to frame {rebased} \
                 (after the previous sequence)"
            ));
            rebased
        }
    };
    if start > frames_in_keys {
        start = frames_in_keys;
    }
    let available = frames_in_keys - start;
    if wanted > available {
        warn(format!(
            "frames {start}..{} run past the {frames_in_keys} frames of keys; clamped to {available} frame(s)",
            start + wanted
        ));
    }
    FrameRange { first: start, count: wanted.min(available) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(first: i32, wanted: usize, frames: usize, previous_end: usize) -> (FrameRange, Vec<String>) {
        let mut messages = Vec::new();
        let r = frame_range(first, wanted, frames, previous_end, &mut |m| messages.push(m));
        (r, messages)
    }

    #[test]
    fn good_ranges_pass_without_warnings() {
        assert_eq!(range(10, 5, 20, 10), (FrameRange { first: 10, count: 5 }, vec![]));
        assert_eq!(range(20, 0, 20, 20), (FrameRange { first: 20, count: 0 }, vec![]));
    }

    #[test]
    fn out_of_range_first_frame_is_rebased_after_the_previous_sequence() {
        let (r, messages) = range(500, 5, 20, 10);
        assert_eq!(r, FrameRange { first: 10, count: 5 });
        assert_eq!(messages.len(), 1);
        assert!(messages[0].contains("re-based to frame 10"), "{messages:?}");
        let (r, _) = range(-3, 5, 20, 0);
        assert_eq!(r, FrameRange { first: 0, count: 5 });
    }

    #[test]
    fn overlong_sequences_are_clamped() {
        let (r, messages) = range(15, 10, 20, 15);
        assert_eq!(r, FrameRange { first: 15, count: 5 });
        assert!(messages[0].contains("clamped to 5 frame(s)"), "{messages:?}");
        let (r, _) = range(900, 10, 0, 0);
        assert_eq!(r, FrameRange { first: 0, count: 0 });
    }
}
