//! The clip's time base: ticks → seconds, where time 0 is, where the clip ends, and whether the samples agree
//! with the `*SCENE` block.
//!
//! Time 0 is the first sample. 3ds Max's exporter writes it at tick `*SCENE_FIRSTFRAME × *SCENE_TICKSPERFRAME`;
//! GothicSourcer at tick `*SCENE_FIRSTFRAME` (the frame number written as a tick: 1, 193, 385 … with first frame 1
//! and 192 ticks per frame — KrxImpExp's loader, the Gothic community's importer, ignores the ticks altogether and
//! takes sample `i` as frame `first + i`, which comes to the same). The file's earliest sample decides; the
//! exporter's rule only says whether that is expected. A clip has `*SCENE_LASTFRAME − *SCENE_FIRSTFRAME + 1`
//! frames at `*SCENE_FRAMESPEED` and lasts `(LASTFRAME − FIRSTFRAME) / FRAMESPEED` seconds. Samples that start
//! elsewhere, run past the last frame, or (for exporters that write every frame) come in another number or spacing
//! than the scene block's frames get a warning.

use super::dialect::{Exporter, SampleSpace};
use super::records::{RawFile, RawTrack, TrackKind};
use crate::scene::{Reading, Warning};

/// The scene's time base.
#[derive(Clone, Copy, Debug)]
pub(super) struct Timing {
    /// The tick at time 0.
    pub start_tick: i64,
    /// The tick the clip ends at.
    pub end_tick: i64,
    pub ticks_per_second: f64,
    /// Distance between written samples (ticks), for filling left-out samples.
    pub step: i64,
}

impl Timing {
    pub fn seconds(&self, tick: i64) -> f32 {
        (tick.saturating_sub(self.start_tick) as f64 / self.ticks_per_second) as f32
    }
}

/// Greatest common divisor of all positive gaps between sample ticks: the exporter's sampling step.
pub(super) fn sample_step<'a>(tracks: impl Iterator<Item = &'a RawTrack>) -> Option<i64> {
    fn gcd(a: i64, b: i64) -> i64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    let mut step = 0i64;
    for track in tracks.filter(|t| t.kind == TrackKind::Sampled) {
        for pair in track.ticks.windows(2) {
            let d = pair[1].saturating_sub(pair[0]);
            // A gap equal to the step so far (every gap of a track sampled per frame) leaves it as it is: no
            // division for it (one per key line of a long take otherwise).
            if d > 0 && d != step {
                step = gcd(d, step);
            }
        }
    }
    (step > 0).then_some(step)
}

fn sampled_tracks(raw: &RawFile) -> impl Iterator<Item = &RawTrack> {
    raw.nodes
        .iter()
        .filter_map(|n| n.anim.as_ref())
        .flat_map(|a| [&a.pos, &a.rot, &a.scale])
        .flatten()
        .filter(|t| t.kind == TrackKind::Sampled && !t.is_empty())
}

/// The earliest and latest tick the file puts data at: animation samples, else `*MESH_ANIMATION` frames.
fn data_extent(raw: &RawFile) -> Option<(i64, i64, &'static str)> {
    let ticks = sampled_tracks(raw).flat_map(|t| t.ticks.iter().copied());
    let extent = ticks.fold(None, |acc: Option<(i64, i64)>, t| Some(acc.map_or((t, t), |(a, b)| (a.min(t), b.max(t)))));
    if let Some((first, last)) = extent {
        return Some((first, last, "sample"));
    }
    let frames = raw.nodes.iter().flat_map(|n| n.frames.iter().map(|f| f.time));
    frames
        .fold(None, |acc: Option<(i64, i64)>, t| Some(acc.map_or((t, t), |(a, b)| (a.min(t), b.max(t)))))
        .map(|(a, b)| (a, b, "vertex animation frame"))
}

