//! What every clip does to the surface, and what the pose on screen does: the seams that open, the joints that
//! come apart, the vertices that fly off, and the largest stretch of what stays closed. Each clip is sampled
//! (every source frame of short clips; evenly spread frames of long ones, then every frame around the worst);
//! each pose skins only the vertices the measured edges and seams touch, positions only, into buffers made once.
//! How bad each thing looks is the measure of `tear` (movement against the character's size and against what
//! its joints allow), not the edge's ratio; the ratio is still reported.
//!
//! One finding per place: an edge's place is the pair of bones carrying its ends (a seam's likewise), so each
//! clip reports every place that is visibly wrong in it (its worst moment there), and `collect` merges the same
//! place over clips into one defect. A clip where nothing is visibly wrong reports its largest stretch as
//! information.
//!
//! Work is bounded: each mesh's unique edges are listed once (a sample of them for meshes above `max_edges`).

use glam::{Mat4, Vec3, Vec3A};

use crate::scene::{Asset, Clip, Mesh, Transform};

use super::super::pose::{local_to_model, skinning_palette};
use super::super::sample::ClipBinding;
use super::rig::fmt_num;
use super::tear::{Joints, TearMeasure, Verdict};
use super::{Collector, DiagnoseOptions, Finding, FindingKind, Region, Severity, Subject, clip_label, mesh_label};

/// One mesh's edges and seams, ready to be measured in any pose.
struct EdgeSet {
    mesh: usize,
    /// True when the mesh had more edges than the budget and these are an even sample.
    sampled: bool,
    /// Mesh vertex index of each compact vertex.
    vertex: Vec<u32>,
    bind: Vec<Vec3A>,
    joints: Vec<[u16; 4]>,
    weights: Vec<[f32; 4]>,
    /// Compact vertex indices of each edge.
    edges: Vec<[u32; 2]>,
    /// The (first) triangle each edge belongs to.
    triangle: Vec<u32>,
    inv_bind_len_sq: Vec<f32>,
    /// Bind length of each edge.
    bind_len: Vec<f32>,
    /// Longest each edge can get with its bones bending at intact joints (`Joints::hinge`): what the pose on
    /// screen is measured against, where only a palette is known. Empty when only clips are measured.
    hinge: Vec<f32>,
    /// Place of each edge: an index into `places`.
    edge_place: Vec<u32>,
    /// Compact vertex pairs that coincide in the bind pose on a closed seam and are skinned differently
    /// (`seams`), and the place of each.
    seams: Vec<[u32; 2]>,
    seam_place: Vec<u32>,
    /// The bones of each place: every bone that carries a tenth of either end's weight, sorted.
    places: Vec<Vec<u16>>,
    /// Scratch: skinned positions of the compact vertices.
    skinned: Vec<Vec3A>,
}

/// The worst moment seen of one place (or of a clip): its verdict, squared stretch, which edge or seam, when,
/// and the lengths there (bind, now, allowance; for a seam its separation as `now`).
#[derive(Clone, Copy, Debug)]
struct Hit {
    verdict: Verdict,
    ratio_sq: f32,
    item: usize,
    time: f32,
    lengths: (f32, f32, f32),
    /// Where a joint comes apart (or the skin flies off): the bone that moved off its joint, the one whose own
    /// translation strays furthest from where the held pose keeps it, among the edge's bones and those above.
    culprit: Option<u16>,
}

impl Hit {
    /// Worse: a higher score; among equal scores (none past the threshold), a larger stretch.
    fn worse_than(&self, other: &Option<Hit>) -> bool {
        match other {
            None => true,
            Some(o) => {
                self.verdict.score > o.verdict.score
                    || (self.verdict.score == o.verdict.score && self.ratio_sq > o.ratio_sq)
            }
        }
    }
}

/// Per set, the worst of each place over the clip so far (edges and seams apart).
struct ClipWorst {
    edges: Vec<Vec<Option<Hit>>>,
    seams: Vec<Vec<Option<Hit>>>,
    /// Per set, the vertex furthest from where the held pose puts it, when past the character's reach.
    flung: Vec<Option<Hit>>,
    /// The clip's worst edge of all, with its set: its largest stretch when nothing is visibly wrong.
    overall: Option<(usize, Hit)>,
}

impl ClipWorst {
    fn new(sets: &[EdgeSet]) -> Self {
        Self {
            edges: sets.iter().map(|s| vec![None; s.places.len()]).collect(),
            seams: sets.iter().map(|s| vec![None; s.places.len()]).collect(),
            flung: vec![None; sets.len()],
            overall: None,
        }
    }
}

