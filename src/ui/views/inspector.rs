//! The inspector: the selected bone's local SRT (now and at bind), to-root, offset (inverse bind) and skinning
//! matrices with copy-to-clipboard, its parent and children, how many vertices it moves; and the "Files" tab
//! (what was loaded, axis conversion, bind reports, warnings). Reads only; copying and selecting are
//! [`Command`]s.

use eframe::egui;
use egui::RichText;
use glam::{EulerRot, Mat4, Quat, Vec3};

use crate::anim::Pose;
use crate::scene::{BindReport, NameRule, Retarget, RootMotion, TrackMatch, Transform, TranslationMode};

use crate::render::ShadingMode;
use crate::ui::commands::command::Command;
use crate::ui::state::document::{Document, display_name};
use crate::ui::state::settings::UiState;

/// A matrix as four rows of text (glam stores columns; rows read like the maths: translation on the right).
pub fn matrix_text(m: &Mat4) -> String {
    let r = m.transpose().to_cols_array_2d();
    r.iter()
        .map(|row| row.iter().map(|v| format!("{:>10}", num(*v, 5))).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn srt_text(t: &Transform) -> String {
    let (x, y, z) = t.rotation.to_euler(EulerRot::XYZ);
    format!(
        "T  {}\nR  {}  (x y z w)\n   {}°, {}°, {}°  (Euler XYZ)\nS  {}",
        vec3(t.translation),
        quat(t.rotation),
        num(x.to_degrees(), 3),
        num(y.to_degrees(), 3),
        num(z.to_degrees(), 3),
        vec3(t.scale)
    )
}

/// A number with `decimals` places, without the "-0.000" that rounding small negatives gives.
fn num(v: f32, decimals: usize) -> String {
    let s = format!("{v:.decimals$}");
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_owned(),
        _ => s,
    }
}

fn vec3(v: Vec3) -> String {
    format!("{}, {}, {}", num(v.x, 5), num(v.y, 5), num(v.z, 5))
}

fn quat(q: Quat) -> String {
    format!("{}, {}, {}, {}", num(q.x, 5), num(q.y, 5), num(q.z, 5), num(q.w, 5))
}

fn copy_block(ui: &mut egui::Ui, title: &str, body: &str, cmds: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        ui.strong(title);
        if ui.small_button("📋 Copy").on_hover_text("Copy to the clipboard").clicked() {
            cmds.push(Command::CopyToClipboard(format!("{title}\n{body}")));
        }
    });
    ui.add(egui::Label::new(RichText::new(body).monospace().size(11.5)).wrap_mode(egui::TextWrapMode::Extend));
    ui.add_space(4.0);
}

/// Largest element of `|offset × to-root(bind) − I|`.
pub fn bind_error(doc: &Document, bone: usize) -> Option<f32> {
    let m = *doc.bind_palette.get(bone)?;
    Some((m - Mat4::IDENTITY).to_cols_array().iter().fold(0.0f32, |e, x| e.max(x.abs())))
}

