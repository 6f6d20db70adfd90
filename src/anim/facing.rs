//! Which way a character faces, so the viewer's "Front" shows its face whatever the exporter's conventions.
//!
//! Formats disagree on where "forward" is (Valve, 3ds Max and most Unreal characters face −Y of their Z-up
//! files, some Unreal ones +X), and the axis conversion into the viewer frame cannot know which
//! one a file followed. The skeleton can: nearly every rig names its sides (`Bip01 L Thigh`, `ValveBiped.Bip01_R_Hand`,
//! `thigh_l`, `LeftUpLeg`, `UpperArm.L`). In the bind pose, in the viewer frame, the mean of the left-side joints
//! minus the mean of the right-side joints is the character's left; with Y up, its front is `left × up`. A rig
//! without side names (a prop, a head alone, a recording) gets `None` and the viewer keeps its default (+Z), which
//! is each format's own convention after the axis conversion: file −Y for Valve, 3ds Max and ActorX (Z up,
//! right-handed; a PSK character's toes point to −Y and its left is +X).
//!
//! Which way is up is judged from the same evidence ([`standing_axis`]): a character whose head stands above
//! its feet along the viewer's +Y is upright; one whose file's convention lays it down (a Blender export whose
//! PSK keeps Blender's axes opens face-down under ActorX's Z up) has its head above its feet along another axis
//! of its file, which is then taken as up.
//!
//! Pure computation over the skeleton; reads nothing else.

use glam::Vec3;

use crate::scene::{Asset, UpAxis};

/// Which side a bone name says it is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

/// The side a bone name names, from its words: `L`/`Left`/`R`/`Right` as a word of their own (split at spaces,
/// `_`, `.`, `:`, `-`), or a word starting with `Left`/`Right` (`LeftUpLeg`).
pub fn side_of(name: &str) -> Option<Side> {
    let mut side = None;
    for word in name.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        let lower = word.to_ascii_lowercase();
        let this = if lower == "l" || lower.starts_with("left") {
            Some(Side::Left)
        } else if lower == "r" || lower.starts_with("right") {
            Some(Side::Right)
        } else {
            None
        };
        if this.is_some() {
            side = this;
        }
    }
    side
}

/// The character's front in the viewer frame (a horizontal unit vector), from its side-named bones in the bind
/// pose; `None` without a usable left/right pair.
pub fn front_direction(asset: &Asset) -> Option<Vec3> {
    let to_viewer = asset.axes.to_viewer;
    let to_root = asset.skeleton.bind_to_root();
    let (mut left, mut right) = ((Vec3::ZERO, 0u32), (Vec3::ZERO, 0u32));
    let mut bounds = crate::scene::Bounds::EMPTY;
    for (name, m) in asset.skeleton.names.iter().zip(&to_root) {
        let p = to_viewer.transform_point3(m.w_axis.truncate());
        if !p.is_finite() {
            continue;
        }
        bounds.add(p);
        match side_of(name) {
            Some(Side::Left) => left = (left.0 + p, left.1 + 1),
            Some(Side::Right) => right = (right.0 + p, right.1 + 1),
            None => {}
        }
    }
    if left.1 == 0 || right.1 == 0 {
        return None;
    }
    let lateral = left.0 / left.1 as f32 - right.0 / right.1 as f32;
    let horizontal = Vec3::new(lateral.x, 0.0, lateral.z);
    // Sides closer than 1 % of the skeleton's size say nothing (a mislabelled or collapsed rig).
    if horizontal.length() <= bounds.radius() * 0.01 {
        return None;
    }
    Some(horizontal.normalize().cross(Vec3::Y))
}

/// What a bone name says it is, for standing a character up: a head (`head`, `Bip01 Head`, `Head1`) or a foot
/// (`foot_l`, `Bip01 R Foot`, `LeftFoot`, `toe_r`, `LeftToeBase`, `ankle`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landmark {
    Head,
    Foot,
}

