//! Blending local poses: the mixer's maths, usable on its own. A [`Blender`] accumulates any number of weighted
//! local poses (per-bone weights from a [`BoneMask`]) and normalises them, filling with the bind pose where the
//! total weight is small; [`apply_additive`] layers a pose on top as a difference from a reference pose.
//!
//! Owns no animation state and samples nothing: callers hand it local poses (flat arrays, one [`Transform`] per
//! bone) and buffers to write. Nothing here allocates except [`Blender::begin`] when the bone count grows.
//!
//! Rotations are blended by normalised weighted sums of quaternions (nlerp generalised to n poses), each one
//! flipped into the hemisphere of the running sum first, since `q` and `−q` are the same rotation but would
//! cancel in a sum. Translations and scales are weighted averages.

use glam::{Quat, Vec3, Vec4};

use crate::scene::{Skeleton, Transform};

/// Per-bone weights in `[0, 1]` that scale a track's contribution ("upper body only").
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BoneMask {
    weights: Vec<f32>,
}

impl BoneMask {
    /// Every bone at weight 1.
    pub fn all(bones: usize) -> Self {
        Self { weights: vec![1.0; bones] }
    }

    /// Every bone at weight 0.
    pub fn none(bones: usize) -> Self {
        Self { weights: vec![0.0; bones] }
    }

    /// From explicit per-bone weights; each is clamped to `[0, 1]` (NaN becomes 0).
    pub fn from_weights(weights: impl IntoIterator<Item = f32>) -> Self {
        Self { weights: weights.into_iter().map(|w| if w.is_nan() { 0.0 } else { w.clamp(0.0, 1.0) }).collect() }
    }

    /// Weight 1 for `bone` and everything below it in the hierarchy, 0 elsewhere. One pass, because parents
    /// come before children. A bone index past the skeleton gives an empty (all-zero) mask.
    pub fn from_bone_and_descendants(skeleton: &Skeleton, bone: usize) -> Self {
        let mut mask = Self::none(skeleton.len());
        mask.include_descendants(skeleton, bone, 1.0);
        mask
    }

    /// [`BoneMask::from_bone_and_descendants`] for the bone with this name (matched like
    /// [`Skeleton::find`]); `None` when the skeleton has no such bone.
    pub fn from_bone_name(skeleton: &Skeleton, name: &str) -> Option<Self> {
        skeleton.find(name).map(|bone| Self::from_bone_and_descendants(skeleton, bone))
    }

    /// Sets `bone` and its descendants to `weight` (clamped to `[0, 1]`), leaving other bones alone: for
    /// building masks out of several branches, or excluding one (`weight` 0).
    pub fn include_descendants(&mut self, skeleton: &Skeleton, bone: usize, weight: f32) {
        let weight = if weight.is_nan() { 0.0 } else { weight.clamp(0.0, 1.0) };
        if bone >= skeleton.len() {
            return;
        }
        self.weights.resize(skeleton.len(), 0.0);
        let mut inside = vec![false; skeleton.len()];
        for i in bone..skeleton.len() {
            let below = i == bone || skeleton.parents[i].is_some_and(|p| p < i && inside[p]);
            if below {
                inside[i] = true;
                self.weights[i] = weight;
            }
        }
    }

    /// `1 − w` for every bone: the complement, for the track underneath a masked one.
    pub fn inverted(&self) -> Self {
        Self { weights: self.weights.iter().map(|w| 1.0 - w).collect() }
    }

    /// The weight of one bone (0 past the end of the mask).
    #[inline]
    pub fn weight(&self, bone: usize) -> f32 {
        self.weights.get(bone).copied().unwrap_or(0.0)
    }

    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    pub fn len(&self) -> usize {
        self.weights.len()
    }

    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// True when no bone has a positive weight (the track contributes nothing).
    pub fn is_zero(&self) -> bool {
        self.weights.iter().all(|w| *w <= 0.0)
    }
}

// Vec3 rather than Vec3A: transforms arrive with Vec3 fields, and widening them to 16 bytes on the way in
// costs a store-forwarding stall per bone.
#[derive(Clone, Copy, Debug, Default)]
struct Accum {
    rotation: Vec4,
    translation: Vec3,
    scale: Vec3,
    weight: f32,
}

/// Accumulates weighted local poses and normalises them. Keep one around: it reuses its buffer.
///
/// ```
/// use bonescope::anim::blend::Blender;
/// use bonescope::scene::Transform;
/// use glam::{Quat, Vec3};
///
/// let a = [Transform::from_translation_rotation(Vec3::ZERO, Quat::IDENTITY)];
/// let b = [Transform::from_translation_rotation(Vec3::new(4.0, 0.0, 0.0), Quat::IDENTITY)];
/// let mut blender = Blender::default();
/// blender.begin(1);
/// blender.add(&a, 0.25, None);
/// blender.add(&b, 0.75, None);
/// let mut out = [Transform::IDENTITY];
/// blender.finish(&[Transform::IDENTITY], 1.0, &mut out);
/// assert_eq!(out[0].translation, Vec3::new(3.0, 0.0, 0.0));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Blender {
    acc: Vec<Accum>,
}

