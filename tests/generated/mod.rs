//! Characters made by the tests for the round-two character checks (`characters.rs`, `same_character.rs`):
//! a small body and a head that has face bones the body lacks, a prop of another skeleton, the Unreal kit's
//! head (the corpus body's 70 bones plus the 22 face bones the kit's walk animates, as the kit's real head PSK
//! has them), a mannequin lying down in its PSK (its head along the file's +Y), and a HUMANS-shaped Gothic model
//! script around the corpus's human body. Written as files, read back through the loaders. Each test crate
//! that uses this module also declares `mod common;` and `mod psk_writer;`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use bonescope::scene::{Skeleton, Transform};
use glam::{Mat4, Quat, Vec3};

use super::psk_writer::{Bone, Psk};

/// A fresh folder under the system's temporary folder.
pub fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-characters-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The bones' to-root matrices of `bones` (psk_writer's convention: the root's parent is itself).
fn to_root(bones: &[Bone]) -> Vec<Mat4> {
    let mut skeleton = Skeleton::default();
    for (i, b) in bones.iter().enumerate() {
        let parent = (i > 0).then_some(b.parent as usize);
        skeleton.push(b.name.clone(), parent, Transform::from_translation_rotation(b.position, b.rotation));
    }
    skeleton.bind_to_root()
}

/// Appends a closed box around the segment `a`–`b` (half-width `r`), every corner weighted wholly to `bone`;
/// faces clockwise seen from outside, as ActorX writes them.
fn add_box(psk: &mut Psk, a: Vec3, b: Vec3, r: f32, bone: usize, material: u8) {
    let axis = (b - a).normalize_or(Vec3::Z);
    let helper = if axis.z.abs() < 0.9 { Vec3::Z } else { Vec3::X };
    let u = axis.cross(helper).normalize() * r;
    let v = axis.cross(u).normalize() * r;
    let first_wedge = psk.wedges.len() as u32;
    for end in [a, b] {
        for (su, sv) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            let p = end + u * su + v * sv;
            let i = psk.points.len() as u32;
            psk.points.push(p);
            psk.weights.push((1.0, i as i32, bone as i32));
            psk.wedges.push((i, su * 0.5 + 0.5, sv * 0.5 + 0.5, material));
        }
    }
    let w = |i: u32| first_wedge + i;
    // Sides (0..4 at a, 4..8 at b), then the two caps; each quad as two triangles, outward normals when wound
    // counter-clockwise, so written reversed.
    let mut quads: Vec<[u32; 4]> = (0..4).map(|k| [k, (k + 1) % 4, 4 + (k + 1) % 4, 4 + k]).collect();
    quads.push([3, 2, 1, 0]);
    quads.push([4, 5, 6, 7]);
    for q in quads {
        psk.faces.push(([w(q[2]), w(q[1]), w(q[0])], material, 1));
        psk.faces.push(([w(q[3]), w(q[2]), w(q[0])], material, 1));
    }
}

/// A small biped's bones (PSK: Z up, facing −Y, its left at +X): root, pelvis, spine, head, thighs.
fn small_biped() -> Vec<Bone> {
    let at = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
    vec![
        Bone::new("root", 0, Quat::IDENTITY, Vec3::ZERO),
        Bone::new("pelvis", 0, Quat::IDENTITY, at(0.0, 0.0, 95.0)),
        Bone::new("spine", 1, Quat::IDENTITY, at(0.0, 0.0, 30.0)),
        Bone::new("head", 2, Quat::IDENTITY, at(0.0, 0.0, 40.0)),
        Bone::new("thigh_l", 1, Quat::IDENTITY, at(10.0, 0.0, -5.0)),
        Bone::new("thigh_r", 1, Quat::IDENTITY, at(-10.0, 0.0, -5.0)),
    ]
}

