// The viewport's background: one triangle over the whole viewport in a flat colour, already encoded for the
// target (backdrop.rs). No texture, no blending, no per-pixel colour conversion: on a CPU rasteriser a flat fill
// like this costs a fraction of egui's textured, blended, dithered fill of the same area.

@group(0) @binding(0) var<uniform> color: vec4<f32>;

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    // (-1,-1), (3,-1), (-1,3): covers the viewport (clip space -1..1) with one triangle, at the far plane.
    let x = f32((i << 1u) & 2u) * 2.0 - 1.0;
    let y = f32(i & 2u) * 2.0 - 1.0;
    return vec4<f32>(x, y, 1.0, 1.0);
}

@fragment
fn fs_main() -> @location(0) vec4<f32> {
    return color;
}
