//! A bound clip re-laid out for per-frame sampling: where the channels of a clip share one set of key times
//! (every baked clip: PSA, SMD and ASE samples), their values are stored frame-major, all bones' keys of one
//! frame next to each other, so sampling a pose streams through two frames of memory instead of chasing each
//! bone's curve vectors. The key index and fraction are found once per pose, not once per bone.
//!
//! Results match [`ClipBinding::sample`]: the same index rule and fraction, and the same interpolation except
//! for one measured shortcut: rotations between keys less than [`NLERP_MAX_ANGLE_DEG`] apart use normalised
//! lerp instead of slerp. nlerp's angle error on such a span is at most 2.1·10⁻⁵ rad (0.0012°; it grows with
//! the cube of the span: 1·10⁻⁶ rad at 3.6°, 5.8·10⁻⁴ rad at 30°), invisible on screen, and it avoids the
//! acos and sines that dominated sampling. (glam's slerp itself switches to nlerp below 3.6°.) Wider spans
//! slerp as the curve sampler does (on keys normalised once, here). Translations and scales are bit-identical; channels that do not share the
//! clip's key times (or are Hermite) are sampled from their curves exactly as there. Owned by an animation
//! set; costs one copy of the shared channels' values.

use glam::{Quat, Vec3};

use crate::anim::curve::{KeyGrid, key_index, sample_quat_in_grid, sample_vec3_in_grid};
use crate::anim::sample::ClipBinding;
use crate::scene::{Clip, Curve, Interpolation, KeyTimes, Skeleton, Transform};

/// Key spans up to this angle (degrees of rotation) interpolate by nlerp; wider ones by slerp.
pub const NLERP_MAX_ANGLE_DEG: f32 = 10.0;

/// `|dot|` of two unit quaternions at most [`NLERP_MAX_ANGLE_DEG`] apart: cos(5°) (checked in the tests).
const NLERP_MIN_DOT: f32 = 0.996_194_7;

/// Interpolates a rotation key span: nlerp for narrow spans, slerp otherwise; shortest arc either way.
#[inline(always)]
fn interpolate_rotation(a: Quat, b: Quat, s: f32) -> Quat {
    let d = a.dot(b);
    if d.abs() >= NLERP_MIN_DOT {
        let b = if d < 0.0 { -b } else { b };
        (a * (1.0 - s) + b * s).normalize()
    } else {
        a.slerp(b, s).normalize()
    }
}

/// Where one channel of one bone comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// No keys: the bind value.
    Bind,
    /// Frame-major table, linear interpolation.
    Linear,
    /// Frame-major table, holding the earlier key.
    Step,
    /// The curve itself (its own key times, or Hermite).
    Curve,
}

/// Where the shared key times put a sample time; mirrors the cases of `curve::sample_in_grid`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum At {
    /// Exactly the value of key `k` (before the first key, after the last, or on a zero-length span).
    Key(usize),
    /// Between keys `i` and `i + 1`, fraction `s`.
    Between(usize, f32),
}

#[derive(Clone, Debug, Default)]
pub(crate) struct BakedClip {
    times: KeyTimes,
    grid: KeyGrid,
    bones: usize,
    /// `frames × bones`, frame-major; empty when no bone's channel of that kind is baked.
    translation: Vec<Vec3>,
    rotation: Vec<Quat>,
    scale: Vec<Vec3>,
    /// Per bone: translation, rotation, scale.
    sources: Vec<[Source; 3]>,
}

fn source_for<T: Copy>(curve: &Curve<T>, times: &[f32]) -> Source {
    // Loaders share one time array between the channels keyed at the same frames, so most checks are one
    // pointer comparison; equal times in arrays of their own are found by their values.
    let same_times = curve.times.len() == times.len()
        && (std::ptr::eq(curve.times.as_ptr(), times.as_ptr()) || curve.times[..] == *times);
    if curve.is_empty() {
        Source::Bind
    } else if times.len() >= 2 && same_times && curve.values.len() == times.len() {
        match curve.interpolation {
            Interpolation::Linear => Source::Linear,
            Interpolation::Step => Source::Step,
            Interpolation::Hermite => Source::Curve,
        }
    } else {
        Source::Curve
    }
}

