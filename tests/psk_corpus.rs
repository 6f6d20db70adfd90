//! PSK/PSA on the real files of the corpus: the counts the corpus README states, the bind-pose identity and
//! skinning check on every PSK, the winding and bone placement that prove the conventions, and the pendulum
//! animation (rigid, and it swings). Skipped (with a message) when `BONESCOPE_CORPUS` is not set.

mod common;
mod psk_writer;

use std::path::{Path, PathBuf};

use bonescope::anim::{Pose, bind_pose_error, skin_mesh};
use bonescope::io::{LoadOptions, psa, psk};
use bonescope::scene::{Asset, Clip, Mesh, Skeleton};
use bonescope::source::{Source, load_set};
use glam::{Mat4, Quat, Vec3};

fn opts_for(path: &Path) -> LoadOptions {
    LoadOptions { base_dir: path.parent().map(Path::to_path_buf), ..LoadOptions::default() }
}

fn load_psk(relative: &str) -> Option<(Asset, psk::PskFile)> {
    let path = common::corpus_file(relative)?;
    let bytes = std::fs::read(&path).unwrap();
    let raw = psk::parse(&bytes).unwrap();
    let asset = psk::load(&bytes, &opts_for(&path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some((asset, raw))
}

fn load_psa(relative: &str) -> Option<(Asset, psa::PsaFile)> {
    let path = common::corpus_file(relative)?;
    let bytes = std::fs::read(&path).unwrap();
    let raw = psa::parse(&bytes).unwrap();
    let asset = psa::load(&bytes, &opts_for(&path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some((asset, raw))
}

fn all_corpus_psks() -> Vec<PathBuf> {
    let Some(dir) = common::corpus() else { return Vec::new() };
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir.join("psk"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("psk") || e.eq_ignore_ascii_case("pskx"))
        })
        .collect();
    out.sort();
    out
}

fn bbox_diagonal(points: &[Vec3]) -> f32 {
    let min = points.iter().fold(Vec3::splat(f32::MAX), |a, p| a.min(*p));
    let max = points.iter().fold(Vec3::splat(f32::MIN), |a, p| a.max(*p));
    (max - min).length()
}

#[test]
fn examplemesh_counts() {
    let Some((asset, raw)) = load_psk("psk/examplemesh.psk") else { return };
    assert_eq!(raw.points.len(), 58);
    assert_eq!(raw.wedges.len(), 129);
    assert_eq!(raw.faces.len(), 108);
    assert_eq!(raw.materials.len(), 1);
    assert_eq!(raw.bones.len(), 3);
    assert_eq!(raw.weights.len(), 58);
    // Assembled: one vertex per wedge, one triangle per face, nothing dropped.
    assert_eq!(asset.meshes.len(), 1);
    let mesh = &asset.meshes[0];
    assert_eq!(mesh.vertex_count(), 129);
    assert_eq!(mesh.triangle_count(), 108);
    assert_eq!(asset.materials.len(), 1);
    assert_eq!(asset.skeleton.names, ["Bone01", "Bone02", "Bone03"]);
    assert_eq!(asset.skeleton.parents, [None, Some(0), Some(1)]);
    mesh.validate(asset.skeleton.len()).unwrap();
    assert_eq!(mesh.subsets.len(), 1);
    // Every point has exactly one weight of 1: 50 rod points on Bone02, 8 block points on Bone01.
    assert!(mesh.weights.iter().all(|w| *w == [1.0, 0.0, 0.0, 0.0]));
    // The texture "1- Default" is not next to the file: reported, not fatal.
    assert!(
        asset.warnings.iter().any(|w| w.message.contains("no texture for material 0 '1- Default'")),
        "{:?}",
        asset.warnings
    );
}

#[test]
fn suzanne_loads_unweighted() {
    let Some((asset, raw)) = load_psk("psk/Suzanne.psk") else { return };
    assert_eq!(raw.points.len(), 507);
    assert_eq!(raw.wedges.len(), 555);
    assert_eq!(raw.faces.len(), 968);
    assert_eq!(raw.materials.len(), 1);
    assert_eq!(raw.bones.len(), 1);
    assert_eq!(raw.weights.len(), 0);
    let mesh = &asset.meshes[0];
    assert_eq!(mesh.vertex_count(), 555);
    assert_eq!(mesh.triangle_count(), 968);
    assert_eq!(asset.skeleton.names, ["ROOT"]);
    mesh.validate(1).unwrap();
    // The empty RAWWEIGHTS chunk: every point bound to the root, and the count is reported.
    assert!(mesh.joints.iter().zip(&mesh.weights).all(|(j, w)| j[0] == 0 && *w == [1.0, 0.0, 0.0, 0.0]));
    assert!(
        asset
            .warnings
            .iter()
            .any(|w| w.message.contains("507 of 507 points have no weight") && w.message.contains("'ROOT'")),
        "{:?}",
        asset.warnings
    );
    // It shows: finite positions spread over a real volume, unit normals.
    assert!(bbox_diagonal(&mesh.positions) > 1.0);
    assert!(mesh.normals.iter().all(|n| (n.length() - 1.0).abs() < 1e-4));
}

#[test]
fn pendulum_counts_and_names_match_the_mesh() {
    let Some((anim, raw)) = load_psa("psa/pendulum.psa") else { return };
    let Some((mesh, _)) = load_psk("psk/examplemesh.psk") else { return };
    assert_eq!(raw.bones.len(), 3);
    assert_eq!(raw.sequences.len(), 1);
    assert_eq!(raw.keys.len(), 60);
    assert!(anim.meshes.is_empty());
    assert_eq!(anim.skeleton.len(), 3);
    assert_eq!(anim.clips.len(), 1);
    let clip = &anim.clips[0];
    assert_eq!(clip.name, "Swinging");
    assert_eq!(clip.frame_count, 20);
    assert_eq!(clip.frame_rate, 30.0);
    assert!((clip.duration - 20.0 / 30.0).abs() < 1e-6);
    assert_eq!(clip.key_count(), 3 * 20 * 2);
    let names: Vec<&str> = clip.tracks.iter().map(|t| t.bone_name.as_str()).collect();
    assert_eq!(names, mesh.skeleton.names);
    assert!(anim.warnings.is_empty(), "{:?}", anim.warnings);

    let mut bound = mesh.clone();
    let report = bound.bind_animations(anim);
    assert!(report.unmatched_tracks.is_empty() && report.unanimated_bones.is_empty(), "{report:?}");
}

/// For every PSK of the corpus: offset × to-root is the identity, and skinning the bind pose gives back the
/// PNTS0000 points of every wedge.
#[test]
fn every_corpus_psk_reproduces_its_points_in_the_bind_pose() {
    let files = all_corpus_psks();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let raw = psk::parse(&bytes).unwrap();
        let asset = psk::load(&bytes, &opts_for(path)).unwrap();
        let worst = bind_pose_error(&asset.skeleton).into_iter().fold(0.0f32, f32::max);
        assert!(worst < 1e-4, "{}: offset × to-root differs from the identity by {worst}", path.display());

        let mesh = &asset.meshes[0];
        let pose = Pose::bind(&asset.skeleton);
        let (mut positions, mut normals) = (Vec::new(), Vec::new());
        skin_mesh(mesh, &pose.palette, &mut positions, &mut normals);
        let tolerance = 1e-4 * bbox_diagonal(&raw.points);
        for (i, wedge) in raw.wedges.iter().enumerate() {
            let expected = raw.points[raw.wedge_point(wedge) as usize];
            let error = (positions[i] - expected).length();
            assert!(
                error <= tolerance,
                "{}: wedge {i} skinned to {} instead of {expected}",
                path.display(),
                positions[i]
            );
        }
        println!("{}: bind error {worst:.2e}, {} wedges reproduce PNTS0000", path.display(), raw.wedges.len());
    }
}

/// The winding convention, measured: with the right-handed cross product on the raw coordinates the corpus
/// meshes enclose a negative volume (clockwise from outside), so `clockwise = true`, and the normals point the
/// way the winding says is out.
#[test]
fn corpus_meshes_wind_clockwise_and_normals_point_out() {
    for path in all_corpus_psks() {
        let bytes = std::fs::read(&path).unwrap();
        let asset = psk::load(&bytes, &LoadOptions::default()).unwrap();
        let mesh = &asset.meshes[0];
        assert!(mesh.clockwise);
        assert!(!asset.axes.mirrors(), "PSK data is right-handed: turned into the viewer frame, not mirrored");
        let volume: f32 = mesh
            .indices
            .chunks_exact(3)
            .map(|t| {
                let [a, b, c] = [t[0], t[1], t[2]].map(|i| mesh.positions[i as usize]);
                a.dot(b.cross(c)) / 6.0
            })
            .sum();
        assert!(volume < 0.0, "{}: signed volume {volume}", path.display());
        // Normals agree with the winding: a clockwise triangle's outward normal is (c − a) × (b − a), and the
        // file's vertex normals point the same way for nearly every triangle.
        let agree = mesh
            .indices
            .chunks_exact(3)
            .filter(|t| {
                let [a, b, c] = [t[0], t[1], t[2]].map(|i| i as usize);
                let face = (mesh.positions[c] - mesh.positions[a]).cross(mesh.positions[b] - mesh.positions[a]);
                face.dot(mesh.normals[a] + mesh.normals[b] + mesh.normals[c]) > 0.0
            })
            .count();
        let triangles = mesh.indices.len() / 3;
        assert!(agree * 10 >= triangles * 9, "{}: {agree} of {triangles} triangles' normals agree", path.display());
        // The rotation into the viewer frame keeps the winding: still clockwise there, as the renderer culls it.
        let m = asset.axes.to_viewer;
        let turned: f32 = mesh
            .indices
            .chunks_exact(3)
            .map(|t| {
                let [a, b, c] = [t[0], t[1], t[2]].map(|i| m.transform_point3(mesh.positions[i as usize]));
                a.dot(b.cross(c)) / 6.0
            })
            .sum();
        assert!((turned - volume).abs() <= volume.abs() * 1e-3, "{}: {turned} vs {volume}", path.display());
    }
}

fn world_origins(skeleton: &Skeleton, pose: &Pose) -> Vec<Vec3> {
    (0..skeleton.len()).map(|i| pose.to_root[i].transform_point3(Vec3::ZERO)).collect()
}

/// Skins at `time` and returns (positions, to-root matrices).
fn skin_at(asset: &Asset, clip: &Clip, time: f32) -> (Vec<Vec3>, Vec<Mat4>) {
    let pose = Pose::from_clip(&asset.skeleton, clip, time);
    let (mut positions, mut normals) = (Vec::new(), Vec::new());
    skin_mesh(&asset.meshes[0], &pose.palette, &mut positions, &mut normals);
    (positions, pose.to_root)
}

fn edges(mesh: &Mesh) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = mesh
        .indices
        .chunks_exact(3)
        .flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])])
        .map(|(a, b)| (a.min(b) as usize, a.max(b) as usize))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Largest relative edge-length change against the bind pose.
