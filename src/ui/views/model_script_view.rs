//! The Files tab's model-script section: what a QC, MDS or MMS says about the character, as `info` prints it —
//! the files it includes, each sequence with its frame rate, loop flag, activity, frame range, next animation
//! and events (with their options), and the hitboxes and attachments with their bones.
//!
//! Reads the asset's `ModelScript`; emits nothing. Must not touch: GPU, files.

use eframe::egui;

use crate::scene::{ModelScript, ScriptEvent, ScriptSequence, SequenceKind};

/// The model-script section; nothing for a character opened from single files.
pub fn show(ui: &mut egui::Ui, script: Option<&ModelScript>) {
    let Some(script) = script else { return };
    ui.separator();
    let name = if script.name.is_empty() { String::new() } else { format!(" \"{}\"", script.name) };
    ui.strong(format!("Model script: {}{name}", script.language.name()));
    if script.files.len() > 1 {
        egui::CollapsingHeader::new(format!("Included files ({})", script.files.len() - 1))
            .id_salt("script files")
            .show(ui, |ui| {
                for f in script.files.iter().skip(1) {
                    ui.label(f.display().to_string());
                }
            });
    }
    egui::CollapsingHeader::new(format!("Sequences ({})", script.sequences.len()))
        .id_salt("script sequences")
        .default_open(script.sequences.len() <= 40)
        .show(ui, |ui| {
            for (i, s) in script.sequences.iter().enumerate() {
                sequence(ui, i, s);
            }
        });
    if !script.hitboxes.is_empty() {
        egui::CollapsingHeader::new(format!("Hitboxes ({})", script.hitboxes.len())).id_salt("script hitboxes").show(
            ui,
            |ui| {
                for h in &script.hitboxes {
                    ui.label(format!(
                        "group {} · {} · ({:.1}, {:.1}, {:.1}) – ({:.1}, {:.1}, {:.1})",
                        h.group, h.bone, h.min.x, h.min.y, h.min.z, h.max.x, h.max.y, h.max.z
                    ));
                }
            },
        );
    }
    if !script.attachments.is_empty() {
        egui::CollapsingHeader::new(format!("Attachments ({})", script.attachments.len()))
            .id_salt("script attachments")
            .show(ui, |ui| {
                for a in &script.attachments {
                    ui.label(format!(
                        "{} · {} · offset ({:.2}, {:.2}, {:.2})",
                        a.name, a.bone, a.offset.x, a.offset.y, a.offset.z
                    ));
                }
            });
    }
}

/// One sequence's line (name, rate, loop, activity, frames, next), its events below when it has any. The line
/// is a label (it wraps in a narrow panel); the events fold under a short header.
fn sequence(ui: &mut egui::Ui, index: usize, s: &ScriptSequence) {
    ui.label(sequence_summary(s));
    if s.events.is_empty() {
        return;
    }
    ui.indent(("script sequence", index), |ui| {
        egui::CollapsingHeader::new(format!("{} event(s)", s.events.len())).id_salt(("script events", index)).show(
            ui,
            |ui| {
                for e in &s.events {
                    ui.weak(event_line(e));
                }
            },
        );
    });
}

