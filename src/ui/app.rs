//! The eframe application: owns the persisted [`UiState`], the session (open document, player, camera,
//! selection, loading job, logs) and the GPU state, lays out the panels each frame, and applies the
//! [`Command`]s they emit in [`ViewerApp::apply`] — the one place where state changes.
//!
//! Per frame: finished loads and file dialogs are picked up, changed files are reloaded, dropped files and
//! keyboard shortcuts become commands, the player advances and the pose is evaluated, the panels are drawn,
//! the commands are applied, and a pending `--screenshot` is taken.

use eframe::egui;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use egui::{Key, KeyboardShortcut, Modifiers};

use crate::anim::recording::{RecordingPose, evaluate as evaluate_recording};
use crate::anim::{Pose, posed_bounds};
use crate::io::LoadError;
use crate::render::camera::{OrbitCamera, ViewPreset};
use crate::scene::samples::Sample;
use crate::scene::{Asset, Bounds};
use crate::source::Source;

use super::ViewerArgs;
use super::command::{Command, OpenMode, TrackEdit};
use super::diagnostics::{self, DiagnosticsView, Highlight};
use super::document::{Document, Origin, SourceFile, display_name};
use super::export::{ExportJob, spawn_export};
use super::gpu::GpuState;
use super::inspector;
use super::job::Job;
use super::loader::{LoadJob, Loaded, Purpose};
use super::outliner::{self, OutlinerView};
use super::player::PlaybackType;
use super::player::{Fired, Player};
use super::recording_view::{self, RecordingView};
use super::state::{Overlay, PanelId, RightTab, STORAGE_KEY, Shading, UiState};
use super::timeline::{self, TimelineView};
use super::viewport::{self, StatusInfo, ViewportCache};

/// Keyboard and mouse controls, for the help window (and the README).
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Space", "play / pause"),
    ("← / →", "step one frame back / forward (Shift: 10 frames)"),
    ("Home / End", "go to start / end"),
    ("F", "frame all"),
    (". (period)", "frame the selected bone"),
    ("1 / 3 / 7", "front / right / top view"),
    ("Ctrl+1 / Ctrl+3 / Ctrl+7", "back / left / bottom view"),
    ("5", "perspective / orthographic"),
    ("Z", "next shading mode (textured, solid, normals, bone weights, dominant bone, stretch)"),
    ("W", "wireframe on / off"),
    ("K / J / N / G", "skeleton / joint axes / bone names / ground grid overlay"),
    ("Esc", "clear the selection and the diagnostics mark, close this window"),
    ("Ctrl+O", "open files"),
    ("Ctrl+R or F5", "reload the open files"),
    ("Ctrl+E", "export the scene as glTF (.glb)"),
    ("Ctrl+F", "search bones"),
    ("F1 or ?", "this help"),
    ("Ctrl+Q", "quit"),
    ("Left drag", "orbit"),
    ("Right or middle drag, Shift+left drag", "pan"),
    ("Wheel, pinch, Ctrl+left drag", "zoom"),
    ("Two-finger scroll (trackpad)", "orbit; with Shift: pan (where the platform reports a trackpad)"),
    ("Click a joint", "select the bone; double-click frames it"),
    ("Timeline: drag", "scrub (callbacks do not fire while scrubbing)"),
    ("Timeline: wheel / right drag", "zoom / pan the time ruler"),
    ("Drop files on the window", "open a model; animation files bind to the open model"),
];

/// How many fired callbacks the log keeps.
const LOG_LIMIT: usize = 500;
/// How often the open files are checked for changes.
const RELOAD_POLL: Duration = Duration::from_secs(1);
/// A screenshot run gives up after this long (e.g. when no frame can be presented).
const SCREENSHOT_TIMEOUT: Duration = Duration::from_secs(120);

struct ScreenshotRun {
    path: PathBuf,
    after_frames: u32,
    ready_frames: u32,
    requested: bool,
    result: Arc<Mutex<Option<Result<(), String>>>>,
    started: Instant,
    /// Set when the run must report failure (load error, timeout, write error).
    failure: Option<String>,
}

/// The file-dialog request in flight: the files picked (`None`: cancelled, or no dialog could be shown).
struct DialogJob {
    job: Job<Option<Vec<PathBuf>>>,
    mode: OpenMode,
}

pub struct ViewerApp {
    state: UiState,
    gpu: GpuState,
    doc: Document,
    pose: Pose,
    recording_poses: Vec<RecordingPose>,
    player: Player,
    camera: OrbitCamera,
    selected: Option<usize>,
    focus_track: usize,
    job: Option<LoadJob>,
    dialog: Option<DialogJob>,
    error: Option<LoadError>,
    notice: Option<String>,
    /// When the notice appeared: notices go away by themselves after a while.
    notice_since: Instant,
    log: VecDeque<Fired>,
    fired_total: u64,
    show_help: bool,
    viewport_cache: ViewportCache,
    timeline_view: TimelineView,
    outliner_view: OutlinerView,
    diagnostics: DiagnosticsView,
    recording_view: RecordingView,
    /// What the finding last clicked in the Diagnostics tab marks in the viewport.
    highlight: Option<Highlight>,
    export: Option<ExportJob>,
    /// The palette the viewport draws with: the pose's, or the selected bone's matrix for every bone.
    display_palette: Vec<glam::Mat4>,
    /// Extra mixer tracks from the command line (`--track`), added once the files are loaded.
    initial_tracks: Vec<String>,
    /// `--finding`, shown once the first diagnostics are in.
    initial_finding: Option<usize>,
    /// `--zoom`, applied once after the first framing.
    initial_zoom: Option<f32>,
    generation: u64,
    last_frame: Option<Instant>,
    fps: f32,
    last_poll: Instant,
    initial_clip: Option<String>,
    initial_time: Option<f32>,
    initial_select: Option<String>,
    screenshot: Option<ScreenshotRun>,
    /// Where a failed screenshot run reports to `run` (and so to the exit status).
    outcome: Arc<Mutex<Option<String>>>,
    frame_next: bool,
    quit: bool,
    /// With `BONESCOPE_TIMING` set: when `run` started, and which milestones are still to be reported.
    timing: Option<(Instant, bool, bool)>,
}

