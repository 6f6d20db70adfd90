//! `bonescope check` on generated trees of the shapes that real game trees have, with the counts a user
//! expects: a Gothic body with an armour whose seam opens, animated by the base model and by three overlays (one
//! defect, in every clip that lifts the arm); a flat folder of `<name>Mesh.psk` + `<name>Anims.psa` characters
//! (each animation on its own character only, a chocolate frog's `hop` on no knight); animation SMDs that carry
//! bones the reference lacks (one finding per set of bones, however many clips); a VTA beside a collision hull
//! (paired only with the mesh whose vertices it moves). `BONESCOPE_CHECK_TREES_DIR=DIR` keeps the trees in DIR.

mod check_tree;
#[path = "check_tree/flat.rs"]
mod flat;
#[path = "check_tree/gothic.rs"]
mod gothic;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

use check_tree::{animation, bonescope, nodes, reference, temp_dir, write};

/// Where a test's tree goes: under `BONESCOPE_CHECK_TREES_DIR` (kept), else a temporary folder (removed).
fn tree_dir(tag: &str) -> (PathBuf, bool) {
    match std::env::var_os("BONESCOPE_CHECK_TREES_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir).join(tag);
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            (dir, true)
        }
        None => (temp_dir(tag), false),
    }
}

/// Runs `check TREE --json` and returns the report.
fn check(tree: &Path, json: &Path) -> (Value, String) {
    let (code, out, err) =
        bonescope(&["check", tree.to_str().unwrap(), "--json", json.to_str().unwrap(), "--fail-on", "never"]);
    assert_eq!(code, 0, "{out}\n{err}");
    (serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap(), out)
}

fn characters(json: &Value) -> &Vec<Value> {
    json["characters"].as_array().unwrap()
}

fn findings<'a>(c: &'a Value, kind: &str) -> Vec<&'a Value> {
    c["findings"].as_array().unwrap().iter().filter(|f| f["kind"] == kind).collect()
}

fn ends(path: &Value, tail: &str) -> bool {
    path.as_str().is_some_and(|p| p.ends_with(tail))
}

#[test]
fn an_armour_seam_opened_by_the_base_and_every_overlay_is_one_defect() {
    let (root, keep) = tree_dir("gothic");
    let anims = root.join("tree/_work/Data/Anims");
    gothic::humans_tree(&anims);
    let (json, out) = check(&root.join("tree"), &root.join("report.json"));
    let all = characters(&json);
    assert_eq!(all.len(), 4, "the base and its three overlays: {out}");
    let base = all.iter().find(|c| ends(&c["main"], "/HUMANS.MDS")).unwrap();
    let opens = findings(base, "surface_opens");
    assert_eq!(opens.len(), 1, "{:#}", base["findings"]);
    let seam = opens[0];
    assert_eq!(seam["severity"], "error");
    // Every clip of the base and of the overlays lifts the arm: seven occurrences, each clip listed once with
    // the file it came from and (for the overlays') the character that played it.
    assert_eq!(seam["occurrences"], gothic::CLIPS.len(), "{seam:#}");
    let clips = seam["clips"].as_array().unwrap();
    assert_eq!(clips.len(), gothic::CLIPS.len(), "{seam:#}");
    for (script, name, file, _, _) in gothic::CLIPS {
        let listed = clips.iter().any(|c| c["clip"] == name && ends(&c["file"], file));
        assert!(listed, "{script} {name} ({file}) among {clips:#?}");
    }
    assert_eq!(clips.iter().filter(|c| c.get("character").is_some()).count(), 4, "the overlays' clips say whose");
    // Named by its file and registered mesh, not by the node name every Gothic body mesh has.
    let mesh = seam["mesh"].as_str().unwrap();
    assert!(mesh.contains("HUM_ARMOR_ROBE.ASC") && mesh.contains("registerMesh"), "{mesh}");
    assert!(seam["place"].as_str().unwrap().contains("BIP01 L UPPERARM"), "{seam:#}");
    // The overlays do not repeat it; nothing else is an error.
    for overlay in all.iter().filter(|c| c["overlay_of"].is_string()) {
        assert!(findings(overlay, "surface_opens").is_empty(), "{:#}", overlay["findings"]);
    }
    assert_eq!(json["summary"]["findings"]["error"], 1, "{out}");
    assert_eq!(json["summary"]["occurrences"]["error"].as_u64().unwrap(), 1 + 6, "7 clips, 1 at warning level");
    if !keep {
        let _ = std::fs::remove_dir_all(&root);
    }
}

