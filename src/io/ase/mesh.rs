//! One ASE `*MESH` → a render mesh: every face corner is a (position, texture vertex, colour vertex, normal,
//! extra map channels) tuple; equal tuples are welded into one render vertex, different ones split. Faces are
//! grouped by material into subsets. Normals come from `*MESH_NORMALS` or, without them, from the faces and
//! their smoothing groups (corners of faces that share a group are smoothed together).

use glam::{Vec2, Vec3};

use super::records::{NONE, RawChannel, RawMesh};
use crate::io::smoothing::SmoothingGroups;
use crate::io::{LoadError, LoadErrorKind};
use crate::scene::{Influences, Mesh, Subset, Warning};

/// A built mesh plus, per render vertex, where it came from (for vertex animation frames).
pub(super) struct BuiltMesh {
    pub mesh: Mesh,
    pub source_vertex: Vec<u32>,
    /// `face * 3 + corner` of the corner that created the render vertex.
    pub source_corner: Vec<u32>,
}

/// Per-corner attribute indices of one channel, `NONE` where missing or out of range.
fn corner_indices(ch: &RawChannel, faces: usize, bad: &mut usize) -> Vec<u32> {
    let mut out = vec![NONE; faces * 3];
    if ch.tverts.is_empty() {
        return out;
    }
    for (f, tf) in ch.tfaces.iter().enumerate().take(faces) {
        for k in 0..3 {
            let t = tf[k];
            if t == NONE {
                continue;
            }
            if (t as usize) < ch.tverts.len() {
                out[f * 3 + k] = t;
            } else {
                *bad += 1;
            }
        }
    }
    out
}

/// Corner normals from the smoothing groups (the shared builder, `io::smoothing`), for meshes without
/// `*MESH_NORMALS`: faces sharing a group are smoothed together, a face in no group is flat.
fn smoothed_normals(raw: &RawMesh) -> Vec<Vec3> {
    let corners: Vec<[u32; 3]> = raw.faces.iter().map(|f| f.v).collect();
    let groups: Vec<u32> = raw.faces.iter().map(|f| f.smoothing).collect();
    SmoothingGroups::new(&raw.positions, &corners, &groups, false).corner_normals(&corners)
}

fn color(c: Vec3) -> [u8; 4] {
    let q = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
    [q(c.x), q(c.y), q(c.z), 255]
}

