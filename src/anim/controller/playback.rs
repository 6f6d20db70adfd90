//! Playback types: how a track's unbounded position maps into a clip's local time, and which callback keys a
//! movement of the position crosses. Pure functions of (position, duration, playback type); the controller owns
//! the state.
//!
//! Every key of a clip sits at a set of *unwrapped positions* on the track's timeline: for `Loop`, `t + n·D` for
//! every whole cycle `n`; for `PingPong`, `t + n·2D` (forward leg) and `2D − t + n·2D` (backward leg), counted
//! once where the two coincide (keys at 0 and at `D`); for `Once` and `ClampForever` just `t`. A move from `p0`
//! to `p1` crosses the unwrapped positions in the half-open interval that excludes where it starts and includes
//! where it ends: `(p0, p1]` forwards, `[p1, p0)` backwards. Consecutive moves partition the timeline, so a key
//! fires exactly once per crossing however the movement is cut into frames.

/// How a track's position maps into its clip (a D3DX "animation set type", with Unity's names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub enum PlaybackType {
    /// Plays the clip once. When the position runs past the end (or, playing backwards, before the start), the
    /// track disables itself and rewinds to where it started (0 forwards, the end backwards), so enabling it
    /// again replays it. Until then local time is the position clamped to the clip.
    Once,
    /// Wraps around: local time is the position modulo the duration.
    #[default]
    Loop,
    /// Plays forwards, then backwards, and so on: local time reflects at both ends.
    PingPong,
    /// Plays to the end and holds the last frame (the position itself is kept within the clip, so reversing
    /// the speed plays back at once).
    ClampForever,
}

impl PlaybackType {
    pub const ALL: [PlaybackType; 4] =
        [PlaybackType::Once, PlaybackType::Loop, PlaybackType::PingPong, PlaybackType::ClampForever];

    /// A short label for UIs.
    pub fn label(self) -> &'static str {
        match self {
            PlaybackType::Once => "Once",
            PlaybackType::Loop => "Loop",
            PlaybackType::PingPong => "Ping-pong",
            PlaybackType::ClampForever => "Clamp forever",
        }
    }
}

/// Local clip time (seconds, in `[0, duration]`) for a track position. A clip of zero (or invalid) length
/// always samples at 0; a NaN position samples at 0.
pub fn local_time(position: f64, duration: f32, playback: PlaybackType) -> f32 {
    let d = f64::from(duration);
    if d.is_nan() || d <= 0.0 || !position.is_finite() {
        return 0.0;
    }
    let t = match playback {
        PlaybackType::Once | PlaybackType::ClampForever => position.clamp(0.0, d),
        PlaybackType::Loop => position.rem_euclid(d),
        PlaybackType::PingPong => {
            let m = position.rem_euclid(2.0 * d);
            if m <= d { m } else { 2.0 * d - m }
        }
    };
    // rem_euclid can round up to the divisor itself for tiny negative inputs.
    (t as f32).clamp(0.0, duration)
}

/// Where a movement leaves the track after the playback type has had its say.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct MoveOutcome {
    /// The position to store.
    pub position: f64,
    /// A `Once` track ran off its clip: disable it.
    pub finished: bool,
}

/// Applies the playback type's rule for stored positions after moving from `from` to `to`.
pub(crate) fn settle_position(from: f64, to: f64, duration: f32, playback: PlaybackType) -> MoveOutcome {
    let d = f64::from(duration.max(0.0));
    match playback {
        PlaybackType::Once if to > from && to > d => MoveOutcome { position: 0.0, finished: true },
        PlaybackType::Once if to < from && to < 0.0 => MoveOutcome { position: d, finished: true },
        PlaybackType::ClampForever => MoveOutcome { position: to.clamp(0.0, d), finished: false },
        _ => MoveOutcome { position: to, finished: false },
    }
}

/// A single move never visits more than this many whole cycles of a looping or ping-pong clip for callbacks:
/// a stalled clock that hands `advance` hours at once must not hang the caller. Past the limit only the keys
/// of the last cycles before the end of the move fire.
pub const MAX_CALLBACK_CYCLES: f64 = 4096.0;