fn max_stretch(mesh: &Mesh, positions: &[Vec3]) -> f32 {
    edges(mesh)
        .iter()
        .filter_map(|&(a, b)| {
            let bind = (mesh.positions[a] - mesh.positions[b]).length();
            (bind > 1e-4).then(|| ((positions[a] - positions[b]).length() - bind).abs() / bind)
        })
        .fold(0.0, f32::max)
}

/// The pendulum in examplemesh: Bone02 is the pivot at the top of the rod (z = 0) and Bone03 the lowest bone at
/// its bottom (z = −288). The quaternion layout (x, y, z, w) puts them there; read as (w, x, y, z) the pivot would
/// float at z = 256, above the block.
#[test]
fn examplemesh_bones_sit_at_the_pivot_and_the_rod_end() {
    let Some((asset, _)) = load_psk("psk/examplemesh.psk") else { return };
    let origins = world_origins(&asset.skeleton, &Pose::bind(&asset.skeleton));
    assert!(origins[0].abs_diff_eq(Vec3::new(0.0, 0.0, 128.0), 1e-3), "{origins:?}");
    assert!(origins[1].abs_diff_eq(Vec3::ZERO, 1e-3), "{origins:?}");
    assert!(origins[2].abs_diff_eq(Vec3::new(0.0, 0.0, -288.0), 1e-3), "{origins:?}");
    // The rod (points bound to Bone02) hangs between the pivot and the lowest bone.
    let mesh = &asset.meshes[0];
    for (p, j) in mesh.positions.iter().zip(&mesh.joints) {
        if j[0] == 1 {
            assert!((-288.001..=0.001).contains(&p.z), "{p}");
        }
    }
}

