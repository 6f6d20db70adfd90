//! The ASE cursor: walks the text once, byte by byte, keeping the line number for error messages.
//!
//! ASE is `*KEYWORD args…` entries, one per line, and `{ … }` blocks that belong to the keyword before them
//! (sometimes on the next line). Arguments are read from the keyword's own line only, so a missing number is
//! reported on the line it is missing from instead of silently eating the next entry. Nothing here allocates.

use crate::io::text::{parse_f32_prefix, parse_i64_prefix};
use crate::io::{LoadError, LoadErrorKind};

/// One lexical item between entries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Token<'a> {
    /// `*NAME` (the name without the asterisk).
    Keyword(&'a [u8]),
    Open,
    Close,
    /// A quoted string, without its quotes.
    Str(&'a [u8]),
    /// Anything else (a bare word or number).
    Word(&'a [u8]),
    End,
}

#[derive(Clone, Debug)]
pub(super) struct Lexer<'a> {
    data: &'a [u8],
    pos: usize,
    /// 1-based line of `pos`.
    line: usize,
    /// Numbers written as MSVC's `1.#QNAN` / `-1.#IND` / `1.#INF` (or `nan`/`inf`), read as 0.
    pub non_finite: usize,
    pub first_non_finite_line: usize,
}

/// Byte classes, looked up once per byte in the hot loops.
const INLINE_SPACE: u8 = 1;
const NEWLINE: u8 = 2;
const DELIMITER: u8 = 4;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let inline = [b' ', b'\t', b'\r', 0x0b, 0x0c];
    let mut i = 0;
    while i < inline.len() {
        t[inline[i] as usize] = INLINE_SPACE | DELIMITER;
        i += 1;
    }
    t[b'\n' as usize] = NEWLINE | DELIMITER;
    t[b'{' as usize] = DELIMITER;
    t[b'}' as usize] = DELIMITER;
    t
};

#[inline]
fn is_inline_space(b: u8) -> bool {
    CLASS[b as usize] & INLINE_SPACE != 0
}

#[inline]
fn is_delimiter(b: u8) -> bool {
    CLASS[b as usize] & DELIMITER != 0
}

