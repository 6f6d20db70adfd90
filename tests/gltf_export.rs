//! glTF export: the Khronos validator finds no errors, and the exported file read back with the `gltf` crate
//! has the same bones, vertices and — sampled at several times — the same skinned positions as bonescope's own
//! evaluation; morph targets keep their deltas, default weights and weight tracks (VTA flex clips, PSK morphs,
//! ASE vertex frames, MMS `morphAni` clips).

mod common;
mod psk_writer;

use std::path::{Path, PathBuf};

use glam::{Mat4, Quat, Vec3};

use bonescope::anim::{Pose, skin_mesh};
use bonescope::io::gltf::{ExportOptions, export_glb, export_glb_with};
use bonescope::io::{self, LoadOptions};
use bonescope::scene::Asset;

/// Node transforms of a glTF document at time `t` of `animation` (None: rest pose).
fn gltf_world_matrices(doc: &gltf::Document, blob: &[u8], animation: Option<usize>, t: f32) -> Vec<Mat4> {
    let mut local: Vec<(Vec3, Quat, Vec3)> = doc
        .nodes()
        .map(|n| {
            let (tr, r, s) = n.transform().decomposed();
            (Vec3::from(tr), Quat::from_array(r), Vec3::from(s))
        })
        .collect();
    if let Some(a) = animation {
        let anim = doc.animations().nth(a).unwrap();
        for channel in anim.channels() {
            let reader = channel.reader(|_| Some(blob));
            let times: Vec<f32> = reader.read_inputs().unwrap().collect();
            let node = channel.target().node().index();
            let interp = channel.sampler().interpolation();
            let (i, s) = segment(&times, t);
            use gltf::animation::util::ReadOutputs;
            match reader.read_outputs().unwrap() {
                ReadOutputs::Translations(v) => {
                    local[node].0 = sample_vec3(&v.map(Vec3::from).collect::<Vec<_>>(), &times, i, s, interp)
                }
                ReadOutputs::Scales(v) => {
                    local[node].2 = sample_vec3(&v.map(Vec3::from).collect::<Vec<_>>(), &times, i, s, interp)
                }
                ReadOutputs::Rotations(r) => {
                    let q: Vec<Quat> = r.into_f32().map(Quat::from_array).collect();
                    local[node].1 = match interp {
                        gltf::animation::Interpolation::Step => q[i],
                        _ => q[i].slerp(q[(i + 1).min(q.len() - 1)], s),
                    };
                }
                ReadOutputs::MorphTargetWeights(_) => {}
            }
        }
    }
    let mut world = vec![Mat4::IDENTITY; local.len()];
    fn visit(node: gltf::Node, parent: Mat4, local: &[(Vec3, Quat, Vec3)], world: &mut [Mat4]) {
        let (t, r, s) = local[node.index()];
        let m = parent * Mat4::from_scale_rotation_translation(s, r, t);
        world[node.index()] = m;
        for child in node.children() {
            visit(child, m, local, world);
        }
    }
    for node in doc.default_scene().unwrap().nodes() {
        visit(node, Mat4::IDENTITY, &local, &mut world);
    }
    world
}

fn segment(times: &[f32], t: f32) -> (usize, f32) {
    if t <= times[0] || times.len() == 1 {
        return (0, 0.0);
    }
    let i = times.partition_point(|&k| k <= t).saturating_sub(1).min(times.len() - 1);
    if i + 1 >= times.len() {
        return (i, 0.0);
    }
    (i, (t - times[i]) / (times[i + 1] - times[i]))
}

fn sample_vec3(v: &[Vec3], times: &[f32], i: usize, s: f32, interp: gltf::animation::Interpolation) -> Vec3 {
    use gltf::animation::Interpolation::*;
    match interp {
        Step => v[i],
        Linear => v[i].lerp(v[(i + 1).min(v.len() - 1)], s),
        CubicSpline => {
            let n = v.len() / 3;
            let j = (i + 1).min(n - 1);
            let dt = if j > i { times[j] - times[i] } else { 0.0 };
            let (p0, b0, a1, p1) = (v[3 * i + 1], v[3 * i + 2], v[3 * j], v[3 * j + 1]);
            let (s2, s3) = (s * s, s * s * s);
            p0 * (2.0 * s3 - 3.0 * s2 + 1.0)
                + b0 * dt * (s3 - 2.0 * s2 + s)
                + p1 * (-2.0 * s3 + 3.0 * s2)
                + a1 * dt * (s3 - s2)
        }
    }
}

