//! Compiled GoldSrc (Half-Life) models: `.mdl` version 10, as studiomdl writes them and the engine, the Half-Life
//! Asset Manager and assimp read them, into the neutral scene model — the same character its QC source opens as.
//!
//! A model is a main file (`IDST`) with up to two kinds of companions beside it, found through the file-access
//! interface in the main file's folder (exact name first, then any case: models made on Windows):
//! `<name>T.mdl`, its textures and skin table when the main file has none (QC `$externaltextures`; the main
//! file's `textureindex` is 0, the engine's test, HLAM `LoadTextureHeader`), and `<name>01.mdl` … (`IDSQ`), the
//! animations of sequence groups 1 and on (QC `$sequencegroup`/`$sequencegroupsize`; HLAM `LoadSequenceGroups`,
//! assimp `load_sequence_groups_files`). A companion that is missing costs only what it holds: an error-level
//! warning, checkers for the textures, unplayable sequences; the rest loads.
//!
//! The pieces: `header` (the fixed structures and table checks), `bones` (skeleton, bind pose, controllers),
//! `textures` (indexed textures, palettes, flags, skin families), `meshes` (submodels into bind-pose meshes and
//! body groups), `anim` (the run-length-compressed animation values) and `sequences` (clips and their
//! descriptions). What a QC would say — body groups, skin families, bone controllers, sequences with their
//! activities, events, blends and transitions, hitboxes, attachments, eye position, boxes — is kept in the
//! asset's [`ModelScript`] (language [`ScriptLanguage::GoldSrcMdl`]).
//!
//! Frame. The data stays in the file's frame: studiomdl's, right-handed with Z up, which is the SMD's (the asset
//! declares [`AxisConversion::z_up_right_handed`], as the QC reading does). studiomdl turns a model by 90° about
//! Z so that it faces the engine's forward axis (+X) — the sequences' root bones and the eye position, not the
//! reference pose the vertices are bound in; this reader turns them back ([`sequences`]), so the compiled model
//! stands as its source does and plays the same sequences the same way. `$bbox`/`$cbox` are stored as written
//! and are kept so, as the QC reading keeps them.
//!
//! Every offset and count is checked against the file before anything is read or allocated; a broken file is
//! an error naming the byte. What is read and not shown is said in a warning: Xash3D's extensions (bone weights,
//! normal-map textures; half-float texture coordinates are read), unknown texture flags, pivots.

mod anim;
mod bones;
mod header;
mod meshes;
mod sequences;
mod textures;

use std::path::{Path, PathBuf};

use glam::Vec3;

use crate::io::binary::Reader;
use crate::io::{LoadError, LoadErrorKind, LoadOptions};
use crate::scene::{
    Asset, Attachment, AxisConversion, Bounds, Format, Hitbox, Material, ModelScript, Position, Reading,
    ScriptLanguage, TextureRef, Warning,
};

pub use bones::MAX_BONES;
pub use header::{SEQUENCE_GROUP_MAGIC, STUDIO_MAGIC, VERSION};
pub use sequences::MAX_FRAMES;

/// True when the bytes start as a GoldSrc model file does (`IDST` or `IDSQ`); the version is checked when
/// loading (an `IDST` of version 44–49 is a Source model, refused with that said).
pub fn is_mdl(bytes: &[u8]) -> bool {
    bytes.starts_with(STUDIO_MAGIC) || bytes.starts_with(SEQUENCE_GROUP_MAGIC)
}

/// What a GoldSrc file is, from its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A model: open it.
    Model,
    /// `<name>T.mdl`: the textures of another model (no bones: HLAM's `IsMainStudioModel` test).
    Textures,
    /// `<name>01.mdl` …: a sequence group of another model.
    SequenceGroup,
}

/// The role of a GoldSrc file from its first 244 bytes (`None`: not a version-10 GoldSrc file).
pub fn role(head: &[u8]) -> Option<Role> {
    match header::kind(head).ok()? {
        header::Kind::SequenceGroup => Some(Role::SequenceGroup),
        header::Kind::Studio => {
            let h = header::read(head).ok()?;
            Some(if h.bones.offset == 0 && h.bones.count == 0 { Role::Textures } else { Role::Model })
        }
    }
}