/// pendulum.psa on examplemesh.psk, sampled between and on frames: edge lengths stay within 5% of the bind pose
/// and the lowest bone swings through an arc.
#[test]
fn pendulum_swings_rigidly() {
    let Some((mut asset, _)) = load_psk("psk/examplemesh.psk") else { return };
    let Some((anim, _)) = load_psa("psa/pendulum.psa") else { return };
    asset.bind_animations(anim);
    let clip = asset.clips[0].clone();
    let mut lowest = Vec::new();
    let mut worst_stretch = 0.0f32;
    let samples = 41;
    for s in 0..samples {
        let t = clip.duration * s as f32 / (samples - 1) as f32;
        let (positions, to_root) = skin_at(&asset, &clip, t);
        worst_stretch = worst_stretch.max(max_stretch(&asset.meshes[0], &positions));
        lowest.push(to_root[2].transform_point3(Vec3::ZERO));
        // The lowest bone stays on the circle of radius 288 around the pivot (rigid rod).
        let r = (lowest.last().unwrap() - to_root[1].transform_point3(Vec3::ZERO)).length();
        assert!((r - 288.0).abs() < 0.05, "t = {t}: rod length {r}");
    }
    let min_y = lowest.iter().map(|p| p.y).fold(f32::MAX, f32::min);
    let max_y = lowest.iter().map(|p| p.y).fold(f32::MIN, f32::max);
    let angle = |p: Vec3| p.y.atan2(-p.z).to_degrees();
    let (a0, a1) = (angle(lowest[0]), angle(*lowest.iter().max_by(|a, b| angle(**a).total_cmp(&angle(**b))).unwrap()));
    println!(
        "pendulum: worst edge stretch {:.4}%, lowest bone y from {min_y:.1} to {max_y:.1} cm, start angle {a0:.1}°, \
         extreme {a1:.1}°",
        worst_stretch * 100.0
    );
    assert!(worst_stretch < 0.05, "edges stretch by {worst_stretch}");
    assert!(max_y - min_y > 100.0, "the pendulum does not visibly swing: y spans {min_y}..{max_y}");
    // The swing is in the y-z plane (about the pivot's x axis): x stays put.
    assert!(lowest.iter().all(|p| p.x.abs() < 0.05));
}

