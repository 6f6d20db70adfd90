//! ASE text → raw records ([`RawFile`]), one module per kind of block: `top_level` (header, groups, what is
//! skipped), `scene`, `materials`, `object` (node blocks), `mesh` with `faces` and `channels` (texture, colour and
//! normal lists), `skin` (weights), `animation` (`*TM_ANIMATION`, `*MESH_ANIMATION`); `lists` holds what they
//! share. Everything the loader does not read is skipped by balanced braces. Counts in the file (`*MESH_NUMVERTEX`
//! …) are checked against the bytes that remain before anything is allocated from them. Turning the records into
//! the scene model is `build`'s job.
//!
//! Files of a megabyte or more have their object blocks parsed on all cores (rayon), with the same result as the
//! sequential read (see [`parse`]).

mod animation;
mod channels;
mod faces;
mod lists;
mod materials;
mod mesh;
mod object;
mod scene;
mod skin;
mod top_level;

use rayon::prelude::*;

use super::lexer::Lexer;
use super::records::{NodeKind, RawFile, RawNode};
use crate::io::LoadError;
use crate::scene::Warning;

/// Files at least this large have their object blocks parsed on all cores (see [`parse`]).
const PARALLEL_FROM: usize = 1 << 20;

/// An object block the top-level read skipped: where its `*KEYWORD` ended and on which line, and where in the
/// sequential order its nodes and warnings belong.
#[derive(Clone, Copy)]
struct Deferred {
    kind: NodeKind,
    pos: usize,
    line: usize,
    nodes_at: usize,
    warnings_at: usize,
}

/// What parsing one deferred object block gave.
struct ObjectPart {
    nodes: Vec<RawNode>,
    warnings: Vec<Warning>,
    non_finite: usize,
    first_non_finite_line: usize,
}

/// Parses a whole (already decoded) ASE text.
///
/// A large file is mostly independent `*GEOMOBJECT` blocks. With more than one core, the top level is read first
/// with each object block skipped by braces (fast: `memchr` from brace to brace), then the blocks are parsed on
/// all cores (an ordered `par_iter`) and their nodes and warnings merged back where a sequential read would have
/// put them, so the result is the same. Any error sends the file through the sequential read instead, which
/// reports the first error in file order.
pub(super) fn parse(data: &[u8]) -> Result<RawFile, LoadError> {
    if data.len() >= PARALLEL_FROM
        && rayon::current_num_threads() > 1
        && let Some(file) = parse_parallel(data)
    {
        return Ok(file);
    }
    top_level::read(data, None)
}

/// The parallel read of [`parse`]; `None` when anything failed (the caller then reads sequentially).
fn parse_parallel(data: &[u8]) -> Option<RawFile> {
    let mut jobs = Vec::new();
    let top = top_level::read(data, Some(&mut jobs)).ok()?;
    let parts: Vec<Result<ObjectPart, LoadError>> = jobs.par_iter().map(|job| parse_object_at(data, job)).collect();
    let parts: Vec<ObjectPart> = parts.into_iter().collect::<Result<_, _>>().ok()?;
    Some(merge(top, &jobs, parts))
}

fn parse_object_at(data: &[u8], job: &Deferred) -> Result<ObjectPart, LoadError> {
    let mut lx = Lexer::at(data, job.pos, job.line);
    let mut part = RawFile::default();
    object::parse_object(&mut lx, &mut part, job.kind)?;
    Ok(ObjectPart {
        nodes: part.nodes,
        warnings: part.warnings,
        non_finite: lx.non_finite,
        first_non_finite_line: lx.first_non_finite_line,
    })
}

/// Puts the objects' nodes and warnings between the top level's, where the sequential read would have made them
/// (one pass: the insertion points ascend), and folds the NaN counts of all parts into one warning.
fn merge(mut top: RawFile, jobs: &[Deferred], parts: Vec<ObjectPart>) -> RawFile {
    let node_count = top.nodes.len() + parts.iter().map(|p| p.nodes.len()).sum::<usize>();
    let warning_count = top.warnings.len() + parts.iter().map(|p| p.warnings.len()).sum::<usize>();
    let mut nodes = Vec::with_capacity(node_count);
    let mut warnings = Vec::with_capacity(warning_count + 1);
    let mut top_nodes = std::mem::take(&mut top.nodes).into_iter();
    let mut top_warnings = std::mem::take(&mut top.warnings).into_iter();
    let (mut nodes_taken, mut warnings_taken) = (0, 0);
    let mut non_finite = 0;
    let mut first_line = usize::MAX;
    for (job, part) in jobs.iter().zip(parts) {
        nodes.extend(top_nodes.by_ref().take(job.nodes_at - nodes_taken));
        warnings.extend(top_warnings.by_ref().take(job.warnings_at - warnings_taken));
        (nodes_taken, warnings_taken) = (job.nodes_at, job.warnings_at);
        nodes.extend(part.nodes);
        warnings.extend(part.warnings);
        if part.non_finite > 0 {
            non_finite += part.non_finite;
            first_line = first_line.min(part.first_non_finite_line);
        }
    }
    nodes.extend(top_nodes);
    warnings.extend(top_warnings);
    // The top level's own count (if any) was kept aside by the top-level read: fold both into one warning.
    let (top_count, top_line) = top.non_finite_report.take().unwrap_or((0, usize::MAX));
    if non_finite + top_count > 0 {
        lists::warn(
            &mut warnings,
            first_line.min(top_line),
            format!("{} number(s) written as NaN or infinity (e.g. 1.#QNAN) were read as 0", non_finite + top_count),
        );
    }
    top.nodes = nodes;
    top.warnings = warnings;
    top
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `f` on a pool of `threads` workers, so the parallel read is tested with more threads than the machine
    /// has cores.
    fn on_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
        pool.install(f)
    }

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
            let sequential = top_level::read(text.as_bytes(), None).unwrap();
            for threads in [2, 3, 8] {
                let parallel = on_threads(threads, || parse_parallel(text.as_bytes())).expect("parallel read");
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
            assert!(top_level::read(text.as_bytes(), None).is_err(), "{what}: the fixture must fail");
            assert!(on_threads(2, || parse_parallel(text.as_bytes())).is_none(), "{what}");
            let e = parse(text.as_bytes()).unwrap_err();
            assert_eq!(e.to_string(), top_level::read(text.as_bytes(), None).unwrap_err().to_string());
        }
    }

    #[test]
    fn the_corpus_mocap_reads_the_same_both_ways() {
        let Some(dir) = std::env::var_os("BONESCOPE_CORPUS") else { return };
        let path = std::path::Path::new(&dir).join("ase/MotionCaptureROM.ase");
        let bytes = std::fs::read(&path).unwrap();
        let text = crate::io::text::decode_text(&bytes);
        let sequential = top_level::read(&text, None).unwrap();
        let parallel = on_threads(2, || parse_parallel(&text)).unwrap();
        assert_eq!(parallel.nodes.len(), 31);
        assert_eq!(format!("{parallel:?}"), format!("{sequential:?}"));
    }
}
