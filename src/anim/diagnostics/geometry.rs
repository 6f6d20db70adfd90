//! Checks on mesh data: per-vertex weights (and what the loader's influence reducer had to change), degenerate
//! triangles, and materials whose texture was not found. Each is placed in a region — the mesh and the bone a
//! vertex follows, the bones of a triangle, the texture's name — so a mesh with many bad vertices around one
//! bone is one finding, not one per vertex.

use crate::scene::Asset;

use super::rig::fmt_num;
use super::{Collector, DiagnoseOptions, Finding, FindingKind, Region, Severity, Subject, mesh_label};

/// Weights that do not sum to 1, vertices with no weight, and the loader's influence report (influences trimmed
/// to four, weights renormalised, vertices bound to a fallback bone).
pub(super) fn check_weights(asset: &Asset, opts: &DiagnoseOptions, out: &mut Collector) {
    for (m, mesh) in asset.meshes.iter().enumerate() {
        let bone = |index: usize| -> String {
            let (Some(j), Some(w)) = (mesh.joints.get(index), mesh.weights.get(index)) else { return String::new() };
            let best = (0..4).max_by(|&a, &b| w[a].total_cmp(&w[b])).unwrap_or(0);
            asset.skeleton.names.get(usize::from(j[best])).cloned().unwrap_or_default()
        };
        for (index, w) in mesh.weights.iter().enumerate().take(mesh.positions.len()) {
            let subject = Subject::Vertex { mesh: m, index };
            let sum: f32 = w.iter().sum();
            if w.iter().any(|x| !x.is_finite() || *x < 0.0) {
                // Out of range: skinning with a negative or non-finite weight throws the vertex off.
                out.push(
                    Finding::new(
                        Severity::Error,
                        FindingKind::InvalidData,
                        subject,
                        format!(
                            "vertex {index} of {} has a negative or non-finite weight ({}, {}, {}, {}): skinning \
                             throws it off",
                            mesh_label(asset, m),
                            w[0],
                            w[1],
                            w[2],
                            w[3]
                        ),
                    )
                    .with_value(sum)
                    .in_region(Region::new(Some(m), ["weights out of range".to_owned()])),
                );
            } else if sum == 0.0 {
                out.push(
                    Finding::new(
                        Severity::Error,
                        FindingKind::UnweightedVertex,
                        subject,
                        format!(
                            "vertex {index} of {} has no weight: skinning collapses it to the model origin",
                            mesh_label(asset, m)
                        ),
                    )
                    .in_region(Region::new(Some(m), ["no weight".to_owned()])),
                );
            } else if (sum - 1.0).abs() > opts.weight_sum_tolerance {
                out.push(
                    Finding::new(
                        Severity::Warning,
                        FindingKind::WeightSum,
                        subject,
                        format!(
                            "vertex {index} of {}: weights sum to {} instead of 1, so skinning scales it about the \
                             model origin",
                            mesh_label(asset, m),
                            fmt_num(sum)
                        ),
                    )
                    .with_value(sum)
                    .in_region(Region::new(Some(m), [bone(index)])),
                );
            }
        }
        let report = &mesh.influence_report;
        let of = if report.vertices > 0 { format!(" of {}", report.vertices) } else { String::new() };
        if report.trimmed > 0 {
            out.push(
                Finding::new(
                    Severity::Warning,
                    FindingKind::TrimmedInfluences,
                    Subject::Mesh(m),
                    format!(
                        "{}: {}{of} vertices had more than four influences in the file (up to {}); the smallest \
                         were dropped and the rest renormalised",
                        mesh_label(asset, m),
                        report.trimmed,
                        report.max_influences
                    ),
                )
                .with_value(report.trimmed as f32),
            );
        }
        // Trimmed vertices are renormalised too; only the rest say the file's own weights were off.
        if report.renormalized > report.trimmed {
            out.push(
                Finding::new(
                    Severity::Warning,
                    FindingKind::WeightSum,
                    Subject::Mesh(m),
                    format!(
                        "{}: up to {}{of} vertices had weights in the file that did not sum to 1 (renormalised on load)",
                        mesh_label(asset, m),
                        report.renormalized
                    ),
                )
                .with_value(report.renormalized as f32),
            );
        }
        if report.unweighted > 0 {
            // With one bone, every vertex follows it anyway.
            let severity = if asset.skeleton.len() > 1 { Severity::Warning } else { Severity::Info };
            out.push(
                Finding::new(
                    severity,
                    FindingKind::UnweightedVertex,
                    Subject::Mesh(m),
                    format!(
                        "{}: {}{of} vertices have no weight in the file; the loader bound them to a fallback bone",
                        mesh_label(asset, m),
                        report.unweighted
                    ),
                )
                .with_value(report.unweighted as f32),
            );
        }
    }
}

