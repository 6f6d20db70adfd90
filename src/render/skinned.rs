//! Skinned models on the GPU: per-asset buffers (all meshes of an asset in one vertex and one index buffer of
//! render vertex numbers, a wireframe edge list, vertex adjacency for the stretch view on the storage path, the
//! morph tables of `morph.rs` in one bind group, as buffers or data textures per [`PalettePath`]),
//! one bind group per material, the draw pipelines
//! (one pipeline, in a variant per face-culling rule) and the compute pipelines that run the same skinning
//! function as the vertex shader (`cs_skin`, `cs_stretch`). [`ComputeSkinner`] exposes `cs_skin` on its own so
//! tests can compare the GPU's skinning with [`crate::anim::skin_mesh`].
//!
//! Reads `scene` data; never changes it. Pose maths stays in `anim`: palettes arrive ready-made.

use std::mem::size_of;
use std::num::NonZeroU64;
use std::sync::OnceLock;

use glam::{Mat4, Vec3};
use wgpu::util::DeviceExt;

use crate::anim::edges::unique_edges;

use super::RenderError;
use super::gpu::{InstanceGpu, MaterialGpu, MeshVertex, MorphActiveGpu, SkinParamsGpu, SkinnedVertexGpu};
use super::morph::{MorphTables, push_active};
use super::palette_path::{GpuArray, PalettePath};
use super::textures;
use crate::scene::Bounds;
use crate::scene::{AlphaMode, Asset, Material, Mesh};

/// Compute workgroup size of `cs_skin` / `cs_stretch` (the `@workgroup_size` in the shader).
pub const WORKGROUP: u32 = 64;

/// Largest number of workgroups dispatched along x; the shaders stride over the rest.
const MAX_GROUPS_X: u32 = 4096;

/// Which triangles are culled, from the format's winding and the material.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CullVariant {
    /// Front faces wind counter-clockwise on screen; back faces culled.
    BackCcw,
    /// Front faces wind clockwise on screen (clockwise files, or a mirroring axis conversion); back faces culled.
    BackCw,
    /// Two-sided: nothing culled, back faces lit from their side.
    None,
}

impl CullVariant {
    pub const ALL: [CullVariant; 3] = [CullVariant::BackCcw, CullVariant::BackCw, CullVariant::None];

    /// The rule for a mesh: a clockwise file and a mirroring conversion each flip the on-screen winding.
    pub fn for_mesh(clockwise: bool, mirrors: bool, two_sided: bool) -> Self {
        if two_sided {
            CullVariant::None
        } else if clockwise != mirrors {
            CullVariant::BackCw
        } else {
            CullVariant::BackCcw
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

pub(crate) fn storage_entry(
    binding: u32,
    visibility: wgpu::ShaderStages,
    read_only: bool,
    min: u64,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: NonZeroU64::new(min),
        },
        count: None,
    }
}

pub(crate) fn uniform_entry(binding: u32, visibility: wgpu::ShaderStages, size: u64) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: NonZeroU64::new(size),
        },
        count: None,
    }
}

/// Layout of a model's morph tables (group 2 of the draw and, on the storage path, of `cs_skin`).
pub(crate) fn morph_layout(device: &wgpu::Device, path: PalettePath) -> wgpu::BindGroupLayout {
    let stages = if path.has_compute() {
        wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::COMPUTE
    } else {
        wgpu::ShaderStages::VERTEX
    };
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("morph tables"),
        entries: &[path.layout_entry(0, stages, 4), path.layout_entry(1, stages, 4)],
    })
}

/// The compute side of skinned.wgsl (storage-buffer path only): layouts and pipelines of `cs_skin`,
/// `cs_skin_morph` (made when first needed) and `cs_stretch`, and the morph-table layout the draw shares.
pub struct SkinCompute {
    pub skin_layout: wgpu::BindGroupLayout,
    pub stretch_layout: wgpu::BindGroupLayout,
    pub morph_layout: wgpu::BindGroupLayout,
    pub skin_pipeline: wgpu::ComputePipeline,
    pub stretch_pipeline: wgpu::ComputePipeline,
    skin_morph: OnceLock<wgpu::ComputePipeline>,
    skin_pipeline_layout: wgpu::PipelineLayout,
    module: wgpu::ShaderModule,
}

