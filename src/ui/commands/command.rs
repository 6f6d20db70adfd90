//! Everything a panel, menu or shortcut can ask the viewer to do. Panels push these into a queue while they
//! draw; the app applies them in order after the frame's UI, in one place (`ViewerApp::apply`), so no panel
//! changes state another panel is reading.

use std::path::PathBuf;

use crate::anim::controller::BlendMode;
use crate::render::ShadingMode;
use crate::render::camera::ViewPreset;
use crate::scene::samples::Sample;
use crate::ui::state::player::TransportMode;
use crate::ui::state::settings::{Overlay, PanelId, RightTab};

/// How files being opened relate to what is loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenMode {
    /// A new scene: the first file is the model, the rest are bound to it.
    Replace,
    /// Bind every file to the loaded model.
    Bind,
    /// File › Open and dropped files: animation-only files (and vertex animation) bind to the loaded model,
    /// anything with a mesh opens a new scene.
    Auto,
}

/// A change to one mixer track.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TrackEdit {
    Clip(usize),
    Enabled(bool),
    Weight(f32),
    Speed(f32),
    /// Jump the track to this clip time (seconds).
    Position(f32),
    Mode(BlendMode),
    /// Limit the track to this bone and its descendants (`None`: all bones).
    Mask(Option<usize>),
    Solo(bool),
    Mute(bool),
    ClearEvents,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    // Files
    /// Ask for files and open them as [`OpenMode`] says.
    OpenDialog(OpenMode),
    /// Pick a folder and open the model in it ([`crate::source::files_to_open`]).
    OpenFolderDialog,
    /// Pick a `.vdf` archive and choose a model in it.
    OpenArchiveDialog,
    /// Show the models of this archive to choose from ([`crate::source::archive_root`]).
    ShowModelPicker(PathBuf),
    CloseModelPicker,
    Open {
        paths: Vec<PathBuf>,
        mode: OpenMode,
    },
    /// Open a built-in sample scene.
    OpenSample(Sample),
    Reload,
    /// Ask where to save and export the scene as `.glb`.
    ExportDialog,
    ClearRecent,
    /// Ask for a folder to look for textures in (kept in the settings), then reload.
    AddTextureFolderDialog,
    /// Add this texture folder (kept in the settings), then reload.
    AddTextureFolder(PathBuf),
    /// Forget texture folder `i` of the settings, then reload.
    RemoveTextureFolder(usize),
    /// Retarget the clips of bound file `binding` (an index into the document's bind reports) this way.
    SetRetarget {
        binding: usize,
        retarget: crate::scene::Retarget,
    },
    DismissError,
    // Viewport
    /// Orbit by a drag of (dx, dy) points.
    Orbit {
        dx: f32,
        dy: f32,
    },
    /// Pan by a drag of (dx, dy) points in a view `height` points tall.
    Pan {
        dx: f32,
        dy: f32,
        height: f32,
    },
    /// Multiply the camera distance (> 1 zooms out).
    Zoom(f32),
    FrameAll,
    FrameSelected,
    /// Make the current view direction the character's front (remembered for the open model).
    SetFrontHere,
    /// Keep the camera on the character's root while it moves.
    SetFollowRoot(bool),
    View(ViewPreset),
    ToggleProjection,
    SetShading(ShadingMode),
    SetOverlay(Overlay, bool),
    // Playback
    TogglePlay,
    Seek(f32),
    StepFrames(i32),
    GoToStart,
    GoToEnd,
    SetSpeed(f32),
    SetPlayback(TransportMode),
    /// Play clips as their model script says (loop flags, next clips) or all with one playback type.
    SetFollowScript(bool),
    // Mixer
    AddTrack,
    RemoveTrack(usize),
    FocusTrack(usize),
    EditTrack(usize, TrackEdit),
    CrossFade {
        clip: usize,
        seconds: f32,
    },
    SetCrossFadeSeconds(f32),
    ClearCallbackLog,
    // Morphs
    /// Set a morph target's weight by hand (turns its override on).
    SetMorphWeight(usize, f32),
    /// Hand a morph target to the clips (false) or keep its manual weight (true).
    SetMorphOverride(usize, bool),
    /// Every morph target back to what the clips drive.
    ResetMorphs,
    // Selection, panels, misc
    SelectBone(Option<usize>),
    /// Show choice `.1` of body group `.0`.
    SetBodyChoice(usize, usize),
    /// Draw with skin family `.0` of the model script.
    SetSkin(usize),
    /// Set bone controller `.0` to `.1` (degrees or model units).
    SetController(usize, f32),
    /// Set blend parameter `.0` to the fraction `.1` (`0..=1`).
    SetBlend(usize, f32),
    /// Make an axis of the model file point up (remembered for the file), or go back to the format's own frame.
    SetUpAxis(Option<crate::scene::UpAxis>),
    /// Show (true) or hide part `.0` of a modular character.
    SetPartVisible(usize, bool),
    /// Pick a vertex (mesh, vertex) for the inspector, or clear the pick.
    PickVertex(Option<(usize, u32)>),
    /// Skin the mesh with the selected bone's matrix alone.
    SetSkinSelectedOnly(bool),
    /// Check the open scene again (diagnostics), with the pose on screen.
    RunDiagnostics,
    /// Show what diagnostics finding `i` is about (select, seek, mark in the viewport).
    ShowFinding(usize),
    SetPanel(PanelId, bool),
    /// Show the outliner and put the keyboard in its bone search.
    SearchBones,
    SetRightTab(RightTab),
    ShowHelp(bool),
    SetAutoReload(bool),
    SetShowFrames(bool),
    SetCullBackFaces(bool),
    /// Draw the viewport with the egui painter instead of the GPU renderer.
    SetPainterFallback(bool),
    CopyToClipboard(String),
    Quit,
}
