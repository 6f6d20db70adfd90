//! The viewer's keyboard and mouse controls as one table, [`KEYMAP`]: key dispatch reads its key presses, the
//! Help window (F1) lists its rows, and docs/viewer.md's shortcut table must match it row for row (a test
//! below reads that page). Mouse rows have no key presses: the viewport and the timeline handle those gestures.

use eframe::egui;
use egui::{Key, KeyboardShortcut, Modifiers};

use crate::render::camera::ViewPreset;
use crate::ui::state::settings::Overlay;

/// What a key press asks for. The app turns it into a [`crate::ui::commands::command::Command`], for some (toggles, the
/// next shading mode, Esc) depending on what is shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    TogglePlay,
    StepFrames(i32),
    GoToStart,
    GoToEnd,
    FrameAll,
    FrameSelected,
    View(ViewPreset),
    ToggleProjection,
    NextShading,
    ToggleOverlay(Overlay),
    /// Close the Help window if it is open, else clear the selection and the diagnostics mark.
    Escape,
    OpenDialog,
    Reload,
    ExportDialog,
    SearchBones,
    ToggleHelp,
    Quit,
}

/// One key press of a [`Binding`].
#[derive(Clone, Copy, Debug)]
pub struct Press {
    pub modifiers: Modifiers,
    pub key: Key,
    pub action: Action,
    /// Also while a text field has the keyboard (the Ctrl shortcuts, F1), not only over the viewport.
    pub while_typing: bool,
}

impl Press {
    const fn key(key: Key, action: Action) -> Self {
        Self { modifiers: Modifiers::NONE, key, action, while_typing: false }
    }

    const fn with(self, modifiers: Modifiers) -> Self {
        Self { modifiers, ..self }
    }

    const fn ctrl(key: Key, action: Action) -> Self {
        Self { modifiers: Modifiers::COMMAND, key, action, while_typing: true }
    }

    const fn while_typing(self) -> Self {
        Self { while_typing: true, ..self }
    }
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    /// The keys or gesture, as the Help window and docs/viewer.md show them.
    pub keys: &'static str,
    /// What they do.
    pub does: &'static str,
    /// The key presses behind the row; empty for mouse gestures.
    pub presses: &'static [Press],
}

const fn row(keys: &'static str, does: &'static str, presses: &'static [Press]) -> Binding {
    Binding { keys, does, presses }
}

