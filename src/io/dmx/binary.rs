//! The binary encoding (versions 1 to 9) into the element graph, through the shared bounded reader
//! ([`crate::io::binary::Reader`]): every count is checked against the bytes that remain before anything is
//! allocated, and every error names the byte offset.
//!
//! Layout, as Blender Source Tools' `datamodel.py` (`load`, `_StringDictionary`, `_get_dmx_id_type`) reads it:
//! the header line ends in a NUL; version 9 then holds "prefix" elements (a count, then per element an
//! attribute count and attributes whose names and strings are inline); then the string table (none in version
//! 1; a 16-bit count in 2 and 3, a 32-bit count from 4), whose indices are 16-bit up to version 4 and 32-bit
//! from 5; the element count; each element's class (table index, inline in 1), name (table index from 4, else
//! inline) and 16-byte id; then each element's attributes: name (table index, inline in 1), a type byte and the
//! value. Single string values come from the table from version 4, strings in arrays are always inline. Type
//! numbers: 1 element … 14 matrix and 15 … 28 their arrays, where 7 is an object id (16 bytes) in versions 1–2
//! and a time (ticks of 1/10000 s) from 3; version 9 adds 15 `uint64` and 16 `uint8` and numbers arrays from
//! 33 (32 + the item's type). An element reference is an index, −1 for none, −2 followed by an id string for
//! an element in another file (read as none here). Versions 6 to 8, which Blender Source Tools does not read,
//! follow the `datamodel` crate's reading (a 32-bit link type after each element's class in 6 and 7, prefix
//! elements from 7), the only public one there is.

use glam::{Mat4, Quat, Vec2, Vec3, Vec4};

use super::graph::{Attribute, Dmx, Element, Header, Symbols, Value};
use crate::io::binary::Reader;
use crate::io::{LoadError, LoadErrorKind};
use crate::scene::Position;

/// Reads the binary encoding; `data` is the whole file (header included), `data_start` where the elements'
/// data starts (after the header's NUL).
pub fn read(data: &[u8], data_start: usize, header: Header) -> Result<Dmx, LoadError> {
    let version = header.encoding_version;
    if !(1..=9).contains(&version) {
        return Err(LoadError::at_byte(0, format!("binary DMX version {version} is not supported (1 to 9 are)"))
            .with_kind(LoadErrorKind::Unsupported));
    }
    let mut r = Reader::new(data);
    r.seek(data_start, "DMX data")?;
    let mut p = Parser { r, version, symbols: Symbols::default(), table: Vec::new(), element_count: 0 };
    let prefix = if version >= 7 { p.prefix()? } else { Vec::new() };
    p.string_table()?;
    let elements = p.elements()?;
    Ok(Dmx { header: Some(header), symbols: p.symbols.table, elements, root: 0, prefix, warnings: Vec::new() })
}

struct Parser<'a> {
    r: Reader<'a>,
    version: i32,
    symbols: Symbols,
    /// The string table: each string and its symbol.
    table: Vec<(String, u32)>,
    element_count: usize,
}

/// The smallest number of bytes an item of type `t` (a single-value type number) takes.
fn item_size(t: u8) -> usize {
    match t {
        4 | 5 | 16 => 1,
        8 | 1 | 2 | 3 | 6 | 7 => 4,
        9 | 15 => 8,
        10 | 12 => 12,
        11 | 13 => 16,
        14 => 64,
        _ => 1,
    }
}

