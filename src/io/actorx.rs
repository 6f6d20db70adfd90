//! What PSK and PSA files share: the chunked container (32-byte headers, records stepped by their declared size),
//! the bone record, name decoding, the rotation convention and the axis conversion of Unreal data.
//!
//! Owns only byte-level reading; mesh and clip assembly live in [`super::psk`] and [`super::psa`]. Nothing here
//! allocates from a count in the file before the chunk header's `DataSize * DataCount` has been checked against
//! the bytes that remain, so every `Vec` built from a chunk is bounded by the file size.
//!
//! ## Conventions (checked by `tests/psk_corpus.rs` and `tests/psk_synthetic.rs`; the evidence for each is in
//! `docs/actorx-notes.md`)
//! - **Rotations.** Quaternions are stored x, y, z, w. ActorX stores every bone orientation except bone 0's
//!   conjugated (REFSKELT, BONENAMES and ANIMKEYS alike); [`bone_rotation`] undoes it, so the scene model holds
//!   ordinary quaternions used with the usual `T * R * S` maths on the file's raw coordinates. The rule follows
//!   the format's documentation and the public importers (UE Viewer, the Blender add-on), and applies to PSK and
//!   PSA alike.
//! - **Axes.** The numbers stored in PSK/PSA files are right-handed, Z up, centimetres, like the 3ds Max, Maya
//!   and Blender scenes they come from: UnrealEd mirrors a PSK into the engine's left-handed space when it
//!   imports it, and UE Viewer mirrors back when it writes one from game data ("PSK uses right-hand
//!   coordinates, but unreal uses left-hand. When importing PSK into UnrealEd, it mirrors model", its exporter
//!   says); the Blender importers read the numbers as they are. The loaders keep the data as written and
//!   declare [`unreal_axes`]: `(x, y, z) → (x, z, −y)`, a rotation into the viewer's right-handed Y-up frame, no
//!   mirror. Evidence: on real characters from several independent sources (`tests/anatomy.rs`) the bones named
//!   left lie on the character's left only under this reading (e.g. the corpus kit body: toes toward −Y,
//!   `thigh_l` at +X).
//! - **Winding.** PSK triangles wind clockwise seen from outside in the file's right-handed frame (every closed
//!   corpus mesh has a negative signed volume under counter-clockwise orientation), so PSK meshes set
//!   `Mesh::clockwise = true`; the rotation keeps winding, so in the viewer frame they wind clockwise too.

use bytemuck::{Pod, Zeroable};
use glam::{Quat, Vec3};

use super::{LoadError, LoadErrorKind};
use crate::scene::{AxisConversion, Position, Skeleton, Transform, Warning, parent_first_order};

/// Size of a chunk header: `ChunkID[20]`, `TypeFlag`, `DataSize`, `DataCount`.
pub const CHUNK_HEADER_SIZE: usize = 32;

/// The axis conversion every PSK/PSA asset declares: the files' right-handed Z-up frame turned into the viewer's
/// right-handed Y-up frame, `(x, y, z) → (x, z, −y)` (a rotation: no mirror, winding kept). The same conversion
/// as SMD and ASE; see the module notes for why PSK data is right-handed.
pub fn unreal_axes() -> AxisConversion {
    AxisConversion {
        description: "ActorX right-handed Z up → right-handed Y up: (x, y, z) → (x, z, −y), a rotation",
        ..AxisConversion::z_up_right_handed()
    }
}

/// One chunk of a PSK or PSA file.
#[derive(Clone, Debug)]
pub struct Chunk<'a> {
    /// The ID up to its first NUL (exporters leave junk after it).
    pub id: String,
    /// Byte offset of the chunk header in the file.
    pub offset: u64,
    pub type_flag: i32,
    /// Bytes per record, as declared (newer exporters enlarge some records).
    pub record_size: usize,
    pub count: usize,
    /// Exactly `record_size * count` bytes.
    pub data: &'a [u8],
    /// "PSK" or "PSA", for messages.
    pub kind: &'static str,
}

