//! The built-in demo character, made by code: a striped, tapering stalk creature on a chain of six bones with
//! smooth two-bone weights at every joint, two materials and two clips ("Sway" loops, "Curl" plays once), one of
//! them with a callback key. The viewer opens it when started without a file (the sample [`super::Sample::Demo`]);
//! tests use it as a known rig.

use std::f32::consts::{PI, TAU};

use glam::{Quat, Vec2, Vec3};

use crate::scene::{
    Asset, BoneTrack, CallbackKey, Clip, Curve, InfluenceReport, KeyTimes, Material, Mesh, Skeleton, Subset, Transform,
    reduce_influences,
};

/// Bones in the chain.
pub const BONES: usize = 6;
/// Length of each bone segment.
pub const SEGMENT: f32 = 1.0;
const RINGS: usize = 60;
const SIDES: usize = 24;

/// The demo as an asset (viewer frame: right-handed, Y up).
pub fn demo_asset() -> Asset {
    let mut asset = Asset::default();
    asset.skeleton = demo_skeleton();
    asset.materials = vec![
        Material { diffuse: [0.93, 0.55, 0.18, 1.0], ..Material::named("skin_orange") },
        Material { diffuse: [0.25, 0.45, 0.85, 1.0], ..Material::named("skin_blue") },
    ];
    asset.meshes = vec![demo_mesh()];
    asset.clips = vec![sway_clip(&asset.skeleton), curl_clip(&asset.skeleton)];
    asset
}

fn demo_skeleton() -> Skeleton {
    let mut s = Skeleton::default();
    for i in 0..BONES {
        let (name, parent, offset) =
            if i == 0 { ("root".to_owned(), None, 0.0) } else { (format!("segment{i}"), Some(i - 1), SEGMENT) };
        s.push(name, parent, Transform::from_translation_rotation(Vec3::new(0.0, offset, 0.0), Quat::IDENTITY));
    }
    s.recompute_inverse_bind();
    s
}

/// Height of the stalk including its domed top.
fn total_height() -> f32 {
    BONES as f32 * SEGMENT
}

/// Radius along the stalk: tapering, gently bulging per segment, closed to a dome at the top.
fn radius_at(s: f32) -> f32 {
    let taper = 0.42 * (1.0 - 0.55 * s);
    let bulge = 1.0 + 0.08 * (s * BONES as f32 * TAU).cos();
    let dome = if s > 0.9 { ((1.0 - s) / 0.1).clamp(0.0, 1.0).sqrt() } else { 1.0 };
    taper * bulge * dome
}

/// Two-bone weights: each vertex is shared between the bone whose segment it is in and the neighbour whose
/// joint is nearest, blended smoothly over half a segment either side of every joint.
fn weights_at(y: f32) -> Vec<(u16, f32)> {
    let x = (y / SEGMENT).clamp(0.0, BONES as f32 - 1e-3);
    let bone = x.floor() as usize;
    let frac = x - bone as f32;
    let mut pairs = vec![(bone as u16, 1.0)];
    if frac < 0.5 && bone > 0 {
        let t = 0.5 + frac; // 0.5 at the joint → 1 mid-segment
        let w = smoothstep(t);
        pairs = vec![(bone as u16, w), (bone as u16 - 1, 1.0 - w)];
    } else if frac > 0.5 && bone + 1 < BONES {
        let t = 1.5 - frac;
        let w = smoothstep(t);
        pairs = vec![(bone as u16, w), (bone as u16 + 1, 1.0 - w)];
    }
    pairs
}

