//! Skin weights: `*MESH_WEIGHTS` (three line shapes, told apart by their number count) and the soft-skin blocks
//! (`*MESH_SOFTSKIN` inside an object, `*MESH_SOFTSKINVERTS` at the top level) that name bones by name.

use super::super::lexer::{Lexer, Token, unclosed};
use super::super::records::{BoneLookup, RawFile, RawSkin};
use super::lists::{checked_count, kw, note_bad, parse_list, parse_list_of, store, warn};
use crate::io::text::decode_name;
use crate::io::{LoadError, LoadErrorKind};
use crate::scene::Warning;

/// `*MESH_WEIGHTS { *MESH_NUMVERTEX, *MESH_NUMBONE, *MESH_BONE_LIST { *MESH_BONE_NAME i "name" },
/// *MESH_BONE_VERTEX_LIST { *MESH_BONE_VERTEX v … } }`.
///
/// A `*MESH_BONE_VERTEX` line is read in one of three shapes, told apart by how many numbers follow the vertex
/// index (R):
/// - R even: `bone weight` pairs (the common extended-exporter shape);
/// - R = 2·bones − 1 with the odd positions reading 1, 2, 3…: one weight per bone in bone order, the weight of
///   bone 0 first and then `bone weight` pairs (the shape of the textbook sample the format's description uses);
/// - otherwise, R odd and ≥ 3: the ASC shape, the vertex position (3 numbers, ignored) and then pairs.
///
/// A bone index of −1 marks an unused slot.
pub(super) fn parse_mesh_weights(
    lx: &mut Lexer,
    warnings: &mut Vec<Warning>,
    open: usize,
) -> Result<RawSkin, LoadError> {
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
                        let per_bone_shape = r % 2 == 1
                            && r + 1 == 2 * bones
                            && numbers.iter().skip(1).step_by(2).enumerate().all(|(i, &b)| b == (i + 1) as f32);
                        let first = pairs.len() as u32;
                        let list: &[f32] = if r.is_multiple_of(2) {
                            &numbers
                        } else if per_bone_shape {
                            pairs.push((0, numbers[0]));
                            &numbers[1..]
                        } else if r >= 3 {
                            &numbers[3..]
                        } else {
                            return Err(LoadError::at_line(
                                line,
                                format!("*MESH_BONE_VERTEX {vertex}: expected bone/weight pairs, found {r} number(s)"),
                            )
                            .with_kind(lx.bad_value_kind()));
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
pub(super) fn parse_soft_skin_verts(lx: &mut Lexer, file: &mut RawFile, open: usize) -> Result<(), LoadError> {
    let skins = parse_soft_skin_body(lx, open, b"MESH_SOFTSKINVERTS")?;
    file.soft_skins.extend(skins);
    Ok(())
}

/// The bare-word body of a soft-skin block: repeated `[mesh name] vertex-count` then, per vertex, a weight count
/// and that many `bone-name weight` pairs. Bone names may be quoted.
pub(super) fn parse_soft_skin_body(
    lx: &mut Lexer,
    open: usize,
    keyword: &[u8],
) -> Result<Vec<(String, RawSkin)>, LoadError> {
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
            .with_kind(LoadErrorKind::Truncated)
        })?;
        let mut skin = RawSkin { line, ..RawSkin::default() };
        let mut lookup = BoneLookup::default();
        for vertex in 0..count {
            let n = soft_int(lx, keyword)?;
            let n = usize::try_from(n).ok().filter(|&n| n <= lx.remaining() / 2).ok_or_else(|| {
                LoadError::at_line(
                    lx.line(),
                    format!("*{}: weight count {n} does not fit the rest of the file", kw(keyword)),
                )
                .with_kind(LoadErrorKind::Truncated)
            })?;
            let first = skin.pairs.len() as u32;
            for _ in 0..n {
                let (Token::Str(bone) | Token::Word(bone)) = lx.next_token() else {
                    return Err(LoadError::at_line(lx.line(), format!("*{}: expected a bone name", kw(keyword)))
                        .with_kind(lx.bad_value_kind()));
                };
                let weight = match lx.next_token() {
                    Token::Word(t) => crate::io::text::parse_f32(t),
                    _ => None,
                }
                .ok_or_else(|| {
                    LoadError::at_line(lx.line(), format!("*{}: expected a weight", kw(keyword)))
                        .with_kind(lx.bad_value_kind())
                })?;
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
    .ok_or_else(|| {
        LoadError::at_line(lx.line(), format!("*{}: expected a count", kw(keyword))).with_kind(lx.bad_value_kind())
    })
}