impl EdgeSet {
    fn new(
        mesh_index: usize,
        mesh: &Mesh,
        max_edges: usize,
        size: f32,
        joints: Option<&mut Joints>,
    ) -> Option<EdgeSet> {
        let n = mesh.positions.len();
        let triangles = mesh.indices.len() / 3;
        let max_edges = max_edges.max(1);
        // A closed mesh has about 1.5 unique edges per triangle, a sparse sample 3: thin the triangles first so
        // the list being built never outgrows the budget by much.
        let tri_stride =
            if triangles.saturating_mul(3) / 2 > max_edges { (triangles * 3).div_ceil(max_edges) } else { 1 };
        let mut raw = crate::anim::edges::unique_edges_with_triangles(&mesh.indices, n, tri_stride);
        let mut sampled = tri_stride > 1;
        if raw.len() > max_edges {
            let stride = raw.len().div_ceil(max_edges);
            raw = raw.into_iter().step_by(stride).collect();
            sampled = true;
        }
        let mut set = EdgeSet {
            mesh: mesh_index,
            sampled,
            vertex: Vec::new(),
            bind: Vec::new(),
            joints: Vec::new(),
            weights: Vec::new(),
            edges: Vec::with_capacity(raw.len()),
            triangle: Vec::with_capacity(raw.len()),
            inv_bind_len_sq: Vec::with_capacity(raw.len()),
            bind_len: Vec::with_capacity(raw.len()),
            hinge: Vec::new(),
            edge_place: Vec::with_capacity(raw.len()),
            seams: Vec::new(),
            seam_place: Vec::new(),
            places: Vec::new(),
            skinned: Vec::new(),
        };
        let mut compact = vec![u32::MAX; n];
        let mut place_of: rustc_hash::FxHashMap<Vec<u16>, u32> = rustc_hash::FxHashMap::default();
        for (a, b, t) in raw {
            let (Some(pa), Some(pb)) = (mesh.positions.get(a as usize), mesh.positions.get(b as usize)) else {
                continue;
            };
            let len_sq = (*pa - *pb).length_squared();
            // Zero-length edges have no stretch to measure (degenerate triangles are reported elsewhere).
            if !(len_sq > 0.0 && len_sq.is_finite()) {
                continue;
            }
            let edge = [set.slot(&mut compact, mesh, a), set.slot(&mut compact, mesh, b)];
            let place = set.place(&mut place_of, edge);
            set.edges.push(edge);
            set.triangle.push(t);
            set.inv_bind_len_sq.push(1.0 / len_sq);
            set.bind_len.push(len_sq.sqrt());
            set.edge_place.push(place);
        }
        for [a, b] in super::seams::seam_pairs(mesh, size) {
            let pair = [set.slot(&mut compact, mesh, a), set.slot(&mut compact, mesh, b)];
            let place = set.place(&mut place_of, pair);
            set.seams.push(pair);
            set.seam_place.push(place);
        }
        if let Some(joints) = joints {
            set.hinge = set.hinges(joints);
        }
        set.skinned = vec![Vec3A::ZERO; set.vertex.len()];
        (!set.edges.is_empty() || !set.seams.is_empty()).then_some(set)
    }

    /// The compact index of mesh vertex `v`, added when new.
    fn slot(&mut self, compact: &mut [u32], mesh: &Mesh, v: u32) -> u32 {
        let Some(c) = compact.get_mut(v as usize) else { return 0 };
        if *c == u32::MAX {
            *c = self.vertex.len() as u32;
            self.vertex.push(v);
            self.bind.push(mesh.positions.get(v as usize).copied().unwrap_or(Vec3::ZERO).into());
            self.joints.push(mesh.joints.get(v as usize).copied().unwrap_or([0; 4]));
            self.weights.push(mesh.weights.get(v as usize).copied().unwrap_or([1.0, 0.0, 0.0, 0.0]));
        }
        *c
    }

    /// The place of two compact vertices: the bones that carry a tenth of either one's weight (a joint's blend
    /// zone, or the border between two rigidly skinned bones, is one place), added when new.
    fn place(&mut self, place_of: &mut rustc_hash::FxHashMap<Vec<u16>, u32>, [a, b]: [u32; 2]) -> u32 {
        let mut bones: Vec<u16> = Vec::with_capacity(8);
        for c in [a as usize, b as usize] {
            let (Some(joints), Some(weights)) = (self.joints.get(c), self.weights.get(c)) else { continue };
            let total: f32 = weights.iter().filter(|w| **w > 0.0 && w.is_finite()).sum();
            for (j, w) in joints.iter().zip(weights) {
                if total > 0.0 && *w >= 0.1 * total {
                    bones.push(*j);
                }
            }
        }
        if bones.is_empty() {
            bones.push(self.dominant(a as usize));
        }
        bones.sort_unstable();
        bones.dedup();
        if let Some(&p) = place_of.get(&bones) {
            return p;
        }
        self.places.push(bones.clone());
        let p = self.places.len() as u32 - 1;
        place_of.insert(bones, p);
        p
    }

    /// The hinge length of every edge (`Joints::hinge`, blended over the bones of its ends).
    fn hinges(&self, joints: &mut Joints) -> Vec<f32> {
        self.edges
            .iter()
            .zip(&self.bind_len)
            .map(|([a, b], len)| self.blended_hinge(joints, *a as usize, *b as usize, *len))
            .collect()
    }

    /// The hinge length of an edge between compact vertices `a` and `b` whose weights blend several bones: the
    /// weighted mean, over every pair of a bone of `a` and a bone of `b`, of the hinge length of that pair.
    /// Each end is the weighted mean of where its bones carry it, so the edge is at most that long while the
    /// joints hold (`|Σwᵢpᵢ − Σvⱼqⱼ| ≤ ΣΣ wᵢvⱼ|pᵢ − qⱼ|`).
    fn blended_hinge(&self, joints: &mut Joints, a: usize, b: usize, len: f32) -> f32 {
        let influences = |c: usize| {
            let (js, ws) =
                (self.joints.get(c).copied().unwrap_or([0; 4]), self.weights.get(c).copied().unwrap_or([0.0; 4]));
            let total: f32 = ws.iter().filter(|w| **w > 0.0).sum();
            let scale = if total > 0.0 && total.is_finite() { 1.0 / total } else { 0.0 };
            js.into_iter().zip(ws).filter(|(_, w)| *w > 0.0).map(move |(j, w)| (j, w * scale))
        };
        let (pa, pb) = (self.bind[a], self.bind[b]);
        let mut hinge = 0.0;
        let mut weight = 0.0;
        for (ja, wa) in influences(a) {
            for (jb, wb) in influences(b) {
                hinge += wa * wb * joints.hinge(pa, ja, pb, jb, len);
                weight += wa * wb;
            }
        }
        if weight > 0.0 { (hinge / weight).max(len) } else { len }
    }

