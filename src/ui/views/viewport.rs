//! The central 3D viewport: camera input (orbit, pan, zoom with mouse and touchpad), joint picking, a small
//! toolbar (shading, overlays, views), the status line, and drawing.
//!
//! Drawing has two paths. With the wgpu renderer available the mesh is drawn by a paint callback (see
//! `app.rs`); otherwise this module draws everything with the egui painter: the CPU-skinned mesh as
//! depth-sorted, smooth-lit triangles (or wireframe / weight / normal colours), the skeleton, joint axes,
//! bone names, ground grid, bounds and the axis gizmo. Overlays that need text (names, gizmo labels, status)
//! always use the painter. Input only produces [`Command`]s; the camera itself is changed by the app.
//!
//! Why the painter path is kept: it draws when eframe runs without wgpu, and on demand (View › Draw with the egui
//! painter) to compare with the renderer. It skins on the CPU with the same maths as the GPU (`anim::skin_mesh`),
//! coloured by the same ramps (`render::ramps`) and stretch measure (`anim::edges`). Devices without storage
//! buffers in the vertex stage (WebGL2, GL adapters) no longer need it: the renderer's data-texture palette path
//! (`render::palette_path`) draws there.

use eframe::egui;
use egui::{Color32, Pos2, Rect, Sense, Shape, Stroke, Vec2, epaint};
use glam::{Mat3, Mat4, Vec3, Vec4};

use crate::anim::edges::{STRETCH_COLOUR_RANGE, unique_edges, vertex_stretch};
use crate::anim::recording::RecordingPose;
use crate::anim::{Pose, apply_morphs, bounds_of_placed, skin_mesh, skin_mesh_morphed, skin_vertex};
use crate::render::camera::{OrbitCamera, ViewPreset};
use crate::render::ramps;
use crate::render::ramps::BoneColors;
use crate::scene::{Bounds, Hand};

use crate::render::ShadingMode;
use crate::ui::commands::command::Command;
use crate::ui::state::diagnostics::Highlight;
use crate::ui::state::document::Document;
use crate::ui::state::settings::{Overlay, UiState};
use crate::ui::views::legend::rgb;

/// Buffers reused from frame to frame (skinned vertices, projected points, triangle order).
#[derive(Default)]
pub struct ViewportCache {
    pub skinned_positions: Vec<Vec<Vec3>>,
    pub skinned_normals: Vec<Vec<Vec3>>,
    projected: Vec<Option<(Pos2, f32)>>,
    order: Vec<(f32, u32)>,
    tri_material: Vec<u32>,
    /// Bounds of the current (animated) pose in the viewer frame.
    pub pose_bounds: Option<Bounds>,
    /// The bind-pose ghost of the painter path: each mesh skinned with the bind palette, in the viewer frame, for
    /// the document generation it was made for (the bind pose does not change while a document is open).
    ghost: Option<(u64, Vec<Vec<Vec3>>)>,
    ghost_projected: Vec<Option<Pos2>>,
    /// Vertices each bone dominates (the dominant-bone legend) and the bones' colours, for the document
    /// generation they were made for.
    dominant: Option<(u64, Vec<usize>, BoneColors)>,
    /// Each mesh's unique edges for the stretch view, for the document generation they were made for.
    edges: Option<(u64, Vec<Vec<[u32; 2]>>)>,
}

/// What the status line shows.
#[derive(Clone, Debug, Default)]
pub struct StatusInfo {
    pub fps: f32,
    /// Clip frames skipped so far because the window drew slower than the clip plays.
    pub skipped_frames: u64,
    pub triangles: usize,
    pub vertices: usize,
    pub bones: usize,
    pub adapter: String,
    /// "wgpu" or "painter".
    pub renderer: &'static str,
    /// The clip on the first track and where in it playback is: "walk 0.40 / 1.20 s".
    pub clip: Option<String>,
    /// Which axis of the file is up, when it is not the format's convention: "up: file +Y (from its bones;
    /// --up or View › Up axis to change)".
    pub up: Option<String>,
}

impl StatusInfo {
    /// The status line's text (`selected`: the selected bone's name).
    pub fn text(&self, selected: Option<&str>) -> String {
        let s = self;
        let mut parts = vec![
            if s.skipped_frames > 0 {
                format!("{:.0} fps ({} clip frames skipped)", s.fps, group(s.skipped_frames as usize))
            } else {
                format!("{:.0} fps", s.fps)
            },
            format!("{} triangles", group(s.triangles)),
            format!("{} vertices", group(s.vertices)),
            format!("{} bone{}", s.bones, if s.bones == 1 { "" } else { "s" }),
        ];
        if let Some(up) = &s.up {
            parts.push(up.clone());
        }
        if let Some(clip) = &s.clip {
            parts.push(format!("clip: {clip}"));
        }
        if let Some(sel) = selected {
            parts.push(format!("selected: {sel}"));
        }
        parts.push(format!("{} ({})", if s.adapter.is_empty() { "no GPU adapter" } else { &s.adapter }, s.renderer));
        parts.join("   ·   ")
    }
}

/// Everything the viewport reads.
pub struct ViewInput<'a> {
    pub doc: &'a Document,
    pub pose: &'a Pose,
    /// The skinning palette to draw with (the pose's, or the selected bone's matrix for every bone).
    pub palette: &'a [Mat4],
    /// Vertices a diagnostics finding points at.
    pub highlight: Option<&'a Highlight>,
    /// Label the joint under the pointer (off for automated screenshots: the pointer is wherever it was left).
    pub hover_labels: bool,
    pub state: &'a UiState,
    pub camera: &'a OrbitCamera,
    pub selected: Option<usize>,
    /// Input recordings evaluated at the current time (hands, gaze, head camera).
    pub recordings: &'a [RecordingPose],
    pub status: &'a StatusInfo,
    /// The model on the GPU when the renderer draws the mesh and its overlays; the painter then only adds
    /// text, recordings and the gizmo.
    pub gpu_model: Option<crate::render::ModelId>,
    /// Meshes not drawn: body-group choices not shown.
    pub hidden_meshes: &'a [usize],
    /// The skin family's material remap (empty: none).
    pub material_remap: &'a [usize],
}

