//! Fuzz target: compiled GoldSrc models (MDL version 10) with their companions must load or give an error for
//! any bytes — never panic, hang or allocate without bound.
//!
//! The input is the main file; its companions are made from it, so one mutated file reaches every reader: the
//! texture file (`modelT.mdl`, read when the main file's texture offset is 0) is the input itself, and every
//! sequence-group file (`model01.mdl` …, `IDSQ`) is the input with that magic. The files are held in memory
//! and found through the file-access interface, as the viewer and the web page find them.
#![no_main]

use std::path::Path;

use bonescope::io::{Files, LoadOptions, MemoryFiles, detect_format, load_path, mdl};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = detect_format(data, Some(Path::new("model.mdl")));
    let _ = mdl::role(data);
    let files = MemoryFiles::new();
    files.insert("/f/model.mdl", data.to_vec());
    files.insert("/f/modelT.mdl", data.to_vec());
    let mut group = data.to_vec();
    if group.len() >= 4 {
        group[..4].copy_from_slice(mdl::SEQUENCE_GROUP_MAGIC);
    }
    for n in 1..4 {
        files.insert(format!("/f/model{n:02}.mdl"), group.clone());
    }
    let opts = LoadOptions { files: Files::new(files), ..LoadOptions::default() };
    let _ = load_path(Path::new("/f/model.mdl"), &opts);
    // Without a folder: the companions cannot be looked for.
    let _ = mdl::load(data, None, &LoadOptions::default());
});
