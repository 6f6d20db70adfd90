//! The viewer's playback: the `anim` [`Controller`] (tracks, mixer, sequencer, callbacks) plus what only the
//! viewer needs around it — play/pause, a global speed, one playback type for every clip, solo/mute, the bone
//! a track's mask starts from, and the timeline's notion of "now".
//!
//! Time. The controller's clock runs unbounded; every track has its own position, folded into its clip by the
//! playback type. The timeline shows the *focus* track's clip time (seconds and frames of that clip), so a
//! seek (scrub, frame step, Home/End) moves the whole controller: the clock and every track by the same
//! amount of clock time. Seeks are jumps and fire no callbacks (the controller's rule), so dragging the
//! playhead cannot cause a storm of them; callbacks fire only while playing. Without any track (an input
//! recording alone), the timeline is the clock itself, folded by the playback type.
//!
//! `Once` plays to the end of the focus clip and pauses there, holding the last frame (the controller runs it
//! as `ClampForever`, so the pose does not fall back to the bind pose when it ends). Mute and solo are applied
//! when the pose is evaluated (their weights are zeroed for that call only) and muted tracks' callbacks are
//! not reported.
//!
//! Must not touch: GPU, egui, files.

use std::sync::Arc;

use crate::anim::controller::{
    AdditiveReference, BlendMode, CallbackEvent, Controller, EventKind, PlaybackType as CtrlPlayback, ScheduledEvent,
    Transition,
};
use crate::anim::{BoneMask, MorphLayout, Pose};
use crate::scene::Asset;

use crate::ui::state::model_script_flow::ScriptFlow;
use crate::ui::state::morph_overrides::MorphOverrides;
use crate::ui::state::studio_controls::StudioControls;

/// What the viewer's transport does at the ends of a clip (shown in the timeline; the same for every clip).
///
/// A transport setting, not a second [`crate::anim::controller::PlaybackType`]: it is turned into one for the
/// controller ([`TransportMode::fold`], [`TransportMode::controller`]), and adds what only a player has: `Once`
/// plays to the end, holds the last frame and pauses the transport (the controller's own `Once` is a D3DX
/// one-shot that disables and rewinds its track, which a viewer never wants). Persisted with the settings under
/// its variants' names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum TransportMode {
    /// Play to the end, hold the last frame and pause.
    Once,
    /// Wrap round to the start.
    #[default]
    Loop,
    /// Turn round at either end.
    PingPong,
    /// Hold the end frame while still playing (other tracks, and a negative track speed, go on).
    Clamp,
}

impl TransportMode {
    pub const ALL: [TransportMode; 4] = [Self::Once, Self::Loop, Self::PingPong, Self::Clamp];

    pub fn label(self) -> &'static str {
        match self {
            Self::Once => "Once",
            Self::Loop => "Loop",
            Self::PingPong => "Ping-pong",
            Self::Clamp => "Clamp",
        }
    }

    fn controller(self) -> CtrlPlayback {
        match self {
            Self::Once | Self::Clamp => CtrlPlayback::ClampForever,
            Self::Loop => CtrlPlayback::Loop,
            Self::PingPong => CtrlPlayback::PingPong,
        }
    }

    /// Folds an unbounded time into `[0, period]`.
    pub fn fold(self, t: f64, period: f32) -> f32 {
        crate::anim::controller::local_time(t, period, self.controller())
    }
}

/// What the mixer shows for one track.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackView {
    /// Index into `asset.clips` (= the controller's set).
    pub clip: Option<usize>,
    pub enabled: bool,
    /// The live weight (sequencer ramps included).
    pub weight: f32,
    pub speed: f32,
    /// Where the track is in its clip, seconds.
    pub local_time: f32,
    pub mode: BlendMode,
    /// The mask is this bone and its descendants.
    pub mask_root: Option<usize>,
    pub solo: bool,
    pub mute: bool,
}

/// Viewer-only flags of a track, kept parallel to the controller's tracks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct TrackExtra {
    solo: bool,
    mute: bool,
    mask_root: Option<usize>,
}

/// A callback key that fired.
#[derive(Clone, Debug, PartialEq)]
pub struct Fired {
    /// Controller clock when it fired.
    pub clock: f64,
    pub track: usize,
    pub clip: String,
    /// The key's time in its clip.
    pub key_time: f32,
    pub data: String,
    /// The event's kind as its source names it (a model script's event keyword or number); empty for plain keys.
    pub kind: String,
    /// The source frame a model-script event was written at.
    pub frame: Option<i32>,
    pub backwards: bool,
}

