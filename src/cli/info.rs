//! `bonescope info FILE…`: what each file holds (format, how it was read where its exporter matters, bones,
//! vertices, triangles, materials with resolved textures, morph targets per mesh with the vertices each moves
//! and its largest displacement, clips, recordings, warnings), as text or
//! as JSON for scripts. A broken file gets one line naming it and the problem; the other files are still
//! reported. Every file is opened as the viewer, `render` and `export` open a file set — through
//! [`LoadedSet::add`], the step of `source::load_set` — so `info` describes the character they show: a file
//! that joins the model before it (animation files, a part of a modular character, a Gothic head, vertex
//! animation: [`io::joining`]) is bound to it and its bind report is shown with the model; a file nothing of
//! which joins is described as a model of its own. With `--check` the rig diagnostics (`anim::diagnostics`) run and their findings follow the facts;
//! given several files, `--check` reads them as `pose` does — the first is the model, every other file is bound
//! to it ([`LoadedSet::add`], the step of `source::load_set`) — and reports the tracks that matched no bone and
//! each clip's worst stretch.
//! Findings never change the exit code; a file that fails to load does, and so does a model that opened
//! incomplete (a file its script names is not there: an error-level warning, the rest is still described).

use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::{Value, json};

use bonescope::anim::diagnostics::{DiagnoseOptions, diagnose};
use bonescope::io::{self, LoadedSet};
use bonescope::scene::Asset;
use bonescope::source::Source;

/// Findings of one kind listed in the text output before the rest are counted (JSON lists them all).
const TEXT_FINDINGS_PER_KIND: usize = 10;

/// Morph targets of one mesh listed in the text output before the rest are counted (JSON lists them all).
const TEXT_MORPH_TARGETS: usize = 40;

#[derive(clap::Args, Debug)]
pub struct InfoArgs {
    /// Files to describe.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print JSON (one array, one object per file) instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub load: super::LoadArgs,
    /// Also run the rig diagnostics (bind pose, weights, bone mapping, scale, degenerate triangles, textures,
    /// edge stretch per clip) and list the findings. With several files, the first is the model and the others
    /// are animations bound to it, as `pose` does. Findings do not change the exit code.
    #[arg(long)]
    pub check: bool,
}

/// Runs the command; returns the process exit code (1 when any file failed or a model is incomplete).
pub fn run(args: &InfoArgs) -> i32 {
    let opts = args.load.options();
    // One slot per report, in the order of the files: a model's slot is filled once the files bound to it are in.
    let mut slots: Vec<Option<Value>> = Vec::new();
    let mut failed = false;
    let mut incomplete = false;
    let mut fail = |slots: &mut Vec<Option<Value>>, source: &Source, e: &io::LoadError| {
        failed = true;
        if args.json {
            slots.push(Some(json!({ "file": source.to_string(), "error": e.to_string() })));
        } else {
            eprintln!("error: {e}");
        }
    };
    // The model being described, its slot, and the set the files after it are bound to.
    let mut open: Option<(Source, usize, LoadedSet)> = None;
    for source in Source::from_args(&args.files) {
        let loaded = source.load(&opts);
        // A file that joins the model before it (its animations, a part, a head, vertex animation: what
        // `io::joining` says the viewer, `render` and `export` do with it) describes one character with it; with
        // `--check` every file after the first binds, as `pose` does. A file nothing of which joins is described
        // as a model of its own.
        let binds = match (&loaded, &open) {
            (Ok(asset), Some((_, _, set))) => {
                args.check || set.asset.as_ref().is_some_and(|model| io::joining(model, asset).whole())
            }
            _ => false,
        };
        if let (true, Some((_, _, set))) = (binds, &mut open) {
            set.add(loaded, &opts);
            for e in std::mem::take(&mut set.errors) {
                fail(&mut slots, &source, &e);
            }
            continue;
        }
        match loaded {
            Err(e) => fail(&mut slots, &source, &e),
            Ok(asset) => {
                // A model whose script names files that are not there opens without them: it is described,
                // and the exit code still says that it is incomplete.
                incomplete |= asset.warnings.iter().any(bonescope::scene::Warning::is_error);
                if let Some(done) = open.take() {
                    drop(finish(args, done, &mut slots));
                }
                slots.push(None);
                // The set's first file, as every command opens it (stood upright where it lies down).
                let mut set = LoadedSet::default();
                set.add(Ok(asset), &opts);
                open = Some((source, slots.len() - 1, set));
            }
        }
    }
    if let Some(done) = open.take() {
        // The last model is not freed: the process ends right after printing, and the kernel takes its memory
        // back at once, where freeing it block by block (hundreds of thousands of curve arrays for a large PSA)
        // would cost milliseconds more than the load of a typical file. Earlier models are freed as usual, so a
        // long list of files does not hold them all.
        std::mem::forget(finish(args, done, &mut slots));
    }
    let reports: Vec<Value> = slots.into_iter().flatten().collect();
    let mut out = String::new();
    if args.json {
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&Value::Array(reports)).unwrap_or_default());
    } else {
        for report in &reports {
            print_text(&mut out, report);
        }
    }
    super::emit(&out);
    i32::from(failed || incomplete)
}

