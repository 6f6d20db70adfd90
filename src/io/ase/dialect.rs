//! Which exporter wrote the file, and so what its animation samples mean. Real ASE exporters disagree:
//!
//! - **3ds Max's own exporter** (`*3DSMAX_ASCIIEXPORT 200`): `*CONTROL_POS_SAMPLE` is the node's position relative
//!   to its parent; `*CONTROL_ROT_SAMPLE` is relative to the previous sample (the first one is the node's local
//!   rotation), and samples equal to the previous one are left out. Samples start at tick
//!   `*SCENE_FIRSTFRAME × *SCENE_TICKSPERFRAME`.
//! - **GothicSourcer** (`*3DSMAX_ASCIIEXPORT 110`, `*COMMENT "[ GothicSourcer v3.14 ] …"`; the ~1,500 `.ASC` files of
//!   the Gothic mod kit): every sample is the node's **world** transform at that tick (position and rotation, not a
//!   delta, not relative to the parent), one per frame, the first at tick `*SCENE_FIRSTFRAME` (a frame number used
//!   as a tick: 1, 193, 385 … with first frame 1 and 192 ticks per frame).
//! - **Kerrax ASCII Model Exporter** (`*3DSMAX_ASCIIEXPORT 110`, the Gothic community's KrxImpExp): world transforms
//!   as GothicSourcer writes them, at ticks `frame × *SCENE_TICKSPERFRAME`.
//! - **ZenGin ASC Exporter** (`*COMMENT " [Zengine ASC Exporter v1.06] …"`, also v1.08; Piranha Bytes' own
//!   exporter for the ZenGin, the engine of Gothic, whose older ASC files carry it): world transforms, the Gothic
//!   convention every ASC reader of the community applies to all Gothic files (the Blender Gothic importers read
//!   both versions' files with their Kerrax code, skipping only the material maps v1.06 and v1.08 add). Where the
//!   first sample sits is taken from the data as for any exporter (`timing`).
//!
//! Sources: assimp's `ASELoader.cpp` (`BuildAnimations`) takes rotation keys as absolute for every file of version
//! ≤ 110 and accumulates them otherwise; KrxImpExp (GothicII/KrxImpExp, `src/Meta/AscFileSaver.meta`,
//! `__RetrieveTMAnimationFromScene` writes `GET_TRANSFORM` — the world matrix — of every node per frame, and its
//! loader's `__CalcAnimationTMs` builds world matrices from the samples and makes them parent-relative
//! afterwards). assimp stops at "absolute" (it then uses the samples as local transforms, which misplaces every
//! child); we follow KrxImpExp, whose reading keeps the Bloodfly's bone lengths within 0.01 units over its
//! animations (the tests measure it).
//!
//! Where neither the version nor the comment says (another version 110 exporter, a file without a header), the
//! data decides: in a world-space file every rotation sample stays near the node's (large) world rotation, in a
//! stock file the samples after the first are small deltas (see [`rotation_evidence`]). When the data cannot tell
//! either, the reading is assumed (version ≤ 110: world, as assimp does; else the stock exporter's) and a warning
//! says so. Every decision is recorded as a [`Reading`] for `info`.

use glam::Quat;

use super::records::{RawFile, TrackKind};
use super::tracks::max_axis_angle;
use crate::scene::{Reading, Warning};

/// Who wrote the file, as far as the file says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Exporter {
    /// 3ds Max's own ASCII exporter (version 200 and later).
    Stock,
    GothicSourcer,
    Kerrax,
    /// Piranha Bytes' ZenGin ASC exporter (v1.06, v1.08).
    ZenGin,
    /// Nothing in the header names a known exporter.
    Unknown,
}

impl Exporter {
    pub fn label(self) -> &'static str {
        match self {
            Exporter::Stock => "3ds Max ASCII exporter",
            Exporter::GothicSourcer => "GothicSourcer",
            Exporter::Kerrax => "Kerrax ASCII Model Exporter",
            Exporter::ZenGin => "ZenGin ASC Exporter",
            Exporter::Unknown => "unknown exporter",
        }
    }

    /// Where this exporter writes the first sample: the tick of `first_frame`.
    pub fn first_sample_tick(self, first_frame: i64, ticks_per_frame: i64) -> i64 {
        match self {
            // A frame number used as a tick.
            Exporter::GothicSourcer => first_frame,
            _ => first_frame.saturating_mul(ticks_per_frame),
        }
    }
}