impl Parser<'_> {
    /// Bytes of a string-table index.
    fn index_size(&self) -> usize {
        if self.version >= 5 { 4 } else { 2 }
    }

    fn table_index(&mut self, what: &str) -> Result<usize, LoadError> {
        let at = self.r.offset();
        let index = if self.version >= 5 {
            let v = self.r.i32(what)?;
            usize::try_from(v).map_err(|_| LoadError::at_byte(at, format!("{what}: string index {v} is negative")))?
        } else {
            usize::from(self.r.u16(what)?)
        };
        if index >= self.table.len() {
            return Err(LoadError::at_byte(
                at,
                format!("{what}: string {index} of a table of {} strings", self.table.len()),
            ));
        }
        Ok(index)
    }

    /// A name (class or attribute name): a table index, or inline in version 1.
    fn name_symbol(&mut self, what: &str) -> Result<u32, LoadError> {
        if self.version < 2 {
            let s = self.r.c_str(what)?;
            return Ok(self.symbols.intern(&s));
        }
        let i = self.table_index(what)?;
        Ok(self.table[i].1)
    }

    fn table_string(&mut self, what: &str) -> Result<String, LoadError> {
        let i = self.table_index(what)?;
        Ok(self.table[i].0.clone())
    }

    fn count(&mut self, record: usize, what: &str) -> Result<usize, LoadError> {
        let at = self.r.offset();
        let n = self.r.i32(what)?;
        let n = u64::try_from(n).map_err(|_| LoadError::at_byte(at, format!("{what} is {n}, a negative number")))?;
        // The count was just read: the records follow it.
        self.r.count(n, record, what).map_err(|e| LoadError { position: Position::Byte(at), ..e })
    }

    fn prefix(&mut self) -> Result<Vec<Attribute>, LoadError> {
        let elements = self.count(4, "prefix element count")?;
        let mut out = Vec::new();
        for _ in 0..elements {
            let attributes = self.count(3, "prefix attribute count")?;
            for _ in 0..attributes {
                let at = self.r.offset();
                let name = self.r.c_str("prefix attribute name")?;
                let name = self.symbols.intern(&name);
                let t = self.r.u8("prefix attribute type")?;
                // Prefix attributes hold their strings inline: the string table comes after them.
                let value = self.value_of_type(t, true, at)?;
                out.push(Attribute { name, value, at: Position::Byte(at) });
            }
        }
        Ok(out)
    }

    fn string_table(&mut self) -> Result<(), LoadError> {
        if self.version < 2 {
            return Ok(());
        }
        let n = if self.version < 4 {
            let at = self.r.offset();
            let n = self.r.u16("string table count")?;
            self.r
                .count(u64::from(n), 1, "string table")
                .map_err(|e| LoadError { position: Position::Byte(at), ..e })?
        } else {
            self.count(1, "string table count")?
        };
        self.table.reserve(n);
        for _ in 0..n {
            let s = self.r.c_str("string table")?;
            let sym = self.symbols.intern(&s);
            self.table.push((s, sym));
        }
        Ok(())
    }

    fn elements(&mut self) -> Result<Vec<Element>, LoadError> {
        let name_size = if self.version >= 4 { self.index_size() } else { 1 };
        let class_size = if self.version >= 2 { self.index_size() } else { 1 };
        let header_size = class_size + name_size + 16;
        let n = self.count(header_size, "element count")?;
        self.element_count = n;
        let mut elements = Vec::with_capacity(n);
        for _ in 0..n {
            let at = self.r.offset();
            let class = self.name_symbol("element class")?;
            if (6..8).contains(&self.version) {
                self.r.i32("element link type")?;
            }
            let name =
                if self.version >= 4 { self.table_string("element name")? } else { self.r.c_str("element name")? };
            self.r.skip(16, "element id")?;
            elements.push(Element { class, name, attributes: Vec::new(), at: Position::Byte(at) });
        }
        let attribute_size = if self.version >= 2 { self.index_size() } else { 1 } + 2;
        for element in &mut elements {
            let count = self.count(attribute_size, "attribute count")?;
            let mut attributes = Vec::with_capacity(count);
            for _ in 0..count {
                let at = self.r.offset();
                let name = self.name_symbol("attribute name")?;
                let t = self.r.u8("attribute type")?;
                let value = self.value_of_type(t, false, at)?;
                attributes.push(Attribute { name, value, at: Position::Byte(at) });
            }
            element.attributes = attributes;
        }
        if elements.is_empty() {
            return Err(LoadError::at_byte(self.r.offset(), "the file holds no elements"));
        }
        Ok(elements)
    }

    /// The value of type number `t`; `inline_strings` for prefix attributes.
    fn value_of_type(&mut self, t: u8, inline_strings: bool, at: u64) -> Result<Value, LoadError> {
        let (array_base, max_single) = if self.version >= 9 { (32u8, 16u8) } else { (14u8, 14u8) };
        if (1..=max_single).contains(&t) {
            return self.single(t, inline_strings);
        }
        if t > array_base && t - array_base <= max_single {
            return self.array(t - array_base);
        }
        Err(LoadError::at_byte(at, format!("attribute type {t} is not a type of binary DMX version {}", self.version)))
    }

    fn element_ref(&mut self) -> Result<Option<u32>, LoadError> {
        let at = self.r.offset();
        let index = self.r.i32("element reference")?;
        match index {
            -1 => Ok(None),
            // An element of another file, named by its id: not loaded.
            -2 => {
                self.r.c_str("external element id")?;
                Ok(None)
            }
            i if i >= 0 && (i as usize) < self.element_count => Ok(Some(i as u32)),
            i => Err(LoadError::at_byte(
                at,
                format!("element reference {i}: the file holds {} elements", self.element_count),
            )),
        }
    }

    fn single(&mut self, t: u8, inline_strings: bool) -> Result<Value, LoadError> {
        let r = &mut self.r;
        Ok(match t {
            1 => Value::Element(self.element_ref()?),
            2 => Value::Int(r.i32("int")?),
            3 => Value::Float(r.f32("float")?),
            4 => Value::Bool(r.u8("bool")? != 0),
            5 if inline_strings || self.version < 4 => Value::String(r.c_str("string")?),
            5 => Value::String(self.table_string("string")?),
            6 => {
                let n = self.count(1, "binary length")?;
                Value::Binary(self.r.take(n, "binary")?.to_vec())
            }
            // An object id in versions 1 and 2 (kept as its bytes), a time from 3.
            7 if self.version < 3 => Value::Binary(r.take(16, "object id")?.to_vec()),
            7 => Value::Time(r.i32("time")? as f32 / 10_000.0),
            8 => Value::Color(r.array("color")?),
            9 => Value::Vector2(r.vec2("vector2")?),
            10 => Value::Vector3(r.vec3("vector3")?),
            11 => Value::Vector4(vec4(r, "vector4")?),
            12 => Value::Angle(r.vec3("angle")?),
            13 => Value::Quaternion(r.quat_xyzw("quaternion")?),
            14 => Value::Matrix(Box::new(matrix(r)?)),
            15 => Value::UInt64(r.u64("uint64")?),
            _ => Value::UInt8(r.u8("uint8")?),
        })
    }

    fn array(&mut self, t: u8) -> Result<Value, LoadError> {
        let n = self.count(item_size(t), "array length")?;
        if t == 1 {
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                items.push(self.element_ref()?);
            }
            return Ok(Value::ElementArray(items));
        }
        let r = &mut self.r;
        // Fixed-size items: the bytes are taken at once (the count was checked against them).
        macro_rules! fixed {
            ($size:expr, $what:literal, $variant:ident, |$b:ident| $make:expr) => {{
                let bytes = r.take(n * $size, $what)?;
                Value::$variant(bytes.chunks_exact($size).map(|$b| $make).collect())
            }};
        }
        Ok(match t {
            2 => fixed!(4, "int array", IntArray, |b| i32::from_le_bytes(arr(b))),
            3 => fixed!(4, "float array", FloatArray, |b| f32::from_le_bytes(arr(b))),
            4 => fixed!(1, "bool array", BoolArray, |b| b[0] != 0),
            5 => {
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(r.c_str("string array")?);
                }
                Value::StringArray(items)
            }
            6 => {
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    let len = self.count(1, "binary length")?;
                    items.push(self.r.take(len, "binary")?.to_vec());
                }
                Value::BinaryArray(items)
            }
            7 if self.version < 3 => {
                let bytes = r.take(n * 16, "object id array")?;
                Value::BinaryArray(bytes.chunks_exact(16).map(<[u8]>::to_vec).collect())
            }
            7 => fixed!(4, "time array", TimeArray, |b| i32::from_le_bytes(arr(b)) as f32 / 10_000.0),
            8 => fixed!(4, "color array", ColorArray, |b| arr(b)),
            9 => fixed!(8, "vector2 array", Vector2Array, |b| Vec2::from_array(floats(b))),
            10 => fixed!(12, "vector3 array", Vector3Array, |b| Vec3::from_array(floats(b))),
            11 => fixed!(16, "vector4 array", Vector4Array, |b| Vec4::from_array(floats(b))),
            12 => fixed!(12, "angle array", AngleArray, |b| Vec3::from_array(floats(b))),
            13 => fixed!(16, "quaternion array", QuaternionArray, |b| Quat::from_array(floats(b))),
            14 => fixed!(64, "matrix array", MatrixArray, |b| matrix_of(floats(b))),
            15 => fixed!(8, "uint64 array", UInt64Array, |b| u64::from_le_bytes(arr(b))),
            _ => fixed!(1, "uint8 array", UInt8Array, |b| b[0]),
        })
    }
}

fn arr<const N: usize>(b: &[u8]) -> [u8; N] {
    let mut out = [0; N];
    out.copy_from_slice(&b[..N]);
    out
}

fn floats<const N: usize>(b: &[u8]) -> [f32; N] {
    let mut out = [0.0; N];
    for (o, c) in out.iter_mut().zip(b.chunks_exact(4)) {
        *o = f32::from_le_bytes(arr(c));
    }
    out
}

fn vec4(r: &mut Reader, what: &str) -> Result<Vec4, LoadError> {
    Ok(Vec4::from_array(floats::<4>(r.take(16, what)?)))
}

fn matrix(r: &mut Reader) -> Result<Mat4, LoadError> {
    Ok(matrix_of(floats::<16>(r.take(64, "matrix")?)))
}

/// A `VMatrix`: stored row by row, translation in the last column (`m[0][3]`, `m[1][3]`, `m[2][3]`).
fn matrix_of(rows: [f32; 16]) -> Mat4 {
    Mat4::from_cols_array(&rows).transpose()
}
