//! Real characters, round two: a part with bones the body lacks joins in either order (the bones added under
//! their named parents) and a mesh that does not join says why; animations bound before a part animate its
//! bones; placeholder tracks (identity keys of bones an animation never moved) are left at the bind pose unless
//! asked for; a Gothic head hangs on its body's head bone with its faces playable; a character lying down in
//! its file stands up and says why; a QC of another compiler's dialect loads what can be loaded. Generated
//! files, and the corpus's kit, human body and FATBALD head where it is there.

mod common;
mod generated;
mod psk_writer;

use bonescope::anim::{MorphBinding, MorphLayout, Pose};
use bonescope::io::{self, Added, LoadOptions, LoadedSet};
use bonescope::scene::{Asset, BindReport, Reading, Retarget, UpAxis};
use bonescope::source::load_files;
use glam::Vec3;

fn open(paths: &[std::path::PathBuf], opts: &LoadOptions) -> (Asset, Vec<BindReport>) {
    let mut set = load_files(paths, opts);
    assert!(set.errors.is_empty(), "{:?}", set.errors);
    (set.take_asset().unwrap(), set.reports)
}

/// Where the bind pose puts each vertex of every mesh, skinned (identity palette for a consistent rig).
fn joint(asset: &Asset, name: &str) -> Vec3 {
    let b = asset.skeleton.find(name).unwrap_or_else(|| panic!("no bone {name}"));
    asset.skeleton.bind_to_root()[b].w_axis.truncate()
}

