//! PSK/PSA loading speed: chunk parsing alone (`parse`, the records cast out of the bytes) and the whole load
//! (`load`: parsing plus mesh/clip assembly) on a large PSK and PSA written by the test writer, plus the corpus
//! files when `BONESCOPE_CORPUS` is set. Throughput is reported in bytes of file per second. The `… cpu time`
//! rows time the same loads by the CPU time of the measuring thread (Linux `schedstat`): the machines these run
//! on are shared, and wall-clock time includes waiting for a core.
//!
//! Run: `cargo bench --no-default-features --bench psk_load`.

mod cpu_clock;
#[path = "../tests/psk_writer/mod.rs"]
mod psk_writer;

use std::hint::black_box;
use std::time::Duration;

use bonescope::io::{LoadOptions, psa, psk};
use cpu_clock::cpu_time;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::{Quat, Vec3};
use psk_writer::{Bone, Psa, Sequence, tube};

/// About 200k wedges, 200k points, 400k faces, two weights per point, 64 bones.
fn large_psk(with_normals: bool) -> Vec<u8> {
    let mut file = tube(400, 500, 64, 4000.0);
    file.face32 = true; // more than 65536 wedges
    if with_normals {
        file.normals = file.points.iter().map(|p| Vec3::new(0.0, p.y, p.z).normalize_or_zero()).collect();
    }
    file.to_bytes()
}

/// 100 bones × 200 sequences × 20 frames = 400k keys (12.8 MB of ANIMKEYS).
fn large_psa() -> Vec<u8> {
    let bones: Vec<Bone> = (0..100i32)
        .map(|b| Bone::new(&format!("bone{b}"), (b - 1).max(0), Quat::from_rotation_x(0.1), Vec3::X))
        .collect();
    let sequences = (0..200)
        .map(|s| Sequence { name: format!("seq{s}"), rate: 30.0, first_frame: s * 20, frames: 20, total_bones: 100 })
        .collect();
    let keys = (0..200 * 20 * 100).map(|i| (Vec3::splat(i as f32), Quat::from_rotation_z(i as f32 * 1e-4))).collect();
    Psa { bones, sequences, keys, ..Psa::default() }.to_bytes()
}

fn bench(c: &mut Criterion) {
    let opts = LoadOptions::default();
    let mut group = c.benchmark_group("psk");
    group.sample_size(20).measurement_time(Duration::from_secs(4)).warm_up_time(Duration::from_secs(1));
    for (label, bytes) in [("200k wedges", large_psk(false)), ("200k wedges + VTXNORMS", large_psk(true))] {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(format!("parse {label}"), |b| b.iter(|| psk::parse(black_box(&bytes)).unwrap()));
        group.bench_function(format!("load {label}"), |b| b.iter(|| psk::load(black_box(&bytes), &opts).unwrap()));
        group.bench_function(format!("load {label}, cpu time"), |b| {
            b.iter_custom(|iters| cpu_time(iters, || drop(psk::load(black_box(&bytes), &opts).unwrap())))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("psa");
    group.sample_size(20).measurement_time(Duration::from_secs(4)).warm_up_time(Duration::from_secs(1));
    let bytes = large_psa();
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("parse 400k keys", |b| b.iter(|| psa::parse(black_box(&bytes)).unwrap()));
    group.bench_function("load 400k keys, 200 sequences", |b| b.iter(|| psa::load(black_box(&bytes), &opts).unwrap()));
    group.bench_function("load 400k keys, 200 sequences, cpu time", |b| {
        b.iter_custom(|iters| cpu_time(iters, || drop(psa::load(black_box(&bytes), &opts).unwrap())))
    });
    group.finish();

    let Some(dir) = std::env::var_os("BONESCOPE_CORPUS").map(std::path::PathBuf::from) else {
        eprintln!("corpus benches skipped: BONESCOPE_CORPUS is not set");
        return;
    };
    let mut group = c.benchmark_group("corpus");
    group.sample_size(20).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500));
    for name in ["psk/examplemesh.psk", "psk/Suzanne.psk", "psa/pendulum.psa"] {
        let Ok(bytes) = std::fs::read(dir.join(name)) else { continue };
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        if name.ends_with(".psa") {
            group.bench_function(format!("load {name}"), |b| b.iter(|| psa::load(black_box(&bytes), &opts).unwrap()));
        } else {
            group.bench_function(format!("parse {name}"), |b| b.iter(|| psk::parse(black_box(&bytes)).unwrap()));
            group.bench_function(format!("load {name}"), |b| b.iter(|| psk::load(black_box(&bytes), &opts).unwrap()));
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
