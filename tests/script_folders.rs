//! Model scripts opened from their own folder: `cd models/headcrab && bonescope info headcrab.qc` must read
//! what the absolute path reads (the files a script names are relative to the script, never to the working
//! directory), for `info` and for `check .`. Runs the built program with `current_dir` set, on the corpus
//! and on small trees written here (a QC reaching `../shared` and a Gothic overlay script below `Anims`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// A fresh folder for one test.
fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-folders-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Runs bonescope in `cwd`; returns the exit code, stdout and stderr.
fn bonescope_in(cwd: &Path, args: &[&str]) -> (i32, String, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_bonescope")).current_dir(cwd).args(args).output().expect("run bonescope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `info --json FILE` run in `cwd`, with the `file` field (the path as typed) taken out.
fn info_json(cwd: &Path, file: &str) -> Value {
    let (code, out, err) = bonescope_in(cwd, &["info", "--json", file]);
    assert_eq!(code, 0, "info {file} in {}: {out}\n{err}", cwd.display());
    let mut v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(v[0]["file"], file);
    v[0]["file"] = Value::Null;
    v
}

/// Asserts that a script gives the same `info` opened by its bare name from its folder as by its absolute
/// path from elsewhere, and returns that report.
fn same_info_from_its_folder(script: &Path) -> Value {
    let folder = script.parent().unwrap();
    let name = script.file_name().unwrap().to_str().unwrap();
    let elsewhere = std::env::temp_dir();
    let from_folder = info_json(folder, name);
    let absolute = info_json(&elsewhere, script.to_str().unwrap());
    assert_eq!(
        from_folder,
        absolute,
        "{name} from its folder differs from the absolute path:\n{}\n---\n{}",
        serde_json::to_string_pretty(&from_folder).unwrap(),
        serde_json::to_string_pretty(&absolute).unwrap()
    );
    from_folder
}

/// `check DIR --json`, run in `cwd`: the report.
fn check_json(cwd: &Path, dir: &str, out: &Path) -> Value {
    let (code, stdout, err) = bonescope_in(cwd, &["check", dir, "--json", out.to_str().unwrap(), "--fail-on", "never"]);
    assert_eq!(code, 0, "check {dir} in {}: {stdout}\n{err}", cwd.display());
    serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap()
}

/// A character as `check` loaded it: name, loaded, bones, triangles, clip names.
type Loaded = (String, bool, usize, usize, Vec<String>);

/// What `check` loaded: per character its name, whether it loaded, its clips and its size; and every load
/// error or missing-file finding.
fn loaded_part(report: &Value) -> (Vec<Loaded>, Vec<String>) {
    let mut characters = Vec::new();
    let mut errors = Vec::new();
    for c in report["characters"].as_array().unwrap() {
        let clips = c["clips"].as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_owned()).collect();
        characters.push((
            c["name"].as_str().unwrap().to_owned(),
            c["loaded"].as_bool().unwrap(),
            c["bones"].as_u64().unwrap() as usize,
            c["triangles"].as_u64().unwrap() as usize,
            clips,
        ));
        for f in c["findings"].as_array().unwrap() {
            if ["load_error", "missing_file", "bind_error"].contains(&f["kind"].as_str().unwrap()) {
                errors.push(f.to_string());
            }
        }
    }
    (characters, errors)
}

#[test]
fn the_headcrab_qc_reads_the_same_from_its_own_folder() {
    let Some(qc) = common::corpus_file("qc/halflife/models/headcrab/headcrab.qc") else { return };
    let report = same_info_from_its_folder(&qc);
    // The include one folder tree away (`../shared/…`) was read: 23 sequences and the textures it points at.
    let script = &report[0]["script"];
    assert_eq!(script["files"].as_array().unwrap().len(), 2, "the QC and its .qci");
    assert_eq!(report[0]["clips"].as_array().unwrap().len(), 23);
    assert_eq!(report[0]["materials"].as_array().unwrap().len(), 5);
    assert!(report[0]["warnings"].as_array().unwrap().is_empty(), "{}", report[0]["warnings"]);
    // The text form too, with a relative path of another shape.
    let folder = qc.parent().unwrap();
    let (code, text, err) = bonescope_in(folder, &["info", "./headcrab.qc"]);
    assert_eq!(code, 0, "{text}\n{err}");
    assert!(text.contains("clips:     23"), "{text}");
}

