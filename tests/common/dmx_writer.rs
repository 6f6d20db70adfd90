//! A test-side DMX writer and a generated character written both as SMD and as DMX, so tests can check that
//! the two load alike. The writer builds an element tree ([`Doc`]) the way Blender Source Tools' `export_smd.py`
//! lays a model and an animation out (`writeDMX`), and serialises it as keyvalues2 (elements used once written
//! in place, the others by id, as `datamodel.py` does) or as binary versions 1 to 5 and 9.
#![allow(dead_code)]

use glam::{Mat4, Quat, Vec2, Vec3};

/// An attribute value.
#[derive(Clone, Debug)]
pub enum Val {
    Elem(usize),
    Null,
    Int(i32),
    Float(f32),
    Bool(bool),
    Str(String),
    Time(f32),
    Vec3(Vec3),
    Quat(Quat),
    IntArr(Vec<i32>),
    FloatArr(Vec<f32>),
    StrArr(Vec<String>),
    TimeArr(Vec<f32>),
    Vec2Arr(Vec<Vec2>),
    Vec3Arr(Vec<Vec3>),
    Vec4Arr(Vec<[f32; 4]>),
    QuatArr(Vec<Quat>),
    ElemArr(Vec<usize>),
}

#[derive(Clone, Debug)]
pub struct Elem {
    pub class: String,
    pub name: String,
    pub attrs: Vec<(String, Val)>,
}

/// Elements; element 0 is the root.
#[derive(Clone, Debug, Default)]
pub struct Doc {
    pub elems: Vec<Elem>,
    pub format_version: i32,
}

impl Doc {
    pub fn add(&mut self, class: &str, name: &str) -> usize {
        self.elems.push(Elem { class: class.into(), name: name.into(), attrs: Vec::new() });
        self.elems.len() - 1
    }

    pub fn set(&mut self, elem: usize, name: &str, value: Val) {
        self.elems[elem].attrs.push((name.into(), value));
    }

    fn id(i: usize) -> String {
        format!("{:08x}-0000-4000-8000-{:012x}", 0x1000 + i, i)
    }

