//! VDFS volumes as folders of the file-access interface ([`Archives`]), so every reader reads inside them
//! unchanged: a path through a `.vdf` file goes on inside the volume (`Data/Anims.vdf/_WORK/DATA/ANIMS/X.MDS`),
//! and `*.vdf` after a folder is all the volumes of that folder mounted together as the engine mounts them
//! (`Data/*.vdf/_WORK/DATA/ANIMS/X.MDS`). Listing a folder shows its volumes as folders; the `*.vdf` view is not
//! listed (a walk of the folder would see every file twice), only named. Names inside volumes are matched
//! without regard to case, as the engine matches them. The volume format itself is [`super::vdf`].
//!
//! Which volume's file wins when several hold the same path: the one whose header timestamp is the newest. That
//! is the engine's rule, as the Union team documents it ("VDFS and data reading priority": "priority in the VDFS
//! is a timestamp specified by the developer; higher time = higher priority") and as the engines built on ZenKit
//! implement it (OpenGothic `Resources::loadVdfs` sorts the volumes newest first and mounts them with ZenKit's
//! `VfsOverwriteBehavior::OLDER`, which replaces a file only by a newer one). Where two volumes have the same
//! timestamp the engine's order is not documented; here the later one in file-name order wins ("later files
//! override earlier ones").
//!
//! A volume is opened (header and catalogue read) once per [`Archives`] and again only when its size changes;
//! an entry is read on its own with [`FileAccess::read_range`] (a positioned read on a disk): nothing reads or
//! copies a whole volume.

use std::collections::HashMap;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::vdf::Volume;
use super::{Entry, FileAccess, FileBytes, Files, Kind};

/// The path component that names all the volumes of the folder before it, mounted together.
pub const ALL_VOLUMES: &str = "*.vdf";

/// Whether `name` is a volume's file name (`.vdf`, any case).
pub fn is_volume_name(name: &str) -> bool {
    name.len() > 4 && name.get(name.len() - 4..).is_some_and(|e| e.eq_ignore_ascii_case(".vdf"))
}

/// A volume as opened, with the size it had then.
#[derive(Debug)]
struct Opened {
    volume: Volume,
    len: u64,
}

/// The volumes of one folder, the winner first.
#[derive(Debug)]
struct VolumeSet {
    members: Vec<(PathBuf, Arc<Opened>)>,
}

/// Where a path leads.
enum Place {
    /// Not inside a volume.
    Plain,
    /// Inside one volume: its file, the volume, and the names below its root.
    Volume { archive: PathBuf, opened: Arc<Opened>, inner: Vec<String> },
    /// Inside the volumes of `folder` together.
    Set { folder: PathBuf, set: Arc<VolumeSet>, inner: Vec<String> },
}

/// Files of another [`FileAccess`] with its VDFS volumes mounted as folders (the disk's: [`Files::disk`]).
#[derive(Debug)]
pub struct Archives {
    inner: Files,
    volumes: Mutex<HashMap<PathBuf, Arc<Opened>>>,
    sets: Mutex<HashMap<PathBuf, Arc<VolumeSet>>>,
}

fn not_found(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, what)
}

fn invalid(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what)
}

fn display_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

impl Archives {
    pub fn new(inner: Files) -> Self {
        Self { inner, volumes: Mutex::default(), sets: Mutex::default() }
    }

    /// The volume in the file `archive` (`len` bytes), opened once.
    fn volume(&self, archive: &Path, len: u64) -> io::Result<Arc<Opened>> {
        if let Some(opened) = self.volumes.lock().ok().and_then(|v| v.get(archive).cloned())
            && opened.len == len
        {
            return Ok(opened);
        }
        let read = |offset: u64, n: usize| self.inner.read_range(archive, offset, n);
        let volume = Volume::open(len, &read).map_err(|e| match e.kind {
            crate::io::LoadErrorKind::Io(kind) => io::Error::new(kind, format!("{}: {e}", display_name(archive))),
            _ => invalid(format!("{}: {e}", display_name(archive))),
        })?;
        let opened = Arc::new(Opened { volume, len });
        if let Ok(mut volumes) = self.volumes.lock() {
            volumes.insert(archive.to_path_buf(), opened.clone());
        }
        Ok(opened)
    }

