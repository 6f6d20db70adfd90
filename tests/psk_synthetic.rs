//! PSK/PSA files written by the test writer (`tests/psk_writer`): every optional chunk, PSK and PSA agreeing on
//! the rotation convention, and each kind of real-world damage the loaders repair (with a warning) or refuse
//! (with an error that names the chunk and the byte).

mod psk_writer;

use bonescope::anim::{Pose, bind_pose_error, skin_mesh};
use bonescope::io::{LoadErrorKind, LoadOptions, Position, psa, psk};
use bonescope::scene::{Asset, Format};
use glam::{Quat, Vec3};
use psk_writer::{Bone, Psa, Psk, Sequence, chunk, tube};

fn load(psk: &Psk) -> Asset {
    psk::load(&psk.to_bytes(), &LoadOptions::default()).unwrap()
}

fn has_warning(asset: &Asset, needle: &str) -> bool {
    asset.warnings.iter().any(|w| w.message.contains(needle))
}

fn bind_positions(asset: &Asset) -> Vec<Vec3> {
    let pose = Pose::bind(&asset.skeleton);
    let (mut positions, mut normals) = (Vec::new(), Vec::new());
    skin_mesh(&asset.meshes[0], &pose.palette, &mut positions, &mut normals);
    positions
}

#[test]
fn every_optional_chunk_reaches_the_scene_model() {
    let mut file = tube(6, 8, 3, 60.0);
    let (points, wedges) = (file.points.len(), file.wedges.len());
    file.face32 = true;
    file.normals = file.points.iter().map(|p| Vec3::new(0.0, p.y, p.z).normalize()).collect();
    file.colors = (0..wedges).map(|i| [i as u8, 2, 3, 255]).collect();
    file.extra_uvs = vec![(0..wedges).map(|i| [i as f32, 0.5]).collect(), (0..wedges).map(|_| [0.25, 0.75]).collect()];
    // Point 0 lies on the UV seam, so it has two wedges; the morph moves it and point 9.
    file.morphs = vec![
        ("Smile".to_owned(), vec![(Vec3::new(1.0, 2.0, 3.0), Vec3::new(0.0, 1.0, 0.0), 0), (Vec3::X, Vec3::ZERO, 9)]),
        ("Blink".to_owned(), vec![(Vec3::Z, Vec3::ZERO, 10)]),
    ];
    file.extra_chunks.push(("SKELSOCK".to_owned(), 4, 3, vec![7; 12]));
    let bytes = file.to_bytes();
    let raw = psk::parse(&bytes).unwrap();
    assert_eq!((raw.points.len(), raw.wedges.len(), raw.faces.len()), (points, wedges, file.faces.len()));
    let asset = psk::load(&bytes, &LoadOptions::default()).unwrap();
    let mesh = &asset.meshes[0];
    mesh.validate(asset.skeleton.len()).unwrap();
    assert_eq!(mesh.vertex_count(), wedges);
    assert_eq!(mesh.triangle_count(), file.faces.len());

    // Unknown chunk: skipped by its size, reported with its offset, the chunks after it still read.
    let sock = asset.warnings.iter().find(|w| w.message.contains("SKELSOCK")).expect("unknown chunk warning");
    assert!(sock.message.contains("unknown chunk, 44 bytes skipped"), "{sock}");
    assert!(matches!(sock.position, Position::Byte(_)), "{sock}");

    // Normals are per point in the file and per wedge in the mesh.
    for (i, (wedge, normal)) in file.wedges.iter().zip(&mesh.normals).enumerate() {
        assert!(normal.abs_diff_eq(file.normals[wedge.0 as usize], 1e-6), "wedge {i}");
    }
    assert_eq!(mesh.colors[5], [5, 2, 3, 255]);
    assert_eq!(mesh.extra_uvs.len(), 2);
    assert_eq!(mesh.extra_uvs[0][7], glam::Vec2::new(7.0, 0.5));
    assert_eq!(mesh.extra_uvs[1][0], glam::Vec2::new(0.25, 0.75));

    // Morphs: names, per-wedge expansion (point 0 → wedges 0 and 8), deltas with Y mirrored into the points' frame.
    assert_eq!(mesh.morph_targets.len(), 2);
    let smile = &mesh.morph_targets[0];
    assert_eq!(smile.name, "Smile");
    assert_eq!(smile.vertices, [0, 8, 10]);
    assert_eq!(smile.position_deltas[0], Vec3::new(1.0, -2.0, 3.0));
    assert_eq!(smile.position_deltas[1], Vec3::new(1.0, -2.0, 3.0));
    assert_eq!(smile.normal_deltas[0], Vec3::new(0.0, -1.0, 0.0));
    assert_eq!(mesh.morph_targets[1].vertices, [11]);

    // Two materials, one subset each, covering all faces.
    assert_eq!(asset.materials.len(), 2);
    assert_eq!(mesh.subsets.len(), 2);
    assert_eq!(mesh.subsets.iter().map(|s| s.index_count as usize).sum::<usize>(), file.faces.len() * 3);
    assert_eq!(asset.warnings.len(), 1, "{:?}", asset.warnings);
}

