//! `--cache FILE`: the findings of each unit of work (a model script's character, a folder's characters) kept
//! between runs, keyed by everything its answer depends on — the program's version, the options, the paths as
//! given, the contents of every file the unit reads and the names in the folders those files are in (a texture
//! added beside a mesh changes its answer without changing any file it reads). A second run over an unchanged
//! tree loads and checks nothing; a changed file re-checks only the units that read it.
//!
//! A file's contents are hashed once and remembered with its size and modification time: while those two are
//! unchanged the file is not read again (as git's index does). The cache is one JSON document written whole
//! (to a temporary file, then renamed over the old one, so an interrupted run leaves the old cache intact);
//! a cache that cannot be read, or was written by another version, is ignored and rewritten.
//!
//! Not seen by the key: texture folders that a model script names outside its character's folders
//! (`$cdtexture`, and the `materials` folders of `$cdmaterials`), and `--textures` folders' contents (their
//! names are part of the options, not their files). An overlay's base model's files are its unit's files.

use std::collections::BTreeMap;
use std::hash::Hasher as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::report::CharacterReport;
use super::walk::Unit;

/// Names this kind of document; a file without it is not a cache (and is not overwritten).
const FORMAT: &str = "bonescope-check-cache";

/// What is remembered about one file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
struct FileStamp {
    size: u64,
    /// Modification time, nanoseconds since the epoch (0 when the system does not say).
    modified: u128,
    /// Hash of the contents.
    hash: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Document {
    format: String,
    /// The program and its version: a cache of another version is not used.
    generator: String,
    /// Per file read, what it was when last hashed.
    files: BTreeMap<PathBuf, FileStamp>,
    /// Per unit key, the reports it gave.
    units: BTreeMap<String, Vec<CharacterReport>>,
}

/// The cache of one run: what the last run left, and what this run will leave.
pub struct Cache {
    path: PathBuf,
    /// A fingerprint of the program version and the options, part of every key.
    context: String,
    old: Document,
    new: Mutex<Document>,
    /// How many units came from the cache, and how many were checked.
    pub hits: std::sync::atomic::AtomicUsize,
    pub misses: std::sync::atomic::AtomicUsize,
}

impl Cache {
    /// Opens the cache at `path` (a missing, unreadable or foreign one starts empty). `context` is everything
    /// else the answer depends on (the options).
    pub fn open(path: &Path, context: &str) -> Result<Self, String> {
        let generator = generator();
        let old = match std::fs::read(path) {
            Ok(bytes) => match serde_json::from_slice::<Document>(&bytes) {
                Ok(doc) if doc.format == FORMAT && doc.generator == generator => doc,
                Ok(doc) if doc.format == FORMAT => {
                    eprintln!("cache: {} was written by {}; starting afresh", path.display(), doc.generator);
                    Document::default()
                }
                _ if looks_like_a_cache(&bytes) => {
                    eprintln!("cache: {} cannot be read; starting afresh", path.display());
                    Document::default()
                }
                _ => {
                    return Err(format!(
                        "{} is not a bonescope check cache; not overwriting it (give another --cache file)",
                        path.display()
                    ));
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Document::default(),
            Err(e) => return Err(format!("cannot read the cache {}: {e}", path.display())),
        };
        let new = Document { format: FORMAT.to_owned(), generator, ..Document::default() };
        Ok(Self {
            path: path.to_path_buf(),
            context: context.to_owned(),
            old,
            new: Mutex::new(new),
            hits: Default::default(),
            misses: Default::default(),
        })
    }

    /// The key of `unit`: its kind and files as given, their contents and their folders' names. `None` when a
    /// file cannot be read (the unit is checked, and its error reported, as without a cache).
    pub fn key(&self, unit: &Unit) -> Option<String> {
        let mut h = Hash128::default();
        h.write_str(&self.context);
        h.write_str(&unit.label());
        let files = unit.files();
        let mut folders: Vec<&Path> = files.iter().filter_map(|f| f.parent()).collect();
        folders.sort();
        folders.dedup();
        for file in &files {
            h.write_str(&file.to_string_lossy());
            h.write_str(&self.stamp(file)?.hash);
        }
        for folder in folders {
            h.write_str(&folder.to_string_lossy());
            let dir = if folder.as_os_str().is_empty() { Path::new(".") } else { folder };
            let mut names: Vec<String> =
                std::fs::read_dir(dir).ok()?.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
            names.sort();
            for name in names {
                h.write_str(&name);
            }
        }
        Some(h.finish_hex())
    }

    /// The reports kept for `key`, if the last run left some.
    pub fn get(&self, key: &str) -> Option<Vec<CharacterReport>> {
        let reports = self.old.units.get(key)?.clone();
        if let Ok(mut new) = self.new.lock() {
            new.units.insert(key.to_owned(), reports.clone());
        }
        Some(reports)
    }

    /// Keeps `reports` for `key`.
    pub fn put(&self, key: String, reports: &[CharacterReport]) {
        if let Ok(mut new) = self.new.lock() {
            let kept = reports.iter().map(|r| CharacterReport { thumbnail: None, ..r.clone() }).collect();
            new.units.insert(key, kept);
        }
    }

    /// Writes what this run used and made (units of files no longer there are dropped).
    pub fn save(self) -> Result<(), String> {
        let doc = self.new.into_inner().map_err(|_| "a worker thread failed".to_owned())?;
        let text = serde_json::to_string(&doc).map_err(|e| format!("cannot write the cache: {e}"))?;
        let mut temporary = self.path.clone().into_os_string();
        temporary.push(".tmp");
        let temporary = PathBuf::from(temporary);
        std::fs::write(&temporary, text)
            .and_then(|()| std::fs::rename(&temporary, &self.path))
            .map_err(|e| format!("cannot write the cache {}: {e}", self.path.display()))
    }

    /// The stamp of `file`: the last run's when its size and time are unchanged, else a fresh hash of it.
    fn stamp(&self, file: &Path) -> Option<FileStamp> {
        let meta = std::fs::metadata(file).ok()?;
        let modified =
            meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
        let known =
            self.old.files.get(file).filter(|s| s.size == meta.len() && s.modified == modified && modified != 0);
        let stamp = match known {
            Some(stamp) => stamp.clone(),
            None => FileStamp { size: meta.len(), modified, hash: hash_file(file)? },
        };
        if let Ok(mut new) = self.new.lock() {
            new.files.insert(file.to_path_buf(), stamp.clone());
        }
        Some(stamp)
    }
}

fn generator() -> String {
    format!("bonescope {}", env!("CARGO_PKG_VERSION"))
}

/// A JSON object naming the format, whatever else is wrong with it.
fn looks_like_a_cache(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(bytes).is_ok_and(|v| v["format"] == FORMAT)
}

/// The contents' hash, read in blocks.
fn hash_file(path: &Path) -> Option<String> {
    let mut file = std::fs::File::open(path).ok()?;
    let mut h = Hash128::default();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buffer).ok()?;
        if n == 0 {
            break;
        }
        h.write(&buffer[..n]);
    }
    Some(h.finish_hex())
}

/// Two SipHash-1-3 streams with different starts (std's, with its fixed keys: the same on every run), for 128
/// bits: enough that two different contents never meet in practice. Not a defence against crafted files.
struct Hash128(std::hash::DefaultHasher, std::hash::DefaultHasher);

impl Default for Hash128 {
    fn default() -> Self {
        let mut second = std::hash::DefaultHasher::new();
        second.write_u64(0x9e37_79b9_7f4a_7c15);
        Self(std::hash::DefaultHasher::new(), second)
    }
}

impl Hash128 {
    fn write(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
        self.1.write(bytes);
    }

