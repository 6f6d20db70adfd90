#![allow(dead_code)]
//! A Gothic `Anims` tree of the shape of the game's humans: `HUMANS.MDS` with its body and an armour as
//! registered meshes, and overlays in `MDS_OVERLAY` that add animations of their own, every file a GothicSourcer
//! ASC (world samples). The armour's sleeve is a separate piece welded to its shoulder cap by position, the cap's
//! side of the seam blended half and half between spine and arm, the sleeve's on the arm alone: every clip that
//! lifts the left arm opens the seam — one defect, in every clip of the base and of each overlay.

use std::f32::consts::PI;
use std::fmt::Write as _;
use std::path::Path;

use glam::{Mat4, Quat, Vec3};

use super::write;

const HEADER: &str = "*3DSMAX_ASCIIEXPORT\t110\n*COMMENT \"[ GothicSourcer v3.14 ] - June 2007\"\n";

/// Bones: name, parent, bind position (world, Z up).
const BONES: [(&str, Option<usize>, [f32; 3]); 5] = [
    ("BIP01", None, [0.0, 0.0, 90.0]),
    ("BIP01 SPINE", Some(0), [0.0, 0.0, 110.0]),
    ("BIP01 HEAD", Some(1), [0.0, 0.0, 150.0]),
    ("BIP01 L UPPERARM", Some(1), [18.0, 0.0, 140.0]),
    ("BIP01 R UPPERARM", Some(1), [-18.0, 0.0, 140.0]),
];
const ROOT: usize = 0;
const SPINE: usize = 1;
const L_ARM: usize = 3;
const R_ARM: usize = 4;

fn scene(last: i32) -> String {
    format!(
        "*SCENE {{\n\t*SCENE_FILENAME \"humans.max\"\n\t*SCENE_FIRSTFRAME 0\n\t*SCENE_LASTFRAME {last}\n\t\
         *SCENE_FRAMESPEED 25\n\t*SCENE_TICKSPERFRAME 192\n}}\n"
    )
}

fn node_tm(name: &str, world: Mat4) -> String {
    let r = |v: Vec3| format!("{:.6}\t{:.6}\t{:.6}", v.x, v.y, v.z);
    format!(
        "\t*NODE_TM {{\n\t\t*NODE_NAME \"{name}\"\n\t\t*TM_ROW0 {}\n\t\t*TM_ROW1 {}\n\t\t*TM_ROW2 {}\n\t\t*TM_ROW3 {}\n\t}}\n",
        r(world.x_axis.truncate()),
        r(world.y_axis.truncate()),
        r(world.z_axis.truncate()),
        r(world.w_axis.truncate())
    )
}

fn bind(b: usize) -> Mat4 {
    Mat4::from_translation(Vec3::from(BONES[b].2))
}

/// The helper nodes of the skeleton, with world samples per frame when `pose` is given (`pose(frame, bone)`:
/// the bone's world transform).
fn skeleton(frames: usize, pose: Option<&dyn Fn(usize, usize) -> Mat4>) -> String {
    let mut s = String::new();
    for (b, (name, parent, _)) in BONES.iter().enumerate() {
        let _ = write!(s, "*HELPEROBJECT {{\n\t*NODE_NAME \"{name}\"\n");
        if let Some(p) = parent {
            let _ = writeln!(s, "\t*NODE_PARENT \"{}\"", BONES[*p].0);
        }
        s += &node_tm(name, bind(b));
        if let Some(pose) = pose {
            let _ = write!(s, "\t*TM_ANIMATION {{\n\t\t*NODE_NAME \"{name}\"\n\t\t*CONTROL_POS_TRACK {{\n");
            for k in 0..frames {
                let t = pose(k, b).w_axis.truncate();
                let _ = writeln!(s, "\t\t\t*CONTROL_POS_SAMPLE {}\t{:.6}\t{:.6}\t{:.6}", k * 192, t.x, t.y, t.z);
            }
            s += "\t\t}\n\t\t*CONTROL_ROT_TRACK {\n";
            for k in 0..frames {
                let (_, q, _) = pose(k, b).to_scale_rotation_translation();
                // 3ds Max writes (axis, angle) for a rotation by −angle.
                let (axis, angle) = q.to_axis_angle();
                let _ = writeln!(
                    s,
                    "\t\t\t*CONTROL_ROT_SAMPLE {}\t{:.6}\t{:.6}\t{:.6}\t{:.6}",
                    k * 192,
                    axis.x,
                    axis.y,
                    axis.z,
                    -angle
                );
            }
            s += "\t\t}\n\t}\n";
        }
        s += "}\n";
    }
    s
}