#[test]
fn influences_reduce_to_four_and_unweighted_points_fall_back_to_bone_zero() {
    let mut file = tube(4, 4, 6, 50.0);
    // Point 0: six influences; point 1: none.
    file.weights.retain(|w| w.1 != 0 && w.1 != 1);
    for b in 0..6 {
        file.weights.push((0.1 * (b + 1) as f32, 0, b));
    }
    let asset = load(&file);
    let mesh = &asset.meshes[0];
    assert_eq!(mesh.joints[0], [5, 4, 3, 2]);
    let kept = 0.6 + 0.5 + 0.4 + 0.3;
    assert!((mesh.weights[0][0] - 0.6 / kept).abs() < 1e-6);
    assert!((mesh.weights[0].iter().sum::<f32>() - 1.0).abs() < 1e-6);
    assert_eq!((mesh.joints[1][0], mesh.weights[1]), (0, [1.0, 0.0, 0.0, 0.0]));
    assert!(has_warning(&asset, "1 point(s) have more than 4 influences (up to 6)"), "{:?}", asset.warnings);
    assert!(
        has_warning(&asset, "1 of 16 points have no weight and were bound to bone 0 'Root'"),
        "{:?}",
        asset.warnings
    );
}

#[test]
fn bind_pose_reproduces_points_with_twisted_bones() {
    let file = tube(10, 6, 4, 90.0);
    let asset = load(&file);
    assert!(bind_pose_error(&asset.skeleton).iter().all(|e| *e < 1e-5));
    for (wedge, p) in file.wedges.iter().zip(bind_positions(&asset)) {
        assert!(p.abs_diff_eq(file.points[wedge.0 as usize], 1e-4));
    }
    // Joints lie on the tube's axis at 0, 30, 60, 90.
    let pose = Pose::bind(&asset.skeleton);
    for (b, m) in pose.to_root.iter().enumerate() {
        assert!(m.transform_point3(Vec3::ZERO).abs_diff_eq(Vec3::new(30.0 * b as f32, 0.0, 0.0), 1e-4));
    }
}

