// Morph targets, then four-influence vertex-blend skinning of positions and normals, shared by the draw
// (vs_main, vs_wire) and by the compute entry points (cs_skin: skinned vertices for tests and analysis;
// cs_stretch: edge-length ratios). The Rust twins of these structs live in src/render/gpu.rs; keep the two in step.
//
// Matrices are glam column-major, column vectors: skinning matrix = to_root * inverse_bind, and
// v' = sum_i w_i * (palette[j_i] * v), exactly what anim::skin_vertex computes on the CPU. Morphing first adds
// weight * delta of each active target (anim::apply_morphs); the table layout is described in src/render/morph.rs.
//
// This file reads the per-frame arrays (palettes, instances, stretch ratios, active morphs) and the model's morph
// tables only through accessor functions (`palette_matrix`, `instance_at`, `stretch_at`, `morph_active_at`,
// `morph_word`, `morph_delta`, `count_ones`). One of two files defines them and is appended to this one
// (src/render/palette_path.rs): `skinned_buffers.wgsl` with storage buffers (and the compute entry points), or
// `skinned_textures.wgsl` with data textures, for GPUs whose vertex stage cannot read storage buffers (WebGL2).

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

struct Instance {
    world: mat4x4<f32>,
    normal_matrix: mat3x3<f32>,
    palette_base: u32,
    bone_count: u32,
    stretch_base: u32,
    flags: u32,
    // This instance's active morph targets: morph_active[morph_base .. morph_base + morph_count].
    morph_base: u32,
    morph_count: u32,
}

// One active morph target of an instance.
struct MorphActive {
    target_index: u32,
    weight: f32,
}

struct Material {
    color: vec4<f32>,
    uv_transform: vec4<f32>,
    has_texture: u32,
    flags: u32,
    alpha_cutoff: f32,
    _pad0: u32,
}

// Material flags (MATERIAL_* in src/render/gpu.rs).
const MATERIAL_MASKED: u32 = 1u;
const MATERIAL_ADDITIVE: u32 = 2u;
const MATERIAL_CHROME: u32 = 4u;
const MATERIAL_FLAT: u32 = 8u;
const MATERIAL_FULLBRIGHT: u32 = 16u;

const MODE_TEXTURED: u32 = 0u;
const MODE_SOLID: u32 = 1u;
const MODE_NORMALS: u32 = 2u;
const MODE_BONE_WEIGHT: u32 = 3u;
const MODE_DOMINANT_BONE: u32 = 4u;
const MODE_STRETCH: u32 = 5u;
const MODE_VERTEX_COLOR: u32 = 6u;
const MODE_MORPH_DISPLACEMENT: u32 = 7u;

const FLAG_ENCODE_SRGB: u32 = 1u;

// Instance flags.
const INSTANCE_GHOST: u32 = 1u;
// Edges of ghost instances: a faint cool grey, so the animated mesh in front stays the subject.
const GHOST_COLOR: vec4<f32> = vec4<f32>(0.45, 0.55, 0.75, 0.22);

// Draw bindings (group 0: frame, group 1: material); group 0's bindings 1-4 and group 2 (the model's morph
// tables) are declared by the palette path's file.
@group(0) @binding(0) var<uniform> camera: Camera;

@group(1) @binding(0) var<uniform> material: Material;
@group(1) @binding(1) var material_texture: texture_2d<f32>;
@group(1) @binding(2) var material_sampler: sampler;

struct Skinned {
    position: vec3<f32>,
    normal: vec3<f32>,
}

// The one skinning function. Influences with weight 0 or a bone outside the instance's palette are skipped
// (as anim::skin_vertex does with `palette.get`), so bad indices never read another instance's matrices.
fn skin(position: vec3<f32>, normal: vec3<f32>, joints: vec4<u32>, weights: vec4<f32>, palette_base: u32,
        bone_count: u32) -> Skinned {
    var p = vec3<f32>(0.0);
    var n = vec3<f32>(0.0);
    for (var i = 0u; i < 4u; i = i + 1u) {
        let w = weights[i];
        let j = joints[i];
        if (w != 0.0 && j < bone_count) {
            let m = palette_matrix(palette_base + j);
            p = p + w * (m * vec4<f32>(position, 1.0)).xyz;
            n = n + w * (mat3x3<f32>(m[0].xyz, m[1].xyz, m[2].xyz) * normal);
        }
    }
    let len2 = dot(n, n);
    var unit = vec3<f32>(0.0);
    if (len2 > 0.0) {
        unit = n * inverseSqrt(len2);
    }
    return Skinned(p, unit);
}

