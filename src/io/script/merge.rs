//! Putting several mesh files into one character: one skeleton (the union of the files' bones, matched by
//! name, the first file's bones first), every file's materials and meshes, joint indices remapped.
//!
//! studiomdl does the same when a QC names several reference SMDs (its `simplify_model`: one bone table, bones
//! matched by name, a bone whose parent differs between files is an error there — a warning here). Each
//! studiomdl submodel keeps its vertices relative to its own file's bind pose; where a file's bind pose of a
//! bone differs from the character's, its vertices are moved onto the character's bind pose (`p' = Σ wᵢ ·
//! bind_characterᵢ · bind_fileᵢ⁻¹ · p`), which is what the compiled model shows.

use std::collections::HashMap;

use glam::Mat4;

use crate::scene::{Asset, Warning, normalize_bone_name};

/// Largest difference between two bind matrices' entries treated as the same pose.
const SAME_POSE: f32 = 1e-3;

/// Adds `part`'s skeleton, materials and meshes to `character`; returns the indices of the meshes added.
/// `label` names the part in warnings.
pub fn add_part(character: &mut Asset, part: Asset, label: &str, warnings: &mut Vec<Warning>) -> Vec<usize> {
    if character.skeleton.is_empty() && character.meshes.is_empty() {
        // The character's frame is this first part's, and so is how its axes were read (a Gothic morph-mesh head
        // is turned upright: the reading says why).
        let axes_readings: Vec<_> = part.readings.iter().filter(|r| r.topic == "axes").cloned().collect();
        character.take_readings_of(part.path.as_deref(), axes_readings);
        character.skeleton = part.skeleton;
        character.axes = part.axes;
        character.materials = part.materials;
        character.meshes = part.meshes;
        return (0..character.meshes.len()).collect();
    }
    let map = add_bones(character, &part, label, warnings);
    let corrections = bind_corrections(character, &part, &map);
    if corrections.iter().any(Option::is_some) {
        let moved = corrections.iter().filter(|c| c.is_some()).count();
        warnings.push(Warning::new(
            "",
            format!(
                "{label}: the bind pose of {moved} bone(s) differs from the first mesh file's; its vertices were moved \
                 onto the shared skeleton"
            ),
        ));
    }
    let material_map = crate::scene::parts::add_materials(&mut character.materials, part.materials);
    let mut added = Vec::with_capacity(part.meshes.len());
    for mut mesh in part.meshes {
        crate::scene::parts::rebind_vertices(&mut mesh, &corrections);
        for joints in &mut mesh.joints {
            for j in joints.iter_mut() {
                *j = map.get(usize::from(*j)).copied().and_then(|m| u16::try_from(m).ok()).unwrap_or(0);
            }
        }
        for s in &mut mesh.subsets {
            s.material = material_map.get(s.material).copied().unwrap_or(s.material);
        }
        character.meshes.push(mesh);
        added.push(character.meshes.len() - 1);
    }
    added
}

/// Takes only `part`'s skeleton (MDS `meshAndTree … DONT_USE_MESH`): the character's bones, when it has none.
pub fn add_skeleton_only(character: &mut Asset, part: &Asset, label: &str, warnings: &mut Vec<Warning>) {
    if character.skeleton.is_empty() {
        character.skeleton = part.skeleton.clone();
        character.axes = part.axes;
    } else {
        add_bones(character, part, label, warnings);
    }
}

/// Maps every bone of `part` to the character's, adding the missing ones (parents first is kept: a part's
/// parent comes before its child, so it is mapped before it).
fn add_bones(character: &mut Asset, part: &Asset, label: &str, warnings: &mut Vec<Warning>) -> Vec<usize> {
    let mut by_name: HashMap<String, usize> =
        character.skeleton.names.iter().enumerate().map(|(i, n)| (normalize_bone_name(n), i)).collect();
    let mut map = Vec::with_capacity(part.skeleton.len());
    let mut reparented = Vec::new();
    let mut added = Vec::new();
    for (j, name) in part.skeleton.names.iter().enumerate() {
        let parent = part.skeleton.parents.get(j).copied().flatten().and_then(|p| map.get(p).copied());
        let key = normalize_bone_name(name);
        match by_name.get(&key) {
            Some(&i) => {
                if character.skeleton.parents.get(i).copied().flatten() != parent {
                    reparented.push(name.clone());
                }
                map.push(i);
            }
            None => {
                let bind = part.skeleton.bind_local.get(j).copied().unwrap_or_default();
                let i = character.skeleton.push(name.clone(), parent, bind);
                by_name.insert(key, i);
                added.push(i);
                map.push(i);
            }
        }
    }
    if !added.is_empty() {
        let to_root = character.skeleton.bind_to_root();
        for &i in &added {
            if let (Some(inv), Some(m)) = (character.skeleton.inverse_bind.get_mut(i), to_root.get(i)) {
                *inv = m.inverse();
            }
        }
    }
    if !reparented.is_empty() {
        warnings.push(Warning::new(
            "",
            format!(
                "{label}: {} bone(s) have a different parent than in the first mesh file (studiomdl refuses this); the \
                 first file's hierarchy is kept: {}",
                reparented.len(),
                reparented.join(", ")
            ),
        ));
    }
    map
}

