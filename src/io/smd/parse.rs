//! Reading the blocks of an SMD/VTA file (`version`, `nodes`, `skeleton`, `triangles`, `vertexanimation`) into
//! plain tables: bones in parent-first order, skeleton frames, welded triangles, vertex-animation frames.
//!
//! The file carries no counts, so everything grows as it is read; every error names the line and what was
//! expected there. Turning the tables into scene types (skeleton, clip, morph targets) is `build`'s job.

use std::ops::Range;

mod split;

use super::lex::{FieldError, Fields, Reader, first_token, trim};
use super::weld::{Corner, MeshBuilder};
use crate::io::text::{self, decode_name, parse_i64};
use crate::io::{LoadError, LoadErrorKind};
use crate::scene::{InfluenceReport, Position, Warning, parent_first_order, reduce_influences};

/// Bone indices are stored as u16 in render vertices.
const MAX_BONE_INDEX: i64 = u16::MAX as i64;

/// One `time` block of the skeleton or of the vertex animation.
#[derive(Clone, Debug)]
pub(super) struct Frame {
    pub number: i64,
    pub line: usize,
    /// The comment after `#` on the `time` line (VTA flex names), if any.
    pub name: Option<String>,
    /// Its lines in the matching entry table.
    pub entries: Range<usize>,
}

/// A skeleton line: bone (skeleton index), position, Euler rotation.
#[derive(Clone, Copy, Debug)]
pub(super) struct BoneEntry {
    pub bone: u32,
    pub values: [f32; 6],
}

/// A vertex-animation line: vertex index, position, normal.
#[derive(Clone, Copy, Debug)]
pub(super) struct VertexEntry {
    pub index: u32,
    pub values: [f32; 6],
}

/// What the blocks contain.
#[derive(Default)]
pub(super) struct Parsed {
    /// Bone names, parents and file indices in skeleton (parent-first) order.
    pub names: Vec<String>,
    pub parents: Vec<Option<usize>>,
    /// File bone index → skeleton index (`u32::MAX` for indices the `nodes` block does not define).
    pub bone_map: Vec<u32>,
    pub has_nodes: bool,
    pub skeleton_frames: Vec<Frame>,
    pub bone_entries: Vec<BoneEntry>,
    pub mesh: Option<MeshBuilder>,
    pub influences: InfluenceReport,
    pub vertex_frames: Vec<Frame>,
    pub vertex_entries: Vec<VertexEntry>,
    pub warnings: Vec<Warning>,
    /// Line of the last line read (for errors about the file as a whole).
    pub last_line: usize,
    /// Vertex lines with tokens after their bone links (ignored).
    extra_tokens: Option<(usize, usize)>,
}

fn err(line: usize, message: impl Into<String>) -> LoadError {
    LoadError::at_line(line.max(1), message)
}

fn show(token: &[u8]) -> String {
    const MAX: usize = 40;
    let t = String::from_utf8_lossy(token.get(..token.len().min(MAX)).unwrap_or_default()).into_owned();
    if token.len() > MAX { format!("{t}…") } else { t }
}

fn is_keyword(line: &[u8], keyword: &[u8]) -> bool {
    line.eq_ignore_ascii_case(keyword)
}

/// Parses a whole SMD or VTA file.
pub(super) fn parse(bytes: &[u8]) -> Result<Parsed, LoadError> {
    parse_with(bytes, split::Split::Auto)
}

