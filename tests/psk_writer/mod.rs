//! A small PSK/PSA writer for tests and benches: writes exactly the chunk layouts of the spec (4-byte aligned
//! records, FACE3200 packed), so tests can make files with every optional chunk and every kind of damage without
//! copying anything from the corpus.
#![allow(dead_code)]

use glam::{Quat, Vec3};

/// Appends one chunk: 20-byte NUL-padded ID, type flag, record size, record count, then the records.
pub fn chunk(out: &mut Vec<u8>, id: &str, record_size: usize, count: usize, data: &[u8]) {
    let mut name = [0u8; 20];
    name[..id.len()].copy_from_slice(id.as_bytes());
    out.extend_from_slice(&name);
    out.extend_from_slice(&1999801i32.to_le_bytes());
    out.extend_from_slice(&(record_size as i32).to_le_bytes());
    out.extend_from_slice(&(count as i32).to_le_bytes());
    out.extend_from_slice(data);
}

fn name64(name: &str) -> [u8; 64] {
    let mut out = [0u8; 64];
    let bytes = name.as_bytes();
    out[..bytes.len().min(63)].copy_from_slice(&bytes[..bytes.len().min(63)]);
    out
}

fn f32s(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// A bone as the scene model sees it; the writer stores the file convention (non-root orientations conjugated).
#[derive(Clone, Debug)]
pub struct Bone {
    pub name: String,
    pub parent: i32,
    pub rotation: Quat,
    pub position: Vec3,
}

impl Bone {
    pub fn new(name: &str, parent: i32, rotation: Quat, position: Vec3) -> Self {
        Self { name: name.to_owned(), parent, rotation, position }
    }
}

/// Writes 120-byte VBone records.
pub fn bone_records(bones: &[Bone]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, b) in bones.iter().enumerate() {
        out.extend_from_slice(&name64(&b.name));
        out.extend_from_slice(&0u32.to_le_bytes());
        let children =
            bones.iter().filter(|c| c.parent == i as i32).count() as i32 - i32::from(i == 0 && b.parent == 0);
        out.extend_from_slice(&children.max(0).to_le_bytes());
        out.extend_from_slice(&b.parent.to_le_bytes());
        let q = if i == 0 { b.rotation } else { b.rotation.conjugate() };
        f32s(&mut out, &q.to_array());
        f32s(&mut out, &b.position.to_array());
        f32s(&mut out, &[1.0, 0.0, 0.0, 0.0]);
    }
    out
}

/// One MRPHDATA row: position delta, normal delta, point.
pub type MorphRow = (Vec3, Vec3, i32);

#[derive(Clone, Debug, Default)]
pub struct Psk {
    pub points: Vec<Vec3>,
    /// (point, u, v, material)
    pub wedges: Vec<(u32, f32, f32, u8)>,
    /// (wedges, material, smoothing groups)
    pub faces: Vec<([u32; 3], u8, u32)>,
    /// Write FACE3200 instead of FACE0000.
    pub face32: bool,
    /// (name, poly flags)
    pub materials: Vec<(String, u32)>,
    pub bones: Vec<Bone>,
    /// (weight, point, bone)
    pub weights: Vec<(f32, i32, i32)>,
    pub normals: Vec<Vec3>,
    pub colors: Vec<[u8; 4]>,
    pub extra_uvs: Vec<Vec<[f32; 2]>>,
    /// (name, [(position delta, normal delta, point)])
    pub morphs: Vec<(String, Vec<MorphRow>)>,
    /// Written as is before RAWWEIGHTS: (id, record size, count, data).
    pub extra_chunks: Vec<(String, usize, usize, Vec<u8>)>,
    /// Write REFSKELT / RAWWEIGHTS even when empty.
    pub always_skeleton: bool,
}

impl Psk {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        chunk(&mut out, "ACTRHEAD", 0, 0, &[]);
        let mut data = Vec::new();
        for p in &self.points {
            f32s(&mut data, &p.to_array());
        }
        chunk(&mut out, "PNTS0000", 12, self.points.len(), &data);

        let mut data = Vec::new();
        for &(point, u, v, mat) in &self.wedges {
            data.extend_from_slice(&point.to_le_bytes());
            f32s(&mut data, &[u, v]);
            data.extend_from_slice(&[mat, 0, 0, 0]);
        }
        chunk(&mut out, "VTXW0000", 16, self.wedges.len(), &data);

