//! Unique, non-empty names for a QC's sequences and body groups, so that the timeline, the Files tab and
//! `--clip` can reach each one when a script repeats a name or leaves it empty (`$sequence "idle"` three
//! times, `$sequence ""`).
//!
//! The rule is assimp's Half-Life importer's (`code/AssetLib/MDL/HalfLife/UniqueNameGenerator.cpp`,
//! `UniqueNameGenerator::make_unique`, used by `HL1MDLLoader` with the templates `Sequence` and `Bodypart`), so
//! that a model shows the same names here as in tools built on assimp:
//! - the first use of a name keeps it; each later use becomes `name_0`, `name_1`, … , skipping every suffix
//!   that is already a name (compared exactly, as assimp does);
//! - empty names (nothing but spaces) become `Template_0`, `Template_1`, … ; when some name already is the
//!   template or starts with `Template_`, they are made unique against those instead (the first free of
//!   `Template`, `Template_0`, …).
//!
//! This module only computes names; `qc` applies them and says which were changed.

use std::collections::BTreeMap;

/// Makes `names` unique and non-empty in place (see the module's rule). Returns the indices changed, in order.
pub fn make_unique(names: &mut [String], template: &str) -> Vec<usize> {
    let is_empty = |n: &str| n.bytes().all(|b| b == b' ');
    let template_prefix = format!("{template}_");
    let mut empty: Vec<usize> = Vec::new();
    let mut template_taken = false;
    // Each name → the indices of its later uses (sorted by name, as assimp's `std::map` iterates).
    let mut repeats: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, name) in names.iter().enumerate() {
        if is_empty(name) {
            empty.push(i);
            continue;
        }
        template_taken |= name == template || name.starts_with(&template_prefix);
        match repeats.get_mut(name) {
            Some(later) => later.push(i),
            None => {
                repeats.insert(name.clone(), Vec::new());
            }
        }
    }
    // The next suffix to try for each base name, kept between its uses as assimp keeps `next_id`.
    let mut next: BTreeMap<String, usize> = BTreeMap::new();
    let mut changed: Vec<usize> = Vec::new();
    for (base, later) in &repeats {
        for &i in later {
            let name = free_name(names, base, &mut next);
            names[i] = name;
            changed.push(i);
        }
    }
    for (k, &i) in empty.iter().enumerate() {
        names[i] = if template_taken { free_name(names, template, &mut next) } else { format!("{template}_{k}") };
        changed.push(i);
    }
    changed.sort_unstable();
    changed
}

/// `base` when no name is `base`, else the first `base_N` (N counting on from the last one given out for this
/// base) that is no name.
fn free_name(names: &[String], base: &str, next: &mut BTreeMap<String, usize>) -> String {
    if !names.iter().any(|n| n == base) {
        return base.to_owned();
    }
    let id = next.entry(base.to_owned()).or_insert(0);
    loop {
        let candidate = format!("{base}_{id}");
        *id += 1;
        if !names.contains(&candidate) {
            return candidate;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unique(names: &[&str], template: &str) -> (Vec<String>, Vec<usize>) {
        let mut names: Vec<String> = names.iter().map(|s| (*s).to_owned()).collect();
        let changed = make_unique(&mut names, template);
        (names, changed)
    }

    #[test]
    fn repeated_names_get_suffixes_that_clash_with_nothing() {
        let (names, changed) = unique(&["idle", "walk", "idle", "idle_0", "idle", "Idle"], "Sequence");
        assert_eq!(names, ["idle", "walk", "idle_1", "idle_0", "idle_2", "Idle"]);
        assert_eq!(changed, [2, 4]);
    }

    #[test]
    fn empty_names_are_numbered_from_the_template() {
        let (names, changed) = unique(&["", "run", "  ", "", ""], "Sequence");
        assert_eq!(names, ["Sequence_0", "run", "Sequence_1", "Sequence_2", "Sequence_3"]);
        assert_eq!(changed, [0, 2, 3, 4]);
        // A name like the template already there: the empty ones are made unique against it.
        let (names, _) = unique(&["", "Bodypart_0", ""], "Bodypart");
        assert_eq!(names, ["Bodypart", "Bodypart_0", "Bodypart_1"]);
        // Nothing to do.
        let (names, changed) = unique(&["a", "b"], "Sequence");
        assert_eq!((names, changed), (vec!["a".to_owned(), "b".to_owned()], vec![]));
    }
}