    fn id_bytes(i: usize) -> [u8; 16] {
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&(i as u64 + 1).to_le_bytes());
        b
    }

    fn users(&self) -> Vec<usize> {
        let mut users = vec![0; self.elems.len()];
        for e in &self.elems {
            for (_, v) in &e.attrs {
                match v {
                    Val::Elem(i) => users[*i] += 1,
                    Val::ElemArr(items) => items.iter().for_each(|i| users[*i] += 1),
                    _ => {}
                }
            }
        }
        users
    }

    /// keyvalues2 text: the root, then every element used more than once (or not at all), elements used once
    /// written in place.
    pub fn kv2(&self) -> String {
        let users = self.users();
        let mut out = format!("<!-- dmx encoding keyvalues2 1 format model {} -->\n", self.format_version);
        let mut written = vec![false; self.elems.len()];
        self.kv2_elem(0, 0, &users, &mut written, &mut out);
        out += "\n\n";
        for i in 1..self.elems.len() {
            if !written[i] && users[i] != 1 {
                self.kv2_elem(i, 0, &users, &mut written, &mut out);
                out += "\n\n";
            }
        }
        out
    }

    fn kv2_elem(&self, i: usize, depth: usize, users: &[usize], written: &mut [bool], out: &mut String) {
        written[i] = true;
        let e = &self.elems[i];
        let ind = "\t".repeat(depth);
        let ind1 = "\t".repeat(depth + 1);
        *out += &format!("\"{}\"\n{ind}{{\n", e.class);
        *out += &format!("{ind1}\"id\" \"elementid\" \"{}\"\n", Self::id(i));
        *out += &format!("{ind1}\"name\" \"string\" \"{}\"\n", e.name);
        for (name, v) in &e.attrs {
            let q = |s: String| format!("\"{s}\"");
            let list = |items: Vec<String>| {
                if items.is_empty() { "[ ]".to_owned() } else { format!("[{}]", items.join(", ")) }
            };
            match v {
                Val::Elem(c) if users[*c] == 1 && !written[*c] => {
                    *out += &format!("{ind1}\"{name}\" ");
                    self.kv2_elem(*c, depth + 1, users, written, out);
                    *out += "\n";
                }
                Val::Elem(c) => *out += &format!("{ind1}\"{name}\" \"element\" \"{}\"\n", Self::id(*c)),
                // Blender Source Tools writes a null element with no value.
                Val::Null => *out += &format!("{ind1}\"{name}\" \"element\"\n"),
                Val::ElemArr(items) => {
                    *out += &format!("{ind1}\"{name}\" \"element_array\" ");
                    if items.is_empty() {
                        *out += "[ ]\n";
                        continue;
                    }
                    *out += &format!("\n{ind1}[\n");
                    for (k, c) in items.iter().enumerate() {
                        *out += &"\t".repeat(depth + 2);
                        if users[*c] == 1 && !written[*c] {
                            self.kv2_elem(*c, depth + 2, users, written, out);
                        } else {
                            *out += &format!("\"element\" \"{}\"", Self::id(*c));
                        }
                        *out += if k + 1 < items.len() { ",\n" } else { "\n" };
                    }
                    *out += &format!("{ind1}]\n");
                }
                other => {
                    let (ty, text) = match other {
                        Val::Int(x) => ("int", q(x.to_string())),
                        Val::Float(x) => ("float", q(x.to_string())),
                        Val::Bool(x) => ("bool", q(u8::from(*x).to_string())),
                        Val::Str(x) => ("string", q(x.clone())),
                        Val::Time(x) => ("time", q(x.to_string())),
                        Val::Vec3(v) => ("vector3", q(format!("{} {} {}", v.x, v.y, v.z))),
                        Val::Quat(v) => ("quaternion", q(format!("{} {} {} {}", v.x, v.y, v.z, v.w))),
                        Val::IntArr(v) => ("int_array", list(v.iter().map(|x| q(x.to_string())).collect())),
                        Val::FloatArr(v) => ("float_array", list(v.iter().map(|x| q(x.to_string())).collect())),
                        Val::StrArr(v) => ("string_array", list(v.iter().map(|x| q(x.clone())).collect())),
                        Val::TimeArr(v) => ("time_array", list(v.iter().map(|x| q(x.to_string())).collect())),
                        Val::Vec2Arr(v) => {
                            ("vector2_array", list(v.iter().map(|v| q(format!("{} {}", v.x, v.y))).collect()))
                        }
                        Val::Vec3Arr(v) => {
                            ("vector3_array", list(v.iter().map(|v| q(format!("{} {} {}", v.x, v.y, v.z))).collect()))
                        }
                        Val::Vec4Arr(v) => (
                            "vector4_array",
                            list(v.iter().map(|v| q(format!("{} {} {} {}", v[0], v[1], v[2], v[3]))).collect()),
                        ),
                        Val::QuatArr(v) => (
                            "quaternion_array",
                            list(v.iter().map(|v| q(format!("{} {} {} {}", v.x, v.y, v.z, v.w))).collect()),
                        ),
                        Val::Elem(_) | Val::Null | Val::ElemArr(_) => unreachable!(),
                    };
                    *out += &format!("{ind1}\"{name}\" \"{ty}\" {text}\n");
                }
            }
        }
        *out += &format!("{ind}}}");
    }

    /// Binary encoding of `version` (1–5, 9). Times become int ticks (1/10000 s) in versions 1 and 2, which
    /// have no time type (the object id takes its number). Version 9 gets one prefix element, as Valve's
    /// exporter writes (`anim_frameRate`).
    pub fn binary(&self, version: i32) -> Vec<u8> {
        let mut out =
            format!("<!-- dmx encoding binary {version} format model {} -->\n", self.format_version).into_bytes();
        out.push(0);
        let i32le = |out: &mut Vec<u8>, v: i32| out.extend_from_slice(&v.to_le_bytes());
        let cstr = |out: &mut Vec<u8>, s: &str| {
            out.extend_from_slice(s.as_bytes());
            out.push(0);
        };
        if version >= 9 {
            i32le(&mut out, 1);
            i32le(&mut out, 1);
            cstr(&mut out, "anim_frameRate");
            out.push(3);
            out.extend_from_slice(&30f32.to_le_bytes());
        }
        // The string table.
        let mut table: Vec<String> = Vec::new();
        let mut add = |s: &str| {
            if !table.iter().any(|t| t == s) {
                table.push(s.to_owned());
            }
        };
        for e in &self.elems {
            add(&e.class);
            if version >= 4 {
                add(&e.name);
            }
            for (n, v) in &e.attrs {
                add(n);
                if let (Val::Str(s), true) = (v, version >= 4) {
                    add(s);
                }
            }
        }
        let index = |s: &str| table.iter().position(|t| t == s).unwrap();
        let write_index = |out: &mut Vec<u8>, i: usize| {
            if version >= 5 {
                out.extend_from_slice(&(i as i32).to_le_bytes())
            } else {
                out.extend_from_slice(&(i as u16).to_le_bytes())
            }
        };
        if version >= 2 {
            if version >= 4 {
                i32le(&mut out, table.len() as i32)
            } else {
                out.extend_from_slice(&(table.len() as u16).to_le_bytes())
            }
            for s in &table {
                cstr(&mut out, s);
            }
        }
        let name = |out: &mut Vec<u8>, s: &str| if version >= 2 { write_index(out, index(s)) } else { cstr(out, s) };
        i32le(&mut out, self.elems.len() as i32);
        for (i, e) in self.elems.iter().enumerate() {
            name(&mut out, &e.class);
            if version >= 4 {
                write_index(&mut out, index(&e.name))
            } else {
                cstr(&mut out, &e.name)
            }
            out.extend_from_slice(&Self::id_bytes(i));
        }
        let array = |t: u8| if version >= 9 { t + 32 } else { t + 14 };
        let ticks = |t: f32| (t * 10_000.0).round() as i32;
        for e in &self.elems {
            i32le(&mut out, e.attrs.len() as i32);
            for (n, v) in &e.attrs {
                name(&mut out, n);
                let floats =
                    |out: &mut Vec<u8>, fs: &[f32]| fs.iter().for_each(|f| out.extend_from_slice(&f.to_le_bytes()));
                match v {
                    Val::Elem(c) => {
                        out.push(1);
                        i32le(&mut out, *c as i32);
                    }
                    Val::Null => {
                        out.push(1);
                        i32le(&mut out, -1);
                    }
                    Val::Int(x) => {
                        out.push(2);
                        i32le(&mut out, *x);
                    }
                    Val::Float(x) => {
                        out.push(3);
                        floats(&mut out, &[*x]);
                    }
                    Val::Bool(x) => out.extend_from_slice(&[4, u8::from(*x)]),
                    Val::Str(s) => {
                        out.push(5);
                        if version >= 4 { write_index(&mut out, index(s)) } else { cstr(&mut out, s) }
                    }
                    Val::Time(t) if version < 3 => {
                        out.push(2);
                        i32le(&mut out, ticks(*t));
                    }
                    Val::Time(t) => {
                        out.push(7);
                        i32le(&mut out, ticks(*t));
                    }
                    Val::Vec3(v) => {
                        out.push(10);
                        floats(&mut out, &v.to_array());
                    }
                    Val::Quat(q) => {
                        out.push(13);
                        floats(&mut out, &q.to_array());
                    }
                    Val::IntArr(items) => {
                        out.push(array(2));
                        i32le(&mut out, items.len() as i32);
                        items.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
                    }
                    Val::FloatArr(items) => {
                        out.push(array(3));
                        i32le(&mut out, items.len() as i32);
                        floats(&mut out, items);
                    }
                    Val::StrArr(items) => {
                        out.push(array(5));
                        i32le(&mut out, items.len() as i32);
                        items.iter().for_each(|s| cstr(&mut out, s));
                    }
                    Val::TimeArr(items) => {
                        out.push(array(if version < 3 { 2 } else { 7 }));
                        i32le(&mut out, items.len() as i32);
                        items.iter().for_each(|t| out.extend_from_slice(&ticks(*t).to_le_bytes()));
                    }
                    Val::Vec2Arr(items) => {
                        out.push(array(9));
                        i32le(&mut out, items.len() as i32);
                        items.iter().for_each(|v| floats(&mut out, &v.to_array()));
                    }
                    Val::Vec3Arr(items) => {
                        out.push(array(10));
                        i32le(&mut out, items.len() as i32);
                        items.iter().for_each(|v| floats(&mut out, &v.to_array()));
                    }
                    Val::Vec4Arr(items) => {
                        out.push(array(11));
                        i32le(&mut out, items.len() as i32);
                        items.iter().for_each(|v| floats(&mut out, v));
                    }
                    Val::QuatArr(items) => {
                        out.push(array(13));
                        i32le(&mut out, items.len() as i32);
                        items.iter().for_each(|q| floats(&mut out, &q.to_array()));
                    }
                    Val::ElemArr(items) => {
                        out.push(array(1));
                        i32le(&mut out, items.len() as i32);
                        items.iter().for_each(|c| out.extend_from_slice(&(*c as i32).to_le_bytes()));
                    }
                }
            }
        }
        out
    }
}

