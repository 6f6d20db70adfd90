//! The command line: `bonescope [FILES…]` opens the viewer; subcommands do batch work on files.

pub mod export;
pub mod info;
pub mod pose;
