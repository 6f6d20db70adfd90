//! The animation controller end to end: playback types, the mixer, masks and additive tracks, the sequencer and
//! callback keys, on small hand-built rigs and on the demo character.

use std::sync::Arc;

use bonescope::anim::Pose;
use bonescope::anim::blend::BoneMask;
use bonescope::anim::controller::{
    AdditiveReference, BlendMode, CallbackEvent, Controller, EventKind, EventState, PlaybackType, TrackEvent,
    Transition,
};
use bonescope::scene::samples::demo::demo_asset;
use bonescope::scene::{BoneTrack, CallbackKey, Clip, Curve, Interpolation, Skeleton, Transform};
use glam::{Mat4, Quat, Vec3};

// ----- helpers ----------------------------------------------------------------------------------------------

/// root ─ spine ─ head
///    └── hip ─ leg
fn small_skeleton() -> Skeleton {
    let mut s = Skeleton::default();
    s.push("root", None, Transform::IDENTITY);
    s.push("spine", Some(0), Transform::from_translation_rotation(Vec3::Y, Quat::IDENTITY));
    s.push("head", Some(1), Transform::from_translation_rotation(Vec3::Y, Quat::IDENTITY));
    s.push("hip", Some(0), Transform::from_translation_rotation(-Vec3::Y, Quat::IDENTITY));
    s.push("leg", Some(3), Transform::from_translation_rotation(-Vec3::Y, Quat::IDENTITY));
    s.recompute_inverse_bind();
    s
}

/// A clip that holds every listed bone at one transform (two equal keys at 0 and `duration`).
fn pose_clip(name: &str, duration: f32, bones: &[(&str, Vec3, Quat)]) -> Clip {
    let tracks = bones
        .iter()
        .map(|&(bone, t, q)| BoneTrack {
            bone_name: bone.into(),
            translation: Curve::linear(vec![0.0, duration], vec![t, t]),
            rotation: Curve::linear(vec![0.0, duration], vec![q, q]),
            scale: Curve::default(),
        })
        .collect();
    Clip { name: name.into(), duration, frame_rate: 30.0, frame_count: 2, tracks, ..Clip::default() }
}

/// A clip whose root translation x equals the local time (a readable playhead), with callback keys.
fn ramp_clip(duration: f32, keys: &[f32]) -> Clip {
    Clip {
        name: "ramp".into(),
        duration,
        frame_rate: 30.0,
        frame_count: 2,
        tracks: vec![BoneTrack {
            bone_name: "root".into(),
            translation: Curve::linear(vec![0.0, duration], vec![Vec3::ZERO, Vec3::new(duration, 0.0, 0.0)]),
            ..BoneTrack::default()
        }],
        callback_keys: keys.iter().map(|&t| CallbackKey::new(t, format!("key@{t}"))).collect(),
        ..Clip::default()
    }
}

fn controller() -> Controller {
    Controller::new(Arc::new(small_skeleton()))
}

fn local_pose(ctrl: &mut Controller) -> Vec<Transform> {
    let mut out = vec![Transform::IDENTITY; ctrl.skeleton().len()];
    ctrl.evaluate_local(&mut out).unwrap();
    out
}

fn same_rotation(a: Quat, b: Quat) -> bool {
    a.dot(b).abs() > 1.0 - 1e-6
}

fn assert_same_pose(a: &[Transform], b: &[Transform]) {
    assert_eq!(a.len(), b.len());
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!(x.translation.abs_diff_eq(y.translation, 1e-5), "bone {i}: {x:?} vs {y:?}");
        assert!(x.scale.abs_diff_eq(y.scale, 1e-5), "bone {i}: {x:?} vs {y:?}");
        assert!(same_rotation(x.rotation, y.rotation), "bone {i}: {x:?} vs {y:?}");
    }
}

/// Advances in `steps` equal steps and collects (track, data) of every callback.
fn run(ctrl: &mut Controller, total: f64, steps: usize) -> Vec<(usize, String)> {
    let mut heard = Vec::new();
    for _ in 0..steps {
        ctrl.advance(total / steps as f64, |e: &CallbackEvent| heard.push((e.track, e.data.to_owned())));
    }
    heard
}

// ----- playback types ---------------------------------------------------------------------------------------

