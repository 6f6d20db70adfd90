//! The Gothic mod kit's ASC files (GothicSourcer v3.14 exports of 3ds Max ASE, `*3DSMAX_ASCIIEXPORT 110`) on the
//! conformance corpus: the Bloodfly body with its 18 animations, and a morph-mesh head with its eating animation.
//!
//! What is checked is what a user would check from outside: at every sample of every animation, bound to the body,
//! each animated bone's to-root matrix is the world transform the file states for it (read here by a separate,
//! minimal reader of the sample lines); bone lengths stay as long as in the body; the skinned mesh does not tear;
//! the morph head has its frames. Skipped with a message when `BONESCOPE_CORPUS` is not set.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use bonescope::anim::{DiagnoseOptions, FindingKind, Pose, Severity, diagnose};
use bonescope::io::{LoadErrorKind, LoadOptions, load_path};
use bonescope::scene::{Asset, Clip};
use glam::{Mat3, Quat, Vec3};

fn gothic(relative: &str) -> Option<PathBuf> {
    common::corpus_file(&format!("mds/gothic/Anims/{relative}"))
}

fn bloodfly_animations(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("asc")))
        .collect();
    files.sort();
    files
}

/// The samples of one animated node as the file writes them: (tick, position) and (tick, axis, angle).
#[derive(Default)]
struct StatedTrack {
    positions: Vec<(i64, Vec3)>,
    rotations: Vec<(i64, Vec3, f32)>,
}

/// A deliberately small reader of `*TM_ANIMATION` sample lines, independent of the loader: node name → samples.
fn stated_samples(path: &Path) -> HashMap<String, StatedTrack> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out: HashMap<String, StatedTrack> = HashMap::new();
    let mut current: Option<String> = None;
    let mut in_animation = false;
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("*TM_ANIMATION") => in_animation = true,
            Some("*NODE_NAME") if in_animation => {
                current = Some(line.split('"').nth(1).unwrap().to_owned());
                in_animation = false;
            }
            Some("*CONTROL_POS_SAMPLE") => {
                let n: Vec<f32> = words[2..5].iter().map(|w| w.parse().unwrap()).collect();
                let track = out.entry(current.clone().unwrap()).or_default();
                track.positions.push((words[1].parse().unwrap(), Vec3::new(n[0], n[1], n[2])));
            }
            Some("*CONTROL_ROT_SAMPLE") => {
                let n: Vec<f32> = words[2..6].iter().map(|w| w.parse().unwrap()).collect();
                let track = out.entry(current.clone().unwrap()).or_default();
                track.rotations.push((words[1].parse().unwrap(), Vec3::new(n[0], n[1], n[2]), n[3]));
            }
            _ => {}
        }
    }
    out
}

/// 3ds Max's (axis, angle) is a rotation by −angle about the axis (specs/ase.md, rule 1).
fn max_rotation(axis: Vec3, angle: f32) -> Quat {
    axis.try_normalize().map_or(Quat::IDENTITY, |a| Quat::from_axis_angle(a, -angle))
}

