//! The orbit camera (target, yaw, pitch, distance) with framing of a bounding box. Everything is in the viewer frame (right-handed, Y up). Pure maths: no wgpu, no UI events (the
//! viewport maps drags and wheel steps onto [`OrbitCamera::orbit`], [`OrbitCamera::pan`] and
//! [`OrbitCamera::zoom`]).

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
        if clip.w <= 0.0 {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        Some(((ndc.x * 0.5 + 0.5) * width, (0.5 - ndc.y * 0.5) * height))
    }
}

/// A camera orbiting `target`. Yaw 0 looks from +Z towards −Z (the front of a Y-up character facing +Z); positive
/// pitch looks down from above.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    pub target: Vec3,
    /// Radians about +Y.
    pub yaw: f32,
    /// Radians above the horizon, kept inside (−90°, 90°).
    pub pitch: f32,
    pub distance: f32,
    /// Vertical field of view, radians.
    pub fov_y: f32,
    /// Radius of what is being looked at; sets the near and far planes.
    pub scene_radius: f32,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        Self {
            target: Vec3::ZERO,
            yaw: 30f32.to_radians(),
            pitch: 15f32.to_radians(),
            distance: 5.0,
            fov_y: 40f32.to_radians(),
            scene_radius: 1.0,
        }
    }
}

const PITCH_LIMIT: f32 = 89.0 * std::f32::consts::PI / 180.0;

impl OrbitCamera {
    /// A camera with the default angles that frames `bounds` for the given aspect ratio (width / height).
    pub fn framing(bounds: &Bounds, aspect: f32) -> Self {
        let mut camera = Self::default();
        camera.frame(bounds, aspect);
        camera
    }

    /// Re-targets on the box's centre and backs off until all eight corners are inside the view for the given
    /// aspect ratio (width / height), keeping the current angles (auto-frame on load, "frame selected").
    pub fn frame(&mut self, bounds: &Bounds, aspect: f32) {
        let radius = if bounds.is_empty() { 1.0 } else { bounds.radius().max(1e-4) };
        let center = bounds.center();
        self.target = center;
        self.scene_radius = radius;
        let dir = self.direction();
        let forward = -dir;
        let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
        let up = right.cross(forward);
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

    /// Unit vector from the target towards the eye.
    pub fn direction(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        Vec3::new(cp * sy, sp, cp * cy)
    }

    pub fn eye(&self) -> Vec3 {
        self.target + self.direction() * self.distance
    }

    pub fn view(&self) -> Mat4 {
        glam::camera::rh::view::look_at_mat4(self.eye(), self.target, Vec3::Y)
    }

    /// Perspective with wgpu's 0..1 depth. The planes follow the distance and the scene radius, so depth precision
    /// is spent where the model is.
    pub fn projection(&self, aspect: f32) -> Mat4 {
        let reach = self.scene_radius.max(1e-4) * 4.0;
        let near = (self.distance - reach).max(self.distance * 0.02).max(1e-5);
        let far = self.distance + reach.max(self.distance);
        glam::camera::rh::proj::directx::perspective(self.fov_y, aspect.max(1e-3), near, far)
    }

    pub fn matrices(&self, aspect: f32) -> CameraMatrices {
        CameraMatrices { view: self.view(), projection: self.projection(aspect), eye: self.eye() }
    }

    /// Turns around the target (radians).
    pub fn orbit(&mut self, d_yaw: f32, d_pitch: f32) {
        self.yaw = (self.yaw + d_yaw).rem_euclid(std::f32::consts::TAU);
        self.pitch = (self.pitch + d_pitch).clamp(-PITCH_LIMIT, PITCH_LIMIT);
    }

    /// Moves the target in the view plane by fractions of the view height (a drag of the full viewport height
    /// moves by 1.0).
    pub fn pan(&mut self, dx: f32, dy: f32) {
        let forward = -self.direction();
        let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
        let up = right.cross(forward);
        let height = 2.0 * self.distance * (self.fov_y * 0.5).tan();
        self.target += (-right * dx + up * dy) * height;
    }

    /// Multiplies the distance (< 1 moves closer).
    pub fn zoom(&mut self, factor: f32) {
        if factor.is_finite() && factor > 0.0 {
            self.distance = (self.distance * factor).max(self.scene_radius * 1e-3).max(1e-5);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing_puts_every_corner_inside_the_view() {
        let b = Bounds { min: Vec3::new(-1.0, 0.0, -0.5), max: Vec3::new(1.0, 6.0, 0.5) };
        for aspect in [0.5, 1.0, 2.0] {
            let cam = OrbitCamera::framing(&b, aspect);
            let m = cam.matrices(aspect);
            let (w, h) = (100.0 * aspect, 100.0);
            for i in 0..8 {
                let p = Vec3::new(
                    if i & 1 == 0 { b.min.x } else { b.max.x },
                    if i & 2 == 0 { b.min.y } else { b.max.y },
                    if i & 4 == 0 { b.min.z } else { b.max.z },
                );
                let (x, y) = m.project(p, w, h).unwrap();
                assert!((0.0..=w).contains(&x) && (0.0..=h).contains(&y), "aspect {aspect}: {p} at ({x}, {y})");
            }
            // The centre lands in the middle of the image.
            let (x, y) = m.project(b.center(), w, h).unwrap();
            assert!((x - w / 2.0).abs() < 1e-3 && (y - h / 2.0).abs() < 1e-3);
        }
    }

    #[test]
    fn yaw_zero_looks_from_plus_z_and_pitch_is_clamped() {
        let mut cam = OrbitCamera { yaw: 0.0, pitch: 0.0, distance: 3.0, ..OrbitCamera::default() };
        assert!(cam.eye().abs_diff_eq(Vec3::new(0.0, 0.0, 3.0), 1e-6));
        cam.orbit(0.0, 10.0);
        assert!(cam.pitch < std::f32::consts::FRAC_PI_2);
        assert!(cam.view().is_finite());
    }
}