/// The model a companion file belongs to, by the naming studiomdl gives them (`manT.mdl`, `man01.mdl` →
/// `man.mdl`, in the same folder).
pub fn companion_owner(path: &Path, role: Role) -> Option<PathBuf> {
    let stem = path.file_stem()?.to_str()?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("mdl");
    let owner = match role {
        Role::Model => return None,
        Role::Textures => stem.strip_suffix(['T', 't'])?,
        Role::SequenceGroup => {
            let digits = stem.len().checked_sub(2)?;
            let (owner, number) = stem.split_at(digits);
            number.bytes().all(|b| b.is_ascii_digit()).then_some(owner)?
        }
    };
    Some(path.with_file_name(format!("{owner}.{ext}")))
}

/// Loads a model from its main file's bytes. `path` is where they were read from (its folder and stem find the
/// companions; without it, `opts.base_dir` and the model's own name are used).
pub fn load(bytes: &[u8], path: Option<&Path>, opts: &LoadOptions) -> Result<Asset, LoadError> {
    match header::kind(bytes)? {
        header::Kind::Studio => {}
        header::Kind::SequenceGroup => {
            let owner = path.and_then(|p| companion_owner(p, Role::SequenceGroup));
            return Err(companion_error("a sequence group file (animations of another model)", owner));
        }
    }
    let header = header::read(bytes)?;
    if header.bones.offset == 0 && header.bones.count == 0 {
        let owner = path.and_then(|p| companion_owner(p, Role::Textures));
        return Err(companion_error("the texture file of another model", owner));
    }
    let mut warnings = Vec::new();
    let mut readings = Vec::new();
    if let Some(note) = header::check_length(header.length, 72, bytes, "the model")? {
        warnings.push(Warning::new(Position::Byte(72), note));
    }
    let companions = Companions::new(path, &header, opts);
    if header.sound_table != 0 {
        warnings.push(Warning::new(
            Position::Byte(220),
            "the header's sound table field is set: Xash3D keeps its extra header (pose parameters, IK chains, hitbox sets) there, which is not read",
        ));
    }

    let (skeleton, mut infos) = bones::read_bones(bytes, &header, &mut warnings)?;
    let controllers = bones::read_controllers(bytes, &header, &skeleton, &mut infos, &mut warnings)?;

    // Textures: the model's own, or its texture file's.
    let external = header.textures.offset == 0;
    let texture_file = if external { companions.read_textures(&mut warnings) } else { None };
    let textures = match &texture_file {
        Some((path, bytes, texture_header)) => {
            let mut file_warnings = Vec::new();
            let read = textures::read(bytes, texture_header, &mut file_warnings).map_err(|e| e.in_file(path))?;
            warnings.extend(file_warnings.into_iter().map(|w| w.in_file(path)));
            readings.push(Reading::new(
                "textures",
                format!("from {}", file_name(path)),
                "the model's texture offset is 0 (QC $externaltextures): its textures and skins are in <name>T.mdl",
            ));
            read
        }
        None if external => textures::Textures::default(),
        None => textures::read(bytes, &header, &mut warnings)?,
    };

    let bind_to_root = skeleton.bind_to_root();
    let cx = meshes::Context {
        bind_to_root: &bind_to_root,
        textures: &textures,
        first_placeholder: textures.materials.len(),
    };
    let bodies = meshes::read(bytes, &header, &cx, &mut warnings)?;
    let mut materials = textures.materials.clone();
    let texture_label = companions.texture_name();
    for name in &bodies.extra_materials {
        let texture = TextureRef::new(format!("{texture_label}: {name}"), None);
        materials.push(Material { texture: Some(texture), ..Material::named(name.clone()) });
    }

    // Sequences, with their groups' files.
    let group_table = sequences::read_groups(bytes, &header)?;
    let group_files = companions.read_groups(group_table.len(), &mut warnings);
    let groups: Vec<sequences::Group<'_>> = group_table
        .iter()
        .enumerate()
        .map(|(g, (_label, _name, data))| {
            let (bytes, file_label) = if g == 0 {
                (Some(bytes), "the model".to_owned())
            } else {
                match group_files.get(g - 1) {
                    Some(Ok((path, data))) => (Some(&data[..]), file_name(path)),
                    Some(Err(label)) => (None, label.clone()),
                    None => (None, companions.group_name(g)),
                }
            };
            sequences::Group { data: *data, bytes, file_label }
        })
        .collect();
    let total_bytes = bytes.len() + group_files.iter().flatten().map(|(_, d)| d.len()).sum::<usize>();
    let seq_cx = sequences::Context {
        skeleton: &skeleton,
        bones: &infos,
        groups: &groups,
        key_budget: total_bytes.saturating_mul(64).saturating_add(1 << 20),
    };
    let seqs = sequences::read(bytes, &header, &seq_cx, &mut warnings)?;
    if !seqs.described.is_empty() {
        readings.push(Reading::new(
            "sequence roots",
            "turned back by studiomdl's 90° about Z, so sequences and bind pose share the source's frame",
            "studiomdl turns every sequence's root bones to face the engine's +X (Grab_Animation, the default $origin angle) and not the reference pose; a model compiled with another $origin or rotate angle keeps the difference",
        ));
    }
    if seqs.described.iter().any(|s| s.options.iter().any(|o| o.starts_with("linear movement"))) {
        readings.push(Reading::new(
            "linear motion",
            "added back to the root bones of LX/LY/LZ sequences",
            "studiomdl took it out (ExtractMotion) for the game to move the entity by; with it the sequence moves as its source does",
        ));
    }

    let mut script = ModelScript::new(ScriptLanguage::GoldSrcMdl);
    script.files.push(path.map_or_else(|| PathBuf::from(&header.name), Path::to_path_buf));
    if let Some((p, _, _)) = &texture_file {
        script.files.push(p.clone());
    }
    script.files.extend(group_files.iter().flatten().map(|(p, _)| p.clone()));
    script.name = header.name.clone();
    // studiomdl's `Cmd_Eyeposition` stores `(−y, x, z)` of what the QC wrote (the same 90° turn), turned
    // back exactly.
    let eye = header.eye_position;
    if eye != Vec3::ZERO && eye.is_finite() {
        script.eye_position = Some(Vec3::new(eye.y, -eye.x, eye.z));
    }
    let bounds =
        |b: [Vec3; 2]| (b[0] != b[1] && b[0].is_finite() && b[1].is_finite()).then(|| Bounds { min: b[0], max: b[1] });
    script.bbox = bounds(header.hull);
    script.cbox = bounds(header.clip);
    script.hitboxes = read_hitboxes(bytes, &header, &skeleton, &mut warnings)?;
    script.attachments = read_attachments(bytes, &header, &skeleton, &mut warnings)?;
    script.controllers = controllers;
    script.skin_families = textures.families();
    // Placeholders for skin references no texture covers map to themselves under every skin.
    for f in &mut script.skin_families {
        f.remap.extend(f.remap.len()..materials.len());
    }
    script.transition_graph = read_transitions(bytes, &header)?;
    script.body_groups = bodies.groups;
    script.sequences = seqs.described;
    let mut clips = seqs.clips;
    unique_names(&mut script, &mut clips, &mut warnings);

    let mut asset = Asset::new(Format::HlMdl);
    asset.axes = AxisConversion::z_up_right_handed();
    asset.skeleton = skeleton;
    asset.meshes = bodies.meshes;
    asset.materials = materials;
    asset.clips = clips;
    asset.warnings = warnings;
    asset.readings = readings;
    asset.model_script = Some(Box::new(script));
    asset.path = path.map(Path::to_path_buf);
    Ok(asset)
}