#[test]
fn a_flat_folder_of_characters_pairs_each_animation_with_its_own_character() {
    let (root, keep) = tree_dir("flat");
    let dir = root.join("tree/Characters");
    let names: Vec<String> =
        ["knight", "chocolatefrog", "goblin", "witch", "troll", "gnome", "dragon", "harry", "pixie", "owl"]
            .iter()
            .map(|n| (*n).to_owned())
            .collect();
    let shape = flat::Shape { rings: 16, sides: 8, bones: 12, sequences: 3, frames: 10 };
    flat::flat_folder(&dir, &names, 7, shape).unwrap();
    // The frog hops.
    let mut frog = flat::animations(1, shape, 0.3);
    frog.sequences[0].name = "hop".into();
    std::fs::write(dir.join("chocolatefrogAnims.psa"), frog.to_bytes()).unwrap();
    let (json, out) = check(&root.join("tree"), &root.join("report.json"));
    let all = characters(&json);
    assert_eq!(all.len(), names.len(), "one character per mesh: {out}");
    assert_eq!(json["summary"]["unpaired_files"], 0);
    for (i, name) in names.iter().enumerate() {
        let c = all.iter().find(|c| ends(&c["main"], &format!("/{name}Mesh.psk"))).unwrap();
        let pairing = c["pairing"].as_array().map(Vec::as_slice).unwrap_or_default();
        if i < 7 {
            assert_eq!(pairing.len(), 1, "{name}: its own animations and no other's: {pairing:?}");
            assert!(ends(&pairing[0]["file"], &format!("/{name}Anims.psa")), "{pairing:?}");
            assert_eq!(pairing[0]["method"], "name");
            assert_eq!(c["clips"].as_array().unwrap().len(), 3);
        } else {
            assert!(pairing.is_empty(), "{name} has no animations: {pairing:?}");
        }
        // Each animation on its own character: every track binds, nothing tears.
        assert!(findings(c, "unmatched_track").is_empty(), "{name}: {:#}", c["findings"]);
        assert_eq!(c["counts"]["error"], 0, "{name}: {:#}", c["findings"]);
    }
    let knight = all.iter().find(|c| ends(&c["main"], "/knightMesh.psk")).unwrap();
    assert!(!knight["clips"].to_string().contains("hop"), "the knight does not hop: {}", knight["clips"]);
    let frog = all.iter().find(|c| ends(&c["main"], "/chocolatefrogMesh.psk")).unwrap();
    assert_eq!(frog["clips"][0], "hop");
    if !keep {
        let _ = std::fs::remove_dir_all(&root);
    }
}

#[test]
fn animations_with_extra_bones_are_one_finding_per_set_of_bones() {
    let (root, keep) = tree_dir("extra-bones");
    let dir = root.join("tree/scientist");
    write(&dir.join("scientist_ref.smd"), &reference("scientist.bmp"));
    write(&dir.join("scientist.bmp"), "BM");
    // 20 animations exported from a rig with three bones more than the reference, 5 from one with a tail.
    for i in 0..20 {
        write(&dir.join(format!("anim{i:02}.smd")), &animation(6, |_| 10.0, &["Bip01 Prop1", "Weapon", "Helper"]));
    }
    for i in 0..5 {
        write(&dir.join(format!("tail{i}.smd")), &animation(6, |_| 10.0, &["Tail"]));
    }
    let (json, out) = check(&root.join("tree"), &root.join("report.json"));
    let all = characters(&json);
    assert_eq!(all.len(), 1, "{out}");
    let unmatched = findings(&all[0], "unmatched_track");
    assert_eq!(unmatched.len(), 2, "{unmatched:#?}");
    let occurrences: Vec<u64> = unmatched.iter().map(|f| f["occurrences"].as_u64().unwrap()).collect();
    assert_eq!(occurrences, [20, 5]);
    let props = unmatched[0]["message"].as_str().unwrap();
    assert!(props.contains("'Bip01 Prop1'") && props.contains("the same place in 20 clips"), "{props}");
    assert_eq!(json["summary"]["by_kind"]["unmatched_track"]["warning"], 2);
    if !keep {
        let _ = std::fs::remove_dir_all(&root);
    }
}

/// A VTA of the given base positions, with a second frame moving the first vertex up by one.
fn vta(positions: &[[f32; 3]]) -> String {
    let mut s = nodes(&[]);
    s.push_str("skeleton\ntime 0\ntime 1\nend\nvertexanimation\ntime 0\n");
    for (i, p) in positions.iter().enumerate() {
        let _ = writeln!(s, "{i} {} {} {} 0 0 1", p[0], p[1], p[2]);
    }
    let p = positions[0];
    let _ = writeln!(s, "time 1\n0 {} {} {} 0 0 1\nend", p[0], p[1], p[2] + 1.0);
    s
}

