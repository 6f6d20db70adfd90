//! The viewport's orbit camera: a target point, yaw/pitch/distance around it, perspective or orthographic
//! projection; framing a bounding sphere; the numeric-key view presets; projecting points to the screen.
//!
//! Viewer frame: right-handed, Y up; the front view looks from +Z towards −Z. Depth is wgpu's 0..1. Owns no
//! GPU state and reads no input; the viewport turns mouse and keys into calls here.

use glam::{Mat4, Vec3, Vec4};

/// Named directions the numeric keys jump to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewPreset {
    Front,
    Back,
    Right,
    Left,
    Top,
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

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    pub target: Vec3,
    /// Rotation about Y; 0 looks from +Z.
    pub yaw: f32,
    /// Elevation; +π/2 looks straight down.
    pub pitch: f32,
    pub distance: f32,
    /// Vertical field of view in radians (also sets the orthographic height at the target).
    pub fov_y: f32,
    pub orthographic: bool,
    /// Radius of what was last framed; bounds the clip planes.
    pub scene_radius: f32,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        Self {
            target: Vec3::ZERO,
            yaw: 0.5,
            pitch: 0.25,
            distance: 5.0,
            fov_y: 40f32.to_radians(),
            orthographic: false,
            scene_radius: 1.0,
        }
    }
}

impl OrbitCamera {
    /// Camera-to-world transform.
    pub fn camera_to_world(&self) -> Mat4 {
        Mat4::from_translation(self.target)
            * Mat4::from_rotation_y(self.yaw)
            * Mat4::from_rotation_x(-self.pitch)
            * Mat4::from_translation(Vec3::new(0.0, 0.0, self.distance))
    }

    pub fn view(&self) -> Mat4 {
        self.camera_to_world().inverse()
    }

    pub fn eye(&self) -> Vec3 {
        self.camera_to_world().w_axis.truncate()
    }

    /// Half the visible height at the target distance.
    fn half_height(&self) -> f32 {
        self.distance * (self.fov_y * 0.5).tan()
    }

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

    /// Places the target at the sphere's centre and backs off until the sphere fits the view.
    pub fn frame(&mut self, center: Vec3, radius: f32) {
        let radius = if radius.is_finite() && radius > 1e-6 { radius } else { 1.0 };
        if center.is_finite() {
            self.target = center;
        }
        self.scene_radius = radius;
        self.distance = radius / (self.fov_y * 0.5).sin() * 1.05;
    }

    pub fn set_preset(&mut self, preset: ViewPreset) {
        (self.yaw, self.pitch) = preset.angles();
    }

    /// Orbits by a screen-space drag in points.
    pub fn orbit(&mut self, dx: f32, dy: f32) {
        const RADIANS_PER_POINT: f32 = 0.008;
        self.yaw -= dx * RADIANS_PER_POINT;
        self.yaw = (self.yaw + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU) - std::f32::consts::PI;
        self.pitch =
            (self.pitch + dy * RADIANS_PER_POINT).clamp(-std::f32::consts::FRAC_PI_2, std::f32::consts::FRAC_PI_2);
    }

    /// Moves the target so that the scene follows a drag of (dx, dy) points in a view `height` points tall.
    pub fn pan(&mut self, dx: f32, dy: f32, height: f32) {
        let per_point = 2.0 * self.half_height() / height.max(1.0);
        let m = self.camera_to_world();
        let right = m.x_axis.truncate();
        let up = m.y_axis.truncate();
        self.target += (-right * dx + up * dy) * per_point;
    }

    /// Multiplies the distance (factor > 1 zooms out).
    pub fn zoom(&mut self, factor: f32) {
        if factor.is_finite() && factor > 0.0 {
            let min = self.scene_radius * 1e-3;
            let max = self.scene_radius * 1e3;
            self.distance = (self.distance * factor).clamp(min.max(1e-5), max.max(1e-3));
        }
    }

    /// Projects a world point into a viewport rectangle given as (left, top, width, height) in points.
    /// Returns the screen position and the depth (0 near .. 1 far), `None` behind the camera.
    pub fn project(&self, view_proj: &Mat4, rect: [f32; 4], p: Vec3) -> Option<([f32; 2], f32)> {
        let clip = *view_proj * Vec4::new(p.x, p.y, p.z, 1.0);
        if clip.w <= 1e-6 {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        let x = rect[0] + (ndc.x * 0.5 + 0.5) * rect[2];
        let y = rect[1] + (0.5 - ndc.y * 0.5) * rect[3];
        Some(([x, y], ndc.z))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_view_looks_down_minus_z() {
        let mut c = OrbitCamera::default();
        c.set_preset(ViewPreset::Front);
        c.frame(Vec3::new(0.0, 1.0, 0.0), 1.0);
        let eye = c.eye();
        assert!(eye.x.abs() < 1e-5 && (eye.y - 1.0).abs() < 1e-5 && eye.z > 1.0, "{eye}");
        // The target projects to the centre of the view.
        let vp = c.view_projection(2.0);
        let (p, depth) = c.project(&vp, [0.0, 0.0, 200.0, 100.0], c.target).unwrap();
        assert!((p[0] - 100.0).abs() < 1e-3 && (p[1] - 50.0).abs() < 1e-3);
        assert!((0.0..1.0).contains(&depth));
        // +X is to the right, +Y up on screen.
        let (right, _) = c.project(&vp, [0.0, 0.0, 200.0, 100.0], c.target + Vec3::X * 0.1).unwrap();
        let (up, _) = c.project(&vp, [0.0, 0.0, 200.0, 100.0], c.target + Vec3::Y * 0.1).unwrap();
        assert!(right[0] > 100.0 && up[1] < 50.0);
    }

    #[test]
    fn top_and_right_views() {
        let mut c = OrbitCamera::default();
        c.frame(Vec3::ZERO, 1.0);
        c.set_preset(ViewPreset::Top);
        assert!(c.eye().y > 1.0 && c.eye().x.abs() < 1e-4 && c.eye().z.abs() < 1e-4, "{}", c.eye());
        c.set_preset(ViewPreset::Right);
        assert!(c.eye().x > 1.0 && c.eye().z.abs() < 1e-4);
    }

    #[test]
    fn framing_fits_the_sphere() {
        let mut c = OrbitCamera::default();
        c.frame(Vec3::new(5.0, 0.0, 0.0), 2.0);
        let vp = c.view_projection(1.0);
        // Points on the sphere's silhouette stay within the view.
        for d in [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y] {
            let (p, _) = c.project(&vp, [0.0, 0.0, 100.0, 100.0], c.target + d * 2.0).unwrap();
            assert!((0.0..=100.0).contains(&p[0]) && (0.0..=100.0).contains(&p[1]), "{d} → {p:?}");
        }
    }

    #[test]
    fn pan_moves_the_scene_with_the_pointer() {
        let mut c = OrbitCamera::default();
        c.set_preset(ViewPreset::Front);
        c.frame(Vec3::ZERO, 1.0);
        let before = c.target;
        c.pan(10.0, 0.0, 100.0);
        // Dragging right moves the target left, so the scene appears to move right.
        assert!(c.target.x < before.x);
        c.orthographic = true;
        let vp = c.view_projection(1.0);
        assert!(c.project(&vp, [0.0, 0.0, 100.0, 100.0], Vec3::ZERO).is_some());
    }
}
