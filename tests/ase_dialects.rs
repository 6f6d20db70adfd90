//! ASE dialects on small files the tests write themselves, one per rule: world-space samples (GothicSourcer)
//! against relative ones (3ds Max's exporter), where time 0 is, samples that disagree with the scene block, a
//! file whose exporter nothing names (detected from the data, or assumed with a warning), morph-mesh files of
//! vertex frames only, and binding them to their base mesh.

use std::path::PathBuf;

use bonescope::anim::controller::{Controller, PlaybackType};
use bonescope::anim::{DiagnoseOptions, FindingKind, Pose, Severity, apply_morphs, diagnose};
use bonescope::io::{LoadErrorKind, LoadOptions, ase};
use bonescope::scene::{Asset, Reading};
use glam::{Mat4, Quat, Vec3};

fn load(text: &str) -> Asset {
    ase::load(text.as_bytes(), &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn reading<'a>(asset: &'a Asset, topic: &str) -> &'a Reading {
    asset.readings.iter().find(|r| r.topic == topic).unwrap_or_else(|| panic!("no '{topic}' in {:?}", asset.readings))
}

fn warnings(asset: &Asset) -> Vec<String> {
    asset.warnings.iter().map(ToString::to_string).collect()
}

const GOTHIC: &str = "*3DSMAX_ASCIIEXPORT\t110\n*COMMENT \"[ GothicSourcer v3.14 ] - June 2007\"\n";
const STOCK: &str = "*3DSMAX_ASCIIEXPORT\t200\n*COMMENT \"AsciiExport Version  2,00\"\n";

fn scene(first: i64, last: i64, fps: u32, ticks_per_frame: u32) -> String {
    format!(
        "*SCENE {{\n\t*SCENE_FILENAME \"test.max\"\n\t*SCENE_FIRSTFRAME {first}\n\t*SCENE_LASTFRAME {last}\n\t*SCENE_FRAMESPEED {fps}\n\t*SCENE_TICKSPERFRAME {ticks_per_frame}\n}}\n"
    )
}

/// `*NODE_TM` rows of a world matrix (3ds Max row vectors: three axes, then the translation).
fn node_tm(name: &str, world: Mat4) -> String {
    let r = |v: Vec3| format!("{:.7}\t{:.7}\t{:.7}", v.x, v.y, v.z);
    format!(
        "\t*NODE_TM {{\n\t\t*NODE_NAME \"{name}\"\n\t\t*TM_ROW0 {}\n\t\t*TM_ROW1 {}\n\t\t*TM_ROW2 {}\n\t\t*TM_ROW3 {}\n\t}}\n",
        r(world.x_axis.truncate()),
        r(world.y_axis.truncate()),
        r(world.z_axis.truncate()),
        r(world.w_axis.truncate())
    )
}

/// 3ds Max writes (axis, angle) for a rotation by −angle.
fn max_axis_angle(q: Quat) -> (Vec3, f32) {
    let (axis, angle) = q.to_axis_angle();
    (axis, -angle)
}

/// A helper node with `*TM_ANIMATION` samples: (tick, position, rotation) as given.
fn helper(name: &str, parent: Option<&str>, bind: Mat4, samples: &[(i64, Vec3, Quat)]) -> String {
    let mut s = format!("*HELPEROBJECT {{\n\t*NODE_NAME \"{name}\"\n");
    if let Some(p) = parent {
        s += &format!("\t*NODE_PARENT \"{p}\"\n");
    }
    s += &node_tm(name, bind);
    if !samples.is_empty() {
        s += &format!("\t*TM_ANIMATION {{\n\t\t*NODE_NAME \"{name}\"\n\t\t*CONTROL_POS_TRACK {{\n");
        for (tick, p, _) in samples {
            s += &format!("\t\t\t*CONTROL_POS_SAMPLE {tick}\t{:.7}\t{:.7}\t{:.7}\n", p.x, p.y, p.z);
        }
        s += "\t\t}\n\t\t*CONTROL_ROT_TRACK {\n";
        for (tick, _, q) in samples {
            let (a, angle) = max_axis_angle(*q);
            s += &format!("\t\t\t*CONTROL_ROT_SAMPLE {tick}\t{:.7}\t{:.7}\t{:.7}\t{:.7}\n", a.x, a.y, a.z, angle);
        }
        s += "\t\t}\n\t}\n";
    }
    s + "}\n"
}