#[test]
fn a_vta_pairs_only_with_the_mesh_whose_vertices_it_moves() {
    let (root, keep) = tree_dir("vta");
    let dir = root.join("tree/face");
    write(&dir.join("face_ref.smd"), &reference("face.bmp"));
    // A collision hull: the same bones in other proportions (another character's), a box of its own.
    let hull =
        reference("hull.bmp").replace(" 0.000 0 0 1 ", " 3.000 0 0 1 ").replacen("1 0 10 0 0 0 0", "1 0 12 0 0 0 0", 1);
    write(&dir.join("hull.smd"), &hull);
    // face.vta moves the face's vertices (the strip's corners, as `reference` lays them out); other.vta a model
    // that is not here.
    let strip: Vec<[f32; 3]> =
        (0..=6).flat_map(|y| (0..=2).map(move |x| [x as f32 * 4.0, y as f32 * 5.0, 0.0])).collect();
    write(&dir.join("face.vta"), &vta(&strip));
    let elsewhere: Vec<[f32; 3]> = strip.iter().map(|p| [p[0] + 100.0, p[1], 7.0]).collect();
    write(&dir.join("other.vta"), &vta(&elsewhere));
    let (json, out) = check(&root.join("tree"), &root.join("report.json"));
    let all = characters(&json);
    let face = all.iter().find(|c| ends(&c["main"], "/face_ref.smd")).unwrap();
    let pairing = face["pairing"].as_array().unwrap();
    assert_eq!(pairing.len(), 1, "{out}");
    assert!(ends(&pairing[0]["file"], "/face.vta") && pairing[0]["method"] == "name", "{pairing:?}");
    assert!(face["findings"].as_array().unwrap().iter().all(|f| f["kind"] != "bind_error"), "{face:#}");
    let hull = all.iter().find(|c| ends(&c["main"], "/hull.smd")).unwrap();
    assert!(hull.get("pairing").is_none(), "nothing is the hull's: {hull:#}");
    let other = all.iter().find(|c| ends(&c["main"], "/other.vta")).unwrap();
    assert_eq!(other["grouping"], "unpaired");
    assert!(findings(other, "unpaired")[0]["message"].as_str().unwrap().contains("its vertices are no mesh's"));
    if !keep {
        let _ = std::fs::remove_dir_all(&root);
    }
}

/// The viewer's Diagnostics tab runs the same checks on the character it opens: its findings, one per defect, are
/// counted as `check` counts that character's rig findings.
#[test]
fn the_viewer_counts_a_character_as_check_does() {
    use bonescope::anim::diagnostics::{DiagnoseOptions, FindingKind, Severity, diagnose};
    let (root, keep) = tree_dir("viewer-counts");
    let dir = root.join("tree/scientist");
    write(&dir.join("scientist_ref.smd"), &reference("scientist.bmp"));
    for i in 0..8 {
        write(&dir.join(format!("anim{i}.smd")), &animation(6, |f| 10.0 + f as f32, &["Bip01 Prop1"]));
    }
    write(&dir.join("torn.smd"), &animation(6, |f| if f == 3 { 400.0 } else { 10.0 }, &[]));
    let (json, _) = check(&root.join("tree"), &root.join("report.json"));
    let scientist = &characters(&json)[0];
    let rig: Vec<&str> = FindingKind::ALL.iter().map(|k| k.name()).collect();
    let mut from_check = [0u64; 3];
    for f in scientist["findings"].as_array().unwrap() {
        if rig.contains(&f["kind"].as_str().unwrap()) {
            let slot = ["error", "warning", "info"].iter().position(|s| f["severity"] == *s).unwrap();
            from_check[slot] += f["count"].as_u64().unwrap();
        }
    }
    // The folder opened in the viewer as a user drops it (the reference first, then the animations).
    let files = bonescope::source::files_to_open(&bonescope::io::Files::disk(), std::slice::from_ref(&dir));
    let (asset, _) =
        bonescope::source::load_files(&files, &bonescope::io::LoadOptions::default()).into_result().unwrap();
    let mut from_viewer = [0u64; 3];
    for f in diagnose(&asset, &DiagnoseOptions::default()) {
        let slot = match f.severity {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Info => 2,
        };
        from_viewer[slot] += f.count as u64;
    }
    let shown: Vec<String> = diagnose(&asset, &DiagnoseOptions::default()).iter().map(ToString::to_string).collect();
    assert_eq!(from_viewer, from_check, "{shown:#?}\n{:#}", scientist["findings"]);
    assert_eq!(from_check[0], 1, "the torn clip");
    if !keep {
        let _ = std::fs::remove_dir_all(&root);
    }
}
