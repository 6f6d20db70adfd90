//! Compiled Gothic (ZenGin) files: every corpus sample reads with the values ZenKit's tests state for it
//! (`tests/TestModelHierarchy.cc`, `TestModelMesh.cc`, `TestMultiResolutionMesh.cc`, `TestMorphMesh.cc`,
//! `TestModelAnimation.cc`), opens as a character, and the compiled `s_FistRun` of both games plays on the human
//! body it was compiled for (`zengin/HUM_BODY_NAKED0.ASC`): node indices bound in the compiler's order, the
//! checksum agreeing, the poses the fist-fighting stance the animation is.

// The expected values are written as ZenKit's tests write them.
#![allow(clippy::excessive_precision)]

mod common;

use std::path::PathBuf;

use bonescope::io::zengin::{self, man, mdh, mdm, mmb, mrm};
use bonescope::io::{LoadOptions, load_path};
use bonescope::scene::Format;
use glam::{Quat, Vec2, Vec3};

fn file(relative: &str) -> Option<PathBuf> {
    common::corpus_file(&format!("zengin/{relative}"))
}

fn bytes(relative: &str) -> Option<Vec<u8>> {
    file(relative).map(|p| std::fs::read(p).unwrap())
}

fn close(a: Vec3, b: Vec3) -> bool {
    a.abs_diff_eq(b, 1e-4)
}

#[test]
fn hierarchy0_holds_what_zenkit_states() {
    let Some(b) = bytes("hierarchy0.mdh") else { return };
    assert_eq!(zengin::sniff(&b), Some(Format::ZenMdh));
    let h = mdh::read(&b).unwrap();
    assert_eq!(h.nodes.len(), 7);
    assert_eq!((h.nodes[0].name.as_str(), h.nodes[0].parent), ("BIP01 MUEHLE", None));
    assert!(h.nodes[0].transform.abs_diff_eq(glam::Mat4::from_scale(Vec3::new(-1.0, 1.0, -1.0)), 1e-6));
    assert_eq!((h.nodes[1].name.as_str(), h.nodes[1].parent), ("BIP01 NABE", Some(0)));
    assert!(close(h.nodes[1].transform.w_axis.truncate(), Vec3::new(0.0, 0.0, -394.040466)));
    assert!(close(h.bbox.0, Vec3::new(-497.17572, -0.575592041, -105.896698)));
    assert!(close(h.bbox.1, Vec3::new(515.717346, 364.943878, 893.536743)));
    assert!(close(h.collision_bbox.0, Vec3::new(-248.58786, -0.402914435, -52.948349)));
    assert!(close(h.collision_bbox.1, Vec3::new(257.858673, 291.955109, 446.768372)));
    assert!(close(h.root_translation, Vec3::new(0.0, 0.0, -394.040466)));
    assert!(h.checksum_matches_names(), "the stored checksum is the CRC-32 of the node names");
    // Written again as the engine writes it, it reads the same.
    let again = mdh::read(&mdh::write(&h)).unwrap();
    assert_eq!(
        (again.nodes, again.checksum, again.root_translation),
        (h.nodes.clone(), h.checksum, h.root_translation)
    );
    let asset = load_path(&file("hierarchy0.mdh").unwrap(), &LoadOptions::default()).unwrap();
    assert_eq!((asset.format, asset.skeleton.len(), asset.meshes.len()), (Some(Format::ZenMdh), 7, 0));
    // The root stands at its stored translation.
    let root = asset.skeleton.bind_to_root()[0].w_axis.truncate();
    assert!(close(root, Vec3::new(0.0, 0.0, -394.040466)), "{root}");
}

#[test]
fn secretdoor_has_one_node_mesh_of_eight_positions() {
    let Some(b) = bytes("secretdoor.mdm") else { return };
    assert_eq!(zengin::sniff(&b), Some(Format::ZenMdm));
    let mm = mdm::read(&b).unwrap();
    assert_eq!(mm.attachments.len(), 1);
    assert_eq!(mm.attachments[0].0, "BIP01 DOOR");
    assert_eq!(mm.attachments[0].1.positions.len(), 8);
    assert!(mm.soft_skins.is_empty());
    let asset = load_path(&file("secretdoor.mdm").unwrap(), &LoadOptions::default()).unwrap();
    assert_eq!(asset.meshes.len(), 1);
    assert!(asset.triangle_count() > 0);
}

