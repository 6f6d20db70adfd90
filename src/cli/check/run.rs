//! Checking one unit of work: its files loaded (each once), bound into characters, every rig check run on
//! every clip (`anim::diagnostics::diagnose`), and the findings given their file, clip, frame and bone. A file
//! that does not load, a script naming a file that is not there and an animation that does not bind are
//! findings too; nothing here stops the run.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use bonescope::anim::diagnostics::{DiagnoseOptions, Finding, Severity, Subject, diagnose};
use bonescope::io::script::{NamedRole, ScriptPlan};
use bonescope::io::{self, LoadError, LoadOptions, Position};
use bonescope::scene::{Asset, Format};

use super::report::{CharacterReport, CheckFinding, CheckKind, Grouping};
use super::walk::Unit;

/// What a character's parts were read from, to say which file a finding is in.
#[derive(Debug, Default)]
struct Origins {
    /// Per mesh of the asset.
    meshes: Vec<Option<PathBuf>>,
    /// Per clip of the asset.
    clips: Vec<Option<PathBuf>>,
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
    options: &DiagnoseOptions,
    with_asset: &(dyn Fn(&mut Loaded) + Sync),
) -> Vec<CharacterReport> {
    let (mut done, loaded) = match unit {
        Unit::Unreadable { path, error } => (vec![load_failure(&path, &error)], Vec::new()),
        Unit::Script { path, format, bytes, plan } => script_character(&path, format, &bytes, plan),
        Unit::Folder { files, .. } => folder_characters(&files),
    };
    for mut character in loaded {
        let findings = diagnose(&character.asset, options);
        let findings: Vec<CheckFinding> =
            findings.iter().map(|f| locate(f, &character.asset, &character.origins)).collect();
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

fn load_options() -> LoadOptions {
    LoadOptions::default()
}

/// A model script: the files it names that are missing, then the character as the script loader builds it.
fn script_character(
    path: &Path,
    format: Format,
    bytes: &[u8],
    plan: Result<ScriptPlan, LoadError>,
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
    let mut asset = match io::script::load(format, bytes, Some(path), &load_options()) {
        Ok(asset) => asset,
        Err(error) => {
            // A missing mesh stops the load with an error that is the finding above: it is not said twice.
            if !missing_mesh {
                report.findings.push(load_error_finding(path, &error));
            }
            return (vec![report], Vec::new());
        }
    };
    let mut origins = Origins { meshes: vec![None; asset.meshes.len()], clips: vec![None; asset.clips.len()] };
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
        // A file that is there but did not load is a sequence's problem for the loader; here it is the file's.
        for seq in &script.sequences {
            let (Some(problem), Some(Some(file))) = (&seq.problem, seq.paths.first()) else { continue };
            if let Some(error) = problem
                .strip_prefix("animation did not load: ")
                .or_else(|| problem.strip_prefix("animation file did not load: "))
            {
                let error = error.strip_prefix(&format!("{}: ", file.display())).unwrap_or(error);
                report.findings.push(
                    CheckFinding::new(
                        Severity::Error,
                        CheckKind::LoadError,
                        format!("sequence \"{}\": {error}", seq.name),
                    )
                    .in_file(file),
                );
            }
        }
    }
    asset.path = Some(path.to_path_buf());
    fill_facts(&mut report, &asset);
    (Vec::new(), vec![Loaded { report, asset, origins }])
}

/// A folder's files: each reference mesh with every animation of the folder; animations alone when there is
/// no mesh; files that do not load on their own.
fn folder_characters(files: &[PathBuf]) -> (Vec<CharacterReport>, Vec<Loaded>) {
    let opts = load_options();
    let results: Vec<(PathBuf, Result<Asset, LoadError>)> =
        files.par_iter().map(|path| (path.clone(), io::load_path(path, &opts))).collect();
    let mut failed = Vec::new();
    let mut meshes: Vec<Asset> = Vec::new();
    let mut animations: Vec<Asset> = Vec::new();
    for (path, result) in results {
        match result {
            Err(error) => failed.push(load_failure(&path, &error)),
            Ok(asset) if asset.triangle_count() > 0 => meshes.push(asset),
            Ok(asset) => animations.push(asset),
        }
    }
    let mut loaded = Vec::new();
    if meshes.is_empty() && !animations.is_empty() {
        let first = animations.remove(0);
        let mut character = bind_all(first, animations, Grouping::Animations, &opts);
        character.report.findings.push(
            CheckFinding::new(
                Severity::Info,
                CheckKind::NoReferenceMesh,
                "no reference mesh in this folder: the animations are checked against the first one's skeleton",
            )
            .in_file(&character.report.main),
        );
        loaded.push(character);
        return (failed, loaded);
    }
    let count = meshes.len();
    for (i, mesh) in meshes.into_iter().enumerate() {
        // The last reference takes the animations; the others get copies (each file was still read once).
        let anims = if i + 1 == count { std::mem::take(&mut animations) } else { animations.clone() };
        loaded.push(bind_all(mesh, anims, Grouping::Folder, &opts));
    }
    (failed, loaded)
}

/// `main` with every animation bound to it, with the origin of each mesh and clip.
fn bind_all(main: Asset, animations: Vec<Asset>, grouping: Grouping, opts: &LoadOptions) -> Loaded {
    let main_path = main.path.clone().unwrap_or_default();
    let mut report = CharacterReport::new(file_name(&main_path), grouping, &main_path);
    let mut asset = main;
    let mut origins = Origins {
        meshes: vec![Some(main_path.clone()); asset.meshes.len()],
        clips: vec![Some(main_path.clone()); asset.clips.len()],
    };
    for animation in animations {
        let path = animation.path.clone().unwrap_or_default();
        report.files.push(path.clone());
        match io::bind(&mut asset, animation, opts) {
            Ok(_) => {}
            Err(error) => {
                let mut f = load_error_finding(&path, &error);
                f.kind = CheckKind::BindError;
                report.findings.push(f);
            }
        }
        origins.clips.resize(asset.clips.len(), Some(path.clone()));
        origins.meshes.resize(asset.meshes.len(), Some(path));
    }
    fill_facts(&mut report, &asset);
    Loaded { report, asset, origins }
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
    let mesh_file = |m: usize| origins.meshes.get(m).cloned().flatten();
    let clip_file = |c: usize| origins.clips.get(c).cloned().flatten();
    let mut clip = None;
    match finding.subject {
        Subject::Asset if finding.value.is_some() && finding.message.starts_with('…') => {
            // The line summing up the findings of a kind past the first hundred stands for all of them.
            f.count = finding.value.map_or(1, |v| v as usize);
        }
        Subject::Bone(b) => f.bone = asset.skeleton.names.get(b).cloned(),
        Subject::Mesh(m) => f.file = mesh_file(m),
        Subject::Vertex { mesh, index } => {
            f.file = mesh_file(mesh);
            f.bone = dominant_bone(asset, mesh, index).and_then(|b| asset.skeleton.names.get(b).cloned());
        }
        Subject::Triangle { mesh, .. } => {
            f.file = mesh_file(mesh);
            if let Some([a, b]) = finding.edge {
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
