//! Finding the texture files a model names. A texture is looked for next to the file, then in the folders the
//! user gave (`--textures DIR`, the viewer's Settings), then in the model script's texture folders (QC
//! `$cdtexture`), under its own name, its file name alone (authors' absolute paths only help through their last
//! component) and its stem with each common image extension, case-insensitively so files made on Windows
//! still resolve. Each folder is listed once per load into a case-insensitive index of its file names
//! ([`FolderCache`], shared by every file of the load through [`LoadOptions`]), so a model with many missing
//! textures in a folder of thousands of files costs one directory read, not a `stat` per name per entry. What
//! was searched is kept in the material's [`TextureRef`], for `info` and the viewer's Files tab.
//!
//! Gothic's textures: a model names `FOO.TGA`, the game ships only what the engine compiled from it,
//! `FOO-C.TEX` in `_WORK/DATA/TEXTURES/_COMPILED` (in a VDFS volume, or on disk). The engine takes the compiled
//! file when the TGA is absent: OpenGothic's `Resources::implLoadTexture` turns a `.TGA` name into `-C.TEX`
//! and looks it up in the volumes, and the modding tools describe the `_compiled` folder as the engine's cache
//! of converted TGAs (ZenKit `docs/engine/formats/texture.md`). So a `.tga` that is nowhere (in the folders
//! above, then by name in the VDFS volume the model is in, where the engine finds a file whatever its folder) is
//! looked for as `FOO-C.TEX`: in each folder searched and its `_compiled` folder, in the tree's
//! `_WORK/DATA/TEXTURES/_COMPILED`, and by name in the volume. Only models in a Gothic tree (a `_WORK` or `Anims`
//! folder above them, or a volume) are looked up so.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::scene::{TextureFolder, TextureRef};

use super::{Files, LoadOptions};

/// Extensions tried when a texture is missing under its own name, in order. Source's `.vtf` last: a VTF beside
/// an SMD or its QC is the texture when no `.vmt` names one (a QC's material search prefers the texture a
/// `.vmt` names: `script::materials`).
pub const TEXTURE_EXTENSIONS: [&str; 7] = ["tga", "png", "bmp", "dds", "jpg", "jpeg", "vtf"];

/// One folder's files and folders: lower-cased name → the name as it is on disk.
#[derive(Debug, Default)]
struct Listing {
    files: HashMap<String, String>,
    folders: HashMap<String, String>,
}

impl Listing {
    fn read(files: &Files, dir: &Path) -> Self {
        let mut out = Self::default();
        for entry in files.list(dir).unwrap_or_default() {
            let map = if entry.is_folder { &mut out.folders } else { &mut out.files };
            // Two names that differ only in case: the first listed wins, as a case-insensitive lookup would.
            map.entry(entry.name.to_lowercase()).or_insert(entry.name);
        }
        out
    }
}

/// Folder listings made during one load, shared by its files (cloning shares them). A fresh load starts with
/// an empty cache, so files added to a folder since are seen.
#[derive(Clone, Debug, Default)]
pub struct FolderCache {
    listings: Arc<Mutex<HashMap<PathBuf, Arc<Listing>>>>,
}

impl FolderCache {
    fn listing(&self, files: &Files, dir: &Path) -> Arc<Listing> {
        let cached = self.listings.lock().ok().and_then(|l| l.get(dir).cloned());
        if let Some(listing) = cached {
            return listing;
        }
        let listing = Arc::new(Listing::read(files, dir));
        if let Ok(mut listings) = self.listings.lock() {
            listings.entry(dir.to_path_buf()).or_insert_with(|| listing.clone());
        }
        listing
    }

    /// The file in `dir` (read through `files`) named `name` (any case), if there is one.
    pub fn find(&self, files: &Files, dir: &Path, name: &str) -> Option<PathBuf> {
        self.listing(files, dir).files.get(&name.to_lowercase()).map(|real| dir.join(real))
    }

    /// The folder in `dir` named `name` (any case), if there is one.
    pub fn find_folder(&self, files: &Files, dir: &Path, name: &str) -> Option<PathBuf> {
        self.listing(files, dir).folders.get(&name.to_lowercase()).map(|real| dir.join(real))
    }