    /// A string with its length, so concatenations cannot collide.
    fn write_str(&mut self, s: &str) {
        self.write(&(s.len() as u64).to_le_bytes());
        self.write(s.as_bytes());
    }

    fn finish_hex(&self) -> String {
        format!("{:016x}{:016x}", self.0.finish(), self.1.finish())
    }
}

/// Counts for the run's summary line.
pub fn summary(cache: &Cache) -> String {
    use std::sync::atomic::Ordering::Relaxed;
    format!("cache: {} group(s) reused, {} checked", cache.hits.load(Relaxed), cache.misses.load(Relaxed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_stable_and_tell_contents_apart() {
        let mut a = Hash128::default();
        a.write(b"abc");
        let mut b = Hash128::default();
        b.write(b"abc");
        assert_eq!(a.finish_hex(), b.finish_hex());
        let mut c = Hash128::default();
        c.write(b"abd");
        assert_ne!(a.finish_hex(), c.finish_hex());
        assert_eq!(a.finish_hex().len(), 32);
        // Strings carry their length: "ab"+"c" is not "a"+"bc".
        let (mut x, mut y) = (Hash128::default(), Hash128::default());
        x.write_str("ab");
        x.write_str("c");
        y.write_str("a");
        y.write_str("bc");
        assert_ne!(x.finish_hex(), y.finish_hex());
    }
}
