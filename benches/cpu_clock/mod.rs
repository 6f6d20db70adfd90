//! The CPU time of the measuring thread, for benches that report it next to criterion's wall-clock time: the
//! machines these benchmarks run on are shared, so wall-clock time includes time spent waiting for a core; CPU
//! time is the "one core" figure.

use std::time::{Duration, Instant};

/// CPU time this thread has run, in nanoseconds (Linux `schedstat`); `None` elsewhere.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Runs `f` `iters` times and returns the CPU time it used (wall time when CPU time is unavailable); for
/// criterion's `iter_custom`.
pub fn cpu_time(iters: u64, mut f: impl FnMut()) -> Duration {
    let wall = Instant::now();
    let start = thread_cpu_ns();
    for _ in 0..iters {
        f();
    }
    match (start, thread_cpu_ns()) {
        (Some(a), Some(b)) => Duration::from_nanos(b.saturating_sub(a)),
        _ => wall.elapsed(),
    }
}