pub fn background(visuals: &egui::Visuals) -> Color32 {
    if visuals.dark_mode { Color32::from_rgb(34, 36, 41) } else { Color32::from_rgb(218, 222, 228) }
}

/// Lays out the viewport in the remaining space, reads its input, draws it. Returns the viewport rectangle.
pub fn show(ui: &mut egui::Ui, input: &ViewInput, cache: &mut ViewportCache, cmds: &mut Vec<Command>) -> Rect {
    let rect = ui.available_rect_before_wrap();
    let response = ui.allocate_rect(rect, Sense::click_and_drag());
    let painter = ui.painter_at(rect);
    let gpu = input.gpu_model.is_some();
    if !gpu {
        // On the GPU path the renderer fills the background itself (see `render::backdrop`).
        painter.rect_filled(rect, 0.0, background(ui.visuals()));
    }
    if !gpu || input.state.overlays.bounds {
        skin(input, cache);
    } else {
        cache.pose_bounds = None;
    }
    if input.state.shading == ShadingMode::DominantBone
        && cache.dominant.as_ref().is_none_or(|(g, _, _)| *g != input.doc.generation)
    {
        let asset = &input.doc.asset;
        let counts = crate::ui::views::legend::dominant_counts(asset);
        cache.dominant = Some((input.doc.generation, counts, BoneColors::of(asset)));
    }
    // Recordings (hands, head) count for the grid, the box and framing.
    let rec = recording_bounds(input);
    if !rec.is_empty() {
        let mut b = cache.pose_bounds.unwrap_or(Bounds::EMPTY);
        b.add(rec.min);
        b.add(rec.max);
        cache.pose_bounds = Some(b);
    }
    // Made once per frame, for whichever paths draw them.
    let script_shapes = input.state.overlays.script_shapes.then(|| {
        crate::ui::views::model_script_shapes::script_shapes(
            &input.doc.asset,
            &input.pose.to_root,
            input.doc.bind_bounds.sizing_radius(),
        )
    });
    let morph_range = if input.state.shading == ShadingMode::MorphDisplacement {
        crate::ui::state::morph_overrides::displacement_range(&input.doc.asset, &input.pose.morph_weights)
    } else {
        1.0
    };
    if let Some(model) = input.gpu_model {
        let ppp = ui.ctx().pixels_per_point();
        let size = [(rect.width() * ppp).round().max(1.0) as u32, (rect.height() * ppp).round().max(1.0) as u32];
        let scene = crate::ui::views::gpu::SceneInput {
            doc: input.doc,
            to_root: &input.pose.to_root,
            palette: input.palette,
            morph_weights: &input.pose.morph_weights,
            recordings: input.recordings,
            hidden_meshes: input.hidden_meshes,
            material_remap: input.material_remap,
            script_shapes: script_shapes.as_ref(),
            morph_range,
            state: input.state,
            camera: input.camera,
            selected: input.selected,
            bounds: cache.pose_bounds,
            dark: ui.visuals().dark_mode,
            background: background(ui.visuals()).to_array(),
        };
        crate::ui::views::gpu::paint(&painter, rect, crate::ui::views::gpu::frame_data(model, &scene, size));
    }
    let aspect = rect.width() / rect.height().max(1.0);
    let view_proj = input.camera.view_projection(aspect);
    let joints = joint_positions(input);
    let projected_joints: Vec<Option<(Pos2, f32)>> = joints.iter().map(|p| project(&view_proj, rect, *p)).collect();

    handle_input(ui, &response, rect, input, &projected_joints, cmds);

    let dark = ui.visuals().dark_mode;
    if !gpu {
        if input.state.overlays.grid {
            draw_grid(&painter, &view_proj, rect, input, dark);
        }
        if input.state.overlays.bind_ghost {
            draw_bind_ghost(&painter, &view_proj, rect, input, cache);
        }
        if input.state.overlays.mesh {
            draw_mesh(&painter, &view_proj, rect, input, cache, dark, morph_range);
        }
        if input.state.overlays.bounds
            && let Some(b) = cache.pose_bounds
        {
            draw_box(&painter, &view_proj, rect, b, Stroke::new(1.0, Color32::from_rgb(200, 170, 60)));
        }
        if input.state.overlays.joint_axes {
            draw_joint_axes(&painter, &view_proj, rect, input, &joints);
        }
        if input.state.overlays.skeleton {
            draw_skeleton(&painter, input, &projected_joints, dark);
        }
    }
    if let Some(shapes) = &script_shapes {
        draw_script_shapes(&painter, &view_proj, rect, shapes, !gpu);
    }
    if !gpu {
        draw_recordings(&painter, &view_proj, rect, input);
    }
    if let Some(h) = input.highlight {
        draw_highlight(&painter, &view_proj, rect, input, h);
    }
    draw_names(&painter, input, &projected_joints, dark);
    if input.state.overlays.world_axes {
        draw_gizmo(&painter, rect, input.camera);
    }
    if input.hover_labels {
        hover_label(ui, &response, input, &projected_joints);
    }
    toolbar(ui, rect, input, cmds);
    let status_height = status_line(ui, rect, input);
    let no_colors = BoneColors::default();
    let (dominant, bone_colors) =
        cache.dominant.as_ref().map_or((&[][..], &no_colors), |(_, counts, colors)| (counts.as_slice(), colors));
    let corner = Pos2::new(rect.left() + 8.0, rect.bottom() - status_height - 8.0);
    let legend = crate::ui::views::legend::LegendInput {
        shading: input.state.shading,
        asset: &input.doc.asset,
        selected: input.selected,
        dominant,
        bone_colors,
        morph_range,
    };
    crate::ui::views::legend::draw(ui, corner, &legend);
    rect
}

