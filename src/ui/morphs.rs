//! The Morphs tab and the manual morph weights behind it: every morph target of the open meshes with a slider,
//! the weight the playing clips drive beside it, a per-target manual override, search and "reset all" — the
//! viewer's version of HLMV's flex panel and Blender's shape-key list.
//!
//! Weights are slots of the controller's [`MorphLayout`] (meshes back to back, targets in file order). The
//! player evaluates the clips' weights first; [`MorphOverrides::apply`] then replaces the overridden slots with
//! their manual values, so what the viewport draws is "clip, unless the user took the slider". Moving a slider
//! turns its override on (a slider that did nothing until a checkbox was ticked would look broken); the
//! checkbox hands the target back to the clip.
//!
//! Must not touch: GPU, files.

use eframe::egui;

use crate::anim::MorphLayout;
use crate::scene::Asset;

use super::command::Command;

/// Manual weights and which targets they override, parallel to a [`MorphLayout`]'s slots, plus the weights the
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

    /// Follows a layout of `slots` targets: keeps what it had when the count is unchanged (a reload of the same
    /// file), starts over otherwise.
    pub fn resize(&mut self, slots: usize) {
        if self.manual.len() != slots {
            *self = Self::new(slots);
        }
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
/// `Σ |w| · largest displacement`, over the meshes (slots numbered as [`MorphLayout`] numbers them); 1 when no
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

/// What the tab keeps between frames.
#[derive(Clone, Debug, Default)]
pub struct MorphsView {
    pub search: String,
}

/// The range a target's slider offers: 0–1, widened to the manual value where the user typed one outside it
/// (VTA flex controllers and PSK morphs are authored in 0–1; Gothic morph-mesh frames are 0/1 tweens).
fn slider_range(value: f32) -> std::ops::RangeInclusive<f32> {
    value.min(0.0)..=value.max(1.0)
}

/// The Morphs tab. `weights` are the ones drawn this frame (after overrides).
pub fn show(
    ui: &mut egui::Ui,
    view: &mut MorphsView,
    asset: &Asset,
    overrides: &MorphOverrides,
    cmds: &mut Vec<Command>,
) {
    let layout = MorphLayout::of_meshes(&asset.meshes);
    if layout.is_empty() {
        ui.label("No morph targets in the open meshes.");
        ui.weak("Morph targets come from VTA files bound to an SMD, PSK morph chunks, ASE vertex animation and Gothic morph meshes.");
        return;
    }
    ui.horizontal(|ui| {
        ui.label(format!("{} targets", layout.len()));
        if overrides.overridden_count() > 0 {
            ui.weak(format!("({} set by hand)", overrides.overridden_count()));
        }
        if ui.button("Reset all").on_hover_text("Every target back to what the clips drive").clicked() {
            cmds.push(Command::ResetMorphs);
        }
    });
    ui.add(egui::TextEdit::singleline(&mut view.search).hint_text("Search targets").desired_width(f32::INFINITY));
    let needle = view.search.trim().to_lowercase();
    ui.separator();
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        for mesh in 0..layout.mesh_count() {
            let range = layout.mesh_range(mesh);
            let shown: Vec<usize> = range
                .filter(|&s| {
                    needle.is_empty() || layout.target_name(s).is_some_and(|n| n.to_lowercase().contains(&needle))
                })
                .collect();
            if shown.is_empty() {
                continue;
            }
            let mesh_name = asset.meshes.get(mesh).map_or("", |m| m.name.as_str());
            ui.strong(format!("{mesh_name} ({} targets)", layout.mesh_range(mesh).len()));
            egui::Grid::new(("morphs", mesh)).num_columns(4).striped(true).show(ui, |ui| {
                for slot in shown {
                    target_row(ui, &layout, overrides, slot, cmds);
                    ui.end_row();
                }
            });
            ui.add_space(6.0);
        }
    });
}

fn target_row(
    ui: &mut egui::Ui,
    layout: &MorphLayout,
    overrides: &MorphOverrides,
    slot: usize,
    cmds: &mut Vec<Command>,
) {
    let name = layout.target_name(slot).unwrap_or("?");
    let on = overrides.is_overridden(slot);
    let mut checked = on;
    if ui.checkbox(&mut checked, "").on_hover_text("Set by hand (ticked) or driven by the playing clips").changed() {
        cmds.push(Command::SetMorphOverride(slot, checked));
    }
    ui.label(name);
    let mut value = if on { overrides.manual(slot) } else { overrides.driven(slot) };
    let range = slider_range(value);
    // Never clamped: egui's default clamps (and rounds to the shown decimals) the value every frame and reports
    // that as a change, which took a clip-driven 0.333 for a slider the user moved.
    let slider = egui::Slider::new(&mut value, range).fixed_decimals(2).clamping(egui::SliderClamping::Never);
    if ui.add(slider).changed() {
        cmds.push(Command::SetMorphWeight(slot, value));
    }
    let driven = overrides.driven(slot);
    let text = format!("clip {driven:.2}");
    if on { ui.weak(text) } else { ui.label(text) }.on_hover_text("The weight the playing clips drive for this target");
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

    #[test]
    fn a_layout_of_another_size_starts_over_and_the_weights_follow_it() {
        let mut o = MorphOverrides::new(2);
        o.set(0, 1.0);
        o.resize(2);
        assert!(o.is_overridden(0));
        o.resize(4);
        assert_eq!(o.len(), 4);
        assert_eq!(o.overridden_count(), 0);
        let mut weights = Vec::new();
        o.apply(&mut weights);
        assert_eq!(weights.len(), 4);
    }

    /// A weight the clips drive between two flex frames (0.333…) is shown, not taken as set by hand.
    #[test]
    fn a_driven_weight_that_is_not_a_round_number_stays_driven() {
        use crate::scene::{Mesh, MorphTarget};
        let mut asset = Asset::default();
        let target = MorphTarget { name: "blink".into(), ..MorphTarget::default() };
        asset.meshes.push(Mesh { morph_targets: vec![target], ..Mesh::default() });
        let layout = MorphLayout::of_meshes(&asset.meshes);
        let mut overrides = MorphOverrides::new(1);
        overrides.apply(&mut vec![1.0 / 3.0]);
        let ctx = egui::Context::default();
        let mut cmds = Vec::new();
        for _ in 0..3 {
            let mut output =
                ctx.run_ui(egui::RawInput::default(), |ui| target_row(ui, &layout, &overrides, 0, &mut cmds));
            output.textures_delta.clear();
        }
        assert!(cmds.is_empty(), "{cmds:?}");
    }
}
