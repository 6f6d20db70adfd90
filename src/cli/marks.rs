//! Marking a finding in a headless render, for `render --finding` and `check --thumbnails`: the edge or seam
//! ringed in red where the pose puts it, a triangle outlined, a vertex ringed, a bone's joint marked — drawn on
//! top of everything — and the place it is at, to frame the camera on.

use glam::{Mat4, Vec3};

use bonescope::anim::diagnostics::Subject;
use bonescope::render::headless::Scene;
use bonescope::render::overlay::Depth;
use bonescope::scene::{Asset, Bounds};

/// The mark's colour.
pub const MARK: [u8; 4] = [255, 40, 40, 255];

/// Where in the pose drawn (viewer frame) what the finding is about is: its edge's or seam's two ends, a
/// triangle's corners, a vertex, a bone's joint.
pub fn points(scene: &Scene<'_>, asset: &Asset, subject: Option<Subject>, edge: Option<[u32; 2]>) -> Vec<Vec3> {
    let palette = &scene.posed.pose.palette;
    // The overlay is in the viewer's frame; the mesh and pose in the file's.
    let to_viewer = asset.axes.to_viewer;
    let skinned = |mesh: usize, vertex: usize| -> Option<Vec3> {
        let m = asset.meshes.get(mesh)?;
        let p = *m.positions.get(vertex)?;
        let (joints, weights) = (m.joints.get(vertex)?, m.weights.get(vertex)?);
        let mut out = Vec3::ZERO;
        let mut total = 0.0;
        for (j, w) in joints.iter().zip(weights) {
            if *w > 0.0 {
                let matrix: &Mat4 = palette.get(usize::from(*j))?;
                out += matrix.transform_point3(p) * *w;
                total += *w;
            }
        }
        Some(to_viewer.transform_point3(if total > 0.0 { out / total } else { p }))
    };
    let mut points: Vec<Vec3> = Vec::new();
    match (subject, edge.map(|[a, b]| [a as usize, b as usize])) {
        (Some(Subject::Triangle { mesh, .. } | Subject::Vertex { mesh, .. }), Some([a, b])) => {
            points.extend([skinned(mesh, a), skinned(mesh, b)].into_iter().flatten())
        }
        (Some(Subject::Triangle { mesh, index }), None) => {
            let tri = asset.meshes.get(mesh).and_then(|m| m.indices.get(index * 3..index * 3 + 3));
            points.extend(tri.into_iter().flatten().filter_map(|&v| skinned(mesh, v as usize)));
        }
        (Some(Subject::Vertex { mesh, index }), None) => points.extend(skinned(mesh, index)),
        (Some(Subject::Bone(b)), _) => {
            if let Some(joint) = scene.posed.pose.to_root.get(b) {
                points.push(to_viewer.transform_point3(joint.w_axis.truncate()));
            }
        }
        _ => {}
    }
    points.retain(|p| p.is_finite());
    points
}

/// Rings `points` in the frame being drawn (rings `ring` units across, joined by lines).
pub fn ring(scene: &mut Scene<'_>, points: &[Vec3], ring: f32) {
    let overlay = &mut scene.frame.overlay;
    for w in points.windows(2) {
        overlay.line(w[0], w[1], MARK, Depth::OnTop);
    }
    for p in points {
        overlay.sphere(*p, ring, MARK, Depth::OnTop);
    }
}

/// What to frame to see `points` with what is around them: at least `context` of the character's radius
/// `character` around them.
pub fn around(points: &[Vec3], character: f32, context: f32) -> Option<Bounds> {
    let marked = Bounds::from_points(points.iter().copied());
    (!marked.is_empty()).then(|| Bounds::cube(marked.center(), (marked.radius() * 2.0).max(character * context)))
}
