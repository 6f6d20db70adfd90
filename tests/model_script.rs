//! Whole characters opened from their model scripts: the corpus's Half-Life QC and Gothic MDS/MMS, and small
//! scripts written here (includes, cycles, depth, missing files, case-insensitive lookup, comments, broken
//! braces), plus a generated tree of 50 QCs × 20 SMDs.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use bonescope::anim::controller::{Controller, PlaybackType};
use bonescope::anim::curve::sample_vec3;
use bonescope::anim::diagnostics::{DiagnoseOptions, Finding, FindingKind, Severity, diagnose};
use bonescope::anim::{Pose, apply_morphs};
use bonescope::io::{self, LoadErrorKind, LoadOptions, Position};
use bonescope::scene::{Asset, Format, SequenceKind};
use glam::Vec3;

fn load(path: &Path) -> Asset {
    io::load_path(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn load_err(path: &Path) -> io::LoadError {
    match io::load_path(path, &LoadOptions::default()) {
        Ok(_) => panic!("{} loaded but should not", path.display()),
        Err(e) => e,
    }
}

/// A fresh folder for one test.
fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-script-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn bonescope(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bonescope")).args(args).output().expect("run bonescope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// ---------------------------------------------------------------------------------------------------------
// Writing small SMD and ASC files.

/// A reference SMD: bones `root` and `head` (child), one triangle on `head`.
fn reference_smd(texture: &str) -> String {
    format!(
        "version 1\nnodes\n0 \"root\" -1\n1 \"head\" 0\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\n1 0 0 10 0 0 0\nend\n\
         triangles\n{texture}\n1 0 0 10 0 0 1 0 0\n1 1 0 10 0 0 1 1 0\n1 0 1 10 0 0 1 0 1\nend\n"
    )
}

/// An animation SMD whose `root` x is the frame number, frames `first..=last`.
fn animation_smd(first: i32, last: i32) -> String {
    let mut s = String::from("version 1\nnodes\n0 \"root\" -1\n1 \"head\" 0\nend\nskeleton\n");
    for f in first..=last {
        s += &format!("time {f}\n0 {f} 0 0 0 0 0\n1 0 0 10 0 0 0\n");
    }
    s + "end\n"
}

fn root_x(asset: &Asset, clip: &str, time: f32) -> f32 {
    let clip = asset.clip(clip).unwrap_or_else(|| panic!("no clip {clip}"));
    sample_vec3(&clip.track_for("root").unwrap().translation, time).unwrap().x
}

const ASC_HEADER: &str = "*3DSMAX_ASCIIEXPORT\t200\n*COMMENT \"written by the bonescope tests\"\n";

fn asc_scene(first: i32, last: i32, fps: i32, tpf: i32) -> String {
    format!(
        "*SCENE {{\n\t*SCENE_FILENAME \"t.max\"\n\t*SCENE_FIRSTFRAME {first}\n\t*SCENE_LASTFRAME {last}\n\t\
         *SCENE_FRAMESPEED {fps}\n\t*SCENE_TICKSPERFRAME {tpf}\n}}\n"
    )
}

fn node_tm(name: &str, at: Vec3) -> String {
    format!(
        "\t*NODE_TM {{\n\t\t*NODE_NAME \"{name}\"\n\t\t*TM_ROW0 1 0 0\n\t\t*TM_ROW1 0 1 0\n\t\t*TM_ROW2 0 0 1\n\t\t\
         *TM_ROW3 {} {} {}\n\t}}\n",
        at.x, at.y, at.z
    )
}

/// A `*MESH` block of a quad (two triangles) moved by `offset`, at `tick`.
fn quad_mesh(offset: Vec3, tick: i32) -> String {
    let v = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y].map(|p| p * 10.0 + offset);
    let mut s = format!(
        "\t*MESH {{\n\t\t*TIMEVALUE {tick}\n\t\t*MESH_NUMVERTEX 4\n\t\t*MESH_NUMFACES 2\n\t\t*MESH_VERTEX_LIST {{\n"
    );
    for (i, p) in v.iter().enumerate() {
        s += &format!("\t\t\t*MESH_VERTEX {i} {} {} {}\n", p.x, p.y, p.z);
    }
    s += "\t\t}\n\t\t*MESH_FACE_LIST {\n";
    s += "\t\t\t*MESH_FACE 0: A: 0 B: 1 C: 2 AB: 1 BC: 1 CA: 0 *MESH_SMOOTHING 1 *MESH_MTLID 0\n";
    s += "\t\t\t*MESH_FACE 1: A: 0 B: 2 C: 3 AB: 1 BC: 1 CA: 0 *MESH_SMOOTHING 1 *MESH_MTLID 0\n";
    s += "\t\t}\n\t}\n";
    s
}

/// A body ASC: bone `Bip01` (a helper) with the mesh object `Body` under it.
fn body_asc() -> String {
    format!(
        "{ASC_HEADER}{}*HELPEROBJECT {{\n\t*NODE_NAME \"Bip01\"\n{}}}\n*GEOMOBJECT {{\n\t*NODE_NAME \"Body\"\n\t\
         *NODE_PARENT \"Bip01\"\n{}{}}}\n",
        asc_scene(0, 0, 25, 192),
        node_tm("Bip01", Vec3::ZERO),
        node_tm("Body", Vec3::ZERO),
        quad_mesh(Vec3::ZERO, 0)
    )
}

/// An animation ASC of `Bip01` for frames `first..=last`: its x is the frame number (samples at every frame).
fn anim_asc(first: i32, last: i32) -> String {
    let mut samples = String::new();
    for f in first..=last {
        samples += &format!("\t\t\t*CONTROL_POS_SAMPLE {} {f} 0 0\n", f * 192);
    }
    format!(
        "{ASC_HEADER}{}*HELPEROBJECT {{\n\t*NODE_NAME \"Bip01\"\n{}\t*TM_ANIMATION {{\n\t\t*NODE_NAME \"Bip01\"\n\t\t\
         *CONTROL_POS_TRACK {{\n{samples}\t\t}}\n\t}}\n}}\n",
        asc_scene(first, last, 25, 192),
        node_tm("Bip01", Vec3::new(first as f32, 0.0, 0.0))
    )
}

/// A morph-mesh ASC: the quad and `frames` vertex frames (frame f moved by f along x), frames 0.. at 10 fps.
fn morph_asc(frames: i32) -> String {
    let mut anim = String::from("\t*MESH_ANIMATION {\n");
    for f in 0..frames {
        anim += &quad_mesh(Vec3::new(f as f32, 0.0, 0.0), f * 480);
    }
    anim += "\t}\n";
    format!(
        "{ASC_HEADER}{}*GEOMOBJECT {{\n\t*NODE_NAME \"zm_Morph\"\n{}{}{anim}}}\n",
        asc_scene(0, frames - 1, 10, 480),
        node_tm("zm_Morph", Vec3::ZERO),
        quad_mesh(Vec3::ZERO, 0)
    )
}

// ---------------------------------------------------------------------------------------------------------
// The corpus.

#[test]
fn headcrab_qc_opens_the_whole_character() {
    let Some(qc) = common::corpus_file("qc/halflife/models/headcrab/headcrab.qc") else { return };
    let a = load(&qc);
    assert_eq!(a.format, Some(Format::Qc));
    let script = a.model_script.as_deref().expect("a script description");
    // The file has 23 `$sequence` lines (its decompiler's header comment says 21) and 23 animation SMDs.
    assert_eq!(script.sequences.len(), 23);
    assert!(script.sequences.iter().all(|s| s.loaded), "every sequence loads");
    assert_eq!(a.clips.len(), 23);
    assert_eq!(script.hitboxes.len(), 13);
    assert_eq!(script.hitboxes[1].bone, "Bip01 Pelvis");
    assert_eq!(script.hitboxes[1].max, Vec3::new(1.43, 3.19, 6.24));
    assert_eq!(script.body_groups.len(), 1);
    assert_eq!(script.body_groups[0].choices[0].name, "reference");
    assert_eq!(script.body_groups[0].choices[0].meshes, [0]);
    assert_eq!(script.files.len(), 2, "the .qci one folder tree away was read");
    assert_eq!(script.bbox.unwrap().max, Vec3::new(12.0, 12.0, 24.0));
    assert_eq!(script.eye_position, Some(Vec3::new(0.0, 0.0, 20.0)));
    assert_eq!(script.name, "headcrab.mdl");
    assert!(script.ignored.is_empty(), "{:?}", script.ignored);
    // $cdtexture (set in the include, relative to the QC) finds every BMP.
    assert_eq!(a.materials.len(), 5);
    for m in &a.materials {
        let t = m.texture.as_ref().unwrap();
        assert!(t.path.as_ref().is_some_and(|p| p.is_file()), "texture {} not found", t.name);
    }
    assert!(a.warnings.is_empty(), "{:?}", a.warnings);

    // Named sequences: fps, loop flag, frames.
    let walk = a.clip("walk").unwrap();
    assert_eq!(walk.frame_rate, 30.0);
    assert!(walk.script.as_ref().unwrap().looping);
    let idle2 = a.clip("idle2").unwrap();
    assert_eq!(idle2.frame_rate, 20.0);
    assert!(!idle2.script.as_ref().unwrap().looping);
    assert_eq!(a.clip("crashidle").unwrap().frame_rate, 34.0);
    let walk_seq = script.sequence("walk").unwrap();
    assert_eq!(walk_seq.motion, ["LX"]);
    assert_eq!(walk_seq.activity.as_ref().map(|x| x.name.as_str()), Some("ACT_WALK"));

    // Events: jump ×3 (one each), headcrabbed#1 (3), headcrabbed#2 (2), crash (1), hstruggle (1).
    let events: usize = script.sequences.iter().map(|s| s.events.len()).sum();
    assert_eq!(events, 10);
    let keys: usize = a.clips.iter().map(|c| c.callback_keys.len()).sum();
    assert_eq!(keys, 10);
    // The multi-line event block of headcrabbed#1.
    let hc = script.sequence("headcrabbed#1").unwrap();
    let frames: Vec<(i32, &str, &str)> =
        hc.events.iter().map(|e| (e.frame, e.kind.as_str(), e.text.as_str())).collect();
    assert_eq!(frames, [(1, "1000", ""), (110, "1003", "splat"), (109, "1", "")]);
    let clip = a.clip("headcrabbed#1").unwrap();
    assert_eq!((clip.frame_rate, clip.frame_count), (20.0, 201));
    let splat = clip.callback_keys.iter().find(|k| k.data == "splat").unwrap();
    assert_eq!((splat.kind.as_str(), splat.frame), ("1003", Some(110)));
    assert!((splat.time - 5.5).abs() < 1e-5, "frame 110 at 20 fps");
    assert!(clip.callback_keys.windows(2).all(|w| w[0].time <= w[1].time), "keys sorted by time");
    let jump = a.clip("jump").unwrap();
    assert_eq!((jump.callback_keys[0].time, jump.callback_keys[0].kind.as_str()), (0.0, "2"));
}

#[test]
fn headcrab_events_fire_through_the_controller_and_poses_hold_together() {
    let Some(qc) = common::corpus_file("qc/halflife/models/headcrab/headcrab.qc") else { return };
    let a = load(&qc);
    let clip = a.clip("headcrabbed#1").unwrap().clone();
    let mut ctrl = Controller::new(Arc::new(a.skeleton.clone()));
    let set = ctrl.add_set(clip, PlaybackType::Once);
    ctrl.add_track(Some(set)).unwrap();
    let mut heard: Vec<(String, String, f64)> = Vec::new();
    for _ in 0..120 {
        ctrl.advance(0.05, |e| {
            heard.push((e.data.to_owned(), format!("{:.2}", e.key_time), e.time));
        });
    }
    let splat = heard.iter().find(|h| h.0 == "splat").expect("the splat event fires");
    assert_eq!(splat.1, "5.50");
    assert!((splat.2 - 5.5).abs() < 1e-3, "fired when playback crossed 5.5 s: {}", splat.2);
    assert_eq!(heard.len(), 3, "every event of the sequence fires once: {heard:?}");

    // Every clip animates bones of the reference skeleton, and no bone flies off in any sequence.
    for clip in &a.clips {
        for t in &clip.tracks {
            assert!(a.skeleton.find(&t.bone_name).is_some(), "{}: {} not in the skeleton", clip.name, t.bone_name);
        }
        for f in [0.0, 0.5, 1.0] {
            let pose = Pose::from_clip(&a.skeleton, clip, clip.duration * f);
            for m in &pose.to_root {
                assert!(m.w_axis.truncate().length() < 500.0, "{} at {f}: a bone is {}", clip.name, m.w_axis);
            }
        }
    }
}

#[test]
fn scripted_characters_pass_the_rig_checks_their_files_pass() {
    let (Some(qc), Some(mds)) = (
        common::corpus_file("qc/halflife/models/headcrab/headcrab.qc"),
        common::corpus_file("mds/gothic/Anims/BLOODFLY.MDS"),
    ) else {
        return;
    };
    let errors = |a: &Asset| -> Vec<Finding> {
        diagnose(a, &DiagnoseOptions::default()).into_iter().filter(|f| f.severity == Severity::Error).collect()
    };
    // The headcrab: bind pose, weights, bone mapping and every sequence's stretch without an error.
    let crab = load(&qc);
    assert!(errors(&crab).is_empty(), "{:#?}", errors(&crab));

    // The bloodfly: its errors are the stretch of its animation files as such. `s_FistRun` plays the whole
    // of Blo_Ambient_M01 at its own rate: the same figure as that file bound to the body directly.
    let fly = load(&mds);
    let fly_errors = errors(&fly);
    assert!(fly_errors.iter().all(|f| f.kind == FindingKind::ClipStretch), "{fly_errors:#?}");
    let anims = mds.parent().unwrap();
    let files = [anims.join("ASC_BODIES/MONSTER/BLO_BODY.ASC"), anims.join("ASC_ANIMS/BLOODFLY/BLO_AMBIENT_M01.ASC")];
    let (direct, _) = bonescope::source::load_files(&files, &LoadOptions::default()).into_result().unwrap();
    // A finding stands for every clip that shows its place; each clip's own measure is in its list.
    let stretch = |a: &Asset, clip: &str| -> f32 {
        diagnose(a, &DiagnoseOptions::default())
            .iter()
            .filter(|f| f.kind == FindingKind::ClipStretch)
            .flat_map(|f| &f.clips)
            .filter(|hit| a.clips.get(hit.clip).is_some_and(|c| c.name == clip))
            .filter_map(|hit| hit.value)
            .fold(0.0, f32::max)
    };
    let (scripted, file) = (stretch(&fly, "s_FistRun"), stretch(&direct, "BLO_AMBIENT_M01"));
    assert!((scripted - file).abs() <= 1e-3 * file.max(1.0), "{scripted} vs {file}");
}

#[test]
fn bloodfly_mds_opens_with_its_anis_aliases_and_events() {
    let Some(mds) = common::corpus_file("mds/gothic/Anims/BLOODFLY.MDS") else { return };
    let a = load(&mds);
    assert_eq!(a.format, Some(Format::Mds));
    let script = a.model_script.as_deref().unwrap();
    let anis = script.sequences.iter().filter(|s| s.kind == SequenceKind::Ani).count();
    let aliases = script.sequences.iter().filter(|s| matches!(s.kind, SequenceKind::Alias { .. })).count();
    assert_eq!((anis, aliases), (30, 9));
    assert_eq!(script.ani_blends.len(), 9);
    assert_eq!(a.clips.len(), 39, "every ani and alias loads");
    assert!(!a.meshes.is_empty() && !a.skeleton.is_empty());
    // The body mesh is the registerMesh choice; meshAndTree gave only the skeleton (DONT_USE_MESH).
    assert_eq!(script.body_groups.len(), 1);
    assert_eq!(script.body_groups[0].name, "registerMesh");
    assert_eq!(script.body_groups[0].choices[0].meshes.len(), a.meshes.len());

    // s_FistRun loops (next ani = itself), 60 frames at 25 fps, three sound events at frames 0, 20, 40.
    let run = a.clip("s_FistRun").unwrap();
    let info = run.script.as_ref().unwrap();
    assert!(info.looping);
    assert_eq!((run.frame_count, run.frame_rate), (60, 25.0));
    let times: Vec<f32> = run.callback_keys.iter().map(|k| k.time).collect();
    assert_eq!(times, [0.0, 0.8, 1.6]);
    assert!(run.callback_keys.iter().all(|k| k.kind == "eventSFX" && k.data == "BLO_WINGS"));
    // A transition: next ani and blend times.
    let t = a.clip("t_FistRun_2_FistRunL").unwrap();
    let ti = t.script.as_ref().unwrap();
    assert_eq!((ti.next.as_deref(), ti.blend_in, ti.blend_out, ti.looping), (Some("s_FistRunL"), 0.2, 0.1, false));
    assert_eq!((ti.first_frame, ti.last_frame, t.frame_count), (5, 10, 6));
    // FPS:15.
    assert_eq!(a.clip("t_Perception").unwrap().frame_rate, 15.0);

    // t_FistJumpB is s_FistRunL reversed: its first pose is s_FistRunL's last.
    let fwd = a.clip("s_FistRunL").unwrap();
    let back = a.clip("t_FistJumpB").unwrap();
    assert!(back.script.as_ref().unwrap().reversed);
    assert_eq!(back.frame_count, fwd.frame_count);
    let track = back.tracks.iter().find(|t| !t.translation.is_empty()).unwrap();
    let fwd_track = fwd.track_for(&track.bone_name).unwrap();
    let p_back = sample_vec3(&track.translation, 0.0).unwrap();
    let p_fwd = sample_vec3(&fwd_track.translation, fwd.duration).unwrap();
    assert!(p_back.abs_diff_eq(p_fwd, 1e-4), "{p_back} vs {p_fwd}");
    let p_back_end = sample_vec3(&track.translation, back.duration).unwrap();
    let p_fwd_start = sample_vec3(&fwd_track.translation, 0.0).unwrap();
    assert!(p_back_end.abs_diff_eq(p_fwd_start, 1e-4));
    // Its events run backwards too: s_FistRunL's sound at frame 10 (its first) is at the alias's end.
    assert_eq!(back.callback_keys.len(), 1);
    assert!((back.callback_keys[0].time - back.duration).abs() < 1e-5);
    // An alias of an ani defined later in the file.
    let fire = script.sequence("s_Fire_Victim").unwrap();
    assert!(fire.loaded);
    assert_eq!(a.clip("s_Fire_Victim").unwrap().frame_count, a.clip("s_Lightning_Victim").unwrap().frame_count);
    // The game's file leaves its Model block open: read, with a warning.
    assert!(a.warnings.iter().any(|w| w.message.contains("`Model` block")), "{:?}", a.warnings);
}

#[test]
fn fatbald_mms_lists_its_morph_anis() {
    let Some(mms) = common::corpus_file("mds/gothic/Anims/ASC_MORPHMESH/HEADS/HUM_HEAD_FATBALD/HUM_HEAD_FATBALD.MMS")
    else {
        return;
    };
    let a = load(&mms);
    assert_eq!(a.format, Some(Format::Mms));
    let script = a.model_script.as_deref().unwrap();
    assert_eq!(script.sequences.len(), 10);
    assert!(script.sequences.iter().all(|s| s.kind == SequenceKind::MorphAni));
    let fr = script.sequence("S_FRIGHTENED").unwrap();
    assert_eq!(
        (fr.fps, fr.first_frame, fr.last_frame, fr.looping, fr.hold),
        (10.0, Some(3), Some(4), true, Some(-1.0))
    );
    let blink = script.sequence("R_EYESBLINK").unwrap();
    assert_eq!((blink.layer, blink.blend_in, blink.looping), (Some(4), 0.04, false));
    // VISEME names a file the tree does not have: a warning on it; the rest loads.
    let viseme = script.sequence("VISEME").unwrap();
    assert!(!viseme.loaded && viseme.problem.as_deref().is_some_and(|p| p.contains("not found")));
    assert_eq!(a.clips.len(), 9);
    let eat = a.clip("T_EAT").unwrap();
    assert_eq!((eat.frame_count, eat.frame_rate), (6, 10.0));
    // The head mesh is the morphRef; S_NEUTRAL (frame 0 of that same file) is the head as it is.
    assert_eq!(a.meshes.len(), 1);
    let neutral = a.clip("S_NEUTRAL").unwrap().script.as_ref().unwrap().vertex_frames.as_ref().unwrap();
    assert_eq!(neutral.mesh, 0);
    assert_eq!(neutral.frames.len(), 1);
    assert_eq!(neutral.frames[0].positions, a.meshes[0].positions);
    // The EAT file's frames are the clip's: one per frame, carried over to the head's render vertices.
    let frames = eat.script.as_ref().unwrap().vertex_frames.as_ref().expect("T_EAT's frames");
    assert_eq!(frames.frames.len(), 6);
    assert!(frames.frames.iter().all(|f| f.positions.len() == a.meshes[0].vertex_count()));
}

/// Every `morphAni` of the FATBALD head plays: its frames are on the clip, carried over to the head mesh corner
/// by corner (the head has texture vertices, the animation files none), and played through the morph path they
/// put the head where the file's frame has it, at each frame's time.
#[test]
fn every_fatbald_morph_ani_plays_the_files_frames() {
    let Some(mms) = common::corpus_file("mds/gothic/Anims/ASC_MORPHMESH/HEADS/HUM_HEAD_FATBALD/HUM_HEAD_FATBALD.MMS")
    else {
        return;
    };
    let dir = mms.parent().unwrap().to_path_buf();
    let a = load(&mms);
    let not_played: Vec<String> =
        a.warnings.iter().map(|w| w.to_string()).filter(|w| w.contains("not played")).collect();
    assert!(not_played.is_empty(), "{not_played:?}");
    let head = &a.meshes[0];
    let (_, head_faces) = common::ase_mesh_lists(&dir.join("HUM_HEAD_FATBALD.ASC"));
    assert_eq!(head.corner_vertices.len(), head_faces.len() * 3);
    let (lo, hi) =
        head.positions.iter().fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    let size = (hi - lo).max_element();
    let script = a.model_script.as_deref().unwrap();
    let mut ctrl = Controller::for_asset(&a);
    let range = ctrl.morph_layout().mesh_range(0);
    let mut pose = Pose::default();
    let (mut positions, mut normals) = (Vec::new(), Vec::new());
    let mut played = 0;
    for seq in script.sequences.iter().filter(|s| s.name != "VISEME") {
        assert!(seq.loaded && seq.problem.is_none(), "{}: {:?}", seq.name, seq.problem);
        let clip = a.clip(&seq.name).unwrap_or_else(|| panic!("{} has a clip", seq.name));
        let (first, last) = (seq.first_frame.unwrap(), seq.last_frame.unwrap());
        let frames = clip.script.as_ref().unwrap().vertex_frames.as_ref().unwrap_or_else(|| panic!("{}", seq.name));
        assert_eq!(frames.frames.len() as i32, last - first + 1, "{}: one frame per file frame", seq.name);
        let (file_frames, faces) = common::ase_mesh_lists(&dir.join(&seq.files[0]));
        assert_eq!(faces, head_faces, "{}: the file describes the head's faces", seq.name);
        let set = ctrl.find_set(&seq.name).unwrap();
        let track = ctrl.add_track(Some(set)).unwrap();
        ctrl.set_track_playback(track, Some(PlaybackType::ClampForever)).unwrap();
        for (k, frame) in frames.frames.iter().enumerate() {
            ctrl.set_position(track, f64::from(frame.time)).unwrap();
            ctrl.evaluate_pose(&mut pose).unwrap();
            apply_morphs(head, &pose.morph_weights[range.clone()], &mut positions, &mut normals);
            let want = &file_frames[(first + k as i32) as usize];
            let mut worst = 0.0f32;
            for (f, face) in faces.iter().enumerate() {
                for (c, &v) in face.iter().enumerate() {
                    let r = head.corner_vertices[f * 3 + c] as usize;
                    worst = worst.max(positions[r].distance(want[v]));
                }
            }
            assert!(
                worst <= 1e-4 * size,
                "{} frame {k} at {} s: off by {worst} (head size {size})",
                seq.name,
                frame.time
            );
        }
        ctrl.remove_track(track).unwrap();
        played += 1;
    }
    assert_eq!(played, 9);
    // The animated frames moved the head (the check above is not one of the base against itself).
    assert!(head.morph_targets.len() >= 8, "{:?}", head.morph_targets.iter().map(|t| &t.name).collect::<Vec<_>>());
    // Targets are named after the script's animations: one frame is its animation's name, several are numbered.
    let names: Vec<&str> = head.morph_targets.iter().map(|t| t.name.as_str()).collect();
    assert!(names.contains(&"S_ANGRY") && names.contains(&"R_EYESBLINK"), "{names:?}");
    let eat = &head.morph_targets.iter().find(|t| t.name == "T_EAT frame 3").unwrap();
    assert!(eat.position_deltas.iter().map(|d| d.length()).fold(0.0, f32::max) > 0.01 * size);
}

/// The EMOTIONS file alone is a head with eight frames, its clip tweening through them; opened on the base
/// head, its frames play on the head's mesh.
#[test]
fn the_fatbald_emotions_file_plays_alone_and_on_the_head() {
    let (Some(emotions), Some(head)) = (
        common::corpus_file("mds/gothic/Anims/ASC_MORPHMESH/HEADS/HUM_HEAD_FATBALD/HUM_HEAD_FATBALD_EMOTIONS.ASC"),
        common::corpus_file("mds/gothic/Anims/ASC_MORPHMESH/HEADS/HUM_HEAD_FATBALD/HUM_HEAD_FATBALD.ASC"),
    ) else {
        return;
    };
    let (file_frames, faces) = common::ase_mesh_lists(&emotions);
    assert_eq!(file_frames.len(), 8);
    let check = |a: &Asset, what: &str| {
        let mesh = &a.meshes[0];
        assert_eq!(mesh.triangle_count(), faces.len(), "{what}");
        assert_eq!(mesh.vertex_frames.len(), 8, "{what}");
        let clip = a.clips.iter().position(|c| !c.morph_tracks.is_empty()).expect("a clip drives the frames");
        assert!((a.clips[clip].duration - 7.0).abs() < 1e-5, "{what}: eight frames at 1 fps");
        let size = file_frames[0].iter().fold(0f32, |s, p| s.max(p.abs().max_element()));
        let mut ctrl = Controller::for_asset(a);
        let track = ctrl.add_track(Some(clip)).unwrap();
        ctrl.set_track_playback(track, Some(PlaybackType::ClampForever)).unwrap();
        let mut pose = Pose::default();
        let (mut p, mut n) = (Vec::new(), Vec::new());
        for (k, want) in file_frames.iter().enumerate() {
            // At frame k, and halfway to the next one (the mean of the two).
            for (t, blend) in [(k as f32, 0.0), (k as f32 + 0.5, 0.5)] {
                if k == 7 && blend > 0.0 {
                    continue;
                }
                ctrl.set_position(track, f64::from(t)).unwrap();
                ctrl.evaluate_pose(&mut pose).unwrap();
                apply_morphs(mesh, &pose.morph_weights[ctrl.morph_layout().mesh_range(0)], &mut p, &mut n);
                for (f, face) in faces.iter().enumerate() {
                    for (c, &v) in face.iter().enumerate() {
                        let r = mesh.corner_vertices[f * 3 + c] as usize;
                        let expected = want[v].lerp(file_frames[(k + 1).min(7)][v], blend);
                        assert!(
                            p[r].distance(expected) <= 1e-4 * size,
                            "{what}: at {t} s face {f} corner {c}: {} vs {expected}",
                            p[r]
                        );
                    }
                }
            }
        }
    };
    let alone = load(&emotions);
    check(&alone, "alone");
    let (on_head, reports) =
        bonescope::source::load_files(&[head, emotions], &LoadOptions::default()).into_result().unwrap();
    assert_eq!(reports[0].clips, ["HUM_HEAD_FATBALD_EMOTIONS"]);
    assert!(on_head.meshes[0].vertex_count() > alone.meshes[0].vertex_count(), "the head's own render vertices");
    check(&on_head, "on the head");
}

#[test]
fn info_json_lists_the_script() {
    let Some(qc) = common::corpus_file("qc/halflife/models/headcrab/headcrab.qc") else { return };
    let (code, out, err) = bonescope(&["info", "--json", qc.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let s = &v[0]["script"];
    assert_eq!(s["language"], "Valve QC");
    assert_eq!(s["sequences"].as_array().unwrap().len(), 23);
    assert_eq!(s["hitboxes"].as_array().unwrap().len(), 13);
    assert_eq!(s["attachments"].as_array().unwrap().len(), 0);
    assert_eq!(s["body_groups"][0]["choices"][0]["name"], "reference");
    let hc = s["sequences"].as_array().unwrap().iter().find(|q| q["name"] == "headcrabbed#1").unwrap();
    assert_eq!(hc["fps"], 20.0);
    assert_eq!(hc["frame_count"], 201);
    assert_eq!(hc["looping"], false);
    assert_eq!(hc["files"][0], "headcrabbed#1");
    assert_eq!(hc["events"][1]["frame"], 110);
    assert_eq!(hc["events"][1]["text"], "splat");
    assert_eq!(v[0]["clips"][0]["loop"], true);
    assert!(s["ignored_commands"].as_array().unwrap().is_empty());
    let (code, text, _) = bonescope(&["info", qc.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(
        text.contains(
            "\"headcrabbed#1\": headcrabbed#1, 20 fps, frames 0–200, events 1000@1, 1003@110 \"splat\", 1@109"
        ),
        "{text}"
    );
    assert!(text.contains("hitboxes:  13"), "{text}");
    // `pose` with a sequence name.
    let (code, out, err) = bonescope(&["pose", qc.to_str().unwrap(), "--clip", "walk", "--time", "0.5", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Bip01 Pelvis"));
}

// ---------------------------------------------------------------------------------------------------------
// Scripts written here.

#[test]
fn includes_resolve_relative_to_their_file_and_errors_name_the_included_file() {
    let dir = temp_dir("includes");
    let model = dir.join("models/crab");
    write(&model.join("reference.smd"), &reference_smd("skin.bmp"));
    write(&model.join("walk.smd"), &animation_smd(0, 10));
    write(&model.join("run.smd"), &animation_smd(0, 5));
    write(&dir.join("textures/crab/skin.bmp"), "not really a bitmap");
    // crab.qc → ../shared/a/first.qci (extension-less) → ../b/second.qci (relative to first.qci).
    write(
        &model.join("crab.qc"),
        "$cd \"./\"\n$include \"../shared/a/first\"\n$body studio \"reference\"\n$sequence walk \"walk\" fps 10 loop\n",
    );
    write(&dir.join("models/shared/a/first.qci"), "$cdtexture \"../../textures/crab\"\n$include \"../b/second.qci\"\n");
    write(&dir.join("models/shared/b/second.qci"), "// more\n$sequence run \"run\" fps 5\n");
    let a = load(&model.join("crab.qc"));
    let s = a.model_script.as_deref().unwrap();
    assert_eq!(s.files.len(), 3);
    assert_eq!(s.sequences.iter().map(|q| q.name.as_str()).collect::<Vec<_>>(), ["run", "walk"]);
    assert_eq!(s.sequences[0].file, 2, "run is defined in second.qci");
    assert!(a.materials[0].texture.as_ref().unwrap().path.is_some(), "found through $cdtexture");
    assert_eq!(a.clip("run").unwrap().frame_rate, 5.0);

    // A broken line in an included file: the error names that file and its line.
    write(&dir.join("models/shared/b/second.qci"), "// more\n\n$sequence run \"run\" fps 5 {\n");
    let e = load_err(&model.join("crab.qc"));
    assert!(e.file.as_ref().is_some_and(|f| f.ends_with("second.qci")), "{e}");
    assert_eq!(e.position, Position::Line(3), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn include_cycles_depth_and_missing_includes_are_errors_with_lines() {
    let dir = temp_dir("cycles");
    write(&dir.join("a.qc"), "$modelname x\n$include \"b.qci\"\n");
    write(&dir.join("b.qci"), "\n\n$include \"a.qc\"\n");
    let e = load_err(&dir.join("a.qc"));
    assert_eq!((e.kind, e.position), (LoadErrorKind::Malformed, Position::Line(3)), "{e}");
    assert!(e.message.contains("cycle"), "{e}");
    assert!(e.file.as_ref().is_some_and(|f| f.ends_with("b.qci")), "{e}");

    // A chain of ten includes.
    for i in 0..10 {
        write(&dir.join(format!("chain{i}.qci")), &format!("$include \"chain{}.qci\"\n", i + 1));
    }
    write(&dir.join("chain10.qci"), "$scale 1\n");
    write(&dir.join("deep.qc"), "$include \"chain0\"\n");
    let e = load_err(&dir.join("deep.qc"));
    assert_eq!(e.kind, LoadErrorKind::Unsupported, "{e}");

    write(&dir.join("missing.qc"), "$cd .\n\n$include \"nowhere.qci\"\n");
    let e = load_err(&dir.join("missing.qc"));
    assert_eq!((e.kind, e.position), (LoadErrorKind::Io(std::io::ErrorKind::NotFound), Position::Line(3)));
    assert!(e.to_string().contains("missing.qc: line 3: `$include \"nowhere.qci\"`: file not found"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_files_are_errors_on_their_lines_and_the_rest_loads() {
    let dir = temp_dir("missing");
    write(&dir.join("walk.smd"), &animation_smd(0, 4));
    // A missing reference: the character opens with the animation's skeleton, the reference is an error.
    write(&dir.join("m.qc"), "$sequence walk walk\n$body studio \"nothere\"\n");
    let a = load(&dir.join("m.qc"));
    assert_eq!(a.clips.len(), 1);
    assert_eq!(a.skeleton.names, ["root", "head"]);
    let errors: Vec<String> = a.warnings.iter().filter(|w| w.is_error()).map(ToString::to_string).collect();
    assert_eq!(errors.len(), 1, "{:?}", a.warnings);
    assert!(
        errors[0].starts_with("error: line 2: reference mesh \"nothere\" of body group \"studio\" not found"),
        "{errors:?}"
    );
    // Nothing there at all: an error naming the first line.
    write(&dir.join("m.qc"), "$body studio \"nothere\"\n$sequence gone gone\n");
    let e = load_err(&dir.join("m.qc"));
    assert_eq!((e.kind, e.position), (LoadErrorKind::Io(std::io::ErrorKind::NotFound), Position::Line(1)), "{e}");
    assert!(e.message.contains("reference mesh \"nothere\""), "{e}");

    write(&dir.join("reference.smd"), &reference_smd("skin.bmp"));
    write(&dir.join("broken.smd"), "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 1 2\nend\n");
    write(
        &dir.join("m.qc"),
        "$body studio reference\n$sequence walk walk\n$sequence gone \"gone\"\n$sequence bad broken\n",
    );
    let a = load(&dir.join("m.qc"));
    let s = a.model_script.as_deref().unwrap();
    assert_eq!(a.clips.len(), 1, "walk loads; the others are warnings");
    assert!(s.sequence("gone").unwrap().problem.as_deref().unwrap().contains("not found"));
    assert!(s.sequence("bad").unwrap().problem.as_deref().unwrap().contains("did not load"));
    assert!(
        a.warnings.iter().any(|w| w.position == "line 3" && w.message.contains("\"gone\"") && w.is_error()),
        "a missing animation is an error: {:?}",
        a.warnings
    );
    assert!(
        a.warnings.iter().any(|w| w.position == "line 4" && !w.is_error()),
        "a broken one a warning: {:?}",
        a.warnings
    );
    // `info` describes the rest and exits non-zero: the model is incomplete.
    let (code, out, err) = bonescope(&["info", dir.join("m.qc").to_str().unwrap()]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("clips:     1"), "{out}");
    assert!(out.contains("(1 error: the model is incomplete)"), "{out}");
    assert!(out.contains("error: line 3: sequence \"gone\": animation \"gone\" not found"), "{out}");
    let (code, out, _) = bonescope(&["info", "--json", dir.join("m.qc").to_str().unwrap()]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["incomplete"], true);

    // A broken reference names the script line and the SMD's own problem.
    write(&dir.join("m.qc"), "\n$body studio broken\n");
    let e = load_err(&dir.join("m.qc"));
    assert_eq!((e.kind, e.position), (LoadErrorKind::Malformed, Position::Line(2)), "the SMD's own kind: {e}");
    assert!(e.message.contains("broken.smd"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn file_names_match_case_insensitively_and_comments_are_everywhere() {
    let dir = temp_dir("case");
    write(&dir.join("Anims/Reference.SMD"), &reference_smd("skin.bmp"));
    write(&dir.join("Anims/WALK.smd"), &animation_smd(3, 12));
    write(&dir.join("Anims/SKIN.BMP"), "a texture");
    let qc = "/* a block\n   comment */ $cd \"anims\" // trailing\n\
              ; a semicolon comment\n# a hash comment\n\
              $body /* inline */ studio \"reference\"\n\
              $sequence \"walk\" \"walk\" fps 10 frame 5 9 /* options */ loop { event 1004 7 \"step\" } // done\n\
              $gamma 2.2 ; ignored\n";
    write(&dir.join("m.qc"), qc);
    let a = load(&dir.join("m.qc"));
    let s = a.model_script.as_deref().unwrap();
    assert_eq!(s.ignored_names(), ["$gamma"]);
    assert_eq!(s.ignored[0].args, ["2.2"]);
    let walk = a.clip("WALK").unwrap();
    assert_eq!((walk.frame_count, walk.frame_rate), (5, 10.0));
    // frame 5 9 of a file numbered from 3: root x goes 5..9.
    assert!((root_x(&a, "walk", 0.0) - 5.0).abs() < 1e-4);
    assert!((root_x(&a, "walk", 0.4) - 9.0).abs() < 1e-4);
    let key = &walk.callback_keys[0];
    assert_eq!((key.kind.as_str(), key.data.as_str(), key.frame), ("1004", "step", Some(7)));
    assert!((key.time - 0.2).abs() < 1e-5, "frame 7 is 2 frames after frame 5");
    assert!(a.warnings.is_empty(), "{:?}", a.warnings);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn scripts_are_recognised_by_extension_in_any_case_and_by_content() {
    let detect = |bytes: &[u8], name: &str| io::detect_format(bytes, Some(Path::new(name)));
    assert_eq!(detect(b"anything", "model.QC"), Some(Format::Qc));
    assert_eq!(detect(b"anything", "BLOODFLY.Mds"), Some(Format::Mds));
    assert_eq!(detect(b"anything", "head.mms"), Some(Format::Mms));
    assert_eq!(detect(b"// a model\n$modelname \"x.mdl\"\n", "model.txt"), Some(Format::Qc));
    assert_eq!(detect(b"Model (\"Fly\")\n{\n}\n", "fly.txt"), Some(Format::Mds));
    assert_eq!(detect(b"hello", "notes.txt"), None);
}

#[test]
fn unbalanced_braces_are_an_error_with_the_line() {
    let dir = temp_dir("braces");
    write(&dir.join("reference.smd"), &reference_smd("skin.bmp"));
    write(&dir.join("a.smd"), &animation_smd(0, 3));
    write(&dir.join("open.qc"), "$body studio reference\n$sequence a a {\n { event 1 2 }\n$sequence b a\n");
    let e = load_err(&dir.join("open.qc"));
    assert_eq!(e.position, Position::Line(2), "{e}");
    assert!(e.to_string().contains("open.qc: line 2: the `{` of `$sequence \"a\"`"), "{e}");
    write(&dir.join("close.qc"), "$body studio reference\n$sequence a a\n}\n");
    let e = load_err(&dir.join("close.qc"));
    assert_eq!(e.position, Position::Line(3), "{e}");
    write(&dir.join("group.qc"), "$bodygroup heads\n{\n studio reference\n");
    let e = load_err(&dir.join("group.qc"));
    assert_eq!(e.position, Position::Line(2), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn body_groups_list_every_choice() {
    let dir = temp_dir("bodygroups");
    write(&dir.join("body.smd"), &reference_smd("skin.bmp"));
    // The second head has a bone the body lacks.
    write(
        &dir.join("head2.smd"),
        &reference_smd("hat.bmp")
            .replace("1 \"head\" 0\nend", "1 \"head\" 0\n2 \"hat\" 1\nend")
            .replace("1 0 0 10 0 0 0\nend\ntriangles", "1 0 0 10 0 0 0\n2 0 0 5 0 0 0\nend\ntriangles"),
    );
    write(&dir.join("m.qc"), "$body body \"body\"\n$bodygroup heads\n{\nstudio \"body\"\nblank\nstudio \"head2\"\n}\n");
    let a = load(&dir.join("m.qc"));
    let s = a.model_script.as_deref().unwrap();
    assert_eq!(s.body_groups.len(), 2);
    let heads = &s.body_groups[1];
    assert_eq!(heads.choices.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["body", "blank", "head2"]);
    assert!(heads.choices[1].meshes.is_empty());
    assert_eq!(heads.choices[2].meshes, [2]);
    assert_eq!(a.meshes.len(), 3, "every choice's mesh is loaded, to switch between");
    assert_eq!(a.skeleton.names, ["root", "head", "hat"]);
    assert_eq!(a.materials.len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mds_files_are_found_by_name_in_the_asc_folders() {
    let dir = temp_dir("mds");
    let anims = dir.join("_work/Data/Anims");
    write(&anims.join("ASC_BODIES/MONSTER/FLY_BODY.ASC"), &body_asc());
    write(&anims.join("ASC_ANIMS/FLY/FLY_MOVE_M01.ASC"), &anim_asc(11, 20));
    let mds = "// the fly\nModel (\"Fly\")\n{\n\tmeshAndTree (\"Fly_Body.asc\" DONT_USE_MESH)\n\
               \tregisterMesh (\"fly_body.ASC\")\n\taniEnum\n\t{\n\
               \t\tani (\"s_Move\" 1 \"s_Move\" 0.0 0.1 M. \"Fly_Move_M01.asc\" F 13 17)\n\t\t{\n\
               \t\t\t*eventSFX (13 \"BUZZ\")\n\t\t\t*eventSFX (15 \"BUZZ\" EMPTY_SLOT)\n\t\t}\n\
               \t\taniAlias (\"t_Back\" 1 \"\" 0.1 0.1 M. \"s_Move\" R)\n\
               \t\tani (\"t_Slow\" 2 \"\" 0.1 0.1 M. \"FLY_MOVE_M01.ASC\" F 11 20 FPS:10)\n\
               \t\tani (\"t_Gone\" 1 \"\" 0.1 0.1 M. \"Fly_Gone.asc\" F 0 5)\n\
               \t\taniBlend (\"t_A_2_B\" \"s_Move\" 0.2 0.2)\n\t}\n}\n";
    write(&anims.join("FLY.MDS"), mds);
    let a = load(&anims.join("FLY.MDS"));
    let s = a.model_script.as_deref().unwrap();
    assert_eq!(a.meshes.len(), 1);
    assert_eq!(a.skeleton.names, ["Bip01", "Body"]);
    // s_Move: frames 13..17 of a file numbered 11..20, at 25 fps; Bip01's x is the frame number.
    let source = io::load_path(&anims.join("ASC_ANIMS/FLY/FLY_MOVE_M01.ASC"), &LoadOptions::default()).unwrap();
    let src_x = |frame: i32| {
        sample_vec3(&source.clips[0].track_for("Bip01").unwrap().translation, (frame - 11) as f32 / 25.0).unwrap().x
    };
    let x =
        |clip: &str, t: f32| sample_vec3(&a.clip(clip).unwrap().track_for("Bip01").unwrap().translation, t).unwrap().x;
    let mv = a.clip("s_Move").unwrap();
    assert_eq!((mv.frame_count, mv.frame_rate), (5, 25.0));
    assert!((x("s_Move", 0.0) - src_x(13)).abs() < 1e-4);
    assert!((x("s_Move", 4.0 / 25.0) - src_x(17)).abs() < 1e-4);
    assert!(src_x(17) != src_x(13), "the test's file moves");
    assert!(mv.script.as_ref().unwrap().looping);
    let keys: Vec<(f32, &str)> = mv.callback_keys.iter().map(|k| (k.time, k.data.as_str())).collect();
    // The callback carries the event's options too (the callback log shows `BUZZ EMPTY_SLOT`).
    assert_eq!(keys, [(0.0, "BUZZ"), (0.08, "BUZZ EMPTY_SLOT")]);
    assert_eq!(s.sequence("s_Move").unwrap().events[1].args, ["BUZZ", "EMPTY_SLOT"]);
    // t_Back: the same frames backwards.
    assert!((x("t_Back", 0.0) - src_x(17)).abs() < 1e-4);
    assert!((x("t_Back", 4.0 / 25.0) - src_x(13)).abs() < 1e-4);
    assert_eq!(a.clip("t_Back").unwrap().callback_keys.len(), 2);
    // FPS:10: ten frames over 0.9 s.
    let slow = a.clip("t_Slow").unwrap();
    assert_eq!((slow.frame_count, slow.frame_rate), (10, 10.0));
    assert!((slow.duration - 0.9).abs() < 1e-5);
    assert!((x("t_Slow", 0.5) - src_x(16)).abs() < 1e-4);
    // A missing file is a warning on its ani.
    assert!(!s.sequence("t_Gone").unwrap().loaded);
    assert!(a.warnings.iter().any(|w| w.message.contains("t_Gone")), "{:?}", a.warnings);
    assert_eq!(s.ani_blends[0].next, "s_Move");
    assert_eq!(a.clips.len(), 3);
    // A broken events block names its line.
    write(&anims.join("BROKEN.MDS"), &mds.replace("\t\t}\n\t\taniAlias", "\t\taniAlias"));
    let e = load_err(&anims.join("BROKEN.MDS"));
    assert_eq!(e.position, Position::Line(9), "{e}");
    // A missing body mesh is an error at its line; the skeleton and the animations load.
    write(&anims.join("NOBODY.MDS"), &mds.replace("registerMesh (\"fly_body.ASC\")", "registerMesh (\"none.asc\")"));
    let a = load(&anims.join("NOBODY.MDS"));
    let errors: Vec<String> = a.warnings.iter().filter(|w| w.is_error()).map(ToString::to_string).collect();
    assert_eq!(errors.len(), 2, "the body and t_Gone: {errors:?}");
    assert!(errors[0].starts_with("error: line 5: registerMesh \"none.asc\" not found"), "{errors:?}");
    assert!(errors[1].starts_with("error: line 15: ani \"t_Gone\""), "{errors:?}");
    assert_eq!((a.meshes.len(), a.skeleton.names.len(), a.clips.len()), (0, 2, 3));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mms_morph_anis_carry_the_heads_vertex_frames() {
    let dir = temp_dir("mms");
    let head = dir.join("Anims/ASC_MORPHMESH/HEADS/HEAD");
    write(&head.join("HEAD.ASC"), &morph_asc(1));
    write(&head.join("HEAD_ANI.ASC"), &morph_asc(5));
    write(
        &head.join("HEAD.MMS"),
        "morphMesh (\"Head\")\n{\n\tmorphRef (\"head.asc\")\n\
         \tmorphAni (\"T_TEST\" 1 0.1 -1 0.1 . \"HEAD_ANI.ASC\" 1 3 SPD:20)\n\
         \tmorphAni (\"S_LOOP\" 1 0.1 -1 0.1 L \"HEAD_ANI.ASC\" 0 4 SPD:10)\n}\n",
    );
    let a = load(&head.join("HEAD.MMS"));
    assert_eq!(a.meshes.len(), 1);
    let t = a.clip("T_TEST").unwrap();
    assert_eq!((t.frame_count, t.frame_rate), (3, 20.0));
    let frames = t.script.as_ref().unwrap().vertex_frames.as_ref().expect("vertex frames");
    assert_eq!(frames.frames.len(), 3);
    let times: Vec<f32> = frames.frames.iter().map(|f| f.time).collect();
    assert_eq!(times, [0.0, 0.05, 0.1]);
    // Frame f of the file is the quad moved f along x.
    for (k, f) in frames.frames.iter().enumerate() {
        for (p, base) in f.positions.iter().zip(&a.meshes[0].positions) {
            assert!((*p - *base).abs_diff_eq(Vec3::new(k as f32 + 1.0, 0.0, 0.0), 1e-4), "{p} vs {base}");
        }
    }
    assert!(a.clip("S_LOOP").unwrap().script.as_ref().unwrap().looping);
    assert!(a.warnings.is_empty(), "{:?}", a.warnings);
    let _ = std::fs::remove_dir_all(&dir);
}

/// 50 QCs × 20 SMDs (one reference, 19 animations of 30 frames over 20 bones), with a shared include:
/// every character loads whole and right.
#[test]
fn a_generated_tree_of_fifty_characters_loads_correctly() {
    let dir = temp_dir("tree");
    let bones = 20;
    let mut nodes = String::from("version 1\nnodes\n");
    for b in 0..bones {
        nodes += &format!("{b} \"bone{b}\" {}\n", b as i32 - 1);
    }
    nodes += "end\n";
    let mut reference = nodes.clone() + "skeleton\ntime 0\n";
    for b in 0..bones {
        reference += &format!("{b} 0 0 {} 0 0 0\n", if b == 0 { 0 } else { 2 });
    }
    reference += "end\ntriangles\n";
    for b in 0..bones {
        let z = 2 * b;
        reference += &format!("skin.bmp\n{b} 0 0 {z} 0 0 1 0 0\n{b} 1 0 {z} 0 0 1 1 0\n{b} 0 1 {z} 0 0 1 0 1\n");
    }
    reference += "end\n";
    write(&dir.join("shared/common.qci"), "$scale 1.0\n$hbox 0 \"bone0\" -1 -1 -1 1 1 1\n");
    for m in 0..50 {
        let model = dir.join(format!("models/m{m:02}"));
        write(&model.join("reference.smd"), &reference);
        let mut qc = format!(
            "$modelname \"m{m:02}.mdl\"\n$cd \"./\"\n$include \"../../shared/common.qci\"\n$body studio \"reference\"\n"
        );
        for s in 0..19 {
            let mut anim = nodes.clone() + "skeleton\n";
            for f in 0..30 {
                anim += &format!("time {f}\n");
                for b in 0..bones {
                    let x = if b == 0 { (m * 100 + s * 10) as f32 + f as f32 * 0.1 } else { 0.0 };
                    anim += &format!("{b} {x} 0 {} 0 0 {:.3}\n", if b == 0 { 0 } else { 2 }, f as f32 * 0.01);
                }
            }
            anim += "end\n";
            write(&model.join(format!("anim{s:02}.smd")), &anim);
            qc += &format!(
                "$sequence \"seq{s:02}\" \"anim{s:02}\" fps {} {}\n",
                10 + s,
                if s % 2 == 0 { "loop" } else { "" }
            );
        }
        write(&model.join(format!("m{m:02}.qc")), &qc);
    }
    for m in 0..50 {
        let a = load(&dir.join(format!("models/m{m:02}/m{m:02}.qc")));
        let s = a.model_script.as_deref().unwrap();
        assert_eq!(a.clips.len(), 19, "model {m}");
        assert_eq!(s.hitboxes.len(), 1);
        assert_eq!(a.skeleton.len(), bones);
        assert_eq!(a.triangle_count(), bones);
        for q in 0..19 {
            let clip = &a.clips[q];
            assert_eq!(clip.name, format!("seq{q:02}"));
            assert_eq!(clip.frame_rate, (10 + q) as f32);
            assert_eq!(clip.frame_count, 30);
            assert_eq!(clip.script.as_ref().unwrap().looping, q % 2 == 0);
            let x0 = sample_vec3(&clip.track_for("bone0").unwrap().translation, 0.0).unwrap().x;
            assert!((x0 - (m * 100 + q * 10) as f32).abs() < 1e-3, "model {m} sequence {q}: {x0}");
        }
        assert!(a.warnings.iter().all(|w| w.message.contains("texture")), "{:?}", a.warnings);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------------------
// Robustness: any jumble of the languages' own words gives a result or an error, never a panic.

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    #[test]
    fn script_soup_never_panics(words in proptest::collection::vec(0usize..40, 0..80), lang in 0usize..3) {
        const VOCAB: [&str; 40] = [
            "$sequence", "$body", "$bodygroup", "$include", "$hbox", "$attachment", "$cd", "$bbox", "{", "}", "\n",
            "\"a\"", "event", "fps", "loop", "frame", "-3", "2147483647", "blend", "ACT_X", "/*", "*/", "//", ";",
            "Model", "(\"m\")", "aniEnum", "ani", "aniAlias", "*eventSFX", "(", ")", "FPS:", "M.", "F", "R",
            "morphMesh", "morphAni", "1.5", "\"",
        ];
        let text: String = words.iter().map(|w| VOCAB[*w]).collect::<Vec<_>>().join(" ");
        let format = [Format::Qc, Format::Mds, Format::Mms][lang];
        let opts = LoadOptions { base_dir: Some(std::env::temp_dir().join("bonescope-no-such-dir")), ..LoadOptions::default() };
        let _ = io::load_format(format, text.as_bytes(), &opts);
    }
}

#[test]
fn an_alias_with_its_own_events_fires_them_at_its_frames() {
    let dir = temp_dir("mds-alias-events");
    let anims = dir.join("_work/Data/Anims");
    write(&anims.join("ASC_BODIES/MONSTER/FLY_BODY.ASC"), &body_asc());
    write(&anims.join("ASC_ANIMS/FLY/FLY_MOVE_M01.ASC"), &anim_asc(11, 20));
    let mds = "Model (\"Fly\")\n{\n\tmeshAndTree (\"Fly_Body.asc\")\n\taniEnum\n\t{\n\
               \t\tani (\"s_Move\" 1 \"s_Move\" 0.0 0.1 M. \"Fly_Move_M01.asc\" F 13 17)\n\
               \t\taniAlias (\"t_Back\" 1 \"\" 0.1 0.1 M. \"s_Move\" R)\n\t\t{\n\
               \t\t\t*eventSFX (14 \"WHOOSH\")\n\t\t}\n\t}\n}\n";
    write(&anims.join("FLY.MDS"), mds);
    let a = load(&anims.join("FLY.MDS"));
    // s_Move has no events; its reversed alias has its own: frame 14 is one frame after the first of 13..17,
    // so three frames from the start when played backwards (4 frames long at 25 fps).
    assert!(a.clip("s_Move").unwrap().callback_keys.is_empty());
    let keys: Vec<(f32, Option<i32>, &str, &str)> = a
        .clip("t_Back")
        .unwrap()
        .callback_keys
        .iter()
        .map(|k| (k.time, k.frame, k.kind.as_str(), k.data.as_str()))
        .collect();
    assert_eq!(keys.len(), 1);
    assert!((keys[0].0 - 3.0 / 25.0).abs() < 1e-6, "{keys:?}");
    assert_eq!((keys[0].1, keys[0].2, keys[0].3), (Some(14), "eventSFX", "WHOOSH"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn scale_and_origin_place_meshes_and_sequences_as_studiomdl_does() {
    let dir = temp_dir("placement");
    write(&dir.join("reference.smd"), &reference_smd("skin.bmp"));
    write(&dir.join("walk.smd"), &animation_smd(0, 4));
    write(
        &dir.join("m.qc"),
        "$origin 0 0 5\n$scale 2\n$body studio reference\n$sequence walk walk\n$sequence big walk scale 3\n\
         $sequence turned walk rotate 90 origin 1 0 0\n$scale 1\n$origin 0 0 0\n$sequence plain walk\n",
    );
    let a = load(&dir.join("m.qc"));
    // The reference triangle (0,0,10), (1,0,10), (0,1,10) is moved by −origin and scaled: (v − (0,0,5)) · 2.
    let positions = &a.meshes[0].positions;
    for want in [Vec3::new(0.0, 0.0, 10.0), Vec3::new(2.0, 0.0, 10.0), Vec3::new(0.0, 2.0, 10.0)] {
        assert!(positions.iter().any(|p| p.abs_diff_eq(want, 1e-5)), "{want} not in {positions:?}");
    }
    // The bind pose still reproduces the vertices: offset × to-root is the identity.
    let to_root = a.skeleton.bind_to_root();
    for (w, inv) in to_root.iter().zip(&a.skeleton.inverse_bind) {
        assert!((*inv * *w).abs_diff_eq(glam::Mat4::IDENTITY, 1e-5));
    }
    assert!(a.skeleton.bind_local[1].translation.abs_diff_eq(Vec3::new(0.0, 0.0, 20.0), 1e-5), "head bone × 2");
    // Each sequence is placed by what was in effect where it was written, or by its own options.
    let root = |clip: &str, frame: f32| {
        let c = a.clip(clip).unwrap();
        sample_vec3(&c.track_for("root").unwrap().translation, frame / c.frame_rate).unwrap()
    };
    assert!(root("walk", 3.0).abs_diff_eq(Vec3::new(6.0, 0.0, -10.0), 1e-4), "{}", root("walk", 3.0));
    assert!(root("walk", 0.0).abs_diff_eq(a.skeleton.bind_local[0].translation, 1e-5), "frame 0 is the bind pose");
    assert!(root("big", 3.0).abs_diff_eq(Vec3::new(9.0, 0.0, -15.0), 1e-4), "{}", root("big", 3.0));
    // rotate 90, origin (1,0,0), $scale 2: (3 − 1, 0, 0) turned to (0, 2, 0), × 2.
    assert!(root("turned", 3.0).abs_diff_eq(Vec3::new(0.0, 4.0, 0.0), 1e-4), "{}", root("turned", 3.0));
    assert!(root("plain", 3.0).abs_diff_eq(Vec3::new(3.0, 0.0, 0.0), 1e-4), "{}", root("plain", 3.0));
    let head = a.clip("big").unwrap().track_for("head").unwrap();
    assert!(sample_vec3(&head.translation, 0.0).unwrap().abs_diff_eq(Vec3::new(0.0, 0.0, 30.0), 1e-5));
    let script = a.model_script.as_deref().unwrap();
    assert_eq!(script.sequence("plain").unwrap().placement, None);
    assert_eq!(script.sequence("big").unwrap().placement.unwrap().scale, 3.0);

    // `info` says how each item was placed.
    let (code, out, err) = bonescope(&["info", dir.join("m.qc").to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("reference (1 mesh) [placed: origin (0, 0, 5), scale 2]"), "{out}");
    assert!(out.contains("placed: origin (1, 0, 0), scale 2, rotated 90°"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn definevariable_values_stand_in_names_paths_and_includes() {
    let dir = temp_dir("variables");
    let model = dir.join("models/crate");
    write(&model.join("crate_ref.smd"), &reference_smd("crate.bmp"));
    write(&model.join("crate_idle.smd"), &animation_smd(0, 9));
    write(&model.join("walk.smd"), &animation_smd(0, 4));
    write(&model.join("run.smd"), &animation_smd(0, 2));
    // A Garry's Mod style template: variables in quoted and bare words, in paths and in an `$include`; the
    // include defines a variable the QC uses after it.
    write(
        &model.join("crate.qc"),
        "$definevariable mdlname \"crate\"\n$definevariable Common ../shared\n\
         $modelname \"props/$mdlname$.mdl\"\n$include \"$common$/anims.qci\"\n$body body \"$MDLNAME$_ref\"\n\
         $sequence idle \"$mdlname$_idle\" loop fps 10\n$sequence $mdlname$_$anim$ $anim$\n\
         $sequence gone \"$nothere$\"\n",
    );
    write(&dir.join("models/shared/anims.qci"), "// shared\n$definevariable anim walk\n$sequence run run\n");
    let a = load(&model.join("crate.qc"));
    let s = a.model_script.as_deref().unwrap();
    assert_eq!(s.name, "props/crate.mdl");
    assert_eq!(s.files.len(), 2, "the include was found through $common$");
    assert_eq!(s.body_groups[0].choices[0].name, "crate_ref");
    assert_eq!(a.meshes.len(), 1);
    let clips: Vec<(&str, u32)> = a.clips.iter().map(|c| (c.name.as_str(), c.frame_count)).collect();
    assert_eq!(clips, [("run", 3), ("idle", 10), ("crate_walk", 5)]);
    assert!(!s.ignored_names().contains(&"$definevariable"), "{:?}", s.ignored_names());
    // An unknown variable is left as written and said, with its line; the file it names is missing.
    let unknown: Vec<String> =
        a.warnings.iter().filter(|w| w.message.contains("$nothere$")).map(ToString::to_string).collect();
    assert!(
        unknown.iter().any(|w| w == "line 8: `$nothere$` names no `$definevariable`; it was left as written"),
        "{unknown:?}"
    );
    assert!(s.sequence("gone").unwrap().problem.as_deref().unwrap().contains("\"$nothere$\""));
    // A second definition keeps the first value (studiomdl's lookup takes the first), with a warning.
    write(&model.join("crate.qc"), "$definevariable a crate_idle\n$definevariable A walk\n$sequence s $a$\n");
    let a = load(&model.join("crate.qc"));
    assert_eq!(a.clips[0].frame_count, 10);
    assert!(
        a.warnings.iter().any(|w| w.position == "line 2" && w.message.contains("\"crate_idle\"")),
        "{:?}",
        a.warnings
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_overlay_takes_its_own_file_of_a_name_that_is_in_several_folders() {
    let dir = temp_dir("overlay");
    let anims = dir.join("Anims");
    write(&anims.join("ASC_BODIES/HUM_BODY.ASC"), &body_asc());
    // The same name twice: the base model's swim frames 130–157, the overlay's 0–47.
    write(&anims.join("ASC_ANIMS/HUMAN/HUM_SWIM.ASC"), &anim_asc(130, 157));
    write(&anims.join("ASC_ANIMS/HUMANS_SWIM/HUM_SWIM.ASC"), &anim_asc(0, 47));
    let ani = |name: &str, first: i32, last: i32| {
        format!("\t\tani (\"{name}\" 1 \"{name}\" 0.0 0.2 M. \"Hum_Swim.asc\" F {first} {last})\n")
    };
    write(
        &anims.join("HUMANS.MDS"),
        &format!(
            "Model (\"HuS\")\n{{\n\tmeshAndTree (\"Hum_Body.asc\")\n\taniEnum\n\t{{\n{}\t}}\n}}\n",
            ani("s_Swim", 130, 157)
        ),
    );
    write(
        &anims.join("MDS_OVERLAY/HUMANS_SWIM.MDS"),
        &format!(
            "Model (\"HuS\")\n{{\n\tmeshAndTree (\"Hum_Body.asc\" DONT_USE_MESH)\n\taniEnum\n\t{{\n{}{}\t}}\n}}\n",
            ani("s_Swim", 0, 47),
            ani("s_SwimF", 10, 20)
        ),
    );
    let x = |a: &Asset, clip: &str| {
        sample_vec3(&a.clip(clip).unwrap().track_for("Bip01").unwrap().translation, 0.0).unwrap().x
    };
    let overlay = load(&anims.join("MDS_OVERLAY/HUMANS_SWIM.MDS"));
    let clips: Vec<(&str, u32)> = overlay.clips.iter().map(|c| (c.name.as_str(), c.frame_count)).collect();
    assert_eq!(clips, [("s_Swim", 48), ("s_SwimF", 11)], "{:?}", overlay.warnings);
    assert!((x(&overlay, "s_Swim") - 0.0).abs() < 1e-4 && (x(&overlay, "s_SwimF") - 10.0).abs() < 1e-4);
    let said: Vec<String> = overlay.warnings.iter().map(ToString::to_string).collect();
    assert!(
        said.contains(
            &"line 6: \"Hum_Swim.asc\" is in 2 folders: ASC_ANIMS/HUMANS_SWIM/HUM_SWIM.ASC is used (the script's own \
              folder), not ASC_ANIMS/HUMAN/HUM_SWIM.ASC"
                .to_owned()
        ),
        "{said:?}"
    );
    // The base model keeps its own: frames 130–157 from `HUMAN`, the folder of `HUMANS`.
    let base = load(&anims.join("HUMANS.MDS"));
    assert_eq!(base.clip("s_Swim").map(|c| c.frame_count), Some(28), "{:?}", base.warnings);
    assert!((x(&base, "s_Swim") - 130.0).abs() < 1e-4);
    assert!(
        base.warnings.iter().any(|w| w.message.contains("ASC_ANIMS/HUMAN/HUM_SWIM.ASC is used (the model's folder)")),
        "{:?}",
        base.warnings
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn repeated_and_empty_names_become_unique_as_assimp_names_them() {
    let dir = temp_dir("names");
    write(&dir.join("ref.smd"), &reference_smd("skin.bmp"));
    for (file, last) in [("a", 1), ("b", 2), ("c", 3), ("d", 4), ("e", 5), ("f", 6), ("g", 7)] {
        write(&dir.join(format!("{file}.smd")), &animation_smd(0, last));
    }
    // An importer's edge cases: "idle" three times, "" four times, and the same for $body.
    write(
        &dir.join("names.qc"),
        "$body \"studio\" \"ref\"\n$body \"studio\" \"ref\"\n$body \"\" \"ref\"\n$body \"\" \"ref\"\n\
         $sequence \"idle\" \"a\"\n$sequence \"idle\" \"b\"\n$sequence \"\" \"c\"\n$sequence \"idle\" \"d\"\n\
         $sequence \"\" \"e\"\n$sequence \"idle_0\" \"f\"\n$sequence \"\" \"g\"\n",
    );
    let a = load(&dir.join("names.qc"));
    let clips: Vec<(&str, u32)> = a.clips.iter().map(|c| (c.name.as_str(), c.frame_count)).collect();
    assert_eq!(
        clips,
        [
            ("idle", 2),
            ("idle_1", 3),
            ("Sequence_0", 4),
            ("idle_2", 5),
            ("Sequence_1", 6),
            ("idle_0", 7),
            ("Sequence_2", 8)
        ],
        "the name written \"idle_0\" keeps it; the repeats skip it"
    );
    let s = a.model_script.as_deref().unwrap();
    let groups: Vec<&str> = s.body_groups.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(groups, ["studio", "studio_0", "Bodypart_0", "Bodypart_1"]);
    // Every renaming is said at its line.
    let said: Vec<String> = a.warnings.iter().map(ToString::to_string).collect();
    for expected in [
        "line 2: a second body group named \"studio\"; this one is called \"studio_0\" here",
        "line 4: a body group without a name; it is called \"Bodypart_1\" here",
        "line 6: a second sequence named \"idle\"; the engine plays the first, both are listed, this one as \"idle_1\"",
        "line 11: a sequence without a name; it is called \"Sequence_2\" here",
    ] {
        assert!(said.iter().any(|w| w == expected), "{expected:?} not in {said:?}");
    }
    // `--clip` reaches each one by its name.
    let (code, out, err) =
        bonescope(&["pose", dir.join("names.qc").to_str().unwrap(), "--clip", "idle_2", "--time", "0", "--json"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, _, err) =
        bonescope(&["pose", dir.join("names.qc").to_str().unwrap(), "--clip", "Sequence_1", "--time", "0", "--json"]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn many_definitions_are_substituted_in_time_proportional_to_the_script() {
    let dir = temp_dir("many-variables");
    write(&dir.join("walk.smd"), &animation_smd(0, 2));
    // 3000 definitions, each used once after them all: substituting the rest of the script once per definition
    // took tens of seconds; once per run of definitions, well under a second.
    let mut qc: String = (0..3000).map(|i| format!("$definevariable v{i} walk\n")).collect();
    qc += &(0..3000).map(|i| format!("$sequence s{i} \"$v{i}$\"\n")).collect::<String>();
    write(&dir.join("many.qc"), &qc);
    let start = std::time::Instant::now();
    let a = load(&dir.join("many.qc"));
    let took = start.elapsed();
    assert_eq!(a.clips.len(), 3000);
    let said: Vec<&str> = a.warnings.iter().map(|w| w.message.as_str()).take(3).collect();
    assert_eq!(said, ["no reference mesh: the skeleton of this sequence's animation is used"], "every name known");
    assert!(took.as_secs_f32() < 5.0, "{took:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An SMD of bones `root` and `head` whose root turns `(rx, 0, rz)` radians at each frame.
fn turning_smd(frames: &[(f32, f32)]) -> String {
    let mut s = String::from("version 1\nnodes\n0 \"root\" -1\n1 \"head\" 0\nend\nskeleton\n");
    for (f, (rx, rz)) in frames.iter().enumerate() {
        s += &format!("time {f}\n0 0 0 0 {rx} 0 {rz}\n1 0 0 10 0 0 0\n");
    }
    s + "end\n"
}

/// The character's root orientation in `clip` at `time`, in the file's frame.
fn root_rotation(asset: &Asset, clip: &str, time: f32) -> glam::Quat {
    let clip = asset.clip(clip).unwrap_or_else(|| panic!("no clip {clip}"));
    bonescope::anim::curve::sample_quat(&clip.track_for("root").unwrap().rotation, time).unwrap()
}

#[test]
fn delta_sequences_play_their_difference_on_the_bind_pose_instead_of_tipping_over() {
    let dir = temp_dir("delta");
    // The reference stands its Z-up root upright with a quarter turn about X, as Source models are exported.
    let quarter = std::f32::consts::FRAC_PI_2;
    write(
        &dir.join("ref.smd"),
        &reference_smd("skin.bmp").replace("time 0\n0 0 0 0 0 0 0", &format!("time 0\n0 0 0 0 {quarter} 0 0")),
    );
    write(&dir.join("idle.smd"), &turning_smd(&[(quarter + 0.2, 0.0), (quarter + 0.2, 0.0)]));
    write(&dir.join("nod.smd"), &turning_smd(&[(quarter + 0.2, 0.0), (quarter + 0.2, 0.4)]));
    // Already differences: near the identity, which played as a pose lays the root on its back.
    write(&dir.join("breathe.smd"), &turning_smd(&[(0.0, 0.0), (0.05, 0.0)]));
    write(
        &dir.join("face.qc"),
        "$modelname face.mdl\n$body body \"ref\"\n$sequence idle \"idle\" fps 30\n\
         $animation a_nod \"nod\" subtract idle 0\n$sequence nod {\n a_nod\n delta\n}\n\
         $sequence breathe \"breathe\" predelta\n",
    );
    let asset = load(&dir.join("face.qc"));
    let bind = asset.skeleton.bind_local[asset.skeleton.find("root").unwrap()].rotation;
    let same = |a: glam::Quat, b: glam::Quat| a.dot(b).abs() > 1.0 - 1e-4;
    // The subtracted frame (idle's frame 0) equals nod's first frame: no difference, the bind pose.
    assert!(same(root_rotation(&asset, "nod", 0.0), bind));
    // Then the nod turns the upright root.
    let nodded = root_rotation(&asset, "nod", 1.0 / 30.0);
    assert!(!same(nodded, bind) && nodded.angle_between(bind) < 0.45);
    // The already-differences clip starts upright rather than lying down.
    assert!(same(root_rotation(&asset, "breathe", 0.0), bind));
    assert!(root_rotation(&asset, "breathe", 0.0).angle_between(glam::Quat::IDENTITY) > 1.0);
    // The base sequence plays as the file says.
    assert!(same(root_rotation(&asset, "idle", 0.0), glam::Quat::from_rotation_x(quarter + 0.2)));
    let additive: Vec<bool> =
        ["idle", "nod", "breathe"].iter().map(|c| asset.clip(c).unwrap().script.as_ref().unwrap().additive).collect();
    assert_eq!(additive, [false, true, true]);
    assert!(asset.warnings.iter().any(|w| w.message.contains("2 delta sequence(s)")), "{:?}", asset.warnings);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Gothic `_USE.ASC`: the skeleton in one pose over frames 0–20, with no key changes (no `*TM_ANIMATION`).
fn static_pose_asc() -> String {
    format!(
        "{ASC_HEADER}{}*HELPEROBJECT {{\n\t*NODE_NAME \"Bip01\"\n{}}}\n",
        asc_scene(0, 20, 25, 192),
        node_tm("Bip01", Vec3::new(3.0, 0.0, 0.0))
    )
}

#[test]
fn a_static_pose_file_is_a_held_clip_as_the_engine_plays_it() {
    let dir = temp_dir("mds-static");
    let anims = dir.join("_work/Data/Anims");
    write(&anims.join("ASC_BODIES/HUMAN/HUM_BODY.ASC"), &body_asc());
    write(&anims.join("ASC_ANIMS/HUMAN/HUM_BENCH_USE.ASC"), &static_pose_asc());
    let mds = "Model (\"Hum\")\n{\n\tmeshAndTree (\"Hum_Body.asc\")\n\taniEnum\n\t{\n\
               \t\tani (\"s_Bench_S1\" 1 \"s_Bench_S1\" 0.1 0.1 M. \"Hum_Bench_Use.asc\" F 0 20)\n\
               \t\taniAlias (\"t_Bench_Back\" 1 \"\" 0.1 0.1 M. \"s_Bench_S1\t\" R)\n\t}\n}\n";
    write(&anims.join("HUMANS.MDS"), mds);
    let a = load(&anims.join("HUMANS.MDS"));
    let s = a.model_script.as_deref().unwrap();
    let bench = s.sequence("s_Bench_S1").unwrap();
    assert!(bench.loaded && bench.problem.is_none(), "{bench:?}\n{:?}", a.warnings);
    let clip = a.clip("s_Bench_S1").unwrap();
    assert_eq!((clip.frame_count, clip.frame_rate), (21, 25.0));
    // Held: the file's pose over the whole clip.
    let x = |t: f32| sample_vec3(&clip.track_for("Bip01").unwrap().translation, t).unwrap().x;
    assert!((x(0.0) - 3.0).abs() < 1e-4 && (x(0.8) - 3.0).abs() < 1e-4);
    assert!(a.readings.iter().any(|r| r.choice.contains("holds one pose")), "{:?}", a.readings);
    // The alias whose target ends in a tab finds it.
    assert!(a.clip("t_Bench_Back").is_some(), "{:?}", a.warnings);
    let _ = std::fs::remove_dir_all(&dir);
}