/// Skins every mesh on the CPU with the current palette (painter path, and bounds for framing).
fn skin(input: &ViewInput, cache: &mut ViewportCache) {
    let asset = &input.doc.asset;
    cache.skinned_positions.resize_with(asset.meshes.len(), Vec::new);
    cache.skinned_normals.resize_with(asset.meshes.len(), Vec::new);
    // Morph weights are one slot per target, meshes back to back (the controller's layout).
    let mut first_slot = 0;
    for (i, mesh) in asset.meshes.iter().enumerate() {
        let slots = first_slot..first_slot + mesh.morph_targets.len();
        first_slot = slots.end;
        let weights = input.pose.morph_weights.get(slots).unwrap_or_default();
        let morphed = weights.iter().any(|w| *w != 0.0);
        let (positions, normals) = (&mut cache.skinned_positions[i], &mut cache.skinned_normals[i]);
        if input.palette.is_empty() || mesh.joints.is_empty() {
            if morphed {
                apply_morphs(mesh, weights, positions, normals);
            } else {
                positions.clone_from(&mesh.positions);
                normals.clone_from(&mesh.normals);
            }
        } else if morphed {
            skin_mesh_morphed(mesh, input.palette, weights, positions, normals);
        } else {
            skin_mesh(mesh, input.palette, positions, normals);
        }
    }
    let placed = cache.skinned_positions.iter().map(Vec::as_slice);
    cache.pose_bounds = Some(bounds_of_placed(asset, &input.pose.to_root, placed));
}

/// Joint origins in the viewer frame.
fn joint_positions(input: &ViewInput) -> Vec<Vec3> {
    let m = input.doc.asset.axes.to_viewer;
    input.pose.to_root.iter().map(|t| m.transform_point3(t.w_axis.truncate())).collect()
}

fn project(view_proj: &Mat4, rect: Rect, p: Vec3) -> Option<(Pos2, f32)> {
    let c = *view_proj * p.extend(1.0);
    if c.w <= 1e-6 {
        return None;
    }
    let n = c.truncate() / c.w;
    Some((
        Pos2::new(rect.left() + (n.x * 0.5 + 0.5) * rect.width(), rect.top() + (0.5 - n.y * 0.5) * rect.height()),
        n.z,
    ))
}

/// Projects a segment, clipped against the near side of the camera.
fn project_segment(view_proj: &Mat4, rect: Rect, a: Vec3, b: Vec3) -> Option<[Pos2; 2]> {
    const EPS: f32 = 1e-4;
    let mut ca = *view_proj * a.extend(1.0);
    let mut cb = *view_proj * b.extend(1.0);
    if ca.w <= EPS && cb.w <= EPS {
        return None;
    }
    let lerp = |p: Vec4, q: Vec4| {
        let t = (EPS - p.w) / (q.w - p.w);
        p + (q - p) * t
    };
    if ca.w <= EPS {
        ca = lerp(ca, cb);
    } else if cb.w <= EPS {
        cb = lerp(cb, ca);
    }
    let to_screen = |c: Vec4| {
        let n = c.truncate() / c.w;
        Pos2::new(rect.left() + (n.x * 0.5 + 0.5) * rect.width(), rect.top() + (0.5 - n.y * 0.5) * rect.height())
    };
    Some([to_screen(ca), to_screen(cb)])
}

fn nearest_joint(projected: &[Option<(Pos2, f32)>], pos: Pos2, radius: f32) -> Option<usize> {
    projected
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.map(|(q, _)| (i, q.distance(pos))))
        .filter(|(_, d)| *d <= radius)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

fn handle_input(
    ui: &egui::Ui,
    response: &egui::Response,
    rect: Rect,
    input: &ViewInput,
    projected_joints: &[Option<(Pos2, f32)>],
    cmds: &mut Vec<Command>,
) {
    let modifiers = ui.input(|i| i.modifiers);
    if response.dragged_by(egui::PointerButton::Primary) {
        let d = response.drag_delta();
        if modifiers.shift {
            cmds.push(Command::Pan { dx: d.x, dy: d.y, height: rect.height() });
        } else if modifiers.command || modifiers.ctrl {
            cmds.push(Command::Zoom((d.y * 0.01).exp()));
        } else {
            cmds.push(Command::Orbit { dx: d.x, dy: d.y });
        }
    }
    if response.dragged_by(egui::PointerButton::Secondary) || response.dragged_by(egui::PointerButton::Middle) {
        let d = response.drag_delta();
        cmds.push(Command::Pan { dx: d.x, dy: d.y, height: rect.height() });
    }
    if response.hovered() {
        let (scroll, zoom, source) = ui.input(|i| (i.smooth_scroll_delta(), i.zoom_delta(), i.scroll_source()));
        let trackpad =
            matches!(source, Some(egui::MouseWheelSource::Trackpad) | Some(egui::MouseWheelSource::Momentum));
        if trackpad && scroll != Vec2::ZERO {
            // Two fingers on a trackpad: orbit (pan with Shift), like most DCC tools on laptops.
            if modifiers.shift {
                cmds.push(Command::Pan { dx: scroll.x, dy: scroll.y, height: rect.height() });
            } else {
                cmds.push(Command::Orbit { dx: -scroll.x, dy: -scroll.y });
            }
        } else if scroll.y != 0.0 {
            cmds.push(Command::Zoom((-scroll.y * 0.002).exp()));
        }
        if zoom != 1.0 && zoom.is_finite() && zoom > 0.0 {
            cmds.push(Command::Zoom(1.0 / zoom));
        }
    }
    let alt = ui.input(|i| i.modifiers.alt);
    if response.clicked()
        && alt
        && let Some(pos) = response.interact_pointer_pos()
    {
        // Alt+click picks the vertex under the pointer (the inspector shows its weights and morph deltas).
        let picked = crate::ui::views::vertex_pick::pick(
            &input.doc.asset,
            input.palette,
            &input.pose.morph_weights,
            input.camera,
            rect,
            pos,
            10.0,
        );
        cmds.push(Command::PickVertex(picked));
    } else if response.clicked()
        && let Some(pos) = response.interact_pointer_pos()
        && let Some(bone) = nearest_joint(projected_joints, pos, 12.0)
    {
        cmds.push(Command::SelectBone(Some(bone)));
    }
    if response.double_clicked() && input.selected.is_some() {
        cmds.push(Command::FrameSelected);
    }
}