#[test]
fn playback_types_map_position_to_local_time() {
    let mut ctrl = controller();
    let set = ctrl.add_set(ramp_clip(2.0, &[]), PlaybackType::Loop);
    let tracks: Vec<usize> = (0..4).map(|_| ctrl.add_track(Some(set)).unwrap()).collect();
    ctrl.set_track_playback(tracks[1], Some(PlaybackType::PingPong)).unwrap();
    ctrl.set_track_playback(tracks[2], Some(PlaybackType::Once)).unwrap();
    ctrl.set_track_playback(tracks[3], Some(PlaybackType::ClampForever)).unwrap();

    run(&mut ctrl, 1.5, 3);
    let at = |ctrl: &Controller, t: usize| ctrl.track_local_time(t).unwrap();
    for &t in &tracks {
        assert!((at(&ctrl, t) - 1.5).abs() < 1e-6, "all agree inside the clip");
    }
    run(&mut ctrl, 1.0, 2); // position 2.5
    assert!((at(&ctrl, tracks[0]) - 0.5).abs() < 1e-5, "loop wraps");
    assert!((at(&ctrl, tracks[1]) - 1.5).abs() < 1e-5, "ping-pong reflects");
    assert!(!ctrl.track(tracks[2]).unwrap().is_enabled(), "once stops after the end");
    assert_eq!(ctrl.track(tracks[2]).unwrap().position(), 0.0, "and rewinds for a replay");
    assert_eq!(at(&ctrl, tracks[3]), 2.0, "clamp holds the last frame");
    assert!(ctrl.track(tracks[3]).unwrap().is_enabled());
    run(&mut ctrl, 2.0, 4); // position 4.5
    assert!((at(&ctrl, tracks[0]) - 0.5).abs() < 1e-5);
    assert!((at(&ctrl, tracks[1]) - 0.5).abs() < 1e-5, "second leg back towards 0, then forwards again");
    assert_eq!(at(&ctrl, tracks[3]), 2.0);

    // The clamped track plays back at once when reversed.
    ctrl.set_speed(tracks[3], -1.0).unwrap();
    run(&mut ctrl, 0.5, 1);
    assert!((at(&ctrl, tracks[3]) - 1.5).abs() < 1e-6);

    // The pose follows the local time: root x is the clip's local time for the lone loop track.
    for &t in &tracks[1..] {
        ctrl.set_enabled(t, false).unwrap();
    }
    let pose = local_pose(&mut ctrl);
    assert!((pose[0].translation.x - at(&ctrl, tracks[0])).abs() < 1e-5);
}

#[test]
fn set_playback_applies_to_tracks_without_an_override() {
    let mut ctrl = controller();
    let set = ctrl.add_set(ramp_clip(1.0, &[]), PlaybackType::Loop);
    let a = ctrl.add_track(Some(set)).unwrap();
    let b = ctrl.add_track(Some(set)).unwrap();
    ctrl.set_track_playback(b, Some(PlaybackType::Loop)).unwrap();
    ctrl.set_playback(set, PlaybackType::ClampForever).unwrap();
    run(&mut ctrl, 1.25, 1);
    assert_eq!(ctrl.track_playback(a), Some(PlaybackType::ClampForever));
    assert_eq!(ctrl.track_local_time(a), Some(1.0));
    assert!((ctrl.track_local_time(b).unwrap() - 0.25).abs() < 1e-6);
}

#[test]
fn once_track_finishes_and_the_bind_pose_returns() {
    let mut ctrl = controller();
    let set = ctrl.add_set(ramp_clip(1.0, &[]), PlaybackType::Once);
    let t = ctrl.add_track(Some(set)).unwrap();
    run(&mut ctrl, 1.0, 4);
    assert!(ctrl.track(t).unwrap().is_enabled(), "reaching the end exactly still shows the last frame");
    assert!((local_pose(&mut ctrl)[0].translation.x - 1.0).abs() < 1e-5);
    run(&mut ctrl, 0.1, 1);
    assert!(!ctrl.track(t).unwrap().is_enabled());
    assert_same_pose(&local_pose(&mut ctrl), &small_skeleton().bind_local);
    // Backwards from the end: finishes past the start and rewinds to the end.
    ctrl.set_speed(t, -1.0).unwrap();
    ctrl.set_position(t, 1.0).unwrap();
    ctrl.set_enabled(t, true).unwrap();
    run(&mut ctrl, 1.2, 3);
    assert!(!ctrl.track(t).unwrap().is_enabled());
    assert_eq!(ctrl.track(t).unwrap().position(), 1.0);
}

// ----- mixer ------------------------------------------------------------------------------------------------

#[test]
fn two_tracks_at_quarter_and_three_quarters_blend_as_expected() {
    let mut ctrl = controller();
    let qa = Quat::from_rotation_z(0.2);
    let qb = Quat::from_rotation_x(-0.8);
    let a = ctrl.add_set(pose_clip("a", 1.0, &[("spine", Vec3::new(4.0, 1.0, 0.0), qa)]), PlaybackType::Loop);
    let b = ctrl.add_set(pose_clip("b", 1.0, &[("spine", Vec3::new(0.0, 1.0, 8.0), qb)]), PlaybackType::Loop);
    let ta = ctrl.add_track(Some(a)).unwrap();
    let tb = ctrl.add_track(Some(b)).unwrap();
    ctrl.set_weight(ta, 0.25).unwrap();
    ctrl.set_weight(tb, 0.75).unwrap();
    run(&mut ctrl, 0.3, 1);
    let pose = local_pose(&mut ctrl);
    assert!(pose[1].translation.abs_diff_eq(Vec3::new(1.0, 1.0, 6.0), 1e-5), "{:?}", pose[1]);
    let want = (qa * 0.25 + qb * 0.75).normalize();
    assert!(same_rotation(pose[1].rotation, want), "{:?} vs {want:?}", pose[1].rotation);
    // Bones neither clip animates keep the bind pose.
    assert_same_pose(&pose[2..], &small_skeleton().bind_local[2..]);

    // Only the ratio matters once the weights reach 1 in total: 1 and 3 give the same pose.
    ctrl.set_weight(ta, 1.0).unwrap();
    ctrl.set_weight(tb, 3.0).unwrap();
    assert_same_pose(&local_pose(&mut ctrl), &pose);
}

