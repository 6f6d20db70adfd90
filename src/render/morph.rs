//! Morph targets on the GPU: the tables `shaders/skinned.wgsl` reads to add weighted target deltas to a vertex
//! before skinning, built once per uploaded model, and the per-frame list of active targets.
//!
//! **Layout.** A target's deltas are sparse (only moved vertices), packed in vertex order into one `deltas`
//! array (six floats per entry: position delta, normal delta). To find vertex `v`'s entry in a target without a
//! search, the target's vertex span is cut into blocks of 64 vertices; each block stores a 64-bit mask of which
//! of its vertices the target moves and the index of its first entry, so vertex `v` (lane `v % 64` of block
//! `v / 64`) finds its entry at `first + popcount(mask below its lane)`. The cost per vertex is one mask test per
//! **active** target, whatever the number of targets in the file and however dense they are (a vertex-animation
//! clip with hundreds of full frames has only two active at a time), and vertices outside a target's span are
//! rejected by one comparison. Each frame uploads only the active targets' `(index, weight)` pairs. Batches with
//! no active target are drawn with entry points that leave the morph pass out (`vs_main` rather than
//! `vs_main_morph`), so models without morphs cost what they did before morphs existed.
//!
//! One `index` array holds a header and the blocks: word 0 is the target count, then four words per target
//! (first block, block count, word offset of its first block record, unused), then the block records (mask low,
//! mask high, first entry). Vertices are the model's render vertices (all meshes back to back, as drawn), targets
//! are numbered as [`crate::anim::morph::MorphLayout`] numbers them.
//!
//! Knows nothing of wgpu objects; `skinned.rs` uploads the tables.

use glam::Vec3;

use super::gpu::MorphActiveGpu;
use crate::scene::Mesh;

/// Vertices per block (one 64-bit mask).
pub const BLOCK: u32 = 64;
/// Words of the header (target count) and of one target descriptor.
const HEADER_WORDS: usize = 1;
const TARGET_WORDS: usize = 4;
/// Floats per delta entry.
pub const DELTA_FLOATS: usize = 6;

/// The morph tables of one model, ready to upload.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MorphTables {
    /// Header, target descriptors, block records (see the module documentation).
    pub index: Vec<u32>,
    /// Six floats per entry.
    pub deltas: Vec<f32>,
    /// Targets left without deltas because the tables would pass `max_bytes` (their names, for a warning).
    pub dropped: Vec<String>,
}

