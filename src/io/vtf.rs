//! Valve Texture Format (`.vtf`, Source engine textures) → RGBA8 pixels: the header of versions 7.0–7.5 (7.3 on
//! with the resource directory, whose `\x30\0\0` entry is the image data and `\x01\0\0` the thumbnail), and
//! the first frame, face and slice of the largest mip level, which VTF stores last (levels run from the smallest
//! up, each holding every frame, face and slice). Pure bytes → pixels: the renderer and the glTF export turn
//! the result into their textures; nothing here reads a file or knows the GPU.
//!
//! Formats: DXT1, DXT1_ONEBITALPHA, DXT3, DXT5, the 8-bit-per-channel orders (RGBA8888, ABGR8888, ARGB8888 in
//! the engine's `ARGB8888_t` byte order a, r, g, b, BGRA8888, BGRX8888, RGB888, BGR888), I8, IA88, A8, and the
//! 16-bit BGR565, RGB565, BGRA4444, BGRA5551 and BGRX5551. Any other format is a [`VtfError::Unsupported`]
//! naming it as VTF does (`RGBA16161616F`), which reaches the user as a warning on the material.
//!
//! Block decoding is `bcdec_rs` (a safe, dependency-free port of the reference `bcdec` decoder, ~2k lines),
//! not the `vtf` crate: that one requires the `image` crate (which this library keeps behind the `gui`
//! feature, so `--no-default-features` builds stay small), lacks I8/IA88/A8/ARGB/ABGR/BGRX, and slices the
//! file by the header's sizes without checking them, so a truncated file panics. The `image` crate's DDS reader
//! could decode the blocks only under `gui`. Every size here is computed with checked arithmetic and compared
//! with the bytes there are before anything is allocated: the output is at most eight times the input (DXT1).

use thiserror::Error;

/// The magic at the start of every VTF file.
pub const MAGIC: &[u8; 4] = b"VTF\0";

/// `TEXTUREFLAGS_ENVMAP`: a cube map (6 faces, 7 with the sphere map before 7.5).
const FLAG_ENVMAP: u32 = 0x4000;

/// The resource directory's tag of the image data (7.3+).
const HIGH_RES_TAG: [u8; 3] = [0x30, 0, 0];

/// Why a VTF gave no pixels.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum VtfError {
    #[error("not a VTF file (it does not start with \"VTF\\0\")")]
    NotVtf,
    #[error("VTF version {0}.{1} is not supported (7.0 to 7.5 are)")]
    Version(u32, u32),
    #[error("the VTF file ends at byte {len}, inside its {what} (which needs {needed} bytes)")]
    Truncated { what: &'static str, needed: u64, len: usize },
    #[error("VTF format {0} is not supported")]
    Unsupported(&'static str),
    #[error("VTF format number {0} is not a known format")]
    UnknownFormat(i32),
    #[error("the VTF image is {0}×{1} pixels")]
    EmptyImage(u16, u16),
    #[error("the VTF resource directory has no image data entry")]
    NoImageResource,
}

/// A VTF image format, as numbered in the file (`IMAGE_FORMAT_*` of the Source SDK's `imageformat.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VtfFormat(pub i32);

/// VTF's names of its formats, by number (0 to 38); `NONE` is -1.
const FORMAT_NAMES: [&str; 39] = [
    "RGBA8888",
    "ABGR8888",
    "RGB888",
    "BGR888",
    "RGB565",
    "I8",
    "IA88",
    "P8",
    "A8",
    "RGB888_BLUESCREEN",
    "BGR888_BLUESCREEN",
    "ARGB8888",
    "BGRA8888",
    "DXT1",
    "DXT3",
    "DXT5",
    "BGRX8888",
    "BGR565",
    "BGRX5551",
    "BGRA4444",
    "DXT1_ONEBITALPHA",
    "BGRA5551",
    "UV88",
    "UVWQ8888",
    "RGBA16161616F",
    "RGBA16161616",
    "UVLX8888",
    "R32F",
    "RGB323232F",
    "RGBA32323232F",
    "NV_DST16",
    "NV_DST24",
    "NV_INTZ",
    "NV_RAWZ",
    "ATI_DST16",
    "ATI_DST24",
    "NV_NULL",
    "ATI2N",
    "ATI1N",
];

/// How a format's pixels are stored: bytes per pixel, or bytes per 4×4 block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    Pixel(u64),
    Block(u64),
}

