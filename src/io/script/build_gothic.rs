//! A parsed MDS or MMS → the whole character.
//!
//! MDS: the `meshAndTree` ASC gives the skeleton (and its mesh unless `DONT_USE_MESH`), each `registerMesh`
//! ASC a body mesh; one clip per `ani` (the ASC's frames `first`–`last`, forwards or backwards, at `FPS:` or
//! the game's 25) and per `aniAlias` (the frames of the animation it names, reversed again for `R`), with the
//! events as callback keys. MMS: the `morphRef` ASC is the head mesh; each `morphAni` is a clip whose vertex
//! frames (`ClipScript::vertex_frames`) are the named ASC's frames `first`–`last` at `SPD:`, carried over to
//! the head corner by corner, and played as morph targets of the head (one per frame of a file) with weight
//! tracks that tween through them.
//!
//! Files are found by name in the `ASC_*` folders of the `Anims` tree ([`AscIndex`]; a name in several folders
//! is taken from the script's own first, and the choice is reported). A file that is not there (mesh, skeleton
//! or animation) is an error-level warning with the script line and the rest loads; only a script none of whose
//! files are there fails. A broken mesh file fails the character with the script line; a broken animation file
//! is a warning on its animation. The clips use whatever the ASC loader makes of a file: its clip's time 0 is the
//! file's `*SCENE_FIRSTFRAME`, which the script's frame numbers are counted from.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::asc_index::AscIndex;
use super::compiled::{self, CompiledFiles};
use super::cut::{Cut, cut_clip, cut_vertex_frame_times, event_keys, reverse_clip};
use super::load::{Job, Loaded, job_of, load_all, release, take};
use super::mds::{DEFAULT_FPS, ParsedMds};
use super::merge::{add_part, add_skeleton_only};
use super::{error_at, position, warn_unmatched_tracks};
use crate::io::ase::{corner_map, remap_frame};
use crate::io::{LoadError, LoadOptions};
use crate::scene::vertex_animation::{frame_target, tween_tracks};
use crate::scene::{
    Asset, AxisConversion, BoneTrack, CallbackKey, Clip, ClipScript, ClipVertexFrames, Curve, Format, Mesh,
    ModelScript, Reading, ScriptEvent, ScriptLanguage, ScriptSequence, SequenceKind, VertexFrame, Warning,
};