pub fn bone(
    ui: &mut egui::Ui,
    doc: &Document,
    pose: &Pose,
    selected: Option<usize>,
    state: &UiState,
    cmds: &mut Vec<Command>,
) {
    let skeleton = &doc.asset.skeleton;
    let Some(b) = selected.filter(|&b| b < skeleton.len()) else {
        ui.weak("Select a bone in the outliner or click a joint in the viewport.");
        return;
    };
    let name = &skeleton.names[b];
    ui.horizontal(|ui| {
        ui.heading(name);
        ui.weak(format!("#{b}"));
    });
    egui::Grid::new("bone facts").num_columns(2).show(ui, |ui| {
        grid_key(ui, "parent");
        match skeleton.parents[b] {
            Some(p) if p < skeleton.len() => {
                if ui.link(&skeleton.names[p]).clicked() {
                    cmds.push(Command::SelectBone(Some(p)));
                }
            }
            _ => {
                ui.weak("none (root)");
            }
        }
        ui.end_row();
        grid_key(ui, "children");
        ui.horizontal(|ui| {
            // One line whatever the count: a bone with a hundred children (a root with every helper under it)
            // must not push the matrices out of reach or draw over the next rows. The rest are in a menu.
            let children = doc.children.get(b).map(Vec::as_slice).unwrap_or_default();
            if children.is_empty() {
                ui.weak("none");
            }
            let inline = if children.len() <= INLINE_CHILDREN { children.len() } else { INLINE_CHILDREN - 1 };
            for &c in &children[..inline] {
                if ui.link(&skeleton.names[c]).clicked() {
                    cmds.push(Command::SelectBone(Some(c)));
                }
            }
            if inline < children.len() {
                ui.menu_button(format!("+{} more", children.len() - inline), |ui| {
                    egui::ScrollArea::vertical().max_height(320.0).show(ui, |ui| {
                        for &c in children {
                            if ui.button(&skeleton.names[c]).clicked() {
                                cmds.push(Command::SelectBone(Some(c)));
                                ui.close();
                            }
                        }
                    });
                });
            }
        });
        ui.end_row();
        grid_key(ui, "skinned vertices");
        let inf = doc.influence.get(b).copied().unwrap_or_default();
        ui.label(format!("{} (total weight {:.3})", inf.vertices, inf.weight));
        ui.end_row();
        if let Some(err) = bind_error(doc, b) {
            ui.label("bind check").on_hover_text(
                "Largest element of |offset × to-root(bind) − I|: 0 when the offset matrix is the inverse of the \
                 bind pose, so skinning in the bind pose reproduces the file's vertices",
            );
            let text = format!("{err:.2e}");
            if err > 1e-3 {
                ui.colored_label(ui.visuals().error_fg_color, format!("✖ fail  {text}"));
            } else {
                ui.label(format!("✔ pass  {text}"));
            }
            ui.end_row();
        }
    });
    ui.horizontal_wrapped(|ui| {
        let mut weights_only = state.shading == ShadingMode::BoneWeight;
        if ui
            .checkbox(&mut weights_only, "Show its weights")
            .on_hover_text("Colour the mesh by this bone's weight (blue 0 → red 1)")
            .changed()
        {
            cmds.push(Command::SetShading(if weights_only { ShadingMode::BoneWeight } else { ShadingMode::Textured }));
        }
        let mut alone = state.skin_selected_only;
        if ui
            .checkbox(&mut alone, "Skin with it alone")
            .on_hover_text("Move every vertex by this bone's skinning matrix only: what this one matrix does")
            .changed()
        {
            cmds.push(Command::SetSkinSelectedOnly(alone));
        }
    });
    ui.separator();
    egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| {
        let mut all = String::new();
        if let Some(l) = pose.local.get(b) {
            let t = srt_text(l);
            copy_block(ui, "Local SRT (now)", &t, cmds);
            all += &format!("Local SRT (now)\n{t}\n\n");
        }
        if let Some(l) = skeleton.bind_local.get(b) {
            let t = srt_text(l);
            copy_block(ui, "Local SRT (bind)", &t, cmds);
            all += &format!("Local SRT (bind)\n{t}\n\n");
        }
        let to_parent = pose.local.get(b).map(Transform::to_matrix);
        for (title, m) in [
            ("To-parent (now)", to_parent.as_ref()),
            ("To-root (now)", pose.to_root.get(b)),
            ("To-root (bind)", doc.bind_to_root.get(b)),
            ("Offset (inverse bind)", skeleton.inverse_bind.get(b)),
            ("Skinning = to-root × offset", pose.palette.get(b)),
        ] {
            if let Some(m) = m {
                let t = matrix_text(m);
                copy_block(ui, title, &t, cmds);
                all += &format!("{title}\n{t}\n\n");
            }
        }
        ui.weak("Matrices are shown in rows with column vectors: translation in the last column.");
        if ui.button("📋 Copy all of this bone").clicked() {
            cmds.push(Command::CopyToClipboard(format!("{name} (#{b})\n\n{all}")));
        }
    });
}

