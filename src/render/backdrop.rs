//! The viewport's background fill, drawn by the renderer at the start of its pass when
//! [`super::FrameData::background`] asks for one (the viewer; offscreen targets clear instead).
//!
//! Why the renderer draws it rather than egui: egui fills every shape with one textured, alpha-blended, dithered
//! shader, which a CPU rasteriser (lavapipe, llvmpipe) runs at a few million pixels a second; a flat fill of the
//! viewport through that shader cost more than the whole 3D scene. This pipeline writes one constant, already
//! encoded for the target format, with no texture, no blending and no depth test.

use super::DEPTH_FORMAT;

/// The background pipeline and its colour.
pub struct Backdrop {
    pipeline: wgpu::RenderPipeline,
    color: wgpu::Buffer,
    group: wgpu::BindGroup,
    srgb_target: bool,
    /// Whether this frame has a background to draw.
    active: bool,
}

impl Backdrop {
    pub fn new(device: &wgpu::Device, color_format: wgpu::TextureFormat, sample_count: u32) -> Self {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("backdrop"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: wgpu::BufferSize::new(16),
                },
                count: None,
            }],
        });
        let pipeline = flat_pipeline(device, &layout, color_format, sample_count);
        let color = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("backdrop colour"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("backdrop"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: color.as_entire_binding() }],
        });
        Self { pipeline, color, group, srgb_target: color_format.is_srgb(), active: false }
    }

    /// Sets this frame's colour (sRGB bytes, as egui's `Color32`), or no background.
    pub fn prepare(&mut self, queue: &wgpu::Queue, color: Option<[u8; 4]>) {
        self.active = color.is_some();
        if let Some(c) = color {
            queue.write_buffer(&self.color, 0, bytemuck::cast_slice(&target_encoding(c, self.srgb_target)));
        }
    }

    /// Fills the viewport (egui sets the pass's viewport to the callback's rectangle).
    pub fn paint(&self, pass: &mut wgpu::RenderPass<'_>) {
        if self.active {
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.group, &[]);
            pass.draw(0..3, 0..1);
        }
    }
}

/// The flat-colour pipeline (`shaders/backdrop.wgsl`) for egui's pass: colour from binding 0 of `layout`, no
/// blending, no depth test or write.
pub(crate) fn flat_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    color_format: wgpu::TextureFormat,
    sample_count: u32,
) -> wgpu::RenderPipeline {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("backdrop.wgsl"),
        source: wgpu::ShaderSource::Wgsl(include_str!("../../shaders/backdrop.wgsl").into()),
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("flat fill"),
        bind_group_layouts: &[Some(layout)],
        immediate_size: 0,
    });
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("flat fill"),
        layout: Some(&pipeline_layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: Some(wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(false),
            depth_compare: Some(wgpu::CompareFunction::Always),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: wgpu::MultisampleState { count: sample_count, ..Default::default() },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs_main"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format: color_format,
                blend: None,
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// The value to write for the sRGB colour `c`: the bytes themselves on a non-sRGB target (which stores what the
/// shader writes), their linear values on an sRGB target (which encodes on store), so both show the same pixel.
pub(crate) fn target_encoding(c: [u8; 4], srgb_target: bool) -> [f32; 4] {
    let unit = |v: u8| f32::from(v) / 255.0;
    let linear = |v: u8| {
        let s = unit(v);
        if s <= 0.04045 { s / 12.92 } else { ((s + 0.055) / 1.055).powf(2.4) }
    };
    let channel = |v: u8| if srgb_target { linear(v) } else { unit(v) };
    [channel(c[0]), channel(c[1]), channel(c[2]), unit(c[3])]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_encoded_for_the_target() {
        assert_eq!(target_encoding([255, 0, 51, 255], false), [1.0, 0.0, 0.2, 1.0]);
        let linear = target_encoding([255, 0, 188, 128], true);
        assert_eq!(linear[0], 1.0);
        assert_eq!(linear[1], 0.0);
        // sRGB 188 is about half the light.
        assert!((linear[2] - 0.5).abs() < 0.01, "{linear:?}");
        assert!((linear[3] - 128.0 / 255.0).abs() < 1e-6);
    }
}