        let mut data = Vec::new();
        for &(w, mat, groups) in &self.faces {
            if self.face32 {
                for i in w {
                    data.extend_from_slice(&i.to_le_bytes());
                }
            } else {
                for i in w {
                    data.extend_from_slice(&(i as u16).to_le_bytes());
                }
            }
            data.extend_from_slice(&[mat, 0]);
            data.extend_from_slice(&groups.to_le_bytes());
        }
        if self.face32 {
            chunk(&mut out, "FACE3200", 18, self.faces.len(), &data);
        } else {
            chunk(&mut out, "FACE0000", 12, self.faces.len(), &data);
        }

        let mut data = Vec::new();
        for (i, (name, flags)) in self.materials.iter().enumerate() {
            data.extend_from_slice(&name64(name));
            for v in [i as u32, *flags, 0, 0, 0, 0] {
                data.extend_from_slice(&v.to_le_bytes());
            }
        }
        chunk(&mut out, "MATT0000", 88, self.materials.len(), &data);

        if !self.bones.is_empty() || self.always_skeleton {
            chunk(&mut out, "REFSKELT", 120, self.bones.len(), &bone_records(&self.bones));
        }
        for (id, size, count, data) in &self.extra_chunks {
            chunk(&mut out, id, *size, *count, data);
        }
        if !self.weights.is_empty() || self.always_skeleton {
            let mut data = Vec::new();
            for &(w, p, b) in &self.weights {
                data.extend_from_slice(&w.to_le_bytes());
                data.extend_from_slice(&p.to_le_bytes());
                data.extend_from_slice(&b.to_le_bytes());
            }
            chunk(&mut out, "RAWWEIGHTS", 12, self.weights.len(), &data);
        }
        if !self.normals.is_empty() {
            let mut data = Vec::new();
            for n in &self.normals {
                f32s(&mut data, &n.to_array());
            }
            chunk(&mut out, "VTXNORMS", 12, self.normals.len(), &data);
        }
        if !self.colors.is_empty() {
            chunk(&mut out, "VERTEXCOLOR", 4, self.colors.len(), &self.colors.concat());
        }
        for (set, uvs) in self.extra_uvs.iter().enumerate() {
            let mut data = Vec::new();
            for uv in uvs {
                f32s(&mut data, uv);
            }
            chunk(&mut out, &format!("EXTRAUVS{set}"), 8, uvs.len(), &data);
        }
        if !self.morphs.is_empty() {
            let mut info = Vec::new();
            let mut deltas = Vec::new();
            for (name, rows) in &self.morphs {
                info.extend_from_slice(&name64(name));
                info.extend_from_slice(&(rows.len() as i32).to_le_bytes());
                for (dp, dn, point) in rows {
                    f32s(&mut deltas, &dp.to_array());
                    f32s(&mut deltas, &dn.to_array());
                    deltas.extend_from_slice(&point.to_le_bytes());
                }
            }
            chunk(&mut out, "MRPHINFO", 68, self.morphs.len(), &info);
            let rows: usize = self.morphs.iter().map(|(_, r)| r.len()).sum();
            chunk(&mut out, "MRPHDATA", 28, rows, &deltas);
        }
        out
    }
}

#[derive(Clone, Debug)]
pub struct Sequence {
    pub name: String,
    pub rate: f32,
    pub first_frame: i32,
    pub frames: i32,
    pub total_bones: i32,
}

#[derive(Clone, Debug, Default)]
pub struct Psa {
    pub bones: Vec<Bone>,
    pub sequences: Vec<Sequence>,
    /// (position, rotation as the scene model sees it): the writer conjugates non-root rotations. Bone of a key is
    /// `index % bones.len()`.
    pub keys: Vec<(Vec3, Quat)>,
    pub scale_keys: Vec<Vec3>,
    pub extra_chunks: Vec<(String, usize, usize, Vec<u8>)>,
}

