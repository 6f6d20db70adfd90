//! A `DmeMesh` into a render-ready [`Mesh`]: its vertex data, its face sets (one subset per material), its
//! weights and its delta states (morph targets). Owns the DMX vertex layout; the skeleton and where the mesh
//! hangs come from `model`.
//!
//! Reading, as Blender Source Tools' `import_smd.py` (`parseModel`) and `export_smd.py` (`writeDMX`) have it:
//! - The vertex data is the mesh's `bindState` (else `currentState`), a `DmeVertexData`. Its fields are named
//!   `positions`, `normals`, `textureCoordinates`, `jointWeights`, `jointIndices` before format 22 and
//!   `position$0`, `normal$0`, `texcoord$0` (`texcoord$1` … as further UV sets), `blendweights$0`,
//!   `blendindices$0` from 22 (`getDmxKeywords`); either set is read whatever the version says, and the one
//!   used is reported. Each field has its values and a `…Indices` array with one entry per face corner.
//! - Face sets list corners as indices into those `…Indices` arrays, each polygon ended by −1; polygons are
//!   split into triangles as a fan from their first corner. The material is the face set's `DmeMaterial`'s
//!   `mtlName`.
//! - Weights are per position: `jointCount` pairs of `jointWeights`/`jointIndices` for each entry of
//!   `positions`, indices into the model's joint list. A mesh without weights follows the bone it hangs under.
//! - `flipVCoordinates` set means v is stored with its origin at the bottom (as SMD and Blender have it):
//!   flipped to the top-left origin meshes use here.
//! - Delta states (`deltaStates`, `DmeVertexDeltaData`) are morph targets named as the delta: position deltas
//!   indexed by position, normal deltas by normal (entries naming the same one add up, as Blender Source Tools
//!   adds them).
//! - Positions, normals and deltas are taken from the dag's space into the model's (`model::MeshDag::world`).
//!
//! Corners become one vertex when all their per-field indices are equal (a DMX shares values by index, so this
//! is exact). Every index from the file is checked; an error names the element, the field and the line or byte.

use glam::{Mat3, Mat4, Vec2, Vec3};
use rustc_hash::FxHashMap;

use super::graph::View;
use super::model::{MeshDag, Rig};
use crate::io::LoadError;
use crate::scene::{InfluenceReport, Mesh, MorphTarget, Subset, Warning, reduce_influences};

/// The two names of each field: before format 22, and from it.
const POSITION: [&str; 2] = ["positions", "position$0"];
const NORMAL: [&str; 2] = ["normals", "normal$0"];
const TEXCOORD: [&str; 2] = ["textureCoordinates", "texcoord$0"];
const WEIGHTS: [&str; 2] = ["jointWeights", "blendweights$0"];
const WEIGHT_INDICES: [&str; 2] = ["jointIndices", "blendindices$0"];
const COLOR: [&str; 3] = ["colors", "color$0", "VertexPaintTintColor$0"];

/// Most UV sets read (`texcoord$0` … `texcoord$7`).
const MAX_UV_SETS: usize = 8;

/// A mesh built from a `DmeMesh`, with the materials it names (by name: the caller numbers them).
pub struct Built {
    pub mesh: Mesh,
    /// The material names of `mesh.subsets`, in subset order (`Subset::material` indexes this list).
    pub materials: Vec<String>,
    /// Whether the Source 2 field names were used.
    pub source2_names: bool,
}

/// One field of the vertex data: its values and the per-corner indices into them.
struct Field<'a, T> {
    values: &'a [T],
    indices: &'a [i32],
}

