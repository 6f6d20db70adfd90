//! `bonescope check PATH…`: rig QA for a whole asset tree. The paths are walked, each file's part decided
//! (`roles`), and the files grouped into characters: model scripts with what they name, the other files paired
//! as a user pairs them (`walk`, `pair`); each character is loaded, bound and checked on a pool of `--jobs`
//! threads (`run`), one defect found by several characters merged into one finding (`merge`), and the findings
//! summed up as text (`text`), and on request as JSON (`json`) and a self-contained HTML page (`html`), with
//! thumbnails drawn headless (`thumbnail`, with the `gui` feature).
//!
//! Memory stays bounded: `--jobs` workers each take the next character, load it, check it and keep only its
//! findings, so at most `--jobs` characters are in memory at once. Each animation is bound to one character
//! only, so memory and work grow with the files, not with meshes × animations. The walk keeps only small
//! skeleton signatures of the loose files it pairs by skeleton (each loaded once for it and dropped: those files
//! are read twice, once to pair and once to check); a model script's `$include`s are read when grouping and again
//! when the script loads, and a file that two scripts name is loaded by each.
//!
//! With `--cache FILE` each unit's reports are kept, keyed by the contents of the files it reads (`cache`): a
//! unit whose files are unchanged is not loaded at all on the next run.
//!
//! Exit codes: 0 when no finding is at the `--fail-on` level or worse; 1 when some are; 2 when the command
//! could not run as asked (a path that does not exist, a report file that cannot be written, bad arguments).

mod cache;
mod html;
mod json;
mod merge;
mod overlay;
mod pair;
mod progress;
mod report;
mod roles;
mod run;
mod text;
#[cfg(feature = "gui")]
mod thumbnail;
mod walk;
mod zengin;

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use bonescope::anim::diagnostics::{DiagnoseOptions, Severity};
use bonescope::io::LoadOptions;

use report::{CharacterReport, Report};

/// Exit code when findings at the `--fail-on` level exist.
pub const EXIT_FINDINGS: i32 = 1;
/// Exit code when the check could not run as asked.
pub const EXIT_USAGE: i32 = 2;

/// The least severe finding that fails the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// Any error (a file that does not load, a missing file, a tearing clip, a broken bind pose, …).
    Error,
    /// Any error or warning.
    Warning,
    /// Any finding at all.
    Info,
    /// Never: report only.
    Never,
}

impl FailOn {
    pub fn severity(self) -> Option<Severity> {
        match self {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Info => Some(Severity::Info),
            FailOn::Never => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            FailOn::Error => "error",
            FailOn::Warning => "warning",
            FailOn::Info => "info",
            FailOn::Never => "never",
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Folders (walked) and files to check.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Write every finding with its location as JSON (schema: docs/check-json.md).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write a self-contained HTML report: a row per character, sortable, findings expandable.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Exit with 1 when findings at this level or worse exist.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,
    /// Characters checked at once (and held in memory at once); all cores by default.
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// Draw each character headless at its worst clip frame, the finding ringed, into the HTML report.
    #[arg(long)]
    pub thumbnails: bool,
    /// Keep each character's findings in FILE, keyed by the contents of every file it reads, the program's
    /// version and the options: a later run re-checks only the characters whose files changed.
    #[arg(long, value_name = "FILE")]
    pub cache: Option<PathBuf>,
    /// How files are opened and animations bound: the options every command takes.
    #[command(flatten)]
    pub load: super::LoadArgs,
}

/// Runs the command; returns the process exit code.
pub fn run(args: &CheckArgs) -> i32 {
    let started = Instant::now();
    let load = args.load.options();
    let tree = walk::group(&args.paths, &load);
    for missing in &tree.missing_roots {
        eprintln!("error: {}: no such file or folder", missing.display());
    }
    if !tree.missing_roots.is_empty() {
        return EXIT_USAGE;
    }
    if args.thumbnails && !cfg!(feature = "gui") {
        eprintln!("error: --thumbnails needs a build with the `gui` feature (headless rendering)");
        return EXIT_USAGE;
    }
    if args.thumbnails && args.html.is_none() {
        eprintln!("note: --thumbnails are drawn into the HTML report; give --html FILE to see them");
    }
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)).max(1);
    eprintln!("grouping: {}", walk::GROUPING_RULE);
    eprintln!(
        "{} file(s) in {} group(s) under {}; checking with {jobs} job(s)",
        tree.files,
        tree.units.len(),
        args.paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
    );
    let (files, other_files) = (tree.files, tree.other_files);
    let options = DiagnoseOptions::default();
    let cache = match &args.cache {
        Some(path) => match cache::Cache::open(path, &format!("{:?} {options:?}", args.load)) {
            Ok(cache) => Some(cache),
            Err(e) => {
                eprintln!("error: {e}");
                return EXIT_USAGE;
            }
        },
        None => None,
    };
    let setup = Setup { jobs, thumbnails: args.thumbnails, load: &load, options: &options, cache: cache.as_ref() };
    let characters = match check_all(tree.units, &setup) {
        Ok(mut c) => {
            merge::merge_defects(&mut c);
            c
        }
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    if let Some(cache) = cache {
        eprintln!("{}", cache::summary(&cache));
        if let Err(e) = cache.save() {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    }
    let report = Report { roots: args.paths.clone(), files, other_files, characters, elapsed: started.elapsed() };
    super::emit(&text::summary(&report, args.fail_on));
    let mut code = match args.fail_on.severity() {
        Some(level) if report.counts().at_least(level) > 0 => EXIT_FINDINGS,
        _ => 0,
    };
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&json::document(&report, args.fail_on)).unwrap_or_default();
        code = write_report(path, &text, "JSON").map_or(EXIT_USAGE, |()| code);
    }
    if let Some(path) = &args.html {
        code = write_report(path, &html::page(&report, args.fail_on), "HTML").map_or(EXIT_USAGE, |()| code);
    }
    code
}

