//! Checking one unit of work: its files loaded (each once), bound into characters, every rig check run on
//! every clip (`anim::diagnostics::diagnose`), and the findings given their file, clip, frame and bone. A file
//! that does not load, a script naming a file that is not there and an animation that does not bind are
//! findings too; nothing here stops the run.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use bonescope::anim::diagnostics::{DiagnoseOptions, Finding, FindingKind, Severity, Subject, diagnose, mesh_name};
use bonescope::io::script::{NamedRole, ScriptPlan};
use bonescope::io::{self, LoadError, LoadOptions, Position};
use bonescope::scene::{Asset, Format, Warning};

use super::pair::{self, Pairing};
use super::report::{CharacterReport, CheckFinding, CheckKind, ClipRef, Grouping, PairedFile};
use super::roles::Role;
use super::walk::Unit;

/// What a character's parts were read from, to say which file a finding is in.
#[derive(Debug, Default)]
pub(super) struct Origins {
    /// Per mesh of the asset.
    pub(super) meshes: Vec<Option<PathBuf>>,
    /// Per clip of the asset.
    pub(super) clips: Vec<Option<PathBuf>>,
    /// Only findings about clips are the character's (a Gothic overlay on its base model: [`super::overlay`]).
    pub(super) clips_only: bool,
}

/// A loaded character, ready to diagnose.
pub struct Loaded {
    pub report: CharacterReport,
    pub asset: Asset,
    origins: Origins,
}

/// Loads, binds and checks everything in `unit`. `with_asset` sees each loaded character after its findings
/// are in (thumbnails are drawn there) and before it is dropped.
pub fn check_unit(
    unit: Unit,
    load: &LoadOptions,
    options: &DiagnoseOptions,
    with_asset: &(dyn Fn(&mut Loaded) + Sync),
) -> Vec<CharacterReport> {
    let (mut done, loaded) = match unit {
        Unit::Unreadable { path, error } => (vec![load_failure(&path, &error)], Vec::new()),
        Unit::Script { path, format, bytes, plan } => script_character(&path, format, &bytes, plan, load),
        Unit::Character { main, parts, animations, companions, if_they_fit } => {
            paired_character(&main, &parts, &animations, &companions, &if_they_fit, load)
        }
        Unit::Unpaired { path, role, why } => unpaired_file(&path, role, &why, load),
        Unit::Compiled { files, .. } => compiled_folder(&files, load),
    };
    for mut character in loaded {
        let findings = diagnose(&character.asset, options);
        let mut findings: Vec<CheckFinding> =
            findings.iter().map(|f| locate(f, &character.asset, &character.origins)).collect();
        if character.origins.clips_only {
            findings.retain(|f| !f.clips.is_empty());
        }
        character.report.findings.extend(findings);
        character.report.findings.sort_by(CheckFinding::rank);
        with_asset(&mut character);
        done.push(character.report);
    }
    done.into_iter().map(CharacterReport::finish).collect()
}

/// A row for a file that did not load: its error is the one finding.
fn load_failure(path: &Path, error: &LoadError) -> CharacterReport {
    let name = file_name(path);
    let mut report = CharacterReport::new(name, Grouping::File, path);
    report.findings.push(load_error_finding(path, error));
    report
}

