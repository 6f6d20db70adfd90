//! A headless GPU context (instance, adapter, device, queue) for tests, benches and the `render` CLI, with the
//! adapter choice spelled out and an error that tells the user what to install when there is none. The viewer
//! gets its device from eframe instead and never uses this.

use super::RenderError;

/// An adapter with its device and queue.
pub struct GpuContext {
    pub instance: wgpu::Instance,
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
}

/// What to install when no adapter is found (headless machines, CI).
pub const NO_ADAPTER_HELP: &str = "no GPU adapter found. On a machine without a GPU install a software Vulkan \
driver (Debian/Ubuntu: `apt-get install mesa-vulkan-drivers`, which provides lavapipe); WGPU_BACKEND=vulkan|gl \
and WGPU_ADAPTER_NAME=<part of the name> choose among several adapters";

fn rank(info: &wgpu::AdapterInfo) -> (u8, u8) {
    let device = match info.device_type {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Cpu => 3,
        wgpu::DeviceType::Other => 4,
    };
    // Vulkan/Metal/DX12 before GL: storage buffers in vertex shaders and compute are first-class there.
    let backend = if info.backend == wgpu::Backend::Gl { 1 } else { 0 };
    (device, backend)
}

impl GpuContext {
    /// Picks an adapter: `WGPU_ADAPTER_NAME` (substring, case-insensitive) when set, else the best by device type
    /// (discrete, integrated, virtual, CPU) preferring non-GL backends; `WGPU_BACKEND` limits the backends.
    pub fn headless() -> Result<Self, RenderError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::all());
        let adapters = pollster::block_on(instance.enumerate_adapters(backends));
        let wanted = std::env::var("WGPU_ADAPTER_NAME").ok().map(|n| n.to_lowercase());
        let adapter = match &wanted {
            Some(name) => {
                adapters.into_iter().find(|a| a.get_info().name.to_lowercase().contains(name)).ok_or_else(|| {
                    RenderError::NoAdapter(format!("WGPU_ADAPTER_NAME={name} matches no adapter; {NO_ADAPTER_HELP}"))
                })?
            }
            None => adapters
                .into_iter()
                .min_by_key(|a| rank(&a.get_info()))
                .ok_or_else(|| RenderError::NoAdapter(NO_ADAPTER_HELP.into()))?,
        };
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("bonescope headless"),
            // Timestamp queries where the adapter has them: `render --bench-frames` reports GPU time with them.
            required_features: adapter.features() & wgpu::Features::TIMESTAMP_QUERY,
            // Everything the adapter offers: big meshes and palettes need large storage buffers.
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .map_err(|source| RenderError::Device { adapter: adapter.get_info().name, source })?;
        Ok(Self { instance, adapter, device, queue })
    }

    /// "name (backend, type)" for logs and reports.
    pub fn describe(&self) -> String {
        let info = self.adapter.get_info();
        format!("{} ({:?}, {:?}, driver {})", info.name, info.backend, info.device_type, info.driver_info)
    }

    /// The MSAA sample count to use with `color_format`: 4 when both it and the depth format support it, else 1.
    pub fn msaa_samples(&self, color_format: wgpu::TextureFormat) -> u32 {
        supported_samples(&self.adapter, color_format, 4)
    }
}

/// `wanted` samples if the adapter can multisample the colour format and the depth format with it, else 1.
pub fn supported_samples(adapter: &wgpu::Adapter, color_format: wgpu::TextureFormat, wanted: u32) -> u32 {
    let color = adapter.get_texture_format_features(color_format).flags;
    let depth = adapter.get_texture_format_features(super::DEPTH_FORMAT).flags;
    let ok = color.sample_count_supported(wanted)
        && depth.sample_count_supported(wanted)
        && color.contains(wgpu::TextureFormatFeatureFlags::MULTISAMPLE_RESOLVE);
    if ok { wanted } else { 1 }
}
