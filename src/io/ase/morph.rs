//! Vertex animation from one file bound to the mesh of another: a Gothic morph-mesh animation (an `.ASC` holding
//! only `*MESH_ANIMATION` frames of a head, e.g. `HUM_HEAD_FATBALD_EAT.ASC`) opened on its base mesh
//! (`HUM_HEAD_FATBALD.ASC`, the `morphRef` of the `.MMS` script), as the engine plays it.
//!
//! Both files describe the same mesh (same vertices, same faces in the same order), but each is split into render
//! vertices its own way (the base has texture coordinates, the frames have none). Both loaders keep, per face
//! corner in file order, the render vertex it became (`Mesh::corner_vertices`), so the animation's frames are
//! carried over corner by corner. A corner mapping that contradicts itself, or frames that are nowhere near the
//! base mesh (another vertex order puts corners half the mesh apart, where a facial animation moves them by a few
//! percent of it), mean the meshes are not the same.

use glam::Vec3;

use super::super::LoadError;
use crate::scene::vertex_animation::convert_mesh_vertex_animation;
use crate::scene::{Asset, BindReport, Clip, Format, Mesh, VertexFrame, Warning, normalize_bone_name};

/// Whether `asset` is an animation of vertices only: an ASE file with vertex animation frames and no bone
/// animation, to be bound to a mesh of the model it is opened with.
pub fn is_vertex_animation(asset: &Asset) -> bool {
    asset.format == Some(Format::Ase)
        && asset.meshes.iter().any(|m| !m.vertex_frames.is_empty())
        && asset.clips.iter().all(|c| c.tracks.is_empty())
}

/// Moves the vertex animation of `animation` onto the mesh of `base` it belongs to (matched by name, then by
/// its faces) and adds its clip. An error when no mesh of `base` has the animation's faces and vertices; a
/// warning (and nothing bound) when that mesh already has vertex animation.
pub fn bind_vertex_animation(base: &mut Asset, animation: Asset) -> Result<BindReport, LoadError> {
    let mut report = BindReport { source: animation.path.clone(), ..BindReport::default() };
    let Some(source) = animation.meshes.iter().find(|m| !m.vertex_frames.is_empty()) else {
        return Ok(report);
    };
    // Same name first, then any mesh with the same number of face corners.
    let wanted = normalize_bone_name(&source.name);
    let mut candidates: Vec<usize> = (0..base.meshes.len())
        .filter(|&i| base.meshes[i].corner_vertices.len() == source.corner_vertices.len())
        .collect();
    candidates.sort_by_key(|&i| normalize_bone_name(&base.meshes[i].name) != wanted);
    let mapped = candidates.iter().find_map(|&i| corner_map(&base.meshes[i], source).map(|map| (i, map)));
    let Some((target, map)) = mapped else {
        let meshes: Vec<String> = base
            .meshes
            .iter()
            .map(|m| format!("'{}' ({} vertices, {} triangles)", m.name, m.vertex_count(), m.triangle_count()))
            .collect();
        let why = if candidates.is_empty() {
            "none has as many triangles"
        } else {
            "those with as many triangles number their vertices differently or have another shape"
        };
        return Err(LoadError::whole_file(format!(
            "its vertex animation of mesh '{}' ({} triangles) fits no mesh of the model ({why}): {}",
            source.name,
            source.triangle_count(),
            if meshes.is_empty() { "the model has no mesh".to_owned() } else { meshes.join(", ") }
        ))
        .with_kind(crate::io::LoadErrorKind::Mismatch));
    };
    let mesh = &mut base.meshes[target];
    if !mesh.vertex_frames.is_empty() {
        base.warnings.push(Warning::new(
            "",
            format!(
                "{}: mesh '{}' already has vertex animation; this file's {} frames were not bound (one vertex animation per mesh)",
                file_name(&animation),
                mesh.name,
                source.vertex_frames.len()
            ),
        ));
        return Ok(report);
    }
    mesh.vertex_frames = source.vertex_frames.iter().map(|frame| remap_frame(frame, &map)).collect();
    // The file's clip carries weight tracks for the targets made from its frames on its own mesh; they are
    // made again for the model's mesh, whose vertices (and name) are the model's.
    let source_name = source.name.clone();
    let mut clips = animation.clips;
    for clip in &mut clips {
        clip.morph_tracks.retain(|t| t.mesh.as_deref() != Some(source_name.as_str()));
    }
    if clips.is_empty() {
        clips.push(Clip { name: file_stem(&animation.path), frame_rate: 30.0, ..Clip::default() });
    }
    if let Err(message) = convert_mesh_vertex_animation(mesh, &mut clips[0]) {
        base.warnings.push(Warning::new("", format!("{}: {message}", file_name_of(animation.path.as_deref()))));
    }
    for clip in clips {
        report.clips.push(clip.name.clone());
        base.clips.push(clip);
    }
    base.warnings.extend(animation.warnings);
    base.take_readings_of(animation.path.as_deref(), animation.readings);
    Ok(report)
}

