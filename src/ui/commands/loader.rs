//! Loading files off the UI thread. A [`LoadJob`] runs the command line's loading steps on a worker thread —
//! [`io::read_path`] (the fast reader), then [`io::load_bytes`] (format detection, model scripts, clip names),
//! a built-in sample made instead — and reports progress between them. The UI thread then puts the results
//! together with [`assemble`], which adds them to an [`io::LoadedSet`] exactly as `source::load_set` does: the
//! first good file is the model (or the open model, when binding), the others are bound with [`io::bind`], and a
//! file that fails costs only itself. Each failure names the file, the position and the reason.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::io::{self, Added, LoadError, LoadOptions, LoadedSet};
use crate::scene::Asset;
use crate::source::Source;

use crate::ui::commands::command::OpenMode;
use crate::ui::state::document::{Origin, SourceFile};
use crate::ui::worker::Job;

/// Shared between the worker and the UI.
#[derive(Debug, Default)]
pub struct Progress {
    /// Bytes read so far, over all files of the job.
    pub bytes_done: AtomicU64,
    /// Total size of all files of the job.
    pub bytes_total: AtomicU64,
    /// What the worker is doing ("reading x.psk", "parsing x.psk").
    pub stage: Mutex<String>,
}

impl Progress {
    pub fn fraction(&self) -> Option<f32> {
        let total = self.bytes_total.load(Ordering::Relaxed);
        (total > 0).then(|| self.bytes_done.load(Ordering::Relaxed) as f32 / total as f32)
    }

    pub fn stage(&self) -> String {
        self.stage.lock().map(|s| s.clone()).unwrap_or_default()
    }

    fn set_stage(&self, s: String) {
        if let Ok(mut g) = self.stage.lock() {
            *g = s;
        }
    }
}

/// One loaded file or sample.
pub struct Loaded {
    pub asset: Asset,
    pub origin: Origin,
}

/// What a job returns: one result per source, in order.
pub type LoadResults = Vec<Result<Loaded, LoadError>>;
/// Why a job was started, so the result is applied the right way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    Open(OpenMode),
    /// Re-reading the open files because they changed on disk (or the user asked): keep the view.
    Reload,
}

/// Files (or samples) being loaded, and why.
pub struct LoadJob {
    pub sources: Vec<Source>,
    pub purpose: Purpose,
    pub progress: Arc<Progress>,
    /// The options the files were loaded with (binding uses them too).
    pub options: LoadOptions,
    job: Job<LoadResults>,
}

impl LoadJob {
    /// Starts loading `sources` on a worker thread; `wake` is called when it is done (to repaint the UI).
    pub fn spawn(
        sources: Vec<Source>,
        purpose: Purpose,
        options: LoadOptions,
        wake: impl FnOnce() + Send + 'static,
    ) -> Self {
        let progress = Arc::new(Progress::default());
        let (worker_sources, worker_progress, worker_options) = (sources.clone(), progress.clone(), options.clone());
        let job =
            Job::spawn("bonescope-load", move || load_all(&worker_sources, &worker_progress, &worker_options), wake)
                .unwrap_or_else(|e| {
                    Job::finished(vec![Err(LoadError::whole_file(format!("could not start a loading thread: {e}")))])
                });
        Self { sources, purpose, progress, options, job }
    }

    /// The results once the worker has finished.
    pub fn poll(&self) -> Option<LoadResults> {
        self.job.poll().map(|r| r.unwrap_or_else(|lost| vec![Err(LoadError::whole_file(lost.to_string()))]))
    }

    /// How long the job has been running.
    pub fn elapsed(&self) -> Duration {
        self.job.elapsed()
    }
}

fn load_all(sources: &[Source], progress: &Progress, opts: &LoadOptions) -> LoadResults {
    let total: u64 = sources
        .iter()
        .filter_map(Source::path)
        .filter_map(|p| match opts.files.kind(p) {
            Ok(crate::files::Kind::File { len }) => Some(len),
            _ => None,
        })
        .sum();
    progress.bytes_total.store(total, Ordering::Relaxed);
    sources
        .iter()
        .map(|source| match source {
            Source::File(path) => load_one(path, progress, opts),
            Source::Sample(sample) => Ok(Loaded { asset: sample.asset(), origin: Origin::Sample(*sample) }),
        })
        .collect()
}

