//! Animation clips: per-bone keyframe curves for translation, rotation and scale, matched to a skeleton by bone
//! name, morph-target weight curves matched to mesh targets by name, plus the clip's callback keys.
//!
//! Times are in seconds from the clip's start. A curve has one interpolation kind for all its keys (as glTF
//! does); loaders turn format-specific keys (TCB, 3ds Max Bezier) into Hermite tangents once, at load time, so
//! sampling needs only step, linear and Hermite.

use std::sync::Arc;

use glam::{Quat, Vec3};

/// The key times of a curve, shared: the channels of one clip are usually keyed at the same frames (every bone
/// of a PSA sequence, the position and rotation samples of an ASE node), so one array serves them all instead
/// of a copy per channel. Cloning shares it; a loader that needs other times builds a new array.
pub type KeyTimes = Arc<[f32]>;

/// How values between two keys are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub enum Interpolation {
    /// Hold the earlier key's value.
    Step,
    /// Lerp (vectors) or slerp (rotations).
    #[default]
    Linear,
    /// Cubic Hermite with per-key (in, out) tangents in value units per second (rotations: component-wise, then
    /// normalised).
    Hermite,
}

/// Keys of one channel. `times` ascend; `values` has the same length; `tangents` is empty unless the
/// interpolation is Hermite, in which case it holds one `(in, out)` pair per key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Curve<T> {
    pub times: KeyTimes,
    pub values: Vec<T>,
    pub interpolation: Interpolation,
    pub tangents: Vec<(T, T)>,
}

impl<T: Copy> Curve<T> {
    /// A linearly interpolated curve; `times` is shared when given as [`KeyTimes`], taken over otherwise.
    pub fn linear(times: impl Into<KeyTimes>, values: Vec<T>) -> Self {
        Self { times: times.into(), values, interpolation: Interpolation::Linear, tangents: Vec::new() }
    }

    pub fn constant(value: T) -> Self {
        Self::linear([0.0], vec![value])
    }

    pub fn is_empty(&self) -> bool {
        self.times.is_empty() || self.values.is_empty()
    }

    pub fn len(&self) -> usize {
        self.times.len().min(self.values.len())
    }

    /// Time of the last key (0 for an empty curve).
    pub fn end_time(&self) -> f32 {
        self.times.last().copied().unwrap_or(0.0)
    }
}

/// Hands out shared key times while a loader builds a clip's curves: times equal to those handed out last are
/// that array again, so the tracks of a clip keyed at the same frames (the usual case) hold one array between
/// them.
#[derive(Default)]
pub struct SharedTimes {
    last: Option<KeyTimes>,
}

impl SharedTimes {
    /// `times` as a shared array: the last one handed out when equal, a new one otherwise.
    pub fn share(&mut self, times: &[f32]) -> KeyTimes {
        if let Some(last) = &self.last
            && **last == *times
        {
            return last.clone();
        }
        let shared: KeyTimes = times.into();
        self.last = Some(shared.clone());
        shared
    }
}

/// The animation of one bone in a clip. Empty curves mean "not animated": the bone keeps its bind value for
/// that channel.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoneTrack {
    pub bone_name: String,
    pub translation: Curve<Vec3>,
    pub rotation: Curve<Quat>,
    pub scale: Curve<Vec3>,
}

/// The weight of one morph target over time: a glTF `weights` channel, one target per track. Vertex animation
/// (tweened key meshes, VTA flex frames) is stored this way too, so every kind plays through the same path.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MorphTrack {
    /// The target's [`super::MorphTarget::name`].
    pub target: String,
    /// The [`super::Mesh::name`] of the mesh whose target it drives; `None` drives the target of that name on
    /// every mesh that has one (a flex shared by several meshes, as studiomdl and HLMV treat them).
    pub mesh: Option<String>,
    /// 0 is the base mesh, 1 the full target; other values scale the deltas (negative ones too).
    pub weights: Curve<f32>,
}

/// A user callback key: fired by the controller when playback crosses `time`.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct CallbackKey {
    pub time: f32,
    pub data: String,
    /// What kind of event the key is, as its source names it (a model script's event keyword or number, e.g.
    /// `eventSFX` or `1003`); empty for plain keys.
    pub kind: String,
    /// The source frame the key was written at (model-script events), for display.
    pub frame: Option<i32>,
}

impl CallbackKey {
    /// A plain key carrying `data`.
    pub fn new(time: f32, data: impl Into<String>) -> Self {
        Self { time, data: data.into(), kind: String::new(), frame: None }
    }

    /// A model-script event: `kind` at source `frame`, carrying `data` (the event's text).
    pub fn event(time: f32, frame: i32, kind: impl Into<String>, data: impl Into<String>) -> Self {
        Self { time, data: data.into(), kind: kind.into(), frame: Some(frame) }
    }
}

/// A named animation ("animation set" in D3DX terms).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clip {
    pub name: String,
    /// Length in seconds (the period).
    pub duration: f32,
    /// Frames per second of the source data, for frame stepping and display.
    pub frame_rate: f32,
    /// Number of frames in the source data.
    pub frame_count: u32,
    pub tracks: Vec<BoneTrack>,
    pub callback_keys: Vec<CallbackKey>,

    // --- Model-script playback (QC `$sequence`, MDS `ani`/`aniAlias`, MMS `morphAni`) ---
    /// How the model script that defined this clip plays it (loop flag, next clip, blend times, source frames,
    /// vertex animation); `None` for clips of animation files opened on their own.
    pub script: Option<Box<super::ClipScript>>,

    // --- Morph targets ---
    /// Morph-target weight tracks (matched to targets by name when the clip is bound).
    pub morph_tracks: Vec<MorphTrack>,

    // --- Binding ---
    /// How the clip drives a skeleton it was not made for (the retargeting of the animation file it came from;
    /// the default samples it as the file says).
    pub retarget: super::Retarget,
}

impl Clip {
    /// The track that animates this bone, matched like [`super::Skeleton::find`].
    pub fn track_for(&self, bone_name: &str) -> Option<&BoneTrack> {
        let wanted = super::skeleton::normalize_bone_name(bone_name);
        self.tracks.iter().find(|t| super::skeleton::normalize_bone_name(&t.bone_name) == wanted)
    }

    /// Total number of keys over all channels (bone and morph-weight).
    pub fn key_count(&self) -> usize {
        let bones: usize = self.tracks.iter().map(|t| t.translation.len() + t.rotation.len() + t.scale.len()).sum();
        bones + self.morph_tracks.iter().map(|t| t.weights.len()).sum::<usize>()
    }

    /// Time of the last key of any channel (0 without keys): the length of a clip that states none.
    pub fn last_key_time(&self) -> f32 {
        let bones =
            self.tracks.iter().flat_map(|t| [t.translation.end_time(), t.rotation.end_time(), t.scale.end_time()]);
        bones
            .chain(self.morph_tracks.iter().map(|t| t.weights.end_time()))
            .filter(|t| t.is_finite())
            .fold(0.0f32, f32::max)
    }
}