    /// How many folders have been listed (for tests: each folder once).
    pub fn folders_listed(&self) -> usize {
        self.listings.lock().map_or(0, |l| l.len())
    }
}

/// The names a texture is looked for under, in order: the name as written when it is a bare file name, the
/// file name alone, then its stem with each of [`TEXTURE_EXTENSIONS`].
pub fn candidate_names(name: &str) -> Vec<String> {
    let file_name = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = Path::new(file_name).file_stem().and_then(|s| s.to_str()).unwrap_or(file_name);
    let mut names = vec![file_name.to_owned()];
    for ext in TEXTURE_EXTENSIONS {
        let candidate = format!("{stem}.{ext}");
        if !names.iter().any(|n| n.eq_ignore_ascii_case(&candidate)) {
            names.push(candidate);
        }
    }
    names
}

/// Where to look, in order: next to the file (`opts.base_dir`), the user's folders, then `script_dirs`.
fn folders(opts: &LoadOptions, script_dirs: &[(PathBuf, TextureFolder)]) -> Vec<(PathBuf, TextureFolder)> {
    let mut out: Vec<(PathBuf, TextureFolder)> = Vec::new();
    let next_to = opts.base_dir.iter().map(|d| (d.clone(), TextureFolder::NextToFile));
    let user = opts.texture_dirs.iter().map(|d| (d.clone(), TextureFolder::User));
    for (dir, kind) in next_to.chain(user).chain(script_dirs.iter().cloned()) {
        if !out.iter().any(|(d, _)| *d == dir) {
            out.push((dir, kind));
        }
    }
    out
}

/// Looks for the texture `name` (as written in the model) in the folders of `opts` and then `script_dirs`.
/// The result says where it was found, or which names were tried in which folders.
pub fn find_texture(opts: &LoadOptions, name: &str, script_dirs: &[PathBuf]) -> TextureRef {
    let dirs: Vec<(PathBuf, TextureFolder)> =
        script_dirs.iter().map(|d| (d.clone(), TextureFolder::ModelScript)).collect();
    find_texture_in(opts, name, &dirs)
}

/// [`find_texture`] with the model script's folders given with their kinds (a QC's `$cdtexture` folders, then
/// the QC's own folder).
pub(crate) fn find_texture_in(opts: &LoadOptions, name: &str, script_dirs: &[(PathBuf, TextureFolder)]) -> TextureRef {
    let written = name.trim().trim_matches('\0');
    let mut texture = TextureRef { name: name.to_owned(), ..TextureRef::default() };
    if written.is_empty() {
        return texture;
    }
    let names = candidate_names(written);
    let has_folders = written.contains(['/', '\\']);
    for (dir, kind) in folders(opts, script_dirs) {
        texture.searched.push(dir.clone());
        // A relative path as written ("textures/hair.tga") under the folder: one `stat`.
        let relative = (has_folders && !Path::new(written).is_absolute()).then(|| dir.join(written.replace('\\', "/")));
        let found = relative
            .filter(|p| opts.files.is_file(p))
            .or_else(|| names.iter().find_map(|n| opts.folders.find(&opts.files, &dir, n)));
        if let Some(path) = found {
            texture.path = Some(path);
            texture.found_in = Some(kind);
            break;
        }
    }
    let gothic = opts.base_dir.as_deref().and_then(gothic_tree);
    if texture.path.is_none()
        && let Some(tree) = &gothic
        && let Some(root) = &tree.volume
    {
        // The engine finds a file in its volumes by name, whatever its folder.
        texture.path = names.iter().find_map(|n| opts.files.find_under(root, n));
        texture.found_in = texture.path.as_ref().map(|_| TextureFolder::Volume);
    }
    let mut names = names;
    if texture.path.is_none()
        && let Some(tree) = &gothic
        && let Some(compiled) = compiled_name(written)
    {
        texture.path = find_compiled(opts, script_dirs, tree, &compiled, &mut texture.searched);
        texture.found_in = texture.path.as_ref().map(|_| TextureFolder::Compiled);
        names.push(compiled);
    }
    if texture.path.is_none() {
        texture.path = names.iter().find_map(|n| opts.files.find_by_name(n));
        texture.found_in = texture.path.as_ref().map(|_| TextureFolder::ByName);
    }
    texture.tried = names;
    texture
}

