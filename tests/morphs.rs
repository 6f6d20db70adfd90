//! Morph targets and vertex animation through the one morph path (scene data → controller weights → morphed
//! mesh), on files the tests write: an SMD face with its VTA (a flex at weight 1 reproduces the VTA frame), PSK
//! morph chunks (static targets), ASE `*MESH_ANIMATION` (tweening through weight tracks equals the plain
//! tween), the VTA of the corpus, and the mixer's rules for weights (blend tracks average, additive tracks add).

mod common;
mod psk_writer;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

use glam::Vec3;

use bonescope::anim::controller::{AdditiveReference, BlendMode, Controller, PlaybackType};
use bonescope::anim::tween::tween;
use bonescope::anim::{MorphLayout, Pose, apply_morphs, skin_mesh_morphed};
use bonescope::io::{self, LoadOptions, ase, psk, smd};
use bonescope::scene::{
    Asset, BoneTrack, Clip, Curve, Mesh, MorphTarget, MorphTrack, Transform, VERTEX_ANIMATION_CLIP,
    convert_vertex_animation,
};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-morphs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Mixed weights of the controller's tracks as they stand (one per slot of its layout).
fn weights(ctrl: &Controller) -> Vec<f32> {
    let mut w = vec![0.0; ctrl.morph_layout().len()];
    ctrl.evaluate_morph_weights(&mut w).unwrap();
    w
}

// ---------------------------------------------------------------------------------------------------------
// SMD face + VTA

/// A face-like sheet: `n × n` vertices on a unit grid (z = 0), two triangles per cell, every corner written out
/// (as studiomdl's exporters do), one bone.
fn face_corners(n: usize) -> Vec<Vec3> {
    let p = |x: usize, y: usize| Vec3::new(x as f32, y as f32, 0.0);
    let mut corners = Vec::new();
    for y in 0..n - 1 {
        for x in 0..n - 1 {
            corners.extend([p(x, y), p(x + 1, y), p(x + 1, y + 1)]);
            corners.extend([p(x, y), p(x + 1, y + 1), p(x, y + 1)]);
        }
    }
    corners
}

fn face_smd(corners: &[Vec3], n: usize) -> String {
    let mut s = String::from("version 1\nnodes\n0 \"head\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\ntriangles\n");
    for (i, c) in corners.iter().enumerate() {
        if i % 3 == 0 {
            s.push_str("skin\n");
        }
        let (u, v) = (c.x / (n - 1) as f32, c.y / (n - 1) as f32);
        writeln!(s, "0 {} {} {} 0 0 1 {u} {v}", c.x, c.y, c.z).unwrap();
    }
    s.push_str("end\n");
    s
}

/// A flex: where each moved grid point goes (position, normal).
type Flex = (&'static str, fn(Vec3) -> Option<(Vec3, Vec3)>);

fn flexes() -> Vec<Flex> {
    vec![
        // The corners of the mouth rise and bulge.
        ("smile", |p| {
            (p.y <= 1.0 && p.x >= 1.0 && p.x <= 3.0)
                .then(|| (p + Vec3::new(0.0, 0.25 * p.x, 0.5), Vec3::new(0.0, -0.3, 0.95)))
        }),
        // The top row drops.
        ("brow_down", |p| (p.y >= 4.0).then(|| (p + Vec3::new(0.1, -0.4, 0.0), Vec3::Z))),
        // One point only.
        ("blink", |p| {
            (p == Vec3::new(2.0, 3.0, 0.0)).then(|| (p + Vec3::new(0.0, 0.0, -0.123457), Vec3::new(0.0, 0.6, 0.8)))
        }),
    ]
}

/// The VTA of the face: the base frame lists every corner (by corner index), each later frame the corners of its
/// flex's moved points.
fn face_vta(corners: &[Vec3]) -> String {
    let mut s = String::from("version 1\nnodes\n0 \"head\" -1\nend\nskeleton\ntime 0\n");
    let flexes = flexes();
    for k in 1..=flexes.len() {
        writeln!(s, "time {k}").unwrap();
    }
    s.push_str("end\nvertexanimation\ntime 0\n");
    for (i, c) in corners.iter().enumerate() {
        writeln!(s, "{i} {} {} {} 0 0 1", c.x, c.y, c.z).unwrap();
    }
    for (k, (name, flex)) in flexes.iter().enumerate() {
        writeln!(s, "time {} # {name}", k + 1).unwrap();
        for (i, c) in corners.iter().enumerate() {
            if let Some((p, n)) = flex(*c) {
                writeln!(s, "{i} {:.6} {:.6} {:.6} {:.6} {:.6} {:.6}", p.x, p.y, p.z, n.x, n.y, n.z).unwrap();
            }
        }
    }
    s.push_str("end\n");
    s
}

fn load_face() -> (Asset, Vec<Vec3>) {
    let n = 5;
    let corners = face_corners(n);
    let dir = scratch("face");
    std::fs::write(dir.join("face.smd"), face_smd(&corners, n)).unwrap();
    std::fs::write(dir.join("face.vta"), face_vta(&corners)).unwrap();
    let (asset, _) =
        bonescope::source::load_files(&[dir.join("face.smd"), dir.join("face.vta")], &LoadOptions::default())
            .into_result()
            .unwrap();
    std::fs::remove_dir_all(dir).ok();
    (asset, corners)
}

#[test]
fn a_vta_flex_at_weight_one_reproduces_its_frame() {
    let (asset, corners) = load_face();
    let mesh = &asset.meshes[0];
    let names: Vec<&str> = mesh.morph_targets.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["smile", "brow_down", "blink"]);
    assert_eq!(mesh.corner_vertices.len(), corners.len());
    let flexes = flexes();
    let (mut p, mut n) = (Vec::new(), Vec::new());
    for (k, (name, flex)) in flexes.iter().enumerate() {
        let mut w = vec![0.0; mesh.morph_targets.len()];
        w[k] = 1.0;
        apply_morphs(mesh, &w, &mut p, &mut n);
        let mut moved = 0;
        for (corner, c) in corners.iter().enumerate() {
            let v = mesh.corner_vertices[corner] as usize;
            match flex(*c) {
                Some((want, want_n)) => {
                    moved += 1;
                    // The file prints six decimals.
                    assert!(p[v].abs_diff_eq(want, 1e-5), "{name}: corner {corner} at {} vs the VTA's {want}", p[v]);
                    assert!(n[v].abs_diff_eq(want_n, 1e-5), "{name}: corner {corner} normal {} vs {want_n}", n[v]);
                }
                None => assert_eq!(p[v], mesh.positions[v], "{name}: corner {corner} must not move"),
            }
        }
        assert!(moved > 0, "{name} moves something");
    }
}

