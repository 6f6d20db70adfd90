//! The byte-based tokenizer shared by the text loaders (SMD/VTA, ASE).
//!
//! Works on `&[u8]` without allocating per line or token: lines end at `\n` (a `\r` before it is dropped, a
//! missing final newline is fine), tokens are separated by ASCII whitespace, a `"quoted string"` is one token
//! (quotes removed), numbers parse with `fast-float2`. Line numbers are 1-based, for error messages.

use std::borrow::Cow;

/// Lines of a text buffer with their 1-based numbers.
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    data: &'a [u8],
    pos: usize,
    line: usize,
}

impl<'a> Lines<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, pos: 0, line: 0 }
    }

    /// Number of the line returned last (0 before the first).
    pub fn line_number(&self) -> usize {
        self.line
    }

    /// Byte offset of the start of the next line.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// The unread rest of the buffer.
    pub fn rest(&self) -> &'a [u8] {
        self.data.get(self.pos..).unwrap_or_default()
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.data.get(self.pos..)?;
        if rest.is_empty() {
            return None;
        }
        let (mut line, advance) = match memchr::memchr(b'\n', rest) {
            Some(end) => (&rest[..end], end + 1),
            None => (rest, rest.len()),
        };
        if let [head @ .., b'\r'] = line {
            line = head;
        }
        self.pos += advance;
        self.line += 1;
        Some((self.line, line))
    }
}

/// Whitespace-separated tokens of one line (or any slice).
#[derive(Clone, Debug)]
pub struct Tokens<'a> {
    rest: &'a [u8],
}

impl<'a> Tokens<'a> {
    pub fn new(text: &'a [u8]) -> Self {
        Self { rest: text }
    }

    /// The part not yet tokenized.
    pub fn rest(&self) -> &'a [u8] {
        self.rest
    }

    /// Next token; a quoted string comes back without its quotes (an unterminated one runs to the end).
    pub fn next_token(&mut self) -> Option<&'a [u8]> {
        let start = self.rest.iter().position(|b| !b.is_ascii_whitespace())?;
        let rest = &self.rest[start..];
        if rest[0] == b'"' {
            let body = &rest[1..];
            let end = memchr::memchr(b'"', body).unwrap_or(body.len());
            self.rest = body.get(end + 1..).unwrap_or_default();
            return Some(&body[..end]);
        }
        let end = rest.iter().position(|b| b.is_ascii_whitespace()).unwrap_or(rest.len());
        self.rest = &rest[end..];
        Some(&rest[..end])
    }

    pub fn next_f32(&mut self) -> Option<f32> {
        self.next_token().and_then(parse_f32)
    }

    pub fn next_i64(&mut self) -> Option<i64> {
        self.next_token().and_then(parse_i64)
    }

    /// Reads `N` floats; `None` if a token is missing or not a number.
    pub fn next_f32s<const N: usize>(&mut self) -> Option<[f32; N]> {
        let mut out = [0.0; N];
        for v in &mut out {
            *v = self.next_f32()?;
        }
        Some(out)
    }

    /// Counts the remaining tokens (for "expected 9 numbers, found 5" messages).
    pub fn count_remaining(&self) -> usize {
        self.clone().count()
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<Self::Item> {
        self.next_token()
    }
}

/// Parses a whole token as f32 (also accepts what C's printf writes for infinities and NaN: the loaders decide
/// whether those are acceptable).
pub fn parse_f32(token: &[u8]) -> Option<f32> {
    fast_float2::parse(token).ok()
}

/// Parses a whole token as a decimal integer with an optional sign.
pub fn parse_i64(token: &[u8]) -> Option<i64> {
    let (negative, digits) = match token {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, token),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut value: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        value = value * 10 + i64::from(d - b'0');
    }
    Some(if negative { -value } else { value })
}

/// Cuts a line at the first occurrence of `marker` (e.g. `//` in SMD, `#` in VTA time lines) outside quotes.
pub fn strip_comment<'a>(line: &'a [u8], marker: &[u8]) -> &'a [u8] {
    let mut in_quotes = false;
    for i in 0..line.len() {
        if line[i] == b'"' {
            in_quotes = !in_quotes;
        } else if !in_quotes && line[i..].starts_with(marker) {
            return &line[..i];
        }
    }
    line
}

/// Makes text loaders see UTF-8 (or ASCII) bytes: drops a UTF-8 byte-order mark and converts UTF-16 LE/BE text
/// that starts with a byte-order mark.
pub fn decode_text(bytes: &[u8]) -> Cow<'_, [u8]> {
    match bytes {
        [0xEF, 0xBB, 0xBF, rest @ ..] => Cow::Borrowed(rest),
        [0xFF, 0xFE, ..] | [0xFE, 0xFF, ..] => {
            let encoding = if bytes[0] == 0xFF { encoding_rs::UTF_16LE } else { encoding_rs::UTF_16BE };
            let (text, _) = encoding.decode_with_bom_removal(bytes);
            Cow::Owned(text.into_owned().into_bytes())
        }
        _ => Cow::Borrowed(bytes),
    }
}

/// Display form of a name from a file (invalid UTF-8 is read as Windows-1252, which is what the Windows tools
/// these formats come from wrote).
pub fn decode_name(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes).0.into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_handle_crlf_and_missing_final_newline() {
        let lines: Vec<_> = Lines::new(b"a b\r\n\r\nlast").collect();
        assert_eq!(lines, vec![(1, &b"a b"[..]), (2, &b""[..]), (3, &b"last"[..])]);
    }

    #[test]
    fn tokens_split_whitespace_and_quotes() {
        let mut t = Tokens::new(b"  12\t\"Bip01 Spine\" -1.5e2 ");
        assert_eq!(t.next_i64(), Some(12));
        assert_eq!(t.next_token(), Some(&b"Bip01 Spine"[..]));
        assert_eq!(t.next_f32(), Some(-150.0));
        assert_eq!(t.next_token(), None);
    }

    #[test]
    fn numbers_reject_garbage() {
        assert_eq!(parse_f32(b"1.5x"), None);
        assert_eq!(parse_i64(b"1.5"), None);
        assert_eq!(parse_i64(b"-"), None);
        assert_eq!(parse_i64(b"99999999999999999999"), None);
    }

    #[test]
    fn comments_are_cut_outside_quotes() {
        assert_eq!(strip_comment(b"time 1 # Smile", b"#"), b"time 1 ");
        assert_eq!(strip_comment(b"\"a//b\" 1 // c", b"//"), b"\"a//b\" 1 ");
    }

    #[test]
    fn utf16_with_bom_decodes() {
        let text: Vec<u8> =
            [0xFF, 0xFE].into_iter().chain("*SCENE {".encode_utf16().flat_map(u16::to_le_bytes)).collect();
        assert_eq!(&*decode_text(&text), b"*SCENE {");
    }
}
