//! Walking the paths given and grouping their files into characters before any mesh or animation is checked:
//! each file's part is decided by `roles`; model scripts are read (they are small) and the files they name found
//! with `io::script::plan`; the other meshes, animations and companions are paired as a user pairs them
//! (`pair`): each animation with the one character its name or its skeleton says, never with every mesh of its
//! folder, and what pairs with nothing listed as such. Pairing by skeleton loads the files it compares once each,
//! keeping only their skeletons; meshes and animations are then read again, one character at a time, by the unit
//! that checks them. A VDFS volume (`.vdf`) is walked as a folder, through the file-access interface that mounts
//! it ([`io::Files::disk`]); a compiled GoldSrc model is a character of its own (its loader reads its companions)
//! and a folder's compiled Gothic files are put together by the engine's names when checked (`zengin`).

use std::collections::{BTreeMap, HashSet};
use std::path::{Component, Path, PathBuf};

use rayon::prelude::*;

use bonescope::io::script::{self, ScriptPlan};
use bonescope::io::{self, LoadError, LoadOptions};
use bonescope::scene::Format;

use super::pair::{self, Pairing, Signature};
use super::roles::{self, Role};

/// How files become characters, as the command prints it.
pub const GROUPING_RULE: &str = "a model script (QC, MDS, MMS) is a character with every file it names (a Gothic \
overlay without a mesh of its own: its animations on the base model it overlays); every other mesh is a character \
with the files paired with it: the meshes of the same skeleton in the same bind pose in its folder (a modular \
character's parts), each animation whose name says it is its (xMesh/xAnims, x_ref/x_anims, the same name, a name \
or folder that starts with its name), else whose skeleton fits it alone (its tracks bind, its bone lengths agree) \
— looked for in the animation's folder, or beside that folder when it has no mesh — and each VTA whose vertices \
are its; an animation or VTA that pairs with no character, or with several equally, is checked alone and listed \
as unpaired; a compiled GoldSrc model (.mdl) is a character of its own, its texture and sequence-group files \
(nameT.mdl, name01.mdl) part of it; compiled Gothic files make a character of each model (MODEL.MDL or MODEL.MDH) \
with the meshes made for it and its animations MODEL-ANI.MAN; a VDFS volume (.vdf) is walked as a folder; a file \
that does not load is reported on its own";

/// Folders below a root are followed this deep at most (and symbolic links to folders not at all, so a link
/// loop cannot make the walk endless).
const MAX_DEPTH: usize = 64;

/// One piece of work: a character's files, loaded and checked together.
#[derive(Debug)]
pub enum Unit {
    /// A model script, its bytes (read once, here) and what it names.
    Script { path: PathBuf, format: Format, bytes: Vec<u8>, plan: Result<ScriptPlan, LoadError> },
    /// A mesh and the files paired with it: its parts, animations and companions, each with how it was paired;
    /// and the animations whose names say nothing and that have no other character to go to, bound if their
    /// skeleton fits when the unit is checked (said unpaired otherwise).
    Character {
        main: PathBuf,
        parts: Vec<(PathBuf, Pairing)>,
        animations: Vec<(PathBuf, Pairing)>,
        companions: Vec<(PathBuf, Pairing)>,
        if_they_fit: Vec<PathBuf>,
    },
    /// An animation or companion no character takes: checked alone, and said so.
    Unpaired { path: PathBuf, role: Role, why: String },
    /// A folder's compiled Gothic files, put together by the engine's names when loaded (`zengin`).
    Compiled { dir: PathBuf, files: Vec<PathBuf> },
    /// A script that could not be read.
    Unreadable { path: PathBuf, error: LoadError },
}