/// `dir` is the script's folder and `stem` its file name without extension (empty for in-memory bytes): where
/// files are looked for first.
pub fn build(parsed: ParsedMds, dir: &Path, stem: &str, opts: &LoadOptions) -> Result<Asset, LoadError> {
    let ParsedMds { mut script, skeleton, mut warnings } = parsed;
    let mms = script.language == ScriptLanguage::GothicMms;
    let index = AscIndex::build(&opts.files, dir, stem, &script.name);
    let files = script.files.clone();
    let not_found = |what: &str, name: &str| {
        format!("{what} \"{name}\" not found in the ASC_* folders of {} or beside the script", index.root.display())
    };
    // Files named and not found: (line, what) — error-level warnings, and the rest loads.
    let mut missing: Vec<(usize, String)> = Vec::new();

    let mut jobs: Vec<Job> = Vec::new();
    let skeleton_path = resolve_paths(&mut script, skeleton.as_ref(), &index);
    // Where a source is absent, the engine's compiled file stands in for it (`compiled`).
    let model = if stem.is_empty() { script.name.clone() } else { stem.to_owned() };
    let compiled = if mms { CompiledFiles::default() } else { CompiledFiles::find(&opts.files, &index.root, dir) };
    let compiled_skeleton =
        if skeleton.is_some() && skeleton_path.is_none() { compiled.hierarchy(&model).cloned() } else { None };
    let mut compiled_used: Vec<PathBuf> = Vec::new();
    let skeleton_job = match (&skeleton, skeleton_path) {
        (Some(_), Some(path)) => Some(job_of(&path, DEFAULT_FPS, &mut jobs)),
        (Some(_), None) if compiled_skeleton.is_some() => None,
        (Some((name, _, line)), None) => {
            missing.push((*line, not_found(if mms { "morphRef" } else { "meshAndTree" }, name)));
            None
        }
        (None, _) => None,
    };
    let mut body_jobs: Vec<Vec<Option<usize>>> = Vec::new();
    let mut compiled_choices: Vec<(usize, usize, PathBuf)> = Vec::new();
    for (g, group) in script.body_groups.iter_mut().enumerate() {
        let mut row = Vec::new();
        for (c, choice) in group.choices.iter_mut().enumerate() {
            if choice.path.is_none()
                && let Some(mdm) = compiled.mesh(&choice.name)
            {
                compiled_choices.push((g, c, mdm.clone()));
                row.push(None);
                continue;
            }
            let Some(path) = &choice.path else {
                // `meshAndTree`'s mesh is also its first body choice: one file, said once.
                // (Unless a compiled hierarchy stood in for the skeleton: then only the mesh is missing.)
                let said = compiled_skeleton.is_none()
                    && skeleton.as_ref().is_some_and(|(n, _, l)| *l == choice.line && *n == choice.name);
                if !said {
                    missing.push((choice.line, not_found(&group.name, &choice.name)));
                }
                row.push(None);
                continue;
            };
            row.push(Some(job_of(path, DEFAULT_FPS, &mut jobs)));
        }
        body_jobs.push(row);
    }
    for (line, problem) in &missing {
        warnings.push(Warning::error(position(&files, 0, *line), format!("{problem}; the model is shown without it")));
    }
    let mut sequence_jobs: Vec<Option<usize>> = Vec::new();
    let mut compiled_sequences: Vec<Option<PathBuf>> = Vec::new();
    for seq in &mut script.sequences {
        let path = seq.paths.first().cloned().flatten();
        let stand_in = (path.is_none() && seq.kind == SequenceKind::Ani && !seq.files.is_empty())
            .then(|| compiled.animation(&model, &seq.name).cloned())
            .flatten();
        compiled_sequences.push(stand_in);
        sequence_jobs.push(path.map(|p| job_of(&p, DEFAULT_FPS, &mut jobs)));
    }
    let mut results: Vec<Option<Result<Loaded, LoadError>>> = load_all(&jobs, opts).into_iter().map(Some).collect();
    let mut uses = vec![0usize; jobs.len()];
    for j in skeleton_job.iter().chain(body_jobs.iter().flatten().flatten()).chain(sequence_jobs.iter().flatten()) {
        uses[*j] += 1;
    }

    // The skeleton, then the meshes (a file named twice is added once).
    let mut character = Asset::new(if mms { Format::Mms } else { Format::Mds });
    let mut meshes_of_job: HashMap<usize, Vec<usize>> = HashMap::new();
    if let (Some(job), Some((name, use_mesh, line))) = (skeleton_job, &skeleton) {
        if *use_mesh {
            // Its mesh is the first body choice, which brings the skeleton with it.
            release(&mut results, &mut uses, job);
        } else {
            let mut part = take(&mut results, &mut uses, job)
                .map_err(|e| error_at(&files, 0, *line, format!("\"{name}\" did not load: {e}")).with_kind(e.kind))?
                .asset;
            warnings.append(&mut part.warnings);
            add_skeleton_only(&mut character, &part, name, &mut warnings);
        }
    }
    // The skeleton of a compiled hierarchy, when the `meshAndTree` source is absent.
    let mut own_map = None;
    if let (Some(path), Some((name, _, line))) = (&compiled_skeleton, &skeleton) {
        let (bones, map) = compiled::skeleton(path, opts).map_err(|e| {
            error_at(&files, 0, *line, format!("\"{name}\" stands in as {}, which did not load: {e}", path.display()))
                .with_kind(e.kind)
        })?;
        character.skeleton = bones;
        character.axes = AxisConversion::z_up_right_handed();
        own_map = Some(map);
        compiled_used.push(path.clone());
    }
    for (g, group) in script.body_groups.iter_mut().enumerate() {
        for (c, choice) in group.choices.iter_mut().enumerate() {
            let Some(job) = body_jobs[g][c] else { continue };
            if let Some(meshes) = meshes_of_job.get(&job) {
                choice.meshes = meshes.clone();
                release(&mut results, &mut uses, job);
                continue;
            }
            let loaded = take(&mut results, &mut uses, job).map_err(|e| {
                error_at(&files, 0, choice.line, format!("{} \"{}\" did not load: {e}", group.name, choice.name))
                    .with_kind(e.kind)
            })?;
            let mut part = loaded.asset;
            warnings.append(&mut part.warnings);
            if part.meshes.is_empty() {
                warnings
                    .push(Warning::new(format!("line {}", choice.line), format!("\"{}\" holds no mesh", choice.name)));
            }
            part.clips.clear();
            choice.meshes = add_part(&mut character, part, &choice.name, &mut warnings);
            meshes_of_job.insert(job, choice.meshes.clone());
        }
    }

    for (g, c, path) in compiled_choices {
        let Some(choice) = script.body_groups.get_mut(g).and_then(|group| group.choices.get_mut(c)) else { continue };
        if character.skeleton.is_empty() {
            missing.push((choice.line, format!("\"{}\" has a compiled mesh but no skeleton to hang on", choice.name)));
            continue;
        }
        let name = choice.name.rsplit_once('.').map_or(choice.name.as_str(), |(s, _)| s).to_owned();
        let meshes = compiled::add_meshes(&mut character, own_map.as_ref(), &path, &name, opts, &mut warnings)
            .map_err(|e| {
                error_at(&files, 0, choice.line, format!("\"{}\": the compiled mesh did not load: {e}", choice.name))
                    .with_kind(e.kind)
            })?;
        choice.meshes = meshes;
        choice.path = Some(path.clone());
        compiled_used.push(path);
    }

    let head_mesh = script.body_groups.first().and_then(|g| g.choices.first()).and_then(|c| c.meshes.first().copied());
    let mut built: Vec<Option<Clip>> = vec![None; script.sequences.len()];
    for i in 0..script.sequences.len() {
        if matches!(script.sequences[i].kind, SequenceKind::Alias { .. }) {
            continue;
        }
        let seq = &mut script.sequences[i];
        let at = position(&files, seq.file, seq.line);
        if let Some(path) = compiled_sequences[i].clone().filter(|_| !character.skeleton.is_empty()) {
            match compiled::clip(&character, own_map.as_ref(), seq, i, &path, opts, &mut warnings) {
                Ok(clip) => {
                    built[i] = Some(clip);
                    compiled_used.push(path);
                }
                Err(e) => {
                    let problem = format!("compiled animation file did not load: {e}");
                    warnings.push(Warning::new(at, format!("ani \"{}\": {problem}", seq.name)));
                    seq.problem = Some(problem);
                }
            }
            continue;
        }
        let Some(job) = sequence_jobs[i] else {
            let problem = format!(
                "\"{}\" not found in the ASC_* folders of {}",
                seq.files.first().map(String::as_str).unwrap_or_default(),
                index.root.display()
            );
            let message = format!("{} \"{}\": {problem}; not loaded", kind_word(seq), seq.name);
            // A file named and not there is an error; an `ani` that names none is only a warning.
            if seq.files.is_empty() {
                warnings.push(Warning::new(at, message));
            } else {
                missing.push((seq.line, problem.clone()));
                warnings.push(Warning::error(at, message));
            }
            seq.problem = Some(problem);
            continue;
        };
        let loaded = match take(&mut results, &mut uses, job) {
            Ok(l) => l,
            Err(e) => {
                let problem = format!("animation file did not load: {e}");
                warnings.push(Warning::new(at, format!("{} \"{}\": {problem}", kind_word(seq), seq.name)));
                seq.problem = Some(problem);
                continue;
            }
        };
        let clip = if mms {
            let head = head_mesh.and_then(|m| character.meshes.get(m).map(|mesh| (m, mesh)));
            morph_clip(seq, i, loaded, head, &at, &mut warnings).map(|(mut clip, frames)| {
                if let Some(head) = head_mesh.and_then(|m| character.meshes.get_mut(m))
                    && !frames.is_empty()
                {
                    add_head_morphs(head, &mut clip, frames);
                }
                clip
            })
        } else {
            skeletal_clip(seq, i, loaded, &at, &mut warnings, &mut character.readings)
        };
        built[i] = clip;
    }
    resolve_aliases(&mut script.sequences, &mut built, &files, &mut warnings);
    let clips: Vec<Clip> = built.into_iter().flatten().collect();
    if let Some((line, problem)) = missing.first()
        && character.skeleton.is_empty()
        && character.meshes.is_empty()
        && clips.is_empty()
    {
        // Nothing the script names is there: not a model with parts missing, but none at all.
        return Err(error_at(&files, 0, *line, problem.clone())
            .with_kind(crate::io::LoadErrorKind::Io(std::io::ErrorKind::NotFound)));
    }
    if !compiled_used.is_empty() {
        let names: Vec<String> = compiled_used
            .iter()
            .map(|p| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned()))
            .collect();
        warnings.push(Warning::new(
            "",
            format!(
                "the sources of {} part(s) are not there; the engine's compiled files stand in for them (sources win \
                 where both are): {}",
                names.len(),
                names.join(", ")
            ),
        ));
    }
    warn_unmatched_tracks(&character.skeleton, &clips, &mut warnings);
    warn_ambiguous_names(&script, skeleton.as_ref(), &index, &files, &mut warnings);
    character.clips = clips;
    character.warnings = warnings;
    character.model_script = Some(Box::new(script));
    Ok(character)
}

