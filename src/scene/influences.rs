//! The influence reducer every loader uses: any number of (bone, weight) pairs for a vertex become at most four
//! influences whose weights sum to 1.
//!
//! Rules, so that results do not depend on the order a file lists its weights in:
//! - pairs naming the same bone are summed; non-finite or non-positive weights are dropped;
//! - the four largest weights are kept (ties: lower bone index first) and renormalised;
//! - a vertex with no usable weight is bound fully to the caller's fallback bone (the loader documents which:
//!   usually the vertex's parent bone in SMD, the root bone elsewhere) and counted as unweighted.

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
pub fn reduce_influences(pairs: &mut [(u16, f32)], fallback: u16, report: &mut InfluenceReport) -> Influences {
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
    let kept = &pairs[..pairs.len().min(4)];
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