/// Whether the meshes carry vertex colours, and when every one is the same value, which (a file of all-black or
/// all-white colours is an exporter's default, not paint).
fn vertex_colour_summary(asset: &crate::scene::Asset) -> String {
    let mut colours = asset.meshes.iter().flat_map(|m| m.colors.iter().copied());
    let Some(first) = colours.next() else { return "none".to_owned() };
    let total: usize = asset.meshes.iter().map(|m| m.colors.len()).sum();
    let black = asset.meshes.iter().flat_map(|m| &m.colors).filter(|c| c[..3] == [0, 0, 0]).count();
    if colours.all(|c| c == first) {
        let [r, g, b, a] = first;
        format!("{total}, all one value (RGBA {r}, {g}, {b}, {a})")
    } else if black > 0 {
        format!("{total} ({black} black)")
    } else {
        total.to_string()
    }
}

/// "0", or the total and each mesh that has targets: "26 (face 21, eyes 5)".
fn morph_target_counts(asset: &crate::scene::Asset) -> String {
    let total: usize = asset.meshes.iter().map(|m| m.morph_targets.len()).sum();
    let per_mesh: Vec<String> = asset
        .meshes
        .iter()
        .filter(|m| !m.morph_targets.is_empty())
        .map(|m| format!("{} {}", m.name, m.morph_targets.len()))
        .collect();
    if per_mesh.is_empty() { total.to_string() } else { format!("{total} ({})", per_mesh.join(", ")) }
}

/// Children listed as links on the bone's row; more go in a menu.
const INLINE_CHILDREN: usize = 3;

pub fn files(ui: &mut egui::Ui, doc: &Document, selected: Option<usize>, cmds: &mut Vec<Command>) {
    let asset = &doc.asset;
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        ui.heading("Files");
        if let Some(sample) = doc.sample {
            ui.horizontal(|ui| {
                ui.strong("model");
                ui.label(format!("the {} (made by code)", sample.title()));
            });
        }
        for (i, f) in doc.files.iter().enumerate() {
            ui.horizontal(|ui| {
                ui.strong(if i == 0 && doc.sample.is_none() { "model" } else { "bound" });
                // A file name is one long word: cut short with the path on hover rather than broken mid-name.
                ui.add(egui::Label::new(f.name()).truncate()).on_hover_text(f.path.display().to_string());
            });
            ui.weak(format!("{} · {} bytes", f.format.name(), f.size));
        }
        ui.separator();
        egui::Grid::new("asset facts").num_columns(2).show(ui, |ui| {
            grid_key(ui, "format");
            ui.label(asset.kind());
            ui.end_row();
            grid_key(ui, "axes");
            ui.label(asset.axes.description);
            ui.end_row();

            grid_key(ui, "bones");
            ui.label(asset.skeleton.len().to_string());
            ui.end_row();
            grid_key(ui, "meshes");
            ui.label(format!(
                "{} ({} vertices, {} triangles)",
                asset.meshes.len(),
                asset.vertex_count(),
                asset.triangle_count()
            ));
            ui.end_row();
            grid_key(ui, "vertex colours");
            ui.label(vertex_colour_summary(asset)).on_hover_text(
                "Shown only in the Vertex colours shading mode; the other modes do not multiply them in.",
            );
            ui.end_row();
            grid_key(ui, "morph targets");
            ui.label(morph_target_counts(asset));
            ui.end_row();
            grid_key(ui, "materials");
            ui.label(asset.materials.len().to_string());
            ui.end_row();
            grid_key(ui, "clips");
            ui.label(asset.clips.len().to_string());
            ui.end_row();
            grid_key(ui, "recordings");
            ui.label(asset.recordings.len().to_string());
            ui.end_row();
        });
        // How the files were read where their meaning depends on the tool that wrote them, and the up axis taken
        // where the format's convention would lay the character down, as `info` prints them.
        if !asset.readings.is_empty() {
            ui.separator();
            ui.strong("Read as");
            for reading in &asset.readings {
                ui.label(reading.to_string());
            }
        }
        // A model script's clips are its sequences, listed with how each plays in the script's section below.
        if !asset.clips.is_empty() && asset.model_script.is_none() {
            ui.separator();
            ui.strong("Clips");
            for c in &asset.clips {
                ui.label(format!(
                    "{}: {:.3} s, {} frames at {} fps, {} tracks, {} callback keys",
                    c.name,
                    c.duration,
                    c.frame_count,
                    c.frame_rate,
                    c.tracks.len(),
                    c.callback_keys.len()
                ));
            }
        }
        if !asset.materials.is_empty() {
            ui.separator();
            ui.strong("Materials");
            materials(ui, asset);
        }
        for (i, r) in doc.reports.iter().enumerate() {
            ui.separator();
            bind_report(ui, doc, i, r, selected, cmds);
        }
        ui.separator();
        ui.strong(format!("Warnings ({})", asset.warnings.len()));
        if asset.warnings.is_empty() {
            ui.weak("none");
        }
        for w in &asset.warnings {
            // An error-level warning is a part of the character that is missing (a file its script names).
            let colour = if w.is_error() { ui.visuals().error_fg_color } else { ui.visuals().warn_fg_color };
            ui.colored_label(colour, w.to_string());
        }
    });
}

