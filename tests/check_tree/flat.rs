#![allow(dead_code)]
//! A flat folder of a UE1 game's characters re-exported as `<name>Mesh.psk` + `<name>Anims.psa`, as the issue
//! found them: real-shaped characters (a skinned body of thousands of vertices on a chain of tens of bones, all
//! named alike — `Root`, `Bone1`, … — as exporters name them, in each character's own proportions) and
//! animation files of several sequences, most characters with their animations, some without.

use std::path::Path;

use glam::Quat;

#[path = "../psk_writer/mod.rs"]
mod psk_writer;

use psk_writer::{Psa, Psk, Sequence};

/// How large each generated character is.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub rings: usize,
    pub sides: usize,
    pub bones: usize,
    pub sequences: usize,
    pub frames: usize,
}

/// Tens of bones, thousands of vertices, several sequences.
pub const REAL: Shape = Shape { rings: 100, sides: 30, bones: 40, sequences: 6, frames: 30 };

/// What [`flat_folder`] wrote.
#[derive(Clone, Copy, Debug, Default)]
pub struct Written {
    pub meshes: usize,
    pub animations: usize,
    pub bytes: u64,
}

/// Character `i`'s mesh: a body of `shape`'s size whose length (and so every bone's) is its own.
pub fn mesh(i: usize, shape: Shape) -> Psk {
    psk_writer::tube(shape.rings, shape.sides, shape.bones, length(i))
}

fn length(i: usize) -> f32 {
    80.0 + 13.0 * (i % 17) as f32 + 3.0 * (i / 17) as f32
}

/// Character `i`'s animations: `shape.sequences` sequences of its own skeleton, each bone swaying about its
/// bind pose (`sway` radians at most).
pub fn animations(i: usize, shape: Shape, sway: f32) -> Psa {
    let bones = mesh(i, Shape { rings: 2, sides: 3, ..shape }).bones;
    let mut psa = Psa { bones: bones.clone(), ..Psa::default() };
    for s in 0..shape.sequences {
        psa.sequences.push(Sequence {
            name: format!("seq{s}"),
            rate: 30.0,
            first_frame: (s * shape.frames) as i32,
            frames: shape.frames as i32,
            total_bones: bones.len() as i32,
        });
        for f in 0..shape.frames {
            let phase = f as f32 / shape.frames as f32 * std::f32::consts::TAU + s as f32;
            for (b, bone) in bones.iter().enumerate() {
                let turn = Quat::from_rotation_z(sway * (phase + b as f32 * 0.3).sin());
                psa.keys.push((bone.position, bone.rotation * turn));
            }
        }
    }
    psa
}

/// Writes `names.len()` characters into `dir`, `<name>Mesh.psk` each, and `<name>Anims.psa` for the first
/// `with_animations` of them.
pub fn flat_folder(dir: &Path, names: &[String], with_animations: usize, shape: Shape) -> std::io::Result<Written> {
    std::fs::create_dir_all(dir)?;
    let mut written = Written::default();
    for (i, name) in names.iter().enumerate() {
        let bytes = mesh(i, shape).to_bytes();
        written.bytes += bytes.len() as u64;
        std::fs::write(dir.join(format!("{name}Mesh.psk")), bytes)?;
        written.meshes += 1;
        if i < with_animations {
            let bytes = animations(i, shape, 0.3).to_bytes();
            written.bytes += bytes.len() as u64;
            std::fs::write(dir.join(format!("{name}Anims.psa")), bytes)?;
            written.animations += 1;
        }
    }
    Ok(written)
}

/// The issue's folder: 151 characters, 120 of them with their animations (271 files).
pub fn issue_folder(dir: &Path) -> std::io::Result<Written> {
    let names: Vec<String> = (0..151).map(|i| format!("char{i:03}")).collect();
    flat_folder(dir, &names, 120, REAL)
}
