//! Welding triangle corners into render vertices and collecting them per material.
//!
//! Two corners become one vertex only when every attribute is bit-identical after parsing: position, normal,
//! UV and the reduced influences (bones and weights). So corners that share a position but differ in weights
//! (or in UV, or in normal) stay separate vertices. `-0.0` and `0.0` count as equal. The map from each corner
//! (in file order) to its vertex is kept on the mesh for VTA files, whose vertex indices count corners.
//!
//! The lookup is a table of vertex ids whose keys (a corner's bits, 56 bytes) sit in a dense array in id order,
//! not a map holding the keys: the table is sized from the block's length before the vertices are known, and a
//! Half-Life 1 model welds 40 corners into each vertex, so a map sized that way (64 bytes a slot) was mostly
//! empty memory that the inserts still touched — 6 MB of fresh pages for a 17.5 MB file of 2,117 vertices, more
//! than a sixth of its load. The table costs 5 bytes a slot; the keys take only what the vertices need.

use std::hash::BuildHasher;

use glam::{Vec2, Vec3};
use hashbrown::HashTable;
use hashbrown::hash_table::Entry;
use rustc_hash::{FxBuildHasher, FxHashMap};

use crate::scene::{Material, Mesh, Subset};

/// One triangle corner as read from the file (UV already converted to the mesh's top-left origin).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Corner {
    pub pos: [f32; 3],
    pub normal: [f32; 3],
    pub uv: [f32; 2],
    pub joints: [u16; 4],
    pub weights: [f32; 4],
}

/// A corner's bits, packed two 32-bit fields per word.
#[derive(Clone, Copy)]
struct Key([u64; 7]);

fn hash_key(key: &Key) -> u64 {
    FxBuildHasher.hash_one(key)
}

impl std::hash::Hash for Key {
    /// Hashes the words, so equal keys (equal words) hash equally.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl PartialEq for Key {
    /// Branch-free: XOR and OR the words (a call to `memcmp` costs more than the compare itself).
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.0.iter().zip(&other.0).fold(0, |acc, (a, b)| acc | (a ^ b)) == 0
    }
}

impl Eq for Key {}

#[inline]
fn bits(x: f32) -> u64 {
    // `+ 0.0` turns -0.0 into 0.0 so the two weld.
    u64::from((x + 0.0).to_bits())
}

#[inline]
fn key(c: &Corner) -> Key {
    let j = |i: usize| u64::from(c.joints[i]);
    Key([
        bits(c.pos[0]) | (bits(c.pos[1]) << 32),
        bits(c.pos[2]) | (bits(c.normal[0]) << 32),
        bits(c.normal[1]) | (bits(c.normal[2]) << 32),
        bits(c.uv[0]) | (bits(c.uv[1]) << 32),
        j(0) | (j(1) << 16) | (j(2) << 32) | (j(3) << 48),
        bits(c.weights[0]) | (bits(c.weights[1]) << 32),
        bits(c.weights[2]) | (bits(c.weights[3]) << 32),
    ])
}

/// Grows the mesh as triangles arrive.
#[derive(Default)]
pub(super) struct MeshBuilder {
    /// Vertex ids, found by the hash of their key in `keys`.
    ids: HashTable<u32>,
    /// The key of every vertex, in id order.
    keys: Vec<Key>,
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    uvs: Vec<Vec2>,
    joints: Vec<[u16; 4]>,
    weights: Vec<[f32; 4]>,
    /// Material names as written, in first-use order.
    material_names: Vec<Vec<u8>>,
    material_map: FxHashMap<Vec<u8>, u32>,
    last_material: Option<u32>,
    /// Material of each triangle: the index buffer is grouped by material once, in `finish` (one list per
    /// material grown triangle by triangle cost a reallocation and a copy per doubling, and a final copy).
    triangle_materials: Vec<u32>,
    corners: Vec<u32>,
}

