//! A clip's morph weight tracks as glTF `weights` channels: one channel per mesh node whose targets the clip
//! drives (VTA flex clips, ASE vertex frames, MMS `morphAni` clips, any weight track).
//!
//! glTF animates all of a mesh's weights with one sampler whose output holds, per key time, one value per target.
//! So the tracks driving one mesh (matched to its targets as the controller matches them, `anim::MorphBinding`)
//! are sampled on the union of their key times. Between two neighbouring union times every linear track is a
//! straight line, so the channel plays exactly what the tracks do. Two keys at one time (a jump, as tweening
//! frames that share a tick writes) cannot be said in glTF, whose times strictly increase: the value just before
//! the jump is written a hair earlier ([`JUMP`] or a quarter of the gap to the key before, whichever is smaller).
//! Step tracks alone give a STEP sampler; Hermite tracks, or step tracks mixed with linear ones, are sampled at
//! the clip's frame rate as well. Targets the clip does not drive are at 0 while it plays, as in the controller
//! (a clip leaves the targets it does not animate at rest).

use gltf::json;

use super::animation::push_channel;
use super::builder::Builder;
use crate::anim::curve::sample;
use crate::anim::{MorphBinding, MorphLayout};
use crate::scene::{Clip, Interpolation};

/// How much earlier than a jump the value before it is written, in seconds.
const JUMP: f32 = 1e-4;

/// Most keys one weights channel may get from resampling a Hermite or mixed track (about an hour at 30 fps).
const MAX_RESAMPLED_KEYS: usize = 1 << 17;

impl Builder {
    /// Adds a `weights` channel for each exported mesh (`mesh_nodes`: mesh index in the asset, its node) whose
    /// targets `clip` drives. Returns how many were added.
    pub(super) fn morph_weight_channels(
        &mut self,
        clip: &Clip,
        layout: &MorphLayout,
        mesh_nodes: &[(usize, json::Index<json::Node>)],
        channels: &mut Vec<json::animation::Channel>,
        samplers: &mut Vec<json::animation::Sampler>,
    ) -> usize {
        if clip.morph_tracks.is_empty() {
            return 0;
        }
        let binding = MorphBinding::new(layout, clip);
        let mut added = 0;
        for &(mesh, node) in mesh_nodes {
            let range = layout.mesh_range(mesh);
            // (slot within the mesh, track) for the driven targets of this mesh.
            let driven: Vec<(usize, usize)> = binding
                .driven_slots()
                .iter()
                .zip(binding.driving_tracks())
                .filter(|(slot, _)| range.contains(&(**slot as usize)))
                .map(|(&slot, &track)| (slot as usize - range.start, track as usize))
                .collect();
            if driven.is_empty() {
                continue;
            }
            let Some((times, interpolation)) = key_times(clip, &driven) else { continue };
            let targets = range.len();
            let mut values = vec![0.0f32; times.len() * targets];
            for (k, &t) in times.iter().enumerate() {
                for &(slot, track) in &driven {
                    let weight = clip.morph_tracks.get(track).and_then(|tr| sample(&tr.weights, t)).unwrap_or(0.0);
                    values[k * targets + slot] = if weight.is_finite() { weight } else { 0.0 };
                }
            }
            let input = self.time_accessor(&times);
            let output = self.accessor(
                bytemuck::cast_slice(&values),
                values.len(),
                json::accessor::ComponentType::F32,
                json::accessor::Type::Scalar,
                None,
                false,
                None,
            );
            push_channel(
                channels,
                samplers,
                node,
                json::animation::Property::MorphTargetWeights,
                input,
                output,
                interpolation,
            );
            added += 1;
        }
        added
    }
}

