//! Unity `AnimationCurve` evaluation for the curves of MRTK recordings ([`FloatCurve`], [`BoolCurve`] in
//! `scene`). Pure functions of the curve and a time; the caller may keep a per-curve segment hint so that
//! scrubbing forward costs O(1) per curve instead of a binary search. Reads no files and owns no state.
//!
//! Semantics (Unity's, as documented in the spec):
//! - Wrap modes map time outside `[first key, last key]`: Loop repeats, PingPong reflects, everything else
//!   (Default, Once, ClampForever, unknown values) clamps — `AnimationCurve.Evaluate` treats Once as Clamp.
//! - A segment whose left key's out-tangent or right key's in-tangent is not finite is stepped (holds the left
//!   value until the right key).
//! - Neither side weighted: cubic Hermite. A weighted side (out-weight of the left key when its mode has the Out
//!   bit, in-weight of the right key when its mode has the In bit): a cubic Bézier in (time, value) whose inner
//!   control points sit `w·Δ` along each tangent, an unweighted side using 1/3 (which is Hermite again). We solve
//!   `x(u) = t` by Newton iterations kept inside a bisection bracket — no closed-form cubic, so weights outside
//!   [0, 1] (MRTK's bool keys use 1e6) still give the root that brackets `t`, never NaN.
//! - Empty curves evaluate to 0 and single-key curves to that key's value, as in Unity.

use crate::scene::{BoolCurve, FloatCurve, Keyframe, WrapMode, weighted_mode};

/// Weight Unity uses for a side that is not weighted; with it the Bézier equals the Hermite segment.
pub const DEFAULT_WEIGHT: f32 = 1.0 / 3.0;

/// Value of `curve` at `t` (binary search for the segment).
pub fn evaluate(curve: &FloatCurve, t: f32) -> f32 {
    let mut hint = 0;
    evaluate_with_hint(curve, t, &mut hint)
}

/// Value of `curve` at `t`, starting the segment search at `*hint` (the index of the key that began the segment
/// found last time) and updating it. Any hint value is safe; a good one makes the search O(1).
pub fn evaluate_with_hint(curve: &FloatCurve, t: f32, hint: &mut u32) -> f32 {
    let keys = curve.keys.as_slice();
    let (Some(first), Some(last)) = (keys.first(), keys.last()) else { return 0.0 };
    if keys.len() == 1 {
        return first.value;
    }
    let t = wrap_time(t, first.time, last.time, curve.pre_wrap, curve.post_wrap);
    // At or beyond the ends (after wrapping) the value is the end key's, exactly.
    if t <= first.time {
        *hint = 0;
        return first.value;
    }
    if t >= last.time {
        *hint = (keys.len() - 2) as u32;
        return last.value;
    }
    let i = find_segment(keys.len(), |i| keys.get(i).map_or(f32::INFINITY, |k| k.time), t, hint);
    match (keys.get(i), keys.get(i + 1)) {
        (Some(k0), Some(k1)) => segment(k0, k1, t),
        _ => last.value,
    }
}

/// Value of a bool curve at `t` (the value of the last key at or before the wrapped time; the first key's value
/// before it). 0 when empty. MRTK reads `> 0.5` as true: see [`evaluate_bool`].
pub fn evaluate_step(curve: &BoolCurve, t: f32, hint: &mut u32) -> f32 {
    let keys = curve.keys.as_slice();
    let (Some(first), Some(last)) = (keys.first(), keys.last()) else { return 0.0 };
    if keys.len() == 1 {
        return first.value;
    }
    let t = wrap_time(t, first.time, last.time, curve.pre_wrap, curve.post_wrap);
    if t < keys.get(1).map_or(f32::INFINITY, |k| k.time) {
        *hint = 0;
        return first.value;
    }
    if t >= last.time {
        *hint = (keys.len() - 2) as u32;
        return last.value;
    }
    let i = find_segment(keys.len(), |i| keys.get(i).map_or(f32::INFINITY, |k| k.time), t, hint);
    keys.get(i).map_or(last.value, |k| k.value)
}

/// A bool curve as MRTK reads it: `value > 0.5`.
pub fn evaluate_bool(curve: &BoolCurve, t: f32, hint: &mut u32) -> bool {
    evaluate_step(curve, t, hint) > 0.5
}

