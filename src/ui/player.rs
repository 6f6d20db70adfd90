//! The viewer's playback model: the timeline clock, the mixer's tracks (clip, enable, weight, speed, position,
//! additive, mask, solo/mute), sequencer events (weight ramps, as a cross-fade makes) and callback firing.
//! It evaluates the blended local pose of the asset's skeleton into caller-visible buffers.
//!
//! Time model. The timeline clock `time` runs from 0 to [`Player::length`] (the end of the last contributing
//! track); the playback type says what happens at the ends: `Once` stops, `Clamp` holds the end and keeps
//! playing, `Loop` wraps, `PingPong` turns round. Each track maps the clock to its clip's local time as
//! `offset + speed · time`, folded into the clip by the same playback type. Weights from sequencer events are
//! a pure function of the clock, so scrubbing back before a cross-fade shows the pose before it.
//!
//! Callback rule: callback keys fire only while playing (`advance`), once per crossing of the key, for keys in
//! (previous, now] in the direction of travel (including wraps and reverse play). Seeking — scrubbing, frame
//! steps, Home/End — never fires callbacks, so dragging the playhead cannot cause a storm.
//!
//! Must not touch: GPU, egui, files. Pose maths comes from `anim`.

use glam::{Quat, Vec3, Vec4};

use crate::anim::{ClipBinding, Pose};
use crate::scene::{Asset, Transform};

/// What the clock (and each track's clip time) does at the ends of the range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum PlaybackType {
    /// Play to the end and stop.
    Once,
    /// Wrap round to the start.
    #[default]
    Loop,
    /// Turn round at either end.
    PingPong,
    /// Hold the end frame while still playing (other tracks, or a negative speed, may go on).
    Clamp,
}

impl PlaybackType {
    pub const ALL: [PlaybackType; 4] = [Self::Once, Self::Loop, Self::PingPong, Self::Clamp];

    pub fn label(self) -> &'static str {
        match self {
            Self::Once => "Once",
            Self::Loop => "Loop",
            Self::PingPong => "Ping-pong",
            Self::Clamp => "Clamp",
        }
    }

    /// Folds an unbounded time into `[0, period]`.
    pub fn fold(self, t: f32, period: f32) -> f32 {
        if !(period > 0.0) || !t.is_finite() {
            return 0.0;
        }
        match self {
            Self::Once | Self::Clamp => t.clamp(0.0, period),
            Self::Loop => t.rem_euclid(period),
            Self::PingPong => {
                let m = t.rem_euclid(2.0 * period);
                if m > period { 2.0 * period - m } else { m }
            }
        }
    }
}

/// Which bones a track drives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mask {
    #[default]
    All,
    /// The bone and everything below it.
    Subtree(usize),
}

/// A change of a track's weight over time on the timeline clock (a cross-fade is two of them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeqEvent {
    pub start: f32,
    pub duration: f32,
    pub from: f32,
    pub to: f32,
}

impl SeqEvent {
    pub fn end(&self) -> f32 {
        self.start + self.duration.max(0.0)
    }

    /// The weight at `time`, or `None` before the event starts.
    pub fn value_at(&self, time: f32) -> Option<f32> {
        if time < self.start {
            None
        } else if self.duration <= 0.0 || time >= self.end() {
            Some(self.to)
        } else {
            let s = (time - self.start) / self.duration;
            Some(self.from + (self.to - self.from) * s)
        }
    }
}

/// One row of the mixer.
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    /// Index into `asset.clips`.
    pub clip: usize,
    pub enabled: bool,
    /// Base weight (sequencer events override it from their start on).
    pub weight: f32,
    pub speed: f32,
    /// Clip time at clock 0; the clip time at clock `t` is `offset + speed · t` (folded).
    pub offset: f32,
    /// Added on top of the blended pose as a difference from the bind pose, instead of blended.
    pub additive: bool,
    pub mask: Mask,
    pub solo: bool,
    pub mute: bool,
    pub events: Vec<SeqEvent>,
}

impl Track {
    pub fn new(clip: usize) -> Self {
        Self {
            clip,
            enabled: true,
            weight: 1.0,
            speed: 1.0,
            offset: 0.0,
            additive: false,
            mask: Mask::All,
            solo: false,
            mute: false,
            events: Vec::new(),
        }
    }

