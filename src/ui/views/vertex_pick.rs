//! Picking a vertex in the viewport (Alt+click) and what the inspector shows about it: its mesh and index, its
//! position in the bind pose and now, its bone weights by name, and its morph deltas per target with the weight
//! each target has now — the per-vertex view of why a vertex lands where it does.
//!
//! Picking projects the vertices as drawn (morphed and skinned on the CPU, once per click) and takes the nearest
//! within a few pixels of the pointer, front-most first. Must not touch: GPU, files.

use eframe::egui;
use glam::{Mat4, Vec3};

use crate::anim::{Pose, skin_mesh_morphed};
use crate::render::camera::OrbitCamera;
use crate::scene::Asset;

/// A picked vertex: mesh index and vertex index.
pub type PickedVertex = (usize, u32);

/// The vertex drawn nearest to `pointer` (within `radius` pixels; the one nearest the eye among those), with the
/// pose `palette` and morph `weights` as drawn, in a viewport `rect` seen by `camera`.
pub fn pick(
    asset: &Asset,
    palette: &[Mat4],
    weights: &[f32],
    camera: &OrbitCamera,
    rect: egui::Rect,
    pointer: egui::Pos2,
    radius: f32,
) -> Option<PickedVertex> {
    let matrices = camera.matrices(rect.width() / rect.height().max(1.0));
    let to_viewer = asset.axes.to_viewer;
    let (mut positions, mut normals) = (Vec::new(), Vec::new());
    let mut first_slot = 0;
    let mut best: Option<(f32, f32, PickedVertex)> = None;
    for (m, mesh) in asset.meshes.iter().enumerate() {
        let slots = first_slot..first_slot + mesh.morph_targets.len();
        first_slot = slots.end;
        let mesh_weights = weights.get(slots).unwrap_or_default();
        if palette.is_empty() || mesh.joints.is_empty() {
            crate::anim::apply_morphs(mesh, mesh_weights, &mut positions, &mut normals);
        } else {
            skin_mesh_morphed(mesh, palette, mesh_weights, &mut positions, &mut normals);
        }
        for (v, p) in positions.iter().enumerate() {
            let world = to_viewer.transform_point3(*p);
            let Some((x, y)) = matrices.project(world, rect.width(), rect.height()) else { continue };
            let d = pointer.distance(egui::pos2(rect.left() + x, rect.top() + y));
            if d > radius {
                continue;
            }
            let depth = world.distance(matrices.eye);
            // Nearest to the eye among those under the pointer (a few pixels' slack for the ones behind).
            let better = best.is_none_or(|(bd, bdepth, _)| depth < bdepth - 1e-4 || (depth <= bdepth + 1e-4 && d < bd));
            if better {
                best = Some((d, depth, (m, v as u32)));
            }
        }
    }
    best.map(|(_, _, picked)| picked)
}

/// The inspector's section on the picked vertex.
pub fn show(ui: &mut egui::Ui, asset: &Asset, pose: &Pose, picked: PickedVertex) {
    let (m, v) = picked;
    let Some(mesh) = asset.meshes.get(m) else { return };
    let vi = v as usize;
    let Some(bind) = mesh.positions.get(vi) else { return };
    ui.horizontal(|ui| {
        ui.heading(format!("Vertex {v}"));
        ui.weak(format!("of mesh '{}' (Alt+click another; Esc clears)", mesh.name));
    });
    let weights_slots = {
        let first: usize = asset.meshes[..m].iter().map(|x| x.morph_targets.len()).sum();
        first..first + mesh.morph_targets.len()
    };
    let morph_weights = pose.morph_weights.get(weights_slots).unwrap_or_default();
    let (mut now, mut normals) = (Vec::new(), Vec::new());
    if pose.palette.is_empty() || mesh.joints.is_empty() {
        crate::anim::apply_morphs(mesh, morph_weights, &mut now, &mut normals);
    } else {
        skin_mesh_morphed(mesh, &pose.palette, morph_weights, &mut now, &mut normals);
    }
    let vec3 = |p: Vec3| format!("({:.4}, {:.4}, {:.4})", p.x, p.y, p.z);
    egui::Grid::new("vertex facts").num_columns(2).striped(true).show(ui, |ui| {
        ui.label("bind position");
        ui.monospace(vec3(*bind));
        ui.end_row();
        ui.label("drawn at");
        ui.monospace(now.get(vi).map_or_else(|| "?".to_owned(), |p| vec3(*p)));
        ui.end_row();
        if let (Some(joints), Some(weights)) = (mesh.joints.get(vi), mesh.weights.get(vi)) {
            ui.label("weights");
            ui.vertical(|ui| {
                for (j, w) in joints.iter().zip(weights).filter(|(_, w)| **w > 0.0) {
                    let name = asset.skeleton.names.get(usize::from(*j)).map_or("?", String::as_str);
                    ui.label(format!("{w:.3}  {name}"));
                }
            });
            ui.end_row();
        }
    });
    let deltas: Vec<(&str, Vec3, f32)> = mesh
        .morph_targets
        .iter()
        .enumerate()
        .filter_map(|(t, target)| {
            let k = target.vertices.iter().position(|&x| x == v)?;
            let delta = *target.position_deltas.get(k)?;
            Some((target.name.as_str(), delta, morph_weights.get(t).copied().unwrap_or(0.0)))
        })
        .collect();
    if mesh.morph_targets.is_empty() {
        return;
    }
    ui.add_space(4.0);
    ui.strong(format!("Morph deltas ({} of {} targets move it)", deltas.len(), mesh.morph_targets.len()));
    egui::Grid::new("vertex morphs").num_columns(4).striped(true).show(ui, |ui| {
        ui.weak("target");
        ui.weak("delta");
        ui.weak("length");
        ui.weak("weight now");
        ui.end_row();
        for (name, delta, weight) in deltas {
            ui.label(name);
            ui.monospace(vec3(delta));
            ui.monospace(format!("{:.4}", delta.length()));
            ui.monospace(format!("{weight:.2}"));
            ui.end_row();
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Mesh;

    #[test]
    fn the_vertex_under_the_pointer_is_picked_and_the_one_in_front_wins() {
        let mut asset = Asset::default();
        // Two vertices on the camera's line of sight (one behind the other) and one off to the side.
        asset.meshes.push(Mesh {
            positions: vec![Vec3::new(0.0, 0.0, 1.0), Vec3::new(0.0, 0.0, -1.0), Vec3::new(3.0, 0.0, 0.0)],
            ..Mesh::default()
        });
        let camera = OrbitCamera { yaw: 0.0, pitch: 0.0, distance: 10.0, ..OrbitCamera::default() };
        let rect = egui::Rect::from_min_size(egui::pos2(0.0, 0.0), egui::vec2(400.0, 400.0));
        let centre = rect.center();
        assert_eq!(pick(&asset, &[], &[], &camera, rect, centre, 6.0), Some((0, 0)), "the front one");
        assert_eq!(pick(&asset, &[], &[], &camera, rect, egui::pos2(5.0, 5.0), 6.0), None);
    }
}
