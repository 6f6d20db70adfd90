// The storage-buffer palette path (src/render/palette_path.rs), appended to skinned.wgsl: the per-frame arrays
// and the morph tables are storage buffers, read directly by the accessors, and the compute entry points
// (cs_skin, cs_skin_morph, cs_stretch) skin into scratch buffers for the stretch view and the GPU-vs-CPU tests.

// One palette per instance, back to back; no fixed bone limit.
@group(0) @binding(1) var<storage, read> palette: array<mat4x4<f32>>;
@group(0) @binding(2) var<storage, read> instances: array<Instance>;
// Per (instance, vertex) edge-length ratio, written by cs_stretch; only read in stretch mode.
@group(0) @binding(3) var<storage, read> stretch: array<f32>;
// Every instance's active morph targets, back to back (the only morph data uploaded per frame).
@group(0) @binding(4) var<storage, read> morph_active: array<MorphActive>;

// The model's morph tables (group 2 in the draw and in cs_skin; one bind group per model). `morph_index`:
// word 0 the target count; then per target (first block, block count, word offset of its first block record,
// unused); then the block records (mask of the block's 64 vertices, low and high word; index of the block's
// first entry). `morph_deltas`: six floats per entry (position delta, normal delta), in vertex order.
@group(2) @binding(0) var<storage, read> morph_index: array<u32>;
@group(2) @binding(1) var<storage, read> morph_deltas: array<f32>;

fn palette_matrix(i: u32) -> mat4x4<f32> {
    return palette[i];
}

fn instance_at(i: u32) -> Instance {
    return instances[i];
}

fn stretch_at(i: u32) -> f32 {
    return stretch[i];
}

fn morph_active_at(i: u32) -> MorphActive {
    return morph_active[i];
}

fn morph_word(i: u32) -> u32 {
    return morph_index[i];
}

fn morph_delta(i: u32) -> f32 {
    return morph_deltas[i];
}

fn count_ones(x: u32) -> u32 {
    return countOneBits(x);
}

// The vertex buffer seen as storage (compute entry points). `joints` holds four u16 as two u32.
struct MeshVertex {
    position: vec3<f32>,
    color: u32,
    normal: vec3<f32>,
    bone_color: u32,
    uv: vec2<f32>,
    joints: vec2<u32>,
    weights: vec4<f32>,
}

struct SkinnedVertex {
    position: vec4<f32>,
    normal: vec4<f32>,
}

struct SkinParams {
    vertex_count: u32,
    instance_base: u32,
    _pad0: u32,
    _pad1: u32,
}

// Compute bindings (group 0 as well; the palette and instance arrays are the same bindings as the draw's).
@group(0) @binding(10) var<storage, read> mesh_vertices: array<MeshVertex>;
@group(0) @binding(11) var<storage, read_write> skinned: array<SkinnedVertex>;
@group(0) @binding(12) var<uniform> skin_params: SkinParams;
// Vertex adjacency in CSR form: vertex_count + 1 offsets, then the neighbour indices.
@group(0) @binding(13) var<storage, read> adjacency: array<u32>;
// Bind-pose length of each adjacency entry's edge.
@group(0) @binding(14) var<storage, read> rest_lengths: array<f32>;
@group(0) @binding(15) var<storage, read_write> stretch_out: array<f32>;

fn unpack_joints(packed: vec2<u32>) -> vec4<u32> {
    return vec4<u32>(packed.x & 0xffffu, packed.x >> 16u, packed.y & 0xffffu, packed.y >> 16u);
}

// ---- Compute entry points ----

// Skins `vertex_count` vertices for instances instance_base + global_invocation_id.y into `skinned`, model
// space (the file's frame), at the instance's stretch_base. Strided so any vertex count fits the dispatch limit.
// `cs_skin_morph` morphs first; models without morph targets (or instances without active ones) use `cs_skin`,
// which does not contain the morph pass at all, so they pay nothing for it.
@compute @workgroup_size(64)
fn cs_skin(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let inst = instances[skin_params.instance_base + gid.y];
    let stride = groups.x * 64u;
    for (var i = gid.x; i < skin_params.vertex_count; i = i + stride) {
        let v = mesh_vertices[i];
        let s = skin(v.position, v.normal, unpack_joints(v.joints), v.weights, inst.palette_base, inst.bone_count);
        skinned[inst.stretch_base + i] = SkinnedVertex(vec4<f32>(s.position, 1.0), vec4<f32>(s.normal, 0.0));
    }
}

@compute @workgroup_size(64)
fn cs_skin_morph(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let inst = instances[skin_params.instance_base + gid.y];
    let stride = groups.x * 64u;
    for (var i = gid.x; i < skin_params.vertex_count; i = i + stride) {
        let v = mesh_vertices[i];
        let m = morph(v.position, v.normal, i, inst);
        let s = skin(m.position, m.normal, unpack_joints(v.joints), v.weights, inst.palette_base, inst.bone_count);
        skinned[inst.stretch_base + i] = SkinnedVertex(vec4<f32>(s.position, 1.0), vec4<f32>(s.normal, 0.0));
    }
}

// Mean ratio of each vertex's incident edge lengths, skinned over bind pose (1 = no stretch). Runs after cs_skin.
@compute @workgroup_size(64)
fn cs_stretch(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let inst = instances[skin_params.instance_base + gid.y];
    let count = skin_params.vertex_count;
    let stride = groups.x * 64u;
    for (var i = gid.x; i < count; i = i + stride) {
        // Vertex stretch (src/anim/edges.rs): the incident edge ratio farthest from 1 on a log scale.
        let here = skinned[inst.stretch_base + i].position.xyz;
        var ratio = 1.0;
        var worst = 0.0;
        for (var k = adjacency[i]; k < adjacency[i + 1u]; k = k + 1u) {
            let j = adjacency[count + 1u + k];
            let rest = rest_lengths[k];
            if (rest > 0.0) {
                let r = length(skinned[inst.stretch_base + j].position.xyz - here) / rest;
                let d = abs(log(max(r, 1.17549435e-38)));
                if (d > worst) {
                    worst = d;
                    ratio = r;
                }
            }
        }
        stretch_out[inst.stretch_base + i] = ratio;
    }
}