/// A three-node chain (root, spine 10 units along its parent's x, head 8 along its parent's y) moving through
/// `frames` frames: world transforms at frame k.
fn chain_world(k: usize) -> [Mat4; 3] {
    let k = k as f32;
    // The root's world rotation is far from the identity (Gothic bipeds stand rotated 120° about (−1,−1,−1)).
    let base = Quat::from_axis_angle(Vec3::new(-1.0, -1.0, -1.0).normalize(), 2.0944);
    let root =
        Mat4::from_rotation_translation(Quat::from_rotation_z(0.05 * k) * base, Vec3::new(3.0 * k, -2.0 * k, 50.0));
    let spine = root * Mat4::from_rotation_translation(Quat::from_rotation_z(0.3 * k), Vec3::new(10.0, 0.0, 0.0));
    let head = spine * Mat4::from_rotation_translation(Quat::from_rotation_x(0.2 * k), Vec3::new(0.0, 8.0, 0.0));
    [root, spine, head]
}

const NAMES: [&str; 3] = ["Bip01", "Bip01 Spine", "Bip01 Head"];

/// The chain as GothicSourcer writes it: world samples at ticks `first + k · tpf`, `*NODE_TM` the bind pose.
fn world_chain_file(header: &str, first: i64, frames: usize, tick_of: impl Fn(usize) -> i64) -> String {
    let mut s = header.to_owned() + &scene(first, first + frames as i64 - 1, 25, 192);
    let bind = chain_world(0);
    for (n, name) in NAMES.iter().enumerate() {
        let samples: Vec<(i64, Vec3, Quat)> = (0..frames)
            .map(|k| {
                let (_, r, t) = chain_world(k + 1)[n].to_scale_rotation_translation();
                (tick_of(k), t, r)
            })
            .collect();
        s += &helper(name, (n > 0).then(|| NAMES[n - 1]), bind[n], &samples);
    }
    s
}

fn to_root(asset: &Asset, time: f32) -> Vec<Mat4> {
    Pose::from_clip(&asset.skeleton, &asset.clips[0], time).to_root
}

#[test]
fn world_samples_become_the_stated_world_transforms_at_every_tick() {
    let frames = 6;
    let a = load(&world_chain_file(GOTHIC, 1, frames, |k| 1 + 192 * k as i64));
    assert_eq!(reading(&a, "exporter").choice, "GothicSourcer");
    assert!(reading(&a, "animation samples").choice.starts_with("world transforms"), "{:?}", a.readings);
    assert!(warnings(&a).is_empty(), "{:?}", warnings(&a));
    let clip = &a.clips[0];
    assert_eq!(clip.frame_count, frames as u32);
    assert!((clip.duration - (frames - 1) as f32 / 25.0).abs() < 1e-6);
    for k in 0..frames {
        let time = k as f32 / 25.0;
        let pose = to_root(&a, time);
        for (n, stated) in chain_world(k + 1).iter().enumerate() {
            let bone = a.skeleton.find(NAMES[n]).unwrap();
            assert!(
                pose[bone].abs_diff_eq(*stated, 1e-4 * 60.0),
                "frame {k}, {}: {} vs {stated}",
                NAMES[n],
                pose[bone]
            );
        }
    }
    // Between samples the parent-relative values are interpolated: the bones keep their lengths.
    for k in 0..frames - 1 {
        let pose = to_root(&a, (k as f32 + 0.5) / 25.0);
        let length = |b: usize, p: usize| (pose[b].w_axis - pose[p].w_axis).truncate().length();
        assert!((length(1, 0) - 10.0).abs() < 1e-3 && (length(2, 1) - 8.0).abs() < 1e-3, "between {k} and {}", k + 1);
    }
}

