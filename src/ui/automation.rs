//! The scripted start-up: what the command line asks the viewer to do once the first files are loaded (`--clip`,
//! `--time`, `--select`, `--track`, `--finding`, `--zoom`, `--view`, `--morph`, `--up`, `--skin`, `--body`,
//! `--controller`, `--blend`), the `--screenshot` run that saves the window and
//! exits, and the `BONESCOPE_TIMING` report. Each request is taken once, when its moment comes; the app asks
//! for them at those moments and applies them like the user's own commands.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use web_time::Instant;

use eframe::egui;

use crate::AppError;
use crate::ui::ViewerArgs;

/// A screenshot run gives up after this long (e.g. when no frame can be presented).
const SCREENSHOT_TIMEOUT: Duration = Duration::from_secs(120);

/// Where a screenshot run tells [`super::run`] (and so the exit status) that it failed.
pub type Outcome = Arc<Mutex<Option<String>>>;

/// The requests of the command line that are still to be carried out.
pub struct Script {
    /// Clip to play first (`--clip`), taken with the first scene.
    pub clip: Option<String>,
    /// Start paused at this time (`--time`).
    pub time: Option<f32>,
    /// Bone to select (`--select`).
    pub select: Option<String>,
    /// Extra mixer tracks (`--track`), added once the files are loaded.
    pub tracks: Vec<String>,
    /// Finding to show once the first diagnostics are in (`--finding`).
    pub finding: Option<usize>,
    /// Zoom applied once after the first framing (`--zoom`).
    pub zoom: Option<f32>,
    /// Morph weights set by hand once the files are loaded (`--morph`).
    pub morphs: Vec<crate::anim::morph::MorphSetting>,
    /// Up axis of the model file, set once it is loaded (`--up`).
    pub up: Option<crate::scene::UpAxis>,
    /// View preset applied once before the first framing (`--view`).
    pub view: Option<crate::render::camera::ViewPreset>,
    /// Skin family, body-group choices, bone controllers and blend parameters, set once the files are loaded
    /// (`--skin`, `--body`, `--controller`, `--blend`).
    pub studio: StudioRequests,
    pub screenshot: Option<ScreenshotRun>,
    timing: Option<Timing>,
    /// Where a request that cannot be carried out (`--select` of a bone the model lacks) makes the run fail: the
    /// exit status once the window closes, as a failed screenshot run does.
    outcome: Outcome,
}

/// `--skin`, `--body`, `--controller`, `--blend`: the GoldSrc controls to set once the files are loaded.
#[derive(Clone, Debug, Default)]
pub struct StudioRequests {
    pub skin: Option<usize>,
    pub bodies: Vec<String>,
    pub controllers: Vec<String>,
    pub blend: Option<String>,
}

/// `--screenshot PATH --after-frames N`.
pub struct ScreenshotRun {
    path: PathBuf,
    after_frames: u32,
    ready_frames: u32,
    requested: bool,
    result: Arc<Mutex<Option<Result<(), AppError>>>>,
    started: Instant,
    /// Set when the run must report failure (load error, timeout, write error).
    failure: Option<String>,
    outcome: Outcome,
}

/// `BONESCOPE_TIMING`: when `run` started, and which milestones are still to be reported.
struct Timing {
    launched: Instant,
    first_frame: bool,
    first_scene: bool,
    /// Frames drawn since the scene came on screen, and since when: the window's real frame rate, reported
    /// every [`FRAMES_PER_REPORT`] frames.
    frames: u32,
    since: Option<Instant>,
}

/// Frames between two frame-rate reports of `BONESCOPE_TIMING`.
const FRAMES_PER_REPORT: u32 = 100;

impl Script {
    pub fn new(args: &ViewerArgs, outcome: Outcome, launched: Instant) -> Self {
        Self {
            clip: args.clip.clone(),
            time: args.time,
            select: args.select.clone(),
            tracks: args.tracks.clone(),
            finding: args.finding,
            zoom: args.zoom.filter(|z| z.is_finite() && *z > 0.0),
            view: args.view,
            up: args.up,
            morphs: args.morphs.clone(),
            outcome: outcome.clone(),
            studio: StudioRequests {
                skin: args.skin,
                bodies: args.bodies.clone(),
                controllers: args.controllers.clone(),
                blend: args.blend.clone(),
            },
            screenshot: args.screenshot.clone().map(|path| ScreenshotRun {
                path,
                after_frames: args.after_frames.max(1),
                ready_frames: 0,
                requested: false,
                result: Arc::new(Mutex::new(None)),
                started: Instant::now(),
                failure: None,
                outcome,
            }),
            timing: std::env::var_os("BONESCOPE_TIMING").map(|_| Timing {
                launched,
                first_frame: true,
                first_scene: true,
                frames: 0,
                since: None,
            }),
        }
    }

    /// An automated run: no one watches the window, the user's saved settings stay out of it, time advances
    /// by a fixed step per frame.
    pub fn is_automated(&self) -> bool {
        self.screenshot.is_some()
    }

    /// Marks a screenshot run as failed (the first reason is kept).
    pub fn fail(&mut self, why: impl FnOnce() -> String) {
        if let Some(run) = &mut self.screenshot {
            run.failure.get_or_insert_with(why);
        }
    }

    /// A request of the command line that cannot be carried out (`--select` naming no bone): the run fails —
    /// a screenshot is still taken, but the exit status is an error, also after an interactive window closes.
    pub fn fail_request(&mut self, why: String) {
        if let Some(run) = &mut self.screenshot {
            run.failure.get_or_insert_with(|| why.clone());
        }
        if let Ok(mut outcome) = self.outcome.lock() {
            outcome.get_or_insert(why);
        }
    }

