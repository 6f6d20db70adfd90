//! The D3DX-style animation controller: animation sets (clips bound to one skeleton), any number of tracks that
//! play them, a mixer that blends the tracks by weight (with additive tracks and per-bone masks), a sequencer
//! of track events at global times, and callback keys fired as playback crosses them.
//!
//! Owns the skeleton (shared through an `Arc`), the bound clips and all playback state. It does not own output
//! buffers: [`Controller::evaluate`] writes local transforms, to-root matrices and the skinning palette into
//! slices the caller keeps, and nothing allocates per frame (clip bone names are resolved once, in
//! [`Controller::add_set`]). It knows nothing of files, GPUs or UIs; a UI drives it through the setters below
//! and reads [`Controller::tracks`], [`Controller::events`] and [`Controller::track_local_time`] to draw.
//!
//! # Time
//! Timers cascade: the application hands [`Controller::advance`] a frame's `dt`; the controller's global clock
//! ([`Controller::time`]) moves by `dt` and each enabled track's *position* moves by `dt · speed` (negative speed
//! plays backwards). A track's position is unbounded; the [`PlaybackType`] of the track (or, if the track does
//! not override it, of its set) maps it into the clip's *local time*: `Loop` wraps, `PingPong` reflects,
//! `ClampForever` holds the last frame, `Once` plays through and then disables the track.
//!
//! # Mixer
//! Tracks in [`BlendMode::Blend`] are averaged by weight per bone (weight × mask), quaternions in one
//! hemisphere; where the total weight is below [`Controller::rest_threshold`] (default 1) the bind pose fills
//! the gap, so weights summing to 1 or more are normalised and a lone track at weight 0.3 is 30 % of the way
//! from the bind pose. Disabled tracks, tracks at weight 0 and tracks without a set contribute nothing. Then
//! tracks in [`BlendMode::Additive`] are layered on top, in track order, as differences from their clip's first
//! frame or from the bind pose. Bones a clip does not animate keep the bind value in that clip's pose.
//!
//! # Morph weights
//! Clips carry morph-weight tracks beside their bone tracks ([`crate::scene::MorphTrack`]); the controller's
//! [`MorphLayout`] (from the asset's meshes, see [`Controller::for_asset`] and [`Controller::set_morph_layout`])
//! gives every target one slot in a flat weight slice, and each set's tracks are resolved to slots once, when the
//! set is added. [`Controller::evaluate_morph_weights`] mixes them with the same weights as bones: blend tracks
//! are averaged by track weight, a blend track whose clip does not drive a target contributing that target's rest
//! value 0 (as a clip that does not animate a bone contributes its bind value), with the same rest threshold; then
//! additive tracks add `weight × (value − reference)`, the reference being the clip's value at time 0
//! ([`AdditiveReference::FirstFrame`]) or 0 ([`AdditiveReference::BindPose`]). Bone masks select bones and do
//! not scale morph weights.
//!
//! # Sequencer
//! A [`TrackEvent`] changes a track's speed, weight, position or enable flag at a global time, at once or over
//! a duration (linear, or the cubic-spline ease). A ramp starts from the track's value when it starts (or an
//! explicit `from`), and a new event on the same track and property replaces a running one. Time is cut at
//! event boundaries inside `advance` and speed ramps are integrated exactly, so the result does not depend on
//! the frame rate. Finished events are dropped; [`Controller::events`] lists the pending and running ones.
//!
//! # Callbacks
//! Each set's callback keys (the clip's [`crate::scene::CallbackKey`]s) fire through the handler given to
//! `advance`, once per crossing: a key at local time `t` fires when a track's position moves over it, in
//! `(last, now]` when playing forwards and `[now, last)` backwards: through loop wraps (once per wrap),
//! ping-pong reflections (on both legs; a key at a turning point once per turn) and any number of cycles in
//! one step (up to [`MAX_CALLBACK_CYCLES`]). Continuous movement fires: playback by speed and position ramps.
//! **Jumps fire nothing**: [`Controller::set_position`], instant position events, [`Controller::set_time`] and
//! disabled tracks never call the handler, so scrubbing a timeline cannot cause a storm. To hear the keys a
//! jump passes, use [`Controller::set_position_with_callbacks`], which fires every key between the old and the
//! new position at most once.
//!
//! ```
//! use std::sync::Arc;
//! use bonescope::anim::controller::{Controller, PlaybackType, Transition};
//! use bonescope::anim::Pose;
//!
//! let asset = bonescope::scene::samples::demo::demo_asset();
//! let mut ctrl = Controller::new(Arc::new(asset.skeleton.clone()));
//! let sway = ctrl.add_set(asset.clips[0].clone(), PlaybackType::Loop);
//! let curl = ctrl.add_set(asset.clips[1].clone(), PlaybackType::ClampForever);
//! let walk = ctrl.add_track(Some(sway)).unwrap();
//! let wave = ctrl.add_track(Some(curl)).unwrap();
//! ctrl.set_enabled(wave, false).unwrap();
//! ctrl.cross_fade(walk, wave, 1.0, 0.5, Transition::CubicSpline).unwrap();
//!
//! let mut pose = Pose::bind(ctrl.skeleton());
//! let mut heard = Vec::new();
//! for _ in 0..60 {
//!     ctrl.advance(1.0 / 30.0, |e| heard.push(e.data.to_owned()));
//!     ctrl.evaluate_pose(&mut pose).unwrap();
//! }
//! assert_eq!(heard, ["sway_left", "sway_right"]);
//! assert_eq!(ctrl.track(walk).unwrap().weight(), 0.0);
//! ```

mod baked;
mod matrices;
mod playback;
mod sequencer;

use std::sync::Arc;

use glam::Mat4;

use crate::scene::{Asset, Clip, Skeleton, Transform};

use super::blend::{Blender, BoneMask, apply_additive};
use super::morph::{MorphBinding, MorphLayout};
use super::pose::{Pose, PoseError};
use super::sample::ClipBinding;
use super::studio;

pub use baked::NLERP_MAX_ANGLE_DEG;
pub use matrices::{MatrixPlan, to_root_and_palette};
pub use playback::{MAX_CALLBACK_CYCLES, PlaybackType, local_time};
pub use sequencer::{EventId, EventKind, EventState, Property, ScheduledEvent, TrackEvent, Transition};

use playback::{for_each_crossing, settle_position};
use sequencer::{monotonic_root, simpson};

