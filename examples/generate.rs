//! Writes large, valid test files for benchmarks and side-by-side comparisons:
//! `cargo run --release --example generate -- smd|ase OUT.smd SIZE_MB`, and a character of a real game's scale
//! for the viewer's frame rate: `… -- character OUT_DIR` writes `character.smd` (481 bones, about 12,000
//! vertices, four influences each) and `character_wave.smd` (60 frames moving every bone).
//!
//! The SMD is a Source-style reference mesh (a 30-bone chain, each vertex weighted to two or three bones), the
//! ASE a set of grid meshes with texture coordinates, normals and a material. Both are tessellated grids, so
//! most triangle corners are shared and welding has work to do, as in real characters.

use std::fmt::Write as _;
use std::io::Write as _;

const BONES: usize = 30;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("character") {
        let Some(dir) = args.get(2) else {
            eprintln!("usage: generate character OUT_DIR");
            std::process::exit(2);
        };
        let dir = std::path::Path::new(dir);
        std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for (name, text) in [("character.smd", character_reference()), ("character_wave.smd", character_wave())] {
            std::fs::write(dir.join(name), &text).unwrap_or_else(|e| panic!("{name}: {e}"));
            eprintln!("{}: {} bytes", dir.join(name).display(), text.len());
        }
        return;
    }
    let (Some(kind), Some(out), Some(size)) =
        (args.get(1), args.get(2), args.get(3).and_then(|s| s.parse::<f64>().ok()))
    else {
        eprintln!("usage: generate smd|ase OUT SIZE_MB");
        std::process::exit(2);
    };
    let target = (size * 1_000_000.0) as usize;
    let text = match kind.as_str() {
        "smd" => smd(target),
        "ase" => ase(target),
        _ => {
            eprintln!("unknown kind {kind}: smd or ase");
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
    let columns = 64;
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

/// Bones of the generated character: a spine of 21 with 20 limbs of 23 bones each (481 in all).
const CHARACTER_LIMBS: usize = 20;
const CHARACTER_LIMB_BONES: usize = 23;
const CHARACTER_BONES: usize = 21 + CHARACTER_LIMBS * CHARACTER_LIMB_BONES;

/// Parent and bind translation (Z up) of bone `b`: the spine goes up, limb `l` starts at spine bone `l + 1`
/// and reaches out at its own angle.
fn character_bone(b: usize) -> (i64, [f32; 3]) {
    if b == 0 {
        return (-1, [0.0, 0.0, 40.0]);
    }
    if b < 21 {
        return (b as i64 - 1, [0.0, 0.0, 4.0]);
    }
    let limb = (b - 21) / CHARACTER_LIMB_BONES;
    let k = (b - 21) % CHARACTER_LIMB_BONES;
    let angle = limb as f32 / CHARACTER_LIMBS as f32 * std::f32::consts::TAU;
    let step = [angle.cos() * 2.0, angle.sin() * 2.0, -0.3];
    if k == 0 { ((limb + 1) as i64, step) } else { ((b - 1) as i64, step) }
}

/// The bind-pose position of every bone (sum of translations up the chain; the bind pose has no rotation).
fn character_bind_positions() -> Vec<[f32; 3]> {
    let mut out: Vec<[f32; 3]> = Vec::with_capacity(CHARACTER_BONES);
    for b in 0..CHARACTER_BONES {
        let (parent, t) = character_bone(b);
        let base = if parent < 0 { [0.0; 3] } else { out[parent as usize] };
        out.push([base[0] + t[0], base[1] + t[1], base[2] + t[2]]);
    }
    out
}

fn character_nodes(s: &mut String) {
    s.push_str("version 1\nnodes\n");
    for b in 0..CHARACTER_BONES {
        let _ = writeln!(s, "{b} \"bone{b}\" {}", character_bone(b).0);
    }
    s.push_str("end\n");
}

/// Reference mesh: a small sphere of 24 vertices around each bone, skinned to it, its parent, and the two
/// nearest bones after it (four influences), 481 × 24 ≈ 11,500 vertices.
fn character_reference() -> String {
    let mut s = String::new();
    character_nodes(&mut s);
    s.push_str("skeleton\ntime 0\n");
    for b in 0..CHARACTER_BONES {
        let t = character_bone(b).1;
        let _ = writeln!(s, "{b} {:.6} {:.6} {:.6} 0 0 0", t[0], t[1], t[2]);
    }
    s.push_str("end\ntriangles\n");
    let positions = character_bind_positions();
    let (rings, segments) = (3usize, 8usize);
    for (b, centre) in positions.iter().enumerate() {
        let parent = character_bone(b).0.max(0) as usize;
        let links = [b, parent, (b + 1).min(CHARACTER_BONES - 1), (b + 2).min(CHARACTER_BONES - 1)];
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
fn character_wave() -> String {
    let mut s = String::new();
    character_nodes(&mut s);
    s.push_str("skeleton\n");
    for frame in 0..60 {
        let _ = writeln!(s, "time {frame}");
        let phase = frame as f32 / 60.0 * std::f32::consts::TAU;
        for b in 0..CHARACTER_BONES {
            let t = character_bone(b).1;
            let swing = 0.25 * (phase + b as f32 * 0.3).sin();
            let _ = writeln!(s, "{b} {:.6} {:.6} {:.6} {:.6} {:.6} {swing:.6}", t[0], t[1], t[2], swing * 0.5, 0.0);
        }
    }
    s.push_str("end\n");
    s
}
