//! Whole-process timing helper for SMD loading.
//!
//! `cargo run --release --no-default-features --example smd_load -- gen OUT.smd [MB]` writes the benchmark's
//! generated Source-style SMD; `... --example smd_load -- FILE [REPEATS]` loads a file (parse, weld, mesh) and
//! prints its counts and the best time.

use std::time::Instant;

use bonescope::io::{self, LoadOptions};

#[path = "../benches/smd_gen/mod.rs"]
mod smd_gen;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [cmd, out, rest @ ..] if cmd == "gen" => {
            let mb: usize = rest.first().and_then(|m| m.parse().ok()).unwrap_or(32);
            std::fs::write(out, smd_gen::source_smd(mb << 20)).map_err(|e| e.to_string())
        }
        [file, rest @ ..] => {
            let repeats: usize = rest.first().and_then(|r| r.parse().ok()).unwrap_or(1);
            let mut best = f64::INFINITY;
            for _ in 0..repeats {
                let start = Instant::now();
                let asset = io::load_path(file.as_ref(), &LoadOptions::default()).map_err(|e| e.to_string())?;
                let secs = start.elapsed().as_secs_f64();
                best = best.min(secs);
                if repeats == 1 || secs == best {
                    let bytes = std::fs::metadata(file).map_err(|e| e.to_string())?.len() as f64;
                    println!(
                        "{file}: {} bones, {} triangles, {} vertices, {:.1} ms, {:.0} MB/s",
                        asset.skeleton.len(),
                        asset.triangle_count(),
                        asset.vertex_count(),
                        secs * 1e3,
                        bytes / secs / 1e6
                    );
                }
            }
            Ok(())
        }
        _ => Err("usage: smd_load gen OUT.smd [MB] | smd_load FILE [REPEATS]".into()),
    }
}
