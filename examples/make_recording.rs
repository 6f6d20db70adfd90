//! Writes the demo MRTK input recording (two hands opening and pinching, head turning, gaze sweeping; 4 s) to
//! `assets/demo_recording.bin`, or to the path given as the first argument.
//!
//! `cargo run --example make_recording --no-default-features [-- PATH]`

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/demo_recording.bin"));
    let rec = bonescope::scene::samples::demo_recording::demo_recording();
    let bytes = bonescope::io::mrtk_write::write(&rec)?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&path, &bytes)?;
    println!("{}: {} bytes", path.display(), bytes.len());
    print!("{}", rec.summary());
    Ok(())
}
