//! Headless frame time of the renderer: the demo character alone and a 10×10 grid of instances (each with its
//! own palette and time offset). A frame is: sample the poses, upload, draw, wait for the GPU (no read-back).
//! On a machine without a GPU this measures lavapipe. Skipped with a message when there is no adapter.
//!
//! The `morph` group measures morph targets on a 20 000-vertex mesh with 64 targets, all active: the CPU side
//! of a frame (the controller mixing the weights, `Renderer::prepare` turning them into the active list and
//! uploading it, nothing drawn) against the same mesh without weights, and whole frames with and without them.

use std::f32::consts::TAU;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{Mat4, Vec2, Vec3};

use bonescope::anim::controller::{Controller, PlaybackType};
use bonescope::anim::{MorphLayout, Pose};
use bonescope::render::headless::{BACKGROUND, Framing, Scene};
use bonescope::render::{FrameData, GpuContext, OFFSCREEN_FORMAT, OffscreenTarget, OrbitCamera, Renderer, ShadingMode};
use bonescope::scene::samples::demo::demo_asset;
use bonescope::scene::{Asset, Bounds, Clip, Curve, Material, Mesh, MorphTarget, MorphTrack, Subset, Transform};

fn frames(c: &mut Criterion) {
    let ctx = match GpuContext::headless() {
        Ok(ctx) => ctx,
        Err(e) => {
            eprintln!("skipped: {e}");
            return;
        }
    };
    eprintln!("adapter: {}", ctx.describe());
    let size = (512, 512);
    let samples = ctx.msaa_samples(OFFSCREEN_FORMAT);
    let asset = demo_asset();
    let mut group = c.benchmark_group("render_frame");
    group.sample_size(20);
    for (name, grid, mode) in [
        ("demo", 1, ShadingMode::Textured),
        ("grid10", 10, ShadingMode::Textured),
        ("grid10_stretch", 10, ShadingMode::Stretch),
    ] {
        let mut renderer = Renderer::new(&ctx.device, &ctx.queue, OFFSCREEN_FORMAT, samples);
        let target = OffscreenTarget::new(&ctx.device, size.0, size.1, samples);
        let mut scene = Scene::new(&mut renderer, &asset, Some("Sway"), grid, Framing::WholeClip, size).unwrap();
        scene.reframe(30.0, 25.0);
        scene.frame.shading = mode;
        let mut t = 0.0;
        group.bench_function(name, |b| {
            b.iter(|| {
                t += 1.0 / 60.0;
                scene.build(t);
                target.render(&mut renderer, &scene.frame, BACKGROUND).unwrap();
            })
        });
    }
    group.finish();
    morphs(c, &ctx);
}

const GRID: usize = 142;
const TARGETS: usize = 64;

/// A 142 × 141 vertex sheet (20 022 vertices, one bone) with 64 targets, each a bump over a disc of about 6 % of
/// the vertices (a face rig's regions), and a clip whose 64 weight tracks keep every target active.
fn morph_asset() -> Asset {
    let (cols, rows) = (GRID, GRID - 1);
    let mut mesh = Mesh { name: "sheet".into(), ..Mesh::default() };
    for r in 0..rows {
        for c in 0..cols {
            let (u, v) = (c as f32 / (cols - 1) as f32, r as f32 / (rows - 1) as f32);
            mesh.positions.push(Vec3::new(u * 2.0 - 1.0, v * 2.0 - 1.0, 0.0));
            mesh.normals.push(Vec3::Z);
            mesh.uvs.push(Vec2::new(u, v));
            mesh.joints.push([0; 4]);
            mesh.weights.push([1.0, 0.0, 0.0, 0.0]);
        }
    }
    for r in 0..rows - 1 {
        for c in 0..cols - 1 {
            let i = (r * cols + c) as u32;
            let (right, up) = (i + 1, i + cols as u32);
            mesh.indices.extend_from_slice(&[i, right, up + 1, i, up + 1, up]);
        }
    }
    mesh.subsets = vec![Subset { material: 0, first_index: 0, index_count: mesh.indices.len() as u32 }];
    for t in 0..TARGETS {
        let angle = t as f32 * 2.39996;
        let centre = Vec2::new(angle.cos(), angle.sin()) * (0.15 + 0.7 * t as f32 / TARGETS as f32);
        let mut target = MorphTarget { name: format!("region {t}"), ..MorphTarget::default() };
        for (v, p) in mesh.positions.iter().enumerate() {
            let d = p.truncate().distance(centre);
            if d < 0.28 {
                let bump = 0.5 * (1.0 + (d / 0.28 * std::f32::consts::PI).cos()) * 0.1;
                target.vertices.push(v as u32);
                target.position_deltas.push(Vec3::new(0.0, 0.0, bump));
                target.normal_deltas.push(Vec3::new(0.05, 0.0, 0.0) * bump);
            }
        }
        mesh.morph_targets.push(target);
    }
    let mut asset = Asset::default();
    asset.skeleton.push("root", None, Transform::IDENTITY);
    asset.skeleton.recompute_inverse_bind();
    asset.materials.push(Material::named("sheet"));
    asset.meshes.push(mesh);
    let times: Vec<f32> = (0..=60).map(|k| k as f32 / 30.0).collect();
    let morph_tracks = (0..TARGETS)
        .map(|t| MorphTrack {
            target: format!("region {t}"),
            mesh: None,
            weights: Curve::linear(
                times.clone(),
                times.iter().map(|&s| 0.55 + 0.45 * (s * TAU + t as f32).sin()).collect(),
            ),
        })
        .collect();
    asset.clips.push(Clip { name: "faces".into(), duration: 2.0, frame_rate: 30.0, morph_tracks, ..Clip::default() });
    asset
}

