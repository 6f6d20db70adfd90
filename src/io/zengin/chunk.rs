//! ZenGin's chunked binary files (the engine's `zCFileBIN`: `.MDH`, `.MDM`, `.MDL`, `.MAN`, `.MMB`, `.MRM`,
//! `.MSB`) and the values they are written with, on top of the bounded reader of [`crate::io::binary`].
//!
//! A file is a flat sequence of chunks, each `u16 id, u32 length, length bytes`. The engine closes a chunk when
//! the next one starts, so a chunk's length runs to the next header: what a writer put "after" a chunk (the
//! soft-skin meshes after `0xD030`, the morph positions after a mesh's `0xB1FF`) is inside the last chunk
//! before it or follows as chunks of its own, and a reader never needs to step outside a chunk's body (ZenKit's
//! `Stream.hh` `read_chunked`, docs/engine/encodings/binary-chunked.md). Chunk bodies are handed out as
//! sub-readers, so a read past a body's end fails with the file offset there.
//!
//! The values ([`ZenRead`]): strings are written with `BinWriteString`, text ended by `\n` (ZenKit's
//! `read_line`; some readers then skip white space), dates are `zDATE` (16 bytes: ZenKit `Date.cc`), boxes are
//! `zTBBox3D` (min, max) and `zCOBBox3D` (center, three axes, half widths, child boxes: ZenKit `Boxes.cc`), and
//! matrices are 16 floats row by row with the translation in the last column (ZenKit transposes them on
//! reading: `Stream.cc` `read_mat4`). It knows no format's chunk ids.

use glam::{Mat4, Vec3};

use crate::io::binary::Reader;
use crate::io::{LoadError, LoadErrorKind};

/// Bytes of a chunk header: the `u16` id and the `u32` length.
pub const HEADER_LEN: usize = 6;

/// One chunk: its id, where its header is in the file, and a reader over its body (offsets stay file offsets).
#[derive(Clone, Copy, Debug)]
pub struct Chunk<'a> {
    pub id: u16,
    /// File offset of the chunk's header.
    pub at: u64,
    pub body: Reader<'a>,
}

/// The chunks of a file (or of a part of one), in order.
#[derive(Clone, Copy, Debug)]
pub struct Chunks<'a> {
    reader: Reader<'a>,
}

impl<'a> Chunks<'a> {
    /// The chunks of a whole file.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { reader: Reader::new(bytes) }
    }

    /// The chunks of a part of a file (offsets in errors stay file offsets).
    pub fn over(reader: Reader<'a>) -> Self {
        Self { reader }
    }

    /// The file offset of the next chunk header.
    pub fn offset(&self) -> u64 {
        self.reader.offset()
    }

    /// The next chunk, `None` at the end. A header cut short or a length running past the end of the data is a
    /// [`LoadErrorKind::Truncated`] error naming the header's offset.
    pub fn next_chunk(&mut self) -> Result<Option<Chunk<'a>>, LoadError> {
        if self.reader.at_end() {
            return Ok(None);
        }
        let at = self.reader.offset();
        let mut header = self.reader;
        let id = header.u16("chunk id")?;
        let len = header.u32("chunk length")?;
        let body =
            header.sub(usize::try_from(len).unwrap_or(usize::MAX), &format!("chunk 0x{id:04X}")).map_err(|e| {
                LoadError::truncated(
                    at,
                    format!("chunk 0x{id:04X} at byte {at} declares {len} bytes; the data ends first ({})", e.message),
                )
            })?;
        self.reader = header;
        Ok(Some(Chunk { id, at, body }))
    }
}

impl<'a> Iterator for Chunks<'a> {
    type Item = Result<Chunk<'a>, LoadError>;

    /// Each chunk; an error ends the sequence (the error is the last item).
    fn next(&mut self) -> Option<Self::Item> {
        match self.next_chunk() {
            Ok(Some(chunk)) => Some(Ok(chunk)),
            Ok(None) => None,
            Err(e) => {
                // Nothing after a broken header can be framed: stop here.
                self.reader = Reader::with_base(&[], self.reader.offset());
                Some(Err(e))
            }
        }
    }
}

/// The id of the first chunk of `bytes` when it is a plausible chunk header (its length fits in the bytes), for
/// recognising a file by its contents.
pub fn first_chunk_id(bytes: &[u8]) -> Option<u16> {
    let mut chunks = Chunks::new(bytes);
    chunks.next_chunk().ok().flatten().map(|c| c.id)
}

