//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// Records the largest single allocation, so a loader trusting a count from the file is caught. A test crate
/// installs it with `#[global_allocator] static ALLOCATOR: common::LargestAllocation = common::LargestAllocation;`
/// and reads [`LARGEST`].
pub struct LargestAllocation;

/// The largest allocation (or reallocation) seen since it was last reset.
pub static LARGEST: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only records sizes.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for LargestAllocation {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
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