fn material_color(input: &ViewInput, material: u32) -> [f32; 3] {
    input
        .doc
        .asset
        .materials
        .get(material as usize)
        .map_or([0.75, 0.75, 0.75], |m| [m.diffuse[0], m.diffuse[1], m.diffuse[2]])
}

fn shade(rgb: [f32; 3], lambert: f32) -> Color32 {
    let k = 0.28 + 0.72 * lambert;
    let f = |c: f32| ((c * k).clamp(0.0, 1.0) * 255.0) as u8;
    Color32::from_rgb(f(rgb[0]), f(rgb[1]), f(rgb[2]))
}

fn draw_mesh(
    painter: &egui::Painter,
    view_proj: &Mat4,
    rect: Rect,
    input: &ViewInput,
    cache: &mut ViewportCache,
    dark: bool,
    morph_range: f32,
) {
    let asset = &input.doc.asset;
    let to_viewer = asset.axes.to_viewer;
    let normal_matrix = Mat3::from_mat4(to_viewer).inverse().transpose();
    let cam = input.camera.camera_to_world();
    // A headlight from above-left of the camera, so the silhouette side stays readable.
    let light = (Mat3::from_mat4(cam) * Vec3::new(-0.35, 0.55, 1.0)).normalize();
    let shading = input.state.shading;
    let mut out = epaint::Mesh::default();
    let mut wire = epaint::Mesh::default();
    let wire_color = if dark {
        Color32::from_rgba_unmultiplied(10, 10, 14, 170)
    } else {
        Color32::from_rgba_unmultiplied(20, 20, 30, 130)
    };
    let selected = input.selected.map(|s| s as u16);
    let bone_colors = cache.dominant.as_ref().map(|(_, _, c)| c.clone()).unwrap_or_default();
    let mut ratios = Vec::new();
    let layout =
        (shading == ShadingMode::MorphDisplacement).then(|| crate::anim::MorphLayout::of_meshes(&asset.meshes));
    if shading == ShadingMode::Stretch && cache.edges.as_ref().is_none_or(|(g, _)| *g != input.doc.generation) {
        let edges = asset.meshes.iter().map(|m| unique_edges(&m.indices, m.positions.len())).collect();
        cache.edges = Some((input.doc.generation, edges));
    }

    for (mi, mesh) in asset.meshes.iter().enumerate() {
        if input.hidden_meshes.contains(&mi) {
            continue;
        }
        let (Some(pos), Some(nrm)) = (cache.skinned_positions.get(mi), cache.skinned_normals.get(mi)) else {
            continue;
        };
        if shading == ShadingMode::Stretch
            && let Some(edges) = cache.edges.as_ref().and_then(|(_, e)| e.get(mi))
        {
            vertex_stretch(&mesh.positions, pos, edges, &mut ratios);
        }
        if let Some(layout) = &layout {
            // The same measure as the GPU's: how far the active targets move each vertex before skinning.
            let weights = input.pose.morph_weights.get(layout.mesh_range(mi)).unwrap_or_default();
            let (mut morphed, mut morphed_normals) = (Vec::new(), Vec::new());
            apply_morphs(mesh, weights, &mut morphed, &mut morphed_normals);
            ratios.clear();
            ratios.extend(morphed.iter().zip(&mesh.positions).map(|(m, p)| m.distance(*p) / morph_range));
        }
        cache.projected.clear();
        cache.projected.extend(pos.iter().map(|p| project(view_proj, rect, to_viewer.transform_point3(*p))));
        let tri_count = mesh.indices.len() / 3;
        cache.tri_material.clear();
        cache.tri_material.resize(tri_count, u32::MAX);
        for s in &mesh.subsets {
            let first = s.first_index as usize / 3;
            let count = s.index_count as usize / 3;
            for t in cache.tri_material.iter_mut().skip(first).take(count) {
                *t = s.material as u32;
            }
        }
        cache.order.clear();
        for t in 0..tri_count {
            let mut depth = 0.0;
            let mut visible = true;
            for k in 0..3 {
                match mesh.indices.get(3 * t + k).and_then(|&i| cache.projected.get(i as usize).copied().flatten()) {
                    Some((_, z)) => depth += z,
                    None => visible = false,
                }
            }
            if visible {
                cache.order.push((depth, t as u32));
            }
        }
        // Far to near: the painter's algorithm stands in for a depth buffer.
        cache.order.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
        for &(_, t) in &cache.order {
            let t = t as usize;
            let idx =
                [mesh.indices[3 * t] as usize, mesh.indices[3 * t + 1] as usize, mesh.indices[3 * t + 2] as usize];
            let (Some((a, _)), Some((b, _)), Some((c, _))) =
                (cache.projected[idx[0]], cache.projected[idx[1]], cache.projected[idx[2]])
            else {
                continue;
            };
            let world = idx.map(|i| to_viewer.transform_point3(pos[i]));
            let face_n = (world[1] - world[0]).cross(world[2] - world[0]).normalize_or_zero();
            let material = material_color(input, cache.tri_material[t]);
            let base = out.vertices.len() as u32;
            for (k, &i) in idx.iter().enumerate() {
                let n = nrm.get(i).map(|n| (normal_matrix * *n).normalize_or_zero()).unwrap_or(face_n);
                let n = if n == Vec3::ZERO { face_n } else { n };
                // Two-sided lighting: back faces of open meshes stay visible.
                let lambert = n.dot(light).abs();
                let color = match shading {
                    ShadingMode::Textured | ShadingMode::Solid => shade(material, lambert),
                    ShadingMode::Normals => {
                        let c = n * 0.5 + Vec3::splat(0.5);
                        rgb([c.x, c.y, c.z])
                    }
                    ShadingMode::BoneWeight => {
                        let w = selected.map_or(0.0, |s| {
                            let j = mesh.joints.get(i).copied().unwrap_or_default();
                            let ws = mesh.weights.get(i).copied().unwrap_or_default();
                            (0..4).filter(|&q| j[q] == s).map(|q| ws[q]).sum::<f32>()
                        });
                        shade(ramps::heat(w), ramps::analysis_light(lambert))
                    }
                    ShadingMode::DominantBone => {
                        let j = mesh.joints.get(i).copied().unwrap_or_default();
                        let ws = mesh.weights.get(i).copied().unwrap_or_default();
                        let bone = usize::from(ramps::dominant(j, ws));
                        shade(bone_colors.get(bone), ramps::analysis_light(lambert))
                    }
                    ShadingMode::Stretch => shade(
                        ramps::stretch_color(ratios.get(i).copied().unwrap_or(1.0), STRETCH_COLOUR_RANGE),
                        ramps::analysis_light(lambert),
                    ),
                    ShadingMode::MorphDisplacement => {
                        shade(ramps::heat(ratios.get(i).copied().unwrap_or(0.0)), ramps::analysis_light(lambert))
                    }
                    ShadingMode::VertexColor => {
                        let [r, g, b, _] = mesh.colors.get(i).copied().unwrap_or([255; 4]);
                        shade([r, g, b].map(|v| f32::from(v) / 255.0), lambert)
                    }
                };
                out.colored_vertex([a, b, c][k], color);
            }
            out.add_triangle(base, base + 1, base + 2);
            if input.state.overlays.wireframe {
                for (p, q) in [(a, b), (b, c), (c, a)] {
                    add_line_quad(&mut wire, p, q, 0.7, wire_color);
                }
            }
        }
    }
    painter.add(Shape::mesh(out));
    if !wire.is_empty() {
        painter.add(Shape::mesh(wire));
    }
}

