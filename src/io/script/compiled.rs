//! A Gothic model script whose ASC files are absent uses the engine's compiled files instead, as the engine
//! does, and says which it used. Sources win: a compiled file stands in only for a file that is not found.
//!
//! The names are the engine's (`zModelProto.cpp`): the hierarchy of a script is `MODEL.MDH`, `MODEL` the
//! script's file name (`ReadMeshAndTree`: `LoadMDH(GetModelProtoName() + ".mdh")`); the mesh of `meshAndTree`
//! and of each `registerMesh ("X.ASC")` is `X.MDM` (`LoadMDM(ascName + ".mdm")`; registered meshes are compiled
//! under the same rule, `BuildFromModel`/`SaveMDM` name the file after the mesh library); an `ani ("NAME" …)`
//! is `MODEL-NAME.MAN` (`LoadMAN`: `GetModelProtoName() + '-' + aniName`). They are looked for where the
//! engine keeps them, `Anims/_compiled` (`DIR_COMPILED_ANIMS`), and beside the script, by file name in any case.
//!
//! Everything built here joins the character in the sources' frame (`zengin::compiler`): a skeleton from an
//! `.MDH` is turned into it, meshes and animations are rebuilt on the character's skeleton node by node in the
//! compiler's order (or the hierarchy's own, when the skeleton came from one), checked by the node-list
//! checksum. A compiled animation plays its own frames, already resampled by the compiler; the script's events,
//! written in the source's frame numbers, are placed by the source's frame rate.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::io::zengin::compiler::{Frame, NodeMap, node_list_checksum};
use crate::io::zengin::{man, mdh, mdm};
use crate::io::{Files, LoadError, LoadOptions};
use crate::scene::{Asset, CallbackKey, Clip, ClipScript, ScriptSequence, Warning};

use super::cut::reverse_clip;

/// The compiled files a script may use, by lower-case file name.
#[derive(Debug, Default)]
pub struct CompiledFiles {
    places: HashMap<String, PathBuf>,
}

impl CompiledFiles {
    /// Lists `_compiled` under the `Anims` root (any case), then the script's folder (which wins).
    pub fn find(files: &Files, anims_root: &Path, script_dir: &Path) -> Self {
        let mut places = HashMap::new();
        let mut add = |dir: &Path| {
            for e in files.list(dir).unwrap_or_default().into_iter().filter(|e| !e.is_folder) {
                let lower = e.name.to_lowercase();
                let compiled = [".mdh", ".mdl", ".mdm", ".man"].iter().any(|ext| lower.ends_with(ext));
                if compiled {
                    places.insert(lower, dir.join(e.name));
                }
            }
        };
        let compiled_dir = files
            .list(anims_root)
            .unwrap_or_default()
            .into_iter()
            .find(|e| e.is_folder && e.name.eq_ignore_ascii_case("_compiled"))
            .map(|e| anims_root.join(e.name));
        if let Some(dir) = compiled_dir {
            add(&dir);
        }
        add(script_dir);
        Self { places }
    }

    fn get(&self, name: &str) -> Option<&PathBuf> {
        self.places.get(&name.to_lowercase())
    }

    /// `MODEL.MDH`, else the hierarchy of `MODEL.MDL`.
    pub fn hierarchy(&self, model: &str) -> Option<&PathBuf> {
        self.get(&format!("{model}.mdh")).or_else(|| self.get(&format!("{model}.mdl")))
    }

    /// The mesh of an ASC the script names: `X.MDM` for `X.ASC`.
    pub fn mesh(&self, asc: &str) -> Option<&PathBuf> {
        self.get(&format!("{}.mdm", stem(asc)))
    }

    /// `MODEL-NAME.MAN`.
    pub fn animation(&self, model: &str, ani: &str) -> Option<&PathBuf> {
        self.get(&format!("{model}-{ani}.man"))
    }
}

/// The file name of a name as a script writes it, without folders and extension.
fn stem(name: &str) -> &str {
    let file = name.trim().rsplit(['/', '\\']).next().unwrap_or(name);
    file.rsplit_once('.').map_or(file, |(s, _)| s)
}

fn read(files: &Files, path: &Path) -> Result<crate::io::FileBytes, LoadError> {
    crate::io::read_path(files, path)
}

/// The skeleton of a compiled hierarchy (an `.MDH`, or an `.MDL`'s) in the sources' frame, and the map of its
/// nodes (its own order).
pub fn skeleton(path: &Path, opts: &LoadOptions) -> Result<(crate::scene::Skeleton, NodeMap), LoadError> {
    let bytes = read(&opts.files, path)?;
    let h = mdh::read(&bytes).map_err(|e| e.in_file(path))?;
    let skeleton = h.skeleton_in(Frame::Source);
    let bones: Vec<usize> = (0..skeleton.len()).collect();
    let checksum = node_list_checksum(skeleton.names.iter().map(String::as_str));
    Ok((skeleton, NodeMap { frame: Frame::Source, bones, checksum }))
}

/// How the character's skeleton lines up with compiled hierarchies: `own` when it was read from one, else the
/// compiler's order of the source skeleton.
pub fn node_map(character: &Asset, own: Option<&NodeMap>, checksum: Option<u32>) -> NodeMap {
    match (own, checksum) {
        (Some(own), _) => own.clone(),
        (None, Some(c)) => NodeMap::for_checksum(character, c),
        (None, None) => NodeMap::of(character),
    }
}

