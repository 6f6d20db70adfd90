//! From parsed tables to scene types: the skeleton's bind pose (the first skeleton frame), the animation clip
//! (one key per listed bone per frame, with the hold rule), and the render mesh's finishing touches (normals,
//! textures, influence warnings).

use glam::{EulerRot, Quat, Vec3};

use super::parse::{Frame, Parsed};
use crate::io::LoadOptions;
use crate::io::textures::find_texture;
use crate::scene::{BoneTrack, Clip, Curve, Material, Mesh, Position, SharedTimes, Skeleton, Transform, Warning};

/// SMD Euler angles (radians) as a rotation. The file's row-vector `Rx · Ry · Rz` is `Rz · Ry · Rx` with glam's
/// column vectors: X is applied first, then Y, then Z, all about the parent's fixed axes.
pub(super) fn smd_rotation(x: f32, y: f32, z: f32) -> Quat {
    Quat::from_euler(EulerRot::ZYX, z, y, x)
}

fn transform(values: &[f32; 6]) -> Transform {
    Transform::from_translation_rotation(
        Vec3::new(values[0], values[1], values[2]),
        smd_rotation(values[3], values[4], values[5]),
    )
}

/// Frames in time order; frames with the same number merge (later lines win). Each item is the frame number,
/// the line of its first `time` line and the entry ranges that make it up.
fn frames_in_order(frames: &[Frame], warnings: &mut Vec<Warning>) -> Vec<(i64, usize, Vec<std::ops::Range<usize>>)> {
    let mut sorted: Vec<&Frame> = frames.iter().collect();
    sorted.sort_by_key(|f| f.number);
    let mut out: Vec<(i64, usize, Vec<std::ops::Range<usize>>)> = Vec::with_capacity(sorted.len());
    for f in sorted {
        match out.last_mut() {
            Some(last) if last.0 == f.number => {
                warnings.push(Warning::new(
                    Position::Line(f.line),
                    format!(
                        "frame {} appears again (first on line {}); its values override the earlier ones",
                        f.number, last.1
                    ),
                ));
                last.2.push(f.entries.clone());
            }
            _ => out.push((f.number, f.line, vec![f.entries.clone()])),
        }
    }
    out
}

/// The skeleton: bind pose from the first skeleton frame (a reference SMD's `time 0`); bones it does not list
/// get the identity (reported). Inverse bind matrices come from the bind pose, since SMD vertices are in model
/// space at that pose.
pub(super) fn skeleton(p: &Parsed, warnings: &mut Vec<Warning>) -> Skeleton {
    let mut bind = vec![Transform::IDENTITY; p.names.len()];
    let mut listed = vec![false; p.names.len()];
    let frames = frames_in_order(&p.skeleton_frames, &mut Vec::new());
    let mut bind_line = 0;
    if let Some((_, line, ranges)) = frames.first() {
        bind_line = *line;
        for range in ranges {
            for e in p.bone_entries.get(range.clone()).unwrap_or_default() {
                if let Some(slot) = bind.get_mut(e.bone as usize) {
                    *slot = transform(&e.values);
                    listed[e.bone as usize] = true;
                }
            }
        }
    }
    let missing: Vec<&str> = listed.iter().zip(&p.names).filter(|(l, _)| !**l).map(|(_, n)| n.as_str()).collect();
    if !missing.is_empty() && !p.skeleton_frames.is_empty() {
        warnings.push(Warning::new(
            Position::Line(bind_line),
            format!(
                "{} bone(s) have no pose in the first skeleton frame and get the identity: {}",
                missing.len(),
                abbreviate(&missing)
            ),
        ));
    } else if p.skeleton_frames.is_empty() && !p.names.is_empty() {
        warnings.push(Warning::new(Position::File, "no `skeleton` block: every bone gets the identity bind pose"));
    }
    let mut s = Skeleton::default();
    for ((name, parent), local) in p.names.iter().zip(&p.parents).zip(bind) {
        s.push(name.clone(), *parent, local);
    }
    s.recompute_inverse_bind();
    s
}

fn abbreviate(names: &[&str]) -> String {
    const SHOWN: usize = 8;
    let mut s = names.iter().take(SHOWN).copied().collect::<Vec<_>>().join(", ");
    if names.len() > SHOWN {
        s.push_str(&format!(" and {} more", names.len() - SHOWN));
    }
    s
}