    /// Weight at clock `time`, with sequencer events applied (the latest started event wins).
    pub fn weight_at(&self, time: f32) -> f32 {
        let mut w = self.weight;
        let mut latest = f32::NEG_INFINITY;
        for e in &self.events {
            if let Some(v) = e.value_at(time)
                && e.start >= latest
            {
                latest = e.start;
                w = v;
            }
        }
        w
    }

    /// Unfolded clip time at clock `time`.
    pub fn raw_time(&self, time: f32) -> f32 {
        self.offset + self.speed * time
    }
}

/// A callback key that fired.
#[derive(Clone, Debug, PartialEq)]
pub struct Fired {
    /// Clock time when it fired.
    pub clock: f32,
    pub track: usize,
    pub clip: String,
    /// The key's time in its clip.
    pub key_time: f32,
    pub data: String,
}

/// The playback state.
#[derive(Clone, Debug)]
pub struct Player {
    pub tracks: Vec<Track>,
    pub time: f32,
    pub playing: bool,
    /// Global speed multiplier of the clock (negative plays backwards).
    pub speed: f32,
    pub mode: PlaybackType,
    /// Direction of the clock in ping-pong mode (+1 or −1), times the sign of `speed`.
    direction: f32,
    bindings: Vec<(usize, ClipBinding)>,
    scratch: Vec<Transform>,
    acc_t: Vec<Vec3>,
    acc_s: Vec<Vec3>,
    acc_r: Vec<Vec4>,
    acc_w: Vec<f32>,
    masks: Vec<Vec<bool>>,
}

impl Default for Player {
    fn default() -> Self {
        Self {
            tracks: Vec::new(),
            time: 0.0,
            playing: true,
            speed: 1.0,
            mode: PlaybackType::Loop,
            direction: 1.0,
            bindings: Vec::new(),
            scratch: Vec::new(),
            acc_t: Vec::new(),
            acc_s: Vec::new(),
            acc_r: Vec::new(),
            acc_w: Vec::new(),
            masks: Vec::new(),
        }
    }
}

impl Player {
    /// A player for `asset` with one track on `clip` (when the asset has clips).
    pub fn for_asset(asset: &Asset, clip: Option<usize>) -> Self {
        let mut p = Self::default();
        if let Some(c) = clip.filter(|c| *c < asset.clips.len()).or(if asset.clips.is_empty() { None } else { Some(0) })
        {
            p.tracks.push(Track::new(c));
        }
        p
    }

    /// Whether a track takes part in the pose (enabled, not muted, soloed if anything is soloed).
    pub fn contributes(&self, track: usize) -> bool {
        let any_solo = self.tracks.iter().any(|t| t.solo && t.enabled && !t.mute);
        self.tracks.get(track).is_some_and(|t| t.enabled && !t.mute && (!any_solo || t.solo))
    }

    /// End of the timeline: the clock time at which the last contributing track reaches the end of its clip
    /// (or its start, when it plays backwards), the end of every sequencer event, and the end of every input
    /// recording (recordings play on the clock directly). 0 when nothing plays.
    pub fn length(&self, asset: &Asset) -> f32 {
        let mut end = asset.recordings.iter().map(|r| r.duration).filter(|d| d.is_finite()).fold(0.0f32, f32::max);
        for (i, t) in self.tracks.iter().enumerate() {
            for e in &t.events {
                end = end.max(e.end());
            }
            if !self.contributes(i) {
                continue;
            }
            let Some(clip) = asset.clips.get(t.clip) else { continue };
            let d = clip.duration.max(0.0);
            let track_end = if t.speed > 1e-6 {
                (d - t.offset) / t.speed
            } else if t.speed < -1e-6 {
                -t.offset / t.speed
            } else {
                0.0
            };
            end = end.max(track_end);
        }
        if end.is_finite() { end.max(0.0) } else { 0.0 }
    }

