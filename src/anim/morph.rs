//! Morph-target weights: the flat layout of an asset's targets (one weight slot per target, meshes back to back),
//! binding a clip's weight tracks to those slots once (names are resolved here, never per frame), sampling them,
//! and applying weighted targets to a mesh on the CPU, the reference the GPU's morph pass must match.
//!
//! Morphing comes before skinning: `p = base + Σ_t w_t · Δp_t`, `n = base_n + Σ_t w_t · Δn_t`, summed in target
//! order, then skinned as usual (the skinner renormalises the normal). Reads `scene` data only; writes into
//! buffers the caller owns. Also the `--morph NAME=WEIGHT` settings the viewer and the commands take, and how a
//! name finds its targets.

use std::ops::Range;

use glam::Vec3;
use rustc_hash::FxHashMap;

use crate::scene::{Clip, Mesh};

use super::curve::{KeyGrid, sample_in_grid};

/// Where each mesh's morph targets sit in one flat slice of weights: mesh `m`'s targets, in
/// [`Mesh::morph_targets`] order, fill `mesh_range(m)`. The renderer numbers its GPU targets the same way, so a
/// weight slice made against this layout can be handed to it as is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MorphLayout {
    mesh_names: Vec<String>,
    /// `meshes + 1` ascending offsets.
    offsets: Vec<usize>,
    target_names: Vec<String>,
    target_mesh: Vec<usize>,
}

impl MorphLayout {
    /// The layout of these meshes' targets (every mesh counts, even one the renderer skips).
    pub fn of_meshes(meshes: &[Mesh]) -> Self {
        let mut layout = Self { offsets: vec![0], ..Self::default() };
        for (m, mesh) in meshes.iter().enumerate() {
            layout.mesh_names.push(mesh.name.clone());
            for target in &mesh.morph_targets {
                layout.target_names.push(target.name.clone());
                layout.target_mesh.push(m);
            }
            layout.offsets.push(layout.target_names.len());
        }
        layout
    }

    /// Number of weight slots (targets over all meshes).
    pub fn len(&self) -> usize {
        self.target_names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.target_names.is_empty()
    }

    pub fn mesh_count(&self) -> usize {
        self.mesh_names.len()
    }

    /// The slots of mesh `mesh` (empty past the last mesh).
    pub fn mesh_range(&self, mesh: usize) -> Range<usize> {
        match (self.offsets.get(mesh), self.offsets.get(mesh + 1)) {
            (Some(&a), Some(&b)) => a..b,
            _ => 0..0,
        }
    }

    /// The target name of a slot.
    pub fn target_name(&self, slot: usize) -> Option<&str> {
        self.target_names.get(slot).map(String::as_str)
    }

    /// The mesh a slot belongs to.
    pub fn target_mesh(&self, slot: usize) -> Option<usize> {
        self.target_mesh.get(slot).copied()
    }

    /// The slot of mesh `mesh`'s target called `name` (exact match; the first of equal names).
    pub fn find(&self, mesh: usize, name: &str) -> Option<usize> {
        self.mesh_range(mesh).find(|&s| self.target_names[s] == name)
    }
}

/// A clip's morph weight tracks resolved against a [`MorphLayout`]: which track drives which slot. A track names
/// a target and, optionally, its mesh ([`crate::scene::MorphTrack`]); without a mesh it drives the target of that
/// name on every mesh. Where two tracks name the same target the first wins, as with bone tracks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MorphBinding {
    /// Driven slots, ascending, and the track driving each (parallel arrays).
    slots: Vec<u32>,
    tracks: Vec<u32>,
    /// Key layout of each driven slot's curve, so sampling a baked track needs no key search.
    grids: Vec<KeyGrid>,
    /// Tracks that drive no target of the layout.
    pub unmatched_tracks: Vec<usize>,
}

impl MorphBinding {
    pub fn new(layout: &MorphLayout, clip: &Clip) -> Self {
        let mut by_name: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
        for (t, track) in clip.morph_tracks.iter().enumerate() {
            by_name.entry(track.target.as_str()).or_default().push(t);
        }
        let mut binding = Self::default();
        let mut used = vec![false; clip.morph_tracks.len()];
        for slot in 0..layout.len() {
            let (Some(name), Some(mesh)) = (layout.target_name(slot), layout.target_mesh(slot)) else { continue };
            let mesh_name = layout.mesh_names.get(mesh).map(String::as_str);
            let candidates = by_name.get(name).map(Vec::as_slice).unwrap_or_default();
            let found = candidates
                .iter()
                .copied()
                .find(|&t| clip.morph_tracks[t].mesh.as_deref().is_none_or(|m| Some(m) == mesh_name));
            let Some(t) = found else { continue };
            let (Ok(slot32), Ok(t32)) = (u32::try_from(slot), u32::try_from(t)) else { continue };
            used[t] = true;
            binding.slots.push(slot32);
            binding.tracks.push(t32);
            binding.grids.push(KeyGrid::of(&clip.morph_tracks[t].weights.times));
        }
        binding.unmatched_tracks = (0..used.len()).filter(|&t| !used[t]).collect();
        binding
    }