impl VtfFormat {
    pub const NONE: VtfFormat = VtfFormat(-1);

    /// The format's name as VTF tools write it (`DXT5`, `RGBA16161616F`).
    pub fn name(self) -> &'static str {
        if self == Self::NONE {
            return "NONE";
        }
        usize::try_from(self.0).ok().and_then(|i| FORMAT_NAMES.get(i)).copied().unwrap_or("unknown")
    }

    fn layout(self) -> Result<Layout, VtfError> {
        Ok(match self.0 {
            -1 => Layout::Pixel(0),
            5 | 7 | 8 | 30 | 31 | 32 | 33 | 34 | 35 | 36 => Layout::Pixel(1),
            4 | 6 | 17 | 18 | 19 | 21 | 22 => Layout::Pixel(2),
            2 | 3 | 9 | 10 => Layout::Pixel(3),
            0 | 1 | 11 | 12 | 16 | 23 | 26 | 27 => Layout::Pixel(4),
            24 | 25 => Layout::Pixel(8),
            28 => Layout::Pixel(12),
            29 => Layout::Pixel(16),
            13 | 20 | 38 => Layout::Block(8),
            14 | 15 | 37 => Layout::Block(16),
            n => return Err(VtfError::UnknownFormat(n)),
        })
    }

    /// Bytes of one `width`×`height` image of this format.
    fn image_size(self, width: u32, height: u32) -> Result<u64, VtfError> {
        let (w, h) = (u64::from(width), u64::from(height));
        Ok(match self.layout()? {
            Layout::Pixel(bytes) => w * h * bytes,
            Layout::Block(bytes) => w.div_ceil(4).max(1) * h.div_ceil(4).max(1) * bytes,
        })
    }

    /// True for the formats [`decode`] turns into pixels.
    pub fn is_supported(self) -> bool {
        matches!(self.0, 0..=6 | 8 | 11..=21)
    }

    /// `Ok` for a format [`decode`] reads; else the error that names it.
    pub fn check(self) -> Result<(), VtfError> {
        if self.is_supported() {
            return Ok(());
        }
        self.layout()?;
        Err(VtfError::Unsupported(self.name()))
    }
}

/// What the header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VtfHeader {
    /// `(7, minor)`.
    pub version: (u32, u32),
    pub width: u16,
    pub height: u16,
    pub flags: u32,
    pub frames: u16,
    pub first_frame: u16,
    pub format: VtfFormat,
    pub mip_count: u8,
    pub low_res_format: VtfFormat,
    pub low_res_width: u8,
    pub low_res_height: u8,
    /// Slices of a volume texture (1 before 7.2).
    pub depth: u16,
    /// Size of the header as the file says (the thumbnail follows it before 7.3).
    pub header_size: u32,
}

impl VtfHeader {
    /// Faces per frame: 1, or 6 for a cube map (7 with its sphere map before 7.5, unless the first frame is
    /// `0xFFFF`), as VTFLib counts them.
    pub fn faces(&self) -> u32 {
        if self.flags & FLAG_ENVMAP == 0 {
            1
        } else if self.version.1 < 5 && self.first_frame != 0xFFFF {
            7
        } else {
            6
        }
    }
}

/// Decoded pixels: `rgba` holds `width * height` RGBA8 pixels, rows top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VtfImage {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

/// True when `bytes` start with the VTF magic.
pub fn is_vtf(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    bytes.get(at..at + 2).and_then(|b| b.try_into().ok()).map_or(0, u16::from_le_bytes)
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    bytes.get(at..at + 4).and_then(|b| b.try_into().ok()).map_or(0, u32::from_le_bytes)
}

