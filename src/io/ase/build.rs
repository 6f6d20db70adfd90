//! Raw ASE records → the neutral scene: hierarchy (parents first), bind pose from the world `*NODE_TM`s, the
//! dialect and time base, flattened materials, render meshes bound to bones (built on all cores when large), and
//! one clip for the scene's animation.

use std::collections::HashMap;

use glam::{Mat4, Vec3};
use rayon::prelude::*;

use super::dialect::{self, SampleSpace};
use super::materials::{MaterialEntry, flatten_materials, material_for};
use super::mesh::build_mesh;
use super::records::{NodeKind, RawAnim, RawFile, RawMesh, RawNode, RawSkin, RawTrack, TrackKind};
use super::skinning::{shorten, skin_influences};
use super::timing::timing;
use super::tracks::{Rotations, build_track};
use super::vertex_frames::{base_mesh, vertex_frames};
use super::world_samples::{WorldChannels, WorldMath, make_parent_relative};
use crate::io::{LoadError, LoadErrorKind, LoadOptions};
use crate::scene::{
    Asset, AxisConversion, Clip, Format, InfluenceReport, Influences, Reading, Skeleton, Transform, Warning,
    normalize_bone_name,
};

fn warn(warnings: &mut Vec<Warning>, line: usize, message: impl Into<String>) {
    warnings.push(Warning::new(if line == 0 { String::new() } else { format!("line {line}") }, message));
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

pub(super) fn build(raw: RawFile, opts: &LoadOptions) -> Result<Asset, LoadError> {
    build_with(raw, opts, WorldMath::Fastest)
}

/// [`build`] with a choice of how world samples are converted (tests compare the two ways).
pub(super) fn build_with(mut raw: RawFile, opts: &LoadOptions, math: WorldMath) -> Result<Asset, LoadError> {
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
    let dialect = dialect::detect(&raw, &mut asset.readings, &mut warnings);

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
                // Frames of a morph-mesh animation are world-space vertices: no transform is needed there.
                let frames_only = node.mesh.is_none() && !node.frames.is_empty();
                if matches!(node.kind, NodeKind::Geometry | NodeKind::Helper) && !frames_only {
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
        ))
        .with_kind(LoadErrorKind::Unsupported));
    }

    // Materials.
    let material_map = flatten_materials(&mut raw.materials, opts, &mut asset.materials, &mut warnings);
    let mut wire_materials: HashMap<[u32; 3], usize> = HashMap::new();

    // Clip.
    let (timing, fps) = timing(&raw, dialect.exporter, dialect.samples, &mut asset.readings, &mut warnings);
    let animated = raw.nodes.iter().any(|n| n.anim.is_some() || !n.frames.is_empty());
    let mut track_of_bone: Vec<Option<usize>> = vec![None; skeleton.len()];
    let clip = if animated {
        let frames = raw.scene.last_frame.saturating_sub(raw.scene.first_frame).max(0);
        let mut clip = Clip {
            name: clip_name(&raw.scene.file_name),
            duration: timing.seconds(timing.end_tick).max(0.0),
            frame_rate: fps,
            frame_count: u32::try_from(frames + 1).unwrap_or(u32::MAX),
            ..Clip::default()
        };
        // World samples: rotations taken as they are, then every sampled channel made parent-relative. Keyed
        // controllers (never written by the exporters that write world samples) keep their local meaning.
        let world = dialect.samples == SampleSpace::World;
        let rotations = if world { Rotations::Absolute } else { Rotations::Relative };
        let mut world_channels = vec![WorldChannels::default(); skeleton.len()];
        let mut keyed_in_world = 0;
        let animated: Vec<(usize, &RawAnim)> =
            order.iter().filter_map(|&i| raw.nodes[i].anim.as_ref().map(|anim| (i, anim))).collect();
        let tracks = in_parallel_by(
            animated.clone(),
            |(_, anim)| anim.key_count(),
            |(i, anim)| {
                let mut track_warnings = Vec::new();
                let track = build_track(&raw.nodes[i].name, anim, &timing, rotations, &mut track_warnings);
                (track, track_warnings)
            },
        );
        for ((i, anim), (track, track_warnings)) in animated.into_iter().zip(tracks) {
            let bone = bone_of[i];
            track_of_bone[bone] = Some(clip.tracks.len());
            clip.tracks.push(track);
            warnings.extend(track_warnings);
            if world {
                let sampled = |t: &Option<RawTrack>| t.as_ref().is_some_and(|t| t.kind == TrackKind::Sampled);
                let keyed = |t: &Option<RawTrack>| t.as_ref().is_some_and(|t| t.kind != TrackKind::Sampled);
                world_channels[bone] = WorldChannels { translation: sampled(&anim.pos), rotation: sampled(&anim.rot) };
                keyed_in_world += usize::from(keyed(&anim.pos) || keyed(&anim.rot));
            }
        }
        if keyed_in_world > 0 {
            warn(
                &mut warnings,
                0,
                format!(
                    "{keyed_in_world} node(s) have keyed position or rotation controllers in a file of world samples; their keys are read as parent-relative"
                ),
            );
        }
        make_parent_relative(&skeleton, &mut clip, &track_of_bone, &world_channels, math)?;
        Some(clip)
    } else {
        None
    };

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
    let mut frames_only = Vec::new();
    for (i, node) in raw.nodes.iter().enumerate() {
        let Some(mesh) = base_mesh(node) else { continue };
        if mesh.faces.is_empty() {
            continue;
        }
        if node.mesh.is_none() {
            frames_only.push((node.name.clone(), node.frames.len(), mesh.positions.len(), mesh.faces.len()));
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
        let material_of = |mtl: u32| entry.material_of(mtl);
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
    for (name, frames, vertices, faces) in frames_only {
        asset.readings.push(Reading::new(
            "content",
            format!("vertex animation of mesh '{name}': {frames} frames of {vertices} vertices / {faces} faces"),
            "only *MESH_ANIMATION frames and no *MESH of its own, as in Gothic morph-mesh animations: the first frame is the mesh",
        ));
    }
    if let Some(clip) = clip {
        asset.clips.push(clip);
    }
    if let Some(node) = gothic_morph_head(&raw, dialect.exporter) {
        asset.axes = AxisConversion::gothic_morph_head();
        asset.readings.push(Reading::new(
            "axes",
            "a Gothic morph-mesh head, modelled in the head bone's frame (+X up the neck, +Y towards the face): \
             turned upright, facing +Z",
            format!("its only node is '{node}' (ZenGin's `ZM_` prefix of morph meshes, which the engine places on the head bone)"),
        ));
    }
    asset.skeleton = skeleton;
    asset.warnings = warnings;
    Ok(asset)
}

/// The node name of a Gothic morph-mesh head: a Gothic exporter's file whose every node is named `ZM_…`, the
/// ZenGin's prefix of morph meshes (heads with their faces), which the engine hangs on the head bone, so they
/// are modelled in that bone's frame rather than standing in the scene's.
fn gothic_morph_head(raw: &RawFile, exporter: dialect::Exporter) -> Option<String> {
    let gothic =
        matches!(exporter, dialect::Exporter::GothicSourcer | dialect::Exporter::Kerrax | dialect::Exporter::ZenGin);
    let all_morph = !raw.nodes.is_empty() && raw.nodes.iter().all(|n| n.name.to_ascii_lowercase().starts_with("zm_"));
    (gothic && all_morph).then(|| raw.nodes[0].name.clone())
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

/// Below this many faces (or animation keys) in all, building on one thread is quicker than handing the work to
/// the pool.
const PARALLEL_FACES: usize = 20_000;
const PARALLEL_KEYS: usize = 20_000;

/// `f` applied to every job, on all cores (an ordered rayon `par_iter`) when the work is worth it; results in the
/// jobs' order.
fn in_parallel<'a, R: Send>(jobs: Vec<MeshJob<'a>>, f: impl Fn(MeshJob<'a>) -> R + Sync + Send) -> Vec<R> {
    let faces: usize = jobs.iter().map(|j| j.mesh.faces.len()).sum();
    if jobs.len() < 2 || faces < PARALLEL_FACES || rayon::current_num_threads() < 2 {
        return jobs.into_iter().map(f).collect();
    }
    jobs.into_par_iter().map(f).collect()
}

/// `f` applied to every item, in parallel when the items' `size` adds up to [`PARALLEL_KEYS`]; results in order.
fn in_parallel_by<T: Send + Sync, R: Send>(
    items: Vec<T>,
    size: impl Fn(&T) -> usize,
    f: impl Fn(T) -> R + Sync + Send,
) -> Vec<R> {
    let total: usize = items.iter().map(size).sum();
    if items.len() < 2 || total < PARALLEL_KEYS || rayon::current_num_threads() < 2 {
        return items.into_iter().map(f).collect();
    }
    items.into_par_iter().map(f).collect()
}

fn clip_name(scene_file: &str) -> String {
    let stem = scene_file.rsplit(['/', '\\']).next().unwrap_or("").trim();
    let stem = stem.rsplit_once('.').map_or(stem, |(s, _)| s);
    if stem.is_empty() { "Scene".to_owned() } else { stem.to_owned() }
}
