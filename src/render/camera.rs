//! The orbit camera of the viewer and the `render` command: a target point with yaw, pitch and distance around
//! it, perspective or orthographic projection, the numeric-key view presets, and fitting a box into view.
//!
//! Viewer frame: right-handed, Y up; yaw 0 looks from +Z towards −Z (the front of a Y-up character facing +Z),
//! positive pitch looks down from above. Depth is wgpu's 0..1. Pure maths: no wgpu, no input events (the
//! viewport turns drags and wheel steps into [`OrbitCamera::orbit`], [`OrbitCamera::pan`] and
//! [`OrbitCamera::zoom`]). The camera frames whatever box it is given; which box (one pose, a whole clip, the
//! selected bone) is the caller's choice.

use glam::{Mat4, Vec3};

use crate::scene::Bounds;

/// View and projection for one frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraMatrices {
    pub view: Mat4,
    pub projection: Mat4,
    pub eye: Vec3,
}

impl CameraMatrices {
    pub fn view_projection(&self) -> Mat4 {
        self.projection * self.view
    }

    /// Where a viewer-frame point lands in pixels (origin top left), or `None` behind the camera.
    pub fn project(&self, p: Vec3, width: f32, height: f32) -> Option<(f32, f32)> {
        let clip = self.view_projection() * p.extend(1.0);
        if clip.w <= 1e-6 {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        Some(((ndc.x * 0.5 + 0.5) * width, (0.5 - ndc.y * 0.5) * height))
    }
}

/// Named directions the numeric keys (and the viewer's `--view`) jump to, relative to the character's front.
/// Right and Left are named as Blender's and 3ds Max's views are (numpad 3 looks from the right of the Front
/// view): Right shows the character's left side, Left its right side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum ViewPreset {
    /// From the character's front: its face.
    Front,
    /// From behind it.
    Back,
    /// From the right of the Front view (as Blender's and 3ds Max's Right view): the character's left side.
    Right,
    /// From the left of the Front view: the character's right side.
    Left,
    /// From above, its front at the bottom of the view.
    Top,
    /// From below.
    Bottom,
}

impl ViewPreset {
    /// (yaw, pitch) in radians.
    pub fn angles(self) -> (f32, f32) {
        use std::f32::consts::{FRAC_PI_2, PI};
        match self {
            Self::Front => (0.0, 0.0),
            Self::Back => (PI, 0.0),
            Self::Right => (FRAC_PI_2, 0.0),
            Self::Left => (-FRAC_PI_2, 0.0),
            Self::Top => (0.0, FRAC_PI_2),
            Self::Bottom => (0.0, -FRAC_PI_2),
        }
    }

    /// What the view shows, for hover texts.
    pub fn shows(self) -> &'static str {
        match self {
            Self::Front => "the character's front (its face)",
            Self::Back => "the character's back",
            Self::Right => "from the right of the Front view (as in Blender and 3ds Max): the character's left side",
            Self::Left => "from the left of the Front view: the character's right side",
            Self::Top => "from above",
            Self::Bottom => "from below",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Front => "Front",
            Self::Back => "Back",
            Self::Right => "Right",
            Self::Left => "Left",
            Self::Top => "Top",
            Self::Bottom => "Bottom",
        }
    }
}

/// A camera orbiting `target`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    pub target: Vec3,
    /// Radians about +Y; 0 looks from +Z.
    pub yaw: f32,
    /// Radians above the horizon, within ±90° (+90° looks straight down).
    pub pitch: f32,
    pub distance: f32,
    /// Vertical field of view, radians (also sets the orthographic height at the target).
    pub fov_y: f32,
    pub orthographic: bool,
    /// Radius of what was last framed; bounds the clip planes and the zoom.
    pub scene_radius: f32,
    /// The yaw that looks at the character's front ([`crate::anim::facing`]): the presets turn with it, so
    /// "Front" shows the face and "Right" the character's right side whatever way the file faces.
    pub front_yaw: f32,
}

