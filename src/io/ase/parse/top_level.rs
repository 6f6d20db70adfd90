//! The file's top level: the header, `*SCENE`, `*MATERIAL_LIST`, object blocks (parsed in place, or skipped by
//! braces and listed for the parallel read), `*GROUP`s (opened) and top-level soft-skin weights; anything else is
//! skipped and counted for one warning.

use super::super::lexer::{Lexer, Token, unclosed};
use super::super::records::{NodeKind, RawFile};
use super::lists::{kw, warn};
use super::object::parse_object;
use super::{Deferred, materials, scene, skin};
use crate::io::text::decode_name;
use crate::io::{LoadError, LoadErrorKind};

/// Nesting limit for `*GROUP`s, so a hostile file cannot exhaust the stack.
const MAX_DEPTH: usize = 32;
/// `*COMMENT` lines kept (exporters sign in the first one; a hostile file cannot make the list grow).
const MAX_COMMENTS: usize = 8;

/// The sequential read; with `deferred` set, object blocks are skipped and listed there instead of parsed.
pub(super) fn read(data: &[u8], mut deferred: Option<&mut Vec<Deferred>>) -> Result<RawFile, LoadError> {
    let mut lx = Lexer::new(data);
    let mut file = RawFile::default();
    match lx.peek_token() {
        Token::End => {
            return Err(LoadError::whole_file("the file is empty: no ASE data").with_kind(LoadErrorKind::NotThisFormat));
        }
        Token::Keyword(k) if k.eq_ignore_ascii_case(b"3DSMAX_ASCIIEXPORT") => {}
        Token::Keyword(_) => {
            warn(&mut file.warnings, lx.line(), "the file does not start with *3DSMAX_ASCIIEXPORT; read as ASE anyway")
        }
        _ => {
            return Err(LoadError::at_line(
                lx.line(),
                "not an ASE file: expected *3DSMAX_ASCIIEXPORT (or another *KEYWORD) at the start",
            )
            .with_kind(LoadErrorKind::NotThisFormat));
        }
    }
    parse_items(&mut lx, &mut file, None, 0, deferred.as_deref_mut())?;
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
fn object(
    lx: &mut Lexer,
    file: &mut RawFile,
    kind: NodeKind,
    deferred: Option<&mut Vec<Deferred>>,
) -> Result<(), LoadError> {
    let Some(jobs) = deferred else { return parse_object(lx, file, kind) };
    jobs.push(Deferred {
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
pub(super) fn block_keyword(kind: NodeKind) -> &'static str {
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
    mut deferred: Option<&mut Vec<Deferred>>,
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
                b"3DSMAX_ASCIIEXPORT" => {
                    if file.header.version.is_none() {
                        file.header.version = lx.inline_word().map(decode_name);
                    }
                    lx.skip_entry(k)?;
                }
                b"COMMENT" => {
                    if let Some(comment) = lx.inline_word()
                        && file.header.comments.len() < MAX_COMMENTS
                    {
                        file.header.comments.push(decode_name(comment));
                    }
                    lx.skip_entry(k)?;
                }
                b"SCENE" => {
                    lx.expect_open("SCENE")?;
                    file.scene = scene::parse_scene(lx)?;
                }
                b"MATERIAL_LIST" => {
                    lx.expect_open("MATERIAL_LIST")?;
                    materials::parse_material_list(lx, file)?;
                }
                b"GEOMOBJECT" => object(lx, file, NodeKind::Geometry, deferred.as_deref_mut())?,
                b"HELPEROBJECT" => object(lx, file, NodeKind::Helper, deferred.as_deref_mut())?,
                b"CAMERAOBJECT" => object(lx, file, NodeKind::Camera, deferred.as_deref_mut())?,
                b"LIGHTOBJECT" => object(lx, file, NodeKind::Light, deferred.as_deref_mut())?,
                b"SHAPEOBJECT" => object(lx, file, NodeKind::Shape, deferred.as_deref_mut())?,
                b"GROUP" => {
                    lx.inline_word();
                    let open = lx.expect_open("GROUP")?;
                    if depth >= MAX_DEPTH {
                        warn(&mut file.warnings, line, format!("*GROUP nested deeper than {MAX_DEPTH} levels skipped"));
                        lx.skip_block(b"GROUP", open)?;
                    } else {
                        parse_items(lx, file, Some(open), depth + 1, deferred.as_deref_mut())?;
                    }
                }
                b"MESH_SOFTSKINVERTS" => {
                    let open = lx.expect_open("MESH_SOFTSKINVERTS")?;
                    skin::parse_soft_skin_verts(lx, file, open)?;
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
