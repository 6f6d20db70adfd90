//! The render vertices of a PSK, one per wedge: the skin influences of every point reduced to four, then one
//! pass over the wedges that writes each vertex array once at its final size (position, UV, joints, weights and,
//! when the file has them, normals) straight from the chunks' bytes.

use glam::{Vec2, Vec3};

use super::{VRawBoneInfluence, VVertex, wedge_point};
use crate::io::LoadError;
use crate::io::actorx::{Chunk, Records};
use crate::scene::{InfluenceReport, Influences, Mesh, reduce_influences};

/// The first weight row naming a point or bone that does not exist, and how many such rows there are.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct BadRows {
    pub count: usize,
    pub first: Option<(usize, VRawBoneInfluence)>,
}

/// Four influences per point from `RAWWEIGHTS` rows, in file order within each point.
///
/// Exporters write the rows sorted by point; those are reduced run by run as they are read. Any other order (or a
/// row naming a point or bone that does not exist) takes a counting sort of the rows by point (no per-point
/// vectors). Both give the same influences.
pub(super) fn point_influences(
    weights: Records<VRawBoneInfluence>,
    point_count: usize,
    bone_count: usize,
) -> (Vec<Influences>, InfluenceReport, BadRows) {
    sorted_point_influences(weights, point_count, bone_count)
        .unwrap_or_else(|| counted_point_influences(weights, point_count, bone_count))
}

fn valid_row(w: &VRawBoneInfluence, point_count: usize, bone_count: usize) -> bool {
    usize::try_from(w.point_index).is_ok_and(|p| p < point_count)
        && usize::try_from(w.bone_index).is_ok_and(|b| b < bone_count)
}

/// Rows already sorted by point, all valid: each point's run is reduced as soon as it ends. `None` at the first
/// row out of order or out of range.
fn sorted_point_influences(
    weights: Records<VRawBoneInfluence>,
    point_count: usize,
    bone_count: usize,
) -> Option<(Vec<Influences>, InfluenceReport, BadRows)> {
    let mut out = Vec::with_capacity(point_count);
    let mut report = InfluenceReport::default();
    if point_count == 0 {
        return weights.is_empty().then_some((out, report, BadRows::default()));
    }
    let mut run: Vec<(u16, f32)> = Vec::with_capacity(8);
    let mut current = 0usize;
    for w in weights.iter() {
        if !valid_row(&w, point_count, bone_count) {
            return None;
        }
        let point = w.point_index as usize;
        if point != current {
            if point < current {
                return None;
            }
            out.push(reduce_influences(&mut run, 0, &mut report));
            run.clear();
            for _ in current + 1..point {
                out.push(reduce_influences(&mut [], 0, &mut report));
            }
            current = point;
        }
        run.push((w.bone_index as u16, w.weight));
    }
    out.push(reduce_influences(&mut run, 0, &mut report));
    for _ in current + 1..point_count {
        out.push(reduce_influences(&mut [], 0, &mut report));
    }
    Some((out, report, BadRows::default()))
}

/// Any order: rows bucketed by point with a counting sort, invalid rows skipped and counted.
fn counted_point_influences(
    weights: Records<VRawBoneInfluence>,
    point_count: usize,
    bone_count: usize,
) -> (Vec<Influences>, InfluenceReport, BadRows) {
    let mut bad = BadRows::default();
    // `starts[p + 1]` counts point p's rows, then (prefix sums) `starts[p]` is where they begin.
    let mut starts = vec![0u32; point_count + 1];
    for (i, w) in weights.iter().enumerate() {
        if valid_row(&w, point_count, bone_count) {
            starts[w.point_index as usize + 1] += 1;
        } else {
            bad.count += 1;
            bad.first.get_or_insert((i, w));
        }
    }
    for i in 0..point_count {
        starts[i + 1] += starts[i];
    }
    let mut pairs = vec![(0u16, 0f32); starts[point_count] as usize];
    let mut cursor = starts.clone();
    for w in weights.iter().filter(|w| valid_row(w, point_count, bone_count)) {
        let slot = &mut cursor[w.point_index as usize];
        pairs[*slot as usize] = (w.bone_index as u16, w.weight);
        *slot += 1;
    }
    let mut report = InfluenceReport::default();
    let mut out = Vec::with_capacity(point_count);
    for p in 0..point_count {
        let range = starts[p] as usize..starts[p + 1] as usize;
        out.push(reduce_influences(pairs.get_mut(range).unwrap_or_default(), 0, &mut report));
    }
    (out, report, bad)
}

/// Where the file's normals are, if it has usable ones.
#[derive(Clone, Copy, Debug)]
pub(super) enum FileNormals<'a> {
    None,
    PerPoint(Records<'a, Vec3>),
    PerWedge(Records<'a, Vec3>),
}

/// Repairs made while filling the vertices (reported by the caller).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct VertexRepairs {
    /// Wedges whose point is not finite (placed at the origin).
    pub bad_points: usize,
    /// Wedges whose UV is not finite (set to 0, 0).
    pub bad_uvs: usize,
    /// File normals that are zero or not finite (left zero, for the caller to replace with computed ones).
    pub bad_normals: usize,
}

