//! ZenGin compiled textures (`-C.TEX`, "ZTEX") → RGBA8 pixels of the largest mip level, as [`crate::io::vtf`]
//! does for Source textures: pure bytes → pixels; finding the file (`FOO.TGA` → `FOO-C.TEX`) is
//! [`crate::io::textures`], uploading it the renderer's and the glTF export's.
//!
//! The layout is ZenKit's (`src/Texture.cc`, `docs/engine/formats/texture.md`): the magic `ZTEX`, version 0,
//! the format, width, height, mip count, reference width and height and the average colour (ARGB), then for
//! the palettised format 256 palette entries, then the mip levels from the smallest to the largest (so the
//! largest is the last). Formats, as numbered in the file: 0 B8G8R8A8, 1 R8G8B8A8, 2 A8B8G8R8, 3 A8R8G8B8,
//! 4 B8G8R8, 5 R8G8B8, 6 A4R4G4B4, 7 A1R5G5B5, 8 R5G6B5, 9 P8, 10–14 DXT1–DXT5.
//!
//! Channel order: the names are read as Direct3D names its formats, the first channel in the highest bits of
//! the pixel as a little-endian word (A8R8G8B8 is the bytes B, G, R, A), which is how the format page says to
//! read every colour of the file ("word order": the palette and the average colour are so read by ZenKit too)
//! and how NicoDE's `ztex2dds` (the converter modders use, kept in ZenLib's `ztex2dds.cpp`) writes the DDS pixel
//! masks of each format. ZenKit's `_ztex_to_rgba` reads the 32- and 24-bit formats in byte order instead (it
//! takes A8R8G8B8 as the bytes A, R, G, B); where the two disagree this follows the file's own documentation
//! and the converter. The palette's fourth byte is its alpha (ZenKit); a palette whose alphas are all 0 is read
//! as opaque (Direct3D's palette entries carry flags there, not alpha), with a note.
//!
//! DXT1/3/5 blocks are decoded with `bcdec_rs`, as for VTF; DXT2 and DXT4 (premultiplied alpha) decode as DXT3
//! and DXT5, with a note. Mip sizes are Direct3D's (blocks rounded up); ZenKit and ZenLib round a level's size
//! down to whole blocks, which differs only for levels whose sides are not multiples of 4: such a file is
//! read as they lay it out when that is what its size fits, with a note. Every size is checked against the
//! bytes there are before anything is allocated.

use crate::io::binary::Reader;
use crate::io::{LoadError, LoadErrorKind};

/// The magic at the start of every ZTEX file.
pub const MAGIC: &[u8; 4] = b"ZTEX";

/// Bytes of the header.
const HEADER_LEN: u64 = 36;
/// Bytes of the P8 palette (256 four-byte entries).
const PALETTE_LEN: u64 = 1024;
/// The largest side accepted (the engine's textures are at most a few thousand pixels wide).
const MAX_SIDE: u32 = 1 << 15;

/// A texture format, as numbered in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZtexFormat(pub u32);

const FORMAT_NAMES: [&str; 15] = [
    "B8G8R8A8", "R8G8B8A8", "A8B8G8R8", "A8R8G8B8", "B8G8R8", "R8G8B8", "A4R4G4B4", "A1R5G5B5", "R5G6B5", "P8", "DXT1",
    "DXT2", "DXT3", "DXT4", "DXT5",
];

impl ZtexFormat {
    /// ZenKit's name of the format (`DXT1`, `A8R8G8B8`), or `?` for a number it does not know.
    pub fn name(self) -> &'static str {
        FORMAT_NAMES.get(self.0 as usize).copied().unwrap_or("?")
    }

    /// Bytes per 4×4 block for the DXT formats, `None` for the others.
    fn block_bytes(self) -> Option<u64> {
        match self.0 {
            10 => Some(8),
            11..=14 => Some(16),
            _ => None,
        }
    }

    /// Bytes per pixel of the other formats.
    fn pixel_bytes(self) -> Option<u64> {
        match self.0 {
            0..=3 => Some(4),
            4 | 5 => Some(3),
            6..=8 => Some(2),
            9 => Some(1),
            _ => None,
        }
    }

    /// Bytes of a `width`×`height` image; `whole_blocks` rounds DXT sizes down (ZenKit's reading).
    fn image_size(self, width: u32, height: u32, whole_blocks_down: bool) -> u64 {
        let (w, h) = (u64::from(width.max(1)), u64::from(height.max(1)));
        match (self.block_bytes(), self.pixel_bytes()) {
            (Some(block), _) if whole_blocks_down => (w / 4).max(1) * (h / 4).max(1) * block,
            (Some(block), _) => w.div_ceil(4) * h.div_ceil(4) * block,
            (None, Some(pixel)) => w * h * pixel,
            (None, None) => 0,
        }
    }
}