/// For each render vertex of `target`, the render vertex of `source` at the same face corners; `None` when the
/// corners disagree (a vertex of `target` would take two different positions), when a vertex of `target` is
/// on no corner, or when none of `source`'s frames (its mesh, when it has none) lies near `target` (see
/// [`NEAR_BASE`]). Shared with the MMS `morphAni` clips, whose frames come from other files than the head's.
pub(crate) fn corner_map(target: &Mesh, source: &Mesh) -> Option<Vec<u32>> {
    const UNSET: u32 = u32::MAX;
    let mut map = vec![UNSET; target.vertex_count()];
    let same_in_every_frame = |a: u32, b: u32| {
        source.vertex_frames.iter().all(|f| f.positions.get(a as usize) == f.positions.get(b as usize))
            && source.positions.get(a as usize) == source.positions.get(b as usize)
    };
    for (&t, &s) in target.corner_vertices.iter().zip(&source.corner_vertices) {
        if s as usize >= source.vertex_count() {
            return None;
        }
        let slot = map.get_mut(t as usize)?;
        if *slot == UNSET {
            *slot = s;
        } else if *slot != s && !same_in_every_frame(*slot, s) {
            return None;
        }
    }
    // Every render vertex comes from some corner; one that does not cannot be animated.
    if map.contains(&UNSET) {
        return None;
    }
    // The frames deform the base mesh: the closest one is near it on average (the Gothic heads' animations come
    // within 0.5 % of the head's size, the farthest frame within 4 %).
    let size = extent(&target.positions);
    let mean_distance = |positions: &[Vec3]| {
        let total: f32 = map
            .iter()
            .zip(&target.positions)
            .map(|(&v, p)| positions.get(v as usize).map_or(f32::INFINITY, |q| q.distance(*p)))
            .sum();
        total / map.len().max(1) as f32
    };
    let closest = if source.vertex_frames.is_empty() {
        mean_distance(&source.positions)
    } else {
        source.vertex_frames.iter().map(|f| mean_distance(&f.positions)).fold(f32::INFINITY, f32::min)
    };
    (closest <= NEAR_BASE * size).then_some(map)
}

/// A frame of `source`'s vertices in `target`'s numbering, through a [`corner_map`] (`map[v]` is the source
/// vertex of target vertex `v`).
pub(crate) fn remap_frame(frame: &VertexFrame, map: &[u32]) -> VertexFrame {
    let pick = |values: &[Vec3]| map.iter().map(|&v| values.get(v as usize).copied().unwrap_or_default()).collect();
    VertexFrame {
        time: frame.time,
        positions: pick(&frame.positions),
        normals: if frame.normals.is_empty() { Vec::new() } else { pick(&frame.normals) },
    }
}

/// How far (on average, relative to the mesh's size) the closest frame may lie from the base mesh.
const NEAR_BASE: f32 = 0.1;

/// The largest extent of a point set along an axis.
fn extent(points: &[Vec3]) -> f32 {
    let (lo, hi) = points.iter().fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    (hi - lo).max_element().max(0.0)
}

fn file_name(asset: &Asset) -> String {
    file_name_of(asset.path.as_deref())
}

fn file_name_of(path: Option<&std::path::Path>) -> String {
    path.and_then(|p| p.file_name()).map_or_else(|| "the animation".into(), |n| n.to_string_lossy().into())
}

/// The clip name for a file without a clip of its own: its stem, as the loader names clips.
fn file_stem(path: &Option<std::path::PathBuf>) -> String {
    path.as_deref()
        .and_then(|p| p.file_stem())
        .map_or_else(|| crate::scene::VERTEX_ANIMATION_CLIP.into(), |n| n.to_string_lossy().into())
}