    /// Number of driven slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The driven slots, ascending.
    pub fn driven_slots(&self) -> &[u32] {
        &self.slots
    }

    /// The track driving each of [`MorphBinding::driven_slots`].
    pub fn driving_tracks(&self) -> &[u32] {
        &self.tracks
    }

    /// Calls `visit(slot, weight)` for every driven slot, with its track sampled at `time` (clamped to the keys;
    /// a track without keys gives 0). `clip` must be the clip the binding was made for.
    #[inline]
    pub fn for_each(&self, clip: &Clip, time: f32, mut visit: impl FnMut(usize, f32)) {
        for ((&slot, &track), &grid) in self.slots.iter().zip(&self.tracks).zip(&self.grids) {
            let weight = clip
                .morph_tracks
                .get(track as usize)
                .and_then(|t| sample_in_grid(&t.weights, time, grid))
                .unwrap_or(0.0);
            visit(slot as usize, weight);
        }
    }

    /// Writes the sampled weights into `out` (one entry per layout slot): driven slots get their track's value,
    /// the others 0.
    pub fn sample(&self, clip: &Clip, time: f32, out: &mut [f32]) {
        out.fill(0.0);
        self.for_each(clip, time, |slot, w| {
            if let Some(o) = out.get_mut(slot) {
                *o = w;
            }
        });
    }
}

/// Applies a mesh's morph targets at `weights` (one per target, in [`Mesh::morph_targets`] order; missing
/// weights count as 0) to its bind positions and normals, writing into caller-owned buffers. Targets at weight 0
/// (or NaN) are skipped; entries naming a vertex past the mesh are skipped; a target without normal deltas
/// leaves normals alone. The normal is not renormalised here (skinning does that).
pub fn apply_morphs(mesh: &Mesh, weights: &[f32], positions: &mut Vec<Vec3>, normals: &mut Vec<Vec3>) {
    positions.clear();
    positions.extend_from_slice(&mesh.positions);
    normals.clear();
    normals.extend((0..mesh.positions.len()).map(|i| mesh.normals.get(i).copied().unwrap_or(Vec3::Y)));
    for (target, &w) in mesh.morph_targets.iter().zip(weights) {
        if w == 0.0 || !w.is_finite() {
            continue;
        }
        for (k, &v) in target.vertices.iter().enumerate() {
            let v = v as usize;
            if let (Some(p), Some(d)) = (positions.get_mut(v), target.position_deltas.get(k)) {
                *p += w * *d;
            }
            if let (Some(n), Some(d)) = (normals.get_mut(v), target.normal_deltas.get(k)) {
                *n += w * *d;
            }
        }
    }
}

// --- `--morph NAME=WEIGHT`: setting targets by hand, shared by the viewer and the commands.

/// One `--morph NAME=WEIGHT`.
#[derive(Clone, Debug, PartialEq)]
pub struct MorphSetting {
    pub name: String,
    pub weight: f32,
}

/// Parses `NAME=WEIGHT` (the last `=` separates them, so names may hold one).
pub fn parse_morph_setting(s: &str) -> Result<MorphSetting, String> {
    let (name, weight) =
        s.rsplit_once('=').ok_or_else(|| format!("expected NAME=WEIGHT such as smile=0.5, got '{s}'"))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("'{s}' names no morph target"));
    }
    let weight: f32 = weight.trim().parse().map_err(|_| format!("'{}' in '{s}' is not a number", weight.trim()))?;
    if !weight.is_finite() {
        return Err(format!("the weight in '{s}' must be a finite number"));
    }
    Ok(MorphSetting { name: name.to_owned(), weight })
}