/// Fills positions, UVs, joints, weights and (from the file) normals, one per wedge, in one pass; returns the
/// point of every wedge. A wedge naming a point the file lacks is an error at its record.
pub(super) fn fill_vertices(
    points: Records<Vec3>,
    wedges: Records<VVertex>,
    influences: &[Influences],
    normals: FileNormals,
    wedge_chunk: &Chunk,
    mesh: &mut Mesh,
) -> Result<(Vec<u32>, VertexRepairs), LoadError> {
    let n = wedges.len();
    let point_count = points.len();
    let mut wedge_points = Vec::with_capacity(n);
    let mut positions = Vec::with_capacity(n);
    let mut uvs = Vec::with_capacity(n);
    let mut joints = Vec::with_capacity(n);
    let mut weights = Vec::with_capacity(n);
    let mut file_normals = Vec::with_capacity(if matches!(normals, FileNormals::None) { 0 } else { n });
    let mut repairs = VertexRepairs::default();
    let fallback = Influences { joints: [0; 4], weights: [1.0, 0.0, 0.0, 0.0] };
    for (i, wedge) in wedges.iter().enumerate() {
        let point = wedge_point(point_count, &wedge);
        let Some(mut position) = points.get(point as usize) else {
            return Err(wedge_chunk.record_error(
                i,
                format_args!("wedge {i} refers to point {point}, but the file has {point_count} points"),
            ));
        };
        if !position.is_finite() {
            repairs.bad_points += 1;
            position = Vec3::ZERO;
        }
        let mut uv = Vec2::new(wedge.u, wedge.v);
        if !uv.is_finite() {
            repairs.bad_uvs += 1;
            uv = Vec2::ZERO;
        }
        let inf = influences.get(point as usize).unwrap_or(&fallback);
        let normal = match normals {
            FileNormals::None => None,
            FileNormals::PerPoint(records) => Some(records.get(point as usize)),
            FileNormals::PerWedge(records) => Some(records.get(i)),
        };
        if let Some(normal) = normal {
            let normal = normal.unwrap_or(Vec3::ZERO).normalize_or_zero();
            repairs.bad_normals += usize::from(normal == Vec3::ZERO);
            file_normals.push(normal);
        }
        wedge_points.push(point);
        positions.push(position);
        uvs.push(uv);
        joints.push(inf.joints);
        weights.push(inf.weights);
    }
    mesh.positions = positions;
    mesh.uvs = uvs;
    mesh.joints = joints;
    mesh.weights = weights;
    mesh.normals = file_normals;
    Ok((wedge_points, repairs))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(point: i32, bone: i32, weight: f32) -> VRawBoneInfluence {
        VRawBoneInfluence { weight, point_index: point, bone_index: bone }
    }

    /// Rows sorted by point take the run-by-run path, shuffled ones the counting sort: same influences, same
    /// report, and only the second path meets (and counts) rows naming a missing point or bone.
    #[test]
    fn sorted_and_shuffled_rows_give_the_same_influences() {
        let sorted = [
            row(0, 1, 0.25),
            row(0, 2, 0.75),
            // point 1 has no rows: bound to bone 0 and counted as unweighted
            row(2, 3, 0.5),
            row(2, 3, 0.5), // the same bone twice: summed
            row(3, 0, 0.1),
            row(3, 1, 0.2),
            row(3, 2, 0.3),
            row(3, 3, 0.4),
            row(3, 4, 0.05), // five influences: the smallest dropped, the rest renormalised
            row(4, 2, 2.0),  // one influence not summing to 1
        ];
        let (fast, fast_report, fast_bad) = point_influences(Records::from_slice(&sorted), 6, 5);
        assert!(sorted_point_influences(Records::from_slice(&sorted), 6, 5).is_some());
        let mut shuffled = sorted.to_vec();
        shuffled.reverse();
        assert!(sorted_point_influences(Records::from_slice(&shuffled), 6, 5).is_none());
        let (slow, slow_report, _) = point_influences(Records::from_slice(&shuffled), 6, 5);
        // Reversed rows reverse each point's order, which the reducer does not depend on.
        assert_eq!(fast, slow);
        assert_eq!(fast_report, slow_report);
        assert_eq!(fast_bad.count, 0);
        assert_eq!(fast.len(), 6);
        assert_eq!(fast[0].joints[..2], [2, 1]);
        assert_eq!(fast[0].weights[..2], [0.75, 0.25]);
        assert_eq!((fast[1].joints[0], fast[1].weights[0]), (0, 1.0));
        assert_eq!((fast[2].joints[0], fast[2].weights[0]), (3, 1.0));
        assert_eq!(fast[3].joints, [3, 2, 1, 0]);
        assert_eq!((fast[4].joints[0], fast[4].weights[0]), (2, 1.0));
        assert_eq!((fast[5].joints[0], fast[5].weights[0]), (0, 1.0));
        assert_eq!(
            (fast_report.vertices, fast_report.unweighted, fast_report.trimmed, fast_report.max_influences),
            (6, 2, 1, 5)
        );

        let mut with_bad = sorted.to_vec();
        with_bad.insert(3, row(9, 0, 1.0));
        with_bad.push(row(1, 7, 1.0));
        let (out, report, bad) = point_influences(Records::from_slice(&with_bad), 6, 5);
        assert_eq!((out, report), (fast, fast_report));
        assert_eq!(bad.count, 2);
        assert_eq!(bad.first.map(|(i, w)| (i, w.point_index)), Some((3, 9)));
    }
}
