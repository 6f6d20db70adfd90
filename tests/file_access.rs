//! The loaders read through the file-access interface: a model script tree held in memory (as the web page holds
//! dropped files) loads exactly as it does from the disk, with its folders, and also when the files were
//! dropped without their folders (references found by name).

mod common;

use std::path::{Path, PathBuf};

use bonescope::io::{self, Files, LoadOptions, MemoryFiles};
use bonescope::scene::Asset;

/// Every file under `root`, as (path relative to `root`, bytes).
fn tree(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push((path.strip_prefix(root).unwrap().to_path_buf(), std::fs::read(&path).unwrap()));
            }
        }
    }
    out
}

/// What a user compares between two loads of one character: bone names, clip names, meshes with their vertex
/// counts, each material's texture file, and the number of error-level warnings.
#[derive(Debug, PartialEq)]
struct Summary(Vec<String>, Vec<String>, Vec<(String, usize)>, Vec<Option<String>>, usize);

fn summary(asset: &Asset) -> Summary {
    let bones = asset.skeleton.names.clone();
    let clips = asset.clips.iter().map(|c| c.name.clone()).collect();
    let meshes = asset.meshes.iter().map(|m| (m.name.clone(), m.positions.len())).collect();
    let textures = asset
        .materials
        .iter()
        .map(|m| {
            m.texture
                .as_ref()
                .and_then(|t| t.path.as_ref())
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned())
        })
        .collect();
    let errors = asset.warnings.iter().filter(|w| w.is_error()).count();
    Summary(bones, clips, meshes, textures, errors)
}

fn load_in(files: MemoryFiles, path: &str) -> Asset {
    let opts = LoadOptions { files: Files::new(files), ..LoadOptions::default() };
    io::load_path(Path::new(path), &opts).unwrap()
}

#[test]
fn a_qc_tree_in_memory_loads_as_from_disk_with_and_without_its_folders() {
    let Some(corpus) = common::corpus() else { return };
    let root = corpus.join("qc/halflife");
    let from_disk = io::load_path(&root.join("models/headcrab/headcrab.qc"), &LoadOptions::default()).unwrap();

    let with_folders = MemoryFiles::new();
    for (path, bytes) in tree(&root) {
        with_folders.insert(Path::new("/halflife").join(path), bytes);
    }
    let in_memory = load_in(with_folders, "/halflife/models/headcrab/headcrab.qc");
    assert_eq!(summary(&in_memory), summary(&from_disk));
    assert!(
        !from_disk.clips.is_empty()
            && from_disk.materials.iter().any(|m| m.texture.as_ref().is_some_and(|t| t.path.is_some()))
    );

    // Dropped as loose files: `$include "../shared/…"` and the textures are found by name.
    let flat = MemoryFiles::new();
    for (path, bytes) in tree(&root) {
        flat.insert(Path::new("/").join(path.file_name().unwrap()), bytes);
    }
    let loose = load_in(flat, "/headcrab.qc");
    assert_eq!(summary(&loose), summary(&from_disk));
}

#[test]
fn a_gothic_mds_tree_in_memory_loads_as_from_disk() {
    let Some(corpus) = common::corpus() else { return };
    let root = corpus.join("mds/gothic");
    let from_disk = io::load_path(&root.join("Anims/BLOODFLY.MDS"), &LoadOptions::default()).unwrap();
    let files = MemoryFiles::new();
    for (path, bytes) in tree(&root) {
        files.insert(Path::new("/gothic").join(path), bytes);
    }
    let in_memory = load_in(files, "/gothic/Anims/BLOODFLY.MDS");
    assert_eq!(summary(&in_memory), summary(&from_disk));
    assert!(from_disk.clips.len() > 10);
}

#[test]
fn a_psk_with_its_psa_in_memory_binds_as_from_disk() {
    let Some(corpus) = common::corpus() else { return };
    let files = MemoryFiles::new();
    let psk = corpus.join("psk/hp2_skgnomeMesh.psk");
    let psa = corpus.join("psa/hp2_skgnomeAnims.psa");
    files.insert("/gnome.psk", std::fs::read(&psk).unwrap());
    files.insert("/gnome.psa", std::fs::read(&psa).unwrap());
    files.insert("/other.psa", &b"ANIMHEAD"[..]);
    let opts = LoadOptions { files: Files::new(files.clone()), ..LoadOptions::default() };
    let companions = io::animation_companions(&opts.files, Path::new("/gnome.psk"));
    assert_eq!(companions, [PathBuf::from("/gnome.psa")], "the animation of the same name, nothing else");
    let mut set = io::LoadedSet::default();
    for path in ["/gnome.psk", "/gnome.psa"] {
        set.add(io::load_path(Path::new(path), &opts), &opts);
    }
    let (asset, reports) = set.into_result().unwrap();
    assert_eq!(reports.len(), 1);
    assert_eq!(asset.clips.len(), 22);
}
