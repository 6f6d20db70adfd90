//! The materials of a compiled mesh: the `zCMaterial` objects a `zCProgMeshProto` keeps in a ZenGin archive
//! (one per submesh), of which bonescope needs the name, the colour and the texture name.
//!
//! Reading follows ZenKit's `Archive.cc` (the header: `ZenGin Archive`, `ver 1`, the archiver, the format,
//! `saveGame`, optional `date` and `user`, `END`), `archive/ArchiveBinary.cc` (the `BINARY` kind: `objects N`,
//! `END`; strings NUL-terminated; an object is `u32 size` counted from its own start, `u16 version`,
//! `u32 index`, object name and class name) and `Material.cc` (the field order of `zCMaterial`: name, group,
//! colour as B G R A, smoothing angle, texture, …). Only the fields up to the texture are read; the reader
//! then jumps to the object's end, so the Gothic 1 and Gothic 2 layouts (which differ further on) read alike.
//! Compiled meshes are written with the `BINARY` kind; the `ASCII` and `BIN_SAFE` kinds are reported and left
//! out (the mesh keeps default materials).

use crate::io::LoadError;
use crate::io::binary::Reader;

use super::chunk::ZenRead;

/// What bonescope uses of a `zCMaterial`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ZenMaterial {
    pub name: String,
    /// R, G, B, A.
    pub color: [u8; 4],
    /// The texture as written (`HUM_BODY_NAKED_V0_C0.TGA`); empty when the material has none.
    pub texture: String,
}

/// Reads the archive of `count` materials at the cursor, leaving the cursor after the last material.
pub fn read_materials(r: &mut Reader<'_>, count: usize) -> Result<Vec<ZenMaterial>, LoadError> {
    let at = r.offset();
    let magic = r.zen_string_skip_space("material archive")?;
    if magic.trim() != "ZenGin Archive" {
        return Err(LoadError::at_byte(
            at,
            format!("expected a ZenGin archive of materials at byte {at}, found {magic:?}"),
        ));
    }
    let version = r.zen_string_skip_space("archive version")?;
    if version.trim() != "ver 1" {
        return Err(LoadError::at_byte(at, format!("material archive: version {version:?}, expected \"ver 1\"")));
    }
    let _archiver = r.zen_string_skip_space("archiver")?;
    let kind_at = r.offset();
    let kind = r.zen_string_skip_space("archive format")?;
    if kind.trim() != "BINARY" {
        return Err(LoadError::at_byte(
            kind_at,
            format!("the materials are in a ZenGin archive of kind {:?}; only BINARY archives are read", kind.trim()),
        ));
    }
    // `saveGame`, then optional `date` and `user` lines, then `END`.
    let mut line = r.zen_string_skip_space("archive header")?;
    for _ in 0..4 {
        if line.trim() == "END" {
            break;
        }
        line = r.zen_string_skip_space("archive header")?;
    }
    if line.trim() != "END" {
        return Err(LoadError::at_byte(at, "material archive: the header has no END line"));
    }
    let objects = r.zen_string_skip_space("archive object count")?;
    if !objects.trim_start().starts_with("objects") {
        return Err(LoadError::at_byte(at, format!("material archive: expected \"objects N\", found {objects:?}")));
    }
    let end = r.zen_string("archive header")?;
    if end.trim() != "END" {
        return Err(LoadError::at_byte(at, "material archive: the binary header has no second END line"));
    }
    // ZenKit's `read_line_then_ignore("\n")`: blank lines after the header are skipped.
    while r.bytes().get(r.pos()) == Some(&b'\n') {
        r.skip(1, "archive header")?;
    }
    // Each material is at least its two names and an object header.
    let count = r.count(count as u64, 12, "materials")?;
    (0..count).map(|_| read_material(r)).collect()
}

fn read_material(r: &mut Reader<'_>) -> Result<ZenMaterial, LoadError> {
    let _listed_name = r.c_str("material name")?;
    let start = r.pos();
    let at = r.offset();
    let size = r.u32("material object size")?;
    let _version = r.u16("material object version")?;
    let _index = r.u32("material object index")?;
    let _object_name = r.c_str("material object name")?;
    let class = r.c_str("material class")?;
    if class != "zCMaterial" {
        return Err(LoadError::at_byte(
            at,
            format!("expected a zCMaterial object at byte {at}, found class {class:?}"),
        ));
    }
    let name = r.c_str("material name")?;
    let _group = r.u8("material group")?;
    let [b, g, red, a] = r.array::<4>("material colour")?;
    let _smooth_angle = r.f32("material smoothing angle")?;
    let texture = r.c_str("material texture")?;
    // The object's end: the rest of its fields are not needed.
    let end = start.checked_add(size as usize).filter(|&e| e >= r.pos() && e <= r.len()).ok_or_else(|| {
        LoadError::truncated(at, format!("zCMaterial object at byte {at} declares {size} bytes, which do not fit"))
    })?;
    r.seek(end, "material object")?;
    Ok(ZenMaterial { name, color: [red, g, b, a], texture })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A binary archive of one material, as the engine writes it.
    pub(crate) fn archive(name: &str, texture: &str) -> Vec<u8> {
        let mut out =
            b"ZenGin Archive\nver 1\nzCArchiverGeneric\nBINARY\nsaveGame 0\nEND\nobjects 1        \nEND\n\n".to_vec();
        out.extend(name.as_bytes());
        out.push(0);
        let mut object = Vec::new();
        object.extend(0x4400u16.to_le_bytes());
        object.extend(0u32.to_le_bytes());
        object.extend(b"%\0zCMaterial\0");
        object.extend(name.as_bytes());
        object.push(0);
        object.push(0);
        object.extend([0x11, 0x22, 0x33, 0xff]);
        object.extend(60.0f32.to_le_bytes());
        object.extend(texture.as_bytes());
        object.push(0);
        object.extend(b"128 128\0tail of the fields");
        out.extend((object.len() as u32 + 4).to_le_bytes());
        out.extend(object);
        out
    }

    #[test]
    fn reads_name_colour_and_texture_and_skips_the_rest() {
        let mut bytes = archive("WOOD", "WOOD.TGA");
        bytes.extend(b"after");
        let mut r = Reader::new(&bytes);
        let mats = read_materials(&mut r, 1).unwrap();
        assert_eq!(
            mats,
            [ZenMaterial { name: "WOOD".into(), color: [0x33, 0x22, 0x11, 0xff], texture: "WOOD.TGA".into() }]
        );
        assert_eq!(r.take(5, "tail").unwrap(), b"after");
    }

    #[test]
    fn other_archive_kinds_and_broken_objects_are_errors() {
        let ascii = b"ZenGin Archive\nver 1\nzCArchiverGeneric\nASCII\nsaveGame 0\nEND\n";
        assert!(read_materials(&mut Reader::new(ascii), 1).unwrap_err().message.contains("ASCII"));
        let mut bytes = archive("WOOD", "WOOD.TGA");
        let len = bytes.len();
        bytes.truncate(len - 3);
        assert!(read_materials(&mut Reader::new(&bytes), 1).is_err());
        // More materials than the bytes could hold.
        assert!(read_materials(&mut Reader::new(&archive("A", "B")), 1_000_000).is_err());
    }
}