#[test]
fn the_same_numbers_from_the_stock_exporter_are_relative_rotations() {
    // 3ds Max's exporter: positions relative to the parent, each rotation sample the change from the previous.
    let text = world_chain_file(STOCK, 0, 3, |k| 160 * k as i64);
    let a = load(&text);
    assert!(reading(&a, "animation samples").choice.starts_with("parent-relative"), "{:?}", a.readings);
    let root = a.clips[0].track_for("Bip01").unwrap();
    let q = |k: usize| chain_world(k + 1)[0].to_scale_rotation_translation().1;
    use bonescope::anim::curve::{sample_quat, sample_vec3};
    // R_1 = D_1 · R_0: the second sample turns on top of the first.
    let r1 = sample_quat(&root.rotation, 1.0 / 30.0).unwrap();
    assert!(r1.angle_between(q(1) * q(0)) < 1e-4, "{r1} vs {}", q(1) * q(0));
    let spine = a.clips[0].track_for("Bip01 Spine").unwrap();
    let p0 = sample_vec3(&spine.translation, 0.0).unwrap();
    assert!(p0.abs_diff_eq(chain_world(1)[1].w_axis.truncate(), 1e-3), "taken as the local position: {p0}");
    // The data look like world samples: the contradiction with the header is reported.
    assert!(warnings(&a).iter().any(|w| w.contains("look like world transforms")), "{:?}", warnings(&a));
}

#[test]
fn time_zero_is_the_first_sample_for_either_exporter() {
    // GothicSourcer: frames 5–8 sampled at ticks 5, 197, 389, 581.
    let a = load(&world_chain_file(GOTHIC, 5, 4, |k| 5 + 192 * k as i64));
    assert!(warnings(&a).is_empty(), "{:?}", warnings(&a));
    assert_eq!(reading(&a, "time 0").choice, "the first sample, tick 5");
    let clip = &a.clips[0];
    assert_eq!(clip.frame_count, 4, "LASTFRAME − FIRSTFRAME + 1");
    assert!((clip.duration - 3.0 / 25.0).abs() < 1e-6);
    let bone = a.skeleton.find("Bip01 Head").unwrap();
    assert!(to_root(&a, 0.0)[bone].abs_diff_eq(chain_world(1)[2], 1e-3), "sample 0 is shown at time 0");
    assert!(to_root(&a, 3.0 / 25.0)[bone].abs_diff_eq(chain_world(4)[2], 1e-3), "the last sample at the end");
    // The stock exporter writes the first sample at FIRSTFRAME × TICKSPERFRAME.
    let stock = load(&world_chain_file(STOCK, 5, 4, |k| (5 + k as i64) * 192));
    assert_eq!(reading(&stock, "time 0").choice, "the first sample, tick 960");
    assert!(reading(&stock, "time 0").basis.contains("× *SCENE_TICKSPERFRAME"), "{:?}", stock.readings);
    let track = stock.clips[0].track_for("Bip01").unwrap();
    assert_eq!(track.translation.times[0], 0.0);
}

#[test]
fn samples_that_disagree_with_the_scene_block_are_reported() {
    // First sample at tick 3 while FIRSTFRAME 5 means tick 5: time 0 is still the first sample, with a warning.
    let early = load(&world_chain_file(GOTHIC, 5, 4, |k| 3 + 192 * k as i64));
    let w = warnings(&early);
    assert!(w.iter().any(|w| w.contains("the first sample is at tick 3")), "{w:?}");
    assert_eq!(early.clips[0].track_for("Bip01").unwrap().rotation.times[0], 0.0);
    // Samples every second frame where the exporter writes every frame, running past LASTFRAME.
    let sparse = load(&world_chain_file(GOTHIC, 1, 4, |k| 1 + 384 * k as i64));
    let w = warnings(&sparse);
    assert!(w.iter().any(|w| w.contains("past *SCENE_LASTFRAME 4")), "{w:?}");
    assert!(w.iter().any(|w| w.contains("384 ticks apart, but *SCENE_TICKSPERFRAME is 192")), "{w:?}");
    let short = load(
        &world_chain_file(GOTHIC, 1, 4, |k| 1 + 192 * k as i64).replace("*SCENE_LASTFRAME 4", "*SCENE_LASTFRAME 9"),
    );
    let w = warnings(&short);
    assert!(w.iter().any(|w| w.contains("have 4–4 samples where the scene block's frames make 9")), "{w:?}");
}