// Adds the instance's active morph targets to a bind-pose vertex (`vertex`: the model's render vertex index).
// One mask test per active target: targets whose span of blocks misses the vertex, or whose block does not list
// it, cost a comparison or two; only listed vertices read deltas. Sums in the active list's (ascending) order,
// like the CPU reference.
fn morph(position: vec3<f32>, normal: vec3<f32>, vertex: u32, inst: Instance) -> Skinned {
    var p = position;
    var n = normal;
    let block = vertex / 64u;
    let lane = vertex % 64u;
    let target_count = morph_word(0u);
    for (var i = 0u; i < inst.morph_count; i = i + 1u) {
        let pick = morph_active_at(inst.morph_base + i);
        if (pick.target_index >= target_count) {
            continue;
        }
        let d = 1u + 4u * pick.target_index;
        // Wraps below the first block, so one comparison rejects both sides of the span.
        let rel = block - morph_word(d);
        if (rel >= morph_word(d + 1u)) {
            continue;
        }
        let record = morph_word(d + 2u) + 3u * rel;
        var word = morph_word(record);
        var bit = lane;
        var before = 0u;
        if (lane >= 32u) {
            before = count_ones(word);
            word = morph_word(record + 1u);
            bit = lane - 32u;
        }
        let mask = 1u << bit;
        if ((word & mask) == 0u) {
            continue;
        }
        let e = 6u * (morph_word(record + 2u) + before + count_ones(word & (mask - 1u)));
        let w = pick.weight;
        p = p + w * vec3<f32>(morph_delta(e), morph_delta(e + 1u), morph_delta(e + 2u));
        n = n + w * vec3<f32>(morph_delta(e + 3u), morph_delta(e + 4u), morph_delta(e + 5u));
    }
    return Skinned(p, n);
}

// ---- Draw ----

struct VsIn {
    @location(0) position: vec3<f32>,
    @location(1) color: vec4<f32>,
    @location(2) normal: vec3<f32>,
    @location(3) uv: vec2<f32>,
    @location(4) joints: vec4<u32>,
    @location(5) weights: vec4<f32>,
    // The vertex's dominant bone's colour (sRGB), from the character's bone colours (src/render/ramps.rs).
    @location(6) bone_color: vec4<f32>,
}

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world_position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    // Vertex colour (linear) in the material and vertex-colour modes; the wire colour for wire passes.
    @location(3) color: vec4<f32>,
    // The analysis modes' value, coloured per fragment so a triangle between two values shows the ramp between
    // them (not a blend of its corner colours): the selected bone's weight, the stretch ratio, or the morph
    // displacement over its range.
    @location(4) analysis: f32,
    // The dominant bone's colour, one per triangle (its first vertex's), so every pixel is a legend colour.
    @location(5) @interpolate(flat) bone_color: vec3<f32>,
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

// The colour ramps (`ramp_heat`, `ramp_stretch`) are generated from `src/render/ramps.rs` and put in front of this
// file, so the legends and the egui painter use the same numbers; bone colours come with each vertex. They are sRGB, as a legend shows
// them; analysis colours are turned linear here and lit by ANALYSIS_LIGHT_FLOOR..1, so a surface facing the light
// shows exactly its legend colour.
fn heat(w: f32) -> vec3<f32> {
    return srgb_to_linear(ramp_heat(w));
}

fn stretch_color(ratio: f32) -> vec3<f32> {
    return srgb_to_linear(ramp_stretch(ratio, camera.stretch_range));
}

// The value the fragment colours in the analysis modes (see `VsOut::analysis`).
fn analysis_value(in: VsIn, vertex: u32, inst: Instance) -> f32 {
    switch camera.mode {
        case MODE_BONE_WEIGHT: {
            var w = 0.0;
            for (var i = 0u; i < 4u; i = i + 1u) {
                if (in.joints[i] == camera.selected_bone) {
                    w = w + in.weights[i];
                }
            }
            return w;
        }
        case MODE_STRETCH: {
            return stretch_at(inst.stretch_base + vertex);
        }
        // Morph displacement without active targets: nothing moved (vs_main_morph sets it for the others).
        default: {
            return 0.0;
        }
    }
}

