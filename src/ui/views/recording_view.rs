//! The Recording tab: a plot of any one channel of an MRTK input recording (a hand joint's position or
//! rotation component, the head camera, the eye-gaze ray) over the whole recording, with its keys as dots and
//! the playhead following playback; clicking in the plot seeks there. Under it, each hand's tracked and pinch
//! state as bands. The curve is sampled once per channel choice and cached, not every frame.

use eframe::egui;
use egui_plot::{Line, Plot, PlotPoint, PlotPoints, Points, VLine};

use crate::anim::unity_curve;
use crate::scene::{BoolCurve, FloatCurve, HAND_JOINT_COUNT, HAND_JOINT_NAMES, Hand, Recording, joint_index};

use crate::ui::commands::command::Command;
use crate::ui::state::document::Document;

/// Which curve set of a recording a channel comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Joint(Hand, usize),
    Camera,
    GazeOrigin,
    GazeDirection,
}

impl Source {
    fn label(self) -> String {
        match self {
            Source::Joint(hand, j) => format!("{} {}", hand.name(), HAND_JOINT_NAMES.get(j).unwrap_or(&"?")),
            Source::Camera => "Head camera".to_owned(),
            Source::GazeOrigin => "Gaze origin".to_owned(),
            Source::GazeDirection => "Gaze direction".to_owned(),
        }
    }

    /// Names of the components, in file order.
    fn components(self) -> &'static [&'static str] {
        match self {
            Source::Joint(..) | Source::Camera => {
                &["position X", "position Y", "position Z", "rot X", "rot Y", "rot Z", "rot W"]
            }
            Source::GazeOrigin | Source::GazeDirection => &["X", "Y", "Z"],
        }
    }
}

/// The curve behind a channel, if the recording has it.
pub fn channel_curve(rec: &Recording, source: Source, component: usize) -> Option<&FloatCurve> {
    match source {
        Source::Joint(hand, j) => {
            let joint = rec.hand(hand)?.joints.get(j)?;
            joint.curves().nth(component)
        }
        Source::Camera => rec.camera.as_ref()?.curves().nth(component),
        Source::GazeOrigin => rec.gaze.as_ref()?.origin.get(component),
        Source::GazeDirection => rec.gaze.as_ref()?.direction.get(component),
    }
}

/// Samples a curve evenly over `[0, duration]` (`samples` + 1 points) as plot points.
pub fn sample_curve(curve: &FloatCurve, duration: f32, samples: usize) -> Vec<[f64; 2]> {
    let n = samples.max(1);
    (0..=n)
        .map(|i| {
            let t = duration * i as f32 / n as f32;
            [f64::from(t), f64::from(unity_curve::evaluate(curve, t))]
        })
        .collect()
}

/// Spans `[start, end)` within `[0, duration]` where a step curve reads true (MRTK: value > 0.5; before the
/// first key the first key's value holds).
pub fn true_spans(curve: &BoolCurve, duration: f32) -> Vec<(f32, f32)> {
    let mut out = Vec::new();
    let mut open: Option<f32> = None;
    for (i, k) in curve.keys.iter().enumerate() {
        let on = k.value > 0.5;
        let at = if i == 0 { 0.0 } else { k.time.clamp(0.0, duration) };
        match (on, open) {
            (true, None) => open = Some(at),
            (false, Some(s)) => {
                if at > s {
                    out.push((s, at));
                }
                open = None;
            }
            _ => {}
        }
    }
    if let Some(s) = open
        && duration > s
    {
        out.push((s, duration));
    }
    out
}

struct Sampled {
    key: (u64, usize, Source, usize),
    /// Kept as plot points so each frame's plot borrows them instead of copying.
    line: Vec<PlotPoint>,
    keys: Vec<PlotPoint>,
}

/// The tab's state: the chosen recording and channel, and the sampled curve.
pub struct RecordingView {
    pub recording: usize,
    pub source: Source,
    pub component: usize,
    sampled: Option<Sampled>,
}

