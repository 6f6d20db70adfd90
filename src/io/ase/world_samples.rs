//! World-space samples (GothicSourcer, Kerrax; see `dialect`) → the parent-relative tracks a clip holds.
//!
//! At every tick at which any node has a world sample, the world transform of every node is put together parents
//! first — the sample where the node has one, else its parent's world times its local transform (its other
//! channels, or the bind pose) — and each sampled node's local transform is `parent_world⁻¹ · world`, kept as a
//! key at that tick. So at every sample tick the bone's to-root matrix is exactly the transform the file states.
//! (World samples hold position and rotation; a node's scale channel — 1 in every real file — applies on top.)
//! This is how KrxImpExp, the Gothic community's importer, reads them (`__CalcAnimationTMs` builds world matrices
//! from the samples, `__ApplySingleTMAnim` multiplies by the inverse of the parent's), done in f64 so that long
//! chains stay within 1e-4 of the model's size.
//!
//! Between ticks the local values are interpolated (slerp of rotations, lerp of positions), not the world ones:
//! ZenGin, the engine these files were made for, compiles them into per-frame parent-relative samples and its
//! reimplementation OpenGothic interpolates those (`game/graphics/mesh/animmath.cpp`, `mix`: slerp the rotation,
//! lerp the position); and blending local values keeps every bone's length while it turns, where blending world
//! positions would cut corners and shorten the bones between frames.

use glam::{DMat4, DQuat, DVec3, Quat, Vec3};

use crate::anim::curve::{KeyGrid, sample_quat_in_grid, sample_vec3_in_grid};
use crate::io::{LoadError, LoadErrorKind};
use crate::scene::{Clip, Curve, Skeleton, Transform};

/// Which channels of a bone's track hold world values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct WorldChannels {
    pub translation: bool,
    pub rotation: bool,
}

impl WorldChannels {
    fn any(self) -> bool {
        self.translation || self.rotation
    }
}

/// The most keys the conversion makes (bones with world samples × sample ticks): far beyond any real file (a
/// 100-bone character with 10,000 frames makes a million), small enough that a crafted file cannot exhaust memory.
const MAX_KEYS: usize = 1 << 25;

