//! The viewer's jobs in flight ([`Jobs`], at most one of each kind, each a [`Job`] on a worker thread): loading,
//! the file and folder dialogs, the export, and watching the open files. This module starts them and polls them;
//! what a finished one hands back is a [`JobOutcome`], a value the app applies (a load to make the open
//! document, files to open, a notice). Nothing here changes the app's state. The diagnostics keep their own
//! job (`state::diagnostics`).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use eframe::egui;

use crate::io::LoadOptions;
use crate::scene::{Asset, Retarget};
use crate::source::Source;

use crate::ui::commands::command::{Command, OpenMode};
use crate::ui::commands::export::{ExportJob, spawn_export};
use crate::ui::commands::loader::{LoadJob, LoadResults, Purpose};
#[cfg(not(target_arch = "wasm32"))]
use crate::ui::commands::watch::FileWatcher;
use crate::ui::state::document::display_name;
use crate::ui::state::settings::UiState;
use crate::ui::worker::Job;

/// A cancel takes a human a moment; a dialog that answers "nothing" sooner means no dialog could be shown.
const QUICK: Duration = Duration::from_millis(400);

/// What a finished job asks the app to do.
pub enum JobOutcome {
    /// A load is done: make its results the open document (as `purpose` says, with the `options` it used).
    Loaded { results: LoadResults, purpose: Purpose, options: LoadOptions },
    /// Load these (files picked in a dialog).
    Load { sources: Vec<Source>, purpose: Purpose },
    /// A watched file changed: load the open document again.
    Reload,
    /// Apply this command (a texture folder picked).
    Apply(Command),
    /// Tell the user.
    Notice(String),
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
    watch: Option<FileWatcher>,
    #[cfg(not(target_arch = "wasm32"))]
    watched: Vec<PathBuf>,
    /// A watched file changed while a load was running: reload once it is done.
    #[cfg(not(target_arch = "wasm32"))]
    reload_pending: bool,
    pub export: Option<ExportJob>,
}

impl Jobs {
    /// The jobs of a viewer that starts with `load` running.
    pub fn loading(load: LoadJob) -> Self {
        Self { load: Some(load), ..Self::default() }
    }

    /// Something is running that the UI should keep repainting for.
    pub fn busy(&self) -> bool {
        self.load.is_some() || self.dialog.is_some()
    }

    /// Starts loading `sources` (nothing when there are none); a load in flight is abandoned.
    pub fn start_load(&mut self, ctx: &egui::Context, sources: Vec<Source>, purpose: Purpose, options: LoadOptions) {
        if sources.is_empty() {
            return;
        }
        let ctx = ctx.clone();
        self.load = Some(LoadJob::spawn(sources, purpose, options, move || ctx.request_repaint()));
    }

    /// The load's results once it is done.
    pub fn poll_load(&mut self) -> Option<JobOutcome> {
        let results = self.load.as_ref()?.poll()?;
        let job = self.load.take()?;
        Some(JobOutcome::Loaded { results, purpose: job.purpose, options: job.options })
    }

    /// The export's sentence for the notice line once it is done.
    pub fn poll_export(&mut self) -> Option<JobOutcome> {
        let job = self.export.as_ref()?;
        let outcome = job.poll()?;
        let quick = job.elapsed() < QUICK;
        self.export = None;
        match outcome {
            Ok(Some(text)) => Some(JobOutcome::Notice(text)),
            Err(lost) => Some(JobOutcome::Notice(format!("Export failed: {lost}"))),
            Ok(None) if quick => Some(JobOutcome::Notice(
                "No file dialog could be opened (no xdg-desktop-portal or zenity on this system). \
                 Export from the command line: bonescope export FILE… -o out.glb"
                    .to_owned(),
            )),
            Ok(None) => None,
        }
    }

