//! Source materials of a QC character: a mesh material `skin` (an SMD triangle's `skin.bmp` or `skin`) is the
//! Valve material `<dir>/skin.vmt` in one of the `$cdmaterials` folders under a game's `materials` folder, and
//! its `$basetexture` names the texture, `materials/<value>.vtf`. Looked up only for the textures that the
//! usual search (next to the mesh, the user's folders, `$cdtexture`) did not find.
//!
//! `materials` folders: those above the script (a QC usually sits in a sources tree inside the game or mod
//! folder: each ancestor `X` gives `X/materials`), nearest first, then each of the user's texture folders
//! (`--textures DIR`) as a `materials` folder itself and through its own `materials` child. Names match
//! case-insensitively (folder listings read once: [`DirCache`] for paths, the load's
//! [`FolderCache`](crate::io::FolderCache) for the `.vmt` names). The `$basetexture` is looked for under the
//! `materials` folder the `.vmt` is in first. A `patch` material's `include` is followed (a few levels deep).
//! What was searched goes into the material's [`TextureRef`](crate::scene::TextureRef) as for any texture;
//! unreadable materials, and textures whose VTF header says a format the viewer cannot decode, are warnings.
//!
//! Files are read in one place, [`read_bytes`], and only as far as needed (a `.vtf`'s header).

use std::path::{Path, PathBuf};

use super::files::DirCache;
use crate::io::smd::MISSING_TEXTURES;
use crate::io::{Files, LoadOptions, vmt, vtf};
use crate::scene::{Asset, ModelScript, Position, TextureFolder, Warning};

/// The most of a `.vmt` that is read (they are a few hundred bytes).
const MAX_VMT_BYTES: u64 = 1 << 20;

/// Enough of a `.vtf` for its header (80 bytes from 7.2 on).
const VTF_HEADER_BYTES: u64 = 80;

/// `patch` materials followed before giving up (a patch of a patch of …, or a cycle).
const MAX_PATCH_DEPTH: usize = 8;

/// The one place this module reads files: at most `limit` bytes of `path`.
fn read_bytes(files: &Files, path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    files.read_prefix(path, limit)
}

/// `models\x\` → `models/x`.
fn normalized(dir: &str) -> String {
    dir.trim().replace('\\', "/").trim_matches('/').to_owned()
}

/// Where a QC's materials are looked for, worked out once per character.
pub(super) struct MaterialSearch {
    /// `materials` folders, in search order.
    roots: Vec<PathBuf>,
    /// Each `$cdmaterials` folder under each root: the path searched, the folder when it exists, its root.
    folders: Vec<(PathBuf, Option<PathBuf>, usize)>,
    /// `$cdmaterials` as written, for the warning when there is no `materials` folder.
    written: Vec<String>,
    warned: bool,
}

impl MaterialSearch {
    /// `None` when the script has no `$cdmaterials`.
    pub(super) fn new(script: &ModelScript, cd: &Path, dirs: &mut DirCache, opts: &LoadOptions) -> Option<Self> {
        if script.material_dirs.is_empty() {
            return None;
        }
        let mut roots: Vec<PathBuf> = Vec::new();
        let add = |roots: &mut Vec<PathBuf>, dir: PathBuf| {
            if !roots.contains(&dir) {
                roots.push(dir);
            }
        };
        for start in script.files.first().map(PathBuf::as_path).into_iter().chain([cd]) {
            for ancestor in start.ancestors() {
                if let Some(found) = dirs.find(ancestor, "materials").filter(|p| dirs.files.is_folder(p)) {
                    add(&mut roots, found);
                }
            }
        }
        for user in &opts.texture_dirs {
            add(&mut roots, user.clone());
            if let Some(found) = dirs.find(user, "materials").filter(|p| dirs.files.is_folder(p)) {
                add(&mut roots, found);
            }
        }
        let mut folders = Vec::new();
        for dir in &script.material_dirs {
            let dir = normalized(dir);
            for (r, root) in roots.iter().enumerate() {
                let found = if dir.is_empty() { Some(root.clone()) } else { dirs.find(root, &dir) };
                let found = found.filter(|p| dirs.files.is_folder(p));
                let searched = found.clone().unwrap_or_else(|| root.join(&dir));
                if !folders.iter().any(|(s, _, _)| *s == searched) {
                    folders.push((searched, found, r));
                }
            }
        }
        Some(Self { roots, folders, written: script.material_dirs.clone(), warned: false })
    }