    /// Frame rate for stepping and frame display: the focus track's clip, else 30.
    pub fn frame_rate(&self, asset: &Asset, focus: usize) -> f32 {
        self.tracks
            .get(focus)
            .or_else(|| self.tracks.first())
            .and_then(|t| asset.clips.get(t.clip))
            .map(|c| c.frame_rate)
            .filter(|f| f.is_finite() && *f > 0.0)
            .unwrap_or(30.0)
    }

    /// Clip time (folded) of a track at the current clock.
    pub fn clip_time(&self, asset: &Asset, track: usize) -> f32 {
        let Some(t) = self.tracks.get(track) else { return 0.0 };
        let d = asset.clips.get(t.clip).map_or(0.0, |c| c.duration);
        self.mode.fold(t.raw_time(self.time), d)
    }

    /// Moves the clock to `time` (clamped to the timeline) without firing callbacks.
    pub fn seek(&mut self, asset: &Asset, time: f32) {
        let len = self.length(asset);
        self.time = if time.is_finite() { time.clamp(0.0, len) } else { 0.0 };
    }

    /// Advances the clock by `dt` seconds of wall time (times the global speed) when playing, and calls
    /// `fired` for every callback key crossed.
    pub fn advance(&mut self, asset: &Asset, dt: f32, mut fired: impl FnMut(Fired)) {
        if !self.playing || !dt.is_finite() || dt <= 0.0 {
            return;
        }
        let len = self.length(asset);
        if len <= 0.0 {
            self.time = 0.0;
            return;
        }
        let step = dt * self.speed;
        // The clock segments travelled this frame (two when it wraps or turns round).
        let mut segments: [(f32, f32); 2] = [(self.time, self.time); 2];
        let mut count = 1;
        let from = self.time.clamp(0.0, len);
        match self.mode {
            PlaybackType::Once | PlaybackType::Clamp => {
                let to = (from + step).clamp(0.0, len);
                segments[0] = (from, to);
                self.time = to;
                let at_end = (step > 0.0 && to >= len) || (step < 0.0 && to <= 0.0);
                if at_end && self.mode == PlaybackType::Once {
                    self.playing = false;
                }
            }
            PlaybackType::Loop => {
                // A step longer than the whole timeline only wraps once; that is enough for display and keeps
                // the callback count bounded.
                let step = step.clamp(-len, len);
                let to = from + step;
                if to >= len {
                    segments = [(from, len), (0.0, to - len)];
                    count = 2;
                    self.time = (to - len).min(len);
                } else if to < 0.0 {
                    segments = [(from, 0.0), (len, to + len)];
                    count = 2;
                    self.time = (to + len).max(0.0);
                } else {
                    segments[0] = (from, to);
                    self.time = to;
                }
            }
            PlaybackType::PingPong => {
                let step = (step * self.direction).clamp(-len, len);
                let to = from + step;
                if to > len {
                    segments = [(from, len), (len, 2.0 * len - to)];
                    count = 2;
                    self.time = (2.0 * len - to).max(0.0);
                    self.direction = -self.direction;
                } else if to < 0.0 {
                    segments = [(from, 0.0), (0.0, -to)];
                    count = 2;
                    self.time = (-to).min(len);
                    self.direction = -self.direction;
                } else {
                    segments[0] = (from, to);
                    self.time = to;
                }
            }
        }
        for &(a, b) in &segments[..count] {
            self.fire_between(asset, a, b, &mut fired);
        }
    }

    /// Fires the callback keys every contributing track crosses while the clock goes from `a` to `b`.
    fn fire_between(&self, asset: &Asset, a: f32, b: f32, fired: &mut impl FnMut(Fired)) {
        if a == b {
            return;
        }
        for (i, t) in self.tracks.iter().enumerate() {
            if !self.contributes(i) {
                continue;
            }
            let Some(clip) = asset.clips.get(t.clip) else { continue };
            if clip.callback_keys.is_empty() {
                continue;
            }
            let (ra, rb) = (t.raw_time(a), t.raw_time(b));
            let clock_of = |raw: f32| if t.speed.abs() > 1e-9 { (raw - t.offset) / t.speed } else { a };
            for key in &clip.callback_keys {
                for raw in crossings(self.mode, key.time, clip.duration, ra, rb) {
                    fired(Fired {
                        clock: clock_of(raw),
                        track: i,
                        clip: clip.name.clone(),
                        key_time: key.time,
                        data: key.data.clone(),
                    });
                }
            }
        }
    }

