//! `--thumbnails`: each loaded character drawn headless (lavapipe works) at the moment of its worst finding
//! that has one (the worst clip frame), otherwise in the bind pose, with the finding marked: the stretched edge
//! or the vertex ringed in red, a bone's joint marked. Stretch findings are shaded by stretch, others
//! textured. GPU contexts are made once per worker and reused ([`Thumbnails`]).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use bonescope::render::headless::{BACKGROUND, Framing, Scene};
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
        Some(CheckKind::Rig(
            FindingKind::ClipStretch | FindingKind::PoseStretch | FindingKind::JointApart | FindingKind::VertexFlies,
        )) => ShadingMode::Stretch,
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
    let points = crate::cli::marks::points(scene, asset, finding.subject, finding.edge);
    crate::cli::marks::ring(scene, &points, radius * 0.06);
}
