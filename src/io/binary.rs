//! Bounded little-endian reading of binary files, shared by the readers whose files are not chunked the ActorX
//! way (compiled GoldSrc models, ZenGin's compiled formats and VDF archives, binary DMX): a cursor over a byte
//! slice, and reads at absolute offsets for formats that are tables of offsets into the file.
//!
//! Every read checks the bytes that remain first and fails with [`LoadErrorKind::Truncated`] naming the byte
//! offset and what was being read; nothing here panics on any input. [`Reader::count`] is the one way to turn a
//! count from the file into an allocation size: it fails unless `count × record size` bytes remain, so a `Vec`
//! built from it is bounded by the file's size. It owns no format knowledge.

use glam::{Quat, Vec2, Vec3};

use super::{LoadError, LoadErrorKind};

/// A cursor over `bytes`. `base` is the offset of `bytes[0]` in the whole file, so errors name file offsets even
/// when a reader works on a slice of the file (a chunk, an archive entry).
#[derive(Clone, Copy, Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    base: u64,
}

impl<'a> Reader<'a> {
    /// A cursor at the start of a whole file.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0, base: 0 }
    }

    /// A cursor over a part of a file that starts at byte `base` of the file.
    pub fn with_base(bytes: &'a [u8], base: u64) -> Self {
        Self { bytes, pos: 0, base }
    }

    /// The file offset of the cursor.
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// The position in `bytes`.
    pub fn pos(&self) -> usize {
        self.pos
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Bytes left after the cursor.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    /// The whole slice the cursor reads.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Moves to `pos` (a position in `bytes`); `what` names the thing there, for the error.
    pub fn seek(&mut self, pos: usize, what: &str) -> Result<(), LoadError> {
        if pos > self.bytes.len() {
            return Err(self.past_end(pos as u64, 0, what));
        }
        self.pos = pos;
        Ok(())
    }

    /// Moves `n` bytes on.
    pub fn skip(&mut self, n: usize, what: &str) -> Result<(), LoadError> {
        self.take(n, what).map(|_| ())
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], LoadError> {
        let slice = slice_at(self.bytes, self.pos, n).ok_or_else(|| self.past_end(self.offset(), n as u64, what))?;
        self.pos += n;
        Ok(slice)
    }

    /// A cursor over the next `n` bytes (its offsets stay file offsets); this cursor moves past them.
    pub fn sub(&mut self, n: usize, what: &str) -> Result<Reader<'a>, LoadError> {
        let base = self.offset();
        Ok(Reader::with_base(self.take(n, what)?, base))
    }

    pub fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], LoadError> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N, what)?);
        Ok(out)
    }

    pub fn u8(&mut self, what: &str) -> Result<u8, LoadError> {
        Ok(self.array::<1>(what)?[0])
    }

    pub fn i8(&mut self, what: &str) -> Result<i8, LoadError> {
        Ok(i8::from_le_bytes(self.array(what)?))
    }

    pub fn u16(&mut self, what: &str) -> Result<u16, LoadError> {
        Ok(u16::from_le_bytes(self.array(what)?))
    }

    pub fn i16(&mut self, what: &str) -> Result<i16, LoadError> {
        Ok(i16::from_le_bytes(self.array(what)?))
    }

    pub fn u32(&mut self, what: &str) -> Result<u32, LoadError> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    pub fn i32(&mut self, what: &str) -> Result<i32, LoadError> {
        Ok(i32::from_le_bytes(self.array(what)?))
    }

    pub fn u64(&mut self, what: &str) -> Result<u64, LoadError> {
        Ok(u64::from_le_bytes(self.array(what)?))
    }

    pub fn f32(&mut self, what: &str) -> Result<f32, LoadError> {
        Ok(f32::from_le_bytes(self.array(what)?))
    }

    pub fn vec2(&mut self, what: &str) -> Result<Vec2, LoadError> {
        Ok(Vec2::new(self.f32(what)?, self.f32(what)?))
    }

    pub fn vec3(&mut self, what: &str) -> Result<Vec3, LoadError> {
        Ok(Vec3::new(self.f32(what)?, self.f32(what)?, self.f32(what)?))
    }

    /// Four floats stored x, y, z, w.
    pub fn quat_xyzw(&mut self, what: &str) -> Result<Quat, LoadError> {
        Ok(Quat::from_xyzw(self.f32(what)?, self.f32(what)?, self.f32(what)?, self.f32(what)?))
    }

    /// A non-negative `i32` count or offset; a negative one is a [`LoadErrorKind::Malformed`] error naming it.
    pub fn index(&mut self, what: &str) -> Result<usize, LoadError> {
        let at = self.offset();
        let value = self.i32(what)?;
        usize::try_from(value).map_err(|_| LoadError::at_byte(at, format!("{what} is {value}, a negative number")))
    }

    /// A fixed-size text field (`char name[64]`): up to its first NUL, decoded as Windows-1252 (what the game
    /// tools of these formats write), trailing spaces kept.
    pub fn fixed_str(&mut self, n: usize, what: &str) -> Result<String, LoadError> {
        Ok(decode_c_str(self.take(n, what)?))
    }

    /// A NUL-terminated string; fails when no NUL follows before the end.
    pub fn c_str(&mut self, what: &str) -> Result<String, LoadError> {
        let rest = &self.bytes[self.pos..];
        let Some(len) = memchr::memchr(0, rest) else {
            return Err(LoadError::truncated(self.offset(), format!("{what}: the string has no end (no NUL byte)")));
        };
        let text = decode_c_str(&rest[..len]);
        self.pos += len + 1;
        Ok(text)
    }

    /// A line of text ending in `\n` (the `\n` and a `\r` before it dropped), or the rest of the bytes; `None`
    /// at the end.
    pub fn line(&mut self) -> Option<String> {
        if self.at_end() {
            return None;
        }
        let rest = &self.bytes[self.pos..];
        let len = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        self.pos += (len + 1).min(rest.len());
        let line = rest[..len].strip_suffix(b"\r").unwrap_or(&rest[..len]);
        Some(decode_c_str(line))
    }

    /// Checks that `count` records of `record_size` bytes fit in what remains, and returns `count` as the
    /// length to allocate. The only way a count read from a file should size an allocation.
    pub fn count(&self, count: u64, record_size: usize, what: &str) -> Result<usize, LoadError> {
        check_count(self.remaining(), self.offset(), count, record_size, what)
    }

    fn past_end(&self, at: u64, needed: u64, what: &str) -> LoadError {
        let end = self.base + self.bytes.len() as u64;
        LoadError::truncated(
            at,
            format!("{what}: {needed} bytes at byte {at} run past the end of the data at byte {end}"),
        )
    }
}

