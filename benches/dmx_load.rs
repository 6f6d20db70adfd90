//! DMX loading against loading the same character as SMD: one generated character (64 bones, 12,288
//! triangles, a 120-frame animation) written as SMD (reference + animation), as keyvalues2 DMX and as binary DMX
//! (versions 2, 5 and 9), each loaded from memory with the format's loader. With `BONESCOPE_CORPUS` set, also
//! the corpus's walk (binary 9, gzip-compressed, 154 bones) compressed and not.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use bonescope::io::{LoadOptions, dmx, smd};

#[path = "../tests/common/dmx_writer.rs"]
mod dmx_writer;

use dmx_writer::{animation, character_with, dmx_animation, dmx_model, smd_animation, smd_reference};

fn bench(c: &mut Criterion) {
    let ch = character_with(64, 16, 4);
    let anim = animation(&ch, "walk", 120, 30.0, 0.0);
    let smd_ref = smd_reference(&ch).into_bytes();
    let smd_anim = smd_animation(&ch, &anim).into_bytes();
    let model = dmx_model(&ch, &[]);
    let animation_doc = dmx_animation(&ch, &anim);
    let opts = LoadOptions::default();
    let check = dmx::load(model.kv2().as_bytes(), &opts).expect("the generated model loads");
    eprintln!(
        "generated character: {} bones, {} triangles, {} vertices; animation {} frames",
        check.skeleton.len(),
        check.triangle_count(),
        check.vertex_count(),
        anim.frames.len()
    );
    let inputs: Vec<(String, Vec<u8>, Vec<u8>)> = vec![
        ("SMD".into(), smd_ref, smd_anim),
        ("DMX keyvalues2".into(), model.kv2().into_bytes(), animation_doc.kv2().into_bytes()),
        ("DMX binary 2".into(), model.binary(2), animation_doc.binary(2)),
        ("DMX binary 5".into(), model.binary(5), animation_doc.binary(5)),
        ("DMX binary 9".into(), model.binary(9), animation_doc.binary(9)),
    ];
    let mut group = c.benchmark_group("dmx_load");
    group.sample_size(10);
    for (name, reference, anim) in &inputs {
        eprintln!("{name}: model {:.2} MB, animation {:.2} MB", reference.len() as f64 / 1e6, anim.len() as f64 / 1e6);
        let load = |bytes: &[u8]| {
            if name == "SMD" { smd::load(bytes, &opts) } else { dmx::load(bytes, &opts) }
        };
        group.throughput(Throughput::Bytes(reference.len() as u64));
        group.bench_function(format!("model/{name}"), |b| b.iter(|| load(std::hint::black_box(reference)).unwrap()));
        group.throughput(Throughput::Bytes(anim.len() as u64));
        group.bench_function(format!("animation/{name}"), |b| b.iter(|| load(std::hint::black_box(anim)).unwrap()));
    }
    if let Some(corpus) = std::env::var_os("BONESCOPE_CORPUS") {
        let gz = std::fs::read(std::path::Path::new(&corpus).join("dmx/bst_walkn.dmx.gz")).expect("the walk");
        let plain = dmx::decompress(&gz).expect("decompresses").into_owned();
        group.throughput(Throughput::Bytes(plain.len() as u64));
        group.bench_function("corpus walkn binary 9", |b| {
            b.iter(|| dmx::load(std::hint::black_box(&plain), &opts).unwrap())
        });
        group.bench_function("corpus walkn binary 9 gzip", |b| {
            b.iter(|| dmx::load(std::hint::black_box(&gz), &opts).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
