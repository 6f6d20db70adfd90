//! The timeline: transport (start, step, play/pause, step, end), speed and playback type, a time ruler in
//! seconds and frames that zooms (wheel) and pans (drag with the right or middle button, Shift+wheel),
//! scrubbing by dragging, the selected bone's key ticks, callback keys as marks, and one lane per mixer track
//! with its clip's extent and its sequencer events as bars. Track headers (the mixer) sit at the left of their
//! lanes.
//!
//! The visible time range and the cross-fade form are this panel's own view state (like a scroll position);
//! everything else it reads and changes through [`Command`]s.

use eframe::egui;

use egui::{Color32, Pos2, Rect, Sense, Stroke, Vec2};

use crate::anim::controller::EventKind;
use crate::ui::commands::command::Command;
use crate::ui::state::document::Document;
use crate::ui::views::mixer::{self, TRACK_ROW_HEIGHT, track_color};

use crate::ui::state::player::{Player, TransportMode};
use crate::ui::state::settings::UiState;

/// Width of the track-header (mixer) column.
pub const HEADER_WIDTH: f32 = 430.0;
const RULER_HEIGHT: f32 = 34.0;
const KEYS_HEIGHT: f32 = 24.0;

/// Visible range and form fields; not persisted.
#[derive(Clone, Debug)]
pub struct TimelineView {
    pub start: f32,
    pub end: f32,
    /// Follow the timeline length until the user zooms or pans.
    pub fit: bool,
    pub cross_fade_clip: usize,
}

impl Default for TimelineView {
    fn default() -> Self {
        Self { start: 0.0, end: 1.0, fit: true, cross_fade_clip: 0 }
    }
}

impl TimelineView {
    fn time_to_x(&self, lane: Rect, t: f32) -> f32 {
        lane.left() + (t - self.start) / (self.end - self.start).max(1e-6) * lane.width()
    }

    fn x_to_time(&self, lane: Rect, x: f32) -> f32 {
        self.start + (x - lane.left()) / lane.width().max(1.0) * (self.end - self.start)
    }

    /// Zooms by `factor` (< 1 zooms in) keeping time `at` under the pointer.
    pub fn zoom(&mut self, factor: f32, at: f32) {
        let span = ((self.end - self.start) * factor).clamp(1e-3, 1e5);
        let s = (at - self.start) / (self.end - self.start).max(1e-6);
        self.start = at - s * span;
        self.end = self.start + span;
        self.fit = false;
    }

    pub fn pan(&mut self, dt: f32) {
        self.start += dt;
        self.end += dt;
        self.fit = false;
    }
}

/// Everything the timeline reads.
pub struct TimelineInput<'a> {
    pub doc: &'a Document,
    pub player: &'a Player,
    pub state: &'a UiState,
    pub focus: usize,
    pub selected: Option<usize>,
}

/// A readable tick step (seconds) for about `px_per_sec` pixels per second, labels at least `min_px` apart.
pub fn tick_step(px_per_sec: f32, min_px: f32) -> f32 {
    const STEPS: [f32; 19] = [
        0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0,
        600.0,
    ];
    STEPS.into_iter().find(|s| s * px_per_sec >= min_px).unwrap_or(600.0)
}

