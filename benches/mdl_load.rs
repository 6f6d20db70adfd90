//! Compiled GoldSrc model loading speed: the corpus's MDLs (`BONESCOPE_CORPUS`), each loaded whole — header and
//! tables, skeleton, submodels into bind-pose meshes, textures decoded from their palettes, every sequence's
//! run-length values into clips, and the companions (`manT.mdl`, `man01.mdl`) read beside it. Throughput is in
//! bytes of the main file per second; the `… cpu time` rows time the same loads by the measuring thread's CPU
//! time (Linux `schedstat`), as the machines these run on are shared.
//!
//! Run: `BONESCOPE_CORPUS=../shared/corpus cargo bench --no-default-features --bench mdl_load`. Side by side with
//! assimp's importer, whole process: `BENCH_CASES=i scripts/bench-vs-assimp.sh`.

mod cpu_clock;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use bonescope::io::{LoadOptions, mdl};
use cpu_clock::cpu_time;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let Some(corpus) = std::env::var_os("BONESCOPE_CORPUS").map(PathBuf::from) else {
        eprintln!("mdl_load: set BONESCOPE_CORPUS to bench the corpus's compiled models");
        return;
    };
    let dir = corpus.join("mdl/hl1/compiled_models");
    let opts = LoadOptions::default();
    let mut group = c.benchmark_group("mdl_load");
    group.sample_size(30).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    for name in ["man.mdl", "chrome_sphere.mdl", "alpha_test.mdl", "sequence_transitions.mdl"] {
        let path = dir.join(name);
        let Ok(bytes) = std::fs::read(&path) else { continue };
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(name, |b| b.iter(|| mdl::load(black_box(&bytes), Some(&path), &opts).unwrap()));
        group.bench_function(format!("{name} cpu time"), |b| {
            b.iter_custom(|iters| cpu_time(iters, || drop(mdl::load(black_box(&bytes), Some(&path), &opts).unwrap())))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
