//! What is drawn: the egui panels, windows and the viewport. Each reads the state (or a narrow input made of
//! it) and pushes [`Command`](super::commands::command::Command)s; none changes the app's state itself. A panel
//! may keep its own view-only memory (scroll positions, filters, caches).

pub mod body_groups;
pub mod diagnostics;
pub mod gpu;
pub mod inspector;
pub mod keymap;
pub mod legend;
pub mod menu;
pub mod mixer;
pub mod model_picker;
pub mod model_script_shapes;
pub mod model_script_view;
pub mod morphs;
pub mod outliner;
pub mod recording_shapes;
pub mod recording_view;
pub mod studio_controls;
pub mod timeline;
pub mod vertex_pick;
pub mod viewport;
pub mod windows;
