//! Model scripts: a whole character opened from the script that describes it — a Valve QC (`$body`,
//! `$sequence`, `$hbox`, …) or a Gothic MDS/MMS (`meshAndTree`, `ani`, `aniAlias`, `morphAni`, …).
//!
//! The script is parsed into a [`ModelScript`](crate::scene::ModelScript) (`qc`, `mds`, sharing the tokenizer
//! in `lex`), the files it names are found (`files`: QC paths relative to `$cd`, Gothic files by name in the
//! `ASC_*` folders) and loaded in parallel (`load`), the mesh files are merged into one skeleton and mesh list
//! (`merge`), and each sequence becomes a clip cut from its animation file (`cut`) — `build_qc` and
//! `build_gothic` put it together. The result is one [`Asset`] whose clips carry the script's names, frame
//! rates, loop flags, next animations, blend times and events, and whose `model_script` keeps the rest for
//! `info` and the viewer.
//!
//! Names are resolved relative to the script's folder (made absolute once), never the working directory.
//! QC `$definevariable`s are substituted before the text is read (`variables`).
//!
//! Broken scripts give one [`LoadError`] naming the script (or the included file), the line and the problem;
//! a file the script names that is not there is an error-level [`Warning`] with the script line (the model is
//! incomplete) and everything that is there loads and stays usable. This module
//! reads files through the other loaders (`smd`, `ase`) and changes nothing in them. [`plan`] lists the files a
//! script names without loading them.

mod asc_index;
mod build_gothic;
mod build_qc;
mod compiled;
mod conditionals;
mod cut;
mod delta;
mod files;
pub mod gothic_head;
pub(crate) mod lex;
mod load;
mod materials;
pub(crate) mod mds;
mod merge;
pub mod overlay;
mod placement;
mod plan;
mod qc;
mod studio_qc;
mod unique_names;
mod variables;

use std::path::{Path, PathBuf};

use crate::io::{LoadError, LoadErrorKind, LoadOptions};
use crate::scene::{Asset, Clip, Format, Skeleton, Warning, normalize_bone_name};

pub use plan::{NamedFile, NamedRole, ScriptPlan, plan};
pub use qc::MAX_INCLUDE_DEPTH;
pub(crate) use qc::event_name;
pub(crate) use unique_names::make_unique;

/// True for the formats this module loads.
pub fn is_script_format(format: Format) -> bool {
    matches!(format, Format::Qc | Format::Mds | Format::Mms | Format::ZenMsb)
}

/// The script format of a file from its extension (`qc`, `mds`, `mms`, any case).
pub fn format_from_extension(extension: &str) -> Option<Format> {
    match extension.to_ascii_lowercase().as_str() {
        "qc" => Some(Format::Qc),
        "mds" => Some(Format::Mds),
        "mms" => Some(Format::Mms),
        "msb" => Some(Format::ZenMsb),
        _ => None,
    }
}

/// Recognises a script by its first words (comments skipped): a `$command` (QC), `Model (` (MDS) or
/// `morphMesh (` (MMS). `head` is the start of the file.
pub fn sniff(head: &[u8]) -> Option<Format> {
    let text = lex::decode(head);
    // The head may cut a comment or string short: only the tokens before that matter.
    let qc = lex::tokenize(&text, lex::Syntax::Qc).map(|(t, _)| t).unwrap_or_default();
    if let Some(first) = qc.first()
        && first.kind == lex::Kind::Word
        && first.text.len() > 1
        && first.text.starts_with('$')
        && first.text[1..].bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return Some(Format::Qc);
    }
    let mds = lex::tokenize(&text, lex::Syntax::Mds).map(|(t, _)| t).unwrap_or_default();
    let opens = mds.get(1).is_some_and(|t| matches!(t.kind, lex::Kind::LParen | lex::Kind::Quoted));
    match mds.first().map(|t| t.text.to_ascii_lowercase()) {
        Some(w) if w == "model" && opens => Some(Format::Mds),
        Some(w) if w == "morphmesh" && opens => Some(Format::Mms),
        _ => None,
    }
}

