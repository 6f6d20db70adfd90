//! `bonescope`: opens the viewer on files (or the built-in demo), or runs a batch subcommand.

mod cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(name = "bonescope", version, about = "Look inside skinned, animated characters and MRTK recordings")]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[cfg(feature = "gui")]
    #[command(flatten)]
    viewer: bonescope::ui::ViewerArgs,
    /// Files to open in the viewer (this build has no viewer: see the message it prints).
    #[cfg(not(feature = "gui"))]
    files: Vec<std::path::PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Describe files: format, bones, vertices, triangles, materials, clips, recordings, warnings.
    Info(cli::info::InfoArgs),
    /// Print the evaluated pose: per bone local SRT, to-root, offset and skinning matrices.
    Pose(cli::pose::PoseArgs),
    /// Check every character under folders: rig diagnostics on every clip, a summary, JSON and HTML reports,
    /// and an exit code for CI.
    Check(cli::check::CheckArgs),
    /// Export the model, skeleton and clips as binary glTF 2.0 (.glb).
    Export(cli::export::ExportArgs),
    /// Render a file headless to PNG (or a clip to a PNG sequence or an animated GIF).
    #[cfg(feature = "gui")]
    Render(cli::render::RenderArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Info(args)) => ExitCode::from(cli::info::run(&args) as u8),
        Some(Command::Pose(args)) => report(cli::pose::run(&args)),
        Some(Command::Export(args)) => report(cli::export::run(&args)),
        Some(Command::Check(args)) => ExitCode::from(cli::check::run(&args) as u8),
        #[cfg(feature = "gui")]
        Some(Command::Render(args)) => report(cli::render::run(&args)),
        #[cfg(feature = "gui")]
        None => report(bonescope::ui::run(cli.viewer)),
        #[cfg(not(feature = "gui"))]
        None => report(open_viewer(cli.files)),
    }
}

fn report(result: Result<(), impl std::fmt::Display>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(not(feature = "gui"))]
fn open_viewer(files: Vec<std::path::PathBuf>) -> Result<(), bonescope::AppError> {
    let _ = files;
    Err(bonescope::AppError::Window(
        "this build has no viewer (it was built without the `gui` feature: `cargo build --no-default-features \
         --features cli`); build with default features (`cargo build --release`) for the viewer, or use the \
         `info`, `pose`, `export` and `check` subcommands"
            .into(),
    ))
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// clap's own consistency checks over every subcommand's arguments.
    #[test]
    fn the_command_line_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