/// The landmark a bone name names, from its words (a `Left`/`Right` prefix of a word set aside).
pub fn landmark_of(name: &str) -> Option<Landmark> {
    for word in name.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        let lower = word.to_ascii_lowercase();
        let word = lower.strip_prefix("left").or_else(|| lower.strip_prefix("right")).unwrap_or(&lower);
        if word.strip_prefix("head").is_some_and(|rest| rest.bytes().all(|b| b.is_ascii_digit())) {
            return Some(Landmark::Head);
        }
        if ["foot", "toe", "ankle"].iter().any(|w| word.starts_with(w)) {
            return Some(Landmark::Foot);
        }
    }
    None
}

/// The up axis a character's own bones give, when they disagree with its file's convention.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// The file's axis that points from the feet to the head.
    pub up: UpAxis,
    /// Why, in words, for the status line and `info`.
    pub why: String,
}

/// How far above the feet the head stands along `axis` (viewer frame), over the skeleton's extent along it, and
/// how far above the lowest joint the feet are (same measure).
fn head_over_feet(points: &[(Vec3, Option<Landmark>)], axis: Vec3) -> Option<(f32, f32)> {
    let (mut low, mut high) = (f32::INFINITY, f32::NEG_INFINITY);
    let (mut head, mut feet) = ((0.0, 0u32), (0.0, 0u32));
    for (p, landmark) in points {
        let h = p.dot(axis);
        low = low.min(h);
        high = high.max(h);
        match landmark {
            Some(Landmark::Head) => head = (head.0 + h, head.1 + 1),
            Some(Landmark::Foot) => feet = (feet.0 + h, feet.1 + 1),
            None => {}
        }
    }
    let range = high - low;
    if head.1 == 0 || feet.1 == 0 || range.is_nan() || range <= 0.0 {
        return None;
    }
    let (head, feet) = (head.0 / head.1 as f32, feet.0 / feet.1 as f32);
    Some(((head - feet) / range, (feet - low) / range))
}

/// A character stands along an axis when its head is at least this far above its feet (over its extent along
/// the axis) and its feet are within this much of its lowest joint.
const STANDS: f32 = 0.6;
const FEET_AT_THE_BOTTOM: f32 = 0.25;
/// A character whose head is less than this far above its feet along the viewer's up is not standing.
const NOT_STANDING: f32 = 0.3;

/// The file axis the character stands along, when its file's convention (the asset's axis conversion) does not
/// stand it up: in the bind pose, along the viewer's +Y its head is not above its feet, and along one axis of its
/// file it clearly is (the head well above the feet, the feet at the bottom), with its left and right bones, if
/// it names them, lying across that axis. `None` when the convention stands it up, or the bones do not say
/// (no head or no feet named: props, creatures, a head alone).
pub fn standing_axis(asset: &Asset) -> Option<Standing> {
    let to_viewer = asset.axes.to_viewer;
    let points: Vec<(Vec3, Option<Landmark>)> = asset
        .skeleton
        .names
        .iter()
        .zip(asset.skeleton.bind_to_root())
        .map(|(name, m)| (to_viewer.transform_point3(m.w_axis.truncate()), landmark_of(name)))
        .filter(|(p, _)| p.is_finite())
        .collect();
    let (now, _) = head_over_feet(&points, Vec3::Y)?;
    if now >= NOT_STANDING {
        return None;
    }
    let (mut left, mut right) = ((Vec3::ZERO, 0u32), (Vec3::ZERO, 0u32));
    for ((p, _), name) in points.iter().zip(&asset.skeleton.names) {
        match side_of(name) {
            Some(Side::Left) => left = (left.0 + *p, left.1 + 1),
            Some(Side::Right) => right = (right.0 + *p, right.1 + 1),
            None => {}
        }
    }
    let lateral = (left.1 > 0 && right.1 > 0)
        .then(|| (left.0 / left.1 as f32 - right.0 / right.1 as f32).normalize_or_zero())
        .filter(|l| *l != Vec3::ZERO);
    let mut best: Option<(UpAxis, f32)> = None;
    for up in UpAxis::ALL {
        let axis = to_viewer.transform_vector3(up.vector()).normalize_or_zero();
        let Some((score, feet)) = head_over_feet(&points, axis) else { continue };
        let across = lateral.is_none_or(|l| l.dot(axis).abs() < 0.5);
        if score >= STANDS && feet <= FEET_AT_THE_BOTTOM && across && best.is_none_or(|(_, s)| score > s) {
            best = Some((up, score));
        }
    }
    let (up, _) = best?;
    let sides = if lateral.is_some() { ", and its left and right bones lie across it" } else { "" };
    Some(Standing {
        up,
        why: format!(
            "the character's own: its head stands above its feet along the file's {}{sides}, where the file's \
             convention would lay it down",
            up.label()
        ),
    })
}

