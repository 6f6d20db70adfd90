//! How a load becomes the open document (a new scene, animation files bound to the open model, or a reload that
//! keeps the view) and the command line's start-up requests are applied to the first scene; the commands that
//! make the document again (retargeting, the up axis), show a diagnostics finding, or frame the scene.

use std::sync::Arc;

use crate::AppError;
use crate::anim::{Pose, posed_bounds};
use crate::io::{LoadError, LoadOptions, LoadedSet};
use crate::scene::{Asset, Bounds, Retarget};

use super::ViewerApp;
use crate::ui::automation::parse_track_spec;
use crate::ui::commands::command::OpenMode;
use crate::ui::commands::loader::{Assembled, LoadResults, Purpose, assemble};
use crate::ui::state::diagnostics::Highlight;
use crate::ui::state::document::{Document, Origin};
use crate::ui::state::document_view::{drop_binds, root_of};
use crate::ui::state::player::Player;

/// How much of the character a finding's framing shows around the marked place (a fraction of its bind-pose
/// radius): enough to see where on the body it is.
const FINDING_CONTEXT: f32 = 0.35;

impl ViewerApp {
    /// Makes a load's results the open document: a new scene, files bound to the open model, or a reload that
    /// keeps the view. Returns the errors of the files that failed; every other file is in the document. When
    /// nothing loaded (or a reload failed for any file), what was open stays as it was.
    pub(crate) fn apply_loaded(
        &mut self,
        results: LoadResults,
        purpose: Purpose,
        opts: &LoadOptions,
    ) -> Vec<LoadError> {
        let nothing_loaded = results.iter().all(Result::is_err);
        if nothing_loaded || (purpose == Purpose::Reload && results.iter().any(Result::is_err)) {
            return results.into_iter().filter_map(Result::err).collect();
        }
        let bind = match purpose {
            Purpose::Open(OpenMode::Bind) => !self.view.doc.is_empty(),
            Purpose::Open(OpenMode::Auto) => {
                let assets: Vec<&Asset> = results.iter().filter_map(|r| r.as_ref().ok()).map(|l| &l.asset).collect();
                drop_binds(&self.view.doc, &assets)
            }
            Purpose::Open(OpenMode::Replace) | Purpose::Reload => false,
        };
        if bind {
            return self.bind_loaded(results, opts);
        }
        let Assembled { set, origins } = assemble(LoadedSet::default(), results, opts);
        let LoadedSet { asset, reports, errors } = set;
        let Some(mut asset) = asset else { return errors };
        self.view.file_axes = asset.axes;
        let model = origins.iter().find_map(|o| match o {
            Origin::File(f) => Some(f.path.clone()),
            Origin::Sample(_) => None,
        });
        if let Some(up) = model.and_then(|m| self.state.up_overrides.get(&m).copied()) {
            asset.axes = self.view.file_axes.with_file_up(up);
        }
        let generation = self.next_generation();
        self.view.highlight = None;
        self.view.picked_vertex = None;
        let old = std::mem::replace(&mut self.view.doc, Document::new(asset, origins, reports, generation));
        // A reload keeps the body-group choices (a choice the script no longer has shows none of its group).
        if purpose != Purpose::Reload {
            self.view.body_choices.clear();
            self.view.hidden_parts.clear();
            self.view.skin = 0;
        }
        let families = self.view.doc.asset.model_script.as_deref().map_or(0, |s| s.skin_families.len());
        if self.view.skin >= families {
            self.view.skin = 0;
        }
        self.view.material_remap = crate::ui::state::document_view::skin_remap(&self.view.doc.asset, self.view.skin);
        self.view.hidden_meshes = self.view.doc.asset.hidden_meshes(&self.view.body_choices, &self.view.hidden_parts);
        if purpose == Purpose::Reload {
            // Keep the view: selection by name, the clock, tracks whose clips still exist.
            self.view.selected = self
                .view
                .selected
                .and_then(|b| old.asset.skeleton.names.get(b))
                .and_then(|n| self.view.doc.asset.skeleton.find(n));
            self.view.player = self.view.player.carried_over(&self.view.doc.asset);
            self.view.focus_track = self.view.focus_track.min(self.view.player.track_count().saturating_sub(1));
            // Each file keeps the retargeting it was given.
            let kept: Vec<(usize, Retarget)> = (self.view.doc.reports.iter().enumerate())
                .filter_map(|(i, r)| {
                    let before = old.reports.iter().find(|o| o.source == r.source)?;
                    (before.retarget != r.retarget).then(|| (i, before.retarget.clone()))
                })
                .collect();
            for (i, retarget) in kept {
                self.set_retarget(i, retarget);
            }
            self.notify(format!("Reloaded {}", self.view.doc.title()));
        } else {
            let clip = self.script.clip.take().and_then(|name| {
                let found = self.view.doc.asset.clips.iter().position(|c| c.name.eq_ignore_ascii_case(&name));
                if found.is_none() {
                    self.notify(format!("No clip named '{name}'; playing the first clip"));
                }
                found
            });
            self.view.player = Player::for_asset(&self.view.doc.asset, clip, self.state.playback);
            self.view.player.speed = self.state.speed.max(0.0);
            if let Some(t) = self.script.time.take() {
                self.view.player.seek(&self.view.doc.asset, 0, t);
                self.view.player.playing = false;
            }
            self.view.selected = self.script.select.take().and_then(|name| {
                let found = self.view.doc.asset.skeleton.find(&name);
                if found.is_none() {
                    let why = format!("--select: no bone named '{name}'");
                    self.notify(why.clone());
                    self.script.fail_request(why);
                }
                found
            });
            let layout = crate::anim::MorphLayout::of_meshes(&self.view.doc.asset.meshes);
            for setting in std::mem::take(&mut self.script.morphs) {
                let slots = crate::anim::morph::slots_named(&self.view.doc.asset.meshes, &layout, &setting.name);
                if slots.is_empty() {
                    self.notify(crate::anim::morph::unknown_target(&self.view.doc.asset.meshes, &setting.name));
                }
                for slot in slots {
                    self.view.player.morphs.set(slot, setting.weight);
                }
            }
            if let Some(up) = self.script.up.take() {
                self.set_up_axis(Some(up));
            }
            let studio = std::mem::take(&mut self.script.studio);
            for problem in self.apply_studio_requests(studio) {
                self.notify(problem.clone());
                self.script.fail(|| problem);
            }
            self.view.focus_track = 0;
            for spec in std::mem::take(&mut self.script.tracks) {
                if let Err(e) = self.add_track_spec(&spec) {
                    self.notify(e.to_string());
                }
            }
            self.view.log.clear();
            self.panels.timeline.fit = true;
            self.frame_next = true;
            if !self.view.doc.files.is_empty() && self.view.doc.sample.is_none() {
                self.remember_opened();
            }
        }
        self.view.player.evaluate(&mut self.view.pose);
        errors
    }

