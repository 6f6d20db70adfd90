//! The `keyvalues2` text encoding (and its `keyvalues2_flat` form) into the element graph. Errors name the
//! line.
//!
//! Grammar, as Valve's serializer writes it and Blender Source Tools' `datamodel.py` reads it: after the
//! header, a sequence of elements `"Class" { … }`, the first one the root. Inside an element each attribute is
//! `"name" "type" value`: `"id" "elementid" "…"` and `"name" "string" "…"` are the element's own; a value is a
//! quoted string; an `"element"` is the id of another element (`""`, or nothing on the line — how Blender
//! Source Tools writes a null one — for none); an `X_array` is `[ "v", "v", … ]`, and an `element_array`'s
//! items are `"element" "id"` or an element written in place; a type that is an element class is followed by
//! that element written in place, `"Class" { … }`. A `binary` value may span lines. `//` starts a comment. A
//! top-level `$prefix_element$` holds the prefix attributes (keyvalues2 4).
//!
//! References are resolved once every element is read, so they may point forwards; one to an id the file does
//! not hold is read as none, with a warning. Elements written in place nest at most [`MAX_DEPTH`] deep.

use std::borrow::Cow;

use glam::{Mat4, Quat, Vec2, Vec3, Vec4};
use rustc_hash::FxHashMap;

use super::graph::{Attribute, Dmx, Element, Header, Symbols, Value};
use crate::io::LoadError;
use crate::io::text::{decode_name, parse_f32_prefix, parse_i64};
use crate::scene::{Position, Warning};

/// The deepest elements written in place may nest (a file nesting deeper is refused, not a stack overflow).
pub const MAX_DEPTH: usize = 256;

#[derive(Clone, Debug, PartialEq)]
enum Tok<'a> {
    Str(Cow<'a, [u8]>),
    Open,
    Close,
    LBracket,
    RBracket,
    Comma,
}

struct Lexer<'a> {
    text: &'a [u8],
    pos: usize,
    line: usize,
    peeked: Option<Option<(Tok<'a>, usize)>>,
}

impl<'a> Lexer<'a> {
    fn next(&mut self) -> Result<Option<(Tok<'a>, usize)>, LoadError> {
        if let Some(p) = self.peeked.take() {
            return Ok(p);
        }
        self.lex()
    }

    fn peek(&mut self) -> Result<Option<&(Tok<'a>, usize)>, LoadError> {
        if self.peeked.is_none() {
            let t = self.lex()?;
            self.peeked = Some(t);
        }
        Ok(self.peeked.as_ref().and_then(Option::as_ref))
    }

