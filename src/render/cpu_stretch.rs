//! The stretch view on the data-texture palette path ([`super::PalettePath::DataTextures`]): devices without
//! compute shaders (WebGL2, GL adapters) cannot run `cs_skin`/`cs_stretch`, so the renderer skins each instance on
//! the CPU with the same maths (`anim::skin_mesh_morphed`, `anim::edges::vertex_stretch`: the references those
//! compute shaders are tested against) and uploads the ratios into the stretch array the vertex stage reads. Only
//! frames in the stretch view pay for it.

use std::ops::Range;

use glam::{Mat4, Vec3};

use crate::anim::edges::{unique_edges, vertex_stretch};
use crate::anim::{MorphLayout, skin_mesh_morphed};
use crate::scene::{Asset, Mesh};

/// What a model needs to measure its stretch on the CPU: each drawn mesh, where its render vertices start, its
/// morph targets' slots in an instance's weights, and its unique edges.
pub(crate) struct CpuStretchModel {
    meshes: Vec<StretchMesh>,
}

struct StretchMesh {
    mesh: Mesh,
    /// First render vertex of the mesh in the model (the GPU's vertex numbering).
    base: usize,
    /// The mesh's slots in an instance's morph weights.
    targets: Range<usize>,
    edges: Vec<[u32; 2]>,
}

impl CpuStretchModel {
    /// `mesh_bases`: each asset mesh's first render vertex, None for meshes not drawn.
    pub fn new(asset: &Asset, mesh_bases: &[Option<u32>]) -> Self {
        let layout = MorphLayout::of_meshes(&asset.meshes);
        let meshes = asset
            .meshes
            .iter()
            .zip(mesh_bases)
            .enumerate()
            .filter_map(|(m, (mesh, base))| {
                let base = (*base)? as usize;
                Some(StretchMesh {
                    edges: unique_edges(&mesh.indices, mesh.positions.len()),
                    mesh: mesh.clone(),
                    base,
                    targets: layout.mesh_range(m),
                })
            })
            .collect();
        Self { meshes }
    }

    /// Writes the model's per-vertex stretch ratios for one instance (its `palette` and morph `weights`) into
    /// `out`, indexed by render vertex. `scratch` keeps its buffers from call to call.
    pub fn ratios(&self, palette: &[Mat4], weights: &[f32], scratch: &mut CpuStretchScratch, out: &mut [f32]) {
        let CpuStretchScratch { positions, normals, ratios } = scratch;
        for m in &self.meshes {
            let mesh_weights = weights.get(m.targets.clone()).unwrap_or_default();
            skin_mesh_morphed(&m.mesh, palette, mesh_weights, positions, normals);
            vertex_stretch(&m.mesh.positions, positions, &m.edges, ratios);
            if let Some(slot) = out.get_mut(m.base..m.base + ratios.len()) {
                slot.copy_from_slice(ratios);
            }
        }
    }
}

/// The skinned positions, normals and ratios of one mesh, reused across meshes, instances and frames.
#[derive(Default)]
pub(crate) struct CpuStretchScratch {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    ratios: Vec<f32>,
}