    /// `--skin`, `--body`, `--controller`, `--blend`: applied as the Files tab's controls would be. Returns what
    /// could not be done (a screenshot run fails on it).
    fn apply_studio_requests(&mut self, requests: crate::ui::automation::StudioRequests) -> Vec<String> {
        let mut problems = Vec::new();
        let asset = self.view.doc.asset.clone();
        let script = asset.model_script.as_deref();
        let (mut sets, mut blends) = (Vec::new(), Vec::new());
        if let Some(skin) = requests.skin {
            let families = script.map_or(0, |s| s.skin_families.len());
            if skin < families.max(1) {
                self.view.skin = skin;
                self.view.material_remap = crate::ui::state::document_view::skin_remap(&asset, skin);
            } else {
                problems.push(format!(
                    "--skin {skin}: the model has {} skin famil{}",
                    families.max(1),
                    if families > 1 { "ies" } else { "y" }
                ));
            }
        }
        for spec in &requests.bodies {
            let found = script.ok_or_else(|| "the model has no body groups".to_owned());
            match found.and_then(|s| s.find_body_choice(spec)) {
                Ok((group, choice)) => {
                    let choices = &mut self.view.body_choices;
                    if choices.len() <= group {
                        choices.resize(group + 1, 0);
                    }
                    choices[group] = choice;
                    self.view.hidden_meshes = asset.hidden_meshes(choices, &self.view.hidden_parts);
                }
                Err(e) => problems.push(format!("--body {spec}: {e}")),
            }
        }
        for spec in &requests.controllers {
            let studio = self.view.player.studio();
            let parsed = spec.split_once('=').and_then(|(n, v)| Some((n, v.trim().parse::<f32>().ok()?)));
            match parsed.map(|(name, value)| (studio.find(name), value)) {
                Some((Some(i), value)) => sets.push((i, value)),
                Some((None, _)) => {
                    let names: Vec<String> = studio.controllers.iter().map(|c| c.label()).collect();
                    problems.push(format!(
                        "--controller {spec}: no such controller; the model has: {}",
                        if names.is_empty() { "none".to_owned() } else { names.join(", ") }
                    ));
                }
                None => problems.push(format!("--controller {spec}: expected NAME=VALUE")),
            }
        }
        if let Some(spec) = &requests.blend {
            let clip = self.view.player.track(0).and_then(|t| t.clip).and_then(|c| asset.clips.get(c));
            let sequence = clip.and_then(|c| script?.sequence(&c.name));
            for (p, word) in spec.split(',').enumerate().take(2) {
                match word.trim().parse::<f32>() {
                    Ok(v) => {
                        let range = sequence.and_then(|s| s.blends.get(p));
                        blends.push((p, crate::anim::studio::blend_fraction(range, v)));
                    }
                    Err(_) => problems.push(format!("--blend {spec}: \"{word}\" is not a number")),
                }
            }
        }
        for (i, value) in sets {
            self.view.player.set_controller(i, value);
        }
        for (p, fraction) in blends {
            self.view.player.set_blend(p, fraction);
        }
        problems
    }

