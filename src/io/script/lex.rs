//! The tokenizer shared by the QC and MDS/MMS grammars: words, quoted strings, braces (and for MDS parentheses
//! and colons) with their line numbers, comments removed.
//!
//! Comment rules follow the tools each language's users trust:
//! - **QC** follows studiomdl's `scriplib` (Half-Life SDK `utils/common/scriplib.c`): `//`, `;` and `#` start a
//!   comment at the start of a token, and a plain word ends at `;`; Source's scriplib and Blender Source Tools'
//!   `parseQuoteBlockedLine` add `/* … */` block comments, which decompiled QCs open with. `#` inside a word is
//!   part of it (`headcrabbed#1` is a file name), as in scriplib.
//! - **MDS/MMS** follow ZenKit's `MdsTokenizer` (`src/ModelScriptDsl.cc`): `//` comments, parentheses and
//!   semicolons carry no meaning (ZenKit skips them; the parsers here use `)` only to find the end of a
//!   statement written on one line), `:` separates `FPS:25`-style options. `/* … */` is accepted as well: it
//!   costs nothing and a stray block comment should not turn into a syntax error.
//!
//! Both languages treat `{` and `}` as tokens of their own even when written against a word (`"run" {`), as
//! Blender Source Tools does. A quoted string may not span lines: QC reports an unterminated one as an error,
//! MDS closes it at the end of the line with a warning, as ZenKit does.

use crate::io::{LoadError, LoadErrorKind};
use crate::scene::Warning;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A plain word (command, keyword, number, unquoted name).
    Word,
    /// A `"quoted string"` (quotes removed).
    Quoted,
    /// `{`
    Open,
    /// `}`
    Close,
    /// `(` (MDS only)
    LParen,
    /// `)` (MDS only)
    RParen,
    /// `:` (MDS only)
    Colon,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: Kind,
    pub text: &'a str,
    /// 1-based line the token starts on.
    pub line: usize,
}

impl Token<'_> {
    /// A word or a quoted string: something with a value.
    pub fn is_value(&self) -> bool {
        matches!(self.kind, Kind::Word | Kind::Quoted)
    }
}

/// Which language's rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    Qc,
    Mds,
}

/// Splits a script into tokens. Fails on an unterminated block comment (both languages) and an unterminated
/// quoted string (QC); other oddities become warnings.
pub fn tokenize(text: &str, syntax: Syntax) -> Result<(Vec<Token<'_>>, Vec<Warning>), LoadError> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::with_capacity(text.len() / 6);
    let mut warnings = Vec::new();
    let mut line = 1usize;
    let mut i = 0usize;
    let mds = syntax == Syntax::Mds;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b if b.is_ascii_whitespace() => i += 1,
            b';' if mds => i += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = skip_line(bytes, i),
            b';' | b'#' if !mds => i = skip_line(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let start = line;
                let Some(end) = find(bytes, i + 2, b"*/") else {
                    return Err(LoadError::at_line(start, "a `/*` comment is not closed before the end of the file")
                        .with_kind(LoadErrorKind::Truncated));
                };
                line += count_newlines(&bytes[i..end]);
                i = end + 2;
            }
            b'{' | b'}' => {
                let kind = if b == b'{' { Kind::Open } else { Kind::Close };
                tokens.push(Token { kind, text: &text[i..i + 1], line });
                i += 1;
            }
            b'(' | b')' | b':' if mds => {
                let kind = match b {
                    b'(' => Kind::LParen,
                    b')' => Kind::RParen,
                    _ => Kind::Colon,
                };
                tokens.push(Token { kind, text: &text[i..i + 1], line });
                i += 1;
            }
            b'"' => {
                let start = i + 1;
                let end = bytes[start..].iter().position(|&c| c == b'"' || c == b'\n').map(|p| start + p);
                match end {
                    Some(end) if bytes[end] == b'"' => {
                        tokens.push(Token { kind: Kind::Quoted, text: &text[start..end], line });
                        i = end + 1;
                    }
                    _ if !mds => {
                        return Err(LoadError::at_line(line, "a quoted string is not closed on its line"));
                    }
                    end => {
                        // ZenKit: the string ends at the end of the line, with a warning.
                        let end = end.unwrap_or(bytes.len());
                        let value = text[start..end].trim_end_matches('\r');
                        warnings.push(Warning::new(
                            format!("line {line}"),
                            "a quoted string is not closed on its line; it was read up to the end of the line",
                        ));
                        tokens.push(Token { kind: Kind::Quoted, text: value, line });
                        i = end;
                    }
                }
            }
            _ => {
                let start = i;
                while let Some(&c) = bytes.get(i) {
                    let ends = c.is_ascii_whitespace()
                        || c == b'"'
                        || c == b'{'
                        || c == b'}'
                        || c == b';'
                        || (mds && matches!(c, b'(' | b')' | b':'))
                        || (c == b'/' && matches!(bytes.get(i + 1), Some(b'/' | b'*')));
                    if ends {
                        break;
                    }
                    i += 1;
                }
                tokens.push(Token { kind: Kind::Word, text: &text[start..i], line });
            }
        }
    }
    Ok((tokens, warnings))
}

