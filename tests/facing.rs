//! Which way the corpus characters face: the front the viewer's presets turn to (derived from the bones' side
//! names, `anim::facing`) must agree with an independent cue in each file — toes point forward of the feet on
//! a biped, the head sits forward of the pelvis, the body ahead of the tail.

mod common;

#[cfg(feature = "gui")]
use common::body::forward_cue;
use common::body::{front_from_geometry, viewer_joints};
mod psk_writer;

use bonescope::anim::facing::{Side, front_direction, side_of};
use bonescope::io::{LoadOptions, load_path};
#[cfg(feature = "gui")]
use bonescope::render::camera::{OrbitCamera, ViewPreset};
use bonescope::scene::Asset;
use glam::Vec3;

/// The corpus characters whose bones name their sides — PSK (a UE4-era kit's body, a UE1 game's gnome), SMD
/// through its QC (Half-Life), ASC through its MDS (Gothic), ASE (3ds Max motion capture) — and a generated PSK
/// laid out as the kit's body is; each loaded, with the front derived from it. Only the generated PSK without the
/// corpus.
fn characters_with_a_front() -> Vec<(&'static str, Asset, Vec3)> {
    let mut paths: Vec<(&'static str, std::path::PathBuf)> = vec![("generated mannequin.psk", mannequin_psk())];
    if let Some(corpus) = common::corpus() {
        for relative in [
            "psk/kit_SK_MaleBase_01_Body.psk",
            "psk/hp2_skgnomeMesh.psk",
            "qc/halflife/models/headcrab/headcrab.qc",
            "mds/gothic/Anims/BLOODFLY.MDS",
            "ase/MotionCaptureROM.ase",
        ] {
            paths.push((relative, corpus.join(relative)));
        }
    }
    paths
        .into_iter()
        .map(|(label, path)| {
            let asset = load_path(&path, &LoadOptions::default()).unwrap();
            let front = front_direction(&asset).unwrap_or_else(|| panic!("{label}: no front"));
            (label, asset, front)
        })
        .collect()
}

/// A PSK with the legs and head of Unreal's mannequin, laid out as the corpus kit's body is (PSK data is
/// right-handed, Z up): the character faces −Y, its left side (`thigh_l`, `foot_l`, `ball_l`) at +X, and the balls
/// of the feet ahead of the ankles. The mesh is a stand-in tube; only the skeleton matters here.
fn mannequin_psk() -> std::path::PathBuf {
    use glam::Quat;
    use psk_writer::Bone;
    let mut psk = psk_writer::tube(3, 6, 2, 40.0);
    let at = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
    let mut bones = vec![
        Bone::new("root", 0, Quat::IDENTITY, Vec3::ZERO),
        Bone::new("pelvis", 0, Quat::IDENTITY, at(0.0, 0.0, 95.0)),
    ];
    for (side, x) in [("l", 10.0), ("r", -10.0)] {
        let thigh = bones.len() as i32;
        bones.push(Bone::new(&format!("thigh_{side}"), 1, Quat::IDENTITY, at(x, 0.0, -5.0)));
        bones.push(Bone::new(&format!("calf_{side}"), thigh, Quat::IDENTITY, at(0.0, 0.0, -42.0)));
        bones.push(Bone::new(&format!("foot_{side}"), thigh + 1, Quat::IDENTITY, at(0.0, 0.0, -40.0)));
        bones.push(Bone::new(&format!("ball_{side}"), thigh + 2, Quat::IDENTITY, at(0.0, -14.0, -7.0)));
    }
    bones.push(Bone::new("head", 1, Quat::IDENTITY, at(0.0, 0.0, 65.0)));
    psk.bones = bones;
    let path = std::env::temp_dir().join(format!("bonescope-facing-mannequin-{}.psk", std::process::id()));
    std::fs::write(&path, psk.to_bytes()).unwrap();
    path
}

#[test]
fn corpus_characters_face_where_their_feet_and_heads_point() {
    for (relative, asset, front) in characters_with_a_front() {
        assert!((front.length() - 1.0).abs() < 1e-5 && front.y == 0.0, "{relative}: {front}");
        let cue = front_from_geometry(&viewer_joints(&asset)).unwrap_or_else(|| panic!("{relative}: no forward cue"));
        assert!(front.dot(cue) > 0.7, "{relative}: front {front} but feet/head point {cue}");
        // Both sides are named in every one of these rigs.
        let sides: Vec<Side> = asset.skeleton.names.iter().filter_map(|n| side_of(n)).collect();
        assert!(sides.contains(&Side::Left) && sides.contains(&Side::Right), "{relative}");
    }
}

#[test]
fn files_without_side_names_keep_the_default_front() {
    let Some(corpus) = common::corpus() else { return };
    for relative in ["psk/examplemesh.psk", "smd/holy_grailref.smd"] {
        let asset = load_path(&corpus.join(relative), &LoadOptions::default()).unwrap();
        assert_eq!(front_direction(&asset), None, "{relative}");
    }
}

/// The viewer's Front view, as the camera the viewer and `bonescope render` use sets it up (front yaw from the
/// file's conventions, the Front preset, framed on the skeleton), shows each format's character from its face
/// side: the point ahead in the file's own cue (toes, head, body) is nearer the eye than the one behind it.
#[cfg(feature = "gui")]
#[test]
fn the_front_view_shows_each_formats_character_from_its_face_side() {
    for (relative, asset, front) in characters_with_a_front() {
        let mut camera =
            OrbitCamera { front_yaw: bonescope::anim::facing::yaw_facing(front), ..OrbitCamera::default() };
        camera.set_preset(ViewPreset::Front);
        let mut bounds = bonescope::scene::Bounds::EMPTY;
        for (_, p) in viewer_joints(&asset) {
            bounds.add(p);
        }
        camera.frame_for_orbiting(&bounds);
        let (ahead, behind) =
            forward_cue(&viewer_joints(&asset)).unwrap_or_else(|| panic!("{relative}: no forward cue"));
        let eye = camera.eye();
        let (near, far) = (ahead.distance(eye), behind.distance(eye));
        assert!(near < far, "{relative}: from the Front view the cue's front is {near} away, its back {far}");
        // In camera space (looking down -Z) the front point has the larger z: it is the one nearer the viewer.
        let view = camera.view();
        let (za, zb) = (view.transform_point3(ahead).z, view.transform_point3(behind).z);
        assert!(za > zb, "{relative}: camera-space depth ahead {za}, behind {zb}");
    }
}
