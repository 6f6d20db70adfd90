//! Flat rectangles of the viewer's UI (the timeline's lanes, the status strip) drawn by one flat pipeline as egui
//! paint callbacks, instead of through egui's fill shader.
//!
//! Why: egui fills every shape with one textured, alpha-blended shader that a CPU rasteriser (lavapipe, llvmpipe)
//! runs at a few million pixels a second, so large flat areas cost it tens of milliseconds a frame; this pipeline
//! writes a constant (`shaders/backdrop.wgsl`) and costs next to nothing. Each callback fills its rectangle (egui
//! sets the pass's viewport to it and clips it with a scissor). Callbacks of one frame take consecutive slots of a
//! uniform buffer ([`FlatFillCallback::slot`]); a caller with more than [`SLOTS`] rectangles in a frame paints the
//! rest with egui.

use eframe::egui;
use eframe::egui_wgpu::{self, CallbackResources, CallbackTrait, ScreenDescriptor};

use super::backdrop::{flat_pipeline, target_encoding};

/// Rectangles per frame.
pub const SLOTS: u32 = 64;

/// Bytes between two slots: wgpu's minimum uniform-buffer offset alignment.
const SLOT_BYTES: u64 = 256;

/// The pipeline and the colours, in egui-wgpu's callback resources.
pub struct FlatFills {
    pipeline: wgpu::RenderPipeline,
    colors: wgpu::Buffer,
    group: wgpu::BindGroup,
    srgb_target: bool,
}

/// Installs [`FlatFills`] for eframe's target; false without a wgpu render state.
pub fn install(render_state: Option<&egui_wgpu::RenderState>, sample_count: u32) -> bool {
    let Some(rs) = render_state else { return false };
    let device = &rs.device;
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("flat fills"),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: true,
                min_binding_size: wgpu::BufferSize::new(16),
            },
            count: None,
        }],
    });
    let pipeline = flat_pipeline(device, &layout, rs.target_format, sample_count);
    let colors = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("flat fill colours"),
        size: u64::from(SLOTS) * SLOT_BYTES,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("flat fills"),
        layout: &layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: &colors,
                offset: 0,
                size: wgpu::BufferSize::new(16),
            }),
        }],
    });
    let fills = FlatFills { pipeline, colors, group, srgb_target: rs.target_format.is_srgb() };
    rs.renderer.write().callback_resources.insert(fills);
    true
}

/// One flat rectangle: `slot` (below [`SLOTS`], different for each callback of a frame) and its sRGB colour.
pub struct FlatFillCallback {
    pub slot: u32,
    pub color: [u8; 4],
}

impl CallbackTrait for FlatFillCallback {
    fn prepare(
        &self,
        _device: &wgpu::Device,
        queue: &wgpu::Queue,
        _screen: &ScreenDescriptor,
        _encoder: &mut wgpu::CommandEncoder,
        resources: &mut CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        if let Some(fills) = resources.get::<FlatFills>()
            && self.slot < SLOTS
        {
            let color = target_encoding(self.color, fills.srgb_target);
            queue.write_buffer(&fills.colors, u64::from(self.slot) * SLOT_BYTES, bytemuck::cast_slice(&color));
        }
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &CallbackResources,
    ) {
        if let Some(fills) = resources.get::<FlatFills>()
            && self.slot < SLOTS
        {
            pass.set_pipeline(&fills.pipeline);
            pass.set_bind_group(0, &fills.group, &[self.slot * SLOT_BYTES as u32]);
            pass.draw(0..3, 0..1);
        }
    }
}