/// Reads the header: the first 64 bytes (80 from 7.2 on) are enough, so a caller that only wants the format or
/// the size need not read the whole file.
pub fn read_header(bytes: &[u8]) -> Result<VtfHeader, VtfError> {
    if !is_vtf(bytes) {
        return Err(VtfError::NotVtf);
    }
    if bytes.len() < 16 {
        return Err(VtfError::Truncated { what: "header", needed: 63, len: bytes.len() });
    }
    let version = (u32_at(bytes, 4), u32_at(bytes, 8));
    if version.0 != 7 || version.1 > 5 {
        return Err(VtfError::Version(version.0, version.1));
    }
    let needed: usize = if version.1 >= 2 { 65 } else { 63 };
    if bytes.len() < needed {
        return Err(VtfError::Truncated { what: "header", needed: needed as u64, len: bytes.len() });
    }
    let byte = |at: usize| bytes.get(at).copied().unwrap_or(0);
    Ok(VtfHeader {
        version,
        header_size: u32_at(bytes, 12),
        width: u16_at(bytes, 16),
        height: u16_at(bytes, 18),
        flags: u32_at(bytes, 20),
        frames: u16_at(bytes, 24),
        first_frame: u16_at(bytes, 26),
        format: VtfFormat(u32_at(bytes, 52) as i32),
        mip_count: byte(56),
        low_res_format: VtfFormat(u32_at(bytes, 57) as i32),
        low_res_width: byte(61),
        low_res_height: byte(62),
        depth: if version.1 >= 2 { u16_at(bytes, 63).max(1) } else { 1 },
    })
}

/// Where the image data starts: the resource directory's entry from 7.3 on, else after the header and the
/// thumbnail.
fn image_data_offset(bytes: &[u8], header: &VtfHeader) -> Result<u64, VtfError> {
    if header.version.1 >= 3 {
        let count = u64::from(u32_at(bytes, 68));
        let needed = 80 + count * 8;
        if (bytes.len() as u64) < needed {
            return Err(VtfError::Truncated { what: "resource directory", needed, len: bytes.len() });
        }
        return bytes
            .get(80..)
            .unwrap_or_default()
            .chunks_exact(8)
            .take(count as usize)
            .find(|entry| entry.starts_with(&HIGH_RES_TAG))
            .map(|entry| u64::from(u32_at(entry, 4)))
            .ok_or(VtfError::NoImageResource);
    }
    let thumbnail = if header.low_res_format == VtfFormat::NONE {
        0
    } else {
        header.low_res_format.image_size(u32::from(header.low_res_width), u32::from(header.low_res_height))?
    };
    Ok(u64::from(header.header_size) + thumbnail)
}

/// `n` halved `level` times, at least 1.
fn mip_dimension(n: u32, level: u32) -> u32 {
    n.checked_shr(level).unwrap_or(0).max(1)
}

/// Decodes the first frame, face and slice of the largest mip level into RGBA8.
pub fn decode(bytes: &[u8]) -> Result<VtfImage, VtfError> {
    let header = read_header(bytes)?;
    let format = header.format;
    format.check()?;
    let (width, height) = (u32::from(header.width), u32::from(header.height));
    if width == 0 || height == 0 {
        return Err(VtfError::EmptyImage(header.width, header.height));
    }
    let start = image_data_offset(bytes, &header)?;
    // Every smaller level comes first, each with all its frames, faces and slices.
    let per_level = u64::from(header.frames.max(1)) * u64::from(header.faces());
    let mut skip: u64 = 0;
    for level in 1..u32::from(header.mip_count.max(1)) {
        let size = format.image_size(mip_dimension(width, level), mip_dimension(height, level))?;
        let slices = u64::from(mip_dimension(u32::from(header.depth), level));
        skip = skip.saturating_add(size.saturating_mul(per_level).saturating_mul(slices));
    }
    let size = format.image_size(width, height)?;
    let end = start.saturating_add(skip).saturating_add(size);
    let len = bytes.len();
    let truncated = || VtfError::Truncated { what: "largest mip level", needed: end, len };
    let from = usize::try_from(start.saturating_add(skip)).map_err(|_| truncated())?;
    let to = usize::try_from(end).map_err(|_| truncated())?;
    let data = bytes.get(from..to).ok_or_else(truncated)?;
    Ok(VtfImage { width, height, rgba: to_rgba(format, data, width as usize, height as usize) })
}