/// Empty and repeated sequence and body part names made unique as assimp makes them (templates `Sequence` and
/// `Bodypart`, the QC reading's rule too), the clips renamed with their sequences.
fn unique_names(script: &mut ModelScript, clips: &mut [crate::scene::Clip], warnings: &mut Vec<Warning>) {
    let mut names: Vec<String> = script.sequences.iter().map(|s| s.name.clone()).collect();
    for i in crate::io::script::make_unique(&mut names, "Sequence") {
        warnings.push(Warning::new(
            Position::File,
            format!(
                "sequence {i}: the name \"{}\" is empty or repeated; called \"{}\"",
                script.sequences[i].name, names[i]
            ),
        ));
        for clip in clips.iter_mut().filter(|c| c.script.as_ref().is_some_and(|s| s.sequence == i)) {
            clip.name.clone_from(&names[i]);
        }
        script.sequences[i].name.clone_from(&names[i]);
    }
    let mut names: Vec<String> = script.body_groups.iter().map(|g| g.name.clone()).collect();
    for i in crate::io::script::make_unique(&mut names, "Bodypart") {
        script.body_groups[i].name.clone_from(&names[i]);
    }
}

fn companion_error(what: &str, owner: Option<PathBuf>) -> LoadError {
    let hint = match owner {
        Some(owner) => format!("; open {} instead", file_name(&owner)),
        None => "; open the model it belongs to instead".to_owned(),
    };
    LoadError::at_byte(0, format!("this is {what}, not a model{hint}")).with_kind(LoadErrorKind::Unsupported)
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// Finding and reading the companion files.
struct Companions<'a> {
    opts: &'a LoadOptions,
    dir: Option<PathBuf>,
    stem: String,
    extension: String,
}