/// One warning per file name the script uses that is in several folders: which one was taken and why (see
/// `asc_index`), at the first line naming it.
fn warn_ambiguous_names(
    script: &ModelScript,
    skeleton: Option<&(String, bool, usize)>,
    index: &AscIndex,
    files: &[PathBuf],
    warnings: &mut Vec<Warning>,
) {
    let mut named: Vec<(&str, usize)> = skeleton.map(|(n, _, l)| (n.as_str(), *l)).into_iter().collect();
    named.extend(script.body_groups.iter().flat_map(|g| &g.choices).map(|c| (c.name.as_str(), c.line)));
    for seq in script.sequences.iter().filter(|s| !matches!(s.kind, SequenceKind::Alias { .. })) {
        named.extend(seq.files.iter().map(|f| (f.as_str(), seq.line)));
    }
    let mut said: Vec<String> = Vec::new();
    let shown = |p: &Path| p.strip_prefix(&index.root).unwrap_or(p).display().to_string();
    for (name, line) in named {
        let Some(choice) = index.choice(name).filter(|c| !c.others.is_empty()) else { continue };
        let key = name.rsplit(['/', '\\']).next().unwrap_or(name).to_lowercase();
        if said.contains(&key) {
            continue;
        }
        said.push(key);
        let others: Vec<String> = choice.others.iter().map(|p| shown(p)).collect();
        warnings.push(Warning::new(
            position(files, 0, line),
            format!(
                "\"{name}\" is in {} folders: {} is used ({}), not {}",
                others.len() + 1,
                shown(choice.path),
                choice.why.describe(),
                others.join(", ")
            ),
        ));
    }
}

