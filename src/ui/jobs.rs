//! The viewer's background work. [`Job`] is one value computed on a worker thread — loading files, a file
//! dialog, an export, the diagnostics — so that a frame never waits on it: the worker computes the value and
//! wakes the UI (a repaint), the UI polls once per frame and takes the value when it is there. Dropping a job
//! abandons its result (the worker finishes and its send goes nowhere). [`Jobs`] are the ones in flight, and
//! this module starts them and picks up what they return (diagnostics keep theirs in their tab).

use std::path::PathBuf;
use std::sync::{Arc, mpsc};
use std::time::Duration;

use web_time::Instant;

use eframe::egui;

use crate::io::LoadOptions;
use crate::scene::Retarget;
use crate::source::Source;

use super::app::ViewerApp;
use super::command::OpenMode;
use super::document::display_name;
use super::export::{ExportJob, spawn_export};
use super::loader::{LoadJob, Purpose};
use super::state::UiState;
#[cfg(not(target_arch = "wasm32"))]
use super::watch::FileWatcher;

/// The worker ended without an answer (it panicked).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the worker thread stopped unexpectedly (a bug: please report it)")]
pub struct JobLost;

/// One value being computed on a worker thread.
pub struct Job<T> {
    rx: mpsc::Receiver<T>,
    started: Instant,
}

impl<T: Send + 'static> Job<T> {
    /// Runs `work` on a new thread named `name`, then calls `wake` (to repaint the UI). Fails only when no
    /// thread can be started. In the web page it runs `work` at once.
    pub fn spawn(
        name: &str,
        work: impl FnOnce() -> T + Send + 'static,
        wake: impl FnOnce() + Send + 'static,
    ) -> std::io::Result<Self> {
        // A web page has one thread: the work runs now, and the job is done when it is polled.
        #[cfg(target_arch = "wasm32")]
        {
            let _ = name;
            let job = Self::finished(work());
            wake();
            Ok(job)
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let (tx, rx) = mpsc::channel();
            std::thread::Builder::new().name(name.to_owned()).spawn(move || {
                let _ = tx.send(work());
                wake();
            })?;
            Ok(Self { rx, started: Instant::now() })
        }
    }

    /// A job that is already done: `value` is taken at the first poll.
    pub fn finished(value: T) -> Self {
        let (tx, rx) = mpsc::channel();
        let _ = tx.send(value);
        Self { rx, started: Instant::now() }
    }

    /// The value once the worker has produced it; `None` while it is still working.
    pub fn poll(&self) -> Option<Result<T, JobLost>> {
        match self.rx.try_recv() {
            Ok(value) => Some(Ok(value)),
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => Some(Err(JobLost)),
        }
    }

    /// How long ago the job started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// The file-dialog request in flight: the files picked (`None`: cancelled, or no dialog could be shown).
pub struct DialogJob {
    job: Job<Option<Vec<PathBuf>>>,
    mode: OpenMode,
}

/// The viewer's jobs in flight (at most one of each kind).
#[derive(Default)]
pub struct Jobs {
    pub load: Option<LoadJob>,
    pub dialog: Option<DialogJob>,
    /// The Settings › Texture folders folder picker: the folder picked, if any.
    pub folder: Option<Job<Option<PathBuf>>>,
    /// Watches the open files (when reloading on change is on), and which files it watches.
    #[cfg(not(target_arch = "wasm32"))]
    pub watch: Option<FileWatcher>,
    pub watched: Vec<PathBuf>,
    /// A watched file changed while a load was running: reload once it is done.
    pub reload_pending: bool,
    pub export: Option<ExportJob>,
}

impl Jobs {
    /// Something is running that the UI should keep repainting for.
    pub fn busy(&self) -> bool {
        self.load.is_some() || self.dialog.is_some()
    }
}

impl ViewerApp {
    pub(super) fn start_load(&mut self, ctx: &egui::Context, sources: Vec<Source>, purpose: Purpose) {
        if sources.is_empty() {
            return;
        }
        let ctx = ctx.clone();
        let options = self.load_options();
        self.jobs.load = Some(LoadJob::spawn(sources, purpose, options, move || ctx.request_repaint()));
    }

    /// The options every load of the viewer uses.
    pub(super) fn load_options(&self) -> LoadOptions {
        LoadOptions {
            files: self.files.clone(),
            ..viewer_load_options(&self.cli_textures, &self.cli_retarget, &self.state)
        }
    }

    pub(super) fn poll_load(&mut self) {
        let Some(job) = &self.jobs.load else { return };
        let Some(results) = job.poll() else { return };
        let Some(job) = self.jobs.load.take() else { return };
        let errors = self.apply_loaded(results, job.purpose, &job.options);
        for e in &errors {
            self.script.fail(|| format!("load failed: {e}"));
        }
        self.messages.errors = errors;
    }