// --- A generated character -------------------------------------------------------------------------------

pub struct GenBone {
    pub name: String,
    pub parent: Option<usize>,
    pub position: Vec3,
    /// SMD Euler angles (radians, applied X, then Y, then Z).
    pub euler: Vec3,
}

/// A point of the mesh: a position and its weights (SMD repeats them on every corner).
pub struct Point {
    pub position: Vec3,
    pub links: Vec<(usize, f32)>,
}

pub struct Corner {
    pub point: usize,
    pub normal: Vec3,
    pub uv: Vec2,
}

/// A polygon (3 or 4 corners) of one material.
pub struct Polygon {
    pub material: usize,
    pub corners: Vec<Corner>,
}

/// A shape: points moved by deltas.
pub struct Shape {
    pub name: String,
    pub moves: Vec<(usize, Vec3)>,
}

pub struct Character {
    pub name: String,
    pub bones: Vec<GenBone>,
    pub points: Vec<Point>,
    pub polygons: Vec<Polygon>,
    pub materials: Vec<String>,
    pub shapes: Vec<Shape>,
}

/// An animation: per frame, per bone, (position, SMD Euler).
pub struct Animation {
    pub name: String,
    pub fps: f32,
    pub frames: Vec<Vec<(Vec3, Vec3)>>,
}