#[test]
fn the_vta_frames_play_as_a_flex_clip() {
    let (asset, _) = load_face();
    let clip = asset.clip(VERTEX_ANIMATION_CLIP).expect("the VTA's frames as a clip");
    assert_eq!(clip.morph_tracks.len(), 3, "one weight track per flex frame");
    assert_eq!(clip.frame_count, 4);
    assert!((clip.duration - 3.0 / 30.0).abs() < 1e-6);
    let mut ctrl = Controller::for_asset(&asset);
    let set = ctrl.find_set(VERTEX_ANIMATION_CLIP).unwrap();
    let track = ctrl.add_track(Some(set)).unwrap();
    ctrl.set_track_playback(track, Some(PlaybackType::ClampForever)).unwrap();
    // Frame N at N/30 s shows flex N alone; the base frame shows none; halfway between two flexes, half of each.
    for (time, want) in [
        (0.0, [0.0, 0.0, 0.0]),
        (1.0 / 30.0, [1.0, 0.0, 0.0]),
        (2.0 / 30.0, [0.0, 1.0, 0.0]),
        (3.0 / 30.0, [0.0, 0.0, 1.0]),
        (2.5 / 30.0, [0.0, 0.5, 0.5]),
        (0.5 / 30.0, [0.5, 0.0, 0.0]),
    ] {
        ctrl.set_position(track, time).unwrap();
        let w = weights(&ctrl);
        for (g, e) in w.iter().zip(want) {
            assert!((g - e).abs() < 1e-5, "at {time}: {w:?} vs {want:?}");
        }
    }
    // Alone, a VTA is a mesh of its base frame with the same clip.
    let corners = face_corners(5);
    let vta = smd::load_vta(face_vta(&corners).as_bytes(), &LoadOptions::default()).unwrap();
    assert_eq!(vta.clips.len(), 1);
    assert_eq!(vta.clips[0].morph_tracks.len(), 3);
    let ctrl = Controller::for_asset(&vta);
    assert_eq!(ctrl.sets()[0].morph_binding().len(), 3, "tracks bind to the VTA mesh's targets");
}

/// The corpus VTA (Blender Source Tools' cube) on a reference written from its base frame.
#[test]
fn corpus_cube_vta_flex_reproduces_its_frame() {
    let Some(path) = common::corpus_file("vta/bst_Cube_NoArmature.vta") else { return };
    let vta = io::load_path(&path, &LoadOptions::default()).unwrap();
    let base = &vta.meshes[0];
    // Reference: one triangle per three VTA vertices, in VTA order, so corner i is VTA vertex i.
    let mut smd =
        String::from("version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\ntriangles\n");
    for (i, (p, n)) in base.positions.iter().zip(&base.normals).enumerate().take(base.positions.len() / 3 * 3) {
        if i % 3 == 0 {
            smd.push_str("m\n");
        }
        writeln!(smd, "0 {} {} {} {} {} {} {} 0", p.x, p.y, p.z, n.x, n.y, n.z, i as f32 * 1e-3).unwrap();
    }
    smd.push_str("end\n");
    let mut reference = smd::load(smd.as_bytes(), &LoadOptions::default()).unwrap();
    smd::attach_vta(&mut reference, &vta).unwrap();
    let mesh = &reference.meshes[0];
    assert_eq!(mesh.morph_targets.len(), base.morph_targets.len());
    assert!(reference.clip(VERTEX_ANIMATION_CLIP).is_some());
    let (mut p, mut n) = (Vec::new(), Vec::new());
    for (k, flex) in base.morph_targets.iter().enumerate() {
        let mut w = vec![0.0; mesh.morph_targets.len()];
        w[k] = 1.0;
        apply_morphs(mesh, &w, &mut p, &mut n);
        let mut checked = 0;
        for (&i, d) in flex.vertices.iter().zip(&flex.position_deltas) {
            let Some(&v) = mesh.corner_vertices.get(i as usize) else { continue };
            let want = base.positions[i as usize] + *d;
            assert!(
                p[v as usize].abs_diff_eq(want, 1e-5),
                "{}: VTA vertex {i}: {} vs {want}",
                flex.name,
                p[v as usize]
            );
            checked += 1;
        }
        assert!(checked > 0, "{}", flex.name);
    }
}