/// [`parse`], with the way a `triangles` block is split between threads chosen.
fn parse_with(bytes: &[u8], split: split::Split) -> Result<Parsed, LoadError> {
    let mut r = Reader::new(bytes);
    let mut p = Parsed::default();
    let mut saw_version = false;
    let mut saw_block = false;
    while let Some(line) = r.next_content() {
        let line_no = r.line();
        let (keyword, rest) = first_token(line);
        if keyword.eq_ignore_ascii_case(b"version") {
            if saw_version || saw_block {
                p.warnings.push(Warning::new(Position::Line(line_no), "a second `version` line, ignored"));
                continue;
            }
            saw_version = true;
            match parse_i64(trim(rest)) {
                Some(1) => {}
                Some(v) => p.warnings.push(Warning::new(
                    Position::Line(line_no),
                    format!("version {v}: only version 1 is known; reading it as version 1"),
                )),
                None => {
                    return Err(err(
                        line_no,
                        format!("expected a version number after `version`, found `{}`", show(trim(rest))),
                    ));
                }
            }
            continue;
        }
        if !saw_version && !saw_block {
            p.warnings.push(Warning::new(Position::Line(line_no), "no `version 1` line at the start of the file"));
        }
        saw_block = true;
        if keyword.eq_ignore_ascii_case(b"nodes") {
            if p.has_nodes {
                return Err(err(line_no, "a second `nodes` block: the bones must be declared once"));
            }
            parse_nodes(&mut r, line_no, &mut p)?;
        } else if keyword.eq_ignore_ascii_case(b"skeleton") {
            require_nodes(&p, line_no, "skeleton")?;
            parse_skeleton(&mut r, line_no, &mut p)?;
        } else if keyword.eq_ignore_ascii_case(b"triangles") {
            require_nodes(&p, line_no, "triangles")?;
            parse_triangles(&mut r, line_no, bytes.len(), split, &mut p)?;
        } else if keyword.eq_ignore_ascii_case(b"vertexanimation") {
            parse_vertex_animation(&mut r, line_no, bytes.len(), &mut p)?;
        } else if keyword.eq_ignore_ascii_case(b"end") {
            return Err(err(line_no, "`end` outside a block: there is no open block to close"));
        } else {
            return Err(err(
                line_no,
                format!(
                    "unknown block `{}`: expected `version`, `nodes`, `skeleton`, `triangles` or `vertexanimation`",
                    show(keyword)
                ),
            ));
        }
    }
    p.last_line = r.line();
    if !saw_version && !saw_block {
        return Err(err(r.line(), "the file has no SMD data: expected `version 1` and a `nodes` block")
            .with_kind(LoadErrorKind::NotThisFormat));
    }
    if !saw_block {
        return Err(err(r.line(), "the file ends after its `version` line: expected a `nodes` block")
            .with_kind(LoadErrorKind::Truncated));
    }
    if let Some((count, first)) = p.extra_tokens {
        p.warnings.push(Warning::new(
            Position::Line(first),
            format!("{count} vertex line(s) have numbers after their bone links; they were ignored"),
        ));
    }
    Ok(p)
}

fn require_nodes(p: &Parsed, line: usize, block: &str) -> Result<(), LoadError> {
    if p.has_nodes {
        Ok(())
    } else {
        Err(err(line, format!("`{block}` before `nodes`: the bones must be declared first")))
    }
}

fn unterminated(r: &Reader<'_>, block: &str, start: usize) -> LoadError {
    err(r.line(), format!("the file ends inside the `{block}` block that starts on line {start}: expected `end`"))
        .with_kind(LoadErrorKind::Truncated)
}

struct Node {
    index: u16,
    name: String,
    parent: Option<u16>,
    line: usize,
}