    pub(super) fn poll_export(&mut self) {
        let Some(job) = &self.jobs.export else { return };
        let Some(outcome) = job.poll() else { return };
        // A cancel takes a human a moment; "nothing" straight away means no dialog could be shown.
        let quick = job.elapsed() < Duration::from_millis(400);
        self.jobs.export = None;
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

    /// Asks where to save on a worker thread and exports the open scene there.
    pub(super) fn start_export(&mut self, ctx: &egui::Context) {
        if self.jobs.export.is_some() || self.view.doc.is_empty() {
            return;
        }
        if cfg!(target_arch = "wasm32") {
            self.notify("Export writes a file on your disk, which a web page cannot: use bonescope export FILE….");
            return;
        }
        let waker = ctx.clone();
        let start = self.view.doc.files.first().map(|f| f.path.clone());
        match spawn_export(Arc::clone(&self.view.doc.asset), start, move || waker.request_repaint()) {
            Ok(job) => self.jobs.export = Some(job),
            Err(e) => self.notify(e.to_string()),
        }
    }

    pub(super) fn poll_dialog(&mut self, ctx: &egui::Context) {
        let Some(d) = &self.jobs.dialog else { return };
        let Some(result) = d.job.poll() else { return };
        let Some(d) = self.jobs.dialog.take() else { return };
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

    /// Asks for a texture folder on a worker thread.
    pub(super) fn open_folder_dialog(&mut self, ctx: &egui::Context) {
        if self.jobs.folder.is_some() {
            return;
        }
        if cfg!(target_arch = "wasm32") {
            self.notify("A web page cannot read folders of your disk: drop the textures with the model instead.");
            return;
        }
        let waker = ctx.clone();
        #[cfg(target_arch = "wasm32")]
        let pick = || None::<PathBuf>;
        #[cfg(not(target_arch = "wasm32"))]
        let pick = || rfd::FileDialog::new().set_title("Add a texture folder").pick_folder();
        match Job::spawn("bonescope-folder-dialog", pick, move || waker.request_repaint()) {
            Ok(job) => self.jobs.folder = Some(job),
            Err(e) => self.notify(format!("Could not open the folder dialog: {e}")),
        }
    }

    pub(super) fn poll_folder_dialog(&mut self, ctx: &egui::Context) {
        let Some(job) = &self.jobs.folder else { return };
        let Some(result) = job.poll() else { return };
        let quick = job.elapsed() < Duration::from_millis(400);
        self.jobs.folder = None;
        match result.ok().flatten() {
            Some(dir) => self.apply(ctx, super::command::Command::AddTextureFolder(dir)),
            None if quick => self.notify(
                "No folder dialog could be opened (no xdg-desktop-portal or zenity on this system). \
                 Give texture folders on the command line: bonescope --textures DIR FILE…",
            ),
            None => {}
        }
    }

    /// Opens the document again so that its textures are looked for in the texture folders as they are now.
    pub(super) fn reload_for_textures(&mut self, ctx: &egui::Context) {
        if !self.view.doc.files.is_empty() && self.jobs.load.is_none() {
            self.start_load(ctx, self.view.doc.sources(), Purpose::Reload);
        }
    }

    pub(super) fn open_dialog(&mut self, ctx: &egui::Context, mode: OpenMode) {
        if self.jobs.dialog.is_some() {
            return;
        }
        #[cfg(target_arch = "wasm32")]
        {
            // The page's own file input (it reads the files and hands them over: `ui::web`).
            let _ = ctx;
            super::web::pick_files(mode);
        }
        #[cfg(not(target_arch = "wasm32"))]
        self.open_native_dialog(ctx, mode);
    }

    /// Asks for a folder and opens the model in it.
    pub(super) fn open_folder_of_model_dialog(&mut self, ctx: &egui::Context) {
        if self.jobs.dialog.is_some() {
            return;
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = ctx;
            super::web::pick_folder();
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let ctx = ctx.clone();
            let pick = || rfd::FileDialog::new().set_title("Open the model in a folder").pick_folder().map(|d| vec![d]);
            match Job::spawn("bonescope-dialog", pick, move || ctx.request_repaint()) {
                Ok(job) => self.jobs.dialog = Some(DialogJob { job, mode: OpenMode::Replace }),
                Err(e) => self.notify(format!("Could not open the folder dialog: {e}")),
            }
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn open_native_dialog(&mut self, ctx: &egui::Context, mode: OpenMode) {
        let start_dir = self.view.doc.files.first().and_then(|f| f.path.parent().map(PathBuf::from));
        let ctx = ctx.clone();
        let pick = move || {
            let mut dialog = rfd::FileDialog::new()
                .set_title(match mode {
                    OpenMode::Bind => "Add animation files to the open model",
                    OpenMode::Replace => "Open as a new model (and animations)",
                    OpenMode::Auto => "Open a model, or animation files for the open model",
                })
                .add_filter(
                    "All supported",
                    &["psk", "pskx", "psa", "smd", "vta", "ase", "asc", "bin", "mrtk", "qc", "mds", "mms"],
                )
                .add_filter("Unreal ActorX (PSK, PSA)", &["psk", "pskx", "psa"])
                .add_filter("Valve SMD / VTA", &["smd", "vta"])
                .add_filter("3ds Max ASE / ASC", &["ase", "asc"])
                .add_filter("Model scripts (QC, MDS, MMS)", &["qc", "mds", "mms"])
                .add_filter("MRTK input animation", &["bin", "mrtk"])
                .add_filter("All files", &["*"]);
            if let Some(dir) = start_dir {
                dialog = dialog.set_directory(dir);
            }
            dialog.pick_files()
        };
        match Job::spawn("bonescope-dialog", pick, move || ctx.request_repaint()) {
            Ok(job) => self.jobs.dialog = Some(DialogJob { job, mode }),
            Err(e) => self.notify(format!("Could not open the file dialog: {e}")),
        }
    }

    /// Reloads the document when the watcher saw one of its files change (once no load is running). The
    /// watcher follows the document: a new one for each new set of files.
    #[cfg(target_arch = "wasm32")]
    pub(super) fn poll_changes(&mut self, _ctx: &egui::Context) {}

    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn poll_changes(&mut self, ctx: &egui::Context) {
        let paths = self.view.doc.paths();
        if self.jobs.watched != paths {
            self.jobs.watched = paths;
            self.jobs.watch = None;
            if self.state.auto_reload && !self.jobs.watched.is_empty() {
                let waker = ctx.clone();
                match FileWatcher::new(&self.jobs.watched, move || waker.request_repaint()) {
                    Ok(w) => self.jobs.watch = Some(w),
                    Err(e) => self.notify(e.to_string()),
                }
            }
        }
        if !self.state.auto_reload {
            self.jobs.watch = None;
            self.jobs.watched.clear();
            return;
        }
        if let Some(changed) = self.jobs.watch.as_ref().and_then(FileWatcher::take_changed) {
            self.jobs.reload_pending = !changed.is_empty();
        }
        if self.jobs.reload_pending && self.jobs.load.is_none() {
            self.jobs.reload_pending = false;
            self.start_load(ctx, self.view.doc.sources(), Purpose::Reload);
        }
    }
}

/// The viewer's load options: texture folders from the command line (`--textures`), then those of Settings.
/// A fresh folder cache each time: a load sees the folders as they are now.
pub fn viewer_load_options(cli_textures: &[PathBuf], retarget: &Retarget, state: &UiState) -> LoadOptions {
    let mut texture_dirs = cli_textures.to_vec();
    texture_dirs.extend(state.texture_dirs.iter().filter(|d| !cli_textures.contains(d)).cloned());
    LoadOptions { texture_dirs, retarget: retarget.clone(), ..LoadOptions::default() }
}

/// What the loading spinner says: the stage, or the files being loaded, and the size when it is large.
pub fn job_text(job: &LoadJob) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Barrier};

    #[test]
    fn the_value_arrives_once_the_worker_is_done_and_the_ui_is_woken() {
        let gate = Arc::new(Barrier::new(2));
        let woken = Arc::new(AtomicBool::new(false));
        let (worker_gate, worker_woken) = (gate.clone(), woken.clone());
        let job = Job::spawn(
            "test-job",
            move || {
                worker_gate.wait();
                6 * 7
            },
            move || worker_woken.store(true, Ordering::SeqCst),
        )
        .unwrap();
        // The worker is held at the gate: nothing yet.
        assert!(job.poll().is_none());
        gate.wait();
        let value = loop {
            if let Some(v) = job.poll() {
                break v;
            }
            std::thread::yield_now();
        };
        assert_eq!(value, Ok(42));
        // `wake` runs after the send; it has run once the thread is gone.
        while !woken.load(Ordering::SeqCst) {
            std::thread::yield_now();
        }
        assert_eq!(Job::finished("x").poll(), Some(Ok("x")));
    }

    #[test]
    fn a_worker_that_panics_is_reported_as_lost() {
        let job = Job::<u32>::spawn("test-job-panics", || panic!("deliberate"), || {}).unwrap();
        let result = loop {
            if let Some(r) = job.poll() {
                break r;
            }
            std::thread::yield_now();
        };
        assert_eq!(result, Err(JobLost));
    }
}