/// Describes a model with the files bound to it (their bind reports under `bound`), and with `--check` the
/// findings of the diagnostics on the bound scene, into the model's slot.
/// Returns the set, for the caller to free or not.
fn finish(args: &InfoArgs, (source, slot, set): (Source, usize, LoadedSet), slots: &mut [Option<Value>]) -> LoadedSet {
    let Some(asset) = &set.asset else { return set };
    let mut report = describe(&source, asset);
    if !set.reports.is_empty() {
        report["bound"] = serde_json::to_value(&set.reports).unwrap_or_default();
    }
    if args.check {
        let findings = diagnose(asset, &DiagnoseOptions::default());
        report["findings"] = serde_json::to_value(&findings).unwrap_or_default();
    }
    if let Some(s) = slots.get_mut(slot) {
        *s = Some(report);
    }
    set
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
                "texture_found_in": m.texture.as_ref().and_then(|t| t.found_in).map(|f| f.label()),
                "texture_searched": m.texture.as_ref().map(|t| t.searched.clone()).unwrap_or_default(),
                "texture_tried": m.texture.as_ref().map(|t| t.tried.clone()).unwrap_or_default(),
                "texture_material": m.texture.as_ref().and_then(|t| t.material_file.clone()),
                "texture_embedded": m.texture.as_ref().and_then(|t| t.pixels.as_ref()).map(|p| [p.width, p.height]),
                "alpha": m.alpha,
                "chrome": m.chrome,
                "flat_shade": m.flat_shade,
                "fullbright": m.fullbright,
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
                "morph_targets": m.morph_targets.iter().map(super::morph_args::target_json).collect::<Vec<_>>(),
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
                "fps": f32_value(c.frame_rate),
                "duration": c.duration,
                "tracks": c.tracks.len(),
                "morph_tracks": c.morph_tracks.len(),
                "keys": c.key_count(),
                "callback_keys": c.callback_keys.len(),
                "loop": c.script.as_ref().map(|s| s.looping),
                "additive": c.script.as_ref().map(|s| s.additive),
                "next": c.script.as_ref().and_then(|s| s.next.clone()),
                "blend_animations": c.script.as_ref().and_then(|s| s.blend.as_ref()).map(|b| b.animations.len() + 1),
            })
        })
        .collect();
    let recordings: Vec<Value> = asset.recordings.iter().map(recording_json).collect();
    let companions: Vec<PathBuf> =
        source.path().map(|p| io::animation_companions(&io::Files::disk(), p)).unwrap_or_default();
    let kind = match source {
        Source::Sample(sample) => sample.title(),
        Source::File(_) => asset.kind(),
    };
    json!({
        "file": source.to_string(),
        "format": kind,
        "readings": asset.readings,
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
        "incomplete": asset.warnings.iter().any(bonescope::scene::Warning::is_error),
        "script": script_json(asset),
    })
}

