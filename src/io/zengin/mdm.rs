//! `.MDM`: a compiled model mesh (`zCModelMeshLib::SaveMDM`; ZenKit `ModelMesh.cc`, `SoftSkinMesh.cc`): the
//! node meshes (rigid meshes, each in the frame of the hierarchy node it hangs on) and the soft-skin meshes
//! (skinned to the hierarchy's nodes) of one model.
//!
//! Chunks: `0xD000` version; `0xD010` the source's date and path; `0xD020` the names of the nodes that carry a
//! mesh, followed by one `0xB100` mesh section per name; `0xD030` the checksum of the hierarchy the soft skins
//! were made for and their count, followed per soft skin by `0xE100` (version), `0xB100` (its mesh), `0xB1FF`
//! (its weights, wedge normals, node list and boxes) and `0xE110`; `0xD040` ends it.
//!
//! A soft-skin vertex is stored per weight: the weight, the hierarchy node, and the vertex's position in that
//! node's frame at the bind pose (`ReadSoftSkinVertList`: `trafoObjToWorld.Inverse() * vertPosWorld`). The
//! engine draws `Σ wᵢ · Nodeᵢ · pᵢ` (OpenGothic's skinning does the same with the node's current matrix); at
//! the bind pose every `Nodeᵢ · pᵢ` is the vertex's one position, so the scene mesh keeps that position with
//! the ordinary inverse bind matrices, which skins alike. How far the weights' positions disagree is reported.

use glam::{Mat4, Vec3};

use crate::io::binary::Reader;
use crate::io::{LoadError, LoadErrorKind, LoadOptions};
use crate::scene::{Material, Mesh, Position, Skeleton, Transform, Warning, reduce_influences};

use super::chunk::{Chunks, ZenDate, ZenRead};
use super::compiler::{Frame, NodeMap, engine_node_point_to_source, engine_point_to_source};
use super::geometry::{Placed, build_mesh, materials};
use super::proto::{self, ProtoMesh};

pub const CHUNK_HEADER: u16 = 0xD000;
pub const CHUNK_SOURCE: u16 = 0xD010;
pub const CHUNK_NODE_MESHES: u16 = 0xD020;
pub const CHUNK_SOFT_SKINS: u16 = 0xD030;
pub const CHUNK_END: u16 = 0xD040;
const CHUNK_SKIN_HEADER: u16 = 0xE100;
const CHUNK_SKIN_END: u16 = 0xE110;
const CHUNK_MESH: u16 = 0xB100;
const CHUNK_MESH_END: u16 = 0xB1FF;

/// One weight of a soft-skin vertex.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weight {
    pub weight: f32,
    /// The vertex's position in the node's frame at the bind pose.
    pub position: Vec3,
    /// Hierarchy node index.
    pub node: u8,
}

/// A soft-skin mesh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SoftSkin {
    pub proto: ProtoMesh,
    /// All weights; position `i`'s are `weights[ranges[i].0 .. ranges[i].1]`.
    pub weights: Vec<Weight>,
    pub ranges: Vec<(u32, u32)>,
    /// The hierarchy nodes the mesh uses.
    pub nodes: Vec<i32>,
}

impl SoftSkin {
    pub fn weights_of(&self, position: usize) -> &[Weight] {
        self.ranges.get(position).and_then(|&(a, b)| self.weights.get(a as usize..b as usize)).unwrap_or(&[])
    }
}

/// A compiled model mesh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelMesh {
    pub version: u32,
    pub source: Option<(ZenDate, String)>,
    /// Node meshes: the node's name and its mesh, in the node's frame.
    pub attachments: Vec<(String, ProtoMesh)>,
    /// The checksum of the hierarchy the soft skins were made for (`None` without soft skins).
    pub checksum: Option<u32>,
    pub soft_skins: Vec<SoftSkin>,
    pub warnings: Vec<Warning>,
}

