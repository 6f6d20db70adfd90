//! Every multi-file character opens as the same character everywhere: `info`, `info --check`, `render`,
//! `export` and the viewer's loading give the same meshes, bones and bound clips for each case — the corpus's
//! modular kit (body, shirt, walk; and with a head that has face bones the body lacks), the gnome and its
//! animations, examplemesh and its pendulum, model scripts that open many files (headcrab.qc, man.qc,
//! BLOODFLY.MDS, the FATBALD head's MMS), a HUMANS-shaped body given its FATBALD head, and a generated body,
//! head and walk. Each command is run as a user runs it; the viewer's loading is its worker's steps
//! (`ui::commands::loader`).

mod common;
mod generated;
mod psk_writer;

use std::path::{Path, PathBuf};
use std::process::Command;

use bonescope::io::{LoadOptions, LoadedSet};
use bonescope::ui::commands::loader::{Progress, assemble, load_one};
use serde_json::Value;

/// What a command says the character is: its bones by name, how many meshes, its clips by name.
#[derive(Debug, PartialEq)]
struct Character {
    bones: Vec<String>,
    meshes: usize,
    clips: Vec<String>,
}

fn run(args: &[&str], files: &[PathBuf]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bonescope")).args(args).args(files).output().unwrap();
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
    assert!(out.status.success() || args[0] == "info", "{args:?} {files:?}: {stderr}");
    (stdout, stderr)
}

/// `info --json` (with `extra` arguments): the first file's report, which the others joined.
fn info(files: &[PathBuf], extra: &[&str]) -> (Character, Value) {
    let mut args = vec!["info", "--json"];
    args.extend_from_slice(extra);
    let (stdout, stderr) = run(&args, files);
    let reports: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout} {stderr}"));
    let first = reports[0].clone();
    assert_eq!(reports.as_array().unwrap().len(), 1, "{extra:?}: one character, not one per file: {stdout:.300}");
    let names = |v: &Value| -> Vec<String> {
        v.as_array().into_iter().flatten().filter_map(|n| n.as_str().map(str::to_owned)).collect()
    };
    let character = Character {
        bones: names(&first["bone_names"]),
        meshes: first["meshes"].as_array().map_or(0, Vec::len),
        clips: first["clips"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| c["name"].as_str().unwrap().to_owned())
            .collect(),
    };
    (character, first)
}

/// The viewer's loading: each file read on the worker, then put together as the window does; and how many of
/// the files the document counts as its own (the window's title counts them).
fn viewer_files(files: &[PathBuf]) -> (Character, usize) {
    let opts = LoadOptions::default();
    let results = files.iter().map(|f| load_one(f, &Progress::default(), &opts)).collect();
    let assembled = assemble(LoadedSet::default(), results, &opts);
    assert!(assembled.set.errors.is_empty(), "{:?}", assembled.set.errors);
    let origins = assembled.origins.len();
    let asset = assembled.set.asset.unwrap();
    let character = Character {
        bones: asset.skeleton.names.clone(),
        meshes: asset.meshes.len(),
        clips: asset.clips.iter().map(|c| c.name.clone()).collect(),
    };
    (character, origins)
}

/// The glTF an `export` wrote: its skin's joints by name, its meshes, its animations by name.
fn exported(files: &[PathBuf], dir: &Path) -> Character {
    let glb = dir.join("out.glb");
    let _ = std::fs::remove_file(&glb);
    let mut args: Vec<PathBuf> = files.to_vec();
    args.push("-o".into());
    args.push(glb.clone());
    run(&["export"], &args);
    let bytes = std::fs::read(&glb).unwrap();
    let length = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let json: Value = serde_json::from_slice(&bytes[20..20 + length]).unwrap();
    let nodes = json["nodes"].as_array().unwrap();
    let joints = json["skins"][0]["joints"].as_array().map_or(Vec::new(), |j| {
        j.iter().map(|n| nodes[n.as_u64().unwrap() as usize]["name"].as_str().unwrap().to_owned()).collect()
    });
    Character {
        bones: joints,
        meshes: json["meshes"].as_array().map_or(0, Vec::len),
        clips: json["animations"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|a| a["name"].as_str().unwrap().to_owned())
            .collect(),
    }
}