#[test]
fn smoke_waterpipe_soft_skin_holds_what_zenkit_states() {
    let Some(b) = bytes("smoke_waterpipe.mdm") else { return };
    let mm = mdm::read(&b).unwrap();
    assert_eq!(mm.soft_skins.len(), 1);
    let sk = &mm.soft_skins[0];
    assert_eq!((sk.proto.positions.len(), sk.proto.normals.len()), (115, 115));
    assert_eq!((sk.proto.materials.len(), sk.proto.submeshes.len()), (1, 1));
    assert_eq!(sk.ranges.len(), 115);
    let w = |v: usize| sk.weights_of(v).to_vec();
    assert_eq!(w(0).len(), 1);
    assert_eq!((w(0)[0].weight, w(0)[0].node), (1.0, 0));
    assert!(close(w(0)[0].position, Vec3::new(-5.49776077, 35.086731, -2.64756012)));
    assert_eq!((w(62)[0].weight, w(62)[0].node), (1.0, 4));
    assert!(close(w(62)[0].position, Vec3::new(0.260997772, 18.0412712, -23.9048882)));
    assert_eq!((w(114)[0].weight, w(114)[0].node), (1.0, 0));
    assert!(close(w(114)[0].position, Vec3::new(1.05304337, 71.0284958, 1.32049942)));
    assert_eq!(sk.nodes.len(), 6);
    assert_eq!(&sk.nodes[..3], &[0, 5, 3]);
    let asset = load_path(&file("smoke_waterpipe.mdm").unwrap(), &LoadOptions::default()).unwrap();
    assert_eq!(asset.meshes.len(), 1);
    assert_eq!(asset.vertex_count(), sk.proto.wedge_count());
    assert!(asset.warnings.iter().any(|w| w.message.contains("no hierarchy")), "{:?}", asset.warnings);
}

#[test]
fn mesh0_holds_what_zenkit_states() {
    let Some(b) = bytes("mesh0.mrm") else { return };
    assert_eq!(zengin::sniff(&b), Some(Format::ZenMrm));
    let mesh = mrm::read(&b).unwrap();
    assert_eq!(mesh.positions.len(), 8);
    assert!(close(mesh.positions[0], Vec3::new(200.0, 398.503906, 200.0)));
    assert!(close(mesh.positions[1], Vec3::new(-200.0, 398.503906, 200.0)));
    assert!(close(mesh.positions[7], Vec3::new(-200.0, 0.0, -200.0)));
    assert!(mesh.normals.is_empty());
    assert_eq!(mesh.submeshes.len(), 1);
    assert_eq!(mesh.materials[0].name, "EVT_TPL_GITTERKAEFIG_01");
    assert_eq!(mesh.materials[0].texture, "OCODFLGATELI.TGA");
    let sub = &mesh.submeshes[0];
    assert_eq!(sub.triangles.len(), 16);
    assert_eq!(
        [sub.triangles[0], sub.triangles[1], sub.triangles[14], sub.triangles[15]],
        [[26, 19, 12], [8, 13, 18], [2, 6, 29], [28, 20, 3]]
    );
    assert_eq!(sub.wedges.len(), 32);
    assert!(close(sub.wedges[0].normal, Vec3::new(0.0, 0.0, -1.0)));
    assert!(sub.wedges[0].uv.abs_diff_eq(Vec2::new(-1.50000048, -1.49251938), 1e-5));
    assert_eq!((sub.wedges[0].position, sub.wedges[1].position, sub.wedges[31].position), (4, 4, 7));
    let asset = load_path(&file("mesh0.mrm").unwrap(), &LoadOptions::default()).unwrap();
    assert_eq!((asset.vertex_count(), asset.triangle_count(), asset.materials.len()), (32, 16, 1));
    // The triangles wind clockwise seen from the side their wedge normals face (Direct3D's front), in the file's
    // frame: every face's normal points against (b − a) × (c − a).
    for t in &sub.triangles {
        let [a, b, c] = t.map(|w| mesh.positions[usize::from(sub.wedges[usize::from(w)].position)]);
        let n: Vec3 = t.iter().map(|&w| sub.wedges[usize::from(w)].normal).sum();
        assert!((b - a).cross(c - a).dot(n) < 0.0, "{t:?}");
    }
    assert!(asset.meshes[0].clockwise);
    assert_eq!(asset.materials[0].texture.as_ref().map(|t| t.name.as_str()), Some("OCODFLGATELI.TGA"));
}