// ---------------------------------------------------------------------------------------------------------
// PSK morph chunks

#[test]
fn psk_morphs_are_static_targets_the_skinner_applies() {
    let mut file = psk_writer::tube(6, 8, 3, 60.0);
    // Point 0 lies on the UV seam (two wedges).
    file.morphs = vec![
        (
            "Jaw_Open".to_owned(),
            vec![(Vec3::new(0.0, 0.0, -4.0), Vec3::ZERO, 0), (Vec3::new(0.0, 0.0, -2.0), Vec3::ZERO, 9)],
        ),
        ("Cheek_Puff".to_owned(), vec![(Vec3::new(0.0, 3.0, 0.0), Vec3::new(0.0, 0.2, 0.0), 9)]),
    ];
    let asset = psk::load(&file.to_bytes(), &LoadOptions::default()).unwrap();
    let mesh = &asset.meshes[0];
    let layout = MorphLayout::of_meshes(&asset.meshes);
    assert_eq!(layout.len(), 2);
    assert_eq!(layout.find(0, "Cheek_Puff"), Some(1));
    assert!(asset.clips.is_empty(), "no clip drives them: sliders only");
    // Skinned at the bind pose with Jaw_Open at 0.5 and Cheek_Puff at 1: point 9 (wedge 10) gets both, point 0's
    // two wedges get half the jaw. PSK deltas are mirrored in Y like the points.
    let pose = Pose::bind(&asset.skeleton);
    let (mut rest, mut p, mut n) = (Vec::new(), Vec::new(), Vec::new());
    skin_mesh_morphed(mesh, &pose.palette, &[], &mut rest, &mut n);
    skin_mesh_morphed(mesh, &pose.palette, &[0.5, 1.0], &mut p, &mut n);
    let expect = |wedge: usize, delta: Vec3| {
        let want = rest[wedge] + delta;
        assert!(p[wedge].abs_diff_eq(want, 1e-4), "wedge {wedge}: {} vs {want}", p[wedge]);
    };
    expect(0, Vec3::new(0.0, 0.0, -2.0));
    expect(8, Vec3::new(0.0, 0.0, -2.0));
    expect(10, Vec3::new(0.0, 0.0, -1.0) + Vec3::new(0.0, -3.0, 0.0));
    expect(1, Vec3::ZERO);
    // A controller has slots for them; with no clip driving them they stay at 0.
    let mut ctrl = Controller::for_asset(&asset);
    let mut pose = Pose::default();
    ctrl.evaluate_pose(&mut pose).unwrap();
    assert_eq!(pose.morph_weights, [0.0, 0.0]);
}

// ---------------------------------------------------------------------------------------------------------
// ASE *MESH_ANIMATION: tweening through the morph path

const ASE_HEADER: &str = "*3DSMAX_ASCIIEXPORT\t200\n*COMMENT \"written by the bonescope tests\"\n*SCENE {\n\t*SCENE_FILENAME \"blob.max\"\n\t*SCENE_FIRSTFRAME 0\n\t*SCENE_LASTFRAME 30\n\t*SCENE_FRAMESPEED 30\n\t*SCENE_TICKSPERFRAME 160\n}\n";

fn ase_mesh(vertices: &[Vec3], faces: &[[u32; 3]], tick: u32) -> String {
    let mut s = format!(
        "\t*MESH {{\n\t\t*TIMEVALUE {tick}\n\t\t*MESH_NUMVERTEX {}\n\t\t*MESH_NUMFACES {}\n\t\t*MESH_VERTEX_LIST {{\n",
        vertices.len(),
        faces.len()
    );
    for (i, v) in vertices.iter().enumerate() {
        s += &format!("\t\t\t*MESH_VERTEX {i:4}\t{:.4}\t{:.4}\t{:.4}\n", v.x, v.y, v.z);
    }
    s += "\t\t}\n\t\t*MESH_FACE_LIST {\n";
    for (i, f) in faces.iter().enumerate() {
        s += &format!(
            "\t\t\t*MESH_FACE {i:4}:    A: {:4} B: {:4} C: {:4} AB:    1 BC:    1 CA:    0\t *MESH_SMOOTHING 1 \t*MESH_MTLID 0\n",
            f[0], f[1], f[2]
        );
    }
    s += "\t\t}\n\t}\n";
    s
}