impl BakedClip {
    pub(crate) fn new(skeleton: &Skeleton, clip: &Clip, binding: &ClipBinding) -> Self {
        let bones = skeleton.len();
        let track = |bone: usize| binding.bone_tracks.get(bone).copied().flatten().and_then(|t| clip.tracks.get(t));
        // The shared key times: those of the first channel with two or more keys that could be baked.
        let times: KeyTimes = (0..bones)
            .filter_map(track)
            .flat_map(|t| [&t.translation.times, &t.rotation.times, &t.scale.times])
            .find(|times| times.len() >= 2)
            .cloned()
            .unwrap_or_default();
        let sources: Vec<[Source; 3]> = (0..bones)
            .map(|bone| match track(bone) {
                None => [Source::Bind; 3],
                Some(t) => {
                    [source_for(&t.translation, &times), source_for(&t.rotation, &times), source_for(&t.scale, &times)]
                }
            })
            .collect();
        let frames = times.len();
        let keyed = |bone: usize, channel: usize| matches!(sources[bone][channel], Source::Linear | Source::Step);
        // One frame-major table per channel kind that any bone bakes; slots of bones that do not are never read.
        fn table<T: Copy>(frames: usize, bones: usize, value: impl Fn(usize, usize) -> Option<T>, rest: T) -> Vec<T> {
            (0..frames)
                .flat_map(|f| (0..bones).map(move |b| (f, b)))
                .map(|(f, b)| value(f, b).unwrap_or(rest))
                .collect()
        }
        let any = |channel: usize| (0..bones).any(|b| keyed(b, channel));
        let translation = if any(0) {
            let value = |f: usize, b: usize| {
                track(b).filter(|_| keyed(b, 0)).and_then(|t| t.translation.values.get(f).copied())
            };
            table(frames, bones, value, Vec3::ZERO)
        } else {
            Vec::new()
        };
        let rotation = if any(1) {
            // Unit keys, so that the nlerp shortcut's error bound holds (and slerp's acos sees a true cosine).
            // Degenerate keys stay as they are and give what the curve sampler gives.
            let unit = |q: Quat| {
                let len2 = q.length_squared();
                if len2.is_finite() && len2 > 0.0 { q * len2.sqrt().recip() } else { q }
            };
            let value = |f: usize, b: usize| {
                track(b).filter(|_| keyed(b, 1)).and_then(|t| t.rotation.values.get(f).copied()).map(unit)
            };
            table(frames, bones, value, Quat::IDENTITY)
        } else {
            Vec::new()
        };
        let scale = if any(2) {
            let value =
                |f: usize, b: usize| track(b).filter(|_| keyed(b, 2)).and_then(|t| t.scale.values.get(f).copied());
            table(frames, bones, value, Vec3::ONE)
        } else {
            Vec::new()
        };
        Self { grid: KeyGrid::of(&times), times, bones, translation, rotation, scale, sources }
    }

    /// Bones whose channels all come from the frame-major tables or the bind pose (for diagnostics and tests).
    #[cfg(test)]
    fn fully_baked_bones(&self) -> usize {
        self.sources.iter().filter(|s| !s.contains(&Source::Curve)).count()
    }

    fn locate(&self, t: f32) -> At {
        let n = self.times.len();
        if n < 2 || t.is_nan() || t <= self.times[0] {
            return At::Key(0);
        }
        let i = key_index(&self.times, t, self.grid);
        if i + 1 >= n {
            return At::Key(n - 1);
        }
        let (t0, t1) = (self.times[i], self.times[i + 1]);
        let span = t1 - t0;
        if span.is_nan() || span <= 0.0 {
            return At::Key(i + 1);
        }
        At::Between(i, ((t - t0) / span).clamp(0.0, 1.0))
    }

    /// Writes the clip's local pose at `time` into `out` (one entry per bone), exactly as
    /// [`ClipBinding::sample`] would.
    pub(crate) fn sample(
        &self,
        skeleton: &Skeleton,
        clip: &Clip,
        binding: &ClipBinding,
        time: f32,
        out: &mut [Transform],
    ) {
        let bones = self.bones.min(out.len());
        if skeleton.bind_local.len() < bones {
            // A skeleton whose arrays disagree: the loop below stops at the shorter one; leave no slot stale.
            out.fill(Transform::IDENTITY);
        }
        let (head, tail) = out.split_at_mut(bones);
        self.for_each_bone(skeleton, clip, binding, time, |bone, t| {
            if let Some(slot) = head.get_mut(bone) {
                *slot = t;
            }
        });
        for (i, slot) in tail.iter_mut().enumerate() {
            *slot = skeleton.bind_local.get(bones + i).copied().unwrap_or_default();
        }
    }

