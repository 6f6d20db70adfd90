//! Clips as glTF animations: per bone a translation, rotation and scale channel, keys kept where the file has
//! them (Hermite curves are resampled, since glTF's cubic spline needs tangents of another kind), times made
//! strictly increasing as glTF requires; morph weight tracks are added by `morph_weights`.

use glam::{Quat, Vec3};
use gltf::json;
use json::validation::Checked::Valid;

use super::builder::Builder;
use crate::anim::curve::sample_quat;
use crate::anim::{ClipBinding, MorphLayout};
use crate::scene::{Clip, Curve, Interpolation, Skeleton};

impl Builder {
    /// Adds `clip` as an animation: its bone tracks on the bone nodes, its morph weight tracks on the nodes of
    /// the meshes whose targets they drive (`morph_weights`). A clip that animates neither is left out, with a
    /// warning.
    pub(super) fn animation(
        &mut self,
        clip: &Clip,
        skeleton: &Skeleton,
        bone_nodes: &[json::Index<json::Node>],
        layout: &MorphLayout,
        mesh_nodes: &[(usize, json::Index<json::Node>)],
    ) {
        let mut channels = Vec::new();
        let mut samplers = Vec::new();
        // Tracks are matched to bones, and translations retargeted, as the viewer plays them.
        let binding = ClipBinding::new(skeleton, clip);
        let mut bone_of = vec![None; clip.tracks.len()];
        for (bone, track) in binding.bone_tracks.iter().enumerate() {
            if let Some(slot) = track.and_then(|t| bone_of.get_mut(t)) {
                *slot = Some(bone);
            }
        }
        for (track, bone) in clip.tracks.iter().zip(bone_of) {
            let Some(node) = bone.and_then(|b| bone_nodes.get(b)).copied() else { continue };
            let retargeted = bone.and_then(|b| binding.translation_rule(b)).map(|rule| Curve {
                values: track.translation.values.iter().map(|v| rule.apply(*v)).collect(),
                tangents: (track.translation.tangents.iter())
                    .map(|(a, b)| (rule.apply_to_tangent(*a), rule.apply_to_tangent(*b)))
                    .collect(),
                ..track.translation.clone()
            });
            let translation = retargeted.as_ref().unwrap_or(&track.translation);
            if let Some((input, output, interpolation)) = self.vec3_channel(translation, |b, v| b.point(v)) {
                push_channel(
                    &mut channels,
                    &mut samplers,
                    node,
                    json::animation::Property::Translation,
                    input,
                    output,
                    interpolation,
                );
            }
            if let Some((input, output, interpolation)) = self.rotation_channel(&track.rotation, clip.frame_rate) {
                push_channel(
                    &mut channels,
                    &mut samplers,
                    node,
                    json::animation::Property::Rotation,
                    input,
                    output,
                    interpolation,
                );
            }
            if let Some((input, output, interpolation)) = self.vec3_channel(&track.scale, |b, v| b.scale(v)) {
                push_channel(
                    &mut channels,
                    &mut samplers,
                    node,
                    json::animation::Property::Scale,
                    input,
                    output,
                    interpolation,
                );
            }
        }
        self.morph_weight_channels(clip, layout, mesh_nodes, &mut channels, &mut samplers);
        if channels.is_empty() {
            self.report.warnings.push(format!(
                "clip '{}' animates no bone of the skeleton and no morph target: not exported",
                clip.name
            ));
            return;
        }
        self.root.push(json::Animation {
            extensions: None,
            extras: Default::default(),
            channels,
            name: Some(clip.name.clone()),
            samplers,
        });
    }

    /// Translation or scale keys. Hermite curves map directly to glTF CUBICSPLINE (both use tangents per
    /// second, scaled by the segment length when sampled).
    pub(super) fn vec3_channel(
        &mut self,
        curve: &Curve<Vec3>,
        convert: impl Fn(&Self, Vec3) -> Vec3,
    ) -> Option<(json::Index<json::Accessor>, json::Index<json::Accessor>, json::animation::Interpolation)> {
        let keep = increasing_keys(&curve.times[..curve.len()]);
        if keep.is_empty() {
            return None;
        }
        let times: Vec<f32> = keep.iter().map(|&i| curve.times[i].max(0.0)).collect();
        let hermite = curve.interpolation == Interpolation::Hermite && curve.tangents.len() >= curve.len();
        let (values, interpolation) = if hermite {
            // CUBICSPLINE output: in-tangent, value, out-tangent per key. Tangents are vectors: the linear part
            // of the conversion applies to them as to positions.
            let values: Vec<Vec3> = keep
                .iter()
                .flat_map(|&i| {
                    [
                        convert(self, curve.tangents[i].0),
                        convert(self, curve.values[i]),
                        convert(self, curve.tangents[i].1),
                    ]
                })
                .collect();
            (values, json::animation::Interpolation::CubicSpline)
        } else {
            let values: Vec<Vec3> = keep.iter().map(|&i| convert(self, curve.values[i])).collect();
            (values, gltf_interpolation(curve.interpolation))
        };
        let input = self.time_accessor(&times);
        let output = self.vec3_accessor(&values, false, None);
        Some((input, output, interpolation))
    }

