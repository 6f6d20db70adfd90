//! The SMD/VTA hot path: a line reader that skips blank and `//` comment lines, and a field cursor that parses
//! integers and floats straight from the bytes of a line without building token slices first.
//!
//! Everything here works on borrowed bytes and never allocates. Floats take a short decimal fast path (what
//! exporters write: `-12.345678`) that is correctly rounded to f32, and fall back to `fast-float2` for anything
//! else (exponents, `inf`, long mantissas), so both paths give the same bits for the same text.

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

    /// The next line that has content after removing a `//` comment and surrounding whitespace.
    #[inline]
    pub(super) fn next_content(&mut self) -> Option<&'a [u8]> {
        loop {
            let rest = self.data.get(self.pos..)?;
            if rest.is_empty() {
                return None;
            }
            let (raw, advance) = match memchr::memchr(b'\n', rest) {
                Some(end) => (rest.get(..end).unwrap_or_default(), end + 1),
                None => (rest, rest.len()),
            };
            self.pos += advance;
            self.line += 1;
            let mut line = raw;
            // Comments are rare; one memchr keeps the common line from a byte-by-byte scan.
            if memchr::memchr(b'/', line).is_some() {
                line = text::strip_comment(line, b"//");
            }
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
        let start = self.i;
        let mut i = start;
        let negative = match self.s.get(i) {
            None => return Err(FieldError::Missing),
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let digits_start = i;
        let mut value: i64 = 0;
        while let Some(&d) = self.s.get(i) {
            if !d.is_ascii_digit() {
                break;
            }
            if i - digits_start >= 18 {
                return Err(FieldError::Bad);
            }
            value = value * 10 + i64::from(d - b'0');
            i += 1;
        }
        if i == digits_start || !self.ends_token(i) {
            return Err(FieldError::Bad);
        }
        self.i = i;
        Ok(if negative { -value } else { value })
    }

    /// A float (any form `fast-float2` accepts, including exponents and `inf`/`nan`: callers check finiteness).
    #[inline(always)]
    pub(super) fn float(&mut self) -> Result<f32, FieldError> {
        self.skip_ws();
        let rest = self.s.get(self.i..).unwrap_or_default();
        if rest.is_empty() {
            return Err(FieldError::Missing);
        }
        let (value, used) = parse_f32_prefix(rest).ok_or(FieldError::Bad)?;
        if !self.ends_token(self.i + used) {
            return Err(FieldError::Bad);
        }
        self.i += used;
        Ok(value)
    }
}

const POW10: [f64; 9] = [1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8];
const INV_POW10: [f64; 9] = [1.0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8];
const POW10_U64: [u64; 9] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000];
const ASCII_ZEROS: u64 = 0x3030_3030_3030_3030;

/// How many of the 8 bytes (first byte lowest) are ASCII digits before the first non-digit.
#[inline]
fn leading_digits(chunk: u64) -> usize {
    // Per byte: `b - '0'` has its high bit set when b < '0', `b + 0x46` when b > '9'. Borrows and carries only
    // travel upwards from a byte that is already flagged, so the lowest flagged byte is exact.
    let flags = (chunk.wrapping_sub(ASCII_ZEROS) | chunk.wrapping_add(0x4646_4646_4646_4646)) & 0x8080_8080_8080_8080;
    (flags.trailing_zeros() / 8) as usize
}

/// The value of 8 ASCII digits (first digit in the lowest byte), in three multiplications.
#[inline]
fn eight_digits(chunk: u64) -> u64 {
    let v = chunk.wrapping_sub(ASCII_ZEROS);
    let v = v.wrapping_mul(10).wrapping_add(v >> 8);
    let low = (v & 0x0000_00FF_0000_00FF).wrapping_mul(100 + (1_000_000 << 32));
    let high = ((v >> 16) & 0x0000_00FF_0000_00FF).wrapping_mul(1 + (10_000 << 32));
    low.wrapping_add(high) >> 32
}

