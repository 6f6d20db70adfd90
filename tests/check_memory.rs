//! `bonescope check` on the flat folder of the issue — 151 `<name>Mesh.psk` and 120 `<name>Anims.psa`, each a
//! real-shaped character (3,000 vertices on 40 bones, 6 sequences of 30 frames) — with the default jobs: each
//! animation on its own character, and the peak memory of the process under 1 GB (it grew with meshes ×
//! animations and aborted at 3.9 GB when every animation was bound to every mesh). The peak is printed
//! (`cargo test --test check_memory -- --nocapture`). `BONESCOPE_CHECK_TREES_DIR=DIR` keeps the folder.

mod check_tree;
#[path = "check_tree/flat.rs"]
mod flat;
#[path = "check_tree/peak.rs"]
mod peak;

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

#[test]
fn the_flat_folder_of_the_issue_checks_in_bounded_memory() {
    let (root, keep) = match std::env::var_os("BONESCOPE_CHECK_TREES_DIR") {
        Some(dir) => (PathBuf::from(dir).join("flat-271"), true),
        None => (check_tree::temp_dir("memory"), false),
    };
    let dir = root.join("Characters");
    let _ = std::fs::remove_dir_all(&dir);
    let written = flat::issue_folder(&dir).unwrap();
    assert_eq!((written.meshes, written.animations), (151, 120));
    let json = root.join("report.json");
    let (code, peak) = peak::run_measured(
        Command::new(env!("CARGO_BIN_EXE_bonescope"))
            .args(["check", "--fail-on", "never", "--json"])
            .arg(&json)
            .arg(&dir),
    );
    assert_eq!(code, 0);
    eprintln!(
        "271 files ({:.1} MB): peak resident memory of `bonescope check` {:.1} MB",
        written.bytes as f64 / 1e6,
        peak as f64 / 1e6
    );
    assert!(peak < 1_000_000_000, "peak {peak} bytes");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let characters = report["characters"].as_array().unwrap();
    assert_eq!(characters.len(), 151);
    let paired: usize = characters.iter().map(|c| c["pairing"].as_array().map_or(0, Vec::len)).sum();
    assert_eq!(paired, 120, "each animation on one character");
    assert!(
        characters.iter().flat_map(|c| c["pairing"].as_array().into_iter().flatten()).all(|p| p["method"] == "name")
    );
    assert_eq!(report["summary"]["findings"]["error"], 0);
    assert!(report["summary"]["by_kind"].get("unmatched_track").is_none());
    if !keep {
        let _ = std::fs::remove_dir_all(&root);
    }
}