/// The key times of one channel (strictly increasing, not negative) and its interpolation, for the `driven`
/// (slot, track) pairs of `clip`. `None` when no track has a usable key.
fn key_times(clip: &Clip, driven: &[(usize, usize)]) -> Option<(Vec<f32>, json::animation::Interpolation)> {
    let tracks: Vec<_> = driven.iter().filter_map(|&(_, t)| clip.morph_tracks.get(t)).map(|t| &t.weights).collect();
    let mut times: Vec<f32> =
        tracks.iter().flat_map(|c| c.times[..c.len()].iter().copied()).filter(|t| t.is_finite()).collect();
    if times.is_empty() {
        return None;
    }
    let steps = tracks.iter().filter(|c| c.interpolation == Interpolation::Step).count();
    let all_step = steps == tracks.len();
    let resample = !all_step && (steps > 0 || tracks.iter().any(|c| c.interpolation == Interpolation::Hermite));
    // Jumps: a time that one track keys twice.
    let mut jumps: Vec<f32> = tracks
        .iter()
        .flat_map(|c| c.times[..c.len()].windows(2).filter(|w| w[0] == w[1]).map(|w| w[0]).collect::<Vec<_>>())
        .collect();
    times.iter_mut().for_each(|t| *t = t.max(0.0));
    times.sort_by(f32::total_cmp);
    times.dedup();
    if resample {
        let (start, end) = (times[0], times[times.len() - 1]);
        let fps = if clip.frame_rate > 0.0 && clip.frame_rate.is_finite() { clip.frame_rate } else { 30.0 };
        let frames = (((end - start) * fps).ceil() as usize).min(MAX_RESAMPLED_KEYS);
        times.extend((1..frames).map(|f| start + f as f32 / fps).filter(|&t| t < end));
        times.sort_by(f32::total_cmp);
        times.dedup();
    }
    if !all_step {
        jumps.sort_by(f32::total_cmp);
        jumps.dedup();
        let mut before = Vec::new();
        for jump in jumps {
            let i = times.partition_point(|&t| t < jump);
            if i == 0 {
                continue;
            }
            let earlier = jump - JUMP.min((jump - times[i - 1]) * 0.25);
            if earlier > times[i - 1] && earlier < jump {
                before.push(earlier);
            }
        }
        times.extend(before);
        times.sort_by(f32::total_cmp);
        times.dedup();
    }
    let interpolation =
        if all_step { json::animation::Interpolation::Step } else { json::animation::Interpolation::Linear };
    Some((times, interpolation))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Curve, MorphTrack};

    fn clip(tracks: Vec<Curve<f32>>) -> Clip {
        Clip {
            frame_rate: 10.0,
            morph_tracks: tracks
                .into_iter()
                .enumerate()
                .map(|(i, weights)| MorphTrack { target: format!("t{i}"), mesh: None, weights })
                .collect(),
            ..Clip::default()
        }
    }

    #[test]
    fn times_are_the_union_with_a_key_before_each_jump() {
        let c = clip(vec![
            Curve::linear(vec![0.0, 1.0, 1.0, 2.0], vec![0.0, 0.5, 1.0, 0.0]),
            Curve::linear(vec![0.5, 2.0], vec![1.0, 0.0]),
        ]);
        let (times, interpolation) = key_times(&c, &[(0, 0), (1, 1)]).unwrap();
        assert_eq!(interpolation, json::animation::Interpolation::Linear);
        assert_eq!(times, vec![0.0, 0.5, 1.0 - JUMP, 1.0, 2.0]);
        // Sampled there, the first track is 0.5 just before the jump and 1 at it.
        assert!((sample(&c.morph_tracks[0].weights, times[2]).unwrap() - 0.5).abs() < 1e-3);
        assert_eq!(sample(&c.morph_tracks[0].weights, times[3]), Some(1.0));
    }

    #[test]
    fn step_tracks_stay_step_and_mixed_ones_are_resampled() {
        let step = Curve { interpolation: Interpolation::Step, ..Curve::linear(vec![0.0, 1.0], vec![0.0, 1.0]) };
        let (times, interpolation) = key_times(&clip(vec![step.clone()]), &[(0, 0)]).unwrap();
        assert_eq!((times, interpolation), (vec![0.0, 1.0], json::animation::Interpolation::Step));
        let mixed = clip(vec![step, Curve::linear(vec![0.0, 1.0], vec![1.0, 0.0])]);
        let (times, interpolation) = key_times(&mixed, &[(0, 0), (1, 1)]).unwrap();
        assert_eq!(interpolation, json::animation::Interpolation::Linear);
        assert_eq!(times.len(), 11, "every frame at 10 fps: {times:?}");
        assert!(key_times(&clip(vec![Curve::default()]), &[(0, 0)]).is_none());
    }
}
