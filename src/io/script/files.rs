//! Finding the files a QC names: paths relative to a folder (with `..`, either slash, and a case-insensitive
//! fallback for sources written on Windows) or absolute ones (`/…`, `\…`, and drive letters `C:\…` where there
//! are drives), and the absolute form of a script's folder that every lookup starts from. (Gothic's "by file name anywhere under the `ASC_*` folders" lookup is `asc_index`.)
//!
//! Folder listings are read once and kept ([`DirCache`]); nothing here scans a folder per file looked up.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use crate::io::Files;

/// `path` made absolute against the working directory, without touching the file system (no symbolic
/// links resolved, so paths in messages stay the ones the user gave, only completed). Scripts resolve every
/// name against their own folder; a relative folder (`.`, or empty for a bare file name) would tie the lookup
/// to the working directory and break `..` and the search for a Gothic `Anims` folder above the script.
pub fn absolute(path: &Path) -> PathBuf {
    let path = if path.as_os_str().is_empty() { Path::new(".") } else { path };
    let Ok(full) = std::path::absolute(path) else { return path.to_path_buf() };
    // `std::path::absolute` keeps `..` (it may cross a symbolic link); only `.` components are dropped here.
    full.components().filter(|c| !matches!(c, Component::CurDir)).collect()
}

/// Folder listings read once each: lower-cased entry name → (real name, is a folder); and the files they are
/// read from.
#[derive(Debug, Default)]
pub struct DirCache {
    pub files: Files,
    listings: HashMap<PathBuf, HashMap<String, (String, bool)>>,
}

impl DirCache {
    /// An empty cache over `files`.
    pub fn new(files: &Files) -> Self {
        Self { files: files.clone(), listings: HashMap::new() }
    }

    fn listing(&mut self, dir: &Path) -> &HashMap<String, (String, bool)> {
        let files = &self.files;
        self.listings.entry(dir.to_path_buf()).or_insert_with(|| {
            let mut out = HashMap::new();
            for e in files.list(dir).unwrap_or_default() {
                out.entry(e.name.to_lowercase()).or_insert((e.name, e.is_folder));
            }
            out
        })
    }

    /// `relative` (as written in a script: `/` or `\`, `.` and `..` allowed, or absolute) under `base`: a file
    /// or a folder. Each component is matched exactly first, then case-insensitively. `None` when nothing
    /// matches.
    fn find_at(&mut self, base: &Path, relative: &str) -> Option<PathBuf> {
        let written = relative.trim().replace('\\', "/");
        if written.is_empty() {
            return None;
        }
        let written = Path::new(&written);
        let mut at = if written.is_absolute() { PathBuf::new() } else { base.to_path_buf() };
        let components: Vec<Component> = written.components().collect();
        let last = components.len().saturating_sub(1);
        for (i, c) in components.iter().enumerate() {
            match c {
                Component::Prefix(_) | Component::RootDir => at.push(c.as_os_str()),
                Component::CurDir => {}
                // `..` removes the last folder named; a base that names none (`.`, empty, or already
                // `..`) must keep the `..`, or a script opened by a bare file name would look for
                // `../shared/x.qci` in the working directory as `shared/x.qci`.
                Component::ParentDir => match at.components().next_back() {
                    Some(Component::Normal(_)) => {
                        at.pop();
                    }
                    Some(Component::RootDir | Component::Prefix(_)) => {}
                    _ => at.push(".."),
                },
                Component::Normal(name) => {
                    let name = name.to_str()?;
                    let exact = at.join(name);
                    let inner = i < last;
                    let exists = if inner { self.files.is_folder(&exact) } else { self.files.exists(&exact) };
                    if exists {
                        // Windows' file systems answer for a name in any case: the path then takes the name as
                        // the folder lists it, as the lookup below gives it on Linux. Paths that differ only in
                        // case are different paths to every comparison of them (`bonescope check` tells the
                        // files a script claims from the others so), and the reports read the same on both.
                        let listed = cfg!(windows).then(|| self.listing(&at).get(&name.to_lowercase()).cloned());
                        at = listed.flatten().map_or(exact, |(real, _)| at.join(real));
                        continue;
                    }
                    let (real, is_dir) = self.listing(&at).get(&name.to_lowercase()).cloned()?;
                    if inner && !is_dir {
                        return None;
                    }
                    at.push(real);
                }
            }
        }
        Some(at)
    }

    /// [`DirCache::find_at`], and failing that the one file of that file name among all the files where the
    /// files can say ([`crate::files::FileAccess::find_by_name`]: files dropped on the web page without their
    /// folders).
    pub fn find(&mut self, base: &Path, relative: &str) -> Option<PathBuf> {
        self.find_at(base, relative).or_else(|| {
            let name = relative.trim().rsplit(['/', '\\']).next()?;
            self.files.find_by_name(name)
        })
    }

    /// Like [`DirCache::find`], trying each of `extensions` (without dot) when the name has no extension.
    pub fn find_with_extensions(&mut self, base: &Path, relative: &str, extensions: &[&str]) -> Option<PathBuf> {
        let has_extension = Path::new(&relative.replace('\\', "/")).extension().is_some();
        if !has_extension {
            for ext in extensions {
                if let Some(found) = self.find(base, &format!("{relative}.{ext}")) {
                    return Some(found);
                }
            }
        }
        self.find(base, relative)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bonescope-script-files-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn finds_relative_paths_with_either_slash_and_any_case() {
        let dir = temp_dir("find");
        std::fs::create_dir_all(dir.join("Models/Crab")).unwrap();
        std::fs::create_dir_all(dir.join("shared")).unwrap();
        std::fs::write(dir.join("Models/Crab/Walk.SMD"), b"x").unwrap();
        std::fs::write(dir.join("shared/inc.qci"), b"x").unwrap();
        let mut cache = DirCache::default();
        let base = dir.join("Models/Crab");
        assert_eq!(cache.find(&base, "walk.smd"), Some(base.join("Walk.SMD")));
        assert_eq!(cache.find(&dir, "models\\crab\\WALK.smd"), Some(base.join("Walk.SMD")));
        assert_eq!(cache.find(&base, "../../shared/INC.qci"), Some(dir.join("shared/inc.qci")));
        assert_eq!(cache.find_with_extensions(&base, "walk", &["smd"]), Some(base.join("Walk.SMD")));
        assert_eq!(cache.find(&base, "run.smd"), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn parent_folders_of_a_relative_base_are_kept() {
        // Tests run in the crate's folder: `./../<its name>/Cargo.toml` is its manifest. A `..` applied to `.`
        // by dropping the `.` would look for `<its name>/Cargo.toml` inside the crate.
        let here = std::env::current_dir().unwrap();
        let name = here.file_name().unwrap().to_str().unwrap();
        let mut cache = DirCache::default();
        let found = cache.find(Path::new("."), &format!("../{name}/Cargo.toml"));
        assert_eq!(found, Some(PathBuf::from(format!("./../{name}/Cargo.toml"))));
        assert_eq!(
            cache.find(Path::new(""), &format!("../{name}/Cargo.toml")),
            Some(PathBuf::from(format!("../{name}/Cargo.toml")))
        );
        assert_eq!(cache.find(Path::new("src"), "../Cargo.toml"), Some(PathBuf::from("Cargo.toml")));
        assert_eq!(absolute(Path::new("")), here);
        assert_eq!(absolute(Path::new("./src")), here.join("src"));
    }
}