/// Every control, in the order the Help window and docs/viewer.md list them.
pub const KEYMAP: &[Binding] = &[
    row("Space", "play / pause", &[Press::key(Key::Space, Action::TogglePlay)]),
    row(
        "← / →",
        "step one frame back / forward (Shift: 10 frames)",
        &[
            Press::key(Key::ArrowLeft, Action::StepFrames(-1)),
            Press::key(Key::ArrowRight, Action::StepFrames(1)),
            Press::key(Key::ArrowLeft, Action::StepFrames(-10)).with(Modifiers::SHIFT),
            Press::key(Key::ArrowRight, Action::StepFrames(10)).with(Modifiers::SHIFT),
        ],
    ),
    row(
        "Home / End",
        "go to start / end",
        &[Press::key(Key::Home, Action::GoToStart), Press::key(Key::End, Action::GoToEnd)],
    ),
    row("F", "frame all", &[Press::key(Key::F, Action::FrameAll)]),
    row(". (period)", "frame the selected bone", &[Press::key(Key::Period, Action::FrameSelected)]),
    row(
        "1 / 3 / 7",
        "front / right / top view",
        &[
            Press::key(Key::Num1, Action::View(ViewPreset::Front)),
            Press::key(Key::Num3, Action::View(ViewPreset::Right)),
            Press::key(Key::Num7, Action::View(ViewPreset::Top)),
        ],
    ),
    row(
        "Ctrl+1 / Ctrl+3 / Ctrl+7",
        "back / left / bottom view",
        &[
            Press::key(Key::Num1, Action::View(ViewPreset::Back)).with(Modifiers::COMMAND),
            Press::key(Key::Num3, Action::View(ViewPreset::Left)).with(Modifiers::COMMAND),
            Press::key(Key::Num7, Action::View(ViewPreset::Bottom)).with(Modifiers::COMMAND),
        ],
    ),
    row("5", "perspective / orthographic", &[Press::key(Key::Num5, Action::ToggleProjection)]),
    row(
        "Z",
        "next shading mode (textured, solid, normals, bone weights, dominant bone, stretch)",
        &[Press::key(Key::Z, Action::NextShading)],
    ),
    row("W", "wireframe on / off", &[Press::key(Key::W, Action::ToggleOverlay(Overlay::Wireframe))]),
    row(
        "K / J / N / G",
        "skeleton / joint axes / bone names / ground grid overlay",
        &[
            Press::key(Key::K, Action::ToggleOverlay(Overlay::Skeleton)),
            Press::key(Key::J, Action::ToggleOverlay(Overlay::JointAxes)),
            Press::key(Key::N, Action::ToggleOverlay(Overlay::BoneNames)),
            Press::key(Key::G, Action::ToggleOverlay(Overlay::Grid)),
        ],
    ),
    row(
        "Esc",
        "clear the selection and the diagnostics mark, close this window",
        &[Press::key(Key::Escape, Action::Escape)],
    ),
    row("Ctrl+O", "open files", &[Press::ctrl(Key::O, Action::OpenDialog)]),
    row(
        "Ctrl+R or F5",
        "reload the open files",
        &[Press::ctrl(Key::R, Action::Reload), Press::key(Key::F5, Action::Reload).while_typing()],
    ),
    row("Ctrl+E", "export the scene as glTF (.glb)", &[Press::ctrl(Key::E, Action::ExportDialog)]),
    row("Ctrl+F", "search bones", &[Press::ctrl(Key::F, Action::SearchBones)]),
    row(
        "F1 or ?",
        "this help",
        &[
            Press::key(Key::F1, Action::ToggleHelp).while_typing(),
            Press::key(Key::Questionmark, Action::ToggleHelp),
            Press::key(Key::Questionmark, Action::ToggleHelp).with(Modifiers::SHIFT),
        ],
    ),
    row("Ctrl+Q", "quit", &[Press::ctrl(Key::Q, Action::Quit)]),
    row("Left drag", "orbit", &[]),
    row("Right or middle drag, Shift+left drag", "pan", &[]),
    row("Wheel, pinch, Ctrl+left drag", "zoom", &[]),
    row("Two-finger scroll (trackpad)", "orbit; with Shift: pan (where the platform reports a trackpad)", &[]),
    row("Click a joint", "select the bone; double-click frames it", &[]),
    row("Alt+click the mesh", "pick the vertex: its weights and morph deltas in the inspector", &[]),
    row("Timeline: drag", "scrub (callbacks do not fire while scrubbing)", &[]),
    row("Timeline: wheel / right drag", "zoom / pan the time ruler", &[]),
    row("Drop files on the window", "open a model; animation files bind to the open model", &[]),
];