impl MeshBuilder {
    /// Sizes the tables for a triangle block of `bytes` bytes (an estimate bounded by the input size).
    pub(super) fn with_block_size(bytes: usize) -> Self {
        let mut b = Self::default();
        // A corner line is 60–120 bytes and typical meshes weld 3–6 corners into one vertex. Capped, since the
        // bytes may belong to other blocks.
        let vertices = (bytes / 400).min(1 << 20);
        // The table is empty, so nothing is rehashed here (the hasher is never called).
        b.ids.reserve(vertices, |_| 0);
        // Below 2 MiB, so that the program's allocator leaves it in small pages that are touched only as keys
        // arrive (a larger block is given a huge page, zeroed whole on first touch); it grows as needed.
        b.keys.reserve(vertices.min(1 << 15));
        b.positions.reserve(vertices);
        b.normals.reserve(vertices);
        b.uvs.reserve(vertices);
        b.joints.reserve(vertices);
        b.weights.reserve(vertices);
        b.corners.reserve((bytes / 80).min(4 << 20));
        b.triangle_materials.reserve((bytes / 240).min(2 << 20));
        b
    }

    /// The index of a material, created on first use (names compare byte for byte).
    #[inline]
    pub(super) fn material(&mut self, name: &[u8]) -> u32 {
        if let Some(last) = self.last_material
            && self.material_names.get(last as usize).is_some_and(|n| n.as_slice() == name)
        {
            return last;
        }
        let id = match self.material_map.get(name) {
            Some(&id) => id,
            None => {
                let id = self.material_names.len() as u32;
                self.material_names.push(name.to_vec());
                self.material_map.insert(name.to_vec(), id);
                id
            }
        };
        self.last_material = Some(id);
        id
    }

    /// The vertex of a corner: an existing one with the same bits, or a new one. `None` past the u32 range.
    #[inline(always)]
    fn vertex(&mut self, c: &Corner) -> Option<u32> {
        let key = key(c);
        let keys = &self.keys;
        let entry = self.ids.entry(
            hash_key(&key),
            |&id| keys.get(id as usize) == Some(&key),
            |&id| keys.get(id as usize).map_or(0, hash_key),
        );
        match entry {
            Entry::Occupied(found) => Some(*found.get()),
            Entry::Vacant(slot) => {
                let next = u32::try_from(self.keys.len()).ok()?;
                slot.insert(next);
                self.keys.push(key);
                self.positions.push(Vec3::from_array(c.pos));
                self.normals.push(Vec3::from_array(c.normal));
                self.uvs.push(Vec2::from_array(c.uv));
                self.joints.push(c.joints);
                self.weights.push(c.weights);
                Some(next)
            }
        }
    }

    /// Adds a triangle; returns false when the mesh would exceed the u32 index range.
    // Inlined into both triangle loops (see `parse_vertex`).
    #[inline(always)]
    pub(super) fn triangle(&mut self, material: u32, corners: &[Corner; 3]) -> bool {
        let mut ids = [0u32; 3];
        for (id, c) in ids.iter_mut().zip(corners) {
            let Some(v) = self.vertex(c) else { return false };
            *id = v;
        }
        self.corners.extend_from_slice(&ids);
        self.triangle_materials.push(material);
        true
    }

    /// Appends the triangles of `later`, a builder that read the part of the same block that follows this one's:
    /// the result is the builder one pass over both parts would have made (its vertices are taken in their
    /// first-use order, which is their order in `later`, and only those not seen here are new; materials
    /// likewise). Returns false when the mesh would exceed the u32 index range.
    pub(super) fn append(&mut self, later: MeshBuilder) -> bool {
        let materials: Vec<u32> = later.material_names.iter().map(|name| self.material(name)).collect();
        let mut remap = Vec::with_capacity(later.positions.len());
        for v in 0..later.positions.len() {
            let corner = Corner {
                pos: later.positions[v].to_array(),
                normal: later.normals[v].to_array(),
                uv: later.uvs[v].to_array(),
                joints: later.joints[v],
                weights: later.weights[v],
            };
            let Some(id) = self.vertex(&corner) else { return false };
            remap.push(id);
        }
        self.corners.extend(later.corners.iter().map(|&v| remap[v as usize]));
        self.triangle_materials.extend(later.triangle_materials.iter().map(|&m| materials[m as usize]));
        true
    }

    pub(super) fn triangle_count(&self) -> usize {
        self.corners.len() / 3
    }

