//! Rig diagnostics on assets built to contain one problem each: the problem is found, on the right subject,
//! and a clean rig reports no errors or warnings.

use bonescope::anim::diagnostics::{DiagnoseOptions, Finding, FindingKind, Severity, Subject, diagnose};
use bonescope::anim::{Pose, skin_mesh};
use bonescope::scene::samples::demo::{BONES, demo_asset};
use bonescope::scene::{
    Asset, BoneTrack, Curve, Format, InfluenceReport, Material, Mesh, TextureRef, Transform, reduce_influences,
};
use glam::{Mat4, Quat, Vec3};

fn run(asset: &Asset) -> Vec<Finding> {
    diagnose(asset, &DiagnoseOptions::default())
}

fn of_kind(findings: &[Finding], kind: FindingKind) -> Vec<&Finding> {
    findings.iter().filter(|f| f.kind == kind).collect()
}

fn serious(findings: &[Finding]) -> Vec<&Finding> {
    findings.iter().filter(|f| f.severity != Severity::Info).collect()
}

/// The demo character: a rig with nothing wrong.
fn clean_demo() -> Asset {
    demo_asset()
}

#[test]
fn clean_rig_reports_no_errors_or_warnings() {
    let findings = run(&clean_demo());
    assert!(serious(&findings).is_empty(), "{:#?}", serious(&findings));
    // What it does report: the stretch summary of both clips, well below the warning threshold.
    let clips = of_kind(&findings, FindingKind::ClipStretch);
    assert_eq!(clips.len(), 2);
    for f in clips {
        let ratio = f.value.unwrap();
        assert!(ratio > 1.0 && ratio < 1.5, "{f}");
        assert!(f.at.is_some() && f.edge.is_some());
    }
}

#[test]
fn the_demo_reports_no_degenerate_triangles() {
    // The demo closes its dome with a fan to the apex, not with a collapsed ring of zero-area triangles.
    assert!(of_kind(&run(&demo_asset()), FindingKind::DegenerateTriangle).is_empty());
}

#[test]
fn broken_offset_fails_the_bind_pose_check() {
    let mut asset = clean_demo();
    // Bone 3's offset moved by 0.25 units: its vertices sit 0.25 off at the bind pose.
    asset.skeleton.inverse_bind[3] = Mat4::from_translation(Vec3::new(0.25, 0.0, 0.0)) * asset.skeleton.inverse_bind[3];
    let findings = run(&asset);
    let bind = of_kind(&findings, FindingKind::BindPose);
    assert_eq!(bind.len(), 1, "{bind:#?}");
    assert_eq!(bind[0].subject, Subject::Bone(3));
    assert_eq!(bind[0].severity, Severity::Error);
    assert!((bind[0].value.unwrap() - 0.25).abs() < 1e-4);
    assert!(bind[0].message.contains("'segment3'") && bind[0].message.contains("0.25 units"), "{}", bind[0].message);
    // Errors sort first.
    assert_eq!(findings[0].kind, FindingKind::BindPose);
}

#[test]
fn swapped_offsets_name_the_bone_they_belong_to() {
    let mut asset = clean_demo();
    asset.skeleton.inverse_bind.swap(2, 4);
    let bind: Vec<Finding> = run(&asset).into_iter().filter(|f| f.kind == FindingKind::BindPose).collect();
    assert_eq!(bind.iter().map(|f| f.subject).collect::<Vec<_>>(), [Subject::Bone(2), Subject::Bone(4)]);
    // Bone 2 carries bone 4's offset: two segments (2 units) off.
    assert!((bind[0].value.unwrap() - 2.0).abs() < 1e-4);
    assert!(bind[0].message.contains("inverse bind of bone 4 'segment4'"), "{}", bind[0].message);
    assert!(bind[1].message.contains("inverse bind of bone 2 'segment2'"), "{}", bind[1].message);
}

#[test]
fn weights_not_summing_to_one_are_found() {
    let mut asset = clean_demo();
    asset.meshes[0].weights[100] = [0.5, 0.3, 0.0, 0.0];
    asset.meshes[0].influence_report =
        InfluenceReport { vertices: 1526, trimmed: 0, renormalized: 7, unweighted: 0, max_influences: 3 };
    let findings = run(&asset);
    let sums = of_kind(&findings, FindingKind::WeightSum);
    assert_eq!(sums.len(), 2, "{sums:#?}");
    assert_eq!(sums[0].subject, Subject::Vertex { mesh: 0, index: 100 });
    assert!((sums[0].value.unwrap() - 0.8).abs() < 1e-6);
    assert_eq!(sums[1].subject, Subject::Mesh(0));
    assert!(sums[1].message.contains("7 of 1526 vertices"), "{}", sums[1].message);
}

