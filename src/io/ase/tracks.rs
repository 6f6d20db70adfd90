//! `*TM_ANIMATION` controllers → one [`BoneTrack`] per node, in seconds, with the values as the file means them.
//!
//! Rules (3ds Max's exporter, checked against its source and against MotionCaptureROM.ase):
//! - time: seconds from the clip's first sample (`timing` decides where that is);
//! - sampled rotations (`*CONTROL_ROT_SAMPLE`) and rotation keys are **relative to the previous one**: the exporter
//!   writes `q_k = abs_k / abs_(k−1)` starting from the identity, so the absolute rotation is accumulated from the
//!   identity (the first sample, at the first frame, is therefore the node's local rotation — on
//!   MotionCaptureROM.ase it equals the `*NODE_TM` bind rotation of every node); see [`accumulate`] for the order;
//! - a sample equal to the previous one is not written: a missing sample holds the previous value (a hold key
//!   is inserted one sample step before the next written sample), and a track that ends early is padded with
//!   its last value to the scene's last frame;
//! - 3ds Max axis-angles turn the other way from the right-hand rule (`(angleaxis 90 z) as matrix3` maps x to −y),
//!   so the glam rotation is `from_axis_angle(axis, −angle)`;
//! - keyed tracks: LINEAR → linear/slerp, TCB → Hermite with Kochanek–Bartels tangents ([`crate::anim::tcb`]),
//!   BEZIER → Hermite with the file's tangents (3ds Max stores them per tick; the in tangent points back along
//!   the curve, so the arriving slope is −in) or, when a key has none, Catmull–Rom tangents;
//! - scale keys carry a scale axis (`S = SR⁻¹·S·SR`); a bone's SRT cannot hold a rotated non-uniform scale, so the
//!   axis is dropped (reported when it matters).
//!
//! Files whose samples are world transforms (GothicSourcer, see `dialect`) are built with
//! [`Rotations::Absolute`]: each rotation sample is taken as it is, and `world_samples` then makes positions and
//! rotations parent-relative.

use std::borrow::Cow;

use glam::{Mat3, Quat, Vec3, Vec4};

use super::records::{KeyExtras, RawAnim, RawTrack, TrackKind};
use super::timing::Timing;
use crate::anim::tcb::{TcbParams, tcb_tangents, tcb_tangents_quat};
use crate::scene::{BoneTrack, Curve, Interpolation, SharedTimes, Warning};

/// 3ds Max axis-angle (left-handed sense) → glam quaternion.
pub(super) fn max_axis_angle(v: Vec4) -> Quat {
    let axis = v.truncate();
    match axis.try_normalize() {
        Some(axis) if v.w.is_finite() => Quat::from_axis_angle(axis, -v.w),
        _ => Quat::IDENTITY,
    }
}

/// How a relative rotation key composes with the accumulated one (glam order). The exporter writes
/// `q = abs_k / abs_(k−1)` with 3ds Max's `p/q = r` such that `q·r = p` (Max's row-vector order), so
/// `abs_k = abs_(k−1)·q` applies `abs_(k−1)` first: `q · abs_(k−1)` with glam's column vectors
/// (`R_k = D_k · R_(k−1)`). Read as row vectors the other way round, `R_k = R_(k−1) · D_k` lifts MotionCaptureROM's
/// feet above the pelvis within seconds, while this order keeps them on the floor and returns the range-of-motion
/// take to its start pose (a test checks both).
#[inline]
pub(super) fn accumulate(previous: Quat, relative: Quat) -> Quat {
    (relative * previous).normalize()
}

/// A track's keys in time order, each tick once: the track's own columns when they already are (as every
/// exporter writes them), else sorted copies.
struct Keys<'a> {
    ticks: Cow<'a, [i64]>,
    values: Cow<'a, [Vec4]>,
    /// Empty, or one per key (see [`RawTrack::extras`]).
    extras: Cow<'a, [KeyExtras]>,
}

