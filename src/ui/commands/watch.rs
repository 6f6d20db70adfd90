//! Watching the open files for changes on disk, so the viewer reloads them when an exporter or an editor writes
//! them. The operating system tells (inotify, FSEvents, ReadDirectoryChangesW, through the `notify` crate)
//! instead of the viewer polling: nothing runs while nothing changes. The folders holding the files are watched
//! rather than the files themselves, since a file replaced by a rename is a new file the old watch would not
//! follow.
//!
//! Changes are debounced by a quiet period: a change is reported once the watched files have had no further
//! change for [`DEBOUNCE`]. An exporter writing a file in pieces, or an editor writing a temporary file, renaming
//! it over the old one and touching it again, gives one report however the pieces fall. (A per-event delay, as
//! `notify-debouncer-full` gives, reports such a burst in two halves whenever its timer ticks between them, and
//! the viewer would load a half-written file.)
//!
//! Only changes count: inotify also reports every open and every read-only close of a watched file (`notify`
//! passes them on as `Access` events), so a viewer that took those for changes would reload whenever anything
//! read the file — its own reload included, an endless loop. A write that finishes (`Access(Close(Write))`) is a
//! change; other access is not. When the operating system says it lost events (an overflowing inotify queue),
//! every watched file counts as changed.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode};
use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};

/// How long the files must be quiet before a change is reported.
pub const DEBOUNCE: Duration = Duration::from_millis(300);

/// Watches a set of files; [`FileWatcher::take_changed`] says whether any changed since it was last asked.
pub struct FileWatcher {
    /// Dropping the watcher closes its event channel, which ends the debouncing thread.
    _watcher: RecommendedWatcher,
    changed: Arc<AtomicBool>,
    /// The paths of the last change, for the notice.
    last: Arc<Mutex<Vec<PathBuf>>>,
}