    /// The bone with the largest weight on compact vertex `c`.
    fn dominant(&self, c: usize) -> u16 {
        let (Some(joints), Some(weights)) = (self.joints.get(c), self.weights.get(c)) else { return 0 };
        let best = (0..4).max_by(|&i, &j| weights[i].total_cmp(&weights[j])).unwrap_or(0);
        joints[best]
    }

    /// Compact vertex `c` skinned with `palette` (position only).
    fn skin_one(&self, c: usize, palette: &[Mat4]) -> Vec3A {
        let (Some(p), Some(joints), Some(weights)) = (self.bind.get(c), self.joints.get(c), self.weights.get(c)) else {
            return Vec3A::ZERO;
        };
        let mut s = Vec3A::ZERO;
        for (j, w) in joints.iter().zip(weights) {
            if *w != 0.0
                && let Some(m) = palette.get(usize::from(*j))
            {
                s += *w * m.transform_point3a(*p);
            }
        }
        s
    }

    /// What edge `e` is measured against: with a palette of the same pose with every joint held together
    /// (`held`), the longer of its bind length and its length in that pose — what the bones' turning alone
    /// makes of it — or without one, its hinge length.
    fn allowance(&self, e: usize, held: Option<&[Mat4]>) -> f32 {
        let bind = self.bind_len.get(e).copied().unwrap_or(0.0);
        match (held, self.edges.get(e)) {
            (Some(palette), Some([a, b])) => {
                let turned = (self.skin_one(*a as usize, palette) - self.skin_one(*b as usize, palette)).length();
                if turned.is_finite() { turned.max(bind) } else { bind }
            }
            _ => self.hinge.get(e).copied().unwrap_or(bind),
        }
    }

    /// Skins the compact vertices (positions only) with `palette`.
    fn skin(&mut self, palette: &[Mat4]) {
        for (((out, p), joints), weights) in
            self.skinned.iter_mut().zip(&self.bind).zip(&self.joints).zip(&self.weights)
        {
            let mut s = Vec3A::ZERO;
            for (j, w) in joints.iter().zip(weights) {
                if *w != 0.0
                    && let Some(m) = palette.get(usize::from(*j))
                {
                    s += *w * m.transform_point3a(*p);
                }
            }
            *out = s;
        }
    }

    /// Squared stretch of edge `e` in the last skinned pose; NaN (a broken pose) counts as infinite.
    #[inline]
    fn ratio_sq(&self, e: usize) -> f32 {
        let (Some([a, b]), Some(inv)) = (self.edges.get(e), self.inv_bind_len_sq.get(e)) else { return 0.0 };
        let (Some(pa), Some(pb)) = (self.skinned.get(*a as usize), self.skinned.get(*b as usize)) else { return 0.0 };
        let r = (*pa - *pb).length_squared() * inv;
        if r.is_nan() { f32::INFINITY } else { r }
    }

    /// The hit of edge `e` in the last skinned pose at `time` (`held` as in [`EdgeSet::allowance`]); `strays`
    /// (the pose's [`Strays`]) names the bone that came off its joint when the verdict is a gap.
    #[allow(clippy::too_many_arguments)]
    fn edge_hit(
        &self,
        e: usize,
        ratio_sq: f32,
        measure: &TearMeasure,
        held: Option<&[Mat4]>,
        time: f32,
        distortion: FindingKind,
        strays: Option<&Strays<'_>>,
    ) -> Hit {
        let [a, b] = self.edges.get(e).copied().unwrap_or([0, 0]);
        let now = match (self.skinned.get(a as usize), self.skinned.get(b as usize)) {
            (Some(pa), Some(pb)) => (*pa - *pb).length(),
            _ => 0.0,
        };
        let bind = self.bind_len.get(e).copied().unwrap_or(0.0);
        let allowed = self.allowance(e, held);
        let now = if now.is_nan() { f32::INFINITY } else { now };
        let verdict = measure.verdict(now, bind, allowed, ratio_sq, distortion);
        let culprit = match (verdict.kind, strays) {
            (FindingKind::JointApart | FindingKind::VertexFlies, Some(strays)) => {
                let bones = [a, b].into_iter().flat_map(|c| {
                    let (j, w) = (
                        self.joints.get(c as usize).copied().unwrap_or([0; 4]),
                        self.weights.get(c as usize).copied().unwrap_or([0.0; 4]),
                    );
                    j.into_iter().zip(w).filter(|(_, w)| *w > 0.0).map(|(j, _)| j)
                });
                strays.culprit(bones)
            }
            _ => None,
        };
        Hit { verdict, ratio_sq, item: e, time, lengths: (bind, now, allowed), culprit }
    }

