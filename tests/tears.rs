//! The tear measure held to labels: clips labelled by what their renders show — torn (the surface visibly comes
//! apart) or intact (whole, however stretched) — must come out as errors exactly when torn. The labelled set is
//! a generated leg-and-torso character in SMD files (rigid knees bent with a sliver in the crease, a sliver at
//! the hip, a smooth knee, a torn knee, a limb pulled long, a torso pulled off the hips, a vertex bound to the
//! wrong bone) and, with `BONESCOPE_CORPUS`, every clip of the corpus characters (all intact: their worst frames
//! were rendered and looked at). The confusion table of the measure, and of the old ratio-only rule (an error
//! above 10×) for comparison, is printed (`cargo test --test tears -- --nocapture`).
//!
//! `BONESCOPE_TEARS_DIR=DIR` keeps the generated SMD files in DIR, to render them (`bonescope render`).

mod common;

use std::collections::BTreeMap;
use std::f32::consts::PI;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use bonescope::anim::diagnostics::{DiagnoseOptions, FindingKind, Severity, diagnose};
use bonescope::anim::{Pose, skin_mesh};
use bonescope::io::LoadOptions;
use bonescope::scene::Asset;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Label {
    Torn,
    Intact,
}

/// Bones: name, parent, bind translation from the parent (file frame, Z up).
/// A root at the feet and a pelvis under it, as rigs have them (Biped's Bip01 and Pelvis, UE's root and pelvis).
const BONES: [(&str, i32, [f32; 3]); 6] = [
    ("root", -1, [0.0, 0.0, 0.0]),
    ("pelvis", 0, [0.0, 0.0, 20.0]),
    ("thigh", 1, [0.0, 0.0, 0.0]),
    ("shin", 2, [0.0, 0.0, -10.0]),
    ("foot", 3, [0.0, 0.0, -10.0]),
    ("spine", 1, [0.0, 0.0, 0.0]),
];

/// Ring heights of the tube: a sliver ring pair 0.05 apart at the knee (z = 10) and 0.04 apart at the hip
/// (z = 20), as low-poly exporters leave them in creases.
const THIGH: usize = 2;
const SHIN: usize = 3;
const SPINE: usize = 5;

const RINGS: [f32; 15] = [0.0, 2.5, 5.0, 7.5, 9.975, 10.025, 12.5, 15.0, 17.5, 19.98, 20.02, 25.0, 30.0, 35.0, 40.0];
const SIDES: usize = 8;
const RADIUS: f32 = 2.5;

#[derive(Clone, Copy)]
enum Skin {
    /// Every vertex on one bone: below the knee the shin, to the hip the thigh, above it the spine.
    Rigid,
    /// Blended over 2.5 units either side of the knee.
    Smooth,
    /// Rigid, but one vertex near the ankle (ring z = 2.5, side 0) bound to the thigh.
    WrongBone,
}

/// Bone weights of a vertex at height `z`, side `side`.
fn links(skin: Skin, z: f32, side: usize) -> Vec<(usize, f32)> {
    let rigid = if z < 10.0 {
        SHIN
    } else if z < 20.0 {
        THIGH
    } else {
        SPINE
    };
    match skin {
        Skin::Rigid => vec![(rigid, 1.0)],
        Skin::WrongBone if z == 2.5 && side == 0 => vec![(THIGH, 1.0)],
        Skin::WrongBone => vec![(rigid, 1.0)],
        Skin::Smooth if (7.5..=12.5).contains(&z) => {
            let t = (z - 7.5) / 5.0;
            vec![(SHIN, 1.0 - t), (THIGH, t)]
        }
        Skin::Smooth => vec![(rigid, 1.0)],
    }
}

fn nodes(s: &mut String) {
    s.push_str("version 1\nnodes\n");
    for (i, (name, parent, _)) in BONES.iter().enumerate() {
        let _ = writeln!(s, "{i} \"{name}\" {parent}");
    }
    s.push_str("end\n");
}