impl ModelMesh {
    /// The highest hierarchy node index the soft skins name, plus one. Weights name nodes by a byte, and the
    /// engine refuses models of more than [`MAX_NODES`] nodes (`ReadSoftSkinVertList`), so node-list entries
    /// past that are not counted.
    pub fn node_count(&self) -> usize {
        let weights = self.soft_skins.iter().flat_map(|s| s.weights.iter()).map(|w| usize::from(w.node) + 1);
        let listed = self
            .soft_skins
            .iter()
            .flat_map(|s| s.nodes.iter())
            .filter_map(|&n| usize::try_from(n).ok().filter(|&n| n < MAX_NODES).map(|n| n + 1));
        weights.chain(listed).max().unwrap_or(0)
    }
}

/// The most nodes a model may have (its weights name nodes by a byte).
pub const MAX_NODES: usize = 256;

/// Bytes of one weight: `f32`, three `f32`, `u8`.
const WEIGHT_LEN: usize = 17;

fn read_skin_nodes(r: &mut Reader<'_>, skin: &mut SoftSkin) -> Result<(), LoadError> {
    let size = r.u32("weight block size")?;
    let mut block = r.sub(size as usize, "weight block")?;
    let positions = skin.proto.positions.len();
    skin.ranges.reserve(block.count(positions as u64, 4, "weight lists")?);
    for i in 0..positions {
        let count = block.u32(&format!("weight count of vertex {i}"))?;
        let count = block.count(u64::from(count), WEIGHT_LEN, &format!("weights of vertex {i}"))?;
        let first = skin.weights.len() as u32;
        for _ in 0..count {
            let weight = block.f32("weight")?;
            let position = block.vec3("weight position")?;
            let node = block.u8("weight node")?;
            skin.weights.push(Weight { weight, position, node });
        }
        skin.ranges.push((first, skin.weights.len() as u32));
    }
    let normals = r.u32("wedge normal count")?;
    let normals = r.count(u64::from(normals), 16, "wedge normals")?;
    r.skip(normals * 16, "wedge normals")?;
    let nodes = r.u16("node count")?;
    let nodes = r.count(u64::from(nodes), 4, "nodes")?;
    skin.nodes = (0..nodes).map(|_| r.i32("node")).collect::<Result<_, _>>()?;
    for n in 0..nodes {
        r.zen_obb(&format!("box of node {n}"))?;
    }
    Ok(())
}

/// Reads a model mesh from `chunks` up to its end chunk.
pub fn read_chunks(chunks: &mut Chunks<'_>) -> Result<ModelMesh, LoadError> {
    let mut mm = ModelMesh::default();
    let mut names: Vec<String> = Vec::new();
    let mut expected_skins = 0usize;
    let mut skin: Option<SoftSkin> = None;
    let mut seen_header = false;
    while let Some(mut chunk) = chunks.next_chunk()? {
        let r = &mut chunk.body;
        match chunk.id {
            CHUNK_HEADER => {
                mm.version = r.u32("mesh library version")?;
                seen_header = true;
            }
            CHUNK_SOURCE => {
                let date = r.zen_date("source date")?;
                mm.source = Some((date, r.zen_string("source file").unwrap_or_default()));
            }
            CHUNK_NODE_MESHES => {
                let count = r.u16("node mesh count")?;
                let count = r.count(u64::from(count), 1, "node mesh names")?;
                names = (0..count)
                    .map(|i| r.zen_string_skip_space(&format!("node mesh {i} name")))
                    .collect::<Result<_, _>>()?;
            }
            CHUNK_SOFT_SKINS => {
                mm.checksum = Some(r.u32("node-list checksum")?);
                expected_skins = usize::from(r.u16("soft-skin count")?);
            }
            CHUNK_SKIN_HEADER => {
                if let Some(open) = skin.take() {
                    mm.soft_skins.push(open);
                }
                skin = Some(SoftSkin::default());
            }
            CHUNK_MESH => {
                let proto = proto::read(r)?;
                match &mut skin {
                    Some(s) => s.proto = proto,
                    None => {
                        let i = mm.attachments.len();
                        let name = names.get(i).cloned().unwrap_or_else(|| {
                            mm.warnings.push(Warning::new(
                                Position::Byte(chunk.at),
                                format!("node mesh {i} has no name in the node list; called 'node mesh {i}'"),
                            ));
                            format!("node mesh {i}")
                        });
                        mm.attachments.push((name, proto));
                    }
                }
            }
            CHUNK_MESH_END => {
                if let Some(s) = &mut skin {
                    read_skin_nodes(r, s)?;
                }
            }
            CHUNK_SKIN_END => {
                if let Some(done) = skin.take() {
                    mm.soft_skins.push(done);
                }
            }
            CHUNK_END => break,
            _ => {}
        }
    }
    if let Some(open) = skin.take() {
        mm.soft_skins.push(open);
    }
    if !seen_header {
        return Err(LoadError::whole_file("no model mesh chunk (0xD000): not a compiled model mesh")
            .with_kind(LoadErrorKind::NotThisFormat));
    }
    if mm.soft_skins.len() != expected_skins {
        mm.warnings.push(Warning::new(
            Position::File,
            format!("the soft-skin list announces {expected_skins} mesh(es); {} were read", mm.soft_skins.len()),
        ));
    }
    if names.len() > mm.attachments.len() {
        mm.warnings.push(Warning::new(
            Position::File,
            format!(
                "{} node mesh name(s) without a mesh: {}",
                names.len() - mm.attachments.len(),
                names[mm.attachments.len()..].join(", ")
            ),
        ));
    }
    for p in mm.attachments.iter_mut().map(|(_, p)| p).chain(mm.soft_skins.iter_mut().map(|s| &mut s.proto)) {
        mm.warnings.append(&mut p.warnings);
    }
    Ok(mm)
}