    /// Measures the last skinned pose at `time` into `worst` (this set's places and the clip's overall worst);
    /// returns the pose's worst hit, for choosing where to look closer. The hot loop: the square root, the held
    /// pose and the verdict only for edges stretched past the threshold.
    fn measure(
        &self,
        s: usize,
        measure: &TearMeasure,
        held: &[Mat4],
        strays: &Strays<'_>,
        time: f32,
        worst: &mut ClipWorst,
    ) -> Option<Hit> {
        let mut pose_worst: Option<Hit> = None;
        let mut most = (-1.0f32, 0usize);
        for (e, ([a, b], inv)) in self.edges.iter().zip(&self.inv_bind_len_sq).enumerate() {
            let (Some(pa), Some(pb)) = (self.skinned.get(*a as usize), self.skinned.get(*b as usize)) else { continue };
            let mut r = (*pa - *pb).length_squared() * inv;
            if r.is_nan() {
                r = f32::INFINITY;
            }
            if r > most.0 {
                most = (r, e);
            }
            if r < measure.min_ratio_sq() {
                continue;
            }
            let hit = self.edge_hit(e, r, measure, Some(held), time, FindingKind::ClipStretch, Some(strays));
            let place = self.edge_place.get(e).copied().unwrap_or(0) as usize;
            if let Some(slot) = worst.edges.get_mut(s).and_then(|p| p.get_mut(place))
                && hit.worse_than(slot)
            {
                *slot = Some(hit);
            }
            if hit.worse_than(&pose_worst) {
                pose_worst = Some(hit);
            }
        }
        // Nothing past the threshold: the most stretched edge still counts for the clip's largest stretch.
        if pose_worst.is_none() && most.0 >= 0.0 {
            pose_worst = Some(self.edge_hit(most.1, most.0, measure, Some(held), time, FindingKind::ClipStretch, None));
        }
        for (k, [a, b]) in self.seams.iter().enumerate() {
            let (Some(pa), Some(pb)) = (self.skinned.get(*a as usize), self.skinned.get(*b as usize)) else { continue };
            let apart = (*pa - *pb).length();
            let score = measure.opening(apart);
            if score < measure.warn() {
                continue;
            }
            let hit = Hit {
                verdict: Verdict { score, kind: FindingKind::SurfaceOpens },
                ratio_sq: 0.0,
                item: k,
                time,
                lengths: (0.0, apart, 0.0),
                culprit: None,
            };
            let place = self.seam_place.get(k).copied().unwrap_or(0) as usize;
            if let Some(slot) = worst.seams.get_mut(s).and_then(|p| p.get_mut(place))
                && hit.worse_than(slot)
            {
                *slot = Some(hit);
            }
        }
        // A vertex beyond the character's reach: a piece that moves whole (a head flung away) stretches no edge.
        // Bones' translations add up along a chain at most, so while they stray less than the reach in all no
        // vertex can be past it and the held pose need not be skinned.
        if strays.total >= measure.fly() {
            for c in 0..self.vertex.len() {
                let now = self.skinned.get(c).copied().unwrap_or(Vec3A::ZERO);
                let away = (now - self.skin_one(c, held)).length();
                let away = if away.is_nan() { f32::INFINITY } else { away };
                if away < measure.fly() {
                    continue;
                }
                let bones = {
                    let (j, w) = (
                        self.joints.get(c).copied().unwrap_or([0; 4]),
                        self.weights.get(c).copied().unwrap_or([0.0; 4]),
                    );
                    j.into_iter().zip(w).filter(|(_, w)| *w > 0.0).map(|(j, _)| j)
                };
                let hit = Hit {
                    verdict: Verdict {
                        score: f32::INFINITY.min(1.0 + away / measure.size),
                        kind: FindingKind::VertexFlies,
                    },
                    ratio_sq: away,
                    item: c,
                    time,
                    lengths: (0.0, away, 0.0),
                    culprit: strays.culprit(bones),
                };
                if let Some(slot) = worst.flung.get_mut(s)
                    && (slot.is_none_or(|h| away > h.ratio_sq))
                {
                    *slot = Some(hit);
                }
            }
        }
        if let Some(hit) = pose_worst
            && hit.worse_than(&worst.overall.map(|(_, h)| h))
        {
            worst.overall = Some((s, hit));
        }
        pose_worst
    }

    /// Mesh vertex indices of edge `e`.
    fn mesh_edge(&self, e: usize) -> [u32; 2] {
        let [a, b] = self.edges.get(e).copied().unwrap_or([0, 0]);
        self.mesh_pair([a, b])
    }

    fn mesh_pair(&self, [a, b]: [u32; 2]) -> [u32; 2] {
        let v = |c: u32| self.vertex.get(c as usize).copied().unwrap_or(0);
        [v(a), v(b)]
    }

    fn triangle_of(&self, e: usize) -> usize {
        self.triangle.get(e).copied().unwrap_or(0) as usize
    }

    /// The region of place `p`: this mesh and its bones' names.
    fn region(&self, asset: &Asset, p: usize) -> Region {
        let bones = self.places.get(p).map(Vec::as_slice).unwrap_or_default();
        Region::new(Some(self.mesh), bones.iter().map(|&b| bone_name(asset, b)))
    }

    /// "bone 'X'" or "bones 'X' and 'Y'": what carries place `p`, for messages.
    fn bones_label(&self, asset: &Asset, p: usize) -> String {
        let names: Vec<String> = self
            .places
            .get(p)
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .map(|&b| format!("'{}'", bone_name(asset, b)))
            .collect();
        match names.as_slice() {
            [one] => format!("bone {one}"),
            [rest @ .., last] => format!("bones {} and {last}", rest.join(", ")),
            [] => "no bone".to_owned(),
        }
    }
}

/// How far each bone's own translation strays, in a pose, from where the held pose (every joint together) keeps
/// it: zero for bones that only turn. The bone that came off its joint is the one straying furthest.
struct Strays<'a> {
    parents: &'a [Option<usize>],
    distance: &'a [f32],
    /// The sum of every bone's stray: no vertex ends up further from its held place than this.
    total: f32,
}

impl Strays<'_> {
    /// Of `bones` and every bone above them, the one that strays furthest (if any strays at all).
    fn culprit(&self, bones: impl Iterator<Item = u16>) -> Option<u16> {
        let mut best: Option<(f32, usize)> = None;
        for bone in bones {
            let mut at = Some(usize::from(bone));
            let mut steps = 0;
            while let Some(b) = at {
                let d = self.distance.get(b).copied().unwrap_or(0.0);
                if d > 0.0 && best.is_none_or(|(x, _)| d > x) {
                    best = Some((d, b));
                }
                at = self.parents.get(b).copied().flatten();
                steps += 1;
                if steps > self.parents.len() {
                    break;
                }
            }
        }
        best.and_then(|(_, b)| u16::try_from(b).ok())
    }
}