    fn lex(&mut self) -> Result<Option<(Tok<'a>, usize)>, LoadError> {
        loop {
            let Some(&c) = self.text.get(self.pos) else { return Ok(None) };
            match c {
                b'\n' => {
                    self.line += 1;
                    self.pos += 1;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.pos += 1,
                b'/' if self.text.get(self.pos + 1) == Some(&b'/') => {
                    self.pos = memchr::memchr(b'\n', &self.text[self.pos..]).map_or(self.text.len(), |n| self.pos + n);
                }
                b'"' => return self.string().map(Some),
                _ => {
                    let tok = match c {
                        b'{' => Tok::Open,
                        b'}' => Tok::Close,
                        b'[' => Tok::LBracket,
                        b']' => Tok::RBracket,
                        b',' => Tok::Comma,
                        _ => {
                            return Err(LoadError::at_line(
                                self.line,
                                format!(
                                    "unexpected `{}`: keyvalues2 values are quoted",
                                    char::from(c).escape_default()
                                ),
                            ));
                        }
                    };
                    self.pos += 1;
                    return Ok(Some((tok, self.line)));
                }
            }
        }
    }

    /// A quoted string from the `"` at `pos`; backslash escapes are undone.
    fn string(&mut self) -> Result<(Tok<'a>, usize), LoadError> {
        let start_line = self.line;
        let body = self.pos + 1;
        let mut at = body;
        let mut owned: Option<Vec<u8>> = None;
        loop {
            let Some(n) = memchr::memchr2(b'"', b'\\', &self.text[at..]) else {
                return Err(LoadError::at_line(start_line, "a quoted string is not closed before the end of the file"));
            };
            let stop = at + n;
            if let Some(o) = owned.as_mut() {
                o.extend_from_slice(&self.text[at..stop]);
            }
            if self.text[stop] == b'"' {
                self.line += memchr::memchr_iter(b'\n', &self.text[body..stop]).count();
                self.pos = stop + 1;
                let tok = match owned {
                    Some(o) => Tok::Str(Cow::Owned(o)),
                    None => Tok::Str(Cow::Borrowed(&self.text[body..stop])),
                };
                return Ok((tok, start_line));
            }
            let o = owned.get_or_insert_with(|| self.text[body..stop].to_vec());
            let escaped = self.text.get(stop + 1).copied().unwrap_or(b'\\');
            o.push(match escaped {
                b'n' => b'\n',
                b't' => b'\t',
                b'r' => b'\r',
                b'v' => 0x0b,
                b'b' => 0x08,
                b'f' => 0x0c,
                b'a' => 0x07,
                other => other,
            });
            at = (stop + 2).min(self.text.len());
        }
    }
}

/// An element reference waiting for its element to be read.
struct Pending {
    element: u32,
    attribute: usize,
    /// `None` for a single reference, the index for an array item.
    item: Option<usize>,
    id: Vec<u8>,
    line: usize,
}

struct Parser<'a> {
    lex: Lexer<'a>,
    symbols: Symbols,
    elements: Vec<Element>,
    ids: FxHashMap<Vec<u8>, u32>,
    pending: Vec<Pending>,
    prefix: Vec<Attribute>,
    warnings: Vec<Warning>,
}

/// Reads the text after the header (`text` is the whole file; `body` where the elements start, `first_line`
/// its line number).
pub fn read(text: &[u8], body: usize, first_line: usize, header: Header) -> Result<Dmx, LoadError> {
    let mut p = Parser {
        lex: Lexer { text, pos: body, line: first_line, peeked: None },
        symbols: Symbols::default(),
        elements: Vec::new(),
        ids: FxHashMap::default(),
        pending: Vec::new(),
        prefix: Vec::new(),
        warnings: Vec::new(),
    };
    let mut root = None;
    while let Some((tok, line)) = p.lex.next()? {
        let Tok::Str(class) = tok else {
            return Err(LoadError::at_line(line, "expected an element's class (a quoted word) at the top level"));
        };
        p.expect_open(line)?;
        if &*class == b"$prefix_element$" {
            let prefix = p.element(b"$prefix_element$", line, 0)?;
            // Its attributes, not the element, are what the file says; the element itself is dropped.
            if let Some(e) = p.elements.get_mut(prefix as usize) {
                p.prefix = std::mem::take(&mut e.attributes);
            }
            continue;
        }
        let index = p.element(&class, line, 0)?;
        root.get_or_insert(index);
    }
    let Some(root) = root else {
        return Err(LoadError::at_line(p.lex.line, "the file holds no elements"));
    };
    p.resolve();
    Ok(Dmx {
        header: Some(header),
        symbols: p.symbols.table,
        elements: p.elements,
        root,
        prefix: p.prefix,
        warnings: p.warnings,
    })
}

impl<'a> Parser<'a> {
    fn expect_open(&mut self, line: usize) -> Result<(), LoadError> {
        match self.lex.next()? {
            Some((Tok::Open, _)) => Ok(()),
            Some((_, l)) => Err(LoadError::at_line(l, "expected `{` to open the element")),
            None => Err(LoadError::at_line(line, "the file ends before the element's `{`")),
        }
    }

