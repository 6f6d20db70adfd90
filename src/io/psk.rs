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

use super::actorx::{self, Chunk, Records, VBone};
use super::smoothing::SmoothingGroups;
use super::textures::find_texture;
use super::{LoadError, LoadErrorKind, LoadOptions};
use crate::scene::{Asset, Format, Material, Mesh, MorphTarget, Position, Skeleton, Transform, Warning};

mod faces;
mod vertices;

use faces::CleanFaces;
use vertices::{FileNormals, VertexRepairs};

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
        wedge_point(self.points.len(), wedge)
    }
}

/// [`PskFile::wedge_point`] for a file of `point_count` points.
#[inline]
fn wedge_point(point_count: usize, wedge: &VVertex) -> u32 {
    if point_count > 65536 { wedge.point_index } else { wedge.point_index & 0xFFFF }
}

/// The records of a PSK file read in place from its bytes ([`Records`]): what [`load`] assembles, without
/// copying a chunk.
#[derive(Default)]
struct PskRecords<'a> {
    points: Records<'a, Vec3>,
    wedges: Records<'a, VVertex>,
    faces: FaceRecords<'a>,
    materials: Records<'a, VMaterial>,
    bones: Records<'a, VBone>,
    weights: Records<'a, VRawBoneInfluence>,
    normals: Records<'a, Vec3>,
    colors: Records<'a, [u8; 4]>,
    extra_uvs: Vec<Records<'a, Vec2>>,
    morph_infos: Records<'a, VMorphInfo>,
    morph_data: Records<'a, VMorphData>,
    warnings: Vec<Warning>,
    sources: Sources,
}

/// The face chunk used: `FACE3200` when present, else `FACE0000`.
#[derive(Clone, Copy, Debug)]
enum FaceRecords<'a> {
    Short(Records<'a, VTriangle16>),
    Long(Records<'a, VTriangle32>),
}

impl Default for FaceRecords<'_> {
    fn default() -> Self {
        FaceRecords::Short(Records::default())
    }
}

impl FaceRecords<'_> {
    fn to_faces(self) -> Vec<Face> {
        match self {
            FaceRecords::Short(records) => records.iter().map(FaceRecord::face).collect(),
            FaceRecords::Long(records) => records.iter().map(FaceRecord::face).collect(),
        }
    }
}

/// A face record of either face chunk.
trait FaceRecord: Pod {
    fn face(self) -> Face;
}

impl FaceRecord for VTriangle16 {
    #[inline]
    fn face(self) -> Face {
        Face {
            wedges: self.wedge_index.map(u32::from),
            material: self.material_index,
            aux_material: self.aux_material_index,
            smoothing_groups: self.smoothing_groups,
        }
    }
}

impl FaceRecord for VTriangle32 {
    #[inline]
    fn face(self) -> Face {
        Face {
            wedges: self.wedge_index,
            material: self.material_index,
            aux_material: self.aux_material_index,
            smoothing_groups: self.smoothing_groups,
        }
    }
}

/// Reads the chunks of a PSK/PSKX file into record arrays. Unknown chunks are skipped with a warning.
pub fn parse(bytes: &[u8]) -> Result<PskFile, LoadError> {
    let records = read_records(bytes)?;
    Ok(PskFile {
        points: records.points.to_vec(),
        wedges: records.wedges.to_vec(),
        faces: records.faces.to_faces(),
        materials: records.materials.to_vec(),
        bones: records.bones.to_vec(),
        weights: records.weights.to_vec(),
        normals: records.normals.to_vec(),
        colors: records.colors.to_vec(),
        extra_uvs: records.extra_uvs.iter().map(|r| r.to_vec()).collect(),
        morph_infos: records.morph_infos.to_vec(),
        morph_data: records.morph_data.to_vec(),
        warnings: records.warnings,
    })
}

/// Finds the chunks and checks their record sizes; reads no record.
fn read_records(bytes: &[u8]) -> Result<PskRecords<'_>, LoadError> {
    let mut file = PskRecords::default();
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
                file.points = chunk.view()?;
                file.sources.points = source;
            }
            "VTXW0000" => {
                file.wedges = chunk.view()?;
                file.sources.wedges = source;
            }
            "FACE0000" if has_face32 => {
                file.warnings.push(chunk.warning("ignored: the file also has FACE3200 (32-bit wedge indices)"));
            }
            "FACE0000" => {
                file.faces = FaceRecords::Short(chunk.view()?);
                file.sources.faces = source;
            }
            "FACE3200" => {
                file.faces = FaceRecords::Long(chunk.view()?);
                file.sources.faces = source;
            }
            "MATT0000" => {
                file.materials = chunk.view()?;
                file.sources.materials = source;
            }
            "REFSKELT" => {
                file.bones = chunk.view()?;
                file.sources.bones = source;
            }
            "RAWWEIGHTS" | "RAWWEIGHT" => {
                file.weights = chunk.view()?;
                file.sources.weights = source;
            }
            "VTXNORMS" => {
                file.normals = chunk.view()?;
                file.sources.normals = source;
            }
            "VERTEXCOLOR" => {
                file.colors = chunk.view()?;
                file.sources.colors = source;
            }
            "MRPHINFO" => {
                file.morph_infos = chunk.view()?;
                file.sources.morph_infos = source;
            }
            "MRPHDATA" => {
                file.morph_data = chunk.view()?;
                file.sources.morph_data = source;
            }
            _ => {}
        }
    }
    extra_uv_chunks.sort_by_key(|(index, _)| *index);
    for (_, chunk) in extra_uv_chunks {
        file.extra_uvs.push(chunk.view()?);
        file.sources.extra_uvs.push(chunk.header_only());
    }
    Ok(file)
}

