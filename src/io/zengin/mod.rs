//! Gothic's compiled ZenGin data: the binary files the engine makes from the ASC/MDS sources and ships in its
//! VDF archives, as characters of the neutral scene model. Model hierarchies (`mdh`), model meshes (`mdm`),
//! models (`.MDL`: a hierarchy and its mesh in one file), model animations (`man`), morph meshes (`mmb`) and
//! static meshes (`mrm`), compiled model scripts (`msb`) and textures (`tex`), over the shared framing (`chunk`: the chunked `zCFileBIN` files and their values), the
//! mesh section they share (`proto`, `material`, `geometry`) and what the compiler did to the sources
//! (`compiler`: frame, node order, checksum).
//!
//! Files are recognised by their first chunk ([`sniff`]), never by extension alone (a GoldSrc `.mdl` starts with
//! `IDST`). A file that needs another to mean something finds it as the engine would, beside it: an animation
//! `MODEL-ANI.MAN` its hierarchy `MODEL.MDH` (or `MODEL.MDL`), a model mesh the hierarchy of its own name, and
//! failing that any hierarchy there whose node-list checksum is the one the file was made for. Opened together
//! with a model ([`bind`]), an animation or mesh is rebuilt on that model's skeleton: by node index through the
//! compiler's node order, in that skeleton's frame, so a MAN plays on an ASC body as on its MDH.

pub mod chunk;
pub mod compiler;
mod geometry;
pub mod man;
mod material;
pub mod mdh;
pub mod mdm;
pub mod mmb;
pub mod mrm;
pub mod msb;
pub mod proto;
pub mod tex;

use std::path::{Path, PathBuf};

use crate::io::{LoadError, LoadOptions};
use crate::scene::{Asset, BindReport, Format, Position, Reading, Warning};

use chunk::{Chunks, first_chunk_id, has_chunk};
use compiler::{Frame, NodeMap, engine_axes};
use mdh::Hierarchy;
use mdm::ModelMesh;

/// The compiled format of a file from its first chunk, `None` for anything else.
pub fn sniff(bytes: &[u8]) -> Option<Format> {
    match first_chunk_id(bytes)? {
        mdh::CHUNK_HIERARCHY if has_chunk(bytes, mdm::CHUNK_HEADER) => Some(Format::ZenMdl),
        mdh::CHUNK_HIERARCHY => Some(Format::ZenMdh),
        mdm::CHUNK_HEADER => Some(Format::ZenMdm),
        man::CHUNK_MARKER | man::CHUNK_HEADER => Some(Format::ZenMan),
        mmb::CHUNK_MARKER | mmb::CHUNK_HEADER => Some(Format::ZenMmb),
        mrm::CHUNK_MESH => Some(Format::ZenMrm),
        _ => None,
    }
}

/// The compiled format an extension names, for files whose contents do not say (so they get the reader's
/// error). `.mdl` is not among them: GoldSrc uses it too, and only the contents tell them apart.
pub fn format_from_extension(extension: &str) -> Option<Format> {
    match extension.to_ascii_lowercase().as_str() {
        "mdh" => Some(Format::ZenMdh),
        "mdm" => Some(Format::ZenMdm),
        "man" => Some(Format::ZenMan),
        "mmb" => Some(Format::ZenMmb),
        "mrm" => Some(Format::ZenMrm),
        _ => None,
    }
}

/// True for the formats of this module.
pub fn is_zengin(format: Format) -> bool {
    compiler::is_compiled(Some(format))
}

/// Loads a compiled file. `path` is its file (`None` for bytes in memory: then nothing beside it is looked for).
pub fn load(format: Format, bytes: &[u8], path: Option<&Path>, opts: &LoadOptions) -> Result<Asset, LoadError> {
    match format {
        Format::ZenMrm => mrm::load(bytes, opts),
        Format::ZenMmb => {
            let mut asset = mmb::load(bytes, opts)?;
            if let (Some(script), Some(path)) = (asset.model_script.as_deref_mut(), path) {
                script.files.push(path.to_path_buf());
                for choice in script.body_groups.iter_mut().flat_map(|g| g.choices.iter_mut()) {
                    choice.path = Some(path.to_path_buf());
                }
            }
            Ok(asset)
        }
        Format::ZenMdh => mdh::load(bytes, opts),
        Format::ZenMdl => load_model(bytes, path, opts),
        Format::ZenMdm => load_model_mesh(bytes, path, opts),
        Format::ZenMan => load_animation(bytes, path, opts),
        _ => Err(LoadError::whole_file(format!("{} is not a compiled ZenGin format", format.name()))),
    }
}