/// A mesh being built: world positions with their bone weights, and triangles.
#[derive(Default)]
struct Mesh {
    vertices: Vec<(Vec3, Vec<(usize, f32)>)>,
    faces: Vec<[usize; 3]>,
}

impl Mesh {
    /// A tube around the segment `from`–`to` with rings at `stations` (0..=1), `skin(ring)` weighting each ring.
    fn tube(&mut self, from: Vec3, to: Vec3, radius: f32, stations: &[f32], skin: impl Fn(usize) -> Vec<(usize, f32)>) {
        const SIDES: usize = 8;
        let axis = (to - from).normalize();
        let helper = if axis.z.abs() > 0.9 { Vec3::X } else { Vec3::Z };
        let (u, v) = (axis.cross(helper).normalize(), axis.cross(axis.cross(helper)).normalize());
        let first = self.vertices.len();
        for (r, t) in stations.iter().enumerate() {
            for side in 0..SIDES {
                let a = side as f32 / SIDES as f32 * 2.0 * PI;
                self.vertices.push((from + (to - from) * *t + (u * a.cos() + v * a.sin()) * radius, skin(r)));
            }
        }
        for r in 0..stations.len() - 1 {
            for side in 0..SIDES {
                let at = |r: usize, s: usize| first + r * SIDES + s % SIDES;
                self.faces.push([at(r, side), at(r, side + 1), at(r + 1, side + 1)]);
                self.faces.push([at(r, side), at(r + 1, side + 1), at(r + 1, side)]);
            }
        }
    }

    fn geomobject(&self, name: &str) -> String {
        let mut s = format!("*GEOMOBJECT {{\n\t*NODE_NAME \"{name}\"\n");
        s += &node_tm(name, Mat4::IDENTITY);
        let _ = write!(
            s,
            "\t*MESH {{\n\t\t*TIMEVALUE 0\n\t\t*MESH_NUMVERTEX {}\n\t\t*MESH_NUMFACES {}\n\t\t*MESH_VERTEX_LIST {{\n",
            self.vertices.len(),
            self.faces.len()
        );
        for (i, (p, _)) in self.vertices.iter().enumerate() {
            let _ = writeln!(s, "\t\t\t*MESH_VERTEX {i}\t{:.5}\t{:.5}\t{:.5}", p.x, p.y, p.z);
        }
        s += "\t\t}\n\t\t*MESH_FACE_LIST {\n";
        for (i, [a, b, c]) in self.faces.iter().enumerate() {
            let _ = writeln!(
                s,
                "\t\t\t*MESH_FACE {i}: A: {a} B: {b} C: {c} AB: 1 BC: 1 CA: 1 *MESH_SMOOTHING 1 *MESH_MTLID 0"
            );
        }
        s += "\t\t}\n\t}\n}\n";
        let _ = write!(s, "*MESH_SOFTSKINVERTS {{\n{name}\n{}\n", self.vertices.len());
        for (_, links) in &self.vertices {
            let _ = write!(s, "{}", links.len());
            for (b, w) in links {
                let _ = write!(s, "\t\"{}\"\t{w}", BONES[*b].0);
            }
            s.push('\n');
        }
        s += "}\n";
        s
    }
}

fn rigid(b: usize) -> Vec<(usize, f32)> {
    vec![(b, 1.0)]
}

/// The naked body: a torso (root below, spine above) and two arms, each of one piece.
fn body() -> String {
    let mut m = Mesh::default();
    m.tube(Vec3::new(0.0, 0.0, 85.0), Vec3::new(0.0, 0.0, 150.0), 12.0, &[0.0, 0.2, 0.4, 0.6, 0.8, 1.0], |r| {
        rigid(if r < 2 { ROOT } else { SPINE })
    });
    for (arm, x) in [(L_ARM, 1.0), (R_ARM, -1.0)] {
        m.tube(Vec3::new(12.0 * x, 0.0, 140.0), Vec3::new(50.0 * x, 0.0, 140.0), 5.0, &[0.0, 0.2, 0.6, 1.0], |r| {
            if r == 0 { vec![(SPINE, 0.5), (arm, 0.5)] } else { rigid(arm) }
        });
    }
    format!("{HEADER}{}{}{}", scene(0), skeleton(1, None), m.geomobject("zm_Skin"))
}

