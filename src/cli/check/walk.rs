//! Walking the paths given and grouping their files into characters before anything is loaded: model scripts
//! are read (they are small) and the files they name found with `io::script::plan`; every other mesh or
//! animation file is grouped with the others of its folder. Only scripts are read here; meshes and animations
//! are read once each, later, by the character they belong to. A VDFS volume (`.vdf`) is walked as a folder,
//! through the file-access interface that mounts it ([`io::Files::disk`]).

use std::collections::{BTreeMap, HashSet};
use std::path::{Component, Path, PathBuf};

use bonescope::io::script::{self, ScriptPlan};
use bonescope::io::{self, LoadError};
use bonescope::scene::Format;

/// How files become characters, as the command prints it.
pub const GROUPING_RULE: &str = "a model script (QC, MDS, MMS) is a character with every file it names (a Gothic \
overlay without a mesh of its own: its animations on the base model it overlays); the other meshes and animations \
are grouped by folder: each reference mesh (a file with triangles) with the other meshes of the same character (same \
bone names, same bind pose: a modular character's parts) and every animation of its folder, bound by bone name; a \
folder of animations without a mesh is checked against the first animation's skeleton; a compiled GoldSrc model \
(.mdl) is a character of its own, its texture and sequence-group files (nameT.mdl, name01.mdl) part of it; compiled \
Gothic files make a character of each model (MODEL.MDL or MODEL.MDH) with the meshes made for it and its animations \
MODEL-ANI.MAN; a file that does not load is reported on its own";

/// Extensions of the mesh and animation files looked at (any case). MRTK recordings (`.bin`) are not characters.
/// Compiled Gothic files (`.mdh`, `.mdm`, `.mdl`, `.man`, `.mmb`, `.mrm`) are grouped by their names
/// (`zengin`); a GoldSrc `.mdl` is told from a Gothic one by its first bytes (`sort_compiled`).
const MODEL_EXTENSIONS: [&str; 14] =
    ["smd", "vta", "dmx", "psk", "pskx", "psa", "ase", "asc", "mdh", "mdm", "mdl", "man", "mmb", "mrm"];

/// Folders below a root are followed this deep at most (and symbolic links to folders not at all, so a link
/// loop cannot make the walk endless).
const MAX_DEPTH: usize = 64;

/// One piece of work: a character's files, loaded and checked together.
#[derive(Debug)]
pub enum Unit {
    /// A model script, its bytes (read once, here) and what it names.
    Script { path: PathBuf, format: Format, bytes: Vec<u8>, plan: Result<ScriptPlan, LoadError> },
    /// The files of one folder that no script names.
    Folder { dir: PathBuf, files: Vec<PathBuf> },
    /// A script that could not be read.
    Unreadable { path: PathBuf, error: LoadError },
}

impl Unit {
    /// Files it will read (for the progress count).
    pub fn file_count(&self) -> usize {
        match self {
            Unit::Script { plan: Ok(plan), .. } => 1 + plan.found().len(),
            Unit::Script { .. } | Unit::Unreadable { .. } => 1,
            Unit::Folder { files, .. } => files.len(),
        }
    }

    /// Every file it reads: a script's own files (it and its includes) and the files it names that are there,
    /// or a folder's files.
    pub fn files(&self) -> Vec<PathBuf> {
        match self {
            // An overlay is checked on its base model ([`super::overlay`]): the base's files are read too.
            Unit::Script { plan: Ok(plan), .. } => std::iter::once(plan)
                .chain(plan.base.as_deref())
                .flat_map(|p| p.script_files.iter().cloned().chain(p.found().into_iter().map(Path::to_path_buf)))
                .collect(),
            Unit::Script { path, .. } | Unit::Unreadable { path, .. } => vec![path.clone()],
            Unit::Folder { files, .. } => files.clone(),
        }
    }

    pub fn label(&self) -> String {
        match self {
            Unit::Script { path, .. } | Unit::Unreadable { path, .. } => path.display().to_string(),
            Unit::Folder { dir, .. } => format!("{}/", dir.display()),
        }
    }
}

/// The grouped tree.
#[derive(Debug, Default)]
pub struct Tree {
    pub units: Vec<Unit>,
    /// Scripts, meshes and animations found.
    pub files: usize,
    /// Other files (textures, includes, notes), left alone.
    pub other_files: usize,
    /// Paths given that do not exist.
    pub missing_roots: Vec<PathBuf>,
}

