//! Sampling a whole clip into a local pose. A [`ClipBinding`] resolves the clip's tracks to skeleton bones by
//! name once (when a clip is bound, with [`match_tracks`], the rule the bind reports show), and works out how
//! each bone's translation is retargeted ([`Retarget`]), so per-frame sampling does no string work and the
//! viewer, the command line and the diagnostics sample the same pose.

use glam::Vec3;

use crate::scene::{Clip, Retarget, RootMotion, Skeleton, Transform, TranslationMode, match_tracks};

use super::curve::{KeyGrid, sample_quat_in_grid, sample_vec3_in_grid};

/// How one bone's sampled translation is changed: `offset + scale · t`, then for a root whose motion is held,
/// all of it or its height replaced by the first frame's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TranslationRule {
    scale: f32,
    offset: Vec3,
    hold: Hold,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Hold {
    Nothing,
    All(Vec3),
    Height { up: Vec3, height: f32 },
}

impl TranslationRule {
    pub const IDENTITY: Self = Self { scale: 1.0, offset: Vec3::ZERO, hold: Hold::Nothing };

    /// The retargeted translation of a sampled one.
    #[inline]
    pub fn apply(&self, t: Vec3) -> Vec3 {
        let moved = self.offset + self.scale * t;
        match self.hold {
            Hold::Nothing => moved,
            Hold::All(v) => v,
            Hold::Height { up, height } => moved - up * up.dot(moved) + up * height,
        }
    }

    /// The change of a tangent (a rate of change of the translation) under the rule: the linear part of it.
    pub fn apply_to_tangent(&self, d: Vec3) -> Vec3 {
        let d = self.scale * d;
        match self.hold {
            Hold::Nothing => d,
            Hold::All(_) => Vec3::ZERO,
            Hold::Height { up, .. } => d - up * up.dot(d),
        }
    }

    /// The rule of one bone: `bind` its bind translation, `first` the animation's first-frame translation.
    fn new(retarget: &Retarget, mode: TranslationMode, root: bool, bind: Vec3, first: Vec3) -> Self {
        let (scale, offset) = match (mode, root) {
            (TranslationMode::Animation, _) => (1.0, Vec3::ZERO),
            // A root keeps the animation's motion, measured from the first frame and placed at the bind pose.
            (TranslationMode::RotationOnly, true) => (1.0, bind - first),
            (TranslationMode::RotationOnly, false) => (0.0, bind),
            (TranslationMode::Scaled, _) => {
                let (model, animation) = (bind.length(), first.length());
                let ratio = if model > 1e-6 && animation > 1e-6 { model / animation } else { 1.0 };
                (ratio, Vec3::ZERO)
            }
        };
        let start = offset + scale * first;
        let up = Vec3::from_array(retarget.up).normalize_or(Vec3::Y);
        let hold = match (root, retarget.root) {
            (false, _) | (true, RootMotion::Keep) => Hold::Nothing,
            (true, RootMotion::Lock) => Hold::All(start),
            (true, RootMotion::Ground) => Hold::Height { up, height: up.dot(start) },
        };
        Self { scale, offset, hold }
    }
}

/// For each skeleton bone, the index of the clip track that animates it (and how that track's keys are laid
/// out, so sampling a baked clip needs no key search), and how its translation is retargeted.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClipBinding {
    pub bone_tracks: Vec<Option<usize>>,
    /// Track indices whose bone the skeleton does not have.
    pub unmatched_tracks: Vec<usize>,
    /// Per bone: the key grids of its track's translation, rotation and scale curves.
    grids: Vec<[KeyGrid; 3]>,
    /// Per bone: how its translation is retargeted; empty when the clip plays as the file says.
    translation_rules: Vec<TranslationRule>,
}

impl ClipBinding {
    pub fn new(skeleton: &Skeleton, clip: &Clip) -> Self {
        let mut bone_tracks = vec![None; skeleton.len()];
        let mut unmatched_tracks = Vec::new();
        let matched = match_tracks(skeleton, clip.tracks.iter().map(|t| t.bone_name.as_str()));
        for (t, found) in matched.into_iter().enumerate() {
            match found {
                // A placeholder track (identity keys of a bone the animation never moved) leaves the bone at its
                // bind pose unless the binding plays them.
                Some((bone, _))
                    if !clip.retarget.apply_placeholder_tracks
                        && clip
                            .tracks
                            .get(t)
                            .zip(skeleton.bind_local.get(bone))
                            .is_some_and(|(track, bind)| crate::scene::placeholder::is_placeholder(track, bind)) => {}
                Some((bone, _)) => bone_tracks[bone] = Some(t),
                None => unmatched_tracks.push(t),
            }
        }
        let grids = bone_tracks
            .iter()
            .map(|t| match t.and_then(|t| clip.tracks.get(t)) {
                Some(track) => [
                    KeyGrid::of(&track.translation.times),
                    KeyGrid::of(&track.rotation.times),
                    KeyGrid::of(&track.scale.times),
                ],
                None => [KeyGrid::Irregular; 3],
            })
            .collect();
        let translation_rules = translation_rules(skeleton, clip, &bone_tracks);
        Self { bone_tracks, unmatched_tracks, grids, translation_rules }
    }

