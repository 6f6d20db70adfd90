//! The rig diagnostics on the conformance corpus (real files from other tools): no sound file has an error,
//! a PSK with its PSA binds every track, and what the diagnostics say about textures agrees with the loaders.
//! Run with `BONESCOPE_CORPUS=/path/to/shared/corpus`; skipped otherwise.

mod common;

use std::path::{Path, PathBuf};

use bonescope::anim::diagnostics::{DiagnoseOptions, Finding, FindingKind, Severity, diagnose};
use bonescope::io::{LoadOptions, load_path};
use bonescope::scene::Asset;

/// Loads a corpus file; `None` when the corpus is not configured or this build has no loader for the format
/// yet (the loader's own tests cover loading).
fn load(relative: &str) -> Option<Asset> {
    let path = common::corpus_file(relative)?;
    match load_path(&path, &LoadOptions::default()) {
        Ok(asset) => Some(asset),
        Err(e) if e.message.contains("not available in this build") => {
            eprintln!("skipped {relative}: {e}");
            None
        }
        Err(e) => panic!("{e}"),
    }
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn no_corpus_file_has_an_error_finding() {
    let Some(corpus) = common::corpus() else { return };
    let mut files = Vec::new();
    files_under(&corpus, &mut files);
    files.sort();
    let mut checked = 0;
    for path in files {
        // Files the loaders reject (the empty SMD, a broken ASE) are the loaders' business.
        let Ok(asset) = load_path(&path, &LoadOptions::default()) else { continue };
        let findings = diagnose(&asset, &DiagnoseOptions::default());
        let errors: Vec<&Finding> = findings.iter().filter(|f| f.severity == Severity::Error).collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
        checked += 1;
    }
    eprintln!("{checked} corpus files diagnosed");
}

#[test]
fn examplemesh_with_pendulum_binds_every_track_and_stays_rigid() {
    let (Some(mesh), Some(anim)) =
        (common::corpus_file("psk/examplemesh.psk"), common::corpus_file("psa/pendulum.psa"))
    else {
        return;
    };
    let (asset, _) = match bonescope::source::load_files(&[mesh, anim], &LoadOptions::default()).into_result() {
        Ok(loaded) => loaded,
        Err(e) if e.message.contains("not available in this build") => return,
        Err(e) => panic!("{e}"),
    };
    let findings = diagnose(&asset, &DiagnoseOptions::default());
    let kinds = |k: FindingKind| findings.iter().filter(|f| f.kind == k).count();
    assert_eq!(kinds(FindingKind::UnmatchedTrack), 0, "{findings:#?}");
    assert_eq!(kinds(FindingKind::UnanimatedBone), 0, "{findings:#?}");
    assert_eq!(kinds(FindingKind::BindPose), 0, "{findings:#?}");
    // "Swinging" moves the mesh without stretching it.
    let swing: Vec<&Finding> = findings.iter().filter(|f| f.kind == FindingKind::ClipStretch).collect();
    assert_eq!(swing.len(), 1);
    assert_eq!(swing[0].severity, Severity::Info);
    assert!(swing[0].value.unwrap() < 1.05, "{}", swing[0]);
}

#[test]
fn texture_found_beside_the_model_is_not_reported() {
    // holy_grailref.smd names holygrail.tga, which sits beside it.
    let Some(asset) = load("smd/holy_grailref.smd") else { return };
    let findings = diagnose(&asset, &DiagnoseOptions::default());
    assert!(findings.iter().all(|f| f.kind != FindingKind::MissingTexture), "{findings:#?}");
    assert_eq!(asset.triangle_count(), 896);
}

#[test]
fn biped_nub_bones_are_mirrored_but_drive_nothing() {
    // 3ds Max Biped writes mirrored transforms for some right-side helper ("Nub") bones.
    let Some(asset) = load("ase/MotionCaptureROM.ase") else { return };
    let findings = diagnose(&asset, &DiagnoseOptions::default());
    let mirrored: Vec<&Finding> = findings.iter().filter(|f| f.kind == FindingKind::MirroredScale).collect();
    assert!(!mirrored.is_empty());
    for f in &mirrored {
        assert!(f.message.contains("Nub'"), "{f}");
        // Nothing is skinned to a nub, so the mirror cannot flip a triangle: information, not a warning.
        assert_eq!(f.severity, Severity::Info, "{f}");
    }
    // The capture moves rigid pieces: no edge stretches.
    let stretch = findings.iter().find(|f| f.kind == FindingKind::ClipStretch).unwrap();
    assert!(stretch.value.unwrap() < 1.01, "{stretch}");
}
