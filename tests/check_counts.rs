//! `bonescope check`: the numbers a user reads agree with the findings listed — per severity, per kind, in the
//! text, the JSON, the HTML and the exit code — even past the first hundred findings of a kind, where the rest
//! are summed up; the options every command takes (`--textures`, `--fps`, `--retarget`, `--root`) change what
//! is loaded; and what the loaders say while reading (a sequence not loaded, a bind pose moved, a line they had
//! to skip) are findings with a kind and a severity.

mod check_tree;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;

use check_tree::{animation, bonescope, defect_tree, nodes, reference, rendered_dom, temp_dir, write};

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// An animation whose tip turns half a turn about the strip's axis at frame 2 (file Y): the tip's rows swing
/// across to the other side of the strip, a long way but about an intact joint.
fn twist(frames: usize) -> String {
    let mut s = nodes(&[]);
    s.push_str("skeleton\n");
    for f in 0..frames {
        let turn = if f == 2 { std::f32::consts::PI } else { 0.0 };
        let _ = writeln!(s, "time {f}\n0 0 0 0 0 0 0\n1 0 10 0 0 0 0\n2 0 10 0 0 {turn:.5} 0");
    }
    s.push_str("end\n");
    s
}

/// Counts per severity name.
type Counts = BTreeMap<String, u64>;

/// Sums the `count` of each finding per severity, per character and per kind.
fn sums(json: &Value) -> (Vec<Counts>, BTreeMap<String, Counts>) {
    let mut per_character = Vec::new();
    let mut per_kind: BTreeMap<String, Counts> = BTreeMap::new();
    for c in json["characters"].as_array().unwrap() {
        let mut counts = BTreeMap::new();
        for f in c["findings"].as_array().unwrap() {
            let (severity, kind) = (f["severity"].as_str().unwrap(), f["kind"].as_str().unwrap());
            let n = f["count"].as_u64().unwrap();
            *counts.entry(severity.to_owned()).or_insert(0) += n;
            *per_kind.entry(kind.to_owned()).or_default().entry(severity.to_owned()).or_insert(0) += n;
        }
        per_character.push(counts);
    }
    (per_character, per_kind)
}

fn counts_object(c: &Value) -> Counts {
    ["error", "warning", "info"]
        .into_iter()
        .filter_map(|s| c[s].as_u64().filter(|n| *n > 0).map(|n| (s.to_owned(), n)))
        .collect()
}