#[test]
fn trimmed_influences_recorded_by_the_loader_are_reported() {
    // A loader reducing six influences to four records it on the mesh.
    let mut asset = clean_demo();
    let mut report = InfluenceReport::default();
    for _ in 0..asset.meshes[0].vertex_count() {
        reduce_influences(&mut [(0, 1.0)], 0, &mut report);
    }
    for v in 0..3 {
        let mut pairs = [(0u16, 0.3), (1, 0.3), (2, 0.2), (3, 0.1), (4, 0.05), (5, 0.05)];
        let inf = reduce_influences(&mut pairs, 0, &mut report);
        asset.meshes[0].joints[v] = inf.joints;
        asset.meshes[0].weights[v] = inf.weights;
    }
    asset.meshes[0].influence_report = report;
    let findings = run(&asset);
    let trimmed = of_kind(&findings, FindingKind::TrimmedInfluences);
    assert_eq!(trimmed.len(), 1);
    assert_eq!(trimmed[0].subject, Subject::Mesh(0));
    assert_eq!(trimmed[0].severity, Severity::Warning);
    assert_eq!(trimmed[0].value, Some(3.0));
    assert!(trimmed[0].message.contains("(up to 6)"), "{}", trimmed[0].message);
    // The reduced weights themselves sum to 1: no per-vertex weight finding.
    assert!(of_kind(&findings, FindingKind::WeightSum).is_empty());
}

#[test]
fn unweighted_vertices_are_found() {
    let mut asset = clean_demo();
    asset.meshes[0].weights[42] = [0.0; 4];
    asset.meshes[0].influence_report.unweighted = 5;
    let findings = run(&asset);
    let unweighted = of_kind(&findings, FindingKind::UnweightedVertex);
    assert_eq!(unweighted.len(), 2, "{unweighted:#?}");
    assert_eq!(
        (unweighted[0].subject, unweighted[0].severity),
        (Subject::Vertex { mesh: 0, index: 42 }, Severity::Error)
    );
    assert_eq!((unweighted[1].subject, unweighted[1].severity), (Subject::Mesh(0), Severity::Warning));
    // A vertex with no weight collapses to the origin when skinned, so its edges "stretch" too: the bind pose
    // skin already moves it.
    let pose = Pose::bind(&asset.skeleton);
    let (mut p, mut n) = (Vec::new(), Vec::new());
    skin_mesh(&asset.meshes[0], &pose.palette, &mut p, &mut n);
    assert_eq!(p[42], Vec3::ZERO);
}

#[test]
fn bones_that_drive_nothing_are_reported() {
    let mut asset = clean_demo();
    // A helper bone at the tip nothing is weighted to.
    asset.skeleton.push("tip_helper", Some(BONES - 1), Transform::from_translation_rotation(Vec3::Y, Quat::IDENTITY));
    asset.skeleton.recompute_inverse_bind();
    let findings = run(&asset);
    let unused = of_kind(&findings, FindingKind::UnusedBone);
    assert_eq!(unused.len(), 1);
    assert_eq!((unused[0].subject, unused[0].severity), (Subject::Bone(BONES), Severity::Info));
    assert!(unused[0].message.contains("nor does any bone below it"), "{}", unused[0].message);
    // The clips have no track for it either.
    let unanimated = of_kind(&findings, FindingKind::UnanimatedBone);
    assert_eq!(unanimated.len(), 1);
    assert!(unanimated[0].message.contains("no track in any of the 2 clips"), "{}", unanimated[0].message);
}