impl<'a> Companions<'a> {
    fn new(path: Option<&Path>, header: &header::Header, opts: &'a LoadOptions) -> Self {
        // The stem of the file opened; without a path, the model's own name (`../../compiled_models/man.mdl`).
        let named = Path::new(&header.name.replace('\\', "/")).to_path_buf();
        let source = path.unwrap_or(&named);
        let stem = source.file_stem().and_then(|s| s.to_str()).unwrap_or("model").to_owned();
        let extension = source.extension().and_then(|s| s.to_str()).unwrap_or("mdl").to_owned();
        let dir = match path {
            Some(p) => Some(p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf()),
            None => opts.base_dir.clone(),
        };
        Self { opts, dir, stem, extension }
    }

    fn texture_name(&self) -> String {
        format!("{}T.{}", self.stem, self.extension)
    }

    fn group_name(&self, group: usize) -> String {
        format!("{}{group:02}.{}", self.stem, self.extension)
    }

    /// The file called `name` in the model's folder: that exact name, else the one name that differs only in case.
    fn find(&self, name: &str) -> Option<PathBuf> {
        let dir = self.dir.as_ref()?;
        let exact = dir.join(name);
        if self.opts.files.is_file(&exact) {
            return Some(exact);
        }
        self.opts.folders.find(&self.opts.files, dir, name)
    }

    /// The texture file, read and checked: its path, bytes and header. A missing or broken one is an error-level
    /// warning.
    fn read_textures(&self, warnings: &mut Vec<Warning>) -> Option<(PathBuf, crate::io::FileBytes, header::Header)> {
        let name = self.texture_name();
        let missing = |why: String| {
            Warning::error(
                Position::Byte(184),
                format!(
                    "the textures are in {name} (the model's texture offset is 0), which {why}: drawn with checkers"
                ),
            )
        };
        let Some(path) = self.find(&name) else {
            warnings.push(missing(match &self.dir {
                Some(dir) => format!("is not in {}", dir.display()),
                None => "cannot be looked for (the model was not read from a folder)".to_owned(),
            }));
            return None;
        };
        let checked = crate::io::read_path(&self.opts.files, &path).and_then(|bytes| {
            if header::kind(&bytes)? != header::Kind::Studio {
                return Err(LoadError::at_byte(0, "it does not start with `IDST`"));
            }
            let h = header::read(&bytes)?;
            if let Some(note) = header::check_length(h.length, 72, &bytes, "the texture file")? {
                warnings.push(Warning::new(Position::Byte(72), note).in_file(&path));
            }
            Ok((bytes, h))
        });
        match checked {
            Ok((bytes, h)) => Some((path, bytes, h)),
            Err(e) => {
                warnings.push(missing(format!("could not be read ({e})")));
                None
            }
        }
    }