#[test]
fn an_unnamed_exporter_is_detected_from_the_data_or_assumed_with_a_warning() {
    let anonymous = "*3DSMAX_ASCIIEXPORT\t110\n*COMMENT \"written by hand\"\n";
    // Version 110, no exporter named, world-looking samples: detected, no warning.
    let world = load(&world_chain_file(anonymous, 1, 6, |k| 1 + 192 * k as i64));
    assert_eq!(reading(&world, "exporter").choice, "unknown exporter");
    let samples = reading(&world, "animation samples");
    assert!(samples.choice.starts_with("world transforms") && samples.basis.starts_with("detected from the data"));
    assert!(!samples.assumed);
    assert!(warnings(&world).is_empty(), "{:?}", warnings(&world));
    // The frame number as the first tick is recognised too.
    assert!(reading(&world, "time 0").basis.contains("GothicSourcer's way"), "{:?}", world.readings);

    // No version at all, samples turning a little from the identity: nothing tells. Assumed, and said so.
    let mut s = "*COMMENT \"written by hand\"\n".to_owned() + &scene(0, 2, 30, 160);
    let tiny = |k: i64| (k * 160, Vec3::new(k as f32, 0.0, 0.0), Quat::from_rotation_z(0.01 * k as f32));
    s += &helper("Box", None, Mat4::IDENTITY, &[tiny(0), tiny(1), tiny(2)]);
    let unknown = load(&s);
    let samples = reading(&unknown, "animation samples");
    assert!(samples.assumed, "{samples:?}");
    assert!(samples.choice.starts_with("parent-relative"), "{samples:?}");
    let w = warnings(&unknown);
    assert!(
        w.iter().any(|w| w.contains("nothing says which exporter wrote this file")
            && w.contains("assumed to be parent-relative")),
        "{w:?}"
    );
    // The same file marked version 110: assumed world transforms, as assimp reads such files.
    let old = load(&format!("*3DSMAX_ASCIIEXPORT 110\n{s}"));
    let samples = reading(&old, "animation samples");
    assert!(samples.assumed && samples.choice.starts_with("world transforms"), "{samples:?}");
    assert!(warnings(&old).iter().any(|w| w.contains("assumed to be world transforms")), "{:?}", warnings(&old));
}

// ---------------------------------------------------------------------------------------------------------
// Morph-mesh files.

/// A quad (4 vertices, 2 faces) with its vertices as given.
fn quad_mesh(time: i64, v: &[Vec3; 4], uvs: bool) -> String {
    let mut s = format!(
        "\t*MESH {{\n\t\t*TIMEVALUE {time}\n\t\t*MESH_NUMVERTEX 4\n\t\t*MESH_NUMFACES 2\n\t\t*MESH_VERTEX_LIST {{\n"
    );
    for (i, p) in v.iter().enumerate() {
        s += &format!("\t\t\t*MESH_VERTEX {i}\t{:.5}\t{:.5}\t{:.5}\n", p.x, p.y, p.z);
    }
    s += "\t\t}\n\t\t*MESH_FACE_LIST {\n";
    s += "\t\t\t*MESH_FACE 0: A: 0 B: 1 C: 2 AB: 1 BC: 1 CA: 0 *MESH_SMOOTHING 1 *MESH_MTLID 0\n";
    s += "\t\t\t*MESH_FACE 1: A: 0 B: 2 C: 3 AB: 0 BC: 1 CA: 1 *MESH_SMOOTHING 1 *MESH_MTLID 0\n\t\t}\n";
    if uvs {
        // A seam: the texture splits vertex 0 and 2 between the faces.
        s += "\t\t*MESH_NUMTVERTEX 6\n\t\t*MESH_TVERTLIST {\n";
        for (i, (u, w)) in [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.5, 0.5), (0.9, 0.9), (0.0, 1.0)].iter().enumerate() {
            s += &format!("\t\t\t*MESH_TVERT {i}\t{u}\t{w}\t0\n");
        }
        s += "\t\t}\n\t\t*MESH_NUMTVFACES 2\n\t\t*MESH_TFACELIST {\n\t\t\t*MESH_TFACE 0\t0\t1\t2\n\t\t\t*MESH_TFACE 1\t3\t4\t5\n\t\t}\n";
    }
    s + "\t}\n"
}