/// Loads the character a script describes. `path` is the script's file (`None` for in-memory bytes, then
/// files are looked up from `opts.base_dir`). Errors in an included file name that file.
pub fn load(format: Format, bytes: &[u8], path: Option<&Path>, opts: &LoadOptions) -> Result<Asset, LoadError> {
    // Everything a script names is relative to the script's folder, never to the working directory: the
    // folder and the script's own path are made absolute once, here, so `bonescope info x.qc` run inside the
    // folder reads what the absolute path reads.
    let dir = files::absolute(&script_dir(path, opts.base_dir.as_deref()));
    let given_path = path;
    let full_path = path.map(files::absolute);
    let path = full_path.as_deref();
    let text = lex::decode(bytes);
    let mut asset = match format {
        Format::Qc => {
            let mut dirs = files::DirCache::new(&opts.files);
            let parsed = qc::parse(&text, path, &dir, &mut dirs)?;
            build_qc::build(parsed, &mut dirs, opts)?
        }
        Format::Mds | Format::Mms => {
            let mut parsed = mds::parse(&text)?;
            parsed.script.files.push(path.map_or_else(|| dir.clone(), Path::to_path_buf));
            let expected = if format == Format::Mds { "Model" } else { "morphMesh" };
            let is_mms = parsed.script.language == crate::scene::ScriptLanguage::GothicMms;
            if is_mms != (format == Format::Mms) {
                parsed.warnings.push(Warning::new(
                    "line 1",
                    format!(
                        "the file is named as {} but its block is not `{expected}`; read as what it holds",
                        format.name()
                    ),
                ));
            }
            let stem = path.and_then(Path::file_stem).and_then(|s| s.to_str()).unwrap_or_default();
            build_gothic::build(parsed, &dir, stem, opts)?
        }
        Format::ZenMsb => {
            let mut parsed = crate::io::zengin::msb::parse(bytes)?;
            parsed.script.files.push(path.map_or_else(|| dir.clone(), Path::to_path_buf));
            let stem = path.and_then(Path::file_stem).and_then(|s| s.to_str()).unwrap_or_default();
            let mut asset = build_gothic::build(parsed, &dir, stem, opts)?;
            asset.format = Some(Format::ZenMsb);
            // The compiled script's items carry their chunk's byte offset where a text script has its line.
            for w in asset.warnings.iter_mut().filter(|w| w.file.is_none()) {
                if let crate::io::Position::Line(offset) = w.position {
                    w.position = crate::io::Position::Byte(offset as u64);
                }
            }
            asset
        }
        _ => {
            return Err(LoadError::whole_file(format!("{} is not a model script format", format.name()))
                .with_kind(LoadErrorKind::NotThisFormat));
        }
    };
    // A file used twice (a `meshAndTree` that is also a `registerMesh`) must not say everything twice.
    let mut seen = std::collections::HashSet::new();
    asset.warnings.retain(|w| seen.insert((w.file.clone(), w.position, w.message.clone())));
    asset.path = given_path.map(Path::to_path_buf);
    Ok(asset)
}

/// The folder a script's names are relative to: the script's own (a bare file name's is `.`), else `base_dir`
/// for in-memory bytes, else the working directory.
fn script_dir(path: Option<&Path>, base_dir: Option<&Path>) -> PathBuf {
    match path {
        Some(p) => p.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf),
        None => base_dir.map_or_else(|| PathBuf::from("."), Path::to_path_buf),
    }
}

/// Where an item of a script is, for warnings: `line N`, or `FILE line N` in an included file.
fn position(files: &[PathBuf], file: usize, line: usize) -> String {
    match files.get(file).and_then(|p| p.file_name()).and_then(|n| n.to_str()) {
        Some(name) if file > 0 => format!("{name} line {line}"),
        _ => format!("line {line}"),
    }
}

/// An error at `line` of script file `file` (named on the error when it is an included file).
fn error_at(files: &[PathBuf], file: usize, line: usize, message: impl Into<String>) -> LoadError {
    let e = LoadError::at_line(line, message);
    match files.get(file) {
        Some(path) if file > 0 => e.in_file(path),
        _ => e,
    }
}

/// One warning listing the animated bones the character's skeleton does not have (ignored when sampling).
fn warn_unmatched_tracks(skeleton: &Skeleton, clips: &[Clip], warnings: &mut Vec<Warning>) {
    let names: std::collections::HashSet<String> = skeleton.names.iter().map(|n| normalize_bone_name(n)).collect();
    let mut missing: Vec<&str> = Vec::new();
    for clip in clips {
        for t in &clip.tracks {
            if !names.contains(&normalize_bone_name(&t.bone_name)) && !missing.contains(&t.bone_name.as_str()) {
                missing.push(&t.bone_name);
            }
        }
    }
    if !missing.is_empty() {
        warnings.push(Warning::new(
            "",
            format!("{} animated bone(s) not in the skeleton, ignored: {}", missing.len(), missing.join(", ")),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_are_recognised_by_their_first_words() {
        assert_eq!(sniff(b"/* decompiled\n*/\n// x\n$modelname \"a.mdl\"\n"), Some(Format::Qc));
        assert_eq!(sniff(b"// header\n\nModel (\"Bloodfly\")\n{"), Some(Format::Mds));
        assert_eq!(sniff(b"morphMesh (\"Head\")\n{"), Some(Format::Mms));
        assert_eq!(sniff(b"version 1\nnodes\n"), None);
        assert_eq!(sniff(b"*3DSMAX_ASCIIEXPORT 110"), None);
        assert_eq!(sniff(b"Model is a word"), None);
    }
}
