//! Raw ASE records → the neutral scene: hierarchy (parents first), bind pose from the world `*NODE_TM`s,
//! flattened materials, render meshes bound to bones, and one clip for the scene's animation.

use std::collections::HashMap;

use glam::{Mat4, Vec3};
use rayon::prelude::*;

use super::mesh::{BuiltMesh, build_mesh};
use super::records::{NodeKind, RawFile, RawMaterial, RawMesh, RawNode, RawSkin};
use super::tracks::{Timing, build_track, sample_step};
use crate::anim::curve::{sample_quat, sample_vec3};
use crate::io::{LoadError, LoadOptions, resolve_texture};
use crate::scene::{
    Asset, AxisConversion, Clip, Format, InfluenceReport, Influences, Material, Skeleton, TextureRef, Transform,
    VertexFrame, Warning, normalize_bone_name, reduce_influences,
};

fn warn(warnings: &mut Vec<Warning>, line: usize, message: impl Into<String>) {
    warnings.push(Warning::new(if line == 0 { String::new() } else { format!("line {line}") }, message));
}

/// How a `*MATERIAL_REF` resolves: one material, or sub-materials picked by `*MESH_MTLID`.
#[derive(Clone, Debug)]
enum MaterialEntry {
    Single(usize),
    Multi(Vec<usize>),
}

fn make_material(raw: &RawMaterial, name: String, opts: &LoadOptions, warnings: &mut Vec<Warning>) -> Material {
    let mut m = Material::named(name);
    if let Some([r, g, b]) = raw.diffuse {
        m.diffuse = [r, g, b, (1.0 - raw.transparency).clamp(0.0, 1.0)];
    }
    if let Some(a) = raw.ambient {
        m.ambient = a;
    }
    if let Some(s) = raw.specular {
        m.specular = s;
    }
    m.two_sided = raw.two_sided;
    if let Some(map) = &raw.diffuse_map {
        let is_bitmap = map.class.is_empty() || map.class.eq_ignore_ascii_case("Bitmap");
        let bitmap = map.bitmap.trim();
        if is_bitmap && !bitmap.is_empty() && !bitmap.eq_ignore_ascii_case("None") {
            let path = resolve_texture(opts.base_dir.as_deref(), bitmap);
            if path.is_none() && opts.base_dir.is_some() {
                warn(
                    warnings,
                    raw.line,
                    format!("material '{}': texture '{bitmap}' not found next to the file", m.name),
                );
            }
            m.texture = Some(TextureRef { name: bitmap.to_owned(), path });
        }
        // The file's transform is uv·tiling + offset in 3ds Max's (v up) texture space; our v is flipped
        // (v' = 1 − v), so the same mapping in flipped space has offset 1 − tiling_v − offset_v on v.
        m.uv_tiling = [map.u_tiling, map.v_tiling];
        m.uv_offset = [map.u_offset, 1.0 - map.v_tiling - map.v_offset];
        if map.angle.abs() > 1e-6 {
            warn(
                warnings,
                raw.line,
                format!("material '{}': the texture's UVW angle ({:.3} rad) is not applied", m.name, map.angle),
            );
        }
    }
    m
}

/// Flattens the material list (sub-materials become their own entries).
fn flatten_materials(
    raw: &mut [(u32, RawMaterial)],
    opts: &LoadOptions,
    materials: &mut Vec<Material>,
    warnings: &mut Vec<Warning>,
) -> HashMap<u32, MaterialEntry> {
    // Sorted by index; of duplicate indices the later definition wins (stable sort keeps file order).
    raw.sort_by_key(|(i, _)| *i);
    let duplicates = raw.windows(2).filter(|w| w[0].0 == w[1].0).count();
    if duplicates > 0 {
        warn(
            warnings,
            0,
            format!("{duplicates} *MATERIAL index(es) are defined twice; the later definitions are used"),
        );
    }
    let mut map = HashMap::new();
    let later: Vec<bool> = (0..raw.len()).map(|k| raw.get(k + 1).is_some_and(|next| next.0 == raw[k].0)).collect();
    for ((index, mat), superseded) in raw.iter_mut().zip(later) {
        if superseded {
            continue;
        }
        let entry = if mat.subs.is_empty() {
            let name = if mat.name.is_empty() { format!("material {index}") } else { mat.name.clone() };
            materials.push(make_material(mat, name, opts, warnings));
            MaterialEntry::Single(materials.len() - 1)
        } else {
            mat.subs.sort_by_key(|(i, _)| *i);
            let mut list = Vec::new();
            let subs = &mat.subs;
            // Of duplicate sub-material indices the later one wins.
            let unique = subs.iter().enumerate().filter(|(k, (i, _))| subs.get(k + 1).is_none_or(|(j, _)| j != i));
            for (_, (sub_index, sub)) in unique {
                let sub_name = if sub.name.is_empty() { format!("sub {sub_index}") } else { sub.name.clone() };
                let name = format!("{} / {sub_name}", if mat.name.is_empty() { "material" } else { &mat.name });
                materials.push(make_material(sub, name, opts, warnings));
                list.push(materials.len() - 1);
            }
            MaterialEntry::Multi(list)
        };
        map.insert(*index, entry);
    }
    map
}

