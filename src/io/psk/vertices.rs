//! The render vertices of a PSK, one per wedge: one pass over the wedges writes each vertex array once at its
//! final size (position, UV, joints, weights and, when the file has them, normals) straight from the chunks'
//! bytes. A wedge's four influences are reduced from its point's `RAWWEIGHTS` rows as the wedge is written
//! (cheap next to another per-point array in memory); each point is counted once in the influence report, points
//! no wedge uses included.

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

/// The `RAWWEIGHTS` rows of every point, in file order within each point: `starts[p]..starts[p + 1]` indexes
/// point p's rows.
///
/// Exporters write the rows sorted by point; those are indexed where they are in the file. Any other order (or a
/// row naming a point or bone that does not exist) takes a counting sort of the valid rows by point. Both give
/// each point the same rows in the same order, so the same influences.
pub(super) struct PointWeights<'a> {
    starts: Vec<u32>,
    rows: Rows<'a>,
    pub bad: BadRows,
}

enum Rows<'a> {
    /// The file's rows, already sorted by point.
    InFile(Records<'a, VRawBoneInfluence>),
    /// (bone, weight) of the valid rows, sorted by point.
    Sorted(Vec<(u16, f32)>),
}

fn valid_row(w: &VRawBoneInfluence, point_count: usize, bone_count: usize) -> bool {
    usize::try_from(w.point_index).is_ok_and(|p| p < point_count)
        && usize::try_from(w.bone_index).is_ok_and(|b| b < bone_count)
}

impl<'a> PointWeights<'a> {
    pub fn new(weights: Records<'a, VRawBoneInfluence>, point_count: usize, bone_count: usize) -> Self {
        match in_file_starts(weights, point_count, bone_count) {
            Some(starts) => PointWeights { starts, rows: Rows::InFile(weights), bad: BadRows::default() },
            None => counting_sort(weights, point_count, bone_count),
        }
    }

    /// Point `p`'s four influences; its rows are copied into `scratch` (the reducer sorts and merges in place).
    #[inline]
    fn influences(&self, p: usize, scratch: &mut Vec<(u16, f32)>, report: &mut InfluenceReport) -> Influences {
        let (start, end) = match (self.starts.get(p), self.starts.get(p + 1)) {
            (Some(&s), Some(&e)) => (s as usize, e as usize),
            _ => (0, 0),
        };
        scratch.clear();
        match &self.rows {
            Rows::InFile(rows) => {
                scratch.extend(rows.range(start, end - start).iter().map(|w| (w.bone_index as u16, w.weight)));
            }
            Rows::Sorted(pairs) => scratch.extend_from_slice(pairs.get(start..end).unwrap_or_default()),
        }
        reduce_influences(scratch, 0, report)
    }
}

/// `starts` of rows that are valid and sorted by point; `None` at the first row that is not.
fn in_file_starts(weights: Records<VRawBoneInfluence>, point_count: usize, bone_count: usize) -> Option<Vec<u32>> {
    let mut starts = Vec::with_capacity(point_count + 1);
    for (i, w) in weights.iter().enumerate() {
        if !valid_row(&w, point_count, bone_count) {
            return None;
        }
        let point = w.point_index as usize;
        if starts.len() > point + 1 {
            // A row of a later point came before this one.
            return None;
        }
        while starts.len() <= point {
            starts.push(i as u32);
        }
    }
    while starts.len() <= point_count {
        starts.push(weights.len() as u32);
    }
    Some(starts)
}

/// Any order: the valid rows bucketed by point with a counting sort, invalid rows skipped and counted.
fn counting_sort<'a>(
    weights: Records<'a, VRawBoneInfluence>,
    point_count: usize,
    bone_count: usize,
) -> PointWeights<'a> {
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
    PointWeights { starts, rows: Rows::Sorted(pairs), bad }
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

