//! Materials: the `*MATERIAL_LIST` flattened into the asset's list (sub-materials become their own entries),
//! diffuse bitmaps resolved next to the file, and what each object's `*MATERIAL_REF` (or, without one, its
//! wireframe colour) resolves to.

use std::collections::HashMap;

use super::records::{RawMaterial, RawNode};
use crate::io::LoadOptions;
use crate::io::textures::find_texture;
use crate::scene::{Material, Warning};

fn warn(warnings: &mut Vec<Warning>, line: usize, message: impl Into<String>) {
    warnings.push(Warning::new(if line == 0 { String::new() } else { format!("line {line}") }, message));
}

/// How a `*MATERIAL_REF` resolves: one material, or sub-materials picked by `*MESH_MTLID`.
#[derive(Clone, Debug)]
pub(super) enum MaterialEntry {
    Single(usize),
    Multi(Vec<usize>),
}

fn make_material(raw: &RawMaterial, name: String, opts: &LoadOptions, warnings: &mut Vec<Warning>) -> Material {
    let mut m = Material::named(name);
    if let Some([r, g, b]) = raw.diffuse {
        m.diffuse = [r, g, b, (1.0 - raw.transparency).clamp(0.0, 1.0)];
    }
    if let Some(a) = raw.ambient {
        m.ambient = a;
    }
    if let Some(s) = raw.specular {
        m.specular = s;
    }
    m.two_sided = raw.two_sided;
    if let Some(map) = &raw.diffuse_map {
        let is_bitmap = map.class.is_empty() || map.class.eq_ignore_ascii_case("Bitmap");
        let bitmap = map.bitmap.trim();
        if is_bitmap && !bitmap.is_empty() && !bitmap.eq_ignore_ascii_case("None") {
            let texture = find_texture(opts, bitmap, &[]);
            if texture.path.is_none() && !texture.searched.is_empty() {
                warn(
                    warnings,
                    raw.line,
                    format!(
                        "material '{}': texture '{bitmap}' not found next to the file or in the texture folders",
                        m.name
                    ),
                );
            }
            m.texture = Some(texture);
        }
        // The file's transform is uv·tiling + offset in 3ds Max's (v up) texture space; our v is flipped
        // (v' = 1 − v), so the same mapping in flipped space has offset 1 − tiling_v − offset_v on v.
        m.uv_tiling = [map.u_tiling, map.v_tiling];
        m.uv_offset = [map.u_offset, 1.0 - map.v_tiling - map.v_offset];
        if map.angle.abs() > 1e-6 {
            warn(
                warnings,
                raw.line,
                format!("material '{}': the texture's UVW angle ({:.3} rad) is not applied", m.name, map.angle),
            );
        }
    }
    m
}

/// Flattens the material list (sub-materials become their own entries).
pub(super) fn flatten_materials(
    raw: &mut [(u32, RawMaterial)],
    opts: &LoadOptions,
    materials: &mut Vec<Material>,
    warnings: &mut Vec<Warning>,
) -> HashMap<u32, MaterialEntry> {
    // Sorted by index; of duplicate indices the later definition wins (stable sort keeps file order).
    raw.sort_by_key(|(i, _)| *i);
    let duplicates = raw.windows(2).filter(|w| w[0].0 == w[1].0).count();
    if duplicates > 0 {
        warn(
            warnings,
            0,
            format!("{duplicates} *MATERIAL index(es) are defined twice; the later definitions are used"),
        );
    }
    let mut map = HashMap::new();
    let later: Vec<bool> = (0..raw.len()).map(|k| raw.get(k + 1).is_some_and(|next| next.0 == raw[k].0)).collect();
    for ((index, mat), superseded) in raw.iter_mut().zip(later) {
        if superseded {
            continue;
        }
        let entry = if mat.subs.is_empty() {
            let name = if mat.name.is_empty() { format!("material {index}") } else { mat.name.clone() };
            materials.push(make_material(mat, name, opts, warnings));
            MaterialEntry::Single(materials.len() - 1)
        } else {
            mat.subs.sort_by_key(|(i, _)| *i);
            let mut list = Vec::new();
            let subs = &mat.subs;
            // Of duplicate sub-material indices the later one wins.
            let unique = subs.iter().enumerate().filter(|(k, (i, _))| subs.get(k + 1).is_none_or(|(j, _)| j != i));
            for (_, (sub_index, sub)) in unique {
                let sub_name = if sub.name.is_empty() { format!("sub {sub_index}") } else { sub.name.clone() };
                let name = format!("{} / {sub_name}", if mat.name.is_empty() { "material" } else { &mat.name });
                materials.push(make_material(sub, name, opts, warnings));
                list.push(materials.len() - 1);
            }
            MaterialEntry::Multi(list)
        };
        map.insert(*index, entry);
    }
    map
}

pub(super) fn material_for(
    node: &RawNode,
    map: &HashMap<u32, MaterialEntry>,
    materials: &mut Vec<Material>,
    wire: &mut HashMap<[u32; 3], usize>,
    warnings: &mut Vec<Warning>,
) -> MaterialEntry {
    if let Some((line, r)) = node.material_ref {
        match u32::try_from(r).ok().and_then(|r| map.get(&r)) {
            Some(entry) => return entry.clone(),
            None => warn(warnings, line, format!("'{}': *MATERIAL_REF {r} is not in *MATERIAL_LIST", node.name)),
        }
    }
    // No material: 3ds Max shows the object in its wireframe colour.
    let c = node.wire_color.unwrap_or([0.8, 0.8, 0.8]);
    let key = c.map(f32::to_bits);
    let index = *wire.entry(key).or_insert_with(|| {
        let mut m = Material::named(format!("wire {:.3} {:.3} {:.3}", c[0], c[1], c[2]));
        m.diffuse = [c[0], c[1], c[2], 1.0];
        materials.push(m);
        materials.len() - 1
    });
    MaterialEntry::Single(index)
}

impl MaterialEntry {
    /// The asset material of a face with this `*MESH_MTLID`.
    pub fn material_of(&self, mtl: u32) -> usize {
        match self {
            MaterialEntry::Single(m) => *m,
            MaterialEntry::Multi(list) => list.get(mtl as usize % list.len().max(1)).copied().unwrap_or(0),
        }
    }
}