    /// The blended local pose at the current clock, written into `pose` (and its to-root and palette updated).
    pub fn evaluate(&mut self, asset: &Asset, pose: &mut Pose) {
        let skeleton = &asset.skeleton;
        let n = skeleton.len();
        pose.local.clear();
        pose.local.extend_from_slice(&skeleton.bind_local);
        self.refresh_bindings(asset);
        self.acc_t.clear();
        self.acc_t.resize(n, Vec3::ZERO);
        self.acc_s.clear();
        self.acc_s.resize(n, Vec3::ZERO);
        self.acc_r.clear();
        self.acc_r.resize(n, Vec4::ZERO);
        self.acc_w.clear();
        self.acc_w.resize(n, 0.0);
        self.scratch.resize(n, Transform::IDENTITY);

        // Pass 1: weighted average of the non-additive tracks, per bone (weights normalised per bone, so a
        // masked track fully drives its bones when it is alone there). Pass 2: additive tracks on top.
        for additive_pass in [false, true] {
            for i in 0..self.tracks.len() {
                if !self.contributes(i) || self.tracks[i].additive != additive_pass {
                    continue;
                }
                let track = &self.tracks[i];
                let w = track.weight_at(self.time);
                if w <= 0.0 {
                    continue;
                }
                let Some(clip) = asset.clips.get(track.clip) else { continue };
                let Some(binding) = self.bindings.get(i).map(|b| &b.1) else { continue };
                let t = self.mode.fold(track.raw_time(self.time), clip.duration);
                binding.sample(skeleton, clip, t, &mut self.scratch);
                // An empty mask means all bones.
                let mask = self.masks.get(i).filter(|m| !m.is_empty());
                for b in 0..n {
                    if mask.is_some_and(|m| !m.get(b).copied().unwrap_or(false)) {
                        continue;
                    }
                    let s = self.scratch[b];
                    if additive_pass {
                        let bind = skeleton.bind_local[b];
                        let l = &mut pose.local[b];
                        let dq = bind.rotation.inverse() * s.rotation;
                        l.rotation = (l.rotation * Quat::IDENTITY.slerp(dq, w.min(1.0))).normalize();
                        l.translation += (s.translation - bind.translation) * w;
                        let ratio = s.scale / bind.scale.max(Vec3::splat(1e-6));
                        l.scale *= Vec3::ONE + (ratio - Vec3::ONE) * w;
                    } else {
                        let q = Vec4::from(s.rotation);
                        let first = self.acc_r[b];
                        // Blend rotations in one hemisphere, or q and −q (the same rotation) cancel.
                        let q = if first.dot(q) < 0.0 { -q } else { q };
                        self.acc_r[b] += q * w;
                        self.acc_t[b] += s.translation * w;
                        self.acc_s[b] += s.scale * w;
                        self.acc_w[b] += w;
                    }
                }
            }
            if !additive_pass {
                for b in 0..n {
                    let w = self.acc_w[b];
                    if w > 1e-6 {
                        let q = self.acc_r[b] / w;
                        pose.local[b] = Transform {
                            translation: self.acc_t[b] / w,
                            rotation: if q.length_squared() > 1e-12 {
                                Quat::from_vec4(q.normalize())
                            } else {
                                Quat::IDENTITY
                            },
                            scale: self.acc_s[b] / w,
                        };
                    }
                }
            }
        }
        pose.update(skeleton);
    }