/// Calls `emit(key_slot, unwrapped_position)` for every crossing of a key in the move from `p0` to `p1`, in
/// the order the move meets them. `key_times` must ascend and lie in `[0, duration]`; `key_slot` indexes it.
pub(crate) fn for_each_crossing(
    key_times: &[f32],
    duration: f32,
    playback: PlaybackType,
    p0: f64,
    p1: f64,
    mut emit: impl FnMut(usize, f64),
) {
    if key_times.is_empty() || p0 == p1 || !p0.is_finite() || !p1.is_finite() {
        return;
    }
    let forward = p1 > p0;
    let inside = |p: f64| if forward { p > p0 && p <= p1 } else { p >= p1 && p < p0 };
    let d = f64::from(duration);
    let period = match playback {
        PlaybackType::Once | PlaybackType::ClampForever => {
            let mut visit = |k: usize| {
                let p = f64::from(key_times[k]);
                if inside(p) {
                    emit(k, p);
                }
            };
            if forward {
                (0..key_times.len()).for_each(&mut visit)
            } else {
                (0..key_times.len()).rev().for_each(visit)
            }
            return;
        }
        _ if d.is_nan() || d <= 0.0 => return,
        PlaybackType::Loop => d,
        PlaybackType::PingPong => 2.0 * d,
    };
    // Cycles that can hold a crossing: one before the lower end (keys at the very end of a cycle) to the one
    // holding the upper end, limited to the last MAX_CALLBACK_CYCLES in the direction of travel.
    let (lo, hi) = if forward { (p0, p1) } else { (p1, p0) };
    let mut first = (lo / period).floor() - 1.0;
    let mut last = (hi / period).floor();
    if last - first > MAX_CALLBACK_CYCLES {
        if forward {
            first = last - MAX_CALLBACK_CYCLES;
        } else {
            last = first + MAX_CALLBACK_CYCLES;
        }
    }
    let n_cycles = (last - first) as i64;
    let ping_pong = playback == PlaybackType::PingPong;
    for step in 0..=n_cycles {
        let n = if forward { first + step as f64 } else { last - step as f64 };
        let base = n * period;
        // Within one cycle the unwrapped positions ascend: forward leg by key time, then the backward leg by
        // descending key time (keys at 0 and at the turning point belong to the forward leg only).
        let forward_leg = |k: usize| base + f64::from(key_times[k]);
        let backward_leg = |k: usize| {
            let t = f64::from(key_times[k]);
            (ping_pong && t > 0.0 && t < d).then_some(base + period - t)
        };
        if forward {
            for k in 0..key_times.len() {
                let p = forward_leg(k);
                if inside(p) {
                    emit(k, p);
                }
            }
            for k in (0..key_times.len()).rev() {
                if let Some(p) = backward_leg(k).filter(|&p| inside(p)) {
                    emit(k, p);
                }
            }
        } else {
            for k in 0..key_times.len() {
                if let Some(p) = backward_leg(k).filter(|&p| inside(p)) {
                    emit(k, p);
                }
            }
            for k in (0..key_times.len()).rev() {
                let p = forward_leg(k);
                if inside(p) {
                    emit(k, p);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crossings(keys: &[f32], d: f32, playback: PlaybackType, p0: f64, p1: f64) -> Vec<(usize, f64)> {
        let mut out = Vec::new();
        for_each_crossing(keys, d, playback, p0, p1, |k, p| out.push((k, p)));
        out
    }

    #[test]
    fn loop_wraps_and_ping_pong_reflects() {
        use PlaybackType::*;
        assert_eq!(local_time(0.5, 2.0, Loop), 0.5);
        assert_eq!(local_time(4.5, 2.0, Loop), 0.5);
        assert_eq!(local_time(-0.5, 2.0, Loop), 1.5);
        assert_eq!(local_time(2.5, 2.0, PingPong), 1.5);
        assert_eq!(local_time(4.5, 2.0, PingPong), 0.5);
        assert_eq!(local_time(-0.5, 2.0, PingPong), 0.5);
        assert_eq!(local_time(3.0, 2.0, ClampForever), 2.0);
        assert_eq!(local_time(-1.0, 2.0, Once), 0.0);
        assert_eq!(local_time(5.0, 0.0, Loop), 0.0);
        assert_eq!(local_time(f64::NAN, 1.0, Loop), 0.0);
    }

    #[test]
    fn consecutive_moves_fire_each_crossing_once() {
        let keys = [0.0, 0.25, 1.0];
        for playback in [PlaybackType::Loop, PlaybackType::PingPong] {
            let whole = crossings(&keys, 1.0, playback, 0.1, 7.3);
            let mut pieces = Vec::new();
            let mut p = 0.1;
            for _ in 0..72 {
                let next = p + 0.1;
                for_each_crossing(&keys, 1.0, playback, p, next, |k, q| pieces.push((k, q)));
                p = next;
            }
            let whole_keys: Vec<usize> = whole.iter().map(|c| c.0).collect();
            let piece_keys: Vec<usize> = pieces.iter().map(|c| c.0).collect();
            assert_eq!(whole_keys, piece_keys, "{playback:?}");
        }
    }

    #[test]
    fn loop_counts_and_order() {
        // Keys at 0 and at the end are distinct keys: both fire at every wrap.
        let c = crossings(&[0.0, 0.5, 1.0], 1.0, PlaybackType::Loop, 0.0, 2.0);
        assert_eq!(c.iter().map(|c| c.0).collect::<Vec<_>>(), vec![1, 2, 0, 1, 2, 0]);
        // Backwards: [1.0, 2.5) → 2.0 (key 2 then key 0 of cycle 2), 1.5, 1.0 (key 2 then key 0).
        let c = crossings(&[0.0, 0.5, 1.0], 1.0, PlaybackType::Loop, 2.5, 1.0);
        assert_eq!(c.iter().map(|c| c.0).collect::<Vec<_>>(), vec![0, 2, 1, 0, 2]);
    }

    #[test]
    fn ping_pong_turning_keys_fire_once_per_turn() {
        // Over two full periods: key 0.5 four times, key 1.0 twice (one per turn at the end), key 0 twice.
        let c = crossings(&[0.0, 0.5, 1.0], 1.0, PlaybackType::PingPong, -0.01, 3.99);
        let count = |k| c.iter().filter(|c| c.0 == k).count();
        assert_eq!((count(0), count(1), count(2)), (2, 4, 2));
    }

    #[test]
    fn once_and_clamp_cross_each_key_at_most_once() {
        let c = crossings(&[0.5, 1.0], 1.0, PlaybackType::ClampForever, 0.0, 100.0);
        assert_eq!(c.len(), 2);
        let c = crossings(&[0.5, 1.0], 1.0, PlaybackType::ClampForever, 1.0, 0.0);
        assert_eq!(c.iter().map(|c| c.0).collect::<Vec<_>>(), vec![0], "leaving the end does not refire it");
    }

    #[test]
    fn huge_moves_are_bounded() {
        let mut n = 0usize;
        for_each_crossing(&[0.5], 1.0, PlaybackType::Loop, 0.0, 1e12, |_, _| n += 1);
        assert!(n <= MAX_CALLBACK_CYCLES as usize + 2, "{n}");
        assert!(n >= MAX_CALLBACK_CYCLES as usize);
    }

    #[test]
    fn once_finishes_past_either_end() {
        let o = settle_position(1.9, 2.1, 2.0, PlaybackType::Once);
        assert_eq!(o, MoveOutcome { position: 0.0, finished: true });
        let o = settle_position(0.1, -0.1, 2.0, PlaybackType::Once);
        assert_eq!(o, MoveOutcome { position: 2.0, finished: true });
        assert!(!settle_position(1.9, 2.0, 2.0, PlaybackType::Once).finished, "reaching the end is still playing");
        assert_eq!(settle_position(1.5, 9.0, 2.0, PlaybackType::ClampForever).position, 2.0);
    }
}
