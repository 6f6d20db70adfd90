//! The viewer state that survives a restart (serde, saved by eframe's persistence): recent files, which panels
//! are shown, viewport shading and overlays, playback options. Panel *sizes* are kept by egui's own memory,
//! which eframe persists alongside. Nothing here refers to GPU objects or to the loaded scene.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::render::ShadingMode;

use crate::ui::state::player::TransportMode;

/// Key under which [`UiState`] is stored.
pub const STORAGE_KEY: &str = "bonescope.ui";
/// How many recent file sets the File menu keeps.
pub const MAX_RECENT: usize = 12;

/// Things drawn over the mesh.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Overlay {
    Wireframe,
    Skeleton,
    JointAxes,
    BoneNames,
    Grid,
    WorldAxes,
    Bounds,
    Mesh,
    /// The mesh and skeleton in the bind pose, ghosted behind the animated ones.
    BindGhost,
    /// What a model script places on the character: QC hitboxes, attachments, bounding and clipping boxes, eye
    /// position.
    ScriptShapes,
}

impl Overlay {
    pub const ALL: [Overlay; 10] = [
        Self::Mesh,
        Self::BindGhost,
        Self::Wireframe,
        Self::Skeleton,
        Self::JointAxes,
        Self::BoneNames,
        Self::Grid,
        Self::WorldAxes,
        Self::Bounds,
        Self::ScriptShapes,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Self::Mesh => "Mesh",
            Self::Wireframe => "Wireframe",
            Self::Skeleton => "Skeleton",
            Self::JointAxes => "Joint axes",
            Self::BoneNames => "Bone names",
            Self::Grid => "Ground grid",
            Self::WorldAxes => "World axes",
            Self::Bounds => "Bounding box",
            Self::BindGhost => "Bind-pose ghost",
            Self::ScriptShapes => "Hitboxes and attachments",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Overlays {
    pub mesh: bool,
    pub wireframe: bool,
    pub skeleton: bool,
    pub joint_axes: bool,
    pub bone_names: bool,
    pub grid: bool,
    pub world_axes: bool,
    pub bounds: bool,
    pub bind_ghost: bool,
    pub script_shapes: bool,
}

impl Default for Overlays {
    fn default() -> Self {
        Self {
            mesh: true,
            wireframe: false,
            skeleton: true,
            joint_axes: false,
            bone_names: false,
            grid: true,
            world_axes: true,
            bounds: false,
            bind_ghost: false,
            // Off at first: a QC's hitboxes cover most of the character; one switch in Overlays shows them.
            script_shapes: false,
        }
    }
}

impl Overlays {
    pub fn get(&self, o: Overlay) -> bool {
        match o {
            Overlay::Mesh => self.mesh,
            Overlay::Wireframe => self.wireframe,
            Overlay::Skeleton => self.skeleton,
            Overlay::JointAxes => self.joint_axes,
            Overlay::BoneNames => self.bone_names,
            Overlay::Grid => self.grid,
            Overlay::WorldAxes => self.world_axes,
            Overlay::Bounds => self.bounds,
            Overlay::BindGhost => self.bind_ghost,
            Overlay::ScriptShapes => self.script_shapes,
        }
    }

    pub fn set(&mut self, o: Overlay, on: bool) {
        let slot = match o {
            Overlay::Mesh => &mut self.mesh,
            Overlay::Wireframe => &mut self.wireframe,
            Overlay::Skeleton => &mut self.skeleton,
            Overlay::JointAxes => &mut self.joint_axes,
            Overlay::BoneNames => &mut self.bone_names,
            Overlay::Grid => &mut self.grid,
            Overlay::WorldAxes => &mut self.world_axes,
            Overlay::Bounds => &mut self.bounds,
            Overlay::BindGhost => &mut self.bind_ghost,
            Overlay::ScriptShapes => &mut self.script_shapes,
        };
        *slot = on;
    }
}

/// The side panels that can be shown or hidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PanelId {
    Outliner,
    Inspector,
    Timeline,
}

/// Tabs of the right-hand panel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum RightTab {
    #[default]
    Inspector,
    Callbacks,
    Diagnostics,
    /// Channel plots of input recordings.
    Recording,
    /// Morph targets: sliders, the weights clips drive, manual overrides.
    Morphs,
    Files,
}

impl RightTab {
    pub const ALL: [RightTab; 6] =
        [Self::Inspector, Self::Diagnostics, Self::Morphs, Self::Recording, Self::Callbacks, Self::Files];

    pub fn label(self) -> &'static str {
        match self {
            Self::Inspector => "Inspector",
            Self::Callbacks => "Callbacks",
            Self::Diagnostics => "Diagnostics",
            Self::Recording => "Recording",
            Self::Morphs => "Morphs",
            Self::Files => "Files",
        }
    }
}