/// What went wrong with a controller call. All are caller mistakes (stale indices, mismatched buffers); the
/// controller's state is unchanged when one is returned.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ControllerError {
    #[error("no track {track}: the controller has {tracks} tracks")]
    NoTrack { track: usize, tracks: usize },
    #[error("no animation set {set}: the controller has {sets} sets")]
    NoSet { set: usize, sets: usize },
    #[error("the bone mask has {found} weights, the skeleton has {expected} bones")]
    MaskLength { expected: usize, found: usize },
    #[error("{found} morph weights for the {expected} morph targets of the controller's layout")]
    MorphLength { expected: usize, found: usize },
    #[error(transparent)]
    Pose(#[from] PoseError),
}

/// A clip bound to the controller's skeleton (a D3DX "animation set").
#[derive(Clone, Debug)]
pub struct AnimationSet {
    clip: Arc<Clip>,
    binding: ClipBinding,
    playback: PlaybackType,
    duration: f32,
    /// Callback keys inside `[0, duration]`, ascending by time, and where each sits in `clip.callback_keys`.
    key_times: Vec<f32>,
    key_index: Vec<usize>,
    /// The clip sampled at time 0: the reference of additive tracks in [`AdditiveReference::FirstFrame`].
    first_frame: Vec<Transform>,
    /// The clip's keys laid out for fast sampling.
    baked: baked::BakedClip,
    /// The clip's morph-weight tracks resolved to the controller's morph slots.
    morphs: MorphBinding,
    /// Each driven slot's weight at time 0 (parallel to `morphs.driven_slots()`): the reference of additive tracks
    /// in [`AdditiveReference::FirstFrame`].
    morph_first_frame: Vec<f32>,
    /// A blend sequence's further animations (the clip's [`crate::scene::ClipBlend`]), bound and baked, and the
    /// blend parameters they are mixed by now.
    blend: Option<Box<SetBlend>>,
}

/// The further animations of a blend sequence's set and its blend parameters (`0..=1` each).
#[derive(Clone, Debug)]
struct SetBlend {
    variants: Vec<(Arc<Clip>, ClipBinding, baked::BakedClip)>,
    parameters: [f32; 2],
}

impl AnimationSet {
    fn new(skeleton: &Skeleton, layout: &MorphLayout, clip: Arc<Clip>, playback: PlaybackType) -> Self {
        let binding = ClipBinding::new(skeleton, &clip);
        let duration = clip_duration(&clip);
        let mut keys: Vec<(f32, usize)> = (clip.callback_keys.iter().enumerate())
            .filter(|(_, k)| k.time >= 0.0 && k.time <= duration)
            .map(|(i, k)| (k.time, i))
            .collect();
        keys.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let baked = baked::BakedClip::new(skeleton, &clip, &binding);
        // Through the same sampler as playback, so that an additive track at its first frame adds exactly nothing.
        let mut first_frame = vec![Transform::IDENTITY; skeleton.len()];
        baked.sample(skeleton, &clip, &binding, 0.0, &mut first_frame);
        let blend = clip.script.as_ref().and_then(|s| s.blend.as_ref()).filter(|b| !b.animations.is_empty()).map(|b| {
            let variants = (b.animations.iter())
                .map(|c| {
                    let c = Arc::new(c.clone());
                    let binding = ClipBinding::new(skeleton, &c);
                    let baked = baked::BakedClip::new(skeleton, &c, &binding);
                    (c, binding, baked)
                })
                .collect();
            Box::new(SetBlend { variants, parameters: b.defaults })
        });
        let mut set = Self {
            baked,
            clip,
            binding,
            playback,
            duration,
            key_times: keys.iter().map(|k| k.0).collect(),
            key_index: keys.iter().map(|k| k.1).collect(),
            first_frame,
            morphs: MorphBinding::default(),
            morph_first_frame: Vec::new(),
            blend,
        };
        set.bind_morphs(layout);
        set
    }

    /// Resolves the clip's morph tracks against `layout` (again, when the layout changes).
    fn bind_morphs(&mut self, layout: &MorphLayout) {
        self.morphs = MorphBinding::new(layout, &self.clip);
        self.morph_first_frame.clear();
        let first = &mut self.morph_first_frame;
        self.morphs.for_each(&self.clip, 0.0, |_, w| first.push(w));
    }

    /// How the clip's morph-weight tracks matched the controller's morph targets.
    pub fn morph_binding(&self) -> &MorphBinding {
        &self.morphs
    }

    pub fn name(&self) -> &str {
        &self.clip.name
    }

    pub fn clip(&self) -> &Arc<Clip> {
        &self.clip
    }

    /// How many animations the set mixes: 1, or a blend sequence's count.
    pub fn blend_count(&self) -> usize {
        1 + self.blend.as_ref().map_or(0, |b| b.variants.len())
    }

    /// The blend parameters (`0..=1`) the set's animations are mixed by; `None` for a set of one animation.
    pub fn blend_parameters(&self) -> Option<[f32; 2]> {
        self.blend.as_ref().map(|b| b.parameters)
    }

    /// Samples the set's pose at clip time `time` into `out`: its clip, or a blend sequence's animations mixed
    /// by its blend parameters ([`crate::anim::studio`]), using `scratch` for the further animations.
    fn sample_into(&self, skeleton: &Skeleton, time: f32, out: &mut [Transform], scratch: &mut BlendScratch) {
        let Some(blend) = &self.blend else {
            self.baked.sample(skeleton, &self.clip, &self.binding, time, out);
            return;
        };
        let sample =
            |index: usize, into: &mut [Transform]| match index.checked_sub(1).and_then(|v| blend.variants.get(v)) {
                Some((clip, binding, baked)) => baked.sample(skeleton, clip, binding, time, into),
                None => self.baked.sample(skeleton, &self.clip, &self.binding, time, into),
            };
        let [b, c, d] = &mut scratch.0;
        for buffer in [&mut *b, &mut *c, &mut *d] {
            buffer.resize(out.len(), Transform::IDENTITY);
        }
        match studio::blend_plan(self.blend_count(), blend.parameters) {
            studio::BlendPlan::Single(a) => sample(a, out),
            studio::BlendPlan::Pair { a, b: other, s } => {
                sample(a, out);
                sample(other, b);
                studio::slerp_poses(out, b, s);
            }
            studio::BlendPlan::Grid { a, b: ib, c: ic, d: id, s, t } => {
                sample(a, out);
                sample(ib, b);
                sample(ic, c);
                sample(id, d);
                studio::slerp_poses(out, b, s);
                studio::slerp_poses(c, d, s);
                studio::slerp_poses(out, c, t);
            }
        }
    }