/// Each material with the texture it found and where; the textures not found collapse into one line with their
/// count (open it for the names tried in which folders), so that a model with many missing textures does not
/// push the bind reports out of view.
fn materials(ui: &mut egui::Ui, asset: &crate::scene::Asset) {
    let mut missing = Vec::new();
    for m in &asset.materials {
        match &m.texture {
            None => {
                ui.label(&m.name);
            }
            Some(t) if t.pixels.is_some() => {
                let size = t.pixels.as_ref().map(|p| format!("{}×{}", p.width, p.height)).unwrap_or_default();
                let mut looks = Vec::new();
                match m.alpha {
                    crate::scene::AlphaMode::Mask { .. } => looks.push("masked"),
                    crate::scene::AlphaMode::Additive => looks.push("additive"),
                    crate::scene::AlphaMode::Opaque => {}
                }
                for (on, label) in [(m.chrome, "chrome"), (m.flat_shade, "flat shade"), (m.fullbright, "full bright")] {
                    if on {
                        looks.push(label);
                    }
                }
                let looks = if looks.is_empty() { String::new() } else { format!(" ({})", looks.join(", ")) };
                ui.label(format!("{} · {size}, in the model{looks}", m.name));
            }
            Some(t) => match &t.path {
                Some(p) => {
                    let from = t.found_in.map_or("", |f| f.label());
                    let mut hover = p.display().to_string();
                    if let Some(vmt) = &t.material_file {
                        hover += &format!("\nnamed by {}", vmt.display());
                    }
                    ui.label(format!("{} · texture {} {from}", m.name, display_name(p))).on_hover_text(hover);
                }
                None => missing.push((m, t)),
            },
        }
    }
    if missing.is_empty() {
        return;
    }
    let header = format!("{} texture(s) not found", missing.len());
    egui::CollapsingHeader::new(RichText::new(header).color(ui.visuals().warn_fg_color))
        .id_salt("textures not found")
        .show(ui, |ui| {
            for (m, t) in &missing {
                let folders = t.searched.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join("\n");
                ui.label(format!("{} · '{}'", m.name, t.name))
                    .on_hover_text(format!("tried {}\nin\n{folders}", t.tried.join(", ")));
                if !t.searched.is_empty() {
                    ui.weak(format!("  tried {} in {} folder(s)", t.tried.join(", "), t.searched.len()));
                }
            }
        });
    ui.weak("Add texture folders in Settings › Texture folders, or with --textures DIR.");
}

