//! CPU reference skinning (`anim::skin_mesh`, the ground truth the GPU shader is tested against): positions and
//! normals of a 100k-vertex mesh with four influences per vertex on a 64-bone palette, and the demo character.

use std::f32::consts::TAU;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::{Mat4, Quat, Vec3};

use bonescope::anim::{Pose, skin_mesh};
use bonescope::scene::Mesh;

const VERTICES: usize = 100_000;
const BONES: usize = 64;

/// A spiral of vertices, each on four distinct bones with weights that sum to 1.
fn mesh() -> Mesh {
    let mut mesh = Mesh { name: "spiral".into(), ..Mesh::default() };
    for i in 0..VERTICES {
        let t = i as f32 / VERTICES as f32;
        let a = t * TAU * 50.0;
        mesh.positions.push(Vec3::new(a.cos(), t * 10.0, a.sin()));
        mesh.normals.push(Vec3::new(a.cos(), 0.0, a.sin()));
        let b = (i * 7) % (BONES - 3);
        mesh.joints.push([b as u16, b as u16 + 1, b as u16 + 2, b as u16 + 3]);
        mesh.weights.push([0.4, 0.3, 0.2, 0.1]);
    }
    mesh
}

/// A palette of rigid transforms (what an animated pose gives).
fn palette() -> Vec<Mat4> {
    (0..BONES)
        .map(|b| {
            let f = b as f32;
            Mat4::from_rotation_translation(Quat::from_rotation_y(f * 0.1), Vec3::new(f * 0.01, 0.0, -f * 0.02))
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("cpu_skinning");
    let (m, p) = (mesh(), palette());
    let (mut positions, mut normals) = (Vec::new(), Vec::new());
    group.throughput(Throughput::Elements(VERTICES as u64));
    group.bench_function("100k_vertices_4_influences", |b| {
        b.iter(|| skin_mesh(&m, &p, &mut positions, &mut normals));
    });
    let demo = bonescope::scene::samples::demo::demo_asset();
    let pose = Pose::from_clip(&demo.skeleton, &demo.clips[0], 0.5);
    group.throughput(Throughput::Elements(demo.vertex_count() as u64));
    group.bench_function("demo", |b| {
        b.iter(|| {
            for mesh in &demo.meshes {
                skin_mesh(mesh, &pose.palette, &mut positions, &mut normals);
            }
        });
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = bench
}
criterion_main!(benches);
