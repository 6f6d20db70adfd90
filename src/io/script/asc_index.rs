//! Where Gothic's tools find the files an MDS/MMS names: by file name alone, case-insensitively, anywhere in the
//! `ASC_*` folders of the `Anims` tree, and beside the script.
//!
//! A name can be in several folders: the game's tree has overlay animations (`MDS_OVERLAY/HUMANS_SWIM.MDS`)
//! whose ASC files carry the same names as the base model's, with other frames. Like the Gothic tools, a
//! script looks in its own places first ([`Preference`]): beside the script, then a folder named after the
//! script (the overlay, `HUMANS_SWIM`, or its part after the model's name, `SWIM`), then a folder named after
//! the model it belongs to (`HUMANS`, `HUMAN`, the `Model ("…")` name), then the rest in path order. Which one
//! was taken, and why, is reported when a name is ambiguous ([`AscIndex::choice`]).
//!
//! The tree is walked once per script; lookups do not touch the file system.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use crate::files::Entry;
use crate::io::Files;

/// How deep below `Anims/ASC_*` files are looked for (the game's tree is three levels deep at most).
const MAX_INDEX_DEPTH: usize = 12;

/// Why a place was taken for a name found in several.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Preference {
    /// In the script's own folder.
    BesideScript,
    /// In a folder named after the script (an overlay's own folder).
    ScriptFolder,
    /// In a folder named after the model the script belongs to.
    ModelFolder,
    /// Elsewhere: the first in path order.
    Elsewhere,
}

impl Preference {
    pub fn describe(self) -> &'static str {
        match self {
            Preference::BesideScript => "beside the script",
            Preference::ScriptFolder => "the script's own folder",
            Preference::ModelFolder => "the model's folder",
            Preference::Elsewhere => "the first in path order",
        }
    }
}

/// The place taken for a name, with the others.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice<'a> {
    pub path: &'a PathBuf,
    pub why: Preference,
    /// The places not taken, in path order.
    pub others: Vec<&'a PathBuf>,
}

/// The files of a script's tree, by name.
#[derive(Debug, Default)]
pub struct AscIndex {
    /// The `Anims` folder searched.
    pub root: PathBuf,
    script_dir: PathBuf,
    /// Upper-case folder names that are the script's own, then the model's.
    own_names: Vec<String>,
    model_names: Vec<String>,
    /// Lower-case file name → every place, in path order (beside the script first).
    places: HashMap<String, Vec<PathBuf>>,
}

impl AscIndex {
    /// Indexes the tree of the script in `script_dir` whose file name without extension is `script_stem`
    /// (empty for in-memory bytes) and whose `Model ("…")` / `morphMesh ("…")` is `model_name`. The `Anims`
    /// root is the nearest folder at or above the script named `Anims` (any case), else the nearest one
    /// holding `ASC_*` folders, else the script's own folder.
    pub fn build(files: &Files, script_dir: &Path, script_stem: &str, model_name: &str) -> Self {
        let script_dir = script_dir.to_path_buf();
        let root = anims_root(files, &script_dir);
        let mut found: Vec<PathBuf> = Vec::new();
        // The script's own folder first: a model kept with its ASC files loads without the game's tree.
        list_files(files, &script_dir, &mut found);
        if let Ok(entries) = files.list(&root) {
            let mut asc_dirs: Vec<PathBuf> =
                entries.into_iter().filter(is_asc_folder).map(|e| root.join(e.name)).collect();
            asc_dirs.sort();
            for dir in asc_dirs {
                walk(files, &dir, 0, &mut found);
            }
        }
        let mut places: HashMap<String, Vec<PathBuf>> = HashMap::new();
        for path in found {
            let Some(name) = path.file_name().and_then(|n| n.to_str()).map(str::to_lowercase) else { continue };
            let list = places.entry(name).or_default();
            if !list.contains(&path) {
                list.push(path);
            }
        }
        let (own_names, model_names) = folder_names(&script_stem.to_ascii_uppercase(), model_name);
        Self { root, script_dir, own_names, model_names, places }
    }

