//! Writes large, valid test files for benchmarks and side-by-side comparisons:
//! - `cargo run --release --example generate -- smd|ase|gothic OUT SIZE_MB`: a generated file of about that size
//!   (`gothic`: a GothicSourcer-shaped ASC, see `gothic.rs`);
//! - `… -- repeat SRC OUT SIZE_MB`: a real SMD or ASE made larger by repeating its content (SMD: the
//!   triangles; ASE: the object blocks, node names suffixed per copy so that every node stays unique);
//! - `… -- small-set OUT_DIR COUNT`: COUNT files of about 100 kB in the shapes most real files have (SMD
//!   reference, SMD animation, Gothic ASC body, Gothic ASC animation, in turn), each in a folder of its own;
//! - `… -- psk|psa OUT`: the large PSK (200k wedges, 400k faces, 64 bones, normals in the file) and PSA (100 bones,
//!   200 sequences of 20 frames) that `benches/psk_load.rs` measures, as files;
//! - `… -- humans GOTHIC_ANIMS OUT_DIR`: a tree of the shape of Gothic's `HUMANS.MDS`, from the corpus Bloodfly
//!   (see `humans.rs`);
//! - `… -- character OUT_DIR [BONES VERTICES]`: a character for the viewer's frame rate, `character.smd`
//!   (by default 481 bones and about 12,000 vertices, four influences each) and `character_wave.smd` (60 frames
//!   moving every bone).
//!
//! The SMD is a Source-style reference mesh (a 30-bone chain, each vertex weighted to two or three bones), the
//! ASE a set of grid meshes with texture coordinates, normals and a material. Both are tessellated grids, so
//! most triangle corners are shared and welding has work to do, as in real characters.

mod gothic;
mod humans;
#[path = "../../tests/psk_writer/mod.rs"]
mod psk_writer;
mod repeat;

use std::fmt::Write as _;
use std::io::Write as _;

const BONES: usize = 30;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("repeat") => return repeat::main(&args[2..]),
        Some("small-set") => return small_set(&args[2..]),
        Some("psk" | "psa") => return unreal(&args[1..]),
        Some("humans") => return humans::main(&args[2..]),
        _ => {}
    }
    if args.get(1).map(String::as_str) == Some("character") {
        let Some(dir) = args.get(2) else {
            eprintln!("usage: generate character OUT_DIR [BONES VERTICES]");
            std::process::exit(2);
        };
        let rig = match (args.get(3).and_then(|s| s.parse().ok()), args.get(4).and_then(|s| s.parse().ok())) {
            (Some(bones), Some(vertices)) => Rig::new(bones, vertices),
            _ => Rig::default(),
        };
        let dir = std::path::Path::new(dir);
        std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for (name, text) in [("character.smd", character_reference(&rig)), ("character_wave.smd", character_wave(&rig))]
        {
            std::fs::write(dir.join(name), &text).unwrap_or_else(|e| panic!("{name}: {e}"));
            eprintln!("{}: {} bytes", dir.join(name).display(), text.len());
        }
        return;
    }
    let (Some(kind), Some(out), Some(size)) =
        (args.get(1), args.get(2), args.get(3).and_then(|s| s.parse::<f64>().ok()))
    else {
        eprintln!("usage: generate smd|ase|gothic OUT SIZE_MB (or repeat, small-set, character: see the source)");
        std::process::exit(2);
    };
    let target = (size * 1_000_000.0) as usize;
    let text = match kind.as_str() {
        "smd" => smd(target),
        "ase" => ase(target),
        "gothic" => gothic_sized(target),
        _ => {
            eprintln!("unknown kind {kind}: smd, ase or gothic");
            std::process::exit(2);
        }
    };
    let mut file = std::fs::File::create(out).unwrap_or_else(|e| panic!("{out}: {e}"));
    file.write_all(text.as_bytes()).unwrap_or_else(|e| panic!("{out}: {e}"));
    eprintln!("{out}: {} bytes", text.len());
}

/// Grid vertex (i, j) of a cylinder wrapped around the bone chain.
fn cylinder(i: usize, j: usize, columns: usize, rows: usize) -> ([f32; 3], [f32; 3], [f32; 2]) {
    let a = i as f32 / columns as f32 * std::f32::consts::TAU;
    let h = j as f32 / rows as f32 * BONES as f32 * 10.0;
    let r = 5.0 + (h * 0.1).sin();
    ([r * a.cos(), r * a.sin(), h], [a.cos(), a.sin(), 0.0], [i as f32 / columns as f32, j as f32 / rows as f32])
}

