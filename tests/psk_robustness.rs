//! Truncated and corrupted PSK/PSA files: every prefix of the small corpus files and of files the test writer
//! makes, thousands of random byte flips (fixed-seed xorshift) and inflated chunk counts. Each must give a value
//! or an error — never a panic, never an allocation out of proportion to the input. A prefix may only load when
//! it ends exactly at a chunk boundary (the file is then shorter but well-formed).

mod common;
mod psk_writer;

use bonescope::io::{LoadErrorKind, LoadOptions, Position, psa, psk};
use bonescope::scene::Asset;
use glam::{Quat, Vec3};
use psk_writer::{Bone, Psa, Sequence, XorShift, chunk_boundaries, tube};

#[global_allocator]
static ALLOCATOR: common::CountingAllocator = common::CountingAllocator;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Psk,
    Psa,
}

fn load(kind: Kind, bytes: &[u8]) -> Result<Asset, bonescope::io::LoadError> {
    match kind {
        Kind::Psk => psk::load(bytes, &LoadOptions::default()),
        Kind::Psa => psa::load(bytes, &LoadOptions::default()),
    }
}

/// Loads and checks the allocation bound: output is a few times the input at most (a vertex is 76 bytes built
/// from a 16-byte wedge, a key ~40 bytes from 32), so 64× the input plus 1 MiB is generous yet catches any
/// allocation sized by an unchecked count (those are gigabytes).
fn guarded(label: &str, kind: Kind, bytes: &[u8]) -> Result<Asset, bonescope::io::LoadError> {
    let (result, allocated) = common::allocations_of(|| load(kind, bytes));
    let largest = allocated.largest;
    assert!(largest <= bytes.len() * 64 + (1 << 20), "{label}: one allocation of {largest} bytes");
    result
}

fn subjects() -> Vec<(String, Kind, Vec<u8>)> {
    let mut out = Vec::new();
    if let Some(dir) = common::corpus() {
        for (rel, kind) in
            [("psk/examplemesh.psk", Kind::Psk), ("psk/Suzanne.psk", Kind::Psk), ("psa/pendulum.psa", Kind::Psa)]
        {
            out.push((rel.to_owned(), kind, std::fs::read(dir.join(rel)).unwrap()));
        }
    }
    let mut file = tube(3, 4, 3, 10.0);
    file.face32 = true;
    file.normals = file.points.iter().map(|p| p.normalize_or_zero()).collect();
    file.colors = vec![[1, 2, 3, 4]; file.wedges.len()];
    file.extra_uvs = vec![vec![[0.5, 0.5]; file.wedges.len()]];
    file.morphs = vec![("M".into(), vec![(Vec3::X, Vec3::Y, 1), (Vec3::Z, Vec3::Y, 2)])];
    out.push(("written tube.pskx".into(), Kind::Psk, file.to_bytes()));
    let bones =
        vec![Bone::new("a", 0, Quat::IDENTITY, Vec3::ZERO), Bone::new("b", 0, Quat::from_rotation_x(1.0), Vec3::X)];
    let sequences = (0..3)
        .map(|s| Sequence { name: format!("s{s}"), rate: 30.0, first_frame: s * 2, frames: 2, total_bones: 2 })
        .collect();
    let keys = (0..12).map(|i| (Vec3::splat(i as f32), Quat::from_rotation_z(i as f32 * 0.1))).collect();
    let scale_keys = vec![Vec3::ONE; 12];
    out.push((
        "written anim.psa".into(),
        Kind::Psa,
        Psa { bones, sequences, keys, scale_keys, ..Psa::default() }.to_bytes(),
    ));
    out
}

