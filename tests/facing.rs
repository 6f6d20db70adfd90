//! Which way the corpus characters face: the front the viewer's presets turn to (derived from the bones' side
//! names, `anim::facing`) must agree with an independent cue in each file — toes point forward of the feet on
//! a biped, the head sits forward of the pelvis, the body ahead of the tail.

mod common;

use bonescope::anim::facing::{Side, front_direction, side_of};
use bonescope::io::{LoadOptions, load_path};
use bonescope::scene::Asset;
use glam::Vec3;

/// Bind-pose joint positions in the viewer frame, by name.
fn joint(asset: &Asset, wanted: impl Fn(&str) -> bool) -> Vec<Vec3> {
    let to_root = asset.skeleton.bind_to_root();
    asset
        .skeleton
        .names
        .iter()
        .zip(&to_root)
        .filter(|(n, _)| wanted(n))
        .map(|(_, m)| asset.axes.to_viewer.transform_point3(m.w_axis.truncate()))
        .collect()
}

fn mean(points: &[Vec3]) -> Option<Vec3> {
    (!points.is_empty()).then(|| points.iter().copied().sum::<Vec3>() / points.len() as f32)
}

/// Forward as the file's own geometry shows it: toes ahead of feet, else the head ahead of the pelvis.
fn independent_forward(asset: &Asset) -> Option<Vec3> {
    // English and German biped names (3ds Max's Biped names its bones in the language of the install).
    let has = |n: &str, words: &[&str]| words.iter().any(|w| n.to_ascii_lowercase().contains(w));
    let feet = mean(&joint(asset, |n| has(n, &["foot", "fu_", "fuss"]) && side_of(n).is_some()));
    let toes = mean(&joint(asset, |n| has(n, &["toe", "zeh"]) && side_of(n).is_some()));
    let head = mean(&joint(asset, |n| has(n, &["head", "kopf"])));
    let pelvis = mean(&joint(asset, |n| has(n, &["pelvis", "becken"])));
    let tail = mean(&joint(asset, |n| has(n, &["tail"])));
    let all = mean(&joint(asset, |_| true));
    let cue = match (feet, toes, head, pelvis, tail, all) {
        (Some(f), Some(t), ..) => t - f,
        (_, _, Some(h), Some(p), ..) => h - p,
        // A creature with a tail: its body is ahead of the tail.
        (.., Some(t), Some(a)) => a - t,
        _ => return None,
    };
    let horizontal = Vec3::new(cue.x, 0.0, cue.z);
    (horizontal.length() > 1e-3).then(|| horizontal.normalize())
}

#[test]
fn corpus_characters_face_where_their_feet_and_heads_point() {
    let Some(corpus) = common::corpus() else { return };
    let characters =
        ["qc/halflife/models/headcrab/headcrab.qc", "mds/gothic/Anims/BLOODFLY.MDS", "ase/MotionCaptureROM.ase"];
    for relative in characters {
        let asset = load_path(&corpus.join(relative), &LoadOptions::default()).unwrap();
        let front = front_direction(&asset).unwrap_or_else(|| panic!("{relative}: no front"));
        assert!((front.length() - 1.0).abs() < 1e-5 && front.y == 0.0, "{relative}: {front}");
        let cue = independent_forward(&asset).unwrap_or_else(|| panic!("{relative}: no forward cue"));
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