/// A line as a thin quad in a shared mesh: thousands of edges become one shape.
fn add_line_quad(mesh: &mut epaint::Mesh, a: Pos2, b: Pos2, width: f32, color: Color32) {
    let d = b - a;
    let len = d.length();
    if len < 1e-3 {
        return;
    }
    let n = Vec2::new(-d.y, d.x) / len * (width * 0.5);
    let base = mesh.vertices.len() as u32;
    mesh.colored_vertex(a + n, color);
    mesh.colored_vertex(a - n, color);
    mesh.colored_vertex(b - n, color);
    mesh.colored_vertex(b + n, color);
    mesh.add_triangle(base, base + 1, base + 2);
    mesh.add_triangle(base, base + 2, base + 3);
}

fn draw_grid(painter: &egui::Painter, view_proj: &Mat4, rect: Rect, input: &ViewInput, dark: bool) {
    let radius = input.doc.bind_bounds.sizing_radius();
    let step = 10f32.powf((radius * 0.5).log10().floor()).max(1e-4);
    let lines = 24;
    let half = lines as f32 * step * 0.5;
    let center = input.doc.bind_bounds.center();
    let cx = (center.x / step).round() * step;
    let cz = (center.z / step).round() * step;
    let y = if input.doc.bind_bounds.is_empty() { 0.0 } else { input.doc.bind_bounds.min.y.min(0.0) };
    let minor = if dark { Color32::from_gray(58) } else { Color32::from_gray(190) };
    let mut mesh = epaint::Mesh::default();
    for i in 0..=lines {
        let o = -half + i as f32 * step;
        let x = cx + o;
        let z = cz + o;
        let seg = [
            (
                Vec3::new(x, y, cz - half),
                Vec3::new(x, y, cz + half),
                x.abs() < step * 0.01,
                Color32::from_rgb(60, 90, 200),
            ),
            (
                Vec3::new(cx - half, y, z),
                Vec3::new(cx + half, y, z),
                z.abs() < step * 0.01,
                Color32::from_rgb(200, 60, 60),
            ),
        ];
        for (a, b, is_axis, axis_color) in seg {
            if let Some([p, q]) = project_segment(view_proj, rect, a, b) {
                let (w, c) = if is_axis && y == 0.0 { (1.4, axis_color) } else { (1.0, minor) };
                add_line_quad(&mut mesh, p, q, w, c);
            }
        }
    }
    painter.add(Shape::mesh(mesh));
}

/// The model script's hitboxes, attachments and boxes: the lines where the GPU does not draw them (`lines`),
/// and the attachments' names either way (text is the painter's).
fn draw_script_shapes(
    painter: &egui::Painter,
    view_proj: &Mat4,
    rect: Rect,
    shapes: &crate::ui::views::model_script_shapes::ScriptShapes,
    lines: bool,
) {
    let color = |c: [u8; 4]| Color32::from_rgba_unmultiplied(c[0], c[1], c[2], c[3]);
    if lines {
        for (a, b, c) in &shapes.segments {
            if let Some(s) = project_segment(view_proj, rect, *a, *b) {
                painter.line_segment(s, Stroke::new(1.2, color(*c)));
            }
        }
    }
    for marker in &shapes.markers {
        if let Some((p, _)) = project(view_proj, rect, marker.position) {
            painter.text(
                p + Vec2::new(6.0, -6.0),
                egui::Align2::LEFT_BOTTOM,
                &marker.label,
                egui::FontId::proportional(11.0),
                color(marker.color),
            );
        }
    }
}

