//! Overlays: per-frame lists of lines, flat triangles and screen-sized points in the viewer frame (skeleton as
//! lines or octahedral bones, joints, per-bone axes, the ground grid, and the primitives the recording view needs:
//! rays, small frustums, spheres, boxes), plus the pipelines that draw them after the models. Lists are built on
//! the CPU each frame ([`Overlay`]); [`OverlayRenderer`] uploads and draws them. Geometry is depth-tested against
//! the models or drawn on top, per primitive.

use glam::{Mat4, Vec3};

use super::gpu::{OverlayPoint, OverlayVertex, overlay_point_layout, overlay_vertex_layout};
use crate::scene::Bounds;

/// sRGB colour with alpha.
pub type Rgba = [u8; 4];

/// Whether a primitive is hidden by the models in front of it or always visible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    Tested,
    OnTop,
}

/// Primitives sharing one depth rule.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OverlayLayer {
    /// Line list: two vertices per segment.
    pub lines: Vec<OverlayVertex>,
    /// Triangle list, counter-clockwise seen from outside (back faces are culled).
    pub triangles: Vec<OverlayVertex>,
    pub points: Vec<OverlayPoint>,
}

impl OverlayLayer {
    fn clear(&mut self) {
        self.lines.clear();
        self.triangles.clear();
        self.points.clear();
    }

    fn is_empty(&self) -> bool {
        self.lines.is_empty() && self.triangles.is_empty() && self.points.is_empty()
    }
}

/// How the skeleton is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BoneStyle {
    /// A line from each joint to its parent.
    #[default]
    Lines,
    /// A flat-shaded octahedron from each parent joint to the child joint, outlined.
    Octahedral,
}

/// Options of [`Overlay::skeleton`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkeletonStyle {
    pub bones: BoneStyle,
    /// Round markers at the joints.
    pub joints: bool,
    /// Red/green/blue axes at every joint, this long (viewer units); 0 for none.
    pub axis_length: f32,
    pub bone_color: Rgba,
    pub joint_color: Rgba,
    /// Bone drawn in `selected_color` (and its joint larger).
    pub selected: Option<usize>,
    pub selected_color: Rgba,
    pub joint_size: f32,
    pub depth: Depth,
}

impl Default for SkeletonStyle {
    fn default() -> Self {
        Self {
            bones: BoneStyle::Lines,
            joints: true,
            axis_length: 0.0,
            bone_color: [235, 225, 170, 255],
            joint_color: [255, 200, 60, 255],
            selected: None,
            selected_color: [90, 220, 255, 255],
            joint_size: 7.0,
            depth: Depth::OnTop,
        }
    }
}

pub const RED: Rgba = [230, 60, 50, 255];
pub const GREEN: Rgba = [70, 200, 70, 255];
pub const BLUE: Rgba = [60, 110, 240, 255];

/// One frame's overlay geometry. Reuse it across frames ([`Overlay::clear`] keeps the allocations).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overlay {
    pub tested: OverlayLayer,
    pub on_top: OverlayLayer,
}

fn vertex(p: Vec3, color: Rgba) -> OverlayVertex {
    OverlayVertex { position: p.to_array(), color }
}

/// Two unit vectors perpendicular to `d` and to each other.
fn basis(d: Vec3) -> (Vec3, Vec3) {
    let d = d.normalize_or(Vec3::Y);
    let helper = if d.y.abs() < 0.9 { Vec3::Y } else { Vec3::X };
    let u = d.cross(helper).normalize();
    (u, d.cross(u))
}

impl Overlay {
    pub fn clear(&mut self) {
        self.tested.clear();
        self.on_top.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.tested.is_empty() && self.on_top.is_empty()
    }

    pub fn layer(&mut self, depth: Depth) -> &mut OverlayLayer {
        match depth {
            Depth::Tested => &mut self.tested,
            Depth::OnTop => &mut self.on_top,
        }
    }

    pub fn line(&mut self, a: Vec3, b: Vec3, color: Rgba, depth: Depth) {
        let l = self.layer(depth);
        l.lines.push(vertex(a, color));
        l.lines.push(vertex(b, color));
    }