/// SMD's rotation from its Euler angles (`io::smd`: `Rz·Ry·Rx`).
pub fn smd_quat(e: Vec3) -> Quat {
    Quat::from_rotation_z(e.z) * Quat::from_rotation_y(e.y) * Quat::from_rotation_x(e.x)
}

fn round(x: f32) -> f32 {
    (x * 1024.0).round() / 1024.0
}

/// A small biped-like character: a chain of `bones` bones (at least 4) branching at the third, one box per
/// bone (points weighted to it and, at its base, partly to its parent), two materials, and `shapes` shapes.
pub fn character(bones: usize, shapes: usize) -> Character {
    character_with(bones, 1, shapes)
}

/// [`character`] with `boxes` boxes per bone (stacked along it), for meshes of a given size.
pub fn character_with(bones: usize, boxes: usize, shapes: usize) -> Character {
    let mut out = Character {
        name: "gen".into(),
        bones: Vec::new(),
        points: Vec::new(),
        polygons: Vec::new(),
        materials: vec!["skin".into(), "cloth".into()],
        shapes: Vec::new(),
    };
    for b in 0..bones.max(4) {
        let parent = match b {
            0 => None,
            1 | 2 => Some(b - 1),
            _ => Some(if b % 2 == 0 { 2 } else { b - 1 }),
        };
        let position = if b == 0 {
            Vec3::new(0.0, 0.0, 36.0)
        } else {
            Vec3::new(round(0.5 + 0.25 * b as f32), round(0.1 * b as f32), 6.0)
        };
        let euler = Vec3::new(round(0.1 * b as f32), round(-0.05 * b as f32), round(0.2 - 0.03 * b as f32));
        out.bones.push(GenBone { name: format!("bone_{b:02}"), parent, position, euler });
    }
    // World transforms at the bind pose.
    let mut world: Vec<Mat4> = Vec::new();
    for b in &out.bones {
        let local = Mat4::from_rotation_translation(smd_quat(b.euler), b.position);
        world.push(b.parent.map_or(local, |p| world[p] * local));
    }
    for (b, bone_world) in world.iter().enumerate() {
        for layer in 0..boxes {
            let w = &(*bone_world * Mat4::from_translation(Vec3::new(0.0, 0.0, 4.0 * layer as f32)));
            let base = out.points.len();
            for k in 0..8 {
                let corner = Vec3::new(
                    if k & 1 == 0 { -1.0 } else { 1.0 },
                    if k & 2 == 0 { -1.0 } else { 1.0 },
                    if k & 4 == 0 { 0.0 } else { 4.0 },
                );
                let position = w.transform_point3(corner);
                let links = match (out.bones[b].parent, k & 4 == 0) {
                    (Some(p), true) => vec![(b, 0.75), (p, 0.25)],
                    _ => vec![(b, 1.0)],
                };
                out.points.push(Point { position, links });
            }
            // Six faces as quads, each with its own normal and UVs.
            let faces: [([usize; 4], Vec3); 6] = [
                ([0, 2, 3, 1], -Vec3::Z),
                ([4, 5, 7, 6], Vec3::Z),
                ([0, 1, 5, 4], -Vec3::Y),
                ([2, 6, 7, 3], Vec3::Y),
                ([0, 4, 6, 2], -Vec3::X),
                ([1, 3, 7, 5], Vec3::X),
            ];
            for (f, (quad, normal)) in faces.iter().enumerate() {
                let n = w.transform_vector3(*normal).normalize();
                let uvs = [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(0.0, 1.0)];
                let corners = quad
                    .iter()
                    .zip(uvs)
                    .map(|(&p, uv)| Corner {
                        point: base + p,
                        normal: n,
                        uv: uv * 0.5 + Vec2::new(0.125 * f as f32, 0.0625 * b as f32),
                    })
                    .collect();
                out.polygons.push(Polygon { material: (b + f) % 2, corners });
            }
        }
    }
    for s in 0..shapes {
        let moves = (0..out.points.len())
            .filter(|p| p % (s + 2) == 0)
            .map(|p| (p, Vec3::new(0.0, 0.5 + s as f32 * 0.25, 0.25 * (p % 3) as f32)))
            .collect();
        out.shapes.push(Shape { name: format!("shape{s}"), moves });
    }
    out
}