/// An `.MDL`: its hierarchy, then its mesh on it.
fn load_model(bytes: &[u8], path: Option<&Path>, opts: &LoadOptions) -> Result<Asset, LoadError> {
    let mut chunks = Chunks::new(bytes);
    let h = mdh::read_chunks(&mut chunks)?;
    let mm = mdm::read_chunks(&mut chunks)?;
    let mut asset = mdh::asset_of(&h, Format::ZenMdl);
    add_model_mesh(&mut asset, &mm, &stem(path, "MDL"), opts);
    check_mesh_checksum(&mut asset, &mm, h.checksum, "the model's own hierarchy");
    Ok(asset)
}

/// An `.MDM`: on the hierarchy found beside it, else on a skeleton of placeholders.
fn load_model_mesh(bytes: &[u8], path: Option<&Path>, opts: &LoadOptions) -> Result<Asset, LoadError> {
    let mm = mdm::read(bytes)?;
    let name = stem(path, "MDM");
    let lookup = path.map(|p| find_hierarchy(p, &[name.as_str()], mm.checksum, opts)).unwrap_or_default();
    let mismatch = lookup.mismatch;
    match lookup.found {
        Some(found) => {
            let mut asset = mdh::asset_of(&found.hierarchy, Format::ZenMdm);
            asset.readings.retain(|r| r.topic != "source");
            add_model_mesh(&mut asset, &mm, &name, opts);
            asset.readings.push(found.reading());
            asset.warnings.extend(mismatch);
            Ok(asset)
        }
        None => {
            let mut asset = Asset::new(Format::ZenMdm);
            asset.axes = engine_axes();
            asset.skeleton = mdm::placeholder_skeleton(&mm);
            let map = NodeMap { frame: Frame::Engine, bones: (0..asset.skeleton.len()).collect(), checksum: 0 };
            let target = mdm::Target { skeleton: &asset.skeleton, map: &map, placeholder: true };
            let (meshes, materials, warnings) = mdm::build(&mm, &target, &name, 0, opts);
            asset.meshes = meshes;
            asset.materials = materials;
            asset.warnings.extend(mm.warnings.iter().cloned());
            asset.warnings.extend(warnings);
            asset.warnings.extend(mismatch);
            asset.warnings.push(Warning::new(
                Position::File,
                format!(
                    "no hierarchy (.MDH/.MDL){} beside the mesh: its bones are placeholders at the origin (node meshes \
                     stand at their node's origin); open it with its hierarchy to see it skinned",
                    mm.checksum.map(|c| format!(" with node-list checksum {c}")).unwrap_or_default()
                ),
            ));
            Ok(asset)
        }
    }
}

/// Builds `mm` on the asset's skeleton (a compiled hierarchy) and adds its meshes and materials.
fn add_model_mesh(asset: &mut Asset, mm: &ModelMesh, name: &str, opts: &LoadOptions) {
    let map = NodeMap::of(asset);
    let target = mdm::Target { skeleton: &asset.skeleton, map: &map, placeholder: false };
    let (meshes, materials, warnings) = mdm::build(mm, &target, name, asset.materials.len(), opts);
    asset.meshes.extend(meshes);
    asset.materials.extend(materials);
    asset.warnings.extend(mm.warnings.iter().cloned());
    asset.warnings.extend(warnings);
}

fn check_mesh_checksum(asset: &mut Asset, mm: &ModelMesh, checksum: u32, whose: &str) {
    if let Some(mine) = mm.checksum
        && mine != checksum
    {
        asset.warnings.push(Warning::new(
            Position::File,
            format!(
                "the soft skins were made for a hierarchy with node-list checksum {mine}, not {whose} ({checksum}): \
                 their node indices may name other nodes"
            ),
        ));
    }
}

