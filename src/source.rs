//! What the program opens: a file, or a built-in [`Sample`] scene. The command line and the viewer turn their
//! file arguments into [`Source`]s (`@demo` names the demo character, `@demo-recording` the demo recording) and
//! open them with [`Source::load`] or, a model followed by animations, [`load_set`]. This is the one place where
//! a name can mean something other than a file; `io` only ever sees files.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::io::{self, LoadError, LoadOptions, LoadedSet};
use crate::scene::Asset;
use crate::scene::samples::Sample;

/// A file, or a built-in sample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    File(PathBuf),
    Sample(Sample),
}

impl Source {
    /// A command-line argument: `@NAME` of a sample, unless a file of that name exists; otherwise a file.
    pub fn from_arg(arg: impl Into<PathBuf>) -> Self {
        let path = arg.into();
        let sample = path.to_str().and_then(|s| s.strip_prefix('@')).and_then(Sample::named);
        match sample {
            Some(sample) if !path.exists() => Source::Sample(sample),
            _ => Source::File(path),
        }
    }

    /// Every argument, in order.
    pub fn from_args(args: &[PathBuf]) -> Vec<Self> {
        args.iter().cloned().map(Source::from_arg).collect()
    }

    /// The file, when it is one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Source::File(path) => Some(path),
            Source::Sample(_) => None,
        }
    }

    /// Reads the file (detecting its format) or makes the sample.
    pub fn load(&self, opts: &LoadOptions) -> Result<Asset, LoadError> {
        match self {
            Source::File(path) => io::load_path(path, opts),
            Source::Sample(sample) => Ok(sample.asset()),
        }
    }
}

impl fmt::Display for Source {
    /// The path as given, or `@NAME` for a sample (how a user would type it again).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::File(path) => write!(f, "{}", path.display()),
            Source::Sample(sample) => write!(f, "@{}", sample.name()),
        }
    }
}

/// Opens sources as one scene, tolerantly: the first that loads is the model; every further one (animation
/// files, VTA vertex animation) is bound to it with [`io::bind`]. A file that fails to load or to bind is
/// reported in [`LoadedSet::errors`] and the others still open. The one set loader of the program: the command
/// line calls it, and the viewer's loader runs the same steps ([`Source::load`]'s two halves, then
/// [`LoadedSet::add`]) on a worker thread.
pub fn load_set(sources: &[Source], opts: &LoadOptions) -> LoadedSet {
    let mut set = LoadedSet::default();
    for source in sources {
        set.add(source.load(opts), opts);
    }
    set
}

/// [`load_set`] of files only (no `@sample` names).
pub fn load_files(paths: &[PathBuf], opts: &LoadOptions) -> LoadedSet {
    load_set(&paths.iter().cloned().map(Source::File).collect::<Vec<_>>(), opts)
}

/// Files that come with a model rather than being opened: textures, Source materials and QC includes.
const COMPANION_EXTENSIONS: [&str; 11] = ["tga", "png", "bmp", "dds", "jpg", "jpeg", "gif", "vtf", "vmt", "qci", "txt"];

/// Extensions of files a folder is searched for.
const OPENABLE_EXTENSIONS: [&str; 13] =
    ["qc", "mds", "mms", "psk", "pskx", "ase", "asc", "smd", "dmx", "psa", "vta", "bin", "mrtk", "mdl"];

/// How deep a dropped folder is searched, and how many files at most: a folder dropped by mistake (a whole
/// drive) must not keep the viewer listing forever.
const MAX_DEPTH: usize = 16;
const MAX_FILES: usize = 100_000;