    /// Sequence groups 1 … `count − 1`: each group's path and bytes, or a label saying why it is not there (an
    /// error-level warning each).
    fn read_groups(
        &self,
        count: usize,
        warnings: &mut Vec<Warning>,
    ) -> Vec<Result<(PathBuf, crate::io::FileBytes), String>> {
        (1..count.min(MAX_GROUPS))
            .map(|g| {
                let name = self.group_name(g);
                let Some(path) = self.find(&name) else {
                    warnings.push(Warning::error(
                        Position::File,
                        format!("sequence group {g} is in {name}, which is not beside the model: its sequences cannot be played"),
                    ));
                    return Err(format!("{name} (not found)"));
                };
                let checked = crate::io::read_path(&self.opts.files, &path).and_then(|bytes| {
                    if header::kind(&bytes)? != header::Kind::SequenceGroup {
                        return Err(LoadError::at_byte(0, "it does not start with `IDSQ`"));
                    }
                    let mut r = Reader::new(&bytes);
                    r.skip(72, "the sequence group header")?;
                    let length = r.i32("the sequence group length")?;
                    if let Some(note) = header::check_length(length, 72, &bytes, "the sequence group file")? {
                        warnings.push(Warning::new(Position::Byte(72), note).in_file(&path));
                    }
                    Ok(bytes)
                });
                match checked {
                    Ok(bytes) => Ok((path, bytes)),
                    Err(e) => {
                        warnings.push(Warning::error(
                            Position::File,
                            format!("sequence group {g} ({name}) could not be read: {e}; its sequences cannot be played"),
                        ));
                        Err(format!("{name} (unreadable)"))
                    }
                }
            })
            .collect()
    }
}

/// Most sequence groups read (studio.h `MAXSTUDIOGROUPS` is 16; group files are read only up to here).
const MAX_GROUPS: usize = 100;

fn read_hitboxes(
    file: &[u8],
    header: &header::Header,
    skeleton: &crate::scene::Skeleton,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Hitbox>, LoadError> {
    let mut r = header.hitboxes.table(file, header::HITBOX_SIZE, "the hitbox table")?;
    let mut out = Vec::with_capacity(header.hitboxes.len("the hitbox table")?);
    while !r.at_end() {
        let at = r.offset();
        let bone = r.i32("a hitbox's bone")?;
        let group = r.i32("a hitbox's group")?;
        let min = r.vec3("a hitbox's minimum")?;
        let max = r.vec3("a hitbox's maximum")?;
        match usize::try_from(bone).ok().and_then(|b| skeleton.names.get(b)) {
            Some(name) => out.push(Hitbox { group, bone: name.clone(), min, max, file: 0, line: 0 }),
            None => warnings.push(Warning::new(
                Position::Byte(at),
                format!("a hitbox on bone {bone}, which the model does not have; left out"),
            )),
        }
    }
    Ok(out)
}

fn read_attachments(
    file: &[u8],
    header: &header::Header,
    skeleton: &crate::scene::Skeleton,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Attachment>, LoadError> {
    let mut r = header.attachments.table(file, header::ATTACHMENT_SIZE, "the attachment table")?;
    let mut out = Vec::with_capacity(header.attachments.len("the attachment table")?);
    let mut i = 0usize;
    while !r.at_end() {
        let at = r.offset();
        let name = r.fixed_str(32, "an attachment name")?;
        let _type = r.i32("an attachment's type")?;
        let bone = r.i32("an attachment's bone")?;
        let offset = r.vec3("an attachment's position")?;
        r.skip(36, "an attachment's vectors")?;
        // studiomdl writes no name (`WriteBoneInfo`): a QC names attachments by their index, so does the table.
        let name = if name.trim().is_empty() { i.to_string() } else { name };
        match usize::try_from(bone).ok().and_then(|b| skeleton.names.get(b)) {
            Some(bone) => out.push(Attachment { name, bone: bone.clone(), offset, file: 0, line: 0 }),
            None => warnings.push(Warning::new(
                Position::Byte(at),
                format!("attachment {i} on bone {bone}, which the model does not have; left out"),
            )),
        }
        i += 1;
    }
    Ok(out)
}

/// The `numtransitions²` bytes of the node transition graph.
fn read_transitions(file: &[u8], header: &header::Header) -> Result<Vec<Vec<u8>>, LoadError> {
    let n = header.transitions.len("the transition table")?;
    if n == 0 {
        return Ok(Vec::new());
    }
    let span = header::Span { count: i32::try_from(n.saturating_mul(n)).unwrap_or(i32::MAX), ..header.transitions };
    let r = span.table(file, 1, "the transition table")?;
    Ok(r.bytes().chunks(n).map(<[u8]>::to_vec).collect())
}
