//! Unreal ActorX PSK / PSKX skeletal meshes: [`parse`] reads the chunks into plain record arrays ([`PskFile`],
//! also useful to tools that want the raw counts), [`load`] assembles them into a [`scene::Asset`](Asset).
//!
//! Owns the PSK chunk layouts and the mesh assembly rules; the container, bone records, rotation convention and
//! axis conversion are shared with PSA in [`super::actorx`] (read its module notes for the conventions and how
//! they were verified). Must not touch GPU, UI or animation code.
//!
//! Assembly:
//! - one render vertex per wedge (point + UV + material), so `vertex_count == wedges`;
//! - skin influences are the `RAWWEIGHTS` rows of the wedge's point, reduced to four (largest kept, renormalised);
//!   points without weights are bound to bone 0 and counted in a warning;
//! - faces are grouped into one subset per material (`MatIndex` of the face); degenerate faces (a point used
//!   twice) and exact duplicates (same points, same winding) are dropped with a warning;
//! - normals come from `VTXNORMS` (one per point, or per wedge) or are computed per wedge from the faces around
//!   its point that share a smoothing group with it;
//! - morph targets (`MRPHINFO`/`MRPHDATA`) are per point in the file and expanded to every wedge of the point.
//!   Their deltas are written with Y mirrored relative to the points by the tools that produce them (UE Viewer,
//!   CUE4Parse/FModel, the Blender add-on), so Y is negated to put them in the points' frame, as the Blender
//!   importer does;
//! - UVs are kept as written (origin top-left, V down), the project's convention;
//! - a material's name is also its texture's name: it is resolved to a file next to the PSK with
//!   [`find_texture`] and reported when missing.

use bytemuck::{Pod, Zeroable};
use glam::{Vec2, Vec3};

use super::actorx::{self, Chunk, VBone};
use super::smoothing::SmoothingGroups;
use super::textures::find_texture;
use super::{LoadError, LoadErrorKind, LoadOptions};
use crate::scene::{
    Asset, Format, InfluenceReport, Influences, Material, Mesh, MorphTarget, Position, Skeleton, Subset, Transform,
    Warning, reduce_influences,
};

/// `VVertex` ("wedge"), 16 bytes. `point_index` is a `u16` plus padding unless the file has more than 65536
/// points; see [`PskFile::wedge_point`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct VVertex {
    pub point_index: u32,
    pub u: f32,
    pub v: f32,
    pub material_index: u8,
    pub reserved: u8,
    pub pad: u16,
}

/// `VTriangle` of `FACE0000`, 12 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct VTriangle16 {
    pub wedge_index: [u16; 3],
    pub material_index: u8,
    pub aux_material_index: u8,
    pub smoothing_groups: u32,
}

/// `VTriangle32` of `FACE3200`, 18 bytes, packed.
#[repr(C, packed)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct VTriangle32 {
    pub wedge_index: [u32; 3],
    pub material_index: u8,
    pub aux_material_index: u8,
    pub smoothing_groups: u32,
}

/// `VMaterial`, 88 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct VMaterial {
    pub name: [u8; 64],
    pub texture_index: i32,
    pub poly_flags: u32,
    pub aux_material: i32,
    pub aux_flags: u32,
    pub lod_bias: i32,
    pub lod_style: i32,
}

/// `VRawBoneInfluence`, 12 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct VRawBoneInfluence {
    pub weight: f32,
    pub point_index: i32,
    pub bone_index: i32,
}

/// `VMorphInfo` of `MRPHINFO`, 68 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct VMorphInfo {
    pub name: [u8; 64],
    pub vertex_count: i32,
}

/// `VMorphData` of `MRPHDATA`, 28 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct VMorphData {
    pub position_delta: [f32; 3],
    pub tangent_z_delta: [f32; 3],
    pub point_index: i32,
}

const _: () = {
    assert!(size_of::<VVertex>() == 16);
    assert!(size_of::<VTriangle16>() == 12);
    assert!(size_of::<VTriangle32>() == 18);
    assert!(size_of::<VMaterial>() == 88);
    assert!(size_of::<VRawBoneInfluence>() == 12);
    assert!(size_of::<VMorphInfo>() == 68);
    assert!(size_of::<VMorphData>() == 28);
};

/// A face of either face chunk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Face {
    pub wedges: [u32; 3],
    pub material: u8,
    pub aux_material: u8,
    pub smoothing_groups: u32,
}