pub fn show(ui: &mut egui::Ui, input: &TimelineInput, view: &mut TimelineView, cmds: &mut Vec<Command>) {
    let asset = &input.doc.asset;
    let player = input.player;
    let length = player.length(asset, input.focus);
    let now = player.now(asset, input.focus);
    let fps = player.frame_rate(asset, input.focus);
    if view.fit || view.end <= view.start {
        view.start = 0.0;
        view.end = if length > 0.0 { length * 1.02 } else { 1.0 };
    }

    transport(ui, input, now, length, fps, view, cmds);
    ui.add_space(2.0);

    // The cross-fade row sits above the tracks, outside their scrolling, so it stays in view however many
    // tracks the mixer has.
    let mut clip = view.cross_fade_clip;
    mixer::cross_fade_row(ui, input.doc, input.state.cross_fade_seconds, &mut clip, cmds);
    view.cross_fade_clip = clip;

    let rows = input.player.track_count();
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        let full = ui.available_width();
        let lane_width = (full - HEADER_WIDTH - 8.0).max(50.0);
        let total_h = RULER_HEIGHT + KEYS_HEIGHT + rows as f32 * TRACK_ROW_HEIGHT + 4.0;
        let (area, _) = ui.allocate_exact_size(Vec2::new(full, total_h), Sense::hover());
        let lanes = Rect::from_min_size(
            Pos2::new(area.left() + HEADER_WIDTH + 8.0, area.top()),
            Vec2::new(lane_width, RULER_HEIGHT + KEYS_HEIGHT + rows as f32 * TRACK_ROW_HEIGHT),
        );
        let ruler = Rect::from_min_size(lanes.min, Vec2::new(lane_width, RULER_HEIGHT));
        let keys = Rect::from_min_size(ruler.left_bottom(), Vec2::new(lane_width, KEYS_HEIGHT));

        // Interaction over the whole lane area: scrub, zoom, pan.
        let response = ui.interact(lanes, ui.scope_id().with("timeline lanes"), Sense::click_and_drag());
        lane_input(ui, &response, lanes, view, length, cmds);

        let painter = ui.painter_at(lanes.expand(1.0));
        let visuals = ui.visuals();
        let playing = (length > 0.0).then(|| {
            // The part of the range that plays.
            let x0 = view.time_to_x(lanes, 0.0).max(lanes.left());
            let x1 = view.time_to_x(lanes, length).min(lanes.right());
            x0..=x1
        });
        fill_lanes(&painter, lanes, ruler.bottom(), playing, visuals);
        draw_ruler(&painter, ruler, view, fps, input.state.show_frames, visuals);
        draw_keys(ui, &painter, keys, view, input);

        // Headers (the mixer) and lanes per track.
        let header_x = area.left();
        let ruler_header = Rect::from_min_size(Pos2::new(header_x, ruler.top()), Vec2::new(HEADER_WIDTH, RULER_HEIGHT));
        ui.scope_builder(egui::UiBuilder::new().max_rect(ruler_header), |ui| {
            ui.horizontal_centered(|ui| {
                ui.strong("Tracks");
                let add = ui.add_enabled(!asset.clips.is_empty(), egui::Button::new("+ Add track"));
                if add.on_hover_text("Add a track playing the focus track's clip, from where it is").clicked() {
                    cmds.push(Command::AddTrack);
                }
                if let Some(hint) = no_clips_hint(asset) {
                    ui.weak(hint);
                }
            });
        });
        let keys_header = Rect::from_min_size(Pos2::new(header_x, keys.top()), Vec2::new(HEADER_WIDTH, KEYS_HEIGHT));
        ui.scope_builder(egui::UiBuilder::new().max_rect(keys_header), |ui| {
            ui.horizontal_centered(|ui| {
                let bone = input.selected.and_then(|b| asset.skeleton.names.get(b));
                match bone {
                    Some(name) => ui.label(format!("Keys of {name}")),
                    None => ui.weak("Keys: select a bone"),
                };
            });
        });
        for i in 0..rows {
            let top = keys.bottom() + i as f32 * TRACK_ROW_HEIGHT;
            let header = Rect::from_min_size(Pos2::new(header_x, top), Vec2::new(HEADER_WIDTH, TRACK_ROW_HEIGHT));
            let lane = Rect::from_min_size(Pos2::new(lanes.left(), top), Vec2::new(lane_width, TRACK_ROW_HEIGHT));
            let focus = i == input.focus;
            if focus {
                ui.painter().rect_filled(header, 3.0, ui.visuals().selection.bg_fill.gamma_multiply(0.25));
            }
            ui.painter().hline(
                area.x_range(),
                top,
                Stroke::new(1.0, ui.visuals().widgets.noninteractive.bg_stroke.color),
            );
            ui.scope_builder(egui::UiBuilder::new().max_rect(header.shrink2(Vec2::new(2.0, 3.0))), |ui| {
                mixer::track_header(ui, input.doc, player, i, focus, input.selected, cmds);
            });
            draw_track_lane(&painter, lane, view, input, i);
        }

        // Playhead over everything.
        let x = view.time_to_x(lanes, now);
        if (lanes.left()..=lanes.right()).contains(&x) {
            let color = Color32::from_rgb(255, 90, 60);
            painter.vline(x, lanes.y_range(), Stroke::new(1.5, color));
            let tri =
                vec![Pos2::new(x - 6.0, ruler.top()), Pos2::new(x + 6.0, ruler.top()), Pos2::new(x, ruler.top() + 8.0)];
            painter.add(egui::Shape::convex_polygon(tri, color, Stroke::NONE));
        }
    });
}

