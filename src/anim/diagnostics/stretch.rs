//! Edge stretch: how an edge's skinned length compares with its bind length. A sound rig keeps it near its
//! bind length (joints bend, a little squash); a broken offset, a wrong bone mapping or a runaway key pulls the
//! surface apart. Measured in the current pose, and for every clip over sampled frames (then refined to the
//! source frames around the worst sample), so a broken clip is found without watching it. How bad an edge looks
//! — its severity — is the tear measure of `tear` (growth against the character's size and against what its
//! joints allow), not the ratio alone; the ratio is still reported.
//!
//! Work is bounded and allocation-free per frame: each mesh's unique edges are listed once (a sample of them
//! for meshes above `max_edges`), only the vertices those edges touch are skinned, positions only, into
//! buffers made once.

use glam::{Mat4, Vec3, Vec3A};

use crate::scene::{Asset, Clip, Mesh, Transform};

use super::super::pose::{local_to_model, skinning_palette};
use super::super::sample::ClipBinding;
use super::rig::fmt_num;
use super::tear::{Joints, TearMeasure};
use super::{ClipTime, Collector, DiagnoseOptions, Finding, FindingKind, Severity, Subject, clip_label, mesh_label};

/// One mesh's edges, ready to be measured in any pose.
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
    /// screen is measured against, where only a palette is known.
    hinge: Vec<f32>,
    /// Edges with an end bound alone to another bone than the skin around it (`EdgeSet::hinges`): no bending
    /// explains their opening.
    alone: Vec<bool>,
    /// Scratch: skinned positions of the compact vertices.
    skinned: Vec<Vec3A>,
}

/// The worst edge seen so far: its tear score, its squared stretch (NaN counted as infinite), where, and when.
/// Worse means a higher score; among edges that score 0 (none stretched past the threshold), a larger stretch.
#[derive(Clone, Copy, Debug)]
struct Worst {
    score: f32,
    ratio_sq: f32,
    set: usize,
    edge: usize,
    time: f32,
}

impl Worst {
    const NONE: Worst = Worst { score: 0.0, ratio_sq: -1.0, set: 0, edge: 0, time: 0.0 };

    fn worse_than(&self, other: &Worst) -> bool {
        self.score > other.score || (self.score == other.score && self.ratio_sq > other.ratio_sq)
    }
}

