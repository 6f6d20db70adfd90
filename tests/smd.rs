//! SMD and VTA loading: corpus files, files written here (reference + animation pairs, VTAs, broken files),
//! bind pose, playback, welding, error positions.

mod common;

use std::fmt::Write as _;
use std::path::PathBuf;

use bonescope::anim::{Pose, bind_pose_error, skin_mesh};
use bonescope::io::{self, LoadErrorKind, LoadOptions, Position, smd};
use bonescope::scene::{Asset, AxisConversion, Format, Mesh};
use common::Rng;
use glam::{Mat4, Vec3};

fn load_str(text: &str) -> Asset {
    smd::load(text.as_bytes(), &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn load_error(text: &str) -> io::LoadError {
    match smd::load(text.as_bytes(), &LoadOptions::default()) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e,
    }
}

fn load_err(text: &str) -> String {
    load_error(text).to_string()
}

/// A fresh folder under the system temp dir for files a test writes.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-smd-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn corner_count(mesh: &Mesh) -> usize {
    mesh.corner_vertices.len()
}

// ---------------------------------------------------------------------------------------------------------
// Corpus

#[test]
fn corpus_triangle() {
    let Some(path) = common::corpus_file("smd/triangle.smd") else { return };
    let asset = io::load_path(&path, &LoadOptions::default()).unwrap();
    assert_eq!(asset.format, Some(Format::Smd));
    assert_eq!(asset.skeleton.len(), 1);
    assert_eq!(asset.skeleton.names[0], "TriangleTest0");
    assert_eq!(asset.triangle_count(), 1);
    assert_eq!(asset.vertex_count(), 3);
    assert_eq!(asset.axes, AxisConversion::z_up_right_handed());
    let mesh = &asset.meshes[0];
    assert_eq!(mesh.positions[2], Vec3::new(1.0, 1.0, 0.0));
    assert_eq!(mesh.validate(asset.skeleton.len()), Ok(()));
    assert_eq!(asset.materials.len(), 1);
    assert_eq!(asset.materials[0].name, "none.quak");
    assert!(asset.clips.is_empty());
}

#[test]
fn corpus_holy_grail_is_textured_and_welded() {
    let Some(path) = common::corpus_file("smd/holy_grailref.smd") else { return };
    let asset = io::load_path(&path, &LoadOptions::default()).unwrap();
    assert_eq!(asset.triangle_count(), 896);
    let mesh = &asset.meshes[0];
    assert_eq!(corner_count(mesh), 896 * 3);
    assert!(mesh.vertex_count() < corner_count(mesh), "{} welded of {}", mesh.vertex_count(), corner_count(mesh));
    assert_eq!(asset.materials.len(), 1, "one material for 896 triangles naming the same texture");
    let texture = asset.materials[0].texture.as_ref().unwrap();
    assert_eq!(texture.name, "holygrail.tga");
    let found = texture.path.as_ref().expect("holygrail.tga sits next to the model");
    assert_eq!(found.file_name().unwrap(), "holygrail.tga");
    assert!(found.is_file());
    assert_eq!(mesh.validate(asset.skeleton.len()), Ok(()));
    assert!(asset.warnings.is_empty(), "{:?}", asset.warnings);
    assert_counter_clockwise(mesh);
}

#[test]
fn corpus_wuson() {
    let Some(path) = common::corpus_file("smd/WusonSMD.smd") else { return };
    let asset = io::load_path(&path, &LoadOptions::default()).unwrap();
    assert_eq!(asset.triangle_count(), 3732);
    assert_eq!(asset.skeleton.names, ["root"]);
    let mesh = &asset.meshes[0];
    assert!(mesh.vertex_count() < corner_count(mesh), "{} welded of {}", mesh.vertex_count(), corner_count(mesh));
    assert!(mesh.weights.iter().all(|w| *w == [1.0, 0.0, 0.0, 0.0]));
    assert_eq!(mesh.validate(1), Ok(()));
    assert_counter_clockwise(mesh);
}

/// Most faces wind counter-clockwise around their vertex normals (so `clockwise: false` is right).
fn assert_counter_clockwise(mesh: &Mesh) {
    let mut agree = 0;
    let tris = mesh.indices.chunks_exact(3);
    let total = tris.len();
    for t in tris {
        let [a, b, c] = [t[0] as usize, t[1] as usize, t[2] as usize];
        let face = (mesh.positions[b] - mesh.positions[a]).cross(mesh.positions[c] - mesh.positions[a]);
        if face.dot(mesh.normals[a] + mesh.normals[b] + mesh.normals[c]) > 0.0 {
            agree += 1;
        }
    }
    assert!(!mesh.clockwise);
    assert!(agree * 10 > total * 9, "{agree} of {total} faces agree with their normals");
}

