//! Vertex animation by "tweening": a mesh with [`VertexFrame`]s (full copies of its vertex positions at
//! given times, as in ASE `*MESH_ANIMATION` or Quake II md2) is shown at time `t` by blending the two frames
//! around `t` linearly. Before the first frame and after the last the nearest frame is held.
//!
//! Playback does not come through here: `scene::vertex_animation` turns the frames into morph targets whose
//! weights tween exactly like this, so the controller and the GPU play them with every other morph. This module
//! stays as the plain statement of what tweening means, and the reference the conversion is tested against.
//!
//! Pure computation into caller-owned buffers; the result is in the mesh's bind space, ready for skinning.

use glam::Vec3;

use crate::scene::{Mesh, VertexFrame};

/// The two frames around `t` and the blend factor between them: `(a, b, s)` with result `lerp(a, b, s)`.
/// Frames must be sorted by time. `None` when there are no frames.
pub fn frame_pair(frames: &[VertexFrame], t: f32) -> Option<(usize, usize, f32)> {
    let last = frames.len().checked_sub(1)?;
    if t.is_nan() || t <= frames[0].time {
        return Some((0, 0, 0.0));
    }
    let b = frames.partition_point(|f| f.time <= t);
    if b > last {
        return Some((last, last, 0.0));
    }
    let a = b - 1;
    let span = frames[b].time - frames[a].time;
    let s = if span > 0.0 { ((t - frames[a].time) / span).clamp(0.0, 1.0) } else { 1.0 };
    Some((a, b, s))
}

/// Writes the mesh's tweened positions and normals at `t`. A mesh without frames gives its own positions and
/// normals; frames without normals use the mesh's. Frames whose length does not match the mesh are ignored.
pub fn tween(mesh: &Mesh, t: f32, positions: &mut Vec<Vec3>, normals: &mut Vec<Vec3>) {
    positions.clear();
    normals.clear();
    let n = mesh.positions.len();
    let usable = mesh.vertex_frames.iter().all(|f| f.positions.len() == n);
    let pair = if usable { frame_pair(&mesh.vertex_frames, t) } else { None };
    let Some((a, b, s)) = pair else {
        positions.extend_from_slice(&mesh.positions);
        normals.extend_from_slice(&mesh.normals);
        return;
    };
    let (fa, fb) = (&mesh.vertex_frames[a], &mesh.vertex_frames[b]);
    positions.extend(fa.positions.iter().zip(&fb.positions).map(|(p, q)| p.lerp(*q, s)));
    let na = if fa.normals.len() == n { &fa.normals } else { &mesh.normals };
    let nb = if fb.normals.len() == n { &fb.normals } else { &mesh.normals };
    normals.extend(na.iter().zip(nb).map(|(p, q)| p.lerp(*q, s).normalize_or(*p)));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mesh() -> Mesh {
        let frame = |time: f32, x: f32| VertexFrame {
            time,
            positions: vec![Vec3::new(x, 0.0, 0.0), Vec3::new(x, 1.0, 0.0)],
            normals: Vec::new(),
        };
        Mesh {
            positions: vec![Vec3::ZERO, Vec3::Y],
            normals: vec![Vec3::Z, Vec3::Z],
            vertex_frames: vec![frame(0.0, 0.0), frame(1.0, 2.0), frame(3.0, 6.0)],
            ..Mesh::default()
        }
    }

    #[test]
    fn blends_the_neighbouring_frames() {
        let m = mesh();
        let (mut p, mut n) = (Vec::new(), Vec::new());
        tween(&m, 0.5, &mut p, &mut n);
        assert_eq!(p, vec![Vec3::new(1.0, 0.0, 0.0), Vec3::new(1.0, 1.0, 0.0)]);
        assert_eq!(n, vec![Vec3::Z, Vec3::Z]);
        tween(&m, 2.0, &mut p, &mut n);
        assert!(p[0].abs_diff_eq(Vec3::new(4.0, 0.0, 0.0), 1e-6));
        tween(&m, 1.0, &mut p, &mut n);
        assert!(p[0].abs_diff_eq(Vec3::new(2.0, 0.0, 0.0), 1e-6));
    }

    #[test]
    fn holds_outside_and_handles_no_frames() {
        let m = mesh();
        let (mut p, mut n) = (Vec::new(), Vec::new());
        tween(&m, -5.0, &mut p, &mut n);
        assert_eq!(p[0], Vec3::ZERO);
        tween(&m, 50.0, &mut p, &mut n);
        assert_eq!(p[0], Vec3::new(6.0, 0.0, 0.0));
        let plain = Mesh { positions: vec![Vec3::ONE], normals: vec![Vec3::X], ..Mesh::default() };
        tween(&plain, 1.0, &mut p, &mut n);
        assert_eq!((p, n), (vec![Vec3::ONE], vec![Vec3::X]));
        assert_eq!(frame_pair(&[], 0.0), None);
    }
}