/// The model script (QC/MDS/MMS) the asset was opened from: everything it describes, plus the names of the
/// commands read and ignored. `null` for single files.
fn script_json(asset: &Asset) -> Value {
    let Some(script) = asset.model_script.as_deref() else { return Value::Null };
    let mut value = serde_json::to_value(script).unwrap_or(Value::Null);
    value["language"] = Value::String(script.language.name().to_owned());
    value["ignored_commands"] = json!(script.ignored_names());
    value
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
    // Each reading as `Reading`'s Display writes it: "topic: choice (basis)".
    for (i, r) in report["readings"].as_array().into_iter().flatten().enumerate() {
        let assumed = if r["assumed"].as_bool() == Some(true) { "assumed: " } else { "" };
        let line = format!("{}: {} ({assumed}{})", s(&r["topic"]), s(&r["choice"]), s(&r["basis"]));
        let _ = writeln!(out, "  {:<10} {line}", if i == 0 { "read as:" } else { "" });
    }
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
            let _ = writeln!(out, "  morph targets of '{}': {}", s(&mesh["name"]), morphs.len());
            for t in morphs.iter().take(TEXT_MORPH_TARGETS) {
                let _ = writeln!(
                    out,
                    "    {}: {} vertices, largest displacement {:.6}",
                    s(&t["name"]),
                    n(&t["vertices"]),
                    t["largest_displacement"].as_f64().unwrap_or_default()
                );
            }
            if morphs.len() > TEXT_MORPH_TARGETS {
                let _ = writeln!(out, "    … {} more (all of them with --json)", morphs.len() - TEXT_MORPH_TARGETS);
            }
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
            (Some(name), None) if m["texture_embedded"].is_array() => {
                let size = &m["texture_embedded"];
                format!(", texture {name} ({}×{}, in the model)", size[0], size[1])
            }
            (Some(name), Some(path)) => match m["texture_found_in"].as_str() {
                Some(from) => match m["texture_material"].as_str() {
                    Some(vmt) => format!(", texture {name} → {path} ({from}, named by {vmt})"),
                    None => format!(", texture {name} → {path} ({from})"),
                },
                None => format!(", texture {name} → {path}"),
            },
            (Some(name), None) => {
                let strings = |key: &str| -> Vec<String> {
                    m[key].as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
                };
                let (tried, searched) = (strings("texture_tried"), strings("texture_searched"));
                if searched.is_empty() {
                    format!(", texture {name} (not found)")
                } else {
                    format!(", texture {name} (not found; tried {} in {})", tried.join(", "), searched.join(", "))
                }
            }
            _ => String::new(),
        };
        let mut looks: Vec<String> = Vec::new();
        match m["alpha"].as_str() {
            Some("additive") => looks.push("additive".to_owned()),
            _ if m["alpha"]["mask"].is_object() => looks.push("masked".to_owned()),
            _ => {}
        }
        for (key, label) in [("chrome", "chrome"), ("flat_shade", "flat shade"), ("fullbright", "full bright")] {
            if m[key].as_bool() == Some(true) {
                looks.push(label.to_owned());
            }
        }
        let looks = if looks.is_empty() { String::new() } else { format!(" [{}]", looks.join(", ")) };
        let _ = writeln!(out, "    [{i}] {}{texture}{looks}", s(&m["name"]));
    }
    let clips = list("clips");
    let _ = writeln!(out, "  clips:     {}", clips.len());
    for c in &clips {
        let _ = writeln!(
            out,
            "    \"{}\": {} frames at {} fps, {:.3} s, {} tracks, {}{} keys{}",
            s(&c["name"]),
            n(&c["frames"]),
            short_number(c["fps"].as_f64().unwrap_or_default()),
            c["duration"].as_f64().unwrap_or_default(),
            n(&c["tracks"]),
            match n(&c["morph_tracks"]) {
                0 => String::new(),
                1 => "1 morph weight track, ".to_owned(),
                k => format!("{k} morph weight tracks, "),
            },
            n(&c["keys"]),
            match n(&c["callback_keys"]) {
                0 => String::new(),
                k => format!(", {k} callback keys"),
            }
        );
        if let Some(blends) = c["blend_animations"].as_u64() {
            let _ = writeln!(out, "      a blend of {blends} animations");
        }
    }
    for r in list("recordings") {
        for line in s(&r["text"]).lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    for c in list("companions") {
        let _ = writeln!(out, "  animation beside it: {} (open both: bonescope FILE {})", s(&c), s(&c));
    }
    for bound in list("bound") {
        print_bind_report(out, &bound);
    }
    let warnings = list("warnings");
    if !warnings.is_empty() {
        let errors = warnings.iter().filter(|w| w.as_str().is_some_and(|w| w.starts_with("error: "))).count();
        match errors {
            0 => {
                let _ = writeln!(out, "  warnings:  {}", warnings.len());
            }
            _ => {
                let _ = writeln!(
                    out,
                    "  warnings:  {} ({errors} error{}: the model is incomplete)",
                    warnings.len(),
                    if errors == 1 { "" } else { "s" }
                );
            }
        }
        for w in &warnings {
            let _ = writeln!(out, "    {}", s(w));
        }
    }
    if !report["script"].is_null() {
        print_script(out, &report["script"]);
    }
    if let Some(findings) = report["findings"].as_array() {
        print_findings(out, findings);
    }
}