/// Parents-first order of the nodes (file order otherwise). Cycles are broken (the node closing one becomes a
/// root) and reported.
fn parents_first(parents: &mut [Option<usize>], names: &[String], warnings: &mut Vec<Warning>) -> Vec<usize> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        Visiting,
        Done,
    }
    let n = parents.len();
    let mut state = vec![State::New; n];
    let mut order = Vec::with_capacity(n);
    let mut chain = Vec::new();
    for start in 0..n {
        let mut cur = start;
        chain.clear();
        // Walk up to the first node already placed (or a root), then place the chain top-down.
        loop {
            if state[cur] == State::Done {
                break;
            }
            if state[cur] == State::Visiting {
                let child = chain.last().copied().unwrap_or(cur);
                warnings.push(Warning::new(
                    "",
                    format!("'{}' is its own ancestor (*NODE_PARENT cycle); it is made a root", names[child]),
                ));
                parents[child] = None;
                break;
            }
            state[cur] = State::Visiting;
            chain.push(cur);
            match parents[cur] {
                Some(p) => cur = p,
                None => break,
            }
        }
        for &node in chain.iter().rev() {
            if state[node] == State::Visiting {
                state[node] = State::Done;
                order.push(node);
            }
        }
    }
    order
}

fn is_usable(m: &Mat4) -> bool {
    m.is_finite() && m.determinant().abs() > 1e-12
}

/// The per-vertex influences of a skinned mesh (one per ASE vertex), bones resolved by name.
fn skin_influences(
    skin: &RawSkin,
    vertex_count: usize,
    bone_by_name: &HashMap<String, usize>,
    own_bone: u16,
    mesh_name: &str,
    report: &mut InfluenceReport,
    warnings: &mut Vec<Warning>,
) -> Vec<Influences> {
    let mut missing = Vec::new();
    let mut reported = std::collections::HashSet::new();
    let bones: Vec<Option<u16>> = skin
        .bones
        .iter()
        .map(|name| {
            let found = bone_by_name.get(&normalize_bone_name(name)).and_then(|&b| u16::try_from(b).ok());
            if found.is_none() && !name.is_empty() && reported.insert(name.as_str()) {
                missing.push(name.clone());
            }
            found
        })
        .collect();
    if !missing.is_empty() {
        warn(
            warnings,
            skin.line,
            format!(
                "mesh '{mesh_name}': {} weighted bone(s) are not nodes of the scene, their weights are dropped: {}",
                missing.len(),
                shorten(&missing)
            ),
        );
    }
    let mut per_vertex: Vec<Vec<(u16, f32)>> = vec![Vec::new(); vertex_count];
    let mut outside = 0usize;
    for &(vertex, first, count) in &skin.vertices {
        let Some(slot) = per_vertex.get_mut(vertex as usize) else {
            outside += 1;
            continue;
        };
        let pairs = skin.pairs.get(first as usize..(first + count) as usize).unwrap_or_default();
        for &(b, w) in pairs {
            if let Some(Some(bone)) = bones.get(b as usize) {
                slot.push((*bone, w));
            }
        }
    }
    if outside > 0 {
        warn(
            warnings,
            skin.line,
            format!("mesh '{mesh_name}': weights for {outside} vertex index(es) beyond the mesh were ignored"),
        );
    }
    per_vertex.iter_mut().map(|pairs| reduce_influences(pairs, own_bone, report)).collect()
}