impl Keys<'_> {
    fn extras_of(&self, i: usize) -> KeyExtras {
        self.extras.get(i).copied().unwrap_or_default()
    }
}

/// Keys in time order; equal ticks keep the later key. Reports out-of-order keys.
fn sorted_keys<'a>(track: &'a RawTrack, name: &str, warnings: &mut Vec<Warning>) -> Keys<'a> {
    let ticks = &track.ticks;
    let values = &track.values[..ticks.len().min(track.values.len())];
    if ticks.windows(2).all(|w| w[0] < w[1]) && values.len() == ticks.len() {
        return Keys {
            ticks: Cow::Borrowed(ticks),
            values: Cow::Borrowed(values),
            extras: Cow::Borrowed(&track.extras),
        };
    }
    let mut order: Vec<usize> = (0..values.len()).collect();
    if ticks.windows(2).any(|w| w[1] < w[0]) {
        warnings.push(Warning::new(
            format!("line {}", track.line),
            format!("keys of '{name}' are not in time order; sorted"),
        ));
        // Stable: of keys at one tick, the one written last stays last.
        order.sort_by_key(|&i| ticks[i]);
    }
    let mut kept: Vec<usize> = Vec::with_capacity(order.len());
    for i in order {
        match kept.last_mut() {
            Some(last) if ticks[*last] == ticks[i] => *last = i,
            _ => kept.push(i),
        }
    }
    let extras = if track.extras.is_empty() { Vec::new() } else { kept.iter().map(|&i| track.extras_of(i)).collect() };
    Keys {
        ticks: Cow::Owned(kept.iter().map(|&i| ticks[i]).collect()),
        values: Cow::Owned(kept.iter().map(|&i| values[i]).collect()),
        extras: Cow::Owned(extras),
    }
}

/// Sampled values → keys with the exporter's hold and padding rules (left-out samples held, short tracks padded).
fn hold_filled<T: Copy + PartialEq>(
    ticks: &[i64],
    values: Vec<T>,
    timing: &Timing,
    before: Option<T>,
) -> (Vec<f32>, Vec<T>) {
    let step = timing.step.max(1);
    let (Some(&first_tick), Some(&first)) = (ticks.first(), values.first()) else {
        return (Vec::new(), Vec::new());
    };
    let (Some(&last_tick), Some(&last)) = (ticks.last(), values.last()) else { return (Vec::new(), Vec::new()) };
    // The exact count, so the curve's arrays are allocated once and to size.
    let holds = ticks.windows(2).filter(|w| w[1] - w[0] > step).count();
    let lead = if first_tick > timing.start_tick { 1 + usize::from(first_tick - step > timing.start_tick) } else { 0 };
    let len = ticks.len() + holds + lead + usize::from(last_tick < timing.end_tick);
    if len == ticks.len() && values.len() == len {
        // Nothing left out, nothing to pad (a sample at every frame): the keys are the samples.
        return (ticks.iter().map(|&t| timing.seconds(t)).collect(), values);
    }
    let mut times = Vec::with_capacity(len);
    let mut out = Vec::with_capacity(len);
    let mut push = |tick: i64, v: T| {
        times.push(timing.seconds(tick));
        out.push(v);
    };
    if first_tick > timing.start_tick {
        // Nothing written at the first frame: it held `before` (rotations: identity) or the first value.
        let held = before.unwrap_or(first);
        push(timing.start_tick, held);
        if first_tick - step > timing.start_tick {
            push(first_tick - step, held);
        }
    }
    let mut previous: Option<(i64, T)> = None;
    for (&tick, &v) in ticks.iter().zip(&values) {
        if let Some((prev_tick, prev)) = previous
            && tick - prev_tick > step
        {
            push(tick - step, prev);
        }
        push(tick, v);
        previous = Some((tick, v));
    }
    if last_tick < timing.end_tick {
        push(timing.end_tick, last);
    }
    (times, out)
}

fn times_of(keys: &Keys, timing: &Timing) -> Vec<f32> {
    keys.ticks.iter().map(|&t| timing.seconds(t)).collect()
}