/// What to open of the files and folders a user dropped or picked at once (a QC with its SMDs and textures, an
/// MDS tree, a PSK with its PSAs). Folders are searched for model files; textures and includes are left for
/// the model to find. Where there are model scripts, the one script is opened that the others' files belong
/// to: the one nearest the top, a base model before an overlay (`HUMANS.MDS` before `HUMANS_SWIM.MDS`), an MDS
/// before an MMS; the script reads its own meshes and animations. Otherwise meshes come first (the first file
/// is the model, as on the command line), a file named like a reference mesh first among SMDs, then
/// animations.
pub fn files_to_open(files: &io::Files, given: &[PathBuf]) -> Vec<PathBuf> {
    let extension = |p: &Path| p.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    let mut found: Vec<(usize, PathBuf)> = Vec::new();
    for path in given {
        if files.is_folder(path) {
            let mut listed = Vec::new();
            list_openable(files, path, 1, &mut listed);
            found.extend(listed);
        } else if !COMPANION_EXTENSIONS.contains(&extension(path).as_str()) {
            found.push((0, path.clone()));
        }
    }
    let stem = |p: &Path| p.file_stem().and_then(|s| s.to_str()).map(str::to_ascii_uppercase).unwrap_or_default();
    let scripts = found.iter().filter(|(_, p)| io::script::format_from_extension(&extension(p)).is_some());
    let script = scripts.min_by_key(|(depth, p)| (*depth, extension(p) == "mms", stem(p).contains('_'), p.clone()));
    if let Some((_, script)) = script {
        return vec![script.clone()];
    }
    // A compiled GoldSrc model's texture and sequence-group files (`manT.mdl`, `man01.mdl`) are read by the
    // model they belong to, when it is among the files: not opened on their own.
    let given_models: Vec<PathBuf> = found.iter().map(|(_, p)| p.clone()).collect();
    let is_companion = |p: &Path| {
        extension(p) == "mdl"
            && [io::mdl::Role::Textures, io::mdl::Role::SequenceGroup].into_iter().any(|role| {
                io::mdl::companion_owner(p, role).is_some_and(|owner| {
                    given_models.iter().any(|g| g.to_string_lossy().eq_ignore_ascii_case(&owner.to_string_lossy()))
                })
            })
    };
    found.retain(|(_, p)| !is_companion(p));
    let rank = |p: &Path| match extension(p).as_str() {
        "psk" | "pskx" | "ase" | "asc" | "mdl" => 0,
        "smd" if ["REF", "MESH", "BODY", "MODEL"].iter().any(|w| stem(p).contains(w)) => 1,
        "smd" | "dmx" => 2,
        _ if io::dmx::is_dmx_name(p) => 2,
        _ => 3,
    };
    found.sort_by_key(|(depth, p)| (rank(p), *depth, p.clone()));
    found.into_iter().map(|(_, p)| p).collect()
}