/// Scene time base from `*SCENE` (with sane fallbacks).
fn timing(raw: &RawFile, warnings: &mut Vec<Warning>) -> (Timing, f32) {
    let scene = &raw.scene;
    let mut fps = scene.frame_speed;
    if !(fps.is_finite() && fps > 0.0) {
        warn(warnings, 0, format!("*SCENE_FRAMESPEED {fps} is not usable; 30 is used"));
        fps = 30.0;
    }
    let mut tpf = scene.ticks_per_frame;
    if !(tpf.is_finite() && tpf >= 1.0) {
        warn(warnings, 0, format!("*SCENE_TICKSPERFRAME {tpf} is not usable; 160 is used"));
        tpf = 160.0;
    }
    let ticks_per_frame = tpf.round() as i64;
    let start_tick = scene.first_frame.saturating_mul(ticks_per_frame);
    let mut end_tick = scene.last_frame.saturating_mul(ticks_per_frame).max(start_tick);
    if !scene.present {
        // No *SCENE: the animation's own extent decides.
        let last_key = raw
            .nodes
            .iter()
            .filter_map(|n| n.anim.as_ref())
            .flat_map(|a| [&a.pos, &a.rot, &a.scale])
            .flatten()
            .flat_map(|t| t.keys.last())
            .map(|k| k.tick)
            .max()
            .unwrap_or(0);
        end_tick = end_tick.max(last_key);
    }
    let step = sample_step(
        raw.nodes.iter().filter_map(|n| n.anim.as_ref()).flat_map(|a| [&a.pos, &a.rot, &a.scale]).flatten(),
    )
    .unwrap_or(ticks_per_frame);
    (Timing { start_tick, end_tick, ticks_per_second: f64::from(fps) * ticks_per_frame as f64, step }, fps)
}

