//! `*MATERIAL_LIST`: materials with their colours, two-sidedness, diffuse map and (nested) sub-materials.

use super::super::lexer::{Lexer, Token, unclosed};
use super::super::records::{RawFile, RawMap, RawMaterial};
use super::lists::warn;
use crate::io::LoadError;
use crate::io::text::decode_name;
use crate::scene::Warning;

/// Nesting limit for sub-materials, so a hostile file cannot exhaust the stack.
const MAX_DEPTH: usize = 32;

pub(super) fn parse_material_list(lx: &mut Lexer, file: &mut RawFile) -> Result<(), LoadError> {
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
