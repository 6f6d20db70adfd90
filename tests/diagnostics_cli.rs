//! `bonescope info --check`: the diagnostics through the command line, as text and JSON; findings never change
//! the exit code, a file that fails to load does.

use std::process::Command;

fn bonescope(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bonescope")).args(args).output().expect("run bonescope");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn check_on_the_demo_prints_findings_and_exits_zero() {
    let (code, out) = bonescope(&["info", "--check", "@demo"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("findings:  0 errors, "), "{out}");
    // Both clips are measured for stretch, with the time and edge of the worst one.
    assert!(out.contains("clip 'Sway': largest edge stretch"), "{out}");
    assert!(out.contains("clip 'Curl': largest edge stretch"), "{out}");
    // Without --check there are no findings.
    let (_, plain) = bonescope(&["info", "@demo"]);
    assert!(!plain.contains("findings"), "{plain}");
}

#[test]
fn check_json_lists_findings_with_subjects_and_a_load_failure_still_fails() {
    let missing = std::env::temp_dir().join(format!("bonescope-diag-{}-missing.psk", std::process::id()));
    let (code, out) = bonescope(&["info", "--check", "--json", "@demo", missing.to_str().unwrap()]);
    assert_eq!(code, 1, "the missing file fails; findings on the demo do not");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let findings = v[0]["findings"].as_array().unwrap();
    let stretch: Vec<&serde_json::Value> = findings.iter().filter(|f| f["kind"] == "clip_stretch").collect();
    assert_eq!(stretch.len(), 2);
    for f in stretch {
        assert_eq!(f["severity"], "info");
        assert!(f["subject"]["triangle"]["index"].as_u64().is_some(), "{f}");
        assert!(f["at"]["time"].as_f64().unwrap() >= 0.0);
        assert!(f["value"].as_f64().unwrap() < 2.0);
    }
    assert!(findings.iter().all(|f| f["severity"] != "error"));
    assert!(v[1]["error"].as_str().unwrap().contains("cannot open"));
    assert!(v[1].get("findings").is_none());
}
