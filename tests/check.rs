//! `bonescope check` on a generated tree with known defects — a clip that tears, a missing texture, a track for
//! a bone the skeleton lacks, a truncated file, a QC naming a file that is not there — next to clean
//! characters: exactly those findings come out in the text summary, the JSON and the HTML page (rendered by a
//! real headless browser when Debian's `chromium` is installed), and the exit code follows `--fail-on`.

mod check_tree;
mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use check_tree::{animation, bonescope, defect_tree, reference, temp_dir, write};

use serde_json::Value;

/// The (character, severity, kind) of every error and warning in a JSON report. (Infos are the worst stretch
/// of each clip, reported for every clip, and checked separately.)
fn finding_set(json: &Value) -> BTreeSet<(String, String, String)> {
    let mut out = BTreeSet::new();
    for c in json["characters"].as_array().unwrap() {
        for f in c["findings"].as_array().unwrap().iter().filter(|f| f["severity"] != "info") {
            out.insert((
                c["name"].as_str().unwrap().to_owned(),
                f["severity"].as_str().unwrap().to_owned(),
                f["kind"].as_str().unwrap().to_owned(),
            ));
        }
    }
    out
}

fn expected() -> BTreeSet<(String, String, String)> {
    [
        ("crab_ref.smd", "error", "vertex_flies"),
        ("ghoul_ref.smd", "warning", "missing_texture"),
        ("imp_ref.smd", "warning", "unmatched_track"),
        ("half.smd", "error", "load_error"),
        ("knight.mdl", "error", "missing_file"),
    ]
    .into_iter()
    .map(|(a, b, c)| (a.to_owned(), b.to_owned(), c.to_owned()))
    .collect()
}