/// Ticks per second and the first sample's tick, read from the file's `*SCENE` block and first sample line.
fn time_base(path: &Path) -> (f64, i64) {
    let text = std::fs::read_to_string(path).unwrap();
    let value = |key: &str| -> f64 {
        let line = text.lines().find(|l| l.trim_start().starts_with(key)).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    let first = text.lines().find(|l| l.trim_start().starts_with("*CONTROL_POS_SAMPLE")).unwrap();
    (
        value("*SCENE_FRAMESPEED") * value("*SCENE_TICKSPERFRAME"),
        first.split_whitespace().nth(1).unwrap().parse().unwrap(),
    )
}

/// The largest distance of the body's bind-pose joints from their centre: "the model's size".
fn model_size(body: &Asset) -> f32 {
    let pose = Pose::bind(&body.skeleton);
    let points: Vec<Vec3> = pose.to_root.iter().map(|m| m.w_axis.truncate()).collect();
    let centre = points.iter().copied().sum::<Vec3>() / points.len() as f32;
    points.iter().map(|p| p.distance(centre)).fold(0.0, f32::max)
}

/// Helper nodes that are not part of the biped's rigid chain: they move freely in the animations.
const FREE_HELPERS: [&str; 1] = ["Bip01 Hold Sting"];

struct Figures {
    /// Largest difference between a bound bone's to-root and the file's stated world transform at a sample tick,
    /// over all samples and bones (translation, and rotation applied at the model's size).
    world_error: f32,
    /// Bones (other than free helpers) whose distance to their parent changes by more than 0.05 units, with the
    /// largest change.
    stretched_bones: Vec<(String, f32)>,
    /// The largest change of any bone length (free helpers excluded).
    worst_bone_change: f32,
    /// The clip's worst edge stretch (diagnostics).
    worst_stretch: f32,
    frames: u32,
    samples: usize,
    /// How many key-time arrays the clip's translation and rotation curves hold between them.
    time_arrays: usize,
}

fn measure(body_path: &Path, anim_path: &Path) -> Figures {
    let (asset, reports) =
        bonescope::source::load_files(&[body_path.to_path_buf(), anim_path.to_path_buf()], &LoadOptions::default())
            .into_result()
            .unwrap_or_else(|e| panic!("{e}"));
    assert!(reports[0].unmatched_tracks.is_empty(), "{:?}", reports[0].unmatched_tracks);
    let clip: &Clip = asset.clips.last().unwrap();
    let size = model_size(&asset);
    let stated = stated_samples(anim_path);
    let (ticks_per_second, first_tick) = time_base(anim_path);
    let skeleton = &asset.skeleton;
    let bind = Pose::bind(skeleton);
    let mut world_error = 0.0f32;
    let mut changes: HashMap<String, f32> = HashMap::new();
    let samples = stated.values().map(|t| t.positions.len()).max().unwrap_or(0);
    for k in 0..samples {
        let Some((tick, _)) = stated.values().find_map(|t| t.positions.get(k)) else { continue };
        let time = ((tick - first_tick) as f64 / ticks_per_second) as f32;
        let pose = Pose::from_clip(skeleton, clip, time);
        for (name, track) in &stated {
            let bone = skeleton.find(name).unwrap_or_else(|| panic!("'{name}' is not in the body"));
            let m = pose.to_root[bone];
            let (_, pos) = track.positions[k];
            let (_, axis, angle) = track.rotations[k];
            let stated_rotation = Mat3::from_quat(max_rotation(axis, angle));
            let rotation = Mat3::from_mat4(m);
            let rotation_error =
                (0..3).map(|c| (rotation.col(c) - stated_rotation.col(c)).length()).fold(0.0, f32::max);
            world_error = world_error.max((m.w_axis.truncate() - pos).length()).max(rotation_error * size);
        }
        for bone in 0..skeleton.len() {
            let Some(parent) = skeleton.parents[bone] else { continue };
            let name = &skeleton.names[bone];
            if FREE_HELPERS.contains(&name.as_str()) {
                continue;
            }
            let length = |p: &Pose| (p.to_root[bone].w_axis - p.to_root[parent].w_axis).truncate().length();
            let change = (length(&pose) - length(&bind)).abs();
            let entry = changes.entry(name.clone()).or_insert(0.0);
            *entry = entry.max(change);
        }
    }
    let findings = diagnose(&asset, &DiagnoseOptions::default());
    let worst_stretch =
        findings.iter().filter(|f| f.kind == FindingKind::ClipStretch).filter_map(|f| f.value).fold(0.0f32, f32::max);
    let mut stretched_bones: Vec<(String, f32)> =
        changes.iter().filter(|(_, c)| **c > 0.05).map(|(n, c)| (n.clone(), *c)).collect();
    stretched_bones.sort_by(|a, b| a.0.cmp(&b.0));
    let worst_bone_change = changes.values().copied().fold(0.0, f32::max);
    let time_arrays: std::collections::HashSet<*const f32> = clip
        .tracks
        .iter()
        .flat_map(|t| [&t.translation.times, &t.rotation.times])
        .filter(|times| !times.is_empty())
        .map(|times| times.as_ptr())
        .collect();
    Figures {
        world_error,
        stretched_bones,
        worst_bone_change,
        worst_stretch,
        frames: clip.frame_count,
        samples,
        time_arrays: time_arrays.len(),
    }
}

#[test]
fn bloodfly_animations_reach_the_stated_world_transforms_and_keep_the_body_whole() {
    let (Some(body), Some(dir)) = (gothic("ASC_BODIES/MONSTER/BLO_BODY.ASC"), gothic("ASC_ANIMS/BLOODFLY")) else {
        return;
    };
    let files = bloodfly_animations(&dir);
    assert_eq!(files.len(), 18);
    let size = model_size(&load_path(&body, &LoadOptions::default()).unwrap());
    let mut rows = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let f = measure(&body, file);
        eprintln!(
            "{name:<26} frames {:>3} samples {:>3}  world error {:.2e}  worst bone change {:.4}  stretched {:?}  worst stretch {:.3}",
            f.frames, f.samples, f.world_error, f.worst_bone_change, f.stretched_bones, f.worst_stretch
        );
        rows.push((name, f));
    }
    for (name, f) in &rows {
        assert_eq!(f.frames as usize, f.samples, "{name}: LASTFRAME − FIRSTFRAME + 1 frames, one sample each");
        assert_eq!(f.time_arrays, 1, "{name}: every world-sampled channel is keyed at the same ticks, one array");
        assert!(f.world_error <= 1e-4 * size, "{name}: world transforms off by {} (size {size})", f.world_error);
        if name.contains("ATTACK") {
            // The data stretches the tail tip in both attack files (the sting shoots out), and nothing else.
            assert_eq!(f.stretched_bones.len(), 1, "{name}: {:?}", f.stretched_bones);
            assert_eq!(f.stretched_bones[0].0, "Bip01 Tail06", "{name}");
            assert!(f.stretched_bones[0].1 > 15.0, "{name}: {:?}", f.stretched_bones);
        } else {
            assert!(f.stretched_bones.is_empty(), "{name}: {:?}", f.stretched_bones);
        }
        // Before the world samples were read as such: 12.9× (TURN) to 239× (RUN).
        assert!(f.worst_stretch < 2.5, "{name}: worst edge stretch {}", f.worst_stretch);
    }
    let kept = rows.iter().filter(|(_, f)| f.stretched_bones.is_empty()).count();
    assert_eq!(kept, 16, "16 of the 18 files keep every bone length within 0.05 units");
}

