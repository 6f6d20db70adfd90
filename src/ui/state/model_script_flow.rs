//! A model script's own playback rules, as the viewer follows them: which clips loop (QC `loop`, an MDS `ani`
//! whose next ani is itself, MMS flag `L`), and which clip follows when a clip ends (the MDS next ani, e.g.
//! `t_FistRun_2_FistRunL` → `s_FistRunL`), cross-faded over the incoming clip's blend-in time as the game blends
//! a newly started ani in.
//!
//! Plain data made once per asset from the clips' [`crate::scene::ClipScript`]; the player asks it what to do at
//! a clip's end. Must not touch: egui, GPU, files.

use crate::scene::Asset;

/// What the script says about one clip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlowEntry {
    pub looping: bool,
    /// The clip (index in the asset) that follows this one, when another one does.
    pub next: Option<usize>,
    /// Seconds to cross-fade into this clip when it follows another.
    pub blend_in: f32,
}

/// One entry per clip of the asset: `None` where no script defined the clip.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScriptFlow {
    entries: Vec<Option<FlowEntry>>,
}

impl ScriptFlow {
    pub fn of(asset: &Asset) -> Self {
        let find = |name: &str| asset.clips.iter().position(|c| c.name.eq_ignore_ascii_case(name));
        let entries = asset
            .clips
            .iter()
            .enumerate()
            .map(|(i, clip)| {
                let script = clip.script.as_ref()?;
                // A next ani naming the clip itself is how MDS writes "loop"; the flag already says so.
                let next = script.next.as_deref().and_then(find).filter(|&n| n != i);
                let blend_in = if script.blend_in.is_finite() { script.blend_in.max(0.0) } else { 0.0 };
                Some(FlowEntry { looping: script.looping, next, blend_in })
            })
            .collect();
        Self { entries }
    }

    /// True when no clip was defined by a script (nothing to follow).
    pub fn is_empty(&self) -> bool {
        self.entries.iter().all(Option::is_none)
    }

    pub fn get(&self, clip: usize) -> Option<FlowEntry> {
        self.entries.get(clip).copied().flatten()
    }

    /// The clip to go on with when `clip` has played to its end, and the cross-fade's length: its next clip,
    /// unless it loops or names none.
    pub fn after(&self, clip: usize) -> Option<(usize, f32)> {
        let entry = self.get(clip).filter(|e| !e.looping)?;
        let next = entry.next?;
        Some((next, self.get(next).map_or(0.0, |e| e.blend_in)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Clip, ClipScript};

    fn clip(name: &str, looping: bool, next: Option<&str>, blend_in: f32) -> Clip {
        Clip {
            name: name.into(),
            script: Some(Box::new(ClipScript {
                looping,
                next: next.map(Into::into),
                blend_in,
                ..ClipScript::default()
            })),
            ..Clip::default()
        }
    }

    #[test]
    fn a_transition_clip_hands_over_to_its_next_ani_which_loops() {
        let asset = Asset {
            clips: vec![
                clip("t_FistRun_2_FistRunL", false, Some("S_FISTRUNL"), 0.1),
                clip("s_FistRunL", true, Some("s_FistRunL"), 0.2),
                clip("t_Stop", false, None, 0.0),
                Clip { name: "loose".into(), ..Clip::default() },
            ],
            ..Asset::default()
        };
        let flow = ScriptFlow::of(&asset);
        assert!(!flow.is_empty());
        // Found case-insensitively, cross-faded over the incoming clip's blend-in.
        assert_eq!(flow.after(0), Some((1, 0.2)));
        // A looping clip (its next ani is itself) and a clip with no next ani go nowhere.
        assert_eq!(flow.after(1), None);
        assert_eq!(flow.get(1).map(|e| e.next), Some(None));
        assert_eq!(flow.after(2), None);
        assert_eq!(flow.get(3), None);
    }

    #[test]
    fn loose_files_have_no_flow() {
        let asset = Asset { clips: vec![Clip::default()], ..Asset::default() };
        assert!(ScriptFlow::of(&asset).is_empty());
    }
}
