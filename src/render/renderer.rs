//! The long-lived [`Renderer`]: pipelines, samplers, per-asset GPU models and the per-frame arrays (camera,
//! palettes, instances, active morph targets, stretch scratch). Work is split the way an egui paint callback needs it:
//! [`Renderer::prepare`] (uploads and compute, given a command encoder) and [`Renderer::paint`] (draws into a
//! render pass someone else began, `&self` only). The offscreen target uses the same two calls.
//!
//! One renderer with two palette paths ([`PalettePath`]): the per-frame arrays and morph tables are storage
//! buffers where the vertex stage can read them, and data textures elsewhere (WebGL2, GL adapters). The stretch
//! view's ratios come from compute passes on the first, from the CPU on the second (`cpu_stretch.rs`).

use std::mem::size_of;

use glam::{Mat4, Vec3};

use super::DEPTH_FORMAT;
use super::frame::{FrameData, ModelId, ShadingMode};
use super::gpu::{
    CameraGpu, FLAG_ENCODE_SRGB, INSTANCE_GHOST, InstanceGpu, MaterialGpu, MorphActiveGpu, SkinParamsGpu,
    SkinnedVertexGpu, mesh_vertex_layout,
};
use super::morph::push_active;
use super::overlay::OverlayRenderer;
use super::palette_path::{GpuArray, PalettePath};
use super::skinned::{
    CullVariant, ModelGpu, ModelInfo, SkinCompute, UploadContext, groups_for, morph_layout, uniform_entry, upload_asset,
};
use crate::scene::Asset;

/// Instances drawn together: one model, a run of the instance buffer.
#[derive(Clone, Copy, Debug)]
struct Batch {
    model: usize,
    /// Ghost instances are drawn as edges only (see `ModelInstance::ghost`).
    ghost: bool,
    /// Some instance has active morph targets: drawn with the morphing entry points.
    morphs: bool,
    first_instance: u32,
    count: u32,
}

pub struct Renderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    color_format: wgpu::TextureFormat,
    sample_count: u32,
    frame_layout: wgpu::BindGroupLayout,
    material_layout: wgpu::BindGroupLayout,
    /// The draw pipelines without the morph pass.
    pipelines: DrawPipelines,
    /// The same with the morph pass, made when the first model with morph targets is uploaded.
    morph_pipelines: Option<DrawPipelines>,
    pipeline_source: PipelineSource,
    /// Where the vertex stage reads palettes, instances and morph data from.
    path: PalettePath,
    morph_layout: wgpu::BindGroupLayout,
    /// The stretch view's compute passes and their scratch buffer (storage-buffer path only).
    stretch_compute: Option<StretchCompute>,
    sampler: wgpu::Sampler,
    white: wgpu::TextureView,
    /// Where [`Renderer::upload`] reads texture files from (the disk unless [`Renderer::set_files`] says).
    files: crate::files::Files,
    camera_buffer: wgpu::Buffer,
    palettes: GpuArray,
    instances: GpuArray,
    stretch: GpuArray,
    morph_active: GpuArray,
    frame_group: wgpu::BindGroup,
    camera_group: wgpu::BindGroup,
    /// Bumped whenever a buffer the compute bind groups reference is replaced.
    generation: u64,
    models: Vec<Option<ModelGpu>>,
    overlay: OverlayRenderer,
    backdrop: super::backdrop::Backdrop,
    batches: Vec<Batch>,
    wireframe: bool,
    cull: bool,
    /// Meshes not drawn this frame ([`FrameData::hidden_meshes`]).
    hidden_meshes: Vec<usize>,
    /// The skin family's material remap ([`FrameData::material_remap`]).
    material_remap: Vec<usize>,
    instance_scratch: Vec<InstanceGpu>,
    morph_scratch: Vec<MorphActiveGpu>,
    /// The frame's stretch ratios measured on the CPU (data-texture path, stretch view), and the buffers that
    /// measure them.
    cpu_stretch_scratch: Vec<f32>,
    cpu_stretch_buffers: super::cpu_stretch::CpuStretchScratch,
    order: Vec<usize>,
}

