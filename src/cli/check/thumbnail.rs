//! `--thumbnails`: each loaded character drawn headless (lavapipe works) at the moment of its worst finding
//! that has one (the worst clip frame), otherwise in the bind pose, with the finding marked: the stretched edge
//! or the vertex ringed in red, a bone's joint marked. Stretch findings are shaded by stretch, others
//! textured. GPU contexts are made once per worker and reused ([`Thumbnails`]).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use glam::{Mat4, Vec3};

use bonescope::anim::diagnostics::Subject;
use bonescope::render::headless::{BACKGROUND, Framing, Scene};
use bonescope::render::overlay::Depth;
use bonescope::render::{GpuContext, OFFSCREEN_FORMAT, OffscreenTarget, Renderer, ShadingMode};
use bonescope::scene::Asset;

use super::report::{CheckFinding, CheckKind};
use super::run::Loaded;
use bonescope::anim::diagnostics::FindingKind;

/// Thumbnail size in pixels (shown at this size in the HTML report).
pub const SIZE: (u32, u32) = (192, 144);

/// JPEG quality of the thumbnails: a studio tree's report holds hundreds of them, and a render of a character
/// on a dark background loses nothing visible at this quality (about a tenth of the PNG's bytes).
const JPEG_QUALITY: u8 = 82;

const MARK: [u8; 4] = [255, 40, 40, 255];

struct Gpu {
    renderer: Renderer,
    target: OffscreenTarget,
    // Kept alive for the renderer's device and queue.
    _context: GpuContext,
}

/// GPU contexts shared by the workers: each character borrows one (made when none is free) and gives it back,
/// so there are at most as many as workers, and they are dropped with this, on the thread that made the run
/// (not in thread-local destructors, where wgpu's own thread-locals may be gone already).
#[derive(Default)]
pub struct Thumbnails {
    free: Mutex<Vec<Gpu>>,
    /// Set once no GPU context could be made (said once).
    unavailable: AtomicBool,
}

impl Thumbnails {
    /// Draws `loaded` into its report's `thumbnail`; a failure is printed and leaves it without one.
    pub fn draw(&self, loaded: &mut Loaded) {
        if self.unavailable.load(Ordering::Relaxed) {
            return;
        }
        let free = self.free.lock().ok().and_then(|mut f| f.pop());
        let mut gpu = match free {
            Some(gpu) => gpu,
            None => match GpuContext::headless() {
                Ok(context) => {
                    let samples = context.msaa_samples(OFFSCREEN_FORMAT);
                    let renderer = Renderer::new(&context.device, &context.queue, OFFSCREEN_FORMAT, samples);
                    let target = OffscreenTarget::new(&context.device, SIZE.0, SIZE.1, samples);
                    Gpu { renderer, target, _context: context }
                }
                Err(e) => {
                    if !self.unavailable.swap(true, Ordering::Relaxed) {
                        eprintln!("warning: no thumbnails: {e}");
                    }
                    return;
                }
            },
        };
        match render(&mut gpu, &loaded.asset, &loaded.report.findings) {
            Ok(jpeg) => loaded.report.thumbnail = Some(jpeg),
            Err(e) => eprintln!("warning: {}: no thumbnail: {e}", loaded.report.name),
        }
        if let Ok(mut f) = self.free.lock() {
            f.push(gpu);
        }
    }
}

fn render(gpu: &mut Gpu, asset: &Asset, findings: &[CheckFinding]) -> Result<Vec<u8>, String> {
    if asset.triangle_count() == 0 {
        return Err("nothing to draw (no triangles)".into());
    }
    // The worst finding that happens at a moment of a clip sets the pose; else the worst one overall is marked.
    let timed = findings.iter().find(|f| f.clip.is_some() && f.time.is_some());
    let marked = timed.or(findings.first());
    let (clip, time) = match timed {
        Some(f) => (f.clip.as_deref(), f.time.unwrap_or(0.0)),
        None => (None, 0.0),
    };
    let mut scene =
        Scene::new(&mut gpu.renderer, asset, clip, 1, Framing::At(time), SIZE).map_err(|e| e.to_string())?;
    scene.reframe(30.0, 15.0);
    scene.frame.shading = match marked.map(|f| f.kind) {
        Some(CheckKind::Rig(FindingKind::ClipStretch | FindingKind::PoseStretch)) => ShadingMode::Stretch,
        _ => ShadingMode::Textured,
    };
    scene.build(time);
    let radius = scene.bounds.radius().max(1e-3);
    if let Some(f) = marked {
        mark(&mut scene, asset, f, radius);
    }
    let result = gpu.target.render_image(&mut gpu.renderer, &scene.frame, BACKGROUND).map_err(|e| e.to_string());
    gpu.renderer.remove(scene.model);
    let image = image::DynamicImage::ImageRgba8(result?).to_rgb8();
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, JPEG_QUALITY)
        .encode_image(&image)
        .map_err(|e| e.to_string())?;
    Ok(jpeg)
}

/// Rings what the finding is about, in the pose drawn.
fn mark(scene: &mut Scene<'_>, asset: &Asset, finding: &CheckFinding, radius: f32) {
    let palette = scene.posed.pose.palette.clone();
    // The overlay is in the viewer's frame; the mesh and pose in the file's.
    let to_viewer = asset.axes.to_viewer;
    let skinned = |mesh: usize, vertex: usize| -> Option<Vec3> {
        let m = asset.meshes.get(mesh)?;
        let p = *m.positions.get(vertex)?;
        let (joints, weights) = (m.joints.get(vertex)?, m.weights.get(vertex)?);
        let mut out = Vec3::ZERO;
        let mut total = 0.0;
        for (j, w) in joints.iter().zip(weights) {
            if *w > 0.0 {
                let matrix: &Mat4 = palette.get(usize::from(*j))?;
                out += matrix.transform_point3(p) * *w;
                total += *w;
            }
        }
        Some(to_viewer.transform_point3(if total > 0.0 { out / total } else { p }))
    };
    let overlay = &mut scene.frame.overlay;
    let ring = radius * 0.06;
    let mut points: Vec<Vec3> = Vec::new();
    match finding.subject {
        Some(Subject::Triangle { mesh, index }) => match &finding.edge.map(|[a, b]| [a as usize, b as usize]) {
            Some([a, b]) => points.extend([skinned(mesh, *a), skinned(mesh, *b)].into_iter().flatten()),
            None => {
                let tri = asset.meshes.get(mesh).and_then(|m| m.indices.get(index * 3..index * 3 + 3));
                points.extend(tri.into_iter().flatten().filter_map(|&v| skinned(mesh, v as usize)));
            }
        },
        Some(Subject::Vertex { mesh, index }) => points.extend(skinned(mesh, index)),
        Some(Subject::Bone(b)) => {
            if let Some(joint) = scene.posed.pose.to_root.get(b) {
                points.push(to_viewer.transform_point3(joint.w_axis.truncate()));
            }
        }
        _ => {}
    }
    for w in points.windows(2) {
        overlay.line(w[0], w[1], MARK, Depth::OnTop);
    }
    for p in &points {
        overlay.sphere(*p, ring, MARK, Depth::OnTop);
    }
}