    /// The set's playback type (tracks may override it).
    pub fn playback(&self) -> PlaybackType {
        self.playback
    }

    /// Length in seconds: the clip's duration, or its last key time when the clip states none.
    pub fn duration(&self) -> f32 {
        self.duration
    }

    /// How the clip's tracks matched the skeleton's bones.
    pub fn binding(&self) -> &ClipBinding {
        &self.binding
    }

    /// Callback keys that can fire (those inside `[0, duration]`), as indices into the clip's keys, by time.
    pub fn callback_keys(&self) -> &[usize] {
        &self.key_index
    }
}

/// The baked sampler's pose of `clip` at `time`, for tests elsewhere in `anim` that check it agrees with
/// [`ClipBinding::sample`].
#[cfg(test)]
pub(crate) fn baked_for_tests(skeleton: &Skeleton, clip: &Clip, binding: &ClipBinding, time: f32) -> Vec<Transform> {
    let mut out = vec![Transform::IDENTITY; skeleton.len()];
    baked::BakedClip::new(skeleton, clip, binding).sample(skeleton, clip, binding, time, &mut out);
    out
}

fn clip_duration(clip: &Clip) -> f32 {
    if clip.duration.is_finite() && clip.duration > 0.0 {
        return clip.duration;
    }
    clip.last_key_time().max(0.0)
}

/// What an additive track's pose is measured against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub enum AdditiveReference {
    /// The clip's own pose at time 0 (the usual authoring: an additive clip starts from its base pose).
    #[default]
    FirstFrame,
    /// The skeleton's bind pose.
    BindPose,
}

/// How a track enters the mixer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub enum BlendMode {
    /// Weighted average with the other blend tracks.
    #[default]
    Blend,
    /// Applied on top of the blended pose as a difference from the reference, scaled by the weight.
    Additive(AdditiveReference),
}

impl BlendMode {
    /// Every mode, in the order a mixer offers them.
    pub const ALL: [BlendMode; 3] = [
        BlendMode::Blend,
        BlendMode::Additive(AdditiveReference::FirstFrame),
        BlendMode::Additive(AdditiveReference::BindPose),
    ];

    /// A short label for UIs.
    pub fn label(self) -> &'static str {
        match self {
            BlendMode::Blend => "blend",
            BlendMode::Additive(AdditiveReference::FirstFrame) => "add (vs first frame)",
            BlendMode::Additive(AdditiveReference::BindPose) => "add (vs bind pose)",
        }
    }
}

/// One track: plays a set at a speed, from a position, with a weight (a D3DX "track").
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    set: Option<usize>,
    enabled: bool,
    speed: f32,
    weight: f32,
    position: f64,
    mode: BlendMode,
    mask: Option<BoneMask>,
    playback: Option<PlaybackType>,
}

impl Track {
    fn new(set: Option<usize>) -> Self {
        Self {
            set,
            enabled: true,
            speed: 1.0,
            weight: 1.0,
            position: 0.0,
            mode: BlendMode::Blend,
            mask: None,
            playback: None,
        }
    }

    /// The set it plays (index into [`Controller::sets`]).
    pub fn set(&self) -> Option<usize> {
        self.set
    }

    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// Playback speed: 1 is normal, negative plays backwards.
    pub fn speed(&self) -> f32 {
        self.speed
    }

    pub fn weight(&self) -> f32 {
        self.weight
    }

    /// Position in seconds on the track's own, unbounded timeline (see [`Controller::track_local_time`] for
    /// where that is in the clip).
    pub fn position(&self) -> f64 {
        self.position
    }

    pub fn mode(&self) -> BlendMode {
        self.mode
    }

    pub fn mask(&self) -> Option<&BoneMask> {
        self.mask.as_ref()
    }

    /// The track's own playback type, if it overrides its set's.
    pub fn playback_override(&self) -> Option<PlaybackType> {
        self.playback
    }

    fn value(&self, property: Property) -> f64 {
        match property {
            Property::Speed => f64::from(self.speed),
            Property::Weight => f64::from(self.weight),
            Property::Position => self.position,
            Property::Enable => f64::from(u8::from(self.enabled)),
        }
    }

    fn apply(&mut self, property: Property, value: f64) {
        match property {
            Property::Speed => self.speed = value as f32,
            Property::Weight => self.weight = value as f32,
            Property::Position => self.position = value,
            Property::Enable => self.enabled = value != 0.0,
        }
    }

    /// Whether the track enters the morph-weight mix (masks do not apply to morph weights).
    fn drives_morphs(&self, sets: usize) -> bool {
        self.enabled && self.weight > 0.0 && self.set.is_some_and(|s| s < sets)
    }

    fn contributes(&self, sets: usize) -> bool {
        self.enabled
            && self.weight > 0.0
            && self.set.is_some_and(|s| s < sets)
            && !self.mask.as_ref().is_some_and(BoneMask::is_zero)
    }
}

/// A callback key being crossed, as handed to the `advance` handler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CallbackEvent<'a> {
    /// The track whose playback crossed the key.
    pub track: usize,
    /// The set it plays.
    pub set: usize,
    /// Index of the key in the clip's `callback_keys`.
    pub key: usize,
    /// The key's time in the clip.
    pub key_time: f32,
    /// The key's user data.
    pub data: &'a str,
    /// Global time at which the key was crossed (interpolated within the step).
    pub time: f64,
    /// True when the track was moving backwards.
    pub backwards: bool,
}

/// The animation controller. See the [module documentation](self) for the model.
#[derive(Clone, Debug)]
pub struct Controller {
    skeleton: Arc<Skeleton>,
    time: f64,
    sets: Vec<AnimationSet>,
    tracks: Vec<Track>,
    /// Pending and running events, ordered by (start, id).
    events: Vec<ScheduledEvent>,
    next_event: u64,
    rest_threshold: f32,
    // Reused scratch: sampling one track, the mixer's accumulators, keys already fired by a seek.
    scratch: Vec<Transform>,
    blender: Blender,
    fired: Vec<bool>,
    /// The skeleton laid out for the to-root + palette pass.
    matrix_plan: MatrixPlan,
    /// One weight slot per morph target of the meshes the controller animates.
    morph_layout: MorphLayout,
    /// Poses of a blend sequence's further animations while they are mixed, and of a blend set sampled for the
    /// mixer.
    blend_scratch: BlendScratch,
    pose_scratch: Vec<Transform>,
    /// Bone controllers' adjustments, applied to the mixed pose ([`crate::anim::studio`]).
    adjustments: Vec<studio::BoneAdjustment>,
}

