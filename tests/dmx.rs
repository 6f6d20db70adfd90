//! DMX: the corpus's files (Blender Source Tools' test data), generated twins of SMD characters, and hostile
//! input.

mod common;

use bonescope::io::{LoadOptions, load_path};

#[test]
fn explore() {
    let Some(dir) = common::corpus() else { return };
    for f in ["dmx/bst_cloth_test_simple.dmx", "dmx/bst_flex_scout_morphs_low.dmx", "dmx/bst_walkn.dmx.gz"] {
        let a = load_path(&dir.join(f), &LoadOptions::default()).unwrap();
        eprintln!("{f}: bones {} {:?}", a.skeleton.len(), &a.skeleton.names[..a.skeleton.len().min(6)]);
        for m in &a.meshes {
            eprintln!("  mesh {} v {} t {} subsets {:?} morphs {} uvsets {} colors {}", m.name, m.vertex_count(), m.triangle_count(), m.subsets, m.morph_targets.len(), m.extra_uvs.len(), m.colors.len());
            eprintln!("  joints {:?} weights {:?}", &m.joints[..4.min(m.joints.len())], &m.weights[..4.min(m.weights.len())]);
        }
        for c in &a.clips {
            eprintln!("  clip {} dur {} fps {} frames {} tracks {} morph tracks {:?}", c.name, c.duration, c.frame_rate, c.frame_count, c.tracks.len(), c.morph_tracks.iter().map(|t| &t.target).collect::<Vec<_>>());
        }
        for r in &a.readings { eprintln!("  reading {r}"); }
        for w in &a.warnings { eprintln!("  warning {w}"); }
        eprintln!("  materials {:?}", a.materials.iter().map(|m| &m.name).collect::<Vec<_>>());
    }
}