    /// Binds the loaded files to the open model (the document is made again, so vertex animation that adds
    /// morph targets reaches the GPU), keeps the view, and plays the first clip that came with them.
    fn bind_loaded(&mut self, results: LoadResults, opts: &LoadOptions) -> Vec<LoadError> {
        let doc = &self.view.doc;
        let mut origins: Vec<Origin> = doc.sample.map(Origin::Sample).into_iter().collect();
        origins.extend(doc.files.iter().cloned().map(Origin::File));
        let mut reports = doc.reports.clone();
        let first_new_clip = doc.asset.clips.len();
        let model = Arc::unwrap_or_clone(std::mem::take(&mut self.view.doc.asset));
        let Assembled { set, origins: added } = assemble(LoadedSet::onto(model), results, opts);
        let LoadedSet { asset, reports: new_reports, errors } = set;
        let Some(asset) = asset else { return errors };
        origins.extend(added);
        reports.extend(new_reports);
        let generation = self.next_generation();
        self.view.doc = Document::new(asset, origins, reports, generation);
        let asset = &self.view.doc.asset;
        self.view.player = self.view.player.carried_over(asset);
        if first_new_clip < asset.clips.len() {
            // Play what was just bound: on the focus track, or on a new track.
            if self.view.focus_track < self.view.player.track_count() {
                self.view.player.set_clip(self.view.focus_track, first_new_clip);
                self.view.player.clear_events(self.view.focus_track);
            } else if let Some(t) = self.view.player.add_track(first_new_clip, 0.0) {
                self.view.focus_track = t;
            }
            self.view.player.seek(asset, self.view.focus_track, 0.0);
            self.view.player.playing = true;
        }
        self.remember_opened();
        self.view.player.evaluate(&mut self.view.pose);
        errors
    }

    /// Plays the clips of bound file `binding` with `retarget` (the document is made again: the diagnostics and
    /// the player see the new poses), keeping the view.
    pub(crate) fn set_retarget(&mut self, binding: usize, retarget: Retarget) {
        let Some(report) = self.view.doc.reports.get(binding) else { return };
        if report.retarget == retarget {
            return;
        }
        let clips = report.clip_indices();
        let mut asset = Arc::unwrap_or_clone(std::mem::take(&mut self.view.doc.asset));
        for clip in asset.clips.get_mut(clips).into_iter().flatten() {
            // The ground plane is the model's, worked out when the file was bound.
            clip.retarget = Retarget { up: clip.retarget.up, ..retarget.clone() };
        }
        let doc = &self.view.doc;
        let mut origins: Vec<Origin> = doc.sample.map(Origin::Sample).into_iter().collect();
        origins.extend(doc.files.iter().cloned().map(Origin::File));
        let mut reports = doc.reports.clone();
        if let Some(r) = reports.get_mut(binding) {
            r.retarget = retarget;
        }
        let generation = self.next_generation();
        self.view.doc = Document::new(asset, origins, reports, generation);
        self.view.player = self.view.player.carried_over(&self.view.doc.asset);
        self.view.player.evaluate(&mut self.view.pose);
    }

