//! Loading files off the UI thread. A [`LoadJob`] reads each file in chunks on a worker thread (so the UI can
//! show how far reading has got), parses it with `io` (a built-in sample is made instead), and sends the assets
//! back; the app decides what to do
//! with them (new scene, or bind to the loaded model). A failure names the file, the position and the reason,
//! and leaves whatever was open untouched.

use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::io::{self, LoadError, LoadErrorKind, LoadOptions};
use crate::scene::Asset;
use crate::source::Source;

use super::command::OpenMode;
use super::document::{Origin, SourceFile};
use super::jobs::Job;

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
    job: Job<Result<Vec<Loaded>, LoadError>>,
}

impl LoadJob {
    /// Starts loading `sources` on a worker thread; `wake` is called when it is done (to repaint the UI).
    pub fn spawn(sources: Vec<Source>, purpose: Purpose, wake: impl FnOnce() + Send + 'static) -> Self {
        let progress = Arc::new(Progress::default());
        let (worker_sources, worker_progress) = (sources.clone(), progress.clone());
        let job = Job::spawn("bonescope-load", move || load_all(&worker_sources, &worker_progress), wake)
            .unwrap_or_else(|e| {
                Job::finished(Err(LoadError::whole_file(format!("could not start a loading thread: {e}"))))
            });
        Self { sources, purpose, progress, job }
    }

    /// The result once the worker has finished.
    pub fn poll(&self) -> Option<Result<Vec<Loaded>, LoadError>> {
        self.job.poll().map(|r| r.unwrap_or_else(|lost| Err(LoadError::whole_file(lost.to_string()))))
    }

    /// How long the job has been running.
    pub fn elapsed(&self) -> Duration {
        self.job.elapsed()
    }
}

fn load_all(sources: &[Source], progress: &Progress) -> Result<Vec<Loaded>, LoadError> {
    let total: u64 =
        sources.iter().filter_map(Source::path).filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum();
    progress.bytes_total.store(total, Ordering::Relaxed);
    sources
        .iter()
        .map(|source| match source {
            Source::File(path) => load_one(path, progress),
            Source::Sample(sample) => Ok(Loaded { asset: sample.asset(), origin: Origin::Sample(*sample) }),
        })
        .collect()
}

/// Like `io::load_path`, reading in chunks so that progress can be shown.
pub fn load_one(path: &Path, progress: &Progress) -> Result<Loaded, LoadError> {
    let fail = |e: LoadError| e.in_file(path);
    let name = super::document::display_name(path);
    progress.set_stage(format!("reading {name}"));
    let size = io::check_file(path).map_err(fail)?;
    let mut file = std::fs::File::open(path).map_err(|e| fail(LoadError::io("cannot open", &e)))?;
    // The size is checked against the limit above; the file may still grow or shrink while being read.
    let mut bytes = Vec::with_capacity(size as usize);
    let mut chunk = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut chunk).map_err(|e| fail(LoadError::io("cannot read", &e)))?;
        if n == 0 {
            break;
        }
        bytes.extend_from_slice(&chunk[..n]);
        progress.bytes_done.fetch_add(n as u64, Ordering::Relaxed);
        if bytes.len() as u64 > io::MAX_FILE_SIZE {
            return Err(fail(
                LoadError::whole_file("the file grew past the size limit while being read")
                    .with_kind(LoadErrorKind::TooLarge),
            ));
        }
    }
    let format = io::detect_file_format(&bytes, path).map_err(fail)?;
    progress.set_stage(format!("parsing {name}"));
    let opts = LoadOptions { base_dir: path.parent().map(Path::to_path_buf), ..LoadOptions::default() };
    let mut asset = io::load_format(format, &bytes, &opts).map_err(fail)?;
    asset.path = Some(path.to_path_buf());
    Ok(Loaded { asset, origin: Origin::File(SourceFile::new(path, format)) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::samples::Sample;

    fn wait(job: &LoadJob) -> Result<Vec<Loaded>, LoadError> {
        loop {
            if let Some(r) = job.poll() {
                return r;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn demo_loads_on_the_worker() {
        let job = LoadJob::spawn(vec![Source::Sample(Sample::Demo)], Purpose::Open(OpenMode::Replace), || {});
        let loaded = wait(&job).unwrap();
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
        let job = LoadJob::spawn(vec![Source::File(empty.clone())], Purpose::Open(OpenMode::Replace), || {});
        let err = wait(&job).err().unwrap();
        assert_eq!(err.file.as_deref(), Some(empty.as_path()));
        assert_eq!(err.kind, LoadErrorKind::Empty, "{err}");
        let unknown = dir.join("notes.txt");
        std::fs::write(&unknown, b"hello").unwrap();
        let progress = Progress::default();
        let err = load_one(&unknown, &progress).err().unwrap();
        assert_eq!(err.kind, LoadErrorKind::UnknownFormat, "{err}");
        assert_eq!(progress.bytes_done.load(Ordering::Relaxed), 5);
        let missing = load_one(&dir.join("missing.psk"), &progress).err().unwrap();
        assert_eq!(missing.kind, LoadErrorKind::Io(std::io::ErrorKind::NotFound), "{missing}");
        let dir_err = load_one(&dir, &progress).err().unwrap();
        assert_eq!(dir_err.kind, LoadErrorKind::NotAFile, "{dir_err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
