//! Matching an animation's track names to a skeleton's bone names: the one rule binding reports, clip sampling
//! and the diagnostics share. Names match exactly first; then after case folding (and trimming spaces and
//! NULs, how PSA/SMD/ASE tools compare names); then after separator folding (spaces, underscores, hyphens and
//! dots alike: `Bip01_L_Hand` is `Bip01 L Hand`, as Blender's importers and HLMV treat them); then after
//! stripping a namespace prefix (`ValveBiped.`, Maya's `name:` and Blender's `armature|`). Each later rule only
//! gives bones that no earlier rule gave a track, so a track that matches exactly is never displaced by one that
//! only matches loosely. Which rule matched is reported to the user.

use std::collections::HashMap;

use super::Skeleton;
use super::skeleton::normalize_bone_name;

/// How a track's name matched a bone's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NameRule {
    /// The same name.
    Exact,
    /// The same but for case (or spaces and NULs around it).
    CaseFolding,
    /// The same once spaces, underscores, hyphens and dots are alike (`Bip01_L_Hand` and `Bip01 L Hand`).
    SeparatorFolding,
    /// The same once a namespace prefix is removed (`ValveBiped.Bip01_L_Hand` and `Bip01_L_Hand`).
    PrefixStripping,
}

impl NameRule {
    pub const ALL: [NameRule; 4] =
        [NameRule::Exact, NameRule::CaseFolding, NameRule::SeparatorFolding, NameRule::PrefixStripping];

    /// How the rule is described to the user.
    pub fn label(self) -> &'static str {
        match self {
            NameRule::Exact => "exact",
            NameRule::CaseFolding => "case folded",
            NameRule::SeparatorFolding => "separators folded",
            NameRule::PrefixStripping => "prefix stripped",
        }
    }

    /// The key two names are compared by under this rule.
    fn key(self, name: &str) -> String {
        match self {
            NameRule::Exact => name.to_owned(),
            NameRule::CaseFolding => normalize_bone_name(name),
            NameRule::SeparatorFolding => fold_separators(&normalize_bone_name(name)),
            NameRule::PrefixStripping => fold_separators(&strip_prefix(&normalize_bone_name(name))),
        }
    }
}

/// Runs of spaces, underscores, hyphens and dots become one space.
fn fold_separators(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut gap = false;
    for c in name.chars() {
        if matches!(c, ' ' | '_' | '-' | '.') || c.is_whitespace() {
            gap = !out.is_empty();
        } else {
            if gap {
                out.push(' ');
                gap = false;
            }
            out.push(c);
        }
    }
    out
}

/// The name without a namespace: what follows the last `:` or `|`, and without a leading `valvebiped.`
/// (Source's biped rig prefixes every bone with it; animations made elsewhere often lack it). Expects a
/// lower-cased name.
fn strip_prefix(name: &str) -> String {
    let tail = name.rsplit([':', '|']).next().unwrap_or(name);
    tail.strip_prefix("valvebiped.").or_else(|| tail.strip_prefix("valvebiped_")).unwrap_or(tail).to_owned()
}

/// For each track name, the bone it drives and by which rule (`None`: no bone). Every bone is driven by at most
/// one track.
///
/// Real skeletons repeat names (the Biped rigs of UE1 games hold two `bip01 Head`, two `bip01 L Finger0`, …).
/// When the tracks are the skeleton's bones, name for name in the same order (as a PSA made with its PSK is),
/// track `i` drives bone `i`, which binds every track of such a pair. Otherwise names decide: the first track
/// with the strictest rule takes a bone, and a repeated name gives its bones to its tracks in order;
/// [`ambiguous_names`] says which names that was.
pub fn match_tracks<'a>(
    skeleton: &Skeleton,
    tracks: impl IntoIterator<Item = &'a str>,
) -> Vec<Option<(usize, NameRule)>> {
    let tracks: Vec<&str> = tracks.into_iter().collect();
    if let Some(by_index) = match_by_index(skeleton, &tracks) {
        return by_index;
    }
    let mut out: Vec<Option<(usize, NameRule)>> = vec![None; tracks.len()];
    let mut taken = vec![false; skeleton.len()];
    for rule in NameRule::ALL {
        if out.iter().all(Option::is_some) {
            break;
        }
        // Bone keys under this rule, each with its bones in skeleton order (more than one for a repeated name).
        let mut bones: HashMap<String, Vec<usize>> = HashMap::with_capacity(skeleton.len());
        for (i, name) in skeleton.names.iter().enumerate() {
            bones.entry(rule.key(name)).or_default().push(i);
        }
        for (slot, track) in out.iter_mut().zip(&tracks) {
            if slot.is_some() {
                continue;
            }
            let free = bones.get(&rule.key(track)).and_then(|list| list.iter().copied().find(|&b| !taken[b]));
            if let Some(bone) = free {
                taken[bone] = true;
                *slot = Some((bone, rule));
            }
        }
    }
    out
}

