//! Sampling a whole clip into a local pose. A [`ClipBinding`] resolves the clip's tracks to skeleton bones by
//! name once (when a clip is bound), so per-frame sampling does no string work.

use crate::scene::{Clip, Skeleton, Transform};

use super::curve::{sample_quat, sample_vec3};

/// For each skeleton bone, the index of the clip track that animates it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClipBinding {
    pub bone_tracks: Vec<Option<usize>>,
    /// Track indices whose bone the skeleton does not have.
    pub unmatched_tracks: Vec<usize>,
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
        Self { bone_tracks, unmatched_tracks }
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
            *slot = match track {
                None => bind,
                Some(track) => Transform {
                    translation: sample_vec3(&track.translation, time).unwrap_or(bind.translation),
                    rotation: sample_quat(&track.rotation, time).unwrap_or(bind.rotation),
                    scale: sample_vec3(&track.scale, time).unwrap_or(bind.scale),
                },
            };
        }
    }
}
