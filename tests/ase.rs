//! The ASE loader on the conformance corpus and on small ASE files the tests write themselves: counts, the
//! hierarchy and bind pose, rigid meshes moving with their nodes, relative rotation samples, keyed tracks,
//! skin weights, vertex animation, materials, UTF-16 text, and clear errors with line numbers.

mod common;

use bonescope::anim::{Pose, skin_mesh, tween::tween};
use bonescope::io::{LoadError, LoadErrorKind, LoadOptions, Position, ase};
use bonescope::scene::{Asset, AxisConversion, Mesh};
use glam::{Quat, Vec3};

fn load(text: &str) -> Asset {
    ase::load(text.as_bytes(), &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn load_err(text: &str) -> LoadError {
    match ase::load(text.as_bytes(), &LoadOptions::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => e,
    }
}

/// The 1-based line of the first occurrence of `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text[..text.find(needle).unwrap()].matches('\n').count() + 1
}

fn corpus(name: &str) -> Option<Asset> {
    let path = common::corpus_file(&format!("ase/{name}"))?;
    let bytes = std::fs::read(&path).unwrap();
    let opts = LoadOptions { base_dir: path.parent().map(Into::into), ..LoadOptions::default() };
    Some(ase::load(&bytes, &opts).unwrap_or_else(|e| panic!("{name}: {e}")))
}

/// Skinned positions of every mesh at `time` (seconds) of the first clip.
fn skinned(asset: &Asset, time: f32) -> Vec<Vec<Vec3>> {
    let pose = Pose::from_clip(&asset.skeleton, &asset.clips[0], time);
    asset
        .meshes
        .iter()
        .map(|m| {
            let (mut p, mut n) = (Vec::new(), Vec::new());
            skin_mesh(m, &pose.palette, &mut p, &mut n);
            p
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------------------
// Writing small ASE files.

/// `*NODE_TM` rows (row vectors: three axes, then the translation).
fn node_tm(name: &str, rows: [[f32; 3]; 4]) -> String {
    let r = |i: usize| format!("{:.6}\t{:.6}\t{:.6}", rows[i][0], rows[i][1], rows[i][2]);
    format!(
        "\t*NODE_TM {{\n\t\t*NODE_NAME \"{name}\"\n\t\t*TM_ROW0 {}\n\t\t*TM_ROW1 {}\n\t\t*TM_ROW2 {}\n\t\t*TM_ROW3 {}\n\t}}\n",
        r(0),
        r(1),
        r(2),
        r(3)
    )
}

fn translation(x: f32, y: f32, z: f32) -> [[f32; 3]; 4] {
    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [x, y, z]]
}

fn object(kind: &str, name: &str, parent: Option<&str>, rows: [[f32; 3]; 4], body: &str) -> String {
    let parent = parent.map(|p| format!("\t*NODE_PARENT \"{p}\"\n")).unwrap_or_default();
    format!("*{kind} {{\n\t*NODE_NAME \"{name}\"\n{parent}{}{body}}}\n", node_tm(name, rows))
}

/// A `*MESH` block from world-space vertices and faces (with smoothing 1 and material ids).
fn mesh_block(vertices: &[Vec3], faces: &[([u32; 3], u32)], extra: &str) -> String {
    let mut s = format!(
        "\t*MESH {{\n\t\t*TIMEVALUE 0\n\t\t*MESH_NUMVERTEX {}\n\t\t*MESH_NUMFACES {}\n\t\t*MESH_VERTEX_LIST {{\n",
        vertices.len(),
        faces.len()
    );
    for (i, v) in vertices.iter().enumerate() {
        s += &format!("\t\t\t*MESH_VERTEX {i:4}\t{:.4}\t{:.4}\t{:.4}\n", v.x, v.y, v.z);
    }
    s += "\t\t}\n\t\t*MESH_FACE_LIST {\n";
    for (i, (f, mtl)) in faces.iter().enumerate() {
        s += &format!(
            "\t\t\t*MESH_FACE {i:4}:    A: {:4} B: {:4} C: {:4} AB:    1 BC:    1 CA:    0\t *MESH_SMOOTHING 1 \t*MESH_MTLID {mtl}\n",
            f[0], f[1], f[2]
        );
    }
    s += "\t\t}\n";
    s += extra;
    s += "\t}\n";
    s
}

const HEADER: &str = "*3DSMAX_ASCIIEXPORT\t200\n*COMMENT \"written by the bonescope tests\"\n*SCENE {\n\t*SCENE_FILENAME \"test.max\"\n\t*SCENE_FIRSTFRAME 0\n\t*SCENE_LASTFRAME 30\n\t*SCENE_FRAMESPEED 30\n\t*SCENE_TICKSPERFRAME 160\n}\n";

fn triangle() -> Vec<Vec3> {
    vec![Vec3::new(0.0, 0.0, 0.0), Vec3::new(10.0, 0.0, 0.0), Vec3::new(0.0, 10.0, 0.0)]
}

fn position_of(mesh: &Mesh, p: Vec3) -> usize {
    mesh.positions.iter().position(|q| q.abs_diff_eq(p, 1e-4)).unwrap_or_else(|| panic!("no vertex at {p}"))
}

// ---------------------------------------------------------------------------------------------------------
// Corpus.

#[test]
fn motion_capture_rom_has_the_documented_scene() {
    let Some(a) = corpus("MotionCaptureROM.ase") else { return };
    assert_eq!(a.meshes.len(), 26);
    assert_eq!(a.skeleton.len(), 31, "26 meshes + 5 helpers");
    let helpers: Vec<&String> = a.skeleton.names.iter().filter(|n| !a.meshes.iter().any(|m| &m.name == *n)).collect();
    assert_eq!(helpers.len(), 5);
    assert!(helpers.iter().all(|n| n.ends_with("Nub")), "{helpers:?}");
    a.skeleton.validate().unwrap();
    assert_eq!(a.axes, AxisConversion::z_up_right_handed());
    assert_eq!(a.clips.len(), 1);
    let clip = &a.clips[0];
    assert_eq!(clip.tracks.len(), 23, "23 nodes have TM_ANIMATION");
    assert_eq!(clip.frame_rate, 30.0);
    assert_eq!(clip.frame_count, 1359, "frames 0–1358");
    assert!((clip.duration - 1358.0 / 30.0).abs() < 1e-4, "{}", clip.duration);
    for m in &a.meshes {
        m.validate(a.skeleton.len()).unwrap();
        // Rigid: every vertex belongs fully to the mesh's own node.
        let bone = a.skeleton.find(&m.name).unwrap() as u16;
        assert!(m.joints.iter().zip(&m.weights).all(|(j, w)| j[0] == bone && w[0] == 1.0));
    }
    assert!(a.warnings.is_empty(), "{:?}", a.warnings);
}

#[test]
fn motion_capture_rom_bind_pose_reproduces_the_file_vertices() {
    let Some(a) = corpus("MotionCaptureROM.ase") else { return };
    let pose = Pose::bind(&a.skeleton);
    let m = &a.meshes[0];
    assert_eq!(m.name, "Bip01");
    let (mut p, mut n) = (Vec::new(), Vec::new());
    skin_mesh(m, &pose.palette, &mut p, &mut n);
    // `*MESH_VERTEX 0  0.3224 19.4919 36.0913` of Bip01.
    let i = position_of(m, Vec3::new(0.3224, 19.4919, 36.0913));
    assert!(p[i].abs_diff_eq(m.positions[i], 1e-4));
    // The clip's first frame is the bind pose (the first relative rotation sample is the absolute one).
    let first = Pose::from_clip(&a.skeleton, &a.clips[0], 0.0);
    for (b, (x, y)) in first.to_root.iter().zip(&pose.to_root).enumerate() {
        assert!(x.abs_diff_eq(*y, 0.02), "bone {}: {x} vs {y}", a.skeleton.names[b]);
    }
}

#[test]
fn motion_capture_rom_meshes_move_rigidly_with_their_nodes() {
    let Some(a) = corpus("MotionCaptureROM.ase") else { return };
    let bind: Vec<Vec<Vec3>> = a.meshes.iter().map(|m| m.positions.clone()).collect();
    let mut moved = 0usize;
    for time in [3.0, 12.5, 27.0, 33.0, 45.0] {
        let posed = skinned(&a, time);
        for (m, (before, after)) in a.meshes.iter().zip(bind.iter().zip(&posed)) {
            for i in 0..before.len() {
                for j in (i + 1..before.len()).step_by(7) {
                    let d0 = before[i].distance(before[j]);
                    let d1 = after[i].distance(after[j]);
                    assert!((d0 - d1).abs() <= 1e-3 * d0.max(1.0), "{} at {time}s: {d0} became {d1}", m.name);
                }
            }
            if before.iter().zip(after).any(|(p, q)| p.distance(*q) > 1.0) {
                moved += 1;
            }
        }
    }
    assert!(moved > 26, "the meshes follow the animation ({moved} mesh poses moved)");
}

/// Relative rotation samples compose in the parent frame: with the other order the mocap figure's feet rise
/// above its pelvis within seconds.
#[test]
fn motion_capture_rom_feet_stay_below_the_pelvis() {
    let Some(a) = corpus("MotionCaptureROM.ase") else { return };
    let s = &a.skeleton;
    let [left, right, pelvis] = ["Bip01 L Fu_", "Bip01 R Fu_", "Bip01 Becken"].map(|n| s.find(n).unwrap());
    let clip = &a.clips[0];
    for frame in (0..clip.frame_count).step_by(3) {
        let pose = Pose::from_clip(s, clip, frame as f32 / clip.frame_rate);
        let z = |b: usize| pose.to_root[b].w_axis.z;
        for foot in [left, right] {
            assert!(z(foot) > 0.0, "frame {frame}: a foot is below the floor ({})", z(foot));
            assert!(
                z(foot) < z(pelvis) - 5.0,
                "frame {frame}: a foot ({}) is above the pelvis ({})",
                z(foot),
                z(pelvis)
            );
        }
    }
}

#[test]
fn anim2_keeps_camera_lights_and_scale_track() {
    let Some(a) = corpus("anim2.ASE") else { return };
    for name in ["Box01", "Box02", "Camera01", "Camera01.Target", "FDirect01", "FDirect02", "Sky01"] {
        assert!(a.skeleton.find(name).is_some(), "{name} is a node: {:?}", a.skeleton.names);
    }
    assert_eq!(a.meshes.len(), 2);
    let clip = &a.clips[0];
    assert_eq!(clip.frame_count, 101);
    let box02 = clip.track_for("Box02").unwrap();
    assert!(!box02.scale.is_empty());
    // *CONTROL_SCALE_SAMPLE 0  0.7750 0.7750 1.2611 …
    assert!(box02.scale.values[0].abs_diff_eq(Vec3::new(0.775, 0.775, 1.2611), 1e-4));
    let target = clip.track_for("Camera01.Target").unwrap();
    assert!(!target.translation.is_empty());
    // The camera target's world position at the bind frame is its second NODE_TM's row 3.
    let b = a.skeleton.find("Camera01.Target").unwrap();
    let to_root = a.skeleton.bind_to_root()[b];
    assert!(to_root.w_axis.truncate().abs_diff_eq(Vec3::new(46.141, 66.9139, 0.0), 1e-3));
    // Box02 scales: its vertices move away from its pivot between the first and a later frame.
    let box_mesh = a.meshes.iter().position(|m| m.name == "Box02").unwrap();
    let (p0, p1) = (skinned(&a, 0.0), skinned(&a, 2.0));
    assert!(p0[box_mesh].iter().zip(&p1[box_mesh]).any(|(x, y)| x.distance(*y) > 0.1));
}

#[test]
fn utf16_file_loads_like_its_utf8_twin() {
    let Some(path) = common::corpus_file("ase/ThreeCubesGreen_UTF16LE.ASE") else { return };
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..2], &[0xFF, 0xFE]);
    let units: Vec<u16> = bytes[2..].chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
    let utf8 = String::from_utf16(&units).unwrap();
    let a = ase::load(&bytes, &LoadOptions::default()).unwrap();
    let b = load(&utf8);
    assert_eq!(a.meshes.len(), 3);
    assert_eq!(a.triangle_count(), 36);
    assert_eq!(a.materials.len(), 3);
    assert_eq!(a.materials[0].name, "02 - Default");
    assert_eq!(a.skeleton.names, b.skeleton.names);
    for (m, n) in a.meshes.iter().zip(&b.meshes) {
        assert_eq!(m.positions, n.positions);
        assert_eq!(m.indices, n.indices);
    }
}

#[test]
fn invalid_uv_index_is_reported_not_read() {
    let Some(a) = corpus("InvalidUVIndex.ase") else { return };
    assert_eq!(a.triangle_count(), 1);
    let w = a.warnings.iter().find(|w| w.message.contains("texture vertex")).expect("a warning");
    assert_eq!(w.position, "line 35", "{w}");
    assert!(w.message.contains("refers to texture vertex 7, but *MESH_NUMTVERTEX is 3"), "{w}");
    assert!(a.meshes[0].uvs.iter().all(|uv| *uv == glam::Vec2::ZERO));
}

// ---------------------------------------------------------------------------------------------------------
// Files the tests write.

#[test]
fn parents_may_come_after_their_children() {
    // Child first, rotated 90° about Z (right-handed: x → y) and placed at (10, 0, 0); its parent at (5, 0, 0).
    let rot_z90 = [[0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [10.0, 0.0, 0.0]];
    let text = format!(
        "{HEADER}{}{}",
        object("GEOMOBJECT", "Child", Some("Root"), rot_z90, &mesh_block(&triangle(), &[([0, 1, 2], 0)], "")),
        object("HELPEROBJECT", "Root", None, translation(5.0, 0.0, 0.0), "")
    );
    let a = load(&text);
    assert_eq!(a.skeleton.names, vec!["Root", "Child"]);
    assert_eq!(a.skeleton.parents, vec![None, Some(0)]);
    let local = a.skeleton.bind_local[1];
    assert!(local.translation.abs_diff_eq(Vec3::new(5.0, 0.0, 0.0), 1e-5));
    assert!(local.rotation.angle_between(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)) < 1e-5);
    // Vertices stay in world space; the mesh's one bone is Child.
    assert_eq!(a.meshes[0].joints[0][0], 1);
    assert!(a.meshes[0].positions.contains(&Vec3::new(10.0, 0.0, 0.0)));
    assert!(bonescope::anim::bind_pose_error(&a.skeleton).iter().all(|e| *e < 1e-5));
    assert!(a.clips.is_empty());
}

fn weighted_scene(bone_vertex_lines: &str, bones: usize) -> String {
    let mut text = HEADER.to_owned();
    for b in 0..bones {
        text += &object("HELPEROBJECT", &format!("Bone0{b}"), None, translation(b as f32 * 10.0, 0.0, 0.0), "");
    }
    let names: String = (0..bones).map(|b| format!("\t\t\t\t*MESH_BONE_NAME {b} \"Bone0{b}\"\n")).collect();
    let weights = format!(
        "\t\t*MESH_WEIGHTS {{\n\t\t\t*MESH_NUMVERTEX 3\n\t\t\t*MESH_NUMBONE {bones}\n\t\t\t*MESH_BONE_LIST\n\t\t\t{{\n{names}\t\t\t}}\n\t\t\t*MESH_BONE_VERTEX_LIST\n\t\t\t{{\n{bone_vertex_lines}\t\t\t}}\n\t\t}}\n"
    );
    text += &object(
        "GEOMOBJECT",
        "Skin",
        None,
        translation(0.0, 0.0, 0.0),
        &mesh_block(&triangle(), &[([0, 1, 2], 0)], &weights),
    );
    text
}

fn influences(a: &Asset, vertex: Vec3) -> Vec<(String, f32)> {
    let m = &a.meshes[0];
    let i = position_of(m, vertex);
    m.joints[i]
        .iter()
        .zip(m.weights[i])
        .filter(|(_, w)| *w > 0.0)
        .map(|(j, w)| (a.skeleton.names[*j as usize].clone(), (w * 1000.0).round() / 1000.0))
        .collect()
}

#[test]
fn mesh_weights_in_the_exporters_shape() {
    // The vertex index, the weight of bone 0, then `bone weight` pairs for bones 1…3.
    let lines = "\t\t\t\t*MESH_BONE_VERTEX 0 0.2000 1 0.3000 2 0.5000 3 0.0000\n\t\t\t\t*MESH_BONE_VERTEX 1 0.2000 1 0.3000 2 0.3000 3 0.2000\n\t\t\t\t*MESH_BONE_VERTEX 2 0.3000 1 0.3000 2 0.1000 3 0.3000\n";
    let a = load(&weighted_scene(lines, 4));
    let t = triangle();
    let f = |v: &[(&str, f32)]| v.iter().map(|(n, w)| (n.to_string(), *w)).collect::<Vec<_>>();
    assert_eq!(influences(&a, t[0]), f(&[("Bone02", 0.5), ("Bone01", 0.3), ("Bone00", 0.2)]));
    assert_eq!(influences(&a, t[1]), f(&[("Bone01", 0.3), ("Bone02", 0.3), ("Bone00", 0.2), ("Bone03", 0.2)]));
    assert_eq!(influences(&a, t[2]), f(&[("Bone00", 0.3), ("Bone01", 0.3), ("Bone03", 0.3), ("Bone02", 0.1)]));
    assert!(a.warnings.is_empty(), "{:?}", a.warnings);
    // Bind pose: the skinned mesh is where the file put it.
    let pose = Pose::bind(&a.skeleton);
    let (mut p, mut n) = (Vec::new(), Vec::new());
    skin_mesh(&a.meshes[0], &pose.palette, &mut p, &mut n);
    assert!(p.iter().zip(&a.meshes[0].positions).all(|(x, y)| x.abs_diff_eq(*y, 1e-4)));
}

#[test]
fn mesh_weights_as_pairs_and_with_positions() {
    // `vertex bone weight …` pairs, and the ASC shape with the vertex position before the pairs; -1 = unused.
    let lines = "\t\t\t\t*MESH_BONE_VERTEX 0 2 0.75 0 0.25\n\t\t\t\t*MESH_BONE_VERTEX 1 10.0 0.0 0.0 1 0.6 2 0.4 -1 0.0\n\t\t\t\t*MESH_BONE_VERTEX 2 1 1.0 2 0.0 0 0.0\n";
    let a = load(&weighted_scene(lines, 3));
    let t = triangle();
    assert_eq!(influences(&a, t[0]), vec![("Bone02".into(), 0.75), ("Bone00".into(), 0.25)]);
    assert_eq!(influences(&a, t[1]), vec![("Bone01".into(), 0.6), ("Bone02".into(), 0.4)]);
    assert_eq!(influences(&a, t[2]), vec![("Bone01".into(), 1.0)]);
}

#[test]
fn soft_skin_weights_by_bone_name() {
    let mut text = HEADER.to_owned();
    for b in ["Hip", "Knee"] {
        text += &object("HELPEROBJECT", b, None, translation(0.0, 0.0, 0.0), "");
    }
    text +=
        &object("GEOMOBJECT", "Leg", None, translation(0.0, 0.0, 0.0), &mesh_block(&triangle(), &[([0, 1, 2], 0)], ""));
    // Top-level block (older ASC exporters): mesh name, vertex count, then per vertex `count (name weight)…`.
    text += "*MESH_SOFTSKINVERTS {\n\tLeg\n\t3\n\t1 \"Hip\" 1.0\n\t2 \"Hip\" 0.5 \"Knee\" 0.5\n\t1 \"Knee\" 1.0\n}\n";
    let a = load(&text);
    let t = triangle();
    assert_eq!(influences(&a, t[0]), vec![("Hip".into(), 1.0)]);
    assert_eq!(influences(&a, t[1]), vec![("Hip".into(), 0.5), ("Knee".into(), 0.5)]);
    assert_eq!(influences(&a, t[2]), vec![("Knee".into(), 1.0)]);

    // Names quoted in some rows and bare in others are the same bones.
    let mixed = text.replace("1 \"Hip\" 1.0", "1 Hip 1.0").replace("\"Knee\" 1.0", "Knee 1.0");
    assert_ne!(mixed, text);
    let b = load(&mixed);
    for &corner in &t {
        assert_eq!(influences(&b, corner), influences(&a, corner));
    }

    // The same weights inside the object, as *MESH_SOFTSKIN.
    let mut text = HEADER.to_owned();
    for b in ["Hip", "Knee"] {
        text += &object("HELPEROBJECT", b, None, translation(0.0, 0.0, 0.0), "");
    }
    let body = mesh_block(&triangle(), &[([0, 1, 2], 0)], "")
        + "\t*MESH_SOFTSKIN {\n\t\t3\n\t\t1 \"Hip\" 1.0\n\t\t2 \"Hip\" 0.5 \"Knee\" 0.5\n\t\t2 \"Knee\" 0.9 \"Ankle\" 0.1\n\t}\n";
    text += &object("GEOMOBJECT", "Leg", None, translation(0.0, 0.0, 0.0), &body);
    let a = load(&text);
    assert_eq!(influences(&a, t[1]), vec![("Hip".into(), 0.5), ("Knee".into(), 0.5)]);
    assert_eq!(influences(&a, t[2]), vec![("Knee".into(), 1.0)], "the unknown bone's weight is dropped");
    assert!(a.warnings.iter().any(|w| w.message.contains("Ankle")), "{:?}", a.warnings);
}

#[test]
fn keyed_tracks_become_hermite_curves_through_their_keys() {
    let anim = "\t*TM_ANIMATION {\n\t\t*NODE_NAME \"Box\"\n\
        \t\t*CONTROL_POS_TCB {\n\
        \t\t\t*CONTROL_TCB_POS_KEY 0\t0.0 0.0 0.0\t0.0 0.0 0.0 0.0 0.0\n\
        \t\t\t*CONTROL_TCB_POS_KEY 1600\t10.0 0.0 0.0\t0.0 0.0 0.0 0.0 0.0\n\
        \t\t\t*CONTROL_TCB_POS_KEY 3200\t10.0 10.0 0.0\t0.0 0.0 0.0 0.0 0.0\n\
        \t\t\t*CONTROL_TCB_POS_KEY 4800\t0.0 10.0 0.0\t0.0 0.0 0.0 0.0 0.0\n\t\t}\n\
        \t\t*CONTROL_ROT_TCB {\n\
        \t\t\t*CONTROL_TCB_ROT_KEY 0\t0.0 0.0 1.0 0.0\t0.0 0.0 0.0 0.0 0.0\n\
        \t\t\t*CONTROL_TCB_ROT_KEY 1600\t0.0 0.0 1.0 0.5\t0.0 0.0 0.0 0.0 0.0\n\
        \t\t\t*CONTROL_TCB_ROT_KEY 3200\t0.0 0.0 1.0 0.5\t0.0 0.0 0.0 0.0 0.0\n\t\t}\n\
        \t\t*CONTROL_SCALE_BEZIER {\n\
        \t\t\t*CONTROL_BEZIER_SCALE_KEY 0\t1.0 1.0 1.0\t0.0 0.0 0.0 0.0\t0.0 0.0 0.0\t0.001 0.0 0.0\t0\n\
        \t\t\t*CONTROL_BEZIER_SCALE_KEY 4800\t2.0 1.0 1.0\t0.0 0.0 0.0 0.0\t-0.002 0.0 0.0\t0.0 0.0 0.0\t0\n\t\t}\n\t}\n";
    let text = format!(
        "{HEADER}{}",
        object(
            "GEOMOBJECT",
            "Box",
            None,
            translation(0.0, 0.0, 0.0),
            &(mesh_block(&triangle(), &[([0, 1, 2], 0)], "") + anim)
        )
    );
    let a = load(&text);
    let track = a.clips[0].track_for("Box").unwrap();
    use bonescope::anim::curve::{sample_quat, sample_vec3};
    use bonescope::scene::Interpolation;
    assert_eq!(track.translation.interpolation, Interpolation::Hermite);
    for (t, v) in [(0.0, Vec3::ZERO), (1.0 / 3.0, Vec3::X * 10.0), (2.0 / 3.0, Vec3::new(10.0, 10.0, 0.0))] {
        assert!(sample_vec3(&track.translation, t).unwrap().abs_diff_eq(v, 1e-4));
    }
    // Smooth, not linear: between the first two keys the curve bulges below the straight line.
    assert!(sample_vec3(&track.translation, 1.0 / 6.0).unwrap().y < -0.1);
    // Relative TCB rotation keys accumulate: 0.5 + 0.5 rad (3ds Max's sense is the opposite of glam's).
    let r = sample_quat(&track.rotation, 2.0 / 3.0).unwrap();
    assert!(r.angle_between(Quat::from_rotation_z(-1.0)) < 1e-4, "{r}");
    // Bezier tangents are per tick: out 0.001 → 4.8 per second; the in tangent −0.002 arrives at +9.6 per second.
    let s = |t: f32| sample_vec3(&track.scale, t).unwrap().x;
    let h = 1e-3;
    assert!(((s(h) - s(0.0)) / h - 4.8).abs() < 0.05, "{}", (s(h) - s(0.0)) / h);
    assert!(((s(1.0) - s(1.0 - h)) / h - 9.6).abs() < 0.05, "{}", (s(1.0) - s(1.0 - h)) / h);
}

#[test]
fn sampled_tracks_hold_left_out_samples_and_pad_to_the_end() {
    // Samples every 5 frames (800 ticks); 800 and 1600 were equal to 0 and left out; the track ends at frame 20.
    let anim = "\t*TM_ANIMATION {\n\t\t*NODE_NAME \"Box\"\n\t\t*CONTROL_POS_TRACK {\n\
        \t\t\t*CONTROL_POS_SAMPLE 0\t0.0 0.0 0.0\n\
        \t\t\t*CONTROL_POS_SAMPLE 2400\t3.0 0.0 0.0\n\
        \t\t\t*CONTROL_POS_SAMPLE 3200\t4.0 0.0 0.0\n\t\t}\n\t}\n";
    let text = format!(
        "{HEADER}{}",
        object(
            "GEOMOBJECT",
            "Box",
            None,
            translation(0.0, 0.0, 0.0),
            &(mesh_block(&triangle(), &[([0, 1, 2], 0)], "") + anim)
        )
    );
    let a = load(&text);
    use bonescope::anim::curve::sample_vec3;
    let c = &a.clips[0].track_for("Box").unwrap().translation;
    let at = |tick: f32| sample_vec3(c, tick / 4800.0).unwrap().x;
    assert_eq!(at(1200.0), 0.0, "held until one step before the next sample");
    assert!((at(2000.0) - 1.5).abs() < 1e-5);
    assert_eq!(at(4000.0), 4.0);
    assert_eq!(at(4800.0), 4.0);
    assert_eq!(c.end_time(), 1.0, "padded to frame 30");
}

#[test]
fn mesh_animation_becomes_vertex_frames_and_tweens() {
    let frame = |tick: i32, dx: f32| {
        let v: Vec<Vec3> = triangle().iter().map(|p| *p + Vec3::X * dx).collect();
        mesh_block(&v, &[([0, 1, 2], 0)], "").replace("*TIMEVALUE 0", &format!("*TIMEVALUE {tick}"))
    };
    let body = mesh_block(&triangle(), &[([0, 1, 2], 0)], "")
        + "\t*MESH_ANIMATION {\n"
        + &frame(0, 0.0)
        + &frame(4800, 2.0)
        + "\t}\n";
    let text = format!("{HEADER}{}", object("GEOMOBJECT", "Blob", None, translation(0.0, 0.0, 0.0), &body));
    let a = load(&text);
    let m = &a.meshes[0];
    assert_eq!(m.vertex_frames.len(), 2);
    assert_eq!((m.vertex_frames[0].time, m.vertex_frames[1].time), (0.0, 1.0));
    let (mut p, mut n) = (Vec::new(), Vec::new());
    tween(m, 0.5, &mut p, &mut n);
    for (q, base) in p.iter().zip(&m.positions) {
        assert!(q.abs_diff_eq(*base + Vec3::X, 1e-5), "{q} vs {base}");
    }
    assert_eq!(a.clips.len(), 1, "vertex animation alone still gives a timeline");
}

#[test]
fn materials_sub_materials_textures_and_uvs() {
    let dir = std::env::temp_dir().join(format!("bonescope-ase-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("Hair_D.TGA"), b"not really a tga").unwrap();
    let materials = "*MATERIAL_LIST {\n\t*MATERIAL_COUNT 2\n\
        \t*MATERIAL 0 {\n\t\t*MATERIAL_NAME \"Hair\"\n\t\t*MATERIAL_CLASS \"Standard\"\n\t\t*MATERIAL_DIFFUSE 0.5 0.25 1.0\n\t\t*MATERIAL_TRANSPARENCY 0.25\n\t\t*MATERIAL_TWOSIDED\n\
        \t\t*MAP_DIFFUSE {\n\t\t\t*MAP_NAME \"Map #1\"\n\t\t\t*MAP_CLASS \"Bitmap\"\n\t\t\t*BITMAP \"C:\\art\\hair_d.tga\"\n\t\t\t*UVW_U_OFFSET 0.25\n\t\t\t*UVW_V_OFFSET 0.5\n\t\t\t*UVW_U_TILING 2.0\n\t\t\t*UVW_V_TILING 4.0\n\t\t\t*UVW_ANGLE 0.0\n\t\t}\n\t}\n\
        \t*MATERIAL 1 {\n\t\t*MATERIAL_NAME \"Multi\"\n\t\t*MATERIAL_CLASS \"Multi/Sub-Object\"\n\t\t*NUMSUBMTLS 2\n\
        \t\t*SUBMATERIAL 0 {\n\t\t\t*MATERIAL_NAME \"Red\"\n\t\t\t*MATERIAL_DIFFUSE 1.0 0.0 0.0\n\t\t}\n\
        \t\t*SUBMATERIAL 1 {\n\t\t\t*MATERIAL_NAME \"Blue\"\n\t\t\t*MATERIAL_DIFFUSE 0.0 0.0 1.0\n\t\t}\n\t}\n}\n";
    let quad = vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y];
    let tverts = "\t\t*MESH_NUMTVERTEX 4\n\t\t*MESH_TVERTLIST {\n\t\t\t*MESH_TVERT 0\t0.0 0.0 0.0\n\t\t\t*MESH_TVERT 1\t1.0 0.0 0.0\n\t\t\t*MESH_TVERT 2\t1.0 0.25 0.0\n\t\t\t*MESH_TVERT 3\t0.0 1.0 0.0\n\t\t}\n\t\t*MESH_NUMTVFACES 3\n\t\t*MESH_TFACELIST {\n\t\t\t*MESH_TFACE 0\t0 1 2\n\t\t\t*MESH_TFACE 1\t0 2 3\n\t\t\t*MESH_TFACE 2\t0 2 3\n\t\t}\n";
    let faces = [([0, 1, 2], 0), ([0, 2, 3], 1), ([0, 3, 2], 2)];
    let multi = mesh_block(&quad, &faces, tverts) + "\t*MATERIAL_REF 1\n";
    let single = mesh_block(&triangle(), &[([0, 1, 2], 5)], "") + "\t*MATERIAL_REF 0\n";
    let text = format!(
        "{HEADER}{materials}{}{}",
        object("GEOMOBJECT", "Cards", None, translation(0.0, 0.0, 0.0), &multi),
        object("GEOMOBJECT", "Hair", None, translation(0.0, 0.0, 0.0), &single),
    );
    let opts = LoadOptions { base_dir: Some(dir.clone()), ..LoadOptions::default() };
    let a = ase::load(text.as_bytes(), &opts).unwrap();
    let names: Vec<&str> = a.materials.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, vec!["Hair", "Multi / Red", "Multi / Blue"]);
    let hair = &a.materials[0];
    assert_eq!(hair.diffuse, [0.5, 0.25, 1.0, 0.75]);
    assert!(hair.two_sided);
    let tex = hair.texture.as_ref().unwrap();
    assert_eq!(tex.name, "C:\\art\\hair_d.tga");
    assert_eq!(tex.path.as_deref(), Some(dir.join("Hair_D.TGA").as_path()), "found case-insensitively");
    assert_eq!(hair.uv_tiling, [2.0, 4.0]);
    assert_eq!(hair.uv_offset, [0.25, 1.0 - 4.0 - 0.5]);
    // MTLID 0 → Red, 1 → Blue, 2 → Red again (modulo the sub-material count).
    let cards = &a.meshes[0];
    let subsets: Vec<(usize, u32)> = cards.subsets.iter().map(|s| (s.material, s.index_count)).collect();
    assert_eq!(subsets, vec![(1, 6), (2, 3)]);
    // Texture v is flipped: tvert 2 (1, 0.25) → (1, 0.75).
    let i = position_of(cards, Vec3::new(1.0, 1.0, 0.0));
    assert_eq!(cards.uvs[i], glam::Vec2::new(1.0, 0.75));
    assert_eq!(a.meshes[1].subsets[0].material, 0, "a Standard material ignores MTLID");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn unknown_blocks_are_skipped_not_rejected() {
    let extra = "\t*MESH_MAPPINGCHANNEL 2 {\n\t\t*MESH_NUMTVERTEX 1\n\t\t*MESH_TVERTLIST {\n\t\t\t*MESH_TVERT 0\t0.5 0.5 0.0\n\t\t}\n\t\t*MESH_NUMTVFACES 1\n\t\t*MESH_TFACELIST {\n\t\t\t*MESH_TFACE 0\t0 0 0\n\t\t}\n\t}\n\t\t*SOMETHING_NEW {\n\t\t\t*NESTED { \"}\" }\n\t\t}\n";
    let body = mesh_block(&triangle(), &[([0, 1, 2], 0)], extra)
        + "\t*USER_DATA \"a } b\"\n\t*PLUGIN_BLOCK\n\t{\n\t\t*X 1\n\t}\n";
    let text = format!(
        "{HEADER}*GROUP \"Props\" {{\n{}}}\n*FUTURE_THING {{\n\t*A {{ }}\n}}\n",
        object("GEOMOBJECT", "Thing", None, translation(0.0, 0.0, 0.0), &body)
    );
    let a = load(&text);
    assert_eq!(a.meshes.len(), 1);
    assert_eq!(a.meshes[0].extra_uvs.len(), 1);
    assert_eq!(a.meshes[0].extra_uvs[0][0], glam::Vec2::new(0.5, 0.5));
    assert!(a.warnings.iter().any(|w| w.message.contains("*FUTURE_THING")), "{:?}", a.warnings);
}

#[test]
fn smoothing_groups_shape_normals_when_the_file_has_none() {
    // Two faces folded 90° along the x axis: same group → one shared, averaged normal on the fold; different
    // groups → split.
    let v = vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    let body = |g2: u32| {
        mesh_block(&v, &[([0, 1, 2], 0), ([1, 0, 3], 0)], "")
            .lines()
            .map(|l| {
                if l.contains("*MESH_FACE    1:") {
                    l.replace("*MESH_SMOOTHING 1", &format!("*MESH_SMOOTHING {g2}"))
                } else {
                    l.to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    };
    let smooth = load(&format!("{HEADER}{}", object("GEOMOBJECT", "F", None, translation(0.0, 0.0, 0.0), &body(1))));
    assert_eq!(smooth.meshes[0].positions.len(), 4);
    let m = &smooth.meshes[0];
    let n = m.normals[position_of(m, Vec3::ZERO)];
    assert!(n.abs_diff_eq(Vec3::new(0.0, 1.0, 1.0).normalize(), 1e-5), "{n}");
    let hard = load(&format!("{HEADER}{}", object("GEOMOBJECT", "F", None, translation(0.0, 0.0, 0.0), &body(2))));
    assert_eq!(hard.meshes[0].positions.len(), 6);
}

#[test]
fn errors_name_the_line_and_the_problem() {
    let bad_face = format!(
        "{HEADER}{}",
        object(
            "GEOMOBJECT",
            "Box",
            None,
            translation(0.0, 0.0, 0.0),
            &mesh_block(&triangle(), &[([0, 1, 2], 0)], "").replace("C:    2", "C:  140")
        )
    );
    let line = line_of(&bad_face, "C:  140");
    // The message says where and what, in the file's own words.
    assert_eq!(
        load_err(&bad_face).to_string(),
        format!("line {line}: *MESH_FACE 0 refers to vertex 140, but *MESH_NUMVERTEX is 3")
    );
    assert_eq!(load_err(&bad_face).kind, LoadErrorKind::Malformed);

    // A count the rest of the file cannot hold: the file was cut (or the count is corrupt).
    let huge = bad_face.replace("*MESH_NUMVERTEX 3", "*MESH_NUMVERTEX 2000000000");
    let err = load_err(&huge);
    assert_eq!((err.kind, err.position), (LoadErrorKind::Truncated, Position::Line(line_of(&huge, "*MESH_NUMVERTEX"))));

    let short = bad_face.replace("0.0000\t10.0000\t0.0000", "0.0000\t10.0000");
    let err = load_err(&short);
    let at = Position::Line(line_of(&short, "0.0000\t10.0000"));
    assert_eq!((err.kind, err.position), (LoadErrorKind::Malformed, at), "{err}");
    assert!(err.message.contains("expected 3 numbers, found 2"), "{err}");

    let bad_number = bad_face.replace("0.0000\t10.0000\t0.0000", "0.0000\t10.0000\t1x");
    let err = load_err(&bad_number);
    assert_eq!((err.kind, err.position), (LoadErrorKind::Malformed, at), "{err}");

    // Cut inside the mesh block, and cut inside a number on the last line.
    let cut = &bad_face[..bad_face.find("*MESH_FACE_LIST").unwrap()];
    let err = load_err(cut);
    assert_eq!(
        (err.kind, err.position),
        (LoadErrorKind::Truncated, Position::Line(line_of(&bad_face, "*MESH_FACE_LIST")))
    );
    let vertex = bad_face.find("0.0000\t10.0000\t0.0000").unwrap();
    let err = load_err(&bad_face[..vertex + "0.0000\t10.0000\t0.".len()]);
    assert_eq!((err.kind, err.position), (LoadErrorKind::Truncated, at), "{err}");
    let err = load_err(&bad_face[..vertex + "0.0000\t10.0000\t-".len()]);
    assert_eq!((err.kind, err.position), (LoadErrorKind::Truncated, at), "{err}");

    assert_eq!(load_err("").kind, LoadErrorKind::NotThisFormat);
    assert_eq!(load_err(" \n\t").kind, LoadErrorKind::NotThisFormat);
    let err = load_err("hello world");
    assert_eq!((err.kind, err.position), (LoadErrorKind::NotThisFormat, Position::Line(1)));
}

/// A file that ends with blocks still open is truncated; the error names the block and the line it opened on.
#[test]
fn unbalanced_braces_at_the_end_are_truncation() {
    let text = format!(
        "{HEADER}{}",
        object("GEOMOBJECT", "Box", None, translation(0.0, 0.0, 0.0), &mesh_block(&triangle(), &[([0, 1, 2], 0)], ""))
    );
    let open = text.rfind('}').unwrap();
    let err = load_err(&text[..open]);
    // The line the file stops on (after the last newline).
    let last_line = text[..open].matches('\n').count() + 1;
    assert_eq!((err.kind, err.position), (LoadErrorKind::Truncated, Position::Line(last_line)));
    assert!(err.message.contains("*GEOMOBJECT (opened at line"), "names the block and its line: {err}");
    // A `{` after an unknown keyword, never closed.
    let err = load_err(&format!("{text}*UNKNOWN_BLOCK {{\n\t*X 1\n"));
    assert_eq!(err.kind, LoadErrorKind::Truncated);
    // An extra `}` is not truncation.
    assert!(ase::load(format!("{text}}}\n").as_bytes(), &LoadOptions::default()).is_ok_and(|a| a.meshes.len() == 1));
}