#[derive(Clone, Debug)]
pub struct Player {
    ctrl: Controller,
    extra: Vec<TrackExtra>,
    /// Clip name per set, for callback reports (the controller is borrowed while it reports).
    set_names: Vec<String>,
    pub playing: bool,
    /// Multiplies wall time (≥ 0; a track plays backwards with a negative track speed).
    pub speed: f32,
    mode: TransportMode,
    /// Weights zeroed for one evaluation (mute/solo), restored after.
    saved: Vec<(usize, f32)>,
    /// Morph weights set by hand in the Morphs tab, applied over the clips' weights.
    pub morphs: MorphOverrides,
    /// The model script's loop flags and next clips.
    flow: ScriptFlow,
    /// Play clips as their script says (each clip's own loop flag, then its next clip) instead of one playback
    /// type for every clip. On by default where a script defined the clips.
    follow_script: bool,
    /// Per set: the clip is a difference to add to another pose (QC `delta`; `scene::ClipScript::additive`).
    additive: Vec<bool>,
    /// Bone controllers and blend parameters (GoldSrc models and their QCs).
    studio: StudioControls,
}

impl Player {
    /// A player for `asset` with every clip as a set and one track on `clip` (or the first clip).
    pub fn for_asset(asset: &Asset, clip: Option<usize>, mode: TransportMode) -> Self {
        let mut ctrl = Controller::new(Arc::new(asset.skeleton.clone()));
        // The layout first, so every set binds its morph-weight tracks (VTA flex clips, vertex animation).
        let layout = MorphLayout::of_meshes(&asset.meshes);
        let morphs = MorphOverrides::new(layout.len());
        ctrl.set_morph_layout(layout);
        let flow = ScriptFlow::of(asset);
        let follow_script = !flow.is_empty();
        for c in &asset.clips {
            ctrl.add_set(c.clone(), mode.controller());
        }
        let set_names = asset.clips.iter().map(|c| c.name.clone()).collect();
        let additive = asset.clips.iter().map(|c| c.script.as_ref().is_some_and(|s| s.additive)).collect();
        let mut p = Self {
            ctrl,
            extra: Vec::new(),
            set_names,
            playing: true,
            speed: 1.0,
            mode,
            saved: Vec::new(),
            morphs,
            flow,
            follow_script,
            additive,
            studio: StudioControls::of(asset),
        };
        p.apply_studio();
        p.apply_playback();
        let first = clip.filter(|c| *c < asset.clips.len()).or((!asset.clips.is_empty()).then_some(0));
        if let Some(c) = first {
            p.add_track(c, 0.0);
        }
        p
    }

    pub fn mode(&self) -> TransportMode {
        self.mode
    }

    /// The bone controllers' values and the blend parameters.
    pub fn studio(&self) -> &StudioControls {
        &self.studio
    }

    /// Sets bone controller `index` to `value` (its units, clamped into its range).
    pub fn set_controller(&mut self, index: usize, value: f32) {
        if self.studio.set_value(index, value) {
            self.apply_studio();
        }
    }

    /// Sets blend parameter `parameter` (0 or 1) to `fraction` (`0..=1`) for every blend sequence.
    pub fn set_blend(&mut self, parameter: usize, fraction: f32) {
        if let Some(slot) = self.studio.blend.get_mut(parameter) {
            *slot = if fraction.is_finite() { fraction.clamp(0.0, 1.0) } else { 0.0 };
            self.apply_studio();
        }
    }

    /// Hands the controls to the controller: the adjustments for every pose, the blend to every set.
    fn apply_studio(&mut self) {
        let adjustments = self.studio.adjustments(self.ctrl.skeleton());
        self.ctrl.set_bone_adjustments(adjustments);
        for set in 0..self.ctrl.sets().len() {
            let _ = self.ctrl.set_blend_parameters(set, self.studio.blend);
        }
    }

    pub fn set_mode(&mut self, mode: TransportMode) {
        self.mode = mode;
        self.apply_playback();
    }

    /// Whether clips play as their model script says (see [`ScriptFlow`]).
    pub fn follows_script(&self) -> bool {
        self.follow_script
    }

    /// True when a model script defined some clip (so there is a script to follow).
    pub fn has_script(&self) -> bool {
        !self.flow.is_empty()
    }

    pub fn set_follow_script(&mut self, on: bool) {
        self.follow_script = on;
        self.apply_playback();
    }