pub fn read(bytes: &[u8]) -> Result<ModelMesh, LoadError> {
    read_chunks(&mut Chunks::new(bytes))
}

/// Where meshes are built: a skeleton, how the hierarchy's nodes map onto it and in which frame it is.
pub struct Target<'a> {
    pub skeleton: &'a Skeleton,
    pub map: &'a NodeMap,
    /// The skeleton is a [`placeholder_skeleton`]: its bones stand at the origin, so soft-skin vertices keep the
    /// positions the file stores for them instead of being placed from their weights.
    pub placeholder: bool,
}

/// The meshes and materials of `mm` on `target`'s skeleton; `first_material` is where its materials will start
/// in the asset. Meshes are named after their node (node meshes) or `name` (soft skins).
pub fn build(
    mm: &ModelMesh,
    target: &Target<'_>,
    name: &str,
    first_material: usize,
    opts: &LoadOptions,
) -> (Vec<Mesh>, Vec<Material>, Vec<Warning>) {
    let bind = target.skeleton.bind_to_root();
    let frame = target.map.frame;
    let mut meshes = Vec::new();
    let mut mats: Vec<Material> = Vec::new();
    let mut warnings = Vec::new();
    let bone_of = |node: u8, missing: &mut Vec<u8>| -> u16 {
        match target.map.bone(usize::from(node)) {
            Some(b) => b as u16,
            None => {
                if !missing.contains(&node) {
                    missing.push(node);
                }
                0
            }
        }
    };
    let node_point = |p: Vec3| if frame == Frame::Source { engine_node_point_to_source(p) } else { p };
    let world_dir = |n: Vec3| if frame == Frame::Source { engine_point_to_source(n) } else { n };
    for (node, proto) in &mm.attachments {
        let bone = target.skeleton.find(node);
        if bone.is_none() {
            warnings.push(Warning::new(
                Position::File,
                format!("node mesh '{node}': the skeleton has no node of that name; it is drawn at the root's origin"),
            ));
        }
        let b = bone.unwrap_or(0);
        let m = bone.and_then(|b| bind.get(b)).copied().unwrap_or(Mat4::IDENTITY);
        let base = first_material + mats.len();
        meshes.push(build_mesh(proto, node, base, |w| {
            let local = proto.positions.get(usize::from(w.position)).copied().unwrap_or_default();
            Placed {
                position: m.transform_point3(node_point(local)),
                normal: m.transform_vector3(node_point(w.normal)),
                joints: [b as u16, 0, 0, 0],
                weights: [1.0, 0.0, 0.0, 0.0],
            }
        }));
        mats.extend(materials(proto, opts));
    }
    let mut spread = 0.0f32;
    for (s, skin) in mm.soft_skins.iter().enumerate() {
        let mut missing = Vec::new();
        let mut report = crate::scene::InfluenceReport::default();
        // Each position's place and influences once; the wedges share them.
        let placed: Vec<(Vec3, [u16; 4], [f32; 4])> = (0..skin.proto.positions.len())
            .map(|i| {
                let weights = skin.weights_of(i);
                let mut sum = Vec3::ZERO;
                let mut total = 0.0;
                let mut points = [Vec3::ZERO; 3];
                let mut pairs: Vec<(u16, f32)> = Vec::with_capacity(weights.len());
                for (k, w) in weights.iter().enumerate() {
                    let bone = bone_of(w.node, &mut missing);
                    let p = bind
                        .get(usize::from(bone))
                        .copied()
                        .unwrap_or(Mat4::IDENTITY)
                        .transform_point3(node_point(w.position));
                    if let Some(slot) = points.get_mut(k) {
                        *slot = p;
                    }
                    if w.weight.is_finite() && w.weight > 0.0 {
                        sum += p * w.weight;
                        total += w.weight;
                    }
                    pairs.push((bone, w.weight));
                }
                let position = if total > 0.0 && !target.placeholder {
                    sum / total
                } else {
                    let p = skin.proto.positions.get(i).copied().unwrap_or_default();
                    if frame == Frame::Source { engine_point_to_source(p) } else { p }
                };
                if !target.placeholder {
                    for p in points.iter().take(weights.len().min(3)) {
                        spread = spread.max(p.distance(position));
                    }
                }
                let influences = reduce_influences(&mut pairs, 0, &mut report);
                (position, influences.joints, influences.weights)
            })
            .collect();
        if !missing.is_empty() {
            missing.sort_unstable();
            warnings.push(Warning::new(
                Position::File,
                format!(
                    "soft skin {s}: weights name hierarchy node(s) {missing:?}, which the skeleton does not have; they follow the root"
                ),
            ));
        }
        let base = first_material + mats.len();
        let mesh_name = if mm.soft_skins.len() == 1 { name.to_owned() } else { format!("{name} {s}") };
        let mut mesh = build_mesh(&skin.proto, &mesh_name, base, |w| {
            let (position, joints, weights) = placed.get(usize::from(w.position)).copied().unwrap_or_default();
            Placed { position, normal: world_dir(w.normal), joints, weights }
        });
        mesh.influence_report = report;
        meshes.push(mesh);
        mats.extend(materials(&skin.proto, opts));
    }
    let size = meshes
        .iter()
        .flat_map(|m| m.positions.iter())
        .fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    let diagonal = (size.1 - size.0).length();
    if diagonal.is_finite() && spread > 0.01 * diagonal {
        warnings.push(Warning::new(
            Position::File,
            format!(
                "the weights of a soft-skin vertex place it up to {spread:.2} units apart on this skeleton (the mesh \
                 is {diagonal:.0} across): it was made for other proportions, and each vertex is drawn at the \
                 weighted mean"
            ),
        ));
    }
    (meshes, mats, warnings)
}

/// A skeleton for a mesh opened without its hierarchy: one bone per hierarchy node the soft skins name (`node
/// 0`, `node 1`, …, all at the origin) and one per node mesh (its node's name), so the soft skins stand where the
/// file put them and the node meshes at their node's origin.
pub fn placeholder_skeleton(mm: &ModelMesh) -> Skeleton {
    let mut skeleton = Skeleton::default();
    for n in 0..mm.node_count() {
        skeleton.push(format!("node {n}"), None, Transform::IDENTITY);
    }
    for (name, _) in &mm.attachments {
        if skeleton.find(name).is_none() {
            skeleton.push(name.clone(), None, Transform::IDENTITY);
        }
    }
    if skeleton.is_empty() {
        skeleton.push("root", None, Transform::IDENTITY);
    }
    skeleton.recompute_inverse_bind();
    skeleton
}