/// The records of a PSK file as written, before assembly. Counts here are the file's own (e.g. `points.len()`
/// is the `PNTS0000` count).
#[derive(Clone, Debug, Default)]
pub struct PskFile {
    pub points: Vec<Vec3>,
    pub wedges: Vec<VVertex>,
    /// From `FACE3200` when present, else `FACE0000`.
    pub faces: Vec<Face>,
    pub materials: Vec<VMaterial>,
    pub bones: Vec<VBone>,
    pub weights: Vec<VRawBoneInfluence>,
    /// `VTXNORMS`: one per point in real files (per wedge accepted too).
    pub normals: Vec<Vec3>,
    /// `VERTEXCOLOR`: RGBA per wedge.
    pub colors: Vec<[u8; 4]>,
    /// `EXTRAUVS0`, `EXTRAUVS1`, … in index order, one UV per wedge each.
    pub extra_uvs: Vec<Vec<Vec2>>,
    pub morph_infos: Vec<VMorphInfo>,
    pub morph_data: Vec<VMorphData>,
    /// Non-fatal problems met while reading the chunks (unknown chunks, duplicates, …).
    pub warnings: Vec<Warning>,
    /// Headers of the chunks used, for messages during assembly.
    sources: Sources,
}

/// Where each chunk kind came from (header only, no data).
#[derive(Clone, Debug, Default)]
struct Sources {
    points: Option<Chunk<'static>>,
    wedges: Option<Chunk<'static>>,
    faces: Option<Chunk<'static>>,
    materials: Option<Chunk<'static>>,
    bones: Option<Chunk<'static>>,
    weights: Option<Chunk<'static>>,
    normals: Option<Chunk<'static>>,
    colors: Option<Chunk<'static>>,
    extra_uvs: Vec<Chunk<'static>>,
    morph_infos: Option<Chunk<'static>>,
    morph_data: Option<Chunk<'static>>,
}

/// A chunk whose header the file lacks, for messages about missing data.
fn missing(id: &str) -> Chunk<'static> {
    Chunk { id: id.to_owned(), offset: 0, type_flag: 0, record_size: 0, count: 0, data: &[], kind: "PSK" }
}

impl PskFile {
    /// The point a wedge uses: the full 32 bits when the file has more than 65536 points, else the low 16 (some
    /// exporters leave the padding after the 16-bit index dirty; examplemesh.psk does).
    pub fn wedge_point(&self, wedge: &VVertex) -> u32 {
        if self.points.len() > 65536 { wedge.point_index } else { wedge.point_index & 0xFFFF }
    }
}

/// Reads the chunks of a PSK/PSKX file into record arrays. Unknown chunks are skipped with a warning.
pub fn parse(bytes: &[u8]) -> Result<PskFile, LoadError> {
    let mut file = PskFile::default();
    let chunks = actorx::read_chunks(bytes, "PSK", "ACTRHEAD", &mut file.warnings)?;
    let mut seen: Vec<&str> = Vec::new();
    let mut extra_uv_chunks: Vec<(u32, &Chunk)> = Vec::new();
    let has_face32 = chunks.iter().any(|c| c.id == "FACE3200");
    for chunk in &chunks {
        let id = chunk.id.as_str();
        if let Some(index) = id.strip_prefix("EXTRAUVS").or_else(|| id.strip_prefix("EXTRAUV")) {
            match index.parse::<u32>() {
                Ok(index) if !extra_uv_chunks.iter().any(|(i, _)| *i == index) => extra_uv_chunks.push((index, chunk)),
                _ => file.warnings.push(chunk.warning("duplicate or unnumbered extra UV chunk skipped")),
            }
            continue;
        }
        let known = matches!(
            id,
            "ACTRHEAD"
                | "PNTS0000"
                | "VTXW0000"
                | "FACE0000"
                | "FACE3200"
                | "MATT0000"
                | "REFSKELT"
                | "RAWWEIGHTS"
                | "RAWWEIGHT"
                | "VTXNORMS"
                | "VERTEXCOLOR"
                | "MRPHINFO"
                | "MRPHDATA"
        );
        if !known {
            file.warnings.push(chunk.warning(format_args!(
                "unknown chunk, {} bytes skipped",
                chunk.data.len() + actorx::CHUNK_HEADER_SIZE
            )));
            continue;
        }
        if seen.contains(&id) {
            file.warnings.push(chunk.warning("second chunk with this ID ignored (the first one is used)"));
            continue;
        }
        seen.push(id);
        let source = Some(chunk.header_only());
        match id {
            "PNTS0000" => {
                file.points = chunk.records()?;
                file.sources.points = source;
            }
            "VTXW0000" => {
                file.wedges = chunk.records()?;
                file.sources.wedges = source;
            }
            "FACE0000" if has_face32 => {
                file.warnings.push(chunk.warning("ignored: the file also has FACE3200 (32-bit wedge indices)"));
            }
            "FACE0000" => {
                file.faces = chunk
                    .iter::<VTriangle16>()?
                    .map(|f| Face {
                        wedges: f.wedge_index.map(u32::from),
                        material: f.material_index,
                        aux_material: f.aux_material_index,
                        smoothing_groups: f.smoothing_groups,
                    })
                    .collect();
                file.sources.faces = source;
            }
            "FACE3200" => {
                file.faces = chunk
                    .iter::<VTriangle32>()?
                    .map(|f| Face {
                        wedges: f.wedge_index,
                        material: f.material_index,
                        aux_material: f.aux_material_index,
                        smoothing_groups: f.smoothing_groups,
                    })
                    .collect();
                file.sources.faces = source;
            }
            "MATT0000" => {
                file.materials = chunk.records()?;
                file.sources.materials = source;
            }
            "REFSKELT" => {
                file.bones = chunk.records()?;
                file.sources.bones = source;
            }
            "RAWWEIGHTS" | "RAWWEIGHT" => {
                file.weights = chunk.records()?;
                file.sources.weights = source;
            }
            "VTXNORMS" => {
                file.normals = chunk.records()?;
                file.sources.normals = source;
            }
            "VERTEXCOLOR" => {
                file.colors = chunk.records()?;
                file.sources.colors = source;
            }
            "MRPHINFO" => {
                file.morph_infos = chunk.records()?;
                file.sources.morph_infos = source;
            }
            "MRPHDATA" => {
                file.morph_data = chunk.records()?;
                file.sources.morph_data = source;
            }
            _ => {}
        }
    }
    extra_uv_chunks.sort_by_key(|(index, _)| *index);
    for (_, chunk) in extra_uv_chunks {
        file.extra_uvs.push(chunk.records()?);
        file.sources.extra_uvs.push(chunk.header_only());
    }
    Ok(file)
}

