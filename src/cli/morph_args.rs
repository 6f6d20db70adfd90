//! `--morph NAME=WEIGHT` (repeatable) for `pose`, `render` and `export`: set morph targets by hand, as HLMV's
//! flex sliders or Blender's shape-key values do. A setting overrides what the clip (if any) drives for that
//! target; the other targets keep the clip's value (0 without a clip). Also the per-target facts `info` lists.
//!
//! Names: `NAME` is a target's name, matched on every mesh that has a target of that name (a flex shared by
//! several meshes, as studiomdl treats them); exact case first, then ignoring case. `MESH/TARGET` picks one
//! mesh's target where the plain name is not a target. A name that matches nothing is an error listing the
//! targets there are.

use glam::Vec3;
use serde_json::{Value, json};

use bonescope::AppError;
use bonescope::anim::morph::{MorphSetting, parse_morph_setting, slots_named, unknown_target};
use bonescope::anim::{MorphBinding, MorphLayout};
use bonescope::scene::{Asset, Clip, MorphTarget};

#[derive(clap::Args, Debug, Clone, Default)]
pub struct MorphArgs {
    /// Set a morph target's weight (repeatable): NAME=WEIGHT, NAME a target's name (on every mesh that has it)
    /// or MESH/TARGET; 0 is the base mesh, 1 the full target. Overrides what the clip drives for that target.
    #[arg(long = "morph", value_name = "NAME=WEIGHT", value_parser = parse_morph_setting, allow_hyphen_values = true)]
    pub morphs: Vec<MorphSetting>,
}

impl MorphArgs {
    /// The slots of `layout` each setting names, with its weight (later settings of a slot win).
    pub fn resolve(&self, asset: &Asset, layout: &MorphLayout) -> Result<Vec<(usize, f32)>, AppError> {
        let mut out = Vec::new();
        for setting in &self.morphs {
            let slots = slots_named(&asset.meshes, layout, &setting.name);
            if slots.is_empty() {
                return Err(AppError::Invalid(unknown_target(&asset.meshes, &setting.name)));
            }
            out.extend(slots.into_iter().map(|s| (s, setting.weight)));
        }
        Ok(out)
    }

    /// The weight of every target (one per slot of `MorphLayout::of_meshes(&asset.meshes)`): the clip's at
    /// `time` (none without a clip), then the settings.
    pub fn weights(&self, asset: &Asset, clip: Option<&Clip>, time: f32) -> Result<Vec<f32>, AppError> {
        let layout = MorphLayout::of_meshes(&asset.meshes);
        let mut weights = vec![0.0; layout.len()];
        if let Some(clip) = clip {
            MorphBinding::new(&layout, clip).sample(clip, time, &mut weights);
        }
        for (slot, w) in self.resolve(asset, &layout)? {
            weights[slot] = w;
        }
        Ok(weights)
    }
}

/// The largest distance a target moves a vertex by at weight 1.
pub fn largest_displacement(target: &MorphTarget) -> f32 {
    target.position_deltas.iter().map(|d| d.length()).filter(|d| d.is_finite()).fold(0.0, f32::max)
}

/// `info`'s facts about one target: name, vertices it moves, largest displacement (file units), and the vertex
/// frame it was made from, if any.
pub fn target_json(target: &MorphTarget) -> Value {
    json!({
        "name": target.name,
        "vertices": target.vertices.len(),
        "largest_displacement": largest_displacement(target),
        "vertex_frame": target.vertex_frame,
    })
}

/// What a set of weights does to each mesh before skinning: how many vertices move and how far at most.
pub fn displacement(base: &[Vec3], morphed: &[Vec3]) -> (usize, f32) {
    base.iter()
        .zip(morphed)
        .map(|(a, b)| a.distance(*b))
        .filter(|d| *d > 0.0)
        .fold((0, 0.0), |(n, m), d| (n + 1, m.max(d)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bonescope::scene::Mesh;

    fn asset() -> Asset {
        let target = |name: &str, d: Vec3| MorphTarget {
            name: name.into(),
            vertices: vec![0],
            position_deltas: vec![d],
            ..MorphTarget::default()
        };
        let mut asset = Asset::default();
        for (mesh, targets) in [
            ("face", vec![target("Smile", Vec3::Y), target("blink", Vec3::Z)]),
            ("lashes", vec![target("blink", Vec3::X)]),
        ] {
            asset.meshes.push(Mesh {
                name: mesh.into(),
                positions: vec![Vec3::ZERO],
                morph_targets: targets,
                ..Mesh::default()
            });
        }
        asset
    }

    #[test]
    fn settings_parse_and_bad_ones_say_why() {
        assert_eq!(parse_morph_setting("smile=0.5").unwrap(), MorphSetting { name: "smile".into(), weight: 0.5 });
        assert_eq!(parse_morph_setting("a=b=-1").unwrap(), MorphSetting { name: "a=b".into(), weight: -1.0 });
        for (bad, why) in [("smile", "NAME=WEIGHT"), ("=1", "names no"), ("smile=x", "'x'"), ("smile=inf", "finite")] {
            let e = parse_morph_setting(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn names_match_every_mesh_then_case_then_mesh_slash_target() {
        let asset = asset();
        let layout = MorphLayout::of_meshes(&asset.meshes);
        let args = |s: &[&str]| MorphArgs { morphs: s.iter().map(|m| parse_morph_setting(m).unwrap()).collect() };
        assert_eq!(args(&["blink=1"]).resolve(&asset, &layout).unwrap(), [(1, 1.0), (2, 1.0)]);
        assert_eq!(args(&["smile=0.5"]).resolve(&asset, &layout).unwrap(), [(0, 0.5)]);
        assert_eq!(args(&["lashes/blink=2"]).resolve(&asset, &layout).unwrap(), [(2, 2.0)]);
        let e = args(&["frown=1"]).resolve(&asset, &layout).unwrap_err().to_string();
        assert!(e.contains("frown") && e.contains("face/Smile") && e.contains("lashes/blink"), "{e}");
        assert_eq!(args(&["blink=1", "face/blink=0.25"]).weights(&asset, None, 0.0).unwrap(), [0.0, 0.25, 1.0]);
    }
}