/// The clip of an animation SMD: one key per frame for each bone the frame lists. A bone a frame does not list
/// holds its previous value: a key repeating that value is added at the frame before the bone's next listed
/// frame, so linear interpolation stays flat across the gap. Before a bone's first listed frame the sampler
/// holds its first key. Times are `(frame − first frame) / fps`.
pub(super) fn clip(p: &Parsed, name: &str, fps: f32, warnings: &mut Vec<Warning>) -> Option<Clip> {
    let frames = frames_in_order(&p.skeleton_frames, warnings);
    let (first, last) = (frames.first()?.0, frames.last()?.0);
    let bones = p.names.len();
    let mut keys: Vec<Option<BoneKeys>> = vec![None; bones];
    // Index (into `frames`) of the last frame that listed each bone, and the frame that wrote it last (so a frame
    // listing a bone twice keeps one key).
    let mut last_listed = vec![usize::MAX; bones];
    let time_of = |number: i64| ((number - first) as f64 / f64::from(fps)) as f32;
    for (u, (number, _, ranges)) in frames.iter().enumerate() {
        let t = time_of(*number);
        for range in ranges {
            for e in p.bone_entries.get(range.clone()).unwrap_or_default() {
                let b = e.bone as usize;
                let Some(bone_keys) = keys.get_mut(b) else { continue };
                let bone_keys = bone_keys.get_or_insert_with(BoneKeys::default);
                let value = transform(&e.values);
                if last_listed[b] == u {
                    // Listed again in the same frame: the later line wins.
                    if let Some(v) = bone_keys.translations.last_mut() {
                        *v = value.translation;
                    }
                    if let Some(v) = bone_keys.rotations.last_mut() {
                        *v = value.rotation;
                    }
                    continue;
                }
                if last_listed[b] != usize::MAX && last_listed[b] + 1 < u {
                    let hold_time = time_of(frames[u - 1].0);
                    let (Some(&tv), Some(&rv)) = (bone_keys.translations.last(), bone_keys.rotations.last()) else {
                        continue;
                    };
                    bone_keys.push(hold_time, tv, rv);
                }
                bone_keys.push(t, value.translation, value.rotation);
                last_listed[b] = u;
            }
        }
    }
    // Bones listed in every frame (the usual animation SMD) share one time array.
    let mut shared = SharedTimes::default();
    let tracks: Vec<BoneTrack> = keys
        .into_iter()
        .enumerate()
        .filter_map(|(b, k)| Some((b, k?)))
        .map(|(b, k)| {
            let times = shared.share(&k.times);
            BoneTrack {
                bone_name: p.names.get(b).cloned().unwrap_or_default(),
                translation: Curve::linear(times.clone(), k.translations),
                rotation: Curve::linear(times, k.rotations),
                ..BoneTrack::default()
            }
        })
        .collect();
    if tracks.is_empty() {
        return None;
    }
    Some(Clip {
        name: name.to_owned(),
        duration: time_of(last),
        frame_rate: fps,
        frame_count: u32::try_from(last.saturating_sub(first).saturating_add(1)).unwrap_or(u32::MAX),
        tracks,
        callback_keys: Vec::new(),
        ..Clip::default()
    })
}

/// One bone's keys while the frames are read.
#[derive(Clone, Default)]
struct BoneKeys {
    times: Vec<f32>,
    translations: Vec<Vec3>,
    rotations: Vec<Quat>,
}

impl BoneKeys {
    fn push(&mut self, t: f32, translation: Vec3, rotation: Quat) {
        self.times.push(t);
        self.translations.push(translation);
        self.rotations.push(rotation);
    }
}

/// Fills normals the file left at zero (some exporters write `0 0 0`) from the faces around each vertex.
pub(super) fn fix_normals(mesh: &mut Mesh, warnings: &mut Vec<Warning>) {
    let zero = mesh.normals.iter().filter(|n| n.length_squared() < 1e-20).count();
    if zero == 0 {
        return;
    }
    let file_normals = std::mem::take(&mut mesh.normals);
    mesh.compute_normals();
    for (computed, file) in mesh.normals.iter_mut().zip(file_normals) {
        if file.length_squared() >= 1e-20 {
            *computed = file;
        }
    }
    warnings.push(Warning::new(
        Position::File,
        format!("{zero} vertices have a zero normal; computed from the faces instead"),
    ));
}

/// How the warning about textures not found begins (a model script drops it when its texture folders have
/// them all).
pub const MISSING_TEXTURES: &str = "no texture file found next to the model or in the texture folders";

/// Resolves each material's texture next to the file, then in the user's texture folders (the material name is
/// the texture name in SMD).
pub(super) fn resolve_textures(materials: &mut [Material], opts: &LoadOptions, warnings: &mut Vec<Warning>) {
    let mut missing = Vec::new();
    for m in materials.iter_mut() {
        let texture = find_texture(opts, &m.name, &[]);
        if texture.path.is_none() && !texture.searched.is_empty() {
            missing.push(m.name.clone());
        }
        m.texture = Some(texture);
    }
    if !missing.is_empty() {
        let names: Vec<&str> = missing.iter().map(String::as_str).collect();
        warnings.push(Warning::new(
            Position::File,
            format!("{MISSING_TEXTURES} for {} material(s): {}", missing.len(), abbreviate(&names)),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Mat4;

    #[test]
    fn euler_order_is_x_then_y_then_z() {
        let (x, y, z) = (0.3f32, -1.1f32, 2.0f32);
        let q = Mat4::from_quat(smd_rotation(x, y, z));
        let m = Mat4::from_rotation_z(z) * Mat4::from_rotation_y(y) * Mat4::from_rotation_x(x);
        assert!(q.abs_diff_eq(m, 1e-6));
        // The row-vector form: M = Rx · Ry · Rz; transposing gives the column-vector matrix.
        let row = Mat4::from_rotation_x(x).transpose()
            * Mat4::from_rotation_y(y).transpose()
            * Mat4::from_rotation_z(z).transpose();
        assert!(row.transpose().abs_diff_eq(m, 1e-6));
    }
}