/// A reference SMD of the tube skinned as `skin`.
fn reference(skin: Skin) -> String {
    let mut s = String::new();
    nodes(&mut s);
    s.push_str("skeleton\ntime 0\n");
    for (i, (_, _, t)) in BONES.iter().enumerate() {
        let _ = writeln!(s, "{i} {} {} {} 0 0 0", t[0], t[1], t[2]);
    }
    s.push_str("end\ntriangles\n");
    let corner = |s: &mut String, ring: usize, side: usize| {
        let (z, a) = (RINGS[ring], (side % SIDES) as f32 / SIDES as f32 * 2.0 * PI);
        let l = links(skin, z, side % SIDES);
        let mut line = format!(
            "{} {:.4} {:.4} {z:.4} {:.4} {:.4} 0 {:.4} {:.4} {}",
            l[0].0,
            RADIUS * a.cos(),
            RADIUS * a.sin(),
            a.cos(),
            a.sin(),
            (side % SIDES) as f32 / SIDES as f32,
            z / 40.0,
            l.len()
        );
        for (b, w) in &l {
            let _ = write!(line, " {b} {w:.4}");
        }
        let _ = writeln!(s, "{line}");
    };
    for ring in 0..RINGS.len() - 1 {
        for side in 0..SIDES {
            for tri in [
                [(ring, side), (ring, side + 1), (ring + 1, side + 1)],
                [(ring, side), (ring + 1, side + 1), (ring + 1, side)],
            ] {
                s.push_str("skin\n");
                for (r, c) in tri {
                    corner(&mut s, r, c);
                }
            }
        }
    }
    s.push_str("end\n");
    s
}

/// Local pose of one bone at one frame: translation and XYZ Euler rotation (radians), file frame.
type Local = ([f32; 3], [f32; 3]);

/// An animation SMD of 11 frames; `pose(frame, bone)` gives each bone's local pose (frame 0..=10).
fn animation(pose: impl Fn(usize, usize) -> Local) -> String {
    let mut s = String::new();
    nodes(&mut s);
    s.push_str("skeleton\n");
    for f in 0..=10 {
        let _ = writeln!(s, "time {f}");
        for b in 0..BONES.len() {
            let (t, r) = pose(f, b);
            let _ = writeln!(s, "{b} {} {} {} {} {} {}", t[0], t[1], t[2], r[0], r[1], r[2]);
        }
    }
    s.push_str("end\n");
    s
}

/// The bind pose, with `change` applied to one bone's local pose, scaled by `f / 10` (frame 0: bind).
fn moving(bone: usize, change: impl Fn(f32) -> Local) -> impl Fn(usize, usize) -> Local {
    move |f, b| {
        let bind = BONES[b].2;
        if b != bone {
            return (bind, [0.0; 3]);
        }
        let (dt, r) = change(f as f32 / 10.0);
        ([bind[0] + dt[0], bind[1] + dt[1], bind[2] + dt[2]], r)
    }
}

/// One labelled generated case: its name, label, skinning and animation.
struct Case {
    name: &'static str,
    label: Label,
    skin: Skin,
    clip: String,
}

