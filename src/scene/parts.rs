//! Modular characters: skeletal meshes that share one skeleton (a body, a head, a shirt, boots — each exported
//! as its own PSK or reference SMD, as modern Unreal characters and many mods ship them) joined into one
//! character. A later file whose bones match the model's by name ([`match_tracks`], the rule animation binding
//! uses) adds its meshes to the model as further skinned meshes: their bone indices are remapped to the model's
//! skeleton, bones the part has and the model lacks are added under their named parent, and its materials are
//! appended. Where the part's bind pose disagrees with the model's, the disagreement is reported bone by bone and
//! the part's vertices are moved so that the model's skeleton reproduces them as the part's own skeleton would
//! (rigidly per bone: exact for vertices with one influence).
//!
//! Which meshes show is decided here too ([`Asset::hidden_meshes`]), for body groups of a model script and for
//! parts, so the viewer and `render` draw the same character.
//!
//! Pure data manipulation over [`Asset`]s; reads no files.

use std::path::PathBuf;

use glam::Mat4;

use super::{Asset, Position, Warning, match_tracks};

/// A file's meshes within a joined character, for the Files tab's visibility switches.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Part {
    /// What to call it: its file name, or "model" for one made by code.
    pub name: String,
    pub source: Option<PathBuf>,
    /// Indices into `Asset::meshes`.
    pub meshes: Vec<usize>,
}

/// What joining a part did.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct PartReport {
    /// How many meshes it added.
    pub meshes: usize,
    /// How many of its bones matched a bone of the model.
    pub bones_matched: usize,
    /// Bones it had and the model lacked, added under their named parents.
    pub bones_added: Vec<String>,
    /// Bones the part's vertices are weighted to whose bind pose differs between the part and the model, most
    /// different first.
    pub bind_differences: Vec<BindDifference>,
    /// The model's bone the part's meshes hang on rigidly (a Gothic head on `BIP01 HEAD`), when it was attached
    /// rather than joined by bone names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attached_to: Option<String>,
}

/// A bone whose bind to-root transform differs between a part and the model it joins.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BindDifference {
    pub bone: String,
    /// How far apart the bone's origins are, in the file's units.
    pub distance: f32,
    /// The angle between its orientations, in degrees.
    pub degrees: f32,
}

/// Origins closer than this fraction of the model's skeleton size, and orientations closer than
/// [`ANGLE_TOLERANCE_DEGREES`], are the same bind pose (exporters round differently).
const DISTANCE_TOLERANCE: f32 = 1e-3;
const ANGLE_TOLERANCE_DEGREES: f32 = 0.5;

/// Whether `other` is a part of `model` ([`not_a_part`] finds no reason against it).
pub fn is_part_of(model: &Asset, other: &Asset) -> bool {
    not_a_part(model, other).is_none()
}

