//! Making a script's clip from an animation file's clip: the frame range the script names, at the script's
//! frame rate, forwards or backwards, with its events as callback keys.
//!
//! Frame numbers are the source file's own (SMD `time` numbers, ASC frames from `*SCENE_FIRSTFRAME`); the
//! loaded clip's time 0 is the file's first frame, so frame `f` is at `(f − file_first) / file_fps` there. The
//! cut keeps the keys strictly inside the range and adds a key at each end sampled from the curve (so a range
//! that starts between keys starts at the right pose), then re-times: `clip_time = (t − t0) · file_fps /
//! play_fps`, or `(t1 − t) · …` reversed. Hermite tangents are rescaled to the new time (and negated and
//! swapped when reversed); at the two added end keys they are estimated from the curve by central
//! differences. Step curves reversed hold the later key's value instead of the earlier one's over each gap —
//! the nature of playing a step backwards.

use std::ops::{Mul, Neg, Sub};

use crate::anim::curve::{Keyable, sample};
use crate::scene::{
    BoneTrack, CallbackKey, Clip, Curve, Interpolation, MorphTrack, ScriptEvent, SharedTimes, VertexFrame,
};

/// Where a clip's frames come from and how they are played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cut {
    /// The file's first frame number and frame rate (what the loaded clip's time 0 and time scale mean).
    pub file_first: i32,
    pub file_fps: f32,
    /// How many frames the file holds.
    pub file_frames: u32,
    /// The frames to play (inclusive), in the file's numbering.
    pub first: i32,
    pub last: i32,
    /// Frames per second to play them at.
    pub play_fps: f32,
    pub reversed: bool,
}

impl Cut {
    /// The file's last frame number.
    pub fn file_last(&self) -> i32 {
        self.file_first.saturating_add(i32::try_from(self.file_frames.max(1) - 1).unwrap_or(i32::MAX))
    }

    /// Clamps the range into the file's frames. `Err` when they do not overlap; `Ok(Some(note))` when the
    /// range was narrowed.
    pub fn clamp_to_file(&mut self) -> Result<Option<String>, String> {
        let (lo, hi) = (self.file_first, self.file_last());
        if self.last < lo || self.first > hi {
            return Err(format!("frames {}–{} are outside the file's frames {lo}–{hi}", self.first, self.last));
        }
        if self.first >= lo && self.last <= hi {
            return Ok(None);
        }
        let note = format!(
            "frames {}–{} reach outside the file's frames {lo}–{hi}; played {}–{}",
            self.first,
            self.last,
            self.first.max(lo),
            self.last.min(hi)
        );
        self.first = self.first.max(lo);
        self.last = self.last.min(hi);
        Ok(Some(note))
    }

    fn t0(&self) -> f32 {
        frames_between(self.file_first, self.first) / self.file_fps
    }

    fn t1(&self) -> f32 {
        frames_between(self.file_first, self.last) / self.file_fps
    }

    /// Source time → clip time factor.
    fn scale(&self) -> f32 {
        self.file_fps / self.play_fps
    }

    pub fn frame_count(&self) -> u32 {
        u32::try_from(i64::from(self.last) - i64::from(self.first) + 1).unwrap_or(0)
    }

    pub fn duration(&self) -> f32 {
        frames_between(self.first, self.last) / self.play_fps
    }

    /// Clip time of a source frame (clamped into the clip).
    pub fn time_of_frame(&self, frame: i32) -> f32 {
        let from_start =
            if self.reversed { frames_between(frame, self.last) } else { frames_between(self.first, frame) };
        (from_start / self.play_fps).clamp(0.0, self.duration())
    }

    /// Keeps the whole file as it is: no key needs to move.
    fn is_identity(&self) -> bool {
        !self.reversed
            && self.first == self.file_first
            && self.last == self.file_last()
            && (self.file_fps - self.play_fps).abs() <= f32::EPSILON * self.play_fps
    }
}

/// `to − from` frames, without overflow for any frame numbers a file may hold.
fn frames_between(from: i32, to: i32) -> f32 {
    (i64::from(to) - i64::from(from)) as f32
}