impl EdgeSet {
    fn new(mesh_index: usize, mesh: &Mesh, max_edges: usize, joints: Option<&mut Joints>) -> Option<EdgeSet> {
        let n = mesh.positions.len();
        let triangles = mesh.indices.len() / 3;
        let max_edges = max_edges.max(1);
        // A closed mesh has about 1.5 unique edges per triangle, a sparse sample 3: thin the triangles first so
        // the list being built never outgrows the budget by much.
        let tri_stride =
            if triangles.saturating_mul(3) / 2 > max_edges { (triangles * 3).div_ceil(max_edges) } else { 1 };
        let raw = crate::anim::edges::unique_edges_with_triangles(&mesh.indices, n, tri_stride);
        let mut sampled = tri_stride > 1;
        let mut raw = raw;
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
            hinge: Vec::with_capacity(raw.len()),
            alone: Vec::new(),
            skinned: Vec::new(),
        };
        let mut compact = vec![u32::MAX; n];
        for (a, b, t) in raw {
            let (Some(pa), Some(pb)) = (mesh.positions.get(a as usize), mesh.positions.get(b as usize)) else {
                continue;
            };
            let len_sq = (*pa - *pb).length_squared();
            // Zero-length edges have no stretch to measure (degenerate triangles are reported elsewhere).
            if !(len_sq > 0.0 && len_sq.is_finite()) {
                continue;
            }
            let mut slot = |v: u32| -> u32 {
                let c = &mut compact[v as usize];
                if *c == u32::MAX {
                    *c = set.vertex.len() as u32;
                    set.vertex.push(v);
                    set.bind.push(mesh.positions.get(v as usize).copied().unwrap_or(Vec3::ZERO).into());
                    set.joints.push(mesh.joints.get(v as usize).copied().unwrap_or([0; 4]));
                    set.weights.push(mesh.weights.get(v as usize).copied().unwrap_or([1.0, 0.0, 0.0, 0.0]));
                }
                *c
            };
            let edge = [slot(a), slot(b)];
            set.edges.push(edge);
            set.triangle.push(t);
            set.inv_bind_len_sq.push(1.0 / len_sq);
            set.bind_len.push(len_sq.sqrt());
        }
        (set.hinge, set.alone) = set.hinges(joints);
        set.skinned = vec![Vec3A::ZERO; set.vertex.len()];
        (!set.edges.is_empty()).then_some(set)
    }

    /// Which edges have an end bound to another bone than all of that end's neighbours, which are bound to one
    /// bone: a vertex bound alone to another bone than the skin around it (a vertex on the wrong bone) does not
    /// bend with a joint, it pulls a spike out of the surface, however near a joint the two bones' path runs.
    /// With `joints` (the pose on screen is to be measured), also the hinge length of every edge
    /// (`Joints::hinge`; the bind length for those edges); without, no hinge lengths (clips are measured
    /// against their held pose, and the hinges of a large mesh cost a hash lookup per bone pair per edge).
    fn hinges(&self, joints: Option<&mut Joints>) -> (Vec<f32>, Vec<bool>) {
        let n = self.vertex.len();
        let dominant: Vec<u16> = (0..n).map(|c| self.dominant(c)).collect();
        // Per vertex: neighbours bound to its bone, neighbours in all, and the one other bone all the rest are
        // bound to (`MIXED` when they are bound to several: a vertex where three parts meet, not an island).
        const MIXED: u32 = u32::MAX;
        const NONE: u32 = u32::MAX - 1;
        let (mut same, mut total, mut other) = (vec![0u32; n], vec![0u32; n], vec![NONE; n]);
        for [a, b] in &self.edges {
            let (a, b) = (*a as usize, *b as usize);
            total[a] += 1;
            total[b] += 1;
            if dominant[a] == dominant[b] {
                same[a] += 1;
                same[b] += 1;
            } else {
                for (v, neighbour) in [(a, dominant[b]), (b, dominant[a])] {
                    other[v] = match other[v] {
                        NONE => u32::from(neighbour),
                        o if o == u32::from(neighbour) => o,
                        _ => MIXED,
                    };
                }
            }
        }
        // Three neighbours at least, all on one other bone: an island of one vertex in another bone's skin. (A
        // lone edge of a sampled mesh says nothing about its surroundings.)
        let alone = |c: usize| same[c] == 0 && total[c] >= 3 && other[c] != MIXED;
        let flags: Vec<bool> = self.edges.iter().map(|[a, b]| alone(*a as usize) || alone(*b as usize)).collect();
        let Some(joints) = joints else { return (Vec::new(), flags) };
        let hinge = self
            .edges
            .iter()
            .zip(&self.bind_len)
            .zip(&flags)
            .map(
                |(([a, b], len), alone)| {
                    if *alone { *len } else { self.blended_hinge(joints, *a as usize, *b as usize, *len) }
                },
            )
            .collect();
        (hinge, flags)
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

    /// What edge `e` is measured against: its bind length when an end is bound alone to its bone; else, with a
    /// palette of the same pose with every joint held together (`held`), the longer of its bind length and its
    /// length in that pose — what the bones' turning alone makes of it — or without one, its hinge length.
    fn allowance(&self, e: usize, held: Option<&[Mat4]>) -> f32 {
        let bind = self.bind_len.get(e).copied().unwrap_or(0.0);
        if self.alone.get(e).copied().unwrap_or(false) {
            return bind;
        }
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

    /// The tear score of edge `e` in the last skinned pose (`tear::TearMeasure::score`), `held` as in
    /// [`EdgeSet::allowance`].
    fn score(&self, e: usize, measure: &TearMeasure, held: Option<&[Mat4]>) -> f32 {
        let (Some([a, b]), Some(bind)) = (self.edges.get(e), self.bind_len.get(e)) else { return 0.0 };
        let (Some(pa), Some(pb)) = (self.skinned.get(*a as usize), self.skinned.get(*b as usize)) else { return 0.0 };
        measure.score((*pa - *pb).length(), *bind, self.allowance(e, held), self.ratio_sq(e))
    }

    /// The worst edge of the last skinned pose: `(score, ratio², edge)` of the highest-scoring edge, or when
    /// none scores, of the most stretched one. The hot loop: the square root and the score only for edges
    /// stretched past the threshold.
    fn worst_edge(&self, measure: &TearMeasure, held: Option<&[Mat4]>) -> (f32, f32, usize) {
        let skinned = &self.skinned;
        let mut most = (-1.0f32, 0usize);
        let mut scored = (0.0f32, 0.0f32, 0usize);
        let mut broken = false;
        for (e, ([a, b], inv)) in self.edges.iter().zip(&self.inv_bind_len_sq).enumerate() {
            let (Some(pa), Some(pb)) = (skinned.get(*a as usize), skinned.get(*b as usize)) else { continue };
            let length_sq = (*pa - *pb).length_squared();
            let r = length_sq * inv;
            if r > most.0 {
                most = (r, e);
            }
            broken |= r.is_nan();
            if r >= measure.min_ratio_sq() {
                let Some(bind) = self.bind_len.get(e) else { continue };
                let score = measure.score(length_sq.sqrt(), *bind, self.allowance(e, held), r);
                if score > scored.0 {
                    scored = (score, r, e);
                }
            }
        }
        if broken && let Some(e) = (0..self.edges.len()).find(|&e| self.ratio_sq(e) == f32::INFINITY) {
            return (f32::INFINITY, f32::INFINITY, e);
        }
        if scored.0 > 0.0 { scored } else { (0.0, most.0, most.1) }
    }

    /// Bind length, skinned length and allowance (`held` as in [`EdgeSet::allowance`]) of edge `e` in the last
    /// skinned pose.
    fn lengths(&self, e: usize, held: Option<&[Mat4]>) -> (f32, f32, f32) {
        let [a, b] = self.edges.get(e).copied().unwrap_or([0, 0]);
        let now = match (self.skinned.get(a as usize), self.skinned.get(b as usize)) {
            (Some(pa), Some(pb)) => (*pa - *pb).length(),
            _ => 0.0,
        };
        (self.bind_len.get(e).copied().unwrap_or(0.0), now, self.allowance(e, held))
    }

    /// Mesh vertex indices of edge `e`.
    fn mesh_edge(&self, e: usize) -> [u32; 2] {
        let [a, b] = self.edges.get(e).copied().unwrap_or([0, 0]);
        let v = |c: u32| self.vertex.get(c as usize).copied().unwrap_or(0);
        [v(a), v(b)]
    }

    fn triangle_of(&self, e: usize) -> usize {
        self.triangle.get(e).copied().unwrap_or(0) as usize
    }

    /// The bones that carry the two ends of edge `e` (each vertex's largest weight): the bones whose motion
    /// stretches it.
    fn edge_bones(&self, e: usize) -> [u16; 2] {
        let [a, b] = self.edges.get(e).copied().unwrap_or([0, 0]);
        [self.dominant(a as usize), self.dominant(b as usize)]
    }
}

/// "bone 'X'" or "bones 'X' and 'Y'": what moves the ends of a stretched edge, for messages.
fn bones_label(asset: &Asset, bones: [u16; 2]) -> String {
    let name = |b: u16| asset.skeleton.names.get(usize::from(b)).map_or_else(|| format!("{b}"), |n| format!("'{n}'"));
    if bones[0] == bones[1] {
        format!("bone {}", name(bones[0]))
    } else {
        format!("bones {} and {}", name(bones[0]), name(bones[1]))
    }
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
}

pub(super) fn check_stretch(asset: &Asset, opts: &DiagnoseOptions, out: &mut Collector) {
    let skeleton = &asset.skeleton;
    let clips = opts.clip_stretch && !asset.clips.is_empty() && skeleton.validate().is_ok() && !skeleton.is_empty();
    if !clips && opts.current_palette.is_none() {
        return;
    }
    // Meshes whose indices or joints are out of range are reported by the structure check and skipped here.
    let mut joints = opts.current_palette.as_ref().map(|_| Joints::new(skeleton));
    let mut sets: Vec<EdgeSet> = asset
        .meshes
        .iter()
        .enumerate()
        .filter(|(_, m)| m.validate(skeleton.len()).is_ok())
        .filter_map(|(i, m)| EdgeSet::new(i, m, opts.max_edges, joints.as_mut()))
        .collect();
    if sets.is_empty() {
        return;
    }
    let measure = TearMeasure::new(asset, opts);
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
        };
        let mut results: Vec<Finding> = Vec::new();
        for (c, clip) in asset.clips.iter().enumerate() {
            if let Some(finding) = clip_stretch(asset, opts, &measure, c, clip, &mut sets, &mut scratch) {
                results.push(finding);
            }
        }
        // Worst clips first (by severity, then stretch), so a cap on findings keeps the ones that matter.
        results.sort_by(|a, b| {
            a.severity
                .cmp(&b.severity)
                .then(b.value.unwrap_or(f32::INFINITY).total_cmp(&a.value.unwrap_or(f32::INFINITY)))
        });
        for finding in results {
            out.push(finding);
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

/// Every edge above the stretch threshold in the pose on screen, worst first.
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
        let ratio = ratio_sq.sqrt();
        let [a, b] = set.mesh_edge(e);
        let triangle = set.triangle_of(e);
        let mut finding = Finding::new(
            measure.severity(set.score(e, measure, None)),
            FindingKind::PoseStretch,
            Subject::Triangle { mesh: set.mesh, index: triangle },
            format!(
                "edge {a}–{b} of triangle {triangle} in {} is stretched {}× in the current pose, {}",
                mesh_label(asset, set.mesh),
                fmt_num(ratio),
                opening(measure, set.lengths(e, None))
            ),
        )
        .with_value(ratio);
        finding.edge = Some([a, b]);
        out.push(finding);
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

/// Poses the skeleton at `time` and skins every edge set; returns the worst edge over all sets.
fn evaluate(
    asset: &Asset,
    measure: &TearMeasure,
    binding: &ClipBinding,
    clip: &Clip,
    time: f32,
    sets: &mut [EdgeSet],
    scratch: &mut PoseScratch,
) -> Worst {
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
        return Worst::NONE;
    }
    let mut worst = Worst::NONE;
    for (s, set) in sets.iter_mut().enumerate() {
        set.skin(&scratch.palette);
        let (score, ratio_sq, edge) = set.worst_edge(measure, Some(&scratch.held_palette));
        let candidate = Worst { score, ratio_sq, set: s, edge, time };
        if candidate.worse_than(&worst) {
            worst = candidate;
        }
    }
    worst
}

/// The largest edge stretch over a clip: which edge, when.
fn clip_stretch(
    asset: &Asset,
    opts: &DiagnoseOptions,
    measure: &TearMeasure,
    c: usize,
    clip: &Clip,
    sets: &mut [EdgeSet],
    scratch: &mut PoseScratch,
) -> Option<Finding> {
    let binding = ClipBinding::new(&asset.skeleton, clip);
    if binding.animated_bones() == 0 {
        // Nothing moves (the track checks say why).
        return None;
    }
    let (times, frame_step) = sample_times(clip, opts.samples_per_clip);
    let mut worst = Worst::NONE;
    let mut worst_sample = 0;
    for (k, &t) in times.iter().enumerate() {
        let w = evaluate(asset, measure, &binding, clip, t, sets, scratch);
        if w.worse_than(&worst) {
            worst = w;
            worst_sample = k;
        }
    }
    // The samples skip source frames: look at every frame between the worst sample's neighbours.
    if let Some(step) = frame_step {
        let before = times.get(worst_sample.wrapping_sub(1)).copied().unwrap_or(worst.time);
        let after = times.get(worst_sample + 1).copied().unwrap_or(worst.time);
        let (first, last) = ((before / step).round() as i64 + 1, (after / step).round() as i64 - 1);
        let sampled = (worst.time / step).round() as i64;
        for f in (first..=last).filter(|&f| f != sampled && f >= 0) {
            let w = evaluate(asset, measure, &binding, clip, f as f32 * step, sets, scratch);
            if w.worse_than(&worst) {
                worst = w;
            }
        }
    }
    if worst.ratio_sq < 0.0 {
        return None;
    }
    // The worst frame's skinned positions, for the lengths in the message (the scratch holds the last frame).
    let _ = evaluate(asset, measure, &binding, clip, worst.time, sets, scratch);
    let set = sets.get(worst.set)?;
    let ratio = worst.ratio_sq.sqrt();
    let [a, b] = set.mesh_edge(worst.edge);
    let triangle = set.triangle_of(worst.edge);
    let severity = measure.severity(worst.score);
    let frame = if clip.frame_rate > 0.0 && clip.frame_rate.is_finite() {
        format!(" (frame {})", (worst.time * clip.frame_rate).round())
    } else {
        String::new()
    };
    let lengths = set.lengths(worst.edge, Some(&scratch.held_palette));
    // Where the gap decides, say what makes one: the cure is in the keys or the binding, not the weights.
    let (bind, now, allowed) = lengths;
    let gapped = now - allowed.max(bind) >= opts.warn_fraction * opts.tear_gap * measure.size;
    let alone = set.alone.get(worst.edge).copied().unwrap_or(false);
    let verdict = match severity {
        Severity::Info => "",
        _ if gapped && alone => {
            ": a vertex bound to another bone than the skin around it pulls a spike out of the surface there"
        }
        _ if gapped => {
            ": a bone moves off its joint there (translation keys away from the bind pose, as in animations made \
             for other proportions)"
        }
        Severity::Error => ": the mesh tears there",
        Severity::Warning => ": check the skinning there",
    };
    let sampled = if set.sampled { " (edges sampled: large mesh)" } else { "" };
    // Above the tear threshold the message also names the bones that pull the edge apart.
    let bones = if severity == Severity::Error {
        format!(", moved by {}", bones_label(asset, set.edge_bones(worst.edge)))
    } else {
        String::new()
    };
    let mut finding = Finding::new(
        severity,
        FindingKind::ClipStretch,
        Subject::Triangle { mesh: set.mesh, index: triangle },
        format!(
            "{}: largest edge stretch {}× at {} s{frame}, edge {a}–{b} of triangle {triangle} in {}, {}{bones}{sampled}{verdict}",
            clip_label(asset, c),
            fmt_num(ratio),
            fmt_num(worst.time),
            mesh_label(asset, set.mesh),
            opening(measure, lengths)
        ),
    )
    .with_value(ratio);
    finding.at = Some(ClipTime { clip: c, time: worst.time });
    finding.edge = Some([a, b]);
    Some(finding)
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
        let set = EdgeSet::new(0, &mesh, 100, Some(&mut Joints::new(&skeleton))).unwrap();
        assert_eq!(set.edges.len(), 5);
        assert!(!set.sampled);
        let small = EdgeSet::new(0, &mesh, 2, None).unwrap();
        assert!(small.edges.len() <= 2 && small.sampled);
    }
}