fn bone_name(asset: &Asset, b: u16) -> String {
    asset.skeleton.names.get(usize::from(b)).cloned().unwrap_or_else(|| format!("bone {b}"))
}

/// Buffers for evaluating clip poses, made once per diagnosis.
struct PoseScratch {
    local: Vec<Transform>,
    to_root: Vec<Mat4>,
    palette: Vec<Mat4>,
    /// The same pose with every bone below a root's children kept at its bind translation, and the root's
    /// children within `TearMeasure::placement` of theirs: the joints held together, only turning (and scale,
    /// and the placement of the body) left. What a stretch in the pose has beyond this pose's is the joints
    /// coming apart.
    held_local: Vec<Transform>,
    held_to_root: Vec<Mat4>,
    held_palette: Vec<Mat4>,
    /// Per bone, how far its translation strays from the held pose's ([`Strays`]).
    strays: Vec<f32>,
}

pub(super) fn check_stretch(asset: &Asset, opts: &DiagnoseOptions, out: &mut Collector) {
    let skeleton = &asset.skeleton;
    let clips = opts.clip_stretch && !asset.clips.is_empty() && skeleton.validate().is_ok() && !skeleton.is_empty();
    if !clips && opts.current_palette.is_none() {
        return;
    }
    let measure = TearMeasure::new(asset, opts);
    // Meshes whose indices or joints are out of range are reported by the structure check and skipped here.
    let mut joints = opts.current_palette.as_ref().map(|_| Joints::new(skeleton));
    let mut sets: Vec<EdgeSet> = asset
        .meshes
        .iter()
        .enumerate()
        .filter(|(_, m)| m.validate(skeleton.len()).is_ok())
        .filter_map(|(i, m)| EdgeSet::new(i, m, opts.max_edges, measure.size, joints.as_mut()))
        .collect();
    if sets.is_empty() {
        return;
    }
    if let Some(palette) = &opts.current_palette {
        pose_stretch(asset, opts, &measure, palette, &mut sets, out);
    }
    if clips {
        let n = skeleton.len();
        let mut scratch = PoseScratch {
            local: vec![Transform::IDENTITY; n],
            to_root: vec![Mat4::IDENTITY; n],
            palette: vec![Mat4::IDENTITY; n],
            held_local: vec![Transform::IDENTITY; n],
            held_to_root: vec![Mat4::IDENTITY; n],
            held_palette: vec![Mat4::IDENTITY; n],
            strays: vec![0.0; n],
        };
        for (c, clip) in asset.clips.iter().enumerate() {
            for finding in clip_findings(asset, opts, &measure, c, clip, &mut sets, &mut scratch) {
                out.push(finding);
            }
        }
    }
}

/// How an edge opened, for messages: "from 0.18 to 5.1 units (2.8% of the character's 180-unit size)", and
/// how far past its allowance (the gap) when it went past it by a visible amount.
fn opening(measure: &TearMeasure, (bind, now, allowed): (f32, f32, f32)) -> String {
    let share = 100.0 * (now - bind) / measure.size;
    let gap = now - allowed.max(bind);
    let past = if gap > 0.01 * measure.size {
        format!(", {} units more than its bones' turning at joints that hold together opens it", fmt_num(gap))
    } else {
        String::new()
    };
    format!(
        "from {} to {} units ({}% of the character's {}-unit size{past})",
        fmt_num(bind),
        fmt_num(now),
        fmt_num((share * 10.0).round() / 10.0),
        fmt_num(measure.size)
    )
}

/// Every edge above the stretch threshold in the pose on screen, worst first; `collect` keeps the worst of each
/// place.
fn pose_stretch(
    asset: &Asset,
    opts: &DiagnoseOptions,
    measure: &TearMeasure,
    palette: &[Mat4],
    sets: &mut [EdgeSet],
    out: &mut Collector,
) {
    let limit_sq = opts.stretch_threshold * opts.stretch_threshold;
    let mut over: Vec<(f32, usize, usize)> = Vec::new();
    for (s, set) in sets.iter_mut().enumerate() {
        set.skin(palette);
        over.extend((0..set.edges.len()).map(|e| (set.ratio_sq(e), s, e)).filter(|(r, _, _)| *r > limit_sq));
    }
    over.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (ratio_sq, s, e) in over {
        let Some(set) = sets.get(s) else { continue };
        let hit = set.edge_hit(e, ratio_sq, measure, None, 0.0, FindingKind::PoseStretch, None);
        let ratio = ratio_sq.sqrt();
        let [a, b] = set.mesh_edge(e);
        let triangle = set.triangle_of(e);
        let (bind, now, _) = hit.lengths;
        let mut finding = Finding::new(
            measure.severity(hit.verdict.score),
            FindingKind::PoseStretch,
            Subject::Triangle { mesh: set.mesh, index: triangle },
            format!(
                "edge {a}–{b} of triangle {triangle} in {} is stretched {}× in the current pose, {}",
                mesh_label(asset, set.mesh),
                fmt_num(ratio),
                opening(measure, hit.lengths)
            ),
        )
        .with_value(ratio);
        finding.extent = Some((now - bind) / measure.size);
        finding.edge = Some([a, b]);
        let place = set.edge_place.get(e).copied().unwrap_or(0) as usize;
        out.push(finding.in_region(set.region(asset, place)));
    }
}
/// Times at which to sample a clip: every source frame when there are few, else `samples` evenly spread source
/// frames (or times, when the clip has no frame rate). Also returns the source frame length for refinement.
fn sample_times(clip: &Clip, samples: usize) -> (Vec<f32>, Option<f32>) {
    let samples = samples.max(1);
    let key_end = clip
        .tracks
        .iter()
        .map(|t| t.translation.end_time().max(t.rotation.end_time()).max(t.scale.end_time()))
        .fold(0.0f32, f32::max);
    let span = if clip.duration.is_finite() && clip.duration > 0.0 { clip.duration } else { key_end };
    let fps = clip.frame_rate;
    if fps.is_finite() && fps > 0.0 && clip.frame_count > 0 {
        let frames = clip.frame_count as usize;
        let time = |f: usize| (f as f32 / fps).min(span.max(0.0));
        if frames <= samples {
            return ((0..frames).map(time).collect(), None);
        }
        let picks = (0..samples).map(|k| {
            if samples == 1 { 0 } else { ((k as f64 * (frames - 1) as f64) / (samples - 1) as f64).round() as usize }
        });
        return (picks.map(time).collect(), Some(1.0 / fps));
    }
    if span <= 0.0 || samples == 1 {
        return (vec![0.0], None);
    }
    ((0..samples).map(|k| span * k as f32 / (samples - 1) as f32).collect(), None)
}

