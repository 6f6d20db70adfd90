//! Animations of a DMX: each `DmeChannelsClip` of the root's `animationList` becomes a [`Clip`] with one track
//! per animated bone. Owns the channel/log layout; the bones come from `model`.
//!
//! Reading, as Blender Source Tools' `import_smd.py` (`readDMX`, the `ANIM` branch) has it: a channel drives
//! attribute `toAttribute` (`position` or `orientation`) of element `toElement`, a bone's `transform`; its
//! `log`'s first layer holds the key `times` and `values` (vector3 or quaternion x, y, z, w), local to the
//! bone's parent like the bind transforms. Key times are offset by the clip's `timeFrame` `start`; times and
//! durations written as ints (format 11 and before: `durationTime`, int `times`) are ticks of 1/10000 s. The
//! frame rate is the clip's `frameRate` (30 when absent, as Blender Source Tools assumes for very old files);
//! the length is the time frame's `duration`, else the last key. Keys are interpolated linearly (exporters drop
//! keys that a straight line between their neighbours gives back). Channels of anything but a bone's transform
//! (Source Filmmaker's other channels, flex weights) are not read, and a warning counts them.

use glam::{Quat, Vec3};

use super::graph::{Value, View};
use super::model::{Rig, usable_rotation};
use crate::io::LoadError;
use crate::scene::{BoneTrack, Clip, Curve, Reading, SharedTimes, Warning};

/// Frame rate of a clip that states none (Blender Source Tools' default for very old DMX).
const DEFAULT_FRAME_RATE: f32 = 30.0;

/// Seconds from a time attribute: a `time`/`float` is seconds, an `int` is ticks of 1/10000 s.
fn seconds(v: &Value) -> Option<f32> {
    match *v {
        Value::Time(t) | Value::Float(t) => Some(t),
        Value::Int(ticks) => Some(ticks as f32 / 10_000.0),
        _ => None,
    }
}

/// The first of `names` that `elem` has, as seconds.
fn time_attribute(elem: View, names: &[&str]) -> Option<f32> {
    names.iter().find_map(|n| elem.value(n)).and_then(seconds).filter(|t| t.is_finite())
}