#[test]
fn check_dot_in_the_headcrab_folder_loads_what_check_of_the_absolute_folder_loads() {
    let Some(qc) = common::corpus_file("qc/halflife/models/headcrab/headcrab.qc") else { return };
    let folder = qc.parent().unwrap();
    let out = temp_dir("check-headcrab");
    let dot = check_json(folder, ".", &out.join("dot.json"));
    let absolute = check_json(&out, folder.to_str().unwrap(), &out.join("abs.json"));
    let (dot_chars, dot_errors) = loaded_part(&dot);
    let (abs_chars, abs_errors) = loaded_part(&absolute);
    assert!(dot_errors.is_empty(), "{dot_errors:?}");
    assert!(abs_errors.is_empty(), "{abs_errors:?}");
    assert_eq!(dot_chars, abs_chars);
    assert_eq!(dot_chars.len(), 1, "the QC claims every SMD of its folder: {dot_chars:?}");
    assert!(dot_chars[0].1, "it loaded");
    assert_eq!(dot_chars[0].4.len(), 23);
    assert_eq!(dot["summary"]["files"], absolute["summary"]["files"]);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_bloodfly_mds_reads_the_same_from_its_own_folder() {
    let Some(mds) = common::corpus_file("mds/gothic/Anims/BLOODFLY.MDS") else { return };
    let report = same_info_from_its_folder(&mds);
    assert!(report[0]["clips"].as_array().unwrap().len() > 10, "{}", report[0]["clips"]);
}

/// An SMD with one bone and one triangle, or an animation of `frames` frames.
fn smd(triangle: bool, frames: i32) -> String {
    let mut s = String::from("version 1\nnodes\n0 \"root\" -1\nend\nskeleton\n");
    for f in 0..frames.max(1) {
        s += &format!("time {f}\n0 {f} 0 0 0 0 0\n");
    }
    s += "end\n";
    if triangle {
        s += "triangles\nskin.bmp\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\nend\n";
    }
    s
}

#[test]
fn a_qc_reaching_a_shared_folder_reads_the_same_from_its_own_folder() {
    let dir = temp_dir("qc");
    let model = dir.join("models/crab");
    write(&model.join("reference.smd"), &smd(true, 1));
    write(&model.join("walk.smd"), &smd(false, 6));
    write(&dir.join("textures/crab/skin.bmp"), "BM");
    write(&model.join("crab.qc"), "$modelname crab.mdl\n$include \"../shared/common.qci\"\n$body studio reference\n");
    write(&dir.join("models/shared/common.qci"), "$cdtexture \"../../textures/crab\"\n$sequence walk walk fps 10\n");
    let report = same_info_from_its_folder(&model.join("crab.qc"));
    assert_eq!(report[0]["clips"][0]["name"], "walk");
    assert_eq!(report[0]["clips"][0]["frames"], 6);
    let texture = report[0]["materials"][0]["texture_path"].as_str().unwrap();
    assert!(Path::new(texture).is_absolute() && texture.ends_with("skin.bmp"), "{texture}");
    // From a folder below: `../crab.qc`.
    std::fs::create_dir_all(model.join("sub")).unwrap();
    let (code, out, err) = bonescope_in(&model.join("sub"), &["info", "../crab.qc"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("\"walk\": 6 frames"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Gothic ASC: bone `Bip01` with a quad mesh under it (`mesh`), or its animation over `first..=last`.
fn asc(mesh: bool, first: i32, last: i32) -> String {
    let tm = "\t*NODE_TM {\n\t\t*NODE_NAME \"Bip01\"\n\t\t*TM_ROW0 1 0 0\n\t\t*TM_ROW1 0 1 0\n\t\t*TM_ROW2 0 0 1\n\t\t\
              *TM_ROW3 0 0 0\n\t}\n";
    let mut s = format!(
        "*3DSMAX_ASCIIEXPORT\t110\n*SCENE {{\n\t*SCENE_FIRSTFRAME {first}\n\t*SCENE_LASTFRAME {last}\n\t\
         *SCENE_FRAMESPEED 25\n\t*SCENE_TICKSPERFRAME 192\n}}\n*HELPEROBJECT {{\n\t*NODE_NAME \"Bip01\"\n{tm}"
    );
    if !mesh {
        s += "\t*TM_ANIMATION {\n\t\t*NODE_NAME \"Bip01\"\n\t\t*CONTROL_POS_TRACK {\n";
        for f in first..=last {
            s += &format!("\t\t\t*CONTROL_POS_SAMPLE {} {f} 0 0\n", f * 192);
        }
        s += "\t\t}\n\t}\n";
    }
    s += "}\n";
    if mesh {
        s += "*GEOMOBJECT {\n\t*NODE_NAME \"Body\"\n\t*NODE_PARENT \"Bip01\"\n\t*NODE_TM {\n\t\t\
              *NODE_NAME \"Body\"\n\t\t\
              *TM_ROW0 1 0 0\n\t\t*TM_ROW1 0 1 0\n\t\t*TM_ROW2 0 0 1\n\t\t*TM_ROW3 0 0 0\n\t}\n\t*MESH {\n\t\t\
              *TIMEVALUE 0\n\t\t*MESH_NUMVERTEX 3\n\t\t*MESH_NUMFACES 1\n\t\t*MESH_VERTEX_LIST {\n\t\t\t\
              *MESH_VERTEX 0 0 0 0\n\t\t\t*MESH_VERTEX 1 10 0 0\n\t\t\t*MESH_VERTEX 2 0 10 0\n\t\t}\n\t\t\
              *MESH_FACE_LIST {\n\t\t\t*MESH_FACE 0: A: 0 B: 1 C: 2 AB: 1 BC: 1 CA: 1 *MESH_SMOOTHING 1 \
              *MESH_MTLID 0\n\t\t}\n\t}\n}\n";
    }
    s
}

#[test]
fn an_overlay_mds_below_anims_reads_the_same_from_its_own_folder() {
    let dir = temp_dir("mds");
    let anims = dir.join("_work/Data/Anims");
    write(&anims.join("ASC_BODIES/FLY_BODY.ASC"), &asc(true, 0, 0));
    write(&anims.join("ASC_ANIMS/FLY/FLY_MOVE.ASC"), &asc(false, 0, 9));
    let overlay = anims.join("MDS_OVERLAY/FLY_FAST.MDS");
    write(
        &overlay,
        "Model (\"Fly_Fast\")\n{\n\tmeshAndTree (\"Fly_Body.asc\")\n\taniEnum\n\t{\n\t\t\
         ani (\"s_Move\" 1 \"s_Move\" 0.0 0.1 M. \"Fly_Move.asc\" F 2 7)\n\t}\n}\n",
    );
    let report = same_info_from_its_folder(&overlay);
    let clips = report[0]["clips"].as_array().unwrap();
    assert_eq!(clips.len(), 1, "{}", report[0]["warnings"]);
    assert_eq!((clips[0]["name"].as_str(), clips[0]["frames"].as_u64()), (Some("s_Move"), Some(6)));
    assert_eq!(report[0]["triangles"], 1);
    // `check .` inside the overlay folder finds the files as `check` of the absolute folder does.
    let out = temp_dir("check-mds");
    let dot = check_json(&anims.join("MDS_OVERLAY"), ".", &out.join("dot.json"));
    let absolute = check_json(&out, anims.join("MDS_OVERLAY").to_str().unwrap(), &out.join("abs.json"));
    let (dot_chars, dot_errors) = loaded_part(&dot);
    assert!(dot_errors.is_empty(), "{dot_errors:?}");
    assert_eq!((dot_chars, dot_errors), loaded_part(&absolute));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&out);
}