    /// Asks where to save on a worker thread and exports `asset` there. `Err`: what to tell the user.
    pub fn start_export(
        &mut self,
        ctx: &egui::Context,
        asset: &Arc<Asset>,
        start: Option<PathBuf>,
    ) -> Result<(), String> {
        if self.export.is_some() {
            return Ok(());
        }
        if cfg!(target_arch = "wasm32") {
            return Err(
                "Export writes a file on your disk, which a web page cannot: use bonescope export FILE….".into()
            );
        }
        let waker = ctx.clone();
        self.export =
            Some(spawn_export(Arc::clone(asset), start, move || waker.request_repaint()).map_err(|e| e.to_string())?);
        Ok(())
    }

    /// The files picked in the open dialog, to load, once it is closed.
    pub fn poll_dialog(&mut self) -> Option<JobOutcome> {
        let d = self.dialog.as_ref()?;
        let result = d.job.poll()?;
        let d = self.dialog.take()?;
        match result.ok().flatten() {
            Some(paths) if !paths.is_empty() => Some(JobOutcome::Load {
                sources: paths.into_iter().map(Source::File).collect(),
                purpose: Purpose::Open(d.mode),
            }),
            _ if d.job.elapsed() < QUICK => Some(JobOutcome::Notice(
                "No file dialog could be opened (no xdg-desktop-portal or zenity on this system). \
                 Drag files onto the window, use File › Open recent, or pass them on the command line."
                    .to_owned(),
            )),
            _ => None,
        }
    }

    /// Asks for a texture folder on a worker thread. `Err`: what to tell the user.
    pub fn open_folder_dialog(&mut self, ctx: &egui::Context) -> Result<(), String> {
        if self.folder.is_some() {
            return Ok(());
        }
        if cfg!(target_arch = "wasm32") {
            return Err("A web page cannot read folders of your disk: drop the textures with the model instead.".into());
        }
        let waker = ctx.clone();
        #[cfg(target_arch = "wasm32")]
        let pick = || None::<PathBuf>;
        #[cfg(not(target_arch = "wasm32"))]
        let pick = || rfd::FileDialog::new().set_title("Add a texture folder").pick_folder();
        match Job::spawn("bonescope-folder-dialog", pick, move || waker.request_repaint()) {
            Ok(job) => self.folder = Some(job),
            Err(e) => return Err(format!("Could not open the folder dialog: {e}")),
        }
        Ok(())
    }

    /// The texture folder picked, as the command that adds it, once the dialog is closed.
    pub fn poll_folder_dialog(&mut self) -> Option<JobOutcome> {
        let job = self.folder.as_ref()?;
        let result = job.poll()?;
        let quick = job.elapsed() < QUICK;
        self.folder = None;
        match result.ok().flatten() {
            Some(dir) => Some(JobOutcome::Apply(Command::AddTextureFolder(dir))),
            None if quick => Some(JobOutcome::Notice(
                "No folder dialog could be opened (no xdg-desktop-portal or zenity on this system). \
                 Give texture folders on the command line: bonescope --textures DIR FILE…"
                    .to_owned(),
            )),
            None => None,
        }
    }

    /// Shows the open dialog (`start_dir`: where it opens). `Err`: what to tell the user.
    pub fn open_dialog(
        &mut self,
        ctx: &egui::Context,
        mode: OpenMode,
        start_dir: Option<PathBuf>,
    ) -> Result<(), String> {
        if self.dialog.is_some() {
            return Ok(());
        }
        #[cfg(target_arch = "wasm32")]
        {
            // The page's own file input (it reads the files and hands them over: `ui::web`).
            let _ = (ctx, start_dir);
            crate::ui::web::pick_files(mode);
            Ok(())
        }
        #[cfg(not(target_arch = "wasm32"))]
        self.open_native_dialog(ctx, mode, start_dir)
    }

    /// Asks for a folder and opens the model in it. `Err`: what to tell the user.
    pub fn open_folder_of_model_dialog(&mut self, ctx: &egui::Context) -> Result<(), String> {
        if self.dialog.is_some() {
            return Ok(());
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = ctx;
            crate::ui::web::pick_folder();
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let ctx = ctx.clone();
            let pick = || rfd::FileDialog::new().set_title("Open the model in a folder").pick_folder().map(|d| vec![d]);
            match Job::spawn("bonescope-dialog", pick, move || ctx.request_repaint()) {
                Ok(job) => self.dialog = Some(DialogJob { job, mode: OpenMode::Replace }),
                Err(e) => return Err(format!("Could not open the folder dialog: {e}")),
            }
        }
        Ok(())
    }

