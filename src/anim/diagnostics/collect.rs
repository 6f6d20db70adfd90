//! Gathering the checks' findings into one finding per defect, and keeping the list readable.
//!
//! A check pushes one finding per instance it sees — an edge torn in one clip, one vertex whose weights are off,
//! one clip's unmatched tracks. Instances of one kind in one [`Region`] are one defect: they are merged as they
//! come (so a million bad vertices never become a million findings in memory) into the worst of them, which
//! keeps its message, subject and moment, and gathers every clip it shows in and how many instances it stands
//! for. A check that has no region for a finding (a bone's bind pose) pushes a defect of its own.
//!
//! Past [`DiagnoseOptions::max_per_kind`](super::DiagnoseOptions) defects of one kind the rest are summed up, one
//! line per severity, each counting as the defects it stands for: a summary at one severity would count warnings
//! as errors, and the counts, exit codes and reports built on them would not add up.

use rustc_hash::FxHashMap;

use crate::scene::Asset;

use super::{Finding, FindingKind, Region, SEVERITIES, Severity, clip_label};

/// What became of a region's first instance.
#[derive(Clone, Copy)]
enum Slot {
    /// Listed: index into the findings.
    Kept(usize),
    /// Past the cap: summed up at this severity.
    LeftOut(Severity),
}

pub(super) struct Collector {
    max: usize,
    findings: Vec<Finding>,
    slots: FxHashMap<(FindingKind, Region), Slot>,
    /// Defects listed per kind.
    listed: [usize; FindingKind::ALL.len()],
    /// Defects left out, per kind and severity, and the instances they stand for.
    left_out: [[(usize, usize); 3]; FindingKind::ALL.len()],
}

impl Collector {
    pub fn new(max: usize) -> Self {
        Self {
            max,
            findings: Vec::new(),
            slots: FxHashMap::default(),
            listed: [0; FindingKind::ALL.len()],
            left_out: [[(0, 0); 3]; FindingKind::ALL.len()],
        }
    }

    pub fn push(&mut self, finding: Finding) {
        let k = finding.kind as usize;
        let key = finding.region.clone().map(|r| (defect_kind(finding.kind), r));
        if let Some(key) = &key {
            match self.slots.get(key).copied() {
                Some(Slot::Kept(i)) => {
                    if let Some(kept) = self.findings.get_mut(i) {
                        absorb(kept, finding);
                    }
                    return;
                }
                Some(Slot::LeftOut(severity)) => {
                    self.left_out[k][severity as usize].1 += finding.occurrences;
                    return;
                }
                None => {}
            }
        }
        if self.listed[k] < self.max {
            self.listed[k] += 1;
            if let Some(key) = key {
                self.slots.insert(key, Slot::Kept(self.findings.len()));
            }
            self.findings.push(finding);
        } else {
            let slot = &mut self.left_out[k][finding.severity as usize];
            slot.0 += 1;
            slot.1 += finding.occurrences;
            if let Some(key) = key {
                self.slots.insert(key, Slot::LeftOut(finding.severity));
            }
        }
    }

    /// The findings, most severe first, grouped by kind, worst first within a kind; merged findings say where
    /// else they show; the left-out defects summed up.
    pub fn finish(mut self, asset: &Asset) -> Vec<Finding> {
        for f in &mut self.findings {
            note_merged(f, asset);
        }
        for kind in FindingKind::ALL {
            let k = kind as usize;
            for severity in SEVERITIES {
                let (more, instances) = self.left_out[k][severity as usize];
                if more == 0 {
                    continue;
                }
                let mut summary = Finding::new(
                    severity,
                    kind,
                    super::Subject::Asset,
                    format!(
                        "… and {more} more {} at {} level ({} {} in all)",
                        kind.plural(),
                        severity.name(),
                        self.listed[k] + self.left_out[k].iter().map(|(n, _)| n).sum::<usize>(),
                        kind.plural()
                    ),
                )
                .with_value(more as f32);
                summary.count = more;
                summary.occurrences = instances;
                summary.summary = true;
                self.findings.push(summary);
            }
        }
        // Within a severity and kind, what moved the surface further first (warnings ranked by size); else the
        // order the checks made them.
        let extent = |f: &Finding| f.extent.map_or(f32::NEG_INFINITY, |x| if x.is_nan() { f32::INFINITY } else { x });
        self.findings.sort_by(|a, b| {
            (a.severity, a.kind, a.summary)
                .cmp(&(b.severity, b.kind, b.summary))
                .then_with(|| extent(b).total_cmp(&extent(a)))
        });
        self.findings
    }
}

/// The kind that tells defects apart: a bone off its joint is one defect whether its skin opens a little
/// somewhere (`joint_apart`) or flies beyond the character elsewhere (`vertex_flies`); the worst says which.
fn defect_kind(kind: FindingKind) -> FindingKind {
    match kind {
        FindingKind::VertexFlies => FindingKind::JointApart,
        other => other,
    }
}