/// A body (torso and legs) on [`small_biped`]'s bones; a head file with those bones and three face bones the
/// body lacks (`jaw`, `eye_l`, `eye_r`), whose vertices follow the face bones only; and a prop of another
/// skeleton (`Box01`, `Box02`). Returns (body, head, prop).
pub fn small_body_head_and_prop(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let bones = small_biped();
    let m = to_root(&bones);
    let p = |i: usize| m[i].w_axis.truncate();
    let mut body = Psk { bones: bones.clone(), materials: vec![("body".into(), 0)], ..Psk::default() };
    add_box(&mut body, p(1), p(3), 12.0, 2, 0);
    add_box(&mut body, p(4), p(4) - Vec3::Z * 90.0, 6.0, 4, 0);
    add_box(&mut body, p(5), p(5) - Vec3::Z * 90.0, 6.0, 5, 0);

    let mut head_bones = bones.clone();
    head_bones.push(Bone::new("jaw", 3, Quat::IDENTITY, Vec3::new(0.0, -6.0, 2.0)));
    head_bones.push(Bone::new("eye_l", 3, Quat::IDENTITY, Vec3::new(3.0, -8.0, 10.0)));
    head_bones.push(Bone::new("eye_r", 3, Quat::IDENTITY, Vec3::new(-3.0, -8.0, 10.0)));
    let hm = to_root(&head_bones);
    let hp = |i: usize| hm[i].w_axis.truncate();
    let mut head = Psk { bones: head_bones, materials: vec![("face".into(), 0)], ..Psk::default() };
    add_box(&mut head, hp(6), hp(6) + Vec3::Z * 4.0, 4.0, 6, 0);
    add_box(&mut head, hp(7), hp(7) - Vec3::Y * 2.0, 1.5, 7, 0);
    add_box(&mut head, hp(8), hp(8) - Vec3::Y * 2.0, 1.5, 8, 0);

    let mut prop = Psk {
        bones: vec![
            Bone::new("Box01", 0, Quat::IDENTITY, Vec3::ZERO),
            Bone::new("Box02", 0, Quat::IDENTITY, Vec3::new(0.0, 0.0, 10.0)),
        ],
        materials: vec![("wood".into(), 0)],
        ..Psk::default()
    };
    add_box(&mut prop, Vec3::ZERO, Vec3::Z * 10.0, 3.0, 1, 0);

    let paths = (dir.join("body.psk"), dir.join("head.psk"), dir.join("crate.psk"));
    std::fs::write(&paths.0, body.to_bytes()).unwrap();
    std::fs::write(&paths.1, head.to_bytes()).unwrap();
    std::fs::write(&paths.2, prop.to_bytes()).unwrap();
    paths
}

/// The names of the kit walk's 22 face bones (the tracks its body lacks).
pub const KIT_FACE_BONES: [&str; 22] = [
    "jaw",
    "beard",
    "nose_01",
    "nose_02",
    "eye_root_r",
    "eyelid_down_r",
    "eyelid_up_r",
    "eye_r",
    "eye_root_l",
    "eyelid_down_l",
    "eyelid_up_l",
    "eye_l",
    "cheekbone_l",
    "underlip",
    "cheekbone_r",
    "eyebrow_l",
    "lip_l",
    "lip_r",
    "upper_lip",
    "eye_sockets_l",
    "eye_sockets_r",
    "eyebrow_r",
];