impl<'a> Chunk<'a> {
    /// Offset of the first record.
    pub fn data_offset(&self) -> u64 {
        self.offset + CHUNK_HEADER_SIZE as u64
    }

    /// Offset of record `index`.
    pub fn record_offset(&self, index: usize) -> u64 {
        self.data_offset() + (index as u64) * (self.record_size as u64)
    }

    /// `"PSK chunk REFSKELT at byte 5120"`.
    pub fn label(&self) -> String {
        format!("{} chunk {} at byte {}", self.kind, self.id, self.offset)
    }

    /// An error about this chunk as a whole.
    pub fn error(&self, message: impl std::fmt::Display) -> LoadError {
        LoadError::at_byte(self.offset, format!("{}: {message}", self.label()))
    }

    /// An error about one record (positioned at the record, the message still names the chunk).
    pub fn record_error(&self, index: usize, message: impl std::fmt::Display) -> LoadError {
        LoadError::at_byte(self.record_offset(index), format!("{}: {message}", self.label()))
    }

    /// A warning about this chunk.
    pub fn warning(&self, message: impl std::fmt::Display) -> Warning {
        Warning::new(Position::Byte(self.offset), format!("{} chunk {}: {message}", self.kind, self.id))
    }

    /// The header alone (no data borrowed), kept for messages after the bytes are gone.
    pub fn header_only(&self) -> Chunk<'static> {
        Chunk {
            id: self.id.clone(),
            offset: self.offset,
            type_flag: self.type_flag,
            record_size: self.record_size,
            count: self.count,
            data: &[],
            kind: self.kind,
        }
    }

    /// Checks that records are at least `size_of::<T>()` bytes.
    pub fn expect_records<T: Pod>(&self) -> Result<(), LoadError> {
        let size = size_of::<T>();
        if self.record_size < size && self.count > 0 {
            return Err(self.error(format_args!("{size}-byte records expected, found {}", self.record_size)));
        }
        Ok(())
    }

    /// The records, each read from the first `size_of::<T>()` bytes of its slot. No allocation.
    #[cfg(test)]
    pub fn iter<T: Pod>(&self) -> Result<impl ExactSizeIterator<Item = T> + 'a, LoadError> {
        self.expect_records::<T>()?;
        let size = size_of::<T>();
        // `max(1)`: `chunks_exact(0)` panics; a zero record size only gets here with zero records.
        let step = self.record_size.max(size).max(1);
        let count = if self.record_size == 0 { 0 } else { self.count };
        Ok(RecordIter { data: self.data, step, size, remaining: count, _marker: std::marker::PhantomData })
    }

    /// The records in place: read from the chunk's bytes on access, without a copy (any alignment, any declared
    /// record size of at least `size_of::<T>()`).
    pub fn view<T: Pod>(&self) -> Result<Records<'a, T>, LoadError> {
        self.expect_records::<T>()?;
        let size = size_of::<T>();
        let step = self.record_size.max(size).max(1);
        let len = if self.record_size == 0 { 0 } else { self.count };
        Ok(Records { data: self.data, step, len, _marker: std::marker::PhantomData })
    }

    /// All records in a new `Vec`: one `memcpy` when the declared size is the natural one.
    #[cfg(test)]
    pub fn records<T: Pod>(&self) -> Result<Vec<T>, LoadError> {
        self.expect_records::<T>()?;
        if self.record_size == size_of::<T>() {
            // The chunk length was checked against the file, so this allocation is bounded by the file size. The
            // copy goes into aligned storage, so unaligned file data is fine.
            let mut out = vec![T::zeroed(); self.count];
            let dst: &mut [u8] = bytemuck::cast_slice_mut(&mut out);
            if dst.len() == self.data.len() {
                dst.copy_from_slice(self.data);
                return Ok(out);
            }
        }
        Ok(self.iter::<T>()?.collect())
    }
}

/// Fixed-size records read in place from a chunk's bytes ([`Chunk::view`]): each access is an unaligned copy of
/// one record, so loaders that read every record once or twice need no array of their own. `data` holds at least
/// `step * len` bytes (the chunk header's size was checked against the file).
#[derive(Debug)]
pub struct Records<'a, T> {
    data: &'a [u8],
    step: usize,
    len: usize,
    _marker: std::marker::PhantomData<T>,
}

