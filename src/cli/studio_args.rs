//! `--skin N`, `--body GROUP=CHOICE`, `--controller NAME=VALUE` and `--blend A[,B]` of `render` and `pose`: the
//! controls a compiled GoldSrc model (or the QC it was made from) has beyond clips, set as the viewer's Files
//! tab and its options of the same names set them. Values that name nothing are errors listing what there is.

use bonescope::AppError;
use bonescope::anim::studio::{BoneAdjustment, blend_fraction, bone_adjustments, find_controller};
use bonescope::scene::{Asset, Clip};

#[derive(clap::Args, Debug, Clone, Default)]
pub struct StudioArgs {
    /// Draw with skin family N of a compiled GoldSrc model or a QC's `$texturegroup` (0: the default skin).
    #[arg(long, value_name = "N")]
    pub skin: Option<usize>,
    /// Show a body group's choice (repeatable): GROUP=CHOICE, each by name or by number from 0.
    #[arg(long = "body", value_name = "GROUP=CHOICE")]
    pub bodies: Vec<String>,
    /// Set a bone controller (repeatable): NAME=VALUE, NAME its number, its bone, its bone and channel
    /// (`Neck.YR`) or `mouth`; VALUE in degrees (rotations) or model units.
    #[arg(long = "controller", value_name = "NAME=VALUE", allow_hyphen_values = true)]
    pub controllers: Vec<String>,
    /// Blend parameters of a blend sequence: A or A,B in its blend ranges (0–1 for one the file gives no range);
    /// without it, where 0 lies in each range, as HLMV starts.
    #[arg(long, value_name = "A[,B]", allow_hyphen_values = true)]
    pub blend: Option<String>,
}

/// What the options ask for, resolved against a model.
#[derive(Clone, Debug, Default)]
pub struct Studio {
    /// The skin family's material remap (empty: every material as it is).
    pub material_remap: Vec<usize>,
    /// (group, choice) pairs to show.
    pub bodies: Vec<(usize, usize)>,
    /// The bone controllers' adjustments (every controller at its rest value unless set).
    pub adjustments: Vec<BoneAdjustment>,
    /// Blend parameters for the clip (`None`: its own defaults).
    pub blend: Option<[f32; 2]>,
}

impl StudioArgs {
    /// Resolves the options against `asset` playing `clip`.
    pub fn resolve(&self, asset: &Asset, clip: Option<&Clip>) -> Result<Studio, AppError> {
        let invalid = AppError::Invalid;
        let script = asset.model_script.as_deref();
        let mut out = Studio::default();
        if let Some(skin) = self.skin {
            let families = script.map_or(&[][..], |s| s.skin_families.as_slice());
            match families.get(skin) {
                Some(f) => out.material_remap = f.remap.clone(),
                None if skin == 0 => {}
                None => {
                    return Err(invalid(format!(
                        "--skin {skin}: the model has {} skin families",
                        families.len().max(1)
                    )));
                }
            }
        }
        for spec in &self.bodies {
            let found =
                script.ok_or_else(|| "the model has no body groups".to_owned()).and_then(|s| s.find_body_choice(spec));
            out.bodies.push(found.map_err(|e| invalid(format!("--body {spec}: {e}")))?);
        }
        let controllers = script.map_or(&[][..], |s| s.controllers.as_slice());
        let mut values: Vec<f32> = controllers.iter().map(|c| c.rest_value()).collect();
        for spec in &self.controllers {
            let Some((name, value)) = spec.split_once('=') else {
                return Err(invalid(format!("--controller {spec}: expected NAME=VALUE")));
            };
            let value = value
                .trim()
                .parse::<f32>()
                .map_err(|_| invalid(format!("--controller {spec}: \"{value}\" is not a number")))?;
            let Some(i) = find_controller(controllers, name) else {
                let names: Vec<String> = controllers.iter().map(|c| c.label()).collect();
                let list = if names.is_empty() { "none".to_owned() } else { names.join(", ") };
                return Err(invalid(format!("--controller {spec}: no such controller; the model has: {list}")));
            };
            values[i] = value;
        }
        out.adjustments = bone_adjustments(&asset.skeleton, controllers, &values);
        if let Some(spec) = &self.blend {
            let sequence = clip.and_then(|c| script?.sequence(&c.name));
            let mut parameters = clip.and_then(|c| c.script.as_ref()?.blend.as_ref()).map_or([0.0; 2], |b| b.defaults);
            for (p, word) in spec.split(',').enumerate().take(2) {
                let v = word
                    .trim()
                    .parse::<f32>()
                    .map_err(|_| invalid(format!("--blend {spec}: \"{word}\" is not a number")))?;
                parameters[p] = blend_fraction(sequence.and_then(|s| s.blends.get(p)), v);
            }
            out.blend = Some(parameters);
        }
        Ok(out)
    }
}