fn transport(
    ui: &mut egui::Ui,
    input: &TimelineInput,
    now: f32,
    length: f32,
    fps: f32,
    view: &mut TimelineView,
    cmds: &mut Vec<Command>,
) {
    let player = input.player;
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        let big = |s: &str| egui::RichText::new(s).size(15.0);
        if ui.button(big("⏮")).on_hover_text("Go to start (Home)").clicked() {
            cmds.push(Command::GoToStart);
        }
        if ui.button(big("⏴")).on_hover_text("Step one frame back (←, Shift: 10)").clicked() {
            cmds.push(Command::StepFrames(-1));
        }
        let play = if player.playing { "⏸" } else { "▶" };
        if ui
            .add(egui::Button::new(big(play)).min_size(Vec2::new(34.0, 0.0)))
            .on_hover_text("Play / pause (Space)")
            .clicked()
        {
            cmds.push(Command::TogglePlay);
        }
        if ui.button(big("⏵")).on_hover_text("Step one frame forward (→, Shift: 10)").clicked() {
            cmds.push(Command::StepFrames(1));
        }
        if ui.button(big("⏭")).on_hover_text("Go to end (End)").clicked() {
            cmds.push(Command::GoToEnd);
        }
        ui.separator();
        let frame = (now * fps).round() as i64;
        let last = (length * fps).round() as i64;
        ui.monospace(format!("{now:7.3} s / {length:.3} s"));
        ui.add_space(6.0);
        ui.monospace(format!("frame {frame} / {last}"));
        ui.weak(format!("at {} fps", fmt_fps(fps)));
        ui.separator();
        ui.label("speed");
        let mut speed = input.state.speed;
        if ui
            .add(egui::DragValue::new(&mut speed).speed(0.01).range(0.0..=8.0).suffix("×").max_decimals(2))
            .on_hover_text("Playback speed (a track's own speed can be negative to play backwards)")
            .changed()
        {
            cmds.push(Command::SetSpeed(speed));
        }
        for s in [0.25f32, 1.0] {
            if ui.small_button(format!("{s}×")).clicked() {
                cmds.push(Command::SetSpeed(s));
            }
        }
        ui.separator();
        let mut mode = input.state.playback;
        egui::ComboBox::from_id_salt("playback type").selected_text(mode.label()).width(90.0).show_ui(ui, |ui| {
            for m in TransportMode::ALL {
                ui.selectable_value(&mut mode, m, m.label());
            }
        });
        if mode != input.state.playback {
            cmds.push(Command::SetPlayback(mode));
        }
        if player.has_script() {
            let mut follow = player.follows_script();
            if ui
                .checkbox(&mut follow, "script")
                .on_hover_text(
                    "Play as the model script says: each clip's own loop flag, and at the end of a clip that does \
                     not loop, its next clip, cross-faded over that clip's blend-in time",
                )
                .changed()
            {
                cmds.push(Command::SetFollowScript(follow));
            }
        }
        ui.separator();
        if ui
            .selectable_label(view.fit, "Fit")
            .on_hover_text("Fit the whole timeline (wheel zooms, right-drag pans)")
            .clicked()
        {
            view.fit = true;
        }
        let mut frames = input.state.show_frames;
        if ui.checkbox(&mut frames, "frames").changed() {
            cmds.push(Command::SetShowFrames(frames));
        }
    });
}