/// An `.MAN`: tracks named after the hierarchy found beside it, else `node K`.
fn load_animation(bytes: &[u8], path: Option<&Path>, opts: &LoadOptions) -> Result<Asset, LoadError> {
    let a = man::read(bytes)?;
    let file_stem = stem(path, "");
    let model = file_stem.split_once('-').map(|(m, _)| m.to_owned());
    let preferred: Vec<&str> = model.as_deref().into_iter().collect();
    let lookup = path.map(|p| find_hierarchy(p, &preferred, Some(a.checksum), opts)).unwrap_or_default();
    let mut asset = Asset::new(Format::ZenMan);
    asset.axes = engine_axes();
    asset.warnings.extend(lookup.mismatch);
    let (clip, warnings) = match &lookup.found {
        Some(found) => {
            let skeleton = found.hierarchy.skeleton();
            asset.readings.push(found.reading());
            let node = |n: usize| {
                let root = skeleton.parents.get(n).copied().flatten().is_none();
                skeleton.names.get(n).map(|name| (name.clone(), root))
            };
            let (clip, warnings) = man::clip(&a, &man::Binding { frame: Frame::Engine, node: &node });
            asset.skeleton = skeleton;
            (clip, warnings)
        }
        None => {
            asset.warnings.push(Warning::new(
                Position::File,
                format!(
                    "no hierarchy with node-list checksum {} beside the animation{}: its tracks are named by node \
                     index (`node 0` …); open it with its model to play it",
                    a.checksum,
                    model.as_deref().map(|m| format!(" (the engine looks for {m}.MDH)")).unwrap_or_default()
                ),
            ));
            let node = |n: usize| Some((format!("node {n}"), n == 0));
            man::clip(&a, &man::Binding { frame: Frame::Engine, node: &node })
        }
    };
    asset.warnings.extend(warnings);
    asset.readings.push(man_reading(&a));
    asset.clips.push(clip);
    Ok(asset)
}

fn man_reading(a: &man::Animation) -> Reading {
    Reading::new(
        "animation",
        format!(
            "{} frames of {} nodes at {} fps (compiled from {} fps), layer {}, next \"{}\", node-list checksum {}",
            a.frame_count, a.node_count, a.fps, a.fps_source, a.layer, a.next, a.checksum
        ),
        "the MAN header",
    )
}

/// The file name without its extension, or `fallback`.
fn stem(path: Option<&Path>, fallback: &str) -> String {
    path.and_then(Path::file_stem).and_then(|s| s.to_str()).map_or_else(|| fallback.to_owned(), str::to_owned)
}

/// A hierarchy found for a file, and how.
struct Found {
    path: PathBuf,
    hierarchy: Hierarchy,
    by_name: bool,
}

impl Found {
    fn reading(&self) -> Reading {
        let name = self.path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        Reading::new(
            "hierarchy",
            name,
            if self.by_name {
                "beside the file, named as the engine names it (MODEL.MDH for MODEL-ANI.MAN; a mesh's own name)"
            } else {
                "beside the file, the hierarchy whose node-list checksum is the one the file was made for"
            },
        )
    }
}

/// At most this many hierarchies beside a file are read looking for a checksum (a game's compiled folder holds a
/// few hundred).
const MAX_SCANNED: usize = 1024;
/// Hierarchies larger than this are not read while looking (a model with its meshes is a few hundred kB).
const MAX_SCANNED_BYTES: u64 = 8 << 20;

/// The hierarchy (`.MDH`, or an `.MDL`'s) beside `path`: one of the `preferred` names (any case) whose checksum
/// is `checksum` (or any when `None`), else any whose checksum is.
fn find_hierarchy(path: &Path, preferred: &[&str], checksum: Option<u32>, opts: &LoadOptions) -> Lookup {
    let Some(dir) = path.parent().map(|p| if p.as_os_str().is_empty() { Path::new(".") } else { p }) else {
        return Lookup::default();
    };
    let Ok(listing) = opts.files.list(dir) else { return Lookup::default() };
    let mut entries: Vec<String> = listing.into_iter().filter(|e| !e.is_folder).map(|e| e.name).collect();
    entries.sort();
    let is_hierarchy = |name: &str| {
        let lower = name.to_ascii_lowercase();
        lower.ends_with(".mdh") || lower.ends_with(".mdl")
    };
    let read = |name: &str| -> Option<Hierarchy> {
        let full = dir.join(name);
        let Ok(crate::files::Kind::File { len: size }) = opts.files.kind(&full) else { return None };
        if size > MAX_SCANNED_BYTES {
            return None;
        }
        let bytes = opts.files.read(&full).ok()?;
        mdh::read(&bytes).ok()
    };
    let mut mismatch = None;
    for want in preferred {
        for name in entries.iter().filter(|n| is_hierarchy(n)) {
            let file_stem = Path::new(name).file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            if !file_stem.eq_ignore_ascii_case(want) {
                continue;
            }
            let Some(h) = read(name) else { continue };
            if checksum.is_none_or(|c| c == h.checksum) {
                return Lookup {
                    found: Some(Found { path: dir.join(name), hierarchy: h, by_name: true }),
                    mismatch: None,
                };
            }
            mismatch = Some((name.clone(), h.checksum));
        }
    }
    let Some(checksum) = checksum else { return Lookup::default() };
    let found = entries
        .iter()
        .filter(|n| is_hierarchy(n))
        .take(MAX_SCANNED)
        .find_map(|name| read(name).filter(|h| h.checksum == checksum).map(|h| (name.clone(), h)));
    let warning = mismatch.map(|(name, theirs)| {
        Warning::new(
            Position::File,
            format!("{name} is beside it but was made from another node list (checksum {theirs}, not {checksum})"),
        )
    });
    Lookup {
        found: found.map(|(name, hierarchy)| Found { path: dir.join(name), hierarchy, by_name: false }),
        mismatch: warning,
    }
}