#[test]
fn rotations_in_opposite_hemispheres_blend_the_short_way() {
    let mut ctrl = controller();
    let a = ctrl.add_set(pose_clip("a", 1.0, &[("head", Vec3::Y, Quat::from_rotation_y(0.5))]), PlaybackType::Loop);
    let b = ctrl.add_set(pose_clip("b", 1.0, &[("head", Vec3::Y, -Quat::from_rotation_y(1.5))]), PlaybackType::Loop);
    ctrl.add_track(Some(a)).unwrap();
    let tb = ctrl.add_track(Some(b)).unwrap();
    ctrl.set_weight(tb, 1.0).unwrap();
    let pose = local_pose(&mut ctrl);
    assert!(same_rotation(pose[2].rotation, Quat::from_rotation_y(1.0)), "{:?}", pose[2].rotation);
}

#[test]
fn weight_zero_and_disabled_tracks_contribute_nothing() {
    let mut ctrl = controller();
    let a = ctrl.add_set(
        pose_clip("a", 1.0, &[("spine", Vec3::new(2.0, 1.0, 0.0), Quat::from_rotation_z(0.4))]),
        PlaybackType::Loop,
    );
    let b = ctrl.add_set(
        pose_clip(
            "b",
            1.0,
            &[("spine", Vec3::new(9.0, 9.0, 9.0), Quat::from_rotation_x(2.0)), ("leg", Vec3::Z, Quat::IDENTITY)],
        ),
        PlaybackType::Loop,
    );
    let ta = ctrl.add_track(Some(a)).unwrap();
    ctrl.set_weight(ta, 0.6).unwrap();
    let alone = local_pose(&mut ctrl);

    let zero = ctrl.add_track(Some(b)).unwrap();
    ctrl.set_weight(zero, 0.0).unwrap();
    let off = ctrl.add_track(Some(b)).unwrap();
    ctrl.set_enabled(off, false).unwrap();
    let additive_zero = ctrl.add_track(Some(b)).unwrap();
    ctrl.set_blend_mode(additive_zero, BlendMode::Additive(AdditiveReference::BindPose)).unwrap();
    ctrl.set_weight(additive_zero, 0.0).unwrap();
    ctrl.add_track(None).unwrap(); // no set at all
    run(&mut ctrl, 0.4, 2);
    assert_same_pose(&local_pose(&mut ctrl), &alone);

    // Disabling everything leaves the bind pose.
    ctrl.set_enabled(ta, false).unwrap();
    assert_same_pose(&local_pose(&mut ctrl), &small_skeleton().bind_local);
}

#[test]
fn a_lone_track_below_full_weight_sits_between_bind_and_clip_unless_normalised() {
    let mut ctrl = controller();
    let a =
        ctrl.add_set(pose_clip("a", 1.0, &[("spine", Vec3::new(0.0, 5.0, 0.0), Quat::IDENTITY)]), PlaybackType::Loop);
    let t = ctrl.add_track(Some(a)).unwrap();
    ctrl.set_weight(t, 0.25).unwrap();
    assert!((local_pose(&mut ctrl)[1].translation.y - 2.0).abs() < 1e-5, "bind y 1, clip y 5, a quarter of the way");
    ctrl.set_rest_threshold(0.0);
    assert!((local_pose(&mut ctrl)[1].translation.y - 5.0).abs() < 1e-5, "normalised");
}

#[test]
fn masked_track_moves_only_its_branch() {
    let skeleton = small_skeleton();
    let mut ctrl = controller();
    let everything =
        |x: f32| ["root", "spine", "head", "hip", "leg"].map(|b| (b, Vec3::new(x, 0.0, 0.0), Quat::from_rotation_z(x)));
    let base = ctrl.add_set(pose_clip("base", 1.0, &everything(0.1)), PlaybackType::Loop);
    let wave = ctrl.add_set(pose_clip("wave", 1.0, &everything(0.7)), PlaybackType::Loop);
    let tb = ctrl.add_track(Some(base)).unwrap();
    let base_only = local_pose(&mut ctrl);

    let upper = BoneMask::from_bone_name(&skeleton, "spine").unwrap();
    let tw = ctrl.add_track(Some(wave)).unwrap();
    ctrl.set_mask(tw, Some(upper.clone())).unwrap();
    ctrl.set_mask(tb, Some(upper.inverted())).unwrap();
    let pose = local_pose(&mut ctrl);
    for bone in [0, 3, 4] {
        assert_same_pose(&pose[bone..=bone], &base_only[bone..=bone]);
    }
    for bone in [1, 2] {
        assert!((pose[bone].translation.x - 0.7).abs() < 1e-5, "bone {bone} follows the masked track fully");
    }
    // Without the complementary mask the upper body is an even blend of the two.
    ctrl.set_mask(tb, None).unwrap();
    let pose = local_pose(&mut ctrl);
    assert!((pose[1].translation.x - 0.4).abs() < 1e-5);
    assert_same_pose(&pose[3..], &base_only[3..]);
    // Masks must fit the skeleton.
    assert!(ctrl.set_mask(tw, Some(BoneMask::all(2))).is_err());
}

