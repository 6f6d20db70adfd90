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
pub mod studio_controls;

#[cfg(test)]
mod tests {
    /// The folder's promise, checked on its source: no line outside comments and tests names egui or eframe,
    /// and nothing of the views, the commands or the app is imported.
    #[test]
    fn state_imports_no_egui_no_views_and_no_commands() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui/state");
        let mut files = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            files += 1;
            let code_part = text.split("#[cfg(test)]").next().unwrap_or_default();
            for (n, line) in code_part.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                let mut words = code.split(|c: char| !c.is_alphanumeric() && c != '_');
                assert!(!words.any(|w| w == "egui" || w == "eframe"), "{}:{}: {line}", path.display(), n + 1);
                for path_part in ["ui::views", "ui::commands", "ui::app"] {
                    assert!(!code.contains(path_part), "{}:{}: {line}", path.display(), n + 1);
                }
            }
        }
        assert!(files > 5, "read {files} files of {}", dir.display());
    }
}
