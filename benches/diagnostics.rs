//! Rig diagnostics on a 100k-vertex character with a 100-frame clip: the whole `diagnose` call (static checks
//! plus 30 sampled poses skinned and measured), and the static checks alone.

use std::f32::consts::TAU;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{Quat, Vec3};

use bonescope::anim::diagnostics::{DiagnoseOptions, diagnose};
use bonescope::scene::{
    Asset, BoneTrack, Clip, Curve, InfluenceReport, Material, Mesh, Skeleton, Subset, Transform, reduce_influences,
};

const BONES: usize = 8;
const RINGS: usize = 400;
const SIDES: usize = 250;

/// A tube of (RINGS+1)·(SIDES+1) ≈ 100k vertices on a chain of bones, two-bone weights at every joint, and one
/// 100-frame clip that bends every joint.
fn big_asset() -> Asset {
    let mut asset = Asset::default();
    let mut skeleton = Skeleton::default();
    for i in 0..BONES {
        let (parent, y) = if i == 0 { (None, 0.0) } else { (Some(i - 1), 1.0) };
        skeleton.push(format!("b{i}"), parent, Transform::from_translation_rotation(Vec3::Y * y, Quat::IDENTITY));
    }
    skeleton.recompute_inverse_bind();
    let mut mesh = Mesh { name: "tube".into(), ..Mesh::default() };
    let mut report = InfluenceReport::default();
    let height = BONES as f32;
    for ring in 0..=RINGS {
        let y = ring as f32 / RINGS as f32 * height;
        for side in 0..=SIDES {
            let a = side as f32 / SIDES as f32 * TAU;
            mesh.positions.push(Vec3::new(0.4 * a.cos(), y, -0.4 * a.sin()));
            let x = y.min(height - 1e-3);
            let bone = x.floor() as u16;
            let frac = x - x.floor();
            let mut pairs = if frac < 0.5 && bone > 0 {
                vec![(bone, 0.5 + frac), (bone - 1, 0.5 - frac)]
            } else if frac > 0.5 && usize::from(bone) + 1 < BONES {
                vec![(bone, 1.5 - frac), (bone + 1, frac - 0.5)]
            } else {
                vec![(bone, 1.0)]
            };
            let inf = reduce_influences(&mut pairs, 0, &mut report);
            mesh.joints.push(inf.joints);
            mesh.weights.push(inf.weights);
            mesh.uvs.push(glam::Vec2::ZERO);
        }
    }
    let row = (SIDES + 1) as u32;
    for ring in 0..RINGS as u32 {
        for side in 0..SIDES as u32 {
            let a = ring * row + side;
            mesh.indices.extend_from_slice(&[a, a + 1, a + row + 1, a, a + row + 1, a + row]);
        }
    }
    mesh.subsets = vec![Subset { material: 0, first_index: 0, index_count: mesh.indices.len() as u32 }];
    mesh.influence_report = report;
    mesh.compute_normals();
    let frames = 100u32;
    let times: Vec<f32> = (0..frames).map(|f| f as f32 / 30.0).collect();
    let tracks = (0..BONES)
        .map(|b| BoneTrack {
            bone_name: format!("b{b}"),
            translation: Curve::default(),
            rotation: Curve::linear(
                times.clone(),
                times.iter().map(|t| Quat::from_rotation_z(0.3 * (t * 3.0 - b as f32).sin())).collect(),
            ),
            scale: Curve::default(),
        })
        .collect();
    asset.clips.push(Clip {
        name: "Bend".into(),
        duration: (frames - 1) as f32 / 30.0,
        frame_rate: 30.0,
        frame_count: frames,
        tracks,
        callback_keys: Vec::new(),
        ..Clip::default()
    });
    asset.skeleton = skeleton;
    asset.materials = vec![Material::named("m")];
    asset.meshes = vec![mesh];
    asset
}

fn bench(c: &mut Criterion) {
    let asset = big_asset();
    assert!(asset.vertex_count() > 100_000);
    let mut group = c.benchmark_group("diagnose_100k_vertices");
    group.sample_size(10);
    group.bench_function("all_checks_one_100_frame_clip", |b| {
        b.iter(|| diagnose(&asset, &DiagnoseOptions::default()));
    });
    let static_only = DiagnoseOptions { clip_stretch: false, ..DiagnoseOptions::default() };
    group.bench_function("static_checks_only", |b| b.iter(|| diagnose(&asset, &static_only)));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
