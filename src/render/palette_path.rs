//! How the skinning shaders read the per-frame arrays (palettes, instances, stretch ratios, active morph targets)
//! and each model's morph tables: the two palette paths of the one [`super::Renderer`].
//!
//! - [`PalettePath::StorageBuffers`]: storage buffers in the vertex stage, plus the compute entry points of the
//!   stretch view. Every Vulkan, Metal, DX12 and WebGPU device has them.
//! - [`PalettePath::DataTextures`]: the same bytes in `rgba32uint` textures of [`DATA_WIDTH`] texels a row,
//!   fetched with `textureLoad`. For devices whose vertex stage cannot read storage buffers and that have no
//!   compute shaders: WebGL2 in a browser without WebGPU, and OpenGL (ES) adapters, which egui-wgpu opens with
//!   WebGL2 limits. Everything draws the same; the stretch view's ratios, which the other path computes in
//!   compute shaders ([`PalettePath::has_compute`]), are measured on the CPU there (`cpu_stretch.rs`).
//!
//! The shader is one file (`shaders/skinned.wgsl`) that reads those arrays only through accessor functions; the
//! path appends the file that defines them (`skinned_buffers.wgsl` or `skinned_textures.wgsl`). [`GpuArray`] is
//! the Rust side: one growable array, as a buffer or a data texture, with the same `write` for both.

use std::num::NonZeroU64;

/// Texels per row of a data texture (`DATA_WIDTH` in `shaders/skinned_textures.wgsl`): WebGL2 guarantees 2048.
pub const DATA_WIDTH: u32 = 2048;

/// Bytes in one data-texture texel (`rgba32uint`).
const TEXEL_BYTES: u64 = 16;

/// Bytes in one data-texture row.
const ROW_BYTES: u64 = DATA_WIDTH as u64 * TEXEL_BYTES;

const SKINNED_WGSL: &str = include_str!("../../shaders/skinned.wgsl");
const BUFFERS_WGSL: &str = include_str!("../../shaders/skinned_buffers.wgsl");
const TEXTURES_WGSL: &str = include_str!("../../shaders/skinned_textures.wgsl");

/// Where the vertex stage reads the palettes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PalettePath {
    StorageBuffers,
    DataTextures,
}

impl PalettePath {
    /// Storage buffers when the device can read enough of them in the vertex stage and run compute shaders (the
    /// draw reads six in the vertex stage, `cs_skin` seven), else data textures. `BONESCOPE_PALETTE=textures`
    /// takes the texture path on any device (to compare the two, or to see what a WebGL2 browser will draw).
    pub fn for_device(device: &wgpu::Device) -> Self {
        let limits = device.limits();
        let storage =
            limits.max_storage_buffers_per_shader_stage >= 7 && limits.max_compute_workgroups_per_dimension > 0;
        let forced = std::env::var("BONESCOPE_PALETTE").is_ok_and(|v| v.eq_ignore_ascii_case("textures"));
        if storage && !forced { PalettePath::StorageBuffers } else { PalettePath::DataTextures }
    }

    /// The stretch view's compute entry points exist on this path.
    pub fn has_compute(self) -> bool {
        self == PalettePath::StorageBuffers
    }

    /// Words for the status line and reports.
    pub fn describe(self) -> &'static str {
        match self {
            PalettePath::StorageBuffers => "palette in storage buffers",
            PalettePath::DataTextures => "palette in textures",
        }
    }

    /// The whole WGSL source of the skinned pipelines on this path: the colour ramps, `shaders/skinned.wgsl`, then
    /// the path's accessors (and, for storage buffers, the compute entry points).
    pub fn wgsl(self) -> String {
        let accessors = match self {
            PalettePath::StorageBuffers => BUFFERS_WGSL,
            PalettePath::DataTextures => TEXTURES_WGSL,
        };
        super::ramps::wgsl() + SKINNED_WGSL + "\n" + accessors
    }

    pub(crate) fn shader_module(self, device: &wgpu::Device) -> wgpu::ShaderModule {
        device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(match self {
                PalettePath::StorageBuffers => "skinned.wgsl (storage buffers)",
                PalettePath::DataTextures => "skinned.wgsl (data textures)",
            }),
            source: wgpu::ShaderSource::Wgsl(self.wgsl().into()),
        })
    }

    /// The layout entry of one array the vertex stage reads (`min`: the storage binding's smallest size).
    pub(crate) fn layout_entry(
        self,
        binding: u32,
        visibility: wgpu::ShaderStages,
        min: u64,
    ) -> wgpu::BindGroupLayoutEntry {
        let ty = match self {
            PalettePath::StorageBuffers => wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: true },
                has_dynamic_offset: false,
                min_binding_size: NonZeroU64::new(min),
            },
            PalettePath::DataTextures => wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Uint,
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: false,
            },
        };
        wgpu::BindGroupLayoutEntry { binding, visibility, ty, count: None }
    }

    /// The largest array the device can hold on this path, in bytes.
    pub(crate) fn budget(self, device: &wgpu::Device) -> u64 {
        let limits = device.limits();
        match self {
            PalettePath::StorageBuffers => limits.max_storage_buffer_binding_size.min(limits.max_buffer_size),
            PalettePath::DataTextures => u64::from(limits.max_texture_dimension_2d) * ROW_BYTES,
        }
    }
}

