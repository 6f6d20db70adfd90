//! QC delta sequences: animations meant to be added to another pose, not played alone. Source's studiomdl
//! marks a sequence `delta` and, on it or on its `$animation`, `subtract <sequence> <frame>` to store the
//! difference between each frame and that frame of another sequence; the engine then adds that difference to
//! whatever plays underneath (`$animation a_strokechin "strokechin" subtract idle 0` + `$sequence strokechin
//! { a_strokechin delta }`, the Valve Developer Community's `$sequence` example). `predelta` (or `delta` without
//! `subtract`) says the file holds such differences already. Played alone as a full pose, a delta file tips a
//! character over: its root's difference is near the identity, not the root's real orientation.
//!
//! The reading used: the difference per bone is `reference⁻¹ · frame` for rotation, `frame − reference` for
//! translation and `frame / reference` for scale (what [`crate::anim::apply_additive`] adds back), the reference
//! being the subtracted sequence's frame, or nothing for data that is already a difference. The clip is then
//! stored as that difference added to the bind pose, so that played alone it shows the motion on the
//! character's own pose (as a model viewer's "play this layer" does), and it is marked additive
//! ([`crate::scene::ClipScript::additive`]) so that a mixer layers it on another clip as an additive track
//! measured against the bind pose, which gives back exactly the difference the engine adds.

use glam::{Quat, Vec3};

use crate::anim::curve::{sample_quat, sample_vec3};
use crate::scene::{Clip, ModelScript, Position, Skeleton, Transform, Warning};

/// How a sequence's frames become differences.
#[derive(Clone, Debug, PartialEq)]
enum Delta {
    /// `subtract <sequence> <frame>`: measured from that frame of that sequence.
    Subtract { sequence: String, frame: i32 },
    /// `predelta`, or `delta` alone: the frames are differences already.
    Already,
}

/// The delta reading of a sequence's options (`["delta", "subtract idle 0"]`), if it is one.
fn delta_of(options: &[String]) -> Option<Delta> {
    let mut is_delta = false;
    for option in options {
        let mut words = option.split_whitespace();
        match words.next().map(str::to_ascii_lowercase).as_deref() {
            Some("subtract" | "presubtract") => {
                let sequence = words.next()?.trim_matches('"').to_owned();
                let frame = words.next().and_then(|f| f.parse().ok()).unwrap_or(0);
                return Some(Delta::Subtract { sequence, frame });
            }
            Some("delta" | "predelta") => is_delta = true,
            _ => {}
        }
    }
    is_delta.then_some(Delta::Already)
}

/// Rewrites the delta sequences' clips as their differences on the bind pose and marks them additive; one
/// warning lists them and says how they are shown.
pub(super) fn apply(skeleton: &Skeleton, script: &ModelScript, clips: &mut [Clip], warnings: &mut Vec<Warning>) {
    let mut shown = Vec::new();
    for i in 0..clips.len() {
        let Some(sequence) = clips[i].script.as_ref().map(|s| s.sequence) else { continue };
        let Some(delta) = script.sequences.get(sequence).and_then(|s| delta_of(&s.options)) else { continue };
        let reference: Vec<Transform> = match &delta {
            Delta::Already => vec![Transform::IDENTITY; skeleton.len()],
            Delta::Subtract { sequence: name, frame } => {
                match clips.iter().find(|c| c.name.eq_ignore_ascii_case(name)) {
                    Some(base) => pose_at(skeleton, base, *frame),
                    None => {
                        // studiomdl stops here; a viewer measures from the clip's own first frame instead.
                        warnings.push(Warning::new(
                            Position::File,
                            format!(
                                "sequence \"{}\": `subtract {name} {frame}` names no sequence of this model; its \
                                 difference is measured from its own first frame",
                                clips[i].name
                            ),
                        ));
                        pose_at(skeleton, &clips[i], 0)
                    }
                }
            }
        };
        let clip = &mut clips[i];
        add_to_bind_pose(skeleton, clip, &reference);
        if let Some(s) = clip.script.as_mut() {
            s.additive = true;
        }
        shown.push(match delta {
            Delta::Already => format!("\"{}\"", clip.name),
            Delta::Subtract { sequence, frame } => format!("\"{}\" (minus {sequence} frame {frame})", clip.name),
        });
    }
    if !shown.is_empty() {
        warnings.push(Warning::new(
            Position::File,
            format!(
                "{} delta sequence(s), differences meant to be added to another pose: {}; shown added to the bind \
                 pose, and layered as additive tracks (vs bind pose) in the mixer",
                shown.len(),
                shown.join(", ")
            ),
        ));
    }
}

/// Every bone's local transform in `clip` at its frame `frame` (bones it does not animate: the bind pose).
fn pose_at(skeleton: &Skeleton, clip: &Clip, frame: i32) -> Vec<Transform> {
    let time = frame.max(0) as f32 / clip.frame_rate.max(f32::EPSILON);
    let mut pose = skeleton.bind_local.clone();
    for track in &clip.tracks {
        let Some(bone) = skeleton.find(&track.bone_name) else { continue };
        let t = &mut pose[bone];
        t.translation = sample_vec3(&track.translation, time).unwrap_or(t.translation);
        t.rotation = sample_quat(&track.rotation, time).unwrap_or(t.rotation);
        t.scale = sample_vec3(&track.scale, time).unwrap_or(t.scale);
    }
    pose
}

