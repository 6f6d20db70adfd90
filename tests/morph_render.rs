//! Morph targets on the GPU against the CPU reference (run on lavapipe where there is no GPU): the compute path
//! (`cs_skin`, morphs then skinning) on many sparse and dense targets, PSK morph chunks, and the draw path (the
//! vertex shader's morph pass) against the same mesh morphed on the CPU, in pixels. Without an adapter they are
//! skipped with a message, except under CI, where that is a failure.

mod common;

use common::gpu;
mod psk_writer;

use glam::{Mat4, Quat, Vec3};
use image::RgbaImage;

use bonescope::anim::{Pose, apply_morphs, skin_mesh_morphed};
use bonescope::demo::demo_asset;
use bonescope::io::{LoadOptions, psk};
use bonescope::render::{
    Bounds, ComputeSkinner, FrameData, GpuContext, OFFSCREEN_FORMAT, OffscreenTarget, OrbitCamera, PalettePath,
    Renderer, ShadingMode,
};
use bonescope::scene::{Asset, Mesh, MorphTarget};
use common::Rng;

/// Largest difference between GPU and CPU (morphs then skinning): positions relative to the model's size,
/// normals absolute; and how far the morphs moved the mesh, relative to its size.
fn compare(ctx: &GpuContext, mesh: &Mesh, palette: &[Mat4], weights: &[f32]) -> (f32, f32, f32) {
    let skinner = ComputeSkinner::new(&ctx.device, &ctx.queue);
    let (gpu_p, gpu_n) = skinner.skin_morphed(mesh, palette, weights).unwrap();
    let (mut cpu_p, mut cpu_n) = (Vec::new(), Vec::new());
    skin_mesh_morphed(mesh, palette, weights, &mut cpu_p, &mut cpu_n);
    let (mut plain, mut plain_n) = (Vec::new(), Vec::new());
    skin_mesh_morphed(mesh, palette, &[], &mut plain, &mut plain_n);
    assert_eq!(gpu_p.len(), cpu_p.len());
    let size = cpu_p.iter().fold(0f32, |m, p| m.max(p.abs().max_element())).max(1e-6);
    let (mut worst_p, mut worst_n, mut moved) = (0f32, 0f32, 0f32);
    for i in 0..cpu_p.len() {
        worst_p = worst_p.max((gpu_p[i] - cpu_p[i]).length() / size);
        worst_n = worst_n.max((gpu_n[i] - cpu_n[i]).length());
        moved = moved.max((cpu_p[i] - plain[i]).length() / size);
    }
    (worst_p, worst_n, moved)
}

/// The demo character with `count` random targets: sparse ones (a few vertices), dense ones (every vertex),
/// some listing a vertex twice or past the mesh, spans across many blocks.
fn with_random_targets(mut mesh: Mesh, count: usize, rng: &mut Rng) -> Mesh {
    let n = mesh.positions.len();
    for t in 0..count {
        let mut target = MorphTarget { name: format!("t{t}"), ..MorphTarget::default() };
        let dense = t % 7 == 0;
        let listed = if dense { n } else { 1 + rng.below(n / 3) };
        for k in 0..listed {
            let v = if dense { k } else { rng.below(n + 2) };
            let r = |rng: &mut Rng| (rng.below(2001) as f32 - 1000.0) / 4000.0;
            target.vertices.push(v as u32);
            target.position_deltas.push(Vec3::new(r(rng), r(rng), r(rng)));
            target.normal_deltas.push(Vec3::new(r(rng), r(rng), r(rng)));
        }
        if t % 5 == 3 {
            target.normal_deltas.clear();
        }
        mesh.morph_targets.push(target);
    }
    mesh
}

