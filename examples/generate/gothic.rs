//! GothicSourcer-shaped ASE/ASC text: a Biped-like tree of `*HELPEROBJECT` bones, small `*GEOMOBJECT`s with a
//! `*MESH_SOFTSKIN` block and their `*MESH_SOFTSKINVERTS` list, and per bone a `*TM_ANIMATION` with one
//! position and one rotation sample per frame (world samples, as GothicSourcer writes them: the first rotation
//! sample repeats the node's `*TM_ROTAXIS`/`*TM_ROTANGLE`). Layout, indentation and number style follow
//! the Gothic files in the corpus: tabs between numbers, and numbers as 3ds Max's `%g` writes them (six
//! significant digits, trailing zeros dropped, `2.08616e-007` for tiny ones), see [`G`].

use std::fmt::Write as _;

/// A number as `printf("%g")` writes it (what the exporter wrote): six significant digits.
struct G(f32);

impl std::fmt::Display for G {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let x = f64::from(self.0);
        if x == 0.0 {
            return f.write_str("0");
        }
        let exponent = x.abs().log10().floor() as i32;
        if !(-5..6).contains(&exponent) {
            let mantissa = x / 10f64.powi(exponent);
            let m = format!("{mantissa:.5}");
            let m = m.trim_end_matches('0').trim_end_matches('.');
            let sign = if exponent < 0 { '-' } else { '+' };
            return write!(f, "{m}e{sign}{:03}", exponent.abs());
        }
        let decimals = (5 - exponent).max(0) as usize;
        let s = format!("{x:.decimals$}");
        let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.') } else { &s };
        f.write_str(if s == "-0" { "0" } else { s })
    }
}

/// What to put in one file.
pub struct Shape {
    pub bones: usize,
    /// Animation frames (0: no `*TM_ANIMATION` blocks, a body file).
    pub frames: usize,
    /// Skinned mesh objects, and vertices of each (a ring strip around a bone).
    pub meshes: usize,
    pub mesh_vertices: usize,
    /// Varies positions and phases so that files of one shape differ.
    pub seed: usize,
}

const TICKS_PER_FRAME: usize = 192;

fn bone_name(b: usize) -> String {
    if b == 0 { "Bip01".to_owned() } else { format!("Bip01 B{b:03}") }
}

/// Parent of bone `b`: a tree three wide, like a biped's spine with limbs.
fn parent(b: usize) -> Option<usize> {
    (b > 0).then(|| (b - 1) / 3)
}

/// World position of bone `b` at rest.
fn rest(b: usize, seed: usize) -> [f32; 3] {
    let mut p = [0.0f32, 0.0, 40.0];
    let mut at = b;
    while let Some(q) = parent(at) {
        let branch = (at - 1) % 3;
        let a = (branch as f32 + seed as f32 * 0.1) * 2.1;
        p[0] += a.cos() * 4.0;
        p[1] += a.sin() * 4.0;
        p[2] += 1.5;
        at = q;
    }
    p
}

fn node_tm(s: &mut String, name: &str, pos: [f32; 3]) {
    let _ = write!(
        s,
        "\t*NODE_TM {{\n\t\t*NODE_NAME \"{name}\"\n\t\t*TM_ROW0 1\t0\t0\n\t\t*TM_ROW1 0\t1\t0\n\t\t*TM_ROW2 0\t0\t1\n\t\t*TM_ROW3 {x}\t{y}\t{z}\n\t\t*TM_POS {x}\t{y}\t{z}\n\t\t*TM_ROTAXIS 0\t0\t0\n\t\t*TM_ROTANGLE 0\n\t\t*TM_SCALE 1\t1\t1\n\t\t*TM_SCALEAXIS 0\t0\t0\n\t\t*TM_SCALEAXISANG 0\t0\t0\n\t}}\n",
        x = G(pos[0]),
        y = G(pos[1]),
        z = G(pos[2])
    );
}

