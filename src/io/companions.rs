//! Finding animation files beside a model (textures: [`super::textures`]).

use std::path::{Path, PathBuf};

use super::Files;

/// Animation files that sit beside a mesh with the same stem (`hero.psk` → `hero.psa`), offered when the mesh
/// is opened.
pub fn animation_companions(files: &Files, mesh_path: &Path) -> Vec<PathBuf> {
    let Some(stem) = mesh_path.file_stem().and_then(|s| s.to_str()) else { return Vec::new() };
    let dir = mesh_path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let ext = mesh_path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    let wanted: &[&str] = match ext.as_str() {
        "psk" | "pskx" => &["psa"],
        "smd" => &["vta"],
        _ => &[],
    };
    let Ok(entries) = files.list(dir) else { return Vec::new() };
    let mut out: Vec<PathBuf> = entries
        .into_iter()
        .filter(|e| !e.is_folder)
        .map(|e| dir.join(e.name))
        .filter(|p| {
            let same_stem = p.file_stem().and_then(|s| s.to_str()).is_some_and(|s| s.eq_ignore_ascii_case(stem));
            let ext_ok = p
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| wanted.iter().any(|w| w.eq_ignore_ascii_case(e)));
            same_stem && ext_ok
        })
        .collect();
    out.sort();
    out
}
