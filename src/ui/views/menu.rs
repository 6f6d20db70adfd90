//! The menu bar: File (open, recent, samples, export, reload), View (panels, shading, overlays, views, theme),
//! Help, then the open document's title and the loading spinner. It only reads state and pushes commands.

use eframe::egui;

use crate::render::camera::ViewPreset;
use crate::scene::samples::Sample;

use crate::render::ShadingMode;
use crate::ui::commands::command::{Command, OpenMode};
use crate::ui::state::document::{Document, display_name};
use crate::ui::state::settings::{Overlay, PanelId, UiState};

/// What the menu bar shows.
pub struct MenuInput<'a> {
    pub doc: &'a Document,
    pub state: &'a UiState,
    /// The model's axis conversion as its format gives it (View › Up axis).
    pub file_axes: &'a crate::scene::AxisConversion,
    /// The GPU renderer is there, and the egui painter is drawing instead of it.
    pub gpu_renderer: bool,
    pub force_painter: bool,
    /// Texture folders of the command line (`--textures`).
    pub cli_textures: &'a [std::path::PathBuf],
    /// An export, or the texture-folder picker, is running.
    pub exporting: bool,
    pub picking_folder: bool,
    /// What the load in flight says, if one is.
    pub loading: Option<&'a str>,
}