/// The line `render` says what it draws with: `rendering X + 1 part + 1 animation file: 2 meshes, 92 bones,
/// 1 clip`.
fn rendered(files: &[PathBuf], dir: &Path) -> String {
    let png = dir.join("out.png");
    let mut args: Vec<PathBuf> = files.to_vec();
    args.extend(["--size".into(), "64x48".into(), "-o".into(), png]);
    let (_, stderr) = run(&["render"], &args);
    stderr.lines().find(|l| l.starts_with("rendering ")).unwrap_or_else(|| panic!("{stderr}")).to_owned()
}

fn cases(dir: &Path) -> Vec<(&'static str, Vec<PathBuf>)> {
    let (body, head, _) = generated::small_body_head_and_prop(dir);
    let walk = generated::small_walk_psa(dir);
    let mut cases = vec![("generated body + head + walk", vec![body, head, walk])];
    let Some(corpus) = common::corpus() else { return cases };
    let c = |relative: &str| corpus.join(relative);
    let kit_head = generated::kit_head_psk(&corpus, dir);
    let gothic = dir.join("gothic");
    std::fs::create_dir_all(&gothic).unwrap();
    cases.extend([
        (
            "kit body + shirt + walk",
            vec![
                c("psk/kit_SK_MaleBase_01_Body.psk"),
                c("psk/kit_SK_Male_TShirt_01.psk"),
                c("psa/kit_MOB1_M1_Walk_Relaxed_F_Loop_IP.psa"),
            ],
        ),
        (
            "kit body + walk + head",
            vec![c("psk/kit_SK_MaleBase_01_Body.psk"), c("psa/kit_MOB1_M1_Walk_Relaxed_F_Loop_IP.psa"), kit_head],
        ),
        ("gnome + its animations", vec![c("psk/hp2_skgnomeMesh.psk"), c("psa/hp2_skgnomeAnims.psa")]),
        ("examplemesh + pendulum", vec![c("psk/examplemesh.psk"), c("psa/pendulum.psa")]),
        ("headcrab.qc", vec![c("qc/halflife/models/headcrab/headcrab.qc")]),
        ("man.qc", vec![c("mdl/hl1/models/man/man.qc")]),
        ("BLOODFLY.MDS", vec![c("mds/gothic/Anims/BLOODFLY.MDS")]),
        ("FATBALD.MMS", vec![generated::fatbald_mms(&corpus)]),
        (
            "HUMANS-shaped body + FATBALD head",
            vec![generated::humans_mds(&corpus, &gothic), generated::fatbald_mms(&corpus)],
        ),
    ]);
    cases
}