#[test]
fn the_morph_head_eat_animation_is_six_frames_and_binds_to_its_base_head() {
    let (Some(eat), Some(head)) = (
        gothic("ASC_MORPHMESH/HEADS/HUM_HEAD_FATBALD/HUM_HEAD_FATBALD_EAT.ASC"),
        gothic("ASC_MORPHMESH/HEADS/HUM_HEAD_FATBALD/HUM_HEAD_FATBALD.ASC"),
    ) else {
        return;
    };
    let alone = load_path(&eat, &LoadOptions::default()).unwrap();
    let mesh = &alone.meshes[0];
    assert_eq!(mesh.vertex_frames.len(), 6);
    assert_eq!(mesh.triangle_count(), 296);
    let clip = &alone.clips[0];
    assert_eq!((clip.frame_count, clip.frame_rate), (6, 10.0));
    assert!((clip.duration - 0.5).abs() < 1e-6);
    let times: Vec<f32> = mesh.vertex_frames.iter().map(|f| f.time).collect();
    assert!(times.iter().zip([0.0, 0.1, 0.2, 0.3, 0.4, 0.5]).all(|(t, e)| (t - e).abs() < 1e-6), "{times:?}");
    let (frames, faces) = common::ase_mesh_lists(&eat);
    assert_eq!(frames.len(), 6);
    assert!(frames.iter().all(|f| f.len() == 157));
    assert_eq!(faces.len(), 296);
    let content = alone.readings.iter().find(|r| r.topic == "content").unwrap();
    assert!(content.choice.contains("6 frames of 157 vertices / 296 faces"), "{content:?}");

    // Bound to the base head: its mesh (split by texture coordinates into more render vertices) now has the six
    // frames, and at every face corner each frame puts the vertex where the EAT file has it.
    let (set, reports) =
        bonescope::source::load_files(&[head.clone(), eat.clone()], &LoadOptions::default()).into_result().unwrap();
    assert_eq!(reports[0].clips, vec!["HUM_HEAD_FATBALD_EAT".to_owned()]);
    let base = &set.meshes[0];
    assert!(base.vertex_count() > 157, "the base head keeps its own render vertices ({})", base.vertex_count());
    assert_eq!(base.vertex_frames.len(), 6);
    for (k, frame) in base.vertex_frames.iter().enumerate() {
        for (f, face) in faces.iter().enumerate() {
            for (c, &v) in face.iter().enumerate() {
                let r = base.corner_vertices[f * 3 + c] as usize;
                assert!(frame.positions[r].abs_diff_eq(frames[k][v], 1e-4), "frame {k}, face {f}, corner {c}");
            }
        }
    }
    // The body of a bloodfly has no such mesh: a clear error naming the file.
    if let Some(body) = gothic("ASC_BODIES/MONSTER/BLO_BODY.ASC") {
        let err =
            bonescope::source::load_files(&[body, eat.clone()], &LoadOptions::default()).into_result().unwrap_err();
        assert_eq!((err.kind, err.file.as_deref()), (LoadErrorKind::Mismatch, Some(eat.as_path())), "{err}");
    }
}