/// Draws the menu bar.
pub fn show(ui: &mut egui::Ui, input: &MenuInput, cmds: &mut Vec<Command>) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            if ui
                .button("Open…  (Ctrl+O)")
                .on_hover_text("A model opens as a new scene; animation files bind to the open model")
                .clicked()
            {
                cmds.push(Command::OpenDialog(OpenMode::Auto));
            }
            if ui.button("Open as new model…").on_hover_text("Every file opens as a new scene, model first").clicked()
            {
                cmds.push(Command::OpenDialog(OpenMode::Replace));
            }
            let can_bind = !input.doc.is_empty();
            if ui
                .add_enabled(can_bind, egui::Button::new("Add animation…"))
                .on_hover_text("Bind animation files (PSA, SMD, VTA, ASE, recordings) to the open model")
                .clicked()
            {
                cmds.push(Command::OpenDialog(OpenMode::Bind));
            }
            if ui
                .button("Open a folder…")
                .on_hover_text("Its model script, or its meshes with their animations (a QC tree, an MDS tree)")
                .clicked()
            {
                cmds.push(Command::OpenFolderDialog);
            }
            if ui
                .button("Open a .vdf archive…")
                .on_hover_text("A Gothic VDFS volume (or several of a game's Data folder): choose a model in it")
                .clicked()
            {
                cmds.push(Command::OpenArchiveDialog);
            }
            ui.menu_button("Open recent", |ui| {
                if input.state.recent.is_empty() {
                    ui.weak("nothing yet");
                }
                for set in &input.state.recent {
                    let label = match set.split_first() {
                        Some((m, [])) => display_name(m),
                        Some((m, rest)) => format!("{} + {}", display_name(m), rest.len()),
                        None => continue,
                    };
                    let hover = set.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join("\n");
                    if ui.button(label).on_hover_text(hover).clicked() {
                        cmds.push(Command::Open { paths: set.clone(), mode: OpenMode::Replace });
                    }
                }
                ui.separator();
                if ui.button("Clear the list").clicked() {
                    cmds.push(Command::ClearRecent);
                }
            });
            if ui.button("Open the built-in demo").clicked() {
                cmds.push(Command::OpenSample(Sample::Demo));
            }
            if ui.button("Open the demo recording").on_hover_text("Two hands pinching, head and gaze").clicked() {
                cmds.push(Command::OpenSample(Sample::DemoRecording));
            }
            let can_export = !input.doc.is_empty() && !input.exporting;
            if ui
                .add_enabled(can_export, egui::Button::new("Export glTF (.glb)…  (Ctrl+E)"))
                .on_hover_text("Meshes, skin, every bound clip and recordings, for Blender, three.js and engines")
                .clicked()
            {
                cmds.push(Command::ExportDialog);
            }
            ui.separator();
            let can_reload = !input.doc.files.is_empty();
            if ui.add_enabled(can_reload, egui::Button::new("Reload  (Ctrl+R)")).clicked() {
                cmds.push(Command::Reload);
            }
            let mut auto = input.state.auto_reload;
            // A web page is not told when files change.
            if !cfg!(target_arch = "wasm32") && ui.checkbox(&mut auto, "Reload when files change on disk").changed() {
                cmds.push(Command::SetAutoReload(auto));
            }
            ui.separator();
            if ui.button("Quit  (Ctrl+Q)").clicked() {
                cmds.push(Command::Quit);
            }
        });
        ui.menu_button("View", |ui| {
            for (p, label) in [
                (PanelId::Outliner, "Outliner"),
                (PanelId::Inspector, "Inspector"),
                (PanelId::Timeline, "Timeline and mixer"),
            ] {
                let mut on = input.state.panel_shown(p);
                if ui.checkbox(&mut on, label).changed() {
                    cmds.push(Command::SetPanel(p, on));
                }
            }
            ui.separator();
            ui.label("ShadingMode");
            for s in ShadingMode::ALL {
                if ui.radio(input.state.shading == s, s.label()).clicked() {
                    cmds.push(Command::SetShading(s));
                }
            }
            ui.separator();
            ui.label("Overlays");
            for o in Overlay::ALL {
                let mut on = input.state.overlays.get(o);
                if ui.checkbox(&mut on, o.label()).changed() {
                    cmds.push(Command::SetOverlay(o, on));
                }
            }
            ui.separator();
            for (p, k) in [
                (ViewPreset::Front, "1"),
                (ViewPreset::Right, "3"),
                (ViewPreset::Top, "7"),
                (ViewPreset::Back, "Ctrl+1"),
                (ViewPreset::Left, "Ctrl+3"),
                (ViewPreset::Bottom, "Ctrl+7"),
            ] {
                if ui.button(format!("{} view  ({k})", p.label())).on_hover_text(p.shows()).clicked() {
                    cmds.push(Command::View(p));
                }
            }
            if ui
                .button("Make this view the front")
                .on_hover_text(
                    "The presets turn so that Front is the current view, remembered for this file (where the \
                     side names of the bones did not say which way the character faces, or said it wrongly)",
                )
                .clicked()
            {
                cmds.push(Command::SetFrontHere);
            }
            ui.menu_button("Up axis", |ui| {
                let model = input.doc.paths().first().cloned();
                let current = model.as_ref().and_then(|m| input.state.up_overrides.get(m).copied());
                let convention = input.file_axes.description;
                let automatic = "As opened: the format's convention, unless the character's bones say it lies down";
                if ui.radio(current.is_none(), automatic).on_hover_text(convention).clicked() {
                    cmds.push(Command::SetUpAxis(None));
                }
                for up in crate::scene::UpAxis::ALL {
                    let label = format!("The file's {} is up", up.label());
                    if ui.add_enabled(model.is_some(), egui::RadioButton::new(current == Some(up), label)).clicked() {
                        cmds.push(Command::SetUpAxis(Some(up)));
                    }
                }
            })
            .response
            .on_hover_text(
                "For a file that opens lying down or on its side (an exporter's convention, a rotated root): \
                 which axis of the file points up, remembered for this file",
            );
            if ui.button("Frame all  (F)").clicked() {
                cmds.push(Command::FrameAll);
            }
            let mut follow = input.state.follow_root;
            if ui
                .checkbox(&mut follow, "Follow the root")
                .on_hover_text("The camera moves with the character's root, so a running character stays on screen")
                .changed()
            {
                cmds.push(Command::SetFollowRoot(follow));
            }
            ui.separator();
            let mut cull = input.state.cull_back_faces;
            if ui
                .checkbox(&mut cull, "Hide back faces")
                .on_hover_text("Off shows both sides of every triangle, for files wound the wrong way")
                .changed()
            {
                cmds.push(Command::SetCullBackFaces(cull));
            }
            let mut painter = input.force_painter || !input.gpu_renderer;
            let r = ui.add_enabled(input.gpu_renderer, egui::Checkbox::new(&mut painter, "Draw with the egui painter"));
            if r.on_hover_text("The CPU fallback (no textures, no depth buffer): for comparing with the GPU renderer")
                .changed()
            {
                cmds.push(Command::SetPainterFallback(painter));
            }
            ui.separator();
            ui.label("Theme");
            egui::global_theme_preference_buttons(ui);
        });
        ui.menu_button("Settings", |ui| {
            ui.menu_button("Texture folders", |ui| {
                ui.weak("Searched after the model's own folder, in this order");
                for dir in input.cli_textures {
                    ui.label(format!("{}  (--textures)", dir.display()));
                }
                for (i, dir) in input.state.texture_dirs.iter().enumerate() {
                    ui.horizontal(|ui| {
                        ui.label(dir.display().to_string());
                        if ui.small_button("Remove").clicked() {
                            cmds.push(Command::RemoveTextureFolder(i));
                        }
                    });
                }
                if input.cli_textures.is_empty() && input.state.texture_dirs.is_empty() {
                    ui.weak("none yet");
                }
                ui.separator();
                if ui.add_enabled(!input.picking_folder, egui::Button::new("Add folder…")).clicked() {
                    cmds.push(Command::AddTextureFolderDialog);
                }
            });
        });
        ui.menu_button("Help", |ui| {
            if ui.button("Keyboard and mouse  (F1)").clicked() {
                cmds.push(Command::ShowHelp(true));
            }
        });
        ui.separator();
        ui.label(egui::RichText::new(input.doc.title()).strong());
        if let Some(text) = input.loading {
            ui.separator();
            ui.spinner();
            ui.label(text);
        }
    });
}