/// Whether the chunk sequence of `bytes` holds a chunk with id `id` (looked for until the first broken header).
pub fn has_chunk(bytes: &[u8], id: u16) -> bool {
    Chunks::new(bytes).map_while(Result::ok).any(|c| c.id == id)
}

/// A `zDATE`: when a source file was last written, as the compiler recorded it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ZenDate {
    pub year: u32,
    pub month: u16,
    pub day: u16,
    pub hour: u16,
    pub minute: u16,
    pub second: u16,
}

/// An oriented box (`zCOBBox3D`) with its child boxes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Obb {
    pub center: Vec3,
    pub axes: [Vec3; 3],
    pub half_width: Vec3,
    pub children: Vec<Obb>,
}

/// Bytes of an oriented box without its children: five vectors and the child count.
pub const OBB_LEN: usize = 5 * 12 + 2;

/// How deep oriented boxes may nest (the engine's trees are a few levels deep; a file may not make the reader
/// recurse without end).
pub const MAX_OBB_DEPTH: usize = 32;

/// The values ZenGin's binary files are written with, read from a [`Reader`].
pub trait ZenRead<'a> {
    /// A `BinWriteString` string: text up to `\n` (a `\r` before it dropped; a NUL ends it too), Windows-1252.
    /// Fails when no end comes before the end of the data.
    fn zen_string(&mut self, what: &str) -> Result<String, LoadError>;
    /// [`ZenRead::zen_string`], then any white space after it skipped (ZenKit's `read_line(true)`, used where
    /// the engine's writers padded names).
    fn zen_string_skip_space(&mut self, what: &str) -> Result<String, LoadError>;
    fn zen_date(&mut self, what: &str) -> Result<ZenDate, LoadError>;
    /// An axis-aligned box: min, then max.
    fn zen_aabb(&mut self, what: &str) -> Result<(Vec3, Vec3), LoadError>;
    /// An oriented box and its children, nested at most [`MAX_OBB_DEPTH`] deep; every child count is checked
    /// against the bytes that remain before anything is allocated.
    fn zen_obb(&mut self, what: &str) -> Result<Obb, LoadError>;
    /// A 4×4 matrix written row by row (translation in the fourth column), as a glam matrix.
    fn zen_mat4(&mut self, what: &str) -> Result<Mat4, LoadError>;
}

impl<'a> ZenRead<'a> for Reader<'a> {
    fn zen_string(&mut self, what: &str) -> Result<String, LoadError> {
        let at = self.offset();
        let rest = &self.bytes()[self.pos()..];
        let Some(len) = memchr::memchr2(b'\n', 0, rest) else {
            return Err(LoadError::truncated(at, format!("{what}: the text at byte {at} has no end (no line break)")));
        };
        let text = rest[..len].strip_suffix(b"\r").unwrap_or(&rest[..len]);
        let text = crate::io::binary::decode_c_str(text);
        self.skip(len + 1, what)?;
        Ok(text)
    }

    fn zen_string_skip_space(&mut self, what: &str) -> Result<String, LoadError> {
        let text = self.zen_string(what)?;
        let rest = &self.bytes()[self.pos()..];
        let spaces = rest.iter().take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)).count();
        self.skip(spaces, what)?;
        Ok(text)
    }

    fn zen_date(&mut self, what: &str) -> Result<ZenDate, LoadError> {
        let date = ZenDate {
            year: self.u32(what)?,
            month: self.u16(what)?,
            day: self.u16(what)?,
            hour: self.u16(what)?,
            minute: self.u16(what)?,
            second: self.u16(what)?,
        };
        self.u16(what)?; // padding
        Ok(date)
    }

    fn zen_aabb(&mut self, what: &str) -> Result<(Vec3, Vec3), LoadError> {
        Ok((self.vec3(what)?, self.vec3(what)?))
    }

    fn zen_obb(&mut self, what: &str) -> Result<Obb, LoadError> {
        read_obb(self, what, 0)
    }

    fn zen_mat4(&mut self, what: &str) -> Result<Mat4, LoadError> {
        let mut values = [0.0f32; 16];
        for v in &mut values {
            *v = self.f32(what)?;
        }
        // Row by row in the file; glam's arrays are column by column.
        Ok(Mat4::from_cols_array(&values).transpose())
    }
}

