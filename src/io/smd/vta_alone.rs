//! A VTA opened on its own: its base frame as a mesh a user can see, carrying the flexes and the flex clip.
//!
//! A VTA has vertices but no faces; the faces are its reference SMD's. Neither tool users know shows one alone:
//! HLMV opens compiled models only, and Blender Source Tools imports a VTA as shape keys of a selected mesh with
//! the same vertex count. Looking for "the" reference SMD beside the file would be a guess (a folder often holds
//! several SMDs with the same corner count: LODs, the body and its physics mesh), so the faces are rebuilt from
//! the VTA itself instead: studiomdl numbers VTA vertices over the reference's triangle corners in file order
//! (the rule `attach_vta` relies on, see `vta`), so when the base frame lists every index, vertices `3t`, `3t+1`
//! and `3t+2` are the three corners of the reference's triangle `t`. The per-corner normals the VTA carries check
//! that reading: on a corner-ordered file nearly every such triangle faces the way its corners' normals point
//! (the winding follows from that check too, as SMD's counter-clockwise convention is not stated in a VTA). A
//! base frame with holes, a vertex count that is no multiple of three, or triples that disagree with their
//! normals is not in corner order; such a file stays a point mesh (no faces), with a warning that says why and
//! how to see it (open it with its reference SMD). Nothing is welded: vertex `i` stays VTA vertex `i`, so the
//! flexes keep their indices.

use glam::{Vec2, Vec3};

use super::vta::VertexAnimation;
use crate::scene::{Clip, Mesh, Position, Reading, Subset, Warning};

/// Share of the judged triples (those with a face and a corner normal) that must face the way their normals
/// point for the base frame to count as corner-ordered. Smooth-shaded meshes stay far above it (a corner normal
/// is an average of the faces around the vertex, so it points within 90° of each of them); triples of vertices
/// listed in any other order land near one half.
const CORNER_ORDER_AGREEMENT: f32 = 0.9;

/// What the base frame's vertices make.
#[derive(Debug, PartialEq)]
enum Faces {
    /// One triangle per three vertices; `clockwise` when the normals point the other way of the
    /// counter-clockwise cross product.
    Triangles { clockwise: bool, checked: bool },
    /// No faces, and why.
    Points(String),
}

fn faces_of(anim: &VertexAnimation) -> Faces {
    let n = anim.base_positions.len();
    if n == 0 {
        return Faces::Points("the base frame lists no vertex".into());
    }
    if anim.present.iter().any(|p| !p) {
        return Faces::Points(
            "its base frame skips vertex indices, so they cannot be triangle corners in order".into(),
        );
    }
    if !n.is_multiple_of(3) {
        return Faces::Points(format!("its {n} vertices are not triangle corners in order (not a multiple of three)"));
    }
    let (mut along, mut against) = (0usize, 0usize);
    for t in 0..n / 3 {
        let [a, b, c] = [3 * t, 3 * t + 1, 3 * t + 2].map(|i| anim.base_positions[i]);
        let face = (b - a).cross(c - a);
        let normal = anim.base_normals[3 * t] + anim.base_normals[3 * t + 1] + anim.base_normals[3 * t + 2];
        let d = face.dot(normal);
        if !d.is_finite() || face.length_squared() == 0.0 || normal.length_squared() == 0.0 {
            continue;
        }
        if d > 0.0 {
            along += 1;
        } else if d < 0.0 {
            against += 1;
        }
    }
    let judged = along + against;
    if judged == 0 {
        // No normals to check against: studiomdl's numbering is all there is to go by.
        return Faces::Triangles { clockwise: false, checked: false };
    }
    let agreeing = along.max(against);
    if (agreeing as f32) < CORNER_ORDER_AGREEMENT * judged as f32 {
        return Faces::Points(format!(
            "read as triangle corners in order, only {agreeing} of {judged} triangles face the way their normals point"
        ));
    }
    Faces::Triangles { clockwise: against > along, checked: true }
}