/// Loads a PSK/PSKX file into an asset with one skinned mesh, its materials and its skeleton.
pub fn load(bytes: &[u8], opts: &LoadOptions) -> Result<Asset, LoadError> {
    let file = parse(bytes)?;
    assemble(file, opts)
}

/// Assembles parsed records into the scene model.
pub fn assemble(mut file: PskFile, opts: &LoadOptions) -> Result<Asset, LoadError> {
    let mut warnings = std::mem::take(&mut file.warnings);
    let src = std::mem::take(&mut file.sources);
    for (present, what) in [
        (src.points.is_some(), "PNTS0000 (points)"),
        (src.wedges.is_some(), "VTXW0000 (wedges)"),
        (src.faces.is_some(), "FACE0000 or FACE3200 (faces)"),
    ] {
        if !present {
            return Err(LoadError::whole_file(format!("PSK file has no {what} chunk: nothing to show (truncated?)"))
                .with_kind(LoadErrorKind::Truncated));
        }
    }

    let skeleton = build_skeleton(&file, &src, &mut warnings)?;
    let wedge_points = resolve_wedge_points(&file, src.wedges.as_ref())?;
    let (point_influences, influence_report) = point_influences(&file, &src, &skeleton, &mut warnings);

    let mut mesh = Mesh { name: "PSK mesh".to_owned(), clockwise: true, influence_report, ..Mesh::default() };
    fill_vertices(&file, &wedge_points, &point_influences, &mut mesh, &src, &mut warnings);
    let faces = clean_faces(&file, &wedge_points, &src, &mut warnings)?;
    if faces.is_empty() {
        let chunk = src.faces.clone().unwrap_or_else(|| missing("FACE0000"));
        warnings.push(chunk.warning("no usable faces: the mesh has vertices but nothing to draw"));
    }
    let materials = build_materials(&file, &faces, src.materials.as_ref(), opts, &mut warnings);
    fill_indices(&faces, &mut mesh);
    fill_normals(&file, &wedge_points, &faces, &mut mesh, &src, &mut warnings);
    fill_colors_and_extra_uvs(&file, &wedge_points, &mut mesh, &src, &mut warnings);
    fill_morph_targets(&file, &wedge_points, &mut mesh, &src, &mut warnings);

    let mut asset = Asset::new(Format::Psk);
    asset.skeleton = skeleton;
    asset.meshes.push(mesh);
    asset.materials = materials;
    asset.axes = actorx::unreal_axes();
    asset.warnings = warnings;
    Ok(asset)
}

