//! The shapes a Valve QC places on a character, as lines in the viewer frame: `$hbox` hitboxes (boxes in a
//! bone's space, animated with it, coloured by hit group), `$attachment` points (a small cross at an offset
//! from a bone, with its name), `$bbox` and `$cbox` (boxes in model space) and `$eyeposition` (a cross). HLMV
//! draws the same things; a modder checks with them that hitboxes follow the limbs and attachments sit in the
//! hands.
//!
//! Made fresh from the pose each frame (a few dozen boxes); both draw paths read the same list. Must not touch:
//! egui, GPU.

use glam::{Mat4, Vec3};

use crate::scene::{Asset, Bounds};

/// A line segment in the viewer frame, RGBA.
pub type Segment = (Vec3, Vec3, [u8; 4]);

/// A labelled point in the viewer frame (attachments, the eye position).
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    pub position: Vec3,
    pub label: String,
    pub color: [u8; 4],
}

/// Everything to draw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScriptShapes {
    pub segments: Vec<Segment>,
    pub markers: Vec<Marker>,
}

/// HLMV-like colours per hit group (generic, head, chest, stomach, arms, legs), cycling past them.
const GROUP_COLORS: [[u8; 4]; 8] = [
    [230, 230, 230, 255],
    [255, 80, 80, 255],
    [80, 220, 80, 255],
    [255, 230, 60, 255],
    [90, 140, 255, 255],
    [255, 120, 255, 255],
    [60, 230, 230, 255],
    [255, 160, 60, 255],
];
const ATTACHMENT_COLOR: [u8; 4] = [255, 170, 40, 255];
const BBOX_COLOR: [u8; 4] = [200, 200, 120, 200];
const CBOX_COLOR: [u8; 4] = [120, 200, 200, 200];
const EYE_COLOR: [u8; 4] = [255, 255, 255, 255];

/// The shapes of the asset's model script in the pose `to_root` (one matrix per bone, file frame); empty when
/// the asset has no script or the script places nothing. `size` scales the crosses (the character's radius).
pub fn script_shapes(asset: &Asset, to_root: &[Mat4], size: f32) -> ScriptShapes {
    let mut out = ScriptShapes::default();
    let Some(script) = asset.model_script.as_deref() else { return out };
    let to_viewer = asset.axes.to_viewer;
    let bone = |name: &str| {
        let i = asset.skeleton.names.iter().position(|n| n.eq_ignore_ascii_case(name))?;
        to_root.get(i).map(|m| to_viewer * *m)
    };
    for hitbox in &script.hitboxes {
        let Some(frame) = bone(&hitbox.bone) else { continue };
        let color = GROUP_COLORS[hitbox.group.rem_euclid(GROUP_COLORS.len() as i32) as usize];
        let b = Bounds { min: hitbox.min.min(hitbox.max), max: hitbox.min.max(hitbox.max) };
        box_segments(&mut out.segments, &frame, &b, color);
    }
    let arm = size * 0.02;
    for attachment in &script.attachments {
        let Some(frame) = bone(&attachment.bone) else { continue };
        let p = frame.transform_point3(attachment.offset);
        cross(&mut out.segments, p, arm, ATTACHMENT_COLOR);
        out.markers.push(Marker { position: p, label: attachment.name.clone(), color: ATTACHMENT_COLOR });
    }
    // Boxes and the eye position are the entity's, in model space: the entity goes where the character walks
    // (the engine moves it by the motion studiomdl takes out of `LX`-style sequences), so they follow the
    // root's motion over the ground, not its bobbing up and down.
    let entity = Mat4::from_translation(ground_motion(asset, to_root)) * to_viewer;
    for (b, color) in [(script.bbox, BBOX_COLOR), (script.cbox, CBOX_COLOR)] {
        if let Some(b) = b {
            box_segments(&mut out.segments, &entity, &b, color);
        }
    }
    if let Some(eye) = script.eye_position {
        let p = entity.transform_point3(eye);
        cross(&mut out.segments, p, arm, EYE_COLOR);
        out.markers.push(Marker { position: p, label: "eye".to_owned(), color: EYE_COLOR });
    }
    out
}

/// How far the first root bone has moved from its bind position over the ground, in the viewer frame (Y up).
fn ground_motion(asset: &Asset, to_root: &[Mat4]) -> Vec3 {
    let skeleton = &asset.skeleton;
    let Some(root) = skeleton.parents.iter().position(Option::is_none) else { return Vec3::ZERO };
    let (Some(now), Some(bind)) = (to_root.get(root), skeleton.bind_local.get(root)) else { return Vec3::ZERO };
    let to_viewer = asset.axes.to_viewer;
    let moved = to_viewer.transform_point3(now.w_axis.truncate()) - to_viewer.transform_point3(bind.translation);
    Vec3::new(moved.x, 0.0, moved.z)
}

