//! What is open: the asset (a model plus the animation files bound to it), the files it came from with their
//! modification times (for reload-on-change), bind reports, and data the panels need often (children lists,
//! bind-pose bounds in the viewer frame). Built on the UI thread from what the loader returns.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use glam::Mat4;

use crate::anim::bounds_of_placed;
use crate::scene::samples::Sample;
use crate::scene::{Asset, BindReport, Bounds, Format};
use crate::source::Source;

/// A file the document was made from.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceFile {
    pub path: PathBuf,
    pub format: Format,
    pub size: u64,
    pub modified: Option<SystemTime>,
}

impl SourceFile {
    pub fn new(path: &Path, format: Format) -> Self {
        // A file inside a VDFS volume: its size from the volume, its time the volume's.
        let meta = std::fs::metadata(crate::files::mount::holder(path)).ok();
        let size = match crate::files::Files::disk().kind(path) {
            Ok(crate::files::Kind::File { len }) => len,
            _ => meta.as_ref().map_or(0, |m| m.len()),
        };
        Self { path: path.to_path_buf(), format, size, modified: meta.and_then(|m| m.modified().ok()) }
    }

    /// The file name for display.
    pub fn name(&self) -> String {
        display_name(&self.path)
    }
}

/// The last component of a path, for labels.
pub fn display_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// What one bone does to the meshes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BoneInfluence {
    /// Vertices with a weight above zero on the bone.
    pub vertices: usize,
    /// The sum of those weights.
    pub weight: f32,
}

/// [`BoneInfluence`] of every bone, in one pass over the vertices.
pub fn bone_influence(asset: &Asset) -> Vec<BoneInfluence> {
    let mut out = vec![BoneInfluence::default(); asset.skeleton.len()];
    for m in &asset.meshes {
        for (j, w) in m.joints.iter().zip(&m.weights) {
            for k in 0..4 {
                let Some(b) = out.get_mut(usize::from(j[k])).filter(|_| w[k] > 0.0) else { continue };
                b.weight += w[k];
                // A bone named in two slots of one vertex counts that vertex once.
                if !(0..k).any(|e| j[e] == j[k] && w[e] > 0.0) {
                    b.vertices += 1;
                }
            }
        }
    }
    out
}

/// Where a loaded asset came from.
#[derive(Clone, Debug, PartialEq)]
pub enum Origin {
    File(SourceFile),
    Sample(Sample),
}

/// What is open. Before anything is, and after the first load failed, the viewer holds [`Document::empty`].
pub struct Document {
    /// Shared with the workers that read it (diagnostics, export) without copying; changed only by binding
    /// more animation files to it, copy-on-write.
    pub asset: Arc<Asset>,
    /// The built-in sample the scene was opened from, when it was (its model is then made by code).
    pub sample: Option<Sample>,
    /// The files it was read from: the model first, then bound animation files (after a sample: only what was
    /// bound to it).
    pub files: Vec<SourceFile>,
    pub reports: Vec<BindReport>,
    pub children: Vec<Vec<usize>>,
    pub roots: Vec<usize>,
    /// Bind pose (mesh and joints) in the viewer frame.
    pub bind_bounds: Bounds,
    /// The skeleton's bind pose, to-root per bone (file frame).
    pub bind_to_root: Vec<Mat4>,
    /// Per bone: how many vertices it moves (weight > 0) over all meshes, and the sum of those weights. Counted
    /// once per load for the inspector and the outliner's marks.
    pub influence: Vec<BoneInfluence>,
    /// Per joint: the bind-pose distance to its nearest other joint, so the skeleton overlay draws the joints of
    /// a dense rig (a face's) small enough to see the face ([`crate::render::overlay::joint_marker_sizes`]).
    pub joint_spacing: Vec<f32>,
    /// Skinning palette of the bind pose (`to-root(bind) × offset`): identity for a consistent rig, so the
    /// bind-pose ghost shows exactly where an inconsistent one moves the mesh.
    pub bind_palette: Vec<Mat4>,
    /// Distinguishes one load from the next (GPU uploads and caches key on it).
    pub generation: u64,
}

impl Document {
    /// Nothing open.
    pub fn empty() -> Self {
        Self::new(Asset::default(), Vec::new(), Vec::new(), 0)
    }

    /// A document of `asset`, opened from `origins` (the model's first, then the bound files').
    pub fn new(asset: Asset, origins: Vec<Origin>, reports: Vec<BindReport>, generation: u64) -> Self {
        let mut sample = None;
        let mut files = Vec::new();
        for origin in origins {
            match origin {
                Origin::File(f) => files.push(f),
                Origin::Sample(s) => sample = sample.or(Some(s)),
            }
        }
        let children = asset.skeleton.children();
        let roots = (0..asset.skeleton.len())
            .filter(|&i| asset.skeleton.parents[i].is_none_or(|p| p >= i || p >= asset.skeleton.len()))
            .collect();
        let bind_to_root = asset.skeleton.bind_to_root();
        let bind_bounds = bounds_of_placed(&asset, &bind_to_root, asset.meshes.iter().map(|m| m.positions.as_slice()));
        let bind_palette =
            bind_to_root.iter().zip(&asset.skeleton.inverse_bind).map(|(to_root, offset)| *to_root * *offset).collect();
        let influence = bone_influence(&asset);
        let joint_spacing = crate::render::overlay::joint_spacing(&bind_to_root);
        Self {
            asset: Arc::new(asset),
            sample,
            files,
            reports,
            children,
            roots,
            bind_bounds,
            bind_to_root,
            bind_palette,
            influence,
            joint_spacing,
            generation,
        }
    }