fn parse_nodes(r: &mut Reader<'_>, start: usize, p: &mut Parsed) -> Result<(), LoadError> {
    let mut nodes: Vec<Node> = Vec::new();
    loop {
        let Some(line) = r.next_content() else { return Err(unterminated(r, "nodes", start)) };
        let n = r.line();
        if is_keyword(line, b"end") {
            break;
        }
        let (index_token, rest) = first_token(line);
        let index = parse_i64(index_token)
            .ok_or_else(|| err(n, format!("expected a bone line `index \"name\" parent`, found `{}`", show(line))))?;
        if !(0..=MAX_BONE_INDEX).contains(&index) {
            return Err(err(n, format!("bone index {index} is out of range (0 to {MAX_BONE_INDEX})")));
        }
        let rest = trim(rest);
        let split = rest.iter().rposition(|b| b.is_ascii_whitespace());
        let (name, parent_token) = match split {
            Some(at) => (trim(rest.get(..at).unwrap_or_default()), rest.get(at + 1..).unwrap_or_default()),
            None => {
                return Err(err(
                    n,
                    format!("expected a bone name and a parent index after bone {index}, found `{}`", show(rest)),
                ));
            }
        };
        let parent = parse_i64(parent_token).ok_or_else(|| {
            err(
                n,
                format!(
                    "expected the parent index (a whole number, -1 for none) at the end of the line, found `{}`",
                    show(parent_token)
                ),
            )
        })?;
        if parent > MAX_BONE_INDEX {
            return Err(err(n, format!("parent index {parent} is out of range (0 to {MAX_BONE_INDEX}, or -1)")));
        }
        let name = name.strip_prefix(b"\"").unwrap_or(name);
        let name = name.strip_suffix(b"\"").unwrap_or(name);
        nodes.push(Node {
            index: index as u16,
            name: decode_name(name),
            parent: (parent >= 0).then_some(parent as u16),
            line: n,
        });
    }
    p.has_nodes = true;
    let nodes = drop_repeated_nodes(nodes, &mut p.warnings);
    // File index → position in `nodes`.
    let max = nodes.iter().map(|b| usize::from(b.index)).max().map_or(0, |m| m + 1);
    let mut position = vec![u32::MAX; max];
    for (i, node) in nodes.iter().enumerate() {
        position[usize::from(node.index)] = i as u32;
    }
    let mut nodes = nodes;
    let mut parent_pos: Vec<Option<usize>> = Vec::with_capacity(nodes.len());
    for node in &nodes {
        parent_pos.push(match node.parent {
            None => None,
            Some(parent) if parent == node.index => {
                return Err(err(node.line, format!("bone {} \"{}\" is its own parent", node.index, node.name)));
            }
            Some(parent) => match position.get(usize::from(parent)).copied().filter(|&q| q != u32::MAX) {
                Some(q) => Some(q as usize),
                None => {
                    return Err(err(
                        node.line,
                        format!("parent {parent} of bone {} \"{}\" is not in the `nodes` block", node.index, node.name),
                    ));
                }
            },
        });
    }
    let order = parent_first_order(&parent_pos).map_err(|i| {
        let node = &nodes[i];
        err(node.line, format!("bone {} \"{}\" is part of a parent cycle", node.index, node.name))
    })?;
    // nodes[order[k]] becomes skeleton bone k.
    let mut skeleton_of = vec![0usize; nodes.len()];
    for (k, &i) in order.iter().enumerate() {
        skeleton_of[i] = k;
    }
    p.bone_map =
        position.iter().map(|&q| if q == u32::MAX { u32::MAX } else { skeleton_of[q as usize] as u32 }).collect();
    for &i in &order {
        p.names.push(std::mem::take(&mut nodes[i].name));
        p.parents.push(parent_pos[i].map(|q| skeleton_of[q]));
    }
    Ok(())
}

/// Keeps one node per file index: the last definition, as studiomdl (Valve's and the GoldSrc-derived engines')
/// overwrites a node by index when the `nodes` block repeats it. Exporters of those engines write such blocks
/// (the repeated nodes are usually identical); a repeat that is identical is reported once for all of them, a
/// repeat that differs is reported with both lines and both definitions. The kept node stays at the position of
/// the index's first definition (skeleton order follows the file's first mention) and errors about it name the
/// line of the definition used.
fn drop_repeated_nodes(nodes: Vec<Node>, warnings: &mut Vec<Warning>) -> Vec<Node> {
    let max = nodes.iter().map(|b| usize::from(b.index)).max().map_or(0, |m| m + 1);
    let mut first_at = vec![u32::MAX; max];
    let mut kept: Vec<Node> = Vec::with_capacity(nodes.len());
    let mut identical: Vec<(u16, usize, usize)> = Vec::new();
    for node in nodes {
        let slot = &mut first_at[usize::from(node.index)];
        if *slot == u32::MAX {
            *slot = kept.len() as u32;
            kept.push(node);
            continue;
        }
        let Some(earlier) = kept.get_mut(*slot as usize) else { continue };
        if earlier.name == node.name && earlier.parent == node.parent {
            identical.push((node.index, earlier.line, node.line));
        } else {
            warnings.push(Warning::new(
                Position::Line(node.line),
                format!(
                    "bone index {} is defined twice, differently: line {} \"{}\" (parent {}), line {} \"{}\" \
                     (parent {}); the later definition is used, as studiomdl does",
                    node.index,
                    earlier.line,
                    earlier.name,
                    show_parent(earlier.parent),
                    node.line,
                    node.name,
                    show_parent(node.parent)
                ),
            ));
        }
        *earlier = node;
    }
    if let Some(&(_, _, again)) = identical.first() {
        let list: Vec<String> =
            identical.iter().map(|(index, first, again)| format!("{index} (lines {first} and {again})")).collect();
        warnings.push(Warning::new(
            Position::Line(again),
            format!(
                "the `nodes` block repeats {} bone {} with the same name and parent: {}; each is read once",
                identical.len(),
                if identical.len() == 1 { "index" } else { "indices" },
                list.join(", ")
            ),
        ));
    }
    kept
}

