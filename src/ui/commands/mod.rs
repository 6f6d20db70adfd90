//! What the viewer can be asked to do, and the work that runs behind a frame: [`command::Command`] (what
//! panels, menus, keys and drops ask for), and the jobs on worker threads (loading, file dialogs, export,
//! watching files) whose results the app picks up once a frame and applies. Imports the state, never the views.

pub mod command;
pub mod export;
pub mod jobs;
pub mod loader;
#[cfg(not(target_arch = "wasm32"))]
pub mod watch;
