//! The glue that puts the [`Renderer`] into an egui viewport: install it in egui-wgpu's callback resources once,
//! then each frame add a paint callback carrying that frame's [`FrameData`]. The callback runs
//! [`Renderer::prepare`] in egui's prepare phase and [`Renderer::paint`] in its render pass, clipped to the
//! viewport rectangle. UI state (camera drags, selection) stays with the app; this only draws.
//!
//! Requirements on eframe's `NativeOptions`: `depth_buffer: 32` (the renderer's [`super::DEPTH_FORMAT`]) and
//! `multisampling` equal to the sample count given to [`install`]. One 3D viewport per egui frame: the renderer
//! holds one frame's buffers (for several, render each into an [`super::OffscreenTarget`]).

use eframe::egui;
use eframe::egui_wgpu::{self, CallbackResources, CallbackTrait, ScreenDescriptor};

use super::{FrameData, Renderer};

/// Creates the renderer for eframe's device and target format and stores it where the callbacks find it.
/// Returns false when the app does not run on wgpu (no render state).
pub fn install(render_state: Option<&egui_wgpu::RenderState>, sample_count: u32) -> bool {
    let Some(rs) = render_state else { return false };
    let renderer = Renderer::new(&rs.device, &rs.queue, rs.target_format, sample_count);
    rs.renderer.write().callback_resources.insert(renderer);
    true
}

/// Runs `f` on the installed renderer (to upload or remove models).
pub fn with_renderer<R>(render_state: &egui_wgpu::RenderState, f: impl FnOnce(&mut Renderer) -> R) -> Option<R> {
    let mut guard = render_state.renderer.write();
    guard.callback_resources.get_mut::<Renderer>().map(f)
}

/// One frame of the 3D viewport, as an egui paint callback.
pub struct ViewportCallback {
    pub frame: FrameData,
}

impl CallbackTrait for ViewportCallback {
    fn prepare(
        &self,
        _device: &wgpu::Device,
        _queue: &wgpu::Queue,
        _screen: &ScreenDescriptor,
        encoder: &mut wgpu::CommandEncoder,
        resources: &mut CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        if let Some(renderer) = resources.get_mut::<Renderer>() {
            renderer.prepare(encoder, &self.frame);
        }
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &CallbackResources,
    ) {
        if let Some(renderer) = resources.get::<Renderer>() {
            renderer.paint(pass);
        }
    }
}

/// The paint callback to add to a painter: `ui.painter().add(paint_callback(rect, frame))`. `frame.viewport`
/// should be the rectangle's size in physical pixels.
pub fn paint_callback(rect: egui::Rect, frame: FrameData) -> egui::PaintCallback {
    egui_wgpu::Callback::new_paint_callback(rect, ViewportCallback { frame })
}