    /// Turns the model so that `up` (an axis of its file) points up, or back to its format's frame (`None`);
    /// remembered for the model file. The document is made again (new poses, GPU upload) and framed anew.
    pub(crate) fn set_up_axis(&mut self, up: Option<crate::scene::UpAxis>) {
        let Some(model) = self.view.doc.paths().first().cloned() else { return };
        match up {
            Some(up) => self.state.up_overrides.insert(model, up),
            None => self.state.up_overrides.remove(&model),
        };
        let mut asset = Arc::unwrap_or_clone(std::mem::take(&mut self.view.doc.asset));
        asset.axes = up.map_or(self.view.file_axes, |up| self.view.file_axes.with_file_up(up));
        let doc = &self.view.doc;
        let mut origins: Vec<Origin> = doc.sample.map(Origin::Sample).into_iter().collect();
        origins.extend(doc.files.iter().cloned().map(Origin::File));
        let reports = doc.reports.clone();
        let generation = self.next_generation();
        self.view.doc = Document::new(asset, origins, reports, generation);
        self.view.player = self.view.player.carried_over(&self.view.doc.asset);
        self.view.player.evaluate(&mut self.view.pose);
        self.frame_next = true;
    }

    fn next_generation(&mut self) -> u64 {
        self.view.generation += 1;
        self.view.generation
    }