    /// How `bone`'s translation is retargeted (`None`: as sampled).
    #[inline]
    pub fn translation_rule(&self, bone: usize) -> Option<&TranslationRule> {
        self.translation_rules.get(bone)
    }

    /// Whether any bone's translation is retargeted.
    pub fn retargets(&self) -> bool {
        !self.translation_rules.is_empty()
    }

    /// The key grids of the translation, rotation and scale curves of the track bound to `bone`.
    pub fn key_grids(&self, bone: usize) -> [KeyGrid; 3] {
        self.grids.get(bone).copied().unwrap_or_default()
    }

    /// Number of skeleton bones the clip animates.
    pub fn animated_bones(&self) -> usize {
        self.bone_tracks.iter().filter(|t| t.is_some()).count()
    }

    /// Writes the clip's local transforms at `time` (seconds, clamped to the keys) into `out`. Bones without a
    /// track, and channels without keys, get the bind value.
    pub fn sample(&self, skeleton: &Skeleton, clip: &Clip, time: f32, out: &mut [Transform]) {
        for (bone, slot) in out.iter_mut().enumerate() {
            let bind = skeleton.bind_local.get(bone).copied().unwrap_or_default();
            let track = self.bone_tracks.get(bone).copied().flatten().and_then(|t| clip.tracks.get(t));
            let [gt, gr, gs] = self.grids.get(bone).copied().unwrap_or_default();
            *slot = match track {
                None => bind,
                Some(track) => Transform {
                    translation: sample_vec3_in_grid(&track.translation, time, gt).unwrap_or(bind.translation),
                    rotation: sample_quat_in_grid(&track.rotation, time, gr).unwrap_or(bind.rotation),
                    scale: sample_vec3_in_grid(&track.scale, time, gs).unwrap_or(bind.scale),
                },
            };
            if let Some(rule) = self.translation_rules.get(bone) {
                slot.translation = rule.apply(slot.translation);
            }
        }
    }
}