    fn next_string(&mut self, line: usize, what: &str) -> Result<(Cow<'a, [u8]>, usize), LoadError> {
        match self.lex.next()? {
            Some((Tok::Str(s), l)) => Ok((s, l)),
            Some((_, l)) => Err(LoadError::at_line(l, format!("expected {what} (a quoted string)"))),
            None => Err(LoadError::at_line(line, format!("the file ends where {what} was expected"))),
        }
    }

    /// Reads an element's body after its `{`; returns its index.
    fn element(&mut self, class: &[u8], line: usize, depth: usize) -> Result<u32, LoadError> {
        if depth >= MAX_DEPTH {
            return Err(LoadError::at_line(line, format!("elements nest more than {MAX_DEPTH} levels deep")));
        }
        let index = self.elements.len() as u32;
        let class = self.symbols.intern(&decode_name(class));
        self.elements.push(Element { class, name: String::new(), attributes: Vec::new(), at: Position::Line(line) });
        loop {
            let (name, name_line) = match self.lex.next()? {
                Some((Tok::Close, _)) => return Ok(index),
                Some((Tok::Str(s), l)) => (s, l),
                Some((_, l)) => return Err(LoadError::at_line(l, "expected an attribute name or `}`")),
                None => {
                    return Err(LoadError::at_line(
                        line,
                        "the element opened here is not closed before the end of the file",
                    ));
                }
            };
            let (ty, ty_line) = self.next_string(name_line, "the attribute's type")?;
            let ty = ty.into_owned();
            match (&*name, ty.as_slice()) {
                (b"id", b"elementid") => {
                    let (id, l) = self.next_string(ty_line, "the element id")?;
                    if self.ids.insert(id.to_vec(), index).is_some() {
                        self.warnings.push(Warning::new(
                            Position::Line(l),
                            format!(
                                "element id {} is used twice; references go to the later element",
                                decode_name(&id)
                            ),
                        ));
                    }
                    continue;
                }
                (b"name", b"string") => {
                    let (value, _) = self.next_string(ty_line, "the element's name")?;
                    self.element_mut(index).name = decode_name(&value);
                    continue;
                }
                _ => {}
            }
            let attribute = self.element_mut(index).attributes.len();
            let value = self.value(&ty, index, attribute, ty_line, depth)?;
            let name = self.symbols.intern(&decode_name(&name));
            self.element_mut(index).attributes.push(Attribute { name, value, at: Position::Line(name_line) });
        }
    }

    fn element_mut(&mut self, index: u32) -> &mut Element {
        // `index` was pushed by `element` and elements are never removed.
        let last = self.elements.len() - 1;
        &mut self.elements[(index as usize).min(last)]
    }

    /// The value of an attribute of type `ty` whose type word is on line `line`.
    fn value(
        &mut self,
        ty: &[u8],
        element: u32,
        attribute: usize,
        line: usize,
        depth: usize,
    ) -> Result<Value, LoadError> {
        if ty == b"element" {
            // A null reference may be written with no value at all: a value must be on the type's line.
            let on_line = matches!(self.lex.peek()?, Some((Tok::Str(_), l)) if *l == line);
            if !on_line {
                return Ok(Value::Element(None));
            }
            let (id, l) = self.next_string(line, "an element id")?;
            return Ok(self.reference(element, attribute, None, &id, l));
        }
        if ty == b"element_array" {
            return self.element_array(element, attribute, line, depth);
        }
        if let Some(item) = ty.strip_suffix(b"_array") {
            return self.array(item, line);
        }
        if matches!(self.lex.peek()?, Some((Tok::Open, _))) {
            // An element written in place; its class is the type word.
            self.lex.next()?;
            let child = self.element(ty, line, depth + 1)?;
            return Ok(Value::Element(Some(child)));
        }
        let (text, l) = self.next_string(line, "the attribute's value")?;
        single(ty, &text, l)
    }