/// Index `i` of the segment `[time(i), time(i + 1))` that holds `t`, for `time(0) < t < time(n − 1)`. Tries the
/// hint and the segment after it first, then binary-searches. Keys whose times do not ascend give some segment,
/// never a panic.
fn find_segment(n: usize, time: impl Fn(usize) -> f32, t: f32, hint: &mut u32) -> usize {
    let h = *hint as usize;
    if h + 1 < n && time(h) <= t {
        if t < time(h + 1) {
            return h;
        }
        if h + 2 < n && t < time(h + 2) {
            *hint = (h + 1) as u32;
            return h + 1;
        }
    }
    // First key with time > t, minus one: the last key at or before t.
    let (mut lo, mut hi) = (0usize, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if time(mid) <= t {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    let i = lo.saturating_sub(1).min(n.saturating_sub(2));
    *hint = i as u32;
    i
}

/// Maps `t` into `[begin, end]` by the wrap mode of the side it falls on (Unity `WrapTime`).
pub fn wrap_time(t: f32, begin: f32, end: f32, pre: WrapMode, post: WrapMode) -> f32 {
    if t.is_nan() {
        return begin;
    }
    let length = end - begin;
    let mode = if t < begin {
        pre
    } else if t > end {
        post
    } else {
        return t;
    };
    // Also catches NaN lengths (keys with NaN times).
    if length.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) || !length.is_finite() || !t.is_finite() {
        return clamp(t, begin, end);
    }
    match mode {
        WrapMode::Loop => repeat(t - begin, length) + begin,
        WrapMode::PingPong => ping_pong(t - begin, length) + begin,
        _ => clamp(t, begin, end),
    }
}

/// `t` limited to `[begin, end]`; unlike `f32::clamp` it tolerates `begin > end` and NaN bounds (keys out of
/// order in a file), which must not panic.
fn clamp(t: f32, begin: f32, end: f32) -> f32 {
    if t < begin {
        begin
    } else if t > end {
        end
    } else {
        t
    }
}

/// Unity `Mathf.Repeat`: `t` modulo `length`, in `[0, length]`.
pub fn repeat(t: f32, length: f32) -> f32 {
    (t - (t / length).floor() * length).clamp(0.0, length)
}

/// Unity `Mathf.PingPong`: bounces between 0 and `length`.
pub fn ping_pong(t: f32, length: f32) -> f32 {
    let t = repeat(t, length * 2.0);
    length - (t - length).abs()
}

/// Value between two keys at `t` (`k0.time <= t <= k1.time` expected; other `t` extrapolate the same cubic).
pub fn segment(k0: &Keyframe, k1: &Keyframe, t: f32) -> f32 {
    let dt = k1.time - k0.time;
    if !k0.out_tangent.is_finite() || !k1.in_tangent.is_finite() {
        return if t >= k1.time { k1.value } else { k0.value };
    }
    if dt.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        // Coincident (or reversed) keys: Unity returns the left key.
        return k0.value;
    }
    let out_weighted = k0.weighted_mode & weighted_mode::OUT != 0;
    let in_weighted = k1.weighted_mode & weighted_mode::IN != 0;
    if !out_weighted && !in_weighted {
        return hermite((t - k0.time) / dt, k0.value, k0.out_tangent * dt, k1.value, k1.in_tangent * dt);
    }
    let w0 = if out_weighted { k0.out_weight } else { DEFAULT_WEIGHT };
    let w1 = if in_weighted { k1.in_weight } else { DEFAULT_WEIGHT };
    if !w0.is_finite() || !w1.is_finite() {
        return k0.value;
    }
    let s = (t - k0.time) / dt;
    // MRTK's linear keys (both weights 0): x and y share the same Bernstein polynomial, so y is linear in t.
    if w0 == 0.0 && w1 == 0.0 {
        return k0.value + (k1.value - k0.value) * s;
    }
    bezier(s, k0.value, k0.out_tangent * dt, w0, k1.value, k1.in_tangent * dt, w1)
}

/// Cubic Hermite on the unit interval: values `v0`, `v1`, tangents already scaled by the segment length.
pub fn hermite(s: f32, v0: f32, m0: f32, v1: f32, m1: f32) -> f32 {
    let s2 = s * s;
    let s3 = s2 * s;
    let h00 = 2.0 * s3 - 3.0 * s2 + 1.0;
    let h10 = s3 - 2.0 * s2 + s;
    let h01 = -2.0 * s3 + 3.0 * s2;
    let h11 = s3 - s2;
    h00 * v0 + h10 * m0 + h01 * v1 + h11 * m1
}