fn draw_box(painter: &egui::Painter, view_proj: &Mat4, rect: Rect, b: Bounds, stroke: Stroke) {
    if b.is_empty() {
        return;
    }
    let c = b.corners();
    for (i, j) in Bounds::EDGES {
        if let Some(s) = project_segment(view_proj, rect, c[i], c[j]) {
            painter.line_segment(s, stroke);
        }
    }
}

/// X, Y, Z in red, green, blue.
const AXIS_COLORS: [Color32; 3] =
    [Color32::from_rgb(230, 70, 70), Color32::from_rgb(70, 200, 70), Color32::from_rgb(80, 120, 240)];

fn draw_joint_axes(painter: &egui::Painter, view_proj: &Mat4, rect: Rect, input: &ViewInput, joints: &[Vec3]) {
    let m = input.doc.asset.axes.to_viewer;
    let len = input.doc.bind_bounds.sizing_radius() * 0.05;
    for (i, t) in input.pose.to_root.iter().enumerate() {
        let Some(&o) = joints.get(i) else { continue };
        for (axis, color) in [t.x_axis, t.y_axis, t.z_axis].into_iter().zip(AXIS_COLORS) {
            let d = m.transform_vector3(axis.truncate()).normalize_or_zero() * len;
            if let Some(s) = project_segment(view_proj, rect, o, o + d) {
                painter.line_segment(s, Stroke::new(1.5, color));
            }
        }
    }
}

const SELECTED: Color32 = Color32::from_rgb(255, 150, 30);

/// Edges the painter draws for the bind-pose ghost at most: beyond this the ghost is thinned evenly (the
/// painter path is the fallback; the GPU path draws every edge).
const GHOST_EDGE_LIMIT: usize = 60_000;

/// The mesh skinned with the bind-pose palette as faint edges, and the bind skeleton, behind the animated mesh.
fn draw_bind_ghost(
    painter: &egui::Painter,
    view_proj: &Mat4,
    rect: Rect,
    input: &ViewInput,
    cache: &mut ViewportCache,
) {
    let doc = input.doc;
    let m = doc.asset.axes.to_viewer;
    if cache.ghost.as_ref().is_none_or(|(g, _)| *g != doc.generation) {
        let meshes = doc
            .asset
            .meshes
            .iter()
            .map(|mesh| {
                (0..mesh.positions.len())
                    .filter_map(|i| skinned_position(mesh, &doc.bind_palette, i))
                    .map(|p| m.transform_point3(p))
                    .collect()
            })
            .collect();
        cache.ghost = Some((doc.generation, meshes));
    }
    let Some((_, ghost)) = &cache.ghost else { return };
    let color = Color32::from_rgba_unmultiplied(120, 140, 190, 70);
    let mut shape = epaint::Mesh::default();
    let total_edges: usize = doc.asset.meshes.iter().map(|mesh| mesh.indices.len()).sum();
    let stride = total_edges.div_ceil(GHOST_EDGE_LIMIT).max(1);
    for (mesh, positions) in doc.asset.meshes.iter().zip(ghost) {
        let bind = &mut cache.ghost_projected;
        bind.clear();
        bind.extend(positions.iter().map(|p| project(view_proj, rect, *p).map(|(q, _)| q)));
        for tri in mesh.indices.chunks_exact(3).step_by(stride) {
            for (a, b) in [(tri[0], tri[1]), (tri[1], tri[2]), (tri[2], tri[0])] {
                if let (Some(Some(p)), Some(Some(q))) = (bind.get(a as usize), bind.get(b as usize)) {
                    add_line_quad(&mut shape, *p, *q, 0.8, color);
                }
            }
        }
    }
    for (i, parent) in doc.asset.skeleton.parents.iter().enumerate() {
        let (Some(p), Some(c)) = (parent.and_then(|p| doc.bind_to_root.get(p)), doc.bind_to_root.get(i)) else {
            continue;
        };
        let (a, b) = (m.transform_point3(p.w_axis.truncate()), m.transform_point3(c.w_axis.truncate()));
        if let Some([p, q]) = project_segment(view_proj, rect, a, b) {
            add_line_quad(&mut shape, p, q, 1.6, Color32::from_rgba_unmultiplied(150, 165, 200, 110));
        }
    }
    painter.add(Shape::mesh(shape));
}

/// One vertex skinned with `palette` (its file position when the mesh has no weights or the palette is empty).
fn skinned_position(mesh: &crate::scene::Mesh, palette: &[Mat4], i: usize) -> Option<Vec3> {
    let p = *mesh.positions.get(i)?;
    match (mesh.joints.get(i), mesh.weights.get(i)) {
        (Some(j), Some(w)) if !palette.is_empty() => Some(skin_vertex(palette, *j, *w, p, Vec3::Y).0),
        _ => Some(p),
    }
}

/// The vertices of a diagnostics finding, skinned in the pose on screen: rings, the outline between them, and
/// the finding's kind beside them. Drawn on top so it is found even inside the mesh.
fn draw_highlight(painter: &egui::Painter, view_proj: &Mat4, rect: Rect, input: &ViewInput, h: &Highlight) {
    let Some(mesh) = input.doc.asset.meshes.get(h.mesh) else { return };
    let m = input.doc.asset.axes.to_viewer;
    let points: Vec<Pos2> = h
        .vertices
        .iter()
        .filter_map(|&v| skinned_position(mesh, input.palette, v as usize))
        .filter_map(|p| project(view_proj, rect, m.transform_point3(p)).map(|(q, _)| q))
        .collect();
    let color = Color32::from_rgb(255, 60, 200);
    let outline = Stroke::new(4.0, Color32::from_black_alpha(170));
    if points.len() >= 2 {
        let mut ring = points.clone();
        if points.len() > 2 {
            ring.push(points[0]);
        }
        painter.add(Shape::line(ring.clone(), outline));
        painter.add(Shape::line(ring, Stroke::new(2.0, color)));
    }
    for p in &points {
        painter.circle_stroke(*p, 7.0, outline);
        painter.circle_stroke(*p, 7.0, Stroke::new(2.0, color));
    }
    if let Some(first) = points.first() {
        let at = *first + Vec2::new(12.0, -16.0);
        let galley = painter.layout_no_wrap(h.label.clone(), egui::FontId::proportional(13.0), Color32::WHITE);
        painter.rect_filled(Rect::from_min_size(at, galley.size()).expand(3.0), 3.0, color.gamma_multiply(0.85));
        painter.galley(at, galley, Color32::WHITE);
    }
}

