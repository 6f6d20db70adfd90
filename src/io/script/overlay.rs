//! Gothic overlay scripts: an MDS that adds or replaces animations of another model (`MDS_OVERLAY/HUMANS_SWIM.MDS`
//! over `HUMANS.MDS`) and has no mesh of its own — no `registerMesh`, and a `meshAndTree` that is missing or
//! says `DONT_USE_MESH`. The game applies it to the base model at run time; tools that check its animations need
//! that model's skeleton and mesh. [`base_of`] finds the base's script; loading it is the caller's.
//!
//! The base is `<Model name>.MDS` (`Model ("HUMANS")`) or, for the game's naming, the overlay's file name up to
//! its first `_` (`HUMANS_SWIM` → `HUMANS.MDS`), looked for case-insensitively in the overlay's folder and the
//! folders above it ([`BASE_SEARCH_DEPTH`] of them: the game keeps overlays in `Anims/MDS_OVERLAY` and models in
//! `Anims`). Nothing here reads a file; folders are listed through [`DirCache`].

use std::path::{Path, PathBuf};

use super::files::DirCache;
use crate::scene::{ModelScript, ScriptLanguage};

/// Folders above an overlay's own that are searched for its base model.
pub const BASE_SEARCH_DEPTH: usize = 3;

/// True for an MDS with no mesh of its own (every mesh choice comes from `registerMesh` or a `meshAndTree`
/// without `DONT_USE_MESH`).
pub fn is_overlay(script: &ModelScript) -> bool {
    script.language == ScriptLanguage::GothicMds && script.body_groups.iter().all(|g| g.choices.is_empty())
}

/// The script of the model that the overlay at `path` (its parsed `script`) applies to; `None` for a script
/// that is not an overlay or whose base is not found.
pub fn base_of(script: &ModelScript, path: &Path, dirs: &mut DirCache) -> Option<PathBuf> {
    if !is_overlay(script) {
        return None;
    }
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let mut names: Vec<String> = Vec::new();
    for name in [script.name.trim(), stem.split_once('_').map_or("", |(base, _)| base)] {
        let file = format!("{name}.mds");
        if !name.is_empty() && !names.iter().any(|n| n.eq_ignore_ascii_case(&file)) {
            names.push(file);
        }
    }
    let own = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let folders = path.parent()?.ancestors().take(BASE_SEARCH_DEPTH + 1);
    for folder in folders {
        for name in &names {
            let found = dirs.find(folder, name).filter(|p| dirs.files.is_file(p));
            let is_itself = folder == path.parent().unwrap_or(folder) && name.eq_ignore_ascii_case(own);
            if let (Some(found), false) = (found, is_itself) {
                return Some(found);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{BodyChoice, BodyGroup};

    #[test]
    fn an_overlay_finds_its_base_by_model_name_or_file_name_above_it() {
        let dir = std::env::temp_dir().join(format!("bonescope-script-overlay-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("Anims/MDS_OVERLAY")).unwrap();
        std::fs::write(dir.join("Anims/Humans.mds"), b"x").unwrap();
        std::fs::write(dir.join("Anims/Meatbug.MDS"), b"x").unwrap();
        let overlay = dir.join("Anims/MDS_OVERLAY/HUMANS_SWIM.MDS");
        std::fs::write(&overlay, b"x").unwrap();
        let mut script = ModelScript::new(ScriptLanguage::GothicMds);
        script.name = "HuS".into();
        let mut dirs = DirCache::default();
        assert_eq!(base_of(&script, &overlay, &mut dirs), Some(dir.join("Anims/Humans.mds")), "by file name");
        script.name = "MEATBUG".into();
        assert_eq!(base_of(&script, &overlay, &mut dirs), Some(dir.join("Anims/Meatbug.MDS")), "by model name");
        // A script with a mesh of its own is no overlay; the base model itself finds nothing.
        let mut with_mesh = script.clone();
        let choice = BodyChoice { name: "a.asc".into(), path: None, meshes: vec![], placement: None, file: 0, line: 3 };
        with_mesh.body_groups.push(BodyGroup { name: "registerMesh".into(), choices: vec![choice], file: 0, line: 3 });
        assert_eq!(base_of(&with_mesh, &overlay, &mut dirs), None);
        script.name = "Humans".into();
        assert_eq!(base_of(&script, &dir.join("Anims/Humans.mds"), &mut dirs), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