#[test]
fn morph0_holds_what_zenkit_states() {
    let Some(b) = bytes("morph0.mmb") else { return };
    assert_eq!(zengin::sniff(&b), Some(Format::ZenMmb));
    let m = mmb::read(&b).unwrap();
    assert_eq!(m.name, "ITRWSMALLBOW");
    assert_eq!(m.morph_positions.len(), 28);
    assert!(close(m.morph_positions[0], Vec3::new(-40.9461403, -1.73638999, -26.7512894)));
    assert!(close(m.morph_positions[1], Vec3::new(-29.6147194, -1.97599006, -9.19756984)));
    assert_eq!(m.animations.len(), 4);
    let a = &m.animations[1];
    assert_eq!((a.name.as_str(), a.layer, a.flags), ("S_SHOOT", 1, 0));
    assert_eq!(
        (a.blend_in_speed, a.blend_out_speed, a.hold, a.speed),
        (0.0100000007, -0.0100000007, 400.0, 0.0250000004)
    );
    assert_eq!(a.vertices, [25, 26, 27]);
    assert_eq!((a.frame_count, a.samples.len()), (10, 30));
    assert!(close(a.samples[0], Vec3::new(0.519770026, 0.0, 1.27206039)));
    assert!(close(a.samples[9], Vec3::ZERO));
    assert!(close(a.samples[19], Vec3::new(-8.51126003, 0.0, -20.8299408)));
    assert_eq!(m.sources.len(), 4);
    let (date, name) = &m.sources[1];
    assert_eq!((date.year, date.month, date.day, date.hour, date.minute, date.second), (2000, 5, 8, 9, 13, 58));
    assert_eq!(name, "ITRWSMALLBOWSHOOT.ASC");
    // As a character: each animation a clip, each frame a morph target, played by tweening weights.
    let asset = load_path(&file("morph0.mmb").unwrap(), &LoadOptions::default()).unwrap();
    let names: Vec<&str> = asset.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["S_NORMAL", "S_SHOOT", "S_READY", "S_RELAX"]);
    let shoot = asset.clip("S_SHOOT").unwrap();
    assert_eq!((shoot.frame_count, shoot.frame_rate), (10, 25.0));
    assert!((shoot.duration - 0.36).abs() < 1e-6);
    let weight = |clip: &bonescope::scene::Clip, target: &str, t: f32| {
        clip.morph_tracks
            .iter()
            .find(|m| m.target == target)
            .and_then(|m| bonescope::anim::curve::sample(&m.weights, t))
            .unwrap_or(0.0)
    };
    assert_eq!(weight(shoot, "S_SHOOT frame 9", 0.36), 1.0);
    assert_eq!(weight(shoot, "S_SHOOT frame 5", 0.36), 0.0);
    assert!((weight(shoot, "S_SHOOT frame 5", 0.22) - 0.5).abs() < 1e-4, "halfway between frames 5 and 6");
    // Frame 9 moves the string's three middle positions by the stored difference.
    let mesh = &asset.meshes[0];
    let target = mesh.morph_targets.iter().find(|t| t.name == "S_SHOOT frame 9").unwrap();
    assert!(!target.vertices.is_empty());
    for d in &target.position_deltas {
        assert!(close(*d, a.samples[27]) || close(*d, a.samples[28]) || close(*d, a.samples[29]), "{d}");
    }
    // A one-frame animation's target is named after it; the reference shape itself moves nothing.
    let ready = mesh.morph_targets.iter().find(|t| t.name == "S_READY").unwrap();
    assert!((ready.position_deltas[0].length() - 43.97).abs() < 0.01);
    assert!(!mesh.morph_targets.iter().any(|t| t.name == "S_NORMAL"));
    let script = asset.model_script.as_deref().unwrap();
    assert_eq!(script.sequences[1].hold, Some(0.4));
    assert!((script.sequences[1].blend_in - 0.1).abs() < 1e-4 && (script.sequences[1].blend_out - 0.1).abs() < 1e-4);
    assert!(script.sequences[2].looping, "S_READY loops (flag L)");
}

