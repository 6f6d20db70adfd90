//! Body parts, their submodels and meshes of a compiled GoldSrc model (`mstudiobodyparts_t`,
//! `mstudiomodel_t`, `mstudiomesh_t` and the triangle commands) into bind-pose meshes and body groups.
//!
//! A submodel stores its vertices and normals each in the frame of one bone (`vertinfo`/`norminfo` give the
//! bone): the bone's bind to-root matrix takes them to model space at the bind pose, and the mesh is skinned
//! to that one bone with weight 1. Its meshes (one per texture) draw triangle strips and fans: a run of
//! signed 16-bit commands, each a count (negative: a fan) and that many corners of four shorts — vertex,
//! normal, s, t — ending at a zero count (HLAM `StudioModelRenderer::DrawMeshes`, assimp
//! `HL1MDLLoader::read_meshes`). studiomdl wrote each triangle's corners reversed ("quake wants them in the
//! reverse order", `Grab_Triangles`), so each triangle is turned back here and the mesh winds as its SMD
//! source did (counter-clockwise from the front).
//!
//! Texture coordinates are as the engine's GL path makes them: the integer texel `s`, `t` over the width and
//! height of the mesh's texture in the default skin (`DrawMeshes`: `ptricmds[2] * s` with `s = 1 / width`);
//! `t` counts from the top row, which is the image's first row, so no flip. With Xash3D's
//! `STUDIO_NF_UV_COORDS` the two shorts are half floats instead. Corners sharing vertex, normal and texel are
//! one vertex.
//!
//! Each submodel becomes one mesh (one subset per studio mesh) and one choice of its body part's
//! [`BodyGroup`]; a submodel without triangles is a `blank` choice.

use std::collections::HashMap;

use glam::{Mat4, Vec2, Vec3};

use super::anim::half_to_f32;
use super::header::{BODYPART_SIZE, Header, MESH_SIZE, MODEL_SIZE, Span};
use super::textures::{STUDIO_NF_UV_COORDS, Textures};
use crate::io::LoadError;
use crate::io::binary::{Reader, table};
use crate::scene::{BodyChoice, BodyGroup, Mesh, Position, Subset, Warning};

/// Xash3D header flag: vertices carry up to four weighted bones (`mstudioboneweight_t`).
pub const STUDIO_HAS_BONEWEIGHTS: u32 = 1 << 31;
/// Xash3D header flag: extra bone information (pose-to-bone matrices, procedural bones) follows the bones.
pub const STUDIO_HAS_BONEINFO: u32 = 1 << 30;

/// The meshes and body groups of a model.
pub struct Bodies {
    pub meshes: Vec<Mesh>,
    pub groups: Vec<BodyGroup>,
    /// Materials made for skin references the textures do not cover (placeholders), appended after the
    /// textures' own.
    pub extra_materials: Vec<String>,
}

/// Everything [`read`] needs besides the file.
pub struct Context<'a> {
    pub bind_to_root: &'a [Mat4],
    pub textures: &'a Textures,
    /// Materials there already are (the textures'): placeholders are numbered after them.
    pub first_placeholder: usize,
}

pub fn read(file: &[u8], header: &Header, cx: &Context<'_>, warnings: &mut Vec<Warning>) -> Result<Bodies, LoadError> {
    let mut parts = header.bodyparts.table(file, BODYPART_SIZE, "the body part table")?;
    let count = header.bodyparts.len("the body part table")?;
    let mut out = Bodies { meshes: Vec::new(), groups: Vec::with_capacity(count), extra_materials: Vec::new() };
    let mut placeholders: HashMap<usize, usize> = HashMap::new();
    if header.flags as u32 & STUDIO_HAS_BONEINFO != 0 {
        warnings.push(Warning::new(
            Position::Byte(136),
            "the model carries Xash3D bone information (STUDIO_HAS_BONEINFO: pose matrices, procedural bones), which is not read",
        ));
    }
    if header.flags as u32 & STUDIO_HAS_BONEWEIGHTS != 0 {
        warnings.push(Warning::new(
            Position::Byte(136),
            "the model carries Xash3D bone weights (STUDIO_HAS_BONEWEIGHTS), which are not read: each vertex follows the one bone of its vertex record",
        ));
    }
    for _ in 0..count {
        let at = parts.offset();
        let name = parts.fixed_str(64, "a body part name")?;
        let models = parts.i32("a body part's model count")?;
        let _base = parts.i32("a body part's base")?;
        let model_index = parts.i32("a body part's model offset")?;
        let span = Span { count: models, offset: model_index, at: at + 64 };
        let mut r = span.table(file, MODEL_SIZE, &format!("the submodels of body part \"{name}\""))?;
        let mut group = BodyGroup { name, choices: Vec::new(), file: 0, line: 0 };
        for _ in 0..span.len("submodels")? {
            let model_at = r.offset();
            let choice = read_model(file, &mut r, cx, &mut out, &mut placeholders, warnings)
                .map_err(|e| annotate(e, &group.name, model_at))?;
            group.choices.push(choice);
        }
        out.groups.push(group);
    }
    Ok(out)
}