fn load_error_finding(path: &Path, error: &LoadError) -> CheckFinding {
    let file = error.file.clone().unwrap_or_else(|| path.to_path_buf());
    let mut f = CheckFinding::new(Severity::Error, CheckKind::LoadError, error.message.clone()).in_file(&file);
    match error.position {
        Position::Line(line) => f.line = Some(line),
        Position::Byte(byte) => f.byte = Some(byte),
        Position::File => {}
    }
    f
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// A model script: the files it names that are missing, then the character as the script loader builds it.
fn script_character(
    path: &Path,
    format: Format,
    bytes: &[u8],
    plan: Result<ScriptPlan, LoadError>,
    opts: &LoadOptions,
) -> (Vec<CharacterReport>, Vec<Loaded>) {
    let plan = match plan {
        Ok(plan) => plan,
        Err(error) => return (vec![load_failure(path, &error)], Vec::new()),
    };
    let mut report = CharacterReport::new(file_name(path), Grouping::Script, path);
    report.files.extend(plan.script_files.iter().skip(1).cloned());
    report.files.extend(plan.found().into_iter().map(Path::to_path_buf));
    let mut missing_mesh = false;
    for named in plan.named.iter().filter(|n| n.path.is_none()) {
        missing_mesh |= named.role == NamedRole::Mesh;
        let role = match named.role {
            NamedRole::Mesh => "mesh",
            NamedRole::Animation => "animation",
        };
        report.findings.push(
            CheckFinding::new(
                Severity::Error,
                CheckKind::MissingFile,
                format!("the script names {role} \"{}\", which is not there", named.name),
            )
            .in_file(&named.script_file)
            .at_line(named.line),
        );
    }
    let mut asset = match io::script::load(format, bytes, Some(path), opts) {
        Ok(asset) => asset,
        Err(error) => {
            // A missing mesh stops the load with an error that is the finding above: it is not said twice.
            if !missing_mesh {
                report.findings.push(load_error_finding(path, &error));
            }
            return (vec![report], Vec::new());
        }
    };
    let mut origins =
        Origins { meshes: vec![None; asset.meshes.len()], clips: vec![None; asset.clips.len()], clips_only: false };
    if let Some(script) = asset.model_script.as_deref() {
        if !script.name.is_empty() {
            report.name = script.name.clone();
        }
        for choice in script.body_groups.iter().flat_map(|g| &g.choices) {
            for &m in &choice.meshes {
                if let Some(slot) = origins.meshes.get_mut(m) {
                    slot.clone_from(&choice.path);
                }
            }
        }
        for (c, clip) in asset.clips.iter().enumerate() {
            let file = clip
                .script
                .as_ref()
                .and_then(|s| script.sequences.get(s.sequence))
                .and_then(|q| q.paths.first().cloned().flatten());
            origins.clips[c] = file;
        }
        for seq in &script.sequences {
            let Some(problem) = &seq.problem else { continue };
            let script_file = script.files.get(seq.file).map_or(path, PathBuf::as_path);
            let file = seq.paths.first().cloned().flatten();
            let did_not_load = problem
                .strip_prefix("animation did not load: ")
                .or_else(|| problem.strip_prefix("animation file did not load: "));
            let finding = match (did_not_load, &file) {
                // A file that is there but did not load is a sequence's problem for the loader; here it is the
                // file's.
                (Some(error), Some(file)) => {
                    let error = error.strip_prefix(&format!("{}: ", file.display())).unwrap_or(error);
                    CheckFinding::new(
                        Severity::Error,
                        CheckKind::LoadError,
                        format!("sequence \"{}\": {error}", seq.name),
                    )
                    .in_file(file)
                }
                // A file the script names that is not there is the missing-file finding above.
                _ if !seq.loaded && file.is_none() && !seq.files.is_empty() => continue,
                // No clip was built for another reason (a frame range outside the file, an alias of nothing).
                _ if !seq.loaded => CheckFinding::new(
                    Severity::Error,
                    CheckKind::SequenceNotLoaded,
                    format!("sequence \"{}\": {problem}; it was not loaded", seq.name),
                )
                .in_file(script_file)
                .at_line(seq.line),
                // A clip was built, adjusted (a frame range clamped to the file, events moved): worth a look.
                _ => CheckFinding::new(
                    Severity::Warning,
                    CheckKind::LoadWarning,
                    format!("sequence \"{}\": {problem}", seq.name),
                )
                .in_file(script_file)
                .at_line(seq.line),
            };
            report.findings.push(finding);
        }
    }
    // What the loader said while reading: the sequence problems are reported above, once.
    let said: Vec<String> = asset
        .model_script
        .as_deref()
        .map(|s| s.sequences.iter().filter_map(|q| q.problem.clone()).collect())
        .unwrap_or_default();
    let warnings = std::mem::take(&mut asset.warnings);
    report.findings.extend(
        warnings
            .iter()
            .filter(|w| !said.iter().any(|p| w.message.contains(p.as_str())))
            .filter_map(|w| warning_finding(w, path)),
    );
    // A Gothic overlay without a mesh: its clips on the base model it overlays.
    if let Some(base) = plan.base.as_deref().filter(|_| asset.triangle_count() == 0) {
        report.findings.push(super::overlay::on_base(&mut asset, &mut origins, base, opts));
        if origins.clips_only {
            report.overlay_of = base.script_files.first().cloned();
            for p in base.script_files.iter().take(1).map(PathBuf::as_path).chain(base.found()) {
                if !report.files.iter().any(|f| f == p) {
                    report.files.push(p.to_path_buf());
                }
            }
        }
    }
    asset.path = Some(path.to_path_buf());
    fill_facts(&mut report, &asset);
    (Vec::new(), vec![Loaded { report, asset, origins }])
}

/// A mesh with the files paired with it: its parts joined, its animations and companions bound, each said in
/// the report with how it was paired; the animations that go with it only if their skeleton fits are bound when
/// it does, and checked alone as unpaired when not. A file that does not load is a finding of the character
/// (the main mesh's failure is the character's only one).
fn paired_character(
    main: &Path,
    parts: &[(PathBuf, Pairing)],
    animations: &[(PathBuf, Pairing)],
    companions: &[(PathBuf, Pairing)],
    if_they_fit: &[PathBuf],
    opts: &LoadOptions,
) -> (Vec<CharacterReport>, Vec<Loaded>) {
    let mesh = match io::load_path(main, opts) {
        Ok(asset) => asset,
        Err(error) => {
            let mut report = load_failure(main, &error);
            for (path, how) in parts.iter().chain(animations).chain(companions) {
                report.files.push(path.clone());
                report.pairing.push(PairedFile::new(path, how));
            }
            let (mut reports, mut alone) = (vec![report], Vec::new());
            for path in if_they_fit {
                let (r, l) = unpaired_file(path, Role::Animation, "the mesh beside it did not load", opts);
                reports.extend(r);
                alone.extend(l);
            }
            return (reports, alone);
        }
    };
    let mut done = Vec::new();
    let mut loaded_alone = Vec::new();
    // The animations that fit the mesh's skeleton, with the evidence; the others alone.
    let signature = pair::Signature::of(&mesh);
    let tried: Vec<(PathBuf, Result<Asset, LoadError>)> =
        if_they_fit.par_iter().map(|p| (p.clone(), io::load_path(p, opts))).collect();
    let mut fitting: Vec<(PathBuf, Pairing, Result<Asset, LoadError>)> = Vec::new();
    for (path, result) in tried {
        match result {
            Ok(asset) => match pair::fit(&signature, &pair::Signature::of(&asset)) {
                Some(fit) => fitting.push((path, Pairing { method: "skeleton", detail: fit.describe() }, Ok(asset))),
                None => {
                    let why = "its name says no character's, and its skeleton does not fit the one character beside it";
                    loaded_alone.push(unpaired_loaded(&path, asset, Role::Animation, why, opts));
                }
            },
            Err(error) => done.push(load_failure(&path, &error)),
        }
    }
    let others: Vec<&(PathBuf, Pairing)> = parts.iter().chain(animations).chain(companions).collect();
    let mut loaded: Vec<(PathBuf, Pairing, Result<Asset, LoadError>)> =
        others.par_iter().map(|(path, how)| (path.clone(), how.clone(), io::load_path(path, opts))).collect();
    // Parts first (they join the mesh), then animations in name order.
    let part_count = parts.len();
    let mut rest = loaded.split_off(part_count);
    rest.extend(fitting);
    rest.sort_by(|a, b| a.0.cmp(&b.0));
    loaded.extend(rest);
    let character = bind_all(mesh, loaded, opts);
    let mut characters = vec![character];
    characters.extend(loaded_alone);
    (done, characters)
}

/// An animation or companion that pairs with no character: checked alone (its own data), with a finding that
/// says it is unpaired and why.
fn unpaired_file(path: &Path, role: Role, why: &str, opts: &LoadOptions) -> (Vec<CharacterReport>, Vec<Loaded>) {
    match io::load_path(path, opts) {
        // A file that does not load is that: its error is the finding.
        Err(error) => (vec![load_failure(path, &error)], Vec::new()),
        Ok(asset) => (Vec::new(), vec![unpaired_loaded(path, asset, role, why, opts)]),
    }
}

fn unpaired_loaded(path: &Path, asset: Asset, role: Role, why: &str, opts: &LoadOptions) -> Loaded {
    let mut character = bind_all(asset, Vec::new(), opts);
    character.report.grouping = Grouping::Unpaired;
    character.report.findings.push(
        CheckFinding::new(
            Severity::Info,
            CheckKind::Unpaired,
            format!("{} paired with no character: {why}; checked alone", role_phrase(role)),
        )
        .in_file(path),
    );
    character
}

fn role_phrase(role: Role) -> &'static str {
    match role {
        Role::Companion => "a companion file (vertex animation)",
        _ => "an animation",
    }
}