impl Default for OrbitCamera {
    /// From the front right, a little above (yaw 30°, pitch 15°), looking at the origin.
    fn default() -> Self {
        Self {
            target: Vec3::ZERO,
            yaw: 30f32.to_radians(),
            pitch: 15f32.to_radians(),
            distance: 5.0,
            fov_y: 40f32.to_radians(),
            orthographic: false,
            scene_radius: 1.0,
            front_yaw: 0.0,
        }
    }
}

impl OrbitCamera {
    /// A camera with the default angles that frames `bounds` for the given aspect ratio (width / height), as
    /// [`OrbitCamera::frame`] does.
    pub fn framing(bounds: &Bounds, aspect: f32) -> Self {
        let mut camera = Self::default();
        camera.frame(bounds, aspect);
        camera
    }

    /// Re-targets on the box's centre and backs off just until all eight corners are inside the view for the
    /// given aspect ratio (width / height), keeping the current angles: the tightest fit, for a still image.
    pub fn frame(&mut self, bounds: &Bounds, aspect: f32) {
        let radius = if bounds.is_empty() { 1.0 } else { bounds.radius().max(1e-4) };
        let center = bounds.center();
        self.target = center;
        self.scene_radius = radius;
        let m = self.camera_to_world();
        let (right, up, dir) = (m.x_axis.truncate(), m.y_axis.truncate(), m.z_axis.truncate());
        // A margin so the silhouette does not touch the border.
        let tan_v = (self.fov_y * 0.5).tan() * 0.92;
        let tan_h = tan_v * aspect.max(1e-3);
        let mut distance = radius * 0.1;
        if !bounds.is_empty() {
            for corner in bounds.corners() {
                // A corner at offset v from the target is inside when its sideways offsets fit the view at its
                // depth, `distance − v·dir`.
                let v = corner - center;
                let along = v.dot(dir);
                distance = distance.max(along + v.dot(right).abs() / tan_h).max(along + v.dot(up).abs() / tan_v);
            }
        }
        self.distance = distance.max(1e-4);
    }

    /// Re-targets on the box's centre and backs off until the box's bounding sphere fits the view's height, so
    /// the box stays in view from every angle: the fit for a view the user will orbit. An empty box frames a
    /// unit sphere at the origin.
    pub fn frame_for_orbiting(&mut self, bounds: &Bounds) {
        let center = bounds.center();
        if center.is_finite() {
            self.target = center;
        }
        let radius = bounds.sizing_radius();
        self.scene_radius = radius;
        self.distance = radius / (self.fov_y * 0.5).sin() * 1.05;
    }

    /// Camera-to-world transform: the camera looks down its −Z with +Y up.
    pub fn camera_to_world(&self) -> Mat4 {
        Mat4::from_translation(self.target)
            * Mat4::from_rotation_y(self.yaw)
            * Mat4::from_rotation_x(-self.pitch)
            * Mat4::from_translation(Vec3::new(0.0, 0.0, self.distance))
    }

    /// Unit vector from the target towards the eye.
    pub fn direction(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        Vec3::new(cp * sy, sp, cp * cy)
    }

    pub fn eye(&self) -> Vec3 {
        self.target + self.direction() * self.distance
    }

    /// World-to-camera transform. Built from the rotation rather than a look-at, so the top and bottom views
    /// (pitch ±90°) are well defined.
    pub fn view(&self) -> Mat4 {
        self.camera_to_world().inverse()
    }

    /// Half the visible height at the target distance.
    pub fn half_height(&self) -> f32 {
        self.distance * (self.fov_y * 0.5).tan()
    }

