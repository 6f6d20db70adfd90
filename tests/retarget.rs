//! Retargeting an animation made for other proportions, as a user sees it through `bonescope info --check`: the
//! corpus headcrab (its reference SMD) with a generated animation whose bone translations are 1.5× the model's.
//! With the animation's translations the mesh tears; rotation-only (and translations scaled to the model's bone
//! lengths) play it intact. Also the bind report of that binding, the name rules and texture folders on the
//! command line.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn bonescope(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bonescope")).args(args).output().expect("run bonescope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-retarget-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An animation SMD for `reference`'s skeleton: its bind pose (the reference's own `time 0` lines) with every
/// translation multiplied by `scale`, then a second frame where every bone has turned 0.01 rad more about x.
fn stretched_animation(reference: &Path, scale: f32) -> String {
    let text = std::fs::read_to_string(reference).unwrap();
    let nodes: String = text.split("skeleton").next().unwrap().to_owned();
    let skeleton = text.split("skeleton").nth(1).unwrap().split("\nend").next().unwrap();
    let bones: Vec<Vec<f32>> = skeleton
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("time"))
        .map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect())
        .collect();
    let mut out = nodes;
    out.push_str("skeleton\n");
    for (frame, turn) in [(0, 0.0f32), (1, 0.01)] {
        writeln!(out, "time {frame}").unwrap();
        for b in &bones {
            let (t, r) = (&b[1..4], &b[4..7]);
            let [x, y, z] = [t[0] * scale, t[1] * scale, t[2] * scale];
            writeln!(out, "{} {x} {y} {z} {} {} {}", b[0], r[0] + turn, r[1], r[2]).unwrap();
        }
    }
    out.push_str("end\n");
    out
}

/// The worst stretch of an edge `info --check --json` reports in a clip (a stretched surface's warning or a
/// tear's error), and the report.
fn worst_stretch(args: &[&str]) -> (f64, Value) {
    let (code, out, err) = bonescope(args);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let report = v[0].clone();
    let worst = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        // A closed surface stretched (a warning) or torn: opened, a joint apart, skin flung off (errors).
        .filter(|f| {
            ["clip_stretch", "joint_apart", "surface_opens", "vertex_flies"].contains(&f["kind"].as_str().unwrap_or(""))
        })
        .filter_map(|f| f["value"].as_f64())
        .fold(0.0, f64::max);
    (worst, report)
}

#[test]
fn rotation_only_plays_an_animation_for_other_proportions_intact() {
    let Some(model) = common::corpus_file("qc/halflife/models/headcrab/reference.smd") else { return };
    let dir = scratch("stretched");
    let psa = dir.join("stretched.smd");
    std::fs::write(&psa, stretched_animation(&model, 1.5)).unwrap();
    let (model, psa) = (model.to_str().unwrap(), psa.to_str().unwrap());
    let (torn, report) = worst_stretch(&["info", "--check", "--json", model, psa]);
    let (intact, rotation_only) =
        worst_stretch(&["info", "--check", "--json", "--retarget", "rotation-only", model, psa]);
    let (scaled, _) = worst_stretch(&["info", "--check", "--json", "--retarget", "scaled", model, psa]);
    std::fs::remove_dir_all(&dir).ok();
    assert!(torn > 1.3, "with the animation's translations the mesh tears: worst stretch {torn}");
    assert!(intact < 1.1, "rotation only keeps it intact: worst stretch {intact}");
    let errors = |r: &Value| r["findings"].as_array().unwrap().iter().filter(|f| f["severity"] == "error").count();
    assert!(errors(&report) > 0, "the animation's translations pull joints apart: errors");
    assert_eq!(errors(&rotation_only), 0, "rotation only: no errors");
    assert!(scaled < 1.1, "translations scaled to the model's bone lengths: worst stretch {scaled}");
    // The bind report says why: every non-root bone with a length differs by half of it.
    let bound = &report["bound"][0];
    assert_eq!(bound["clips"][0], "stretched");
    assert_eq!(bound["retarget"]["translation"], "animation");
    assert_eq!(rotation_only["bound"][0]["retarget"]["translation"], "rotation_only");
    let differences = bound["skeleton_differences"].as_array().unwrap();
    assert!(!differences.is_empty());
    for d in differences {
        assert!((d["difference"].as_f64().unwrap() - 0.5).abs() < 1e-3, "{d}");
        let ratio = d["animation_length"].as_f64().unwrap() / d["model_length"].as_f64().unwrap();
        assert!((ratio - 1.5).abs() < 1e-3, "{d}");
    }
    assert!(bound["unmatched_tracks"].as_array().unwrap().is_empty());
}