// Derived `Clone`/`Copy` would ask the same of `T`; a view is a slice and a count whatever `T` is.
impl<T> Clone for Records<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Records<'_, T> {}

impl<T> Default for Records<'_, T> {
    fn default() -> Self {
        Records { data: &[], step: 1, len: 0, _marker: std::marker::PhantomData }
    }
}

impl<'a, T: Pod> Records<'a, T> {
    /// Records over an array already in memory (tests, tools).
    #[cfg(test)]
    pub fn from_slice(records: &'a [T]) -> Self {
        Records {
            data: bytemuck::cast_slice(records),
            step: size_of::<T>().max(1),
            len: records.len(),
            _marker: std::marker::PhantomData,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The records `start..start + len`, clamped to those there are.
    pub fn range(&self, start: usize, len: usize) -> Self {
        let start = start.min(self.len);
        let len = len.min(self.len - start);
        let data = self.data.get(start * self.step..).unwrap_or_default();
        Records { data, step: self.step, len, _marker: std::marker::PhantomData }
    }

    /// Record `index`, or `None` past the end.
    #[inline]
    pub fn get(&self, index: usize) -> Option<T> {
        if index >= self.len {
            return None;
        }
        let start = index * self.step;
        self.data.get(start..start + size_of::<T>()).map(bytemuck::pod_read_unaligned)
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = T> + Clone + 'a {
        RecordIter {
            data: self.data,
            step: self.step,
            size: size_of::<T>(),
            remaining: self.len,
            _marker: self._marker,
        }
    }

    /// All records in a new `Vec`: one `memcpy` when records have their natural size.
    pub fn to_vec(self) -> Vec<T> {
        let bytes = self.data.get(..self.len * self.step).unwrap_or_default();
        if self.step == size_of::<T>() {
            let mut out = vec![T::zeroed(); self.len];
            let dst: &mut [u8] = bytemuck::cast_slice_mut(&mut out);
            if dst.len() == bytes.len() {
                dst.copy_from_slice(bytes);
                return out;
            }
        }
        self.iter().collect()
    }
}

/// Iterator over fixed-size records, reading each with an unaligned copy.
#[derive(Clone)]
struct RecordIter<'a, T> {
    data: &'a [u8],
    step: usize,
    size: usize,
    remaining: usize,
    _marker: std::marker::PhantomData<T>,
}

impl<T: Pod> Iterator for RecordIter<'_, T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        if self.remaining == 0 {
            return None;
        }
        let record = self.data.get(..self.size)?;
        let value = bytemuck::pod_read_unaligned(record);
        self.data = self.data.get(self.step..).unwrap_or_default();
        self.remaining -= 1;
        Some(value)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<T: Pod> ExactSizeIterator for RecordIter<'_, T> {}