/// `cs_skin` and `cs_stretch` with the buffer they skin into.
struct StretchCompute {
    compute: SkinCompute,
    skinned: wgpu::Buffer,
}

/// The draw pipelines of one flavour (with or without the morph pass).
struct DrawPipelines {
    /// One pipeline, in a variant per [`CullVariant`] (indexed by `CullVariant::index`).
    fill: Vec<wgpu::RenderPipeline>,
    wire: wgpu::RenderPipeline,
    /// Additive materials (GoldSrc `STUDIO_NF_ADDITIVE`): the fill pipelines adding onto the target and leaving
    /// depth as it is, made when the first model with such a material is uploaded.
    additive: Option<Vec<wgpu::RenderPipeline>>,
}

/// What building draw pipelines takes, kept so the morphing flavour can be made when first needed (compiling
/// pipelines is slow on software drivers, and most assets have no morph targets).
struct PipelineSource {
    module: wgpu::ShaderModule,
    draw_layout: wgpu::PipelineLayout,
    wire_layout: wgpu::PipelineLayout,
    color_format: wgpu::TextureFormat,
    sample_count: u32,
}

impl PipelineSource {
    /// The fill pipelines (one per [`CullVariant`]) and the wireframe pipeline, with the morph pass or without.
    fn build(&self, device: &wgpu::Device, morph: bool) -> DrawPipelines {
        let vs_wire = if morph { "vs_wire_morph" } else { "vs_wire" };
        let lines = wgpu::PrimitiveState { topology: wgpu::PrimitiveTopology::LineList, ..Default::default() };
        let wire = self.pipeline(
            device,
            ("skinned wire", &self.wire_layout, vs_wire, "fs_wire"),
            lines,
            false,
            wgpu::CompareFunction::LessEqual,
            wgpu::BlendState::ALPHA_BLENDING,
        );
        DrawPipelines { fill: self.fill(device, morph, false), wire, additive: None }
    }

    /// The fill pipelines of additive materials (`src + dst`, depth tested but not written, as the engine draws
    /// them: `GL_ONE` blending, no depth mask).
    fn build_additive(&self, device: &wgpu::Device, morph: bool) -> Vec<wgpu::RenderPipeline> {
        self.fill(device, morph, true)
    }

    /// One fill pipeline per [`CullVariant`].
    fn fill(&self, device: &wgpu::Device, morph: bool, additive: bool) -> Vec<wgpu::RenderPipeline> {
        let vs_fill = if morph { "vs_main_morph" } else { "vs_main" };
        let add = wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::One,
            operation: wgpu::BlendOperation::Add,
        };
        let (label, depth_write, compare, blend) = if additive {
            ("skinned additive", false, wgpu::CompareFunction::LessEqual, wgpu::BlendState { color: add, alpha: add })
        } else {
            ("skinned", true, wgpu::CompareFunction::Less, wgpu::BlendState::ALPHA_BLENDING)
        };
        CullVariant::ALL
            .iter()
            .map(|variant| {
                let (front_face, cull_mode) = match variant {
                    CullVariant::BackCcw => (wgpu::FrontFace::Ccw, Some(wgpu::Face::Back)),
                    CullVariant::BackCw => (wgpu::FrontFace::Cw, Some(wgpu::Face::Back)),
                    CullVariant::None => (wgpu::FrontFace::Ccw, None),
                };
                let primitive = wgpu::PrimitiveState { front_face, cull_mode, ..Default::default() };
                self.pipeline(
                    device,
                    (label, &self.draw_layout, vs_fill, "fs_main"),
                    primitive,
                    depth_write,
                    compare,
                    blend,
                )
            })
            .collect()
    }

    /// A pipeline of `(label, layout, vertex entry, fragment entry)`.
    fn pipeline(
        &self,
        device: &wgpu::Device,
        (label, layout, vs, fs): (&str, &wgpu::PipelineLayout, &str, &str),
        primitive: wgpu::PrimitiveState,
        depth_write: bool,
        compare: wgpu::CompareFunction,
        blend: wgpu::BlendState,
    ) -> wgpu::RenderPipeline {
        let target = [Some(wgpu::ColorTargetState {
            format: self.color_format,
            blend: Some(blend),
            write_mask: wgpu::ColorWrites::ALL,
        })];
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(label),
            layout: Some(layout),
            vertex: wgpu::VertexState {
                module: &self.module,
                entry_point: Some(vs),
                compilation_options: Default::default(),
                buffers: &[Some(mesh_vertex_layout())],
            },
            primitive,
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(depth_write),
                depth_compare: Some(compare),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: wgpu::MultisampleState { count: self.sample_count, ..Default::default() },
            fragment: Some(wgpu::FragmentState {
                module: &self.module,
                entry_point: Some(fs),
                compilation_options: Default::default(),
                targets: &target,
            }),
            multiview_mask: None,
            cache: None,
        })
    }
}