/// Finds every file the script names in `index`: each body choice's `path` and each sequence's `paths` (`None`
/// where not found); returns the skeleton's (`meshAndTree` / `morphRef`) file. Loading and [`super::plan`] both
/// read them from here.
pub(super) fn resolve_paths(
    script: &mut ModelScript,
    skeleton: Option<&(String, bool, usize)>,
    index: &AscIndex,
) -> Option<PathBuf> {
    for choice in script.body_groups.iter_mut().flat_map(|g| g.choices.iter_mut()) {
        choice.path = index.find(&choice.name).cloned();
    }
    for seq in &mut script.sequences {
        seq.paths = seq.files.iter().map(|f| index.find(f).cloned()).collect();
    }
    skeleton.and_then(|(name, _, _)| index.find(name).cloned())
}

fn kind_word(seq: &ScriptSequence) -> &'static str {
    match seq.kind {
        SequenceKind::MorphAni => "morphAni",
        SequenceKind::Alias { .. } => "aniAlias",
        _ => "ani",
    }
}

/// The cut of a sequence's frames in a loaded file. `None` (warned, recorded) when the range misses the file.
fn cut_for(
    seq: &mut ScriptSequence,
    file_first: i32,
    file_fps: f32,
    file_frames: u32,
    at: &str,
    warnings: &mut Vec<Warning>,
) -> Option<Cut> {
    let mut cut = Cut {
        file_first,
        file_fps: file_fps.max(f32::EPSILON),
        file_frames: file_frames.max(1),
        first: seq.first_frame.unwrap_or(file_first),
        last: seq.last_frame.unwrap_or(file_first),
        play_fps: seq.fps,
        reversed: seq.reversed,
    };
    match cut.clamp_to_file() {
        Ok(None) => {}
        Ok(Some(note)) => {
            warnings.push(Warning::new(at, format!("{} \"{}\": {note}", kind_word(seq), seq.name)));
            seq.problem = Some(note);
        }
        Err(problem) => {
            warnings.push(Warning::new(at, format!("{} \"{}\": {problem}; not loaded", kind_word(seq), seq.name)));
            seq.problem = Some(problem);
            return None;
        }
    }
    Some(cut)
}

