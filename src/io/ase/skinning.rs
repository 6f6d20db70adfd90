//! Skin weights → four influences per vertex: the file's bone list resolved against the scene's nodes by name,
//! weights gathered per vertex and reduced to the four largest (renormalised).

use std::collections::HashMap;

use super::records::RawSkin;
use crate::scene::{InfluenceReport, Influences, Warning, normalize_bone_name, reduce_influences};

fn warn(warnings: &mut Vec<Warning>, line: usize, message: impl Into<String>) {
    warnings.push(Warning::new(if line == 0 { String::new() } else { format!("line {line}") }, message));
}

/// A name list for a message: the first 20, then how many more.
pub(super) fn shorten(names: &[String]) -> String {
    let mut out = names.iter().take(20).cloned().collect::<Vec<_>>().join(", ");
    if names.len() > 20 {
        out += &format!(" and {} more", names.len() - 20);
    }
    out
}

/// The per-vertex influences of a skinned mesh (one per ASE vertex), bones resolved by name.
pub(super) fn skin_influences(
    skin: &RawSkin,
    vertex_count: usize,
    bone_by_name: &HashMap<String, usize>,
    own_bone: u16,
    mesh_name: &str,
    report: &mut InfluenceReport,
    warnings: &mut Vec<Warning>,
) -> Vec<Influences> {
    let mut missing = Vec::new();
    let mut reported = std::collections::HashSet::new();
    let bones: Vec<Option<u16>> = skin
        .bones
        .iter()
        .map(|name| {
            let found = bone_by_name.get(&normalize_bone_name(name)).and_then(|&b| u16::try_from(b).ok());
            if found.is_none() && !name.is_empty() && reported.insert(name.as_str()) {
                missing.push(name.clone());
            }
            found
        })
        .collect();
    if !missing.is_empty() {
        warn(
            warnings,
            skin.line,
            format!(
                "mesh '{mesh_name}': {} weighted bone(s) are not nodes of the scene, their weights are dropped: {}",
                missing.len(),
                shorten(&missing)
            ),
        );
    }
    let mut per_vertex: Vec<Vec<(u16, f32)>> = vec![Vec::new(); vertex_count];
    let mut outside = 0usize;
    for &(vertex, first, count) in &skin.vertices {
        let Some(slot) = per_vertex.get_mut(vertex as usize) else {
            outside += 1;
            continue;
        };
        let pairs = skin.pairs.get(first as usize..(first + count) as usize).unwrap_or_default();
        for &(b, w) in pairs {
            if let Some(Some(bone)) = bones.get(b as usize) {
                slot.push((*bone, w));
            }
        }
    }
    if outside > 0 {
        warn(
            warnings,
            skin.line,
            format!("mesh '{mesh_name}': weights for {outside} vertex index(es) beyond the mesh were ignored"),
        );
    }
    per_vertex.iter_mut().map(|pairs| reduce_influences(pairs, own_bone, report)).collect()
}