/// PSK and PSA apply the same rotation convention: a PSA whose first frame is the PSK's reference pose gives the
/// identity palette (each bind rotation is a twist, so a mismatch would turn the mesh), and a bend keeps the
/// rigid parts rigid.
#[test]
fn psa_keys_use_the_psk_convention() {
    let file = tube(10, 6, 4, 90.0);
    let mut mesh = load(&file);
    let bend = Quat::from_rotation_z(0.6);
    let mut keys = Vec::new();
    for frame in 0..3 {
        for (b, bone) in file.bones.iter().enumerate() {
            let rotation = if b == 2 && frame > 0 { bone.rotation * bend } else { bone.rotation };
            keys.push((bone.position, rotation));
        }
    }
    let mut names = file.bones.clone();
    // PSA names may differ in case and padding; binding is case-insensitive.
    names[1].name = "BONE1  ".to_owned();
    let anim = Psa {
        bones: names,
        sequences: vec![Sequence { name: "Bend".into(), rate: 10.0, first_frame: 0, frames: 3, total_bones: 4 }],
        keys,
        ..Psa::default()
    };
    let anim = psa::load(&anim.to_bytes(), &LoadOptions::default()).unwrap();
    assert_eq!(anim.format, Some(Format::Psa));
    let report = mesh.bind_animations(anim);
    assert!(report.unmatched_tracks.is_empty(), "{report:?}");
    let clip = mesh.clips[0].clone();

    let skin = |t: f32| {
        let pose = Pose::from_clip(&mesh.skeleton, &clip, t);
        let (mut p, mut n) = (Vec::new(), Vec::new());
        skin_mesh(&mesh.meshes[0], &pose.palette, &mut p, &mut n);
        p
    };
    let rest = skin(0.0);
    for (wedge, p) in file.wedges.iter().zip(&rest) {
        assert!(p.abs_diff_eq(file.points[wedge.0 as usize], 1e-3), "frame 0 should be the bind pose");
    }
    let bent = skin(0.2);
    let m = &mesh.meshes[0];
    let mut moved = 0;
    for i in 0..m.vertex_count() {
        if m.joints[i][0] == 3 && m.weights[i][0] == 1.0 {
            moved += usize::from((bent[i] - rest[i]).length() > 1.0);
            // Points bound only to the last bone move rigidly with it: distances among them are kept.
            for j in 0..m.vertex_count() {
                if m.joints[j][0] == 3 && m.weights[j][0] == 1.0 {
                    let (a, b) = ((rest[i] - rest[j]).length(), (bent[i] - bent[j]).length());
                    assert!((a - b).abs() < 1e-3);
                }
            }
        }
        if m.joints[i][0] == 0 && m.weights[i][0] == 1.0 {
            assert!(bent[i].abs_diff_eq(rest[i], 1e-4), "root-bound points stay");
        }
    }
    assert!(moved > 0, "the bend moved nothing");
}

#[test]
fn psa_alone_gives_skeleton_and_every_sequence() {
    let bones = vec![
        Bone::new("Pelvis", -1, Quat::IDENTITY, Vec3::new(0.0, 0.0, 90.0)),
        Bone::new("Spine", 0, Quat::from_rotation_y(0.2), Vec3::new(0.0, 0.0, 10.0)),
    ];
    let mut sequences = Vec::new();
    let mut keys = Vec::new();
    let mut scale_keys = Vec::new();
    let mut first = 0;
    for s in 0..300 {
        let frames = 1 + s % 7;
        sequences.push(Sequence {
            name: format!("Seq{s:03}"),
            rate: 10.0 + s as f32,
            first_frame: first,
            frames,
            total_bones: 2,
        });
        for f in 0..frames {
            for b in 0..2 {
                keys.push((Vec3::new(s as f32, f as f32, b as f32), Quat::from_rotation_z(0.01 * f as f32)));
                scale_keys.push(Vec3::splat(1.0 + f as f32));
            }
        }
        first += frames;
    }
    let file = Psa { bones, sequences, keys, scale_keys, ..Psa::default() };
    let asset = psa::load(&file.to_bytes(), &LoadOptions::default()).unwrap();
    assert!(asset.meshes.is_empty());
    assert_eq!(asset.skeleton.names, ["Pelvis", "Spine"]);
    assert_eq!(asset.skeleton.parents, [None, Some(0)]);
    assert!(asset.skeleton.bind_local[1].rotation.abs_diff_eq(Quat::from_rotation_y(0.2), 1e-6));
    assert_eq!(asset.clips.len(), 300);
    assert!(asset.warnings.is_empty(), "{:?}", asset.warnings);
    let clip = &asset.clips[123];
    assert_eq!(clip.name, "Seq123");
    assert_eq!(clip.frame_rate, 133.0);
    assert_eq!(clip.frame_count, 1 + 123 % 7);
    assert!((clip.duration - clip.frame_count as f32 / 133.0).abs() < 1e-7);
    let spine = &clip.tracks[1];
    assert_eq!(spine.bone_name, "Spine");
    assert_eq!(spine.translation.values[2], Vec3::new(123.0, 2.0, 1.0));
    assert!((spine.translation.times[2] - 2.0 / 133.0).abs() < 1e-7);
    assert!(spine.rotation.values[2].abs_diff_eq(Quat::from_rotation_z(0.02), 1e-6));
    assert_eq!(spine.scale.values[3], Vec3::splat(4.0));
    // Every channel of a sequence is keyed at its frames: one time array serves them all.
    let times = &clip.tracks[0].translation.times;
    for curve in clip.tracks.iter().flat_map(|t| [&t.translation.times, &t.rotation.times, &t.scale.times]) {
        assert!(std::sync::Arc::ptr_eq(curve, times), "a sequence's channels hold copies of its key times");
    }
}