    /// Rebuilds the per-track clip bindings and masks when tracks or their clips changed.
    fn refresh_bindings(&mut self, asset: &Asset) {
        let n = asset.skeleton.len();
        self.bindings.truncate(self.tracks.len());
        for (i, t) in self.tracks.iter().enumerate() {
            let stale = self.bindings.get(i).is_none_or(|b| b.0 != t.clip || b.1.bone_tracks.len() != n);
            if stale {
                let binding = asset
                    .clips
                    .get(t.clip)
                    .map(|c| ClipBinding::new(&asset.skeleton, c))
                    .unwrap_or_else(|| ClipBinding { bone_tracks: vec![None; n], unmatched_tracks: Vec::new() });
                if i < self.bindings.len() {
                    self.bindings[i] = (t.clip, binding);
                } else {
                    self.bindings.push((t.clip, binding));
                }
            }
        }
        self.masks.resize(self.tracks.len(), Vec::new());
        for (i, t) in self.tracks.iter().enumerate() {
            match t.mask {
                Mask::All => self.masks[i].clear(),
                Mask::Subtree(root) => {
                    let m = &mut self.masks[i];
                    m.clear();
                    m.resize(n, false);
                    for b in 0..n {
                        // Parents come first, so one forward pass marks the whole subtree.
                        let parent_in = asset.skeleton.parents[b].is_some_and(|p| p < b && m[p]);
                        m[b] = b == root || parent_in;
                    }
                }
            }
        }
        // An empty mask means "all bones"; keep `All` tracks out of the per-bone check.
        for (i, t) in self.tracks.iter().enumerate() {
            if t.mask == Mask::All {
                self.masks[i] = Vec::new();
            }
        }
    }

    /// Makes `track` fade in over `seconds` from now while every other contributing track fades out: the
    /// sequencer events of a cross-fade. The faded-in track starts its clip at 0 now unless it is already
    /// contributing.
    pub fn cross_fade(&mut self, clip: usize, seconds: f32) -> usize {
        let now = self.time;
        let seconds = seconds.max(0.0);
        let existing = (0..self.tracks.len()).find(|&i| self.tracks[i].clip == clip && self.contributes(i));
        let target = match existing {
            Some(i) => i,
            None => {
                let mut t = Track::new(clip);
                t.weight = 0.0;
                t.offset = -t.speed * now;
                self.tracks.push(t);
                self.tracks.len() - 1
            }
        };
        for i in 0..self.tracks.len() {
            if i != target && !self.contributes(i) {
                continue;
            }
            let from = self.tracks[i].weight_at(now);
            let to = if i == target { 1.0 } else { 0.0 };
            let t = &mut self.tracks[i];
            // Later events replace what an earlier, unfinished one would still do after `now`.
            t.events.retain(|e| e.start < now);
            t.events.push(SeqEvent { start: now, duration: seconds, from, to });
        }
        target
    }
}

