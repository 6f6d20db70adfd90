//! A mesh's unique edges and the one definition of stretch that every view of it uses.
//!
//! **Edge stretch** is an edge's posed length divided by its bind-pose length: 1 unchanged, 2 twice as long,
//! 0.5 half as long. Diagnostics report the worst edge stretch of a pose or a clip.
//!
//! **Vertex stretch** (the Stretch shading mode: GPU compute pass, CPU reference, egui painter) is the edge
//! stretch of the vertex's most deformed unique incident edge — the one farthest from 1 on a log scale, so
//! halving counts as much as doubling. Taking the extreme rather than a mean makes the colours agree with the
//! Diagnostics tab: the two ends of the edge a finding names show exactly that finding's ratio, and one torn
//! edge is not averaged away by its unmoved neighbours. Vertices without a measurable edge get 1.
//!
//! Pure computation over index and position slices; no scene types, so the renderer, the painter and the
//! diagnostics share it.

use glam::Vec3;

/// Colour scale of the Stretch shading mode: vertex stretch `1 − range` is full blue, `1 + range` full red.
pub const STRETCH_COLOUR_RANGE: f32 = 0.25;

/// The unique undirected edges `(a, b, triangle)` with `a < b` of every `tri_stride`-th triangle, sorted by `a`
/// then `b`, each naming the lowest triangle it belongs to. Triangles with an index `≥ vertex_count` and
/// degenerate edges (`a == b`) are skipped. A bucket pass by `a` (a counting sort) instead of a comparison sort:
/// linear in the triangle count, and each bucket holds only the few edges of one vertex.
pub fn unique_edges_with_triangles(indices: &[u32], vertex_count: usize, tri_stride: usize) -> Vec<(u32, u32, u32)> {
    let n = vertex_count;
    let valid = |tri: &[u32]| tri.iter().all(|&i| (i as usize) < n);
    let edges_of = |tri: &[u32]| [(tri[0], tri[1]), (tri[1], tri[2]), (tri[2], tri[0])];
    let triangles = || indices.chunks_exact(3).enumerate().step_by(tri_stride.max(1)).filter(|(_, t)| valid(t));
    let mut start = vec![0u32; n + 1];
    for (_, tri) in triangles() {
        for (a, b) in edges_of(tri) {
            if a != b {
                start[a.min(b) as usize + 1] += 1;
            }
        }
    }
    for v in 0..n {
        start[v + 1] += start[v];
    }
    let total = start[n] as usize;
    let mut fill = start.clone();
    let mut slots = vec![(0u32, 0u32); total];
    for (t, tri) in triangles() {
        for (a, b) in edges_of(tri) {
            if a != b {
                let f = &mut fill[a.min(b) as usize];
                slots[*f as usize] = (a.max(b), t as u32);
                *f += 1;
            }
        }
    }
    let mut out = Vec::with_capacity(total / 2 + 1);
    for v in 0..n {
        let bucket = &mut slots[start[v] as usize..start[v + 1] as usize];
        bucket.sort_unstable();
        let mut last = None;
        for &(b, t) in bucket.iter() {
            if last != Some(b) {
                out.push((v as u32, b, t));
                last = Some(b);
            }
        }
    }
    out
}

/// The unique undirected edges `[a, b]` with `a < b` of a triangle list, sorted.
pub fn unique_edges(indices: &[u32], vertex_count: usize) -> Vec<[u32; 2]> {
    unique_edges_with_triangles(indices, vertex_count, 1).into_iter().map(|(a, b, _)| [a, b]).collect()
}

/// Posed length over bind length; `None` for an edge of zero bind length (no ratio to speak of).
pub fn edge_stretch(bind: (Vec3, Vec3), now: (Vec3, Vec3)) -> Option<f32> {
    let rest = bind.0.distance(bind.1);
    (rest > 0.0).then(|| now.0.distance(now.1) / rest)
}

/// Whether stretch `a` is farther from 1 than `b` (on a log scale: 0.5 is as far as 2).
pub fn more_deformed(a: f32, b: f32) -> bool {
    // libm's logarithm, not the C library's (std): the same answer on every platform, so a clip's worst frame is
    // the same one on Linux and Windows when two frames are almost equally stretched.
    libm::logf(a.max(f32::MIN_POSITIVE)).abs() > libm::logf(b.max(f32::MIN_POSITIVE)).abs()
}

/// Vertex stretch (see the module doc) of every vertex, into `out`: `bind` and `now` are the bind-pose and posed
/// positions, `edges` the mesh's [`unique_edges`].
pub fn vertex_stretch(bind: &[Vec3], now: &[Vec3], edges: &[[u32; 2]], out: &mut Vec<f32>) {
    out.clear();
    out.resize(bind.len(), 1.0);
    for &[a, b] in edges {
        let (a, b) = (a as usize, b as usize);
        let (Some(&ba), Some(&bb), Some(&na), Some(&nb)) = (bind.get(a), bind.get(b), now.get(a), now.get(b)) else {
            continue;
        };
        let Some(ratio) = edge_stretch((ba, bb), (na, nb)) else { continue };
        for v in [a, b] {
            if more_deformed(ratio, out[v]) {
                out[v] = ratio;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_of_a_quad_are_listed_once_with_their_first_triangle() {
        let edges = unique_edges_with_triangles(&[0, 1, 2, 0, 2, 3], 4, 1);
        assert_eq!(edges, vec![(0, 1, 0), (0, 2, 0), (0, 3, 1), (1, 2, 0), (2, 3, 1)]);
        assert_eq!(unique_edges(&[0, 1, 2, 0, 2, 3], 4), vec![[0, 1], [0, 2], [0, 3], [1, 2], [2, 3]]);
        // Out-of-range triangles and degenerate edges are skipped.
        assert_eq!(unique_edges(&[0, 0, 1, 0, 1, 9], 2), vec![[0, 1]]);
    }

    #[test]
    fn a_vertex_shows_its_most_deformed_edge_halving_as_much_as_doubling() {
        // A fan around vertex 0: edge 0–1 doubles, edge 0–2 halves, 0–3 is unchanged.
        let bind = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        let edges = [[0, 1], [0, 2], [0, 3]];
        let mut out = Vec::new();
        let now = [Vec3::ZERO, Vec3::X * 2.0, Vec3::Y * 0.6, Vec3::Z];
        vertex_stretch(&bind, &now, &edges, &mut out);
        assert!((out[0] - 2.0).abs() < 1e-6, "{out:?}");
        assert!((out[1] - 2.0).abs() < 1e-6);
        assert!((out[2] - 0.6).abs() < 1e-6);
        assert_eq!(out[3], 1.0);
        let now = [Vec3::ZERO, Vec3::X * 1.5, Vec3::Y * 0.5, Vec3::Z];
        vertex_stretch(&bind, &now, &edges, &mut out);
        assert!((out[0] - 0.5).abs() < 1e-6, "0.5 is farther from 1 than 1.5: {out:?}");
    }

    #[test]
    fn vertices_without_edges_and_zero_length_edges_read_one() {
        let bind = [Vec3::ZERO, Vec3::ZERO, Vec3::X];
        let now = [Vec3::ZERO, Vec3::X, Vec3::X];
        let mut out = Vec::new();
        vertex_stretch(&bind, &now, &[[0, 1]], &mut out);
        assert_eq!(out, vec![1.0, 1.0, 1.0]);
    }
}
