//! Legends of the analysis shading modes, drawn in the viewport's lower-left corner: what a colour means in
//! numbers. Bone weights: the heat scale from 0 to 1 for the selected bone. Stretch: the colour scale of vertex
//! stretch ([`crate::anim::edges`]) with its ends and the measure's definition. Dominant bone: every bone that
//! dominates a vertex, with its colour (the character's [`BoneColors`]), name and count, in a list that scrolls.
//! Vertex colours: what the file's colours are.
//!
//! Reads the document and the UI state; draws with the egui painter; changes nothing.

use eframe::egui::{self, Color32, Pos2, Rect, Stroke, Vec2};

use crate::anim::edges::STRETCH_COLOUR_RANGE;
use crate::scene::Asset;

use crate::render::ShadingMode;
use crate::render::ramps;
use crate::render::ramps::BoneColors;

/// An RGB colour of 0–1 components (clamped) as egui's: the ramps' colours, here and in the viewport's painter.
pub fn rgb(c: [f32; 3]) -> Color32 {
    let f = |x: f32| (x.clamp(0.0, 1.0) * 255.0) as u8;
    Color32::from_rgb(f(c[0]), f(c[1]), f(c[2]))
}

/// A colour scale: maps 0..1 along the bar to a colour.
type Ramp = Box<dyn Fn(f32) -> Color32>;

/// The dominant-bone legend's list scrolls past this height (points).
const DOMINANT_LIST_HEIGHT: f32 = 260.0;

/// How many vertices each bone dominates (has the largest weight of, as [`ramps::dominant`] picks it), over
/// every mesh.
pub fn dominant_counts(asset: &Asset) -> Vec<usize> {
    let mut counts = vec![0usize; asset.skeleton.len()];
    for mesh in &asset.meshes {
        for (joints, weights) in mesh.joints.iter().zip(&mesh.weights) {
            if let Some(c) = counts.get_mut(usize::from(ramps::dominant(*joints, *weights))) {
                *c += 1;
            }
        }
    }
    counts
}

/// The bones to list: every bone that dominates a vertex (every colour on screen), most vertices first, with
/// their counts.
pub fn dominant_rows(counts: &[usize]) -> Vec<(usize, usize)> {
    let mut rows: Vec<(usize, usize)> = counts.iter().copied().enumerate().filter(|(_, c)| *c > 0).collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    rows
}

/// What a legend shows.
pub struct LegendInput<'a> {
    pub shading: ShadingMode,
    pub asset: &'a Asset,
    pub selected: Option<usize>,
    /// Vertices each bone dominates ([`dominant_counts`]).
    pub dominant: &'a [usize],
    /// The character's bone colours (what the viewport paints them in).
    pub bone_colors: &'a BoneColors,
    /// The displacement (model units) the morph-displacement mode shows as full red.
    pub morph_range: f32,
}

/// Draws the legend of the shading mode (nothing for the plain modes) with its lower-left corner at `corner`.
pub fn draw(ui: &egui::Ui, corner: Pos2, input: &LegendInput) {
    let LegendInput { shading, asset, selected, dominant, bone_colors, morph_range } = *input;
    if shading == ShadingMode::DominantBone {
        draw_dominant(ui, corner, asset, selected, dominant, bone_colors);
        return;
    }
    let painter = ui.painter();
    let text = ui.visuals().text_color();
    let weak = ui.visuals().weak_text_color();
    let font = egui::FontId::proportional(12.0);
    let mut lines: Vec<(String, Color32)> = Vec::new();
    let (title, ramp): (String, Option<Ramp>) = match shading {
        ShadingMode::BoneWeight => {
            let bone = selected.and_then(|b| asset.skeleton.names.get(b)).map_or("no bone selected", String::as_str);
            (format!("Weight of {bone}"), Some(Box::new(|t: f32| rgb(ramps::heat(t)))))
        }
        ShadingMode::Stretch => {
            lines.push(("vertex stretch: its most deformed edge,".to_owned(), weak));
            lines.push(("posed length ÷ bind length".to_owned(), weak));
            let ramp = |t: f32| {
                let ratio = 1.0 - STRETCH_COLOUR_RANGE + 2.0 * STRETCH_COLOUR_RANGE * t;
                rgb(ramps::stretch_color(ratio, STRETCH_COLOUR_RANGE))
            };
            ("Stretch".to_owned(), Some(Box::new(ramp)))
        }
        ShadingMode::MorphDisplacement => {
            lines.push(("how far the active morph targets".to_owned(), weak));
            lines.push(("move each vertex (model units)".to_owned(), weak));
            ("Morph displacement".to_owned(), Some(Box::new(|t: f32| rgb(ramps::heat(t)))))
        }
        ShadingMode::VertexColor => {
            let count: usize = asset.meshes.iter().map(|m| m.colors.len()).sum();
            let note = if count == 0 { "none in this file: white" } else { "the file's RGB, lit" };
            lines.push((note.to_owned(), weak));
            ("Vertex colours".to_owned(), None)
        }
        _ => return,
    };
    let ends = match shading {
        ShadingMode::BoneWeight => ["0".to_owned(), "0.5".to_owned(), "1".to_owned()],
        ShadingMode::MorphDisplacement => {
            ["0".to_owned(), format!("{:.3}", morph_range * 0.5), format!("{morph_range:.3}")]
        }
        _ => [
            format!("≤ {:.2}×", 1.0 - STRETCH_COLOUR_RANGE),
            "1×".to_owned(),
            format!("≥ {:.2}×", 1.0 + STRETCH_COLOUR_RANGE),
        ],
    };
    let width = 230.0;
    let line_h = 15.0;
    let ramp_h = if ramp.is_some() { 30.0 } else { 0.0 };
    let height = 22.0 + ramp_h + line_h * lines.len() as f32 + 6.0;
    let rect = Rect::from_min_size(Pos2::new(corner.x, corner.y - height), Vec2::new(width, height));
    painter.rect_filled(rect, 4.0, ui.visuals().panel_fill.gamma_multiply(0.92));
    painter.rect_stroke(
        rect,
        4.0,
        Stroke::new(1.0, ui.visuals().widgets.noninteractive.bg_stroke.color),
        egui::StrokeKind::Inside,
    );
    let mut y = rect.top() + 6.0;
    painter.text(Pos2::new(rect.left() + 8.0, y), egui::Align2::LEFT_TOP, title, font.clone(), text);
    y += 18.0;
    if let Some(ramp) = ramp {
        let bar = Rect::from_min_size(Pos2::new(rect.left() + 8.0, y), Vec2::new(width - 16.0, 10.0));
        let steps = 48;
        for i in 0..steps {
            let t = (i as f32 + 0.5) / steps as f32;
            let x0 = bar.left() + bar.width() * i as f32 / steps as f32;
            let x1 = bar.left() + bar.width() * (i + 1) as f32 / steps as f32;
            painter.rect_filled(Rect::from_x_y_ranges(x0..=x1 + 0.5, bar.y_range()), 0.0, ramp(t));
        }
        let label_y = bar.bottom() + 2.0;
        for (k, label) in ends.iter().enumerate() {
            let x = bar.left() + bar.width() * k as f32 / 2.0;
            let align = [egui::Align2::LEFT_TOP, egui::Align2::CENTER_TOP, egui::Align2::RIGHT_TOP][k];
            painter.text(Pos2::new(x, label_y), align, label, font.clone(), weak);
        }
        y += ramp_h;
    }
    for (line, colour) in lines {
        painter.text(Pos2::new(rect.left() + 8.0, y), egui::Align2::LEFT_TOP, line, font.clone(), colour);
        y += line_h;
    }
}