fn small_psa(sequences: Vec<Sequence>, frames_of_keys: usize) -> Psa {
    let bones = vec![Bone::new("A", 0, Quat::IDENTITY, Vec3::ZERO), Bone::new("B", 0, Quat::IDENTITY, Vec3::X)];
    let keys = (0..frames_of_keys * 2).map(|i| (Vec3::splat((i / 2) as f32), Quat::IDENTITY)).collect();
    Psa { bones, sequences, keys, ..Psa::default() }
}

#[test]
fn psa_damage_is_repaired_and_reported() {
    let seq = |name: &str, rate: f32, first: i32, frames: i32, total: i32| Sequence {
        name: name.into(),
        rate,
        first_frame: first,
        frames,
        total_bones: total,
    };
    let file = small_psa(
        vec![
            seq("Good", 30.0, 0, 4, 2),
            seq("PastTheEnd", 30.0, 8, 5, 2), // frames 8..13 of 10: clamped to 2
            seq("Rebased", 30.0, 900, 2, 2),  // first frame out of range: follows the previous sequence
            seq("NoRate", 0.0, 0, 2, 2),      // default fps
        ],
        10,
    );
    let asset = psa::load(&file.to_bytes(), &LoadOptions::default()).unwrap();
    assert_eq!(asset.clips.len(), 4);
    let past = &asset.clips[1];
    assert_eq!(past.frame_count, 2);
    assert_eq!(past.tracks[0].translation.values, [Vec3::splat(8.0), Vec3::splat(9.0)]);
    assert!(
        has_warning(&asset, "'PastTheEnd': frames 8..13 run past the 10 frames of keys; clamped to 2"),
        "{:?}",
        asset.warnings
    );
    let rebased = &asset.clips[2];
    assert!(has_warning(&asset, "'Rebased': FirstRawFrame 900 is outside the 10 frames of keys; re-based to frame 10"));
    assert_eq!(rebased.frame_count, 0, "nothing left after the previous sequence");
    let no_rate = &asset.clips[3];
    assert_eq!(no_rate.frame_rate, 30.0);
    assert!(has_warning(&asset, "'NoRate': frame rate 0 is not usable; 30 fps assumed"));

    // Re-basing that fits: two sequences both claiming frame 100.
    let file = small_psa(vec![seq("One", 30.0, 0, 3, 2), seq("Two", 30.0, 100, 3, 2)], 6);
    let asset = psa::load(&file.to_bytes(), &LoadOptions::default()).unwrap();
    assert_eq!(asset.clips[1].frame_count, 3);
    assert_eq!(asset.clips[1].tracks[0].translation.values[0], Vec3::splat(3.0));

    // TotalBones disagreeing with BONENAMES: reported, keys read with the sequence's stride.
    let file = small_psa(vec![seq("Three", 30.0, 0, 2, 3)], 3);
    let asset = psa::load(&file.to_bytes(), &LoadOptions::default()).unwrap();
    assert!(has_warning(&asset, "TotalBones is 3 but BONENAMES has 2 bones"));
    assert_eq!(asset.clips[0].frame_count, 2);
}