/// Compares skinned positions of the export with bonescope's own at the given clip times.
fn assert_round_trip(asset: &Asset, bytes: &[u8], times: &[f32]) {
    let gltf = gltf::Gltf::from_slice(bytes).expect("the export parses as glTF");
    let blob = gltf.blob.as_deref().expect("binary chunk");
    let doc = &gltf.document;
    let skin = doc.skins().next();
    if let Some(skin) = &skin {
        assert_eq!(skin.joints().count(), asset.skeleton.len(), "bone count");
    }
    let exported_vertices: usize = doc
        .meshes()
        .map(|m| m.primitives().next().unwrap().reader(|_| Some(blob)).read_positions().unwrap().count())
        .sum();
    assert_eq!(exported_vertices, asset.vertex_count(), "vertex count");
    let convert = io::gltf::export_frame(asset, io::gltf::Facing::Detected);
    let extent = asset
        .meshes
        .iter()
        .flat_map(|m| m.positions.iter())
        .fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    let size = (extent.1 - extent.0).length();
    let clip_count = asset.clips.len().max(1);
    for clip_index in 0..clip_count {
        for &t in times {
            let pose = match asset.clips.get(clip_index) {
                Some(clip) => Pose::from_clip(&asset.skeleton, clip, t.min(clip.duration)),
                None => Pose::bind(&asset.skeleton),
            };
            let t = asset.clips.get(clip_index).map_or(0.0, |c| t.min(c.duration));
            let anim = doc
                .animations()
                .position(|a| Some(a.name()) == asset.clips.get(clip_index).map(|c| Some(c.name.as_str())));
            let world = gltf_world_matrices(doc, blob, anim, t);
            for (mesh_index, (mesh, gmesh)) in asset.meshes.iter().zip(doc.meshes()).enumerate() {
                let (mut ours, mut normals) = (Vec::new(), Vec::new());
                skin_mesh(mesh, &pose.palette, &mut ours, &mut normals);
                let primitive = gmesh.primitives().next().unwrap();
                let reader = primitive.reader(|_| Some(blob));
                let positions: Vec<Vec3> = reader.read_positions().unwrap().map(Vec3::from).collect();
                let theirs: Vec<Vec3> = match (&skin, reader.read_joints(0), reader.read_weights(0)) {
                    (Some(skin), Some(joints), Some(weights)) => {
                        let ibm: Vec<Mat4> = skin
                            .reader(|_| Some(blob))
                            .read_inverse_bind_matrices()
                            .unwrap()
                            .map(|m| Mat4::from_cols_array_2d(&m))
                            .collect();
                        let joint_nodes: Vec<usize> = skin.joints().map(|j| j.index()).collect();
                        let palette: Vec<Mat4> =
                            joint_nodes.iter().zip(&ibm).map(|(&n, ibm)| world[n] * *ibm).collect();
                        positions
                            .iter()
                            .zip(joints.into_u16().zip(weights.into_f32()))
                            .map(|(p, (j, w))| (0..4).map(|k| w[k] * palette[j[k] as usize].transform_point3(*p)).sum())
                            .collect()
                    }
                    _ => positions,
                };
                let worst = ours
                    .iter()
                    .zip(&theirs)
                    .map(|(a, b)| (convert.transform_point3(*a) - *b).length())
                    .fold(0.0f32, f32::max);
                assert!(
                    worst <= 1e-4 * size,
                    "clip {clip_index} t={t} mesh {mesh_index}: skinned positions differ by {worst} (model size {size})"
                );
            }
        }
    }
}

fn validator_available() -> bool {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/node_modules/gltf-validator/package.json");
    if script.exists() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set but gltf-validator is not installed (scripts/install-gltf-validator.sh)"
    );
    eprintln!("skipped validation: gltf-validator is not installed (scripts/install-gltf-validator.sh)");
    false
}