    /// Adds a mixer track from a `--track CLIP[@SECONDS][*WEIGHT]` spec.
    fn add_track_spec(&mut self, spec: &str) -> Result<(), AppError> {
        let (name, pos, weight) = parse_track_spec(spec)?;
        let invalid = |why: String| AppError::Invalid(format!("--track '{spec}': {why}"));
        let clip = self
            .view
            .doc
            .asset
            .clips
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| invalid(format!("no clip named '{name}'")))?;
        let t = self.view.player.add_track(clip, f64::from(pos)).ok_or_else(|| invalid("no free track".into()))?;
        self.view.player.set_weight(t, weight);
        Ok(())
    }

    /// Shows what diagnostics finding `i` is about: selects its bone, puts its clip at its moment on the focus
    /// track, marks its vertices.
    pub(crate) fn show_finding(&mut self, i: usize) {
        use crate::anim::diagnostics::Subject;
        let Some(f) = self.diagnostics.findings.get(i).cloned() else { return };
        self.diagnostics.clicked = Some(i);
        let asset = &self.view.doc.asset;
        let bone = match f.subject {
            Subject::Bone(b) => Some(b),
            Subject::Track { clip, track } => {
                asset.clips.get(clip).and_then(|c| c.tracks.get(track)).and_then(|t| asset.skeleton.find(&t.bone_name))
            }
            _ => None,
        };
        if bone.is_some() {
            self.view.selected = bone;
        }
        let clip = match (f.at, f.subject) {
            (Some(at), _) => Some((at.clip, Some(at.time))),
            (None, Subject::Clip(c) | Subject::Track { clip: c, .. }) => Some((c, None)),
            _ => None,
        };
        if let Some((c, time)) = clip.filter(|(c, _)| *c < asset.clips.len()) {
            if self.view.player.track_count() == 0 {
                if let Some(t) = self.view.player.add_track(c, 0.0) {
                    self.view.focus_track = t;
                }
            } else {
                self.view.player.set_clip(self.view.focus_track, c);
            }
            if let Some(t) = time {
                self.view.player.playing = false;
                self.view.player.seek(&self.view.doc.asset, self.view.focus_track, t);
            }
        }
        self.view.highlight = Highlight::of(&f, &self.view.doc.asset);
        // The ring in view: the camera on the marked place, at the finding's moment, with what is around it.
        if let Some(h) = &self.view.highlight {
            let asset = &self.view.doc.asset;
            let palette = match f.at.and_then(|at| asset.clips.get(at.clip).map(|c| (c, at.time))) {
                Some((c, time)) => Pose::from_clip(&asset.skeleton, c, time).palette,
                None => self.view.pose.palette.clone(),
            };
            let character = self.view.doc.bind_bounds.sizing_radius();
            if let Some(region) = h.framing(asset, &palette, character, FINDING_CONTEXT) {
                self.camera.frame_for_orbiting(&region);
            }
        }
    }

    /// The palette the viewport draws: with "skin with the selected bone alone", every entry is that bone's.
    pub(crate) fn update_display_palette(&mut self) {
        self.view.display_palette.clear();
        match self.view.selected.and_then(|b| self.view.pose.palette.get(b)) {
            Some(m) if self.state.skin_selected_only => {
                self.view.display_palette.resize(self.view.pose.palette.len(), *m);
            }
            _ => self.view.display_palette.extend_from_slice(&self.view.pose.palette),
        }
    }

    /// Frames the pose over the focus track's whole clip (sampled), and any recordings.
    /// Turns the camera's presets to the new document's front: the user's override for this file, else the
    /// facing its bones' side names give, else +Z; and looks at it from the front right, a little above.
    pub(crate) fn face_front(&mut self) {
        let model = self.view.doc.paths().first().cloned();
        let remembered = model.and_then(|m| self.state.front_overrides.get(&m).copied());
        let derived = crate::anim::facing::front_direction(&self.view.doc.asset).map(crate::anim::facing::yaw_facing);
        self.camera.front_yaw = remembered.or(derived).unwrap_or(0.0);
        self.camera.yaw = self.camera.front_yaw + 0.5;
    }

    /// Where the root bone is now (viewer frame), for "follow the root".
    pub(crate) fn root_position(&self) -> Option<glam::Vec3> {
        root_of(&self.view.doc.asset, &self.view.pose.to_root)
    }

    /// Frames the focus clip: every pose it takes, sampled. A clip that carries the character far from where it
    /// starts (a run with root motion) would leave it a speck at one end of its path, so such a clip is framed
    /// in place (each pose moved back to where the root is now) and the camera follows its root.
    pub(crate) fn frame_clip(&mut self) {
        let asset = &self.view.doc.asset;
        let now = posed_bounds(asset, &self.view.pose.palette, &self.view.pose.to_root, &self.view.hidden_meshes);
        let root_now = root_of(asset, &self.view.pose.to_root);
        let (mut path, mut in_place) = (now, now);
        let mut root_path = Bounds::EMPTY;
        let clip = self.view.player.track(self.view.focus_track).and_then(|t| t.clip).and_then(|c| asset.clips.get(c));
        if let Some(clip) = clip {
            const SAMPLES: usize = 12;
            for i in 0..=SAMPLES {
                let t = clip.duration * i as f32 / SAMPLES as f32;
                let pose = Pose::from_clip(&asset.skeleton, clip, t);
                let pb = posed_bounds(asset, &pose.palette, &pose.to_root, &self.view.hidden_meshes);
                if pb.is_empty() {
                    continue;
                }
                path.add(pb.min);
                path.add(pb.max);
                let root = root_of(asset, &pose.to_root);
                if let Some(r) = root {
                    root_path.add(r);
                }
                let back = match (root_now, root) {
                    (Some(a), Some(b)) => a - b,
                    _ => glam::Vec3::ZERO,
                };
                in_place.add(pb.min + back);
                in_place.add(pb.max + back);
            }
        }
        // A clip travels when its root goes further than half the character's size (a run loop that covers one
        // and a half body lengths already shrinks the character to a third of the view if framed over its path).
        let travels = !in_place.is_empty()
            && !root_path.is_empty()
            && root_path.size().length() > 0.5 * in_place.size().max_element();
        self.view.follow_clip_root = travels;
        if travels && !self.state.follow_root {
            self.notify("The clip carries the character along: the camera follows its root".to_owned());
        }
        self.frame_pose_box(if travels || self.state.follow_root { in_place } else { path });
    }

    /// Frames `pose_box` (what poses cover) together with the recordings on screen (hands, head); the bind pose
    /// when that is empty.
    pub(crate) fn frame_pose_box(&mut self, pose_box: Bounds) {
        let mut b = pose_box;
        if let Some(r) = self.panels.viewport.pose_bounds {
            b.add(r.min);
            b.add(r.max);
        }
        if b.is_empty() {
            b = self.view.doc.bind_bounds;
        }
        self.camera.frame_for_orbiting(&b);
    }
}

impl ViewerApp {
    /// Puts the open files on the recent list, unless they cannot be opened again from it: files dropped on
    /// the web page live only as long as the page.
    fn remember_opened(&mut self) {
        let paths = self.view.doc.paths();
        #[cfg(target_arch = "wasm32")]
        if paths.iter().any(|p| p.starts_with(crate::ui::web::DROPPED)) {
            return;
        }
        self.state.remember(&paths);
    }
}