    /// Each set's playback: its script's loop flag (a clip that does not loop holds its end, where its next clip
    /// takes over) when following the script, else the one playback type.
    fn apply_playback(&mut self) {
        for s in 0..self.ctrl.sets().len() {
            let playback = match self.flow.get(s).filter(|_| self.follow_script) {
                Some(entry) if entry.looping => CtrlPlayback::Loop,
                Some(_) => CtrlPlayback::ClampForever,
                None => self.mode.controller(),
            };
            let _ = self.ctrl.set_playback(s, playback);
        }
    }

    pub fn track_count(&self) -> usize {
        self.ctrl.tracks().len()
    }

    /// Adds a track playing `clip` from clip time `local`; returns its index.
    pub fn add_track(&mut self, clip: usize, local: f64) -> Option<usize> {
        let t = self.ctrl.add_track(Some(clip)).ok()?;
        let _ = self.ctrl.set_position(t, local);
        self.extra.push(TrackExtra::default());
        // A delta clip layered on another track adds its difference, as the engine plays it: its keys are that
        // difference on the bind pose, so measured against the bind pose it gives the difference back. Alone on
        // the first track it plays as a pose (the difference on the bind pose).
        if t > 0 && self.additive.get(clip).copied().unwrap_or(false) {
            let _ = self.ctrl.set_blend_mode(t, BlendMode::Additive(AdditiveReference::BindPose));
        }
        Some(t)
    }

    pub fn remove_track(&mut self, track: usize) {
        if self.ctrl.remove_track(track).is_ok() && track < self.extra.len() {
            self.extra.remove(track);
        }
    }

    pub fn track(&self, i: usize) -> Option<TrackView> {
        let t = self.ctrl.track(i)?;
        let e = self.extra.get(i).copied().unwrap_or_default();
        Some(TrackView {
            clip: t.set(),
            enabled: t.is_enabled(),
            weight: t.weight(),
            speed: t.speed(),
            local_time: self.ctrl.track_local_time(i).unwrap_or(0.0),
            mode: t.mode(),
            mask_root: e.mask_root,
            solo: e.solo,
            mute: e.mute,
        })
    }

    /// Whether a track can be heard: enabled, with weight, not muted, soloed if anything is soloed.
    pub fn contributes(&self, i: usize) -> bool {
        let any_solo = self.extra.iter().enumerate().any(|(j, e)| e.solo && self.is_enabled(j));
        let e = self.extra.get(i).copied().unwrap_or_default();
        self.is_enabled(i) && !e.mute && (!any_solo || e.solo)
    }

    fn is_enabled(&self, i: usize) -> bool {
        self.ctrl.track(i).is_some_and(|t| t.is_enabled())
    }

    /// Sequencer events (pending and running) of one track.
    pub fn events_of(&self, track: usize) -> impl Iterator<Item = &ScheduledEvent> {
        self.ctrl.events().iter().filter(move |e| e.event.track == track)
    }

    // ----- edits ---------------------------------------------------------------------------------------------

    pub fn set_clip(&mut self, track: usize, clip: usize) {
        let _ = self.ctrl.set_track_set(track, Some(clip));
    }

    pub fn set_enabled(&mut self, track: usize, on: bool) {
        let _ = self.ctrl.set_enabled(track, on);
    }

    pub fn set_weight(&mut self, track: usize, w: f32) {
        let _ = self.ctrl.set_weight(track, w.clamp(0.0, 1.0));
    }

    pub fn set_speed(&mut self, track: usize, s: f32) {
        let _ = self.ctrl.set_speed(track, s);
    }

    /// Moves a track to clip time `local` (a jump: no callbacks).
    pub fn set_local_time(&mut self, track: usize, local: f32) {
        let (Some(t), Some(now)) = (self.ctrl.track(track), self.ctrl.track_local_time(track)) else { return };
        let position = t.position() + f64::from(local - now);
        let _ = self.ctrl.set_position(track, position);
    }

    pub fn set_mix_mode(&mut self, track: usize, mode: BlendMode) {
        let _ = self.ctrl.set_blend_mode(track, mode);
    }

    pub fn set_mask(&mut self, track: usize, root: Option<usize>, asset: &Asset) {
        let mask = root.map(|b| BoneMask::from_bone_and_descendants(&asset.skeleton, b));
        if self.ctrl.set_mask(track, mask).is_ok()
            && let Some(e) = self.extra.get_mut(track)
        {
            e.mask_root = root;
        }
    }

    pub fn set_solo(&mut self, track: usize, on: bool) {
        if let Some(e) = self.extra.get_mut(track) {
            e.solo = on;
        }
    }

    pub fn set_mute(&mut self, track: usize, on: bool) {
        if let Some(e) = self.extra.get_mut(track) {
            e.mute = on;
        }
    }

    pub fn clear_events(&mut self, track: usize) {
        self.ctrl.clear_events(Some(track));
    }