impl Unit {
    /// Files it will read (for the progress count).
    pub fn file_count(&self) -> usize {
        match self {
            Unit::Script { plan: Ok(plan), .. } => 1 + plan.found().len(),
            Unit::Script { .. } | Unit::Unreadable { .. } | Unit::Unpaired { .. } => 1,
            Unit::Character { parts, animations, companions, if_they_fit, .. } => {
                1 + parts.len() + animations.len() + companions.len() + if_they_fit.len()
            }
            Unit::Compiled { files, .. } => files.len(),
        }
    }

    /// Every file it reads: a script's own files (it and its includes) and the files it names that are there,
    /// or a character's files.
    pub fn files(&self) -> Vec<PathBuf> {
        match self {
            // An overlay is checked on its base model ([`super::overlay`]): the base's files are read too.
            Unit::Script { plan: Ok(plan), .. } => std::iter::once(plan)
                .chain(plan.base.as_deref())
                .flat_map(|p| p.script_files.iter().cloned().chain(p.found().into_iter().map(Path::to_path_buf)))
                .collect(),
            Unit::Script { path, .. } | Unit::Unreadable { path, .. } | Unit::Unpaired { path, .. } => {
                vec![path.clone()]
            }
            Unit::Character { main, parts, animations, companions, if_they_fit } => std::iter::once(main.clone())
                .chain(parts.iter().chain(animations).chain(companions).map(|(p, _)| p.clone()))
                .chain(if_they_fit.iter().cloned())
                .collect(),
            Unit::Compiled { files, .. } => files.clone(),
        }
    }