#[test]
fn additive_track_adds_its_motion_only_where_it_moves() {
    let mut ctrl = controller();
    let base = ctrl.add_set(
        pose_clip("base", 1.0, &[("spine", Vec3::new(0.0, 1.0, 0.0), Quat::from_rotation_z(0.3))]),
        PlaybackType::Loop,
    );
    // Additive clip: the head nods about X from its first frame, and the spine holds still (no delta).
    let nod = Clip {
        name: "nod".into(),
        duration: 1.0,
        frame_rate: 30.0,
        frame_count: 2,
        tracks: vec![
            BoneTrack {
                bone_name: "head".into(),
                translation: Curve::linear(vec![0.0, 1.0], vec![Vec3::Y, Vec3::new(0.0, 1.0, 0.5)]),
                rotation: Curve::linear(vec![0.0, 1.0], vec![Quat::IDENTITY, Quat::from_rotation_x(0.6)]),
                scale: Curve::default(),
            },
            BoneTrack {
                bone_name: "spine".into(),
                rotation: Curve::constant(Quat::from_rotation_y(1.0)),
                ..BoneTrack::default()
            },
        ],
        callback_keys: Vec::new(),
        ..Clip::default()
    };
    let nod = ctrl.add_set(nod, PlaybackType::Loop);
    ctrl.add_track(Some(base)).unwrap();
    let base_only = local_pose(&mut ctrl);
    let add = ctrl.add_track(Some(nod)).unwrap();
    ctrl.set_blend_mode(add, BlendMode::Additive(AdditiveReference::FirstFrame)).unwrap();
    ctrl.set_position(add, 0.5).unwrap();
    let pose = local_pose(&mut ctrl);
    // Spine: constant in the additive clip, so its delta from the first frame is zero.
    assert_same_pose(&pose[..2], &base_only[..2]);
    assert_same_pose(&pose[3..], &base_only[3..]);
    // Head: half the nod on top of the bind pose the base leaves it in.
    assert!(pose[2].translation.abs_diff_eq(Vec3::new(0.0, 1.0, 0.25), 1e-5));
    assert!(same_rotation(pose[2].rotation, Quat::from_rotation_x(0.3)));

    // Half weight: half the delta.
    ctrl.set_weight(add, 0.5).unwrap();
    let half = local_pose(&mut ctrl);
    assert!(half[2].translation.abs_diff_eq(Vec3::new(0.0, 1.0, 0.125), 1e-5));

    // Relative to the bind pose instead, the spine's constant Y turn is a real delta.
    ctrl.set_weight(add, 1.0).unwrap();
    ctrl.set_blend_mode(add, BlendMode::Additive(AdditiveReference::BindPose)).unwrap();
    let pose = local_pose(&mut ctrl);
    let want = Quat::from_rotation_z(0.3) * Quat::from_rotation_y(1.0);
    assert!(same_rotation(pose[1].rotation, want));

    // A masked additive track leaves bones outside the mask alone.
    let legs = BoneMask::from_bone_name(ctrl.skeleton(), "hip").unwrap();
    ctrl.set_mask(add, Some(legs)).unwrap();
    assert_same_pose(&local_pose(&mut ctrl), &base_only);
}

#[test]
fn step_and_hermite_curves_sample_through_the_controller() {
    let mut ctrl = controller();
    let clip = Clip {
        name: "kinds".into(),
        duration: 2.0,
        frame_rate: 30.0,
        frame_count: 3,
        tracks: vec![
            BoneTrack {
                bone_name: "spine".into(),
                translation: Curve {
                    times: vec![0.0, 1.0, 2.0].into(),
                    values: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
                    interpolation: Interpolation::Step,
                    tangents: Vec::new(),
                },
                ..BoneTrack::default()
            },
            BoneTrack {
                bone_name: "head".into(),
                // x(t) = t³ on [0, 2] as Hermite: tangents 0 and 12 per second.
                translation: Curve {
                    times: vec![0.0, 2.0].into(),
                    values: vec![Vec3::ZERO, Vec3::splat(8.0)],
                    interpolation: Interpolation::Hermite,
                    tangents: vec![(Vec3::ZERO, Vec3::ZERO), (Vec3::splat(12.0), Vec3::splat(12.0))],
                },
                ..BoneTrack::default()
            },
        ],
        callback_keys: Vec::new(),
        ..Clip::default()
    };
    let set = ctrl.add_set(clip, PlaybackType::Loop);
    ctrl.add_track(Some(set)).unwrap();
    run(&mut ctrl, 1.5, 3);
    let pose = local_pose(&mut ctrl);
    assert_eq!(pose[1].translation, Vec3::X, "step holds the key at 1 s");
    assert!((pose[2].translation.x - 1.5f32.powi(3)).abs() < 1e-4, "{:?}", pose[2].translation);
}

// ----- sequencer --------------------------------------------------------------------------------------------

#[test]
fn cross_fade_ramps_weights_as_specified() {
    for transition in [Transition::Linear, Transition::CubicSpline] {
        let mut ctrl = controller();
        let set = ctrl.add_set(ramp_clip(1.0, &[]), PlaybackType::Loop);
        let from = ctrl.add_track(Some(set)).unwrap();
        let to = ctrl.add_track(Some(set)).unwrap();
        ctrl.set_enabled(to, false).unwrap();
        ctrl.cross_fade(from, to, 1.0, 2.0, transition).unwrap();
        let ease = |u: f32| match transition {
            Transition::Linear => u,
            Transition::CubicSpline => 3.0 * u * u - 2.0 * u * u * u,
        };
        // Before the start nothing changes; the new track is still disabled. (Steps of 1/8 s are exact in
        // binary, so the clock lands exactly on the fade's start and end.)
        run(&mut ctrl, 0.875, 7);
        assert_eq!(ctrl.track(from).unwrap().weight(), 1.0);
        assert!(!ctrl.track(to).unwrap().is_enabled());
        assert_eq!(ctrl.events().len(), 4);
        assert!(ctrl.events().iter().all(|e| e.state == EventState::Pending));
        for step in 1..=17 {
            run(&mut ctrl, 0.125, 1);
            let t = ctrl.time();
            let u = (((t - 1.0) / 2.0).clamp(0.0, 1.0)) as f32;
            let w_to = ctrl.track(to).unwrap().weight();
            let w_from = ctrl.track(from).unwrap().weight();
            assert!((w_to - ease(u)).abs() < 1e-6, "{transition:?} t={t}: to {w_to}, want {}", ease(u));
            assert!((w_from - (1.0 - ease(u))).abs() < 1e-6, "{transition:?} t={t}: from {w_from}");
            assert!(ctrl.track(to).unwrap().is_enabled());
            if step < 17 {
                assert!(ctrl.track(from).unwrap().is_enabled(), "the old track plays until the fade ends");
            }
        }
        assert!(!ctrl.track(from).unwrap().is_enabled(), "and is disabled at the end");
        assert!(ctrl.events().is_empty(), "finished events are dropped");
    }
}

