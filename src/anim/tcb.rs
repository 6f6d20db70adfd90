//! Kochanek–Bartels (TCB) keys → Hermite tangents, done once when a file is loaded so that sampling only ever
//! sees step, linear and Hermite curves.
//!
//! For key i with neighbours P(i−1), P(i+1), tension τ, continuity γ and bias β:
//!
//! ```text
//! T_in  = (1−τ)(1−β)(1+γ)/2 · (P(i+1) − P(i)) + (1−τ)(1+β)(1−γ)/2 · (P(i) − P(i−1))
//! T_out = (1−τ)(1−β)(1−γ)/2 · (P(i+1) − P(i)) + (1−τ)(1+β)(1+γ)/2 · (P(i) − P(i−1))
//! ```
//!
//! These are per unit of the key parameter (one segment). Keys are rarely evenly spaced in time, so — as
//! Kochanek and Bartels prescribe — the in tangent is scaled by 2Δ(i−1)/(Δ(i−1)+Δ(i)) and the out tangent by
//! 2Δ(i)/(Δ(i−1)+Δ(i)); dividing each by its segment's duration gives value units per second, the unit of
//! [`crate::scene::Curve::tangents`]. With τ = γ = β = 0 this is the Catmull–Rom spline (tangent
//! (P(i+1) − P(i−1)) / (t(i+1) − t(i−1))), which passes through every key. The end keys use their one
//! neighbouring segment for both sides. Ease in / ease out (time warping) is not modelled.
//!
//! Only maths on plain values here; no file or scene knowledge.

use std::ops::{Add, Mul, Sub};

use glam::{Quat, Vec3, Vec4};

/// Tension, continuity and bias of one key (each in −1…1; 0 = Catmull–Rom).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TcbParams {
    pub tension: f32,
    pub continuity: f32,
    pub bias: f32,
}

impl TcbParams {
    pub fn new(tension: f32, continuity: f32, bias: f32) -> Self {
        Self { tension, continuity, bias }
    }
}

/// Values the tangent formulas work on (vectors, and quaternions as 4-vectors).
pub trait TcbValue: Copy + Add<Output = Self> + Sub<Output = Self> + Mul<f32, Output = Self> {
    const ZERO: Self;
}

impl TcbValue for Vec3 {
    const ZERO: Self = Vec3::ZERO;
}

impl TcbValue for Vec4 {
    const ZERO: Self = Vec4::ZERO;
}

/// The KB (in, out) tangents of key `i` per unit of the key parameter, from the differences to its neighbours.
pub fn kb_tangents<T: TcbValue>(d_prev: T, d_next: T, p: TcbParams) -> (T, T) {
    let TcbParams { tension: t, continuity: c, bias: b } = p;
    let k = (1.0 - t) * 0.5;
    let t_in = d_next * (k * (1.0 - b) * (1.0 + c)) + d_prev * (k * (1.0 + b) * (1.0 - c));
    let t_out = d_next * (k * (1.0 - b) * (1.0 - c)) + d_prev * (k * (1.0 + b) * (1.0 + c));
    (t_in, t_out)
}

/// Hermite (in, out) tangents in value units per second for every key. `params` may be shorter than the keys
/// (missing entries are Catmull–Rom). Keys must have ascending times; zero-length segments give zero tangents.
pub fn tcb_tangents<T: TcbValue>(times: &[f32], values: &[T], params: &[TcbParams]) -> Vec<(T, T)> {
    let n = times.len().min(values.len());
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        if n < 2 {
            out.push((T::ZERO, T::ZERO));
            continue;
        }
        // Missing neighbours at the ends: mirror the one segment there is.
        let (d_prev, dt_prev) = if i > 0 {
            (values[i] - values[i - 1], times[i] - times[i - 1])
        } else {
            (values[1] - values[0], times[1] - times[0])
        };
        let (d_next, dt_next) = if i + 1 < n {
            (values[i + 1] - values[i], times[i + 1] - times[i])
        } else {
            (values[i] - values[i - 1], times[i] - times[i - 1])
        };
        let span = dt_prev + dt_next;
        let spaced = span > 0.0 && dt_prev > 0.0 && dt_next > 0.0;
        if !spaced {
            out.push((T::ZERO, T::ZERO));
            continue;
        }
        let (t_in, t_out) = kb_tangents(d_prev, d_next, params.get(i).copied().unwrap_or_default());
        // In tangent: × 2Δprev/span per segment, ÷ Δprev per second; likewise for the out tangent.
        let per_second = 2.0 / span;
        out.push((t_in * per_second, t_out * per_second));
    }
    out
}

/// [`tcb_tangents`] for rotations: quaternions are treated as 4-vectors (the curve sampler renormalises). The
/// caller keeps consecutive keys in the same hemisphere.
pub fn tcb_tangents_quat(times: &[f32], values: &[Quat], params: &[TcbParams]) -> Vec<(Quat, Quat)> {
    let v: Vec<Vec4> = values.iter().map(|q| Vec4::from(*q)).collect();
    tcb_tangents(times, &v, params).into_iter().map(|(a, b)| (Quat::from_vec4(a), Quat::from_vec4(b))).collect()
}

