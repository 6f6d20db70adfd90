//! Hostile input: every prefix (or a dense sample of prefixes for larger files) and a few hundred random byte
//! flips of each small corpus file and of files the project writes itself go through format detection and the
//! loaders. Each must return a value or an error: no panic, no single allocation over 256 MiB (or out of
//! proportion to the input), no work out of proportion to the input (measured, deterministically, as the bytes
//! allocated in all rather than as time). Bounded to well under a minute in release or debug builds.

mod common;

use std::path::{Path, PathBuf};

use bonescope::io::{LoadOptions, detect_format, load_format};
use bonescope::scene::Format;
use common::{Rng, allocations_of};

#[global_allocator]
static ALLOCATOR: common::CountingAllocator = common::CountingAllocator;

/// Bytes a load may allocate in all: per input byte, plus a constant for the smallest inputs. Loads of these
/// inputs allocate at most ~42 bytes per input byte (and ~3 KB for a file of a few bytes); an input that makes a
/// reader work quadratically, or re-read and re-build without end, goes far past this.
const WORK_LIMIT_PER_BYTE: usize = 256;
const WORK_LIMIT_BASE: usize = 1 << 20;
const ALLOCATION_LIMIT: usize = 256 << 20;

fn load_any(bytes: &[u8], format: Format) {
    // Both the detected format (what the app does) and the file's real one (what a fuzzer targets).
    let opts = LoadOptions::default();
    if let Some(detected) = detect_format(bytes, None) {
        let _ = load_format(detected, bytes, &opts);
    }
    let _ = load_format(format, bytes, &opts);
}

fn check(label: &str, bytes: &[u8], format: Format) {
    let (result, allocated) = allocations_of(|| std::panic::catch_unwind(|| load_any(bytes, format)));
    assert!(result.is_ok(), "{label}: the loader panicked");
    // Allocations proportional to the input are fine; the limit catches trusting a count from the file.
    let largest = allocated.largest;
    assert!(largest <= ALLOCATION_LIMIT.max(bytes.len() * 64), "{label}: allocated {largest} bytes at once");
    let total = allocated.total;
    assert!(total <= WORK_LIMIT_PER_BYTE * bytes.len() + WORK_LIMIT_BASE, "{label}: allocated {total} bytes in all");
}

fn torture(name: &str, bytes: &[u8], format: Format, seed: u64) {
    // Every prefix of small files; 400 spread-out prefixes of larger ones.
    let step = (bytes.len() / 400).max(1);
    for len in (0..bytes.len()).step_by(step) {
        check(&format!("{name} truncated to {len} bytes"), &bytes[..len], format);
    }
    let mut rng = Rng(seed | 1);
    for round in 0..300 {
        let mut mutated = bytes.to_vec();
        if mutated.is_empty() {
            break;
        }
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(mutated.len());
            mutated[i] = match rng.below(4) {
                0 => mutated[i] ^ (1 << rng.below(8)),
                1 => 0xFF,
                2 => b"0123456789-.e \n{}\"*"[rng.below(19)],
                _ => rng.next() as u8,
            };
        }
        check(&format!("{name} mutation {round} (seed {seed})"), &mutated, format);
    }
}

fn format_of(path: &Path) -> Option<Format> {
    let bytes = std::fs::read(path).ok()?;
    detect_format(&bytes, Some(path))
}

/// Corpus files up to 300 KB (the large ones only add time, not new code paths).
fn small_corpus_files() -> Vec<PathBuf> {
    let Some(dir) = common::corpus() else { return Vec::new() };
    let mut files = Vec::new();
    for sub in ["psk", "psa", "smd", "vta", "ase"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.metadata().map(|m| m.len() <= 300_000).unwrap_or(false) && format_of(&path).is_some() {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn corpus_files_survive_truncation_and_byte_flips() {
    let _alone = common::alone();
    for (i, path) in small_corpus_files().iter().enumerate() {
        let bytes = std::fs::read(path).unwrap();
        let format = format_of(path).unwrap();
        torture(&path.display().to_string(), &bytes, format, 0x5eed + i as u64);
    }
}

#[test]
fn project_written_files_survive_truncation_and_byte_flips() {
    let _alone = common::alone();
    let (glb, _) = bonescope::io::gltf::export_glb(&bonescope::scene::samples::demo::demo_asset()).unwrap();
    // Not a format bonescope reads: detection must refuse it, and every loader must reject it cleanly.
    assert_eq!(detect_format(&glb, None), None);
    for format in [Format::Psk, Format::Psa, Format::Smd, Format::Vta, Format::Ase, Format::Mrtk] {
        check(&format!("glb as {format:?}"), &glb, format);
    }
}