#[test]
fn past_a_hundred_defects_of_a_kind_the_counts_still_add_up() {
    let root = temp_dir("counts");
    let tree = root.join("tree");
    // One character with 295 clips: 110 fling its tip off (one defect: the tip off its joint, 110 times), 25
    // turn its tip about an intact joint (one visible stretch, 25 times), 30 are sound, and 130 each animate a
    // bone of their own that the skeleton lacks (130 different facts). The unmatched tracks list 100 defects;
    // the other 30 are summed up.
    write(&tree.join("crab/crab_ref.smd"), &reference("crab.bmp"));
    write(&tree.join("crab/crab.bmp"), "BM");
    for i in 0..110 {
        write(&tree.join(format!("crab/torn{i:03}.smd")), &animation(4, |f| if f == 2 { 1000.0 } else { 10.0 }, &[]));
    }
    for i in 0..25 {
        write(&tree.join(format!("crab/twist{i:03}.smd")), &twist(4));
    }
    for i in 0..30 {
        write(&tree.join(format!("crab/idle{i:03}.smd")), &animation(4, |_| 10.0, &[]));
    }
    for i in 0..130 {
        let extra = format!("Extra{i:03}");
        write(&tree.join(format!("crab/extra{i:03}.smd")), &animation(4, |_| 10.0, &[extra.as_str()]));
    }
    let (json_path, html_path) = (root.join("report.json"), root.join("report.html"));
    let args = |fail_on: &'static str| {
        vec![
            "check".to_owned(),
            tree.display().to_string(),
            "--json".to_owned(),
            json_path.display().to_string(),
            "--html".to_owned(),
            html_path.display().to_string(),
            "--fail-on".to_owned(),
            fail_on.to_owned(),
        ]
    };
    let run = |fail_on: &'static str| {
        let args = args(fail_on);
        bonescope(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let (code, out, err) = run("error");
    let json = read_json(&json_path);
    let by_kind = &json["summary"]["by_kind"];
    let occurrences = &json["summary"]["occurrences_by_kind"];
    assert_eq!(by_kind["vertex_flies"], serde_json::json!({"error": 1, "warning": 0, "info": 0}), "{out}\n{err}");
    assert_eq!(occurrences["vertex_flies"]["error"], 110);
    assert_eq!(by_kind["clip_stretch"]["warning"], 1, "{by_kind}");
    assert_eq!(occurrences["clip_stretch"]["warning"], 25);
    assert_eq!(by_kind["unmatched_track"], serde_json::json!({"error": 0, "warning": 130, "info": 0}));
    assert_eq!(occurrences["unmatched_track"]["warning"], 130);

    // Every total is the sum of the findings listed, each counted as many times as it stands for.
    let (per_character, per_kind) = sums(&json);
    let characters = json["characters"].as_array().unwrap();
    assert_eq!(characters.len(), 1);
    for (c, listed) in characters.iter().zip(&per_character) {
        assert_eq!(counts_object(&c["counts"]), *listed, "{}", c["name"]);
    }
    for (kind, counts) in json["summary"]["by_kind"].as_object().unwrap() {
        assert_eq!(counts_object(counts), per_kind[kind], "{kind}");
    }
    let total = counts_object(&json["summary"]["findings"]);
    let crab = &characters[0];
    assert_eq!(total, counts_object(&crab["counts"]));
    // 100 unmatched-track defects listed one by one, the rest in one summing-up line.
    let unmatched: Vec<&Value> =
        crab["findings"].as_array().unwrap().iter().filter(|f| f["kind"] == "unmatched_track").collect();
    let (summaries, listed): (Vec<&Value>, Vec<&Value>) = unmatched.iter().partition(|f| f["summary"] == true);
    assert_eq!(listed.len(), 100);
    assert_eq!(summaries.len(), 1, "one per severity: {summaries:#?}");
    assert!(summaries[0]["message"].as_str().unwrap().starts_with("… and 30 more"), "{}", summaries[0]);
    assert_eq!(summaries[0]["count"], 30);
    // The flung tip: one finding naming the bone that came off, standing for its 110 clips.
    let flies = crab["findings"].as_array().unwrap().iter().find(|f| f["kind"] == "vertex_flies").unwrap();
    assert_eq!((flies["occurrences"].as_u64(), flies["clips"].as_array().unwrap().len()), (Some(110), 110));
    assert_eq!(flies["bone"], "tip");

    // The exit code, the text and the HTML say the same.
    assert_eq!(code, 1, "{out}");
    let (errors, warnings) = (total["error"], total["warning"]);
    assert_eq!((errors, warnings), (1, 131));
    let infos = total.get("info").copied().unwrap_or(0);
    let infos = if infos == 1 { "1 info".to_owned() } else { format!("{infos} infos") };
    assert!(out.contains(&format!("findings: 1 error, 131 warnings, {infos} (one per defect)")), "{out}");
    assert!(out.contains("occurrences: 110 errors, 155 warnings"), "{out}");
    assert!(
        out.lines().any(|l| l.split_whitespace().take(4).collect::<Vec<_>>() == ["unmatched_track", "0", "130", "0"])
    );
    assert!(out.contains("FAIL: 1 finding at --fail-on error"), "{out}");
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(html.contains("<tr><td>unmatched_track</td><td class=n>0</td><td class=n>130</td><td class=n>0</td>"));
    assert!(html.contains("1 error, 131 warnings"), "the page's header counts");
    // The row the page's script builds shows the same counts, and the summing-up line says how many it is.
    if let Some(dom) = rendered_dom(&html_path) {
        for cell in ["<td class=\"n error\">1</td>", "<td class=\"n warning\">131</td>"] {
            assert!(dom.contains(cell), "{cell} in the row");
        }
        assert!(dom.contains(" (30 findings)"), "the line standing for 30");
        assert!(dom.contains(" (110 occurrences)"), "the flung tip's clips");
    }
    let (code, out, _) = run("warning");
    assert_eq!(code, 1);
    assert!(out.contains("FAIL: 132 findings at --fail-on warning"), "{out}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn check_takes_the_load_options_of_every_command() {
    let root = temp_dir("options");
    let tree = root.join("tree");
    defect_tree(&tree);
    let textures = root.join("textures");
    write(&textures.join("ghoul_skin.bmp"), "BM");
    let report = |extra: &[&str]| {
        let json = root.join("options.json");
        let mut args = vec!["check", tree.to_str().unwrap(), "--json", json.to_str().unwrap(), "--fail-on", "never"];
        args.extend_from_slice(extra);
        let (code, out, err) = bonescope(&args);
        assert_eq!(code, 0, "{extra:?}: {out}\n{err}");
        read_json(&json)
    };
    let findings = |json: &Value, name: &str, kind: &str| -> Vec<Value> {
        let c = json["characters"].as_array().unwrap().iter().find(|c| c["name"] == name).unwrap();
        c["findings"].as_array().unwrap().iter().filter(|f| f["kind"] == kind).cloned().collect()
    };
    let plain = report(&[]);
    assert_eq!(findings(&plain, "ghoul_ref.smd", "missing_texture").len(), 1);
    // --textures: the texture is found in the folder given, and the warning goes.
    let with_textures = report(&["--textures", textures.to_str().unwrap()]);
    assert!(findings(&with_textures, "ghoul_ref.smd", "missing_texture").is_empty());
    // --fps: SMD animations play at the rate given, so the tear at frame 5 or 6 is at 0.5–0.6 s, not 0.17–0.2.
    let torn = |json: &Value| {
        let c = json["characters"].as_array().unwrap().iter().find(|c| c["name"] == "crab_ref.smd").unwrap();
        let surface = ["vertex_flies", "joint_apart", "clip_stretch"];
        c["findings"].as_array().unwrap().iter().find_map(|f| {
            if !surface.contains(&f["kind"].as_str().unwrap()) {
                return None;
            }
            let clip = f["clips"].as_array()?.iter().find(|c| c["clip"] == "explode")?;
            Some(serde_json::json!({"kind": f["kind"], "severity": clip["severity"], "time": clip["time"]}))
        })
    };
    let at_30 = torn(&plain).unwrap()["time"].as_f64().unwrap();
    let at_10 = torn(&report(&["--fps", "10"])).unwrap()["time"].as_f64().unwrap();
    assert!((at_30 * 3.0 - at_10).abs() < 1e-3 && (0.45..0.65).contains(&at_10), "{at_30} {at_10}");
    // --retarget rotation-only: the bones keep the model's translations, so the tip no longer flies off.
    assert_eq!(torn(&plain).unwrap()["severity"], "error");
    assert_eq!(torn(&plain).unwrap()["kind"], "vertex_flies");
    let held = torn(&report(&["--retarget", "rotation-only"])).unwrap();
    assert_eq!((held["kind"].as_str(), held["severity"].as_str()), (Some("clip_stretch"), Some("info")));
    // --root: accepted with the values the other commands take.
    let locked = report(&["--root", "lock"]);
    assert_eq!(locked["summary"]["characters"], plain["summary"]["characters"]);
    assert_eq!(
        bonescope(&["check", tree.to_str().unwrap(), "--root", "sideways"]).0,
        2,
        "a bad value is a usage error"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn what_loaders_say_is_a_finding_with_a_kind_and_a_severity() {
    let root = temp_dir("load-warnings");
    let tree = root.join("tree");
    // A folder character whose animation has no `version` line (read anyway, with a warning).
    write(&tree.join("loose/imp_ref.smd"), &reference("imp.bmp"));
    write(&tree.join("loose/imp.bmp"), "BM");
    let walk = animation(6, |_| 10.0, &[]);
    write(&tree.join("loose/imp_walk.smd"), walk.strip_prefix("version 1\n").unwrap());
    // A QC: a second body whose skeleton puts `mid` 2 units higher (its vertices are moved onto the first's),
    // a sequence cut outside its file (not loaded) and one with an event past its end (loaded, the event moved).
    let helmet = reference("knight.bmp").replacen("1 0 10 0 0 0 0", "1 0 12 0 0 0 0", 1);
    write(&tree.join("knight/body.smd"), &reference("knight.bmp"));
    write(&tree.join("knight/helmet.smd"), &helmet);
    write(&tree.join("knight/knight.bmp"), "BM");
    write(&tree.join("knight/idle.smd"), &animation(10, |_| 10.0, &[]));
    write(
        &tree.join("knight/knight.qc"),
        "$modelname \"knight.mdl\"\n$body \"studio\" \"body\"\n$body \"helmet\" \"helmet\"\n\
         $sequence idle \"idle\" fps 30 loop\n$sequence far \"idle\" frame 50 60 fps 30\n\
         $sequence long \"idle\" fps 30 { event 1000 80 }\n",
    );
    let json_path = root.join("report.json");
    let (code, out, err) =
        bonescope(&["check", tree.to_str().unwrap(), "--json", json_path.to_str().unwrap(), "--fail-on", "warning"]);
    assert_eq!(code, 1, "{out}\n{err}");
    let json = read_json(&json_path);
    let character = |name: &str| json["characters"].as_array().unwrap().iter().find(|c| c["name"] == name).unwrap();
    let of_kind = |c: &Value, kind: &str| -> Vec<Value> {
        c["findings"].as_array().unwrap().iter().filter(|f| f["kind"] == kind).cloned().collect()
    };
    let imp = character("imp_ref.smd");
    let warned = of_kind(imp, "load_warning");
    assert_eq!(warned.len(), 1, "{:#?}", imp["findings"]);
    assert_eq!(warned[0]["severity"], "warning");
    assert!(warned[0]["file"].as_str().unwrap().ends_with("imp_walk.smd"), "{}", warned[0]);
    assert!(warned[0]["message"].as_str().unwrap().contains("version"), "{}", warned[0]);

    let knight = character("knight.mdl");
    let moved = of_kind(knight, "bind_pose_moved");
    assert_eq!(moved.len(), 1, "{:#?}", knight["findings"]);
    assert_eq!(moved[0]["severity"], "warning");
    let not_loaded = of_kind(knight, "sequence_not_loaded");
    assert_eq!(not_loaded.len(), 1, "{:#?}", knight["findings"]);
    assert_eq!(not_loaded[0]["severity"], "error");
    assert!(not_loaded[0]["message"].as_str().unwrap().contains("\"far\""), "{}", not_loaded[0]);
    assert!(not_loaded[0]["file"].as_str().unwrap().ends_with("knight.qc"));
    assert_eq!(not_loaded[0]["line"], 5);
    let shortened: Vec<Value> = of_kind(knight, "load_warning")
        .into_iter()
        .filter(|f| f["message"].as_str().unwrap().contains("\"long\""))
        .collect();
    assert_eq!(shortened.len(), 1, "said once, as a finding: {:#?}", knight["findings"]);
    assert_eq!(shortened[0]["line"], 6);
    assert_eq!(knight["clips"], serde_json::json!(["idle", "long"]));
    // Each loader warning is said once: none is both a finding here and a load warning repeated.
    let messages: Vec<&str> =
        knight["findings"].as_array().unwrap().iter().map(|f| f["message"].as_str().unwrap()).collect();
    let far = messages.iter().filter(|m| m.contains("\"far\"")).count();
    assert_eq!(far, 1, "{messages:#?}");
    // Meshes are named by their file, not by the format.
    assert!(
        !serde_json::to_string(&json).unwrap().contains("'smd'"),
        "no finding names a mesh 'smd': {:#?}",
        json["characters"]
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn meshes_in_findings_are_named_by_their_file() {
    let root = temp_dir("mesh-names");
    let tree = root.join("tree");
    defect_tree(&tree);
    let json_path = root.join("report.json");
    bonescope(&["check", tree.to_str().unwrap(), "--json", json_path.to_str().unwrap()]);
    let json = read_json(&json_path);
    let crab = json["characters"].as_array().unwrap().iter().find(|c| c["name"] == "crab_ref.smd").unwrap();
    let torn = &crab["findings"][0];
    assert!(torn["message"].as_str().unwrap().contains("in mesh 0 'crab_ref.smd'"), "{torn}");
    let _ = std::fs::remove_dir_all(&root);
}
