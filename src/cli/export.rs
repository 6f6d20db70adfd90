//! `bonescope export FILE… -o out.glb [--morph NAME=WEIGHT]…`: the model, its skeleton and every bound clip
//! as binary glTF 2.0, with the morph settings as the meshes' default weights.

use std::path::PathBuf;

use bonescope::AppError;
use bonescope::io::gltf;

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The model, then animation files to bind to it by bone name.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Output file (.glb).
    #[arg(short, long)]
    pub output: PathBuf,
    #[command(flatten)]
    pub load: super::LoadArgs,
    /// Morph weights written as the meshes' default weights (what a glTF viewer shows without an animation).
    #[command(flatten)]
    pub morph: super::morph_args::MorphArgs,
}

pub fn run(args: &ExportArgs) -> Result<(), AppError> {
    let opts = args.load.options();
    let opened = super::Opened::args(&args.files, &opts)?;
    let asset = &opened.asset;
    let options = gltf::ExportOptions { morph_weights: args.morph.weights(asset, None, 0.0)?, ..Default::default() };
    let (bytes, report) = gltf::export_glb_with(asset, &options)?;
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
    opened.finish()
}