/// Walks `roots` (folders, or single files) and groups what they hold.
pub fn group(roots: &[PathBuf]) -> Tree {
    let files = io::Files::disk();
    let mut scripts: Vec<PathBuf> = Vec::new();
    let mut models: Vec<PathBuf> = Vec::new();
    // Compiled GoldSrc models: each its own character (its companions are read by its loader).
    let mut compiled: Vec<PathBuf> = Vec::new();
    let mut tree = Tree::default();
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let mut unreadable: Vec<Unit> = Vec::new();
    for root in roots {
        if is_volume(root) {
            // A volume given as a root: a folder when it opens, a file that could not be read otherwise.
            match files.kind(root) {
                Ok(bonescope::files::Kind::Folder) => walk_volume(&files, root, 0, &mut |path| {
                    if !sort_compiled(&path, &mut compiled, &mut tree, &mut seen) {
                        sort_file(path, &mut scripts, &mut models, &mut tree, &mut seen);
                    }
                }),
                Ok(_) => {}
                Err(e) if root.exists() => unreadable.push(volume_error(root, &e)),
                Err(_) => tree.missing_roots.push(root.clone()),
            }
            continue;
        }
        match std::fs::metadata(root) {
            Ok(meta) if meta.is_dir() => walk(&files, root, 0, &mut unreadable, &mut |path| {
                if !sort_compiled(&path, &mut compiled, &mut tree, &mut seen) {
                    sort_file(path, &mut scripts, &mut models, &mut tree, &mut seen);
                }
            }),
            Ok(_) if sort_compiled(root, &mut compiled, &mut tree, &mut seen) => {}
            Ok(_) => {
                // A file named on the command line is sorted as the walk sorts it, so naming a folder's files
                // gives the answer naming the folder gives: its textures and includes are left alone. Only a
                // mesh or animation under another extension, known by its first bytes, is looked at too.
                if is_model_by_contents(root) {
                    if seen.insert(key(root)) {
                        tree.files += 1;
                        models.push(root.clone());
                    }
                } else {
                    sort_file(root.clone(), &mut scripts, &mut models, &mut tree, &mut seen);
                }
            }
            Err(_) => tree.missing_roots.push(root.clone()),
        }
    }
    let mut claimed: HashSet<PathBuf> = HashSet::new();
    tree.units.append(&mut unreadable);
    for path in scripts {
        let unit = read_script(&files, &path);
        if let Unit::Script { plan: Ok(plan), .. } = &unit {
            claimed.extend(plan.found().into_iter().map(key));
        }
        tree.units.push(unit);
    }
    let mut folders: BTreeMap<PathBuf, Vec<PathBuf>> = BTreeMap::new();
    for path in models.into_iter().filter(|p| !claimed.contains(&key(p))) {
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        folders.entry(dir).or_default().push(path);
    }
    tree.units.extend(folders.into_iter().map(|(dir, files)| Unit::Folder { dir, files }));
    for path in compiled {
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        tree.units.push(Unit::Folder { dir, files: vec![path] });
    }
    tree
}

/// A `.mdl` file that is a compiled GoldSrc model (`IDST`/`IDSQ`, by its first bytes): a model is kept for a
/// character of its own, a texture or sequence-group file counts as part of its model. False for anything else
/// (another format's `.mdl` is sorted as other files are).
fn sort_compiled(path: &Path, compiled: &mut Vec<PathBuf>, tree: &mut Tree, seen: &mut HashSet<PathBuf>) -> bool {
    let is_mdl = path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("mdl"));
    if !is_mdl {
        return false;
    }
    let Ok(head) = io::Files::disk().read_prefix(path, 244) else { return false };
    let Some(role) = io::mdl::role(&head) else { return false };
    if seen.insert(key(path)) {
        match role {
            io::mdl::Role::Model => {
                tree.files += 1;
                compiled.push(path.to_path_buf());
            }
            io::mdl::Role::Textures | io::mdl::Role::SequenceGroup => tree.other_files += 1,
        }
    }
    true
}

fn sort_file(
    path: PathBuf,
    scripts: &mut Vec<PathBuf>,
    models: &mut Vec<PathBuf>,
    tree: &mut Tree,
    seen: &mut HashSet<PathBuf>,
) {
    if !seen.insert(key(&path)) {
        return;
    }
    if script_format(&path).is_some() {
        tree.files += 1;
        scripts.push(path);
    } else if has_model_extension(&path) {
        tree.files += 1;
        models.push(path);
    } else {
        tree.other_files += 1;
    }
}