impl ViewerApp {
    pub fn new(
        cc: &eframe::CreationContext<'_>,
        args: ViewerArgs,
        outcome: Arc<Mutex<Option<String>>>,
        launched: Instant,
    ) -> Self {
        let screenshot_mode = args.screenshot.is_some();
        let state = if screenshot_mode {
            UiState::default()
        } else {
            cc.storage.and_then(|s| eframe::get_value::<UiState>(s, STORAGE_KEY)).unwrap_or_default()
        };
        let gpu = GpuState::new(cc.wgpu_render_state.as_ref());
        if let Some(why) = &gpu.unavailable {
            eprintln!("bonescope: drawing with the egui painter: {why}");
        }
        let mut app = Self {
            state,
            gpu,
            doc: Document::empty(),
            pose: Pose::default(),
            recording_poses: Vec::new(),
            player: Player::for_asset(&Asset::default(), None, PlaybackType::Loop),
            // The viewer's opening angles: from the front right, a little above.
            camera: OrbitCamera { yaw: 0.5, pitch: 0.25, ..OrbitCamera::default() },
            selected: None,
            focus_track: 0,
            job: None,
            dialog: None,
            error: None,
            notice: None,
            notice_since: Instant::now(),
            log: VecDeque::new(),
            fired_total: 0,
            show_help: false,
            viewport_cache: ViewportCache::default(),
            timeline_view: TimelineView::default(),
            outliner_view: OutlinerView::default(),
            diagnostics: DiagnosticsView::default(),
            recording_view: RecordingView::default(),
            highlight: None,
            export: None,
            display_palette: Vec::new(),
            initial_tracks: args.tracks.clone(),
            initial_finding: args.finding,
            initial_zoom: args.zoom.filter(|z| z.is_finite() && *z > 0.0),
            generation: 0,
            last_frame: None,
            fps: 0.0,
            last_poll: Instant::now(),
            initial_clip: args.clip.clone(),
            initial_time: args.time,
            initial_select: args.select.clone(),
            screenshot: args.screenshot.clone().map(|path| ScreenshotRun {
                path,
                after_frames: args.after_frames.max(1),
                ready_frames: 0,
                requested: false,
                result: Arc::new(Mutex::new(None)),
                started: Instant::now(),
                failure: None,
            }),
            outcome,
            frame_next: false,
            quit: false,
            timing: std::env::var_os("BONESCOPE_TIMING").map(|_| (launched, true, true)),
        };
        if let Some(s) = args.shading {
            app.state.shading = s;
        }
        if let Some(tab) = args.tab {
            app.state.right_tab = tab;
            app.state.show_inspector = true;
        }
        if args.ghost {
            app.state.overlays.bind_ghost = true;
        }
        if args.painter {
            app.gpu.force_painter = true;
        }
        match args.theme {
            Some(super::Theme::Dark) => cc.egui_ctx.set_theme(egui::ThemePreference::Dark),
            Some(super::Theme::Light) => cc.egui_ctx.set_theme(egui::ThemePreference::Light),
            Some(super::Theme::System) => cc.egui_ctx.set_theme(egui::ThemePreference::System),
            None => {}
        }
        app.player.set_mode(app.state.playback);
        app.player.speed = app.state.speed.max(0.0);
        let sources =
            if args.files.is_empty() { vec![Source::Sample(Sample::Demo)] } else { Source::from_args(&args.files) };
        let ctx = cc.egui_ctx.clone();
        app.job = Some(LoadJob::spawn(sources, Purpose::Open(OpenMode::Replace), move || ctx.request_repaint()));
        app
    }

    /// Shows a short message at the bottom of the window for a while.
    fn notify(&mut self, text: impl Into<String>) {
        let text = text.into();
        if self.screenshot.is_some() {
            // Automated runs have no one watching the window: say it where the caller can read it.
            eprintln!("bonescope: {text}");
        }
        self.notice = Some(text);
        self.notice_since = Instant::now();
    }

    fn next_generation(&mut self) -> u64 {
        self.generation += 1;
        self.generation
    }

    // ----- loading -------------------------------------------------------------------------------------------

    fn start_load(&mut self, ctx: &egui::Context, sources: Vec<Source>, purpose: Purpose) {
        if sources.is_empty() {
            return;
        }
        let ctx = ctx.clone();
        self.job = Some(LoadJob::spawn(sources, purpose, move || ctx.request_repaint()));
    }

    fn poll_job(&mut self) {
        let Some(job) = &self.job else { return };
        let Some(result) = job.poll() else { return };
        let Some(job) = self.job.take() else { return };
        match result {
            Ok(loaded) => {
                self.error = None;
                self.apply_loaded(loaded, job.purpose);
            }
            Err(e) => {
                if job.purpose == Purpose::Reload {
                    // Retry on the next change only, not every poll.
                    for f in &mut self.doc.files {
                        *f = SourceFile::new(&f.path, f.format);
                    }
                }
                if let Some(run) = &mut self.screenshot {
                    run.failure.get_or_insert_with(|| format!("load failed: {e}"));
                }
                self.error = Some(e);
            }
        }
    }

    fn apply_loaded(&mut self, loaded: Vec<Loaded>, purpose: Purpose) {
        let bind = match purpose {
            Purpose::Open(OpenMode::Bind) => true,
            Purpose::Open(OpenMode::Auto) => {
                let assets: Vec<&Asset> = loaded.iter().map(|l| &l.asset).collect();
                drop_binds(&self.doc, &assets)
            }
            Purpose::Open(OpenMode::Replace) | Purpose::Reload => false,
        };
        if bind {
            let first_new_clip = self.doc.asset.clips.len();
            for l in loaded {
                let report = Arc::make_mut(&mut self.doc.asset).bind_animations(l.asset);
                self.doc.reports.push(report);
                if let Origin::File(f) = l.origin {
                    self.doc.files.push(f);
                }
            }
            if first_new_clip < self.doc.asset.clips.len() {
                self.player.add_new_clips(&self.doc.asset);
                // Play what was just bound: on the focus track, or on a new track.
                if self.focus_track < self.player.track_count() {
                    self.player.set_clip(self.focus_track, first_new_clip);
                    self.player.clear_events(self.focus_track);
                } else if let Some(t) = self.player.add_track(first_new_clip, 0.0) {
                    self.focus_track = t;
                }
                self.player.seek(&self.doc.asset, self.focus_track, 0.0);
                self.player.playing = true;
            }
            self.state.remember(&self.doc.paths());
            return;
        }
        let mut iter = loaded.into_iter();
        let Some(first) = iter.next() else { return };
        let mut asset = first.asset;
        let mut origins = vec![first.origin];
        let mut reports = Vec::new();
        for l in iter {
            reports.push(asset.bind_animations(l.asset));
            origins.push(l.origin);
        }
        let generation = self.next_generation();
        self.highlight = None;
        let old = std::mem::replace(&mut self.doc, Document::new(asset, origins, reports, generation));
        if purpose == Purpose::Reload {
            // Keep the view: selection by name, the clock, tracks whose clips still exist.
            self.selected = self
                .selected
                .and_then(|b| old.asset.skeleton.names.get(b))
                .and_then(|n| self.doc.asset.skeleton.find(n));
            self.player = self.player.carried_over(&self.doc.asset);
            self.focus_track = self.focus_track.min(self.player.track_count().saturating_sub(1));
            self.notify(format!("Reloaded {}", self.doc.title()));
        } else {
            let clip = self.initial_clip.take().and_then(|name| {
                let found = self.doc.asset.clips.iter().position(|c| c.name.eq_ignore_ascii_case(&name));
                if found.is_none() {
                    self.notify(format!("No clip named '{name}'; playing the first clip"));
                }
                found
            });
            self.player = Player::for_asset(&self.doc.asset, clip, self.state.playback);
            self.player.speed = self.state.speed.max(0.0);
            if let Some(t) = self.initial_time.take() {
                self.player.seek(&self.doc.asset, 0, t);
                self.player.playing = false;
            }
            self.selected = self.initial_select.take().and_then(|name| {
                let found = self.doc.asset.skeleton.find(&name);
                if found.is_none() {
                    self.notify(format!("No bone named '{name}'"));
                }
                found
            });
            self.focus_track = 0;
            for spec in std::mem::take(&mut self.initial_tracks) {
                if let Err(e) = self.add_track_spec(&spec) {
                    self.notify(e);
                }
            }
            self.log.clear();
            self.timeline_view.fit = true;
            self.frame_next = true;
            if !self.doc.files.is_empty() && self.doc.sample.is_none() {
                self.state.remember(&self.doc.paths());
            }
        }
        self.player.evaluate(&mut self.pose);
    }

