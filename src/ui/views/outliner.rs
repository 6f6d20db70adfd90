//! The outliner: the bone tree (expand/collapse, search by name, click selects), with a mark on each bone that
//! the focus clip animates and on each bone that moves vertices. The expanded set, the search text and those
//! cached marks are this panel's own view state; selection is a [`Command`].

use eframe::egui;
use std::collections::HashSet;

use egui::{RichText, Sense};

use crate::ui::commands::command::Command;
use crate::ui::state::document::Document;

#[derive(Default)]
pub struct OutlinerView {
    pub search: String,
    pub expanded: HashSet<usize>,
    /// Selection the tree last revealed (expanding its ancestors and scrolling to it once).
    revealed: Option<usize>,
    /// Document the expanded set belongs to.
    generation: u64,
    pub focus_search: bool,
    /// (document generation, clip) the marks below were computed for.
    marks_for: Option<(u64, Option<usize>)>,
    /// Per bone: the clip has a track for it.
    animated: Vec<bool>,
}

/// Per bone: whether `clip` has a track for it (by normalised name, as binding does).
pub fn animated_bones(doc: &Document, clip: Option<usize>) -> Vec<bool> {
    let skeleton = &doc.asset.skeleton;
    let Some(clip) = clip.and_then(|c| doc.asset.clips.get(c)) else { return vec![false; skeleton.len()] };
    let tracks: HashSet<String> = clip.tracks.iter().map(|t| crate::scene::normalize_bone_name(&t.bone_name)).collect();
    skeleton.names.iter().map(|n| tracks.contains(&crate::scene::normalize_bone_name(n))).collect()
}

/// Bones whose name contains `query` (case-insensitive), in skeleton order.
pub fn search(doc: &Document, query: &str) -> Vec<usize> {
    let q = query.trim().to_lowercase();
    doc.asset.skeleton.names.iter().enumerate().filter(|(_, n)| n.to_lowercase().contains(&q)).map(|(i, _)| i).collect()
}

pub fn show(
    ui: &mut egui::Ui,
    doc: &Document,
    selected: Option<usize>,
    clip: Option<usize>,
    view: &mut OutlinerView,
    cmds: &mut Vec<Command>,
) {
    if view.marks_for != Some((doc.generation, clip)) {
        view.animated = animated_bones(doc, clip);
        view.marks_for = Some((doc.generation, clip));
    }
    if view.generation != doc.generation {
        // A new scene: open the first levels.
        view.generation = doc.generation;
        view.expanded.clear();
        view.revealed = None;
        for &r in &doc.roots {
            view.expanded.insert(r);
            for &c in doc.children.get(r).map(Vec::as_slice).unwrap_or_default() {
                view.expanded.insert(c);
            }
        }
    }
    let mut scroll_to = None;
    if selected != view.revealed {
        if let Some(s) = selected {
            view.expanded.extend(doc.ancestors(s));
            scroll_to = Some(s);
        }
        view.revealed = selected;
    }

    ui.horizontal(|ui| {
        ui.heading("Skeleton");
        let n = doc.asset.skeleton.len();
        ui.weak(format!("{n} bone{}", if n == 1 { "" } else { "s" }));
    });
    ui.horizontal(|ui| {
        let r = ui.add(
            egui::TextEdit::singleline(&mut view.search)
                .hint_text("🔍 search bones (Ctrl+F)")
                .desired_width(f32::INFINITY),
        );
        if view.focus_search {
            r.request_focus();
            view.focus_search = false;
        }
    });
    ui.horizontal(|ui| {
        if ui.small_button("Expand all").clicked() {
            view.expanded = (0..doc.asset.skeleton.len()).collect();
        }
        if ui.small_button("Collapse all").clicked() {
            view.expanded.clear();
        }
    });
    ui.separator();
    if doc.is_empty() {
        ui.weak("Nothing open.");
        return;
    }
    if doc.asset.skeleton.is_empty() {
        ui.weak("This file has no skeleton.");
        return;
    }
    // Vertical only: a name too long for the panel ends in an ellipsis (the full name is in its tooltip) rather
    // than running off the panel's edge.
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        if !view.search.trim().is_empty() {
            let hits = search(doc, &view.search);
            if hits.is_empty() {
                ui.weak("No bone matches.");
            }
            for b in hits {
                let name = &doc.asset.skeleton.names[b];
                let r = ui.add(egui::Button::selectable(selected == Some(b), name.as_str()).truncate());
                let path: Vec<&str> = doc
                    .ancestors(b)
                    .iter()
                    .rev()
                    .filter_map(|&a| doc.asset.skeleton.names.get(a).map(String::as_str))
                    .collect();
                let r = r.on_hover_text(if path.is_empty() {
                    format!("{name}\nroot")
                } else {
                    format!("{name}\n{}", path.join(" › "))
                });
                if r.clicked() {
                    cmds.push(Command::SelectBone(Some(b)));
                }
                if scroll_to == Some(b) {
                    scroll_vertically_to(ui, r.rect);
                }
            }
            return;
        }
        // Depth-first, iterative (skeletons can be deep), children in skeleton order.
        let mut stack: Vec<(usize, usize)> = doc.roots.iter().rev().map(|&r| (r, 0)).collect();
        let mut guard = 0;
        while let Some((b, depth)) = stack.pop() {
            guard += 1;
            if guard > doc.asset.skeleton.len() * 2 + 8 {
                break;
            }
            let children = doc.children.get(b).map(Vec::as_slice).unwrap_or_default();
            let open = view.expanded.contains(&b);
            let r = ui
                .horizontal(|ui| {
                    ui.spacing_mut().item_spacing.x = 2.0;
                    ui.add_space(depth as f32 * 14.0);
                    if children.is_empty() {
                        ui.add_space(16.0);
                    } else {
                        let arrow = if open { "⏷" } else { "⏵" };
                        if ui.add(egui::Label::new(RichText::new(arrow).weak()).sense(Sense::click())).clicked() {
                            if open {
                                view.expanded.remove(&b);
                            } else {
                                view.expanded.insert(b);
                            }
                        }
                    }
                    let name = doc.asset.skeleton.names.get(b).map_or("?", String::as_str);
                    let label = if children.is_empty() { RichText::new(name) } else { RichText::new(name).strong() };
                    // Room is left for the marks after the name.
                    let room = (ui.available_width() - 30.0).max(40.0);
                    let r = ui
                        .scope(|ui| {
                            ui.set_max_width(room);
                            ui.add(egui::Button::selectable(selected == Some(b), label).truncate())
                        })
                        .inner;
                    marks(ui, view, doc, b);
                    r
                })
                .inner;
            let name = doc.asset.skeleton.names.get(b).map_or("?", String::as_str);
            let r = r.on_hover_text(format!("{name}\n#{b}, {} child(ren)", children.len()));
            if r.clicked() {
                cmds.push(Command::SelectBone(Some(b)));
            }
            if scroll_to == Some(b) {
                scroll_vertically_to(ui, r.rect);
            }
            if open {
                for &c in children.iter().rev() {
                    if c > b {
                        stack.push((c, depth + 1));
                    }
                }
            }
        }
    });
}