/// The spec's Hermite segment `P(s) = A + B·s + C·s² + D·s³` between keys (t0, p0, out tangent m0) and
/// (t1, p1, in tangent m1), tangents per second, `s` in 0…1.
#[cfg(test)]
pub fn hermite_segment<T: TcbValue>(p0: T, m0: T, p1: T, m1: T, dt: f32, s: f32) -> T {
    let a = p0;
    let b = m0 * dt;
    let c = (p1 - p0) * 3.0 - (m0 * 2.0 + m1) * dt;
    let d = (p1 - p0) * -2.0 + (m0 + m1) * dt;
    a + b * s + c * (s * s) + d * (s * s * s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::curve::sample_vec3;
    use crate::scene::{Curve, Interpolation};

    fn catmull_rom(p: [Vec3; 4], s: f32) -> Vec3 {
        let [p0, p1, p2, p3] = p;
        0.5 * (2.0 * p1
            + (p2 - p0) * s
            + (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) * s * s
            + (-p0 + 3.0 * p1 - 3.0 * p2 + p3) * s * s * s)
    }

    fn keys() -> (Vec<f32>, Vec<Vec3>) {
        let times = vec![0.0, 0.5, 1.0, 1.5, 2.0];
        let values = vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 2.0, 0.0),
            Vec3::new(3.0, 1.0, -1.0),
            Vec3::new(4.0, 4.0, 2.0),
            Vec3::new(2.0, 5.0, 1.0),
        ];
        (times, values)
    }

    #[test]
    fn zero_tcb_passes_through_every_key_and_is_catmull_rom() {
        let (times, values) = keys();
        let tangents = tcb_tangents(&times, &values, &[]);
        let curve = Curve {
            times: times.clone().into(),
            values: values.clone(),
            interpolation: Interpolation::Hermite,
            tangents,
        };
        for (t, v) in times.iter().zip(&values) {
            assert!(sample_vec3(&curve, *t).unwrap().abs_diff_eq(*v, 1e-5));
        }
        // Inner segments (keys 1→2 and 2→3) against the uniform Catmull–Rom formula.
        for seg in 1..3 {
            for k in 0..=10 {
                let s = k as f32 / 10.0;
                let t = times[seg] + s * 0.5;
                let expected = catmull_rom([values[seg - 1], values[seg], values[seg + 1], values[seg + 2]], s);
                let got = sample_vec3(&curve, t).unwrap();
                assert!(got.abs_diff_eq(expected, 1e-4), "segment {seg} s {s}: {got} vs {expected}");
            }
        }
    }

    #[test]
    fn spec_segment_formula_matches_the_curve_sampler() {
        let (times, values) = keys();
        let params: Vec<TcbParams> = (0..5).map(|i| TcbParams::new(0.3, -0.2 + 0.1 * i as f32, 0.25)).collect();
        let tangents = tcb_tangents(&times, &values, &params);
        let curve = Curve {
            times: times.clone().into(),
            values: values.clone(),
            interpolation: Interpolation::Hermite,
            tangents: tangents.clone(),
        };
        let s = 0.3;
        let t = times[2] + s * 0.5;
        let spec = hermite_segment(values[2], tangents[2].1, values[3], tangents[3].0, 0.5, s);
        assert!(sample_vec3(&curve, t).unwrap().abs_diff_eq(spec, 1e-5));
    }

    #[test]
    fn tension_one_stops_at_keys_and_continuity_splits_tangents() {
        let d_prev = Vec3::new(1.0, 0.0, 0.0);
        let d_next = Vec3::new(0.0, 1.0, 0.0);
        let (i, o) = kb_tangents(d_prev, d_next, TcbParams::new(1.0, 0.0, 0.0));
        assert_eq!((i, o), (Vec3::ZERO, Vec3::ZERO));
        // Continuity −1: in tangent follows the incoming segment, out tangent the outgoing one (a corner).
        let (i, o) = kb_tangents(d_prev, d_next, TcbParams::new(0.0, -1.0, 0.0));
        assert!(i.abs_diff_eq(d_prev, 1e-6) && o.abs_diff_eq(d_next, 1e-6));
        // Bias +1: both tangents follow the incoming segment (overshoot).
        let (i, o) = kb_tangents(d_prev, d_next, TcbParams::new(0.0, 0.0, 1.0));
        assert!(i.abs_diff_eq(d_prev, 1e-6) && o.abs_diff_eq(d_prev, 1e-6));
    }

    #[test]
    fn uneven_spacing_uses_the_finite_difference_tangent() {
        let times = [0.0, 1.0, 4.0];
        let values = [Vec3::ZERO, Vec3::X, Vec3::new(7.0, 0.0, 0.0)];
        let t = tcb_tangents(&times, &values, &[]);
        // (P2 − P0) / (t2 − t0) = 7 / 4 per second on both sides.
        assert!(t[1].0.abs_diff_eq(Vec3::new(1.75, 0.0, 0.0), 1e-6));
        assert!(t[1].1.abs_diff_eq(Vec3::new(1.75, 0.0, 0.0), 1e-6));
        assert_eq!(tcb_tangents(&[0.0], &[Vec3::ONE], &[]), vec![(Vec3::ZERO, Vec3::ZERO)]);
    }
}
