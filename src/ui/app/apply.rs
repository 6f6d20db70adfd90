//! [`ViewerApp::apply`]: the one place where the viewer's state changes. Panels, menus, the keymap and dropped
//! files only push [`Command`]s while the frame is drawn; they are applied here, in order, after it.

use std::path::PathBuf;

use eframe::egui;

use crate::anim::posed_bounds;
use crate::scene::Bounds;

use crate::render::ShadingMode;
use crate::source::Source;
use crate::ui::app::ViewerApp;
use crate::ui::commands::command::{Command, OpenMode, TrackEdit};
use crate::ui::commands::loader::Purpose;
use crate::ui::state::player::TransportMode;
use crate::ui::state::settings::PanelId;
use crate::ui::views::keymap::Action;

impl ViewerApp {
    pub fn apply(&mut self, ctx: &egui::Context, cmd: Command) {
        let asset = &self.view.doc.asset;
        match cmd {
            Command::OpenDialog(mode) => {
                let start_dir = self.view.doc.files.first().and_then(|f| f.path.parent().map(PathBuf::from));
                if let Err(notice) = self.jobs.open_dialog(ctx, mode, start_dir) {
                    self.notify(notice);
                }
            }
            Command::Open { paths, mode } => {
                // An archive (a volume, a game's `Data` folder) shows its models to choose from; another folder
                // opens the model in it (its model script, or its meshes and then its animations).
                let sources: Vec<Source> = paths.iter().cloned().map(Source::File).collect();
                if let Some(root) = super::archive_of(&self.files, &sources) {
                    self.picker = Some(crate::ui::views::model_picker::ModelPicker::new(&self.files, root));
                    return;
                }
                let paths = if paths.iter().any(|p| self.files.is_folder(p)) {
                    crate::source::files_to_open(&self.files, &paths)
                } else {
                    paths
                };
                self.start_load(ctx, paths.into_iter().map(Source::File).collect(), Purpose::Open(mode));
            }
            Command::OpenFolderDialog => {
                if let Err(notice) = self.jobs.open_folder_of_model_dialog(ctx) {
                    self.notify(notice);
                }
            }
            Command::OpenArchiveDialog => {
                if let Err(notice) = self.jobs.open_archive_dialog(ctx) {
                    self.notify(notice);
                }
            }
            Command::ShowModelPicker(root) => {
                self.picker = Some(crate::ui::views::model_picker::ModelPicker::new(&self.files, root));
            }
            Command::CloseModelPicker => self.picker = None,
            Command::OpenSample(sample) => {
                self.start_load(ctx, vec![Source::Sample(sample)], Purpose::Open(OpenMode::Replace));
            }
            Command::Reload => {
                if !self.view.doc.files.is_empty() {
                    self.start_load(ctx, self.view.doc.sources(), Purpose::Reload);
                }
            }
            Command::ExportDialog => {
                if self.view.doc.is_empty() {
                    return;
                }
                let start = self.view.doc.files.first().map(|f| f.path.clone());
                if let Err(notice) = self.jobs.start_export(ctx, &self.view.doc.asset, start) {
                    self.notify(notice);
                }
            }
            Command::SearchBones => {
                self.panels.outliner.focus_search = true;
                self.state.set_panel(PanelId::Outliner, true);
            }
            Command::ClearRecent => self.state.recent.clear(),
            Command::SetRetarget { binding, retarget } => self.set_retarget(binding, retarget),
            Command::AddTextureFolderDialog => {
                if let Err(notice) = self.jobs.open_folder_dialog(ctx) {
                    self.notify(notice);
                }
            }
            Command::AddTextureFolder(dir) => {
                if !self.state.texture_dirs.contains(&dir) {
                    self.state.texture_dirs.push(dir);
                }
                self.reload_for_textures(ctx);
            }
            Command::RemoveTextureFolder(i) => {
                if i < self.state.texture_dirs.len() {
                    self.state.texture_dirs.remove(i);
                    self.reload_for_textures(ctx);
                }
            }
            Command::DismissError => {
                self.messages.errors.clear();
                self.messages.notice = None;
            }
            Command::Orbit { dx, dy } => self.camera.orbit(dx, dy),
            Command::Pan { dx, dy, height } => self.camera.pan(dx, dy, height),
            Command::Zoom(f) => self.camera.zoom(f),
            Command::FrameAll => {
                let view = &self.view;
                self.frame_pose_box(posed_bounds(
                    &view.doc.asset,
                    &view.pose.palette,
                    &view.pose.to_root,
                    &view.hidden_meshes,
                ));
            }
            Command::FrameSelected => {
                if let Some(t) = self.view.selected.and_then(|b| self.view.pose.to_root.get(b)) {
                    let p = asset.axes.to_viewer.transform_point3(t.w_axis.truncate());
                    let r = self.view.doc.bind_bounds.sizing_radius() * 0.25;
                    let keep = self.camera.scene_radius;
                    // A cube whose bounding sphere has radius r around the joint.
                    self.camera.frame_for_orbiting(&Bounds::cube(p, r / 3f32.sqrt()));
                    self.camera.scene_radius = keep;
                }
            }
            Command::View(p) => self.camera.set_preset(p),
            Command::SetUpAxis(up) => self.set_up_axis(up),
            Command::SetFrontHere => {
                self.camera.front_yaw = self.camera.yaw;
                if let Some(model) = self.view.doc.paths().first() {
                    self.state.front_overrides.insert(model.clone(), self.camera.yaw);
                }
                self.notify("Front is now this view (remembered for this file)".to_owned());
            }
            Command::SetFollowRoot(on) => self.state.follow_root = on,
            Command::ToggleProjection => {
                self.camera.orthographic = !self.camera.orthographic;
                self.state.orthographic = self.camera.orthographic;
            }
            Command::SetShading(s) => self.state.shading = s,
            Command::SetOverlay(o, on) => self.state.overlays.set(o, on),
            Command::TogglePlay => self.view.player.toggle_play(asset, self.view.focus_track),
            Command::Seek(t) => self.view.player.seek(asset, self.view.focus_track, t),
            Command::StepFrames(n) => {
                let fps = self.view.player.frame_rate(asset, self.view.focus_track);
                self.view.player.playing = false;
                // Land on frame boundaries of the focus clip.
                let frame = (self.view.player.now(asset, self.view.focus_track) * fps).round() + n as f32;
                self.view.player.seek(asset, self.view.focus_track, frame / fps);
            }
            Command::GoToStart => self.view.player.seek(asset, self.view.focus_track, 0.0),
            Command::GoToEnd => {
                let len = self.view.player.length(asset, self.view.focus_track);
                // In a loop the very end is the start again: stop just before it, on the last frame.
                let end = if self.view.player.mode() == TransportMode::Loop { (len - 1e-4).max(0.0) } else { len };
                self.view.player.seek(asset, self.view.focus_track, end);
            }
            Command::SetSpeed(s) => {
                self.state.speed = s.max(0.0);
                self.view.player.speed = self.state.speed;
            }
            Command::SetPlayback(m) => {
                self.state.playback = m;
                self.view.player.set_mode(m);
            }
            Command::AddTrack => {
                if !asset.clips.is_empty() {
                    let clip = self.view.player.track(self.view.focus_track).and_then(|t| t.clip).unwrap_or(0);
                    let now = self.view.player.now(asset, self.view.focus_track);
                    if let Some(t) = self.view.player.add_track(clip, f64::from(now)) {
                        self.view.focus_track = t;
                    }
                }
            }
            Command::RemoveTrack(i) => {
                self.view.player.remove_track(i);
                self.view.focus_track = self.view.focus_track.min(self.view.player.track_count().saturating_sub(1));
            }
            Command::FocusTrack(i) => self.view.focus_track = i.min(self.view.player.track_count().saturating_sub(1)),
            Command::EditTrack(i, edit) => match edit {
                TrackEdit::Clip(c) => {
                    if c < asset.clips.len() {
                        self.view.player.set_clip(i, c);
                    }
                }
                TrackEdit::Enabled(e) => self.view.player.set_enabled(i, e),
                TrackEdit::Weight(w) => self.view.player.set_weight(i, w),
                TrackEdit::Speed(s) => self.view.player.set_speed(i, s),
                TrackEdit::Position(p) => self.view.player.set_local_time(i, p),
                TrackEdit::Mode(m) => self.view.player.set_mix_mode(i, m),
                TrackEdit::Mask(m) => self.view.player.set_mask(i, m, asset),
                TrackEdit::Solo(on) => self.view.player.set_solo(i, on),
                TrackEdit::Mute(on) => self.view.player.set_mute(i, on),
                TrackEdit::ClearEvents => self.view.player.clear_events(i),
            },
            Command::CrossFade { clip, seconds } => {
                if clip < asset.clips.len()
                    && let Some(t) = self.view.player.cross_fade(clip, seconds)
                {
                    self.view.focus_track = t;
                    self.view.player.playing = true;
                }
            }
            Command::SetCrossFadeSeconds(s) => self.state.cross_fade_seconds = s.max(0.0),
            Command::SetFollowScript(on) => self.view.player.set_follow_script(on),
            Command::SetMorphWeight(slot, w) => self.view.player.morphs.set(slot, w),
            Command::SetMorphOverride(slot, on) => self.view.player.morphs.set_overridden(slot, on),
            Command::ResetMorphs => self.view.player.morphs.reset(),
            Command::ClearCallbackLog => {
                self.view.log.clear();
                self.view.fired_total = 0;
            }
            Command::SelectBone(b) => {
                if b.is_none() {
                    self.view.highlight = None;
                    self.view.picked_vertex = None;
                }
                self.view.selected = b.filter(|&b| b < asset.skeleton.len());
            }
            Command::SetBodyChoice(group, choice) => {
                let choices = &mut self.view.body_choices;
                if choices.len() <= group {
                    choices.resize(group + 1, 0);
                }
                choices[group] = choice;
                self.view.hidden_meshes = asset.hidden_meshes(choices, &self.view.hidden_parts);
            }
            Command::SetSkin(skin) => {
                let families = asset.model_script.as_deref().map_or(0, |s| s.skin_families.len());
                self.view.skin = if skin < families { skin } else { 0 };
                self.view.material_remap = crate::ui::state::document_view::skin_remap(asset, self.view.skin);
            }
            Command::SetController(i, value) => self.view.player.set_controller(i, value),
            Command::SetBlend(p, fraction) => self.view.player.set_blend(p, fraction),
            Command::SetPartVisible(part, visible) => {
                self.view.hidden_parts.retain(|&p| p != part);
                if !visible && part < asset.parts.len() {
                    self.view.hidden_parts.push(part);
                }
                self.view.hidden_meshes = asset.hidden_meshes(&self.view.body_choices, &self.view.hidden_parts);
            }
            Command::PickVertex(picked) => {
                let valid = picked
                    .filter(|(m, v)| asset.meshes.get(*m).is_some_and(|mesh| (*v as usize) < mesh.positions.len()));
                self.view.picked_vertex = valid;
                // Ringed in the viewport like a diagnostics finding's vertex.
                self.view.highlight = valid.map(|(mesh, v)| crate::ui::state::diagnostics::Highlight {
                    mesh,
                    vertices: vec![v],
                    label: format!("vertex {v}"),
                });
                if valid.is_some() {
                    self.state.right_tab = crate::ui::state::settings::RightTab::Inspector;
                    self.state.show_inspector = true;
                }
            }
            Command::SetSkinSelectedOnly(on) => self.state.skin_selected_only = on,
            Command::RunDiagnostics => {
                let waker = ctx.clone();
                self.diagnostics.ensure(&self.view.doc, &self.view.pose.palette, true, move || waker.request_repaint());
            }
            Command::ShowFinding(i) => self.show_finding(i),
            Command::SetPanel(p, shown) => self.state.set_panel(p, shown),
            Command::SetRightTab(t) => {
                self.state.right_tab = t;
                self.state.show_inspector = true;
            }
            Command::ShowHelp(s) => self.show_help = s,
            Command::SetAutoReload(on) => self.state.auto_reload = on,
            Command::SetShowFrames(on) => self.state.show_frames = on,
            Command::SetCullBackFaces(on) => self.state.cull_back_faces = on,
            Command::SetPainterFallback(on) => self.gpu.force_painter = on,
            Command::CopyToClipboard(text) => {
                ctx.copy_text(text);
                self.notify("Copied to the clipboard");
            }
            Command::Quit => self.quit = true,
        }
    }