fn quad_at(k: usize) -> [Vec3; 4] {
    let lift = k as f32;
    [Vec3::new(0.0, 0.0, 0.0), Vec3::new(10.0, 0.0, lift), Vec3::new(10.0, 10.0, 2.0 * lift), Vec3::new(0.0, 10.0, 0.0)]
}

/// A Gothic morph-mesh animation: `*MESH_ANIMATION` frames only (TIMEVALUE 0, 480, 960 … at 10 fps).
fn morph_file(frames: usize) -> String {
    let mut s = GOTHIC.to_owned() + &scene(0, frames as i64 - 1, 10, 480);
    s += "*GEOMOBJECT {\n\t*NODE_NAME \"zm_Morph\"\n\t*MESH_ANIMATION {\n";
    for k in 0..frames {
        s += &quad_mesh(480 * k as i64, &quad_at(k), false);
    }
    s + "\t}\n}\n"
}

fn base_file() -> String {
    let mut s = GOTHIC.to_owned() + &scene(0, 0, 10, 480);
    s += &format!("*GEOMOBJECT {{\n\t*NODE_NAME \"zm_Morph\"\n{}", node_tm("zm_Morph", Mat4::IDENTITY));
    s + &quad_mesh(0, &quad_at(0), true) + "}\n"
}

