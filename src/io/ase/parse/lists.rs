//! The pieces every block reader shares: warnings with a line, declared counts checked against the bytes left,
//! storing list entries by index, and walking the entries of a list block.

use super::super::lexer::{Lexer, Token, unclosed};
use crate::io::{LoadError, LoadErrorKind};
use crate::scene::Warning;

/// The shortest text one list entry can take (`*MESH_TFACE 0 0 0 0` is 19 bytes): a declared count above
/// `remaining / MIN_ENTRY_BYTES` cannot be true.
pub(super) const MIN_ENTRY_BYTES: usize = 16;

pub(super) fn warn(warnings: &mut Vec<Warning>, line: usize, message: impl Into<String>) {
    warnings.push(Warning::new(format!("line {line}"), message));
}

pub(super) fn kw(k: &[u8]) -> String {
    String::from_utf8_lossy(k).into_owned()
}

/// A declared count, checked against the rest of the file before anything is sized from it.
pub(super) fn checked_count(lx: &mut Lexer, keyword: &str) -> Result<usize, LoadError> {
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
        )
        .with_kind(LoadErrorKind::Truncated)),
        Err(_) => Err(LoadError::at_line(line, format!("*{keyword} {n} is negative"))),
    }
}

/// Stores `value` at `index` of a list whose length was declared (or grows in order when it was not).
pub(super) fn store<T: Clone>(
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

pub(super) fn note_bad(count: &mut usize, first_line: &mut usize, line: usize) {
    if *count == 0 {
        *first_line = line;
    }
    *count += 1;
}

/// Runs `entry` for every keyword entry of a list block; entries it does not take (returns false) are skipped.
pub(super) fn parse_list<'a>(
    lx: &mut Lexer<'a>,
    keyword: &[u8],
    open: usize,
    entry: impl FnMut(&mut Lexer<'a>, &'a [u8], usize) -> Result<bool, LoadError>,
) -> Result<(), LoadError> {
    parse_list_of(lx, keyword, open, None, entry)
}

/// [`parse_list`] for the long lists of a mesh, whose entries are almost all `usual` (e.g. `MESH_VERTEX`): that
/// keyword is recognised by comparing the bytes in place, without scanning it as a word first.
pub(super) fn parse_list_of<'a>(
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