fn list_openable(files: &io::Files, dir: &Path, depth: usize, out: &mut Vec<(usize, PathBuf)>) {
    if depth > MAX_DEPTH || out.len() >= MAX_FILES {
        return;
    }
    let Ok(mut entries) = files.list(dir) else { return };
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    for entry in entries {
        let path = dir.join(&entry.name);
        if entry.is_folder {
            list_openable(files, &path, depth + 1, out);
        } else {
            let ext = Path::new(&entry.name).extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
            let openable =
                ext.is_some_and(|e| OPENABLE_EXTENSIONS.contains(&e.as_str())) || io::dmx::is_dmx_name(&path);
            if openable && out.len() < MAX_FILES {
                out.push((depth, path));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compiled_model_opens_without_its_companions() {
        let files = io::MemoryFiles::new();
        for name in ["hl/man.mdl", "hl/manT.mdl", "hl/man01.mdl", "hl/readme.txt"] {
            files.insert(format!("/d/{name}"), b"IDST".to_vec());
        }
        let files = io::Files::new(files);
        assert_eq!(files_to_open(&files, &[PathBuf::from("/d")]), [PathBuf::from("/d/hl/man.mdl")]);
        let given: Vec<PathBuf> = ["/d/hl/manT.mdl", "/d/hl/man.mdl"].map(PathBuf::from).into();
        assert_eq!(files_to_open(&files, &given), [PathBuf::from("/d/hl/man.mdl")]);
    }

    #[test]
    fn a_dropped_tree_opens_its_model_script_or_its_meshes_first() {
        let files = io::MemoryFiles::new();
        for name in [
            "gothic/Anims/HUMANS.MDS",
            "gothic/Anims/MDS_OVERLAY/HUMANS_SWIM.MDS",
            "gothic/Anims/HUMANS_MILITIA.MDS",
            "gothic/Anims/ASC_ANIMS/HUMAN/HUM_WALK.ASC",
            "gothic/Anims/ASC_MORPHMESH/HUM_HEAD.MMS",
        ] {
            files.insert(name, &b"x"[..]);
        }
        let disk = io::Files::new(files.clone());
        assert_eq!(files_to_open(&disk, &[PathBuf::from("/gothic")]), [PathBuf::from("/gothic/Anims/HUMANS.MDS")]);

        let loose = io::MemoryFiles::new();
        for name in ["walk.psa", "hero.psk", "skin.tga", "run.smd", "hero_reference.smd", "notes.qci"] {
            loose.insert(name, &b"x"[..]);
        }
        let given: Vec<PathBuf> = loose.paths();
        let order = files_to_open(&io::Files::new(loose), &given);
        let names: Vec<&str> = order.iter().map(|p| p.file_name().unwrap().to_str().unwrap()).collect();
        assert_eq!(names, ["hero.psk", "hero_reference.smd", "run.smd", "walk.psa"]);
    }

    #[test]
    fn at_names_are_samples_unless_such_a_file_exists() {
        assert_eq!(Source::from_arg("@demo"), Source::Sample(Sample::Demo));
        assert_eq!(Source::from_arg("@Demo-Recording"), Source::Sample(Sample::DemoRecording));
        assert_eq!(Source::from_arg("@nothing"), Source::File("@nothing".into()));
        assert_eq!(Source::from_arg("hero.psk"), Source::File("hero.psk".into()));
        let dir = std::env::temp_dir().join(format!("bonescope-source-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("@demo");
        std::fs::write(&file, b"").unwrap();
        assert_eq!(Source::from_arg(&file), Source::File(file.clone()));
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(Source::Sample(Sample::Demo).to_string(), "@demo");
    }

    #[test]
    fn a_set_binds_the_rest_to_the_first() {
        let (asset, reports) =
            load_set(&[Source::Sample(Sample::Demo), Source::Sample(Sample::DemoRecording)], &LoadOptions::default())
                .into_result()
                .unwrap();
        assert_eq!(asset.skeleton.len(), crate::scene::samples::demo::BONES);
        assert_eq!(asset.recordings.len(), 1);
        assert_eq!(reports.len(), 1);
        assert!(load_set(&[], &LoadOptions::default()).into_result().is_err());
    }

    #[test]
    fn a_bad_file_costs_only_itself() {
        let dir = std::env::temp_dir().join(format!("bonescope-source-set-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let broken = dir.join("broken.psa");
        std::fs::write(&broken, b"ANIMHEAD but nothing after").unwrap();
        let sources =
            [Source::File(broken.clone()), Source::Sample(Sample::Demo), Source::Sample(Sample::DemoRecording)];
        let set = load_set(&sources, &LoadOptions::default());
        std::fs::remove_dir_all(&dir).ok();
        // The broken file is reported; the demo became the model and the recording was bound to it.
        assert_eq!(set.errors.len(), 1);
        assert_eq!(set.errors[0].file.as_deref(), Some(broken.as_path()));
        let asset = set.asset.as_ref().unwrap();
        assert_eq!(asset.skeleton.len(), crate::scene::samples::demo::BONES);
        assert_eq!(asset.recordings.len(), 1);
        assert_eq!(set.reports.len(), 1);
        assert!(set.into_result().is_err());
    }
}
