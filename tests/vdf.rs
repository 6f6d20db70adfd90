//! VDFS volumes as folders: the corpus's two sample volumes (stored and Union-compressed) list and read what
//! ZenKit's `tests/TestVfs.cc` says they hold, and a volume made here from the corpus's Gothic tree opens its
//! BLOODFLY as the folder does — alone, compressed, and mounted with others as the engine mounts a `Data`
//! folder (the newest volume's file wins).

mod common;

#[path = "common/vdf_writer.rs"]
mod vdf_writer;

use std::path::{Path, PathBuf};

use bonescope::files::{Files, Kind};
use bonescope::io::{self, LoadOptions};
use bonescope::scene::Asset;
use vdf_writer::{VdfFile, write_vdf};

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-vdf-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn names(files: &Files, dir: &Path) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = files.list(dir).unwrap().into_iter().map(|e| (e.name, e.is_folder)).collect();
    out.sort();
    out
}

#[test]
fn the_corpus_volumes_hold_what_zenkit_says_stored_and_compressed_alike() {
    let Some(corpus) = common::corpus() else { return };
    let files = Files::disk();
    let mut contents: Vec<Vec<(String, Vec<u8>)>> = Vec::new();
    for (name, time, zipped) in
        [("basic.vdf", "2021-04-27 11:24:58", false), ("basic_zipped.vdf", "2026-01-24 19:24:52", true)]
    {
        let root = corpus.join("zengin").join(name);
        assert_eq!(files.kind(&root).unwrap(), Kind::Folder, "{name} opens as a folder");
        let volume = bonescope::files::vdf::Volume::parse(&std::fs::read(&root).unwrap()).unwrap();
        assert_eq!(volume.header.time_text(), time);
        assert_eq!(volume.header.zipped, zipped);
        assert_eq!((volume.header.entry_count, volume.header.file_count), (7, 5));
        // TestVfs.cc: three entries at the root, `licenses` a folder of two, `gpl` a folder of two.
        assert_eq!(
            names(&files, &root),
            [("CONFIG.YML".into(), false), ("LICENSES".into(), true), ("README.MD".into(), false)]
        );
        assert_eq!(names(&files, &root.join("licenses")), [("GPL".into(), true), ("MIT.MD".into(), false)]);
        assert_eq!(
            names(&files, &root.join("LICENSES/gpl")),
            [("GPL-3.0.MD".into(), false), ("LGPL-3.0.MD".into(), false)]
        );
        // Any case, trailing spaces ignored, found by name anywhere; nothing for what is not there.
        assert_eq!(files.kind(&root.join("licEnSES/GPL/gpl-3.0.md ")).unwrap(), Kind::File { len: 34915 });
        assert_eq!(files.find_under(&root, "lGpL-3.0.Md"), Some(root.join("LICENSES/GPL/LGPL-3.0.MD")));
        assert_eq!(files.find_under(&root, "nonexistent"), None);
        assert!(files.kind(&root.join("licEnSES/GPL/nonexistent")).is_err());
        assert!(files.kind(&root.join("licenses/gpl/lgpl")).is_err());
        let config = files.read(&root.join("config.yml")).unwrap();
        assert_eq!(&*config, b"# Some random file I guess :D\nname: John Smith\nage: 33");
        let mut all = Vec::new();
        for path in
            ["CONFIG.YML", "README.MD", "LICENSES/MIT.MD", "LICENSES/GPL/GPL-3.0.MD", "LICENSES/GPL/LGPL-3.0.MD"]
        {
            let bytes = files.read(&root.join(path)).unwrap().to_vec();
            let Kind::File { len } = files.kind(&root.join(path)).unwrap() else { panic!("{path} is a file") };
            assert_eq!(bytes.len() as u64, len, "{name}: {path}");
            all.push((path.to_owned(), bytes));
        }
        assert!(String::from_utf8_lossy(&all[3].1).contains("GNU GENERAL PUBLIC LICENSE"));
        // A header read inflates only the first block of a compressed file.
        assert_eq!(files.read_prefix(&root.join("LICENSES/GPL/GPL-3.0.MD"), 40).unwrap(), all[3].1[..40]);
        contents.push(all);
    }
    assert_eq!(contents[0], contents[1], "the compressed volume holds the same bytes");
}

