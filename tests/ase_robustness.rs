//! Truncated and corrupted ASE: every prefix of a small file that uses every block the loader reads, a few
//! hundred fixed-seed byte flips and number rewrites, and spread-out prefixes of the corpus files. Each load must
//! return an asset or an error — no panic, no allocation sized from a count the file cannot back, no work out of
//! proportion to the input (measured as the bytes allocated in all, which does not depend on the machine's load).

mod common;

use bonescope::io::{LoadErrorKind, LoadOptions, Position, ase};
use common::{Rng, allocations_of};

#[global_allocator]
static ALLOCATOR: common::CountingAllocator = common::CountingAllocator;

/// Every block the loader reads, in a small file.
const KITCHEN_SINK: &str = r#"*3DSMAX_ASCIIEXPORT	200
*COMMENT "robustness sample"
*SCENE {
	*SCENE_FILENAME "sink.max"
	*SCENE_FIRSTFRAME 0
	*SCENE_LASTFRAME 10
	*SCENE_FRAMESPEED 30
	*SCENE_TICKSPERFRAME 160
}
*MATERIAL_LIST {
	*MATERIAL_COUNT 2
	*MATERIAL 0 {
		*MATERIAL_NAME "Skin"
		*MATERIAL_CLASS "Standard"
		*MATERIAL_DIFFUSE 0.8 0.6 0.5
		*MAP_DIFFUSE {
			*MAP_CLASS "Bitmap"
			*BITMAP "skin.tga"
			*UVW_U_OFFSET 0.0
			*UVW_V_OFFSET 0.0
			*UVW_U_TILING 1.0
			*UVW_V_TILING 1.0
		}
	}
	*MATERIAL 1 {
		*MATERIAL_NAME "Multi"
		*MATERIAL_CLASS "Multi/Sub-Object"
		*NUMSUBMTLS 2
		*SUBMATERIAL 0 {
			*MATERIAL_NAME "A"
		}
		*SUBMATERIAL 1 {
			*MATERIAL_NAME "B"
		}
	}
}
*HELPEROBJECT {
	*NODE_NAME "Bone02"
	*NODE_PARENT "Bone01"
	*NODE_TM {
		*NODE_NAME "Bone02"
		*TM_ROW0 1.0 0.0 0.0
		*TM_ROW1 0.0 1.0 0.0
		*TM_ROW2 0.0 0.0 1.0
		*TM_ROW3 0.0 0.0 10.0
	}
	*TM_ANIMATION {
		*NODE_NAME "Bone02"
		*CONTROL_ROT_TCB {
			*CONTROL_TCB_ROT_KEY 0	0.0 0.0 1.0 0.0	0.0 0.0 0.0 0.0 0.0
			*CONTROL_TCB_ROT_KEY 800	1.0 0.0 0.0 0.5	0.2 0.1 -0.1 0.0 0.0
		}
		*CONTROL_POS_BEZIER {
			*CONTROL_BEZIER_POS_KEY 0	0.0 0.0 10.0	0.0 0.0 0.0	0.0 0.0 0.001	0
			*CONTROL_BEZIER_POS_KEY 1600	0.0 0.0 12.0	0.0 0.0 -0.001	0.0 0.0 0.0	0
		}
	}
}
*HELPEROBJECT {
	*NODE_NAME "Bone01"
	*NODE_TM {
		*NODE_NAME "Bone01"
		*TM_ROW0 1.0 0.0 0.0
		*TM_ROW1 0.0 1.0 0.0
		*TM_ROW2 0.0 0.0 1.0
		*TM_ROW3 0.0 0.0 0.0
	}
	*TM_ANIMATION {
		*NODE_NAME "Bone01"
		*CONTROL_POS_TRACK {
			*CONTROL_POS_SAMPLE 0	0.0 0.0 0.0
			*CONTROL_POS_SAMPLE 800	1.0 0.0 0.0
		}
		*CONTROL_ROT_TRACK {
			*CONTROL_ROT_SAMPLE 0	0.0 0.0 1.0 0.0
			*CONTROL_ROT_SAMPLE 1600	0.0 0.0 1.0 0.3
		}
		*CONTROL_SCALE_TRACK {
			*CONTROL_SCALE_SAMPLE 0	1.0 1.0 1.0 0.0 0.0 0.0 0.0
			*CONTROL_SCALE_SAMPLE 800	1.0 1.0 2.0 0.0 0.0 1.0 0.2
		}
	}
}
*GROUP "Props" {
*GEOMOBJECT {
	*NODE_NAME "Body"
	*NODE_TM {
		*NODE_NAME "Body"
		*TM_ROW0 1.0 0.0 0.0
		*TM_ROW1 0.0 1.0 0.0
		*TM_ROW2 0.0 0.0 1.0
		*TM_ROW3 0.0 0.0 0.0
	}
	*MESH {
		*TIMEVALUE 0
		*MESH_NUMVERTEX 4
		*MESH_NUMFACES 2
		*MESH_VERTEX_LIST {
			*MESH_VERTEX    0	0.0	0.0	0.0
			*MESH_VERTEX    1	10.0	0.0	0.0
			*MESH_VERTEX    2	0.0	0.0	20.0
			*MESH_VERTEX    3	10.0	0.0	20.0
		}
		*MESH_FACE_LIST {
			*MESH_FACE    0:    A:    0 B:    1 C:    2 AB:    1 BC:    1 CA:    0	 *MESH_SMOOTHING 1,2 	*MESH_MTLID 0
			*MESH_FACE    1:    A:    2 B:    1 C:    3 AB:    1 BC:    1 CA:    0	 *MESH_SMOOTHING 	*MESH_MTLID 1
		}
		*MESH_NUMTVERTEX 4
		*MESH_TVERTLIST {
			*MESH_TVERT 0	0.0	0.0	0.0
			*MESH_TVERT 1	1.0	0.0	0.0
			*MESH_TVERT 2	0.0	1.0	0.0
			*MESH_TVERT 3	1.0	1.0	0.0
		}
		*MESH_NUMTVFACES 2
		*MESH_TFACELIST {
			*MESH_TFACE 0	0	1	2
			*MESH_TFACE 1	2	1	3
		}
		*MESH_NUMCVERTEX 2
		*MESH_CVERTLIST {
			*MESH_VERTCOL 0	1.0	0.0	0.0
			*MESH_VERTCOL 1	0.0	1.0	0.0
		}
		*MESH_NUMCVFACES 2
		*MESH_CFACELIST {
			*MESH_CFACE 0	0	1	0
			*MESH_CFACE 1	1	1	0
		}
		*MESH_MAPPINGCHANNEL 2 {
			*MESH_NUMTVERTEX 1
			*MESH_TVERTLIST {
				*MESH_TVERT 0	0.5	0.5	0.0
			}
			*MESH_NUMTVFACES 2
			*MESH_TFACELIST {
				*MESH_TFACE 0	0	0	0
				*MESH_TFACE 1	0	0	0
			}
		}
		*MESH_NORMALS {
			*MESH_FACENORMAL 0	0.0	-1.0	0.0
				*MESH_VERTEXNORMAL 0	0.0	-1.0	0.0
				*MESH_VERTEXNORMAL 1	0.0	-1.0	0.0
				*MESH_VERTEXNORMAL 2	0.0	-1.0	0.0
			*MESH_FACENORMAL 1	0.0	-1.0	0.0
				*MESH_VERTEXNORMAL 2	0.0	-1.0	0.0
				*MESH_VERTEXNORMAL 1	0.0	-1.0	0.0
				*MESH_VERTEXNORMAL 3	0.0	-1.0	0.0
		}
		*MESH_WEIGHTS {
			*MESH_NUMVERTEX 4
			*MESH_NUMBONE 2
			*MESH_BONE_LIST {
				*MESH_BONE_NAME 0 "Bone01"
				*MESH_BONE_NAME 1 "Bone02"
			}
			*MESH_BONE_VERTEX_LIST {
				*MESH_BONE_VERTEX 0 0 1.0
				*MESH_BONE_VERTEX 1 0 1.0
				*MESH_BONE_VERTEX 2 0 0.5 1 0.5
				*MESH_BONE_VERTEX 3 1 1.0
			}
		}
	}
	*MESH_ANIMATION {
		*MESH {
			*TIMEVALUE 800
			*MESH_NUMVERTEX 4
			*MESH_NUMFACES 2
			*MESH_VERTEX_LIST {
				*MESH_VERTEX    0	0.0	0.0	0.0
				*MESH_VERTEX    1	10.0	0.0	0.0
				*MESH_VERTEX    2	0.0	0.0	21.0
				*MESH_VERTEX    3	10.0	0.0	21.0
			}
			*MESH_FACE_LIST {
				*MESH_FACE    0:    A:    0 B:    1 C:    2 AB:    1 BC:    1 CA:    0	 *MESH_SMOOTHING 1 	*MESH_MTLID 0
				*MESH_FACE    1:    A:    2 B:    1 C:    3 AB:    1 BC:    1 CA:    0	 *MESH_SMOOTHING 1 	*MESH_MTLID 1
			}
		}
	}
	*MATERIAL_REF 1
}
}
*GEOMOBJECT {
	*NODE_NAME "Leg"
	*NODE_PARENT "Body"
	*NODE_TM {
		*NODE_NAME "Leg"
		*TM_ROW0 1.0 0.0 0.0
		*TM_ROW1 0.0 1.0 0.0
		*TM_ROW2 0.0 0.0 1.0
		*TM_ROW3 0.0 0.0 0.0
	}
	*MESH_SOFTSKIN {
		*TIMEVALUE 0
		*MESH_NUMVERTEX 3
		*MESH_NUMFACES 1
		*MESH_VERTEX_LIST {
			*MESH_VERTEX    0	0.0	0.0	0.0
			*MESH_VERTEX    1	1.0	0.0	0.0
			*MESH_VERTEX    2	0.0	1.0	0.0
		}
		*MESH_FACE_LIST {
			*MESH_FACE 0: A: 0 B: 1 C: 2 *MESH_MTLID 0
		}
	}
	*WIREFRAME_COLOR 0.5 0.5 0.5
}
*MESH_SOFTSKINVERTS {
	Leg
	3
	1 "Bone01" 1.0
	2 "Bone01" 0.5 "Bone02" 0.5
	1 "Bone02" 1.0
}
*CAMERAOBJECT {
	*NODE_NAME "Camera01"
	*CAMERA_TYPE Target
	*NODE_TM {
		*NODE_NAME "Camera01"
		*TM_ROW0 1.0 0.0 0.0
		*TM_ROW1 0.0 1.0 0.0
		*TM_ROW2 0.0 0.0 1.0
		*TM_ROW3 0.0 -50.0 10.0
	}
	*NODE_TM {
		*NODE_NAME "Camera01.Target"
		*TM_ROW0 1.0 0.0 0.0
		*TM_ROW1 0.0 1.0 0.0
		*TM_ROW2 0.0 0.0 1.0
		*TM_ROW3 0.0 0.0 10.0
	}
	*CAMERA_SETTINGS {
		*TIMEVALUE 0
		*CAMERA_FOV 0.7854
	}
	*TM_ANIMATION {
		*NODE_NAME "Camera01.Target"
		*CONTROL_POS_LINEAR {
			*CONTROL_POS_KEY 0	0.0 0.0 10.0
			*CONTROL_POS_KEY 1600	0.0 0.0 12.0
		}
	}
}
"#;