/// A folder's compiled Gothic files: each model with the meshes and animations made for it ([`super::zengin`]);
/// the files of no model checked alone, and those that do not load reported.
fn compiled_folder(files: &[PathBuf], opts: &LoadOptions) -> (Vec<CharacterReport>, Vec<Loaded>) {
    let results: Vec<(PathBuf, Result<Asset, LoadError>)> =
        files.par_iter().map(|path| (path.clone(), io::load_path(path, opts))).collect();
    let (rest, mut loaded) = super::zengin::characters(results, opts);
    let mut failed = Vec::new();
    for (path, result) in rest {
        match result {
            Err(error) => failed.push(load_failure(&path, &error)),
            Ok(asset) => loaded.push(bind_all(asset, Vec::new(), opts)),
        }
    }
    (failed, loaded)
}

/// `main` with every other file joined or bound to it, with the origin of each mesh and clip.
pub(super) fn bind_all(
    main: Asset,
    others: Vec<(PathBuf, Pairing, Result<Asset, LoadError>)>,
    opts: &LoadOptions,
) -> Loaded {
    let main_path = main.path.clone().unwrap_or_default();
    let mut report = CharacterReport::new(file_name(&main_path), Grouping::Paired, &main_path);
    let mut asset = main;
    for w in std::mem::take(&mut asset.warnings) {
        report.findings.extend(warning_finding(&w, &main_path));
    }
    let mut origins = Origins {
        meshes: vec![Some(main_path.clone()); asset.meshes.len()],
        clips: vec![Some(main_path.clone()); asset.clips.len()],
        clips_only: false,
    };
    for (path, how, loaded) in others {
        report.files.push(path.clone());
        report.pairing.push(PairedFile::new(&path, &how));
        let mut other = match loaded {
            Ok(other) => other,
            Err(error) => {
                report.findings.push(load_error_finding(&path, &error));
                continue;
            }
        };
        // Taken before binding, which adds the file's warnings to the character's without saying whose.
        for w in std::mem::take(&mut other.warnings) {
            report.findings.extend(warning_finding(&w, &path));
        }
        if let Err(error) = io::bind(&mut asset, other, opts) {
            let mut f = load_error_finding(&path, &error);
            f.kind = CheckKind::BindError;
            report.findings.push(f);
        }
        origins.clips.resize(asset.clips.len(), Some(path.clone()));
        origins.meshes.resize(asset.meshes.len(), Some(path));
    }
    // Binding's own warnings (tracks for bones the skeleton lacks) are the rig check's unmatched tracks.
    asset.warnings.clear();
    fill_facts(&mut report, &asset);
    Loaded { report, asset, origins }
}