fn smd(target: usize) -> String {
    let mut s = String::with_capacity(target + 4096);
    s.push_str("version 1\nnodes\n");
    for b in 0..BONES {
        let _ = writeln!(s, "{b} \"bone{b}\" {}", b as i64 - 1);
    }
    s.push_str("end\nskeleton\ntime 0\n");
    for b in 0..BONES {
        let z = if b == 0 { 0.0 } else { 10.0 };
        let _ = writeln!(s, "{b} 0.000000 0.000000 {z:.6} 0.000000 0.000000 0.000000");
    }
    s.push_str("end\ntriangles\n");
    // Small files get a narrower grid, so that their size still follows the target closely.
    let columns = if target < 1_000_000 { 16 } else { 64 };
    // Rows grow until the text reaches the target size (about 2 × 3 × 110 bytes per grid cell).
    let rows = (target / (columns * 660)).max(1);
    let corner = |s: &mut String, i: usize, j: usize| {
        let (p, n, uv) = cylinder(i % columns, j, columns, rows);
        let bone = (j * BONES / (rows + 1)).min(BONES - 1);
        let next = (bone + 1).min(BONES - 1);
        let w = (j as f32 * BONES as f32 / (rows + 1) as f32).fract();
        let _ = writeln!(
            s,
            "{bone} {:.6} {:.6} {:.6} {:.6} {:.6} {:.6} {:.6} {:.6} 2 {bone} {:.6} {next} {:.6}",
            p[0],
            p[1],
            p[2],
            n[0],
            n[1],
            n[2],
            uv[0],
            uv[1],
            1.0 - w,
            w
        );
    };
    for j in 0..rows {
        for i in 0..columns {
            for tri in [[(i, j), (i + 1, j), (i + 1, j + 1)], [(i, j), (i + 1, j + 1), (i, j + 1)]] {
                s.push_str(if j % 2 == 0 { "skin.tga\n" } else { "cloth.tga\n" });
                for (ci, cj) in tri {
                    corner(&mut s, ci, cj);
                }
            }
        }
    }
    s.push_str("end\n");
    s
}