/// Merges instance `other` into defect `kept`: the worse of the two speaks for both.
fn absorb(kept: &mut Finding, other: Finding) {
    let occurrences = kept.occurrences + other.occurrences;
    let mut clips = std::mem::take(&mut kept.clips);
    clips.extend(other.clips.iter().copied());
    // Worse: a worse severity, or at the same one, moving the surface further (the first seen otherwise).
    let extent = |f: &Finding| f.extent.map_or(f32::NEG_INFINITY, |x| if x.is_nan() { f32::INFINITY } else { x });
    if (other.severity, -extent(&other)) < (kept.severity, -extent(kept)) {
        *kept = other;
    }
    kept.clips = clips;
    kept.occurrences = occurrences;
}

/// Says in a merged finding's message where else it shows: the clips (worst first, the first few by name) or
/// how many entries of its region it stands for.
fn note_merged(f: &mut Finding, asset: &Asset) {
    f.clips.sort_by(|a, b| {
        let measure = |v: Option<f32>| v.unwrap_or(f32::NEG_INFINITY);
        a.severity
            .cmp(&b.severity)
            .then(measure(b.extent).total_cmp(&measure(a.extent)))
            .then(measure(b.value).total_cmp(&measure(a.value)))
            .then(a.clip.cmp(&b.clip))
    });
    // One clip can show a defect at several moments (a region measured more than once); list it once.
    let mut seen = rustc_hash::FxHashSet::default();
    f.clips.retain(|c| seen.insert(c.clip));
    if f.clips.len() > 1 {
        const NAMED: usize = 5;
        let names: Vec<String> = f.clips.iter().take(NAMED).map(|c| clip_label(asset, c.clip)).collect();
        let more = f.clips.len().saturating_sub(NAMED);
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        let worse: Vec<String> = [Severity::Error, Severity::Warning]
            .into_iter()
            .filter_map(|s| {
                let n = f.clips.iter().filter(|c| c.severity == s).count();
                (n > 0 && n < f.clips.len()).then(|| format!("{n} at {} level", s.name()))
            })
            .collect();
        let worse = if worse.is_empty() { String::new() } else { format!("; {}", worse.join(", ")) };
        f.message.push_str(&format!(" — the same place in {} clips: {}{more}{worse}", f.clips.len(), names.join(", ")));
    } else if f.clips.is_empty() && f.occurrences > 1 {
        f.message.push_str(&format!(" — and {} more {} like it there", f.occurrences - 1, f.kind.instance()));
    }
}

#[cfg(test)]
mod tests {
    use super::super::Subject;
    use super::*;

    fn weight(index: usize, bone: &str, severity: Severity) -> Finding {
        Finding::new(severity, FindingKind::WeightSum, Subject::Vertex { mesh: 0, index }, format!("v{index}"))
            .with_value(index as f32)
            .in_region(Region::new(Some(0), [bone.to_owned()]))
    }

    #[test]
    fn instances_of_one_region_are_one_defect_and_the_cap_counts_defects() {
        let mut c = Collector::new(2);
        for i in 0..5 {
            c.push(weight(i, "arm", Severity::Warning));
        }
        // A worse instance of the same region speaks for it.
        c.push(weight(9, "arm", Severity::Error));
        c.push(weight(1, "leg", Severity::Warning));
        // Past the cap: summed up per severity, its later instances counted with it.
        c.push(weight(2, "head", Severity::Warning));
        c.push(weight(3, "head", Severity::Warning));
        c.push(Finding::new(Severity::Info, FindingKind::UnusedBone, Subject::Bone(1), "y"));
        let f = c.finish(&Asset::default());
        assert_eq!(f.len(), 4, "{f:#?}");
        assert_eq!((f[0].severity, f[0].occurrences, f[0].value), (Severity::Error, 6, Some(9.0)));
        assert!(f[0].message.starts_with("v9 — and 5 more entries"), "{}", f[0].message);
        assert_eq!((f[1].occurrences, f[1].count), (1, 1));
        assert!(f[2].summary && f[2].count == 1 && f[2].occurrences == 2, "{:#?}", f[2]);
        assert_eq!(f[3].kind, FindingKind::UnusedBone);
        let defects: usize = f.iter().map(|x| x.count).sum();
        assert_eq!(defects, 4, "arm, leg, head and the bone");
    }

    #[test]
    fn a_defect_in_several_clips_lists_them_worst_first() {
        let mut asset = Asset::default();
        for name in ["walk", "run", "die"] {
            asset.clips.push(crate::scene::Clip { name: name.into(), ..Default::default() });
        }
        let mut c = Collector::new(10);
        for (clip, severity, extent) in
            [(0, Severity::Info, 0.01), (1, Severity::Error, 0.3), (2, Severity::Warning, 0.1)]
        {
            let mut f = Finding::new(severity, FindingKind::ClipStretch, Subject::Triangle { mesh: 0, index: 3 }, "x");
            f.extent = Some(extent);
            c.push(f.in_clip(clip, Some(0.5)).in_region(Region::new(Some(0), ["a".into(), "b".into()])));
        }
        let f = c.finish(&asset);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Error);
        assert_eq!(f[0].at.map(|a| a.clip), Some(1));
        assert_eq!(f[0].clips.iter().map(|c| c.clip).collect::<Vec<_>>(), [1, 2, 0]);
        assert_eq!(f[0].occurrences, 3);
        assert!(
            f[0].message.contains(
                "the same place in 3 clips: clip 'run', clip 'die', clip 'walk'; 1 at error level, 1 at warning level"
            ),
            "{}",
            f[0].message
        );
    }
}