    /// The render mesh: one subset per material in first-use order, and the materials (without textures:
    /// resolving them needs the file's folder).
    pub(super) fn finish(self, name: &str) -> (Mesh, Vec<Material>) {
        let material_count = self.material_names.len();
        // Counting sort of the triangles by material, file order kept within each.
        let mut starts = vec![0u32; material_count + 1];
        for &m in &self.triangle_materials {
            starts[m as usize + 1] += 3;
        }
        for m in 0..material_count {
            starts[m + 1] += starts[m];
        }
        let subsets: Vec<Subset> = (0..material_count)
            .filter(|&m| starts[m + 1] > starts[m])
            .map(|material| Subset {
                material,
                first_index: starts[material],
                index_count: starts[material + 1] - starts[material],
            })
            .collect();
        let indices = if subsets.len() <= 1 {
            // One material: the index buffer is the corners in file order.
            self.corners.clone()
        } else {
            let mut indices = vec![0u32; self.corners.len()];
            let mut cursor = starts;
            for (triangle, &m) in self.corners.chunks_exact(3).zip(&self.triangle_materials) {
                let at = cursor[m as usize] as usize;
                indices[at..at + 3].copy_from_slice(triangle);
                cursor[m as usize] += 3;
            }
            indices
        };
        let materials = self.material_names.iter().map(|n| Material::named(crate::io::text::decode_name(n))).collect();
        let mesh = Mesh {
            name: name.to_owned(),
            positions: self.positions,
            normals: self.normals,
            uvs: self.uvs,
            joints: self.joints,
            weights: self.weights,
            indices,
            subsets,
            corner_vertices: self.corners,
            clockwise: false,
            ..Mesh::default()
        };
        (mesh, materials)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corner(x: f32, w: f32) -> Corner {
        Corner {
            pos: [x, 0.0, 0.0],
            normal: [0.0, 0.0, 1.0],
            uv: [0.0, 0.0],
            joints: [0, 1, 0, 0],
            weights: [w, 1.0 - w, 0.0, 0.0],
        }
    }

    #[test]
    fn equal_corners_weld_and_different_weights_do_not() {
        let mut b = MeshBuilder::default();
        let m = b.material(b"skin");
        assert!(b.triangle(m, &[corner(0.0, 1.0), corner(1.0, 1.0), corner(2.0, 1.0)]));
        assert!(b.triangle(m, &[corner(-0.0, 1.0), corner(2.0, 1.0), corner(2.0, 0.5)]));
        let (mesh, materials) = b.finish("m");
        assert_eq!(mesh.vertex_count(), 4);
        assert_eq!(mesh.corner_vertices, vec![0, 1, 2, 0, 2, 3]);
        assert_eq!(materials.len(), 1);
    }

    #[test]
    fn materials_dedupe_and_subsets_group_by_material() {
        let mut b = MeshBuilder::default();
        let tri = [corner(0.0, 1.0), corner(1.0, 1.0), corner(2.0, 1.0)];
        for name in [&b"a"[..], b"b", b"a", b"b", b"a"] {
            let m = b.material(name);
            b.triangle(m, &tri);
        }
        let (mesh, materials) = b.finish("m");
        assert_eq!(materials.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(
            mesh.subsets,
            vec![
                Subset { material: 0, first_index: 0, index_count: 9 },
                Subset { material: 1, first_index: 9, index_count: 6 }
            ]
        );
        assert_eq!(mesh.validate(2), Ok(()));
    }

    #[test]
    fn corners_still_weld_after_the_table_outgrows_its_estimate() {
        // Sized for one vertex; 3,000 distinct corners make the id table grow many times (each growth rehashes
        // from the dense keys), then the same corners again must find the vertices already made.
        let mut b = MeshBuilder::with_block_size(400);
        let m = b.material(b"skin");
        let triangle = |t: usize| std::array::from_fn(|k| corner((3 * t + k) as f32, 1.0));
        for pass in 0..2 {
            for t in 0..1000 {
                assert!(b.triangle(m, &triangle(t)), "pass {pass}, triangle {t}");
            }
        }
        let (mesh, _) = b.finish("m");
        assert_eq!(mesh.vertex_count(), 3000);
        let (first, second) = mesh.corner_vertices.split_at(3000);
        assert_eq!(first, second);
        assert!(first.iter().enumerate().all(|(i, &v)| v as usize == i), "ids in first-use order");
        assert_eq!(mesh.positions[2999].x, 2999.0);
    }
}