/// Why `other` does not join `model` as a part, or `None` when it does. A part has meshes, is in the model's
/// frame, and its vertices follow the model's skeleton: the bones they are weighted to mostly (at least half of
/// them, and at least one) have a bone of the same name in the model, or each of them is such a bone or hangs
/// (through its named parents) from one, in a skeleton that is mostly the model's (at least half its bones, and
/// at least two, are named in the model). The second rule takes a head with face bones the body lacks (the
/// Unreal kit's head has 22 more bones than its body): its face bones are added under the head bone, whichever
/// file comes first.
pub fn not_a_part(model: &Asset, other: &Asset) -> Option<String> {
    if other.meshes.is_empty() {
        return Some("it has no mesh".to_owned());
    }
    if model.skeleton.is_empty() {
        return Some("the model has no skeleton to join it to".to_owned());
    }
    if model.axes.to_viewer != other.axes.to_viewer {
        return Some(format!(
            "it is in another frame ({}) than the model ({})",
            other.axes.description, model.axes.description
        ));
    }
    let used = used_bones(other);
    let matched = match_tracks(&model.skeleton, other.skeleton.names.iter().map(String::as_str));
    let used_count = used.iter().filter(|&&u| u).count();
    let used_matched = used.iter().zip(&matched).filter(|(u, m)| **u && m.is_some()).count();
    if used_matched > 0 && used_matched * 2 >= used_count {
        return None;
    }
    let anchored = anchored_bones(other, &matched);
    let loose: Vec<&str> = (0..other.skeleton.len())
        .filter(|&b| used.get(b).copied().unwrap_or(false) && !anchored.get(b).copied().unwrap_or(false))
        .filter_map(|b| other.skeleton.names.get(b).map(String::as_str))
        .collect();
    let matched_count = matched.iter().filter(|m| m.is_some()).count();
    if loose.is_empty() && used_count > 0 && matched_count >= 2 && matched_count * 2 >= other.skeleton.len() {
        return None;
    }
    let names = |list: &[&str]| {
        let shown: Vec<&str> = list.iter().take(6).copied().collect();
        let more = list.len().saturating_sub(shown.len());
        if more > 0 { format!("{}, … {more} more", shown.join(", ")) } else { shown.join(", ") }
    };
    if used_count == 0 {
        return Some("no vertex of it is weighted to a bone".to_owned());
    }
    if matched_count == 0 {
        let weighted: Vec<&str> = (0..other.skeleton.len())
            .filter(|&b| used.get(b).copied().unwrap_or(false))
            .filter_map(|b| other.skeleton.names.get(b).map(String::as_str))
            .collect();
        return Some(format!(
            "none of its {} bone(s) is named in the model (its vertices follow {})",
            other.skeleton.len(),
            names(&weighted)
        ));
    }
    if !loose.is_empty() {
        return Some(format!(
            "{used_matched} of the {used_count} bones its vertices are weighted to are in the model, and {} of the \
             others hang from no bone the model has: {}",
            loose.len(),
            names(&loose)
        ));
    }
    Some(format!("only {matched_count} of its {} bones are named in the model: another skeleton", other.skeleton.len()))
}

/// Which of `part`'s bones match a bone of the model (`matched`, by [`match_tracks`]) or hang from one through
/// their parents in the part's skeleton.
fn anchored_bones(part: &Asset, matched: &[Option<(usize, super::NameRule)>]) -> Vec<bool> {
    let skeleton = &part.skeleton;
    let mut anchored = vec![false; skeleton.len()];
    for b in 0..skeleton.len() {
        // Parents come first, so a parent's answer is known; a parent index that is not earlier (a broken
        // file) anchors nothing.
        let from_parent = skeleton.parents.get(b).copied().flatten().filter(|&p| p < b).is_some_and(|p| anchored[p]);
        anchored[b] = matched.get(b).is_some_and(Option::is_some) || from_parent;
    }
    anchored
}

/// Whether `other` is a part of the same character as `model`, judged without being told: a part
/// ([`is_part_of`]) whose bones it shares with the model stand exactly where the model's do. Different
/// characters rigged with the same bone names (every Biped rig is `Bip01 …`) have other proportions, so a
/// folder of them is not taken for one character; the parts of one character, exported from one rig, agree.
/// The bones compared are those the part's vertices are weighted to, or where none of them is the model's (a
/// head weighted to face bones alone), the bones of the model they hang from.
pub fn same_character(model: &Asset, other: &Asset) -> bool {
    if !is_part_of(model, other) {
        return false;
    }
    let matched = match_tracks(&model.skeleton, other.skeleton.names.iter().map(String::as_str));
    let (model_to_root, part_to_root) = (model.skeleton.bind_to_root(), other.skeleton.bind_to_root());
    let size = skeleton_size(model).max(f32::EPSILON);
    let used = used_bones(other);
    let mut compared = used.clone();
    if !used.iter().zip(&matched).any(|(u, m)| *u && m.is_some()) {
        // The matched ancestors of the weighted bones.
        for b in (0..other.skeleton.len()).filter(|&b| used.get(b).copied().unwrap_or(false)) {
            let mut at = other.skeleton.parents.get(b).copied().flatten();
            while let Some(p) = at.filter(|&p| p < other.skeleton.len()) {
                if matched.get(p).is_some_and(Option::is_some) {
                    compared[p] = true;
                    break;
                }
                at = other.skeleton.parents.get(p).copied().flatten().filter(|&q| q < p);
            }
        }
    }
    matched.iter().enumerate().all(|(b, found)| {
        let (Some((mb, _)), true) = (found, compared.get(b).copied().unwrap_or(false)) else { return true };
        match (model_to_root.get(*mb), part_to_root.get(b)) {
            (Some(m), Some(p)) => m.w_axis.truncate().distance(p.w_axis.truncate()) <= DISTANCE_TOLERANCE * size,
            _ => true,
        }
    })
}

