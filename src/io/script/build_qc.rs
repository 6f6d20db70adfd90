//! A parsed QC → the whole character: every body choice's reference SMD merged into one skeleton and mesh
//! list, one clip per `$sequence` (named as the sequence, at its `fps`, cut to `frame a b`, events as callback
//! keys), textures looked up in `$cdtexture` folders and through `$cdmaterials` (`materials`).
//!
//! Each reference mesh and animation is placed by the `$origin`/`$scale` in effect where the script names it
//! (`placement`), as studiomdl does when it grabs the file.
//!
//! Files are relative to `$cd` (studiomdl: `cd / (name + ".smd")`; the extension is added when the script
//! leaves it out: `.dmx`, then `.smd`, as Source's studiomdl tries them). A DMX names a mesh or an animation as an
//! SMD does. A file that is not there (a reference mesh or an animation) is an error-level warning
//! naming the script line, and the rest loads, so a user can still look at what is there; only a script none
//! of whose files are there fails. A reference mesh that is there but broken fails the character with an
//! error naming the script line; a broken animation is a warning on its sequence.

use std::path::{Path, PathBuf};

use super::cut::{Cut, bind_pose_clip, cut_clip, event_keys};
use super::files::DirCache;
use super::load::{Job, Loaded, job_of, load_all, take};
use super::materials::MaterialSearch;
use super::merge::add_part;
use super::placement::{place_asset, place_clip, place_skeleton};
use super::qc::ParsedQc;
use super::{error_at, position, warn_unmatched_tracks};
use crate::io::textures::find_texture_in;
use crate::io::{LoadError, LoadErrorKind, LoadOptions};
use crate::scene::{Asset, ClipScript, Format, ModelScript, TextureFolder, Warning};

/// Extensions tried for a file named without one, in the order Source's studiomdl prefers them (DMX before SMD;
/// GoldSrc's reads SMD only, and its trees hold no DMX).
const MESH_EXTENSIONS: [&str; 2] = ["dmx", "smd"];