fn cases() -> Vec<Case> {
    let bend = |degrees: f32| animation(moving(SHIN, move |k| ([0.0; 3], [k * degrees.to_radians(), 0.0, 0.0])));
    vec![
        Case { name: "rigid_knee_90", label: Label::Intact, skin: Skin::Rigid, clip: bend(90.0) },
        Case { name: "rigid_knee_150", label: Label::Intact, skin: Skin::Rigid, clip: bend(150.0) },
        Case { name: "smooth_knee_120", label: Label::Intact, skin: Skin::Smooth, clip: bend(120.0) },
        // The thigh swings forward at the hip: the sliver between hip and torso opens 40× and more.
        Case {
            name: "hip_sliver_70",
            label: Label::Intact,
            skin: Skin::Rigid,
            clip: animation(moving(THIGH, |k| ([0.0; 3], [-k * 70f32.to_radians(), 0.0, 0.0]))),
        },
        Case {
            name: "sway",
            label: Label::Intact,
            skin: Skin::Smooth,
            clip: animation(moving(SPINE, |k| ([0.0; 3], [0.0, (k * PI).sin() * 0.3, 0.0]))),
        },
        // The shin comes 8 units off the knee (a fifth of the character), down and aside: a slanted slab of
        // stretched skin through the leg.
        Case {
            name: "torn_knee",
            label: Label::Torn,
            skin: Skin::Rigid,
            clip: animation(moving(SHIN, |k| ([4.0 * k, 0.0, -7.0 * k], [0.0; 3]))),
        },
        // A claw pulled from 10 to 40 units long, the skin across the knee with it.
        Case {
            name: "limb_pulled_long",
            label: Label::Torn,
            skin: Skin::Smooth,
            clip: animation(moving(SHIN, |k| ([0.0, 0.0, -30.0 * k], [0.0; 3]))),
        },
        // The torso pushed 6 units off the hips, up and aside: a slab of stretched skin at the waist.
        Case {
            name: "torso_off_hips",
            label: Label::Torn,
            skin: Skin::Rigid,
            clip: animation(moving(SPINE, |k| ([0.0, 4.5 * k, 4.0 * k], [0.0; 3]))),
        },
        // The knee bends while one ankle vertex follows the thigh: a spike out of the shin.
        Case { name: "wrong_bone_vertex", label: Label::Torn, skin: Skin::WrongBone, clip: bend(90.0) },
        // The same vertex while the knee barely moves: the spike is too small to see.
        Case { name: "wrong_bone_still", label: Label::Intact, skin: Skin::WrongBone, clip: bend(3.0) },
    ]
}

/// Where generated files go: `BONESCOPE_TEARS_DIR`, else a temporary folder removed at the end.
fn out_dir() -> (PathBuf, bool) {
    match std::env::var_os("BONESCOPE_TEARS_DIR") {
        Some(dir) => (PathBuf::from(dir), true),
        None => (std::env::temp_dir().join(format!("bonescope-tears-{}", std::process::id())), false),
    }
}

fn load(files: &[PathBuf]) -> Option<Asset> {
    match bonescope::source::load_files(files, &LoadOptions::default()).into_result() {
        Ok((asset, _)) => Some(asset),
        Err(e) => {
            eprintln!("skipped {files:?}: {e}");
            None
        }
    }
}

/// Each clip's severity under the tear measure, its stretch ratio and its message.
fn verdicts(asset: &Asset) -> BTreeMap<String, (Severity, f32, String)> {
    let findings = diagnose(asset, &DiagnoseOptions::default());
    findings
        .into_iter()
        .filter(|f| f.kind == FindingKind::ClipStretch && !f.summary)
        .filter_map(|f| {
            let clip = asset.clips.get(f.at?.clip)?.name.clone();
            Some((clip, (f.severity, f.value.unwrap_or(0.0), f.message)))
        })
        .collect()
}

/// What the message of a torn case must say made the tear.
fn cause(case: &str) -> Option<&'static str> {
    match case {
        "wrong_bone_vertex" => Some("a vertex bound to another bone than the skin around it"),
        "torn_knee" | "limb_pulled_long" | "torso_off_hips" => Some("a bone moves off its joint"),
        _ => None,
    }
}

/// The old rule's verdict: the largest edge ratio over every source frame, an error above 10×.
fn ratio_rule(asset: &Asset, clip: usize) -> Severity {
    let c = &asset.clips[clip];
    let frames = c.frame_count.max(1);
    let mut worst = 0.0f32;
    let (mut positions, mut normals) = (Vec::new(), Vec::new());
    for f in 0..frames {
        let time = if c.frame_rate > 0.0 { f as f32 / c.frame_rate } else { 0.0 };
        let pose = Pose::from_clip(&asset.skeleton, c, time);
        for mesh in &asset.meshes {
            skin_mesh(mesh, &pose.palette, &mut positions, &mut normals);
            for tri in mesh.indices.chunks_exact(3) {
                for (a, b) in [(tri[0], tri[1]), (tri[1], tri[2]), (tri[2], tri[0])] {
                    let (a, b) = (a as usize, b as usize);
                    let bind = (mesh.positions[a] - mesh.positions[b]).length();
                    if bind > 0.0 {
                        worst = worst.max((positions[a] - positions[b]).length() / bind);
                    }
                }
            }
        }
    }
    if worst > 10.0 {
        Severity::Error
    } else if worst > 2.0 {
        Severity::Warning
    } else {
        Severity::Info
    }
}