// The analysis colour of a fragment (linear), from its interpolated value or its triangle's bone.
fn analysis_fragment(in: VsOut) -> vec3<f32> {
    switch camera.mode {
        case MODE_DOMINANT_BONE: {
            return srgb_to_linear(in.bone_color);
        }
        case MODE_STRETCH: {
            return stretch_color(in.analysis);
        }
        default: {
            return heat(in.analysis);
        }
    }
}

// Skins a bind-pose (or already morphed) position and normal and fills the varyings.
fn skinned_vertex(in: VsIn, position: vec3<f32>, normal: vec3<f32>, vertex: u32, inst: Instance) -> VsOut {
    let s = skin(position, normal, in.joints, in.weights, inst.palette_base, inst.bone_count);
    let world = inst.world * vec4<f32>(s.position, 1.0);
    var out: VsOut;
    out.world_position = world.xyz;
    out.clip = camera.view_proj * world;
    out.normal = inst.normal_matrix * s.normal;
    out.uv = in.uv;
    out.color = vec4<f32>(srgb_to_linear(in.color.rgb), in.color.a);
    out.analysis = analysis_value(in, vertex, inst);
    out.bone_color = in.bone_color.rgb;
    return out;
}

// The `_morph` entry points add the instance's active morph targets first. Batches without active targets are
// drawn with the plain ones, which do not contain the morph pass at all, so they pay nothing for it.
@vertex
fn vs_main(in: VsIn, @builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32) -> VsOut {
    return skinned_vertex(in, in.position, in.normal, vertex, instance_at(instance));
}

@vertex
fn vs_main_morph(in: VsIn, @builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32) -> VsOut {
    let inst = instance_at(instance);
    let m = morph(in.position, in.normal, vertex, inst);
    var out = skinned_vertex(in, m.position, m.normal, vertex, inst);
    if (camera.mode == MODE_MORPH_DISPLACEMENT) {
        // How far the active targets moved this vertex (before skinning), over the range the viewer chose.
        let moved = length(m.position - in.position) / max(camera.stretch_range, 1e-20);
        out.analysis = moved;
    }
    return out;
}

// Wireframe edges: the same skinned vertex, pulled a little towards the eye so the lines win the depth test
// against their own triangles without a bias state (depth bias does not apply to line primitives).
fn wire_vertex(skinned: VsOut, inst: Instance) -> VsOut {
    var out = skinned;
    let pulled = out.world_position + (camera.eye.xyz - out.world_position) * 0.003;
    out.clip = camera.view_proj * vec4<f32>(pulled, 1.0);
    out.color = select(camera.wire_color, GHOST_COLOR, (inst.flags & INSTANCE_GHOST) != 0u);
    return out;
}

@vertex
fn vs_wire(in: VsIn, @builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32) -> VsOut {
    let inst = instance_at(instance);
    return wire_vertex(skinned_vertex(in, in.position, in.normal, vertex, inst), inst);
}

@vertex
fn vs_wire_morph(in: VsIn, @builtin(vertex_index) vertex: u32, @builtin(instance_index) instance: u32) -> VsOut {
    let inst = instance_at(instance);
    let m = morph(in.position, in.normal, vertex, inst);
    return wire_vertex(skinned_vertex(in, m.position, m.normal, vertex, inst), inst);
}

fn finish(c: vec3<f32>, alpha: f32) -> vec4<f32> {
    if ((camera.flags & FLAG_ENCODE_SRGB) != 0u) {
        return vec4<f32>(linear_to_srgb(c), alpha);
    }
    return vec4<f32>(c, alpha);
}