/// What `*CONTROL_POS_SAMPLE` / `*CONTROL_ROT_SAMPLE` values are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SampleSpace {
    /// Positions relative to the parent, rotations relative to the previous sample (3ds Max's exporter).
    Relative,
    /// The node's world position and rotation at the sample's tick.
    World,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Dialect {
    pub exporter: Exporter,
    pub samples: SampleSpace,
}

/// What the rotation samples look like, for files whose header does not say.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Evidence {
    /// No node with two or more samples and a rotation far enough from the identity to tell.
    None,
    /// Counted over `nodes` nodes: the mean angle of the first sample (`first`), of the later samples
    /// (`later`), and between consecutive samples (`step`), in radians.
    Measured { nodes: usize, first: f32, later: f32, step: f32 },
}

impl Evidence {
    /// World samples stay near the node's large world rotation and move a little per step; relative ones after
    /// the first are small deltas, far smaller than the first (local) rotation.
    pub fn verdict(self) -> Option<SampleSpace> {
        let Evidence::Measured { first, later, step, .. } = self else { return None };
        if later > 0.5 * first && step < 0.5 * later {
            Some(SampleSpace::World)
        } else if later < 0.25 * first {
            Some(SampleSpace::Relative)
        } else {
            None
        }
    }

    fn describe(self) -> String {
        match self {
            Evidence::None => "no rotation samples far enough from the identity to tell".to_owned(),
            Evidence::Measured { nodes, first, later, step } => format!(
                "over {nodes} animated node(s) the first rotation sample turns {first:.2} rad on average, the later ones {later:.2} rad, {step:.2} rad from one sample to the next"
            ),
        }
    }
}

/// Only nodes whose first rotation sample turns at least this far (radians) tell the readings apart: near the
/// identity, a world rotation and a small delta look alike.
const TELLING_ANGLE: f32 = 0.5;
/// Samples looked at per track.
const EVIDENCE_SAMPLES: usize = 32;

/// Measures the rotation samples of every sampled track (see [`Evidence::verdict`]).
pub(super) fn rotation_evidence(raw: &RawFile) -> Evidence {
    let (mut nodes, mut count) = (0usize, 0usize);
    let (mut first, mut later, mut step) = (0f64, 0f64, 0f64);
    for track in raw.nodes.iter().filter_map(|n| n.anim.as_ref()?.rot.as_ref()) {
        if track.kind != TrackKind::Sampled || track.len() < 2 {
            continue;
        }
        // The first samples tell as well as all of them (and keep this pass cheap on long takes).
        let q: Vec<Quat> = track.values.iter().take(EVIDENCE_SAMPLES).map(|&v| max_axis_angle(v)).collect();
        let q0 = q[0].angle_between(Quat::IDENTITY);
        if q0 < TELLING_ANGLE {
            continue;
        }
        nodes += 1;
        for pair in q.windows(2) {
            first += f64::from(q0);
            later += f64::from(pair[1].angle_between(Quat::IDENTITY));
            step += f64::from(pair[1].angle_between(pair[0]));
            count += 1;
        }
    }
    if count == 0 {
        return Evidence::None;
    }
    let mean = |x: f64| (x / count as f64) as f32;
    Evidence::Measured { nodes, first: mean(first), later: mean(later), step: mean(step) }
}

/// Names the exporter from the header: the comment first (exporters sign there), then the version.
fn exporter_of(raw: &RawFile) -> (Exporter, String) {
    let version = raw.header.version.as_deref().unwrap_or("");
    let signed = |needle: &str| raw.header.comments.iter().find(|c| c.to_ascii_lowercase().contains(needle));
    if let Some(comment) = signed("gothicsourcer") {
        return (Exporter::GothicSourcer, format!("*COMMENT \"{}\", *3DSMAX_ASCIIEXPORT {version}", comment.trim()));
    }
    if let Some(comment) = signed("kerrax") {
        return (Exporter::Kerrax, format!("*COMMENT \"{}\", *3DSMAX_ASCIIEXPORT {version}", comment.trim()));
    }
    // `[Zengine ASC Exporter v1.08]`: the engine is spelled ZenGin elsewhere, so either spelling is taken.
    if let Some(comment) = signed("zengine asc exporter").or_else(|| signed("zengin asc exporter")) {
        return (Exporter::ZenGin, format!("*COMMENT \"{}\", *3DSMAX_ASCIIEXPORT {version}", comment.trim()));
    }
    match raw.header.version_number() {
        Some(v) if v >= 200.0 => (Exporter::Stock, format!("*3DSMAX_ASCIIEXPORT {version}")),
        Some(_) => (Exporter::Unknown, format!("*3DSMAX_ASCIIEXPORT {version} with no exporter named in *COMMENT")),
        None => (Exporter::Unknown, "no *3DSMAX_ASCIIEXPORT version".to_owned()),
    }
}

