//! The eframe application, [`ViewerApp`]: its struct and every `impl ViewerApp` are in this folder and nowhere
//! else:
//! - `mod.rs` (this file): the parts held together and the frame: finished jobs are picked up and their
//!   outcomes applied, changed files are reloaded, dropped files and key presses become commands, the player
//!   advances and the pose is evaluated, the views are drawn, the commands are applied, and a pending
//!   `--screenshot` is taken;
//! - `apply.rs`: [`ViewerApp::apply`], the one place where a [`Command`] changes state;
//! - `document.rs`: how a load becomes the open document, and the commands that make it again or frame it.
//!
//! The state it holds is `ui::state`, the views it draws `ui::views`, the jobs it runs `ui::commands::jobs`.

mod apply;
mod document;

use std::path::PathBuf;
use std::time::Duration;

use web_time::Instant;

use eframe::egui;

use crate::anim::recording::{RecordingPose, evaluate as evaluate_recording};
use crate::io::LoadError;
use crate::render::camera::OrbitCamera;
use crate::scene::samples::Sample;
use crate::source::Source;

use crate::ui::ViewerArgs;
use crate::ui::automation::{Outcome, Script};
use crate::ui::commands::command::{Command, OpenMode};
use crate::ui::commands::jobs::{JobOutcome, Jobs, job_text};
use crate::ui::commands::loader::{LoadJob, Purpose};
use crate::ui::state::diagnostics::Diagnostics;
use crate::ui::state::document_view::DocumentView;
use crate::ui::state::frame_clock::FrameClock;
use crate::ui::state::settings::{RightTab, STORAGE_KEY, UiState};
use crate::ui::views::diagnostics::{self, DiagnosticsFilter};
use crate::ui::views::gpu::GpuState;
use crate::ui::views::inspector;
use crate::ui::views::keymap;
use crate::ui::views::outliner::{self, OutlinerView};
use crate::ui::views::recording_view::{self, RecordingView};
use crate::ui::views::timeline::{self, TimelineView};
use crate::ui::views::viewport::{self, StatusInfo, ViewportCache};
use crate::ui::views::{menu, windows};

/// The viewer.
pub struct ViewerApp {
    /// What survives a restart: recent files, panel visibility, viewport and playback options.
    pub(super) state: UiState,
    pub(super) gpu: GpuState,
    pub(super) view: DocumentView,
    pub(super) camera: OrbitCamera,
    pub(super) jobs: Jobs,
    pub(super) diagnostics: Diagnostics,
    pub(super) panels: PanelViews,
    pub(super) messages: Messages,
    pub(super) script: Script,
    pub(super) clock: FrameClock,
    pub(super) show_help: bool,
    /// Texture folders given on the command line (`--textures`), searched before those of Settings.
    pub(super) cli_textures: Vec<PathBuf>,
    /// The retargeting of files opened from now on (`--retarget`, `--root`); each binding's can be changed.
    pub(super) cli_retarget: crate::scene::Retarget,
    /// Where files are read from (the disk; the web page's own files).
    pub(super) files: crate::files::Files,
    /// The models of an opened archive, to choose from.
    pub(super) picker: Option<crate::ui::views::model_picker::ModelPicker>,
    /// Frame the scene on the next frame (a new scene was opened).
    pub(super) frame_next: bool,
    pub(super) quit: bool,
}

/// What the panels keep between frames (scroll positions, filters, caches).
#[derive(Default)]
pub struct PanelViews {
    pub viewport: ViewportCache,
    pub timeline: TimelineView,
    pub outliner: OutlinerView,
    pub recording: RecordingView,
    pub morphs: crate::ui::views::morphs::MorphsView,
    pub diagnostics: DiagnosticsFilter,
}

/// What the viewer tells the user: the last load's errors, one per file that failed (a window until dismissed),
/// and the notice line.
pub struct Messages {
    pub errors: Vec<LoadError>,
    pub notice: Option<String>,
    /// When the notice appeared: notices go away by themselves after a while.
    pub since: Instant,
}