fn draw_skeleton(painter: &egui::Painter, input: &ViewInput, projected: &[Option<(Pos2, f32)>], dark: bool) {
    let parents = &input.doc.asset.skeleton.parents;
    let bone = if dark { Color32::from_rgb(120, 220, 255) } else { Color32::from_rgb(0, 90, 160) };
    let outline = if dark { Color32::from_black_alpha(160) } else { Color32::from_white_alpha(200) };
    for (i, p) in parents.iter().enumerate() {
        let (Some(Some((a, _))), Some(Some((b, _)))) =
            (p.map(|p| projected.get(p).copied().flatten()), projected.get(i))
        else {
            continue;
        };
        let sel = input.selected == Some(i);
        let color = if sel { SELECTED } else { bone };
        painter.line_segment([a, *b], Stroke::new(4.0, outline));
        painter.line_segment([a, *b], Stroke::new(if sel { 2.5 } else { 1.8 }, color));
    }
    // Joints closer on screen than their markers are wide (a face's) are drawn smaller, as on the GPU path.
    let pixels_per_unit = painter.clip_rect().height() / (2.0 * input.camera.half_height()).max(f32::MIN_POSITIVE);
    let mut sizes = Vec::new();
    crate::render::overlay::joint_marker_sizes(&input.doc.joint_spacing, pixels_per_unit, 6.4, &mut sizes);
    for (i, p) in projected.iter().enumerate() {
        let Some((q, _)) = p else { continue };
        let sel = input.selected == Some(i);
        let radius = if sel { 5.0 } else { sizes.get(i).copied().unwrap_or(6.4) * 0.5 };
        painter.circle(*q, radius, if sel { SELECTED } else { bone }, Stroke::new(1.0, outline));
    }
}

/// Hands (joints and bones; pinching hands brighter), the gaze ray and the head camera of each recording.
fn recording_bounds(input: &ViewInput) -> Bounds {
    let m = input.doc.asset.axes.to_viewer;
    let mut b = Bounds::EMPTY;
    for rec in input.recordings {
        for hand in Hand::BOTH {
            let h = rec.hand(hand);
            if h.present && h.tracked {
                h.joints.iter().filter(|j| j.recorded).for_each(|j| b.add(m.transform_point3(j.position)));
            }
        }
        if let Some(c) = rec.camera {
            b.add(m.transform_point3(c.position));
        }
    }
    b
}

/// Recordings with the painter (the fallback path; the GPU path draws them depth-tested with the mesh).
fn draw_recordings(painter: &egui::Painter, view_proj: &Mat4, rect: Rect, input: &ViewInput) {
    let shapes = crate::ui::views::recording_shapes::recording_shapes(
        input.recordings,
        input.doc.asset.axes.to_viewer,
        input.state.overlays.joint_axes,
    );
    let color = |c: [u8; 4]| Color32::from_rgba_unmultiplied(c[0], c[1], c[2], c[3]);
    for (a, b, c) in &shapes.segments {
        if let Some(s) = project_segment(view_proj, rect, *a, *b) {
            painter.line_segment(s, Stroke::new(1.8, color(*c)));
        }
    }
    for (p, c, size) in &shapes.points {
        if let Some((s, _)) = project(view_proj, rect, *p) {
            painter.circle_filled(s, size * 0.5, color(*c));
        }
    }
}

fn draw_names(painter: &egui::Painter, input: &ViewInput, projected: &[Option<(Pos2, f32)>], dark: bool) {
    let names = &input.doc.asset.skeleton.names;
    let all = input.state.overlays.bone_names;
    let text = if dark { Color32::from_gray(225) } else { Color32::from_gray(20) };
    for (i, p) in projected.iter().enumerate() {
        let sel = input.selected == Some(i);
        if !(all || sel) {
            continue;
        }
        let (Some((q, _)), Some(name)) = (p, names.get(i)) else { continue };
        let font = egui::FontId::proportional(if sel { 14.0 } else { 11.5 });
        let color = if sel { SELECTED } else { text };
        let pos = *q + Vec2::new(7.0, -7.0);
        let galley = painter.layout_no_wrap(name.clone(), font, color);
        let bg =
            Rect::from_min_size(pos - Vec2::new(2.0, galley.size().y * 0.5 + 1.0), galley.size() + Vec2::new(4.0, 2.0));
        painter.rect_filled(
            bg,
            3.0,
            if dark { Color32::from_black_alpha(140) } else { Color32::from_white_alpha(170) },
        );
        painter.galley(pos - Vec2::new(0.0, galley.size().y * 0.5), galley, color);
    }
}

/// The orientation gizmo, in the viewport's top right corner (the legend of the analysis modes takes the bottom
/// left, the toolbar the top left, the status line the bottom).
fn draw_gizmo(painter: &egui::Painter, rect: Rect, camera: &OrbitCamera) {
    let view = Mat3::from_mat4(camera.view());
    let origin = Pos2::new(rect.right() - 46.0, rect.top() + 46.0);
    let mut axes = [
        (Vec3::X, "X", Color32::from_rgb(230, 70, 70)),
        (Vec3::Y, "Y", Color32::from_rgb(70, 200, 70)),
        (Vec3::Z, "Z", Color32::from_rgb(80, 130, 250)),
    ]
    .map(|(v, l, c)| (view * v, l, c));
    // Draw the axis pointing away first so the nearer ones stay on top.
    axes.sort_by(|a, b| a.0.z.total_cmp(&b.0.z));
    painter.circle_filled(origin, 34.0, Color32::from_black_alpha(50));
    for (v, label, color) in axes {
        let tip = origin + Vec2::new(v.x, -v.y) * 26.0;
        painter.line_segment([origin, tip], Stroke::new(2.0, color));
        painter.circle_filled(tip, 7.0, color);
        painter.text(tip, egui::Align2::CENTER_CENTER, label, egui::FontId::proportional(10.0), Color32::BLACK);
    }
}