/// A joined part's line: its meshes, the bones that matched or were added, and where its bind pose differs.
fn print_part(out: &mut String, part: &Value) {
    let count = |key: &str| part[key].as_u64().unwrap_or_default();
    let added: Vec<String> =
        part["bones_added"].as_array().into_iter().flatten().filter_map(|v| v.as_str().map(str::to_owned)).collect();
    if let Some(bone) = part["attached_to"].as_str() {
        let _ = writeln!(
            out,
            "    part:    {} mesh(es) hung on the bone '{bone}', as the engine attaches a head",
            count("meshes")
        );
        return;
    }
    let _ = write!(
        out,
        "    part:    {} mesh(es) on the model's skeleton, {} bone(s) matched by name",
        count("meshes"),
        count("bones_matched")
    );
    if !added.is_empty() {
        let _ = write!(out, ", {} added: {}", added.len(), added.join(", "));
    }
    let _ = writeln!(out);
    let differences = part["bind_differences"].as_array().cloned().unwrap_or_default();
    if let Some(first) = differences.first() {
        let _ = writeln!(
            out,
            "    bind pose differs from the model's at {} bone(s); most: {} ({:.3} apart, {:.1}°)",
            differences.len(),
            first["bone"].as_str().unwrap_or_default(),
            first["distance"].as_f64().unwrap_or_default(),
            first["degrees"].as_f64().unwrap_or_default()
        );
    }
}

/// Text lines of a bound file's report beyond this many are counted, not listed (JSON lists them all).
const TEXT_BIND_LINES: usize = 12;