/// `count` records of `record_size` bytes at `at`, checked against `available` bytes; errors say where.
pub fn check_count(available: usize, at: u64, count: u64, record_size: usize, what: &str) -> Result<usize, LoadError> {
    let needed = count.checked_mul(record_size as u64);
    match needed {
        Some(needed) if needed <= available as u64 => Ok(count as usize),
        _ => Err(LoadError::truncated(
            at,
            format!("{what}: {count} records of {record_size} bytes do not fit in the {available} bytes that remain"),
        )),
    }
}

/// `n` bytes at `start` of `bytes`, or `None` when they run past its end (or the sum overflows).
pub fn slice_at(bytes: &[u8], start: usize, n: usize) -> Option<&[u8]> {
    bytes.get(start..start.checked_add(n)?)
}

/// A table of `count` records of `record_size` bytes at `offset` of a whole file (the offset/count pairs of
/// compiled model headers), checked against the file's length before anything is read or allocated. Returns a
/// cursor over the table; its offsets are file offsets.
pub fn table<'a>(
    file: &'a [u8],
    offset: i64,
    count: i64,
    record_size: usize,
    what: &str,
) -> Result<Reader<'a>, LoadError> {
    let bad = |message: String| LoadError::new(crate::scene::Position::File, message);
    let count = u64::try_from(count).map_err(|_| bad(format!("{what}: the count is {count}, a negative number")))?;
    if count == 0 {
        return Ok(Reader::with_base(&[], 0));
    }
    let start = u64::try_from(offset).map_err(|_| bad(format!("{what}: the offset is {offset}, a negative number")))?;
    let len = count.checked_mul(record_size as u64);
    let end = len.and_then(|len| start.checked_add(len));
    match end {
        Some(end) if end <= file.len() as u64 => {
            let (start, end) = (start as usize, end as usize);
            Ok(Reader::with_base(&file[start..end], start as u64))
        }
        _ => Err(LoadError::truncated(
            start,
            format!(
                "{what}: {count} records of {record_size} bytes at byte {start} run past the end of the file at byte {}",
                file.len()
            ),
        )),
    }
}

/// Text up to the first NUL, Windows-1252.
pub fn decode_c_str(bytes: &[u8]) -> String {
    let end = memchr::memchr(0, bytes).unwrap_or(bytes.len());
    encoding_rs::WINDOWS_1252.decode_without_bom_handling(&bytes[..end]).0.into_owned()
}

/// Whether an error is the data ending early (for readers that turn a short optional tail into a warning).
pub fn is_truncation(error: &LoadError) -> bool {
    error.kind == LoadErrorKind::Truncated
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_values_and_names_the_offset_of_a_short_read() {
        let bytes = [1, 0, 0, 0, 0, 0, 128, 63, 7];
        let mut r = Reader::with_base(&bytes, 100);
        assert_eq!(r.u32("count").unwrap(), 1);
        assert_eq!(r.f32("scale").unwrap(), 1.0);
        assert_eq!(r.offset(), 108);
        let e = r.u32("bone count").unwrap_err();
        assert_eq!(e.kind, LoadErrorKind::Truncated);
        assert_eq!(e.position, crate::scene::Position::Byte(108));
        assert!(e.message.starts_with("bone count: 4 bytes"), "{}", e.message);
        // A failed read leaves the cursor where it was.
        assert_eq!(r.u8("tail").unwrap(), 7);
    }

    #[test]
    fn counts_from_the_file_are_checked_before_allocation() {
        let bytes = [0u8; 16];
        let r = Reader::new(&bytes);
        assert_eq!(r.count(4, 4, "weights").unwrap(), 4);
        assert!(r.count(5, 4, "weights").is_err());
        assert!(r.count(u64::MAX, 8, "weights").is_err());
        assert!(table(&bytes, 8, 2, 4, "bones").is_ok());
        assert!(table(&bytes, 8, 3, 4, "bones").is_err());
        assert!(table(&bytes, -1, 1, 4, "bones").is_err());
        assert!(table(&bytes, i64::MAX, 1, 4, "bones").is_err());
        assert!(table(&bytes, 1 << 40, 0, 4, "bones").unwrap().is_empty());
    }

    #[test]
    fn strings_fixed_and_terminated() {
        let mut r = Reader::new(b"Bip01\0\0\0pelvis\0tail");
        assert_eq!(r.fixed_str(8, "name").unwrap(), "Bip01");
        assert_eq!(r.c_str("name").unwrap(), "pelvis");
        assert!(r.c_str("name").is_err());
        let mut lines = Reader::new(b"a\r\nb\nc");
        assert_eq!(lines.line().as_deref(), Some("a"));
        assert_eq!(lines.line().as_deref(), Some("b"));
        assert_eq!(lines.line().as_deref(), Some("c"));
        assert_eq!(lines.line(), None);
    }
}
