//! The command line as a script would use it: `info` and `pose` on the demo, on missing and unknown files.

use std::process::Command;

fn bonescope(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bonescope")).args(args).output().expect("run bonescope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn info_describes_the_demo() {
    let (code, out, _) = bonescope(&["info", "@demo"]);
    assert_eq!(code, 0);
    assert!(out.contains("bones:     6"), "{out}");
    assert!(out.contains("\"Sway\": 61 frames at 30 fps, 2.000 s"), "{out}");
}

#[test]
fn info_json_reports_counts_and_errors_per_file() {
    let dir = std::env::temp_dir().join(format!("bonescope-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let unknown = dir.join("notes.txt");
    std::fs::write(&unknown, "hello").unwrap();
    let missing = dir.join("missing.psk");
    let (code, out, _) = bonescope(&["info", "--json", "@demo", missing.to_str().unwrap(), unknown.to_str().unwrap()]);
    assert_eq!(code, 1, "a failed file makes the exit code non-zero");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let files = v.as_array().unwrap();
    assert_eq!(files.len(), 3, "every file is reported");
    assert_eq!(files[0]["bones"], 6);
    assert_eq!(files[0]["triangles"], 2880);
    assert_eq!(files[0]["clips"][1]["name"], "Curl");
    assert!(files[1]["error"].as_str().unwrap().contains("missing.psk: cannot open"));
    assert!(files[2]["error"].as_str().unwrap().contains("unknown format"));
}

#[test]
fn info_text_errors_are_one_line_naming_the_file() {
    let (code, out, err) = bonescope(&["info", "/no/such/file.smd", "@demo"]);
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: /no/such/file.smd: cannot open"), "{err}");
    assert!(out.contains("@demo: built-in demo"), "the other file is still reported");
}

#[test]
fn pose_prints_bind_and_animated_matrices() {
    let (code, out, _) = bonescope(&["pose", "@demo", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let bones = v["bones"].as_array().unwrap();
    assert_eq!(bones.len(), 6);
    // Bind pose: the skinning matrix of every bone is the identity.
    for bone in bones {
        let m: Vec<f64> = bone["skinning"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        for (i, x) in m.iter().enumerate() {
            let identity = if i % 5 == 0 { 1.0 } else { 0.0 };
            assert!((x - identity).abs() < 1e-5, "{}: {m:?}", bone["name"]);
        }
    }
    // Segment 5 sits 5 units up the chain in the bind pose (column-major: translation at 12..15).
    assert!((bones[5]["to_root"][13].as_f64().unwrap() - 5.0).abs() < 1e-5);

    let (code, out, _) = bonescope(&["pose", "@demo", "--clip", "sway", "--time", "0.5", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let tip_x = v["bones"][5]["to_root"][12].as_f64().unwrap();
    assert!(tip_x.abs() > 0.2, "the swaying tip left the axis: x = {tip_x}");
}

#[test]
fn pose_with_unknown_clip_lists_the_clips() {
    let (code, _, err) = bonescope(&["pose", "@demo", "--clip", "Walk"]);
    assert_eq!(code, 1);
    assert!(err.contains("no clip named 'Walk'; clips: Sway, Curl"), "{err}");
}

#[test]
fn info_and_pose_on_a_recording() {
    let rec = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo_recording.bin");
    let (code, out, _) = bonescope(&["info", rec]);
    assert_eq!(code, 0);
    assert!(out.contains("MRTK input animation version 1.1"), "{out}");
    assert!(out.contains("4 marker(s)"), "{out}");
    let (code, out, _) = bonescope(&["pose", rec, "--time", "1.7", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["pose"]["left"]["joints"].as_array().unwrap().len(), 27);
    assert_eq!(v["pose"]["left"]["joints"][1]["name"], "Wrist");
    assert_eq!(v["pose"]["left"]["tracked"], true);
    let d = &v["pose"]["gaze"]["direction"];
    let len = (0..3).map(|i| d[i].as_f64().unwrap().powi(2)).sum::<f64>().sqrt();
    assert!((len - 1.0).abs() < 1e-4, "gaze direction is normalised: {len}");
}

/// The overview lists every subcommand with its help line; a subcommand's help (`info --help`, `help info`)
/// starts with its own line, not the doc comment of the loading options it shares, and lists its options; an
/// unknown option or a missing file is a usage error (exit code 2).
#[test]
fn help_lists_every_subcommand_and_each_has_its_options() {
    let (code, out, _) = bonescope(&["--help"]);
    assert_eq!(code, 0);
    for (name, about, option) in [
        ("info", "Describe files: format, bones", "--retarget <MODE>"),
        ("pose", "Print the evaluated pose", "--clip <"),
        ("check", "Check every character under folders", "--fail-on <"),
        ("export", "Export the model, skeleton and clips", "--output <"),
    ] {
        let listed = out.lines().any(|line| line.trim_start().starts_with(name) && line.contains(about));
        assert!(listed, "`{name}` with its help line in:\n{out}");
        for help in [vec![name, "--help"], vec!["help", name]] {
            let (code, text, _) = bonescope(&help);
            assert_eq!(code, 0, "{help:?}");
            assert!(text.starts_with(about), "{help:?} starts with its help line:\n{text}");
            assert!(text.contains(&format!("Usage: bonescope {name} [OPTIONS]")), "{help:?}:\n{text}");
            assert!(text.contains(option), "{help:?} has its options:\n{text}");
            assert!(!text.contains("How files are opened"), "{help:?}:\n{text}");
        }
    }
    let (_, info_help, _) = bonescope(&["info", "--help"]);
    assert!(info_help.contains("--json") && info_help.contains("--check"), "{info_help}");
    let (code, _, err) = bonescope(&["info", "--no-such-option", "@demo"]);
    assert_eq!(code, 2);
    assert!(err.contains("unexpected argument '--no-such-option'"), "{err}");
    let (code, _, err) = bonescope(&["pose"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("required"), "{err}");
}
