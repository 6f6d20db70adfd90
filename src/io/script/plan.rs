//! What a model script names, without loading it: the script's own files (the script and its `$include`s)
//! and every mesh and animation file, found the way loading finds them ([`super::build_qc::resolve_paths`],
//! [`super::build_gothic::resolve_paths`]) or reported as not found with the script line naming it.
//!
//! For tools that look at a whole tree before loading anything (`bonescope check` groups files into
//! characters with it): only the script text is read, never the files it names. A Gothic overlay (an MDS with
//! no mesh of its own, [`super::overlay`]) also gets the plan of the base model it applies to, whose script
//! is read for it ([`read_bytes`]).

use std::path::{Path, PathBuf};

use super::asc_index::AscIndex;
use super::build_gothic;
use super::build_qc::{self, is_blank};
use super::files::{self, DirCache};
use super::{lex, mds, overlay, qc};
use crate::io::{Files, LoadError};
use crate::scene::{Format, ModelScript};

/// What a named file is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NamedRole {
    /// A mesh (QC `$body` / `$model` choice, MDS `registerMesh`, the MMS `morphRef`) or the skeleton
    /// (`meshAndTree`): without it the character opens incomplete (an error-level warning), or not at all
    /// when none of the script's files is there.
    Mesh,
    /// An animation (`$sequence`, `ani`, `morphAni`): without it only that sequence is missing.
    Animation,
}

/// A file a script names.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedFile {
    /// The name as the script writes it.
    pub name: String,
    pub role: NamedRole,
    /// Where it was found; `None` when it was not.
    pub path: Option<PathBuf>,
    /// The script file naming it (the script or an included file) and the line.
    pub script_file: PathBuf,
    pub line: usize,
}

/// The files of one model script.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptPlan {
    pub format: Format,
    /// The script and the files it includes, in the order read.
    pub script_files: Vec<PathBuf>,
    /// Every mesh and animation file named, in script order; a file named twice is listed twice.
    pub named: Vec<NamedFile>,
    /// For a Gothic overlay, the plan of the base model it applies to (which has a mesh of its own).
    pub base: Option<Box<ScriptPlan>>,
}

impl ScriptPlan {
    /// The named files that were found, each once.
    pub fn found(&self) -> Vec<&Path> {
        let mut out: Vec<&Path> = Vec::new();
        for path in self.named.iter().filter_map(|n| n.path.as_deref()) {
            if !out.contains(&path) {
                out.push(path);
            }
        }
        out
    }
}

/// Parses the script at `path` (its bytes given) and finds the files it names. Errors are the script's syntax
/// errors, as loading would report them.
pub fn plan(files: &Files, format: Format, bytes: &[u8], path: &Path) -> Result<ScriptPlan, LoadError> {
    plan_script(files, format, bytes, path, true)
}

/// The base model's plan of an overlay, when it is found, reads, and has a mesh of its own.
fn base_plan(files: &Files, script: &ModelScript, path: &Path) -> Option<Box<ScriptPlan>> {
    let base = overlay::base_of(script, path, &mut DirCache::new(files))?;
    let bytes = files.read(&base).ok()?;
    let plan = plan_script(files, Format::Mds, &bytes, &base, false).ok()?;
    plan.named.iter().any(|n| n.role == NamedRole::Mesh && n.path.is_some()).then(|| Box::new(plan))
}

fn plan_script(
    files: &Files,
    format: Format,
    bytes: &[u8],
    path: &Path,
    with_base: bool,
) -> Result<ScriptPlan, LoadError> {
    // As loading does (`super::load`): names are relative to the script's folder, made absolute once.
    let path = &files::absolute(path);
    let dir = path.parent().map_or_else(|| path.clone(), Path::to_path_buf);
    let text = lex::decode(bytes);
    let in_file = |e: LoadError| match e.file {
        Some(_) => e,
        None => e.in_file(path),
    };
    match format {
        Format::Qc => {
            let mut dirs = DirCache::new(files);
            let mut parsed = qc::parse(&text, Some(path), &dir, &mut dirs).map_err(in_file)?;
            build_qc::resolve_paths(&mut parsed.script, &parsed.cd, &mut dirs);
            Ok(collect(format, &parsed.script, None))
        }
        Format::Mds | Format::Mms | Format::ZenMsb => {
            let mut parsed = match format {
                Format::ZenMsb => crate::io::zengin::msb::parse(bytes).map_err(in_file)?,
                _ => mds::parse(&text).map_err(in_file)?,
            };
            parsed.script.files.push(path.to_path_buf());
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            let index = AscIndex::build(files, &dir, stem, &parsed.script.name);
            let mut skeleton_path = build_gothic::resolve_paths(&mut parsed.script, parsed.skeleton.as_ref(), &index);
            // The compiled files that stand in for sources not found are what loading reads.
            let model = if stem.is_empty() { parsed.script.name.clone() } else { stem.to_owned() };
            super::compiled::fill_in_stand_ins(
                &mut parsed.script,
                &mut skeleton_path,
                parsed.skeleton.is_some(),
                files,
                &index.root,
                &dir,
                &model,
            );
            let skeleton = parsed.skeleton.as_ref().map(|(name, _, line)| NamedFile {
                name: name.clone(),
                role: NamedRole::Mesh,
                path: skeleton_path,
                script_file: path.to_path_buf(),
                line: *line,
            });
            let mut plan = collect(format, &parsed.script, skeleton);
            if with_base && format == Format::Mds {
                plan.base = base_plan(files, &parsed.script, path);
            }
            Ok(plan)
        }
        _ => Err(LoadError::whole_file(format!("{} is not a model script format", format.name())).in_file(path)),
    }
}

