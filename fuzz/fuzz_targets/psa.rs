//! Fuzz target: the PSA loader must return a value or an error for any bytes — never panic, hang or
//! allocate without bound.
#![no_main]

use bonescope::io::{LoadOptions, load_format};
use bonescope::scene::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = load_format(Format::Psa, data, &LoadOptions::default());
});
