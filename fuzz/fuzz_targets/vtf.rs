//! Fuzz target: the VTF decoder (`io::vtf`) must return pixels or an error for any bytes — never panic, hang or
//! allocate more than its bound (eight times the input, DXT1) — and so must the header reader alone.
#![no_main]

use bonescope::io::vtf;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = vtf::read_header(data);
    if let Ok(image) = vtf::decode(data) {
        // The decoder's promise: the pixels it returns are exactly width × height RGBA texels.
        assert_eq!(image.rgba.len() as u64, u64::from(image.width) * u64::from(image.height) * 4);
    }
});