    /// A triangle, wound counter-clockwise seen from the side it should be visible from.
    pub fn triangle(&mut self, a: Vec3, b: Vec3, c: Vec3, color: Rgba, depth: Depth) {
        let l = self.layer(depth);
        l.triangles.extend_from_slice(&[vertex(a, color), vertex(b, color), vertex(c, color)]);
    }

    /// A round marker `size` pixels across.
    pub fn point(&mut self, p: Vec3, size: f32, color: Rgba, depth: Depth) {
        self.layer(depth).points.push(OverlayPoint { position: p.to_array(), size, color });
    }

    /// A square ground grid on the plane y = `center.y`, lines every `spacing`, reaching `half_extent` either
    /// side of the centre (snapped to the spacing). The lines through the origin are drawn in the axis colours
    /// (X red, Z blue) when they fall inside.
    pub fn grid(&mut self, center: Vec3, half_extent: f32, spacing: f32) {
        if !(spacing > 0.0 && half_extent > 0.0 && spacing.is_finite() && half_extent.is_finite()) {
            return;
        }
        let n = (half_extent / spacing).ceil().min(200.0) as i32;
        let cx = (center.x / spacing).round() * spacing;
        let cz = (center.z / spacing).round() * spacing;
        let reach = n as f32 * spacing;
        let y = center.y;
        let minor: Rgba = [120, 120, 120, 150];
        let major: Rgba = [150, 150, 150, 200];
        for i in -n..=n {
            let x = cx + i as f32 * spacing;
            let z = cz + i as f32 * spacing;
            let along_z = if x.abs() < spacing * 0.5 {
                BLUE
            } else if i % 5 == 0 {
                major
            } else {
                minor
            };
            let along_x = if z.abs() < spacing * 0.5 {
                RED
            } else if i % 5 == 0 {
                major
            } else {
                minor
            };
            self.line(Vec3::new(x, y, cz - reach), Vec3::new(x, y, cz + reach), along_z, Depth::Tested);
            self.line(Vec3::new(cx - reach, y, z), Vec3::new(cx + reach, y, z), along_x, Depth::Tested);
        }
    }

    /// A grid under `bounds`: at its lowest point, with a round spacing of about a tenth of its size.
    pub fn ground_grid(&mut self, bounds: &Bounds) {
        if bounds.is_empty() {
            return;
        }
        let center = Vec3::new(bounds.center().x, bounds.min.y, bounds.center().z);
        self.ground_grid_at(center, bounds.size().max_element());
    }

    /// A grid for a character of `size` centred at `center` (on the ground plane y = `center.y`), with a round
    /// spacing of about a tenth of the size; its lines stay on multiples of the spacing wherever the centre is,
    /// so a grid that follows a moving character does not swim.
    pub fn ground_grid_at(&mut self, center: Vec3, size: f32) {
        let size = size.max(1e-3);
        let spacing = 10f32.powf((size / 10.0).log10().round());
        self.grid(center, size * 0.9, spacing);
    }

    /// The X (red), Y (green) and Z (blue) axes of a frame.
    pub fn axes(&mut self, frame: &Mat4, length: f32, depth: Depth) {
        let o = frame.w_axis.truncate();
        for (axis, color) in [(frame.x_axis, RED), (frame.y_axis, GREEN), (frame.z_axis, BLUE)] {
            let d = axis.truncate().normalize_or_zero() * length;
            self.line(o, o + d, color, depth);
        }
    }

    /// A ray from `origin` along `direction` for `length`, with a marker at the origin and a small arrow head.
    pub fn ray(&mut self, origin: Vec3, direction: Vec3, length: f32, color: Rgba, depth: Depth) {
        let d = direction.normalize_or_zero();
        if d == Vec3::ZERO {
            return;
        }
        let tip = origin + d * length;
        self.line(origin, tip, color, depth);
        let (u, v) = basis(d);
        let head = length * 0.06;
        for side in [u, -u, v, -v] {
            self.line(tip, tip - d * head * 1.5 + side * head * 0.5, color, depth);
        }
        self.point(origin, 5.0, color, depth);
    }