/// Which of `asset`'s bones carry weight in some vertex.
fn used_bones(asset: &Asset) -> Vec<bool> {
    let mut used = vec![false; asset.skeleton.len()];
    for mesh in &asset.meshes {
        for (joints, weights) in mesh.joints.iter().zip(&mesh.weights) {
            for (&j, &w) in joints.iter().zip(weights) {
                if w > 0.0
                    && let Some(u) = used.get_mut(usize::from(j))
                {
                    *u = true;
                }
            }
        }
    }
    used
}

/// Joins the meshes and materials of `other` to `model` (see the module notes), leaving `other`'s clips,
/// recordings and warnings for the caller to bind. Call when [`is_part_of`] holds.
pub fn add_part(model: &mut Asset, other: &mut Asset) -> PartReport {
    let mut report = PartReport::default();
    if model.parts.is_empty() && !model.meshes.is_empty() {
        model.parts.push(Part {
            name: part_name(model.path.as_ref()),
            source: model.path.clone(),
            meshes: (0..model.meshes.len()).collect(),
        });
    }
    let matched = match_tracks(&model.skeleton, other.skeleton.names.iter().map(String::as_str));
    report.bones_matched = matched.iter().filter(|m| m.is_some()).count();

    // Part bone → model bone; bones the model lacks are added under their parent's model bone (parents come
    // first in the part's skeleton, so a parent is always mapped before its children).
    let mut model_bone: Vec<usize> = Vec::with_capacity(other.skeleton.len());
    for (b, found) in matched.iter().enumerate() {
        let index = match found {
            Some((bone, _)) => *bone,
            None => {
                let parent = other.skeleton.parents.get(b).copied().flatten().and_then(|p| model_bone.get(p)).copied();
                let local = other.skeleton.bind_local.get(b).copied().unwrap_or_default();
                let name = other.skeleton.names.get(b).cloned().unwrap_or_default();
                let index = model.skeleton.push(name.clone(), parent, local);
                let parent_to_root =
                    parent.and_then(|p| model.skeleton.inverse_bind.get(p)).map_or(Mat4::IDENTITY, |m| m.inverse());
                model.skeleton.inverse_bind[index] = (parent_to_root * local.to_matrix()).inverse();
                report.bones_added.push(name);
                index
            }
        };
        model_bone.push(index);
    }

    // Bind-pose agreement, and the per-bone correction that carries the part's vertices into the model's bind.
    let part_to_root = other.skeleton.bind_to_root();
    let size = skeleton_size(model).max(f32::EPSILON);
    let mut correction: Vec<Option<Mat4>> = vec![None; other.skeleton.len()];
    // Only the bones the part's vertices follow can make it disagree with the model (exporters leave helper
    // bones such as `ik_hand_gun` wherever the rig had them when each part was exported).
    let used = used_bones(other);
    for (b, &mb) in model_bone.iter().enumerate() {
        if !used.get(b).copied().unwrap_or(false) {
            continue;
        }
        let (Some(part_offset), Some(model_offset)) =
            (other.skeleton.inverse_bind.get(b), model.skeleton.inverse_bind.get(mb))
        else {
            continue;
        };
        let model_to_root = model_offset.inverse();
        let part_bind = part_to_root.get(b).copied().unwrap_or_else(|| part_offset.inverse());
        let distance = model_to_root.w_axis.truncate().distance(part_bind.w_axis.truncate());
        let (_, model_rotation, _) = model_to_root.to_scale_rotation_translation();
        let (_, part_rotation, _) = part_bind.to_scale_rotation_translation();
        let degrees = model_rotation.angle_between(part_rotation).to_degrees();
        if distance > DISTANCE_TOLERANCE * size || degrees > ANGLE_TOLERANCE_DEGREES {
            report.bind_differences.push(BindDifference {
                bone: other.skeleton.names.get(b).cloned().unwrap_or_default(),
                distance,
                degrees,
            });
            correction[b] = Some(model_to_root * *part_offset);
        }
    }
    report
        .bind_differences
        .sort_by(|a, b| (b.distance / size + b.degrees / 90.0).total_cmp(&(a.distance / size + a.degrees / 90.0)));

    // Meshes: remapped joints, corrected vertices, the part's materials among the model's.
    let material_map = add_materials(&mut model.materials, std::mem::take(&mut other.materials));
    let first_mesh = model.meshes.len();
    for mut mesh in std::mem::take(&mut other.meshes) {
        rebind_vertices(&mut mesh, &correction);
        for joints in &mut mesh.joints {
            for j in joints.iter_mut() {
                *j = model_bone.get(usize::from(*j)).map_or(0, |&m| m as u16);
            }
        }
        for subset in &mut mesh.subsets {
            subset.material = material_map.get(subset.material).copied().unwrap_or(subset.material);
        }
        model.meshes.push(mesh);
    }
    report.meshes = model.meshes.len() - first_mesh;
    model.parts.push(Part {
        name: part_name(other.path.as_ref()),
        source: other.path.clone(),
        meshes: (first_mesh..model.meshes.len()).collect(),
    });
    if !report.bind_differences.is_empty() {
        let first = &report.bind_differences[0];
        model.warnings.push(Warning {
            file: other.path.clone(),
            ..Warning::new(
                Position::File,
                format!(
                    "joined as a part, but its bind pose differs from the model's at {} bone(s) (most: '{}', {:.3} \
                     apart, turned {:.1}°); its vertices were moved to follow the model's skeleton",
                    report.bind_differences.len(),
                    first.bone,
                    first.distance,
                    first.degrees
                ),
            )
        });
    }
    report
}

