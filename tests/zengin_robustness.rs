//! Hostile compiled Gothic files: every corpus sample cut short at every byte, with counts made huge and with
//! random bytes changed must give a value or an error naming where — never a panic, and never an allocation
//! sized by a count the file cannot back.

mod common;

use bonescope::io::{LoadErrorKind, LoadOptions, load_format, zengin};
use bonescope::scene::{Format, Position};

#[global_allocator]
static ALLOCATOR: common::CountingAllocator = common::CountingAllocator;

const SAMPLES: [&str; 7] = [
    "hierarchy0.mdh",
    "secretdoor.mdm",
    "smoke_waterpipe.mdm",
    "mesh0.mrm",
    "morph0.mmb",
    "G1/HUMANS-S_FISTRUN.MAN",
    "G2/HUMANS-S_FISTRUN.MAN",
];

fn samples() -> Vec<(&'static str, Vec<u8>)> {
    let Some(dir) = common::corpus() else { return Vec::new() };
    SAMPLES.iter().map(|s| (*s, std::fs::read(dir.join("zengin").join(s)).unwrap())).collect()
}

#[test]
fn every_sample_cut_short_anywhere_loads_or_says_where_it_ends() {
    let _alone = common::alone();
    for (name, bytes) in samples() {
        let format = zengin::sniff(&bytes).unwrap();
        for len in 0..bytes.len() {
            let cut = &bytes[..len];
            match load_format(format, cut, &LoadOptions::default()) {
                Ok(_) => {}
                Err(e) => match e.kind {
                    LoadErrorKind::Truncated => match e.position {
                        Position::Byte(at) => assert!(at <= len as u64, "{name} cut at {len}: error at byte {at}"),
                        Position::File => assert!(e.message.contains("chunk"), "{name} cut at {len}: {e}"),
                        Position::Line(_) => panic!("{name} cut at {len}: a line in a binary file: {e}"),
                    },
                    LoadErrorKind::NotThisFormat | LoadErrorKind::Malformed => {}
                    other => panic!("{name} cut at {len}: {other:?}: {e}"),
                },
            }
        }
    }
}

/// `bytes` with the little-endian value at `at` replaced.
fn patched(bytes: &[u8], at: usize, value: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[at..at + value.len()].copy_from_slice(value);
    out
}

#[test]
fn huge_counts_are_errors_naming_their_offset_and_allocate_nothing_large() {
    let _alone = common::alone();
    let samples = samples();
    if samples.is_empty() {
        return;
    }
    let get = |n: &str| samples.iter().find(|(s, _)| *s == n).unwrap().1.clone();
    // (file, offset of a count, its width, the format, what the error names)
    let mdh = get("hierarchy0.mdh");
    let man = get("G1/HUMANS-S_FISTRUN.MAN");
    let skin = get("smoke_waterpipe.mdm");
    let mmb = get("morph0.mmb");
    // MDH: the node count (after the chunk header and the version).
    let cases: Vec<(&str, Vec<u8>, Format)> = vec![
        ("mdh node count", patched(&mdh, 6 + 4, &u16::MAX.to_le_bytes()), Format::ZenMdh),
        // MAN header: frame count and node count (after the version and the name "S_FISTRUN\n").
        ("man frame count", patched(&man, 6 + 6 + 2 + 10 + 4, &u32::MAX.to_le_bytes()), Format::ZenMan),
        ("man node count", patched(&man, 6 + 6 + 2 + 10 + 8, &u32::MAX.to_le_bytes()), Format::ZenMan),
        // The soft skin's weight count of its first vertex: after 0xB1FF's header and the block size.
        ("mdm weight count", patched(&skin, 16772 + 6 + 4, &u32::MAX.to_le_bytes()), Format::ZenMdm),
        // The morph mesh's first animation's vertex count.
        ("mmb vertex count", patched(&mmb, mmb_first_vertex_count(&mmb), &u32::MAX.to_le_bytes()), Format::ZenMmb),
    ];
    for (label, bytes, format) in cases {
        let (result, allocations) = common::allocations_of(|| load_format(format, &bytes, &LoadOptions::default()));
        let e = result.expect_err(label);
        assert_eq!(e.kind, LoadErrorKind::Truncated, "{label}: {e}");
        assert!(matches!(e.position, Position::Byte(_)), "{label}: {e}");
        assert!(allocations.largest < 1 << 20, "{label}: allocated {} bytes at once", allocations.largest);
    }
}

/// Where the first animation's vertex count is in `morph0.mmb`: after the `0xE030` header, the animation
/// count, the name line and six fields (26 bytes).
fn mmb_first_vertex_count(bytes: &[u8]) -> usize {
    let mut at = 0;
    while at + 6 <= bytes.len() {
        let id = u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let len = u32::from_le_bytes(bytes[at + 2..at + 6].try_into().unwrap()) as usize;
        if id == 0xE030 {
            let name = at + 6 + 2;
            let end = name + bytes[name..].iter().position(|&b| b == b'\n').unwrap() + 1;
            return end + 4 * 5 + 1;
        }
        at += 6 + len;
    }
    panic!("no animations chunk");
}

#[test]
fn random_bytes_changed_never_panic() {
    let _alone = common::alone();
    let mut rng = common::Rng(0x5eed_2e61);
    for (name, bytes) in samples() {
        for _ in 0..3000 {
            let mut mutated = bytes.clone();
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(mutated.len());
                mutated[at] = rng.next() as u8;
            }
            for format in
                [Format::ZenMdh, Format::ZenMdm, Format::ZenMdl, Format::ZenMan, Format::ZenMmb, Format::ZenMrm]
            {
                let (_, allocations) =
                    common::allocations_of(|| load_format(format, &mutated, &LoadOptions::default()));
                assert!(allocations.total < 64 << 20, "{name}: {} bytes allocated", allocations.total);
            }
        }
    }
}

#[test]
fn oriented_boxes_nested_without_end_are_an_error() {
    use bonescope::io::binary::Reader;
    use bonescope::io::zengin::chunk::{MAX_OBB_DEPTH, OBB_LEN, ZenRead};
    // Each box has one child, deeper than the limit.
    let mut bytes = Vec::new();
    for _ in 0..MAX_OBB_DEPTH + 5 {
        bytes.extend([0u8; OBB_LEN - 2]);
        bytes.extend(1u16.to_le_bytes());
    }
    bytes.extend([0u8; OBB_LEN]);
    let e = Reader::new(&bytes).zen_obb("box").unwrap_err();
    assert!(e.message.contains("nested deeper"), "{e}");
}
