//! The Rust twins of the structs in `shaders/skinned.wgsl` and `shaders/overlay.wgsl`: `#[repr(C)]` Pod types
//! whose sizes and field offsets are asserted at compile time against the WGSL layout rules (16-byte aligned
//! `vec3`/`vec4`/`mat`, structs padded to their alignment). Change a field here and in the shader together.
//!
//! Owns only layouts and conversions; no wgpu objects are created here.

use bytemuck::{Pod, Zeroable};
use glam::{Mat3, Mat4, Vec3};
use std::mem::{offset_of, size_of};

/// Per-frame constants (`Camera` in both shaders).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct CameraGpu {
    pub view_proj: [[f32; 4]; 4],
    pub view: [[f32; 4]; 4],
    /// Eye position in the viewer frame (w = 1).
    pub eye: [f32; 4],
    /// Unit vector towards the key light, viewer frame.
    pub light_dir: [f32; 4],
    /// width, height, 1/width, 1/height in pixels.
    pub viewport: [f32; 4],
    /// A [`super::ShadingMode`] code.
    pub mode: u32,
    /// Bone whose weights the heat map shows (`u32::MAX`: none).
    pub selected_bone: u32,
    /// Bit 0: the target is not sRGB, so the shader encodes its output.
    pub flags: u32,
    /// Edge-length ratio deviation shown as full blue (compressed) or full red (stretched).
    pub stretch_range: f32,
    /// Colour of the wireframe overlay (linear RGBA).
    pub wire_color: [f32; 4],
}

/// Flag bit in [`CameraGpu::flags`]: encode linear → sRGB in the fragment shader.
pub const FLAG_ENCODE_SRGB: u32 = 1;

/// Per-instance data (`Instance` in skinned.wgsl), read with `instance_index`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct InstanceGpu {
    /// Model (file frame) → viewer frame: placement × axis conversion.
    pub world: [[f32; 4]; 4],
    /// Inverse transpose of the world matrix's 3×3 part, as three padded columns (`mat3x3<f32>`).
    pub normal_matrix: [[f32; 4]; 3],
    /// First palette entry of this instance in the frame's palette buffer.
    pub palette_base: u32,
    /// Entries this instance owns; influences naming a bone at or past it are skipped, like the CPU skinner.
    pub bone_count: u32,
    /// First entry of this instance in the skinned/stretch scratch buffers.
    pub stretch_base: u32,
    /// [`INSTANCE_GHOST`] and future per-instance switches.
    pub flags: u32,
    /// This instance's active morph targets: `morph_active[morph_base .. morph_base + morph_count]` of the frame.
    pub morph_base: u32,
    pub morph_count: u32,
    pub _pad: [u32; 2],
}

/// `InstanceGpu::flags`: draw this instance's edges in the ghost colour.
pub const INSTANCE_GHOST: u32 = 1;

impl InstanceGpu {
    pub fn new(world: Mat4, palette_base: u32, bone_count: u32, stretch_base: u32, flags: u32) -> Self {
        let n = Mat3::from_mat4(world).inverse().transpose();
        let n = if n.is_finite() { n } else { Mat3::IDENTITY };
        let col = |v: Vec3| [v.x, v.y, v.z, 0.0];
        Self {
            world: world.to_cols_array_2d(),
            normal_matrix: [col(n.x_axis), col(n.y_axis), col(n.z_axis)],
            palette_base,
            bone_count,
            stretch_base,
            flags,
            morph_base: 0,
            morph_count: 0,
            _pad: [0; 2],
        }
    }

    /// The same instance with these active morph targets (see [`MorphActiveGpu`]).
    pub fn with_morphs(self, morph_base: u32, morph_count: u32) -> Self {
        Self { morph_base, morph_count, ..self }
    }
}

/// One active morph target of an instance (`MorphActive` in skinned.wgsl): the only per-frame morph data.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct MorphActiveGpu {
    /// Target index in the model (the slot of [`crate::anim::MorphLayout`]).
    pub target: u32,
    pub weight: f32,
}