    /// `BONESCOPE_TIMING`: prints when the first frame is built, when the first scene (`title`) is on screen, and
    /// then the frame rate over every hundred frames.
    pub fn report_timing(&mut self, scene_shown: Option<&str>) {
        let Some(t) = &mut self.timing else { return };
        let ms = t.launched.elapsed().as_secs_f64() * 1e3;
        if t.first_frame {
            t.first_frame = false;
            eprintln!("bonescope timing: first frame {ms:.0} ms after launch");
        }
        if let Some(title) = scene_shown.filter(|_| t.first_scene) {
            t.first_scene = false;
            eprintln!("bonescope timing: '{title}' on screen {ms:.0} ms after launch");
            t.since = Some(Instant::now());
            return;
        }
        if let Some(since) = t.since {
            t.frames += 1;
            if t.frames == FRAMES_PER_REPORT {
                let seconds = since.elapsed().as_secs_f64();
                eprintln!(
                    "bonescope timing: {} frames in {seconds:.2} s: {:.1} fps ({:.1} ms a frame)",
                    t.frames,
                    f64::from(t.frames) / seconds,
                    seconds * 1e3 / f64::from(t.frames)
                );
                t.frames = 0;
                t.since = Some(Instant::now());
            }
        }
    }

    /// Advances a screenshot run by one frame: once the scene is `ready` (files loaded, diagnostics in) and
    /// the requested number of frames has been drawn, asks egui for the screenshot; once it is saved (or the
    /// run failed or timed out), closes the window.
    pub fn screenshot_step(&mut self, ctx: &egui::Context, ready: bool) {
        let Some(run) = &mut self.screenshot else { return };
        ctx.request_repaint();
        if run.started.elapsed() > SCREENSHOT_TIMEOUT {
            run.failure.get_or_insert_with(|| "timed out waiting for the screenshot".into());
            run.finish(ctx);
            return;
        }
        if !run.requested {
            // Wait for the files and their diagnostics (a screenshot of a tab still "checking" shows nothing).
            if !ready || self.finding.is_some() {
                return;
            }
            run.ready_frames += 1;
            if run.ready_frames >= run.after_frames {
                run.requested = true;
                let path = run.path.clone();
                let result = run.result.clone();
                let waker = ctx.clone();
                ctx.request_screenshot(move |image| {
                    let r = save_png(&path, &image);
                    if let Ok(mut g) = result.lock() {
                        *g = Some(r);
                    }
                    waker.request_repaint();
                });
            }
            return;
        }
        let done = run.result.lock().ok().and_then(|mut g| g.take());
        if let Some(r) = done {
            if let Err(e) = r {
                run.failure.get_or_insert(e.to_string());
            }
            run.finish(ctx);
        }
    }
}

impl ScreenshotRun {
    fn finish(&self, ctx: &egui::Context) {
        if let (Some(f), Ok(mut o)) = (&self.failure, self.outcome.lock()) {
            *o = Some(f.clone());
        }
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }
}

/// Splits a `--track` spec `CLIP[@SECONDS][*WEIGHT]` into the clip name, the start position (0) and the
/// weight (1).
pub fn parse_track_spec(spec: &str) -> Result<(&str, f32, f32), AppError> {
    let bad = |what: &str| AppError::Invalid(format!("--track '{spec}': {what} (expected CLIP[@SECONDS][*WEIGHT])"));
    let (rest, weight) = match spec.rsplit_once('*') {
        Some((r, w)) => (r, w.trim().parse::<f32>().map_err(|_| bad("the weight is not a number"))?),
        None => (spec, 1.0),
    };
    let (name, pos) = match rest.rsplit_once('@') {
        Some((n, p)) => (n, p.trim().parse::<f32>().map_err(|_| bad("the position is not a number"))?),
        None => (rest, 0.0),
    };
    if name.trim().is_empty() {
        return Err(bad("no clip name"));
    }
    if !pos.is_finite() || !weight.is_finite() || weight < 0.0 {
        return Err(bad("position and weight must be finite, the weight not negative"));
    }
    Ok((name.trim(), pos, weight))
}

/// Writes an egui screenshot as an RGBA PNG.
pub fn save_png(path: &std::path::Path, image: &egui::ColorImage) -> Result<(), AppError> {
    let [w, h] = image.size;
    let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_srgba_unmultiplied()).collect();
    let img = image::RgbaImage::from_raw(w as u32, h as u32, bytes)
        .ok_or_else(|| AppError::write(path, format!("a screenshot of {w}×{h} has {} pixels", image.pixels.len())))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| AppError::write(dir, e))?;
    }
    img.save_with_format(path, image::ImageFormat::Png).map_err(|e| AppError::write(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn track_specs_parse_names_positions_and_weights() {
        let invalid = |spec: &str| match parse_track_spec(spec) {
            Err(AppError::Invalid(why)) => why,
            other => panic!("{spec}: {other:?}"),
        };
        assert_eq!(parse_track_spec("Walk").unwrap(), ("Walk", 0.0, 1.0));
        assert_eq!(parse_track_spec("Take 001@1.5").unwrap(), ("Take 001", 1.5, 1.0));
        assert_eq!(parse_track_spec("Run@0.25*0.5").unwrap(), ("Run", 0.25, 0.5));
        assert_eq!(parse_track_spec("Run*0.5").unwrap(), ("Run", 0.0, 0.5));
        assert!(invalid("Run@x").contains("position"));
        assert!(invalid("@1").contains("no clip name"));
        assert!(invalid("Run*-1").contains("not negative"));
    }
}