/// The twelve edges of box `b` placed by `frame`.
fn box_segments(out: &mut Vec<Segment>, frame: &Mat4, b: &Bounds, color: [u8; 4]) {
    if b.is_empty() {
        return;
    }
    let corners = b.corners().map(|c| frame.transform_point3(c));
    for (i, j) in Bounds::EDGES {
        out.push((corners[i], corners[j], color));
    }
}

fn cross(out: &mut Vec<Segment>, p: Vec3, arm: f32, color: [u8; 4]) {
    for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
        out.push((p - axis * arm, p + axis * arm, color));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Attachment, Hitbox, ModelScript, ScriptLanguage, Transform};
    use glam::Quat;

    fn asset_with_script() -> Asset {
        let mut asset = Asset::default();
        asset.skeleton.push("Bip01", None, Transform::IDENTITY);
        asset.skeleton.push(
            "Bip01 Head",
            Some(0),
            Transform::from_translation_rotation(Vec3::Y * 10.0, Quat::IDENTITY),
        );
        asset.skeleton.recompute_inverse_bind();
        let mut script = ModelScript::new(ScriptLanguage::ValveQc);
        script.hitboxes.push(Hitbox {
            group: 1,
            bone: "bip01 head".into(),
            min: Vec3::splat(-1.0),
            max: Vec3::splat(1.0),
            file: 0,
            line: 3,
        });
        script.attachments.push(Attachment {
            name: "0".into(),
            bone: "Bip01 Head".into(),
            offset: Vec3::X * 2.0,
            file: 0,
            line: 4,
        });
        script.hitboxes.push(Hitbox {
            group: 0,
            bone: "missing".into(),
            min: Vec3::ZERO,
            max: Vec3::ONE,
            file: 0,
            line: 5,
        });
        asset.model_script = Some(Box::new(script));
        asset
    }

    #[test]
    fn hitboxes_and_attachments_ride_on_their_bones() {
        let asset = asset_with_script();
        let to_root = asset.skeleton.bind_to_root();
        let shapes = script_shapes(&asset, &to_root, 10.0);
        // One box (12 edges; the hitbox on a missing bone is skipped) and one attachment cross (3).
        assert_eq!(shapes.segments.len(), 15);
        let to_viewer = asset.axes.to_viewer;
        let head = to_viewer.transform_point3(Vec3::Y * 10.0);
        let corners: Vec<Vec3> = shapes.segments[..12].iter().flat_map(|s| [s.0, s.1]).collect();
        assert!(corners.iter().all(|c| (*c - head).abs().max_element() <= 1.0 + 1e-5), "{corners:?}");
        assert_eq!(shapes.markers[0].position, to_viewer.transform_point3(Vec3::new(2.0, 10.0, 0.0)));
        // Moving the head bone moves its box.
        let mut moved = to_root.clone();
        moved[1] = Mat4::from_translation(Vec3::new(5.0, 10.0, 0.0));
        let shapes = script_shapes(&asset, &moved, 10.0);
        assert_eq!(shapes.markers[0].position, to_viewer.transform_point3(Vec3::new(7.0, 10.0, 0.0)));
    }

    #[test]
    fn the_eye_and_the_boxes_follow_the_character_over_the_ground() {
        let mut asset = asset_with_script();
        let script = asset.model_script.as_mut().unwrap();
        script.eye_position = Some(Vec3::new(0.0, 12.0, 0.0));
        script.bbox = Some(Bounds { min: Vec3::splat(-1.0), max: Vec3::splat(1.0) });
        let to_viewer = asset.axes.to_viewer;
        let eye = |to_root: &[Mat4]| {
            let shapes = script_shapes(&asset, to_root, 10.0);
            shapes.markers.iter().find(|m| m.label == "eye").unwrap().position
        };
        let bind = asset.skeleton.bind_to_root();
        let at_rest = eye(&bind);
        assert_eq!(at_rest, to_viewer.transform_point3(Vec3::new(0.0, 12.0, 0.0)));
        // The root walks 30 units forward (viewer frame) and bobs 2 up: the eye goes 30 forward, not up.
        let step = to_viewer.inverse().transform_vector3(Vec3::new(0.0, 2.0, 30.0));
        let mut walked: Vec<Mat4> = bind.iter().map(|m| Mat4::from_translation(step) * *m).collect();
        assert!((eye(&walked) - at_rest - Vec3::new(0.0, 0.0, 30.0)).length() < 1e-4, "{}", eye(&walked));
        // Only the bones that moved move their own shapes; a head turned in place leaves the eye where it was.
        walked[1] = bind[1] * Mat4::from_rotation_y(1.0);
        walked[0] = bind[0];
        assert!((eye(&walked) - at_rest).length() < 1e-4);
    }

    #[test]
    fn no_script_no_shapes() {
        let asset = Asset::default();
        assert_eq!(script_shapes(&asset, &[], 1.0), ScriptShapes::default());
    }
}
