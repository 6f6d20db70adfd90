//! `bonescope check` on generated trees of the Half-Life model sources' shape (benches/check_gen) at ¼, ½, 1
//! and 2× (1×: 2,700 SMDs, ~300 MB, 17 % reference meshes, textures missing), the release binary run as a user
//! runs it, without thumbnails. The trees are written once under the target folder and kept between runs
//! (delete `check-trees` there to regenerate). `BONESCOPE_CHECK_SCALES=0.25,1` picks the scales.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

#[path = "check_gen/mod.rs"]
mod check_gen;

fn tree(scale: f64) -> (PathBuf, u64) {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("check-trees/x{scale}"));
    let done = root.join(".complete");
    if let Ok(bytes) = std::fs::read_to_string(&done) {
        return (root, bytes.trim().parse().unwrap_or(0));
    }
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let written = check_gen::generate(&root, scale).unwrap();
    eprintln!(
        "x{scale}: {} SMDs ({} references), {} QCs, {:.1} MB",
        written.smds,
        written.references,
        written.qcs,
        written.bytes as f64 / 1e6
    );
    std::fs::write(&done, written.bytes.to_string()).unwrap();
    (root, written.bytes)
}

fn check_tree(c: &mut Criterion) {
    let scales: Vec<f64> = std::env::var("BONESCOPE_CHECK_SCALES")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![0.25, 0.5, 1.0, 2.0]);
    let mut group = c.benchmark_group("check_tree");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(20));
    for scale in scales {
        let (root, bytes) = tree(scale);
        group.throughput(Throughput::Bytes(bytes));
        group.bench_with_input(BenchmarkId::from_parameter(format!("x{scale}")), &root, |b, root| {
            b.iter(|| {
                let status = Command::new(env!("CARGO_BIN_EXE_bonescope"))
                    .args(["check", "--fail-on", "never"])
                    .arg(root)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .unwrap();
                assert!(status.success());
            });
        });
    }
    group.finish();
}

criterion_group!(benches, check_tree);
criterion_main!(benches);
