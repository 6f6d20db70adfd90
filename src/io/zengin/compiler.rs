//! What the engine's compiler did to the ASC sources when it made the compiled files, so that compiled data
//! and source data meet: the frame it wrote in, the order of the hierarchy's nodes, and the node-list checksum
//! that ties animations and soft-skin meshes to a hierarchy.
//!
//! All three are read from ZenGin's own `zModelProto.cpp` (Piranha Bytes, rev. 39 of 24.04.01, as published in
//! the public source archives; ZenKit follows the same files):
//!
//! - **Frame.** `ConvertVec3` turns every 3ds Max point `(x, y, z)` into `(−x, z, −y)` (call it `C`): the engine
//!   is left-handed with Y up. `ReadNodeTM` rebuilds each node's world matrix from its rotation axis (converted
//!   by `C`) and angle and its scale signs (converted and normalised), which for an unmirrored node comes to
//!   `W_engine = C · W_max · D` with `D` the swap of Y and Z. So a local transform below the root is
//!   `L_engine = D · L_max · D` and the root's (a world transform) is `C · L_max · D`. The translations of the
//!   corpus's `HUMANS-S_FISTRUN.MAN` agree: every bone offset of `HUM_BODY_NAKED0.ASC` appears with Y and Z
//!   swapped. A compiled file is shown with `(x, y, z) → (−x, y, z)`, which makes it stand exactly as its source
//!   does under the ASC's own conversion.
//! - **Node order.** `ReadGeomobject` appends each `*GEOMOBJECT`/`*HELPEROBJECT` to the node list in file order
//!   (a node after its parent), upper-cased, except: names without a `BIP01`, `ZM_` or `ZS_` part (`Dummy`
//!   helpers), `BIP01 … FOOTSTEPS` and `SCHRITTE` nodes, nodes whose parent was left out, and `ZM_` mesh nodes
//!   whose mesh the compiler moved elsewhere (`ProcessMeshNode`: a soft-skin mesh node, and an unanimated rigid
//!   mesh hung on a `BIP01` node that has no mesh yet, whose mesh moves up onto that node). Here the first `ZM_`
//!   node under each `BIP01` node is taken for such a mesh node: a skeleton alone does not say which nodes held
//!   meshes or were animated, and the checksum below tells when the guess is wrong (a hierarchy read from a
//!   compiled file needs no guess: its order is its own).
//! - **Checksum.** `CalcNodeListChecksum` runs `zCChecksum` (CRC-32) over the node names, concatenated in list
//!   order. The `.MDH` stores it; every `.MAN` (`SaveMAN`) and the soft-skin list of every `.MDM` (`SaveMDM`)
//!   store the checksum of the hierarchy they were made for, and `LoadMAN` rejects an animation whose checksum
//!   differs. CRC-32 of `HUM_BODY_NAKED0.ASC`'s 34 kept names is 3325331650, the value in both corpus MANs.

use glam::{Mat3, Mat4, Quat, Vec3};

use crate::scene::{Asset, AxisConversion, Format, Skeleton, Transform};

/// The viewer's conversion of compiled ZenGin data: the engine's left-handed Y-up frame mirrored in X.
pub fn engine_axes() -> AxisConversion {
    AxisConversion {
        to_viewer: Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0)),
        description: "ZenGin engine frame (left-handed, Y up, compiled by (x, y, z) → (−x, z, −y) from 3ds Max) → \
                      right-handed Y up: (x, y, z) → (−x, y, z), as its ASC source stands",
    }
}

/// `C`: a 3ds Max point in the engine's frame.
fn max_to_engine() -> Mat3 {
    Mat3::from_cols(-Vec3::X, -Vec3::Z, Vec3::Y)
}

/// `D`: the engine's node axes from the Max node's (Y and Z swapped).
fn node_basis() -> Mat3 {
    Mat3::from_cols(Vec3::X, Vec3::Z, Vec3::Y)
}

/// An engine point or direction in the 3ds Max frame of the sources (`C⁻¹`).
pub fn engine_point_to_source(p: Vec3) -> Vec3 {
    max_to_engine().transpose() * p
}

/// A compiled local transform (an animation sample, an `.MDH` node) in the frame of a skeleton read from the
/// sources: `D · L · D` below the root, `C⁻¹ · L · D` for a root.
pub fn engine_local_to_source(local: Mat4, is_root: bool) -> Mat4 {
    let d = Mat4::from_mat3(node_basis());
    let left = if is_root { Mat4::from_mat3(max_to_engine().transpose()) } else { d };
    left * local * d
}

/// The inverse of [`engine_local_to_source`]: a local transform of a source skeleton as the compiler stores it
/// (`C · L · D` for a root, `D · L · D` below it).
pub fn source_local_to_engine(local: Mat4, is_root: bool) -> Mat4 {
    let d = Mat4::from_mat3(node_basis());
    let left = if is_root { Mat4::from_mat3(max_to_engine()) } else { d };
    left * local * d
}