/// The slots of `layout` a `--morph` name names: every target of that name on any mesh (a flex several meshes
/// share, as studiomdl treats them), exact case first, then ignoring case; else `MESH/TARGET`, one mesh's target.
pub fn slots_named(meshes: &[Mesh], layout: &MorphLayout, name: &str) -> Vec<usize> {
    let all = 0..layout.len();
    let exact: Vec<usize> = all.clone().filter(|&s| layout.target_name(s) == Some(name)).collect();
    if !exact.is_empty() {
        return exact;
    }
    let folded: Vec<usize> =
        all.filter(|&s| layout.target_name(s).is_some_and(|t| t.eq_ignore_ascii_case(name))).collect();
    if !folded.is_empty() {
        return folded;
    }
    let Some((mesh_name, target)) = name.split_once('/') else { return Vec::new() };
    meshes
        .iter()
        .enumerate()
        .filter(|(_, m)| m.name.eq_ignore_ascii_case(mesh_name))
        .flat_map(|(m, _)| layout.mesh_range(m))
        .filter(|&s| layout.target_name(s).is_some_and(|t| t == target || t.eq_ignore_ascii_case(target)))
        .collect()
}

/// The message for a `--morph` name that names no target: the targets there are (MESH/TARGET), the first few.
pub fn unknown_target(meshes: &[Mesh], name: &str) -> String {
    const SHOWN: usize = 12;
    let names: Vec<String> =
        meshes.iter().flat_map(|m| m.morph_targets.iter().map(move |t| format!("{}/{}", m.name, t.name))).collect();
    if names.is_empty() {
        return format!("--morph {name}: the file has no morph targets");
    }
    let more = if names.len() > SHOWN { format!(" … and {} more", names.len() - SHOWN) } else { String::new() };
    let shown: Vec<&str> = names.iter().take(SHOWN).map(String::as_str).collect();
    format!("--morph {name}: no morph target of that name; targets (MESH/TARGET): {}{more}", shown.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Curve, MorphTarget, MorphTrack};

    fn mesh(name: &str, targets: &[&str]) -> Mesh {
        Mesh {
            name: name.into(),
            positions: vec![Vec3::ZERO, Vec3::X],
            normals: vec![Vec3::Z; 2],
            morph_targets: targets
                .iter()
                .map(|t| MorphTarget {
                    name: (*t).into(),
                    vertices: vec![1],
                    position_deltas: vec![Vec3::Y],
                    ..MorphTarget::default()
                })
                .collect(),
            ..Mesh::default()
        }
    }

    fn track(mesh: Option<&str>, target: &str, value: f32) -> MorphTrack {
        MorphTrack { mesh: mesh.map(Into::into), target: target.into(), weights: Curve::constant(value) }
    }

    #[test]
    fn layout_and_binding_resolve_names_once() {
        let meshes = [mesh("head", &["smile", "blink"]), mesh("body", &[]), mesh("lashes", &["blink"])];
        let layout = MorphLayout::of_meshes(&meshes);
        assert_eq!(layout.len(), 3);
        assert_eq!((layout.mesh_range(0), layout.mesh_range(1), layout.mesh_range(2)), (0..2, 2..2, 2..3));
        assert_eq!(layout.mesh_range(7), 0..0);
        assert_eq!(layout.find(2, "blink"), Some(2));
        let clip = Clip {
            morph_tracks: vec![
                track(None, "blink", 0.5),
                track(Some("head"), "smile", 0.25),
                track(Some("lashes"), "smile", 1.0),
                track(None, "frown", 1.0),
                track(Some("head"), "smile", 0.75),
            ],
            ..Clip::default()
        };
        let binding = MorphBinding::new(&layout, &clip);
        assert_eq!(binding.driven_slots(), &[0, 1, 2]);
        assert_eq!(binding.driving_tracks(), &[1, 0, 0]);
        assert_eq!(binding.unmatched_tracks, vec![2, 3, 4]);
        let mut out = vec![9.0; 3];
        binding.sample(&clip, 0.0, &mut out);
        assert_eq!(out, [0.25, 0.5, 0.5]);
    }

    #[test]
    fn apply_adds_weighted_deltas_in_order() {
        let mut m = mesh("m", &["a", "b"]);
        m.morph_targets[1].position_deltas = vec![Vec3::X];
        m.morph_targets[1].normal_deltas = vec![Vec3::X];
        // One entry names a vertex the mesh lacks.
        m.morph_targets[1].vertices = vec![1];
        m.morph_targets[0].vertices = vec![1, 9];
        m.morph_targets[0].position_deltas = vec![Vec3::Y, Vec3::Y];
        let (mut p, mut n) = (Vec::new(), Vec::new());
        apply_morphs(&m, &[0.5, 2.0], &mut p, &mut n);
        assert_eq!(p, [Vec3::ZERO, Vec3::new(3.0, 0.5, 0.0)]);
        assert_eq!(n, [Vec3::Z, Vec3::new(2.0, 0.0, 1.0)]);
        apply_morphs(&m, &[f32::NAN], &mut p, &mut n);
        assert_eq!(p, m.positions);
    }
}