/// Consumes this frame's key presses that [`KEYMAP`] binds and returns their actions, in the order pressed
/// keys are matched. `typing`: a text field has the keyboard, so only presses marked `while_typing` count.
///
/// egui matches a shortcut without Shift also when Shift is held, so presses with more modifiers are matched
/// first (Shift+← before ←).
pub fn dispatch(input: &mut egui::InputState, typing: bool) -> Vec<Action> {
    let mut presses: Vec<&Press> =
        KEYMAP.iter().flat_map(|b| b.presses).filter(|p| p.while_typing || !typing).collect();
    let modifier_count = |m: Modifiers| [m.alt, m.ctrl, m.shift, m.mac_cmd, m.command].iter().filter(|b| **b).count();
    presses.sort_by_key(|p| std::cmp::Reverse(modifier_count(p.modifiers)));
    presses
        .into_iter()
        .filter(|p| input.consume_shortcut(&KeyboardShortcut::new(p.modifiers, p.key)))
        .map(|p| p.action)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows of docs/viewer.md's "| keys | action |" table.
    fn readme_rows() -> Vec<(String, String)> {
        let readme = include_str!("../../../docs/viewer.md");
        let mut lines = readme.lines().skip_while(|l| l.trim() != "| keys | action |").skip(2);
        let mut rows = Vec::new();
        while let Some(line) = lines.next().filter(|l| l.starts_with('|')) {
            let cells: Vec<&str> = line.trim().trim_matches('|').split(" | ").map(str::trim).collect();
            assert_eq!(cells.len(), 2, "docs/viewer.md shortcut row with {} cells: {line}", cells.len());
            rows.push((cells[0].to_owned(), cells[1].to_owned()));
        }
        rows
    }

    #[test]
    fn readme_shortcut_table_is_the_keymap() {
        let readme = readme_rows();
        let keymap: Vec<(String, String)> = KEYMAP.iter().map(|b| (b.keys.to_owned(), b.does.to_owned())).collect();
        assert!(!readme.is_empty(), "docs/viewer.md has no `| keys | action |` table");
        for (i, (r, k)) in readme.iter().zip(&keymap).enumerate() {
            assert_eq!(r, k, "row {i} differs between docs/viewer.md and KEYMAP");
        }
        assert_eq!(readme.len(), keymap.len(), "docs/viewer.md and KEYMAP list a different number of controls");
    }

    #[test]
    fn no_key_press_is_bound_twice() {
        let presses: Vec<&Press> = KEYMAP.iter().flat_map(|b| b.presses).collect();
        for (i, a) in presses.iter().enumerate() {
            for b in &presses[i + 1..] {
                assert!(
                    !(a.key == b.key && a.modifiers == b.modifiers),
                    "{:?}+{:?} is bound to {:?} and {:?}",
                    a.modifiers,
                    a.key,
                    a.action,
                    b.action
                );
            }
        }
    }

    fn press(key: Key, modifiers: Modifiers) -> egui::Event {
        egui::Event::Key { key, physical_key: None, pressed: true, repeat: false, modifiers }
    }

    fn actions_for(events: Vec<egui::Event>, typing: bool) -> Vec<Action> {
        let ctx = egui::Context::default();
        let raw = egui::RawInput { events, ..Default::default() };
        let mut actions = Vec::new();
        let mut output = ctx.run_ui(raw, |ui| actions = ui.ctx().input_mut(|i| dispatch(i, typing)));
        // No renderer takes the font texture here.
        output.textures_delta.clear();
        actions
    }

    #[test]
    fn keys_dispatch_to_their_actions() {
        assert_eq!(actions_for(vec![press(Key::Space, Modifiers::NONE)], false), vec![Action::TogglePlay]);
        // Shift+← is ten frames, not one (and not both).
        assert_eq!(actions_for(vec![press(Key::ArrowLeft, Modifiers::SHIFT)], false), vec![Action::StepFrames(-10)]);
        assert_eq!(actions_for(vec![press(Key::ArrowLeft, Modifiers::NONE)], false), vec![Action::StepFrames(-1)]);
        assert_eq!(
            actions_for(vec![press(Key::Num1, Modifiers::COMMAND)], false),
            vec![Action::View(ViewPreset::Back)]
        );
        assert_eq!(actions_for(vec![press(Key::F, Modifiers::COMMAND)], false), vec![Action::SearchBones]);
        // While typing only the command shortcuts and F1 work.
        assert_eq!(actions_for(vec![press(Key::Space, Modifiers::NONE)], true), vec![]);
        assert_eq!(actions_for(vec![press(Key::O, Modifiers::COMMAND)], true), vec![Action::OpenDialog]);
        assert_eq!(actions_for(vec![press(Key::F1, Modifiers::NONE)], true), vec![Action::ToggleHelp]);
    }
}
