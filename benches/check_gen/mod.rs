//! A generated asset tree of the shape of the public Half-Life model sources, for `bonescope check`: at scale
//! 1, 2,700 SMDs of about 300 MB in all, 17 % of them reference meshes (two or three body parts per
//! character; ~300 KB each, textures named but missing), the rest animations (~72 KB each, 25 frames of a
//! 64-bone skeleton). Nine characters in ten have a QC naming their files; the tenth are grouped by folder.

use std::fmt::Write as _;
use std::path::Path;

#[path = "../smd_gen/mod.rs"]
mod smd_gen;

/// SMDs per character: 10 in all, about 17 % references.
const REFS_PER_CHARACTER: [usize; 6] = [2, 2, 2, 1, 2, 1];
const SMDS_PER_CHARACTER: usize = 10;
const REF_BYTES: usize = 300_000;
const ANIM_FRAMES: usize = 25;
const BONES: usize = 64;

/// What [`generate`] wrote.
#[derive(Clone, Copy, Debug, Default)]
pub struct Written {
    pub smds: usize,
    pub references: usize,
    pub qcs: usize,
    pub bytes: u64,
}

/// Writes the tree for `scale` (1.0: 270 characters, 2,700 SMDs) under `root`.
pub fn generate(root: &Path, scale: f64) -> std::io::Result<Written> {
    let characters = ((270.0 * scale).round() as usize).max(1);
    let reference = smd_gen::source_smd(REF_BYTES);
    let mut written = Written::default();
    for c in 0..characters {
        let dir = root.join(format!("models/char{c:04}"));
        std::fs::create_dir_all(&dir)?;
        let refs = REFS_PER_CHARACTER[c % REFS_PER_CHARACTER.len()];
        let mut qc = format!("$modelname \"char{c:04}.mdl\"\n$cd \".\"\n");
        for r in 0..refs {
            let name = format!("part{r}_ref");
            std::fs::write(dir.join(format!("{name}.smd")), &reference)?;
            written.bytes += reference.len() as u64;
            let _ = writeln!(qc, "$body \"part{r}\" \"{name}\"");
        }
        for a in 0..SMDS_PER_CHARACTER - refs {
            let text = animation(c * 31 + a);
            let name = format!("anim{a:02}");
            std::fs::write(dir.join(format!("{name}.smd")), &text)?;
            written.bytes += text.len() as u64;
            let _ = writeln!(qc, "$sequence \"{name}\" \"{name}\" fps 30 loop");
        }
        written.smds += SMDS_PER_CHARACTER;
        written.references += refs;
        if c % 10 != 9 {
            std::fs::write(dir.join(format!("char{c:04}.qc")), qc)?;
            written.qcs += 1;
        }
    }
    Ok(written)
}

/// An animation of the generated references' skeleton: every bone keyed every frame, a gentle bend.
fn animation(seed: usize) -> String {
    let mut s = String::with_capacity(ANIM_FRAMES * BONES * 48 + BONES * 24);
    s.push_str("version 1\nnodes\n");
    for b in 0..BONES {
        let _ = writeln!(s, "{b} \"bone{b:02}\" {}", b as i64 - 1);
    }
    s.push_str("end\nskeleton\n");
    let phase = seed as f32 * 0.37;
    // The bone spacing of `smd_gen::source_smd` at REF_BYTES (its grid's height over the bone count).
    let quads = (REF_BYTES / 660).max(1);
    let width = ((quads as f64).sqrt() as usize).max(1);
    let spacing = quads.div_ceil(width) as f32 / BONES as f32;
    for f in 0..ANIM_FRAMES {
        let _ = writeln!(s, "time {f}");
        for b in 0..BONES {
            let step = if b == 0 { 0.0 } else { spacing };
            let bend = ((f as f32 * 0.25 + phase + b as f32 * 0.1).sin() * 0.05) as f64;
            let _ = writeln!(s, "{b} 0.000000 {step:.6} 0.000000 {bend:.6} 0.000000 {:.6}", bend * 0.5);
        }
    }
    s.push_str("end\n");
    s
}
