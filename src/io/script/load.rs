//! Loading the files a script names, all at once on every core (rayon), each file once however many
//! sequences use it.
//!
//! Each result carries the file's own first frame number (SMD: the smallest `time` of its `skeleton` block;
//! ASC: `*SCENE_FIRSTFRAME`), which the loaders' clips do not keep (their time 0 is that frame) and the script's
//! frame numbers are counted in. Warnings of a file are re-labelled with its name so that, gathered on the
//! character, they still say where they are.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::io::{LoadError, LoadErrorKind, LoadOptions};
use crate::scene::Asset;

/// A file to load and how: `fps` is the frame rate given to formats that store none (SMD animations).
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    pub path: PathBuf,
    pub fps: f32,
}

/// A loaded file.
#[derive(Debug)]
pub struct Loaded {
    pub asset: Asset,
    /// The file's first frame number.
    pub first_frame: i32,
    /// The file's last frame number where it states one (ASC `*SCENE_LASTFRAME`): how long a file of a static
    /// pose (no key changes) is played.
    pub last_frame: Option<i32>,
    /// The file's own frame rate where it states one (ASC `*SCENE_FRAMESPEED`).
    pub frame_rate: Option<f32>,
}

/// The index of the job loading `path` at `fps`, added when new.
pub fn job_of(path: &Path, fps: f32, jobs: &mut Vec<Job>) -> usize {
    let job = Job { path: path.to_path_buf(), fps };
    jobs.iter().position(|j| *j == job).unwrap_or_else(|| {
        jobs.push(job);
        jobs.len() - 1
    })
}

/// Takes a loaded file for one of its users: moved out on its last use (`uses` counts the users left),
/// cloned before.
pub fn take(
    results: &mut [Option<Result<Loaded, LoadError>>],
    uses: &mut [usize],
    job: usize,
) -> Result<Loaded, LoadError> {
    let internal = || LoadError::whole_file("internal: a file was asked for more often than counted");
    let (Some(slot), Some(count)) = (results.get_mut(job), uses.get_mut(job)) else { return Err(internal()) };
    *count = count.saturating_sub(1);
    if *count == 0 {
        return slot.take().unwrap_or_else(|| Err(internal()));
    }
    match slot {
        Some(Ok(l)) => Ok(Loaded {
            asset: l.asset.clone(),
            first_frame: l.first_frame,
            last_frame: l.last_frame,
            frame_rate: l.frame_rate,
        }),
        Some(Err(e)) => Err(e.clone()),
        None => Err(internal()),
    }
}

/// One user of a loaded file no longer needs it (the file is dropped after its last user).
pub fn release(results: &mut [Option<Result<Loaded, LoadError>>], uses: &mut [usize], job: usize) {
    if let Some(count) = uses.get_mut(job) {
        *count = count.saturating_sub(1);
        if *count == 0
            && let Some(slot) = results.get_mut(job)
        {
            *slot = None;
        }
    }
}

/// Loads every job in parallel; results in job order.
pub fn load_all(jobs: &[Job], opts: &LoadOptions) -> Vec<Result<Loaded, LoadError>> {
    jobs.par_iter().map(|job| load_one(job, opts)).collect()
}

fn load_one(job: &Job, opts: &LoadOptions) -> Result<Loaded, LoadError> {
    let path = &job.path;
    let bytes = crate::io::read_path(&opts.files, path)?;
    if bytes.is_empty() {
        return Err(LoadError::whole_file("the file is empty (0 bytes)").with_kind(LoadErrorKind::Empty).in_file(path));
    }
    let format =
        crate::io::detect_format(&bytes, Some(path)).filter(|f| !super::is_script_format(*f)).ok_or_else(|| {
            LoadError::whole_file("not a mesh or animation file bonescope reads")
                .with_kind(LoadErrorKind::UnknownFormat)
                .in_file(path)
        })?;
    let opts = LoadOptions { base_dir: path.parent().map(Path::to_path_buf), default_fps: job.fps, ..opts.clone() };
    let mut asset = crate::io::load_format(format, &bytes, &opts).map_err(|e| e.in_file(path))?;
    if matches!(format, crate::scene::Format::Smd | crate::scene::Format::Dmx) {
        crate::io::smd::name_after_file(&mut asset, path);
    }
    if format == crate::scene::Format::Dmx {
        // A script plays a file's skeletal animation: a model DMX's clip of its flexes is not one (a sequence that
        // names a model DMX is its bind pose, as for a reference SMD).
        asset.clips.retain(|c| c.name != crate::io::dmx::FLEX_CLIP || !c.tracks.is_empty());
    }
    asset.path = Some(path.clone());
    for w in &mut asset.warnings {
        w.file.get_or_insert_with(|| path.clone());
    }
    let (first_frame, last_frame, frame_rate) = match format {
        crate::scene::Format::Ase => (asc_first_frame(&bytes), asc_last_frame(&bytes), asc_frame_speed(&bytes)),
        // A DMX clip's time 0 is its first frame, and its own frame rate is on the clip.
        crate::scene::Format::Dmx => (0, None, None),
        _ => (smd_first_frame(&bytes), None, None),
    };
    Ok(Loaded { asset, first_frame, last_frame, frame_rate })
}

