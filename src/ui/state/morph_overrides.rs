//! The morph weights set by hand, over the ones the playing clips drive. Weights are slots of the
//! controller's [`MorphLayout`](crate::anim::MorphLayout) (meshes back to back, targets in file order). The player
//! evaluates the clips' weights first; [`MorphOverrides::apply`] then replaces the overridden slots with their
//! manual values, so what the viewport draws is "clip, unless the user took the slider". Also the scale of the
//! morph-displacement shading mode.
//!
//! Must not touch: egui, GPU, files.

use crate::scene::Asset;

/// Manual weights and which targets they override, parallel to a [`MorphLayout`](crate::anim::MorphLayout)'s slots, plus the weights the
/// clips drove at the last evaluation (shown beside the sliders).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MorphOverrides {
    manual: Vec<f32>,
    overridden: Vec<bool>,
    driven: Vec<f32>,
}

impl MorphOverrides {
    /// No override, for `slots` targets.
    pub fn new(slots: usize) -> Self {
        Self { manual: vec![0.0; slots], overridden: vec![false; slots], driven: vec![0.0; slots] }
    }

    pub fn len(&self) -> usize {
        self.manual.len()
    }

    pub fn is_empty(&self) -> bool {
        self.manual.is_empty()
    }

    /// Sets a manual weight and overrides the clips with it.
    pub fn set(&mut self, slot: usize, weight: f32) {
        if let (Some(m), Some(o)) = (self.manual.get_mut(slot), self.overridden.get_mut(slot)) {
            *m = if weight.is_finite() { weight } else { 0.0 };
            *o = true;
        }
    }

    /// Turns a slot's override on (with its manual value) or off (the clips drive it again).
    pub fn set_overridden(&mut self, slot: usize, on: bool) {
        if let Some(o) = self.overridden.get_mut(slot) {
            *o = on;
        }
    }

    /// Every override off and every manual weight back to 0.
    pub fn reset(&mut self) {
        self.manual.fill(0.0);
        self.overridden.fill(false);
    }

    pub fn manual(&self, slot: usize) -> f32 {
        self.manual.get(slot).copied().unwrap_or(0.0)
    }

    pub fn is_overridden(&self, slot: usize) -> bool {
        self.overridden.get(slot).copied().unwrap_or(false)
    }

    /// The weight the clips drove at the last [`MorphOverrides::apply`].
    pub fn driven(&self, slot: usize) -> f32 {
        self.driven.get(slot).copied().unwrap_or(0.0)
    }

    pub fn overridden_count(&self) -> usize {
        self.overridden.iter().filter(|o| **o).count()
    }

    /// Remembers the clips' weights and replaces the overridden ones with their manual values.
    pub fn apply(&mut self, weights: &mut Vec<f32>) {
        weights.resize(self.manual.len(), 0.0);
        self.driven.clear();
        self.driven.extend_from_slice(weights);
        for ((w, &m), &o) in weights.iter_mut().zip(&self.manual).zip(&self.overridden) {
            if o {
                *w = m;
            }
        }
    }
}

/// The largest distance `target` moves any vertex (model units).
pub fn largest_displacement(target: &crate::scene::MorphTarget) -> f32 {
    target.position_deltas.iter().map(|d| d.length()).fold(0.0, f32::max)
}

/// The scale of the morph-displacement shading mode: the most the weighted targets can move a vertex,
/// `Σ |w| · largest displacement`, over the meshes (slots numbered as [`MorphLayout`](crate::anim::MorphLayout) numbers them); 1 when no
/// target is active, so the mesh reads "not moved" rather than dividing by zero.
pub fn displacement_range(asset: &Asset, weights: &[f32]) -> f32 {
    let mut slot = 0;
    let mut per_mesh_max = 0.0f32;
    for mesh in &asset.meshes {
        let mut sum = 0.0;
        for target in &mesh.morph_targets {
            let w = weights.get(slot).copied().filter(|w| w.is_finite()).unwrap_or(0.0);
            sum += w.abs() * largest_displacement(target);
            slot += 1;
        }
        per_mesh_max = per_mesh_max.max(sum);
    }
    if per_mesh_max > 0.0 && per_mesh_max.is_finite() { per_mesh_max } else { 1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_replace_only_their_slots_and_remember_what_the_clip_drove() {
        let mut o = MorphOverrides::new(3);
        o.set(1, 0.75);
        let mut weights = vec![0.2, 0.4, 0.6];
        o.apply(&mut weights);
        assert_eq!(weights, vec![0.2, 0.75, 0.6]);
        assert_eq!(o.driven(1), 0.4);
        o.set_overridden(1, false);
        let mut weights = vec![0.2, 0.4, 0.6];
        o.apply(&mut weights);
        assert_eq!(weights, vec![0.2, 0.4, 0.6]);
        // The manual value is kept for when the override is turned on again.
        assert_eq!(o.manual(1), 0.75);
    }

    #[test]
    fn the_displacement_scale_is_the_most_the_active_targets_can_move_a_vertex() {
        use crate::scene::{Mesh, MorphTarget};
        let target = |d: f32| MorphTarget {
            vertices: vec![0, 1],
            position_deltas: vec![glam::Vec3::new(d, 0.0, 0.0), glam::Vec3::new(0.0, d * 0.5, 0.0)],
            ..MorphTarget::default()
        };
        let mut asset = Asset::default();
        asset.meshes.push(Mesh { morph_targets: vec![target(2.0), target(4.0)], ..Mesh::default() });
        assert_eq!(displacement_range(&asset, &[0.5, 0.0]), 1.0);
        assert_eq!(displacement_range(&asset, &[0.5, -1.0]), 5.0);
        assert_eq!(displacement_range(&asset, &[]), 1.0, "nothing active");
    }

    #[test]
    fn reset_hands_every_target_back_to_the_clips() {
        let mut o = MorphOverrides::new(2);
        o.set(0, 1.0);
        o.set(1, 0.5);
        o.reset();
        let mut weights = vec![0.1, 0.2];
        o.apply(&mut weights);
        assert_eq!(weights, vec![0.1, 0.2]);
        assert_eq!(o.overridden_count(), 0);
    }
}
