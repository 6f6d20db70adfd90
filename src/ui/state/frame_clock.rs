//! The viewer's wall clock: how much time each frame advances playback, the frame rate the window really
//! reaches, and how many clip frames a slow window had to skip.
//!
//! Playback keeps wall-clock time: a slow frame (a software renderer, a busy machine) advances the clip by the
//! whole time that passed, so a 2-second clip takes 2 seconds at 5 fps as at 60 fps, skipping the frames it
//! could not show; it never plays in slow motion. Only a gap longer than [`STALL_SECONDS`] is treated as a
//! stall (the window was hidden, the machine suspended, a native dialog held the thread) and advances nothing,
//! so coming back does not jump the clip far ahead. Automated runs (`--screenshot`) use a fixed step instead, so
//! their pictures do not depend on the machine's speed.
//!
//! Must not touch: egui, GPU, the scene.

use web_time::Instant;

/// Gaps longer than this are stalls, not slow frames.
pub const STALL_SECONDS: f32 = 2.0;

/// The step of automated runs (60 Hz).
pub const FIXED_STEP: f32 = 1.0 / 60.0;

#[derive(Clone, Debug)]
pub struct FrameClock {
    last_frame: Option<Instant>,
    /// Frames per second, smoothed over the last few dozen frames.
    pub fps: f32,
    /// Clip frames playback skipped because the window drew slower than the clip's frame rate.
    pub skipped_frames: u64,
    /// Clip frames advanced beyond one a window frame, not yet a whole skipped frame (a window at 21 fps playing
    /// a 24.4 fps clip skips one clip frame every six or seven window frames).
    skip_debt: f32,
}

impl Default for FrameClock {
    fn default() -> Self {
        Self { last_frame: None, fps: 0.0, skipped_frames: 0, skip_debt: 0.0 }
    }
}

impl FrameClock {
    /// Starts a frame at `now`: returns the seconds playback advances by, and updates the frame rate.
    pub fn tick(&mut self, now: Instant, automated: bool) -> f32 {
        let elapsed = self.last_frame.map(|t| now.saturating_duration_since(t).as_secs_f32());
        self.last_frame = Some(now);
        if let Some(e) = elapsed.filter(|e| *e > 0.0 && *e <= STALL_SECONDS) {
            let instant = 1.0 / e.max(1e-4);
            self.fps = if self.fps == 0.0 { instant } else { self.fps * 0.9 + instant * 0.1 };
        }
        if automated {
            return FIXED_STEP;
        }
        match elapsed {
            Some(e) if e <= STALL_SECONDS => e,
            _ => 0.0,
        }
    }

    /// Counts the clip frames a step of `clip_frames` (clip frames advanced this frame) skipped: each window frame
    /// shows one clip frame, so what it advanced beyond one adds up, across frames, to frames never shown. A
    /// window faster than the clip banks nothing (it shows some clip frames twice).
    pub fn count_skipped(&mut self, clip_frames: f32) {
        if !clip_frames.is_finite() || clip_frames < 0.0 {
            return;
        }
        self.skip_debt = (self.skip_debt + clip_frames - 1.0).max(0.0);
        let whole = self.skip_debt.floor();
        self.skipped_frames += whole as u64;
        self.skip_debt -= whole;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_slow_frame_advances_by_all_the_time_that_passed() {
        let mut clock = FrameClock::default();
        let t0 = Instant::now();
        assert_eq!(clock.tick(t0, false), 0.0);
        let dt = clock.tick(t0 + Duration::from_millis(400), false);
        assert!((dt - 0.4).abs() < 1e-6, "{dt}");
        assert!((clock.fps - 2.5).abs() < 1e-3, "{}", clock.fps);
    }

    #[test]
    fn a_stall_advances_nothing_and_does_not_count_as_a_frame_rate() {
        let mut clock = FrameClock::default();
        let t0 = Instant::now();
        clock.tick(t0, false);
        clock.tick(t0 + Duration::from_millis(50), false);
        let fps = clock.fps;
        assert_eq!(clock.tick(t0 + Duration::from_secs(20), false), 0.0);
        assert_eq!(clock.fps, fps);
    }

    #[test]
    fn automated_runs_step_sixty_times_a_second_whatever_the_machine() {
        let mut clock = FrameClock::default();
        let t0 = Instant::now();
        clock.tick(t0, true);
        assert_eq!(clock.tick(t0 + Duration::from_millis(700), true), FIXED_STEP);
    }

    #[test]
    fn skipped_clip_frames_are_all_but_the_one_shown() {
        let mut clock = FrameClock::default();
        clock.count_skipped(0.5);
        clock.count_skipped(1.9);
        assert_eq!(clock.skipped_frames, 0, "0.9 of a frame so far");
        clock.count_skipped(4.2);
        assert_eq!(clock.skipped_frames, 4, "0.9 + 3.2 frames beyond the ones shown");
    }

    #[test]
    fn a_window_a_little_slower_than_the_clip_counts_the_frames_it_skips() {
        // 21 fps against a 24.4 fps clip: 100 window frames advance 116 clip frames, 16 of them never shown.
        let mut clock = FrameClock::default();
        for _ in 0..100 {
            clock.count_skipped(24.4 / 21.0);
        }
        assert_eq!(clock.skipped_frames, 16);
        // Faster than the clip: nothing skipped, and nothing banked for later.
        let mut clock = FrameClock::default();
        for _ in 0..100 {
            clock.count_skipped(0.5);
        }
        clock.count_skipped(1.5);
        assert_eq!(clock.skipped_frames, 0);
    }
}
