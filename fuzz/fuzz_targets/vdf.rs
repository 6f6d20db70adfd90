//! Fuzz target: VDFS volumes must open (header, catalogue) or fail with an error for any bytes — never panic,
//! hang or allocate without bound — and so must reading every entry, stored or as a Union ZippedStream. The
//! input is read twice: as a volume on its own ([`Volume::parse`], every file read), and mounted as a folder
//! of the file-access interface (listed to the bottom and every file read through it), as every loader sees it.
#![no_main]

use std::path::{Path, PathBuf};

use bonescope::files::vdf::{ROOT, Volume, range_of};
use bonescope::files::{Files, MemoryFiles};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(volume) = Volume::parse(data) {
        let mut stack = vec![ROOT];
        while let Some(folder) = stack.pop() {
            for &child in volume.children(folder) {
                if volume.is_folder(child) {
                    stack.push(child);
                } else {
                    let _ = volume.read(child, &|o, n| range_of(data, o, n));
                    let _ = volume.read_prefix(child, 16, &|o, n| range_of(data, o, n));
                }
            }
            let _ = volume.path_of(folder);
        }
    }
    let memory = MemoryFiles::new();
    memory.insert("/data/Anims.vdf", data.to_vec());
    let files = Files::with_archives(memory);
    let mut stack: Vec<PathBuf> = vec![PathBuf::from("/data/Anims.vdf"), PathBuf::from("/data/*.vdf")];
    let mut visited = 0;
    while let Some(dir) = stack.pop() {
        let Ok(entries) = files.list(&dir) else { continue };
        for entry in entries {
            visited += 1;
            // Every catalogue entry is read once; the walk cannot outgrow the catalogue.
            if visited > data.len() / 80 + 2 {
                return;
            }
            let path = dir.join(&entry.name);
            if entry.is_folder {
                stack.push(path);
            } else {
                let _ = files.kind(&path);
                let _ = files.read(&path);
                let _ = files.find_under(Path::new("/data/Anims.vdf"), &entry.name);
            }
        }
    }
});
