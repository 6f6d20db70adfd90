//! The SMD/VTA hot path: a line reader that skips blank and `//` comment lines, and a field cursor that parses
//! integers and floats straight from the bytes of a line without building token slices first.
//!
//! Everything here works on borrowed bytes and never allocates. Numbers are read with the shared parsers of
//! [`text`] (correctly rounded floats, with a fast path for what exporters write); a number ends at whitespace.

use super::super::text;

/// Lines of an SMD/VTA text with their 1-based numbers; content lines come back trimmed and without comments.
pub(super) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    line: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(data: &'a [u8]) -> Self {
        Self { data, pos: 0, line: 0 }
    }

    /// Number of the line returned last (0 before the first).
    pub(super) fn line(&self) -> usize {
        self.line
    }

    /// Byte offset of the next line.
    pub(super) fn position(&self) -> usize {
        self.pos
    }

    /// Bytes not read yet.
    pub(super) fn rest(&self) -> &'a [u8] {
        self.data.get(self.pos..).unwrap_or_default()
    }

    /// Moves on by `bytes` bytes holding `lines` lines (read elsewhere, e.g. by another thread).
    pub(super) fn advance(&mut self, bytes: usize, lines: usize) {
        self.pos = (self.pos + bytes).min(self.data.len());
        self.line += lines;
    }

    /// The next line that has content after removing a `//` comment and surrounding whitespace.
    #[inline]
    pub(super) fn next_content(&mut self) -> Option<&'a [u8]> {
        loop {
            let rest = self.data.get(self.pos..)?;
            if rest.is_empty() {
                return None;
            }
            // One scan finds the line's end or, first, a slash: comments are rare, so the common line costs one
            // search (a second search per line for the slash cost 3 % of a large file's load).
            let (raw, advance, slash) = match memchr::memchr2(b'\n', b'/', rest) {
                Some(at) if rest.get(at) == Some(&b'\n') => (rest.get(..at).unwrap_or_default(), at + 1, false),
                Some(at) => match memchr::memchr(b'\n', rest.get(at..).unwrap_or_default()) {
                    Some(end) => (rest.get(..at + end).unwrap_or_default(), at + end + 1, true),
                    None => (rest, rest.len(), true),
                },
                None => (rest, rest.len(), false),
            };
            self.pos += advance;
            self.line += 1;
            let line = if slash { text::strip_comment(raw, b"//") } else { raw };
            let line = trim(line);
            if !line.is_empty() {
                return Some(line);
            }
        }
    }
}

/// Trims ASCII whitespace (including a `\r` left by CRLF line ends) from both ends.
#[inline]
pub(super) fn trim(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if first.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = s {
        if last.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    s
}

/// The first whitespace-separated token of a line and the rest after it.
pub(super) fn first_token(line: &[u8]) -> (&[u8], &[u8]) {
    let end = line.iter().position(|b| b.is_ascii_whitespace()).unwrap_or(line.len());
    (line.get(..end).unwrap_or_default(), line.get(end..).unwrap_or_default())
}

/// Why a field could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FieldError {
    /// The line ended.
    Missing,
    /// A token is there but is not a number of the wanted kind.
    Bad,
}

/// Reads numbers left to right from one line.
#[derive(Clone)]
pub(super) struct Fields<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Fields<'a> {
    pub(super) fn new(s: &'a [u8]) -> Self {
        Self { s, i: 0 }
    }

    #[inline]
    fn skip_ws(&mut self) {
        while let Some(b) = self.s.get(self.i) {
            if *b == b' ' || *b == b'\t' || b.is_ascii_whitespace() {
                self.i += 1;
            } else {
                break;
            }
        }
    }

    /// True when only whitespace is left.
    #[inline]
    pub(super) fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.i >= self.s.len()
    }

    /// The token the cursor is at (for error messages), without moving.
    pub(super) fn peek_token(&mut self) -> &'a [u8] {
        self.skip_ws();
        let rest = self.s.get(self.i..).unwrap_or_default();
        let end = rest.iter().position(|b| b.is_ascii_whitespace()).unwrap_or(rest.len());
        rest.get(..end).unwrap_or_default()
    }

    /// Number of tokens left (for "found 5" messages).
    pub(super) fn count_remaining(&self) -> usize {
        text::Tokens::new(self.s.get(self.i..).unwrap_or_default()).count()
    }

    /// True when the byte at `i` ends a token.
    #[inline]
    fn ends_token(&self, i: usize) -> bool {
        self.s.get(i).is_none_or(|b| b.is_ascii_whitespace())
    }

    /// A decimal integer with optional sign.
    #[inline(always)]
    pub(super) fn int(&mut self) -> Result<i64, FieldError> {
        self.skip_ws();
        let rest = self.s.get(self.i..).unwrap_or_default();
        if rest.is_empty() {
            return Err(FieldError::Missing);
        }
        let (value, used) = text::parse_i64_prefix(rest).ok_or(FieldError::Bad)?;
        if !self.ends_token(self.i + used) {
            return Err(FieldError::Bad);
        }
        self.i += used;
        Ok(value)
    }

    /// A float (any form `fast-float2` accepts, including exponents and `inf`/`nan`: callers check finiteness).
    #[inline(always)]
    pub(super) fn float(&mut self) -> Result<f32, FieldError> {
        self.skip_ws();
        let rest = self.s.get(self.i..).unwrap_or_default();
        if rest.is_empty() {
            return Err(FieldError::Missing);
        }
        let (value, used) = text::parse_f32_prefix(rest).ok_or(FieldError::Bad)?;
        if !self.ends_token(self.i + used) {
            return Err(FieldError::Bad);
        }
        self.i += used;
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_skips_blank_and_comment_lines_and_counts_them() {
        let mut r = Reader::new(b"// head\r\n\r\n  nodes \t// c\n\tend");
        assert_eq!(r.next_content(), Some(&b"nodes"[..]));
        assert_eq!(r.line(), 3);
        assert_eq!(r.next_content(), Some(&b"end"[..]));
        assert_eq!(r.line(), 4);
        assert_eq!(r.next_content(), None);
        // A single slash is content; a comment may end the file without a line end.
        let mut r = Reader::new(b"skin/a.tga\n0 1 // c\n\"x//y\" 2\n3 // last");
        assert_eq!(r.next_content(), Some(&b"skin/a.tga"[..]));
        assert_eq!(r.next_content(), Some(&b"0 1"[..]));
        assert_eq!(r.next_content(), Some(&b"\"x//y\" 2"[..]));
        assert_eq!(r.next_content(), Some(&b"3"[..]));
        assert_eq!((r.next_content(), r.line()), (None, 4));
    }

    #[test]
    fn fields_parse_and_reject() {
        let mut f = Fields::new(b" 12\t-0.5 1e3 x 7");
        assert_eq!(f.int(), Ok(12));
        assert_eq!(f.float(), Ok(-0.5));
        assert_eq!(f.float(), Ok(1000.0));
        assert_eq!(f.peek_token(), b"x");
        assert_eq!(f.clone().float(), Err(FieldError::Bad));
        assert_eq!(f.count_remaining(), 2);
        let mut g = Fields::new(b"1.5 3");
        assert_eq!(g.int(), Err(FieldError::Bad));
        assert_eq!(g.float(), Ok(1.5));
        assert_eq!(g.int(), Ok(3));
        assert!(g.at_end());
        assert_eq!(g.float(), Err(FieldError::Missing));
    }
}