/// Every file of the corpus's Gothic tree, as volume entries under `_WORK/DATA/ANIMS` (as the game keeps them).
fn gothic_tree(corpus: &Path) -> Vec<VdfFile> {
    let root = corpus.join("mds/gothic/Anims");
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
                out.push(VdfFile::new(
                    &format!("_WORK/DATA/ANIMS/{}", relative.to_uppercase()),
                    std::fs::read(&path).unwrap(),
                ));
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// What a user compares between two loads of one character: bones (names, parents), clips (name, length,
/// keys), meshes (name, vertices, triangles) and the error-level warnings.
#[derive(Debug, PartialEq)]
struct Summary {
    bones: Vec<(String, Option<usize>)>,
    clips: Vec<(String, u32, usize)>,
    meshes: Vec<(String, usize, usize)>,
    errors: usize,
}

fn summary(asset: &Asset) -> Summary {
    Summary {
        bones: asset.skeleton.names.iter().cloned().zip(asset.skeleton.parents.iter().copied()).collect(),
        clips: asset
            .clips
            .iter()
            .map(|c| {
                (c.name.clone(), (c.duration * 1000.0).round() as u32, c.tracks.iter().map(|t| t.rotation.len()).sum())
            })
            .collect(),
        meshes: asset.meshes.iter().map(|m| (m.name.clone(), m.positions.len(), m.indices.len() / 3)).collect(),
        errors: asset.warnings.iter().filter(|w| w.is_error()).count(),
    }
}

#[test]
fn bloodfly_opens_from_a_volume_as_from_its_folder() {
    let Some(corpus) = common::corpus() else { return };
    let folder = io::load_path(&corpus.join("mds/gothic/Anims/BLOODFLY.MDS"), &LoadOptions::default()).unwrap();
    let expected = summary(&folder);
    assert!(expected.clips.len() > 10 && !expected.meshes.is_empty() && expected.bones.len() > 10);
    let dir = temp_dir("bloodfly");
    let tree = gothic_tree(&corpus);
    for (name, zipped) in [("Anims.vdf", false), ("Anims_Zipped.vdf", true)] {
        let archive = dir.join(name);
        std::fs::write(&archive, write_vdf(&tree, 0x2D65_BBB3, zipped, 8192)).unwrap();
        // Any case inside the volume, as the engine.
        let mds = archive.join("_work/data/anims/Bloodfly.mds");
        let from_volume = io::load_path(&mds, &LoadOptions::default()).unwrap();
        assert_eq!(summary(&from_volume), expected, "{name}");
        assert_eq!(from_volume.path.as_deref(), Some(mds.as_path()));
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_data_folder_mounts_its_volumes_together_the_newest_winning() {
    let Some(corpus) = common::corpus() else { return };
    let data = temp_dir("data").join("Data");
    std::fs::create_dir_all(&data).unwrap();
    let tree = gothic_tree(&corpus);
    // The bodies in one volume, the animations and the script in another.
    let (bodies, rest): (Vec<VdfFile>, Vec<VdfFile>) = tree.into_iter().partition(|f| f.path.contains("ASC_BODIES"));
    std::fs::write(data.join("Meshes.vdf"), write_vdf(&bodies, 0x2D65_0000, false, 0)).unwrap();
    std::fs::write(data.join("Anims.vdf"), write_vdf(&rest, 0x2D65_0000, true, 4096)).unwrap();
    let script = Path::new("_WORK/DATA/ANIMS/BLOODFLY.MDS");
    let together = data.join("*.vdf").join(script);
    let full = io::load_path(&together, &LoadOptions::default()).unwrap();
    let folder = io::load_path(&corpus.join("mds/gothic/Anims/BLOODFLY.MDS"), &LoadOptions::default()).unwrap();
    assert_eq!(summary(&full), summary(&folder));
    // Alone, the animation volume has no body: the model says so.
    let alone = io::load_path(&data.join("Anims.vdf").join(script), &LoadOptions::default()).unwrap();
    assert!(alone.warnings.iter().any(|w| w.is_error()), "the body is missing from Anims.vdf alone");
    // A patch volume, newer, with a script of one animation: it wins over Anims.vdf's, even though its name
    // sorts first; an older one does not.
    let patched = "Model (\"Bloodfly\")\n{\n meshAndTree (\"Blo_Body.asc\" DONT_USE_MESH)\n registerMesh (\"Blo_Body.ASC\")\n \
                   aniEnum\n {\n  ani (\"s_FistRun\" 1 \"s_FistRun\" 0.0 0.0 M. \"Blo_Ambient_M01.asc\" F 0 59)\n }\n}\n"
        .to_owned();
    let patch = [VdfFile::new("_WORK/DATA/ANIMS/BLOODFLY.MDS", patched.into_bytes())];
    std::fs::write(data.join("A_Patch.vdf"), write_vdf(&patch, 0x2D66_0000, false, 0)).unwrap();
    let patched_load = io::load_path(&together, &LoadOptions::default()).unwrap();
    let script_clips = |a: &Asset| a.model_script.as_ref().map(|s| s.sequences.len()).unwrap_or_default();
    assert_eq!(script_clips(&patched_load), 1, "the newer volume's script is the one read");
    assert!(script_clips(&full) > 1);
    std::fs::write(data.join("A_Patch.vdf"), write_vdf(&patch, 0x2D64_0000, false, 0)).unwrap();
    let older_patch = io::load_path(&together, &LoadOptions::default()).unwrap();
    assert_eq!(script_clips(&older_patch), script_clips(&full), "an older volume does not override");
    std::fs::remove_dir_all(data.parent().unwrap()).ok();
}
