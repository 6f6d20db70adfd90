//! The skeleton of a model DMX and where its meshes hang: the `DmeModel`'s tree of `DmeJoint`s and `DmeDag`s,
//! their bind transforms, the joint list that mesh weights index, and the axis system. Owns no mesh data
//! (`mesh`) and no animation (`animation`).
//!
//! Reading, as Blender Source Tools' `import_smd.py` (`readDMX`: `enumerateBonesAndAttachments`,
//! `get_transform_matrix`, `parseModel`) reads what its `export_smd.py` (`writeDMX`) writes:
//! - **Bones** are the `DmeJoint`s and `DmeDag`s below the `DmeModel` (`children`, depth first, parents before
//!   children; a `DmeModel` among the children is walked through) that have no `shape`. A `DmeDag` whose
//!   `shape` is a `DmeMesh` holds a mesh; one whose shape is a `DmeAttachment` is an attachment (not read).
//! - **Bind transforms**: a bone's `transform` (`position`, `orientation` as x, y, z, w), relative to its
//!   parent; where the model has `baseStates`, the transform of the same name in the first base state is the
//!   bind pose instead (what Blender Source Tools does: a model's `transform`s may hold a posed state).
//! - **Joint list**: mesh weights index `jointList` (format 11 on; `jointTransforms`, the joints' transforms,
//!   before). In Source 2 files (Blender Source Tools' format 22) the list starts with the `DmeModel` itself,
//!   "index 0 is the DmeModel", and vertices without weights are bound to it: the model is then a bone of its
//!   own, the root, so those vertices stay where they are. A list entry that is not a bone (a mesh's `DmeDag`)
//!   stands for the nearest bone above it.
//! - **Where a mesh is**: its vertices are in its `DmeDag`'s space; the dag's place in the model is the product
//!   of the transforms from the model down to it (joints included: a `DmeJoint` is a kind of `DmeDag`). The
//!   `DmeModel`'s own `transform` is not applied (Blender Source Tools ignores it too; its exporters write the
//!   identity).
//! - **Axes**: the model's `DmeAxisSystem` (`upAxis` 1/2/3 = X/Y/Z, negative for −; `coordSys` 1 left-handed),
//!   else its older `upAxis` string, else Z up (Source 1 files, as SMD). Units are kept (Source units).
//!
//! The tree is walked once, with each element visited at most once (a file whose elements refer to each other
//! in a cycle cannot loop).

use std::collections::HashSet;

use glam::{Mat4, Quat, Vec3};
use rustc_hash::FxHashMap;

use super::graph::View;
use crate::io::LoadError;
use crate::scene::{AxisConversion, Reading, Skeleton, Transform, UpAxis, Warning};

/// The most bones a skeleton may have (vertex bone indices are 16-bit).
pub const MAX_BONES: usize = u16::MAX as usize;

/// A `DmeDag` that holds a `DmeMesh`.
#[derive(Clone, Copy, Debug)]
pub struct MeshDag<'a> {
    pub dag: View<'a>,
    pub mesh: View<'a>,
    /// The dag's space → model space, at the bind pose.
    pub world: Mat4,
    /// The nearest bone above the dag (rigid meshes follow it).
    pub parent_bone: Option<usize>,
}

/// The skeleton and everything the meshes and animations need to refer to it.
#[derive(Debug, Default)]
pub struct Rig<'a> {
    pub skeleton: Skeleton,
    /// Bone of each bone element.
    pub bone_of_element: FxHashMap<u32, usize>,
    /// Bone whose `transform` is this element (animation channels drive transforms).
    pub bone_of_transform: FxHashMap<u32, usize>,
    /// For each entry of the joint list, the bone it stands for.
    pub joint_bones: Vec<Option<usize>>,
    pub meshes: Vec<MeshDag<'a>>,
    /// The bone made for the `DmeModel` itself (Source 2 joint lists).
    pub model_bone: Option<usize>,
    /// Elements the walk met that it could not place, for one warning.
    pub skipped_attachments: usize,
}