/// The orbit camera's yaw that looks at a character facing `front` (yaw 0 looks from +Z).
pub fn yaw_facing(front: Vec3) -> f32 {
    // libm's, not the C library's (std): the same bits on every platform.
    libm::atan2f(front.x, front.z)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{AxisConversion, Transform};
    use glam::Quat;

    #[test]
    fn sides_are_read_from_the_words_of_a_name() {
        for (name, side) in [
            ("Bip01 L Thigh", Some(Side::Left)),
            ("ValveBiped.Bip01_R_Hand", Some(Side::Right)),
            ("thigh_l", Some(Side::Left)),
            ("mixamorig:LeftUpLeg", Some(Side::Left)),
            ("UpperArm.R", Some(Side::Right)),
            ("Bip01 Spine", None),
            ("Pelvis", None),
            ("Larm", None),
        ] {
            assert_eq!(side_of(name), side, "{name}");
        }
    }

    fn biped(axes: AxisConversion, left: Vec3) -> Asset {
        let mut asset = Asset { axes, ..Asset::default() };
        asset.skeleton.push("Bip01 Pelvis", None, Transform::IDENTITY);
        let at = |v: Vec3| Transform::from_translation_rotation(v, Quat::IDENTITY);
        asset.skeleton.push("Bip01 L Thigh", Some(0), at(left));
        asset.skeleton.push("Bip01 R Thigh", Some(0), at(-left));
        asset.skeleton.push("Bip01 Head", Some(0), at(Vec3::Z * 5.0));
        asset.skeleton.recompute_inverse_bind();
        asset
    }

    #[test]
    fn a_z_up_character_whose_left_is_plus_x_faces_minus_y_and_the_viewer_plus_z() {
        // Max and Valve characters: left +X, front −Y in the file; (x, y, z) → (x, z, −y) puts the front at +Z.
        let asset = biped(AxisConversion::z_up_right_handed(), Vec3::X);
        let front = front_direction(&asset).unwrap();
        assert!(front.abs_diff_eq(Vec3::Z, 1e-6), "{front}");
        assert!(yaw_facing(front).abs() < 1e-6);
        // A character turned to face +X of the file (left +Y): the front preset turns with it.
        let turned = biped(AxisConversion::z_up_right_handed(), Vec3::Y);
        let front = front_direction(&turned).unwrap();
        assert!(front.abs_diff_eq(Vec3::X, 1e-6), "{front}");
        assert!((yaw_facing(front) - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
    }

    #[test]
    fn rigs_without_sides_have_no_front() {
        let mut asset = Asset::default();
        asset.skeleton.push("root", None, Transform::IDENTITY);
        assert_eq!(front_direction(&asset), None);
        // Sides on top of each other say nothing either.
        assert_eq!(front_direction(&biped(AxisConversion::IDENTITY, Vec3::Y)), None);
    }
}
