//! Vertex normals from smoothing groups, for formats that store groups instead of normals (3ds Max ASE, Unreal
//! PSK): faces that share a smoothing group are smoothed together at the points they share; faces with no group
//! in common keep a crease there, and a face in no group is flat.
//!
//! Each face adds its unit normal weighted by the angle of its corner at the point, so a polygon contributes the
//! same whichever way it was split into triangles. The work is bounded on crafted files: around a point with more
//! than [`MAX_FACES_FOR_GROUPS`] faces the groups are ignored and all of them are smoothed together (real meshes
//! never come near that). Knows positions, corners and group bits only; each loader decides which vertex asks for
//! which groups.

use glam::Vec3;

/// Above this many face corners around one point, smoothing groups are ignored there.
pub const MAX_FACES_FOR_GROUPS: usize = 256;

/// The faces around every point of a mesh, with their angle-weighted normals, ready to answer "the normal here
/// for these smoothing groups".
pub struct SmoothingGroups<'a> {
    groups: &'a [u32],
    /// Per face corner (`face * 3 + corner`): the corner's angle, the weight of the face's normal there. (The
    /// weighted normal is multiplied out where it is summed: a third of the memory of storing it, which on a
    /// 400,000-face mesh was 10 MB of fresh pages for the kernel to zero.)
    angles: Vec<f32>,
    /// Per face: its unit normal (zero for a degenerate face).
    face_normal: Vec<Vec3>,
    /// Corners around each point: `around[starts[p]..starts[p + 1]]` holds `face * 3 + corner`.
    starts: Vec<u32>,
    around: Vec<u32>,
}

impl<'a> SmoothingGroups<'a> {
    /// `corners[f]` are the points of face `f` (indices into `positions`), `groups[f]` its smoothing group bits
    /// (group g is bit g − 1). Corners naming a point past `positions` add nothing. `clockwise`: the faces'
    /// front side winds clockwise, so the normal is the other cross product.
    pub fn new(positions: &[Vec3], corners: &[[u32; 3]], groups: &'a [u32], clockwise: bool) -> Self {
        let point_count = positions.len();
        let position = |p: u32| positions.get(p as usize).copied().unwrap_or(Vec3::ZERO);
        let mut angles = Vec::with_capacity(corners.len() * 3);
        let mut face_normal = Vec::with_capacity(corners.len());
        for face in corners {
            let [a, b, c] = face.map(position);
            let cross = if clockwise { (c - a).cross(b - a) } else { (b - a).cross(c - a) };
            // |u × v| is twice the area at every corner, so each angle is one atan2 of it and a dot product.
            let twice_area = cross.length();
            // `cross.normalize_or_zero()` without a second square root: it multiplies by 1 / length too, so the
            // normal is the same to the bit.
            let recip = 1.0 / twice_area;
            let normal = if recip.is_finite() && recip > 0.0 { cross * recip } else { Vec3::ZERO };
            let angle = |at: Vec3, u: Vec3, v: Vec3| {
                // libm's, not the C library's (std): the same bits on Linux and Windows (Cargo.toml, `glam`).
                let angle = libm::atan2f(twice_area, (u - at).dot(v - at));
                if angle.is_finite() { angle } else { 0.0 }
            };
            angles.extend([angle(a, b, c), angle(b, c, a), angle(c, a, b)]);
            face_normal.push(normal);
        }
        // A counting sort of the corners by point, filled from the back: `starts[p]` first counts p's corners,
        // then (inclusive prefix sums) marks where they end, and each corner placed, last first, moves it down to
        // where they begin — so each point's corners keep their order, with no second array of cursors.
        // Corners naming a point past `positions` are left out.
        let mut starts = vec![0u32; point_count + 1];
        for &p in corners.iter().flatten().filter(|&&p| (p as usize) < point_count) {
            starts[p as usize] += 1;
        }
        for i in 1..point_count {
            starts[i] += starts[i - 1];
        }
        let total = point_count.checked_sub(1).map_or(0, |last| starts[last]);
        starts[point_count] = total;
        let mut around = vec![0u32; total as usize];
        for (f, face) in corners.iter().enumerate().rev() {
            for (k, &p) in face.iter().enumerate().rev().filter(|&(_, &p)| (p as usize) < point_count) {
                let end = &mut starts[p as usize];
                *end -= 1;
                around[*end as usize] = (f * 3 + k) as u32;
            }
        }
        Self { groups, angles, face_normal, starts, around }
    }

    /// Face corners around `point`, as `face * 3 + corner`.
    fn corners_at(&self, point: u32) -> &[u32] {
        let p = point as usize;
        match (self.starts.get(p), self.starts.get(p + 1)) {
            (Some(&a), Some(&b)) => self.around.get(a as usize..b as usize).unwrap_or_default(),
            _ => &[],
        }
    }