pub(super) fn build(mut raw: RawFile, opts: &LoadOptions) -> Result<Asset, LoadError> {
    let mut warnings = std::mem::take(&mut raw.warnings);
    let mut asset = Asset::new(Format::Ase);
    asset.axes = AxisConversion::z_up_right_handed();

    // Unique names (bones are matched by name, case-insensitively).
    let mut seen: HashMap<String, usize> = HashMap::new();
    for node in raw.nodes.iter_mut() {
        let key = normalize_bone_name(&node.name);
        let count = seen.entry(key).or_insert(0);
        *count += 1;
        if *count > 1 {
            let renamed = format!("{} ({})", node.name, *count);
            warn(&mut warnings, node.line, format!("a second node named '{}' is renamed '{renamed}'", node.name));
            node.name = renamed;
        }
    }
    let by_name: HashMap<String, usize> =
        raw.nodes.iter().enumerate().map(|(i, n)| (normalize_bone_name(&n.name), i)).collect();
    let names: Vec<String> = raw.nodes.iter().map(|n| n.name.clone()).collect();
    let mut parents: Vec<Option<usize>> = raw
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let name = node.parent.as_deref()?;
            match by_name.get(&normalize_bone_name(name)) {
                Some(&p) if p != i => Some(p),
                Some(_) => {
                    warn(&mut warnings, node.line, format!("'{}' names itself as its parent; made a root", node.name));
                    None
                }
                None => {
                    warn(
                        &mut warnings,
                        node.line,
                        format!("'{}': parent '{name}' is not in the file; the node is made a root", node.name),
                    );
                    None
                }
            }
        })
        .collect();
    let order = parents_first(&mut parents, &names, &mut warnings);

    // World matrices at the bind (static) frame.
    let mut world: Vec<Mat4> = Vec::with_capacity(raw.nodes.len());
    for node in &raw.nodes {
        let m = match node.tm {
            Some(m) if is_usable(&m) => m,
            Some(m) => {
                warn(
                    &mut warnings,
                    node.line,
                    format!("'{}': *NODE_TM is degenerate (no inverse); only its position is kept", node.name),
                );
                let t = m.w_axis.truncate();
                Mat4::from_translation(if t.is_finite() { t } else { Vec3::ZERO })
            }
            None => {
                if matches!(node.kind, NodeKind::Geometry | NodeKind::Helper) {
                    warn(&mut warnings, node.line, format!("'{}' has no *NODE_TM; the identity is used", node.name));
                }
                Mat4::IDENTITY
            }
        };
        world.push(m);
    }

    // Skeleton: one bone per node, parents first; local = parent_world⁻¹ · world.
    let mut bone_of = vec![0usize; raw.nodes.len()];
    let mut skeleton = Skeleton::default();
    let mut sheared = Vec::new();
    for &i in &order {
        let local = match parents[i] {
            Some(p) => world[p].inverse() * world[i],
            None => world[i],
        };
        let t = Transform::from_matrix(&local);
        let err = (t.to_matrix() - local).to_cols_array().iter().fold(0.0f32, |m, x| m.max(x.abs()));
        let size = local.to_cols_array().iter().fold(1.0f32, |m, x| m.max(x.abs()));
        let exact = err <= 1e-3 * size;
        if !exact {
            sheared.push(raw.nodes[i].name.clone());
        }
        let parent = parents[i].map(|p| bone_of[p]);
        bone_of[i] = skeleton.push(raw.nodes[i].name.clone(), parent, t);
    }
    if !sheared.is_empty() {
        warn(
            &mut warnings,
            0,
            format!(
                "{} node(s) have a sheared local transform (non-uniform scale under rotation), which a bone cannot hold exactly: {}",
                sheared.len(),
                shorten(&sheared)
            ),
        );
    }
    skeleton.recompute_inverse_bind();
    let bone_by_name: HashMap<String, usize> =
        skeleton.names.iter().enumerate().map(|(b, n)| (normalize_bone_name(n), b)).collect();
    if skeleton.len() > usize::from(u16::MAX) {
        return Err(LoadError::whole_file(format!(
            "{} nodes: more than 65535 bones are not supported",
            skeleton.len()
        )));
    }

    // Materials.
    let material_map = flatten_materials(&mut raw.materials, opts, &mut asset.materials, &mut warnings);
    let mut wire_materials: HashMap<[u32; 3], usize> = HashMap::new();

    // Clip.
    let (timing, fps) = timing(&raw, &mut warnings);
    let animated = raw.nodes.iter().any(|n| n.anim.is_some() || !n.frames.is_empty());
    let mut track_of_bone: Vec<Option<usize>> = vec![None; skeleton.len()];
    let clip = animated.then(|| {
        let frames = raw.scene.last_frame.saturating_sub(raw.scene.first_frame).max(0);
        let mut clip = Clip {
            name: clip_name(&raw.scene.file_name),
            duration: timing.seconds(timing.end_tick).max(0.0),
            frame_rate: fps,
            frame_count: u32::try_from(frames + 1).unwrap_or(u32::MAX),
            ..Clip::default()
        };
        for &i in &order {
            if let Some(anim) = &raw.nodes[i].anim {
                track_of_bone[bone_of[i]] = Some(clip.tracks.len());
                clip.tracks.push(build_track(&raw.nodes[i].name, anim, &timing, &mut warnings));
            }
        }
        clip
    });

    // Soft-skin weights written at the top level, by mesh name.
    let mut soft_skins: HashMap<String, RawSkin> = HashMap::new();
    for (mesh_name, skin) in std::mem::take(&mut raw.soft_skins) {
        match by_name.get(&normalize_bone_name(&mesh_name)) {
            Some(&i) if raw.nodes[i].skin.is_none() => {
                soft_skins.insert(raw.nodes[i].name.clone(), skin);
            }
            Some(_) => {}
            None => {
                warn(&mut warnings, skin.line, format!("*MESH_SOFTSKINVERTS for unknown mesh '{mesh_name}' ignored"))
            }
        }
    }

    // Meshes, in file order. Materials and skin weights are resolved in order (they share tables), then the
    // meshes are built on all cores (the bulk of the work on large files), then everything is put back in order,
    // warnings included, so the result is what a sequential build gives.
    let mut report = InfluenceReport::default();
    let bind_to_root = skeleton.bind_to_root();
    let mut prepared = Vec::new();
    for (i, node) in raw.nodes.iter().enumerate() {
        let Some(mesh) = &node.mesh else { continue };
        if mesh.faces.is_empty() {
            continue;
        }
        let mut node_warnings = Vec::new();
        let bone = bone_of[i];
        let entry = material_for(node, &material_map, &mut asset.materials, &mut wire_materials, &mut node_warnings);
        let skin = node.skin.as_ref().or_else(|| soft_skins.get(&node.name));
        let mut mesh_report = InfluenceReport::default();
        let influences = skin.map(|s| {
            skin_influences(
                s,
                mesh.positions.len(),
                &bone_by_name,
                bone as u16,
                &node.name,
                &mut mesh_report,
                &mut node_warnings,
            )
        });
        report.merge(&mesh_report);
        prepared.push(MeshJob { node, mesh, bone, entry, influences, report: mesh_report, warnings: node_warnings });
    }
    let animation = clip.as_ref().map(|c| (c, track_of_bone.as_slice()));
    let build_one = |job: MeshJob| -> Result<(crate::scene::Mesh, Vec<Warning>), LoadError> {
        let MeshJob { node, mesh, bone, entry, influences, report, mut warnings } = job;
        let material_of = |mtl: u32| match &entry {
            MaterialEntry::Single(m) => *m,
            MaterialEntry::Multi(list) => list.get(mtl as usize % list.len().max(1)).copied().unwrap_or(0),
        };
        let built = build_mesh(mesh, &node.name, &material_of, influences.as_deref(), bone as u16, &mut warnings)?;
        let frames =
            vertex_frames(node, &built, &skeleton, animation, &timing, bind_to_root[bone], bone, &mut warnings);
        let mut out = built.mesh;
        out.vertex_frames = frames;
        out.influence_report = report;
        Ok((out, warnings))
    };
    for result in in_parallel(prepared, build_one) {
        let (mesh, mesh_warnings) = result?;
        warnings.extend(mesh_warnings);
        asset.meshes.push(mesh);
    }
    if report.trimmed > 0 || report.unweighted > 0 {
        warn(
            &mut warnings,
            0,
            format!(
                "skin weights: {} vertex(es) had more than 4 influences (the smallest were dropped), {} had none (bound to their mesh's node)",
                report.trimmed, report.unweighted
            ),
        );
    }
    if !raw.skipped.is_empty() {
        let list: Vec<String> =
            raw.skipped.iter().map(|(n, c)| if *c > 1 { format!("*{n} ×{c}") } else { format!("*{n}") }).collect();
        warn(&mut warnings, 0, format!("blocks this loader does not read were skipped: {}", list.join(", ")));
    }
    if let Some(clip) = clip {
        asset.clips.push(clip);
    }
    asset.skeleton = skeleton;
    asset.warnings = warnings;
    Ok(asset)
}