    /// Cross-fades to `clip` over `seconds` from now: a track playing it (an existing contributing one, or a new
    /// one starting the clip at 0) fades in while every other contributing track fades out and is disabled at
    /// the end. Returns the track faded in.
    pub fn cross_fade(&mut self, clip: usize, seconds: f32) -> Option<usize> {
        let now = self.ctrl.time();
        let seconds = f64::from(seconds.max(0.0));
        let plays = |p: &Self, i: usize| p.track(i).is_some_and(|t| t.clip == Some(clip));
        let audible = (0..self.track_count()).find(|&i| plays(self, i) && self.contributes(i));
        // A silent track already on the clip (e.g. faded out earlier) is reused rather than piling up tracks.
        let silent = (0..self.track_count()).find(|&i| plays(self, i) && !self.extra.get(i).is_some_and(|e| e.mute));
        let target = match (audible, silent) {
            (Some(t), _) => t,
            (None, Some(t)) => {
                let _ = self.ctrl.set_position(t, 0.0);
                let _ = self.ctrl.set_weight(t, 0.0);
                let _ = self.ctrl.set_enabled(t, false);
                self.ctrl.clear_events(Some(t));
                t
            }
            (None, None) => {
                let t = self.add_track(clip, 0.0)?;
                let _ = self.ctrl.set_weight(t, 0.0);
                let _ = self.ctrl.set_enabled(t, false);
                t
            }
        };
        let others: Vec<usize> = (0..self.track_count()).filter(|&i| i != target && self.contributes(i)).collect();
        match others.split_first() {
            Some((&first, rest)) => {
                let _ = self.ctrl.cross_fade(first, target, now, seconds, Transition::Linear);
                for &o in rest {
                    let _ = self.ctrl.key_weight(o, 0.0, now, seconds, Transition::Linear);
                    let _ = self.ctrl.key_enable(o, false, now + seconds);
                }
            }
            None => {
                // Nothing to fade from: fade in from the bind pose.
                let _ = self.ctrl.key_enable(target, true, now);
                let _ = self.ctrl.key_event(crate::anim::controller::TrackEvent {
                    from: Some(0.0),
                    ..crate::anim::controller::TrackEvent::new(
                        target,
                        EventKind::Weight(1.0),
                        now,
                        seconds,
                        Transition::Linear,
                    )
                });
            }
        }
        Some(target)
    }

    // ----- time --------------------------------------------------------------------------------------------

    /// The controller clock.
    #[cfg(test)]
    pub fn clock(&self) -> f64 {
        self.ctrl.time()
    }

    /// What the timeline spans: the focus track's clip, or (without tracks) the longest recording.
    pub fn length(&self, asset: &Asset, focus: usize) -> f32 {
        match self.focus(focus) {
            Some(f) => {
                self.ctrl.track(f).and_then(|t| t.set()).and_then(|s| self.ctrl.set(s)).map_or(0.0, |s| s.duration())
            }
            None => recording_length(asset),
        }
    }

    /// The timeline's "now": the focus track's clip time, or the folded clock without tracks.
    pub fn now(&self, asset: &Asset, focus: usize) -> f32 {
        match self.focus(focus) {
            Some(f) => self.ctrl.track_local_time(f).unwrap_or(0.0),
            None => self.mode.fold(self.ctrl.time(), recording_length(asset)),
        }
    }

    /// Time to evaluate recordings at: the clock, folded into each recording by the playback type.
    pub fn recording_time(&self, duration: f32) -> f32 {
        self.mode.fold(self.ctrl.time(), duration)
    }

    fn focus(&self, focus: usize) -> Option<usize> {
        let n = self.track_count();
        (n > 0).then(|| focus.min(n - 1))
    }

    /// Frame rate for stepping and frame display: the focus track's clip, else 30.
    pub fn frame_rate(&self, asset: &Asset, focus: usize) -> f32 {
        self.focus(focus)
            .and_then(|f| self.ctrl.track(f))
            .and_then(|t| t.set())
            .and_then(|s| asset.clips.get(s))
            .map(|c| c.frame_rate)
            .filter(|f| f.is_finite() && *f > 0.0)
            .unwrap_or(30.0)
    }

    /// Clock seconds per second of the focus clip.
    fn clock_per_local(&self, focus: usize) -> f64 {
        let speed = self.focus(focus).and_then(|f| self.ctrl.track(f)).map_or(1.0, |t| t.speed());
        if speed.abs() > 1e-4 { 1.0 / f64::from(speed) } else { 1.0 }
    }

