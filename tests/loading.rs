//! The viewer and the command line open files the same way: the viewer's loader (worker thread, progress, then
//! `assemble`) and the command line's `source::load_set` give the same scene for the same files — clip names,
//! morph targets, warnings, bind reports and errors — including sets with a broken file, which costs only itself.
#![cfg(feature = "gui")]

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use bonescope::io::{LoadOptions, LoadedSet};
use bonescope::scene::Asset;
use bonescope::source::{self, Source};
use bonescope::ui::commands::command::OpenMode;
use bonescope::ui::commands::loader::{LoadJob, Purpose, assemble};

/// What a user would compare between two scenes.
#[derive(Debug, PartialEq)]
struct Scene {
    bones: usize,
    vertices: usize,
    clips: Vec<String>,
    morph_targets: Vec<usize>,
    warnings: Vec<String>,
    reports: String,
    errors: Vec<String>,
}

fn scene_of(set: &LoadedSet) -> Scene {
    let asset = set.asset.clone().unwrap_or_default();
    Scene {
        bones: asset.skeleton.len(),
        vertices: asset.vertex_count(),
        clips: asset.clips.iter().map(|c| c.name.clone()).collect(),
        morph_targets: asset.meshes.iter().map(|m| m.morph_targets.len()).collect(),
        warnings: asset.warnings.iter().map(ToString::to_string).collect(),
        reports: serde_json::to_string(&set.reports).unwrap(),
        errors: set.errors.iter().map(ToString::to_string).collect(),
    }
}

/// The files opened as the viewer opens them.
fn through_viewer(sources: &[Source], opts: &LoadOptions) -> LoadedSet {
    let job = LoadJob::spawn(sources.to_vec(), Purpose::Open(OpenMode::Replace), opts.clone(), || {});
    let results = loop {
        if let Some(r) = job.poll() {
            break r;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    assemble(LoadedSet::default(), results, opts).set
}

/// Opens `files` both ways, checks the scenes are the same, and returns it.
fn same_both_ways(files: &[PathBuf]) -> Scene {
    let opts = LoadOptions::default();
    let sources: Vec<Source> = files.iter().cloned().map(Source::File).collect();
    let cli = scene_of(&source::load_set(&sources, &opts));
    let viewer = scene_of(&through_viewer(&sources, &opts));
    assert_eq!(viewer, cli, "{files:?}");
    cli
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-loading-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn smd_animations_are_named_after_their_files_both_ways() {
    let Some(dir) = common::corpus_file("qc/halflife/models/headcrab") else { return };
    let scene = same_both_ways(&[dir.join("reference.smd"), dir.join("run.smd"), dir.join("walk.smd")]);
    assert_eq!(scene.clips, ["run", "walk"]);
    assert!(scene.reports.contains("run.smd"), "{}", scene.reports);
}

/// The cube the corpus VTA was made for, rebuilt from its base frame (12 triangles of 3 consecutive corners).
fn cube_reference(vta: &Asset) -> String {
    let base = &vta.meshes[0];
    let mut s = String::from("version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\ntriangles\n");
    for v in 0..base.vertex_count() {
        if v % 3 == 0 {
            s.push_str("cube\n");
        }
        let (p, n) = (base.positions[v], base.normals[v]);
        writeln!(s, "0 {} {} {} {} {} {} {} {}", p.x, p.y, p.z, n.x, n.y, n.z, p.x + p.y, p.z).unwrap();
    }
    s.push_str("end\n");
    s
}

#[test]
fn a_vta_keeps_its_morph_targets_both_ways() {
    let Some(vta) = common::corpus_file("vta/bst_Cube_NoArmature.vta") else { return };
    let dir = scratch("vta");
    let base = bonescope::io::load_path(&vta, &LoadOptions::default()).unwrap();
    let reference = dir.join("cube.smd");
    std::fs::write(&reference, cube_reference(&base)).unwrap();
    let scene = same_both_ways(&[reference, vta]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(scene.morph_targets, [1], "the VTA's flex reaches the mesh");
    assert!(scene.errors.is_empty(), "{:?}", scene.errors);
}

#[test]
fn psk_and_psa_bind_the_same_both_ways() {
    let (Some(psk), Some(psa)) = (common::corpus_file("psk/examplemesh.psk"), common::corpus_file("psa/pendulum.psa"))
    else {
        return;
    };
    let scene = same_both_ways(&[psk, psa.clone()]);
    assert!(!scene.clips.is_empty());
    assert!(scene.reports.contains("pendulum.psa"), "{}", scene.reports);
}

#[test]
fn a_broken_file_costs_only_itself_both_ways() {
    let Some(dir) = common::corpus_file("qc/halflife/models/headcrab") else { return };
    let scratch_dir = scratch("broken");
    let broken = scratch_dir.join("broken.smd");
    std::fs::write(&broken, "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 1 2\nend\n").unwrap();
    let files = [dir.join("reference.smd"), broken.clone(), dir.join("walk.smd")];
    let scene = same_both_ways(&files);
    // A broken model too: the next good file becomes the model.
    let scene_model_broken = same_both_ways(&[broken.clone(), dir.join("reference.smd")]);
    std::fs::remove_dir_all(&scratch_dir).ok();
    assert_eq!(scene.clips, ["walk"], "the good animation after the broken file is bound");
    assert_eq!(scene.errors.len(), 1);
    assert!(scene.errors[0].starts_with(&broken.display().to_string()), "{:?}", scene.errors);
    assert!(scene.errors[0].contains("line 7"), "{:?}", scene.errors);
    assert_eq!(scene_model_broken.errors.len(), 1);
    assert!(scene_model_broken.vertices > 0, "the reference opened");
}

#[test]
fn nothing_loads_gives_every_error_both_ways() {
    let dir = scratch("nothing");
    let empty = dir.join("empty.psk");
    std::fs::write(&empty, b"").unwrap();
    let missing = dir.join("missing.psa");
    let scene = same_both_ways(&[empty, missing]);
    std::fs::remove_dir_all(Path::new(&dir)).ok();
    assert_eq!(scene.errors.len(), 2);
    assert_eq!(scene.vertices, 0);
}
