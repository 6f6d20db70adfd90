//! The open document and how it is being looked at: the [`Document`], the player (mixer tracks, clock), the
//! pose it evaluates, the selection, the diagnostics mark, the callback log. How a load becomes the open
//! document is the app's (`app::document`).
//!
//! Must not touch: egui, GPU, files.

use std::collections::VecDeque;

use crate::anim::Pose;
use crate::anim::recording::RecordingPose;
use crate::scene::Asset;

use super::diagnostics::Highlight;
use super::document::Document;
use super::player::{Fired, Player, TransportMode};

/// How many fired callbacks the log keeps.
pub const LOG_LIMIT: usize = 500;

/// The open document and its view state.
pub struct DocumentView {
    pub doc: Document,
    pub player: Player,
    /// The mixer track the timeline, the transport and stepping act on.
    pub focus_track: usize,
    /// The pose the player evaluated this frame.
    pub pose: Pose,
    /// The document's recordings at the player's time.
    pub recording_poses: Vec<RecordingPose>,
    /// The palette the viewport draws with: the pose's, or the selected bone's matrix for every bone.
    pub display_palette: Vec<glam::Mat4>,
    pub selected: Option<usize>,
    /// What the finding last clicked in the Diagnostics tab marks in the viewport.
    pub highlight: Option<Highlight>,
    /// The vertex picked with Alt+click (mesh, vertex), shown in the inspector.
    pub picked_vertex: Option<(usize, u32)>,
    /// The choice shown of each body group of the model script, and the meshes the others hide.
    pub body_choices: Vec<usize>,
    /// Parts of a modular character switched off in the Files tab (indices into `Asset::parts`).
    pub hidden_parts: Vec<usize>,
    pub hidden_meshes: Vec<usize>,
    /// The skin family drawn (model script `skin_families`; 0, the default skin, when there are none), and its
    /// material remap for the renderer ([`skin_remap`]).
    pub skin: usize,
    pub material_remap: Vec<usize>,
    /// The focus clip moves its root far (root motion): the camera follows the root as with View › Follow
    /// the root, for this clip.
    pub follow_clip_root: bool,
    /// The callbacks fired lately (at most [`LOG_LIMIT`]), and how many fired in all.
    pub log: VecDeque<Fired>,
    pub fired_total: u64,
    /// Counts loads: each new document gets the next number (GPU uploads and caches key on it).
    pub generation: u64,
    /// The model's axis conversion as its format gives it, before any View › Up axis override.
    pub file_axes: crate::scene::AxisConversion,
}

impl DocumentView {
    /// Nothing open yet.
    pub fn new(playback: TransportMode, speed: f32) -> Self {
        let mut player = Player::for_asset(&Asset::default(), None, TransportMode::Loop);
        player.set_mode(playback);
        player.speed = speed.max(0.0);
        Self {
            doc: Document::empty(),
            player,
            focus_track: 0,
            pose: Pose::default(),
            recording_poses: Vec::new(),
            display_palette: Vec::new(),
            selected: None,
            highlight: None,
            picked_vertex: None,
            body_choices: Vec::new(),
            hidden_parts: Vec::new(),
            hidden_meshes: Vec::new(),
            skin: 0,
            material_remap: Vec::new(),
            file_axes: crate::scene::AxisConversion::IDENTITY,
            follow_clip_root: false,
            log: VecDeque::new(),
            fired_total: 0,
            generation: 0,
        }
    }

    /// Keeps a fired callback in the log.
    pub fn record(&mut self, fired: Fired) {
        self.fired_total += 1;
        self.log.push_back(fired);
        if self.log.len() > LOG_LIMIT {
            self.log.pop_front();
        }
    }
}

/// Whether opened or dropped files bind to the open model: when a model file (not a sample) is open and every
/// file is something to bind ([`crate::io::binds_to_model`]: animation only, e.g. a PSA on a PSK or an
/// animation SMD on its reference, or vertex animation such as a VTA). Anything with a mesh opens as a new
/// scene instead.
pub fn drop_binds(doc: &Document, dropped: &[&Asset]) -> bool {
    doc.has_model_file() && !dropped.is_empty() && dropped.iter().all(|a| crate::io::binds_to_model(a))
}

/// The material remap of skin family `skin` of the asset's model script (empty: every material as it is).
pub fn skin_remap(asset: &Asset, skin: usize) -> Vec<usize> {
    asset.model_script.as_deref().and_then(|s| s.skin_families.get(skin)).map(|f| f.remap.clone()).unwrap_or_default()
}

/// The first root bone's position in the viewer frame, in the pose `to_root`.
pub fn root_of(asset: &Asset, to_root: &[glam::Mat4]) -> Option<glam::Vec3> {
    let root = asset.skeleton.parents.iter().position(Option::is_none)?;
    let m = to_root.get(root)?;
    Some(asset.axes.to_viewer.transform_point3(m.w_axis.truncate()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Format;
    use crate::scene::samples::Sample;
    use crate::scene::samples::demo::demo_asset;
    use crate::ui::state::document::Origin;
    use crate::ui::state::document::SourceFile;

    fn model() -> Document {
        let mut a = demo_asset();
        a.format = Some(Format::Psk);
        let file = SourceFile { path: "hero.psk".into(), format: Format::Psk, size: 0, modified: None };
        Document::new(a, vec![Origin::File(file)], Vec::new(), 1)
    }

    #[test]
    fn animation_files_dropped_on_a_model_bind_and_models_replace() {
        let mut anim = Asset::new(Format::Psa);
        anim.clips = demo_asset().clips;
        let mesh = demo_asset();
        assert!(drop_binds(&model(), &[&anim]));
        assert!(drop_binds(&model(), &[&anim, &anim]));
        // A mesh among the dropped files: a new scene.
        assert!(!drop_binds(&model(), &[&anim, &mesh]));
        // Nothing to bind to on the demo: the animation opens on its own.
        let demo = Document::new(demo_asset(), vec![Origin::Sample(Sample::Demo)], Vec::new(), 1);
        assert!(!drop_binds(&demo, &[&anim]));
        // An empty file set never binds.
        assert!(!drop_binds(&model(), &[]));
        // Vertex animation has a mesh, but it is the model's: a VTA binds too (File › Open of face.vta).
        let mut vta = demo_asset();
        vta.format = Some(Format::Vta);
        assert!(drop_binds(&model(), &[&vta]));
    }
}
