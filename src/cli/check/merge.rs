//! One defect, one finding, across characters. The diagnostics already merge a defect's instances within a
//! character (every clip that shows the same place of the same mesh); here the same place of the same mesh found
//! by several characters — a Gothic base model's armour torn again by the clips of every overlay checked on it,
//! one reference mesh that two scripts name — becomes one finding too: it is kept by the character whose mesh it
//! is (the base, not an overlay), with every clip that shows it and the character that played each, and the
//! others drop it. Runs over the finished reports, so a run answered from the cache merges the same way.

use std::collections::HashMap;
use std::path::PathBuf;

use super::report::{CharacterReport, CheckFinding, CheckKind};
use bonescope::anim::diagnostics::FindingKind;

/// What makes two findings of different characters one defect: the kind (a bone off its joint whether it opens
/// the skin or flings it), the mesh's file and the place.
type DefectKey = (&'static str, PathBuf, String);

fn defect_key(f: &CheckFinding) -> Option<DefectKey> {
    if f.summary {
        return None;
    }
    let kind = match f.kind {
        CheckKind::Rig(FindingKind::VertexFlies) => CheckKind::Rig(FindingKind::JointApart).name(),
        CheckKind::Rig(kind) => CheckKind::Rig(kind).name(),
        _ => return None,
    };
    Some((kind, f.mesh_file.clone()?, f.place.clone()?))
}

/// Merges the findings of one defect found by several characters into the character that owns the mesh.
pub fn merge_defects(characters: &mut [CharacterReport]) {
    let mut by_key: HashMap<DefectKey, Vec<(usize, usize)>> = HashMap::new();
    for (c, character) in characters.iter().enumerate() {
        for (i, f) in character.findings.iter().enumerate() {
            if let Some(key) = defect_key(f) {
                by_key.entry(key).or_default().push((c, i));
            }
        }
    }
    let mut removed: Vec<Vec<usize>> = vec![Vec::new(); characters.len()];
    let mut grown: Vec<bool> = vec![false; characters.len()];
    let mut keys: Vec<_> = by_key.into_iter().filter(|(_, at)| at.iter().any(|(c, _)| *c != at[0].0)).collect();
    // Deterministic whatever the hash order.
    keys.sort_by(|a, b| a.0.cmp(&b.0));
    for ((_, mesh_file, _), at) in keys {
        // The owner: a character that is not an overlay and reads the mesh's file, else the first.
        let owns = |c: usize| {
            let ch = &characters[c];
            ch.overlay_of.is_none() && ch.files.contains(&mesh_file)
        };
        let &(owner, target) = at.iter().find(|(c, _)| owns(*c)).unwrap_or(&at[0]);
        let mut others: Vec<(String, CheckFinding)> = Vec::new();
        for &(c, i) in at.iter().filter(|(c, i)| (*c, *i) != (owner, target)) {
            let name = characters[c].name.clone();
            others.push((name, characters[c].findings[i].clone()));
            removed[c].push(i);
        }
        let owner_name = characters[owner].name.clone();
        grown[owner] = true;
        let Some(kept) = characters[owner].findings.get_mut(target) else { continue };
        absorb(kept, &owner_name, others);
    }
    for ((character, mut gone), grown) in characters.iter_mut().zip(removed).zip(grown) {
        if gone.is_empty() && !grown {
            continue;
        }
        gone.sort_unstable();
        gone.dedup();
        for i in gone.into_iter().rev() {
            character.findings.remove(i);
        }
        *character = character.clone().finish();
    }
}

/// `kept` stands for the findings of `others` too (each with the character it came from).
fn absorb(kept: &mut CheckFinding, owner: &str, others: Vec<(String, CheckFinding)>) {
    let characters: Vec<String> = {
        let mut names: Vec<String> = others.iter().map(|(n, _)| n.clone()).filter(|n| n != owner).collect();
        names.sort();
        names.dedup();
        names
    };
    let extra_clips: usize = others.iter().map(|(_, f)| f.clips.len()).sum();
    for (name, mut other) in others {
        for clip in &mut other.clips {
            clip.character.get_or_insert_with(|| name.clone());
        }
        kept.occurrences += other.occurrences;
        let worse = (other.severity, other.extent.map(|x| -x)) < (kept.severity, kept.extent.map(|x| -x));
        let mut clips = std::mem::take(&mut kept.clips);
        clips.append(&mut other.clips);
        if worse {
            let occurrences = kept.occurrences;
            *kept = other;
            kept.occurrences = occurrences;
        }
        kept.clips = clips;
    }
    kept.clips
        .sort_by(|a, b| a.severity.cmp(&b.severity).then(b.value.unwrap_or(0.0).total_cmp(&a.value.unwrap_or(0.0))));
    let shown: Vec<&str> = characters.iter().take(4).map(String::as_str).collect();
    let more = characters.len().saturating_sub(4);
    let more = if more > 0 { format!(" and {more} more") } else { String::new() };
    if extra_clips > 0 {
        kept.message.push_str(&format!(
            " — also in {extra_clips} clip(s) of {} other character(s) checked on this mesh: {}{more}",
            characters.len(),
            shown.join(", ")
        ));
    } else {
        kept.message.push_str(&format!(" — also found by {}{more}", shown.join(", ")));
    }
}
