//! How bad what a clip does to the surface looks: the measures behind the severities of `surface_opens`,
//! `joint_apart`, `vertex_flies` and `clip_stretch` (docs/findings.md).
//!
//! A ratio of lengths alone cannot tell a tear from a sliver: a 0.2-unit edge in an armpit that grows to 5 units
//! is "25×" yet invisible on a 180-unit character, while a torso pulled 24 units off its pelvis is plain to see
//! at any ratio. What a person sees is how far the surface moves compared with the whole character on screen,
//! and whether it moves the way bending at joints moves it. So:
//!
//! - **the surface opens** (`surface_opens`, an error): vertices that coincide in the bind pose — the two sides
//!   of a seam of one surface, `seams` finds them — move apart by `open_gap` of the character's size. Nothing a
//!   working rig does opens a closed surface: a hole where there was none is a defect in any view.
//! - **a joint comes apart** (`joint_apart`, an error from `tear_gap` of the size): an edge grows longer than its
//!   *allowance*, the length bones turning at intact joints give it. For a clip that is its length in the same
//!   pose with the joints held together (`stretch` computes it); for a bare palette (the pose on screen) the
//!   [`hinge`](Joints::hinge) length bounds it: bending keeps every vertex at its bind distance from the joints
//!   between its bones, so by the triangle inequality the edge is at most as long as the path from one end
//!   through those joints to the other. A rigidly skinned knee bent double stays within it; a bone that comes off
//!   its parent (a translation key far from the bind pose, an animation for other proportions) does not.
//! - **a vertex flies off** (`vertex_flies`, an error): a skinned position that is not a number, or a vertex
//!   (or an edge's gap) `fly_reach` of the size away from where intact joints put it — the skin ends up further
//!   off than the character is big, even a piece that moves whole and stretches no edge (a head flung away).
//! - **distortion** (`clip_stretch`): how far an edge grows at all, its *reach*, a web of skin stretched at a bent
//!   joint, a crease, a spike pulled by a vertex on another bone than its neighbours (as rigidly skinned game
//!   models have along every border between bones). The surface stays closed: at most a warning, from
//!   `tear_reach` of the size, ranked by how far it moves.
//!
//! Each measure has a score that is 1 at its error limit (distortion's is kept below 1) and `warn_fraction` at
//! its warning limit, so one number ranks everything and [`TearMeasure::severity`] reads it. Edges stretched less
//! than `stretch_threshold` times their bind length score 0 whatever their growth: a long edge growing a little
//! is a stretched panel, not an opening.
//!
//! Pure computation over the skeleton and bind positions; no allocation per frame.

use glam::{Vec3, Vec3A};

use crate::scene::{Asset, Skeleton};

use super::{DiagnoseOptions, FindingKind, Severity};

/// The highest score reach alone can give: below an error.
const REACH_CAP: f32 = 0.99;

/// What an edge's or a seam's measure says: how bad (1 = an error) and which kind of finding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Verdict {
    pub score: f32,
    pub kind: FindingKind,
}

/// The character's scale and the thresholds, resolved to units once per diagnosis.
#[derive(Clone, Copy, Debug)]
pub(super) struct TearMeasure {
    /// The character's size in its own units (largest side of the bind pose's bounding box).
    pub size: f32,
    inv_reach: f32,
    inv_gap: f32,
    inv_open: f32,
    fly: f32,
    placement: f32,
    min_ratio_sq: f32,
    warn: f32,
}

impl TearMeasure {
    pub fn new(asset: &Asset, opts: &DiagnoseOptions) -> Self {
        let size = character_size(asset);
        Self {
            size,
            inv_reach: 1.0 / (opts.tear_reach * size),
            inv_gap: 1.0 / (opts.tear_gap * size),
            inv_open: 1.0 / (opts.open_gap * size),
            fly: opts.fly_reach * size,
            placement: opts.tear_reach * size,
            min_ratio_sq: opts.stretch_threshold * opts.stretch_threshold,
            warn: opts.warn_fraction,
        }
    }