    /// The volumes of `folder`, mounted together.
    fn set(&self, folder: &Path) -> io::Result<Arc<VolumeSet>> {
        if let Some(set) = self.sets.lock().ok().and_then(|s| s.get(folder).cloned()) {
            // Still the same volumes, each of the size it was opened at (a viewer keeps its files for long).
            let unchanged = set
                .members
                .iter()
                .all(|(path, opened)| matches!(self.inner.kind(path), Ok(Kind::File { len }) if len == opened.len));
            if unchanged {
                return Ok(set);
            }
        }
        let mut names: Vec<String> = self
            .inner
            .list(folder)?
            .into_iter()
            .filter(|e| !e.is_folder && is_volume_name(&e.name))
            .map(|e| e.name)
            .collect();
        names.sort();
        if names.is_empty() {
            return Err(not_found(format!("{} holds no .vdf volumes", folder.display())));
        }
        let mut members = Vec::new();
        for name in names {
            let path = folder.join(&name);
            let Kind::File { len } = self.inner.kind(&path)? else { continue };
            members.push((path.clone(), self.volume(&path, len)?));
        }
        // The winner first: the newest timestamp, then the later name (the sort above put names in order, and
        // a stable sort keeps that order among equal timestamps before the reversal).
        members.sort_by_key(|(_, o)| o.volume.header.timestamp);
        members.reverse();
        let set = Arc::new(VolumeSet { members });
        if let Ok(mut sets) = self.sets.lock() {
            sets.insert(folder.to_path_buf(), set.clone());
        }
        Ok(set)
    }

    /// Where `path` leads: through the first `.vdf` file (or `*.vdf`) among its components, else nowhere special.
    fn place(&self, path: &Path) -> io::Result<Place> {
        let components: Vec<Component> = path.components().collect();
        let mut prefix = PathBuf::new();
        for (i, c) in components.iter().enumerate() {
            if let Component::Normal(name) = c
                && let Some(name) = name.to_str()
            {
                if name.eq_ignore_ascii_case(ALL_VOLUMES) {
                    let set = self.set(&prefix)?;
                    return Ok(Place::Set { folder: prefix, set, inner: inner_names(&components[i + 1..]) });
                }
                if is_volume_name(name) {
                    let candidate = prefix.join(name);
                    if let Ok(Kind::File { len }) = self.inner.kind(&candidate) {
                        let opened = self.volume(&candidate, len)?;
                        return Ok(Place::Volume {
                            archive: candidate,
                            opened,
                            inner: inner_names(&components[i + 1..]),
                        });
                    }
                }
            }
            prefix.push(c.as_os_str());
        }
        Ok(Place::Plain)
    }
}

/// The names below a volume's root: `.` dropped, `..` applied (never above the root).
fn inner_names(components: &[Component]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in components {
        match c {
            Component::Normal(name) => out.push(name.to_string_lossy().into_owned()),
            Component::ParentDir => {
                out.pop();
            }
            _ => {}
        }
    }
    out
}

impl VolumeSet {
    /// The member that decides `inner` (the first, in priority order, that has it) and its node.
    fn find(&self, inner: &[String]) -> Option<(&PathBuf, &Opened, usize)> {
        self.members.iter().find_map(|(path, opened)| {
            opened.volume.resolve(inner.iter().map(String::as_str)).map(|node| (path, opened.as_ref(), node))
        })
    }
}

fn entry_kind(volume: &Volume, node: usize) -> Kind {
    match volume.size(node) {
        Some(len) => Kind::File { len },
        None => Kind::Folder,
    }
}

fn listing(volume: &Volume, folder: usize) -> Vec<Entry> {
    volume
        .children(folder)
        .iter()
        .filter_map(|&c| volume.node(c).map(|n| Entry { name: n.name.clone(), is_folder: volume.is_folder(c) }))
        .collect()
}

impl Archives {
    fn missing(archive: &Path, inner: &[String]) -> io::Error {
        not_found(format!("no \"{}\" in {}", inner.join("/"), display_name(archive)))
    }