    /// The command a key press stands for, given what is shown now.
    pub(crate) fn key_command(&self, action: Action) -> Command {
        match action {
            Action::TogglePlay => Command::TogglePlay,
            Action::StepFrames(n) => Command::StepFrames(n),
            Action::GoToStart => Command::GoToStart,
            Action::GoToEnd => Command::GoToEnd,
            Action::FrameAll => Command::FrameAll,
            Action::FrameSelected => Command::FrameSelected,
            Action::View(preset) => Command::View(preset),
            Action::ToggleProjection => Command::ToggleProjection,
            Action::NextShading => {
                let all = ShadingMode::ALL;
                let next = all.iter().position(|s| *s == self.state.shading).map_or(0, |p| (p + 1) % all.len());
                Command::SetShading(all[next])
            }
            Action::ToggleOverlay(o) => Command::SetOverlay(o, !self.state.overlays.get(o)),
            Action::Escape if self.show_help => Command::ShowHelp(false),
            Action::Escape => Command::SelectBone(None),
            Action::OpenDialog => Command::OpenDialog(OpenMode::Auto),
            Action::Reload => Command::Reload,
            Action::ExportDialog => Command::ExportDialog,
            Action::SearchBones => Command::SearchBones,
            Action::ToggleHelp => Command::ShowHelp(!self.show_help),
            Action::Quit => Command::Quit,
        }
    }
}
