//! The element graph both encodings read into: elements (a class, a name, typed attributes) that refer to each
//! other by index, the file's header, and typed look-ups whose errors say which element, which attribute and
//! where in the file. Owns no model knowledge (`model`, `mesh`, `animation` read the graph) and no encoding
//! (`kv2`, `binary` fill it).
//!
//! Attribute names and element classes are symbols into one table ([`Dmx::symbols`]): a binary file's string
//! table is that table, and a text file's names are interned once, so an element's attributes are small and a
//! look-up compares a few short strings.

use glam::{Mat4, Quat, Vec2, Vec3, Vec4};

use crate::io::LoadError;
use crate::scene::Position;

/// The first line of every DMX file: `<!-- dmx encoding ENC VER format FMT VER -->`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// `keyvalues2`, `keyvalues2_flat` or `binary`.
    pub encoding: String,
    pub encoding_version: i32,
    /// What the file holds (`model`, `sfm`, `dmx`, …).
    pub format: String,
    pub format_version: i32,
}

/// An attribute's value. Element references are indices into [`Dmx::elements`] (`None`: a null reference, or
/// one to an element the file does not hold).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Element(Option<u32>),
    Int(i32),
    Float(f32),
    Bool(bool),
    String(String),
    Binary(Vec<u8>),
    /// Seconds.
    Time(f32),
    Color([u8; 4]),
    Vector2(Vec2),
    Vector3(Vec3),
    Vector4(Vec4),
    /// Euler angles in degrees (Source `QAngle`).
    Angle(Vec3),
    Quaternion(Quat),
    /// Boxed: a matrix is rare, and inline it would make every value 64 bytes larger.
    Matrix(Box<Mat4>),
    UInt64(u64),
    UInt8(u8),
    ElementArray(Vec<Option<u32>>),
    IntArray(Vec<i32>),
    FloatArray(Vec<f32>),
    BoolArray(Vec<bool>),
    StringArray(Vec<String>),
    BinaryArray(Vec<Vec<u8>>),
    TimeArray(Vec<f32>),
    ColorArray(Vec<[u8; 4]>),
    Vector2Array(Vec<Vec2>),
    Vector3Array(Vec<Vec3>),
    Vector4Array(Vec<Vec4>),
    AngleArray(Vec<Vec3>),
    QuaternionArray(Vec<Quat>),
    MatrixArray(Vec<Mat4>),
    UInt64Array(Vec<u64>),
    UInt8Array(Vec<u8>),
}

impl Value {
    /// The type's name as keyvalues2 writes it (`vector3`, `int_array`, …), for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Element(_) => "element",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Bool(_) => "bool",
            Value::String(_) => "string",
            Value::Binary(_) => "binary",
            Value::Time(_) => "time",
            Value::Color(_) => "color",
            Value::Vector2(_) => "vector2",
            Value::Vector3(_) => "vector3",
            Value::Vector4(_) => "vector4",
            Value::Angle(_) => "angle",
            Value::Quaternion(_) => "quaternion",
            Value::Matrix(_) => "matrix",
            Value::UInt64(_) => "uint64",
            Value::UInt8(_) => "uint8",
            Value::ElementArray(_) => "element_array",
            Value::IntArray(_) => "int_array",
            Value::FloatArray(_) => "float_array",
            Value::BoolArray(_) => "bool_array",
            Value::StringArray(_) => "string_array",
            Value::BinaryArray(_) => "binary_array",
            Value::TimeArray(_) => "time_array",
            Value::ColorArray(_) => "color_array",
            Value::Vector2Array(_) => "vector2_array",
            Value::Vector3Array(_) => "vector3_array",
            Value::Vector4Array(_) => "vector4_array",
            Value::AngleArray(_) => "angle_array",
            Value::QuaternionArray(_) => "quaternion_array",
            Value::MatrixArray(_) => "matrix_array",
            Value::UInt64Array(_) => "uint64_array",
            Value::UInt8Array(_) => "uint8_array",
        }
    }

    /// The number of items of an array (1 for a single value).
    pub fn len(&self) -> usize {
        match self {
            Value::ElementArray(v) => v.len(),
            Value::IntArray(v) => v.len(),
            Value::FloatArray(v) => v.len(),
            Value::BoolArray(v) => v.len(),
            Value::StringArray(v) => v.len(),
            Value::BinaryArray(v) => v.len(),
            Value::TimeArray(v) => v.len(),
            Value::ColorArray(v) => v.len(),
            Value::Vector2Array(v) => v.len(),
            Value::Vector3Array(v) | Value::AngleArray(v) => v.len(),
            Value::Vector4Array(v) => v.len(),
            Value::QuaternionArray(v) => v.len(),
            Value::MatrixArray(v) => v.len(),
            Value::UInt64Array(v) => v.len(),
            Value::UInt8Array(v) => v.len(),
            _ => 1,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One attribute: its name (a symbol), value and where it is in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub name: u32,
    pub value: Value,
    pub at: Position,
}

/// One element.
#[derive(Clone, Debug, PartialEq)]
pub struct Element {
    /// The element's class (`DmeModel`, `DmeJoint`, …), a symbol.
    pub class: u32,
    pub name: String,
    pub attributes: Vec<Attribute>,
    /// Where the element starts in the file.
    pub at: Position,
}

/// A whole DMX file read into elements.
#[derive(Clone, Debug, Default)]
pub struct Dmx {
    pub header: Option<Header>,
    /// Attribute names and element classes.
    pub symbols: Vec<Box<str>>,
    pub elements: Vec<Element>,
    /// The root element (the first one the file holds).
    pub root: u32,
    /// Attributes stored before the elements (binary 9's "prefix" element, keyvalues2's `$prefix_element$`).
    pub prefix: Vec<Attribute>,
    /// What the encoding's reader found wrong but could read past (references to elements the file lacks).
    pub warnings: Vec<crate::scene::Warning>,
}

impl Dmx {
    pub fn symbol(&self, sym: u32) -> &str {
        self.symbols.get(sym as usize).map_or("", |s| s)
    }

    pub fn element(&self, index: u32) -> Option<&Element> {
        self.elements.get(index as usize)
    }

    pub fn class_of(&self, index: u32) -> &str {
        self.element(index).map_or("", |e| self.symbol(e.class))
    }

    /// A view of element `index` for typed look-ups; `None` past the end.
    pub fn view(&self, index: u32) -> Option<View<'_>> {
        self.element(index).map(|element| View { dmx: self, index, element })
    }

    pub fn root(&self) -> Option<View<'_>> {
        self.view(self.root)
    }

    /// Every element of class `class`, in file order.
    pub fn all_of_class<'a>(&'a self, class: &'a str) -> impl Iterator<Item = View<'a>> + 'a {
        (0..self.elements.len() as u32).filter_map(|i| self.view(i)).filter(move |v| v.class() == class)
    }
}

