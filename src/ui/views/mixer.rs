//! The track mixer: one header per track (focus, enable, solo, mute, clip picker, weight, speed, position,
//! additive, mask, remove), the cross-fade action, and the live log of fired callbacks. The headers sit at the
//! left of the timeline so each track's controls line up with its lane of sequencer events.
//! Reads the player; every change is a [`Command`].

use eframe::egui;
use std::collections::VecDeque;

use egui::{Color32, RichText};

use crate::anim::controller::BlendMode;
use crate::ui::commands::command::{Command, TrackEdit};
use crate::ui::state::document::Document;
use crate::ui::state::player::{Fired, Player};

/// Height of one track row (header and lane).
pub const TRACK_ROW_HEIGHT: f32 = 54.0;

/// Colour that marks a track in the header and its lane.
pub fn track_color(i: usize) -> Color32 {
    const COLORS: [Color32; 6] = [
        Color32::from_rgb(90, 160, 240),
        Color32::from_rgb(240, 150, 60),
        Color32::from_rgb(110, 200, 110),
        Color32::from_rgb(210, 110, 200),
        Color32::from_rgb(230, 210, 80),
        Color32::from_rgb(90, 210, 200),
    ];
    COLORS[i % COLORS.len()]
}

/// The controls of track `i`, laid out in two lines.
pub fn track_header(
    ui: &mut egui::Ui,
    doc: &Document,
    player: &Player,
    i: usize,
    focus: bool,
    selected_bone: Option<usize>,
    cmds: &mut Vec<Command>,
) {
    let Some(track) = player.track(i) else { return };
    let asset = &doc.asset;
    let edit = |cmds: &mut Vec<Command>, e: TrackEdit| cmds.push(Command::EditTrack(i, e));
    let contributes = player.contributes(i);
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        let marker = RichText::new(format!("●{}", i + 1)).color(track_color(i)).strong();
        if ui
            .selectable_label(focus, marker)
            .on_hover_text("Focus: the timeline shows this track's clip, keys and frames")
            .clicked()
        {
            cmds.push(Command::FocusTrack(i));
        }
        let mut enabled = track.enabled;
        if ui.checkbox(&mut enabled, "").on_hover_text("Enable").changed() {
            edit(cmds, TrackEdit::Enabled(enabled));
        }
        let mut solo = track.solo;
        if ui.toggle_value(&mut solo, "S").on_hover_text("Solo: only soloed tracks are heard").changed() {
            edit(cmds, TrackEdit::Solo(solo));
        }
        let mut mute = track.mute;
        if ui.toggle_value(&mut mute, "M").on_hover_text("Mute").changed() {
            edit(cmds, TrackEdit::Mute(mute));
        }
        let clip_name = track.clip.and_then(|c| asset.clips.get(c)).map_or("(no clip)", |c| c.name.as_str());
        let mut clip = track.clip.unwrap_or(usize::MAX);
        // A long clip name (Gothic's `t_1hAttackMove_2_1hAttackRunL`) must not push the weight and × off the row:
        // the box shows a shortened name, the whole one on hover and in the list.
        egui::ComboBox::from_id_salt(("track clip", i))
            .selected_text(shortened(clip_name, CLIP_NAME_CHARS))
            .width(128.0)
            .show_ui(ui, |ui| {
                for (c, cl) in asset.clips.iter().enumerate() {
                    ui.selectable_value(&mut clip, c, format!("{}  ({:.2} s)", cl.name, cl.duration));
                }
            })
            .response
            .on_hover_text(clip_name);
        if Some(clip) != track.clip && clip < asset.clips.len() {
            edit(cmds, TrackEdit::Clip(clip));
        }
        let mut weight = track.weight;
        let slider = egui::Slider::new(&mut weight, 0.0..=1.0).show_value(false);
        let r = ui.add_sized([70.0, 18.0], slider).on_hover_text("Weight in the mix (sequencer ramps move it too)");
        if r.changed() {
            edit(cmds, TrackEdit::Weight(weight));
        }
        let label = RichText::new(format!("{:.2}", track.weight)).monospace();
        ui.label(if contributes && track.weight > 0.0 { label } else { label.weak() });
        if ui.small_button("✖").on_hover_text("Remove this track").clicked() {
            cmds.push(Command::RemoveTrack(i));
        }
    });
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        ui.add_space(24.0);
        ui.label("speed");
        let mut speed = track.speed;
        if ui
            .add(egui::DragValue::new(&mut speed).speed(0.01).range(-10.0..=10.0).max_decimals(2))
            .on_hover_text("Track speed; negative plays the clip backwards")
            .changed()
        {
            edit(cmds, TrackEdit::Speed(speed));
        }
        ui.label("pos");
        let mut pos = track.local_time;
        let duration = track.clip.and_then(|c| asset.clips.get(c)).map_or(0.0, |c| c.duration);
        let r = ui
            .add(egui::DragValue::new(&mut pos).speed(0.01).range(0.0..=duration.max(0.0)).suffix(" s").max_decimals(3))
            .on_hover_text("Where this track is in its clip; dragging moves only this track");
        if r.changed() {
            edit(cmds, TrackEdit::Position(pos));
        }
        let mut mode = track.mode;
        egui::ComboBox::from_id_salt(("track mode", i)).selected_text(mode.label()).width(70.0).show_ui(ui, |ui| {
            for m in BlendMode::ALL {
                ui.selectable_value(&mut mode, m, m.label());
            }
        });
        if mode != track.mode {
            edit(cmds, TrackEdit::Mode(mode));
        }
        let mask_text = match track.mask_root {
            None => "all bones".to_owned(),
            Some(b) => format!("below {}", asset.skeleton.names.get(b).map_or("?", |n| n.as_str())),
        };
        let mut mask = track.mask_root;
        egui::ComboBox::from_id_salt(("track mask", i)).selected_text(mask_text).width(90.0).show_ui(ui, |ui| {
            ui.selectable_value(&mut mask, None, "All bones");
            match selected_bone.and_then(|b| asset.skeleton.names.get(b).map(|n| (b, n))) {
                Some((b, name)) => {
                    ui.selectable_value(&mut mask, Some(b), format!("Selected bone and below: {name}"));
                }
                None => {
                    ui.weak("Select a bone to mask to its subtree");
                }
            }
        });
        if mask != track.mask_root {
            edit(cmds, TrackEdit::Mask(mask));
        }
        if player.events_of(i).next().is_some()
            && ui.small_button("⟲").on_hover_text("Cancel this track's sequencer events").clicked()
        {
            edit(cmds, TrackEdit::ClearEvents);
        }
    });
}

