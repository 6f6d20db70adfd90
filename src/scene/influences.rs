//! The influence reducer every loader uses: any number of (bone, weight) pairs for a vertex become at most four
//! influences whose weights sum to 1.
//!
//! Rules, so that results do not depend on the order a file lists its weights in:
//! - pairs naming the same bone are summed; non-finite or non-positive weights are dropped;
//! - the four largest weights are kept (ties: lower bone index first) and renormalised;
//! - a vertex with no usable weight is bound fully to the caller's fallback bone (the loader documents which:
//!   usually the vertex's parent bone in SMD, the root bone elsewhere) and counted as unweighted.
//!
//! Loaders call it once per vertex (SMD once per triangle corner, millions of times for large files), so the
//! common case — one to four distinct bones with usable weights — skips the sorting and merging passes.

/// Four bone indices and weights; unused slots are bone 0 with weight 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Influences {
    pub joints: [u16; 4],
    pub weights: [f32; 4],
}

/// What the reducer changed, summed over the vertices it saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct InfluenceReport {
    pub vertices: usize,
    /// Vertices that had more than four influences (the smallest were dropped).
    pub trimmed: usize,
    /// Vertices whose kept weights did not already sum to 1 (within 1e-3).
    pub renormalized: usize,
    /// Vertices with no usable weight, bound to the fallback bone.
    pub unweighted: usize,
    /// The most influences any one vertex had before reduction.
    pub max_influences: usize,
}

impl InfluenceReport {
    /// Vertices whose influences were changed in any way.
    pub fn changed(&self) -> usize {
        self.trimmed.max(self.renormalized).max(self.unweighted)
    }

    pub fn merge(&mut self, other: &InfluenceReport) {
        self.vertices += other.vertices;
        self.trimmed += other.trimmed;
        self.renormalized += other.renormalized;
        self.unweighted += other.unweighted;
        self.max_influences = self.max_influences.max(other.max_influences);
    }
}

/// Reduces `pairs` (sorted and merged in place) to four influences.
// Inlined into the loaders' per-corner loops: with plain `#[inline]` the SMD load took 1.7 % more CPU time
// (benches/smd_load.rs), with this it matches the loader's former private copy of the fast path.
#[inline(always)]
pub fn reduce_influences(pairs: &mut [(u16, f32)], fallback: u16, report: &mut InfluenceReport) -> Influences {
    match reduce_distinct(pairs, report) {
        Some(reduced) => reduced,
        None => reduce_general(pairs, fallback, report),
    }
}

/// The common case: one to four pairs naming distinct bones with usable weights, ordered by an insertion sort
/// into four slots instead of the general passes; the same result as [`reduce_general`], bit for bit. `None`
/// leaves the case (and the report) to the general reducer.
#[inline(always)]
fn reduce_distinct(pairs: &[(u16, f32)], report: &mut InfluenceReport) -> Option<Influences> {
    if pairs.is_empty() || pairs.len() > 4 {
        return None;
    }
    // Insertion sort by weight (descending), then bone (ascending): the general reducer's order.
    let mut sorted = [(0u16, 0.0f32); 4];
    for (i, &(bone, weight)) in pairs.iter().enumerate() {
        if !(weight.is_finite() && weight > 0.0) || sorted[..i].iter().any(|p| p.0 == bone) {
            return None;
        }
        let mut j = i;
        while j > 0 && (sorted[j - 1].1 < weight || (sorted[j - 1].1 == weight && sorted[j - 1].0 > bone)) {
            sorted[j] = sorted[j - 1];
            j -= 1;
        }
        sorted[j] = (bone, weight);
    }
    let kept = &sorted[..pairs.len()];
    report.vertices += 1;
    report.max_influences = report.max_influences.max(kept.len());
    Some(normalized(kept, report))
}