impl Default for RecordingView {
    fn default() -> Self {
        // Index tip X: the channel that shows a pinch most plainly.
        Self {
            recording: 0,
            source: Source::Joint(Hand::Right, joint_index("IndexTip").unwrap_or(1)),
            component: 0,
            sampled: None,
        }
    }
}

/// Points the plot draws per curve: enough for a smooth line at panel width, cheap to sample.
const SAMPLES: usize = 600;

pub fn show(ui: &mut egui::Ui, view: &mut RecordingView, doc: &Document, now: f32, cmds: &mut Vec<Command>) {
    let recs = &doc.asset.recordings;
    if recs.is_empty() {
        ui.weak("No input recording is open. Open an MRTK input animation (.bin) to plot its channels here.");
        return;
    }
    view.recording = view.recording.min(recs.len() - 1);
    ui.horizontal_wrapped(|ui| {
        if recs.len() > 1 {
            egui::ComboBox::from_id_salt("recording").selected_text(&recs[view.recording].name).show_ui(ui, |ui| {
                for (i, r) in recs.iter().enumerate() {
                    ui.selectable_value(&mut view.recording, i, &r.name);
                }
            });
        }
        egui::ComboBox::from_id_salt("channel source").selected_text(view.source.label()).height(400.0).show_ui(
            ui,
            |ui| {
                for hand in Hand::BOTH {
                    for j in 1..HAND_JOINT_COUNT {
                        let s = Source::Joint(hand, j);
                        ui.selectable_value(&mut view.source, s, s.label());
                    }
                }
                for s in [Source::Camera, Source::GazeOrigin, Source::GazeDirection] {
                    ui.selectable_value(&mut view.source, s, s.label());
                }
            },
        );
        let names = view.source.components();
        view.component = view.component.min(names.len() - 1);
        egui::ComboBox::from_id_salt("channel component").selected_text(names[view.component]).show_ui(ui, |ui| {
            for (i, n) in names.iter().enumerate() {
                ui.selectable_value(&mut view.component, i, *n);
            }
        });
    });
    let rec = &recs[view.recording];
    let key = (doc.generation, view.recording, view.source, view.component);
    if view.sampled.as_ref().is_none_or(|s| s.key != key) {
        let curve = channel_curve(rec, view.source, view.component);
        view.sampled = Some(Sampled {
            key,
            line: curve
                .map(|c| sample_curve(c, rec.duration, SAMPLES).into_iter().map(PlotPoint::from).collect())
                .unwrap_or_default(),
            keys: curve.map(|c| c.keys.iter().map(|k| PlotPoint::new(k.time, k.value)).collect()).unwrap_or_default(),
        });
    }
    let Some(sampled) = &view.sampled else { return };
    if sampled.keys.is_empty() {
        ui.weak(format!("{} has no keys in this recording.", view.source.label()));
    }
    let title = format!("{} {}", view.source.label(), view.source.components()[view.component]);
    let accent = ui.visuals().selection.bg_fill;
    let plot = Plot::new("recording channel")
        .height((ui.available_height() - 90.0).clamp(140.0, 420.0))
        .include_x(0.0)
        .include_x(f64::from(rec.duration))
        .x_axis_label("seconds")
        .allow_scroll(false)
        .allow_double_click_reset(true)
        .show(ui, |plot| {
            plot.line(Line::new(title.clone(), PlotPoints::from(&sampled.line[..])).color(accent).width(1.5));
            if sampled.keys.len() <= 4000 {
                plot.points(Points::new("keys", PlotPoints::from(&sampled.keys[..])).radius(1.8));
            }
            plot.vline(VLine::new("now", f64::from(now)).color(egui::Color32::from_rgb(255, 150, 30)).width(1.5));
            plot.pointer_coordinate()
        });
    if plot.response.clicked()
        && let Some(p) = plot.inner
    {
        cmds.push(Command::Seek(p.x as f32));
    }
    ui.label(egui::RichText::new(title).strong());
    if let Some(curve) = channel_curve(rec, view.source, view.component) {
        ui.weak(format!("{} keys · value now {:.4}", curve.keys.len(), unity_curve::evaluate(curve, now)));
    }
    state_lanes(ui, rec, now);
}