/// Per-material constants (`Material` in skinned.wgsl).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct MaterialGpu {
    /// Diffuse colour, linear RGBA.
    pub color: [f32; 4],
    /// `uv * tiling + offset`: offset.xy, tiling.xy.
    pub uv_transform: [f32; 4],
    /// 1 when the texture binding holds the material's texture (0: the colour alone).
    pub has_texture: u32,
    /// `MATERIAL_*` bits of skinned.wgsl: masked, additive, chrome, flat shade, full bright.
    pub flags: u32,
    /// Masked materials: texels with less alpha are not drawn.
    pub alpha_cutoff: f32,
    pub _pad: u32,
}

/// [`MaterialGpu::flags`] bits (the `MATERIAL_*` constants of skinned.wgsl).
pub const MATERIAL_MASKED: u32 = 1;
pub const MATERIAL_ADDITIVE: u32 = 2;
pub const MATERIAL_CHROME: u32 = 4;
pub const MATERIAL_FLAT: u32 = 8;
pub const MATERIAL_FULLBRIGHT: u32 = 16;

/// One render vertex. The same 64 bytes are the vertex buffer of the draw and the `array<MeshVertex>` storage
/// buffer of the compute skinning entry point, so both read identical data.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct MeshVertex {
    pub position: [f32; 3],
    /// sRGB RGBA8 vertex colour (white when the file has none).
    pub color: [u8; 4],
    pub normal: [f32; 3],
    /// sRGB RGBA8 colour of the vertex's dominant bone in the dominant-bone mode (`ramps::BoneColors`).
    pub bone_color: [u8; 4],
    pub uv: [f32; 2],
    /// Four bone indices; in WGSL storage they are two `u32` holding two indices each (little-endian halves).
    pub joints: [u16; 4],
    pub weights: [f32; 4],
}

/// A skinned vertex as the compute entry point writes it (model space, the file's frame).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct SkinnedVertexGpu {
    /// xyz, w = 1.
    pub position: [f32; 4],
    /// xyz unit (or zero), w = 0.
    pub normal: [f32; 4],
}

/// Parameters of one compute dispatch over a model's vertices (`SkinParams`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
pub struct SkinParamsGpu {
    pub vertex_count: u32,
    /// First instance of the dispatch; `global_invocation_id.y` adds to it.
    pub instance_base: u32,
    pub _pad: [u32; 2],
}

/// An overlay vertex (lines and triangles of overlay.wgsl).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct OverlayVertex {
    /// Viewer frame.
    pub position: [f32; 3],
    /// sRGB RGBA8.
    pub color: [u8; 4],
}

/// A screen-space point (joint marker): one instance of a camera-facing quad.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct OverlayPoint {
    /// Viewer frame.
    pub position: [f32; 3],
    /// Diameter in pixels.
    pub size: f32,
    /// sRGB RGBA8.
    pub color: [u8; 4],
}

// WGSL layout checks: sizes are multiples of the struct alignment (16 for anything holding a vec4/mat), and the
// offsets below are where WGSL puts each member.
const _: () = {
    assert!(size_of::<CameraGpu>() == 208);
    assert!(offset_of!(CameraGpu, eye) == 128);
    assert!(offset_of!(CameraGpu, mode) == 176);
    assert!(offset_of!(CameraGpu, wire_color) == 192);
    assert!(size_of::<InstanceGpu>() == 144);
    assert!(offset_of!(InstanceGpu, normal_matrix) == 64);
    assert!(offset_of!(InstanceGpu, palette_base) == 112);
    assert!(offset_of!(InstanceGpu, morph_base) == 128);
    assert!(size_of::<MorphActiveGpu>() == 8);
    assert!(size_of::<MaterialGpu>() == 48);
    assert!(size_of::<MeshVertex>() == 64);
    assert!(offset_of!(MeshVertex, color) == 12);
    assert!(offset_of!(MeshVertex, normal) == 16);
    assert!(offset_of!(MeshVertex, uv) == 32);
    assert!(offset_of!(MeshVertex, joints) == 40);
    assert!(offset_of!(MeshVertex, weights) == 48);
    assert!(size_of::<SkinnedVertexGpu>() == 32);
    assert!(size_of::<SkinParamsGpu>() == 16);
    assert!(size_of::<OverlayVertex>() == 16);
    assert!(size_of::<OverlayPoint>() == 20);
    // One palette entry is a mat4x4<f32>.
    assert!(size_of::<Mat4>() == 64);
};