/// What [`find_hierarchy`] found, and why a hierarchy of the expected name was not taken.
#[derive(Default)]
struct Lookup {
    found: Option<Found>,
    mismatch: Option<Warning>,
}

/// Whether [`bind`] handles `other` (the compiled files that need a skeleton to mean something).
pub fn binds_itself(other: &Asset) -> bool {
    matches!(other.format, Some(Format::ZenMan | Format::ZenMdm))
}

/// Binds a compiled animation or model mesh to `asset`: read again from its file and rebuilt on `asset`'s
/// skeleton, node by node in the compiler's order and in the skeleton's frame. The checksum is compared with the
/// one of `asset`'s node list; a difference is a warning (the engine would refuse the file). Files read from
/// memory (no path) bind by name as any animation does.
pub fn bind(asset: &mut Asset, other: Asset, opts: &LoadOptions) -> Result<BindReport, LoadError> {
    let Some(path) = other.path.clone() else {
        return Ok(asset.bind_animations_with(other, &opts.retarget));
    };
    let bytes = crate::io::read_path(&opts.files, &path)?;
    let file = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    match other.format {
        Some(Format::ZenMan) => {
            let a = man::read(&bytes).map_err(|e| e.in_file(&path))?;
            let map = NodeMap::for_checksum(asset, a.checksum);
            let skeleton = &asset.skeleton;
            let node = |n: usize| {
                let b = map.bone(n)?;
                Some((skeleton.names.get(b)?.clone(), skeleton.parents.get(b).copied().flatten().is_none()))
            };
            let (clip, mut warnings) = man::clip(&a, &man::Binding { frame: map.frame, node: &node });
            if a.checksum != map.checksum {
                warnings.push(Warning::new(
                    Position::File,
                    format!(
                        "{file} was made for a hierarchy with node-list checksum {}; this skeleton's node list (in the \
                         compiler's order) has {}: the node indices may name other bones (the engine would not play it)",
                        a.checksum, map.checksum
                    ),
                ));
            }
            let mut carrier = Asset::new(Format::ZenMan);
            carrier.path = Some(path.clone());
            carrier.clips.push(clip);
            carrier.warnings = warnings.into_iter().map(|w| w.in_file(&path)).collect();
            carrier.readings.push(man_reading(&a));
            carrier.readings.push(Reading::new(
                "binding",
                format!(
                    "by hierarchy node index, {}",
                    if map.frame == Frame::Source {
                        "in the compiler's node order of the source skeleton, turned into the sources' frame"
                    } else {
                        "on the compiled hierarchy"
                    }
                ),
                if a.checksum == map.checksum {
                    "the node-list checksums agree"
                } else {
                    "the node-list checksums differ"
                },
            ));
            Ok(asset.bind_animations_with(carrier, &opts.retarget))
        }
        Some(Format::ZenMdm) => {
            let mm = mdm::read(&bytes).map_err(|e| e.in_file(&path))?;
            let map = mm.checksum.map_or_else(|| NodeMap::of(asset), |c| NodeMap::for_checksum(asset, c));
            let name = stem(Some(&path), "MDM");
            let target = mdm::Target { skeleton: &asset.skeleton, map: &map, placeholder: false };
            let (meshes, materials, warnings) = mdm::build(&mm, &target, &name, asset.materials.len(), opts);
            asset.meshes.extend(meshes);
            asset.materials.extend(materials);
            asset.warnings.extend(mm.warnings.iter().chain(&warnings).map(|w| w.clone().in_file(&path)));
            let before = asset.warnings.len();
            check_mesh_checksum(asset, &mm, map.checksum, "this skeleton's node list");
            for w in &mut asset.warnings[before..] {
                w.file = Some(path.clone());
            }
            Ok(BindReport { source: Some(path), ..BindReport::default() })
        }
        _ => Ok(asset.bind_animations_with(other, &opts.retarget)),
    }
}
