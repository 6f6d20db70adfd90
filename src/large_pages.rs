//! The program's allocator: the system's (glibc's malloc on Linux), with transparent huge pages asked for on
//! large blocks.
//!
//! Why: a loader's output arrays are large and fresh, so on a 20 MB file a good part of the load is the kernel
//! faulting them in 4 KiB at a time and zeroing each page (about 16,000 page faults for a 17.5 MB PSK with plain
//! malloc). Memory advised `MADV_HUGEPAGE` is faulted in 2 MiB at a time. mimalloc did that for every allocation
//! (under 1,000 faults), but its start-up (reserving its arena, zeroing a 2 MiB page for the first small
//! allocation) cost more than half a millisecond per process, a third of what `bonescope info` on a typical
//! 100 kB file costs in all. Here small blocks cost what they cost with malloc, and blocks of [`ADVISE_FROM`] or
//! more are aligned to 2 MiB and advised before first touch (about 5,600 faults for that PSK: arrays below 2 MiB
//! still fault in 4 KiB pages). The advice never changes contents; with transparent huge pages off it does
//! nothing.

use std::alloc::{GlobalAlloc, Layout, System};

/// The allocator (set in `main.rs`).
pub struct LargePages;

/// Blocks from this size are aligned to 2 MiB and advised to use huge pages (smaller ones gain little: the
/// page faults that matter are those of the large output arrays).
const ADVISE_FROM: usize = 2 << 20;

/// A transparent huge page on x86-64 and most 64-bit ARM kernels.
const HUGE_PAGE: usize = 2 << 20;

fn is_large(size: usize) -> bool {
    size >= ADVISE_FROM
}

/// The layout a block is really allocated with: large blocks start on a huge-page boundary, so that all of their
/// full 2 MiB spans can be huge pages (the unused start of the reservation is never touched, so it costs address
/// space only).
fn real_layout(layout: Layout) -> Layout {
    if is_large(layout.size()) {
        Layout::from_size_align(layout.size(), layout.align().max(HUGE_PAGE)).unwrap_or(layout)
    } else {
        layout
    }
}

#[cfg(target_os = "linux")]
fn advise(ptr: *mut u8, size: usize) {
    const MADV_HUGEPAGE: std::ffi::c_int = 14;
    #[allow(unsafe_code)]
    // SAFETY: the declaration matches the C library's `int madvise(void *addr, size_t len, int advice)`.
    unsafe extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: std::ffi::c_int) -> std::ffi::c_int;
    }
    let start = (ptr as usize).next_multiple_of(HUGE_PAGE);
    let end = (ptr as usize).saturating_add(size) & !(HUGE_PAGE - 1);
    if end > start {
        #[allow(unsafe_code)]
        // SAFETY: [start, end) lies inside the block just allocated, which this program owns; MADV_HUGEPAGE is
        // advice about how to back the range and never changes or discards its contents. A failure (e.g. a kernel
        // without huge pages) leaves the block as it is, so the result is not needed.
        unsafe {
            madvise(start as *mut std::ffi::c_void, end - start, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_ptr: *mut u8, _size: usize) {}

#[allow(unsafe_code)]
// SAFETY: every block is allocated and freed by `System` with the same `real_layout` of the caller's layout (a
// stricter alignment for large blocks, which satisfies the caller's), so `System`'s contract carries over; the
// advice only touches blocks `System` returned (non-null) at their own size; `realloc` of a large block copies
// into a new block of the requested layout and frees the old one with its own.
unsafe impl GlobalAlloc for LargePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: `layout` has a non-zero size (the caller's contract), and so has `real_layout` of it.
        let ptr = unsafe { System.alloc(real_layout(layout)) };
        if !ptr.is_null() && is_large(layout.size()) {
            advise(ptr, layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !is_large(layout.size()) {
            // SAFETY: as in `alloc`.
            return unsafe { System.alloc_zeroed(layout) };
        }
        // Advised before it is zeroed, so that the zeroing faults it in as huge pages (a realigned block cannot
        // come from `calloc`, which would have skipped zeroing fresh pages).
        // SAFETY: as in `alloc`.
        let ptr = unsafe { self.alloc(layout) };
        if !ptr.is_null() {
            // SAFETY: `ptr` is a live block of `layout.size()` bytes.
            unsafe { std::ptr::write_bytes(ptr, 0, layout.size()) };
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc`/`alloc_zeroed`/`realloc` above with `real_layout(layout)`.
        unsafe { System.dealloc(ptr, real_layout(layout)) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !is_large(layout.size()) && !is_large(new_size) {
            // SAFETY: both layouts are the caller's own (small blocks are not realigned).
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        let Ok(new_layout) = Layout::from_size_align(new_size, layout.align()) else { return std::ptr::null_mut() };
        // SAFETY: `new_layout` has a non-zero size (the caller's contract for `realloc`).
        let new = unsafe { self.alloc(new_layout) };
        if !new.is_null() {
            // SAFETY: both blocks are live, distinct, and at least `min(old, new)` bytes long; the old one is
            // freed with the layout it was allocated with.
            unsafe {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
        }
        new
    }
}
