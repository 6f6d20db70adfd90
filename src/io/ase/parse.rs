//! ASE text → raw per-object records (still in the file's terms: world-space vertices, ticks, Max axis-angles).
//!
//! Every block the loader reads has a function here; everything else is skipped by balanced braces. Counts in
//! the file (`*MESH_NUMVERTEX` …) are checked against the bytes that remain before anything is allocated from
//! them. Turning these records into the scene model is `build.rs`'s job. Files of a megabyte or more have their
//! object blocks parsed on all cores, with the same result as the sequential read (see [`parse`]).

use std::collections::HashMap;

use glam::{Mat4, Vec3, Vec4};

use super::lexer::{Lexer, Token, unclosed};
use crate::io::LoadError;
use crate::io::text::decode_name;
use crate::scene::Warning;

/// The shortest text one list entry can take (`*MESH_TFACE 0 0 0 0` is 19 bytes): a declared count above
/// `remaining / MIN_ENTRY_BYTES` cannot be true.
const MIN_ENTRY_BYTES: usize = 16;
/// Nesting limit for recursive blocks (groups, sub-materials), so a hostile file cannot exhaust the stack.
const MAX_DEPTH: usize = 32;
/// Files at least this large have their object blocks parsed on all cores (see [`parse`]).
const PARALLEL_FROM: usize = 1 << 20;

#[derive(Clone, Debug)]
pub(super) struct Scene {
    pub first_frame: i64,
    pub last_frame: i64,
    pub frame_speed: f32,
    pub ticks_per_frame: f32,
    pub file_name: String,
    /// Whether the file had a `*SCENE` block.
    pub present: bool,
}