fn tcb_params(keys: &Keys) -> Vec<TcbParams> {
    (0..keys.ticks.len())
        .map(|i| {
            let tcb = keys.extras_of(i).tcb;
            TcbParams::new(tcb[0], tcb[1], tcb[2])
        })
        .collect()
}

fn vec_curve(keys: &Keys, kind: TrackKind, timing: &Timing, shared: &mut SharedTimes) -> Curve<Vec3> {
    let values: Vec<Vec3> = keys.values.iter().map(|v| v.truncate()).collect();
    match kind {
        TrackKind::Sampled => {
            let (times, values) = hold_filled(&keys.ticks, values, timing, None);
            Curve::linear(shared.share(&times), values)
        }
        TrackKind::Linear => Curve::linear(shared.share(&times_of(keys, timing)), values),
        TrackKind::Tcb => {
            let times = times_of(keys, timing);
            let tangents = tcb_tangents(&times, &values, &tcb_params(keys));
            Curve { times: times.into(), values, interpolation: Interpolation::Hermite, tangents }
        }
        TrackKind::Bezier => {
            let times = times_of(keys, timing);
            let all_tangents = !keys.extras.is_empty() && keys.extras.iter().all(|e| e.tangents.is_some());
            let tangents = if all_tangents {
                let tps = timing.ticks_per_second as f32;
                keys.extras
                    .iter()
                    .map(|e| {
                        let (tin, tout) = e.tangents.unwrap_or_default();
                        (-tin * tps, tout * tps)
                    })
                    .collect()
            } else {
                tcb_tangents(&times, &values, &[])
            };
            Curve { times: times.into(), values, interpolation: Interpolation::Hermite, tangents }
        }
    }
}

fn rot_curve(
    keys: &Keys,
    kind: TrackKind,
    timing: &Timing,
    rotations: Rotations,
    shared: &mut SharedTimes,
) -> Curve<Quat> {
    // Accumulate relative keys (or take absolute ones as they are), keeping neighbours in one hemisphere so
    // interpolation takes the short way.
    let mut values = Vec::with_capacity(keys.values.len());
    let mut acc = Quat::IDENTITY;
    for &v in keys.values.iter() {
        let key = max_axis_angle(v);
        let mut q = match rotations {
            Rotations::Relative => accumulate(acc, key),
            Rotations::Absolute => key,
        };
        if q.dot(acc) < 0.0 {
            q = -q;
        }
        acc = q;
        values.push(q);
    }
    match kind {
        TrackKind::Sampled => {
            // Before a late first sample: a relative track held the identity, an absolute one its first value.
            let before = (rotations == Rotations::Relative).then_some(Quat::IDENTITY);
            let (times, values) = hold_filled(&keys.ticks, values, timing, before);
            Curve::linear(shared.share(&times), values)
        }
        TrackKind::Linear => Curve::linear(shared.share(&times_of(keys, timing)), values),
        TrackKind::Tcb | TrackKind::Bezier => {
            let times = times_of(keys, timing);
            let params = if kind == TrackKind::Tcb { tcb_params(keys) } else { Vec::new() };
            let tangents = tcb_tangents_quat(&times, &values, &params);
            Curve { times: times.into(), values, interpolation: Interpolation::Hermite, tangents }
        }
    }
}

/// What rotation keys are: changes from the previous key (3ds Max's exporter), or rotations in their own right
/// (world rotations in GothicSourcer files; assimp reads every version ≤ 110 file this way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rotations {
    Relative,
    Absolute,
}