impl ViewerApp {
    pub fn new(cc: &eframe::CreationContext<'_>, args: ViewerArgs, outcome: Outcome, launched: Instant) -> Self {
        let script = Script::new(&args, outcome, launched);
        let mut state = if script.is_automated() {
            // Automated screenshots must not depend on the user's saved settings.
            UiState::default()
        } else {
            cc.storage.and_then(|s| eframe::get_value::<UiState>(s, STORAGE_KEY)).unwrap_or_default()
        };
        if let Some(s) = args.shading {
            state.shading = s;
        }
        if let Some(tab) = args.tab {
            state.right_tab = tab;
            state.show_inspector = true;
        }
        if args.ghost {
            state.overlays.bind_ghost = true;
        }
        if args.hitboxes {
            state.overlays.script_shapes = true;
        }
        let mut gpu = GpuState::new(cc.wgpu_render_state.as_ref());
        crate::ui::views::gpu::install_flat_fills(&cc.egui_ctx, cc.wgpu_render_state.as_ref());
        if crate::ui::views::gpu::software_only() {
            // Shadows are wide feathered meshes drawn through egui's textured, blended fill shader, which a CPU
            // rasteriser runs slowly per pixel (BENCHMARKS.md); menus and the viewport's toolbar go without.
            cc.egui_ctx.all_styles_mut(|style| {
                style.visuals.popup_shadow = egui::Shadow::NONE;
                style.visuals.window_shadow = egui::Shadow::NONE;
            });
        }
        if let Some(why) = &gpu.unavailable {
            eprintln!("bonescope: drawing with the egui painter: {why}");
        }
        if gpu.palette_path == Some(crate::render::PalettePath::DataTextures) {
            eprintln!(
                "bonescope: this GPU's vertex stage cannot read storage buffers: the renderer reads the palettes \
                 from textures and measures the stretch view on the CPU"
            );
        }
        gpu.force_painter = args.painter;
        match args.theme {
            Some(crate::ui::Theme::Dark) => cc.egui_ctx.set_theme(egui::ThemePreference::Dark),
            Some(crate::ui::Theme::Light) => cc.egui_ctx.set_theme(egui::ThemePreference::Light),
            Some(crate::ui::Theme::System) => cc.egui_ctx.set_theme(egui::ThemePreference::System),
            None => {}
        }
        let view = DocumentView::new(state.playback, state.speed);
        // Without files the viewer opens on the demo character.
        let mut sources =
            if args.files.is_empty() { vec![Source::Sample(Sample::Demo)] } else { Source::from_args(&args.files) };
        // An archive given alone: its models to choose from, nothing loaded yet.
        let picker = archive_of(&args.file_access, &sources)
            .map(|root| crate::ui::views::model_picker::ModelPicker::new(&args.file_access, root));
        if picker.is_some() {
            sources.clear();
        }
        let ctx = cc.egui_ctx.clone();
        let cli_retarget = crate::scene::Retarget {
            translation: args.retarget.unwrap_or_default(),
            root: args.root.unwrap_or_default(),
            ..Default::default()
        };
        let options = crate::io::LoadOptions {
            files: args.file_access.clone(),
            ..crate::ui::commands::jobs::viewer_load_options(&args.textures, &cli_retarget, &state)
        };
        if let Some(rs) = cc.wgpu_render_state.as_ref().filter(|_| gpu.renderer) {
            crate::render::viewport::with_renderer(rs, |r| r.set_files(args.file_access.clone()));
        }
        let jobs = if sources.is_empty() {
            Jobs::default()
        } else {
            Jobs::loading(LoadJob::spawn(sources, Purpose::Open(OpenMode::Replace), options, move || {
                ctx.request_repaint()
            }))
        };
        Self {
            state,
            gpu,
            view,
            // The viewer's opening angles: from the front right, a little above.
            camera: OrbitCamera { yaw: 0.5, pitch: 0.25, ..OrbitCamera::default() },
            jobs,
            diagnostics: Diagnostics::default(),
            panels: PanelViews::default(),
            messages: Messages { errors: Vec::new(), notice: None, since: Instant::now() },
            script,
            clock: FrameClock::default(),
            show_help: false,
            cli_textures: args.textures.clone(),
            cli_retarget,
            files: args.file_access.clone(),
            picker,
            frame_next: false,
            quit: false,
        }
    }

