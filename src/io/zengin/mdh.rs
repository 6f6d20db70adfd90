//! `.MDH`: a compiled model hierarchy (`zCModelPrototype::SaveMDH`; ZenKit `ModelHierarchy.cc`): chunk
//! `0xD100` holds `u32` version (3), `u16` node count and per node its name (a line), `u16` parent index
//! (`0xFFFF` for the root) and local matrix (16 floats, row by row), then the bounding box, the collision box,
//! the root's translation and the node-list checksum; `0xD110` the source file's date and path; `0xD120` ends it.
//!
//! The compiler stores the root's matrix without its translation and keeps that translation apart
//! (`ReadGeomobject`: `rootNodeTrans`); the skeleton puts it back on the root, as OpenGothic's `Skeleton` does,
//! so the bind pose stands where the source did (animations replace the root's translation anyway). A parent
//! index that does not name an earlier node makes the node a root, as `LoadMDH` does (it looks the parent up
//! among the nodes read so far).

use glam::{Mat4, Vec3};

use crate::io::binary::Reader;
use crate::io::{LoadError, LoadErrorKind, LoadOptions};
use crate::scene::{Asset, Format, Position, Reading, Skeleton, Warning};

use super::chunk::{Chunks, ZenDate, ZenRead};
use super::compiler::{Frame, compiled_node_order, engine_axes, local_in, node_list_checksum, source_local_to_engine};

pub const CHUNK_HIERARCHY: u16 = 0xD100;
pub const CHUNK_SOURCE: u16 = 0xD110;
pub const CHUNK_END: u16 = 0xD120;

/// The version `SaveMDH` writes.
pub const VERSION: u32 = 3;

/// One node of a hierarchy.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub name: String,
    pub parent: Option<usize>,
    /// Local transform (the root's without its translation, see [`Hierarchy::root_translation`]).
    pub transform: Mat4,
}

/// A compiled model hierarchy.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Hierarchy {
    pub version: u32,
    pub nodes: Vec<Node>,
    pub bbox: (Vec3, Vec3),
    pub collision_bbox: (Vec3, Vec3),
    pub root_translation: Vec3,
    pub checksum: u32,
    pub source: Option<(ZenDate, String)>,
    pub warnings: Vec<Warning>,
}

impl Hierarchy {
    /// The skeleton in the engine's frame, bones in node order, the root translation put back.
    pub fn skeleton(&self) -> Skeleton {
        self.skeleton_in(Frame::Engine)
    }

    /// The skeleton in `frame` (the sources' frame to join parts read from ASC files), bones in node order.
    pub fn skeleton_in(&self, frame: Frame) -> Skeleton {
        let mut skeleton = Skeleton::default();
        for node in &self.nodes {
            let mut local = node.transform;
            if node.parent.is_none() {
                local.w_axis = self.root_translation.extend(1.0);
            }
            skeleton.push(node.name.clone(), node.parent, local_in(frame, local, node.parent.is_none()));
        }
        skeleton.recompute_inverse_bind();
        skeleton
    }

    /// Whether the stored checksum is the CRC of the node names (a hand-made or damaged file's may not be).
    pub fn checksum_matches_names(&self) -> bool {
        node_list_checksum(self.nodes.iter().map(|n| n.name.as_str())) == self.checksum
    }
}

/// Each node is at least a line break, a parent index and a matrix.
const MIN_NODE_LEN: usize = 1 + 2 + 64;

fn read_hierarchy(r: &mut Reader<'_>, h: &mut Hierarchy) -> Result<(), LoadError> {
    h.version = r.u32("hierarchy version")?;
    if h.version != VERSION {
        h.warnings.push(Warning::new(
            Position::Byte(r.offset() - 4),
            format!("hierarchy version {} (the engine writes {VERSION}); read as version {VERSION}", h.version),
        ));
    }
    let count = r.u16("node count")?;
    let count = r.count(u64::from(count), MIN_NODE_LEN, "nodes")?;
    h.nodes.reserve(count);
    for i in 0..count {
        let at = r.offset();
        let name = r.zen_string(&format!("node {i} name"))?;
        let parent_index = r.u16(&format!("node {i} parent"))?;
        let transform = r.zen_mat4(&format!("node {i} matrix"))?;
        let parent = match usize::from(parent_index) {
            0xFFFF => None,
            p if p < i => Some(p),
            p => {
                h.warnings.push(Warning::new(
                    Position::Byte(at),
                    format!("node {i} ('{name}') names parent {p}, which does not come before it: it is a root, as the engine reads it"),
                ));
                None
            }
        };
        h.nodes.push(Node { name, parent, transform });
    }
    h.bbox = r.zen_aabb("bounding box")?;
    h.collision_bbox = r.zen_aabb("collision box")?;
    h.root_translation = r.vec3("root translation")?;
    h.checksum = r.u32("node-list checksum")?;
    Ok(())
}

