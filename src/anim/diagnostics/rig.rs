//! Checks on the skeleton and its binding to clips: data consistency, the bind-pose (offset matrix) check,
//! mirrored / non-uniform scale, bones that drive no vertex, and tracks that bind to no bone (or bones no
//! track animates).

use std::collections::HashMap;

use glam::{Mat3, Mat4, Vec3};

use crate::scene::{Asset, Curve, match_tracks, normalize_bone_name};

use super::{
    Collector, DiagnoseOptions, Finding, FindingKind, Region, Severity, Subject, bone_label, clip_label, mesh_label,
};

/// Arrays that disagree and numbers that are not numbers: everything else assumes these are sound.
pub(super) fn check_structure(asset: &Asset, out: &mut Collector) {
    let skeleton = &asset.skeleton;
    if let Err(e) = skeleton.validate() {
        out.push(Finding::new(Severity::Error, FindingKind::InvalidData, Subject::Asset, format!("skeleton: {e}")));
    }
    for (bone, local) in skeleton.bind_local.iter().enumerate() {
        let finite = local.translation.is_finite() && local.rotation.is_finite() && local.scale.is_finite();
        if !finite {
            out.push(Finding::new(
                Severity::Error,
                FindingKind::InvalidData,
                Subject::Bone(bone),
                format!("{}: the bind transform has non-finite numbers", bone_label(asset, bone)),
            ));
        }
    }
    for (bone, m) in skeleton.inverse_bind.iter().enumerate() {
        if !m.is_finite() {
            out.push(Finding::new(
                Severity::Error,
                FindingKind::InvalidData,
                Subject::Bone(bone),
                format!("{}: the offset (inverse bind) matrix has non-finite numbers", bone_label(asset, bone)),
            ));
        }
    }
    for (m, mesh) in asset.meshes.iter().enumerate() {
        if let Err(e) = mesh.validate(skeleton.len()) {
            out.push(Finding::new(Severity::Error, FindingKind::InvalidData, Subject::Mesh(m), e.to_string()));
        }
        if mesh.indices.len() % 3 != 0 {
            out.push(Finding::new(
                Severity::Error,
                FindingKind::InvalidData,
                Subject::Mesh(m),
                format!("{}: {} indices is not a whole number of triangles", mesh_label(asset, m), mesh.indices.len()),
            ));
        }
        for subset in &mesh.subsets {
            if !asset.materials.is_empty() && subset.material >= asset.materials.len() {
                out.push(Finding::new(
                    Severity::Error,
                    FindingKind::InvalidData,
                    Subject::Mesh(m),
                    format!(
                        "{}: a subset uses material {}, but there are {} materials",
                        mesh_label(asset, m),
                        subset.material,
                        asset.materials.len()
                    ),
                ));
            }
        }
        for (index, p) in mesh.positions.iter().enumerate() {
            if !p.is_finite() {
                out.push(
                    Finding::new(
                        Severity::Error,
                        FindingKind::InvalidData,
                        Subject::Vertex { mesh: m, index },
                        format!("vertex {index} of {} has a non-finite position", mesh_label(asset, m)),
                    )
                    .in_region(Region::new(Some(m), ["position".to_owned()])),
                );
            }
        }
    }
    for (c, clip) in asset.clips.iter().enumerate() {
        if !(clip.duration.is_finite() && clip.duration >= 0.0) {
            out.push(Finding::new(
                Severity::Error,
                FindingKind::InvalidData,
                Subject::Clip(c),
                format!("{}: duration {} is not a length of time", clip_label(asset, c), clip.duration),
            ));
        }
        for (t, track) in clip.tracks.iter().enumerate() {
            let problems = [
                ("translation", curve_problem("translation", &track.translation, |v| v.is_finite())),
                (
                    "rotation",
                    curve_problem("rotation", &track.rotation, |q| q.is_finite() && q.length_squared() > 1e-12),
                ),
                ("scale", curve_problem("scale", &track.scale, |v| v.is_finite())),
            ];
            for (channel, problem) in problems.into_iter().filter_map(|(c, p)| p.map(|p| (c, p))) {
                // One defect per bone and channel, however many clips carry it.
                let region = Region::new(None, [format!("track {}", track.bone_name), channel.to_owned()]);
                out.push(
                    Finding::new(
                        Severity::Error,
                        FindingKind::InvalidData,
                        Subject::Track { clip: c, track: t },
                        format!("{}, track '{}': {problem}", clip_label(asset, c), track.bone_name),
                    )
                    .in_clip(c, None)
                    .in_region(region),
                );
            }
        }
    }
}

