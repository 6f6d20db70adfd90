//! The engine's static triangle mesh, `zCProgMeshProto` (the `0xB100` section of `.MRM` files, of the node and
//! soft-skin meshes of `.MDM` files and of `.MMB` morph meshes): positions, normals, and per submesh its
//! triangles over "wedges" (a corner's normal, texture coordinates and position index) and its material.
//!
//! Layout as ZenKit's `MultiResolutionMesh.cc` `load_from_section` reads it: `u16 version` (0x305 Gothic 1,
//! 0x905 Gothic 2), `u32 size` and that many bytes of data; then `u8` submesh count, the (offset, count) pairs of
//! the positions, the normals and, per submesh, of ten arrays (triangles, wedges, colours, plane indices,
//! planes, wedge map, vertex updates, triangle edges, edges, edge scores), offsets counted from the start of the
//! data and counts in records; then the materials (a ZenGin archive, [`super::material`]), on Gothic 2 an
//! alpha-test byte, and the boxes. A wedge is 24 bytes: normal, texture coordinates, `u16` position, `u16`
//! padding. Every table is checked against the data before it is read; the level-of-detail arrays are not
//! read (bonescope shows the full mesh).

use glam::{Vec2, Vec3};

use crate::io::LoadError;
use crate::io::binary::{Reader, slice_at};
use crate::scene::{Position, Warning};

use super::material::{ZenMaterial, read_materials};

/// Gothic 2's version of the section (it adds the alpha-test byte).
pub const VERSION_G2: u16 = 0x905;

/// One corner of a triangle: its normal and texture coordinates, and the position it stands at.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Wedge {
    pub normal: Vec3,
    /// Texture coordinates with the origin at the top left (the engine flipped `v` when it compiled the ASC).
    pub uv: Vec2,
    /// Index into [`ProtoMesh::positions`].
    pub position: u16,
}

/// A part of the mesh drawn with one material.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SubMesh {
    /// Three wedge indices per triangle.
    pub triangles: Vec<[u16; 3]>,
    pub wedges: Vec<Wedge>,
}

/// A `zCProgMeshProto`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProtoMesh {
    pub version: u16,
    pub positions: Vec<Vec3>,
    /// Per-position normals; empty in most files (the wedges carry the normals).
    pub normals: Vec<Vec3>,
    pub submeshes: Vec<SubMesh>,
    /// One per submesh.
    pub materials: Vec<ZenMaterial>,
    pub alpha_test: bool,
    /// Problems that cost part of the data (materials not read).
    pub warnings: Vec<Warning>,
}

impl ProtoMesh {
    pub fn triangle_count(&self) -> usize {
        self.submeshes.iter().map(|s| s.triangles.len()).sum()
    }

    pub fn wedge_count(&self) -> usize {
        self.submeshes.iter().map(|s| s.wedges.len()).sum()
    }
}

/// An (offset, count) pair of the section's table.
#[derive(Clone, Copy, Debug)]
struct Span {
    offset: u32,
    count: u32,
}

fn span(r: &mut Reader<'_>, what: &str) -> Result<Span, LoadError> {
    Ok(Span { offset: r.u32(what)?, count: r.u32(what)? })
}

/// The records of `span` in `data` (the section's data, whose offsets the table counts from), checked to lie
/// inside it.
fn records<'a>(data: &Reader<'a>, span: Span, size: usize, what: &str) -> Result<Reader<'a>, LoadError> {
    let len = (span.count as usize).checked_mul(size);
    let slice = len.and_then(|len| slice_at(data.bytes(), span.offset as usize, len));
    match slice {
        Some(slice) => Ok(Reader::with_base(slice, data.offset() + u64::from(span.offset))),
        None => Err(LoadError::truncated(
            data.offset() + u64::from(span.offset),
            format!(
                "{what}: {} records of {size} bytes at offset {} of the mesh data run past its end ({} bytes, which \
                 start at byte {})",
                span.count,
                span.offset,
                data.len(),
                data.offset()
            ),
        )),
    }
}