/// The tracks of `source` cut to `cut`, in a clip named `name` (no callback keys, no script info). The whole
/// file at its own rate keeps its keys as they are.
pub fn cut_clip(mut source: Clip, name: &str, cut: &Cut) -> Clip {
    let identity = cut.is_identity();
    // Channels keyed at the same frames before the cut are keyed at the same frames after it: one array again.
    let mut shared = SharedTimes::default();
    let morph_tracks = if identity {
        std::mem::take(&mut source.morph_tracks)
    } else {
        source
            .morph_tracks
            .iter()
            .map(|t| MorphTrack { weights: cut_curve(&t.weights, cut, &mut shared), ..t.clone() })
            .collect()
    };
    let tracks = if identity {
        source.tracks
    } else {
        source
            .tracks
            .iter()
            .map(|t| BoneTrack {
                bone_name: t.bone_name.clone(),
                translation: cut_curve(&t.translation, cut, &mut shared),
                rotation: cut_curve(&t.rotation, cut, &mut shared),
                scale: cut_curve(&t.scale, cut, &mut shared),
            })
            .collect()
    };
    Clip {
        name: name.to_owned(),
        duration: cut.duration(),
        frame_rate: cut.play_fps,
        frame_count: cut.frame_count(),
        tracks,
        morph_tracks,
        ..Clip::default()
    }
}

/// Events as callback keys at their frames' clip times, sorted by time. Returns the keys and the events whose
/// frame lies outside the clip (placed at its nearer end, as studiomdl does).
pub fn event_keys(events: &[ScriptEvent], cut: &Cut) -> (Vec<CallbackKey>, Vec<i32>) {
    let mut outside = Vec::new();
    let mut keys: Vec<CallbackKey> = events
        .iter()
        .map(|e| {
            if e.frame < cut.first || e.frame > cut.last {
                outside.push(e.frame);
            }
            CallbackKey::event(cut.time_of_frame(e.frame), e.frame, e.kind.clone(), e.data_with_options())
        })
        .collect();
    keys.sort_by(|a, b| a.time.total_cmp(&b.time));
    (keys, outside)
}

/// `clip` played backwards: keys and callback keys at `duration − t`.
pub fn reverse_clip(clip: &mut Clip) {
    let d = clip.duration;
    let mut shared = SharedTimes::default();
    for t in &mut clip.tracks {
        reverse_curve(&mut t.translation, d, &mut shared);
        reverse_curve(&mut t.rotation, d, &mut shared);
        reverse_curve(&mut t.scale, d, &mut shared);
    }
    for t in &mut clip.morph_tracks {
        reverse_curve(&mut t.weights, d, &mut shared);
    }
    for k in &mut clip.callback_keys {
        k.time = (d - k.time).clamp(0.0, d);
    }
    clip.callback_keys.reverse();
    if let Some(script) = clip.script.as_deref_mut()
        && let Some(frames) = script.vertex_frames.as_mut()
    {
        for f in &mut frames.frames {
            f.time = (d - f.time).clamp(0.0, d);
        }
        frames.frames.reverse();
    }
}

fn reverse_curve<T: Copy + Neg<Output = T>>(c: &mut Curve<T>, duration: f32, shared: &mut SharedTimes) {
    if c.len() <= 1 {
        return;
    }
    let reversed: Vec<f32> = c.times.iter().rev().map(|t| (duration - t).max(0.0)).collect();
    c.times = shared.share(&reversed);
    c.values.reverse();
    if c.interpolation == Interpolation::Hermite {
        c.tangents.reverse();
        for tan in &mut c.tangents {
            *tan = (-tan.1, -tan.0);
        }
    }
}

/// The frames `cut` keeps, as (index into `frames`, time in the cut clip), sorted by that time.
pub fn cut_vertex_frame_times(frames: &[VertexFrame], cut: &Cut) -> Vec<(usize, f32)> {
    let (t0, t1, s) = (cut.t0(), cut.t1(), cut.scale());
    let eps = 0.25 / cut.file_fps.max(f32::EPSILON);
    let mut out: Vec<(usize, f32)> = frames
        .iter()
        .enumerate()
        .filter(|(_, f)| f.time >= t0 - eps && f.time <= t1 + eps)
        .map(|(k, f)| {
            let t = if cut.reversed { (t1 - f.time) * s } else { (f.time - t0) * s };
            (k, t.clamp(0.0, cut.duration()))
        })
        .collect();
    out.sort_by(|a, b| a.1.total_cmp(&b.1));
    out
}