/// `run · 24 fps · loop · ACT_RUN 1 · frames 0–20 · next s_Run`.
pub fn sequence_summary(s: &ScriptSequence) -> String {
    let mut parts = vec![s.name.clone(), format!("{} fps", trim_number(s.fps))];
    if let SequenceKind::Alias { of } = &s.kind {
        parts.push(format!("alias of {of}{}", if s.reversed { ", reversed" } else { "" }));
    } else if s.reversed {
        parts.push("reversed".to_owned());
    }
    parts.push(if s.looping { "loop".to_owned() } else { "once".to_owned() });
    if let Some(a) = &s.activity {
        parts.push(format!("{} {}", a.name, a.weight));
    }
    if let (Some(a), Some(b)) = (s.first_frame, s.last_frame) {
        parts.push(format!("frames {a}–{b}"));
    }
    if !s.motion.is_empty() {
        parts.push(s.motion.join(" "));
    }
    if let Some(next) = s.next.as_deref().filter(|n| !n.is_empty() && !n.eq_ignore_ascii_case(&s.name)) {
        parts.push(format!("next {next}"));
    }
    // A compiled animation that stood in for a source not found (`io::script::compiled`).
    let compiled = s
        .paths
        .first()
        .cloned()
        .flatten()
        .filter(|p| p.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("man")));
    if let Some(file) = compiled.as_deref().and_then(std::path::Path::file_name) {
        parts.push(format!("compiled {}", file.to_string_lossy()));
    }
    match (&s.problem, s.loaded) {
        (Some(problem), _) => parts.push(format!("⚠ {problem}")),
        (None, false) => parts.push("not loaded".to_owned()),
        (None, true) => {}
    }
    parts.join(" · ")
}

/// `frame 12: eventTag DEF_WINDOW 12 19` — the kind (with its readable name), the text and every option.
pub fn event_line(e: &ScriptEvent) -> String {
    let kind = match &e.kind_name {
        Some(name) => format!("{} ({name})", e.kind),
        None => e.kind.clone(),
    };
    let data = e.data_with_options();
    if data.is_empty() { format!("frame {}: {kind}", e.frame) } else { format!("frame {}: {kind} {data}", e.frame) }
}

fn trim_number(v: f32) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Activity;

    fn base() -> ScriptSequence {
        ScriptSequence {
            first_frame: Some(0),
            last_frame: Some(20),
            layer: Some(1),
            next: Some("s_Run".into()),
            loaded: true,
            ..ScriptSequence::new("t_Run", SequenceKind::Ani, 25.0, 0, 1)
        }
    }

    #[test]
    fn a_sequence_line_says_how_it_plays() {
        assert_eq!(sequence_summary(&base()), "t_Run · 25 fps · once · frames 0–20 · next s_Run");
        let qc = ScriptSequence {
            name: "run".into(),
            kind: SequenceKind::Sequence,
            fps: 24.0,
            looping: true,
            activity: Some(Activity { name: "ACT_RUN".into(), weight: 1 }),
            motion: vec!["LX".into()],
            first_frame: None,
            last_frame: None,
            next: None,
            ..base()
        };
        assert_eq!(sequence_summary(&qc), "run · 24 fps · loop · ACT_RUN 1 · LX");
        let compiled = ScriptSequence { paths: vec![Some("_compiled/HUMANS-T_RUN.MAN".into())], ..base() };
        assert_eq!(
            sequence_summary(&compiled),
            "t_Run · 25 fps · once · frames 0–20 · next s_Run · compiled HUMANS-T_RUN.MAN"
        );
        let missing = ScriptSequence { loaded: false, problem: Some("walk.smd: not found".into()), ..base() };
        assert!(sequence_summary(&missing).ends_with("· ⚠ walk.smd: not found"));
    }

    #[test]
    fn an_event_line_keeps_its_options() {
        let tag = ScriptEvent {
            frame: 12,
            kind: "eventTag".into(),
            kind_name: None,
            text: "DEF_WINDOW".into(),
            args: vec!["DEF_WINDOW".into(), "12 19".into()],
            line: 40,
        };
        assert_eq!(event_line(&tag), "frame 12: eventTag DEF_WINDOW 12 19");
        let qc = ScriptEvent {
            frame: 3,
            kind: "1004".into(),
            kind_name: Some("SCRIPT_EVENT_SOUND".into()),
            text: "headcrab/hc_attack1.wav".into(),
            args: Vec::new(),
            line: 9,
        };
        assert_eq!(event_line(&qc), "frame 3: 1004 (SCRIPT_EVENT_SOUND) headcrab/hc_attack1.wav");
    }
}