    /// A camera frustum (pyramid from the eye to the far rectangle), `camera_to_world` looking down its −Z.
    pub fn frustum(&mut self, camera_to_world: &Mat4, fov_y: f32, aspect: f32, far: f32, color: Rgba, depth: Depth) {
        let h = (fov_y * 0.5).tan() * far;
        let w = h * aspect;
        let eye = camera_to_world.transform_point3(Vec3::ZERO);
        let corners = [Vec3::new(-w, -h, -far), Vec3::new(w, -h, -far), Vec3::new(w, h, -far), Vec3::new(-w, h, -far)]
            .map(|c| camera_to_world.transform_point3(c));
        for i in 0..4 {
            self.line(eye, corners[i], color, depth);
            self.line(corners[i], corners[(i + 1) % 4], color, depth);
        }
        // A tick on the top edge tells up from down.
        let top_mid = (corners[2] + corners[3]) * 0.5;
        let up = camera_to_world.transform_vector3(Vec3::Y).normalize_or_zero() * h * 0.3;
        self.line(corners[2], top_mid + up, color, depth);
        self.line(top_mid + up, corners[3], color, depth);
    }

    /// A wire sphere: three great circles.
    pub fn sphere(&mut self, center: Vec3, radius: f32, color: Rgba, depth: Depth) {
        self.circle(center, Vec3::X, radius, color, depth);
        self.circle(center, Vec3::Y, radius, color, depth);
        self.circle(center, Vec3::Z, radius, color, depth);
    }

    /// A circle around `axis`.
    pub fn circle(&mut self, center: Vec3, axis: Vec3, radius: f32, color: Rgba, depth: Depth) {
        const SEGMENTS: usize = 32;
        let (u, v) = basis(axis);
        let at = |i: usize| {
            let a = i as f32 / SEGMENTS as f32 * std::f32::consts::TAU;
            center + (u * a.cos() + v * a.sin()) * radius
        };
        for i in 0..SEGMENTS {
            self.line(at(i), at(i + 1), color, depth);
        }
    }

    /// The twelve edges of a box.
    pub fn aabb(&mut self, b: &Bounds, color: Rgba, depth: Depth) {
        if b.is_empty() {
            return;
        }
        let c = b.corners();
        for (i, j) in Bounds::EDGES {
            self.line(c[i], c[j], color, depth);
        }
    }

    /// An octahedral bone from `head` to `tail`: widest a tenth of the way along, a tenth of its length wide.
    pub fn octahedral_bone(&mut self, head: Vec3, tail: Vec3, fill: Rgba, outline: Rgba, depth: Depth) {
        let axis = tail - head;
        let length = axis.length();
        if !length.is_finite() || length <= 1e-9 {
            return;
        }
        let d = axis / length;
        let (u, v) = basis(d);
        let mid = head + d * (0.1 * length);
        let w = 0.1 * length;
        let ring = [mid + u * w, mid + v * w, mid - u * w, mid - v * w];
        for i in 0..4 {
            let (a, b) = (ring[i], ring[(i + 1) % 4]);
            // Wind each face so its normal points away from the bone's axis (outward).
            for (apex, p, q) in [(head, b, a), (tail, a, b)] {
                let n = (p - apex).cross(q - apex);
                let out = (apex + p + q) / 3.0 - mid;
                if n.dot(out) >= 0.0 {
                    self.triangle(apex, p, q, fill, depth);
                } else {
                    self.triangle(apex, q, p, fill, depth);
                }
            }
            self.line(head, a, outline, depth);
            self.line(a, tail, outline, depth);
            self.line(a, b, outline, depth);
        }
    }

    /// The skeleton at a pose. `joints` are the bones' to-root matrices already in the viewer frame
    /// (`world · to_viewer · to_root`), parents before children.
    pub fn skeleton(&mut self, parents: &[Option<usize>], joints: &[Mat4], style: &SkeletonStyle) {
        self.skeleton_sized(parents, joints, style, &[]);
    }