    /// The normal at `point` of a vertex in the smoothing groups `mask`: the faces around the point that share a
    /// group with it, plus those `own(face, corner)` names (the faces the vertex itself belongs to). `None` when
    /// they add up to nothing (no faces, or degenerate ones).
    pub fn normal(&self, point: u32, mask: u32, own: impl Fn(usize, usize) -> bool) -> Option<Vec3> {
        let around = self.corners_at(point);
        let ignore_groups = around.len() > MAX_FACES_FOR_GROUPS;
        let sum: Vec3 = around
            .iter()
            .map(|&e| (e as usize / 3, e as usize % 3, e as usize))
            .filter(|&(f, k, _)| ignore_groups || self.groups.get(f).is_some_and(|g| g & mask != 0) || own(f, k))
            .map(|(f, _, e)| self.face_normal[f] * self.angles[e])
            .sum();
        sum.try_normalize()
    }

    /// The normal of every face corner (`face * 3 + corner`): the faces around the corner's point that share a
    /// group with its face, and the face itself; a face in no group is flat. Corners of the same point and the
    /// same groups get bit-identical normals, so welding by value joins them.
    pub fn corner_normals(&self, corners: &[[u32; 3]]) -> Vec<Vec3> {
        let mut out = vec![Vec3::Z; corners.len() * 3];
        // Per point, the normal of each distinct group mask met there (a handful in real meshes).
        let mut seen: Vec<(u32, Vec3)> = Vec::new();
        for point in 0..self.starts.len().saturating_sub(1) as u32 {
            seen.clear();
            for &e in self.corners_at(point) {
                let (f, e) = (e as usize / 3, e as usize);
                let mask = self.groups.get(f).copied().unwrap_or(0);
                let fallback = self.face_normal.get(f).and_then(|n| n.try_normalize()).unwrap_or(Vec3::Z);
                let normal = if mask == 0 {
                    fallback
                } else if let Some(&(_, n)) = seen.iter().find(|(m, _)| *m == mask) {
                    n
                } else {
                    let n = self.normal(point, mask, |g, _| g == f).unwrap_or(fallback);
                    seen.push((mask, n));
                    n
                };
                out[e] = normal;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two triangles folded 90° along the x axis (shared edge 0–1), counter-clockwise.
    fn fold() -> (Vec<Vec3>, Vec<[u32; 3]>) {
        (vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z], vec![[0, 1, 2], [1, 0, 3]])
    }

    #[test]
    fn a_shared_group_smooths_and_different_groups_crease() {
        let (p, f) = fold();
        let same = [1, 1];
        let n = SmoothingGroups::new(&p, &f, &same, false).corner_normals(&f);
        let expected = Vec3::new(0.0, 1.0, 1.0).normalize();
        assert!(n[0].abs_diff_eq(expected, 1e-6), "{}", n[0]);
        assert_eq!(n[0].to_array().map(f32::to_bits), n[4].to_array().map(f32::to_bits), "bit-identical");
        let apart = [1, 2];
        let n = SmoothingGroups::new(&p, &f, &apart, false).corner_normals(&f);
        assert!(n[0].abs_diff_eq(Vec3::Z, 1e-6) && n[4].abs_diff_eq(Vec3::Y, 1e-6), "{} {}", n[0], n[4]);
        // No group: flat, whatever the neighbours.
        let none = [0, 1];
        let n = SmoothingGroups::new(&p, &f, &none, false).corner_normals(&f);
        assert!(n[0].abs_diff_eq(Vec3::Z, 1e-6));
    }

    #[test]
    fn clockwise_faces_flip_and_own_faces_count_without_a_group() {
        let (p, f) = fold();
        let groups = [0, 0];
        let sg = SmoothingGroups::new(&p, &f, &groups, true);
        // Only the first face, through `own`.
        let n = sg.normal(2, 0, |face, _| face == 0).unwrap();
        assert!(n.abs_diff_eq(-Vec3::Z, 1e-6), "{n}");
        assert!(sg.normal(2, 0, |_, _| false).is_none());
    }

    #[test]
    fn crafted_fans_ignore_groups_past_the_bound() {
        // MAX + 1 triangles around point 0, each in its own group: over the bound they are smoothed together.
        let n = MAX_FACES_FOR_GROUPS + 1;
        let mut p = vec![Vec3::ZERO];
        let mut f = Vec::new();
        for i in 0..n {
            let a = i as f32 / n as f32 * std::f32::consts::TAU;
            p.push(Vec3::new(a.cos(), a.sin(), 0.0));
            f.push([0, i as u32 + 1, ((i + 1) % n) as u32 + 1]);
        }
        let groups: Vec<u32> = (0..n).map(|i| 1 << (i % 32)).collect();
        let sg = SmoothingGroups::new(&p, &f, &groups, false);
        let normal = sg.normal(0, 1, |_, _| false).unwrap();
        assert!(normal.abs_diff_eq(Vec3::Z, 1e-5));
        assert!(sg.normal(99_999, 1, |_, _| true).is_none(), "a point past the mesh has no faces");
    }
}