/// One bound file: its clips, how its tracks matched the bones (and by which name rule), the tracks that match
/// nothing, the bones nothing drives, where its skeleton differs from the model's, and its retargeting, which can
/// be changed here (for the whole file, and per bone for the selected bone).
fn bind_report(
    ui: &mut egui::Ui,
    doc: &Document,
    index: usize,
    r: &BindReport,
    selected: Option<usize>,
    cmds: &mut Vec<Command>,
) {
    let src = r.source.as_deref().map(display_name).unwrap_or_default();
    let warn = ui.visuals().warn_fg_color;
    if let Some(why) = &r.not_joined {
        file_heading(ui, "Not joined", &src, r.source.as_deref());
        ui.colored_label(warn, why);
        return;
    }
    if let Some(part) = &r.part {
        file_heading(ui, "Part", &src, r.source.as_deref());
        match &part.attached_to {
            Some(bone) => {
                ui.label(format!("{} mesh(es) hung on the bone '{bone}', as the engine attaches a head", part.meshes))
            }
            None => ui.label(format!(
                "{} mesh(es) on the model's skeleton, {} bone(s) matched by name",
                part.meshes, part.bones_matched
            )),
        };
        if !part.bones_added.is_empty() {
            ui.label(format!("{} bone(s) added: {}", part.bones_added.len(), part.bones_added.join(", ")));
        }
        for d in &part.bind_differences {
            ui.colored_label(
                warn,
                format!("bind pose differs at {}: {:.3} apart, turned {:.1}°", d.bone, d.distance, d.degrees),
            );
        }
        if r.clips.is_empty() {
            return;
        }
    } else {
        file_heading(ui, "Bound", &src, r.source.as_deref());
    }
    ui.label(format!("clips: {}", r.clips.join(", ")));
    let tracks = r.matched.len() + r.unmatched_tracks.len();
    if tracks > 0 {
        ui.label(format!("{} of {tracks} tracks drive a bone", r.matched.len()));
    }
    let folded: Vec<&TrackMatch> = r.folded().collect();
    if !folded.is_empty() {
        ui.colored_label(warn, format!("{} matched only with a looser name rule", folded.len()));
    }
    egui::CollapsingHeader::new(format!("Track → bone ({})", r.matched.len())).id_salt(("matched", index)).show(
        ui,
        |ui| {
            for m in &r.matched {
                let line = if m.rule == NameRule::Exact {
                    format!("{} → {}", m.track, m.bone)
                } else {
                    format!("{} → {}  ({})", m.track, m.bone, m.rule.label())
                };
                ui.label(line);
            }
        },
    );
    warn_list(ui, "track(s) for bones not in the skeleton", &r.unmatched_tracks);
    warn_list(
        ui,
        "name(s) the skeleton repeats, bound in order (the animation's bone list is not the model's)",
        &r.ambiguous_names,
    );
    if !r.unanimated_bones.is_empty() {
        egui::CollapsingHeader::new(format!("{} bone(s) no track drives (bind pose)", r.unanimated_bones.len()))
            .id_salt(("unanimated", index))
            .show(ui, |ui| {
                ui.label(r.unanimated_bones.join(", "));
            });
    }
    if !r.skeleton_differences.is_empty() {
        egui::CollapsingHeader::new(
            RichText::new(format!(
                "Skeleton differs at {} bone(s): made for other proportions?",
                r.skeleton_differences.len()
            ))
            .color(warn),
        )
        .id_salt(("differences", index))
        .show(ui, |ui| {
            ui.weak("Bind translation vs the animation's first frame, over 10 % of the bone's length");
            for d in &r.skeleton_differences {
                ui.label(format!(
                    "{}: {:.4} in the model, {:.4} in the animation ({:.0} %)",
                    d.bone,
                    d.model_length,
                    d.animation_length,
                    d.difference * 100.0
                ));
            }
        });
    }
    if !r.placeholder_tracks.is_empty() {
        let played = r.retarget.apply_placeholder_tracks;
        egui::CollapsingHeader::new(
            RichText::new(format!(
                "{} placeholder track(s): {}",
                r.placeholder_tracks.len(),
                if played { "played" } else { "left at the bind pose" }
            ))
            .color(warn),
        )
        .id_salt(("placeholders", index))
        .show(ui, |ui| {
            ui.weak(
                "Identity keys (no rotation, zero translation), constant over the clip, for bones whose bind pose is \
                 elsewhere: an exporter's keys for bones the animation never moved. Played, those bones fall onto \
                 their parents.",
            );
            ui.label(r.placeholder_tracks.join(", "));
        });
        let mut apply = played;
        if ui
            .checkbox(&mut apply, "Apply placeholder tracks")
            .on_hover_text("Play them as the file says (--apply-placeholder-tracks)")
            .changed()
        {
            cmds.push(Command::SetRetarget {
                binding: index,
                retarget: Retarget { apply_placeholder_tracks: apply, ..r.retarget.clone() },
            });
        }
    }
    if r.clips.is_empty() || r.matched.is_empty() {
        return;
    }
    let retarget = &r.retarget;
    egui::Grid::new(("retarget", index)).num_columns(2).show(ui, |ui| {
        ui.label("translations");
        egui::ComboBox::from_id_salt(("translation", index)).selected_text(retarget.translation.label()).show_ui(
            ui,
            |ui| {
                for mode in TranslationMode::ALL {
                    if ui.selectable_label(retarget.translation == mode, mode.label()).clicked() {
                        let mut next = retarget.clone();
                        next.translation = mode;
                        next.overrides.retain(|(_, m)| *m != mode);
                        cmds.push(Command::SetRetarget { binding: index, retarget: next });
                    }
                }
            },
        );
        ui.end_row();
        ui.label("root motion");
        egui::ComboBox::from_id_salt(("root", index)).selected_text(retarget.root.label()).show_ui(ui, |ui| {
            for root in RootMotion::ALL {
                if ui.selectable_label(retarget.root == root, root.label()).clicked() {
                    cmds.push(Command::SetRetarget { binding: index, retarget: Retarget { root, ..retarget.clone() } });
                }
            }
        });
        ui.end_row();
        if let Some(name) = selected.and_then(|b| doc.asset.skeleton.names.get(b)) {
            ui.label(format!("'{name}'"));
            let mode = retarget.mode_of(name);
            egui::ComboBox::from_id_salt(("bone mode", index)).selected_text(mode.label()).show_ui(ui, |ui| {
                for m in TranslationMode::ALL {
                    if ui.selectable_label(mode == m, m.label()).clicked() {
                        let mut next = retarget.clone();
                        next.set_override(name, m);
                        cmds.push(Command::SetRetarget { binding: index, retarget: next });
                    }
                }
            });
            ui.end_row();
        }
    });
    if selected.is_none() {
        ui.weak("Select a bone to give it its own translation mode.");
    }
    for (bone, mode) in &retarget.overrides {
        ui.horizontal(|ui| {
            ui.label(format!("{bone}: {}", mode.label()));
            if ui.small_button("×").on_hover_text("Use the binding's mode for this bone").clicked() {
                let mut next = retarget.clone();
                next.overrides.retain(|(b, _)| b != bone);
                cmds.push(Command::SetRetarget { binding: index, retarget: next });
            }
        });
    }
}