/// A transform element's bind transform.
fn transform_of(t: View) -> Result<Transform, LoadError> {
    let position = t.vector3("position")?.copied().unwrap_or(Vec3::ZERO);
    let orientation = t.quaternion("orientation")?.copied().unwrap_or(Quat::IDENTITY);
    Ok(Transform::from_translation_rotation(position, orientation))
}

/// Makes a file's quaternion usable: normalised, or the identity when it has no length or is not finite.
pub fn usable_rotation(q: Quat, bad: &mut usize) -> Quat {
    let len = q.length();
    if len.is_finite() && len > 1e-6 {
        q / len
    } else {
        *bad += 1;
        Quat::IDENTITY
    }
}

/// Reads the skeleton and the mesh dags below `model`.
pub fn rig<'a>(model: View<'a>, warnings: &mut Vec<Warning>) -> Result<Rig<'a>, LoadError> {
    // The first base state, by name.
    let mut base: FxHashMap<&'a str, Transform> = FxHashMap::default();
    if let Some(state) = model.children("baseStates")?.first() {
        for t in state.children("transforms")? {
            if !base.contains_key(t.name()) {
                base.insert(t.name(), transform_of(t)?);
            }
        }
    }
    let mut bad_rotations = 0usize;
    let local = |elem: View<'a>, bad: &mut usize| -> Result<Transform, LoadError> {
        let mut t = match base.get(elem.name()) {
            Some(t) if !base.is_empty() => *t,
            _ => match elem.child("transform")? {
                Some(t) => transform_of(t)?,
                None => Transform::IDENTITY,
            },
        };
        t.rotation = usable_rotation(t.rotation, bad);
        if !t.translation.is_finite() {
            *bad += 1;
            t.translation = Vec3::ZERO;
        }
        Ok(t)
    };

    let mut rig = Rig::default();
    let joint_list = model.children("jointList")?;
    let model_is_joint = joint_list.first().is_some_and(|j| j.index == model.index);
    let mut visited: HashSet<u32> = HashSet::new();
    visited.insert(model.index);
    let mut root_parent = None;
    if model_is_joint {
        let t = local(model, &mut bad_rotations)?;
        let bone = rig.skeleton.push(model.name(), None, t);
        rig.bone_of_element.insert(model.index, bone);
        if let Some(tr) = model.child("transform")? {
            rig.bone_of_transform.insert(tr.index, bone);
        }
        rig.model_bone = Some(bone);
        root_parent = Some(bone);
    }
    let root_world = root_parent.map_or(Mat4::IDENTITY, |b| rig.skeleton.bind_local[b].to_matrix());
    // Depth first, children in order: a stack of (element, parent bone, parent's world), pushed in reverse.
    let mut stack: Vec<(View<'a>, Option<usize>, Mat4)> = Vec::new();
    push_children(&mut stack, model, root_parent, root_world)?;
    while let Some((elem, parent, parent_world)) = stack.pop() {
        if !visited.insert(elem.index) {
            continue;
        }
        match elem.class() {
            "DmeModel" => push_children(&mut stack, elem, parent, parent_world)?,
            "DmeDag" | "DmeJoint" => {
                let t = local(elem, &mut bad_rotations)?;
                let world = parent_world * t.to_matrix();
                match elem.child("shape")? {
                    Some(shape) if shape.class() == "DmeMesh" => {
                        rig.meshes.push(MeshDag { dag: elem, mesh: shape, world, parent_bone: parent });
                        push_children(&mut stack, elem, parent, world)?;
                    }
                    Some(_) => rig.skipped_attachments += 1,
                    None => {
                        if rig.skeleton.len() >= MAX_BONES {
                            return Err(elem.error("children", format!("more than {MAX_BONES} bones")));
                        }
                        let bone = rig.skeleton.push(elem.name(), parent, t);
                        rig.bone_of_element.insert(elem.index, bone);
                        if let Some(tr) = elem.child("transform")? {
                            rig.bone_of_transform.insert(tr.index, bone);
                        }
                        push_children(&mut stack, elem, Some(bone), world)?;
                    }
                }
            }
            _ => {}
        }
    }
    if bad_rotations > 0 {
        warnings.push(Warning::new(
            model.at(),
            format!("{bad_rotations} transform(s) with a rotation of no length or a value that is not a number; read as none"),
        ));
    }
    rig.skeleton.recompute_inverse_bind();

    // The list weights index: `jointList`, or (before format 11) the joints' transforms.
    let mesh_parent: FxHashMap<u32, Option<usize>> = rig.meshes.iter().map(|m| (m.dag.index, m.parent_bone)).collect();
    if !joint_list.is_empty() {
        rig.joint_bones = joint_list
            .iter()
            .map(|j| {
                rig.bone_of_element.get(&j.index).copied().or_else(|| mesh_parent.get(&j.index).copied().flatten())
            })
            .collect();
    } else {
        rig.joint_bones =
            model.children("jointTransforms")?.iter().map(|t| rig.bone_of_transform.get(&t.index).copied()).collect();
    }
    Ok(rig)
}