pub fn build(parsed: ParsedQc, dirs: &mut DirCache, opts: &LoadOptions) -> Result<Asset, LoadError> {
    let ParsedQc { mut script, cd, mut warnings } = parsed;

    // Resolve every file first, then load them all at once.
    resolve_paths(&mut script, &cd, dirs);
    let mut materials = MaterialSearch::new(&script, &cd, dirs, opts);
    let mut jobs: Vec<Job> = Vec::new();
    // Files named and not found: (script file, line, what) — error-level warnings, the rest loads.
    let mut missing: Vec<(usize, usize, String)> = Vec::new();
    let mut body_jobs: Vec<Vec<Option<usize>>> = Vec::new();
    for group in &mut script.body_groups {
        let mut row = Vec::new();
        for choice in &mut group.choices {
            if is_blank(&choice.name) {
                row.push(None);
                continue;
            }
            let Some(path) = choice.path.clone() else {
                // The character opens without it: the other bodies and the sequences are still worth seeing.
                let problem = format!(
                    "reference mesh \"{}\" of body group \"{}\" not found (looked for {} in {})",
                    choice.name,
                    group.name,
                    with_extension(&choice.name),
                    cd.display()
                );
                missing.push((choice.file, choice.line, problem));
                row.push(None);
                continue;
            };
            row.push(Some(job_of(&path, opts.default_fps, &mut jobs)));
        }
        body_jobs.push(row);
    }
    let mut sequence_jobs: Vec<Option<usize>> = Vec::new();
    // A blend sequence's further animations (`None` where a file was not found).
    let mut blend_jobs: Vec<Vec<Option<usize>>> = Vec::new();
    for seq in &mut script.sequences {
        let first = seq.paths.first().cloned().flatten();
        sequence_jobs.push(first.map(|p| job_of(&p, seq.fps, &mut jobs)));
        let others = seq.paths.iter().skip(1).map(|p| p.as_ref().map(|p| job_of(p, seq.fps, &mut jobs))).collect();
        blend_jobs.push(others);
    }

    let mut results: Vec<Option<Result<Loaded, LoadError>>> = load_all(&jobs, opts).into_iter().map(Some).collect();
    let mut uses: Vec<usize> = vec![0; jobs.len()];
    let all_blend_jobs = blend_jobs.iter().flatten().flatten();
    for j in body_jobs.iter().flatten().flatten().chain(sequence_jobs.iter().flatten()).chain(all_blend_jobs) {
        uses[*j] += 1;
    }

    for (file, line, problem) in &missing {
        warnings.push(Warning::error(
            position(&script.files, *file, *line),
            format!("{problem}; the character is shown without it"),
        ));
    }
    // Reference meshes, in script order; the first one's skeleton is the character's.
    let mut character = Asset::new(Format::Qc);
    let texture_dirs = texture_folders(&script);
    for (g, group) in script.body_groups.iter_mut().enumerate() {
        for (c, choice) in group.choices.iter_mut().enumerate() {
            let Some(job) = body_jobs[g][c] else { continue };
            let loaded = take(&mut results, &mut uses, job).map_err(|e| {
                error_at(
                    &script.files,
                    choice.file,
                    choice.line,
                    format!("reference mesh \"{}\" of body group \"{}\" did not load: {e}", choice.name, group.name),
                )
                .with_kind(e.kind)
            })?;
            let mut part = loaded.asset;
            place_asset(&mut part, &choice.placement.unwrap_or_default());
            find_textures(&mut part, &texture_dirs, opts);
            if let Some(materials) = materials.as_mut() {
                materials.apply(&mut part, dirs, opts);
            }
            warnings.append(&mut part.warnings);
            let label = file_label(&jobs[job].path);
            if part.meshes.is_empty() {
                warnings.push(Warning::new(
                    position(&script.files, choice.file, choice.line),
                    format!("reference \"{}\" holds no triangles", choice.name),
                ));
            }
            part.clips.clear();
            choice.meshes = add_part(&mut character, part, &label, &mut warnings);
        }
    }

    // Skin families name textures: their materials are known now that the meshes are in.
    let mut families = std::mem::take(&mut script.skin_families);
    super::studio_qc::apply_skin_families(&mut character, &mut families, &script.texture_dirs, opts, &mut warnings);
    script.skin_families = families;

    // One clip per sequence.
    let mut clips = Vec::with_capacity(script.sequences.len());
    let files = script.files.clone();
    for (i, seq) in script.sequences.iter_mut().enumerate() {
        let at = position(&files, seq.file, seq.line);
        let others = std::mem::take(&mut blend_jobs[i]);
        let Some(job) = sequence_jobs[i] else {
            for j in others.into_iter().flatten() {
                super::load::release(&mut results, &mut uses, j);
            }
            let (problem, not_found) = match seq.files.first() {
                Some(f) => (
                    format!("animation \"{f}\" not found (looked for {} in {})", with_extension(f), cd.display()),
                    true,
                ),
                None => ("names no animation file".to_owned(), false),
            };
            let message = format!("sequence \"{}\": {problem}; not loaded", seq.name);
            if not_found {
                missing.push((seq.file, seq.line, problem.clone()));
                warnings.push(Warning::error(at, message));
            } else {
                warnings.push(Warning::new(at, message));
            }
            seq.problem = Some(problem);
            continue;
        };
        let loaded = match take(&mut results, &mut uses, job) {
            Ok(l) => l,
            Err(e) => {
                for j in others.into_iter().flatten() {
                    super::load::release(&mut results, &mut uses, j);
                }
                let problem = format!("animation did not load: {e}");
                warnings.push(Warning::new(at, format!("sequence \"{}\": {problem}", seq.name)));
                seq.problem = Some(problem);
                continue;
            }
        };
        let placement = seq.placement.unwrap_or_default();
        if character.skeleton.is_empty() {
            warnings
                .push(Warning::new(at.clone(), "no reference mesh: the skeleton of this sequence's animation is used"));
            character.skeleton = loaded.asset.skeleton.clone();
            place_skeleton(&mut character.skeleton, &placement);
            character.axes = loaded.asset.axes;
        }
        let mut source = match loaded.asset.clips.into_iter().next() {
            Some(c) => c,
            // A reference SMD used as a one-frame animation (studiomdl accepts it).
            None => bind_pose_clip(&loaded.asset.skeleton, &seq.name, seq.fps),
        };
        place_clip(&mut source, &loaded.asset.skeleton, &placement);
        let mut cut = Cut {
            file_first: loaded.first_frame,
            file_fps: source.frame_rate.max(f32::EPSILON),
            file_frames: source.frame_count.max(1),
            first: seq.first_frame.unwrap_or(loaded.first_frame),
            last: seq.last_frame.unwrap_or(i32::MAX),
            play_fps: seq.fps,
            reversed: false,
        };
        cut.last = cut.last.min(cut.file_last());
        match cut.clamp_to_file() {
            Ok(None) => {}
            Ok(Some(note)) => {
                warnings.push(Warning::new(at.clone(), format!("sequence \"{}\": {note}", seq.name)));
                seq.problem = Some(note);
            }
            Err(problem) => {
                for j in others.into_iter().flatten() {
                    super::load::release(&mut results, &mut uses, j);
                }
                warnings.push(Warning::new(at, format!("sequence \"{}\": {problem}; not loaded", seq.name)));
                seq.problem = Some(problem);
                continue;
            }
        }
        let blend = blend_animations(others, &mut results, &mut uses, seq, &cut, &at, &mut warnings);
        let mut clip = cut_clip(source, &seq.name, &cut);
        let (keys, outside) = event_keys(&seq.events, &cut);
        if !outside.is_empty() {
            warnings.push(Warning::new(
                at,
                format!(
                    "sequence \"{}\": event frame(s) {outside:?} outside frames {}–{}; placed at the nearer end (as \
                     studiomdl does)",
                    seq.name, cut.first, cut.last
                ),
            ));
        }
        clip.callback_keys = keys;
        clip.script = Some(Box::new(ClipScript {
            sequence: i,
            looping: seq.looping,
            first_frame: cut.first,
            last_frame: cut.last,
            blend,
            ..ClipScript::default()
        }));
        seq.first_frame = Some(cut.first);
        seq.last_frame = Some(cut.last);
        seq.frame_count = clip.frame_count;
        seq.loaded = true;
        clips.push(clip);
    }
    if let Some((file, line, problem)) = missing.first()
        && character.skeleton.is_empty()
        && character.meshes.is_empty()
        && clips.is_empty()
    {
        // Nothing the script names is there: not a character with parts missing, but none at all.
        return Err(error_at(&script.files, *file, *line, problem.clone())
            .with_kind(LoadErrorKind::Io(std::io::ErrorKind::NotFound)));
    }
    super::delta::apply(&character.skeleton, &script, &mut clips, &mut warnings);
    warn_unmatched_tracks(&character.skeleton, &clips, &mut warnings);
    character.clips = clips;
    character.warnings = warnings;
    character.model_script = Some(Box::new(script));
    Ok(character)
}