#[test]
fn a_part_with_bones_the_body_lacks_joins_in_either_order() {
    let dir = generated::temp_dir("parts");
    let (body, head, _) = generated::small_body_head_and_prop(&dir);
    for (label, files) in
        [("body then head", [body.clone(), head.clone()]), ("head then body", [head.clone(), body.clone()])]
    {
        let (asset, reports) = open(&files, &LoadOptions::default());
        assert_eq!(asset.skeleton.len(), 9, "{label}: the body's 6 bones and the head's 3 face bones");
        assert_eq!(asset.meshes.len(), 2, "{label}: both files' meshes");
        assert_eq!(asset.parts.len(), 2, "{label}");
        let part = reports[0].part.as_ref().unwrap_or_else(|| panic!("{label}: not joined as a part"));
        assert_eq!(part.meshes, 1);
        assert_eq!(asset.skeleton.validate(), Ok(()));
        // The face bones hang from the head, where the head file put them.
        let head_bone = asset.skeleton.find("head").unwrap();
        for face in ["jaw", "eye_l", "eye_r"] {
            let b = asset.skeleton.find(face).unwrap();
            assert_eq!(asset.skeleton.parents[b], Some(head_bone), "{label}: {face}");
        }
        assert!(joint(&asset, "eye_l").abs_diff_eq(Vec3::new(3.0, -8.0, 175.0), 1e-3), "{label}");
        if label == "body then head" {
            assert_eq!(part.bones_added, ["jaw", "eye_l", "eye_r"]);
        } else {
            assert!(part.bones_added.is_empty(), "the head had them all");
        }
        // The face's vertices are where the head file has them, in the bind pose.
        let face_mesh = &asset.meshes[if label == "body then head" { 1 } else { 0 }];
        let eye = asset.skeleton.find("eye_l").unwrap() as u16;
        let on_eye = face_mesh.joints.iter().position(|j| j[0] == eye).unwrap();
        assert!(face_mesh.positions[on_eye].distance(joint(&asset, "eye_l")) < 3.0, "{label}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_mesh_of_another_skeleton_says_why_it_does_not_join() {
    let dir = generated::temp_dir("prop");
    let (body, _, prop) = generated::small_body_head_and_prop(&dir);
    let opts = LoadOptions::default();
    let mut set = LoadedSet::default();
    assert_eq!(set.add(io::load_path(&body, &opts), &opts), Added::Model);
    assert_eq!(set.add(io::load_path(&prop, &opts), &opts), Added::NotJoined);
    let why = set.reports[0].not_joined.clone().expect("the reason");
    assert!(why.contains("none of its 2 bone(s) is named in the model") && why.contains("Box02"), "{why}");
    let asset = set.asset.as_ref().unwrap();
    assert_eq!(asset.meshes.len(), 1, "the crate is not drawn");
    let warning = asset.warnings.iter().find(|w| w.message.starts_with("not joined to the model")).unwrap();
    assert_eq!(warning.file.as_deref(), Some(prop.as_path()), "the warning names the file");
    assert!(warning.message.contains(&why));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn placeholder_tracks_are_left_at_the_bind_pose_unless_applied() {
    let dir = generated::temp_dir("placeholders");
    let (body, head, _) = generated::small_body_head_and_prop(&dir);
    let walk = generated::small_walk_psa(&dir);
    // The walk given before the head: once the head brings the face bones, the walk's report is worked out again.
    for files in [[body.clone(), walk.clone(), head.clone()], [body.clone(), head.clone(), walk.clone()]] {
        let (asset, reports) = open(&files, &LoadOptions::default());
        let walk_report = reports.iter().find(|r| !r.clips.is_empty()).unwrap();
        assert!(walk_report.unmatched_tracks.is_empty(), "{files:?}: {:?}", walk_report.unmatched_tracks);
        assert_eq!(walk_report.placeholder_tracks, ["jaw", "eye_l", "eye_r"], "{files:?}");
        assert!(walk_report.unanimated_bones.contains(&"jaw".to_owned()), "left at the bind pose");
        let said = asset.warnings.iter().map(ToString::to_string).collect::<Vec<_>>();
        assert!(said.iter().any(|w| w.contains("walk.psa: 3 placeholder track(s)")), "{said:?}");
        assert!(!said.iter().any(|w| w.contains("not in the skeleton")), "no stale warning: {said:?}");
        let pose = Pose::from_clip(&asset.skeleton, &asset.clips[0], 0.2);
        let jaw = asset.skeleton.find("jaw").unwrap();
        assert_eq!(pose.local[jaw], asset.skeleton.bind_local[jaw], "{files:?}: the jaw keeps its bind pose");
        let spine = asset.skeleton.find("spine").unwrap();
        assert_ne!(pose.local[spine], asset.skeleton.bind_local[spine], "the real tracks play");
    }
    // Asked for: the identity keys play, and the eyes fall onto the head's origin.
    let opts = LoadOptions {
        retarget: Retarget { apply_placeholder_tracks: true, ..Retarget::default() },
        ..LoadOptions::default()
    };
    let (asset, reports) = open(&[body, head, walk], &opts);
    assert_eq!(reports[1].placeholder_tracks.len(), 3, "still reported");
    assert!(reports[1].matched.iter().any(|m| m.track == "jaw"), "and bound");
    let pose = Pose::from_clip(&asset.skeleton, &asset.clips[0], 0.2);
    let (eye, head_bone) = (asset.skeleton.find("eye_l").unwrap(), asset.skeleton.find("head").unwrap());
    assert!(pose.to_root[eye].w_axis.distance(pose.to_root[head_bone].w_axis) < 1e-4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_kits_head_joins_its_body_and_the_walk_animates_the_whole_character() {
    let Some(corpus) = common::corpus() else { return };
    let dir = generated::temp_dir("kit");
    let head = generated::kit_head_psk(&corpus, &dir);
    let body = corpus.join("psk/kit_SK_MaleBase_01_Body.psk");
    let walk = corpus.join("psa/kit_MOB1_M1_Walk_Relaxed_F_Loop_IP.psa");
    let orders = [
        [body.clone(), head.clone(), walk.clone()],
        [head.clone(), body.clone(), walk.clone()],
        [body.clone(), walk.clone(), head.clone()],
    ];
    for files in orders {
        let names: Vec<String> = files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into()).collect();
        let (asset, reports) = open(&files, &LoadOptions::default());
        assert_eq!(asset.skeleton.len(), 92, "{names:?}: the body's 70 bones and 22 face bones");
        assert_eq!(asset.meshes.len(), 2, "{names:?}");
        assert!(reports.iter().all(|r| r.not_joined.is_none()), "{names:?}");
        let walk_report = reports.iter().find(|r| !r.clips.is_empty()).unwrap();
        assert!(walk_report.unmatched_tracks.is_empty(), "{names:?}: {:?}", walk_report.unmatched_tracks);
        // The walk's face keys are placeholders (the file shows it: identity keys on every frame).
        let mut placeholders = walk_report.placeholder_tracks.clone();
        placeholders.sort();
        let mut face: Vec<String> = generated::KIT_FACE_BONES.iter().map(|s| s.to_string()).collect();
        face.sort();
        assert_eq!(placeholders, face, "{names:?}");
        // Mid-walk the face keeps its shape: every face joint stays where the bind pose has it relative to the
        // head.
        let pose = Pose::from_clip(&asset.skeleton, &asset.clips[0], 0.5);
        let bind = asset.skeleton.bind_to_root();
        let head_bone = asset.skeleton.find("head").unwrap();
        for name in generated::KIT_FACE_BONES {
            let b = asset.skeleton.find(name).unwrap();
            let posed = pose.to_root[head_bone].inverse() * pose.to_root[b];
            let rest = bind[head_bone].inverse() * bind[b];
            assert!(posed.w_axis.distance(rest.w_axis) < 1e-3, "{names:?}: {name} moved on the head");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_gothic_head_hangs_on_the_head_bone_with_its_faces_playable() {
    let Some(corpus) = common::corpus() else { return };
    let dir = generated::temp_dir("gothic-head");
    let mds = generated::humans_mds(&corpus, &dir);
    let mms = generated::fatbald_mms(&corpus);
    let (asset, reports) = open(&[mds, mms.clone()], &LoadOptions::default());
    assert_eq!(asset.meshes.len(), 2, "the body and the head");
    let part = reports[0].part.as_ref().expect("attached as a part");
    assert_eq!(part.attached_to.as_deref(), Some("Bip01 Head"));
    let head_bone = asset.skeleton.find("BIP01 HEAD").unwrap();
    let head = &asset.meshes[1];
    assert!(head.joints.iter().zip(&head.weights).all(|(j, w)| j[0] as usize == head_bone && w[0] == 1.0));
    // In the bind pose the head sits on the neck: its centre within a head's size of the head bone, above the
    // neck, and the body's top is the head's.
    let to_viewer = asset.axes.to_viewer;
    let centre = head.positions.iter().sum::<Vec3>() / head.positions.len() as f32;
    let head_joint = joint(&asset, "Bip01 Head");
    assert!(centre.distance(head_joint) < 25.0, "head centre {centre}, head bone {head_joint}");
    let up = |p: Vec3| to_viewer.transform_point3(p).y;
    assert!(up(centre) > up(joint(&asset, "Bip01 Neck")), "above the neck");
    let body_top = asset.meshes[0].positions.iter().map(|p| up(*p)).fold(f32::MIN, f32::max);
    let head_top = head.positions.iter().map(|p| up(*p)).fold(f32::MIN, f32::max);
    assert!(head_top > body_top, "the head is the top of the character");
    // Its face looks where the feet point: the nose (the vertex furthest along the character's front).
    let front = bonescope::anim::facing::front_direction(&asset).unwrap();
    let nose = head
        .positions
        .iter()
        .map(|p| to_viewer.transform_point3(*p))
        .max_by(|a, b| a.dot(front).total_cmp(&b.dot(front)))
        .unwrap();
    assert!((nose - to_viewer.transform_point3(centre)).dot(front) > 5.0, "the face is at the front");
    // The faces play: T_EAT drives the head's targets by its mesh's name.
    let eat = asset.clips.iter().find(|c| c.name == "T_EAT").unwrap();
    let layout = MorphLayout::of_meshes(&asset.meshes);
    let binding = MorphBinding::new(&layout, eat);
    assert_eq!(binding.len(), 6, "six frames of the eating face");
    assert!(binding.unmatched_tracks.is_empty());
    let mut weights = vec![0.0; layout.len()];
    binding.sample(eat, 0.25, &mut weights);
    assert!(weights.iter().any(|w| *w > 0.1), "{weights:?}");
    // The head's sequences are the character's.
    let script = asset.model_script.as_deref().unwrap();
    let seq = &script.sequences[eat.script.as_ref().unwrap().sequence];
    assert_eq!(seq.name, "T_EAT");
    let _ = std::fs::remove_dir_all(&dir);
}

/// File › Add in the viewer: the head bound onto the open body goes through the same step.
#[cfg(feature = "gui")]
#[test]
fn file_add_attaches_a_gothic_head_to_the_open_body() {
    use bonescope::ui::commands::loader::{Progress, assemble, load_one};
    let Some(corpus) = common::corpus() else { return };
    let dir = generated::temp_dir("gothic-head-add");
    let mds = generated::humans_mds(&corpus, &dir);
    let opts = LoadOptions::default();
    let body = io::load_path(&mds, &opts).unwrap();
    let head = load_one(&generated::fatbald_mms(&corpus), &Progress::default(), &opts);
    let assembled = assemble(LoadedSet::onto(body), vec![head], &opts);
    assert_eq!(assembled.origins.len(), 1, "the head is one of the document's files");
    let asset = assembled.set.asset.unwrap();
    assert_eq!(asset.meshes.len(), 2);
    assert_eq!(assembled.set.reports[0].part.as_ref().unwrap().attached_to.as_deref(), Some("Bip01 Head"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_character_lying_in_its_file_stands_up_and_says_why() {
    let dir = generated::temp_dir("lying");
    let psk = generated::lying_mannequin_psk(&dir);
    let height = |asset: &Asset, name: &str| asset.axes.to_viewer.transform_point3(joint(asset, name)).y;
    // Read alone, ActorX's Z up lays it face-down: head and feet at one height.
    let raw = io::load_path(&psk, &LoadOptions::default()).unwrap();
    assert!((height(&raw, "head") - height(&raw, "foot_l")).abs() < 20.0, "lying in the file");
    let (asset, _) = open(std::slice::from_ref(&psk), &LoadOptions::default());
    assert!(height(&asset, "head") > height(&asset, "foot_l") + 150.0, "upright");
    assert!(!asset.axes.mirrors());
    let reading = asset.readings.iter().find(|r| r.topic == Reading::UP_AXIS).expect("the up axis is said");
    assert_eq!(reading.choice, "the file's +Y is up");
    assert!(reading.basis.contains("head stands above its feet") && reading.basis.contains("--up"), "{reading}");
    // Its front is still its front: the toes point forward.
    let front = bonescope::anim::facing::front_direction(&asset).unwrap();
    let toes = asset.axes.to_viewer.transform_point3(joint(&asset, "ball_l") - joint(&asset, "foot_l"));
    let toes = toes - asset.axes.to_viewer.transform_point3(Vec3::ZERO);
    assert!(front.dot(toes.normalize()) > 0.5, "front {front}, toes {toes}");
    // The override: the file's +Z, as the format says, by hand.
    let by_hand = LoadOptions { up: Some(UpAxis::PlusZ), ..LoadOptions::default() };
    let (lying, _) = open(&[psk], &by_hand);
    assert!((height(&lying, "head") - height(&lying, "foot_l")).abs() < 20.0);
    let reading = lying.readings.iter().find(|r| r.topic == Reading::UP_AXIS).unwrap();
    assert!(reading.basis.starts_with("set by hand"), "{reading}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn corpus_characters_that_stand_keep_their_formats_up_axis() {
    let Some(corpus) = common::corpus() else { return };
    for relative in [
        "psk/kit_SK_MaleBase_01_Body.psk",
        "psk/hp2_skgnomeMesh.psk",
        "psk/examplemesh.psk",
        "qc/halflife/models/headcrab/headcrab.qc",
        "mds/gothic/Anims/BLOODFLY.MDS",
        "ase/MotionCaptureROM.ase",
        "zengin/HUM_BODY_NAKED0.ASC",
        "mdl/hl1/models/man/man.qc",
        "smd/WusonSMD.smd",
    ] {
        let (asset, _) = open(&[corpus.join(relative)], &LoadOptions::default());
        assert!(!asset.readings.iter().any(|r| r.topic == Reading::UP_AXIS), "{relative} was turned");
    }
}

#[test]
fn a_qc_with_another_compilers_conditionals_loads_what_it_can() {
    let dir = generated::temp_dir("qc-if");
    let smd = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\ntriangles\nskin\n\
               0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\nend\n";
    std::fs::write(dir.join("ref.smd"), smd).unwrap();
    std::fs::write(dir.join("idle.smd"), smd).unwrap();
    // As the community compiler's scripts write it: a condition inside a sequence's block, and one around
    // commands.
    let qc = "$modelname x.mdl\n$body studio ref\n$sequence idle idle fps 10 {\n$IF HD_EVENTS\n  { event 1004 0 \"hd.wav\" }\n\
              $ELIF SD\n  { event 1004 0 \"sd.wav\" }\n$ENDIF\n}\n$if SECOND\n$sequence run idle fps 20\n$else\n\
              $sequence walk idle\n$endif\n";
    std::fs::write(dir.join("x.qc"), qc).unwrap();
    let asset = io::load_path(&dir.join("x.qc"), &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = asset.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["idle", "run"], "the first branches");
    assert_eq!(asset.clips[0].callback_keys.len(), 1);
    assert_eq!(asset.clips[0].callback_keys[0].data, "hd.wav");
    let said: Vec<String> = asset.warnings.iter().map(ToString::to_string).collect();
    let conditional: Vec<&String> = said.iter().filter(|w| w.contains("`$IF`")).collect();
    assert_eq!(conditional.len(), 2, "{said:?}");
    assert!(conditional[0].starts_with("line 4: `$IF` (lines 4–8) is a conditional of another compiler's QC dialect"));
    assert!(conditional[0].contains("not supported here") && conditional[0].contains("first branch was read"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes the generated characters of these tests into the folder `BONESCOPE_WRITE_CHARACTERS` names, to look at
/// them in the viewer (`cargo test --test characters -- --ignored`): the small body, head, crate and walk, the
/// lying mannequin, and with the corpus the kit's head and a HUMANS-shaped tree.
#[test]
#[ignore]
fn write_the_generated_characters() {
    let Some(dir) = std::env::var_os("BONESCOPE_WRITE_CHARACTERS").map(std::path::PathBuf::from) else { return };
    std::fs::create_dir_all(&dir).unwrap();
    generated::small_body_head_and_prop(&dir);
    generated::small_walk_psa(&dir);
    generated::lying_mannequin_psk(&dir);
    if let Some(corpus) = common::corpus() {
        generated::kit_head_psk(&corpus, &dir);
        generated::humans_mds(&corpus, &dir.join("gothic"));
    }
}
