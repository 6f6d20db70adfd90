//! Sampling one keyframe curve at a time: step, linear (lerp / shortest-arc slerp) and cubic Hermite.
//!
//! Outside the keys the curve clamps to its first or last value (playback types such as loop or ping-pong are
//! the controller's business: it maps time before sampling). The key search is a binary search, so sampling
//! cost does not grow with clip length.

use glam::{Quat, Vec3};

use crate::scene::{Curve, Interpolation};

/// Values that can be interpolated along a curve.
pub trait Keyable: Copy {
    fn lerp_to(self, other: Self, s: f32) -> Self;
    fn scale(self, k: f32) -> Self;
    /// Cubic Hermite between `self` and `other`, tangents already scaled by the segment length.
    fn hermite(self, out_tangent: Self, other: Self, in_tangent: Self, s: f32) -> Self;
}

impl Keyable for Vec3 {
    #[inline]
    fn scale(self, k: f32) -> Self {
        self * k
    }

    #[inline]
    fn lerp_to(self, other: Self, s: f32) -> Self {
        self.lerp(other, s)
    }

    #[inline]
    fn hermite(self, m0: Self, other: Self, m1: Self, s: f32) -> Self {
        let [h00, h10, h01, h11] = hermite_basis(s);
        self * h00 + m0 * h10 + other * h01 + m1 * h11
    }
}

impl Keyable for Quat {
    #[inline]
    fn scale(self, k: f32) -> Self {
        self * k
    }

    #[inline]
    fn lerp_to(self, other: Self, s: f32) -> Self {
        // Shortest arc: slerp flips the sign of `other` when the dot product is negative.
        self.slerp(other, s)
    }

    #[inline]
    fn hermite(self, m0: Self, other: Self, m1: Self, s: f32) -> Self {
        let [h00, h10, h01, h11] = hermite_basis(s);
        let other = if self.dot(other) < 0.0 { -other } else { other };
        (self * h00 + m0 * h10 + other * h01 + m1 * h11).normalize()
    }
}

#[inline]
fn hermite_basis(s: f32) -> [f32; 4] {
    let s2 = s * s;
    let s3 = s2 * s;
    [2.0 * s3 - 3.0 * s2 + 1.0, s3 - 2.0 * s2 + s, -2.0 * s3 + 3.0 * s2, s3 - s2]
}

/// Index of the last key at or before `t` (0 when `t` is before the first key).
#[inline]
pub fn key_before(times: &[f32], t: f32) -> usize {
    times.partition_point(|&k| k <= t).saturating_sub(1)
}

/// Samples a curve; `None` when it has no keys.
#[inline]
pub fn sample<T: Keyable>(curve: &Curve<T>, t: f32) -> Option<T> {
    let n = curve.len();
    let first = *curve.values.first()?;
    if n == 1 || t.is_nan() || t <= curve.times[0] {
        return Some(first);
    }
    let i = key_before(&curve.times[..n], t);
    if i + 1 >= n {
        return Some(curve.values[n - 1]);
    }
    let (t0, t1) = (curve.times[i], curve.times[i + 1]);
    let (v0, v1) = (curve.values[i], curve.values[i + 1]);
    let span = t1 - t0;
    if !(span > 0.0) {
        return Some(v1);
    }
    let s = ((t - t0) / span).clamp(0.0, 1.0);
    Some(match curve.interpolation {
        Interpolation::Step => v0,
        Interpolation::Linear => v0.lerp_to(v1, s),
        Interpolation::Hermite => match (curve.tangents.get(i), curve.tangents.get(i + 1)) {
            // Tangents are stored per second; the Hermite basis wants them per segment.
            (Some(&(_, out0)), Some(&(in1, _))) => v0.hermite(out0.scale(span), v1, in1.scale(span), s),
            _ => v0.lerp_to(v1, s),
        },
    })
}

/// Samples a translation or scale curve.
#[inline]
pub fn sample_vec3(curve: &Curve<Vec3>, t: f32) -> Option<Vec3> {
    sample(curve, t)
}

/// Samples a rotation curve (result normalised).
#[inline]
pub fn sample_quat(curve: &Curve<Quat>, t: f32) -> Option<Quat> {
    sample(curve, t).map(Quat::normalize)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vec_curve(interpolation: Interpolation) -> Curve<Vec3> {
        Curve {
            times: vec![0.0, 1.0, 3.0],
            values: vec![Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), Vec3::new(2.0, 4.0, 0.0)],
            interpolation,
            tangents: Vec::new(),
        }
    }

    #[test]
    fn linear_interpolates_and_clamps() {
        let c = vec_curve(Interpolation::Linear);
        assert_eq!(sample_vec3(&c, -1.0), Some(Vec3::ZERO));
        assert_eq!(sample_vec3(&c, 0.5), Some(Vec3::new(1.0, 0.0, 0.0)));
        assert_eq!(sample_vec3(&c, 2.0), Some(Vec3::new(2.0, 2.0, 0.0)));
        assert_eq!(sample_vec3(&c, 9.0), Some(Vec3::new(2.0, 4.0, 0.0)));
        assert_eq!(sample_vec3(&Curve::default(), 0.0), None);
    }

    #[test]
    fn step_holds_the_earlier_key() {
        let c = vec_curve(Interpolation::Step);
        assert_eq!(sample_vec3(&c, 0.99), Some(Vec3::ZERO));
        assert_eq!(sample_vec3(&c, 1.0), Some(Vec3::new(2.0, 0.0, 0.0)));
    }

    #[test]
    fn hermite_uses_per_second_tangents() {
        // x(t) = t^3 on [0, 2]: tangents 0 at t=0 and 12 at t=2; midpoint value must be 1.
        let c = Curve {
            times: vec![0.0, 2.0],
            values: vec![Vec3::ZERO, Vec3::splat(8.0)],
            interpolation: Interpolation::Hermite,
            tangents: vec![(Vec3::ZERO, Vec3::ZERO), (Vec3::splat(12.0), Vec3::splat(12.0))],
        };
        let v = sample_vec3(&c, 1.0).unwrap();
        assert!((v.x - 1.0).abs() < 1e-5, "{v}");
    }

    #[test]
    fn slerp_takes_the_short_way() {
        let a = Quat::from_rotation_y(0.1);
        let b = -Quat::from_rotation_y(0.5); // same rotation, opposite hemisphere
        let c = Curve::linear(vec![0.0, 1.0], vec![a, b]);
        let q = sample_quat(&c, 0.5).unwrap();
        assert!(q.angle_between(Quat::from_rotation_y(0.3)) < 1e-4);
    }
}
