//! Valve DMX: the corpus's files (Blender Source Tools' test data: a keyvalues2 cloth model, a keyvalues2 file of
//! flex controls, a gzip-compressed binary-9 walk), a generated QC tree whose model and animations are DMX against
//! its SMD twin, one generated model in every encoding, flexes, and hostile input.

mod common;
#[path = "common/dmx_writer.rs"]
mod dmx_writer;

use std::path::{Path, PathBuf};

use glam::{Mat4, Vec2, Vec3};

use bonescope::anim::{Pose, skin_mesh};
use bonescope::io::{LoadErrorKind, LoadOptions, dmx, load_path};
use bonescope::scene::{Asset, Format, Position};
use dmx_writer::{Character, animation, character, dmx_animation, dmx_model, smd_animation, smd_reference};

#[global_allocator]
static ALLOCATOR: common::CountingAllocator = common::CountingAllocator;

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-dmx-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn load(path: &Path) -> Asset {
    load_path(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn load_bytes(bytes: &[u8]) -> Result<Asset, bonescope::io::LoadError> {
    dmx::load(bytes, &LoadOptions::default())
}

// --- The corpus ---------------------------------------------------------------------------------------------

#[test]
fn cloth_model_loads_with_its_skeleton_mesh_weights_and_source2_fields() {
    let _alone = common::alone();
    let Some(path) = common::corpus_file("dmx/bst_cloth_test_simple.dmx") else { return };
    let a = load(&path);
    assert_eq!(a.format, Some(Format::Dmx));
    // The jointList starts with the DmeModel "Armature" (Source 2), then the three joints.
    assert_eq!(a.skeleton.names, ["Armature", "center", "left", "right"]);
    assert_eq!(a.skeleton.parents, [None, Some(0), Some(1), Some(1)]);
    // "left" sits 16.95 units along the centre bone's x, as the base state says.
    let left = a.skeleton.bind_local[2].translation;
    assert!((left - Vec3::new(16.949_43, 0.0, 0.0)).length() < 1e-4, "{left}");
    assert_eq!(a.meshes.len(), 1);
    let m = &a.meshes[0];
    assert_eq!(m.name, "cloth_test_simple");
    // 10 quads (50 face entries with 10 ends) → 20 triangles over 40 corners, each its own texcoord.
    assert_eq!((m.triangle_count(), m.vertex_count()), (20, 40));
    assert_eq!(m.extra_uvs.len(), 1, "texcoord$1 is a second UV set");
    assert_eq!(m.colors.len(), 40, "VertexPaintTintColor$0 read as vertex colours");
    assert_eq!(a.materials.len(), 1);
    assert_eq!(a.materials[0].name, "Material");
    // Corner 0 is position 9 (10, 0, 1), weighted 0.8747 to joint 1 ("center"), 0.0628 to 2, 0.0625 to 3.
    assert_eq!(m.positions[0], Vec3::new(10.0, 0.0, 1.0));
    assert_eq!(m.joints[0][..3], [1, 2, 3]);
    assert!((m.weights[0][0] - 0.874_718_8).abs() < 1e-5, "{:?}", m.weights[0]);
    // flipVCoordinates: v is stored from the bottom.
    assert!((m.uvs[0] - Vec2::new(0.332_332_3, 1.0 - 0.001_001)).length() < 1e-5, "{}", m.uvs[0]);
    assert!(m.validate(a.skeleton.len()).is_ok());
    // Z up (DmeAxisSystem upAxis 3): the same conversion as SMD.
    assert_eq!(a.axes.to_viewer, bonescope::scene::AxisConversion::z_up_right_handed().to_viewer);
    assert!(a.readings.iter().any(|r| r.topic == "axes" && r.basis.contains("upAxis 3")));
    assert!(a.clips.is_empty(), "no delta states, no animation");
}

#[test]
fn flex_controls_load_as_a_clip_of_their_four_controls() {
    let _alone = common::alone();
    let Some(path) = common::corpus_file("dmx/bst_flex_scout_morphs_low.dmx") else { return };
    let a = load(&path);
    assert!(a.skeleton.is_empty() && a.meshes.is_empty());
    assert_eq!(a.clips.len(), 1);
    let c = &a.clips[0];
    // Named after the file's root element, apart from a model's own `flexes`.
    assert_eq!(c.name, "flex_scout_morphs_low");
    let names: Vec<&str> = c.morph_tracks.iter().map(|t| t.target.as_str()).collect();
    assert_eq!(names, ["CloseLidLo", "CloseLidUp", "WQ", "OO"]);
    // Each control peaks at its own frame: "WQ" is the third flex, full at frame 3.
    let wq = &c.morph_tracks[2].weights;
    let at = |t: f32| bonescope::anim::curve::sample(wq, t).unwrap();
    assert_eq!((at(2.0 / 30.0), at(3.0 / 30.0), at(4.0 / 30.0)), (0.0, 1.0, 0.0));
    // An animation-only file: it binds to the model whose delta states it names.
    assert!(bonescope::io::binds_to_model(&a));
}

#[test]
fn walk_carries_its_skeleton_and_plays_on_it() {
    let _alone = common::alone();
    let Some(path) = common::corpus_file("dmx/bst_walkn.dmx.gz") else { return };
    let a = load(&path);
    // 89 DmeJoints and 65 shapeless DmeDags, as the jointList of 154 lists them.
    assert_eq!(a.skeleton.len(), 154);
    assert_eq!(a.skeleton.names[0], "pelvis");
    assert!(a.skeleton.names.iter().any(|n| n == "root_motion"));
    assert!(a.meshes.is_empty());
    assert_eq!(a.clips.len(), 1);
    let c = &a.clips[0];
    assert_eq!(c.name, "walkn");
    assert_eq!((c.frame_rate, c.frame_count, c.duration), (30.0, 31, 1.0));
    // 308 channels: a position and an orientation log per bone, 6616 keys in all (exporters drop keys a line
    // between neighbours gives back, so logs hold 15 to 31).
    assert_eq!(c.tracks.len(), 154);
    assert_eq!(c.key_count(), 6616);
    // Y up (DmeAxisSystem upAxis 2): nothing to turn.
    assert_eq!(a.axes.to_viewer, Mat4::IDENTITY);
    // The pelvis walks along +z: 4.70 at the start, 46.70 at key 15 (0.5 s: key times are ticks, 0, 333, 666,
    // 1000 …), as its log says.
    let pelvis = c.track_for("pelvis").unwrap();
    assert!((pelvis.translation.values[0] - Vec3::new(-0.739_642_8, 41.079_777, 4.698_459)).length() < 1e-4);
    let mid = Pose::from_clip(&a.skeleton, c, 0.5);
    let start = Pose::from_clip(&a.skeleton, c, 0.0);
    let z = |p: &Pose| p.to_root[0].w_axis.z;
    assert!((z(&start) - 4.698).abs() < 1e-2 && (z(&mid) - 46.698).abs() < 1e-2, "{} {}", z(&start), z(&mid));
    // The pose moves the whole skeleton: every bone below the pelvis travels with it.
    let moved =
        (0..a.skeleton.len()).filter(|&b| (mid.to_root[b].w_axis - start.to_root[b].w_axis).length() > 1.0).count();
    assert!(moved > 80, "{moved} bones moved");
}

#[test]
fn walk_reads_the_same_compressed_or_not() {
    let _alone = common::alone();
    let Some(path) = common::corpus_file("dmx/bst_walkn.dmx.gz") else { return };
    let gz = std::fs::read(&path).unwrap();
    let plain = dmx::decompress(&gz).unwrap().into_owned();
    assert!(plain.starts_with(b"<!-- dmx encoding binary 9 format model 22 -->"));
    let (a, b) = (load_bytes(&gz).unwrap(), load_bytes(&plain).unwrap());
    assert_eq!(a.skeleton.names, b.skeleton.names);
    assert_eq!(a.clips, b.clips);
    // Prefix attributes (binary 9) are read: anim_frameRate 30, anim_duration 1 s.
    let graph = dmx::read(&plain).unwrap();
    assert_eq!(graph.prefix.len(), 2);
    assert_eq!(graph.symbol(graph.prefix[0].name), "anim_frameRate");
}

// --- A generated QC tree, DMX against its SMD twin --------------------------------------------------------

/// Writes `ch` and its animations as SMD and as DMX (keyvalues2) in two folders with the same QC, and returns
/// the two QC paths.
fn twin_tree(dir: &Path, ch: &Character) -> (PathBuf, PathBuf) {
    let walk = animation(ch, "walk", 31, 30.0, 0.0);
    let wave = animation(ch, "wave", 12, 15.0, 0.4);
    let qc = "$modelname \"gen.mdl\"\n$cd \".\"\n$model \"body\" \"reference\"\n$animation \"a_walk\" \"walk\" fps 30 loop\n\
              $sequence \"walk\" \"a_walk\"\n$sequence \"wave\" \"anims/wave\" fps 15\n$sequence \"idle\" \"reference\"\n";
    let smd = dir.join("smd");
    let dmx = dir.join("dmx");
    for d in [&smd, &dmx] {
        std::fs::create_dir_all(d.join("anims")).unwrap();
        std::fs::write(d.join("gen.qc"), qc).unwrap();
    }
    std::fs::write(smd.join("reference.smd"), smd_reference(ch)).unwrap();
    std::fs::write(smd.join("walk.smd"), smd_animation(ch, &walk)).unwrap();
    std::fs::write(smd.join("anims/wave.smd"), smd_animation(ch, &wave)).unwrap();
    std::fs::write(dmx.join("reference.dmx"), dmx_model(ch, &[]).kv2()).unwrap();
    std::fs::write(dmx.join("walk.dmx"), dmx_animation(ch, &walk).kv2()).unwrap();
    std::fs::write(dmx.join("anims/wave.dmx"), dmx_animation(ch, &wave).kv2()).unwrap();
    (smd.join("gen.qc"), dmx.join("gen.qc"))
}

/// Each vertex of `a` has one within `eps` in `b` (position, normal, UV, and the bone weights).
fn same_vertices(a: &bonescope::scene::Mesh, b: &bonescope::scene::Mesh, positions: (&[Vec3], &[Vec3]), eps: f32) {
    assert_eq!(a.vertex_count(), b.vertex_count());
    let mut used = vec![false; b.vertex_count()];
    for i in 0..a.vertex_count() {
        let weights = |m: &bonescope::scene::Mesh, v: usize| {
            let mut w = [0.0f32; 64];
            for k in 0..4 {
                w[m.joints[v][k] as usize] += m.weights[v][k];
            }
            w
        };
        let wa = weights(a, i);
        let found = (0..b.vertex_count()).find(|&j| {
            !used[j]
                && (positions.0[i] - positions.1[j]).length() < eps
                && (a.normals[i] - b.normals[j]).length() < eps
                && (a.uvs[i] - b.uvs[j]).length() < eps
                && wa.iter().zip(weights(b, j)).all(|(x, y)| (x - y).abs() < eps)
        });
        let j = found.unwrap_or_else(|| panic!("vertex {i} at {} has no twin", positions.0[i]));
        used[j] = true;
    }
}

#[test]
fn a_qc_tree_of_dmx_loads_like_its_smd_twin() {
    let _alone = common::alone();
    let dir = temp_dir("twin");
    let ch = character(9, 2);
    let (smd_qc, dmx_qc) = twin_tree(&dir, &ch);
    let (s, d) = (load(&smd_qc), load(&dmx_qc));
    let errors: Vec<String> = d.warnings.iter().filter(|w| w.is_error()).map(|w| w.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    // Bones and bind pose.
    assert_eq!(s.skeleton.names, d.skeleton.names);
    assert_eq!(s.skeleton.parents, d.skeleton.parents);
    for (b, (x, y)) in s.skeleton.bind_local.iter().zip(&d.skeleton.bind_local).enumerate() {
        assert!((x.translation - y.translation).length() < 1e-5, "bone {b}");
        assert!(x.rotation.dot(y.rotation).abs() > 1.0 - 1e-6, "bone {b}");
    }
    // Meshes: the same vertices (welded alike), triangles and materials.
    assert_eq!(s.meshes.len(), 1);
    assert_eq!(d.meshes.len(), 1);
    let (sm, dm) = (&s.meshes[0], &d.meshes[0]);
    assert_eq!(sm.triangle_count(), dm.triangle_count());
    assert_eq!(sm.triangle_count(), 9 * 12);
    same_vertices(sm, dm, (&sm.positions, &dm.positions), 1e-5);
    let names = |a: &Asset| {
        let mut n: Vec<String> = a.materials.iter().map(|m| m.name.clone()).collect();
        n.sort();
        n
    };
    assert_eq!(names(&s), names(&d));
    // The DMX holds the flexes the SMD cannot (its twin would be a VTA).
    assert_eq!(dm.morph_targets.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["shape0", "shape1"]);
    // Clips: the sequences, with their rates and lengths, and the same poses (bones and skinned mesh).
    let clip_names = |a: &Asset| a.clips.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
    assert_eq!(clip_names(&s), ["walk", "wave", "idle"]);
    assert_eq!(clip_names(&s), clip_names(&d));
    for (cs, cd) in s.clips.iter().zip(&d.clips) {
        assert_eq!((cs.frame_count, cs.frame_rate), (cd.frame_count, cd.frame_rate), "{}", cs.name);
        assert!((cs.duration - cd.duration).abs() < 1e-4, "{}: {} {}", cs.name, cs.duration, cd.duration);
        for k in 0..cs.frame_count * 2 {
            let t = k as f32 * 0.5 / cs.frame_rate;
            let (ps, pd) = (Pose::from_clip(&s.skeleton, cs, t), Pose::from_clip(&d.skeleton, cd, t));
            for b in 0..s.skeleton.len() {
                assert!(ps.to_root[b].abs_diff_eq(pd.to_root[b], 1e-3), "{} at {t}: bone {b}", cs.name);
            }
            let (mut a_pos, mut a_nrm, mut b_pos, mut b_nrm) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            skin_mesh(sm, &ps.palette, &mut a_pos, &mut a_nrm);
            skin_mesh(dm, &pd.palette, &mut b_pos, &mut b_nrm);
            if k % 5 == 0 {
                same_vertices(sm, dm, (&a_pos, &b_pos), 1e-3);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// --- One model in every encoding ----------------------------------------------------------------------------

#[test]
fn every_encoding_reads_the_same_model_and_animation() {
    let _alone = common::alone();
    let ch = character(6, 3);
    let model = dmx_model(&ch, &["shape0", "shape1", "shape2"]);
    let anim = dmx_animation(&ch, &animation(&ch, "walk", 20, 30.0, 0.0));
    let reference_model = load_bytes(model.kv2().as_bytes()).unwrap();
    let reference_anim = load_bytes(anim.kv2().as_bytes()).unwrap();
    assert_eq!(reference_model.meshes[0].morph_targets.len(), 3);
    assert_eq!(reference_anim.clips[0].key_count(), 6 * 2 * 20);
    for version in [1, 2, 3, 4, 5, 9] {
        let m = load_bytes(&model.binary(version)).unwrap_or_else(|e| panic!("binary {version}: {e}"));
        assert_eq!(m.skeleton.names, reference_model.skeleton.names, "binary {version}");
        assert_eq!(m.skeleton.bind_local, reference_model.skeleton.bind_local, "binary {version}");
        assert_eq!(m.meshes, reference_model.meshes, "binary {version}");
        assert_eq!(m.clips, reference_model.clips, "binary {version}");
        let a = load_bytes(&anim.binary(version)).unwrap();
        // Versions 1 and 2 have no time type: times are int ticks of 1/10000 s, as old exporters wrote them.
        let (ca, cr) = (&a.clips[0], &reference_anim.clips[0]);
        assert_eq!(
            (ca.name.as_str(), ca.frame_count, ca.tracks.len()),
            (cr.name.as_str(), cr.frame_count, cr.tracks.len())
        );
        for (ta, tr) in ca.tracks.iter().zip(&cr.tracks) {
            assert_eq!(ta.rotation.values, tr.rotation.values, "binary {version}");
            for (x, y) in ta.translation.times.iter().zip(tr.translation.times.iter()) {
                assert!((x - y).abs() < 1e-4, "binary {version}: {x} {y}");
            }
        }
        // The same file gzip-compressed reads the same.
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, &model.binary(version)).unwrap();
        assert_eq!(load_bytes(&gz.finish().unwrap()).unwrap().meshes, m.meshes);
    }
}

// --- Flexes -------------------------------------------------------------------------------------------------

#[test]
fn delta_states_are_morph_targets_over_every_vertex_of_their_positions() {
    let _alone = common::alone();
    let ch = character(4, 2);
    let a = load_bytes(dmx_model(&ch, &["shape0", "shape1"]).kv2().as_bytes()).unwrap();
    let m = &a.meshes[0];
    for (s, shape) in ch.shapes.iter().enumerate() {
        let t = &m.morph_targets[s];
        assert_eq!(t.name, shape.name);
        // Every vertex made from a moved point moves by the point's delta; no other vertex does.
        for v in 0..m.vertex_count() {
            let point = ch.points.iter().position(|p| (p.position - m.positions[v]).length() < 1e-5).unwrap();
            let want = shape.moves.iter().find(|(p, _)| *p == point).map(|m| m.1);
            let got = t.vertices.iter().position(|&x| x as usize == v).map(|k| t.position_deltas[k]);
            assert_eq!(want.is_some(), got.is_some(), "shape {s} vertex {v}");
            if let (Some(w), Some(g)) = (want, got) {
                assert!((w - g).length() < 1e-6);
            }
        }
    }
    // The flexes clip plays each control in turn.
    let flexes = a.clips.iter().find(|c| c.name == dmx::FLEX_CLIP).unwrap();
    assert_eq!(flexes.morph_tracks.len(), 2);
}

#[test]
fn flex_controls_of_one_file_drive_the_delta_states_of_a_model_they_are_bound_to() {
    let _alone = common::alone();
    let Some(flex) = common::corpus_file("dmx/bst_flex_scout_morphs_low.dmx") else { return };
    let dir = temp_dir("flex");
    let mut ch = character(4, 2);
    ch.shapes[0].name = "OO".into();
    ch.shapes[1].name = "CloseLidUp".into();
    let model = dir.join("scout.dmx");
    std::fs::write(&model, dmx_model(&ch, &[]).kv2()).unwrap();
    let set = bonescope::source::load_files(&[model, flex], &LoadOptions::default());
    let (asset, reports) = set.into_result().unwrap();
    assert_eq!(reports.len(), 1);
    let controls = asset.clips.iter().find(|c| c.name == "flex_scout_morphs_low").expect("the controls' clip is bound");
    assert_eq!(controls.morph_tracks.len(), 4);
    // "OO" is the fourth control: at frame 4 its target is fully on, and the mesh moves there.
    let weights = bonescope::anim::curve::sample(&controls.morph_tracks[3].weights, 4.0 / 30.0).unwrap();
    assert_eq!((controls.morph_tracks[3].target.as_str(), weights), ("OO", 1.0));
    let mesh = &asset.meshes[0];
    let oo = mesh.morph_targets.iter().find(|t| t.name == "OO").unwrap();
    assert!(!oo.vertices.is_empty() && oo.position_deltas.iter().all(|d| d.length() > 0.1));
    let _ = std::fs::remove_dir_all(&dir);
}

// --- Hostile input ------------------------------------------------------------------------------------------

fn binary_header(version: i32) -> Vec<u8> {
    let mut b = format!("<!-- dmx encoding binary {version} format model 1 -->\n").into_bytes();
    b.push(0);
    b
}

#[test]
fn counts_past_the_end_of_the_file_are_errors_at_their_byte_without_allocating() {
    let _alone = common::alone();
    let header = binary_header(5);
    let start = header.len() as u64;
    // A string table of 2^31 − 1 strings.
    let mut strings = header.clone();
    strings.extend(i32::MAX.to_le_bytes());
    // One element whose one attribute is a matrix array of 2^31 − 1 items.
    let mut matrices = header.clone();
    matrices.extend(2i32.to_le_bytes());
    matrices.extend(b"DmElement\0m\0");
    matrices.extend(1i32.to_le_bytes());
    matrices.extend(0i32.to_le_bytes());
    matrices.extend(1i32.to_le_bytes());
    matrices.extend([0u8; 16]);
    matrices.extend(1i32.to_le_bytes());
    matrices.extend(1i32.to_le_bytes());
    matrices.push(28);
    let array_at = matrices.len() as u64;
    matrices.extend(i32::MAX.to_le_bytes());
    // An element count of 2^31 − 1.
    let mut elements = header.clone();
    elements.extend(0i32.to_le_bytes());
    elements.extend(i32::MAX.to_le_bytes());
    // An element reference one past the last element.
    let mut reference = matrices[..array_at as usize - 1].to_vec();
    reference.push(1);
    let reference_at = reference.len() as u64;
    reference.extend(1i32.to_le_bytes());
    for (name, bytes, at) in [
        ("string table", strings, start),
        ("matrix array", matrices, array_at),
        ("element count", elements, start + 4),
        ("element reference", reference, reference_at),
    ] {
        let (result, alloc) = common::allocations_of(|| load_bytes(&bytes));
        let e = result.expect_err(name);
        assert_eq!(e.position, Position::Byte(at), "{name}: {e}");
        assert!(alloc.largest < 64 * 1024, "{name}: allocated {} bytes at once", alloc.largest);
        assert!(matches!(e.kind, LoadErrorKind::Truncated | LoadErrorKind::Malformed), "{name}: {:?}", e.kind);
    }
}

#[test]
fn hostile_text_is_an_error_at_its_line() {
    let _alone = common::alone();
    let head = "<!-- dmx encoding keyvalues2 1 format model 22 -->\n";
    let cases: [(&str, String, usize); 5] = [
        ("an unclosed element", format!("{head}\"DmElement\"\n{{\n\t\"x\" \"int\" \"1\"\n"), 2),
        ("an unclosed string", format!("{head}\"DmElement\"\n{{\n\t\"x\" \"string\" \"abc\n}}\n"), 4),
        ("a bad number", format!("{head}\"DmElement\"\n{{\n\t\"v\" \"vector3_array\" [\"1 2\"]\n}}\n"), 4),
        (
            "an index past the values",
            format!(
                "{head}\"DmElement\"\n{{\n\t\"model\" \"DmeModel\"\n\t{{\n\t\t\"children\" \"element_array\" [\"DmeDag\" {{ \"shape\" \"DmeMesh\" {{ \"bindState\" \"DmeVertexData\" {{\n\"position$0\" \"vector3_array\" [\"0 0 0\"]\n\"position$0Indices\" \"int_array\" [\"0\", \"7\"]\n}} }} }}]\n\t}}\n}}\n"
            ),
            8,
        ),
        (
            "elements nested too deep",
            format!("{head}\"A\" {{ {} }}", "\"x\" \"A\" {\n".repeat(dmx::MAX_DEPTH + 1)),
            257,
        ),
    ];
    for (name, text, line) in cases {
        let e = load_bytes(text.as_bytes()).expect_err(name);
        assert_eq!(e.position, Position::Line(line), "{name}: {e}");
    }
    // A cycle of children is walked once.
    let cyclic = format!(
        "{head}\"DmElement\"\n{{\n\t\"id\" \"elementid\" \"r\"\n\t\"skeleton\" \"element\" \"m\"\n}}\n\"DmeModel\"\n{{\n\t\"id\" \"elementid\" \"m\"\n\t\"children\" \"element_array\" [\"element\" \"j\"]\n}}\n\"DmeJoint\"\n{{\n\t\"id\" \"elementid\" \"j\"\n\t\"name\" \"string\" \"a\"\n\t\"children\" \"element_array\" [\"element\" \"j\", \"element\" \"m\"]\n}}\n"
    );
    assert_eq!(load_bytes(cyclic.as_bytes()).unwrap().skeleton.names, ["a"]);
}

#[test]
fn truncated_files_of_every_encoding_fail_cleanly() {
    let _alone = common::alone();
    let ch = character(4, 1);
    let model = dmx_model(&ch, &["shape0"]);
    let mut files = vec![model.kv2().into_bytes()];
    files.extend([1, 2, 3, 4, 5, 9].map(|v| model.binary(v)));
    for bytes in files {
        for cut in (0..bytes.len()).step_by(97) {
            let (result, alloc) = common::allocations_of(|| load_bytes(&bytes[..cut]));
            if let Err(e) = result {
                assert!(!e.message.is_empty());
            }
            assert!(alloc.largest < 1 << 20, "a file cut at {cut} allocated {} bytes at once", alloc.largest);
        }
    }
}