/// A 4 × 4 sheet whose frames (at uneven times, one pair sharing a tick) push different regions around.
fn animated_ase() -> String {
    let n = 4;
    let base: Vec<Vec3> = (0..n * n).map(|i| Vec3::new((i % n) as f32 * 10.0, (i / n) as f32 * 10.0, 0.0)).collect();
    let mut faces = Vec::new();
    for y in 0..n - 1 {
        for x in 0..n - 1 {
            let i = (y * n + x) as u32;
            faces.push([i, i + 1, i + n as u32 + 1]);
            faces.push([i, i + n as u32 + 1, i + n as u32]);
        }
    }
    let frame = |tick: u32, k: f32| {
        let moved: Vec<Vec3> = base
            .iter()
            .map(|p| if p.x + p.y > 25.0 { *p + Vec3::new(k, -0.5 * k, 2.0 * k) } else { *p + Vec3::Z * (k * 0.1) })
            .collect();
        ase_mesh(&moved, &faces, tick)
    };
    let node_tm = "\t*NODE_TM {\n\t\t*NODE_NAME \"Blob\"\n\t\t*TM_ROW0 1.0\t0.0\t0.0\n\t\t*TM_ROW1 0.0\t1.0\t0.0\n\t\t*TM_ROW2 0.0\t0.0\t1.0\n\t\t*TM_ROW3 0.0\t0.0\t0.0\n\t}\n";
    let body = ase_mesh(&base, &faces, 0)
        + "\t*MESH_ANIMATION {\n"
        + &frame(0, 0.0)
        + &frame(800, 3.0)
        + &frame(1760, -1.0)
        + &frame(2400, 4.0)
        + &frame(4800, 0.5)
        + "\t}\n";
    format!("{ASE_HEADER}*GEOMOBJECT {{\n\t*NODE_NAME \"Blob\"\n{node_tm}{body}}}\n")
}

#[test]
fn ase_mesh_animation_through_morphs_equals_tweening() {
    let mut asset = ase::load(animated_ase().as_bytes(), &LoadOptions::default()).unwrap();
    let frames = asset.meshes[0].vertex_frames.len();
    assert_eq!(frames, 5);
    // Loading made one target per frame and the weight tracks; converting again changes nothing.
    assert_eq!(asset.meshes[0].morph_targets.iter().filter(|t| t.vertex_frame.is_some()).count(), 5);
    assert_eq!(asset.clips.len(), 1, "the file's own clip carries the weights");
    assert_eq!(asset.clips[0].morph_tracks.len(), 5);
    assert_eq!(convert_vertex_animation(&mut asset), Default::default());
    compare_with_tween(&asset, 0, 400);
}

/// Plays clip `clip` through the controller at `probes` times across it and compares each mesh with the plain
/// tween of its vertex frames.
fn compare_with_tween(asset: &Asset, clip: usize, probes: usize) {
    let mut ctrl = Controller::for_asset(asset);
    let track = ctrl.add_track(Some(clip)).unwrap();
    ctrl.set_track_playback(track, Some(PlaybackType::ClampForever)).unwrap();
    let layout = ctrl.morph_layout().clone();
    let duration = ctrl.sets()[clip].duration();
    let mut pose = Pose::default();
    let (mut p, mut n, mut tp, mut tn) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut checked = 0;
    for i in 0..=probes {
        let t = duration * i as f32 / probes as f32;
        ctrl.set_position(track, f64::from(t)).unwrap();
        ctrl.evaluate_pose(&mut pose).unwrap();
        for (m, mesh) in asset.meshes.iter().enumerate() {
            if mesh.vertex_frames.is_empty() {
                continue;
            }
            let weights = &pose.morph_weights[layout.mesh_range(m)];
            let sum: f32 =
                mesh.morph_targets.iter().zip(weights).filter(|(t, _)| t.vertex_frame.is_some()).map(|(_, w)| w).sum();
            assert!((sum - 1.0).abs() < 1e-5, "mesh {m} at {t}: frame weights sum to {sum}");
            apply_morphs(mesh, weights, &mut p, &mut n);
            tween(mesh, t, &mut tp, &mut tn);
            let size = mesh.positions.iter().fold(0f32, |s, q| s.max(q.abs().max_element())).max(1e-6);
            for (v, (a, b)) in p.iter().zip(&tp).enumerate() {
                assert!((*a - *b).length() <= 1e-5 * size, "mesh {m} vertex {v} at {t}: morphs {a} vs tween {b}");
            }
            for (v, (a, b)) in n.iter().zip(&tn).enumerate() {
                // Where a normal turns over between two frames (a flipped triangle in the data), the blend passes
                // through zero and has no direction to compare.
                if a.length() < 1e-3 {
                    continue;
                }
                let a = a.normalize_or_zero();
                assert!((a - *b).length() <= 1e-4, "mesh {m} vertex {v} normal at {t}: {a} vs {b}");
            }
            checked += 1;
        }
    }
    assert!(checked > probes, "meshes with vertex frames were compared");
}