/// The rotation convention, compared with its alternatives on the corpus. Reports a table (run with
/// `--nocapture`); asserts what the corpus can tell apart. It cannot tell "conjugate non-roots" from its
/// alternatives (the root is a half-turn, equal to its own conjugate; the non-root bind rotations are the
/// identity; every edge lies within one bone's points), so that choice rests on the spec and the public
/// importers; the tests with files this project writes prove the PSK and PSA sides agree.
#[test]
fn rotation_convention_against_alternatives() {
    let Some((asset, _)) = load_psk("psk/examplemesh.psk") else { return };
    let Some((anim, _)) = load_psa("psa/pendulum.psa") else { return };
    let mut chosen = asset.clone();
    chosen.bind_animations(anim);

    // Re-express the loaded data in an alternative convention: `f(bone, q_loaded)`.
    let variant = |f: &dyn Fn(usize, Quat) -> Quat| {
        let mut a = chosen.clone();
        for (i, local) in a.skeleton.bind_local.iter_mut().enumerate() {
            local.rotation = f(i, local.rotation);
        }
        a.skeleton.recompute_inverse_bind();
        for track in &mut a.clips[0].tracks {
            let bone = a.skeleton.find(&track.bone_name).unwrap();
            for q in &mut track.rotation.values {
                *q = f(bone, *q);
            }
        }
        a
    };
    let candidates: Vec<(&str, Asset)> = vec![
        ("conjugate non-root (chosen)", chosen.clone()),
        ("no conjugation", variant(&|i, q| if i == 0 { q } else { q.conjugate() })),
        ("conjugate all", variant(&|_, q| q.conjugate())),
        ("conjugate root only", variant(&|i, q| if i == 0 { q.conjugate() } else { q })),
        (
            "(w,x,y,z) order",
            variant(&|i, q| {
                // Undo the convention to get the file's four floats, read them as (w, x, y, z), redo it.
                let [a, b, c, d] = (if i == 0 { q } else { q.conjugate() }).to_array();
                let misread = Quat::from_xyzw(b, c, d, a).normalize();
                if i == 0 { misread } else { misread.conjugate() }
            }),
        ),
    ];
    println!("{:<30} {:>10} {:>10} {:>12} {:>16}", "convention", "bind err", "stretch %", "pivot z", "lowest y span");
    for (label, a) in &candidates {
        let bind_error = bind_pose_error(&a.skeleton).into_iter().fold(0.0f32, f32::max);
        let clip = a.clips[0].clone();
        let mut stretch = 0.0f32;
        let mut ys = Vec::new();
        for s in 0..21 {
            let (positions, to_root) = skin_at(a, &clip, clip.duration * s as f32 / 20.0);
            stretch = stretch.max(max_stretch(&a.meshes[0], &positions));
            ys.push(to_root[2].transform_point3(Vec3::ZERO).y);
        }
        let pivot = Pose::bind(&a.skeleton).to_root[1].transform_point3(Vec3::ZERO);
        let span = ys.iter().fold(f32::MIN, |m, y| m.max(*y)) - ys.iter().fold(f32::MAX, |m, y| m.min(*y));
        println!("{label:<30} {bind_error:>10.1e} {:>10.4} {:>12.1} {span:>16.1}", stretch * 100.0, pivot.z);
        if label.starts_with("conjugate non-root") {
            assert!(bind_error < 1e-4 && stretch < 0.05 && pivot.z.abs() < 1e-3 && span > 100.0);
        }
        if label.starts_with("(w,x,y,z)") {
            // The wrong layout puts the pivot far outside the mesh (which spans z −288..128 around it).
            assert!(pivot.z > 200.0, "pivot at {pivot}");
        }
    }
}

