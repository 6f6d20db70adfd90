//! The command line: `bonescope [FILES…]` opens the viewer; subcommands do batch work on files.

pub mod info;
pub mod pose;