/// A loader's warning as a finding in `file` (unless the warning names its own), of the kind its words say:
/// a model script part whose bind pose had to be moved, a file whose exporter (and so its axes) had to be
/// guessed, anything else the loader had to change or skip. `None` for what another check reports.
fn warning_finding(warning: &Warning, file: &Path) -> Option<CheckFinding> {
    let message = &warning.message;
    // Tracks for bones the skeleton lacks: the rig check's `unmatched_track`, with the clip and bone.
    // Textures not found: the rig check's `missing_texture`, one per material.
    if message.contains("animated bone(s) not in the skeleton")
        || message.starts_with(io::smd::MISSING_TEXTURES)
        || message.contains("not found next to the file or in the texture folders")
        || message.contains("no texture for material")
    {
        return None;
    }
    let kind = if message.contains("bind pose of") && message.contains("vertices were moved") {
        CheckKind::BindPoseMoved
    } else if message.contains("nothing says which exporter")
        || message.contains("but the header names")
        || message.contains("read as what it holds")
    {
        CheckKind::AmbiguousFile
    } else {
        CheckKind::LoadWarning
    };
    let mut f =
        CheckFinding::new(Severity::Warning, kind, message.clone()).in_file(warning.file.as_deref().unwrap_or(file));
    match warning.position {
        Position::Line(line) => f.line = Some(line),
        Position::Byte(byte) => f.byte = Some(byte),
        Position::File => {}
    }
    Some(f)
}