/// Three poses of scratch for mixing a blend sequence's animations.
#[derive(Clone, Debug, Default)]
struct BlendScratch([Vec<Transform>; 3]);

impl Controller {
    /// A controller for this skeleton, with no sets and no tracks, at time 0.
    pub fn new(skeleton: Arc<Skeleton>) -> Self {
        let bones = skeleton.len();
        let matrix_plan = MatrixPlan::new(&skeleton);
        Self {
            skeleton,
            time: 0.0,
            sets: Vec::new(),
            tracks: Vec::new(),
            events: Vec::new(),
            next_event: 0,
            rest_threshold: 1.0,
            scratch: vec![Transform::IDENTITY; bones],
            blender: Blender::new(),
            fired: Vec::new(),
            matrix_plan,
            morph_layout: MorphLayout::default(),
            blend_scratch: BlendScratch::default(),
            pose_scratch: Vec::new(),
            adjustments: Vec::new(),
        }
    }

    /// A controller for an asset's skeleton and the morph targets of its meshes, with every clip added as a
    /// looping set, and no tracks.
    pub fn for_asset(asset: &Asset) -> Self {
        let mut ctrl = Self::new(Arc::new(asset.skeleton.clone()));
        ctrl.morph_layout = MorphLayout::of_meshes(&asset.meshes);
        for clip in &asset.clips {
            ctrl.add_set(clip.clone(), PlaybackType::Loop);
        }
        ctrl
    }

    pub fn skeleton(&self) -> &Arc<Skeleton> {
        &self.skeleton
    }

    // ----- animation sets -------------------------------------------------------------------------------

    /// Binds a clip to the skeleton and the morph layout (bone and target names are resolved here, once) and
    /// returns its set index.
    pub fn add_set(&mut self, clip: impl Into<Arc<Clip>>, playback: PlaybackType) -> usize {
        self.sets.push(AnimationSet::new(&self.skeleton, &self.morph_layout, clip.into(), playback));
        self.sets.len() - 1
    }

    /// The morph targets the controller mixes weights for (empty unless given, see [`Controller::for_asset`]).
    pub fn morph_layout(&self) -> &MorphLayout {
        &self.morph_layout
    }

    /// Sets the morph targets to mix weights for (usually `MorphLayout::of_meshes(&asset.meshes)`) and binds every
    /// set's morph tracks to them again.
    pub fn set_morph_layout(&mut self, layout: MorphLayout) {
        self.morph_layout = layout;
        for set in &mut self.sets {
            set.bind_morphs(&self.morph_layout);
        }
    }

    /// Sets the blend parameters (`0..=1` each) a blend sequence's set mixes its animations by; no effect on a
    /// set of one animation.
    pub fn set_blend_parameters(&mut self, set: usize, parameters: [f32; 2]) -> Result<(), ControllerError> {
        let sets = self.sets.len();
        let s = self.sets.get_mut(set).ok_or(ControllerError::NoSet { set, sets })?;
        if let Some(blend) = &mut s.blend {
            blend.parameters = parameters.map(|p| if p.is_finite() { p.clamp(0.0, 1.0) } else { 0.0 });
        }
        Ok(())
    }

    /// Sets the bone controllers' adjustments applied to every mixed pose (from
    /// [`crate::anim::studio::bone_adjustments`]); empty for none.
    pub fn set_bone_adjustments(&mut self, adjustments: Vec<studio::BoneAdjustment>) {
        self.adjustments = adjustments;
    }

    /// The bone controllers' adjustments applied now.
    pub fn bone_adjustments(&self) -> &[studio::BoneAdjustment] {
        &self.adjustments
    }

    pub fn sets(&self) -> &[AnimationSet] {
        &self.sets
    }

    pub fn set(&self, set: usize) -> Option<&AnimationSet> {
        self.sets.get(set)
    }

    /// The first set whose clip has this name (exact match).
    pub fn find_set(&self, name: &str) -> Option<usize> {
        self.sets.iter().position(|s| s.name() == name)
    }

    /// Changes a set's playback type (tracks that override it keep theirs).
    pub fn set_playback(&mut self, set: usize, playback: PlaybackType) -> Result<(), ControllerError> {
        let sets = self.sets.len();
        self.sets.get_mut(set).ok_or(ControllerError::NoSet { set, sets })?.playback = playback;
        Ok(())
    }

    /// Removes a set. Tracks that played it are left without a set; later sets move down one index (and the
    /// tracks that play them follow).
    pub fn remove_set(&mut self, set: usize) -> Result<AnimationSet, ControllerError> {
        self.check_set(set)?;
        let removed = self.sets.remove(set);
        for track in &mut self.tracks {
            track.set = match track.set {
                Some(s) if s == set => None,
                Some(s) if s > set => Some(s - 1),
                other => other,
            };
        }
        Ok(removed)
    }

    // ----- tracks ---------------------------------------------------------------------------------------

    /// Adds a track playing `set` (or nothing yet), enabled, at speed 1, weight 1, position 0, blending; returns
    /// its index.
    pub fn add_track(&mut self, set: Option<usize>) -> Result<usize, ControllerError> {
        if let Some(set) = set {
            self.check_set(set)?;
        }
        self.tracks.push(Track::new(set));
        Ok(self.tracks.len() - 1)
    }

    /// Removes a track and its sequencer events. Later tracks move down one index (their events follow).
    pub fn remove_track(&mut self, track: usize) -> Result<Track, ControllerError> {
        self.check_track(track)?;
        let removed = self.tracks.remove(track);
        self.events.retain(|e| e.event.track != track);
        for e in &mut self.events {
            if e.event.track > track {
                e.event.track -= 1;
            }
        }
        Ok(removed)
    }

    pub fn tracks(&self) -> &[Track] {
        &self.tracks
    }

    pub fn track(&self, track: usize) -> Option<&Track> {
        self.tracks.get(track)
    }

