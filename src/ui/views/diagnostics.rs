//! The Diagnostics tab: the findings of [`Diagnostics`] listed most severe first, one per defect (as
//! `bonescope check` counts them), each with how many clips or places it stands for, with a severity filter and
//! a text search. Clicking a finding shows what it is about (`Command::ShowFinding`): the bone is selected, the
//! clip is put on the focus track at its worst moment, the vertex, triangle or edge is marked in the viewport
//! and the camera turns to it.

use eframe::egui;

use crate::anim::diagnostics::Severity;

use crate::ui::commands::command::Command;
use crate::ui::state::diagnostics::{Diagnostics, severity_slot};
use crate::ui::state::document::Document;

/// The list's filters, kept between frames.
pub struct DiagnosticsFilter {
    /// Errors, warnings, notes shown.
    show: [bool; 3],
    search: String,
}

impl Default for DiagnosticsFilter {
    fn default() -> Self {
        Self { show: [true, true, true], search: String::new() }
    }
}

/// The tab's label with the number of errors and warnings, so problems are visible without opening it.
pub fn tab_label(view: &Diagnostics) -> String {
    let [e, w, _] = view.counts();
    match (e, w) {
        _ if view.running() => "Diagnostics …".to_owned(),
        (0, 0) => "Diagnostics".to_owned(),
        (0, w) => format!("Diagnostics ({w})"),
        (e, _) => format!("Diagnostics ({e}!)"),
    }
}

fn severity_color(ui: &egui::Ui, s: Severity) -> egui::Color32 {
    match s {
        Severity::Error => ui.visuals().error_fg_color,
        Severity::Warning => ui.visuals().warn_fg_color,
        Severity::Info => ui.visuals().weak_text_color(),
    }
}

/// Draws the tab; "Re-check" pushes [`Command::RunDiagnostics`], a click on a finding [`Command::ShowFinding`].
pub fn show(
    ui: &mut egui::Ui,
    view: &Diagnostics,
    filter: &mut DiagnosticsFilter,
    doc: &Document,
    cmds: &mut Vec<Command>,
) {
    let counts = view.counts();
    ui.horizontal(|ui| {
        for (slot, (severity, label)) in
            [(Severity::Error, "errors"), (Severity::Warning, "warnings"), (Severity::Info, "notes")]
                .into_iter()
                .enumerate()
        {
            // The severity colour goes on a mark beside the toggle, never on its text: red text on the
            // selection's blue is unreadable. And only when there is something: a red "0 errors" reads as an alarm.
            let mut text = egui::RichText::new(format!("{} {label}", counts[slot]));
            if counts[slot] > 0 && severity != Severity::Info {
                ui.colored_label(severity_color(ui, severity), "●");
                text = text.strong();
            }
            ui.toggle_value(&mut filter.show[slot], text).on_hover_text(format!("Show {label}"));
        }
        if view.running() {
            ui.spinner();
        } else if ui.button("Re-check").on_hover_text("Run every check again, with the pose on screen").clicked() {
            cmds.push(Command::RunDiagnostics);
        }
    });
    ui.add(egui::TextEdit::singleline(&mut filter.search).hint_text("filter findings").desired_width(f32::INFINITY));
    if view.generation != doc.generation {
        ui.weak(if view.running() { "Checking…" } else { "Not checked yet." });
        return;
    }
    let occurrences: usize = view.findings.iter().map(|f| f.occurrences).sum();
    ui.weak(format!(
        "{} findings, one per defect ({occurrences} occurrences), in {:.0} ms: bind pose, weights, bone usage, \
         track binding, scale, triangles, textures, and what every clip does to the surface.",
        view.findings.len(),
        view.took.as_secs_f64() * 1e3
    ));
    ui.separator();
    if view.findings.is_empty() {
        ui.label("No problems found.");
        return;
    }
    let needle = filter.search.to_lowercase();
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        for (i, f) in view.findings.iter().enumerate() {
            if !filter.show[severity_slot(f.severity)] {
                continue;
            }
            if !needle.is_empty() && !f.message.to_lowercase().contains(&needle) && !f.kind.name().contains(&needle) {
                continue;
            }
            let color = severity_color(ui, f.severity);
            let selected = view.clicked == Some(i);
            let frame = egui::Frame::new().inner_margin(egui::Margin::symmetric(4, 2)).fill(if selected {
                ui.visuals().selection.bg_fill.gamma_multiply(0.5)
            } else {
                egui::Color32::TRANSPARENT
            });
            let response = frame
                .show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    ui.horizontal(|ui| {
                        ui.colored_label(color, egui::RichText::new(f.severity.name()).strong().small());
                        ui.weak(egui::RichText::new(f.kind.name()).small());
                        if let Some(at) = f.at {
                            ui.weak(egui::RichText::new(format!("@ {:.3} s", at.time)).small());
                        }
                        if f.clips.len() > 1 {
                            ui.weak(egui::RichText::new(format!("in {} clips", f.clips.len())).small());
                        } else if f.occurrences > 1 {
                            ui.weak(egui::RichText::new(format!("×{}", f.occurrences)).small());
                        }
                    });
                    ui.add(egui::Label::new(&f.message).wrap_mode(egui::TextWrapMode::Wrap));
                })
                .response
                .interact(egui::Sense::click())
                .on_hover_cursor(egui::CursorIcon::PointingHand)
                .on_hover_text("Click to show it in the viewport");
            if response.clicked() {
                cmds.push(Command::ShowFinding(i));
            }
        }
    });
}
