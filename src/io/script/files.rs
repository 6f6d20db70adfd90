//! Finding the files a script names: QC paths relative to a folder (with `..`, either slash, and a
//! case-insensitive fallback for sources written on Windows), and Gothic's "by file name anywhere under the
//! `ASC_*` folders" lookup.
//!
//! Folder listings are read once and kept ([`DirCache`]); the Gothic index ([`AscIndex`]) walks the `Anims`
//! tree once per script. Nothing here scans a folder per file looked up.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// Folder listings read once each: lower-cased entry name → (real name, is a folder).
#[derive(Debug, Default)]
pub struct DirCache {
    listings: HashMap<PathBuf, HashMap<String, (String, bool)>>,
}

impl DirCache {
    fn listing(&mut self, dir: &Path) -> &HashMap<String, (String, bool)> {
        self.listings.entry(dir.to_path_buf()).or_insert_with(|| {
            let mut out = HashMap::new();
            if let Ok(entries) = std::fs::read_dir(dir) {
                for e in entries.flatten() {
                    let Ok(name) = e.file_name().into_string() else { continue };
                    let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
                    out.entry(name.to_lowercase()).or_insert((name, is_dir));
                }
            }
            out
        })
    }

    /// `relative` (as written in a script: `/` or `\`, `.` and `..` allowed, or absolute) under `base`: a file
    /// or a folder. Each component is matched exactly first, then case-insensitively. `None` when nothing
    /// matches.
    pub fn find(&mut self, base: &Path, relative: &str) -> Option<PathBuf> {
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
                Component::ParentDir => {
                    if !at.pop() {
                        at.push("..");
                    }
                }
                Component::Normal(name) => {
                    let name = name.to_str()?;
                    let exact = at.join(name);
                    let inner = i < last;
                    let exists = if inner { exact.is_dir() } else { exact.exists() };
                    if exists {
                        at = exact;
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

/// Where Gothic's tools find the files an MDS/MMS names: by file name alone, case-insensitively, anywhere in
/// the `ASC_*` folders of the `Anims` tree (and beside the script).
#[derive(Debug, Default)]
pub struct AscIndex {
    /// The `Anims` folder searched.
    pub root: PathBuf,
    by_name: HashMap<String, PathBuf>,
    /// File names found in more than one place (the first in sorted path order is used).
    pub duplicates: Vec<(String, Vec<PathBuf>)>,
}

/// How deep below `Anims/ASC_*` files are looked for (the game's tree is three levels deep at most).
const MAX_INDEX_DEPTH: usize = 12;

impl AscIndex {
    /// Indexes the tree the script at `script_dir` belongs to. The `Anims` root is the nearest folder at or
    /// above the script named `Anims` (any case), else the nearest one holding `ASC_*` folders, else the
    /// script's own folder.
    pub fn build(script_dir: &Path) -> Self {
        let root = anims_root(script_dir);
        let mut found: Vec<PathBuf> = Vec::new();
        // The script's own folder first: a model kept with its ASC files loads without the game's tree.
        list_files(script_dir, &mut found);
        if let Ok(entries) = std::fs::read_dir(&root) {
            let mut asc_dirs: Vec<PathBuf> = entries
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .filter(|e| e.file_name().to_str().is_some_and(|n| n.to_ascii_uppercase().starts_with("ASC_")))
                .map(|e| e.path())
                .collect();
            asc_dirs.sort();
            for dir in asc_dirs {
                walk(&dir, 0, &mut found);
            }
        }
        let mut by_name: HashMap<String, PathBuf> = HashMap::new();
        let mut all: HashMap<String, Vec<PathBuf>> = HashMap::new();
        for path in found {
            let Some(name) = path.file_name().and_then(|n| n.to_str()).map(str::to_lowercase) else { continue };
            let places = all.entry(name.clone()).or_default();
            if !places.contains(&path) {
                places.push(path.clone());
            }
            by_name.entry(name).or_insert(path);
        }
        let mut duplicates: Vec<(String, Vec<PathBuf>)> = all.into_iter().filter(|(_, p)| p.len() > 1).collect();
        duplicates.sort();
        Self { root, by_name, duplicates }
    }

    /// The file a script names (`"Blo_Body.asc"`; a path in the name is reduced to its file name, as the game
    /// does).
    pub fn find(&self, name: &str) -> Option<&PathBuf> {
        let file_name = name.trim().rsplit(['/', '\\']).next().unwrap_or(name);
        self.by_name.get(&file_name.to_lowercase())
    }
}

fn anims_root(script_dir: &Path) -> PathBuf {
    let mut holding_asc: Option<PathBuf> = None;
    for dir in script_dir.ancestors() {
        let is_anims = dir.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.eq_ignore_ascii_case("anims"));
        if is_anims {
            return dir.to_path_buf();
        }
        if holding_asc.is_none() && has_asc_folder(dir) {
            holding_asc = Some(dir.to_path_buf());
        }
    }
    holding_asc.unwrap_or_else(|| script_dir.to_path_buf())
}

fn has_asc_folder(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            e.file_type().is_ok_and(|t| t.is_dir())
                && e.file_name().to_str().is_some_and(|n| n.to_ascii_uppercase().starts_with("ASC_"))
        })
    })
}

fn list_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut files: Vec<PathBuf> =
        entries.flatten().filter(|e| e.file_type().is_ok_and(|t| t.is_file())).map(|e| e.path()).collect();
    files.sort();
    out.extend(files);
}

fn walk(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    if depth > MAX_INDEX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    for e in entries.flatten() {
        match e.file_type() {
            Ok(t) if t.is_dir() => dirs.push(e.path()),
            Ok(t) if t.is_file() => files.push(e.path()),
            _ => {}
        }
    }
    files.sort();
    dirs.sort();
    out.extend(files);
    for d in dirs {
        walk(&d, depth + 1, out);
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
    fn asc_index_finds_files_by_name_under_asc_folders() {
        let dir = temp_dir("asc");
        let anims = dir.join("Anims");
        std::fs::create_dir_all(anims.join("ASC_BODIES/MONSTER")).unwrap();
        std::fs::create_dir_all(anims.join("asc_anims/FLY")).unwrap();
        std::fs::create_dir_all(anims.join("OTHER")).unwrap();
        std::fs::write(anims.join("ASC_BODIES/MONSTER/BLO_BODY.ASC"), b"x").unwrap();
        std::fs::write(anims.join("asc_anims/FLY/Blo_Run.asc"), b"x").unwrap();
        std::fs::write(anims.join("OTHER/HIDDEN.ASC"), b"x").unwrap();
        let index = AscIndex::build(&anims);
        assert_eq!(index.root, anims);
        assert_eq!(index.find("Blo_Body.asc"), Some(&anims.join("ASC_BODIES/MONSTER/BLO_BODY.ASC")));
        assert_eq!(index.find("BLO_RUN.ASC"), Some(&anims.join("asc_anims/FLY/Blo_Run.asc")));
        assert_eq!(index.find("C:\\work\\blo_run.asc"), Some(&anims.join("asc_anims/FLY/Blo_Run.asc")));
        assert_eq!(index.find("hidden.asc"), None, "only ASC_* folders are searched");
        // A script deeper in the tree finds the same root.
        assert_eq!(AscIndex::build(&anims.join("asc_anims/FLY")).root, anims);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