fn show_parent(parent: Option<u16>) -> String {
    parent.map_or_else(|| "-1".to_owned(), |p| p.to_string())
}

/// `time N` (with an optional `# name` comment) → (N, name).
fn parse_time(line: &[u8], n: usize) -> Result<Option<(i64, Option<String>)>, LoadError> {
    let (keyword, rest) = first_token(line);
    if !keyword.eq_ignore_ascii_case(b"time") {
        return Ok(None);
    }
    let (value, name) = match memchr::memchr(b'#', rest) {
        Some(at) => {
            let name = trim(rest.get(at + 1..).unwrap_or_default());
            (trim(rest.get(..at).unwrap_or_default()), (!name.is_empty()).then(|| decode_name(name)))
        }
        None => (trim(rest), None),
    };
    let number = parse_i64(value).ok_or_else(|| {
        err(n, format!("expected a frame number (a whole number) after `time`, found `{}`", show(value)))
    })?;
    Ok(Some((number, name)))
}

fn parse_skeleton(r: &mut Reader<'_>, start: usize, p: &mut Parsed) -> Result<(), LoadError> {
    loop {
        let Some(line) = r.next_content() else { return Err(unterminated(r, "skeleton", start)) };
        let n = r.line();
        if is_keyword(line, b"end") {
            break;
        }
        if let Some((number, name)) = parse_time(line, n)? {
            let at = p.bone_entries.len();
            p.skeleton_frames.push(Frame { number, line: n, name, entries: at..at });
            continue;
        }
        let Some(frame) = p.skeleton_frames.last_mut() else {
            return Err(err(n, format!("expected `time 0` before the first bone line, found `{}`", show(line))));
        };
        let mut f = Fields::new(line);
        let bone = f.int().map_err(|_| {
            err(n, format!("expected a bone line `bone x y z rx ry rz` or `time N`, found `{}`", show(line)))
        })?;
        let bone = resolve_bone(&p.bone_map, bone, n)?;
        let mut values = [0.0f32; 6];
        const WHAT: [&str; 6] = ["position x", "position y", "position z", "rotation x", "rotation y", "rotation z"];
        for (k, v) in values.iter_mut().enumerate() {
            *v = f.float().map_err(|e| match e {
                FieldError::Missing => err(
                    n,
                    format!("expected 6 numbers after the bone index (position x y z, rotation x y z), found {k}"),
                ),
                FieldError::Bad => {
                    err(n, format!("expected a number for the {}, found `{}`", WHAT[k], show(f.peek_token())))
                }
            })?;
        }
        if !f.at_end() {
            return Err(err(n, format!("expected 6 numbers after the bone index, found {}", 6 + f.count_remaining())));
        }
        if values.iter().any(|v| !v.is_finite()) {
            return Err(err(n, "the bone's position and rotation must be finite numbers"));
        }
        p.bone_entries.push(BoneEntry { bone, values });
        frame.entries.end = p.bone_entries.len();
    }
    Ok(())
}

#[inline]
fn resolve_bone(map: &[u32], bone: i64, n: usize) -> Result<u32, LoadError> {
    match usize::try_from(bone).ok().and_then(|b| map.get(b)).copied() {
        Some(s) if s != u32::MAX => Ok(s),
        _ => Err(err(n, format!("bone {bone} is not in the `nodes` block"))),
    }
}

const VERTEX_WHAT: [&str; 8] =
    ["position x", "position y", "position z", "normal x", "normal y", "normal z", "texture u", "texture v"];