/// An element with the graph it belongs to: typed attribute look-ups.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    pub dmx: &'a Dmx,
    pub index: u32,
    pub element: &'a Element,
}

/// Unwraps an attribute of one kind: `Ok(None)` when it is absent, an error naming the element and the type
/// found when it is of another kind.
macro_rules! typed {
    ($fn:ident, $variant:ident, $ty:ty, $what:literal) => {
        #[doc = concat!("The `", $what, "` attribute `name`, if there is one.")]
        pub fn $fn(&self, name: &str) -> Result<Option<&'a $ty>, LoadError> {
            match self.attribute(name) {
                None => Ok(None),
                Some(a) => match &a.value {
                    Value::$variant(v) => Ok(Some(v)),
                    other => Err(self.wrong_type(a, name, $what, other)),
                },
            }
        }
    };
}

impl<'a> View<'a> {
    pub fn class(&self) -> &'a str {
        self.dmx.symbol(self.element.class)
    }

    pub fn name(&self) -> &'a str {
        &self.element.name
    }

    pub fn at(&self) -> Position {
        self.element.at
    }

    pub fn attribute(&self, name: &str) -> Option<&'a Attribute> {
        self.element.attributes.iter().find(|a| self.dmx.symbol(a.name) == name)
    }

    pub fn value(&self, name: &str) -> Option<&'a Value> {
        self.attribute(name).map(|a| &a.value)
    }

    /// Where attribute `name` is (the element's position when it has none).
    pub fn at_attribute(&self, name: &str) -> Position {
        self.attribute(name).map_or(self.element.at, |a| a.at)
    }

    /// `class "name"`, how messages name an element.
    pub fn describe(&self) -> String {
        format!("{} \"{}\"", self.class(), self.name())
    }

    /// An error at attribute `name` of this element (at the element when it has none).
    pub fn error(&self, name: &str, message: impl std::fmt::Display) -> LoadError {
        LoadError::new(self.at_attribute(name), format!("{} `{name}`: {message}", self.describe()))
    }

    fn wrong_type(&self, a: &Attribute, name: &str, wanted: &str, found: &Value) -> LoadError {
        LoadError::new(a.at, format!("{} `{name}` is {}, {wanted} expected", self.describe(), found.type_name()))
    }

    /// The element attribute `name` refers to: `None` when absent or null.
    pub fn child(&self, name: &str) -> Result<Option<View<'a>>, LoadError> {
        match self.attribute(name) {
            None => Ok(None),
            Some(a) => match a.value {
                Value::Element(None) => Ok(None),
                Value::Element(Some(i)) => Ok(self.dmx.view(i)),
                ref other => Err(self.wrong_type(a, name, "element", other)),
            },
        }
    }

    /// The elements of element array `name` (null entries skipped); empty when absent.
    pub fn children(&self, name: &str) -> Result<Vec<View<'a>>, LoadError> {
        match self.attribute(name) {
            None => Ok(Vec::new()),
            Some(a) => match &a.value {
                Value::ElementArray(items) => Ok(items.iter().flatten().filter_map(|&i| self.dmx.view(i)).collect()),
                other => Err(self.wrong_type(a, name, "element_array", other)),
            },
        }
    }

    /// Integer attribute `name` (an `int`, or a `uint8`/`uint64`/`bool` that fits).
    pub fn int(&self, name: &str) -> Result<Option<i64>, LoadError> {
        match self.attribute(name) {
            None => Ok(None),
            Some(a) => match a.value {
                Value::Int(v) => Ok(Some(i64::from(v))),
                Value::UInt8(v) => Ok(Some(i64::from(v))),
                Value::UInt64(v) => Ok(Some(i64::try_from(v).unwrap_or(i64::MAX))),
                Value::Bool(v) => Ok(Some(i64::from(v))),
                ref other => Err(self.wrong_type(a, name, "int", other)),
            },
        }
    }

    /// Number attribute `name`: a `float`, `int` or `time` (exporters write a frame rate as either).
    pub fn number(&self, name: &str) -> Result<Option<f32>, LoadError> {
        match self.attribute(name) {
            None => Ok(None),
            Some(a) => match a.value {
                Value::Float(v) | Value::Time(v) => Ok(Some(v)),
                Value::Int(v) => Ok(Some(v as f32)),
                Value::UInt8(v) => Ok(Some(f32::from(v))),
                ref other => Err(self.wrong_type(a, name, "float", other)),
            },
        }
    }

    pub fn bool(&self, name: &str) -> Result<Option<bool>, LoadError> {
        match self.attribute(name) {
            None => Ok(None),
            Some(a) => match a.value {
                Value::Bool(v) => Ok(Some(v)),
                Value::Int(v) => Ok(Some(v != 0)),
                Value::UInt8(v) => Ok(Some(v != 0)),
                ref other => Err(self.wrong_type(a, name, "bool", other)),
            },
        }
    }

    typed!(string, String, String, "string");
    typed!(vector3, Vector3, Vec3, "vector3");
    typed!(quaternion, Quaternion, Quat, "quaternion");
    typed!(strings, StringArray, Vec<String>, "string_array");
    typed!(ints, IntArray, Vec<i32>, "int_array");
    typed!(floats, FloatArray, Vec<f32>, "float_array");
    typed!(vector2s, Vector2Array, Vec<Vec2>, "vector2_array");
    typed!(vector3s, Vector3Array, Vec<Vec3>, "vector3_array");
    typed!(vector4s, Vector4Array, Vec<Vec4>, "vector4_array");
    typed!(quaternions, QuaternionArray, Vec<Quat>, "quaternion_array");
}