/// Runs the Khronos validator; returns (errors, messages).
fn validate(path: &Path) -> (u64, String) {
    let out = std::process::Command::new("node")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/validate-gltf.mjs"))
        .arg(path)
        .output()
        .expect("node runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let v: serde_json::Value = serde_json::from_str(text.lines().next().unwrap_or("{}")).unwrap_or_default();
    (v["errors"].as_u64().unwrap_or(u64::MAX), text + &String::from_utf8_lossy(&out.stderr))
}

fn export_and_check(name: &str, asset: &Asset) {
    let (bytes, report) = export_glb(asset).expect("export");
    let dir = std::env::temp_dir().join(format!("bonescope-gltf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join(format!("{name}.glb"));
    std::fs::write(&path, &bytes).unwrap();
    let blends: usize =
        asset.clips.iter().filter_map(|c| c.script.as_ref()?.blend.as_ref()).map(|b| b.animations.len()).sum();
    assert_eq!(report.animations, asset.clips.len() + blends, "every clip exported: {:?}", report.warnings);
    if validator_available() {
        let (errors, messages) = validate(&path);
        assert_eq!(errors, 0, "glTF validator errors for {name}: {messages}");
    }
    assert_round_trip(asset, &bytes, &[0.0, 0.13, 0.5, 0.77, 1.2]);
}

#[test]
fn demo_exports_valid_and_round_trips() {
    export_and_check("demo", &bonescope::scene::samples::demo::demo_asset());
}

fn corpus_set(files: &[&str]) -> Option<Asset> {
    let paths: Vec<PathBuf> = files.iter().map(|f| common::corpus_file(f)).collect::<Option<_>>()?;
    match bonescope::source::load_files(&paths, &LoadOptions::default()).into_result() {
        Ok((asset, _)) => Some(asset),
        Err(e) => panic!("{e}"),
    }
}

/// Compiled GoldSrc models: their textures are in the model file and go into the GLB as PNG; a masked texture
/// is an alpha cutoff.
#[test]
fn compiled_goldsrc_models_export_valid_with_their_textures() {
    let Some(man) = corpus_set(&["mdl/hl1/compiled_models/man.mdl"]) else { return };
    export_and_check("man_mdl", &man);
    let (bytes, _) = export_glb(&man).expect("export");
    let gltf = gltf::Gltf::from_slice(&bytes).unwrap();
    assert_eq!(gltf.images().count(), 5, "the five textures of manT.mdl");
    assert!(gltf.images().all(|i| matches!(i.source(), gltf::image::Source::View { mime_type: "image/png", .. })));
    // The two skin families are material variants: under `skin 1` the body is drawn yellow and purple.
    assert_eq!(
        gltf.variants().map(|v| v.map(|v| v.name().to_owned()).collect::<Vec<_>>()),
        Some(vec!["skin 0".into(), "skin 1".into()])
    );
    let body = gltf.meshes().find(|m| m.name() == Some("reference_headless")).unwrap();
    let drawn: Vec<(String, String)> = body
        .primitives()
        .map(|p| {
            let under_skin_1 = p.mappings().find(|m| m.variants().contains(&1)).unwrap().material();
            (p.material().name().unwrap().to_owned(), under_skin_1.name().unwrap().to_owned())
        })
        .collect();
    assert!(drawn.contains(&("Material2.bmp".into(), "UpperBody_Yellow.bmp".into())), "{drawn:?}");
    if let Some(alpha) = corpus_set(&["mdl/hl1/compiled_models/alpha_test.mdl"]) {
        export_and_check("alpha_test_mdl", &alpha);
        let (bytes, _) = export_glb(&alpha).expect("export");
        let gltf = gltf::Gltf::from_slice(&bytes).unwrap();
        let material = gltf.materials().next().unwrap();
        assert_eq!(material.alpha_mode(), gltf::material::AlphaMode::Mask);
        assert_eq!(material.alpha_cutoff(), Some(0.5));
    }
}

#[test]
fn psk_with_psa_exports_valid_and_round_trips() {
    if let Some(asset) = corpus_set(&["psk/examplemesh.psk", "psa/pendulum.psa"]) {
        export_and_check("pendulum", &asset);
    }
}

/// The Unreal characters of the corpus: the kit's body and shirt joined on one skeleton with their walk, and the
/// gnome (which faces +X in its file, so the export turns it to face +Z) with its 22 sequences.
#[test]
fn unreal_characters_export_valid_and_round_trip() {
    if let Some(asset) = corpus_set(&[
        "psk/kit_SK_MaleBase_01_Body.psk",
        "psk/kit_SK_Male_TShirt_01.psk",
        "psa/kit_MOB1_M1_Walk_Relaxed_F_Loop_IP.psa",
    ]) {
        assert_eq!(asset.meshes.len(), 2);
        export_and_check("kit", &asset);
    }
    if let Some(asset) = corpus_set(&["psk/hp2_skgnomeMesh.psk", "psa/hp2_skgnomeAnims.psa"]) {
        export_and_check("gnome", &asset);
    }
}

#[test]
fn smd_reference_mesh_exports_valid_and_round_trips() {
    if let Some(asset) = corpus_set(&["smd/holy_grailref.smd"]) {
        export_and_check("holy_grail", &asset);
    }
}

#[test]
fn animation_smd_exports_valid_and_round_trips() {
    // A skeleton-only animation SMD written by Blender Source Tools: bones and a 3-frame clip.
    if let Some(asset) = corpus_set(&["smd/bst_ActionFilter_X_Axis.smd"]) {
        export_and_check("smd_animation", &asset);
        let (bytes, _) = export_glb(&asset).unwrap();
        let gltf = gltf::Gltf::from_slice(&bytes).unwrap();
        let blob = gltf.blob.as_deref().unwrap();
        // Every bone's world position at a few times matches bonescope's to-root, converted to Y up.
        let clip = &asset.clips[0];
        for t in [0.0, clip.duration * 0.5, clip.duration] {
            let pose = Pose::from_clip(&asset.skeleton, clip, t);
            let world = gltf_world_matrices(&gltf.document, blob, Some(0), t);
            for (bone, name) in asset.skeleton.names.iter().enumerate() {
                let node = gltf.document.nodes().find(|n| n.name() == Some(name.as_str())).unwrap();
                let ours = asset.axes.to_viewer.transform_point3(pose.to_root[bone].transform_point3(Vec3::ZERO));
                let theirs = world[node.index()].transform_point3(Vec3::ZERO);
                assert!((ours - theirs).length() < 1e-4, "{name} at {t}: {ours} vs {theirs}");
            }
        }
    }
}

#[test]
fn ase_exports_valid_and_round_trips() {
    if let Some(asset) = corpus_set(&["ase/MotionCaptureROM.ase"]) {
        export_and_check("mocap", &asset);
    }
}

#[test]
fn recording_exports_valid_with_hands_gaze_and_camera() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo_recording.bin");
    let asset = io::load_path(&path, &LoadOptions::default()).unwrap();
    let (bytes, report) = export_glb(&asset).unwrap();
    assert_eq!(report.animations, 1);
    let out = std::env::temp_dir().join(format!("bonescope-gltf-rec-{}.glb", std::process::id()));
    std::fs::write(&out, &bytes).unwrap();
    if validator_available() {
        let (errors, messages) = validate(&out);
        assert_eq!(errors, 0, "glTF validator errors: {messages}");
    }
    // The left index tip node follows the recording (converted to the right-handed frame) at a sampled time.
    let gltf = gltf::Gltf::from_slice(&bytes).unwrap();
    let blob = gltf.blob.as_deref().unwrap();
    let doc = &gltf.document;
    let node = doc.nodes().find(|n| n.name() == Some("left IndexTip")).expect("left IndexTip node");
    assert!(doc.nodes().any(|n| n.name() == Some("eye gaze")));
    assert!(doc.nodes().any(|n| n.camera().is_some()));
    let t = 2.0; // on a 30 Hz sample
    let world = gltf_world_matrices(doc, blob, Some(0), t);
    let exported = world[node.index()].transform_point3(Vec3::ZERO);
    let recording = &asset.recordings[0];
    let expected = bonescope::anim::recording::RecordingPose::at(recording, t).left.joints[11].position;
    let expected = asset.axes.to_viewer.transform_point3(expected);
    assert!((exported - expected).length() < 1e-4, "{exported} vs {expected}");
}

// ---------------------------------------------------------------------------------------------------------
// Morph targets and their weights

/// Weights of a glTF `weights` channel at `t` (linear or step between keys, clamped at the ends).
fn channel_weights(times: &[f32], values: &[f32], targets: usize, t: f32, step: bool) -> Vec<f32> {
    let key = |k: usize| values[k * targets..(k + 1) * targets].to_vec();
    let (i, s) = segment(times, t);
    if step || s == 0.0 {
        return key(i);
    }
    key(i).iter().zip(key(i + 1)).map(|(a, b)| a + (b - a) * s).collect()
}

/// The export of `asset` with default weights `defaults` (one per target slot) read back: every mesh has its
/// targets (names, and position deltas converted like the positions), the defaults as its weights, and each clip
/// that drives targets a `weights` channel that gives, at key times and between them, what the controller's
/// binding of the clip gives.
fn assert_morphs_round_trip(name: &str, asset: &Asset, defaults: &[f32]) {
    use bonescope::anim::{MorphBinding, MorphLayout};
    let options = ExportOptions { morph_weights: defaults.to_vec(), ..ExportOptions::default() };
    let (bytes, report) = export_glb_with(asset, &options).expect("export");
    // A clip that animates nothing (an MMS `morphAni` showing the head as it is) has nothing to export.
    let animating = asset.clips.iter().filter(|c| !c.tracks.is_empty() || !c.morph_tracks.is_empty()).count();
    assert_eq!(report.animations, animating, "every clip that animates something exported: {:?}", report.warnings);
    let path = std::env::temp_dir().join(format!("bonescope-gltf-morphs-{}-{name}.glb", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    if validator_available() {
        let (errors, messages) = validate(&path);
        assert_eq!(errors, 0, "glTF validator errors for {name}: {messages}");
    }
    let gltf = gltf::Gltf::from_slice(&bytes).unwrap();
    let blob = gltf.blob.as_deref().unwrap();
    let doc = &gltf.document;
    let layout = MorphLayout::of_meshes(&asset.meshes);
    let convert = asset.axes.to_viewer;
    let exported: Vec<usize> = (0..asset.meshes.len()).filter(|&m| !asset.meshes[m].indices.is_empty()).collect();
    assert_eq!(doc.meshes().count(), exported.len());
    let mut channels_checked = 0;
    for (gmesh, &m) in doc.meshes().zip(&exported) {
        let mesh = &asset.meshes[m];
        let range = layout.mesh_range(m);
        let targets = mesh.morph_targets.len();
        // Targets: names in extras, deltas per vertex.
        let extras: serde_json::Value =
            gmesh.extras().as_ref().map_or(serde_json::Value::Null, |e| serde_json::from_str(e.get()).unwrap());
        let names: Vec<&str> = mesh.morph_targets.iter().map(|t| t.name.as_str()).collect();
        if targets > 0 {
            assert_eq!(extras["targetNames"], serde_json::json!(names), "{name}: target names");
        }
        for primitive in gmesh.primitives() {
            let reader = primitive.reader(|_| Some(blob));
            let read: Vec<Vec<Vec3>> = reader
                .read_morph_targets()
                .map(|(p, _, _)| p.map(|p| p.map(Vec3::from).collect()).unwrap_or_default())
                .collect();
            assert_eq!(read.len(), targets, "{name}: targets of mesh '{}'", mesh.name);
            for (target, deltas) in mesh.morph_targets.iter().zip(&read) {
                let mut want = vec![Vec3::ZERO; mesh.vertex_count()];
                for (&v, d) in target.vertices.iter().zip(&target.position_deltas) {
                    want[v as usize] = convert.transform_vector3(*d);
                }
                let worst = want.iter().zip(deltas).map(|(a, b)| (*a - *b).length()).fold(0.0f32, f32::max);
                assert!(worst < 1e-6, "{name}: target '{}' deltas off by {worst}", target.name);
            }
        }
        // Default weights.
        let want_defaults: Vec<f32> = range.clone().map(|s| defaults.get(s).copied().unwrap_or(0.0)).collect();
        if targets > 0 {
            assert_eq!(gmesh.weights().unwrap(), want_defaults.as_slice(), "{name}: default weights");
        }
        // Weight channels.
        let node = doc.nodes().find(|n| n.mesh().map(|g| g.index()) == Some(gmesh.index())).unwrap();
        for clip in &asset.clips {
            let binding = MorphBinding::new(&layout, clip);
            let drives = binding.driven_slots().iter().any(|&s| range.contains(&(s as usize)));
            let Some(animation) = doc.animations().find(|a| a.name() == Some(clip.name.as_str())) else {
                assert!(clip.tracks.is_empty() && clip.morph_tracks.is_empty(), "{name}: clip '{}'", clip.name);
                continue;
            };
            let channel = animation.channels().find(|c| {
                c.target().node().index() == node.index()
                    && c.target().property() == gltf::animation::Property::MorphTargetWeights
            });
            let Some(channel) = channel else {
                assert!(!drives, "{name}: clip '{}' drives '{}' but has no weights channel", clip.name, mesh.name);
                continue;
            };
            assert!(drives, "{name}: clip '{}' has a weights channel for '{}'", clip.name, mesh.name);
            let reader = channel.reader(|_| Some(blob));
            let times: Vec<f32> = reader.read_inputs().unwrap().collect();
            let values: Vec<f32> = match reader.read_outputs().unwrap() {
                gltf::animation::util::ReadOutputs::MorphTargetWeights(w) => w.into_f32().collect(),
                _ => panic!("not weights"),
            };
            assert_eq!(values.len(), times.len() * targets);
            let step = channel.sampler().interpolation() == gltf::animation::Interpolation::Step;
            let mut probes: Vec<f32> = times.clone();
            probes.extend(times.windows(2).map(|w| w[0] * 0.7 + w[1] * 0.3));
            probes.extend([0.0, clip.duration * 0.37, clip.duration]);
            let mut ours = vec![0.0; layout.len()];
            for t in probes {
                binding.sample(clip, t, &mut ours);
                let theirs = channel_weights(&times, &values, targets, t, step);
                for (k, (a, b)) in ours[range.clone()].iter().zip(&theirs).enumerate() {
                    assert!(
                        (a - b).abs() < 1e-3,
                        "{name}: clip '{}' target '{}' at {t}: {a} (bonescope) vs {b} (glTF)",
                        clip.name,
                        names[k]
                    );
                }
            }
            channels_checked += 1;
        }
    }
    let driving = asset.clips.iter().filter(|c| !c.morph_tracks.is_empty()).count();
    assert!(channels_checked >= driving, "{name}: {channels_checked} weights channels for {driving} clips");
}

/// A quad (two triangles, corners written out) with a VTA of two flexes.
fn quad_with_vta() -> Asset {
    let corners = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    let mut smd =
        String::from("version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\ntriangles\n");
    let mut vta = String::from(
        "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\ntime 1\ntime 2\nend\nvertexanimation\ntime 0\n",
    );
    for (i, [x, y]) in corners.iter().enumerate() {
        if i % 3 == 0 {
            smd += "skin\n";
        }
        smd += &format!("0 {x} {y} 0 0 0 1 {x} {y}\n");
        vta += &format!("{i} {x} {y} 0 0 0 1\n");
    }
    vta += "time 1 # lift\n2 1 1 0.5 0 0 1\n4 1 1 0.5 0 0 1\ntime 2 # pinch\n1 0.8 0.1 0 0 0 1\n";
    vta += "end\n";
    smd += "end\n";
    let mut asset = io::smd::load(smd.as_bytes(), &LoadOptions::default()).unwrap();
    let vta = io::smd::load_vta(vta.as_bytes(), &LoadOptions::default()).unwrap();
    io::smd::attach_vta(&mut asset, &vta).unwrap();
    asset
}

#[test]
fn vta_flexes_export_as_targets_with_a_weights_animation() {
    let asset = quad_with_vta();
    assert_eq!(asset.meshes[0].morph_targets.len(), 2);
    assert!(asset.clips[0].morph_tracks.len() == 2, "the flex clip");
    assert_morphs_round_trip("quad_vta", &asset, &[]);
    // Default weights as `export --morph` writes them.
    assert_morphs_round_trip("quad_vta_defaults", &asset, &[0.25, -1.0]);
}

#[test]
fn psk_morphs_export_as_targets_at_their_default_weights() {
    let mut file = psk_writer::tube(4, 6, 2, 40.0);
    file.morphs = vec![
        (
            "Bulge".to_owned(),
            vec![(Vec3::new(0.0, 0.0, 3.0), Vec3::ZERO, 2), (Vec3::new(1.0, 0.0, 0.0), Vec3::ZERO, 5)],
        ),
        ("Dent".to_owned(), vec![(Vec3::new(0.0, -2.0, 0.0), Vec3::new(0.0, 0.1, 0.0), 7)]),
    ];
    let asset = io::psk::load(&file.to_bytes(), &LoadOptions::default()).unwrap();
    assert_morphs_round_trip("psk_morphs", &asset, &[0.0, 0.0]);
    assert_morphs_round_trip("psk_morphs_set", &asset, &[0.5, 1.0]);
}

#[test]
fn gothic_vertex_animation_exports_as_weights_animations() {
    let Some(dir) = common::corpus_file("mds/gothic/Anims/ASC_MORPHMESH/HEADS/HUM_HEAD_FATBALD") else { return };
    // A morph-mesh file alone, bound to its head, and the head's script with its nine morphAni clips.
    let eat = io::load_path(&dir.join("HUM_HEAD_FATBALD_EAT.ASC"), &LoadOptions::default()).unwrap();
    assert_morphs_round_trip("eat", &eat, &[]);
    let (bound, _) = bonescope::source::load_files(
        &[dir.join("HUM_HEAD_FATBALD.ASC"), dir.join("HUM_HEAD_FATBALD_EMOTIONS.ASC")],
        &LoadOptions::default(),
    )
    .into_result()
    .unwrap();
    assert_morphs_round_trip("emotions_on_head", &bound, &[]);
    let mms = io::load_path(&dir.join("HUM_HEAD_FATBALD.MMS"), &LoadOptions::default()).unwrap();
    assert_eq!(mms.clips.len(), 9);
    assert_morphs_round_trip("fatbald_mms", &mms, &[]);
}

#[test]
fn corpus_vta_alone_exports_its_mesh_and_flex_clip() {
    let Some(path) = common::corpus_file("vta/bst_Cube_NoArmature.vta") else { return };
    let vta = io::load_path(&path, &LoadOptions::default()).unwrap();
    assert_eq!(vta.meshes[0].triangle_count(), 12, "the cube's faces, rebuilt from the corner order");
    assert_morphs_round_trip("cube_vta", &vta, &[]);
}

#[test]
fn retargeted_clips_export_as_they_play() {
    use bonescope::scene::{Retarget, RootMotion, TranslationMode};
    let Some(dir) = common::corpus_file("qc/halflife/models/headcrab") else { return };
    let files = [dir.join("reference.smd"), dir.join("walk.smd")];
    let load = |retarget: Retarget| {
        let opts = LoadOptions { retarget, ..LoadOptions::default() };
        bonescope::source::load_files(&files, &opts).into_result().unwrap().0
    };
    let plain = load(Retarget::default());
    let asset =
        load(Retarget { translation: TranslationMode::Scaled, root: RootMotion::Ground, ..Retarget::default() });
    // The retargeting changes the pose (the root no longer bobs) ...
    let t = 0.5;
    let moved = |a: &Asset| Pose::from_clip(&a.skeleton, &a.clips[0], t).to_root[0].w_axis;
    assert_ne!(moved(&plain), moved(&asset));
    // ... and the export plays exactly what bonescope plays.
    export_and_check("headcrab_retargeted", &asset);
}