    /// A reference to the element with id `id`, resolved later (an empty id is none).
    fn reference(&mut self, element: u32, attribute: usize, item: Option<usize>, id: &[u8], line: usize) -> Value {
        if !id.is_empty() {
            self.pending.push(Pending { element, attribute, item, id: id.to_vec(), line });
        }
        Value::Element(None)
    }

    fn element_array(&mut self, element: u32, attribute: usize, line: usize, depth: usize) -> Result<Value, LoadError> {
        self.open_bracket(line)?;
        let mut items: Vec<Option<u32>> = Vec::new();
        loop {
            let (word, l) = match self.lex.next()? {
                Some((Tok::RBracket, _)) => return Ok(Value::ElementArray(items)),
                Some((Tok::Comma, _)) => continue,
                Some((Tok::Str(s), l)) => (s, l),
                Some((_, l)) => return Err(LoadError::at_line(l, "expected an element or `]` in an element array")),
                None => {
                    return Err(LoadError::at_line(
                        line,
                        "the array opened here is not closed before the end of the file",
                    ));
                }
            };
            if &*word == b"element" {
                let (id, l) = self.next_string(l, "an element id")?;
                let item = items.len();
                self.reference(element, attribute, Some(item), &id, l);
                items.push(None);
            } else {
                self.expect_open(l)?;
                let child = self.element(&word, l, depth + 1)?;
                items.push(Some(child));
            }
        }
    }

    fn open_bracket(&mut self, line: usize) -> Result<(), LoadError> {
        match self.lex.next()? {
            Some((Tok::LBracket, _)) => Ok(()),
            Some((_, l)) => Err(LoadError::at_line(l, "expected `[` to open the array")),
            None => Err(LoadError::at_line(line, "the file ends where an array's `[` was expected")),
        }
    }

    fn array(&mut self, item: &[u8], line: usize) -> Result<Value, LoadError> {
        let kind = Kind::of(item)
            .ok_or_else(|| LoadError::at_line(line, format!("unknown attribute type `{}_array`", decode_name(item))))?;
        self.open_bracket(line)?;
        let mut out = kind.empty_array();
        loop {
            match self.lex.next()? {
                Some((Tok::RBracket, _)) => return Ok(out),
                Some((Tok::Comma, _)) => {}
                Some((Tok::Str(s), l)) => push_item(&mut out, kind, &s, l)?,
                Some((_, l)) => return Err(LoadError::at_line(l, "expected a quoted value or `]` in an array")),
                None => {
                    return Err(LoadError::at_line(
                        line,
                        "the array opened here is not closed before the end of the file",
                    ));
                }
            }
        }
    }

    fn resolve(&mut self) {
        let mut missing = 0usize;
        let mut first_missing = None;
        for p in std::mem::take(&mut self.pending) {
            let target = self.ids.get(&p.id).copied();
            if target.is_none() {
                missing += 1;
                first_missing.get_or_insert((p.line, decode_name(&p.id)));
                continue;
            }
            let Some(a) = self.elements.get_mut(p.element as usize).and_then(|e| e.attributes.get_mut(p.attribute))
            else {
                continue;
            };
            match (&mut a.value, p.item) {
                (Value::Element(slot), None) => *slot = target,
                (Value::ElementArray(items), Some(i)) => {
                    if let Some(slot) = items.get_mut(i) {
                        *slot = target;
                    }
                }
                _ => {}
            }
        }
        if let Some((line, id)) = first_missing {
            self.warnings.push(Warning::new(
                Position::Line(line),
                format!("{missing} reference(s) to elements the file does not hold (first: id {id}); read as none"),
            ));
        }
    }
}

/// The single-value types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Element,
    Int,
    Float,
    Bool,
    String,
    Binary,
    Time,
    Color,
    Vector2,
    Vector3,
    Vector4,
    Angle,
    Quaternion,
    Matrix,
    UInt64,
    UInt8,
}