fn build_skeleton(file: &PskFile, src: &Sources, warnings: &mut Vec<Warning>) -> Result<Skeleton, LoadError> {
    let Some(chunk) = src.bones.as_ref().filter(|_| !file.bones.is_empty()) else {
        warnings.push(Warning::new(
            Position::File,
            "no bones (REFSKELT missing or empty): a single root bone was made so the mesh can be shown",
        ));
        let mut skeleton = Skeleton::default();
        skeleton.push("root", None, Transform::IDENTITY);
        return Ok(skeleton);
    };
    if file.bones.len() > usize::from(u16::MAX) + 1 {
        return Err(chunk
            .error(format_args!("{} bones; at most 65536 are supported", file.bones.len()))
            .with_kind(LoadErrorKind::Unsupported));
    }
    actorx::build_skeleton(&file.bones, chunk, warnings)
}

fn resolve_wedge_points(file: &PskFile, chunk: Option<&Chunk>) -> Result<Vec<u32>, LoadError> {
    let point_count = file.points.len();
    let mut out = Vec::with_capacity(file.wedges.len());
    for (i, wedge) in file.wedges.iter().enumerate() {
        let point = file.wedge_point(wedge);
        if point as usize >= point_count {
            let chunk = chunk.cloned().unwrap_or_else(|| missing("VTXW0000"));
            return Err(chunk.record_error(
                i,
                format_args!("wedge {i} refers to point {point}, but the file has {point_count} points"),
            ));
        }
        out.push(point);
    }
    Ok(out)
}

/// Four influences per point from `RAWWEIGHTS`, via a counting sort of the rows by point (no per-point vectors).
fn point_influences(
    file: &PskFile,
    src: &Sources,
    skeleton: &Skeleton,
    warnings: &mut Vec<Warning>,
) -> (Vec<Influences>, InfluenceReport) {
    let point_count = file.points.len();
    let bone_count = skeleton.len();
    let chunk = src.weights.clone().unwrap_or_else(|| missing("RAWWEIGHTS"));
    let mut bad_rows = 0usize;
    let mut first_bad = None;
    let mut starts = vec![0u32; point_count + 1];
    let valid = |w: &VRawBoneInfluence| {
        usize::try_from(w.point_index).is_ok_and(|p| p < point_count)
            && usize::try_from(w.bone_index).is_ok_and(|b| b < bone_count)
    };
    for (i, w) in file.weights.iter().enumerate() {
        if valid(w) {
            starts[w.point_index as usize + 1] += 1;
        } else {
            bad_rows += 1;
            first_bad.get_or_insert((i, *w));
        }
    }
    for i in 0..point_count {
        starts[i + 1] += starts[i];
    }
    let mut pairs = vec![(0u16, 0f32); starts[point_count] as usize];
    let mut cursor = starts.clone();
    for w in file.weights.iter().filter(|w| valid(w)) {
        let slot = &mut cursor[w.point_index as usize];
        pairs[*slot as usize] = (w.bone_index as u16, w.weight);
        *slot += 1;
    }
    let mut report = InfluenceReport::default();
    let mut out = Vec::with_capacity(point_count);
    for p in 0..point_count {
        let range = starts[p] as usize..starts[p + 1] as usize;
        out.push(reduce_influences(pairs.get_mut(range).unwrap_or_default(), 0, &mut report));
    }
    if let Some((row, w)) = first_bad {
        warnings.push(chunk.warning(format_args!(
            "{bad_rows} weight row(s) name a point or bone that does not exist and were skipped (first: row {row}, \
             point {}, bone {}; the file has {point_count} points and {bone_count} bones)",
            w.point_index, w.bone_index
        )));
    }
    if src.weights.is_none() && point_count > 0 {
        warnings.push(Warning::new(Position::File, "no RAWWEIGHTS chunk: the mesh is bound rigidly to bone 0"));
    }
    if report.unweighted > 0 {
        let root = skeleton.names.first().map(String::as_str).unwrap_or("root");
        warnings.push(chunk.warning(format_args!(
            "{} of {point_count} points have no weight and were bound to bone 0 '{root}'",
            report.unweighted
        )));
    }
    if report.trimmed > 0 {
        warnings.push(chunk.warning(format_args!(
            "{} point(s) have more than 4 influences (up to {}); the 4 largest were kept and renormalised",
            report.trimmed, report.max_influences
        )));
    }
    let off_sum = report.renormalized.saturating_sub(report.trimmed);
    if off_sum > 0 {
        warnings.push(chunk.warning(format_args!("{off_sum} point(s) had weights not summing to 1; renormalised")));
    }
    (out, report)
}