impl SkinCompute {
    pub fn new(device: &wgpu::Device, module: &wgpu::ShaderModule) -> Self {
        let cs = wgpu::ShaderStages::COMPUTE;
        let mat = size_of::<Mat4>() as u64;
        let inst = size_of::<InstanceGpu>() as u64;
        let skinned = size_of::<SkinnedVertexGpu>() as u64;
        let params = size_of::<SkinParamsGpu>() as u64;
        let skin_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("cs_skin"),
            entries: &[
                storage_entry(1, cs, true, mat),
                storage_entry(2, cs, true, inst),
                storage_entry(4, cs, true, size_of::<MorphActiveGpu>() as u64),
                storage_entry(10, cs, true, size_of::<MeshVertex>() as u64),
                storage_entry(11, cs, false, skinned),
                uniform_entry(12, cs, params),
            ],
        });
        let stretch_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("cs_stretch"),
            entries: &[
                storage_entry(2, cs, true, inst),
                storage_entry(11, cs, false, skinned),
                uniform_entry(12, cs, params),
                storage_entry(13, cs, true, 4),
                storage_entry(14, cs, true, 4),
                storage_entry(15, cs, false, 4),
            ],
        });
        let morph_layout = morph_layout(device, PalettePath::StorageBuffers);
        let layout = |layouts: &[Option<&wgpu::BindGroupLayout>], label: &str| {
            device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(label),
                bind_group_layouts: layouts,
                immediate_size: 0,
            })
        };
        let skin_pipeline_layout = layout(&[Some(&skin_layout), None, Some(&morph_layout)], "cs_skin");
        let stretch_pipeline_layout = layout(&[Some(&stretch_layout)], "cs_stretch");
        let skin_pipeline = compute_pipeline(device, module, &skin_pipeline_layout, "cs_skin");
        let stretch_pipeline = compute_pipeline(device, module, &stretch_pipeline_layout, "cs_stretch");
        Self {
            skin_layout,
            stretch_layout,
            morph_layout,
            skin_pipeline,
            stretch_pipeline,
            skin_morph: OnceLock::new(),
            skin_pipeline_layout,
            module: module.clone(),
        }
    }

    /// `cs_skin_morph`: morphs, then skins (same bindings as `cs_skin`, plus the model's morph tables).
    pub fn skin_morph_pipeline(&self, device: &wgpu::Device) -> &wgpu::ComputePipeline {
        self.skin_morph
            .get_or_init(|| compute_pipeline(device, &self.module, &self.skin_pipeline_layout, "cs_skin_morph"))
    }
}

fn compute_pipeline(
    device: &wgpu::Device,
    module: &wgpu::ShaderModule,
    layout: &wgpu::PipelineLayout,
    entry: &str,
) -> wgpu::ComputePipeline {
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(entry),
        layout: Some(layout),
        module,
        entry_point: Some(entry),
        compilation_options: Default::default(),
        cache: None,
    })
}

/// Workgroups along x for `vertex_count` vertices (the shaders stride past `MAX_GROUPS_X * WORKGROUP`).
pub fn groups_for(vertex_count: u32) -> u32 {
    vertex_count.div_ceil(WORKGROUP).clamp(1, MAX_GROUPS_X)
}

/// Builds the render vertices of one mesh (white when the file has no colours; missing arrays get neutral values so
/// a mesh that passed validation but lacks e.g. UVs still draws), each with its dominant bone's colour of `bones`.
pub fn mesh_vertices(mesh: &Mesh, bones: &super::ramps::BoneColors) -> Vec<MeshVertex> {
    (0..mesh.positions.len())
        .map(|i| {
            let joints = mesh.joints.get(i).copied().unwrap_or([0; 4]);
            let weights = mesh.weights.get(i).copied().unwrap_or([1.0, 0.0, 0.0, 0.0]);
            MeshVertex {
                position: mesh.positions[i].to_array(),
                color: mesh.colors.get(i).copied().unwrap_or([255; 4]),
                normal: mesh.normals.get(i).copied().unwrap_or(Vec3::Y).to_array(),
                bone_color: bones.rgba8(usize::from(super::ramps::dominant(joints, weights))),
                uv: mesh.uvs.get(i).map(|uv| uv.to_array()).unwrap_or([0.0; 2]),
                joints,
                weights,
            }
        })
        .collect()
}