    /// Calls `visit(bone, local transform at time)` for every bone the clip was baked for, in order: the
    /// sampling loop, for callers that consume the pose as it is made (the mixer accumulates it directly).
    #[inline]
    pub(crate) fn for_each_bone(
        &self,
        skeleton: &Skeleton,
        clip: &Clip,
        binding: &ClipBinding,
        time: f32,
        mut visit: impl FnMut(usize, Transform),
    ) {
        // On a key (or outside the keys) both rows are that key and s = 0, which reproduces the key exactly.
        let (k0, k1, s) = match self.locate(time) {
            At::Key(k) => (k, k, 0.0),
            At::Between(i, s) => (i, i + 1, s),
        };
        let n = self.bones;
        let (t0, t1) = (row(&self.translation, k0, n), row(&self.translation, k1, n));
        let (s0, s1) = (row(&self.scale, k0, n), row(&self.scale, k1, n));
        let (r0, r1) = (row(&self.rotation, k0, n), row(&self.rotation, k1, n));
        let vec3 = |source: Source, a: &[Vec3], b: &[Vec3], bone: usize, bind: Vec3| match source {
            Source::Linear => match (a.get(bone), b.get(bone)) {
                (Some(a), Some(b)) => a.lerp(*b, s),
                _ => bind,
            },
            Source::Step => a.get(bone).copied().unwrap_or(bind),
            Source::Bind | Source::Curve => bind,
        };
        for (bone, (&[st, sr, ss], bind)) in self.sources.iter().zip(&skeleton.bind_local).enumerate() {
            let mut out = Transform {
                translation: vec3(st, t0, t1, bone, bind.translation),
                rotation: match sr {
                    Source::Linear => match (r0.get(bone), r1.get(bone)) {
                        (Some(a), Some(b)) => interpolate_rotation(*a, *b, s),
                        _ => bind.rotation,
                    },
                    Source::Step => r0.get(bone).copied().unwrap_or(bind.rotation),
                    Source::Bind | Source::Curve => bind.rotation,
                },
                scale: vec3(ss, s0, s1, bone, bind.scale),
            };
            if st == Source::Curve || sr == Source::Curve || ss == Source::Curve {
                sample_curves(&mut out, [st, sr, ss], clip, binding, bone, time);
            }
            if let Some(rule) = binding.translation_rule(bone) {
                out.translation = rule.apply(out.translation);
            }
            visit(bone, out);
        }
    }
}

/// Frame `k` of a frame-major table with `n` bones per frame (empty when the table has no such frame).
#[inline]
fn row<T>(table: &[T], k: usize, n: usize) -> &[T] {
    table.get(k * n..(k + 1) * n).unwrap_or(&[])
}

