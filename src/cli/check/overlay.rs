//! Gothic overlays in `check`: an MDS without a mesh of its own (`MDS_OVERLAY/HUMANS_SWIM.MDS`) only has
//! animations, which the game plays on the model it overlays. Loaded alone they have no mesh to stretch and
//! often no skeleton to bind to, so nothing was checked and the overlay showed clean. Here its clips are bound
//! by bone name to its base model (found by `io::script::overlay`, planned with the overlay), the character is
//! the base's skeleton and mesh with the overlay's clips only, and only the findings about those clips are the
//! overlay's: the base's own mesh and bones are reported with the base.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use bonescope::io::script::ScriptPlan;
use bonescope::io::{self, LoadError, LoadOptions};
use bonescope::scene::Asset;

use super::report::{CheckFinding, CheckKind};
use super::run::Origins;
use bonescope::anim::diagnostics::Severity;

/// Puts the overlay's clips (`asset`, loaded from its script) on the base model of `base`. On success `asset`
/// is the combined character and `origins` say where its meshes and clips came from; the finding to add says
/// so. On failure nothing changed and the finding says why.
pub(super) fn on_base(asset: &mut Asset, origins: &mut Origins, base: &ScriptPlan, opts: &LoadOptions) -> CheckFinding {
    let Some(base_path) = base.script_files.first() else {
        return finding(Severity::Warning, Path::new(""), "its base model's script is unknown".into());
    };
    match combine(asset, origins, base_path, opts) {
        Ok(()) => finding(
            Severity::Info,
            base_path,
            format!(
                "an overlay without a mesh of its own: its animations are checked on the base model {}",
                base_path.display()
            ),
        ),
        Err(e) => finding(
            Severity::Warning,
            base_path,
            format!("an overlay whose base model did not load ({e}): its animations are checked alone"),
        ),
    }
}

fn finding(severity: Severity, file: &Path, message: String) -> CheckFinding {
    CheckFinding::new(severity, CheckKind::OverlayOnBase, message).in_file(file)
}

fn combine(asset: &mut Asset, origins: &mut Origins, base_path: &Path, opts: &LoadOptions) -> Result<(), LoadError> {
    let mut character = io::load_path(base_path, opts)?;
    if character.triangle_count() == 0 {
        return Err(LoadError::whole_file("it has no mesh either"));
    }
    let mut meshes: Vec<Option<PathBuf>> = vec![None; character.meshes.len()];
    if let Some(script) = character.model_script.as_deref() {
        for choice in script.body_groups.iter().flat_map(|g| &g.choices) {
            for &m in &choice.meshes {
                if let Some(slot) = meshes.get_mut(m) {
                    slot.clone_from(&choice.path);
                }
            }
        }
    }
    // The base's clips and warnings are the base's own unit's.
    character.clips.clear();
    character.warnings.clear();
    let clip_files: HashMap<String, Option<PathBuf>> =
        asset.clips.iter().map(|c| c.name.clone()).zip(origins.clips.iter().cloned()).collect();
    let overlay = Asset { model_script: None, ..asset.clone() };
    io::bind(&mut character, overlay, opts)?;
    // Binding's warnings (tracks for bones the base lacks) are the rig check's unmatched tracks.
    character.warnings.clear();
    // The overlay's script, with the base's bodies: its findings name the base's meshes by their files.
    let bodies = character.model_script.as_ref().map(|s| s.body_groups.clone()).unwrap_or_default();
    character.model_script = asset.model_script.take();
    if let Some(script) = character.model_script.as_mut()
        && script.body_groups.is_empty()
    {
        script.body_groups = bodies;
    }
    origins.meshes = meshes;
    origins.clips = character.clips.iter().map(|c| clip_files.get(&c.name).cloned().flatten()).collect();
    origins.clips_only = true;
    *asset = character;
    Ok(())
}