    /// The verdict on an edge of bind length `bind` and allowance `allowed`, now `length` long (its squared
    /// ratio `ratio_sq` given, as the caller has it). `distortion` is the kind a closed surface's stretch is
    /// reported as (`clip_stretch`, or `pose_stretch` for the pose on screen). NaN (a broken pose) flies.
    #[inline]
    pub fn verdict(&self, length: f32, bind: f32, allowed: f32, ratio_sq: f32, distortion: FindingKind) -> Verdict {
        if ratio_sq.is_nan() || !length.is_finite() {
            return Verdict { score: f32::INFINITY, kind: FindingKind::VertexFlies };
        }
        if ratio_sq < self.min_ratio_sq {
            return Verdict { score: 0.0, kind: distortion };
        }
        let reach = ((length - bind) * self.inv_reach * self.warn).clamp(0.0, REACH_CAP);
        let gap_length = length - allowed.max(bind);
        let gap = gap_length * self.inv_gap;
        if gap >= self.warn {
            let kind = if gap_length >= self.fly { FindingKind::VertexFlies } else { FindingKind::JointApart };
            return Verdict { score: gap.max(reach), kind };
        }
        Verdict { score: reach, kind: distortion }
    }

    /// How far a vertex may end up from where joints that hold together put it before it has flown beyond the
    /// character's reach (`fly_reach` of the size).
    #[inline]
    pub fn fly(&self) -> f32 {
        self.fly
    }

    /// The score of a seam whose two sides are `separation` apart (1 at `open_gap`).
    #[inline]
    pub fn opening(&self, separation: f32) -> f32 {
        if separation.is_nan() { f32::INFINITY } else { separation * self.inv_open }
    }

    /// How far a root's child may move from its bind offset and still be placing the body rather than coming
    /// off it: the reach of a visible stretch (`tear_reach` of the size).
    #[inline]
    pub fn placement(&self) -> f32 {
        self.placement
    }

    /// The squared stretch below which an edge scores 0.
    #[inline]
    pub fn min_ratio_sq(&self) -> f32 {
        self.min_ratio_sq
    }

    /// The score at which a measure is a warning.
    #[inline]
    pub fn warn(&self) -> f32 {
        self.warn
    }

    pub fn severity(&self, score: f32) -> Severity {
        if score.is_nan() || score >= 1.0 {
            Severity::Error
        } else if score >= self.warn {
            Severity::Warning
        } else {
            Severity::Info
        }
    }
}

/// The largest side of the bounding box of every finite bind position of the asset's meshes (1 when there is
/// none, so measures stay finite).
pub(super) fn character_size(asset: &Asset) -> f32 {
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for p in asset.meshes.iter().flat_map(|m| &m.positions).filter(|p| p.is_finite()) {
        lo = lo.min(*p);
        hi = hi.max(*p);
    }
    let size = (hi - lo).max_element();
    if size.is_finite() && size > 0.0 { size } else { 1.0 }
}

/// The first and last joint on the path between two bones, and the path's length between them; `None` when the
/// bones are in different trees.
type JointPath = Option<(Vec3A, Vec3A, f32)>;

/// The skeleton's joints in the meshes' bind space, for hinge lengths.
pub(super) struct Joints {
    /// Each bone's origin where skinning puts it at the bind pose (the inverse of its offset matrix).
    origin: Vec<Vec3A>,
    parent: Vec<Option<usize>>,
    depth: Vec<usize>,
    /// Per pair of bones, the path between them.
    paths: rustc_hash::FxHashMap<(u16, u16), JointPath>,
}

