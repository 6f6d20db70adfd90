//! The least any loader can cost on this machine, whole process: start, read the file into fresh memory the way
//! the loaders do (`io::file_bytes`), one pass over its lines. `scripts/bench-vs-assimp.sh` runs it beside
//! `bonescope info` and `assimp info`: assimp's time divided by this floor is the highest ratio a loader could
//! show on that file, whatever its parser does (BENCHMARKS.md, "Whole process, side by side with assimp").
//!
//! `cargo run --release --no-default-features --example read_floor -- FILE` prints the number of lines (so that
//! the pass is not optimised away) and, on stderr, the time spent reading and in all after the start.

use std::time::Instant;

use bonescope::files::disk_read::read_file;

fn main() -> Result<(), String> {
    let Some(file) = std::env::args().nth(1) else {
        return Err("usage: read_floor FILE".into());
    };
    let start = Instant::now();
    let len = std::fs::metadata(&file).map_err(|e| format!("{file}: {e}"))?.len();
    let bytes = read_file(file.as_ref(), len).map_err(|e| format!("{file}: {e}"))?;
    let read = start.elapsed();
    println!("{} lines", memchr::memchr_iter(b'\n', &bytes).count());
    eprintln!("read {:.2} ms, in all {:.2} ms", read.as_secs_f64() * 1e3, start.elapsed().as_secs_f64() * 1e3);
    Ok(())
}
