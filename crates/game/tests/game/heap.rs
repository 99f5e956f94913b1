//! The counting global allocator of the game's and the players' test binaries (each includes
//! this file): the bytes each thread has live and its peak, so that memory bounds are
//! asserted without timing anything (`robustness.rs`, the players' `memory.rs`).

// Unsafe code here for the counting allocator only: a `GlobalAlloc` is an unsafe trait.
#![allow(unsafe_code)]
#![allow(dead_code)] // each test binary uses its own subset

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting the bytes each thread has live and its peak.
struct Counting;

thread_local! {
    // `const` initialisers and no destructors: using these never allocates, so the allocator
    // can touch them.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn track(delta: isize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| {
            if now > peak.get() {
                peak.set(now);
            }
        });
    });
}

// SAFETY: every call is forwarded to `System` unchanged; only counters are updated.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            track(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            track(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        track(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            track(new_size as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The heap this thread holds now, in bytes (the players' `memory.rs` reads it).
pub(crate) fn live_heap() -> isize {
    LIVE.with(Cell::get)
}

/// The most heap this thread held at once since the last call (or since it started), in
/// bytes; the peak starts again from what is live now.
pub(crate) fn take_peak() -> isize {
    let live = LIVE.with(Cell::get);
    PEAK.with(|p| p.replace(live))
}

/// Runs `f` and returns its result and the most heap it held at once on this thread, beyond
/// what was live before (in bytes).
pub(crate) fn peak_heap<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let result = f();
    let peak = PEAK.with(Cell::get);
    (result, (peak - base).max(0) as usize)
}