/// `io::load_path` in its two halves, with the stage and the bytes read reported between them.
pub fn load_one(path: &std::path::Path, progress: &Progress, opts: &LoadOptions) -> Result<Loaded, LoadError> {
    let name = crate::ui::state::document::display_name(path);
    progress.set_stage(format!("reading {name}"));
    let bytes = io::read_path(&opts.files, path)?;
    progress.bytes_done.fetch_add(bytes.len() as u64, Ordering::Relaxed);
    progress.set_stage(format!("parsing {name}"));
    let asset = io::load_bytes(path, &bytes, opts)?;
    let format = match asset.format {
        Some(format) => format,
        None => io::detect_file_format(&bytes, path).map_err(|e| e.in_file(path))?,
    };
    Ok(Loaded { asset, origin: Origin::File(SourceFile::new(path, format)) })
}

/// A load's results put together: the scene (if any file loaded), the bind reports, the errors, and where each
/// file that made it into the scene came from, model first.
pub struct Assembled {
    pub set: LoadedSet,
    pub origins: Vec<Origin>,
}

/// Adds `results` to `set` in order with [`LoadedSet::add`] — the command line's `source::load_set` does the
/// same — keeping the origin of every file that was taken (as the model or bound to it).
pub fn assemble(mut set: LoadedSet, results: LoadResults, opts: &LoadOptions) -> Assembled {
    let mut origins = Vec::new();
    for result in results {
        match result {
            Ok(loaded) => {
                // Only what joined the scene is one of its files (the title counts them, a reload reads them).
                if matches!(set.add(Ok(loaded.asset), opts), Added::Model | Added::Bound) {
                    origins.push(loaded.origin);
                }
            }
            Err(e) => {
                set.add(Err(e), opts);
            }
        }
    }
    Assembled { set, origins }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::LoadErrorKind;
    use crate::scene::samples::Sample;

    fn wait(job: &LoadJob) -> LoadResults {
        loop {
            if let Some(r) = job.poll() {
                return r;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn demo_loads_on_the_worker() {
        let job = LoadJob::spawn(
            vec![Source::Sample(Sample::Demo)],
            Purpose::Open(OpenMode::Replace),
            LoadOptions::default(),
            || {},
        );
        let loaded: Vec<Loaded> = wait(&job).into_iter().map(Result::unwrap).collect();
        assert_eq!(loaded.len(), 1);
        assert_eq!(loaded[0].asset.skeleton.len(), crate::scene::samples::demo::BONES);
        assert_eq!(loaded[0].origin, Origin::Sample(Sample::Demo));
    }

    #[test]
    fn errors_name_the_file_and_reason() {
        let dir = std::env::temp_dir().join(format!("bonescope-ui-loader-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let empty = dir.join("empty.smd");
        std::fs::write(&empty, b"").unwrap();
        let opts = LoadOptions::default();
        let sources = vec![Source::File(empty.clone()), Source::Sample(Sample::Demo)];
        let job = LoadJob::spawn(sources, Purpose::Open(OpenMode::Replace), opts.clone(), || {});
        let results = wait(&job);
        // The empty file fails; the demo after it still loads.
        assert!(results[1].is_ok());
        let err = results.into_iter().next().unwrap().err().unwrap();
        assert_eq!(err.file.as_deref(), Some(empty.as_path()));
        assert_eq!(err.kind, LoadErrorKind::Empty, "{err}");
        let unknown = dir.join("notes.txt");
        std::fs::write(&unknown, b"hello").unwrap();
        let progress = Progress::default();
        let err = load_one(&unknown, &progress, &opts).err().unwrap();
        assert_eq!(err.kind, LoadErrorKind::UnknownFormat, "{err}");
        assert_eq!(progress.bytes_done.load(Ordering::Relaxed), 5);
        let missing = load_one(&dir.join("missing.psk"), &progress, &opts).err().unwrap();
        assert_eq!(missing.kind, LoadErrorKind::Io(std::io::ErrorKind::NotFound), "{missing}");
        let dir_err = load_one(&dir, &progress, &opts).err().unwrap();
        assert_eq!(dir_err.kind, LoadErrorKind::NotAFile, "{dir_err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
