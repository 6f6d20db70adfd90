//! The `render` command on its own: `cargo run --example render -- [FILES…] [--mode …] [-o out.png]`.

use clap::Parser;

#[derive(Parser)]
#[command(name = "render", about = "Render a model (or the built-in demo) headless to PNG / GIF")]
struct Cli {
    #[command(flatten)]
    args: bonescope::render::cli::RenderArgs,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match bonescope::render::cli::run(&cli.args) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