#[test]
fn tracks_without_a_bone_and_bones_without_a_track() {
    let mut asset = clean_demo();
    let sway = &mut asset.clips[0];
    sway.tracks.push(BoneTrack { bone_name: "Bip01 Tail".into(), ..sway.tracks[1].clone() });
    sway.tracks.remove(2); // segment2 loses its track
    // Matching is case-insensitive and trims NULs, like the loaders: this one matches segment4, a duplicate.
    sway.tracks.push(BoneTrack { bone_name: "SEGMENT4\0".into(), ..sway.tracks[0].clone() });
    let findings = run(&asset);
    let unmatched = of_kind(&findings, FindingKind::UnmatchedTrack);
    assert_eq!(unmatched.len(), 1);
    assert_eq!(unmatched[0].subject, Subject::Track { clip: 0, track: 5 });
    assert!(unmatched[0].message.contains("'Bip01 Tail'"));
    let duplicate = of_kind(&findings, FindingKind::DuplicateTrack);
    assert_eq!(duplicate.len(), 1);
    assert_eq!(duplicate[0].subject, Subject::Track { clip: 0, track: 6 });
    let unanimated = of_kind(&findings, FindingKind::UnanimatedBone);
    assert_eq!(unanimated.len(), 1);
    assert_eq!(unanimated[0].subject, Subject::Bone(2));
    assert!(unanimated[0].message.contains("clip 'Sway'"), "{}", unanimated[0].message);
}

#[test]
fn mirrored_scale_in_bind_and_in_keys() {
    let mut asset = clean_demo();
    asset.skeleton.bind_local[4].scale = Vec3::new(-1.0, 1.0, 1.0);
    asset.skeleton.recompute_inverse_bind();
    asset.clips[1].tracks[1].scale = Curve::linear(vec![0.0, 1.0], vec![Vec3::ONE, Vec3::new(1.0, -1.0, 1.0)]);
    let findings = run(&asset);
    let mirrored = of_kind(&findings, FindingKind::MirroredScale);
    assert_eq!(
        mirrored.iter().map(|f| f.subject).collect::<Vec<_>>(),
        [Subject::Bone(4), Subject::Track { clip: 1, track: 1 }]
    );
    assert!(mirrored.iter().all(|f| f.severity == Severity::Warning));
    // Recomputed offsets keep the bind pose exact even when mirrored.
    assert!(of_kind(&findings, FindingKind::BindPose).is_empty());
}

#[test]
fn a_mirrored_bone_that_drives_nothing_is_only_information() {
    let mut asset = clean_demo();
    let mirrored = Transform::new(Vec3::Y, Quat::IDENTITY, Vec3::new(-1.0, 1.0, 1.0));
    asset.skeleton.push("tip_nub", Some(BONES - 1), mirrored);
    asset.skeleton.recompute_inverse_bind();
    let findings = run(&asset);
    let found = of_kind(&findings, FindingKind::MirroredScale);
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].subject, found[0].severity), (Subject::Bone(BONES), Severity::Info));
    assert!(found[0].message.contains("nothing flips"), "{}", found[0].message);
}

#[test]
fn non_uniform_scale_and_the_shear_it_causes() {
    let mut asset = clean_demo();
    // Bone 2 is squashed along X; bone 3 is rotated under it, so its to-root matrix shears.
    asset.skeleton.bind_local[2].scale = Vec3::new(2.0, 1.0, 1.0);
    asset.skeleton.bind_local[3].rotation = Quat::from_rotation_z(0.5);
    asset.skeleton.recompute_inverse_bind();
    let findings = run(&asset);
    let scale = of_kind(&findings, FindingKind::NonUniformScale);
    assert_eq!(scale.len(), 2, "{scale:#?}");
    assert_eq!((scale[0].subject, scale[0].severity), (Subject::Bone(3), Severity::Warning));
    assert!(scale[0].message.contains("sheared"));
    assert_eq!((scale[1].subject, scale[1].severity), (Subject::Bone(2), Severity::Info));
    assert!((scale[1].value.unwrap() - 1.0).abs() < 1e-6);
}

#[test]
fn degenerate_triangles_repeated_index_and_zero_area() {
    let mut asset = clean_demo();
    let mesh = &mut asset.meshes[0];
    let n = mesh.triangle_count();
    // Triangle 0 repeats a vertex; triangle 1 becomes a sliver on a line by moving its third corner.
    mesh.indices[2] = mesh.indices[0];
    let [a, b, c] = [mesh.indices[3], mesh.indices[4], mesh.indices[5]].map(|i| i as usize);
    let (pa, pb) = (mesh.positions[a], mesh.positions[b]);
    mesh.positions[c] = pa + (pb - pa) * 3.0;
    let findings = run(&asset);
    let degenerate = of_kind(&findings, FindingKind::DegenerateTriangle);
    // Both triangles are at one place of the mesh (the same bones): one defect standing for both.
    assert_eq!(degenerate.len(), 1, "{degenerate:#?}");
    let f = degenerate[0];
    assert_eq!(f.occurrences, 2, "{f:#?}");
    assert_eq!(f.subject, Subject::Triangle { mesh: 0, index: 0 });
    assert!(
        f.message.contains("repeats a vertex") && f.message.contains("and 1 more entries like it"),
        "{}",
        f.message
    );
    assert!(matches!(f.subject, Subject::Triangle { mesh: 0, index } if index < n));
}