/// Each key becomes `bind ⊕ (reference⁻¹ ⊕ key)`. The maps are constant per bone and linear (rotation: a fixed
/// quaternion on the left; translation: a shift; scale: a fixed factor), so interpolation between keys and the
/// tangents of curved keys carry over unchanged in meaning.
fn add_to_bind_pose(skeleton: &Skeleton, clip: &mut Clip, reference: &[Transform]) {
    for track in &mut clip.tracks {
        let Some(bone) = skeleton.find(&track.bone_name) else { continue };
        let (bind, base) = (skeleton.bind_local[bone], reference.get(bone).copied().unwrap_or(Transform::IDENTITY));
        let turn = bind.rotation * base.rotation.inverse();
        let shift = bind.translation - base.translation;
        let factor = Vec3::select(base.scale.cmpeq(Vec3::ZERO), Vec3::ONE, bind.scale / base.scale);
        let turn_quat = |q: Quat| (turn * q).normalize();
        track.rotation.values.iter_mut().for_each(|q| *q = turn_quat(*q));
        track.rotation.tangents.iter_mut().for_each(|(a, b)| (*a, *b) = (turn * *a, turn * *b));
        track.translation.values.iter_mut().for_each(|t| *t += shift);
        track.scale.values.iter_mut().for_each(|s| *s *= factor);
        track.scale.tangents.iter_mut().for_each(|(a, b)| (*a, *b) = (*a * factor, *b * factor));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{BoneTrack, ClipScript, Curve, ScriptLanguage, ScriptSequence, SequenceKind};

    fn options(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn options_say_which_sequences_are_deltas() {
        assert_eq!(delta_of(&options(&["loop", "fps 30"])), None);
        assert_eq!(delta_of(&options(&["delta"])), Some(Delta::Already));
        assert_eq!(delta_of(&options(&["predelta", "autoplay"])), Some(Delta::Already));
        assert_eq!(
            delta_of(&options(&["delta", "subtract idle 3"])),
            Some(Delta::Subtract { sequence: "idle".into(), frame: 3 })
        );
    }

    fn sequence(name: &str, words: &[&str]) -> ScriptSequence {
        let mut s = ScriptSequence::new(name, SequenceKind::Sequence, 30.0, 0, 1);
        s.options = options(words);
        s
    }

    fn one_bone_clip(name: &str, rotations: Vec<Quat>, sequence: usize) -> Clip {
        let times: Vec<f32> = (0..rotations.len()).map(|i| i as f32 / 30.0).collect();
        let translations = vec![Vec3::new(0.0, 0.0, 1.0); rotations.len()];
        Clip {
            name: name.into(),
            duration: times.last().copied().unwrap_or(0.0),
            frame_rate: 30.0,
            frame_count: rotations.len() as u32,
            tracks: vec![BoneTrack {
                bone_name: "root".into(),
                translation: Curve::linear(times.clone(), translations),
                rotation: Curve::linear(times, rotations),
                scale: Curve::constant(Vec3::ONE),
            }],
            script: Some(Box::new(ClipScript { sequence, ..ClipScript::default() })),
            ..Clip::default()
        }
    }

    #[test]
    fn a_subtracted_sequence_plays_its_difference_on_the_bind_pose() {
        // A Z-up root lying in the file's frame: the bind pose turns it upright (a quarter turn about X).
        let upright = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
        let mut skeleton = Skeleton::default();
        skeleton.push("root", None, Transform { rotation: upright, ..Transform::IDENTITY });
        let idle = Quat::from_rotation_y(0.3);
        let nod = Quat::from_rotation_z(0.2);
        let mut script = ModelScript::new(ScriptLanguage::ValveQc);
        script.sequences = vec![sequence("idle", &[]), sequence("nod", &["delta", "subtract idle 0"])];
        let mut clips =
            vec![one_bone_clip("idle", vec![idle, idle], 0), one_bone_clip("nod", vec![idle, idle * nod], 1)];
        let mut warnings = Vec::new();
        apply(&skeleton, &script, &mut clips, &mut warnings);
        let track = &clips[1].tracks[0];
        // Frame 0 equals the subtracted frame: no difference, the bind pose.
        assert!(track.rotation.values[0].dot(upright).abs() > 1.0 - 1e-5);
        // Frame 1: the bind pose turned by the nod.
        assert!(track.rotation.values[1].dot(upright * nod).abs() > 1.0 - 1e-5);
        assert_eq!(track.translation.values[1], Vec3::new(0.0, 0.0, 0.0), "translation relative to idle's");
        assert!(clips[1].script.as_ref().unwrap().additive);
        assert!(!clips[0].script.as_ref().unwrap().additive, "the base sequence is left alone");
        assert!(warnings.iter().any(|w| w.message.contains("\"nod\" (minus idle frame 0)")));
        // Layered on the bind pose as an additive track, the difference comes back exactly.
        let mut out = skeleton.bind_local.clone();
        let pose = [Transform { rotation: track.rotation.values[1], ..Transform::IDENTITY }];
        crate::anim::apply_additive(&mut out, &pose, &skeleton.bind_local, 1.0, None);
        assert!(out[0].rotation.dot(upright * nod).abs() > 1.0 - 1e-5);
    }

    #[test]
    fn a_predelta_file_no_longer_tips_the_character_over() {
        let upright = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
        let mut skeleton = Skeleton::default();
        skeleton.push("root", None, Transform { rotation: upright, ..Transform::IDENTITY });
        let mut script = ModelScript::new(ScriptLanguage::ValveQc);
        script.sequences = vec![sequence("breathe", &["predelta"])];
        // Differences near the identity: played as a full pose the root would lie on its back.
        let mut clips = vec![one_bone_clip("breathe", vec![Quat::IDENTITY, Quat::from_rotation_x(0.05)], 0)];
        apply(&skeleton, &script, &mut clips, &mut Vec::new());
        let first = clips[0].tracks[0].rotation.values[0];
        assert!(first.dot(upright).abs() > 1.0 - 1e-5, "frame 0 is the upright bind pose");
    }
}
