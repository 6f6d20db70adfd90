//! Watching the open files for changes on disk, so the viewer reloads them when an exporter or an editor writes
//! them. The operating system tells (inotify, FSEvents, ReadDirectoryChangesW, through the `notify` crate)
//! instead of the viewer polling: nothing runs while nothing changes. Events are debounced — an exporter
//! writing a file in pieces, or an editor writing a temporary file and renaming it over the old one, gives one
//! change — and the folders holding the files are watched rather than the files themselves, since a file
//! replaced by a rename is a new file the old watch would not follow.
//!
//! Only changes count: inotify also reports every open and every read-only close of a watched file (`notify`
//! passes them on as `Access` events), so a viewer that took those for changes would reload whenever anything
//! read the file — its own reload included, an endless loop. A write that finishes (`Access(Close(Write))`) is a
//! change; other access is not.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use notify_debouncer_full::notify::event::{AccessKind, AccessMode};
use notify_debouncer_full::notify::{EventKind, RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

/// How long the files must be quiet before a change is reported.
pub const DEBOUNCE: Duration = Duration::from_millis(300);

/// Watches a set of files; [`FileWatcher::take_changed`] says whether any changed since it was last asked.
pub struct FileWatcher {
    _debouncer: Debouncer<RecommendedWatcher, RecommendedCache>,
    changed: Arc<AtomicBool>,
    /// The paths of the last change, for the notice.
    last: Arc<Mutex<Vec<PathBuf>>>,
}

impl FileWatcher {
    /// Starts watching `files`; `wake` is called (from the watcher's thread) after each debounced change.
    pub fn new(files: &[PathBuf], wake: impl Fn() + Send + 'static) -> Result<Self, String> {
        let files: HashSet<PathBuf> = files.iter().map(|p| absolute(p)).collect();
        let folders: HashSet<PathBuf> = files.iter().filter_map(|p| p.parent().map(Path::to_path_buf)).collect();
        let changed = Arc::new(AtomicBool::new(false));
        let last = Arc::new(Mutex::new(Vec::new()));
        let (flag, seen) = (changed.clone(), last.clone());
        let mut debouncer = new_debouncer(DEBOUNCE, None, move |result: DebounceEventResult| {
            let Ok(events) = result else { return };
            let mut ours: Vec<PathBuf> = events
                .iter()
                .filter(|e| is_change(&e.event.kind))
                .flat_map(|e| e.event.paths.iter())
                .filter(|p| files.contains(*p))
                .cloned()
                .collect();
            ours.dedup();
            if ours.is_empty() {
                return;
            }
            if let Ok(mut last) = seen.lock() {
                *last = ours;
            }
            flag.store(true, Ordering::SeqCst);
            wake();
        })
        .map_err(|e| format!("cannot watch the open files for changes: {e}"))?;
        for folder in &folders {
            debouncer
                .watch(folder, RecursiveMode::NonRecursive)
                .map_err(|e| format!("cannot watch {} for changes: {e}", folder.display()))?;
        }
        Ok(Self { _debouncer: debouncer, changed, last })
    }

    /// Whether a watched file changed since the last call (and which, when it did).
    pub fn take_changed(&self) -> Option<Vec<PathBuf>> {
        if !self.changed.swap(false, Ordering::SeqCst) {
            return None;
        }
        Some(self.last.lock().map(|l| l.clone()).unwrap_or_default())
    }
}

/// Whether an event says a file's content may have changed (not merely that it was opened or read).
fn is_change(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    }
}

/// The path made absolute (watch events name absolute paths), without resolving links.
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn wait_for(watcher: &FileWatcher, limit: Duration) -> Option<Vec<PathBuf>> {
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Some(paths) = watcher.take_changed() {
                return Some(paths);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    #[test]
    fn a_rewritten_file_is_reported_once_and_other_files_are_not() {
        let dir = std::env::temp_dir().join(format!("bonescope-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let model = dir.join("hero.smd");
        std::fs::write(&model, "version 1\n").unwrap();
        let woken = Arc::new(AtomicBool::new(false));
        let w = woken.clone();
        let watcher = FileWatcher::new(std::slice::from_ref(&model), move || w.store(true, Ordering::SeqCst)).unwrap();
        // Another file in the folder is not ours.
        std::fs::write(dir.join("notes.txt"), "x").unwrap();
        assert_eq!(wait_for(&watcher, DEBOUNCE * 4), None);
        // An editor's save: a temporary file renamed over the model, in two writes.
        let temp = dir.join("hero.smd.tmp");
        std::fs::write(&temp, "version 1\nnodes\n").unwrap();
        std::fs::rename(&temp, &model).unwrap();
        std::fs::write(&model, "version 1\nnodes\nend\n").unwrap();
        let changed = wait_for(&watcher, Duration::from_secs(5)).expect("the change is reported");
        assert!(changed.iter().all(|p| p.ends_with("hero.smd")), "{changed:?}");
        assert!(woken.load(Ordering::SeqCst));
        // Debounced: one report for the burst.
        assert_eq!(wait_for(&watcher, DEBOUNCE * 3), None);
        // Reading the file (what a reload does) is not a change.
        for _ in 0..3 {
            assert!(!std::fs::read(&model).unwrap().is_empty());
        }
        assert_eq!(wait_for(&watcher, DEBOUNCE * 4), None, "reads are not changes");
        std::fs::remove_dir_all(&dir).ok();
    }
}