fn lane_input(
    ui: &egui::Ui,
    response: &egui::Response,
    lanes: Rect,
    view: &mut TimelineView,
    length: f32,
    cmds: &mut Vec<Command>,
) {
    // Scrub with the primary button (press or drag); seeking never fires callbacks.
    if (response.dragged_by(egui::PointerButton::Primary) || response.clicked())
        && let Some(pos) = response.interact_pointer_pos()
    {
        let t = view.x_to_time(lanes, pos.x).clamp(0.0, length.max(0.0));
        cmds.push(Command::Seek(t));
    }
    if response.dragged_by(egui::PointerButton::Secondary) || response.dragged_by(egui::PointerButton::Middle) {
        let dx = response.drag_delta().x;
        view.pan(-dx / lanes.width().max(1.0) * (view.end - view.start));
    }
    if response.hovered() {
        let (scroll, zoom, shift) = ui.input(|i| (i.smooth_scroll_delta(), i.zoom_delta(), i.modifiers.shift));
        let at = response.hover_pos().map_or(view.start, |p| view.x_to_time(lanes, p.x));
        let pan_px = if shift { scroll.y + scroll.x } else { scroll.x };
        if pan_px != 0.0 {
            view.pan(-pan_px / lanes.width().max(1.0) * (view.end - view.start));
        }
        if !shift && scroll.y != 0.0 {
            view.zoom((-scroll.y * 0.003).exp(), at);
        }
        if zoom != 1.0 && zoom > 0.0 {
            view.zoom(1.0 / zoom, at);
        }
    }
}

/// The lanes' background: the ruler band a shade lighter than the lanes below it, and the part of the range that
/// plays lighter again. Each pixel is filled once, in the colour the layers would have blended to, with the flat
/// pipeline ([`crate::ui::views::gpu::flat_fill`]): egui's fill shader is the main cost of a frame on a CPU rasteriser, and
/// these bands span the window's width.
fn fill_lanes(
    painter: &egui::Painter,
    lanes: Rect,
    ruler_bottom: f32,
    playing: Option<std::ops::RangeInclusive<f32>>,
    visuals: &egui::Visuals,
) {
    let base = visuals.extreme_bg_color;
    let played = over(base, visuals.faint_bg_color.gamma_multiply(1.6));
    // (rows, colour outside the playing range, colour inside it); the ruler is painted over the range's tint.
    let bands = [
        (lanes.top()..=ruler_bottom, over(base, visuals.faint_bg_color), over(played, visuals.faint_bg_color)),
        (ruler_bottom..=lanes.bottom(), base, played),
    ];
    let playing = playing.filter(|p| p.end() > p.start());
    for (ys, color, inside) in bands {
        if ys.end() <= ys.start() {
            continue;
        }
        let Some(p) = &playing else {
            crate::ui::views::gpu::flat_fill(painter, Rect::from_x_y_ranges(lanes.x_range(), ys), color);
            continue;
        };
        if *p.start() > lanes.left() {
            crate::ui::views::gpu::flat_fill(
                painter,
                Rect::from_x_y_ranges(lanes.left()..=*p.start(), ys.clone()),
                color,
            );
        }
        if *p.end() < lanes.right() {
            crate::ui::views::gpu::flat_fill(
                painter,
                Rect::from_x_y_ranges(*p.end()..=lanes.right(), ys.clone()),
                color,
            );
        }
        crate::ui::views::gpu::flat_fill(painter, Rect::from_x_y_ranges(p.clone(), ys), inside);
    }
}