pub fn write(shape: &Shape) -> String {
    let mut s = String::new();
    let last = shape.frames.max(1);
    let _ = write!(
        s,
        "*3DSMAX_ASCIIEXPORT\t110\n*COMMENT \"[ GothicSourcer v3.14 ] - June 2007\"\n*SCENE {{\n\t*SCENE_FILENAME \"GEN_{seed}.MAX\"\n\t*SCENE_FIRSTFRAME 1\n\t*SCENE_LASTFRAME {last}\n\t*SCENE_FRAMESPEED 25\n\t*SCENE_TICKSPERFRAME {TICKS_PER_FRAME}\n\t*SCENE_BACKGROUND_STATIC 0\t0\t0\n\t*SCENE_AMBIENT_STATIC 0.2\t0.2\t0.2\n}}\n",
        seed = shape.seed
    );
    if shape.meshes > 0 {
        s.push_str("*MATERIAL_LIST {\n\t*MATERIAL_COUNT 1\n\t*MATERIAL 0 {\n\t\t*MATERIAL_NAME \"BODY\"\n\t\t*MATERIAL_CLASS \"Standard\"\n\t\t*MATERIAL_DIFFUSE 0.403922\t0.321569\t0.235294\n\t\t*MAP_DIFFUSE {\n\t\t\t*MAP_NAME \"Map #1\"\n\t\t\t*MAP_CLASS \"Bitmap\"\n\t\t\t*BITMAP \"GEN_BODY_V0.TGA\"\n\t\t}\n\t}\n}\n");
    }
    for b in 0..shape.bones {
        let name = bone_name(b);
        let pos = rest(b, shape.seed);
        let _ = writeln!(s, "*HELPEROBJECT {{\n\t*NODE_NAME \"{name}\"");
        if let Some(p) = parent(b) {
            let _ = writeln!(s, "\t*NODE_PARENT \"{}\"", bone_name(p));
        }
        node_tm(&mut s, &name, pos);
        if shape.frames > 0 {
            let _ = write!(s, "\t*TM_ANIMATION {{\n\t\t*NODE_NAME  \"{name}\"\n\t\t*CONTROL_POS_TRACK {{\n");
            for f in 0..shape.frames {
                let t = (f as f32 + b as f32 * 0.37 + shape.seed as f32) * 0.11;
                let _ = writeln!(
                    s,
                    "\t\t\t*CONTROL_POS_SAMPLE {}\t{}\t{}\t{}",
                    1 + f * TICKS_PER_FRAME,
                    G(pos[0] + t.sin() * 0.5),
                    G(pos[1] - f as f32 * 0.9),
                    G(pos[2] + t.cos() * 0.25)
                );
            }
            s.push_str("\t\t}\n\t\t*CONTROL_ROT_TRACK {\n");
            for f in 0..shape.frames {
                let t = (f as f32 + b as f32 * 0.37 + shape.seed as f32) * 0.11;
                let (x, y) = (t.sin() * 0.3, t.cos() * 0.3);
                let z = (1.0 - x * x - y * y).sqrt();
                let angle = if f == 0 { 0.0 } else { 0.05 + 0.2 * (t * 0.7).sin().abs() };
                let _ = writeln!(
                    s,
                    "\t\t\t*CONTROL_ROT_SAMPLE {}\t{}\t{}\t{}\t{}",
                    1 + f * TICKS_PER_FRAME,
                    G(x),
                    G(y),
                    G(z),
                    G(angle)
                );
            }
            s.push_str(
                "\t\t}\n\t\t*CONTROL_SCALE_TRACK {\n\t\t\t*CONTROL_SCALE_SAMPLE\t1\t1\t1\t1\t0\t0\t0\t0\n\t\t}\n\t}\n",
            );
        }
        s.push_str("}\n");
    }
    for m in 0..shape.meshes {
        mesh(&mut s, m, shape);
    }
    s
}

