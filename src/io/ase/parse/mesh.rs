//! `*MESH { … }`: declared counts (checked against the bytes left before anything is sized from them), the
//! vertex and face lists, and the texture, colour, normal, extra-channel, weight and animation blocks inside it.

use glam::Vec3;

use super::super::lexer::{Lexer, Token, unclosed};
use super::super::records::{RawFace, RawMesh};
use super::lists::{checked_count, note_bad, parse_list_of, store, warn};
use super::{animation, channels, faces, skin};
use crate::io::LoadError;
use crate::scene::Warning;

#[derive(Default)]
struct Counts {
    vertex: Option<usize>,
    faces: Option<usize>,
    tvert: Option<usize>,
    cvert: Option<usize>,
}

pub(super) fn resize_declared<T: Clone>(list: &mut Vec<T>, n: usize, fill: T) {
    list.clear();
    list.resize(n, fill);
}

pub(super) fn parse_mesh(
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
                        let (i, face) = faces::parse_face(lx, line)?;
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
                    channels::parse_tverts(
                        lx,
                        &mut mesh.uv.tverts,
                        counts.tvert,
                        open,
                        &mut out_of_range,
                        &mut first_bad_line,
                    )?;
                }
                b"MESH_TFACELIST" => {
                    let open = lx.expect_open("MESH_TFACELIST")?;
                    let faces = mesh.faces.len().max(counts.faces.unwrap_or(0));
                    let target = channels::IndexTarget {
                        count: counts.tvert.or((!mesh.uv.tverts.is_empty()).then_some(mesh.uv.tverts.len())),
                        what: "texture vertex",
                        count_keyword: "MESH_NUMTVERTEX",
                        consequence: "they get UV (0, 0)",
                    };
                    channels::parse_index_faces(
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
                    let target = channels::IndexTarget {
                        count: counts.cvert.or((!mesh.cverts.is_empty()).then_some(mesh.cverts.len())),
                        what: "colour vertex",
                        count_keyword: "MESH_NUMCVERTEX",
                        consequence: "they are white",
                    };
                    channels::parse_index_faces(
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
                    channels::parse_normals(lx, &mut mesh, open, &mut out_of_range, &mut first_bad_line)?;
                }
                b"MESH_MAPPINGCHANNEL" => {
                    let channel = lx.arg_index("MESH_MAPPINGCHANNEL")?;
                    let open = lx.expect_open("MESH_MAPPINGCHANNEL")?;
                    let faces = mesh.faces.len().max(counts.faces.unwrap_or(0));
                    let ch = channels::parse_mapping_channel(
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
                    mesh.weights = Some(skin::parse_mesh_weights(lx, warnings, open)?);
                }
                b"MESH_ANIMATION" if allow_frames => {
                    let open = lx.expect_open("MESH_ANIMATION")?;
                    mesh.frames.extend(animation::parse_mesh_animation(lx, warnings, open)?);
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
