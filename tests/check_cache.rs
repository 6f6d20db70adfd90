//! `bonescope check --cache FILE`: a second run over an unchanged tree reuses every character's findings (the
//! work it does is asserted, not its time: timings on a shared machine are noise; BENCHMARKS.md has the figures,
//! measured side by side); a changed file, or a file added beside a character's, re-checks only the
//! characters that read those folders; other options or another file as the cache are handled; the reports are
//! the same with and without the cache.

mod check_tree;

use std::path::Path;
use std::time::Instant;

use check_tree::{animation, bonescope, reference, temp_dir, write};

/// `characters` folders of a reference and 8 animations of `frames` frames each.
fn tree(dir: &Path, characters: usize, frames: usize) {
    let (mesh, clip) = (reference("hero.bmp"), animation(frames, |_| 10.0, &[]));
    for c in 0..characters {
        let folder = dir.join(format!("c{c:03}"));
        write(&folder.join("hero_ref.smd"), &mesh);
        write(&folder.join("hero.bmp"), "BM");
        for a in 0..8 {
            write(&folder.join(format!("anim{a}.smd")), &clip);
        }
    }
}

/// Runs `check DIR --cache CACHE --json JSON`; returns the exit code, the JSON text and stderr's cache line.
fn run(dir: &Path, cache: &Path, json: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["check", dir.to_str().unwrap(), "--cache", cache.to_str().unwrap()];
    args.extend(["--json", json.to_str().unwrap(), "--fail-on", "never"]);
    args.extend_from_slice(extra);
    let (code, out, err) = bonescope(&args);
    let line = err.lines().find(|l| l.starts_with("cache:") && l.contains("reused")).unwrap_or_default().to_owned();
    assert!(code == 0 || code == 2, "{out}\n{err}");
    (code, std::fs::read_to_string(json).unwrap_or_default(), line)
}

#[test]
fn an_unchanged_tree_is_answered_from_the_cache() {
    let root = temp_dir("cache-speed");
    let dir = root.join("tree");
    // 2,700 files: 300 characters of 9 files.
    tree(&dir, 300, 300);
    let (cache, json) = (root.join("check.cache"), root.join("report.json"));
    let started = Instant::now();
    let (_, first, line) = run(&dir, &cache, &json, &[]);
    let cold = started.elapsed();
    assert_eq!(line, "cache: 0 group(s) reused, 300 checked");
    let started = Instant::now();
    let (_, second, line) = run(&dir, &cache, &json, &[]);
    let warm = started.elapsed();
    assert_eq!(line, "cache: 300 group(s) reused, 0 checked");
    assert_eq!(first, second, "the same report from the cache");
    eprintln!("2,700 files: first run {cold:?}, second {warm:?} ({:.1}×)", cold.as_secs_f64() / warm.as_secs_f64());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_change_rechecks_only_the_characters_that_read_it() {
    let root = temp_dir("cache-change");
    let dir = root.join("tree");
    tree(&dir, 6, 10);
    let (cache, json) = (root.join("check.cache"), root.join("report.json"));
    let (_, clean, line) = run(&dir, &cache, &json, &[]);
    assert_eq!(line, "cache: 0 group(s) reused, 6 checked");
    // One animation tears now: its character alone is checked again, and the tear is in the report.
    write(&dir.join("c002/anim3.smd"), &animation(10, |f| if f == 4 { 900.0 } else { 10.0 }, &[]));
    let (_, torn, line) = run(&dir, &cache, &json, &[]);
    assert_eq!(line, "cache: 5 group(s) reused, 1 checked");
    let errors =
        |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap()["summary"]["findings"]["error"].clone();
    assert_eq!((errors(&clean), errors(&torn)), (0.into(), 1.into()));
    // The same report as a run without the cache.
    let plain = root.join("plain.json");
    bonescope(&["check", dir.to_str().unwrap(), "--json", plain.to_str().unwrap(), "--fail-on", "never"]);
    assert_eq!(std::fs::read_to_string(&plain).unwrap(), torn);
    // A texture taken away changes no file the character reads, but its folder: that character is checked.
    std::fs::remove_file(dir.join("c004/hero.bmp")).unwrap();
    let (_, untextured, line) = run(&dir, &cache, &json, &[]);
    assert_eq!(line, "cache: 5 group(s) reused, 1 checked");
    assert!(untextured.contains("missing_texture"));
    // Other options give other answers: everything is checked again.
    let (_, _, line) = run(&dir, &cache, &json, &["--fps", "24"]);
    assert_eq!(line, "cache: 0 group(s) reused, 6 checked");
    // A file that is not a cache is refused, not overwritten.
    let (code, _, _) = run(&dir, &plain, &json, &[]);
    assert_eq!(code, 2);
    assert_eq!(std::fs::read_to_string(&plain).unwrap(), torn, "the JSON report given as --cache is left alone");
    // A damaged cache is started afresh.
    std::fs::write(&cache, "{\"format\": \"bonescope-check-cache\", \"units\": 7}").unwrap();
    let (code, _, line) = run(&dir, &cache, &json, &[]);
    assert_eq!((code, line.as_str()), (0, "cache: 0 group(s) reused, 6 checked"));
    let (_, _, line) = run(&dir, &cache, &json, &[]);
    assert_eq!(line, "cache: 6 group(s) reused, 0 checked", "and rewritten");
    let _ = std::fs::remove_dir_all(&root);
}