/// Gothic morph-mesh heads (`*MESH_ANIMATION` frames of a head) from the corpus: loaded, their frames play
/// through the morph path and equal the tween; bound to the base head, the same on the head's own vertices.
#[test]
fn corpus_morph_mesh_heads_tween_through_morphs() {
    let Some(dir) = common::corpus_file("mds/gothic/Anims/ASC_MORPHMESH/HEADS/HUM_HEAD_FATBALD") else { return };
    let mut compared = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if !path.extension().is_some_and(|e| e.eq_ignore_ascii_case("asc")) {
            continue;
        }
        let asset = io::load_path(&path, &LoadOptions::default()).unwrap();
        if asset.meshes.iter().all(|m| m.vertex_frames.is_empty()) {
            continue;
        }
        let clip = asset.clips.iter().position(|c| !c.morph_tracks.is_empty()).expect("a clip plays the frames");
        compare_with_tween(&asset, clip, 200);
        let (bound, _) =
            bonescope::source::load_files(&[dir.join("HUM_HEAD_FATBALD.ASC"), path.clone()], &LoadOptions::default())
                .into_result()
                .unwrap();
        let clip = bound.clips.iter().position(|c| !c.morph_tracks.is_empty()).expect("the bound clip plays them");
        compare_with_tween(&bound, clip, 200);
        compared.push(path.file_name().unwrap().to_string_lossy().into_owned());
    }
    assert_eq!(compared, ["HUM_HEAD_FATBALD_EAT.ASC", "HUM_HEAD_FATBALD_EMOTIONS.ASC"]);
}

// ---------------------------------------------------------------------------------------------------------
// The mixer's rules for morph weights

/// One bone, one mesh with targets `a` and `b`; clips: `both` (a = 1, b ramps 0 → 1 over 1 s), `half_a`
/// (a = 0.5 only), `bones` (a bone track, no morphs), `rise` (a ramps 0.2 → 0.6).
fn mixer_asset() -> Asset {
    let mut asset = Asset::default();
    asset.skeleton.push("root", None, Transform::IDENTITY);
    asset.skeleton.recompute_inverse_bind();
    let target = |name: &str| MorphTarget {
        name: name.into(),
        vertices: vec![0],
        position_deltas: vec![Vec3::X],
        ..MorphTarget::default()
    };
    asset.meshes.push(Mesh {
        name: "face".into(),
        positions: vec![Vec3::ZERO],
        morph_targets: vec![target("a"), target("b")],
        ..Mesh::default()
    });
    let track = |name: &str, times: Vec<f32>, values: Vec<f32>| MorphTrack {
        target: name.into(),
        mesh: Some("face".into()),
        weights: Curve::linear(times, values),
    };
    let clip = |name: &str, morph_tracks: Vec<MorphTrack>| Clip {
        name: name.into(),
        duration: 1.0,
        frame_rate: 30.0,
        frame_count: 31,
        morph_tracks,
        ..Clip::default()
    };
    asset.clips = vec![
        clip("both", vec![track("a", vec![0.0], vec![1.0]), track("b", vec![0.0, 1.0], vec![0.0, 1.0])]),
        clip("half_a", vec![track("a", vec![0.0], vec![0.5])]),
        Clip {
            tracks: vec![BoneTrack {
                bone_name: "root".into(),
                translation: Curve::linear(vec![0.0, 1.0], vec![Vec3::ZERO, Vec3::Y]),
                ..BoneTrack::default()
            }],
            ..clip("bones", Vec::new())
        },
        clip("rise", vec![track("a", vec![0.0, 1.0], vec![0.2, 0.6])]),
    ];
    asset
}

fn close(got: &[f32], want: &[f32]) {
    assert!(got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-6), "{got:?} vs {want:?}");
}

#[test]
fn blend_tracks_average_morph_weights_like_bones() {
    let asset = mixer_asset();
    let mut ctrl = Controller::for_asset(&asset);
    let (both, half) = (ctrl.add_track(Some(0)).unwrap(), ctrl.add_track(Some(1)).unwrap());
    ctrl.set_position(both, 0.5).unwrap();
    // Alone at full weight: the clip's values.
    ctrl.set_enabled(half, false).unwrap();
    close(&weights(&ctrl), &[1.0, 0.5]);
    // Two tracks at 0.25 / 0.75: a = 0.25·1 + 0.75·0.5, b = 0.25·0.5 (the second clip leaves b at rest, 0).
    ctrl.set_enabled(half, true).unwrap();
    ctrl.set_weight(both, 0.25).unwrap();
    ctrl.set_weight(half, 0.75).unwrap();
    close(&weights(&ctrl), &[0.625, 0.125]);
    // Weights summing past 1 are normalised, as for bones.
    ctrl.set_weight(both, 1.0).unwrap();
    ctrl.set_weight(half, 3.0).unwrap();
    close(&weights(&ctrl), &[0.625, 0.125]);
    // Below 1 in total, the rest value fills the gap: a lone track at 0.3 is 30 % of the way.
    ctrl.set_enabled(half, false).unwrap();
    ctrl.set_weight(both, 0.3).unwrap();
    close(&weights(&ctrl), &[0.3, 0.15]);
    // A blend track without morphs counts in the average, as a clip that does not animate a bone does.
    ctrl.set_weight(both, 1.0).unwrap();
    let bones = ctrl.add_track(Some(2)).unwrap();
    close(&weights(&ctrl), &[0.5, 0.25]);
    // Disabled and zero-weight tracks add nothing; bone masks do not scale morph weights.
    ctrl.set_weight(bones, 0.0).unwrap();
    ctrl.set_mask(both, Some(bonescope::anim::BoneMask::none(1))).unwrap();
    close(&weights(&ctrl), &[1.0, 0.5]);
    // The controller's pose carries them too.
    let mut pose = Pose::default();
    ctrl.evaluate_pose(&mut pose).unwrap();
    close(&pose.morph_weights, &[1.0, 0.5]);
    // A wrong-sized slice is an error, not a panic.
    assert!(ctrl.evaluate_morph_weights(&mut [0.0; 3]).is_err());
}