/// The kit's head as its real PSK is made: the corpus body's 70 bones and the 22 face bones of the walk's
/// skeleton (their bind poses as the walk's PSA gives them, under the head), and a head-shaped mesh (a sphere around the face
/// bones) whose vertices follow the nearest face bone. Written to `dir/kit_SK_Male_Head.psk`.
pub fn kit_head_psk(corpus: &Path, dir: &Path) -> PathBuf {
    let opts = bonescope::io::LoadOptions::default();
    let body = bonescope::io::load_path(&corpus.join("psk/kit_SK_MaleBase_01_Body.psk"), &opts).unwrap();
    let walk = bonescope::io::load_path(&corpus.join("psa/kit_MOB1_M1_Walk_Relaxed_F_Loop_IP.psa"), &opts).unwrap();
    let s = &body.skeleton;
    let mut bones: Vec<Bone> = (0..s.len())
        .map(|b| {
            let local = s.bind_local[b];
            Bone::new(&s.names[b], s.parents[b].map_or(0, |p| p as i32), local.rotation, local.translation)
        })
        .collect();
    let index_of = |bones: &[Bone], name: &str| bones.iter().position(|b| b.name.eq_ignore_ascii_case(name));
    for name in KIT_FACE_BONES {
        let w = walk.skeleton.find(name).unwrap_or_else(|| panic!("the walk has no {name}"));
        // The PSA names `root` as every bone's parent (its parent indices mean nothing, see the corpus notes);
        // the face bones hang from the head, the eyes and eyelids from their eye roots.
        let parent_name = match name.rsplit_once('_') {
            Some(("eye" | "eyelid_down" | "eyelid_up", side)) => format!("eye_root_{side}"),
            _ => "head".to_owned(),
        };
        let parent = index_of(&bones, &parent_name).unwrap_or_else(|| panic!("{name}'s parent {parent_name}"));
        let local = walk.skeleton.bind_local[w];
        bones.push(Bone::new(name, parent as i32, local.rotation, local.translation));
    }
    let m = to_root(&bones);
    let face: Vec<usize> = KIT_FACE_BONES.iter().map(|n| index_of(&bones, n).unwrap()).collect();
    let centre = face.iter().map(|&b| m[b].w_axis.truncate()).sum::<Vec3>() / face.len() as f32;
    let radius = face.iter().map(|&b| m[b].w_axis.truncate().distance(centre)).fold(0.0, f32::max) + 2.0;
    let mut psk = Psk { bones, materials: vec![("MI_Male_Head".into(), 0)], ..Psk::default() };
    let (rings, sides) = (10usize, 16usize);
    for r in 0..=rings {
        let polar = r as f32 / rings as f32 * std::f32::consts::PI;
        for k in 0..sides {
            let a = k as f32 / sides as f32 * std::f32::consts::TAU;
            let p = centre + Vec3::new(polar.sin() * a.cos(), polar.sin() * a.sin(), polar.cos()) * radius;
            let i = psk.points.len();
            let nearest = face
                .iter()
                .copied()
                .min_by(|&x, &y| m[x].w_axis.truncate().distance(p).total_cmp(&m[y].w_axis.truncate().distance(p)))
                .unwrap();
            psk.points.push(p);
            psk.weights.push((1.0, i as i32, nearest as i32));
            psk.wedges.push((i as u32, k as f32 / sides as f32, r as f32 / rings as f32, 0));
        }
    }
    let w = |r: usize, k: usize| (r * sides + k % sides) as u32;
    for r in 0..rings {
        for k in 0..sides {
            // Clockwise seen from outside, as ActorX writes them.
            psk.faces.push(([w(r, k + 1), w(r + 1, k), w(r, k)], 0, 1));
            psk.faces.push(([w(r, k + 1), w(r + 1, k + 1), w(r + 1, k)], 0, 1));
        }
    }
    let path = dir.join("kit_SK_Male_Head.psk");
    std::fs::write(&path, psk.to_bytes()).unwrap();
    path
}

/// A mannequin (legs, spine, arms, head; Unreal's bone names) as a Blender export that kept Blender's axes writes
/// it: in the PSK its head points along +Y instead of ActorX's +Z, so under ActorX's convention it lies
/// face-down. Its left side (`thigh_l`, `upperarm_l`) is at +X; a box per bone makes its body.
pub fn lying_mannequin_psk(dir: &Path) -> PathBuf {
    let at = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
    // Standing (Z up), then the whole rig turned so that +Z goes to +Y: a quarter turn about X on the root.
    let lay_down = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    let mut bones = vec![
        Bone::new("root", 0, lay_down, Vec3::ZERO),
        Bone::new("pelvis", 0, Quat::IDENTITY, at(0.0, 0.0, 95.0)),
        Bone::new("spine_01", 1, Quat::IDENTITY, at(0.0, 0.0, 20.0)),
        Bone::new("spine_02", 2, Quat::IDENTITY, at(0.0, 0.0, 20.0)),
        Bone::new("neck_01", 3, Quat::IDENTITY, at(0.0, 0.0, 25.0)),
        Bone::new("head", 4, Quat::IDENTITY, at(0.0, 0.0, 10.0)),
    ];
    for (side, x) in [("l", 1.0f32), ("r", -1.0)] {
        let thigh = bones.len() as i32;
        bones.push(Bone::new(&format!("thigh_{side}"), 1, Quat::IDENTITY, at(10.0 * x, 0.0, -5.0)));
        bones.push(Bone::new(&format!("calf_{side}"), thigh, Quat::IDENTITY, at(0.0, 0.0, -42.0)));
        bones.push(Bone::new(&format!("foot_{side}"), thigh + 1, Quat::IDENTITY, at(0.0, 0.0, -40.0)));
        bones.push(Bone::new(&format!("ball_{side}"), thigh + 2, Quat::IDENTITY, at(0.0, -14.0, -7.0)));
        let arm = bones.len() as i32;
        bones.push(Bone::new(&format!("upperarm_{side}"), 3, Quat::IDENTITY, at(20.0 * x, 0.0, 18.0)));
        bones.push(Bone::new(&format!("lowerarm_{side}"), arm, Quat::IDENTITY, at(28.0 * x, 0.0, 0.0)));
        bones.push(Bone::new(&format!("hand_{side}"), arm + 1, Quat::IDENTITY, at(26.0 * x, 0.0, 0.0)));
    }
    let m = to_root(&bones);
    let p = |i: usize| m[i].w_axis.truncate();
    let mut psk = Psk { bones: bones.clone(), materials: vec![("mannequin".into(), 0)], ..Psk::default() };
    for (b, bone) in bones.iter().enumerate().skip(1) {
        let parent = bone.parent as usize;
        if parent == 0 {
            continue;
        }
        let r = if bone.name.starts_with("spine") || bone.name == "neck_01" { 11.0 } else { 5.0 };
        add_box(&mut psk, p(parent), p(b), r, parent, 0);
    }
    // The head: a box above the head joint, along the rig's up.
    let up = m[0].transform_vector3(Vec3::Z);
    add_box(&mut psk, p(5), p(5) + up * 22.0, 9.0, 5, 0);
    let path = dir.join("lying_mannequin.psk");
    std::fs::write(&path, psk.to_bytes()).unwrap();
    path
}