/// A looping-ish animation of `frames` frames at `fps`: every bone turns and the root moves.
pub fn animation(ch: &Character, name: &str, frames: usize, fps: f32, phase: f32) -> Animation {
    let frames = (0..frames)
        .map(|f| {
            let t = f as f32 / fps + phase;
            ch.bones
                .iter()
                .enumerate()
                .map(|(b, bone)| {
                    let wobble =
                        Vec3::new((t * 2.0 + b as f32).sin(), (t * 3.0).cos(), (t + b as f32 * 0.5).sin()) * 0.3;
                    let pos =
                        if b == 0 { bone.position + Vec3::new(t * 4.0, 0.0, (t * 6.0).sin()) } else { bone.position };
                    (pos, bone.euler + wobble)
                })
                .collect()
        })
        .collect();
    Animation { name: name.into(), fps, frames }
}

fn f(x: f32) -> String {
    x.to_string()
}

fn nodes(ch: &Character) -> String {
    let mut out = String::from("version 1\nnodes\n");
    for (i, b) in ch.bones.iter().enumerate() {
        out += &format!("{i} \"{}\" {}\n", b.name, b.parent.map_or(-1, |p| p as i32));
    }
    out + "end\n"
}

/// The reference SMD (Source flavour, with weight links).
pub fn smd_reference(ch: &Character) -> String {
    let mut out = nodes(ch) + "skeleton\ntime 0\n";
    for (i, b) in ch.bones.iter().enumerate() {
        out += &format!(
            "{i} {} {} {} {} {} {}\n",
            f(b.position.x),
            f(b.position.y),
            f(b.position.z),
            f(b.euler.x),
            f(b.euler.y),
            f(b.euler.z)
        );
    }
    out += "end\ntriangles\n";
    for poly in &ch.polygons {
        for k in 1..poly.corners.len() - 1 {
            out += &format!("{}\n", ch.materials[poly.material]);
            for c in [&poly.corners[0], &poly.corners[k], &poly.corners[k + 1]] {
                let p = &ch.points[c.point];
                let links: String = p.links.iter().map(|(b, w)| format!(" {b} {}", f(*w))).collect();
                out += &format!(
                    "{} {} {} {} {} {} {} {} {} {}{links}\n",
                    p.links[0].0,
                    f(p.position.x),
                    f(p.position.y),
                    f(p.position.z),
                    f(c.normal.x),
                    f(c.normal.y),
                    f(c.normal.z),
                    f(c.uv.x),
                    f(c.uv.y),
                    p.links.len()
                );
            }
        }
    }
    out + "end\n"
}

