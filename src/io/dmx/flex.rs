//! Flexes: the root's `DmeCombinationOperator` (the controls an animator dials) and the meshes' delta states
//! become a clip that plays each flex in turn, as a VTA's frames play (`smd::vta`'s flex clip: one frame per
//! shape, each tweened in and out by [`tween_tracks`]). Owns the combination operator's reading; the targets
//! themselves are made with the meshes (`mesh`).
//!
//! Reading, as Blender Source Tools writes it (`flex.py` `DmxWriteFlexControllers`, `export_smd.py`): each
//! `DmeCombinationInputControl` names the delta states it drives in `rawControlNames`. A delta whose name joins
//! others with `_` (`__` in Source 2's ModelDoc convention) is a corrective shape, weighted by the shapes it
//! names together: it only shows when they are on at once, so in a clip that plays one flex at a time it stays
//! at 0 and gets no track. Delta states no control names (vertex animation frames, files written without
//! controls) play after the controlled ones, in their order. A file of controls alone (Blender Source Tools'
//! "flex controller source", `flex_<name>.dmx`) gives the same clip with the controls' names: bound to a model,
//! it drives the delta states of those names.

use super::graph::View;
use crate::io::LoadError;
use crate::scene::vertex_animation::tween_tracks;
use crate::scene::{Clip, Mesh};

/// The name of the clip that plays a model's flexes. A file of controls alone names its clip after its root
/// element (`flex_<model>` as Blender Source Tools names it), so that bound to a model it stays apart from the
/// model's own.
pub const FLEX_CLIP: &str = "flexes";

/// A control of the combination operator.
#[derive(Clone, Debug, PartialEq)]
pub struct Control {
    pub name: String,
    pub raw: Vec<String>,
    pub min: f32,
    pub max: f32,
}

/// The controls of the root's combination operator (empty without one).
pub fn controls(root: View) -> Result<Vec<Control>, LoadError> {
    let Some(op) = root.child("combinationOperator")? else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    for c in op.children("controls")? {
        let raw = match c.strings("rawControlNames")? {
            Some(r) if !r.is_empty() => r.clone(),
            _ => vec![c.name().to_owned()],
        };
        out.push(Control {
            name: c.name().to_owned(),
            raw,
            min: c.number("flexMin")?.unwrap_or(0.0),
            max: c.number("flexMax")?.unwrap_or(1.0),
        });
    }
    Ok(out)
}

/// Whether `name` is a corrective of the shapes in `all`: its parts, split at `_` (or `__`), are all shapes.
fn is_corrective(name: &str, all: &[&str]) -> bool {
    ["__", "_"].iter().any(|sep| {
        let parts: Vec<&str> = name.split(sep).collect();
        parts.len() > 1 && parts.iter().all(|p| !p.is_empty() && all.contains(p))
    })
}

/// The clip `name` that plays every flex once, at `fps` frames per flex; `None` when there is nothing to play.
pub fn flex_clip(name: &str, controls: &[Control], meshes: &[Mesh], fps: f32) -> Option<Clip> {
    let mut names: Vec<&str> = Vec::new();
    for c in controls {
        for r in &c.raw {
            if !names.contains(&r.as_str()) {
                names.push(r);
            }
        }
    }
    let targets: Vec<&str> = meshes.iter().flat_map(|m| m.morph_targets.iter().map(|t| t.name.as_str())).collect();
    let all: Vec<&str> = names.iter().chain(&targets).copied().collect();
    for t in &targets {
        if !names.contains(t) && !is_corrective(t, &all) {
            names.push(t);
        }
    }
    names.retain(|n| !is_corrective(n, &all));
    if names.is_empty() {
        return None;
    }
    let fps = if fps.is_finite() && fps > 0.0 { fps } else { 30.0 };
    // Frame 0 is the base mesh, frame k the k-th flex.
    let times: Vec<f32> = (0..=names.len()).map(|k| k as f32 / fps).collect();
    let steps: Vec<Option<&str>> = std::iter::once(None).chain(names.iter().map(|n| Some(*n))).collect();
    Some(Clip {
        name: name.to_owned(),
        duration: names.len() as f32 / fps,
        frame_rate: fps,
        frame_count: names.len() as u32 + 1,
        morph_tracks: tween_tracks(&times, &steps, None),
        ..Clip::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn correctives_are_shapes_named_after_others() {
        let all = ["A", "B", "A_B", "smile_big"];
        assert!(is_corrective("A_B", &all));
        assert!(!is_corrective("smile_big", &all));
        assert!(is_corrective("A__B", &["A", "B"]));
    }
}