/// Vertex buffer layout of [`MeshVertex`] for the skinned pipelines (locations as in `VsIn`; offsets by hand
/// because of the padding word).
pub fn mesh_vertex_layout() -> wgpu::VertexBufferLayout<'static> {
    const ATTRIBUTES: [wgpu::VertexAttribute; 7] = [
        attr(wgpu::VertexFormat::Float32x3, offset_of!(MeshVertex, position), 0),
        attr(wgpu::VertexFormat::Unorm8x4, offset_of!(MeshVertex, color), 1),
        attr(wgpu::VertexFormat::Float32x3, offset_of!(MeshVertex, normal), 2),
        attr(wgpu::VertexFormat::Float32x2, offset_of!(MeshVertex, uv), 3),
        attr(wgpu::VertexFormat::Uint16x4, offset_of!(MeshVertex, joints), 4),
        attr(wgpu::VertexFormat::Float32x4, offset_of!(MeshVertex, weights), 5),
        attr(wgpu::VertexFormat::Unorm8x4, offset_of!(MeshVertex, bone_color), 6),
    ];
    wgpu::VertexBufferLayout {
        array_stride: size_of::<MeshVertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &ATTRIBUTES,
    }
}

/// Vertex layout of [`OverlayVertex`].
pub fn overlay_vertex_layout() -> wgpu::VertexBufferLayout<'static> {
    const ATTRIBUTES: [wgpu::VertexAttribute; 2] = [
        attr(wgpu::VertexFormat::Float32x3, offset_of!(OverlayVertex, position), 0),
        attr(wgpu::VertexFormat::Unorm8x4, offset_of!(OverlayVertex, color), 1),
    ];
    wgpu::VertexBufferLayout {
        array_stride: size_of::<OverlayVertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &ATTRIBUTES,
    }
}

/// Per-instance layout of [`OverlayPoint`] (one quad per point).
pub fn overlay_point_layout() -> wgpu::VertexBufferLayout<'static> {
    const ATTRIBUTES: [wgpu::VertexAttribute; 3] = [
        attr(wgpu::VertexFormat::Float32x3, offset_of!(OverlayPoint, position), 0),
        attr(wgpu::VertexFormat::Float32, offset_of!(OverlayPoint, size), 1),
        attr(wgpu::VertexFormat::Unorm8x4, offset_of!(OverlayPoint, color), 2),
    ];
    wgpu::VertexBufferLayout {
        array_stride: size_of::<OverlayPoint>() as u64,
        step_mode: wgpu::VertexStepMode::Instance,
        attributes: &ATTRIBUTES,
    }
}

const fn attr(format: wgpu::VertexFormat, offset: usize, shader_location: u32) -> wgpu::VertexAttribute {
    wgpu::VertexAttribute { format, offset: offset as u64, shader_location }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joints_read_as_two_u32_halves() {
        // The compute entry point unpacks `joints` as (x & 0xffff, x >> 16, y & 0xffff, y >> 16).
        let v = MeshVertex { joints: [1, 2, 300, 65535], ..MeshVertex::default() };
        let bytes = bytemuck::bytes_of(&v);
        let at = offset_of!(MeshVertex, joints);
        let x = u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        let y = u32::from_le_bytes([bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]]);
        assert_eq!([x & 0xffff, x >> 16, y & 0xffff, y >> 16], [1, 2, 300, 65535]);
    }

    #[test]
    fn normal_matrix_of_a_mirror_is_the_mirror() {
        let mirror = Mat4::from_scale(Vec3::new(1.0, 1.0, -1.0));
        let inst = InstanceGpu::new(mirror, 0, 1, 0, 0);
        assert_eq!(inst.normal_matrix[2], [0.0, 0.0, -1.0, 0.0]);
        // Non-uniform scale: normals scale by the inverse.
        let inst = InstanceGpu::new(Mat4::from_scale(Vec3::new(2.0, 1.0, 1.0)), 0, 1, 0, 0);
        assert_eq!(inst.normal_matrix[0], [0.5, 0.0, 0.0, 0.0]);
    }
}
