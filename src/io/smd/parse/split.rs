//! A large `triangles` block read by several threads: the block is cut at material lines into one part per
//! thread, every part is parsed and welded on its own, and the parts are appended in file order
//! (`MeshBuilder::append`), which gives the vertices, indices and materials one pass would have given.
//!
//! A cut is only a guess (a line that does not look like a vertex line), so it is checked: every part but the
//! last must end exactly at the next cut after a whole triangle, without meeting `end`, and the last must reach
//! `end`. Since the first part starts where a sequential read would, each checked part starts on a triangle too.
//! When a check fails, or any part has an error, nothing is kept and the caller reads the block sequentially,
//! so errors are reported exactly as before.

use rayon::prelude::*;

use super::super::lex::{Reader, trim};
use super::super::weld::{Corner, MeshBuilder};
use super::{Parsed, is_keyword, looks_like_vertex, parse_vertex};
use crate::scene::InfluenceReport;

/// Triangle blocks (counted from the block to the end of the file) shorter than this are read by one thread:
/// below it, starting the threads costs more than they save.
const PARALLEL_FROM: usize = 2 << 20;

/// How a `triangles` block is split.
#[derive(Clone, Copy, Debug)]
pub(super) enum Split {
    /// One part per thread of rayon's pool, for blocks of [`PARALLEL_FROM`] bytes or more.
    Auto,
    /// Always this many parts (tests: the result must not depend on it).
    #[cfg(test)]
    Parts(usize),
}

/// How far past a cut point a material line is looked for before giving the cut up.
const CUT_SEARCH_LINES: usize = 64;

/// One part's result.
struct Part {
    mesh: MeshBuilder,
    influences: InfluenceReport,
    /// Vertex lines with extra tokens: count and first line (counted from the part's start).
    extra_tokens: Option<(usize, usize)>,
    /// Bytes and lines read (for the last part: up to and including `end`).
    bytes: usize,
    lines: usize,
}

/// Reads the triangles from `r` (just after the `triangles` line) into `p` on all cores. Returns false, with `r`
/// and `p` untouched, when the block should be read sequentially instead (one core, a cut that does not hold,
/// an error anywhere).
pub(super) fn parse_triangles_parallel(r: &mut Reader<'_>, split: Split, p: &mut Parsed) -> bool {
    let data = r.rest();
    let parts = match split {
        // The size test first: asking rayon for its thread count starts its pool, and on one core (`taskset`)
        // the pool's idle worker would only take time from this thread, so the cores are counted first.
        Split::Auto if data.len() < PARALLEL_FROM => return false,
        Split::Auto if std::thread::available_parallelism().map_or(1, usize::from) < 2 => return false,
        Split::Auto => rayon::current_num_threads(),
        #[cfg(test)]
        Split::Parts(n) => n,
    };
    if parts < 2 {
        return false;
    }
    let block = block_len(data);
    let cuts = cuts(data, block, parts);
    if cuts.len() < 2 {
        return false;
    }
    let bone_map = &p.bone_map;
    let parts: Vec<Option<Part>> = (0..cuts.len())
        .into_par_iter()
        .map(|i| {
            let end = cuts.get(i + 1).copied().unwrap_or(data.len());
            // The later parts are appended to the first: its arrays are sized for the whole block, so that
            // appending copies each later part once instead of also moving the first part's arrays.
            let sized_for = if i == 0 { block } else { end - cuts[i] };
            parse_part(data.get(cuts[i]..end)?, sized_for, bone_map, i + 1 == cuts.len())
        })
        .collect();
    let Some(parts) = parts.into_iter().collect::<Option<Vec<Part>>>() else { return false };
    let mut parts = parts.into_iter();
    let Some(first) = parts.next() else { return false };
    let (mut mesh, mut influences, mut extra_tokens) = (first.mesh, first.influences, first.extra_tokens);
    let (mut bytes, mut lines) = (first.bytes, first.lines);
    let base = r.line();
    for part in parts {
        if !mesh.append(part.mesh) {
            return false;
        }
        influences.merge(&part.influences);
        if let Some((count, first)) = part.extra_tokens {
            let entry = extra_tokens.get_or_insert((0, lines + first));
            entry.0 += count;
        }
        bytes += part.bytes;
        lines += part.lines;
    }
    p.influences.merge(&influences);
    if let Some((count, first)) = extra_tokens {
        let entry = p.extra_tokens.get_or_insert((0, base + first));
        entry.0 += count;
        entry.1 = entry.1.min(base + first);
    }
    p.mesh = Some(mesh);
    r.advance(bytes, lines);
    true
}