/// A ZTEX header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZtexHeader {
    pub format: ZtexFormat,
    pub width: u32,
    pub height: u32,
    /// Mip levels stored (at least 1).
    pub mip_count: u32,
    pub reference_width: u32,
    pub reference_height: u32,
    /// The average colour, ARGB (`0xAARRGGBB`).
    pub average_color: u32,
}

/// Decoded pixels of the largest mip level: `width * height` RGBA8 pixels, rows top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZtexImage {
    pub header: ZtexHeader,
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
    /// How the file was read where that is in doubt (a dialect), for a warning.
    pub notes: Vec<String>,
}

/// True when `bytes` start with the ZTEX magic.
pub fn is_ztex(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The header of a ZTEX file.
pub fn read_header(bytes: &[u8]) -> Result<ZtexHeader, LoadError> {
    let mut r = Reader::new(bytes);
    if r.take(4, "ZTEX magic")? != MAGIC {
        return Err(LoadError::at_byte(0, "not a ZenGin texture (it does not start with \"ZTEX\")")
            .with_kind(LoadErrorKind::NotThisFormat));
    }
    let version = r.u32("ZTEX version")?;
    if version != 0 {
        return Err(LoadError::at_byte(4, format!("ZTEX version {version} is not supported (only 0 exists)"))
            .with_kind(LoadErrorKind::Unsupported));
    }
    let format = ZtexFormat(r.u32("ZTEX format")?);
    let header = ZtexHeader {
        format,
        width: r.u32("ZTEX width")?,
        height: r.u32("ZTEX height")?,
        mip_count: r.u32("ZTEX mip count")?.max(1),
        reference_width: r.u32("ZTEX reference width")?,
        reference_height: r.u32("ZTEX reference height")?,
        average_color: r.u32("ZTEX average colour")?,
    };
    if format.0 > 14 {
        return Err(LoadError::at_byte(
            8,
            format!("ZTEX format number {} is not a known format (0 to 14 are)", format.0),
        )
        .with_kind(LoadErrorKind::Unsupported));
    }
    if header.width == 0 || header.height == 0 || header.width > MAX_SIDE || header.height > MAX_SIDE {
        return Err(LoadError::at_byte(
            12,
            format!("the ZTEX image is {}×{} pixels (1 to {MAX_SIDE} a side are read)", header.width, header.height),
        ));
    }
    // Halving stops at 1×1: more levels than that are not a mip chain.
    let most = 32 - header.width.max(header.height).leading_zeros();
    if header.mip_count > most {
        return Err(LoadError::at_byte(
            20,
            format!(
                "{} mip levels for a {}×{} image, which has {most} at most",
                header.mip_count, header.width, header.height
            ),
        ));
    }
    Ok(header)
}

fn mip_side(side: u32, level: u32) -> u32 {
    (side >> level).max(1)
}

/// Decodes the largest mip level of a ZTEX file to RGBA8.
pub fn decode(bytes: &[u8]) -> Result<ZtexImage, LoadError> {
    let header = read_header(bytes)?;
    let format = header.format;
    let mut notes = Vec::new();
    let data_start = HEADER_LEN + if format.0 == 9 { PALETTE_LEN } else { 0 };
    let available = (bytes.len() as u64).saturating_sub(data_start);
    // The smaller levels come first; the largest is after them.
    let chain = |down: bool| -> (u64, u64) {
        let smaller: u64 = (1..header.mip_count)
            .map(|level| format.image_size(mip_side(header.width, level), mip_side(header.height, level), down))
            .sum();
        (smaller, format.image_size(header.width, header.height, down))
    };
    let (mut skip, mut size) = chain(false);
    if skip + size > available {
        let (down_skip, down_size) = chain(true);
        if down_skip + down_size <= available && (down_skip, down_size) != (skip, size) {
            notes.push(
                "the mip levels are laid out with sizes rounded down to whole 4×4 blocks (ZenKit's and ZenLib's \
                 reading), which is what the file's size fits"
                    .to_owned(),
            );
            (skip, size) = (down_skip, down_size);
        } else {
            return Err(LoadError::truncated(
                bytes.len() as u64,
                format!(
                    "the {} mip levels of a {}×{} {} texture need {} bytes after byte {data_start}; the file has {available}",
                    header.mip_count,
                    header.width,
                    header.height,
                    format.name(),
                    skip + size
                ),
            ));
        }
    }
    let start = (data_start + skip) as usize;
    let data = &bytes[start..start + size as usize];
    let (w, h) = (header.width as usize, header.height as usize);
    let rgba = match format.0 {
        10 => blocks(data, w, h, 8, bcdec_rs::bc1),
        11 | 12 => blocks(data, w, h, 16, bcdec_rs::bc2),
        13 | 14 => blocks(data, w, h, 16, bcdec_rs::bc3),
        9 => {
            let palette = &bytes[HEADER_LEN as usize..(HEADER_LEN + PALETTE_LEN) as usize];
            let opaque = palette.chunks_exact(4).all(|e| e[3] == 0);
            if opaque {
                notes.push("every palette entry's alpha is 0: the palette is read as opaque".to_owned());
            }
            let mut out = Vec::with_capacity(w * h * 4);
            for &index in data {
                let e = &palette[usize::from(index) * 4..usize::from(index) * 4 + 4];
                out.extend_from_slice(&[e[2], e[1], e[0], if opaque { 255 } else { e[3] }]);
            }
            out
        }
        // Word order: the first channel of the name in the highest bits (see the module's notes).
        0 => pixels(data, 4, |p| [p[1], p[2], p[3], p[0]]),
        1 => pixels(data, 4, |p| [p[3], p[2], p[1], p[0]]),
        2 => pixels(data, 4, |p| [p[0], p[1], p[2], p[3]]),
        3 => pixels(data, 4, |p| [p[2], p[1], p[0], p[3]]),
        4 => pixels(data, 3, |p| [p[0], p[1], p[2], 255]),
        5 => pixels(data, 3, |p| [p[2], p[1], p[0], 255]),
        6 => pixels(data, 2, |p| {
            let v = u16::from_le_bytes([p[0], p[1]]);
            let c = |shift: u16| ((v >> shift) & 0xF) as u8 * 17;
            [c(8), c(4), c(0), c(12)]
        }),
        7 => pixels(data, 2, |p| {
            let v = u16::from_le_bytes([p[0], p[1]]);
            let c = |shift: u16| widen((v >> shift) & 0x1F, 5);
            [c(10), c(5), c(0), if v & 0x8000 != 0 { 255 } else { 0 }]
        }),
        _ => pixels(data, 2, |p| {
            let v = u16::from_le_bytes([p[0], p[1]]);
            [widen(v >> 11, 5), widen((v >> 5) & 0x3F, 6), widen(v & 0x1F, 5), 255]
        }),
    };
    if matches!(format.0, 11 | 13) {
        notes.push(format!(
            "{} (premultiplied alpha) is decoded as {}",
            format.name(),
            ZtexFormat(format.0 + 1).name()
        ));
    }
    Ok(ZtexImage { header, width: header.width, height: header.height, rgba, notes })
}

fn pixels(data: &[u8], size: usize, convert: impl Fn(&[u8]) -> [u8; 4]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / size * 4);
    for p in data.chunks_exact(size) {
        out.extend_from_slice(&convert(p));
    }
    out
}

