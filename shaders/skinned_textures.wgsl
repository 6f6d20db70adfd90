// The data-texture palette path (src/render/palette_path.rs), appended to skinned.wgsl, for GPUs whose vertex
// stage cannot read storage buffers (WebGL2, some GL ES drivers). The same bytes the storage path uploads go into
// `rgba32uint` textures, DATA_WIDTH texels (16 bytes each) per row, and the accessors fetch them with textureLoad:
// integer texels keep every bit (float texels could flush small values to zero), and floats are bitcast back.
// There are no compute shaders here: the stretch ratios are measured on the CPU (src/render/cpu_stretch.rs).

// Texels per row of every data texture; `DATA_WIDTH` in src/render/palette_path.rs.
const DATA_WIDTH: u32 = 2048u;

// Four texels per palette matrix (its columns).
@group(0) @binding(1) var palette_texels: texture_2d<u32>;
// Nine texels per instance (`Instance`'s 144 bytes).
@group(0) @binding(2) var instance_texels: texture_2d<u32>;
// Four stretch ratios per texel (measured on the CPU).
@group(0) @binding(3) var stretch_texels: texture_2d<u32>;
// Two active morphs per texel (target index, weight bits).
@group(0) @binding(4) var morph_active_texels: texture_2d<u32>;
// The model's morph tables, four words per texel (layout in skinned_buffers.wgsl).
@group(2) @binding(0) var morph_index_texels: texture_2d<u32>;
@group(2) @binding(1) var morph_delta_texels: texture_2d<u32>;

fn data_coord(texel: u32) -> vec2<u32> {
    return vec2<u32>(texel % DATA_WIDTH, texel / DATA_WIDTH);
}

fn f4(v: vec4<u32>) -> vec4<f32> {
    return bitcast<vec4<f32>>(v);
}

fn palette_matrix(i: u32) -> mat4x4<f32> {
    let t = 4u * i;
    return mat4x4<f32>(
        f4(textureLoad(palette_texels, data_coord(t), 0)),
        f4(textureLoad(palette_texels, data_coord(t + 1u), 0)),
        f4(textureLoad(palette_texels, data_coord(t + 2u), 0)),
        f4(textureLoad(palette_texels, data_coord(t + 3u), 0)),
    );
}

fn instance_texel(i: u32, k: u32) -> vec4<u32> {
    return textureLoad(instance_texels, data_coord(9u * i + k), 0);
}

fn instance_at(i: u32) -> Instance {
    var inst: Instance;
    inst.world = mat4x4<f32>(f4(instance_texel(i, 0u)), f4(instance_texel(i, 1u)), f4(instance_texel(i, 2u)),
        f4(instance_texel(i, 3u)));
    inst.normal_matrix = mat3x3<f32>(f4(instance_texel(i, 4u)).xyz, f4(instance_texel(i, 5u)).xyz,
        f4(instance_texel(i, 6u)).xyz);
    let a = instance_texel(i, 7u);
    inst.palette_base = a.x;
    inst.bone_count = a.y;
    inst.stretch_base = a.z;
    inst.flags = a.w;
    let b = instance_texel(i, 8u);
    inst.morph_base = b.x;
    inst.morph_count = b.y;
    return inst;
}

fn stretch_at(i: u32) -> f32 {
    return bitcast<f32>(textureLoad(stretch_texels, data_coord(i / 4u), 0)[i % 4u]);
}

fn morph_active_at(i: u32) -> MorphActive {
    let t = textureLoad(morph_active_texels, data_coord(i / 2u), 0);
    if (i % 2u == 0u) {
        return MorphActive(t.x, bitcast<f32>(t.y));
    }
    return MorphActive(t.z, bitcast<f32>(t.w));
}

fn morph_word(i: u32) -> u32 {
    return textureLoad(morph_index_texels, data_coord(i / 4u), 0)[i % 4u];
}

fn morph_delta(i: u32) -> f32 {
    return bitcast<f32>(textureLoad(morph_delta_texels, data_coord(i / 4u), 0)[i % 4u]);
}

// GLSL ES 3.0 has no bitCount: the classic SWAR population count.
fn count_ones(x: u32) -> u32 {
    var v = x - ((x >> 1u) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2u) & 0x33333333u);
    return (((v + (v >> 4u)) & 0x0f0f0f0fu) * 0x01010101u) >> 24u;
}