/// Why the open files cannot be watched (the viewer then offers no reload on change).
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error("cannot watch the open files for changes: {0}")]
    Start(#[source] notify::Error),
    #[error("cannot watch {} for changes: {source}", folder.display())]
    Folder {
        folder: PathBuf,
        #[source]
        source: notify::Error,
    },
    #[error("cannot start watching the open files for changes: {0}")]
    Thread(#[source] std::io::Error),
}

impl FileWatcher {
    /// Starts watching `files`; `wake` is called (from the watcher's thread) after each debounced change.
    pub fn new(files: &[PathBuf], wake: impl Fn() + Send + 'static) -> Result<Self, WatchError> {
        // A file inside a VDFS volume changes when its volume does.
        let holders: Vec<PathBuf> = files.iter().map(|p| crate::files::mount::holder(p)).collect();
        let folders: HashSet<PathBuf> =
            holders.iter().filter_map(|p| absolute(p).parent().map(Path::to_path_buf)).collect();
        let files: WatchedFiles = holders.iter().map(|p| (watch_key(p), absolute(p))).collect();
        let changed = Arc::new(AtomicBool::new(false));
        let last = Arc::new(Mutex::new(Vec::new()));
        let (sender, events) = std::sync::mpsc::channel();
        let mut watcher = notify::recommended_watcher(sender).map_err(WatchError::Start)?;
        for folder in &folders {
            watcher
                .watch(folder, RecursiveMode::NonRecursive)
                .map_err(|source| WatchError::Folder { folder: folder.clone(), source })?;
        }
        let (flag, seen) = (changed.clone(), last.clone());
        std::thread::Builder::new()
            .name("bonescope-file-watch".into())
            .spawn(move || {
                debounce(events, &files, |paths| {
                    if let Ok(mut last) = seen.lock() {
                        *last = paths;
                    }
                    flag.store(true, Ordering::SeqCst);
                    wake();
                })
            })
            .map_err(WatchError::Thread)?;
        Ok(Self { _watcher: watcher, changed, last })
    }

    /// Whether a watched file changed since the last call (and which, when it did).
    pub fn take_changed(&self) -> Option<Vec<PathBuf>> {
        if !self.changed.swap(false, Ordering::SeqCst) {
            return None;
        }
        Some(self.last.lock().map(|l| l.clone()).unwrap_or_default())
    }
}

/// The watched files by [`watch_key`], each with its absolute path.
type WatchedFiles = HashMap<PathBuf, PathBuf>;

/// Reads the watcher's events until it is dropped, calling `report` with the changed files after each quiet
/// period.
fn debounce(events: Receiver<notify::Result<Event>>, files: &WatchedFiles, mut report: impl FnMut(Vec<PathBuf>)) {
    let mut pending = QuietPeriod::new(DEBOUNCE);
    loop {
        let received = match pending.deadline() {
            Some(deadline) => events.recv_timeout(deadline.saturating_duration_since(Instant::now())),
            None => events.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match received {
            Ok(Ok(event)) => pending.add(changed_files(&event, files), Instant::now()),
            // An error from the operating system's watch names no file; the next event will.
            Ok(Err(_)) => {}
            Err(RecvTimeoutError::Timeout) => {
                if let Some(paths) = pending.take_due(Instant::now()) {
                    report(paths);
                }
            }
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}

/// The watched files an event says changed: those it names, or all of them when events were lost.
fn changed_files(event: &Event, files: &WatchedFiles) -> Vec<PathBuf> {
    if event.need_rescan() {
        let mut all: Vec<PathBuf> = files.values().cloned().collect();
        all.sort();
        return all;
    }
    if !is_change(&event.kind) {
        return Vec::new();
    }
    event.paths.iter().filter(|p| files.contains_key(&watch_key(p))).cloned().collect()
}

/// Changes gathered until none has come for a while: each change moves the deadline on.
struct QuietPeriod {
    quiet: Duration,
    paths: Vec<PathBuf>,
    deadline: Option<Instant>,
}

impl QuietPeriod {
    fn new(quiet: Duration) -> Self {
        Self { quiet, paths: Vec::new(), deadline: None }
    }

    /// Adds the files one event changed at `now` (nothing when it changed none of ours).
    fn add(&mut self, paths: Vec<PathBuf>, now: Instant) {
        if paths.is_empty() {
            return;
        }
        for path in paths {
            if !self.paths.contains(&path) {
                self.paths.push(path);
            }
        }
        self.deadline = Some(now + self.quiet);
    }

    /// When the gathered changes are due, if any are gathered.
    fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The gathered files, once `now` is past the deadline; they are then forgotten.
    fn take_due(&mut self, now: Instant) -> Option<Vec<PathBuf>> {
        match self.deadline {
            Some(deadline) if now >= deadline => {
                self.deadline = None;
                Some(std::mem::take(&mut self.paths))
            }
            _ => None,
        }
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

/// How a watched file is known in the events: by its absolute path, and on Windows in any case. Its file systems
/// ignore case, and the events name a file as its folder does (`hero.smd`), whatever case it was opened by
/// (`HERO.SMD` typed on the command line).
fn watch_key(path: &Path) -> PathBuf {
    let path = absolute(path);
    if cfg!(windows) { PathBuf::from(path.to_string_lossy().to_lowercase()) } else { path }
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{CreateKind, DataChange, ModifyKind, RenameMode};

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
    fn a_burst_is_one_change_reported_after_the_last_piece() {
        let ms = Duration::from_millis;
        let start = Instant::now();
        let (model, anim) = (PathBuf::from("/a/hero.smd"), PathBuf::from("/a/walk.smd"));
        let mut quiet = QuietPeriod::new(ms(300));
        assert_eq!(quiet.deadline(), None);
        quiet.add(vec![model.clone()], start);
        quiet.add(Vec::new(), start + ms(100));
        assert_eq!(quiet.deadline(), Some(start + ms(300)), "an event naming none of ours moves nothing");
        // The second piece comes 250 ms later: the deadline moves with it, past the first one's.
        quiet.add(vec![anim.clone(), model.clone()], start + ms(250));
        assert_eq!(quiet.take_due(start + ms(320)), None, "still within the quiet period of the last piece");
        assert_eq!(quiet.take_due(start + ms(550)), Some(vec![model, anim]), "once, each file once");
        assert_eq!(quiet.take_due(start + ms(2000)), None);
        assert_eq!(quiet.deadline(), None);
    }

    #[test]
    fn reads_are_not_changes_and_lost_events_change_everything() {
        let files: WatchedFiles = ["/a/hero.smd", "/a/walk.smd"].map(|p| (watch_key(Path::new(p)), p.into())).into();
        let event = |kind, path: &str| Event::new(kind).add_path(PathBuf::from(path));
        let read = event(EventKind::Access(AccessKind::Close(AccessMode::Read)), "/a/hero.smd");
        let opened = event(EventKind::Access(AccessKind::Open(AccessMode::Any)), "/a/hero.smd");
        let written = event(EventKind::Access(AccessKind::Close(AccessMode::Write)), "/a/hero.smd");
        let modified = event(EventKind::Modify(ModifyKind::Data(DataChange::Any)), "/a/walk.smd");
        let renamed = event(EventKind::Modify(ModifyKind::Name(RenameMode::Both)), "/a/hero.smd.tmp")
            .add_path(PathBuf::from("/a/hero.smd"));
        let other = event(EventKind::Create(CreateKind::File), "/a/notes.txt");
        assert!(changed_files(&read, &files).is_empty());
        assert!(changed_files(&opened, &files).is_empty());
        assert!(changed_files(&other, &files).is_empty());
        assert_eq!(changed_files(&written, &files), [PathBuf::from("/a/hero.smd")]);
        assert_eq!(changed_files(&modified, &files), [PathBuf::from("/a/walk.smd")]);
        assert_eq!(changed_files(&renamed, &files), [PathBuf::from("/a/hero.smd")]);
        let lost = Event::new(EventKind::Other).set_flag(notify::event::Flag::Rescan);
        assert_eq!(changed_files(&lost, &files).len(), 2);
        // Another case is another file, except where the file system ignores case.
        let shouted = event(EventKind::Modify(ModifyKind::Data(DataChange::Any)), "/a/HERO.SMD");
        let expected = if cfg!(windows) { vec![PathBuf::from("/a/HERO.SMD")] } else { Vec::new() };
        assert_eq!(changed_files(&shouted, &files), expected);
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
        // An editor's save: a temporary file renamed over the model, then written again.
        let burst = Instant::now();
        let temp = dir.join("hero.smd.tmp");
        std::fs::write(&temp, "version 1\nnodes\n").unwrap();
        std::fs::rename(&temp, &model).unwrap();
        std::fs::write(&model, "version 1\nnodes\nend\n").unwrap();
        let burst_took = burst.elapsed();
        let changed = wait_for(&watcher, Duration::from_secs(5)).expect("the change is reported");
        assert!(changed.iter().all(|p| p.ends_with("hero.smd")), "{changed:?}");
        assert!(woken.load(Ordering::SeqCst));
        // One report for the burst — unless this thread was held up between the pieces for longer than the quiet
        // period itself (a loaded machine), when the pieces are rightly two changes.
        let again = wait_for(&watcher, DEBOUNCE * 3);
        if burst_took < DEBOUNCE {
            assert_eq!(again, None, "a burst of {burst_took:?} was reported twice");
        }
        // Reading the file (what a reload does) is not a change.
        for _ in 0..3 {
            assert!(!std::fs::read(&model).unwrap().is_empty());
        }
        assert_eq!(wait_for(&watcher, DEBOUNCE * 4), None, "reads are not changes");
        std::fs::remove_dir_all(&dir).ok();
    }
}