    /// Looks up the `.vmt` of every material of `part` whose texture is still missing, and its texture.
    pub(super) fn apply(&mut self, part: &mut Asset, dirs: &mut DirCache, opts: &LoadOptions) {
        for m in &mut part.materials {
            let Some(tex) = m.texture.as_mut() else { continue };
            // A `.vtf` the usual search found under the material's name (not written so) is taken only where no
            // `.vmt` names the texture: the material is what the game reads.
            if tex.path.is_some() && !vtf_by_name(tex) {
                continue;
            }
            let written = tex.name.trim().trim_matches('\0');
            let file_name = written.rsplit(['/', '\\']).next().unwrap_or(written);
            let stem = Path::new(file_name).file_stem().and_then(|s| s.to_str()).unwrap_or(file_name);
            if stem.is_empty() {
                continue;
            }
            let vmt_name = format!("{stem}.vmt");
            push_new(&mut tex.tried, vmt_name.clone());
            let mut found = None;
            for (searched, folder, root) in &self.folders {
                push_new(&mut tex.searched, searched.clone());
                if let Some(path) = folder.as_deref().and_then(|f| opts.folders.find(&opts.files, f, &vmt_name)) {
                    found = Some((path, *root));
                    break;
                }
            }
            let Some((vmt_path, root)) = found else { continue };
            tex.material_file = Some(vmt_path.clone());
            let texture = match self.base_texture(&m.name, &vmt_path, dirs) {
                Ok(texture) => texture,
                Err(warning) => {
                    part.warnings.push(warning);
                    continue;
                }
            };
            let file = format!("{texture}.vtf");
            push_new(&mut tex.tried, file.clone());
            let order = std::iter::once(root).chain((0..self.roots.len()).filter(|r| *r != root));
            let vtf_path = order.filter_map(|r| self.roots.get(r)).find_map(|root| {
                push_new(&mut tex.searched, root.clone());
                dirs.find(root, &file).filter(|p| dirs.files.is_file(p))
            });
            let Some(vtf_path) = vtf_path else { continue };
            if let Some(problem) = vtf_problem(&opts.files, &vtf_path) {
                part.warnings.push(
                    Warning::new(Position::File, format!("material '{}': {problem}; it is shown as a checker", m.name))
                        .in_file(&vtf_path),
                );
            }
            tex.path = Some(vtf_path);
            tex.found_in = Some(TextureFolder::SourceMaterial);
        }
        if !restate_missing(part) {
            return;
        }
        if self.roots.is_empty() && !self.warned {
            self.warned = true;
            part.warnings.push(Warning::new(
                Position::File,
                format!(
                    "`$cdmaterials` {}: no `materials` folder above the script; give the game's with --textures",
                    self.written.iter().map(|d| format!("\"{d}\"")).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
    }

    /// The `$basetexture` of the material at `path` (following `patch` includes), as a path under `materials`
    /// without extension; a warning naming the material when there is none.
    fn base_texture(&self, material: &str, path: &Path, dirs: &mut DirCache) -> Result<String, Warning> {
        let warn = |at: &Path, position: Position, what: String| {
            Warning::new(position, format!("material '{material}': {what}")).in_file(at)
        };
        let mut path = path.to_path_buf();
        for _ in 0..MAX_PATCH_DEPTH {
            let bytes = read_bytes(&dirs.files, &path, MAX_VMT_BYTES)
                .map_err(|e| warn(&path, Position::File, format!("cannot read the material file: {e}")))?;
            let parsed = vmt::parse(&String::from_utf8_lossy(&bytes))
                .map_err(|e| warn(&path, Position::Line(e.line), e.message.clone()))?;
            let Some(patch) = parsed.patch() else {
                return parsed.base_texture().map(vmt::texture_path).ok_or_else(|| {
                    warn(&path, Position::File, format!("the {} material names no $basetexture", parsed.shader))
                });
            };
            if let Some(texture) = patch.base_texture {
                return Ok(vmt::texture_path(texture));
            }
            let Some(include) = patch.include else {
                return Err(warn(&path, Position::File, "a patch material without `include`".into()));
            };
            // `materials/models/x/base.vmt`: from the game folder.
            let relative = normalized(include);
            let relative = match (relative.get(..10), relative.get(10..)) {
                (Some(head), Some(rest)) if head.eq_ignore_ascii_case("materials/") => rest.to_owned(),
                _ => relative,
            };
            let next = self.roots.iter().find_map(|root| dirs.find(root, &relative).filter(|p| dirs.files.is_file(p)));
            path = next.ok_or_else(|| {
                warn(
                    &path,
                    Position::File,
                    format!("the patch includes \"{include}\", which is not in the materials folders"),
                )
            })?;
        }
        Err(warn(&path, Position::File, format!("patch materials nest more than {MAX_PATCH_DEPTH} deep")))
    }
}

/// The mesh loader's warning lists the textures it did not find: says only those still missing now (none: the
/// warning goes). Returns whether any is.
pub(super) fn restate_missing(part: &mut Asset) -> bool {
    let missing: Vec<&str> = part
        .materials
        .iter()
        .filter(|m| m.texture.as_ref().is_some_and(|t| t.path.is_none() && !t.searched.is_empty()))
        .map(|m| m.name.as_str())
        .collect();
    let listed = |w: &Warning| w.message.starts_with(MISSING_TEXTURES);
    if missing.is_empty() {
        part.warnings.retain(|w| !listed(w));
        return false;
    }
    let mut names = missing.iter().take(8).copied().collect::<Vec<_>>().join(", ");
    if missing.len() > 8 {
        names += &format!(" and {} more", missing.len() - 8);
    }
    let count = missing.len();
    for w in part.warnings.iter_mut().filter(|w| listed(w)) {
        w.message = format!("{MISSING_TEXTURES} for {count} material(s): {names}");
    }
    true
}

/// Whether the texture's file is a `.vtf` found by trying the extension on a name written without it.
fn vtf_by_name(tex: &crate::scene::TextureRef) -> bool {
    let is_vtf = |p: &Path| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("vtf"));
    tex.path.as_deref().is_some_and(is_vtf) && !is_vtf(Path::new(tex.name.trim()))
}

fn push_new<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// Why the texture at `path` will not decode, from its header: an unreadable file, not a VTF, or a format the
/// decoder lacks (`VTF format RGBA16161616F is not supported`).
fn vtf_problem(files: &Files, path: &Path) -> Option<String> {
    let bytes = match read_bytes(files, path, VTF_HEADER_BYTES) {
        Ok(bytes) => bytes,
        Err(e) => return Some(format!("cannot read {}: {e}", path.display())),
    };
    vtf::read_header(&bytes).and_then(|header| header.format.check()).err().map(|e| e.to_string())
}