    /// Adds a mixer track from a `--track CLIP[@SECONDS][*WEIGHT]` spec.
    fn add_track_spec(&mut self, spec: &str) -> Result<(), String> {
        let (name, pos, weight) = parse_track_spec(spec)?;
        let clip = self
            .doc
            .asset
            .clips
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("--track '{spec}': no clip named '{name}'"))?;
        let t =
            self.player.add_track(clip, f64::from(pos)).ok_or_else(|| format!("--track '{spec}': no free track"))?;
        self.player.set_weight(t, weight);
        Ok(())
    }

    /// Shows what diagnostics finding `i` is about: selects its bone, puts its clip at its moment on the focus
    /// track, marks its vertices.
    fn show_finding(&mut self, i: usize) {
        use crate::anim::diagnostics::Subject;
        let Some(f) = self.diagnostics.findings.get(i).cloned() else { return };
        self.diagnostics.clicked = Some(i);
        let asset = &self.doc.asset;
        let bone = match f.subject {
            Subject::Bone(b) => Some(b),
            Subject::Track { clip, track } => {
                asset.clips.get(clip).and_then(|c| c.tracks.get(track)).and_then(|t| asset.skeleton.find(&t.bone_name))
            }
            _ => None,
        };
        if bone.is_some() {
            self.selected = bone;
        }
        let clip = match (f.at, f.subject) {
            (Some(at), _) => Some((at.clip, Some(at.time))),
            (None, Subject::Clip(c) | Subject::Track { clip: c, .. }) => Some((c, None)),
            _ => None,
        };
        if let Some((c, time)) = clip.filter(|(c, _)| *c < asset.clips.len()) {
            if self.player.track_count() == 0 {
                if let Some(t) = self.player.add_track(c, 0.0) {
                    self.focus_track = t;
                }
            } else {
                self.player.set_clip(self.focus_track, c);
            }
            if let Some(t) = time {
                self.player.playing = false;
                self.player.seek(&self.doc.asset, self.focus_track, t);
            }
        }
        self.highlight = Highlight::of(&f, &self.doc.asset);
    }

    /// The palette the viewport draws: with "skin with the selected bone alone", every entry is that bone's.
    fn update_display_palette(&mut self) {
        self.display_palette.clear();
        match self.selected.and_then(|b| self.pose.palette.get(b)) {
            Some(m) if self.state.skin_selected_only => {
                self.display_palette.resize(self.pose.palette.len(), *m);
            }
            _ => self.display_palette.extend_from_slice(&self.pose.palette),
        }
    }

    /// `BONESCOPE_TIMING`: prints when the first frame is built and when the first scene is on screen.
    fn report_timing(&mut self) {
        let Some((launched, first, scene)) = &mut self.timing else { return };
        let ms = launched.elapsed().as_secs_f64() * 1e3;
        if *first {
            *first = false;
            eprintln!("bonescope timing: first frame {ms:.0} ms after launch");
        }
        if *scene && self.job.is_none() && self.doc.generation > 0 {
            *scene = false;
            eprintln!("bonescope timing: '{}' on screen {ms:.0} ms after launch", self.doc.title());
        }
    }

    fn poll_export(&mut self) {
        let Some(job) = &self.export else { return };
        let Some(outcome) = job.poll() else { return };
        // A cancel takes a human a moment; "nothing" straight away means no dialog could be shown.
        let quick = job.elapsed() < Duration::from_millis(400);
        self.export = None;
        match outcome {
            Ok(Some(text)) => self.notify(text),
            Err(lost) => self.notify(format!("Export failed: {lost}")),
            Ok(None) if quick => self.notify(
                "No file dialog could be opened (no xdg-desktop-portal or zenity on this system). \
                 Export from the command line: bonescope export FILE… -o out.glb",
            ),
            Ok(None) => {}
        }
    }

    /// Frames the pose over the focus track's whole clip (sampled), and any recordings.
    fn frame_clip(&mut self) {
        let asset = &self.doc.asset;
        let mut b = posed_bounds(&self.doc.asset, &self.pose.palette, &self.pose.to_root);
        if let Some(clip) = self.player.track(self.focus_track).and_then(|t| t.clip).and_then(|c| asset.clips.get(c)) {
            const SAMPLES: usize = 12;
            for i in 0..=SAMPLES {
                let t = clip.duration * i as f32 / SAMPLES as f32;
                let pose = Pose::from_clip(&asset.skeleton, clip, t);
                let pb = posed_bounds(asset, &pose.palette, &pose.to_root);
                if !pb.is_empty() {
                    b.add(pb.min);
                    b.add(pb.max);
                }
            }
        }
        if let Some(r) = self.viewport_cache.pose_bounds {
            b.add(r.min);
            b.add(r.max);
        }
        if b.is_empty() {
            b = self.doc.bind_bounds;
        }
        self.camera.frame_for_orbiting(&b);
    }

    fn poll_dialog(&mut self, ctx: &egui::Context) {
        let Some(d) = &self.dialog else { return };
        let Some(result) = d.job.poll() else { return };
        let Some(d) = self.dialog.take() else { return };
        match result.ok().flatten() {
            Some(paths) if !paths.is_empty() => {
                self.start_load(ctx, paths.into_iter().map(Source::File).collect(), Purpose::Open(d.mode));
            }
            _ => {
                // A cancel takes a human a moment; an immediate "nothing" means no dialog could be shown.
                if d.job.elapsed() < Duration::from_millis(400) {
                    self.notify(
                        "No file dialog could be opened (no xdg-desktop-portal or zenity on this system). \
                         Drag files onto the window, use File › Open recent, or pass them on the command line.",
                    );
                }
            }
        }
    }

    fn open_dialog(&mut self, ctx: &egui::Context, mode: OpenMode) {
        if self.dialog.is_some() {
            return;
        }
        let start_dir = self.doc.files.first().and_then(|f| f.path.parent().map(PathBuf::from));
        let ctx = ctx.clone();
        let pick = move || {
            let mut dialog = rfd::FileDialog::new()
                .set_title(if mode == OpenMode::Bind { "Bind animation files" } else { "Open model and animations" })
                .add_filter("All supported", &["psk", "pskx", "psa", "smd", "vta", "ase", "bin", "mrtk"])
                .add_filter("Unreal ActorX (PSK, PSA)", &["psk", "pskx", "psa"])
                .add_filter("Valve SMD / VTA", &["smd", "vta"])
                .add_filter("3ds Max ASE", &["ase"])
                .add_filter("MRTK input animation", &["bin", "mrtk"])
                .add_filter("All files", &["*"]);
            if let Some(dir) = start_dir {
                dialog = dialog.set_directory(dir);
            }
            dialog.pick_files()
        };
        match Job::spawn("bonescope-dialog", pick, move || ctx.request_repaint()) {
            Ok(job) => self.dialog = Some(DialogJob { job, mode }),
            Err(e) => self.notify(format!("Could not open the file dialog: {e}")),
        }
    }

    fn poll_changes(&mut self, ctx: &egui::Context) {
        if !self.state.auto_reload || self.job.is_some() || self.last_poll.elapsed() < RELOAD_POLL {
            return;
        }
        self.last_poll = Instant::now();
        if self.doc.files.iter().any(|f| f.changed_on_disk()) {
            self.start_load(ctx, self.doc.sources(), Purpose::Reload);
        }
    }

    // ----- input -----------------------------------------------------------------------------------------------

    fn shortcuts(&mut self, ctx: &egui::Context, cmds: &mut Vec<Command>) {
        let typing = ctx.egui_wants_keyboard_input();
        ctx.input_mut(|i| {
            let mut key = |mods: Modifiers, k: Key| i.consume_shortcut(&KeyboardShortcut::new(mods, k));
            // Command shortcuts work even while typing in a field.
            if key(Modifiers::COMMAND, Key::O) {
                cmds.push(Command::OpenDialog);
            }
            if key(Modifiers::COMMAND, Key::R) || key(Modifiers::NONE, Key::F5) {
                cmds.push(Command::Reload);
            }
            if key(Modifiers::COMMAND, Key::E) {
                cmds.push(Command::ExportDialog);
            }
            if key(Modifiers::COMMAND, Key::Q) {
                cmds.push(Command::Quit);
            }
            if key(Modifiers::COMMAND, Key::F) {
                self.outliner_view.focus_search = true;
                cmds.push(Command::SetPanel(PanelId::Outliner, true));
            }
            if key(Modifiers::NONE, Key::F1) {
                cmds.push(Command::ShowHelp(!self.show_help));
            }
            if typing {
                return;
            }
            if key(Modifiers::NONE, Key::Space) {
                cmds.push(Command::TogglePlay);
            }
            if key(Modifiers::SHIFT, Key::ArrowLeft) {
                cmds.push(Command::StepFrames(-10));
            }
            if key(Modifiers::SHIFT, Key::ArrowRight) {
                cmds.push(Command::StepFrames(10));
            }
            if key(Modifiers::NONE, Key::ArrowLeft) {
                cmds.push(Command::StepFrames(-1));
            }
            if key(Modifiers::NONE, Key::ArrowRight) {
                cmds.push(Command::StepFrames(1));
            }
            if key(Modifiers::NONE, Key::Home) {
                cmds.push(Command::GoToStart);
            }
            if key(Modifiers::NONE, Key::End) {
                cmds.push(Command::GoToEnd);
            }
            if key(Modifiers::NONE, Key::F) {
                cmds.push(Command::FrameAll);
            }
            if key(Modifiers::NONE, Key::Period) {
                cmds.push(Command::FrameSelected);
            }
            for (k, front, back) in [
                (Key::Num1, ViewPreset::Front, ViewPreset::Back),
                (Key::Num3, ViewPreset::Right, ViewPreset::Left),
                (Key::Num7, ViewPreset::Top, ViewPreset::Bottom),
            ] {
                if key(Modifiers::COMMAND, k) {
                    cmds.push(Command::View(back));
                }
                if key(Modifiers::NONE, k) {
                    cmds.push(Command::View(front));
                }
            }
            if key(Modifiers::NONE, Key::Num5) {
                cmds.push(Command::ToggleProjection);
            }
            if key(Modifiers::NONE, Key::Z) {
                let all = Shading::ALL;
                let next = all.iter().position(|s| *s == self.state.shading).map_or(0, |p| (p + 1) % all.len());
                cmds.push(Command::SetShading(all[next]));
            }
            for (k, o) in [
                (Key::W, Overlay::Wireframe),
                (Key::K, Overlay::Skeleton),
                (Key::J, Overlay::JointAxes),
                (Key::N, Overlay::BoneNames),
                (Key::G, Overlay::Grid),
            ] {
                if key(Modifiers::NONE, k) {
                    cmds.push(Command::SetOverlay(o, !self.state.overlays.get(o)));
                }
            }
            if key(Modifiers::NONE, Key::Escape) {
                if self.show_help {
                    cmds.push(Command::ShowHelp(false));
                } else {
                    cmds.push(Command::SelectBone(None));
                }
            }
            if key(Modifiers::NONE, Key::Questionmark) || key(Modifiers::SHIFT, Key::Questionmark) {
                cmds.push(Command::ShowHelp(!self.show_help));
            }
        });
    }

    fn dropped_files(&self, ctx: &egui::Context, cmds: &mut Vec<Command>) {
        let paths: Vec<PathBuf> = ctx.input(|i| i.raw.dropped_files.iter().map(|f| f.path().to_path_buf()).collect());
        if !paths.is_empty() {
            cmds.push(Command::Open { paths, mode: OpenMode::Auto });
        }
    }

    // ----- the one place state changes -------------------------------------------------------------------------

    pub fn apply(&mut self, ctx: &egui::Context, cmd: Command) {
        let asset = &self.doc.asset;
        match cmd {
            Command::OpenDialog => self.open_dialog(ctx, OpenMode::Replace),
            Command::Open { paths, mode } => {
                self.start_load(ctx, paths.into_iter().map(Source::File).collect(), Purpose::Open(mode));
            }
            Command::OpenSample(sample) => {
                self.start_load(ctx, vec![Source::Sample(sample)], Purpose::Open(OpenMode::Replace));
            }
            Command::Reload => {
                if !self.doc.files.is_empty() {
                    self.start_load(ctx, self.doc.sources(), Purpose::Reload);
                }
            }
            Command::ExportDialog => {
                if self.export.is_none() && !self.doc.is_empty() {
                    let waker = ctx.clone();
                    let start = self.doc.files.first().map(|f| f.path.clone());
                    match spawn_export(Arc::clone(&self.doc.asset), start, move || waker.request_repaint()) {
                        Ok(job) => self.export = Some(job),
                        Err(e) => self.notify(e),
                    }
                }
            }
            Command::ClearRecent => self.state.recent.clear(),
            Command::DismissError => {
                self.error = None;
                self.notice = None;
            }
            Command::Orbit { dx, dy } => self.camera.orbit(dx, dy),
            Command::Pan { dx, dy, height } => self.camera.pan(dx, dy, height),
            Command::Zoom(f) => self.camera.zoom(f),
            Command::FrameAll => {
                let mut b = posed_bounds(&self.doc.asset, &self.pose.palette, &self.pose.to_root);
                if let Some(r) = self.viewport_cache.pose_bounds {
                    // Recordings (hands, head) add to what the pose covers.
                    b.add(r.min);
                    b.add(r.max);
                }
                if b.is_empty() {
                    b = self.doc.bind_bounds;
                }
                self.camera.frame_for_orbiting(&b);
            }
            Command::FrameSelected => {
                if let Some(t) = self.selected.and_then(|b| self.pose.to_root.get(b)) {
                    let p = asset.axes.to_viewer.transform_point3(t.w_axis.truncate());
                    let r = self.doc.bind_bounds.sizing_radius() * 0.25;
                    let keep = self.camera.scene_radius;
                    // A cube whose bounding sphere has radius r around the joint.
                    self.camera.frame_for_orbiting(&Bounds::cube(p, r / 3f32.sqrt()));
                    self.camera.scene_radius = keep;
                }
            }
            Command::View(p) => self.camera.set_preset(p),
            Command::ToggleProjection => {
                self.camera.orthographic = !self.camera.orthographic;
                self.state.orthographic = self.camera.orthographic;
            }
            Command::SetShading(s) => self.state.shading = s,
            Command::SetOverlay(o, on) => self.state.overlays.set(o, on),
            Command::TogglePlay => self.player.toggle_play(asset, self.focus_track),
            Command::Seek(t) => self.player.seek(asset, self.focus_track, t),
            Command::StepFrames(n) => {
                let fps = self.player.frame_rate(asset, self.focus_track);
                self.player.playing = false;
                // Land on frame boundaries of the focus clip.
                let frame = (self.player.now(asset, self.focus_track) * fps).round() + n as f32;
                self.player.seek(asset, self.focus_track, frame / fps);
            }
            Command::GoToStart => self.player.seek(asset, self.focus_track, 0.0),
            Command::GoToEnd => {
                let len = self.player.length(asset, self.focus_track);
                // In a loop the very end is the start again: stop just before it, on the last frame.
                let end = if self.player.mode() == PlaybackType::Loop { (len - 1e-4).max(0.0) } else { len };
                self.player.seek(asset, self.focus_track, end);
            }
            Command::SetSpeed(s) => {
                self.state.speed = s.max(0.0);
                self.player.speed = self.state.speed;
            }
            Command::SetPlayback(m) => {
                self.state.playback = m;
                self.player.set_mode(m);
            }
            Command::AddTrack => {
                if !asset.clips.is_empty() {
                    let clip = self.player.track(self.focus_track).and_then(|t| t.clip).unwrap_or(0);
                    let now = self.player.now(asset, self.focus_track);
                    if let Some(t) = self.player.add_track(clip, f64::from(now)) {
                        self.focus_track = t;
                    }
                }
            }
            Command::RemoveTrack(i) => {
                self.player.remove_track(i);
                self.focus_track = self.focus_track.min(self.player.track_count().saturating_sub(1));
            }
            Command::FocusTrack(i) => self.focus_track = i.min(self.player.track_count().saturating_sub(1)),
            Command::EditTrack(i, edit) => match edit {
                TrackEdit::Clip(c) => {
                    if c < asset.clips.len() {
                        self.player.set_clip(i, c);
                    }
                }
                TrackEdit::Enabled(e) => self.player.set_enabled(i, e),
                TrackEdit::Weight(w) => self.player.set_weight(i, w),
                TrackEdit::Speed(s) => self.player.set_speed(i, s),
                TrackEdit::Position(p) => self.player.set_local_time(i, p),
                TrackEdit::Mode(m) => self.player.set_mix_mode(i, m),
                TrackEdit::Mask(m) => self.player.set_mask(i, m, asset),
                TrackEdit::Solo(on) => self.player.set_solo(i, on),
                TrackEdit::Mute(on) => self.player.set_mute(i, on),
                TrackEdit::ClearEvents => self.player.clear_events(i),
            },
            Command::CrossFade { clip, seconds } => {
                if clip < asset.clips.len()
                    && let Some(t) = self.player.cross_fade(clip, seconds)
                {
                    self.focus_track = t;
                    self.player.playing = true;
                }
            }
            Command::SetCrossFadeSeconds(s) => self.state.cross_fade_seconds = s.max(0.0),
            Command::ClearCallbackLog => {
                self.log.clear();
                self.fired_total = 0;
            }
            Command::SelectBone(b) => {
                if b.is_none() {
                    self.highlight = None;
                }
                self.selected = b.filter(|&b| b < asset.skeleton.len());
            }
            Command::SetSkinSelectedOnly(on) => self.state.skin_selected_only = on,
            Command::RunDiagnostics => {
                let waker = ctx.clone();
                self.diagnostics.ensure(&self.doc, &self.pose.palette, true, move || waker.request_repaint());
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

    // ----- panels ----------------------------------------------------------------------------------------------

    fn menu_bar(&self, ui: &mut egui::Ui, cmds: &mut Vec<Command>) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("Open…  (Ctrl+O)").clicked() {
                    cmds.push(Command::OpenDialog);
                }
                ui.menu_button("Open recent", |ui| {
                    if self.state.recent.is_empty() {
                        ui.weak("nothing yet");
                    }
                    for set in &self.state.recent {
                        let label = match set.split_first() {
                            Some((m, [])) => display_name(m),
                            Some((m, rest)) => format!("{} + {}", display_name(m), rest.len()),
                            None => continue,
                        };
                        let hover = set.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join("\n");
                        if ui.button(label).on_hover_text(hover).clicked() {
                            cmds.push(Command::Open { paths: set.clone(), mode: OpenMode::Replace });
                        }
                    }
                    ui.separator();
                    if ui.button("Clear the list").clicked() {
                        cmds.push(Command::ClearRecent);
                    }
                });
                if ui.button("Open the built-in demo").clicked() {
                    cmds.push(Command::OpenSample(Sample::Demo));
                }
                if ui.button("Open the demo recording").on_hover_text("Two hands pinching, head and gaze").clicked() {
                    cmds.push(Command::OpenSample(Sample::DemoRecording));
                }
                let can_export = !self.doc.is_empty() && self.export.is_none();
                if ui
                    .add_enabled(can_export, egui::Button::new("Export glTF (.glb)…  (Ctrl+E)"))
                    .on_hover_text("Meshes, skin, every bound clip and recordings, for Blender, three.js and engines")
                    .clicked()
                {
                    cmds.push(Command::ExportDialog);
                }
                ui.separator();
                let can_reload = !self.doc.files.is_empty();
                if ui.add_enabled(can_reload, egui::Button::new("Reload  (Ctrl+R)")).clicked() {
                    cmds.push(Command::Reload);
                }
                let mut auto = self.state.auto_reload;
                if ui.checkbox(&mut auto, "Reload when files change on disk").changed() {
                    cmds.push(Command::SetAutoReload(auto));
                }
                ui.separator();
                if ui.button("Quit  (Ctrl+Q)").clicked() {
                    cmds.push(Command::Quit);
                }
            });
            ui.menu_button("View", |ui| {
                for (p, label) in [
                    (PanelId::Outliner, "Outliner"),
                    (PanelId::Inspector, "Inspector"),
                    (PanelId::Timeline, "Timeline and mixer"),
                ] {
                    let mut on = self.state.panel_shown(p);
                    if ui.checkbox(&mut on, label).changed() {
                        cmds.push(Command::SetPanel(p, on));
                    }
                }
                ui.separator();
                ui.label("Shading");
                for s in Shading::ALL {
                    if ui.radio(self.state.shading == s, s.label()).clicked() {
                        cmds.push(Command::SetShading(s));
                    }
                }
                ui.separator();
                ui.label("Overlays");
                for o in Overlay::ALL {
                    let mut on = self.state.overlays.get(o);
                    if ui.checkbox(&mut on, o.label()).changed() {
                        cmds.push(Command::SetOverlay(o, on));
                    }
                }
                ui.separator();
                for (p, k) in [
                    (ViewPreset::Front, "1"),
                    (ViewPreset::Right, "3"),
                    (ViewPreset::Top, "7"),
                    (ViewPreset::Back, "Ctrl+1"),
                    (ViewPreset::Left, "Ctrl+3"),
                    (ViewPreset::Bottom, "Ctrl+7"),
                ] {
                    if ui.button(format!("{} view  ({k})", p.label())).clicked() {
                        cmds.push(Command::View(p));
                    }
                }
                if ui.button("Frame all  (F)").clicked() {
                    cmds.push(Command::FrameAll);
                }
                ui.separator();
                let mut cull = self.state.cull_back_faces;
                if ui
                    .checkbox(&mut cull, "Hide back faces")
                    .on_hover_text("Off shows both sides of every triangle, for files wound the wrong way")
                    .changed()
                {
                    cmds.push(Command::SetCullBackFaces(cull));
                }
                let mut painter = self.gpu.force_painter || !self.gpu.renderer;
                let r =
                    ui.add_enabled(self.gpu.renderer, egui::Checkbox::new(&mut painter, "Draw with the egui painter"));
                if r.on_hover_text(
                    "The CPU fallback (no textures, no depth buffer): for comparing with the GPU renderer",
                )
                .changed()
                {
                    cmds.push(Command::SetPainterFallback(painter));
                }
                ui.separator();
                ui.label("Theme");
                egui::global_theme_preference_buttons(ui);
            });
            ui.menu_button("Help", |ui| {
                if ui.button("Keyboard and mouse  (F1)").clicked() {
                    cmds.push(Command::ShowHelp(true));
                }
            });
            ui.separator();
            ui.label(egui::RichText::new(self.doc.title()).strong());
            if let Some(job) = &self.job {
                ui.separator();
                ui.spinner();
                ui.label(job_text(job));
            }
        });
    }

    fn right_panel(&mut self, ui: &mut egui::Ui, cmds: &mut Vec<Command>) {
        ui.horizontal_wrapped(|ui| {
            for tab in RightTab::ALL {
                // The Recording tab only where there is a recording (or it is the one open).
                if tab == RightTab::Recording
                    && self.doc.asset.recordings.is_empty()
                    && self.state.right_tab != RightTab::Recording
                {
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
                inspector::bone(ui, &self.doc, &self.pose, self.selected, &self.state, cmds);
            }
            RightTab::Callbacks => super::mixer::callback_log(ui, &self.log, self.fired_total, cmds),
            RightTab::Diagnostics => diagnostics::show(ui, &mut self.diagnostics, &self.doc, cmds),
            RightTab::Recording => {
                let now = self.recording_poses.first().map_or(0.0, |p| p.time);
                recording_view::show(ui, &mut self.recording_view, &self.doc, now, cmds);
            }
            RightTab::Files => inspector::files(ui, &self.doc),
        }
    }

    fn windows(&mut self, ctx: &egui::Context, viewport_rect: egui::Rect, cmds: &mut Vec<Command>) {
        if self.show_help {
            let mut open = true;
            egui::Window::new("Keyboard and mouse")
                .open(&mut open)
                .collapsible(false)
                .resizable(false)
                .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
                .show(ctx, |ui| {
                    ui.set_max_width(640.0);
                    egui::Grid::new("shortcuts").striped(true).num_columns(2).show(ui, |ui| {
                        for (k, what) in SHORTCUTS {
                            ui.strong(*k);
                            ui.add(egui::Label::new(*what).wrap_mode(egui::TextWrapMode::Wrap));
                            ui.end_row();
                        }
                    });
                });
            if !open {
                cmds.push(Command::ShowHelp(false));
            }
        }
        if let Some(e) = &self.error {
            egui::Window::new("Could not open the file")
                .collapsible(false)
                .resizable(false)
                .anchor(egui::Align2::CENTER_TOP, [0.0, 80.0])
                .show(ctx, |ui| {
                    egui::Grid::new("load error").num_columns(2).show(ui, |ui| {
                        ui.strong("file");
                        ui.label(e.file.as_deref().map_or_else(|| "(none)".into(), |p| p.display().to_string()));
                        ui.end_row();
                        ui.strong("position");
                        ui.label(e.position.to_string());
                        ui.end_row();
                        ui.strong("reason");
                        ui.label(egui::RichText::new(&e.message).color(ui.visuals().error_fg_color));
                        ui.end_row();
                    });
                    ui.weak(if self.doc.is_empty() {
                        "Open another file, or File › Open the built-in demo."
                    } else {
                        "Everything that was open is still open."
                    });
                    ui.horizontal(|ui| {
                        if ui.button("OK").clicked() {
                            cmds.push(Command::DismissError);
                        }
                        if ui.button("Copy").clicked() {
                            cmds.push(Command::CopyToClipboard(e.to_string()));
                        }
                    });
                });
        }
        if let Some(job) = &self.job
            && job.elapsed() > Duration::from_millis(150)
        {
            egui::Area::new(egui::Id::unique("loading"))
                .fixed_pos(viewport_rect.center() - egui::vec2(160.0, 30.0))
                .show(ctx, |ui| {
                    egui::Frame::popup(ui.style()).show(ui, |ui| {
                        ui.set_width(320.0);
                        ui.horizontal(|ui| {
                            ui.spinner();
                            ui.label(job_text(job));
                        });
                        if let Some(f) = job.progress.fraction() {
                            ui.add(egui::ProgressBar::new(f).show_percentage());
                        }
                    });
                });
        }
        if let Some(n) = &self.notice {
            egui::Area::new(egui::Id::unique("notice")).anchor(egui::Align2::CENTER_BOTTOM, [0.0, -60.0]).show(
                ctx,
                |ui| {
                    egui::Frame::popup(ui.style()).show(ui, |ui| {
                        ui.set_max_width(560.0);
                        ui.horizontal(|ui| {
                            ui.label(n);
                            if ui.small_button("✖").clicked() {
                                cmds.push(Command::DismissError);
                            }
                        });
                    });
                },
            );
        }
        if ctx.input(|i| !i.raw.hovered_files.is_empty()) {
            let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::unique("drop")));
            painter.rect_filled(viewport_rect, 0.0, egui::Color32::from_black_alpha(150));
            let text = if self.doc.has_model_file() {
                "Drop: a model opens; animation files (PSA, animation SMD, recordings) bind to the open model"
            } else {
                "Drop to open (the first file is the model, the rest bind to it)"
            };
            painter.text(
                viewport_rect.center(),
                egui::Align2::CENTER_CENTER,
                text,
                egui::FontId::proportional(18.0),
                egui::Color32::WHITE,
            );
        }
    }

    fn empty_hint(&self, ui: &egui::Ui, rect: egui::Rect) {
        if self.job.is_none() && self.doc.is_empty() {
            ui.painter().text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                "Open a file (Ctrl+O) or drop files here",
                egui::FontId::proportional(18.0),
                ui.visuals().weak_text_color(),
            );
        }
    }

    // ----- screenshot ------------------------------------------------------------------------------------------

    fn screenshot_step(&mut self, ctx: &egui::Context) {
        let Some(run) = &mut self.screenshot else { return };
        ctx.request_repaint();
        if run.started.elapsed() > SCREENSHOT_TIMEOUT {
            run.failure.get_or_insert_with(|| "timed out waiting for the screenshot".into());
            finish_screenshot(ctx, run, &self.outcome);
            return;
        }
        if !run.requested {
            // Wait for the files and their diagnostics (a screenshot of a tab still "checking" shows nothing).
            if self.job.is_some() || self.diagnostics.running() || self.initial_finding.is_some() {
                return;
            }
            run.ready_frames += 1;
            if run.ready_frames >= run.after_frames {
                run.requested = true;
                let path = run.path.clone();
                let result = run.result.clone();
                let waker = ctx.clone();
                ctx.request_screenshot(move |image| {
                    let r = save_png(&path, &image);
                    if let Ok(mut g) = result.lock() {
                        *g = Some(r);
                    }
                    waker.request_repaint();
                });
            }
            return;
        }
        let done = run.result.lock().ok().and_then(|mut g| g.take());
        if let Some(r) = done {
            if let Err(e) = r {
                run.failure.get_or_insert(e);
            }
            finish_screenshot(ctx, run, &self.outcome);
        }
    }
}