/// `top` painted over `below` the way egui blends (premultiplied alpha, in the sRGB-encoded values).
fn over(below: Color32, top: Color32) -> Color32 {
    let keep = 255 - u16::from(top.a());
    let mix = |t: u8, b: u8| (u16::from(t) + (u16::from(b) * keep + 127) / 255).min(255) as u8;
    Color32::from_rgba_premultiplied(
        mix(top.r(), below.r()),
        mix(top.g(), below.g()),
        mix(top.b(), below.b()),
        mix(top.a(), below.a()),
    )
}

fn draw_ruler(
    painter: &egui::Painter,
    ruler: Rect,
    view: &TimelineView,
    fps: f32,
    show_frames: bool,
    visuals: &egui::Visuals,
) {
    let span = (view.end - view.start).max(1e-6);
    let px_per_sec = ruler.width() / span;
    let step = tick_step(px_per_sec, 70.0);
    let minor = step / 5.0;
    let text = visuals.text_color();
    let weak = visuals.weak_text_color();
    let line = visuals.widgets.noninteractive.bg_stroke.color;
    let first = (view.start / minor).floor() as i64;
    let last = (view.end / minor).ceil() as i64;
    if last - first < 5000 {
        for k in first..=last {
            let t = k as f32 * minor;
            let x = ruler.left() + (t - view.start) * px_per_sec;
            let major = k.rem_euclid(5) == 0;
            let h = if major { 12.0 } else { 5.0 };
            painter.vline(x, ruler.top()..=ruler.top() + h, Stroke::new(1.0, if major { text } else { line }));
            if major {
                let label = if step >= 1.0 { format!("{t:.0}s") } else { format!("{t:.*}s", decimals(step)) };
                painter.text(
                    Pos2::new(x + 3.0, ruler.top() + 1.0),
                    egui::Align2::LEFT_TOP,
                    label,
                    egui::FontId::proportional(11.0),
                    text,
                );
            }
        }
    }
    if show_frames && fps > 0.0 {
        // Frame ticks along the bottom edge, labelled at a readable frame step.
        let px_per_frame = px_per_sec / fps;
        let frame_steps = [1u32, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];
        let label_step = frame_steps.iter().copied().find(|s| *s as f32 * px_per_frame >= 40.0).unwrap_or(10000);
        let f0 = (view.start * fps).floor() as i64;
        let f1 = (view.end * fps).ceil() as i64;
        if f1 - f0 < 20000 {
            for f in f0..=f1 {
                let x = ruler.left() + (f as f32 / fps - view.start) * px_per_sec;
                let labelled = f.rem_euclid(i64::from(label_step)) == 0;
                if px_per_frame >= 4.0 || labelled {
                    let h = if labelled { 7.0 } else { 3.0 };
                    painter.vline(x, ruler.bottom() - h..=ruler.bottom(), Stroke::new(1.0, weak));
                }
                if labelled {
                    painter.text(
                        Pos2::new(x + 2.0, ruler.bottom() - 2.0),
                        egui::Align2::LEFT_BOTTOM,
                        format!("{f}"),
                        egui::FontId::monospace(9.5),
                        weak,
                    );
                }
            }
        }
    }
    painter.hline(ruler.x_range(), ruler.bottom(), Stroke::new(1.0, line));
}