    /// Shows a short message at the bottom of the window for a while.
    pub fn notify(&mut self, text: impl Into<String>) {
        let text = text.into();
        if self.script.is_automated() {
            // Automated runs have no one watching the window: say it where the caller can read it.
            eprintln!("bonescope: {text}");
        }
        self.messages.notice = Some(text);
        self.messages.since = Instant::now();
    }

    /// Key presses of the keymap and files dropped on the window, as commands.
    fn input_commands(&mut self, ctx: &egui::Context, cmds: &mut Vec<Command>) {
        let paths: Vec<PathBuf> = ctx.input(|i| i.raw.dropped_files.iter().map(|f| f.path().to_path_buf()).collect());
        if !paths.is_empty() {
            cmds.push(Command::Open { paths, mode: OpenMode::Auto });
        }
        #[cfg(target_arch = "wasm32")]
        if let Some((paths, mode)) = crate::ui::web::take_pending() {
            cmds.push(Command::Open { paths, mode });
        }
        let typing = ctx.egui_wants_keyboard_input();
        for action in ctx.input_mut(|i| keymap::dispatch(i, typing)) {
            cmds.push(self.key_command(action));
        }
    }

    /// The status line's clip: the first track's clip and its local time.
    fn first_track_clip(&self) -> Option<String> {
        let track = self.view.player.track(0)?;
        let clip = self.view.doc.asset.clips.get(track.clip?)?;
        Some(format!("{} {:.2} / {:.2} s", clip.name, track.local_time, clip.duration))
    }

    /// `--finding N`: once the first scene's diagnostics are in, shows that finding.
    fn scripted_finding(&mut self) {
        let doc = &self.view.doc;
        let checked = self.diagnostics.generation == doc.generation && !self.diagnostics.running();
        if self.jobs.load.is_some() || doc.generation == 0 || !checked {
            return;
        }
        let Some(i) = self.script.finding.take() else { return };
        if i < self.diagnostics.findings.len() {
            self.show_finding(i);
        } else {
            self.notify(format!("--finding {i}: there are {} findings", self.diagnostics.findings.len()));
        }
    }

    /// Does what a finished job asks.
    fn take_outcome(&mut self, ctx: &egui::Context, outcome: JobOutcome) {
        match outcome {
            JobOutcome::Loaded { results, purpose, options } => {
                let errors = self.apply_loaded(results, purpose, &options);
                for e in &errors {
                    self.script.fail(|| format!("load failed: {e}"));
                }
                self.messages.errors = errors;
            }
            JobOutcome::Load { sources, purpose } => self.start_load(ctx, sources, purpose),
            JobOutcome::Reload => self.start_load(ctx, self.view.doc.sources(), Purpose::Reload),
            JobOutcome::Apply(cmd) => self.apply(ctx, cmd),
            JobOutcome::Notice(text) => self.notify(text),
        }
    }

    /// Starts loading `sources` with the viewer's load options; an archive opened shows its models to choose from
    /// instead.
    pub(super) fn start_load(&mut self, ctx: &egui::Context, sources: Vec<Source>, purpose: Purpose) {
        if matches!(purpose, Purpose::Open(_))
            && let Some(root) = archive_of(&self.files, &sources)
        {
            self.picker = Some(crate::ui::views::model_picker::ModelPicker::new(&self.files, root));
            return;
        }
        let options = self.load_options();
        self.jobs.start_load(ctx, sources, purpose, options);
    }