    /// The file a script names (`"Blo_Body.asc"`; a path in the name is reduced to its file name, as the game
    /// does).
    pub fn find(&self, name: &str) -> Option<&PathBuf> {
        self.choice(name).map(|c| c.path)
    }

    /// The place taken for `name`, why, and the places not taken.
    pub fn choice(&self, name: &str) -> Option<Choice<'_>> {
        let file_name = name.trim().rsplit(['/', '\\']).next().unwrap_or(name);
        let places = self.places.get(&file_name.to_lowercase())?;
        // The best preference wins; the first in path order among equals (`min_by_key` keeps the first).
        let (best, why) = places.iter().enumerate().map(|(i, p)| (i, self.preference(p))).min_by_key(|(_, w)| *w)?;
        let others = places.iter().enumerate().filter(|(i, _)| *i != best).map(|(_, p)| p).collect();
        Some(Choice { path: &places[best], why, others })
    }

    fn preference(&self, path: &Path) -> Preference {
        if path.parent() == Some(self.script_dir.as_path()) {
            return Preference::BesideScript;
        }
        let folders: Vec<String> = path
            .parent()
            .and_then(|p| p.strip_prefix(&self.root).ok())
            .map(|p| {
                p.components()
                    .filter_map(|c| match c {
                        Component::Normal(n) => n.to_str().map(str::to_ascii_uppercase),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let named = |names: &[String]| folders.iter().any(|f| names.contains(f));
        if named(&self.own_names) {
            Preference::ScriptFolder
        } else if named(&self.model_names) {
            Preference::ModelFolder
        } else {
            Preference::Elsewhere
        }
    }
}

/// Folder names that are a script's own and its model's, upper case. `HUMANS_SWIM` (an overlay of `HUMANS`):
/// own `HUMANS_SWIM`, `SWIM`; model `HUMANS`, `HUMAN` and the `Model ("…")` name. A base script `HUMANS`: own
/// `HUMANS`; model `HUMAN` and the `Model ("…")` name. `ASC_*` folder names themselves never count.
fn folder_names(stem: &str, model_name: &str) -> (Vec<String>, Vec<String>) {
    let mut own: Vec<String> = Some(stem.to_owned()).filter(|s| !s.is_empty()).into_iter().collect();
    let mut model = Vec::new();
    let base = match stem.split_once('_') {
        Some((base, overlay)) if !base.is_empty() && !overlay.is_empty() => {
            own.push(overlay.to_owned());
            base
        }
        _ => stem,
    };
    if !base.is_empty() {
        model.push(base.to_owned());
    }
    // `HUMANS.MDS` keeps its files in `ASC_ANIMS/HUMAN`.
    if let Some(singular) = base.strip_suffix('S').filter(|s| s.len() > 1) {
        model.push(singular.to_owned());
    }
    let model_name = model_name.trim().to_ascii_uppercase();
    if !model_name.is_empty() {
        model.push(model_name);
    }
    own.retain(|n| !n.starts_with("ASC_"));
    model.retain(|n| !n.starts_with("ASC_") && !own.contains(n));
    (own, model)
}

fn anims_root(files: &Files, script_dir: &Path) -> PathBuf {
    let mut holding_asc: Option<PathBuf> = None;
    for dir in script_dir.ancestors() {
        let is_anims = dir.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.eq_ignore_ascii_case("anims"));
        if is_anims {
            return dir.to_path_buf();
        }
        if holding_asc.is_none() && files.list(dir).is_ok_and(|entries| entries.iter().any(is_asc_folder)) {
            holding_asc = Some(dir.to_path_buf());
        }
    }
    holding_asc.unwrap_or_else(|| script_dir.to_path_buf())
}

fn is_asc_folder(entry: &Entry) -> bool {
    entry.is_folder && entry.name.to_ascii_uppercase().starts_with("ASC_")
}

fn list_files(files: &Files, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = files.list(dir) else { return };
    let mut found: Vec<PathBuf> = entries.into_iter().filter(|e| !e.is_folder).map(|e| dir.join(e.name)).collect();
    found.sort();
    out.extend(found);
}

fn walk(files: &Files, dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    if depth > MAX_INDEX_DEPTH {
        return;
    }
    let Ok(entries) = files.list(dir) else { return };
    let (dirs, found): (Vec<Entry>, Vec<Entry>) = entries.into_iter().partition(|e| e.is_folder);
    let mut found: Vec<PathBuf> = found.into_iter().map(|e| dir.join(e.name)).collect();
    let mut dirs: Vec<PathBuf> = dirs.into_iter().map(|e| dir.join(e.name)).collect();
    found.sort();
    dirs.sort();
    out.extend(found);
    for d in dirs {
        walk(files, &d, depth + 1, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bonescope-asc-index-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn touch(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, b"x").unwrap();
    }

    #[test]
    fn finds_files_by_name_under_asc_folders() {
        let dir = temp_dir("asc");
        let anims = dir.join("Anims");
        touch(&anims.join("ASC_BODIES/MONSTER/BLO_BODY.ASC"));
        touch(&anims.join("asc_anims/FLY/Blo_Run.asc"));
        touch(&anims.join("OTHER/HIDDEN.ASC"));
        let index = AscIndex::build(&Files::disk(), &anims, "FLY", "Fly");
        assert_eq!(index.root, anims);
        assert_eq!(index.find("Blo_Body.asc"), Some(&anims.join("ASC_BODIES/MONSTER/BLO_BODY.ASC")));
        assert_eq!(index.find("BLO_RUN.ASC"), Some(&anims.join("asc_anims/FLY/Blo_Run.asc")));
        assert_eq!(index.find("C:\\work\\blo_run.asc"), Some(&anims.join("asc_anims/FLY/Blo_Run.asc")));
        assert_eq!(index.find("hidden.asc"), None, "only ASC_* folders are searched");
        // A script deeper in the tree finds the same root.
        assert_eq!(AscIndex::build(&Files::disk(), &anims.join("asc_anims/FLY"), "X", "").root, anims);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_name_in_several_folders_is_taken_from_the_scripts_own_then_the_models() {
        let dir = temp_dir("prefer");
        let anims = dir.join("Anims");
        let [other, base, overlay, swim] = ["ASC_ANIMS/AAA", "ASC_ANIMS/HUMAN", "ASC_ANIMS/HUMANS_SWIM", "ASC_X/SWIM"]
            .map(|f| anims.join(f).join("HUM_SWIM.ASC"));
        for p in [&other, &base, &overlay] {
            touch(p);
        }
        let overlay_dir = anims.join("MDS_OVERLAY");
        let index = AscIndex::build(&Files::disk(), &overlay_dir, "HUMANS_SWIM", "HuS");
        let c = index.choice("hum_swim.asc").unwrap();
        assert_eq!((c.path, c.why), (&overlay, Preference::ScriptFolder));
        assert_eq!(c.others, [&other, &base]);
        // The base model: its own folder (`HUMAN` for `HUMANS`), not the first in path order.
        let index = AscIndex::build(&Files::disk(), &anims, "HUMANS", "HuS");
        assert_eq!(
            index.choice("HUM_SWIM.ASC").map(|c| (c.path.clone(), c.why)),
            Some((base, Preference::ModelFolder))
        );
        // Another model: the first in path order.
        let index = AscIndex::build(&Files::disk(), &anims, "ORC", "Orc");
        assert_eq!(index.choice("HUM_SWIM.ASC").map(|c| (c.path.clone(), c.why)), Some((other, Preference::Elsewhere)));
        // The overlay's part after the model name counts as its own (`SWIM`); beside the script beats all.
        touch(&swim);
        let index = AscIndex::build(&Files::disk(), &overlay_dir, "HUMANS_SWIM", "HuS");
        assert_eq!(index.choice("HUM_SWIM.ASC").unwrap().why, Preference::ScriptFolder);
        let beside = anims.join("MDS_OVERLAY/HUM_SWIM.ASC");
        touch(&beside);
        let index = AscIndex::build(&Files::disk(), &overlay_dir, "HUMANS_SWIM", "HuS");
        assert_eq!(index.choice("HUM_SWIM.ASC").map(|c| c.path.clone()), Some(beside));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
