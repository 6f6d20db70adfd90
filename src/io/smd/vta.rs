//! VTA vertex animation as sparse morph targets, and the rule that matches a VTA to its reference mesh.
//!
//! A VTA's `vertexanimation` block starts with `time 0`, the base: position and normal of every vertex the VTA
//! knows, by index. Each later `time N` lists the vertices that move, with their new position and normal; the
//! morph target is the difference from the base. Names come from the `# comment` on the `time` line (in the
//! `vertexanimation` block, else the same frame's line in `skeleton`), or `frame N`.
//!
//! **Flex clip.** The frames also play in file order as a clip, [`crate::scene::VERTEX_ANIMATION_CLIP`]: frame
//! `N` at `N / fps` seconds, each flex's weight ramping 0 → 1 → 0 across its neighbouring frames (one weight
//! track per frame, made by [`crate::scene::vertex_animation::tween_tracks`], the base frame driving nothing),
//! so scrubbing it shows each flex in turn, as stepping through a VTA's frames in a modelling tool does.
//! Tracks name no mesh: they drive the flexes by name on whichever mesh the VTA attaches to.
//!
//! **Matching rule.** studiomdl counts VTA vertex indices over the reference SMD's triangle corners in file
//! order. So VTA vertex `i` is first looked up through the reference mesh's `corner_vertices[i]` and accepted
//! when that vertex sits where the VTA's base frame says (within a tolerance scaled to the mesh size) and its
//! normal points the same way (within about 25°). A VTA
//! vertex that fails this (a VTA made for another export of the mesh, or a mesh without a corner map) is
//! matched by position instead: every render vertex within the tolerance of its base position, keeping only
//! those whose normal also agrees when any does. A render vertex receives the first delta that reaches it.

use glam::Vec3;
use rustc_hash::FxHashMap;

use super::parse::Parsed;
use crate::io::{LoadError, LoadErrorKind};
use crate::scene::vertex_animation::tween_tracks;
use crate::scene::{Asset, Clip, Mesh, MorphTarget, Position, VERTEX_ANIMATION_CLIP, Warning};

/// The base frame and the morphs of a VTA, indexed by VTA vertex index.
pub(super) struct VertexAnimation {
    pub base_positions: Vec<Vec3>,
    pub base_normals: Vec<Vec3>,
    /// False for indices the base frame does not list.
    pub present: Vec<bool>,
    /// Morphs over VTA vertex indices (`vertices` index the base arrays).
    pub morphs: Vec<MorphTarget>,
    /// The frames played as a clip (see the module documentation).
    pub flex_clip: Clip,
}

/// The flex clip of a base frame numbered `base` and flexes at `numbers`, at `fps` frames per second.
fn flex_clip(base: i64, morphs: &[MorphTarget], numbers: &[i64], fps: f32) -> Clip {
    let fps = if fps.is_finite() && fps > 0.0 { fps } else { 30.0 };
    let mut times = vec![base as f32 / fps];
    times.extend(numbers.iter().map(|&n| n as f32 / fps));
    let mut targets: Vec<Option<&str>> = vec![None];
    targets.extend(morphs.iter().map(|m| Some(m.name.as_str())));
    let last = numbers.iter().copied().chain([base]).max().unwrap_or(0).max(0);
    Clip {
        name: VERTEX_ANIMATION_CLIP.to_owned(),
        duration: last as f32 / fps,
        frame_rate: fps,
        frame_count: u32::try_from(last.saturating_add(1)).unwrap_or(u32::MAX),
        morph_tracks: tween_tracks(&times, &targets, None),
        ..Clip::default()
    }
}