impl Joints {
    pub fn new(skeleton: &Skeleton) -> Self {
        let n = skeleton.len();
        // Broken skeletons (reported by the structure check) get origins from the offsets alone.
        let bind = if skeleton.validate().is_ok() { skeleton.bind_to_root() } else { Vec::new() };
        let origin = (0..n)
            .map(|b| {
                let from_offset = skeleton.inverse_bind.get(b).map(|m| m.inverse().w_axis.truncate());
                let from_bind = bind.get(b).map_or(Vec3::ZERO, |m| m.w_axis.truncate());
                Vec3A::from(from_offset.filter(|p| p.is_finite()).unwrap_or(from_bind))
            })
            .collect();
        let parent: Vec<Option<usize>> =
            (0..n).map(|b| skeleton.parents.get(b).copied().flatten().filter(|&p| p < n && p != b)).collect();
        // Depth by walking up, bounded by the bone count so a cycle in broken data cannot loop.
        let depth = (0..n)
            .map(|b| {
                let (mut d, mut at) = (0, b);
                while let Some(p) = parent[at] {
                    d += 1;
                    at = p;
                    if d > n {
                        break;
                    }
                }
                d
            })
            .collect();
        Self { origin, parent, depth, paths: rustc_hash::FxHashMap::default() }
    }

    /// The longest an edge from `a` (carried by bone `bone_a`) to `b` (by `bone_b`), `bind` long at rest, can
    /// get while both bones only turn about intact joints: `bind` when one bone carries both ends, else the
    /// path from `a` through every joint between the bones to `b`.
    pub fn hinge(&mut self, a: Vec3A, bone_a: u16, b: Vec3A, bone_b: u16, bind: f32) -> f32 {
        if bone_a == bone_b {
            return bind;
        }
        let path = match self.paths.get(&(bone_a, bone_b)) {
            Some(p) => *p,
            None => {
                let p = self.path(usize::from(bone_a), usize::from(bone_b));
                self.paths.insert((bone_a, bone_b), p);
                p
            }
        };
        match path {
            Some((first, last, inner)) => ((a - first).length() + inner + (last - b).length()).max(bind),
            // Bones of different trees: nothing holds them together, so any opening is a gap.
            None => bind,
        }
    }

