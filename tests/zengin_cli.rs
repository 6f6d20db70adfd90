//! The command line on compiled Gothic files: `info --json` on each kind, and `check` over a folder of them,
//! which makes a character of each model with the meshes and animations named after it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use bonescope::io::zengin::mdh;
use bonescope::io::{LoadOptions, load_path};

fn bonescope(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_bonescope")).args(args).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    })
}

fn corpus(relative: &str) -> Option<PathBuf> {
    common::corpus_file(&format!("zengin/{relative}"))
}

#[test]
fn info_json_reads_every_kind() {
    let Some(mesh) = corpus("mesh0.mrm") else { return };
    let files = [
        mesh,
        corpus("morph0.mmb").unwrap(),
        corpus("smoke_waterpipe.mdm").unwrap(),
        corpus("hierarchy0.mdh").unwrap(),
    ];
    for f in &files {
        let v = bonescope(&["info", "--json", f.to_str().unwrap()]);
        let report = &v[0];
        assert!(report["format"].as_str().unwrap_or_default().contains("Gothic compiled"), "{f:?}: {report}");
    }
    let v = bonescope(&["info", "--json", files[1].to_str().unwrap()]);
    assert_eq!(v[0]["clips"].as_array().map(Vec::len), Some(4), "{}", v[0]);
}

/// A folder as a game's `_compiled` holds it: a model's hierarchy (compiled here from its source body), an
/// animation of that model, and files of other models.
fn compiled_folder(tag: &str) -> Option<PathBuf> {
    let body = load_path(&corpus("HUM_BODY_NAKED0.ASC")?, &LoadOptions::default()).unwrap();
    let dir = std::env::temp_dir().join(format!("bonescope-zengin-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("HUMANS.MDH"), mdh::write(&mdh::compiled_from(&body.skeleton))).unwrap();
    std::fs::copy(corpus("G1/HUMANS-S_FISTRUN.MAN").unwrap(), dir.join("HUMANS-S_FISTRUN.MAN")).unwrap();
    for f in ["mesh0.mrm", "morph0.mmb", "secretdoor.mdm"] {
        std::fs::copy(corpus(f).unwrap(), dir.join(f.to_uppercase())).unwrap();
    }
    Some(dir)
}

fn character<'a>(report: &'a serde_json::Value, main: &Path) -> &'a serde_json::Value {
    report["characters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["main"].as_str().is_some_and(|m| Path::new(m) == main))
        .unwrap_or_else(|| panic!("no character {main:?} in {report}"))
}

#[test]
fn check_makes_a_character_of_each_model_with_its_animations() {
    let Some(dir) = compiled_folder("check") else { return };
    let json = dir.join("check.json");
    let _ = Command::new(env!("CARGO_BIN_EXE_bonescope"))
        .args(["check", dir.to_str().unwrap(), "--json", json.to_str().unwrap()])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let humans = character(&report, &dir.join("HUMANS.MDH"));
    assert_eq!(humans["bones"], 34, "{humans}");
    assert_eq!(humans["clips"], serde_json::json!(["S_FISTRUN"]), "{humans}");
    assert!(humans["files"].as_array().unwrap().iter().any(|f| f.as_str().unwrap().ends_with("HUMANS-S_FISTRUN.MAN")));
    for other in ["MESH0.MRM", "MORPH0.MMB", "SECRETDOOR.MDM"] {
        let c = character(&report, &dir.join(other));
        assert_eq!(c["loaded"], true, "{c}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
