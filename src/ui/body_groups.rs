//! Body groups of a model script (QC `$bodygroup`, MDS `registerMesh`…): HLMV's "body part" switch. Each group
//! shows one of its choices at a time; the meshes of the others are hidden in the viewport. By default every
//! group shows its first choice, as the game does with body 0. The parts of a modular character (files joined
//! on one skeleton, `scene::parts`) are switched here too, each on or off.
//!
//! Must not touch: GPU, files.

use eframe::egui;

use crate::scene::Asset;

use super::command::Command;

/// The meshes hidden by `choices` (one entry per body group; missing entries mean the first choice) and by
/// `hidden_parts` (indices into `Asset::parts`): every mesh of a choice not shown, unless a shown choice uses it
/// too, and every mesh of a part switched off.
pub fn hidden_meshes(asset: &Asset, choices: &[usize], hidden_parts: &[usize]) -> Vec<usize> {
    let mut shown = Vec::new();
    let mut hidden = Vec::new();
    if let Some(script) = asset.model_script.as_deref() {
        for (g, group) in script.body_groups.iter().enumerate() {
            let pick = choices.get(g).copied().unwrap_or(0);
            for (c, choice) in group.choices.iter().enumerate() {
                let list = if c == pick { &mut shown } else { &mut hidden };
                list.extend(choice.meshes.iter().copied());
            }
        }
    }
    hidden.retain(|m| !shown.contains(m));
    for &p in hidden_parts {
        hidden.extend(asset.parts.get(p).into_iter().flat_map(|part| part.meshes.iter().copied()));
    }
    hidden.sort_unstable();
    hidden.dedup();
    hidden
}

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
        if ui.checkbox(&mut visible, label).changed() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{BodyChoice, BodyGroup, ModelScript, ScriptLanguage};

    fn choice(name: &str, meshes: &[usize]) -> BodyChoice {
        BodyChoice { name: name.into(), path: None, meshes: meshes.to_vec(), placement: None, file: 0, line: 1 }
    }

    #[test]
    fn one_choice_per_group_is_shown() {
        let mut script = ModelScript::new(ScriptLanguage::ValveQc);
        script.body_groups.push(BodyGroup {
            name: "body".into(),
            choices: vec![choice("ref", &[0])],
            file: 0,
            line: 1,
        });
        script.body_groups.push(BodyGroup {
            name: "heads".into(),
            choices: vec![choice("head1", &[1]), choice("head2", &[2, 3]), choice("blank", &[])],
            file: 0,
            line: 2,
        });
        let asset = Asset { model_script: Some(Box::new(script)), ..Asset::default() };
        assert_eq!(hidden_meshes(&asset, &[], &[]), vec![2, 3], "first choices by default");
        assert_eq!(hidden_meshes(&asset, &[0, 1], &[]), vec![1]);
        assert_eq!(hidden_meshes(&asset, &[0, 2], &[]), vec![1, 2, 3], "blank hides the whole group");
        assert!(hidden_meshes(&Asset::default(), &[1], &[]).is_empty());
    }

    #[test]
    fn a_part_switched_off_hides_its_meshes() {
        let part = |name: &str, meshes: &[usize]| crate::scene::Part {
            name: name.into(),
            source: None,
            meshes: meshes.to_vec(),
        };
        let asset = Asset { parts: vec![part("body.psk", &[0]), part("shirt.psk", &[1, 2])], ..Asset::default() };
        assert!(hidden_meshes(&asset, &[], &[]).is_empty());
        assert_eq!(hidden_meshes(&asset, &[], &[1]), vec![1, 2]);
        assert_eq!(hidden_meshes(&asset, &[], &[0, 1]), vec![0, 1, 2]);
    }
}