fn script_info(seq: &ScriptSequence, index: usize, cut: &Cut) -> ClipScript {
    ClipScript {
        sequence: index,
        looping: seq.looping,
        next: seq.next.clone(),
        blend_in: seq.blend_in,
        blend_out: seq.blend_out,
        reversed: cut.reversed,
        first_frame: cut.first,
        last_frame: cut.last,
        additive: false,
        vertex_frames: None,
        blend: None,
    }
}

fn skeletal_clip(
    seq: &mut ScriptSequence,
    index: usize,
    loaded: Loaded,
    at: &str,
    warnings: &mut Vec<Warning>,
    readings: &mut Vec<Reading>,
) -> Option<Clip> {
    let file_fps = loaded.frame_rate.unwrap_or(DEFAULT_FPS);
    let held = (loaded.asset.clips.is_empty() && !loaded.asset.skeleton.is_empty())
        .then(|| held_pose(&loaded.asset, loaded.first_frame, loaded.last_frame, file_fps));
    let Some(source) = loaded.asset.clips.into_iter().next().or(held) else {
        let problem = "the file holds no animation".to_owned();
        warnings.push(Warning::new(at, format!("ani \"{}\": {problem}; not loaded", seq.name)));
        seq.problem = Some(problem);
        return None;
    };
    if source.tracks.iter().all(|t| t.translation.len() <= 1 && t.rotation.len() <= 1) && loaded.asset.path.is_some() {
        let file = loaded.asset.path.as_deref().and_then(Path::file_name).map(|f| f.to_string_lossy().into_owned());
        readings.push(Reading::new(
            "content",
            format!("ani \"{}\": {} holds one pose and no key changes", seq.name, file.unwrap_or_default()),
            "played as that pose held over the frames the script names, as the engine plays it (ZenGin builds a \
             one-sample animation of such a file's node transforms)",
        ));
    }
    let cut = cut_for(seq, loaded.first_frame, source.frame_rate, source.frame_count, at, warnings)?;
    let mut clip = cut_clip(source, &seq.name, &cut);
    let (keys, outside) = event_keys(&seq.events, &cut);
    if !outside.is_empty() {
        warnings.push(Warning::new(
            at,
            format!(
                "ani \"{}\": event frame(s) {outside:?} outside frames {}–{}; placed at the nearer end",
                seq.name, cut.first, cut.last
            ),
        ));
    }
    clip.callback_keys = keys;
    clip.script = Some(Box::new(script_info(seq, index, &cut)));
    seq.frame_count = clip.frame_count;
    seq.loaded = true;
    Some(clip)
}