#[test]
fn missing_texture_is_reported_found_texture_is_not() {
    let mut asset = clean_demo();
    asset.materials[0].texture = Some(TextureRef::new("C:\\art\\stalk_orange.tga", None));
    asset.materials[1].texture = Some(TextureRef::new("blue.png", Some("/tmp/blue.png".into())));
    let missing: Vec<Finding> = run(&asset).into_iter().filter(|f| f.kind == FindingKind::MissingTexture).collect();
    assert_eq!(missing.len(), 1);
    assert_eq!(missing[0].subject, Subject::Material(0));
    assert!(missing[0].message.contains("stalk_orange.tga"));
}

#[test]
fn invalid_data_is_reported_not_panicked_on() {
    let mut asset = clean_demo();
    asset.meshes[0].indices[7] = 1_000_000;
    asset.meshes[0].positions[3] = Vec3::NAN;
    let mut times = asset.clips[0].tracks[0].rotation.times.to_vec();
    times.swap(3, 4);
    asset.clips[0].tracks[0].rotation.times = times.into();
    let findings = run(&asset);
    let invalid = of_kind(&findings, FindingKind::InvalidData);
    let subjects: Vec<Subject> = invalid.iter().map(|f| f.subject).collect();
    assert!(subjects.contains(&Subject::Mesh(0)), "{invalid:#?}");
    assert!(subjects.contains(&Subject::Vertex { mesh: 0, index: 3 }));
    assert!(subjects.contains(&Subject::Track { clip: 0, track: 0 }));
    assert!(invalid.iter().any(|f| f.message.contains("key times go backwards at key 4")), "{invalid:#?}");
    assert!(invalid.iter().all(|f| f.severity == Severity::Error));
}

/// A copy of "Sway" in which bone 3 flies 100 units sideways at 0.5 s and comes back by 1 s.
fn tear_clip(asset: &Asset) -> bonescope::scene::Clip {
    let mut clip = asset.clips[0].clone();
    clip.name = "Tear".into();
    let bind = asset.skeleton.bind_local[3].translation;
    clip.tracks[3].translation =
        Curve::linear(vec![0.0, 0.5, 1.0], vec![bind, bind + Vec3::new(100.0, 0.0, 0.0), bind]);
    clip
}

#[test]
fn a_tearing_clip_is_found_with_its_worst_time_and_edge() {
    let mut asset = clean_demo();
    let tear = tear_clip(&asset);
    asset.clips.push(tear);
    let findings = run(&asset);
    // 100 units is far more than the demo's size: the skin flies off.
    let flies = of_kind(&findings, FindingKind::VertexFlies);
    assert_eq!(flies.len(), 1, "{findings:#?}");
    let worst = flies[0];
    assert_eq!(worst.severity, Severity::Error);
    let at = worst.at.unwrap();
    assert_eq!(at.clip, 2);
    assert_eq!(worst.clips.iter().map(|c| c.clip).collect::<Vec<_>>(), [2], "only the torn clip shows it");
    // 61 frames are sampled 30 times; the refinement finds the exact frame of the peak (frame 15).
    assert!((at.time - 0.5).abs() < 1e-4, "{worst}");
    assert!(worst.message.contains("clip 'Tear'") && worst.message.contains("(frame 15)"), "{}", worst.message);
    // The torn edge crosses the blend around joint 3 (y = 3): its ends follow bone 3 by different amounts.
    let mesh = &asset.meshes[0];
    let [a, b] = worst.edge.unwrap().map(|v| v as usize);
    for v in [a, b] {
        assert!((mesh.positions[v].y - 3.0).abs() <= 0.5 + 1e-4, "vertex {v} at {}", mesh.positions[v]);
    }
    let Subject::Triangle { mesh: 0, index } = worst.subject else { panic!("{worst}") };
    let tri = &mesh.indices[index * 3..index * 3 + 3];
    assert!(tri.contains(&(a as u32)) && tri.contains(&(b as u32)));
    // The reported ratio is the real one: skin that frame and measure the edge.
    let pose = Pose::from_clip(&asset.skeleton, &asset.clips[2], at.time);
    let (mut p, mut n) = (Vec::new(), Vec::new());
    skin_mesh(mesh, &pose.palette, &mut p, &mut n);
    let ratio = (p[a] - p[b]).length() / (mesh.positions[a] - mesh.positions[b]).length();
    assert!((ratio - worst.value.unwrap()).abs() < 1e-3 * ratio, "{ratio} vs {worst}");
    assert!(ratio > 100.0, "{ratio}");
    assert!(worst.extent.unwrap() > 1.0, "beyond the character's size: {worst}");
    // The sound clips stay Info, and nothing else is an error.
    let stretch = of_kind(&findings, FindingKind::ClipStretch);
    assert!(!stretch.is_empty() && stretch.iter().all(|f| f.severity == Severity::Info), "{stretch:#?}");
    assert_eq!(findings.iter().filter(|f| f.severity == Severity::Error).count(), 1, "{findings:#?}");
}