#[test]
fn read_the_stock_way_the_bloodfly_tears_and_the_check_says_where() {
    let (Some(body), Some(run)) =
        (gothic("ASC_BODIES/MONSTER/BLO_BODY.ASC"), gothic("ASC_ANIMS/BLOODFLY/BLO_RUN_M01.ASC"))
    else {
        return;
    };
    // The same file with the stock exporter's header: its world samples are then read as relative ones.
    let text = std::fs::read_to_string(&run)
        .unwrap()
        .replacen("*3DSMAX_ASCIIEXPORT\t110", "*3DSMAX_ASCIIEXPORT\t200", 1)
        .replacen("GothicSourcer", "someone", 1);
    let dir = std::env::temp_dir().join(format!("bonescope-ase-gothic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let relabelled = dir.join("BLO_RUN_STOCK.ASC");
    std::fs::write(&relabelled, text).unwrap();
    let (asset, _) = bonescope::source::load_files(&[body, relabelled], &LoadOptions::default()).into_result().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    // The loader says the data do not look like its header …
    assert!(asset.warnings.iter().any(|w| w.message.contains("look like world transforms")), "{:?}", asset.warnings);
    // … and the diagnostics call the result what it is: a tear, with the bones and the frame.
    let findings = diagnose(&asset, &DiagnoseOptions::default());
    let tears = [FindingKind::SurfaceOpens, FindingKind::JointApart, FindingKind::VertexFlies];
    let tear = findings.iter().find(|f| tears.contains(&f.kind) && f.severity == Severity::Error).unwrap();
    assert!(tear.value.unwrap() > 10.0);
    assert!(tear.message.contains("(frame ") && tear.message.contains("'Bip01 "), "{}", tear.message);
}

#[test]
fn info_check_binds_the_animations_and_reports_each_clip() {
    let (Some(body), Some(dir)) = (gothic("ASC_BODIES/MONSTER/BLO_BODY.ASC"), gothic("ASC_ANIMS/BLOODFLY")) else {
        return;
    };
    let animations = bloodfly_animations(&dir);
    let mut args: Vec<String> = vec!["info".into(), "--check".into(), "--json".into(), body.display().to_string()];
    args.extend(animations.iter().map(|p| p.display().to_string()));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bonescope")).args(&args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let report = &v[0];
    assert_eq!(v.as_array().unwrap().len(), 1, "one report for the body with its animations");
    assert_eq!(report["clips"].as_array().unwrap().len(), 18);
    let bound = report["bound"].as_array().unwrap();
    assert_eq!(bound.len(), 18);
    assert!(bound.iter().all(|b| b["unmatched_tracks"].as_array().unwrap().is_empty()));
    // The stock animations keep the body whole: no tear, and what stretches is a small, closed distortion.
    let surface: Vec<&serde_json::Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            ["clip_stretch", "joint_apart", "surface_opens", "vertex_flies"].contains(&f["kind"].as_str().unwrap())
        })
        .collect();
    assert!(surface.iter().all(|f| f["value"].as_f64().unwrap() < 2.5 && f["severity"] != "error"), "{surface:?}");
    // How the animations were read is part of the report.
    let readings = report["readings"].as_array().unwrap();
    assert!(readings.iter().any(|r| r["topic"] == "BLO_RUN_M01.ASC: animation samples"
        && r["choice"].as_str().unwrap().starts_with("world transforms")));
}

/// A Gothic morph-mesh head (its one node `zm_Morph`) is modelled in the head bone's frame, lying on its side in
/// a Z-up scene; it is stood up facing +Z, alone and through its MMS: the mouth below the crown and in front.
#[test]
fn the_morph_mesh_head_stands_upright_facing_the_front() {
    let Some(dir) = gothic("ASC_MORPHMESH/HEADS/HUM_HEAD_FATBALD") else { return };
    for file in ["HUM_HEAD_FATBALD.ASC", "HUM_HEAD_FATBALD.MMS"] {
        let asset = load_path(&dir.join(file), &LoadOptions::default()).unwrap();
        assert!(asset.readings.iter().any(|r| r.topic.ends_with("axes") && r.basis.contains("zm_Morph")), "{file}");
        let mesh = &asset.meshes[0];
        let to_viewer = asset.axes.to_viewer;
        let points: Vec<Vec3> = mesh.positions.iter().map(|p| to_viewer.transform_point3(*p)).collect();
        let (lo, hi) = points.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
        let centre = (lo + hi) * 0.5;
        let mouth_material = asset.materials.iter().position(|m| m.name.contains("MOUTHHOLE")).unwrap();
        let subset = mesh.subsets.iter().find(|s| s.material == mouth_material).unwrap();
        let corners = &mesh.indices[subset.first_index as usize..(subset.first_index + subset.index_count) as usize];
        let mouth = corners.iter().map(|&i| points[i as usize]).sum::<Vec3>() / corners.len() as f32;
        let (height, width) = (hi.y - lo.y, hi.x - lo.x);
        assert!(mouth.y < centre.y, "{file}: the mouth ({mouth}) is below the head's middle ({centre})");
        assert!(mouth.z > centre.z + 2.0, "{file}: the mouth ({mouth}) is at the front (+Z) of the head ({centre})");
        assert!(mouth.x.abs() < 0.5, "{file}: the mouth is on the head's middle line: {mouth}");
        assert!(height > width, "{file}: taller ({height}) than wide ({width})");
    }
}