/// Reads a section at the cursor (the body of a `0xB100` chunk), leaving the cursor after what was read.
pub fn read(r: &mut Reader<'_>) -> Result<ProtoMesh, LoadError> {
    let version = r.u16("mesh version")?;
    let size = r.u32("mesh data size")?;
    let data = r.sub(size as usize, "mesh data")?;
    let submesh_count = r.u8("submesh count")? as usize;
    let positions_span = span(r, "position table")?;
    let normals_span = span(r, "normal table")?;
    let mut tables = Vec::with_capacity(submesh_count);
    for _ in 0..submesh_count {
        let mut spans = [Span { offset: 0, count: 0 }; 10];
        for s in &mut spans {
            *s = span(r, "submesh table")?;
        }
        tables.push(spans);
    }
    let mut positions_reader = records(&data, positions_span, 12, "positions")?;
    let positions: Vec<Vec3> =
        (0..positions_span.count).map(|_| positions_reader.vec3("position")).collect::<Result<_, _>>()?;
    let mut normals_reader = records(&data, normals_span, 12, "normals")?;
    let normals: Vec<Vec3> =
        (0..normals_span.count).map(|_| normals_reader.vec3("normal")).collect::<Result<_, _>>()?;
    let mut submeshes = Vec::with_capacity(submesh_count);
    for (s, spans) in tables.iter().enumerate() {
        let mut tris = records(&data, spans[0], 6, &format!("submesh {s} triangles"))?;
        let mut wedge_reader = records(&data, spans[1], 24, &format!("submesh {s} wedges"))?;
        let mut wedges = Vec::with_capacity(spans[1].count as usize);
        for _ in 0..spans[1].count {
            let at = wedge_reader.offset();
            let normal = wedge_reader.vec3("wedge normal")?;
            let uv = wedge_reader.vec2("wedge texture coordinates")?;
            let position = wedge_reader.u16("wedge position")?;
            wedge_reader.u16("wedge padding")?;
            if usize::from(position) >= positions.len() {
                return Err(LoadError::at_byte(
                    at,
                    format!("submesh {s}: a wedge stands at position {position}; the mesh has {}", positions.len()),
                ));
            }
            wedges.push(Wedge { normal, uv, position });
        }
        let mut triangles = Vec::with_capacity(spans[0].count as usize);
        for _ in 0..spans[0].count {
            let at = tris.offset();
            let t = [tris.u16("triangle")?, tris.u16("triangle")?, tris.u16("triangle")?];
            if let Some(bad) = t.iter().find(|&&w| usize::from(w) >= wedges.len()) {
                return Err(LoadError::at_byte(
                    at,
                    format!("submesh {s}: a triangle names wedge {bad}; the submesh has {}", wedges.len()),
                ));
            }
            triangles.push(t);
        }
        submeshes.push(SubMesh { triangles, wedges });
    }
    let mut mesh = ProtoMesh {
        version,
        positions,
        normals,
        submeshes,
        materials: Vec::new(),
        alpha_test: false,
        warnings: vec![],
    };
    match read_materials(r, submesh_count) {
        Ok(materials) => {
            mesh.materials = materials;
            if version == VERSION_G2 {
                mesh.alpha_test = r.u8("alpha test")? != 0;
            }
            // The boxes and padding that follow are not needed; the section's end is the chunk's.
        }
        Err(e) => {
            mesh.warnings.push(Warning::new(
                e.position,
                format!("the mesh's materials were not read ({}); it is shown with plain ones", e.message),
            ));
            mesh.materials = (0..submesh_count)
                .map(|s| ZenMaterial { name: format!("material {s}"), ..Default::default() })
                .collect();
        }
    }
    if mesh.materials.len() != submesh_count {
        mesh.warnings.push(Warning::new(Position::File, "the mesh has fewer materials than submeshes"));
        mesh.materials.resize(submesh_count, ZenMaterial::default());
    }
    Ok(mesh)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A section of one submesh with the given positions and triangles (one wedge per position, normal +Y).
    pub(crate) fn section(positions: &[Vec3], triangles: &[[u16; 3]], version: u16) -> Vec<u8> {
        let mut data = Vec::new();
        for p in positions {
            for v in p.to_array() {
                data.extend(v.to_le_bytes());
            }
        }
        let tri_offset = data.len() as u32;
        for t in triangles {
            for w in t {
                data.extend(w.to_le_bytes());
            }
        }
        let wedge_offset = data.len() as u32;
        for (i, p) in positions.iter().enumerate() {
            for v in [0.0f32, 1.0, 0.0, p.x, p.z] {
                data.extend(v.to_le_bytes());
            }
            data.extend((i as u16).to_le_bytes());
            data.extend(0u16.to_le_bytes());
        }
        let mut out = version.to_le_bytes().to_vec();
        out.extend((data.len() as u32).to_le_bytes());
        out.extend(&data);
        out.push(1);
        for v in [0, positions.len() as u32, 0, 0] {
            out.extend(v.to_le_bytes());
        }
        let mut spans = [(0u32, 0u32); 10];
        spans[0] = (tri_offset, triangles.len() as u32);
        spans[1] = (wedge_offset, positions.len() as u32);
        for (o, c) in spans {
            out.extend(o.to_le_bytes());
            out.extend(c.to_le_bytes());
        }
        out.extend(crate::io::zengin::material::tests::archive("STONE", "STONE.TGA"));
        if version == VERSION_G2 {
            out.push(1);
        }
        out.extend([0u8; 24]);
        out
    }

    #[test]
    fn reads_a_section_and_checks_its_tables() {
        let quad = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
        let bytes = section(&quad, &[[0, 1, 2], [0, 2, 3]], VERSION_G2);
        let mesh = read(&mut Reader::new(&bytes)).unwrap();
        assert_eq!((mesh.positions.len(), mesh.triangle_count(), mesh.wedge_count()), (4, 2, 4));
        assert_eq!(mesh.materials[0].texture, "STONE.TGA");
        assert!(mesh.alpha_test);
        assert!(mesh.warnings.is_empty());
        // A triangle naming a wedge that is not there.
        let bad = section(&quad, &[[0, 1, 9]], 0x305);
        let e = read(&mut Reader::new(&bad)).unwrap_err();
        assert!(e.message.contains("wedge 9"), "{}", e.message);
        // A table pointing past the data.
        let mut bad = section(&quad, &[[0, 1, 2]], 0x305);
        let data_len = 4 * 12 + 6 + 4 * 24;
        let table = 2 + 4 + data_len + 1 + 4; // the position count
        bad[table..table + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = read(&mut Reader::new(&bad)).unwrap_err();
        assert_eq!(e.kind, crate::io::LoadErrorKind::Truncated, "{}", e.message);
    }
}
