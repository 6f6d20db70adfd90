//! An asset with a clip bound and pose buffers reused frame to frame: the small glue between `anim` and the
//! renderer that the `render` command, the golden tests and the benches share (sample a time → palette, morph
//! weights and joint matrices → instance + skeleton overlay). The viewer uses the animation controller instead.
//!
//! Morph weights: the clip's weight tracks at the time, then fixed settings (`render --morph NAME=WEIGHT`)
//! that override the targets they name, one weight per slot of `MorphLayout::of_meshes(&asset.meshes)`, the
//! numbering the renderer's morph pass uses.

use glam::{Mat4, Vec3};

use super::RenderError;
use super::overlay::{Overlay, SkeletonStyle};
use crate::anim::studio::{BlendSampler, BoneAdjustment, apply_adjustments, bone_adjustments};
use crate::anim::{ClipBinding, MorphBinding, MorphLayout, Pose, bounds_of_placed, posed_bounds, skin_mesh_morphed};
use crate::scene::{Asset, Bounds, Clip};

pub struct PosedAsset<'a> {
    pub asset: &'a Asset,
    clip: Option<(&'a Clip, ClipBinding)>,
    /// The clip's weight tracks bound to the asset's targets (`None` without a clip or tracks).
    morphs: Option<MorphBinding>,
    morph_slots: usize,
    /// (slot, weight) set by hand; applied after the clip's weights.
    morph_overrides: Vec<(usize, f32)>,
    pub pose: Pose,
    joints: Vec<Mat4>,
    /// A blend sequence's animations and the parameters they are mixed by (the clip's defaults unless set).
    blend: Option<(BlendSampler, [f32; 2])>,
    /// Bone controllers' adjustments (each controller at its rest value unless set).
    adjustments: Vec<BoneAdjustment>,
    /// Meshes not drawn and not framed: the body-group choices the viewer does not show at first (one body, not
    /// every registered body and armour at once).
    pub hidden_meshes: Vec<usize>,
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
        let layout = MorphLayout::of_meshes(&asset.meshes);
        let morphs =
            clip.as_ref().filter(|(c, _)| !c.morph_tracks.is_empty()).map(|(c, _)| MorphBinding::new(&layout, c));
        let blend = clip.as_ref().and_then(|(c, _)| {
            let defaults = c.script.as_ref()?.blend.as_ref()?.defaults;
            Some((BlendSampler::new(&asset.skeleton, c)?, defaults))
        });
        let controllers = asset.model_script.as_deref().map_or(&[][..], |s| s.controllers.as_slice());
        let adjustments = bone_adjustments(&asset.skeleton, controllers, &[]);
        let mut posed = Self {
            asset,
            clip,
            blend,
            adjustments,
            morphs,
            morph_slots: layout.len(),
            morph_overrides: Vec::new(),
            pose: Pose::bind(&asset.skeleton),
            joints: Vec::new(),
            hidden_meshes: asset.hidden_meshes(&[], &[]),
        };
        posed.pose.morph_weights = vec![0.0; posed.morph_slots];
        Ok(posed)
    }

    /// Fixes the weights of some targets, whatever the clip drives: (slot of `MorphLayout::of_meshes`, weight);
    /// slots past the layout are ignored. Takes effect at the next [`PosedAsset::set_time`].
    pub fn set_morph_overrides(&mut self, overrides: Vec<(usize, f32)>) {
        self.morph_overrides = overrides;
    }

    /// Mixes a blend sequence's animations by these parameters (`0..=1` each); no effect on other clips. Takes
    /// effect at the next [`PosedAsset::set_time`].
    pub fn set_blend_parameters(&mut self, parameters: [f32; 2]) {
        if let Some((_, p)) = &mut self.blend {
            *p = parameters;
        }
    }

    /// Bone controllers' adjustments applied to every pose ([`crate::anim::studio::bone_adjustments`]).
    pub fn set_adjustments(&mut self, adjustments: Vec<BoneAdjustment>) {
        self.adjustments = adjustments;
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
                match &mut self.blend {
                    Some((sampler, parameters)) => {
                        sampler.sample(&self.asset.skeleton, clip, binding, time, *parameters, &mut self.pose.local)
                    }
                    None => binding.sample(&self.asset.skeleton, clip, time, &mut self.pose.local),
                }
            }
            None => {
                self.pose.local.clear();
                self.pose.local.extend_from_slice(&self.asset.skeleton.bind_local);
            }
        }
        apply_adjustments(&mut self.pose.local, &self.adjustments);
        self.pose.update(&self.asset.skeleton);
        let weights = &mut self.pose.morph_weights;
        weights.resize(self.morph_slots, 0.0);
        match (&self.morphs, &self.clip) {
            (Some(binding), Some((clip, _))) => binding.sample(clip, time, weights),
            _ => weights.fill(0.0),
        }
        for &(slot, w) in &self.morph_overrides {
            if let Some(o) = weights.get_mut(slot) {
                *o = w;
            }
        }
    }

    /// Viewer-frame bounds at the current pose (morphed, when any weight is set).
    pub fn bounds(&self) -> Bounds {
        if self.pose.morph_weights.iter().all(|w| *w == 0.0) {
            return posed_bounds(self.asset, &self.pose.palette, &self.pose.to_root, &self.hidden_meshes);
        }
        let layout = MorphLayout::of_meshes(&self.asset.meshes);
        let palette = if self.pose.palette.is_empty() { &[Mat4::IDENTITY][..] } else { &self.pose.palette[..] };
        let placed: Vec<Vec<Vec3>> = self
            .asset
            .meshes
            .iter()
            .enumerate()
            .filter(|(m, _)| !self.hidden_meshes.contains(m))
            .map(|(m, mesh)| {
                let (mut p, mut n) = (Vec::new(), Vec::new());
                let weights = self.pose.morph_weights.get(layout.mesh_range(m)).unwrap_or_default();
                skin_mesh_morphed(mesh, palette, weights, &mut p, &mut n);
                p
            })
            .collect();
        bounds_of_placed(self.asset, &self.pose.to_root, placed.iter().map(Vec::as_slice))
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

    /// A model script that registers two bodies (as a Gothic MDS registers every body and armour) draws and frames
    /// the first only, as the viewer shows it.
    #[test]
    fn only_the_first_body_of_each_group_is_drawn_and_framed() {
        use crate::scene::{BodyChoice, BodyGroup, ModelScript, ScriptLanguage};
        let mut asset = demo_asset();
        let mut far = asset.meshes[0].clone();
        far.positions.iter_mut().for_each(|p| p.x += 100.0);
        asset.meshes.push(far);
        let choice = |name: &str, mesh: usize| BodyChoice {
            name: name.into(),
            path: None,
            meshes: vec![mesh],
            placement: None,
            file: 0,
            line: 1,
        };
        let mut script = ModelScript::new(ScriptLanguage::GothicMds);
        script.body_groups.push(BodyGroup {
            name: "bodies".into(),
            choices: vec![choice("near", 0), choice("far", 1)],
            file: 0,
            line: 1,
        });
        asset.model_script = Some(Box::new(script));
        let posed = PosedAsset::new(&asset, None).unwrap();
        assert_eq!(posed.hidden_meshes, [1]);
        assert!(posed.bounds().max.x < 50.0, "{:?}", posed.bounds());
    }
}