    /// Perspective or orthographic with wgpu's 0..1 depth. The far plane follows the distance and the scene
    /// radius; the near plane is 1 % of the distance, so panning the target away from the model does not cut it.
    pub fn projection(&self, aspect: f32) -> Mat4 {
        let aspect = if aspect.is_finite() && aspect > 0.0 { aspect } else { 1.0 };
        let reach = self.distance + 4.0 * self.scene_radius.max(1e-3);
        let far = reach * 4.0;
        if self.orthographic {
            let h = self.half_height();
            glam::camera::rh::proj::directx::orthographic(-h * aspect, h * aspect, -h, h, -far, far)
        } else {
            let near = (self.distance * 0.01).max(far * 1e-6);
            glam::camera::rh::proj::directx::perspective(self.fov_y, aspect, near, far)
        }
    }

    pub fn view_projection(&self, aspect: f32) -> Mat4 {
        self.projection(aspect) * self.view()
    }

    pub fn matrices(&self, aspect: f32) -> CameraMatrices {
        CameraMatrices { view: self.view(), projection: self.projection(aspect), eye: self.eye() }
    }

    /// Jumps to a preset view of the character (relative to [`OrbitCamera::front_yaw`]).
    pub fn set_preset(&mut self, preset: ViewPreset) {
        use std::f32::consts::{PI, TAU};
        let (yaw, pitch) = preset.angles();
        self.yaw = (yaw + self.front_yaw + PI).rem_euclid(TAU) - PI;
        self.pitch = pitch;
    }

    /// Orbits by a screen-space drag of (dx, dy) points.
    pub fn orbit(&mut self, dx: f32, dy: f32) {
        use std::f32::consts::{FRAC_PI_2, PI, TAU};
        const RADIANS_PER_POINT: f32 = 0.008;
        self.yaw -= dx * RADIANS_PER_POINT;
        self.yaw = (self.yaw + PI).rem_euclid(TAU) - PI;
        self.pitch = (self.pitch + dy * RADIANS_PER_POINT).clamp(-FRAC_PI_2, FRAC_PI_2);
    }

    /// Moves the target so that the scene follows a drag of (dx, dy) points in a view `height` points tall.
    pub fn pan(&mut self, dx: f32, dy: f32, height: f32) {
        let per_point = 2.0 * self.half_height() / height.max(1.0);
        let m = self.camera_to_world();
        let right = m.x_axis.truncate();
        let up = m.y_axis.truncate();
        self.target += (-right * dx + up * dy) * per_point;
    }