fn ase(target: usize) -> String {
    let mut s = String::with_capacity(target + 4096);
    s.push_str("*3DSMAX_ASCIIEXPORT\t200\n*COMMENT \"bonescope benchmark scene\"\n");
    s.push_str("*SCENE {\n\t*SCENE_FILENAME \"bench.max\"\n\t*SCENE_FIRSTFRAME 0\n\t*SCENE_LASTFRAME 100\n\t*SCENE_FRAMESPEED 30\n\t*SCENE_TICKSPERFRAME 160\n}\n");
    s.push_str("*MATERIAL_LIST {\n\t*MATERIAL_COUNT 1\n\t*MATERIAL 0 {\n\t\t*MATERIAL_NAME \"grid\"\n\t\t*MATERIAL_CLASS \"Standard\"\n\t\t*MATERIAL_DIFFUSE 0.8 0.6 0.4\n\t}\n}\n");
    let columns = 64;
    let rows = 64;
    let mut object = 0;
    while s.len() < target {
        let _ = write!(
            s,
            "*GEOMOBJECT {{\n\t*NODE_NAME \"grid{object}\"\n\t*NODE_TM {{\n\t\t*NODE_NAME \"grid{object}\"\n\t\t*TM_ROW0 1.0 0.0 0.0\n\t\t*TM_ROW1 0.0 1.0 0.0\n\t\t*TM_ROW2 0.0 0.0 1.0\n\t\t*TM_ROW3 0.0 0.0 0.0\n\t}}\n\t*MESH {{\n\t\t*TIMEVALUE 0\n\t\t*MESH_NUMVERTEX {}\n\t\t*MESH_NUMFACES {}\n\t\t*MESH_VERTEX_LIST {{\n",
            (columns + 1) * (rows + 1),
            columns * rows * 2
        );
        let index = |i: usize, j: usize| j * (columns + 1) + i;
        for j in 0..=rows {
            for i in 0..=columns {
                let (p, _, _) = cylinder(i, j, columns, rows);
                let _ = writeln!(
                    s,
                    "\t\t\t*MESH_VERTEX {:5}\t{:.4}\t{:.4}\t{:.4}",
                    index(i, j),
                    p[0] + object as f32 * 20.0,
                    p[1],
                    p[2]
                );
            }
        }
        s.push_str("\t\t}\n\t\t*MESH_FACE_LIST {\n");
        let mut faces = Vec::new();
        for j in 0..rows {
            for i in 0..columns {
                faces.push([index(i, j), index(i + 1, j), index(i + 1, j + 1)]);
                faces.push([index(i, j), index(i + 1, j + 1), index(i, j + 1)]);
            }
        }
        for (f, [a, b, c]) in faces.iter().enumerate() {
            let _ = writeln!(
                s,
                "\t\t\t*MESH_FACE {f:5}:    A: {a:5} B: {b:5} C: {c:5} AB:    1 BC:    1 CA:    0\t *MESH_SMOOTHING 1 \t*MESH_MTLID 0"
            );
        }
        let _ = write!(s, "\t\t}}\n\t\t*MESH_NUMTVERTEX {}\n\t\t*MESH_TVERTLIST {{\n", (columns + 1) * (rows + 1));
        for j in 0..=rows {
            for i in 0..=columns {
                let (_, _, uv) = cylinder(i, j, columns, rows);
                let _ = writeln!(s, "\t\t\t*MESH_TVERT {:5}\t{:.4}\t{:.4}\t0.0000", index(i, j), uv[0], uv[1]);
            }
        }
        let _ = write!(s, "\t\t}}\n\t\t*MESH_NUMTVFACES {}\n\t\t*MESH_TFACELIST {{\n", faces.len());
        for (f, [a, b, c]) in faces.iter().enumerate() {
            let _ = writeln!(s, "\t\t\t*MESH_TFACE {f:5}\t{a}\t{b}\t{c}");
        }
        s.push_str("\t\t}\n\t\t*MESH_NORMALS {\n");
        for (f, corners) in faces.iter().enumerate() {
            let _ = writeln!(s, "\t\t\t*MESH_FACENORMAL {f:5}\t0.0000\t0.0000\t1.0000");
            for &v in corners {
                let (_, n, _) = cylinder(v % (columns + 1), v / (columns + 1), columns, rows);
                let _ = writeln!(s, "\t\t\t\t*MESH_VERTEXNORMAL {v:5}\t{:.4}\t{:.4}\t{:.4}", n[0], n[1], n[2]);
            }
        }
        let _ = write!(
            s,
            "\t\t}}\n\t}}\n\t*PROP_MOTIONBLUR 0\n\t*PROP_CASTSHADOW 1\n\t*PROP_RECVSHADOW 1\n\t*MATERIAL_REF 0\n}}\n"
        );
        object += 1;
    }
    s
}

/// The generated character's skeleton and tessellation: a spine with limbs reaching out, a sphere of
/// `rings × segments` vertices around each bone. The default (481 bones: a spine of 21 with 20 limbs of 23 bones,
/// 24 vertices a bone, about 11,500 vertices) is a real game's scale.
struct Rig {
    spine: usize,
    limbs: usize,
    limb_bones: usize,
    rings: usize,
    segments: usize,
}

impl Default for Rig {
    fn default() -> Self {
        Rig { spine: 21, limbs: 20, limb_bones: 23, rings: 3, segments: 8 }
    }
}

impl Rig {
    /// A rig of about `bones` bones (a spine of an eighth, the rest in 8 limbs) with about `vertices` vertices.
    fn new(bones: usize, vertices: usize) -> Self {
        let limbs = 8;
        let limb_bones = (bones.saturating_sub(bones / 8) / limbs).max(1);
        let spine = bones.saturating_sub(limbs * limb_bones).max(2);
        let per_bone = (vertices / (spine + limbs * limb_bones)).max(8);
        let segments = 8;
        Rig { spine, limbs, limb_bones, rings: (per_bone / segments).max(2), segments }
    }

    fn bones(&self) -> usize {
        self.spine + self.limbs * self.limb_bones
    }