impl Kind {
    fn of(word: &[u8]) -> Option<Kind> {
        Some(match word {
            b"element" => Kind::Element,
            b"int" => Kind::Int,
            b"float" => Kind::Float,
            b"bool" => Kind::Bool,
            b"string" => Kind::String,
            b"binary" | b"void" => Kind::Binary,
            b"time" => Kind::Time,
            b"color" => Kind::Color,
            b"vector2" => Kind::Vector2,
            b"vector3" => Kind::Vector3,
            b"vector4" => Kind::Vector4,
            b"angle" | b"qangle" => Kind::Angle,
            b"quaternion" => Kind::Quaternion,
            b"matrix" => Kind::Matrix,
            b"uint64" => Kind::UInt64,
            b"uint8" => Kind::UInt8,
            _ => return None,
        })
    }

    fn empty_array(self) -> Value {
        match self {
            Kind::Element => Value::ElementArray(Vec::new()),
            Kind::Int => Value::IntArray(Vec::new()),
            Kind::Float => Value::FloatArray(Vec::new()),
            Kind::Bool => Value::BoolArray(Vec::new()),
            Kind::String => Value::StringArray(Vec::new()),
            Kind::Binary => Value::BinaryArray(Vec::new()),
            Kind::Time => Value::TimeArray(Vec::new()),
            Kind::Color => Value::ColorArray(Vec::new()),
            Kind::Vector2 => Value::Vector2Array(Vec::new()),
            Kind::Vector3 => Value::Vector3Array(Vec::new()),
            Kind::Vector4 => Value::Vector4Array(Vec::new()),
            Kind::Angle => Value::AngleArray(Vec::new()),
            Kind::Quaternion => Value::QuaternionArray(Vec::new()),
            Kind::Matrix => Value::MatrixArray(Vec::new()),
            Kind::UInt64 => Value::UInt64Array(Vec::new()),
            Kind::UInt8 => Value::UInt8Array(Vec::new()),
        }
    }
}

fn push_item(array: &mut Value, kind: Kind, text: &[u8], line: usize) -> Result<(), LoadError> {
    match (array, parse_kind(kind, text, line)?) {
        (Value::IntArray(v), Value::Int(x)) => v.push(x),
        (Value::FloatArray(v), Value::Float(x)) => v.push(x),
        (Value::BoolArray(v), Value::Bool(x)) => v.push(x),
        (Value::StringArray(v), Value::String(x)) => v.push(x),
        (Value::BinaryArray(v), Value::Binary(x)) => v.push(x),
        (Value::TimeArray(v), Value::Time(x)) => v.push(x),
        (Value::ColorArray(v), Value::Color(x)) => v.push(x),
        (Value::Vector2Array(v), Value::Vector2(x)) => v.push(x),
        (Value::Vector3Array(v), Value::Vector3(x)) => v.push(x),
        (Value::Vector4Array(v), Value::Vector4(x)) => v.push(x),
        (Value::AngleArray(v), Value::Angle(x)) => v.push(x),
        (Value::QuaternionArray(v), Value::Quaternion(x)) => v.push(x),
        (Value::MatrixArray(v), Value::Matrix(x)) => v.push(*x),
        (Value::UInt64Array(v), Value::UInt64(x)) => v.push(x),
        (Value::UInt8Array(v), Value::UInt8(x)) => v.push(x),
        // An `element_array` is read by `element_array`: a plain array of elements is not a keyvalues2 form.
        _ => return Err(LoadError::at_line(line, "element ids in an array must be written as `\"element\" \"id\"`")),
    }
    Ok(())
}

fn single(ty: &[u8], text: &[u8], line: usize) -> Result<Value, LoadError> {
    let kind = Kind::of(ty)
        .ok_or_else(|| LoadError::at_line(line, format!("unknown attribute type `{}`", decode_name(ty))))?;
    parse_kind(kind, text, line)
}