/// Splits a `--track` spec `CLIP[@SECONDS][*WEIGHT]` into the clip name, the start position (0) and the
/// weight (1).
pub fn parse_track_spec(spec: &str) -> Result<(&str, f32, f32), String> {
    let bad = |what: &str| format!("--track '{spec}': {what} (expected CLIP[@SECONDS][*WEIGHT])");
    let (rest, weight) = match spec.rsplit_once('*') {
        Some((r, w)) => (r, w.trim().parse::<f32>().map_err(|_| bad("the weight is not a number"))?),
        None => (spec, 1.0),
    };
    let (name, pos) = match rest.rsplit_once('@') {
        Some((n, p)) => (n, p.trim().parse::<f32>().map_err(|_| bad("the position is not a number"))?),
        None => (rest, 0.0),
    };
    if name.trim().is_empty() {
        return Err(bad("no clip name"));
    }
    if !pos.is_finite() || !weight.is_finite() || weight < 0.0 {
        return Err(bad("position and weight must be finite, the weight not negative"));
    }
    Ok((name.trim(), pos, weight))
}

/// Whether dropped files bind to the open model: when a model file (not a sample) is open and every dropped
/// file is animation only (no mesh; clips or recordings), e.g. a PSA on a PSK or an animation SMD on its
/// reference. Anything with a mesh opens as a new scene instead.
pub fn drop_binds(doc: &Document, dropped: &[&Asset]) -> bool {
    doc.has_model_file()
        && !dropped.is_empty()
        && dropped.iter().all(|a| a.meshes.is_empty() && (!a.clips.is_empty() || !a.recordings.is_empty()))
}

