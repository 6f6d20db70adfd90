//! Text-format helpers for the loaders: the number parsers of the large-file lexers, and small byte utilities.
//!
//! [`parse_f32_prefix`] and [`parse_i64_prefix`] are the one number fast path of the SMD/VTA and ASE lexers
//! (`io/smd/lex.rs`, `io/ase/lexer.rs`), which keep their own line and token handling: each reads a number at
//! the start of a byte slice and says how many bytes it used, and the lexer decides what may follow it. Floats
//! are correctly rounded and give the same bits as `fast-float2` (which takes what the fast path declines).
//! (The model-script readers, whose files are a few kilobytes, read their few numbers with `str::parse`.)
//! [`Tokens`] splits a line at ASCII whitespace with `"quoted strings"` as one token (the SMD field counter and
//! format detection use it). Nothing here allocates except the text decoders at the end.

use std::borrow::Cow;

/// Whitespace-separated tokens of one line (or any slice).
#[derive(Clone, Debug)]
pub struct Tokens<'a> {
    rest: &'a [u8],
}

impl<'a> Tokens<'a> {
    pub fn new(text: &'a [u8]) -> Self {
        Self { rest: text }
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

    #[cfg(test)]
    pub fn next_f32(&mut self) -> Option<f32> {
        self.next_token().and_then(parse_f32)
    }

    #[cfg(test)]
    pub fn next_i64(&mut self) -> Option<i64> {
        self.next_token().and_then(parse_i64)
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
    parse_f32_prefix(token).filter(|&(_, used)| used == token.len()).map(|(value, _)| value)
}

/// Parses a whole token as a decimal integer with an optional sign (at most 18 digits).
pub fn parse_i64(token: &[u8]) -> Option<i64> {
    parse_i64_prefix(token).filter(|&(_, used)| used == token.len()).map(|(value, _)| value)
}

/// Reads a decimal integer with an optional sign at the start of `s`; returns it and the bytes used. `None` when
/// there is no digit, or more than 18 digits (which could overflow; no count or index in a file is that long).
#[inline(always)]
pub fn parse_i64_prefix(s: &[u8]) -> Option<(i64, usize)> {
    let (negative, start) = match s.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    };
    let mut value: i64 = 0;
    let mut i = start;
    while let Some(&b) = s.get(i) {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        value = value.wrapping_mul(10).wrapping_add(i64::from(d));
        i += 1;
    }
    let digits = i - start;
    if digits == 0 || digits > 18 {
        return None;
    }
    Some((if negative { -value } else { value }, i))
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

/// Reads a float at the start of `s`; returns it and the bytes used, exactly as
/// `fast_float2::parse_partial::<f32>` does (same value bits, same length), including exponents, `inf` and
/// `nan`. What follows the number is the caller's business: ASE also ends a number at `{` or `}`, SMD only at
/// whitespace.
///
/// Fast path, for what exporters write (`-12.345678`): `[+-]digits[.digits]` not followed by an exponent, with
/// at most 15 digits in all and at most 8 after the point (the fraction is read 8 bytes at a time). Then
/// `m / 10^k` in f64 is exact in both operands and correctly rounded, and cannot land exactly on an f32 rounding
/// midpoint unless the decimal is that midpoint (the decimal's distance from any other midpoint is at least
/// `1 / (10^k · 2^25)` relative, more than f64's `2^-53`), so the final `as f32` rounds as a direct
/// decimal-to-f32 conversion would.
#[inline(always)]
pub fn parse_f32_prefix(s: &[u8]) -> Option<(f32, usize)> {
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
    // Only an exponent can make the number longer than what was read: anything else after it is left to the
    // caller, as fast-float leaves it.
    let no_exponent = !matches!(s.get(i), Some(b'e' | b'E'));
    if no_exponent && digits > 0 && digits <= 15 && frac_digits <= 8 {
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

/// A decimal number for property tests: an optional minus, `int_digits` digits, and a fraction of
/// `frac_digits` digits when given, the digits drawn from `digit_bits`.
#[cfg(test)]
pub(crate) fn decimal_text(int_digits: usize, frac_digits: Option<usize>, negative: bool, digit_bits: u64) -> String {
    let digit = |k: usize| char::from(b'0' + ((digit_bits >> (k % 60)) % 10) as u8);
    let mut text = String::new();
    if negative {
        text.push('-');
    }
    text.extend((0..int_digits).map(digit));
    if let Some(f) = frac_digits {
        text.push('.');
        text.extend((0..f).map(|k| digit(k + 20)));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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

    #[test]
    fn integers_stop_at_the_first_non_digit() {
        assert_eq!(parse_i64_prefix(b"12: A"), Some((12, 2)));
        assert_eq!(parse_i64_prefix(b"-7}"), Some((-7, 2)));
        assert_eq!(parse_i64_prefix(b"+0"), Some((0, 2)));
        assert_eq!(parse_i64_prefix(b"999999999999999999"), Some((999_999_999_999_999_999, 18)));
        assert_eq!(parse_i64_prefix(b"1234567890123456789"), None);
        assert_eq!(parse_i64_prefix(b"-x"), None);
        assert_eq!(parse_i64_prefix(b""), None);
    }

    #[test]
    fn float_edge_cases_match_fast_float() {
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
            "1.5}",
            "2.5e",
            "1.#QNAN0",
            "7:",
            "1.2.3",
        ] {
            let ours = parse_f32_prefix(text.as_bytes()).map(|(v, n)| (v.to_bits(), n));
            let theirs = fast_float2::parse_partial::<f32, _>(text).ok().map(|(v, n)| (v.to_bits(), n));
            assert_eq!(ours, theirs, "{text}");
        }
        assert_eq!(parse_f32_prefix(b"."), None);
        assert_eq!(parse_f32_prefix(b"-"), None);
        assert_eq!(parse_f32_prefix(b"-1.5}"), Some((-1.5, 4)));
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
        /// A number of any length (0–9 integer digits, none or 0–9 fraction digits) and sign, followed by any
        /// tail: the float reads the bits the standard library's parser gives for the number alone and stops
        /// where it ends; an integer likewise.
        #[test]
        fn numbers_read_like_the_standard_parser(
            int_digits in 0usize..10,
            frac_digits in proptest::option::of(0usize..10),
            negative in proptest::bool::ANY,
            digit_bits in 0u64..u64::MAX,
            tail in "([ \\t\\n{}:#][0-9a-z ]{0,9})?|[a-df-z][0-9a-df-z]{0,8}",
        ) {
            let mut text = decimal_text(int_digits, frac_digits, negative, digit_bits);
            let number_len = text.len();
            let expected = text.parse::<f32>().ok();
            text.push_str(&tail);
            let got = parse_f32_prefix(text.as_bytes());
            match expected {
                Some(expected) => {
                    let (value, used) = got.unwrap_or_else(|| panic!("{text:?} not read"));
                    prop_assert_eq!(value.to_bits(), expected.to_bits(), "{:?}", text);
                    prop_assert_eq!(used, number_len, "{:?}", text);
                }
                // No digit at all: nothing read, unless the tail spells `inf` or `nan` (as fast-float reads it).
                None => {
                    let theirs = fast_float2::parse_partial::<f32, _>(&text).ok();
                    prop_assert!(got.is_none() == theirs.is_none(), "{:?} read as {:?}", text, got);
                    prop_assert!(got.is_none_or(|(v, _)| !v.is_finite()), "{:?} read as {:?}", text, got);
                }
            }
            let expected_int = if frac_digits.is_none() { text[..number_len].parse::<i64>().ok() } else { None };
            if let Some(expected_int) = expected_int {
                prop_assert_eq!(parse_i64_prefix(text.as_bytes()), Some((expected_int, number_len)), "{:?}", text);
            }
        }

        #[test]
        fn arbitrary_bytes_parse_like_fast_float(bytes in proptest::collection::vec(proptest::sample::select(b"0123456789.-+eEinfa#}: \t".to_vec()), 0..24)) {
            let ours = parse_f32_prefix(&bytes).map(|(v, n)| (v.to_bits(), n));
            let theirs = fast_float2::parse_partial::<f32, _>(&bytes).ok().map(|(v, n)| (v.to_bits(), n));
            match (ours, theirs) {
                (Some(a), Some(b)) => prop_assert!(a == b || (f32::from_bits(a.0).is_nan() && f32::from_bits(b.0).is_nan() && a.1 == b.1), "{:?}", String::from_utf8_lossy(&bytes)),
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
            let theirs = text.parse::<f32>().ok().map(f32::to_bits);
            prop_assert_eq!(ours, theirs, "{}", text);
        }

        #[test]
        fn near_midpoint_decimals_round_like_the_standard_parser(bits in 0x3380_0000u32..0x4b00_0000, places in 1usize..9) {
            // The exact midpoint above an f32, printed with a few decimals: the hardest inputs for double rounding.
            let x = f32::from_bits(bits) as f64;
            let next = f32::from_bits(bits + 1) as f64;
            let text = format!("{:.*}", places, (x + next) / 2.0);
            let ours = parse_f32_prefix(text.as_bytes()).map(|(v, _)| v.to_bits());
            let theirs = text.parse::<f32>().ok().map(f32::to_bits);
            prop_assert_eq!(ours, theirs, "{}", text);
        }
    }
}
