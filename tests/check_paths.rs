//! `bonescope check` gives the same answer however the tree is named: `check DIR`, `check DIR/`, `check .` run
//! inside it, `check` of a relative path from its parent, and `check` of the list of its files (relative or
//! absolute) report the same characters and findings, once the paths in them are made relative to DIR.

mod check_tree;
mod psk_writer;

use std::path::Path;

use serde_json::Value;

use check_tree::{animation, bonescope_in, reference, temp_dir, write};

/// SMD characters (one clean, one torn, one without its texture), a folder of animations without a mesh, a PSK
/// limb, and files that are not models.
fn tree(dir: &Path) {
    write(&dir.join("hero/hero_ref.smd"), &reference("hero.bmp"));
    write(&dir.join("hero/hero.bmp"), "BM");
    write(&dir.join("hero/walk.smd"), &animation(12, |_| 10.0, &[]));
    write(&dir.join("hero/torn.smd"), &animation(8, |f| if f == 4 { 500.0 } else { 10.0 }, &[]));
    write(&dir.join("ghoul/deep/ghoul_ref.smd"), &reference("ghoul_skin.bmp"));
    write(&dir.join("ghoul/deep/idle.smd"), &animation(5, |_| 10.0, &["Tail"]));
    write(&dir.join("anims/a.smd"), &animation(4, |_| 10.0, &[]));
    write(&dir.join("anims/b.smd"), &animation(6, |_| 10.0, &[]));
    let limb = psk_writer::tube(6, 8, 3, 40.0).to_bytes();
    std::fs::create_dir_all(dir.join("limb")).unwrap();
    std::fs::write(dir.join("limb/arm.psk"), limb).unwrap();
    write(&dir.join("limb/readme.txt"), "notes");
    write(&dir.join("top.smd"), &reference("top.bmp"));
}

/// Every file under `dir`, relative to it, sorted.
fn files(dir: &Path, under: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(under).unwrap().map(Result::unwrap) {
        let path = entry.path();
        if path.is_dir() {
            files(dir, &path, out);
        } else {
            out.push(path.strip_prefix(dir).unwrap().display().to_string());
        }
    }
    out.sort();
}

/// A path from a report, relative to the tree: the tree's absolute path, `./` and the relative spellings the
/// runs used are taken off.
fn relative(path: &str, dir: &Path) -> String {
    let dir = dir.display().to_string();
    let mut p = path.strip_prefix(&dir).unwrap_or(path);
    for prefix in ["/", "./", "tree/"] {
        while let Some(rest) = p.strip_prefix(prefix) {
            p = rest;
        }
    }
    p.replace("//", "/")
}

/// The report without its roots and timings, every path in it relative to the tree, characters in a fixed order.
fn normalised(json: &Value, dir: &Path) -> Value {
    let mut characters: Vec<Value> = json["characters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let mut c = c.clone();
            c["main"] = Value::String(relative(c["main"].as_str().unwrap(), dir));
            let mut files: Vec<String> =
                c["files"].as_array().unwrap().iter().map(|f| relative(f.as_str().unwrap(), dir)).collect();
            files.sort();
            c["files"] = serde_json::json!(files);
            for p in c["pairing"].as_array_mut().into_iter().flatten() {
                p["file"] = Value::String(relative(p["file"].as_str().unwrap(), dir));
            }
            for f in c["findings"].as_array_mut().unwrap() {
                for key in ["file", "mesh_file"] {
                    if let Some(file) = f[key].as_str() {
                        f[key] = Value::String(relative(file, dir));
                    }
                }
                for clip in f["clips"].as_array_mut().into_iter().flatten() {
                    if let Some(file) = clip["file"].as_str() {
                        clip["file"] = Value::String(relative(file, dir));
                    }
                }
                let message = f["message"].as_str().unwrap().replace(&dir.display().to_string(), "");
                f["message"] = Value::String(message);
            }
            c
        })
        .collect();
    characters.sort_by_key(|c| c["main"].as_str().unwrap().to_owned());
    let mut summary = json["summary"].clone();
    summary.as_object_mut().unwrap().remove("fail_on");
    serde_json::json!({ "summary": summary, "characters": characters })
}

#[test]
fn every_spelling_of_a_tree_gives_the_same_findings() {
    let root = temp_dir("paths");
    let dir = root.join("tree");
    tree(&dir);
    let mut listed = Vec::new();
    files(&dir, &dir, &mut listed);
    let absolute: Vec<String> = listed.iter().map(|f| dir.join(f).display().to_string()).collect();
    let run = |name: &str, cwd: &Path, paths: &[String]| {
        let json = root.join(format!("{name}.json"));
        let mut args = vec!["check".to_owned(), "--json".to_owned(), json.display().to_string()];
        args.extend(["--fail-on".to_owned(), "never".to_owned()]);
        args.extend(paths.iter().cloned());
        let (code, out, err) = bonescope_in(Some(cwd), &args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(code, 0, "{name}: {out}\n{err}");
        let json: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        normalised(&json, &dir)
    };
    let dir_text = dir.display().to_string();
    let reference_run = run("dir", &root, std::slice::from_ref(&dir_text));
    let characters = reference_run["characters"].as_array().unwrap();
    // hero (its walk and torn clips paired by skeleton), ghoul, the limb, top; the two animations of anims/ fit
    // hero's and top's skeletons equally (the same rig): each is checked alone, unpaired.
    assert_eq!(characters.len(), 6, "{reference_run:#}");
    let unpaired = characters.iter().filter(|c| c["grouping"] == "unpaired").count();
    assert_eq!(unpaired, 2, "{reference_run:#}");
    let kinds: Vec<&str> = characters
        .iter()
        .flat_map(|c| c["findings"].as_array().unwrap())
        .filter(|f| f["severity"] != "info")
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    for kind in ["vertex_flies", "missing_texture", "unmatched_track"] {
        assert!(kinds.contains(&kind), "{kind} among {kinds:?}");
    }
    let spellings = [
        ("dir-slash", root.clone(), vec![format!("{dir_text}/")]),
        ("dot", dir.clone(), vec![".".to_owned()]),
        ("dot-slash", dir.clone(), vec!["./".to_owned()]),
        ("relative", root.clone(), vec!["tree".to_owned()]),
        ("listed", dir.clone(), listed.clone()),
        ("listed-dot", dir.clone(), listed.iter().map(|f| format!("./{f}")).collect()),
        ("listed-absolute", root.clone(), absolute),
    ];
    for (name, cwd, paths) in spellings {
        let other = run(name, &cwd, &paths);
        assert_eq!(
            other,
            reference_run,
            "`check {}` in {} differs from `check {dir_text}`",
            paths.join(" "),
            cwd.display()
        );
    }
    let _ = std::fs::remove_dir_all(&root);
}