    /// Asks for a `.vdf` archive (or several of one folder); opening it shows its models. `Err`: what to tell
    /// the user.
    pub fn open_archive_dialog(&mut self, ctx: &egui::Context) -> Result<(), String> {
        if self.dialog.is_some() {
            return Ok(());
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = ctx;
            crate::ui::web::pick_files(OpenMode::Replace);
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let ctx = ctx.clone();
            let pick = || {
                rfd::FileDialog::new()
                    .set_title("Open a Gothic VDF archive and choose a model in it")
                    .add_filter("VDFS volumes", &["vdf", "VDF"])
                    .add_filter("All files", &["*"])
                    .pick_files()
            };
            match Job::spawn("bonescope-dialog", pick, move || ctx.request_repaint()) {
                Ok(job) => self.dialog = Some(DialogJob { job, mode: OpenMode::Replace }),
                Err(e) => return Err(format!("Could not open the file dialog: {e}")),
            }
        }
        Ok(())
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn open_native_dialog(
        &mut self,
        ctx: &egui::Context,
        mode: OpenMode,
        start_dir: Option<PathBuf>,
    ) -> Result<(), String> {
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
                    &[
                        "psk", "pskx", "psa", "smd", "vta", "dmx", "gz", "ase", "asc", "bin", "mrtk", "qc", "mds",
                        "mms", "msb", "vdf",
                    ],
                )
                .add_filter("Unreal ActorX (PSK, PSA)", &["psk", "pskx", "psa"])
                .add_filter("Valve SMD / VTA", &["smd", "vta"])
                .add_filter("Valve DMX (.dmx, .dmx.gz)", &["dmx", "gz"])
                .add_filter("3ds Max ASE / ASC", &["ase", "asc"])
                .add_filter("Model scripts (QC, MDS, MMS, MSB)", &["qc", "mds", "mms", "msb"])
                .add_filter("Gothic VDF archives", &["vdf"])
                .add_filter("MRTK input animation", &["bin", "mrtk"])
                .add_filter("All files", &["*"]);
            if let Some(dir) = start_dir {
                dialog = dialog.set_directory(dir);
            }
            dialog.pick_files()
        };
        match Job::spawn("bonescope-dialog", pick, move || ctx.request_repaint()) {
            Ok(job) => self.dialog = Some(DialogJob { job, mode }),
            Err(e) => return Err(format!("Could not open the file dialog: {e}")),
        }
        Ok(())
    }

    /// Follows the open files (`paths`) with a watcher while `auto_reload` is on, and asks for a reload when one
    /// of them changed (once no load is running). A new watcher for each new set of files.
    #[cfg(target_arch = "wasm32")]
    pub fn poll_changes(&mut self, _ctx: &egui::Context, _paths: Vec<PathBuf>, _auto_reload: bool) -> Vec<JobOutcome> {
        Vec::new()
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn poll_changes(&mut self, ctx: &egui::Context, paths: Vec<PathBuf>, auto_reload: bool) -> Vec<JobOutcome> {
        let mut outcomes = Vec::new();
        if self.watched != paths {
            self.watched = paths;
            self.watch = None;
            if auto_reload && !self.watched.is_empty() {
                let waker = ctx.clone();
                match FileWatcher::new(&self.watched, move || waker.request_repaint()) {
                    Ok(w) => self.watch = Some(w),
                    Err(e) => outcomes.push(JobOutcome::Notice(e.to_string())),
                }
            }
        }
        if !auto_reload {
            self.watch = None;
            self.watched.clear();
            return outcomes;
        }
        if let Some(changed) = self.watch.as_ref().and_then(FileWatcher::take_changed) {
            self.reload_pending = !changed.is_empty();
        }
        if self.reload_pending && self.load.is_none() {
            self.reload_pending = false;
            outcomes.push(JobOutcome::Reload);
        }
        outcomes
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