/// Reads a hierarchy from `chunks`, up to and including its end chunk (what follows, an `.MDL`'s mesh, is left
/// in `chunks`).
pub fn read_chunks(chunks: &mut Chunks<'_>) -> Result<Hierarchy, LoadError> {
    let mut h = Hierarchy::default();
    let mut seen = false;
    while let Some(mut chunk) = chunks.next_chunk()? {
        match chunk.id {
            CHUNK_HIERARCHY => {
                read_hierarchy(&mut chunk.body, &mut h)?;
                seen = true;
            }
            CHUNK_SOURCE => {
                let date = chunk.body.zen_date("source date")?;
                let path = chunk.body.zen_string("source file").unwrap_or_default();
                h.source = Some((date, path));
            }
            CHUNK_END => break,
            _ => {}
        }
    }
    if !seen {
        return Err(LoadError::whole_file("no hierarchy chunk (0xD100): not a compiled model hierarchy")
            .with_kind(LoadErrorKind::NotThisFormat));
    }
    Ok(h)
}

/// The file `SaveMDH` writes for `h`: the hierarchy chunk and the end chunk (no source chunk).
pub fn write(h: &Hierarchy) -> Vec<u8> {
    let mut body = h.version.to_le_bytes().to_vec();
    body.extend((h.nodes.len().min(usize::from(u16::MAX)) as u16).to_le_bytes());
    for node in h.nodes.iter().take(usize::from(u16::MAX)) {
        body.extend(node.name.as_bytes());
        body.push(b'\n');
        body.extend(node.parent.map_or(0xFFFF, |p| p.min(0xFFFE) as u16).to_le_bytes());
        for v in node.transform.transpose().to_cols_array() {
            body.extend(v.to_le_bytes());
        }
    }
    for v in [h.bbox.0, h.bbox.1, h.collision_bbox.0, h.collision_bbox.1, h.root_translation] {
        for c in v.to_array() {
            body.extend(c.to_le_bytes());
        }
    }
    body.extend(h.checksum.to_le_bytes());
    let mut file = CHUNK_HIERARCHY.to_le_bytes().to_vec();
    file.extend((body.len() as u32).to_le_bytes());
    file.extend(body);
    file.extend(CHUNK_END.to_le_bytes());
    file.extend(0u32.to_le_bytes());
    file
}

/// What the engine's compiler makes of a skeleton read from an ASC (`Load3DSMAXAsc` then `SaveMDH`): the nodes
/// it keeps in its order ([`compiled_node_order`]), upper-cased, their local matrices in the engine's frame, the
/// root's translation kept apart, and the checksum of the names. (The boxes are left empty: they come from the
/// meshes.)
pub fn compiled_from(skeleton: &Skeleton) -> Hierarchy {
    let order = compiled_node_order(skeleton);
    let mut h = Hierarchy { version: VERSION, ..Hierarchy::default() };
    for &b in &order {
        let parent = skeleton.parents.get(b).copied().flatten().and_then(|p| order.iter().position(|&o| o == p));
        let local = skeleton.bind_local.get(b).copied().unwrap_or_default().to_matrix();
        let mut transform = source_local_to_engine(local, parent.is_none());
        if parent.is_none() {
            h.root_translation = transform.w_axis.truncate();
            transform.w_axis = glam::Vec4::W;
        }
        h.nodes.push(Node {
            name: skeleton.names.get(b).map(|n| n.to_uppercase()).unwrap_or_default(),
            parent,
            transform,
        });
    }
    h.checksum = node_list_checksum(h.nodes.iter().map(|n| n.name.as_str()));
    h
}

pub fn read(bytes: &[u8]) -> Result<Hierarchy, LoadError> {
    read_chunks(&mut Chunks::new(bytes))
}

/// The asset of a hierarchy alone: its skeleton, no mesh.
pub fn asset_of(h: &Hierarchy, format: Format) -> Asset {
    let mut asset = Asset::new(format);
    asset.axes = engine_axes();
    asset.skeleton = h.skeleton();
    asset.warnings.extend(h.warnings.iter().cloned());
    asset.readings.push(Reading::new(
        "node-list checksum",
        format!(
            "{} ({})",
            h.checksum,
            if h.checksum_matches_names() {
                "the CRC-32 of the node names"
            } else {
                "not the CRC-32 of the node names"
            }
        ),
        "stored by the compiler; animations and soft-skin meshes made for this hierarchy carry the same number",
    ));
    if let Some((_, path)) = &h.source {
        asset.readings.push(Reading::new("source", path.clone(), "the file the compiler read"));
    }
    asset
}

pub fn load(bytes: &[u8], _opts: &LoadOptions) -> Result<Asset, LoadError> {
    let h = read(bytes)?;
    Ok(asset_of(&h, Format::ZenMdh))
}