#[test]
fn events_list_shows_pending_and_running_bars() {
    let mut ctrl = controller();
    let set = ctrl.add_set(ramp_clip(1.0, &[]), PlaybackType::Loop);
    let t = ctrl.add_track(Some(set)).unwrap();
    let w = ctrl.key_weight(t, 0.0, 1.0, 2.0, Transition::Linear).unwrap();
    let s = ctrl.key_speed(t, 3.0, 5.0, 1.0, Transition::CubicSpline).unwrap();
    run(&mut ctrl, 1.5, 1);
    let events = ctrl.events();
    assert_eq!(events.len(), 2);
    assert_eq!((events[0].id, events[0].event.start, events[0].event.end()), (w, 1.0, 3.0));
    assert_eq!(events[0].state, EventState::Active { progress: 0.25 });
    assert_eq!((events[1].id, events[1].state), (s, EventState::Pending));
    assert!(ctrl.remove_event(s));
    assert!(!ctrl.remove_event(s));
    assert_eq!(ctrl.events().len(), 1);
}

#[test]
fn speed_ramps_integrate_independently_of_the_frame_rate() {
    let positions = |steps: usize| {
        let mut ctrl = controller();
        let set = ctrl.add_set(ramp_clip(10.0, &[]), PlaybackType::ClampForever);
        let t = ctrl.add_track(Some(set)).unwrap();
        ctrl.key_speed(t, 3.0, 0.5, 2.0, Transition::CubicSpline).unwrap();
        ctrl.key_weight(t, 0.5, 0.25, 1.0, Transition::Linear).unwrap();
        run(&mut ctrl, 3.0, steps);
        (ctrl.track(t).unwrap().position(), ctrl.track(t).unwrap().speed())
    };
    // 0.5 s at speed 1, 2 s ramping 1 → 3 (mean 2: the ease is symmetric), 0.5 s at speed 3.
    let (p, s) = positions(1);
    assert!((p - (0.5 + 4.0 + 1.5)).abs() < 1e-9, "{p}");
    assert_eq!(s, 3.0);
    for steps in [3, 7, 90] {
        assert!((positions(steps).0 - p).abs() < 1e-9, "{steps} steps");
    }
}

#[test]
fn speed_ramp_through_zero_turns_round_and_fires_on_the_way_back() {
    let mut ctrl = controller();
    let set = ctrl.add_set(ramp_clip(10.0, &[0.5]), PlaybackType::ClampForever);
    let t = ctrl.add_track(Some(set)).unwrap();
    ctrl.set_position(t, 0.2).unwrap();
    // Speed 1 → −1 linearly over [0, 2]: 0.5 forwards (to 0.7), then 0.5 back: over the key and back again.
    ctrl.key_speed(t, -1.0, 0.0, 2.0, Transition::Linear).unwrap();
    let mut heard = Vec::new();
    ctrl.advance(2.0, |e| heard.push((e.key_time, e.backwards, e.time)));
    assert!((ctrl.track(t).unwrap().position() - 0.2).abs() < 1e-9);
    assert_eq!(heard.len(), 2);
    assert_eq!((heard[0].0, heard[0].1, heard[1].0, heard[1].1), (0.5, false, 0.5, true));
    assert!(heard[0].2 < 1.0 && heard[1].2 > 1.0, "crossed before and after the turn at t = 1");

    // A turn exactly on a key fires it once: arriving fires, leaving does not.
    ctrl.set_position(t, 0.0).unwrap();
    ctrl.key_speed(t, 1.0, 2.0, 0.0, Transition::Linear).unwrap();
    ctrl.key_speed(t, -1.0, 2.0, 2.0, Transition::Linear).unwrap();
    let mut n = 0;
    ctrl.advance(2.0, |_| n += 1);
    assert_eq!(n, 1);
}