/// One array the shaders read: a storage buffer, or an `rgba32uint` data texture of [`DATA_WIDTH`] texels a row.
pub(crate) enum GpuArray {
    Buffer(wgpu::Buffer),
    Texture { texture: wgpu::Texture, view: wgpu::TextureView },
}

impl GpuArray {
    /// An array of at least `bytes` bytes (never empty: zero-sized bindings are invalid).
    pub fn new(device: &wgpu::Device, path: PalettePath, label: &str, bytes: u64) -> Self {
        match path {
            PalettePath::StorageBuffers => GpuArray::Buffer(device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes.max(64).next_multiple_of(4),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })),
            PalettePath::DataTextures => {
                let rows = bytes.div_ceil(ROW_BYTES).max(1);
                let max_rows = u64::from(device.limits().max_texture_dimension_2d);
                let texture = device.create_texture(&wgpu::TextureDescriptor {
                    label: Some(label),
                    size: wgpu::Extent3d {
                        width: DATA_WIDTH,
                        height: rows.min(max_rows) as u32,
                        depth_or_array_layers: 1,
                    },
                    mip_level_count: 1,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format: wgpu::TextureFormat::Rgba32Uint,
                    usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                    view_formats: &[],
                });
                let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
                GpuArray::Texture { texture, view }
            }
        }
    }

    /// An array holding `contents`.
    pub fn with_contents(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        path: PalettePath,
        label: &str,
        contents: &[u8],
    ) -> Self {
        let array = Self::new(device, path, label, contents.len() as u64);
        array.write(queue, contents);
        array
    }

    /// Bytes the array holds.
    pub fn capacity(&self) -> u64 {
        match self {
            GpuArray::Buffer(buffer) => buffer.size(),
            GpuArray::Texture { texture, .. } => u64::from(texture.height()) * ROW_BYTES,
        }
    }

    /// Replaces the array by one of at least `needed` bytes (next power of two) when it is smaller; true when it
    /// did (bind groups holding the old one must be made again).
    pub fn ensure(&mut self, device: &wgpu::Device, label: &str, needed: u64) -> bool {
        if self.capacity() >= needed {
            return false;
        }
        let path = match self {
            GpuArray::Buffer(_) => PalettePath::StorageBuffers,
            GpuArray::Texture { .. } => PalettePath::DataTextures,
        };
        *self = Self::new(device, path, label, needed.next_power_of_two());
        true
    }

    /// Writes `bytes` at the start of the array (a whole number of 4-byte words; what does not fit is dropped).
    pub fn write(&self, queue: &wgpu::Queue, bytes: &[u8]) {
        let bytes = &bytes[..bytes.len().min(self.capacity() as usize)];
        if bytes.is_empty() {
            return;
        }
        match self {
            GpuArray::Buffer(buffer) => queue.write_buffer(buffer, 0, bytes),
            GpuArray::Texture { texture, .. } => write_texels(queue, texture, bytes),
        }
    }

    pub fn resource(&self) -> wgpu::BindingResource<'_> {
        match self {
            GpuArray::Buffer(buffer) => buffer.as_entire_binding(),
            GpuArray::Texture { view, .. } => wgpu::BindingResource::TextureView(view),
        }
    }

    /// The storage buffer (for the compute passes); None on the data-texture path.
    pub fn buffer(&self) -> Option<&wgpu::Buffer> {
        match self {
            GpuArray::Buffer(buffer) => Some(buffer),
            GpuArray::Texture { .. } => None,
        }
    }
}