fn parse_kind(kind: Kind, text: &[u8], line: usize) -> Result<Value, LoadError> {
    let bad =
        |what: &str| LoadError::at_line(line, format!("`{}` is not {what}", decode_name(&text[..text.len().min(80)])));
    Ok(match kind {
        Kind::Element => return Err(LoadError::at_line(line, "element references are ids, not values")),
        Kind::Int => {
            let v = parse_i64(text.trim_ascii()).and_then(|v| i32::try_from(v).ok()).ok_or_else(|| bad("an int"))?;
            Value::Int(v)
        }
        Kind::Float => Value::Float(floats::<1>(text).ok_or_else(|| bad("a float"))?[0]),
        Kind::Time => Value::Time(floats::<1>(text).ok_or_else(|| bad("a time"))?[0]),
        Kind::Bool => match text.trim_ascii() {
            b"0" | b"false" => Value::Bool(false),
            b"1" | b"true" => Value::Bool(true),
            _ => return Err(bad("a bool (0 or 1)")),
        },
        Kind::String => Value::String(decode_name(text)),
        Kind::Binary => Value::Binary(hex(text).ok_or_else(|| bad("hexadecimal bytes"))?),
        Kind::Color => {
            let mut out = [0u8; 4];
            let mut words = text.split(u8::is_ascii_whitespace).filter(|w| !w.is_empty());
            for o in &mut out {
                let v = words.next().and_then(parse_i64).and_then(|v| u8::try_from(v).ok());
                *o = v.ok_or_else(|| bad("a colour (four numbers 0 to 255)"))?;
            }
            Value::Color(out)
        }
        Kind::Vector2 => Value::Vector2(Vec2::from_array(floats(text).ok_or_else(|| bad("two numbers"))?)),
        Kind::Vector3 => Value::Vector3(Vec3::from_array(floats(text).ok_or_else(|| bad("three numbers"))?)),
        Kind::Angle => Value::Angle(Vec3::from_array(floats(text).ok_or_else(|| bad("three numbers"))?)),
        Kind::Vector4 => Value::Vector4(Vec4::from_array(floats(text).ok_or_else(|| bad("four numbers"))?)),
        Kind::Quaternion => Value::Quaternion(Quat::from_array(floats(text).ok_or_else(|| bad("four numbers"))?)),
        Kind::Matrix => {
            let rows: [f32; 16] = floats(text).ok_or_else(|| bad("sixteen numbers"))?;
            // Row by row, translation in the last column (a `VMatrix`).
            Value::Matrix(Box::new(Mat4::from_cols_array(&rows).transpose()))
        }
        Kind::UInt64 => {
            let t = text.trim_ascii();
            let v = match t.strip_prefix(b"0x").or_else(|| t.strip_prefix(b"0X")) {
                Some(h) => std::str::from_utf8(h).ok().and_then(|h| u64::from_str_radix(h, 16).ok()),
                None => std::str::from_utf8(t).ok().and_then(|d| d.parse::<u64>().ok()),
            };
            Value::UInt64(v.ok_or_else(|| bad("a uint64"))?)
        }
        Kind::UInt8 => {
            Value::UInt8(parse_i64(text.trim_ascii()).and_then(|v| u8::try_from(v).ok()).ok_or_else(|| bad("a uint8"))?)
        }
    })
}

/// Exactly `N` whitespace-separated numbers.
fn floats<const N: usize>(text: &[u8]) -> Option<[f32; N]> {
    let mut out = [0.0f32; N];
    let mut rest = text;
    for o in &mut out {
        rest = rest.trim_ascii_start();
        let (v, used) = parse_f32_prefix(rest)?;
        let after = &rest[used..];
        if after.first().is_some_and(|c| !c.is_ascii_whitespace()) {
            return None;
        }
        *o = v;
        rest = after;
    }
    rest.trim_ascii().is_empty().then_some(out)
}