/// Where a Gothic model is: its tree's `_WORK` folder and the VDFS volume it is in, as far as they exist.
struct GothicTree {
    work: Option<PathBuf>,
    volume: Option<PathBuf>,
}

/// The Gothic tree `dir` is in, if it is in one: a `_WORK` or `Anims` folder above it, or a volume.
fn gothic_tree(dir: &Path) -> Option<GothicTree> {
    let mut work = None;
    let mut anims = false;
    let mut volume = None;
    let mut at = PathBuf::new();
    for c in dir.components() {
        at.push(c.as_os_str());
        let name = c.as_os_str().to_str().unwrap_or_default();
        if volume.is_none()
            && (crate::files::mount::is_volume_name(name)
                || name.eq_ignore_ascii_case(crate::files::mount::ALL_VOLUMES))
        {
            volume = Some(at.clone());
        }
        if name.eq_ignore_ascii_case("_work") {
            work = Some(at.clone());
        }
        anims |= name.eq_ignore_ascii_case("anims");
    }
    (work.is_some() || anims || volume.is_some()).then_some(GothicTree { work, volume })
}

/// `FOO-C.TEX` for `FOO.TGA` (the file name alone, any case); `None` for a name that is not a `.tga`.
pub fn compiled_name(name: &str) -> Option<String> {
    let file_name = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = file_name
        .len()
        .checked_sub(4)
        .and_then(|n| file_name.get(n..).filter(|e| e.eq_ignore_ascii_case(".tga")).and(file_name.get(..n)))?;
    Some(format!("{stem}-C.TEX"))
}

/// `compiled` in the folders searched and their `_compiled` folders, the tree's `_WORK/DATA/TEXTURES/_COMPILED`,
/// then by name in the volume. Folders looked in are added to `searched`.
fn find_compiled(
    opts: &LoadOptions,
    script_dirs: &[(PathBuf, TextureFolder)],
    tree: &GothicTree,
    compiled: &str,
    searched: &mut Vec<PathBuf>,
) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    for (dir, _) in folders(opts, script_dirs) {
        if let Some(sub) = opts.folders.find_folder(&opts.files, &dir, "_compiled") {
            dirs.push(sub);
        }
        dirs.push(dir);
    }
    if let Some(work) = &tree.work {
        let mut at = Some(work.clone());
        for part in ["DATA", "TEXTURES", "_COMPILED"] {
            at = at.and_then(|dir| opts.folders.find_folder(&opts.files, &dir, part));
        }
        dirs.extend(at);
    }
    for dir in dirs {
        if !searched.contains(&dir) {
            searched.push(dir.clone());
        }
        if let Some(found) = opts.folders.find(&opts.files, &dir, compiled) {
            return Some(found);
        }
    }
    tree.volume.as_ref().and_then(|root| opts.files.find_under(root, compiled))
}