#[test]
fn position_and_enable_events() {
    let mut ctrl = controller();
    let set = ctrl.add_set(ramp_clip(4.0, &[1.0, 3.0]), PlaybackType::ClampForever);
    let t = ctrl.add_track(Some(set)).unwrap();
    ctrl.set_speed(t, 0.0).unwrap();
    // An instant jump at 1 s fires nothing; a ramp 2 s → 0 over [2, 3] moves continuously and fires key 1.
    ctrl.key_position(t, 2.0, 1.0, 0.0, Transition::Linear).unwrap();
    ctrl.key_position(t, 0.0, 2.0, 1.0, Transition::Linear).unwrap();
    ctrl.key_enable(t, false, 3.5).unwrap();
    let heard = run(&mut ctrl, 1.5, 3);
    assert!(heard.is_empty());
    assert_eq!(ctrl.track(t).unwrap().position(), 2.0);
    let heard = run(&mut ctrl, 1.5, 3);
    assert_eq!(heard, [(t, "key@1".to_owned())]);
    assert_eq!(ctrl.track(t).unwrap().position(), 0.0);
    run(&mut ctrl, 0.5, 1);
    assert!(!ctrl.track(t).unwrap().is_enabled());
}

#[test]
fn later_event_on_the_same_property_takes_over() {
    let mut ctrl = controller();
    let set = ctrl.add_set(ramp_clip(1.0, &[]), PlaybackType::Loop);
    let t = ctrl.add_track(Some(set)).unwrap();
    ctrl.key_weight(t, 0.0, 0.0, 2.0, Transition::Linear).unwrap();
    ctrl.key_event(TrackEvent {
        from: None,
        ..TrackEvent::new(t, EventKind::Weight(1.0), 1.0, 1.0, Transition::Linear)
    })
    .unwrap();
    run(&mut ctrl, 1.0, 2);
    assert!((ctrl.track(t).unwrap().weight() - 0.5).abs() < 1e-6);
    run(&mut ctrl, 0.5, 1);
    // The second ramp started from 0.5 at t = 1: halfway to 1.
    assert!((ctrl.track(t).unwrap().weight() - 0.75).abs() < 1e-6);
    run(&mut ctrl, 1.0, 1);
    assert_eq!(ctrl.track(t).unwrap().weight(), 1.0);
}

#[test]
fn set_time_applies_events_without_playing() {
    let mut ctrl = controller();
    let set = ctrl.add_set(ramp_clip(1.0, &[0.5]), PlaybackType::Loop);
    let t = ctrl.add_track(Some(set)).unwrap();
    ctrl.key_weight(t, 0.0, 1.0, 2.0, Transition::Linear).unwrap();
    ctrl.set_time(2.0);
    assert_eq!(ctrl.time(), 2.0);
    assert!((ctrl.track(t).unwrap().weight() - 0.5).abs() < 1e-6);
    assert_eq!(ctrl.track(t).unwrap().position(), 0.0, "tracks do not play on a clock jump");
    ctrl.reset_time();
    assert_eq!(ctrl.time(), 0.0);
    assert_eq!(ctrl.events()[0].event.start, -1.0, "events keep their distance from now");
}

#[test]
fn removing_tracks_and_sets_keeps_indices_consistent() {
    let mut ctrl = controller();
    let a = ctrl.add_set(ramp_clip(1.0, &[]), PlaybackType::Loop);
    let b = ctrl.add_set(ramp_clip(2.0, &[]), PlaybackType::Loop);
    let t0 = ctrl.add_track(Some(a)).unwrap();
    let t1 = ctrl.add_track(Some(b)).unwrap();
    ctrl.key_weight(t0, 0.0, 1.0, 1.0, Transition::Linear).unwrap();
    ctrl.key_weight(t1, 0.5, 1.0, 1.0, Transition::Linear).unwrap();
    ctrl.remove_track(t0).unwrap();
    assert_eq!(ctrl.tracks().len(), 1);
    assert_eq!(ctrl.events().len(), 1);
    assert_eq!(ctrl.events()[0].event.track, 0, "the remaining event follows its track");
    ctrl.remove_set(a).unwrap();
    assert_eq!(ctrl.track(0).unwrap().set(), Some(0), "the track follows its set down");
    assert_eq!(ctrl.set(0).unwrap().duration(), 2.0);
    assert!(ctrl.set_weight(5, 1.0).is_err());
    assert!(ctrl.add_track(Some(9)).is_err());
    assert!(ctrl.key_weight(3, 1.0, 0.0, 0.0, Transition::Linear).is_err());
}

// ----- callbacks --------------------------------------------------------------------------------------------

#[test]
fn callbacks_fire_once_per_crossing_for_steps_longer_than_the_clip() {
    let mut ctrl = controller();
    let set = ctrl.add_set(ramp_clip(1.0, &[0.25, 0.75]), PlaybackType::Loop);
    let t = ctrl.add_track(Some(set)).unwrap();
    // (0, 3.5]: 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3.25 → 7 crossings in one step.
    let heard = run(&mut ctrl, 3.5, 1);
    assert_eq!(heard.len(), 7);
    assert_eq!(heard[0], (t, "key@0.25".to_owned()));
    assert_eq!(heard[1], (t, "key@0.75".to_owned()));
    // The same stretch in small steps, including steps that end exactly on a key, gives the same sequence.
    let mut other = controller();
    let set = other.add_set(ramp_clip(1.0, &[0.25, 0.75]), PlaybackType::Loop);
    other.add_track(Some(set)).unwrap();
    assert_eq!(run(&mut other, 3.5, 14), heard);
    // Global times of the crossings are interpolated within the step.
    let mut times = Vec::new();
    ctrl.advance(1.0, |e| times.push(e.time));
    assert_eq!(times.len(), 2);
    assert!((times[0] - 3.75).abs() < 1e-9 && (times[1] - 4.25).abs() < 1e-9, "{times:?}");
}