/// Vertex adjacency in the CSR form `cs_stretch` reads: `vertex_count + 1` offsets followed by the neighbour
/// indices, and the bind-pose length of each listed edge.
pub fn adjacency(vertex_count: usize, edges: &[[u32; 2]], positions: &[Vec3]) -> (Vec<u32>, Vec<f32>) {
    let mut degree = vec![0u32; vertex_count + 1];
    for [a, b] in edges {
        degree[*a as usize] += 1;
        degree[*b as usize] += 1;
    }
    let mut offsets = Vec::with_capacity(vertex_count + 1);
    let mut total = 0u32;
    for d in &degree[..vertex_count] {
        offsets.push(total);
        total += d;
    }
    offsets.push(total);
    let mut fill = offsets.clone();
    let mut neighbours = vec![0u32; total as usize];
    let mut rest = vec![0f32; total as usize];
    for [a, b] in edges {
        let length = positions[*a as usize].distance(positions[*b as usize]);
        for (from, to) in [(*a, *b), (*b, *a)] {
            let slot = fill[from as usize] as usize;
            neighbours[slot] = to;
            rest[slot] = length;
            fill[from as usize] += 1;
        }
    }
    let mut csr = offsets;
    csr.extend_from_slice(&neighbours);
    (csr, rest)
}

/// One indexed draw of a material subset.
#[derive(Clone, Copy, Debug)]
pub struct DrawRange {
    /// The asset mesh the range draws (for hiding meshes, e.g. body-group choices not shown).
    pub mesh: usize,
    pub material: usize,
    /// The range in the model's index buffer, whose indices are render vertex numbers (no base vertex: WebGL2
    /// has none).
    pub first_index: u32,
    pub index_count: u32,
    pub cull: CullVariant,
}

/// What uploading an asset found, for the UI's diagnostics and the CLI's warnings.
#[derive(Clone, Debug, Default)]
pub struct ModelInfo {
    pub name: String,
    pub vertex_count: u32,
    pub triangle_count: u32,
    pub bone_count: u32,
    /// Bind-pose bounds in the viewer frame.
    pub bind_bounds: Bounds,
    /// Morph targets over all meshes (the length of an instance's weight slice).
    pub morph_target_count: u32,
    /// Delta entries of the morph tables (moved vertices over all targets).
    pub morph_entries: u32,
    /// Missing textures, meshes skipped as invalid, subsets naming unknown materials.
    pub warnings: Vec<String>,
}

/// GPU buffers of one uploaded asset.
pub struct ModelGpu {
    pub info: ModelInfo,
    pub to_viewer: Mat4,
    pub(crate) vertices: wgpu::Buffer,
    pub(crate) indices: wgpu::Buffer,
    pub(crate) edges: wgpu::Buffer,
    pub(crate) edge_index_count: u32,
    pub(crate) draws: Vec<DrawRange>,
    pub(crate) materials: Vec<wgpu::BindGroup>,
    /// Per material (as `materials`): drawn additively, after everything opaque.
    pub(crate) additive: Vec<bool>,
    /// What the stretch view's compute passes read (storage-buffer path only).
    pub(crate) stretch: Option<StretchInputs>,
    /// What the stretch view measures on the CPU instead (data-texture path only).
    pub(crate) cpu_stretch: Option<super::cpu_stretch::CpuStretchModel>,
    /// The model's morph tables (group 2); tiny placeholder arrays when it has no targets.
    pub(crate) morph_group: wgpu::BindGroup,
}

/// A model's inputs to `cs_skin` and `cs_stretch`.
pub(crate) struct StretchInputs {
    pub adjacency: wgpu::Buffer,
    pub rest_lengths: wgpu::Buffer,
    /// `SkinParams` of this model's dispatches (vertex count, first instance).
    pub params: wgpu::Buffer,
    /// Compute bind groups for the current scratch buffers, and the scratch generation they were made for.
    pub compute_groups: Option<(u64, wgpu::BindGroup, wgpu::BindGroup)>,
}

fn buffer_init(device: &wgpu::Device, label: &str, contents: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
    // Zero-sized bindings are invalid; an empty model keeps 16 bytes of zeros.
    let padded;
    let contents = if contents.is_empty() {
        padded = [0u8; 16];
        &padded[..]
    } else {
        contents
    };
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
}