/// Poses the skeleton at `time`, skins every set and measures it into `worst`; returns the pose's worst hit.
#[allow(clippy::too_many_arguments)]
fn evaluate(
    asset: &Asset,
    measure: &TearMeasure,
    binding: &ClipBinding,
    clip: &Clip,
    time: f32,
    sets: &mut [EdgeSet],
    scratch: &mut PoseScratch,
    worst: &mut ClipWorst,
) -> Option<Hit> {
    let skeleton = &asset.skeleton;
    binding.sample(skeleton, clip, time, &mut scratch.local);
    for (((held, local), bind), parent) in
        scratch.held_local.iter_mut().zip(&scratch.local).zip(&skeleton.bind_local).zip(&skeleton.parents)
    {
        *held = *local;
        // Below a root's children, bones sit at fixed offsets from their parents. A root's children place the
        // body (a biped's pelvis shifts under its centre of mass, a UE pelvis bobs above its root): they keep
        // their keys up to the reach of a visible stretch, and only what goes beyond comes apart.
        let grandparent = parent.and_then(|p| skeleton.parents.get(p).copied().flatten());
        if grandparent.is_some() {
            held.translation = bind.translation;
        } else if parent.is_some() {
            let moved = local.translation - bind.translation;
            held.translation = bind.translation + moved.clamp_length_max(measure.placement());
        }
    }
    // Lengths are right by construction (the skeleton validated); an error would leave the bind palette.
    if local_to_model(&skeleton.parents, &scratch.local, &mut scratch.to_root).is_err()
        || skinning_palette(&skeleton.inverse_bind, &scratch.to_root, &mut scratch.palette).is_err()
        || local_to_model(&skeleton.parents, &scratch.held_local, &mut scratch.held_to_root).is_err()
        || skinning_palette(&skeleton.inverse_bind, &scratch.held_to_root, &mut scratch.held_palette).is_err()
    {
        return None;
    }
    for ((stray, local), held) in scratch.strays.iter_mut().zip(&scratch.local).zip(&scratch.held_local) {
        *stray = (local.translation - held.translation).length();
    }
    let total = scratch.strays.iter().filter(|d| d.is_finite()).sum::<f32>()
        + if scratch.strays.iter().any(|d| !d.is_finite()) { f32::INFINITY } else { 0.0 };
    let strays = Strays { parents: &skeleton.parents, distance: &scratch.strays, total };
    let mut pose_worst: Option<Hit> = None;
    for (s, set) in sets.iter_mut().enumerate() {
        set.skin(&scratch.palette);
        if let Some(hit) = set.measure(s, measure, &scratch.held_palette, &strays, time, worst)
            && hit.worse_than(&pose_worst)
        {
            pose_worst = Some(hit);
        }
    }
    pose_worst
}

