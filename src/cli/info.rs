//! `bonescope info FILE…`: what each file holds (format, bones, vertices, triangles, materials with resolved
//! textures, morph targets, clips, recordings, warnings), as text or as JSON for scripts. A broken file gets one
//! line naming it and the problem; the other files are still reported. With `--check` the rig diagnostics
//! (`anim::diagnostics`) run on each loaded file and their findings follow its facts; findings never change the
//! exit code, only a file that fails to load does.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::{Value, json};

use bonescope::anim::diagnostics::{DiagnoseOptions, diagnose};
use bonescope::io::{self, LoadOptions};
use bonescope::scene::Asset;
use bonescope::source::Source;

/// Findings of one kind listed in the text output before the rest are counted (JSON lists them all).
const TEXT_FINDINGS_PER_KIND: usize = 10;

#[derive(clap::Args, Debug)]
pub struct InfoArgs {
    /// Files to describe.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print JSON (one array, one object per file) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Frame rate for formats that do not store one (SMD animations).
    #[arg(long, default_value_t = 30.0)]
    pub fps: f32,
    /// Also run the rig diagnostics (bind pose, weights, bone mapping, scale, degenerate triangles, textures,
    /// edge stretch per clip) and list the findings. Findings do not change the exit code.
    #[arg(long)]
    pub check: bool,
}

/// Runs the command; returns the process exit code (1 when any file failed).
pub fn run(args: &InfoArgs) -> i32 {
    let opts = LoadOptions { default_fps: args.fps, ..LoadOptions::default() };
    let mut reports = Vec::new();
    let mut failed = false;
    for source in Source::from_args(&args.files) {
        match source.load(&opts) {
            Ok(asset) => {
                let mut report = describe(&source, &asset);
                if args.check {
                    let findings = diagnose(&asset, &DiagnoseOptions::default());
                    report["findings"] = serde_json::to_value(&findings).unwrap_or_default();
                }
                reports.push(report);
            }
            Err(e) => {
                failed = true;
                if args.json {
                    reports.push(json!({ "file": source.to_string(), "error": e.to_string() }));
                } else {
                    eprintln!("error: {e}");
                }
            }
        }
    }
    let mut out = String::new();
    if args.json {
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&Value::Array(reports)).unwrap_or_default());
    } else {
        for report in &reports {
            print_text(&mut out, report);
        }
    }
    super::emit(&out);
    i32::from(failed)
}

/// The facts about one loaded file (or sample), as JSON (the text output is printed from the same value).
pub fn describe(source: &Source, asset: &Asset) -> Value {
    let materials: Vec<Value> = asset
        .materials
        .iter()
        .map(|m| {
            json!({
                "name": m.name,
                "diffuse": m.diffuse,
                "texture": m.texture.as_ref().map(|t| t.name.clone()),
                "texture_path": m.texture.as_ref().and_then(|t| t.path.clone()),
            })
        })
        .collect();
    let meshes: Vec<Value> = asset
        .meshes
        .iter()
        .map(|m| {
            json!({
                "name": m.name,
                "vertices": m.vertex_count(),
                "triangles": m.triangle_count(),
                "subsets": m.subsets.len(),
                "morph_targets": m.morph_targets.iter().map(|t| t.name.clone()).collect::<Vec<_>>(),
                "vertex_animation_frames": m.vertex_frames.len(),
            })
        })
        .collect();
    let clips: Vec<Value> = asset
        .clips
        .iter()
        .map(|c| {
            json!({
                "name": c.name,
                "frames": c.frame_count,
                "fps": c.frame_rate,
                "duration": c.duration,
                "tracks": c.tracks.len(),
                "keys": c.key_count(),
                "callback_keys": c.callback_keys.len(),
            })
        })
        .collect();
    let recordings: Vec<Value> = asset.recordings.iter().map(recording_json).collect();
    let companions: Vec<PathBuf> = source.path().map(io::animation_companions).unwrap_or_default();
    let kind = match source {
        Source::Sample(sample) => sample.title(),
        Source::File(_) => asset.kind(),
    };
    json!({
        "file": source.to_string(),
        "format": kind,
        "axes": asset.axes.description,
        "bones": asset.skeleton.len(),
        "bone_names": asset.skeleton.names,
        "vertices": asset.vertex_count(),
        "triangles": asset.triangle_count(),
        "meshes": meshes,
        "materials": materials,
        "clips": clips,
        "recordings": recordings,
        "companions": companions,
        "warnings": asset.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
    })
}

fn recording_json(recording: &bonescope::scene::Recording) -> Value {
    let summary = recording.summary();
    let mut value = serde_json::to_value(&summary).unwrap_or(Value::Null);
    // The text output prints the summary's own Display form.
    value["text"] = Value::String(summary.to_string());
    value
}

