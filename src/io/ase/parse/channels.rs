//! The per-corner lists of a mesh: texture vertices and their faces (main and extra map channels), colour
//! faces, and `*MESH_NORMALS`. Indices past the declared counts are reported once per list, with the line.

use glam::Vec3;

use super::super::lexer::{Lexer, Token, unclosed};
use super::super::records::{NONE, RawChannel, RawMesh};
use super::lists::{checked_count, kw, note_bad, parse_list_of, store, warn};
use super::mesh::resize_declared;
use crate::io::LoadError;
use crate::scene::Warning;

pub(super) fn parse_tverts(
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
pub(super) struct IndexTarget<'s> {
    pub count: Option<usize>,
    /// e.g. "texture vertex".
    pub what: &'s str,
    /// e.g. "MESH_NUMTVERTEX".
    pub count_keyword: &'s str,
    /// e.g. "they get UV (0, 0)".
    pub consequence: &'s str,
}

#[allow(clippy::too_many_arguments)]
pub(super) fn parse_index_faces(
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

pub(super) fn parse_mapping_channel(
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
pub(super) fn parse_normals(
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
