//! What the program opens: a file, or a built-in [`Sample`] scene. The command line and the viewer turn their
//! file arguments into [`Source`]s (`@demo` names the demo character, `@demo-recording` the demo recording) and
//! open them with [`Source::load`] or, a model followed by animations, [`load_set`]. This is the one place where
//! a name can mean something other than a file; `io` only ever sees files.
//!
//! Archives: a VDFS volume (`Anims.vdf`) is a folder of models, and so is a game's `Data` folder (its volumes
//! mounted together, [`crate::files::mount`]). A model inside one is named after it: `Anims.vdf HUMANS.MDS`
//! (two arguments) opens the model of that file name wherever it is in the volume ([`find_model`]; a script named
//! `.MDS` that the volume holds only compiled opens as its `.MSB`, as the engine loads it); [`models_in`] lists
//! the models there are to pick from.

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

    /// Every argument, in order. An archive (a `.vdf` volume, several of one folder, or a folder holding
    /// volumes) followed by a name that is no file is the model of that name inside the archive.
    pub fn from_args(args: &[PathBuf]) -> Vec<Self> {
        let files = io::Files::disk();
        let mut out = Vec::new();
        let mut i = 0;
        while i < args.len() {
            // A run of volumes of one folder (`Data/*.vdf` as a shell expands it) is that folder's volumes.
            let mut run = 1;
            while args.get(i + run).is_some_and(|next| is_volume_of_same_folder(&files, &args[i], next)) {
                run += 1;
            }
            let root = if run > 1 {
                args[i].parent().map(|dir| dir.join(crate::files::mount::ALL_VOLUMES))
            } else {
                archive_root(&files, &args[i])
            };
            let name = args.get(i + run).filter(|name| !files.exists(name));
            match (root, name) {
                (Some(root), Some(name)) => {
                    let name = name.to_string_lossy();
                    out.push(Source::File(find_model(&files, &root, &name).unwrap_or_else(|| root.join(&*name))));
                    i += run + 1;
                }
                (Some(root), None) if run > 1 => {
                    out.push(Source::File(root));
                    i += run;
                }
                _ => {
                    out.push(Source::from_arg(args[i].clone()));
                    i += 1;
                }
            }
        }
        out
    }

    /// The file, when it is one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Source::File(path) => Some(path),
            Source::Sample(_) => None,
        }
    }

    /// Reads the file (detecting its format) or makes the sample. A folder of models (an archive) is an error
    /// listing them.
    pub fn load(&self, opts: &LoadOptions) -> Result<Asset, LoadError> {
        match self {
            Source::File(path) => io::load_path(path, opts).map_err(|e| match e.kind {
                io::LoadErrorKind::NotAFile => name_a_model(&opts.files, path).unwrap_or(e),
                _ => e,
            }),
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

/// Whether `next` is a volume in the folder of the volume `first` (both opened as folders).
fn is_volume_of_same_folder(files: &io::Files, first: &Path, next: &Path) -> bool {
    let is_volume = |p: &Path| {
        p.file_name().and_then(|n| n.to_str()).is_some_and(crate::files::mount::is_volume_name) && files.is_folder(p)
    };
    is_volume(first) && is_volume(next) && first.parent() == next.parent()
}

/// The folder to look for models in when `path` is an archive: a volume itself, `*.vdf` after a folder, or a
/// folder holding volumes (their `*.vdf` view, mounted together); `None` for anything else.
pub fn archive_root(files: &io::Files, path: &Path) -> Option<PathBuf> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let is_archive = crate::files::mount::is_volume_name(name) || name == crate::files::mount::ALL_VOLUMES;
    if is_archive {
        return files.is_folder(path).then(|| path.to_path_buf());
    }
    (files.is_folder(path) && crate::files::mount::holds_volumes(files, path))
        .then(|| path.join(crate::files::mount::ALL_VOLUMES))
}

/// Model scripts, found by extension, listed first among the models of an archive.
const MODEL_SCRIPT_EXTENSIONS: [&str; 4] = ["mds", "msb", "mms", "qc"];
/// Compiled ZenGin models (hierarchy + mesh, mesh, morph mesh, static mesh), listed when this build reads them.
const COMPILED_MODEL_EXTENSIONS: [&str; 4] = ["mdl", "mdm", "mmb", "mrm"];

fn extension_of(path: &Path) -> String {
    path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default()
}

/// Whether `path` names a model to pick from an archive: a model script, or a compiled model this build reads.
pub fn is_model_name(path: &Path) -> bool {
    let ext = extension_of(path);
    MODEL_SCRIPT_EXTENSIONS.contains(&ext.as_str())
        || (COMPILED_MODEL_EXTENSIONS.contains(&ext.as_str()) && io::detect_format(&[], Some(path)).is_some())
}

/// The models in `dir` and below (an archive's, or any folder's), scripts first, each group by file name.
pub fn models_in(files: &io::Files, dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), 0)];
    while let Some((at, depth)) = stack.pop() {
        if depth > MAX_DEPTH || found.len() >= MAX_FILES {
            continue;
        }
        for entry in files.list(&at).unwrap_or_default() {
            let path = at.join(&entry.name);
            if entry.is_folder {
                stack.push((path, depth + 1));
            } else if is_model_name(&path) && found.len() < MAX_FILES {
                found.push(path);
            }
        }
    }
    let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
    found.sort_by_key(|p| (!MODEL_SCRIPT_EXTENSIONS.contains(&extension_of(p).as_str()), name(p), p.clone()));
    found
}