/// What clip `c` does to the surface: a finding per place that is visibly wrong in it (at its worst moment
/// there), else one for its largest stretch.
fn clip_findings(
    asset: &Asset,
    opts: &DiagnoseOptions,
    measure: &TearMeasure,
    c: usize,
    clip: &Clip,
    sets: &mut [EdgeSet],
    scratch: &mut PoseScratch,
) -> Vec<Finding> {
    let binding = ClipBinding::new(&asset.skeleton, clip);
    if binding.animated_bones() == 0 {
        // Nothing moves (the track checks say why).
        return Vec::new();
    }
    let (times, frame_step) = sample_times(clip, opts.samples_per_clip);
    let mut worst = ClipWorst::new(sets);
    let mut best: Option<Hit> = None;
    let mut best_sample = 0;
    for (k, &t) in times.iter().enumerate() {
        if let Some(hit) = evaluate(asset, measure, &binding, clip, t, sets, scratch, &mut worst)
            && hit.worse_than(&best)
        {
            best = Some(hit);
            best_sample = k;
        }
    }
    // The samples skip source frames: look at every frame between the worst sample's neighbours.
    if let (Some(step), Some(b)) = (frame_step, best) {
        let before = times.get(best_sample.wrapping_sub(1)).copied().unwrap_or(b.time);
        let after = times.get(best_sample + 1).copied().unwrap_or(b.time);
        let (first, last) = ((before / step).round() as i64 + 1, (after / step).round() as i64 - 1);
        let sampled = (b.time / step).round() as i64;
        for f in (first..=last).filter(|&f| f != sampled && f >= 0) {
            let _ = evaluate(asset, measure, &binding, clip, f as f32 * step, sets, scratch, &mut worst);
        }
    }
    let mut findings = Vec::new();
    for (s, set) in sets.iter().enumerate() {
        for (place, hit) in worst.edges.get(s).into_iter().flatten().enumerate() {
            if let Some(hit) = hit
                && measure.severity(hit.verdict.score) != Severity::Info
            {
                findings.push(edge_finding(asset, measure, c, clip, set, place, hit));
            }
        }
        for (place, hit) in worst.seams.get(s).into_iter().flatten().enumerate() {
            if let Some(hit) = hit {
                findings.push(seam_finding(asset, measure, c, clip, set, place, hit));
            }
        }
        // A vertex flung off is said by itself only where no torn edge says it already (a piece moving whole).
        if let Some(Some(hit)) = worst.flung.get(s) {
            let said = worst.edges.get(s).into_iter().flatten().flatten().any(|h| {
                matches!(h.verdict.kind, FindingKind::VertexFlies | FindingKind::JointApart)
                    && measure.severity(h.verdict.score) == Severity::Error
                    && h.culprit == hit.culprit
            });
            if !said {
                findings.push(flung_finding(asset, measure, c, clip, set, hit));
            }
        }
    }
    if findings.is_empty()
        && let Some((s, hit)) = worst.overall
        && let Some(set) = sets.get(s)
    {
        let place = set.edge_place.get(hit.item).copied().unwrap_or(0) as usize;
        findings.push(edge_finding(asset, measure, c, clip, set, place, &hit));
    }
    findings
}

/// " (frame 12)" at the clip's rate, when it has one.
fn frame_note(clip: &Clip, time: f32) -> String {
    if clip.frame_rate > 0.0 && clip.frame_rate.is_finite() {
        format!(" (frame {})", (time * clip.frame_rate).round())
    } else {
        String::new()
    }
}

/// The finding of an edge's worst moment in clip `c`: a joint that comes apart, skin that flies off, or (what
/// stays closed) its stretch.
#[allow(clippy::too_many_arguments)]
fn edge_finding(
    asset: &Asset,
    measure: &TearMeasure,
    c: usize,
    clip: &Clip,
    set: &EdgeSet,
    place: usize,
    hit: &Hit,
) -> Finding {
    let ratio = hit.ratio_sq.sqrt();
    let [a, b] = set.mesh_edge(hit.item);
    let triangle = set.triangle_of(hit.item);
    let severity = measure.severity(hit.verdict.score);
    let frame = frame_note(clip, hit.time);
    let (bind, now, allowed) = hit.lengths;
    let gap = now - allowed.max(bind);
    let bones = set.bones_label(asset, place);
    let off = hit.culprit.map_or_else(|| "a bone".to_owned(), |b| format!("'{}'", bone_name(asset, b)));
    let sampled = if set.sampled { " (edges sampled: large mesh)" } else { "" };
    let mesh = mesh_label(asset, set.mesh);
    let (message, extent) = match hit.verdict.kind {
        FindingKind::VertexFlies if !now.is_finite() => (
            format!(
                "{}: the skin flies off at {} s{frame}: edge {a}–{b} of triangle {triangle} in {mesh}, moved by \
                 {bones}, is not a finite length (a bone's keys or matrices are not numbers there){sampled}",
                clip_label(asset, c),
                fmt_num(hit.time)
            ),
            f32::INFINITY,
        ),
        FindingKind::VertexFlies => (
            format!(
                "{}: the skin flies off at {} s{frame}: edge {a}–{b} of triangle {triangle} in {mesh}, moved by \
                 {bones}, reaches {} units, {} units beyond where joints that hold together put it — more than \
                 the character's {}-unit size ({off} flung off its joint){sampled}",
                clip_label(asset, c),
                fmt_num(hit.time),
                fmt_num(now),
                fmt_num(gap),
                fmt_num(measure.size)
            ),
            gap / measure.size,
        ),
        FindingKind::JointApart => (
            format!(
                "{}: a joint comes apart at {} s{frame}: edge {a}–{b} of triangle {triangle} in {mesh} is stretched \
                 {}× {}, moved by {bones}{sampled}: a bone moves off its joint there ({off}: translation keys away \
                 from the bind pose, as in animations made for other proportions)",
                clip_label(asset, c),
                fmt_num(hit.time),
                fmt_num(ratio),
                opening(measure, hit.lengths)
            ),
            gap / measure.size,
        ),
        _ => {
            let verdict = match severity {
                Severity::Info => String::new(),
                _ => format!(
                    ", moved by {bones}: the surface stays closed but is visibly stretched there (a web of skin at a \
                     bent joint, a crease, or a spike pulled by a vertex on another bone than its neighbours)"
                ),
            };
            (
                format!(
                    "{}: largest edge stretch {}× at {} s{frame}, edge {a}–{b} of triangle {triangle} in {mesh}, \
                     {}{sampled}{verdict}",
                    clip_label(asset, c),
                    fmt_num(ratio),
                    fmt_num(hit.time),
                    opening(measure, hit.lengths)
                ),
                (now - bind) / measure.size,
            )
        }
    };
    let kind = if hit.verdict.kind == FindingKind::PoseStretch { FindingKind::ClipStretch } else { hit.verdict.kind };
    // A bone off its joint is one defect wherever along its skin the edges open.
    let region = match hit.culprit {
        Some(bone) if matches!(kind, FindingKind::JointApart | FindingKind::VertexFlies) => {
            Region::new(Some(set.mesh), [bone_name(asset, bone)])
        }
        _ => set.region(asset, place),
    };
    let mut finding = Finding::new(severity, kind, Subject::Triangle { mesh: set.mesh, index: triangle }, message)
        .with_value(if ratio.is_nan() { f32::INFINITY } else { ratio });
    finding.extent = Some(extent);
    finding.edge = Some([a, b]);
    finding.in_clip(c, Some(hit.time)).in_region(region)
}

