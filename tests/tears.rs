//! The surface verdicts held to labels: clips labelled by what their renders show — torn (the surface opens, a
//! joint comes apart, the skin flies off: an error), distorted (a spike or web of skin that stays attached,
//! plain to see: a warning, never an error) or intact (whole, however stretched: never an error) — must come out
//! so. The labelled set is generated in SMD files:
//!
//! - a leg-and-torso tube: rigid knees bent with a sliver in the crease, a sliver at the hip, a smooth knee, a
//!   sway (intact); a vertex bound to the wrong bone (distorted when the knee bends, intact when it barely does);
//!   a torn knee, a limb pulled long, a torso pulled off the hips (a joint comes apart), a leg split at the knee
//!   into two pieces whose seam opens when it bends, a foot flung off (torn);
//! - a humanoid in the poses that rigidly skinned game characters take and that shipped, working assets show
//!   every day (intact): an armpit stretched in a dead pose, a knee crease, a robe's wings following a raised
//!   arm, a skirt on a character lying with its legs apart;
//!
//! and, with `BONESCOPE_CORPUS`, every clip of the corpus characters (all intact: their worst frames were
//! rendered and looked at). The confusion table of the verdicts, and of the old ratio-only rule (an error above
//! 10×) for comparison, is printed (`cargo test --test tears -- --nocapture`).
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
use glam::Vec3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Label {
    /// The surface opens, a joint comes apart or the skin flies off: an error.
    Torn,
    /// A closed surface visibly distorted (a spike that stays attached): a warning.
    Distorted,
    /// Whole, however stretched: not an error.
    Intact,
}

impl Label {
    /// Whether a verdict is right for this label.
    fn accepts(self, severity: Severity) -> bool {
        match self {
            Label::Torn => severity == Severity::Error,
            Label::Distorted => severity == Severity::Warning,
            Label::Intact => severity != Severity::Error,
        }
    }
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
    /// Smooth, but made of two pieces that meet at the knee: the knee's two rings both at z = 10 (one point per
    /// side in the bind pose) and no triangle between them — a mesh welded only by position — and the upper
    /// piece's ring lost the blend: on the thigh alone where the lower piece's blends shin and thigh.
    Split,
}

/// The knee's two rings (the sliver pair).
const KNEE_RINGS: [usize; 2] = [4, 5];

/// The height of ring `ring` for `skin`: a split leg's knee rings meet at z = 10.
fn ring_height(skin: Skin, ring: usize) -> f32 {
    match skin {
        Skin::Split if KNEE_RINGS.contains(&ring) => 10.0,
        _ => RINGS[ring],
    }
}