    fn read_node(&self, archive: &Path, opened: &Opened, node: usize, limit: u64) -> io::Result<Vec<u8>> {
        let read = |offset: u64, n: usize| self.inner.read_range(archive, offset, n);
        opened.volume.read_prefix(node, limit, &read).map_err(|e| match e.kind {
            crate::io::LoadErrorKind::Io(kind) => io::Error::new(kind, format!("{}: {e}", display_name(archive))),
            crate::io::LoadErrorKind::NotAFile => io::Error::new(io::ErrorKind::IsADirectory, e.to_string()),
            _ => invalid(format!("{}: {e}", display_name(archive))),
        })
    }

    /// `limit` bytes at most of the file at `path` inside a volume (`None`: not inside one).
    fn read_inside(&self, path: &Path, limit: u64) -> io::Result<Option<Vec<u8>>> {
        match self.place(path)? {
            Place::Plain => Ok(None),
            Place::Volume { archive, opened, inner } => {
                let node = opened.volume.resolve(inner.iter().map(String::as_str));
                let node = node.ok_or_else(|| Self::missing(&archive, &inner))?;
                self.read_node(&archive, &opened, node, limit).map(Some)
            }
            Place::Set { folder, set, inner } => {
                let Some((archive, opened, node)) = set.find(&inner) else {
                    return Err(not_found(format!(
                        "no \"{}\" in the volumes of {}",
                        inner.join("/"),
                        folder.display()
                    )));
                };
                self.read_node(archive, opened, node, limit).map(Some)
            }
        }
    }
}

impl FileAccess for Archives {
    fn read(&self, path: &Path) -> io::Result<FileBytes> {
        match self.read_inside(path, u64::MAX)? {
            Some(bytes) => Ok(FileBytes::Heap(bytes)),
            None => self.inner.read(path),
        }
    }

    fn read_prefix(&self, path: &Path, limit: u64) -> io::Result<Vec<u8>> {
        match self.read_inside(path, limit)? {
            Some(bytes) => Ok(bytes),
            None => self.inner.read_prefix(path, limit),
        }
    }