/// Builds the render mesh. `material_of` maps a face's `*MESH_MTLID` to the asset's material index;
/// `influences` (one per ASE vertex) skins it, otherwise every vertex belongs fully to `bone`.
pub(super) fn build_mesh(
    raw: &RawMesh,
    name: &str,
    material_of: &dyn Fn(u32) -> usize,
    influences: Option<&[Influences]>,
    bone: u16,
    warnings: &mut Vec<Warning>,
) -> Result<BuiltMesh, LoadError> {
    let n = raw.positions.len();
    let faces = raw.faces.len();
    for (i, f) in raw.faces.iter().enumerate() {
        if let Some(&bad) = f.v.iter().find(|&&v| v as usize >= n) {
            return Err(LoadError::at_line(
                raw.line,
                format!("mesh '{name}': *MESH_FACE {i} refers to vertex {bad}, but the mesh has {n} vertices"),
            ));
        }
    }
    if u32::try_from(faces * 3).is_err() {
        return Err(LoadError::at_line(raw.line, format!("mesh '{name}': too many faces ({faces})"))
            .with_kind(LoadErrorKind::Unsupported));
    }

    let mut bad_tv = 0;
    let tv = corner_indices(&raw.uv, faces, &mut bad_tv);
    if bad_tv > 0 {
        warnings.push(Warning::new(
            format!("line {}", raw.line),
            format!(
                "mesh '{name}': {bad_tv} *MESH_TFACE corner(s) refer to texture vertices that do not exist (*MESH_NUMTVERTEX is {}); they get UV (0, 0)",
                raw.uv.tverts.len()
            ),
        ));
    }
    let mut bad_cv = 0;
    let colour_channel = RawChannel { channel: 0, tverts: raw.cverts.clone(), tfaces: raw.cfaces.clone() };
    let cv = corner_indices(&colour_channel, faces, &mut bad_cv);
    if bad_cv > 0 {
        warnings.push(Warning::new(
            format!("line {}", raw.line),
            format!("mesh '{name}': {bad_cv} *MESH_CFACE corner(s) refer to colour vertices that do not exist; they are white"),
        ));
    }
    let has_colors = cv.iter().any(|&c| c != NONE);
    let mut extra: Vec<(&RawChannel, Vec<u32>)> = Vec::new();
    for ch in &raw.extra_channels {
        let mut bad = 0;
        let idx = corner_indices(ch, faces, &mut bad);
        if bad > 0 {
            warnings.push(Warning::new(
                format!("line {}", raw.line),
                format!("mesh '{name}': map channel {}: {bad} corner(s) out of range", ch.channel),
            ));
        }
        extra.push((ch, idx));
    }

    // Corner normals: the file's where given, the smoothing-group ones elsewhere.
    let file_normals = raw.normals.len() == faces;
    let mut normals: Vec<Vec3> = Vec::with_capacity(faces * 3);
    let mut computed: Option<Vec<Vec3>> = None;
    for f in 0..faces {
        for k in 0..3 {
            let given = if file_normals { raw.normals[f][k] } else { Vec3::NAN };
            let nrm = if given.is_finite() {
                given.try_normalize().unwrap_or(Vec3::Z)
            } else {
                computed.get_or_insert_with(|| smoothed_normals(raw))[f * 3 + k]
            };
            normals.push(nrm);
        }
    }

    // Faces sorted by material (counting sort keeps file order within a material).
    let face_material: Vec<usize> = raw.faces.iter().map(|f| material_of(f.mtl)).collect();
    let mut materials: Vec<usize> = face_material.clone();
    materials.sort_unstable();
    materials.dedup();
    let mut order: Vec<u32> = Vec::with_capacity(faces);
    let mut subsets = Vec::with_capacity(materials.len());
    {
        let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); materials.len()];
        for (f, m) in face_material.iter().enumerate() {
            let slot = materials.binary_search(m).unwrap_or(0);
            buckets[slot].push(f as u32);
        }
        for (m, bucket) in materials.iter().zip(buckets) {
            subsets.push(Subset {
                material: *m,
                first_index: (order.len() * 3) as u32,
                index_count: (bucket.len() * 3) as u32,
            });
            order.extend(bucket);
        }
    }

    // Weld equal corners: a chain of render vertices per ASE vertex.
    let same = |a: usize, b: usize| -> bool {
        tv[a] == tv[b]
            && cv[a] == cv[b]
            && normals[a].to_array().map(f32::to_bits) == normals[b].to_array().map(f32::to_bits)
            && extra.iter().all(|(_, idx)| idx[a] == idx[b])
    };
    // First the welding, which decides how many render vertices there are; then each attribute array is
    // filled at its final size (growing them one push at a time copied them over and over on large meshes).
    let mut head = vec![NONE; n];
    let mut next: Vec<u32> = Vec::new();
    let mut source_vertex = Vec::new();
    let mut source_corner = Vec::new();
    let mut indices = Vec::with_capacity(faces * 3);
    // Per face corner in file order, its render vertex: a vertex animation of the same mesh in another file is
    // bound through it (`ase::bind_vertex_animation`).
    let mut corner_vertices = vec![0u32; faces * 3];
    for &f in &order {
        let f = f as usize;
        for k in 0..3 {
            let corner = f * 3 + k;
            let v = raw.faces[f].v[k] as usize;
            // Search the vertices already made from this position (a short chain in real meshes; bounded so a
            // hostile file cannot make welding quadratic — past the bound a duplicate vertex is harmless).
            let mut r = head[v];
            let mut steps = 0;
            while r != NONE && !same(source_corner[r as usize] as usize, corner) {
                r = next[r as usize];
                steps += 1;
                if steps > 64 {
                    r = NONE;
                    break;
                }
            }
            if r == NONE {
                r = source_vertex.len() as u32;
                next.push(head[v]);
                head[v] = r;
                source_vertex.push(v as u32);
                source_corner.push(corner as u32);
            }
            indices.push(r);
            corner_vertices[corner] = r;
        }
    }
    let made = || source_vertex.iter().zip(&source_corner).map(|(&v, &c)| (v as usize, c as usize));
    let uv = |ch: &RawChannel, t: u32| ch.tverts.get(t as usize).map_or(Vec2::ZERO, |p| Vec2::new(p.x, 1.0 - p.y));
    let (joints, weights) = made()
        .map(|(v, _)| {
            let inf = influences
                .and_then(|i| i.get(v))
                .copied()
                .unwrap_or(Influences { joints: [bone, 0, 0, 0], weights: [1.0, 0.0, 0.0, 0.0] });
            (inf.joints, inf.weights)
        })
        .unzip();
    let mut mesh = Mesh {
        name: name.to_owned(),
        clockwise: false,
        positions: made().map(|(v, _)| raw.positions[v]).collect(),
        normals: made().map(|(_, c)| normals[c]).collect(),
        uvs: made().map(|(_, c)| uv(&raw.uv, tv[c])).collect(),
        extra_uvs: extra.iter().map(|(ch, idx)| made().map(|(_, c)| uv(ch, idx[c])).collect()).collect(),
        joints,
        weights,
        indices,
        ..Mesh::default()
    };
    if has_colors {
        mesh.colors = made().map(|(_, c)| raw.cverts.get(cv[c] as usize).map_or([255; 4], |c| color(*c))).collect();
    }
    mesh.subsets = subsets;
    mesh.corner_vertices = corner_vertices;
    Ok(BuiltMesh { mesh, source_vertex, source_corner })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::ase::records::RawFace;

    fn quad(smoothing: [u32; 2]) -> RawMesh {
        RawMesh {
            positions: vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::new(0.0, 1.0, 1.0)],
            faces: vec![
                RawFace { v: [0, 1, 2], smoothing: smoothing[0], mtl: 0 },
                RawFace { v: [0, 2, 3], smoothing: smoothing[1], mtl: 1 },
            ],
            ..RawMesh::default()
        }
    }

    #[test]
    fn smoothing_groups_decide_splits() {
        let mut w = Vec::new();
        let shared = build_mesh(&quad([1, 1]), "q", &|_| 0, None, 0, &mut w).unwrap();
        assert_eq!(shared.mesh.positions.len(), 4);
        let hard = build_mesh(&quad([1, 2]), "q", &|_| 0, None, 0, &mut w).unwrap();
        assert_eq!(hard.mesh.positions.len(), 6);
        assert!(w.is_empty());
    }

    #[test]
    fn materials_make_subsets_and_faces_check_vertex_range() {
        let mut w = Vec::new();
        let built = build_mesh(&quad([1, 1]), "q", &|id| id as usize * 2, None, 3, &mut w).unwrap();
        assert_eq!(built.mesh.subsets.len(), 2);
        assert_eq!((built.mesh.subsets[1].material, built.mesh.subsets[1].first_index), (2, 3));
        assert!(built.mesh.joints.iter().all(|j| j[0] == 3));
        built.mesh.validate(4).unwrap();
        let mut bad = quad([1, 1]);
        bad.faces[1].v[2] = 9;
        let err = build_mesh(&bad, "q", &|_| 0, None, 0, &mut w).err().unwrap();
        assert!(err.message.contains("refers to vertex 9, but the mesh has 4 vertices"), "{err}");
    }
}