#[test]
fn psk_damage_is_repaired_and_reported() {
    let mut file = tube(3, 4, 2, 10.0);
    let n = file.faces.len();
    file.faces.push(file.faces[0]); // duplicate
    file.faces.push(([0, 0, 1], 0, 1)); // degenerate
    file.faces.push(([0, 4, 5], 0, 1)); // wedges 0 and 4 share point 0: degenerate too
    file.faces.push(([2, 1, 6], 3, 1)); // material 3 does not exist (reversed winding: not a duplicate)
    let asset = load(&file);
    assert_eq!(asset.meshes[0].triangle_count(), n + 1);
    assert!(has_warning(&asset, "2 degenerate face(s)"), "{:?}", asset.warnings);
    assert!(has_warning(&asset, "1 duplicate face(s)"), "{:?}", asset.warnings);
    assert!(has_warning(&asset, "faces use material index 3 but the file has 2; placeholder materials added"));
    assert_eq!(asset.materials.len(), 4);
    asset.meshes[0].validate(asset.skeleton.len()).unwrap();

    // Bad weight rows are skipped and counted.
    let mut file = tube(3, 4, 2, 10.0);
    file.weights.push((1.0, 999, 0));
    file.weights.push((1.0, 0, 7));
    let asset = load(&file);
    assert!(has_warning(&asset, "2 weight row(s) name a point or bone that does not exist"), "{:?}", asset.warnings);

    // Empty optional chunks are the same as none.
    let mut file = tube(3, 4, 2, 10.0);
    file.extra_chunks.push(("VTXNORMS".into(), 12, 0, vec![]));
    file.extra_chunks.push(("VERTEXCOLOR".into(), 4, 0, vec![]));
    file.extra_chunks.push(("EXTRAUVS0".into(), 8, 0, vec![]));
    file.extra_chunks.push(("MRPHINFO".into(), 68, 0, vec![]));
    file.extra_chunks.push(("MRPHDATA".into(), 28, 0, vec![]));
    let asset = load(&file);
    assert!(asset.warnings.is_empty(), "{:?}", asset.warnings);
    assert!(asset.meshes[0].colors.is_empty() && asset.meshes[0].extra_uvs.is_empty());

    // No skeleton, no weights: a root bone is made, the mesh still shows.
    let mut file = tube(3, 4, 2, 10.0);
    file.bones.clear();
    file.weights.clear();
    let asset = load(&file);
    assert_eq!(asset.skeleton.names, ["root"]);
    assert!(has_warning(&asset, "no bones"));
}

#[test]
fn dirty_wedge_padding_and_32_bit_point_indices() {
    // ≤ 65536 points: the padding above the 16-bit index is ignored.
    let mut file = tube(3, 4, 2, 10.0);
    for w in &mut file.wedges {
        w.0 |= 0x00AB_0000;
    }
    let asset = load(&file);
    for (i, w) in file.wedges.iter().enumerate() {
        assert_eq!(asset.meshes[0].positions[i], file.points[(w.0 & 0xFFFF) as usize]);
    }

    // > 65536 points: the full 32 bits are the index.
    let mut file = tube(3, 4, 2, 10.0);
    let far = file.points.len() as u32 + 70_000;
    file.points.resize(far as usize + 1, Vec3::ZERO);
    file.points[far as usize] = Vec3::new(1.0, 2.0, 3.0);
    file.wedges[1].0 = far;
    let asset = load(&file);
    assert_eq!(asset.meshes[0].positions[1], Vec3::new(1.0, 2.0, 3.0));
}