/// A HUMANS-shaped Gothic model script (`meshAndTree` of the human body without its mesh, the body registered)
/// beside a copy of the corpus's `HUM_BODY_NAKED0.ASC`, in `dir/Anims/`. Returns the script.
pub fn humans_mds(corpus: &Path, dir: &Path) -> PathBuf {
    let anims = dir.join("Anims");
    std::fs::create_dir_all(&anims).unwrap();
    std::fs::copy(corpus.join("zengin/HUM_BODY_NAKED0.ASC"), anims.join("HUM_BODY_NAKED0.ASC")).unwrap();
    let mds = anims.join("HUMANS.MDS");
    std::fs::write(
        &mds,
        "Model (\"HUMANS\")\n{\n\tmeshAndTree (\"HUM_BODY_NAKED0.ASC\" DONT_USE_MESH)\n\tregisterMesh (\"HUM_BODY_NAKED0.ASC\")\n\
         \taniEnum\n\t{\n\t}\n}\n",
    )
    .unwrap();
    mds
}

/// The corpus's FATBALD head script.
pub fn fatbald_mms(corpus: &Path) -> PathBuf {
    corpus.join("mds/gothic/Anims/ASC_MORPHMESH/HEADS/HUM_HEAD_FATBALD/HUM_HEAD_FATBALD.MMS")
}

/// A walk of the small biped with the head's face bones, as the kit's exporter wrote its walk: the spine sways,
/// the other body bones hold their bind pose, and the face bones carry identity keys (no rotation, zero
/// translation) — placeholders — on every frame. Written to `dir/walk.psa`.
pub fn small_walk_psa(dir: &Path) -> PathBuf {
    use super::psk_writer::{Psa, Sequence};
    let mut bones = small_biped();
    bones.push(Bone::new("jaw", 3, Quat::IDENTITY, Vec3::new(0.0, -6.0, 2.0)));
    bones.push(Bone::new("eye_l", 3, Quat::IDENTITY, Vec3::new(3.0, -8.0, 10.0)));
    bones.push(Bone::new("eye_r", 3, Quat::IDENTITY, Vec3::new(-3.0, -8.0, 10.0)));
    let frames = 4;
    let mut keys = Vec::new();
    for f in 0..frames {
        for (b, bone) in bones.iter().enumerate() {
            keys.push(match b {
                6.. => (Vec3::ZERO, Quat::IDENTITY),
                2 => (bone.position, Quat::from_rotation_x(0.1 * f as f32)),
                _ => (bone.position, bone.rotation),
            });
        }
    }
    let psa = Psa {
        sequences: vec![Sequence {
            name: "walk".into(),
            rate: 10.0,
            first_frame: 0,
            frames,
            total_bones: bones.len() as i32,
        }],
        bones,
        keys,
        ..Psa::default()
    };
    let path = dir.join("walk.psa");
    std::fs::write(&path, psa.to_bytes()).unwrap();
    path
}