/// Every clip of the root's animation list.
pub fn clips(
    root: View,
    rig: &Rig,
    readings: &mut Vec<Reading>,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Clip>, LoadError> {
    let Some(list) = root.child("animationList")? else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    for anim in list.children("animations")? {
        if anim.class() != "DmeChannelsClip" {
            continue;
        }
        out.push(clip(anim, rig, readings, warnings)?);
    }
    Ok(out)
}

/// Keys of one channel: (times, values).
struct Keys<T> {
    times: Vec<f32>,
    values: Vec<T>,
}

fn clip(anim: View, rig: &Rig, readings: &mut Vec<Reading>, warnings: &mut Vec<Warning>) -> Result<Clip, LoadError> {
    let frame_rate = match anim.number("frameRate")? {
        Some(r) if r.is_finite() && r > 0.0 => r,
        _ => {
            readings.push(Reading::assumed(
                format!("clip \"{}\" frame rate", anim.name()),
                format!("{DEFAULT_FRAME_RATE} frames per second"),
                "the clip has no usable frameRate",
            ));
            DEFAULT_FRAME_RATE
        }
    };
    let time_frame = anim.child("timeFrame")?;
    let start = time_frame.and_then(|t| time_attribute(t, &["start", "startTime"])).unwrap_or(0.0);
    let duration = time_frame.and_then(|t| time_attribute(t, &["duration", "durationTime"]));

    let bones = rig.skeleton.len();
    let mut translations: Vec<Option<Keys<Vec3>>> = (0..bones).map(|_| None).collect();
    let mut rotations: Vec<Option<Keys<Quat>>> = (0..bones).map(|_| None).collect();
    let mut other_channels = 0usize;
    let mut bad_rotations = 0usize;
    for channel in anim.children("channels")? {
        let target = channel.child("toElement")?;
        let bone =
            target.and_then(|t| rig.bone_of_transform.get(&t.index).or_else(|| rig.bone_of_element.get(&t.index)));
        let attribute = channel.string("toAttribute")?.map(String::as_str).unwrap_or_default();
        let (Some(&bone), "position" | "orientation") = (bone, attribute) else {
            other_channels += 1;
            continue;
        };
        let Some(log) = channel.child("log")? else { continue };
        let Some(layer) = log.children("layers")?.into_iter().next() else { continue };
        let times: Vec<f32> = match layer.value("times") {
            None => continue,
            Some(Value::TimeArray(t)) | Some(Value::FloatArray(t)) => t.iter().map(|t| t + start).collect(),
            Some(Value::IntArray(t)) => t.iter().map(|&t| t as f32 / 10_000.0 + start).collect(),
            Some(other) => {
                return Err(layer.error("times", format!("is {}, time_array expected", other.type_name())));
            }
        };
        if attribute == "position" {
            let values = layer.vector3s("values")?.ok_or_else(|| layer.error("values", "is missing"))?;
            translations[bone] = Some(keys(layer, times, values.clone(), |v| v.is_finite())?);
        } else {
            let values = layer.quaternions("values")?.ok_or_else(|| layer.error("values", "is missing"))?;
            let values = values.iter().map(|&q| usable_rotation(q, &mut bad_rotations)).collect();
            rotations[bone] = Some(keys(layer, times, values, |_| true)?);
        }
    }
    if other_channels > 0 {
        warnings.push(Warning::new(
            anim.at(),
            format!(
                "clip \"{}\": {other_channels} channel(s) that drive no bone's position or orientation were not read",
                anim.name()
            ),
        ));
    }
    if bad_rotations > 0 {
        warnings.push(Warning::new(
            anim.at(),
            format!("clip \"{}\": {bad_rotations} rotation key(s) of no length read as none", anim.name()),
        ));
    }

    let mut shared = SharedTimes::default();
    let mut tracks = Vec::new();
    for (bone, (t, r)) in translations.into_iter().zip(rotations).enumerate() {
        if t.is_none() && r.is_none() {
            continue;
        }
        let mut track = BoneTrack { bone_name: rig.skeleton.names[bone].clone(), ..BoneTrack::default() };
        if let Some(k) = t {
            track.translation = Curve::linear(shared.share(&k.times), k.values);
        }
        if let Some(k) = r {
            track.rotation = Curve::linear(shared.share(&k.times), k.values);
        }
        tracks.push(track);
    }
    // A clip without a name is named after its file, as an animation SMD's is (`smd::name_after_file`).
    let name = if anim.name().is_empty() { crate::io::smd::DEFAULT_CLIP_NAME } else { anim.name() };
    let mut clip = Clip { name: name.to_owned(), frame_rate, tracks, ..Clip::default() };
    clip.duration = match duration {
        Some(d) if d > 0.0 => start + d,
        _ => clip.last_key_time(),
    };
    clip.frame_count = (clip.duration * frame_rate).round().clamp(0.0, u32::MAX as f32 - 1.0) as u32 + 1;
    Ok(clip)
}

/// A channel's keys: as many times as values, ascending (sorted, with a warning-free stable sort, when a file
/// lists them out of order), values that fail `usable` dropped with their time.
fn keys<T: Copy>(
    layer: View,
    times: Vec<f32>,
    values: Vec<T>,
    usable: impl Fn(&T) -> bool,
) -> Result<Keys<T>, LoadError> {
    if times.len() != values.len() {
        return Err(layer.error("values", format!("{} values for {} times", values.len(), times.len())));
    }
    let mut pairs: Vec<(f32, T)> = times.into_iter().zip(values).filter(|(t, v)| t.is_finite() && usable(v)).collect();
    if pairs.windows(2).any(|w| w[1].0 < w[0].0) {
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let (times, values) = pairs.into_iter().unzip();
    Ok(Keys { times, values })
}