    /// Makes a track play another set (or none). The position is kept.
    pub fn set_track_set(&mut self, track: usize, set: Option<usize>) -> Result<(), ControllerError> {
        if let Some(set) = set {
            self.check_set(set)?;
        }
        self.track_mut(track)?.set = set;
        Ok(())
    }

    pub fn set_enabled(&mut self, track: usize, enabled: bool) -> Result<(), ControllerError> {
        self.track_mut(track)?.enabled = enabled;
        Ok(())
    }

    /// Mixer weight; negative and NaN weights act as 0.
    pub fn set_weight(&mut self, track: usize, weight: f32) -> Result<(), ControllerError> {
        self.track_mut(track)?.weight = weight;
        Ok(())
    }

    /// Playback speed: 1 is normal, 0 pauses, negative plays backwards. NaN is taken as 0.
    pub fn set_speed(&mut self, track: usize, speed: f32) -> Result<(), ControllerError> {
        self.track_mut(track)?.speed = if speed.is_nan() { 0.0 } else { speed };
        Ok(())
    }

    /// Jumps a track to a position (seconds). A jump fires no callbacks (see the module documentation); a
    /// non-finite position is ignored.
    pub fn set_position(&mut self, track: usize, position: f64) -> Result<(), ControllerError> {
        let t = self.track_mut(track)?;
        if position.is_finite() {
            t.position = position;
        }
        Ok(())
    }

