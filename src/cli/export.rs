//! `bonescope export FILE… -o out.glb [--morph NAME=WEIGHT]…`: the model, its skeleton and every bound clip
//! as binary glTF 2.0, with the morph settings as the meshes' default weights.

use std::path::PathBuf;

use bonescope::AppError;
use bonescope::io::{LoadOptions, gltf};
use bonescope::source::{self, Source};

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The model, then animation files to bind to it by bone name.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Output file (.glb).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Frame rate for formats that do not store one (SMD animations).
    #[arg(long, default_value_t = 30.0)]
    pub fps: f32,
    /// Morph weights written as the meshes' default weights (what a glTF viewer shows without an animation).
    #[command(flatten)]
    pub morph: super::morph_args::MorphArgs,
}

pub fn run(args: &ExportArgs) -> Result<(), AppError> {
    let opts = LoadOptions { default_fps: args.fps, ..LoadOptions::default() };
    let (asset, _) = source::load_set(&Source::from_args(&args.files), &opts)?;
    let options = gltf::ExportOptions { morph_weights: args.morph.weights(&asset, None, 0.0)? };
    let (bytes, report) = gltf::export_glb_with(&asset, &options)?;
    std::fs::write(&args.output, &bytes).map_err(|e| AppError::write(&args.output, e))?;
    println!(
        "{}: {} bytes, {} nodes, {} meshes, {} animations, {} images",
        args.output.display(),
        bytes.len(),
        report.nodes,
        report.meshes,
        report.animations,
        report.images
    );
    for warning in &report.warnings {
        eprintln!("warning: {warning}");
    }
    Ok(())
}
