//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod body;

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// xorshift64*: a fixed-seed generator, so failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Records the largest single allocation and the bytes allocated in all, so a loader trusting a count from the
/// file, or doing work out of proportion to its input, is caught. A test crate installs it with
/// `#[global_allocator] static ALLOCATOR: common::CountingAllocator = common::CountingAllocator;` and measures
/// with [`allocations_of`].
///
/// The counts are process-wide (loaders may use worker threads), so a measurement is only exact while nothing
/// else allocates: every test of such a crate holds [`alone`] for its whole run.
pub struct CountingAllocator;

static LARGEST: AtomicUsize = AtomicUsize::new(0);
static TOTAL: AtomicUsize = AtomicUsize::new(0);

fn record(size: usize) {
    LARGEST.fetch_max(size, Ordering::Relaxed);
    TOTAL.fetch_add(size, Ordering::Relaxed);
}

// SAFETY: forwards to the system allocator unchanged; only records sizes.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// What [`allocations_of`] measured.
#[derive(Clone, Copy, Debug)]
pub struct Allocations {
    /// The largest single allocation or reallocation.
    pub largest: usize,
    /// Bytes allocated in all (reallocations count their new size).
    pub total: usize,
}

/// Runs `f` and measures its allocations (see [`CountingAllocator`]; the caller holds [`alone`]).
pub fn allocations_of<T>(f: impl FnOnce() -> T) -> (T, Allocations) {
    LARGEST.store(0, Ordering::SeqCst);
    TOTAL.store(0, Ordering::SeqCst);
    let value = f();
    let measured = Allocations { largest: LARGEST.load(Ordering::SeqCst), total: TOTAL.load(Ordering::SeqCst) };
    (value, measured)
}

static ALONE: Mutex<()> = Mutex::new(());

/// Held by each test of a crate that measures allocations, so no other test allocates during a measurement.
/// A test that failed (and poisoned the lock) does not stop the others.
pub fn alone() -> MutexGuard<'static, ()> {
    ALONE.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The conformance corpus (`../shared/corpus`), given by `BONESCOPE_CORPUS`. Tests that need it call this and
/// return early when it is `None`; under CI (`CI` set) a missing corpus is a failure, not a skip.
pub fn corpus() -> Option<PathBuf> {
    match std::env::var_os("BONESCOPE_CORPUS") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            assert!(dir.is_dir(), "BONESCOPE_CORPUS={} is not a directory", dir.display());
            Some(dir)
        }
        None => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI is set but BONESCOPE_CORPUS is not: the corpus tests must run in CI"
            );
            eprintln!("skipped: BONESCOPE_CORPUS is not set (point it at ../shared/corpus to run the corpus tests)");
            None
        }
    }
}

/// A corpus file, or `None` (test skipped) when the corpus is not configured.
pub fn corpus_file(relative: &str) -> Option<PathBuf> {
    corpus().map(|dir| dir.join(relative))
}

/// The vertices of every `*MESH_VERTEX_LIST` (one list per frame) and the corners of the first `*MESH_FACE_LIST`,
/// read straight from the text.
pub fn ase_mesh_lists(path: &std::path::Path) -> (Vec<Vec<glam::Vec3>>, Vec<[usize; 3]>) {
    let text = std::fs::read_to_string(path).unwrap();
    let (mut frames, mut faces) = (Vec::new(), Vec::new());
    let mut faces_done = false;
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("*MESH_VERTEX_LIST") => frames.push(Vec::new()),
            Some("*MESH_VERTEX") => {
                let n: Vec<f32> = words[2..5].iter().map(|w| w.parse().unwrap()).collect();
                frames.last_mut().unwrap().push(glam::Vec3::new(n[0], n[1], n[2]));
            }
            Some("*MESH_FACE") if !faces_done => {
                let at = |label: &str| words[words.iter().position(|w| *w == label).unwrap() + 1].parse().unwrap();
                faces.push([at("A:"), at("B:"), at("C:")]);
            }
            Some("*MESH_TVERTLIST") | Some("*MESH_NORMALS") => faces_done = !faces.is_empty(),
            Some("*MESH") if !faces.is_empty() => faces_done = true,
            _ => {}
        }
    }
    (frames, faces)
}

/// The shared headless GPU context of a test binary, or `None` (the test is skipped with a message) when there
/// is no adapter outside CI; under CI a missing adapter fails.
#[cfg(feature = "gui")]
pub fn gpu() -> Option<&'static bonescope::render::GpuContext> {
    use bonescope::render::GpuContext;
    static CTX: std::sync::OnceLock<Result<GpuContext, String>> = std::sync::OnceLock::new();
    match CTX.get_or_init(|| GpuContext::headless().map_err(|e| e.to_string())) {
        Ok(ctx) => Some(ctx),
        Err(e) => {
            assert!(std::env::var_os("CI").is_none(), "CI is set but the GPU tests cannot run: {e}");
            eprintln!("skipped: {e}");
            None
        }
    }
}