/// A point stored in a compiled node's frame (a soft-skin weight's position) in the source node's frame (`D`).
pub fn engine_node_point_to_source(p: Vec3) -> Vec3 {
    node_basis() * p
}

/// Which frame a skeleton is in, and so how compiled data must be turned to fit it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame {
    /// The engine's (a compiled hierarchy): compiled data fits as it is.
    Engine,
    /// 3ds Max's, as the ASC sources and everything bonescope builds from them are.
    Source,
}

/// Compiled formats, whose skeletons are in the engine's frame and in hierarchy order.
pub fn is_compiled(format: Option<Format>) -> bool {
    matches!(
        format,
        Some(Format::ZenMdh | Format::ZenMdm | Format::ZenMdl | Format::ZenMan | Format::ZenMmb | Format::ZenMrm)
    )
}

/// The CRC-32 of the names concatenated, upper-cased (the engine upper-cases node names when it reads them).
pub fn node_list_checksum<'a>(names: impl IntoIterator<Item = &'a str>) -> u32 {
    let mut crc = crc32fast::Hasher::new();
    for name in names {
        crc.update(name.to_uppercase().as_bytes());
    }
    crc.finalize()
}

/// The bones of a skeleton read from an ASC that the compiler keeps, in hierarchy order (see the module notes).
/// The skeleton's order is the file's (the ASC loader keeps it when parents come first, which the compiler
/// requires too).
pub fn compiled_node_order(skeleton: &Skeleton) -> Vec<usize> {
    let mut kept = vec![false; skeleton.len()];
    // A `BIP01` node takes the mesh of the first `ZM_` node hung on it (that node is then left out); a second
    // one stays a node of its own.
    let mut took_mesh = vec![false; skeleton.len()];
    let mut order = Vec::new();
    for (b, name) in skeleton.names.iter().enumerate() {
        let upper = name.to_uppercase();
        let legal = upper.contains("BIP01") || upper.contains("ZM_") || upper.contains("ZS_");
        let footsteps = upper.contains("BIP01") && (upper.contains(" FOOTSTEPS") || upper.contains("SCHRITTE"));
        let parent = skeleton.parents.get(b).copied().flatten();
        let parent_kept = parent.is_none_or(|p| kept.get(p).copied().unwrap_or(false));
        let bip_parent = parent.filter(|&p| skeleton.names.get(p).is_some_and(|n| n.to_uppercase().contains("BIP01")));
        let folded_mesh = upper.contains("ZM_")
            && !upper.contains("ZS_")
            && bip_parent.is_some_and(|p| !std::mem::replace(&mut took_mesh[p], true));
        if legal && !footsteps && parent_kept && !folded_mesh {
            kept[b] = true;
            order.push(b);
        }
    }
    order
}

/// How an asset's skeleton lines up with a compiled hierarchy: its frame, the bone of each hierarchy node, and
/// the checksum of that node list.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeMap {
    pub frame: Frame,
    /// Hierarchy node index → skeleton bone.
    pub bones: Vec<usize>,
    pub checksum: u32,
}

impl NodeMap {
    /// The map of an asset: a compiled one's skeleton is the hierarchy itself; a skeleton read from sources is
    /// ordered as the compiler orders it.
    pub fn of(asset: &Asset) -> Self {
        let frame = if is_compiled(asset.format) { Frame::Engine } else { Frame::Source };
        let bones = if frame == Frame::Engine {
            (0..asset.skeleton.len()).collect()
        } else {
            compiled_node_order(&asset.skeleton)
        };
        let checksum =
            node_list_checksum(bones.iter().filter_map(|&b| asset.skeleton.names.get(b).map(String::as_str)));
        Self { frame, bones, checksum }
    }

    /// The map whose node list has checksum `checksum`, when one of the two orders gives it: the skeleton's own
    /// (a skeleton read from a compiled hierarchy, whatever file it came in) or the compiler's order of a source
    /// skeleton. Else the map [`NodeMap::of`] makes. The checksum settles what the format alone cannot: a model
    /// script may hold a skeleton from a `.MDH` in the sources' frame.
    pub fn for_checksum(asset: &Asset, checksum: u32) -> Self {
        let mut map = Self::of(asset);
        if map.checksum != checksum {
            let all: Vec<usize> = (0..asset.skeleton.len()).collect();
            let compiled = compiled_node_order(&asset.skeleton);
            for bones in [all, compiled] {
                let crc =
                    node_list_checksum(bones.iter().filter_map(|&b| asset.skeleton.names.get(b).map(String::as_str)));
                if crc == checksum {
                    map.bones = bones;
                    map.checksum = crc;
                    break;
                }
            }
        }
        map
    }

    /// The skeleton bone of hierarchy node `node`.
    pub fn bone(&self, node: usize) -> Option<usize> {
        self.bones.get(node).copied()
    }
}