/// (label, verdict) counts, printed as a table.
#[derive(Default)]
struct Confusion(BTreeMap<(Label, Severity), usize>);

impl Confusion {
    fn add(&mut self, label: Label, severity: Severity) {
        *self.0.entry((label, severity)).or_insert(0) += 1;
    }

    fn table(&self, title: &str) -> String {
        let mut s = format!("{title}\n  label     error  warning  info\n");
        for label in [Label::Torn, Label::Intact] {
            let n = |sev| self.0.get(&(label, sev)).copied().unwrap_or(0);
            let _ = writeln!(
                s,
                "  {:<8} {:>6} {:>8} {:>5}",
                format!("{label:?}").to_lowercase(),
                n(Severity::Error),
                n(Severity::Warning),
                n(Severity::Info)
            );
        }
        s
    }
}

/// The corpus characters, each with every clip it plays (all labelled intact).
fn corpus_characters(corpus: &Path) -> Vec<(String, Vec<PathBuf>)> {
    let c = |p: &str| corpus.join(p);
    vec![
        ("headcrab".into(), vec![c("qc/halflife/models/headcrab/headcrab.qc")]),
        ("bloodfly".into(), vec![c("mds/gothic/Anims/BLOODFLY.MDS")]),
        (
            "kit".into(),
            vec![
                c("psk/kit_SK_MaleBase_01_Body.psk"),
                c("psk/kit_SK_Male_TShirt_01.psk"),
                c("psa/kit_MOB1_M1_Walk_Relaxed_F_Loop_IP.psa"),
            ],
        ),
        ("gnome".into(), vec![c("psk/hp2_skgnomeMesh.psk"), c("psa/hp2_skgnomeAnims.psa")]),
        ("examplemesh".into(), vec![c("psk/examplemesh.psk"), c("psa/pendulum.psa")]),
        ("motion_capture".into(), vec![c("ase/MotionCaptureROM.ase")]),
    ]
}

#[test]
fn tears_are_errors_and_intact_clips_are_not() {
    let (dir, keep) = out_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let (mut measure, mut ratio) = (Confusion::default(), Confusion::default());
    let mut wrong = Vec::new();
    let mut report = String::new();
    for case in cases() {
        let mesh = dir.join(format!("{}_ref.smd", case.name));
        let clip = dir.join(format!("{}.smd", case.name));
        std::fs::write(&mesh, reference(case.skin)).unwrap();
        std::fs::write(&clip, &case.clip).unwrap();
        let asset = load(&[mesh, clip]).expect("the generated files load");
        let verdict = verdicts(&asset);
        let (severity, value, message) = verdict[case.name].clone();
        if let Some(cause) = cause(case.name) {
            assert!(message.contains(cause), "{}: {message}", case.name);
        }
        measure.add(case.label, severity);
        ratio.add(case.label, ratio_rule(&asset, 0));
        let _ = writeln!(report, "  {:<20} {:<7?} {severity:?} ({value:.1}×)", case.name, case.label);
        if (case.label == Label::Torn) != (severity == Severity::Error) {
            wrong.push(format!("{} ({:?}) came out {severity:?}", case.name, case.label));
        }
    }
    if let Some(corpus) = common::corpus() {
        for (name, files) in corpus_characters(&corpus) {
            let Some(asset) = load(&files) else { continue };
            for (clip, (severity, value, _)) in verdicts(&asset) {
                measure.add(Label::Intact, severity);
                let index = asset.clips.iter().position(|c| c.name == clip).unwrap();
                ratio.add(Label::Intact, ratio_rule(&asset, index));
                if severity == Severity::Error {
                    wrong.push(format!("{name} clip '{clip}' (intact) came out an error ({value:.1}×)"));
                }
            }
        }
    }
    eprintln!("{report}");
    eprintln!("{}", measure.table("tear measure (rows: label; columns: severity)"));
    eprintln!("{}", ratio.table("old ratio rule, an error above 10× (rows: label; columns: severity)"));
    if !keep {
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