fn fill_facts(report: &mut CharacterReport, asset: &Asset) {
    report.loaded = true;
    report.bones = asset.skeleton.len();
    report.vertices = asset.vertex_count();
    report.triangles = asset.triangle_count();
    report.clips = asset.clips.iter().map(|c| c.name.clone()).collect();
}

/// A diagnostics finding with its file, clip, frame and bone.
fn locate(finding: &Finding, asset: &Asset, origins: &Origins) -> CheckFinding {
    let mut f = CheckFinding::new(finding.severity, CheckKind::Rig(finding.kind), finding.message.clone());
    f.subject = Some(finding.subject);
    f.value = finding.value;
    f.edge = finding.edge;
    // A line summing up the findings of a kind and severity past the first hundred stands for all of them.
    f.count = finding.count;
    f.summary = finding.summary;
    f.occurrences = finding.occurrences;
    f.extent = finding.extent;
    let mesh_file = |m: usize| origins.meshes.get(m).cloned().flatten();
    let clip_file = |c: usize| origins.clips.get(c).cloned().flatten();
    // Where it is, named so that a user knows which file to open, and so that the same place of the same mesh
    // found by another character (an overlay on its base model) is known for the same defect.
    let mesh = match finding.subject {
        Subject::Mesh(m) | Subject::Vertex { mesh: m, .. } | Subject::Triangle { mesh: m, .. } => Some(m),
        _ => finding.region.as_ref().and_then(|r| r.mesh),
    };
    f.mesh = mesh.map(|m| mesh_name(asset, m));
    f.mesh_file = mesh.and_then(mesh_file);
    if let Some(region) = &finding.region {
        let names = region.names.join(", ");
        f.place = Some(match &f.mesh {
            Some(m) => format!("{m}: {names}"),
            None => names,
        });
    }
    let frame_of = |c: usize, time: f32| {
        asset
            .clips
            .get(c)
            .filter(|c| c.frame_rate.is_finite() && c.frame_rate > 0.0)
            .map(|c| (time * c.frame_rate).round().max(0.0) as u32)
    };
    f.clips = finding
        .clips
        .iter()
        .filter_map(|hit| {
            Some(ClipRef {
                clip: asset.clips.get(hit.clip)?.name.clone(),
                file: clip_file(hit.clip),
                character: None,
                time: finding.at.map(|_| hit.time),
                frame: finding.at.and_then(|_| frame_of(hit.clip, hit.time)),
                severity: hit.severity,
                value: hit.value,
            })
        })
        .collect();
    let mut clip = None;
    match finding.subject {
        Subject::Bone(b) => f.bone = asset.skeleton.names.get(b).cloned(),
        Subject::Mesh(m) => f.file = mesh_file(m),
        Subject::Vertex { mesh, index } => {
            f.file = mesh_file(mesh);
            f.bone = dominant_bone(asset, mesh, index).and_then(|b| asset.skeleton.names.get(b).cloned());
        }
        Subject::Triangle { mesh, .. } => {
            f.file = mesh_file(mesh);
            // A joint that comes apart is placed at the bone that came off it.
            let off = matches!(finding.kind, FindingKind::JointApart | FindingKind::VertexFlies)
                .then(|| finding.region.as_ref().and_then(|r| r.names.first().cloned()))
                .flatten();
            if let Some(bone) = off {
                f.bone = Some(bone);
            } else if let Some([a, b]) = finding.edge {
                f.bone = culprit_bone(asset, mesh, a as usize, b as usize)
                    .and_then(|b| asset.skeleton.names.get(b).cloned());
            }
        }
        Subject::Material(m) => {
            let user = asset.meshes.iter().position(|mesh| mesh.subsets.iter().any(|s| s.material == m));
            f.file = user.and_then(mesh_file).or_else(|| asset.path.clone());
        }
        Subject::Clip(c) => clip = Some(c),
        Subject::Track { clip: c, track } => {
            clip = Some(c);
            f.bone = asset.clips.get(c).and_then(|cl| cl.tracks.get(track)).map(|t| t.bone_name.clone());
        }
        Subject::Asset => {}
    }
    if let Some(at) = finding.at {
        clip = Some(at.clip);
        f.time = Some(at.time);
        if let Some(c) = asset.clips.get(at.clip)
            && c.frame_rate.is_finite()
            && c.frame_rate > 0.0
        {
            f.frame = Some((at.time * c.frame_rate).round().max(0.0) as u32);
        }
    }
    if let Some(c) = clip {
        f.clip = asset.clips.get(c).map(|cl| cl.name.clone());
        // A finding in a clip (a track, a tearing frame) is placed in the file the clip was read from: that
        // is the file to open and fix; the mesh and edge are in `subject` and `edge`.
        if let Some(file) = clip_file(c) {
            f.file = Some(file);
        }
    }
    if f.file.is_none() {
        f.file = asset.path.clone();
    }
    f
}