/// What is wrong with one channel's keys, if anything.
fn curve_problem<T: Copy>(channel: &str, curve: &Curve<T>, valid: impl Fn(&T) -> bool) -> Option<String> {
    if curve.times.len() != curve.values.len() {
        return Some(format!("{channel}: {} key times for {} values", curve.times.len(), curve.values.len()));
    }
    if !curve.tangents.is_empty() && curve.tangents.len() != curve.values.len() {
        return Some(format!("{channel}: {} tangent pairs for {} keys", curve.tangents.len(), curve.values.len()));
    }
    if let Some(i) = curve.times.iter().position(|t| !t.is_finite()) {
        return Some(format!("{channel}: key {i} has a non-finite time"));
    }
    if let Some(i) = curve.times.windows(2).position(|w| w[1] < w[0]) {
        return Some(format!(
            "{channel}: key times go backwards at key {} ({} after {})",
            i + 1,
            curve.times[i + 1],
            curve.times[i]
        ));
    }
    if let Some(i) = curve.values.iter().position(|v| !valid(v)) {
        return Some(format!("{channel}: key {i} has a non-finite or zero value"));
    }
    None
}

/// The bind-pose check: `offset × to-root(bind)` must be the identity, or the skin moves before any animation
/// plays. When a failing bone's offset is exactly another bone's, the offsets are mapped to the wrong bones.
pub(super) fn check_bind_pose(asset: &Asset, opts: &DiagnoseOptions, out: &mut Collector) {
    let skeleton = &asset.skeleton;
    let to_root = skeleton.bind_to_root();
    let errors: Vec<(usize, f32, f32, Mat4)> = to_root
        .iter()
        .zip(&skeleton.inverse_bind)
        .enumerate()
        .filter_map(|(bone, (r, offset))| {
            let (linear, translation) = identity_error(&(*r * *offset));
            // Rounding in the translation grows with the bone's distance from the origin (large units).
            let reach = r.w_axis.truncate().length().max(1.0);
            let error = linear.max(translation / reach);
            (error.is_nan() || error > opts.bind_pose_tolerance).then_some((bone, linear, translation, *offset))
        })
        .collect();
    for (bone, linear, translation, offset) in errors {
        let mut message = format!(
            "{}: offset × bind to-root differs from the identity by {} in rotation/scale and {} units in \
             translation, so its vertices move away from the mesh at the bind pose",
            bone_label(asset, bone),
            fmt_num(linear),
            fmt_num(translation)
        );
        // A swapped mapping is worth naming; the search is quadratic, so only for rigs of sane size.
        if skeleton.len() <= 4096
            && let Some(other) = (0..to_root.len()).find(|&k| {
                k != bone && {
                    let (l, t) = identity_error(&(to_root[k] * offset));
                    l <= opts.bind_pose_tolerance && t / to_root[k].w_axis.truncate().length().max(1.0) <= 1e-3
                }
            })
        {
            message.push_str(&format!(
                "; its offset is the inverse bind of {} (offsets mapped to the wrong bones?)",
                bone_label(asset, other)
            ));
        }
        out.push(
            Finding::new(Severity::Error, FindingKind::BindPose, Subject::Bone(bone), message)
                .with_value(linear.max(translation)),
        );
    }
}

/// Largest deviation from the identity of the linear (3×3 and projective) part, and of the translation.
fn identity_error(m: &Mat4) -> (f32, f32) {
    let d = *m - Mat4::IDENTITY;
    let cols = d.to_cols_array_2d();
    let mut linear = 0.0f32;
    for col in &cols[..3] {
        for x in col {
            linear = max_nan(linear, x.abs());
        }
    }
    linear = max_nan(linear, cols[3][3].abs());
    let translation = cols[3][..3].iter().fold(0.0f32, |a, x| max_nan(a, x.abs()));
    (linear, translation)
}

/// `max` that keeps NaN (so a broken matrix fails the check instead of passing it).
fn max_nan(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() { f32::NAN } else { a.max(b) }
}