/// Weighted segment on the unit time interval: control points `(0, v0)`, `(w0, v0 + w0·m0)`,
/// `(1 − w1, v1 − w1·m1)`, `(1, v1)` with `m0`, `m1` scaled by the segment length. Finds `u` with `x(u) = s`,
/// returns `y(u)`.
pub fn bezier(s: f32, v0: f32, m0: f32, w0: f32, v1: f32, m1: f32, w1: f32) -> f32 {
    let s = f64::from(s.clamp(0.0, 1.0));
    let (x1, x2) = (f64::from(w0), 1.0 - f64::from(w1));
    let u = solve_bezier_x(s, x1, x2);
    let (v0, v1) = (f64::from(v0), f64::from(v1));
    let y1 = v0 + f64::from(w0) * f64::from(m0);
    let y2 = v1 - f64::from(w1) * f64::from(m1);
    bernstein(u, v0, y1, y2, v1) as f32
}

fn bernstein(u: f64, p0: f64, p1: f64, p2: f64, p3: f64) -> f64 {
    let v = 1.0 - u;
    v * v * v * p0 + 3.0 * v * v * u * p1 + 3.0 * v * u * u * p2 + u * u * u * p3
}

/// `u` in [0, 1] with `x(u) = s` for `x` with control abscissae 0, `x1`, `x2`, 1. `x(0) = 0 ≤ s ≤ 1 = x(1)`, so a
/// root is always bracketed; Newton steps are taken only while they stay inside the bracket.
fn solve_bezier_x(s: f64, x1: f64, x2: f64) -> f64 {
    const TOLERANCE: f64 = 1e-10;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let mut u = s;
    for _ in 0..64 {
        let x = bernstein(u, 0.0, x1, x2, 1.0) - s;
        if x.abs() < TOLERANCE {
            return u;
        }
        if x < 0.0 {
            lo = u;
        } else {
            hi = u;
        }
        let v = 1.0 - u;
        let dx = 3.0 * (v * v * x1 + 2.0 * v * u * (x2 - x1) + u * u * (1.0 - x2));
        let newton = u - x / dx;
        u = if dx.abs() > 1e-12 && newton > lo && newton < hi { newton } else { 0.5 * (lo + hi) };
        if hi - lo < 1e-15 {
            break;
        }
    }
    u
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::BoolKey;

    fn close(a: f32, b: f32, eps: f32) -> bool {
        (a - b).abs() <= eps
    }

    #[track_caller]
    fn assert_close(a: f32, b: f32, eps: f32) {
        assert!(close(a, b, eps), "{a} vs {b} (eps {eps})");
    }

    fn linear_curve() -> FloatCurve {
        // What MRTK's 1.1 reader makes of time/value pairs.
        FloatCurve::new(vec![Keyframe::linear(0.0, 0.0), Keyframe::linear(1.0, 2.0), Keyframe::linear(3.0, -2.0)])
    }

    #[test]
    fn linear_version_1_1_keys_interpolate_linearly() {
        let c = linear_curve();
        assert_close(evaluate(&c, 0.25), 0.5, 1e-6);
        assert_close(evaluate(&c, 0.5), 1.0, 1e-6);
        assert_close(evaluate(&c, 1.0), 2.0, 1e-6);
        // Second segment: slope −2 per second.
        assert_close(evaluate(&c, 1.5), 1.0, 1e-6);
        assert_close(evaluate(&c, 2.75), -1.5, 1e-6);
        // The Bézier path with zero weights gives the same line (checks the fast path is exact).
        for s in [0.1f32, 0.3, 0.62, 0.9] {
            assert_close(bezier(s, 0.0, 0.0, 1e-7, 2.0, 0.0, 1e-7), 2.0 * s, 1e-4);
        }
    }

    #[test]
    fn hermite_segment_with_tangents_matches_hand_values() {
        // v0 = 0, out-tangent 1/s; v1 = 1 at t = 2, in-tangent −1/s. Δ = 2.
        let c = FloatCurve::new(vec![Keyframe::hermite(0.0, 0.0, 0.0, 1.0), Keyframe::hermite(2.0, 1.0, -1.0, 0.0)]);
        // s = 0.5: h00 = h01 = 0.5, h10 = 0.125, h11 = −0.125 →
        // 0.125·2·1 + 0.5·1 + (−0.125)·2·(−1) = 0.25 + 0.5 + 0.25.
        assert_close(evaluate(&c, 1.0), 1.0, 1e-6);
        // s = 0.25: h10 = 0.140625, h01 = 0.15625, h11 = −0.046875 →
        // 0.140625·2 + 0.15625 + 0.046875·2 = 0.53125.
        assert_close(evaluate(&c, 0.5), 0.53125, 1e-6);
        // s = 0.75: h10 = 0.046875, h01 = 0.84375, h11 = −0.140625 → 0.09375 + 0.84375 + 0.28125 = 1.21875.
        assert_close(evaluate(&c, 1.5), 1.21875, 1e-6);
    }

    /// De Casteljau on the four (time, value) control points: independent of the Bernstein form used above.
    fn de_casteljau(p: [(f64, f64); 4], u: f64) -> (f64, f64) {
        let lerp = |a: (f64, f64), b: (f64, f64)| (a.0 + (b.0 - a.0) * u, a.1 + (b.1 - a.1) * u);
        let (a, b, c) = (lerp(p[0], p[1]), lerp(p[1], p[2]), lerp(p[2], p[3]));
        let (d, e) = (lerp(a, b), lerp(b, c));
        lerp(d, e)
    }

    #[test]
    fn weighted_segment_follows_the_bezier_through_its_control_points() {
        let (t0, v0, m0, w0) = (1.0f32, 2.0f32, 3.0f32, 0.7f32);
        let (t1, v1, m1, w1) = (3.0f32, -1.0f32, 0.5f32, 0.15f32);
        let k0 = Keyframe {
            time: t0,
            value: v0,
            out_tangent: m0,
            out_weight: w0,
            weighted_mode: weighted_mode::OUT,
            ..Keyframe::default()
        };
        let k1 = Keyframe {
            time: t1,
            value: v1,
            in_tangent: m1,
            in_weight: w1,
            weighted_mode: weighted_mode::IN,
            ..Keyframe::default()
        };
        let c = FloatCurve::new(vec![k0, k1]);
        let d = f64::from(t1 - t0);
        let p = [
            (f64::from(t0), f64::from(v0)),
            (f64::from(t0) + f64::from(w0) * d, f64::from(v0) + f64::from(w0) * d * f64::from(m0)),
            (f64::from(t1) - f64::from(w1) * d, f64::from(v1) - f64::from(w1) * d * f64::from(m1)),
            (f64::from(t1), f64::from(v1)),
        ];
        for u in [0.1, 0.25, 0.5, 0.8, 0.95] {
            let (x, y) = de_casteljau(p, u);
            assert_close(evaluate(&c, x as f32), y as f32, 2e-5);
        }
        // The same keys unweighted are a different (Hermite) curve: the weights matter.
        let (x, y) = de_casteljau(p, 0.5);
        let unweighted =
            FloatCurve::new(vec![Keyframe { weighted_mode: 0, ..k0 }, Keyframe { weighted_mode: 0, ..k1 }]);
        assert!((evaluate(&unweighted, x as f32) - y as f32).abs() > 0.05);
    }

    #[test]
    fn one_weighted_side_uses_a_third_on_the_other() {
        // Out-weight exactly 1/3 on a weighted key is the Hermite segment.
        let k0 = Keyframe {
            out_weight: DEFAULT_WEIGHT,
            weighted_mode: weighted_mode::OUT,
            ..Keyframe::hermite(0.0, 1.0, 0.0, 2.0)
        };
        let k1 = Keyframe::hermite(1.0, 0.0, -1.0, 0.0);
        for t in [0.1f32, 0.4, 0.77] {
            let h = hermite(t, 1.0, 2.0, 0.0, -1.0);
            assert_close(segment(&k0, &k1, t), h, 2e-5);
        }
    }

    #[test]
    fn infinite_tangent_makes_a_stepped_segment() {
        let c = FloatCurve::new(vec![
            Keyframe::hermite(0.0, 5.0, 0.0, f32::INFINITY),
            Keyframe::hermite(1.0, 7.0, 0.0, 0.0),
            Keyframe::hermite(2.0, 9.0, f32::INFINITY, 0.0),
        ]);
        assert_eq!(evaluate(&c, 0.0), 5.0);
        assert_eq!(evaluate(&c, 0.5), 5.0);
        assert_eq!(evaluate(&c, 0.999), 5.0);
        assert_eq!(evaluate(&c, 1.0), 7.0);
        // In-tangent infinite on the right key steps the segment before it too.
        assert_eq!(evaluate(&c, 1.5), 7.0);
        assert_eq!(evaluate(&c, 2.0), 9.0);
    }

    fn wrapped(pre: WrapMode, post: WrapMode) -> FloatCurve {
        // Linear from (1, 0) to (3, 2): value = t − 1 inside the keys.
        FloatCurve {
            pre_wrap: pre,
            post_wrap: post,
            keys: vec![Keyframe::linear(1.0, 0.0), Keyframe::linear(3.0, 2.0)],
        }
    }

    #[test]
    fn clamping_wrap_modes_hold_the_end_values() {
        for mode in [WrapMode::Default, WrapMode::Once, WrapMode::ClampForever, WrapMode::Unknown(3)] {
            let c = wrapped(mode, mode);
            assert_eq!(evaluate(&c, 0.0), 0.0, "{mode:?} before");
            assert_eq!(evaluate(&c, -10.0), 0.0, "{mode:?} long before");
            assert_eq!(evaluate(&c, 3.5), 2.0, "{mode:?} after");
            assert_eq!(evaluate(&c, 100.0), 2.0, "{mode:?} long after");
        }
    }

    #[test]
    fn loop_wraps_before_and_after() {
        let c = wrapped(WrapMode::Loop, WrapMode::Loop);
        // After: 4 → 1 + repeat(3, 2) = 2 → 1.0; 6.5 → 1 + repeat(5.5, 2) = 2.5 → 1.5.
        assert_close(evaluate(&c, 4.0), 1.0, 1e-6);
        assert_close(evaluate(&c, 6.5), 1.5, 1e-6);
        // Before: 0.5 → 1 + repeat(−0.5, 2) = 2.5 → 1.5; −2.25 → 1 + repeat(−3.25, 2) = 1.75 → 0.75.
        assert_close(evaluate(&c, 0.5), 1.5, 1e-6);
        assert_close(evaluate(&c, -2.25), 0.75, 1e-6);
    }

    #[test]
    fn ping_pong_reflects_before_and_after() {
        let c = wrapped(WrapMode::PingPong, WrapMode::PingPong);
        // After: 3.5 → 1 + pingpong(2.5, 2) = 1 + (2 − |2.5 − 2|) = 2.5 → 1.5; 5.5 → 1 + pingpong(4.5, 2) = 1.5 → 0.5.
        assert_close(evaluate(&c, 3.5), 1.5, 1e-6);
        assert_close(evaluate(&c, 5.5), 0.5, 1e-6);
        // Before: 0.5 → 1 + pingpong(−0.5, 2) = 1 + (2 − |3.5 − 2|) = 1.5 → 0.5; −1 → 1 + pingpong(−2, 2) = 3 → 2.
        assert_close(evaluate(&c, 0.5), 0.5, 1e-6);
        assert_close(evaluate(&c, -1.0), 2.0, 1e-6);
    }

    #[test]
    fn pre_and_post_wrap_are_independent() {
        let c = wrapped(WrapMode::Loop, WrapMode::ClampForever);
        assert_close(evaluate(&c, 0.5), 1.5, 1e-6);
        assert_eq!(evaluate(&c, 4.0), 2.0);
        let c = wrapped(WrapMode::Once, WrapMode::PingPong);
        assert_eq!(evaluate(&c, 0.5), 0.0);
        assert_close(evaluate(&c, 3.5), 1.5, 1e-6);
    }

    #[test]
    fn empty_and_single_key_curves() {
        assert_eq!(evaluate(&FloatCurve::default(), 1.0), 0.0);
        let c = FloatCurve::new(vec![Keyframe::linear(2.0, 4.5)]);
        assert_eq!(evaluate(&c, -1.0), 4.5);
        assert_eq!(evaluate(&c, 9.0), 4.5);
    }

    #[test]
    fn bool_curves_are_steps_with_wrap() {
        let keys = vec![
            BoolKey { time: 0.0, value: 0.0 },
            BoolKey { time: 1.0, value: 1.0 },
            BoolKey { time: 2.0, value: 0.0 },
            BoolKey { time: 3.0, value: 1.0 },
        ];
        let c = BoolCurve::new(keys.clone());
        let mut h = 0;
        let at = |t: f32, h: &mut u32| evaluate_bool(&c, t, h);
        assert!(!at(-1.0, &mut h));
        assert!(!at(0.999, &mut h));
        assert!(at(1.0, &mut h));
        assert!(at(1.999, &mut h));
        assert!(!at(2.0, &mut h));
        assert!(at(3.0, &mut h));
        assert!(at(50.0, &mut h));
        let looped = BoolCurve { post_wrap: WrapMode::Loop, ..BoolCurve::new(keys) };
        // 4.5 → repeat(4.5, 3) = 1.5 → true; 5.5 → 2.5 → false.
        assert!(evaluate_bool(&looped, 4.5, &mut h));
        assert!(!evaluate_bool(&looped, 5.5, &mut h));
    }

    #[test]
    fn hints_give_the_same_values_as_binary_search() {
        let keys: Vec<Keyframe> =
            (0..50).map(|i| Keyframe::hermite(i as f32 * 0.1, (i as f32 * 0.7).sin(), 0.3, -0.2)).collect();
        let c = FloatCurve::new(keys);
        let mut hint = 0;
        let times: Vec<f32> =
            (0..400).map(|i| i as f32 * 0.0131).chain((0..100).map(|i| 5.0 - i as f32 * 0.047)).collect();
        for t in times.iter().copied().chain([2.0, 0.05, 4.9, 0.0, 4.9]) {
            assert_eq!(evaluate_with_hint(&c, t, &mut hint), evaluate(&c, t), "t = {t}");
        }
        // Garbage hints are safe.
        for bad in [u32::MAX, 49, 48, 1000] {
            let mut h = bad;
            assert_eq!(evaluate_with_hint(&c, 2.03, &mut h), evaluate(&c, 2.03));
        }
    }

    #[test]
    fn hostile_keys_never_panic_or_produce_nan_from_the_solver() {
        // Out-of-range weights (MRTK's bool keys use an out-weight of 1e6): the root is still bracketed.
        let k0 = Keyframe { out_weight: 1.0e6, weighted_mode: weighted_mode::BOTH, ..Keyframe::default() };
        let k1 = Keyframe { time: 1.0, value: 1.0, weighted_mode: weighted_mode::BOTH, ..Keyframe::default() };
        for t in [0.0f32, 0.2, 0.5, 0.99] {
            let v = segment(&k0, &k1, t);
            assert!(v.is_finite() && v < 0.01, "{t}: {v}");
        }
        let weird = FloatCurve::new(vec![
            Keyframe { weighted_mode: -1, in_weight: -5.0, out_weight: 7.0, ..Keyframe::linear(0.0, 1.0) },
            Keyframe::linear(f32::NAN, 2.0),
            Keyframe::linear(-1.0, 3.0),
            Keyframe { out_tangent: f32::NAN, ..Keyframe::linear(2.0, 4.0) },
            Keyframe::linear(2.0, 5.0),
        ]);
        let mut hint = 0;
        for i in -20..60 {
            let t = i as f32 * 0.1;
            let _ = evaluate_with_hint(&weird, t, &mut hint);
        }
        let _ = evaluate(&weird, f32::NAN);
        let _ = evaluate(&weird, f32::INFINITY);
        // End keys out of order or NaN: the wrap range is empty or undefined.
        for (a, b) in
            [(3.0, 1.0), (f32::NAN, 1.0), (0.0, f32::NAN), (f32::NAN, f32::NAN), (f32::NEG_INFINITY, f32::INFINITY)]
        {
            for mode in [WrapMode::Loop, WrapMode::PingPong, WrapMode::Default] {
                let c = FloatCurve {
                    pre_wrap: mode,
                    post_wrap: mode,
                    keys: vec![Keyframe::linear(a, 1.0), Keyframe::linear(1.5, 0.0), Keyframe::linear(b, 2.0)],
                };
                for t in [-5.0, 0.5, 2.0, 9.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                    let _ = evaluate(&c, t);
                }
                let bools = BoolCurve {
                    pre_wrap: mode,
                    post_wrap: mode,
                    keys: vec![BoolKey { time: a, value: 1.0 }, BoolKey { time: b, value: 0.0 }],
                };
                for t in [-5.0, 0.5, 2.0, 9.0, f32::NAN] {
                    let _ = evaluate_bool(&bools, t, &mut hint);
                }
            }
        }
    }
}