#[test]
fn gpu_morphs_then_skinning_match_the_cpu() {
    let Some(ctx) = gpu() else { return };
    let asset = demo_asset();
    let mut rng = Rng(0x5eed_1234_abcd);
    let mesh = with_random_targets(asset.meshes[0].clone(), 90, &mut rng);
    let pose = Pose::from_clip(&asset.skeleton, asset.clip("Curl").unwrap(), 0.6);
    // All targets at once (negative weights too), a few, none, and a slice shorter than the targets.
    let all: Vec<f32> = (0..90).map(|t| ((t * 37 % 11) as f32 - 4.0) / 7.0).collect();
    let few: Vec<f32> = (0..90).map(|t| if t % 13 == 1 { 0.8 } else { 0.0 }).collect();
    for (name, weights) in [("all", all), ("few", few), ("none", vec![0.0; 90]), ("short", vec![1.0; 5])] {
        let (p, n, moved) = compare(ctx, &mesh, &pose.palette, &weights);
        eprintln!("{name}: GPU vs CPU position {p:.2e} of the size, normal {n:.2e}; morphs moved {moved:.3}");
        assert!(p <= 1e-5, "{name}: positions differ by {p} of the size");
        assert!(n <= 1e-4, "{name}: normals differ by {n}");
        if name != "none" {
            assert!(moved > 0.01, "{name}: the morphs must move the mesh ({moved})");
        }
    }
}

#[test]
fn gpu_applies_psk_morphs_like_the_cpu() {
    let Some(ctx) = gpu() else { return };
    let mut file = psk_writer::tube(12, 10, 4, 80.0);
    file.morphs = (0..6)
        .map(|t| {
            let rows = (0..file.points.len() as i32)
                .filter(|p| (p + t) % 3 == 0)
                .map(|p| (Vec3::new(0.5 * t as f32, -1.0, 2.0), Vec3::new(0.0, 0.1, 0.0), p))
                .collect();
            (format!("shape{t}"), rows)
        })
        .collect();
    let asset = psk::load(&file.to_bytes(), &LoadOptions::default()).unwrap();
    let mut pose = Pose::bind(&asset.skeleton);
    for (i, local) in pose.local.iter_mut().enumerate() {
        local.rotation = Quat::from_rotation_z(0.2 * i as f32) * local.rotation;
    }
    pose.update(&asset.skeleton);
    let (p, n, moved) = compare(ctx, &asset.meshes[0], &pose.palette, &[0.3, 1.0, 0.0, -0.5, 0.7, 0.25]);
    assert!(moved > 0.01 && p <= 1e-5 && n <= 1e-4, "moved {moved}, positions {p}, normals {n}");
}

// ---------------------------------------------------------------------------------------------------------
// The draw path, in pixels

/// A sheet facing the camera with a bump target and a tilt target (normals change too).
fn sheet() -> Asset {
    let mut asset = Asset::default();
    asset.skeleton.push("root", None, bonescope::scene::Transform::IDENTITY);
    asset.skeleton.recompute_inverse_bind();
    asset.materials.push(bonescope::scene::Material::named("sheet"));
    let n = 48;
    let mut mesh = Mesh { name: "sheet".into(), ..Mesh::default() };
    for y in 0..n {
        for x in 0..n {
            let (u, v) = (x as f32 / (n - 1) as f32, y as f32 / (n - 1) as f32);
            mesh.positions.push(Vec3::new(u * 2.0 - 1.0, v * 2.0 - 1.0, 0.0));
            mesh.normals.push(Vec3::Z);
            mesh.uvs.push(glam::Vec2::new(u, v));
            mesh.joints.push([0; 4]);
            mesh.weights.push([1.0, 0.0, 0.0, 0.0]);
        }
    }
    for y in 0..n - 1 {
        for x in 0..n - 1 {
            let i = (y * n + x) as u32;
            mesh.indices.extend_from_slice(&[i, i + 1, i + n as u32 + 1, i, i + n as u32 + 1, i + n as u32]);
        }
    }
    mesh.subsets =
        vec![bonescope::scene::Subset { material: 0, first_index: 0, index_count: mesh.indices.len() as u32 }];
    let mut bump = MorphTarget { name: "bump".into(), ..MorphTarget::default() };
    let mut tilt = MorphTarget { name: "tilt".into(), ..MorphTarget::default() };
    for (v, p) in mesh.positions.iter().enumerate() {
        let d = p.truncate().distance(glam::Vec2::new(0.3, 0.2));
        if d < 0.5 {
            let h = 0.5 * (1.0 + (d / 0.5 * std::f32::consts::PI).cos()) * 0.6;
            bump.vertices.push(v as u32);
            bump.position_deltas.push(Vec3::new(0.0, 0.0, h));
            bump.normal_deltas.push(Vec3::new(-(p.x - 0.3), -(p.y - 0.2), 0.0) * 2.0 * h);
        }
        if p.x < -0.2 {
            tilt.vertices.push(v as u32);
            tilt.position_deltas.push(Vec3::new(0.0, 0.0, -(p.x + 0.2) * 0.8));
            tilt.normal_deltas.push(Vec3::new(0.7, 0.0, 0.0));
        }
    }
    mesh.morph_targets = vec![bump, tilt];
    asset.meshes.push(mesh);
    asset
}