/// "Cross-fade to `clip` over `N` s, Start": the clip choice is a form field kept by the caller.
pub fn cross_fade_row(ui: &mut egui::Ui, doc: &Document, seconds: f32, clip: &mut usize, cmds: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        let clips = &doc.asset.clips;
        ui.add_enabled_ui(!clips.is_empty(), |ui| {
            ui.label("Cross-fade to");
            *clip = (*clip).min(clips.len().saturating_sub(1));
            let name = clips.get(*clip).map_or("", |c| c.name.as_str());
            egui::ComboBox::from_id_salt("cross-fade clip").selected_text(name).width(110.0).show_ui(ui, |ui| {
                for (c, cl) in clips.iter().enumerate() {
                    ui.selectable_value(clip, c, &cl.name);
                }
            });
            ui.label("over");
            let mut s = seconds;
            if ui.add(egui::DragValue::new(&mut s).speed(0.02).range(0.0..=30.0).suffix(" s").max_decimals(2)).changed()
            {
                cmds.push(Command::SetCrossFadeSeconds(s));
            }
            if ui.button("Start").on_hover_text("Fade this clip in and every other track out, from now").clicked() {
                cmds.push(Command::CrossFade { clip: *clip, seconds });
            }
        });
        ani_blends(ui, doc, cmds);
    });
}