/// A blend sequence's further animations (its second and later files), each cut and timed as its first one is
/// (studiomdl gives every blend the sequence's frame range and rate). A file that is missing or did not load is
/// a warning and leaves the sequence without its blends: the mix needs every one of them.
fn blend_animations(
    jobs: Vec<Option<usize>>,
    results: &mut [Option<Result<Loaded, LoadError>>],
    uses: &mut [usize],
    seq: &crate::scene::ScriptSequence,
    first: &Cut,
    at: &str,
    warnings: &mut Vec<Warning>,
) -> Option<Box<crate::scene::ClipBlend>> {
    if jobs.is_empty() {
        return None;
    }
    let mut animations = Vec::with_capacity(jobs.len());
    let mut problem = None;
    for (n, job) in jobs.iter().enumerate() {
        let file = seq.files.get(n + 1).map_or("?", String::as_str);
        let Some(job) = *job else {
            problem.get_or_insert_with(|| format!("blend animation \"{file}\" not found"));
            continue;
        };
        let loaded = match take(results, uses, job) {
            Ok(l) => l,
            Err(e) => {
                problem.get_or_insert_with(|| format!("blend animation \"{file}\" did not load: {e}"));
                continue;
            }
        };
        let mut source = match loaded.asset.clips.into_iter().next() {
            Some(c) => c,
            None => bind_pose_clip(&loaded.asset.skeleton, &seq.name, seq.fps),
        };
        place_clip(&mut source, &loaded.asset.skeleton, &seq.placement.unwrap_or_default());
        let mut cut = Cut {
            file_first: loaded.first_frame,
            file_fps: source.frame_rate.max(f32::EPSILON),
            file_frames: source.frame_count.max(1),
            ..*first
        };
        if cut.clamp_to_file().is_err() {
            problem.get_or_insert_with(|| {
                format!("blend animation \"{file}\" has none of frames {}–{}", first.first, first.last)
            });
            continue;
        }
        animations.push(cut_clip(source, &format!("{} (blend {})", seq.name, n + 2), &cut));
    }
    if let Some(problem) = problem {
        warnings
            .push(Warning::new(at, format!("sequence \"{}\": {problem}; it plays its first animation only", seq.name)));
        return None;
    }
    let parameters = if matches!(animations.len() + 1, 4 | 9) { 2 } else { 1 };
    let defaults = std::array::from_fn(|p| crate::anim::studio::blend_fraction(seq.blends.get(p), 0.0));
    Some(Box::new(crate::scene::ClipBlend { animations, parameters, defaults }))
}