impl Default for Scene {
    fn default() -> Self {
        Self {
            first_frame: 0,
            last_frame: 0,
            frame_speed: 30.0,
            ticks_per_frame: 160.0,
            file_name: String::new(),
            present: false,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub(super) struct RawMap {
    pub class: String,
    pub bitmap: String,
    pub u_offset: f32,
    pub v_offset: f32,
    pub u_tiling: f32,
    pub v_tiling: f32,
    pub angle: f32,
}

#[derive(Clone, Debug, Default)]
pub(super) struct RawMaterial {
    pub line: usize,
    pub name: String,
    pub class: String,
    pub ambient: Option<[f32; 3]>,
    pub diffuse: Option<[f32; 3]>,
    pub specular: Option<[f32; 3]>,
    pub transparency: f32,
    pub two_sided: bool,
    pub diffuse_map: Option<RawMap>,
    /// `*SUBMATERIAL i` blocks by index (Multi/Sub-Object).
    pub subs: Vec<(u32, RawMaterial)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NodeKind {
    Geometry,
    Helper,
    Camera,
    Light,
    Shape,
    /// The `.Target` of a target camera or light, written inside its owner's block.
    Target,
}

impl NodeKind {
    pub fn label(self) -> &'static str {
        match self {
            NodeKind::Geometry => "geometry",
            NodeKind::Helper => "helper",
            NodeKind::Camera => "camera",
            NodeKind::Light => "light",
            NodeKind::Shape => "shape",
            NodeKind::Target => "target",
        }
    }
}

/// One face of `*MESH_FACE_LIST`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct RawFace {
    pub v: [u32; 3],
    /// Smoothing groups as bits (group g → bit g−1).
    pub smoothing: u32,
    pub mtl: u32,
}

/// Marks a face corner without a texture / colour vertex.
pub(super) const NONE: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
pub(super) struct RawChannel {
    pub channel: u32,
    pub tverts: Vec<Vec3>,
    /// Per face; `[NONE; 3]` where the file gave none.
    pub tfaces: Vec<[u32; 3]>,
}

#[derive(Clone, Debug, Default)]
pub(super) struct RawMesh {
    pub line: usize,
    pub time: i64,
    pub positions: Vec<Vec3>,
    pub faces: Vec<RawFace>,
    /// The main texture channel.
    pub uv: RawChannel,
    pub cverts: Vec<Vec3>,
    pub cfaces: Vec<[u32; 3]>,
    /// Per face: the three corner normals (`*MESH_VERTEXNORMAL`), NaN where missing. Empty without
    /// `*MESH_NORMALS`.
    pub normals: Vec<[Vec3; 3]>,
    pub extra_channels: Vec<RawChannel>,
    pub weights: Option<RawSkin>,
    /// `*MESH_ANIMATION` written inside the mesh (some exporters do).
    pub frames: Vec<RawMesh>,
}

/// Skin weights: a bone list and, per listed vertex, (bone list index, weight) pairs.
#[derive(Clone, Debug, Default)]
pub(super) struct RawSkin {
    pub line: usize,
    pub bones: Vec<String>,
    /// (vertex index, first pair, pair count).
    pub vertices: Vec<(u32, u32, u32)>,
    pub pairs: Vec<(u32, f32)>,
}

impl RawSkin {
    /// Index of a bone named by a soft-skin entry (the lookup keeps long bone lists linear).
    fn bone_index(&mut self, name: String, lookup: &mut HashMap<String, u32>) -> u32 {
        *lookup.entry(name).or_insert_with_key(|name| {
            self.bones.push(name.clone());
            (self.bones.len() - 1) as u32
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) enum TrackKind {
    /// `*CONTROL_*_TRACK`: per-sample values (rotations relative, identical samples left out).
    #[default]
    Sampled,
    Linear,
    Bezier,
    Tcb,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct RawKey {
    pub tick: i64,
    pub line: u32,
    /// Position/scale xyz, or rotation axis xyz + angle.
    pub value: Vec4,
    /// Scale keys: the scale axis (xyz + angle).
    pub scale_axis: Vec4,
    /// TCB keys: tension, continuity, bias, ease in, ease out.
    pub tcb: [f32; 5],
    /// Bezier keys: in and out tangents when the file has them.
    pub tangents: Option<(Vec3, Vec3)>,
}

#[derive(Clone, Debug, Default)]
pub(super) struct RawTrack {
    pub line: usize,
    pub kind: TrackKind,
    pub keys: Vec<RawKey>,
}

#[derive(Clone, Debug, Default)]
pub(super) struct RawAnim {
    pub pos: Option<RawTrack>,
    pub rot: Option<RawTrack>,
    pub scale: Option<RawTrack>,
}

#[derive(Clone, Debug)]
pub(super) struct RawNode {
    pub kind: NodeKind,
    pub line: usize,
    pub name: String,
    pub parent: Option<String>,
    /// World matrix (glam column vectors) from `*NODE_TM`.
    pub tm: Option<Mat4>,
    pub mesh: Option<RawMesh>,
    pub frames: Vec<RawMesh>,
    pub material_ref: Option<(usize, i64)>,
    pub wire_color: Option<[f32; 3]>,
    pub anim: Option<RawAnim>,
    pub skin: Option<RawSkin>,
}

impl RawNode {
    fn new(kind: NodeKind, line: usize) -> Self {
        Self {
            kind,
            line,
            name: String::new(),
            parent: None,
            tm: None,
            mesh: None,
            frames: Vec::new(),
            material_ref: None,
            wire_color: None,
            anim: None,
            skin: None,
        }
    }
}

#[derive(Debug, Default)]
pub(super) struct RawFile {
    pub scene: Scene,
    pub materials: Vec<(u32, RawMaterial)>,
    pub nodes: Vec<RawNode>,
    /// Top-level `*MESH_SOFTSKINVERTS` weights: (mesh node name, weights).
    pub soft_skins: Vec<(String, RawSkin)>,
    pub warnings: Vec<Warning>,
    /// Unknown top-level blocks, by name, with how often they occurred.
    pub skipped: Vec<(String, usize)>,
    /// Parallel read only: non-finite numbers of the top level (count, first line), reported with the objects'.
    non_finite_report: Option<(usize, usize)>,
}

fn warn(warnings: &mut Vec<Warning>, line: usize, message: impl Into<String>) {
    warnings.push(Warning::new(format!("line {line}"), message));
}

fn kw(k: &[u8]) -> String {
    String::from_utf8_lossy(k).into_owned()
}

/// A declared count, checked against the rest of the file before anything is sized from it.
fn checked_count(lx: &mut Lexer, keyword: &str) -> Result<usize, LoadError> {
    let line = lx.line();
    let n = lx.arg_int(keyword)?;
    let limit = lx.remaining() / MIN_ENTRY_BYTES;
    match usize::try_from(n) {
        Ok(n) if n <= limit => Ok(n),
        Ok(n) => Err(LoadError::at_line(
            line,
            format!(
                "*{keyword} {n} cannot be right: the {} bytes left in the file hold at most {limit} entries (truncated or corrupted file?)",
                lx.remaining()
            ),
        )),
        Err(_) => Err(LoadError::at_line(line, format!("*{keyword} {n} is negative"))),
    }
}

/// An object block left for a worker thread: where its `*KEYWORD` ended and on which line, and where in the
/// sequential order its nodes and warnings belong.
#[derive(Clone, Copy)]
struct Deferred {
    kind: NodeKind,
    pos: usize,
    line: usize,
    nodes_at: usize,
    warnings_at: usize,
}

/// What a worker made of one object block.
struct ObjectPart {
    nodes: Vec<RawNode>,
    warnings: Vec<Warning>,
    non_finite: usize,
    first_non_finite_line: usize,
}

/// Parses a whole (already decoded) ASE text.
///
/// A large file is mostly independent `*GEOMOBJECT` blocks. With more than one core, the top level is read
/// first with each object block skipped by braces (fast), then the blocks are parsed on all cores and their
/// nodes and warnings put back where a sequential read would have put them, so the result is the same. Any
/// error sends the file through the sequential read instead, which reports the first error in file order.
pub(super) fn parse(data: &[u8]) -> Result<RawFile, LoadError> {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    if data.len() >= PARALLEL_FROM
        && threads > 1
        && let Some(file) = parse_parallel(data, threads)
    {
        return Ok(file);
    }
    parse_with(data, None)
}

/// Object blocks found by the top-level read, handed to the workers as they are found (so parsing starts
/// while the top level is still being skimmed).
#[derive(Default)]
struct JobQueue {
    state: std::sync::Mutex<QueueState>,
    ready: std::sync::Condvar,
}

#[derive(Default)]
struct QueueState {
    jobs: Vec<Deferred>,
    taken: usize,
    closed: bool,
}

impl JobQueue {
    fn push(&self, job: Deferred) {
        if let Ok(mut s) = self.state.lock() {
            s.jobs.push(job);
            self.ready.notify_one();
        }
    }

    /// No more jobs will come.
    fn close(&self) {
        if let Ok(mut s) = self.state.lock() {
            s.closed = true;
            self.ready.notify_all();
        }
    }

    /// The next job and its number, waiting for one; `None` once closed and empty.
    fn take(&self) -> Option<(usize, Deferred)> {
        let mut s = self.state.lock().ok()?;
        loop {
            if let Some(&job) = s.jobs.get(s.taken) {
                let i = s.taken;
                s.taken += 1;
                return Some((i, job));
            }
            if s.closed {
                return None;
            }
            s = self.ready.wait(s).ok()?;
        }
    }

    fn jobs(&self) -> Vec<Deferred> {
        self.state.lock().map(|s| s.jobs.clone()).unwrap_or_default()
    }
}

/// The parallel read of [`parse`]; `None` when anything failed (the caller then reads sequentially).
fn parse_parallel(data: &[u8], threads: usize) -> Option<RawFile> {
    let queue = JobQueue::default();
    let parse_job = |job: &Deferred| -> Result<ObjectPart, LoadError> {
        let mut lx = Lexer::at(data, job.pos, job.line);
        let mut part = RawFile::default();
        parse_object(&mut lx, &mut part, job.kind)?;
        Ok(ObjectPart {
            nodes: part.nodes,
            warnings: part.warnings,
            non_finite: lx.non_finite,
            first_non_finite_line: lx.first_non_finite_line,
        })
    };
    let work = || {
        let mut done = Vec::new();
        while let Some((i, job)) = queue.take() {
            done.push((i, parse_job(&job)));
        }
        done
    };
    let (top, mut results) = std::thread::scope(|scope| {
        let workers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        // This thread skims the top level, then helps with the objects that are left.
        let top = parse_with(data, Some(&queue));
        queue.close();
        let mut results = if top.is_ok() { work() } else { Vec::new() };
        for w in workers {
            results.extend(w.join().unwrap_or_default());
        }
        (top, results)
    });
    let mut file = top.ok()?;
    let jobs = queue.jobs();
    if results.len() != jobs.len() {
        return None;
    }
    results.sort_by_key(|(i, _)| *i);
    // Put the parts back from the last to the first, so the recorded insertion points stay valid.
    let mut non_finite = 0;
    let mut first_line = usize::MAX;
    for ((_, part), job) in results.into_iter().zip(&jobs).rev() {
        let part = part.ok()?;
        file.nodes.splice(job.nodes_at..job.nodes_at, part.nodes);
        file.warnings.splice(job.warnings_at..job.warnings_at, part.warnings);
        if part.non_finite > 0 {
            non_finite += part.non_finite;
            first_line = first_line.min(part.first_non_finite_line);
        }
    }
    if non_finite > 0 {
        // The top level's own count (if any) was reported by `parse_with`: fold both into one warning.
        let (top, top_line) = file.non_finite_report.take().unwrap_or((0, usize::MAX));
        let total = top + non_finite;
        let line = first_line.min(top_line);
        warn(
            &mut file.warnings,
            line,
            format!("{total} number(s) written as NaN or infinity (e.g. 1.#QNAN) were read as 0"),
        );
    } else if let Some((count, line)) = file.non_finite_report.take() {
        warn(
            &mut file.warnings,
            line,
            format!("{count} number(s) written as NaN or infinity (e.g. 1.#QNAN) were read as 0"),
        );
    }
    Some(file)
}

/// The sequential read; with `deferred` set, object blocks are skipped and listed there instead of parsed.
fn parse_with(data: &[u8], deferred: Option<&JobQueue>) -> Result<RawFile, LoadError> {
    let mut lx = Lexer::new(data);
    let mut file = RawFile::default();
    match lx.peek_token() {
        Token::End => return Err(LoadError::whole_file("the file is empty: no ASE data")),
        Token::Keyword(k) if k.eq_ignore_ascii_case(b"3DSMAX_ASCIIEXPORT") => {}
        Token::Keyword(_) => {
            warn(&mut file.warnings, lx.line(), "the file does not start with *3DSMAX_ASCIIEXPORT; read as ASE anyway")
        }
        _ => {
            return Err(LoadError::at_line(
                lx.line(),
                "not an ASE file: expected *3DSMAX_ASCIIEXPORT (or another *KEYWORD) at the start",
            ));
        }
    }
    parse_items(&mut lx, &mut file, None, 0, deferred)?;
    if lx.non_finite > 0 {
        if deferred.is_some() {
            // Reported together with the objects' count once those are parsed.
            file.non_finite_report = Some((lx.non_finite, lx.first_non_finite_line));
        } else {
            warn(
                &mut file.warnings,
                lx.first_non_finite_line,
                format!("{} number(s) written as NaN or infinity (e.g. 1.#QNAN) were read as 0", lx.non_finite),
            );
        }
    }
    Ok(file)
}

/// An object block: parsed now, or (parallel read) skipped by braces and listed for a worker.
fn object(lx: &mut Lexer, file: &mut RawFile, kind: NodeKind, deferred: Option<&JobQueue>) -> Result<(), LoadError> {
    let Some(queue) = deferred else { return parse_object(lx, file, kind) };
    queue.push(Deferred {
        kind,
        pos: lx.pos(),
        line: lx.line(),
        nodes_at: file.nodes.len(),
        warnings_at: file.warnings.len(),
    });
    let keyword = block_keyword(kind);
    let open = lx.expect_open(keyword)?;
    lx.skip_block(keyword.as_bytes(), open)
}

/// The keyword that opens an object block of this kind.
fn block_keyword(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Geometry => "GEOMOBJECT",
        NodeKind::Helper => "HELPEROBJECT",
        NodeKind::Camera => "CAMERAOBJECT",
        NodeKind::Light => "LIGHTOBJECT",
        NodeKind::Shape | NodeKind::Target => "SHAPEOBJECT",
    }
}

/// Top-level entries, or the entries of a `*GROUP` (which ends at its `}`).
fn parse_items(
    lx: &mut Lexer,
    file: &mut RawFile,
    group: Option<usize>,
    depth: usize,
    deferred: Option<&JobQueue>,
) -> Result<(), LoadError> {
    loop {
        lx.skip_space();
        let line = lx.line();
        match lx.next_token() {
            Token::End => {
                return match group {
                    Some(open) => Err(unclosed(b"GROUP", open, lx.line())),
                    None => Ok(()),
                };
            }
            Token::Close => {
                if group.is_some() {
                    return Ok(());
                }
                warn(&mut file.warnings, lx.line(), "a '}' without a matching '{' was ignored");
            }
            Token::Open => {
                lx.skip_block(b"(unnamed block)", line)?;
            }
            Token::Str(_) | Token::Word(_) => {}
            Token::Keyword(k) => match k {
                b"3DSMAX_ASCIIEXPORT" | b"COMMENT" => {
                    lx.skip_entry(k)?;
                }
                b"SCENE" => {
                    lx.expect_open("SCENE")?;
                    file.scene = parse_scene(lx)?;
                }
                b"MATERIAL_LIST" => {
                    lx.expect_open("MATERIAL_LIST")?;
                    parse_material_list(lx, file)?;
                }
                b"GEOMOBJECT" => object(lx, file, NodeKind::Geometry, deferred)?,
                b"HELPEROBJECT" => object(lx, file, NodeKind::Helper, deferred)?,
                b"CAMERAOBJECT" => object(lx, file, NodeKind::Camera, deferred)?,
                b"LIGHTOBJECT" => object(lx, file, NodeKind::Light, deferred)?,
                b"SHAPEOBJECT" => object(lx, file, NodeKind::Shape, deferred)?,
                b"GROUP" => {
                    lx.inline_word();
                    let open = lx.expect_open("GROUP")?;
                    if depth >= MAX_DEPTH {
                        warn(&mut file.warnings, line, format!("*GROUP nested deeper than {MAX_DEPTH} levels skipped"));
                        lx.skip_block(b"GROUP", open)?;
                    } else {
                        parse_items(lx, file, Some(open), depth + 1, deferred)?;
                    }
                }
                b"MESH_SOFTSKINVERTS" => {
                    let open = lx.expect_open("MESH_SOFTSKINVERTS")?;
                    parse_soft_skin_verts(lx, file, open)?;
                }
                _ => {
                    if lx.skip_entry(k)? {
                        let name = kw(k);
                        // A short list is enough to tell the user; a hostile file cannot make it grow.
                        let known = file.skipped.len();
                        match file.skipped.iter_mut().find(|(n, _)| *n == name) {
                            Some((_, count)) => *count += 1,
                            None if known < 32 => file.skipped.push((name, 1)),
                            None => {}
                        }
                    }
                }
            },
        }
    }
}

fn parse_scene(lx: &mut Lexer) -> Result<Scene, LoadError> {
    let open = lx.line();
    let mut scene = Scene { present: true, ..Scene::default() };
    loop {
        match lx.next_token() {
            Token::Close => return Ok(scene),
            Token::End => return Err(unclosed(b"SCENE", open, lx.line())),
            Token::Keyword(k) => match k {
                b"SCENE_FILENAME" => scene.file_name = decode_name(lx.inline_word().unwrap_or_default()),
                b"SCENE_FIRSTFRAME" => scene.first_frame = lx.arg_int("SCENE_FIRSTFRAME")?,
                b"SCENE_LASTFRAME" => scene.last_frame = lx.arg_int("SCENE_LASTFRAME")?,
                b"SCENE_FRAMESPEED" => scene.frame_speed = lx.arg_f32("SCENE_FRAMESPEED")?,
                b"SCENE_TICKSPERFRAME" => scene.ticks_per_frame = lx.arg_f32("SCENE_TICKSPERFRAME")?,
                _ => {
                    lx.skip_entry(k)?;
                }
            },
            Token::Open => lx.skip_block(b"SCENE", open)?,
            _ => {}
        }
    }
}

fn parse_material_list(lx: &mut Lexer, file: &mut RawFile) -> Result<(), LoadError> {
    let open = lx.line();
    loop {
        lx.skip_space();
        let line = lx.line();
        match lx.next_token() {
            Token::Close => return Ok(()),
            Token::End => return Err(unclosed(b"MATERIAL_LIST", open, lx.line())),
            Token::Keyword(k) => match k {
                b"MATERIAL" => {
                    let index = lx.arg_index("MATERIAL")?;
                    lx.expect_open("MATERIAL")?;
                    let mat = parse_material(lx, &mut file.warnings, line, 0)?;
                    // Duplicate indices are resolved (the later wins) when the list is flattened.
                    file.materials.push((index, mat));
                }
                _ => {
                    lx.skip_entry(k)?;
                }
            },
            Token::Open => lx.skip_block(b"MATERIAL_LIST", line)?,
            _ => {}
        }
    }
}

fn parse_material(
    lx: &mut Lexer,
    warnings: &mut Vec<Warning>,
    open: usize,
    depth: usize,
) -> Result<RawMaterial, LoadError> {
    let mut mat = RawMaterial { line: open, ..RawMaterial::default() };
    loop {
        lx.skip_space();
        let line = lx.line();
        match lx.next_token() {
            Token::Close => return Ok(mat),
            Token::End => return Err(unclosed(b"MATERIAL", open, lx.line())),
            Token::Keyword(k) => match k {
                b"MATERIAL_NAME" => mat.name = decode_name(lx.inline_word().unwrap_or_default()),
                b"MATERIAL_CLASS" => mat.class = decode_name(lx.inline_word().unwrap_or_default()),
                b"MATERIAL_AMBIENT" => mat.ambient = Some(lx.arg_f32s::<3>("MATERIAL_AMBIENT")?),
                b"MATERIAL_DIFFUSE" => mat.diffuse = Some(lx.arg_f32s::<3>("MATERIAL_DIFFUSE")?),
                b"MATERIAL_SPECULAR" => mat.specular = Some(lx.arg_f32s::<3>("MATERIAL_SPECULAR")?),
                b"MATERIAL_TRANSPARENCY" => mat.transparency = lx.arg_f32("MATERIAL_TRANSPARENCY")?,
                b"MATERIAL_TWOSIDED" => {
                    // Written bare by most exporters, with a 0/1 by some.
                    mat.two_sided = lx.opt_f32().is_none_or(|v| v != 0.0);
                }
                b"MAP_DIFFUSE" => {
                    let open = lx.expect_open("MAP_DIFFUSE")?;
                    mat.diffuse_map = Some(parse_map(lx, open)?);
                }
                b"SUBMATERIAL" => {
                    let index = lx.arg_index("SUBMATERIAL")?;
                    let sub_open = lx.expect_open("SUBMATERIAL")?;
                    if depth >= MAX_DEPTH {
                        warn(warnings, line, format!("*SUBMATERIAL nested deeper than {MAX_DEPTH} levels skipped"));
                        lx.skip_block(b"SUBMATERIAL", sub_open)?;
                    } else {
                        let sub = parse_material(lx, warnings, line, depth + 1)?;
                        mat.subs.push((index, sub));
                    }
                }
                _ => {
                    lx.skip_entry(k)?;
                }
            },
            Token::Open => lx.skip_block(b"MATERIAL", line)?,
            _ => {}
        }
    }
}

fn parse_map(lx: &mut Lexer, open: usize) -> Result<RawMap, LoadError> {
    let mut map = RawMap { u_tiling: 1.0, v_tiling: 1.0, ..RawMap::default() };
    loop {
        lx.skip_space();
        let line = lx.line();
        match lx.next_token() {
            Token::Close => return Ok(map),
            Token::End => return Err(unclosed(b"MAP_DIFFUSE", open, lx.line())),
            Token::Keyword(k) => match k {
                b"MAP_CLASS" => map.class = decode_name(lx.inline_word().unwrap_or_default()),
                b"BITMAP" => map.bitmap = decode_name(lx.inline_word().unwrap_or_default()),
                b"UVW_U_OFFSET" => map.u_offset = lx.arg_f32("UVW_U_OFFSET")?,
                b"UVW_V_OFFSET" => map.v_offset = lx.arg_f32("UVW_V_OFFSET")?,
                b"UVW_U_TILING" => map.u_tiling = lx.arg_f32("UVW_U_TILING")?,
                b"UVW_V_TILING" => map.v_tiling = lx.arg_f32("UVW_V_TILING")?,
                b"UVW_ANGLE" => map.angle = lx.arg_f32("UVW_ANGLE")?,
                _ => {
                    lx.skip_entry(k)?;
                }
            },
            Token::Open => lx.skip_block(b"MAP_DIFFUSE", line)?,
            _ => {}
        }
    }
}

fn parse_object(lx: &mut Lexer, file: &mut RawFile, kind: NodeKind) -> Result<(), LoadError> {
    let start = lx.line();
    let open = lx.expect_open(block_keyword(kind))?;
    let mut node = RawNode::new(kind, start);
    let mut target: Option<RawNode> = None;
    loop {
        lx.skip_space();
        let line = lx.line();
        match lx.next_token() {
            Token::Close => break,
            Token::End => return Err(unclosed(b"GEOMOBJECT", open, lx.line())),
            Token::Keyword(k) => match k {
                b"NODE_NAME" => {
                    let name = decode_name(lx.arg_name("NODE_NAME")?);
                    if node.name.is_empty() {
                        node.name = name;
                    }
                }
                b"NODE_PARENT" => {
                    let parent = decode_name(lx.arg_name("NODE_PARENT")?);
                    if !parent.trim().is_empty() {
                        node.parent = Some(parent);
                    }
                }
                b"NODE_TM" => {
                    lx.expect_open("NODE_TM")?;
                    let (name, tm) = parse_node_tm(lx, line)?;
                    // Target cameras and lights write their target's transform as a second NODE_TM.
                    if node.tm.is_some() && name.as_deref().is_some_and(|n| n != node.name) {
                        let t = target.get_or_insert_with(|| RawNode::new(NodeKind::Target, line));
                        t.name = name.unwrap_or_default();
                        t.tm = Some(tm);
                    } else {
                        node.tm = Some(tm);
                    }
                }
                b"MESH" => {
                    let open = lx.expect_open("MESH")?;
                    let mesh = parse_mesh(lx, &mut file.warnings, open, true)?;
                    if node.mesh.is_some() {
                        warn(&mut file.warnings, line, "a second *MESH in one object replaces the first");
                    }
                    node.mesh = Some(mesh);
                }
                b"MESH_SOFTSKIN" => {
                    let open = lx.expect_open("MESH_SOFTSKIN")?;
                    if matches!(lx.peek_token(), Token::Keyword(_)) {
                        // Older exporters name the mesh block itself *MESH_SOFTSKIN.
                        node.mesh = Some(parse_mesh(lx, &mut file.warnings, open, true)?);
                    } else {
                        let skins = parse_soft_skin_body(lx, open, b"MESH_SOFTSKIN")?;
                        if let Some((_, skin)) = skins.into_iter().next() {
                            node.skin = Some(skin);
                        }
                    }
                }
                b"MESH_WEIGHTS" => {
                    let open = lx.expect_open("MESH_WEIGHTS")?;
                    node.skin = Some(parse_mesh_weights(lx, &mut file.warnings, open)?);
                }
                b"MESH_ANIMATION" => {
                    let open = lx.expect_open("MESH_ANIMATION")?;
                    node.frames.extend(parse_mesh_animation(lx, &mut file.warnings, open)?);
                }
                b"MATERIAL_REF" => node.material_ref = Some((line, lx.arg_int("MATERIAL_REF")?)),
                b"WIREFRAME_COLOR" => node.wire_color = Some(lx.arg_f32s::<3>("WIREFRAME_COLOR")?),
                b"TM_ANIMATION" => {
                    let open = lx.expect_open("TM_ANIMATION")?;
                    let (name, anim) = parse_tm_animation(lx, &mut file.warnings, open)?;
                    let for_target = name.as_deref().is_some_and(|n| n != node.name && n.ends_with(".Target"));
                    if for_target {
                        let t = target.get_or_insert_with(|| RawNode::new(NodeKind::Target, line));
                        if t.name.is_empty() {
                            t.name = name.unwrap_or_default();
                        }
                        t.anim = Some(anim);
                    } else {
                        node.anim = Some(anim);
                    }
                }
                _ => {
                    lx.skip_entry(k)?;
                }
            },
            Token::Open => lx.skip_block(b"(unnamed block)", line)?,
            _ => {}
        }
    }
    if node.name.is_empty() {
        node.name = format!("{} at line {start}", node.kind.label());
        warn(&mut file.warnings, start, format!("object without *NODE_NAME, named '{}'", node.name));
    }
    // Meshes written with their animation inside *MESH.
    if let Some(mesh) = &mut node.mesh
        && !mesh.frames.is_empty()
    {
        node.frames.append(&mut mesh.frames);
    }
    if let Some(mesh) = &mut node.mesh
        && node.skin.is_none()
    {
        node.skin = mesh.weights.take();
    }
    file.nodes.push(node);
    if let Some(t) = target {
        file.nodes.push(t);
    }
    Ok(())
}

fn parse_node_tm(lx: &mut Lexer, open: usize) -> Result<(Option<String>, Mat4), LoadError> {
    let mut name = None;
    let mut rows = [Vec3::X, Vec3::Y, Vec3::Z, Vec3::ZERO];
    loop {
        lx.skip_space();
        let line = lx.line();
        match lx.next_token() {
            Token::Close => break,
            Token::End => return Err(unclosed(b"NODE_TM", open, lx.line())),
            Token::Keyword(k) => match k {
                b"NODE_NAME" => name = Some(decode_name(lx.inline_word().unwrap_or_default())),
                b"TM_ROW0" => rows[0] = Vec3::from(lx.arg_f32s::<3>("TM_ROW0")?),
                b"TM_ROW1" => rows[1] = Vec3::from(lx.arg_f32s::<3>("TM_ROW1")?),
                b"TM_ROW2" => rows[2] = Vec3::from(lx.arg_f32s::<3>("TM_ROW2")?),
                b"TM_ROW3" => rows[3] = Vec3::from(lx.arg_f32s::<3>("TM_ROW3")?),
                _ => {
                    lx.skip_entry(k)?;
                }
            },
            Token::Open => lx.skip_block(b"NODE_TM", line)?,
            _ => {}
        }
    }
    // Max writes row vectors (p' = p·M, row 3 = translation); as glam column vectors the rows become columns.
    Ok((name, Mat4::from_cols(rows[0].extend(0.0), rows[1].extend(0.0), rows[2].extend(0.0), rows[3].extend(1.0))))
}

/// Stores `value` at `index` of a list whose length was declared (or grows in order when it was not).
fn store<T: Clone>(
    list: &mut Vec<T>,
    declared: Option<usize>,
    index: u32,
    value: T,
    fill: T,
    remaining: usize,
) -> bool {
    let i = index as usize;
    if i < list.len() {
        list[i] = value;
        return true;
    }
    if declared.is_some() {
        return false;
    }
    // Undeclared: allow gaps only as large as the rest of the file could fill.
    if i - list.len() > remaining / MIN_ENTRY_BYTES {
        return false;
    }
    list.resize(i, fill);
    list.push(value);
    true
}

#[derive(Default)]
struct Counts {
    vertex: Option<usize>,
    faces: Option<usize>,
    tvert: Option<usize>,
    cvert: Option<usize>,
}

fn resize_declared<T: Clone>(list: &mut Vec<T>, n: usize, fill: T) {
    list.clear();
    list.resize(n, fill);
}

fn parse_mesh(
    lx: &mut Lexer,
    warnings: &mut Vec<Warning>,
    open: usize,
    allow_frames: bool,
) -> Result<RawMesh, LoadError> {
    let mut mesh = RawMesh { line: open, ..RawMesh::default() };
    let mut counts = Counts::default();
    let mut out_of_range = 0usize;
    let mut first_bad_line = 0usize;
    loop {
        lx.skip_space();
        let line = lx.line();
        match lx.next_token() {
            Token::Close => break,
            Token::End => return Err(unclosed(b"MESH", open, lx.line())),
            Token::Keyword(k) => match k {
                b"TIMEVALUE" => mesh.time = lx.arg_int("TIMEVALUE")?,
                b"MESH_NUMVERTEX" => {
                    let n = checked_count(lx, "MESH_NUMVERTEX")?;
                    counts.vertex = Some(n);
                    resize_declared(&mut mesh.positions, n, Vec3::ZERO);
                }
                b"MESH_NUMFACES" => {
                    let n = checked_count(lx, "MESH_NUMFACES")?;
                    counts.faces = Some(n);
                    resize_declared(&mut mesh.faces, n, RawFace::default());
                }
                b"MESH_NUMTVERTEX" => {
                    let n = checked_count(lx, "MESH_NUMTVERTEX")?;
                    counts.tvert = Some(n);
                    resize_declared(&mut mesh.uv.tverts, n, Vec3::ZERO);
                }
                b"MESH_NUMCVERTEX" => {
                    let n = checked_count(lx, "MESH_NUMCVERTEX")?;
                    counts.cvert = Some(n);
                    resize_declared(&mut mesh.cverts, n, Vec3::ONE);
                }
                b"MESH_NUMTVFACES" | b"MESH_NUMCVFACES" => {
                    checked_count(lx, if k == b"MESH_NUMTVFACES" { "MESH_NUMTVFACES" } else { "MESH_NUMCVFACES" })?;
                }
                b"MESH_VERTEX_LIST" => {
                    let open = lx.expect_open("MESH_VERTEX_LIST")?;
                    let declared = counts.vertex;
                    parse_list_of(lx, b"MESH_VERTEX_LIST", open, Some(b"MESH_VERTEX"), |lx, key, line| {
                        if key != b"MESH_VERTEX" {
                            return Ok(false);
                        }
                        let i = lx.arg_index("MESH_VERTEX")?;
                        let p = Vec3::from(lx.arg_f32s::<3>("MESH_VERTEX")?);
                        let remaining = lx.remaining();
                        if !store(&mut mesh.positions, declared, i, p, Vec3::ZERO, remaining) {
                            note_bad(&mut out_of_range, &mut first_bad_line, line);
                        }
                        Ok(true)
                    })?;
                }
                b"MESH_FACE_LIST" => {
                    let open = lx.expect_open("MESH_FACE_LIST")?;
                    let declared = counts.faces;
                    let vertex_count = counts.vertex;
                    parse_list_of(lx, b"MESH_FACE_LIST", open, Some(b"MESH_FACE"), |lx, key, line| {
                        if key != b"MESH_FACE" {
                            return Ok(false);
                        }
                        let (i, face) = parse_face(lx, line)?;
                        if let Some(n) = vertex_count
                            && let Some(&bad) = face.v.iter().find(|&&v| v as usize >= n)
                        {
                            return Err(LoadError::at_line(
                                line,
                                format!("*MESH_FACE {i} refers to vertex {bad}, but *MESH_NUMVERTEX is {n}"),
                            ));
                        }
                        let remaining = lx.remaining();
                        if !store(&mut mesh.faces, declared, i, face, RawFace::default(), remaining) {
                            note_bad(&mut out_of_range, &mut first_bad_line, line);
                        }
                        Ok(true)
                    })?;
                }
                b"MESH_TVERTLIST" => {
                    let open = lx.expect_open("MESH_TVERTLIST")?;
                    parse_tverts(lx, &mut mesh.uv.tverts, counts.tvert, open, &mut out_of_range, &mut first_bad_line)?;
                }
                b"MESH_TFACELIST" => {
                    let open = lx.expect_open("MESH_TFACELIST")?;
                    let faces = mesh.faces.len().max(counts.faces.unwrap_or(0));
                    let target = IndexTarget {
                        count: counts.tvert.or((!mesh.uv.tverts.is_empty()).then_some(mesh.uv.tverts.len())),
                        what: "texture vertex",
                        count_keyword: "MESH_NUMTVERTEX",
                        consequence: "they get UV (0, 0)",
                    };
                    parse_index_faces(
                        lx,
                        b"MESH_TFACELIST",
                        b"MESH_TFACE",
                        &mut mesh.uv.tfaces,
                        faces,
                        open,
                        target,
                        warnings,
                        &mut out_of_range,
                        &mut first_bad_line,
                    )?;
                }
                b"MESH_CVERTLIST" => {
                    let open = lx.expect_open("MESH_CVERTLIST")?;
                    let declared = counts.cvert;
                    parse_list_of(lx, b"MESH_CVERTLIST", open, Some(b"MESH_VERTCOL"), |lx, key, line| {
                        if key != b"MESH_VERTCOL" {
                            return Ok(false);
                        }
                        let i = lx.arg_index("MESH_VERTCOL")?;
                        let c = Vec3::from(lx.arg_f32s::<3>("MESH_VERTCOL")?);
                        let remaining = lx.remaining();
                        if !store(&mut mesh.cverts, declared, i, c, Vec3::ONE, remaining) {
                            note_bad(&mut out_of_range, &mut first_bad_line, line);
                        }
                        Ok(true)
                    })?;
                }
                b"MESH_CFACELIST" => {
                    let open = lx.expect_open("MESH_CFACELIST")?;
                    let faces = mesh.faces.len().max(counts.faces.unwrap_or(0));
                    let target = IndexTarget {
                        count: counts.cvert.or((!mesh.cverts.is_empty()).then_some(mesh.cverts.len())),
                        what: "colour vertex",
                        count_keyword: "MESH_NUMCVERTEX",
                        consequence: "they are white",
                    };
                    parse_index_faces(
                        lx,
                        b"MESH_CFACELIST",
                        b"MESH_CFACE",
                        &mut mesh.cfaces,
                        faces,
                        open,
                        target,
                        warnings,
                        &mut out_of_range,
                        &mut first_bad_line,
                    )?;
                }
                b"MESH_NORMALS" => {
                    let open = lx.expect_open("MESH_NORMALS")?;
                    parse_normals(lx, &mut mesh, open, &mut out_of_range, &mut first_bad_line)?;
                }
                b"MESH_MAPPINGCHANNEL" => {
                    let channel = lx.arg_index("MESH_MAPPINGCHANNEL")?;
                    let open = lx.expect_open("MESH_MAPPINGCHANNEL")?;
                    let faces = mesh.faces.len().max(counts.faces.unwrap_or(0));
                    let ch = parse_mapping_channel(
                        lx,
                        warnings,
                        channel,
                        faces,
                        open,
                        &mut out_of_range,
                        &mut first_bad_line,
                    )?;
                    mesh.extra_channels.push(ch);
                }
                b"MESH_WEIGHTS" => {
                    let open = lx.expect_open("MESH_WEIGHTS")?;
                    mesh.weights = Some(parse_mesh_weights(lx, warnings, open)?);
                }
                b"MESH_ANIMATION" if allow_frames => {
                    let open = lx.expect_open("MESH_ANIMATION")?;
                    mesh.frames.extend(parse_mesh_animation(lx, warnings, open)?);
                }
                _ => {
                    lx.skip_entry(k)?;
                }
            },
            Token::Open => lx.skip_block(b"MESH", line)?,
            _ => {}
        }
    }
    if out_of_range > 0 {
        warn(
            warnings,
            first_bad_line,
            format!("{out_of_range} list entr(ies) with an index beyond the declared count were ignored"),
        );
    }
    Ok(mesh)
}

fn note_bad(count: &mut usize, first_line: &mut usize, line: usize) {
    if *count == 0 {
        *first_line = line;
    }
    *count += 1;
}

/// Runs `entry` for every keyword entry of a list block; entries it does not take (returns false) are skipped.
fn parse_list<'a>(
    lx: &mut Lexer<'a>,
    keyword: &[u8],
    open: usize,
    entry: impl FnMut(&mut Lexer<'a>, &'a [u8], usize) -> Result<bool, LoadError>,
) -> Result<(), LoadError> {
    parse_list_of(lx, keyword, open, None, entry)
}

/// [`parse_list`] for the long lists of a mesh, whose entries are almost all `usual` (e.g. `MESH_VERTEX`): that
/// keyword is recognised by comparing the bytes in place, without scanning it as a word first.
fn parse_list_of<'a>(
    lx: &mut Lexer<'a>,
    keyword: &[u8],
    open: usize,
    usual: Option<&'static [u8]>,
    mut entry: impl FnMut(&mut Lexer<'a>, &'a [u8], usize) -> Result<bool, LoadError>,
) -> Result<(), LoadError> {
    loop {
        lx.skip_space();
        let line = lx.line();
        if let Some(usual) = usual
            && lx.eat_keyword(usual)
        {
            if !entry(lx, usual, line)? {
                lx.skip_entry(usual)?;
            }
            continue;
        }
        match lx.next_token() {
            Token::Close => return Ok(()),
            Token::End => return Err(unclosed(keyword, open, lx.line())),
            Token::Keyword(k) => {
                let taken = entry(lx, k, line)?;
                if !taken {
                    lx.skip_entry(k)?;
                }
            }
            Token::Open => lx.skip_block(keyword, line)?,
            _ => {}
        }
    }
}

/// `*MESH_FACE 0:  A: 0 B: 1 C: 2 AB: 1 BC: 1 CA: 1  *MESH_SMOOTHING 1,2  *MESH_MTLID 0` (spaces around the
/// colons vary between exporters; the smoothing list may be empty). Scanned as one line slice: these lines are
/// most of a mesh.
fn parse_face(lx: &mut Lexer, line: usize) -> Result<(u32, RawFace), LoadError> {
    let index = lx.arg_index("MESH_FACE")?;
    let rest = lx.rest_of_line();
    let mut face = RawFace::default();
    let mut seen = [false; 3];
    let n = rest.len();
    let is_space = |b: u8| b == b' ' || b == b'\t' || b == b'\r';
    let skip = |i: &mut usize| {
        while *i < n && is_space(rest[*i]) {
            *i += 1;
        }
    };
    let number = |i: &mut usize| -> Option<i64> {
        let start = *i;
        if *i < n && rest[*i] == b'-' {
            *i += 1;
        }
        while *i < n && rest[*i].is_ascii_digit() {
            *i += 1;
        }
        crate::io::text::parse_i64(&rest[start..*i])
    };
    let mut i = 0;
    loop {
        skip(&mut i);
        if i >= n {
            break;
        }
        let start = i;
        while i < n && !is_space(rest[i]) && rest[i] != b':' {
            i += 1;
        }
        let word = &rest[start..i];
        let mut j = i;
        skip(&mut j);
        let colon = j < n && rest[j] == b':';
        if colon {
            i = j + 1;
        }
        match word {
            b"A" | b"a" | b"B" | b"b" | b"C" | b"c" if colon => {
                skip(&mut i);
                let corner = usize::from(word[0].to_ascii_uppercase() - b'A');
                let v = number(&mut i).and_then(|v| u32::try_from(v).ok()).ok_or_else(|| {
                    LoadError::at_line(
                        line,
                        format!("*MESH_FACE {index}: corner {} needs a vertex index", word[0] as char),
                    )
                })?;
                face.v[corner] = v;
                seen[corner] = true;
            }
            b"*MESH_SMOOTHING" => {
                // `1`, `1,2,3`, `1, 2` or nothing.
                loop {
                    skip(&mut i);
                    if i >= n || rest[i] == b'*' {
                        break;
                    }
                    let start = i;
                    while i < n && !is_space(rest[i]) {
                        i += 1;
                    }
                    let token = &rest[start..i];
                    face.smoothing |= smoothing_bits(token);
                    let mut j = i;
                    skip(&mut j);
                    if !(token.ends_with(b",") || j < n && rest[j] == b',') {
                        break;
                    }
                }
            }
            b"*MESH_MTLID" => {
                skip(&mut i);
                face.mtl = number(&mut i).and_then(|v| u32::try_from(v).ok()).unwrap_or(0);
            }
            _ => {}
        }
    }
    if seen != [true; 3] {
        return Err(LoadError::at_line(line, format!("*MESH_FACE {index}: expected the corners A:, B: and C:")));
    }
    Ok((index, face))
}

fn smoothing_bits(list: &[u8]) -> u32 {
    list.split(|&b| b == b',')
        .filter_map(|g| crate::io::text::parse_i64(g.trim_ascii()))
        .filter(|g| (1..=32).contains(g))
        .fold(0u32, |bits, g| bits | (1 << (g - 1)))
}

fn parse_tverts(
    lx: &mut Lexer,
    tverts: &mut Vec<Vec3>,
    declared: Option<usize>,
    open: usize,
    bad: &mut usize,
    bad_line: &mut usize,
) -> Result<(), LoadError> {
    parse_list_of(lx, b"MESH_TVERTLIST", open, Some(b"MESH_TVERT"), |lx, key, line| {
        if key != b"MESH_TVERT" {
            return Ok(false);
        }
        let i = lx.arg_index("MESH_TVERT")?;
        let u = lx.arg_f32("MESH_TVERT")?;
        let v = lx.arg_f32("MESH_TVERT")?;
        let w = lx.opt_f32().unwrap_or(0.0);
        let remaining = lx.remaining();
        if !store(tverts, declared, i, Vec3::new(u, v, w), Vec3::ZERO, remaining) {
            note_bad(bad, bad_line, line);
        }
        Ok(true)
    })
}

/// What the indices of a face list point into, for range checks with the entry's own line.
struct IndexTarget<'s> {
    count: Option<usize>,
    /// e.g. "texture vertex".
    what: &'s str,
    /// e.g. "MESH_NUMTVERTEX".
    count_keyword: &'s str,
    /// e.g. "they get UV (0, 0)".
    consequence: &'s str,
}

#[allow(clippy::too_many_arguments)]
fn parse_index_faces(
    lx: &mut Lexer,
    list: &[u8],
    entry: &'static [u8],
    out: &mut Vec<[u32; 3]>,
    faces: usize,
    open: usize,
    target: IndexTarget,
    warnings: &mut Vec<Warning>,
    bad: &mut usize,
    bad_line: &mut usize,
) -> Result<(), LoadError> {
    resize_declared(out, faces, [NONE; 3]);
    let name = kw(entry);
    let mut out_of_range = 0usize;
    let mut first: Option<(usize, u32, u32)> = None;
    parse_list_of(lx, list, open, Some(entry), |lx, key, line| {
        if key != entry {
            return Ok(false);
        }
        let i = lx.arg_index(&name)?;
        let mut corners = [0u32; 3];
        for c in &mut corners {
            *c = lx.arg_index(&name)?;
            if let Some(n) = target.count
                && *c as usize >= n
            {
                if first.is_none() {
                    first = Some((line, i, *c));
                }
                out_of_range += 1;
                *c = NONE;
            }
        }
        match out.get_mut(i as usize) {
            Some(slot) => *slot = corners,
            None => note_bad(bad, bad_line, line),
        }
        Ok(true)
    })?;
    if let (Some((line, face, index)), Some(n)) = (first, target.count) {
        warn(
            warnings,
            line,
            format!(
                "*{name} {face} refers to {} {index}, but *{} is {n} ({out_of_range} corner(s) like this: {})",
                target.what, target.count_keyword, target.consequence
            ),
        );
    }
    Ok(())
}

fn parse_mapping_channel(
    lx: &mut Lexer,
    warnings: &mut Vec<Warning>,
    channel: u32,
    faces: usize,
    open: usize,
    bad: &mut usize,
    bad_line: &mut usize,
) -> Result<RawChannel, LoadError> {
    let mut ch = RawChannel { channel, ..RawChannel::default() };
    let mut declared = None;
    loop {
        lx.skip_space();
        let line = lx.line();
        match lx.next_token() {
            Token::Close => return Ok(ch),
            Token::End => return Err(unclosed(b"MESH_MAPPINGCHANNEL", open, lx.line())),
            Token::Keyword(k) => match k {
                b"MESH_NUMTVERTEX" => {
                    let n = checked_count(lx, "MESH_NUMTVERTEX")?;
                    declared = Some(n);
                    resize_declared(&mut ch.tverts, n, Vec3::ZERO);
                }
                b"MESH_TVERTLIST" => {
                    let open = lx.expect_open("MESH_TVERTLIST")?;
                    parse_tverts(lx, &mut ch.tverts, declared, open, bad, bad_line)?;
                }
                b"MESH_TFACELIST" => {
                    let open = lx.expect_open("MESH_TFACELIST")?;
                    let target = IndexTarget {
                        count: declared.or((!ch.tverts.is_empty()).then_some(ch.tverts.len())),
                        what: "texture vertex",
                        count_keyword: "MESH_NUMTVERTEX",
                        consequence: "they get UV (0, 0)",
                    };
                    parse_index_faces(
                        lx,
                        b"MESH_TFACELIST",
                        b"MESH_TFACE",
                        &mut ch.tfaces,
                        faces,
                        open,
                        target,
                        warnings,
                        bad,
                        bad_line,
                    )?;
                }
                _ => {
                    lx.skip_entry(k)?;
                }
            },
            Token::Open => lx.skip_block(b"MESH_MAPPINGCHANNEL", line)?,
            _ => {}
        }
    }
}

/// `*MESH_FACENORMAL f x y z` followed by three `*MESH_VERTEXNORMAL v x y z`, one per corner in order.
fn parse_normals(
    lx: &mut Lexer,
    mesh: &mut RawMesh,
    open: usize,
    bad: &mut usize,
    bad_line: &mut usize,
) -> Result<(), LoadError> {
    let missing = Vec3::NAN;
    resize_declared(&mut mesh.normals, mesh.faces.len(), [missing; 3]);
    let mut face: Option<usize> = None;
    let mut corner = 0usize;
    let faces = &mesh.faces;
    let normals = &mut mesh.normals;
    parse_list_of(lx, b"MESH_NORMALS", open, Some(b"MESH_VERTEXNORMAL"), |lx, key, line| {
        match key {
            b"MESH_FACENORMAL" => {
                let f = lx.arg_index("MESH_FACENORMAL")? as usize;
                // Face normals are not used (render normals are the vertex normals): not even parsed.
                lx.rest_of_line();
                face = (f < normals.len()).then_some(f);
                if face.is_none() {
                    note_bad(bad, bad_line, line);
                }
                corner = 0;
            }
            b"MESH_VERTEXNORMAL" => {
                let v = lx.arg_index("MESH_VERTEXNORMAL")?;
                let n = Vec3::from(lx.arg_f32s::<3>("MESH_VERTEXNORMAL")?);
                if let Some(f) = face {
                    // Written in corner order; the vertex index decides when an exporter wrote another order.
                    let slot = match faces.get(f) {
                        Some(fc) if fc.v.get(corner) != Some(&v) => fc.v.iter().position(|&x| x == v).unwrap_or(corner),
                        _ => corner,
                    };
                    if let Some(s) = normals.get_mut(f).and_then(|c| c.get_mut(slot)) {
                        *s = n;
                    }
                    corner += 1;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    })
}

/// `*MESH_WEIGHTS { *MESH_NUMVERTEX, *MESH_NUMBONE, *MESH_BONE_LIST { *MESH_BONE_NAME i "name" },
/// *MESH_BONE_VERTEX_LIST { *MESH_BONE_VERTEX v … } }`.
///
/// A `*MESH_BONE_VERTEX` line is read in one of three shapes, told apart by how many numbers follow the vertex
/// index (R):
/// - R even: `bone weight` pairs (the common extended-exporter shape);
/// - R = 2·bones − 1 with the odd positions reading 1, 2, 3…: the seed's shape, the weight of bone 0 and then
///   `bone weight` pairs, i.e. one weight per bone in bone order;
/// - otherwise, R odd and ≥ 3: the ASC shape, the vertex position (3 numbers, ignored) and then pairs.
///
/// A bone index of −1 marks an unused slot.
fn parse_mesh_weights(lx: &mut Lexer, warnings: &mut Vec<Warning>, open: usize) -> Result<RawSkin, LoadError> {
    let mut skin = RawSkin { line: open, ..RawSkin::default() };
    let mut bone_count = 0usize;
    let mut numbers: Vec<f32> = Vec::new();
    let mut bad_bones = 0usize;
    let mut bad_line = 0usize;
    loop {
        lx.skip_space();
        let line = lx.line();
        match lx.next_token() {
            Token::Close => break,
            Token::End => return Err(unclosed(b"MESH_WEIGHTS", open, lx.line())),
            Token::Keyword(k) => match k {
                b"MESH_NUMVERTEX" => {
                    checked_count(lx, "MESH_NUMVERTEX")?;
                }
                b"MESH_NUMBONE" => {
                    bone_count = checked_count(lx, "MESH_NUMBONE")?;
                    skin.bones.clear();
                    skin.bones.resize(bone_count, String::new());
                }
                b"MESH_BONE_LIST" => {
                    let open = lx.expect_open("MESH_BONE_LIST")?;
                    let bones = &mut skin.bones;
                    parse_list(lx, b"MESH_BONE_LIST", open, |lx, key, line| {
                        if key != b"MESH_BONE_NAME" {
                            return Ok(false);
                        }
                        let i = lx.arg_index("MESH_BONE_NAME")?;
                        let name = decode_name(lx.arg_name("MESH_BONE_NAME")?);
                        let remaining = lx.remaining();
                        if !store(bones, None, i, String::new(), String::new(), remaining) {
                            return Err(LoadError::at_line(line, format!("*MESH_BONE_NAME {i}: index out of range")));
                        }
                        if let Some(slot) = bones.get_mut(i as usize) {
                            *slot = name;
                        }
                        Ok(true)
                    })?;
                }
                b"MESH_BONE_VERTEX_LIST" => {
                    let open = lx.expect_open("MESH_BONE_VERTEX_LIST")?;
                    let bones = skin.bones.len().max(bone_count);
                    let vertices = &mut skin.vertices;
                    let pairs = &mut skin.pairs;
                    parse_list_of(lx, b"MESH_BONE_VERTEX_LIST", open, Some(b"MESH_BONE_VERTEX"), |lx, key, line| {
                        if key != b"MESH_BONE_VERTEX" {
                            return Ok(false);
                        }
                        let vertex = lx.arg_index("MESH_BONE_VERTEX")?;
                        numbers.clear();
                        while !lx.at_line_end() {
                            if matches!(lx.clone().inline_word(), Some(w) if w.starts_with(b"*")) {
                                break;
                            }
                            numbers.push(lx.arg_f32("MESH_BONE_VERTEX")?);
                        }
                        let r = numbers.len();
                        let seed_shape = r % 2 == 1
                            && r + 1 == 2 * bones
                            && numbers.iter().skip(1).step_by(2).enumerate().all(|(i, &b)| b == (i + 1) as f32);
                        let first = pairs.len() as u32;
                        let list: &[f32] = if r.is_multiple_of(2) {
                            &numbers
                        } else if seed_shape {
                            pairs.push((0, numbers[0]));
                            &numbers[1..]
                        } else if r >= 3 {
                            &numbers[3..]
                        } else {
                            return Err(LoadError::at_line(
                                line,
                                format!("*MESH_BONE_VERTEX {vertex}: expected bone/weight pairs, found {r} number(s)"),
                            ));
                        };
                        for pair in list.chunks_exact(2) {
                            let (b, w) = (pair[0], pair[1]);
                            if b == -1.0 {
                                continue;
                            }
                            if b < 0.0 || b.fract() != 0.0 || b as usize >= bones.max(1) {
                                note_bad(&mut bad_bones, &mut bad_line, line);
                                continue;
                            }
                            pairs.push((b as u32, w));
                        }
                        vertices.push((vertex, first, pairs.len() as u32 - first));
                        Ok(true)
                    })?;
                }
                _ => {
                    lx.skip_entry(k)?;
                }
            },
            Token::Open => lx.skip_block(b"MESH_WEIGHTS", line)?,
            _ => {}
        }
    }
    if bad_bones > 0 {
        warn(warnings, bad_line, format!("{bad_bones} weight(s) name a bone index outside *MESH_BONE_LIST; ignored"));
    }
    Ok(skin)
}

/// Top-level `*MESH_SOFTSKINVERTS { <mesh name> <vertex count> [<weight count> (<bone name> <weight>)…]… }`.
fn parse_soft_skin_verts(lx: &mut Lexer, file: &mut RawFile, open: usize) -> Result<(), LoadError> {
    let skins = parse_soft_skin_body(lx, open, b"MESH_SOFTSKINVERTS")?;
    file.soft_skins.extend(skins);
    Ok(())
}

/// The bare-word body of a soft-skin block: repeated `[mesh name] vertex-count` then, per vertex, a weight count
/// and that many `bone-name weight` pairs. Bone names may be quoted.
fn parse_soft_skin_body(lx: &mut Lexer, open: usize, keyword: &[u8]) -> Result<Vec<(String, RawSkin)>, LoadError> {
    let mut out = Vec::new();
    let name_of = |t: &[u8]| decode_name(t);
    loop {
        lx.skip_space();
        let line = lx.line();
        let (mesh_name, count) = match lx.next_token() {
            Token::Close => return Ok(out),
            Token::End => return Err(unclosed(keyword, open, lx.line())),
            Token::Open => {
                lx.skip_block(keyword, line)?;
                continue;
            }
            Token::Keyword(k) => {
                lx.skip_entry(k)?;
                continue;
            }
            Token::Str(t) | Token::Word(t) => match crate::io::text::parse_i64(t) {
                Some(n) => (String::new(), n),
                None => (name_of(t), soft_int(lx, keyword)?),
            },
        };
        let limit = lx.remaining() / 2;
        let count = usize::try_from(count).ok().filter(|&n| n <= limit).ok_or_else(|| {
            LoadError::at_line(
                line,
                format!("*{}: vertex count {count} does not fit the rest of the file", kw(keyword)),
            )
        })?;
        let mut skin = RawSkin { line, ..RawSkin::default() };
        let mut lookup = HashMap::new();
        for vertex in 0..count {
            let n = soft_int(lx, keyword)?;
            let n = usize::try_from(n).ok().filter(|&n| n <= lx.remaining() / 2).ok_or_else(|| {
                LoadError::at_line(
                    lx.line(),
                    format!("*{}: weight count {n} does not fit the rest of the file", kw(keyword)),
                )
            })?;
            let first = skin.pairs.len() as u32;
            for _ in 0..n {
                let bone = match lx.next_token() {
                    Token::Str(t) | Token::Word(t) => name_of(t),
                    _ => {
                        return Err(LoadError::at_line(lx.line(), format!("*{}: expected a bone name", kw(keyword))));
                    }
                };
                let weight = match lx.next_token() {
                    Token::Word(t) => crate::io::text::parse_f32(t),
                    _ => None,
                }
                .ok_or_else(|| LoadError::at_line(lx.line(), format!("*{}: expected a weight", kw(keyword))))?;
                let b = skin.bone_index(bone, &mut lookup);
                skin.pairs.push((b, weight));
            }
            skin.vertices.push((vertex as u32, first, skin.pairs.len() as u32 - first));
        }
        out.push((mesh_name, skin));
    }
}

fn soft_int(lx: &mut Lexer, keyword: &[u8]) -> Result<i64, LoadError> {
    match lx.next_token() {
        Token::Word(t) => crate::io::text::parse_i64(t),
        _ => None,
    }
    .ok_or_else(|| LoadError::at_line(lx.line(), format!("*{}: expected a count", kw(keyword))))
}

fn parse_mesh_animation(lx: &mut Lexer, warnings: &mut Vec<Warning>, open: usize) -> Result<Vec<RawMesh>, LoadError> {
    let mut frames = Vec::new();
    parse_list(lx, b"MESH_ANIMATION", open, |lx, key, _line| {
        if key != b"MESH" {
            return Ok(false);
        }
        let open = lx.expect_open("MESH")?;
        frames.push(parse_mesh(lx, warnings, open, false)?);
        Ok(true)
    })?;
    Ok(frames)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Channel {
    Pos,
    Rot,
    Scale,
}

fn parse_tm_animation(
    lx: &mut Lexer,
    warnings: &mut Vec<Warning>,
    open: usize,
) -> Result<(Option<String>, RawAnim), LoadError> {
    let mut anim = RawAnim::default();
    let mut name = None;
    loop {
        lx.skip_space();
        let line = lx.line();
        match lx.next_token() {
            Token::Close => return Ok((name, anim)),
            Token::End => return Err(unclosed(b"TM_ANIMATION", open, lx.line())),
            Token::Keyword(k) => {
                let track = match k {
                    b"NODE_NAME" => {
                        name = Some(decode_name(lx.inline_word().unwrap_or_default()));
                        continue;
                    }
                    b"CONTROL_POS_TRACK" => Some((Channel::Pos, TrackKind::Sampled)),
                    b"CONTROL_POS_LINEAR" => Some((Channel::Pos, TrackKind::Linear)),
                    b"CONTROL_POS_BEZIER" => Some((Channel::Pos, TrackKind::Bezier)),
                    b"CONTROL_POS_TCB" => Some((Channel::Pos, TrackKind::Tcb)),
                    b"CONTROL_ROT_TRACK" => Some((Channel::Rot, TrackKind::Sampled)),
                    b"CONTROL_ROT_LINEAR" => Some((Channel::Rot, TrackKind::Linear)),
                    b"CONTROL_ROT_BEZIER" => Some((Channel::Rot, TrackKind::Bezier)),
                    b"CONTROL_ROT_TCB" => Some((Channel::Rot, TrackKind::Tcb)),
                    b"CONTROL_SCALE_TRACK" => Some((Channel::Scale, TrackKind::Sampled)),
                    b"CONTROL_SCALE_LINEAR" => Some((Channel::Scale, TrackKind::Linear)),
                    b"CONTROL_SCALE_BEZIER" => Some((Channel::Scale, TrackKind::Bezier)),
                    b"CONTROL_SCALE_TCB" => Some((Channel::Scale, TrackKind::Tcb)),
                    _ => None,
                };
                let Some((channel, kind)) = track else {
                    lx.skip_entry(k)?;
                    continue;
                };
                let open = lx.expect_open(&kw(k))?;
                let track = parse_track(lx, k, channel, kind, open)?;
                let slot = match channel {
                    Channel::Pos => &mut anim.pos,
                    Channel::Rot => &mut anim.rot,
                    Channel::Scale => &mut anim.scale,
                };
                if slot.is_some() {
                    warn(warnings, line, format!("a second *{} in one *TM_ANIMATION replaces the first", kw(k)));
                }
                *slot = Some(track);
            }
            Token::Open => lx.skip_block(b"TM_ANIMATION", line)?,
            _ => {}
        }
    }
}

/// Reads the keys of one controller block. Each key line is `tick` and numbers whose meaning depends on the
/// channel and the key type; optional trailing parts (TCB parameters, Bezier tangents, the scale axis) may be
/// missing in hand-written files.
fn parse_track(
    lx: &mut Lexer,
    block: &[u8],
    channel: Channel,
    kind: TrackKind,
    open: usize,
) -> Result<RawTrack, LoadError> {
    let mut track = RawTrack { line: open, kind, keys: Vec::new() };
    let mut nums = [0f32; 16];
    parse_list(lx, block, open, |lx, key, line| {
        let is_key = matches!(
            (channel, key),
            (
                Channel::Pos,
                b"CONTROL_POS_SAMPLE" | b"CONTROL_POS_KEY" | b"CONTROL_TCB_POS_KEY" | b"CONTROL_BEZIER_POS_KEY"
            ) | (
                Channel::Rot,
                b"CONTROL_ROT_SAMPLE" | b"CONTROL_ROT_KEY" | b"CONTROL_TCB_ROT_KEY" | b"CONTROL_BEZIER_ROT_KEY"
            ) | (
                Channel::Scale,
                b"CONTROL_SCALE_SAMPLE" | b"CONTROL_SCALE_KEY" | b"CONTROL_TCB_SCALE_KEY" | b"CONTROL_BEZIER_SCALE_KEY"
            )
        );
        if !is_key {
            return Ok(false);
        }
        let name = kw(key);
        let tick = lx.arg_int(&name)?;
        let mut n = 0;
        while n < nums.len() && !lx.at_line_end() {
            nums[n] = lx.arg_f32(&name)?;
            n += 1;
        }
        let value_len = match channel {
            Channel::Pos => 3,
            Channel::Rot => 4,
            Channel::Scale => 3,
        };
        if n < value_len {
            return Err(LoadError::at_line(
                line,
                format!("*{name}: expected {value_len} numbers after the tick, found {n}"),
            ));
        }
        let mut k = RawKey { tick, line: line as u32, ..RawKey::default() };
        k.value = Vec4::new(nums[0], nums[1], nums[2], if channel == Channel::Rot { nums[3] } else { 0.0 });
        let mut rest = &nums[value_len..n];
        // Scale keys carry the scale axis (axis + angle) after the factors, unless the extras alone fit.
        let extras = match kind {
            TrackKind::Tcb => 5,
            TrackKind::Bezier => 7,
            _ => 0,
        };
        if channel == Channel::Scale && rest.len() >= 4 && rest.len() != extras {
            k.scale_axis = Vec4::new(rest[0], rest[1], rest[2], rest[3]);
            rest = &rest[4..];
        }
        match kind {
            TrackKind::Tcb => {
                for (slot, v) in k.tcb.iter_mut().zip(rest) {
                    *slot = *v;
                }
            }
            TrackKind::Bezier if rest.len() >= 6 => {
                k.tangents = Some((Vec3::new(rest[0], rest[1], rest[2]), Vec3::new(rest[3], rest[4], rest[5])));
            }
            _ => {}
        }
        track.keys.push(k);
        Ok(true)
    })?;
    Ok(track)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file with the things whose order the parallel read must keep: warnings between objects, objects in a
    /// group, a target camera (two records from one block), numbers written as NaN inside and outside objects.
    fn mixed_file(objects: usize) -> String {
        let mut s = String::from("*3DSMAX_ASCIIEXPORT 200\n*COMMENT \"x { y\"\n*SCENE {\n*SCENE_FIRSTFRAME 0\n}\n");
        for o in 0..objects {
            if o % 3 == 1 {
                s += "}\n"; // a stray brace: a top-level warning between objects
            }
            let open_group = o % 4 == 2;
            if open_group {
                s += "*GROUP \"g\" {\n";
            }
            s += &format!("*GEOMOBJECT {{\n*NODE_NAME \"obj{o}\"\n*NODE_TM {{\n*NODE_NAME \"obj{o}\"\n");
            s += "*TM_ROW0 1 0 0\n*TM_ROW1 0 1 0\n*TM_ROW2 0 0 1\n*TM_ROW3 0 0 0\n}\n";
            s += "*MESH {\n*MESH_NUMVERTEX 3\n*MESH_NUMFACES 1\n*MESH_VERTEX_LIST {\n";
            let x = if o % 5 == 3 { "1.#QNAN".to_owned() } else { format!("{o}.5") };
            s += &format!("*MESH_VERTEX 0 {x} 0 0\n*MESH_VERTEX 1 1 0 0\n*MESH_VERTEX 2 0 1 0\n}}\n");
            s += "*MESH_FACE_LIST {\n*MESH_FACE 0: A: 0 B: 1 C: 2 AB: 1 BC: 1 CA: 1 *MESH_SMOOTHING 1 *MESH_MTLID 0\n}\n";
            s += "}\n*UNKNOWN_THING { a { b } }\n}\n";
            if open_group {
                s += "}\n";
            }
        }
        s += "*HELPEROBJECT {\n*NODE_NAME \"helper\"\n}\n";
        s += "*CAMERAOBJECT {\n*NODE_NAME \"cam\"\n*NODE_TM {\n*NODE_NAME \"cam\"\n}\n*NODE_TM {\n*NODE_NAME \"cam.Target\"\n}\n}\n";
        s += "*MATERIAL_LIST {\n*MATERIAL_COUNT 0\n}\n*SCENE_AMBIENT_STATIC 1.#INF 0 0\n";
        s
    }

    #[test]
    fn the_parallel_read_gives_exactly_the_sequential_result() {
        for objects in [1, 2, 7, 40] {
            let text = mixed_file(objects);
            let sequential = parse_with(text.as_bytes(), None).unwrap();
            for threads in [2, 3, 8] {
                let parallel = parse_parallel(text.as_bytes(), threads).expect("parallel read");
                assert_eq!(format!("{parallel:?}"), format!("{sequential:?}"), "{objects} objects, {threads} threads");
            }
            if objects >= 7 {
                // The fixture does exercise what it is meant to.
                let messages: Vec<&str> = sequential.warnings.iter().map(|w| w.message.as_str()).collect();
                assert!(messages.iter().any(|m| m.contains("NaN")), "{messages:?}");
                assert!(messages.iter().any(|m| m.contains("'}'")), "{messages:?}");
            }
        }
    }

    #[test]
    fn an_error_anywhere_falls_back_to_the_sequential_error() {
        let good = mixed_file(6);
        // Inside an object (a worker's), and at the top level after the objects.
        let in_object = good.replacen("*MESH_NUMVERTEX 3", "*MESH_NUMVERTEX x", 4);
        let truncated = &good[..good.find("*CAMERAOBJECT").unwrap() + 30];
        for (what, text) in [("in an object", in_object.as_str()), ("truncated", truncated)] {
            assert!(parse_with(text.as_bytes(), None).is_err(), "{what}: the fixture must fail");
            assert!(parse_parallel(text.as_bytes(), 2).is_none(), "{what}");
            let e = parse(text.as_bytes()).unwrap_err();
            assert_eq!(e.to_string(), parse_with(text.as_bytes(), None).unwrap_err().to_string());
        }
    }

    #[test]
    fn the_corpus_mocap_reads_the_same_both_ways() {
        let Some(dir) = std::env::var_os("BONESCOPE_CORPUS") else { return };
        let path = std::path::Path::new(&dir).join("ase/MotionCaptureROM.ase");
        let bytes = std::fs::read(&path).unwrap();
        let text = crate::io::text::decode_text(&bytes);
        let sequential = parse_with(&text, None).unwrap();
        let parallel = parse_parallel(&text, 2).unwrap();
        assert_eq!(parallel.nodes.len(), 31);
        assert_eq!(format!("{parallel:?}"), format!("{sequential:?}"));
    }
}