    /// The options every load of the viewer uses.
    fn load_options(&self) -> crate::io::LoadOptions {
        crate::io::LoadOptions {
            files: self.files.clone(),
            ..crate::ui::commands::jobs::viewer_load_options(&self.cli_textures, &self.cli_retarget, &self.state)
        }
    }

    /// Opens the document again so that its textures are looked for in the texture folders as they are now.
    pub(super) fn reload_for_textures(&mut self, ctx: &egui::Context) {
        if !self.view.doc.files.is_empty() && self.jobs.load.is_none() {
            self.start_load(ctx, self.view.doc.sources(), Purpose::Reload);
        }
    }

    fn right_panel(&mut self, ui: &mut egui::Ui, cmds: &mut Vec<Command>) {
        ui.horizontal_wrapped(|ui| {
            for tab in RightTab::ALL {
                // The Recording tab only where there is a recording (or it is the one open).
                if tab == RightTab::Recording
                    && self.view.doc.asset.recordings.is_empty()
                    && self.state.right_tab != RightTab::Recording
                {
                    continue;
                }
                // The Morphs tab only where a mesh has morph targets (or it is the one open).
                if tab == RightTab::Morphs && self.view.player.morphs.is_empty() && self.state.right_tab != tab {
                    continue;
                }
                let label = match tab {
                    RightTab::Diagnostics => diagnostics::tab_label(&self.diagnostics),
                    _ => tab.label().to_owned(),
                };
                if ui.selectable_label(self.state.right_tab == tab, label).clicked() {
                    cmds.push(Command::SetRightTab(tab));
                }
            }
        });
        ui.separator();
        match self.state.right_tab {
            RightTab::Inspector => {
                if let Some(picked) = self.view.picked_vertex {
                    crate::ui::views::vertex_pick::show(ui, &self.view.doc.asset, &self.view.pose, picked);
                    ui.separator();
                }
                inspector::bone(ui, &self.view.doc, &self.view.pose, self.view.selected, &self.state, cmds);
            }
            RightTab::Callbacks => {
                crate::ui::views::mixer::callback_log(ui, &self.view.log, self.view.fired_total, cmds)
            }
            RightTab::Diagnostics => {
                diagnostics::show(ui, &self.diagnostics, &mut self.panels.diagnostics, &self.view.doc, cmds)
            }
            RightTab::Recording => {
                let now = self.view.recording_poses.first().map_or(0.0, |p| p.time);
                recording_view::show(ui, &mut self.panels.recording, &self.view.doc, now, cmds);
            }
            RightTab::Morphs => crate::ui::views::morphs::show(
                ui,
                &mut self.panels.morphs,
                &self.view.doc.asset,
                &self.view.player.morphs,
                cmds,
            ),
            RightTab::Files => {
                crate::ui::views::body_groups::show_parts(ui, &self.view.doc.asset, &self.view.hidden_parts, cmds);
                crate::ui::views::body_groups::show(ui, &self.view.doc.asset, &self.view.body_choices, cmds);
                crate::ui::views::studio_controls::show(
                    ui,
                    &self.view.doc.asset,
                    self.view.skin,
                    &self.view.player,
                    self.view.focus_track,
                    cmds,
                );
                inspector::files(ui, &self.view.doc, self.view.selected, cmds);
                crate::ui::views::model_script_view::show(ui, self.view.doc.asset.model_script.as_deref());
            }
        }
    }
}