fn load_files(relative: &[&str]) -> Option<bonescope::io::LoadedSet> {
    let corpus = common::corpus()?;
    let sources: Vec<Source> = relative.iter().map(|r| Source::File(corpus.join(r))).collect();
    let set = load_set(&sources, &LoadOptions::default());
    assert!(set.errors.is_empty(), "{:?}", set.errors);
    Some(set)
}

/// The UE1 game's gnome: its PSA stores children before their parents (bone 1 'GNOME Pelvis' names parent 2),
/// which plays no part in binding: it loads, says how it was read, and all 38 tracks of its 22 sequences bind.
#[test]
fn gnome_psa_with_children_before_parents_loads_and_binds_every_track() {
    let Some((alone, _)) = load_psa("psa/hp2_skgnomeAnims.psa") else { return };
    assert_eq!(alone.skeleton.len(), 38);
    assert_eq!(alone.skeleton.validate(), Ok(()));
    assert_eq!(alone.clips.len(), 22);
    assert!(alone.warnings.iter().any(|w| w.message.contains("children before their parents")), "{:?}", alone.warnings);
    let Some(set) = load_files(&["psk/hp2_skgnomeMesh.psk", "psa/hp2_skgnomeAnims.psa"]) else { return };
    let report = &set.reports[0];
    assert_eq!(report.clips.len(), 22);
    assert_eq!(report.matched.len(), 38, "{:?}", report.matched);
    assert!(report.unmatched_tracks.is_empty() && report.unanimated_bones.is_empty(), "{report:?}");
    assert!(report.ambiguous_names.is_empty(), "same list, same order: bound by index");
}

/// A Biped rig that repeats names (two `bip01 Head`, two `bip01 L Finger0`, as the UE1 game's characters do):
/// with the PSK's own bone list every track binds to its own bone, and each of the pair moves.
#[test]
fn duplicate_bone_names_bind_every_track_of_the_pair() {
    use psk_writer::{Bone, Psa, Sequence};
    let names = ["bip01", "bip01 Head", "bip01 L Finger0", "bip01 Head", "bip01 L Finger0"];
    let bones: Vec<Bone> = names
        .iter()
        .enumerate()
        .map(|(i, n)| Bone::new(n, if i == 0 { 0 } else { i as i32 - 1 }, Quat::IDENTITY, Vec3::new(0.0, 0.0, 10.0)))
        .collect();
    let mut mesh = psk_writer::tube(4, 6, names.len(), 50.0);
    mesh.bones = bones.clone();
    // One frame: every bone but the root turned 30° about X, so each bone's own key shows in its pose.
    let turn = Quat::from_rotation_x(0.5);
    let keys: Vec<(Vec3, Quat)> =
        (0..names.len()).map(|i| (Vec3::new(0.0, 0.0, 10.0), if i == 0 { Quat::IDENTITY } else { turn })).collect();
    let psa = Psa {
        bones,
        sequences: vec![Sequence { name: "turn".into(), rate: 30.0, first_frame: 0, frames: 1, total_bones: 5 }],
        keys,
        ..Psa::default()
    };
    let mut model = psk::load(&mesh.to_bytes(), &LoadOptions::default()).unwrap();
    let animation = psa::load(&psa.to_bytes(), &LoadOptions::default()).unwrap();
    let report = model.bind_animations(animation.clone());
    assert_eq!(report.matched.len(), 5, "{:?}", report.matched);
    assert!(report.unanimated_bones.is_empty(), "{:?}", report.unanimated_bones);
    let pose = Pose::from_clip(&model.skeleton, &model.clips[0], 0.0);
    for (b, name) in names.iter().enumerate().skip(1) {
        assert!(pose.local[b].rotation.abs_diff_eq(turn, 1e-5), "bone {b} '{name}' is not animated");
    }
    // Another order of the same names: bound by name, in order, and the repeated names are reported.
    let mut shuffled = animation;
    shuffled.clips[0].tracks.swap(1, 2);
    let mut model = psk::load(&mesh.to_bytes(), &LoadOptions::default()).unwrap();
    let report = model.bind_animations(shuffled);
    assert_eq!(report.matched.len(), 5);
    assert_eq!(report.ambiguous_names, ["bip01 L Finger0", "bip01 Head"]);
}