impl Asset {
    /// The meshes hidden when body group `g` shows choice `choices[g]` (missing entries: the first choice, as the
    /// game shows body 0) and the parts listed in `hidden_parts` (indices into [`Asset::parts`]) are switched
    /// off: every mesh of a choice not shown, unless a shown choice uses it too, and every mesh of a part switched
    /// off. Sorted, each once. The viewer and `render` draw what this leaves.
    pub fn hidden_meshes(&self, choices: &[usize], hidden_parts: &[usize]) -> Vec<usize> {
        let mut shown = Vec::new();
        let mut hidden = Vec::new();
        if let Some(script) = self.model_script.as_deref() {
            for (g, group) in script.body_groups.iter().enumerate() {
                let pick = choices.get(g).copied().unwrap_or(0);
                for (c, choice) in group.choices.iter().enumerate() {
                    let list = if c == pick { &mut shown } else { &mut hidden };
                    list.extend(choice.meshes.iter().copied());
                }
            }
        }
        hidden.retain(|m| !shown.contains(m));
        for &p in hidden_parts {
            hidden.extend(self.parts.get(p).into_iter().flat_map(|part| part.meshes.iter().copied()));
        }
        hidden.sort_unstable();
        hidden.dedup();
        hidden
    }
}

/// Moves each vertex by its weighted blend of per-bone corrections (a bone without one counts as the identity):
/// a part's vertices carried from its own bind pose onto the skeleton it joins (here, and for model-script
/// bodies in `io::script::merge`).
pub(crate) fn rebind_vertices(mesh: &mut super::Mesh, correction: &[Option<Mat4>]) {
    if correction.iter().all(Option::is_none) {
        return;
    }
    for (v, (joints, weights)) in mesh.joints.iter().zip(&mesh.weights).enumerate() {
        let mut blended = Mat4::ZERO;
        let mut any = false;
        for (&j, &w) in joints.iter().zip(weights) {
            if w <= 0.0 {
                continue;
            }
            let m = correction.get(usize::from(j)).copied().flatten();
            any |= m.is_some();
            blended += m.unwrap_or(Mat4::IDENTITY) * w;
        }
        if !any {
            continue;
        }
        if let Some(p) = mesh.positions.get_mut(v) {
            *p = blended.transform_point3(*p);
        }
        if let Some(n) = mesh.normals.get_mut(v) {
            *n = blended.transform_vector3(*n).normalize_or(*n);
        }
    }
}

