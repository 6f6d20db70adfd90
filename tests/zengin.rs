//! Compiled Gothic (ZenGin) files: every corpus sample reads with the values ZenKit's tests state for it
//! (`tests/TestModelHierarchy.cc`, `TestModelMesh.cc`, `TestMultiResolutionMesh.cc`, `TestMorphMesh.cc`,
//! `TestModelAnimation.cc`), opens as a character, and the compiled `s_FistRun` of both games plays on the human
//! body it was compiled for (`zengin/HUM_BODY_NAKED0.ASC`): node indices bound in the compiler's order, the
//! checksum agreeing, the poses a run.

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
