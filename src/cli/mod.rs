//! The command line: `bonescope [FILES…]` opens the viewer; subcommands do batch work on files (`check` on whole
//! folder trees).

pub mod check;
pub mod export;
pub mod info;
pub mod pose;
#[cfg(feature = "gui")]
pub mod render;

/// Writes command output to stdout. A closed pipe (`bonescope info … | head`) is not an error worth a panic.
pub fn emit(text: &str) {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush());
}