/// Splits a file into chunks. `magic` is the ID the first chunk must have (`ACTRHEAD` / `ANIMHEAD`).
///
/// Errors: a first chunk with another ID, a header cut short, a negative size or count, a chunk whose data runs
/// past the end of the file. Trailing zero bytes shorter than a header are accepted with a warning.
pub fn read_chunks<'a>(
    bytes: &'a [u8],
    kind: &'static str,
    magic: &str,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Chunk<'a>>, LoadError> {
    if bytes.is_empty() {
        return Err(
            LoadError::whole_file(format!("not a {kind} file: it is empty (0 bytes)")).with_kind(LoadErrorKind::Empty)
        );
    }
    let mut chunks = Vec::new();
    let mut pos = 0usize;
    while pos < bytes.len() {
        let rest = bytes.get(pos..).unwrap_or_default();
        let Some(header) = rest.get(..CHUNK_HEADER_SIZE) else {
            if pos > 0 && rest.iter().all(|b| *b == 0) {
                warnings.push(Warning::new(
                    Position::Byte(pos as u64),
                    format!("{} trailing zero byte(s) after the last chunk ignored", rest.len()),
                ));
                break;
            }
            return Err(LoadError::truncated(
                pos as u64,
                format!(
                    "{kind} chunk header at byte {pos}: {CHUNK_HEADER_SIZE} bytes expected, only {} remain (file truncated?)",
                    rest.len()
                ),
            ));
        };
        let id = chunk_id(header.get(..20).unwrap_or_default());
        let field = |at: usize| -> i32 {
            header.get(at..at + 4).map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]])).unwrap_or(0)
        };
        let (type_flag, data_size, data_count) = (field(20), field(24), field(28));
        let label = format!("{kind} chunk {id} at byte {pos}");
        if chunks.is_empty() && id != magic {
            return Err(LoadError::at_byte(
                0,
                format!("not a {kind} file: the first chunk is '{id}', expected {magic}"),
            )
            .with_kind(LoadErrorKind::NotThisFormat));
        }
        if data_size < 0 || data_count < 0 {
            return Err(LoadError::at_byte(
                pos as u64,
                format!("{label}: negative record size or count ({data_size} bytes × {data_count} records)"),
            ));
        }
        let (record_size, count) = (data_size as usize, data_count as usize);
        let length = (record_size as u64) * (count as u64);
        let available = (rest.len() - CHUNK_HEADER_SIZE) as u64;
        if length > available {
            return Err(LoadError::truncated(
                pos as u64,
                format!(
                    "{label}: {count} records of {record_size} bytes ({length} bytes) run past the end of the file \
                     (only {available} bytes remain)"
                ),
            ));
        }
        let start = pos + CHUNK_HEADER_SIZE;
        let end = start + length as usize;
        let data = bytes.get(start..end).unwrap_or_default();
        chunks.push(Chunk { id, offset: pos as u64, type_flag, record_size, count, data, kind });
        pos = end;
    }
    Ok(chunks)
}