#[test]
fn a_file_of_vertex_frames_only_is_a_mesh_with_its_frames() {
    let a = load(&morph_file(3));
    assert_eq!((a.vertex_count(), a.triangle_count()), (4, 2), "the first frame is the mesh");
    let m = &a.meshes[0];
    assert_eq!(m.vertex_frames.len(), 3);
    let times: Vec<f32> = m.vertex_frames.iter().map(|f| f.time).collect();
    assert_eq!(times, vec![0.0, 0.1, 0.2]);
    // Frame 2's vertex 2 is lifted by 4.
    let v2 = m.positions.iter().position(|p| p.abs_diff_eq(Vec3::new(10.0, 10.0, 0.0), 1e-5)).unwrap();
    assert!(m.vertex_frames[2].positions[v2].abs_diff_eq(Vec3::new(10.0, 10.0, 4.0), 1e-5));
    assert_eq!(m.vertex_frames[2].normals.len(), m.vertex_count(), "normals follow the frame's shape");
    let clip = &a.clips[0];
    assert_eq!((clip.frame_count, clip.frame_rate), (3, 10.0));
    assert!((clip.duration - 0.2).abs() < 1e-6 && clip.tracks.is_empty());
    assert!(reading(&a, "content").choice.contains("3 frames of 4 vertices / 2 faces"), "{:?}", a.readings);
    assert!(warnings(&a).is_empty(), "{:?}", warnings(&a));
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-ase-dialects-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn vertex_frames_bind_to_the_base_mesh_corner_by_corner() {
    let dir = temp_dir("bind");
    let (base, morph, other) = (dir.join("HEAD.ASC"), dir.join("HEAD_EAT.ASC"), dir.join("HEAD_BLINK.ASC"));
    std::fs::write(&base, base_file()).unwrap();
    std::fs::write(&morph, morph_file(3)).unwrap();
    std::fs::write(&other, morph_file(2)).unwrap();
    let (asset, reports) =
        bonescope::source::load_files(&[base.clone(), morph.clone(), other.clone()], &LoadOptions::default())
            .into_result()
            .unwrap();
    let mesh = &asset.meshes[0];
    assert_eq!(mesh.vertex_count(), 6, "the seam splits two vertices of the base");
    assert_eq!(mesh.vertex_frames.len(), 3);
    let corners = [[0usize, 1, 2], [0, 2, 3]];
    for (k, frame) in mesh.vertex_frames.iter().enumerate() {
        for (f, face) in corners.iter().enumerate() {
            for (c, &v) in face.iter().enumerate() {
                let r = mesh.corner_vertices[f * 3 + c] as usize;
                assert!(frame.positions[r].abs_diff_eq(quad_at(k)[v], 1e-5), "frame {k}, face {f} corner {c}");
            }
        }
    }
    assert_eq!(reports[0].clips, vec!["test".to_owned()]);
    assert_eq!(asset.clips.len(), 1);
    // The frames play as morph targets of the base mesh: the bound clip's weights put every corner where the
    // animation file has it at each frame's time, and halfway between two frames halfway between them.
    assert_eq!(mesh.morph_targets.iter().filter(|t| t.vertex_frame.is_some()).count(), 3);
    assert!(asset.clips[0].morph_tracks.iter().all(|t| t.mesh.as_deref() == Some("zm_Morph")));
    let mut ctrl = Controller::for_asset(&asset);
    let track = ctrl.add_track(Some(0)).unwrap();
    ctrl.set_track_playback(track, Some(PlaybackType::ClampForever)).unwrap();
    let mut pose = Pose::default();
    let (mut p, mut n) = (Vec::new(), Vec::new());
    for (t, a, b, s) in [(0.0, 0, 0, 0.0), (0.1, 1, 1, 0.0), (0.15, 1, 2, 0.5), (0.2, 2, 2, 0.0)] {
        ctrl.set_position(track, t).unwrap();
        ctrl.evaluate_pose(&mut pose).unwrap();
        apply_morphs(mesh, &pose.morph_weights, &mut p, &mut n);
        for (f, face) in corners.iter().enumerate() {
            for (c, &v) in face.iter().enumerate() {
                let r = mesh.corner_vertices[f * 3 + c] as usize;
                let want = quad_at(a)[v].lerp(quad_at(b)[v], s);
                assert!(p[r].abs_diff_eq(want, 1e-5), "at {t} s, face {f} corner {c}: {} vs {want}", p[r]);
            }
        }
    }
    // A second vertex animation of the same mesh is not bound, and says so.
    assert!(reports[1].clips.is_empty());
    assert!(
        warnings(&asset).iter().any(|w| w.contains("HEAD_BLINK.ASC: mesh 'zm_Morph' already has vertex animation"))
    );

    // Another mesh: an error naming the file and what does not fit.
    let five = morph_file(2).replace("*MESH_NUMFACES 2", "*MESH_NUMFACES 3").replace(
        "*MESH_FACE 1: A: 0 B: 2 C: 3 AB: 0 BC: 1 CA: 1 *MESH_SMOOTHING 1 *MESH_MTLID 0\n",
        "*MESH_FACE 1: A: 0 B: 2 C: 3 AB: 0 BC: 1 CA: 1 *MESH_SMOOTHING 1 *MESH_MTLID 0\n\t\t\t*MESH_FACE 2: A: 1 B: 2 C: 3 AB: 0 BC: 1 CA: 1 *MESH_SMOOTHING 1 *MESH_MTLID 0\n",
    );
    let wrong = dir.join("OTHER_EAT.ASC");
    std::fs::write(&wrong, five).unwrap();
    let err = bonescope::source::load_files(&[base.clone(), wrong.clone()], &LoadOptions::default())
        .into_result()
        .unwrap_err();
    assert_eq!((err.kind, err.file.as_deref()), (LoadErrorKind::Mismatch, Some(wrong.as_path())), "{err}");
    assert!(err.message.contains("(none has as many triangles)"), "says why: {err}");
    // Same faces, vertices numbered the other way round.
    let renumbered =
        morph_file(2).replace("A: 0 B: 1 C: 2", "A: 3 B: 1 C: 2").replace("A: 0 B: 2 C: 3", "A: 3 B: 2 C: 0");
    std::fs::write(&wrong, renumbered).unwrap();
    let err = bonescope::source::load_files(&[base, wrong], &LoadOptions::default()).into_result().unwrap_err();
    assert_eq!(err.kind, LoadErrorKind::Mismatch, "{err}");
    assert!(err.message.contains("number their vertices differently"), "says why: {err}");
    let _ = std::fs::remove_dir_all(dir);
}

// ---------------------------------------------------------------------------------------------------------
// A wrong reading cannot pass quietly.

#[test]
fn a_clip_that_tears_the_mesh_is_an_error_naming_bones_and_frame() {
    // A bar skinned to the chain's root and spine; its animation flings the spine 200 units away at frame 3.
    let bind = chain_world(0);
    let mut s = GOTHIC.to_owned() + &scene(0, 5, 25, 192);
    for (n, name) in NAMES.iter().enumerate().take(2) {
        let samples: Vec<(i64, Vec3, Quat)> = (0..6)
            .map(|k| {
                let (_, r, t) = bind[n].to_scale_rotation_translation();
                let away = if n == 1 && k == 3 { Vec3::new(0.0, 200.0, 0.0) } else { Vec3::ZERO };
                (k * 192, t + away, r)
            })
            .collect();
        s += &helper(name, (n > 0).then(|| NAMES[n - 1]), bind[n], &samples);
    }
    let (root, spine) = (bind[0].w_axis.truncate(), bind[1].w_axis.truncate());
    let side = Vec3::new(0.0, 0.0, 1.0);
    let v = [root, spine, spine + side, root + side];
    s += &format!("*GEOMOBJECT {{\n\t*NODE_NAME \"Bar\"\n{}", node_tm("Bar", Mat4::IDENTITY));
    s += &quad_mesh(0, &v, false);
    s += "}\n*MESH_SOFTSKINVERTS {\nBar\n4\n1\t\"Bip01\"\t1\n1\t\"Bip01 Spine\"\t1\n1\t\"Bip01 Spine\"\t1\n1\t\"Bip01\"\t1\n}\n";
    let a = load(&s);
    let findings = diagnose(&a, &DiagnoseOptions::default());
    // The spine flung 200 units off (more than the whole character): the skin flies off.
    let tear = findings.iter().find(|f| f.kind == FindingKind::VertexFlies).unwrap();
    assert_eq!(tear.severity, Severity::Error, "{tear}");
    assert!(tear.value.unwrap() > 10.0);
    assert!(tear.message.contains("(frame 3)"), "{}", tear.message);
    assert!(
        tear.message.contains("moved by bones 'Bip01' and 'Bip01 Spine'")
            || tear.message.contains("moved by bones 'Bip01 Spine' and 'Bip01'"),
        "{}",
        tear.message
    );
}

#[test]
fn the_zengin_exporter_is_named_from_its_comment() {
    for version in ["1.06", "1.08"] {
        let header =
            format!("*3DSMAX_ASCIIEXPORT\t110\n*COMMENT \" [Zengine ASC Exporter v{version}] - Piranha Bytes\"\n");
        let a = load(&world_chain_file(&header, 0, 4, |k| 192 * k as i64));
        let exporter = reading(&a, "exporter");
        assert_eq!(exporter.choice, "ZenGin ASC Exporter", "{:?}", a.readings);
        assert!(exporter.basis.contains(&format!("v{version}")), "{exporter:?}");
        let samples = reading(&a, "animation samples");
        assert!(samples.choice.starts_with("world transforms") && !samples.assumed, "{samples:?}");
        assert_eq!(samples.basis, "the ZenGin ASC Exporter's convention");
        assert!(warnings(&a).is_empty(), "{:?}", warnings(&a));
        // The reading is the one the data gave before the exporter was named: the stated world transforms.
        let bone = a.skeleton.find("Bip01 Head").unwrap();
        assert!(to_root(&a, 3.0 / 25.0)[bone].abs_diff_eq(chain_world(4)[2], 1e-3));
    }
}