impl ViewerApp {
    /// The status line's word on the up axis where it is not the format's convention: set by hand (View › Up
    /// axis, `--up`), or taken from the character's own bones when the convention would lay it down.
    fn up_axis_status(&self) -> Option<String> {
        let model = self.view.doc.paths().first().cloned();
        if let Some(up) = model.and_then(|m| self.state.up_overrides.get(&m).copied()) {
            return Some(format!("up: file {} (set by hand)", up.label()));
        }
        let reading = self.view.doc.asset.readings.iter().find(|r| r.topic == crate::scene::Reading::UP_AXIS)?;
        let axis = reading.choice.trim_start_matches("the file's ").trim_end_matches(" is up");
        Some(format!("up: file {axis} (its head stands above its feet there; View › Up axis or --up to change)"))
    }

    /// `count` summed over the meshes the viewport draws (not hidden by a body-group choice).
    fn shown_mesh_sum(&self, count: fn(&crate::scene::Mesh) -> usize) -> usize {
        let hidden = &self.view.hidden_meshes;
        self.view.doc.asset.meshes.iter().enumerate().filter(|(i, _)| !hidden.contains(i)).map(|(_, m)| count(m)).sum()
    }
}

impl eframe::App for ViewerApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.gpu.sync(frame.wgpu_render_state(), &self.view.doc);
        let dt = self.clock.tick(Instant::now(), self.script.is_automated());

        let shown = self.jobs.load.is_none() && self.view.doc.generation > 0;
        self.script.report_timing(shown.then(|| self.view.doc.title()).as_deref());
        if let Some(outcome) = self.jobs.poll_load() {
            self.take_outcome(&ctx, outcome);
        }
        if let Some(outcome) = self.jobs.poll_export() {
            self.take_outcome(&ctx, outcome);
        }
        self.diagnostics.poll(self.view.doc.generation);
        self.scripted_finding();
        if self.jobs.load.is_none() {
            let waker = ctx.clone();
            self.diagnostics.ensure(&self.view.doc, &self.view.pose.palette, false, move || {
                waker.request_repaint();
            });
        }
        if let Some(outcome) = self.jobs.poll_dialog() {
            self.take_outcome(&ctx, outcome);
        }
        if let Some(outcome) = self.jobs.poll_folder_dialog() {
            self.take_outcome(&ctx, outcome);
        }
        for outcome in self.jobs.poll_changes(&ctx, self.view.doc.paths(), self.state.auto_reload) {
            self.take_outcome(&ctx, outcome);
        }
        let mut cmds = Vec::new();
        self.input_commands(&ctx, &mut cmds);

        // Animation.
        let view = &mut self.view;
        let mut fired = Vec::new();
        if view.player.playing {
            let fps = view.player.frame_rate(&view.doc.asset, view.focus_track);
            let track_speed = view.player.track(view.focus_track).map_or(1.0, |t| t.speed.abs());
            self.clock.count_skipped(dt * view.player.speed * track_speed * fps);
        }
        if let Some(next) = view.player.advance(&view.doc.asset, view.focus_track, dt, |f| fired.push(f)) {
            // The script's next clip took over: the timeline follows it.
            view.focus_track = next;
        }
        for f in fired {
            view.record(f);
        }
        let root_before = self.root_position();
        self.view.player.evaluate(&mut self.view.pose);
        if (self.state.follow_root || self.view.follow_clip_root)
            && let (Some(before), Some(after)) = (root_before, self.root_position())
        {
            // The camera keeps its offset from the root: the character stays where it is on screen.
            self.camera.target += after - before;
        }
        self.update_display_palette();
        let view = &mut self.view;
        view.recording_poses.resize_with(view.doc.asset.recordings.len(), RecordingPose::default);
        for (rec, pose) in view.doc.asset.recordings.iter().zip(&mut view.recording_poses) {
            evaluate_recording(rec, view.player.recording_time(rec.duration), pose);
        }

        let loading = self.jobs.load.as_ref().map(|job| windows::Loading {
            text: job_text(job),
            fraction: job.progress.fraction(),
            elapsed: job.elapsed(),
        });
        egui::Panel::top("menu").frame(unfilled_panel_frame(ui)).show(ui, |ui| {
            let input = menu::MenuInput {
                doc: &self.view.doc,
                state: &self.state,
                file_axes: &self.view.file_axes,
                gpu_renderer: self.gpu.renderer,
                force_painter: self.gpu.force_painter,
                cli_textures: &self.cli_textures,
                exporting: self.jobs.export.is_some(),
                picking_folder: self.jobs.folder.is_some(),
                loading: loading.as_ref().map(|l| l.text.as_str()),
            };
            menu::show(ui, &input, &mut cmds);
        });
        if self.state.show_timeline {
            egui::Panel::bottom("timeline")
                .frame(unfilled_panel_frame(ui))
                .resizable(true)
                .default_size(195.0)
                .min_size(120.0)
                .show(ui, |ui| {
                    let input = timeline::TimelineInput {
                        doc: &self.view.doc,
                        player: &self.view.player,
                        state: &self.state,
                        focus: self.view.focus_track,
                        selected: self.view.selected,
                    };
                    timeline::show(ui, &input, &mut self.panels.timeline, &mut cmds);
                });
        }
        if self.state.show_outliner {
            egui::Panel::left("outliner")
                .frame(unfilled_panel_frame(ui))
                .resizable(true)
                .default_size(270.0)
                .min_size(150.0)
                .show(ui, |ui| {
                    let clip = self.view.player.track(self.view.focus_track).and_then(|t| t.clip);
                    outliner::show(ui, &self.view.doc, self.view.selected, clip, &mut self.panels.outliner, &mut cmds);
                });
        }
        if self.state.show_inspector {
            // Capped, and its text wraps: a long line in a tab (an axis conversion, a file path) must not widen the
            // panel from one tab to the next and squeeze the viewport and its status line.
            let max_width = (ui.available_width() * 0.4).max(320.0);
            egui::Panel::right("inspector")
                .frame(unfilled_panel_frame(ui))
                .resizable(true)
                .default_size(430.0_f32.min(max_width))
                .min_size(220.0)
                .max_size(max_width)
                .show(ui, |ui| {
                    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
                    self.right_panel(ui, &mut cmds);
                });
        }
        self.camera.orthographic = self.state.orthographic;
        let status = StatusInfo {
            fps: self.clock.fps,
            skipped_frames: self.clock.skipped_frames,
            // What the viewport shows: body-group choices not shown are not counted (a Gothic MDS registers
            // every body of its characters; one set is drawn).
            triangles: self.shown_mesh_sum(crate::scene::Mesh::triangle_count),
            vertices: self.shown_mesh_sum(crate::scene::Mesh::vertex_count),
            bones: self.view.doc.asset.skeleton.len(),
            // A browser does not name its adapter (the backend says WebGPU or WebGL).
            adapter: match (self.gpu.adapter.is_empty(), self.gpu.backend.is_empty()) {
                (_, true) => self.gpu.adapter.clone(),
                (true, false) => self.gpu.backend.clone(),
                (false, false) => format!("{} · {}", self.gpu.adapter, self.gpu.backend),
            },
            renderer: self.gpu.renderer_name(),
            clip: self.first_track_clip(),
            up: self.up_axis_status(),
        };
        #[cfg(target_arch = "wasm32")]
        {
            let selected = self.view.selected.and_then(|b| self.view.doc.asset.skeleton.names.get(b));
            crate::ui::web::show_status(&status.text(selected.map(String::as_str)), self.jobs.load.is_some());
        }
        let mut viewport_rect = egui::Rect::NOTHING;
        egui::CentralPanel::no_frame().show(ui, |ui| {
            let input = viewport::ViewInput {
                doc: &self.view.doc,
                pose: &self.view.pose,
                palette: &self.view.display_palette,
                highlight: self.view.highlight.as_ref(),
                hover_labels: self.script.screenshot.is_none(),
                state: &self.state,
                camera: &self.camera,
                selected: self.view.selected,
                recordings: &self.view.recording_poses,
                status: &status,
                gpu_model: if self.gpu.active() { self.gpu.model() } else { None },
                hidden_meshes: &self.view.hidden_meshes,
                material_remap: &self.view.material_remap,
            };
            viewport_rect = viewport::show(ui, &input, &mut self.panels.viewport, &mut cmds);
            windows::empty_hint(ui, viewport_rect, self.jobs.load.is_some(), &self.view.doc);
        });
        let input = windows::WindowsInput {
            show_help: self.show_help,
            errors: &self.messages.errors,
            notice: self.messages.notice.as_deref(),
            doc: &self.view.doc,
            loading: loading.as_ref(),
        };
        windows::show(&ctx, &input, viewport_rect, &mut cmds);
        if let Some(picker) = &mut self.picker {
            crate::ui::views::model_picker::show(&ctx, picker, &mut cmds);
        }

        if self.frame_next {
            // A new scene: frame the whole first clip, so that the animation stays in view.
            self.frame_next = false;
            self.face_front();
            if let Some(view) = self.script.view.take() {
                self.camera.set_preset(view);
            }
            self.frame_clip();
            if let Some(z) = self.script.zoom.take() {
                // Zoom towards the selection (`--select`), not the middle of the screen.
                if let Some(t) = self.view.selected.and_then(|b| self.view.pose.to_root.get(b)) {
                    self.camera.target = self.view.doc.asset.axes.to_viewer.transform_point3(t.w_axis.truncate());
                }
                self.camera.zoom(1.0 / z);
            }
        }
        for cmd in cmds {
            self.apply(&ctx, cmd);
        }
        if self.quit {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        self.script.screenshot_step(&ctx, self.jobs.load.is_none() && !self.diagnostics.running());
        if self.messages.notice.is_some() {
            if self.messages.since.elapsed() > Duration::from_secs(10) {
                self.messages.notice = None;
            } else {
                ctx.request_repaint_after(Duration::from_millis(500));
            }
        }
        if self.view.player.playing || self.jobs.busy() || self.diagnostics.running() {
            ctx.request_repaint();
        }
    }

    /// The panel colour: the panels are drawn without a fill of their own (see [`unfilled_panel_frame`]).
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if !self.script.is_automated() {
            eframe::set_value(storage, STORAGE_KEY, &self.state);
        }
    }

    fn persist_egui_memory(&self) -> bool {
        !self.script.is_automated()
    }
}

