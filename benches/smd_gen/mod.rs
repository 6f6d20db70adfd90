//! A generated Source-style reference SMD for benchmarks: a wavy grid of quads skinned to a chain of bones,
//! every corner with two or three bone links, four materials in bands. Shared grid corners are written out
//! in full each time (as exporters do), so welding has real work: about six corners weld into one vertex.

use std::fmt::Write as _;

/// Writes an SMD of roughly `target_bytes` bytes.
pub fn source_smd(target_bytes: usize) -> String {
    const BONES: usize = 64;
    // About 2 × 3 × 110 bytes per quad.
    let quads = (target_bytes / 660).max(1);
    let width = ((quads as f64).sqrt() as usize).max(1);
    let height = quads.div_ceil(width);
    let mut s = String::with_capacity(target_bytes + target_bytes / 8);
    s.push_str("version 1\nnodes\n");
    for b in 0..BONES {
        writeln!(s, "{b} \"bone{b:02}\" {}", b as i64 - 1).unwrap();
    }
    s.push_str("end\nskeleton\ntime 0\n");
    for b in 0..BONES {
        let step = if b == 0 { 0.0 } else { height as f32 / BONES as f32 };
        writeln!(s, "{b} 0.000000 {step:.6} 0.000000 0.000000 0.000000 0.000000").unwrap();
    }
    s.push_str("end\ntriangles\n");
    let corner = |s: &mut String, x: usize, y: usize| {
        let (fx, fy) = (x as f32, y as f32);
        let z = (fx * 0.37).sin() * 2.0 + (fy * 0.23).cos() * 3.0;
        let n = glam::Vec3::new(-(fx * 0.37).cos() * 0.74, (fy * 0.23).sin() * 0.69, 1.0).normalize();
        let along = fy / height as f32 * (BONES - 1) as f32;
        let bone = (along as usize).min(BONES - 2);
        let t = along - bone as f32;
        let (u, v) = (fx / width as f32, fy / height as f32);
        write!(s, "{bone} {fx:.6} {fy:.6} {z:.6} {:.6} {:.6} {:.6} {u:.6} {v:.6} ", n.x, n.y, n.z).unwrap();
        if x.is_multiple_of(3) {
            let w0 = (1.0 - t) * 0.8;
            writeln!(s, "3 {bone} {w0:.6} {} {:.6} {} 0.200000", bone + 1, t * 0.8, (bone + 2).min(BONES - 1)).unwrap();
        } else {
            writeln!(s, "2 {bone} {:.6} {} {t:.6}", 1.0 - t, bone + 1).unwrap();
        }
    };
    for y in 0..height {
        for x in 0..width {
            let material = ["skin.tga", "cloth.tga", "metal.tga", "eyes.tga"][(y * 4 / height).min(3)];
            for tri in [[(x, y), (x + 1, y), (x + 1, y + 1)], [(x, y), (x + 1, y + 1), (x, y + 1)]] {
                s.push_str(material);
                s.push('\n');
                for (cx, cy) in tri {
                    corner(&mut s, cx, cy);
                }
            }
        }
    }
    s.push_str("end\n");
    s
}