#[test]
fn corpus_overlapping_different_weights_stay_separate() {
    let Some(path) = common::corpus_file("smd/bst_Overlapping_DifferentWeights.smd") else { return };
    let asset = io::load_path(&path, &LoadOptions::default()).unwrap();
    let mesh = &asset.meshes[0];
    assert_eq!(asset.triangle_count(), 2);
    // (1,-1,0) and (-1,1,0) appear in both triangles: once bound to bone 0, once to bone 1 via a link.
    assert_eq!(mesh.vertex_count(), 6);
    for p in [Vec3::new(1.0, -1.0, 0.0), Vec3::new(-1.0, 1.0, 0.0)] {
        let at: Vec<usize> = (0..mesh.vertex_count()).filter(|&v| mesh.positions[v] == p).collect();
        assert_eq!(at.len(), 2, "{p}");
        assert_ne!(mesh.joints[at[0]][0], mesh.joints[at[1]][0]);
    }
    let bone = asset.skeleton.find("Bone").unwrap();
    assert_eq!(mesh.joints.iter().filter(|j| usize::from(j[0]) == bone).count(), 3);
}

#[test]
fn corpus_action_filter_animation() {
    let Some(path) = common::corpus_file("smd/bst_ActionFilter_X_Axis.smd") else { return };
    let asset = io::load_path(&path, &LoadOptions::default()).unwrap();
    assert!(asset.meshes.is_empty());
    let clip = asset.clip("bst_ActionFilter_X_Axis").expect("the clip is named after the file");
    assert_eq!(clip.frame_count, 3);
    assert_eq!(clip.frame_rate, 30.0);
    assert!((clip.duration - 2.0 / 30.0).abs() < 1e-6);
    let track = clip.track_for("Bone").unwrap();
    let xs: Vec<f32> = track.translation.values.iter().map(|v| v.x).collect();
    assert_eq!(xs, [0.0, 1.0, 2.0]);
    let pose = Pose::from_clip(&asset.skeleton, clip, 1.5 / 30.0);
    let bone = asset.skeleton.find("Bone").unwrap();
    assert!((pose.to_root[bone].w_axis.x - 1.5).abs() < 1e-5);
    // 90° about X: the bone's Y axis points along +Z.
    assert!(pose.to_root[bone].y_axis.truncate().abs_diff_eq(Vec3::Z, 1e-5));
}

#[test]
fn corpus_cube_vta_loads_named_morph() {
    let Some(path) = common::corpus_file("vta/bst_Cube_NoArmature.vta") else { return };
    let vta = io::load_path(&path, &LoadOptions::default()).unwrap();
    assert_eq!(vta.format, Some(Format::Vta));
    let mesh = &vta.meshes[0];
    assert_eq!(mesh.vertex_count(), 36);
    assert_eq!(mesh.morph_targets.len(), 1);
    let morph = &mesh.morph_targets[0];
    assert_eq!(morph.name, "Key 1");
    assert_eq!(morph.vertices.len(), 18);
    assert!(morph.position_deltas.iter().all(|d| *d == Vec3::new(0.0, 0.0, 1.0)));
    // The corners it moves are the ones on the top (z = 1).
    for &v in &morph.vertices {
        assert_eq!(mesh.positions[v as usize].z, 1.0);
    }
}

/// The cube reference the VTA was exported with, rebuilt from the VTA's base frame (12 triangles of 3
/// consecutive corners), optionally with its triangles in reverse order.
fn cube_reference_from_vta(vta: &Asset, reversed: bool) -> String {
    let base = &vta.meshes[0];
    let mut s = String::from("version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\ntriangles\n");
    let mut tris: Vec<usize> = (0..base.vertex_count() / 3).collect();
    if reversed {
        tris.reverse();
    }
    for t in tris {
        s.push_str("cube\n");
        for v in t * 3..t * 3 + 3 {
            let (p, n) = (base.positions[v], base.normals[v]);
            // A per-face UV so corners of one face weld and faces stay apart.
            writeln!(s, "0 {} {} {} {} {} {} {} {}", p.x, p.y, p.z, n.x, n.y, n.z, p.x + p.y, p.z).unwrap();
        }
    }
    s.push_str("end\n");
    s
}

#[test]
fn corpus_cube_vta_attaches_to_its_reference_by_corner_and_by_position() {
    let Some(path) = common::corpus_file("vta/bst_Cube_NoArmature.vta") else { return };
    let vta = io::load_path(&path, &LoadOptions::default()).unwrap();
    for reversed in [false, true] {
        let mut reference = load_str(&cube_reference_from_vta(&vta, reversed));
        assert_eq!(reference.vertex_count(), 24, "a cube welds into 4 corners per face");
        let binding = smd::attach_vta(&mut reference, &vta).unwrap();
        assert_eq!(binding.morph_targets, 1);
        assert_eq!(binding.unmatched, 0);
        if reversed {
            // Corner order no longer fits: the position rule takes over for the corners the order misplaces.
            assert!(binding.by_position > 0, "{binding:?}");
        } else {
            assert_eq!((binding.by_corner, binding.by_position), (18, 0));
        }
        let mesh = &reference.meshes[0];
        let morph = &mesh.morph_targets[0];
        assert_eq!(morph.name, "Key 1");
        // Every vertex on the top of the cube (4 positions × 3 faces) rises by 1; no other vertex moves.
        let top: Vec<u32> = (0..mesh.vertex_count() as u32).filter(|&v| mesh.positions[v as usize].z == 1.0).collect();
        assert_eq!(morph.vertices, top, "reversed: {reversed}");
        assert!(morph.position_deltas.iter().all(|d| *d == Vec3::Z));
    }
}

