//! Reading out of a VDFS volume costs what the entry costs, not what the volume does: a small file of a 48 MB
//! volume is read without allocating anything near the volume's size, a header of a compressed file inflates
//! only its first block, and a volume whose catalogue claims more entries than it holds is refused before
//! anything the size of that claim is allocated.

mod common;

#[path = "common/vdf_writer.rs"]
mod vdf_writer;

use std::path::Path;

use bonescope::files::Files;
use vdf_writer::{VdfFile, write_vdf};

#[global_allocator]
static ALLOCATOR: common::CountingAllocator = common::CountingAllocator;

#[test]
fn a_small_entry_of_a_large_volume_costs_the_entry() {
    let _alone = common::alone();
    let dir = std::env::temp_dir().join(format!("bonescope-vdf-bounded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big: Vec<u8> = (0..48u32 << 20).map(|i| (i % 253) as u8).collect();
    let files = [VdfFile::new("BIG.BIN", big.clone()), VdfFile::new("_WORK/SMALL.TXT", b"small".to_vec())];
    let stored = dir.join("Stored.vdf");
    std::fs::write(&stored, write_vdf(&files, 1, false, 0)).unwrap();
    let zipped = dir.join("Zipped.vdf");
    std::fs::write(&zipped, write_vdf(&files, 1, true, 1 << 16)).unwrap();
    drop(big);
    for volume in [&stored, &zipped] {
        let (read, used) = common::allocations_of(|| {
            let files = Files::disk();
            let small = files.read(&volume.join("_work/small.txt")).unwrap().to_vec();
            let head = files.read_prefix(&volume.join("BIG.BIN"), 100).unwrap();
            (small, head)
        });
        assert_eq!(read.0, b"small");
        assert_eq!(read.1, (0..100u32).map(|i| (i % 253) as u8).collect::<Vec<u8>>());
        assert!(used.total < 2 << 20, "{}: {} bytes allocated in all", volume.display(), used.total);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_catalogue_larger_than_the_volume_is_refused_before_allocating() {
    let _alone = common::alone();
    let mut bytes = write_vdf(&[VdfFile::new("A.TXT", b"a".to_vec())], 1, false, 0);
    bytes[272..276].copy_from_slice(&0x0100_0000u32.to_le_bytes()); // 16 million entries, 1.3 GB of catalogue
    let files = bonescope::io::MemoryFiles::new();
    files.insert("/v/Bad.vdf", bytes);
    let files = Files::with_archives(files);
    let (result, used) = common::allocations_of(|| files.list(Path::new("/v/Bad.vdf")));
    let e = result.unwrap_err();
    assert!(e.to_string().contains("runs past the end"), "{e}");
    assert!(used.largest < 1 << 16, "largest allocation {} bytes", used.largest);
}
