//! Rendering one asset headless, as the `render` command, the golden tests and the render benchmark do: the
//! asset uploaded once, posed at a time of one clip, optionally as a grid of copies each with its own time
//! offset, the camera framed on the pose (or on every pose of the clip, so it holds still while the clip plays),
//! and the frame data rebuilt per time. Drawing goes to an [`OffscreenTarget`]; writing images is the caller's.

use std::time::Instant;

use glam::{Mat4, Vec3};

use super::gpu_timer::GpuTimer;
use super::posed::PosedAsset;
use super::{Bounds, FrameData, ModelId, OffscreenTarget, OrbitCamera, RenderError, Renderer, SkeletonStyle};
use crate::scene::Asset;

/// Linear clear colour: a dark blue-grey that both light and dark models stand out against.
pub const BACKGROUND: [f64; 4] = [0.028, 0.031, 0.038, 1.0];

/// What the camera is framed on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Framing {
    /// The pose at this time (a still).
    At(f32),
    /// Every pose of the clip, so the camera holds still while it plays.
    WholeClip,
}

/// Everything needed to render frames of one scene.
pub struct Scene<'a> {
    pub posed: PosedAsset<'a>,
    pub model: ModelId,
    pub camera: OrbitCamera,
    /// Instance placements and time offsets.
    pub copies: Vec<(Mat4, f32)>,
    /// Union of what the copies cover over the animation.
    pub bounds: Bounds,
    pub frame: FrameData,
    pub skeleton: Option<SkeletonStyle>,
    pub floor: bool,
}

impl<'a> Scene<'a> {
    /// Uploads the asset, sets up `grid`×`grid` copies and frames the camera on them.
    pub fn new(
        renderer: &mut Renderer,
        asset: &'a Asset,
        clip: Option<&str>,
        grid: u32,
        framing: Framing,
        size: (u32, u32),
    ) -> Result<Self, RenderError> {
        Self::new_morphed(renderer, asset, clip, Vec::new(), grid, framing, size)
    }

    /// [`Scene::new`] with some morph targets fixed at weights of their own (slot of
    /// `MorphLayout::of_meshes(&asset.meshes)`, weight), whatever the clip drives; the camera frames the morphed
    /// mesh.
    pub fn new_morphed(
        renderer: &mut Renderer,
        asset: &'a Asset,
        clip: Option<&str>,
        morph_overrides: Vec<(usize, f32)>,
        grid: u32,
        framing: Framing,
        size: (u32, u32),
    ) -> Result<Self, RenderError> {
        let model = renderer.upload(asset);
        let mut posed = PosedAsset::new(asset, clip)?;
        posed.set_morph_overrides(morph_overrides);
        let grid = grid.max(1);
        let single = match framing {
            Framing::At(t) if grid == 1 => {
                posed.set_time(t);
                posed.bounds()
            }
            _ => posed.clip_bounds(24),
        };
        let footprint = single.size().x.max(single.size().z).max(single.size().y * 0.25).max(1e-3) * 1.25;
        let duration = posed.duration();
        let n = grid as f32;
        let mut copies = Vec::with_capacity((grid * grid) as usize);
        let mut bounds = Bounds::EMPTY;
        for k in 0..grid * grid {
            let (i, j) = ((k % grid) as f32, (k / grid) as f32);
            let offset = Vec3::new((i - (n - 1.0) * 0.5) * footprint, 0.0, (j - (n - 1.0) * 0.5) * footprint);
            let placement = Mat4::from_translation(offset);
            copies.push((placement, duration * k as f32 / (grid * grid) as f32));
            bounds = bounds.union(&single.transformed(&placement));
        }
        let aspect = size.0 as f32 / size.1 as f32;
        let camera = OrbitCamera::framing(&bounds, aspect);
        let mut frame = FrameData::new(camera.matrices(aspect), [size.0, size.1]);
        frame.hidden_meshes.clone_from(&posed.hidden_meshes);
        Ok(Self { posed, model, camera, copies, bounds, frame, skeleton: None, floor: true })
    }

    /// Re-frames after the camera angles changed.
    pub fn reframe(&mut self, yaw_deg: f32, pitch_deg: f32) {
        self.camera.yaw = yaw_deg.to_radians();
        self.camera.pitch = pitch_deg.to_radians().clamp(-1.55, 1.55);
        let [w, h] = self.frame.viewport;
        let aspect = w as f32 / h as f32;
        self.camera.frame(&self.bounds, aspect);
        self.frame.camera = self.camera.matrices(aspect);
    }

    /// Fills the frame for time `t` (each copy at `t` + its offset, looping over the clip).
    pub fn build(&mut self, t: f32) {
        self.frame.clear();
        let duration = self.posed.duration();
        for &(placement, offset) in &self.copies {
            let time = if self.copies.len() > 1 && duration > 0.0 { (t + offset).rem_euclid(duration) } else { t };
            self.posed.set_time(time);
            self.frame.add_morphed_instance(
                self.model,
                placement,
                &self.posed.pose.palette,
                &self.posed.pose.morph_weights,
            );
            if let Some(style) = &self.skeleton {
                self.posed.add_skeleton(&mut self.frame.overlay, placement, style);
            }
        }
        if self.floor {
            self.frame.overlay.ground_grid(&self.bounds);
        }
    }
}

/// Frame-time figures of [`time_frames`].
#[derive(Clone, Copy, Debug)]
pub struct FrameTimes {
    pub frames: usize,
    pub median_ms: f64,
    pub p10_ms: f64,
    pub p90_ms: f64,
    /// GPU time per frame from timestamp queries (median, p10, p90), when the device has them.
    pub gpu_ms: Option<[f64; 3]>,
}

/// Times `n` frames (sampling the poses, uploading, drawing, waiting for the GPU; no read-back), after a few
/// warm-up frames. Time advances 1/60 s per frame.
pub fn time_frames(
    renderer: &mut Renderer,
    target: &OffscreenTarget,
    scene: &mut Scene<'_>,
    n: u32,
    start: f32,
) -> Result<FrameTimes, RenderError> {
    let n = n.max(1);
    for k in 0..3 {
        scene.build(start + k as f32 / 60.0);
        target.render(renderer, &scene.frame, BACKGROUND)?;
    }
    let timer = GpuTimer::new(renderer.device(), renderer.queue());
    let mut times = Vec::with_capacity(n as usize);
    let mut gpu = Vec::with_capacity(n as usize);
    for k in 0..n {
        let begin = Instant::now();
        scene.build(start + k as f32 / 60.0);
        target.render_timed(renderer, &scene.frame, BACKGROUND, timer.as_ref())?;
        times.push(begin.elapsed().as_secs_f64() * 1000.0);
        // Read after the wall-clock time is taken: the read-back is not part of a frame.
        if let Some(timer) = &timer {
            gpu.push(timer.read_ms(renderer.device())?);
        }
    }
    let quantiles = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
        [at(0.5), at(0.1), at(0.9)]
    };
    let [median_ms, p10_ms, p90_ms] = quantiles(times);
    let gpu_ms = (!gpu.is_empty()).then(|| quantiles(gpu));
    Ok(FrameTimes { frames: n as usize, median_ms, p10_ms, p90_ms, gpu_ms })
}