    /// Jumps a track to a position and fires each callback key the jump passes over **at most once** (in the
    /// order the jump meets them; a jump over many loops fires each key once). For a UI that wants to hear
    /// the events a scrub skipped without a storm.
    pub fn set_position_with_callbacks(
        &mut self,
        track: usize,
        position: f64,
        mut handler: impl FnMut(&CallbackEvent<'_>),
    ) -> Result<(), ControllerError> {
        self.check_track(track)?;
        if !position.is_finite() {
            return Ok(());
        }
        let time = self.time;
        let Self { tracks, sets, fired, .. } = self;
        let t = &mut tracks[track];
        let from = t.position;
        t.position = position;
        let Some((set_index, set)) = t.set.and_then(|s| sets.get(s).map(|set| (s, set))) else {
            return Ok(());
        };
        let playback = t.playback.unwrap_or(set.playback);
        // Within one period before the end of the jump every key is met at least once; earlier cycles would
        // only repeat them.
        let d = f64::from(set.duration);
        let period = if playback == PlaybackType::PingPong { 2.0 * d } else { d };
        let from = match playback {
            PlaybackType::Loop | PlaybackType::PingPong if period > 0.0 && (position - from).abs() > period => {
                position - period.copysign(position - from)
            }
            _ => from,
        };
        fired.clear();
        fired.resize(set.key_times.len(), false);
        for_each_crossing(&set.key_times, set.duration, playback, from, position, |slot, _| {
            if !std::mem::replace(&mut fired[slot], true) {
                emit(&mut handler, set_index, set, track, slot, time, position < from);
            }
        });
        Ok(())
    }

    /// How the track enters the mixer: blended or additive.
    pub fn set_blend_mode(&mut self, track: usize, mode: BlendMode) -> Result<(), ControllerError> {
        self.track_mut(track)?.mode = mode;
        Ok(())
    }

    /// Limits a track to some bones (per-bone weights; `None` for all bones). The mask must have one weight
    /// per skeleton bone. See [`BoneMask::from_bone_and_descendants`].
    pub fn set_mask(&mut self, track: usize, mask: Option<BoneMask>) -> Result<(), ControllerError> {
        if let Some(m) = &mask
            && m.len() != self.skeleton.len()
        {
            return Err(ControllerError::MaskLength { expected: self.skeleton.len(), found: m.len() });
        }
        self.track_mut(track)?.mask = mask;
        Ok(())
    }

    /// Overrides the set's playback type for this track (`None` follows the set).
    pub fn set_track_playback(&mut self, track: usize, playback: Option<PlaybackType>) -> Result<(), ControllerError> {
        self.track_mut(track)?.playback = playback;
        Ok(())
    }

    /// The playback type that applies to a track (its own, or its set's); `None` without a set.
    pub fn track_playback(&self, track: usize) -> Option<PlaybackType> {
        let t = self.tracks.get(track)?;
        let set = self.sets.get(t.set?)?;
        Some(t.playback.unwrap_or(set.playback))
    }

    /// Where a track is in its clip (seconds in `[0, duration]`): the playhead. `None` without a set.
    pub fn track_local_time(&self, track: usize) -> Option<f32> {
        let t = self.tracks.get(track)?;
        let set = self.sets.get(t.set?)?;
        Some(local_time(t.position, set.duration, t.playback.unwrap_or(set.playback)))
    }

    // ----- mixer settings -------------------------------------------------------------------------------

    /// Total blend weight below which the bind pose fills in (see [`super::blend::Blender::finish`]).
    pub fn rest_threshold(&self) -> f32 {
        self.rest_threshold
    }

    /// 1 (the default): weights below 1 in total blend towards the bind pose, above 1 are normalised. 0: weights
    /// are always normalised.
    pub fn set_rest_threshold(&mut self, threshold: f32) {
        self.rest_threshold = if threshold.is_nan() { 0.0 } else { threshold.max(0.0) };
    }

    // ----- clock ----------------------------------------------------------------------------------------

    /// The global clock, in seconds.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Moves the clock by `dt` seconds (negative or non-finite `dt` counts as 0): sequencer events that start,
    /// run or end in the step are applied, every enabled track's position moves by its speed, and every
    /// callback key crossed fires `handler` (see the module documentation for the exact rule).
    pub fn advance(&mut self, dt: f64, mut handler: impl FnMut(&CallbackEvent<'_>)) {
        let dt = if dt.is_finite() && dt > 0.0 { dt } else { 0.0 };
        self.run_clock(self.time + dt, true, &mut handler);
    }

    /// Sets the global clock. Forwards, the sequencer events on the way are applied (ramps take the value
    /// they have at the new time; position ramps jump) but tracks do not play and nothing fires. Backwards,
    /// only the clock moves: events that already ran are not undone, pending ones wait for their start.
    pub fn set_time(&mut self, time: f64) {
        if !time.is_finite() {
            return;
        }
        if time > self.time {
            self.run_clock(time, false, &mut |_: &CallbackEvent<'_>| {});
        } else {
            self.time = time;
            self.settle_events(time, false);
        }
    }

    /// Restarts the clock at 0, moving every pending and running event by the same amount so that they keep
    /// their distance from now (D3DX `ResetTime`). Track positions are kept.
    pub fn reset_time(&mut self) {
        let shift = self.time;
        for e in &mut self.events {
            e.event.start -= shift;
        }
        self.time = 0.0;
    }

    // ----- sequencer ------------------------------------------------------------------------------------

    /// Keys an event. Events in the past start at the next `advance` (a ramp already over applies its final
    /// value then). Returns its id.
    pub fn key_event(&mut self, event: TrackEvent) -> Result<EventId, ControllerError> {
        self.check_track(event.track)?;
        let id = EventId(self.next_event);
        self.next_event += 1;
        let start = if event.start.is_nan() { self.time } else { event.start };
        let event = TrackEvent { start, ..event };
        let at = self.events.partition_point(|e| e.event.start <= start);
        self.events.insert(at, ScheduledEvent { id, event, state: EventState::Pending, started_from: None });
        Ok(id)
    }

    /// Ramps (or, with `duration` 0, sets) a track's speed.
    pub fn key_speed(
        &mut self,
        track: usize,
        speed: f32,
        start: f64,
        duration: f64,
        transition: Transition,
    ) -> Result<EventId, ControllerError> {
        self.key_event(TrackEvent::new(track, EventKind::Speed(speed), start, duration, transition))
    }

    /// Ramps (or, with `duration` 0, sets) a track's weight.
    pub fn key_weight(
        &mut self,
        track: usize,
        weight: f32,
        start: f64,
        duration: f64,
        transition: Transition,
    ) -> Result<EventId, ControllerError> {
        self.key_event(TrackEvent::new(track, EventKind::Weight(weight), start, duration, transition))
    }

    /// Ramps a track's position (continuous movement: fires callbacks) or, with `duration` 0, jumps it.
    pub fn key_position(
        &mut self,
        track: usize,
        position: f64,
        start: f64,
        duration: f64,
        transition: Transition,
    ) -> Result<EventId, ControllerError> {
        self.key_event(TrackEvent::new(track, EventKind::Position(position), start, duration, transition))
    }

    /// Enables or disables a track at a global time.
    pub fn key_enable(&mut self, track: usize, enabled: bool, start: f64) -> Result<EventId, ControllerError> {
        self.key_event(TrackEvent::new(track, EventKind::Enable(enabled), start, 0.0, Transition::Linear))
    }

    /// Cross-fades from one track to another over `[start, start + duration]`: enables `to` at `start`, ramps its
    /// weight from 0 to 1 and `from`'s weight from its value then to 0, and disables `from` at the end. Returns
    /// the four event ids (enable `to`, weight `to`, weight `from`, disable `from`).
    pub fn cross_fade(
        &mut self,
        from: usize,
        to: usize,
        start: f64,
        duration: f64,
        transition: Transition,
    ) -> Result<[EventId; 4], ControllerError> {
        self.check_track(from)?;
        self.check_track(to)?;
        let enable = self.key_enable(to, true, start)?;
        let fade_in = self.key_event(TrackEvent {
            from: Some(0.0),
            ..TrackEvent::new(to, EventKind::Weight(1.0), start, duration, transition)
        })?;
        let fade_out = self.key_weight(from, 0.0, start, duration, transition)?;
        let disable = self.key_enable(from, false, start + duration.max(0.0))?;
        Ok([enable, fade_in, fade_out, disable])
    }

    /// Pending and running events, ordered by start time (what a timeline draws as bars:
    /// `event.start` .. `event.end()`).
    pub fn events(&self) -> &[ScheduledEvent] {
        &self.events
    }

    /// Removes an event (a running ramp stops where it is). Returns whether it was there.
    pub fn remove_event(&mut self, id: EventId) -> bool {
        let before = self.events.len();
        self.events.retain(|e| e.id != id);
        self.events.len() != before
    }

    /// Removes every event of one track, or of all tracks.
    pub fn clear_events(&mut self, track: Option<usize>) {
        self.events.retain(|e| track.is_some_and(|t| e.event.track != t));
    }

    // ----- output ---------------------------------------------------------------------------------------

    /// Writes the mixed local pose (one transform per bone) into `local`.
    pub fn evaluate_local(&mut self, local: &mut [Transform]) -> Result<(), ControllerError> {
        let Self {
            skeleton,
            sets,
            tracks,
            rest_threshold,
            scratch,
            blender,
            blend_scratch,
            pose_scratch,
            adjustments,
            ..
        } = self;
        let (skeleton, sets, tracks): (&Skeleton, &[AnimationSet], &[Track]) = (skeleton, sets, tracks);
        let bones = skeleton.len();
        if local.len() != bones {
            return Err(PoseError::Length { what: "local transforms", expected: bones, found: local.len() }.into());
        }
        scratch.resize(bones, Transform::IDENTITY);
        let bind = &skeleton.bind_local;
        let blended = |t: &&Track| t.contributes(sets.len()) && t.mode == BlendMode::Blend;
        let mut blend_tracks = tracks.iter().filter(blended);
        let first = blend_tracks.next();
        let second = blend_tracks.next();
        match (first, second) {
            (None, _) => {
                for (i, slot) in local.iter_mut().enumerate() {
                    *slot = bind.get(i).copied().unwrap_or_default();
                }
            }
            // One full-weight track over every bone: its clip pose is the answer, no accumulation needed.
            (Some(t), None) if t.mask.is_none() && t.weight >= *rest_threshold => {
                sample_track(skeleton, sets, t, local, blend_scratch)
            }
            _ => {
                blender.begin(bones);
                for t in tracks.iter().filter(blended) {
                    let Some(set) = t.set.and_then(|s| sets.get(s)) else { continue };
                    let time = local_time(t.position, set.duration, t.playback.unwrap_or(set.playback));
                    // Sampled bone by bone straight into the accumulators: no intermediate pose in memory.
                    let (w, baked) = (t.weight, &set.baked);
                    if set.blend.is_some() {
                        // A blend sequence's animations are mixed first, then the mix goes into the accumulators.
                        pose_scratch.resize(bones, Transform::IDENTITY);
                        set.sample_into(skeleton, time, pose_scratch, blend_scratch);
                        for (bone, x) in pose_scratch.iter().enumerate() {
                            let m = t.mask.as_ref().map_or(1.0, |mask| mask.weight(bone));
                            blender.add_bone(bone, x, w * m);
                        }
                        continue;
                    }
                    match &t.mask {
                        None => baked.for_each_bone(skeleton, &set.clip, &set.binding, time, |bone, x| {
                            blender.add_bone(bone, &x, w)
                        }),
                        Some(mask) => baked.for_each_bone(skeleton, &set.clip, &set.binding, time, |bone, x| {
                            blender.add_bone(bone, &x, w * mask.weight(bone))
                        }),
                    }
                }
                blender.finish(bind, *rest_threshold, local);
            }
        }
        for t in tracks.iter().filter(|t| t.contributes(sets.len())) {
            let BlendMode::Additive(reference) = t.mode else { continue };
            let Some(set) = t.set.and_then(|s| sets.get(s)) else { continue };
            sample_track(skeleton, sets, t, scratch, blend_scratch);
            let reference = match reference {
                AdditiveReference::FirstFrame => &set.first_frame,
                AdditiveReference::BindPose => bind,
            };
            apply_additive(local, scratch, reference, t.weight, t.mask.as_ref());
        }
        studio::apply_adjustments(local, adjustments);
        Ok(())
    }

    /// Writes the mixed local pose, the to-root matrices and the skinning palette into caller-owned buffers
    /// (one entry per bone each).
    pub fn evaluate(
        &mut self,
        local: &mut [Transform],
        to_root: &mut [Mat4],
        palette: &mut [Mat4],
    ) -> Result<(), ControllerError> {
        self.evaluate_local(local)?;
        to_root_and_palette(&self.matrix_plan, local, to_root, palette)?;
        Ok(())
    }

    /// [`Controller::evaluate`] and [`Controller::evaluate_morph_weights`] into a [`Pose`], resizing its buffers
    /// only if they have the wrong length.
    pub fn evaluate_pose(&mut self, pose: &mut Pose) -> Result<(), ControllerError> {
        let bones = self.skeleton.len();
        pose.local.resize(bones, Transform::IDENTITY);
        pose.to_root.resize(bones, Mat4::IDENTITY);
        pose.palette.resize(bones, Mat4::IDENTITY);
        pose.morph_weights.resize(self.morph_layout.len(), 0.0);
        self.evaluate(&mut pose.local, &mut pose.to_root, &mut pose.palette)?;
        self.evaluate_morph_weights(&mut pose.morph_weights)
    }

    /// Writes the mixed morph-target weights, one per slot of [`Controller::morph_layout`] (mesh `m`'s weights
    /// are `out[layout.mesh_range(m)]`), by the rule in the module documentation. No allocation, no name lookups.
    pub fn evaluate_morph_weights(&self, out: &mut [f32]) -> Result<(), ControllerError> {
        let expected = self.morph_layout.len();
        if out.len() != expected {
            return Err(ControllerError::MorphLength { expected, found: out.len() });
        }
        out.fill(0.0);
        let sets = &self.sets;
        let mut total = 0.0f32;
        for t in self.tracks.iter().filter(|t| t.drives_morphs(sets.len()) && t.mode == BlendMode::Blend) {
            let Some(set) = t.set.and_then(|s| sets.get(s)) else { continue };
            total += t.weight;
            if set.morphs.is_empty() {
                continue;
            }
            let time = local_time(t.position, set.duration, t.playback.unwrap_or(set.playback));
            let w = t.weight;
            set.morphs.for_each(&set.clip, time, |slot, value| {
                if let Some(o) = out.get_mut(slot) {
                    *o += w * value;
                }
            });
        }
        // The rest value 0 fills up to the threshold, as the bind pose does for bones.
        let denominator = total.max(self.rest_threshold);
        if total > 0.0 && denominator > 0.0 {
            let k = denominator.recip();
            out.iter_mut().for_each(|o| *o *= k);
        }
        for t in self.tracks.iter().filter(|t| t.drives_morphs(sets.len())) {
            let BlendMode::Additive(reference) = t.mode else { continue };
            let Some(set) = t.set.and_then(|s| sets.get(s)) else { continue };
            if set.morphs.is_empty() {
                continue;
            }
            let time = local_time(t.position, set.duration, t.playback.unwrap_or(set.playback));
            let w = t.weight;
            let mut first = set.morph_first_frame.iter();
            set.morphs.for_each(&set.clip, time, |slot, value| {
                let at_start = first.next().copied().unwrap_or(0.0);
                let reference = match reference {
                    AdditiveReference::FirstFrame => at_start,
                    AdditiveReference::BindPose => 0.0,
                };
                if let Some(o) = out.get_mut(slot) {
                    *o += w * (value - reference);
                }
            });
        }
        Ok(())
    }

    // ----- internals ------------------------------------------------------------------------------------

    fn check_track(&self, track: usize) -> Result<(), ControllerError> {
        if track < self.tracks.len() {
            Ok(())
        } else {
            Err(ControllerError::NoTrack { track, tracks: self.tracks.len() })
        }
    }

    fn check_set(&self, set: usize) -> Result<(), ControllerError> {
        if set < self.sets.len() { Ok(()) } else { Err(ControllerError::NoSet { set, sets: self.sets.len() }) }
    }

    fn track_mut(&mut self, track: usize) -> Result<&mut Track, ControllerError> {
        let tracks = self.tracks.len();
        self.tracks.get_mut(track).ok_or(ControllerError::NoTrack { track, tracks })
    }

    /// Runs the clock to `end`, cutting time at every event boundary on the way so that each piece has fixed
    /// ramps; `play` moves the tracks (and fires callbacks), otherwise only events are applied.
    fn run_clock(&mut self, end: f64, play: bool, handler: &mut impl FnMut(&CallbackEvent<'_>)) {
        let mut a = self.time;
        loop {
            self.settle_events(a, play);
            let b = self.next_boundary(a).map_or(end, |t| t.min(end));
            if play && b > a {
                self.play_tracks(a, b, handler);
            }
            a = b;
            self.time = a;
            if a >= end {
                break;
            }
        }
        self.settle_events(end, play);
        self.time = end;
    }

    /// The first event start or end strictly after `t`.
    fn next_boundary(&self, t: f64) -> Option<f64> {
        self.events
            .iter()
            .map(|e| match e.state {
                EventState::Pending => e.event.start,
                EventState::Active { .. } => e.event.end(),
            })
            .filter(|&x| x > t)
            .min_by(f64::total_cmp)
    }

    /// Starts events whose start is at or before `now`, applies running ramps' values at `now` and drops the
    /// ones that are over. Position ramps are applied here only when tracks are not playing (`set_time`):
    /// while playing, the position moves in `play_tracks` so that it fires callbacks and obeys the playback type.
    fn settle_events(&mut self, now: f64, playing: bool) {
        let mut i = 0;
        while i < self.events.len() {
            let ev = self.events[i];
            let property = ev.event.kind.property();
            let Some(track) = self.tracks.get_mut(ev.event.track) else {
                self.events.remove(i);
                continue;
            };
            if ev.state == EventState::Pending {
                if ev.event.start > now {
                    i += 1;
                    continue;
                }
                let from = ev.event.from.filter(|v| v.is_finite()).unwrap_or_else(|| track.value(property));
                if ev.event.from.is_some() && property == Property::Position {
                    // An explicit start position is a jump (no callbacks); the ramp moves on from there.
                    track.apply(property, from);
                }
                self.events[i].started_from = Some(from);
                self.events[i].state = EventState::Active { progress: 0.0 };
                // A new event on the same track and property replaces a running one.
                if let Some(j) = (0..self.events.len()).find(|&j| {
                    let o = &self.events[j];
                    j != i
                        && o.event.track == ev.event.track
                        && o.event.kind.property() == property
                        && matches!(o.state, EventState::Active { .. })
                }) {
                    self.events.remove(j);
                    if j < i {
                        i -= 1;
                    }
                }
            }
            let ev = self.events[i];
            let Some(track) = self.tracks.get_mut(ev.event.track) else { continue };
            let end = ev.event.end();
            let ramp = ev.event.ramp_duration() > 0.0;
            let over = end <= now;
            let apply = match property {
                // Position ramps move in play_tracks; instant position events are jumps.
                Property::Position => !ramp || !playing,
                _ => true,
            };
            if apply {
                track.apply(property, if over { ev.event.kind.target() } else { ev.value_at(now) });
            }
            if over {
                self.events.remove(i);
            } else {
                let progress = ((now - ev.event.start) / ev.event.ramp_duration()).clamp(0.0, 1.0) as f32;
                self.events[i].state = EventState::Active { progress };
                i += 1;
            }
        }
    }

    /// Moves every enabled track over `[a, b]`, a piece of time in which no event starts or ends.
    fn play_tracks(&mut self, a: f64, b: f64, handler: &mut impl FnMut(&CallbackEvent<'_>)) {
        let Self { tracks, sets, events, .. } = self;
        let running = |track: usize, property: Property| {
            events.iter().find(|e| {
                e.event.track == track
                    && e.event.kind.property() == property
                    && matches!(e.state, EventState::Active { .. })
                    && e.event.ramp_duration() > 0.0
            })
        };
        for (index, track) in tracks.iter_mut().enumerate() {
            if !track.enabled {
                continue;
            }
            if let Some(ramp) = running(index, Property::Position) {
                let to = ramp.value_at(b);
                move_track(index, track, sets, to, a, b, handler);
                continue;
            }
            let Some(ramp) = running(index, Property::Speed) else {
                let to = track.position + f64::from(track.speed) * (b - a);
                move_track(index, track, sets, to, a, b, handler);
                continue;
            };
            let speed = |t: f64| ramp.value_at(t);
            let (sa, sb) = (speed(a), speed(b));
            if sa * sb < 0.0 {
                // The ramp passes through 0: the track turns round; each half is a monotonic move.
                let turn = monotonic_root(a, b, speed);
                let to = track.position + simpson(a, turn, speed);
                move_track(index, track, sets, to, a, turn, handler);
                if track.enabled {
                    let to = track.position + simpson(turn, b, speed);
                    move_track(index, track, sets, to, turn, b, handler);
                }
            } else {
                let to = track.position + simpson(a, b, speed);
                move_track(index, track, sets, to, a, b, handler);
            }
        }
    }
}

/// Samples the set a track plays at the track's local time (bind pose without a set).
fn sample_track(
    skeleton: &Skeleton,
    sets: &[AnimationSet],
    track: &Track,
    out: &mut [Transform],
    scratch: &mut BlendScratch,
) {
    match track.set.and_then(|s| sets.get(s)) {
        Some(set) => {
            let t = local_time(track.position, set.duration, track.playback.unwrap_or(set.playback));
            set.sample_into(skeleton, t, out, scratch);
        }
        None => {
            for (i, slot) in out.iter_mut().enumerate() {
                *slot = skeleton.bind_local.get(i).copied().unwrap_or_default();
            }
        }
    }
}

/// Moves one track from its position to `to` over global `[ta, tb]`: fires the keys crossed, then applies the
/// playback type's rule (a `Once` track that ran off its clip disables itself).
fn move_track(
    index: usize,
    track: &mut Track,
    sets: &[AnimationSet],
    to: f64,
    ta: f64,
    tb: f64,
    handler: &mut impl FnMut(&CallbackEvent<'_>),
) {
    let from = track.position;
    let Some((set_index, set)) = track.set.and_then(|s| sets.get(s).map(|set| (s, set))) else {
        track.position = to;
        return;
    };
    let playback = track.playback.unwrap_or(set.playback);
    let backwards = to < from;
    for_each_crossing(&set.key_times, set.duration, playback, from, to, |slot, p| {
        let time = ta + (tb - ta) * ((p - from) / (to - from)).clamp(0.0, 1.0);
        emit(handler, set_index, set, index, slot, time, backwards);
    });
    let outcome = settle_position(from, to, set.duration, playback);
    track.position = outcome.position;
    if outcome.finished {
        track.enabled = false;
    }
}

fn emit(
    handler: &mut impl FnMut(&CallbackEvent<'_>),
    set_index: usize,
    set: &AnimationSet,
    track: usize,
    slot: usize,
    time: f64,
    backwards: bool,
) {
    let (Some(&key), Some(&key_time)) = (set.key_index.get(slot), set.key_times.get(slot)) else { return };
    let Some(data) = set.clip.callback_keys.get(key) else { return };
    handler(&CallbackEvent { track, set: set_index, key, key_time, data: &data.data, time, backwards });
}