/// Builds the VTA's base, morphs and flex clip (at `fps`) from the parsed `vertexanimation` block; `None` when the
/// file has none.
pub(super) fn vertex_animation(p: &Parsed, fps: f32, warnings: &mut Vec<Warning>) -> Option<VertexAnimation> {
    let base_frame = p.vertex_frames.iter().find(|f| f.number == 0).or_else(|| p.vertex_frames.first())?;
    if base_frame.number != 0 {
        warnings.push(Warning::new(
            Position::Line(base_frame.line),
            format!("the vertex animation has no `time 0`; frame {} is used as the base", base_frame.number),
        ));
    }
    let base = p.vertex_entries.get(base_frame.entries.clone()).unwrap_or_default();
    // Indices were checked against the file size while parsing, so this allocation is bounded by it.
    let count = base.iter().map(|e| e.index as usize + 1).max().unwrap_or(0);
    let mut anim = VertexAnimation {
        base_positions: vec![Vec3::ZERO; count],
        base_normals: vec![Vec3::ZERO; count],
        present: vec![false; count],
        morphs: Vec::new(),
        flex_clip: Clip::default(),
    };
    let mut numbers = Vec::new();
    for e in base {
        let i = e.index as usize;
        anim.base_positions[i] = Vec3::new(e.values[0], e.values[1], e.values[2]);
        anim.base_normals[i] = Vec3::new(e.values[3], e.values[4], e.values[5]);
        anim.present[i] = true;
    }
    let holes = anim.present.iter().filter(|p| !**p).count();
    if holes > 0 {
        warnings.push(Warning::new(
            Position::Line(base_frame.line),
            format!("the base frame skips {holes} vertex index(es) below its highest"),
        ));
    }
    let mut unknown = 0usize;
    for frame in &p.vertex_frames {
        if std::ptr::eq(frame, base_frame) {
            continue;
        }
        let name = frame
            .name
            .clone()
            .or_else(|| p.skeleton_frames.iter().find(|f| f.number == frame.number).and_then(|f| f.name.clone()))
            .unwrap_or_else(|| format!("frame {}", frame.number));
        let mut entries: Vec<_> = p.vertex_entries.get(frame.entries.clone()).unwrap_or_default().to_vec();
        // Sorted by vertex; a vertex listed twice keeps its last line.
        entries.reverse();
        entries.sort_by_key(|e| e.index);
        entries.dedup_by_key(|e| e.index);
        let mut morph = MorphTarget { name, ..MorphTarget::default() };
        for e in entries {
            let i = e.index as usize;
            if !anim.present.get(i).copied().unwrap_or(false) {
                unknown += 1;
                continue;
            }
            let dp = Vec3::new(e.values[0], e.values[1], e.values[2]) - anim.base_positions[i];
            let dn = Vec3::new(e.values[3], e.values[4], e.values[5]) - anim.base_normals[i];
            if dp == Vec3::ZERO && dn == Vec3::ZERO {
                continue;
            }
            morph.vertices.push(e.index);
            morph.position_deltas.push(dp);
            morph.normal_deltas.push(dn);
        }
        anim.morphs.push(morph);
        numbers.push(frame.number);
    }
    anim.flex_clip = flex_clip(base_frame.number, &anim.morphs, &numbers, fps);
    if unknown > 0 {
        warnings.push(Warning::new(
            Position::File,
            format!("{unknown} vertex animation line(s) name a vertex the base frame does not list; ignored"),
        ));
    }
    Some(anim)
}

/// How a VTA was matched to a reference mesh.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct VtaBinding {
    /// Index of the reference mesh the morphs were added to.
    pub mesh: usize,
    /// Morph targets added.
    pub morph_targets: usize,
    /// VTA vertices matched through the reference's corner order.
    pub by_corner: usize,
    /// VTA vertices matched by position (their corner did not fit).
    pub by_position: usize,
    /// VTA vertices that match no reference vertex (their deltas are dropped).
    pub unmatched: usize,
}

/// Normals point the same way (within about 25°); a zero normal agrees with anything.
fn normals_agree(a: Vec3, b: Vec3) -> bool {
    let (la, lb) = (a.length(), b.length());
    la < 1e-12 || lb < 1e-12 || a.dot(b) > 0.9 * la * lb
}

/// Maps the VTA vertex indices that some morph moves to render vertices of `mesh` by the module's rule.
fn match_vertices(mesh: &Mesh, anim: &VertexAnimation, needed: &[bool]) -> (Vec<Vec<u32>>, VtaBinding) {
    let (lo, hi) =
        mesh.positions.iter().fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    let size = if mesh.positions.is_empty() { 0.0 } else { (hi - lo).length() };
    // Six printed decimals and float rounding on both sides; scaled up for large meshes.
    let tolerance = (size * 1e-5).max(1e-4);
    let mut binding = VtaBinding::default();
    let mut map: Vec<Vec<u32>> = vec![Vec::new(); anim.base_positions.len()];
    let mut leftovers = Vec::new();
    for (i, slot) in map.iter_mut().enumerate() {
        if !(anim.present[i] && needed.get(i).copied().unwrap_or(false)) {
            continue;
        }
        let by_corner = mesh.corner_vertices.get(i).filter(|&&v| {
            let v = v as usize;
            mesh.positions.get(v).is_some_and(|p| p.distance(anim.base_positions[i]) <= tolerance)
                && normals_agree(mesh.normals.get(v).copied().unwrap_or(Vec3::ZERO), anim.base_normals[i])
        });
        match by_corner {
            Some(&v) => {
                slot.push(v);
                binding.by_corner += 1;
            }
            None => leftovers.push(i),
        }
    }
    if !leftovers.is_empty() {
        let cell = tolerance * 2.0;
        let cell_of = |p: Vec3| (p / cell).floor().as_ivec3().to_array();
        let mut grid: FxHashMap<[i32; 3], Vec<u32>> = FxHashMap::default();
        for (v, p) in mesh.positions.iter().enumerate() {
            grid.entry(cell_of(*p)).or_default().push(v as u32);
        }
        for i in leftovers {
            let (bp, bn) = (anim.base_positions[i], anim.base_normals[i]);
            let c = cell_of(bp);
            let mut near = Vec::new();
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for dz in -1..=1 {
                        let key = [c[0] + dx, c[1] + dy, c[2] + dz];
                        for &v in grid.get(&key).map(Vec::as_slice).unwrap_or_default() {
                            if mesh.positions[v as usize].distance(bp) <= tolerance {
                                near.push(v);
                            }
                        }
                    }
                }
            }
            let agrees = |v: &u32| normals_agree(mesh.normals.get(*v as usize).copied().unwrap_or(Vec3::ZERO), bn);
            if near.iter().any(agrees) {
                near.retain(agrees);
            }
            if near.is_empty() {
                binding.unmatched += 1;
            } else {
                binding.by_position += 1;
                map[i] = near;
            }
        }
    }
    (map, binding)
}