/// Writes `bytes` into a data texture from its first texel: the whole rows, then the whole texels of the last row,
/// then a last texel padded with zeros when the bytes end inside one (the shaders never read past the array's
/// length). Only those at most 16 bytes are copied; the rest goes to the queue as it is.
fn write_texels(queue: &wgpu::Queue, texture: &wgpu::Texture, bytes: &[u8]) {
    let copy = |data: &[u8], x: u32, y: u32, width: u32, height: u32| {
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: 0,
                origin: wgpu::Origin3d { x, y, z: 0 },
                aspect: wgpu::TextureAspect::All,
            },
            data,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(width * TEXEL_BYTES as u32),
                rows_per_image: Some(height),
            },
            wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        );
    };
    let full_rows = (bytes.len() as u64 / ROW_BYTES) as u32;
    let (rows, rest) = bytes.split_at((u64::from(full_rows) * ROW_BYTES) as usize);
    if full_rows > 0 {
        copy(rows, 0, 0, DATA_WIDTH, full_rows);
    }
    if rest.is_empty() || full_rows >= texture.height() {
        return;
    }
    let whole = rest.len() / TEXEL_BYTES as usize;
    let (texels, tail) = rest.split_at(whole * TEXEL_BYTES as usize);
    if whole > 0 {
        copy(texels, 0, full_rows, whole as u32, 1);
    }
    if !tail.is_empty() {
        let mut last = [0u8; TEXEL_BYTES as usize];
        last[..tail.len()].copy_from_slice(tail);
        copy(&last, whole as u32, full_rows, 1, 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both shader sources parse and validate (the device-free check; the render tests draw with both).
    #[test]
    fn both_shader_sources_validate() {
        for path in [PalettePath::StorageBuffers, PalettePath::DataTextures] {
            let module = naga::front::wgsl::parse_str(&path.wgsl()).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
                .validate(&module)
                .unwrap_or_else(|e| panic!("{path:?}: {e:?}"));
        }
    }

    /// The data-texture path's draw entry points translate to the GLSL ES 3.00 a WebGL2 browser compiles (the
    /// translation wgpu's GL backend makes), so WebGL2 is not first tried in a browser.
    #[test]
    fn the_texture_path_compiles_for_webgl2() {
        use naga::back::glsl;
        let module = naga::front::wgsl::parse_str(&PalettePath::DataTextures.wgsl()).expect("parses");
        let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::empty())
            .validate(&module)
            .expect("validates without extra capabilities");
        let options = glsl::Options {
            version: glsl::Version::Embedded { version: 300, is_webgl: true },
            ..glsl::Options::default()
        };
        let entry_points = [
            (naga::ShaderStage::Vertex, "vs_main"),
            (naga::ShaderStage::Vertex, "vs_main_morph"),
            (naga::ShaderStage::Vertex, "vs_wire"),
            (naga::ShaderStage::Vertex, "vs_wire_morph"),
            (naga::ShaderStage::Fragment, "fs_main"),
            (naga::ShaderStage::Fragment, "fs_wire"),
        ];
        for (stage, name) in entry_points {
            let pipeline = glsl::PipelineOptions { shader_stage: stage, entry_point: name.into(), multiview: None };
            let mut out = String::new();
            let mut writer = glsl::Writer::new(
                &mut out,
                &module,
                &info,
                &options,
                &pipeline,
                naga::proc::BoundsCheckPolicies::default(),
            )
            .unwrap_or_else(|e| panic!("{name}: {e}"));
            writer.write().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(out.starts_with("#version 300 es"), "{name}");
        }
    }

    #[test]
    fn the_shader_rows_are_as_wide_as_the_textures() {
        assert!(TEXTURES_WGSL.contains(&format!("const DATA_WIDTH: u32 = {DATA_WIDTH}u;")));
    }

    #[test]
    fn the_texture_path_has_no_storage_buffers_or_compute() {
        let source = PalettePath::DataTextures.wgsl();
        assert!(!source.contains("var<storage"));
        assert!(!source.contains("@compute"));
        assert!(!source.contains("countOneBits"), "GLSL ES 3.0 has no bitCount");
    }
}