fn print_text(out: &mut String, report: &Value) {
    let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    let n = |v: &Value| v.as_u64().unwrap_or_default();
    let _ = writeln!(out, "{}: {}", report["file"].as_str().unwrap_or_default(), s(&report["format"]));
    let _ = writeln!(out, "  axes:      {}", s(&report["axes"]));
    let _ = writeln!(out, "  bones:     {}", n(&report["bones"]));
    let _ = writeln!(out, "  vertices:  {}", n(&report["vertices"]));
    let _ = writeln!(out, "  triangles: {}", n(&report["triangles"]));
    let list = |key: &str| report[key].as_array().cloned().unwrap_or_default();
    let meshes = list("meshes");
    if meshes.len() > 1 {
        let _ = writeln!(out, "  meshes:    {}", meshes.len());
    }
    for mesh in &meshes {
        let morphs = mesh["morph_targets"].as_array().cloned().unwrap_or_default();
        if !morphs.is_empty() {
            let names: Vec<String> = morphs.iter().map(s).collect();
            let _ = writeln!(out, "  morph targets of '{}': {} ({})", s(&mesh["name"]), names.len(), names.join(", "));
        }
        if n(&mesh["vertex_animation_frames"]) > 0 {
            let _ = writeln!(
                out,
                "  vertex animation of '{}': {} frames",
                s(&mesh["name"]),
                n(&mesh["vertex_animation_frames"])
            );
        }
    }
    let materials = list("materials");
    let _ = writeln!(out, "  materials: {}", materials.len());
    for (i, m) in materials.iter().enumerate() {
        let texture = match (m["texture"].as_str(), m["texture_path"].as_str()) {
            (Some(name), Some(path)) => format!(", texture {name} → {path}"),
            (Some(name), None) => format!(", texture {name} (not found)"),
            _ => String::new(),
        };
        let _ = writeln!(out, "    [{i}] {}{texture}", s(&m["name"]));
    }
    let clips = list("clips");
    let _ = writeln!(out, "  clips:     {}", clips.len());
    for c in &clips {
        let _ = writeln!(
            out,
            "    \"{}\": {} frames at {} fps, {:.3} s, {} tracks, {} keys{}",
            s(&c["name"]),
            n(&c["frames"]),
            c["fps"].as_f64().unwrap_or_default(),
            c["duration"].as_f64().unwrap_or_default(),
            n(&c["tracks"]),
            n(&c["keys"]),
            match n(&c["callback_keys"]) {
                0 => String::new(),
                k => format!(", {k} callback keys"),
            }
        );
    }
    for r in list("recordings") {
        for line in s(&r["text"]).lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    for c in list("companions") {
        let _ = writeln!(out, "  animation beside it: {} (open both: bonescope FILE {})", s(&c), s(&c));
    }
    let warnings = list("warnings");
    if !warnings.is_empty() {
        let _ = writeln!(out, "  warnings:  {}", warnings.len());
        for w in &warnings {
            let _ = writeln!(out, "    {}", s(w));
        }
    }
    if let Some(findings) = report["findings"].as_array() {
        print_findings(out, findings);
    }
}

/// The diagnostics as text: a count per severity, then the findings (most severe first), at most
/// [`TEXT_FINDINGS_PER_KIND`] of each kind.
fn print_findings(out: &mut String, findings: &[Value]) {
    let severity = |f: &Value| f["severity"].as_str().unwrap_or_default().to_owned();
    let count = |name: &str| findings.iter().filter(|f| severity(f) == name).count();
    let (errors, warnings, infos) = (count("error"), count("warning"), count("info"));
    if findings.is_empty() {
        let _ = writeln!(out, "  findings:  none");
        return;
    }
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let _ = writeln!(
        out,
        "  findings:  {}, {}, {}",
        plural(errors, "error", "errors"),
        plural(warnings, "warning", "warnings"),
        plural(infos, "info", "infos")
    );
    let mut shown: Vec<(String, usize)> = Vec::new();
    for f in findings {
        let kind = f["kind"].as_str().unwrap_or_default().to_owned();
        let seen = match shown.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                shown.push((kind.clone(), 1));
                1
            }
        };
        if seen <= TEXT_FINDINGS_PER_KIND {
            let _ = writeln!(out, "    {:<8} {:<20} {}", severity(f), kind, f["message"].as_str().unwrap_or_default());
        }
    }
    for (kind, n) in shown.iter().filter(|(_, n)| *n > TEXT_FINDINGS_PER_KIND) {
        let _ = writeln!(out, "    … {} more {kind} findings (all of them with --json)", n - TEXT_FINDINGS_PER_KIND);
    }
}
