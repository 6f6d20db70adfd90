//! Vertex animation as morph playback: key meshes ("tweening", ASE `*MESH_ANIMATION`, Gothic morph-mesh heads,
//! VTA flex frames) become sparse morph targets plus weight tracks, so the one morph path (controller → weights →
//! GPU) plays them and no second, tween-only path exists.
//!
//! **Tweening as weights.** Tweening shows, at time `t`, `lerp(frame a, frame b, s)` for the two frames around `t`
//! (see `anim::tween`, which stays as the reference). With one morph target per frame (`frame − base`) and
//! weights `1 − s` on `a` and `s` on `b`, the morphed mesh is `base + (1 − s)(a − base) + s (b − base)`, the same
//! thing. So frame `k`'s weight ramps 0 → 1 → 0 across its neighbours' times: keys `(t(k−1), 0)`, `(t(k), 1)`,
//! `(t(k+1), 0)`, linear. Outside the frames the first or last frame is held, as curves clamp. Frames that share
//! a time are laid out so that sampling gives exactly what `anim::tween::frame_pair` picks (see [`tween_tracks`]).
//!
//! Reads and extends scene data only; sampling and blending the weights is `anim`'s business.

use glam::Vec3;

use super::{Asset, Clip, Curve, Mesh, MorphTarget, MorphTrack, Warning};

/// Name of the clip made for vertex animation when the asset has no single clip to carry it.
pub const VERTEX_ANIMATION_CLIP: &str = "vertex animation";

/// A frame's vertex counts as moved when its position differs from the base by more than this fraction of the
/// mesh's size (or its normal by more than this, absolute). Key meshes written out in full repeat the unmoved
/// vertices with float noise (ASE frames are taken back into bind space through a matrix); a millionth of the
/// model is far below what can be seen and keeps the targets sparse.
pub const MOVED_TOLERANCE: f32 = 1e-6;

/// Weight tracks that tween through a sequence of key frames: frame `k` sits at `times[k]` and drives the target
/// `targets[k]` (`None` for a frame that is the base mesh itself, such as a VTA's `time 0`, which needs no
/// target). At any time the weights of the frames add up to 1 and equal `anim::tween::frame_pair`'s blend of
/// the frames **in ascending time order** (frames with the same time keep their given order); frames with a
/// non-finite time are left out.
///
/// Frames sharing a time: tweening shows the last of them at that time (the first, at the very first time) and
/// ramps from the first of them on the way in; the weights do the same, using two keys at one time for the jump
/// (a curve takes the later key's value at the time itself).
pub fn tween_tracks(times: &[f32], targets: &[Option<&str>], mesh: Option<&str>) -> Vec<MorphTrack> {
    let mut order: Vec<usize> = (0..times.len().min(targets.len())).filter(|&k| times[k].is_finite()).collect();
    order.sort_by(|&a, &b| times[a].total_cmp(&times[b]));
    // Distinct times and, for each, the run of `order` at that time.
    let mut groups: Vec<(f32, usize, usize)> = Vec::new();
    for (i, &k) in order.iter().enumerate() {
        match groups.last_mut() {
            Some(g) if g.0 == times[k] => g.2 = i + 1,
            _ => groups.push((times[k], i, i + 1)),
        }
    }
    let mut tracks = Vec::new();
    for (j, &(time, start, end)) in groups.iter().enumerate() {
        for (i, &k) in order.iter().enumerate().take(end).skip(start) {
            let Some(name) = targets[k] else { continue };
            let one = |is: bool| if is { 1.0 } else { 0.0 };
            let mut keys: Vec<(f32, f32)> = Vec::with_capacity(4);
            if j > 0 {
                keys.push((groups[j - 1].0, 0.0));
                // Arriving: the first frame at this time is where the ramp from the previous time leads; at the
                // time itself the last one is shown.
                let (arriving, shown) = (one(i == start), one(i + 1 == end));
                if arriving != shown {
                    keys.push((time, arriving));
                }
                keys.push((time, shown));
            } else {
                // The very first time: the first frame is shown there; the ramp to the next time leaves from the
                // last frame at it.
                let (shown, leaving) = (one(i == start), one(i + 1 == end));
                keys.push((time, shown));
                if leaving != shown {
                    keys.push((time, leaving));
                }
            }
            if let Some(next) = groups.get(j + 1) {
                keys.push((next.0, 0.0));
            }
            tracks.push(MorphTrack {
                target: name.to_owned(),
                mesh: mesh.map(str::to_owned),
                weights: Curve::linear(
                    keys.iter().map(|k| k.0).collect::<Vec<f32>>(),
                    keys.iter().map(|k| k.1).collect(),
                ),
            });
        }
    }
    tracks
}

