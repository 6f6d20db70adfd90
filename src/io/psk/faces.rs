//! The faces of a PSK: wedge indices checked, degenerate and duplicate faces found, and the index buffer grouped
//! by material — read straight from the face chunk's bytes ([`FaceRecords`]), so no face array is built unless
//! normals have to be computed.
//!
//! A face is degenerate when two of its corners use the same point, and a duplicate of an earlier face when it
//! uses the same three points with the same winding (reversed winding is a different face: the back of a
//! two-sided sheet). The check for duplicates chains the faces by their smallest point and compares a
//! fingerprint of the other two points along each chain; real meshes have none, and only when two fingerprints
//! match are the faces sorted to name the duplicates exactly.

use super::{FaceRecord, FaceRecords};
use crate::io::LoadError;
use crate::io::actorx::{Chunk, Records};
use crate::scene::{Mesh, Subset, Warning};

/// Chains longer than this are sorted instead of compared pair by pair (fans around one point on crafted files).
const PAIRWISE_CHAIN: usize = 8;

/// What [`clean`] found: which faces are left out and how the rest spread over the materials.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct CleanFaces {
    /// File indices of the faces left out (degenerate or duplicate), ascending.
    pub dropped: Vec<u32>,
    /// Kept faces per material index.
    pub material_counts: [u32; 256],
    /// The kept faces' materials never decrease in file order: the index buffer is the faces in order.
    pub ordered: bool,
    pub kept: usize,
    /// The index buffer, when the pass could write it (faces in material order, no duplicates).
    indices: Option<Vec<u32>>,
}

impl CleanFaces {
    /// The highest material index a kept face uses.
    pub fn highest_material(&self) -> Option<usize> {
        self.material_counts.iter().rposition(|&n| n > 0)
    }
}

/// The face's points, rotated so the smallest comes first (winding kept); `None` for a degenerate face.
#[inline]
fn canonical(points: [u32; 3]) -> Option<[u32; 3]> {
    let [a, b, c] = points;
    if a == b || b == c || a == c {
        return None;
    }
    Some(if a < b && a < c {
        [a, b, c]
    } else if b < c {
        [b, c, a]
    } else {
        [c, a, b]
    })
}