#[test]
fn callbacks_fire_playing_backwards_through_wraps() {
    let mut ctrl = controller();
    let set = ctrl.add_set(ramp_clip(1.0, &[0.0, 0.5]), PlaybackType::Loop);
    let t = ctrl.add_track(Some(set)).unwrap();
    ctrl.set_speed(t, -1.0).unwrap();
    let mut heard = Vec::new();
    for _ in 0..25 {
        ctrl.advance(0.1, |e| heard.push((e.key_time, e.backwards)));
    }
    // Position 0 → −2.5: [−2.5, 0) holds −0.5, −1 (key 0), −1.5, −2 (key 0), −2.5 (inclusive at the end).
    let keys: Vec<f32> = heard.iter().map(|h| h.0).collect();
    assert_eq!(keys, [0.5, 0.0, 0.5, 0.0, 0.5]);
    assert!(heard.iter().all(|h| h.1));
    assert!((ctrl.track_local_time(t).unwrap() - 0.5).abs() < 1e-5);
}

#[test]
fn ping_pong_fires_on_both_legs_and_once_at_the_turn() {
    let mut ctrl = controller();
    let set = ctrl.add_set(ramp_clip(1.0, &[0.5, 1.0]), PlaybackType::PingPong);
    ctrl.add_track(Some(set)).unwrap();
    let heard: Vec<String> = run(&mut ctrl, 2.0, 7).into_iter().map(|h| h.1).collect();
    assert_eq!(heard, ["key@0.5", "key@1", "key@0.5"]);
}

#[test]
fn once_and_clamp_fire_each_key_once() {
    for playback in [PlaybackType::Once, PlaybackType::ClampForever] {
        let mut ctrl = controller();
        let set = ctrl.add_set(ramp_clip(1.0, &[0.5, 1.0]), playback);
        ctrl.add_track(Some(set)).unwrap();
        assert_eq!(run(&mut ctrl, 5.0, 10).len(), 2, "{playback:?}");
        assert_eq!(run(&mut ctrl, 5.0, 1).len(), 0, "{playback:?}");
    }
}

#[test]
fn scrubbing_fires_nothing_unless_asked() {
    let mut ctrl = controller();
    let set = ctrl.add_set(ramp_clip(1.0, &[0.25, 0.75]), PlaybackType::Loop);
    let t = ctrl.add_track(Some(set)).unwrap();
    let mut heard = 0;
    // Drag the playhead back and forth over many loops.
    for i in 0..50 {
        ctrl.set_position(t, f64::from(i % 7) * 1.3).unwrap();
        ctrl.advance(0.0, |_| heard += 1);
    }
    assert_eq!(heard, 0);
    // Playing on from the scrubbed position: only crossings from there on fire.
    ctrl.set_position(t, 10.2).unwrap();
    assert_eq!(run(&mut ctrl, 0.1, 1).len(), 1); // 10.25
    // Asked for: a jump over 20 loops fires each key once, in the order met.
    let mut keys = Vec::new();
    ctrl.set_position_with_callbacks(t, 30.5, |e| keys.push(e.key_time)).unwrap();
    assert_eq!(keys, [0.75, 0.25]);
    keys.clear();
    ctrl.set_position_with_callbacks(t, 30.4, |e| keys.push(e.key_time)).unwrap();
    assert!(keys.is_empty());
    ctrl.set_position_with_callbacks(t, 30.1, |e| keys.push(e.key_time)).unwrap();
    assert_eq!(keys, [0.25]);
}

#[test]
fn disabled_tracks_neither_move_nor_fire() {
    let mut ctrl = controller();
    let set = ctrl.add_set(ramp_clip(1.0, &[0.5]), PlaybackType::Loop);
    let t = ctrl.add_track(Some(set)).unwrap();
    ctrl.set_enabled(t, false).unwrap();
    assert!(run(&mut ctrl, 3.0, 3).is_empty());
    assert_eq!(ctrl.track(t).unwrap().position(), 0.0);
}

#[test]
fn callbacks_name_the_track() {
    let mut ctrl = controller();
    let a = ctrl.add_set(ramp_clip(1.0, &[0.5]), PlaybackType::Loop);
    let b = ctrl.add_set(ramp_clip(2.0, &[1.5]), PlaybackType::Loop);
    let ta = ctrl.add_track(Some(a)).unwrap();
    let tb = ctrl.add_track(Some(b)).unwrap();
    ctrl.set_speed(tb, 2.0).unwrap();
    let heard = run(&mut ctrl, 1.0, 5);
    assert_eq!(heard, [(ta, "key@0.5".to_owned()), (tb, "key@1.5".to_owned())]);
}

// ----- the demo character -----------------------------------------------------------------------------------

#[test]
fn demo_single_track_matches_the_clip_sampler_and_keeps_edges() {
    let asset = demo_asset();
    let mut ctrl = Controller::for_asset(&asset);
    assert_eq!(ctrl.sets().len(), 2);
    let sway = ctrl.find_set("Sway").unwrap();
    let t = ctrl.add_track(Some(sway)).unwrap();
    let mut pose = Pose::bind(ctrl.skeleton());
    let mut heard = Vec::new();
    for _ in 0..150 {
        ctrl.advance(1.0 / 30.0, |e| heard.push(e.data.to_owned()));
    }
    ctrl.evaluate_pose(&mut pose).unwrap();
    // 5 s of a 2 s loop: keys at 0.5 and 1.5 in each of 2.5 loops.
    assert_eq!(heard, ["sway_left", "sway_right", "sway_left", "sway_right", "sway_left"]);
    let local = ctrl.track_local_time(t).unwrap();
    assert!((local - 1.0).abs() < 1e-4, "{local}");
    let reference = Pose::from_clip(&asset.skeleton, &asset.clips[0], local);
    for (a, b) in pose.palette.iter().zip(&reference.palette) {
        assert!(a.abs_diff_eq(*b, 1e-4));
    }
    // Rigid bones: distances between neighbouring joints stay one segment.
    for bone in 1..pose.to_root.len() {
        let d = pose.to_root[bone].w_axis.truncate().distance(pose.to_root[bone - 1].w_axis.truncate());
        assert!((d - bonescope::scene::samples::demo::SEGMENT).abs() < 1e-4);
    }
}