    /// [`Overlay::skeleton`] with a marker size per joint (pixels, [`joint_marker_sizes`]); joints past the end
    /// of `sizes` get `style.joint_size`.
    pub fn skeleton_sized(&mut self, parents: &[Option<usize>], joints: &[Mat4], style: &SkeletonStyle, sizes: &[f32]) {
        let depth = style.depth;
        let position = |i: usize| joints[i].w_axis.truncate();
        let count = parents.len().min(joints.len());
        for bone in 0..count {
            let selected = style.selected == Some(bone);
            let color = if selected { style.selected_color } else { style.bone_color };
            if let Some(parent) = parents[bone].filter(|&p| p < count) {
                let (head, tail) = (position(parent), position(bone));
                match style.bones {
                    BoneStyle::Lines => self.line(head, tail, color, depth),
                    BoneStyle::Octahedral => {
                        let fill = [color[0], color[1], color[2], 150];
                        let outline = [color[0] / 3, color[1] / 3, color[2] / 3, 255];
                        self.octahedral_bone(head, tail, fill, outline, depth);
                    }
                }
            }
            if style.axis_length > 0.0 {
                self.axes(&joints[bone], style.axis_length, depth);
            }
            if style.joints {
                let (size, color) = if selected {
                    (style.joint_size * 1.5, style.selected_color)
                } else {
                    (sizes.get(bone).copied().unwrap_or(style.joint_size), style.joint_color)
                };
                self.point(position(bone), size, color, depth);
            }
        }
    }
}

/// The smallest joint marker drawn (pixels): small enough for a face's joints, still seen and clicked.
pub const MIN_JOINT_SIZE: f32 = 2.5;

/// Each joint's distance to its nearest other joint in the bind pose (the unit of `to_root`), for
/// [`joint_marker_sizes`]; joints on top of another one are measured to the next one further away. Empty for
/// a skeleton of more than `MAX_SPACING_BONES` bones (markers then keep one size).
pub fn joint_spacing(to_root: &[Mat4]) -> Vec<f32> {
    const MAX_SPACING_BONES: usize = 4096;
    if to_root.len() > MAX_SPACING_BONES {
        return Vec::new();
    }
    let points: Vec<Vec3> = to_root.iter().map(|m| m.w_axis.truncate()).collect();
    let mut bounds = Bounds::EMPTY;
    points.iter().filter(|p| p.is_finite()).for_each(|p| bounds.add(*p));
    let apart = (bounds.radius() * 1e-4).max(f32::MIN_POSITIVE);
    points
        .iter()
        .map(|p| {
            points.iter().map(|q| p.distance(*q)).filter(|d| *d > apart && d.is_finite()).fold(f32::INFINITY, f32::min)
        })
        .collect()
}

/// Joint marker sizes (pixels) where neighbouring joints are closer on screen than the markers are wide: half
/// the on-screen distance to the nearest joint, between [`MIN_JOINT_SIZE`] and `full`. A dense rig (a face of
/// dozens of joints a few millimetres apart) then shows small markers that leave the face visible, and full
/// ones once zoomed in; a body's joints, far apart, keep the full size. `pixels_per_unit` is the view's scale at
/// the target.
pub fn joint_marker_sizes(spacing: &[f32], pixels_per_unit: f32, full: f32, out: &mut Vec<f32>) {
    out.clear();
    out.extend(spacing.iter().map(|s| (0.5 * s * pixels_per_unit).clamp(MIN_JOINT_SIZE.min(full), full)));
}

/// Draw ranges of one layer in the shared buffers.
#[derive(Clone, Copy, Debug, Default)]
struct LayerRanges {
    lines: (u32, u32),
    triangles: (u32, u32),
    points: (u32, u32),
}

/// Pipelines and buffers for [`Overlay`].
pub struct OverlayRenderer {
    lines: [wgpu::RenderPipeline; 2],
    triangles: [wgpu::RenderPipeline; 2],
    points: [wgpu::RenderPipeline; 2],
    vertices: wgpu::Buffer,
    points_buffer: wgpu::Buffer,
    ranges: [LayerRanges; 2],
    scratch_vertices: Vec<OverlayVertex>,
    scratch_points: Vec<OverlayPoint>,
}

