//! Pairing loose files as a user pairs them in a folder without a model script: an animation belongs to the
//! character its name says (`knightAnims.psa` to `knightMesh.psk`, `barney_anims/` or `barney_walk.smd` to
//! `barney_ref.smd`, `hero.psa` to `hero.psk`), else to the one character whose skeleton it fits (its tracks bind
//! to that skeleton's bones and its bind pose has the same proportions) — to its best character only, never to
//! every mesh of the folder; what fits none, or several equally, is left unpaired and said so.
//!
//! Names are compared word by word (split at `_`, `-`, spaces, dots and lower-to-upper case changes, compared
//! without case), after dropping the words that only say the file's role at the end of a name (`Mesh`, `ref`,
//! `Anims`, `anim`…). Skeletons are compared on small [`Signature`]s, each file loaded once for it and dropped.

use std::path::Path;

use bonescope::io::{self, LoadOptions};
use bonescope::scene::{Asset, Mesh, Skeleton, match_tracks};

/// Words that end a mesh's name only to say it is the mesh.
const MESH_WORDS: [&str; 7] = ["mesh", "ref", "reference", "model", "skin", "skeleton", "skel"];
/// Words that end an animation's name (or its folder's) only to say it holds animations.
const ANIMATION_WORDS: [&str; 9] =
    ["anims", "anim", "animation", "animations", "sequences", "seq", "motions", "motion", "anm"];

/// How an animation (or a companion) was paired with its character, as the report says it.
#[derive(Clone, Debug, PartialEq)]
pub struct Pairing {
    /// `name` (the same name but for the role words), `folder` (its folder is named after the character),
    /// `prefix` (its name starts with the character's), `skeleton` (its tracks fit only this character's
    /// skeleton), `vertices` (a companion whose vertices are the mesh's), `part` (a mesh of the same skeleton
    /// in the same bind pose: a modular character's part).
    pub method: &'static str,
    /// The evidence, in words.
    pub detail: String,
}

/// The words of a name: split at separators and at lower-to-upper case changes, lower-cased.
pub fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c == '_' || c == '-' || c == ' ' || c == '.' {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower && !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// `words` without the role words at their end (at least one word is kept).
fn core<'a>(words: &'a [String], role: &[&str]) -> &'a [String] {
    let mut end = words.len();
    while end > 1 && role.contains(&words[end - 1].as_str()) {
        end -= 1;
    }
    &words[..end]
}

fn stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The character whose mesh `meshes[i]` an animation's (or companion's) name says it belongs to, with how:
/// the same name but for the role words, a folder named after the character, or a name that starts with the
/// character's. The longest match wins; a tie between different characters is no answer. `group_of` tells
/// which meshes are one character (a modular character's parts all answer for it).
pub fn by_name(file: &Path, meshes: &[&Path], group_of: &dyn Fn(usize) -> usize) -> Option<(usize, Pairing)> {
    let file_words = words(&stem(file));
    let file_core = core(&file_words, &ANIMATION_WORDS).to_vec();
    let folder_words = file.parent().and_then(Path::file_name).map(|f| words(&f.to_string_lossy()));
    let folder_says =
        folder_words.as_ref().filter(|w| w.len() > 1 && ANIMATION_WORDS.contains(&w[w.len() - 1].as_str()));
    let mut best: Option<(usize, usize, Pairing)> = None;
    let mut tied = false;
    for (i, mesh) in meshes.iter().enumerate() {
        let mesh_words = words(&stem(mesh));
        let mesh_core = core(&mesh_words, &MESH_WORDS);
        let shown = |p: &Path| p.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        let found = if file_core == mesh_core {
            Some((
                1000,
                Pairing {
                    method: "name",
                    detail: format!(
                        "{} and {}: the same name but for the words saying which is which",
                        shown(file),
                        shown(mesh)
                    ),
                },
            ))
        } else if let Some(folder) = folder_says.filter(|w| core(w, &ANIMATION_WORDS) == mesh_core) {
            Some((
                900,
                Pairing {
                    method: "folder",
                    detail: format!("its folder {} is named after {}", folder.join("_"), shown(mesh)),
                },
            ))
        } else if file_words.len() > mesh_core.len() && file_words.starts_with(mesh_core) {
            Some((
                mesh_core.len(),
                Pairing {
                    method: "prefix",
                    detail: format!(
                        "{} starts with the name of {} ({})",
                        shown(file),
                        shown(mesh),
                        mesh_core.join("_")
                    ),
                },
            ))
        } else {
            None
        };
        let Some((score, pairing)) = found else { continue };
        match &best {
            Some((s, j, _)) if score < *s || (score == *s && group_of(*j) == group_of(i)) => {}
            Some((s, _, _)) if score == *s => tied = true,
            _ => {
                best = Some((score, i, pairing));
                tied = false;
            }
        }
    }
    if tied {
        return None;
    }
    best.map(|(_, i, p)| (i, p))
}

