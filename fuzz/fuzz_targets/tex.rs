//! Fuzz target: the ZenGin texture (ZTEX, `-C.TEX`) decoder must return pixels or an error for any bytes —
//! never panic or allocate without bound (a header's sizes are checked against the bytes there are first).
#![no_main]

use bonescope::io::zengin::tex;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = tex::read_header(data);
    if let Ok(image) = tex::decode(data) {
        assert_eq!(image.rgba.len(), image.width as usize * image.height as usize * 4);
    }
});
