//! Finding the files that belong with a model: textures named inside it, and animation files beside it.

use std::path::{Path, PathBuf};

/// Extensions tried when a texture is missing under its own name, in order.
pub const TEXTURE_EXTENSIONS: [&str; 6] = ["tga", "png", "bmp", "dds", "jpg", "jpeg"];

/// Finds a texture named `name` (as written in the model, possibly with a path from the author's machine and
/// with or without an extension) next to the model in `base_dir`. Tries the exact name, then the file name
/// alone, then the stem with each common extension; matching is case-insensitive so files made on Windows
/// still resolve.
pub fn resolve_texture(base_dir: Option<&Path>, name: &str) -> Option<PathBuf> {
    let base = base_dir?;
    let name = name.trim().trim_matches('\0');
    if name.is_empty() {
        return None;
    }
    // Authors' absolute paths ("C:\\art\\hair.tga") only help through their last component.
    let file_name = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = Path::new(file_name).file_stem().and_then(|s| s.to_str()).unwrap_or(file_name);
    let mut candidates = vec![name.to_owned(), file_name.to_owned()];
    candidates.extend(TEXTURE_EXTENSIONS.iter().map(|ext| format!("{stem}.{ext}")));
    let entries: Vec<PathBuf> = std::fs::read_dir(base).ok()?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    for candidate in &candidates {
        let exact = base.join(candidate);
        if exact.is_file() {
            return Some(exact);
        }
        let lower = candidate.to_lowercase();
        if let Some(found) = entries
            .iter()
            .find(|p| p.is_file() && p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.to_lowercase() == lower))
        {
            return Some(found.clone());
        }
    }
    None
}

/// Animation files that sit beside a mesh with the same stem (`hero.psk` → `hero.psa`), offered when the mesh
/// is opened.
pub fn animation_companions(mesh_path: &Path) -> Vec<PathBuf> {
    let Some(stem) = mesh_path.file_stem().and_then(|s| s.to_str()) else { return Vec::new() };
    let dir = mesh_path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let ext = mesh_path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    let wanted: &[&str] = match ext.as_str() {
        "psk" | "pskx" => &["psa"],
        "smd" => &["vta"],
        _ => &[],
    };
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let same_stem = p.file_stem().and_then(|s| s.to_str()).is_some_and(|s| s.eq_ignore_ascii_case(stem));
            let ext_ok = p
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| wanted.iter().any(|w| w.eq_ignore_ascii_case(e)));
            same_stem && ext_ok && p.is_file()
        })
        .collect();
    out.sort();
    out
}
