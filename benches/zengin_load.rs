//! Compiled Gothic loading speed: a large soft-skin model mesh (`.MDM`) on its hierarchy, a long animation
//! (`.MAN`) read and turned into a clip on a skeleton (the engine's frame and the sources' frame), the compiler's
//! node order and checksum of a source skeleton, and the corpus samples when `BONESCOPE_CORPUS` is set. The large
//! files are written here as the engine writes them. Throughput is in bytes of file per second.
//!
//! Run: `cargo bench --no-default-features --bench zengin_load`.

use std::hint::black_box;
use std::time::Duration;

use bonescope::io::zengin::compiler::{Frame, NodeMap, compiled_node_order, node_list_checksum};
use bonescope::io::zengin::{man, mdh, mdm};
use bonescope::io::{LoadOptions, load_format};
use bonescope::scene::{Format, Skeleton, Transform};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::{Quat, Vec3};

fn chunk(id: u16, body: &[u8]) -> Vec<u8> {
    let mut out = id.to_le_bytes().to_vec();
    out.extend((body.len() as u32).to_le_bytes());
    out.extend(body);
    out
}

fn floats(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend(v.to_le_bytes());
    }
}

/// A chain of `bones` nodes (`BIP01`, `BIP01 B1`, …) 10 units apart.
fn chain(bones: usize) -> Skeleton {
    let mut s = Skeleton::default();
    for b in 0..bones {
        let name = if b == 0 { "BIP01".to_owned() } else { format!("BIP01 B{b}") };
        s.push(name, b.checked_sub(1), Transform::from_translation_rotation(Vec3::Y * 10.0, Quat::IDENTITY));
    }
    s.recompute_inverse_bind();
    s
}

/// A soft-skin mesh: a grid of `side × side` positions, two triangles per cell, one wedge per position, two
/// weights per vertex on the chain's nodes.
fn large_mdm(side: usize, nodes: usize, checksum: u32) -> Vec<u8> {
    let count = side * side;
    let mut data = Vec::new();
    for i in 0..count {
        floats(&mut data, &[(i % side) as f32, (i / side) as f32 * 0.1, 0.0]);
    }
    let tri_offset = data.len() as u32;
    let mut triangles = 0u32;
    for y in 0..side - 1 {
        for x in 0..side - 1 {
            let i = (y * side + x) as u16;
            for w in [i, i + 1, i + side as u16, i + 1, i + side as u16 + 1, i + side as u16] {
                data.extend(w.to_le_bytes());
            }
            triangles += 2;
        }
    }
    let wedge_offset = data.len() as u32;
    for i in 0..count {
        floats(&mut data, &[0.0, 0.0, 1.0, (i % side) as f32 / side as f32, (i / side) as f32 / side as f32]);
        data.extend((i as u16).to_le_bytes());
        data.extend(0u16.to_le_bytes());
    }
    let mut proto = 0x905u16.to_le_bytes().to_vec();
    proto.extend((data.len() as u32).to_le_bytes());
    proto.extend(&data);
    proto.push(1);
    for v in [0, count as u32, 0, 0] {
        proto.extend(v.to_le_bytes());
    }
    let mut spans = [(0u32, 0u32); 10];
    spans[0] = (tri_offset, triangles);
    spans[1] = (wedge_offset, count as u32);
    for (o, c) in spans {
        proto.extend(o.to_le_bytes());
        proto.extend(c.to_le_bytes());
    }
    proto
        .extend(b"ZenGin Archive\nver 1\nzCArchiverGeneric\nBINARY\nsaveGame 0\nEND\nobjects 1        \nEND\n\nSKIN\0");
    let mut object = 0x9c03u16.to_le_bytes().to_vec();
    object.extend(0u32.to_le_bytes());
    object.extend(b"%\0zCMaterial\0SKIN\0\0\x80\x80\x80\xff\0\0\x70\x42SKIN.TGA\0");
    proto.extend((object.len() as u32 + 4).to_le_bytes());
    proto.extend(object);
    proto.push(0);
    let mut weights = Vec::new();
    for i in 0..count {
        let node = (i / side * (nodes - 1) / side) as u8;
        weights.extend(2u32.to_le_bytes());
        for (n, w) in [(node, 0.75f32), (node.saturating_add(1).min(nodes as u8 - 1), 0.25)] {
            floats(&mut weights, &[w, (i % side) as f32, 0.0, 0.0]);
            weights.push(n);
        }
    }
    let mut skin = (weights.len() as u32).to_le_bytes().to_vec();
    skin.extend(weights);
    skin.extend(0u32.to_le_bytes());
    skin.extend(0u16.to_le_bytes());
    let mut file = chunk(0xD000, &0x0403_0506u32.to_le_bytes());
    let mut list = checksum.to_le_bytes().to_vec();
    list.extend(1u16.to_le_bytes());
    file.extend(chunk(0xD030, &list));
    file.extend(chunk(0xE100, &4u32.to_le_bytes()));
    file.extend(chunk(0xB100, &proto));
    file.extend(chunk(0xB1FF, &skin));
    file.extend(chunk(0xE110, &[]));
    file.extend(chunk(0xD040, &[]));
    file
}