fn cut_curve<T>(c: &Curve<T>, cut: &Cut, shared: &mut SharedTimes) -> Curve<T>
where
    T: Keyable + Sub<Output = T> + Mul<f32, Output = T> + Neg<Output = T>,
{
    let n = c.len();
    if n == 0 {
        return Curve {
            times: Default::default(),
            values: Vec::new(),
            interpolation: c.interpolation,
            tangents: Vec::new(),
        };
    }
    if n == 1 {
        return Curve {
            times: shared.share(&[0.0]),
            values: vec![c.values[0]],
            interpolation: c.interpolation,
            tangents: c.tangents.clone(),
        };
    }
    let (t0, t1, s) = (cut.t0(), cut.t1(), cut.scale());
    let eps = 1e-4 / cut.file_fps.max(f32::EPSILON);
    let hermite = c.interpolation == Interpolation::Hermite && c.tangents.len() == n;
    let value_at = |t: f32| sample(c, t).unwrap_or(c.values[0]);
    let slope_at = |t: f32| {
        let h = 0.5 / cut.file_fps.max(f32::EPSILON);
        (value_at(t + h) - value_at(t - h)) * (1.0 / (2.0 * h))
    };
    let mut times = Vec::new();
    let mut values = Vec::new();
    let mut tangents = Vec::new();
    times.push(t0);
    values.push(value_at(t0));
    if hermite {
        let m = slope_at(t0);
        tangents.push((m, m));
    }
    if t1 > t0 + eps {
        for i in 0..n {
            let t = c.times[i];
            if t > t0 + eps && t < t1 - eps {
                times.push(t);
                values.push(c.values[i]);
                if hermite {
                    tangents.push(c.tangents[i]);
                }
            }
        }
        times.push(t1);
        values.push(value_at(t1));
        if hermite {
            let m = slope_at(t1);
            tangents.push((m, m));
        }
    }
    // Re-time (tangents are per second: d/d(clip time) = d/dt · 1/s).
    let inv = 1.0 / s;
    let mut out_times: Vec<f32> =
        times.iter().map(|t| if cut.reversed { (t1 - t) * s } else { (t - t0) * s }).collect();
    let mut out_tangents: Vec<(T, T)> = tangents.into_iter().map(|(a, b)| (a * inv, b * inv)).collect();
    if cut.reversed {
        out_times.reverse();
        values.reverse();
        out_tangents.reverse();
        for tan in &mut out_tangents {
            *tan = (-tan.1, -tan.0);
        }
    }
    for t in &mut out_times {
        *t = t.max(0.0);
    }
    Curve {
        times: shared.share(&out_times),
        values,
        interpolation: if hermite || c.interpolation != Interpolation::Hermite {
            c.interpolation
        } else {
            Interpolation::Linear
        },
        tangents: out_tangents,
    }
}