/// Finds a texture named `name` in `base_dir` alone (see [`find_texture`] for the search of a load).
pub fn resolve_texture(base_dir: Option<&Path>, name: &str) -> Option<PathBuf> {
    let opts = LoadOptions { base_dir: base_dir.map(Path::to_path_buf), ..LoadOptions::default() };
    find_texture(&opts, name, &[]).path
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bonescope-textures-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn next_to_the_file_then_user_folders_then_the_script_folder() {
        let root = scratch("order");
        let (model, user, script) = (root.join("model"), root.join("user"), root.join("script"));
        for d in [&model, &user, &script] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(model.join("Skin.TGA"), b"x").unwrap();
        std::fs::write(user.join("skin.png"), b"x").unwrap();
        std::fs::write(user.join("hair.png"), b"x").unwrap();
        std::fs::write(script.join("hair.bmp"), b"x").unwrap();
        std::fs::write(script.join("eyes.bmp"), b"x").unwrap();
        let opts =
            LoadOptions { base_dir: Some(model.clone()), texture_dirs: vec![user.clone()], ..Default::default() };
        let dirs = [script.clone()];
        let skin = find_texture(&opts, "C:\\art\\skin.tga", &dirs);
        assert_eq!(skin.path, Some(model.join("Skin.TGA")), "case-insensitive, next to the file first");
        assert_eq!(skin.found_in, Some(TextureFolder::NextToFile));
        let hair = find_texture(&opts, "hair", &dirs);
        assert_eq!((hair.path, hair.found_in), (Some(user.join("hair.png")), Some(TextureFolder::User)));
        let eyes = find_texture(&opts, "eyes.tga", &dirs);
        assert_eq!((eyes.path, eyes.found_in), (Some(script.join("eyes.bmp")), Some(TextureFolder::ModelScript)));
        let missing = find_texture(&opts, "teeth.tga", &dirs);
        assert_eq!(missing.path, None);
        assert_eq!(missing.searched, [model.clone(), user.clone(), script.clone()]);
        assert_eq!(missing.tried[..3], ["teeth.tga", "teeth.png", "teeth.bmp"]);
        // Every folder was listed once for the four lookups.
        assert_eq!(opts.folders.folders_listed(), 3);
        std::fs::remove_dir_all(&root).ok();
    }

    #[test]
    fn a_gothic_tga_that_is_absent_is_found_compiled_as_the_engine_finds_it() {
        let files = crate::files::MemoryFiles::new();
        files.insert("/g/_WORK/DATA/ANIMS/ASC_BODIES/BODY.ASC", &b"x"[..]);
        files.insert("/g/_WORK/DATA/Textures/_compiled/SKIN-C.TEX", &b"ZTEX"[..]);
        files.insert("/g/_WORK/DATA/ANIMS/ASC_BODIES/EYES.TGA", &b"x"[..]);
        files.insert("/g/_WORK/DATA/ANIMS/ASC_BODIES/EYES-C.TEX", &b"ZTEX"[..]);
        let opts = LoadOptions {
            base_dir: Some(PathBuf::from("/g/_WORK/DATA/ANIMS/ASC_BODIES")),
            files: Files::new(files.clone()),
            ..Default::default()
        };
        let skin = find_texture(&opts, "Skin.tga", &[]);
        assert_eq!(skin.path, Some(PathBuf::from("/g/_WORK/DATA/Textures/_compiled/SKIN-C.TEX")));
        assert_eq!(skin.found_in, Some(TextureFolder::Compiled));
        assert_eq!(skin.tried.last().map(String::as_str), Some("Skin-C.TEX"));
        // The TGA wins where it is there.
        let eyes = find_texture(&opts, "eyes.tga", &[]);
        assert_eq!(
            (eyes.path.unwrap(), eyes.found_in),
            (PathBuf::from("/g/_WORK/DATA/ANIMS/ASC_BODIES/EYES.TGA"), Some(TextureFolder::NextToFile))
        );
        // Outside a Gothic tree nothing is looked up compiled.
        let elsewhere =
            LoadOptions { base_dir: Some(PathBuf::from("/g")), files: Files::new(files), ..Default::default() };
        let skin = find_texture(&elsewhere, "Skin.tga", &[]);
        assert_eq!(skin.path, None);
        assert!(!skin.tried.iter().any(|n| n.ends_with("-C.TEX")));
        assert_eq!(compiled_name("C:\\art\\Hum_Body.TGA").as_deref(), Some("Hum_Body-C.TEX"));
        assert_eq!(compiled_name("skin.png"), None);
    }

    #[test]
    fn a_relative_path_as_written_is_tried_under_each_folder() {
        let root = scratch("relative");
        std::fs::create_dir_all(root.join("maps")).unwrap();
        std::fs::write(root.join("maps").join("wood.tga"), b"x").unwrap();
        assert_eq!(resolve_texture(Some(&root), "maps\\wood.tga"), Some(root.join("maps/wood.tga")));
        assert_eq!(resolve_texture(None, "wood.tga"), None);
        assert_eq!(resolve_texture(Some(&root), "  "), None);
        std::fs::remove_dir_all(&root).ok();
    }
}