#[test]
fn a_model_is_a_hierarchy_and_its_mesh_in_one_file() {
    // An .MDL as the engine writes it (`LoadModelASC`: SaveMDH, then SaveMDM into the same file): the mill's
    // hierarchy and the secret door's node mesh, moved onto the mill's hub node.
    let (Some(h), Some(door)) = (bytes("hierarchy0.mdh"), bytes("secretdoor.mdm")) else { return };
    let at = door.windows(10).position(|w| w == b"BIP01 DOOR").unwrap();
    let mut mesh = door.clone();
    mesh[at..at + 10].copy_from_slice(b"BIP01 NABE");
    let mdl: Vec<u8> = h.iter().chain(&mesh).copied().collect();
    assert_eq!(zengin::sniff(&mdl), Some(Format::ZenMdl));
    let asset = bonescope::io::load_format(Format::ZenMdl, &mdl, &LoadOptions::default()).unwrap();
    assert_eq!((asset.skeleton.len(), asset.meshes.len()), (7, 1));
    assert!(asset.warnings.is_empty(), "{:?}", asset.warnings);
    let hub = asset.skeleton.find("BIP01 NABE").unwrap();
    assert!(asset.meshes[0].joints.iter().all(|j| j[0] as usize == hub));
    // Each vertex stands where the hub's bind matrix puts the stored position.
    let alone = bonescope::io::load_format(Format::ZenMdm, &door, &LoadOptions::default()).unwrap();
    let m = asset.skeleton.bind_to_root()[hub];
    for (p, q) in asset.meshes[0].positions.iter().zip(&alone.meshes[0].positions) {
        assert!(close(*p, m.transform_point3(*q)), "{p} {q}");
    }
    // A GoldSrc model is not taken for one.
    assert_eq!(zengin::sniff(b"IDST\x0a\0\0\0rest of a studio header"), None);
}

/// The node indices ZenKit's test states for both games' `s_FistRun`.
const FISTRUN_NODES: [u32; 25] =
    [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 15, 16, 17, 18, 19, 26, 27, 28, 29, 30, 31, 32, 33];

#[test]
fn both_games_fistrun_hold_what_zenkit_states() {
    for game in ["G1", "G2"] {
        let Some(b) = bytes(&format!("{game}/HUMANS-S_FISTRUN.MAN")) else { return };
        assert_eq!(zengin::sniff(&b), Some(Format::ZenMan));
        let a = man::read(&b).unwrap();
        assert!(close(a.bbox.1, Vec3::new(46.33139419555664, 67.0935287475586, 49.88602828979492)), "{game}");
        assert!(close(a.bbox.0, Vec3::new(-51.09061050415039, -94.02226257324219, -31.280731201171875)), "{game}");
        assert_eq!(a.checksum, 3325331650);
        assert!(a.events.is_empty());
        assert_eq!((a.fps, a.fps_source, a.frame_count, a.layer), (10.0, 25.0, 20, 1));
        assert_eq!((a.name.as_str(), a.next.as_str(), a.node_count), ("S_FISTRUN", "S_FISTRUN", 25));
        assert_eq!(a.node_indices, FISTRUN_NODES);
        assert_eq!((a.position_min, a.position_scale), (-9.01021957397461, 0.001491763861849904));
        assert_eq!(a.samples.len(), 25 * 20);
        // ZenKit's quaternions are (w, x, y, z).
        let sample = |i: usize| a.samples[i];
        let q = |w: f32, x: f32, y: f32, z: f32| Quat::from_xyzw(x, y, z, w);
        assert!(close(sample(0).1, Vec3::new(12.635274887084961, 88.75251770019531, -1.093428611755371)));
        assert!(sample(0).0.abs_diff_eq(q(0.7771535515785217, 0.0, 0.6293110251426697, 0.0), 1e-6));
        assert!(close(sample(249).1, Vec3::new(12.626323699951172, -0.00145721435546875, 22.643518447875977)));
        assert!(sample(249).0.abs_diff_eq(q(0.7071319222450256, 0.0, 0.70708167552948, 0.0), 1e-6));
        assert_eq!(sample(499), sample(249));
        let (_, path, script) = a.source.clone().unwrap();
        assert_eq!(path, "\\_WORK\\DATA\\ANIMS\\HUM_AMB_FISTRUN_M01.ASC");
        assert_eq!(
            script,
            "\t\t\tANI\t\t\t(\"S_FISTRUN\"\t\t\t\t1\t\"S_FISTRUN\"\t\t0.0 0.1 MI\t\"HUM_AMB_FISTRUN_M01.ASC\"\tF   1\t50\tFPS:10)"
        );
    }
}

