//! Sampling one keyframe curve at a time: step, linear (lerp / shortest-arc slerp) and cubic Hermite.
//!
//! Outside the keys the curve clamps to its first or last value (playback types such as loop or ping-pong are
//! the controller's business: it maps time before sampling). The key search is a binary search, so sampling
//! cost does not grow with clip length; curves whose keys are evenly spaced (every baked clip: PSA, SMD, ASE
//! samples) can skip it: [`KeyGrid::of`] recognises them once, and [`sample_in_grid`] then computes the key
//! index directly (checked against the times, so the result is always the binary search's).

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

impl Keyable for f32 {
    #[inline]
    fn scale(self, k: f32) -> Self {
        self * k
    }

    #[inline]
    fn lerp_to(self, other: Self, s: f32) -> Self {
        self + (other - self) * s
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

/// How a curve's key times are laid out, found once so that per-frame sampling can skip the key search.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum KeyGrid {
    /// Search the keys.
    #[default]
    Irregular,
    /// Keys at `start + i / rate` (within a thousandth of a step).
    Uniform { start: f32, rate: f32 },
}

impl KeyGrid {
    /// Recognises evenly spaced, strictly ascending key times (at least two keys).
    pub fn of(times: &[f32]) -> KeyGrid {
        let (Some(&start), Some(&end)) = (times.first(), times.last()) else { return KeyGrid::Irregular };
        let n = times.len();
        if n < 2 || !start.is_finite() || !end.is_finite() || end <= start {
            return KeyGrid::Irregular;
        }
        let step = (end - start) / (n - 1) as f32;
        let tolerance = step * 1e-3;
        let even = times.iter().enumerate().all(|(i, &t)| (t - (start + step * i as f32)).abs() <= tolerance)
            && times.windows(2).all(|w| w[1] > w[0]);
        if even { KeyGrid::Uniform { start, rate: 1.0 / step } } else { KeyGrid::Irregular }
    }
}

/// [`key_before`] with a hint: on a uniform grid the index is computed, then checked against the times (and
/// its neighbours tried, for rounding at key boundaries) before falling back to the search. Always returns
/// what `key_before` would for ascending times.
#[inline]
pub fn key_index(times: &[f32], t: f32, grid: KeyGrid) -> usize {
    if let KeyGrid::Uniform { start, rate } = grid {
        // `as usize` saturates: times before the start (and NaN) give 0, far past the end usize::MAX.
        let guess = (((t - start) * rate) as usize).min(times.len().saturating_sub(1));
        let fits = |i: usize| times.get(i).is_some_and(|&k| k <= t) && times.get(i + 1).is_none_or(|&next| next > t);
        for i in [guess, guess.wrapping_sub(1), guess + 1] {
            if fits(i) {
                return i;
            }
        }
    }
    key_before(times, t)
}

/// Samples a curve; `None` when it has no keys.
#[inline]
pub fn sample<T: Keyable>(curve: &Curve<T>, t: f32) -> Option<T> {
    sample_in_grid(curve, t, KeyGrid::Irregular)
}

/// [`sample`] with the curve's [`KeyGrid`] (from [`KeyGrid::of`]; a grid that does not fit the curve costs a
/// failed check and a search, never a wrong answer).
#[inline]
pub fn sample_in_grid<T: Keyable>(curve: &Curve<T>, t: f32, grid: KeyGrid) -> Option<T> {
    let n = curve.len();
    let first = *curve.values.first()?;
    if n == 1 || t.is_nan() || t <= curve.times[0] {
        return Some(first);
    }
    let i = key_index(&curve.times[..n], t, grid);
    if i + 1 >= n {
        return Some(curve.values[n - 1]);
    }
    let (t0, t1) = (curve.times[i], curve.times[i + 1]);
    let (v0, v1) = (curve.values[i], curve.values[i + 1]);
    let span = t1 - t0;
    if span.is_nan() || span <= 0.0 {
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

/// [`sample_vec3`] with a key grid.
#[inline]
pub fn sample_vec3_in_grid(curve: &Curve<Vec3>, t: f32, grid: KeyGrid) -> Option<Vec3> {
    sample_in_grid(curve, t, grid)
}

/// [`sample_quat`] with a key grid.
#[inline]
pub fn sample_quat_in_grid(curve: &Curve<Quat>, t: f32, grid: KeyGrid) -> Option<Quat> {
    sample_in_grid(curve, t, grid).map(Quat::normalize)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vec_curve(interpolation: Interpolation) -> Curve<Vec3> {
        Curve {
            times: vec![0.0, 1.0, 3.0].into(),
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
            times: vec![0.0, 2.0].into(),
            values: vec![Vec3::ZERO, Vec3::splat(8.0)],
            interpolation: Interpolation::Hermite,
            tangents: vec![(Vec3::ZERO, Vec3::ZERO), (Vec3::splat(12.0), Vec3::splat(12.0))],
        };
        let v = sample_vec3(&c, 1.0).unwrap();
        assert!((v.x - 1.0).abs() < 1e-5, "{v}");
    }

    #[test]
    fn uniform_grid_is_recognised_and_only_when_it_fits() {
        let times: Vec<f32> = (0..121).map(|f| f as f32 / 30.0).collect();
        assert!(matches!(KeyGrid::of(&times), KeyGrid::Uniform { .. }));
        let mut uneven = times.clone();
        uneven[50] += 0.01;
        assert_eq!(KeyGrid::of(&uneven), KeyGrid::Irregular);
        assert_eq!(KeyGrid::of(&[1.0]), KeyGrid::Irregular);
        assert_eq!(KeyGrid::of(&[1.0, 1.0]), KeyGrid::Irregular);
        assert_eq!(KeyGrid::of(&[]), KeyGrid::Irregular);
    }

    #[test]
    fn grid_key_index_always_matches_the_search() {
        let times: Vec<f32> = (0..121).map(|f| 0.25 + f as f32 / 30.0).collect();
        let grid = KeyGrid::of(&times);
        let mut probes: Vec<f32> = vec![-1.0, 0.0, 0.25, 4.25, 4.26, 1e9, f32::NAN, f32::INFINITY, -f32::INFINITY];
        probes.extend(times.iter().copied()); // exactly on every key
        probes.extend(times.iter().map(|t| t - 1e-6));
        probes.extend((0..5000).map(|i| -0.1 + i as f32 * 0.00093));
        for t in probes {
            assert_eq!(key_index(&times, t, grid), key_before(&times, t), "t = {t}");
        }
        // A grid from another curve never gives a wrong index.
        let other = KeyGrid::of(&[0.0, 0.5, 1.0]);
        for t in [0.3f32, 1.7, 3.9] {
            assert_eq!(key_index(&times, t, other), key_before(&times, t));
        }
        let c = Curve::linear(times.clone(), times.iter().map(|&t| Vec3::splat(t * t)).collect());
        for i in 0..400 {
            let t = i as f32 * 0.0117;
            assert_eq!(sample_vec3_in_grid(&c, t, grid), sample_vec3(&c, t));
        }
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