    /// The joints between bones `x` and `y`: the origins of the bones from `x` up to (not including) their
    /// common ancestor, then down to `y`.
    fn path(&self, x: usize, y: usize) -> JointPath {
        let (n, depth) = (self.parent.len(), |b: usize| self.depth.get(b).copied().unwrap_or(0));
        if x >= n || y >= n {
            return None;
        }
        let (mut up, mut down) = (Vec::new(), Vec::new());
        let (mut x, mut y) = (x, y);
        while depth(x) > depth(y) {
            up.push(x);
            x = self.parent[x]?;
        }
        while depth(y) > depth(x) {
            down.push(y);
            y = self.parent[y]?;
        }
        while x != y {
            up.push(x);
            down.push(y);
            x = self.parent[x]?;
            y = self.parent[y]?;
            if up.len() > n {
                return None;
            }
        }
        let joints: Vec<Vec3A> = up.iter().chain(down.iter().rev()).map(|&b| self.origin[b]).collect();
        let inner = joints.windows(2).map(|w| (w[1] - w[0]).length()).sum();
        Some((*joints.first()?, *joints.last()?, inner))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Transform;
    use glam::Quat;

    /// thigh (origin 0,10,0) → shin (origin 0,5,0) → foot (origin 0,0,0); a second leg beside it.
    fn legs() -> Skeleton {
        let mut s = Skeleton::default();
        let t = |y: f32| Transform::from_translation_rotation(Vec3::new(0.0, y, 0.0), Quat::IDENTITY);
        s.push("pelvis", None, t(10.0));
        s.push("thigh", Some(0), t(0.0));
        s.push("shin", Some(1), t(-5.0));
        s.push("foot", Some(2), t(-5.0));
        s.push("other", Some(0), Transform::from_translation_rotation(Vec3::X * 4.0, Quat::IDENTITY));
        s.recompute_inverse_bind();
        s
    }

    #[test]
    fn the_hinge_runs_through_the_joints_between_the_bones() {
        let mut j = Joints::new(&legs());
        let (a, b) = (Vec3A::new(1.0, 5.5, 0.0), Vec3A::new(1.0, 4.5, 0.0));
        // Across the knee (shin origin at y = 5): √1.25 from each end to the joint.
        let h = j.hinge(a, 1, b, 2, 1.0);
        assert!((h - 2.0 * 1.25f32.sqrt()).abs() < 1e-5, "{h}");
        // One bone carries both ends: the edge cannot grow.
        assert_eq!(j.hinge(a, 2, b, 2, 1.0), 1.0);
        // Thigh to foot: through the knee (y 5) and the ankle (y 0).
        let h = j.hinge(a, 1, Vec3A::new(1.0, 0.5, 0.0), 3, 5.0);
        assert!((h - (1.25f32.sqrt() + 5.0 + 1.25f32.sqrt())).abs() < 1e-4, "{h}");
        // Sibling legs: up to the hip joints of both (both at the pelvis, 4 apart).
        let h = j.hinge(Vec3A::new(0.0, 10.0, 0.0), 1, Vec3A::new(4.0, 10.0, 0.0), 4, 4.0);
        assert!((h - 4.0).abs() < 1e-5, "{h}");
    }

    #[test]
    fn verdicts_grow_with_reach_and_gap_not_with_the_ratio() {
        let asset = Asset {
            meshes: vec![crate::scene::Mesh {
                positions: vec![Vec3::ZERO, Vec3::new(0.0, 100.0, 0.0)],
                ..Default::default()
            }],
            ..Asset::default()
        };
        let m = TearMeasure::new(&asset, &DiagnoseOptions::default());
        assert_eq!(m.size, 100.0);
        let v = |length: f32, bind: f32, allowed: f32| {
            let r = length / bind;
            let v = m.verdict(length, bind, allowed, r * r, FindingKind::ClipStretch);
            (m.severity(v.score), v.kind)
        };
        // A sliver 0.1 → 3 units (30×) within its hinge: small on a 100-unit character.
        assert_eq!(v(3.0, 0.1, 4.0), (Severity::Info, FindingKind::ClipStretch));
        // The same growth with no joint to explain it: a gap of 2.9 units is still small.
        assert_eq!(v(3.0, 0.1, 0.1), (Severity::Info, FindingKind::ClipStretch));
        // 6 units past the allowance: a joint visibly coming apart; 11 units: apart.
        assert_eq!(v(6.5, 0.5, 0.5), (Severity::Warning, FindingKind::JointApart));
        assert_eq!(v(11.5, 0.5, 0.5), (Severity::Error, FindingKind::JointApart));
        // Past the character's size: the skin flies off.
        assert_eq!(v(150.0, 1.0, 1.0), (Severity::Error, FindingKind::VertexFlies));
        // 20 units of reach within the allowance is a visible stretch, however far: never an error.
        assert_eq!(v(21.0, 1.0, 30.0), (Severity::Warning, FindingKind::ClipStretch));
        assert_eq!(v(90.0, 1.0, 95.0), (Severity::Warning, FindingKind::ClipStretch));
        assert_eq!(v(10.0, 1.0, 30.0), (Severity::Info, FindingKind::ClipStretch));
        // A long edge growing by 1.4× is a stretched panel, not an opening.
        assert_eq!(m.verdict(70.0, 50.0, 50.0, 1.96, FindingKind::ClipStretch).score, 0.0);
        assert_eq!(m.verdict(f32::NAN, 1.0, 1.0, f32::NAN, FindingKind::ClipStretch).kind, FindingKind::VertexFlies);
        // A seam 2 units open on a 100-unit character is a hole; 1 unit a crack worth a look.
        assert_eq!(m.severity(m.opening(2.0)), Severity::Error);
        assert_eq!(m.severity(m.opening(1.0)), Severity::Warning);
        assert_eq!(m.severity(m.opening(0.2)), Severity::Info);
    }
}
