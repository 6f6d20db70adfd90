//! Sampling a whole clip into a local pose. A [`ClipBinding`] resolves the clip's tracks to skeleton bones by
//! name once (when a clip is bound), so per-frame sampling does no string work.

use crate::scene::{Clip, Skeleton, Transform};

use super::curve::{KeyGrid, sample_quat_in_grid, sample_vec3_in_grid};

/// For each skeleton bone, the index of the clip track that animates it (and how that track's keys are laid
/// out, so sampling a baked clip needs no key search).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClipBinding {
    pub bone_tracks: Vec<Option<usize>>,
    /// Track indices whose bone the skeleton does not have.
    pub unmatched_tracks: Vec<usize>,
    /// Per bone: the key grids of its track's translation, rotation and scale curves.
    grids: Vec<[KeyGrid; 3]>,
}

impl ClipBinding {
    pub fn new(skeleton: &Skeleton, clip: &Clip) -> Self {
        let mut bone_tracks = vec![None; skeleton.len()];
        let mut unmatched_tracks = Vec::new();
        for (t, track) in clip.tracks.iter().enumerate() {
            match skeleton.find(&track.bone_name) {
                Some(bone) if bone_tracks[bone].is_none() => bone_tracks[bone] = Some(t),
                Some(_) => {}
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
        Self { bone_tracks, unmatched_tracks, grids }
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::curve::{sample_quat, sample_vec3};
    use crate::scene::{BoneTrack, Curve};
    use glam::{Quat, Vec3};

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