/// The pose of a file with frames but no animation (a Gothic `_USE.ASC`: a character at a bench, a static
/// pose): each node's transform held from the file's first to its last frame.
fn held_pose(asset: &Asset, first: i32, last: Option<i32>, fps: f32) -> Clip {
    let frames = last.map_or(1, |l| i64::from(l) - i64::from(first) + 1).clamp(1, i64::from(u32::MAX)) as u32;
    let duration = (frames - 1) as f32 / fps.max(f32::EPSILON);
    let tracks = asset
        .skeleton
        .names
        .iter()
        .zip(&asset.skeleton.bind_local)
        .map(|(name, local)| BoneTrack {
            bone_name: name.clone(),
            translation: Curve::constant(local.translation),
            rotation: Curve::constant(local.rotation),
            scale: Curve::constant(local.scale),
        })
        .collect();
    Clip { name: String::new(), duration, frame_rate: fps, frame_count: frames, tracks, ..Clip::default() }
}

/// A frame of a `morphAni` clip on the head mesh: the morph target it is played with and where it sits.
struct HeadFrame {
    /// The target's name: the `morphAni`'s own name where it is one frame (`S_ANGRY`, what the game and the
    /// script call that face), else the animation's name and the file's frame number (`T_EAT frame 3`). A
    /// target is shared by the clips that name the same one.
    target: String,
    /// Time in the clip.
    time: f32,
    /// The frame in the head mesh's vertex numbering.
    frame: VertexFrame,
}

/// A `morphAni`: the named file's frames `first`–`last` at `SPD:`, carried over to the head mesh. The animation
/// files describe the head's faces, split into render vertices their own way (the head has texture coordinates,
/// the animations none), so each frame is taken over corner by corner (`ase::corner_map`, as binding an
/// animation file to the head does); files that record no corners but have the head's vertex count are taken
/// vertex by vertex. The clip keeps the frames (`ClipScript::vertex_frames`); the caller turns them into morph
/// targets and weight tracks.
fn morph_clip(
    seq: &mut ScriptSequence,
    index: usize,
    loaded: Loaded,
    head: Option<(usize, &Mesh)>,
    at: &str,
    warnings: &mut Vec<Warning>,
) -> Option<(Clip, Vec<HeadFrame>)> {
    let asset = loaded.asset;
    let file_fps = asset.clips.first().map(|c| c.frame_rate).or(loaded.frame_rate).unwrap_or(DEFAULT_FPS);
    let mesh = asset.meshes.iter().find(|m| !m.vertex_frames.is_empty()).or_else(|| asset.meshes.first());
    // The frames of the file: its vertex animation, or the mesh itself as its only frame.
    let frames: Vec<VertexFrame> = match mesh {
        Some(m) if !m.vertex_frames.is_empty() => m.vertex_frames.clone(),
        Some(m) => vec![VertexFrame { time: 0.0, positions: m.positions.clone(), normals: m.normals.clone() }],
        None => Vec::new(),
    };
    let file_frames = asset.clips.first().map(|c| c.frame_count).unwrap_or(frames.len() as u32).max(1);
    let cut = cut_for(seq, loaded.first_frame, file_fps, file_frames, at, warnings)?;
    let mut clip = cut_clip(Clip::default(), &seq.name, &cut);
    let mut info = script_info(seq, index, &cut);
    let kept = cut_vertex_frame_times(&frames, &cut);
    let mut not_played = |problem: String, seq: &mut ScriptSequence| {
        warnings.push(Warning::new(at, format!("morphAni \"{}\": {problem}", seq.name)));
        seq.problem = Some(problem);
    };
    let mut head_frames = Vec::new();
    match (head, mesh) {
        _ if kept.is_empty() => not_played(
            "the file holds no vertex frames of the head in this range; the clip has its timing only".to_owned(),
            seq,
        ),
        (None, _) => not_played("there is no head mesh to animate".to_owned(), seq),
        (Some((head_index, head_mesh)), Some(source)) => match head_vertex_map(head_mesh, source) {
            Ok(map) => {
                let single = kept.len() == 1;
                for &(k, time) in &kept {
                    let number = loaded.first_frame + (frames[k].time * cut.file_fps).round() as i32;
                    let target = if single { seq.name.clone() } else { format!("{} frame {number}", seq.name) };
                    let mut frame = match &map {
                        Some(map) => remap_frame(&frames[k], map),
                        None => frames[k].clone(),
                    };
                    frame.time = time;
                    head_frames.push(HeadFrame { target, time, frame });
                }
                let frames = head_frames.iter().map(|f| f.frame.clone()).collect();
                info.vertex_frames = Some(ClipVertexFrames { mesh: head_index, frames });
            }
            Err(problem) => not_played(format!("{problem}; they are not played"), seq),
        },
        (Some(_), None) => not_played("the file holds no mesh".to_owned(), seq),
    }
    clip.script = Some(Box::new(info));
    seq.frame_count = clip.frame_count;
    seq.loaded = true;
    Some((clip, head_frames))
}