#[test]
fn every_prefix_is_an_error_unless_it_ends_at_a_chunk_boundary() {
    let _alone = common::alone();
    for (name, kind, bytes) in subjects() {
        let whole = load(kind, &bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        drop(whole);
        let boundaries = chunk_boundaries(&bytes);
        let mut loaded = 0;
        for len in 0..bytes.len() {
            match guarded(&format!("{name} cut to {len} bytes"), kind, &bytes[..len]) {
                Ok(_) => {
                    loaded += 1;
                    assert!(boundaries.contains(&len), "{name} cut to {len} bytes loaded, but that is inside a chunk");
                }
                Err(e) => assert!(!e.message.is_empty()),
            }
        }
        println!("{name}: {} prefixes, {loaded} loaded (chunk boundaries)", bytes.len());
    }
}

#[test]
fn random_byte_flips_never_panic() {
    let _alone = common::alone();
    for (i, (name, kind, bytes)) in subjects().into_iter().enumerate() {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15 ^ i as u64);
        let (mut ok, mut err) = (0, 0);
        for round in 0..2000 {
            let mut mutated = bytes.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(mutated.len());
                mutated[at] = match rng.below(3) {
                    0 => mutated[at] ^ (1 << rng.below(8)),
                    1 => 0xFF,
                    _ => rng.next_u64() as u8,
                };
            }
            match guarded(&format!("{name} flip round {round}"), kind, &mutated) {
                Ok(asset) => {
                    ok += 1;
                    for mesh in &asset.meshes {
                        mesh.validate(asset.skeleton.len()).unwrap_or_else(|e| panic!("{name} round {round}: {e}"));
                    }
                    asset.skeleton.validate().unwrap();
                }
                Err(_) => err += 1,
            }
        }
        println!("{name}: 2000 mutations, {ok} loaded, {err} refused");
    }
}

#[test]
fn inflated_counts_are_refused_before_allocating() {
    let _alone = common::alone();
    for (name, kind, bytes) in subjects() {
        let boundaries = chunk_boundaries(&bytes);
        for &at in &boundaries[..boundaries.len() - 1] {
            let size = i32::from_le_bytes(bytes[at + 24..at + 28].try_into().unwrap());
            let count = i32::from_le_bytes(bytes[at + 28..at + 32].try_into().unwrap());
            let raw_id = &bytes[at..at + 20];
            let id = String::from_utf8_lossy(&raw_id[..raw_id.iter().position(|b| *b == 0).unwrap_or(20)]).to_string();
            let remaining = (bytes.len() - at - 32) as i64;
            let over = if size > 0 { (remaining / size as i64 + 1).min(i32::MAX as i64) as i32 } else { i32::MAX };
            for (field, value) in [(28, i32::MAX), (28, over), (28, -1), (24, i32::MAX), (24, -120)] {
                if (field == 28 && size == 0 && value >= 0) || (field == 24 && count == 0 && value >= 0) {
                    continue; // zero-length either way: legitimately fine
                }
                let mut mutated = bytes.clone();
                mutated[at + field..at + field + 4].copy_from_slice(&value.to_le_bytes());
                let label = format!("{name}: {id} at {at} with field {field} = {value}");
                let err = guarded(&label, kind, &mutated).map(|_| ()).expect_err(&label);
                let expected = if value < 0 { LoadErrorKind::Malformed } else { LoadErrorKind::Truncated };
                assert_eq!((err.kind, err.position), (expected, Position::Byte(at as u64)), "{label}: {err}");
                assert!(err.message.contains(&format!("chunk {id} at byte {at}")), "{label}: {}", err.message);
            }
        }
    }
}

/// Record sizes smaller than the layout are refused; the message says what was expected.
#[test]
fn short_record_sizes_are_refused() {
    let _alone = common::alone();
    for (name, kind, bytes) in subjects() {
        let boundaries = chunk_boundaries(&bytes);
        for &at in &boundaries[..boundaries.len() - 1] {
            let size = i32::from_le_bytes(bytes[at + 24..at + 28].try_into().unwrap());
            let count = i32::from_le_bytes(bytes[at + 28..at + 32].try_into().unwrap());
            if size < 8 || count == 0 {
                continue;
            }
            // Same total length, fewer bytes per record: a reader trusting its own layout would misalign.
            let mut mutated = bytes.clone();
            mutated[at + 24..at + 28].copy_from_slice(&(size / 2).to_le_bytes());
            mutated[at + 28..at + 32].copy_from_slice(&(count * 2).to_le_bytes());
            match guarded(&format!("{name} at {at}"), kind, &mutated) {
                Ok(_) => panic!("{name}: chunk at {at} with {}-byte records accepted", size / 2),
                Err(e) => {
                    assert_eq!((e.kind, e.position), (LoadErrorKind::Malformed, Position::Byte(at as u64)), "{e}");
                    assert!(e.message.contains(&format!("-byte records expected, found {}", size / 2)), "{}", e.message)
                }
            }
        }
    }
}