// Key light from the camera's upper left, a sky/ground hemisphere ambient and a faint headlight, so every
// side of the model reads without a light rig.
fn shade(base: vec3<f32>, n: vec3<f32>, world_position: vec3<f32>) -> vec3<f32> {
    let l = camera.light_dir.xyz;
    let v = normalize(camera.eye.xyz - world_position);
    let diffuse = max(dot(n, l), 0.0);
    let head = max(dot(n, v), 0.0);
    let h = normalize(l + v);
    let spec = pow(max(dot(n, h), 0.0), 48.0) * 0.12 * step(0.0, dot(n, l));
    let ambient = mix(vec3<f32>(0.16, 0.15, 0.14), vec3<f32>(0.30, 0.33, 0.38), n.y * 0.5 + 0.5);
    return base * (ambient + 0.72 * diffuse + 0.18 * head) + vec3<f32>(spec);
}

// Chrome (GoldSrc STUDIO_NF_CHROME): texture coordinates from the normal seen from the eye, as the engine's
// `StudioModelRenderer::Chrome` makes them: the eye-to-surface direction and the camera's right give an up and a
// right vector, and the normal's components along them, from -1..1 to 0..1, are s and t. The engine takes the
// direction to each bone once per frame; here it is taken per fragment, which differs only in perspective.
fn chrome_uv(n: vec3<f32>, world_position: vec3<f32>) -> vec2<f32> {
    let dir = normalize(world_position - camera.eye.xyz);
    let view_right = vec3<f32>(camera.view[0].x, camera.view[1].x, camera.view[2].x);
    let up = normalize(cross(dir, view_right));
    let right = normalize(cross(dir, up));
    return vec2<f32>((dot(n, right) + 1.0) * 0.5, (dot(n, -up) + 1.0) * 0.5);
}

@fragment
fn fs_main(in: VsOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    var n = in.normal;
    let len2 = dot(n, n);
    n = select(vec3<f32>(0.0, 1.0, 0.0), n * inverseSqrt(len2), len2 > 0.0);
    // Back faces (two-sided materials, culling off) are lit from their own side.
    if (!front) {
        n = -n;
    }
    var color: vec3<f32>;
    switch camera.mode {
        case MODE_NORMALS: {
            color = srgb_to_linear(n * 0.5 + 0.5);
        }
        case MODE_BONE_WEIGHT, MODE_DOMINANT_BONE, MODE_STRETCH, MODE_MORPH_DISPLACEMENT: {
            // Mostly flat so the colour code stays readable, with a little shape from the light.
            let light = ANALYSIS_LIGHT_FLOOR + (1.0 - ANALYSIS_LIGHT_FLOOR) * max(dot(n, camera.light_dir.xyz), 0.0);
            color = analysis_fragment(in) * light;
        }
        case MODE_VERTEX_COLOR: {
            // The file's vertex colours alone, lit: they are data to inspect, not a tint of every mode (many
            // exporters write black or arbitrary colours that the game never multiplies in).
            color = shade(in.color.rgb, n, in.world_position);
        }
        default: {
            var base = material.color;
            let textured = camera.mode == MODE_TEXTURED && material.has_texture != 0u;
            if (textured) {
                var uv = in.uv * material.uv_transform.zw + material.uv_transform.xy;
                if ((material.flags & MATERIAL_CHROME) != 0u) {
                    uv = chrome_uv(n, in.world_position);
                }
                let texel = textureSample(material_texture, material_sampler, uv);
                // Masked (GoldSrc palette index 255): a hole, as the engine's alpha test makes it.
                if ((material.flags & MATERIAL_MASKED) != 0u && texel.a < material.alpha_cutoff) {
                    discard;
                }
                base = base * texel;
            }
            if (textured && (material.flags & (MATERIAL_ADDITIVE | MATERIAL_FULLBRIGHT)) != 0u) {
                // Additive and full-bright surfaces are not lit (the engine draws additive ones in white).
                color = base.rgb;
            } else if (textured && (material.flags & MATERIAL_FLAT) != 0u) {
                // Flat shade: one even light, whatever the normal (the engine's `illum += 0.8 * shade`).
                color = base.rgb * 0.85;
            } else {
                color = shade(base.rgb, n, in.world_position);
            }
        }
    }
    return finish(color, 1.0);
}

@fragment
fn fs_wire(in: VsOut) -> @location(0) vec4<f32> {
    // vs_wire puts the edge colour (wireframe or ghost) in `color`.
    return finish(in.color.rgb, in.color.a);
}