/// Brings a row into view without scrolling sideways (a deep row would otherwise hide the tree's left edge).
fn scroll_vertically_to(ui: &egui::Ui, row: egui::Rect) {
    let rect = egui::Rect::from_x_y_ranges(ui.clip_rect().x_range(), row.y_range());
    ui.scroll_to_rect(rect, Some(egui::Align::Center));
}

/// The small marks after a bone's name: animated by the focus clip (a key), moves vertices (a dot).
fn marks(ui: &mut egui::Ui, view: &OutlinerView, doc: &Document, bone: usize) {
    if view.animated.get(bone).copied().unwrap_or(false) {
        ui.label(RichText::new("◆").small().color(egui::Color32::from_rgb(90, 200, 90)))
            .on_hover_text("animated by the clip on the focus track");
    }
    if doc.influence.get(bone).is_some_and(|i| i.vertices > 0) {
        ui.label(RichText::new("●").small().color(egui::Color32::from_rgb(230, 140, 60)))
            .on_hover_text("moves vertices (has skin weights)");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_is_case_insensitive() {
        let doc = Document::new(crate::scene::samples::demo::demo_asset(), Vec::new(), Vec::new(), 1);
        assert_eq!(search(&doc, "SEGMENT"), vec![1, 2, 3, 4, 5]);
        assert_eq!(search(&doc, "root"), vec![0]);
        assert!(search(&doc, "spine").is_empty());
    }

    #[test]
    fn marks_show_animated_and_skinning_bones() {
        let doc = Document::new(crate::scene::samples::demo::demo_asset(), Vec::new(), Vec::new(), 1);
        let animated = animated_bones(&doc, Some(0));
        assert_eq!(animated.len(), 6);
        let clip = &doc.asset.clips[0];
        for (b, name) in doc.asset.skeleton.names.iter().enumerate() {
            assert_eq!(animated[b], clip.track_for(name).is_some(), "{name}");
        }
        assert!(animated_bones(&doc, None).iter().all(|a| !a));
        let skinning: Vec<bool> = doc.influence.iter().map(|i| i.vertices > 0).collect();
        // Every demo segment carries the stalk.
        assert!(skinning[1..].iter().all(|s| *s), "{skinning:?}");
    }
}