/// A storage buffer of the stretch view's compute passes.
fn storage_buffer(device: &wgpu::Device, label: &str, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size.max(64),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

impl Renderer {
    /// Builds the pipelines for render passes with this colour format and sample count and a
    /// [`DEPTH_FORMAT`] depth attachment (eframe: `depth_buffer: 32`), on the palette path the device supports
    /// ([`PalettePath::for_device`]). A non-sRGB target gets sRGB-encoded output from the shaders, so colours look
    /// the same either way.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        color_format: wgpu::TextureFormat,
        sample_count: u32,
    ) -> Self {
        Self::with_palette_path(device, queue, color_format, sample_count, PalettePath::for_device(device))
    }

    /// [`Renderer::new`] on a chosen palette path (the data-texture path works on every device; tests compare
    /// the two on one).
    pub fn with_palette_path(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        color_format: wgpu::TextureFormat,
        sample_count: u32,
        path: PalettePath,
    ) -> Self {
        let vertex_fragment = wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT;
        let vs = wgpu::ShaderStages::VERTEX;
        let frame_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("frame"),
            entries: &[
                uniform_entry(0, vertex_fragment, size_of::<CameraGpu>() as u64),
                path.layout_entry(1, vs, size_of::<Mat4>() as u64),
                path.layout_entry(2, vs, size_of::<InstanceGpu>() as u64),
                path.layout_entry(3, vs, 4),
                path.layout_entry(4, vs, size_of::<MorphActiveGpu>() as u64),
            ],
        });
        let fs = wgpu::ShaderStages::FRAGMENT;
        let material_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("material"),
            entries: &[
                uniform_entry(0, fs, size_of::<MaterialGpu>() as u64),
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: fs,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: fs,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let camera_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("overlay camera"),
            entries: &[uniform_entry(0, vertex_fragment, size_of::<CameraGpu>() as u64)],
        });

        let module = path.shader_module(device);
        let stretch_compute = path.has_compute().then(|| StretchCompute {
            compute: SkinCompute::new(device, &module),
            skinned: storage_buffer(device, "skinned scratch", 64),
        });
        let morph_layout = match &stretch_compute {
            Some(c) => c.compute.morph_layout.clone(),
            None => morph_layout(device, path),
        };
        let draw_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("skinned"),
            bind_group_layouts: &[Some(&frame_layout), Some(&material_layout), Some(&morph_layout)],
            immediate_size: 0,
        });
        let wire_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("skinned wire"),
            bind_group_layouts: &[Some(&frame_layout), None, Some(&morph_layout)],
            immediate_size: 0,
        });
        let source = PipelineSource { module, draw_layout, wire_layout, color_format, sample_count };
        let pipelines = source.build(device, false);

        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("material"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            address_mode_w: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Linear,
            ..Default::default()
        });
        let white_image = super::textures::TextureImage {
            levels: vec![image::RgbaImage::from_pixel(1, 1, image::Rgba([255; 4]))],
            placeholder: false,
        };
        let white = super::textures::upload(device, queue, "white", &white_image);

        let camera_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("camera"),
            size: size_of::<CameraGpu>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let palettes = GpuArray::new(device, path, "palettes", 64 * 256);
        let instances = GpuArray::new(device, path, "instances", 144 * 16);
        let morph_active = GpuArray::new(device, path, "morph active", 8 * 64);
        let stretch = GpuArray::new(device, path, "stretch", 64);
        let camera_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("overlay camera"),
            layout: &camera_layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: camera_buffer.as_entire_binding() }],
        });
        let arrays = [&palettes, &instances, &stretch, &morph_active];
        let frame_group = Self::make_frame_group(device, &frame_layout, &camera_buffer, arrays);
        let overlay = OverlayRenderer::new(device, &camera_layout, color_format, DEPTH_FORMAT, sample_count);
        Self {
            device: device.clone(),
            queue: queue.clone(),
            color_format,
            sample_count,
            frame_layout,
            material_layout,
            pipelines,
            morph_pipelines: None,
            pipeline_source: source,
            path,
            morph_layout,
            stretch_compute,
            sampler,
            white,
            files: crate::files::Files::disk(),
            camera_buffer,
            palettes,
            instances,
            stretch,
            morph_active,
            frame_group,
            camera_group,
            generation: 0,
            models: Vec::new(),
            overlay,
            backdrop: super::backdrop::Backdrop::new(device, color_format, sample_count),
            batches: Vec::new(),
            wireframe: false,
            cull: true,
            hidden_meshes: Vec::new(),
            material_remap: Vec::new(),
            instance_scratch: Vec::new(),
            morph_scratch: Vec::new(),
            cpu_stretch_scratch: Vec::new(),
            cpu_stretch_buffers: Default::default(),
            order: Vec::new(),
        }
    }

    /// The frame's bind group: the camera, then the four per-frame arrays (palettes, instances, stretch ratios,
    /// active morphs) at bindings 1-4.
    fn make_frame_group(
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
        camera: &wgpu::Buffer,
        arrays: [&GpuArray; 4],
    ) -> wgpu::BindGroup {
        let mut entries = vec![wgpu::BindGroupEntry { binding: 0, resource: camera.as_entire_binding() }];
        entries.extend(
            (1..).zip(arrays).map(|(binding, array)| wgpu::BindGroupEntry { binding, resource: array.resource() }),
        );
        device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some("frame"), layout, entries: &entries })
    }

    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    pub fn color_format(&self) -> wgpu::TextureFormat {
        self.color_format
    }

    pub fn sample_count(&self) -> u32 {
        self.sample_count
    }

    /// Where the vertex stage reads the palettes from.
    pub fn palette_path(&self) -> PalettePath {
        self.path
    }

    /// Reads texture files through `files` from now on (the web page's dropped files).
    pub fn set_files(&mut self, files: crate::files::Files) {
        self.files = files;
    }

    /// Uploads an asset's meshes and materials (textures decoded now; missing ones become a checker and a
    /// warning in [`ModelInfo::warnings`]).
    pub fn upload(&mut self, asset: &Asset) -> ModelId {
        let cx = UploadContext {
            device: &self.device,
            queue: &self.queue,
            material_layout: &self.material_layout,
            sampler: &self.sampler,
            white: &self.white,
            files: &self.files,
            morph_layout: &self.morph_layout,
            path: self.path,
        };
        let model = upload_asset(&cx, asset);
        if model.info.morph_target_count > 0 && self.morph_pipelines.is_none() {
            self.morph_pipelines = Some(self.pipeline_source.build(&self.device, true));
        }
        if model.additive.iter().any(|a| *a) {
            if self.pipelines.additive.is_none() {
                self.pipelines.additive = Some(self.pipeline_source.build_additive(&self.device, false));
            }
            if let Some(morph) = self.morph_pipelines.as_mut().filter(|m| m.additive.is_none()) {
                morph.additive = Some(self.pipeline_source.build_additive(&self.device, true));
            }
        }
        let id = match self.models.iter().position(Option::is_none) {
            Some(free) => {
                self.models[free] = Some(model);
                free
            }
            None => {
                self.models.push(Some(model));
                self.models.len() - 1
            }
        };
        ModelId(id)
    }

    /// Frees a model's GPU buffers; its id may be reused by a later upload.
    pub fn remove(&mut self, id: ModelId) {
        if let Some(slot) = self.models.get_mut(id.0) {
            *slot = None;
        }
    }

    pub fn model_info(&self, id: ModelId) -> Option<&ModelInfo> {
        self.models.get(id.0).and_then(Option::as_ref).map(|m| &m.info)
    }

    /// Uploads the frame's constants, palettes, instances and overlays, and records the compute work the frame
    /// needs (stretch mode) into `encoder`. Instances of unknown or removed models are skipped.
    pub fn prepare(&mut self, encoder: &mut wgpu::CommandEncoder, frame: &FrameData) {
        let stretch = frame.shading == ShadingMode::Stretch;
        self.wireframe = frame.wireframe;
        self.cull = frame.cull_back_faces;
        self.hidden_meshes.clone_from(&frame.hidden_meshes);
        self.material_remap.clone_from(&frame.material_remap);

        // Group instances by model so each model is one batch of consecutive instances.
        self.order.clear();
        self.order.extend(
            (0..frame.instances.len())
                .filter(|&i| self.models.get(frame.instances[i].model.0).is_some_and(Option::is_some)),
        );
        self.order.sort_by_key(|&i| (frame.instances[i].model.0, frame.instances[i].ghost));
        self.instance_scratch.clear();
        self.morph_scratch.clear();
        self.cpu_stretch_scratch.clear();
        self.batches.clear();
        let palette_len = frame.palettes.len() as u32;
        let mut stretch_total: u64 = 0;
        for &i in &self.order {
            let instance = &frame.instances[i];
            let Some(model) = self.models.get(instance.model.0).and_then(Option::as_ref) else { continue };
            let index = self.instance_scratch.len() as u32;
            match self.batches.last_mut() {
                Some(b) if b.model == instance.model.0 && b.ghost == instance.ghost => b.count += 1,
                _ => self.batches.push(Batch {
                    model: instance.model.0,
                    ghost: instance.ghost,
                    morphs: false,
                    first_instance: index,
                    count: 1,
                }),
            }
            // A palette range past the end of the palettes is clamped (its bones then read as absent).
            let start = instance.palette_start.min(palette_len);
            let len = instance.palette_len.min(palette_len - start);
            let stretch_base = if stretch { stretch_total as u32 } else { 0 };
            // Only the non-zero weights of targets the model has go up (a range past the weights is clamped).
            let morph_base = self.morph_scratch.len() as u32;
            let weights = frame.morph_weights.get(instance.morph_start as usize..).unwrap_or_default();
            let weights = weights.get(..instance.morph_len as usize).unwrap_or(weights);
            if stretch {
                // Without compute shaders the ratios are measured here, on the CPU (cpu_stretch.rs).
                if let Some(cpu) = &model.cpu_stretch {
                    let from = self.cpu_stretch_scratch.len();
                    self.cpu_stretch_scratch.resize(from + model.info.vertex_count as usize, 1.0);
                    let palette = &frame.palettes[start as usize..(start + len) as usize];
                    cpu.ratios(palette, weights, &mut self.cpu_stretch_buffers, &mut self.cpu_stretch_scratch[from..]);
                }
                stretch_total += u64::from(model.info.vertex_count);
            }
            let morph_count = push_active(weights, model.info.morph_target_count, &mut self.morph_scratch);
            if let Some(batch) = self.batches.last_mut() {
                batch.morphs |= morph_count > 0;
            }
            self.instance_scratch.push(
                InstanceGpu::new(
                    instance.placement * model.to_viewer,
                    start,
                    len,
                    stretch_base,
                    if instance.ghost { INSTANCE_GHOST } else { 0 },
                )
                .with_morphs(morph_base, morph_count),
            );
        }

        let device = &self.device;
        let mut replaced = false;
        replaced |= self.palettes.ensure(device, "palettes", (frame.palettes.len() * 64) as u64);
        let instance_bytes = (self.instance_scratch.len() * size_of::<InstanceGpu>()) as u64;
        replaced |= self.instances.ensure(device, "instances", instance_bytes);
        let morph_bytes = (self.morph_scratch.len() * size_of::<MorphActiveGpu>()) as u64;
        replaced |= self.morph_active.ensure(device, "morph active", morph_bytes);
        if stretch {
            if let Some(compute) = &mut self.stretch_compute {
                let skinned_bytes = stretch_total * size_of::<SkinnedVertexGpu>() as u64;
                if compute.skinned.size() < skinned_bytes {
                    compute.skinned = storage_buffer(device, "skinned scratch", skinned_bytes.next_power_of_two());
                    self.generation += 1;
                }
            }
            replaced |= self.stretch.ensure(device, "stretch", stretch_total * 4);
        }
        if replaced {
            self.generation += 1;
            self.frame_group = Self::make_frame_group(
                device,
                &self.frame_layout,
                &self.camera_buffer,
                [&self.palettes, &self.instances, &self.stretch, &self.morph_active],
            );
        }

        let camera = self.camera_constants(frame);
        self.queue.write_buffer(&self.camera_buffer, 0, bytemuck::bytes_of(&camera));
        self.palettes.write(&self.queue, bytemuck::cast_slice(&frame.palettes));
        self.instances.write(&self.queue, bytemuck::cast_slice(&self.instance_scratch));
        self.morph_active.write(&self.queue, bytemuck::cast_slice(&self.morph_scratch));
        if stretch && stretch_total > 0 {
            if self.stretch_compute.is_some() {
                self.encode_stretch(encoder);
            } else {
                self.stretch.write(&self.queue, bytemuck::cast_slice(&self.cpu_stretch_scratch));
            }
        }
        self.overlay.prepare(&self.device, &self.queue, &frame.overlay);
        self.backdrop.prepare(&self.queue, frame.background);
    }

    /// Skins every instance into the scratch buffer and derives the per-vertex edge ratios from it (storage-buffer
    /// path: every array is a buffer there).
    fn encode_stretch(&mut self, encoder: &mut wgpu::CommandEncoder) {
        let Some(StretchCompute { compute, skinned }) = &self.stretch_compute else { return };
        let (Some(palettes), Some(instances), Some(morph_active), Some(stretch_out)) =
            (self.palettes.buffer(), self.instances.buffer(), self.morph_active.buffer(), self.stretch.buffer())
        else {
            return;
        };
        for batch in &self.batches {
            let Some(model) = self.models.get_mut(batch.model).and_then(Option::as_mut) else { continue };
            let Some(inputs) = &mut model.stretch else { continue };
            if model.info.vertex_count == 0 {
                continue;
            }
            let params = SkinParamsGpu {
                vertex_count: model.info.vertex_count,
                instance_base: batch.first_instance,
                _pad: [0; 2],
            };
            self.queue.write_buffer(&inputs.params, 0, bytemuck::bytes_of(&params));
            if inputs.compute_groups.as_ref().is_none_or(|(g, _, _)| *g != self.generation) {
                let skin = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("cs_skin"),
                    layout: &compute.skin_layout,
                    entries: &[
                        wgpu::BindGroupEntry { binding: 1, resource: palettes.as_entire_binding() },
                        wgpu::BindGroupEntry { binding: 2, resource: instances.as_entire_binding() },
                        wgpu::BindGroupEntry { binding: 4, resource: morph_active.as_entire_binding() },
                        wgpu::BindGroupEntry { binding: 10, resource: model.vertices.as_entire_binding() },
                        wgpu::BindGroupEntry { binding: 11, resource: skinned.as_entire_binding() },
                        wgpu::BindGroupEntry { binding: 12, resource: inputs.params.as_entire_binding() },
                    ],
                });
                let stretch = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("cs_stretch"),
                    layout: &compute.stretch_layout,
                    entries: &[
                        wgpu::BindGroupEntry { binding: 2, resource: instances.as_entire_binding() },
                        wgpu::BindGroupEntry { binding: 11, resource: skinned.as_entire_binding() },
                        wgpu::BindGroupEntry { binding: 12, resource: inputs.params.as_entire_binding() },
                        wgpu::BindGroupEntry { binding: 13, resource: inputs.adjacency.as_entire_binding() },
                        wgpu::BindGroupEntry { binding: 14, resource: inputs.rest_lengths.as_entire_binding() },
                        wgpu::BindGroupEntry { binding: 15, resource: stretch_out.as_entire_binding() },
                    ],
                });
                inputs.compute_groups = Some((self.generation, skin, stretch));
            }
            let Some((_, skin, stretch)) = &inputs.compute_groups else { continue };
            let groups = groups_for(model.info.vertex_count);
            let mut pass = encoder
                .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("stretch"), timestamp_writes: None });
            let skin_pipeline =
                if batch.morphs { compute.skin_morph_pipeline(&self.device) } else { &compute.skin_pipeline };
            pass.set_pipeline(skin_pipeline);
            pass.set_bind_group(0, skin, &[]);
            pass.set_bind_group(2, &model.morph_group, &[]);
            pass.dispatch_workgroups(groups, batch.count, 1);
            pass.set_pipeline(&compute.stretch_pipeline);
            pass.set_bind_group(0, stretch, &[]);
            pass.dispatch_workgroups(groups, batch.count, 1);
        }
    }

    fn camera_constants(&self, frame: &FrameData) -> CameraGpu {
        let cam = &frame.camera;
        // Key light from the upper left of the view, slightly towards the viewer, expressed in the viewer frame.
        let camera_to_world = cam.view.inverse();
        let light = camera_to_world.transform_vector3(Vec3::new(-0.45, 0.75, 0.55)).normalize_or(Vec3::Y);
        let [w, h] = [frame.viewport[0].max(1) as f32, frame.viewport[1].max(1) as f32];
        CameraGpu {
            view_proj: cam.view_projection().to_cols_array_2d(),
            view: cam.view.to_cols_array_2d(),
            eye: cam.eye.extend(1.0).to_array(),
            light_dir: light.extend(0.0).to_array(),
            viewport: [w, h, 1.0 / w, 1.0 / h],
            mode: frame.shading.code(),
            selected_bone: frame.selected_bone.map_or(u32::MAX, |b| b as u32),
            flags: if self.color_format.is_srgb() { 0 } else { FLAG_ENCODE_SRGB },
            stretch_range: frame.stretch_range,
            wire_color: frame.wire_color,
        }
    }

    /// The pipelines for a batch: with the morph pass when it has active targets (and the model was uploaded with
    /// targets, which made them).
    fn pipelines_for(&self, batch: &Batch) -> (&DrawPipelines, bool) {
        match &self.morph_pipelines {
            Some(morph) if batch.morphs => (morph, true),
            _ => (&self.pipelines, false),
        }
    }

    /// The material a draw of `material` uses this frame: the skin family's replacement, when it names one the
    /// model has.
    fn drawn_material(&self, model: &ModelGpu, material: usize) -> usize {
        self.material_remap.get(material).copied().filter(|m| *m < model.materials.len()).unwrap_or(material)
    }

    /// Draws the prepared frame: the background (when asked for), models (per material subset), wireframe, then overlays.
    pub fn paint(&self, pass: &mut wgpu::RenderPass<'_>) {
        self.backdrop.paint(pass);
        pass.set_bind_group(0, &self.frame_group, &[]);
        let mut current: Option<(usize, bool)> = None;
        for batch in &self.batches {
            let Some(model) = self.models.get(batch.model).and_then(Option::as_ref) else { continue };
            if model.draws.is_empty() || batch.ghost {
                continue;
            }
            pass.set_vertex_buffer(0, model.vertices.slice(..));
            pass.set_index_buffer(model.indices.slice(..), wgpu::IndexFormat::Uint32);
            pass.set_bind_group(2, &model.morph_group, &[]);
            let (pipelines, morphs) = self.pipelines_for(batch);
            let instances = batch.first_instance..batch.first_instance + batch.count;
            for draw in model.draws.iter().filter(|d| !self.hidden_meshes.contains(&d.mesh)) {
                let material = self.drawn_material(model, draw.material);
                if model.additive.get(material).copied().unwrap_or(false) {
                    continue;
                }
                let variant = if self.cull { draw.cull } else { CullVariant::None };
                if current != Some((variant.index(), morphs)) {
                    pass.set_pipeline(&pipelines.fill[variant.index()]);
                    current = Some((variant.index(), morphs));
                }
                let Some(material) = model.materials.get(material) else { continue };
                pass.set_bind_group(1, material, &[]);
                pass.draw_indexed(draw.first_index..draw.first_index + draw.index_count, 0, instances.clone());
            }
        }
        // Additive materials last, over everything opaque (HLAM sorts them after the solid meshes).
        for batch in &self.batches {
            let Some(model) = self.models.get(batch.model).and_then(Option::as_ref) else { continue };
            if batch.ghost || !model.additive.iter().any(|a| *a) {
                continue;
            }
            let (pipelines, _) = self.pipelines_for(batch);
            let Some(additive) = &pipelines.additive else { continue };
            pass.set_vertex_buffer(0, model.vertices.slice(..));
            pass.set_index_buffer(model.indices.slice(..), wgpu::IndexFormat::Uint32);
            pass.set_bind_group(2, &model.morph_group, &[]);
            let instances = batch.first_instance..batch.first_instance + batch.count;
            for draw in model.draws.iter().filter(|d| !self.hidden_meshes.contains(&d.mesh)) {
                let material = self.drawn_material(model, draw.material);
                if !model.additive.get(material).copied().unwrap_or(false) {
                    continue;
                }
                let variant = if self.cull { draw.cull } else { CullVariant::None };
                pass.set_pipeline(&additive[variant.index()]);
                let Some(material) = model.materials.get(material) else { continue };
                pass.set_bind_group(1, material, &[]);
                pass.draw_indexed(draw.first_index..draw.first_index + draw.index_count, 0, instances.clone());
            }
        }
        // Edges: every ghost batch, and the solid batches when the wireframe is on.
        if self.wireframe || self.batches.iter().any(|b| b.ghost) {
            for batch in &self.batches {
                let Some(model) = self.models.get(batch.model).and_then(Option::as_ref) else { continue };
                if model.edge_index_count == 0 || !(batch.ghost || self.wireframe) {
                    continue;
                }
                pass.set_pipeline(&self.pipelines_for(batch).0.wire);
                pass.set_vertex_buffer(0, model.vertices.slice(..));
                pass.set_index_buffer(model.edges.slice(..), wgpu::IndexFormat::Uint32);
                pass.set_bind_group(2, &model.morph_group, &[]);
                pass.draw_indexed(
                    0..model.edge_index_count,
                    0,
                    batch.first_instance..batch.first_instance + batch.count,
                );
            }
        }
        pass.set_bind_group(0, &self.camera_group, &[]);
        self.overlay.paint(pass);
    }
}
