//! The renderer's two palette paths draw the same pictures: storage buffers (Vulkan, Metal, DX12, WebGPU) and data
//! textures (WebGL2 and OpenGL adapters). Both paths run on one lavapipe device here and are compared pixel by
//! pixel, on the demo in every mode that both draw, a grid of 100 posed copies (palettes and instances spanning
//! several texture rows) and the textured headcrab QC mid-clip. The last test runs the texture path on Mesa's
//! OpenGL with the WebGL2 limits egui-wgpu asks a GL adapter for: the nearest thing to a browser without WebGPU
//! this machine has. Without an adapter they are skipped with a message, except under CI, where that fails.

mod common;

use common::gpu;

use std::path::{Path, PathBuf};

use image::RgbaImage;

use bonescope::render::headless::{BACKGROUND, Framing, Scene};
use bonescope::render::{
    BoneStyle, OFFSCREEN_FORMAT, OffscreenTarget, PalettePath, Renderer, ShadingMode, SkeletonStyle,
};
use bonescope::scene::Asset;
use bonescope::scene::samples::demo::demo_asset;

fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("palette-paths");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What one picture shows.
#[derive(Clone, Copy)]
struct Shot<'a> {
    asset: &'a Asset,
    clip: Option<&'a str>,
    time: f32,
    grid: u32,
    mode: ShadingMode,
    wireframe: bool,
    skeleton: bool,
    floor: bool,
}

impl<'a> Shot<'a> {
    /// One copy of `asset` playing `clip` at `time`, lit, with the floor and no overlays.
    fn of(asset: &'a Asset, clip: &'a str, time: f32) -> Self {
        Shot {
            asset,
            clip: Some(clip),
            time,
            grid: 1,
            mode: ShadingMode::Textured,
            wireframe: false,
            skeleton: false,
            floor: true,
        }
    }
}

const SIZE: (u32, u32) = (224, 224);

fn render(device: &wgpu::Device, queue: &wgpu::Queue, path: PalettePath, shot: Shot<'_>) -> RgbaImage {
    let mut renderer = Renderer::with_palette_path(device, queue, OFFSCREEN_FORMAT, 1, path);
    assert_eq!(renderer.palette_path(), path);
    render_with(&mut renderer, device, shot)
}

fn render_with(renderer: &mut Renderer, device: &wgpu::Device, shot: Shot<'_>) -> RgbaImage {
    let target = OffscreenTarget::new(device, SIZE.0, SIZE.1, 1);
    let mut scene = Scene::new(renderer, shot.asset, shot.clip, shot.grid, Framing::WholeClip, SIZE).unwrap();
    scene.reframe(40.0, 15.0);
    scene.frame.shading = shot.mode;
    scene.frame.wireframe = shot.wireframe;
    scene.frame.selected_bone = Some(3);
    scene.skeleton = shot.skeleton.then(|| SkeletonStyle { bones: BoneStyle::Octahedral, ..SkeletonStyle::default() });
    scene.floor = shot.floor;
    scene.build(shot.time);
    target.render_image(renderer, &scene.frame, BACKGROUND).unwrap()
}

/// Pixels whose colour differs by more than `tolerance` in some channel, and pixels of the model (saturated or
/// bright: the background, about sRGB (47, 50, 55), and the grey grid are neither).
fn compare(a: &RgbaImage, b: &RgbaImage, tolerance: u8) -> (usize, usize) {
    let model = |p: &image::Rgba<u8>| {
        let [r, g, b, _] = p.0;
        let (max, min) = (r.max(g).max(b), r.min(g).min(b));
        max >= 80 && max - min >= 12
    };
    let differing =
        a.pixels().zip(b.pixels()).filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > tolerance)).count();
    (differing, a.pixels().filter(|p| model(p)).count())
}

/// Renders `shot` on both paths and asserts they agree (within rounding) on a picture that shows something.
fn both_paths_agree(name: &str, shot: Shot<'_>) {
    let ctx = gpu().unwrap();
    let buffers = render(&ctx.device, &ctx.queue, PalettePath::StorageBuffers, shot);
    let textures = render(&ctx.device, &ctx.queue, PalettePath::DataTextures, shot);
    let (differing, drawn) = compare(&buffers, &textures, 2);
    eprintln!("{name}: {drawn} model pixels, {differing} differ between the paths");
    if differing > 0 || drawn < 500 {
        buffers.save(out_dir().join(format!("{name}_buffers.png"))).unwrap();
        textures.save(out_dir().join(format!("{name}_textures.png"))).unwrap();
    }
    assert!(drawn >= 500, "{name}: only {drawn} pixels drawn");
    assert_eq!(
        differing,
        0,
        "{name}: the data-texture path draws {differing} pixels differently (see {})",
        out_dir().display()
    );
}