/// One bound file's report: its clips, the track → bone pairs (those that needed a folded name, and all of them
/// when few), the tracks that match nothing, the bones nothing drives, the skeleton differences and the
/// retargeting.
fn print_bind_report(out: &mut String, bound: &Value) {
    let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    let list = |key: &str| bound[key].as_array().cloned().unwrap_or_default();
    let names = |key: &str| list(key).iter().map(s).collect::<Vec<_>>();
    let some = |items: Vec<String>| {
        if items.len() > TEXT_BIND_LINES {
            let rest = items.len() - TEXT_BIND_LINES;
            format!("{}, … {rest} more", items[..TEXT_BIND_LINES].join(", "))
        } else {
            items.join(", ")
        }
    };
    let source = s(&bound["source"]);
    let source = std::path::Path::new(&source).file_name().map_or(source.clone(), |n| n.to_string_lossy().into_owned());
    let clips: Vec<String> = names("clips").iter().map(|c| format!("\"{c}\"")).collect();
    let matched = list("matched");
    let unmatched = names("unmatched_tracks");
    let part = &bound["part"];
    let what = match (clips.is_empty(), part.is_object(), bound["not_joined"].as_str()) {
        (_, _, Some(why)) => format!("not joined: {why}"),
        (true, true, None) => match part["attached_to"].as_str() {
            Some(bone) => format!("attached to the bone '{bone}'"),
            None => "joined as a part".to_owned(),
        },
        (true, false, None) => "nothing bound (see the warnings)".to_owned(),
        (false, _, None) => clips.join(", "),
    };
    let _ = writeln!(out, "  bound:     {source} → {what}");
    if part.is_object() {
        print_part(out, part);
    }
    let placeholders = names("placeholder_tracks");
    if !placeholders.is_empty() {
        let played = bound["retarget"]["apply_placeholder_tracks"].as_bool() == Some(true);
        let how = if played {
            "played anyway (--apply-placeholder-tracks)"
        } else {
            "left at the bind pose (--apply-placeholder-tracks plays them)"
        };
        let _ = writeln!(
            out,
            "    {} placeholder track(s), identity keys of bones the clip does not move, {how}: {}",
            placeholders.len(),
            some(placeholders)
        );
    }
    if matched.is_empty() && unmatched.is_empty() {
        return;
    }
    let tracks = matched.len() + unmatched.len();
    let _ = writeln!(out, "    tracks:  {} of {tracks} match a bone", matched.len());
    let pair = |m: &Value| {
        let rule = s(&m["rule"]);
        let how = if rule == "exact" { String::new() } else { format!(" ({})", rule.replace('_', " ")) };
        format!("{} → {}{how}", s(&m["track"]), s(&m["bone"]))
    };
    let folded: Vec<String> = matched.iter().filter(|m| m["rule"] != "exact").map(pair).collect();
    if matched.len() <= TEXT_BIND_LINES {
        let _ = writeln!(out, "    matched: {}", matched.iter().map(pair).collect::<Vec<_>>().join(", "));
    } else if !folded.is_empty() {
        let _ = writeln!(out, "    names matched loosely: {}", some(folded));
    }
    if !unmatched.is_empty() {
        let _ = writeln!(out, "    no bone for {} track(s): {}", unmatched.len(), some(unmatched));
    }
    let ambiguous = names("ambiguous_names");
    if !ambiguous.is_empty() {
        let _ = writeln!(
            out,
            "    {} name(s) the skeleton repeats, bound in order (the animation's bone list is not the model's): {}",
            ambiguous.len(),
            some(ambiguous)
        );
    }
    let unanimated = names("unanimated_bones");
    if !unanimated.is_empty() {
        let _ = writeln!(out, "    {} bone(s) no track drives (bind pose): {}", unanimated.len(), some(unanimated));
    }
    let differences: Vec<String> = list("skeleton_differences")
        .iter()
        .map(|d| {
            let f = |k: &str| d[k].as_f64().unwrap_or_default();
            format!(
                "{} {:.4} in the model, {:.4} in the animation ({:.0} %)",
                s(&d["bone"]),
                f("model_length"),
                f("animation_length"),
                f("difference") * 100.0
            )
        })
        .collect();
    if !differences.is_empty() {
        let _ = writeln!(
            out,
            "    skeleton differs at {} bone(s) (first frame vs bind, over 10 % of the length): {}",
            differences.len(),
            some(differences)
        );
    }
    let retarget = &bound["retarget"];
    let translations = match s(&retarget["translation"]).as_str() {
        "rotation_only" => "from the model's bind pose (rotation only)",
        "scaled" => "from the animation, scaled to the model's bone lengths",
        _ => "from the animation",
    };
    let root = match s(&retarget["root"]).as_str() {
        "lock" => "locked in place",
        "ground" => "on the ground plane only",
        _ => "kept",
    };
    let _ = writeln!(out, "    retarget: translations {translations}, root motion {root}");
}

/// A QC placement as `placed: origin (0, 0, 36), scale 2, rotated 90°`, leaving out what is neutral; `None`
/// for an unplaced item.
fn placement_text(placement: &Value) -> Option<String> {
    let p = placement.as_object()?;
    let num = |v: Option<&Value>| v.and_then(Value::as_f64).unwrap_or(0.0);
    let round = |f: f64| (f * 1000.0).round() / 1000.0;
    let mut parts = Vec::new();
    let origin: Vec<f64> =
        p.get("origin").and_then(Value::as_array).map(|a| a.iter().map(|v| num(Some(v))).collect())?;
    if origin.iter().any(|c| *c != 0.0) {
        let coords: Vec<String> = origin.iter().map(|c| round(*c).to_string()).collect();
        parts.push(format!("origin ({})", coords.join(", ")));
    }
    let scale = num(p.get("scale"));
    if scale != 1.0 {
        parts.push(format!("scale {}", round(scale)));
    }
    let angle = num(p.get("rotation_degrees"));
    if angle != 0.0 {
        parts.push(format!("rotated {}°", round(angle)));
    }
    Some(format!("placed: {}", parts.join(", ")))
}

