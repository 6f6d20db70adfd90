//! Skinned triangle meshes: render-ready vertex arrays (one entry per unique corner), four bone influences per
//! vertex, a u32 index buffer sorted into per-material subsets, optional morph targets and vertex animation.
//!
//! Positions and normals are in model space at the bind pose, in the file's frame.

use glam::{Vec2, Vec3};

use super::InfluenceReport;

/// A run of the index buffer drawn with one material (the D3DX attribute-table entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Subset {
    pub material: usize,
    pub first_index: u32,
    pub index_count: u32,
}

/// Sparse morph target: deltas for the listed vertices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MorphTarget {
    pub name: String,
    pub vertices: Vec<u32>,
    pub position_deltas: Vec<Vec3>,
    /// Empty when the file has none.
    pub normal_deltas: Vec<Vec3>,
    /// For a target made from [`Mesh::vertex_frames`], the frame's index (see
    /// [`super::vertex_animation`]); `None` for a target the file defines (a flex, a shape key).
    pub vertex_frame: Option<usize>,
}

/// One key mesh of vertex animation ("tweening"): full positions at a time in seconds. Played as morph targets:
/// [`super::vertex_animation::convert_vertex_animation`] turns the frames into targets and weight tracks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VertexFrame {
    pub time: f32,
    pub positions: Vec<Vec3>,
    /// Empty when the frame has none (the bind normals are used).
    pub normals: Vec<Vec3>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    pub name: String,
    pub positions: Vec<Vec3>,
    pub normals: Vec<Vec3>,
    /// Texture coordinates with the origin at the top-left of the image (the Direct3D, wgpu and glTF
    /// convention); loaders of formats with a bottom-left origin flip v.
    pub uvs: Vec<Vec2>,
    /// Further UV sets, each as long as `positions`.
    pub extra_uvs: Vec<Vec<Vec2>>,
    /// RGBA per vertex; empty when the file has none.
    pub colors: Vec<[u8; 4]>,
    /// Four bone indices per vertex; unused slots have weight 0.
    pub joints: Vec<[u16; 4]>,
    /// Four weights per vertex summing to 1.
    pub weights: Vec<[f32; 4]>,
    pub indices: Vec<u32>,
    pub subsets: Vec<Subset>,
    pub morph_targets: Vec<MorphTarget>,
    pub vertex_frames: Vec<VertexFrame>,
    /// For each triangle corner in the file's order, the vertex it was welded into. Kept by loaders whose
    /// companion files address corners (VTA vertex indices count the SMD's corners); empty otherwise.
    pub corner_vertices: Vec<u32>,
    /// True when the file's triangles wind clockwise seen from the front, in the file's frame.
    pub clockwise: bool,
    /// What the loader's influence reducer changed for this mesh's vertices (trimmed to four, renormalised,
    /// unweighted); all zero when the loader did not record it. Read by the rig diagnostics.
    pub influence_report: InfluenceReport,
}

impl Mesh {
    pub fn vertex_count(&self) -> usize {
        self.positions.len()
    }

    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    /// Recomputes smooth normals from the triangles (area weighted); for files without normals.
    pub fn compute_normals(&mut self) {
        let mut normals = vec![Vec3::ZERO; self.positions.len()];
        for tri in self.indices.chunks_exact(3) {
            let [a, b, c] = [tri[0] as usize, tri[1] as usize, tri[2] as usize];
            let (Some(pa), Some(pb), Some(pc)) = (self.positions.get(a), self.positions.get(b), self.positions.get(c))
            else {
                continue;
            };
            let mut n = (*pb - *pa).cross(*pc - *pa);
            if self.clockwise {
                n = -n;
            }
            for i in [a, b, c] {
                normals[i] += n;
            }
        }
        self.normals = normals.into_iter().map(|n| n.try_normalize().unwrap_or(Vec3::Y)).collect();
    }

    /// Checks that the per-vertex arrays agree and every index and subset is in range.
    pub fn validate(&self, bone_count: usize) -> Result<(), MeshError> {
        let n = self.positions.len();
        let mesh = || self.name.clone();
        let per_vertex = [
            ("normals", self.normals.len()),
            ("uvs", self.uvs.len()),
            ("joints", self.joints.len()),
            ("weights", self.weights.len()),
        ];
        for (what, len) in per_vertex {
            if len != n {
                return Err(MeshError::ArrayLength { mesh: mesh(), what, len, vertices: n });
            }
        }
        if !self.colors.is_empty() && self.colors.len() != n {
            return Err(MeshError::ArrayLength { mesh: mesh(), what: "colours", len: self.colors.len(), vertices: n });
        }
        if let Some(&index) = self.indices.iter().find(|&&i| i as usize >= n) {
            return Err(MeshError::IndexOutOfRange { mesh: mesh(), index, vertices: n });
        }
        for joints in &self.joints {
            if let Some(&bone) = joints.iter().find(|&&j| j as usize >= bone_count.max(1)) {
                return Err(MeshError::BoneOutOfRange { mesh: mesh(), bone, bones: bone_count });
            }
        }
        let covered: u64 = self.subsets.iter().map(|s| u64::from(s.index_count)).sum();
        if covered != self.indices.len() as u64 {
            return Err(MeshError::Subsets { mesh: mesh(), covered, indices: self.indices.len() });
        }
        Ok(())
    }
}

/// A mesh whose arrays disagree ([`Mesh::validate`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MeshError {
    #[error("mesh '{mesh}': {len} {what} for {vertices} vertices")]
    ArrayLength { mesh: String, what: &'static str, len: usize, vertices: usize },
    #[error("mesh '{mesh}': index {index} out of range ({vertices} vertices)")]
    IndexOutOfRange { mesh: String, index: u32, vertices: usize },
    #[error("mesh '{mesh}': bone {bone} out of range ({bones} bones)")]
    BoneOutOfRange { mesh: String, bone: u16, bones: usize },
    #[error("mesh '{mesh}': subsets cover {covered} of {indices} indices")]
    Subsets { mesh: String, covered: u64, indices: usize },
}