/// Bytes a load may allocate in all: per input byte, plus a constant for the smallest inputs. Loads of these
/// inputs allocate at most ~42 bytes per input byte (and ~3 KB for a file of a few bytes); an input that makes a
/// reader work quadratically, or re-read and re-build without end, goes far past this.
const WORK_LIMIT_PER_BYTE: usize = 256;
const WORK_LIMIT_BASE: usize = 1 << 20;
const ALLOCATION_LIMIT: usize = 64 << 20;

fn check(label: &str, bytes: &[u8]) -> bool {
    let (result, allocated) =
        allocations_of(|| std::panic::catch_unwind(|| ase::load(bytes, &LoadOptions::default()).is_ok()));
    let largest = allocated.largest;
    assert!(largest <= ALLOCATION_LIMIT.max(bytes.len() * 64), "{label}: allocated {largest} bytes at once");
    let total = allocated.total;
    assert!(total <= WORK_LIMIT_PER_BYTE * bytes.len() + WORK_LIMIT_BASE, "{label}: allocated {total} bytes in all");
    match result {
        Ok(ok) => ok,
        Err(_) => panic!("{label}: the loader panicked"),
    }
}

#[test]
fn kitchen_sink_loads_with_every_feature() {
    let _alone = common::alone();
    let a = ase::load(KITCHEN_SINK.as_bytes(), &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(a.skeleton.names, vec!["Bone01", "Bone02", "Body", "Leg", "Camera01", "Camera01.Target"]);
    assert_eq!(a.meshes.len(), 2);
    assert_eq!(a.meshes[0].vertex_frames.len(), 1);
    assert_eq!(a.clips[0].tracks.len(), 3);
    assert!(!a.meshes[0].colors.is_empty());
    for m in &a.meshes {
        m.validate(a.skeleton.len()).unwrap();
    }
}

#[test]
fn every_prefix_errors_or_loads() {
    let _alone = common::alone();
    let bytes = KITCHEN_SINK.as_bytes();
    let mut errors = 0;
    for len in 0..bytes.len() {
        if !check(&format!("prefix {len}"), &bytes[..len]) {
            errors += 1;
        }
    }
    // Most prefixes end inside a block: those must be errors, not silently partial scenes.
    assert!(errors > bytes.len() * 9 / 10, "{errors} of {} prefixes were errors", bytes.len());
}

/// A file cut anywhere is reported as truncated, at a line the cut file has (or as not ASE at all when nothing of
/// it is left), whatever entry, block or number the cut falls in.
#[test]
fn prefixes_that_fail_are_reported_as_truncated_where_they_stop() {
    let _alone = common::alone();
    let bytes = KITCHEN_SINK.as_bytes();
    let mut wrong = Vec::new();
    for len in 0..bytes.len() {
        let prefix = &bytes[..len];
        let Err(e) = ase::load(prefix, &LoadOptions::default()) else { continue };
        let last_line = prefix.iter().filter(|&&b| b == b'\n').count() + 1;
        // Mostly the line the file stops on; a count that the rest of the file cannot hold, at its own line.
        let right = match e.position {
            _ if len == 0 => (e.kind, e.position) == (LoadErrorKind::NotThisFormat, Position::File),
            Position::Line(n) => e.kind == LoadErrorKind::Truncated && (1..=last_line).contains(&n),
            _ => false,
        };
        if !right {
            wrong.push(format!("prefix of {len} bytes: {:?} {e}", e.kind));
        }
    }
    assert!(wrong.is_empty(), "{} prefixes:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn random_byte_flips_and_number_rewrites() {
    let _alone = common::alone();
    let bytes = KITCHEN_SINK.as_bytes();
    let mut rng = Rng(0x5eed_a5e0);
    let replacements: [&[u8]; 8] = [b"{", b"}", b"\"", b"*", b"-1", b"4294967296", b"999999999", b"\n"];
    for round in 0..600 {
        let mut data = bytes.to_vec();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(data.len());
            match rng.below(3) {
                0 => data[at] = rng.next() as u8,
                1 => {
                    let r = replacements[rng.below(replacements.len())];
                    let end = (at + 1 + rng.below(3)).min(data.len());
                    data.splice(at..end, r.iter().copied());
                }
                _ => {
                    // Rewrite the number the byte is in (counts, indices, ticks) to something large.
                    let start = data[..at].iter().rposition(|b| !b.is_ascii_digit()).map_or(0, |p| p + 1);
                    let end = data[at..].iter().position(|b| !b.is_ascii_digit()).map_or(data.len(), |p| at + p);
                    if start < end {
                        data.splice(start..end, b"2147483647".iter().copied());
                    }
                }
            }
        }
        check(&format!("mutation round {round}"), &data);
    }
    // The same on UTF-16 text.
    let utf16: Vec<u8> =
        [0xFF, 0xFE].into_iter().chain(KITCHEN_SINK.encode_utf16().flat_map(u16::to_le_bytes)).collect();
    assert!(check("utf-16", &utf16));
    for round in 0..100 {
        let mut data = utf16.clone();
        let at = 2 + rng.below(data.len() - 2);
        data[at] = rng.next() as u8;
        check(&format!("utf-16 flip {round}"), &data);
        check(&format!("utf-16 prefix {round}"), &utf16[..at]);
    }
}

#[test]
fn corpus_prefixes_error_or_load() {
    let _alone = common::alone();
    let Some(dir) = common::corpus() else { return };
    for name in ["InvalidUVIndex.ase", "anim2.ASE", "ThreeCubesGreen_UTF16LE.ASE", "MotionCaptureROM.ase"] {
        let bytes = std::fs::read(dir.join("ase").join(name)).unwrap();
        assert!(check(name, &bytes), "{name} loads whole");
        let samples = if bytes.len() > 100_000 { 60 } else { 300 };
        let step = (bytes.len() / samples).max(1);
        for len in (0..bytes.len()).step_by(step) {
            check(&format!("{name} prefix {len}"), &bytes[..len]);
        }
    }
}