/// The model script, compactly: one line per body group, sequence, hitbox and attachment.
fn print_script(out: &mut String, script: &Value) {
    let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    let list = |v: &Value| v.as_array().cloned().unwrap_or_default();
    let num = |v: &Value| v.as_f64().map_or_else(|| "?".to_owned(), |f| format!("{}", (f * 1000.0).round() / 1000.0));
    let vec3 = |v: &Value| format!("({})", list(v).iter().map(num).collect::<Vec<_>>().join(", "));
    let files = list(&script["files"]);
    let file_names: Vec<String> = files
        .iter()
        .map(|f| std::path::Path::new(&s(f)).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default())
        .collect();
    let _ =
        writeln!(out, "  script:    {} \"{}\" ({})", s(&script["language"]), s(&script["name"]), file_names.join(", "));
    for group in list(&script["body_groups"]) {
        let choices: Vec<String> = list(&group["choices"])
            .iter()
            .map(|c| {
                let meshes = match list(&c["meshes"]).len() {
                    0 => s(&c["name"]),
                    n => format!("{} ({n} mesh{})", s(&c["name"]), if n == 1 { "" } else { "es" }),
                };
                match placement_text(&c["placement"]) {
                    Some(placed) => format!("{meshes} [{placed}]"),
                    None => meshes,
                }
            })
            .collect();
        let _ = writeln!(out, "  body group \"{}\": {}", s(&group["name"]), choices.join(" | "));
    }
    let sequences = list(&script["sequences"]);
    let loaded = sequences.iter().filter(|q| q["loaded"].as_bool() == Some(true)).count();
    let _ = writeln!(out, "  sequences: {} ({loaded} loaded)", sequences.len());
    for q in &sequences {
        let mut parts: Vec<String> = Vec::new();
        match q["kind"].as_object().and_then(|k| k.get("Alias")) {
            Some(alias) => parts.push(format!("alias of {}", s(&alias["of"]))),
            None if list(&q["files"]).is_empty() => {}
            None => parts.push(list(&q["files"]).iter().map(s).collect::<Vec<_>>().join(" + ")),
        }
        parts.push(format!("{} fps", num(&q["fps"])));
        if let (Some(a), Some(b)) = (q["first_frame"].as_i64(), q["last_frame"].as_i64()) {
            parts.push(format!("frames {a}–{b}"));
        }
        if q["reversed"].as_bool() == Some(true) {
            parts.push("reversed".to_owned());
        }
        if q["looping"].as_bool() == Some(true) {
            parts.push("loop".to_owned());
        }
        if let Some(next) = q["next"].as_str() {
            parts.push(format!("next {next}"));
        }
        if q["blend_in"].as_f64().unwrap_or(0.0) > 0.0 || q["blend_out"].as_f64().unwrap_or(0.0) > 0.0 {
            parts.push(format!("blend {}/{} s", num(&q["blend_in"]), num(&q["blend_out"])));
        }
        let motion: Vec<String> = list(&q["motion"]).iter().map(s).collect();
        if !motion.is_empty() {
            parts.push(motion.join(" "));
        }
        if !s(&q["flags"]).is_empty() {
            parts.push(format!("flags {}", s(&q["flags"])));
        }
        if let Some(layer) = q["layer"].as_i64() {
            parts.push(format!("layer {layer}"));
        }
        if q["hold"].is_number() {
            parts.push(format!("hold {} s", num(&q["hold"])));
        }
        if q["activity"].is_object() {
            parts.push(format!("{} {}", s(&q["activity"]["name"]), q["activity"]["weight"]));
        }
        for b in list(&q["blends"]) {
            let control = if s(&b["control"]).is_empty() { "(no control)".to_owned() } else { s(&b["control"]) };
            parts.push(format!("blend {control} {}…{}", num(&b["start"]), num(&b["end"])));
        }
        for o in list(&q["options"]).iter().map(s) {
            let nodes =
                ["node ", "transition ", "rtransition ", "sequence group ", "next sequence ", "linear movement"];
            if nodes.iter().any(|n| o.starts_with(n)) {
                parts.push(o);
            }
        }
        if let Some(placed) = placement_text(&q["placement"]) {
            parts.push(placed);
        }
        let events: Vec<String> = list(&q["events"])
            .iter()
            .map(|e| {
                let text = s(&e["text"]);
                let text = if text.is_empty() { String::new() } else { format!(" \"{text}\"") };
                format!("{}@{}{text}", s(&e["kind"]), e["frame"])
            })
            .collect();
        if !events.is_empty() {
            parts.push(format!("events {}", events.join(", ")));
        }
        if let Some(problem) = q["problem"].as_str() {
            parts.push(format!("({problem})"));
        }
        let _ = writeln!(out, "    \"{}\": {}", s(&q["name"]), parts.join(", "));
    }
    for b in list(&script["ani_blends"]) {
        let _ = writeln!(
            out,
            "  aniBlend \"{}\" → \"{}\", blend {}/{} s",
            s(&b["name"]),
            s(&b["next"]),
            num(&b["blend_in"]),
            num(&b["blend_out"])
        );
    }
    let hitboxes = list(&script["hitboxes"]);
    if !hitboxes.is_empty() {
        let _ = writeln!(out, "  hitboxes:  {}", hitboxes.len());
        for h in &hitboxes {
            let _ = writeln!(
                out,
                "    \"{}\" group {}: {}–{}",
                s(&h["bone"]),
                h["group"],
                vec3(&h["min"]),
                vec3(&h["max"])
            );
        }
    }
    let attachments = list(&script["attachments"]);
    if !attachments.is_empty() {
        let _ = writeln!(out, "  attachments: {}", attachments.len());
        for a in &attachments {
            let _ = writeln!(out, "    {} on \"{}\" at {}", s(&a["name"]), s(&a["bone"]), vec3(&a["offset"]));
        }
    }
    let controllers = list(&script["controllers"]);
    if !controllers.is_empty() {
        let _ = writeln!(out, "  bone controllers: {}", controllers.len());
        for c in &controllers {
            let index = if c["index"].as_i64() == Some(4) { "mouth".to_owned() } else { format!("#{}", c["index"]) };
            let wraps = if c["wraps"].as_bool() == Some(true) { ", wraps" } else { "" };
            let _ = writeln!(
                out,
                "    {index} \"{}\" {} {}…{}{wraps}",
                s(&c["bone"]),
                s(&c["channel"]),
                num(&c["start"]),
                num(&c["end"])
            );
        }
    }
    let skins = list(&script["skin_families"]);
    if !skins.is_empty() {
        let _ = writeln!(out, "  skin families: {}", skins.len());
        for (i, f) in skins.iter().enumerate() {
            let textures: Vec<String> = list(&f["textures"]).iter().map(s).collect();
            let _ = writeln!(out, "    {i}: {}", textures.join(", "));
        }
    }
    let graph = list(&script["transition_graph"]);
    if !graph.is_empty() {
        let _ = writeln!(out, "  transition nodes: {}", graph.len());
        for (from, row) in graph.iter().enumerate() {
            let steps: Vec<String> = list(row)
                .iter()
                .enumerate()
                .filter(|(to, via)| *to != from && via.as_u64().unwrap_or(0) > 0)
                .map(|(to, via)| format!("→{} via {}", to + 1, via))
                .collect();
            if !steps.is_empty() {
                let _ = writeln!(out, "    node {}: {}", from + 1, steps.join(", "));
            }
        }
    }
    for (key, label) in [("bbox", "bbox"), ("cbox", "cbox")] {
        if script[key].is_object() {
            let _ = writeln!(out, "  {label}:      {}–{}", vec3(&script[key]["min"]), vec3(&script[key]["max"]));
        }
    }
    if script["eye_position"].is_array() {
        let _ = writeln!(out, "  eye position: {}", vec3(&script["eye_position"]));
    }
    let ignored: Vec<String> = list(&script["ignored_commands"]).iter().map(s).collect();
    if !ignored.is_empty() {
        let _ = writeln!(out, "  read, not used: {}", ignored.join(", "));
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

/// An `f32` as JSON with the digits it has as an `f32` (24.4, not 24.399999618530273: JSON numbers are doubles,
/// and widening the float keeps its binary error).
fn f32_value(x: f32) -> Value {
    x.to_string().parse::<f64>().map_or(Value::Null, Value::from)
}

/// A number for text, without float noise: at most three decimals, none when whole (24.4, 30, 0.125).
fn short_number(x: f64) -> String {
    format!("{}", (x * 1000.0).round() / 1000.0)
}

#[cfg(test)]
mod number_tests {
    use super::*;

    #[test]
    fn frame_rates_print_as_written() {
        assert_eq!(f32_value(24.4).to_string(), "24.4");
        assert_eq!(short_number(f64::from(24.4f32)), "24.4");
        assert_eq!(short_number(30.0), "30");
    }
}
