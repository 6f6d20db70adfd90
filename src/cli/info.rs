//! `bonescope info FILE…`: what each file holds (format, bones, vertices, triangles, materials with resolved
//! textures, morph targets, clips, recordings, warnings), as text or as JSON for scripts. A broken file gets one
//! line naming it and the problem; the other files are still reported.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use bonescope::io::{self, LoadOptions};
use bonescope::scene::Asset;

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
}

/// Runs the command; returns the process exit code (1 when any file failed).
pub fn run(args: &InfoArgs) -> i32 {
    let opts = LoadOptions { default_fps: args.fps, ..LoadOptions::default() };
    let mut reports = Vec::new();
    let mut failed = false;
    for path in &args.files {
        match io::load_path(path, &opts) {
            Ok(asset) => reports.push(describe(path, &asset)),
            Err(e) => {
                failed = true;
                if args.json {
                    reports.push(json!({ "file": path, "error": e.to_string() }));
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

/// The facts about one loaded file, as JSON (the text output is printed from the same value).
pub fn describe(path: &Path, asset: &Asset) -> Value {
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
    let companions: Vec<PathBuf> = io::animation_companions(path);
    json!({
        "file": path,
        "format": asset.format.name(),
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
}