    /// Parent and bind translation (Z up) of bone `b`: the spine goes up, limb `l` starts at spine bone `l + 1`
    /// and reaches out at its own angle.
    fn bone(&self, b: usize) -> (i64, [f32; 3]) {
        if b == 0 {
            return (-1, [0.0, 0.0, 40.0]);
        }
        if b < self.spine {
            return (b as i64 - 1, [0.0, 0.0, 4.0]);
        }
        let limb = (b - self.spine) / self.limb_bones;
        let k = (b - self.spine) % self.limb_bones;
        let angle = limb as f32 / self.limbs as f32 * std::f32::consts::TAU;
        let step = [angle.cos() * 2.0, angle.sin() * 2.0, -0.3];
        if k == 0 { ((limb + 1).min(self.spine - 1) as i64, step) } else { ((b - 1) as i64, step) }
    }

    /// The bind-pose position of every bone (sum of translations up the chain; the bind pose has no rotation).
    fn bind_positions(&self) -> Vec<[f32; 3]> {
        let mut out: Vec<[f32; 3]> = Vec::with_capacity(self.bones());
        for b in 0..self.bones() {
            let (parent, t) = self.bone(b);
            let base = if parent < 0 { [0.0; 3] } else { out[parent as usize] };
            out.push([base[0] + t[0], base[1] + t[1], base[2] + t[2]]);
        }
        out
    }
}

fn character_nodes(s: &mut String, rig: &Rig) {
    s.push_str("version 1\nnodes\n");
    for b in 0..rig.bones() {
        let _ = writeln!(s, "{b} \"bone{b}\" {}", rig.bone(b).0);
    }
    s.push_str("end\n");
}

/// Reference mesh: a sphere around each bone, skinned to it, its parent, and the two nearest bones after it
/// (four influences).
fn character_reference(rig: &Rig) -> String {
    let mut s = String::new();
    character_nodes(&mut s, rig);
    let bones = rig.bones();
    s.push_str("skeleton\ntime 0\n");
    for b in 0..bones {
        let t = rig.bone(b).1;
        let _ = writeln!(s, "{b} {:.6} {:.6} {:.6} 0 0 0", t[0], t[1], t[2]);
    }
    s.push_str("end\ntriangles\n");
    let positions = rig.bind_positions();
    let (rings, segments) = (rig.rings, rig.segments);
    for (b, centre) in positions.iter().enumerate() {
        let parent = rig.bone(b).0.max(0) as usize;
        let links = [b, parent, (b + 1).min(bones - 1), (b + 2).min(bones - 1)];
        let vertex = |ring: usize, seg: usize| {
            let theta = (ring as f32 + 0.5) / rings as f32 * std::f32::consts::PI;
            let phi = seg as f32 / segments as f32 * std::f32::consts::TAU;
            let n = [theta.sin() * phi.cos(), theta.sin() * phi.sin(), theta.cos()];
            let p = [centre[0] + n[0] * 1.2, centre[1] + n[1] * 1.2, centre[2] + n[2] * 1.2];
            (p, n)
        };
        for ring in 0..rings - 1 {
            for seg in 0..segments {
                let quad = [(ring, seg), (ring, seg + 1), (ring + 1, seg + 1), (ring + 1, seg)];
                for tri in [[quad[0], quad[1], quad[2]], [quad[0], quad[2], quad[3]]] {
                    s.push_str("skin.tga\n");
                    for (r, g) in tri {
                        let (p, n) = vertex(r, g % segments);
                        let _ = writeln!(
                            s,
                            "{b} {:.4} {:.4} {:.4} {:.4} {:.4} {:.4} {:.4} {:.4} 4 {} 0.55 {} 0.25 {} 0.12 {} 0.08",
                            p[0],
                            p[1],
                            p[2],
                            n[0],
                            n[1],
                            n[2],
                            g as f32 / segments as f32,
                            r as f32 / rings as f32,
                            links[0],
                            links[1],
                            links[2],
                            links[3]
                        );
                    }
                }
            }
        }
    }
    s.push_str("end\n");
    s
}

/// Sixty frames at 30 fps in which every bone sways about its own axis, limbs in a travelling wave.
fn character_wave(rig: &Rig) -> String {
    animation_smd(rig, 60, 0)
}

