//! The model picker: what is shown when an archive is opened (a `.vdf` volume, or a game's `Data` folder with
//! its volumes mounted together) — the models inside it, with a filter, one click opening one. The list is made
//! once, when the archive is opened ([`ModelPicker::new`], from [`crate::source::models_in`]); the window reads
//! it and pushes commands.

use std::path::{Path, PathBuf};

use eframe::egui;

use crate::files::Files;
use crate::ui::commands::command::{Command, OpenMode};

/// An archive's models, and the picker's filter.
pub struct ModelPicker {
    /// Where the models were listed (a volume, or `Data/*.vdf`).
    pub root: PathBuf,
    pub title: String,
    /// What the archive is, for the line under the title.
    pub about: String,
    pub models: Vec<PathBuf>,
    pub filter: String,
}

impl ModelPicker {
    /// The picker of the archive at `root` ([`crate::source::archive_root`]).
    pub fn new(files: &Files, root: PathBuf) -> Self {
        let models = crate::source::models_in(files, &root);
        let all = root.file_name().is_some_and(|n| n == crate::files::mount::ALL_VOLUMES);
        let shown =
            |p: &Path| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned());
        let (title, about) = if all {
            let folder = root.parent().unwrap_or(&root);
            let volumes = files
                .list(folder)
                .map(|e| e.iter().filter(|e| crate::files::mount::is_volume_name(&e.name)).count())
                .unwrap_or(0);
            (
                format!("Models in {}", shown(folder)),
                format!("{volumes} volumes mounted together (a file in several is taken from the newest volume)"),
            )
        } else {
            (format!("Models in {}", shown(&root)), volume_about(&root))
        };
        Self { root, title, about, models, filter: String::new() }
    }
}

/// The header of the volume file at `path` (read from the disk as a file, not as the folder it is shown as).
fn volume_about(path: &Path) -> String {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let disk = Files::new(crate::files::DiskFiles);
        let header = disk.read_prefix(path, crate::files::vdf::HEADER_LEN as u64).ok();
        if let Some(h) = header.and_then(|b| crate::files::vdf::Header::parse(&b).ok()) {
            let zipped = if h.zipped { ", compressed" } else { "" };
            return format!("{} volume of {}{zipped}", h.signature.describe(), h.time_text());
        }
    }
    let _ = path;
    "a VDFS volume".to_owned()
}

/// Draws the picker; `open` is cleared when it is closed.
pub fn show(ctx: &egui::Context, picker: &mut ModelPicker, cmds: &mut Vec<Command>) {
    let mut open = true;
    let mut chosen: Option<PathBuf> = None;
    egui::Window::new(picker.title.as_str())
        .open(&mut open)
        .collapsible(false)
        .resizable(true)
        .default_size([520.0, 480.0])
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.weak(&picker.about);
            if picker.models.is_empty() {
                ui.label("It holds no model bonescope reads (model scripts MDS, MSB, MMS, QC).");
                return;
            }
            ui.horizontal(|ui| {
                ui.label("Filter");
                ui.add(egui::TextEdit::singleline(&mut picker.filter).hint_text("part of a name").desired_width(240.0));
                ui.weak(format!("{} models", picker.models.len()));
            });
            ui.separator();
            let filter = picker.filter.to_lowercase();
            egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                egui::Grid::new("models").striped(true).num_columns(2).show(ui, |ui| {
                    for model in &picker.models {
                        let name = model.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                        if !filter.is_empty() && !name.to_lowercase().contains(&filter) {
                            continue;
                        }
                        let folder = model
                            .parent()
                            .and_then(|p| p.strip_prefix(&picker.root).ok())
                            .map(|p| p.display().to_string())
                            .unwrap_or_default();
                        if ui.button(&name).on_hover_text(model.display().to_string()).clicked() {
                            chosen = Some(model.clone());
                        }
                        ui.weak(folder);
                        ui.end_row();
                    }
                });
            });
        });
    if let Some(model) = chosen {
        cmds.push(Command::Open { paths: vec![model], mode: OpenMode::Replace });
        cmds.push(Command::CloseModelPicker);
    } else if !open {
        cmds.push(Command::CloseModelPicker);
    }
}