fn hover_label(ui: &egui::Ui, response: &egui::Response, input: &ViewInput, projected: &[Option<(Pos2, f32)>]) {
    if response.dragged() {
        return;
    }
    let Some(pos) = response.hover_pos() else { return };
    let Some(bone) = nearest_joint(projected, pos, 10.0) else { return };
    let Some(name) = input.doc.asset.skeleton.names.get(bone) else { return };
    let painter = ui.painter();
    let text = format!("{name}  (#{bone}) — click to select");
    let galley = painter.layout_no_wrap(text, egui::FontId::proportional(13.0), ui.visuals().strong_text_color());
    let at = pos + Vec2::new(14.0, 10.0);
    painter.rect_filled(Rect::from_min_size(at, galley.size()).expand(4.0), 4.0, ui.visuals().window_fill());
    painter.galley(at, galley, Color32::WHITE);
    ui.ctx().set_cursor_icon(egui::CursorIcon::PointingHand);
}

fn toolbar(ui: &mut egui::Ui, rect: Rect, input: &ViewInput, cmds: &mut Vec<Command>) {
    let bar = Rect::from_min_size(rect.min + Vec2::new(8.0, 8.0), Vec2::new(rect.width() - 16.0, 28.0));
    let mut child =
        ui.new_child(egui::UiBuilder::new().max_rect(bar).layout(egui::Layout::left_to_right(egui::Align::Center)));
    let ui = &mut child;
    let frame = egui::Frame::popup(ui.style()).inner_margin(egui::Margin::symmetric(6, 3));
    frame.show(ui, |ui| {
        ui.horizontal(|ui| {
            let mut shading = input.state.shading;
            egui::ComboBox::from_id_salt("shading")
                .selected_text(shading.label())
                .width(120.0)
                .show_ui(ui, |ui| {
                    for s in ShadingMode::ALL {
                        ui.selectable_value(&mut shading, s, s.label());
                    }
                })
                .response
                .on_hover_text("Shading mode (Z cycles; W toggles the wireframe)");
            if shading != input.state.shading {
                cmds.push(Command::SetShading(shading));
            }
            if shading == ShadingMode::BoneWeight && input.selected.is_none() {
                ui.colored_label(ui.visuals().warn_fg_color, "select a bone");
            }
            ui.menu_button("Overlays", |ui| {
                for o in Overlay::ALL {
                    let mut on = input.state.overlays.get(o);
                    if ui.checkbox(&mut on, o.label()).changed() {
                        cmds.push(Command::SetOverlay(o, on));
                    }
                }
            });
            ui.separator();
            for (preset, key) in [(ViewPreset::Front, "1"), (ViewPreset::Right, "3"), (ViewPreset::Top, "7")] {
                if ui
                    .small_button(preset.label())
                    .on_hover_text(format!("{} view ({key}): {}", preset.label(), preset.shows()))
                    .clicked()
                {
                    cmds.push(Command::View(preset));
                }
            }
            let proj = if input.camera.orthographic { "Ortho" } else { "Persp" };
            if ui.small_button(proj).on_hover_text("Perspective / orthographic (5)").clicked() {
                cmds.push(Command::ToggleProjection);
            }
            if ui.small_button("Frame").on_hover_text("Frame all (F)").clicked() {
                cmds.push(Command::FrameAll);
            }
        });
    });
}

/// Draws the status line along the viewport's bottom; returns its height.
fn status_line(ui: &mut egui::Ui, rect: Rect, input: &ViewInput) -> f32 {
    let selected = input.selected.and_then(|b| input.doc.asset.skeleton.names.get(b));
    let text = input.status.text(selected.map(String::as_str));
    let painter = ui.painter_at(rect);
    // Wrapped to the viewport's width: a narrow viewport shows the status on two lines rather than cutting it.
    let wrap = (rect.width() - 16.0).max(40.0);
    let galley = painter.layout(text, egui::FontId::proportional(12.5), ui.visuals().text_color(), wrap);
    let strip = Rect::from_min_max(Pos2::new(rect.left(), rect.bottom() - galley.size().y - 8.0), rect.max);
    crate::ui::views::gpu::flat_fill(&painter, strip, ui.visuals().panel_fill);
    painter.galley(Pos2::new(strip.left() + 8.0, strip.top() + 4.0), galley, ui.visuals().text_color());
    strip.height()
}

/// 12345 → "12,345".
pub fn group(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_grouping() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(1000), "1,000");
        assert_eq!(group(1234567), "1,234,567");
    }

    #[test]
    fn segments_behind_the_camera_are_clipped_not_flipped() {
        let mut cam = OrbitCamera::default();
        cam.set_preset(ViewPreset::Front);
        cam.frame_for_orbiting(&Bounds::cube(Vec3::ZERO, 0.5));
        let vp = cam.view_projection(1.0);
        let rect = Rect::from_min_size(Pos2::ZERO, Vec2::splat(100.0));
        // From the target straight back through the eye: the visible part ends at the screen centre.
        let eye = cam.eye();
        let s = project_segment(&vp, rect, Vec3::ZERO, eye + (eye - Vec3::ZERO)).unwrap();
        assert!((s[0].x - 50.0).abs() < 1e-3 && (s[0].y - 50.0).abs() < 1e-3);
        assert!(project_segment(&vp, rect, eye * 2.0, eye * 3.0).is_none());
    }
}