/// The bone with the largest weight on a vertex.
fn dominant_bone(asset: &Asset, mesh: usize, vertex: usize) -> Option<usize> {
    let mesh = asset.meshes.get(mesh)?;
    let (joints, weights) = (mesh.joints.get(vertex)?, mesh.weights.get(vertex)?);
    let best = (0..4).max_by(|&i, &j| weights[i].total_cmp(&weights[j]))?;
    (weights[best] > 0.0).then_some(usize::from(joints[best]))
}

/// Of the bones that move the two ends of a stretched edge, the deeper one: a bone that runs away drags its
/// own vertices (and its children's) away from its parent's, so the edges that tear are those between it and
/// the bone above it.
fn culprit_bone(asset: &Asset, mesh: usize, a: usize, b: usize) -> Option<usize> {
    let depth = |bone: usize| {
        let mut d = 0;
        let mut at = Some(bone);
        while let Some(p) = at.and_then(|x| asset.skeleton.parents.get(x).copied().flatten()) {
            d += 1;
            at = Some(p);
            if d > asset.skeleton.len() {
                break;
            }
        }
        d
    };
    match (dominant_bone(asset, mesh, a), dominant_bone(asset, mesh, b)) {
        (Some(x), Some(y)) => Some(if depth(y) > depth(x) { y } else { x }),
        (x, y) => x.or(y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loader_warnings_become_findings_of_the_kind_their_words_say() {
        let file = Path::new("dir/hero.asc");
        let kind = |message: &str| warning_finding(&Warning::new(Position::Line(7), message), file).map(|f| f.kind);
        assert_eq!(
            kind("nothing says which exporter wrote this file (x) and the samples do not tell (y): they are assumed"),
            Some(CheckKind::AmbiguousFile)
        );
        assert_eq!(
            kind("the file is named as an animation but its block is not `triangles`; read as what it holds"),
            Some(CheckKind::AmbiguousFile)
        );
        assert_eq!(
            kind("b.smd: the bind pose of 2 bone(s) differs from the first mesh file's; its vertices were moved onto"),
            Some(CheckKind::BindPoseMoved)
        );
        let other =
            warning_finding(&Warning::new(Position::Line(7), "a second `version` line, ignored"), file).unwrap();
        assert_eq!((other.kind, other.severity, other.line), (CheckKind::LoadWarning, Severity::Warning, Some(7)));
        assert_eq!(other.file.as_deref(), Some(file));
        // Said by another check already: the rig check's unmatched tracks and missing textures.
        assert_eq!(kind("2 animated bone(s) not in the skeleton, ignored: a, b"), None);
        assert_eq!(kind(&format!("{} for 1 material(s): x", io::smd::MISSING_TEXTURES)), None);
    }
}