/// An animation SMD.
pub fn smd_animation(ch: &Character, anim: &Animation) -> String {
    let mut out = nodes(ch) + "skeleton\n";
    for (t, frame) in anim.frames.iter().enumerate() {
        out += &format!("time {t}\n");
        for (i, (p, e)) in frame.iter().enumerate() {
            out += &format!("{i} {} {} {} {} {} {}\n", f(p.x), f(p.y), f(p.z), f(e.x), f(e.y), f(e.z));
        }
    }
    out + "end\n"
}

/// Values deduplicated by their bits: the unique values and each input's index.
fn dedup<T: Copy, K: Eq + std::hash::Hash>(
    items: impl Iterator<Item = T>,
    key: impl Fn(&T) -> K,
) -> (Vec<T>, Vec<i32>) {
    let mut seen = std::collections::HashMap::new();
    let (mut values, mut indices) = (Vec::new(), Vec::new());
    for item in items {
        let k = key(&item);
        let i = *seen.entry(k).or_insert_with(|| {
            values.push(item);
            values.len() - 1
        });
        indices.push(i as i32);
    }
    (values, indices)
}

/// The skeleton elements of `doc` for `ch` (as `writeDMX` lays them out, format 18: `jointList` and
/// `jointTransforms`, a base state): the model and each bone's transform.
fn skeleton(doc: &mut Doc, ch: &Character, root: usize) -> (usize, Vec<usize>, Vec<usize>) {
    let model = doc.add("DmeModel", &ch.name);
    doc.set(root, "skeleton", Val::Elem(model));
    let model_transform = doc.add("DmeTransform", "");
    doc.set(model_transform, "position", Val::Vec3(Vec3::ZERO));
    doc.set(model_transform, "orientation", Val::Quat(Quat::IDENTITY));
    doc.set(model, "transform", Val::Elem(model_transform));
    let joints: Vec<usize> = ch.bones.iter().map(|b| doc.add("DmeJoint", &b.name)).collect();
    let transforms: Vec<usize> = ch
        .bones
        .iter()
        .map(|b| {
            let t = doc.add("DmeTransform", &b.name);
            doc.set(t, "position", Val::Vec3(b.position));
            doc.set(t, "orientation", Val::Quat(smd_quat(b.euler)));
            t
        })
        .collect();
    for (i, b) in ch.bones.iter().enumerate() {
        doc.set(joints[i], "transform", Val::Elem(transforms[i]));
        let children: Vec<usize> =
            (0..ch.bones.len()).filter(|&c| ch.bones[c].parent == Some(i)).map(|c| joints[c]).collect();
        doc.set(joints[i], "children", Val::ElemArr(children));
        let _ = b;
    }
    let roots: Vec<usize> = (0..ch.bones.len()).filter(|&b| ch.bones[b].parent.is_none()).map(|b| joints[b]).collect();
    doc.set(model, "children", Val::ElemArr(roots));
    doc.set(model, "jointList", Val::ElemArr(joints.clone()));
    doc.set(model, "jointTransforms", Val::ElemArr(transforms.clone()));
    let base = doc.add("DmeTransformList", "base");
    let base_transforms: Vec<usize> = ch
        .bones
        .iter()
        .map(|b| {
            let t = doc.add("DmeTransform", &b.name);
            doc.set(t, "position", Val::Vec3(b.position));
            doc.set(t, "orientation", Val::Quat(smd_quat(b.euler)));
            t
        })
        .collect();
    doc.set(base, "transforms", Val::ElemArr(base_transforms));
    doc.set(model, "baseStates", Val::ElemArr(vec![base]));
    (model, joints, transforms)
}