impl Blender {
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a blend of `bones` bones (clears the accumulators; allocates only when `bones` grows).
    pub fn begin(&mut self, bones: usize) {
        self.acc.clear();
        self.acc.resize(bones, Accum::default());
    }

    /// Adds a pose at `weight` (times the mask's weight per bone). Bones past the end of `pose` are skipped;
    /// non-positive and NaN weights add nothing.
    pub fn add(&mut self, pose: &[Transform], weight: f32, mask: Option<&BoneMask>) {
        if weight.is_nan() || weight <= 0.0 {
            return;
        }
        match mask {
            None => {
                for (acc, t) in self.acc.iter_mut().zip(pose) {
                    accumulate(acc, t, weight);
                }
            }
            Some(mask) => {
                for ((acc, t), m) in self.acc.iter_mut().zip(pose).zip(mask.weights()) {
                    let w = weight * m;
                    if w > 0.0 {
                        accumulate(acc, t, w);
                    }
                }
            }
        }
    }

    /// Adds one bone's transform at `weight` (the per-bone form of [`Blender::add`], for callers that produce
    /// a pose bone by bone). Out-of-range bones and non-positive weights add nothing.
    #[inline]
    pub fn add_bone(&mut self, bone: usize, transform: &Transform, weight: f32) {
        if weight > 0.0
            && let Some(acc) = self.acc.get_mut(bone)
        {
            accumulate(acc, transform, weight);
        }
    }

    /// Writes the normalised blend. Where a bone's total weight is below `rest_threshold`, the bind pose fills
    /// the difference first (weight `rest_threshold − total`): with the default threshold of 1 a lone track at
    /// weight 0.3 sits 30 % of the way from the bind pose to its clip, and weights summing to 1 or more are
    /// plain normalised averages. With threshold 0 weights are always normalised (one track at any positive
    /// weight shows its clip fully); a bone with no weight at all gets its bind value either way.
    pub fn finish(&self, bind: &[Transform], rest_threshold: f32, out: &mut [Transform]) {
        let threshold = if rest_threshold.is_nan() { 0.0 } else { rest_threshold.max(0.0) };
        for (i, slot) in out.iter_mut().enumerate() {
            let rest = bind.get(i).copied().unwrap_or_default();
            let Some(mut acc) = self.acc.get(i).copied() else {
                *slot = rest;
                continue;
            };
            if acc.weight < threshold {
                let fill = threshold - acc.weight;
                accumulate(&mut acc, &rest, fill);
            }
            *slot = if acc.weight > 0.0 { normalise(&acc, &rest) } else { rest };
        }
    }
}

#[inline(always)]
fn accumulate(acc: &mut Accum, t: &Transform, w: f32) {
    let q = Vec4::from(t.rotation);
    let q = if acc.rotation.dot(q) < 0.0 { -q } else { q };
    acc.translation += t.translation * w;
    acc.rotation += q * w;
    acc.scale += t.scale * w;
    acc.weight += w;
}

#[inline(always)]
fn normalise(acc: &Accum, rest: &Transform) -> Transform {
    let inv = 1.0 / acc.weight;
    let len2 = acc.rotation.length_squared();
    // Opposite rotations at equal weight cancel; there is no meaningful average, keep the bind rotation.
    let rotation = if len2 > 1e-12 { Quat::from_vec4(acc.rotation * len2.sqrt().recip()) } else { rest.rotation };
    Transform { translation: acc.translation * inv, rotation, scale: acc.scale * inv }
}

/// Layers `pose` on top of `out` as a difference from `reference`, scaled by `weight` (times the mask's weight
/// per bone): translation adds `w·(pose − reference)`; rotation post-multiplies by the delta
/// `reference⁻¹·pose` taken a fraction `w` of the way from the identity (so the delta acts in the bone's own
/// frame, as an additive clip authored on one base pose expects); scale multiplies by `1 + w·(pose/reference − 1)`.
/// Weights above 1 exaggerate. Bones past the end of any slice are left alone.
pub fn apply_additive(
    out: &mut [Transform],
    pose: &[Transform],
    reference: &[Transform],
    weight: f32,
    mask: Option<&BoneMask>,
) {
    if weight.is_nan() || weight <= 0.0 {
        return;
    }
    for (i, ((o, p), r)) in out.iter_mut().zip(pose).zip(reference).enumerate() {
        let w = match mask {
            Some(m) => weight * m.weight(i),
            None => weight,
        };
        if w > 0.0 {
            add_delta(o, p, r, w);
        }
    }
}