/// Linear-space material colour and UV transform; the texture multiplies a white base (loaders' diffuse colours
/// for textured materials are usually a tint meant for the untextured preview).
fn material_constants(material: &Material, textured: bool) -> MaterialGpu {
    let srgb = |c: f32| if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) };
    let d = material.diffuse;
    let color = if textured { [1.0, 1.0, 1.0, d[3]] } else { [srgb(d[0]), srgb(d[1]), srgb(d[2]), d[3]] };
    use super::gpu::{MATERIAL_ADDITIVE, MATERIAL_CHROME, MATERIAL_FLAT, MATERIAL_FULLBRIGHT, MATERIAL_MASKED};
    let (mut flags, mut alpha_cutoff) = (0, 0.0);
    match material.alpha {
        AlphaMode::Opaque => {}
        AlphaMode::Mask { cutoff } => {
            flags |= MATERIAL_MASKED;
            alpha_cutoff = cutoff;
        }
        AlphaMode::Additive => flags |= MATERIAL_ADDITIVE,
    }
    for (on, bit) in [
        (material.chrome, MATERIAL_CHROME),
        (material.flat_shade, MATERIAL_FLAT),
        (material.fullbright, MATERIAL_FULLBRIGHT),
    ] {
        if on {
            flags |= bit;
        }
    }
    MaterialGpu {
        color,
        uv_transform: [material.uv_offset[0], material.uv_offset[1], material.uv_tiling[0], material.uv_tiling[1]],
        has_texture: u32::from(textured),
        flags,
        alpha_cutoff,
        _pad: 0,
    }
}

/// Everything `upload` needs from the renderer.
pub(crate) struct UploadContext<'a> {
    pub device: &'a wgpu::Device,
    pub queue: &'a wgpu::Queue,
    pub material_layout: &'a wgpu::BindGroupLayout,
    pub sampler: &'a wgpu::Sampler,
    /// 1×1 white texture bound for untextured materials.
    pub white: &'a wgpu::TextureView,
    /// Where texture files are read from.
    pub files: &'a crate::files::Files,
    pub morph_layout: &'a wgpu::BindGroupLayout,
    pub path: PalettePath,
}