/// The field called one of `names`: the first present.
fn field<'a, T>(
    data: View<'a>,
    names: &[&str],
    get: impl Fn(&View<'a>, &str) -> Result<Option<&'a Vec<T>>, LoadError>,
) -> Result<Option<(Field<'a, T>, &'static str)>, LoadError>
where
    T: 'a,
{
    for (k, name) in names.iter().enumerate() {
        let Some(values) = get(&data, name)? else { continue };
        let index_name = format!("{name}Indices");
        let indices = data.ints(&index_name)?.ok_or_else(|| data.error(name, format!("has no `{index_name}`")))?;
        // Indices must point into the values: checked once here, so corners can be read without checks.
        if let Some((i, bad)) = indices.iter().enumerate().find(|&(_, &v)| v < 0 || v as usize >= values.len()) {
            return Err(data.error(&index_name, format!("entry {i} is {bad}, but there are {} values", values.len())));
        }
        let which = if k == 0 { "Source 1" } else { "Source 2" };
        return Ok(Some((Field { values, indices }, which)));
    }
    Ok(None)
}

/// Builds the mesh of `dag` with the skeleton of `rig`.
pub fn build(dag: &MeshDag, rig: &Rig, warnings: &mut Vec<Warning>) -> Result<Built, LoadError> {
    let mesh_el = dag.mesh;
    let data = match mesh_el.child("bindState")? {
        Some(d) => d,
        None => mesh_el
            .child("currentState")?
            .ok_or_else(|| mesh_el.error("bindState", "the mesh has no vertex data (no bindState or currentState)"))?,
    };
    let (positions, naming) =
        field(data, &POSITION, View::vector3s)?.ok_or_else(|| data.error("positions", "has no positions"))?;
    let normals = field(data, &NORMAL, View::vector3s)?;
    let uv0 = field(data, &TEXCOORD, View::vector2s)?;
    let mut extra_uvs = Vec::new();
    for k in 1..MAX_UV_SETS {
        if let Some((f, _)) = field(data, &[&format!("texcoord${k}")], View::vector2s)? {
            extra_uvs.push(f);
        }
    }
    let colors = field(data, &COLOR, View::vector4s)?;
    let flip_v = data.bool("flipVCoordinates")?.unwrap_or(false);
    let corners = positions.indices.len();
    for (name, len) in [
        ("normals", normals.as_ref().map(|f| f.0.indices.len())),
        ("texture coordinates", uv0.as_ref().map(|f| f.0.indices.len())),
        ("colours", colors.as_ref().map(|f| f.0.indices.len())),
    ]
    .into_iter()
    .chain(extra_uvs.iter().map(|f| ("texture coordinates", Some(f.indices.len()))))
    {
        if let Some(len) = len.filter(|&l| l != corners) {
            return Err(data.error(
                POSITION[usize::from(naming == "Source 2")],
                format!("{corners} corners, but {len} for the {name}"),
            ));
        }
    }

    // Corners → vertices: equal per-field indices make one vertex.
    let key_of = |c: usize| -> [i32; 4 + MAX_UV_SETS] {
        let mut key = [-1; 4 + MAX_UV_SETS];
        key[0] = positions.indices[c];
        key[1] = normals.as_ref().map_or(-1, |f| f.0.indices[c]);
        key[2] = uv0.as_ref().map_or(-1, |f| f.0.indices[c]);
        key[3] = colors.as_ref().map_or(-1, |f| f.0.indices[c]);
        for (k, f) in extra_uvs.iter().enumerate() {
            key[4 + k] = f.indices[c];
        }
        key
    };
    let mut vertex_of_key: FxHashMap<[i32; 4 + MAX_UV_SETS], u32> = FxHashMap::default();
    let mut corner_vertex: Vec<u32> = vec![u32::MAX; corners];
    let mut first_corner: Vec<usize> = Vec::new();

    // Face sets: polygons → triangles, per material.
    let mut indices: Vec<u32> = Vec::new();
    let mut subsets: Vec<Subset> = Vec::new();
    let mut materials: Vec<String> = Vec::new();
    let mut degenerate = 0usize;
    for set in mesh_el.children("faceSets")? {
        let material = match set.child("material")? {
            Some(m) => m.string("mtlName")?.cloned().unwrap_or_else(|| m.name().to_owned()),
            None => set.name().to_owned(),
        };
        let faces = set.ints("faces")?.map_or(&[][..], Vec::as_slice);
        let first_index = indices.len();
        let mut polygon: Vec<u32> = Vec::new();
        for (i, &f) in faces.iter().enumerate() {
            if f != -1 {
                let c = usize::try_from(f).ok().filter(|&c| c < corners).ok_or_else(|| {
                    set.error("faces", format!("entry {i} is {f}, but the mesh has {corners} corners"))
                })?;
                if corner_vertex[c] == u32::MAX {
                    let next = first_corner.len() as u32;
                    let v = *vertex_of_key.entry(key_of(c)).or_insert(next);
                    if v == next {
                        first_corner.push(c);
                    }
                    corner_vertex[c] = v;
                }
                polygon.push(corner_vertex[c]);
                if i + 1 < faces.len() {
                    continue;
                }
            }
            // -1 (or the end of the list) closes the polygon: a fan from its first corner.
            if polygon.len() < 3 {
                degenerate += usize::from(!polygon.is_empty());
            } else {
                for k in 1..polygon.len() - 1 {
                    indices.extend_from_slice(&[polygon[0], polygon[k], polygon[k + 1]]);
                }
            }
            polygon.clear();
        }
        let count = indices.len() - first_index;
        if count == 0 {
            continue;
        }
        let material_index = match materials.iter().position(|m| *m == material) {
            Some(i) => i,
            None => {
                materials.push(material);
                materials.len() - 1
            }
        };
        subsets.push(Subset { material: material_index, first_index: first_index as u32, index_count: count as u32 });
    }
    if degenerate > 0 {
        warnings.push(Warning::new(
            mesh_el.at(),
            format!("{}: {degenerate} polygon(s) with fewer than 3 corners were skipped", mesh_el.describe()),
        ));
    }
    // Subsets of one material drawn as one run: sort the index buffer by material.
    let (indices, subsets) = merge_subsets(indices, subsets);

    // Vertex attributes.
    let world = dag.world;
    let normal_matrix = Mat3::from_mat4(world).inverse().transpose();
    let n = first_corner.len();
    let mut mesh = Mesh { name: mesh_el.name().to_owned(), indices, subsets, ..Mesh::default() };
    mesh.positions =
        first_corner.iter().map(|&c| world.transform_point3(positions.values[positions.indices[c] as usize])).collect();
    if let Some((f, _)) = &normals {
        mesh.normals = first_corner
            .iter()
            .map(|&c| (normal_matrix * f.values[f.indices[c] as usize]).normalize_or(Vec3::Z))
            .collect();
    }
    let uv = |f: &Field<Vec2>, c: usize| {
        let v = f.values[f.indices[c] as usize];
        if flip_v { Vec2::new(v.x, 1.0 - v.y) } else { v }
    };
    mesh.uvs = match &uv0 {
        Some((f, _)) => first_corner.iter().map(|&c| uv(f, c)).collect(),
        None => vec![Vec2::ZERO; n],
    };
    mesh.extra_uvs = extra_uvs.iter().map(|f| first_corner.iter().map(|&c| uv(f, c)).collect()).collect();
    if let Some((f, _)) = &colors {
        mesh.colors = first_corner
            .iter()
            .map(|&c| f.values[f.indices[c] as usize].to_array().map(|x| (x.clamp(0.0, 1.0) * 255.0).round() as u8))
            .collect();
    }

    // Weights, per position.
    let position_count = positions.values.len();
    let fallback = dag.parent_bone.or(rig.model_bone).unwrap_or(0) as u16;
    let mut report = InfluenceReport::default();
    let weights = field_plain(data, &WEIGHTS, View::floats)?;
    let weight_indices = field_plain(data, &WEIGHT_INDICES, View::ints)?;
    let joint_count = data.int("jointCount")?.unwrap_or(0);
    let per_position: Vec<crate::scene::Influences> = match (weights, weight_indices) {
        (Some((w, w_name)), Some((j, j_name))) if joint_count > 0 => {
            let jc = usize::try_from(joint_count).map_err(|_| data.error("jointCount", "is negative"))?;
            let wanted = position_count.checked_mul(jc);
            if wanted != Some(w.len()) || w.len() != j.len() {
                return Err(data.error(
                    w_name,
                    format!(
                        "{} weights and {} `{j_name}` for {position_count} positions × jointCount {jc}",
                        w.len(),
                        j.len()
                    ),
                ));
            }
            let mut pairs: Vec<(u16, f32)> = Vec::with_capacity(jc);
            let mut bad_joint = None;
            let out = w
                .chunks_exact(jc)
                .zip(j.chunks_exact(jc))
                .map(|(ws, js)| {
                    pairs.clear();
                    for (&weight, &joint) in ws.iter().zip(js) {
                        match usize::try_from(joint).ok().and_then(|i| rig.joint_bones.get(i)) {
                            Some(Some(bone)) => pairs.push((*bone as u16, weight)),
                            Some(None) => {}
                            None => {
                                bad_joint.get_or_insert(joint);
                            }
                        }
                    }
                    reduce_influences(&mut pairs, fallback, &mut report)
                })
                .collect();
            if let Some(joint) = bad_joint {
                return Err(data.error(
                    j_name,
                    format!("joint {joint} is not in the model's joint list of {} entries", rig.joint_bones.len()),
                ));
            }
            out
        }
        _ => Vec::new(),
    };
    let rigid = crate::scene::Influences { joints: [fallback, 0, 0, 0], weights: [1.0, 0.0, 0.0, 0.0] };
    (mesh.joints, mesh.weights) = first_corner
        .iter()
        .map(|&c| {
            let inf = per_position.get(positions.indices[c] as usize).copied().unwrap_or(rigid);
            (inf.joints, inf.weights)
        })
        .unzip();
    mesh.influence_report = report;
    if mesh.normals.is_empty() {
        mesh.compute_normals();
    }

    mesh.morph_targets =
        deltas(mesh_el, &first_corner, &positions, normals.as_ref().map(|f| &f.0), world, normal_matrix)?;
    Ok(Built { mesh, materials, source2_names: naming == "Source 2" })
}

