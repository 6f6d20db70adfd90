//! The Morphs tab: every morph target of the open meshes with a slider, the weight the playing clips drive
//! beside it, a per-target manual override, search and "reset all" — the viewer's version of HLMV's flex panel
//! and Blender's shape-key list. The weights set by hand are [`MorphOverrides`] (state). Moving a slider turns
//! its override on (a slider that did nothing until a checkbox was ticked would look broken); the checkbox hands
//! the target back to the clip.
//!
//! Must not touch: GPU, files.

use eframe::egui;

use crate::anim::MorphLayout;
use crate::scene::Asset;

use crate::ui::commands::command::Command;
use crate::ui::state::morph_overrides::MorphOverrides;

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

/// Width of the target-name column, in points.
const NAME_WIDTH: f32 = 170.0;

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
    // A fixed, truncated name column (the full name on hover): in the right panel, whose text wraps, a name left
    // to wrap took the grid's narrowest width and broke after every few letters.
    let size = egui::vec2(NAME_WIDTH, ui.spacing().interact_size.y);
    ui.allocate_ui_with_layout(size, egui::Layout::left_to_right(egui::Align::Center), |ui| {
        ui.set_min_width(NAME_WIDTH);
        ui.add(egui::Label::new(name).truncate()).on_hover_text(name);
    });
    let mut value = if on { overrides.manual(slot) } else { overrides.driven(slot) };
    let range = slider_range(value);
    // Never clamped: egui's default clamps (and rounds to the shown decimals) the value every frame and reports
    // that as a change, which took a clip-driven 0.333 for a slider the user moved.
    let slider = egui::Slider::new(&mut value, range).fixed_decimals(2).clamping(egui::SliderClamping::Never);
    if ui.add(slider).changed() {
        cmds.push(Command::SetMorphWeight(slot, value));
    }
    let driven = overrides.driven(slot);
    let text = egui::RichText::new(format!("clip {driven:.2}"));
    let text = if on { text.weak() } else { text };
    ui.add(egui::Label::new(text).wrap_mode(egui::TextWrapMode::Extend))
        .on_hover_text("The weight the playing clips drive for this target");
}

#[cfg(test)]
mod tests {
    use super::*;

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
