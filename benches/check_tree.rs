//! `bonescope check` on generated trees of the shape of the public Half-Life model sources (benches/check_gen) at
//! ¼, ½, 1 and 2× (1×: 2,700 SMDs, ~300 MB, 17 % reference meshes, textures missing), and on the issue's flat
//! folder of a UE1 game's characters (151 `<name>Mesh.psk`, 120 `<name>Anims.psa`: tests/check_tree/flat.rs), the
//! release binary run as a user runs it, without thumbnails. The flat folder's peak resident memory is measured on
//! the process (`wait4`) and printed before its timing. The trees are written once under the target folder and
//! kept between runs (delete `check-trees` there to regenerate). `BONESCOPE_CHECK_SCALES=0.25,1` picks the scales
//! of the Half-Life trees (`none`: none).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

#[path = "check_gen/mod.rs"]
mod check_gen;
#[path = "../tests/check_tree/flat.rs"]
mod flat;
#[path = "../tests/check_tree/peak.rs"]
mod peak;

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
    if scales.is_empty() {
        return;
    }
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

/// The issue's flat folder: each animation paired with its own character by name, one character at a time.
fn check_flat_folder(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("check-trees/flat-271");
    let done = root.join(".complete");
    if !done.exists() {
        let _ = std::fs::remove_dir_all(&root);
        let written = flat::issue_folder(&root).unwrap();
        eprintln!(
            "flat folder: {} PSKs, {} PSAs, {:.1} MB",
            written.meshes,
            written.animations,
            written.bytes as f64 / 1e6
        );
        std::fs::write(&done, written.bytes.to_string()).unwrap();
    }
    let run = || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_bonescope"));
        command.args(["check", "--fail-on", "never"]).arg(&root);
        command
    };
    let (code, bytes) = peak::run_measured(&mut run());
    assert_eq!(code, 0);
    eprintln!("flat folder (271 files): peak resident memory {:.1} MB", bytes as f64 / 1e6);
    let mut group = c.benchmark_group("check_flat_folder");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(30));
    group.bench_function("271_files", |b| {
        b.iter(|| {
            let status = run().stdout(Stdio::null()).stderr(Stdio::null()).status().unwrap();
            assert!(status.success());
        });
    });
    group.finish();
}

criterion_group!(benches, check_flat_folder, check_tree);
criterion_main!(benches);