#[test]
fn a_tree_with_known_defects_gives_exactly_those_findings() {
    let root = temp_dir("defects");
    defect_tree(&root.join("tree"));
    let json_path = root.join("report.json");
    let html_path = root.join("report.html");
    let tree = root.join("tree");
    let (code, out, err) = bonescope(&[
        "check",
        tree.to_str().unwrap(),
        "--json",
        json_path.to_str().unwrap(),
        "--html",
        html_path.to_str().unwrap(),
        "--jobs",
        "2",
    ]);
    assert_eq!(code, 1, "errors fail the default --fail-on error\n{out}\n{err}");
    assert!(err.contains("grouping: a model script"), "the grouping rule is printed: {err}");

    // JSON: the characters, and exactly the planted findings with their locations.
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    assert_eq!(json["schema"], "bonescope-check");
    assert_eq!(json["version"], 2);
    let names: BTreeSet<&str> =
        json["characters"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    let want: BTreeSet<&str> =
        ["hero_ref.smd", "crab_ref.smd", "ghoul_ref.smd", "imp_ref.smd", "half.smd", "knight.mdl"].into();
    assert_eq!(names, want);
    assert_eq!(finding_set(&json), expected(), "{}", serde_json::to_string_pretty(&json["characters"]).unwrap());
    assert_eq!(json["summary"]["characters"], 6);
    assert_eq!(json["summary"]["files"], 14, "13 SMDs and the QC");
    assert_eq!(json["summary"]["other_files"], 5, "4 textures and the notes");
    assert_eq!(json["summary"]["findings"]["error"], 3);
    assert_eq!(json["summary"]["findings"]["warning"], 2);
    // Each clip's worst stretch is an info when it is harmless, one per place of each character: hero's walk and
    // run (one place, 2 occurrences), the torn crab's idle, ghoul_idle, imp_wave, the knight's idle; the torn
    // clip's tip flies 1,000 units off a 30-unit strip: the error.
    assert_eq!(json["summary"]["findings"]["info"], 5);
    assert_eq!(json["summary"]["occurrences"]["info"], 6);
    assert_eq!(json["summary"]["by_kind"]["clip_stretch"], serde_json::json!({"error": 0, "warning": 0, "info": 5}));
    assert_eq!(json["summary"]["by_kind"]["vertex_flies"], serde_json::json!({"error": 1, "warning": 0, "info": 0}));
    // The loose files were paired by what they hold (one mesh in each folder, the skeletons fit) or by name.
    let pairing = |name: &str| -> Vec<(String, String)> {
        let c = json["characters"].as_array().unwrap().iter().find(|c| c["name"] == name).unwrap();
        c["pairing"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|p| {
                        let file = p["file"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
                        (file, p["method"].as_str().unwrap().to_owned())
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(
        pairing("hero_ref.smd"),
        [("run.smd".into(), "skeleton".into()), ("walk.smd".into(), "skeleton".into())]
    );
    assert_eq!(pairing("ghoul_ref.smd"), [("ghoul_idle.smd".to_owned(), "prefix".to_owned())]);

    let character =
        |name: &str| json["characters"].as_array().unwrap().iter().find(|c| c["name"] == name).unwrap().clone();
    let first = |name: &str| character(name)["findings"][0].clone();
    let torn = first("crab_ref.smd");
    assert!(torn["file"].as_str().unwrap().ends_with("explode.smd"), "{torn}");
    assert_eq!(torn["clip"], "explode");
    assert!(matches!(torn["frame"].as_u64(), Some(5 | 6)), "{torn}");
    assert_eq!(torn["bone"], "tip");
    assert!(torn["value"].as_f64().unwrap() > 10.0);
    let track = first("imp_ref.smd");
    assert_eq!(track["bone"], "Tail");
    assert_eq!(track["clip"], "imp_wave");
    assert!(track["file"].as_str().unwrap().ends_with("imp_wave.smd"));
    let texture = first("ghoul_ref.smd");
    assert!(texture["message"].as_str().unwrap().contains("ghoul_skin.bmp"));
    assert!(texture["file"].as_str().unwrap().ends_with("ghoul_ref.smd"));
    let broken = first("half.smd");
    assert!(broken["line"].as_u64().is_some(), "a load error says where: {broken}");
    assert_eq!(character("half.smd")["loaded"], false);
    let missing = first("knight.mdl");
    assert!(missing["file"].as_str().unwrap().ends_with("knight.qc"));
    assert_eq!(missing["line"], 4);
    assert!(missing["message"].as_str().unwrap().contains("\"attack\""));
    let knight = character("knight.mdl");
    assert_eq!(knight["grouping"], "script");
    assert_eq!(knight["files"].as_array().unwrap().len(), 3, "the QC, its mesh and its one animation");
    assert_eq!(knight["clips"], serde_json::json!(["idle"]));
    let hero = character("hero_ref.smd");
    assert_eq!(hero["files"].as_array().unwrap().len(), 3);
    assert_eq!(hero["bones"], 3);
    assert!(hero["findings"].as_array().unwrap().iter().all(|f| f["severity"] == "info"));

    // Text: the summary table and the worst findings with their places.
    assert!(out.contains("checked 6 characters (5 loaded) from 14 files"), "{out}");
    assert!(out.contains("findings: 3 errors, 2 warnings, 5 infos (one per defect)"), "{out}");
    for kind in ["vertex_flies", "clip_stretch", "missing_texture", "unmatched_track", "load_error", "missing_file"] {
        assert!(out.lines().any(|l| l.trim_start().starts_with(kind)), "{kind} in the table: {out}");
    }
    assert!(out.contains("clip \"explode\""), "{out}");
    assert!(out.contains("bone \"tip\""), "{out}");
    assert!(out.contains("knight.qc:4"), "{out}");
    assert!(out.contains("FAIL: 3 findings at --fail-on error"), "{out}");

    // HTML: self-contained, with every character and finding in its data.
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(!html.contains("http://") && !html.contains("https://"), "no network references");
    let data = serde_json::to_string(&page_report(&html)).unwrap();
    for name in &want {
        assert!(data.contains(name), "{name} in the page's report");
    }
    browser_renders(&html_path, &want);
    let _ = std::fs::remove_dir_all(&root);
}

/// The report JSON a page carries (gzip-compressed, base64-encoded, in `<script id="report">`).
fn page_report(html: &str) -> Value {
    use std::io::Read as _;
    let start = html.find("<script type=\"application/gzip\" id=\"report\">").unwrap();
    let packed = &html[start..];
    let packed = &packed[packed.find('>').unwrap() + 1..packed.find("</script>").unwrap()];
    let mut text = String::new();
    flate2::read::GzDecoder::new(&decode_base64(packed.trim())[..]).read_to_string(&mut text).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Opens the page in headless chromium and checks the rows and findings its script built.
fn browser_renders(page: &Path, names: &BTreeSet<&str>) {
    let Some(chromium) = ["chromium", "chromium-browser"]
        .into_iter()
        .find(|c| Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success()))
    else {
        eprintln!("skipped the browser check: chromium is not installed (scripts/install-system-deps.sh installs it)");
        return;
    };
    let profile = page.with_file_name("chromium-profile");
    let out = Command::new(chromium)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions"])
        // The page inflates its report asynchronously: let it finish before the DOM is dumped.
        .arg("--virtual-time-budget=10000")
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium");
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(
        dom.contains("data-rendered=\"6\""),
        "the page's script ran and built 6 rows: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(dom.matches("<tr class=\"character ").count(), 6, "one row per character");
    assert_eq!(dom.matches("<tr class=\"finding\"").count(), 10, "one line per finding (5 problems, 5 infos)");
    assert!(dom.contains("(2 occurrences)"), "the walk and run stretch is one finding standing for two clips");
    for name in names {
        assert!(dom.contains(&format!("<summary>{name}</summary>")), "{name} has its row");
    }
    for kind in ["vertex_flies", "clip_stretch", "missing_texture", "unmatched_track", "load_error", "missing_file"] {
        assert!(dom.contains(&format!("<td>{kind}</td>")), "{kind} listed");
    }
    assert_eq!(dom.matches("class=\"character has-error\"").count(), 3, "three rows flagged with errors");

    // Sorting: the page opened sorted by name, then by errors (most first), lists its rows in that order.
    let order = |hash: &str| -> Vec<String> {
        let out = Command::new(chromium)
            .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions"])
            // The page inflates its report asynchronously: let it finish before the DOM is dumped.
            .arg("--virtual-time-budget=10000")
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("--dump-dom")
            .arg(format!("file://{}#{hash}", page.display()))
            .output()
            .expect("run chromium");
        let dom = String::from_utf8_lossy(&out.stdout).into_owned();
        dom.split("<summary>").skip(1).map(|s| s[..s.find("</summary>").unwrap()].to_owned()).collect()
    };
    let mut by_name: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
    by_name.sort();
    let sorted: Vec<String> = order("sort=name").iter().map(|n| n.to_lowercase()).collect();
    assert_eq!(sorted, by_name);
    let descending: Vec<String> = order("sort=-name").iter().map(|n| n.to_lowercase()).collect();
    assert_eq!(descending, by_name.iter().rev().cloned().collect::<Vec<_>>());
    let by_errors = order("sort=-error");
    assert_eq!(by_errors.len(), 6);
    let with_errors: BTreeSet<&str> = by_errors[..3].iter().map(String::as_str).collect();
    assert_eq!(with_errors, BTreeSet::from(["crab_ref.smd", "half.smd", "knight.mdl"]), "{by_errors:?}");
}

#[test]
fn one_job_or_two_give_the_same_report() {
    let root = temp_dir("jobs");
    defect_tree(&root.join("tree"));
    let tree = root.join("tree");
    let report = |jobs: &str| {
        let path = root.join(format!("jobs{jobs}.json"));
        bonescope(&["check", tree.to_str().unwrap(), "--jobs", jobs, "--json", path.to_str().unwrap()]);
        std::fs::read_to_string(&path).unwrap()
    };
    assert_eq!(report("1"), report("2"), "the report does not depend on which worker checked what");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn fail_on_sets_the_exit_code() {
    let root = temp_dir("fail-on");
    let steady = |_| 10.0;
    // Only a warning (a missing texture) in this tree.
    write(&root.join("a/ghoul_ref.smd"), &reference("nothere.bmp"));
    write(&root.join("a/idle.smd"), &animation(4, steady, &[]));
    let path = root.to_str().unwrap();
    assert_eq!(bonescope(&["check", path]).0, 0, "no error: --fail-on error passes");
    assert_eq!(bonescope(&["check", path, "--fail-on", "warning"]).0, 1, "a warning fails --fail-on warning");
    assert_eq!(bonescope(&["check", path, "--fail-on", "never"]).0, 0);
    // A clean tree passes --fail-on warning; --fail-on info fails on anything, even a clip's harmless worst
    // stretch (an info for every clip).
    let clean = temp_dir("fail-on-clean");
    write(&clean.join("a/hero_ref.smd"), &reference("hero.bmp"));
    write(&clean.join("a/hero.bmp"), "BM");
    write(&clean.join("a/idle.smd"), &animation(4, steady, &[]));
    let (code, out, _) = bonescope(&["check", clean.to_str().unwrap(), "--fail-on", "warning"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("OK: no findings at --fail-on warning"), "{out}");
    let (code, out, _) = bonescope(&["check", clean.to_str().unwrap(), "--fail-on", "info"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL: 1 finding at --fail-on info"), "{out}");
    // A path that does not exist is a usage error.
    assert_eq!(bonescope(&["check", root.join("nowhere").to_str().unwrap()]).0, 2);
    let _ = std::fs::remove_dir_all(&root);
    let _ = std::fs::remove_dir_all(&clean);
}

#[test]
fn the_corpus_scripts_are_characters_that_load() {
    let Some(corpus) = common::corpus() else { return };
    let dir = temp_dir("corpus");
    let json_path = dir.join("corpus.json");
    let qc = corpus.join("qc");
    let mds = corpus.join("mds");
    let (code, out, err) = bonescope(&[
        "check",
        qc.to_str().unwrap(),
        mds.to_str().unwrap(),
        "--json",
        json_path.to_str().unwrap(),
        "--fail-on",
        "never",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    let characters = json["characters"].as_array().unwrap();
    let names: Vec<&str> = characters.iter().map(|c| c["name"].as_str().unwrap()).collect();
    for want in ["headcrab.mdl", "Bloodfly", "HUM_HEAD_FATBALD"] {
        assert!(names.iter().any(|n| n.eq_ignore_ascii_case(want)), "{want} among {names:?}");
    }
    assert_eq!(characters.len(), 3, "each script is one character and claims its files: {names:?}");
    for c in characters {
        assert_eq!(c["loaded"], true, "{}", c["name"]);
        assert_eq!(c["grouping"], "script");
        for f in c["findings"].as_array().unwrap() {
            assert!(!["load_error", "bind_error"].contains(&f["kind"].as_str().unwrap()), "{f}");
        }
    }
    // The corpus holds part of the Gothic kit: the head's viseme animation is not in it, and that is said.
    let missing: Vec<String> = characters
        .iter()
        .flat_map(|c| c["findings"].as_array().unwrap().iter().filter(|f| f["kind"] == "missing_file"))
        .map(|f| f["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(missing, ["the script names animation \"HUM_HEAD_FATBALD_VISEME.ASC\", which is not there"]);
    let headcrab =
        characters.iter().find(|c| c["name"].as_str().unwrap().eq_ignore_ascii_case("headcrab.mdl")).unwrap();
    assert_eq!(headcrab["files"].as_array().unwrap().len(), 26, "the QC, its include, the reference and 23 animations");
    assert_eq!(headcrab["clips"].as_array().unwrap().len(), 23);
    assert_eq!(json["summary"]["files"], 49, "every SMD, ASC and script of the two folders, each in one character");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--thumbnails`: every character that loaded gets a picture in the page (drawn headless on lavapipe), the file
/// that did not load none; the torn character is drawn at its tearing frame with the edge ringed in red.
#[cfg(feature = "gui")]
#[test]
fn thumbnails_are_embedded_for_loaded_characters() {
    let root = temp_dir("thumbnails");
    defect_tree(&root.join("tree"));
    let html_path = root.join("report.html");
    let (code, out, err) = bonescope(&[
        "check",
        root.join("tree").to_str().unwrap(),
        "--html",
        html_path.to_str().unwrap(),
        "--thumbnails",
        "--fail-on",
        "never",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    let html = std::fs::read_to_string(&html_path).unwrap();
    let json = page_report(&html);
    for c in json["characters"].as_array().unwrap() {
        let thumbnail = c["thumbnail"].as_str();
        if c["loaded"] == true {
            let uri = thumbnail.unwrap_or_else(|| panic!("{} has a thumbnail", c["name"]));
            assert!(uri.starts_with("data:image/jpeg;base64,"));
        } else {
            assert!(thumbnail.is_none(), "{} did not load: no picture", c["name"]);
        }
    }
    let crab = json["characters"].as_array().unwrap().iter().find(|c| c["name"] == "crab_ref.smd").unwrap();
    let jpeg = decode_base64(crab["thumbnail"].as_str().unwrap().trim_start_matches("data:image/jpeg;base64,"));
    assert!(jpeg.len() < 16 * 1024, "a thumbnail is small: {} bytes", jpeg.len());
    let image = image::load_from_memory(&jpeg).unwrap().to_rgba8();
    assert_eq!(image.dimensions(), (192, 144));
    // The mark's colour (255, 40, 40), drawn on top of everything (JPEG moves it a little); the stretch
    // shading's reds are other shades.
    let marked =
        image.pixels().filter(|p| p[0] >= 215 && (10..=80).contains(&p[1]) && (10..=80).contains(&p[2])).count();
    assert!(marked > 20, "the torn edge is ringed in red ({marked} pixels of the mark's colour)");
    let _ = std::fs::remove_dir_all(&root);
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = text.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &c)| n | (u32::from(value(c)) << (18 - 6 * i)));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// The corpus's modular character: the kit's body and T-shirt PSKs share one skeleton and bind pose, so `check`
/// of their folder checks them as one character (the other PSKs there stay characters of their own).
#[test]
fn a_modular_characters_parts_in_one_folder_are_one_character() {
    let Some(corpus) = common::corpus() else { return };
    let root = temp_dir("parts");
    let json_path = root.join("report.json");
    let (code, out, err) = bonescope(&[
        "check",
        corpus.join("psk").to_str().unwrap(),
        "--json",
        json_path.to_str().unwrap(),
        "--fail-on",
        "never",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    let characters = json["characters"].as_array().unwrap();
    let kit: Vec<&Value> = characters.iter().filter(|c| c["files"].to_string().contains("kit_SK_")).collect();
    assert_eq!(kit.len(), 1, "body and shirt are one character: {kit:?}");
    assert_eq!(kit[0]["files"].as_array().unwrap().len(), 2);
    assert_eq!(characters.len(), 4, "Suzanne, examplemesh and the gnome stay apart");
    let _ = std::fs::remove_dir_all(&root);
}

/// A Gothic ASC: bone `Bip01` with the mesh object `Body` (a quad) under it when `mesh`, else `Bip01`'s
/// animation for frames `first..=last` (its x is the frame number).
fn gothic_asc(mesh: bool, first: i32, last: i32) -> String {
    let tm = |name: &str, x: i32| {
        format!(
            "\t*NODE_TM {{\n\t\t*NODE_NAME \"{name}\"\n\t\t*TM_ROW0 1 0 0\n\t\t*TM_ROW1 0 1 0\n\t\t*TM_ROW2 0 0 1\n\t\t\
             *TM_ROW3 {x} 0 0\n\t}}\n"
        )
    };
    let mut s = format!(
        "*3DSMAX_ASCIIEXPORT\t200\n*SCENE {{\n\t*SCENE_FIRSTFRAME {first}\n\t*SCENE_LASTFRAME {last}\n\t\
         *SCENE_FRAMESPEED 25\n\t*SCENE_TICKSPERFRAME 192\n}}\n*HELPEROBJECT {{\n\t*NODE_NAME \"Bip01\"\n{}",
        tm("Bip01", first)
    );
    if mesh {
        s += "}\n*GEOMOBJECT {\n\t*NODE_NAME \"Body\"\n\t*NODE_PARENT \"Bip01\"\n";
        s += &tm("Body", 0);
        s += "\t*MESH {\n\t\t*TIMEVALUE 0\n\t\t*MESH_NUMVERTEX 4\n\t\t*MESH_NUMFACES 2\n\t\t*MESH_VERTEX_LIST {\n\
              \t\t\t*MESH_VERTEX 0 0 0 0\n\t\t\t*MESH_VERTEX 1 10 0 0\n\t\t\t*MESH_VERTEX 2 10 10 0\n\
              \t\t\t*MESH_VERTEX 3 0 10 0\n\t\t}\n\t\t*MESH_FACE_LIST {\n\
              \t\t\t*MESH_FACE 0: A: 0 B: 1 C: 2 AB: 1 BC: 1 CA: 0 *MESH_SMOOTHING 1 *MESH_MTLID 0\n\
              \t\t\t*MESH_FACE 1: A: 0 B: 2 C: 3 AB: 1 BC: 1 CA: 0 *MESH_SMOOTHING 1 *MESH_MTLID 0\n\t\t}\n\t}\n}\n";
    } else {
        let samples: String =
            (first..=last).map(|f| format!("\t\t\t*CONTROL_POS_SAMPLE {} {f} 0 0\n", f * 192)).collect();
        s += &format!(
            "\t*TM_ANIMATION {{\n\t\t*NODE_NAME \"Bip01\"\n\t\t*CONTROL_POS_TRACK {{\n{samples}\t\t}}\n\t}}\n}}\n"
        );
    }
    s
}

#[test]
fn a_gothic_overlay_without_a_mesh_is_checked_on_its_base_model() {
    let root = temp_dir("overlay");
    let anims = root.join("tree/Anims");
    let ani = |name: &str, file: &str, last: i32| {
        format!("\t\tani (\"{name}\" 1 \"{name}\" 0.0 0.2 M. \"{file}\" F 0 {last})\n")
    };
    write(&anims.join("ASC_BODIES/HUM_BODY.ASC"), &gothic_asc(true, 0, 0));
    write(&anims.join("ASC_ANIMS/HUMAN/HUM_RUN.ASC"), &gothic_asc(false, 0, 10));
    write(
        &anims.join("Humans.mds"),
        &format!(
            "Model (\"HuS\")\n{{\n\tmeshAndTree (\"Hum_Body.asc\")\n\taniEnum\n\t{{\n{}\t}}\n}}\n",
            ani("s_Run", "Hum_Run.asc", 10)
        ),
    );
    // The overlay: no mesh, no skeleton of its own; its animation file beside it.
    write(
        &anims.join("MDS_OVERLAY/HUMANS_SWIM.MDS"),
        &format!("Model (\"HuS\")\n{{\n\taniEnum\n\t{{\n{}\t}}\n}}\n", ani("s_Swim", "Hum_Swim.asc", 20)),
    );
    write(&anims.join("MDS_OVERLAY/HUM_SWIM.ASC"), &gothic_asc(false, 0, 20));
    let json_path = root.join("report.json");
    let tree = root.join("tree");
    let (code, out, err) =
        bonescope(&["check", tree.to_str().unwrap(), "--json", json_path.to_str().unwrap(), "--fail-on", "never"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    let characters = json["characters"].as_array().unwrap();
    assert_eq!(characters.len(), 2, "{characters:#?}");
    let overlay = characters.iter().find(|c| c["main"].as_str().unwrap().ends_with("HUMANS_SWIM.MDS")).unwrap();
    assert_eq!(overlay["clips"], serde_json::json!(["s_Swim"]), "only the overlay's clips: {overlay:#?}");
    assert_eq!(overlay["triangles"], 2, "the base's mesh");
    let files = overlay["files"].to_string();
    assert!(files.contains("HUM_BODY.ASC") && files.contains("HUM_SWIM.ASC"), "{files}");
    let findings = overlay["findings"].as_array().unwrap();
    let kinds: Vec<(&str, &str)> =
        findings.iter().map(|f| (f["kind"].as_str().unwrap(), f["clip"].as_str().unwrap_or(""))).collect();
    assert!(kinds.contains(&("overlay_on_base", "")), "{kinds:?}");
    // The clip was checked on the base's mesh: its worst stretch is at the same place of the base's mesh as the
    // base's own clip's, so it is one finding, the base's, listing the overlay's clip with its file.
    let base = characters.iter().find(|c| c["main"].as_str().unwrap().ends_with("Humans.mds")).unwrap();
    let stretch = base["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kind"] == "clip_stretch")
        .unwrap_or_else(|| panic!("{base:#}"));
    let swim = stretch["clips"].as_array().unwrap().iter().find(|c| c["clip"] == "s_Swim").expect("s_Swim checked");
    assert!(swim["file"].as_str().unwrap().ends_with("MDS_OVERLAY/HUM_SWIM.ASC"), "{swim}");
    assert_eq!(stretch["occurrences"], 2, "{stretch}");
    assert!(stretch["mesh"].as_str().unwrap().contains("HUM_BODY.ASC"), "named by its file: {stretch}");
    assert!(!kinds.iter().any(|(k, _)| *k == "clip_stretch"), "not repeated by the overlay: {kinds:?}");
    // Its bone is the base's: nothing unmatched; and the base's own mesh and bones are the base's findings.
    assert!(!kinds.iter().any(|(k, _)| *k == "unmatched_track" || *k == "unused_bone"), "{kinds:?}");
    assert_eq!(base["clips"], serde_json::json!(["s_Run"]));
    assert_eq!(overlay["overlay_of"].as_str().map(|p| p.ends_with("Humans.mds")), Some(true));
    let _ = std::fs::remove_dir_all(&root);
}