/// Tracked and pinch bands of both hands over the recording, with the playhead.
fn state_lanes(ui: &mut egui::Ui, rec: &Recording, now: f32) {
    let Some(hands) = &rec.hands else { return };
    let width = ui.available_width();
    let lane = 12.0;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, lane * 4.0 + 6.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let duration = rec.duration.max(1e-6);
    let x = |t: f32| rect.left() + 90.0 + (rect.width() - 90.0) * (t / duration).clamp(0.0, 1.0);
    let text = ui.visuals().text_color();
    let mut row = 0;
    for hand in Hand::BOTH {
        let curves = &hands[hand.index()];
        for (what, curve, color) in [
            ("tracked", &curves.tracked, egui::Color32::from_rgb(80, 170, 110)),
            ("pinch", &curves.pinch, egui::Color32::from_rgb(230, 200, 60)),
        ] {
            let top = rect.top() + row as f32 * (lane + 1.5);
            painter.text(
                egui::pos2(rect.left(), top + lane * 0.5),
                egui::Align2::LEFT_CENTER,
                format!("{} {what}", hand.name()),
                egui::FontId::proportional(10.5),
                text,
            );
            let band = egui::Rect::from_min_max(egui::pos2(x(0.0), top), egui::pos2(x(duration), top + lane));
            painter.rect_filled(band, 2.0, ui.visuals().extreme_bg_color);
            for (a, b) in true_spans(curve, rec.duration) {
                painter.rect_filled(
                    egui::Rect::from_min_max(egui::pos2(x(a), top), egui::pos2(x(b), top + lane)),
                    2.0,
                    color,
                );
            }
            row += 1;
        }
    }
    painter.vline(x(now), rect.y_range(), egui::Stroke::new(1.5, egui::Color32::from_rgb(255, 150, 30)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{BoolKey, Keyframe};

    #[test]
    fn pinch_spans_follow_the_step_keys() {
        let curve = BoolCurve::new(vec![
            BoolKey { time: 0.0, value: 0.0 },
            BoolKey { time: 1.0, value: 1.0 },
            BoolKey { time: 2.5, value: 0.0 },
            BoolKey { time: 3.0, value: 1.0 },
        ]);
        assert_eq!(true_spans(&curve, 4.0), vec![(1.0, 2.5), (3.0, 4.0)]);
        assert!(true_spans(&BoolCurve::new(Vec::new()), 4.0).is_empty());
        // True from the start when the first key (at any time) is true.
        let from_start = BoolCurve::new(vec![BoolKey { time: 0.5, value: 1.0 }, BoolKey { time: 1.5, value: 0.0 }]);
        assert_eq!(true_spans(&from_start, 4.0), vec![(0.0, 1.5)]);
    }

    #[test]
    fn sampled_curve_spans_the_recording_and_passes_through_keys() {
        let curve = FloatCurve::new(vec![Keyframe::linear(0.0, 1.0), Keyframe::linear(2.0, 3.0)]);
        let pts = sample_curve(&curve, 2.0, 4);
        assert_eq!(pts.len(), 5);
        assert_eq!(pts[0], [0.0, 1.0]);
        assert!((pts[2][1] - 2.0).abs() < 1e-6, "{pts:?}");
        assert_eq!(pts[4], [2.0, 3.0]);
    }

    #[test]
    fn channels_of_the_demo_recording_resolve() {
        let rec = crate::scene::samples::demo_recording::demo_recording();
        let tip = joint_index("IndexTip").unwrap();
        let c = channel_curve(&rec, Source::Joint(Hand::Right, tip), 0).expect("index tip X");
        assert!(!c.keys.is_empty());
        assert!(channel_curve(&rec, Source::Joint(Hand::Right, tip), 7).is_none());
    }
}