/// Adds the meshes of a compiled model mesh to `character`; returns their indices and says what did not fit.
pub fn add_meshes(
    character: &mut Asset,
    own: Option<&NodeMap>,
    path: &Path,
    name: &str,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<usize>, LoadError> {
    let bytes = read(&opts.files, path)?;
    let mm = mdm::read(&bytes).map_err(|e| e.in_file(path))?;
    let map = node_map(character, own, mm.checksum);
    if let Some(c) = mm.checksum.filter(|&c| c != map.checksum) {
        warnings.push(
            Warning::new(
                "",
                format!(
                    "{name}: made for a hierarchy with node-list checksum {c}; the skeleton's has {}: its weights may \
                     name other bones",
                    map.checksum
                ),
            )
            .in_file(path),
        );
    }
    let target = mdm::Target { skeleton: &character.skeleton, map: &map, placeholder: false };
    let (meshes, materials, built) = mdm::build(&mm, &target, name, character.materials.len(), opts);
    warnings.extend(mm.warnings.iter().chain(&built).map(|w| w.clone().in_file(path)));
    let first = character.meshes.len();
    character.meshes.extend(meshes);
    character.materials.extend(materials);
    Ok((first..character.meshes.len()).collect())
}

/// The clip of an `ani` from its compiled animation: the MAN's frames on the character's skeleton, named and
/// played as the script says (direction, next, blends, events).
pub fn clip(
    character: &Asset,
    own: Option<&NodeMap>,
    seq: &mut ScriptSequence,
    index: usize,
    path: &Path,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Clip, LoadError> {
    let bytes = read(&opts.files, path)?;
    let a = man::read(&bytes).map_err(|e| e.in_file(path))?;
    let map = node_map(character, own, Some(a.checksum));
    if a.checksum != map.checksum {
        warnings.push(
            Warning::new(
                "",
                format!(
                    "ani \"{}\": made for a hierarchy with node-list checksum {}; the skeleton's has {}: its node \
                     indices may name other bones (the engine would not play it)",
                    seq.name, a.checksum, map.checksum
                ),
            )
            .in_file(path),
        );
    }
    let skeleton = &character.skeleton;
    let node = |n: usize| {
        let b = map.bone(n)?;
        Some((skeleton.names.get(b)?.clone(), skeleton.parents.get(b).copied().flatten().is_none()))
    };
    let (mut clip, built) = man::clip(&a, &man::Binding { frame: map.frame, node: &node });
    warnings.extend(built.into_iter().map(|w| w.in_file(path)));
    clip.name = seq.name.clone();
    if seq.reversed {
        reverse_clip(&mut clip);
    }
    // Script events are in the source's frames: frame `f` is `(f − first) / source fps` into the clip.
    let source_fps = if a.fps_source.is_finite() && a.fps_source > 0.0 { a.fps_source } else { seq.fps };
    let first = seq.first_frame.unwrap_or(0);
    let mut keys: Vec<CallbackKey> = seq
        .events
        .iter()
        .map(|e| {
            let t = ((e.frame - first) as f32 / source_fps).clamp(0.0, clip.duration);
            let t = if seq.reversed { clip.duration - t } else { t };
            CallbackKey::event(t, e.frame, e.kind.clone(), e.data_with_options())
        })
        .collect();
    keys.sort_by(|x, y| x.time.total_cmp(&y.time));
    clip.callback_keys = keys;
    clip.script = Some(Box::new(ClipScript {
        sequence: index,
        looping: seq.looping,
        next: seq.next.clone(),
        blend_in: seq.blend_in,
        blend_out: seq.blend_out,
        reversed: seq.reversed,
        first_frame: first,
        last_frame: seq.last_frame.unwrap_or(first),
        ..ClipScript::default()
    }));
    seq.paths = vec![Some(path.to_path_buf())];
    seq.frame_count = clip.frame_count;
    seq.fps = clip.frame_rate;
    seq.loaded = true;
    Ok(clip)
}

/// For listing what a script reads ([`super::plan`]): the compiled files that stand in for the sources not
/// found, put where the sources' paths would be (the skeleton's `MODEL.MDH`, each mesh's `X.MDM`, each `ani`'s
/// `MODEL-NAME.MAN`), as loading the script uses them.
pub fn fill_in_stand_ins(
    script: &mut crate::scene::ModelScript,
    skeleton_path: &mut Option<PathBuf>,
    has_skeleton: bool,
    files: &Files,
    anims_root: &Path,
    script_dir: &Path,
    model: &str,
) {
    if script.language != crate::scene::ScriptLanguage::GothicMds {
        return;
    }
    let compiled = CompiledFiles::find(files, anims_root, script_dir);
    if has_skeleton && skeleton_path.is_none() {
        skeleton_path.clone_from(&compiled.hierarchy(model).cloned());
    }
    for choice in script.body_groups.iter_mut().flat_map(|g| g.choices.iter_mut()) {
        if choice.path.is_none() {
            choice.path = compiled.mesh(&choice.name).cloned();
        }
    }
    for seq in script.sequences.iter_mut().filter(|s| s.kind == crate::scene::SequenceKind::Ani) {
        if seq.paths.first().is_some_and(Option::is_none) {
            seq.paths[0] = compiled.animation(model, &seq.name).cloned();
        }
    }
}