#[test]
fn stretch_in_the_current_pose() {
    let asset = clean_demo();
    let mut pose = Pose::bind(&asset.skeleton);
    pose.local[3].translation += Vec3::new(0.0, 0.0, 5.0);
    pose.update(&asset.skeleton);
    let opts = DiagnoseOptions { current_palette: Some(pose.palette.clone()), ..DiagnoseOptions::default() };
    let findings = diagnose(&asset, &opts);
    let stretched = of_kind(&findings, FindingKind::PoseStretch);
    // More than 100 edges stretch, at a few places (pairs of bones): one finding per place, standing for them.
    assert!(!stretched.is_empty() && stretched.len() < 20, "{stretched:#?}");
    let edges: usize = stretched.iter().map(|f| f.occurrences).sum();
    assert!(edges > 100, "{edges}");
    // Most severe first, and what moved furthest first within a severity; every one really above the threshold.
    assert!(stretched.windows(2).all(|w| w[0].severity <= w[1].severity));
    assert!(
        stretched.windows(2).all(|w| w[0].severity != w[1].severity || w[0].extent.unwrap() >= w[1].extent.unwrap()),
        "{stretched:#?}"
    );
    let ratios: Vec<f32> = stretched.iter().map(|f| f.value.unwrap()).collect();
    assert!(ratios.iter().all(|r| *r > opts.stretch_threshold));
    assert!(stretched.iter().all(|f| f.edge.is_some() && matches!(f.subject, Subject::Triangle { mesh: 0, .. })));
    // The bind pose itself stretches nothing.
    let bind =
        DiagnoseOptions { current_palette: Some(Pose::bind(&asset.skeleton).palette), ..DiagnoseOptions::default() };
    assert!(of_kind(&diagnose(&asset, &bind), FindingKind::PoseStretch).is_empty());
}

#[test]
fn bad_vertices_are_one_finding_per_place_and_the_cap_counts_places() {
    let mut asset = clean_demo();
    // 250 vertices on four bones, their one weight 0.5.
    let mesh = &mut asset.meshes[0];
    for (i, (w, j)) in mesh.weights.iter_mut().zip(mesh.joints.iter_mut()).take(250).enumerate() {
        *w = [0.5, 0.0, 0.0, 0.0];
        *j = [(i % 4) as u16, 0, 0, 0];
    }
    let sums: Vec<Finding> = run(&asset).into_iter().filter(|f| f.kind == FindingKind::WeightSum).collect();
    // One finding per bone, each standing for its vertices.
    assert_eq!(sums.len(), 4, "{sums:#?}");
    assert_eq!(sums.iter().map(|f| f.occurrences).sum::<usize>(), 250);
    // Past the cap the places are summed up, their vertices still counted.
    let opts = DiagnoseOptions { max_per_kind: 1, ..DiagnoseOptions::default() };
    let capped: Vec<Finding> =
        diagnose(&asset, &opts).into_iter().filter(|f| f.kind == FindingKind::WeightSum).collect();
    assert_eq!(capped.len(), 2, "{capped:#?}");
    assert_eq!(capped[1].subject, Subject::Asset);
    assert!(capped[1].summary && capped[1].count == sums.len() - 1);
    assert_eq!(capped.iter().map(|f| f.occurrences).sum::<usize>(), 250);
}