/// The model called `name` in the archive `root`: `root/name` when that is a file, else a file of that name
/// (any case) anywhere in it; a `.MDS` the archive holds only compiled is its `.MSB` (Gothic II ships its
/// model scripts compiled only, and the engine loads the `.MSB` when the `.MDS` is absent); a name without
/// extension is tried as each model script.
pub fn find_model(files: &io::Files, root: &Path, name: &str) -> Option<PathBuf> {
    let direct = root.join(name);
    if files.is_file(&direct) {
        return Some(direct);
    }
    let file_name = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = Path::new(file_name).file_stem().and_then(|s| s.to_str()).unwrap_or(file_name);
    let mut candidates = vec![file_name.to_owned()];
    match extension_of(Path::new(file_name)).as_str() {
        "mds" => candidates.push(format!("{stem}.MSB")),
        "" => candidates.extend(MODEL_SCRIPT_EXTENSIONS.iter().map(|e| format!("{stem}.{}", e.to_uppercase()))),
        _ => {}
    }
    let found = candidates.iter().find_map(|c| files.find_under(root, c));
    found.or_else(|| {
        models_in(files, root).into_iter().find(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| candidates.iter().any(|c| c.eq_ignore_ascii_case(n)))
        })
    })
}

/// The error for opening a folder of models as a file: which models it holds, and how to name one.
fn name_a_model(files: &io::Files, path: &Path) -> Option<LoadError> {
    let root = archive_root(files, path).unwrap_or_else(|| path.to_path_buf());
    let models = models_in(files, &root);
    if models.is_empty() {
        return None;
    }
    let names: Vec<String> =
        models.iter().take(12).filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned())).collect();
    let more =
        if models.len() > names.len() { format!(" and {} more", models.len() - names.len()) } else { String::new() };
    let example = names.first().cloned().unwrap_or_default();
    let shown = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    Some(
        LoadError::whole_file(format!(
            "a folder of {} models ({}{more}): name the one to open after it, e.g. `bonescope {shown} {example}`",
            models.len(),
            names.join(", ")
        ))
        .with_kind(io::LoadErrorKind::NotAFile)
        .in_file(path),
    )
}

/// Files that come with a model rather than being opened: textures, Source materials and QC includes.
const COMPANION_EXTENSIONS: [&str; 11] = ["tga", "png", "bmp", "dds", "jpg", "jpeg", "gif", "vtf", "vmt", "qci", "txt"];

/// Extensions of files a folder is searched for.
const OPENABLE_EXTENSIONS: [&str; 14] =
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

    #[allow(dead_code)]
    mod vdf_writer {
        include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/common/vdf_writer.rs"));
    }

    #[test]
    fn a_model_is_named_after_its_archive_and_found_inside_it() {
        use vdf_writer::{VdfFile, write_vdf};
        let dir = std::env::temp_dir().join(format!("bonescope-source-vdf-{}", std::process::id()));
        let data = dir.join("Data");
        std::fs::create_dir_all(&data).unwrap();
        let anims = write_vdf(
            &[
                VdfFile::new("_WORK/DATA/ANIMS/HUMANS.MDS", b"Model (\"HuS\") {}".to_vec()),
                VdfFile::new("_WORK/DATA/ANIMS/_COMPILED/ORC.MSB", vec![0; 8]),
                VdfFile::new("_WORK/DATA/ANIMS/_COMPILED/ORC-T_RUN.MAN", vec![0; 8]),
            ],
            1,
            false,
            0,
        );
        std::fs::write(data.join("Anims.vdf"), anims).unwrap();
        std::fs::write(data.join("Meshes.vdf"), write_vdf(&[VdfFile::new("X.TXT", vec![1])], 1, false, 0)).unwrap();
        let vdf = data.join("Anims.vdf");
        let sources = Source::from_args(&[vdf.clone(), "humans.mds".into(), vdf.clone(), "Orc.MDS".into()]);
        assert_eq!(
            sources,
            [
                Source::File(vdf.join("_WORK/DATA/ANIMS/HUMANS.MDS")),
                Source::File(vdf.join("_WORK/DATA/ANIMS/_COMPILED/ORC.MSB"))
            ]
        );
        // The Data folder, or its volumes as a shell expands `Data/*.vdf`: the volumes mounted together.
        let together = data.join("*.vdf");
        let expected = [Source::File(together.join("_WORK/DATA/ANIMS/HUMANS.MDS"))];
        assert_eq!(Source::from_args(&[data.clone(), "HUMANS".into()]), expected);
        assert_eq!(Source::from_args(&[vdf.clone(), data.join("Meshes.vdf"), "HUMANS".into()]), expected);
        let files = io::Files::disk();
        assert_eq!(
            models_in(&files, &vdf),
            [vdf.join("_WORK/DATA/ANIMS/HUMANS.MDS"), vdf.join("_WORK/DATA/ANIMS/_COMPILED/ORC.MSB")]
        );
        // The archive alone is no model: the error lists what to name.
        let e = Source::File(vdf.clone()).load(&LoadOptions::default()).unwrap_err();
        assert!(e.to_string().contains("HUMANS.MDS, ORC.MSB") && e.to_string().contains("bonescope Anims.vdf"), "{e}");
        // A name that is nowhere stays a path in the archive, whose error says so.
        let [Source::File(missing)] = &Source::from_args(&[vdf.clone(), "ELF.MDS".into()])[..] else { panic!() };
        let e = io::load_path(missing, &LoadOptions::default()).unwrap_err();
        assert!(e.to_string().contains("ELF.MDS") && e.to_string().contains("Anims.vdf"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
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