impl OverlayRenderer {
    pub fn new(
        device: &wgpu::Device,
        camera_layout: &wgpu::BindGroupLayout,
        color_format: wgpu::TextureFormat,
        depth_format: wgpu::TextureFormat,
        sample_count: u32,
    ) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("overlay.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../../shaders/overlay.wgsl").into()),
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("overlay"),
            bind_group_layouts: &[Some(camera_layout)],
            immediate_size: 0,
        });
        let make = |label: &str,
                    vs: &str,
                    fs: &str,
                    buffer: wgpu::VertexBufferLayout<'static>,
                    topology: wgpu::PrimitiveTopology,
                    depth: Depth| {
            let (compare, cull) = match depth {
                Depth::Tested => (wgpu::CompareFunction::LessEqual, None),
                Depth::OnTop => (wgpu::CompareFunction::Always, None),
            };
            let cull = if topology == TriangleList { Some(wgpu::Face::Back) } else { cull };
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some(vs),
                    compilation_options: Default::default(),
                    buffers: &[Some(buffer)],
                },
                primitive: wgpu::PrimitiveState {
                    topology,
                    front_face: wgpu::FrontFace::Ccw,
                    cull_mode: cull,
                    ..Default::default()
                },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: depth_format,
                    depth_write_enabled: Some(false),
                    depth_compare: Some(compare),
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                multisample: wgpu::MultisampleState { count: sample_count, ..Default::default() },
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some(fs),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: color_format,
                        blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        use wgpu::PrimitiveTopology::{LineList, TriangleList};
        let lines = [Depth::Tested, Depth::OnTop]
            .map(|d| make("overlay lines", "vs_line", "fs_line", overlay_vertex_layout(), LineList, d));
        let triangles = [Depth::Tested, Depth::OnTop]
            .map(|d| make("overlay triangles", "vs_line", "fs_solid", overlay_vertex_layout(), TriangleList, d));
        let points = [Depth::Tested, Depth::OnTop]
            .map(|d| make("overlay points", "vs_point", "fs_point", overlay_point_layout(), TriangleList, d));
        Self {
            lines,
            triangles,
            points,
            vertices: vertex_buffer(device, "overlay vertices", 4096),
            points_buffer: vertex_buffer(device, "overlay points", 1024),
            ranges: Default::default(),
            scratch_vertices: Vec::new(),
            scratch_points: Vec::new(),
        }
    }

    /// Uploads this frame's lists (growing the buffers when needed).
    pub fn prepare(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, overlay: &Overlay) {
        self.scratch_vertices.clear();
        self.scratch_points.clear();
        for (i, layer) in [&overlay.tested, &overlay.on_top].into_iter().enumerate() {
            let mut r = LayerRanges::default();
            let start = self.scratch_vertices.len() as u32;
            self.scratch_vertices.extend_from_slice(&layer.lines);
            r.lines = (start, self.scratch_vertices.len() as u32);
            let start = self.scratch_vertices.len() as u32;
            self.scratch_vertices.extend_from_slice(&layer.triangles);
            r.triangles = (start, self.scratch_vertices.len() as u32);
            let start = self.scratch_points.len() as u32;
            self.scratch_points.extend_from_slice(&layer.points);
            r.points = (start, self.scratch_points.len() as u32);
            self.ranges[i] = r;
        }
        upload_growing(
            device,
            queue,
            &mut self.vertices,
            "overlay vertices",
            bytemuck::cast_slice(&self.scratch_vertices),
        );
        upload_growing(
            device,
            queue,
            &mut self.points_buffer,
            "overlay points",
            bytemuck::cast_slice(&self.scratch_points),
        );
    }

    /// Draws the depth-tested layer, then the on-top layer. The camera bind group must be set at index 0.
    pub fn paint(&self, pass: &mut wgpu::RenderPass<'_>) {
        for (i, r) in self.ranges.iter().enumerate() {
            if r.triangles.1 > r.triangles.0 {
                pass.set_pipeline(&self.triangles[i]);
                pass.set_vertex_buffer(0, self.vertices.slice(..));
                pass.draw(r.triangles.0..r.triangles.1, 0..1);
            }
            if r.lines.1 > r.lines.0 {
                pass.set_pipeline(&self.lines[i]);
                pass.set_vertex_buffer(0, self.vertices.slice(..));
                pass.draw(r.lines.0..r.lines.1, 0..1);
            }
            if r.points.1 > r.points.0 {
                pass.set_pipeline(&self.points[i]);
                pass.set_vertex_buffer(0, self.points_buffer.slice(..));
                pass.draw(0..6, r.points.0..r.points.1);
            }
        }
    }
}