/// What [`vertex_frame_morphs`] makes of one mesh's vertex frames.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VertexFrameMorphs {
    /// One target per frame, in the mesh's frame order, named `frame K` and marked with
    /// [`MorphTarget::vertex_frame`].
    pub targets: Vec<MorphTarget>,
    /// The tweening weights of those targets (one track per frame), naming the mesh.
    pub tracks: Vec<MorphTrack>,
    /// Time of the last frame (seconds).
    pub end: f32,
}

/// The name of the target made from vertex frame `k`.
pub fn vertex_frame_target_name(k: usize) -> String {
    format!("frame {k}")
}

/// The size a mesh's moved-vertex tolerance is measured against: the diagonal of its bounding box.
fn mesh_size(mesh: &Mesh) -> f32 {
    let (lo, hi) =
        mesh.positions.iter().fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    let size = if mesh.positions.is_empty() { 0.0 } else { (hi - lo).length() };
    if size.is_finite() { size } else { 0.0 }
}

/// A sparse morph target that takes `mesh` to one full key mesh (`positions`, and `normals` when it has one per
/// vertex): the vertices that move by more than [`MOVED_TOLERANCE`] of the mesh's size (or whose normal turns
/// by more than that), with their deltas. Non-finite deltas count as no movement. Normal deltas are dropped when
/// all are zero. `positions` shorter than the mesh leave the missing vertices where they are.
pub fn frame_target(mesh: &Mesh, name: String, positions: &[Vec3], normals: &[Vec3]) -> MorphTarget {
    frame_target_within(mesh, name, positions, normals, mesh_size(mesh) * MOVED_TOLERANCE)
}

fn frame_target_within(
    mesh: &Mesh,
    name: String,
    positions: &[Vec3],
    normals: &[Vec3],
    position_tolerance: f32,
) -> MorphTarget {
    let normals = if normals.len() == mesh.positions.len() { Some(normals) } else { None };
    let mut target = MorphTarget { name, ..MorphTarget::default() };
    for (v, (base, moved)) in mesh.positions.iter().zip(positions).enumerate() {
        let dp = *moved - *base;
        let dn = match (normals, mesh.normals.get(v)) {
            (Some(ns), Some(base_n)) => ns[v] - *base_n,
            _ => Vec3::ZERO,
        };
        let dp = if dp.is_finite() { dp } else { Vec3::ZERO };
        let dn = if dn.is_finite() { dn } else { Vec3::ZERO };
        if dp.abs().max_element() > position_tolerance || dn.abs().max_element() > MOVED_TOLERANCE {
            target.vertices.push(v as u32);
            target.position_deltas.push(dp);
            target.normal_deltas.push(dn);
        }
    }
    if target.normal_deltas.iter().all(|d| *d == Vec3::ZERO) {
        target.normal_deltas.clear();
    }
    target
}

/// A vertex frame with another number of positions than its mesh has vertices.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "mesh '{mesh}': vertex frame {frame} has {positions} positions for {vertices} vertices; its vertex animation is not played"
)]
pub struct FrameCountError {
    pub mesh: String,
    pub frame: usize,
    pub positions: usize,
    pub vertices: usize,
}