/// Track `i` drives bone `i` when the tracks are the skeleton's bone names in the same order (the same but for
/// case); `None` otherwise.
fn match_by_index(skeleton: &Skeleton, tracks: &[&str]) -> Option<Vec<Option<(usize, NameRule)>>> {
    if tracks.is_empty() || tracks.len() != skeleton.len() {
        return None;
    }
    tracks
        .iter()
        .zip(&skeleton.names)
        .enumerate()
        .map(|(i, (track, bone))| {
            let rule = if *track == bone.as_str() {
                NameRule::Exact
            } else if NameRule::CaseFolding.key(track) == NameRule::CaseFolding.key(bone) {
                NameRule::CaseFolding
            } else {
                return None;
            };
            Some(Some((i, rule)))
        })
        .collect()
}

/// The track names that name more than one bone of the skeleton (after case folding) and so were bound by
/// their order, not by name alone; empty when the tracks are the skeleton's bones in order ([`match_tracks`]
/// binds those by index). Each name once, in track order.
pub fn ambiguous_names<'a>(skeleton: &Skeleton, tracks: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let tracks: Vec<&str> = tracks.into_iter().collect();
    if match_by_index(skeleton, &tracks).is_some() {
        return Vec::new();
    }
    let mut count: HashMap<String, usize> = HashMap::with_capacity(skeleton.len());
    for name in &skeleton.names {
        *count.entry(normalize_bone_name(name)).or_default() += 1;
    }
    let mut out: Vec<String> = Vec::new();
    for track in tracks {
        let key = normalize_bone_name(track);
        if count.get(&key).is_some_and(|&n| n > 1) && !out.iter().any(|o| normalize_bone_name(o) == key) {
            out.push(track.to_owned());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Transform;

    fn skeleton(names: &[&str]) -> Skeleton {
        let mut s = Skeleton::default();
        for (i, n) in names.iter().enumerate() {
            s.push(*n, i.checked_sub(1), Transform::IDENTITY);
        }
        s
    }

    #[test]
    fn each_rule_is_tried_in_turn_and_reported() {
        let s = skeleton(&["Bip01", "Bip01 Pelvis", "Bip01 L Hand", "ValveBiped.Bip01_Head1", "mixamorig:Hips"]);
        let got = match_tracks(&s, ["Bip01", "bip01 pelvis ", "Bip01_L_Hand", "Bip01_Head1", "Hips", "Tail"]);
        assert_eq!(
            got,
            [
                Some((0, NameRule::Exact)),
                Some((1, NameRule::CaseFolding)),
                Some((2, NameRule::SeparatorFolding)),
                Some((3, NameRule::PrefixStripping)),
                Some((4, NameRule::PrefixStripping)),
                None,
            ]
        );
    }

    #[test]
    fn a_loose_match_never_takes_a_bone_an_exact_one_drives() {
        let s = skeleton(&["Bip01 L Hand"]);
        let got = match_tracks(&s, ["Bip01_L_Hand", "Bip01 L Hand"]);
        assert_eq!(got, [None, Some((0, NameRule::Exact))]);
        assert_eq!(fold_separators("bip01__l--hand."), "bip01 l hand");
        assert_eq!(strip_prefix("valvebiped.bip01_spine"), "bip01_spine");
    }

    #[test]
    fn repeated_names_bind_every_track() {
        let s = skeleton(&["Bip01", "Bip01 Head", "Bip01 L Finger0", "Bip01 Head", "Bip01 L Finger0"]);
        // The same list in the same order: by index, every track of each pair binds to its own bone.
        let same = ["Bip01", "Bip01 Head", "bip01 l finger0", "Bip01 Head", "Bip01 L Finger0"];
        let got: Vec<usize> = match_tracks(&s, same).into_iter().map(|m| m.unwrap().0).collect();
        assert_eq!(got, [0, 1, 2, 3, 4]);
        assert!(ambiguous_names(&s, same).is_empty());
        // Another order: by name, the repeated names give their bones to their tracks in order, and are reported.
        let other = ["Bip01 Head", "Bip01 L Finger0", "Bip01 Head", "Bip01", "Bip01 L Finger0"];
        let got: Vec<usize> = match_tracks(&s, other).into_iter().map(|m| m.unwrap().0).collect();
        assert_eq!(got, [1, 2, 3, 0, 4]);
        assert_eq!(ambiguous_names(&s, other), ["Bip01 Head", "Bip01 L Finger0"]);
        // A third track of a name the skeleton has twice binds to nothing.
        let three = ["Bip01 Head", "Bip01 Head", "Bip01 Head"];
        assert_eq!(match_tracks(&s, three).iter().filter(|m| m.is_some()).count(), 2);
    }
}
