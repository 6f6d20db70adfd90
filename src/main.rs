//! `bonescope`: opens the viewer on files (or the built-in demo), or runs a batch subcommand.

mod cli;
mod large_pages;

use std::process::ExitCode;

use clap::{ArgMatches, Args, FromArgMatches, Parser, Subcommand};

/// The system allocator, with huge pages for large blocks (see `large_pages.rs`, figures in BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: large_pages::LargePages = large_pages::LargePages;

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

/// The batch subcommands. `Subcommand` is written out rather than derived for one reason: the derived form builds
/// every subcommand's arguments (a few hundred `Arg`s with their help text) at every start, while a run needs
/// only the one it names. Each subcommand here is registered by name and help line, and its arguments are built
/// by [`clap::Command::defer`] only when clap parses or prints that subcommand — a tenth of a millisecond less
/// per process, which counts when the program runs once per file over a folder (BENCHMARKS.md).
#[derive(Debug)]
enum Command {
    Info(cli::info::InfoArgs),
    Pose(cli::pose::PoseArgs),
    Check(cli::check::CheckArgs),
    Export(cli::export::ExportArgs),
    #[cfg(feature = "gui")]
    Render(cli::render::RenderArgs),
}

/// A subcommand: its name, its help line, and the function that adds its arguments.
struct SubcommandEntry {
    name: &'static str,
    about: &'static str,
    arguments: fn(clap::Command) -> clap::Command,
}

/// Every subcommand, in the order `--help` lists them.
const SUBCOMMANDS: &[SubcommandEntry] = &[
    SubcommandEntry {
        name: "info",
        about: "Describe files: format, bones, vertices, triangles, materials, clips, recordings, warnings",
        arguments: <cli::info::InfoArgs as Args>::augment_args,
    },
    SubcommandEntry {
        name: "pose",
        about: "Print the evaluated pose: per bone local SRT, to-root, offset and skinning matrices",
        arguments: <cli::pose::PoseArgs as Args>::augment_args,
    },
    SubcommandEntry {
        name: "check",
        about: "Check every character under folders: rig diagnostics on every clip, a summary, JSON and HTML reports, \
                and an exit code for CI",
        arguments: <cli::check::CheckArgs as Args>::augment_args,
    },
    SubcommandEntry {
        name: "export",
        about: "Export the model, skeleton and clips as binary glTF 2.0 (.glb)",
        arguments: <cli::export::ExportArgs as Args>::augment_args,
    },
    #[cfg(feature = "gui")]
    SubcommandEntry {
        name: "render",
        about: "Render a file headless to PNG (or a clip to a PNG sequence or an animated GIF)",
        arguments: <cli::render::RenderArgs as Args>::augment_args,
    },
];

impl Subcommand for Command {
    fn augment_subcommands(cmd: clap::Command) -> clap::Command {
        SUBCOMMANDS.iter().fold(cmd, |cmd, entry| {
            cmd.subcommand(clap::Command::new(entry.name).about(entry.about).defer(add_arguments))
        })
    }

    fn augment_subcommands_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_subcommands(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        SUBCOMMANDS.iter().any(|entry| entry.name == name)
    }
}

/// The deferred part of a subcommand: its arguments, then its help line again (flattened argument groups bring
/// their own doc comment as `about`, which the subcommand's must replace, as the derived form does).
fn add_arguments(cmd: clap::Command) -> clap::Command {
    match SUBCOMMANDS.iter().find(|entry| entry.name == cmd.get_name()) {
        Some(entry) => (entry.arguments)(cmd).about(entry.about).long_about(None),
        None => cmd,
    }
}

impl FromArgMatches for Command {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let Some((name, args)) = matches.subcommand() else {
            return Err(clap::Error::new(clap::error::ErrorKind::MissingSubcommand));
        };
        Ok(match name {
            "info" => Self::Info(FromArgMatches::from_arg_matches(args)?),
            "pose" => Self::Pose(FromArgMatches::from_arg_matches(args)?),
            "check" => Self::Check(FromArgMatches::from_arg_matches(args)?),
            "export" => Self::Export(FromArgMatches::from_arg_matches(args)?),
            #[cfg(feature = "gui")]
            "render" => Self::Render(FromArgMatches::from_arg_matches(args)?),
            _ => return Err(clap::Error::new(clap::error::ErrorKind::InvalidSubcommand)),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
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
        "this build has no viewer (it was built without the `gui` feature); rebuild with default features, or use \
         the `info`, `pose` and `export` subcommands"
            .into(),
    ))
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// clap's own consistency checks, over every subcommand's deferred arguments too.
    #[test]
    fn the_command_line_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