impl MorphTables {
    /// Builds the tables for `meshes`, each with the first render vertex it was given in the model (`None` for a
    /// mesh the model does not draw: its targets get no deltas but keep their number). Entries naming a vertex
    /// past the mesh are skipped; a vertex listed twice in one target gets the sum of its deltas (what applying
    /// the entries one after the other does). Targets that would make either array larger than `max_bytes` are
    /// left empty and named in [`MorphTables::dropped`].
    pub fn build<'a>(meshes: impl IntoIterator<Item = (&'a Mesh, Option<u32>)>, max_bytes: u64) -> Self {
        let meshes: Vec<(&Mesh, Option<u32>)> = meshes.into_iter().collect();
        let target_count: usize = meshes.iter().map(|(m, _)| m.morph_targets.len()).sum();
        let mut tables = Self { index: vec![0; HEADER_WORDS + TARGET_WORDS * target_count], ..Self::default() };
        tables.index[0] = u32::try_from(target_count).unwrap_or(u32::MAX);
        let max_words = max_bytes / 4;
        let mut entries: Vec<(u32, Vec3, Vec3)> = Vec::new();
        let mut t = 0usize;
        for (mesh, base) in meshes {
            let n = mesh.positions.len();
            for target in &mesh.morph_targets {
                let descriptor = HEADER_WORDS + TARGET_WORDS * t;
                t += 1;
                let Some(base) = base else { continue };
                entries.clear();
                for (k, &v) in target.vertices.iter().enumerate() {
                    if (v as usize) >= n {
                        continue;
                    }
                    let dp = target.position_deltas.get(k).copied().unwrap_or(Vec3::ZERO);
                    let dn = target.normal_deltas.get(k).copied().unwrap_or(Vec3::ZERO);
                    entries.push((base + v, dp, dn));
                }
                entries.sort_by_key(|e| e.0);
                entries.dedup_by(|later, kept| {
                    let same = later.0 == kept.0;
                    if same {
                        kept.1 += later.1;
                        kept.2 += later.2;
                    }
                    same
                });
                let (Some(first), Some(last)) = (entries.first(), entries.last()) else { continue };
                let (first_block, last_block) = (first.0 / BLOCK, last.0 / BLOCK);
                let block_count = last_block - first_block + 1;
                let words = tables.index.len() as u64 + 3 * u64::from(block_count);
                let floats = (tables.deltas.len() + DELTA_FLOATS * entries.len()) as u64;
                if words > max_words || floats > max_words {
                    tables.dropped.push(target.name.clone());
                    continue;
                }
                let block_offset = tables.index.len();
                let first_entry = tables.deltas.len() / DELTA_FLOATS;
                tables.index.resize(block_offset + 3 * block_count as usize, 0);
                let mut previous_block = u32::MAX;
                for (i, (v, dp, dn)) in entries.iter().enumerate() {
                    let block = v / BLOCK - first_block;
                    let record = block_offset + 3 * block as usize;
                    let lane = v % BLOCK;
                    if block != previous_block {
                        tables.index[record + 2] = (first_entry + i) as u32;
                        previous_block = block;
                    }
                    let (word, bit) = if lane < 32 { (record, lane) } else { (record + 1, lane - 32) };
                    tables.index[word] |= 1 << bit;
                    tables.deltas.extend_from_slice(&[dp.x, dp.y, dp.z, dn.x, dn.y, dn.z]);
                }
                tables.index[descriptor] = first_block;
                tables.index[descriptor + 1] = block_count;
                tables.index[descriptor + 2] = block_offset as u32;
            }
        }
        tables
    }

    /// Number of targets (the model's weight slots).
    pub fn target_count(&self) -> u32 {
        self.index.first().copied().unwrap_or(0)
    }

    /// Delta entries over all targets.
    pub fn entry_count(&self) -> usize {
        self.deltas.len() / DELTA_FLOATS
    }

    /// The deltas of render vertex `vertex` in `target`, looked up exactly as the shader does (for tests).
    #[cfg(test)]
    pub fn lookup(&self, target: u32, vertex: u32) -> Option<(Vec3, Vec3)> {
        if target >= self.target_count() {
            return None;
        }
        let d = HEADER_WORDS + TARGET_WORDS * target as usize;
        let (first_block, block_count, offset) = (self.index[d], self.index[d + 1], self.index[d + 2] as usize);
        let rel = (vertex / BLOCK).wrapping_sub(first_block);
        if rel >= block_count {
            return None;
        }
        let record = offset + 3 * rel as usize;
        let (lo, hi, first) = (self.index[record], self.index[record + 1], self.index[record + 2]);
        let lane = vertex % BLOCK;
        let (word, bit, before) = if lane < 32 { (lo, lane, 0) } else { (hi, lane - 32, lo.count_ones()) };
        if word & (1 << bit) == 0 {
            return None;
        }
        let e = (first + before + (word & ((1 << bit) - 1)).count_ones()) as usize * DELTA_FLOATS;
        let f = &self.deltas[e..e + DELTA_FLOATS];
        Some((Vec3::new(f[0], f[1], f[2]), Vec3::new(f[3], f[4], f[5])))
    }
}

