// Overlays drawn over (or into) the skinned models: lines (skeleton, axes, grid, rays, frustums, circles),
// flat triangles (octahedral bones) and screen-sized round points (joints). Geometry is built on the CPU in the
// viewer frame; this shader only projects and colours it. `Camera` must match skinned.wgsl and gpu.rs.

struct Camera {
    view_proj: mat4x4<f32>,
    view: mat4x4<f32>,
    eye: vec4<f32>,
    light_dir: vec4<f32>,
    viewport: vec4<f32>,
    mode: u32,
    selected_bone: u32,
    flags: u32,
    stretch_range: f32,
    wire_color: vec4<f32>,
}

const FLAG_ENCODE_SRGB: u32 = 1u;

@group(0) @binding(0) var<uniform> camera: Camera;

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
    @location(1) world_position: vec3<f32>,
    // Position inside a point's quad, -1..1 (zero for lines and triangles).
    @location(2) corner: vec2<f32>,
}

fn srgb_to_linear(c: vec3<f32>) -> vec3<f32> {
    let lo = c / 12.92;
    let hi = pow((c + 0.055) / 1.055, vec3<f32>(2.4));
    return select(hi, lo, c <= vec3<f32>(0.04045));
}

fn linear_to_srgb(c: vec3<f32>) -> vec3<f32> {
    let x = clamp(c, vec3<f32>(0.0), vec3<f32>(1.0));
    let lo = x * 12.92;
    let hi = 1.055 * pow(x, vec3<f32>(1.0 / 2.4)) - 0.055;
    return select(hi, lo, x <= vec3<f32>(0.0031308));
}

fn finish(c: vec3<f32>, alpha: f32) -> vec4<f32> {
    if ((camera.flags & FLAG_ENCODE_SRGB) != 0u) {
        return vec4<f32>(linear_to_srgb(c), alpha);
    }
    return vec4<f32>(c, alpha);
}

@vertex
fn vs_line(@location(0) position: vec3<f32>, @location(1) color: vec4<f32>) -> VsOut {
    var out: VsOut;
    out.clip = camera.view_proj * vec4<f32>(position, 1.0);
    out.color = vec4<f32>(srgb_to_linear(color.rgb), color.a);
    out.world_position = position;
    out.corner = vec2<f32>(0.0);
    return out;
}

@fragment
fn fs_line(in: VsOut) -> @location(0) vec4<f32> {
    return finish(in.color.rgb, in.color.a);
}

// Faceted shading from screen-space derivatives: no normals needed for the generated solids.
@fragment
fn fs_solid(in: VsOut) -> @location(0) vec4<f32> {
    let n = normalize(cross(dpdx(in.world_position), dpdy(in.world_position)));
    let v = normalize(camera.eye.xyz - in.world_position);
    let light = 0.45 + 0.35 * abs(dot(n, camera.light_dir.xyz)) + 0.25 * abs(dot(n, v));
    return finish(in.color.rgb * light, in.color.a);
}

@vertex
fn vs_point(
    @builtin(vertex_index) vertex: u32,
    @location(0) center: vec3<f32>,
    @location(1) size: f32,
    @location(2) color: vec4<f32>,
) -> VsOut {
    // Two triangles: corners (-1,-1) (1,-1) (1,1) / (-1,-1) (1,1) (-1,1).
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(-1.0, 1.0),
    );
    let corner = corners[vertex % 6u];
    var out: VsOut;
    let clip = camera.view_proj * vec4<f32>(center, 1.0);
    // `size` pixels across: the radius is size / 2 pixels, i.e. size / width in NDC.
    let offset = corner * size * camera.viewport.zw;
    out.clip = vec4<f32>(clip.xy + offset * clip.w, clip.z, clip.w);
    out.color = vec4<f32>(srgb_to_linear(color.rgb), color.a);
    out.world_position = center;
    out.corner = corner;
    return out;
}

@fragment
fn fs_point(in: VsOut) -> @location(0) vec4<f32> {
    let r = length(in.corner);
    if (r > 1.0) {
        discard;
    }
    // A dark rim keeps light markers visible on light surfaces.
    let rim = select(1.0, 0.25, r > 0.72);
    return finish(in.color.rgb * rim, in.color.a);
}