    /// Maps a clock time onto the timeline (for drawing sequencer events and markers): linear from now.
    pub fn clock_to_timeline(&self, asset: &Asset, focus: usize, clock: f64) -> f32 {
        let now = self.now(asset, focus);
        (f64::from(now) + (clock - self.ctrl.time()) / self.clock_per_local(focus)) as f32
    }

    /// Jumps so that the timeline shows `t` (clamped to it): the clock and every track move by the same clock
    /// time. Fires nothing.
    pub fn seek(&mut self, asset: &Asset, focus: usize, t: f32) {
        let len = self.length(asset, focus);
        let t = if t.is_finite() { t.clamp(0.0, len) } else { 0.0 };
        let d_clock = f64::from(t - self.now(asset, focus)) * self.clock_per_local(focus);
        if d_clock == 0.0 {
            return;
        }
        for i in 0..self.track_count() {
            if let Some(tr) = self.ctrl.track(i) {
                let p = tr.position() + d_clock * f64::from(tr.speed());
                let _ = self.ctrl.set_position(i, p);
            }
        }
        let time = (self.ctrl.time() + d_clock).max(0.0);
        self.ctrl.set_time(time);
        // Without tracks a seek to the very end must not fold back to the start.
        if self.track_count() == 0 && t >= len && len > 0.0 && self.mode == TransportMode::Loop {
            self.ctrl.set_time(time - 1e-4);
        }
    }

    /// Advances by `dt` seconds of wall time (× the global speed) while playing, reporting fired callbacks of
    /// tracks that can be heard. When following the script and the focus clip has ended, cross-fades to its next
    /// clip and returns the track that now plays it (the new focus).
    pub fn advance(&mut self, asset: &Asset, focus: usize, dt: f32, mut fired: impl FnMut(Fired)) -> Option<usize> {
        if !self.playing || !dt.is_finite() || dt <= 0.0 {
            return None;
        }
        let step = f64::from(dt * self.speed.max(0.0));
        let audible: Vec<bool> = (0..self.track_count()).map(|i| self.contributes(i)).collect();
        let names = &self.set_names;
        let mut out = Vec::new();
        self.ctrl.advance(step, |e: &CallbackEvent<'_>| {
            if audible.get(e.track).copied().unwrap_or(false) {
                out.push((
                    e.set,
                    e.key,
                    Fired {
                        clock: e.time,
                        track: e.track,
                        clip: names.get(e.set).cloned().unwrap_or_default(),
                        key_time: e.key_time,
                        data: e.data.to_owned(),
                        kind: String::new(),
                        frame: None,
                        backwards: e.backwards,
                    },
                ));
            }
        });
        for (set, key, mut f) in out {
            if let Some(k) = self.ctrl.set(set).and_then(|s| s.clip().callback_keys.get(key)) {
                f.kind.clone_from(&k.kind);
                f.frame = k.frame;
            }
            fired(f);
        }
        if let Some(track) = self.follow_to_next(asset, focus) {
            return Some(track);
        }
        if self.mode == TransportMode::Once {
            // Pause at the end of the focus clip (in its direction of play).
            let len = self.length(asset, focus);
            let now = self.now(asset, focus);
            let speed = self.focus(focus).and_then(|f| self.ctrl.track(f)).map_or(1.0, |t| t.speed());
            let at_end = if speed >= 0.0 { now >= len - 1e-6 } else { now <= 1e-6 };
            let no_tracks_end = self.track_count() == 0 && self.ctrl.time() >= f64::from(len);
            if (self.track_count() > 0 && at_end) || no_tracks_end {
                self.playing = false;
            }
        }
        None
    }

    /// When following the script: if the focus track's clip does not loop, has played to its end and names a
    /// next clip, cross-fades to it; returns the track now playing it.
    fn follow_to_next(&mut self, asset: &Asset, focus: usize) -> Option<usize> {
        if !self.follow_script {
            return None;
        }
        let f = self.focus(focus)?;
        let track = self.ctrl.track(f)?;
        let (set, speed) = (track.set()?, track.speed());
        let (next, blend) = self.flow.after(set)?;
        let len = asset.clips.get(set).map_or(0.0, |c| c.duration);
        let now = self.ctrl.track_local_time(f)?;
        let at_end = if speed >= 0.0 { now >= len - 1e-6 } else { now <= 1e-6 };
        if !at_end || !self.contributes(f) {
            return None;
        }
        self.cross_fade(next, blend)
    }

    /// Play, or pause; play at the end of a `Once`/`Clamp` timeline starts over.
    pub fn toggle_play(&mut self, asset: &Asset, focus: usize) {
        if !self.playing && matches!(self.mode, TransportMode::Once | TransportMode::Clamp) {
            let len = self.length(asset, focus);
            if self.now(asset, focus) >= len - 1e-6 {
                self.seek(asset, focus, 0.0);
            }
        }
        self.playing = !self.playing;
    }

    /// The mixed pose now, into `pose` (local, to-root, palette).
    pub fn evaluate(&mut self, pose: &mut Pose) {
        self.saved.clear();
        for i in 0..self.track_count() {
            if self.is_enabled(i) && !self.contributes(i) {
                let w = self.ctrl.track(i).map_or(0.0, |t| t.weight());
                self.saved.push((i, w));
                let _ = self.ctrl.set_weight(i, 0.0);
            }
        }
        if self.ctrl.evaluate_pose(pose).is_err() {
            *pose = Pose::bind(self.ctrl.skeleton());
        }
        self.morphs.apply(&mut pose.morph_weights);
        for &(i, w) in &self.saved {
            let _ = self.ctrl.set_weight(i, w);
        }
    }

    /// A player for a reloaded asset with the same tracks (clips that still exist), clock and options.
    pub fn carried_over(&self, asset: &Asset) -> Self {
        let mut p = Self::for_asset(asset, None, self.mode);
        while p.track_count() > 0 {
            p.remove_track(0);
        }
        p.playing = self.playing;
        p.speed = self.speed;
        if p.has_script() {
            p.set_follow_script(self.follow_script);
        }
        if p.morphs.len() == self.morphs.len() {
            p.morphs = self.morphs.clone();
        }
        if p.studio.controllers == self.studio.controllers {
            p.studio = self.studio.clone();
            p.apply_studio();
        }
        p.ctrl.set_time(self.ctrl.time());
        for i in 0..self.track_count() {
            let (Some(v), Some(t)) = (self.track(i), self.ctrl.track(i)) else { continue };
            let Some(clip) = v.clip.filter(|c| *c < asset.clips.len()) else { continue };
            let Some(n) = p.add_track(clip, t.position()) else { continue };
            p.set_enabled(n, v.enabled);
            p.set_weight(n, v.weight);
            p.set_speed(n, v.speed);
            p.set_mix_mode(n, v.mode);
            p.set_mask(n, v.mask_root.filter(|b| *b < asset.skeleton.len()), asset);
            p.set_solo(n, v.solo);
            p.set_mute(n, v.mute);
        }
        p
    }
}