/// Builds the symbol table while an encoding is read.
#[derive(Default)]
pub struct Symbols {
    map: rustc_hash::FxHashMap<Box<str>, u32>,
    pub table: Vec<Box<str>>,
}

impl Symbols {
    /// The symbol of `text`, added when new.
    pub fn intern(&mut self, text: &str) -> u32 {
        if let Some(&sym) = self.map.get(text) {
            return sym;
        }
        let sym = self.table.len() as u32;
        self.table.push(text.into());
        self.map.insert(text.into(), sym);
        sym
    }
}

/// Parses the header line; `None` when `line` is not a DMX header. Also takes the early
/// `<!-- DMXVersion binary_v2 -->` form (Blender Source Tools' `binary_proto`), read as binary 1.
pub fn parse_header(line: &str) -> Option<Header> {
    let inner = line.trim().strip_prefix("<!--")?.trim_end().strip_suffix("-->")?;
    let words: Vec<&str> = inner.split_whitespace().collect();
    match words.as_slice() {
        ["dmx", "encoding", encoding, version, "format", format, format_version] => Some(Header {
            encoding: (*encoding).to_owned(),
            encoding_version: version.parse().ok()?,
            format: (*format).to_owned(),
            format_version: format_version.parse().ok()?,
        }),
        ["DMXVersion", legacy] if legacy.starts_with("binary_v") => Some(Header {
            encoding: "binary".to_owned(),
            encoding_version: 1,
            format: "dmx".to_owned(),
            format_version: 0,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_of_both_encodings_and_the_early_form() {
        let h = parse_header("<!-- dmx encoding keyvalues2 1 format model 22 -->").unwrap();
        assert_eq!(
            (h.encoding.as_str(), h.encoding_version, h.format.as_str(), h.format_version),
            ("keyvalues2", 1, "model", 22)
        );
        let h = parse_header("<!-- dmx encoding binary 9 format model 22 -->\n").unwrap();
        assert_eq!(h.encoding_version, 9);
        assert_eq!(parse_header("<!-- DMXVersion binary_v2 -->").unwrap().encoding_version, 1);
        assert_eq!(parse_header("<!-- dmx encoding binary x format model 1 -->"), None);
        assert_eq!(parse_header("version 1"), None);
    }
}