/// Parses a vertex line into `corner`; `pairs` is scratch space for the bone links.
// Inlined into both triangle loops (one thread, and the parts of a split block): as a call, the corner and its
// `Result` went through memory and the load took 10 % longer.
#[inline(always)]
fn parse_vertex(
    line: &[u8],
    n: usize,
    bone_map: &[u32],
    pairs: &mut Vec<(u16, f32)>,
    influences: &mut InfluenceReport,
    extra_tokens: &mut Option<(usize, usize)>,
) -> Result<Corner, LoadError> {
    let mut f = Fields::new(line);
    let bone = f.int().map_err(|_| {
        err(n, format!("expected a vertex line starting with a bone index, found `{}`", show(f.clone().peek_token())))
    })?;
    let parent = resolve_bone(bone_map, bone, n)? as u16;
    let mut v = [0.0f32; 8];
    for k in 0..8 {
        match f.float() {
            Ok(x) => v[k] = x,
            Err(FieldError::Missing) => {
                return Err(err(
                    n,
                    format!("expected 8 numbers after the bone index (position x y z, normal x y z, u v), found {k}"),
                ));
            }
            Err(FieldError::Bad) => {
                return Err(err(
                    n,
                    format!("expected a number for the {}, found `{}`", VERTEX_WHAT[k], show(f.peek_token())),
                ));
            }
        }
    }
    if !v.iter().all(|x| x.is_finite()) {
        return Err(err(n, "the vertex position, normal and uv must be finite numbers"));
    }
    let mut corner = Corner {
        pos: [v[0], v[1], v[2]],
        normal: [v[3], v[4], v[5]],
        // SMD's v points up from the bottom of the texture; the mesh uses a top-left origin.
        uv: [v[6], 1.0 - v[7]],
        joints: [parent, 0, 0, 0],
        weights: [1.0, 0.0, 0.0, 0.0],
    };
    if f.at_end() {
        influences.vertices += 1;
        influences.max_influences = influences.max_influences.max(1);
        return Ok(corner);
    }
    // Source flavour: `links` then that many `bone weight` pairs.
    let links = f.int().map_err(|_| {
        err(
            n,
            format!(
                "expected the number of bone links (a whole number) after the uv, found `{}`",
                show(f.peek_token())
            ),
        )
    })?;
    if links < 0 {
        return Err(err(n, format!("the number of bone links is negative ({links})")));
    }
    pairs.clear();
    let mut sum = 0.0f32;
    for j in 0..links {
        let missing = |f: &Fields<'_>| {
            err(
                n,
                format!(
                    "expected {links} bone/weight pairs after the links count, found {j} and {} more number(s)",
                    f.count_remaining()
                ),
            )
        };
        let b = match f.int() {
            Ok(b) => b,
            Err(FieldError::Missing) => return Err(missing(&f)),
            Err(FieldError::Bad) => {
                return Err(err(
                    n,
                    format!("expected the bone index of link {}, found `{}`", j + 1, show(f.peek_token())),
                ));
            }
        };
        let b = resolve_bone(bone_map, b, n)? as u16;
        let w = match f.float() {
            Ok(w) => w,
            Err(FieldError::Missing) => return Err(missing(&f)),
            Err(FieldError::Bad) => {
                return Err(err(n, format!("expected the weight of link {}, found `{}`", j + 1, show(f.peek_token()))));
            }
        };
        if w.is_finite() && w > 0.0 {
            sum += w;
        }
        pairs.push((b, w));
    }
    if !f.at_end() {
        let (count, first) = extra_tokens.get_or_insert((0, n));
        *count += 1;
        *first = (*first).min(n);
    }
    if links == 0 {
        influences.vertices += 1;
        influences.max_influences = influences.max_influences.max(1);
        return Ok(corner);
    }
    // Weights that fall short of 1 leave the rest to the parent bone.
    if sum < 1.0 - 1e-4 {
        pairs.push((parent, 1.0 - sum));
    }
    let reduced = reduce_influences(pairs, parent, influences);
    corner.joints = reduced.joints;
    corner.weights = reduced.weights;
    Ok(corner)
}

