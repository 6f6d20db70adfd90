//! The controls a GoldSrc model (or its QC) gives a viewer beyond clips, as HLMV and the Half-Life Asset Manager
//! show them: one slider per bone controller (in its units: degrees or model units, within its range) and the
//! two blend parameters of blend sequences (kept as `0..=1` fractions, shown in the focus sequence's range).
//! The values here are turned into the controller's bone adjustments and blend parameters by the player.
//!
//! Must not touch: egui, GPU, files.

use crate::anim::studio::{BoneAdjustment, blend_fraction, bone_adjustments};
use crate::scene::{Asset, BoneController, Skeleton};

/// Bone controller values and blend parameters.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StudioControls {
    pub controllers: Vec<BoneController>,
    /// One per controller, in its units.
    pub values: Vec<f32>,
    /// The two blend parameters, `0..=1` each.
    pub blend: [f32; 2],
}

impl StudioControls {
    /// The controls of `asset`'s model script: controllers at their rest values (HLMV sets each to 0, clamped
    /// into its range), blend parameters where the value 0 lies in the first blend sequence's ranges (HLMV's
    /// `SetBlending(i, 0.0)`).
    pub fn of(asset: &Asset) -> Self {
        let Some(script) = asset.model_script.as_deref() else { return Self::default() };
        let controllers = script.controllers.clone();
        let values = controllers.iter().map(BoneController::rest_value).collect();
        let blend_sequence = script.sequences.iter().find(|s| !s.blends.is_empty());
        let blend = std::array::from_fn(|p| blend_fraction(blend_sequence.and_then(|s| s.blends.get(p)), 0.0));
        Self { controllers, values, blend }
    }

    pub fn is_empty(&self) -> bool {
        self.controllers.is_empty()
    }

    /// Sets controller `index` to `value` (clamped into its range); false when there is no such controller.
    pub fn set_value(&mut self, index: usize, value: f32) -> bool {
        let (Some(c), Some(slot)) = (self.controllers.get(index), self.values.get_mut(index)) else { return false };
        let (lo, hi) = c.range();
        *slot = if value.is_finite() { value.clamp(lo, hi) } else { c.rest_value() };
        true
    }

    /// The controller a user names ([`crate::anim::studio::find_controller`]).
    pub fn find(&self, name: &str) -> Option<usize> {
        crate::anim::studio::find_controller(&self.controllers, name)
    }

    /// What the controllers do to `skeleton` now.
    pub fn adjustments(&self, skeleton: &Skeleton) -> Vec<BoneAdjustment> {
        bone_adjustments(skeleton, &self.controllers, &self.values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{BlendRange, ControllerChannel, ModelScript, ScriptLanguage, ScriptSequence, SequenceKind};

    fn controller(bone: &str, channel: ControllerChannel, start: f32, end: f32) -> BoneController {
        BoneController {
            index: 0,
            bone: bone.into(),
            channel,
            start,
            end,
            wraps: false,
            bone_angles: None,
            file: 0,
            line: 0,
        }
    }

    #[test]
    fn controls_start_where_hlmv_starts_them_and_are_found_by_name() {
        let mut script = ModelScript::new(ScriptLanguage::ValveQc);
        script.controllers = vec![
            controller("Neck", ControllerChannel::YR, -60.0, 60.0),
            controller("Neck", ControllerChannel::Y, 2.0, 5.0),
            controller("Gun", ControllerChannel::ZR, 0.0, 90.0),
        ];
        let mut seq = ScriptSequence::new("aim", SequenceKind::Sequence, 30.0, 0, 1);
        seq.blends = vec![BlendRange { control: "XR".into(), start: -25.0, end: 25.0 }];
        script.sequences.push(seq);
        let asset = Asset { model_script: Some(Box::new(script)), ..Asset::default() };
        let c = StudioControls::of(&asset);
        assert_eq!(c.values, [0.0, 2.0, 0.0], "0, clamped into each range");
        assert_eq!(c.blend, [0.5, 0.0]);
        assert_eq!(c.find("neck.yr"), Some(0));
        assert_eq!(c.find("Neck Y"), Some(1));
        assert_eq!(c.find("Neck"), None, "two controllers drive the neck");
        assert_eq!(c.find("gun"), Some(2));
        assert_eq!(c.find("1"), Some(1));
        let mut c = c;
        assert!(c.set_value(0, 500.0));
        assert_eq!(c.values[0], 60.0);
        assert!(!c.set_value(7, 1.0));
    }
}
