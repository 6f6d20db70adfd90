//! Where the loaders' and the renderer's files come from. Every loader, model script reader and texture lookup
//! reads through [`Files`] (in [`crate::io::LoadOptions`]; the renderer's texture decoding holds one too): read a file, tell whether a name is a file or a folder and how large,
//! list a folder. The program and the tests read the disk ([`DiskFiles`]); the web page reads the files the user
//! dropped or the page fetched ([`MemoryFiles`], and the page's own reader that fetches on demand). The loaders
//! never know which, so a QC resolves `$include "../shared/x.qci"` and a texture folder the same way in both.
//!
//! VDFS volumes (`.vdf`, the archives Gothic ships) are folders too ([`mount::Archives`], over the disk in
//! [`Files::disk`]): a reader never knows it reads inside one.
//!
//! The interface is three calls, not `std::fs`'s dozens: what the loaders need and nothing a browser cannot do.
//! A folder listing gives each entry's kind with it, as `read_dir` does on most file systems, so case-insensitive
//! lookups cost one listing per folder, not a `stat` per name.

use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, RwLock};

pub mod disk_read;
pub mod mount;
pub mod vdf;

pub use disk_read::FileBytes;
pub use mount::Archives;

/// A name's kind: a file (with its size in bytes) or a folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    File { len: u64 },
    Folder,
}

/// One entry of a folder listing: its name (no path) and whether it is a folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub is_folder: bool,
}

/// What the loaders read files through.
pub trait FileAccess: Send + Sync + fmt::Debug {
    /// The whole file.
    fn read(&self, path: &Path) -> io::Result<FileBytes>;
    /// Whether `path` names a file (and its size) or a folder; an error when it names nothing.
    fn kind(&self, path: &Path) -> io::Result<Kind>;
    /// The entries of the folder `dir`, in no particular order.
    fn list(&self, dir: &Path) -> io::Result<Vec<Entry>>;
    /// The one name of a file for telling whether two names are the same file (a QC included twice through
    /// different relative paths). Symbolic links resolved on a disk; elsewhere the name itself.
    fn same_file_key(&self, path: &Path) -> PathBuf {
        path.to_path_buf()
    }
    /// At most the first `limit` bytes of the file (a header).
    fn read_prefix(&self, path: &Path, limit: u64) -> io::Result<Vec<u8>> {
        let bytes = self.read(path)?;
        Ok(bytes[..bytes.len().min(usize::try_from(limit).unwrap_or(usize::MAX))].to_vec())
    }

    /// `n` bytes of the file from byte `offset` (a volume's entry; on a disk one positioned read, not the whole
    /// file). An error when they run past its end.
    fn read_range(&self, path: &Path, offset: u64, n: usize) -> io::Result<Vec<u8>> {
        let bytes = self.read(path)?;
        vdf::range_of(&bytes, offset, n)
    }

    /// A file called `name` (any case) anywhere below the folder `root`, where the files can answer that without
    /// a walk: inside a VDFS volume, where the engine finds files by name whatever their folder. `None`
    /// elsewhere (and when there is none).
    fn find_under(&self, root: &Path, name: &str) -> Option<PathBuf> {
        let _ = (root, name);
        None
    }

    /// The one file called `name` (any case) among all the files, where that question can be answered: the
    /// files given in memory can (a QC's `../shared/x.qci` dropped without its folders is found by name); a
    /// disk, which has no "all", cannot. `None` when no file or several files have that name.
    fn find_by_name(&self, name: &str) -> Option<PathBuf> {
        let _ = name;
        None
    }
}

/// A shared handle on the files of a load (cloning shares them). The default reads the disk.
#[derive(Clone)]
pub struct Files(Arc<dyn FileAccess>);

impl Files {
    /// The local file system, with its VDFS volumes as folders ([`Archives`]).
    pub fn disk() -> Self {
        Self::with_archives(DiskFiles)
    }

    /// `access` with its VDFS volumes as folders ([`Archives`]).
    pub fn with_archives(access: impl FileAccess + 'static) -> Self {
        Self(Arc::new(Archives::new(Self::new(access))))
    }

    pub fn new(access: impl FileAccess + 'static) -> Self {
        Self(Arc::new(access))
    }

    pub fn from_arc(access: Arc<dyn FileAccess>) -> Self {
        Self(access)
    }

    /// Whether `path` names a file.
    pub fn is_file(&self, path: &Path) -> bool {
        matches!(self.0.kind(path), Ok(Kind::File { .. }))
    }

