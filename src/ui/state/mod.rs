//! The viewer's state, without egui or eframe: what is open ([`document`]) and how it is looked at
//! ([`document_view`]), the player and its model-script flow, the morph weights set by hand, the persisted
//! settings, the frame clock. Commands change it and views read it; it imports neither (nor anything of
//! egui), so it can be tested and reasoned about as plain data.

pub mod diagnostics;
pub mod document;
pub mod document_view;
pub mod frame_clock;
pub mod model_script_flow;
pub mod morph_overrides;
pub mod player;
pub mod settings;