fn morphs(c: &mut Criterion, ctx: &GpuContext) {
    let asset = morph_asset();
    let entries: usize = asset.meshes[0].morph_targets.iter().map(|t| t.vertices.len()).sum();
    eprintln!(
        "morph mesh: {} vertices, {TARGETS} targets, {entries} deltas ({:.1} per vertex)",
        asset.vertex_count(),
        entries as f32 / asset.vertex_count() as f32
    );
    let mut ctrl = Controller::new(Arc::new(asset.skeleton.clone()));
    ctrl.set_morph_layout(MorphLayout::of_meshes(&asset.meshes));
    let set = ctrl.add_set(asset.clips[0].clone(), PlaybackType::Loop);
    ctrl.add_track(Some(set)).unwrap();
    let mut pose = Pose::bind(&asset.skeleton);

    let size = (512, 512);
    let samples = ctx.msaa_samples(OFFSCREEN_FORMAT);
    let mut renderer = Renderer::new(&ctx.device, &ctx.queue, OFFSCREEN_FORMAT, samples);
    let target = OffscreenTarget::new(&ctx.device, size.0, size.1, samples);
    let model = renderer.upload(&asset);
    let bounds = Bounds::from_points([Vec3::new(-1.0, -1.0, -0.2), Vec3::new(1.0, 1.0, 0.2)]);
    let camera = OrbitCamera::framing(&bounds, 1.0);
    let mut frame = FrameData::new(camera.matrices(1.0), [size.0, size.1]);

    let mut group = c.benchmark_group("morph");
    group.sample_size(30);
    // The controller's part: sample 64 weight tracks and mix them (and the bones, one here).
    group.bench_function("controller_evaluate_64_targets", |b| {
        b.iter(|| {
            ctrl.advance(1.0 / 60.0, |_| {});
            ctrl.evaluate_pose(&mut pose).unwrap();
        })
    });
    assert!(pose.morph_weights.iter().all(|w| *w != 0.0), "every target active");
    // The renderer's CPU part of a frame: build the frame data, prepare (instances, active list, uploads) and
    // submit, without drawing. With and without morph weights: the difference is what the morphs cost.
    for (name, morphed) in [("prepare_20k_plain", false), ("prepare_20k_64_targets", true)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                frame.clear();
                if morphed {
                    frame.add_morphed_instance(model, Mat4::IDENTITY, &pose.palette, &pose.morph_weights);
                } else {
                    frame.add_instance(model, Mat4::IDENTITY, &pose.palette);
                }
                let mut encoder =
                    ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("prepare") });
                renderer.prepare(&mut encoder, &frame);
                ctx.queue.submit([encoder.finish()]);
            })
        });
    }
    // Whole frames: draw and wait for the GPU (lavapipe on a machine without one). The GPU's morph cost follows
    // the number of active targets: all 64, then 8 of them.
    let eight: Vec<f32> =
        pose.morph_weights.iter().enumerate().map(|(t, w)| if t % 8 == 0 { *w } else { 0.0 }).collect();
    for (name, weights) in [
        ("frame_20k_plain", None),
        ("frame_20k_64_targets", Some(&pose.morph_weights)),
        ("frame_20k_8_targets", Some(&eight)),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                frame.clear();
                match weights {
                    Some(w) => frame.add_morphed_instance(model, Mat4::IDENTITY, &pose.palette, w),
                    None => frame.add_instance(model, Mat4::IDENTITY, &pose.palette),
                }
                target.render(&mut renderer, &frame, BACKGROUND).unwrap();
            })
        });
    }
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