/// One skinned strip: rings of 8 vertices along bone `m`'s direction, each vertex bound to that bone and its
/// parent.
fn mesh(s: &mut String, m: usize, shape: &Shape) {
    let name = format!("zm_Skin{m}");
    let bone = m * shape.bones / shape.meshes.max(1);
    let centre = rest(bone, shape.seed);
    let segments = 8;
    let rings = (shape.mesh_vertices / segments).max(2);
    let vertices = rings * segments;
    let faces = (rings - 1) * segments * 2;
    let _ = writeln!(s, "*GEOMOBJECT {{\n\t*NODE_NAME \"{name}\"");
    node_tm(s, &name, [0.0; 3]);
    let _ = write!(
        s,
        "\t*MATERIAL_REF 0\n\t*MESH_SOFTSKIN {{\n\t\t*TIMEVALUE 0\n\t\t*MESH_NUMVERTEX {vertices}\n\t\t*MESH_NUMFACES {faces}\n\t\t*MESH_VERTEX_LIST {{\n"
    );
    for r in 0..rings {
        for g in 0..segments {
            let a = g as f32 / segments as f32 * std::f32::consts::TAU;
            let _ = writeln!(
                s,
                "\t\t\t*MESH_VERTEX {}\t{}\t{}\t{}",
                r * segments + g,
                G(centre[0] + a.cos() * 2.0),
                G(centre[1] + a.sin() * 2.0),
                G(centre[2] + r as f32 * 0.5)
            );
        }
    }
    s.push_str("\t\t}\n\t\t*MESH_FACE_LIST {\n");
    let mut tfaces = Vec::with_capacity(faces);
    for r in 0..rings - 1 {
        for g in 0..segments {
            let v = |rr: usize, gg: usize| rr * segments + gg % segments;
            for tri in [[v(r, g), v(r, g + 1), v(r + 1, g + 1)], [v(r, g), v(r + 1, g + 1), v(r + 1, g)]] {
                let f = tfaces.len();
                let _ = writeln!(
                    s,
                    "\t\t\t*MESH_FACE {f:4}:    A: {:4} B: {:4} C: {:4} AB:    1 BC:    1 CA:    0\t *MESH_SMOOTHING 1 \t*MESH_MTLID 0",
                    tri[0], tri[1], tri[2]
                );
                tfaces.push(tri);
            }
        }
    }
    let _ = write!(s, "\t\t}}\n\t\t*MESH_NUMTVERTEX {vertices}\n\t\t*MESH_TVERTLIST {{\n");
    for r in 0..rings {
        for g in 0..segments {
            let _ = writeln!(
                s,
                "\t\t\t*MESH_TVERT {}\t{}\t{}\t0",
                r * segments + g,
                G(g as f32 / segments as f32),
                G(r as f32 / rings as f32)
            );
        }
    }
    let _ = write!(s, "\t\t}}\n\t\t*MESH_NUMTVFACES {faces}\n\t\t*MESH_TFACELIST {{\n");
    for (f, t) in tfaces.iter().enumerate() {
        let _ = writeln!(s, "\t\t\t*MESH_TFACE {f}\t{}\t{}\t{}", t[0], t[1], t[2]);
    }
    s.push_str("\t\t}\n\t}\n}\n");
    let _ = write!(s, "*MESH_SOFTSKINVERTS {{\n{name}\n{vertices}\n");
    let own = bone_name(bone);
    let up = bone_name(parent(bone).unwrap_or(bone));
    for r in 0..rings {
        for _ in 0..segments {
            let w = r as f32 / rings as f32;
            if w == 0.0 || up == own {
                let _ = writeln!(s, "1\t\"{own}\"\t1");
            } else {
                let _ = writeln!(s, "2\t\"{own}\"\t{}\t\"{up}\"\t{}", G(1.0 - w * 0.5), G(w * 0.5));
            }
        }
    }
    s.push_str("}\n");
}
