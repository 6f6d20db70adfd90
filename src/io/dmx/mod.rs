//! Valve DMX (the Source "datamodel" files Blender Source Tools, Valve's exporters and Source Filmmaker write):
//! models (skeleton, meshes, weights, flex deltas and controls) and animations, in the `keyvalues2` text
//! encoding or the binary one (versions 1 to 9), plain or gzip-compressed (`.dmx.gz`). Owns the DMX reading;
//! the scene types and the shared bounded reader ([`crate::io::binary`]) are used as they are.
//!
//! The file is read in two steps: its encoding into an element graph (`kv2`, `binary` → `graph`), then the
//! graph into the scene model (`model`: skeleton, axes, where meshes hang; `mesh`: vertex data, face sets,
//! weights, delta states; `animation`: channels clips; `flex`: the combination operator's controls). Blender
//! Source Tools' `datamodel.py`, `import_smd.py` and `export_smd.py` are the reference reading; each module
//! says what it follows.
//!
//! **Our own reader, not the `datamodel` crate.** The one DMX crate on crates.io, `datamodel` 0.10 (reads
//! keyvalues2, keyvalues2_flat and binary 1–9), was tried on the corpus's three files: it reads all three
//! (the cloth model in 0.23 ms, the flex controls in 0.02 ms, the 249 KB binary-9 walk in 4.5 ms, release
//! build). But on hostile input it does not hold: a 70-byte binary-5 file whose matrix array claims
//! 2³¹ − 1 items makes it ask for 137 GB at once and the process aborts (it sizes `Vec::with_capacity` from the
//! count, reading through `BufRead`, which cannot tell how many bytes remain), and an element reference equal
//! to the element count passes its range check (`index > size`) and panics on the index; its errors name no
//! byte offset or line; and its elements are shared `Rc<RefCell<…>>` nodes with string-keyed attributes. Here
//! every count is checked against the bytes that remain before it sizes anything ([`crate::io::binary`]),
//! errors say where, elements are plain indices, and the same walk file loads whole (graph, skeleton and clip) in
//! 5.1 ms where the crate took 12.4 ms only to parse it, side by side on the same busy machine (BENCHMARKS.md,
//! `dmx_load`).
//!
//! **Axes and units** are as the exporter wrote them: the model's `DmeAxisSystem` (Source 2 files), else its
//! `upAxis`, else right-handed Z up as Source 1 and SMD have it (see `model`); units are kept. Which reading
//! was used is an asset [`Reading`], printed by `info`.
//!
//! A model DMX opened alone is its skeleton and meshes, with a clip `flexes` that plays its delta states when it
//! has any; an animation DMX is its skeleton (the one it carries) and its clips; a file of flex controls alone
//! is a clip of those controls named after its root element, which binds to the model whose delta states it
//! names. In a QC, `$model`, `$body`,
//! `$bodygroup`, `$sequence` and `$animation` name DMX files as they name SMD (`io::script`).

mod animation;
mod binary;
mod flex;
pub mod graph;
mod kv2;
mod mesh;
mod model;

use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

use super::{LoadError, LoadErrorKind, LoadOptions, MAX_FILE_SIZE};
use crate::scene::{Asset, Format, Material, Position, Reading, Warning};

pub use flex::FLEX_CLIP;
pub use graph::{Dmx, Header};
pub use kv2::MAX_DEPTH;

/// The first bytes of a gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The text every DMX header starts with.
const HEADER_START: &[u8] = b"<!-- dmx";
/// The early header form (Blender Source Tools' `binary_proto`).
const LEGACY_HEADER_START: &[u8] = b"<!-- DMXVersion";

/// Whether a file name is a DMX one: `.dmx`, or `.dmx.gz` (any case).
pub fn is_dmx_name(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else { return false };
    let name = name.to_ascii_lowercase();
    name.ends_with(".dmx") || name.ends_with(".dmx.gz")
}

