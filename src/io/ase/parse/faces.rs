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
    let face = match usual_face(rest) {
        Some(face) => face,
        None => scanned_face(rest, index, lx, line)?,
    };
    Ok((index, face))
}

/// Any face line, word by word: the corners in any order and case, spaces before colons, smoothing lists with
/// spaces, unknown words skipped.
fn scanned_face(rest: &[u8], index: u32, lx: &Lexer, line: usize) -> Result<RawFace, LoadError> {
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
    Ok(face)
}

/// The layout 3ds Max writes, read in one pass: `A: a B: b C: c`, then optionally `AB: x BC: y CA: z`,
/// `*MESH_SMOOTHING` with an empty or comma-separated list (no spaces inside) and `*MESH_MTLID m`, each number
/// plain digits, and nothing else on the line. `None` for anything else — other orders, lower-case corners,
/// spaces inside the smoothing list, signs, long numbers, extra words — which the general scan in
/// [`parse_face`] reads (or reports); for the lines this accepts, both give the same face.
fn usual_face(rest: &[u8]) -> Option<RawFace> {
    let mut at = Cursor { bytes: rest, pos: 0 };
    let mut face = RawFace::default();
    for (corner, label) in [b"A", b"B", b"C"].into_iter().enumerate() {
        face.v[corner] = at.labelled_number(label)?;
    }
    if at.peek_label(b"AB") {
        for label in [b"AB", b"BC", b"CA"] {
            at.labelled_number(label)?;
        }
    }
    at.space();
    if at.word(b"*MESH_SMOOTHING") {
        at.space();
        if at.bytes.get(at.pos).is_some_and(u8::is_ascii_digit) {
            loop {
                let group = at.digits()?;
                if (1..=32).contains(&group) {
                    face.smoothing |= 1 << (group - 1);
                }
                if at.bytes.get(at.pos) != Some(&b',') {
                    break;
                }
                at.pos += 1;
            }
        }
        at.space();
    }
    if at.word(b"*MESH_MTLID") {
        at.space();
        face.mtl = at.digits()?;
        at.space();
    }
    (at.pos == rest.len()).then_some(face)
}

/// A position in a face line, for [`usual_face`].
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn space(&mut self) {
        while self.bytes.get(self.pos).is_some_and(|&b| b == b' ' || b == b'\t' || b == b'\r') {
            self.pos += 1;
        }
    }

    /// `word` when it comes next, followed by a space, a tab or the end of the line.
    fn word(&mut self, word: &[u8]) -> bool {
        let end = self.pos + word.len();
        let found = self.bytes.get(self.pos..end) == Some(word)
            && self.bytes.get(end).is_none_or(|&b| b == b' ' || b == b'\t' || b == b'\r');
        if found {
            self.pos = end;
        }
        found
    }

    /// Whether `label:` comes next after white space (nothing is read).
    fn peek_label(&mut self, label: &[u8]) -> bool {
        self.space();
        let end = self.pos + label.len();
        self.bytes.get(self.pos..end) == Some(label) && self.bytes.get(end) == Some(&b':')
    }

    /// `label: digits` (white space around the colon allowed after it, as exporters pad the columns).
    fn labelled_number(&mut self, label: &[u8]) -> Option<u32> {
        if !self.peek_label(label) {
            return None;
        }
        self.pos += label.len() + 1;
        self.space();
        self.digits()
    }

    /// One to nine digits, followed by something that is not a digit (longer numbers go to the general scan).
    fn digits(&mut self) -> Option<u32> {
        let mut value = 0u32;
        let start = self.pos;
        while let Some(&b) = self.bytes.get(self.pos) {
            if !b.is_ascii_digit() {
                break;
            }
            if self.pos - start == 9 {
                return None;
            }
            value = value * 10 + u32::from(b - b'0');
            self.pos += 1;
        }
        (self.pos > start).then_some(value)
    }
}

fn smoothing_bits(list: &[u8]) -> u32 {
    list.split(|&b| b == b',')
        .filter_map(|g| crate::io::text::parse_i64(g.trim_ascii()))
        .filter(|g| (1..=32).contains(g))
        .fold(0u32, |bits, g| bits | (1 << (g - 1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line the one-pass reader accepts gives the face the general scan gives, and the lines it leaves to
    /// the scan are the unusual ones.
    #[test]
    fn the_usual_layout_reads_as_the_general_scan_does() {
        let usual = [
            "    A:    0 B:    1 C:    2 AB:    1 BC:    1 CA:    1\t *MESH_SMOOTHING 1 \t*MESH_MTLID 0",
            " A: 10 B: 11 C: 12 AB: 1 BC: 0 CA: 1 *MESH_SMOOTHING 1,2,32 *MESH_MTLID 3\r",
            " A: 10 B: 11 C: 12 AB: 1 BC: 0 CA: 1 *MESH_SMOOTHING  *MESH_MTLID 7",
            " A: 10 B: 11 C: 12 *MESH_SMOOTHING 0,33,5 *MESH_MTLID 2",
            " A: 4 B: 5 C: 6",
            " A: 4 B: 5 C: 6 *MESH_MTLID 1",
            " A: 4 B: 5 C: 6 AB: 0 BC: 0 CA: 0 *MESH_SMOOTHING",
            " A:4 B:5 C:999999999 *MESH_SMOOTHING 99999 *MESH_MTLID 123456789",
        ];
        let unusual = [
            " a: 4 b: 5 c: 6",
            " A : 4 B : 5 C : 6",
            " B: 5 A: 4 C: 6",
            " A: 4 B: 5 C: 6 *MESH_SMOOTHING 1, 2 *MESH_MTLID 1",
            " A: 4 B: 5 C: 6 *MESH_MTLID 1 *MESH_SMOOTHING 2",
            " A: 4 B: 5 C: 6 *MESH_SMOOTHING 1 *MESH_MTLID 1 extra",
            " A: +4 B: 5 C: 6",
            " A: 4 B: 5 C: 1234567890",
            " A: 4 B: 5 C: 6 *MESH_MTLID -1",
            " A: 4 B: 5 C: 6 *MESH_SMOOTHING 1,,2",
            " A: 4 B: 5 C: 6 AB: x BC: 1 CA: 1",
        ];
        let lexer = Lexer::new(b"");
        for line in usual {
            let fast = usual_face(line.as_bytes());
            assert!(fast.is_some(), "{line:?} is read in one pass");
            assert_eq!(fast, scanned_face(line.as_bytes(), 0, &lexer, 1).ok(), "{line:?}");
        }
        for line in unusual {
            assert_eq!(usual_face(line.as_bytes()), None, "{line:?} is left to the scan");
        }
        let face = usual_face(usual[1].as_bytes()).unwrap();
        assert_eq!((face.v, face.smoothing, face.mtl), ([10, 11, 12], 0x8000_0003, 3));
        let scanned = scanned_face(unusual[3].as_bytes(), 0, &lexer, 1).unwrap();
        assert_eq!((scanned.v, scanned.smoothing, scanned.mtl), ([4, 5, 6], 0b11, 1));
    }
}