#[test]
fn two_sided_flags_and_textures_next_to_the_file() {
    let dir = std::env::temp_dir().join(format!("bonescope-psk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("Skin.TGA"), b"not really a tga").unwrap();
    let mut file = tube(3, 4, 2, 10.0);
    file.materials[1].1 = 1; // MTT_NormalTwoSided
    let opts = LoadOptions { base_dir: Some(dir.clone()), ..LoadOptions::default() };
    let asset = psk::load(&file.to_bytes(), &opts).unwrap();
    let skin = asset.materials[0].texture.as_ref().unwrap();
    assert_eq!(skin.name, "skin");
    assert_eq!(skin.path.as_deref(), Some(dir.join("Skin.TGA").as_path()));
    assert!(!asset.materials[0].two_sided && asset.materials[1].two_sided);
    assert!(asset.materials[1].texture.as_ref().unwrap().path.is_none());
    assert!(has_warning(&asset, "no texture for material 1 'cloth'"), "{:?}", asset.warnings);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn errors_name_the_chunk_and_the_byte() {
    // REFSKELT with 88-byte records.
    let file = tube(3, 4, 2, 10.0);
    let mut bytes = Vec::new();
    let mut skel_at = 0;
    let good = file.to_bytes();
    let bounds = psk_writer::chunk_boundaries(&good);
    for w in bounds.windows(2) {
        let id = String::from_utf8_lossy(&good[w[0]..w[0] + 8]).to_string();
        if id == "REFSKELT" {
            skel_at = bytes.len();
            chunk(&mut bytes, "REFSKELT", 88, 1, &[0; 88]);
        } else {
            bytes.extend_from_slice(&good[w[0]..w[1]]);
        }
    }
    let err = psk::load(&bytes, &LoadOptions::default()).unwrap_err();
    assert_eq!(err.message, format!("PSK chunk REFSKELT at byte {skel_at}: 120-byte records expected, found 88"));
    assert_eq!(err.position, Position::Byte(skel_at as u64));

    // A wedge naming a point that does not exist.
    let mut file = tube(3, 4, 2, 10.0);
    file.wedges[3].0 = 500;
    let err = psk::load(&file.to_bytes(), &LoadOptions::default()).unwrap_err();
    assert_eq!(err.message, "PSK chunk VTXW0000 at byte 208: wedge 3 refers to point 500, but the file has 12 points");
    assert_eq!(err.position, Position::Byte(208 + 32 + 3 * 16));

    // A face naming a wedge that does not exist.
    let mut file = tube(3, 4, 2, 10.0);
    file.faces[2].0[1] = 4000;
    let err = psk::load(&file.to_bytes(), &LoadOptions::default()).unwrap_err();
    assert_eq!(err.kind, LoadErrorKind::Malformed, "{err}");
    assert!(err.message.contains("FACE0000 at byte") && err.message.contains("face 2 refers to wedge 4000"), "{err}");

    // A parent stored after its child.
    let mut file = tube(3, 4, 3, 10.0);
    file.bones[1].parent = 2;
    let err = psk::load(&file.to_bytes(), &LoadOptions::default()).unwrap_err();
    assert_eq!(err.kind, LoadErrorKind::Malformed, "{err}");
    assert!(err.message.contains("REFSKELT") && err.message.contains("bone 1 'Bone1' names parent 2"), "{err}");

    // A chunk running past the end of the file.
    let mut bytes = file.to_bytes();
    bytes.truncate(bytes.len() - 5);
    let err = psk::load(&bytes, &LoadOptions::default()).unwrap_err();
    assert_eq!(err.kind, LoadErrorKind::Truncated, "{err}");

    // Not a PSK at all, and a PSA handed to the PSK loader.
    let err = psk::load(b"hello world, this is not a psk file at all", &LoadOptions::default()).unwrap_err();
    assert_eq!(err.kind, LoadErrorKind::NotThisFormat, "{err}");
    assert!(err.message.starts_with("not a PSK file"), "{err}");
    let psa_bytes = small_psa(vec![], 0).to_bytes();
    let err = psk::load(&psa_bytes, &LoadOptions::default()).unwrap_err();
    assert_eq!((err.kind, err.position), (LoadErrorKind::NotThisFormat, Position::Byte(0)), "{err}");
}

#[test]
fn larger_records_are_stepped_by_their_declared_size() {
    // A future exporter with 16-byte points (an extra float) and 20-byte wedges.
    let file = tube(3, 4, 2, 10.0);
    let good = file.to_bytes();
    let mut bytes = Vec::new();
    let bounds = psk_writer::chunk_boundaries(&good);
    for w in bounds.windows(2) {
        let id = String::from_utf8_lossy(&good[w[0]..w[0] + 8]).to_string();
        let body = &good[w[0] + 32..w[1]];
        match id.as_str() {
            "PNTS0000" => {
                let data: Vec<u8> = body.chunks(12).flat_map(|r| [r, &[0xEE; 4][..]].concat()).collect();
                chunk(&mut bytes, "PNTS0000", 16, body.len() / 12, &data);
            }
            "VTXW0000" => {
                let data: Vec<u8> = body.chunks(16).flat_map(|r| [r, &[0xEE; 4][..]].concat()).collect();
                chunk(&mut bytes, "VTXW0000", 20, body.len() / 16, &data);
            }
            _ => bytes.extend_from_slice(&good[w[0]..w[1]]),
        }
    }
    let a = psk::load(&bytes, &LoadOptions::default()).unwrap();
    let b = load(&file);
    assert_eq!(a.meshes[0].positions, b.meshes[0].positions);
    assert_eq!(a.meshes[0].uvs, b.meshes[0].uvs);
}

/// A box whose sides are written as separate wedges (as exporters do at hard edges), faces clockwise from outside.
fn box_psk(groups: impl Fn(usize) -> u32) -> Psk {
    let mut file = Psk::default();
    for i in 0..8 {
        file.points.push(Vec3::new(
            (i & 1) as f32 * 2.0 - 1.0,
            (i >> 1 & 1) as f32 * 2.0 - 1.0,
            (i >> 2) as f32 * 2.0 - 1.0,
        ));
    }
    // Each side: outward normal, corners counter-clockwise seen from outside.
    let sides: [(Vec3, [u32; 4]); 6] = [
        (Vec3::X, [1, 3, 7, 5]),
        (-Vec3::X, [0, 4, 6, 2]),
        (Vec3::Y, [2, 6, 7, 3]),
        (-Vec3::Y, [0, 1, 5, 4]),
        (Vec3::Z, [4, 5, 7, 6]),
        (-Vec3::Z, [0, 2, 3, 1]),
    ];
    for (side, (_, corners)) in sides.iter().enumerate() {
        let base = file.wedges.len() as u32;
        for &p in corners {
            file.wedges.push((p, 0.0, 0.0, 0));
        }
        // Clockwise from outside: reverse the counter-clockwise order.
        file.faces.push(([base, base + 2, base + 1], 0, groups(side)));
        file.faces.push(([base, base + 3, base + 2], 0, groups(side)));
    }
    file.materials.push(("box".into(), 0));
    file.bones.push(Bone::new("root", 0, Quat::IDENTITY, Vec3::ZERO));
    file.weights = (0..8).map(|p| (1.0, p, 0)).collect();
    file
}

#[test]
fn computed_normals_follow_smoothing_groups_and_point_outward() {
    // One group per side: hard edges, every wedge gets its side's normal.
    let flat = load(&box_psk(|side| 1 << side));
    for (w, n) in flat.meshes[0].normals.iter().enumerate() {
        let side = w / 4;
        let expected = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z][side];
        assert!(n.abs_diff_eq(expected, 1e-5), "wedge {w}: {n}");
    }
    // One group for all: the wedges at a corner share the corner's diagonal.
    let smooth = load(&box_psk(|_| 1));
    let mesh = &smooth.meshes[0];
    for (p, n) in mesh.positions.iter().zip(&mesh.normals) {
        assert!(n.abs_diff_eq(p.normalize(), 1e-5), "{p}: {n}");
    }
    // Group 0 (no smoothing) is flat as well.
    let none = load(&box_psk(|_| 0));
    assert_eq!(none.meshes[0].normals, flat.meshes[0].normals);
    assert!(flat.warnings.is_empty(), "{:?}", flat.warnings);
}

/// The fused assembly path (weight rows indexed where they are, vertices written in one wedge pass, index buffer
/// written during the face checks) against the general one (rows in another order go through a counting sort,
/// faces out of material order through a counting sort of the index buffer): the same mesh either way, with every
/// wedge's influences those of its point and the report counting points, not wedges.
#[test]
fn weight_and_face_order_do_not_change_the_mesh() {
    let mut file = tube(40, 30, 8, 300.0);
    file.face32 = true;
    file.normals = file.points.iter().map(|p| Vec3::new(0.0, p.y, p.z).normalize_or_zero()).collect();
    let sorted = load(&file);
    let mut shuffled = file.clone();
    shuffled.weights.reverse();
    // Alternate the materials of the second half's faces so they are no longer in material order.
    let half = shuffled.faces.len() / 2;
    for (i, face) in shuffled.faces.iter_mut().enumerate().skip(half) {
        face.1 = (i % 2) as u8;
    }
    let mut regrouped = file.clone();
    regrouped.faces = shuffled.faces.clone();
    let (a, b, c) = (&sorted.meshes[0], &load(&shuffled).meshes[0], &load(&regrouped).meshes[0]);

    assert_eq!(a.vertex_count(), file.wedges.len());
    assert_eq!(a.triangle_count(), file.faces.len());
    assert_eq!(a.influence_report.vertices, file.points.len(), "one report entry per point");
    // The seam's wedges share their points: both carry the point's influences and normal.
    for (w, wedge) in file.wedges.iter().enumerate() {
        let point = wedge.0 as usize;
        let first = file.wedges.iter().position(|other| other.0 == wedge.0).unwrap();
        assert_eq!((a.joints[w], a.weights[w]), (a.joints[first], a.weights[first]), "wedge {w}");
        assert!(a.normals[w].abs_diff_eq(file.normals[point], 1e-6), "wedge {w}");
        let rows: Vec<_> = file.weights.iter().filter(|r| r.1 as usize == point).collect();
        let heaviest = rows.iter().max_by(|x, y| x.0.total_cmp(&y.0)).unwrap();
        assert_eq!(a.joints[w][0], heaviest.2 as u16, "wedge {w}");
        assert!((a.weights[w].iter().sum::<f32>() - 1.0).abs() < 1e-5, "wedge {w}");
    }
    // Reversed weight rows: the same vertices, the same report.
    assert_eq!((&a.positions, &a.uvs, &a.normals), (&b.positions, &b.uvs, &b.normals));
    assert_eq!((&a.joints, &a.weights, a.influence_report), (&b.joints, &b.weights, b.influence_report));
    // Faces out of material order: grouped by material, face order kept within each group.
    assert_eq!(b.indices, c.indices);
    assert_eq!(b.subsets, c.subsets);
    let material_of = |m: u8| shuffled.faces.iter().filter(move |f| f.1 == m).flat_map(|f| f.0).collect::<Vec<u32>>();
    let expected: Vec<u32> = material_of(0).into_iter().chain(material_of(1)).collect();
    assert_eq!(b.indices, expected);
    assert_eq!(b.subsets.len(), 2);
    assert_eq!(b.subsets[1].first_index as usize, material_of(0).len());
}