/// Whether `bytes` (the start of a file at least) are a DMX file: its header, or a gzip stream whose first
/// bytes are one.
pub fn sniff(bytes: &[u8]) -> bool {
    if bytes.starts_with(HEADER_START) || bytes.starts_with(LEGACY_HEADER_START) {
        return true;
    }
    if !bytes.starts_with(&GZIP_MAGIC) {
        return false;
    }
    let mut head = [0u8; 16];
    let mut decoder = flate2::read::GzDecoder::new(bytes);
    let mut filled = 0;
    while filled < head.len() {
        match decoder.read(&mut head[filled..]) {
            Ok(0) | Err(_) => break,
            Ok(n) => filled += n,
        }
    }
    head[..filled].starts_with(HEADER_START) || head[..filled].starts_with(LEGACY_HEADER_START)
}

/// The file's bytes, decompressed when they are gzip (at most [`MAX_FILE_SIZE`] bytes come out: a stream that
/// expands further is refused rather than filling memory).
pub fn decompress(bytes: &[u8]) -> Result<Cow<'_, [u8]>, LoadError> {
    if !bytes.starts_with(&GZIP_MAGIC) {
        return Ok(Cow::Borrowed(bytes));
    }
    let mut out = Vec::new();
    let mut decoder = flate2::read::GzDecoder::new(bytes).take(MAX_FILE_SIZE + 1);
    decoder
        .read_to_end(&mut out)
        .map_err(|e| LoadError::at_byte(0, format!("the gzip stream cannot be decompressed: {e}")))?;
    if out.len() as u64 > MAX_FILE_SIZE {
        return Err(LoadError::whole_file(format!(
            "decompressed, the file is larger than the {MAX_FILE_SIZE}-byte limit"
        ))
        .with_kind(LoadErrorKind::TooLarge));
    }
    Ok(Cow::Owned(out))
}

/// Reads a DMX file (decompressed) into its element graph.
pub fn read(bytes: &[u8]) -> Result<Dmx, LoadError> {
    let head = &bytes[..bytes.len().min(1024)];
    let Some(end) = memchr::memmem::find(head, b"-->").map(|e| e + 3) else {
        return Err(LoadError::at_byte(0, "no DMX header (`<!-- dmx encoding … -->`) at the start of the file")
            .with_kind(LoadErrorKind::NotThisFormat));
    };
    let header_text = String::from_utf8_lossy(&bytes[..end]);
    let header = graph::parse_header(&header_text).ok_or_else(|| {
        LoadError::at_line(1, format!("`{}` is not a DMX header", header_text.trim()))
            .with_kind(LoadErrorKind::NotThisFormat)
    })?;
    match header.encoding.as_str() {
        "keyvalues2" | "keyvalues2_flat" => kv2::read(bytes, end, 1, header),
        "binary" => {
            // The header line ends in a NUL (after its line break).
            let Some(nul) = memchr::memchr(0, &bytes[end..]).map(|n| end + n + 1) else {
                return Err(LoadError::truncated(end as u64, "the binary DMX header is not ended by a NUL byte"));
            };
            binary::read(bytes, nul, header)
        }
        other => Err(LoadError::at_line(
            1,
            format!("the DMX encoding `{other}` is not supported (keyvalues2, keyvalues2_flat and binary are)"),
        )
        .with_kind(LoadErrorKind::Unsupported)),
    }
}

/// Loads a DMX file (plain or gzip-compressed): a model, an animation, or flex controls.
pub fn load(bytes: &[u8], opts: &LoadOptions) -> Result<Asset, LoadError> {
    let data = decompress(bytes)?;
    let dmx = read(&data)?;
    build(&dmx, opts)
}