/// What pairing needs of a file, kept small: its skeleton, the bones its vertices use (a mesh), the names its
/// tracks animate (an animation), and for parts a reduced asset [`scene::parts`](bonescope::scene::parts) can
/// compare.
#[derive(Debug)]
pub struct Signature {
    pub skeleton: Skeleton,
    /// Per bone, whether a vertex is weighted to it (empty for an animation).
    pub used: Vec<bool>,
    /// The bone names the file's clips animate.
    pub tracks: Vec<String>,
    /// The skeleton with one vertex per used bone: enough for `same_character`.
    pub reduced: Asset,
    /// Largest side of the bind skeleton's box (1 when flat).
    pub size: f32,
}

impl Signature {
    /// Loads `path` and keeps its signature; the rest is dropped.
    pub fn load(path: &Path, opts: &LoadOptions) -> Option<Signature> {
        let asset = io::load_path(path, opts).ok()?;
        Some(Signature::of(&asset))
    }

    pub fn of(asset: &Asset) -> Signature {
        let skeleton = asset.skeleton.clone();
        let mut used = vec![false; skeleton.len()];
        for mesh in &asset.meshes {
            for (joints, weights) in mesh.joints.iter().zip(&mesh.weights) {
                for (j, w) in joints.iter().zip(weights) {
                    if *w > 0.0
                        && let Some(u) = used.get_mut(usize::from(*j))
                    {
                        *u = true;
                    }
                }
            }
        }
        let mut tracks: Vec<String> =
            asset.clips.iter().flat_map(|c| c.tracks.iter().map(|t| t.bone_name.clone())).collect();
        tracks.sort();
        tracks.dedup();
        let bones: Vec<u16> = (0..used.len()).filter(|&b| used[b]).filter_map(|b| u16::try_from(b).ok()).collect();
        let mut reduced =
            Asset { skeleton: skeleton.clone(), axes: asset.axes, format: asset.format, ..Asset::default() };
        if !bones.is_empty() {
            reduced.meshes.push(Mesh {
                positions: vec![glam::Vec3::ZERO; bones.len()],
                joints: bones.iter().map(|&b| [b, 0, 0, 0]).collect(),
                weights: vec![[1.0, 0.0, 0.0, 0.0]; bones.len()],
                ..Mesh::default()
            });
        }
        let to_root = skeleton.bind_to_root();
        let (mut lo, mut hi) = (glam::Vec3::splat(f32::INFINITY), glam::Vec3::splat(f32::NEG_INFINITY));
        for m in &to_root {
            let p = m.w_axis.truncate();
            if p.is_finite() {
                lo = lo.min(p);
                hi = hi.max(p);
            }
        }
        let size = (hi - lo).max_element();
        Signature { skeleton, used, tracks, reduced, size: if size.is_finite() && size > 0.0 { size } else { 1.0 } }
    }
}

/// How well an animation fits a character's skeleton.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Tracks that bind to a bone, of all tracks.
    pub bound: usize,
    pub tracks: usize,
    /// Bones the mesh's vertices use that some track animates, of all it uses.
    pub covered: usize,
    pub used: usize,
    /// Median relative difference of the bone lengths both bind poses give (0: the same proportions).
    pub proportions: f32,
}

impl Fit {
    /// Higher is better.
    pub fn score(&self) -> f32 {
        let ratio = |a: usize, b: usize| if b == 0 { 1.0 } else { a as f32 / b as f32 };
        ratio(self.covered, self.used) + ratio(self.bound, self.tracks) - self.proportions
    }