/// egui's frame of side, top and bottom panels without its fill: the window is cleared to the panel colour
/// instead ([`ViewerApp::clear_color`]), which looks the same. A clear is nearly free on any GPU, while egui fills
/// shapes with a textured, blended shader that a CPU rasteriser (lavapipe, llvmpipe) runs at a few million pixels
/// a second: the panels' fills alone cost over 100 ms a frame at 1600×900 there.
fn unfilled_panel_frame(ui: &egui::Ui) -> egui::Frame {
    egui::Frame::side_top_panel(ui.style()).fill(egui::Color32::TRANSPARENT)
}

/// The archive `sources` are, when they are one to choose a model from: a `.vdf` volume or a folder holding
/// volumes given alone, or several volumes of one folder (their folder's volumes together).
fn archive_of(files: &crate::files::Files, sources: &[Source]) -> Option<PathBuf> {
    let paths: Vec<&std::path::Path> = sources.iter().map(Source::path).collect::<Option<_>>()?;
    match paths[..] {
        [one] => crate::source::archive_root(files, one),
        [first, ..] => {
            let is_volume = |p: &std::path::Path| {
                p.file_name().and_then(|n| n.to_str()).is_some_and(crate::files::mount::is_volume_name)
                    && files.is_folder(p)
            };
            let folder = first.parent()?;
            paths
                .iter()
                .all(|p| is_volume(p) && p.parent() == Some(folder))
                .then(|| folder.join(crate::files::mount::ALL_VOLUMES))
        }
        [] => None,
    }
}
