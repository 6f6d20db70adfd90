//! The program's allocator: the system's (glibc's malloc on Linux), with transparent huge pages asked for on
//! large blocks.
//!
//! Why: a loader's output arrays are large and fresh, so on a 20 MB file a good part of the load is the kernel
//! faulting them in 4 KiB at a time and zeroing each page (about 16,000 page faults for a 17.5 MB PSK with plain
//! malloc). Memory advised `MADV_HUGEPAGE` is faulted in 2 MiB at a time. mimalloc did that for every allocation
//! (under 1,000 faults), but its start-up (reserving its arena, zeroing a 2 MiB page for the first small
//! allocation) cost more than half a millisecond per process, a third of what `bonescope info` on a typical
//! 100 kB file costs in all. Here small blocks cost what they cost with malloc, and blocks of [`ADVISE_FROM`] or
//! more are aligned to 2 MiB and advised before first touch (about 5,600 faults for that PSK when this was
//! written, with arrays below 2 MiB still faulting in 4 KiB pages; see below for those). The advice never
//! changes contents; with transparent huge pages off it does nothing.
//!
//! Small blocks add up too: a 12.8 MB PSA becomes ~100,000 curve arrays of a few hundred bytes, 14 MB of malloc's
//! heap faulted in 4 KiB at a time (6,100 faults, half the load's CPU time). So malloc is asked to grow its heap
//! [`HEAP_STEP`] at a time (`M_TOP_PAD`) and the part of the heap beyond its first [`HEAP_ADVISE_FROM`] is
//! advised as it appears, before malloc hands it out; the heap of a small file's run never gets there, so a
//! short run does not pay for zeroing a 2 MiB page it barely uses. (glibc's own `glibc.malloc.hugetlb=1` tunable
//! does the same for the whole heap, but only when set in the environment before the program starts.)

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

/// How much malloc's heap grows at a time (its `M_TOP_PAD`; glibc's default is 128 KiB): room enough that most
/// of each step is advised before any of it is handed out.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const HEAP_STEP: std::ffi::c_int = 16 << 20;

/// The first this many bytes of the heap stay in 4 KiB pages (what a run on a small file uses).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const HEAP_ADVISE_FROM: usize = 2 << 20;

#[cfg(target_os = "linux")]
mod sys {
    pub const MADV_HUGEPAGE: std::ffi::c_int = 14;
    pub const M_TOP_PAD: std::ffi::c_int = -2;
    pub const M_MMAP_THRESHOLD: std::ffi::c_int = -3;

    #[allow(unsafe_code)]
    // SAFETY: the declarations match the C library's `int madvise(void *addr, size_t len, int advice)`,
    // `void *sbrk(intptr_t increment)` and `int mallopt(int param, int value)`.
    unsafe extern "C" {
        pub fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: std::ffi::c_int) -> std::ffi::c_int;
        pub fn sbrk(increment: isize) -> *mut std::ffi::c_void;
        pub fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
    }
}

#[cfg(target_os = "linux")]
fn advise(ptr: *mut u8, size: usize) {
    let start = (ptr as usize).next_multiple_of(HUGE_PAGE);
    let end = (ptr as usize).saturating_add(size) & !(HUGE_PAGE - 1);
    if end > start {
        #[allow(unsafe_code)]
        // SAFETY: [start, end) lies inside the block just allocated, which this program owns; MADV_HUGEPAGE is
        // advice about how to back the range and never changes or discards its contents. A failure (e.g. a kernel
        // without huge pages) leaves the block as it is, so the result is not needed.
        unsafe {
            sys::madvise(start as *mut std::ffi::c_void, end - start, sys::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_ptr: *mut u8, _size: usize) {}

/// The program break (the heap's end) as last seen; blocks below it need no look at the heap.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
static BREAK_SEEN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Where the heap's next unadvised 2 MiB span begins (0 before the first allocation).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
static HEAP_ADVISED_TO: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// After a small block was allocated: when it lies at or past the break last seen, the heap may have grown, and
/// its new whole 2 MiB spans past [`HEAP_ADVISE_FROM`] are advised. (Blocks of thread arenas and malloc's own
/// mappings also lie past the break; for them this is one look at the break.)
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[inline]
fn heap_grown(ptr: *mut u8) {
    use std::sync::atomic::Ordering::Relaxed;
    if (ptr as usize) < BREAK_SEEN.load(Relaxed) {
        return;
    }
    #[allow(unsafe_code)]
    // SAFETY: `sbrk(0)` only reads the current break.
    let brk = unsafe { sys::sbrk(0) } as usize;
    BREAK_SEEN.fetch_max(brk, Relaxed);
    let from = HEAP_ADVISED_TO.load(Relaxed);
    if from == 0 {
        // The first allocation: the heap starts about here. From now on malloc grows it in large steps.
        let start = (brk + HEAP_ADVISE_FROM).next_multiple_of(HUGE_PAGE);
        if HEAP_ADVISED_TO.compare_exchange(0, start, Relaxed, Relaxed).is_ok() {
            #[allow(unsafe_code)]
            // SAFETY: M_TOP_PAD only changes how much extra memory malloc asks for when its heap grows, and
            // M_MMAP_THRESHOLD which blocks malloc maps on their own instead of carving them from the heap.
            unsafe {
                sys::mallopt(sys::M_TOP_PAD, HEAP_STEP);
                sys::mallopt(sys::M_MMAP_THRESHOLD, ADVISE_FROM as std::ffi::c_int);
            }
        }
        return;
    }
    let end = brk & !(HUGE_PAGE - 1);
    if end > from && HEAP_ADVISED_TO.compare_exchange(from, end, Relaxed, Relaxed).is_ok() {
        #[allow(unsafe_code)]
        // SAFETY: [from, end) lies below the break, inside malloc's heap, which is this program's memory;
        // MADV_HUGEPAGE never changes or discards contents (parts of the range already in use keep theirs).
        unsafe {
            sys::madvise(from as *mut std::ffi::c_void, end - from, sys::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
#[inline]
fn heap_grown(_ptr: *mut u8) {}

#[allow(unsafe_code)]
// SAFETY: every block is allocated and freed by `System` with the same `real_layout` of the caller's layout (a
// stricter alignment for large blocks, which satisfies the caller's), so `System`'s contract carries over; the
// advice only touches blocks `System` returned (non-null) at their own size; `realloc` of a large block copies
// into a new block of the requested layout and frees the old one with its own.
unsafe impl GlobalAlloc for LargePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: `layout` has a non-zero size (the caller's contract), and so has `real_layout` of it.
        let ptr = unsafe { System.alloc(real_layout(layout)) };
        if !ptr.is_null() {
            if is_large(layout.size()) {
                advise(ptr, layout.size());
            } else {
                heap_grown(ptr);
            }
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !is_large(layout.size()) {
            // SAFETY: as in `alloc`.
            let ptr = unsafe { System.alloc_zeroed(layout) };
            if !ptr.is_null() {
                heap_grown(ptr);
            }
            return ptr;
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
            let new = unsafe { System.realloc(ptr, layout, new_size) };
            if !new.is_null() {
                heap_grown(new);
            }
            return new;
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