/// How an animation file's vertices map onto the head's: `Some(map)` corner by corner, `None` when they are the
/// head's vertices as they are (same count, no corners recorded to go by).
fn head_vertex_map(head: &Mesh, source: &Mesh) -> Result<Option<Vec<u32>>, String> {
    let (hv, sv) = (head.vertex_count(), source.vertex_count());
    if !head.corner_vertices.is_empty() && head.corner_vertices.len() == source.corner_vertices.len() {
        return corner_map(head, source).map(Some).ok_or_else(|| {
            format!(
                "its frames ({sv} vertices) do not fit the head mesh ({hv} vertices): the same {} triangles are \
                 numbered differently or lie elsewhere",
                source.triangle_count()
            )
        });
    }
    if (head.corner_vertices.is_empty() || source.corner_vertices.is_empty()) && hv == sv {
        return Ok(None);
    }
    Err(format!(
        "its frames ({sv} vertices, {} triangles) do not fit the head mesh ({hv} vertices, {} triangles)",
        source.triangle_count(),
        head.triangle_count()
    ))
}

/// Gives a `morphAni` clip's frames to the head mesh as morph targets (one per frame of a file, shared by the
/// clips that use it; a frame equal to the head needs none) and the clip the weight tracks that tween through
/// them, as `scene::vertex_animation` does for a file's own vertex frames.
fn add_head_morphs(head: &mut Mesh, clip: &mut Clip, frames: Vec<HeadFrame>) {
    let mut names: Vec<Option<String>> = Vec::with_capacity(frames.len());
    for f in &frames {
        if head.morph_targets.iter().any(|t| t.name == f.target) {
            names.push(Some(f.target.clone()));
            continue;
        }
        let target = frame_target(head, f.target.clone(), &f.frame.positions, &f.frame.normals);
        if target.vertices.is_empty() {
            names.push(None);
        } else {
            names.push(Some(f.target.clone()));
            head.morph_targets.push(target);
        }
    }
    let times: Vec<f32> = frames.iter().map(|f| f.time).collect();
    let targets: Vec<Option<&str>> = names.iter().map(Option::as_deref).collect();
    clip.morph_tracks.extend(tween_tracks(&times, &targets, Some(&head.name)));
}