/// A Gothic model script's `aniBlend` entries (names that play no frames of their own but blend into another
/// animation): picking one cross-fades to the animation it names over its blend-in time, as the game does.
fn ani_blends(ui: &mut egui::Ui, doc: &Document, cmds: &mut Vec<Command>) {
    let Some(script) = doc.asset.model_script.as_deref() else { return };
    let blends: Vec<(&str, usize, f32)> = script
        .ani_blends
        .iter()
        .filter_map(|b| {
            let clip = doc.asset.clips.iter().position(|c| c.name.eq_ignore_ascii_case(&b.next))?;
            Some((b.name.as_str(), clip, b.blend_in.max(0.0)))
        })
        .collect();
    if blends.is_empty() {
        return;
    }
    ui.separator();
    ui.menu_button("aniBlend ▾", |ui| {
        for (name, clip, seconds) in blends {
            let target = doc.asset.clips.get(clip).map_or("", |c| c.name.as_str());
            if ui.button(format!("{name} → {target} ({seconds:.2} s)")).clicked() {
                cmds.push(Command::CrossFade { clip, seconds });
                ui.close();
            }
        }
    })
    .response
    .on_hover_text("The script's aniBlend entries: cross-fade to the animation each names, over its blend-in");
}

/// The live log of callbacks, newest first.
pub fn callback_log(ui: &mut egui::Ui, log: &VecDeque<Fired>, total: u64, cmds: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        ui.label(format!("{total} callback(s) fired"));
        if ui.small_button("Clear").clicked() {
            cmds.push(Command::ClearCallbackLog);
        }
    });
    ui.separator();
    if log.is_empty() {
        ui.weak("Callback keys fire here while the animation plays (not while scrubbing).");
        return;
    }
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        egui::Grid::new("callback log").striped(true).num_columns(4).show(ui, |ui| {
            ui.strong("clock");
            ui.strong("track");
            ui.strong("clip @ key");
            ui.strong("event");
            ui.end_row();
            for f in log.iter().rev() {
                ui.monospace(format!("{:8.3}{}", f.clock, if f.backwards { " ◀" } else { "" }));
                ui.label(RichText::new(format!("●{}", f.track + 1)).color(track_color(f.track)));
                let at = match f.frame {
                    Some(frame) => format!("{} @ frame {frame} ({:.3} s)", f.clip, f.key_time),
                    None => format!("{} @ {:.3}", f.clip, f.key_time),
                };
                ui.label(at);
                if f.kind.is_empty() {
                    ui.label(&f.data);
                } else {
                    ui.label(format!("{}: {}", f.kind, f.data));
                }
                ui.end_row();
            }
        });
    });
}

/// Characters of a clip name the track row shows.
const CLIP_NAME_CHARS: usize = 18;

/// `name` cut to `max` characters with an ellipsis in the middle (both ends of a clip name tell clips apart:
/// `t_Walk_2_WalkL` vs `t_Run_2_RunL`).
fn shortened(name: &str, max: usize) -> String {
    let chars: Vec<char> = name.chars().collect();
    if chars.len() <= max {
        return name.to_owned();
    }
    let head = (max - 1) / 2;
    let tail = max - 1 - head;
    let mut out: String = chars[..head].iter().collect();
    out.push('…');
    out.extend(&chars[chars.len() - tail..]);
    out
}

#[cfg(test)]
mod shortened_tests {
    use super::shortened;

    #[test]
    fn long_clip_names_keep_both_ends() {
        assert_eq!(shortened("idle1", 18), "idle1");
        let s = shortened("t_1hAttackMove_2_1hAttackRunL", 18);
        assert_eq!(s.chars().count(), 18);
        assert_eq!(s, "t_1hAtta…ttackRunL");
    }
}