/// Reads a token list front to back.
#[derive(Clone, Debug)]
pub struct Cursor<'t, 'a> {
    tokens: &'t [Token<'a>],
    pos: usize,
}

impl<'t, 'a> Cursor<'t, 'a> {
    pub fn new(tokens: &'t [Token<'a>]) -> Self {
        Self { tokens, pos: 0 }
    }

    pub fn peek(&self) -> Option<Token<'a>> {
        self.tokens.get(self.pos).copied()
    }

    pub fn next(&mut self) -> Option<Token<'a>> {
        let t = self.peek()?;
        self.pos += 1;
        Some(t)
    }

    /// The next token when it is on `line` (what studiomdl's `TokenAvailable` asks).
    pub fn next_on_line(&mut self, line: usize) -> Option<Token<'a>> {
        let t = self.peek().filter(|t| t.line == line)?;
        self.pos += 1;
        Some(t)
    }

    /// Every remaining token on `line`.
    pub fn rest_of_line(&mut self, line: usize) -> Vec<Token<'a>> {
        let mut out = Vec::new();
        while let Some(t) = self.next_on_line(line) {
            out.push(t);
        }
        out
    }

    /// Line of the token read last (`None` before the first).
    pub fn consumed_line(&self) -> Option<usize> {
        self.pos.checked_sub(1).and_then(|i| self.tokens.get(i)).map(|t| t.line)
    }

    /// Line of the last token (for "not closed before the end of the file" messages).
    pub fn last_line(&self) -> usize {
        self.tokens.last().map_or(1, |t| t.line)
    }
}

/// Index of the `\n` ending the line that `i` is on (or the end of the buffer).
fn skip_line(bytes: &[u8], i: usize) -> usize {
    memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |p| i + p)
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(bytes.get(from..)?, needle).map(|p| from + p)
}

fn count_newlines(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count()
}

/// Script bytes as text: UTF-8 when they are (after a UTF-16 byte-order mark is decoded), Windows-1252
/// otherwise. Gothic's scripts are German Windows files (`ü` in comments as byte 0xFC); reading them as
/// Windows-1252 keeps every name intact where lossy UTF-8 would put replacement characters.
pub fn decode(bytes: &[u8]) -> String {
    let bytes = crate::io::text::decode_text(bytes);
    match std::str::from_utf8(&bytes) {
        Ok(s) => s.strip_prefix('\u{feff}').unwrap_or(s).to_owned(),
        Err(_) => encoding_rs::WINDOWS_1252.decode_without_bom_handling(&bytes).0.into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str, syntax: Syntax) -> Vec<(String, usize)> {
        tokenize(text, syntax).unwrap().0.iter().map(|t| (t.text.to_owned(), t.line)).collect()
    }

    #[test]
    fn qc_comments_of_every_kind_are_skipped() {
        let text = "/* head\n er */ $cd \"./\" // tail\n; semicolon line\n# hash line\n$scale 1.0;trailing\n";
        let w = words(text, Syntax::Qc);
        assert_eq!(w, [("$cd".into(), 2), ("./".into(), 2), ("$scale".into(), 5), ("1.0".into(), 5)]);
    }

    #[test]
    fn qc_hash_inside_a_word_is_part_of_it_and_braces_split() {
        let w = words("$sequence a headcrabbed#1 fps 20 {\n{ event 1 2 }}", Syntax::Qc);
        let texts: Vec<&str> = w.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(texts, ["$sequence", "a", "headcrabbed#1", "fps", "20", "{", "{", "event", "1", "2", "}", "}"]);
        assert_eq!(w[6].1, 2);
    }

    #[test]
    fn unterminated_constructs_name_their_line() {
        let e = tokenize("$a\n/* never closed\n", Syntax::Qc).unwrap_err();
        assert_eq!(e.position, crate::io::Position::Line(2));
        let e = tokenize("$a\n$b \"open\n", Syntax::Qc).unwrap_err();
        assert_eq!(e.position, crate::io::Position::Line(2));
        let (t, w) = tokenize("ani (\"open\n)", Syntax::Mds).unwrap();
        assert_eq!(t[2].text, "open");
        assert_eq!(w.len(), 1);
    }

    #[test]
    fn mds_parens_colons_and_flags() {
        let (t, _) = tokenize("ani (\"s_Run\" 1 \"\" 0.1 0.1 M. \"a.asc\" F 0 5 FPS:15); x", Syntax::Mds).unwrap();
        let kinds: Vec<Kind> = t.iter().map(|t| t.kind).collect();
        assert_eq!(kinds[1], Kind::LParen);
        assert!(t.iter().any(|t| t.text == "M." && t.kind == Kind::Word));
        let colon = t.iter().position(|t| t.kind == Kind::Colon).unwrap();
        assert_eq!((t[colon - 1].text, t[colon + 1].text), ("FPS", "15"));
        assert_eq!(t.last().unwrap().text, "x");
    }

    #[test]
    fn latin1_text_decodes_as_windows_1252() {
        assert_eq!(decode(b"// w\xe4hrend\nModel"), "// während\nModel");
        assert_eq!(decode("ok ü".as_bytes()), "ok ü");
    }
}
