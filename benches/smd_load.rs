//! SMD loading throughput (parse + weld + render-ready mesh) on a generated Source-style reference SMD.
//!
//! Two measurements of the same work: wall-clock time (criterion's default) and the CPU time of the process
//! (summed over its threads from `/proc/self/task/*/schedstat`), which stays meaningful on a machine shared
//! with other jobs, where a run may get a fraction of a core.

use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use bonescope::io::{LoadOptions, smd};

#[path = "smd_gen/mod.rs"]
mod smd_gen;

/// CPU time of this process in nanoseconds (Linux; 0 elsewhere, which makes the CPU-time figures meaningless
/// but harmless).
fn process_cpu_ns() -> u64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return 0 };
    tasks
        .filter_map(|t| t.ok())
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next().and_then(|n| n.parse::<u64>().ok()))
        .sum()
}

struct CpuTime;
static WALL: WallTime = WallTime;

impl Measurement for CpuTime {
    type Intermediate = u64;
    type Value = Duration;
    fn start(&self) -> u64 {
        process_cpu_ns()
    }
    fn end(&self, start: u64) -> Duration {
        Duration::from_nanos(process_cpu_ns().saturating_sub(start))
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        WALL.formatter()
    }
}

fn input() -> String {
    let text = smd_gen::source_smd(32 << 20);
    let asset = smd::load(text.as_bytes(), &LoadOptions::default()).expect("the generated file loads");
    eprintln!(
        "generated SMD: {:.1} MB, {} triangles, {} corners welded into {} vertices",
        text.len() as f64 / 1e6,
        asset.triangle_count(),
        asset.meshes[0].corner_vertices.len(),
        asset.vertex_count()
    );
    text
}

fn wall(c: &mut Criterion) {
    let text = input();
    let opts = LoadOptions::default();
    let mut group = c.benchmark_group("smd_wall");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("load_source_32MB", |b| b.iter(|| smd::load(std::hint::black_box(text.as_bytes()), &opts)));
    group.finish();
}

fn cpu(c: &mut Criterion<CpuTime>) {
    let text = input();
    let opts = LoadOptions::default();
    let mut group = c.benchmark_group("smd_cpu");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("load_source_32MB", |b| b.iter(|| smd::load(std::hint::black_box(text.as_bytes()), &opts)));
    group.finish();
}

criterion_group!(wall_benches, wall);
criterion_group! {
    name = cpu_benches;
    config = Criterion::default().with_measurement(CpuTime);
    targets = cpu
}
criterion_main!(wall_benches, cpu_benches);