/// `data` (exactly one image of `format`, checked by the caller) as RGBA8.
fn to_rgba(format: VtfFormat, data: &[u8], width: usize, height: usize) -> Vec<u8> {
    match format.0 {
        13 | 20 => blocks(data, width, height, 8, bcdec_rs::bc1),
        14 => blocks(data, width, height, 16, bcdec_rs::bc2),
        15 => blocks(data, width, height, 16, bcdec_rs::bc3),
        0 => data.to_vec(),
        1 => pixels(data, 4, |p| [p[3], p[2], p[1], p[0]]),
        2 => pixels(data, 3, |p| [p[0], p[1], p[2], 255]),
        3 => pixels(data, 3, |p| [p[2], p[1], p[0], 255]),
        4 => pixels(data, 2, |p| rgb565(u16::from_le_bytes([p[0], p[1]]), false)),
        5 => pixels(data, 1, |p| [p[0], p[0], p[0], 255]),
        6 => pixels(data, 2, |p| [p[0], p[0], p[0], p[1]]),
        8 => pixels(data, 1, |p| [0, 0, 0, p[0]]),
        11 => pixels(data, 4, |p| [p[1], p[2], p[3], p[0]]),
        12 => pixels(data, 4, |p| [p[2], p[1], p[0], p[3]]),
        16 => pixels(data, 4, |p| [p[2], p[1], p[0], 255]),
        17 => pixels(data, 2, |p| rgb565(u16::from_le_bytes([p[0], p[1]]), true)),
        18 => pixels(data, 2, |p| bgra5551(u16::from_le_bytes([p[0], p[1]]), false)),
        19 => pixels(data, 2, |p| {
            let v = u16::from_le_bytes([p[0], p[1]]);
            let c = |shift: u16| ((v >> shift) & 0xF) as u8 * 17;
            [c(8), c(4), c(0), c(12)]
        }),
        21 => pixels(data, 2, |p| bgra5551(u16::from_le_bytes([p[0], p[1]]), true)),
        _ => Vec::new(),
    }
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

/// 5-6-5 bits, the first named channel in the low bits (the engine's `BGR565_t` bit fields: blue low, red
/// high; `RGB565` the other way round).
fn rgb565(v: u16, red_high: bool) -> [u8; 4] {
    let (high, mid, low) = (widen(v >> 11, 5), widen((v >> 5) & 0x3F, 6), widen(v & 0x1F, 5));
    if red_high { [high, mid, low, 255] } else { [low, mid, high, 255] }
}

/// 1-5-5-5 bits, alpha high, then red, green, blue.
fn bgra5551(v: u16, alpha: bool) -> [u8; 4] {
    let c = |shift: u16| widen((v >> shift) & 0x1F, 5);
    let a = if !alpha || v & 0x8000 != 0 { 255 } else { 0 };
    [c(10), c(5), c(0), a]
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

    /// A VTF file: header of `minor` version, an optional 1×1 DXT1 thumbnail, then `levels` (smallest first).
    fn vtf(minor: u32, format: i32, width: u16, height: u16, levels: &[Vec<u8>]) -> Vec<u8> {
        let thumbnail = [0u8; 8];
        let resources = minor >= 3;
        let header_size: u32 = if resources {
            80 + 2 * 8
        } else if minor >= 2 {
            80
        } else {
            64
        };
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&7u32.to_le_bytes());
        b.extend_from_slice(&minor.to_le_bytes());
        b.extend_from_slice(&header_size.to_le_bytes());
        b.extend_from_slice(&width.to_le_bytes());
        b.extend_from_slice(&height.to_le_bytes());
        b.extend_from_slice(&0u32.to_le_bytes()); // flags
        b.extend_from_slice(&1u16.to_le_bytes()); // frames
        b.extend_from_slice(&0u16.to_le_bytes()); // first frame
        b.extend_from_slice(&[0; 4]);
        b.extend_from_slice(&[0; 12]); // reflectivity
        b.extend_from_slice(&[0; 4]);
        b.extend_from_slice(&1f32.to_le_bytes());
        b.extend_from_slice(&format.to_le_bytes());
        b.push(levels.len() as u8);
        b.extend_from_slice(&13i32.to_le_bytes()); // thumbnail: DXT1
        b.extend_from_slice(&[1, 1]);
        if minor >= 2 {
            b.extend_from_slice(&1u16.to_le_bytes());
        }
        if resources {
            b.extend_from_slice(&[0; 3]);
            b.extend_from_slice(&2u32.to_le_bytes());
            b.extend_from_slice(&[0; 8]);
            // Image data first in the directory, the thumbnail after it.
            let thumb_at = header_size;
            let image_at = header_size + thumbnail.len() as u32;
            b.extend_from_slice(&[0x30, 0, 0, 0]);
            b.extend_from_slice(&image_at.to_le_bytes());
            b.extend_from_slice(&[0x01, 0, 0, 0]);
            b.extend_from_slice(&thumb_at.to_le_bytes());
        }
        b.resize(header_size as usize, 0);
        b.extend_from_slice(&thumbnail);
        for level in levels {
            b.extend_from_slice(level);
        }
        b
    }

    /// A DXT1 block: colour 0 red, colour 1 blue; the top row's pixels use codes 0, 1, 2, 3, the rest 0.
    fn red_blue_block() -> Vec<u8> {
        let mut block = Vec::new();
        block.extend_from_slice(&0xF800u16.to_le_bytes());
        block.extend_from_slice(&0x001Fu16.to_le_bytes());
        block.extend_from_slice(&[0b1110_0100, 0, 0, 0]);
        block
    }

    #[test]
    fn a_two_colour_dxt1_block_gives_its_colours() {
        for minor in [0, 1, 2, 3, 4, 5] {
            let file = vtf(minor, 13, 4, 4, &[red_blue_block()]);
            let image = decode(&file).unwrap_or_else(|e| panic!("7.{minor}: {e}"));
            assert_eq!((image.width, image.height), (4, 4));
            let px = |x: usize, y: usize| &image.rgba[(y * 4 + x) * 4..(y * 4 + x) * 4 + 4];
            assert_eq!(px(0, 0), [255, 0, 0, 255], "7.{minor}");
            assert_eq!(px(1, 0), [0, 0, 255, 255]);
            // Two thirds red, one third blue, and the other way round (colour 0 > colour 1: four colours).
            assert_eq!(px(2, 0), [170, 0, 85, 255]);
            assert_eq!(px(3, 0), [85, 0, 170, 255]);
            assert_eq!(px(3, 3), [255, 0, 0, 255]);
        }
    }

    #[test]
    fn the_largest_mip_is_decoded_not_a_smaller_one() {
        // 4×2 BGRA8888 with 3 levels: 1×1 (grey), 2×1 (green), 4×2 (the real one).
        let level = |w: usize, h: usize, bgra: [u8; 4]| bgra.repeat(w * h);
        let mut top = level(4, 2, [0, 0, 255, 255]);
        top[4..8].copy_from_slice(&[255, 0, 0, 128]); // pixel (1, 0): blue, half alpha
        let levels = [level(1, 1, [9, 9, 9, 255]), level(2, 1, [0, 255, 0, 255]), top];
        for minor in [2, 4, 5] {
            let image = decode(&vtf(minor, 12, 4, 2, &levels)).unwrap();
            assert_eq!((image.width, image.height), (4, 2));
            assert_eq!(image.rgba[0..4], [255, 0, 0, 255], "red, 7.{minor}");
            assert_eq!(image.rgba[4..8], [0, 0, 255, 128]);
            assert_eq!(image.rgba[28..32], [255, 0, 0, 255]);
        }
    }

    #[test]
    fn dxt5_alpha_and_partial_blocks() {
        // 6×2: two DXT5 blocks across, cropped to 2 columns and 2 rows of the second.
        let mut block = vec![255, 0, 0, 0, 0, 0, 0, 0]; // alpha 255 everywhere (code 0)
        block.extend_from_slice(&0x07E0u16.to_le_bytes()); // green
        block.extend_from_slice(&0x07E0u16.to_le_bytes());
        block.extend_from_slice(&[0; 4]);
        let mut second = vec![0, 0, 0, 0, 0, 0, 0, 0]; // alpha 0
        second.extend_from_slice(&[0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]); // white
        let image = decode(&vtf(4, 15, 6, 2, &[[block, second].concat()])).unwrap();
        assert_eq!(image.rgba.len(), 6 * 2 * 4);
        assert_eq!(image.rgba[0..4], [0, 255, 0, 255]);
        assert_eq!(image.rgba[(6 + 5) * 4..(6 + 6) * 4], [255, 255, 255, 0]);
    }

    #[test]
    fn uncompressed_orders_and_grey_formats() {
        let one = |format: i32, bytes: &[u8]| decode(&vtf(2, format, 1, 1, &[bytes.to_vec()])).unwrap().rgba;
        assert_eq!(one(0, &[1, 2, 3, 4]), [1, 2, 3, 4]);
        assert_eq!(one(1, &[4, 3, 2, 1]), [1, 2, 3, 4], "ABGR8888");
        assert_eq!(one(2, &[1, 2, 3]), [1, 2, 3, 255], "RGB888");
        assert_eq!(one(3, &[3, 2, 1]), [1, 2, 3, 255], "BGR888");
        assert_eq!(one(11, &[4, 1, 2, 3]), [1, 2, 3, 4], "ARGB8888");
        assert_eq!(one(12, &[3, 2, 1, 4]), [1, 2, 3, 4], "BGRA8888");
        assert_eq!(one(16, &[3, 2, 1, 0]), [1, 2, 3, 255], "BGRX8888");
        assert_eq!(one(5, &[7]), [7, 7, 7, 255], "I8");
        assert_eq!(one(6, &[7, 9]), [7, 7, 7, 9], "IA88");
        assert_eq!(one(8, &[9]), [0, 0, 0, 9], "A8");
        assert_eq!(one(17, &0x001Fu16.to_le_bytes()), [0, 0, 255, 255], "BGR565: blue in the low bits");
        assert_eq!(one(17, &0xF800u16.to_le_bytes()), [255, 0, 0, 255], "BGR565: red in the high bits");
        assert_eq!(one(4, &0x001Fu16.to_le_bytes()), [255, 0, 0, 255], "RGB565: red in the low bits");
        assert_eq!(one(19, &0xF00Fu16.to_le_bytes()), [0, 0, 255, 255], "BGRA4444");
        assert_eq!(one(21, &0x7C00u16.to_le_bytes()), [255, 0, 0, 0], "BGRA5551 without its alpha bit");
    }

    #[test]
    fn unsupported_formats_are_named() {
        let file = vtf(4, 24, 1, 1, &[vec![0; 8]]);
        let e = decode(&file).unwrap_err();
        assert_eq!(e.to_string(), "VTF format RGBA16161616F is not supported");
        assert_eq!(read_header(&file).unwrap().format.name(), "RGBA16161616F");
        assert_eq!(decode(&vtf(4, 99, 1, 1, &[vec![0; 8]])).unwrap_err(), VtfError::UnknownFormat(99));
    }

    #[test]
    fn hostile_headers_are_errors_not_panics_or_huge_allocations() {
        let good = vtf(5, 13, 64, 64, &[vec![0; 8 * 256]]);
        // Every truncation.
        for len in 0..good.len() {
            assert!(decode(&good[..len]).is_err(), "{len} bytes");
        }
        // A 65535² DXT5 with 255 levels in a few bytes: the size check refuses it before allocating.
        let mut huge = vtf(2, 15, 0xFFFF, 0xFFFF, &[vec![0; 16]]);
        huge[56] = 255;
        assert!(matches!(decode(&huge), Err(VtfError::Truncated { .. })));
        // A resource count far past the file.
        let mut many = good.clone();
        many[68..72].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(decode(&many), Err(VtfError::Truncated { what: "resource directory", .. })));
        // An image offset past the end.
        let mut far = good.clone();
        far[84..88].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(decode(&far).is_err());
        let mut version = good.clone();
        version[8] = 6;
        assert_eq!(decode(&version).unwrap_err().to_string(), "VTF version 7.6 is not supported (7.0 to 7.5 are)");
        assert_eq!(decode(b"DDS stuff").unwrap_err(), VtfError::NotVtf);
        let mut flat = good;
        flat[16..18].copy_from_slice(&0u16.to_le_bytes());
        assert_eq!(decode(&flat).unwrap_err(), VtfError::EmptyImage(0, 64));
    }
}