/// The scene made of a DMX's element graph.
pub fn build(dmx: &Dmx, opts: &LoadOptions) -> Result<Asset, LoadError> {
    let mut asset = Asset::new(Format::Dmx);
    let mut warnings = dmx.warnings.clone();
    let root = dmx.root().ok_or_else(|| LoadError::whole_file("the file holds no elements"))?;
    if let Some(h) = &dmx.header {
        asset.readings.push(Reading::new(
            "encoding",
            format!("{} {}, format {} {}", h.encoding, h.encoding_version, h.format, h.format_version),
            "the file's header",
        ));
    }
    let skeleton_el = root.child("skeleton")?;
    let model_el = root.child("model")?;
    let rig_el = skeleton_el.or(model_el);
    let (axes, reading) = model::axes(rig_el)?;
    asset.axes = axes;
    asset.readings.push(reading);

    let rig = match rig_el {
        Some(m) => model::rig(m, &mut warnings)?,
        None => model::Rig::default(),
    };
    if rig.model_bone.is_some() {
        asset.readings.push(Reading::new(
            "joint list",
            "the DmeModel is the root bone",
            "its jointList starts with the DmeModel itself (Source 2): vertices weighted to it stay still",
        ));
    }
    if rig.skipped_attachments > 0 {
        warnings.push(Warning::new(
            Position::File,
            format!(
                "{} attachment(s) or other shapes (DmeDag with a shape that is not a mesh) were not read",
                rig.skipped_attachments
            ),
        ));
    }
    asset.skeleton = rig.skeleton.clone();

    // Meshes: those of the root's `model` (an animation file's skeleton holds none to show).
    let mut source2_names = None;
    if model_el.is_some() {
        for dag in &rig.meshes {
            let built = mesh::build(dag, &rig, &mut warnings)?;
            source2_names.get_or_insert(built.source2_names);
            let mut mesh = built.mesh;
            for s in &mut mesh.subsets {
                let name = &built.materials[s.material];
                s.material = match asset.materials.iter().position(|m| m.name == *name) {
                    Some(i) => i,
                    None => {
                        asset.materials.push(Material::named(name.as_str()));
                        asset.materials.len() - 1
                    }
                };
            }
            asset.meshes.push(mesh);
        }
    }
    if let Some(source2) = source2_names {
        asset.readings.push(Reading::new(
            "vertex fields",
            if source2 {
                "Source 2 names (position$0, normal$0, texcoord$0, blendweights$0 …)"
            } else {
                "Source 1 names (positions, normals, textureCoordinates, jointWeights …)"
            },
            "the names the vertex data uses",
        ));
    }
    resolve_textures(&mut asset.materials, opts, &mut warnings);

    let mut clips = animation::clips(root, &rig, &mut asset.readings, &mut warnings)?;
    let controls = flex::controls(root)?;
    let name = if asset.meshes.is_empty() && !root.name().is_empty() { root.name() } else { FLEX_CLIP };
    if let Some(flexes) = flex::flex_clip(name, &controls, &asset.meshes, opts.default_fps) {
        asset.readings.push(Reading::new(
            "flexes",
            format!("clip \"{name}\" plays each of {} flex(es) in turn, a frame each", flexes.morph_tracks.len()),
            if controls.is_empty() {
                "the meshes' delta states (no combination operator)".to_owned()
            } else if asset.meshes.is_empty() {
                format!(
                    "the combination operator's {} control(s), and no mesh: bound to a model, they drive its delta states of those names",
                    controls.len()
                )
            } else {
                format!("the combination operator's {} control(s) and the meshes' delta states", controls.len())
            },
        ));
        clips.push(flexes);
    }
    asset.clips = clips;
    if asset.skeleton.is_empty() && asset.meshes.is_empty() && asset.clips.is_empty() {
        return Err(LoadError::new(
            root.at(),
            "the file holds no model (no skeleton or mesh), no animation and no flex controls",
        ));
    }
    asset.warnings = warnings;
    Ok(asset)
}

/// Textures of the materials, looked up by the material's file name (`mtlName`'s last part) as SMD's are; the
/// QC loader looks further (`$cdmaterials`).
fn resolve_textures(materials: &mut [Material], opts: &LoadOptions, warnings: &mut Vec<Warning>) {
    let mut missing = Vec::new();
    for m in materials.iter_mut() {
        let texture = super::find_texture(opts, &m.name, &[]);
        if texture.path.is_none() && !texture.searched.is_empty() {
            missing.push(m.name.clone());
        }
        m.texture = Some(texture);
    }
    if !missing.is_empty() {
        warnings.push(Warning::new(
            Position::File,
            format!("{} for {} material(s): {}", super::smd::MISSING_TEXTURES, missing.len(), missing.join(", ")),
        ));
    }
}