pub(crate) fn upload_asset(cx: &UploadContext<'_>, asset: &Asset) -> ModelGpu {
    let device = cx.device;
    let mut info = ModelInfo {
        name: asset
            .path
            .as_ref()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| asset.kind().to_owned()),
        bone_count: asset.skeleton.len() as u32,
        ..ModelInfo::default()
    };
    let mirrors = asset.axes.mirrors();
    let default_material = asset.materials.len();
    let bone_colors = super::ramps::BoneColors::of(asset);
    let mut vertices: Vec<MeshVertex> = Vec::new();
    let mut positions: Vec<Vec3> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    let mut draws = Vec::new();
    // Each mesh's first render vertex, or None when it is not drawn (its morph targets keep their numbers).
    let mut mesh_bases: Vec<Option<u32>> = Vec::with_capacity(asset.meshes.len());
    for (mesh_index, mesh) in asset.meshes.iter().enumerate() {
        mesh_bases.push(None);
        if let Err(e) = mesh.validate(asset.skeleton.len()) {
            info.warnings.push(format!("not drawn: {e}"));
            continue;
        }
        if mesh.positions.is_empty() || mesh.indices.len() < 3 {
            continue;
        }
        let base = vertices.len() as u32;
        if let Some(slot) = mesh_bases.last_mut() {
            *slot = Some(base);
        }
        vertices.extend(mesh_vertices(mesh, &bone_colors));
        positions.extend_from_slice(&mesh.positions);
        let first = indices.len() as u32;
        indices.extend(mesh.indices.iter().map(|i| i + base));
        for subset in &mesh.subsets {
            let material = if subset.material < asset.materials.len() {
                subset.material
            } else {
                info.warnings.push(format!(
                    "mesh '{}': subset uses material {} of {}; drawn with a neutral material",
                    mesh.name,
                    subset.material,
                    asset.materials.len()
                ));
                default_material
            };
            let two_sided = asset.materials.get(material).is_some_and(|m| m.two_sided);
            // Whole triangles only: a subset that ends mid-triangle would shift every later one.
            let count = subset.index_count - subset.index_count % 3;
            if count == 0 {
                continue;
            }
            draws.push(DrawRange {
                mesh: mesh_index,
                material,
                first_index: first + subset.first_index,
                index_count: count,
                cull: CullVariant::for_mesh(mesh.clockwise, mirrors, two_sided),
            });
        }
    }
    info.vertex_count = vertices.len() as u32;
    info.triangle_count = draws.iter().map(|d| d.index_count / 3).sum();
    info.bind_bounds = Bounds::from_points(positions.iter().map(|p| asset.axes.to_viewer.transform_point3(*p)));

    let morphs = MorphTables::build(asset.meshes.iter().zip(mesh_bases.iter().copied()), cx.path.budget(device));
    if !morphs.dropped.is_empty() {
        info.warnings.push(format!(
            "{} morph target(s) not drawn: the morph tables would pass the GPU's buffer or texture size limit ({})",
            morphs.dropped.len(),
            morphs.dropped.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    info.morph_target_count = morphs.target_count();
    info.morph_entries = u32::try_from(morphs.entry_count()).unwrap_or(u32::MAX);
    let morph_group = morph_group(device, cx.queue, cx.path, cx.morph_layout, &morphs);

    let edges = unique_edges(&indices, vertices.len());
    let edge_indices: Vec<u32> = edges.iter().flatten().copied().collect();
    let stretch = cx.path.has_compute().then(|| {
        let (csr, rest) = adjacency(vertices.len(), &edges, &positions);
        let storage = wgpu::BufferUsages::STORAGE;
        StretchInputs {
            adjacency: buffer_init(device, "model adjacency", bytemuck::cast_slice(&csr), storage),
            rest_lengths: buffer_init(device, "model rest lengths", bytemuck::cast_slice(&rest), storage),
            params: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("skin params"),
                size: size_of::<SkinParamsGpu>() as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
            compute_groups: None,
        }
    });

    // The compute passes read the vertex buffer as storage too (storage-buffer path).
    let vertex_usage = if cx.path.has_compute() {
        wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::STORAGE
    } else {
        wgpu::BufferUsages::VERTEX
    };
    let index_usage = wgpu::BufferUsages::INDEX;

    // One bind group per material (plus the neutral one for out-of-range subsets).
    let mut materials = Vec::with_capacity(asset.materials.len() + 1);
    let neutral = Material::named("(neutral)");
    for (i, material) in asset.materials.iter().chain(std::iter::once(&neutral)).enumerate() {
        let (view, textured) = match &material.texture {
            Some(texture) => {
                let max = device.limits().max_texture_dimension_2d;
                let (image, warning) = textures::load_texture(cx.files, texture, max);
                if let Some(w) = warning {
                    info.warnings.push(format!("material '{}': {w}", material.name));
                }
                (Some(textures::upload(device, cx.queue, &material.name, &image)), true)
            }
            None => (None, false),
        };
        let constants = material_constants(material, textured);
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("material"),
            contents: bytemuck::bytes_of(&constants),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let view = view.as_ref().unwrap_or(cx.white);
        materials.push(device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(if i == default_material { "neutral material" } else { "material" }),
            layout: cx.material_layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(view) },
                wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::Sampler(cx.sampler) },
            ],
        }));
    }

    ModelGpu {
        to_viewer: asset.axes.to_viewer,
        vertices: buffer_init(device, "model vertices", bytemuck::cast_slice(&vertices), vertex_usage),
        indices: buffer_init(device, "model indices", bytemuck::cast_slice(&indices), index_usage),
        edges: buffer_init(device, "model edges", bytemuck::cast_slice(&edge_indices), index_usage),
        edge_index_count: edge_indices.len() as u32,
        draws,
        additive: asset.materials.iter().map(|m| m.alpha == AlphaMode::Additive).chain([false]).collect(),
        materials,
        stretch,
        cpu_stretch: (!cx.path.has_compute()).then(|| super::cpu_stretch::CpuStretchModel::new(asset, &mesh_bases)),
        morph_group,
        info,
    }
}

/// Uploads morph tables and binds them (group 2).
fn morph_group(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    path: PalettePath,
    layout: &wgpu::BindGroupLayout,
    tables: &MorphTables,
) -> wgpu::BindGroup {
    let index = GpuArray::with_contents(device, queue, path, "morph index", bytemuck::cast_slice(&tables.index));
    let deltas = GpuArray::with_contents(device, queue, path, "morph deltas", bytemuck::cast_slice(&tables.deltas));
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("morph tables"),
        layout,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: index.resource() },
            wgpu::BindGroupEntry { binding: 1, resource: deltas.resource() },
        ],
    })
}

