//! Body groups of a model script (QC `$bodygroup`, MDS `registerMesh`…): HLMV's "body part" switch. Each group
//! shows one of its choices at a time; the meshes of the others are hidden in the viewport. By default every
//! group shows its first choice, as the game does with body 0. The parts of a modular character (files joined
//! on one skeleton, `scene::parts`) are switched here too, each on or off.
//!
//! Must not touch: GPU, files.

use eframe::egui;

use crate::scene::Asset;

use crate::ui::commands::command::Command;

/// A check box per part of a modular character (its file and mesh count); nothing for a one-file character.
pub fn show_parts(ui: &mut egui::Ui, asset: &Asset, hidden_parts: &[usize], cmds: &mut Vec<Command>) {
    if asset.parts.is_empty() {
        return;
    }
    ui.strong(format!("Parts ({} files on one skeleton)", asset.parts.len()));
    for (p, part) in asset.parts.iter().enumerate() {
        let mut visible = !hidden_parts.contains(&p);
        let label =
            format!("{} ({} mesh{})", part.name, part.meshes.len(), if part.meshes.len() == 1 { "" } else { "es" });
        // A file name is one long word: cut short, with the path on hover, rather than broken mid-name.
        let response = ui.scope(|ui| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
            ui.checkbox(&mut visible, label)
        });
        let response = match &part.source {
            Some(path) => response.inner.on_hover_text(path.display().to_string()),
            None => response.inner,
        };
        if response.changed() {
            cmds.push(Command::SetPartVisible(p, visible));
        }
    }
    ui.separator();
}

/// A combo box per body group with more than one choice; nothing when there are none.
pub fn show(ui: &mut egui::Ui, asset: &Asset, choices: &[usize], cmds: &mut Vec<Command>) {
    let Some(script) = asset.model_script.as_deref() else { return };
    let groups: Vec<(usize, &crate::scene::BodyGroup)> =
        script.body_groups.iter().enumerate().filter(|(_, g)| g.choices.len() > 1).collect();
    if groups.is_empty() {
        return;
    }
    ui.strong("Body groups");
    egui::Grid::new("body groups").num_columns(2).show(ui, |ui| {
        for (g, group) in groups {
            ui.label(&group.name);
            let current = choices.get(g).copied().unwrap_or(0);
            let label = |c: usize| group.choices.get(c).map_or_else(|| "?".to_owned(), |ch| ch.name.clone());
            egui::ComboBox::from_id_salt(("body group", g)).selected_text(label(current)).show_ui(ui, |ui| {
                for c in 0..group.choices.len() {
                    if ui.selectable_label(c == current, label(c)).clicked() && c != current {
                        cmds.push(Command::SetBodyChoice(g, c));
                    }
                }
            });
            ui.end_row();
        }
    });
    ui.separator();
}