/// `*SCENE_FIRSTFRAME n` near the top of an ASE/ASC file (0 when absent).
pub fn asc_first_frame(bytes: &[u8]) -> i32 {
    let head = &bytes[..bytes.len().min(1 << 16)];
    let key = b"*SCENE_FIRSTFRAME";
    let Some(at) = memchr::memmem::find(head, key) else { return 0 };
    first_int(&head[at + key.len()..]).unwrap_or(0)
}

/// `*SCENE_LASTFRAME n` near the top of an ASE/ASC file, when there.
pub fn asc_last_frame(bytes: &[u8]) -> Option<i32> {
    let head = &bytes[..bytes.len().min(1 << 16)];
    let key = b"*SCENE_LASTFRAME";
    let at = memchr::memmem::find(head, key)?;
    first_int(&head[at + key.len()..])
}

/// `*SCENE_FRAMESPEED n` near the top of an ASE/ASC file, when usable.
pub fn asc_frame_speed(bytes: &[u8]) -> Option<f32> {
    let head = &bytes[..bytes.len().min(1 << 16)];
    let key = b"*SCENE_FRAMESPEED";
    let at = memchr::memmem::find(head, key)?;
    let rest = trim_start(&head[at + key.len()..]);
    let end = rest.iter().position(|c| c.is_ascii_whitespace()).unwrap_or(rest.len());
    std::str::from_utf8(&rest[..end]).ok()?.parse::<f32>().ok().filter(|f| f.is_finite() && *f > 0.0)
}

/// The smallest `time n` of an SMD's `skeleton` block (0 when there is none).
pub fn smd_first_frame(bytes: &[u8]) -> i32 {
    let Some(start) = line_starting_with(bytes, 0, b"skeleton") else { return 0 };
    let mut min: Option<i32> = None;
    let mut at = start;
    while let Some(line_start) = memchr::memchr(b'\n', &bytes[at..]).map(|p| at + p + 1) {
        let line = &bytes[line_start..];
        let trimmed = trim_start(line);
        if trimmed.starts_with(b"end") && trimmed.get(3).is_none_or(|c| c.is_ascii_whitespace()) {
            break;
        }
        if let Some(rest) = trimmed.strip_prefix(b"time")
            && let Some(n) = first_int(rest)
        {
            min = Some(min.map_or(n, |m: i32| m.min(n)));
        }
        at = line_start;
    }
    min.unwrap_or(0)
}

fn line_starting_with(bytes: &[u8], from: usize, word: &[u8]) -> Option<usize> {
    let mut at = from;
    loop {
        let line = trim_start(bytes.get(at..)?);
        if line.starts_with(word) {
            return Some(at);
        }
        at += memchr::memchr(b'\n', &bytes[at..])? + 1;
    }
}

fn trim_start(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|c| **c == b' ' || **c == b'\t').count();
    &s[n..]
}

fn first_int(s: &[u8]) -> Option<i32> {
    let s = trim_start(s);
    let end = s.iter().position(|c| !(c.is_ascii_digit() || *c == b'-')).unwrap_or(s.len());
    std::str::from_utf8(&s[..end]).ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_frames_are_read_from_the_files() {
        let smd = b"version 1\nnodes\n0 \"a\" -1\nend\nskeleton\ntime 5\n0 0 0 0 0 0 0\ntime 3\n0 0 0 0 0 0 0\nend\n";
        assert_eq!(smd_first_frame(smd), 3);
        assert_eq!(smd_first_frame(b"version 1\nnodes\nend\n"), 0);
        let asc = b"*3DSMAX_ASCIIEXPORT 110\n*SCENE {\n\t*SCENE_FIRSTFRAME 11\n\t*SCENE_LASTFRAME 20\n}";
        assert_eq!(asc_first_frame(asc), 11);
        assert_eq!(asc_last_frame(asc), Some(20));
    }
}
