//! The Diagnostics tab: the same checks as `bonescope info --check` ([`crate::anim::diagnostics`]), run on a
//! worker thread whenever a new scene is open (sampling every clip for edge stretch takes seconds on large
//! meshes, and the UI must not stall), listed most severe first with a severity filter and a text search.
//! Clicking a finding shows what it is about: the bone is selected, the clip is put on the focus track at the
//! moment in question, or the vertex, triangle or edge is marked in the viewport ([`Highlight`]).

use std::time::Duration;

use eframe::egui;
use glam::Mat4;

use crate::anim::diagnostics::{DiagnoseOptions, Finding, Severity, Subject, diagnose};
use crate::scene::Asset;

use super::command::Command;
use super::document::Document;
use super::jobs::Job;

/// Vertices of one mesh marked in the viewport (a finding's vertex, triangle or edge).
#[derive(Clone, Debug, PartialEq)]
pub struct Highlight {
    pub mesh: usize,
    /// Indices into the mesh's vertices; drawn as a closed outline when there are two or more.
    pub vertices: Vec<u32>,
    /// Shown next to the mark.
    pub label: String,
}

impl Highlight {
    /// What a finding marks in the viewport, if anything: the stretched edge, the triangle, or the vertex.
    pub fn of(finding: &Finding, asset: &Asset) -> Option<Self> {
        let (mesh, vertices) = match (finding.subject, finding.edge) {
            (Subject::Triangle { mesh, .. } | Subject::Vertex { mesh, .. } | Subject::Mesh(mesh), Some(edge)) => {
                (mesh, edge.to_vec())
            }
            (Subject::Triangle { mesh, index }, None) => {
                let m = asset.meshes.get(mesh)?;
                (mesh, m.indices.get(3 * index..3 * index + 3)?.to_vec())
            }
            (Subject::Vertex { mesh, index }, None) => (mesh, vec![u32::try_from(index).ok()?]),
            _ => return None,
        };
        let count = asset.meshes.get(mesh)?.positions.len();
        if vertices.iter().any(|&v| v as usize >= count) {
            return None;
        }
        Some(Self { mesh, vertices, label: finding.kind.name().replace('_', " ") })
    }
}

/// A check running on the worker thread, for the document of `generation`.
struct Run {
    generation: u64,
    job: Job<Vec<Finding>>,
}

/// The tab's state: the findings of the open document and the list's filters.
pub struct DiagnosticsView {
    /// Document generation the findings belong to (0: none yet).
    pub generation: u64,
    pub findings: Vec<Finding>,
    /// How long the last check took.
    pub took: Duration,
    run: Option<Run>,
    /// Errors, warnings, notes shown.
    show: [bool; 3],
    search: String,
    /// The finding last clicked (index into `findings`).
    pub clicked: Option<usize>,
}

impl Default for DiagnosticsView {
    fn default() -> Self {
        Self {
            generation: 0,
            findings: Vec::new(),
            took: Duration::ZERO,
            run: None,
            show: [true, true, true],
            search: String::new(),
            clicked: None,
        }
    }
}

fn severity_slot(s: Severity) -> usize {
    match s {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
    }
}

impl DiagnosticsView {
    pub fn running(&self) -> bool {
        self.run.is_some()
    }

    /// Starts checking `doc` (with the pose on screen, for stretch in the current pose) unless its findings are
    /// already here or on their way. `force` re-checks anyway (the pose changed, the user asked).
    pub fn ensure(&mut self, doc: &Document, palette: &[Mat4], force: bool, wake: impl FnOnce() + Send + 'static) {
        let pending = self.run.as_ref().map(|r| r.generation);
        if !force && (self.generation == doc.generation || pending == Some(doc.generation)) {
            return;
        }
        if doc.is_empty() {
            self.generation = doc.generation;
            self.findings.clear();
            return;
        }
        let asset = std::sync::Arc::clone(&doc.asset);
        let opts = DiagnoseOptions {
            current_palette: (!palette.is_empty()).then(|| palette.to_vec()),
            ..DiagnoseOptions::default()
        };
        if let Ok(job) = Job::spawn("bonescope-diagnostics", move || diagnose(&asset, &opts), wake) {
            self.run = Some(Run { generation: doc.generation, job });
        }
    }

    /// Picks up a finished check. Findings for a document that is no longer open are dropped.
    pub fn poll(&mut self, current_generation: u64) {
        let Some(run) = &self.run else { return };
        let Some(result) = run.job.poll() else { return };
        let findings = result.unwrap_or_default();
        let Some(run) = self.run.take() else { return };
        if run.generation == current_generation {
            self.generation = run.generation;
            self.took = run.job.elapsed();
            self.findings = findings;
            self.clicked = None;
        }
    }