/// Appends `new` materials to `materials`, reusing one of the same name and texture (parts of one character
/// share them); returns where each of `new` went.
pub(crate) fn add_materials(materials: &mut Vec<super::Material>, new: Vec<super::Material>) -> Vec<usize> {
    new.into_iter()
        .map(|m| match materials.iter().position(|e| e.name == m.name && e.texture == m.texture) {
            Some(i) => i,
            None => {
                materials.push(m);
                materials.len() - 1
            }
        })
        .collect()
}

/// The diagonal of the model's bind-pose joints' box (1 when it has no extent), for relative tolerances.
fn skeleton_size(model: &Asset) -> f32 {
    let mut bounds = super::Bounds::EMPTY;
    for m in model.skeleton.bind_to_root() {
        bounds.add(m.w_axis.truncate());
    }
    let size = bounds.radius() * 2.0;
    if size.is_finite() && size > 0.0 { size } else { 1.0 }
}

fn part_name(path: Option<&PathBuf>) -> String {
    path.and_then(|p| p.file_name()).map_or_else(|| "model".to_owned(), |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{BodyChoice, BodyGroup, Material, Mesh, ModelScript, ScriptLanguage, Subset, Transform};
    use glam::{Quat, Vec3};

    /// A chain root → spine → arm (each 10 up the previous), and one vertex per bone at its joint.
    fn character(names: &[&str], arm_turn: f32) -> Asset {
        let mut asset = Asset::default();
        for (i, name) in names.iter().enumerate() {
            let rotation = if i == 2 { Quat::from_rotation_z(arm_turn) } else { Quat::IDENTITY };
            let local = Transform::from_translation_rotation(Vec3::new(0.0, 10.0 * (i.min(1) as f32), 0.0), rotation);
            asset.skeleton.push(*name, i.checked_sub(1), local);
        }
        asset.skeleton.recompute_inverse_bind();
        let to_root = asset.skeleton.bind_to_root();
        let mut mesh = Mesh::default();
        for (b, m) in to_root.iter().enumerate() {
            mesh.positions.push(m.transform_point3(Vec3::new(1.0, 0.0, 0.0)));
            mesh.normals.push(Vec3::Y);
            mesh.joints.push([b as u16, 0, 0, 0]);
            mesh.weights.push([1.0, 0.0, 0.0, 0.0]);
        }
        mesh.indices = vec![0, 1, 2];
        mesh.subsets = vec![Subset { material: 0, first_index: 0, index_count: 3 }];
        asset.meshes.push(mesh);
        asset.materials.push(Material { name: names[0].into(), ..Material::default() });
        asset
    }

    #[test]
    fn a_part_with_the_same_skeleton_joins_with_its_bones_remapped() {
        let mut body = character(&["root", "spine", "arm"], 0.0);
        // The shirt names its bones with other case, in another order, and has a bone the body lacks.
        let mut shirt = character(&["ROOT", "Spine", "Arm"], 0.0);
        shirt.skeleton.names.swap(1, 2);
        shirt.skeleton.names[2] = "Spine".into();
        shirt.skeleton.names[1] = "ribbon".into();
        assert!(is_part_of(&body, &shirt));
        let report = add_part(&mut body, &mut shirt);
        assert_eq!(report.meshes, 1);
        assert_eq!(report.bones_added, ["ribbon"]);
        assert_eq!(body.skeleton.len(), 4);
        assert_eq!(body.skeleton.parents[3], Some(0), "added under its named parent (ROOT → root)");
        assert_eq!(body.meshes[1].joints.iter().map(|j| j[0]).collect::<Vec<_>>(), [0, 3, 1]);
        assert_eq!(body.meshes[1].subsets[0].material, 1);
        assert_eq!(body.materials.len(), 2);
        assert_eq!(body.parts.len(), 2);
        assert_eq!(body.parts[1].meshes, [1]);
        assert_eq!(body.skeleton.validate(), Ok(()));
    }

    #[test]
    fn a_part_with_another_bind_pose_is_reported_and_follows_the_model() {
        let mut body = character(&["root", "spine", "arm"], 0.0);
        let mut sleeve = character(&["root", "spine", "arm"], 0.5);
        let report = add_part(&mut body, &mut sleeve);
        assert_eq!(report.bind_differences.len(), 1);
        assert_eq!(report.bind_differences[0].bone, "arm");
        assert!((report.bind_differences[0].degrees - 0.5f32.to_degrees()).abs() < 0.01);
        // The sleeve's vertex on the arm now sits where the body's own arm vertex is.
        assert!(body.meshes[1].positions[2].abs_diff_eq(body.meshes[0].positions[2], 1e-4));
        assert!(body.warnings.iter().any(|w| w.message.contains("bind pose differs")));
    }

    #[test]
    fn an_unrelated_mesh_is_not_a_part() {
        let body = character(&["root", "spine", "arm"], 0.0);
        let prop = character(&["Box01", "Box02", "Box03"], 0.0);
        assert!(!is_part_of(&body, &prop));
    }

    #[test]
    fn another_character_with_the_same_bone_names_is_not_taken_for_a_part() {
        let body = character(&["root", "spine", "arm"], 0.0);
        let shirt = character(&["root", "spine", "arm"], 0.0);
        assert!(same_character(&body, &shirt));
        // Same names, longer spine: another character of the same rig.
        let mut tall = character(&["root", "spine", "arm"], 0.0);
        tall.skeleton.bind_local[1].translation.y = 14.0;
        tall.skeleton.recompute_inverse_bind();
        assert!(is_part_of(&body, &tall) && !same_character(&body, &tall));
    }

    fn choice(name: &str, meshes: &[usize]) -> BodyChoice {
        BodyChoice { name: name.into(), path: None, meshes: meshes.to_vec(), placement: None, file: 0, line: 1 }
    }

    #[test]
    fn one_choice_per_group_is_shown() {
        let mut script = ModelScript::new(ScriptLanguage::ValveQc);
        script.body_groups.push(BodyGroup {
            name: "body".into(),
            choices: vec![choice("ref", &[0])],
            file: 0,
            line: 1,
        });
        script.body_groups.push(BodyGroup {
            name: "heads".into(),
            choices: vec![choice("head1", &[1]), choice("head2", &[2, 3]), choice("blank", &[])],
            file: 0,
            line: 2,
        });
        let asset = Asset { model_script: Some(Box::new(script)), ..Asset::default() };
        assert_eq!(asset.hidden_meshes(&[], &[]), vec![2, 3], "first choices by default");
        assert_eq!(asset.hidden_meshes(&[0, 1], &[]), vec![1]);
        assert_eq!(asset.hidden_meshes(&[0, 2], &[]), vec![1, 2, 3], "blank hides the whole group");
        assert!(Asset::default().hidden_meshes(&[1], &[]).is_empty());
    }

    #[test]
    fn a_part_switched_off_hides_its_meshes() {
        let part = |name: &str, meshes: &[usize]| Part { name: name.into(), source: None, meshes: meshes.to_vec() };
        let asset = Asset { parts: vec![part("body.psk", &[0]), part("shirt.psk", &[1, 2])], ..Asset::default() };
        assert!(asset.hidden_meshes(&[], &[]).is_empty());
        assert_eq!(asset.hidden_meshes(&[], &[1]), vec![1, 2]);
        assert_eq!(asset.hidden_meshes(&[], &[0, 1]), vec![0, 1, 2]);
    }
}