mod on_the_source_body {
    use super::*;
    use bonescope::anim::facing::{Side, side_of};
    use bonescope::anim::{ClipBinding, local_to_model};
    use bonescope::io::bind;
    use bonescope::io::zengin::compiler::{NodeMap, compiled_node_order};
    use bonescope::scene::{Asset, Transform};

    fn body() -> Option<Asset> {
        Some(load_path(&file("HUM_BODY_NAKED0.ASC")?, &LoadOptions::default()).unwrap())
    }

    /// Joint positions in the viewer frame at `time` of clip `clip`.
    pub(super) fn joints_at(asset: &Asset, clip: usize, time: f32) -> Vec<(String, Vec3)> {
        let skeleton = &asset.skeleton;
        let c = &asset.clips[clip];
        let binding = ClipBinding::new(skeleton, c);
        let mut local = vec![Transform::IDENTITY; skeleton.len()];
        binding.sample(skeleton, c, time, &mut local);
        let mut to_root = vec![glam::Mat4::IDENTITY; skeleton.len()];
        local_to_model(&skeleton.parents, &local, &mut to_root).unwrap();
        skeleton
            .names
            .iter()
            .zip(&to_root)
            .map(|(n, m)| (n.clone(), asset.axes.to_viewer.transform_point3(m.w_axis.truncate())))
            .collect()
    }

    #[test]
    fn the_compiler_orders_the_asc_nodes_into_the_hierarchy_the_man_was_made_for() {
        let Some(asc) = body() else { return };
        let order = compiled_node_order(&asc.skeleton);
        let names: Vec<String> = order.iter().map(|&b| asc.skeleton.names[b].to_uppercase()).collect();
        assert_eq!(names.len(), 34, "{names:?}");
        assert_eq!(
            &names[..8],
            &[
                "BIP01",
                "BIP01 PELVIS",
                "BIP01 SPINE",
                "BIP01 SPINE1",
                "BIP01 SPINE2",
                "BIP01 NECK",
                "BIP01 HEAD",
                "ZS_HELMET"
            ]
        );
        assert_eq!(names[33], "BIP01 R TOE0");
        // The MAN's node indices name the animated Bip nodes, not the slots.
        for &i in &FISTRUN_NODES {
            assert!(names[i as usize].starts_with("BIP01"), "{}", names[i as usize]);
        }
        // And the CRC-32 of that list is the checksum both games' MAN carry.
        let map = NodeMap::of(&asc);
        assert_eq!(map.checksum, 3325331650);
    }