fn hex(text: &[u8]) -> Option<Vec<u8>> {
    let digits: Vec<u8> = text.iter().copied().filter(|c| !c.is_ascii_whitespace()).collect();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    let nibble = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    digits.chunks_exact(2).map(|p| Some(nibble(p[0])? << 4 | nibble(p[1])?)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::dmx::graph::parse_header;

    fn read_text(text: &str) -> Result<Dmx, LoadError> {
        let header_end = text.find('\n').unwrap() + 1;
        read(text.as_bytes(), header_end, 2, parse_header(&text[..header_end]).unwrap())
    }

    const HEADER: &str = "<!-- dmx encoding keyvalues2 1 format model 22 -->\n";

    #[test]
    fn elements_in_place_by_reference_and_null() {
        let text = format!(
            "{HEADER}\"DmElement\"\n{{\n\t\"id\" \"elementid\" \"a\"\n\t\"name\" \"string\" \"root\"\n\t\"model\" \"element\"\n\t\"skeleton\" \"element\" \"b\"\n\t\"list\" \"element_array\" \n\t[\n\t\t\"element\" \"b\",\n\t\t\"DmeThing\"\n\t\t{{\n\t\t\t\"id\" \"elementid\" \"c\"\n\t\t\t\"v\" \"vector3_array\" [\"1 2 3\", \"4.5 -6 7e1\"]\n\t\t}}\n\t]\n}}\n\n\"DmeModel\"\n{{\n\t\"id\" \"elementid\" \"b\"\n\t\"name\" \"string\" \"the \\\"model\\\"\"\n\t\"upAxis\" \"int\" \"3\"\n}}\n"
        );
        let dmx = read_text(&text).unwrap();
        let root = dmx.root().unwrap();
        assert_eq!(root.name(), "root");
        assert!(root.child("model").unwrap().is_none());
        let model = root.child("skeleton").unwrap().unwrap();
        assert_eq!((model.class(), model.name()), ("DmeModel", "the \"model\""));
        assert_eq!(model.int("upAxis").unwrap(), Some(3));
        let list = root.children("list").unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].index, model.index);
        assert_eq!(
            list[1].vector3s("v").unwrap().unwrap(),
            &vec![Vec3::new(1.0, 2.0, 3.0), Vec3::new(4.5, -6.0, 70.0)]
        );
        assert_eq!(list[1].at(), Position::Line(11));
    }

    #[test]
    fn errors_name_the_line() {
        let e = read_text(&format!("{HEADER}\"DmElement\"\n{{\n\t\"x\" \"int\" \"seven\"\n}}\n")).unwrap_err();
        assert_eq!(e.position, Position::Line(4));
        assert!(e.message.contains("`seven` is not an int"), "{}", e.message);
        let e = read_text(&format!("{HEADER}\"DmElement\"\n{{\n\t\"x\" \"int_array\" [\"1\", \"2\"\n")).unwrap_err();
        assert_eq!(e.position, Position::Line(4));
        let e = read_text(&format!("{HEADER}\"DmElement\"\n{{\n\t\"x\" \"wibble\" \"1\"\n}}\n")).unwrap_err();
        assert!(e.message.contains("unknown attribute type `wibble`"));
        let deep = format!("{HEADER}\"A\" {{ {} }}", "\"x\" \"A\" { ".repeat(MAX_DEPTH + 5));
        let e = read_text(&deep).unwrap_err();
        assert!(e.message.contains("nest more than"), "{}", e.message);
    }

    #[test]
    fn references_to_missing_elements_are_none_with_a_warning() {
        let dmx = read_text(&format!("{HEADER}\"DmElement\"\n{{\n\t\"m\" \"element\" \"nowhere\"\n}}\n")).unwrap();
        assert!(dmx.root().unwrap().child("m").unwrap().is_none());
        assert_eq!(dmx.warnings.len(), 1);
        assert_eq!(dmx.warnings[0].position, Position::Line(4));
    }
}
