//! One `*MESH_FACE` line: the three corners, the smoothing groups and the material id.

use super::super::lexer::Lexer;
use super::super::records::RawFace;
use crate::io::LoadError;

/// `*MESH_FACE 0:  A: 0 B: 1 C: 2 AB: 1 BC: 1 CA: 1  *MESH_SMOOTHING 1,2  *MESH_MTLID 0` (spaces around the
/// colons vary between exporters; the smoothing list may be empty). Scanned as one line slice: these lines are
/// most of a mesh.
pub(super) fn parse_face(lx: &mut Lexer, line: usize) -> Result<(u32, RawFace), LoadError> {
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
        let (value, used) = crate::io::text::parse_i64_prefix(rest.get(*i..)?)?;
        *i += used;
        Some(value)
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
                    .with_kind(lx.bad_value_kind())
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
        return Err(LoadError::at_line(line, format!("*MESH_FACE {index}: expected the corners A:, B: and C:"))
            .with_kind(lx.bad_value_kind()));
    }
    Ok((index, face))
}

fn smoothing_bits(list: &[u8]) -> u32 {
    list.split(|&b| b == b',')
        .filter_map(|g| crate::io::text::parse_i64(g.trim_ascii()))
        .filter(|g| (1..=32).contains(g))
        .fold(0u32, |bits, g| bits | (1 << (g - 1)))
}
