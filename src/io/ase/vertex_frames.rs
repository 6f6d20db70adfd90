//! `*MESH_ANIMATION` frames → [`VertexFrame`]s of the built mesh, in its bind space and at the clip's times.

use glam::{Mat4, Vec3};

use super::mesh::BuiltMesh;
use super::records::{RawMesh, RawNode};
use super::timing::Timing;
use crate::anim::curve::{sample_quat, sample_vec3};
use crate::io::smoothing::SmoothingGroups;
use crate::scene::{Clip, Skeleton, Transform, VertexFrame, Warning};

fn warn(warnings: &mut Vec<Warning>, line: usize, message: impl Into<String>) {
    warnings.push(Warning::new(if line == 0 { String::new() } else { format!("line {line}") }, message));
}

fn is_usable(m: &Mat4) -> bool {
    m.is_finite() && m.determinant().abs() > 1e-12
}

/// A bone's to-root matrix at `time`: only its chain of ancestors is sampled.
fn to_root_at(skeleton: &Skeleton, clip: &Clip, track_of_bone: &[Option<usize>], bone: usize, time: f32) -> Mat4 {
    let mut m = Mat4::IDENTITY;
    let mut cur = Some(bone);
    let mut steps = 0;
    while let Some(b) = cur
        && steps <= skeleton.len()
    {
        let bind = skeleton.bind_local.get(b).copied().unwrap_or_default();
        let local = match track_of_bone.get(b).copied().flatten().and_then(|t| clip.tracks.get(t)) {
            Some(track) => Transform {
                translation: sample_vec3(&track.translation, time).unwrap_or(bind.translation),
                rotation: sample_quat(&track.rotation, time).unwrap_or(bind.rotation),
                scale: sample_vec3(&track.scale, time).unwrap_or(bind.scale),
            },
            None => bind,
        };
        m = local.to_matrix() * m;
        cur = skeleton.parents.get(b).copied().flatten();
        steps += 1;
    }
    m
}

/// The mesh a node shows: its `*MESH`, or — in a file that holds only `*MESH_ANIMATION` frames (Gothic morph-mesh
/// animations) — its earliest frame.
pub(super) fn base_mesh(node: &RawNode) -> Option<&RawMesh> {
    node.mesh.as_ref().or_else(|| node.frames.iter().min_by_key(|f| f.time))
}

/// `*MESH_ANIMATION` frames → vertex frames in the mesh's bind space. The frames hold world-space vertices at
/// their time; the node's own animation is taken out (`bind_to_root · to_root(t)⁻¹`) so that skinning the
/// frame reproduces them. Normals are the frame's `*MESH_NORMALS`, or else come from its positions and the
/// mesh's smoothing groups, so a face that changes shape is lit as it is.
#[allow(clippy::too_many_arguments)]
pub(super) fn vertex_frames(
    node: &RawNode,
    built: &BuiltMesh,
    skeleton: &Skeleton,
    animation: Option<(&Clip, &[Option<usize>])>,
    timing: &Timing,
    bind_to_root: Mat4,
    bone: usize,
    warnings: &mut Vec<Warning>,
) -> Vec<VertexFrame> {
    let Some(base) = base_mesh(node) else { return Vec::new() };
    let mut frames: Vec<&RawMesh> = node.frames.iter().collect();
    frames.sort_by_key(|f| f.time);
    let corners: Vec<[u32; 3]> = base.faces.iter().map(|f| f.v).collect();
    let groups: Vec<u32> = base.faces.iter().map(|f| f.smoothing).collect();
    let mut out = Vec::with_capacity(frames.len());
    let mut skipped = 0usize;
    for frame in frames {
        if frame.positions.len() != base.positions.len() {
            skipped += 1;
            continue;
        }
        let time = timing.seconds(frame.time);
        let undo = match animation {
            Some((clip, tracks)) if !clip.tracks.is_empty() => {
                let now = to_root_at(skeleton, clip, tracks, bone, time);
                if is_usable(&now) { bind_to_root * now.inverse() } else { Mat4::IDENTITY }
            }
            _ => Mat4::IDENTITY,
        };
        let positions =
            built.source_vertex.iter().map(|&v| undo.transform_point3(frame.positions[v as usize])).collect();
        let file_normals = frame.normals.len() == base.faces.len() && frame.faces.len() == base.faces.len();
        let corner_normal: Vec<Vec3> = if file_normals {
            Vec::new()
        } else {
            SmoothingGroups::new(&frame.positions, &corners, &groups, false).corner_normals(&corners)
        };
        let normals = built
            .source_corner
            .iter()
            .map(|&c| {
                let n = if file_normals {
                    frame.normals[c as usize / 3][c as usize % 3]
                } else {
                    corner_normal.get(c as usize).copied().unwrap_or(Vec3::Z)
                };
                undo.transform_vector3(if n.is_finite() { n } else { Vec3::Z }).normalize_or(Vec3::Z)
            })
            .collect();
        out.push(VertexFrame { time, positions, normals });
    }
    if skipped > 0 {
        warn(
            warnings,
            node.line,
            format!(
                "'{}': {skipped} *MESH_ANIMATION frame(s) have a different vertex count than the mesh; skipped",
                node.name
            ),
        );
    }
    out
}
