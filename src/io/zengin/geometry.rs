//! A compiled mesh ([`ProtoMesh`]) as a scene [`Mesh`] and its [`Material`]s: one render vertex per wedge (a
//! wedge is what the engine draws: a position with one corner's normal and texture coordinates), the
//! submeshes as subsets, the materials with their textures looked up as the other loaders look them up.
//!
//! Where each vertex stands and which bones move it is the caller's: a static mesh as it is, a node mesh in its
//! node's frame, a soft-skin mesh from its weights.

use glam::{Vec2, Vec3};

use crate::io::LoadOptions;
use crate::io::textures::find_texture;
use crate::scene::{Material, Mesh, Subset};

use super::proto::{ProtoMesh, Wedge};

/// The compiled meshes' triangles wind clockwise seen from the front in the engine's (left-handed) frame,
/// Direct3D's default: the wedge normals of the corpus meshes point against `(b − a) × (c − a)`
/// (`tests/zengin.rs` checks it on `mesh0.mrm`).
pub const CLOCKWISE: bool = true;

/// One render vertex as the caller places it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    pub position: Vec3,
    pub normal: Vec3,
    pub joints: [u16; 4],
    pub weights: [f32; 4],
}

/// The mesh of `proto`, named `name`, its submesh `s` drawn with material `first_material + s`; `place` gives
/// each wedge's vertex.
pub fn build_mesh(
    proto: &ProtoMesh,
    name: &str,
    first_material: usize,
    mut place: impl FnMut(&Wedge) -> Placed,
) -> Mesh {
    let count = proto.wedge_count();
    let mut mesh = Mesh { name: name.to_owned(), clockwise: CLOCKWISE, ..Mesh::default() };
    mesh.positions.reserve(count);
    mesh.normals.reserve(count);
    mesh.uvs.reserve(count);
    mesh.joints.reserve(count);
    mesh.weights.reserve(count);
    mesh.indices.reserve(proto.triangle_count() * 3);
    for (s, sub) in proto.submeshes.iter().enumerate() {
        let base = mesh.positions.len() as u32;
        for wedge in &sub.wedges {
            let placed = place(wedge);
            mesh.positions.push(placed.position);
            mesh.normals.push(placed.normal.try_normalize().unwrap_or(Vec3::Y));
            mesh.uvs.push(if wedge.uv.is_finite() { wedge.uv } else { Vec2::ZERO });
            mesh.joints.push(placed.joints);
            mesh.weights.push(placed.weights);
        }
        let first_index = mesh.indices.len() as u32;
        for t in &sub.triangles {
            mesh.indices.extend(t.iter().map(|&w| base + u32::from(w)));
        }
        let index_count = mesh.indices.len() as u32 - first_index;
        if index_count > 0 {
            mesh.subsets.push(Subset { material: first_material + s, first_index, index_count });
        }
    }
    mesh
}

/// The materials of `proto`, in submesh order, with their textures found through `opts`.
pub fn materials(proto: &ProtoMesh, opts: &LoadOptions) -> Vec<Material> {
    proto
        .materials
        .iter()
        .map(|m| {
            let [r, g, b, a] = m.color.map(|c| f32::from(c) / 255.0);
            Material {
                name: m.name.clone(),
                diffuse: [r, g, b, a],
                texture: (!m.texture.trim().is_empty()).then(|| find_texture(opts, &m.texture, &[])),
                ..Material::default()
            }
        })
        .collect()
}

/// A vertex moved rigidly by one bone.
pub fn rigid(position: Vec3, normal: Vec3, bone: u16) -> Placed {
    Placed { position, normal, joints: [bone, 0, 0, 0], weights: [1.0, 0.0, 0.0, 0.0] }
}