/// Five or six bits widened to eight by repeating the high bits.
fn widen(value: u16, bits: u32) -> u8 {
    let v = u32::from(value);
    ((v << (8 - bits)) | (v >> (2 * bits - 8))) as u8
}

/// Decodes 4×4 blocks of `block` bytes each; partial blocks at the right and bottom edges are cropped.
fn blocks(data: &[u8], width: usize, height: usize, block: usize, decode: fn(&[u8], &mut [u8], usize)) -> Vec<u8> {
    let mut out = vec![0u8; width * height * 4];
    let across = width.div_ceil(4);
    let mut tile = [0u8; 64];
    for (i, compressed) in data.chunks_exact(block).enumerate() {
        let (bx, by) = (i % across * 4, i / across * 4);
        decode(compressed, &mut tile, 16);
        for row in 0..4.min(height.saturating_sub(by)) {
            let columns = 4.min(width.saturating_sub(bx));
            let at = ((by + row) * width + bx) * 4;
            if let (Some(dst), Some(src)) =
                (out.get_mut(at..at + columns * 4), tile.get(row * 16..row * 16 + columns * 4))
            {
                dst.copy_from_slice(src);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ZTEX file of `format` whose levels (smallest first) are given; a palette for P8.
    fn ztex(format: u32, width: u32, height: u32, levels: &[Vec<u8>], palette: Option<&[u8]>) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        for v in [0, format, width, height, levels.len() as u32, width, height, 0xFF10_2030] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        if let Some(p) = palette {
            b.extend_from_slice(p);
        }
        for level in levels {
            b.extend_from_slice(level);
        }
        b
    }

    #[test]
    fn uncompressed_formats_read_in_word_order() {
        // One 1×1 pixel: red 0x11, green 0x22, blue 0x33, alpha 0x44, stored as each format stores it.
        let cases: [(u32, Vec<u8>); 6] = [
            (0, vec![0x44, 0x11, 0x22, 0x33]), // B8G8R8A8: the word 0xBBGGRRAA
            (1, vec![0x44, 0x33, 0x22, 0x11]), // R8G8B8A8: 0xRRGGBBAA
            (2, vec![0x11, 0x22, 0x33, 0x44]), // A8B8G8R8: 0xAABBGGRR
            (3, vec![0x33, 0x22, 0x11, 0x44]), // A8R8G8B8: 0xAARRGGBB (Direct3D's, bytes B G R A)
            (4, vec![0x11, 0x22, 0x33]),       // B8G8R8: 0xBBGGRR
            (5, vec![0x33, 0x22, 0x11]),       // R8G8B8: 0xRRGGBB
        ];
        for (format, pixel) in cases {
            let image = decode(&ztex(format, 1, 1, &[pixel], None)).unwrap();
            let alpha = if format >= 4 { 0xFF } else { 0x44 };
            assert_eq!(image.rgba, [0x11, 0x22, 0x33, alpha], "{}", ZtexFormat(format).name());
        }
        // 16-bit: R5G6B5 pure red, A1R5G5B5 opaque green, A4R4G4B4 half-transparent blue.
        assert_eq!(decode(&ztex(8, 1, 1, &[0xF800u16.to_le_bytes().to_vec()], None)).unwrap().rgba, [255, 0, 0, 255]);
        assert_eq!(decode(&ztex(7, 1, 1, &[0x83E0u16.to_le_bytes().to_vec()], None)).unwrap().rgba, [0, 255, 0, 255]);
        assert_eq!(decode(&ztex(6, 1, 1, &[0x800Fu16.to_le_bytes().to_vec()], None)).unwrap().rgba, [0, 0, 255, 136]);
    }

    #[test]
    fn the_largest_level_is_the_last_and_palettes_index_bgra_entries() {
        let mut palette = vec![0u8; 1024];
        palette[4..8].copy_from_slice(&[0x30, 0x20, 0x10, 0x80]); // entry 1: B G R A
        // A 2×2 P8 texture with its 1×1 level first.
        let bytes = ztex(9, 2, 2, &[vec![0], vec![1, 0, 0, 1]], Some(&palette));
        let image = decode(&bytes).unwrap();
        assert_eq!((image.width, image.height), (2, 2));
        assert_eq!(&image.rgba[..4], [0x10, 0x20, 0x30, 0x80]);
        assert_eq!(&image.rgba[4..8], [0, 0, 0, 0]);
        // A palette with no alpha at all is opaque, and says so.
        palette[7] = 0;
        let image = decode(&ztex(9, 2, 2, &[vec![0], vec![1, 0, 0, 1]], Some(&palette))).unwrap();
        assert_eq!(&image.rgba[..4], [0x10, 0x20, 0x30, 0xFF]);
        assert_eq!(image.notes.len(), 1);
    }

    #[test]
    fn dxt_levels_and_hostile_headers() {
        // A 4×4 DXT1 block of one colour (both endpoints pure green in 5:6:5), with its 2×2 and 1×1 levels.
        let block = [0xE0, 0x07, 0xE0, 0x07, 0, 0, 0, 0].to_vec();
        let bytes = ztex(10, 4, 4, &[block.clone(), block.clone(), block.clone()], None);
        let image = decode(&bytes).unwrap();
        assert_eq!(image.rgba.len(), 64);
        assert!(image.rgba.chunks(4).all(|p| p == [0, 255, 0, 255]));
        // Truncated data, a giant size, an absurd mip count, an unknown format: errors, no allocation.
        assert_eq!(decode(&bytes[..bytes.len() - 1]).unwrap_err().kind, LoadErrorKind::Truncated);
        let mut giant = ztex(3, 30000, 30000, &[vec![0; 4]], None);
        assert_eq!(decode(&giant).unwrap_err().kind, LoadErrorKind::Truncated);
        giant[20..24].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(decode(&giant).unwrap_err().to_string().contains("mip levels"));
        assert_eq!(decode(&ztex(15, 4, 4, &[block], None)).unwrap_err().kind, LoadErrorKind::Unsupported);
        assert_eq!(decode(b"ZTEX").unwrap_err().kind, LoadErrorKind::Truncated);
        assert_eq!(decode(b"DDS |").unwrap_err().kind, LoadErrorKind::NotThisFormat);
    }
}