#[test]
fn huge_meshes_are_measured_on_a_sample_of_edges() {
    let mut asset = clean_demo();
    let tear = tear_clip(&asset);
    asset.clips = vec![tear];
    let opts = DiagnoseOptions { max_edges: 500, ..DiagnoseOptions::default() };
    let stretch: Vec<Finding> =
        diagnose(&asset, &opts).into_iter().filter(|f| f.kind == FindingKind::VertexFlies).collect();
    assert_eq!(stretch.len(), 1, "{stretch:#?}");
    assert!(stretch[0].message.contains("edges sampled"), "{}", stretch[0].message);
    // Even a sample of the edges catches a tear this size.
    assert_eq!(stretch[0].severity, Severity::Error);
}

#[test]
fn an_empty_asset_and_a_clip_only_asset_are_fine() {
    assert!(run(&Asset::new(Format::Psk)).is_empty());
    // An animation file alone: a skeleton and clips, no mesh.
    let mut anim = demo_asset();
    anim.meshes.clear();
    anim.materials = vec![Material::named("unused")];
    assert!(serious(&run(&anim)).is_empty(), "{:#?}", run(&anim));
    let mut anim_mesh = Mesh { name: "empty".into(), ..Mesh::default() };
    anim_mesh.subsets.clear();
    anim.meshes.push(anim_mesh);
    assert!(serious(&run(&anim)).is_empty());
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    fn finite_or_not() -> impl Strategy<Value = f32> {
        prop_oneof![8 => -10.0f32..10.0, 1 => Just(f32::NAN), 1 => Just(0.0f32), 1 => Just(1e30f32)]
    }

    prop_compose! {
        fn broken_asset()(
            parents in proptest::collection::vec(proptest::option::of(0usize..12), 0..10),
            extra_offsets in 0usize..3,
            scales in proptest::collection::vec(finite_or_not(), 30),
            positions in proptest::collection::vec((finite_or_not(), finite_or_not(), finite_or_not()), 0..30),
            indices in proptest::collection::vec(0u32..40, 0..60),
            joints in proptest::collection::vec(0u16..14, 0..30),
            weights in proptest::collection::vec(finite_or_not(), 0..30),
            track_names in proptest::collection::vec(0usize..14, 0..8),
            times in proptest::collection::vec(finite_or_not(), 0..5),
            frames in 0u32..80,
        ) -> Asset {
            let mut asset = Asset::new(Format::Smd);
            for (i, p) in parents.iter().enumerate() {
                let s = Vec3::new(scales[i * 3 % 30], scales[(i * 3 + 1) % 30], scales[(i * 3 + 2) % 30]);
                asset.skeleton.names.push(format!("b{i}"));
                asset.skeleton.parents.push(*p);
                asset.skeleton.bind_local.push(Transform::new(s, Quat::from_rotation_x(s.x), s));
            }
            asset.skeleton.recompute_inverse_bind();
            asset.skeleton.inverse_bind.truncate(asset.skeleton.len().saturating_sub(extra_offsets));
            let n = positions.len();
            let mut mesh = Mesh {
                positions: positions.iter().map(|&(x, y, z)| Vec3::new(x, y, z)).collect(),
                indices,
                ..Mesh::default()
            };
            mesh.joints = (0..n).map(|i| [joints.get(i).copied().unwrap_or(0), 1, 2, 3]).collect();
            mesh.weights = (0..n).map(|i| [weights.get(i).copied().unwrap_or(1.0), 0.25, 0.0, 0.0]).collect();
            mesh.normals = vec![Vec3::Y; n];
            mesh.uvs = vec![glam::Vec2::ZERO; n];
            asset.meshes.push(mesh);
            let tracks = track_names
                .iter()
                .map(|&b| BoneTrack {
                    bone_name: format!("b{b}"),
                    translation: Curve::linear(times.clone(), times.iter().map(|&t| Vec3::splat(t)).collect()),
                    rotation: Curve::linear(vec![0.0], vec![Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)]),
                    scale: Curve::default(),
                })
                .collect();
            asset.clips.push(bonescope::scene::Clip {
                name: "x".into(),
                duration: times.first().copied().unwrap_or(1.0),
                frame_rate: 30.0,
                frame_count: frames,
                tracks,
                callback_keys: Vec::new(),
                ..bonescope::scene::Clip::default()
            });
            asset
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn diagnose_never_panics_on_broken_data(asset in broken_asset()) {
            let pose = Pose::bind(&asset.skeleton);
            let opts = DiagnoseOptions { current_palette: Some(pose.palette), max_edges: 7, ..DiagnoseOptions::default() };
            let findings = diagnose(&asset, &opts);
            // Whatever is broken, findings stay sorted most severe first.
            prop_assert!(findings.windows(2).all(|w| w[0].severity <= w[1].severity));
        }
    }
}