/// Appends the active targets of one instance (`weights[i]` is target `i`'s weight) to `out`: targets at a
/// non-zero, finite weight below `target_count`, in ascending order (the order the CPU reference sums them in).
/// Returns how many were appended.
pub fn push_active(weights: &[f32], target_count: u32, out: &mut Vec<MorphActiveGpu>) -> u32 {
    let before = out.len();
    let usable = weights.len().min(target_count as usize);
    for (target, &weight) in weights[..usable].iter().enumerate() {
        if weight != 0.0 && weight.is_finite() {
            out.push(MorphActiveGpu { target: target as u32, weight });
        }
    }
    (out.len() - before) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::MorphTarget;

    fn mesh(n: usize, targets: Vec<MorphTarget>) -> Mesh {
        Mesh { positions: vec![Vec3::ZERO; n], morph_targets: targets, ..Mesh::default() }
    }

    fn target(vertices: &[u32]) -> MorphTarget {
        MorphTarget {
            name: format!("t{}", vertices.len()),
            vertices: vertices.to_vec(),
            position_deltas: vertices.iter().map(|&v| Vec3::new(v as f32, 1.0, 0.0)).collect(),
            normal_deltas: Vec::new(),
            ..MorphTarget::default()
        }
    }

    #[test]
    fn every_listed_vertex_is_found_and_no_other() {
        // Lanes on both halves of a mask, block edges, a span of several blocks, a second mesh at an offset,
        // a mesh that is not drawn, an out-of-range vertex, an unsorted list with a repeat.
        let a = mesh(300, vec![target(&[0, 31, 32, 63, 64, 200, 299]), target(&[5]), target(&[])]);
        let skipped = mesh(10, vec![target(&[1, 2])]);
        let mut repeat = target(&[40, 3, 40, 1000]);
        repeat.normal_deltas = vec![Vec3::Z; 4];
        let b = mesh(100, vec![repeat]);
        let tables = MorphTables::build([(&a, Some(0)), (&skipped, None), (&b, Some(300))], u64::MAX);
        assert_eq!(tables.target_count(), 5);
        assert!(tables.dropped.is_empty());
        let listed: Vec<(u32, u32, Vec3, Vec3)> = vec![
            (0, 0, Vec3::new(0.0, 1.0, 0.0), Vec3::ZERO),
            (0, 31, Vec3::new(31.0, 1.0, 0.0), Vec3::ZERO),
            (0, 32, Vec3::new(32.0, 1.0, 0.0), Vec3::ZERO),
            (0, 63, Vec3::new(63.0, 1.0, 0.0), Vec3::ZERO),
            (0, 64, Vec3::new(64.0, 1.0, 0.0), Vec3::ZERO),
            (0, 200, Vec3::new(200.0, 1.0, 0.0), Vec3::ZERO),
            (0, 299, Vec3::new(299.0, 1.0, 0.0), Vec3::ZERO),
            (1, 5, Vec3::new(5.0, 1.0, 0.0), Vec3::ZERO),
            (4, 303, Vec3::new(3.0, 1.0, 0.0), Vec3::Z),
            (4, 340, Vec3::new(80.0, 2.0, 0.0), Vec3::Z * 2.0),
        ];
        for target in 0..6 {
            for vertex in 0..420 {
                let want = listed.iter().find(|l| l.0 == target && l.1 == vertex).map(|l| (l.2, l.3));
                assert_eq!(tables.lookup(target, vertex), want, "target {target}, vertex {vertex}");
            }
        }
        assert_eq!(tables.entry_count(), 10);
    }

    #[test]
    fn targets_past_the_budget_are_dropped_and_named() {
        let big: Vec<u32> = (0..1000).collect();
        let m = mesh(1000, vec![target(&[1]), target(&big), target(&[2])]);
        let tables = MorphTables::build([(&m, Some(0))], 4096);
        assert_eq!(tables.dropped, vec!["t1000".to_owned()]);
        assert!(tables.lookup(0, 1).is_some() && tables.lookup(1, 5).is_none() && tables.lookup(2, 2).is_some());
    }

    #[test]
    fn active_targets_skip_zero_nan_and_unknown() {
        let mut out = vec![MorphActiveGpu { target: 9, weight: 9.0 }];
        let n = push_active(&[0.0, 0.5, f32::NAN, -1.0, 1.0], 4, &mut out);
        assert_eq!(n, 2);
        assert_eq!(&out[1..], &[MorphActiveGpu { target: 1, weight: 0.5 }, MorphActiveGpu { target: 3, weight: -1.0 }]);
    }
}