/// A per-position array called one of `names` (weights, joint indices): the first present, and its name.
fn field_plain<'a, T: 'a>(
    data: View<'a>,
    names: &[&'static str],
    get: impl Fn(&View<'a>, &str) -> Result<Option<&'a Vec<T>>, LoadError>,
) -> Result<Option<(&'a [T], &'static str)>, LoadError> {
    for name in names {
        if let Some(v) = get(&data, name)? {
            return Ok(Some((v, name)));
        }
    }
    Ok(None)
}

/// The index buffer reordered so each material's triangles are one run, and one subset per material.
fn merge_subsets(indices: Vec<u32>, subsets: Vec<Subset>) -> (Vec<u32>, Vec<Subset>) {
    let materials = subsets.iter().map(|s| s.material + 1).max().unwrap_or(0);
    if subsets.len() == materials {
        return (indices, subsets);
    }
    let mut out_indices = Vec::with_capacity(indices.len());
    let mut out = Vec::new();
    for m in 0..materials {
        let first = out_indices.len();
        for s in subsets.iter().filter(|s| s.material == m) {
            let range = s.first_index as usize..(s.first_index + s.index_count) as usize;
            out_indices.extend_from_slice(indices.get(range).unwrap_or_default());
        }
        let count = out_indices.len() - first;
        if count > 0 {
            out.push(Subset { material: m, first_index: first as u32, index_count: count as u32 });
        }
    }
    (out_indices, out)
}

/// The mesh's delta states as sparse morph targets over its vertices.
fn deltas(
    mesh_el: View,
    first_corner: &[usize],
    positions: &Field<Vec3>,
    normals: Option<&Field<Vec3>>,
    world: Mat4,
    normal_matrix: Mat3,
) -> Result<Vec<MorphTarget>, LoadError> {
    let states = mesh_el.children("deltaStates")?;
    if states.is_empty() {
        return Ok(Vec::new());
    }
    // Vertices of each position and of each normal (compressed lists).
    let by_position = group(first_corner.iter().map(|&c| positions.indices[c] as usize), positions.values.len());
    let by_normal = normals.map(|f| group(first_corner.iter().map(|&c| f.indices[c] as usize), f.values.len()));
    let rotate = Mat3::from_mat4(world);
    let vertex_count = first_corner.len();
    let mut dp = vec![Vec3::ZERO; vertex_count];
    let mut dn = vec![Vec3::ZERO; vertex_count];
    let mut touched: Vec<u32> = Vec::new();
    let mut is_touched = vec![false; vertex_count];
    let mut out = Vec::with_capacity(states.len());
    for state in states {
        let mut add = |vertices: &[u32], delta: Vec3, normal: bool| {
            for &v in vertices {
                let v = v as usize;
                if normal {
                    dn[v] += delta
                } else {
                    dp[v] += delta
                }
                if !is_touched[v] {
                    is_touched[v] = true;
                    touched.push(v as u32);
                }
            }
        };
        if let Some(f) = delta_field(state, &POSITION, positions.values.len())? {
            for (&i, &d) in f.indices.iter().zip(f.values) {
                add(by_position.of(i as usize), rotate * d, false);
            }
        }
        let mut has_normals = false;
        if let (Some(by_normal), Some(normals)) = (&by_normal, normals)
            && let Some(f) = delta_field(state, &NORMAL, normals.values.len())?
        {
            has_normals = !f.indices.is_empty();
            for (&i, &d) in f.indices.iter().zip(f.values) {
                add(by_normal.of(i as usize), normal_matrix * d, true);
            }
        }
        touched.sort_unstable();
        let mut target = MorphTarget { name: state.name().to_owned(), ..MorphTarget::default() };
        for &v in &touched {
            let v = v as usize;
            target.vertices.push(v as u32);
            target.position_deltas.push(dp[v]);
            if has_normals {
                target.normal_deltas.push(dn[v]);
            }
            dp[v] = Vec3::ZERO;
            dn[v] = Vec3::ZERO;
            is_touched[v] = false;
        }
        touched.clear();
        out.push(target);
    }
    Ok(out)
}

/// A delta field called one of `names`: its values and, for each, the index of the base value it moves (one of
/// `count`).
fn delta_field<'a>(state: View<'a>, names: &[&str], count: usize) -> Result<Option<Field<'a, Vec3>>, LoadError> {
    for name in names {
        let Some(values) = state.vector3s(name)? else { continue };
        let index_name = format!("{name}Indices");
        let indices = state.ints(&index_name)?.ok_or_else(|| state.error(name, format!("has no `{index_name}`")))?;
        if indices.len() != values.len() {
            return Err(state.error(&index_name, format!("{} indices for {} deltas", indices.len(), values.len())));
        }
        if let Some((i, bad)) = indices.iter().enumerate().find(|&(_, &v)| v < 0 || v as usize >= count) {
            return Err(state.error(&index_name, format!("entry {i} is {bad}, but the mesh has {count} of them")));
        }
        return Ok(Some(Field { values, indices }));
    }
    Ok(None)
}

/// Items grouped by a key below `keys`: `of(k)` lists the items (in order) whose key is `k`.
struct Groups {
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl Groups {
    fn of(&self, key: usize) -> &[u32] {
        match (self.starts.get(key), self.starts.get(key + 1)) {
            (Some(&a), Some(&b)) => self.items.get(a as usize..b as usize).unwrap_or_default(),
            _ => &[],
        }
    }
}

fn group(keys: impl Iterator<Item = usize> + Clone, key_count: usize) -> Groups {
    let mut starts = vec![0u32; key_count + 1];
    for k in keys.clone() {
        starts[k + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut fill = starts.clone();
    let mut items = vec![0u32; starts[key_count] as usize];
    for (item, k) in keys.enumerate() {
        items[fill[k] as usize] = item as u32;
        fill[k] += 1;
    }
    Groups { starts, items }
}