#[test]
fn vta_of_another_model_is_refused() {
    let vta = smd::load_vta(
        b"version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\nend\nvertexanimation\ntime 0\n0 50 50 50 0 0 1\ntime 1\n0 51 50 50 0 0 1\nend\n",
        &LoadOptions::default(),
    )
    .unwrap();
    let mut reference = load_str(&two_bone_reference());
    let err = smd::attach_vta(&mut reference, &vta).unwrap_err();
    assert_eq!(err.kind, LoadErrorKind::Mismatch, "{err}");
    assert!(err.message.contains("matches a vertex"), "{err}");
}

#[test]
fn corpus_empty_file_is_a_clear_error() {
    let Some(path) = common::corpus_file("smd/empty.smd") else { return };
    let err = io::load_path(&path, &LoadOptions::default()).unwrap_err();
    assert_eq!(err.kind, LoadErrorKind::Empty, "{err}");
    assert_eq!(err.file.as_deref(), Some(path.as_path()));
    let err = smd::load(&std::fs::read(&path).unwrap(), &LoadOptions::default()).unwrap_err();
    assert_eq!((err.position, err.kind), (Position::Line(1), LoadErrorKind::NotThisFormat));
    assert!(err.message.contains("no SMD data"), "{err}");
}

// ---------------------------------------------------------------------------------------------------------
// Broken files

#[test]
fn every_prefix_of_triangle_smd_loads_or_fails_with_a_line() {
    let Some(path) = common::corpus_file("smd/triangle.smd") else { return };
    let bytes = std::fs::read(path).unwrap();
    let mut errors = 0;
    for len in 0..=bytes.len() {
        let prefix = &bytes[..len];
        let lines = prefix.split(|b| *b == b'\n').count();
        match smd::load(prefix, &LoadOptions::default()) {
            Ok(asset) => assert!(asset.triangle_count() <= 1),
            Err(e) => {
                errors += 1;
                let Position::Line(n) = e.position else { panic!("no line for prefix {len}: {e}") };
                assert!((1..=lines).contains(&n), "prefix {len}: line {n} of {lines}: {e}");
                assert!(!e.message.is_empty());
            }
        }
    }
    assert!(errors > bytes.len() / 2);
}

fn check_mutants(original: &[u8], rounds: usize, seed: u64, vta: bool) {
    let mut rng = Rng(seed);
    const BYTES: &[u8] = b"0123456789-.e \t\n\r\"/#endtimxyz\0\xff";
    for _ in 0..rounds {
        let mut bytes = original.to_vec();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(bytes.len());
            match rng.below(4) {
                0 => bytes[at] = BYTES[rng.below(BYTES.len())],
                1 => bytes[at] ^= 1 << rng.below(8),
                2 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, BYTES[rng.below(BYTES.len())]),
            }
        }
        let lines = bytes.split(|b| *b == b'\n').count();
        let result = if vta {
            smd::load_vta(&bytes, &LoadOptions::default())
        } else {
            smd::load(&bytes, &LoadOptions::default())
        };
        if let Err(e) = result {
            let Position::Line(n) = e.position else { panic!("no line: {e}") };
            assert!((1..=lines).contains(&n), "line {n} of {lines}: {e}");
        }
    }
}