#[test]
fn the_data_texture_path_draws_the_demo_like_the_storage_path_in_every_mode() {
    if gpu().is_none() {
        return;
    }
    let asset = demo_asset();
    let shot = Shot { skeleton: true, ..Shot::of(&asset, "Curl", 0.75) };
    both_paths_agree("demo_lit", shot);
    both_paths_agree("demo_weights_wire", Shot { mode: ShadingMode::BoneWeight, wireframe: true, ..shot });
    both_paths_agree("demo_dominant", Shot { mode: ShadingMode::DominantBone, ..shot });
    both_paths_agree("demo_normals", Shot { mode: ShadingMode::Normals, ..shot });
}

/// The stretch view: compute shaders on one path, the CPU on the other (`render/cpu_stretch.rs`), the same
/// colours within float rounding, on the curled demo and on 100 copies each in its own pose.
#[test]
fn the_data_texture_path_measures_the_stretch_view_on_the_cpu_like_the_compute_passes() {
    let Some(ctx) = gpu() else { return };
    let asset = demo_asset();
    let shot = Shot { mode: ShadingMode::Stretch, floor: false, ..Shot::of(&asset, "Curl", 0.75) };
    for (name, shot) in [("stretch", shot), ("stretch_grid", Shot { grid: 10, clip: Some("Sway"), time: 0.3, ..shot })]
    {
        let buffers = render(&ctx.device, &ctx.queue, PalettePath::StorageBuffers, shot);
        let textures = render(&ctx.device, &ctx.queue, PalettePath::DataTextures, shot);
        let (off_by_more_than_3, drawn) = compare(&buffers, &textures, 3);
        let (off_at_all, _) = compare(&buffers, &textures, 0);
        eprintln!("{name}: {drawn} model pixels; {off_at_all} differ at all, {off_by_more_than_3} by more than 3");
        buffers.save(out_dir().join(format!("{name}_buffers.png"))).unwrap();
        textures.save(out_dir().join(format!("{name}_textures.png"))).unwrap();
        assert!(drawn >= 500, "{name}: only {drawn} model pixels");
        assert!(off_by_more_than_3 * 1000 <= drawn, "{name}: {off_by_more_than_3} pixels differ by more than 3 levels");
    }
}

#[test]
fn the_data_texture_path_reads_palettes_and_instances_across_texture_rows() {
    if gpu().is_none() {
        return;
    }
    let asset = demo_asset();
    let shot = Shot { grid: 10, mode: ShadingMode::Solid, ..Shot::of(&asset, "Sway", 0.3) };
    // 100 copies, each with its own palette: more matrices than one 2048-texel row holds (512).
    let matrices = 100 * asset.skeleton.len();
    assert!(matrices > 512, "the grid's palettes ({matrices} matrices) must span more than one row");
    both_paths_agree("grid_of_100", shot);
}

#[test]
fn the_data_texture_path_draws_the_textured_headcrab_like_the_storage_path() {
    if gpu().is_none() {
        return;
    }
    let Some(qc) = common::corpus_file("qc/halflife/models/headcrab/headcrab.qc") else { return };
    let (asset, _) = bonescope::source::load_files(&[qc], &Default::default()).into_result().unwrap();
    assert!(asset.skeleton.len() > 20);
    let shot = Shot::of(&asset, "idle1", 0.4);
    both_paths_agree("headcrab_idle1", shot);
}

/// The texture path on OpenGL, with the limits egui-wgpu requests for a GL adapter (WebGL2's): there the
/// renderer picks the texture path by itself and draws what the storage path draws on Vulkan.
#[test]
fn on_opengl_with_webgl2_limits_the_renderer_picks_the_texture_path_and_draws_the_same() {
    let Some(vulkan) = gpu() else { return };
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::GL,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::GL));
    let Some(adapter) = adapters.into_iter().next() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but there is no OpenGL adapter (libegl1, libgl1-mesa-dri)"
        );
        eprintln!("skipped: no OpenGL adapter");
        return;
    };
    eprintln!("OpenGL adapter: {:?}", adapter.get_info());
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("webgl2 limits"),
        required_limits: wgpu::Limits::downlevel_webgl2_defaults(),
        ..Default::default()
    }))
    .unwrap();
    let asset = demo_asset();
    // Lines (wireframe, floor grid) rasterise differently on the two drivers; triangles barely do.
    let shot = Shot { grid: 2, skeleton: true, floor: false, ..Shot::of(&asset, "Curl", 0.75) };
    let mut renderer = Renderer::new(&device, &queue, OFFSCREEN_FORMAT, 1);
    assert_eq!(renderer.palette_path(), PalettePath::DataTextures);
    let gl = render_with(&mut renderer, &device, shot);
    let reference = render(&vulkan.device, &vulkan.queue, PalettePath::StorageBuffers, shot);
    let (differing, drawn) = compare(&gl, &reference, 6);
    eprintln!("OpenGL: {drawn} model pixels, {differing} differ from the storage path on Vulkan");
    gl.save(out_dir().join("opengl_textures.png")).unwrap();
    reference.save(out_dir().join("vulkan_buffers.png")).unwrap();
    assert!(drawn >= 500, "only {drawn} pixels drawn on OpenGL");
    // Two rasterisers: edge pixels may round differently, the picture may not.
    assert!(differing * 100 <= drawn, "{differing} of {drawn} pixels differ between OpenGL and Vulkan");
}