/// Everything persisted. `#[serde(default)]` so that settings from an older version still load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct UiState {
    /// Most recent first; each entry is a model and the animation files bound to it.
    pub recent: Vec<Vec<PathBuf>>,
    pub show_outliner: bool,
    pub show_inspector: bool,
    pub show_timeline: bool,
    pub right_tab: RightTab,
    pub shading: ShadingMode,
    pub overlays: Overlays,
    pub orthographic: bool,
    pub playback: TransportMode,
    pub speed: f32,
    /// Reload files when they change on disk.
    pub auto_reload: bool,
    pub cross_fade_seconds: f32,
    /// Show frame numbers (not only seconds) in the timeline.
    pub show_frames: bool,
    /// Hide triangles facing away (per the file's winding); off shows both sides, for files wound wrongly.
    pub cull_back_faces: bool,
    /// Skin every vertex with the selected bone's matrix alone (shows what that one matrix does to the mesh).
    pub skin_selected_only: bool,
    /// The camera follows the character's root bone.
    pub follow_root: bool,
    /// Per model file, the yaw the user made the front ("Make this view the front"), over the derived facing.
    pub front_overrides: std::collections::BTreeMap<PathBuf, f32>,
    /// Per model file, the axis of the file the user made up (View › Up axis), over the format's convention.
    pub up_overrides: std::collections::BTreeMap<PathBuf, crate::scene::UpAxis>,
    /// Folders textures are looked for in after the model's own folder (Settings › Texture folders).
    pub texture_dirs: Vec<PathBuf>,
}

impl Default for UiState {
    fn default() -> Self {
        Self {
            recent: Vec::new(),
            show_outliner: true,
            show_inspector: true,
            show_timeline: true,
            right_tab: RightTab::Inspector,
            shading: ShadingMode::Textured,
            overlays: Overlays::default(),
            orthographic: false,
            playback: TransportMode::Loop,
            speed: 1.0,
            auto_reload: true,
            cross_fade_seconds: 0.5,
            show_frames: true,
            cull_back_faces: true,
            skin_selected_only: false,
            follow_root: false,
            front_overrides: std::collections::BTreeMap::new(),
            up_overrides: std::collections::BTreeMap::new(),
            texture_dirs: Vec::new(),
        }
    }
}

impl UiState {
    /// Puts a file set at the top of the recent list (once), dropping the oldest beyond [`MAX_RECENT`].
    pub fn remember(&mut self, files: &[PathBuf]) {
        if files.is_empty() {
            return;
        }
        let files: Vec<PathBuf> = files.iter().map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone())).collect();
        self.recent.retain(|r| *r != files);
        self.recent.insert(0, files);
        self.recent.truncate(MAX_RECENT);
    }

    pub fn panel_shown(&self, panel: PanelId) -> bool {
        match panel {
            PanelId::Outliner => self.show_outliner,
            PanelId::Inspector => self.show_inspector,
            PanelId::Timeline => self.show_timeline,
        }
    }

    pub fn set_panel(&mut self, panel: PanelId, shown: bool) {
        match panel {
            PanelId::Outliner => self.show_outliner = shown,
            PanelId::Inspector => self.show_inspector = shown,
            PanelId::Timeline => self.show_timeline = shown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_list_is_most_recent_first_without_duplicates() {
        let mut s = UiState::default();
        let a = vec![PathBuf::from("/m/a.psk"), PathBuf::from("/m/a.psa")];
        let b = vec![PathBuf::from("/m/b.smd")];
        s.remember(&a);
        s.remember(&b);
        s.remember(&a);
        assert_eq!(s.recent, vec![a.clone(), b]);
        for i in 0..20 {
            s.remember(&[PathBuf::from(format!("/m/{i}.smd"))]);
        }
        assert_eq!(s.recent.len(), MAX_RECENT);
    }

    #[test]
    fn state_round_trips_and_old_settings_fill_in_defaults() {
        let mut s = UiState { shading: ShadingMode::BoneWeight, ..UiState::default() };
        s.overlays.set(Overlay::BoneNames, true);
        s.playback = TransportMode::PingPong;
        let text = serde_json::to_string(&s).unwrap();
        let back: UiState = serde_json::from_str(&text).unwrap();
        assert_eq!(back, s);
        let old: UiState = serde_json::from_str(r#"{"show_outliner": false}"#).unwrap();
        assert!(!old.show_outliner);
        assert!(old.show_timeline);
        assert_eq!(old.speed, 1.0);
    }
}