/// 30 → "30", 29.97 → "29.97".
pub fn fmt_fps(fps: f32) -> String {
    let s = format!("{fps:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn decimals(step: f32) -> usize {
    if step >= 1.0 { 0 } else { (-step.log10()).ceil().max(0.0) as usize }
}

fn draw_keys(ui: &egui::Ui, painter: &egui::Painter, keys: Rect, view: &TimelineView, input: &TimelineInput) {
    let asset = &input.doc.asset;
    let player = input.player;
    let mid = keys.center().y;
    let hover = ui.input(|i| i.pointer.hover_pos());
    // Recording markers (on the clock itself) as flags.
    for rec in &asset.recordings {
        // Markers are on the recording's own time; with clips playing they are placed relative to now.
        let rec_now = player.recording_time(rec.duration);
        let now = player.now(asset, input.focus);
        let to_timeline = |t: f32| if player.track_count() == 0 { t } else { now + (t - rec_now) };
        // Tracked and pinch state of each hand as thin lanes along the bottom of the strip.
        if let Some(hands) = &rec.hands {
            let lanes = [
                (&hands[0].tracked, Color32::from_rgb(60, 150, 200)),
                (&hands[0].pinch, Color32::from_rgb(230, 200, 60)),
                (&hands[1].tracked, Color32::from_rgb(220, 120, 80)),
                (&hands[1].pinch, Color32::from_rgb(230, 200, 60)),
            ];
            for (row, (curve, color)) in lanes.into_iter().enumerate() {
                // Packed under the marker labels, which take the strip's top.
                let y = keys.bottom() - 2.0 - (3 - row) as f32 * 2.5;
                for (a, b) in crate::ui::views::recording_view::true_spans(curve, rec.duration) {
                    let (xa, xb) = (view.time_to_x(keys, to_timeline(a)), view.time_to_x(keys, to_timeline(b)));
                    let (xa, xb) = (xa.max(keys.left()), xb.min(keys.right()));
                    if xb > xa {
                        painter.hline(xa..=xb, y, Stroke::new(2.0, color));
                    }
                }
            }
        }
        for m in &rec.markers {
            let t = to_timeline(m.time);
            let x = view.time_to_x(keys, t);
            if !(keys.left()..=keys.right()).contains(&x) {
                continue;
            }
            let color = Color32::from_rgb(220, 90, 220);
            painter.vline(x, keys.y_range(), Stroke::new(1.5, color));
            let flag =
                vec![Pos2::new(x, keys.top()), Pos2::new(x + 8.0, keys.top() + 4.0), Pos2::new(x, keys.top() + 8.0)];
            painter.add(egui::Shape::convex_polygon(flag, color, Stroke::NONE));
            painter.text(
                Pos2::new(x + 10.0, keys.top() + 1.0),
                egui::Align2::LEFT_TOP,
                &m.name,
                egui::FontId::proportional(10.5),
                color,
            );
        }
    }
    let Some(focus) = (0..player.track_count()).nth(input.focus.min(player.track_count().saturating_sub(1))) else {
        return;
    };
    let Some(clip) = player.track(focus).and_then(|t| t.clip).and_then(|c| asset.clips.get(c)) else { return };
    // Key ticks of the selected bone: translation (red), rotation (green), scale (blue) in three rows. The ruler
    // is the focus clip's own time, so keys sit at their times.
    if let Some(bone) = input.selected.and_then(|b| asset.skeleton.names.get(b))
        && let Some(bt) = clip.track_for(bone)
    {
        let rows: [(&[f32], Color32, f32); 3] = [
            (&bt.translation.times, Color32::from_rgb(230, 90, 80), -6.0),
            (&bt.rotation.times, Color32::from_rgb(90, 200, 90), 0.0),
            (&bt.scale.times, Color32::from_rgb(90, 140, 240), 6.0),
        ];
        for (times, color, dy) in rows {
            // Too many ticks to tell apart: draw at most one per pixel.
            let mut last_x = f32::NEG_INFINITY;
            for &k in times {
                let x = view.time_to_x(keys, k);
                if (x - last_x).abs() < 1.0 || !(keys.left()..=keys.right()).contains(&x) {
                    continue;
                }
                last_x = x;
                painter.vline(x, (mid + dy - 2.5)..=(mid + dy + 2.5), Stroke::new(1.5, color));
            }
        }
    }
    // Callback keys of the focus clip as diamonds, with their data on hover.
    for key in &clip.callback_keys {
        let x = view.time_to_x(keys, key.time);
        if !(keys.left()..=keys.right()).contains(&x) {
            continue;
        }
        let c = Pos2::new(x, mid);
        let d = 5.0;
        let shape = vec![c + Vec2::new(0.0, -d), c + Vec2::new(d, 0.0), c + Vec2::new(0.0, d), c + Vec2::new(-d, 0.0)];
        painter.add(egui::Shape::convex_polygon(
            shape,
            Color32::from_rgb(250, 200, 40),
            Stroke::new(1.0, Color32::BLACK),
        ));
        if hover.is_some_and(|h| h.distance(c) < 8.0) {
            let text = format!("callback @ {:.3} s: {}", key.time, key.data);
            let galley =
                painter.layout_no_wrap(text, egui::FontId::proportional(12.0), ui.visuals().strong_text_color());
            let at = c + Vec2::new(8.0, -galley.size().y - 6.0);
            painter.rect_filled(Rect::from_min_size(at, galley.size()).expand(3.0), 3.0, ui.visuals().window_fill());
            painter.galley(at, galley, Color32::WHITE);
        }
    }
}

fn draw_track_lane(painter: &egui::Painter, lane: Rect, view: &TimelineView, input: &TimelineInput, i: usize) {
    let asset = &input.doc.asset;
    let player = input.player;
    let Some(track) = player.track(i) else { return };
    let color = track_color(i);
    let alpha = if player.contributes(i) { 1.0 } else { 0.35 };
    let bar_y = (lane.top() + 6.0)..=(lane.top() + 24.0);
    // The track's clip on the same seconds scale, with its own playhead.
    if let Some(clip) = track.clip.and_then(|c| asset.clips.get(c)) {
        let x0 = view.time_to_x(lane, 0.0).max(lane.left());
        let x1 = view.time_to_x(lane, clip.duration).min(lane.right());
        if x1 > x0 {
            let bar = Rect::from_x_y_ranges(x0..=x1, bar_y.clone());
            painter.rect_filled(bar, 3.0, color.gamma_multiply(0.45 * alpha));
            let speed =
                if (track.speed - 1.0).abs() > 1e-3 { format!("  ×{:.2}", track.speed) } else { String::new() };
            painter.text(
                bar.left_center() + Vec2::new(4.0, 0.0),
                egui::Align2::LEFT_CENTER,
                format!("{}{speed}", clip.name),
                egui::FontId::proportional(11.5),
                painter.ctx().global_style().visuals.strong_text_color().gamma_multiply(alpha),
            );
        }
        let x = view.time_to_x(lane, track.local_time);
        if (lane.left()..=lane.right()).contains(&x) {
            painter.vline(x, bar_y.clone(), Stroke::new(2.0, Color32::WHITE.gamma_multiply(0.8 * alpha)));
        }
    }
    // Sequencer events as bars, placed on the timeline relative to now (their times are on the clock).
    let top = lane.top() + 28.0;
    let bottom = lane.bottom() - 6.0;
    let y = |w: f32| bottom - (bottom - top) * w.clamp(0.0, 1.0);
    for e in player.events_of(i) {
        let ev = &e.event;
        let x0 = view.time_to_x(lane, player.clock_to_timeline(asset, input.focus, ev.start));
        let x1 = view.time_to_x(lane, player.clock_to_timeline(asset, input.focus, ev.end())).max(x0 + 2.0);
        if x1 < lane.left() || x0 > lane.right() {
            continue;
        }
        let (x0c, x1c) = (x0.max(lane.left()), x1.min(lane.right()));
        let label = match ev.kind {
            EventKind::Weight(w) => {
                let from = ev.from.map_or(track.weight, |f| f as f32);
                let pts = [Pos2::new(x0, bottom), Pos2::new(x0, y(from)), Pos2::new(x1, y(w)), Pos2::new(x1, bottom)];
                let clipped: Vec<Pos2> = pts.iter().map(|p| Pos2::new(p.x.clamp(x0c, x1c), p.y)).collect();
                painter.add(egui::Shape::convex_polygon(
                    clipped,
                    color.gamma_multiply(0.55 * alpha),
                    Stroke::new(1.0, color),
                ));
                format!("weight → {w:.2}")
            }
            EventKind::Speed(v) => {
                painter.rect_filled(Rect::from_x_y_ranges(x0c..=x1c, top..=bottom), 2.0, color.gamma_multiply(0.35));
                format!("speed → {v:.2}")
            }
            EventKind::Position(p) => {
                painter.rect_filled(Rect::from_x_y_ranges(x0c..=x1c, top..=bottom), 2.0, color.gamma_multiply(0.35));
                format!("position → {p:.2} s")
            }
            EventKind::Enable(on) => {
                painter.vline(x0.clamp(lane.left(), lane.right()), top..=bottom, Stroke::new(2.0, color));
                (if on { "enable" } else { "disable" }).to_owned()
            }
        };
        // The label sits after the bar; inside it when the bar runs off the right edge; before an instant
        // event there.
        let (label_x, align) = if x1c + 120.0 < lane.right() {
            (x1c + 4.0, egui::Align2::LEFT_TOP)
        } else if x1c - x0c > 120.0 {
            (x0c + 4.0, egui::Align2::LEFT_TOP)
        } else {
            (x0c - 4.0, egui::Align2::RIGHT_TOP)
        };
        painter.text(
            Pos2::new(label_x, top + 1.0),
            align,
            label,
            egui::FontId::proportional(10.5),
            painter.ctx().global_style().visuals.text_color(),
        );
    }
}

/// What the track header says when there are no clips to mix: an animation file to open for a model; for an
/// input recording (which plays on the ruler without clips) where its channels are.
pub fn no_clips_hint(asset: &crate::scene::Asset) -> Option<&'static str> {
    if !asset.clips.is_empty() {
        return None;
    }
    if !asset.recordings.is_empty() && asset.skeleton.is_empty() && asset.meshes.is_empty() {
        return Some("a recording: see the Recording tab");
    }
    Some("no clips: open or drop an animation file")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recording_is_not_asked_for_an_animation_file() {
        use crate::scene::samples::Sample;
        let recording = Sample::DemoRecording.asset();
        assert!(recording.clips.is_empty() && !recording.recordings.is_empty());
        let hint = no_clips_hint(&recording).unwrap();
        assert!(!hint.contains("open or drop") && hint.contains("Recording tab"), "{hint}");
        let mut model = Sample::Demo.asset();
        assert_eq!(no_clips_hint(&model), None);
        model.clips.clear();
        assert_eq!(no_clips_hint(&model), Some("no clips: open or drop an animation file"));
    }

    #[test]
    fn colours_blend_over_each_other_as_egui_paints_them() {
        let base = Color32::from_rgb(10, 10, 10);
        // An additive colour (alpha 0) adds; an opaque one replaces; half-transparent black halves.
        assert_eq!(over(base, Color32::from_rgba_premultiplied(8, 8, 8, 0)), Color32::from_rgb(18, 18, 18));
        assert_eq!(over(base, Color32::from_rgb(200, 0, 1)), Color32::from_rgb(200, 0, 1));
        assert_eq!(over(Color32::from_rgb(200, 100, 0), Color32::from_black_alpha(128)), Color32::from_rgb(100, 50, 0));
    }

    #[test]
    fn frame_rates_print_without_trailing_zeros() {
        assert_eq!(fmt_fps(30.0), "30");
        assert_eq!(fmt_fps(29.97), "29.97");
        assert_eq!(fmt_fps(12.5), "12.5");
    }

    #[test]
    fn tick_steps_are_readable() {
        assert_eq!(tick_step(100.0, 70.0), 1.0);
        assert_eq!(tick_step(1000.0, 70.0), 0.1);
        assert_eq!(tick_step(10.0, 70.0), 10.0);
    }

    #[test]
    fn zoom_keeps_the_time_under_the_pointer() {
        let mut v = TimelineView { start: 0.0, end: 10.0, fit: true, cross_fade_clip: 0 };
        v.zoom(0.5, 5.0);
        assert!((v.start - 2.5).abs() < 1e-5 && (v.end - 7.5).abs() < 1e-5);
        assert!(!v.fit);
        v.pan(1.0);
        assert!((v.start - 3.5).abs() < 1e-5);
    }
}