/// A 32-bit fingerprint of a face's other two points (Fibonacci hashing of both): equal faces have equal
/// fingerprints, and different ones almost never do (a collision only costs the exact check).
#[inline]
fn fingerprint(b: u32, c: u32) -> u32 {
    ((u64::from(b) << 32 | u64::from(c)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as u32
}

/// Checks every face's wedges (out of range is an error naming the face), finds the degenerate and duplicate
/// faces (reported as warnings) and counts the kept faces per material. While the faces come in material order,
/// their wedges are written to the index buffer in the same pass.
pub(super) fn clean(
    faces: FaceRecords,
    wedge_points: &[u32],
    point_count: usize,
    chunk: &Chunk,
    warnings: &mut Vec<Warning>,
) -> Result<CleanFaces, LoadError> {
    match faces {
        FaceRecords::Short(records) => clean_records(records, wedge_points, point_count, chunk, warnings),
        FaceRecords::Long(records) => clean_records(records, wedge_points, point_count, chunk, warnings),
    }
}

fn clean_records<R: FaceRecord>(
    faces: Records<R>,
    wedge_points: &[u32],
    point_count: usize,
    chunk: &Chunk,
    warnings: &mut Vec<Warning>,
) -> Result<CleanFaces, LoadError> {
    let wedge_count = wedge_points.len();
    let mut degenerate: Vec<u32> = Vec::new();
    // Kept faces chained by their smallest point: `head[p]` is the last kept face (numbered among kept faces)
    // whose smallest point is p; `links[k]` holds the face before k in its chain and the fingerprint of k's other
    // two points.
    let mut head = vec![u32::MAX; point_count];
    let mut links: Vec<[u32; 2]> = Vec::with_capacity(faces.len());
    let mut material_counts = [0u32; 256];
    let (mut ordered, mut last_material) = (true, 0u8);
    let mut indices: Vec<u32> = Vec::with_capacity(faces.len() * 3);
    for (i, record) in faces.iter().enumerate() {
        let face = record.face();
        let mut points = [0u32; 3];
        for (corner, &w) in face.wedges.iter().enumerate() {
            match wedge_points.get(w as usize) {
                Some(&p) => points[corner] = p,
                None => {
                    return Err(chunk.record_error(
                        i,
                        format_args!("face {i} refers to wedge {w}, but the file has {wedge_count} wedges"),
                    ));
                }
            }
        }
        let Some([a, b, c]) = canonical(points) else {
            degenerate.push(i as u32);
            continue;
        };
        if let Some(first) = head.get_mut(a as usize) {
            links.push([*first, fingerprint(b, c)]);
            *first = (links.len() - 1) as u32;
        }
        material_counts[usize::from(face.material)] += 1;
        ordered &= face.material >= last_material;
        last_material = face.material;
        if ordered {
            indices.extend_from_slice(&face.wedges);
        }
    }
    if let Some(first) = degenerate.first() {
        warnings.push(chunk.warning(format_args!(
            "{} degenerate face(s) (a point used twice) dropped (first: face {first})",
            degenerate.len()
        )));
    }
    let mut kept = faces.len() - degenerate.len();
    let mut dropped = degenerate;
    let mut indices = ordered.then_some(indices);
    if chains_repeat(&head, &links) {
        let duplicates = duplicate_faces(faces, wedge_points, point_count);
        if let Some(first) = duplicates.first() {
            warnings.push(chunk.warning(format_args!(
                "{} duplicate face(s) (same points, same winding as an earlier face) dropped (first: face {first})",
                duplicates.len()
            )));
            // The buffer written above holds them: it is written again without.
            indices = None;
        }
        for &f in &duplicates {
            if let Some(face) = faces.get(f as usize) {
                material_counts[usize::from(face.face().material)] -= 1;
            }
        }
        kept -= duplicates.len();
        dropped.extend(duplicates);
        dropped.sort_unstable();
    }
    Ok(CleanFaces { dropped, material_counts, ordered, kept, indices })
}

/// Whether any chain holds two faces with the same fingerprint (a duplicate, or rarely a collision).
fn chains_repeat(head: &[u32], links: &[[u32; 2]]) -> bool {
    let mut long: Vec<u32> = Vec::new();
    for &first in head {
        if first == u32::MAX {
            continue;
        }
        let mut chain = [0u32; PAIRWISE_CHAIN];
        let mut len = 0usize;
        let mut face = first;
        long.clear();
        while let Some(&[before, key]) = links.get(face as usize) {
            if len < PAIRWISE_CHAIN {
                if chain[..len].contains(&key) {
                    return true;
                }
                chain[len] = key;
            } else {
                if len == PAIRWISE_CHAIN {
                    long.extend_from_slice(&chain);
                }
                long.push(key);
            }
            len += 1;
            face = before;
        }
        if !long.is_empty() {
            long.sort_unstable();
            if long.windows(2).any(|pair| pair[0] == pair[1]) {
                return true;
            }
        }
    }
    false
}

/// File indices of the duplicate faces (ascending): each face with the points and winding of an earlier kept
/// face. Only called once [`chains_repeat`] found one.
fn duplicate_faces<R: FaceRecord>(faces: Records<R>, wedge_points: &[u32], point_count: usize) -> Vec<u32> {
    let mut keys: Vec<[u32; 3]> = Vec::with_capacity(faces.len());
    let mut file_index: Vec<u32> = Vec::with_capacity(faces.len());
    for (i, record) in faces.iter().enumerate() {
        let face = record.face();
        let points = face.wedges.map(|w| wedge_points.get(w as usize).copied().unwrap_or(u32::MAX));
        if let Some(key) = canonical(points) {
            keys.push(key);
            file_index.push(i as u32);
        }
    }
    let flags = duplicate_flags(&keys, point_count);
    flags.iter().zip(&file_index).filter(|(d, _)| **d).map(|(_, &i)| i).collect()
}

/// Marks every face whose canonical key repeats an earlier face's. Buckets faces by their smallest point
/// (counting sort, linear), then sorts each small bucket, so adversarial fans stay `n log n`.
pub(super) fn duplicate_flags(keys: &[[u32; 3]], point_count: usize) -> Vec<bool> {
    let mut flags = vec![false; keys.len()];
    if keys.len() < 2 {
        return flags;
    }
    let mut starts = vec![0u32; point_count + 1];
    for k in keys {
        if let Some(s) = starts.get_mut(k[0] as usize + 1) {
            *s += 1;
        }
    }
    for i in 0..point_count {
        starts[i + 1] += starts[i];
    }
    let mut cursor = starts.clone();
    let mut order = vec![(0u32, 0u32, 0u32); keys.len()];
    for (face, k) in keys.iter().enumerate() {
        if let Some(slot) = cursor.get_mut(k[0] as usize) {
            if let Some(entry) = order.get_mut(*slot as usize) {
                *entry = (k[1], k[2], face as u32);
            }
            *slot += 1;
        }
    }
    for p in 0..point_count {
        let bucket = &mut order[starts[p] as usize..starts[p + 1] as usize];
        if bucket.len() < 2 {
            continue;
        }
        bucket.sort_unstable();
        for pair in bucket.windows(2) {
            if pair[0].0 == pair[1].0 && pair[0].1 == pair[1].1 {
                flags[pair[1].2 as usize] = true;
            }
        }
    }
    flags
}

/// Index buffer grouped by material, face order kept within each material, and one subset per material used.
pub(super) fn fill_indices(faces: FaceRecords, clean: &mut CleanFaces, mesh: &mut Mesh) {
    mesh.indices = match (clean.indices.take(), faces) {
        (Some(written), _) => written,
        (None, FaceRecords::Short(records)) => indices(records, clean),
        (None, FaceRecords::Long(records)) => indices(records, clean),
    };
    let mut first = 0u32;
    mesh.subsets = Vec::new();
    for (material, &count) in clean.material_counts.iter().enumerate() {
        if count > 0 {
            mesh.subsets.push(Subset { material, first_index: first * 3, index_count: count * 3 });
        }
        first += count;
    }
}

fn indices<R: FaceRecord>(faces: Records<R>, clean: &CleanFaces) -> Vec<u32> {
    let total = clean.kept * 3;
    if clean.ordered {
        // Already grouped: the kept faces' wedges in file order, written once.
        let mut indices = Vec::with_capacity(total);
        if clean.dropped.is_empty() {
            for record in faces.iter() {
                indices.extend_from_slice(&record.face().wedges);
            }
        } else {
            let mut dropped = clean.dropped.iter().copied().peekable();
            for (i, record) in faces.iter().enumerate() {
                if dropped.next_if_eq(&(i as u32)).is_none() {
                    indices.extend_from_slice(&record.face().wedges);
                }
            }
        }
        return indices;
    }
    // Counting sort on the 8-bit material index.
    let mut cursor = [0u32; 256];
    let mut at = 0u32;
    for (slot, &count) in cursor.iter_mut().zip(&clean.material_counts) {
        *slot = at;
        at += count;
    }
    let mut indices = vec![0u32; total];
    let mut dropped = clean.dropped.iter().copied().peekable();
    for (i, record) in faces.iter().enumerate() {
        if dropped.next_if_eq(&(i as u32)).is_some() {
            continue;
        }
        let face = record.face();
        let slot = &mut cursor[usize::from(face.material)];
        let at = *slot as usize * 3;
        if let Some(dst) = indices.get_mut(at..at + 3) {
            dst.copy_from_slice(&face.wedges);
        }
        *slot += 1;
    }
    indices
}

/// The kept faces' wedges and smoothing groups, in file order (for computing normals): two arrays rather than
/// a copy of the faces, whose material bytes the normals do not need.
pub(super) fn kept_wedges_and_groups(faces: FaceRecords, dropped: &[u32]) -> (Vec<[u32; 3]>, Vec<u32>) {
    fn kept<R: FaceRecord>(faces: Records<R>, dropped: &[u32]) -> (Vec<[u32; 3]>, Vec<u32>) {
        let mut dropped = dropped.iter().copied().peekable();
        let mut wedges = Vec::with_capacity(faces.len());
        let mut groups = Vec::with_capacity(faces.len());
        for (i, record) in faces.iter().enumerate() {
            if dropped.next_if_eq(&(i as u32)).is_none() {
                let face = record.face();
                wedges.push(face.wedges);
                groups.push(face.smoothing_groups);
            }
        }
        (wedges, groups)
    }
    match faces {
        FaceRecords::Short(records) => kept(records, dropped),
        FaceRecords::Long(records) => kept(records, dropped),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{VTriangle16, VTriangle32};
    use super::*;

    fn short(wedges: [u16; 3], material: u8) -> VTriangle16 {
        VTriangle16 { wedge_index: wedges, material_index: material, ..VTriangle16::default() }
    }

    fn header() -> Chunk<'static> {
        Chunk {
            id: "FACE0000".to_owned(),
            offset: 100,
            type_flag: 0,
            record_size: 12,
            count: 0,
            data: &[],
            kind: "PSK",
        }
    }

    #[test]
    fn duplicate_detection_keeps_first_and_ignores_reversed_winding() {
        let keys = [[0, 1, 2], [0, 2, 1], [0, 1, 2], [1, 2, 3], [0, 1, 2]];
        assert_eq!(duplicate_flags(&keys, 4), vec![false, false, true, false, true]);
    }

    #[test]
    fn indices_group_by_material_in_face_order() {
        let faces = [short([0, 1, 2], 1), short([3, 4, 5], 0), short([6, 7, 8], 1)];
        let wedge_points: Vec<u32> = (0..9).collect();
        let records = FaceRecords::Short(Records::from_slice(&faces));
        let mut clean = clean(records, &wedge_points, 9, &header(), &mut Vec::new()).unwrap();
        assert!(!clean.ordered);
        let mut mesh = Mesh::default();
        fill_indices(records, &mut clean, &mut mesh);
        assert_eq!(mesh.indices, vec![3, 4, 5, 0, 1, 2, 6, 7, 8]);
        assert_eq!(
            mesh.subsets,
            vec![
                Subset { material: 0, first_index: 0, index_count: 3 },
                Subset { material: 1, first_index: 3, index_count: 6 }
            ]
        );
    }

    /// The chained check and the sorted one agree: every duplicate (same points, same winding, whichever corner
    /// comes first) is dropped, the first copy kept, degenerate faces dropped, and both index paths (faces in
    /// material order or not) give the counting sort's buffer.
    #[test]
    fn degenerate_and_duplicate_faces_are_dropped_from_the_index_buffer() {
        // Wedges 0..8 use points 0..4 (wedges 5..8 repeat points 0..3), so faces on different wedges can repeat.
        let wedge_points = [0, 1, 2, 3, 4, 0, 1, 2, 3];
        let faces = [
            [0, 1, 2], // kept
            [6, 7, 5], // points 1 2 0: the same face rotated, a duplicate
            [0, 2, 1], // reversed winding: kept
            [3, 3, 4], // degenerate
            [5, 8, 4], // points 0 3 4: kept
            [1, 2, 0], // duplicate of face 0 again
        ];
        // One material (faces in order), then face 0 alone on material 1 (the counting sort moves it last).
        for material_of in [|_: usize| 0u8, |i: usize| u8::from(i == 0)] {
            let records: Vec<VTriangle32> = faces
                .iter()
                .enumerate()
                .map(|(i, w)| VTriangle32 { wedge_index: *w, material_index: material_of(i), ..VTriangle32::default() })
                .collect();
            let records = FaceRecords::Long(Records::from_slice(&records));
            let mut warnings = Vec::new();
            let mut clean = clean(records, &wedge_points, 5, &header(), &mut warnings).unwrap();
            assert_eq!(clean.dropped, vec![1, 3, 5]);
            assert_eq!(clean.kept, 3);
            let messages: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
            assert_eq!(
                messages,
                [
                    "PSK chunk FACE0000: 1 degenerate face(s) (a point used twice) dropped (first: face 3)",
                    "PSK chunk FACE0000: 2 duplicate face(s) (same points, same winding as an earlier face) dropped \
                     (first: face 1)"
                ]
            );
            let mut mesh = Mesh::default();
            fill_indices(records, &mut clean, &mut mesh);
            if material_of(0) == 0 {
                assert!(clean.ordered);
                assert_eq!(mesh.indices, vec![0, 1, 2, 0, 2, 1, 5, 8, 4]);
            } else {
                assert!(!clean.ordered);
                assert_eq!(mesh.indices, vec![0, 2, 1, 5, 8, 4, 0, 1, 2]);
            }
        }
    }

    #[test]
    fn long_chains_are_checked_by_sorting() {
        // A fan of 20 faces around point 0 (the smallest of each), the last repeating the third.
        let mut faces: Vec<[u32; 3]> = (1..=20).map(|i| [0, i, i + 1]).collect();
        faces.push([0, 3, 4]);
        let wedge_points: Vec<u32> = (0..22).collect();
        let records: Vec<VTriangle32> =
            faces.iter().map(|w| VTriangle32 { wedge_index: *w, ..VTriangle32::default() }).collect();
        let clean =
            clean(FaceRecords::Long(Records::from_slice(&records)), &wedge_points, 22, &header(), &mut Vec::new())
                .unwrap();
        assert_eq!(clean.dropped, vec![20]);
        let without: Vec<VTriangle32> = records[..20].to_vec();
        let clean =
            clean_records(Records::from_slice(&without), &wedge_points, 22, &header(), &mut Vec::new()).unwrap();
        assert!(clean.dropped.is_empty());
    }

    #[test]
    fn a_face_naming_a_missing_wedge_is_an_error_at_its_record() {
        let faces = [short([0, 1, 2], 0), short([0, 1, 9], 0)];
        let err = clean(FaceRecords::Short(Records::from_slice(&faces)), &[0, 1, 2], 3, &header(), &mut Vec::new())
            .unwrap_err();
        assert_eq!(err.message, "PSK chunk FACE0000 at byte 100: face 1 refers to wedge 9, but the file has 3 wedges");
    }
}
