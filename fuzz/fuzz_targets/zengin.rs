//! Fuzz target: the compiled Gothic readers (MDH, MDM, MDL, MAN, MMB, MRM) must return a value or an error for
//! any bytes — never panic, hang or allocate without bound. Every reader reads the input (the files share their
//! framing, so each reader meets the others' chunks), after the sniffing. When the last byte has its high bit
//! set, the input is also split in two, a hierarchy `MODEL.MDH` and beside it the rest as `MODEL-ANI.MAN` and
//! as `MODEL.MDM`, in memory: the search for the hierarchy, the skeleton building and the binding by node index
//! run on fuzzed data too. The corpus files (`fuzz/seeds.txt`) are whole files, read as they are.
#![no_main]

use bonescope::files::Files;
use bonescope::io::{LoadOptions, MemoryFiles, bind, load_format, load_path, zengin};
use bonescope::scene::Format;
use libfuzzer_sys::fuzz_target;

const FORMATS: [Format; 6] =
    [Format::ZenMdh, Format::ZenMdm, Format::ZenMdl, Format::ZenMan, Format::ZenMmb, Format::ZenMrm];

fuzz_target!(|data: &[u8]| {
    let _ = zengin::sniff(data);
    for format in FORMATS {
        let _ = load_format(format, data, &LoadOptions::default());
    }
    if data.last().is_none_or(|b| b & 0x80 == 0) {
        return;
    }
    let (hierarchy, file) = data.split_at(data.len() / 2);
    let memory = MemoryFiles::new();
    let mdh = memory.insert("/m/MODEL.MDH", hierarchy.to_vec());
    let man = memory.insert("/m/MODEL-ANI.MAN", file.to_vec());
    let mdm = memory.insert("/m/MODEL.MDM", file.to_vec());
    let opts = LoadOptions { files: Files::new(memory), ..LoadOptions::default() };
    for other in [man, mdm] {
        if let (Ok(mut model), Ok(part)) = (load_path(&mdh, &opts), load_path(&other, &opts)) {
            let _ = bind(&mut model, part, &opts);
        }
    }
});
