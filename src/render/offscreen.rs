//! Rendering into a texture instead of a window: the colour target (multisampled when asked, resolved into a
//! single-sample texture), the depth buffer, and reading the pixels back into an `image::RgbaImage` for PNG/GIF
//! export, golden tests and the `render` CLI. The viewer can register [`OffscreenTarget::view`] with egui as a
//! native texture; nothing here knows about egui.

use image::RgbaImage;

use super::gpu_timer::GpuTimer;
use super::{DEPTH_FORMAT, FrameData, RenderError, Renderer};

/// Colour format of offscreen images: sRGB so PNGs come out as they look on screen.
pub const OFFSCREEN_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// A render target of a fixed size.
pub struct OffscreenTarget {
    pub width: u32,
    pub height: u32,
    pub sample_count: u32,
    /// Multisampled colour (only with `sample_count > 1`).
    msaa: Option<wgpu::TextureView>,
    /// The single-sample result (resolve target or direct target); copy source and texture binding.
    resolved: wgpu::Texture,
    resolved_view: wgpu::TextureView,
    depth: wgpu::TextureView,
    readback: wgpu::Buffer,
    padded_row: u32,
}

impl OffscreenTarget {
    pub fn new(device: &wgpu::Device, width: u32, height: u32, sample_count: u32) -> Self {
        let (width, height) = (width.max(1), height.max(1));
        let size = wgpu::Extent3d { width, height, depth_or_array_layers: 1 };
        let texture = |label: &str, format, samples, usage| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size,
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        let attachment = wgpu::TextureUsages::RENDER_ATTACHMENT;
        let resolved = texture(
            "offscreen colour",
            OFFSCREEN_FORMAT,
            1,
            attachment | wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::TEXTURE_BINDING,
        );
        let msaa = (sample_count > 1).then(|| {
            texture("offscreen msaa", OFFSCREEN_FORMAT, sample_count, attachment)
                .create_view(&wgpu::TextureViewDescriptor::default())
        });
        let depth = texture("offscreen depth", DEPTH_FORMAT, sample_count, attachment)
            .create_view(&wgpu::TextureViewDescriptor::default());
        let padded_row = (4 * width).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("offscreen readback"),
            size: u64::from(padded_row) * u64::from(height),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let resolved_view = resolved.create_view(&wgpu::TextureViewDescriptor::default());
        Self { width, height, sample_count, msaa, resolved, resolved_view, depth, readback, padded_row }
    }

    /// The final (single-sample) image, e.g. to show in egui.
    pub fn view(&self) -> &wgpu::TextureView {
        &self.resolved_view
    }

    pub fn aspect(&self) -> f32 {
        self.width as f32 / self.height as f32
    }

    /// Encodes one frame: the renderer's compute work and uploads, then the pass (clear, models, overlays).
    pub fn encode(
        &self,
        renderer: &mut Renderer,
        encoder: &mut wgpu::CommandEncoder,
        frame: &FrameData,
        clear: [f64; 4],
    ) {
        renderer.prepare(encoder, frame);
        let (view, resolve_target) = match &self.msaa {
            Some(msaa) => (msaa, Some(&self.resolved_view)),
            None => (&self.resolved_view, None),
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("offscreen"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color { r: clear[0], g: clear[1], b: clear[2], a: clear[3] }),
                    // The multisampled samples are not needed after the resolve.
                    store: if self.msaa.is_some() { wgpu::StoreOp::Discard } else { wgpu::StoreOp::Store },
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &self.depth,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Discard }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        renderer.paint(&mut pass);
    }

    /// Renders one frame and waits for the GPU to finish it (no readback): what a frame costs.
    pub fn render(&self, renderer: &mut Renderer, frame: &FrameData, clear: [f64; 4]) -> Result<(), RenderError> {
        self.render_timed(renderer, frame, clear, None)
    }

    /// [`Self::render`], with the frame's commands between the timer's two timestamps (read them with
    /// [`GpuTimer::read_ms`] once this returns).
    pub fn render_timed(
        &self,
        renderer: &mut Renderer,
        frame: &FrameData,
        clear: [f64; 4],
        timer: Option<&GpuTimer>,
    ) -> Result<(), RenderError> {
        let device = renderer.device().clone();
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
        if let Some(timer) = timer {
            timer.begin(&mut encoder);
        }
        self.encode(renderer, &mut encoder, frame, clear);
        if let Some(timer) = timer {
            timer.end(&mut encoder);
        }
        let index = renderer.queue().submit([encoder.finish()]);
        device
            .poll(wgpu::PollType::Wait { submission_index: Some(index), timeout: None })
            .map_err(|source| RenderError::Poll { what: "the frame", source })?;
        Ok(())
    }

    /// Renders one frame and reads it back.
    pub fn render_image(
        &self,
        renderer: &mut Renderer,
        frame: &FrameData,
        clear: [f64; 4],
    ) -> Result<RgbaImage, RenderError> {
        let device = renderer.device().clone();
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
        self.encode(renderer, &mut encoder, frame, clear);
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: &self.resolved,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &self.readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(self.padded_row),
                    rows_per_image: Some(self.height),
                },
            },
            wgpu::Extent3d { width: self.width, height: self.height, depth_or_array_layers: 1 },
        );
        renderer.queue().submit([encoder.finish()]);
        let bytes = read_buffer(&device, &self.readback)?;
        let row = 4 * self.width as usize;
        let mut pixels = Vec::with_capacity(row * self.height as usize);
        for chunk in bytes.chunks(self.padded_row as usize).take(self.height as usize) {
            pixels.extend_from_slice(&chunk[..row]);
        }
        RgbaImage::from_raw(self.width, self.height, pixels)
            .ok_or(RenderError::ReadBack("read back fewer pixels than the image holds"))
    }
}

/// Maps a `MAP_READ` buffer, waits, copies it out and unmaps it.
pub fn read_buffer(device: &wgpu::Device, buffer: &wgpu::Buffer) -> Result<Vec<u8>, RenderError> {
    let slice = buffer.slice(..);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |result| {
        let _ = tx.send(result);
    });
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|source| RenderError::Poll { what: "the read-back", source })?;
    rx.recv().map_err(|_| RenderError::ReadBack("the read-back never completed"))?.map_err(RenderError::Map)?;
    let bytes = {
        let view = slice.get_mapped_range().map_err(RenderError::View)?;
        view.to_vec()
    };
    buffer.unmap();
    Ok(bytes)
}