/// A modular character: the kit's body and T-shirt are separate PSKs on one 70-bone skeleton, and the walk PSA
/// names the bones with other case, in another order, with 22 face bones more. Opened together they are one
/// character: both meshes skinned, the walk drives both, and the shirt stays on the body while it walks.
#[test]
fn kit_body_shirt_and_walk_open_as_one_character() {
    let Some(set) = load_files(&[
        "psk/kit_SK_MaleBase_01_Body.psk",
        "psk/kit_SK_Male_TShirt_01.psk",
        "psa/kit_MOB1_M1_Walk_Relaxed_F_Loop_IP.psa",
    ]) else {
        return;
    };
    let asset = set.asset.as_ref().unwrap();
    assert_eq!(asset.meshes.len(), 2);
    assert_eq!(asset.parts.len(), 2);
    assert_eq!(asset.skeleton.len(), 70, "the shirt's bones are the body's");
    let part = set.reports[0].part.as_ref().expect("the shirt joined as a part");
    assert_eq!((part.meshes, part.bones_matched), (1, 70));
    assert!(part.bones_added.is_empty() && part.bind_differences.is_empty(), "{part:?}");
    let walk = &set.reports[1];
    assert_eq!(walk.clips.len(), 1);
    assert_eq!(walk.matched.len(), 70, "every body bone is driven");
    assert_eq!(walk.unmatched_tracks.len(), 22, "the face bones the body lacks");
    assert!(walk.unanimated_bones.is_empty());
    // Mid-walk, each shirt vertex keeps its distance to the nearest body vertex (within 2 cm for nine in ten).
    let clip = &asset.clips[0];
    let pose = Pose::from_clip(&asset.skeleton, clip, clip.duration * 0.5);
    let skinned = |mesh: &Mesh| {
        let (mut p, mut n) = (Vec::new(), Vec::new());
        skin_mesh(mesh, &pose.palette, &mut p, &mut n);
        p
    };
    let (body, shirt) = (&asset.meshes[0], &asset.meshes[1]);
    let (body_now, shirt_now) = (skinned(body), skinned(shirt));
    let moved = shirt.positions.iter().zip(&shirt_now).filter(|(a, b)| a.distance(**b) > 1.0).count();
    assert!(moved * 2 > shirt.positions.len(), "the walk moves the shirt ({moved} vertices moved)");
    let nearest = |points: &[Vec3], p: Vec3| {
        (0..points.len()).min_by(|&a, &b| points[a].distance(p).total_cmp(&points[b].distance(p))).unwrap()
    };
    let mut changes: Vec<f32> = shirt
        .positions
        .iter()
        .enumerate()
        .step_by(7)
        .map(|(i, &p)| {
            let n = nearest(&body.positions, p);
            (shirt_now[i].distance(body_now[n]) - p.distance(body.positions[n])).abs()
        })
        .collect();
    changes.sort_by(f32::total_cmp);
    let p90 = changes[changes.len() * 9 / 10];
    assert!(p90 < 2.0, "the shirt drifts off the body: 90th percentile {p90} cm");
}