/// Parses a float at the start of `s`; returns it and the bytes used.
///
/// Fast path: `[+-]digits[.digits]` with at most 15 digits in all and at most 8 after the point (the fraction
/// is read 8 bytes at a time). Then `m / 10^k` in f64 is exact in both operands and correctly rounded, and
/// cannot land exactly on an f32 rounding midpoint unless the decimal is that midpoint (the decimal's distance
/// from any other midpoint is at least `1 / (10^k · 2^25)` relative, more than f64's `2^-53`), so the final
/// `as f32` rounds as a direct decimal-to-f32 conversion would.
#[inline]
pub(super) fn parse_f32_prefix(s: &[u8]) -> Option<(f32, usize)> {
    let mut i = 0;
    let negative = match s.first() {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    let mut mantissa: u64 = 0;
    let int_start = i;
    while let Some(&d) = s.get(i) {
        let d = d.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d));
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0usize;
    if s.get(i) == Some(&b'.') {
        i += 1;
        if let Some(Ok(bytes)) = s.get(i..i + 8).map(<[u8; 8]>::try_from) {
            let chunk = u64::from_le_bytes(bytes);
            let n = leading_digits(chunk);
            if n > 0 {
                // Left-align the n digits and pad the front with '0's.
                let padded = if n == 8 { chunk } else { (chunk << (8 * (8 - n))) | (ASCII_ZEROS >> (8 * n)) };
                mantissa = mantissa.wrapping_mul(POW10_U64[n]).wrapping_add(eight_digits(padded));
                frac_digits = n;
                i += n;
            }
        }
        while let Some(&d) = s.get(i) {
            let d = d.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d));
            frac_digits += 1;
            i += 1;
        }
    }
    let digits = int_digits + frac_digits;
    let simple_end = s.get(i).is_none_or(|b| b.is_ascii_whitespace());
    if simple_end && digits > 0 && digits <= 15 && frac_digits <= 8 {
        // Below 2^53 (15 digits), so the signed conversion (one instruction) is exact.
        let m = mantissa as i64 as f64;
        // A multiplication by the (rounded) reciprocal is within 2 f64 ulps of m / 10^k. Unless that lands within
        // a few ulps of an f32 rounding midpoint (the 29 bits f32 drops are then near 0x1000_0000), it rounds to
        // the same f32 as the exact quotient; otherwise divide, which is exact to f64 rounding.
        let approx = m * INV_POW10[frac_digits];
        let dropped = approx.to_bits() & ((1 << 29) - 1);
        let value = if dropped.abs_diff(1 << 28) <= 8 { (m / POW10[frac_digits]) as f32 } else { approx as f32 };
        return Some((if negative { -value } else { value }, i));
    }
    parse_f32_fallback(s)
}