fn render(ctx: &GpuContext, asset: &Asset, weights: &[f32], mode: ShadingMode, wireframe: bool) -> RgbaImage {
    render_on(ctx, PalettePath::StorageBuffers, asset, weights, mode, wireframe)
}

fn render_on(
    ctx: &GpuContext,
    path: PalettePath,
    asset: &Asset,
    weights: &[f32],
    mode: ShadingMode,
    wireframe: bool,
) -> RgbaImage {
    let size = 160;
    let mut renderer = Renderer::with_palette_path(&ctx.device, &ctx.queue, OFFSCREEN_FORMAT, 1, path);
    let model = renderer.upload(asset);
    let target = OffscreenTarget::new(&ctx.device, size, size, 1);
    let bounds = Bounds::from_points([Vec3::new(-1.0, -1.0, -0.6), Vec3::new(1.0, 1.0, 0.6)]);
    let camera = OrbitCamera::framing(&bounds, 1.0);
    let mut frame = FrameData::new(camera.matrices(1.0), [size, size]);
    frame.shading = mode;
    frame.wireframe = wireframe;
    frame.add_morphed_instance(model, Mat4::IDENTITY, &[Mat4::IDENTITY], weights);
    target.render_image(&mut renderer, &frame, [0.0, 0.0, 0.0, 1.0]).unwrap()
}

fn differing_pixels(a: &RgbaImage, b: &RgbaImage, tolerance: u8) -> usize {
    a.pixels().zip(b.pixels()).filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > tolerance)).count()
}

/// The data-texture palette path (WebGL2) reads the same morph tables from textures: same pixels.
#[test]
fn morphs_draw_the_same_on_the_data_texture_path() {
    let Some(ctx) = gpu() else { return };
    let asset = sheet();
    let weights = [0.8, 0.6];
    for (mode, wireframe) in
        [(ShadingMode::Normals, false), (ShadingMode::MorphDisplacement, false), (ShadingMode::Solid, true)]
    {
        let buffers = render_on(ctx, PalettePath::StorageBuffers, &asset, &weights, mode, wireframe);
        let textures = render_on(ctx, PalettePath::DataTextures, &asset, &weights, mode, wireframe);
        let plain = render_on(ctx, PalettePath::DataTextures, &asset, &[], mode, wireframe);
        let changed = differing_pixels(&plain, &textures, 8);
        let off = differing_pixels(&buffers, &textures, 2);
        eprintln!(
            "{mode:?}: the weights change {changed} pixels on the texture path; {off} differ from the buffer path"
        );
        assert!(changed > 800, "{mode:?}: the morphs must show on the texture path ({changed} pixels changed)");
        assert_eq!(off, 0, "{mode:?}: the texture path draws the morphs differently");
    }
    // The stretch view measures the morphed sheet on the CPU there: the bump's stretch shows as on the buffer path.
    let buffers = render_on(ctx, PalettePath::StorageBuffers, &asset, &weights, ShadingMode::Stretch, false);
    let textures = render_on(ctx, PalettePath::DataTextures, &asset, &weights, ShadingMode::Stretch, false);
    let off = differing_pixels(&buffers, &textures, 3);
    eprintln!("Stretch: {off} pixels differ by more than 3 levels between the paths");
    assert!(off <= 25, "the texture path's stretch view differs in {off} pixels");
    // One active target: its 8 bytes end half way through a texel, which is written padded.
    let tilt_only = [0.0, 0.9];
    let buffers = render_on(ctx, PalettePath::StorageBuffers, &asset, &tilt_only, ShadingMode::Normals, false);
    let textures = render_on(ctx, PalettePath::DataTextures, &asset, &tilt_only, ShadingMode::Normals, false);
    let plain = render_on(ctx, PalettePath::DataTextures, &asset, &[], ShadingMode::Normals, false);
    let (changed, off) = (differing_pixels(&plain, &textures, 8), differing_pixels(&buffers, &textures, 2));
    eprintln!("one target: the weight changes {changed} pixels on the texture path; {off} differ from the buffer path");
    assert!(changed > 300 && off == 0, "one active target: {changed} pixels changed, {off} differ");
}