fn write_report(path: &std::path::Path, text: &str, what: &str) -> Result<(), ()> {
    match std::fs::write(path, text) {
        Ok(()) => {
            eprintln!("{what} report: {}", path.display());
            Ok(())
        }
        Err(e) => {
            eprintln!("error: cannot write the {what} report {}: {e}", path.display());
            Err(())
        }
    }
}

/// How one run checks its units.
struct Setup<'a> {
    jobs: usize,
    thumbnails: bool,
    /// One set of load options serves the whole run: its folder cache then lists each texture folder once.
    load: &'a LoadOptions,
    options: &'a DiagnoseOptions,
    cache: Option<&'a cache::Cache>,
}

/// Checks every unit with `jobs` workers. Each worker takes the next unit and runs it on a rayon pool of
/// `jobs` threads (loaders parallelise inside a character); because units are handed out by the workers, not
/// by the pool, a pool thread waiting inside one character never starts another, and at most `jobs` are held
/// at once. Reports come back in the walk's order.
/// With a cache, a unit whose key is in it is not checked: its reports are taken from it (not with
/// `--thumbnails`, which draws the loaded characters).
fn check_all(units: Vec<walk::Unit>, setup: &Setup<'_>) -> Result<Vec<CharacterReport>, String> {
    let jobs = setup.jobs;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .thread_name(|i| format!("check-{i}"))
        .build()
        .map_err(|e| format!("cannot start {jobs} worker threads: {e}"))?;
    let total_files: usize = units.iter().map(walk::Unit::file_count).sum();
    let progress = progress::Progress::new(units.len(), total_files);
    let count = units.len();
    let queue: Mutex<std::vec::IntoIter<(usize, walk::Unit)>> =
        Mutex::new(units.into_iter().enumerate().collect::<Vec<_>>().into_iter());
    let results: Mutex<Vec<(usize, Vec<CharacterReport>)>> = Mutex::new(Vec::with_capacity(count));
    let draw = thumbnail_drawer(setup.thumbnails);
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(count.max(1)) {
            scope.spawn(|| {
                // The lock is taken and released inside the closure: a `while let` scrutinee's temporaries
                // (the guard) would otherwise live through the body and serialise the workers.
                let next_unit = || queue.lock().ok().and_then(|mut q| q.next());
                while let Some((index, unit)) = next_unit() {
                    let label = unit.label();
                    let files = unit.file_count();
                    let key = setup.cache.and_then(|c| c.key(&unit));
                    let kept = match (setup.cache, &key) {
                        (Some(cache), Some(key)) if !setup.thumbnails => cache.get(key),
                        _ => None,
                    };
                    let reports = match kept {
                        Some(reports) => {
                            tally(setup.cache, |c| &c.hits);
                            reports
                        }
                        None => {
                            let reports = pool.install(|| run::check_unit(unit, setup.load, setup.options, &*draw));
                            if let (Some(cache), Some(key)) = (setup.cache, key) {
                                cache.put(key, &reports);
                            }
                            tally(setup.cache, |c| &c.misses);
                            reports
                        }
                    };
                    progress.done(&label, files, &reports);
                    if let Ok(mut r) = results.lock() {
                        r.push((index, reports));
                    }
                }
            });
        }
    });
    progress.finish();
    let mut results = results.into_inner().map_err(|_| "a worker thread failed".to_owned())?;
    results.sort_by_key(|(i, _)| *i);
    Ok(results.into_iter().flat_map(|(_, r)| r).collect())
}

/// Adds one to a cache's counter.
fn tally(cache: Option<&cache::Cache>, counter: impl Fn(&cache::Cache) -> &std::sync::atomic::AtomicUsize) {
    if let Some(c) = cache {
        counter(c).fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// What is done with each loaded character after its findings are in: with `--thumbnails`, a render.
fn thumbnail_drawer(thumbnails: bool) -> Box<dyn Fn(&mut run::Loaded) + Sync> {
    #[cfg(feature = "gui")]
    if thumbnails {
        let drawer = thumbnail::Thumbnails::default();
        return Box::new(move |loaded| drawer.draw(loaded));
    }
    let _ = thumbnails;
    Box::new(|_| {})
}