/// The chunk ID: bytes up to the first NUL, non-printable bytes escaped so damaged IDs stay readable.
fn chunk_id(raw: &[u8]) -> String {
    let end = raw.iter().position(|b| *b == 0).unwrap_or(raw.len());
    let mut out = String::with_capacity(end);
    for &b in raw.get(..end).unwrap_or_default() {
        if b.is_ascii_graphic() || b == b' ' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// Decodes a fixed-size Windows-1252 name: up to the first NUL, surrounding spaces trimmed (exporters pad names
/// with spaces). Every byte maps to a character, so nothing is lost for display.
pub fn decode_name(raw: &[u8]) -> String {
    let end = raw.iter().position(|b| *b == 0).unwrap_or(raw.len());
    let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(raw.get(..end).unwrap_or_default());
    text.trim().to_owned()
}

/// `VBone` / `FNamedBoneBinary`: 120 bytes, the same in PSK (`REFSKELT`) and PSA (`BONENAMES`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct VBone {
    pub name: [u8; 64],
    pub flags: u32,
    pub num_children: i32,
    pub parent_index: i32,
    /// x, y, z, w — conjugated for every bone but bone 0.
    pub orientation: [f32; 4],
    pub position: [f32; 3],
    pub length: f32,
    pub size: [f32; 3],
}

const _: () = assert!(size_of::<VBone>() == 120);

/// A file quaternion (x, y, z, w) as an ordinary rotation: conjugated back unless it belongs to bone 0, and
/// normalised. `None` when it is not finite or has (near) zero length.
pub fn bone_rotation(raw: [f32; 4], is_root: bool) -> Option<Quat> {
    let q = Quat::from_array(raw);
    if !q.is_finite() || q.length_squared() < 1e-12 {
        return None;
    }
    let q = q.normalize();
    Some(if is_root { q } else { q.conjugate() })
}

/// Builds a PSA's skeleton from its `BONENAMES` records in whatever order the file stores them, and returns it
/// with, for each file bone, its index in the skeleton.
///
/// A PSA's parent indices play no part in binding (tracks bind to a model's bones by name), and real PSAs store
/// children before their parents (UE Viewer's re-exports of UE1 games: bone 1 'GNOME Pelvis' names parent 2),
/// so such a file is not rejected: its bones are put in parent-first order (the file's order where it already
/// is one, else depth first from the roots in file order), with a warning that says so. Keys stay in the file's
/// bone order; the caller maps them through the returned indices. A parent index out of range attaches the bone
/// to the root (with a warning); bones whose parents form a cycle are an error.
pub fn build_skeleton_any_order(
    bones: &[VBone],
    chunk: &Chunk,
    warnings: &mut Vec<Warning>,
) -> Result<(Skeleton, Vec<usize>), LoadError> {
    let parents: Vec<Option<usize>> = bones
        .iter()
        .enumerate()
        .map(|(i, bone)| match usize::try_from(bone.parent_index) {
            _ if i == 0 => None,
            Ok(p) if p < bones.len() && p != i => Some(p),
            // Negative, out of range or itself: `build_skeleton` attaches it to the root and says so.
            _ => None,
        })
        .collect();
    let in_file_order =
        bones.iter().enumerate().skip(1).all(|(i, b)| b.parent_index < 0 || (b.parent_index as usize) < i);
    if in_file_order {
        let skeleton = build_skeleton(bones, chunk, warnings)?;
        return Ok((skeleton, (0..bones.len()).collect()));
    }
    // Bone 0 is the root in ActorX (its parent field is ignored), and bones with no usable parent hang below it,
    // so every bone but 0 gets a parent for the ordering.
    let mut parents = parents;
    let mut rooted: Vec<Option<usize>> =
        parents.iter().enumerate().map(|(i, p)| if i == 0 { None } else { Some(p.unwrap_or(0)) }).collect();
    // Parents that form a cycle cannot be ordered; as they play no part in binding, each cycle is broken by
    // hanging one of its bones from the root (one cycle per round, so at most one round per bone).
    let mut cut = Vec::new();
    let order = loop {
        match parent_first_order(&rooted) {
            Ok(order) => break order,
            Err(i) if cut.len() < bones.len() => {
                // `i` cannot be reached from the root, so following its parents ends in a cycle: cut there.
                let mut seen = vec![false; bones.len()];
                let mut on_cycle = i;
                while !seen[on_cycle] {
                    seen[on_cycle] = true;
                    on_cycle = rooted[on_cycle].unwrap_or(0);
                }
                rooted[on_cycle] = Some(0);
                parents[on_cycle] = Some(0);
                cut.push(on_cycle);
            }
            Err(i) => {
                let name = bones.get(i).map(|b| decode_name(&b.name)).unwrap_or_default();
                return Err(chunk.record_error(i, format_args!("bone {i} '{name}' is part of a parent cycle")));
            }
        }
    };
    if !cut.is_empty() {
        let names: Vec<String> = cut
            .iter()
            .map(|&i| format!("{i} '{}'", bones.get(i).map(|b| decode_name(&b.name)).unwrap_or_default()))
            .collect();
        warnings.push(chunk.warning(format_args!(
            "the parent indices of {} bone(s) form cycles; hung from the root bone to read the file: {}",
            cut.len(),
            names.join(", ")
        )));
    }
    let mut skeleton_index = vec![0usize; bones.len()];
    for (k, &i) in order.iter().enumerate() {
        skeleton_index[i] = k;
    }
    let first = parents.iter().enumerate().find(|(i, p)| p.is_some_and(|p| p > *i)).map(|(i, p)| (i, *p));
    if let Some((i, Some(p))) = first {
        let name = bones.get(i).map(|b| decode_name(&b.name)).unwrap_or_default();
        warnings.push(chunk.warning(format_args!(
            "bones are stored children before their parents (first: bone {i} '{name}' names parent {p}); the \
             skeleton is read in parent-first order (a PSA's parents play no part in binding)"
        )));
    }
    let mut reordered: Vec<VBone> = Vec::with_capacity(bones.len());
    for &i in &order {
        let mut bone = bones[i];
        // The file's bone 0 stays the root (first in the order); every other bone names its parent's new index.
        if skeleton_index[i] > 0 {
            match parents[i] {
                Some(p) => bone.parent_index = skeleton_index[p] as i32,
                None if bone.parent_index >= 0 => {
                    warnings.push(chunk.warning(format_args!(
                        "bone {i} '{}' names parent {}, which is not another of the {} bones; attached to the root",
                        decode_name(&bone.name),
                        bone.parent_index,
                        bones.len()
                    )));
                    bone.parent_index = 0;
                }
                // Negative: `build_skeleton` attaches it to the root and says so.
                None => {}
            }
        }
        reordered.push(bone);
    }
    // Rotations are conjugated for every bone but the file's bone 0, which the order keeps first.
    let skeleton = build_skeleton(&reordered, chunk, warnings)?;
    Ok((skeleton, skeleton_index))
}

/// Builds the skeleton from `REFSKELT` / `BONENAMES` records.
///
/// Bone 0 is the root whatever its parent field says (0 or −1 are usual). A later bone whose parent is negative
/// is attached to bone 0, with a warning (as the public importers do). A parent that does not come before its
/// child is an error: the file's order defines the weight and key indices, so it cannot be guessed around.
/// Non-finite or zero rotations become the identity and non-finite positions zero, with a warning.
pub fn build_skeleton(bones: &[VBone], chunk: &Chunk, warnings: &mut Vec<Warning>) -> Result<Skeleton, LoadError> {
    let mut skeleton = Skeleton::default();
    let mut bad_rotations = Vec::new();
    let mut bad_positions = Vec::new();
    for (i, bone) in bones.iter().enumerate() {
        let name = decode_name(&bone.name);
        let parent = if i == 0 {
            if bone.parent_index != 0 && bone.parent_index != -1 {
                warnings.push(chunk.warning(format_args!(
                    "bone 0 '{name}' names parent {}; bone 0 is the root, the parent is ignored",
                    bone.parent_index
                )));
            }
            None
        } else if bone.parent_index < 0 {
            warnings.push(chunk.warning(format_args!(
                "bone {i} '{name}' has no parent ({}); attached to the root bone",
                bone.parent_index
            )));
            Some(0)
        } else if (bone.parent_index as usize) < i {
            Some(bone.parent_index as usize)
        } else {
            return Err(chunk.record_error(
                i,
                format_args!(
                    "bone {i} '{name}' names parent {}, which does not come before it (bones must be stored parents first)",
                    bone.parent_index
                ),
            ));
        };
        let rotation = bone_rotation(bone.orientation, i == 0).unwrap_or_else(|| {
            bad_rotations.push(i);
            Quat::IDENTITY
        });
        let mut translation = Vec3::from_array(bone.position);
        if !translation.is_finite() {
            bad_positions.push(i);
            translation = Vec3::ZERO;
        }
        skeleton.push(name, parent, Transform::from_translation_rotation(translation, rotation));
    }
    if !bad_rotations.is_empty() {
        warnings.push(chunk.warning(format_args!(
            "{} bone(s) have a zero or non-finite orientation, replaced by the identity (first: bone {})",
            bad_rotations.len(),
            bad_rotations[0]
        )));
    }
    if !bad_positions.is_empty() {
        warnings.push(chunk.warning(format_args!(
            "{} bone(s) have a non-finite position, replaced by the origin (first: bone {})",
            bad_positions.len(),
            bad_positions[0]
        )));
    }
    warn_duplicate_names(&skeleton, chunk, warnings);
    skeleton.recompute_inverse_bind();
    Ok(skeleton)
}

/// Animation binds by name, so two bones with the same (normalised) name make binding ambiguous.
fn warn_duplicate_names(skeleton: &Skeleton, chunk: &Chunk, warnings: &mut Vec<Warning>) {
    let mut keyed: Vec<(String, usize)> =
        skeleton.names.iter().enumerate().map(|(i, n)| (crate::scene::normalize_bone_name(n), i)).collect();
    keyed.sort();
    let duplicates: Vec<String> = keyed
        .windows(2)
        .filter(|w| w[0].0 == w[1].0)
        .map(|w| format!("'{}' (bones {} and {})", skeleton.names[w[0].1], w[0].1, w[1].1))
        .collect();
    if !duplicates.is_empty() {
        warnings.push(chunk.warning(format_args!(
            "{} duplicate bone name(s); animation binds to the first: {}",
            duplicates.len(),
            duplicates.join(", ")
        )));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(id: &str, size: i32, count: i32) -> Vec<u8> {
        let mut out = vec![0u8; 32];
        out[..id.len()].copy_from_slice(id.as_bytes());
        out[24..28].copy_from_slice(&size.to_le_bytes());
        out[28..32].copy_from_slice(&count.to_le_bytes());
        out
    }

    #[test]
    fn chunks_step_by_declared_size_and_ignore_id_junk() {
        let mut bytes = header("ACTRHEAD", 0, 0);
        let mut pnts = header("PNTS0000", 16, 2);
        pnts[9..12].copy_from_slice(b"a.v"); // junk after the NUL, as in real files
        bytes.extend(pnts);
        for v in [1.0f32, 2.0, 3.0, 99.0, 4.0, 5.0, 6.0, 99.0] {
            bytes.extend(v.to_le_bytes());
        }
        let mut warnings = Vec::new();
        let chunks = read_chunks(&bytes, "PSK", "ACTRHEAD", &mut warnings).unwrap();
        assert_eq!(chunks.len(), 2);
        assert_eq!(chunks[1].id, "PNTS0000");
        let points: Vec<[f32; 3]> = chunks[1].records().unwrap();
        assert_eq!(points, vec![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
        assert!(warnings.is_empty());
    }

    #[test]
    fn short_records_and_overruns_are_errors_naming_chunk_and_offset() {
        let mut bytes = header("ACTRHEAD", 0, 0);
        bytes.extend(header("REFSKELT", 88, 1));
        bytes.extend([0u8; 88]);
        let mut warnings = Vec::new();
        let chunks = read_chunks(&bytes, "PSK", "ACTRHEAD", &mut warnings).unwrap();
        let err = chunks[1].records::<VBone>().unwrap_err();
        assert_eq!(err.message, "PSK chunk REFSKELT at byte 32: 120-byte records expected, found 88");
        assert_eq!(err.position, Position::Byte(32));

        let mut bytes = header("ACTRHEAD", 0, 0);
        bytes.extend(header("PNTS0000", 12, i32::MAX));
        let err = read_chunks(&bytes, "PSK", "ACTRHEAD", &mut warnings).unwrap_err();
        assert!(err.message.starts_with("PSK chunk PNTS0000 at byte 32: 2147483647 records"), "{}", err.message);
    }

    #[test]
    fn wrong_magic_is_rejected() {
        let bytes = header("ANIMHEAD", 0, 0);
        let err = read_chunks(&bytes, "PSK", "ACTRHEAD", &mut Vec::new()).unwrap_err();
        assert!(err.message.contains("expected ACTRHEAD"), "{}", err.message);
    }

    #[test]
    fn names_decode_windows_1252_and_trim_padding() {
        let mut raw = [0u8; 64];
        raw[..8].copy_from_slice(b"Bip\xe901  ");
        raw[10] = b'x'; // after the NUL: ignored
        assert_eq!(decode_name(&raw), "Bipé01");
    }

    #[test]
    fn rotation_convention_conjugates_all_but_the_root() {
        let raw = [0.0, 0.0, 0.5f32.sqrt(), 0.5f32.sqrt()];
        let root = bone_rotation(raw, true).unwrap();
        let child = bone_rotation(raw, false).unwrap();
        assert!(root.abs_diff_eq(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2), 1e-6));
        assert!(child.abs_diff_eq(Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2), 1e-6));
        assert!(bone_rotation([0.0; 4], false).is_none());
        assert!(bone_rotation([f32::NAN, 0.0, 0.0, 1.0], true).is_none());
    }

    #[test]
    fn axes_turn_z_up_to_y_up_without_a_mirror() {
        let axes = unreal_axes();
        assert!(!axes.mirrors());
        assert_eq!(axes.to_viewer.transform_point3(Vec3::new(1.0, 2.0, 3.0)), Vec3::new(1.0, 3.0, -2.0));
    }
}
