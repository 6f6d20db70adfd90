//! A character's joints by name and where its own geometry says its front is: the toes ahead of the feet, else
//! the head ahead of the pelvis, else the body ahead of its tail. Shared by the facing and anatomy tests, which
//! hold the side names' front and the left-named bones to this cue.

use bonescope::anim::facing::side_of;
use bonescope::scene::Asset;
use glam::Vec3;

/// Joint positions by name (several joints may share a name).
pub type Joints = Vec<(String, Vec3)>;

/// Bind-pose joints in the viewer frame.
pub fn viewer_joints(asset: &Asset) -> Joints {
    let to_root = asset.skeleton.bind_to_root();
    asset
        .skeleton
        .names
        .iter()
        .zip(&to_root)
        .map(|(n, m)| (n.clone(), asset.axes.to_viewer.transform_point3(m.w_axis.truncate())))
        .collect()
}

/// The mean position of the joints whose names `wanted` accepts.
pub fn mean_of(joints: &Joints, wanted: impl Fn(&str) -> bool) -> Option<Vec3> {
    let picked: Vec<Vec3> = joints.iter().filter(|(n, _)| wanted(n)).map(|(_, p)| *p).collect();
    (!picked.is_empty()).then(|| picked.iter().copied().sum::<Vec3>() / picked.len() as f32)
}

/// The two points of the forward cue: (the one ahead, the one behind). English and German biped names (3ds
/// Max's Biped names its bones in the language of the install); Unreal's mannequin calls the toe joint `ball_l`.
pub fn forward_cue(joints: &Joints) -> Option<(Vec3, Vec3)> {
    let has = |n: &str, words: &[&str]| words.iter().any(|w| n.to_ascii_lowercase().contains(w));
    let feet = mean_of(joints, |n| has(n, &["foot", "fu_", "fuss"]) && side_of(n).is_some());
    let toes = mean_of(joints, |n| has(n, &["toe", "zeh", "ball"]) && side_of(n).is_some());
    let head = mean_of(joints, |n| has(n, &["head", "kopf"]));
    let pelvis = mean_of(joints, |n| has(n, &["pelvis", "becken"]));
    let tail = mean_of(joints, |n| has(n, &["tail"]));
    let all = mean_of(joints, |_| true);
    match (feet, toes, head, pelvis, tail, all) {
        (Some(f), Some(t), ..) => Some((t, f)),
        (_, _, Some(h), Some(p), ..) => Some((h, p)),
        // A creature with a tail: its body is ahead of the tail.
        (.., Some(t), Some(a)) => Some((a, t)),
        _ => None,
    }
}

/// The horizontal direction of the forward cue (Y up).
pub fn front_from_geometry(joints: &Joints) -> Option<Vec3> {
    let (ahead, behind) = forward_cue(joints)?;
    let cue = ahead - behind;
    let horizontal = Vec3::new(cue.x, 0.0, cue.z);
    (horizontal.length() > 1e-3).then(|| horizontal.normalize())
}