impl<'a> Lexer<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, pos: 0, line: 1, non_finite: 0, first_non_finite_line: 0 }
    }

    /// A lexer over the whole text that starts at byte `pos`, which is on line `line` (for a block parsed apart
    /// from the rest: its positions and line numbers stay those of the file).
    pub fn at(data: &'a [u8], pos: usize, line: usize) -> Self {
        Self { data, pos: pos.min(data.len()), line, non_finite: 0, first_non_finite_line: 0 }
    }

    pub fn line(&self) -> usize {
        self.line
    }

    /// Byte offset of the next unread byte.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Bytes not read yet: the bound every count in the file is checked against before allocating.
    pub fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    /// Skips spaces, tabs and newlines (counting lines).
    #[inline]
    pub fn skip_space(&mut self) {
        while let Some(&b) = self.data.get(self.pos) {
            let class = CLASS[b as usize];
            if class & (INLINE_SPACE | NEWLINE) == 0 {
                break;
            }
            if class & NEWLINE != 0 {
                self.line += 1;
            }
            self.pos += 1;
        }
    }

    /// Skips spaces and tabs on the current line.
    #[inline]
    fn skip_inline_space(&mut self) {
        while let Some(&b) = self.data.get(self.pos) {
            if !is_inline_space(b) {
                break;
            }
            self.pos += 1;
        }
    }

    /// True when nothing but spaces is left on the current line.
    #[inline]
    pub fn at_line_end(&mut self) -> bool {
        self.skip_inline_space();
        matches!(self.peek(), None | Some(b'\n'))
    }

    /// Next token, crossing line ends.
    pub fn next_token(&mut self) -> Token<'a> {
        self.skip_space();
        let Some(b) = self.peek() else { return Token::End };
        match b {
            b'{' => {
                self.pos += 1;
                Token::Open
            }
            b'}' => {
                self.pos += 1;
                Token::Close
            }
            b'*' => {
                self.pos += 1;
                Token::Keyword(self.word())
            }
            b'"' => Token::Str(self.quoted()),
            _ => Token::Word(self.word()),
        }
    }

    /// Reads `*name` when it is next (followed by a delimiter or the end), as `next_token` would return it.
    #[inline]
    pub fn eat_keyword(&mut self, name: &[u8]) -> bool {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        let found = rest.first() == Some(&b'*')
            && rest.get(1..=name.len()).is_some_and(|word| same_bytes(word, name))
            && rest.get(name.len() + 1).is_none_or(|&b| is_delimiter(b));
        if found {
            self.pos += name.len() + 1;
        }
        found
    }

    /// The usual key line of an animation controller, after its keyword: a whole-number tick and exactly `N`
    /// finite numbers, separated by spaces or tabs, up to the end of the line (left unread). Anything else — more
    /// or fewer numbers, `1.#QNAN`, a `:` after the tick, a brace — gives `None` with nothing read, and the
    /// caller reads the line with the general methods, which accept or report it as they do everywhere. The same
    /// numbers as [`Self::arg_int`] and [`Self::arg_f32`] give, in one pass with no per-number checks.
    #[inline]
    pub fn key_line<const N: usize>(&mut self) -> Option<(i64, [f32; N])> {
        let data = self.data;
        let mut pos = skip_inline(data, self.pos);
        let (tick, used) = parse_i64_prefix(data.get(pos..)?)?;
        pos += used;
        let mut values = [0.0; N];
        for v in &mut values {
            let gap = skip_inline(data, pos);
            if gap == pos {
                return None;
            }
            let (x, used) = parse_f32_prefix(data.get(gap..)?)?;
            if !x.is_finite() {
                return None;
            }
            *v = x;
            pos = gap + used;
        }
        pos = skip_inline(data, pos);
        if !matches!(data.get(pos), None | Some(b'\n')) {
            return None;
        }
        self.pos = pos;
        Some((tick, values))
    }

    /// About how many entry lines the block being read has left, for sizing its arrays once: the lines up to the
    /// next `}` (a list of key lines has no braces inside), at most one per `min_line` bytes so that no crafted
    /// text makes it larger than the bytes could hold.
    pub fn lines_before_brace(&self, min_line: usize) -> usize {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        let span = &rest[..memchr::memchr(b'}', rest).unwrap_or(rest.len())];
        memchr::memchr_iter(b'\n', span).count().min(span.len() / min_line.max(1))
    }

    /// Like [`Self::next_token`] without consuming it.
    pub fn peek_token(&self) -> Token<'a> {
        self.clone().next_token()
    }

    fn word(&mut self) -> &'a [u8] {
        let start = self.pos;
        while let Some(&b) = self.data.get(self.pos) {
            if is_delimiter(b) {
                break;
            }
            self.pos += 1;
        }
        &self.data[start..self.pos]
    }

    /// Reads a `"quoted string"` starting at the quote. An unterminated string ends at the end of its line, so a
    /// stray quote cannot swallow the rest of the file.
    fn quoted(&mut self) -> &'a [u8] {
        self.pos += 1;
        let start = self.pos;
        let rest = self.data.get(start..).unwrap_or_default();
        let end = rest.iter().position(|&b| b == b'"' || b == b'\n').unwrap_or(rest.len());
        self.pos = start + end;
        if self.peek() == Some(b'"') {
            self.pos += 1;
        }
        &rest[..end]
    }

    /// The rest of the current line up to (not including) its end or a brace, which stay unread.
    pub fn rest_of_line(&mut self) -> &'a [u8] {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        let end = memchr::memchr3(b'\n', b'{', b'}', rest).unwrap_or(rest.len());
        self.pos += end;
        &rest[..end]
    }

    /// The next argument on this line: a quoted string or a bare word; `None` at the end of the line. A `{` or
    /// `}` is not an argument.
    pub fn inline_word(&mut self) -> Option<&'a [u8]> {
        self.skip_inline_space();
        match self.peek()? {
            b'\n' | b'{' | b'}' => None,
            b'"' => Some(self.quoted()),
            _ => Some(self.word()),
        }
    }

    /// A name argument (quoted or bare), or an error naming the keyword.
    pub fn arg_name(&mut self, keyword: &str) -> Result<&'a [u8], LoadError> {
        self.inline_word().ok_or_else(|| self.expected("a name", keyword, b""))
    }

    /// A decimal number argument on this line.
    #[inline(always)]
    pub fn arg_f32(&mut self, keyword: &str) -> Result<f32, LoadError> {
        // The common case stays small enough to be inlined into every list reader; the rest is out of line.
        self.skip_inline_space();
        let rest = self.data.get(self.pos..).unwrap_or_default();
        if let Some((value, used)) = parse_f32_prefix(rest)
            && value.is_finite()
            && rest.get(used).is_none_or(|&b| is_delimiter(b))
        {
            self.pos += used;
            return Ok(value);
        }
        self.arg_f32_general(keyword)
    }

    /// [`Self::arg_f32`] for what is not a finite number: NaN and infinity (read as 0 and counted), and errors.
    #[cold]
    #[inline(never)]
    fn arg_f32_general(&mut self, keyword: &str) -> Result<f32, LoadError> {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        match parse_f32_prefix(rest) {
            Some((_, used)) if rest.get(used).is_none_or(|&b| is_delimiter(b)) => {
                // Only a NaN or an infinity gets here.
                self.pos += used;
                self.note_non_finite();
                Ok(0.0)
            }
            _ => {
                // MSVC's printf writes NaN and infinity as `1.#QNAN0`, `-1.#IND00`, `1.#INF00`: read them as 0 and
                // report them once, instead of rejecting a file 3ds Max wrote.
                let token = self.clone().inline_word().unwrap_or_default();
                if memchr::memchr(b'#', token).is_some()
                    && token.first().is_some_and(|b| b.is_ascii_digit() || *b == b'-')
                {
                    self.inline_word();
                    self.note_non_finite();
                    return Ok(0.0);
                }
                Err(self.expected("a number", keyword, token))
            }
        }
    }

    fn note_non_finite(&mut self) {
        if self.non_finite == 0 {
            self.first_non_finite_line = self.line;
        }
        self.non_finite += 1;
    }

    /// Reads `N` numbers from this line.
    #[inline]
    pub fn arg_f32s<const N: usize>(&mut self, keyword: &str) -> Result<[f32; N], LoadError> {
        let mut out = [0.0; N];
        for (i, v) in out.iter_mut().enumerate() {
            *v = self.arg_f32(keyword).map_err(|e| self.count_error(e, keyword, N, i))?;
        }
        Ok(out)
    }

    fn count_error(&self, err: LoadError, keyword: &str, wanted: usize, found: usize) -> LoadError {
        if self.clone().at_line_end() {
            LoadError::at_line(self.line, format!("*{keyword}: expected {wanted} numbers, found {found}"))
                .with_kind(self.bad_value_kind())
        } else {
            err
        }
    }

    /// An integer argument on this line (a trailing `:` is accepted, as in `*MESH_FACE 12:`).
    #[inline(always)]
    pub fn arg_int(&mut self, keyword: &str) -> Result<i64, LoadError> {
        self.skip_inline_space();
        let rest = self.data.get(self.pos..).unwrap_or_default();
        if let Some((value, used)) = parse_i64_prefix(rest) {
            match rest.get(used) {
                None => {
                    self.pos += used;
                    return Ok(value);
                }
                Some(&b) if is_delimiter(b) => {
                    self.pos += used;
                    return Ok(value);
                }
                Some(b':') => {
                    self.pos += used + 1;
                    return Ok(value);
                }
                Some(_) => {}
            }
        }
        Err(self.int_error(keyword))
    }

    /// Why [`Self::arg_int`] found no whole number here.
    #[cold]
    #[inline(never)]
    fn int_error(&self, keyword: &str) -> LoadError {
        let token = self.clone().inline_word().unwrap_or_default();
        let digits = token.strip_prefix(b"-").or_else(|| token.strip_prefix(b"+")).unwrap_or(token);
        if digits.len() > 18 && digits.iter().all(u8::is_ascii_digit) {
            return LoadError::at_line(self.line, format!("*{keyword}: number too large"));
        }
        self.expected("a whole number", keyword, token)
    }

    /// An integer that must be a valid index (≥ 0 and below 2³²).
    #[inline]
    pub fn arg_index(&mut self, keyword: &str) -> Result<u32, LoadError> {
        let line = self.line;
        let v = self.arg_int(keyword)?;
        u32::try_from(v).map_err(|_| LoadError::at_line(line, format!("*{keyword}: {v} is not a valid index")))
    }

    /// An optional number: `None` at the end of the line (or when the next word is not a number, which is left
    /// unread).
    pub fn opt_f32(&mut self) -> Option<f32> {
        if self.at_line_end() {
            return None;
        }
        let mut probe = self.clone();
        let v = probe.arg_f32("").ok()?;
        *self = probe;
        Some(v)
    }

    fn expected(&self, what: &str, keyword: &str, token: &[u8]) -> LoadError {
        let found = if token.is_empty() {
            "the end of the line".to_owned()
        } else {
            format!("'{}'", String::from_utf8_lossy(&token[..token.len().min(40)]))
        };
        LoadError::at_line(self.line, format!("*{keyword}: expected {what}, found {found}"))
            .with_kind(self.bad_value_kind())
    }

    /// The kind of error for a value missing or wrong at the cursor: [`LoadErrorKind::Truncated`] when the file
    /// ends there (nothing but white space after the word at the cursor, if any: a file cut in the middle of an
    /// entry, perhaps in the middle of a number), otherwise [`LoadErrorKind::Malformed`].
    pub fn bad_value_kind(&self) -> LoadErrorKind {
        let mut probe = self.clone();
        probe.inline_word();
        let rest = probe.data.get(probe.pos..).unwrap_or_default();
        if rest.iter().all(u8::is_ascii_whitespace) { LoadErrorKind::Truncated } else { LoadErrorKind::Malformed }
    }

    /// Expects the `{` that opens a keyword's block (on the same or a following line).
    pub fn expect_open(&mut self, keyword: &str) -> Result<usize, LoadError> {
        let line = self.line;
        match self.next_token() {
            Token::Open => Ok(self.line),
            Token::End => Err(LoadError::at_line(line, format!("*{keyword}: the file ends before its '{{'"))
                .with_kind(LoadErrorKind::Truncated)),
            _ => Err(LoadError::at_line(self.line, format!("*{keyword}: expected '{{' to open its block"))),
        }
    }

    /// Skips the rest of an entry we do not read: the rest of its line and, when a block follows (on that line
    /// or the next), the whole block with its nested blocks. Returns whether a block was skipped.
    pub fn skip_entry(&mut self, keyword: &[u8]) -> Result<bool, LoadError> {
        let line = self.line;
        while let Some(b) = self.peek() {
            match b {
                b'\n' => break,
                b'{' => {
                    self.pos += 1;
                    return self.skip_block(keyword, line).map(|()| true);
                }
                b'}' => return Ok(false),
                b'"' => {
                    self.quoted();
                }
                _ => self.pos += 1,
            }
        }
        if self.peek_token() == Token::Open {
            self.next_token();
            return self.skip_block(keyword, line).map(|()| true);
        }
        Ok(false)
    }

    /// Skips to the `}` matching a `{` already read (balanced, quotes respected). Jumps from brace to quote to
    /// brace with `memchr` and counts the lines in between: whole objects are skipped this way when the file is
    /// parsed on several threads, so this runs over most of a large file.
    pub fn skip_block(&mut self, keyword: &[u8], open_line: usize) -> Result<(), LoadError> {
        let mut depth = 1usize;
        loop {
            let rest = self.data.get(self.pos..).unwrap_or_default();
            let Some(i) = memchr::memchr3(b'"', b'{', b'}', rest) else {
                self.line += memchr::memchr_iter(b'\n', rest).count();
                self.pos = self.data.len();
                return Err(unclosed(keyword, open_line, self.line));
            };
            self.line += memchr::memchr_iter(b'\n', &rest[..i]).count();
            self.pos += i;
            match rest[i] {
                b'"' => {
                    // A quote ends at its closing quote or at the end of the line, which stays unread.
                    self.quoted();
                }
                b'{' => {
                    depth += 1;
                    self.pos += 1;
                }
                _ => {
                    self.pos += 1;
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
            }
        }
    }
}