/// `frames` frames in which every bone sways about its own axis (`seed` shifts the phase).
fn animation_smd(rig: &Rig, frames: usize, seed: usize) -> String {
    let mut s = String::new();
    character_nodes(&mut s, rig);
    s.push_str("skeleton\n");
    for frame in 0..frames {
        let _ = writeln!(s, "time {frame}");
        let phase = (frame + seed) as f32 / 60.0 * std::f32::consts::TAU;
        for b in 0..rig.bones() {
            let t = rig.bone(b).1;
            let swing = 0.25 * (phase + b as f32 * 0.3).sin();
            let _ = writeln!(s, "{b} {:.6} {:.6} {:.6} {:.6} {:.6} {swing:.6}", t[0], t[1], t[2], swing * 0.5, 0.0);
        }
    }
    s.push_str("end\n");
    s
}

/// A GothicSourcer-shaped file of about `target` bytes: long animation tracks (1,000 frames) on a growing
/// number of bones, with a small skinned mesh for every fourth bone.
fn gothic_sized(target: usize) -> String {
    let frames = 1000;
    // About 135 bytes of samples per bone and frame, plus a mesh of 200 vertices every fourth bone.
    let bones = (target / (frames * 135 + 12_000)).max(4);
    gothic::write(&gothic::Shape { bones, frames, meshes: bones / 4, mesh_vertices: 200, seed: 0 })
}

/// `COUNT` files of about 100 kB of the four shapes most real files have, each in a folder of its own.
fn small_set(args: &[String]) {
    let (Some(dir), Some(count)) = (args.first(), args.get(1).and_then(|s| s.parse::<usize>().ok())) else {
        eprintln!("usage: generate small-set OUT_DIR COUNT");
        std::process::exit(2);
    };
    let dir = std::path::Path::new(dir);
    let rig = Rig::new(48, 2000);
    for i in 0..count {
        // Sizes spread around 100 kB (70–130 kB), as real files are.
        let scale = 0.7 + (i * 37 % 61) as f64 / 100.0;
        let (name, text) = match i % 4 {
            0 => ("ref.smd", smd((100_000.0 * scale) as usize)),
            1 => ("anim.smd", animation_smd(&rig, (30.0 * scale) as usize, i)),
            2 => (
                "BODY.ASC",
                gothic::write(&gothic::Shape {
                    bones: 45,
                    frames: 0,
                    meshes: 3,
                    mesh_vertices: (120.0 * scale) as usize,
                    seed: i,
                }),
            ),
            _ => (
                "ANIM.ASC",
                gothic::write(&gothic::Shape {
                    bones: 45,
                    frames: (20.0 * scale) as usize,
                    meshes: 0,
                    mesh_vertices: 0,
                    seed: i,
                }),
            ),
        };
        let folder = dir.join(format!("{i:04}"));
        std::fs::create_dir_all(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
        std::fs::write(folder.join(name), text).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    eprintln!("{}: {count} files", dir.display());
}

/// The PSK and PSA of `benches/psk_load.rs`, written to a file.
fn unreal(args: &[String]) {
    use glam::{Quat, Vec3};
    use psk_writer::{Bone, Psa, Sequence, tube};
    let (Some(kind), Some(out)) = (args.first(), args.get(1)) else {
        eprintln!("usage: generate psk|psa OUT");
        std::process::exit(2);
    };
    let bytes = if kind == "psk" {
        let mut file = tube(400, 500, 64, 4000.0);
        file.face32 = true; // more than 65536 wedges
        file.normals = file.points.iter().map(|p| Vec3::new(0.0, p.y, p.z).normalize_or_zero()).collect();
        file.to_bytes()
    } else {
        let bones: Vec<Bone> = (0..100i32)
            .map(|b| Bone::new(&format!("bone{b}"), (b - 1).max(0), Quat::from_rotation_x(0.1), Vec3::X))
            .collect();
        let sequences = (0..200)
            .map(|s| Sequence {
                name: format!("seq{s}"),
                rate: 30.0,
                first_frame: s * 20,
                frames: 20,
                total_bones: 100,
            })
            .collect();
        let keys =
            (0..200 * 20 * 100).map(|i| (Vec3::splat(i as f32), Quat::from_rotation_z(i as f32 * 1e-4))).collect();
        Psa { bones, sequences, keys, ..Psa::default() }.to_bytes()
    };
    std::fs::write(out, &bytes).unwrap_or_else(|e| panic!("{out}: {e}"));
    eprintln!("{out}: {} bytes", bytes.len());
}