    /// Multiplies the distance (factor > 1 zooms out), within a range around the framed scene's size.
    pub fn zoom(&mut self, factor: f32) {
        if factor.is_finite() && factor > 0.0 {
            let min = self.scene_radius * 1e-3;
            let max = self.scene_radius * 1e3;
            self.distance = (self.distance * factor).clamp(min.max(1e-5), max.max(1e-3));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_sphere_at(center: Vec3, radius: f32) -> Bounds {
        Bounds::cube(center, radius / 3f32.sqrt())
    }

    #[test]
    fn framing_puts_every_corner_inside_the_view() {
        let b = Bounds { min: Vec3::new(-1.0, 0.0, -0.5), max: Vec3::new(1.0, 6.0, 0.5) };
        for aspect in [0.5, 1.0, 2.0] {
            let cam = OrbitCamera::framing(&b, aspect);
            let m = cam.matrices(aspect);
            let (w, h) = (100.0 * aspect, 100.0);
            for p in b.corners() {
                let (x, y) = m.project(p, w, h).unwrap();
                assert!((0.0..=w).contains(&x) && (0.0..=h).contains(&y), "aspect {aspect}: {p} at ({x}, {y})");
            }
            // The centre lands in the middle of the image.
            let (x, y) = m.project(b.center(), w, h).unwrap();
            assert!((x - w / 2.0).abs() < 1e-3 && (y - h / 2.0).abs() < 1e-3);
        }
    }

    #[test]
    fn the_view_matches_a_look_at_from_the_eye() {
        let cam = OrbitCamera { target: Vec3::new(1.0, 2.0, 3.0), distance: 7.0, ..OrbitCamera::default() };
        let look_at = glam::camera::rh::view::look_at_mat4(cam.eye(), cam.target, Vec3::Y);
        assert!(cam.view().abs_diff_eq(look_at, 1e-5), "{} vs {look_at}", cam.view());
        assert!(cam.eye().abs_diff_eq(cam.camera_to_world().w_axis.truncate(), 1e-5));
    }

    #[test]
    fn yaw_zero_looks_from_plus_z_and_pitch_is_clamped() {
        let mut cam = OrbitCamera { yaw: 0.0, pitch: 0.0, distance: 3.0, ..OrbitCamera::default() };
        assert!(cam.eye().abs_diff_eq(Vec3::new(0.0, 0.0, 3.0), 1e-6));
        cam.orbit(0.0, 1e4);
        assert!(cam.pitch <= std::f32::consts::FRAC_PI_2);
        assert!(cam.view().is_finite());
    }

    #[test]
    fn front_view_looks_down_minus_z() {
        let mut c = OrbitCamera::default();
        c.set_preset(ViewPreset::Front);
        c.frame_for_orbiting(&unit_sphere_at(Vec3::Y, 1.0));
        let eye = c.eye();
        assert!(eye.x.abs() < 1e-5 && (eye.y - 1.0).abs() < 1e-5 && eye.z > 1.0, "{eye}");
        // The target projects to the centre of the view; +X is to the right, +Y up on screen.
        let m = c.matrices(2.0);
        let (x, y) = m.project(c.target, 200.0, 100.0).unwrap();
        assert!((x - 100.0).abs() < 1e-3 && (y - 50.0).abs() < 1e-3);
        let (right, _) = m.project(c.target + Vec3::X * 0.1, 200.0, 100.0).unwrap();
        let (_, up) = m.project(c.target + Vec3::Y * 0.1, 200.0, 100.0).unwrap();
        assert!(right > 100.0 && up < 50.0);
    }

    #[test]
    fn top_and_right_views() {
        let mut c = OrbitCamera::default();
        c.frame_for_orbiting(&unit_sphere_at(Vec3::ZERO, 1.0));
        c.set_preset(ViewPreset::Top);
        assert!(c.eye().y > 1.0 && c.eye().x.abs() < 1e-4 && c.eye().z.abs() < 1e-4, "{}", c.eye());
        assert!(c.view().is_finite());
        c.set_preset(ViewPreset::Right);
        assert!(c.eye().x > 1.0 && c.eye().z.abs() < 1e-4);
    }

    #[test]
    fn framing_for_orbiting_fits_the_sphere_from_any_side() {
        let mut c = OrbitCamera::default();
        let b = unit_sphere_at(Vec3::new(5.0, 0.0, 0.0), 2.0);
        c.frame_for_orbiting(&b);
        assert!((c.scene_radius - 2.0).abs() < 1e-5);
        for preset in [ViewPreset::Front, ViewPreset::Right, ViewPreset::Top] {
            c.set_preset(preset);
            let m = c.matrices(1.0);
            // Points on the sphere's silhouette stay within the view.
            let [right, up] = [c.camera_to_world().x_axis.truncate(), c.camera_to_world().y_axis.truncate()];
            for d in [right, -right, up, -up] {
                let (x, y) = m.project(c.target + d * 2.0, 100.0, 100.0).unwrap();
                assert!((0.0..=100.0).contains(&x) && (0.0..=100.0).contains(&y), "{preset:?} {d} → ({x}, {y})");
            }
        }
    }

    #[test]
    fn pan_moves_the_scene_with_the_pointer() {
        let mut c = OrbitCamera::default();
        c.set_preset(ViewPreset::Front);
        c.frame_for_orbiting(&unit_sphere_at(Vec3::ZERO, 1.0));
        let before = c.target;
        c.pan(10.0, 0.0, 100.0);
        // Dragging right moves the target left, so the scene appears to move right.
        assert!(c.target.x < before.x);
        c.orthographic = true;
        assert!(c.matrices(1.0).project(Vec3::ZERO, 100.0, 100.0).is_some());
    }
}