/// A compiled local rotation and translation (an animation sample, in glam's sense) as the skeleton's frame wants
/// it: [`local_in`] without the matrices, for the many samples of an animation. A reflection `M` turns a rotation
/// into `(−M) R (−M)⁻¹`, a rotation by the proper rotation `−M`: so `D R D` is the quaternion `p q p⁻¹` with
/// `p` the rotation `−D`, and the root's `C⁻¹ R D` is `r q r⁻¹ · s` with `r` the rotation `−C⁻¹` and `s` the
/// rotation `C⁻¹ D` (a half turn about Z).
pub fn sample_in(frame: Frame, rotation: Quat, translation: Vec3, is_root: bool) -> Transform {
    match frame {
        Frame::Engine => Transform::from_translation_rotation(translation, rotation),
        Frame::Source if is_root => {
            let c_inv = max_to_engine().transpose();
            let r = Quat::from_mat3(&-c_inv);
            let s = Quat::from_mat3(&(c_inv * node_basis()));
            Transform::from_translation_rotation(c_inv * translation, (r * rotation * r.conjugate() * s).normalize())
        }
        Frame::Source => {
            let p = Quat::from_mat3(&-node_basis());
            Transform::from_translation_rotation(node_basis() * translation, (p * rotation * p.conjugate()).normalize())
        }
    }
}

/// A compiled local transform as the skeleton's frame wants it.
pub fn local_in(frame: Frame, local: Mat4, is_root: bool) -> Transform {
    let m = match frame {
        Frame::Engine => local,
        Frame::Source => engine_local_to_source(local, is_root),
    };
    Transform::from_matrix(&m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    #[test]
    fn a_world_transform_round_trips_through_the_engine_frame() {
        // A node's Max world matrix and its engine form W_e = C · W · D; its local below a parent likewise.
        let c = Mat4::from_mat3(max_to_engine());
        let d = Mat4::from_mat3(node_basis());
        let parent = Mat4::from_rotation_translation(Quat::from_rotation_z(0.7), Vec3::new(1.0, 2.0, 90.0));
        let child_local = Mat4::from_rotation_translation(Quat::from_rotation_y(-0.4), Vec3::new(12.0, 0.0, 3.0));
        let (pe, ce) = (c * parent * d, c * parent * child_local * d);
        let local_e = pe.inverse() * ce;
        assert!(engine_local_to_source(local_e, false).abs_diff_eq(child_local, 1e-4));
        assert!(engine_local_to_source(pe, true).abs_diff_eq(parent, 1e-4));
        assert!(source_local_to_engine(child_local, false).abs_diff_eq(local_e, 1e-4));
        assert!(source_local_to_engine(parent, true).abs_diff_eq(pe, 1e-4));
        // A point in the node's frame: W_e · p_e = C · W · (D · p_e).
        let p = Vec3::new(3.0, -2.0, 5.0);
        let world = engine_point_to_source(ce.transform_point3(p));
        assert!(world.abs_diff_eq((parent * child_local).transform_point3(engine_node_point_to_source(p)), 1e-3));
        // The viewer sees the engine point where the ASC conversion puts the Max point.
        let max = Vec3::new(4.0, 5.0, 6.0);
        let engine = max_to_engine() * max;
        let z_up = AxisConversion::z_up_right_handed();
        assert!(
            engine_axes().to_viewer.transform_point3(engine).abs_diff_eq(z_up.to_viewer.transform_point3(max), 1e-6)
        );
    }

    #[test]
    fn samples_turn_into_the_source_frame_as_their_matrices_do() {
        for (i, axis) in [Vec3::X, Vec3::new(0.3, -0.8, 0.5), Vec3::Z].into_iter().enumerate() {
            let q = Quat::from_axis_angle(axis.normalize(), 0.4 + i as f32);
            let t = Vec3::new(1.0, -2.0, 3.5);
            for root in [false, true] {
                let by_matrix = local_in(Frame::Source, Mat4::from_rotation_translation(q, t), root);
                let direct = sample_in(Frame::Source, q, t, root);
                assert!(direct.translation.abs_diff_eq(by_matrix.translation, 1e-5), "{root}");
                assert!(direct.rotation.dot(by_matrix.rotation).abs() > 1.0 - 1e-5, "{root}");
            }
        }
    }

    #[test]
    fn the_compiler_keeps_bip_and_slot_nodes_in_file_order() {
        let mut s = Skeleton::default();
        let t = Transform::IDENTITY;
        let root = s.push("Bip01", None, t);
        let pelvis = s.push("Bip01 Pelvis", Some(root), t);
        s.push("ZS_HELMET", Some(pelvis), t);
        let dummy = s.push("Dummy", Some(pelvis), t);
        s.push("Bip01 Child of dummy", Some(dummy), t);
        s.push("Bip01 Footsteps", Some(root), t);
        s.push("zm_Skin", Some(root), t);
        assert_eq!(compiled_node_order(&s), [0, 1, 2]);
        assert_eq!(node_list_checksum(["BIP01", "BIP01 PELVIS"]), node_list_checksum(["bip01bip01 pelvis"]));
    }
}