#[test]
fn additive_tracks_add_morph_weights() {
    let asset = mixer_asset();
    let mut ctrl = Controller::for_asset(&asset);
    let base = ctrl.add_track(Some(1)).unwrap();
    let rise = ctrl.add_track(Some(3)).unwrap();
    ctrl.set_position(rise, 1.0).unwrap();
    ctrl.set_track_playback(rise, Some(PlaybackType::ClampForever)).unwrap();
    ctrl.set_weight(rise, 0.5).unwrap();
    // From the clip's first frame: 0.5 + 0.5 · (0.6 − 0.2).
    ctrl.set_blend_mode(rise, BlendMode::Additive(AdditiveReference::FirstFrame)).unwrap();
    close(&weights(&ctrl), &[0.7, 0.0]);
    // From the rest (0): 0.5 + 0.5 · 0.6.
    ctrl.set_blend_mode(rise, BlendMode::Additive(AdditiveReference::BindPose)).unwrap();
    close(&weights(&ctrl), &[0.8, 0.0]);
    // Two additive tracks add up; an additive track at its first frame adds nothing.
    let again = ctrl.add_track(Some(3)).unwrap();
    ctrl.set_blend_mode(again, BlendMode::Additive(AdditiveReference::FirstFrame)).unwrap();
    close(&weights(&ctrl), &[0.8, 0.0]);
    ctrl.set_position(again, 0.5).unwrap();
    close(&weights(&ctrl), &[1.0, 0.0]);
    // Additive tracks do not take part in the blend average.
    ctrl.set_weight(base, 0.5).unwrap();
    close(&weights(&ctrl), &[0.25 + 0.3 + 0.2, 0.0]);
}

#[test]
fn layouts_given_later_rebind_the_sets() {
    let asset = mixer_asset();
    let mut ctrl = Controller::new(Arc::new(asset.skeleton.clone()));
    let set = ctrl.add_set(asset.clips[0].clone(), PlaybackType::Loop);
    ctrl.add_track(Some(set)).unwrap();
    assert!(weights(&ctrl).is_empty(), "no layout, no slots");
    ctrl.set_morph_layout(MorphLayout::of_meshes(&asset.meshes));
    assert_eq!(ctrl.sets()[set].morph_binding().len(), 2);
    close(&weights(&ctrl), &[1.0, 0.0]);
}

// ---------------------------------------------------------------------------------------------------------
// A VTA opened alone

/// A VTA alone shows its base frame with the reference's faces (VTA vertices are the SMD's corners in order, so
/// every three are a triangle), its flexes moving that mesh; one whose vertices are numbered otherwise stays a
/// point mesh and says why.
#[test]
fn a_vta_alone_is_its_base_frame_with_the_references_faces() {
    let corners = face_corners(5);
    let vta = smd::load_vta(face_vta(&corners).as_bytes(), &LoadOptions::default()).unwrap();
    let mesh = &vta.meshes[0];
    assert_eq!((mesh.vertex_count(), mesh.triangle_count()), (corners.len(), corners.len() / 3));
    assert!(!mesh.clockwise, "counter-clockwise, as the SMD's triangles face their +Z normals");
    assert!(mesh.validate(vta.skeleton.len()).is_ok());
    for (t, tri) in mesh.indices.chunks(3).enumerate() {
        let got: Vec<Vec3> = tri.iter().map(|&v| mesh.positions[v as usize]).collect();
        assert_eq!(got, corners[3 * t..3 * t + 3], "triangle {t} is the SMD's");
    }
    let faces = vta.readings.iter().find(|r| r.topic == "faces").expect("the faces reading");
    assert!(faces.choice.starts_with("32 triangles") && !faces.assumed, "{faces}");
    assert!(vta.warnings.is_empty(), "{:?}", vta.warnings);
    // The flexes move the VTA's own mesh: smile at 1 puts each corner where the frame has it.
    let (mut p, mut n) = (Vec::new(), Vec::new());
    apply_morphs(mesh, &[1.0, 0.0, 0.0], &mut p, &mut n);
    let smile = flexes()[0].1;
    for (i, c) in corners.iter().enumerate() {
        let want = smile(*c).map_or(*c, |(q, _)| q);
        assert!(p[i].abs_diff_eq(want, 1e-5), "corner {i}: {} vs {want}", p[i]);
    }
    // The same VTA with its vertices renumbered (i → 7i mod n): no longer corners in order.
    let count = corners.len();
    let renumbered: String = face_vta(&corners)
        .lines()
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first().and_then(|w| w.parse::<usize>().ok()) {
                Some(i) if words.len() == 7 => format!("{} {}\n", (7 * i) % count, words[1..].join(" ")),
                _ => format!("{line}\n"),
            }
        })
        .collect();
    let points = smd::load_vta(renumbered.as_bytes(), &LoadOptions::default()).unwrap();
    assert_eq!((points.meshes[0].vertex_count(), points.meshes[0].triangle_count()), (count, 0));
    assert!(
        points.warnings.iter().any(|w| w.message.contains("face the way their normals point")),
        "{:?}",
        points.warnings
    );
}