#[test]
fn info_check_render_export_and_the_viewer_open_the_same_character() {
    let dir = generated::temp_dir("same");
    for (label, files) in cases(&dir) {
        let (shown, counted) = viewer_files(&files);
        assert_eq!(counted, files.len(), "{label}: every file is one of the document's");
        let (described, report) = info(&files, &[]);
        assert_eq!(described, shown, "{label}: `info` and the viewer");
        let (checked, _) = info(&files, &["--check"]);
        assert_eq!(checked, shown, "{label}: `info --check` and the viewer");
        // Every file given joined (or is the model): each bound file has its report with the model.
        let bound = report["bound"].as_array().map_or(0, Vec::len);
        assert_eq!(bound, files.len() - 1, "{label}: {}", report["bound"]);

        let line = rendered(&files, &dir);
        let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let expected = format!(
            ": {}, {}, {}",
            plural(shown.meshes, "mesh", "meshes"),
            plural(shown.bones.len(), "bone", "bones"),
            plural(shown.clips.len(), "clip", "clips")
        );
        assert!(line.ends_with(&expected), "{label}: `render` says {line:?}, the viewer shows {expected:?}");

        let glb = exported(&files, &dir);
        assert_eq!(glb.bones, shown.bones, "{label}: the exported skin's joints");
        assert_eq!(glb.meshes, shown.meshes, "{label}: the exported meshes");
        // Clips that animate nothing (a morph head's neutral face) are left out of glTF, said by a warning; a
        // blend sequence's further animations are animations of their own there (`arms_up (blend 2)`).
        let shown_clip = |c: &String| {
            shown.clips.contains(c)
                || c.rsplit_once(" (blend ").is_some_and(|(clip, _)| shown.clips.iter().any(|s| s == clip))
        };
        assert!(glb.clips.iter().all(shown_clip), "{label}: {:?}", glb.clips);
        let exported = glb.clips.iter().filter(|c| shown.clips.contains(c)).count();
        assert!(exported + 1 >= shown.clips.len(), "{label}: {:?} of {:?}", glb.clips, shown.clips);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Where a file does not join, the commands agree on the character and say why: the viewer, `render`, `export`
/// and `info --check` open the body alone with a warning; plain `info` describes the other file on its own.
#[test]
fn a_file_that_does_not_join_is_said_and_left_out_everywhere() {
    let dir = generated::temp_dir("not-joined");
    let (body, _, prop) = generated::small_body_head_and_prop(&dir);
    let files = vec![body, prop];
    let (shown, counted) = viewer_files(&files);
    assert_eq!(shown.meshes, 1);
    assert_eq!(counted, 1, "the window's title does not count the crate");
    let (checked, report) = info(&files, &["--check"]);
    assert_eq!(checked, shown);
    let (text, _) = run(&["info", "--check"], &files);
    assert!(text.contains("bound:     crate.psk → not joined: none of its 2 bone(s) is named in the model"), "{text}");
    let line = rendered(&files, &dir);
    assert!(line.starts_with("rendering body.psk: 1 mesh, 6 bones"), "{line}");
    assert!(report["warnings"].to_string().contains("crate.psk: not joined to the model"), "{report}");
    let (plain, _) = run(&["info", "--json"], &files);
    let plain: Value = serde_json::from_str(&plain).unwrap();
    assert_eq!(plain.as_array().unwrap().len(), 2, "plain info describes each model");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `info` (text) says which up axis was taken and why, and the bind report its placeholder tracks, with the
/// options that change them.
#[test]
fn info_says_the_up_axis_and_the_placeholder_tracks() {
    let dir = generated::temp_dir("info-says");
    let lying = generated::lying_mannequin_psk(&dir);
    let (text, _) = run(&["info"], std::slice::from_ref(&lying));
    assert!(
        text.contains("up axis: the file's +Y is up (the character's own: its head stands above its feet"),
        "{text}"
    );
    assert!(text.contains("--up sets another"), "{text}");
    let (by_hand, _) = run(&["info", "--up", "+z"], std::slice::from_ref(&lying));
    assert!(by_hand.contains("up axis: the file's +Z is up (set by hand (--up)"), "{by_hand}");
    let line = rendered(std::slice::from_ref(&lying), &dir);
    assert!(line.contains("1 mesh"), "{line}");

    let (body, head, _) = generated::small_body_head_and_prop(&dir);
    let walk = generated::small_walk_psa(&dir);
    let files = [body, head, walk];
    let (text, _) = run(&["info"], &files);
    assert!(
        text.contains(
            "3 placeholder track(s), identity keys of bones the clip does not move, left at the bind pose \
             (--apply-placeholder-tracks plays them): jaw, eye_l, eye_r"
        ),
        "{text}"
    );
    let (applied, _) = run(&["info", "--apply-placeholder-tracks"], &files);
    assert!(applied.contains("played anyway (--apply-placeholder-tracks)"), "{applied}");
    let _ = std::fs::remove_dir_all(&dir);
}