/// A bound file's heading: `what` in bold and the file name on one line, the name cut short (never broken
/// inside a word) with the whole path on hover.
fn file_heading(ui: &mut egui::Ui, what: &str, name: &str, path: Option<&std::path::Path>) {
    ui.horizontal(|ui| {
        ui.strong(what);
        let label = ui.add(egui::Label::new(RichText::new(name).strong()).truncate());
        if let Some(path) = path {
            label.on_hover_text(path.display().to_string());
        }
    });
}

/// `N what: a, b, c` in the warning colour; nothing for an empty list.
fn warn_list(ui: &mut egui::Ui, what: &str, items: &[String]) {
    if !items.is_empty() {
        ui.colored_label(ui.visuals().warn_fg_color, format!("{} {what}: {}", items.len(), items.join(", ")));
    }
}

/// A key in a two-column facts grid: never wrapped (the panel's text wraps, and a key broken mid-word reads
/// badly), so the values take the rest of the width and wrap instead.
fn grid_key(ui: &mut egui::Ui, key: &str) {
    ui.add(egui::Label::new(key).wrap_mode(egui::TextWrapMode::Extend));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrices_print_in_rows_with_translation_last() {
        let m = Mat4::from_translation(Vec3::new(1.0, 2.0, 3.0));
        let text = matrix_text(&m);
        let rows: Vec<Vec<f32>> =
            text.lines().map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect()).collect();
        assert_eq!(rows[0], vec![1.0, 0.0, 0.0, 1.0]);
        assert_eq!(rows[2], vec![0.0, 0.0, 1.0, 3.0]);
        assert_eq!(rows[3], vec![0.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn srt_shows_euler_degrees() {
        let t = Transform::from_translation_rotation(Vec3::X, Quat::from_rotation_z(std::f32::consts::FRAC_PI_2));
        let s = srt_text(&t);
        assert!(s.contains("90.000°"), "{s}");
        assert!(s.starts_with("T  1.00000, 0.00000, 0.00000"), "{s}");
        assert!(!matrix_text(&Mat4::from_rotation_z(1e-9)).contains("-0.00000"));
    }
}