impl Psa {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        chunk(&mut out, "ANIMHEAD", 0, 0, &[]);
        chunk(&mut out, "BONENAMES", 120, self.bones.len(), &bone_records(&self.bones));
        let mut data = Vec::new();
        for s in &self.sequences {
            data.extend_from_slice(&name64(&s.name));
            data.extend_from_slice(&name64("None"));
            for v in [s.total_bones, 0, 0, s.frames * s.total_bones] {
                data.extend_from_slice(&v.to_le_bytes());
            }
            f32s(&mut data, &[1.0, s.frames as f32, s.rate]);
            for v in [0, s.first_frame, s.frames] {
                data.extend_from_slice(&v.to_le_bytes());
            }
        }
        chunk(&mut out, "ANIMINFO", 168, self.sequences.len(), &data);
        for (id, size, count, data) in &self.extra_chunks {
            chunk(&mut out, id, *size, *count, data);
        }
        let mut data = Vec::new();
        let bone_count = self.bones.len().max(1);
        for (i, (p, q)) in self.keys.iter().enumerate() {
            let q = if i % bone_count == 0 { *q } else { q.conjugate() };
            f32s(&mut data, &p.to_array());
            f32s(&mut data, &q.to_array());
            f32s(&mut data, &[1.0]);
        }
        chunk(&mut out, "ANIMKEYS", 32, self.keys.len(), &data);
        if !self.scale_keys.is_empty() {
            let mut data = Vec::new();
            for s in &self.scale_keys {
                f32s(&mut data, &s.to_array());
                f32s(&mut data, &[1.0]);
            }
            chunk(&mut out, "SCALEKEYS", 16, self.scale_keys.len(), &data);
        }
        out
    }
}

/// Chunk boundaries of a written file (offsets where a chunk header starts, plus the end).
pub fn chunk_boundaries(bytes: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut pos = 0usize;
    while pos + 32 <= bytes.len() {
        out.push(pos);
        let size = i32::from_le_bytes(bytes[pos + 24..pos + 28].try_into().unwrap()) as usize;
        let count = i32::from_le_bytes(bytes[pos + 28..pos + 32].try_into().unwrap()) as usize;
        pos += 32 + size * count;
    }
    out.push(pos);
    out
}

/// A deterministic xorshift generator: no dependency, same sequence on every machine.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// A skinned tube along +X split into `rings` rings of `sides` points, bound to a chain of `bones` bones (the
/// kind of limb PSK files hold), with UVs, smoothing group 1 and one material per half.
pub fn tube(rings: usize, sides: usize, bones: usize, length: f32) -> Psk {
    let mut psk = Psk::default();
    let step = length / (rings - 1) as f32;
    for r in 0..rings {
        for s in 0..sides {
            let a = s as f32 / sides as f32 * std::f32::consts::TAU;
            psk.points.push(Vec3::new(r as f32 * step, a.cos() * 5.0, a.sin() * 5.0));
            let bone_pos = r as f32 * step / length * (bones - 1) as f32;
            let b0 = (bone_pos.floor() as usize).min(bones - 1);
            let t = bone_pos - b0 as f32;
            let p = (r * sides + s) as i32;
            psk.weights.push((1.0 - t, p, b0 as i32));
            if t > 0.0 && b0 + 1 < bones {
                psk.weights.push((t, p, b0 as i32 + 1));
            }
        }
    }
    // One wedge per point plus a seam column (its own wedges, same points, u = 1).
    for r in 0..rings {
        for s in 0..=sides {
            let point = (r * sides + s % sides) as u32;
            psk.wedges.push((point, s as f32 / sides as f32, r as f32 / (rings - 1) as f32, 0));
        }
    }
    let w = |r: usize, s: usize| (r * (sides + 1) + s) as u32;
    for r in 0..rings - 1 {
        let mat = u8::from(r >= (rings - 1) / 2);
        for s in 0..sides {
            // Clockwise seen from outside, as ActorX writes them.
            psk.faces.push(([w(r, s), w(r, s + 1), w(r + 1, s)], mat, 1));
            psk.faces.push(([w(r + 1, s), w(r, s + 1), w(r + 1, s + 1)], mat, 1));
        }
    }
    psk.materials = vec![("skin".to_owned(), 0), ("cloth".to_owned(), 0)];
    let seg = length / (bones - 1).max(1) as f32;
    // Twisted about the tube's axis, so every bind rotation is a real rotation (a convention mix-up between PSK
    // and PSA would show) while the joints stay on the axis.
    psk.bones.push(Bone::new("Root", 0, Quat::from_rotation_x(0.3), Vec3::ZERO));
    for b in 1..bones {
        let twist = Quat::from_rotation_x(0.4 + 0.1 * b as f32);
        psk.bones.push(Bone::new(&format!("Bone{b}"), b as i32 - 1, twist, Vec3::new(seg, 0.0, 0.0)));
    }
    psk
}
