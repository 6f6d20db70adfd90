//! The wgpu renderer: four-influence vertex-blend skinning in WGSL (`shaders/skinned.wgsl`, palette in a storage
//! buffer, one palette per instance), draws batched per material subset, analysis shading modes (weights,
//! dominant bone, stretch, normals, wireframe), overlays (`shaders/overlay.wgsl`: skeleton, joints, axes, grid,
//! rays, frustums, spheres), an orbit camera, and offscreen rendering to images for the `render` command and
//! the golden tests ([`headless`]). It reads `scene` and `anim` and never `io`: loading files is the caller's.
//!
//! One [`Renderer`] serves both users: the viewer (an egui paint callback calls [`Renderer::prepare`] from the
//! callback's `prepare` and [`Renderer::paint`] from its `paint`; or it renders into an [`OffscreenTarget`] and
//! shows that texture) and headless code ([`GpuContext::headless`] + [`OffscreenTarget`]). It reads `scene`
//! assets and `anim` palettes and never changes them; it owns no UI state.
//!
//! In an egui viewport: [`viewport::install`] once (eframe with `depth_buffer: 32` and `multisampling` equal to
//! the sample count), upload assets with [`viewport::with_renderer`], and each frame
//! `ui.painter().add(viewport::paint_callback(rect, frame_data))`. With an egui target that has no depth buffer,
//! render into an [`OffscreenTarget`] instead and show [`OffscreenTarget::view`] as a native texture.

pub(crate) mod backdrop;
pub mod camera;
pub(crate) mod context;
pub(crate) mod cpu_stretch;
pub(crate) mod flat_fill;
pub(crate) mod frame;
pub(crate) mod gpu;
pub(crate) mod gpu_timer;
pub mod headless;
pub(crate) mod morph;
pub(crate) mod offscreen;
pub mod overlay;
pub(crate) mod palette_path;
pub mod posed;
pub mod ramps;
pub(crate) mod renderer;
pub mod skinned;
pub mod textures;
pub(crate) mod viewport;

pub use crate::scene::Bounds;
pub use camera::{CameraMatrices, OrbitCamera};
pub use context::GpuContext;
pub use frame::{FrameData, ModelId, ModelInstance, ShadingMode};
pub use offscreen::{OFFSCREEN_FORMAT, OffscreenTarget};
pub use overlay::{BoneStyle, Depth, Overlay, SkeletonStyle};
pub use palette_path::PalettePath;
pub use posed::PosedAsset;
pub use renderer::Renderer;
pub use skinned::{ComputeSkinner, ModelInfo};

/// Depth format of every pass the renderer draws into (eframe's `depth_buffer: 32` gives the same).
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// What can go wrong when rendering.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// No usable GPU adapter (the message says what to install).
    #[error("{0}")]
    NoAdapter(String),
    /// The adapter would not open a device.
    #[error("cannot open the GPU device '{adapter}': {source}")]
    Device {
        adapter: String,
        #[source]
        source: wgpu::RequestDeviceError,
    },
    /// Waiting for submitted GPU work failed (device lost, timeout).
    #[error("GPU: waiting for {what}: {source}")]
    Poll {
        what: &'static str,
        #[source]
        source: wgpu::PollError,
    },
    /// A read-back buffer could not be mapped.
    #[error("GPU: mapping the read-back buffer: {0}")]
    Map(#[source] wgpu::BufferAsyncError),
    /// A mapped read-back buffer could not be viewed.
    #[error("GPU: reading the mapped buffer: {0}")]
    View(#[source] wgpu::MapRangeError),
    /// A read-back came back other than the GPU was asked for.
    #[error("GPU: {0}")]
    ReadBack(&'static str),
    /// A mesh whose arrays disagree.
    #[error(transparent)]
    Mesh(#[from] crate::scene::MeshError),
    /// Arguments or data that cannot be rendered (unknown clip, bad size, ...).
    #[error("{0}")]
    Invalid(String),
}