    pub fn label(&self) -> String {
        match self {
            Unit::Script { path, .. } | Unit::Unreadable { path, .. } | Unit::Unpaired { path, .. } => {
                path.display().to_string()
            }
            Unit::Character { main, .. } => main.display().to_string(),
            Unit::Compiled { dir, .. } => format!("{}/", dir.display()),
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

/// Walks `roots` (folders, or single files) and groups what they hold; `opts` loads what pairing by skeleton
/// compares.
pub fn group(roots: &[PathBuf], opts: &LoadOptions) -> Tree {
    let files = io::Files::disk();
    let mut scripts: Vec<PathBuf> = Vec::new();
    let mut loose: Vec<(PathBuf, Role)> = Vec::new();
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
                        sort_file(path, &mut scripts, &mut loose, &mut tree, &mut seen);
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
                    sort_file(path, &mut scripts, &mut loose, &mut tree, &mut seen);
                }
            }),
            Ok(_) if sort_compiled(root, &mut compiled, &mut tree, &mut seen) => {}
            Ok(_) => {
                // A file named on the command line is sorted as the walk sorts it, so naming a folder's files
                // gives the answer naming the folder gives: its textures and includes are left alone. Only a
                // mesh or animation under another extension, known by its first bytes, is looked at too.
                match (roles::role_of(root), roles::role_by_first_bytes(root)) {
                    (Role::Other, Some(role)) => {
                        if seen.insert(key(root)) {
                            tree.files += 1;
                            loose.push((root.clone(), role));
                        }
                    }
                    _ => sort_file(root.clone(), &mut scripts, &mut loose, &mut tree, &mut seen),
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
    loose.retain(|(p, _)| !claimed.contains(&key(p)));
    // Compiled Gothic files go together by the engine's names, folder by folder, not by pairing.
    let (gothic, loose): (Vec<_>, Vec<_>) = loose.into_iter().partition(|(_, role)| *role == Role::Compiled);
    let mut gothic_folders: BTreeMap<PathBuf, Vec<PathBuf>> = BTreeMap::new();
    for (path, _) in gothic {
        gothic_folders.entry(path.parent().map(Path::to_path_buf).unwrap_or_default()).or_default().push(path);
    }
    tree.units.extend(pair_loose(loose, opts));
    tree.units.extend(gothic_folders.into_iter().map(|(dir, files)| Unit::Compiled { dir, files }));
    tree.units.extend(compiled.into_iter().map(|main| Unit::Character {
        main,
        parts: Vec::new(),
        animations: Vec::new(),
        companions: Vec::new(),
        if_they_fit: Vec::new(),
    }));
    tree
}

/// A `.mdl` file that is a compiled GoldSrc model (`IDST`/`IDSQ`, by its first bytes): a model is kept for a
/// character of its own, a texture or sequence-group file counts as part of its model. False for anything else
/// (Gothic's `.MDL` is sorted as other files are).
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
    loose: &mut Vec<(PathBuf, Role)>,
    tree: &mut Tree,
    seen: &mut HashSet<PathBuf>,
) {
    if !seen.insert(key(&path)) {
        return;
    }
    match roles::role_of(&path) {
        Role::Script => {
            tree.files += 1;
            scripts.push(path);
        }
        Role::Other => tree.other_files += 1,
        role => {
            tree.files += 1;
            loose.push((path, role));
        }
    }
}

/// A character being assembled from loose files: its main mesh, its parts, what is paired with it.
struct Group {
    main: usize,
    parts: Vec<(usize, Pairing)>,
    animations: Vec<(PathBuf, Pairing)>,
    companions: Vec<(PathBuf, Pairing)>,
    if_they_fit: Vec<PathBuf>,
}

/// Pairs the files no script names into characters ([`pair`]); what pairs with nothing becomes a unit of its
/// own.
fn pair_loose(loose: Vec<(PathBuf, Role)>, opts: &LoadOptions) -> Vec<Unit> {
    let folder_of = |p: &Path| p.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut meshes: Vec<PathBuf> = Vec::new();
    let mut others: Vec<(PathBuf, Role)> = Vec::new();
    for (path, role) in loose {
        match role {
            Role::Character => meshes.push(path),
            _ => others.push((path, role)),
        }
    }
    meshes.sort();
    others.sort();
    let mut by_folder: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
    for (i, m) in meshes.iter().enumerate() {
        by_folder.entry(folder_of(m)).or_default().push(i);
    }
    // Which meshes the names pair animations with, before any skeleton is looked at: a mesh with animations of
    // its own is a character of its own, not another's part.
    let candidates = |file: &Path| -> Vec<usize> {
        let folder = folder_of(file);
        match by_folder.get(&folder) {
            Some(here) => here.clone(),
            // A folder of animations without a mesh: the meshes beside it (its parent's, its siblings').
            None => {
                let parent = folder.parent().map(Path::to_path_buf).unwrap_or_default();
                by_folder
                    .iter()
                    .filter(|(dir, _)| **dir == parent || dir.parent() == Some(parent.as_path()))
                    .flat_map(|(_, v)| v.iter().copied())
                    .collect()
            }
        }
    };
    let named = |file: &Path, within: &[usize], group_of: &dyn Fn(usize) -> usize| -> Option<(usize, Pairing)> {
        let paths: Vec<&Path> = within.iter().map(|&i| meshes[i].as_path()).collect();
        pair::by_name(file, &paths, &|k| within.get(k).map_or(k, |&i| group_of(i))).map(|(k, p)| (within[k], p))
    };
    let alone = |i: usize| i;
    let mut name_paired: Vec<Option<(usize, Pairing)>> =
        others.iter().map(|(path, _)| named(path, &candidates(path), &alone)).collect();
    let has_own: HashSet<usize> = name_paired.iter().flatten().map(|(i, _)| *i).collect();

    // Signatures of the meshes that can be parts of another (folders with several meshes), loaded in parallel.
    let several: Vec<usize> = by_folder.values().filter(|v| v.len() > 1).flatten().copied().collect();
    let mut signatures: Vec<Option<Signature>> = (0..meshes.len()).map(|_| None).collect();
    let loaded: Vec<(usize, Option<Signature>)> =
        several.par_iter().map(|&i| (i, Signature::load(&meshes[i], opts))).collect();
    for (i, sig) in loaded {
        signatures[i] = sig;
    }
    // Characters: a mesh joins an earlier mesh of its folder that is the same character (same skeleton, same
    // bind pose), unless both have animations of their own.
    let mut group_of: Vec<usize> = (0..meshes.len()).collect();
    let mut groups: Vec<Group> = Vec::new();
    let mut index_of_group: BTreeMap<usize, usize> = BTreeMap::new();
    for indices in by_folder.values() {
        for &i in indices {
            let join = indices.iter().take_while(|&&j| j != i).find(|&&j| {
                group_of[j] == j
                    && !(has_own.contains(&i) && has_own.contains(&j))
                    && match (&signatures[j], &signatures[i]) {
                        (Some(a), Some(b)) => bonescope::scene::parts::same_character(&a.reduced, &b.reduced),
                        _ => false,
                    }
            });
            match join.copied() {
                Some(j) => {
                    group_of[i] = j;
                    let g = index_of_group[&j];
                    let detail = format!(
                        "the same skeleton in the same bind pose as {}",
                        meshes[j].file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default()
                    );
                    groups[g].parts.push((i, Pairing { method: "part", detail }));
                }
                None => {
                    index_of_group.insert(i, groups.len());
                    groups.push(Group {
                        main: i,
                        parts: Vec::new(),
                        animations: Vec::new(),
                        companions: Vec::new(),
                        if_they_fit: Vec::new(),
                    });
                }
            }
        }
    }
    // Names that tied between two meshes of one character now name it.
    for (k, (path, _)) in others.iter().enumerate() {
        if name_paired[k].is_none() {
            name_paired[k] = named(path, &candidates(path), &|i| group_of[i]);
        }
    }
    let mut units = Vec::new();
    let mut unpaired: Vec<(PathBuf, Role, String)> = Vec::new();
    let mut by_skeleton: Vec<(PathBuf, Role)> = Vec::new();
    for ((path, role), found) in others.into_iter().zip(name_paired) {
        match (role, found) {
            (Role::Animation, Some((i, how))) => groups[index_of_group[&group_of[i]]].animations.push((path, how)),
            (Role::Companion, Some((i, how))) => match fits_vertices(&path, &meshes[i], opts) {
                true => groups[index_of_group[&group_of[i]]].companions.push((path, vertex_pairing(how))),
                false => unpaired.push((
                    path,
                    role,
                    format!("its name says {}, but its vertices are not that mesh's", shown(&meshes[i])),
                )),
            },
            _ => by_skeleton.push((path, role)),
        }
    }
    // The rest by what they hold: an animation to the one character whose skeleton it fits, a VTA to the mesh
    // whose vertices it moves. An animation with one character to go to is checked against it when that
    // character is (no file is loaded twice for it); only where characters compete are skeletons compared here.
    let mains_of = |path: &Path| -> Vec<usize> {
        let mut mains: Vec<usize> = candidates(path).into_iter().map(|i| group_of[i]).collect();
        mains.sort();
        mains.dedup();
        mains
    };
    by_skeleton.retain(|(path, role)| match (role, mains_of(path).as_slice()) {
        (Role::Animation, [only]) => {
            groups[index_of_group[only]].if_they_fit.push(path.clone());
            false
        }
        _ => true,
    });
    let mains_needed: HashSet<usize> =
        by_skeleton.iter().flat_map(|(p, _)| mains_of(p)).filter(|i| signatures[*i].is_none()).collect();
    let extra: Vec<(usize, Option<Signature>)> = mains_needed
        .into_iter()
        .collect::<Vec<_>>()
        .par_iter()
        .map(|&i| (i, Signature::load(&meshes[i], opts)))
        .collect();
    for (i, sig) in extra {
        signatures[i] = sig;
    }
    let results: Vec<Result<(usize, Pairing), String>> = by_skeleton
        .par_iter()
        .map(|(path, role)| {
            let mains = mains_of(path);
            if mains.is_empty() {
                return Err("no mesh in its folder or beside it".to_owned());
            }
            match role {
                Role::Companion => mains
                    .iter()
                    .flat_map(|&m| std::iter::once(m).chain(groups[index_of_group[&m]].parts.iter().map(|(p, _)| *p)))
                    .find(|&i| fits_vertices(path, &meshes[i], opts))
                    .map(|i| {
                        (
                            i,
                            Pairing {
                                method: "vertices",
                                detail: format!("its vertices are those of {}", shown(&meshes[i])),
                            },
                        )
                    })
                    .ok_or_else(|| "its vertices are no mesh's in its folder".to_owned()),
                _ => best_skeleton(path, &mains, &signatures, &meshes, opts),
            }
        })
        .collect();
    for ((path, role), result) in by_skeleton.into_iter().zip(results) {
        match result {
            Ok((i, how)) => {
                let g = &mut groups[index_of_group[&group_of[i]]];
                if role == Role::Companion { g.companions.push((path, how)) } else { g.animations.push((path, how)) }
            }
            Err(why) => unpaired.push((path, role, why)),
        }
    }
    for g in groups {
        units.push(Unit::Character {
            main: meshes[g.main].clone(),
            parts: g.parts.into_iter().map(|(i, how)| (meshes[i].clone(), how)).collect(),
            animations: g.animations,
            companions: g.companions,
            if_they_fit: g.if_they_fit,
        });
    }
    units.extend(unpaired.into_iter().map(|(path, role, why)| Unit::Unpaired { path, role, why }));
    units.sort_by_key(Unit::label);
    units
}

fn shown(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |f| f.to_string_lossy().into_owned())
}

