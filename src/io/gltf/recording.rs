//! glTF export of MRTK recordings: each hand as a node with its 26 joints as animated children (joint poses in
//! a recording are world-space, so the joints are siblings, not a chain), hidden (scale 0, stepped) while the
//! hand is untracked; the eye gaze as an animated node whose −Z axis follows the gaze ray; the head as an
//! animated glTF camera. Sampled at 30 frames per second over the recording.

use glam::{Quat, Vec3};
use gltf::json;

use super::animation::push_channel;
use super::builder::Builder;
use crate::anim::recording::RecordingPose;
use crate::scene::{HAND_JOINT_NAMES, Hand, Recording};

const SAMPLE_RATE: f32 = 30.0;

/// Animated channels of one node, filled frame by frame.
#[derive(Default)]
struct NodeTrack {
    translations: Vec<Vec3>,
    rotations: Vec<Quat>,
}

pub(super) fn export_recordings(
    builder: &mut Builder,
    recordings: &[Recording],
    scene_nodes: &mut Vec<json::Index<json::Node>>,
) {
    for recording in recordings {
        export_recording(builder, recording, scene_nodes);
    }
}

pub(super) fn export_recording(
    builder: &mut Builder,
    recording: &Recording,
    scene_nodes: &mut Vec<json::Index<json::Node>>,
) {
    let frames = ((recording.duration * SAMPLE_RATE).ceil() as usize).clamp(1, 1 << 20);
    let times: Vec<f32> = (0..=frames).map(|f| (f as f32 / SAMPLE_RATE).min(recording.duration.max(0.0))).collect();
    let mut times = times;
    times.dedup_by(|b, a| *b <= *a);

    // Joint 0 ("None") carries no pose.
    let joints = 1..HAND_JOINT_NAMES.len();
    let mut hand_tracks: Vec<Vec<NodeTrack>> =
        Hand::BOTH.iter().map(|_| joints.clone().map(|_| NodeTrack::default()).collect()).collect();
    let mut hand_visible: Vec<Vec<Vec3>> = vec![Vec::new(); 2];
    let mut gaze = NodeTrack::default();
    let mut camera = NodeTrack::default();
    let mut pose = RecordingPose::default();
    for &t in &times {
        crate::anim::recording::evaluate(recording, t, &mut pose);
        for hand in Hand::BOTH {
            let hand_pose = pose.hand(hand);
            hand_visible[hand.index()].push(Vec3::splat(if hand_pose.tracked { 1.0 } else { 0.0 }));
            for (track, joint) in hand_tracks[hand.index()].iter_mut().zip(&hand_pose.joints[1..]) {
                track.translations.push(builder.point(joint.position));
                track.rotations.push(builder.rotation(joint.rotation));
            }
        }
        if let Some(ray) = &pose.gaze {
            let direction = builder.point(ray.direction).try_normalize().unwrap_or(Vec3::NEG_Z);
            gaze.translations.push(builder.point(ray.origin));
            gaze.rotations.push(Quat::from_rotation_arc(Vec3::NEG_Z, direction));
        }
        if let Some(cam) = &pose.camera {
            camera.translations.push(builder.point(cam.position));
            camera.rotations.push(builder.rotation(cam.rotation));
        }
    }

    let input = builder.time_accessor(&times);
    let mut channels = Vec::new();
    let mut samplers = Vec::new();
    let animate = |builder: &mut Builder, node, track: &NodeTrack, channels: &mut Vec<_>, samplers: &mut Vec<_>| {
        if track.translations.len() == times.len() {
            let output = builder.vec3_accessor(&track.translations, false, None);
            push_channel(
                channels,
                samplers,
                node,
                json::animation::Property::Translation,
                input,
                output,
                json::animation::Interpolation::Linear,
            );
        }
        if track.rotations.len() == times.len() {
            let output = builder.quat_accessor(&continuous(&track.rotations));
            push_channel(
                channels,
                samplers,
                node,
                json::animation::Property::Rotation,
                input,
                output,
                json::animation::Interpolation::Linear,
            );
        }
    };

    if recording.hands.is_some() {
        for hand in Hand::BOTH {
            let children: Vec<_> = joints
                .clone()
                .zip(&hand_tracks[hand.index()])
                .map(|(j, track)| {
                    let node = builder.root.push(json::Node {
                        name: Some(format!("{} {}", hand.name(), HAND_JOINT_NAMES[j])),
                        ..Default::default()
                    });
                    animate(builder, node, track, &mut channels, &mut samplers);
                    node
                })
                .collect();
            let hand_node = builder.root.push(json::Node {
                name: Some(format!("{} hand", hand.name())),
                children: Some(children),
                ..Default::default()
            });
            let visibility = builder.vec3_accessor(&hand_visible[hand.index()], false, None);
            push_channel(
                &mut channels,
                &mut samplers,
                hand_node,
                json::animation::Property::Scale,
                input,
                visibility,
                json::animation::Interpolation::Step,
            );
            scene_nodes.push(hand_node);
        }
    }
    if recording.gaze.is_some() {
        let node = builder.root.push(json::Node { name: Some("eye gaze".into()), ..Default::default() });
        animate(builder, node, &gaze, &mut channels, &mut samplers);
        scene_nodes.push(node);
    }
    if recording.camera.is_some() {
        let camera_index = builder.root.push(json::Camera {
            name: Some("head".into()),
            orthographic: None,
            perspective: Some(json::camera::Perspective {
                aspect_ratio: Some(16.0 / 9.0),
                yfov: 1.0,
                zfar: Some(100.0),
                znear: 0.05,
                extensions: None,
                extras: Default::default(),
            }),
            type_: json::validation::Checked::Valid(json::camera::Type::Perspective),
            extensions: None,
            extras: Default::default(),
        });
        let node = builder.root.push(json::Node {
            name: Some("head camera".into()),
            camera: Some(camera_index),
            ..Default::default()
        });
        animate(builder, node, &camera, &mut channels, &mut samplers);
        scene_nodes.push(node);
    }
    if channels.is_empty() {
        builder
            .report
            .warnings
            .push(format!("recording '{}' has no camera, hand or gaze data: nothing animated", recording.name));
        return;
    }
    let name = if recording.name.is_empty() { "recording".to_owned() } else { recording.name.clone() };
    builder.root.push(json::Animation {
        extensions: None,
        extras: Default::default(),
        channels,
        name: Some(name),
        samplers,
    });
}

/// Keeps consecutive quaternions in one hemisphere so linear interpolation takes the short way.
pub(super) fn continuous(rotations: &[Quat]) -> Vec<Quat> {
    let mut out: Vec<Quat> = Vec::with_capacity(rotations.len());
    for q in rotations {
        let q = q.normalize();
        let q = match out.last() {
            Some(prev) if prev.dot(q) < 0.0 => -q,
            _ => q,
        };
        out.push(q);
    }
    out
}