fn parse_triangles(
    r: &mut Reader<'_>,
    start: usize,
    file_len: usize,
    split: split::Split,
    p: &mut Parsed,
) -> Result<(), LoadError> {
    if p.mesh.is_none() && split::parse_triangles_parallel(r, split, p) {
        return Ok(());
    }
    let mut mesh = p.mesh.take().unwrap_or_else(|| MeshBuilder::with_block_size(file_len));
    let mut pairs: Vec<(u16, f32)> = Vec::with_capacity(8);
    let mut corners = [Corner::default(); 3];
    loop {
        let Some(line) = r.next_content() else { return Err(unterminated(r, "triangles", start)) };
        let material_line = r.line();
        if is_keyword(line, b"end") {
            break;
        }
        if looks_like_vertex(line) {
            return Err(err(
                material_line,
                "expected a material name, found a vertex line (each triangle is a material line and 3 vertex lines)",
            ));
        }
        let material = mesh.material(line);
        for (k, corner) in corners.iter_mut().enumerate() {
            let Some(vline) = r.next_content() else {
                return Err(err(
                    r.line(),
                    format!(
                        "the file ends inside the triangle whose material is on line {material_line}: expected 3 vertex lines, found {k}"
                    ),
                )
                .with_kind(LoadErrorKind::Truncated));
            };
            let n = r.line();
            if is_keyword(vline, b"end") {
                return Err(err(
                    n,
                    format!(
                        "`end` inside the triangle whose material is on line {material_line}: expected 3 vertex lines, found {k}"
                    ),
                ));
            }
            *corner = parse_vertex(vline, n, &p.bone_map, &mut pairs, &mut p.influences, &mut p.extra_tokens)?;
        }
        if !mesh.triangle(material, &corners) {
            return Err(err(material_line, "too many vertices for one mesh (more than 4 294 967 295)")
                .with_kind(LoadErrorKind::Unsupported));
        }
    }
    p.mesh = Some(mesh);
    Ok(())
}

/// A material line that is really a vertex line: a number followed by at least 8 more numbers.
fn looks_like_vertex(line: &[u8]) -> bool {
    matches!(line.first(), Some(b'0'..=b'9' | b'-'))
        && text::Tokens::new(line).take(9).filter(|t| text::parse_f32(t).is_some()).count() == 9
}

fn parse_vertex_animation(r: &mut Reader<'_>, start: usize, file_len: usize, p: &mut Parsed) -> Result<(), LoadError> {
    loop {
        let Some(line) = r.next_content() else { return Err(unterminated(r, "vertexanimation", start)) };
        let n = r.line();
        if is_keyword(line, b"end") {
            break;
        }
        if let Some((number, name)) = parse_time(line, n)? {
            let at = p.vertex_entries.len();
            p.vertex_frames.push(Frame { number, line: n, name, entries: at..at });
            continue;
        }
        let Some(frame) = p.vertex_frames.last_mut() else {
            return Err(err(n, format!("expected `time 0` before the first vertex line, found `{}`", show(line))));
        };
        let mut f = Fields::new(line);
        let index = f.int().map_err(|_| {
            err(n, format!("expected a vertex line `index x y z nx ny nz` or `time N`, found `{}`", show(line)))
        })?;
        // A vertex index cannot exceed the number of lines the file could hold.
        let index = u32::try_from(index)
            .ok()
            .filter(|&i| (i as usize) < file_len)
            .ok_or_else(|| err(n, format!("vertex index {index} is out of range for a file of {file_len} bytes")))?;
        let mut values = [0.0f32; 6];
        const WHAT: [&str; 6] = ["position x", "position y", "position z", "normal x", "normal y", "normal z"];
        for (k, v) in values.iter_mut().enumerate() {
            *v = f.float().map_err(|e| match e {
                FieldError::Missing => err(
                    n,
                    format!("expected 6 numbers after the vertex index (position x y z, normal x y z), found {k}"),
                ),
                FieldError::Bad => {
                    err(n, format!("expected a number for the {}, found `{}`", WHAT[k], show(f.peek_token())))
                }
            })?;
        }
        if values.iter().any(|v| !v.is_finite()) {
            return Err(err(n, "the vertex position and normal must be finite numbers"));
        }
        p.vertex_entries.push(VertexEntry { index, values });
        frame.entries.end = p.vertex_entries.len();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_order_nodes_are_reordered_parent_first() {
        let order = parent_first_order(&[Some(2), None, Some(1)]).unwrap();
        assert_eq!(order, vec![1, 2, 0]);
        assert_eq!(parent_first_order(&[Some(1), Some(0)]), Err(0));
    }

    #[test]
    fn time_lines_carry_names() {
        assert_eq!(parse_time(b"time 3 # Smile wide", 1).unwrap(), Some((3, Some("Smile wide".into()))));
        assert_eq!(parse_time(b"time 0", 1).unwrap(), Some((0, None)));
        assert_eq!(parse_time(b"0 1 2", 1).unwrap(), None);
        assert!(parse_time(b"time x", 7).unwrap_err().to_string().starts_with("line 7:"));
    }
}