/// Rewrites the world-valued channels of `clip` (per bone: `world`, tracks by `track_of_bone`) as parent-relative
/// keys at every world sample tick. Bones are in `skeleton` order (parents first).
pub(super) fn make_parent_relative(
    skeleton: &Skeleton,
    clip: &mut Clip,
    track_of_bone: &[Option<usize>],
    world: &[WorldChannels],
) -> Result<(), LoadError> {
    let n = skeleton.len();
    let track = |b: usize| track_of_bone.get(b).copied().flatten();
    let channels = |b: usize| world.get(b).copied().unwrap_or_default();
    let world_bones: Vec<usize> = (0..n).filter(|&b| channels(b).any() && track(b).is_some()).collect();
    if world_bones.is_empty() {
        return Ok(());
    }
    // Every tick any world channel has a key at (holds and padding included), ascending. Exporters that write
    // world samples write them at the same ticks for every node: then the first channel's times are all of them.
    let mut key_times: Vec<&[f32]> = Vec::new();
    for &b in &world_bones {
        let Some(t) = track(b).and_then(|t| clip.tracks.get(t)) else { continue };
        let c = channels(b);
        if c.translation {
            key_times.push(&t.translation.times);
        }
        if c.rotation {
            key_times.push(&t.rotation.times);
        }
    }
    let mut times: Vec<f32> = match key_times.split_first() {
        Some((first, rest)) if rest.iter().all(|t| t == first) => first.to_vec(),
        _ => {
            let mut all: Vec<f32> = key_times.concat();
            all.sort_by(f32::total_cmp);
            all
        }
    };
    times.retain(|t| t.is_finite());
    times.dedup();
    if world_bones.len().saturating_mul(times.len()) > MAX_KEYS {
        return Err(LoadError::whole_file(format!(
            "{} nodes with world samples at {} ticks make more keys than this loader converts ({MAX_KEYS})",
            world_bones.len(),
            times.len()
        ))
        .with_kind(LoadErrorKind::Unsupported));
    }

    let mut translations: Vec<Vec<Vec3>> = vec![Vec::new(); n];
    let mut rotations: Vec<Vec<Quat>> = vec![Vec::new(); n];
    for &b in &world_bones {
        translations[b].reserve_exact(times.len());
        rotations[b].reserve_exact(times.len());
    }
    // Key grids of every track's curves (translation, rotation, scale): sampling at each tick then finds its key
    // by arithmetic instead of a binary search (same keys, same values: `sample_in_grid`'s contract). The
    // search was a third of the conversion on a GothicSourcer file of 1,000 ticks.
    let grids: Vec<[KeyGrid; 3]> = (0..n)
        .map(|b| match track(b).and_then(|t| clip.tracks.get(t)) {
            Some(t) => [KeyGrid::of(&t.translation.times), KeyGrid::of(&t.rotation.times), KeyGrid::of(&t.scale.times)],
            None => [KeyGrid::Irregular; 3],
        })
        .collect();
    let mut world_now = vec![DMat4::IDENTITY; n];
    // The inverse of a parent's world matrix at the current tick, made when a child with world samples needs it.
    let mut inverse_now: Vec<Option<DMat4>> = vec![None; n];
    for &time in &times {
        inverse_now.fill(None);
        for b in 0..n {
            let parent = skeleton.parents[b];
            let parent_world = parent.and_then(|p| world_now.get(p).copied()).unwrap_or(DMat4::IDENTITY);
            let bind = skeleton.bind_local.get(b).copied().unwrap_or_default();
            let c = channels(b);
            let curves = track(b).and_then(|t| clip.tracks.get(t));
            let [grid_t, grid_r, grid_s] = grids.get(b).copied().unwrap_or([KeyGrid::Irregular; 3]);
            // The node's local transform from its parent-relative channels (or the bind pose).
            let local = match curves {
                Some(t) => Transform {
                    translation: if c.translation {
                        bind.translation
                    } else {
                        value(&t.translation, time, grid_t, bind.translation)
                    },
                    rotation: if c.rotation {
                        bind.rotation
                    } else {
                        rotation(&t.rotation, time, grid_r, bind.rotation)
                    },
                    scale: value(&t.scale, time, grid_s, bind.scale),
                },
                None => bind,
            };
            let Some(t) = curves.filter(|_| c.any()) else {
                world_now[b] = parent_world * to_dmat4(&local);
                continue;
            };
            // A channel without world samples takes what the node's local transform gives.
            let (default_rotation, default_translation) = if c.translation && c.rotation {
                (DQuat::IDENTITY, DVec3::ZERO)
            } else {
                let (_, r, t) = (parent_world * to_dmat4(&local)).to_scale_rotation_translation();
                (r, t)
            };
            let world_translation = if c.translation {
                value(&t.translation, time, grid_t, Vec3::ZERO).as_dvec3()
            } else {
                default_translation
            };
            let world_rotation = if c.rotation {
                rotation_f64(rotation(&t.rotation, time, grid_r, Quat::IDENTITY))
            } else {
                default_rotation
            };
            let stated = DMat4::from_rotation_translation(world_rotation, world_translation);
            let parent_inverse = match parent {
                Some(p) => *inverse_now[p].get_or_insert_with(|| parent_world.inverse()),
                None => DMat4::IDENTITY,
            };
            // World samples hold position and rotation; the node's own scale channel (1 in every real file)
            // applies on top, as it does in the pose.
            let (_, local_rotation, local_translation) = (parent_inverse * stated).to_scale_rotation_translation();
            let mut local_rotation = Quat::from_xyzw(
                local_rotation.x as f32,
                local_rotation.y as f32,
                local_rotation.z as f32,
                local_rotation.w as f32,
            )
            .normalize();
            if rotations[b].last().is_some_and(|p| p.dot(local_rotation) < 0.0) {
                local_rotation = -local_rotation;
            }
            translations[b].push(local_translation.as_vec3());
            rotations[b].push(local_rotation);
            world_now[b] = stated * DMat4::from_scale(local.scale.as_dvec3());
        }
    }
    for &b in &world_bones {
        let Some(t) = track(b).and_then(|t| clip.tracks.get_mut(t)) else { continue };
        t.translation = Curve::linear(times.clone(), std::mem::take(&mut translations[b]));
        t.rotation = Curve::linear(times.clone(), std::mem::take(&mut rotations[b]));
    }
    Ok(())
}

fn value(curve: &Curve<Vec3>, time: f32, grid: KeyGrid, default: Vec3) -> Vec3 {
    sample_vec3_in_grid(curve, time, grid).unwrap_or(default)
}

fn rotation(curve: &Curve<Quat>, time: f32, grid: KeyGrid, default: Quat) -> Quat {
    sample_quat_in_grid(curve, time, grid).unwrap_or(default)
}

fn rotation_f64(q: Quat) -> DQuat {
    DQuat::from_xyzw(f64::from(q.x), f64::from(q.y), f64::from(q.z), f64::from(q.w)).normalize()
}

fn to_dmat4(t: &Transform) -> DMat4 {
    DMat4::from_scale_rotation_translation(t.scale.as_dvec3(), rotation_f64(t.rotation), t.translation.as_dvec3())
}