fn space_label(space: SampleSpace) -> &'static str {
    match space {
        SampleSpace::World => "world transforms (absolute position and rotation per tick)",
        SampleSpace::Relative => {
            "parent-relative positions, rotations relative to the previous sample (the first one absolute)"
        }
    }
}

/// Decides the dialect and records how (one [`Reading`] for the exporter, one for the samples when the file has
/// any); a guess or a contradiction between header and data also gets a warning.
pub(super) fn detect(raw: &RawFile, readings: &mut Vec<Reading>, warnings: &mut Vec<Warning>) -> Dialect {
    let (exporter, header) = exporter_of(raw);
    let has_samples = raw
        .nodes
        .iter()
        .filter_map(|n| n.anim.as_ref())
        .flat_map(|a| [&a.pos, &a.rot])
        .flatten()
        .any(|t| t.kind == TrackKind::Sampled);
    readings.push(if exporter == Exporter::Unknown {
        Reading::new("exporter", exporter.label(), header.clone())
    } else {
        Reading::new("exporter", exporter.label(), format!("the header says so: {header}"))
    });
    let evidence = if has_samples { rotation_evidence(raw) } else { Evidence::None };
    let by_header = match exporter {
        Exporter::Stock => Some(SampleSpace::Relative),
        Exporter::GothicSourcer | Exporter::Kerrax | Exporter::ZenGin => Some(SampleSpace::World),
        Exporter::Unknown => None,
    };
    let samples = match (by_header, evidence.verdict()) {
        (Some(space), verdict) => {
            if has_samples {
                readings.push(Reading::new(
                    "animation samples",
                    space_label(space),
                    format!("the {}'s convention", exporter.label()),
                ));
            }
            if let Some(seen) = verdict.filter(|&seen| seen != space) {
                warnings.push(Warning::new(
                    "",
                    format!(
                        "the animation samples look like {} ({}), but the header names the {}: read as {}",
                        space_label(seen),
                        evidence.describe(),
                        exporter.label(),
                        space_label(space)
                    ),
                ));
            }
            space
        }
        (None, Some(space)) => {
            readings.push(Reading::new(
                "animation samples",
                space_label(space),
                format!("detected from the data: {}", evidence.describe()),
            ));
            space
        }
        (None, None) => {
            // Nothing settles it: assimp's rule for old versions, the stock exporter's otherwise.
            let old = raw.header.version_number().is_some_and(|v| v <= 110.0);
            let space = if old { SampleSpace::World } else { SampleSpace::Relative };
            if has_samples {
                let why = if old {
                    "version ≤ 110, read as assimp reads such files"
                } else {
                    "read as 3ds Max's own exporter writes them"
                };
                readings.push(Reading::assumed(
                    "animation samples",
                    space_label(space),
                    format!("{header}; the data cannot tell ({}); {why}", evidence.describe()),
                ));
                warnings.push(Warning::new(
                    "",
                    format!(
                        "nothing says which exporter wrote this file ({header}) and the samples do not tell ({}): they are assumed to be {}; check the animation",
                        evidence.describe(),
                        space_label(space)
                    ),
                ));
            }
            space
        }
    };
    Dialect { exporter, samples }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_follow_the_measured_angles() {
        let m = |first, later, step| Evidence::Measured { nodes: 3, first, later, step };
        // Bloodfly-like: samples stay near a 2.2 rad world rotation, moving 0.1 rad per step.
        assert_eq!(m(2.2, 2.2, 0.1).verdict(), Some(SampleSpace::World));
        // MotionCaptureROM-like: a 1.6 rad first sample, then 0.14 rad deltas.
        assert_eq!(m(1.6, 0.14, 0.17).verdict(), Some(SampleSpace::Relative));
        // In between: no verdict.
        assert_eq!(m(1.0, 0.4, 0.4).verdict(), None);
        assert_eq!(Evidence::None.verdict(), None);
    }
}