fn read_obb(r: &mut Reader<'_>, what: &str, depth: usize) -> Result<Obb, LoadError> {
    let at = r.offset();
    if depth > MAX_OBB_DEPTH {
        return Err(LoadError::at_byte(
            at,
            format!("{what}: oriented boxes nested deeper than {MAX_OBB_DEPTH} levels at byte {at}"),
        )
        .with_kind(LoadErrorKind::Malformed));
    }
    let center = r.vec3(what)?;
    let axes = [r.vec3(what)?, r.vec3(what)?, r.vec3(what)?];
    let half_width = r.vec3(what)?;
    let count = r.u16(what)?;
    let count = r.count(u64::from(count), OBB_LEN, &format!("{what}: child boxes"))?;
    let mut children = Vec::with_capacity(count);
    for _ in 0..count {
        children.push(read_obb(r, what, depth + 1)?);
    }
    Ok(Obb { center, axes, half_width, children })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(id: u16, body: &[u8]) -> Vec<u8> {
        let mut out = id.to_le_bytes().to_vec();
        out.extend((body.len() as u32).to_le_bytes());
        out.extend(body);
        out
    }

    #[test]
    fn chunks_come_in_order_with_their_offsets_and_bodies() {
        let mut file = chunk(0xD100, b"abc");
        file.extend(chunk(0xD120, b""));
        let chunks: Vec<Chunk> = Chunks::new(&file).collect::<Result<_, _>>().unwrap();
        assert_eq!(
            chunks.iter().map(|c| (c.id, c.at, c.body.len())).collect::<Vec<_>>(),
            [(0xD100, 0, 3), (0xD120, 9, 0)]
        );
        assert_eq!(chunks[0].body.offset(), 6);
        assert_eq!(first_chunk_id(&file), Some(0xD100));
        assert!(has_chunk(&file, 0xD120));
        assert!(!has_chunk(&file, 0xD000));
    }

    #[test]
    fn a_length_past_the_end_names_the_header() {
        let mut file = chunk(0xA000, b"");
        file.extend(0xA020u16.to_le_bytes());
        file.extend(1000u32.to_le_bytes());
        file.extend(b"short");
        let mut chunks = Chunks::new(&file);
        assert_eq!(chunks.next().unwrap().unwrap().id, 0xA000);
        let e = chunks.next().unwrap().unwrap_err();
        assert_eq!(e.kind, LoadErrorKind::Truncated);
        assert_eq!(e.position, crate::scene::Position::Byte(6));
        assert!(e.message.contains("0xA020"), "{}", e.message);
        assert!(chunks.next().is_none());
        // A header cut short.
        let e = Chunks::new(&[0x00, 0xD1, 0x05]).next().unwrap().unwrap_err();
        assert_eq!(e.kind, LoadErrorKind::Truncated);
        assert_eq!(first_chunk_id(&[0x00, 0xD1, 0xff, 0xff, 0xff, 0xff]), None);
    }

    #[test]
    fn strings_dates_boxes_and_matrices() {
        let mut bytes = b"BIP01 HEAD\r\n  \tNEXT\nNO END".to_vec();
        let mut r = Reader::new(&bytes);
        assert_eq!(r.zen_string_skip_space("name").unwrap(), "BIP01 HEAD");
        assert_eq!(r.zen_string("name").unwrap(), "NEXT");
        assert!(r.zen_string("name").is_err());
        bytes.clear();
        bytes.extend(2000u32.to_le_bytes());
        for v in [5u16, 8, 9, 13, 58, 0] {
            bytes.extend(v.to_le_bytes());
        }
        let mut r = Reader::new(&bytes);
        assert_eq!(
            r.zen_date("date").unwrap(),
            ZenDate { year: 2000, month: 5, day: 8, hour: 9, minute: 13, second: 58 }
        );
        let mut m = Vec::new();
        for v in [1.0f32, 0.0, 0.0, 10.0, 0.0, 1.0, 0.0, 20.0, 0.0, 0.0, 1.0, 30.0, 0.0, 0.0, 0.0, 1.0] {
            m.extend(v.to_le_bytes());
        }
        let mat = Reader::new(&m).zen_mat4("m").unwrap();
        assert_eq!(mat.w_axis.truncate(), Vec3::new(10.0, 20.0, 30.0));
        // A box claiming more children than there are bytes fails before allocating.
        let mut obb = vec![0u8; 60];
        obb.extend(u16::MAX.to_le_bytes());
        let e = Reader::new(&obb).zen_obb("box").unwrap_err();
        assert_eq!(e.kind, LoadErrorKind::Truncated);
        // One child with no children of its own.
        let mut obb = vec![0u8; 60];
        obb.extend(1u16.to_le_bytes());
        obb.extend([0u8; 62]);
        assert_eq!(Reader::new(&obb).zen_obb("box").unwrap().children.len(), 1);
    }
}