#[test]
fn drawn_morphs_match_the_mesh_morphed_on_the_cpu() {
    let Some(ctx) = gpu() else { return };
    let asset = sheet();
    let weights = [0.8, 0.6];
    // The same surface with the morphs baked into its vertices on the CPU, drawn without weights.
    let mut baked = asset.clone();
    let (mut p, mut n) = (Vec::new(), Vec::new());
    apply_morphs(&asset.meshes[0], &weights, &mut p, &mut n);
    baked.meshes[0].positions = p;
    baked.meshes[0].normals = n.iter().map(|n| n.normalize()).collect();
    baked.meshes[0].morph_targets.clear();
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("morph-render-tests");
    std::fs::create_dir_all(&out).unwrap();
    for (mode, wireframe) in [(ShadingMode::Normals, false), (ShadingMode::Solid, false), (ShadingMode::Solid, true)] {
        let plain = render(ctx, &asset, &[], mode, wireframe);
        let morphed = render(ctx, &asset, &weights, mode, wireframe);
        let reference = render(ctx, &baked, &[], mode, wireframe);
        let name = format!("sheet_{mode:?}{}", if wireframe { "_wire" } else { "" });
        morphed.save(out.join(format!("{name}_morphed.png"))).unwrap();
        plain.save(out.join(format!("{name}_plain.png"))).unwrap();
        let changed = differing_pixels(&plain, &morphed, 8);
        let off = differing_pixels(&reference, &morphed, 3);
        eprintln!("{name}: the weights change {changed} pixels; {off} differ from the CPU-morphed mesh");
        assert!(changed > 800, "{name}: the morphs must show ({changed} pixels changed)");
        assert!(off <= 20, "{name}: {off} pixels differ from the mesh morphed on the CPU");
    }
    // The stretch view skins through the morphing compute pass: the bump stretches the sheet's edges, which the
    // unmorphed sheet (all neutral grey) does not.
    let grey = |p: &image::Rgba<u8>| p.0[0].abs_diff(p.0[2]) < 12;
    let coloured = |img: &RgbaImage| img.pixels().filter(|p| p.0[3] > 0 && !grey(p) && p.0[0] > 20).count();
    let flat = render(ctx, &asset, &[], ShadingMode::Stretch, false);
    let stretched = render(ctx, &asset, &weights, ShadingMode::Stretch, false);
    stretched.save(out.join("sheet_stretch_morphed.png")).unwrap();
    eprintln!("stretch: {} coloured pixels unmorphed, {} morphed", coloured(&flat), coloured(&stretched));
    assert!(coloured(&flat) < 20 && coloured(&stretched) > 300);
    // Weights for targets the model lacks, NaN and zero are ignored, not drawn as garbage.
    let ignored = render(ctx, &asset, &[0.0, f32::NAN, 5.0, 7.0], ShadingMode::Normals, false);
    assert_eq!(differing_pixels(&ignored, &render(ctx, &asset, &[], ShadingMode::Normals, false), 0), 0);
}