/// Adds the morphs to `mesh` through `map`, returning how many were added.
fn add_morphs(mesh: &mut Mesh, anim: &VertexAnimation, map: &[Vec<u32>]) -> usize {
    let mut written = vec![u32::MAX; mesh.positions.len()];
    for (m, morph) in anim.morphs.iter().enumerate() {
        let mut entries: Vec<(u32, Vec3, Vec3)> = Vec::new();
        for (k, &i) in morph.vertices.iter().enumerate() {
            for &v in map.get(i as usize).map(Vec::as_slice).unwrap_or_default() {
                let Some(stamp) = written.get_mut(v as usize) else { continue };
                if *stamp == m as u32 {
                    continue;
                }
                *stamp = m as u32;
                let dp = morph.position_deltas.get(k).copied().unwrap_or(Vec3::ZERO);
                let dn = morph.normal_deltas.get(k).copied().unwrap_or(Vec3::ZERO);
                entries.push((v, dp, dn));
            }
        }
        entries.sort_by_key(|e| e.0);
        mesh.morph_targets.push(MorphTarget {
            name: morph.name.clone(),
            vertices: entries.iter().map(|e| e.0).collect(),
            position_deltas: entries.iter().map(|e| e.1).collect(),
            normal_deltas: entries.iter().map(|e| e.2).collect(),
            vertex_frame: None,
        });
    }
    anim.morphs.len()
}

/// Matches and adds; picks the mesh that matches the most VTA vertices.
pub(super) fn attach(reference: &mut Asset, anim: &VertexAnimation) -> Result<VtaBinding, LoadError> {
    if anim.morphs.is_empty() {
        return Err(LoadError::whole_file("the VTA has no vertex animation frames after its base frame"));
    }
    let mut needed = vec![false; anim.base_positions.len()];
    for morph in &anim.morphs {
        for &i in &morph.vertices {
            if let Some(n) = needed.get_mut(i as usize) {
                *n = true;
            }
        }
    }
    let best = reference
        .meshes
        .iter()
        .enumerate()
        .map(|(i, mesh)| {
            let (map, mut binding) = match_vertices(mesh, anim, &needed);
            binding.mesh = i;
            (map, binding)
        })
        .max_by_key(|(_, b)| (b.by_corner + b.by_position, usize::MAX - b.mesh));
    let Some((map, mut binding)) = best.filter(|(_, b)| b.by_corner + b.by_position > 0) else {
        return Err(LoadError::whole_file(
            "no vertex of the VTA's base frame (`time 0`) matches a vertex of the reference mesh: is it the VTA of another model?",
        )
        .with_kind(LoadErrorKind::Mismatch));
    };
    let Some(mesh) = reference.meshes.get_mut(binding.mesh) else {
        return Err(LoadError::whole_file("the reference has no mesh").with_kind(LoadErrorKind::Mismatch));
    };
    binding.morph_targets = add_morphs(mesh, anim, &map);
    if !anim.flex_clip.morph_tracks.is_empty() {
        reference.clips.push(anim.flex_clip.clone());
    }
    if binding.unmatched > 0 {
        reference.warnings.push(Warning::new(
            Position::File,
            format!(
                "{} of the VTA's vertices match no vertex of mesh '{}'; their deltas were dropped",
                binding.unmatched, mesh.name
            ),
        ));
    }
    Ok(binding)
}

/// Rebuilds the base/morph tables from a loaded VTA asset (its base-frame mesh), with its flex clip (or, when it has
/// none, one with the flexes at frames 1, 2, … at 30 frames per second).
pub(super) fn from_vta_asset(vta: &Asset) -> Option<VertexAnimation> {
    let mesh = vta.meshes.iter().find(|m| !m.morph_targets.is_empty())?;
    let flex_clip = vta.clips.iter().find(|c| !c.morph_tracks.is_empty()).cloned().unwrap_or_else(|| {
        let numbers: Vec<i64> = (1..=mesh.morph_targets.len() as i64).collect();
        flex_clip(0, &mesh.morph_targets, &numbers, 30.0)
    });
    Some(VertexAnimation {
        base_positions: mesh.positions.clone(),
        base_normals: mesh.normals.clone(),
        present: vec![true; mesh.positions.len()],
        morphs: mesh.morph_targets.clone(),
        flex_clip,
    })
}
