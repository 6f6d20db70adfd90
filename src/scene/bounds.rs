//! `Bounds`: an axis-aligned box, the one box type of the crate (framing the camera, the ground grid, the
//! bounding-box overlay, the extent of a pose). Plain data and a few set operations; what is boxed (which pose,
//! which frame) is up to the caller — [`crate::anim::posed_bounds`] boxes a posed asset.

use glam::{Mat4, Vec3};

/// An axis-aligned box; empty until a point is added.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Bounds {
    pub min: Vec3,
    pub max: Vec3,
}

impl Default for Bounds {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl Bounds {
    pub const EMPTY: Self = Self { min: Vec3::splat(f32::INFINITY), max: Vec3::splat(f32::NEG_INFINITY) };

    pub fn from_points(points: impl IntoIterator<Item = Vec3>) -> Self {
        let mut b = Self::EMPTY;
        for p in points {
            b.add(p);
        }
        b
    }

    /// The cube of half-size `half` around `center`.
    pub fn cube(center: Vec3, half: f32) -> Self {
        Self::from_points([center - Vec3::splat(half), center + Vec3::splat(half)])
    }

    /// Adds a point; non-finite points (broken data) are ignored so one NaN cannot spoil the framing.
    pub fn add(&mut self, p: Vec3) {
        if p.is_finite() {
            self.min = self.min.min(p);
            self.max = self.max.max(p);
        }
    }

    pub fn union(&self, other: &Bounds) -> Bounds {
        Bounds { min: self.min.min(other.min), max: self.max.max(other.max) }
    }

    pub fn is_empty(&self) -> bool {
        !(self.min.x <= self.max.x && self.min.y <= self.max.y && self.min.z <= self.max.z)
    }

    pub fn center(&self) -> Vec3 {
        if self.is_empty() { Vec3::ZERO } else { (self.min + self.max) * 0.5 }
    }

    pub fn size(&self) -> Vec3 {
        if self.is_empty() { Vec3::ZERO } else { self.max - self.min }
    }

    /// Radius of the bounding sphere around [`Bounds::center`].
    pub fn radius(&self) -> f32 {
        self.size().length() * 0.5
    }

    /// A radius to frame or size overlays by: [`Bounds::radius`], but 1 for an empty box and never below 1e-3,
    /// so a file with nothing in it or a single point still gets a usable view.
    pub fn sizing_radius(&self) -> f32 {
        if self.is_empty() { 1.0 } else { self.radius().max(1e-3) }
    }

    /// The eight corners; corner `i` takes `max` on the axes whose bit is set in `i` (x = 1, y = 2, z = 4), so
    /// corners `i` and `i | bit` share an edge.
    pub fn corners(&self) -> [Vec3; 8] {
        let (a, b) = (self.min, self.max);
        std::array::from_fn(|i| {
            Vec3::new(
                if i & 1 == 0 { a.x } else { b.x },
                if i & 2 == 0 { a.y } else { b.y },
                if i & 4 == 0 { a.z } else { b.z },
            )
        })
    }

    /// The twelve edges, as pairs of indices into [`Bounds::corners`].
    pub const EDGES: [(usize, usize); 12] =
        [(0, 1), (2, 3), (4, 5), (6, 7), (0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7)];

    /// The box moved by a matrix (its eight corners, re-boxed).
    pub fn transformed(&self, m: &Mat4) -> Bounds {
        if self.is_empty() {
            return *self;
        }
        Bounds::from_points(self.corners().map(|c| m.transform_point3(c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_and_edges_cover_the_box() {
        let b = Bounds::from_points([Vec3::new(-1.0, 0.0, 2.0), Vec3::new(3.0, 5.0, 4.0)]);
        let c = b.corners();
        assert_eq!(c[0], b.min);
        assert_eq!(c[7], b.max);
        // Every edge joins corners that differ on exactly one axis, and no edge repeats.
        let mut seen = std::collections::HashSet::new();
        for (i, j) in Bounds::EDGES {
            assert_eq!((i ^ j).count_ones(), 1, "{i}-{j}");
            assert_eq!((c[i] - c[j]).cmpeq(Vec3::ZERO).bitmask().count_ones(), 2);
            assert!(seen.insert((i.min(j), i.max(j))));
        }
        assert_eq!(Bounds::EMPTY.sizing_radius(), 1.0);
        assert_eq!(Bounds::from_points([Vec3::ONE]).sizing_radius(), 1e-3);
        assert!((b.sizing_radius() - b.radius()).abs() < 1e-6);
    }

    #[test]
    fn bounds_ignore_nan_and_transform() {
        let mut b = Bounds::from_points([Vec3::ZERO, Vec3::ONE]);
        b.add(Vec3::NAN);
        assert_eq!(b.max, Vec3::ONE);
        let moved = b.transformed(&Mat4::from_translation(Vec3::X));
        assert_eq!(moved.min, Vec3::X);
        assert!(Bounds::EMPTY.is_empty());
        let cube = Bounds::cube(Vec3::Y, 0.5);
        assert_eq!((cube.min, cube.max), (Vec3::new(-0.5, 0.5, -0.5), Vec3::new(0.5, 1.5, 0.5)));
    }
}