/// Builds the clip track of one node, values as the file means them (see [`Rotations`]).
pub(super) fn build_track(
    name: &str,
    anim: &RawAnim,
    timing: &Timing,
    rotations: Rotations,
    warnings: &mut Vec<Warning>,
) -> BoneTrack {
    let mut track = BoneTrack { bone_name: name.to_owned(), ..BoneTrack::default() };
    // Position and rotation samples are written at the same frames: their curves share one time array.
    let mut shared = SharedTimes::default();
    if let Some(pos) = &anim.pos {
        let keys = sorted_keys(pos, name, warnings);
        track.translation = vec_curve(&keys, pos.kind, timing, &mut shared);
    }
    if let Some(rot) = &anim.rot {
        let keys = sorted_keys(rot, name, warnings);
        track.rotation = rot_curve(&keys, rot.kind, timing, rotations, &mut shared);
    }
    if let Some(scale) = &anim.scale {
        let keys = sorted_keys(scale, name, warnings);
        // The scale axis changes the result only when the scale is not uniform around it: measure how far
        // SR⁻¹·S·SR is from S itself, relative to the scale.
        let worst = (0..keys.ticks.len())
            .map(|i| {
                let s = keys.values[i].truncate();
                let r = Mat3::from_quat(max_axis_angle(keys.extras_of(i).scale_axis));
                let exact = r.transpose() * Mat3::from_diagonal(s) * r;
                let diff = (exact - Mat3::from_diagonal(s)).to_cols_array().iter().fold(0.0f32, |m, x| m.max(x.abs()));
                diff / s.abs().max_element().max(1e-6)
            })
            .fold(0.0f32, f32::max);
        if worst > 1e-3 {
            warnings.push(Warning::new(
                format!("line {}", scale.line),
                format!(
                    "'{name}': the scale is applied along a rotated axis (off by up to {:.1}% of the scale), which a bone transform cannot hold; the axis is ignored",
                    worst * 100.0
                ),
            ));
        }
        track.scale = vec_curve(&keys, scale.kind, timing, &mut shared);
    }
    track
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing() -> Timing {
        Timing { start_tick: 0, end_tick: 4000, ticks_per_second: 4800.0, step: 800 }
    }

    fn key(tick: i64, value: Vec4) -> (i64, Vec4) {
        (tick, value)
    }

    /// A sampled track of these keys, as the parser leaves it.
    fn track(keys: &[(i64, Vec4)]) -> RawTrack {
        let mut t = RawTrack::new(1, TrackKind::Sampled);
        for &(tick, value) in keys {
            t.push(tick, value, None);
        }
        t
    }

    fn in_order(track: &RawTrack) -> Keys<'_> {
        sorted_keys(track, "test", &mut Vec::new())
    }

    #[test]
    fn relative_rotations_accumulate_from_identity() {
        // Three relative samples of 30° about Max's z: absolute 30°, 60°, 90° (Max sense → −angle in glam).
        let a = 30f32.to_radians();
        let keys = [
            key(0, Vec4::new(0.0, 0.0, 1.0, a)),
            key(800, Vec4::new(0.0, 0.0, 1.0, a)),
            key(1600, Vec4::new(0.0, 0.0, 1.0, a)),
        ];
        let keys = track(&keys);
        let c = relative_samples(&keys);
        let expected = [-30f32, -60.0, -90.0].map(|d| Quat::from_rotation_z(d.to_radians()));
        for (i, e) in expected.iter().enumerate() {
            assert!(c.values[i].angle_between(*e) < 1e-5, "{i}: {:?}", c.values[i]);
        }
        // Padded to the scene end with the last value.
        assert_eq!(*c.times.last().unwrap(), 4000.0 / 4800.0);
        assert!(c.values.last().unwrap().angle_between(expected[2]) < 1e-5);
    }

    /// The curve of a sampled rotation track read as 3ds Max's exporter writes it (changes from the previous key).
    fn relative_samples(track: &RawTrack) -> Curve<Quat> {
        rot_curve(&in_order(track), TrackKind::Sampled, &timing(), Rotations::Relative, &mut SharedTimes::default())
    }

    #[test]
    fn accumulation_order_composes_in_the_parent_frame() {
        // abs_k = q_k · abs_(k−1): a relative rotation about x after an absolute one about z.
        let z = Quat::from_rotation_z(0.7);
        let x = Quat::from_rotation_x(0.4);
        assert!(accumulate(z, x).angle_between(x * z) < 1e-6);
    }

    #[test]
    fn left_out_samples_hold_the_previous_value() {
        // Written at 0 and 2400 only: 800 and 1600 equalled the value at 0.
        let keys = [key(0, Vec4::new(1.0, 0.0, 0.0, 0.0)), key(2400, Vec4::new(4.0, 0.0, 0.0, 0.0))];
        let keys = track(&keys);
        let c = vec_curve(&in_order(&keys), TrackKind::Sampled, &timing(), &mut SharedTimes::default());
        let ticks: Vec<f32> = c.times.iter().map(|t| t * 4800.0).collect();
        assert_eq!(ticks, vec![0.0, 1600.0, 2400.0, 4000.0]);
        assert_eq!(c.values[1], Vec3::X);
        assert_eq!(c.values[3], Vec3::new(4.0, 0.0, 0.0));
        // A rotation track whose first sample comes late held the identity before it.
        let late = track(&[key(1600, Vec4::new(0.0, 0.0, 1.0, 0.5))]);
        let r = relative_samples(&late);
        let ticks: Vec<f32> = r.times.iter().map(|t| t * 4800.0).collect();
        assert_eq!(ticks, vec![0.0, 800.0, 1600.0, 4000.0]);
        assert_eq!(r.values[1], Quat::IDENTITY);
    }

    #[test]
    fn a_scale_axis_is_reported_only_when_it_changes_the_scale() {
        let track = |axis: Vec4| {
            let mut scale = RawTrack::new(7, TrackKind::Sampled);
            scale.push(0, Vec4::new(1.0, 1.0, 2.0, 0.0), Some(KeyExtras { scale_axis: axis, ..KeyExtras::default() }));
            RawAnim { scale: Some(scale), ..RawAnim::default() }
        };
        let mut warnings = Vec::new();
        // About z, with x and y scaled alike: no difference.
        build_track("a", &track(Vec4::new(0.0, 0.0, 1.0, 0.3)), &timing(), Rotations::Relative, &mut warnings);
        assert!(warnings.is_empty(), "{warnings:?}");
        // About x: the stretch along z is tilted.
        build_track("b", &track(Vec4::new(1.0, 0.0, 0.0, 0.3)), &timing(), Rotations::Relative, &mut warnings);
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].position, "line 7");
    }

    #[test]
    fn keys_out_of_order_are_sorted_and_a_repeated_tick_keeps_the_later_key() {
        let mut t = RawTrack::new(3, TrackKind::Sampled);
        let tcb = |x: f32| Some(KeyExtras { tcb: [x, 0.0, 0.0, 0.0, 0.0], ..KeyExtras::default() });
        t.push(1600, Vec4::splat(3.0), None);
        t.push(0, Vec4::splat(1.0), tcb(1.0));
        t.push(800, Vec4::splat(2.0), None);
        t.push(0, Vec4::splat(4.0), tcb(4.0));
        let mut warnings = Vec::new();
        let keys = sorted_keys(&t, "x", &mut warnings);
        assert_eq!(&keys.ticks[..], &[0, 800, 1600]);
        assert_eq!(&keys.values[..], &[Vec4::splat(4.0), Vec4::splat(2.0), Vec4::splat(3.0)]);
        assert_eq!(keys.extras.iter().map(|e| e.tcb[0]).collect::<Vec<_>>(), vec![4.0, 0.0, 0.0]);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        // Already in order: the track's own columns, no warning; a repeated tick alone is merged quietly.
        let ordered = track(&[key(0, Vec4::X), key(800, Vec4::Y), key(800, Vec4::Z)]);
        let keys = sorted_keys(&ordered, "y", &mut warnings);
        assert_eq!(&keys.ticks[..], &[0, 800]);
        assert_eq!(keys.values[1], Vec4::Z);
        assert_eq!(warnings.len(), 1);
        let strict = track(&[key(0, Vec4::X), key(800, Vec4::Y)]);
        assert!(matches!(sorted_keys(&strict, "z", &mut warnings).ticks, Cow::Borrowed(_)));
    }
}