    /// Counts per severity (errors, warnings, notes).
    pub fn counts(&self) -> [usize; 3] {
        let mut c = [0; 3];
        for f in &self.findings {
            // A line summing up findings left out of the list counts as all of them.
            c[severity_slot(f.severity)] += f.count;
        }
        c
    }
}

/// The tab's label with the number of errors and warnings, so problems are visible without opening it.
pub fn tab_label(view: &DiagnosticsView) -> String {
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
pub fn show(ui: &mut egui::Ui, view: &mut DiagnosticsView, doc: &Document, cmds: &mut Vec<Command>) {
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
            ui.toggle_value(&mut view.show[slot], text).on_hover_text(format!("Show {label}"));
        }
        if view.running() {
            ui.spinner();
        } else if ui.button("Re-check").on_hover_text("Run every check again, with the pose on screen").clicked() {
            cmds.push(Command::RunDiagnostics);
        }
    });
    ui.add(egui::TextEdit::singleline(&mut view.search).hint_text("filter findings").desired_width(f32::INFINITY));
    if view.generation != doc.generation {
        ui.weak(if view.running() { "Checking…" } else { "Not checked yet." });
        return;
    }
    ui.weak(format!(
        "{} findings in {:.0} ms: bind pose, weights, bone usage, track binding, scale, triangles, textures, \
         stretch now and over every clip.",
        view.findings.len(),
        view.took.as_secs_f64() * 1e3
    ));
    ui.separator();
    if view.findings.is_empty() {
        ui.label("No problems found.");
        return;
    }
    let needle = view.search.to_lowercase();
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        for (i, f) in view.findings.iter().enumerate() {
            if !view.show[severity_slot(f.severity)] {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::diagnostics::FindingKind;

    #[test]
    fn findings_mark_their_edge_triangle_or_vertex() {
        let asset = crate::scene::samples::demo::demo_asset();
        let tri = Finding::new(
            Severity::Warning,
            FindingKind::DegenerateTriangle,
            Subject::Triangle { mesh: 0, index: 2 },
            "",
        );
        let h = Highlight::of(&tri, &asset).unwrap();
        assert_eq!(h.vertices, asset.meshes[0].indices[6..9].to_vec());
        let mut stretch = tri.clone();
        stretch.edge = Some([4, 5]);
        assert_eq!(Highlight::of(&stretch, &asset).unwrap().vertices, vec![4, 5]);
        let vertex = Finding::new(Severity::Error, FindingKind::WeightSum, Subject::Vertex { mesh: 0, index: 7 }, "");
        assert_eq!(Highlight::of(&vertex, &asset).unwrap().vertices, vec![7]);
        // Out of range, or about something else: nothing to mark.
        let far =
            Finding::new(Severity::Error, FindingKind::WeightSum, Subject::Vertex { mesh: 0, index: 1 << 30 }, "");
        assert!(Highlight::of(&far, &asset).is_none());
        let bone = Finding::new(Severity::Error, FindingKind::BindPose, Subject::Bone(1), "");
        assert!(Highlight::of(&bone, &asset).is_none());
    }

    #[test]
    fn a_summing_up_line_counts_as_the_findings_it_stands_for() {
        let mut view = DiagnosticsView::default();
        let one = Finding::new(Severity::Warning, FindingKind::WeightSum, Subject::Vertex { mesh: 0, index: 1 }, "");
        let mut rest = Finding::new(Severity::Warning, FindingKind::WeightSum, Subject::Asset, "… and 40 more");
        (rest.count, rest.summary) = (40, true);
        let error = Finding::new(Severity::Error, FindingKind::BindPose, Subject::Bone(0), "");
        view.findings = vec![error, one, rest];
        assert_eq!(view.counts(), [1, 41, 0]);
    }

    #[test]
    fn a_check_runs_off_thread_and_lands_for_its_document_only() {
        let doc = Document::new(crate::scene::samples::demo::demo_asset(), Vec::new(), Vec::new(), 7);
        let mut view = DiagnosticsView::default();
        view.ensure(&doc, &[], false, || {});
        assert!(view.running());
        while view.running() {
            view.poll(7);
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(view.generation, 7);
        // The demo is a clean rig: nothing above a note.
        let [errors, warnings, _] = view.counts();
        assert_eq!((errors, warnings), (0, 0), "{:?}", view.findings);
        // A result for a document closed meanwhile is dropped.
        let mut stale = DiagnosticsView::default();
        stale.ensure(&doc, &[], false, || {});
        while stale.running() {
            stale.poll(8);
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(stale.generation, 0);
        assert!(stale.findings.is_empty());
    }
}