    /// Nothing to show: no skeleton, mesh or recording (before the first load, or after it failed).
    pub fn is_empty(&self) -> bool {
        self.asset.skeleton.is_empty() && self.asset.meshes.is_empty() && self.asset.recordings.is_empty()
    }

    /// A model read from a file is open (animation files dropped on the window bind to it).
    pub fn has_model_file(&self) -> bool {
        self.sample.is_none() && !self.files.is_empty() && !self.asset.skeleton.is_empty()
    }

    /// Window-title name: the model, and what joined it: its parts (a modular character's shirt, a head) and
    /// its animation files. Files that did not join are not counted.
    pub fn title(&self) -> String {
        let (model, bound) = match (self.sample, self.files.split_first()) {
            (Some(sample), _) => (sample.title().to_owned(), self.files.len()),
            (None, Some((model, rest))) => (model.name(), rest.len()),
            (None, None) if self.is_empty() => return "nothing open".to_owned(),
            (None, None) => return "made by code".to_owned(),
        };
        let joined = self.reports.iter().filter(|r| r.not_joined.is_none());
        let parts = joined.filter(|r| r.part.is_some()).count().min(bound);
        let animations = bound - parts;
        let mut title = model;
        if parts > 0 {
            title += &format!(" + {parts} part{}", if parts == 1 { "" } else { "s" });
        }
        if animations > 0 {
            title += &format!(" + {animations} animation file{}", if animations == 1 { "" } else { "s" });
        }
        title
    }

    pub fn paths(&self) -> Vec<PathBuf> {
        self.files.iter().map(|f| f.path.clone()).collect()
    }

    /// What to open again to reload the document: the sample, then the files.
    pub fn sources(&self) -> Vec<Source> {
        self.sample
            .map(Source::Sample)
            .into_iter()
            .chain(self.files.iter().map(|f| Source::File(f.path.clone())))
            .collect()
    }

    /// The ancestors of `bone`, nearest first.
    pub fn ancestors(&self, bone: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut cur = self.asset.skeleton.parents.get(bone).copied().flatten();
        while let Some(p) = cur {
            if out.contains(&p) || out.len() > self.asset.skeleton.len() {
                break;
            }
            out.push(p);
            cur = self.asset.skeleton.parents.get(p).copied().flatten();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::samples::demo::demo_asset;

    #[test]
    fn demo_document_has_one_root_and_upright_bounds() {
        let doc = Document::new(demo_asset(), vec![Origin::Sample(Sample::Demo)], Vec::new(), 1);
        assert_eq!(doc.roots, vec![0]);
        assert_eq!(doc.children[0], vec![1]);
        // The demo stalk stands on the ground, 6 units tall.
        let b = doc.bind_bounds;
        assert!(b.min.y > -0.01 && (b.max.y - 6.0).abs() < 0.2, "{b:?}");
        assert_eq!(doc.ancestors(3), vec![2, 1, 0]);
        assert_eq!(doc.title(), "built-in demo");
    }

    #[test]
    fn the_title_counts_the_parts_and_animation_files_that_joined() {
        let file = |name: &str, format| Origin::File(SourceFile { path: name.into(), format, size: 0, modified: None });
        let part = BindReport { part: Some(crate::scene::PartReport::default()), ..BindReport::default() };
        let walk = BindReport { clips: vec!["walk".into()], ..BindReport::default() };
        let not_joined = BindReport { not_joined: Some("another skeleton".into()), ..BindReport::default() };
        let origins = vec![
            file("body.psk", Format::Psk),
            file("shirt.psk", Format::Psk),
            file("walk.psa", Format::Psa),
            file("run.psa", Format::Psa),
        ];
        // A file that did not join has a report (it says why) but is not one of the document's files.
        let reports = vec![part, walk.clone(), not_joined, walk];
        let doc = Document::new(demo_asset(), origins, reports, 1);
        assert_eq!(doc.title(), "body.psk + 1 part + 2 animation files");
        let alone = Document::new(demo_asset(), vec![file("body.psk", Format::Psk)], Vec::new(), 1);
        assert_eq!(alone.title(), "body.psk");
    }

    #[test]
    fn bone_influence_counts_vertices_once_and_sums_weights() {
        let mut asset = demo_asset();
        let m = &mut asset.meshes[0];
        m.joints.truncate(3);
        m.weights.truncate(3);
        m.positions.truncate(3);
        m.joints[..3].copy_from_slice(&[[1, 2, 0, 0], [1, 1, 0, 0], [3, 0, 0, 0]]);
        m.weights[..3].copy_from_slice(&[[0.75, 0.25, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]]);
        let inf = bone_influence(&asset);
        assert_eq!(inf[1], BoneInfluence { vertices: 2, weight: 1.75 });
        assert_eq!(inf[2], BoneInfluence { vertices: 1, weight: 0.25 });
        assert_eq!(inf[3], BoneInfluence { vertices: 1, weight: 1.0 });
        // Bone 0 appears only with weight 0.
        assert_eq!(inf[0], BoneInfluence::default());
    }
}
