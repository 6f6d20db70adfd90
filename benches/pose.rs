//! Per-frame cost of the animation controller on a 1,000-bone skeleton (generated here: a branching tree, every
//! bone keyed in translation and rotation at 30 fps for 4 s): sampling + blending with 1, 2 and 4 tracks, the
//! to-root + palette pass, and the whole frame (advance + evaluate).
//!
//! Run with `cargo bench --no-default-features --bench pose`. Besides the time per frame, each result shows
//! the cost per element ("ns/elem"): per bone × track for `sample_blend`, per bone for the others; that is the
//! figure the targets are stated in (≤ 20 ns per bone per track, ≤ 10 ns per bone for to-root + palette).
//!
//! `BONESCOPE_BENCH_CLOCK=cpu` measures the benchmark thread's CPU time instead of wall time (from
//! `/proc/thread-self/schedstat`, Linux only, updated once per scheduler tick, hence the long flat samples):
//! on a machine shared with other work, wall time also counts the time the thread waited for a core.

use std::f32::consts::TAU;
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bonescope::anim::controller::Controller;
use bonescope::anim::{PlaybackType, local_to_model, skinning_palette};
use bonescope::scene::{BoneTrack, Clip, Curve, Skeleton, Transform};
use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use glam::{Mat4, Quat, Vec3};

const BONES: usize = 1000;
const FPS: f32 = 30.0;
const SECONDS: f32 = 4.0;

/// A tree: bone i hangs off a bone a few places before it, so chains and branches mix like a real rig.
fn skeleton() -> Skeleton {
    let mut s = Skeleton::default();
    for i in 0..BONES {
        let parent = if i == 0 { None } else { Some(i - 1 - (i * 7919) % i.min(5)) };
        let offset = Vec3::new(0.1 * (i % 3) as f32, 0.5, 0.05 * (i % 5) as f32);
        s.push(format!("bone{i:04}"), parent, Transform::from_translation_rotation(offset, Quat::IDENTITY));
    }
    s.recompute_inverse_bind();
    s
}

fn clip(skeleton: &Skeleton, seed: f32) -> Clip {
    let frames = (SECONDS * FPS) as usize + 1;
    let times: Vec<f32> = (0..frames).map(|f| f as f32 / FPS).collect();
    let tracks = (0..skeleton.len())
        .map(|bone| {
            let phase = seed + bone as f32 * 0.37;
            let bind = skeleton.bind_local[bone].translation;
            BoneTrack {
                bone_name: skeleton.names[bone].clone(),
                translation: Curve::linear(
                    times.clone(),
                    times.iter().map(|t| bind + Vec3::splat(0.02 * (TAU * t / SECONDS + phase).sin())).collect(),
                ),
                rotation: Curve::linear(
                    times.clone(),
                    times
                        .iter()
                        .map(|t| {
                            let a = TAU * t / SECONDS + phase;
                            Quat::from_euler(glam::EulerRot::XYZ, 0.6 * a.sin(), 0.4 * a.cos(), 0.3 * (2.0 * a).sin())
                        })
                        .collect(),
                ),
                scale: Curve::default(),
            }
        })
        .collect();
    Clip {
        name: format!("clip{seed}"),
        duration: SECONDS,
        frame_rate: FPS,
        frame_count: frames as u32,
        tracks,
        callback_keys: Vec::new(),
        ..Clip::default()
    }
}

fn controller(tracks: usize) -> Controller {
    let skeleton = Arc::new(skeleton());
    let mut ctrl = Controller::new(skeleton.clone());
    for i in 0..tracks {
        let set = ctrl.add_set(clip(&skeleton, i as f32), PlaybackType::Loop);
        let t = ctrl.add_track(Some(set)).unwrap();
        ctrl.set_weight(t, 1.0 / tracks as f32).unwrap();
        ctrl.set_position(t, 0.3 * i as f64).unwrap();
    }
    ctrl
}

