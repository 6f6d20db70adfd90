//! The error classes no loader lets through from a file today — a broken bind pose (offsets that do not invert
//! the bind pose; every reader computes them from it) and weights or bone indices out of range (readers
//! renormalise negative weights and reject unknown bones) — on characters made by code, as the formats that store
//! offsets and raw weights will hand them over: each is an error of the rig checks, and a render of the
//! character (midway through its Curl clip) shows it — the skin moved, pulled to the origin, thrown off — where
//! the sound character's render in the same pose does not. `BONESCOPE_FINDINGS_RENDERS=DIR` writes the renders there (docs/findings has them, looked
//! at), drawn by the renderer `bonescope render` uses.

mod common;

use bonescope::anim::diagnostics::{DiagnoseOptions, FindingKind, Severity, diagnose};
use bonescope::render::headless::{BACKGROUND, Framing, Scene};
use bonescope::render::overlay::Depth;
use bonescope::render::{OFFSCREEN_FORMAT, OffscreenTarget, Renderer, ShadingMode};
use bonescope::scene::Asset;
use bonescope::scene::samples::demo::demo_asset;
use common::gpu;
use glam::{Mat4, Vec3};
use image::RgbaImage;

const SIZE: (u32, u32) = (480, 360);
/// Seconds into the demo's Curl clip: curled halfway.
const CURL_MIDWAY: f32 = 1.0;

/// The character midway through its Curl clip, framed as the sound demo is, with `marked` vertices of mesh 0
/// ringed in red.
fn render_at_rest(asset: &Asset, marked: &[usize]) -> RgbaImage {
    let ctx = gpu().unwrap();
    let samples = ctx.msaa_samples(OFFSCREEN_FORMAT);
    let mut renderer = Renderer::new(&ctx.device, &ctx.queue, OFFSCREEN_FORMAT, samples);
    let target = OffscreenTarget::new(&ctx.device, SIZE.0, SIZE.1, samples);
    let reference = demo_asset();
    let framing = Scene::new(&mut renderer, &reference, Some("Curl"), 1, Framing::WholeClip, SIZE).unwrap();
    let mut scene = Scene::new(&mut renderer, asset, Some("Curl"), 1, Framing::At(CURL_MIDWAY), SIZE).unwrap();
    let mut bounds = framing.bounds;
    bounds.add(bounds.center() + Vec3::splat(bounds.radius() * 0.6));
    scene.bounds = bounds;
    scene.reframe(35.0, 15.0);
    scene.frame.shading = ShadingMode::Solid;
    scene.build(CURL_MIDWAY);
    let palette = scene.posed.pose.palette.clone();
    let mesh = &asset.meshes[0];
    for &v in marked {
        let (p, _) =
            bonescope::anim::skin_vertex(&palette, mesh.joints[v], mesh.weights[v], mesh.positions[v], Vec3::Y);
        let p = asset.axes.to_viewer.transform_point3(p);
        if p.is_finite() {
            scene.frame.overlay.sphere(p, bounds.radius() * 0.025, [255, 40, 40, 255], Depth::OnTop);
        }
    }
    target.render_image(&mut renderer, &scene.frame, BACKGROUND).unwrap()
}

/// Mean absolute difference of two renders, per channel (0–255).
fn difference(a: &RgbaImage, b: &RgbaImage) -> f32 {
    let total: u64 = a.as_raw().iter().zip(b.as_raw()).map(|(x, y)| u64::from(x.abs_diff(*y))).sum();
    total as f32 / a.as_raw().len() as f32
}

/// The vertices of mesh 0 most weighted to `bone`.
fn vertices_of(asset: &Asset, bone: u16, count: usize) -> Vec<usize> {
    let mesh = &asset.meshes[0];
    let mut v: Vec<usize> =
        (0..mesh.positions.len()).filter(|&i| mesh.joints[i][0] == bone && mesh.weights[i][0] > 0.99).collect();
    v.truncate(count);
    v
}

/// Checks that `asset` has an error of `kind`, renders it (beside the sound demo's render) and keeps the render.
fn shows(name: &str, asset: &Asset, kind: FindingKind, marked: &[usize], sound: &RgbaImage) {
    let findings = diagnose(asset, &DiagnoseOptions::default());
    let error = findings.iter().find(|f| f.kind == kind && f.severity == Severity::Error);
    assert!(error.is_some(), "{name}: no {} error: {findings:#?}", kind.name());
    let image = render_at_rest(asset, marked);
    let d = difference(&image, sound);
    assert!(d > 0.1, "{name}: the render looks like the sound character's ({d})");
    eprintln!("{name}: {} — render differs by {d:.2}", error.unwrap());
    if let Some(dir) = std::env::var_os("BONESCOPE_FINDINGS_RENDERS") {
        image.save(std::path::Path::new(&dir).join(format!("{name}.png"))).unwrap();
    }
}

#[test]
fn a_broken_bind_pose_and_weights_out_of_range_are_errors_a_render_shows() {
    if gpu().is_none() {
        return;
    }
    let sound = render_at_rest(&demo_asset(), &[]);
    // Broken bind poses: an offset moved, offsets swapped between bones, an offset scaled.
    let mut moved = demo_asset();
    moved.skeleton.inverse_bind[3] = Mat4::from_translation(Vec3::new(1.5, 0.0, 0.0)) * moved.skeleton.inverse_bind[3];
    shows("bind_pose_offset_moved", &moved, FindingKind::BindPose, &vertices_of(&moved, 3, 6), &sound);
    let mut swapped = demo_asset();
    swapped.skeleton.inverse_bind.swap(1, 4);
    shows("bind_pose_offsets_swapped", &swapped, FindingKind::BindPose, &vertices_of(&swapped, 4, 6), &sound);
    let mut scaled = demo_asset();
    scaled.skeleton.inverse_bind[4] = Mat4::from_scale(Vec3::splat(1.8)) * scaled.skeleton.inverse_bind[4];
    shows("bind_pose_offset_scaled", &scaled, FindingKind::BindPose, &vertices_of(&scaled, 4, 6), &sound);
    // Weights and indices out of range: a negative weight, a weight that is not a number, a bone past the
    // skeleton.
    let mut negative = demo_asset();
    let top = (negative.skeleton.len() - 1) as u16;
    let ring = vertices_of(&negative, top, 12);
    for &v in &ring {
        negative.meshes[0].weights[v] = [2.5, -1.5, 0.0, 0.0];
        negative.meshes[0].joints[v] = [top, 1, 0, 0];
    }
    shows("weights_negative", &negative, FindingKind::InvalidData, &ring, &sound);
    let mut nan = demo_asset();
    // Every vertex of a segment: a band the renderer cannot place (it drops its triangles).
    let ring = vertices_of(&nan, 3, usize::MAX);
    for &v in &ring {
        nan.meshes[0].weights[v] = [f32::NAN, 0.0, 0.0, 0.0];
    }
    shows("weights_not_a_number", &nan, FindingKind::InvalidData, &[], &sound);
    let mut index = demo_asset();
    let ring = vertices_of(&index, 4, usize::MAX);
    for &v in &ring {
        index.meshes[0].joints[v] = [200, 0, 0, 0];
    }
    shows("bone_index_out_of_range", &index, FindingKind::InvalidData, &[], &sound);
}