fn vertex_pairing(named: Pairing) -> Pairing {
    Pairing { method: named.method, detail: format!("{}; its vertices are that mesh's", named.detail) }
}

/// The one character (by main mesh) among `mains` whose skeleton the animation at `path` fits best, clearly.
fn best_skeleton(
    path: &Path,
    mains: &[usize],
    signatures: &[Option<Signature>],
    meshes: &[PathBuf],
    opts: &LoadOptions,
) -> Result<(usize, Pairing), String> {
    let Some(animation) = Signature::load(path, opts) else {
        return Err("it did not load to be compared".to_owned());
    };
    let mut fits: Vec<(f32, usize, pair::Fit)> = mains
        .iter()
        .filter_map(|&m| {
            let fit = pair::fit(signatures.get(m)?.as_ref()?, &animation)?;
            Some((fit.score(), m, fit))
        })
        .collect();
    fits.sort_by(|a, b| b.0.total_cmp(&a.0));
    match fits.as_slice() {
        [] => Err(format!(
            "its name says no character's, and its skeleton fits none of the {} character(s) beside it",
            mains.len()
        )),
        [(s, a, _), (t, b, _), ..] if s - t < 0.05 => Err(format!(
            "its name says no character's, and its skeleton fits {} and {} equally",
            shown(&meshes[*a]),
            shown(&meshes[*b])
        )),
        [(_, m, fit), ..] => Ok((*m, Pairing { method: "skeleton", detail: fit.describe() })),
    }
}

/// Whether the VTA at `path` moves the vertices of the mesh at `mesh`: nearly all the vertices it moves (nine
/// in ten) are that mesh's, by corner or by position — a VTA of another model may share a point or two with a
/// collision hull, never its surface.
fn fits_vertices(path: &Path, mesh: &Path, opts: &LoadOptions) -> bool {
    let (Ok(mut model), Ok(vta)) = (io::load_path(mesh, opts), io::load_path(path, opts)) else { return false };
    if vta.format != Some(Format::Vta) {
        return false;
    }
    match io::smd::attach_vta(&mut model, &vta) {
        Ok(b) => {
            let matched = b.by_corner + b.by_position;
            matched > 0 && matched * 10 >= (matched + b.unmatched) * 9
        }
        Err(_) => false,
    }
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