fn push_children<'a>(
    stack: &mut Vec<(View<'a>, Option<usize>, Mat4)>,
    elem: View<'a>,
    parent: Option<usize>,
    world: Mat4,
) -> Result<(), LoadError> {
    for child in elem.children("children")?.into_iter().rev() {
        stack.push((child, parent, world));
    }
    Ok(())
}

/// The model's axes as the viewer's conversion, and how they were read.
pub fn axes(model: Option<View>) -> Result<(AxisConversion, Reading), LoadError> {
    let topic = "axes";
    let Some(model) = model else {
        return Ok((
            AxisConversion::z_up_right_handed(),
            Reading::assumed(topic, "right-handed Z up (Source)", "the file has no DmeModel"),
        ));
    };
    if let Some(system) = model.child("axisSystem")? {
        let up = system.int("upAxis")?.unwrap_or(3);
        let left_handed = system.int("coordSys")?.unwrap_or(0) == 1;
        let parity = system.int("forwardParity")?.unwrap_or(1);
        let axis = match up {
            1 => UpAxis::PlusX,
            2 => UpAxis::PlusY,
            -1 => UpAxis::MinusX,
            -2 => UpAxis::MinusY,
            -3 => UpAxis::MinusZ,
            _ => UpAxis::PlusZ,
        };
        let mut conversion = AxisConversion::IDENTITY;
        if left_handed {
            conversion = AxisConversion::unity_left_handed();
        }
        let conversion =
            AxisConversion { description: axis_description(axis, left_handed), ..conversion.with_file_up(axis) };
        let basis = format!(
            "DmeAxisSystem: upAxis {up}, forwardParity {parity}, coordSys {}",
            if left_handed { "1 (left-handed)" } else { "0 (right-handed)" }
        );
        return Ok((conversion, Reading::new(topic, conversion.description, basis)));
    }
    if let Some(up) = model.string("upAxis")? {
        let axis = match up.trim().to_ascii_uppercase().as_str() {
            "X" => UpAxis::PlusX,
            "Y" => UpAxis::PlusY,
            _ => UpAxis::PlusZ,
        };
        let conversion = AxisConversion {
            description: axis_description(axis, false),
            ..AxisConversion::IDENTITY.with_file_up(axis)
        };
        return Ok((conversion, Reading::new(topic, conversion.description, format!("DmeModel upAxis \"{up}\""))));
    }
    let conversion = AxisConversion::z_up_right_handed();
    Ok((
        conversion,
        Reading::assumed(
            topic,
            "right-handed Z up (Source), as SMD",
            "the DmeModel has no axisSystem: Source 1 model DMX, whose exporters write Source's frame",
        ),
    ))
}

fn axis_description(axis: UpAxis, left_handed: bool) -> &'static str {
    match (axis, left_handed) {
        (UpAxis::PlusZ, false) => "right-handed Z up → Y up: (x, y, z) → (x, z, −y)",
        (UpAxis::PlusY, false) => "none (already right-handed, Y up)",
        (UpAxis::PlusX, false) => "right-handed X up, turned so X is up",
        (UpAxis::MinusX, false) => "right-handed −X up, turned so −X is up",
        (UpAxis::MinusY, false) => "right-handed −Y up, turned so −Y is up",
        (UpAxis::MinusZ, false) => "right-handed −Z up, turned so −Z is up",
        (_, true) => "left-handed (DmeAxisSystem coordSys 1): mirrored in z, then turned so the up axis is up",
    }
}
