//! Smoke test of the viewer: the built binary runs under `xvfb-run` (a virtual X server; with Mesa's software
//! Vulkan or GL when there is no GPU), opens the built-in demo (and corpus models when BONESCOPE_CORPUS is
//! set), saves a screenshot with `--screenshot`, and exits. The screenshot must show something in the 3D
//! viewport: a good share of the pixels there differ from the viewport's background colour.
//!
//! Without `xvfb-run` the test fails when `CI` is set and is skipped (with a message) otherwise.

#![cfg(feature = "gui")]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Viewport backgrounds of the dark and light themes (`ui::views::viewport::background`).
const BACKGROUNDS: [[u8; 3]; 2] = [[34, 36, 41], [218, 222, 228]];

fn xvfb_available() -> bool {
    let found = Command::new("sh").args(["-c", "command -v xvfb-run"]).output().is_ok_and(|o| o.status.success());
    if !found {
        assert!(std::env::var_os("CI").is_none(), "xvfb-run is missing but CI is set: install xvfb (see README)");
        eprintln!("SKIPPED: xvfb-run not found; install the xvfb package to run the viewer smoke test");
    }
    found
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-ui-smoke-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the viewer on `files` and returns its output and the screenshot path.
fn screenshot(name: &str, files: &[&Path], extra: &[&str]) -> (Output, PathBuf) {
    screenshot_with_env(name, files, extra, &[])
}

/// [`screenshot`] with extra environment variables. One run at a time: `xvfb-run -a` picks a free display number
/// by looking, and two runs started together can pick the same one (then one fails to reach its X server).
fn screenshot_with_env(name: &str, files: &[&Path], extra: &[&str], env: &[(&str, &str)]) -> (Output, PathBuf) {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = scratch_dir(name);
    let png = dir.join("shot.png");
    let runtime = dir.join("runtime");
    std::fs::create_dir_all(&runtime).unwrap();
    let mut cmd = Command::new("xvfb-run");
    cmd.args(["-a", "-s", "-screen 0 1600x900x24"])
        .arg(env!("CARGO_BIN_EXE_bonescope"))
        .args(files)
        .arg("--screenshot")
        .arg(&png)
        .args(["--after-frames", "8", "--size", "1600x900"])
        .args(extra)
        // Keep the user's settings out of it (screenshot runs neither read nor write them anyway).
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env_remove("WAYLAND_DISPLAY")
        .envs(env.iter().copied());
    let out = cmd.output().expect("run xvfb-run");
    (out, png)
}

fn describe(out: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The share of pixels in the middle of the viewport that differ from its background, and that background.
fn viewport_content(png: &Path) -> (f32, [u8; 3]) {
    let img = image::open(png).unwrap_or_else(|e| panic!("{}: {e}", png.display())).to_rgb8();
    let (w, h) = img.dimensions();
    assert!(w >= 800 && h >= 450, "screenshot is {w}×{h}, expected about 1600×900");
    // Between the outliner (left), the inspector (right), the menu (top) and the timeline (bottom).
    let (x0, x1) = (w * 30 / 100, w * 62 / 100);
    let (y0, y1) = (h * 10 / 100, h * 58 / 100);
    let mut counts = std::collections::HashMap::new();
    for y in y0..y1 {
        for x in x0..x1 {
            *counts.entry(img.get_pixel(x, y).0).or_insert(0u32) += 1;
        }
    }
    let (&mode, _) = counts.iter().max_by_key(|(_, n)| **n).unwrap();
    let total = ((x1 - x0) * (y1 - y0)) as f32;
    let differ = counts
        .iter()
        .filter(|(c, _)| c.iter().zip(mode).any(|(a, b)| a.abs_diff(b) > 24))
        .map(|(_, n)| *n)
        .sum::<u32>() as f32;
    (differ / total, mode)
}

fn assert_shows_something(png: &Path, out: &Output) {
    assert!(png.exists(), "no screenshot written\n{}", describe(out));
    let (share, background) = viewport_content(png);
    assert!(
        BACKGROUNDS.iter().any(|b| b.iter().zip(background).all(|(x, y)| x.abs_diff(y) <= 3)),
        "the middle of the window is mostly {background:?}, not the viewport background: is the layout broken?"
    );
    assert!(share > 0.03, "only {:.1}% of the viewport differs from its background", share * 100.0);
}

/// On an OpenGL adapter (opened with WebGL2 limits, as in a browser without WebGPU) the renderer still draws
/// the character, reading the palettes from textures, and says so.
#[test]
fn on_opengl_the_renderer_draws_with_the_palette_in_textures() {
    if !xvfb_available() {
        return;
    }
    let (out, png) = screenshot_with_env("opengl", &[], &[], &[("WGPU_BACKEND", "gl")]);
    assert!(out.status.success(), "{}", describe(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("reads the palettes from textures"), "{}", describe(&out));
    assert!(!stderr.contains("drawing with the egui painter"), "{}", describe(&out));
    assert_shows_something(&png, &out);
}

#[test]
fn demo_screenshot_is_not_blank() {
    if !xvfb_available() {
        return;
    }
    let (out, png) = screenshot("demo", &[], &[]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_shows_something(&png, &out);
}

#[test]
fn corpus_models_render() {
    let files: Vec<(&str, Vec<PathBuf>)> = [
        ("holy_grail", vec!["smd/holy_grailref.smd"]),
        ("examplemesh", vec!["psk/examplemesh.psk", "psa/pendulum.psa"]),
    ]
    .into_iter()
    .filter_map(|(name, rel)| rel.iter().map(|r| common::corpus_file(r)).collect::<Option<Vec<_>>>().map(|f| (name, f)))
    .collect();
    if files.is_empty() {
        eprintln!("SKIPPED: set BONESCOPE_CORPUS to render corpus models");
        return;
    }
    if !xvfb_available() {
        return;
    }
    for (name, paths) in files {
        let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        let (out, png) = screenshot(name, &refs, &[]);
        assert!(out.status.success(), "{name}: {}", describe(&out));
        assert_shows_something(&png, &out);
    }
}

#[test]
fn a_broken_file_fails_the_run_but_still_shows_the_window() {
    if !xvfb_available() {
        return;
    }
    let dir = scratch_dir("broken");
    let empty = dir.join("empty.smd");
    std::fs::write(&empty, b"").unwrap();
    let (out, png) = screenshot("broken", &[&empty], &[]);
    assert!(!out.status.success(), "a failed load must fail a screenshot run\n{}", describe(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("empty.smd") && stderr.contains("empty"), "{}", describe(&out));
    assert!(png.exists(), "the window (with the error) is still captured\n{}", describe(&out));
}

#[test]
fn rig_debugging_views_render_on_the_demo() {
    if !xvfb_available() {
        return;
    }
    // Two mixer tracks, the bind-pose ghost, a selected bone's weights and the Diagnostics tab.
    let args = [
        "--time",
        "0.6",
        "--track",
        "Curl@0.4*0.5",
        "--ghost",
        "--select",
        "segment2",
        "--shading",
        "bone-weights",
        "--tab",
        "diagnostics",
        "--finding",
        "0",
    ];
    // The same views drawn by the egui painter (the fallback without a usable GPU path).
    let (out, png) = screenshot("rig-painter", &[], &[&args[..], &["--painter"]].concat());
    assert!(out.status.success(), "{}", describe(&out));
    assert_shows_something(&png, &out);
    let (out, png) = screenshot("rig", &[], &args);
    assert!(out.status.success(), "{}", describe(&out));
    assert_shows_something(&png, &out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Screenshot runs print the viewer's notices: none may say a name was not found.
    assert!(
        !stderr.contains("no clip named") && !stderr.to_lowercase().contains("no bone named"),
        "{}",
        describe(&out)
    );
    // A bad --track spec is reported, and the run still succeeds.
    let (out, _) = screenshot("rig-bad-track", &[], &["--track", "NoSuchClip"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no clip named 'NoSuchClip'"), "{}", describe(&out));
}

#[test]
fn a_select_of_a_bone_that_does_not_exist_fails_the_run() {
    if !xvfb_available() {
        return;
    }
    let (out, png) = screenshot("select-missing", &[], &["--select", "NoSuchBone"]);
    assert!(!out.status.success(), "--select of a missing bone must fail the run\n{}", describe(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--select: no bone named 'NoSuchBone'"),
        "{}",
        describe(&out)
    );
    assert!(png.exists(), "the window is still captured\n{}", describe(&out));
}

#[test]
fn the_recording_view_renders_the_demo_recording() {
    if !xvfb_available() {
        return;
    }
    let rec = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo_recording.bin");
    let (out, png) = screenshot("recording", &[&rec], &["--time", "2.0", "--tab", "recording"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_shows_something(&png, &out);
}

#[test]
fn model_script_characters_open_with_their_shapes_and_morphs() {
    let (Some(qc), Some(mms)) = (
        common::corpus_file("qc/halflife/models/headcrab/headcrab.qc"),
        common::corpus_file("mds/gothic/Anims/ASC_MORPHMESH/HEADS/HUM_HEAD_FATBALD/HUM_HEAD_FATBALD.MMS"),
    ) else {
        eprintln!("SKIPPED: set BONESCOPE_CORPUS to open the corpus model scripts");
        return;
    };
    if !xvfb_available() {
        return;
    }
    // The headcrab with its hitboxes, attachments and boxes, the dominant-bone legend, the Files tab's body groups.
    let qc_args = ["--clip", "run", "--time", "0.3", "--shading", "dominant-bone", "--tab", "files"];
    for painter in [false, true] {
        let extra: &[&str] = if painter { &["--painter"] } else { &[] };
        let (out, png) = screenshot("headcrab", &[&qc], &[&qc_args[..], extra].concat());
        assert!(out.status.success(), "{}", describe(&out));
        assert_shows_something(&png, &out);
        assert!(!String::from_utf8_lossy(&out.stderr).contains("No clip named"), "{}", describe(&out));
    }
    // The morph-mesh head mid-chew: the Morphs tab and the displacement shading.
    let mms_args = ["--clip", "T_EAT", "--time", "0.4", "--shading", "morph", "--tab", "morphs"];
    let (out, png) = screenshot("fatbald", &[&mms], &mms_args);
    assert!(out.status.success(), "{}", describe(&out));
    assert_shows_something(&png, &out);
}

/// `--morph NAME=WEIGHT` sets a target by hand in the window as `render` and `pose` do: the corpus VTA cube with
/// its one flex at 1 is drawn stretched, unlike the cube at the clip's weight 0.
#[test]
fn morph_weights_from_the_command_line_reach_the_viewport() {
    let Some(vta) = common::corpus_file("vta/bst_Cube_NoArmature.vta") else { return };
    if !xvfb_available() {
        return;
    }
    let (out, plain) = screenshot("morph_off", &[&vta], &["--time", "0"]);
    assert!(out.status.success(), "{}", describe(&out));
    let (out, morphed) = screenshot("morph_on", &[&vta], &["--time", "0", "--morph", "Key 1=1"]);
    assert!(out.status.success(), "{}", describe(&out));
    let (a, b) = (image::open(&plain).unwrap().to_rgb8(), image::open(&morphed).unwrap().to_rgb8());
    let (w, h) = a.dimensions();
    let (mut differ, mut total) = (0u32, 0u32);
    for y in h * 10 / 100..h * 58 / 100 {
        for x in w * 30 / 100..w * 62 / 100 {
            total += 1;
            differ += u32::from(a.get_pixel(x, y).0.iter().zip(b.get_pixel(x, y).0).any(|(p, q)| p.abs_diff(q) > 24));
        }
    }
    assert!(differ * 10 > total, "only {differ} of {total} viewport pixels changed with the flex at 1");
}