/// Triangles with a repeated vertex or (near) zero area: they draw nothing, break normals and tangents, and
/// often mark welding or export bugs.
pub(super) fn check_triangles(asset: &Asset, opts: &DiagnoseOptions, out: &mut Collector) {
    for (m, mesh) in asset.meshes.iter().enumerate() {
        for (index, tri) in mesh.indices.chunks_exact(3).enumerate() {
            let subject = Subject::Triangle { mesh: m, index };
            let [a, b, c] = [tri[0], tri[1], tri[2]];
            // The triangle's place: the bones its corners follow.
            let region = || {
                let bone = |v: u32| -> String {
                    let (Some(j), Some(w)) = (mesh.joints.get(v as usize), mesh.weights.get(v as usize)) else {
                        return String::new();
                    };
                    let best = (0..4).max_by(|&x, &y| w[x].total_cmp(&w[y])).unwrap_or(0);
                    asset.skeleton.names.get(usize::from(j[best])).cloned().unwrap_or_default()
                };
                Region::new(Some(m), [bone(a), bone(b), bone(c)])
            };
            if a == b || b == c || a == c {
                out.push(
                    Finding::new(
                        Severity::Warning,
                        FindingKind::DegenerateTriangle,
                        subject,
                        format!("triangle {index} of {} repeats a vertex ({a}, {b}, {c})", mesh_label(asset, m)),
                    )
                    .in_region(region()),
                );
                continue;
            }
            let corner = |i: u32| mesh.positions.get(i as usize).copied();
            // Indices out of range are reported by the structure check.
            let (Some(pa), Some(pb), Some(pc)) = (corner(a), corner(b), corner(c)) else { continue };
            let edges = [(pb - pa).length_squared(), (pc - pb).length_squared(), (pa - pc).length_squared()];
            let longest = edges[0].max(edges[1]).max(edges[2]);
            let shortest = edges[0].min(edges[1]).min(edges[2]);
            let twice_area = (pb - pa).cross(pc - pa).length();
            let ratio = twice_area / longest;
            if (ratio.is_nan() || ratio <= opts.degenerate_area_ratio)
                && pa.is_finite()
                && pb.is_finite()
                && pc.is_finite()
            {
                out.push(
                    Finding::new(
                        Severity::Warning,
                        FindingKind::DegenerateTriangle,
                        subject,
                        format!(
                            "triangle {index} of {} ({a}, {b}, {c}) has zero area: its corners {}",
                            mesh_label(asset, m),
                            if longest == 0.0 {
                                "are at one point"
                            } else if shortest == 0.0 {
                                "include two at one point"
                            } else {
                                "lie on a line"
                            }
                        ),
                    )
                    .with_value(twice_area * 0.5)
                    .in_region(region()),
                );
            }
        }
    }
}

/// Materials naming a texture that the loader did not find beside the file.
pub(super) fn check_materials(asset: &Asset, out: &mut Collector) {
    for (i, material) in asset.materials.iter().enumerate() {
        let Some(texture) = &material.texture else { continue };
        if !texture.is_available() && !texture.name.trim_matches(|c: char| c == '\0' || c.is_whitespace()).is_empty() {
            out.push(
                Finding::new(
                    Severity::Warning,
                    FindingKind::MissingTexture,
                    Subject::Material(i),
                    format!(
                        "material {i} '{}' uses texture '{}', which was not found next to the file or in the texture \
                         folders",
                        material.name, texture.name
                    ),
                )
                .in_region(Region::new(None, [texture.name.trim().to_lowercase()])),
            );
        }
    }
}