fn finish_screenshot(ctx: &egui::Context, run: &ScreenshotRun, outcome: &Arc<Mutex<Option<String>>>) {
    if let (Some(f), Ok(mut o)) = (&run.failure, outcome.lock()) {
        *o = Some(f.clone());
    }
    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
}

/// Writes an egui screenshot as an RGBA PNG.
pub fn save_png(path: &std::path::Path, image: &egui::ColorImage) -> Result<(), String> {
    let [w, h] = image.size;
    let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_srgba_unmultiplied()).collect();
    let img = image::RgbaImage::from_raw(w as u32, h as u32, bytes)
        .ok_or_else(|| format!("screenshot of {w}×{h} has {} pixels", image.pixels.len()))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    img.save_with_format(path, image::ImageFormat::Png).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn job_text(job: &LoadJob) -> String {
    let names: Vec<String> = job
        .sources
        .iter()
        .map(|s| match s {
            Source::File(path) => display_name(path),
            Source::Sample(sample) => sample.title().to_owned(),
        })
        .collect();
    let stage = job.progress.stage();
    let what = if stage.is_empty() { format!("loading {}", names.join(", ")) } else { stage };
    let total = job.progress.bytes_total.load(std::sync::atomic::Ordering::Relaxed);
    if total > 1 << 20 { format!("{what} ({:.1} MB)", total as f64 / 1048576.0) } else { what }
}