/// An alias's own events as callback keys: its frames are the source file's, as in the animation it names, so
/// frame `f` sits `(f − first) / fps` into the clip, counted from the end when the alias plays the frames
/// backwards relative to the file.
fn alias_event_keys(events: &[ScriptEvent], clip: &Clip, info: &ClipScript) -> Vec<CallbackKey> {
    let fps = if clip.frame_rate > 0.0 { clip.frame_rate } else { 25.0 };
    let mut keys: Vec<CallbackKey> = events
        .iter()
        .map(|e| {
            let t = ((e.frame.saturating_sub(info.first_frame)) as f32 / fps).clamp(0.0, clip.duration);
            let t = if info.reversed { clip.duration - t } else { t };
            CallbackKey::event(t, e.frame, e.kind.clone(), e.data_with_options())
        })
        .collect();
    keys.sort_by(|a, b| a.time.total_cmp(&b.time));
    keys
}

/// `aniAlias`: the clip of the animation it names (itself possibly an alias, defined before or after it),
/// renamed, with the alias's next animation and blend times, reversed again for `R`.
fn resolve_aliases(
    sequences: &mut [ScriptSequence],
    built: &mut [Option<Clip>],
    files: &[PathBuf],
    warnings: &mut Vec<Warning>,
) {
    let by_name: HashMap<String, usize> =
        sequences.iter().enumerate().rev().map(|(i, s)| (s.name.to_lowercase(), i)).collect();
    // Each pass resolves the aliases whose target is built; chains need as many passes as they are long.
    for _ in 0..sequences.len() {
        let mut progress = false;
        for i in 0..sequences.len() {
            let SequenceKind::Alias { of } = &sequences[i].kind else { continue };
            if built[i].is_some() || sequences[i].problem.is_some() {
                continue;
            }
            let Some(&target) = by_name.get(&of.to_lowercase()) else {
                let problem = format!("aliases \"{of}\", which the script does not define");
                warnings.push(Warning::new(
                    position(files, 0, sequences[i].line),
                    format!("aniAlias \"{}\": {problem}", sequences[i].name),
                ));
                sequences[i].problem = Some(problem);
                continue;
            };
            let Some(source) = built[target].clone() else {
                if sequences[target].problem.is_some() && !matches!(sequences[target].kind, SequenceKind::Alias { .. })
                    || target == i
                {
                    let problem = format!("\"{of}\" did not load");
                    warnings.push(Warning::new(
                        position(files, 0, sequences[i].line),
                        format!("aniAlias \"{}\": {problem}", sequences[i].name),
                    ));
                    sequences[i].problem = Some(problem);
                }
                continue;
            };
            let (t_first, t_last, t_fps, t_files, t_paths, t_reversed) = {
                let t = &sequences[target];
                (t.first_frame, t.last_frame, t.fps, t.files.clone(), t.paths.clone(), t.reversed)
            };
            let seq = &mut sequences[i];
            let mut clip = source;
            clip.name = seq.name.clone();
            if seq.reversed {
                reverse_clip(&mut clip);
            }
            let mut info = clip.script.as_deref().cloned().unwrap_or_default();
            info.sequence = i;
            info.looping = seq.looping;
            info.next = seq.next.clone();
            info.blend_in = seq.blend_in;
            info.blend_out = seq.blend_out;
            info.reversed = t_reversed != seq.reversed;
            if !seq.events.is_empty() {
                clip.callback_keys = alias_event_keys(&seq.events, &clip, &info);
            }
            clip.script = Some(Box::new(info));
            seq.first_frame = t_first;
            seq.last_frame = t_last;
            seq.fps = t_fps;
            seq.files = t_files;
            seq.paths = t_paths;
            seq.frame_count = clip.frame_count;
            seq.loaded = true;
            built[i] = Some(clip);
            progress = true;
        }
        if !progress {
            break;
        }
    }
    for (i, seq) in sequences.iter_mut().enumerate() {
        if matches!(seq.kind, SequenceKind::Alias { .. }) && built[i].is_none() && seq.problem.is_none() {
            let problem = "its aliases form a cycle or end in an animation that did not load".to_owned();
            warnings.push(Warning::new(position(files, 0, seq.line), format!("aniAlias \"{}\": {problem}", seq.name)));
            seq.problem = Some(problem);
        }
    }
}