    /// Whether `path` names a folder.
    pub fn is_folder(&self, path: &Path) -> bool {
        matches!(self.0.kind(path), Ok(Kind::Folder))
    }

    /// Whether `path` names anything.
    pub fn exists(&self, path: &Path) -> bool {
        self.0.kind(path).is_ok()
    }
}

impl Default for Files {
    fn default() -> Self {
        Self::disk()
    }
}

impl std::ops::Deref for Files {
    type Target = dyn FileAccess;

    fn deref(&self) -> &Self::Target {
        &*self.0
    }
}

impl fmt::Debug for Files {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The local file system, read with the fast reader ([`disk_read::read_file`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct DiskFiles;

impl FileAccess for DiskFiles {
    fn read(&self, path: &Path) -> io::Result<FileBytes> {
        let len = std::fs::metadata(path)?.len();
        disk_read::read_file(path, len)
    }

    fn kind(&self, path: &Path) -> io::Result<Kind> {
        let meta = std::fs::metadata(path)?;
        Ok(if meta.is_dir() { Kind::Folder } else { Kind::File { len: meta.len() } })
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<Entry>> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir)?.flatten() {
            let Ok(name) = entry.file_name().into_string() else { continue };
            // The entry's type comes with the listing on most file systems: no `stat` per entry. A link is
            // followed (one `stat`) to see what it names.
            let is_folder = match entry.file_type() {
                Ok(t) if t.is_symlink() => entry.path().is_dir(),
                Ok(t) => t.is_dir(),
                Err(_) => false,
            };
            out.push(Entry { name, is_folder });
        }
        Ok(out)
    }

    fn read_prefix(&self, path: &Path, limit: u64) -> io::Result<Vec<u8>> {
        use std::io::Read;
        let mut bytes = Vec::new();
        std::fs::File::open(path)?.take(limit).read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    fn same_file_key(&self, path: &Path) -> PathBuf {
        std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
    }

    fn read_range(&self, path: &Path, offset: u64, n: usize) -> io::Result<Vec<u8>> {
        let file = std::fs::File::open(path)?;
        let mut bytes = vec![0; n];
        #[cfg(unix)]
        std::os::unix::fs::FileExt::read_exact_at(&file, &mut bytes, offset)?;
        #[cfg(not(unix))]
        {
            use std::io::{Read, Seek};
            let mut file = file;
            file.seek(io::SeekFrom::Start(offset))?;
            file.read_exact(&mut bytes)?;
        }
        Ok(bytes)
    }
}

/// Files held in memory under the paths they were given (the web page's dropped and fetched files; tests).
/// Folders are the paths' ancestors. Names are matched exactly, as on a case-sensitive disk; the loaders'
/// case-insensitive lookups go through [`FileAccess::list`] as they do on a disk. Adding files later (a second
/// drop) is seen by every handle.
#[derive(Clone, Debug, Default)]
pub struct MemoryFiles {
    files: Arc<RwLock<BTreeMap<PathBuf, Arc<[u8]>>>>,
}

impl MemoryFiles {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) a file. `path` is made absolute against `/` and its `.` and `..` removed.
    pub fn insert(&self, path: impl AsRef<Path>, bytes: impl Into<Arc<[u8]>>) -> PathBuf {
        let key = normalise(path.as_ref());
        if let Ok(mut files) = self.files.write() {
            files.insert(key.clone(), bytes.into());
        }
        key
    }

    /// Every file's path, sorted.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.files.read().map(|f| f.keys().cloned().collect()).unwrap_or_default()
    }

    pub fn len(&self) -> usize {
        self.files.read().map_or(0, |f| f.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The file's bytes, shared.
    pub fn get(&self, path: &Path) -> Option<Arc<[u8]>> {
        self.files.read().ok()?.get(&normalise(path)).cloned()
    }
}

/// `path` as a key: absolute against `/`, `.` dropped, `..` applied, either slash.
pub fn normalise(path: &Path) -> PathBuf {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut out = PathBuf::from("/");
    for c in Path::new(&text).components() {
        match c {
            Component::Normal(name) => out.push(name),
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
    out
}

fn not_found(path: &Path) -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, format!("{} is not among the files given", path.display()))
}

impl FileAccess for MemoryFiles {
    fn find_by_name(&self, name: &str) -> Option<PathBuf> {
        let files = self.files.read().ok()?;
        let mut named = files
            .keys()
            .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.eq_ignore_ascii_case(name)));
        let first = named.next()?.clone();
        named.next().is_none().then_some(first)
    }

    fn read(&self, path: &Path) -> io::Result<FileBytes> {
        self.get(path).map(FileBytes::Shared).ok_or_else(|| not_found(path))
    }

    fn read_range(&self, path: &Path, offset: u64, n: usize) -> io::Result<Vec<u8>> {
        let bytes = self.get(path).ok_or_else(|| not_found(path))?;
        vdf::range_of(&bytes, offset, n)
    }

    fn kind(&self, path: &Path) -> io::Result<Kind> {
        let key = normalise(path);
        let files = self.files.read().map_err(|_| io::Error::other("file table poisoned"))?;
        if let Some(bytes) = files.get(&key) {
            return Ok(Kind::File { len: bytes.len() as u64 });
        }
        // A folder when some file lies under it: the first key at or after `key/` starts with it.
        let under = files.range(key.clone()..).find(|(p, _)| **p != key).is_some_and(|(p, _)| p.starts_with(&key));
        if under || key == Path::new("/") { Ok(Kind::Folder) } else { Err(not_found(path)) }
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<Entry>> {
        let key = normalise(dir);
        let files = self.files.read().map_err(|_| io::Error::other("file table poisoned"))?;
        let mut out: Vec<Entry> = Vec::new();
        for (path, _) in files.range(key.clone()..) {
            let Ok(rest) = path.strip_prefix(&key) else { break };
            let mut parts = rest.components();
            let Some(Component::Normal(first)) = parts.next() else { continue };
            let name = first.to_string_lossy().into_owned();
            let is_folder = parts.next().is_some();
            if out.last().is_none_or(|e| e.name != name) {
                out.push(Entry { name, is_folder });
            }
        }
        if out.is_empty() && !matches!(self.kind(dir), Ok(Kind::Folder)) {
            return Err(not_found(dir));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_files_have_folders_and_listings() {
        let files = MemoryFiles::new();
        files.insert("models/crab/crab.qc", &b"$modelname x"[..]);
        files.insert("models/crab/anims/walk.smd", &b"version 1"[..]);
        files.insert("models/shared/inc.qci", &b"x"[..]);
        files.insert("models/crab.txt", &b"x"[..]);
        assert_eq!(files.kind(Path::new("/models/crab/crab.qc")).unwrap(), Kind::File { len: 12 });
        assert_eq!(files.kind(Path::new("models/crab")).unwrap(), Kind::Folder);
        assert_eq!(files.kind(Path::new("/models/crab/anims/../crab.qc")).unwrap(), Kind::File { len: 12 });
        assert!(files.kind(Path::new("/models/cr")).is_err(), "a prefix of a name is not a folder");
        let mut listing = files.list(Path::new("/models")).unwrap();
        listing.sort_by(|a, b| a.name.cmp(&b.name));
        let names: Vec<(&str, bool)> = listing.iter().map(|e| (e.name.as_str(), e.is_folder)).collect();
        assert_eq!(names, [("crab", true), ("crab.txt", false), ("shared", true)]);
        assert_eq!(files.list(Path::new("/models/crab")).unwrap().len(), 2);
        assert!(files.list(Path::new("/nothing")).is_err());
        assert_eq!(&*files.read(Path::new("models\\shared\\inc.qci")).unwrap(), b"x");
        assert_eq!(files.read(Path::new("/models/none")).unwrap_err().kind(), io::ErrorKind::NotFound);
        assert_eq!(files.find_by_name("INC.QCI"), Some(PathBuf::from("/models/shared/inc.qci")));
        files.insert("other/inc.qci", &b"y"[..]);
        assert_eq!(files.find_by_name("inc.qci"), None, "two files of that name: neither is guessed");
    }

    #[test]
    fn disk_files_list_with_kinds() {
        let dir = std::env::temp_dir().join(format!("bonescope_files_{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("a.smd"), b"version 1").unwrap();
        let files = Files::disk();
        let mut listing = files.list(&dir).unwrap();
        listing.sort_by(|a, b| a.name.cmp(&b.name));
        assert_eq!(
            listing,
            [Entry { name: "a.smd".into(), is_folder: false }, Entry { name: "sub".into(), is_folder: true }]
        );
        assert!(files.is_file(&dir.join("a.smd")) && files.is_folder(&dir.join("sub")));
        assert!(!files.exists(&dir.join("b.smd")));
        assert_eq!(&*files.read(&dir.join("a.smd")).unwrap(), b"version 1");
        std::fs::remove_dir_all(&dir).ok();
    }
}