fn collect(format: Format, script: &ModelScript, skeleton: Option<NamedFile>) -> ScriptPlan {
    let script_file = |file: usize| script.files.get(file).or(script.files.first()).cloned().unwrap_or_default();
    let mut named: Vec<NamedFile> = skeleton.into_iter().collect();
    for group in &script.body_groups {
        for choice in group.choices.iter().filter(|c| !is_blank(&c.name)) {
            named.push(NamedFile {
                name: choice.name.clone(),
                role: NamedRole::Mesh,
                path: choice.path.clone(),
                script_file: script_file(choice.file),
                line: choice.line,
            });
        }
    }
    for seq in &script.sequences {
        for (name, path) in seq.files.iter().zip(&seq.paths) {
            named.push(NamedFile {
                name: name.clone(),
                role: NamedRole::Animation,
                path: path.clone(),
                script_file: script_file(seq.file),
                line: seq.line,
            });
        }
    }
    ScriptPlan { format, script_files: script.files.clone(), named, base: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_qc_plan_lists_found_and_missing_files_with_their_lines() {
        let dir = std::env::temp_dir().join(format!("bonescope-script-plan-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("body.smd"), b"version 1\n").unwrap();
        std::fs::write(dir.join("walk.smd"), b"version 1\n").unwrap();
        let qc =
            b"$modelname \"a.mdl\"\n$body \"studio\" \"body\"\n$sequence walk \"walk\" fps 30\n$sequence run \"run\"\n";
        let path = dir.join("a.qc");
        let plan = plan(&Files::disk(), Format::Qc, qc, &path).unwrap();
        assert_eq!(plan.script_files, vec![path.clone()]);
        let summary: Vec<(&str, NamedRole, bool, usize)> =
            plan.named.iter().map(|n| (n.name.as_str(), n.role, n.path.is_some(), n.line)).collect();
        assert_eq!(
            summary,
            vec![
                ("body", NamedRole::Mesh, true, 2),
                ("walk", NamedRole::Animation, true, 3),
                ("run", NamedRole::Animation, false, 4)
            ]
        );
        assert_eq!(plan.found(), vec![dir.join("body.smd").as_path(), dir.join("walk.smd").as_path()]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// `path` as a script written on Windows names it: backslashes, and on Windows the drive letter
    /// (`C:\Users\…\Temp\…`), so the same test checks drive letters there and rooted backslash paths elsewhere.
    fn windows_spelling(path: &Path) -> String {
        path.display().to_string().replace('/', "\\")
    }

    #[test]
    fn absolute_references_with_backslashes_and_drive_letters_find_the_files_as_they_are_named_on_disk() {
        let dir = std::env::temp_dir().join(format!("bonescope-script-plan-abs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("Models/Crab/anims")).unwrap();
        std::fs::create_dir_all(dir.join("shared")).unwrap();
        std::fs::write(dir.join("Models/Crab/Body.smd"), b"version 1\n").unwrap();
        std::fs::write(dir.join("Models/Crab/anims/Walk.SMD"), b"version 1\n").unwrap();
        std::fs::write(dir.join("shared/Seq.qci"), b"$sequence walk \"anims\\WALK\" fps 30\n").unwrap();
        // The script lives elsewhere; everything it names is absolute, in another case than on disk.
        let root = windows_spelling(&dir);
        let qc = format!(
            "$cd \"{root}\\models\\crab\"\n$include \"{root}\\SHARED\\seq.qci\"\n$body studio \"{root}\\Models\\Crab\\BODY\"\n"
        );
        let script = dir.join("elsewhere.qc");
        let plan = plan(&Files::disk(), Format::Qc, qc.as_bytes(), &script).unwrap();
        assert_eq!(plan.script_files, vec![script.clone(), dir.join("shared/Seq.qci")]);
        let found: Vec<(&str, Option<&Path>)> =
            plan.named.iter().map(|n| (n.name.as_str(), n.path.as_deref())).collect();
        let body = dir.join("Models/Crab/Body.smd");
        let walk = dir.join("Models/Crab/anims/Walk.SMD");
        assert_eq!(
            found,
            vec![
                (format!("{root}\\Models\\Crab\\BODY").as_str(), Some(body.as_path())),
                ("anims\\WALK", Some(walk.as_path()))
            ]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_drive_letter_that_names_nothing_is_reported_not_guessed() {
        let dir = std::env::temp_dir().join(format!("bonescope-script-plan-drive-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("body.smd"), b"version 1\n").unwrap();
        // An author's folder on another machine: no `$cd` there, so nothing is found, and the QC's own folder
        // (which has a `body.smd`) is not taken in its place.
        let qc = b"$cd \"Q:\\nowhere\\bonescope-test\"\n$body studio \"body\"\n";
        let path = dir.join("a.qc");
        let plan = plan(&Files::disk(), Format::Qc, qc, &path).unwrap();
        assert_eq!(plan.named.len(), 1);
        assert_eq!(plan.named[0].path, None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
