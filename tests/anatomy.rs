//! Left is left: in every corpus character whose bones name their sides, in every format (PSK, SMD through its
//! QC, ASC through its MDS, ASE), the bones named left lie on the character's left — in the viewer frame (what
//! the viewer and `render` draw), in `pose --viewer-frame`, and in the exported glTF, which also faces +Z with
//! its left at +X (glTF's convention). The character's front is taken from its own geometry, not from the side
//! names: the toes point forward of the feet, else the head is forward of the pelvis, else the body is ahead of
//! its tail; up is the frame's +Y. Left is then `up × front`.

mod common;

use common::body::{Joints, front_from_geometry, mean_of, viewer_joints};

use std::collections::HashMap;

use bonescope::anim::facing::{Side, side_of};
use bonescope::io::gltf::export_glb;
use bonescope::io::{LoadOptions, load_path};
use bonescope::scene::Asset;
use bonescope::source::{Source, load_set};
use glam::{Mat4, Vec3};

/// The corpus characters with side names, each as one file set (a PSK body with its shirt joins as one
/// character).
fn characters() -> Vec<(&'static str, Asset)> {
    let Some(corpus) = common::corpus() else { return Vec::new() };
    let sets: [(&str, &[&str]); 5] = [
        ("kit body + shirt (PSK)", &["psk/kit_SK_MaleBase_01_Body.psk", "psk/kit_SK_Male_TShirt_01.psk"]),
        ("gnome (PSK)", &["psk/hp2_skgnomeMesh.psk"]),
        ("headcrab (QC)", &["qc/halflife/models/headcrab/headcrab.qc"]),
        ("bloodfly (MDS)", &["mds/gothic/Anims/BLOODFLY.MDS"]),
        ("motion capture (ASE)", &["ase/MotionCaptureROM.ase"]),
    ];
    sets.iter()
        .map(|(label, files)| {
            let sources: Vec<Source> = files.iter().map(|f| Source::File(corpus.join(f))).collect();
            let set = load_set(&sources, &LoadOptions::default());
            assert!(set.errors.is_empty(), "{label}: {:?}", set.errors);
            (*label, set.asset.unwrap_or_else(|| panic!("{label}: nothing loaded")))
        })
        .collect()
}

/// How far the left-named joints lie to the character's left of the right-named ones (positive: left is left),
/// and the character's front.
fn left_offset(label: &str, joints: &Joints) -> (f32, Vec3) {
    let front = front_from_geometry(joints).unwrap_or_else(|| panic!("{label}: no front in its geometry"));
    let left = Vec3::Y.cross(front);
    let lefts = mean_of(joints, |n| side_of(n) == Some(Side::Left)).unwrap_or_else(|| panic!("{label}: no left"));
    let rights = mean_of(joints, |n| side_of(n) == Some(Side::Right)).unwrap_or_else(|| panic!("{label}: no right"));
    ((lefts - rights).dot(left), front)
}

#[test]
fn left_named_bones_lie_on_the_characters_left_in_the_viewer_frame() {
    let characters = characters();
    if characters.is_empty() {
        return;
    }
    for (label, asset) in &characters {
        let (offset, _) = left_offset(label, &viewer_joints(asset));
        assert!(offset > 0.0, "{label}: the left-named bones lie {offset} to the character's right");
    }
}

#[test]
fn the_kit_body_stands_with_toes_to_plus_z_and_its_left_thigh_at_plus_x() {
    // The facts of the file (toes toward −Y, thigh_l at +X, right-handed Z up) in the viewer frame: the front is
    // +Z, the left +X, and the head above the feet.
    let Some(path) = common::corpus_file("psk/kit_SK_MaleBase_01_Body.psk") else { return };
    let asset = load_path(&path, &LoadOptions::default()).unwrap();
    assert!(!asset.axes.mirrors(), "a PSK is turned into the viewer frame, not mirrored");
    let joints = viewer_joints(&asset);
    let at = |name: &str| joints.iter().find(|(n, _)| n == name).map(|(_, p)| *p).unwrap();
    assert!(at("thigh_l").x > 0.0 && at("thigh_r").x < 0.0, "{} {}", at("thigh_l"), at("thigh_r"));
    assert!(at("ball_l").z > at("foot_l").z, "toes toward +Z");
    assert!(at("head").y > at("foot_l").y + 100.0, "upright");
    let front = bonescope::anim::facing::front_direction(&asset).unwrap();
    assert!(front.abs_diff_eq(Vec3::Z, 0.05), "the front the viewer turns to: {front}");
}

/// Bind-pose world positions of the glTF's nodes, by name.
fn gltf_joints(bytes: &[u8]) -> Joints {
    let gltf = gltf::Gltf::from_slice(bytes).expect("the export parses as glTF");
    let mut out = Vec::new();
    fn visit(node: gltf::Node, parent: Mat4, out: &mut Joints) {
        let m = parent * Mat4::from_cols_array_2d(&node.transform().matrix());
        if let Some(name) = node.name() {
            out.push((name.to_owned(), m.w_axis.truncate()));
        }
        for child in node.children() {
            visit(child, m, out);
        }
    }
    for scene in gltf.scenes() {
        for node in scene.nodes() {
            visit(node, Mat4::IDENTITY, &mut out);
        }
    }
    out
}

#[test]
fn exported_gltf_faces_plus_z_with_its_left_at_plus_x() {
    for (label, asset) in characters() {
        let (bytes, _) = export_glb(&asset).unwrap_or_else(|e| panic!("{label}: {e}"));
        let joints = gltf_joints(&bytes);
        let (offset, front) = left_offset(label, &joints);
        assert!(offset > 0.0, "{label}: in the glTF the left-named bones lie {offset} to the character's right");
        assert!(front.dot(Vec3::Z) > 0.7, "{label}: the glTF faces {front}, not +Z");
        let lefts = mean_of(&joints, |n| side_of(n) == Some(Side::Left)).unwrap();
        let rights = mean_of(&joints, |n| side_of(n) == Some(Side::Right)).unwrap();
        assert!(lefts.x > rights.x, "{label}: glTF left at {lefts}, right at {rights}");
    }
}

#[test]
fn pose_in_the_viewer_frame_keeps_the_left_on_the_left() {
    let Some(corpus) = common::corpus() else { return };
    for relative in ["psk/kit_SK_MaleBase_01_Body.psk", "psk/hp2_skgnomeMesh.psk", "ase/MotionCaptureROM.ase"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_bonescope"))
            .args(["pose", "--viewer-frame", "--json"])
            .arg(corpus.join(relative))
            .output()
            .unwrap();
        assert!(out.status.success(), "{relative}: {}", String::from_utf8_lossy(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let joints: Joints = pose_joints(&json);
        assert!(!joints.is_empty(), "{relative}: no bones in {json:.200}");
        let (offset, _) = left_offset(relative, &joints);
        assert!(offset > 0.0, "{relative}: `pose --viewer-frame` puts the left-named bones {offset} to the right");
    }
}

/// The bones' to-root translations from `pose --json`.
fn pose_joints(json: &serde_json::Value) -> Joints {
    let mut seen: HashMap<String, usize> = HashMap::new();
    json["bones"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| {
            let name = b["name"].as_str()?.to_owned();
            *seen.entry(name.clone()).or_default() += 1;
            let m: Vec<f32> = b["to_root"].as_array()?.iter().filter_map(|v| v.as_f64()).map(|v| v as f32).collect();
            let translation = match m.len() {
                16 => Vec3::new(m[12], m[13], m[14]),
                _ => return None,
            };
            Some((name, translation))
        })
        .collect()
}