/// Any number of pairs: merges duplicates, drops unusable weights, keeps the four largest.
#[inline(never)]
fn reduce_general(pairs: &mut [(u16, f32)], fallback: u16, report: &mut InfluenceReport) -> Influences {
    report.vertices += 1;
    // Sort by bone so duplicates are adjacent, then merge them.
    pairs.sort_unstable_by_key(|p| p.0);
    let mut unique = 0;
    for i in 0..pairs.len() {
        let (bone, weight) = pairs[i];
        if !(weight.is_finite() && weight > 0.0) {
            continue;
        }
        if unique > 0 && pairs[unique - 1].0 == bone {
            pairs[unique - 1].1 += weight;
        } else {
            pairs[unique] = (bone, weight);
            unique += 1;
        }
    }
    let pairs = &mut pairs[..unique];
    report.max_influences = report.max_influences.max(pairs.len());
    if pairs.is_empty() {
        report.unweighted += 1;
        return Influences { joints: [fallback, 0, 0, 0], weights: [1.0, 0.0, 0.0, 0.0] };
    }
    if pairs.len() > 4 {
        report.trimmed += 1;
    }
    pairs.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    normalized(&pairs[..pairs.len().min(4)], report)
}

/// The kept pairs (largest first, at most four) with weights divided by their sum.
#[inline]
fn normalized(kept: &[(u16, f32)], report: &mut InfluenceReport) -> Influences {
    let sum: f32 = kept.iter().map(|p| p.1).sum();
    if (sum - 1.0).abs() > 1e-3 {
        report.renormalized += 1;
    }
    let mut out = Influences { joints: [0; 4], weights: [0.0; 4] };
    for (slot, &(bone, weight)) in kept.iter().enumerate() {
        out.joints[slot] = bone;
        out.weights[slot] = weight / sum;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn keeps_four_largest_and_renormalises() {
        let mut report = InfluenceReport::default();
        let mut pairs = [(1, 0.1), (2, 0.3), (3, 0.05), (4, 0.25), (5, 0.3)];
        let inf = reduce_influences(&mut pairs, 0, &mut report);
        assert_eq!(inf.joints, [2, 5, 4, 1]);
        let kept = 0.3 + 0.3 + 0.25 + 0.1;
        assert!((inf.weights[0] - 0.3 / kept).abs() < 1e-6);
        assert!((inf.weights.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert_eq!((report.trimmed, report.renormalized, report.max_influences), (1, 1, 5));
    }

    #[test]
    fn duplicates_merge_and_bad_weights_drop() {
        let mut report = InfluenceReport::default();
        let mut pairs = [(7, 0.25), (7, 0.25), (3, f32::NAN), (2, -1.0), (9, 0.5)];
        let inf = reduce_influences(&mut pairs, 0, &mut report);
        assert_eq!(inf.joints[..2], [7, 9]);
        assert_eq!(inf.weights, [0.5, 0.5, 0.0, 0.0]);
        assert_eq!(report.changed(), 0);
    }

    #[test]
    fn unweighted_goes_to_fallback() {
        let mut report = InfluenceReport::default();
        let inf = reduce_influences(&mut [], 3, &mut report);
        assert_eq!(inf.joints[0], 3);
        assert_eq!(inf.weights, [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(report.unweighted, 1);
    }

    proptest! {
        #[test]
        fn the_common_case_reduces_like_the_general_reducer(
            pairs in proptest::collection::vec((0u16..6, -0.5f32..2.0), 0..6)
        ) {
            let mut fast_report = InfluenceReport::default();
            let mut slow_report = InfluenceReport::default();
            if let Some(fast) = reduce_distinct(&pairs, &mut fast_report) {
                let slow = reduce_general(&mut pairs.clone(), 0, &mut slow_report);
                prop_assert_eq!(fast, slow);
                prop_assert_eq!(fast_report, slow_report);
            }
        }

        #[test]
        fn weights_stay_normalised_and_order_independent(
            pairs in proptest::collection::vec((0u16..40, 0.0f32..10.0), 0..12), rotate in 0usize..12
        ) {
            let mut a = pairs.clone();
            let mut b = pairs.clone();
            if !b.is_empty() { let k = rotate % b.len(); b.rotate_left(k); b.reverse(); }
            let mut report = InfluenceReport::default();
            let ia = reduce_influences(&mut a, 0, &mut report);
            let ib = reduce_influences(&mut b, 0, &mut report);
            prop_assert!((ia.weights.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            prop_assert!(ia.weights.iter().all(|w| *w >= 0.0));
            prop_assert_eq!(ia.joints, ib.joints);
            for (x, y) in ia.weights.iter().zip(ib.weights.iter()) {
                prop_assert!((x - y).abs() < 1e-5);
            }
        }
    }
}