fn fill_vertices(
    file: &PskFile,
    wedge_points: &[u32],
    influences: &[Influences],
    mesh: &mut Mesh,
    src: &Sources,
    warnings: &mut Vec<Warning>,
) {
    let n = file.wedges.len();
    mesh.positions.reserve_exact(n);
    mesh.uvs.reserve_exact(n);
    mesh.joints.reserve_exact(n);
    mesh.weights.reserve_exact(n);
    let fallback = Influences { joints: [0; 4], weights: [1.0, 0.0, 0.0, 0.0] };
    let (mut bad_points, mut bad_uvs) = (0usize, 0usize);
    for (wedge, &point) in file.wedges.iter().zip(wedge_points) {
        let mut position = file.points.get(point as usize).copied().unwrap_or(Vec3::ZERO);
        if !position.is_finite() {
            bad_points += 1;
            position = Vec3::ZERO;
        }
        let mut uv = Vec2::new(wedge.u, wedge.v);
        if !uv.is_finite() {
            bad_uvs += 1;
            uv = Vec2::ZERO;
        }
        let inf = influences.get(point as usize).unwrap_or(&fallback);
        mesh.positions.push(position);
        mesh.uvs.push(uv);
        mesh.joints.push(inf.joints);
        mesh.weights.push(inf.weights);
    }
    if bad_points > 0 {
        let chunk = src.points.clone().unwrap_or_else(|| missing("PNTS0000"));
        warnings
            .push(chunk.warning(format_args!("{bad_points} wedge(s) use a non-finite point; placed at the origin")));
    }
    if bad_uvs > 0 {
        let chunk = src.wedges.clone().unwrap_or_else(|| missing("VTXW0000"));
        warnings.push(chunk.warning(format_args!("{bad_uvs} wedge(s) have a non-finite UV; set to (0, 0)")));
    }
}