impl eframe::App for ViewerApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.gpu.sync(frame.wgpu_render_state(), &self.doc);
        let now = Instant::now();
        let dt = if self.screenshot.is_some() {
            // Automated runs are deterministic: a fixed step per frame, whatever the machine's speed.
            1.0 / 60.0
        } else {
            self.last_frame.map_or(0.0, |t| (now - t).as_secs_f32()).min(0.25)
        };
        if let Some(t) = self.last_frame {
            let instant = 1.0 / (now - t).as_secs_f32().max(1e-4);
            self.fps = if self.fps == 0.0 { instant } else { self.fps * 0.9 + instant * 0.1 };
        }
        self.last_frame = Some(now);

        self.report_timing();
        self.poll_job();
        self.poll_export();
        self.diagnostics.poll(self.doc.generation);
        if self.job.is_none()
            && self.doc.generation > 0
            && self.diagnostics.generation == self.doc.generation
            && !self.diagnostics.running()
            && let Some(i) = self.initial_finding.take()
        {
            if i < self.diagnostics.findings.len() {
                self.show_finding(i);
            } else {
                self.notify(format!("--finding {i}: there are {} findings", self.diagnostics.findings.len()));
            }
        }
        if self.job.is_none() {
            let waker = ctx.clone();
            self.diagnostics.ensure(&self.doc, &self.pose.palette, false, move || waker.request_repaint());
        }
        self.poll_dialog(&ctx);
        self.poll_changes(&ctx);
        let mut cmds = Vec::new();
        self.dropped_files(&ctx, &mut cmds);
        self.shortcuts(&ctx, &mut cmds);

        // Animation.
        let log = &mut self.log;
        let total = &mut self.fired_total;
        self.player.advance(&self.doc.asset, self.focus_track, dt, |f| {
            *total += 1;
            log.push_back(f);
            if log.len() > LOG_LIMIT {
                log.pop_front();
            }
        });
        self.player.evaluate(&mut self.pose);
        self.update_display_palette();
        self.recording_poses.resize_with(self.doc.asset.recordings.len(), RecordingPose::default);
        for (rec, pose) in self.doc.asset.recordings.iter().zip(&mut self.recording_poses) {
            evaluate_recording(rec, self.player.recording_time(rec.duration), pose);
        }

        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui, &mut cmds));
        if self.state.show_timeline {
            egui::Panel::bottom("timeline").resizable(true).default_size(250.0).min_size(120.0).show(ui, |ui| {
                let input = timeline::TimelineInput {
                    doc: &self.doc,
                    player: &self.player,
                    state: &self.state,
                    focus: self.focus_track,
                    selected: self.selected,
                    log: &self.log,
                };
                timeline::show(ui, &input, &mut self.timeline_view, &mut cmds);
            });
        }
        if self.state.show_outliner {
            egui::Panel::left("outliner").resizable(true).default_size(270.0).min_size(150.0).show(ui, |ui| {
                let clip = self.player.track(self.focus_track).and_then(|t| t.clip);
                outliner::show(ui, &self.doc, self.selected, clip, &mut self.outliner_view, &mut cmds);
            });
        }
        if self.state.show_inspector {
            egui::Panel::right("inspector").resizable(true).default_size(430.0).min_size(220.0).show(ui, |ui| {
                self.right_panel(ui, &mut cmds);
            });
        }
        self.camera.orthographic = self.state.orthographic;
        let status = StatusInfo {
            fps: self.fps,
            triangles: self.doc.asset.triangle_count(),
            vertices: self.doc.asset.vertex_count(),
            bones: self.doc.asset.skeleton.len(),
            adapter: if self.gpu.backend.is_empty() {
                self.gpu.adapter.clone()
            } else {
                format!("{} · {}", self.gpu.adapter, self.gpu.backend)
            },
            renderer: if self.gpu.active() { "wgpu renderer" } else { "egui painter" },
        };
        let mut viewport_rect = egui::Rect::NOTHING;
        egui::CentralPanel::no_frame().show(ui, |ui| {
            let input = viewport::ViewInput {
                doc: &self.doc,
                pose: &self.pose,
                palette: &self.display_palette,
                highlight: self.highlight.as_ref(),
                hover_labels: self.screenshot.is_none(),
                state: &self.state,
                camera: &self.camera,
                selected: self.selected,
                recordings: &self.recording_poses,
                status: &status,
                gpu_model: if self.gpu.active() { self.gpu.model() } else { None },
            };
            viewport_rect = viewport::show(ui, &input, &mut self.viewport_cache, &mut cmds);
            self.empty_hint(ui, viewport_rect);
        });
        self.windows(&ctx, viewport_rect, &mut cmds);

        if self.frame_next {
            // A new scene: frame the whole first clip, so that the animation stays in view.
            self.frame_next = false;
            self.frame_clip();
            if let Some(z) = self.initial_zoom.take() {
                self.camera.zoom(1.0 / z);
            }
        }
        for cmd in cmds {
            self.apply(&ctx, cmd);
        }
        if self.quit {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        self.screenshot_step(&ctx);
        if self.notice.is_some() {
            if self.notice_since.elapsed() > Duration::from_secs(10) {
                self.notice = None;
            } else {
                ctx.request_repaint_after(Duration::from_millis(500));
            }
        }
        if self.player.playing || self.job.is_some() || self.dialog.is_some() || self.diagnostics.running() {
            ctx.request_repaint();
        } else if self.state.auto_reload && !self.doc.files.is_empty() {
            ctx.request_repaint_after(RELOAD_POLL);
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.screenshot.is_none() {
            eframe::set_value(storage, STORAGE_KEY, &self.state);
        }
    }

    fn persist_egui_memory(&self) -> bool {
        self.screenshot.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Format;
    use crate::scene::samples::demo::demo_asset;

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
    }

    #[test]
    fn track_specs_parse_names_positions_and_weights() {
        assert_eq!(parse_track_spec("Walk"), Ok(("Walk", 0.0, 1.0)));
        assert_eq!(parse_track_spec("Take 001@1.5"), Ok(("Take 001", 1.5, 1.0)));
        assert_eq!(parse_track_spec("Run@0.25*0.5"), Ok(("Run", 0.25, 0.5)));
        assert_eq!(parse_track_spec("Run*0.5"), Ok(("Run", 0.0, 0.5)));
        assert!(parse_track_spec("Run@x").unwrap_err().contains("position"));
        assert!(parse_track_spec("@1").unwrap_err().contains("no clip name"));
        assert!(parse_track_spec("Run*-1").is_err());
    }

    #[test]
    fn readme_lists_every_shortcut_of_the_help_window() {
        let readme = include_str!("../../README.md");
        for (k, what) in SHORTCUTS {
            assert!(readme.contains(&format!("| {k} | {what} |")), "README lacks the row for {k}");
        }
    }

    #[test]
    fn shortcut_list_covers_the_issue_keys() {
        let keys: Vec<&str> = SHORTCUTS.iter().map(|(k, _)| *k).collect();
        for k in ["Space", "← / →", "Home / End", "F", "1 / 3 / 7"] {
            assert!(keys.contains(&k), "{k} missing from the help window");
        }
    }
}