    /// Rotation keys: Hermite rotations are resampled to linear keys at the clip's frame rate (their tangents
    /// do not survive the change of frame as glTF tangents); consecutive keys are kept in one hemisphere.
    pub(super) fn rotation_channel(
        &mut self,
        curve: &Curve<Quat>,
        frame_rate: f32,
    ) -> Option<(json::Index<json::Accessor>, json::Index<json::Accessor>, json::animation::Interpolation)> {
        let keep = increasing_keys(&curve.times[..curve.len()]);
        if keep.is_empty() {
            return None;
        }
        let (times, raw, interpolation): (Vec<f32>, Vec<Quat>, _) = if curve.interpolation == Interpolation::Hermite {
            let start = curve.times[keep[0]].max(0.0);
            let end = curve.end_time();
            let fps = if frame_rate > 0.0 { frame_rate } else { 30.0 };
            let frames = (((end - start) * fps).ceil() as usize).clamp(1, 1 << 20);
            let times: Vec<f32> = (0..=frames).map(|f| (start + f as f32 / fps).min(end)).collect();
            let times = dedup_increasing(times);
            let values = times.iter().map(|&t| sample_quat(curve, t).unwrap_or(Quat::IDENTITY)).collect();
            (times, values, json::animation::Interpolation::Linear)
        } else {
            let times = keep.iter().map(|&i| curve.times[i].max(0.0)).collect();
            (times, keep.iter().map(|&i| curve.values[i]).collect(), gltf_interpolation(curve.interpolation))
        };
        let mut values: Vec<Quat> = raw.into_iter().map(|q| self.rotation(q)).collect();
        for i in 1..values.len() {
            if values[i - 1].dot(values[i]) < 0.0 {
                values[i] = -values[i];
            }
        }
        let input = self.time_accessor(&times);
        let output = self.quat_accessor(&values);
        Some((input, output, interpolation))
    }
}

pub(super) fn push_channel(
    channels: &mut Vec<json::animation::Channel>,
    samplers: &mut Vec<json::animation::Sampler>,
    node: json::Index<json::Node>,
    path: json::animation::Property,
    input: json::Index<json::Accessor>,
    output: json::Index<json::Accessor>,
    interpolation: json::animation::Interpolation,
) {
    let sampler = json::Index::push(
        samplers,
        json::animation::Sampler {
            extensions: None,
            extras: Default::default(),
            input,
            interpolation: Valid(interpolation),
            output,
        },
    );
    channels.push(json::animation::Channel {
        sampler,
        target: json::animation::Target { extensions: None, extras: Default::default(), node, path: Valid(path) },
        extensions: None,
        extras: Default::default(),
    });
}

pub(super) fn gltf_interpolation(interpolation: Interpolation) -> json::animation::Interpolation {
    match interpolation {
        Interpolation::Step => json::animation::Interpolation::Step,
        Interpolation::Linear | Interpolation::Hermite => json::animation::Interpolation::Linear,
    }
}

/// Indices of keys whose times strictly increase (glTF requires it; files sometimes repeat a time).
pub(super) fn increasing_keys(times: &[f32]) -> Vec<usize> {
    let mut keep = Vec::with_capacity(times.len());
    let mut last = f32::NEG_INFINITY;
    for (i, &t) in times.iter().enumerate() {
        let t = t.max(0.0);
        if t.is_finite() && t > last {
            keep.push(i);
            last = t;
        }
    }
    keep
}

pub(super) fn dedup_increasing(mut times: Vec<f32>) -> Vec<f32> {
    times.dedup_by(|b, a| *b <= *a);
    times
}