/// The model DMX of `ch` (format 18: Source 1 field names, no axis system), with its shapes as delta states and
/// a combination operator whose controls are `controls` (each driving the shape of its name).
pub fn dmx_model(ch: &Character, controls: &[&str]) -> Doc {
    let mut doc = Doc { format_version: 18, ..Doc::default() };
    let root = doc.add("DmElement", &ch.name);
    let (model, _, _) = skeleton(&mut doc, ch, root);
    doc.set(root, "model", Val::Elem(model));
    let dag = doc.add("DmeDag", &ch.name);
    let dag_t = doc.add("DmeTransform", &ch.name);
    doc.set(dag_t, "position", Val::Vec3(Vec3::ZERO));
    doc.set(dag_t, "orientation", Val::Quat(Quat::IDENTITY));
    doc.set(dag, "transform", Val::Elem(dag_t));
    let mesh = doc.add("DmeMesh", &ch.name);
    doc.set(dag, "shape", Val::Elem(mesh));
    if let Some((_, Val::ElemArr(children))) = doc.elems[model].attrs.iter_mut().find(|(n, _)| n == "children") {
        children.push(dag);
    }
    let data = doc.add("DmeVertexData", "bind");
    doc.set(mesh, "visible", Val::Bool(true));
    doc.set(mesh, "bindState", Val::Elem(data));
    doc.set(mesh, "currentState", Val::Elem(data));
    doc.set(mesh, "baseStates", Val::ElemArr(vec![data]));
    let fields = ["positions", "normals", "textureCoordinates", "jointWeights", "jointIndices"];
    doc.set(data, "vertexFormat", Val::StrArr(fields.iter().map(|s| s.to_string()).collect()));
    doc.set(data, "flipVCoordinates", Val::Bool(true));
    let joint_count = ch.points.iter().map(|p| p.links.len()).max().unwrap_or(0);
    doc.set(data, "jointCount", Val::Int(joint_count as i32));
    doc.set(data, "positions", Val::Vec3Arr(ch.points.iter().map(|p| p.position).collect()));
    let corners: Vec<&Corner> = ch.polygons.iter().flat_map(|p| &p.corners).collect();
    doc.set(data, "positionsIndices", Val::IntArr(corners.iter().map(|c| c.point as i32).collect()));
    let (normals, normal_idx) = dedup(corners.iter().map(|c| c.normal), |n| n.to_array().map(f32::to_bits));
    doc.set(data, "normals", Val::Vec3Arr(normals));
    doc.set(data, "normalsIndices", Val::IntArr(normal_idx));
    let (uvs, uv_idx) = dedup(corners.iter().map(|c| c.uv), |n| n.to_array().map(f32::to_bits));
    doc.set(data, "textureCoordinates", Val::Vec2Arr(uvs));
    doc.set(data, "textureCoordinatesIndices", Val::IntArr(uv_idx));
    let (mut weights, mut indices) = (Vec::new(), Vec::new());
    for p in &ch.points {
        for k in 0..joint_count {
            let (b, w) = p.links.get(k).copied().unwrap_or((0, 0.0));
            weights.push(w);
            indices.push(b as i32);
        }
    }
    doc.set(data, "jointWeights", Val::FloatArr(weights));
    doc.set(data, "jointIndices", Val::IntArr(indices));
    let mut sets = Vec::new();
    let mut corner = 0i32;
    let mut faces_of: Vec<Vec<i32>> = vec![Vec::new(); ch.materials.len()];
    for p in &ch.polygons {
        for _ in &p.corners {
            faces_of[p.material].push(corner);
            corner += 1;
        }
        faces_of[p.material].push(-1);
    }
    for (m, faces) in faces_of.into_iter().enumerate() {
        let set = doc.add("DmeFaceSet", &ch.materials[m]);
        let material = doc.add("DmeMaterial", &ch.materials[m]);
        doc.set(material, "mtlName", Val::Str(ch.materials[m].clone()));
        doc.set(set, "material", Val::Elem(material));
        doc.set(set, "faces", Val::IntArr(faces));
        sets.push(set);
    }
    doc.set(mesh, "faceSets", Val::ElemArr(sets));
    if !ch.shapes.is_empty() {
        let deltas: Vec<usize> = ch
            .shapes
            .iter()
            .map(|s| {
                let d = doc.add("DmeVertexDeltaData", &s.name);
                doc.set(d, "vertexFormat", Val::StrArr(vec!["positions".into()]));
                doc.set(d, "positions", Val::Vec3Arr(s.moves.iter().map(|m| m.1).collect()));
                doc.set(d, "positionsIndices", Val::IntArr(s.moves.iter().map(|m| m.0 as i32).collect()));
                d
            })
            .collect();
        doc.set(mesh, "deltaStates", Val::ElemArr(deltas));
    }
    if !controls.is_empty() {
        let op = doc.add("DmeCombinationOperator", "combinationOperator");
        let items: Vec<usize> = controls
            .iter()
            .map(|c| {
                let e = doc.add("DmeCombinationInputControl", c);
                doc.set(e, "rawControlNames", Val::StrArr(vec![c.to_string()]));
                doc.set(e, "stereo", Val::Bool(false));
                doc.set(e, "flexMax", Val::Float(1.0));
                doc.set(e, "flexMin", Val::Float(0.0));
                e
            })
            .collect();
        doc.set(op, "controls", Val::ElemArr(items));
        doc.set(op, "targets", Val::ElemArr(vec![mesh]));
        doc.set(root, "combinationOperator", Val::Elem(op));
    }
    doc
}

