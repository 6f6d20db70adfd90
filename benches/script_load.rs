//! Opening a whole character from its model script: parse the QC, load every SMD it names (in parallel),
//! merge, cut and name the clips.
//!
//! Two inputs: the corpus's Half-Life headcrab (`headcrab.qc`, 23 sequences, 2.6 MB of SMD) when
//! `BONESCOPE_CORPUS` is set, and a generated character of the same shape (a reference and 23 animation SMDs of
//! 29 bones) that runs everywhere. Each is measured with rayon's default pool and with a one-thread pool, so the
//! parallel loading's gain is visible side by side.

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};

use bonescope::io::{LoadOptions, load_path};

const BONES: usize = 29;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a parent folder")).expect("create the folder");
    std::fs::write(path, text).expect("write the file");
}

/// A generated character like the headcrab: 29 bones, ~480 triangles, 23 sequences of 20–380 frames.
fn generated_character() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-bench-script-{}", std::process::id()));
    let mut nodes = String::from("version 1\nnodes\n");
    for b in 0..BONES {
        nodes += &format!("{b:3} \"Bip01 Bone{b}\" {}\n", b as i32 - 1);
    }
    nodes += "end\n";
    let mut reference = nodes.clone() + "skeleton\ntime 0\n";
    for b in 0..BONES {
        reference +=
            &format!("{b:3} 0.000000 0.000000 {:.6} 0.000000 0.000000 0.000000\n", if b == 0 { 0.0 } else { 1.5 });
    }
    reference += "end\ntriangles\n";
    for t in 0..480 {
        let b = t % BONES;
        let z = 1.5 * b as f32;
        for (dx, dy) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)] {
            if dx == 0.0 && dy == 0.0 {
                reference += "skin.bmp\n";
            }
            reference += &format!(
                "{b:3} {:.6} {:.6} {z:.6} 0.000000 0.000000 1.000000 {dx:.6} {dy:.6}\n",
                dx + t as f32 * 0.01,
                dy
            );
        }
    }
    reference += "end\n";
    write(&dir.join("reference.smd"), &reference);
    let mut qc = String::from("$modelname \"gen.mdl\"\n$cd \"./\"\n$body \"studio\" \"reference\"\n");
    let lengths = [31, 31, 31, 35, 29, 31, 19, 51, 23, 23, 31, 31, 31, 21, 201, 201, 31, 61, 21, 31, 66, 380, 2];
    for (s, frames) in lengths.iter().enumerate() {
        let mut anim = nodes.clone() + "skeleton\n";
        for f in 0..*frames {
            anim += &format!("time {f}\n");
            for b in 0..BONES {
                let a = f as f32 * 0.01 + b as f32 * 0.001;
                anim +=
                    &format!("{b:3} {a:.6} 0.000000 {:.6} {a:.6} {:.6} 0.000000\n", if b == 0 { 0.0 } else { 1.5 }, -a);
            }
        }
        anim += "end\n";
        write(&dir.join(format!("anim{s:02}.smd")), &anim);
        qc += &format!("$sequence \"seq{s:02}\" \"anim{s:02}\" fps 30 loop {{ event 1004 {} \"step\" }}\n", frames / 2);
    }
    write(&dir.join("gen.qc"), &qc);
    dir.join("gen.qc")
}

fn bench(c: &mut Criterion) {
    let mut inputs: Vec<(String, PathBuf)> = vec![("generated 23-sequence QC".into(), generated_character())];
    if let Some(corpus) = std::env::var_os("BONESCOPE_CORPUS") {
        inputs.push(("headcrab.qc".into(), PathBuf::from(corpus).join("qc/halflife/models/headcrab/headcrab.qc")));
    }
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a one-thread pool");
    let mut group = c.benchmark_group("script_load");
    group.sample_size(20);
    for (name, path) in &inputs {
        let asset = load_path(path, &LoadOptions::default()).expect("the character loads");
        eprintln!(
            "{name}: {} clips, {} bones, {} triangles",
            asset.clips.len(),
            asset.skeleton.len(),
            asset.triangle_count()
        );
        group.bench_function(format!("{name}, all cores"), |b| {
            b.iter(|| load_path(path, &LoadOptions::default()).expect("loads"))
        });
        group.bench_function(format!("{name}, one thread"), |b| {
            b.iter(|| one_thread.install(|| load_path(path, &LoadOptions::default()).expect("loads")))
        });
    }
    group.finish();
    if let Some((_, generated)) = inputs.first()
        && let Some(dir) = generated.parent()
    {
        let _ = std::fs::remove_dir_all(dir);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