fn bench(c: &mut Criterion<Clock>) {
    let mut group = c.benchmark_group("pose");
    group
        .sample_size(20)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(6));
    for tracks in [1usize, 2, 4] {
        let mut ctrl = controller(tracks);
        let mut local = vec![Transform::IDENTITY; BONES];
        group.throughput(Throughput::Elements((BONES * tracks) as u64));
        group.bench_function(format!("sample_blend/{tracks}_tracks"), |b| {
            b.iter(|| {
                // A frame's step, so each iteration samples somewhere new; advance is per track, not per
                // bone, and costs next to nothing here.
                ctrl.advance(1.0 / 60.0, |_| {});
                ctrl.evaluate_local(black_box(&mut local)).unwrap();
            })
        });
    }

    let mut ctrl = controller(1);
    let skeleton = ctrl.skeleton().clone();
    let mut local = vec![Transform::IDENTITY; BONES];
    ctrl.evaluate_local(&mut local).unwrap();
    let mut to_root = vec![Mat4::IDENTITY; BONES];
    let mut palette = vec![Mat4::IDENTITY; BONES];
    group.throughput(Throughput::Elements(BONES as u64));
    group.bench_function("to_root_palette/separate_passes", |b| {
        b.iter(|| {
            local_to_model(&skeleton.parents, black_box(&local), &mut to_root).unwrap();
            skinning_palette(&skeleton.inverse_bind, &to_root, black_box(&mut palette)).unwrap();
        })
    });
    let plan = bonescope::anim::controller::MatrixPlan::new(&skeleton);
    // Most rigs never scale a bone and the pass skips the multiply then; the scaled case is measured too.
    let scaled: Vec<Transform> = local.iter().map(|t| Transform { scale: Vec3::new(1.0, 1.2, 0.9), ..*t }).collect();
    for (name, local) in [("controller", &local), ("controller_scaled_bones", &scaled)] {
        group.bench_function(format!("to_root_palette/{name}"), |b| {
            b.iter(|| {
                bonescope::anim::controller::to_root_and_palette(
                    &plan,
                    black_box(local),
                    &mut to_root,
                    black_box(&mut palette),
                )
                .unwrap();
            })
        });
    }

    for tracks in [1usize, 2, 4] {
        let mut ctrl = controller(tracks);
        group.throughput(Throughput::Elements(BONES as u64));
        group.bench_function(format!("frame/{tracks}_tracks"), |b| {
            b.iter(|| {
                ctrl.advance(1.0 / 60.0, |_| {});
                ctrl.evaluate(&mut local, &mut to_root, black_box(&mut palette)).unwrap();
            })
        });
    }
    group.finish();
}

/// Wall time, or (with `BONESCOPE_BENCH_CLOCK=cpu`) the thread's CPU time; both in nanoseconds.
struct Clock {
    cpu: bool,
}

impl Clock {
    fn from_env() -> Self {
        Self { cpu: std::env::var("BONESCOPE_BENCH_CLOCK").is_ok_and(|v| v == "cpu") }
    }

    fn now(&self) -> u64 {
        if self.cpu {
            // First field of schedstat: nanoseconds this thread has run.
            std::fs::read_to_string("/proc/thread-self/schedstat")
                .ok()
                .and_then(|s| s.split_whitespace().next()?.parse().ok())
                .unwrap_or(0)
        } else {
            ORIGIN.with(|o| o.elapsed().as_nanos() as u64)
        }
    }
}

thread_local! {
    static ORIGIN: Instant = Instant::now();
}

impl Measurement for Clock {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        self.now()
    }
    fn end(&self, start: u64) -> u64 {
        self.now().saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &PerElement
    }
}

/// Times in ns/µs/ms; throughput as nanoseconds per element (the unit of the targets).
struct PerElement;

impl ValueFormatter for PerElement {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = match typical {
            t if t < 1e3 => (1.0, "ns"),
            t if t < 1e6 => (1e-3, "µs"),
            t if t < 1e9 => (1e-6, "ms"),
            _ => (1e-9, "s"),
        };
        values.iter_mut().for_each(|v| *v *= factor);
        unit
    }

    fn scale_throughputs(&self, _typical: f64, throughput: &Throughput, values: &mut [f64]) -> &'static str {
        let per = match *throughput {
            Throughput::Elements(n) | Throughput::ElementsAndBytes { elements: n, .. } => n,
            Throughput::Bytes(n) | Throughput::BytesDecimal(n) | Throughput::Bits(n) => n,
        }
        .max(1) as f64;
        values.iter_mut().for_each(|v| *v /= per);
        "ns/elem"
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(Clock::from_env());
    targets = bench
}
criterion_main!(benches);