/// `frames` frames of `nodes` nodes.
fn large_man(nodes: u32, frames: u32, checksum: u32) -> Vec<u8> {
    let mut header = 12u16.to_le_bytes().to_vec();
    header.extend(b"S_BENCH\n");
    for v in [1u32, frames, nodes] {
        header.extend(v.to_le_bytes());
    }
    floats(&mut header, &[25.0, 25.0, -100.0, 200.0 / 65535.0, -1.0, -1.0, -1.0, 1.0, 1.0, 1.0]);
    header.extend(b"S_BENCH\n");
    let mut samples = checksum.to_le_bytes().to_vec();
    for n in 0..nodes {
        samples.extend(n.to_le_bytes());
    }
    for i in 0..nodes * frames {
        for v in [32767u16, (i % 60000) as u16, 32767, 40000, 40000, 40000] {
            samples.extend(v.to_le_bytes());
        }
    }
    let mut file = chunk(0xA000, &[]);
    file.extend(chunk(0xA020, &header));
    file.extend(chunk(0xA090, &samples));
    file
}

fn bench(c: &mut Criterion) {
    let opts = LoadOptions::default();
    let skeleton = chain(60);
    let hierarchy = mdh::compiled_from(&skeleton);
    let checksum = hierarchy.checksum;

    let mut group = c.benchmark_group("zengin");
    group.sample_size(20).measurement_time(Duration::from_secs(4)).warm_up_time(Duration::from_secs(1));

    // 256 × 256 = 65536 positions (the wedge index limit), 130k triangles.
    let mdm_bytes = large_mdm(256, 60, checksum);
    group.throughput(Throughput::Bytes(mdm_bytes.len() as u64));
    group.bench_function("read mdm 65k soft-skin vertices", |b| b.iter(|| mdm::read(black_box(&mdm_bytes)).unwrap()));
    let mm = mdm::read(&mdm_bytes).unwrap();
    let map = NodeMap { frame: Frame::Engine, bones: (0..60).collect(), checksum };
    group.bench_function("build mdm 65k soft-skin vertices on its hierarchy", |b| {
        b.iter(|| {
            let target = mdm::Target { skeleton: &skeleton, map: &map, placeholder: false };
            mdm::build(black_box(&mm), &target, "skin", 0, &opts)
        })
    });

    // 60 nodes × 4000 frames = 240k samples (2.9 MB).
    let man_bytes = large_man(60, 4000, checksum);
    group.throughput(Throughput::Bytes(man_bytes.len() as u64));
    group.bench_function("read man 240k samples", |b| b.iter(|| man::read(black_box(&man_bytes)).unwrap()));
    let a = man::read(&man_bytes).unwrap();
    for frame in [Frame::Engine, Frame::Source] {
        let node = |n: usize| skeleton.names.get(n).map(|name| (name.clone(), n == 0));
        group.bench_function(format!("clip man 240k samples, {frame:?} frame"), |b| {
            b.iter(|| man::clip(black_box(&a), &man::Binding { frame, node: &node }))
        });
    }
    group.bench_function("load man 240k samples (no hierarchy)", |b| {
        b.iter(|| load_format(Format::ZenMan, black_box(&man_bytes), &opts).unwrap())
    });
    group.throughput(Throughput::Elements(skeleton.len() as u64));
    group.bench_function("compiled node order and checksum, 60 bones", |b| {
        b.iter(|| {
            let order = compiled_node_order(black_box(&skeleton));
            node_list_checksum(order.iter().map(|&i| skeleton.names[i].as_str()))
        })
    });
    group.finish();

    if let Some(dir) = std::env::var_os("BONESCOPE_CORPUS") {
        let mut group = c.benchmark_group("zengin corpus");
        group.sample_size(30).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500));
        for name in ["smoke_waterpipe.mdm", "mesh0.mrm", "morph0.mmb", "G1/HUMANS-S_FISTRUN.MAN"] {
            let bytes = std::fs::read(std::path::Path::new(&dir).join("zengin").join(name)).unwrap();
            let format = bonescope::io::zengin::sniff(&bytes).unwrap();
            group.throughput(Throughput::Bytes(bytes.len() as u64));
            group.bench_function(name, |b| b.iter(|| load_format(format, black_box(&bytes), &opts).unwrap()));
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