/// One mesh to build, with what was resolved for it in file order.
struct MeshJob<'a> {
    node: &'a RawNode,
    mesh: &'a RawMesh,
    bone: usize,
    entry: MaterialEntry,
    influences: Option<Vec<Influences>>,
    report: InfluenceReport,
    warnings: Vec<Warning>,
}

/// Below this many faces in all, building on one thread is quicker than handing the meshes to the pool.
const PARALLEL_FACES: usize = 20_000;

/// `f` applied to every job, on all cores (an ordered rayon `par_iter`) when the work is worth it; results in the
/// jobs' order.
fn in_parallel<'a, R: Send>(jobs: Vec<MeshJob<'a>>, f: impl Fn(MeshJob<'a>) -> R + Sync + Send) -> Vec<R> {
    let faces: usize = jobs.iter().map(|j| j.mesh.faces.len()).sum();
    if jobs.len() < 2 || faces < PARALLEL_FACES || rayon::current_num_threads() < 2 {
        return jobs.into_iter().map(f).collect();
    }
    jobs.into_par_iter().map(f).collect()
}

/// A name list for a message: the first 20, then how many more.
fn shorten(names: &[String]) -> String {
    let mut out = names.iter().take(20).cloned().collect::<Vec<_>>().join(", ");
    if names.len() > 20 {
        out += &format!(" and {} more", names.len() - 20);
    }
    out
}

fn clip_name(scene_file: &str) -> String {
    let stem = scene_file.rsplit(['/', '\\']).next().unwrap_or("").trim();
    let stem = stem.rsplit_once('.').map_or(stem, |(s, _)| s);
    if stem.is_empty() { "Scene".to_owned() } else { stem.to_owned() }
}