#[inline]
fn add_delta(out: &mut Transform, pose: &Transform, reference: &Transform, w: f32) {
    out.translation += (pose.translation - reference.translation) * w;
    let delta = reference.rotation.conjugate() * pose.rotation;
    let delta = if delta.w < 0.0 { -delta } else { delta };
    let partial = if w == 1.0 { delta } else { Quat::IDENTITY.lerp(delta, w) };
    out.rotation = (out.rotation * partial).normalize();
    let ratio = Vec3::select(reference.scale.cmpeq(Vec3::ZERO), Vec3::ONE, pose.scale / reference.scale);
    out.scale *= Vec3::ONE + (ratio - Vec3::ONE) * w;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `angle_between` is imprecise near 0 in f32 (acos near 1); compare the quaternions themselves.
    fn same_rotation(a: Quat, b: Quat) -> bool {
        a.dot(b).abs() > 1.0 - 1e-6
    }

    fn tr(x: f32, q: Quat) -> Transform {
        Transform::from_translation_rotation(Vec3::new(x, 0.0, 0.0), q)
    }

    #[test]
    fn quaternions_are_blended_in_one_hemisphere() {
        let a = [tr(0.0, Quat::from_rotation_z(0.2))];
        let b = [tr(0.0, -Quat::from_rotation_z(0.6))]; // same rotation as +q, opposite sign
        let mut blender = Blender::new();
        blender.begin(1);
        blender.add(&a, 0.5, None);
        blender.add(&b, 0.5, None);
        let mut out = [Transform::IDENTITY];
        blender.finish(&[Transform::IDENTITY], 1.0, &mut out);
        assert!(same_rotation(out[0].rotation, Quat::from_rotation_z(0.4)), "{:?}", out[0].rotation);
    }

    #[test]
    fn bind_fills_below_the_threshold() {
        let bind = [tr(0.0, Quat::IDENTITY)];
        let clip = [tr(10.0, Quat::IDENTITY)];
        let mut blender = Blender::new();
        let mut out = [Transform::IDENTITY];
        blender.begin(1);
        blender.add(&clip, 0.3, None);
        blender.finish(&bind, 1.0, &mut out);
        assert!((out[0].translation.x - 3.0).abs() < 1e-5);
        blender.finish(&bind, 0.0, &mut out);
        assert!((out[0].translation.x - 10.0).abs() < 1e-5, "threshold 0 normalises");
        blender.begin(1);
        blender.finish(&bind, 0.0, &mut out);
        assert_eq!(out[0], bind[0], "no weight at all keeps the bind pose");
    }

    #[test]
    fn masks_cover_a_branch() {
        // 0 ─ 1 ─ 2
        //   └ 3 ─ 4
        let mut s = Skeleton::default();
        s.push("root", None, Transform::IDENTITY);
        s.push("spine", Some(0), Transform::IDENTITY);
        s.push("head", Some(1), Transform::IDENTITY);
        s.push("hip", Some(0), Transform::IDENTITY);
        s.push("leg", Some(3), Transform::IDENTITY);
        let m = BoneMask::from_bone_name(&s, "SPINE").unwrap();
        assert_eq!(m.weights(), &[0.0, 1.0, 1.0, 0.0, 0.0]);
        assert_eq!(m.inverted().weights(), &[1.0, 0.0, 0.0, 1.0, 1.0]);
        let mut m2 = BoneMask::from_bone_and_descendants(&s, 0);
        m2.include_descendants(&s, 3, 0.5);
        assert_eq!(m2.weights(), &[1.0, 1.0, 1.0, 0.5, 0.5]);
        assert!(BoneMask::from_bone_and_descendants(&s, 99).is_zero());
        assert!(BoneMask::from_bone_name(&s, "tail").is_none());
    }

    #[test]
    fn additive_adds_the_difference_from_the_reference() {
        let reference = [Transform::new(Vec3::new(1.0, 0.0, 0.0), Quat::from_rotation_x(0.5), Vec3::splat(2.0))];
        let pose = [Transform::new(
            Vec3::new(1.0, 2.0, 0.0),
            Quat::from_rotation_x(0.5) * Quat::from_rotation_y(0.4),
            Vec3::splat(3.0),
        )];
        let base = Transform::new(Vec3::new(0.0, 0.0, 5.0), Quat::from_rotation_z(1.0), Vec3::ONE);
        let mut out = [base];
        apply_additive(&mut out, &pose, &reference, 1.0, None);
        assert!(out[0].translation.abs_diff_eq(Vec3::new(0.0, 2.0, 5.0), 1e-5));
        let want = Quat::from_rotation_z(1.0) * Quat::from_rotation_y(0.4);
        assert!(same_rotation(out[0].rotation, want));
        assert!(out[0].scale.abs_diff_eq(Vec3::splat(1.5), 1e-5));
        // Half weight: half the translation, about half the angle.
        let mut half = [base];
        apply_additive(&mut half, &pose, &reference, 0.5, None);
        assert!(half[0].translation.abs_diff_eq(Vec3::new(0.0, 1.0, 5.0), 1e-5));
        let angle = half[0].rotation.angle_between(Quat::from_rotation_z(1.0));
        assert!((angle - 0.2).abs() < 2e-3, "{angle}");
        // The reference itself adds nothing.
        let mut same = [base];
        apply_additive(&mut same, &reference, &reference, 1.0, None);
        assert!(same[0].translation.abs_diff_eq(base.translation, 1e-6));
        assert!(same_rotation(same[0].rotation, base.rotation));
    }
}