/// The channels of one bone that are sampled from their own curves (kept out of the hot loop).
#[cold]
#[inline(never)]
fn sample_curves(
    out: &mut Transform,
    sources: [Source; 3],
    clip: &Clip,
    binding: &ClipBinding,
    bone: usize,
    time: f32,
) {
    let Some(track) = binding.bone_tracks.get(bone).copied().flatten().and_then(|t| clip.tracks.get(t)) else {
        return;
    };
    let [gt, gr, gs] = binding.key_grids(bone);
    if sources[0] == Source::Curve {
        out.translation = sample_vec3_in_grid(&track.translation, time, gt).unwrap_or(out.translation);
    }
    if sources[1] == Source::Curve {
        out.rotation = sample_quat_in_grid(&track.rotation, time, gr).unwrap_or(out.rotation);
    }
    if sources[2] == Source::Curve {
        out.scale = sample_vec3_in_grid(&track.scale, time, gs).unwrap_or(out.scale);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::BoneTrack;

    fn assert_same_as_binding(skeleton: &Skeleton, clip: &Clip, probes: impl Iterator<Item = f32>) {
        let binding = ClipBinding::new(skeleton, clip);
        let baked = BakedClip::new(skeleton, clip, &binding);
        let mut a = vec![Transform::IDENTITY; skeleton.len()];
        let mut b = vec![Transform::IDENTITY; skeleton.len()];
        for t in probes {
            binding.sample(skeleton, clip, t, &mut a);
            baked.sample(skeleton, clip, &binding, t, &mut b);
            for (bone, (x, y)) in a.iter().zip(&b).enumerate() {
                assert_eq!((x.translation, x.scale), (y.translation, y.scale), "bone {bone}, t = {t}");
                let y_rot = if x.rotation.dot(y.rotation) < 0.0 { -y.rotation } else { y.rotation };
                assert!(
                    x.rotation.abs_diff_eq(y_rot, 2e-5),
                    "bone {bone}, t = {t}: {:?} vs {:?}",
                    x.rotation,
                    y.rotation
                );
            }
        }
    }

    #[test]
    fn nlerp_error_stays_within_the_documented_bound() {
        assert!((NLERP_MIN_DOT - (NLERP_MAX_ANGLE_DEG.to_radians() / 2.0).cos()).abs() < 1e-7);
        // Spans below and above the threshold, both hemispheres. (Keys are unit length: baking normalises.)
        for deg in [0.5f32, 2.0, 3.6, 6.0, 9.99, 10.5, 45.0, 170.0] {
            let a = Quat::from_rotation_x(0.3) * Quat::from_rotation_y(-1.0);
            let b = a * Quat::from_axis_angle(Vec3::new(1.0, 2.0, -0.5).normalize(), deg.to_radians());
            for (ka, kb) in [(a, b), (a, -b), (-b, a)] {
                for k in 0..=20 {
                    let s = k as f32 / 20.0;
                    let want = ka.slerp(kb, s).normalize();
                    let got = interpolate_rotation(ka, kb, s);
                    // f32 angle_between is imprecise near 0; the chord between unit quaternions is about half
                    // the rotation angle between them.
                    let got = if got.dot(want) < 0.0 { -got } else { got };
                    let chord = (got - want).length();
                    assert!(chord <= 1.2e-5, "{deg}° s={s}: {chord}");
                }
            }
        }
    }

    #[test]
    fn demo_clips_bake_fully_and_sample_identically() {
        let asset = crate::scene::samples::demo::demo_asset();
        for clip in &asset.clips {
            let binding = ClipBinding::new(&asset.skeleton, clip);
            let baked = BakedClip::new(&asset.skeleton, clip, &binding);
            assert_eq!(baked.fully_baked_bones(), asset.skeleton.len());
            let mut probes: Vec<f32> = (0..900).map(|i| -0.1 + i as f32 * 0.0023).collect();
            probes.extend(clip.tracks[0].rotation.times.iter().copied());
            probes.extend([f32::NAN, f32::INFINITY, -f32::INFINITY, 1e9]);
            assert_same_as_binding(&asset.skeleton, clip, probes.into_iter());
        }
    }

    #[test]
    fn mixed_channels_fall_back_to_their_curves() {
        let asset = crate::scene::samples::demo::demo_asset();
        let mut clip = asset.clips[0].clone();
        let times = clip.tracks[0].rotation.times.clone();
        let n = times.len();
        // Shared times with step interpolation and a scale channel; one bone on its own irregular times; one
        // Hermite curve; one constant; one bone with no track at all.
        clip.tracks[1].translation = Curve {
            times: times.clone(),
            values: (0..n).map(|f| Vec3::new(f as f32, 1.0, 0.0)).collect(),
            interpolation: Interpolation::Step,
            tangents: Vec::new(),
        };
        clip.tracks[1].scale =
            Curve::linear(times.clone(), (0..n).map(|f| Vec3::splat(1.0 + f as f32 * 0.01)).collect());
        clip.tracks[2].rotation = Curve::linear(
            vec![0.0, 0.7, 1.1],
            vec![Quat::IDENTITY, Quat::from_rotation_x(1.0), Quat::from_rotation_y(2.0)],
        );
        clip.tracks[3].translation = Curve {
            times: vec![0.0, 2.0].into(),
            values: vec![Vec3::ZERO, Vec3::splat(8.0)],
            interpolation: Interpolation::Hermite,
            tangents: vec![(Vec3::ZERO, Vec3::ZERO), (Vec3::splat(12.0), Vec3::splat(12.0))],
        };
        clip.tracks[4].rotation = Curve::constant(Quat::from_rotation_z(0.5));
        clip.tracks.remove(5);
        clip.tracks.push(BoneTrack { bone_name: "not in the skeleton".into(), ..BoneTrack::default() });
        let binding = ClipBinding::new(&asset.skeleton, &clip);
        let baked = BakedClip::new(&asset.skeleton, &clip, &binding);
        assert_eq!(baked.sources[1], [Source::Step, Source::Linear, Source::Linear]);
        assert_eq!(baked.sources[2][1], Source::Curve);
        assert_eq!(baked.sources[3][0], Source::Curve);
        assert_eq!(baked.sources[5], [Source::Bind; 3]);
        assert_same_as_binding(&asset.skeleton, &clip, (0..700).map(|i| -0.1 + i as f32 * 0.0031));
    }

    #[test]
    fn clips_without_shared_times_still_sample() {
        let asset = crate::scene::samples::demo::demo_asset();
        let mut clip = asset.clips[1].clone();
        for (i, track) in clip.tracks.iter_mut().enumerate() {
            track.rotation.times = track.rotation.times.iter().map(|t| t * (1.0 + i as f32 * 0.1)).collect();
        }
        assert_same_as_binding(&asset.skeleton, &clip, (0..300).map(|i| i as f32 * 0.007));
        let empty = Clip { tracks: Vec::new(), ..clip };
        assert_same_as_binding(&asset.skeleton, &empty, [0.0, 1.0].into_iter());
    }
}