/// The finding of the vertex furthest beyond the character's reach in clip `c`.
fn flung_finding(asset: &Asset, measure: &TearMeasure, c: usize, clip: &Clip, set: &EdgeSet, hit: &Hit) -> Finding {
    let v = set.vertex.get(hit.item).copied().unwrap_or(0);
    let away = hit.lengths.1;
    let off = hit.culprit.map_or_else(|| "a bone".to_owned(), |b| format!("'{}'", bone_name(asset, b)));
    let message = format!(
        "{}: the skin flies off at {} s{}: vertex {v} of {} is {} units from where joints that hold together put it \
         — beyond the character's {}-unit size ({off} flung off its joint)",
        clip_label(asset, c),
        fmt_num(hit.time),
        frame_note(clip, hit.time),
        mesh_label(asset, set.mesh),
        fmt_num(away),
        fmt_num(measure.size)
    );
    let mut finding = Finding::new(
        Severity::Error,
        FindingKind::VertexFlies,
        Subject::Vertex { mesh: set.mesh, index: v as usize },
        message,
    )
    .with_value(away);
    finding.extent = Some(away / measure.size);
    let region = match hit.culprit {
        Some(bone) => Region::new(Some(set.mesh), [bone_name(asset, bone)]),
        None => Region::new(Some(set.mesh), ["flung".to_owned()]),
    };
    finding.in_clip(c, Some(hit.time)).in_region(region)
}

/// The finding of a seam's worst opening in clip `c`.
fn seam_finding(
    asset: &Asset,
    measure: &TearMeasure,
    c: usize,
    clip: &Clip,
    set: &EdgeSet,
    place: usize,
    hit: &Hit,
) -> Finding {
    let pair = set.seams.get(hit.item).copied().unwrap_or([0, 0]);
    let [a, b] = set.mesh_pair(pair);
    let apart = hit.lengths.1;
    let bones = set.bones_label(asset, place);
    let message = format!(
        "{}: the surface opens at {} s{}: vertices {a} and {b} of {}, one point of a seam in the bind pose, are {} \
         units apart ({}% of the character's {}-unit size): {bones} carry its two sides with different weights",
        clip_label(asset, c),
        fmt_num(hit.time),
        frame_note(clip, hit.time),
        mesh_label(asset, set.mesh),
        fmt_num(apart),
        fmt_num((1000.0 * apart / measure.size).round() / 10.0),
        fmt_num(measure.size)
    );
    let mut finding = Finding::new(
        measure.severity(hit.verdict.score),
        FindingKind::SurfaceOpens,
        Subject::Vertex { mesh: set.mesh, index: a as usize },
        message,
    )
    .with_value(apart);
    finding.extent = Some(apart / measure.size);
    finding.edge = Some([a, b]);
    finding.in_clip(c, Some(hit.time)).in_region(set.region(asset, place))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{BoneTrack, Curve};

    fn clip(frames: u32, fps: f32) -> Clip {
        Clip {
            name: "c".into(),
            duration: (frames.max(1) - 1) as f32 / fps,
            frame_rate: fps,
            frame_count: frames,
            tracks: vec![BoneTrack { bone_name: "b".into(), ..BoneTrack::default() }],
            callback_keys: Vec::new(),
            ..Clip::default()
        }
    }

    #[test]
    fn short_clips_sample_every_frame() {
        let (t, step) = sample_times(&clip(11, 10.0), 30);
        assert_eq!(t.len(), 11);
        assert!((t[10] - 1.0).abs() < 1e-6);
        assert!(step.is_none());
    }

    #[test]
    fn long_clips_sample_evenly_on_frames() {
        let (t, step) = sample_times(&clip(101, 30.0), 30);
        assert_eq!(t.len(), 30);
        assert_eq!(t[0], 0.0);
        assert!((t[29] - 100.0 / 30.0).abs() < 1e-5);
        // Every sample lands on a source frame.
        assert!(t.iter().all(|x| ((x * 30.0) - (x * 30.0).round()).abs() < 1e-3));
        assert_eq!(step, Some(1.0 / 30.0));
    }

    #[test]
    fn clips_without_frames_sample_their_keys_span() {
        let mut c = clip(0, 0.0);
        c.duration = 0.0;
        c.tracks[0].translation = Curve::linear(vec![0.0, 2.0], vec![Vec3::ZERO, Vec3::X]);
        let (t, _) = sample_times(&c, 5);
        assert_eq!(t, vec![0.0, 0.5, 1.0, 1.5, 2.0]);
    }

    #[test]
    fn edge_sets_are_unique_and_bounded() {
        // Two triangles sharing an edge: 5 unique edges.
        let mesh = Mesh {
            positions: vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::ONE],
            joints: vec![[0; 4]; 4],
            weights: vec![[1.0, 0.0, 0.0, 0.0]; 4],
            indices: vec![0, 1, 2, 1, 3, 2],
            ..Mesh::default()
        };
        let skeleton = crate::scene::Skeleton::default();
        let set = EdgeSet::new(0, &mesh, 100, 1.0, Some(&mut Joints::new(&skeleton))).unwrap();
        assert_eq!(set.edges.len(), 5);
        assert!(!set.sampled);
        let small = EdgeSet::new(0, &mesh, 2, 1.0, None).unwrap();
        assert!(small.edges.len() <= 2 && small.sampled);
    }
}