/// `BONESCOPE_FUZZ_ROUNDS` raises the number of mutants per file (300 by default) for longer local runs.
#[test]
fn random_byte_flips_never_panic() {
    let rounds = std::env::var("BONESCOPE_FUZZ_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(300);
    check_mutants(two_bone_reference().as_bytes(), rounds, 0x5eed_0001, false);
    check_mutants(two_bone_animation(&[0, 1, 2], &[]).as_bytes(), rounds, 0x5eed_0002, false);
    check_mutants(VTA_SMALL.as_bytes(), rounds, 0x5eed_0003, true);
    check_mutants(VTA_REFERENCE.as_bytes(), rounds, 0x5eed_0005, false);
    if let Some(path) = common::corpus_file("smd/triangle.smd") {
        check_mutants(&std::fs::read(path).unwrap(), rounds, 0x5eed_0004, false);
    }
}

#[test]
fn error_messages_name_line_and_expectation() {
    let base = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\ntriangles\nmat\n";
    let short = format!("{base}0 1 2 3 4 5\n0 1 1 1 0 0 1 0 0\n0 1 1 1 0 0 1 0 0\nend\n");
    assert_eq!(
        load_err(&short),
        "line 11: expected 8 numbers after the bone index (position x y z, normal x y z, u v), found 5"
    );
    let bad_bone = format!("{base}0 0 0 0 0 0 1 0 0\n3 1 0 0 0 0 1 0 0\n0 1 1 0 0 0 1 0 0\nend\n");
    assert_eq!(load_err(&bad_bone), "line 12: bone 3 is not in the `nodes` block");
    let bad_number = format!("{base}0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1x 0 0\n0 1 1 0 0 0 1 0 0\nend\n");
    assert_eq!(load_err(&bad_number), "line 12: expected a number for the normal z, found `1x`");
    let short_links = format!("{base}0 0 0 0 0 0 1 0 0 2 0 0.5\n0 1 0 0 0 0 1 0 0\n0 1 1 0 0 0 1 0 0\nend\n");
    assert!(load_err(&short_links).starts_with("line 11: expected 2 bone/weight pairs"), "{}", load_err(&short_links));
    let no_end = format!("{base}0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 0 0\n0 1 1 0 0 0 1 0 0\n");
    assert_eq!(
        load_err(&no_end),
        "line 13: the file ends inside the `triangles` block that starts on line 9: expected `end`"
    );
    assert_eq!(load_error(&no_end).kind, LoadErrorKind::Truncated);
    assert_eq!(load_error(&short).kind, LoadErrorKind::Malformed);
    assert_eq!(load_error(&bad_number).kind, LoadErrorKind::Malformed);
    let cut_triangle = format!("{base}0 0 0 0 0 0 1 0 0\n");
    assert_eq!(
        (load_error(&cut_triangle).kind, load_error(&cut_triangle).position),
        (LoadErrorKind::Truncated, Position::Line(11))
    );
    let early_end = format!("{base}0 0 0 0 0 0 1 0 0\nend\n");
    assert!(load_err(&early_end).starts_with("line 12: `end` inside the triangle whose material is on line 10"));
    let unknown = "version 1\nnodes\n0 \"root\" -1\nend\nbones\nend\n";
    assert!(load_err(unknown).starts_with("line 5: unknown block `bones`"), "{}", load_err(unknown));
    let skeleton_short = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0\nend\n";
    assert_eq!(
        load_err(skeleton_short),
        "line 7: expected 6 numbers after the bone index (position x y z, rotation x y z), found 5"
    );
    let bad_parent = "version 1\nnodes\n0 \"root\" -1\n1 \"arm\" 4\nend\n";
    assert_eq!(load_err(bad_parent), "line 4: parent 4 of bone 1 \"arm\" is not in the `nodes` block");
    let cycle = "version 1\nnodes\n0 \"a\" 1\n1 \"b\" 0\nend\n";
    assert!(load_err(cycle).contains("parent cycle"), "{}", load_err(cycle));
}

#[test]
fn a_repeated_node_is_read_once_and_the_last_definition_wins() {
    // Identical repeats (as the GoldSrc-derived engine's exporters write them): one warning naming every pair.
    let same = "version 1\nnodes\n0 \"a\" -1\n1 \"b\" 0\n2 \"c\" -1\n1 \"b\" 0\n2 \"c\" -1\nend\n";
    let asset = load_str(same);
    assert_eq!(asset.skeleton.names, ["a", "b", "c"]);
    assert_eq!(asset.skeleton.parents, [None, Some(0), None]);
    let repeats: Vec<String> =
        asset.warnings.iter().map(ToString::to_string).filter(|w| w.contains("repeats")).collect();
    assert_eq!(repeats.len(), 1, "{:?}", asset.warnings);
    assert!(repeats[0].contains("1 (lines 4 and 6), 2 (lines 5 and 7)"), "{}", repeats[0]);
    // A repeat that differs: the later definition is used (studiomdl overwrites by index); both lines reported.
    let differs = "version 1\nnodes\n0 \"a\" -1\n1 \"old\" -1\n1 \"new\" 0\nend\n";
    let asset = load_str(differs);
    assert_eq!(asset.skeleton.names, ["a", "new"]);
    assert_eq!(asset.skeleton.parents, [None, Some(0)]);
    let warning = asset.warnings.iter().map(ToString::to_string).find(|w| w.contains("differently")).unwrap();
    assert!(warning.contains("line 4 \"old\" (parent -1), line 5 \"new\" (parent 0)"), "{warning}");
}

#[test]
fn corpus_pathos_walk_with_repeated_nodes_loads() {
    let Some(path) = common::corpus_file("smd/pathos_replica_walk.smd") else { return };
    let asset = io::load_path(&path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let names = &asset.skeleton.names;
    assert_eq!(names.iter().filter(|n| *n == "smdimport").count(), 1);
    assert_eq!(names.iter().filter(|n| *n == "smdimport02").count(), 1);
    assert_eq!(asset.clips.len(), 1);
    let warning = asset.warnings.iter().map(ToString::to_string).find(|w| w.contains("repeats")).unwrap();
    assert!(warning.contains("98 (lines 94 and 101), 99 (lines 95 and 102)"), "{warning}");
}

// ---------------------------------------------------------------------------------------------------------
// Files written here

/// The root's turn about Z in the files below.
const ROOT_TURN: f32 = std::f32::consts::FRAC_PI_2;

/// Bone 0 "root" at (0,0,10) turned 90° about Z; bone 1 "arm" 5 along the root's X, turned by (0.3, -0.2, 0.5).
/// Two boxes' worth of triangles: a quad rigid on each bone, and one shared triangle with Source links.
fn two_bone_reference() -> String {
    let mut s = format!(
        "version 1\nnodes\n0 \"root\" -1\n1 \"arm\" 0\nend\nskeleton\ntime 0\n0 0 0 10 0 0 {ROOT_TURN}\n1 5 0 0 0.3 -0.2 0.5\nend\ntriangles\n",
    );
    // Quad near the root bone, quad near the arm (model space: the arm's origin is at (0,5,10)).
    let quads = [(0, Vec3::new(-1.0, -1.0, 10.0)), (1, Vec3::new(-1.0, 5.0, 10.0))];
    for (bone, o) in quads {
        let corners = [o, o + Vec3::X * 2.0, o + Vec3::new(2.0, 2.0, 0.0), o + Vec3::Y * 2.0];
        for tri in [[0, 1, 2], [0, 2, 3]] {
            s.push_str(if bone == 0 { "body.tga\n" } else { "arm\n" });
            for &c in &tri {
                let p = corners[c];
                writeln!(s, "{bone} {} {} {} 0 0 1 {} {}", p.x, p.y, p.z, c as f32 * 0.25, 0.5).unwrap();
            }
        }
    }
    // A blended triangle (Source links): weights 0.25 to the arm, the rest to the parent bone 0.
    s.push_str("body.tga\n");
    for p in [Vec3::new(0.0, 3.0, 10.0), Vec3::new(1.0, 3.0, 10.0), Vec3::new(0.0, 4.0, 10.0)] {
        writeln!(s, "0 {} {} {} 0 0 1 0 0 1 1 0.25", p.x, p.y, p.z).unwrap();
    }
    s.push_str("end\n");
    s
}

/// An animation of the two-bone rig: frame k turns the root by `k * 0.4` more about Z and bends the arm;
/// `skip_arm` lists frames that leave the arm out.
fn two_bone_animation(frames: &[i32], skip_arm: &[i32]) -> String {
    let mut s = String::from("version 1\nnodes\n0 \"root\" -1\n1 \"arm\" 0\nend\nskeleton\n");
    for &k in frames {
        let k_f = k as f32;
        writeln!(s, "time {k}").unwrap();
        writeln!(s, "0 {} 0 10 0 0 {}", k_f, ROOT_TURN + 0.4 * k_f).unwrap();
        if !skip_arm.contains(&k) {
            writeln!(s, "1 5 0 0 {} -0.2 {}", 0.3 + 0.3 * k_f, 0.5 - 0.2 * k_f).unwrap();
        }
    }
    s.push_str("end\n");
    s
}

#[test]
fn bind_pose_offsets_invert_to_root_and_skinning_reproduces_the_file() {
    let asset = load_str(&two_bone_reference());
    let skeleton = &asset.skeleton;
    assert_eq!(skeleton.names, ["root", "arm"]);
    assert!(bind_pose_error(skeleton).iter().all(|e| *e < 1e-5), "{:?}", bind_pose_error(skeleton));
    // To-root by the spec's formula, written out: local = T · Rz · Ry · Rx, child = parent · local.
    let local = |t: Vec3, r: Vec3| {
        Mat4::from_translation(t) * Mat4::from_rotation_z(r.z) * Mat4::from_rotation_y(r.y) * Mat4::from_rotation_x(r.x)
    };
    let root = local(Vec3::new(0.0, 0.0, 10.0), Vec3::new(0.0, 0.0, ROOT_TURN));
    let arm = root * local(Vec3::new(5.0, 0.0, 0.0), Vec3::new(0.3, -0.2, 0.5));
    let to_root = skeleton.bind_to_root();
    assert!(to_root[0].abs_diff_eq(root, 1e-5));
    assert!(to_root[1].abs_diff_eq(arm, 1e-5));
    assert!(arm.w_axis.truncate().abs_diff_eq(Vec3::new(0.0, 5.0, 10.0), 1e-5), "the arm sits 5 along the root's X");
    for (m, o) in to_root.iter().zip(&skeleton.inverse_bind) {
        assert!((*o * *m).abs_diff_eq(Mat4::IDENTITY, 1e-5));
    }
    // Skinning at the bind pose, and at time 0 of an animation whose first frame is the bind pose, gives back
    // the file's positions.
    let mesh = &asset.meshes[0];
    let (mut positions, mut normals) = (Vec::new(), Vec::new());
    skin_mesh(mesh, &Pose::bind(skeleton).palette, &mut positions, &mut normals);
    for (a, b) in positions.iter().zip(&mesh.positions) {
        assert!(a.abs_diff_eq(*b, 1e-4), "{a} vs {b}");
    }
    let mut with_anim = asset.clone();
    with_anim.bind_animations(load_str(&two_bone_animation(&[0, 1, 2], &[])));
    let pose = Pose::from_clip(&with_anim.skeleton, &with_anim.clips[0], 0.0);
    skin_mesh(mesh, &pose.palette, &mut positions, &mut normals);
    for (a, b) in positions.iter().zip(&mesh.positions) {
        assert!(a.abs_diff_eq(*b, 1e-4), "{a} vs {b}");
    }
}

#[test]
fn source_links_give_the_remainder_to_the_parent() {
    let asset = load_str(&two_bone_reference());
    let mesh = &asset.meshes[0];
    let blended: Vec<usize> = (0..mesh.vertex_count()).filter(|&v| mesh.weights[v][1] > 0.0).collect();
    assert_eq!(blended.len(), 3);
    for v in blended {
        assert_eq!(mesh.joints[v][..2], [0, 1]);
        assert_eq!(mesh.weights[v], [0.75, 0.25, 0.0, 0.0]);
    }
    // Two materials, each one subset; "arm" has no texture on disk but keeps its name.
    assert_eq!(asset.materials.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["body.tga", "arm"]);
    assert_eq!(mesh.subsets.len(), 2);
    assert_eq!(mesh.subsets[0].index_count, 3 * 3);
    assert_eq!(mesh.subsets[1].index_count, 2 * 3);
}

#[test]
fn more_than_four_links_keep_the_four_largest() {
    let mut s = String::from("version 1\nnodes\n");
    for b in 0..6 {
        writeln!(s, "{b} \"b{b}\" {}", b - 1).unwrap();
    }
    s.push_str("end\nskeleton\ntime 0\n");
    for b in 0..6 {
        writeln!(s, "{b} 1 0 0 0 0 0").unwrap();
    }
    s.push_str("end\ntriangles\nm\n");
    for x in 0..3 {
        writeln!(s, "0 {x} {} 0 0 0 1 0 0 5 1 0.1 2 0.3 3 0.05 4 0.25 5 0.3", x % 2).unwrap();
    }
    s.push_str("end\n");
    let asset = load_str(&s);
    let mesh = &asset.meshes[0];
    assert_eq!(mesh.joints[0], [2, 5, 4, 1]);
    assert!((mesh.weights[0].iter().sum::<f32>() - 1.0).abs() < 1e-6);
    assert!(asset.warnings.iter().any(|w| w.message.contains("more than four")), "{:?}", asset.warnings);
}

#[test]
fn animation_plays_and_keeps_rigid_edges() {
    let mut asset = load_str(&two_bone_reference());
    let report = asset.bind_animations(load_str(&two_bone_animation(&[0, 1, 2, 3], &[])));
    assert!(report.unmatched_tracks.is_empty());
    let clip = &asset.clips[0];
    assert_eq!(clip.frame_count, 4);
    let mesh = &asset.meshes[0];
    let (mut bind_p, mut n) = (Vec::new(), Vec::new());
    skin_mesh(mesh, &Pose::bind(&asset.skeleton).palette, &mut bind_p, &mut n);
    let pose = Pose::from_clip(&asset.skeleton, clip, 2.5 / 30.0);
    let mut moved = Vec::new();
    skin_mesh(mesh, &pose.palette, &mut moved, &mut n);
    let max_move = moved.iter().zip(&bind_p).map(|(a, b)| a.distance(*b)).fold(0.0f32, f32::max);
    assert!(max_move > 1.0, "the mesh moves ({max_move})");
    let rigid = |v: usize| mesh.weights[v][0] == 1.0;
    let mut checked = 0;
    for t in mesh.indices.chunks_exact(3) {
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            let (a, b) = (a as usize, b as usize);
            if rigid(a) && rigid(b) && mesh.joints[a][0] == mesh.joints[b][0] {
                let before = bind_p[a].distance(bind_p[b]);
                let after = moved[a].distance(moved[b]);
                assert!((after - before).abs() <= 0.02 * before, "edge {a}-{b}: {before} → {after}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 12);
}

#[test]
fn bones_missing_from_a_frame_hold_their_previous_value() {
    let asset = load_str(&two_bone_animation(&[0, 1, 2, 3], &[1, 2]));
    let clip = &asset.clips[0];
    let arm = clip.track_for("arm").unwrap();
    let at = |t: f32| Pose::from_clip(&asset.skeleton, clip, t / 30.0).local[1].rotation;
    // Frames 1 and 2 hold frame 0's arm; frame 3 has its own value; between 2 and 3 it interpolates.
    assert!(at(1.0).abs_diff_eq(at(0.0), 1e-6));
    assert!(at(2.0).abs_diff_eq(at(0.0), 1e-6));
    assert!(at(1.5).abs_diff_eq(at(0.0), 1e-6));
    assert!(!at(3.0).abs_diff_eq(at(0.0), 1e-3));
    assert!(!at(2.5).abs_diff_eq(at(2.0), 1e-3));
    assert_eq!(arm.rotation.times.len(), 3, "frame 0, a hold key at frame 2, frame 3");
    // The root is listed every frame.
    let root = clip.track_for("root").unwrap();
    assert_eq!(root.translation.times.len(), 4);
    // A bone's two channels share their key times; bones keyed at other frames have their own.
    assert!(std::sync::Arc::ptr_eq(&root.translation.times, &root.rotation.times));
    assert!(std::sync::Arc::ptr_eq(&arm.translation.times, &arm.rotation.times));
    assert!(!std::sync::Arc::ptr_eq(&root.translation.times, &arm.translation.times));
}

#[test]
fn sparse_and_unordered_frames_are_sorted_and_timed_from_the_first() {
    let text = two_bone_animation(&[20, 10, 30], &[]);
    let opts = LoadOptions { default_fps: 10.0, ..LoadOptions::default() };
    let asset = smd::load(text.as_bytes(), &opts).unwrap();
    let clip = &asset.clips[0];
    assert_eq!(clip.frame_rate, 10.0);
    assert_eq!(clip.frame_count, 21);
    assert!((clip.duration - 2.0).abs() < 1e-6);
    let root = clip.track_for("root").unwrap();
    assert_eq!(root.translation.times[..], [0.0, 1.0, 2.0]);
    assert_eq!(root.translation.values.iter().map(|v| v.x).collect::<Vec<_>>(), [10.0, 20.0, 30.0]);
}

#[test]
fn several_animation_smds_bind_to_one_mesh_as_named_clips() {
    let dir = scratch("clips");
    std::fs::write(dir.join("hero.smd"), two_bone_reference()).unwrap();
    std::fs::write(dir.join("walk.smd"), two_bone_animation(&[0, 1, 2], &[])).unwrap();
    std::fs::write(dir.join("wave.smd"), two_bone_animation(&[0, 1, 2, 3, 4, 5], &[])).unwrap();
    let files = ["hero.smd", "walk.smd", "wave.smd"].map(|f| dir.join(f));
    let (asset, reports) = bonescope::source::load_files(&files, &LoadOptions::default()).into_result().unwrap();
    assert_eq!(asset.clips.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["walk", "wave"]);
    assert_eq!(asset.clip("wave").unwrap().frame_count, 6);
    assert!(reports.iter().all(|r| r.unmatched_tracks.is_empty()));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn textures_resolve_with_common_extensions() {
    let dir = scratch("textures");
    let text = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\ntriangles\n\
        skin\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\n\
        Face.BMP\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\n\
        skin\n0 0 0 1 0 0 1 0 0\n0 1 0 1 0 0 1 1 0\n0 0 1 1 0 0 1 0 1\nend\n";
    std::fs::write(dir.join("model.smd"), text).unwrap();
    std::fs::write(dir.join("skin.png"), b"png").unwrap();
    std::fs::write(dir.join("face.tga"), b"tga").unwrap();
    let asset = io::load_path(&dir.join("model.smd"), &LoadOptions::default()).unwrap();
    assert_eq!(asset.materials.len(), 2);
    let found = |i: usize| asset.materials[i].texture.as_ref().unwrap().path.clone().unwrap();
    assert_eq!(found(0), dir.join("skin.png"));
    assert_eq!(found(1), dir.join("face.tga"));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn crlf_tabs_comments_and_missing_final_newline_read_the_same() {
    let plain = two_bone_reference();
    let reference = load_str(&plain);
    let crlf = plain.replace('\n', "\r\n");
    let tabs = plain.replace(' ', "\t");
    let commented = plain
        .lines()
        .map(|l| if l.starts_with("time") { format!("// a comment line\n{l}  // frame\n") } else { format!("{l}\n") })
        .collect::<String>();
    let unterminated = plain.trim_end().to_owned();
    let blank_lines = plain.replace('\n', "\n\n   \n");
    for (what, text) in [
        ("crlf", crlf),
        ("tabs", tabs),
        ("comments", commented),
        ("no final newline", unterminated),
        ("blank", blank_lines),
    ] {
        let asset = load_str(&text);
        assert_eq!(asset.meshes[0], reference.meshes[0], "{what}");
        assert_eq!(asset.skeleton.bind_local, reference.skeleton.bind_local, "{what}");
    }
}

#[test]
fn nodes_out_of_order_become_parent_first() {
    let text = "version 1\nnodes\n0 \"hand\" 2\n1 \"root\" -1\n2 \"arm\" 1\nend\nskeleton\ntime 0\n\
        0 1 0 0 0 0 0\n1 0 0 5 0 0 0\n2 2 0 0 0 0 0\nend\ntriangles\nm\n\
        0 3 0 5 0 0 1 0 0\n1 0 0 5 0 0 1 0 0\n2 2 1 5 0 0 1 0 0\nend\n";
    let asset = load_str(text);
    assert_eq!(asset.skeleton.names, ["root", "arm", "hand"]);
    assert_eq!(asset.skeleton.parents, [None, Some(0), Some(1)]);
    assert!(asset.skeleton.bind_to_root()[2].w_axis.truncate().abs_diff_eq(Vec3::new(3.0, 0.0, 5.0), 1e-6));
    let mesh = &asset.meshes[0];
    // The first corner names file bone 0 ("hand"), now skeleton bone 2.
    assert_eq!(mesh.joints[mesh.corner_vertices[0] as usize][0], 2);
}

const VTA_SMALL: &str = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\ntime 1 # Smile\ntime 2\nend\n\
    vertexanimation\ntime 0\n0 0 0 0 0 0 1\n1 1 0 0 0 0 1\n2 0 1 0 0 0 1\n3 1 1 0 0 0 1\n\
    time 1\n1 1 0 0.5 0 0 1\ntime 2 # Frown\n2 0 1 -0.5 0 0 1\n3 1 1 -0.5 0 0 1\nend\n";

/// A quad over the VTA_SMALL vertices, written as two triangles (6 corners).
const VTA_REFERENCE: &str = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\ntriangles\n\
    m\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\n\
    m\n0 1 0 0 0 0 1 1 0\n0 1 1 0 0 0 1 1 1\n0 0 1 0 0 0 1 0 1\nend\n";

#[test]
fn vta_names_come_from_time_comments_and_attach_to_the_reference() {
    let vta = smd::load_vta(VTA_SMALL.as_bytes(), &LoadOptions::default()).unwrap();
    let morphs = &vta.meshes[0].morph_targets;
    assert_eq!(morphs.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["Smile", "Frown"]);
    assert_eq!(morphs[1].vertices, [2, 3]);
    // The reference: two triangles over corners 0 1 2 / 1 3 2 would be 6 corners; the VTA counts 4 vertices, so
    // the corner rule fits the first triangle and the position rule finds the rest.
    let mut asset = load_str(VTA_REFERENCE);
    assert_eq!(asset.vertex_count(), 4);
    let binding = smd::attach_vta(&mut asset, &vta).unwrap();
    assert_eq!(binding.morph_targets, 2);
    assert_eq!(binding.unmatched, 0);
    let mesh = &asset.meshes[0];
    let frown = &mesh.morph_targets[1];
    let moved: Vec<Vec3> = frown.vertices.iter().map(|&v| mesh.positions[v as usize]).collect();
    assert_eq!(moved, [Vec3::new(0.0, 1.0, 0.0), Vec3::new(1.0, 1.0, 0.0)]);
    assert!(frown.position_deltas.iter().all(|d| *d == Vec3::new(0.0, 0.0, -0.5)));
}

#[test]
fn a_vta_in_a_file_set_gives_its_morphs_to_the_mesh() {
    let dir = scratch("vta-set");
    std::fs::write(dir.join("face.smd"), VTA_REFERENCE).unwrap();
    std::fs::write(dir.join("face.vta"), VTA_SMALL).unwrap();
    std::fs::write(
        dir.join("wave.smd"),
        "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\ntime 1\n0 0 0 1 0 0 0\nend\n",
    )
    .unwrap();
    let files = ["face.smd", "face.vta", "wave.smd"].map(|f| dir.join(f));
    let (asset, _) = bonescope::source::load_files(&files, &LoadOptions::default()).into_result().unwrap();
    let names: Vec<&str> = asset.meshes[0].morph_targets.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["Smile", "Frown"]);
    // The VTA's frames as a flex clip, and the animation.
    let clips: Vec<&str> = asset.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(clips, ["vertex animation", "wave"]);
    assert_eq!(asset.clips[0].morph_tracks.len(), 2);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn vta_errors_name_lines() {
    let err = smd::load_vta(
        b"version 1\nnodes\n0 \"root\" -1\nend\nvertexanimation\ntime 0\n0 1 2 3\nend\n",
        &LoadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 7: expected 6 numbers after the vertex index (position x y z, normal x y z), found 3"
    );
    let err = smd::load_vta(two_bone_reference().as_bytes(), &LoadOptions::default()).unwrap_err();
    assert_eq!(err.kind, LoadErrorKind::NotThisFormat, "{err}");
    assert!(err.message.contains("not a VTA"), "{err}");
}

#[test]
fn detect_and_load_path_pick_the_right_loader() {
    let dir = scratch("detect");
    let vta_path = dir.join("face.vta");
    std::fs::write(&vta_path, VTA_SMALL).unwrap();
    let asset = io::load_path(&vta_path, &LoadOptions::default()).unwrap();
    assert_eq!(asset.format, Some(Format::Vta));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn utf8_bom_and_windows_1252_names_load() {
    let mut bytes = vec![0xEF, 0xBB, 0xBF];
    bytes.extend_from_slice(b"version 1\nnodes\n0 \"Kn\xf6chel\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n");
    let asset = smd::load(&bytes, &LoadOptions::default()).unwrap();
    assert_eq!(asset.skeleton.names, ["Knöchel"]);
    assert_eq!(asset.clips.len(), 1, "a skeleton-only SMD is a one-frame animation");
}