/// The dominant-bone legend: every bone that dominates a vertex, its colour, name and vertex count, most first,
/// in a panel anchored at `corner` whose list scrolls (a character's forty bones do not fit a corner).
fn draw_dominant(
    ui: &egui::Ui,
    corner: Pos2,
    asset: &Asset,
    selected: Option<usize>,
    dominant: &[usize],
    colors: &BoneColors,
) {
    let rows = dominant_rows(dominant);
    // Placed by its top, from the height it will take: an area sized from its bottom gets the room below the
    // corner to lay out in, which is none.
    const ROW: f32 = 18.0;
    const HEADER: f32 = 52.0;
    let list = (rows.len() as f32 * ROW).min(DOMINANT_LIST_HEIGHT);
    let top = Pos2::new(corner.x, corner.y - list - HEADER);
    egui::Area::new(egui::Id::unique("dominant-bone-legend")).order(egui::Order::Foreground).fixed_pos(top).show(
        ui.ctx(),
        |ui| {
            egui::Frame::popup(ui.style()).fill(ui.visuals().panel_fill.gamma_multiply(0.92)).show(ui, |ui| {
                ui.set_width(230.0);
                ui.label(egui::RichText::new("Bone with the largest weight").size(12.0));
                ui.label(egui::RichText::new(format!("{} bones on screen", rows.len())).size(11.0).weak());
                egui::ScrollArea::vertical()
                    .max_height(list)
                    .min_scrolled_height(list)
                    .auto_shrink([false, true])
                    .show(ui, |ui| {
                        for (bone, vertices) in &rows {
                            ui.horizontal(|ui| {
                                ui.set_height(ROW - ui.spacing().item_spacing.y);
                                let (swatch, _) = ui.allocate_exact_size(Vec2::splat(11.0), egui::Sense::hover());
                                ui.painter().rect_filled(swatch, 2.0, rgb(colors.get(*bone)));
                                let name = asset.skeleton.names.get(*bone).map_or("?", String::as_str);
                                let text = egui::RichText::new(format!("{name}  ({vertices} vertices)")).size(11.5);
                                ui.label(if Some(*bone) == selected { text.strong() } else { text.weak() });
                            });
                        }
                    });
            });
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Mesh, Transform};

    #[test]
    fn the_dominant_legend_lists_bones_by_the_vertices_they_dominate() {
        let mut asset = Asset::default();
        for name in ["root", "arm", "hand"] {
            asset.skeleton.push(name, None, Transform::IDENTITY);
        }
        asset.meshes.push(Mesh {
            positions: vec![glam::Vec3::ZERO; 4],
            joints: vec![[0, 1, 0, 0], [2, 1, 0, 0], [1, 2, 0, 0], [1, 0, 0, 0]],
            weights: vec![[0.2, 0.8, 0.0, 0.0], [0.6, 0.4, 0.0, 0.0], [0.9, 0.1, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]],
            ..Mesh::default()
        });
        let counts = dominant_counts(&asset);
        assert_eq!(counts, vec![0, 3, 1]);
        assert_eq!(dominant_rows(&counts), vec![(1, 3), (2, 1)]);
        // Every bone that dominates a vertex is listed, however many.
        let many: Vec<usize> = (0..44).map(|b| b + 1).collect();
        assert_eq!(dominant_rows(&many).len(), 44);
    }
}
