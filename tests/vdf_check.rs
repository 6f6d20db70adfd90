//! `bonescope check` walks a VDFS volume as it walks a folder: the corpus's Gothic tree packed into a volume
//! (stored, and Union-compressed) gives the report the tree's folder gives, file paths aside; a broken volume
//! is a file that did not load, named.

mod common;

#[path = "common/vdf_writer.rs"]
mod vdf_writer;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use vdf_writer::{VdfFile, write_vdf};

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-vdf-check-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `check PATH --json`: the report, with `prefix` (the folder or the volume's inside) written `ROOT`.
fn check(path: &Path, prefix: &Path, out: &Path) -> Value {
    let status = Command::new(env!("CARGO_BIN_EXE_bonescope"))
        .args(["check", path.to_str().unwrap(), "--json", out.to_str().unwrap(), "--fail-on", "never"])
        .output()
        .unwrap();
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    let text = std::fs::read_to_string(out).unwrap().replace(prefix.to_str().unwrap(), "ROOT");
    let mut report: Value = serde_json::from_str(&text).unwrap();
    report["roots"] = Value::Null;
    report
}

#[test]
fn check_over_a_volume_is_check_over_its_folder() {
    let Some(corpus) = common::corpus() else { return };
    let folder = corpus.join("mds/gothic/Anims");
    let mut tree = Vec::new();
    let mut stack = vec![folder.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(&folder).unwrap().to_string_lossy().into_owned();
                tree.push(VdfFile::new(&format!("_WORK/DATA/ANIMS/{relative}"), std::fs::read(&path).unwrap()));
            }
        }
    }
    let dir = temp_dir("tree");
    let expected = check(&folder, &folder, &dir.join("folder.json"));
    assert!(expected["summary"]["loaded"].as_u64().unwrap() >= 2, "{}", expected["summary"]);
    for (name, zipped) in [("Anims.vdf", false), ("Zipped.vdf", true)] {
        let volume = dir.join(name);
        std::fs::write(&volume, write_vdf(&tree, 0x2D65_BBB3, zipped, 8192)).unwrap();
        let report = check(&volume, &volume.join("_WORK/DATA/ANIMS"), &dir.join("volume.json"));
        assert_eq!(report, expected, "{name}");
        // A folder holding the volume walks into it too.
        let report = check(&dir, &volume.join("_WORK/DATA/ANIMS"), &dir.join("parent.json"));
        assert_eq!(report["summary"]["loaded"], expected["summary"]["loaded"]);
        std::fs::remove_file(&volume).unwrap();
    }
    // A volume that does not open is a file that did not load, with the reason.
    let broken = dir.join("Broken.vdf");
    std::fs::write(&broken, b"PSVDSC_V2.00 is not at byte 256 here").unwrap();
    let report = check(&dir, Path::new("/nothing"), &dir.join("broken.json"));
    let characters = report["characters"].as_array().unwrap();
    assert_eq!(characters.len(), 1, "{report}");
    assert_eq!(characters[0]["loaded"], false);
    let message = characters[0]["findings"][0]["message"].as_str().unwrap();
    assert!(message.contains("Broken.vdf") && message.contains("header"), "{message}");
    std::fs::remove_dir_all(&dir).ok();
}
