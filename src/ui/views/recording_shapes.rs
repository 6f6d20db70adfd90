//! Input recordings (MRTK hands, gaze, head camera) at the current time as lines and points in the viewer frame,
//! for both draw paths: the GPU overlay draws them depth-tested with the mesh, the egui painter (the fallback)
//! on top. Hands are their 27 joints and the bones between them (a pinching hand in yellow), with each joint's
//! axes when joint axes are shown; the gaze a 2 m ray; the head camera a small frustum with its up side marked.
//!
//! Must not touch: egui, GPU.

use glam::{Mat4, Vec3};

use crate::anim::recording::RecordingPose;
use crate::scene::{HAND_BONES, Hand};

use crate::ui::views::model_script_shapes::Segment;

/// A joint marker: position, colour, diameter in pixels.
pub type Point = (Vec3, [u8; 4], f32);

#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordingShapes {
    pub segments: Vec<Segment>,
    pub points: Vec<Point>,
}

const LEFT_HAND: [u8; 4] = [80, 200, 255, 255];
const RIGHT_HAND: [u8; 4] = [255, 130, 90, 255];
const PINCHING: [u8; 4] = [255, 235, 80, 255];
const GAZE: [u8; 4] = [120, 255, 120, 255];
const FRUSTUM: [u8; 4] = [215, 215, 215, 255];
const FRUSTUM_UP: [u8; 4] = [70, 200, 70, 255];
const AXES: [[u8; 4]; 3] = [[230, 70, 70, 255], [70, 200, 70, 255], [80, 120, 255, 255]];

/// The shapes of `recordings` (already evaluated), placed by `to_viewer`; `joint_axes` adds each hand joint's
/// frame, 1.5 cm long (twisted or flipped joint rotations show at a glance).
pub fn recording_shapes(recordings: &[RecordingPose], to_viewer: Mat4, joint_axes: bool) -> RecordingShapes {
    let m = to_viewer;
    let mut out = RecordingShapes::default();
    for rec in recordings {
        for hand in Hand::BOTH {
            let h = rec.hand(hand);
            if !h.present || !h.tracked {
                continue;
            }
            let base = match hand {
                Hand::Left => LEFT_HAND,
                Hand::Right => RIGHT_HAND,
            };
            let color = if h.pinching { PINCHING } else { base };
            let p: Vec<Vec3> = h.joints.iter().map(|j| m.transform_point3(j.position)).collect();
            for &(a, b) in &HAND_BONES {
                let (Some(ja), Some(jb)) = (h.joints.get(a), h.joints.get(b)) else { continue };
                if ja.recorded && jb.recorded {
                    out.segments.push((p[a], p[b], color));
                }
            }
            for (j, q) in h.joints.iter().zip(&p) {
                if !j.recorded {
                    continue;
                }
                out.points.push((*q, color, 5.0));
                if joint_axes {
                    for (axis, c) in [Vec3::X, Vec3::Y, Vec3::Z].into_iter().zip(AXES) {
                        out.segments.push((*q, *q + m.transform_vector3(j.rotation * axis) * 0.015, c));
                    }
                }
            }
        }
        if let Some(g) = rec.gaze {
            let o = m.transform_point3(g.origin);
            out.segments.push((o, o + m.transform_vector3(g.direction) * 2.0, GAZE));
        }
        if let Some(c) = rec.camera {
            // Unity cameras look along +Z with +Y up.
            let (depth, half_w, half_h) = (0.12, 0.07, 0.045);
            let o = m.transform_point3(c.position);
            let at = |x: f32, y: f32, z: f32| m.transform_point3(c.position + c.rotation * Vec3::new(x, y, z));
            let corners = [
                at(-half_w, -half_h, depth),
                at(half_w, -half_h, depth),
                at(half_w, half_h, depth),
                at(-half_w, half_h, depth),
            ];
            for (i, &corner) in corners.iter().enumerate() {
                out.segments.push((o, corner, FRUSTUM));
                out.segments.push((corner, corners[(i + 1) % 4], FRUSTUM));
            }
            // A small triangle over the top edge says which way is up.
            let up = at(0.0, half_h * 1.8, depth);
            out.segments.push((corners[2], up, FRUSTUM_UP));
            out.segments.push((up, corners[3], FRUSTUM_UP));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::recording::evaluate;
    use crate::scene::samples::demo_recording::demo_recording;

    #[test]
    fn the_demo_recording_gives_hands_a_gaze_ray_and_a_frustum() {
        let rec = demo_recording();
        let mut pose = RecordingPose::default();
        evaluate(&rec, 1.0, &mut pose);
        let shapes = recording_shapes(std::slice::from_ref(&pose), Mat4::IDENTITY, false);
        // Two tracked hands of 26 joints' worth of bones, a gaze ray, eight frustum edges and the up mark.
        assert!(shapes.points.len() >= 2 * 20, "{}", shapes.points.len());
        assert!(shapes.segments.iter().any(|s| s.2 == GAZE));
        assert_eq!(shapes.segments.iter().filter(|s| s.2 == FRUSTUM).count(), 8);
        let with_axes = recording_shapes(std::slice::from_ref(&pose), Mat4::IDENTITY, true);
        assert_eq!(with_axes.segments.len(), shapes.segments.len() + 3 * shapes.points.len());
    }
}