/// Unfolded clip times in the half-open range from `ra` to `rb` (direction of travel; `(ra, rb]` forwards,
/// `[rb, ra)` backwards) at which the key at clip time `key` is met, for a clip of length `period` played
/// with `mode`.
pub fn crossings(mode: PlaybackType, key: f32, period: f32, ra: f32, rb: f32) -> Vec<f32> {
    let mut out = Vec::new();
    if ra == rb || !ra.is_finite() || !rb.is_finite() {
        return out;
    }
    let inside = |x: f32| if rb > ra { x > ra && x <= rb } else { x >= rb && x < ra };
    let (lo, hi) = (ra.min(rb), ra.max(rb));
    match mode {
        PlaybackType::Once | PlaybackType::Clamp => {
            if inside(key) && (0.0..=period.max(0.0)).contains(&key) {
                out.push(key);
            }
        }
        PlaybackType::Loop | PlaybackType::PingPong if period > 0.0 => {
            let cycle = if mode == PlaybackType::Loop { period } else { 2.0 * period };
            // Images of the key within one cycle: loop has one; ping-pong two (out and back), one at the turn.
            let first_image = if mode == PlaybackType::Loop { key.rem_euclid(period) } else { key.clamp(0.0, period) };
            let mut images = vec![first_image];
            if mode == PlaybackType::PingPong {
                let back = 2.0 * period - images[0];
                if (back - images[0]).abs() > 1e-6 && back < cycle {
                    images.push(back);
                }
            }
            let first = (lo / cycle).floor() as i64 - 1;
            let last = (hi / cycle).ceil() as i64 + 1;
            // A huge span is bounded by `advance` (at most one timeline length per frame).
            if last - first > 10_000 {
                return out;
            }
            for n in first..=last {
                for img in &images {
                    let x = img + n as f32 * cycle;
                    if inside(x) {
                        out.push(x);
                    }
                }
            }
            out.sort_by(f32::total_cmp);
            if rb < ra {
                out.reverse();
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{BoneTrack, CallbackKey, Clip, Curve};

    fn asset_with(clips: Vec<Clip>) -> Asset {
        let mut a = Asset::new(crate::scene::Format::Demo);
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
            callback_keys: keys.iter().map(|(t, d)| CallbackKey { time: *t, data: (*d).into() }).collect(),
        }
    }

    fn run(p: &mut Player, a: &Asset, steps: usize, dt: f32) -> Vec<Fired> {
        let mut out = Vec::new();
        for _ in 0..steps {
            p.advance(a, dt, |f| out.push(f));
        }
        out
    }

    #[test]
    fn fold_modes() {
        assert_eq!(PlaybackType::Loop.fold(2.5, 2.0), 0.5);
        assert_eq!(PlaybackType::Loop.fold(-0.5, 2.0), 1.5);
        assert_eq!(PlaybackType::PingPong.fold(2.5, 2.0), 1.5);
        assert_eq!(PlaybackType::PingPong.fold(4.5, 2.0), 0.5);
        assert_eq!(PlaybackType::Once.fold(3.0, 2.0), 2.0);
        assert_eq!(PlaybackType::Clamp.fold(-1.0, 2.0), 0.0);
    }

    #[test]
    fn loop_fires_each_key_once_per_cycle() {
        let a = asset_with(vec![clip("walk", 1.0, 1.0, &[(0.25, "step L"), (0.75, "step R")])]);
        let mut p = Player::for_asset(&a, None);
        // 3 cycles in 7 ms steps: 6 callbacks, in order, none twice.
        let fired = run(&mut p, &a, (3.0f32 / 0.007).ceil() as usize, 0.007);
        let data: Vec<&str> = fired.iter().map(|f| f.data.as_str()).collect();
        assert_eq!(data, ["step L", "step R", "step L", "step R", "step L", "step R"]);
    }

    #[test]
    fn a_big_step_that_wraps_still_fires_the_keys_it_crossed() {
        let a = asset_with(vec![clip("walk", 1.0, 1.0, &[(0.1, "a"), (0.9, "b")])]);
        let mut p = Player::for_asset(&a, None);
        p.time = 0.8;
        let fired = run(&mut p, &a, 1, 0.4); // 0.8 → 1.2 wraps to 0.2: crosses 0.9 then 0.1
        let data: Vec<&str> = fired.iter().map(|f| f.data.as_str()).collect();
        assert_eq!(data, ["b", "a"]);
        assert!((p.time - 0.2).abs() < 1e-5);
    }

    #[test]
    fn reverse_play_fires_in_reverse_and_seek_fires_nothing() {
        let a = asset_with(vec![clip("walk", 1.0, 1.0, &[(0.25, "a"), (0.75, "b")])]);
        let mut p = Player::for_asset(&a, None);
        p.seek(&a, 0.9);
        p.seek(&a, 0.1);
        p.speed = -1.0;
        p.time = 0.9;
        let fired = run(&mut p, &a, 10, 0.05); // 0.9 → 0.4
        let data: Vec<&str> = fired.iter().map(|f| f.data.as_str()).collect();
        assert_eq!(data, ["b"]);
    }

    #[test]
    fn once_stops_at_the_end_and_clamp_keeps_playing() {
        let a = asset_with(vec![clip("walk", 1.0, 1.0, &[])]);
        let mut p = Player::for_asset(&a, None);
        p.mode = PlaybackType::Once;
        run(&mut p, &a, 30, 0.05);
        assert!(!p.playing);
        assert_eq!(p.time, 1.0);
        p.mode = PlaybackType::Clamp;
        p.playing = true;
        run(&mut p, &a, 3, 0.05);
        assert!(p.playing);
        assert_eq!(p.time, 1.0);
    }

    #[test]
    fn ping_pong_turns_round_and_fires_on_the_way_back() {
        let a = asset_with(vec![clip("wave", 1.0, 1.0, &[(0.5, "mid")])]);
        let mut p = Player::for_asset(&a, None);
        p.mode = PlaybackType::PingPong;
        let fired = run(&mut p, &a, 40, 0.05); // 0 → 1 → 0
        assert_eq!(fired.len(), 2);
        assert!(p.time < 0.05, "{}", p.time);
    }

    #[test]
    fn blend_weights_average_translations() {
        let a = asset_with(vec![clip("a", 1.0, 2.0, &[]), clip("b", 1.0, -2.0, &[])]);
        let mut p = Player::for_asset(&a, Some(0));
        p.tracks.push(Track { weight: 3.0, ..Track::new(1) });
        p.time = 1.0;
        p.mode = PlaybackType::Clamp;
        let mut pose = Pose::default();
        p.evaluate(&a, &mut pose);
        // (1·2 + 3·(−2)) / 4 = −1
        assert!((pose.local[0].translation.x + 1.0).abs() < 1e-5, "{:?}", pose.local[0]);
        // The child follows its parent: to-root origin at (−1, 1, 0).
        assert!(pose.to_root[1].w_axis.truncate().abs_diff_eq(Vec3::new(-1.0, 1.0, 0.0), 1e-5));
        // Solo the first: only it counts.
        p.tracks[0].solo = true;
        p.evaluate(&a, &mut pose);
        assert!((pose.local[0].translation.x - 2.0).abs() < 1e-5);
        // Mute everything: bind pose.
        p.tracks[0].mute = true;
        p.tracks[1].mute = true;
        p.evaluate(&a, &mut pose);
        assert_eq!(pose.local[0], Transform::IDENTITY);
    }

    #[test]
    fn cross_fade_ramps_weights_and_scrubbing_back_restores() {
        let a = asset_with(vec![clip("a", 2.0, 2.0, &[]), clip("b", 2.0, -2.0, &[])]);
        let mut p = Player::for_asset(&a, Some(0));
        p.mode = PlaybackType::Clamp;
        p.seek(&a, 1.0);
        let b = p.cross_fade(1, 0.5);
        assert_eq!(b, 1);
        // The new track starts its clip now.
        assert!((p.clip_time(&a, 1) - 0.0).abs() < 1e-6);
        assert!((p.tracks[0].weight_at(1.25) - 0.5).abs() < 1e-6);
        assert!((p.tracks[1].weight_at(1.25) - 0.5).abs() < 1e-6);
        assert_eq!(p.tracks[1].weight_at(2.0), 1.0);
        assert_eq!(p.tracks[0].weight_at(0.5), 1.0);
        // The timeline now reaches the end of clip b: 1 + 2 s.
        assert!((p.length(&a) - 3.0).abs() < 1e-5);
    }

    #[test]
    fn subtree_mask_limits_a_track_to_its_bones() {
        let mut walk = clip("a", 1.0, 1.0, &[]);
        walk.tracks.push(BoneTrack {
            bone_name: "child".into(),
            translation: Curve::constant(Vec3::new(0.0, 5.0, 0.0)),
            ..BoneTrack::default()
        });
        let a = asset_with(vec![walk]);
        let mut p = Player::for_asset(&a, Some(0));
        p.tracks[0].mask = Mask::Subtree(1);
        p.time = 1.0;
        let mut pose = Pose::default();
        p.evaluate(&a, &mut pose);
        assert_eq!(pose.local[0].translation, Vec3::ZERO, "root is outside the mask");
        assert_eq!(pose.local[1].translation, Vec3::new(0.0, 5.0, 0.0));
    }

    #[test]
    fn crossings_handle_loop_boundaries() {
        // Key at 0 in a 1 s loop is met once per wrap, at the end of each cycle.
        assert_eq!(crossings(PlaybackType::Loop, 0.0, 1.0, 0.5, 2.5), vec![1.0, 2.0]);
        assert_eq!(crossings(PlaybackType::Loop, 0.5, 1.0, 0.0, 0.5), vec![0.5]);
        assert!(crossings(PlaybackType::Loop, 0.5, 1.0, 0.5, 0.9).is_empty());
        assert_eq!(crossings(PlaybackType::PingPong, 0.25, 1.0, 0.0, 2.0), vec![0.25, 1.75]);
        assert_eq!(crossings(PlaybackType::Once, 0.25, 1.0, 1.0, 0.0), vec![0.25]);
    }
}