/// Loads a PSK/PSKX file into an asset with one skinned mesh, its materials and its skeleton.
///
/// The records are read in place from `bytes` and every vertex and index array is written once at its final
/// size: the influences per point, one pass over the wedges for the vertex arrays, one over the faces for the
/// checks and one for the index buffer.
pub fn load(bytes: &[u8], opts: &LoadOptions) -> Result<Asset, LoadError> {
    assemble(read_records(bytes)?, opts)
}

/// Assembles the records into the scene model.
fn assemble(mut file: PskRecords, opts: &LoadOptions) -> Result<Asset, LoadError> {
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
    let point_count = file.points.len();
    let wedge_count = file.wedges.len();
    let weights = vertices::PointWeights::new(file.weights, point_count, skeleton.len());
    let normals = match file.normals.len() {
        0 => FileNormals::None,
        len if len == point_count => FileNormals::PerPoint(file.normals),
        len if len == wedge_count => FileNormals::PerWedge(file.normals),
        _ => FileNormals::None,
    };

    let mut mesh = Mesh { name: "PSK mesh".to_owned(), clockwise: true, ..Mesh::default() };
    let wedge_chunk = src.wedges.clone().unwrap_or_else(|| missing("VTXW0000"));
    let (wedge_points, repairs) =
        vertices::fill_vertices(file.points, file.wedges, &weights, normals, &wedge_chunk, &mut mesh)?;
    report_influences(&src, &skeleton, point_count, &mesh, weights.bad, &mut warnings);
    drop(weights);
    report_vertex_repairs(&src, repairs, &mut warnings);

    let face_chunk = src.faces.clone().unwrap_or_else(|| missing("FACE0000"));
    let mut clean = faces::clean(file.faces, &wedge_points, point_count, &face_chunk, &mut warnings)?;
    if clean.kept == 0 {
        warnings.push(face_chunk.warning("no usable faces: the mesh has vertices but nothing to draw"));
    }
    let materials = build_materials(&file, clean.highest_material(), src.materials.as_ref(), opts, &mut warnings);
    faces::fill_indices(file.faces, &mut clean, &mut mesh);
    finish_normals(&file, &wedge_points, &clean, normals, repairs.bad_normals, &mut mesh, &src, &mut warnings);
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

fn build_skeleton(file: &PskRecords, src: &Sources, warnings: &mut Vec<Warning>) -> Result<Skeleton, LoadError> {
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
    actorx::build_skeleton(&file.bones.to_vec(), chunk, warnings)
}

/// The warnings about `RAWWEIGHTS`: rows naming what does not exist, no weights at all, points without weight,
/// points with more than four influences, weights not summing to 1.
fn report_influences(
    src: &Sources,
    skeleton: &Skeleton,
    point_count: usize,
    mesh: &Mesh,
    bad_rows: vertices::BadRows,
    warnings: &mut Vec<Warning>,
) {
    let chunk = src.weights.clone().unwrap_or_else(|| missing("RAWWEIGHTS"));
    let bone_count = skeleton.len();
    if let Some((row, w)) = bad_rows.first {
        warnings.push(chunk.warning(format_args!(
            "{} weight row(s) name a point or bone that does not exist and were skipped (first: row {row}, \
             point {}, bone {}; the file has {point_count} points and {bone_count} bones)",
            bad_rows.count, w.point_index, w.bone_index
        )));
    }
    if src.weights.is_none() && point_count > 0 {
        warnings.push(Warning::new(Position::File, "no RAWWEIGHTS chunk: the mesh is bound rigidly to bone 0"));
    }
    let report = &mesh.influence_report;
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
}

fn report_vertex_repairs(src: &Sources, repairs: VertexRepairs, warnings: &mut Vec<Warning>) {
    if repairs.bad_points > 0 {
        let chunk = src.points.clone().unwrap_or_else(|| missing("PNTS0000"));
        warnings.push(
            chunk.warning(format_args!("{} wedge(s) use a non-finite point; placed at the origin", repairs.bad_points)),
        );
    }
    if repairs.bad_uvs > 0 {
        let chunk = src.wedges.clone().unwrap_or_else(|| missing("VTXW0000"));
        warnings.push(chunk.warning(format_args!("{} wedge(s) have a non-finite UV; set to (0, 0)", repairs.bad_uvs)));
    }
}

/// Materials from `MATT0000`; faces naming a material the file lacks get a placeholder (reported).
fn build_materials(
    file: &PskRecords,
    highest: Option<usize>,
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
                    "no texture for material {i} '{name}' in {} (tried the name and .tga/.png/.bmp/.dds/.jpg/.vtf)",
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

/// Normals: the file's (already in the mesh, normalised, when it has usable ones) or computed. Zero or non-finite
/// file normals are replaced by computed ones.
#[allow(clippy::too_many_arguments)]
fn finish_normals(
    file: &PskRecords,
    wedge_points: &[u32],
    clean: &CleanFaces,
    normals: FileNormals,
    bad: usize,
    mesh: &mut Mesh,
    src: &Sources,
    warnings: &mut Vec<Warning>,
) {
    let n = wedge_points.len();
    let chunk = || src.normals.clone().unwrap_or_else(|| missing("VTXNORMS"));
    if matches!(normals, FileNormals::None) && !file.normals.is_empty() {
        warnings.push(chunk().warning(format_args!(
            "{} normals fit neither the {} points nor the {n} wedges; ignored, normals computed",
            file.normals.len(),
            file.points.len()
        )));
    }
    if matches!(normals, FileNormals::None) {
        mesh.normals = computed_normals(file, wedge_points, &clean.dropped);
        return;
    }
    if bad > 0 {
        let computed = computed_normals(file, wedge_points, &clean.dropped);
        for (normal, c) in mesh.normals.iter_mut().zip(computed) {
            if *normal == Vec3::ZERO {
                *normal = c;
            }
        }
        warnings.push(chunk().warning(format_args!("{bad} zero or non-finite normal(s) replaced by computed ones")));
    }
}

/// Smooth normals per wedge (the shared smoothing-group builder, `io::smoothing`): the angle-weighted normals of
/// the faces around the wedge's point that use this wedge or share a smoothing group with a face that does. Faces
/// wind clockwise.
/// `dropped`: the faces left out of the mesh (degenerate or duplicate), ascending.
fn computed_normals(file: &PskRecords, wedge_points: &[u32], dropped: &[u32]) -> Vec<Vec3> {
    let (face_wedges, groups) = faces::kept_wedges_and_groups(file.faces, dropped);
    let corners: Vec<[u32; 3]> = face_wedges
        .iter()
        .map(|wedges| wedges.map(|w| wedge_points.get(w as usize).copied().unwrap_or(u32::MAX)))
        .collect();
    // Smoothing groups of the faces that use each wedge directly.
    let mut wedge_groups = vec![0u32; wedge_points.len()];
    for (wedges, &face_groups) in face_wedges.iter().zip(&groups) {
        for &w in wedges {
            if let Some(g) = wedge_groups.get_mut(w as usize) {
                *g |= face_groups;
            }
        }
    }
    let points = file.points.to_vec();
    let smoothing = SmoothingGroups::new(&points, &corners, &groups, true);
    wedge_points
        .iter()
        .zip(&wedge_groups)
        .enumerate()
        .map(|(w, (&p, &mask))| {
            // Unreal is Z up: an isolated wedge gets "up".
            smoothing
                .normal(p, mask, |f, c| face_wedges.get(f).is_some_and(|wedges| wedges[c] == w as u32))
                .unwrap_or(Vec3::Z)
        })
        .collect()
}

fn fill_colors_and_extra_uvs(
    file: &PskRecords,
    wedge_points: &[u32],
    mesh: &mut Mesh,
    src: &Sources,
    warnings: &mut Vec<Warning>,
) {
    let n = wedge_points.len();
    if !file.colors.is_empty() {
        if file.colors.len() == n {
            mesh.colors = file.colors.to_vec();
        } else if file.colors.len() == file.points.len() {
            mesh.colors = wedge_points.iter().map(|&p| file.colors.get(p as usize).unwrap_or([255; 4])).collect();
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
            mesh.extra_uvs.push(uvs.iter().map(|uv| if uv.is_finite() { uv } else { Vec2::ZERO }).collect());
        } else {
            let chunk = src.extra_uvs.get(set).cloned().unwrap_or_else(|| missing("EXTRAUVS"));
            warnings.push(chunk.warning(format_args!("{} UVs for {n} wedges; this UV set is ignored", uvs.len())));
        }
    }
}

/// Morph targets: per-point deltas expanded to every wedge of the point.
fn fill_morph_targets(
    file: &PskRecords,
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
        let rows = file.morph_data.range(next, count.min(available));
        next += rows.len();
        let mut target =
            MorphTarget { name: if name.is_empty() { format!("morph {i}") } else { name }, ..MorphTarget::default() };
        for row in rows.iter() {
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