/// A file whose extension is not one the walk reads but whose first bytes are a mesh or animation format's
/// (model scripts and recordings are known by their extension only, as in the walk).
fn is_model_by_contents(path: &Path) -> bool {
    if script_format(path).is_some() || has_model_extension(path) {
        return false;
    }
    let mut head = Vec::with_capacity(4096);
    let read = std::fs::File::open(path)
        .and_then(|f| std::io::Read::read_to_end(&mut std::io::Read::take(f, 4096), &mut head));
    read.is_ok()
        && matches!(
            io::detect_format(&head, None),
            Some(Format::Psk | Format::Psa | Format::Smd | Format::Vta | Format::Dmx | Format::Ase)
        )
}

fn has_model_extension(path: &Path) -> bool {
    let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    MODEL_EXTENSIONS.contains(&extension.as_str()) || io::dmx::is_dmx_name(path)
}

fn script_format(path: &Path) -> Option<Format> {
    path.extension().and_then(|e| e.to_str()).and_then(script::format_from_extension)
}

/// Reads a script and finds the files it names.
fn read_script(disk: &io::Files, path: &Path) -> Unit {
    let read = io::check_file(disk, path)
        .and_then(|_| disk.read(path).map(|b| b.to_vec()).map_err(|e| LoadError::io("cannot read", &e)))
        .and_then(|bytes| io::detect_file_format(&bytes, path).map(|format| (bytes, format)));
    match read {
        Ok((bytes, format)) if script::is_script_format(format) => {
            let plan = script::plan(disk, format, &bytes, path);
            Unit::Script { path: path.to_path_buf(), format, bytes, plan }
        }
        Ok((_, format)) => Unit::Unreadable {
            path: path.to_path_buf(),
            error: LoadError::whole_file(format!("named as a model script but holds {}", format.name())).in_file(path),
        },
        Err(error) => Unit::Unreadable { path: path.to_path_buf(), error: error.in_file(path) },
    }
}

/// Every regular file below `dir`, in sorted order (so runs and reports are repeatable); a volume's files as
/// those of a folder (one that cannot be opened is an unreadable unit).
fn walk(files: &io::Files, dir: &Path, depth: usize, unreadable: &mut Vec<Unit>, visit: &mut dyn FnMut(PathBuf)) {
    if depth > MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<(PathBuf, std::fs::FileType)> =
        entries.flatten().filter_map(|e| e.file_type().ok().map(|t| (e.path(), t))).collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, kind) in entries {
        if kind.is_dir() {
            walk(files, &path, depth + 1, unreadable, visit);
        } else if is_volume(&path) && (kind.is_file() || path.is_file()) {
            match files.list(&path) {
                Ok(_) => walk_volume(files, &path, depth + 1, visit),
                Err(e) => unreadable.push(volume_error(&path, &e)),
            }
        } else if kind.is_file() || (kind.is_symlink() && path.is_file()) {
            visit(path);
        }
    }
}

fn is_volume(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(bonescope::files::mount::is_volume_name)
}

fn volume_error(path: &Path, e: &std::io::Error) -> Unit {
    Unit::Unreadable { path: path.to_path_buf(), error: LoadError::io("cannot open the volume", e).in_file(path) }
}

/// Every file of a folder inside a volume (or of the volume), in sorted order.
fn walk_volume(files: &io::Files, dir: &Path, depth: usize, visit: &mut dyn FnMut(PathBuf)) {
    if depth > MAX_DEPTH {
        return;
    }
    let Ok(mut entries) = files.list(dir) else { return };
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    for entry in entries {
        let path = dir.join(&entry.name);
        if entry.is_folder {
            walk_volume(files, &path, depth + 1, visit);
        } else {
            visit(path);
        }
    }
}

/// What two paths of the same file have in common: absolute (a script's plan names files by absolute paths,
/// whatever folder the walk started from), then [`normalize`]d.
fn key(path: &Path) -> PathBuf {
    normalize(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// A path with `.` dropped and `..` applied, for comparing the paths a walk finds with those a script names
/// (the file system is not asked: no link is resolved).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !matches!(out.components().next_back(), Some(Component::Normal(_))) || !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_drops_dots() {
        assert_eq!(normalize(Path::new("./a/b/../c.smd")), PathBuf::from("a/c.smd"));
        assert_eq!(normalize(Path::new("../x/./y")), PathBuf::from("../x/y"));
    }
}
