//! Trees of generated files for the `check` tests: SMD references and animations with known defects, and the
//! helpers to run the command on them.
#![allow(dead_code)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `bonescope ARGS…`; returns the exit code, stdout and stderr.
pub fn bonescope(args: &[&str]) -> (i32, String, String) {
    bonescope_in(None, args)
}

/// Runs `bonescope ARGS…` in folder `dir` (the current one when `None`).
pub fn bonescope_in(dir: Option<&Path>, args: &[&str]) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bonescope"));
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let out = command.args(args).output().expect("run bonescope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-check-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub const BONES: [(&str, i32); 3] = [("root", -1), ("mid", 0), ("tip", 1)];

pub fn nodes(extra: &[&str]) -> String {
    let mut s = String::from("version 1\nnodes\n");
    for (i, (name, parent)) in BONES.iter().enumerate() {
        let _ = writeln!(s, "{i} \"{name}\" {parent}");
    }
    for (k, name) in extra.iter().enumerate() {
        let _ = writeln!(s, "{} \"{name}\" -1", BONES.len() + k);
    }
    s.push_str("end\n");
    s
}

/// A reference SMD: a strip of quads up the Y axis, 10 units per bone, each row weighted to the bone at its
/// height, the material named `texture`.
pub fn reference(texture: &str) -> String {
    let mut s = nodes(&[]);
    s.push_str("skeleton\ntime 0\n0 0 0 0 0 0 0\n1 0 10 0 0 0 0\n2 0 10 0 0 0 0\nend\ntriangles\n");
    let rows = 6;
    let corner = |s: &mut String, x: usize, y: usize| {
        let bone = (y * 10 / 20).min(2);
        let (fx, fy) = (x as f32 * 4.0, y as f32 * 5.0);
        let _ = writeln!(
            s,
            "{bone} {fx:.3} {fy:.3} 0.000 0 0 1 {:.3} {:.3} 1 {bone} 1.0",
            x as f32,
            y as f32 / rows as f32
        );
    };
    for y in 0..rows {
        for x in 0..2 {
            for tri in [[(x, y), (x + 1, y), (x + 1, y + 1)], [(x, y), (x + 1, y + 1), (x, y + 1)]] {
                let _ = writeln!(s, "{texture}");
                for (cx, cy) in tri {
                    corner(&mut s, cx, cy);
                }
            }
        }
    }
    s.push_str("end\n");
    s
}

/// An animation SMD of `frames` frames: the mid bone sways; `tip_at(frame)` is the tip's height above mid.
/// `extra` bones (not in the reference) are keyed too.
pub fn animation(frames: usize, tip_at: impl Fn(usize) -> f32, extra: &[&str]) -> String {
    let mut s = nodes(extra);
    s.push_str("skeleton\n");
    for f in 0..frames {
        let sway = (f as f32 * 0.3).sin() * 0.2;
        let _ = writeln!(s, "time {f}\n0 0 0 0 0 0 0\n1 0 10 0 0 0 {sway:.4}\n2 0 {:.3} 0 0 0 0", tip_at(f));
        for k in 0..extra.len() {
            let _ = writeln!(s, "{} 0 0 0 0 0 0", BONES.len() + k);
        }
    }
    s.push_str("end\n");
    s
}

pub fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The tree: two clean characters (one of them from a QC), and one defect per folder.
pub fn defect_tree(root: &Path) {
    let steady = |_| 10.0;
    // Clean: a reference, its texture, two animations.
    write(&root.join("clean/hero_ref.smd"), &reference("hero.bmp"));
    write(&root.join("clean/hero.bmp"), "BM");
    write(&root.join("clean/walk.smd"), &animation(12, steady, &[]));
    write(&root.join("clean/run.smd"), &animation(8, steady, &[]));
    // A torn clip: the tip flies off 1,000 units at frames 5 and 6.
    write(&root.join("torn/crab_ref.smd"), &reference("crab.bmp"));
    write(&root.join("torn/crab.bmp"), "BM");
    write(&root.join("torn/idle.smd"), &animation(10, steady, &[]));
    write(&root.join("torn/explode.smd"), &animation(10, |f| if f == 5 || f == 6 { 1000.0 } else { 10.0 }, &[]));
    // A texture that is not there.
    write(&root.join("untextured/ghoul_ref.smd"), &reference("ghoul_skin.bmp"));
    write(&root.join("untextured/ghoul_idle.smd"), &animation(5, steady, &[]));
    // A track for a bone the skeleton does not have.
    write(&root.join("unmatched/imp_ref.smd"), &reference("imp.bmp"));
    write(&root.join("unmatched/imp.bmp"), "BM");
    write(&root.join("unmatched/imp_wave.smd"), &animation(6, steady, &["Tail"]));
    // A file cut off in the middle of a triangle.
    let full = reference("x.bmp");
    let cut = full.find("triangles").unwrap() + 120;
    write(&root.join("broken/half.smd"), &full[..cut]);
    // A QC: its mesh and one animation are there, the other animation is not; a clean QC beside it.
    write(&root.join("scripted/body.smd"), &reference("knight.bmp"));
    write(&root.join("scripted/knight.bmp"), "BM");
    write(&root.join("scripted/idle.smd"), &animation(10, steady, &[]));
    write(
        &root.join("scripted/knight.qc"),
        "$modelname \"knight.mdl\"\n$body \"studio\" \"body\"\n$sequence idle \"idle\" fps 30 loop\n$sequence attack \"attack\" fps 30\n",
    );
    // Files check leaves alone.
    write(&root.join("notes.txt"), "not a model");
}

/// The page as headless chromium renders it (its script run), or `None` (the check skipped, said on stderr)
/// when Debian's `chromium` is not installed.
pub fn rendered_dom(page: &Path) -> Option<String> {
    let Some(chromium) = ["chromium", "chromium-browser"]
        .into_iter()
        .find(|c| Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success()))
    else {
        eprintln!("skipped the browser check: chromium is not installed (scripts/install-system-deps.sh installs it)");
        return None;
    };
    let out = Command::new(chromium)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions"])
        // The page inflates its report asynchronously: let it finish before the DOM is dumped.
        .arg("--virtual-time-budget=10000")
        .arg(format!("--user-data-dir={}", page.with_file_name("chromium-profile").display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium");
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}