fn smoothstep(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

fn demo_mesh() -> Mesh {
    let height = total_height();
    let mut mesh = Mesh { name: "stalk".into(), ..Mesh::default() };
    let mut report = InfluenceReport::default();
    let mut push_vertex = |mesh: &mut Mesh, p: Vec3, uv: Vec2| {
        let mut pairs = weights_at(p.y);
        let inf = reduce_influences(&mut pairs, 0, &mut report);
        mesh.positions.push(p);
        mesh.uvs.push(uv);
        mesh.joints.push(inf.joints);
        mesh.weights.push(inf.weights);
    };
    for ring in 0..=RINGS {
        let s = ring as f32 / RINGS as f32;
        let r = radius_at(s);
        for side in 0..=SIDES {
            let a = side as f32 / SIDES as f32 * TAU;
            push_vertex(
                &mut mesh,
                Vec3::new(r * a.cos(), s * height, -r * a.sin()),
                Vec2::new(side as f32 / SIDES as f32, 1.0 - s),
            );
        }
    }
    let bottom_center = mesh.positions.len() as u32;
    push_vertex(&mut mesh, Vec3::ZERO, Vec2::new(0.5, 1.0));

    // Stripes: the material alternates with the bone a ring belongs to; indices are grouped per material.
    let mut per_material: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
    let row = (SIDES + 1) as u32;
    for ring in 0..RINGS as u32 {
        let material = ((ring as f32 + 0.5) / RINGS as f32 * BONES as f32) as usize % 2;
        for side in 0..SIDES as u32 {
            let a = ring * row + side;
            let b = a + 1;
            let c = a + row;
            let d = c + 1;
            per_material[material].extend_from_slice(&[a, b, d]);
            // The top ring has radius 0 (the dome's apex): there the second triangle would have no area.
            if ring + 1 < RINGS as u32 {
                per_material[material].extend_from_slice(&[a, d, c]);
            }
        }
    }
    for side in 0..SIDES as u32 {
        per_material[0].extend_from_slice(&[bottom_center, side + 1, side]);
    }
    for (material, indices) in per_material.iter().enumerate() {
        mesh.subsets.push(Subset {
            material,
            first_index: mesh.indices.len() as u32,
            index_count: indices.len() as u32,
        });
        mesh.indices.extend_from_slice(indices);
    }
    mesh.compute_normals();
    mesh
}

/// Samples `rotation(bone, t)` at 30 fps into a clip.
fn sampled_clip(name: &str, skeleton: &Skeleton, duration: f32, rotation: impl Fn(usize, f32) -> Quat) -> Clip {
    let fps = 30.0;
    let frames = (duration * fps).round() as u32 + 1;
    let times: KeyTimes = (0..frames).map(|f| f as f32 / fps).collect();
    let tracks = (0..skeleton.len())
        .map(|bone| BoneTrack {
            bone_name: skeleton.names[bone].clone(),
            translation: Curve::default(),
            rotation: Curve::linear(times.clone(), times.iter().map(|&t| rotation(bone, t)).collect()),
            scale: Curve::default(),
        })
        .collect();
    Clip { name: name.into(), duration, frame_rate: fps, frame_count: frames, tracks, ..Clip::default() }
}

/// A travelling wave along the chain; loops seamlessly over 2 s.
fn sway_clip(skeleton: &Skeleton) -> Clip {
    let period = 2.0;
    let mut clip = sampled_clip("Sway", skeleton, period, |bone, t| {
        let phase = TAU * t / period;
        if bone == 0 {
            Quat::from_rotation_y(0.4 * phase.sin())
        } else {
            Quat::from_rotation_z(0.28 * (phase - bone as f32 * 0.6).sin())
        }
    });
    clip.callback_keys = vec![CallbackKey::new(0.5, "sway_left"), CallbackKey::new(1.5, "sway_right")];
    clip
}

/// Curls forward and back once over 1.5 s.
fn curl_clip(skeleton: &Skeleton) -> Clip {
    let duration = 1.5;
    sampled_clip("Curl", skeleton, duration, |bone, t| {
        let amount = (PI * t / duration).sin().powi(2);
        if bone == 0 {
            Quat::IDENTITY
        } else {
            Quat::from_rotation_x(0.45 * amount * (bone as f32 / BONES as f32 + 0.3))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::{bind_pose_error, skin_mesh, skinning_palette};
    use glam::Mat4;

    #[test]
    fn demo_is_a_valid_skinned_asset() {
        let a = demo_asset();
        a.skeleton.validate().unwrap();
        assert_eq!(a.skeleton.len(), BONES);
        let mesh = &a.meshes[0];
        mesh.validate(a.skeleton.len()).unwrap();
        assert_eq!(mesh.subsets.len(), 2);
        assert!(bind_pose_error(&a.skeleton).iter().all(|e| *e < 1e-5));
        // Smooth weights: many vertices have exactly two influences.
        let blended = mesh.weights.iter().filter(|w| w[1] > 0.05).count();
        assert!(blended > mesh.vertex_count() / 3, "{blended} of {}", mesh.vertex_count());
        for w in &mesh.weights {
            assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn bind_pose_skinning_reproduces_positions() {
        let a = demo_asset();
        let to_root = a.skeleton.bind_to_root();
        let mut palette = vec![Mat4::IDENTITY; a.skeleton.len()];
        skinning_palette(&a.skeleton.inverse_bind, &to_root, &mut palette).unwrap();
        let (mut p, mut n) = (Vec::new(), Vec::new());
        skin_mesh(&a.meshes[0], &palette, &mut p, &mut n);
        for (skinned, original) in p.iter().zip(&a.meshes[0].positions) {
            assert!(skinned.abs_diff_eq(*original, 1e-5));
        }
    }

    #[test]
    fn clips_cover_every_bone() {
        let a = demo_asset();
        assert_eq!(a.clips.len(), 2);
        for clip in &a.clips {
            assert_eq!(clip.tracks.len(), BONES);
            assert!(clip.tracks.iter().all(|t| t.rotation.len() == clip.frame_count as usize));
        }
        assert_eq!(a.clips[0].callback_keys.len(), 2);
    }
}
