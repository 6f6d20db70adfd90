//! Seams: where one surface is made of separate vertices that coincide in the bind pose. Exporters split a
//! vertex wherever its normal or UV differs (a hard edge, a UV seam) or a mesh was modelled in pieces welded only
//! by position; the surface is still closed there, because the triangles on both sides share the seam's edges by
//! position. If the two copies are skinned differently, a pose can pull them apart and the surface opens: a hole
//! a render shows from any side, which no working rig makes (`surface_opens`, measured in `stretch`).
//!
//! Only pairs that can open by mistake are kept:
//! - copies whose weights differ (copies skinned alike move together in every pose) but that follow the same
//!   bones for the most part (their weights overlap by [`MIN_OVERLAP`] at least): the two sides were meant to
//!   move as one surface and disagree only at the seam — a blend one side lost, an influence dropped on one copy.
//!   Sides on different bones altogether are parts made to move apart: a jaw's lip against the head's, an
//!   eyelid, a limb modelled in rigid pieces. A mouth that opens is not a tear.
//! - where the surface is closed across them: an edge of each side lies on the other's, each the edge of its
//!   side's only triangle there (each side ends at the seam), the two running in opposite directions (one
//!   surface going on across it). Pieces that only touch at a corner (the plates of a robot, the boxes of a
//!   motion-capture rig) are not a closed surface there, nor are two surfaces that each go on past the line
//!   (lips that curl into the mouth).
//!
//! Pure computation over one mesh's bind positions and weights.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::scene::Mesh;

/// Points closer than this fraction of the character's size are one point of the bind pose.
const COINCIDE: f32 = 1e-4;
/// Copies of one point considered at most (a pole where dozens of UV islands meet is measured on the first).
const MAX_COPIES: usize = 16;
/// How much two copies' weights must have in common (the sum over bones of the smaller weight) to be one
/// surface's: below it the sides are different parts.
const MIN_OVERLAP: f32 = 0.25;
/// Seam pairs kept per mesh at most.
const MAX_PAIRS: usize = 200_000;

type Cell = [i64; 3];

/// The pairs of vertices of `mesh` that coincide in the bind pose on a closed seam and are skinned differently,
/// each pair once (lower index first). `size` is the character's size.
pub(super) fn seam_pairs(mesh: &Mesh, size: f32) -> Vec<[u32; 2]> {
    let step = (COINCIDE * size).max(f32::MIN_POSITIVE);
    let cell = |i: u32| -> Option<Cell> {
        let p = *mesh.positions.get(i as usize)?;
        if !p.is_finite() {
            return None;
        }
        let q = (p / step).round();
        Some([q.x as i64, q.y as i64, q.z as i64])
    };
    let mut keyed: Vec<(Cell, u32)> =
        (0..mesh.positions.len() as u32).filter_map(|i| cell(i).map(|c| (c, i))).collect();
    keyed.sort_unstable();
    // Pairs of copies skinned differently.
    let mut candidates: Vec<[u32; 2]> = Vec::new();
    for group in keyed.chunk_by(|a, b| a.0 == b.0).filter(|g| g.len() > 1) {
        let copies = &group[..group.len().min(MAX_COPIES)];
        for (i, (_, a)) in copies.iter().enumerate() {
            for (_, b) in &copies[i + 1..] {
                let overlap = overlap(mesh, *a, *b);
                if (MIN_OVERLAP..1.0 - 1e-4).contains(&overlap) {
                    candidates.push([(*a).min(*b), (*a).max(*b)]);
                }
            }
        }
        if candidates.len() >= MAX_PAIRS {
            break;
        }
    }
    if candidates.is_empty() {
        return candidates;
    }
    // For each candidate, its edges: the neighbour, whether the candidate comes first along its triangle's
    // winding, and how many triangles share the edge.
    let involved: FxHashSet<u32> = candidates.iter().flatten().copied().collect();
    let mut edges: FxHashMap<u32, Vec<(u32, bool)>> = FxHashMap::default();
    let mut uses: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    for tri in mesh.indices.chunks_exact(3) {
        for k in 0..3 {
            let (from, to) = (tri[k], tri[(k + 1) % 3]);
            let mut touched = false;
            for (v, n, forward) in [(from, to, true), (to, from, false)] {
                if involved.contains(&v) {
                    edges.entry(v).or_default().push((n, forward));
                    touched = true;
                }
            }
            if touched {
                *uses.entry((from.min(to), from.max(to))).or_insert(0) += 1;
            }
        }
    }
    // A seam of one surface: an edge of each side lies on the other's, each is the edge of its side's only
    // triangle there (each side ends at the seam), and the two run in opposite directions (the surface goes on
    // across it with one orientation). A closed mouth or eyelid is not one: each lip goes on into the inside of
    // the mouth, so its edges along the lip line have two triangles — the two sides are different surfaces that
    // are meant to part.
    let boundary = |v: u32, n: u32| uses.get(&(v.min(n), v.max(n))).copied() == Some(1);
    candidates.retain(|[a, b]| {
        let (Some(ea), Some(eb), Some(own)) = (edges.get(a), edges.get(b), cell(*a)) else { return false };
        ea.iter().any(|&(x, forward_a)| {
            let cx = cell(x);
            cx.is_some()
                && cx != Some(own)
                && boundary(*a, x)
                && eb.iter().any(|&(y, forward_b)| cell(y) == cx && boundary(*b, y) && forward_a != forward_b)
        })
    });
    candidates
}