/// Vertex stretch ([`crate::anim::edges`]) of a skinned mesh on the CPU: the reference for `cs_stretch`.
pub fn stretch_ratios_cpu(mesh: &Mesh, palette: &[Mat4]) -> Vec<f32> {
    let (mut skinned, mut normals) = (Vec::new(), Vec::new());
    crate::anim::skin_mesh(mesh, palette, &mut skinned, &mut normals);
    let edges = unique_edges(&mesh.indices, mesh.positions.len());
    let mut out = Vec::new();
    crate::anim::edges::vertex_stretch(&mesh.positions, &skinned, &edges, &mut out);
    out
}

/// Runs the compute entry points on one mesh with one palette and reads the results back: the GPU half of the
/// GPU-vs-CPU checks. Positions and normals come back in the file's frame, like [`crate::anim::skin_mesh`].
pub struct ComputeSkinner {
    device: wgpu::Device,
    queue: wgpu::Queue,
    compute: SkinCompute,
}

/// What [`ComputeSkinner`] computed.
struct ComputeResult {
    skinned: Vec<SkinnedVertexGpu>,
    stretch: Vec<f32>,
}

impl ComputeSkinner {
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        let module = PalettePath::StorageBuffers.shader_module(device);
        Self { device: device.clone(), queue: queue.clone(), compute: SkinCompute::new(device, &module) }
    }

    /// Skins `mesh` with `palette` on the GPU (`cs_skin`).
    pub fn skin(&self, mesh: &Mesh, palette: &[Mat4]) -> Result<(Vec<Vec3>, Vec<Vec3>), RenderError> {
        self.skin_morphed(mesh, palette, &[])
    }

    /// Morphs `mesh` with `morph_weights` (one per target) and skins it with `palette` on the GPU (`cs_skin`):
    /// the GPU twin of [`crate::anim::skin_mesh_morphed`].
    pub fn skin_morphed(
        &self,
        mesh: &Mesh,
        palette: &[Mat4],
        morph_weights: &[f32],
    ) -> Result<(Vec<Vec3>, Vec<Vec3>), RenderError> {
        let r = self.run(mesh, palette, morph_weights, false)?;
        let positions = r.skinned.iter().map(|v| Vec3::new(v.position[0], v.position[1], v.position[2])).collect();
        let normals = r.skinned.iter().map(|v| Vec3::new(v.normal[0], v.normal[1], v.normal[2])).collect();
        Ok((positions, normals))
    }

    /// Per-vertex edge-length ratios on the GPU (`cs_skin` then `cs_stretch`), as the stretch view shows them.
    pub fn stretch(&self, mesh: &Mesh, palette: &[Mat4]) -> Result<Vec<f32>, RenderError> {
        Ok(self.run(mesh, palette, &[], true)?.stretch)
    }

    fn run(
        &self,
        mesh: &Mesh,
        palette: &[Mat4],
        morph_weights: &[f32],
        with_stretch: bool,
    ) -> Result<ComputeResult, RenderError> {
        let device = &self.device;
        let count = mesh.positions.len();
        if count == 0 {
            return Ok(ComputeResult { skinned: Vec::new(), stretch: Vec::new() });
        }
        mesh.validate(usize::MAX)?;
        let vertices = mesh_vertices(mesh, &super::ramps::BoneColors::default());
        let palette_data: Vec<Mat4> = if palette.is_empty() { vec![Mat4::IDENTITY] } else { palette.to_vec() };
        let path = PalettePath::StorageBuffers;
        let tables = MorphTables::build([(mesh, Some(0))], path.budget(device));
        let mut active = Vec::new();
        let active_count = push_active(morph_weights, tables.target_count(), &mut active);
        if active.is_empty() {
            active.push(MorphActiveGpu::default());
        }
        let morph_group = morph_group(device, &self.queue, path, &self.compute.morph_layout, &tables);
        let instance = InstanceGpu::new(Mat4::IDENTITY, 0, palette.len() as u32, 0, 0).with_morphs(0, active_count);
        let params = SkinParamsGpu { vertex_count: count as u32, instance_base: 0, _pad: [0; 2] };
        let storage = wgpu::BufferUsages::STORAGE;
        let vertex_buffer = buffer_init(device, "cs vertices", bytemuck::cast_slice(&vertices), storage);
        let palette_buffer = buffer_init(device, "cs palette", bytemuck::cast_slice(&palette_data), storage);
        let instance_buffer = buffer_init(device, "cs instance", bytemuck::bytes_of(&instance), storage);
        let params_buffer = buffer_init(device, "cs params", bytemuck::bytes_of(&params), wgpu::BufferUsages::UNIFORM);
        let active_buffer = buffer_init(device, "cs morph active", bytemuck::cast_slice(&active), storage);
        let output = |label: &str, size: u64| {
            let gpu = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            });
            let readback = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            (gpu, readback)
        };
        let skinned_size = (count * size_of::<SkinnedVertexGpu>()) as u64;
        let stretch_size = (count * size_of::<f32>()) as u64;
        let (skinned, skinned_readback) = output("cs skinned", skinned_size);
        let (stretch, stretch_readback) = output("cs stretch", stretch_size);
        let skin_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("cs_skin"),
            layout: &self.compute.skin_layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 1, resource: palette_buffer.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 2, resource: instance_buffer.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 4, resource: active_buffer.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 10, resource: vertex_buffer.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 11, resource: skinned.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 12, resource: params_buffer.as_entire_binding() },
            ],
        });
        let edges = unique_edges(&mesh.indices, count);
        let (csr, rest) = adjacency(count, &edges, &mesh.positions);
        let adjacency_buffer = buffer_init(device, "cs adjacency", bytemuck::cast_slice(&csr), storage);
        let rest_buffer = buffer_init(device, "cs rest lengths", bytemuck::cast_slice(&rest), storage);
        let stretch_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("cs_stretch"),
            layout: &self.compute.stretch_layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 2, resource: instance_buffer.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 11, resource: skinned.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 12, resource: params_buffer.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 13, resource: adjacency_buffer.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 14, resource: rest_buffer.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 15, resource: stretch.as_entire_binding() },
            ],
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("compute") });
        {
            let mut pass = encoder
                .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("compute"), timestamp_writes: None });
            let groups = groups_for(count as u32);
            let skin_pipeline =
                if active_count > 0 { self.compute.skin_morph_pipeline(device) } else { &self.compute.skin_pipeline };
            pass.set_pipeline(skin_pipeline);
            pass.set_bind_group(0, &skin_group, &[]);
            pass.set_bind_group(2, &morph_group, &[]);
            pass.dispatch_workgroups(groups, 1, 1);
            if with_stretch {
                pass.set_pipeline(&self.compute.stretch_pipeline);
                pass.set_bind_group(0, &stretch_group, &[]);
                pass.dispatch_workgroups(groups, 1, 1);
            }
        }
        encoder.copy_buffer_to_buffer(&skinned, 0, &skinned_readback, 0, skinned_size);
        if with_stretch {
            encoder.copy_buffer_to_buffer(&stretch, 0, &stretch_readback, 0, stretch_size);
        }
        self.queue.submit([encoder.finish()]);
        let bytes = super::offscreen::read_buffer(device, &skinned_readback)?;
        let skinned = bytemuck::pod_collect_to_vec(&bytes);
        let stretch = if with_stretch {
            bytemuck::pod_collect_to_vec(&super::offscreen::read_buffer(device, &stretch_readback)?)
        } else {
            Vec::new()
        };
        Ok(ComputeResult { skinned, stretch })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winding_rule_flips_for_clockwise_files_and_mirrors() {
        assert_eq!(CullVariant::for_mesh(false, false, false), CullVariant::BackCcw);
        assert_eq!(CullVariant::for_mesh(true, false, false), CullVariant::BackCw);
        assert_eq!(CullVariant::for_mesh(false, true, false), CullVariant::BackCw);
        assert_eq!(CullVariant::for_mesh(true, true, false), CullVariant::BackCcw);
        assert_eq!(CullVariant::for_mesh(true, false, true), CullVariant::None);
    }

    #[test]
    fn adjacency_of_a_quad() {
        // Two triangles sharing the diagonal 0–2 of a unit square.
        let positions = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y];
        let edges = unique_edges(&[0, 1, 2, 0, 2, 3], 4);
        assert_eq!(edges, vec![[0, 1], [0, 2], [0, 3], [1, 2], [2, 3]]);
        let (csr, rest) = adjacency(4, &edges, &positions);
        // Degrees 3, 2, 3, 2 → offsets 0, 3, 5, 8, 10.
        assert_eq!(&csr[..5], &[0, 3, 5, 8, 10]);
        let neighbours_of_0: Vec<u32> = csr[5..8].to_vec();
        assert_eq!(neighbours_of_0, vec![1, 2, 3]);
        assert!((rest[1] - 2f32.sqrt()).abs() < 1e-6);
        assert_eq!(rest.len(), 10);
    }
}
