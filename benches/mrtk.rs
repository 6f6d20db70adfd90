//! MRTK recordings: load throughput (MB/s) of generated recordings in both 1.1 key layouts, write throughput,
//! and the cost of evaluating a whole recording (two hands × 27 joints, gaze, camera: 395 curves) at a time,
//! both scrubbing forward at 60 fps (segment hints hit) and jumping to random times (binary searches).
//!
//! `cargo bench --no-default-features --bench mrtk`

use std::hint::black_box;
use std::time::Duration;

use bonescope::anim::recording::{RecordingPose, evaluate};
use bonescope::io::LoadOptions;
use bonescope::io::mrtk::load;
use bonescope::io::mrtk_write::write;
use bonescope::scene::samples::demo_recording::{demo_recording, recording_with};
use bonescope::scene::{KeyLayout, Keyframe, RecordingLayout};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn load_and_write(c: &mut Criterion) {
    // A minute of recording at 60 Hz, as MRTK writes it (8-byte keys), and the same with 28-byte Hermite keys.
    let short = recording_with(60.0, 60.0);
    let mut full = short.clone();
    full.layout = RecordingLayout { key_layout: KeyLayout::Full, ..RecordingLayout::V1_1 };
    for curve in full.hands.iter_mut().flatten().flat_map(|h| h.joints.iter_mut()).flat_map(|j| j.curves_mut()) {
        for k in &mut curve.keys {
            *k = Keyframe::hermite(k.time, k.value, 0.1, 0.1);
        }
    }
    let mut group = c.benchmark_group("mrtk");
    group.sample_size(20).measurement_time(Duration::from_secs(4));
    for (name, rec) in [("8-byte keys", &short), ("28-byte keys", &full)] {
        let bytes = write(rec).unwrap();
        eprintln!("{name}: {:.1} MB", bytes.len() as f64 / 1e6);
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(format!("load 1.1 {name}"), |b| {
            b.iter(|| load(black_box(&bytes), &LoadOptions::default()).unwrap())
        });
        group.bench_function(format!("write 1.1 {name}"), |b| b.iter(|| write(black_box(rec)).unwrap()));
    }
    group.finish();
}

fn evaluation(c: &mut Criterion) {
    let rec = demo_recording();
    let mut group = c.benchmark_group("mrtk evaluate");
    group.sample_size(50).measurement_time(Duration::from_secs(3));
    let mut pose = RecordingPose::default();
    let mut frame = 0u32;
    group.bench_function("full recording, scrubbing at 60 fps", |b| {
        b.iter(|| {
            frame = (frame + 1) % 240;
            evaluate(&rec, black_box(frame as f32 / 60.0), &mut pose);
        })
    });
    let mut seed = 0x1234_5678u32;
    group.bench_function("full recording, random times", |b| {
        b.iter(|| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            evaluate(&rec, black_box((seed % 4000) as f32 / 1000.0), &mut pose);
        })
    });
    black_box(&pose);
    group.finish();
}

criterion_group!(benches, load_and_write, evaluation);
criterion_main!(benches);
