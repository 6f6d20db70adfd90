//! The bone (frame) hierarchy as flat arrays, parents before children.
//!
//! A bone's bind pose is its local SRT relative to its parent; its inverse bind ("bone offset") matrix takes a
//! model-space bind-pose vertex into the bone's space. Owns only data and its consistency checks; pose maths
//! lives in `anim`.

use glam::{Mat4, Quat, Vec3};
use serde::Serialize;

/// A local scale / rotation / translation. As a matrix it applies scale first, then rotation, then translation
/// (glam column vectors: `T * R * S`; the row-vector `S * R * T` of the D3DX literature).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Transform {
    pub translation: Vec3,
    pub rotation: Quat,
    pub scale: Vec3,
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    pub const IDENTITY: Self = Self { translation: Vec3::ZERO, rotation: Quat::IDENTITY, scale: Vec3::ONE };

    pub fn new(translation: Vec3, rotation: Quat, scale: Vec3) -> Self {
        Self { translation, rotation, scale }
    }

    pub fn from_translation_rotation(translation: Vec3, rotation: Quat) -> Self {
        Self { translation, rotation, scale: Vec3::ONE }
    }

    /// The to-parent matrix.
    pub fn to_matrix(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }

    /// Decomposes an affine matrix. Shear is lost; mirrored matrices come back with a negative scale.
    pub fn from_matrix(m: &Mat4) -> Self {
        let (scale, rotation, translation) = m.to_scale_rotation_translation();
        Self { translation, rotation: rotation.normalize(), scale }
    }
}

/// What is wrong with a skeleton's arrays.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SkeletonError {
    #[error(
        "skeleton arrays differ in length: {names} names, {parents} parents, {bind} bind transforms, {inverse} inverse bind matrices"
    )]
    LengthMismatch { names: usize, parents: usize, bind: usize, inverse: usize },
    #[error("bone {bone} ('{name}') has parent {parent}, which does not come before it")]
    ParentNotBefore { bone: usize, name: String, parent: usize },
    #[error("a buffer holds {found} entries, the skeleton has {expected} bones")]
    BufferLength { expected: usize, found: usize },
}

/// The hierarchy. All arrays have one entry per bone; `parents[i] < i` for every bone that has a parent.
#[derive(Clone, Debug, Default)]
pub struct Skeleton {
    pub names: Vec<String>,
    pub parents: Vec<Option<usize>>,
    /// Bind (reference) pose, local to the parent.
    pub bind_local: Vec<Transform>,
    /// Inverse of each bone's bind to-root matrix (the bone offset matrix).
    pub inverse_bind: Vec<Mat4>,
}

impl Skeleton {
    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Appends a bone; returns its index. The caller keeps parents first.
    pub fn push(&mut self, name: impl Into<String>, parent: Option<usize>, bind_local: Transform) -> usize {
        self.names.push(name.into());
        self.parents.push(parent);
        self.bind_local.push(bind_local);
        self.inverse_bind.push(Mat4::IDENTITY);
        self.names.len() - 1
    }

    /// Checks the flat-array invariants every pose job relies on.
    pub fn validate(&self) -> Result<(), SkeletonError> {
        let n = self.names.len();
        if self.parents.len() != n || self.bind_local.len() != n || self.inverse_bind.len() != n {
            return Err(SkeletonError::LengthMismatch {
                names: n,
                parents: self.parents.len(),
                bind: self.bind_local.len(),
                inverse: self.inverse_bind.len(),
            });
        }
        for (bone, parent) in self.parents.iter().enumerate() {
            if let Some(p) = *parent
                && p >= bone
            {
                return Err(SkeletonError::ParentNotBefore { bone, name: self.names[bone].clone(), parent: p });
            }
        }
        Ok(())
    }

    /// Bind to-root matrices (one forward pass).
    pub fn bind_to_root(&self) -> Vec<Mat4> {
        let mut out: Vec<Mat4> = Vec::with_capacity(self.bind_local.len());
        for (i, local) in self.bind_local.iter().enumerate() {
            let local = local.to_matrix();
            let parent = self.parents.get(i).copied().flatten().and_then(|p| out.get(p).copied());
            out.push(parent.map_or(local, |p| p * local));
        }
        out
    }

    /// Sets every inverse bind matrix from the bind pose: the right thing for formats whose vertices are stored
    /// in model space at the bind pose (PSK, SMD, ASE).
    pub fn recompute_inverse_bind(&mut self) {
        self.inverse_bind = self.bind_to_root().iter().map(Mat4::inverse).collect();
    }

    /// Index of the bone with this name, compared case-insensitively and trimmed of spaces and NULs
    /// (how PSA/SMD/ASE tools match bones). Call once when binding, never per frame.
    pub fn find(&self, name: &str) -> Option<usize> {
        let wanted = normalize_bone_name(name);
        self.names.iter().position(|n| normalize_bone_name(n) == wanted)
    }

    /// Children lists, for outliners and tree printing.
    pub fn children(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.len()];
        for (i, p) in self.parents.iter().enumerate() {
            if let Some(p) = *p
                && p < out.len()
            {
                out[p].push(i);
            }
        }
        out
    }
}

/// An order in which every parent comes before its children: the file's order when it already is one (the
/// usual case), otherwise a depth-first walk from the roots in file order. `Err(i)` names a bone in a cycle.
pub fn parent_first_order(parents: &[Option<usize>]) -> Result<Vec<usize>, usize> {
    if parents.iter().enumerate().all(|(i, p)| p.is_none_or(|p| p < i)) {
        return Ok((0..parents.len()).collect());
    }
    let mut children = vec![Vec::new(); parents.len()];
    for (i, p) in parents.iter().enumerate() {
        if let Some(p) = *p {
            children[p].push(i);
        }
    }
    let mut order = Vec::with_capacity(parents.len());
    let mut stack: Vec<usize> = parents.iter().enumerate().rev().filter(|(_, p)| p.is_none()).map(|(i, _)| i).collect();
    while let Some(i) = stack.pop() {
        order.push(i);
        stack.extend(children[i].iter().rev());
    }
    if order.len() == parents.len() {
        return Ok(order);
    }
    let mut placed = vec![false; parents.len()];
    for &i in &order {
        placed[i] = true;
    }
    Err(placed.iter().position(|p| !p).unwrap_or(0))
}

/// The key bones are matched by across files.
pub fn normalize_bone_name(name: &str) -> String {
    name.trim_matches(|c: char| c == '\0' || c.is_whitespace()).to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validate_rejects_child_before_parent() {
        let mut s = Skeleton::default();
        s.push("a", None, Transform::IDENTITY);
        s.push("b", Some(1), Transform::IDENTITY);
        assert!(matches!(s.validate(), Err(SkeletonError::ParentNotBefore { bone: 1, .. })));
    }

    #[test]
    fn find_is_case_insensitive_and_trimmed() {
        let mut s = Skeleton::default();
        s.push("Bip01 Spine", None, Transform::IDENTITY);
        assert_eq!(s.find(" bip01 SPINE\0"), Some(0));
        assert_eq!(s.find("Bip01"), None);
    }
}