/// Exponents, `inf`/`nan`, long mantissas: rare, kept out of line so the fast path stays small.
#[cold]
#[inline(never)]
fn parse_f32_fallback(s: &[u8]) -> Option<(f32, usize)> {
    fast_float2::parse_partial::<f32, _>(s).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reader_skips_blank_and_comment_lines_and_counts_them() {
        let mut r = Reader::new(b"// head\r\n\r\n  nodes \t// c\n\tend");
        assert_eq!(r.next_content(), Some(&b"nodes"[..]));
        assert_eq!(r.line(), 3);
        assert_eq!(r.next_content(), Some(&b"end"[..]));
        assert_eq!(r.line(), 4);
        assert_eq!(r.next_content(), None);
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

    #[test]
    fn fast_path_edge_cases_match_fast_float() {
        for text in [
            "0",
            "-0",
            "0.",
            ".5",
            "-.5",
            "1.000000",
            "16777217",
            "0.1",
            "3.4028235e38",
            "20.680813",
            "-0.946777",
            "123456789012345",
            "0.00000001",
            "1234567.12345678",
            "9999999999999999",
            "1.123456789",
            "+2.5",
            "inf",
            "-nan",
            "1e-45",
        ] {
            let ours = parse_f32_prefix(text.as_bytes()).map(|(v, n)| (v.to_bits(), n));
            let theirs = fast_float2::parse_partial::<f32, _>(text).ok().map(|(v, n)| (v.to_bits(), n));
            assert_eq!(ours, theirs, "{text}");
        }
        assert_eq!(parse_f32_prefix(b"."), None);
        assert_eq!(parse_f32_prefix(b"-"), None);
    }

    #[test]
    fn swar_digit_helpers() {
        assert_eq!(leading_digits(u64::from_le_bytes(*b"12345678")), 8);
        assert_eq!(leading_digits(u64::from_le_bytes(*b"123 5678")), 3);
        assert_eq!(leading_digits(u64::from_le_bytes(*b"/:\x00\xff0000")), 0);
        assert_eq!(eight_digits(u64::from_le_bytes(*b"12345678")), 12_345_678);
        assert_eq!(eight_digits(u64::from_le_bytes(*b"00000009")), 9);
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_parse_like_fast_float(bytes in proptest::collection::vec(proptest::sample::select(b"0123456789.-+e \t".to_vec()), 0..24)) {
            let ours = parse_f32_prefix(&bytes).map(|(v, n)| (v.to_bits(), n));
            let theirs = fast_float2::parse_partial::<f32, _>(&bytes).ok().map(|(v, n)| (v.to_bits(), n));
            // Where the fast path answers it must agree; it may only decline what fast-float declines too.
            match (ours, theirs) {
                (Some(a), Some(b)) => prop_assert!(a == b || (f32::from_bits(a.0).is_nan() && f32::from_bits(b.0).is_nan()), "{:?}", String::from_utf8_lossy(&bytes)),
                (a, b) => prop_assert_eq!(a, b, "{:?}", String::from_utf8_lossy(&bytes)),
            }
        }

        #[test]
        fn fast_path_agrees_with_fast_float(int in 0u64..10_000_000, frac in 0u64..100_000_000, places in 0usize..9, neg: bool) {
            let frac = if places == 0 { String::new() } else { format!(".{:0width$}", frac % 10u64.pow(places as u32), width = places) };
            let text = format!("{}{int}{frac}", if neg { "-" } else { "" });
            let ours = parse_f32_prefix(text.as_bytes()).map(|(v, n)| (v.to_bits(), n));
            let theirs = fast_float2::parse_partial::<f32, _>(&text).ok().map(|(v, n)| (v.to_bits(), n));
            prop_assert_eq!(ours, theirs, "{}", text);
        }

        #[test]
        fn exact_midpoints_round_to_even(bits in 0x4780_0000u32..0x4b80_0000) {
            // Between 2^16 and 2^24 the midpoint between neighbouring f32s has at most 8 binary fraction digits, so
            // `{:.8}` prints it exactly, within the fast path's 15 digits.
            let x = f32::from_bits(bits) as f64;
            let next = f32::from_bits(bits + 1) as f64;
            let text = format!("{:.8}", (x + next) / 2.0);
            let ours = parse_f32_prefix(text.as_bytes()).map(|(v, _)| v.to_bits());
            let theirs = fast_float2::parse_partial::<f32, _>(&text).ok().map(|(v, _)| v.to_bits());
            prop_assert_eq!(ours, theirs, "{}", text);
        }

        #[test]
        fn near_midpoint_decimals_round_like_fast_float(bits in 0x3380_0000u32..0x4b00_0000, places in 1usize..9) {
            // The exact midpoint above an f32, printed with a few decimals: the hardest inputs for double rounding.
            let x = f32::from_bits(bits) as f64;
            let next = f32::from_bits(bits + 1) as f64;
            let text = format!("{:.*}", places, (x + next) / 2.0);
            let ours = parse_f32_prefix(text.as_bytes()).map(|(v, _)| v.to_bits());
            let theirs = fast_float2::parse_partial::<f32, _>(&text).ok().map(|(v, _)| v.to_bits());
            prop_assert_eq!(ours, theirs, "{}", text);
        }
    }
}