#[test]
fn demo_cross_fade_passes_through_an_even_blend() {
    let asset = demo_asset();
    let mut ctrl = Controller::for_asset(&asset);
    let sway = ctrl.add_track(Some(0)).unwrap();
    let curl = ctrl.add_track(Some(1)).unwrap();
    ctrl.set_enabled(curl, false).unwrap();
    ctrl.set_track_playback(curl, Some(PlaybackType::ClampForever)).unwrap();
    ctrl.cross_fade(sway, curl, 0.5, 1.0, Transition::CubicSpline).unwrap();
    let mut local = vec![Transform::IDENTITY; asset.skeleton.len()];
    let mut to_root = vec![Mat4::IDENTITY; asset.skeleton.len()];
    let mut palette = vec![Mat4::IDENTITY; asset.skeleton.len()];
    ctrl.advance(1.0, |_| {});
    ctrl.evaluate(&mut local, &mut to_root, &mut palette).unwrap();
    // Halfway through the fade the weights are 0.5 / 0.5: each bone's rotation is the nlerp midpoint.
    let a = Pose::from_clip(&asset.skeleton, &asset.clips[0], ctrl.track_local_time(sway).unwrap());
    let b = Pose::from_clip(&asset.skeleton, &asset.clips[1], ctrl.track_local_time(curl).unwrap());
    for (bone, blended) in local.iter().enumerate() {
        let (qa, qb) = (a.local[bone].rotation, b.local[bone].rotation);
        let qb = if qa.dot(qb) < 0.0 { -qb } else { qb };
        assert!(same_rotation(blended.rotation, (qa + qb).normalize()), "bone {bone}");
    }
    ctrl.advance(1.0, |_| {});
    ctrl.evaluate(&mut local, &mut to_root, &mut palette).unwrap();
    let b = Pose::from_clip(&asset.skeleton, &asset.clips[1], ctrl.track_local_time(curl).unwrap());
    for (x, y) in palette.iter().zip(&b.palette) {
        assert!(x.abs_diff_eq(*y, 1e-4), "after the fade only the curl shows");
    }
    assert!(ctrl.evaluate(&mut local[..2], &mut to_root, &mut palette).is_err(), "buffer lengths are checked");
}

#[test]
fn upper_body_mask_on_the_demo() {
    let asset = demo_asset();
    let mut ctrl = Controller::for_asset(&asset);
    let sway = ctrl.add_track(Some(0)).unwrap();
    let curl = ctrl.add_track(Some(1)).unwrap();
    let upper = BoneMask::from_bone_name(&asset.skeleton, "segment3").unwrap();
    assert_eq!(upper.weights(), &[0.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
    ctrl.set_mask(curl, Some(upper.clone())).unwrap();
    ctrl.set_mask(sway, Some(upper.inverted())).unwrap();
    ctrl.advance(0.6, |_| {});
    let mut local = vec![Transform::IDENTITY; asset.skeleton.len()];
    ctrl.evaluate_local(&mut local).unwrap();
    let a = Pose::from_clip(&asset.skeleton, &asset.clips[0], 0.6);
    let b = Pose::from_clip(&asset.skeleton, &asset.clips[1], 0.6);
    assert_same_pose(&local[..3], &a.local[..3]);
    assert_same_pose(&local[3..], &b.local[3..]);
}

#[test]
fn demo_additive_at_its_first_frame_adds_nothing_and_later_adds_its_motion() {
    let asset = demo_asset();
    let mut ctrl = Controller::for_asset(&asset);
    let base = ctrl.add_track(Some(0)).unwrap();
    ctrl.set_position(base, 0.7).unwrap();
    let mut alone = vec![Transform::IDENTITY; asset.skeleton.len()];
    ctrl.evaluate_local(&mut alone).unwrap();
    let add = ctrl.add_track(Some(1)).unwrap();
    ctrl.set_blend_mode(add, BlendMode::Additive(AdditiveReference::FirstFrame)).unwrap();
    let mut layered = vec![Transform::IDENTITY; asset.skeleton.len()];
    ctrl.evaluate_local(&mut layered).unwrap();
    assert_same_pose(&layered, &alone);
    // Halfway through the curl, each bone turns by its curl rotation (about X) on top of the sway.
    ctrl.set_position(add, 0.75).unwrap();
    ctrl.evaluate_local(&mut layered).unwrap();
    let curl = Pose::from_clip(&asset.skeleton, &asset.clips[1], 0.75);
    for bone in 1..layered.len() {
        let want = alone[bone].rotation * curl.local[bone].rotation;
        assert!(layered[bone].rotation.dot(want).abs() > 1.0 - 1e-6, "bone {bone}");
    }
}