    /// `s_FistRun` is not locomotion: the script line it was compiled from (in the MAN) gives it the flags `MI`,
    /// and `I` is the engine's idle flag (`zCModelAni::SetFlags`: `flagIdle`). It is the fist-fighting stance
    /// held while in run mode, looping onto itself: knees bent, feet planted apart with the left one ahead, fists
    /// forward, breathing. Bound on the body it was compiled from, every frame must be that stance.
    #[test]
    fn fistrun_of_both_games_is_the_fist_stance_on_the_source_body() {
        let Some(asc) = body() else { return };
        let mut poses = Vec::new();
        for game in ["G1", "G2"] {
            let mut asset = asc.clone();
            let path = file(&format!("{game}/HUMANS-S_FISTRUN.MAN")).unwrap();
            let man = load_path(&path, &LoadOptions::default()).unwrap();
            let report = bind(&mut asset, man, &LoadOptions::default()).unwrap();
            assert_eq!(report.matched.len(), 25, "{game}: {report:?}");
            assert!(report.unmatched_tracks.is_empty(), "{game}: {:?}", report.unmatched_tracks);
            assert!(!asset.warnings.iter().any(|w| w.message.contains("checksum")), "{game}: {:?}", asset.warnings);
            let clip = &asset.clips[0];
            assert_eq!((clip.name.as_str(), clip.frame_count, clip.frame_rate), ("S_FISTRUN", 20, 10.0));
            assert!(clip.script.as_ref().unwrap().looping, "next is itself");
            let size = {
                let j = common::body::viewer_joints(&asc);
                let (lo, hi) = j.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), (_, p)| (lo.min(*p), hi.max(*p)));
                (hi - lo).length()
            };
            let mut frames = Vec::new();
            for f in 0..20 {
                let joints = joints_at(&asset, 0, f as f32 / 10.0);
                let at = |name: &str| joints.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).unwrap().1;
                let pelvis = at("Bip01 Pelvis");
                // No explosion: every joint stays within the body's size of the pelvis.
                for (n, p) in &joints {
                    assert!(
                        p.distance(pelvis) < size,
                        "{game} frame {f}: {n} is {} from the pelvis",
                        p.distance(pelvis)
                    );
                }
                // Feet on the ground: both toes at the ground plane of the model (y = 0), the hips lowered by
                // the bent knees (the bind pose has them at 100).
                for toe in ["Bip01 L Toe0", "Bip01 R Toe0"] {
                    assert!(at(toe).y.abs() < 3.0, "{game} frame {f}: {toe} at height {}", at(toe).y);
                }
                assert!(pelvis.y > 80.0 && pelvis.y < 95.0, "{game} frame {f}: the hips at height {}", pelvis.y);
                assert!(at("Bip01 Head").y > pelvis.y + 45.0, "{game} frame {f}: upright");
                // Left is left: the left-named joints lie to the character's left (up × front, the front from
                // the toes ahead of the feet).
                let front = common::body::front_from_geometry(&joints).unwrap();
                let left = Vec3::Y.cross(front);
                let l = common::body::mean_of(&joints, |n| side_of(n) == Some(Side::Left)).unwrap();
                let r = common::body::mean_of(&joints, |n| side_of(n) == Some(Side::Right)).unwrap();
                assert!(
                    (l - r).dot(left) > 20.0,
                    "{game} frame {f}: left-named joints {} to the left",
                    (l - r).dot(left)
                );
                // The stance: feet apart, the left one ahead; both fists forward of the pelvis at its height.
                let (lf, rf) = (at("Bip01 L Foot"), at("Bip01 R Foot"));
                assert!((lf - rf).dot(left) > 40.0, "{game} frame {f}: feet {} apart", (lf - rf).dot(left));
                assert!((lf - rf).dot(front) > 5.0, "{game} frame {f}: the left foot {} ahead", (lf - rf).dot(front));
                for hand in ["Bip01 L Hand", "Bip01 R Hand"] {
                    let h = at(hand) - pelvis;
                    assert!(h.dot(front) > 10.0 && h.y.abs() < 15.0, "{game} frame {f}: {hand} at {h} from the pelvis");
                }
                frames.push(joints);
            }
            // Planted feet, a breathing body, a loop that closes.
            let foot = |f: usize, name: &str| frames[f].iter().find(|(n, _)| n == name).unwrap().1;
            for f in 1..20 {
                for name in ["Bip01 L Foot", "Bip01 R Foot"] {
                    assert!(foot(f, name).distance(foot(0, name)) < 1.0, "{game} frame {f}: {name} slides");
                }
            }
            let pelvis: Vec<f32> = (0..20).map(|f| foot(f, "Bip01 Pelvis").y).collect();
            let swing =
                pelvis.iter().copied().fold(f32::MIN, f32::max) - pelvis.iter().copied().fold(f32::MAX, f32::min);
            assert!(swing > 0.5 && swing < 5.0, "{game}: the hips bob by {swing}");
            assert!((pelvis[19] - pelvis[0]).abs() < 0.2 * swing, "{game}: the loop closes");
            poses.push(frames);
        }
        // Both games compiled the same animation: the same poses.
        for (a, b) in poses[0].iter().zip(&poses[1]) {
            for ((_, p), (_, q)) in a.iter().zip(b) {
                assert!(p.abs_diff_eq(*q, 0.01), "{p} {q}");
            }
        }
    }
}