/// Where the block probably ends, only to size the parts evenly (the parse checks every part): the start of the
/// last line that is `end`, the whole rest of the file when there is none. The `triangles` block is the last
/// block of a reference SMD, so this is its own `end`, found from the file's tail: a search from the front
/// crossed the whole block on one core before any part could start (0.9 ms of a 26 ms two-core load of a
/// 17.5 MB file). A block written after it only shifts the cuts by its length; a large one can push a cut past
/// the block's `end`, which the checks catch, and the file is then read sequentially.
fn block_len(data: &[u8]) -> usize {
    for at in memchr::memmem::rfind_iter(data, b"\nend") {
        let line_end = memchr::memchr(b'\n', data.get(at + 1..).unwrap_or_default()).map_or(data.len(), |n| at + 1 + n);
        if is_keyword(trim(data.get(at + 1..line_end).unwrap_or_default()), b"end") {
            return at + 1;
        }
    }
    data.len()
}

/// Start offsets of the parts: 0, then one material line near each `k / parts` of the block.
fn cuts(data: &[u8], block: usize, parts: usize) -> Vec<usize> {
    let mut cuts = vec![0];
    for k in 1..parts {
        let from = block * k / parts;
        if let Some(cut) = material_line_at_or_after(data, from)
            && cut > cuts.last().copied().unwrap_or(0)
            && cut < block
        {
            cuts.push(cut);
        }
    }
    cuts
}

/// The start of the first line from the line after `from` that looks like a material line: content that is
/// neither a comment, nor `end`, nor a vertex line.
fn material_line_at_or_after(data: &[u8], from: usize) -> Option<usize> {
    let mut at = from + memchr::memchr(b'\n', data.get(from..)?)? + 1;
    for _ in 0..CUT_SEARCH_LINES {
        let rest = data.get(at..)?;
        let len = memchr::memchr(b'\n', rest)?;
        let line = trim(rest.get(..len)?);
        if !line.is_empty() && !line.starts_with(b"//") && !is_keyword(line, b"end") && !looks_like_vertex(line) {
            return Some(at);
        }
        at += len + 1;
    }
    None
}