/// The robe: a body piece, a cap over the left shoulder whose outer ring is blended between spine and arm, and
/// a sleeve welded to the cap by position whose first ring is on the arm alone — the seam that opens.
fn robe() -> String {
    let mut m = Mesh::default();
    m.tube(Vec3::new(0.0, 0.0, 80.0), Vec3::new(0.0, 0.0, 150.0), 13.0, &[0.0, 0.3, 0.6, 1.0], |r| {
        rigid(if r == 0 { ROOT } else { SPINE })
    });
    m.tube(Vec3::new(13.0, 0.0, 140.0), Vec3::new(22.0, 0.0, 140.0), 8.0, &[0.0, 1.0], |r| {
        if r == 0 { rigid(SPINE) } else { vec![(SPINE, 0.5), (L_ARM, 0.5)] }
    });
    m.tube(Vec3::new(22.0, 0.0, 140.0), Vec3::new(45.0, 0.0, 140.0), 8.0, &[0.0, 0.5, 1.0], |_| rigid(L_ARM));
    format!("{HEADER}{}{}{}", scene(0), skeleton(1, None), m.geomobject("zm_Skin"))
}

/// An animation of 10 frames: the left arm raised `degrees` about the shoulder over the clip (the right one
/// half as far), the root carried `walk` units forward.
fn animation(degrees: f32, walk: f32) -> String {
    let pose = move |k: usize, b: usize| -> Mat4 {
        let t = k as f32 / 9.0;
        let carry = Mat4::from_translation(Vec3::new(0.0, walk * t, 0.0));
        match b {
            L_ARM => carry * bind(b) * Mat4::from_quat(Quat::from_rotation_y(-(degrees * t).to_radians())),
            R_ARM => carry * bind(b) * Mat4::from_quat(Quat::from_rotation_y((0.5 * degrees * t).to_radians())),
            _ => carry * bind(b),
        }
    };
    format!("{HEADER}{}{}", scene(9), skeleton(10, Some(&pose)))
}

fn ani(name: &str, file: &str) -> String {
    format!("\t\tani (\"{name}\" 1 \"{name}\" 0.1 0.1 M. \"{file}\" F 0 9)\n")
}

/// The clips of the tree: (script, ani name, file, degrees the left arm rises, units walked).
pub const CLIPS: [(&str, &str, &str, f32, f32); 7] = [
    ("HUMANS.MDS", "s_Run", "HUM_RUN.ASC", 70.0, 40.0),
    ("HUMANS.MDS", "t_Wave", "HUM_WAVE.ASC", 120.0, 0.0),
    ("HUMANS.MDS", "s_Sit", "HUM_SIT.ASC", 25.0, 0.0),
    ("MDS_OVERLAY/HUMANS_RELAXED.MDS", "s_Run", "HUM_RELAXED_RUN.ASC", 60.0, 35.0),
    ("MDS_OVERLAY/HUMANS_RELAXED.MDS", "t_Stretch", "HUM_RELAXED_STRETCH.ASC", 100.0, 0.0),
    ("MDS_OVERLAY/HUMANS_MILITIA.MDS", "s_Walk", "HUM_MILITIA_WALK.ASC", 50.0, 20.0),
    ("MDS_OVERLAY/HUMANS_MAGE.MDS", "t_Cast", "HUM_MAGE_CAST.ASC", 130.0, 0.0),
];

/// Writes the tree under `anims` (the `Anims` folder).
pub fn humans_tree(anims: &Path) {
    write(&anims.join("ASC_BODIES/HUMAN/HUM_BODY_NAKED0.ASC"), &body());
    write(&anims.join("ASC_BODIES/HUMAN/HUM_ARMOR_ROBE.ASC"), &robe());
    let mut scripts: Vec<(&str, String)> = Vec::new();
    for (script, name, file, degrees, walk) in CLIPS {
        write(&anims.join("ASC_ANIMS/HUMANS").join(file), &animation(degrees, walk));
        match scripts.iter_mut().find(|(s, _)| *s == script) {
            Some((_, anis)) => anis.push_str(&ani(name, file)),
            None => scripts.push((script, ani(name, file))),
        }
    }
    for (script, anis) in scripts {
        let meshes = if script == "HUMANS.MDS" {
            "\tmeshAndTree (\"HUM_BODY_NAKED0.ASC\")\n\tregisterMesh (\"HUM_BODY_NAKED0.ASC\")\n\
             \tregisterMesh (\"HUM_ARMOR_ROBE.ASC\")\n"
        } else {
            ""
        };
        write(&anims.join(script), &format!("Model (\"HUMANS\")\n{{\n{meshes}\taniEnum\n\t{{\n{anis}\t}}\n}}\n"));
    }
}