/// What the engine's compiler would make of the source body: its `.MDH`.
fn compile_hierarchy(asc: &bonescope::scene::Asset) -> Vec<u8> {
    mdh::write(&mdh::compiled_from(&asc.skeleton))
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-zengin-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_man_plays_alike_on_the_source_body_and_on_its_compiled_hierarchy() {
    let Some(asc_path) = file("HUM_BODY_NAKED0.ASC") else { return };
    let asc = load_path(&asc_path, &LoadOptions::default()).unwrap();
    let dir = scratch("alike");
    let mdh = compile_hierarchy(&asc);
    assert_eq!(mdh::read(&mdh).unwrap().checksum, 3325331650, "the compiled node list's checksum");
    std::fs::write(dir.join("HUMANS.MDH"), &mdh).unwrap();
    std::fs::copy(file("G2/HUMANS-S_FISTRUN.MAN").unwrap(), dir.join("HUMANS-S_FISTRUN.MAN")).unwrap();
    // Opened alone, the MAN finds HUMANS.MDH beside it by the engine's naming and plays on it.
    let alone = load_path(&dir.join("HUMANS-S_FISTRUN.MAN"), &LoadOptions::default()).unwrap();
    assert_eq!(alone.skeleton.len(), 34);
    assert!(alone.readings.iter().any(|r| r.topic == "hierarchy" && r.choice == "HUMANS.MDH"), "{:?}", alone.readings);
    assert_eq!(alone.clips[0].tracks.len(), 25);
    // On the source body, bound by node index.
    let mut on_body = asc.clone();
    bonescope::io::bind(
        &mut on_body,
        load_path(&dir.join("HUMANS-S_FISTRUN.MAN"), &LoadOptions::default()).unwrap(),
        &LoadOptions::default(),
    )
    .unwrap();
    for f in [0, 7, 19] {
        let t = f as f32 / 10.0;
        let a = on_the_source_body::joints_at(&alone, 0, t);
        let b = on_the_source_body::joints_at(&on_body, 0, t);
        for (name, p) in &a {
            let q = b.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).unwrap().1;
            assert!(p.abs_diff_eq(q, 0.05), "frame {f} {name}: {p} on the hierarchy, {q} on the body");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

mod model_script_with_compiled_files {
    use super::*;

    const MDS: &str = "Model (\"HuS\")\n{\n\tmeshAndTree (\"Hum_Body_Naked0.asc\")\n\taniEnum\n\t{\n\t\tani (\"s_FistRun\" 1 \"s_FistRun\" 0.0 0.1 MI \"Hum_Amb_FistRun_M01.asc\" F 1 50 FPS:10)\n\t}\n}\n";

    /// A game's `Anims` tree: the script, its compiled files in `_compiled`, and the body's source unless
    /// `without_body`.
    fn tree(tag: &str, without_body: bool) -> Option<PathBuf> {
        let asc_path = file("HUM_BODY_NAKED0.ASC")?;
        let asc = load_path(&asc_path, &LoadOptions::default()).unwrap();
        let anims = scratch(tag).join("Anims");
        std::fs::create_dir_all(anims.join("_COMPILED")).unwrap();
        std::fs::write(anims.join("HUMANS.MDS"), MDS).unwrap();
        std::fs::write(anims.join("_COMPILED/HUMANS.MDH"), compile_hierarchy(&asc)).unwrap();
        std::fs::copy(file("G1/HUMANS-S_FISTRUN.MAN").unwrap(), anims.join("_COMPILED/HUMANS-S_FISTRUN.MAN")).unwrap();
        if !without_body {
            std::fs::create_dir_all(anims.join("ASC_BODIES/HUMAN")).unwrap();
            std::fs::copy(&asc_path, anims.join("ASC_BODIES/HUMAN/HUM_BODY_NAKED0.ASC")).unwrap();
        }
        Some(anims)
    }

    #[test]
    fn an_absent_animation_source_is_played_from_its_compiled_man_and_the_sources_win() {
        let Some(anims) = tree("mds-man", false) else { return };
        let asset = load_path(&anims.join("HUMANS.MDS"), &LoadOptions::default()).unwrap();
        // The body and skeleton are the source's (HUMANS.MDH is there too, and not used).
        assert!(asset.triangle_count() > 0);
        assert!(asset.skeleton.names.iter().any(|n| n == "Dummy"), "the ASC's own skeleton");
        let clip = asset.clip("s_FistRun").expect("the ani is a clip");
        assert_eq!((clip.frame_count, clip.frame_rate, clip.tracks.len()), (20, 10.0, 25));
        let script = asset.model_script.as_deref().unwrap();
        let seq = script.sequence("s_FistRun").unwrap();
        assert!(seq.loaded && seq.problem.is_none(), "{seq:?}");
        assert_eq!(seq.paths[0].as_deref(), Some(anims.join("_COMPILED/HUMANS-S_FISTRUN.MAN").as_path()));
        let said: Vec<&str> = asset.warnings.iter().map(|w| w.message.as_str()).collect();
        let used = said.iter().find(|m| m.contains("compiled files stand in")).expect("says which it used");
        assert!(used.contains("HUMANS-S_FISTRUN.MAN") && !used.contains("HUMANS.MDH"), "{used}");
        assert!(!asset.warnings.iter().any(|w| w.is_error()), "{said:?}");
        // It plays as the MAN bound to the body does.
        let mut bound = load_path(&file("HUM_BODY_NAKED0.ASC").unwrap(), &LoadOptions::default()).unwrap();
        let man = load_path(&anims.join("_COMPILED/HUMANS-S_FISTRUN.MAN"), &LoadOptions::default()).unwrap();
        bonescope::io::bind(&mut bound, man, &LoadOptions::default()).unwrap();
        let c = asset.clips.iter().position(|c| c.name == "s_FistRun").unwrap();
        let a = on_the_source_body::joints_at(&asset, c, 0.3);
        let b = on_the_source_body::joints_at(&bound, 0, 0.3);
        for ((n, p), (_, q)) in a.iter().zip(&b) {
            assert!(p.abs_diff_eq(*q, 0.05), "{n}: {p} {q}");
        }
        std::fs::remove_dir_all(anims.parent().unwrap()).ok();
    }

    #[test]
    fn without_the_body_source_the_skeleton_comes_from_the_compiled_hierarchy() {
        let Some(anims) = tree("mds-mdh", true) else { return };
        let asset = load_path(&anims.join("HUMANS.MDS"), &LoadOptions::default()).unwrap();
        assert_eq!(asset.skeleton.len(), 34, "HUMANS.MDH's nodes");
        assert_eq!(asset.skeleton.names[1], "BIP01 PELVIS");
        let said: Vec<&str> = asset.warnings.iter().map(|w| w.message.as_str()).collect();
        let used = said.iter().find(|m| m.contains("compiled files stand in")).expect("says which it used");
        assert!(used.contains("HUMANS.MDH") && used.contains("HUMANS-S_FISTRUN.MAN"), "{used}");
        // No compiled body mesh either: the mesh is missing, and said so.
        assert!(asset.warnings.iter().any(|w| w.is_error() && w.message.contains("meshAndTree")), "{said:?}");
        // The skeleton stands and the clip plays as on the source body.
        let body = load_path(&file("HUM_BODY_NAKED0.ASC").unwrap(), &LoadOptions::default()).unwrap();
        let bind = common::body::viewer_joints(&body);
        for (name, p) in common::body::viewer_joints(&asset) {
            let q = bind.iter().find(|(n, _)| n.eq_ignore_ascii_case(&name)).unwrap().1;
            assert!(p.abs_diff_eq(q, 0.05), "{name}: {p} from the MDH, {q} in the ASC");
        }
        let mut bound = body.clone();
        let man = load_path(&anims.join("_COMPILED/HUMANS-S_FISTRUN.MAN"), &LoadOptions::default()).unwrap();
        bonescope::io::bind(&mut bound, man, &LoadOptions::default()).unwrap();
        let a = on_the_source_body::joints_at(&asset, 0, 1.2);
        let b = on_the_source_body::joints_at(&bound, 0, 1.2);
        for (name, p) in &a {
            let q = b.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).unwrap().1;
            assert!(p.abs_diff_eq(q, 0.05), "{name}: {p} {q}");
        }
        std::fs::remove_dir_all(anims.parent().unwrap()).ok();
    }
}