/// Turns a mesh's [`Mesh::vertex_frames`] into sparse morph targets (frame − base, moved vertices only; see
/// [`MOVED_TOLERANCE`]) and tweening weight tracks. `Ok(None)` for a mesh without frames. A frame whose vertex
/// count differs from the mesh's is an error (tweening ignores such a mesh's frames altogether).
pub fn vertex_frame_morphs(mesh: &Mesh) -> Result<Option<VertexFrameMorphs>, FrameCountError> {
    let frames = &mesh.vertex_frames;
    if frames.is_empty() {
        return Ok(None);
    }
    let n = mesh.positions.len();
    if let Some((k, f)) = frames.iter().enumerate().find(|(_, f)| f.positions.len() != n) {
        return Err(FrameCountError { mesh: mesh.name.clone(), frame: k, positions: f.positions.len(), vertices: n });
    }
    let position_tolerance = mesh_size(mesh) * MOVED_TOLERANCE;
    let targets: Vec<MorphTarget> = frames
        .iter()
        .enumerate()
        .map(|(k, frame)| MorphTarget {
            vertex_frame: Some(k),
            ..frame_target_within(
                mesh,
                vertex_frame_target_name(k),
                &frame.positions,
                &frame.normals,
                position_tolerance,
            )
        })
        .collect();
    let times: Vec<f32> = frames.iter().map(|f| f.time).collect();
    let names: Vec<Option<&str>> = targets.iter().map(|t| Some(t.name.as_str())).collect();
    let tracks = tween_tracks(&times, &names, Some(&mesh.name));
    let end = times.iter().copied().filter(|t| t.is_finite()).fold(0.0f32, f32::max);
    Ok(Some(VertexFrameMorphs { targets, tracks, end }))
}

/// Converts one mesh's vertex frames into targets (appended to its [`Mesh::morph_targets`]) and adds their
/// tweening tracks to `clip`, which is stretched to the last frame. For vertex animation bound from another file
/// (`io::bind`), where the clip is that file's and not the model's only one. Returns the number of targets
/// added: 0 for a mesh without frames or one whose frames were converted before.
pub fn convert_mesh_vertex_animation(mesh: &mut Mesh, clip: &mut Clip) -> Result<usize, FrameCountError> {
    if mesh.morph_targets.iter().any(|t| t.vertex_frame.is_some()) {
        return Ok(0);
    }
    let Some(morphs) = vertex_frame_morphs(mesh)? else { return Ok(0) };
    let frames = u32::try_from(mesh.vertex_frames.len()).unwrap_or(u32::MAX);
    clip.duration = clip.duration.max(morphs.end);
    clip.frame_count = clip.frame_count.max(frames);
    clip.morph_tracks.extend(morphs.tracks);
    let added = morphs.targets.len();
    mesh.morph_targets.extend(morphs.targets);
    Ok(added)
}

/// What [`convert_vertex_animation`] did.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct VertexAnimationReport {
    /// Meshes whose frames became targets.
    pub meshes: usize,
    /// Targets added over all meshes.
    pub targets: usize,
    /// The clip that carries the weight tracks (`None` when nothing was converted).
    pub clip: Option<String>,
}