/// A one-frame clip of a skeleton's bind pose (an SMD reference used as an animation, as studiomdl allows).
pub fn bind_pose_clip(skeleton: &crate::scene::Skeleton, name: &str, fps: f32) -> Clip {
    let tracks = skeleton
        .names
        .iter()
        .zip(&skeleton.bind_local)
        .map(|(bone, bind)| BoneTrack {
            bone_name: bone.clone(),
            translation: Curve::constant(bind.translation),
            rotation: Curve::constant(bind.rotation),
            scale: Curve::default(),
        })
        .collect();
    Clip { name: name.to_owned(), duration: 0.0, frame_rate: fps, frame_count: 1, tracks, ..Clip::default() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn ramp() -> Clip {
        // x = frame number, frames 0..=10 at 10 fps.
        let times: Vec<f32> = (0..=10).map(|f| f as f32 / 10.0).collect();
        let values: Vec<Vec3> = (0..=10).map(|f| Vec3::new(f as f32, 0.0, 0.0)).collect();
        Clip {
            name: "ramp".into(),
            duration: 1.0,
            frame_rate: 10.0,
            frame_count: 11,
            tracks: vec![BoneTrack {
                bone_name: "b".into(),
                translation: Curve::linear(times, values),
                ..BoneTrack::default()
            }],
            ..Clip::default()
        }
    }

    fn x_at(clip: &Clip, t: f32) -> f32 {
        sample(&clip.tracks[0].translation, t).unwrap().x
    }

    #[test]
    fn a_range_plays_its_frames_at_the_new_rate() {
        let cut =
            Cut { file_first: 0, file_fps: 10.0, file_frames: 11, first: 2, last: 6, play_fps: 20.0, reversed: false };
        let c = cut_clip(ramp(), "part", &cut);
        assert_eq!((c.frame_count, c.frame_rate), (5, 20.0));
        assert!((c.duration - 0.2).abs() < 1e-6);
        assert!((x_at(&c, 0.0) - 2.0).abs() < 1e-4);
        assert!((x_at(&c, 0.1) - 4.0).abs() < 1e-4);
        assert!((x_at(&c, 0.2) - 6.0).abs() < 1e-4);
    }

    #[test]
    fn reversed_ranges_run_backwards_and_file_numbering_is_respected() {
        // The file's frames are numbered 11..=21 (an ASC with *SCENE_FIRSTFRAME 11).
        let cut = Cut {
            file_first: 11,
            file_fps: 10.0,
            file_frames: 11,
            first: 13,
            last: 15,
            play_fps: 10.0,
            reversed: true,
        };
        let c = cut_clip(ramp(), "back", &cut);
        assert!((x_at(&c, 0.0) - 4.0).abs() < 1e-4, "starts at frame 15 = x 4");
        assert!((x_at(&c, 0.2) - 2.0).abs() < 1e-4);
        assert!((cut.time_of_frame(15) - 0.0).abs() < 1e-6);
        assert!((cut.time_of_frame(13) - 0.2).abs() < 1e-6);
    }

    #[test]
    fn reversing_a_clip_mirrors_keys_and_events() {
        let mut c = ramp();
        c.callback_keys = vec![CallbackKey::new(0.25, "a"), CallbackKey::new(0.75, "b")];
        reverse_clip(&mut c);
        assert!((x_at(&c, 0.0) - 10.0).abs() < 1e-4);
        assert!((x_at(&c, 1.0) - 0.0).abs() < 1e-4);
        assert_eq!(c.callback_keys[0].data, "b");
        assert!((c.callback_keys[0].time - 0.25).abs() < 1e-6);
    }

    #[test]
    fn channels_sharing_key_times_still_share_them_after_a_cut_and_a_reversal() {
        let mut clip = ramp();
        let source = clip.tracks[0].translation.clone();
        let rotations = vec![glam::Quat::IDENTITY; source.values.len()];
        clip.tracks[0].rotation = Curve::linear(source.times.clone(), rotations);
        clip.tracks.push(BoneTrack { bone_name: "c".into(), translation: source, ..BoneTrack::default() });
        let cut =
            Cut { file_first: 0, file_fps: 10.0, file_frames: 11, first: 2, last: 6, play_fps: 20.0, reversed: false };
        let mut c = cut_clip(clip, "part", &cut);
        let shared = |c: &Clip| {
            let first = &c.tracks[0].translation.times;
            std::sync::Arc::ptr_eq(first, &c.tracks[0].rotation.times)
                && std::sync::Arc::ptr_eq(first, &c.tracks[1].translation.times)
        };
        assert!(shared(&c), "the cut gave each channel its own copy");
        assert_eq!(c.tracks[1].translation.times.len(), 5);
        reverse_clip(&mut c);
        assert!(shared(&c), "the reversal gave each channel its own copy");
        assert!((x_at(&c, 0.0) - 6.0).abs() < 1e-4);
    }

    #[test]
    fn ranges_outside_the_file_are_clamped_or_refused() {
        let mut cut =
            Cut { file_first: 1, file_fps: 25.0, file_frames: 40, first: 0, last: 10, play_fps: 25.0, reversed: false };
        assert!(cut.clamp_to_file().unwrap().is_some());
        assert_eq!((cut.first, cut.last), (1, 10));
        let mut cut = Cut { first: 50, last: 60, ..cut };
        assert!(cut.clamp_to_file().is_err());
    }
}
