//! ZenGin compiled textures: the corpus's `erz.tex` decodes to what ZenKit's `tests/TestTexture.cc` says it is
//! (a 128×128 DXT1 texture of 5 mip levels whose average colour is `0xff443a3c`), and its pixels are the ones an
//! independent DXT1 decoder (the `image` crate's DDS reader) makes of the same blocks.

mod common;

use bonescope::io::zengin::tex;

#[test]
fn erz_tex_is_what_zenkit_says_and_its_pixels_average_to_its_stated_colour() {
    let Some(path) = common::corpus_file("zengin/erz.tex") else { return };
    let bytes = std::fs::read(path).unwrap();
    let image = tex::decode(&bytes).unwrap();
    let h = image.header;
    assert_eq!((h.width, h.height, h.mip_count, h.format.name()), (128, 128, 5, "DXT1"));
    assert_eq!((h.reference_width, h.reference_height, h.average_color), (128, 128, 0xff44_3a3c));
    assert_eq!((image.width, image.height, image.rgba.len()), (128, 128, 128 * 128 * 4));
    assert!(image.notes.is_empty(), "{:?}", image.notes);
    // The average colour the compiler stored (ARGB) is the pixels' mean, to a few levels.
    let mut sum = [0u64; 4];
    for p in image.rgba.chunks(4) {
        for (s, v) in sum.iter_mut().zip(p) {
            *s += u64::from(*v);
        }
    }
    let mean: Vec<i64> = sum.iter().map(|s| (*s / (128 * 128)) as i64).collect();
    let stated = [0x44, 0x3a, 0x3c, 0xff];
    for (m, s) in mean.iter().zip(stated) {
        assert!((m - s).abs() <= 3, "mean {mean:?}, stated {stated:?}");
    }
    // An ore texture: not one flat colour.
    let distinct: std::collections::HashSet<&[u8]> = image.rgba.chunks(4).collect();
    assert!(distinct.len() > 100);
}

/// The largest level's blocks as a DDS file (the last 8192 bytes: the levels are stored smallest first), decoded
/// by the `image` crate: the same pixels at every place, to the rounding of DXT1's interpolated colours (decoders
/// may round the ⅓ and ⅔ mixes either way: one level at most).
#[cfg(feature = "gui")]
#[test]
fn erz_tex_pixels_match_an_independent_dxt1_decoder() {
    let Some(path) = common::corpus_file("zengin/erz.tex") else { return };
    let bytes = std::fs::read(path).unwrap();
    let ours = tex::decode(&bytes).unwrap();
    let blocks = &bytes[bytes.len() - 32 * 32 * 8..];
    let mut dds = b"DDS ".to_vec();
    let header: [u32; 31] = [
        124,
        0x1 | 0x2 | 0x4 | 0x1000 | 0x80000,
        128,
        128,
        8192,
        0,
        1,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        32,
        0x4,
        u32::from_le_bytes(*b"DXT1"),
        0,
        0,
        0,
        0,
        0,
        0x1000,
        0,
        0,
        0,
        0,
    ];
    for v in header {
        dds.extend(v.to_le_bytes());
    }
    dds.extend_from_slice(blocks);
    let theirs = image::load_from_memory_with_format(&dds, image::ImageFormat::Dds).unwrap().to_rgba8();
    assert_eq!(theirs.dimensions(), (128, 128));
    let close = |a: &[u8], b: &[u8]| a.iter().zip(b).all(|(a, b)| a.abs_diff(*b) <= 1);
    for (x, y) in [(0, 0), (127, 0), (0, 127), (127, 127), (64, 64), (13, 101), (77, 5)] {
        let at = (y * 128 + x) as usize * 4;
        let pixel = theirs.get_pixel(x, y).0;
        assert!(close(&ours.rgba[at..at + 4], &pixel), "pixel {x},{y}: {:?} against {pixel:?}", &ours.rgba[at..at + 4]);
    }
    let theirs = theirs.into_raw();
    let off = ours.rgba.chunks(4).zip(theirs.chunks(4)).filter(|(a, b)| !close(a, b)).count();
    assert_eq!(off, 0, "pixels further apart than the rounding");
}