/// What two vertices' weights have in common: the sum over bones of the smaller of their two weights (1 for
/// copies skinned alike, 0 for copies on different bones).
fn overlap(mesh: &Mesh, a: u32, b: u32) -> f32 {
    let influences = |v: u32| -> Vec<(u16, f32)> {
        let (Some(j), Some(w)) = (mesh.joints.get(v as usize), mesh.weights.get(v as usize)) else {
            return Vec::new();
        };
        let total: f32 = w.iter().filter(|x| **x > 0.0 && x.is_finite()).sum();
        if total <= 0.0 {
            return Vec::new();
        }
        let mut list: Vec<(u16, f32)> = Vec::new();
        for (&j, &w) in j.iter().zip(w) {
            if w > 0.0 && w.is_finite() {
                match list.iter_mut().find(|(b, _)| *b == j) {
                    Some((_, sum)) => *sum += w / total,
                    None => list.push((j, w / total)),
                }
            }
        }
        list
    };
    let (x, y) = (influences(a), influences(b));
    x.iter().map(|(j, wa)| y.iter().find(|(k, _)| k == j).map_or(0.0, |(_, wb)| wa.min(*wb))).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// Two quads side by side, the middle column split into two copies: the left quad's on bone 0, the right
    /// quad's with `right_weights` of bones 0 and 1.
    fn split_strip(right_weights: [f32; 2]) -> Mesh {
        let positions = vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            // Copies of 2 and 3 for the right quad.
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(2.0, 1.0, 0.0),
        ];
        let joints = vec![[0, 0, 0, 0], [0; 4], [0; 4], [0; 4], [0, 1, 0, 0], [0, 1, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]];
        let [w0, w1] = right_weights;
        let mut weights = vec![[1.0, 0.0, 0.0, 0.0]; 8];
        weights[4] = [w0, w1, 0.0, 0.0];
        weights[5] = [w0, w1, 0.0, 0.0];
        Mesh { positions, joints, weights, indices: vec![0, 2, 3, 0, 3, 1, 4, 6, 7, 4, 7, 5], ..Mesh::default() }
    }

    #[test]
    fn a_seam_whose_copies_disagree_on_a_blend_can_open() {
        // The right side's copies blend bone 0 half and half with bone 1; the left's are on bone 0 alone.
        assert_eq!(seam_pairs(&split_strip([0.5, 0.5]), 2.0), vec![[2, 4], [3, 5]]);
        // Copies skinned alike move together: nothing can open.
        assert!(seam_pairs(&split_strip([1.0, 0.0]), 2.0).is_empty());
        // Sides on different bones altogether are parts made to part (a jaw's lip and the head's).
        assert!(seam_pairs(&split_strip([0.0, 1.0]), 2.0).is_empty());
    }

    #[test]
    fn pieces_touching_at_a_corner_are_no_seam() {
        // Two triangles meeting at one point only.
        let mesh = Mesh {
            positions: vec![
                Vec3::ZERO,
                Vec3::X,
                Vec3::Y,
                Vec3::ZERO,
                Vec3::new(-1.0, 0.0, 0.0),
                Vec3::new(0.0, -1.0, 0.0),
            ],
            joints: vec![[0; 4], [0; 4], [0; 4], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]],
            weights: vec![[1.0, 0.0, 0.0, 0.0]; 6],
            indices: vec![0, 1, 2, 3, 4, 5],
            ..Mesh::default()
        };
        assert!(seam_pairs(&mesh, 2.0).is_empty());
    }
}