    fn kind(&self, path: &Path) -> io::Result<Kind> {
        match self.place(path)? {
            Place::Plain => self.inner.kind(path),
            Place::Volume { archive, opened, inner } => opened
                .volume
                .resolve(inner.iter().map(String::as_str))
                .map(|node| entry_kind(&opened.volume, node))
                .ok_or_else(|| Self::missing(&archive, &inner)),
            Place::Set { folder, set, inner } => set
                .find(&inner)
                .map(|(_, opened, node)| entry_kind(&opened.volume, node))
                .ok_or_else(|| not_found(format!("no \"{}\" in the volumes of {}", inner.join("/"), folder.display()))),
        }
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<Entry>> {
        match self.place(dir)? {
            Place::Plain => {
                let mut entries = self.inner.list(dir)?;
                // A volume is a folder to look into.
                for e in &mut entries {
                    e.is_folder |= is_volume_name(&e.name);
                }
                Ok(entries)
            }
            Place::Volume { archive, opened, inner } => {
                let node = opened.volume.resolve(inner.iter().map(String::as_str));
                let node = node.ok_or_else(|| Self::missing(&archive, &inner))?;
                if !opened.volume.is_folder(node) {
                    return Err(io::Error::new(io::ErrorKind::NotADirectory, format!("{} is a file", dir.display())));
                }
                Ok(listing(&opened.volume, node))
            }
            Place::Set { folder, set, inner } => {
                // The folder in every member that has it; a name once, from the member that wins it.
                let mut seen: HashMap<String, ()> = HashMap::new();
                let mut out = Vec::new();
                let mut any = false;
                for (_, opened) in &set.members {
                    let Some(node) = opened.volume.resolve(inner.iter().map(String::as_str)) else { continue };
                    if !opened.volume.is_folder(node) {
                        if !any {
                            return Err(io::Error::new(
                                io::ErrorKind::NotADirectory,
                                format!("{} is a file", dir.display()),
                            ));
                        }
                        continue;
                    }
                    any = true;
                    for entry in listing(&opened.volume, node) {
                        if seen.insert(entry.name.to_lowercase(), ()).is_none() {
                            out.push(entry);
                        }
                    }
                }
                if !any {
                    return Err(not_found(format!(
                        "no \"{}\" in the volumes of {}",
                        inner.join("/"),
                        folder.display()
                    )));
                }
                Ok(out)
            }
        }
    }

    fn same_file_key(&self, path: &Path) -> PathBuf {
        let inside = |archive: &Path, names: Vec<&str>| {
            let mut key = self.inner.same_file_key(archive);
            key.extend(names.iter().map(|n| n.to_lowercase()));
            key
        };
        match self.place(path) {
            Ok(Place::Volume { archive, inner, .. }) => inside(&archive, inner.iter().map(String::as_str).collect()),
            Ok(Place::Set { set, inner, .. }) => match set.find(&inner) {
                Some((archive, opened, node)) => inside(archive, opened.volume.path_of(node)),
                None => path.to_path_buf(),
            },
            Ok(Place::Plain) => self.inner.same_file_key(path),
            Err(_) => path.to_path_buf(),
        }
    }

    fn find_by_name(&self, name: &str) -> Option<PathBuf> {
        self.inner.find_by_name(name)
    }

    fn find_under(&self, root: &Path, name: &str) -> Option<PathBuf> {
        let under = |opened: &Opened, inner: &[String]| {
            let folder = opened.volume.resolve(inner.iter().map(String::as_str))?;
            let node = opened.volume.files_named(name).into_iter().find(|&n| opened.volume.is_under(n, folder))?;
            let path = opened.volume.path_of(node);
            Some(path.get(inner.len()..).map(|rest| rest.join("/")).unwrap_or_default())
        };
        match self.place(root).ok()? {
            Place::Plain => self.inner.find_under(root, name),
            Place::Volume { opened, inner, .. } => under(&opened, &inner).map(|rest| root.join(rest)),
            Place::Set { set, inner, .. } => {
                set.members.iter().find_map(|(_, opened)| under(opened, &inner)).map(|rest| root.join(rest))
            }
        }
    }

    fn read_range(&self, path: &Path, offset: u64, n: usize) -> io::Result<Vec<u8>> {
        match self.place(path)? {
            Place::Plain => self.inner.read_range(path, offset, n),
            _ => {
                let bytes = self.read(path)?;
                super::vdf::range_of(&bytes, offset, n)
            }
        }
    }
}

/// The file on the disk that holds `path`: the volume it is inside (for `*.vdf`, the folder whose volumes
/// they are), else `path` itself. What to watch for changes, and whose time is the entry's.
pub fn holder(path: &Path) -> PathBuf {
    let mut at = PathBuf::new();
    for c in path.components() {
        if let Component::Normal(name) = c
            && let Some(name) = name.to_str()
        {
            if name.eq_ignore_ascii_case(ALL_VOLUMES) {
                return at;
            }
            at.push(name);
            if is_volume_name(name) && at.is_file() {
                return at;
            }
            continue;
        }
        at.push(c.as_os_str());
    }
    path.to_path_buf()
}

/// Whether `dir` holds VDFS volumes (the game's `Data` folder).
pub fn holds_volumes(files: &Files, dir: &Path) -> bool {
    files.list(dir).is_ok_and(|entries| entries.iter().any(|e| is_volume_name(&e.name)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::MemoryFiles;

    #[allow(dead_code)]
    mod vdf_writer {
        include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/common/vdf_writer.rs"));
    }
    use vdf_writer::{VdfFile, write_vdf};

    fn with_volumes(volumes: &[(&str, Vec<u8>)]) -> Files {
        let files = MemoryFiles::new();
        for (path, bytes) in volumes {
            files.insert(path, bytes.clone());
        }
        files.insert("/game/Data/notes.txt", &b"not a volume"[..]);
        Files::with_archives(files)
    }

    #[test]
    fn a_volume_is_a_folder_whose_names_match_in_any_case() {
        let vdf = write_vdf(
            &[
                VdfFile::new("_WORK/DATA/ANIMS/HUMANS.MDS", b"Model".to_vec()),
                VdfFile::new("_WORK/DATA/ANIMS/_COMPILED/HUMANS.MDH", vec![1; 10]),
            ],
            1,
            false,
            0,
        );
        let files = with_volumes(&[("/game/Data/Anims.vdf", vdf)]);
        let data = Path::new("/game/Data");
        let mut listed = files.list(data).unwrap();
        listed.sort_by(|a, b| a.name.cmp(&b.name));
        assert_eq!(
            listed,
            [Entry { name: "Anims.vdf".into(), is_folder: true }, Entry { name: "notes.txt".into(), is_folder: false }]
        );
        assert_eq!(files.kind(&data.join("Anims.vdf")).unwrap(), Kind::Folder);
        let mds = data.join("Anims.vdf/_work/data/anims/humans.mds");
        assert_eq!(files.kind(&mds).unwrap(), Kind::File { len: 5 });
        assert_eq!(&*files.read(&mds).unwrap(), b"Model");
        assert_eq!(files.read_prefix(&mds, 3).unwrap(), b"Mod");
        let listing = files.list(&data.join("Anims.vdf/_WORK/DATA/ANIMS")).unwrap();
        assert_eq!(listing.len(), 2);
        assert!(listing.iter().any(|e| e.name == "_COMPILED" && e.is_folder));
        let e = files.read(&data.join("Anims.vdf/_WORK/NONE.MDS")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(e.to_string().contains("Anims.vdf"), "{e}");
        assert_eq!(
            files.find_under(&data.join("Anims.vdf/_WORK"), "humans.mdh"),
            Some(data.join("Anims.vdf/_WORK/DATA/ANIMS/_COMPILED/HUMANS.MDH"))
        );
        assert_eq!(files.same_file_key(&data.join("Anims.vdf/_WORK/DATA/ANIMS/HUMANS.MDS")), files.same_file_key(&mds));
        // A file merely named .vdf that is no volume: an error saying so, not a panic or an empty folder.
        let broken = with_volumes(&[("/game/Data/Broken.vdf", b"just text".to_vec())]);
        let e = broken.list(&data.join("Broken.vdf")).unwrap_err();
        assert!(e.to_string().contains("Broken.vdf") && e.to_string().contains("header"), "{e}");
    }

    #[test]
    fn volumes_mounted_together_take_each_file_from_the_newest() {
        let older = write_vdf(
            &[
                VdfFile::new("_WORK/DATA/ANIMS/_COMPILED/HUMANS-S_RUN.MAN", b"old run".to_vec()),
                VdfFile::new("_WORK/DATA/ANIMS/_COMPILED/HUMANS.MDH", b"old tree".to_vec()),
            ],
            0x2D65_0000,
            false,
            0,
        );
        // A patch, two years newer, named so that it sorts first: the timestamp decides, not the name.
        let newer = write_vdf(
            &[VdfFile::new("_work/data/anims/_compiled/humans-s_run.man", b"new run".to_vec())],
            0x3165_0000,
            true,
            4,
        );
        let files = with_volumes(&[("/game/Data/Anims.vdf", older), ("/game/Data/Anims_Addon.vdf", newer)]);
        let all = Path::new("/game/Data/*.vdf/_WORK/DATA/ANIMS/_COMPILED");
        assert_eq!(&*files.read(&all.join("HUMANS-S_RUN.MAN")).unwrap(), b"new run");
        assert_eq!(&*files.read(&all.join("HUMANS.MDH")).unwrap(), b"old tree");
        let mut names: Vec<String> = files.list(all).unwrap().into_iter().map(|e| e.name).collect();
        names.sort();
        assert_eq!(names, ["HUMANS.MDH", "humans-s_run.man"]);
        // The `*.vdf` view is reached by name, never listed.
        assert!(!files.list(Path::new("/game/Data")).unwrap().iter().any(|e| e.name == ALL_VOLUMES));
        assert_eq!(files.kind(Path::new("/game/Data/*.vdf")).unwrap(), Kind::Folder);
        // Each volume is still its own folder.
        assert_eq!(
            &*files.read(Path::new("/game/Data/Anims.vdf/_WORK/DATA/ANIMS/_COMPILED/HUMANS-S_RUN.MAN")).unwrap(),
            b"old run"
        );
        assert!(files.kind(Path::new("/game/*.vdf")).is_err(), "a folder without volumes");
    }
}