/// The VTA on its own: a mesh of the base frame carrying the morphs (see the module documentation for its
/// faces), and the flex clip. Adds a reading (faces rebuilt) or a warning (a point mesh) saying which.
pub(super) fn vta_mesh(
    anim: VertexAnimation,
    readings: &mut Vec<Reading>,
    warnings: &mut Vec<Warning>,
) -> (Mesh, Clip) {
    let faces = faces_of(&anim);
    let n = anim.base_positions.len();
    let mut mesh = Mesh {
        name: "vertex animation".into(),
        positions: anim.base_positions,
        normals: anim.base_normals,
        uvs: vec![Vec2::ZERO; n],
        joints: vec![[0; 4]; n],
        weights: vec![[1.0, 0.0, 0.0, 0.0]; n],
        morph_targets: anim.morphs,
        ..Mesh::default()
    };
    match faces {
        Faces::Triangles { clockwise, checked } => {
            let count = u32::try_from(n).unwrap_or(u32::MAX);
            mesh.indices = (0..count).collect();
            mesh.corner_vertices = mesh.indices.clone();
            mesh.subsets = vec![Subset { material: 0, first_index: 0, index_count: count }];
            mesh.clockwise = clockwise;
            // A VTA's normals may be zero where its exporter wrote none; the faces give them then.
            if mesh.normals.iter().all(|v| *v == Vec3::ZERO) {
                mesh.compute_normals();
            }
            let choice = format!(
                "{} triangles: every three vertices of the base frame are one triangle of the reference SMD",
                n / 3
            );
            let basis = "VTA vertices number the reference's triangle corners in order, as studiomdl reads them";
            readings.push(if checked {
                Reading::new("faces", choice, format!("{basis}; the corner normals agree"))
            } else {
                Reading::assumed("faces", choice, format!("{basis}; the file has no normals to check it"))
            });
        }
        Faces::Points(why) => warnings.push(Warning::new(
            Position::File,
            format!(
                "a VTA has no faces of its own and {why}: shown as {n} points; open it with its reference SMD \
                 (bonescope REFERENCE.smd FILE.vta) to see the mesh"
            ),
        )),
    }
    (mesh, anim.flex_clip)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::MorphTarget;

    /// A unit quad as two triangles, corners in order, normals +Z; `shuffle` lists the corners in another order.
    fn anim(order: &[usize], normals: Vec3) -> VertexAnimation {
        let corners = [
            Vec3::ZERO,
            Vec3::X,
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::ZERO,
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::Y,
            // A second quad beside it, so a shuffle can break the order.
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(3.0, 0.0, 0.0),
            Vec3::new(3.0, 1.0, 0.0),
        ];
        VertexAnimation {
            base_positions: order.iter().map(|&i| corners[i]).collect(),
            base_normals: vec![normals; order.len()],
            present: vec![true; order.len()],
            morphs: vec![MorphTarget {
                name: "up".into(),
                vertices: vec![2],
                position_deltas: vec![Vec3::Z],
                ..Default::default()
            }],
            flex_clip: Clip::default(),
        }
    }

    #[test]
    fn corners_in_order_become_triangles_wound_by_their_normals() {
        let ordered: Vec<usize> = (0..9).collect();
        assert_eq!(faces_of(&anim(&ordered, Vec3::Z)), Faces::Triangles { clockwise: false, checked: true });
        assert_eq!(faces_of(&anim(&ordered, -Vec3::Z)), Faces::Triangles { clockwise: true, checked: true });
        assert_eq!(faces_of(&anim(&ordered, Vec3::ZERO)), Faces::Triangles { clockwise: false, checked: false });
        let (mut readings, mut warnings) = (Vec::new(), Vec::new());
        let (mesh, _) = vta_mesh(anim(&ordered, Vec3::Z), &mut readings, &mut warnings);
        assert_eq!((mesh.triangle_count(), mesh.vertex_count()), (3, 9));
        assert!(mesh.validate(1).is_ok());
        assert_eq!(mesh.morph_targets[0].vertices, [2], "flexes keep their VTA indices");
        assert!(warnings.is_empty() && readings[0].choice.starts_with("3 triangles"), "{readings:?}");
    }

    #[test]
    fn other_orders_stay_points_and_say_why() {
        // Corners of different quads mixed into each triple: the faces turn every which way.
        let mixed = [0, 7, 5, 1, 6, 4, 2, 8, 3];
        let (mut readings, mut warnings) = (Vec::new(), Vec::new());
        let (mesh, _) = vta_mesh(anim(&mixed, Vec3::Z), &mut readings, &mut warnings);
        assert_eq!((mesh.triangle_count(), mesh.vertex_count()), (0, 9));
        assert!(warnings[0].message.contains("face the way their normals point"), "{warnings:?}");
        assert!(readings.is_empty());
        let mut short = anim(&[0, 1, 2, 3], Vec3::Z);
        assert!(matches!(faces_of(&short), Faces::Points(why) if why.contains("multiple of three")));
        short.present[1] = false;
        assert!(matches!(faces_of(&short), Faces::Points(why) if why.contains("skips")));
    }
}
