//! Fuzz target: the DMX loader (keyvalues2 and binary 1–9, plain or gzip) must return a value or an error for
//! any bytes — never panic, hang or allocate without bound.
//!
//! The input is read twice: as a whole file (header, gzip and all, through the format's sniffing), and with its
//! first byte choosing a header for the rest, so that mutations reach the encodings' readers and the model,
//! mesh, animation and flex builders instead of dying at the header.
#![no_main]

use bonescope::io::{LoadOptions, dmx, load_format};
use bonescope::scene::Format;
use libfuzzer_sys::fuzz_target;

const HEADERS: [&str; 8] = [
    "keyvalues2 1",
    "binary 1",
    "binary 2",
    "binary 3",
    "binary 4",
    "binary 5",
    "binary 9",
    "keyvalues2_flat 1",
];

fuzz_target!(|data: &[u8]| {
    let opts = LoadOptions::default();
    let _ = dmx::sniff(data);
    let _ = load_format(Format::Dmx, data, &opts);
    if let Some((&pick, body)) = data.split_first() {
        let encoding = HEADERS[usize::from(pick) % HEADERS.len()];
        let format_version = if pick & 0x80 == 0 { 22 } else { 18 };
        let mut file = format!("<!-- dmx encoding {encoding} format model {format_version} -->\n").into_bytes();
        if encoding.starts_with("binary") {
            file.push(0);
        }
        file.extend_from_slice(body);
        let _ = load_format(Format::Dmx, &file, &opts);
    }
});