/// The animation DMX of `anim` on `ch`'s skeleton: one `DmeChannelsClip`, a position and an orientation channel
/// per bone, every frame keyed.
pub fn dmx_animation(ch: &Character, anim: &Animation) -> Doc {
    let mut doc = Doc { format_version: 18, ..Doc::default() };
    let root = doc.add("DmElement", &anim.name);
    let (_, _, transforms) = skeleton(&mut doc, ch, root);
    let list = doc.add("DmeAnimationList", &ch.name);
    let clip = doc.add("DmeChannelsClip", &anim.name);
    doc.set(list, "animations", Val::ElemArr(vec![clip]));
    doc.set(root, "animationList", Val::Elem(list));
    let time_frame = doc.add("DmeTimeFrame", "timeframe");
    let duration = (anim.frames.len().max(1) - 1) as f32 / anim.fps;
    doc.set(time_frame, "duration", Val::Time(duration));
    doc.set(time_frame, "scale", Val::Float(1.0));
    doc.set(clip, "timeFrame", Val::Elem(time_frame));
    doc.set(clip, "frameRate", Val::Int(anim.fps as i32));
    let times: Vec<f32> = (0..anim.frames.len()).map(|k| k as f32 / anim.fps).collect();
    let mut channels = Vec::new();
    for (b, bone) in ch.bones.iter().enumerate() {
        for (suffix, attribute) in [("_p", "position"), ("_o", "orientation")] {
            let channel = doc.add("DmeChannel", &format!("{}{suffix}", bone.name));
            doc.set(channel, "toElement", Val::Elem(transforms[b]));
            doc.set(channel, "toAttribute", Val::Str(attribute.into()));
            doc.set(channel, "mode", Val::Int(1));
            let (log_class, layer_class, values) = if attribute == "position" {
                ("DmeVector3Log", "DmeVector3LogLayer", Val::Vec3Arr(anim.frames.iter().map(|f| f[b].0).collect()))
            } else {
                (
                    "DmeQuaternionLog",
                    "DmeQuaternionLogLayer",
                    Val::QuatArr(anim.frames.iter().map(|f| smd_quat(f[b].1)).collect()),
                )
            };
            let log = doc.add(log_class, "log");
            let layer = doc.add(layer_class, "log");
            doc.set(layer, "times", Val::TimeArr(times.clone()));
            doc.set(layer, "values", values);
            doc.set(log, "layers", Val::ElemArr(vec![layer]));
            doc.set(channel, "log", Val::Elem(log));
            channels.push(channel);
        }
    }
    doc.set(clip, "channels", Val::ElemArr(channels));
    doc
}
