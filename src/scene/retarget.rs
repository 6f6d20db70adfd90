//! How an animation made for one skeleton drives another: where each bone's translation comes from, and what
//! happens to the root's motion. Plain settings, kept on each bound [`super::Clip`] (every clip of one animation
//! file shares its file's); `anim::sample::ClipBinding` applies them when it binds a clip, so the viewer, the
//! command line, the diagnostics and the export all sample the same pose.
//!
//! The modes follow Unreal's per-bone translation retargeting (Animation, Skeleton, AnimationScaled) and
//! umodel's rotation-only playback. Animation files do not reliably carry their own skeleton's bind pose (a
//! PSA's reference positions are often zero, an animation SMD has only frames), so the animation's first frame
//! stands for its skeleton: the scale of [`TranslationMode::Scaled`] is `|bind translation| / |first-frame
//! translation|` per bone.

/// Where a bone's translation comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum TranslationMode {
    /// The animation's translations (what the file says; right when it was made for this skeleton).
    #[default]
    Animation,
    /// The model's bind pose: rotation only. The animation's bone lengths are ignored, so a mesh plays intact
    /// with an animation made for other proportions.
    #[cfg_attr(feature = "cli", value(name = "rotation-only", alias = "bind"))]
    #[serde(rename = "rotation_only")]
    RotationOnly,
    /// The animation's translations scaled by the ratio of the model's bone length to the animation's.
    Scaled,
}

impl TranslationMode {
    pub const ALL: [TranslationMode; 3] =
        [TranslationMode::Animation, TranslationMode::RotationOnly, TranslationMode::Scaled];

    pub fn label(self) -> &'static str {
        match self {
            TranslationMode::Animation => "from the animation",
            TranslationMode::RotationOnly => "from the model (rotation only)",
            TranslationMode::Scaled => "animation scaled to the model",
        }
    }
}

/// What happens to the motion of root bones (bones without a parent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum RootMotion {
    /// The root moves as the animation moves it (with rotation-only, from the bind pose by the animation's
    /// motion).
    #[default]
    Keep,
    /// The root stays where the first frame puts it.
    Lock,
    /// The root moves over the ground only: its height stays that of the first frame.
    Ground,
}

impl RootMotion {
    pub const ALL: [RootMotion; 3] = [RootMotion::Keep, RootMotion::Lock, RootMotion::Ground];

    pub fn label(self) -> &'static str {
        match self {
            RootMotion::Keep => "kept",
            RootMotion::Lock => "locked in place",
            RootMotion::Ground => "on the ground plane only",
        }
    }
}

/// The retargeting of one binding (an animation file bound to a model).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Retarget {
    /// Every bone's translation mode, unless overridden.
    pub translation: TranslationMode,
    pub root: RootMotion,
    /// Per-bone modes (by bone name) that replace `translation` for those bones.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<(String, TranslationMode)>,
    /// The up direction in the file's frame, for [`RootMotion::Ground`] (the model's axis conversion says it).
    pub up: [f32; 3],
    /// Play placeholder tracks too ([`super::placeholder`]: constant identity keys of bones the animation never
    /// moved); by default those bones keep their bind pose.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub apply_placeholder_tracks: bool,
}

impl Default for Retarget {
    fn default() -> Self {
        Self {
            translation: TranslationMode::Animation,
            root: RootMotion::Keep,
            overrides: Vec::new(),
            up: [0.0, 1.0, 0.0],
            apply_placeholder_tracks: false,
        }
    }
}

impl Retarget {
    /// Sampling as the file says: nothing to adjust.
    pub fn is_identity(&self) -> bool {
        self.translation == TranslationMode::Animation
            && self.root == RootMotion::Keep
            && self.overrides.iter().all(|(_, m)| *m == TranslationMode::Animation)
    }

    /// The mode of the bone named `bone`: its override, or the binding's.
    pub fn mode_of(&self, bone: &str) -> TranslationMode {
        self.overrides.iter().rev().find(|(name, _)| name == bone).map_or(self.translation, |(_, m)| *m)
    }

    /// Sets the mode of one bone (an override; removed when it equals the binding's mode).
    pub fn set_override(&mut self, bone: &str, mode: TranslationMode) {
        self.overrides.retain(|(name, _)| name != bone);
        if mode != self.translation {
            self.overrides.push((bone.to_owned(), mode));
        }
    }
}