fn recording_length(asset: &Asset) -> f32 {
    asset.recordings.iter().map(|r| r.duration).filter(|d| d.is_finite()).fold(0.0f32, f32::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{BoneTrack, CallbackKey, Clip, Curve, Transform};
    use glam::{Quat, Vec3};

    fn asset_with(clips: Vec<Clip>) -> Asset {
        let mut a = Asset::default();
        a.skeleton.push("root", None, Transform::IDENTITY);
        a.skeleton.push("child", Some(0), Transform::from_translation_rotation(Vec3::Y, Quat::IDENTITY));
        a.skeleton.recompute_inverse_bind();
        a.clips = clips;
        a
    }

    fn clip(name: &str, duration: f32, x_at_end: f32, keys: &[(f32, &str)]) -> Clip {
        Clip {
            name: name.into(),
            duration,
            frame_rate: 30.0,
            frame_count: (duration * 30.0) as u32 + 1,
            tracks: vec![BoneTrack {
                bone_name: "root".into(),
                translation: Curve::linear(vec![0.0, duration], vec![Vec3::ZERO, Vec3::new(x_at_end, 0.0, 0.0)]),
                ..BoneTrack::default()
            }],
            callback_keys: keys.iter().map(|(t, d)| CallbackKey::new(*t, *d)).collect(),
            ..Clip::default()
        }
    }

    fn run(p: &mut Player, a: &Asset, steps: usize, dt: f32) -> Vec<Fired> {
        let mut out = Vec::new();
        for _ in 0..steps {
            p.advance(a, 0, dt, |f| out.push(f));
        }
        out
    }

    #[test]
    fn plays_and_fires_callbacks_once_per_loop() {
        let a = asset_with(vec![clip("walk", 1.0, 1.0, &[(0.25, "step L"), (0.75, "step R")])]);
        let mut p = Player::for_asset(&a, None, TransportMode::Loop);
        let fired = run(&mut p, &a, 300, 0.01);
        let data: Vec<&str> = fired.iter().map(|f| f.data.as_str()).collect();
        assert_eq!(data, ["step L", "step R", "step L", "step R", "step L", "step R"]);
        assert_eq!(fired[0].clip, "walk");
    }

    #[test]
    fn a_delta_clip_layered_on_another_adds_its_difference() {
        let mut delta = clip("nod", 1.0, 1.0, &[]);
        delta.script = Some(Box::new(crate::scene::ClipScript { additive: true, ..Default::default() }));
        let a = asset_with(vec![clip("idle", 1.0, 1.0, &[]), delta]);
        let mut p = Player::for_asset(&a, Some(0), TransportMode::Loop);
        let layer = p.add_track(1, 0.0).unwrap();
        assert_eq!(p.track(layer).unwrap().mode, BlendMode::Additive(AdditiveReference::BindPose));
        let plain = p.add_track(0, 0.0).unwrap();
        assert_eq!(p.track(plain).unwrap().mode, BlendMode::Blend);
        // Alone, on the first track, it plays as a pose.
        let alone = Player::for_asset(&a, Some(1), TransportMode::Loop);
        assert_eq!(alone.track(0).unwrap().mode, BlendMode::Blend);
    }

    #[test]
    fn seeking_moves_every_track_and_fires_nothing() {
        let a = asset_with(vec![clip("a", 2.0, 2.0, &[(0.5, "x")]), clip("b", 4.0, 0.0, &[])]);
        let mut p = Player::for_asset(&a, Some(0), TransportMode::Loop);
        p.add_track(1, 0.5);
        p.set_speed(1, 2.0);
        p.seek(&a, 0, 1.5);
        assert!((p.now(&a, 0) - 1.5).abs() < 1e-5);
        // Track 1 moved by twice the clock time: 0.5 + 2·1.5.
        assert!((p.track(1).unwrap().local_time - 3.5).abs() < 1e-4, "{:?}", p.track(1));
        // The seek passed the key at 0.5 without firing; playing on from 1.5 does not fire it either.
        assert!(run(&mut p, &a, 10, 0.01).is_empty());
    }

    #[test]
    fn once_pauses_on_the_last_frame_and_play_starts_over() {
        let a = asset_with(vec![clip("a", 1.0, 2.0, &[])]);
        let mut p = Player::for_asset(&a, None, TransportMode::Once);
        run(&mut p, &a, 150, 0.01);
        assert!(!p.playing);
        assert!((p.now(&a, 0) - 1.0).abs() < 1e-5);
        let mut pose = Pose::default();
        p.evaluate(&mut pose);
        assert!((pose.local[0].translation.x - 2.0).abs() < 1e-4, "holds the last frame: {:?}", pose.local[0]);
        p.toggle_play(&a, 0);
        assert!(p.playing && p.now(&a, 0) < 1e-5);
    }

    #[test]
    fn mute_and_solo_gate_the_mix_and_the_callbacks() {
        let a = asset_with(vec![clip("a", 1.0, 2.0, &[(0.5, "a")]), clip("b", 1.0, -2.0, &[(0.5, "b")])]);
        let mut p = Player::for_asset(&a, Some(0), TransportMode::Clamp);
        p.add_track(1, 0.0);
        p.seek(&a, 0, 1.0);
        let mut pose = Pose::default();
        p.evaluate(&mut pose);
        assert!(pose.local[0].translation.x.abs() < 1e-4, "equal blend of +2 and −2: {:?}", pose.local[0]);
        p.set_solo(0, true);
        p.evaluate(&mut pose);
        assert!((pose.local[0].translation.x - 2.0).abs() < 1e-4);
        // Weights are restored after the evaluation.
        assert_eq!(p.track(1).unwrap().weight, 1.0);
        p.set_solo(0, false);
        p.set_mute(1, true);
        p.seek(&a, 0, 0.0);
        let fired = run(&mut p, &a, 60, 0.01);
        assert_eq!(fired.iter().map(|f| f.data.as_str()).collect::<Vec<_>>(), ["a"]);
    }

    #[test]
    fn cross_fade_keys_events_and_ends_on_the_new_clip() {
        let a = asset_with(vec![clip("a", 2.0, 2.0, &[]), clip("b", 2.0, -2.0, &[])]);
        let mut p = Player::for_asset(&a, Some(0), TransportMode::Loop);
        run(&mut p, &a, 10, 0.01);
        let b = p.cross_fade(1, 0.5).unwrap();
        assert_eq!(b, 1);
        assert!(p.events_of(0).count() >= 2 && p.events_of(1).count() >= 2);
        run(&mut p, &a, 30, 0.01);
        let (w0, w1) = (p.track(0).unwrap().weight, p.track(1).unwrap().weight);
        assert!(w0 < 0.6 && w1 > 0.4, "{w0} {w1}");
        run(&mut p, &a, 40, 0.01);
        assert!(!p.track(0).unwrap().enabled && p.track(1).unwrap().weight == 1.0);
        assert_eq!(p.events_of(0).count(), 0, "finished events are dropped");
    }

    #[test]
    fn mask_limits_a_track_to_a_subtree() {
        let mut c = clip("a", 1.0, 1.0, &[]);
        c.tracks.push(BoneTrack {
            bone_name: "child".into(),
            translation: Curve::constant(Vec3::new(0.0, 5.0, 0.0)),
            ..BoneTrack::default()
        });
        let a = asset_with(vec![c]);
        let mut p = Player::for_asset(&a, None, TransportMode::Clamp);
        p.set_mask(0, Some(1), &a);
        p.seek(&a, 0, 1.0);
        let mut pose = Pose::default();
        p.evaluate(&mut pose);
        assert_eq!(pose.local[0].translation, Vec3::ZERO, "root is outside the mask");
        assert_eq!(pose.local[1].translation, Vec3::new(0.0, 5.0, 0.0));
        assert_eq!(p.track(0).unwrap().mask_root, Some(1));
    }

    #[test]
    fn reload_keeps_tracks_and_clock() {
        let a = asset_with(vec![clip("a", 2.0, 2.0, &[]), clip("b", 2.0, -2.0, &[])]);
        let mut p = Player::for_asset(&a, Some(1), TransportMode::PingPong);
        p.set_weight(0, 0.5);
        run(&mut p, &a, 50, 0.01);
        let q = p.carried_over(&a);
        assert_eq!(q.track(0).unwrap().clip, Some(1));
        assert_eq!(q.track(0).unwrap().weight, 0.5);
        assert!((q.clock() - p.clock()).abs() < 1e-9);
        assert_eq!(q.mode(), TransportMode::PingPong);
    }

    #[test]
    fn following_the_script_a_clip_that_ends_hands_over_to_its_next_clip() {
        use crate::scene::ClipScript;
        let script = |looping: bool, next: &str, blend_in: f32| ClipScript {
            looping,
            next: Some(next.into()),
            blend_in,
            ..ClipScript::default()
        };
        let mut start = clip("t_Walk_2_WalkL", 0.5, 1.0, &[]);
        start.script = Some(Box::new(script(false, "s_WalkL", 0.2)));
        let mut walk = clip("s_WalkL", 1.0, 3.0, &[]);
        walk.script = Some(Box::new(script(true, "s_WalkL", 0.2)));
        let a = asset_with(vec![start, walk]);
        // Loop for every clip would replay the transition for ever; the script says what comes next.
        let mut p = Player::for_asset(&a, Some(0), TransportMode::Loop);
        assert!(p.has_script() && p.follows_script());
        let mut focus = 0;
        for _ in 0..80 {
            if let Some(t) = p.advance(&a, focus, 0.01, |_| {}) {
                focus = t;
            }
        }
        assert_eq!(p.track(focus).unwrap().clip, Some(1), "the next clip plays after 0.5 s");
        // After the 0.2 s cross-fade only the looping clip is heard, and it keeps looping.
        for _ in 0..300 {
            p.advance(&a, focus, 0.01, |_| {});
        }
        assert_eq!(p.track(focus).unwrap().clip, Some(1));
        assert_eq!(p.track(focus).unwrap().weight, 1.0);
        assert!(!p.contributes(0) || p.track(0).unwrap().weight == 0.0);
        // Without the script every clip plays with the one playback type: the transition loops.
        let mut q = Player::for_asset(&a, Some(0), TransportMode::Loop);
        q.set_follow_script(false);
        for _ in 0..80 {
            assert_eq!(q.advance(&a, 0, 0.01, |_| {}), None);
        }
        assert_eq!(q.track(0).unwrap().clip, Some(0));
    }

    #[test]
    fn fired_script_events_carry_their_kind_and_frame() {
        let mut c = clip("attack", 1.0, 1.0, &[]);
        c.callback_keys.push(CallbackKey {
            time: 0.25,
            data: "Whoosh".into(),
            kind: "eventSFX".into(),
            frame: Some(7),
        });
        let a = asset_with(vec![c]);
        let mut p = Player::for_asset(&a, Some(0), TransportMode::Loop);
        let mut out = Vec::new();
        for _ in 0..40 {
            p.advance(&a, 0, 0.01, |f| out.push(f));
        }
        assert_eq!(out.len(), 1);
        assert_eq!((out[0].kind.as_str(), out[0].frame, out[0].data.as_str()), ("eventSFX", Some(7), "Whoosh"));
    }
}