/// Bone weights of a vertex of ring `ring`, side `side`.
fn links(skin: Skin, ring: usize, side: usize) -> Vec<(usize, f32)> {
    let z = RINGS[ring];
    let rigid = if z < 10.0 {
        SHIN
    } else if z < 20.0 {
        THIGH
    } else {
        SPINE
    };
    match skin {
        Skin::Rigid => vec![(rigid, 1.0)],
        Skin::Split if ring == KNEE_RINGS[1] => vec![(THIGH, 1.0)],
        Skin::WrongBone if z == 2.5 && side == 0 => vec![(THIGH, 1.0)],
        Skin::WrongBone => vec![(rigid, 1.0)],
        Skin::Smooth | Skin::Split if (7.5..=12.5).contains(&z) => {
            let t = (z - 7.5) / 5.0;
            vec![(SHIN, 1.0 - t), (THIGH, t)]
        }
        Skin::Smooth | Skin::Split => vec![(rigid, 1.0)],
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
        let (z, a) = (ring_height(skin, ring), (side % SIDES) as f32 / SIDES as f32 * 2.0 * PI);
        let l = links(skin, ring, side % SIDES);
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
        if matches!(skin, Skin::Split) && ring == KNEE_RINGS[0] {
            // The two pieces are not joined by any triangle.
            continue;
        }
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

/// One labelled generated case: its name, label, reference and animation (SMD text).
struct Case {
    name: &'static str,
    label: Label,
    reference: String,
    clip: String,
}

fn tube_case(name: &'static str, label: Label, skin: Skin, clip: String) -> Case {
    Case { name, label, reference: reference(skin), clip }
}

fn cases() -> Vec<Case> {
    let bend = |degrees: f32| animation(moving(SHIN, move |k| ([0.0; 3], [k * degrees.to_radians(), 0.0, 0.0])));
    let mut cases = vec![
        tube_case("rigid_knee_90", Label::Intact, Skin::Rigid, bend(90.0)),
        tube_case("rigid_knee_150", Label::Intact, Skin::Rigid, bend(150.0)),
        tube_case("smooth_knee_120", Label::Intact, Skin::Smooth, bend(120.0)),
        // The thigh swings forward at the hip: the sliver between hip and torso opens 40× and more.
        tube_case(
            "hip_sliver_70",
            Label::Intact,
            Skin::Rigid,
            animation(moving(THIGH, |k| ([0.0; 3], [-k * 70f32.to_radians(), 0.0, 0.0]))),
        ),
        tube_case(
            "sway",
            Label::Intact,
            Skin::Smooth,
            animation(moving(SPINE, |k| ([0.0; 3], [0.0, (k * PI).sin() * 0.3, 0.0]))),
        ),
        // The shin comes 8 units off the knee (a fifth of the character), down and aside: a slanted slab of
        // stretched skin through the leg.
        tube_case(
            "torn_knee",
            Label::Torn,
            Skin::Rigid,
            animation(moving(SHIN, |k| ([4.0 * k, 0.0, -7.0 * k], [0.0; 3]))),
        ),
        // A claw pulled from 10 to 40 units long, the skin across the knee with it.
        tube_case(
            "limb_pulled_long",
            Label::Torn,
            Skin::Smooth,
            animation(moving(SHIN, |k| ([0.0, 0.0, -30.0 * k], [0.0; 3]))),
        ),
        // The torso pushed 6 units off the hips, up and aside: a slab of stretched skin at the waist.
        tube_case(
            "torso_off_hips",
            Label::Torn,
            Skin::Rigid,
            animation(moving(SPINE, |k| ([0.0, 4.5 * k, 4.0 * k], [0.0; 3]))),
        ),
        // The knee bends while one ankle vertex follows the thigh: a spike out of the shin, still attached — as
        // rigidly skinned game models have one wherever a vertex sits on the other bone of a border.
        tube_case("wrong_bone_vertex", Label::Distorted, Skin::WrongBone, bend(90.0)),
        // The same vertex while the knee barely moves: the spike is too small to see.
        tube_case("wrong_bone_still", Label::Intact, Skin::WrongBone, bend(3.0)),
        // A smooth leg in two pieces welded by position at the knee, one side of the seam without its blend:
        // bending opens a crack around the knee.
        tube_case("split_knee", Label::Torn, Skin::Split, bend(90.0)),
        // The shin flung 300 units away (seven times the character's size) and back.
        tube_case(
            "shin_flung",
            Label::Torn,
            Skin::Rigid,
            animation(moving(SHIN, |k| ([300.0 * (k * PI).sin(), 0.0, 0.0], [0.0; 3]))),
        ),
    ];
    cases.extend(humanoid::cases());
    cases
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

/// What the surface checks say of each clip: its worst severity and kind over every surface finding that shows
/// in it (a finding lists each clip with its severity there), its measure, and the message of the finding.
fn verdicts(asset: &Asset) -> BTreeMap<String, (Severity, FindingKind, f32, String)> {
    let surface =
        [FindingKind::SurfaceOpens, FindingKind::VertexFlies, FindingKind::JointApart, FindingKind::ClipStretch];
    let mut out: BTreeMap<String, (Severity, FindingKind, f32, String)> = BTreeMap::new();
    for f in diagnose(asset, &DiagnoseOptions::default()) {
        if f.summary || !surface.contains(&f.kind) {
            continue;
        }
        for hit in &f.clips {
            let Some(clip) = asset.clips.get(hit.clip) else { continue };
            let candidate = (hit.severity, f.kind, hit.value.unwrap_or(0.0), f.message.clone());
            let worse = out.get(&clip.name).is_none_or(|old| (candidate.0, candidate.1) < (old.0, old.1));
            if worse {
                out.insert(clip.name.clone(), candidate);
            }
        }
    }
    out
}

/// What the message of a torn or distorted case must say made it, and the kind it must be.
fn cause(case: &str) -> Option<(FindingKind, &'static str)> {
    match case {
        "wrong_bone_vertex" => Some((FindingKind::ClipStretch, "stays closed but is visibly stretched")),
        "torn_knee" | "limb_pulled_long" | "torso_off_hips" => {
            Some((FindingKind::JointApart, "a bone moves off its joint"))
        }
        "split_knee" => Some((FindingKind::SurfaceOpens, "the surface opens")),
        "shin_flung" | "hand_flung" | "head_flung" => Some((FindingKind::VertexFlies, "the skin flies off")),
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
        let mut s = format!("{title}\n  label       error  warning  info\n");
        for label in [Label::Torn, Label::Distorted, Label::Intact] {
            let n = |sev| self.0.get(&(label, sev)).copied().unwrap_or(0);
            let _ = writeln!(
                s,
                "  {:<10} {:>6} {:>8} {:>5}",
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
        std::fs::write(&mesh, &case.reference).unwrap();
        std::fs::write(&clip, &case.clip).unwrap();
        let asset = load(&[mesh, clip]).expect("the generated files load");
        let verdict = verdicts(&asset);
        let (severity, kind, value, message) = verdict[case.name].clone();
        if let Some((want, cause)) = cause(case.name) {
            assert_eq!(kind, want, "{}: {message}", case.name);
            assert!(message.contains(cause), "{}: {message}", case.name);
        }
        measure.add(case.label, severity);
        ratio.add(case.label, ratio_rule(&asset, 0));
        let _ = writeln!(report, "  {:<22} {:<9?} {severity:?} {} ({value:.1})", case.name, case.label, kind.name());
        if !case.label.accepts(severity) {
            wrong.push(format!("{} ({:?}) came out {severity:?}: {message}", case.name, case.label));
        }
    }
    if let Some(corpus) = common::corpus() {
        for (name, files) in corpus_characters(&corpus) {
            let Some(asset) = load(&files) else { continue };
            for (clip, (severity, kind, value, _)) in verdicts(&asset) {
                measure.add(Label::Intact, severity);
                let index = asset.clips.iter().position(|c| c.name == clip).unwrap();
                ratio.add(Label::Intact, ratio_rule(&asset, index));
                if severity == Severity::Error {
                    wrong
                        .push(format!("{name} clip '{clip}' (intact) came out an error: {} ({value:.1})", kind.name()));
                }
            }
        }
    }
    eprintln!("{report}");
    eprintln!("{}", measure.table("verdicts (rows: label; columns: severity)"));
    eprintln!("{}", ratio.table("old ratio rule, an error above 10× (rows: label; columns: severity)"));
    if !keep {
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// A humanoid (Z up, about 95 units tall) made of rigidly skinned pieces as low-poly game characters are, in
/// the poses the "errors" were rendered in: each a shipped, working look, none torn.
mod humanoid {
    use super::*;

    /// name, parent, bind translation from the parent.
    pub const BONES: [(&str, i32, [f32; 3]); 19] = [
        ("root", -1, [0.0, 0.0, 0.0]),
        ("pelvis", 0, [0.0, 0.0, 40.0]),
        ("spine", 1, [0.0, 0.0, 12.0]),
        ("chest", 2, [0.0, 0.0, 14.0]),
        ("head", 3, [0.0, 0.0, 14.0]),
        ("clavicle_l", 3, [4.0, 0.0, 10.0]),
        ("upperarm_l", 5, [8.0, 0.0, 0.0]),
        ("forearm_l", 6, [14.0, 0.0, 0.0]),
        ("hand_l", 7, [12.0, 0.0, 0.0]),
        ("clavicle_r", 3, [-4.0, 0.0, 10.0]),
        ("upperarm_r", 9, [-8.0, 0.0, 0.0]),
        ("forearm_r", 10, [-14.0, 0.0, 0.0]),
        ("hand_r", 11, [-12.0, 0.0, 0.0]),
        ("thigh_l", 1, [5.0, 0.0, 0.0]),
        ("calf_l", 13, [0.0, 0.0, -20.0]),
        ("foot_l", 14, [0.0, 0.0, -18.0]),
        ("thigh_r", 1, [-5.0, 0.0, 0.0]),
        ("calf_r", 16, [0.0, 0.0, -20.0]),
        ("foot_r", 17, [0.0, 0.0, -18.0]),
    ];
    const PELVIS: usize = 1;
    const SPINE: usize = 2;
    const CHEST: usize = 3;
    const HEAD: usize = 4;
    const CLAVICLE_L: usize = 5;
    const UPPERARM_L: usize = 6;
    const FOREARM_L: usize = 7;
    const HAND_L: usize = 8;
    const THIGH_L: usize = 13;
    const CALF_L: usize = 14;
    const THIGH_R: usize = 16;
    const CALF_R: usize = 17;

    type Links = Vec<(usize, f32)>;

    /// Triangles with their corners' positions and weights.
    #[derive(Default)]
    struct Mesh(Vec<[(Vec3, Links); 3]>);

    impl Mesh {
        fn quad(&mut self, q: [(Vec3, Links); 4]) {
            let [a, b, c, d] = q;
            self.0.push([a.clone(), b.clone(), c.clone()]);
            self.0.push([a, c, d]);
        }

        /// A tube of `sides` sides around the segment `from`–`to`, with rings at `stations` (0..=1 along it);
        /// `skin(t, side)` weights each vertex.
        fn tube(&mut self, from: Vec3, to: Vec3, radius: f32, stations: &[f32], skin: impl Fn(f32, usize) -> Links) {
            const SIDES: usize = 10;
            let axis = (to - from).normalize();
            let u = if axis.z.abs() > 0.9 { Vec3::X } else { Vec3::Z };
            let (u, v) = (axis.cross(u).normalize(), axis.cross(axis.cross(u)).normalize());
            let at = |t: f32, side: usize| {
                let a = (side % SIDES) as f32 / SIDES as f32 * 2.0 * PI;
                (from + (to - from) * t + (u * a.cos() + v * a.sin()) * radius, skin(t, side % SIDES))
            };
            for w in stations.windows(2) {
                for side in 0..SIDES {
                    self.quad([at(w[0], side), at(w[0], side + 1), at(w[1], side + 1), at(w[1], side)]);
                }
            }
        }

        fn smd(&self) -> String {
            let mut s = nodes();
            s.push_str("skeleton\ntime 0\n");
            for (i, (_, _, t)) in BONES.iter().enumerate() {
                let _ = writeln!(s, "{i} {} {} {} 0 0 0", t[0], t[1], t[2]);
            }
            s.push_str("end\ntriangles\n");
            for tri in &self.0 {
                s.push_str("skin\n");
                for (p, links) in tri {
                    let _ = write!(s, "{} {:.4} {:.4} {:.4} 0 0 1 0 0 {}", links[0].0, p.x, p.y, p.z, links.len());
                    for (b, w) in links {
                        let _ = write!(s, " {b} {w:.4}");
                    }
                    s.push('\n');
                }
            }
            s.push_str("end\n");
            s
        }
    }

    fn nodes() -> String {
        let mut s = String::from("version 1\nnodes\n");
        for (i, (name, parent, _)) in BONES.iter().enumerate() {
            let _ = writeln!(s, "{i} \"{name}\" {parent}");
        }
        s.push_str("end\n");
        s
    }

    fn rigid(bone: usize) -> Links {
        vec![(bone, 1.0)]
    }

    const STATIONS: [f32; 6] = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0];

    /// Torso (pelvis, spine, chest, rigid, the border between spine and chest jagged: every other vertex of
    /// the border ring on the other bone), head, both legs (knees `smooth` or rigid).
    fn body(mesh: &mut Mesh, smooth_knees: bool) {
        mesh.tube(
            Vec3::new(0.0, 0.0, 40.0),
            Vec3::new(0.0, 0.0, 80.0),
            8.0,
            &[0.0, 0.15, 0.3, 0.5, 0.7, 0.85, 1.0],
            |t, side| {
                let z = 40.0 + 40.0 * t;
                if z < 52.0 {
                    rigid(PELVIS)
                } else if z < 66.0 || (z < 70.5 && side % 2 == 0) {
                    rigid(SPINE)
                } else {
                    rigid(CHEST)
                }
            },
        );
        mesh.tube(Vec3::new(0.0, 0.0, 80.0), Vec3::new(0.0, 0.0, 95.0), 5.0, &STATIONS, |_, _| rigid(HEAD));
        for (thigh, calf, x) in [(THIGH_L, CALF_L, 5.0), (THIGH_R, CALF_R, -5.0)] {
            let stations = [0.0, 0.25, 0.45, 0.5, 0.55, 0.75, 1.0];
            mesh.tube(Vec3::new(x, 0.0, 42.0), Vec3::new(x, 0.0, 2.0), 4.0, &stations, move |t, _| {
                let z = 42.0 - 40.0 * t;
                match (smooth_knees, z) {
                    (true, z) if (19.0..=23.0).contains(&z) => {
                        let k = (z - 19.0) / 4.0;
                        vec![(calf, 1.0 - k), (thigh, k)]
                    }
                    (_, z) if z < 21.0 => rigid(calf),
                    _ => rigid(thigh),
                }
            });
        }
    }

    /// The left arm along +X from the shoulder, rigid per bone.
    fn arm(mesh: &mut Mesh) {
        mesh.tube(
            Vec3::new(6.0, 0.0, 76.0),
            Vec3::new(44.0, 0.0, 76.0),
            3.0,
            &[0.0, 0.1, 0.2, 0.4, 0.55, 0.7, 0.85, 1.0],
            |t, _| {
                let x = 6.0 + 38.0 * t;
                rigid(if x < 12.5 {
                    CLAVICLE_L
                } else if x < 26.0 {
                    UPPERARM_L
                } else if x < 38.0 {
                    FOREARM_L
                } else {
                    HAND_L
                })
            },
        );
    }

    /// The skin of the left armpit: a web from the chest's side to the underside of the upper arm.
    fn armpit(mesh: &mut Mesh) {
        for i in 0..4 {
            let (z0, z1) = (62.0 + 3.0 * i as f32, 65.0 + 3.0 * i as f32);
            let (x0, x1) = (8.0 + 3.0 * i as f32, 11.0 + 3.0 * i as f32);
            let arm = |x: f32| rigid(if x < 12.5 { CLAVICLE_L } else { UPPERARM_L });
            mesh.quad([
                (Vec3::new(8.0, 0.0, z0), rigid(CHEST)),
                (Vec3::new(8.0, 0.0, z1), rigid(CHEST)),
                (Vec3::new(x1, 0.0, 73.0), arm(x1)),
                (Vec3::new(x0, 0.0, 73.0), arm(x0)),
            ]);
        }
    }

    /// A robe's wing hanging from the left upper arm: its top row on the arm, its lower rows on the spine, one
    /// vertex of the middle row on the arm among them (rigid skinning's jagged border).
    fn wing(mesh: &mut Mesh) {
        let rows = [73.0, 66.0, 58.0];
        let cols = [10.0, 14.0, 18.0, 22.0];
        let skin = |r: usize, c: usize| match r {
            0 => rigid(UPPERARM_L),
            1 if c == 2 => rigid(UPPERARM_L),
            _ => rigid(SPINE),
        };
        for r in 0..2 {
            for c in 0..3 {
                let p = |r: usize, c: usize| (Vec3::new(cols[c], -3.0, rows[r]), skin(r, c));
                mesh.quad([p(r, c), p(r, c + 1), p(r + 1, c + 1), p(r + 1, c)]);
            }
        }
    }

    /// A skirt from the waist to the knees: its top ring on the pelvis, below it the vertices on each side
    /// on that side's thigh and those in front and behind on the pelvis.
    fn skirt(mesh: &mut Mesh) {
        mesh.tube(Vec3::new(0.0, 0.0, 44.0), Vec3::new(0.0, 0.0, 22.0), 9.5, &[0.0, 0.5, 1.0], |t, side| {
            if t == 0.0 {
                return rigid(PELVIS);
            }
            match side {
                0..=1 | 9 => rigid(THIGH_L),
                4..=6 => rigid(THIGH_R),
                _ => rigid(PELVIS),
            }
        });
    }

    /// An animation of 11 frames; `pose(k, bone)` gives a bone's change from the bind pose at k = frame / 10
    /// (translation added, rotation as XYZ Euler radians).
    fn animation(pose: impl Fn(f32, usize) -> ([f32; 3], [f32; 3])) -> String {
        let mut s = nodes();
        s.push_str("skeleton\n");
        for f in 0..=10 {
            let _ = writeln!(s, "time {f}");
            for (b, (_, _, bind)) in BONES.iter().enumerate() {
                let (t, r) = pose(f as f32 / 10.0, b);
                let _ = writeln!(
                    s,
                    "{b} {} {} {} {} {} {}",
                    bind[0] + t[0],
                    bind[1] + t[1],
                    bind[2] + t[2],
                    r[0],
                    r[1],
                    r[2]
                );
            }
        }
        s.push_str("end\n");
        s
    }

    /// Lying on its back: the root turned a quarter about X (the pelvis's height brought down to the floor).
    fn lying(k: f32, b: usize) -> Option<([f32; 3], [f32; 3])> {
        match b {
            0 => Some(([0.0, 0.0, 0.0], [-k * PI / 2.0, 0.0, 0.0])),
            PELVIS => Some(([0.0, 0.0, -32.0 * k], [0.0; 3])),
            _ => None,
        }
    }

    fn case(name: &'static str, mesh: Mesh, clip: String) -> Case {
        Case { name, label: Label::Intact, reference: mesh.smd(), clip }
    }

    pub(super) fn cases() -> Vec<Case> {
        let raise = |degrees: f32| move |k: f32| [0.0, -k * degrees.to_radians(), 0.0];
        let mut dead = Mesh::default();
        body(&mut dead, false);
        arm(&mut dead);
        armpit(&mut dead);
        let mut crease = Mesh::default();
        body(&mut crease, true);
        let mut robe = Mesh::default();
        body(&mut robe, false);
        arm(&mut robe);
        wing(&mut robe);
        let mut skirted = Mesh::default();
        body(&mut skirted, false);
        skirt(&mut skirted);
        let mut flung = Mesh::default();
        body(&mut flung, false);
        arm(&mut flung);
        vec![
            // Torn: the hand flung 400 units off the forearm and back (a key far from the bind pose).
            Case {
                name: "hand_flung",
                label: Label::Torn,
                reference: flung.smd(),
                clip: animation(|k, b| match b {
                    HAND_L => ([400.0 * (k * PI).sin(), 0.0, 0.0], [0.0; 3]),
                    _ => ([0.0; 3], [0.0; 3]),
                }),
            },
            // Torn: the head thrown 300 units up.
            Case {
                name: "head_flung",
                label: Label::Torn,
                reference: {
                    let mut m = Mesh::default();
                    body(&mut m, false);
                    m.smd()
                },
                clip: animation(|k, b| match b {
                    HEAD => ([0.0, 0.0, 300.0 * (k * PI).sin()], [0.0; 3]),
                    _ => ([0.0; 3], [0.0; 3]),
                }),
            },
            // Dead, lying on its back with the arm flung up past its head: the armpit's web pulled long.
            case(
                "armpit_dead_pose",
                dead,
                animation(move |k, b| match b {
                    UPPERARM_L => ([0.0; 3], raise(165.0)(k)),
                    _ => lying(k, b).unwrap_or(([0.0; 3], [0.0; 3])),
                }),
            ),
            // Kneeling: smooth knees bent 160°, the back of the knee creased.
            case(
                "knee_crease_160",
                crease,
                animation(|k, b| match b {
                    CALF_L | CALF_R => ([0.0; 3], [k * 160f32.to_radians(), 0.0, 0.0]),
                    _ => ([0.0; 3], [0.0; 3]),
                }),
            ),
            // A robe's wing on an arm raised above the head: its arm-bound row rises with the arm.
            case(
                "robe_wings_raised_arm",
                robe,
                animation(move |k, b| match b {
                    UPPERARM_L => ([0.0; 3], raise(150.0)(k)),
                    _ => ([0.0; 3], [0.0; 3]),
                }),
            ),
            // Lying on its back with the legs apart: the skirt between the thighs pulled wide.
            case(
                "lying_skirt",
                skirted,
                animation(|k, b| match b {
                    THIGH_L => ([0.0; 3], [0.0, k * 0.8, 0.0]),
                    THIGH_R => ([0.0; 3], [0.0, -k * 0.8, 0.0]),
                    _ => lying(k, b).unwrap_or(([0.0; 3], [0.0; 3])),
                }),
            ),
        ]
    }
}
