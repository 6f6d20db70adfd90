//! The Files tab's GoldSrc controls, as HLMV's "Body parts" and "Sequence" panels have them: the skin family
//! (QC `$texturegroup`, a compiled model's skins), a slider per bone controller (QC `$controller`; degrees or
//! model units within its range) and, when the focus clip is a blend sequence, a slider per blend parameter in
//! that sequence's range (a parameter whose file names no control goes from 0 to 1).
//!
//! Reads the asset's model script and the player's values; emits commands. Must not touch: GPU, files.

use eframe::egui;

use crate::anim::studio::{blend_fraction, blend_value};
use crate::scene::Asset;
use crate::ui::commands::command::Command;
use crate::ui::state::player::Player;

/// The section; nothing for a model without skins, controllers or blend sequences.
pub fn show(ui: &mut egui::Ui, asset: &Asset, skin: usize, player: &Player, focus: usize, cmds: &mut Vec<Command>) {
    let Some(script) = asset.model_script.as_deref() else { return };
    let studio = player.studio();
    let blend = player
        .track(focus)
        .and_then(|t| t.clip)
        .and_then(|c| asset.clips.get(c))
        .and_then(|clip| Some((clip, clip.script.as_ref()?.blend.as_ref()?)))
        .map(|(clip, b)| (clip, b.parameters, script.sequence(&clip.name)));
    if script.skin_families.len() <= 1 && studio.is_empty() && blend.is_none() {
        return;
    }
    if script.skin_families.len() > 1 {
        ui.horizontal(|ui| {
            ui.strong("Skin");
            let label = |i: usize| {
                let textures = script.skin_families.get(i).map(|f| f.textures.join(", ")).unwrap_or_default();
                format!("{i}: {textures}")
            };
            egui::ComboBox::from_id_salt("skin family").selected_text(label(skin)).show_ui(ui, |ui| {
                for i in 0..script.skin_families.len() {
                    if ui.selectable_label(i == skin, label(i)).clicked() && i != skin {
                        cmds.push(Command::SetSkin(i));
                    }
                }
            });
        });
    }
    if !studio.is_empty() {
        ui.strong("Bone controllers");
        egui::Grid::new("bone controllers").num_columns(2).show(ui, |ui| {
            for (i, c) in studio.controllers.iter().enumerate() {
                ui.add(egui::Label::new(c.label()).extend());
                let (lo, hi) = c.range();
                let mut value = studio.values.get(i).copied().unwrap_or_else(|| c.rest_value());
                let unit = if c.channel.is_rotation() { "°" } else { "" };
                let slider = egui::Slider::new(&mut value, lo..=hi).suffix(unit);
                if ui.add(slider).changed() {
                    cmds.push(Command::SetController(i, value));
                }
                ui.end_row();
            }
        });
    }
    if let Some((clip, parameters, sequence)) = blend {
        ui.strong(format!("Blend of \"{}\"", clip.name));
        egui::Grid::new("blend parameters").num_columns(2).show(ui, |ui| {
            for p in 0..parameters.min(2) {
                let range = sequence.and_then(|s| s.blends.get(p)).filter(|r| (r.end - r.start).abs() > f32::EPSILON);
                let label = match range {
                    Some(r) if !r.control.is_empty() => format!("{} {}", r.control, p + 1),
                    _ => format!("blend {}", p + 1),
                };
                ui.add(egui::Label::new(label).extend());
                let fraction = studio.blend.get(p).copied().unwrap_or(0.0);
                let mut value = blend_value(range, fraction);
                let (lo, hi) = range.map_or((0.0, 1.0), |r| (r.start.min(r.end), r.start.max(r.end)));
                if ui.add(egui::Slider::new(&mut value, lo..=hi)).changed() {
                    cmds.push(Command::SetBlend(p, blend_fraction(range, value)));
                }
                ui.end_row();
            }
        });
    }
    ui.separator();
}
