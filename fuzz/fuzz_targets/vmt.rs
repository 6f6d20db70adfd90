//! Fuzz target: the Source material parser (`io::vmt`, KeyValues text) must return a material or an error for
//! any text — never panic or hang — and a parsed material's lookups (base texture, patch) must not panic either.
#![no_main]

use bonescope::io::vmt;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = vmt::parse_keyvalues(&text);
    if let Ok(material) = vmt::parse(&text) {
        if let Some(texture) = material.base_texture() {
            let _ = vmt::texture_path(texture);
        }
        let _ = material.patch();
    }
});