/// Parses one part: whole triangles to the end of `data` (or, for the last part, up to `end`), into a mesh whose
/// arrays are sized for `sized_for` bytes of triangles. `None` on any error or when the part does not end where
/// it should.
fn parse_part(data: &[u8], sized_for: usize, bone_map: &[u32], last: bool) -> Option<Part> {
    let mut r = Reader::new(data);
    let mut mesh = MeshBuilder::with_block_size(sized_for);
    let mut influences = InfluenceReport::default();
    let mut extra_tokens = None;
    let mut pairs: Vec<(u16, f32)> = Vec::with_capacity(8);
    let mut corners = [Corner::default(); 3];
    loop {
        let Some(line) = r.next_content() else {
            // The end of a part that is not the last one is the next cut.
            if last {
                return None;
            }
            break;
        };
        if is_keyword(line, b"end") {
            if !last {
                return None;
            }
            break;
        }
        if looks_like_vertex(line) {
            return None;
        }
        let material = mesh.material(line);
        for corner in &mut corners {
            let vline = r.next_content()?;
            if is_keyword(vline, b"end") {
                return None;
            }
            *corner = parse_vertex(vline, r.line(), bone_map, &mut pairs, &mut influences, &mut extra_tokens).ok()?;
        }
        if !mesh.triangle(material, &corners) {
            return None;
        }
    }
    Some(Part { mesh, influences, extra_tokens, bytes: r.position(), lines: r.line() })
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::super::parse_with;
    use super::*;

    /// Triangles of several materials with shared corners, Source-style links (some with tokens after them),
    /// comments and blank lines, then a second block after `end`.
    fn file(triangles: usize) -> String {
        let mut s = String::from("version 1\nnodes\n0 \"root\" -1\n1 \"arm\" 0\n2 \"hand\" 1\nend\n");
        s.push_str("skeleton\ntime 0\n0 0 0 0 0 0 0\n1 1 0 0 0 0 0\n2 1 0 0 0 0 0\nend\ntriangles\n");
        for t in 0..triangles {
            s.push_str(["skin.tga\n", "cloth.tga\n", "skin.tga\n", "eyes.bmp\n"][t % 4]);
            if t % 97 == 5 {
                s.push_str("// a comment\n\n");
            }
            for c in 0..3 {
                let x = (t + c) % 50;
                let extra = if t % 89 == 7 { " 9" } else { "" };
                let _ = writeln!(s, "{} {x}.5 {}.25 -0.000000 0 0 1 0.{c} 0.5 2 1 0.75 2 0.25{extra}", t % 3, c * 2);
            }
        }
        s.push_str("end\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n");
        s
    }

    fn compare(text: &str, parts: usize) {
        let one = parse_with(text.as_bytes(), Split::Parts(1));
        let split = parse_with(text.as_bytes(), Split::Parts(parts));
        match (one, split) {
            (Ok(mut a), Ok(mut b)) => {
                assert_eq!(a.influences, b.influences);
                assert_eq!(a.extra_tokens, b.extra_tokens);
                assert_eq!(a.last_line, b.last_line);
                assert_eq!(a.skeleton_frames.len(), b.skeleton_frames.len());
                assert_eq!(format!("{:?}", a.warnings), format!("{:?}", b.warnings));
                let (ma, ta) = a.mesh.take().map(|m| m.finish("m")).unwrap();
                let (mb, tb) = b.mesh.take().map(|m| m.finish("m")).unwrap();
                assert_eq!(
                    ta.iter().map(|m| &m.name).collect::<Vec<_>>(),
                    tb.iter().map(|m| &m.name).collect::<Vec<_>>()
                );
                assert_eq!(ma.corner_vertices, mb.corner_vertices);
                assert_eq!(ma.indices, mb.indices);
                assert_eq!(ma.subsets, mb.subsets);
                assert_eq!(ma.positions, mb.positions);
                assert_eq!(ma.normals, mb.normals);
                assert_eq!(ma.uvs, mb.uvs);
                assert_eq!(ma.joints, mb.joints);
                assert_eq!(ma.weights, mb.weights);
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            (a, b) => panic!("one read gave {:?}, the split read {:?}", a.err(), b.err()),
        }
    }

    #[test]
    fn a_split_read_gives_what_one_pass_gives() {
        let text = file(2000);
        for parts in [2, 3, 7, 64] {
            compare(&text, parts);
        }
        // The split really happened (three parts found their cuts).
        assert_eq!(cuts(text.as_bytes(), text.len(), 3).len(), 3);
    }

    #[test]
    fn the_block_end_is_found_from_the_tail() {
        let text = file(2000);
        let data = text.split_once("triangles\n").unwrap().1.as_bytes();
        let end = data.windows(5).position(|w| w == b"\nend\n").unwrap() + 1;
        // The triangles block last in the file: its own `end`.
        assert_eq!(block_len(&data[..end + 4]), end);
        // A block after it (here a short skeleton block) moves the estimate to that block's `end`, a few dozen
        // bytes on, and the cuts still fall inside the triangles.
        let estimate = block_len(data);
        assert!(estimate > end && estimate - end < 64, "{estimate} vs {end}");
        let cuts = cuts(data, estimate, 4);
        assert_eq!(cuts.len(), 4);
        assert!(cuts.iter().all(|&c| c < end), "{cuts:?}");
        // No `end` at all: the rest of the file.
        assert_eq!(block_len(&data[..end]), end);
    }

    #[test]
    fn errors_in_a_later_part_are_reported_as_one_pass_reports_them() {
        let text = file(2000);
        // A bad weight late in the block (in the third of four parts).
        let at = text.match_indices("0.75 2 0.25\n").nth(4000).map(|(at, _)| at).unwrap();
        let broken = format!("{}0.75 2 x\n{}", &text[..at], &text[at + "0.75 2 0.25\n".len()..]);
        compare(&broken, 4);
        let err = parse_with(broken.as_bytes(), Split::Parts(4)).err().unwrap().to_string();
        assert!(err.contains("weight of link 2"), "{err}");
        // A file that ends inside the block, on a whole line: the last part never meets `end`.
        let cut = &text[..text[..text.len() * 3 / 4].rfind('\n').unwrap() + 1];
        compare(cut, 3);
        let err = parse_with(cut.as_bytes(), Split::Parts(3)).err().unwrap().to_string();
        assert!(err.contains("the file ends inside the triangle"), "{err}");
    }
}