/// Checks wedge indices (out of range is an error) and drops degenerate and duplicate faces (warnings).
fn clean_faces(
    file: &PskFile,
    wedge_points: &[u32],
    src: &Sources,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Face>, LoadError> {
    let chunk = src.faces.clone().unwrap_or_else(|| missing("FACE0000"));
    let wedge_count = wedge_points.len();
    let mut kept: Vec<Face> = Vec::with_capacity(file.faces.len());
    // Canonical point triple (rotated so the smallest point comes first, winding kept) of every kept face.
    let mut keys: Vec<[u32; 3]> = Vec::with_capacity(file.faces.len());
    // Original indices of the dropped degenerate faces (ascending), to name faces by their index in the file.
    let mut degenerate: Vec<u32> = Vec::new();
    for (i, face) in file.faces.iter().enumerate() {
        let mut points = [0u32; 3];
        for (corner, &w) in face.wedges.iter().enumerate() {
            match wedge_points.get(w as usize) {
                Some(&p) => points[corner] = p,
                None => {
                    return Err(chunk.record_error(
                        i,
                        format_args!("face {i} refers to wedge {w}, but the file has {wedge_count} wedges"),
                    ));
                }
            }
        }
        let [a, b, c] = points;
        if a == b || b == c || a == c {
            degenerate.push(i as u32);
            continue;
        }
        keys.push(if a < b && a < c {
            [a, b, c]
        } else if b < c {
            [b, c, a]
        } else {
            [c, a, b]
        });
        kept.push(*face);
    }
    if let Some(first) = degenerate.first() {
        warnings.push(chunk.warning(format_args!(
            "{} degenerate face(s) (a point used twice) dropped (first: face {first})",
            degenerate.len()
        )));
    }
    let duplicate = duplicate_flags(&keys, file.points.len());
    if let Some(first_kept) = duplicate.iter().position(|d| *d) {
        // Back from the index among kept faces to the index in the file.
        let mut first = first_kept;
        for &d in &degenerate {
            if d as usize <= first {
                first += 1;
            } else {
                break;
            }
        }
        let duplicates = duplicate.iter().filter(|d| **d).count();
        warnings.push(chunk.warning(format_args!(
            "{duplicates} duplicate face(s) (same points, same winding as an earlier face) dropped (first: face {first})"
        )));
        let mut flags = duplicate.iter();
        kept.retain(|_| !flags.next().copied().unwrap_or(false));
    }
    Ok(kept)
}

/// Marks every face whose canonical key repeats an earlier face's. Buckets faces by their smallest point
/// (counting sort, linear), then sorts each small bucket, so adversarial fans stay `n log n`.
fn duplicate_flags(keys: &[[u32; 3]], point_count: usize) -> Vec<bool> {
    let mut flags = vec![false; keys.len()];
    if keys.len() < 2 {
        return flags;
    }
    let mut starts = vec![0u32; point_count + 1];
    for k in keys {
        if let Some(s) = starts.get_mut(k[0] as usize + 1) {
            *s += 1;
        }
    }
    for i in 0..point_count {
        starts[i + 1] += starts[i];
    }
    let mut cursor = starts.clone();
    let mut order = vec![(0u32, 0u32, 0u32); keys.len()];
    for (face, k) in keys.iter().enumerate() {
        if let Some(slot) = cursor.get_mut(k[0] as usize) {
            if let Some(entry) = order.get_mut(*slot as usize) {
                *entry = (k[1], k[2], face as u32);
            }
            *slot += 1;
        }
    }
    for p in 0..point_count {
        let bucket = &mut order[starts[p] as usize..starts[p + 1] as usize];
        if bucket.len() < 2 {
            continue;
        }
        bucket.sort_unstable();
        for pair in bucket.windows(2) {
            if pair[0].0 == pair[1].0 && pair[0].1 == pair[1].1 {
                flags[pair[1].2 as usize] = true;
            }
        }
    }
    flags
}

/// Materials from `MATT0000`; faces naming a material the file lacks get a placeholder (reported).
fn build_materials(
    file: &PskFile,
    faces: &[Face],
    chunk: Option<&Chunk>,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Vec<Material> {
    let mut materials: Vec<Material> = Vec::with_capacity(file.materials.len());
    for (i, raw) in file.materials.iter().enumerate() {
        let name = actorx::decode_name(&raw.name);
        let mut material = Material::named(if name.is_empty() { format!("material {i}") } else { name.clone() });
        // ActorX triangle types 1–4 (two-sided, translucent, masked, modulated) are all drawn two-sided.
        material.two_sided = matches!(raw.poly_flags & 0x0F, 1..=4);
        // "None" is Unreal's null name: no material was assigned, so there is no texture to look for.
        if !name.is_empty() && !name.eq_ignore_ascii_case("none") {
            let texture = find_texture(opts, &name, &[]);
            if texture.path.is_none() && !texture.searched.is_empty() {
                let folders: Vec<String> = texture.searched.iter().map(|d| d.display().to_string()).collect();
                let message = format!(
                    "no texture for material {i} '{name}' in {} (tried the name and .tga/.png/.bmp/.dds/.jpg)",
                    folders.join(", ")
                );
                warnings.push(match chunk {
                    Some(chunk) => chunk.warning(message),
                    None => Warning::new(Position::File, message),
                });
            }
            material.texture = Some(texture);
        }
        materials.push(material);
    }
    let highest = faces.iter().map(|f| usize::from(f.material)).max();
    if let Some(highest) = highest
        && highest >= materials.len()
    {
        let missing_from = materials.len();
        while materials.len() <= highest {
            materials.push(Material::named(format!("material {} (missing)", materials.len())));
        }
        let what = if file.materials.is_empty() {
            "the file has no materials (MATT0000)".to_owned()
        } else {
            format!("the file has {missing_from}")
        };
        let message = format!("faces use material index {highest} but {what}; placeholder materials added");
        warnings.push(match chunk {
            Some(chunk) => chunk.warning(message),
            None => Warning::new(Position::File, message),
        });
    }
    materials
}

/// Index buffer grouped by material (counting sort on the 8-bit material index, face order kept within each).
fn fill_indices(faces: &[Face], mesh: &mut Mesh) {
    let mut counts = [0u32; 257];
    for f in faces {
        counts[usize::from(f.material) + 1] += 1;
    }
    for i in 0..256 {
        counts[i + 1] += counts[i];
    }
    let mut cursor = counts;
    let mut indices = vec![0u32; faces.len() * 3];
    for f in faces {
        let slot = &mut cursor[usize::from(f.material)];
        let at = *slot as usize * 3;
        if let Some(dst) = indices.get_mut(at..at + 3) {
            dst.copy_from_slice(&f.wedges);
        }
        *slot += 1;
    }
    mesh.indices = indices;
    mesh.subsets = (0..256)
        .filter(|&m| counts[m + 1] > counts[m])
        .map(|m| Subset { material: m, first_index: counts[m] * 3, index_count: (counts[m + 1] - counts[m]) * 3 })
        .collect();
}

/// Normals from `VTXNORMS`, or computed. Zero or non-finite file normals are replaced by computed ones.
fn fill_normals(
    file: &PskFile,
    wedge_points: &[u32],
    faces: &[Face],
    mesh: &mut Mesh,
    src: &Sources,
    warnings: &mut Vec<Warning>,
) {
    let n = wedge_points.len();
    let from_file: Option<Vec<Vec3>> = if file.normals.is_empty() {
        None
    } else if file.normals.len() == file.points.len() {
        Some(wedge_points.iter().map(|&p| file.normals.get(p as usize).copied().unwrap_or(Vec3::ZERO)).collect())
    } else if file.normals.len() == n {
        Some(file.normals.clone())
    } else {
        let chunk = src.normals.clone().unwrap_or_else(|| missing("VTXNORMS"));
        warnings.push(chunk.warning(format_args!(
            "{} normals fit neither the {} points nor the {n} wedges; ignored, normals computed",
            file.normals.len(),
            file.points.len()
        )));
        None
    };
    let Some(mut normals) = from_file else {
        mesh.normals = computed_normals(file, wedge_points, faces);
        return;
    };
    let mut bad = 0usize;
    for normal in &mut normals {
        *normal = normal.normalize_or_zero();
        bad += usize::from(*normal == Vec3::ZERO);
    }
    if bad > 0 {
        let computed = computed_normals(file, wedge_points, faces);
        for (normal, c) in normals.iter_mut().zip(computed) {
            if *normal == Vec3::ZERO {
                *normal = c;
            }
        }
        let chunk = src.normals.clone().unwrap_or_else(|| missing("VTXNORMS"));
        warnings.push(chunk.warning(format_args!("{bad} zero or non-finite normal(s) replaced by computed ones")));
    }
    mesh.normals = normals;
}

/// Smooth normals per wedge (the shared smoothing-group builder, `io::smoothing`): the angle-weighted normals of
/// the faces around the wedge's point that use this wedge or share a smoothing group with a face that does. Faces
/// wind clockwise.
fn computed_normals(file: &PskFile, wedge_points: &[u32], faces: &[Face]) -> Vec<Vec3> {
    let corners: Vec<[u32; 3]> =
        faces.iter().map(|f| f.wedges.map(|w| wedge_points.get(w as usize).copied().unwrap_or(u32::MAX))).collect();
    let groups: Vec<u32> = faces.iter().map(|f| f.smoothing_groups).collect();
    // Smoothing groups of the faces that use each wedge directly.
    let mut wedge_groups = vec![0u32; wedge_points.len()];
    for f in faces {
        for &w in &f.wedges {
            if let Some(g) = wedge_groups.get_mut(w as usize) {
                *g |= f.smoothing_groups;
            }
        }
    }
    let smoothing = SmoothingGroups::new(&file.points, &corners, &groups, true);
    wedge_points
        .iter()
        .zip(&wedge_groups)
        .enumerate()
        .map(|(w, (&p, &mask))| {
            // Unreal is Z up: an isolated wedge gets "up".
            smoothing.normal(p, mask, |f, c| faces.get(f).is_some_and(|f| f.wedges[c] == w as u32)).unwrap_or(Vec3::Z)
        })
        .collect()
}

fn fill_colors_and_extra_uvs(
    file: &PskFile,
    wedge_points: &[u32],
    mesh: &mut Mesh,
    src: &Sources,
    warnings: &mut Vec<Warning>,
) {
    let n = wedge_points.len();
    if !file.colors.is_empty() {
        if file.colors.len() == n {
            mesh.colors = file.colors.clone();
        } else if file.colors.len() == file.points.len() {
            mesh.colors =
                wedge_points.iter().map(|&p| file.colors.get(p as usize).copied().unwrap_or([255; 4])).collect();
        } else {
            let chunk = src.colors.clone().unwrap_or_else(|| missing("VERTEXCOLOR"));
            warnings.push(chunk.warning(format_args!(
                "{} colours fit neither the {n} wedges nor the {} points; ignored",
                file.colors.len(),
                file.points.len()
            )));
        }
    }
    for (set, uvs) in file.extra_uvs.iter().enumerate() {
        if uvs.is_empty() {
            // An empty optional chunk is the same as none.
            continue;
        }
        if uvs.len() == n {
            mesh.extra_uvs.push(uvs.iter().map(|uv| if uv.is_finite() { *uv } else { Vec2::ZERO }).collect());
        } else {
            let chunk = src.extra_uvs.get(set).cloned().unwrap_or_else(|| missing("EXTRAUVS"));
            warnings.push(chunk.warning(format_args!("{} UVs for {n} wedges; this UV set is ignored", uvs.len())));
        }
    }
}

/// Morph targets: per-point deltas expanded to every wedge of the point.
fn fill_morph_targets(
    file: &PskFile,
    wedge_points: &[u32],
    mesh: &mut Mesh,
    src: &Sources,
    warnings: &mut Vec<Warning>,
) {
    if file.morph_infos.is_empty() && file.morph_data.is_empty() {
        return;
    }
    let info_chunk = src.morph_infos.clone().unwrap_or_else(|| missing("MRPHINFO"));
    let data_chunk = src.morph_data.clone().unwrap_or_else(|| missing("MRPHDATA"));
    let point_count = file.points.len();
    // Wedges of each point (CSR).
    let mut starts = vec![0u32; point_count + 1];
    for &p in wedge_points {
        starts[p as usize + 1] += 1;
    }
    for i in 0..point_count {
        starts[i + 1] += starts[i];
    }
    let mut cursor = starts.clone();
    let mut wedges_of = vec![0u32; wedge_points.len()];
    for (w, &p) in wedge_points.iter().enumerate() {
        let slot = &mut cursor[p as usize];
        wedges_of[*slot as usize] = w as u32;
        *slot += 1;
    }
    // Mirror Y back into the points' frame (see the module notes).
    let unmirror = |v: [f32; 3]| {
        let v = Vec3::new(v[0], -v[1], v[2]);
        if v.is_finite() { v } else { Vec3::ZERO }
    };
    let mut next = 0usize;
    let mut bad_points = 0usize;
    let mut repeated_points = 0usize;
    let mut short = false;
    // Each point counts once per target (a repeat would only add its delta twice), and the expansion to wedges is
    // capped far above what real files need, so a crafted file cannot make it explode.
    let mut stamp = vec![u32::MAX; point_count];
    let budget = 8 * (file.morph_data.len() + wedge_points.len()) + (1 << 20);
    let mut used = 0usize;
    let mut over_budget = false;
    for (i, info) in file.morph_infos.iter().enumerate() {
        let name = actorx::decode_name(&info.name);
        let count = usize::try_from(info.vertex_count).unwrap_or(0);
        let available = file.morph_data.len() - next;
        if count > available {
            short = true;
        }
        let rows = file.morph_data.get(next..next + count.min(available)).unwrap_or_default();
        next += rows.len();
        let mut target =
            MorphTarget { name: if name.is_empty() { format!("morph {i}") } else { name }, ..MorphTarget::default() };
        for row in rows {
            let Some(p) = usize::try_from(row.point_index).ok().filter(|p| *p < point_count) else {
                bad_points += 1;
                continue;
            };
            if stamp[p] == i as u32 {
                repeated_points += 1;
                continue;
            }
            stamp[p] = i as u32;
            let wedges = wedges_of.get(starts[p] as usize..starts[p + 1] as usize).unwrap_or_default();
            used += wedges.len();
            if used > budget {
                over_budget = true;
                break;
            }
            let (position, normal) = (unmirror(row.position_delta), unmirror(row.tangent_z_delta));
            for &w in wedges {
                target.vertices.push(w);
                target.position_deltas.push(position);
                target.normal_deltas.push(normal);
            }
        }
        mesh.morph_targets.push(target);
    }
    if short {
        warnings.push(info_chunk.warning(format_args!(
            "the morph targets list more deltas than MRPHDATA holds ({}); the last target(s) were cut short",
            file.morph_data.len()
        )));
    } else if next < file.morph_data.len() {
        warnings.push(data_chunk.warning(format_args!(
            "{} morph delta(s) belong to no MRPHINFO entry and were ignored",
            file.morph_data.len() - next
        )));
    }
    if bad_points > 0 {
        warnings.push(
            data_chunk.warning(format_args!("{bad_points} morph delta(s) name a point that does not exist; skipped")),
        );
    }
    if repeated_points > 0 {
        warnings.push(data_chunk.warning(format_args!(
            "{repeated_points} morph delta(s) repeat a point already in their target; the first delta is kept"
        )));
    }
    if over_budget {
        warnings.push(data_chunk.warning(format_args!(
            "the morph targets expand to more than {budget} vertex deltas, far beyond real files; the rest were dropped"
        )));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_detection_keeps_first_and_ignores_reversed_winding() {
        let keys = [[0, 1, 2], [0, 2, 1], [0, 1, 2], [1, 2, 3], [0, 1, 2]];
        assert_eq!(duplicate_flags(&keys, 4), vec![false, false, true, false, true]);
    }

    #[test]
    fn indices_group_by_material_in_face_order() {
        let faces = [
            Face { wedges: [0, 1, 2], material: 1, ..Face::default() },
            Face { wedges: [3, 4, 5], material: 0, ..Face::default() },
            Face { wedges: [6, 7, 8], material: 1, ..Face::default() },
        ];
        let mut mesh = Mesh::default();
        fill_indices(&faces, &mut mesh);
        assert_eq!(mesh.indices, vec![3, 4, 5, 0, 1, 2, 6, 7, 8]);
        assert_eq!(
            mesh.subsets,
            vec![
                Subset { material: 0, first_index: 0, index_count: 3 },
                Subset { material: 1, first_index: 3, index_count: 6 }
            ]
        );
    }
}
