//! Opening a model from a VDFS volume, as a user does (`bonescope Anims.vdf BLOODFLY.MDS`): open the volume
//! (header and catalogue), read the script and every file it names out of it, build the character. Each
//! iteration starts from fresh load options, so the volume's catalogue is read again every time.
//!
//! Inputs: the corpus's Gothic tree (BLOODFLY.MDS, its body and 18 animation ASCs, 4.7 MB) packed into a volume
//! stored and compressed, beside the same tree as a folder, when `BONESCOPE_CORPUS` is set; and everywhere a
//! generated volume shaped like the game's `Anims.vdf` — 20,000 entries (compiled animations of a few kB) around
//! one small model — opened for its model and listed for the model picker.

#[path = "../tests/common/vdf_writer.rs"]
mod vdf_writer;

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};

use bonescope::io::{LoadOptions, load_path};
use vdf_writer::{VdfFile, write_vdf};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-bench-vdf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir.join(name)
}

/// An ASC of one bone: a triangle mesh, or `frames` frames of animation.
fn asc(frames: i32, mesh: bool) -> String {
    let mut s = format!(
        "*3DSMAX_ASCIIEXPORT\t110\n*SCENE {{\n\t*SCENE_FIRSTFRAME 0\n\t*SCENE_LASTFRAME {}\n\t*SCENE_FRAMESPEED 25\n\t\
         *SCENE_TICKSPERFRAME 192\n}}\n*HELPEROBJECT {{\n\t*NODE_NAME \"Bip01\"\n\t*NODE_TM {{\n\t\t*NODE_NAME \"Bip01\"\n\t\t\
         *TM_ROW0 1 0 0\n\t\t*TM_ROW1 0 1 0\n\t\t*TM_ROW2 0 0 1\n\t\t*TM_ROW3 0 0 0\n\t}}\n",
        frames.max(1) - 1
    );
    if !mesh {
        s += "\t*TM_ANIMATION {\n\t\t*NODE_NAME \"Bip01\"\n\t\t*CONTROL_POS_TRACK {\n";
        for f in 0..frames {
            s += &format!("\t\t\t*CONTROL_POS_SAMPLE {} {f} 0 0\n", f * 192);
        }
        s += "\t\t}\n\t}\n";
    }
    s += "}\n";
    if mesh {
        s += "*GEOMOBJECT {\n\t*NODE_NAME \"Body\"\n\t*NODE_PARENT \"Bip01\"\n\t*MESH {\n\t\t*MESH_NUMVERTEX 3\n\t\t\
              *MESH_NUMFACES 1\n\t\t*MESH_VERTEX_LIST {\n\t\t\t*MESH_VERTEX 0 0 0 0\n\t\t\t*MESH_VERTEX 1 10 0 0\n\t\t\t\
              *MESH_VERTEX 2 0 10 0\n\t\t}\n\t\t*MESH_FACE_LIST {\n\t\t\t*MESH_FACE 0: A: 0 B: 1 C: 2\n\t\t}\n\t}\n}\n";
    }
    s
}

/// A volume like the game's `Anims.vdf`: 20,000 compiled animations of 2–6 kB, and one model with its sources.
fn generated_volume() -> PathBuf {
    let mut files = Vec::new();
    for i in 0..20_000 {
        let size = 2048 + (i * 37) % 4096;
        let data: Vec<u8> = (0..size).map(|b| (b * 31 + i) as u8).collect();
        files.push(VdfFile::new(&format!("_WORK/DATA/ANIMS/_COMPILED/MODEL{}-T_ANI{i}.MAN", i % 40), data));
    }
    let mut mds = String::from(
        "Model (\"Gen\")\n{\n meshAndTree (\"GEN_BODY.ASC\" DONT_USE_MESH)\n registerMesh (\"GEN_BODY.ASC\")\n aniEnum\n {\n",
    );
    for a in 0..12 {
        mds += &format!("  ani (\"s_Ani{a}\" 1 \"s_Ani{a}\" 0.1 0.1 M. \"GEN_ANI{a}.ASC\" F 0 59)\n");
        files
            .push(VdfFile::new(&format!("_WORK/DATA/ANIMS/ASC_ANIMS/GEN/GEN_ANI{a}.ASC"), asc(60, false).into_bytes()));
    }
    mds += " }\n}\n";
    files.push(VdfFile::new("_WORK/DATA/ANIMS/GEN.MDS", mds.into_bytes()));
    files.push(VdfFile::new("_WORK/DATA/ANIMS/ASC_BODIES/GEN_BODY.ASC", asc(1, true).into_bytes()));
    let path = temp("Anims.vdf");
    std::fs::write(&path, write_vdf(&files, 0x2D65_BBB3, false, 0)).expect("write the volume");
    path
}

fn corpus_volumes(corpus: &Path) -> (PathBuf, PathBuf) {
    let root = corpus.join("mds/gothic/Anims");
    let mut files = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("the corpus tree").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(&root).expect("below the root").to_string_lossy().to_uppercase();
                files.push(VdfFile::new(&format!("_WORK/DATA/ANIMS/{relative}"), std::fs::read(&path).expect("read")));
            }
        }
    }
    let (stored, zipped) = (temp("Bloodfly.vdf"), temp("Bloodfly_Zipped.vdf"));
    std::fs::write(&stored, write_vdf(&files, 0x2D65_BBB3, false, 0)).expect("write");
    std::fs::write(&zipped, write_vdf(&files, 0x2D65_BBB3, true, 8192)).expect("write");
    (stored, zipped)
}

fn open(path: &Path) {
    let asset = load_path(path, &LoadOptions::default()).expect("the model loads");
    assert!(!asset.clips.is_empty());
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("vdf_open");
    group.sample_size(20);
    let volume = generated_volume();
    group.bench_function("generated 20k-entry volume: open GEN.MDS", |b| {
        b.iter(|| open(&volume.join("_WORK/DATA/ANIMS/GEN.MDS")))
    });
    group.bench_function("generated 20k-entry volume: list its models", |b| {
        b.iter(|| {
            let files = bonescope::files::Files::disk();
            assert_eq!(bonescope::source::models_in(&files, &volume).len(), 1);
        })
    });
    if let Some(corpus) = std::env::var_os("BONESCOPE_CORPUS").map(PathBuf::from) {
        let (stored, zipped) = corpus_volumes(&corpus);
        let script = "_WORK/DATA/ANIMS/BLOODFLY.MDS";
        group.bench_function("corpus BLOODFLY: from its folder", |b| {
            b.iter(|| open(&corpus.join("mds/gothic/Anims/BLOODFLY.MDS")))
        });
        group.bench_function("corpus BLOODFLY: from a volume", |b| b.iter(|| open(&stored.join(script))));
        group.bench_function("corpus BLOODFLY: from a compressed volume", |b| b.iter(|| open(&zipped.join(script))));
    } else {
        eprintln!("BONESCOPE_CORPUS is not set: the corpus's BLOODFLY is not measured");
    }
    group.finish();
    let _ = std::fs::remove_dir_all(volume.parent().expect("the temporary folder"));
}

criterion_group!(benches, bench);
criterion_main!(benches);
