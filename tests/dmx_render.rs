//! DMX in a render (lavapipe where there is no GPU): a model's delta states move its vertices on screen when the
//! corpus's flex controls are bound to it and a control is dialled in, and the corpus's walk draws its skeleton
//! in another place mid-clip than at its start. Runs the `bonescope render` command, as a user would. Without
//! an adapter the tests are skipped with a message, except under CI, where that is a failure.

mod common;
#[path = "common/dmx_writer.rs"]
mod dmx_writer;

use std::path::{Path, PathBuf};
use std::process::Command;

fn out_dir(tag: &str) -> PathBuf {
    // `BONESCOPE_KEEP_DMX_RENDERS=DIR` keeps the files and images there (for looking at them).
    let dir = match std::env::var_os("BONESCOPE_KEEP_DMX_RENDERS") {
        Some(d) => PathBuf::from(d).join(tag),
        None => Path::new(env!("CARGO_TARGET_TMPDIR")).join("dmx-render").join(tag),
    };
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn render(args: &[&str]) -> image::RgbaImage {
    let out = Command::new(env!("CARGO_BIN_EXE_bonescope")).arg("render").args(args).output().unwrap();
    assert!(out.status.success(), "render {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let png = args[args.iter().position(|a| *a == "-o").unwrap() + 1];
    image::open(png).unwrap().to_rgba8()
}

fn changed_pixels(a: &image::RgbaImage, b: &image::RgbaImage) -> usize {
    a.pixels().zip(b.pixels()).filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > 24)).count()
}

#[test]
fn flex_controls_move_the_models_vertices_in_a_render() {
    if common::gpu().is_none() {
        return;
    }
    let Some(flex) = common::corpus_file("dmx/bst_flex_scout_morphs_low.dmx") else { return };
    let dir = out_dir("flex");
    let mut ch = dmx_writer::character(6, 2);
    ch.shapes[0].name = "OO".into();
    ch.shapes[1].name = "CloseLidUp".into();
    let model = dir.join("scout_morphs.dmx");
    std::fs::write(&model, dmx_writer::dmx_model(&ch, &[]).kv2()).unwrap();
    let (model, flex) = (model.to_str().unwrap(), flex.to_str().unwrap());
    let off_png = dir.join("oo_off.png");
    let on_png = dir.join("oo_on.png");
    let common = ["--size", "480x360", "--yaw", "30"];
    let off = render(&[&[model, flex, "-o", off_png.to_str().unwrap()][..], &common].concat());
    let on = render(&[&[model, flex, "--morph", "OO=1", "-o", on_png.to_str().unwrap()][..], &common].concat());
    let changed = changed_pixels(&off, &on);
    assert!(changed > 500, "the OO delta must move the mesh on screen ({changed} pixels changed)");
    // The control's clip bound from the flex file plays the same delta: at its frame (the fourth control,
    // frame 4 of the file's clip, named after it) the mesh is where `--morph OO=1` puts it.
    let clip_png = dir.join("oo_clip.png");
    let at_frame = render(
        &[
            &[
                model,
                flex,
                "--clip",
                "flex_scout_morphs_low",
                "--time",
                &(4.0f32 / 30.0).to_string(),
                "-o",
                clip_png.to_str().unwrap(),
            ][..],
            &common,
        ]
        .concat(),
    );
    assert!(changed_pixels(&at_frame, &on) < changed / 20, "the clip at OO's frame draws OO on");
}

#[test]
fn the_walk_draws_its_skeleton_elsewhere_mid_clip() {
    if common::gpu().is_none() {
        return;
    }
    let Some(walk) = common::corpus_file("dmx/bst_walkn.dmx.gz") else { return };
    let dir = out_dir("walk");
    let walk = walk.to_str().unwrap();
    let start_png = dir.join("walk_start.png");
    let mid_png = dir.join("walk_mid.png");
    let args = ["--skeleton", "--size", "480x360", "--yaw", "90"];
    let start = render(&[&[walk, "--time", "0", "-o", start_png.to_str().unwrap()][..], &args].concat());
    let mid = render(&[&[walk, "--time", "0.5", "-o", mid_png.to_str().unwrap()][..], &args].concat());
    let drawn = start.pixels().filter(|p| p.0 != start.get_pixel(0, 0).0).count();
    assert!(drawn > 300, "the skeleton is drawn ({drawn} pixels)");
    assert!(changed_pixels(&start, &mid) > 300, "the skeleton moves between 0 s and 0.5 s");
}