#[test]
fn the_corpus_vta_alone_is_the_cube() {
    let Some(path) = common::corpus_file("vta/bst_Cube_NoArmature.vta") else { return };
    let vta = io::load_path(&path, &LoadOptions::default()).unwrap();
    let mesh = &vta.meshes[0];
    assert_eq!((mesh.vertex_count(), mesh.triangle_count()), (36, 12));
    // A closed cube: every edge is shared by exactly two triangles (by position), and it faces outwards.
    let key = |p: Vec3| (p * 1000.0).round().as_ivec3().to_array();
    let mut edges = std::collections::HashMap::new();
    for tri in mesh.indices.chunks(3) {
        for k in 0..3 {
            let (a, b) = (key(mesh.positions[tri[k] as usize]), key(mesh.positions[tri[(k + 1) % 3] as usize]));
            *edges.entry(if a < b { (a, b) } else { (b, a) }).or_insert(0) += 1;
        }
        let [a, b, c] = [0, 1, 2].map(|k| mesh.positions[tri[k] as usize]);
        let centre = (a + b + c) / 3.0;
        let outward = (b - a).cross(c - a).dot(centre) > 0.0;
        assert_eq!(outward, !mesh.clockwise, "triangle {tri:?} faces outwards");
    }
    assert_eq!(edges.len(), 18);
    assert!(edges.values().all(|&n| n == 2), "{edges:?}");
}

// ---------------------------------------------------------------------------------------------------------
// The command line: --morph on pose, render and export; morph targets in info

/// The program's commands (built with the `cli` feature; rendering also needs `gui`).
#[cfg(feature = "cli")]
mod command_line {
    use super::*;