/// A `blank` body choice names no file (studiomdl's empty choice).
pub(super) fn is_blank(name: &str) -> bool {
    name.eq_ignore_ascii_case("blank")
}

/// Finds every file the script names, relative to `cd`: each body choice's `path` (left `None` for `blank`
/// and for files not found) and each sequence's `paths`. Loading and [`super::plan`] both read them from here.
pub(super) fn resolve_paths(script: &mut ModelScript, cd: &Path, dirs: &mut DirCache) {
    for choice in script.body_groups.iter_mut().flat_map(|g| g.choices.iter_mut()) {
        if !is_blank(&choice.name) {
            choice.path = dirs.find_with_extensions(cd, &choice.name, &MESH_EXTENSIONS);
        }
    }
    for seq in &mut script.sequences {
        seq.paths = seq.files.iter().map(|f| dirs.find_with_extensions(cd, f, &MESH_EXTENSIONS)).collect();
    }
}

fn file_label(path: &Path) -> String {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("mesh").to_owned()
}

fn with_extension(name: &str) -> String {
    let has_extension = Path::new(&name.replace('\\', "/")).extension().is_some();
    if has_extension { name.to_owned() } else { MESH_EXTENSIONS.map(|e| format!("{name}.{e}")).join(" or ") }
}

/// The folders a QC's textures are looked for in after the mesh's own and the user's: its `$cdtexture` folders,
/// then the QC's own folder.
fn texture_folders(script: &ModelScript) -> Vec<(PathBuf, TextureFolder)> {
    let mut dirs: Vec<(PathBuf, TextureFolder)> =
        script.texture_dirs.iter().map(|d| (d.clone(), TextureFolder::ModelScript)).collect();
    if let Some(qc_dir) = script.files.first().and_then(|p| p.parent()) {
        dirs.push((qc_dir.to_path_buf(), TextureFolder::NextToScript));
    }
    dirs
}

/// Textures the SMD loader did not find next to the mesh or in the user's folders, looked up in the `$cdtexture`
/// folders too (studiomdl reads textures only from there), then beside the QC, last. The loader's "not found"
/// warning then lists only those still missing.
fn find_textures(part: &mut Asset, dirs: &[(PathBuf, TextureFolder)], opts: &LoadOptions) {
    let opts =
        LoadOptions { base_dir: part.path.as_deref().and_then(Path::parent).map(Path::to_path_buf), ..opts.clone() };
    for m in &mut part.materials {
        let Some(tex) = m.texture.as_mut() else { continue };
        if tex.path.is_some() {
            continue;
        }
        *tex = find_texture_in(&opts, &tex.name, dirs);
    }
    super::materials::restate_missing(part);
}
