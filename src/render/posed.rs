//! An asset with a clip bound and pose buffers reused frame to frame: the small glue between `anim` and the
//! renderer that the `render` command, the golden tests and the benches share (sample a time → palette and
//! joint matrices → instance + skeleton overlay). The viewer uses the animation controller instead.

use glam::Mat4;

use super::RenderError;
use super::overlay::{Overlay, SkeletonStyle};
use crate::anim::{ClipBinding, Pose, posed_bounds};
use crate::scene::{Asset, Bounds, Clip};

pub struct PosedAsset<'a> {
    pub asset: &'a Asset,
    clip: Option<(&'a Clip, ClipBinding)>,
    pub pose: Pose,
    joints: Vec<Mat4>,
}

impl<'a> PosedAsset<'a> {
    /// Binds the named clip (case-insensitive), or none for the bind pose. An unknown name is an error that
    /// lists the clips there are.
    pub fn new(asset: &'a Asset, clip: Option<&str>) -> Result<Self, RenderError> {
        let clip = match clip {
            None => None,
            Some(name) => {
                let clip = asset.clip(name).ok_or_else(|| {
                    let names: Vec<&str> = asset.clips.iter().map(|c| c.name.as_str()).collect();
                    RenderError::Invalid(format!(
                        "no clip named '{name}'; clips: {}",
                        if names.is_empty() { "none".to_owned() } else { names.join(", ") }
                    ))
                })?;
                Some((clip, ClipBinding::new(&asset.skeleton, clip)))
            }
        };
        Ok(Self { asset, clip, pose: Pose::bind(&asset.skeleton), joints: Vec::new() })
    }

    pub fn clip(&self) -> Option<&'a Clip> {
        self.clip.as_ref().map(|(c, _)| *c)
    }

    /// The clip's length in seconds (0 for the bind pose).
    pub fn duration(&self) -> f32 {
        self.clip().map_or(0.0, |c| c.duration.max(0.0))
    }

    /// Poses the asset at `time` seconds into the clip (clamped to its keys); the bind pose without a clip.
    pub fn set_time(&mut self, time: f32) {
        match &self.clip {
            Some((clip, binding)) => {
                self.pose.local.resize(self.asset.skeleton.len(), Default::default());
                binding.sample(&self.asset.skeleton, clip, time, &mut self.pose.local);
            }
            None => {
                self.pose.local.clear();
                self.pose.local.extend_from_slice(&self.asset.skeleton.bind_local);
            }
        }
        self.pose.update(&self.asset.skeleton);
    }

    /// Viewer-frame bounds at the current pose.
    pub fn bounds(&self) -> Bounds {
        posed_bounds(self.asset, &self.pose.palette, &self.pose.to_root)
    }

    /// Bounds over the whole clip (`samples` poses from start to end) so a camera framed on them holds still
    /// while the clip plays. Leaves the asset posed at the clip's start.
    pub fn clip_bounds(&mut self, samples: u32) -> Bounds {
        let duration = self.duration();
        let samples = if self.clip.is_some() && duration > 0.0 { samples.max(2) } else { 1 };
        let mut b = Bounds::EMPTY;
        for i in 0..samples {
            let t = if samples > 1 { duration * i as f32 / (samples - 1) as f32 } else { 0.0 };
            self.set_time(t);
            b = b.union(&self.bounds());
        }
        self.set_time(0.0);
        b
    }

    /// Adds the skeleton at the current pose, placed like a model instance with `placement`.
    pub fn add_skeleton(&mut self, overlay: &mut Overlay, placement: Mat4, style: &SkeletonStyle) {
        let world = placement * self.asset.axes.to_viewer;
        self.joints.clear();
        self.joints.extend(self.pose.to_root.iter().map(|m| world * *m));
        overlay.skeleton(&self.asset.skeleton.parents, &self.joints, style);
    }
}

/// The bone that carries the most total skinning weight: a sensible default for the weight heat map.
pub fn heaviest_bone(asset: &Asset) -> Option<usize> {
    let mut totals = vec![0f64; asset.skeleton.len()];
    for mesh in &asset.meshes {
        for (joints, weights) in mesh.joints.iter().zip(&mesh.weights) {
            for (j, w) in joints.iter().zip(weights) {
                if let Some(t) = totals.get_mut(usize::from(*j)) {
                    *t += f64::from(*w);
                }
            }
        }
    }
    totals.iter().enumerate().filter(|(_, t)| **t > 0.0).max_by(|a, b| a.1.total_cmp(b.1)).map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::samples::demo::demo_asset;

    #[test]
    fn clip_bounds_cover_every_pose_and_unknown_clips_are_named() {
        let asset = demo_asset();
        let mut posed = PosedAsset::new(&asset, Some("curl")).unwrap();
        assert_eq!(posed.clip().unwrap().name, "Curl");
        let all = posed.clip_bounds(16);
        posed.set_time(0.75);
        let mid = posed.bounds();
        // Sampled, so poses between samples may reach a little further: within 1% of the size.
        let slack = all.size() * 0.01;
        assert!((all.min - slack).cmple(mid.min).all() && (all.max + slack).cmpge(mid.max).all(), "{all:?} {mid:?}");
        // The curl moves the top forward (+Z) well beyond the bind pose's radius.
        assert!(all.max.z > 1.0, "{all:?}");
        // The stalk is about 6 units tall in the bind pose.
        assert!((PosedAsset::new(&asset, None).unwrap().bounds().size().y - 6.0).abs() < 0.1);
        let err = PosedAsset::new(&asset, Some("walk")).err().unwrap().to_string();
        assert!(err.contains("Sway") && err.contains("Curl"), "{err}");
    }
}