    fn bonescope(args: &[&str]) -> (i32, String, String) {
        let out =
            std::process::Command::new(env!("CARGO_BIN_EXE_bonescope")).args(args).output().expect("run bonescope");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// The face SMD and its VTA written to a fresh folder: (folder, smd, vta).
    fn face_files(tag: &str) -> (PathBuf, String, String) {
        let corners = face_corners(5);
        let dir = scratch(tag);
        std::fs::write(dir.join("face.smd"), face_smd(&corners, 5)).unwrap();
        std::fs::write(dir.join("face.vta"), face_vta(&corners)).unwrap();
        let path = |f: &str| dir.join(f).to_str().unwrap().to_owned();
        let (smd, vta) = (path("face.smd"), path("face.vta"));
        (dir, smd, vta)
    }

    #[test]
    fn pose_with_morph_prints_the_flexed_vertices() {
        let (dir, smd, vta) = face_files("cli-pose");
        let (asset, corners) = load_face();
        let mesh = &asset.meshes[0];
        let flexes = flexes();
        let check = |v: &serde_json::Value, weights: [f32; 3]| {
            let positions: Vec<Vec3> = v["morphs"]["meshes"][0]["positions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    Vec3::from_slice(
                        &p.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect::<Vec<_>>(),
                    )
                })
                .collect();
            assert_eq!(positions.len(), mesh.vertex_count());
            for (i, c) in corners.iter().enumerate() {
                let mut want = *c;
                for ((_, flex), w) in flexes.iter().zip(weights) {
                    if let Some((q, _)) = flex(*c) {
                        want += w * (q - *c);
                    }
                }
                let got = positions[mesh.corner_vertices[i] as usize];
                assert!(got.abs_diff_eq(want, 1e-5), "weights {weights:?}, corner {i}: {got} vs {want}");
            }
        };
        // Set by hand: smile fully, blink halfway.
        let (code, out, err) = bonescope(&["pose", &smd, &vta, "--morph", "smile=1", "--morph", "BLINK=0.5", "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let weights = v["morphs"]["weights"].as_array().unwrap();
        assert_eq!(weights.len(), 3);
        assert_eq!((weights[0]["target"].as_str(), weights[0]["weight"].as_f64()), (Some("smile"), Some(1.0)));
        assert_eq!((weights[0]["set_by"].as_str(), weights[1]["set_by"].as_str()), (Some("--morph"), Some("none")));
        assert_eq!(weights[2]["weight"].as_f64(), Some(0.5));
        check(&v, [1.0, 0.0, 0.5]);
        let moved = corners.iter().filter(|c| flexes[0].1(**c).is_some() || flexes[2].1(**c).is_some()).count();
        let moved_vertices: std::collections::HashSet<u32> = corners
            .iter()
            .enumerate()
            .filter(|(_, c)| flexes[0].1(**c).is_some() || flexes[2].1(**c).is_some())
            .map(|(i, _)| mesh.corner_vertices[i])
            .collect();
        assert!(moved > 0);
        assert_eq!(v["morphs"]["meshes"][0]["moved_vertices"].as_u64(), Some(moved_vertices.len() as u64));
        // Driven by the flex clip: at frame 2 (2/30 s) brow_down alone, at 1; --morph overrides one target.
        let (code, out, err) =
            bonescope(&["pose", &smd, &vta, "--clip", "vertex animation", "--time", "0.0666667", "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["morphs"]["weights"][1]["set_by"].as_str(), Some("clip"));
        check(&v, [0.0, 1.0, 0.0]);
        let (_, out, _) = bonescope(&[
            "pose",
            &smd,
            &vta,
            "--clip",
            "vertex animation",
            "--time",
            "0.0666667",
            "--morph",
            "brow_down=0.25",
            "--json",
        ]);
        check(&serde_json::from_str(&out).unwrap(), [0.0, 0.25, 0.0]);
        // Text: the weights set and what they do.
        let (code, out, _) = bonescope(&["pose", &smd, &vta, "--morph", "smile=1"]);
        assert_eq!(code, 0);
        assert!(out.contains("/smile = 1 (--morph)") && out.contains("vertices moved"), "{out}");
        // A name that is no target: exit code 1 and the targets there are.
        let (code, _, err) = bonescope(&["pose", &smd, &vta, "--morph", "frown=1"]);
        assert_eq!(code, 1);
        assert!(err.contains("frown") && err.contains("/smile") && err.contains("/blink"), "{err}");
        let (code, _, err) = bonescope(&["pose", &smd, "--morph", "smile=x"]);
        assert_eq!(code, 2, "a malformed setting is an argument error: {err}");
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn info_lists_targets_with_their_vertices_and_largest_displacement() {
        let (dir, _, vta) = face_files("cli-info");
        let corners = face_corners(5);
        let (code, out, err) = bonescope(&["info", &vta, "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let targets = v[0]["meshes"][0]["morph_targets"].as_array().unwrap();
        assert_eq!(targets.len(), 3);
        for ((name, flex), t) in flexes().iter().zip(targets) {
            let moved: Vec<f32> = corners.iter().filter_map(|c| flex(*c).map(|(q, _)| (q - *c).length())).collect();
            assert_eq!(t["name"].as_str(), Some(*name));
            assert_eq!(t["vertices"].as_u64(), Some(moved.len() as u64), "{name}: one VTA vertex per corner");
            let largest = moved.iter().copied().fold(0.0f32, f32::max);
            assert!((t["largest_displacement"].as_f64().unwrap() as f32 - largest).abs() < 1e-5, "{name}: {t}");
        }
        assert_eq!(v[0]["triangles"].as_u64(), Some(corners.len() as u64 / 3), "the VTA alone has faces");
        let (code, out, _) = bonescope(&["info", &vta]);
        assert_eq!(code, 0);
        assert!(out.contains("morph targets of 'vertex animation': 3"), "{out}");
        let smile_corners = corners.iter().filter(|c| flexes()[0].1(**c).is_some()).count();
        assert!(out.contains(&format!("smile: {smile_corners} vertices, largest displacement 0.901388")), "{out}");
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn export_with_morph_writes_default_weights() {
        let (dir, smd, vta) = face_files("cli-export");
        let out = dir.join("face.glb");
        let (code, _, err) =
            bonescope(&["export", &smd, &vta, "--morph", "brow_down=0.75", "-o", out.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
        let gltf = gltf::Gltf::from_slice(&std::fs::read(&out).unwrap()).unwrap();
        let mesh = gltf.document.meshes().next().unwrap();
        assert_eq!(mesh.weights(), Some(&[0.0, 0.75, 0.0][..]));
        let animation = gltf.document.animations().find(|a| a.name() == Some("vertex animation")).unwrap();
        assert!(animation.channels().any(|c| c.target().property() == gltf::animation::Property::MorphTargetWeights));
        std::fs::remove_dir_all(dir).ok();
    }

    #[cfg(feature = "gui")]
    #[test]
    fn render_with_morph_draws_the_morphed_mesh() {
        if let Err(e) = bonescope::render::GpuContext::headless() {
            assert!(std::env::var_os("CI").is_none(), "CI is set but the GPU tests cannot run: {e}");
            eprintln!("skipped: {e}");
            return;
        }
        let (dir, smd, vta) = face_files("cli-render");
        let render = |name: &str, args: &[&str]| {
            let out = dir.join(name);
            let mut all = vec!["render", "--size", "96x96", "--no-floor", "--yaw", "0", "--pitch", "60", "-o"];
            all.push(out.to_str().unwrap());
            all.extend_from_slice(args);
            let (code, _, err) = bonescope(&all);
            assert_eq!(code, 0, "{err}");
            image::open(&out).unwrap().to_rgba8()
        };
        let background = |img: &image::RgbaImage| img.get_pixel(0, 0).0;
        let covered = |img: &image::RgbaImage| img.pixels().filter(|p| p.0 != background(img)).count();
        // The face is a sheet in the file's XY plane (Z up), so it is seen from above. The same framing for both
        // (the brow drop stays inside the sheet), so only the morph differs.
        let plain = render("plain.png", &[&smd, &vta]);
        let morphed = render("morphed.png", &[&smd, &vta, "--morph", "brow_down=1", "--morph", "smile=1"]);
        let differing = plain.pixels().zip(morphed.pixels()).filter(|(a, b)| a.0 != b.0).count();
        assert!(covered(&plain) > 1000, "the face is drawn: {} pixels", covered(&plain));
        assert!(differing > 100, "the morph changes {differing} pixels");
        // The VTA alone is its mesh, not a dot.
        let alone = render("alone.png", &[&vta]);
        assert!(covered(&alone) > 1000, "the VTA alone covers {} pixels", covered(&alone));
        std::fs::remove_dir_all(dir).ok();
    }
}