fn annotate(mut e: LoadError, part: &str, at: u64) -> LoadError {
    e.message = format!("body part \"{part}\", submodel at byte {at}: {}", e.message);
    e
}

/// One submodel: its record at `r`, its data anywhere in `file`.
fn read_model(
    file: &[u8],
    r: &mut Reader<'_>,
    cx: &Context<'_>,
    out: &mut Bodies,
    placeholders: &mut HashMap<usize, usize>,
    warnings: &mut Vec<Warning>,
) -> Result<BodyChoice, LoadError> {
    let at = r.offset();
    let name = r.fixed_str(64, "a submodel name")?;
    let _type = r.i32("a submodel's type")?;
    let _radius = r.f32("a submodel's bounding radius")?;
    let mesh_count = r.i32("a submodel's mesh count")?;
    let mesh_index = r.i32("a submodel's mesh offset")?;
    let vert_count = r.i32("a submodel's vertex count")?;
    let vert_info = r.i32("a submodel's vertex bone offset")?;
    let vert_index = r.i32("a submodel's vertex offset")?;
    let norm_count = r.i32("a submodel's normal count")?;
    let norm_info = r.i32("a submodel's normal bone offset")?;
    let norm_index = r.i32("a submodel's normal offset")?;
    let _groups = r.i32("a submodel's group count")?;
    let _group_index = r.i32("a submodel's group offset")?;
    let choice =
        |meshes: Vec<usize>| BodyChoice { name: name.clone(), path: None, meshes, placement: None, file: 0, line: 0 };
    if mesh_count <= 0 || vert_count <= 0 {
        return Ok(choice(Vec::new()));
    }
    let field = |n: u64| at + n;
    let bones_of = |count: i32, offset: i32, what: &str, field_at: u64| -> Result<Vec<usize>, LoadError> {
        let mut t = span_table(file, count, offset, 1, what, field_at)?;
        let mut bones = Vec::with_capacity(t.len());
        while !t.at_end() {
            let b_at = t.offset();
            let b = usize::from(t.u8(what)?);
            if b >= cx.bind_to_root.len() {
                return Err(LoadError::at_byte(
                    b_at,
                    format!("{what}: bone {b}, but the model has {}", cx.bind_to_root.len()),
                ));
            }
            bones.push(b);
        }
        Ok(bones)
    };
    let vectors = |count: i32, offset: i32, what: &str, field_at: u64| -> Result<Vec<Vec3>, LoadError> {
        let mut t = span_table(file, count, offset, 12, what, field_at)?;
        let mut v = Vec::with_capacity(t.len() / 12);
        while !t.at_end() {
            let p = t.vec3(what)?;
            if !p.is_finite() {
                return Err(LoadError::at_byte(t.offset() - 12, format!("{what}: not a finite number")));
            }
            v.push(p);
        }
        Ok(v)
    };
    let vert_bones = bones_of(vert_count, vert_info, "vertex bones", field(80))?;
    let verts = vectors(vert_count, vert_index, "vertices", field(80))?;
    let norm_bones = bones_of(norm_count.max(0), norm_info, "normal bones", field(92))?;
    let norms = vectors(norm_count.max(0), norm_index, "normals", field(92))?;
    let placed: Vec<Vec3> =
        verts.iter().zip(&vert_bones).map(|(v, &b)| cx.bind_to_root[b].transform_point3(*v)).collect();
    let placed_normals: Vec<Vec3> = norms
        .iter()
        .zip(&norm_bones)
        .map(|(n, &b)| cx.bind_to_root[b].transform_vector3(*n).normalize_or(Vec3::Z))
        .collect();

    let mut meshes = span_table(file, mesh_count, mesh_index, MESH_SIZE, "meshes", field(72))?;
    let mut mesh = Mesh { name: name.clone(), ..Mesh::default() };
    let mut corners: HashMap<(u16, u16, i16, i16, usize), u32> = HashMap::new();
    let mut short_strips = 0usize;
    while !meshes.at_end() {
        let mesh_at = meshes.offset();
        let _tris = meshes.i32("a mesh's triangle count")?;
        let tri_index = meshes.i32("a mesh's triangle commands offset")?;
        let skinref = meshes.i32("a mesh's skin reference")?;
        let _norms = meshes.i32("a mesh's normal count")?;
        let _norm_index = meshes.i32("a mesh's normal offset")?;
        let skinref = usize::try_from(skinref)
            .map_err(|_| LoadError::at_byte(mesh_at + 8, format!("a mesh's skin reference is {skinref}")))?;
        let material = match cx.textures.material_of(skinref) {
            Some(m) => m,
            None => *placeholders.entry(skinref).or_insert_with(|| {
                out.extra_materials.push(format!("skin reference {skinref}"));
                cx.first_placeholder + out.extra_materials.len() - 1
            }),
        };
        let texture = cx.textures.infos.get(material);
        let half_floats = texture.is_some_and(|t| t.flags & STUDIO_NF_UV_COORDS != 0);
        // Without the texture (its file missing) the texel numbers cannot be scaled; a 256-texel square keeps
        // them in a readable range for the checker.
        let (tw, th) = texture.map_or((256.0, 256.0), |t| (t.width as f32, t.height as f32));
        let Ok(start) = usize::try_from(tri_index) else {
            return Err(LoadError::at_byte(mesh_at + 4, format!("the triangle commands offset is {tri_index}")));
        };
        let rest = file.get(start..).ok_or_else(|| {
            LoadError::truncated(
                start as u64,
                format!("triangle commands at byte {start} are past the end of the file"),
            )
        })?;
        let mut cmds = Reader::with_base(rest, start as u64);
        let first_index = mesh.indices.len() as u32;
        let mut strip: Vec<u32> = Vec::new();
        loop {
            let count = cmds.i16("a triangle command")?;
            if count == 0 {
                break;
            }
            let fan = count < 0;
            let n = usize::from(count.unsigned_abs());
            strip.clear();
            for _ in 0..n {
                let corner_at = cmds.offset();
                let vi = cmds.i16("a corner's vertex")?;
                let ni = cmds.i16("a corner's normal")?;
                let s = cmds.i16("a corner's s")?;
                let t = cmds.i16("a corner's t")?;
                let (Some(&position), Some(&normal)) = (
                    usize::try_from(vi).ok().and_then(|v| placed.get(v)),
                    usize::try_from(ni).ok().and_then(|n| placed_normals.get(n)),
                ) else {
                    return Err(LoadError::at_byte(
                        corner_at,
                        format!(
                            "a corner names vertex {vi} and normal {ni}; the submodel has {} and {}",
                            placed.len(),
                            placed_normals.len()
                        ),
                    ));
                };
                // The material is part of the key: the same texel on textures of other sizes is another coordinate.
                let key = (vi as u16, ni as u16, s, t, material);
                let next = mesh.positions.len() as u32;
                let index = *corners.entry(key).or_insert(next);
                if index == next {
                    let uv = if half_floats {
                        Vec2::new(half_to_f32(s as u16), half_to_f32(t as u16))
                    } else {
                        Vec2::new(f32::from(s) / tw, f32::from(t) / th)
                    };
                    mesh.positions.push(position);
                    mesh.normals.push(normal);
                    mesh.uvs.push(uv);
                    mesh.joints.push([vert_bones[vi as usize] as u16, 0, 0, 0]);
                    mesh.weights.push([1.0, 0.0, 0.0, 0.0]);
                }
                strip.push(index);
            }
            if n < 3 {
                short_strips += 1;
                continue;
            }
            for i in 0..n - 2 {
                let (a, b, c) = if fan {
                    (strip[0], strip[i + 1], strip[i + 2])
                } else if i % 2 == 1 {
                    (strip[i + 1], strip[i], strip[i + 2])
                } else {
                    (strip[i], strip[i + 1], strip[i + 2])
                };
                // The engine's order is studiomdl's reversed one; turned back to the source's.
                mesh.indices.extend_from_slice(&[c, b, a]);
            }
        }
        let index_count = mesh.indices.len() as u32 - first_index;
        if index_count > 0 {
            mesh.subsets.push(Subset { material, first_index, index_count });
        }
    }
    if short_strips > 0 {
        warnings.push(Warning::new(
            Position::Byte(at),
            format!(
                "submodel \"{name}\": {short_strips} strip(s) or fan(s) of fewer than 3 corners draw nothing; skipped"
            ),
        ));
    }
    if mesh.indices.is_empty() {
        return Ok(choice(Vec::new()));
    }
    out.meshes.push(mesh);
    Ok(choice(vec![out.meshes.len() - 1]))
}

/// `count` records of `size` bytes at `offset`, checked against the file; errors name `field_at`.
fn span_table<'a>(
    file: &'a [u8],
    count: i32,
    offset: i32,
    size: usize,
    what: &str,
    field_at: u64,
) -> Result<Reader<'a>, LoadError> {
    if count < 0 || (count > 0 && offset < 0) {
        return Err(LoadError::at_byte(field_at, format!("{what}: {count} at offset {offset}")));
    }
    table(file, i64::from(offset), i64::from(count), size, what)
}