pub(super) fn fmt_num(x: f32) -> String {
    if !x.is_finite() {
        format!("{x}")
    } else if x != 0.0 && (x.abs() < 1e-3 || x.abs() >= 1e5) {
        format!("{x:.2e}")
    } else {
        format!("{x:.4}").trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

fn fmt_vec(v: Vec3) -> String {
    format!("({}, {}, {})", fmt_num(v.x), fmt_num(v.y), fmt_num(v.z))
}

/// Mirrored and non-uniform scale in the bind pose (local scales, and shear in to-root matrices where a
/// non-uniform parent scale meets a rotated child) and in clips' scale keys.
pub(super) fn check_scale(asset: &Asset, opts: &DiagnoseOptions, out: &mut Collector) {
    let skeleton = &asset.skeleton;
    let usage = bone_usage(asset);
    for (bone, local) in skeleton.bind_local.iter().enumerate() {
        let s = local.scale;
        if s.x * s.y * s.z < 0.0 {
            // A mirror flips triangles only if some vertex follows the bone or one below it.
            let drives_nothing = usage.as_ref().is_some_and(|u| !u.subtree.get(bone).copied().unwrap_or(false));
            let (severity, effect) = if drives_nothing {
                (Severity::Info, "no vertex is weighted to it or below it, so nothing flips")
            } else {
                (Severity::Warning, "triangle winding and normals flip for the vertices it drives")
            };
            out.push(
                Finding::new(
                    severity,
                    FindingKind::MirroredScale,
                    Subject::Bone(bone),
                    format!(
                        "{}: bind scale {} mirrors it and everything below it; {effect}",
                        bone_label(asset, bone),
                        fmt_vec(s)
                    ),
                )
                .with_value(s.x * s.y * s.z),
            );
        }
        if let Some(spread) = non_uniformity(s, opts.scale_tolerance) {
            let zero = s.abs().min_element() == 0.0;
            out.push(
                Finding::new(
                    if zero { Severity::Warning } else { Severity::Info },
                    FindingKind::NonUniformScale,
                    Subject::Bone(bone),
                    if zero {
                        format!("{}: bind scale {} collapses it to nothing", bone_label(asset, bone), fmt_vec(s))
                    } else {
                        format!("{}: bind scale {} is non-uniform", bone_label(asset, bone), fmt_vec(s))
                    },
                )
                .with_value(spread),
            );
        }
    }
    // Shear appears where a non-uniformly scaled parent has a rotated child; report it where it starts.
    let to_root = skeleton.bind_to_root();
    let mut sheared = vec![false; to_root.len()];
    for (bone, m) in to_root.iter().enumerate() {
        let shear = shear_of(&Mat3::from_mat4(*m));
        sheared[bone] = shear > opts.scale_tolerance;
        let parent_sheared =
            skeleton.parents.get(bone).copied().flatten().and_then(|p| sheared.get(p).copied()).unwrap_or(false);
        if sheared[bone] && !parent_sheared {
            out.push(
                Finding::new(
                    Severity::Warning,
                    FindingKind::NonUniformScale,
                    Subject::Bone(bone),
                    format!(
                        "{}: its bind to-root matrix is sheared (axes {}° off square) — a non-uniform scale above it \
                         meets its rotation; a local scale/rotation/translation cannot express that, so tools disagree \
                         on its children",
                        bone_label(asset, bone),
                        fmt_num(libm::asinf(shear).to_degrees())
                    ),
                )
                .with_value(shear),
            );
        }
    }
    for (c, clip) in asset.clips.iter().enumerate() {
        for (t, track) in clip.tracks.iter().enumerate() {
            let subject = Subject::Track { clip: c, track: t };
            let region = || Region::new(None, [format!("track {}", track.bone_name)]);
            if let Some((k, s)) = track.scale.values.iter().enumerate().find(|(_, s)| s.x * s.y * s.z < 0.0) {
                out.push(
                    Finding::new(
                        Severity::Warning,
                        FindingKind::MirroredScale,
                        subject,
                        format!(
                            "{}, track '{}': scale key {k} {} is mirrored (at {} s)",
                            clip_label(asset, c),
                            track.bone_name,
                            fmt_vec(*s),
                            fmt_num(track.scale.times.get(k).copied().unwrap_or(0.0))
                        ),
                    )
                    .in_clip(c, None)
                    .in_region(region()),
                );
            }
            if let Some((k, s)) =
                track.scale.values.iter().enumerate().find(|(_, s)| non_uniformity(**s, opts.scale_tolerance).is_some())
            {
                out.push(
                    Finding::new(
                        Severity::Info,
                        FindingKind::NonUniformScale,
                        subject,
                        format!(
                            "{}, track '{}': scale key {k} {} is non-uniform",
                            clip_label(asset, c),
                            track.bone_name,
                            fmt_vec(*s)
                        ),
                    )
                    .in_clip(c, None)
                    .in_region(region()),
                );
            }
        }
    }
}

/// `max/min − 1` of the absolute scale components when above the tolerance.
fn non_uniformity(s: Vec3, tolerance: f32) -> Option<f32> {
    let a = s.abs();
    let (lo, hi) = (a.min_element(), a.max_element());
    if lo == 0.0 && hi == 0.0 {
        return Some(f32::INFINITY);
    }
    let spread = if lo > 0.0 { hi / lo - 1.0 } else { f32::INFINITY };
    (spread > tolerance).then_some(spread)
}

/// Largest |cos| between two of the matrix's axes (0 for rotation × any scale without shear).
fn shear_of(m: &Mat3) -> f32 {
    let axes = [m.x_axis, m.y_axis, m.z_axis].map(|a| a.try_normalize());
    let [Some(x), Some(y), Some(z)] = axes else { return 0.0 };
    x.dot(y).abs().max(y.dot(z).abs()).max(z.dot(x).abs())
}

/// Which bones vertices are weighted to, and which bones have such a bone at or below them; `None` when the
/// asset has no vertices (an animation file), where usage means nothing.
struct BoneUsage {
    used: Vec<bool>,
    subtree: Vec<bool>,
}

fn bone_usage(asset: &Asset) -> Option<BoneUsage> {
    let bones = asset.skeleton.len();
    if bones == 0 || asset.vertex_count() == 0 {
        return None;
    }
    let mut used = vec![false; bones];
    for mesh in &asset.meshes {
        for (joints, weights) in mesh.joints.iter().zip(&mesh.weights) {
            for (j, w) in joints.iter().zip(weights) {
                if *w > 0.0
                    && let Some(u) = used.get_mut(usize::from(*j))
                {
                    *u = true;
                }
            }
        }
    }
    // Parents come first, so one backward pass carries usage up the tree.
    let mut subtree = used.clone();
    for bone in (0..bones).rev() {
        if subtree[bone]
            && let Some(Some(p)) = asset.skeleton.parents.get(bone)
            && *p < bone
        {
            subtree[*p] = true;
        }
    }
    Some(BoneUsage { used, subtree })
}

/// Bones no vertex is weighted to. Only meaningful when the asset has skinned vertices.
pub(super) fn check_bone_usage(asset: &Asset, out: &mut Collector) {
    let Some(usage) = bone_usage(asset) else { return };
    for bone in (0..usage.used.len()).filter(|&b| !usage.used[b]) {
        let why = if usage.subtree[bone] { " (bones below it do)" } else { ", nor does any bone below it" };
        out.push(Finding::new(
            Severity::Info,
            FindingKind::UnusedBone,
            Subject::Bone(bone),
            format!("{} influences no vertex{why}", bone_label(asset, bone)),
        ));
    }
}

/// Binds every clip's tracks to bones by name (the rule `ClipBinding` uses, [`match_tracks`]): tracks that
/// find no bone, second tracks for one bone, and bones some clip leaves at the bind pose. Each is one finding
/// per set of names: the tracks a clip animates that the skeleton lacks (clips with the same set — animation
/// files that all carry the same extra bones — are one finding), a duplicated bone, the bones left at the bind
/// pose by the same clips.
pub(super) fn check_tracks(asset: &Asset, out: &mut Collector) {
    if asset.clips.is_empty() {
        return;
    }
    let skeleton = &asset.skeleton;
    let mut by_name: HashMap<String, usize> = HashMap::with_capacity(skeleton.len());
    for (bone, name) in skeleton.names.iter().enumerate() {
        by_name.entry(normalize_bone_name(name)).or_insert(bone);
    }
    let mut missing: Vec<Vec<usize>> = vec![Vec::new(); skeleton.len()];
    for (c, clip) in asset.clips.iter().enumerate() {
        let mut track_of: Vec<Option<usize>> = vec![None; skeleton.len()];
        let matched = match_tracks(skeleton, clip.tracks.iter().map(|t| t.bone_name.as_str()));
        let mut unmatched: Vec<usize> = Vec::new();
        for (t, track) in clip.tracks.iter().enumerate() {
            let subject = Subject::Track { clip: c, track: t };
            // A track the rule left out whose name is a bone's is a second track for that bone.
            let bone = matched
                .get(t)
                .copied()
                .flatten()
                .map(|(bone, _)| bone)
                .or_else(|| by_name.get(&normalize_bone_name(&track.bone_name)).copied());
            match bone {
                None => unmatched.push(t),
                Some(bone) => match track_of[bone] {
                    None => track_of[bone] = Some(t),
                    Some(first) => out.push(
                        Finding::new(
                            Severity::Warning,
                            FindingKind::DuplicateTrack,
                            subject,
                            format!(
                                "{}: track {t} animates {} again (track {first} already does; only the first plays)",
                                clip_label(asset, c),
                                bone_label(asset, bone)
                            ),
                        )
                        .in_clip(c, None)
                        .in_region(Region::new(None, [bone_label(asset, bone)])),
                    ),
                },
            }
        }
        if let Some(&first) = unmatched.first() {
            let names: Vec<String> =
                unmatched.iter().filter_map(|&t| clip.tracks.get(t)).map(|t| t.bone_name.clone()).collect();
            let quoted = quoted_list(&names, 8);
            let message = if names.len() == 1 {
                format!(
                    "{}: track {first} animates {quoted}, which the skeleton does not have (ignored)",
                    clip_label(asset, c)
                )
            } else {
                format!(
                    "{}: {} tracks animate bones the skeleton does not have (ignored): {quoted}",
                    clip_label(asset, c),
                    names.len()
                )
            };
            out.push(
                Finding::new(
                    Severity::Warning,
                    FindingKind::UnmatchedTrack,
                    Subject::Track { clip: c, track: first },
                    message,
                )
                .with_value(names.len() as f32)
                .in_clip(c, None)
                .in_region(Region::new(None, names)),
            );
        }
        for (bone, track) in track_of.iter().enumerate() {
            if track.is_none() {
                missing[bone].push(c);
            }
        }
    }
    // Bones left at the bind pose by the same clips are one fact.
    let mut by_clips: Vec<(&Vec<usize>, Vec<usize>)> = Vec::new();
    for (bone, clips) in missing.iter().enumerate().filter(|(_, c)| !c.is_empty()) {
        match by_clips.iter_mut().find(|(c, _)| *c == clips) {
            Some((_, bones)) => bones.push(bone),
            None => by_clips.push((clips, vec![bone])),
        }
    }
    for (clips, bones) in by_clips {
        let names: Vec<String> = bones.iter().filter_map(|&b| skeleton.names.get(b).cloned()).collect();
        let who = if bones.len() == 1 {
            bone_label(asset, bones[0])
        } else {
            format!("{} bones ({})", bones.len(), quoted_list(&names, 8))
        };
        let verb = if bones.len() == 1 { "has" } else { "have" };
        let message = if clips.len() == asset.clips.len() && clips.len() > 1 {
            format!("{who} {verb} no track in any of the {} clips: kept at the bind pose", clips.len())
        } else {
            let clip_names: Vec<String> = clips.iter().take(5).map(|&c| clip_label(asset, c)).collect();
            let more = if clips.len() > 5 { format!(" and {} more", clips.len() - 5) } else { String::new() };
            format!("{who} {verb} no track in {}{more}: kept at the bind pose there", clip_names.join(", "))
        };
        let mut finding = Finding::new(Severity::Info, FindingKind::UnanimatedBone, Subject::Bone(bones[0]), message)
            .with_value(clips.len() as f32);
        finding.occurrences = bones.len();
        out.push(finding);
    }
}

/// `'a', 'b', 'c'` for at most `max` names, then "and N more".
fn quoted_list(names: &[String], max: usize) -> String {
    let shown: Vec<String> = names.iter().take(max).map(|n| format!("'{n}'")).collect();
    let more = if names.len() > max { format!(" and {} more", names.len() - max) } else { String::new() };
    format!("{}{more}", shown.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_short() {
        assert_eq!(fmt_num(0.25), "0.25");
        assert_eq!(fmt_num(3.0), "3");
        assert_eq!(fmt_num(1.5e-5), "1.50e-5");
        assert_eq!(fmt_num(0.0), "0");
    }

    #[test]
    fn identity_error_splits_linear_and_translation() {
        let m = Mat4::from_scale_rotation_translation(Vec3::new(1.0, 1.5, 1.0), glam::Quat::IDENTITY, Vec3::X * 4.0);
        let (l, t) = identity_error(&m);
        assert!((l - 0.5).abs() < 1e-6 && (t - 4.0).abs() < 1e-6);
        let nan = Mat4::from_cols_array(&[f32::NAN; 16]);
        assert!(identity_error(&nan).0.is_nan());
    }

    #[test]
    fn shear_is_zero_for_scaled_rotations_only() {
        let r = Mat3::from_quat(glam::Quat::from_rotation_z(0.7)) * Mat3::from_diagonal(Vec3::new(1.0, 3.0, 2.0));
        assert!(shear_of(&r) < 1e-6);
        // Non-uniform scale applied after a rotation (a parent's scale on a rotated child) shears.
        let s = Mat3::from_diagonal(Vec3::new(1.0, 3.0, 1.0)) * Mat3::from_quat(glam::Quat::from_rotation_z(0.7));
        assert!(shear_of(&s) > 0.1);
    }
}
