//! What floats over the panels: the Help window (from [`KEYMAP`]), the load-error window, the loading
//! progress, the notice line, the drop hint while files are dragged over the window, and the empty viewport's
//! hint.

use std::time::Duration;

use eframe::egui;

use crate::io::LoadError;
use crate::ui::commands::command::Command;
use crate::ui::state::document::Document;
use crate::ui::views::keymap::KEYMAP;

/// What the loading progress shows of a load in flight.
pub struct Loading {
    /// The stage, or the files being loaded.
    pub text: String,
    pub fraction: Option<f32>,
    pub elapsed: Duration,
}

/// What the floating windows show.
pub struct WindowsInput<'a> {
    pub show_help: bool,
    /// The last load's errors, one per file that failed.
    pub errors: &'a [LoadError],
    pub notice: Option<&'a str>,
    pub doc: &'a Document,
    pub loading: Option<&'a Loading>,
}

/// Draws what floats over the panels.
pub fn show(ctx: &egui::Context, input: &WindowsInput, viewport_rect: egui::Rect, cmds: &mut Vec<Command>) {
    if input.show_help {
        let mut open = true;
        egui::Window::new("Keyboard and mouse")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.set_max_width(640.0);
                egui::Grid::new("shortcuts").striped(true).num_columns(2).show(ui, |ui| {
                    for binding in KEYMAP {
                        ui.strong(binding.keys);
                        ui.add(egui::Label::new(binding.does).wrap_mode(egui::TextWrapMode::Wrap));
                        ui.end_row();
                    }
                });
            });
        if !open {
            cmds.push(Command::ShowHelp(false));
        }
    }
    if !input.errors.is_empty() {
        let errors = input.errors;
        let title = match errors.len() {
            1 => "Could not open the file".to_owned(),
            n => format!("Could not open {n} files"),
        };
        egui::Window::new(title)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_TOP, [0.0, 80.0])
            .show(ctx, |ui| {
                for (i, e) in errors.iter().enumerate() {
                    if i > 0 {
                        ui.separator();
                    }
                    egui::Grid::new(("load error", i)).num_columns(2).show(ui, |ui| {
                        ui.strong("file");
                        ui.label(e.file.as_deref().map_or_else(|| "(none)".into(), |p| p.display().to_string()));
                        ui.end_row();
                        ui.strong("position");
                        ui.label(e.position.to_string());
                        ui.end_row();
                        ui.strong("reason");
                        ui.label(egui::RichText::new(&e.message).color(ui.visuals().error_fg_color));
                        ui.end_row();
                    });
                }
                ui.weak(if input.doc.is_empty() {
                    "Open another file, or File › Open the built-in demo."
                } else {
                    "Every other file is open."
                });
                ui.horizontal(|ui| {
                    if ui.button("OK").clicked() {
                        cmds.push(Command::DismissError);
                    }
                    if ui.button("Copy").clicked() {
                        let text = errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n");
                        cmds.push(Command::CopyToClipboard(text));
                    }
                });
            });
    }
    if let Some(job) = input.loading
        && job.elapsed > Duration::from_millis(150)
    {
        egui::Area::new(egui::Id::unique("loading")).fixed_pos(viewport_rect.center() - egui::vec2(160.0, 30.0)).show(
            ctx,
            |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.set_width(320.0);
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label(&job.text);
                    });
                    if let Some(f) = job.fraction {
                        ui.add(egui::ProgressBar::new(f).show_percentage());
                    }
                });
            },
        );
    }
    if let Some(n) = input.notice {
        egui::Area::new(egui::Id::unique("notice")).anchor(egui::Align2::CENTER_BOTTOM, [0.0, -60.0]).show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(560.0);
                ui.horizontal(|ui| {
                    ui.label(n);
                    if ui.small_button("✖").clicked() {
                        cmds.push(Command::DismissError);
                    }
                });
            });
        });
    }
    if ctx.input(|i| !i.raw.hovered_files.is_empty()) {
        let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::unique("drop")));
        painter.rect_filled(viewport_rect, 0.0, egui::Color32::from_black_alpha(150));
        let text = if input.doc.has_model_file() {
            "Drop: a model opens; animation files (PSA, animation SMD, recordings) bind to the open model"
        } else {
            "Drop to open (the first file is the model, the rest bind to it)"
        };
        painter.text(
            viewport_rect.center(),
            egui::Align2::CENTER_CENTER,
            text,
            egui::FontId::proportional(18.0),
            egui::Color32::WHITE,
        );
    }
}

/// The empty viewport's hint (nothing open, nothing loading).
pub fn empty_hint(ui: &egui::Ui, rect: egui::Rect, loading: bool, doc: &Document) {
    if !loading && doc.is_empty() {
        ui.painter().text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            "Open a file (Ctrl+O) or drop files here",
            egui::FontId::proportional(18.0),
            ui.visuals().weak_text_color(),
        );
    }
}