/// The first position from `pos` that is not a space or tab (or the end).
#[inline]
fn skip_inline(data: &[u8], mut pos: usize) -> usize {
    while data.get(pos).is_some_and(|&b| is_inline_space(b)) {
        pos += 1;
    }
    pos
}

/// `a == b`, compared eight bytes at a time in place (keywords are 10–25 bytes; a call to `memcmp` per entry
/// line cost more than the comparison).
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (mut x, mut y) = (a.chunks_exact(8), b.chunks_exact(8));
    let word = |c: &[u8]| <[u8; 8]>::try_from(c).map(u64::from_ne_bytes).unwrap_or_default();
    x.by_ref().zip(y.by_ref()).all(|(p, q)| word(p) == word(q))
        && x.remainder().iter().zip(y.remainder()).all(|(p, q)| p == q)
}

/// The error for a block whose `}` never comes (usually a truncated file).
pub(super) fn unclosed(keyword: &[u8], open_line: usize, end_line: usize) -> LoadError {
    LoadError::at_line(
        end_line,
        format!(
            "the file ends inside *{} (opened at line {open_line}): a '}}' is missing, the file may be truncated",
            String::from_utf8_lossy(keyword)
        ),
    )
    .with_kind(LoadErrorKind::Truncated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_keywords_blocks_and_strings() {
        let mut lx = Lexer::new(b"*NODE_NAME \"Bip01 Spine\"\n*MESH {\n}\nword");
        assert_eq!(lx.next_token(), Token::Keyword(b"NODE_NAME"));
        assert_eq!(lx.inline_word(), Some(&b"Bip01 Spine"[..]));
        assert_eq!(lx.next_token(), Token::Keyword(b"MESH"));
        assert_eq!(lx.next_token(), Token::Open);
        assert_eq!(lx.next_token(), Token::Close);
        assert_eq!(lx.line(), 3);
        assert_eq!(lx.next_token(), Token::Word(b"word"));
        assert_eq!(lx.next_token(), Token::End);
    }

    #[test]
    fn numbers_stay_on_their_line() {
        let mut lx = Lexer::new(b"*MESH_VERTEX 3 1.5 -2\n*MESH_VERTEX 4 1 2 3");
        lx.next_token();
        assert_eq!(lx.arg_int("MESH_VERTEX").unwrap(), 3);
        let err = lx.arg_f32s::<3>("MESH_VERTEX").unwrap_err();
        assert_eq!(err.to_string(), "line 1: *MESH_VERTEX: expected 3 numbers, found 2");
        assert_eq!(err.kind, LoadErrorKind::Malformed);
    }

    #[test]
    fn a_file_that_stops_inside_an_entry_is_truncated() {
        let mut lx = Lexer::new(b"*MESH_VERTEX 3 1.5 -2\n");
        lx.next_token();
        lx.arg_int("MESH_VERTEX").unwrap();
        let err = lx.arg_f32s::<3>("MESH_VERTEX").unwrap_err();
        assert_eq!((err.kind, err.position), (LoadErrorKind::Truncated, crate::io::Position::Line(1)));
        let mut lx = Lexer::new(b"*NODE_NAME ");
        lx.next_token();
        assert_eq!(lx.arg_name("NODE_NAME").unwrap_err().kind, LoadErrorKind::Truncated);
        let mut lx = Lexer::new(b"*MESH_VERTEX 3 x 1 2");
        lx.next_token();
        lx.arg_int("MESH_VERTEX").unwrap();
        assert_eq!(lx.arg_f32("MESH_VERTEX").unwrap_err().kind, LoadErrorKind::Malformed);
        let mut lx = Lexer::new(b"*MESH 12345678901234567890");
        lx.next_token();
        let err = lx.arg_int("MESH").unwrap_err();
        assert_eq!(err.kind, LoadErrorKind::Malformed);
        assert!(err.message.contains("too large"), "{err}");
    }

    #[test]
    fn msvc_nan_reads_as_zero_and_is_counted() {
        let mut lx = Lexer::new(b"1.#QNAN0 -1.#IND00 2.5");
        assert_eq!(lx.arg_f32s::<3>("X").unwrap(), [0.0, 0.0, 2.5]);
        assert_eq!(lx.non_finite, 2);
    }

    #[test]
    fn skip_entry_handles_next_line_blocks_and_braces_in_strings() {
        let mut lx = Lexer::new(b"*UNKNOWN a b\n{\n *X \"}\" { nested }\n}\n*NEXT");
        lx.next_token();
        lx.skip_entry(b"UNKNOWN").unwrap();
        assert_eq!(lx.next_token(), Token::Keyword(b"NEXT"));
        let mut lx = Lexer::new(b"*UNKNOWN {\n *X {\n");
        lx.next_token();
        let err = lx.skip_entry(b"UNKNOWN").unwrap_err();
        assert_eq!(err.kind, LoadErrorKind::Truncated);
        assert!(err.message.contains("opened at line 1"), "{err}");
    }

    #[test]
    fn numbers_match_the_standard_parser() {
        for text in [
            "0.0000",
            "-0.0000",
            "19.4919",
            "-1692.0000",
            "0.1",
            "12345678",
            "1677.7216",
            "7",
            "-3.5e2",
            "123456.789",
            "+2.5",
            "1.5}",
        ] {
            let mut lx = Lexer::new(text.as_bytes());
            let expected: f32 = text.trim_end_matches('}').parse().unwrap();
            let got = lx.arg_f32("X").unwrap();
            assert_eq!(got.to_bits(), expected.to_bits(), "{text}");
        }
    }

    proptest::proptest! {
        /// Every number an entry holds reads as the bits the standard parser gives, whatever its length, sign
        /// and what follows it (a delimiter ends it, anything else makes it an error); integers likewise. The
        /// shared parser underneath is tested on its own in `io/text.rs`.
        #[test]
        fn numbers_read_like_the_standard_parser(
            int_digits in 0usize..10,
            frac_digits in proptest::option::of(0usize..10),
            negative in proptest::bool::ANY,
            seed in 0u64..u64::MAX,
            tail in "([ \\t\\n}][0-9a-z ]{0,9})?|[a-df-z][0-9a-df-z]{0,8}",
        ) {
            // At least one digit: an empty number would read the word after it.
            let int_digits = if int_digits + frac_digits.unwrap_or(0) == 0 { 1 } else { int_digits };
            let mut text = crate::io::text::decimal_text(int_digits, frac_digits, negative, seed);
            let number_len = text.len();
            let parses = text.parse::<f32>().ok();
            text.push_str(&tail);
            let ends_cleanly = tail.bytes().next().is_none_or(is_delimiter);
            let mut lx = Lexer::new(text.as_bytes());
            match (lx.arg_f32("X"), parses) {
                (Ok(got), Some(expected)) if ends_cleanly => {
                    proptest::prop_assert_eq!(got.to_bits(), expected.to_bits(), "{:?}", text);
                    proptest::prop_assert_eq!(lx.pos(), number_len);
                }
                (Err(_), _) => proptest::prop_assert!(!ends_cleanly || parses.is_none(), "{:?} rejected", text),
                (Ok(got), _) => proptest::prop_assert!(false, "{:?} read as {}", text, got),
            }
            if frac_digits.is_none() && int_digits > 0 && ends_cleanly {
                let mut lx = Lexer::new(text.as_bytes());
                let expected: i64 = text[..number_len].parse().unwrap();
                proptest::prop_assert_eq!(lx.arg_int("X").unwrap(), expected);
                proptest::prop_assert_eq!(lx.pos(), number_len);
            }
        }
    }

    #[test]
    fn key_lines_read_like_the_general_methods_or_not_at_all() {
        // Read: the tick and exactly N finite numbers, the end of the line left unread.
        let mut lx = Lexer::new(b"193\t0.0548891\t-0.9  40.2485 \r\nnext");
        assert_eq!(lx.key_line::<3>(), Some((193, [0.0548891, -0.9, 40.2485])));
        assert_eq!(lx.next_token(), Token::Word(b"next"));
        assert_eq!(lx.line(), 2);
        let mut lx = Lexer::new(b"-5 1 2 3 4");
        assert_eq!(lx.key_line::<4>(), Some((-5, [1.0, 2.0, 3.0, 4.0])));
        // Not read (left to the general methods): more or fewer numbers, NaN, a colon, a brace, a glued word.
        for text in [
            "1 2 3 4 5\n",
            "1 2 3\n",
            "1 2 1.#QNAN 4\n",
            "1 2 nan 4\n",
            "1: 2 3 4\n",
            "1 2 3 4 }\n",
            "1 2 3 4x\n",
            "1 2 3 4,5\n",
            "x 2 3 4\n",
            "1\n2 3 4\n",
        ] {
            let mut lx = Lexer::new(text.as_bytes());
            assert_eq!(lx.key_line::<3>(), None, "{text:?}");
            assert_eq!(lx.pos(), 0, "{text:?}");
        }
    }

    #[test]
    fn keywords_are_matched_whole() {
        for (text, found) in [
            ("*CONTROL_POS_SAMPLE 1", true),
            ("*CONTROL_POS_SAMPLE", true),
            ("*CONTROL_POS_SAMPLE{", true),
            ("*CONTROL_POS_SAMPLES 1", false),
            ("*CONTROL_POS_SAMPLF 1", false),
            ("*CONTROL_ROT_SAMPLE 1", false),
            ("*CONTROL_POS", false),
            ("CONTROL_POS_SAMPLE", false),
        ] {
            let mut lx = Lexer::new(text.as_bytes());
            assert_eq!(lx.eat_keyword(b"CONTROL_POS_SAMPLE"), found, "{text}");
            assert_eq!(lx.pos(), if found { 19 } else { 0 }, "{text}");
        }
    }

    #[test]
    fn face_index_with_colon() {
        let mut lx = Lexer::new(b"12:  A: 3");
        assert_eq!(lx.arg_int("MESH_FACE").unwrap(), 12);
        assert_eq!(lx.inline_word(), Some(&b"A:"[..]));
    }
}