fn vertex_buffer(device: &wgpu::Device, label: &str, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Writes `data` at the start of `buffer`, replacing it with a larger one (next power of two) when it is too small.
fn upload_growing(device: &wgpu::Device, queue: &wgpu::Queue, buffer: &mut wgpu::Buffer, label: &str, data: &[u8]) {
    if data.is_empty() {
        return;
    }
    if buffer.size() < data.len() as u64 {
        *buffer = vertex_buffer(device, label, (data.len() as u64).next_power_of_two());
    }
    queue.write_buffer(buffer, 0, data);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octahedral_faces_point_outward() {
        let mut o = Overlay::default();
        let (head, tail) = (Vec3::new(1.0, 0.0, 0.0), Vec3::new(1.0, 2.0, 0.5));
        o.octahedral_bone(head, tail, [255; 4], [0, 0, 0, 255], Depth::OnTop);
        let tris = &o.on_top.triangles;
        assert_eq!(tris.len(), 8 * 3);
        let center = head + (tail - head) * 0.3;
        for t in tris.chunks(3) {
            let [a, b, c] = [0, 1, 2].map(|i| Vec3::from_array(t[i].position));
            let n = (b - a).cross(c - a);
            assert!(n.dot((a + b + c) / 3.0 - center) > 0.0);
        }
        assert_eq!(o.on_top.lines.len(), 12 * 2);
    }

    #[test]
    fn close_joints_get_small_markers_and_far_ones_the_full_size() {
        // A body joint 50 units from the next, and a face of three joints 1 unit apart.
        let at = |x: f32| Mat4::from_translation(Vec3::new(x, 0.0, 0.0));
        let spacing = joint_spacing(&[at(-50.0), at(0.0), at(1.0), at(2.0)]);
        assert_eq!(spacing, [50.0, 1.0, 1.0, 1.0]);
        let mut sizes = Vec::new();
        // 3 pixels a unit: the face's markers at the smallest size, the body's full.
        joint_marker_sizes(&spacing, 3.0, 7.0, &mut sizes);
        assert_eq!(sizes, [7.0, MIN_JOINT_SIZE, MIN_JOINT_SIZE, MIN_JOINT_SIZE]);
        // Zoomed in tenfold: the face's joints are far apart on screen and drawn full.
        joint_marker_sizes(&spacing, 30.0, 7.0, &mut sizes);
        assert_eq!(sizes, [7.0; 4]);
        // Two joints on the same spot are measured to the next one.
        assert_eq!(joint_spacing(&[at(0.0), at(0.0), at(4.0)]), [4.0, 4.0, 4.0]);
        let mut o = Overlay::default();
        let parents = [None, Some(0), Some(1), Some(2)];
        o.skeleton_sized(
            &parents,
            &[at(-50.0), at(0.0), at(1.0), at(2.0)],
            &SkeletonStyle::default(),
            &[7.0, 2.5, 2.5, 2.5],
        );
        let point_sizes: Vec<f32> = o.on_top.points.iter().map(|p| p.size).collect();
        assert_eq!(point_sizes, [7.0, 2.5, 2.5, 2.5]);
    }

    #[test]
    fn skeleton_draws_one_bone_per_parented_joint_and_a_point_per_joint() {
        let parents = [None, Some(0), Some(1), Some(0)];
        let joints: Vec<Mat4> = (0..4).map(|i| Mat4::from_translation(Vec3::new(0.0, i as f32, 0.0))).collect();
        let mut o = Overlay::default();
        o.skeleton(&parents, &joints, &SkeletonStyle::default());
        assert_eq!(o.on_top.lines.len(), 3 * 2);
        assert_eq!(o.on_top.points.len(), 4);
        // Bone 2 runs from joint 1 to joint 2.
        assert_eq!(o.on_top.lines[2].position, [0.0, 1.0, 0.0]);
        assert_eq!(o.on_top.lines[3].position, [0.0, 2.0, 0.0]);
    }

    #[test]
    fn grid_has_axis_coloured_lines_through_the_origin() {
        let mut o = Overlay::default();
        o.grid(Vec3::ZERO, 1.0, 0.5);
        // −2..=2 lines each way.
        assert_eq!(o.tested.lines.len(), 5 * 2 * 2);
        assert!(o.tested.lines.iter().any(|v| v.color == RED));
        assert!(o.tested.lines.iter().any(|v| v.color == BLUE));
        o.clear();
        o.grid(Vec3::ZERO, f32::NAN, 0.5);
        assert!(o.is_empty());
    }
}
