//! The diagnostics of the open document: the same checks as `bonescope info --check`
//! ([`crate::anim::diagnostics`]), run on a worker thread whenever a new scene is open (sampling every clip for
//! edge stretch takes seconds on large meshes, and the UI must not stall), and what a finding marks in the
//! viewport ([`Highlight`]). The tab that lists them is `views::diagnostics`.
//!
//! Must not touch: egui, GPU, files.

use std::time::Duration;

use glam::Mat4;

use crate::anim::diagnostics::{DiagnoseOptions, Finding, Severity, Subject, diagnose};
use crate::scene::{Asset, Bounds};

use super::document::Document;
use crate::ui::worker::Job;

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

    /// What to frame so the mark is in view with what is around it: the marked vertices skinned with `palette`
    /// (the pose at the finding's moment), in the viewer's frame, widened to at least `context` (a fraction of
    /// the character, whose bind-pose radius is `character`) around them — a torn edge is a speck on its own.
    pub fn framing(&self, asset: &Asset, palette: &[Mat4], character: f32, context: f32) -> Option<Bounds> {
        let mesh = asset.meshes.get(self.mesh)?;
        let mut marked = Bounds::EMPTY;
        for &v in &self.vertices {
            let v = v as usize;
            let (Some(p), Some(j), Some(w)) = (mesh.positions.get(v), mesh.joints.get(v), mesh.weights.get(v)) else {
                continue;
            };
            let (skinned, _) = crate::anim::skin_vertex(palette, *j, *w, *p, glam::Vec3::Y);
            let at = if palette.is_empty() { *p } else { skinned };
            let at = asset.axes.to_viewer.transform_point3(at);
            if at.is_finite() {
                marked.add(at);
            }
        }
        if marked.is_empty() {
            return None;
        }
        Some(Bounds::cube(marked.center(), (marked.radius() * 2.0).max(character * context)))
    }
}

/// A check running on the worker thread, for the document of `generation`.
struct Run {
    generation: u64,
    job: Job<Vec<Finding>>,
}

/// The findings of the open document, and the check that is running.
pub struct Diagnostics {
    /// Document generation the findings belong to (0: none yet).
    pub generation: u64,
    pub findings: Vec<Finding>,
    /// How long the last check took.
    pub took: Duration,
    run: Option<Run>,
    /// The finding last clicked (index into `findings`).
    pub clicked: Option<usize>,
}

impl Default for Diagnostics {
    fn default() -> Self {
        Self { generation: 0, findings: Vec::new(), took: Duration::ZERO, run: None, clicked: None }
    }
}

pub fn severity_slot(s: Severity) -> usize {
    match s {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
    }
}

impl Diagnostics {
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
    fn a_finding_is_framed_where_its_vertices_are_in_its_pose() {
        let asset = crate::scene::samples::demo::demo_asset();
        let clip = &asset.clips[1];
        let pose = crate::anim::Pose::from_clip(&asset.skeleton, clip, clip.duration * 0.5);
        let mut stretch =
            Finding::new(Severity::Warning, FindingKind::ClipStretch, Subject::Triangle { mesh: 0, index: 2 }, "");
        let tri = &asset.meshes[0].indices[6..9];
        stretch.edge = Some([tri[0], tri[1]]);
        let h = Highlight::of(&stretch, &asset).unwrap();
        let radius = 3.0;
        let framed = h.framing(&asset, &pose.palette, radius, 0.25).unwrap();
        // The marked vertices, where the pose puts them, are inside what is framed, and it is a close look.
        for &v in &h.vertices {
            let m = &asset.meshes[0];
            let (p, _) = crate::anim::skin_vertex(
                &pose.palette,
                m.joints[v as usize],
                m.weights[v as usize],
                m.positions[v as usize],
                glam::Vec3::Y,
            );
            let p = asset.axes.to_viewer.transform_point3(p);
            assert!(
                (p - framed.center()).abs().max_element() <= framed.size().max_element() * 0.5 + 1e-4,
                "{p} {framed:?}"
            );
        }
        assert!(framed.radius() < radius, "a close look, not the whole character: {framed:?}");
    }

    #[test]
    fn a_summing_up_line_counts_as_the_findings_it_stands_for() {
        let mut view = Diagnostics::default();
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
        let mut view = Diagnostics::default();
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
        let mut stale = Diagnostics::default();
        stale.ensure(&doc, &[], false, || {});
        while stale.running() {
            stale.poll(8);
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(stale.generation, 0);
        assert!(stale.findings.is_empty());
    }
}