/// The time base from `*SCENE` and the data (with sane fallbacks), and the frame rate. Records how time 0 was
/// chosen and warns where the samples disagree with the scene block.
pub(super) fn timing(
    raw: &RawFile,
    exporter: Exporter,
    samples: SampleSpace,
    readings: &mut Vec<Reading>,
    warnings: &mut Vec<Warning>,
) -> (Timing, f32) {
    let warn = |warnings: &mut Vec<Warning>, message: String| warnings.push(Warning::new("", message));
    let scene = &raw.scene;
    let mut fps = scene.frame_speed;
    if !(fps.is_finite() && fps > 0.0) {
        warn(warnings, format!("*SCENE_FRAMESPEED {fps} is not usable; 30 is used"));
        fps = 30.0;
    }
    let mut tpf = scene.ticks_per_frame;
    if !(tpf.is_finite() && tpf >= 1.0) {
        warn(warnings, format!("*SCENE_TICKSPERFRAME {tpf} is not usable; 160 is used"));
        tpf = 160.0;
    }
    let ticks_per_frame = tpf.round() as i64;
    let ticks_per_second = f64::from(fps) * ticks_per_frame as f64;
    let step = sample_step(sampled_tracks(raw)).unwrap_or(ticks_per_frame);
    let extent = data_extent(raw);
    let frames = scene.last_frame.saturating_sub(scene.first_frame).max(0);

    // Time 0.
    let by_rule = exporter.first_sample_tick(scene.first_frame, ticks_per_frame);
    let other_rule = if exporter == Exporter::GothicSourcer {
        scene.first_frame.saturating_mul(ticks_per_frame)
    } else {
        scene.first_frame
    };
    let start_tick = match extent {
        None => by_rule,
        Some((first, _, what)) if !scene.present => {
            readings.push(Reading::new(
                "time 0",
                format!("the first {what}, tick {first}"),
                "the file has no *SCENE block",
            ));
            first
        }
        Some((first, _, what)) => {
            let frame = scene.first_frame;
            let basis = if first == by_rule && first == other_rule {
                format!("*SCENE_FIRSTFRAME {frame}")
            } else if first == by_rule {
                match exporter {
                    Exporter::GothicSourcer => {
                        format!("*SCENE_FIRSTFRAME {frame} written as a tick, as GothicSourcer does")
                    }
                    _ => format!("*SCENE_FIRSTFRAME {frame} × *SCENE_TICKSPERFRAME {ticks_per_frame}"),
                }
            } else if first == other_rule {
                if first == frame {
                    format!("*SCENE_FIRSTFRAME {frame} written as a tick (GothicSourcer's way), found in the data")
                } else {
                    format!("*SCENE_FIRSTFRAME {frame} × *SCENE_TICKSPERFRAME {ticks_per_frame}, found in the data")
                }
            } else {
                warn(
                    warnings,
                    format!(
                        "the first {what} is at tick {first}, but *SCENE_FIRSTFRAME {frame} puts the first frame at tick {by_rule}: time 0 is the first {what}"
                    ),
                );
                format!("the data: *SCENE_FIRSTFRAME {frame} would put it at tick {by_rule}")
            };
            readings.push(Reading::new("time 0", format!("the first {what}, tick {first}"), basis));
            first
        }
    };

    // The end, and whether the samples agree with the scene block.
    let mut end_tick = start_tick.saturating_add(frames.saturating_mul(ticks_per_frame));
    if let Some((_, last, what)) = extent {
        if !scene.present {
            end_tick = end_tick.max(last);
        } else if last > end_tick {
            warn(
                warnings,
                format!(
                    "the {what}s run to tick {last}, past *SCENE_LASTFRAME {} (tick {end_tick}); the clip ends at the last frame",
                    scene.last_frame
                ),
            );
        }
    }
    if scene.present && samples == SampleSpace::World {
        check_every_frame(raw, frames + 1, ticks_per_frame, step, warnings);
    }
    let timing = Timing { start_tick, end_tick, ticks_per_second, step };
    (timing, fps)
}

/// Exporters that write world samples write one per frame: warn when a track's count or spacing disagrees with
/// the scene block's frames.
fn check_every_frame(raw: &RawFile, frames: i64, ticks_per_frame: i64, step: i64, warnings: &mut Vec<Warning>) {
    // Position and rotation tracks (scale tracks hold one constant sample in these files).
    let counts: Vec<usize> = raw
        .nodes
        .iter()
        .filter_map(|n| n.anim.as_ref())
        .flat_map(|a| [&a.pos, &a.rot])
        .flatten()
        .filter(|t| t.kind == TrackKind::Sampled)
        .map(|t| t.len())
        .collect();
    let off = counts.iter().filter(|&&n| n as i64 != frames).count();
    if off > 0 {
        let (least, most) = (counts.iter().min().copied().unwrap_or(0), counts.iter().max().copied().unwrap_or(0));
        warnings.push(Warning::new(
            "",
            format!(
                "{off} position or rotation track(s) have {least}–{most} samples where the scene block's frames make {frames} (one per frame)"
            ),
        ));
    }
    if counts.iter().any(|&n| n > 1) && step != ticks_per_frame {
        warnings.push(Warning::new(
            "",
            format!("samples are {step} ticks apart, but *SCENE_TICKSPERFRAME is {ticks_per_frame}"),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_step_is_the_gcd_of_gaps() {
        let mut t = RawTrack::new(1, TrackKind::Sampled);
        for tick in [0, 1600, 2400] {
            t.push(tick, glam::Vec4::ZERO, None);
        }
        assert_eq!(sample_step([&t].into_iter()), Some(800));
    }
}