#[test]
fn bind_reports_say_which_names_matched_loosely() {
    let dir = scratch("names");
    let model = dir.join("hero.smd");
    std::fs::write(
        &model,
        "version 1\nnodes\n0 \"ValveBiped.Bip01_Pelvis\" -1\n1 \"Bip01 L Hand\" 0\n2 \"Bip01 R Hand\" 0\n3 \"Tail\" 0\nend\n\
         skeleton\ntime 0\n0 0 0 0 0 0 0\n1 1 0 0 0 0 0\n2 -1 0 0 0 0 0\n3 0 -1 0 0 0 0\nend\n\
         triangles\nskin\n1 0 0 0 0 0 1 0 0\n2 1 0 0 0 0 1 1 0\n3 0 1 0 0 0 1 0 1\nend\n",
    )
    .unwrap();
    let anim = dir.join("wave.smd");
    std::fs::write(
        &anim,
        "version 1\nnodes\n0 \"Bip01_Pelvis\" -1\n1 \"Bip01_L_Hand\" 0\n2 \"bip01 r hand\" 0\n3 \"Wing\" 0\nend\n\
         skeleton\ntime 0\n0 0 0 0 0 0 0\n1 2 0 0 0 0 0\n2 -1 0 0 0 0 0\n3 0 0 1 0 0 0\ntime 1\n0 0 0 0 0 0 0.5\n\
         1 2 0 0 0 0 0\n2 -1 0 0 0 0 0\n3 0 0 1 0 0 0\nend\n",
    )
    .unwrap();
    let (model, anim) = (model.to_str().unwrap(), anim.to_str().unwrap());
    let (code, out, err) = bonescope(&["info", model, anim]);
    let (_, json, _) = bonescope(&["pose", "--json", "--clip", "wave", "--time", "1", model, anim]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 0, "{err}");
    // Plain info binds the animation to the model before it and shows the report.
    assert!(out.contains("bound:     wave.smd → \"wave\""), "{out}");
    assert!(out.contains("3 of 4 match a bone"), "{out}");
    assert!(out.contains("Bip01_Pelvis → ValveBiped.Bip01_Pelvis (prefix stripping)"), "{out}");
    assert!(out.contains("Bip01_L_Hand → Bip01 L Hand (separator folding)"), "{out}");
    assert!(out.contains("bip01 r hand → Bip01 R Hand (case folding)"), "{out}");
    assert!(out.contains("no bone for 1 track(s): Wing"), "{out}");
    assert!(out.contains("1 bone(s) no track drives (bind pose): Tail"), "{out}");
    assert!(out.contains("skeleton differs at 1 bone(s)"), "the left hand is twice as far: {out}");
    // pose --json carries the same report.
    let v: Value = serde_json::from_str(&json).unwrap();
    let matched = v["bound"][0]["matched"].as_array().unwrap();
    assert_eq!(matched.len(), 3);
    assert_eq!(matched[1]["rule"], "separator_folding");
    // And the loosely matched bones are animated: the pelvis (matched by prefix stripping) turns 0.5 rad about z.
    let pelvis = &v["bones"][0];
    assert_eq!(pelvis["name"], "ValveBiped.Bip01_Pelvis");
    let z = pelvis["local"]["rotation"][2].as_f64().unwrap();
    assert!((z.abs() - 0.25f64.sin()).abs() < 1e-3, "{pelvis}");
}

#[test]
fn textures_are_found_in_folders_given_on_the_command_line() {
    let dir = scratch("textures");
    let (model_dir, art) = (dir.join("model"), dir.join("art"));
    std::fs::create_dir_all(&model_dir).unwrap();
    std::fs::create_dir_all(&art).unwrap();
    std::fs::write(art.join("Skin.PNG"), b"not read by info").unwrap();
    let model = model_dir.join("hero.smd");
    std::fs::write(
        &model,
        "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n\
         triangles\nskin.tga\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\n\
         eyes.tga\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\nend\n",
    )
    .unwrap();
    let (code, without, _) = bonescope(&["info", model.to_str().unwrap()]);
    let (_, with, _) = bonescope(&["info", "--textures", art.to_str().unwrap(), model.to_str().unwrap()]);
    let (_, json, _) = bonescope(&["info", "--json", "--textures", art.to_str().unwrap(), model.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 0);
    assert!(without.contains("texture skin.tga (not found; tried skin.tga, skin.png"), "{without}");
    let skin = format!("texture skin.tga → {} (in a texture folder of yours)", art.join("Skin.PNG").display());
    assert!(with.contains(&skin), "{with}");
    assert!(with.contains("texture eyes.tga (not found; tried eyes.tga"), "{with}");
    let v: Value = serde_json::from_str(&json).unwrap();
    let eyes = &v[0]["materials"][1];
    assert_eq!(eyes["texture_searched"].as_array().unwrap().len(), 2, "next to the model, then the art folder");
}