fn material_for(
    node: &RawNode,
    map: &HashMap<u32, MaterialEntry>,
    materials: &mut Vec<Material>,
    wire: &mut HashMap<[u32; 3], usize>,
    warnings: &mut Vec<Warning>,
) -> MaterialEntry {
    if let Some((line, r)) = node.material_ref {
        match u32::try_from(r).ok().and_then(|r| map.get(&r)) {
            Some(entry) => return entry.clone(),
            None => warn(warnings, line, format!("'{}': *MATERIAL_REF {r} is not in *MATERIAL_LIST", node.name)),
        }
    }
    // No material: 3ds Max shows the object in its wireframe colour.
    let c = node.wire_color.unwrap_or([0.8, 0.8, 0.8]);
    let key = c.map(f32::to_bits);
    let index = *wire.entry(key).or_insert_with(|| {
        let mut m = Material::named(format!("wire {:.3} {:.3} {:.3}", c[0], c[1], c[2]));
        m.diffuse = [c[0], c[1], c[2], 1.0];
        materials.push(m);
        materials.len() - 1
    });
    MaterialEntry::Single(index)
}

/// `*MESH_ANIMATION` frames → vertex frames in the mesh's bind space. The frames hold world-space vertices at
/// their time; the node's own animation is taken out (`bind_to_root · to_root(t)⁻¹`) so that skinning the
/// frame reproduces them.
/// A bone's to-root matrix at `time`: only its chain of ancestors is sampled.
fn to_root_at(skeleton: &Skeleton, clip: &Clip, track_of_bone: &[Option<usize>], bone: usize, time: f32) -> Mat4 {
    let mut m = Mat4::IDENTITY;
    let mut cur = Some(bone);
    let mut steps = 0;
    while let Some(b) = cur
        && steps <= skeleton.len()
    {
        let bind = skeleton.bind_local.get(b).copied().unwrap_or_default();
        let local = match track_of_bone.get(b).copied().flatten().and_then(|t| clip.tracks.get(t)) {
            Some(track) => Transform {
                translation: sample_vec3(&track.translation, time).unwrap_or(bind.translation),
                rotation: sample_quat(&track.rotation, time).unwrap_or(bind.rotation),
                scale: sample_vec3(&track.scale, time).unwrap_or(bind.scale),
            },
            None => bind,
        };
        m = local.to_matrix() * m;
        cur = skeleton.parents.get(b).copied().flatten();
        steps += 1;
    }
    m
}

/// `*MESH_ANIMATION` frames → vertex frames in the mesh's bind space. The frames hold world-space vertices at
/// their time; the node's own animation is taken out (`bind_to_root · to_root(t)⁻¹`) so that skinning the
/// frame reproduces them.
#[allow(clippy::too_many_arguments)]
fn vertex_frames(
    node: &RawNode,
    built: &BuiltMesh,
    skeleton: &Skeleton,
    animation: Option<(&Clip, &[Option<usize>])>,
    timing: &Timing,
    bind_to_root: Mat4,
    bone: usize,
    warnings: &mut Vec<Warning>,
) -> Vec<VertexFrame> {
    let Some(base) = &node.mesh else { return Vec::new() };
    let mut frames: Vec<&RawMesh> = node.frames.iter().collect();
    frames.sort_by_key(|f| f.time);
    let mut out = Vec::with_capacity(frames.len());
    let mut skipped = 0usize;
    for frame in frames {
        if frame.positions.len() != base.positions.len() {
            skipped += 1;
            continue;
        }
        let time = timing.seconds(frame.time);
        let undo = match animation {
            Some((clip, tracks)) if !clip.tracks.is_empty() => {
                let now = to_root_at(skeleton, clip, tracks, bone, time);
                if is_usable(&now) { bind_to_root * now.inverse() } else { Mat4::IDENTITY }
            }
            _ => Mat4::IDENTITY,
        };
        let positions =
            built.source_vertex.iter().map(|&v| undo.transform_point3(frame.positions[v as usize])).collect();
        let normals = if frame.normals.len() == base.faces.len() && frame.faces.len() == base.faces.len() {
            built
                .source_corner
                .iter()
                .map(|&c| {
                    let n = frame.normals[c as usize / 3][c as usize % 3];
                    undo.transform_vector3(if n.is_finite() { n } else { Vec3::Z }).normalize_or(Vec3::Z)
                })
                .collect()
        } else {
            Vec::new()
        };
        out.push(VertexFrame { time, positions, normals });
    }
    if skipped > 0 {
        warn(
            warnings,
            node.line,
            format!(
                "'{}': {skipped} *MESH_ANIMATION frame(s) have a different vertex count than the mesh; skipped",
                node.name
            ),
        );
    }
    out
}