/// Fills positions, UVs, joints, weights and (from the file) normals, one per wedge, in one pass, and the
/// influence report of the points; returns the point of every wedge. A wedge naming a point the file lacks is an
/// error at its record.
pub(super) fn fill_vertices(
    points: Records<Vec3>,
    wedges: Records<VVertex>,
    weights_of: &PointWeights,
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
    let mut scratch: Vec<(u16, f32)> = Vec::with_capacity(8);
    // Points whose influences are in the report (each point once, however many wedges use it).
    let mut reported = vec![0u64; point_count.div_ceil(64)];
    let mut report = InfluenceReport::default();
    let mut again = InfluenceReport::default();
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
        let p = point as usize;
        let (word, bit) = (p / 64, 1u64 << (p % 64));
        let inf = match reported.get_mut(word) {
            Some(bits) if *bits & bit == 0 => {
                *bits |= bit;
                weights_of.influences(p, &mut scratch, &mut report)
            }
            _ => weights_of.influences(p, &mut scratch, &mut again),
        };
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
    for p in 0..point_count {
        if reported.get(p / 64).is_some_and(|bits| bits & (1 << (p % 64)) == 0) {
            weights_of.influences(p, &mut scratch, &mut report);
        }
    }
    mesh.influence_report = report;
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

    /// Every point's influences, and the report over all of them.
    fn all(weights: &PointWeights, point_count: usize) -> (Vec<Influences>, InfluenceReport) {
        let mut report = InfluenceReport::default();
        let mut scratch = Vec::new();
        let out = (0..point_count).map(|p| weights.influences(p, &mut scratch, &mut report)).collect();
        (out, report)
    }

    /// Rows sorted by point are read where they are, shuffled ones through the counting sort: same influences,
    /// same report, and only the second path meets (and counts) rows naming a missing point or bone.
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
        let in_file = PointWeights::new(Records::from_slice(&sorted), 6, 5);
        assert!(matches!(in_file.rows, Rows::InFile(_)));
        let (fast, fast_report) = all(&in_file, 6);
        let mut shuffled = sorted.to_vec();
        shuffled.reverse();
        let counted = PointWeights::new(Records::from_slice(&shuffled), 6, 5);
        assert!(matches!(counted.rows, Rows::Sorted(_)));
        // Reversed rows reverse each point's order, which the reducer does not depend on.
        assert_eq!(all(&counted, 6), (fast.clone(), fast_report));
        assert_eq!(in_file.bad.count, 0);
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
        let checked = PointWeights::new(Records::from_slice(&with_bad), 6, 5);
        assert_eq!(all(&checked, 6), (fast, fast_report));
        assert_eq!(checked.bad.count, 2);
        assert_eq!(checked.bad.first.map(|(i, w)| (i, w.point_index)), Some((3, 9)));
    }

    /// Wedges sharing a point get its influences each, the report counts the point once, and points no wedge uses
    /// are counted too.
    #[test]
    fn the_report_counts_points_once() {
        let points = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        let rows = [row(0, 1, 1.0), row(1, 1, 0.5), row(1, 2, 0.25), row(3, 0, 0.5)];
        let wedge = |point: u32| VVertex { point_index: point, ..VVertex::default() };
        let wedges = [wedge(1), wedge(0), wedge(1), wedge(1), wedge(0)]; // point 2 and 3 unused
        let weights = PointWeights::new(Records::from_slice(&rows), 4, 3);
        let chunk = super::super::missing("VTXW0000");
        let mut mesh = Mesh::default();
        let (wedge_points, repairs) = fill_vertices(
            Records::from_slice(&points),
            Records::from_slice(&wedges),
            &weights,
            FileNormals::None,
            &chunk,
            &mut mesh,
        )
        .unwrap();
        assert_eq!(wedge_points, [1, 0, 1, 1, 0]);
        assert_eq!(repairs, VertexRepairs::default());
        assert_eq!(mesh.positions, [Vec3::X, Vec3::ZERO, Vec3::X, Vec3::X, Vec3::ZERO]);
        assert_eq!(mesh.joints[0][..2], [1, 2]);
        assert_eq!(mesh.joints[2], mesh.joints[0]);
        assert!((mesh.weights[3][0] - 2.0 / 3.0).abs() < 1e-6);
        assert_eq!((mesh.joints[4][0], mesh.weights[4][0]), (1, 1.0));
        let report = mesh.influence_report;
        // Points 0..3; point 2 has no rows; points 1 and 3 do not sum to 1.
        assert_eq!((report.vertices, report.unweighted, report.renormalized, report.max_influences), (4, 1, 2, 2));
    }
}
