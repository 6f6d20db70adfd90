//! File › Export glTF: asks where to save (rfd's save dialog), then writes the open scene — meshes, skin, every
//! bound clip, recordings — as `.glb` with [`crate::io::gltf`], all on a worker thread so a large scene
//! never stalls the UI. The outcome comes back as one line for the notice bar.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::AppError;
use crate::io::gltf::export_glb;
use crate::scene::Asset;

use crate::ui::worker::Job;

/// An export in flight: the dialog, then the writing. Its value is the sentence for the notice bar, or `None`
/// when the dialog was cancelled (or could not be shown).
pub type ExportJob = Job<Option<String>>;

/// File name offered in the save dialog: the model's name with `.glb`.
pub fn suggested_name(model: Option<&Path>) -> String {
    let stem = model.and_then(|p| p.file_stem()).map_or_else(|| "bonescope".into(), |s| s.to_string_lossy());
    format!("{stem}.glb")
}

/// Writes `asset` to `path` as `.glb`; the sentence for the user.
pub fn write_glb(asset: &Asset, path: &Path) -> Result<String, AppError> {
    let (bytes, report) = export_glb(asset)?;
    std::fs::write(path, &bytes).map_err(|e| AppError::write(path, e))?;
    let mut text = format!(
        "Exported {} ({} KB): {} nodes, {} meshes, {} animations, {} images",
        path.display(),
        bytes.len().div_ceil(1024),
        report.nodes,
        report.meshes,
        report.animations,
        report.images
    );
    if !report.warnings.is_empty() {
        text += &format!("; {} warning(s): {}", report.warnings.len(), report.warnings.join("; "));
    }
    Ok(text)
}

/// Opens the save dialog on a worker thread and exports `asset` there (shared, not copied).
pub fn spawn_export(
    asset: Arc<Asset>,
    start: Option<PathBuf>,
    wake: impl FnOnce() + Send + 'static,
) -> Result<ExportJob, AppError> {
    #[cfg(target_arch = "wasm32")]
    let work = move || {
        let _ = (asset, start);
        None
    };
    #[cfg(not(target_arch = "wasm32"))]
    let work = move || {
        let mut dialog = rfd::FileDialog::new()
            .set_title("Export glTF binary")
            .add_filter("glTF binary (.glb)", &["glb"])
            .set_file_name(suggested_name(start.as_deref()));
        if let Some(dir) = start.as_deref().and_then(Path::parent) {
            dialog = dialog.set_directory(dir);
        }
        dialog.save_file().map(|path| {
            let path = if path.extension().is_none() { path.with_extension("glb") } else { path };
            write_glb(&asset, &path).unwrap_or_else(|e| format!("Export failed: {e}"))
        })
    };
    Job::spawn("bonescope-export", work, wake)
        .map_err(|e| AppError::Invalid(format!("Could not start the export: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_exports_to_a_glb_file() {
        let dir = std::env::temp_dir().join(format!("bonescope-export-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("demo.glb");
        let text = write_glb(&crate::scene::samples::demo::demo_asset(), &path).unwrap();
        assert!(text.contains("2 animations"), "{text}");
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[..4], b"glTF");
        let unwritable = write_glb(&crate::scene::samples::demo::demo_asset(), &dir.join("missing/x.glb"));
        assert!(matches!(unwritable, Err(AppError::Write { .. })), "{unwritable:?}");
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(suggested_name(Some(Path::new("/a/hero.psk"))), "hero.glb");
        assert_eq!(suggested_name(None), "bonescope.glb");
    }
}