    pub fn describe(&self) -> String {
        format!(
            "{} of its {} tracks bind to the skeleton, animating {} of the {} bones the mesh uses; bone lengths \
             agree within {:.0}%",
            self.bound,
            self.tracks,
            self.covered,
            self.used,
            100.0 * self.proportions
        )
    }
}

/// Bone lengths differing by more than this (median, relative) are another character's proportions.
const PROPORTION_TOLERANCE: f32 = 0.25;

/// How `animation` fits `mesh`'s skeleton, or `None` when it does not: fewer than half its tracks bind, fewer
/// than half the bones the mesh uses are animated, or the bone lengths of the two bind poses disagree.
pub fn fit(mesh: &Signature, animation: &Signature) -> Option<Fit> {
    let matched = match_tracks(&mesh.skeleton, animation.tracks.iter().map(String::as_str));
    let bound = matched.iter().filter(|m| m.is_some()).count();
    let mut animated = vec![false; mesh.skeleton.len()];
    for (bone, _) in matched.iter().flatten() {
        if let Some(a) = animated.get_mut(*bone) {
            *a = true;
        }
    }
    let used = mesh.used.iter().filter(|u| **u).count();
    let covered = mesh.used.iter().zip(&animated).filter(|(u, a)| **u && **a).count();
    let tracks = animation.tracks.len();
    if bound == 0 || bound * 2 < tracks || covered * 2 < used {
        return None;
    }
    // Bone lengths: the animation file's own bind pose (a PSA's reference skeleton, an SMD's first frame) against
    // the mesh's, for the bones both have.
    let by_name = match_tracks(&mesh.skeleton, animation.skeleton.names.iter().map(String::as_str));
    let mut differences: Vec<f32> = by_name
        .iter()
        .enumerate()
        .filter_map(|(a, found)| {
            let (b, _) = (*found)?;
            mesh.skeleton.parents.get(b).copied().flatten()?;
            let lm = mesh.skeleton.bind_local.get(b)?.translation.length();
            let la = animation.skeleton.bind_local.get(a)?.translation.length();
            (lm > 1e-3 * mesh.size).then(|| (la - lm).abs() / lm)
        })
        .collect();
    differences.sort_by(f32::total_cmp);
    let proportions = differences.get(differences.len() / 2).copied().unwrap_or(0.0);
    (proportions <= PROPORTION_TOLERANCE).then_some(Fit { bound, tracks, covered, used, proportions })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn names_split_into_words() {
        assert_eq!(words("hp2_skgnomeMesh"), ["hp2", "skgnome", "mesh"]);
        assert_eq!(words("kit_SK_MaleBase_01_Body"), ["kit", "sk", "male", "base", "01", "body"]);
        assert_eq!(words("barney_anims"), ["barney", "anims"]);
    }

    #[test]
    fn animations_pair_with_the_mesh_their_name_says() {
        let meshes: Vec<PathBuf> =
            ["d/knightMesh.psk", "d/frogMesh.psk", "d/ghoul_ref.smd", "d/knight_boss_ref.smd", "d/hero.psk"]
                .iter()
                .map(PathBuf::from)
                .collect();
        let refs: Vec<&Path> = meshes.iter().map(PathBuf::as_path).collect();
        let each = |i: usize| i;
        let pair = |file: &str| by_name(Path::new(file), &refs, &each).map(|(i, p)| (i, p.method));
        assert_eq!(pair("d/knightAnims.psa"), Some((0, "name")));
        assert_eq!(pair("d/frogAnims.psa"), Some((1, "name")));
        assert_eq!(pair("d/ghoul_idle.smd"), Some((2, "prefix")));
        assert_eq!(pair("d/knight_boss_walk.smd"), Some((3, "prefix")));
        assert_eq!(pair("d/hero.psa"), Some((4, "name")));
        assert_eq!(pair("d/ghoul_anims/walk.smd"), Some((2, "folder")));
        assert_eq!(pair("d/walk.smd"), None);
        assert_eq!(pair("d/chocolatefrogAnims.psa"), None);
    }
}