/// For each bone of `part`: the matrix taking its vertices from the part's bind pose to the character's, when
/// the two differ.
fn bind_corrections(character: &Asset, part: &Asset, map: &[usize]) -> Vec<Option<Mat4>> {
    let character_to_root = character.skeleton.bind_to_root();
    (0..part.skeleton.len())
        .map(|j| {
            let (Some(&i), Some(part_inverse)) = (map.get(j), part.skeleton.inverse_bind.get(j)) else { return None };
            let shared = character_to_root.get(i)?;
            let correction = *shared * *part_inverse;
            let identity = correction.abs_diff_eq(Mat4::IDENTITY, SAME_POSE);
            (!identity).then_some(correction)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Format, Material, Mesh, Subset, Transform};
    use glam::Vec3;

    fn part(bones: &[(&str, Option<usize>, Vec3)], material: &str) -> Asset {
        let mut a = Asset::new(Format::Smd);
        for (name, parent, t) in bones {
            a.skeleton.push(*name, *parent, Transform::from_translation_rotation(*t, glam::Quat::IDENTITY));
        }
        a.skeleton.recompute_inverse_bind();
        a.materials.push(Material::named(material));
        let last = (bones.len() - 1) as u16;
        a.meshes.push(Mesh {
            positions: vec![Vec3::ZERO, Vec3::X, Vec3::Y],
            normals: vec![Vec3::Z; 3],
            uvs: vec![glam::Vec2::ZERO; 3],
            joints: vec![[last, 0, 0, 0]; 3],
            weights: vec![[1.0, 0.0, 0.0, 0.0]; 3],
            indices: vec![0, 1, 2],
            subsets: vec![Subset { material: 0, first_index: 0, index_count: 3 }],
            ..Mesh::default()
        });
        a
    }

    #[test]
    fn bones_are_matched_by_name_and_missing_ones_added() {
        let mut character = Asset::new(Format::Qc);
        let mut w = Vec::new();
        add_part(&mut character, part(&[("root", None, Vec3::ZERO), ("head", Some(0), Vec3::Z)], "skin"), "a", &mut w);
        let added = add_part(
            &mut character,
            part(&[("ROOT", None, Vec3::ZERO), ("hat", Some(0), Vec3::new(0.0, 0.0, 2.0))], "hat"),
            "b",
            &mut w,
        );
        assert_eq!(character.skeleton.names, ["root", "head", "hat"]);
        assert_eq!(character.skeleton.parents[2], Some(0));
        assert_eq!(added, [1]);
        assert_eq!(character.meshes[1].joints[0][0], 2, "the hat's bone 1 is the character's bone 2");
        assert_eq!(character.meshes[1].subsets[0].material, 1);
        assert!(w.is_empty(), "{w:?}");
        character.skeleton.validate().unwrap();
    }

    #[test]
    fn a_different_bind_pose_moves_the_vertices_onto_the_shared_one() {
        let mut character = Asset::new(Format::Qc);
        let mut w = Vec::new();
        add_part(&mut character, part(&[("root", None, Vec3::ZERO)], "m"), "a", &mut w);
        // The second file's root sits 5 units up: its vertices are relative to that.
        add_part(&mut character, part(&[("root", None, Vec3::new(0.0, 0.0, 5.0))], "m"), "b", &mut w);
        assert_eq!(character.meshes[1].positions[1], Vec3::new(1.0, 0.0, -5.0));
        assert_eq!(w.len(), 1);
        assert_eq!(character.materials.len(), 1, "same material reused");
    }
}