/// Converts every mesh's vertex frames into morph targets (appended to [`Mesh::morph_targets`]) and their
/// tweening tracks. The tracks join the asset's clip when it has exactly one (the file's own timeline: an ASE
/// file's node animation and mesh animation share it), else a new clip named [`VERTEX_ANIMATION_CLIP`].
///
/// The frames stay in [`Mesh::vertex_frames`] as the source; a mesh that already has targets made from its frames
/// is left alone, so calling this twice changes nothing. Problems (frames of the wrong size) become warnings on
/// the asset.
pub fn convert_vertex_animation(asset: &mut Asset) -> VertexAnimationReport {
    let mut report = VertexAnimationReport::default();
    let mut tracks = Vec::new();
    let (mut end, mut frame_count, mut spacing) = (0.0f32, 0u32, f32::INFINITY);
    for mesh in &mut asset.meshes {
        if mesh.morph_targets.iter().any(|t| t.vertex_frame.is_some()) {
            continue;
        }
        match vertex_frame_morphs(mesh) {
            Ok(Some(morphs)) => {
                report.meshes += 1;
                report.targets += morphs.targets.len();
                end = end.max(morphs.end);
                frame_count = frame_count.max(u32::try_from(mesh.vertex_frames.len()).unwrap_or(u32::MAX));
                for w in mesh.vertex_frames.windows(2) {
                    let gap = w[1].time - w[0].time;
                    if gap > 0.0 {
                        spacing = spacing.min(gap);
                    }
                }
                mesh.morph_targets.extend(morphs.targets);
                tracks.extend(morphs.tracks);
            }
            Ok(None) => {}
            Err(error) => asset.warnings.push(Warning::new("", error.to_string())),
        }
    }
    if tracks.is_empty() {
        return report;
    }
    let clip = match asset.clips.as_mut_slice() {
        [only] => only,
        _ => {
            let frame_rate = if spacing.is_finite() { 1.0 / spacing } else { 30.0 };
            asset.clips.push(Clip {
                name: VERTEX_ANIMATION_CLIP.to_owned(),
                frame_rate,
                frame_count,
                ..Clip::default()
            });
            let last = asset.clips.len() - 1;
            &mut asset.clips[last]
        }
    };
    clip.duration = clip.duration.max(end);
    clip.frame_count = clip.frame_count.max(frame_count);
    clip.morph_tracks.extend(tracks);
    report.clip = Some(clip.name.clone());
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::curve::sample;
    use crate::anim::tween::frame_pair;
    use crate::scene::VertexFrame;

    /// Weights of the tracks at `t`, per frame (0 for frames without a track).
    fn weights_at(tracks: &[MorphTrack], frames: usize, t: f32) -> Vec<f32> {
        let mut w = vec![0.0; frames];
        for track in tracks {
            let k: usize = track.target.trim_start_matches('f').parse().unwrap();
            w[k] = sample(&track.weights, t).unwrap();
        }
        w
    }

    fn tween_weights(times: &[f32], t: f32) -> Vec<f32> {
        let frames: Vec<VertexFrame> =
            times.iter().map(|&time| VertexFrame { time, ..VertexFrame::default() }).collect();
        let mut w = vec![0.0; times.len()];
        let (a, b, s) = frame_pair(&frames, t).unwrap();
        w[a] += 1.0 - s;
        w[b] += s;
        w
    }

    fn check(times: &[f32]) {
        let names: Vec<String> = (0..times.len()).map(|k| format!("f{k}")).collect();
        let targets: Vec<Option<&str>> = names.iter().map(|n| Some(n.as_str())).collect();
        let tracks = tween_tracks(times, &targets, None);
        assert_eq!(tracks.len(), times.len());
        let mut probes: Vec<f32> = times.iter().flat_map(|&t| [t - 0.25, t - 1e-3, t, t + 1e-3, t + 0.3]).collect();
        probes.extend([-10.0, 100.0, f32::NAN]);
        for t in probes {
            let (got, want) = (weights_at(&tracks, times.len(), t), tween_weights(times, t));
            if times.contains(&t) {
                assert_eq!(got, want, "times {times:?}, on the key at {t}");
            }
            for (g, w) in got.iter().zip(&want) {
                assert!((g - w).abs() <= 1e-5, "times {times:?}, t = {t}: {got:?} vs tween {want:?}");
            }
        }
    }

    #[test]
    fn weights_follow_tween_for_ascending_and_shared_times() {
        check(&[0.0, 1.0, 3.0]);
        check(&[0.5, 0.75, 2.0, 2.5]);
        check(&[2.0]);
        check(&[0.0, 1.0, 1.0, 2.0]);
        check(&[0.0, 1.0, 1.0, 1.0, 2.0]);
        check(&[0.0, 0.0, 1.0]);
        check(&[0.0, 0.0, 0.0, 1.0, 1.0]);
    }

    #[test]
    fn base_frames_need_no_target() {
        // A VTA: time 0 is the base; frames 1 and 2 are flexes.
        let tracks = tween_tracks(&[0.0, 1.0, 2.0], &[None, Some("smile"), Some("blink")], Some("face"));
        assert_eq!(tracks.len(), 2);
        assert_eq!(tracks[0].mesh.as_deref(), Some("face"));
        assert_eq!(
            (tracks[0].weights.times.to_vec(), tracks[0].weights.values.clone()),
            (vec![0.0, 1.0, 2.0], vec![0.0, 1.0, 0.0])
        );
        assert_eq!(sample(&tracks[1].weights, 5.0), Some(1.0));
        assert_eq!(sample(&tracks[1].weights, 0.5), Some(0.0));
    }

    fn animated_mesh() -> Mesh {
        let positions = vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(1.0, 1.0, 0.0)];
        let moved = |dx: f32| vec![Vec3::new(dx, 0.0, 0.0), Vec3::X, Vec3::Y, Vec3::new(1.0, 1.0 + dx, 0.0)];
        Mesh {
            name: "blob".into(),
            normals: vec![Vec3::Z; 4],
            vertex_frames: vec![
                VertexFrame { time: 0.0, positions: positions.clone(), normals: Vec::new() },
                VertexFrame { time: 0.5, positions: moved(2.0), normals: vec![Vec3::Z, Vec3::Z, Vec3::Z, Vec3::X] },
                VertexFrame { time: 1.5, positions: moved(-1.0), normals: Vec::new() },
            ],
            positions,
            ..Mesh::default()
        }
    }

    #[test]
    fn frames_become_sparse_targets_and_a_clip() {
        let mut asset = Asset::new(crate::scene::Format::Ase);
        asset.meshes.push(animated_mesh());
        let report = convert_vertex_animation(&mut asset);
        assert_eq!(report, VertexAnimationReport { meshes: 1, targets: 3, clip: Some(VERTEX_ANIMATION_CLIP.into()) });
        let mesh = &asset.meshes[0];
        // Frame 0 equals the base: an empty target. Frames 1 and 2 move vertices 0 and 3 only.
        assert!(mesh.morph_targets[0].vertices.is_empty());
        assert_eq!(mesh.morph_targets[1].vertices, [0, 3]);
        assert_eq!(mesh.morph_targets[1].position_deltas, [Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.0, 2.0, 0.0)]);
        assert_eq!(mesh.morph_targets[1].normal_deltas, [Vec3::ZERO, Vec3::X - Vec3::Z]);
        assert!(mesh.morph_targets[2].normal_deltas.is_empty());
        assert_eq!(mesh.morph_targets[2].vertex_frame, Some(2));
        let clip = &asset.clips[0];
        assert_eq!((clip.duration, clip.frame_count, clip.frame_rate), (1.5, 3, 2.0));
        assert_eq!(clip.morph_tracks.len(), 3);
        assert!(clip.morph_tracks.iter().all(|t| t.mesh.as_deref() == Some("blob")));
        // Converting again changes nothing.
        let before = asset.clone();
        assert_eq!(convert_vertex_animation(&mut asset), VertexAnimationReport::default());
        assert_eq!(asset.meshes, before.meshes);
        assert_eq!(asset.clips, before.clips);
    }

    #[test]
    fn the_only_clip_carries_the_tracks_and_bad_frames_warn() {
        let mut asset = Asset::new(crate::scene::Format::Ase);
        asset.clips.push(Clip { name: "Take 001".into(), duration: 1.0, ..Clip::default() });
        asset.meshes.push(animated_mesh());
        let mut bad = animated_mesh();
        bad.name = "bad".into();
        bad.vertex_frames[1].positions.pop();
        asset.meshes.push(bad);
        let report = convert_vertex_animation(&mut asset);
        assert_eq!((report.meshes, report.clip.as_deref()), (1, Some("Take 001")));
        assert_eq!(asset.clips.len(), 1);
        assert_eq!(asset.clips[0].duration, 1.5, "stretched to the last frame");
        assert!(asset.meshes[1].morph_targets.is_empty());
        assert!(asset.warnings.iter().any(|w| w.message.contains("'bad'") && w.message.contains("3 positions")));
    }
}