/// The per-bone translation rules of `clip.retarget` (empty when it changes nothing). Bones without
/// translation keys keep the bind translation, so they need no rule.
fn translation_rules(skeleton: &Skeleton, clip: &Clip, bone_tracks: &[Option<usize>]) -> Vec<TranslationRule> {
    let retarget = &clip.retarget;
    if retarget.is_identity() {
        return Vec::new();
    }
    let rules: Vec<TranslationRule> = bone_tracks
        .iter()
        .enumerate()
        .map(|(bone, track)| {
            let first = track.and_then(|t| clip.tracks.get(t)).and_then(|t| t.translation.values.first());
            let (Some(first), Some(bind), Some(name)) =
                (first, skeleton.bind_local.get(bone), skeleton.names.get(bone))
            else {
                return TranslationRule::IDENTITY;
            };
            let root = skeleton.parents.get(bone).copied().flatten().is_none();
            TranslationRule::new(retarget, retarget.mode_of(name), root, bind.translation, *first)
        })
        .collect();
    if rules.iter().all(|r| *r == TranslationRule::IDENTITY) { Vec::new() } else { rules }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::BoneTrack as Track;

    /// A root and a child whose bind translations are (0, 0, 0) and (0, 2, 0), and a clip made for a skeleton
    /// 1.5× larger: the root walks along x and bobs along y, the child's offset is (0, 3, 0).
    fn walk() -> (Skeleton, Clip) {
        let mut skeleton = Skeleton::default();
        skeleton.push("root", None, Transform::IDENTITY);
        skeleton.push("child", Some(0), Transform::from_translation_rotation(Vec3::new(0.0, 2.0, 0.0), Quat::IDENTITY));
        let root = Track {
            bone_name: "root".into(),
            translation: Curve::linear(vec![0.0, 1.0], vec![Vec3::new(0.0, 1.0, 0.0), Vec3::new(4.0, 1.5, 0.0)]),
            ..Track::default()
        };
        let child = Track {
            bone_name: "child".into(),
            translation: Curve::constant(Vec3::new(0.0, 3.0, 0.0)),
            ..Track::default()
        };
        (skeleton, Clip { name: "walk".into(), duration: 1.0, tracks: vec![root, child], ..Clip::default() })
    }

    fn at(skeleton: &Skeleton, clip: &Clip, time: f32) -> [Vec3; 2] {
        let binding = ClipBinding::new(skeleton, clip);
        let mut out = vec![Transform::IDENTITY; 2];
        binding.sample(skeleton, clip, time, &mut out);
        // The baked sampler of the controller gives the same.
        let baked = crate::anim::controller::baked_for_tests(skeleton, clip, &binding, time);
        assert_eq!(baked.iter().map(|t| t.translation).collect::<Vec<_>>(), [out[0].translation, out[1].translation]);
        [out[0].translation, out[1].translation]
    }

    #[test]
    fn translation_modes_and_root_motion() {
        let (skeleton, mut clip) = walk();
        assert_eq!(at(&skeleton, &clip, 1.0), [Vec3::new(4.0, 1.5, 0.0), Vec3::new(0.0, 3.0, 0.0)]);
        assert!(!ClipBinding::new(&skeleton, &clip).retargets(), "the default changes nothing");
        // Rotation only: the child keeps the model's bone length; the root moves by the animation's motion from
        // its bind position.
        clip.retarget = Retarget { translation: TranslationMode::RotationOnly, ..Retarget::default() };
        assert_eq!(at(&skeleton, &clip, 1.0), [Vec3::new(4.0, 0.5, 0.0), Vec3::new(0.0, 2.0, 0.0)]);
        // Scaled: the child's offset times 2/3.
        clip.retarget.translation = TranslationMode::Scaled;
        assert!(at(&skeleton, &clip, 1.0)[1].abs_diff_eq(Vec3::new(0.0, 2.0, 0.0), 1e-6));
        // Root locked: it stays where the first frame puts it.
        clip.retarget = Retarget { root: RootMotion::Lock, ..Retarget::default() };
        assert_eq!(at(&skeleton, &clip, 1.0)[0], Vec3::new(0.0, 1.0, 0.0));
        // Root on the ground plane (y up): it walks along x but no longer bobs.
        clip.retarget = Retarget { root: RootMotion::Ground, ..Retarget::default() };
        assert_eq!(at(&skeleton, &clip, 1.0)[0], Vec3::new(4.0, 1.0, 0.0));
        // With z up (an SMD's frame) the height is z: y motion is kept.
        clip.retarget.up = [0.0, 0.0, 1.0];
        assert_eq!(at(&skeleton, &clip, 1.0)[0], Vec3::new(4.0, 1.5, 0.0));
        // A per-bone override: rotation only for the binding, the animation's translation for the child.
        let mut retarget = Retarget { translation: TranslationMode::RotationOnly, ..Retarget::default() };
        retarget.set_override("child", TranslationMode::Animation);
        clip.retarget = retarget;
        assert_eq!(at(&skeleton, &clip, 1.0), [Vec3::new(4.0, 0.5, 0.0), Vec3::new(0.0, 3.0, 0.0)]);
    }
    use crate::anim::curve::{sample_quat, sample_vec3};
    use crate::scene::{BoneTrack, Curve};
    use glam::Quat;

    #[test]
    fn grid_sampling_matches_plain_curve_sampling() {
        let asset = crate::scene::samples::demo::demo_asset();
        let skeleton = &asset.skeleton;
        let mut clip = asset.clips[0].clone();
        // One irregular curve and one track for a bone the skeleton lacks, next to the baked ones.
        clip.tracks[2].translation = Curve::linear(vec![0.0, 0.3, 1.9], vec![Vec3::ZERO, Vec3::X, Vec3::Y]);
        clip.tracks.push(BoneTrack { bone_name: "tail".into(), ..BoneTrack::default() });
        let binding = ClipBinding::new(skeleton, &clip);
        assert_eq!(binding.unmatched_tracks, vec![clip.tracks.len() - 1]);
        let mut out = vec![Transform::IDENTITY; skeleton.len()];
        for i in 0..700 {
            let t = -0.2 + i as f32 * 0.0037;
            binding.sample(skeleton, &clip, t, &mut out);
            for (bone, got) in out.iter().enumerate() {
                let track = &clip.tracks[binding.bone_tracks[bone].unwrap()];
                let bind = skeleton.bind_local[bone];
                let want = Transform {
                    translation: sample_vec3(&track.translation, t).unwrap_or(bind.translation),
                    rotation: sample_quat(&track.rotation, t).unwrap_or(bind.rotation),
                    scale: sample_vec3(&track.scale, t).unwrap_or(bind.scale),
                };
                assert_eq!(*got, want, "bone {bone} at {t}");
            }
        }
        // Bound to one clip, sampling another (same bone names, different key times) is still right.
        let mut other = clip.clone();
        for track in &mut other.tracks {
            let n = track.rotation.times.len();
            track.rotation.times = (0..n).map(|f| f as f32 / 24.0).collect();
            track.rotation.values = (0..n).map(|f| Quat::from_rotation_y(f as f32 * 0.01)).collect();
        }
        binding.sample(skeleton, &other, 1.0, &mut out);
        let want = sample_quat(&other.tracks[1].rotation, 1.0).unwrap();
        assert_eq!(out[1].rotation, want);
    }
}
