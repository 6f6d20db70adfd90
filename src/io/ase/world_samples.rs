//! World-space samples (GothicSourcer, Kerrax; see `dialect`) → the parent-relative tracks a clip holds.
//!
//! At every tick at which any node has a world sample, the world transform of every node is put together parents
//! first — the sample where the node has one, else its parent's world times its local transform (its other
//! channels, or the bind pose) — and each sampled node's local transform is `parent_world⁻¹ · world`, kept as a
//! key at that tick. So at every sample tick the bone's to-root matrix is exactly the transform the file states.
//! (World samples hold position and rotation; a node's scale channel — 1 in every real file — applies on top.)
//! This is how KrxImpExp, the Gothic community's importer, reads them (`__CalcAnimationTMs` builds world matrices
//! from the samples, `__ApplySingleTMAnim` multiplies by the inverse of the parent's).
//!
//! How it is computed: when every scale in the skeleton and its scale channels is uniform (all real files: the
//! exporters write scale 1), a world transform is a rotation, a translation and one scale factor, and the
//! products and the inverse above are a few f32 quaternion operations ([`Similarity`], which says why f32 is
//! enough); otherwise (a non-uniform scale somewhere, which a rotation and a translation alone cannot carry down
//! a chain) 4×4 f64 matrices are multiplied, inverted and decomposed, f64 so that long chains stay within 1e-4
//! of the model's size. A test holds the two to the same keys on the corpus. Every tick is independent of the
//! others, so long takes are converted in runs of ticks on all cores and joined in order. A channel whose keys
//! are exactly the sample ticks (every world channel in real files) is read by index instead of being sampled.
//!
//! Between ticks the local values are interpolated (slerp of rotations, lerp of positions), not the world ones:
//! ZenGin, the engine these files were made for, compiles them into per-frame parent-relative samples and its
//! reimplementation OpenGothic interpolates those (`game/graphics/mesh/animmath.cpp`, `mix`: slerp the rotation,
//! lerp the position); and blending local values keeps every bone's length while it turns, where blending world
//! positions would cut corners and shorten the bones between frames.

use std::ops::Range;

use glam::{DMat4, DQuat, Quat, Vec3};
use rayon::prelude::*;

use crate::anim::curve::{KeyGrid, Keyable, sample_in_grid};
use crate::io::{LoadError, LoadErrorKind};
use crate::scene::{BoneTrack, Clip, Curve, Interpolation, KeyTimes, Skeleton, Transform};

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

/// How world transforms are put together (see the module notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum WorldMath {
    /// Rotation, translation and one scale factor where every scale allows it, else matrices.
    Fastest,
    /// 4×4 matrices always (the reference the faster path is tested against).
    #[cfg_attr(not(test), allow(dead_code))]
    Matrices,
}

/// The most keys the conversion makes (bones with world samples × sample ticks): far beyond any real file (a
/// 100-bone character with 10,000 frames makes a million), small enough that a crafted file cannot exhaust memory.
const MAX_KEYS: usize = 1 << 25;

/// From this many keys (bones with world samples × ticks) the ticks are converted on all cores.
const PARALLEL_KEYS: usize = 1 << 15;

/// A scale counts as uniform when its factors differ by at most this fraction (f32 noise of a decomposed bind
/// matrix is a few 1e-7): the similarity path then uses their mean, within this fraction of the matrix path.
const UNIFORM_SCALE: f32 = 1e-5;

/// Rewrites the world-valued channels of `clip` (per bone: `world`, tracks by `track_of_bone`) as parent-relative
/// keys at every world sample tick. Bones are in `skeleton` order (parents first).
pub(super) fn make_parent_relative(
    skeleton: &Skeleton,
    clip: &mut Clip,
    track_of_bone: &[Option<usize>],
    world: &[WorldChannels],
    math: WorldMath,
) -> Result<(), LoadError> {
    convert(skeleton, clip, track_of_bone, world, math, tick_runs)
}

/// [`make_parent_relative`] with the ticks split into runs by `runs(ticks, world_bones)`.
fn convert(
    skeleton: &Skeleton,
    clip: &mut Clip,
    track_of_bone: &[Option<usize>],
    world: &[WorldChannels],
    math: WorldMath,
    runs: impl Fn(usize, usize) -> Vec<Range<usize>>,
) -> Result<(), LoadError> {
    let n = skeleton.len();
    let track = |b: usize| track_of_bone.get(b).copied().flatten();
    let channels = |b: usize| world.get(b).copied().unwrap_or_default();
    let world_bones: Vec<usize> = (0..n).filter(|&b| channels(b).any() && track(b).is_some()).collect();
    if world_bones.is_empty() {
        return Ok(());
    }
    let times = sample_ticks(&world_bones, |b| track(b).and_then(|t| clip.tracks.get(t)), channels);
    if world_bones.len().saturating_mul(times.len()) > MAX_KEYS {
        return Err(LoadError::whole_file(format!(
            "{} nodes with world samples at {} ticks make more keys than this loader converts ({MAX_KEYS})",
            world_bones.len(),
            times.len()
        ))
        .with_kind(LoadErrorKind::Unsupported));
    }

    let mut slot_of = vec![None; n];
    for (slot, &b) in world_bones.iter().enumerate() {
        slot_of[b] = Some(slot);
    }
    let mut bones: Vec<Bone> = (0..n)
        .map(|b| {
            let mut bone = Bone {
                parent: skeleton.parents.get(b).copied().flatten().filter(|&p| p < b),
                bind: skeleton.bind_local.get(b).copied().unwrap_or_default(),
                world: channels(b),
                channels: track(b).and_then(|t| clip.tracks.get(t)).map(|t| Channels::new(t, &times)),
                slot: slot_of[b],
                fixed_local: None,
                direct: false,
            };
            bone.fixed_local = bone.local_is_fixed().then(|| bone.local(0, times.first().copied().unwrap_or(0.0)));
            bone
        })
        .collect();
    // World-sampled bones whose keys need only their own samples and their parent's (see `by_similarity`).
    let fully_stated = |bone: &Bone| bone.slot.is_some() && bone.world.translation && bone.world.rotation;
    let direct: Vec<bool> = bones
        .iter()
        .map(|bone| {
            fully_stated(bone)
                && bone.parent.is_none_or(|p| bones.get(p).is_some_and(|p| fully_stated(p) && p.fixed_local.is_some()))
        })
        .collect();
    for (bone, direct) in bones.iter_mut().zip(direct) {
        bone.direct = direct;
    }
    let similarity = math == WorldMath::Fastest && bones.iter().all(Bone::scales_are_uniform);
    let convert = |ticks: Range<usize>| {
        if similarity {
            by_similarity(&bones, &times, ticks, world_bones.len())
        } else {
            by_matrices(&bones, &times, ticks, world_bones.len())
        }
    };
    let runs = runs(times.len(), world_bones.len());
    let parts: Vec<Keys> = if runs.len() > 1 {
        runs.into_par_iter().map(convert).collect()
    } else {
        runs.into_iter().map(convert).collect()
    };
    let keys = join(parts, world_bones.len());
    drop(bones);
    // Every converted channel is keyed at the same ticks: one array serves them all.
    let times: KeyTimes = times.into();
    for (&b, (translations, rotations)) in world_bones.iter().zip(keys) {
        let Some(t) = track(b).and_then(|t| clip.tracks.get_mut(t)) else { continue };
        t.translation = Curve::linear(times.clone(), translations);
        t.rotation = Curve::linear(times.clone(), rotations);
    }
    Ok(())
}

/// Every tick any world channel has a key at (holds and padding included), ascending, each once. Exporters that
/// write world samples write them at the same ticks for every node: then the first channel's times are all of
/// them.
fn sample_ticks<'a>(
    world_bones: &[usize],
    track: impl Fn(usize) -> Option<&'a BoneTrack>,
    channels: impl Fn(usize) -> WorldChannels,
) -> Vec<f32> {
    let mut key_times: Vec<&[f32]> = Vec::new();
    for &b in world_bones {
        let Some(t) = track(b) else { continue };
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
    times
}

/// The ranges of tick indices converted apart: one for short takes or one core, else a few per core (the
/// machine may be shared, so more runs than cores keep every core busy to the end).
fn tick_runs(ticks: usize, world_bones: usize) -> Vec<Range<usize>> {
    let threads = rayon::current_num_threads();
    if threads < 2 || ticks.saturating_mul(world_bones) < PARALLEL_KEYS {
        return std::iter::once(0..ticks).collect();
    }
    let count = (threads * 4).min(ticks.div_ceil(64)).max(1);
    let size = ticks.div_ceil(count);
    (0..ticks).step_by(size.max(1)).map(|start| start..(start + size).min(ticks)).collect()
}

/// Values of one channel at the conversion's ticks.
struct Sampled<'a, T> {
    curve: &'a Curve<T>,
    grid: KeyGrid,
    /// The curve's keys are exactly the ticks: tick `i` is key `i` (what sampling at a key's own time gives).
    on_ticks: bool,
    /// The value at every tick, where the curve holds one value (a scale channel of one sample, padded): what
    /// sampling gives anywhere (interpolating between equal values gives the value; rotations are normalised
    /// by the caller as sampled ones are).
    constant: Option<T>,
}

impl<'a, T: Keyable + PartialEq + Finite> Sampled<'a, T> {
    fn new(curve: &'a Curve<T>, ticks: &[f32]) -> Self {
        let on_ticks = curve.times[..] == *ticks && curve.values.len() == ticks.len();
        let values = &curve.values[..curve.len()];
        // Hermite tangents can swing between equal values; a single key or straight lines cannot.
        let flat = values.len() == 1 || curve.interpolation != Interpolation::Hermite;
        let constant =
            values.first().copied().filter(|&first| flat && first.finite() && values.iter().all(|&v| v == first));
        Self { curve, grid: KeyGrid::of(&curve.times), on_ticks, constant }
    }

    /// The same at every tick: a constant, or nothing (the caller's default).
    fn is_fixed(&self) -> bool {
        self.constant.is_some() || self.curve.is_empty()
    }

    #[inline]
    fn at(&self, i: usize, time: f32) -> Option<T> {
        if let Some(v) = self.constant {
            Some(v)
        } else if self.on_ticks {
            self.curve.values.get(i).copied()
        } else {
            sample_in_grid(self.curve, time, self.grid)
        }
    }
}

/// Channel values whose finiteness can be asked (interpolating between equal values gives the value back only
/// when it is finite).
trait Finite {
    fn finite(&self) -> bool;
}

impl Finite for Vec3 {
    fn finite(&self) -> bool {
        self.is_finite()
    }
}

impl Finite for Quat {
    fn finite(&self) -> bool {
        self.is_finite()
    }
}

/// A bone's track, ready to be read at the conversion's ticks.
struct Channels<'a> {
    translation: Sampled<'a, Vec3>,
    rotation: Sampled<'a, Quat>,
    scale: Sampled<'a, Vec3>,
}

impl<'a> Channels<'a> {
    fn new(track: &'a BoneTrack, ticks: &[f32]) -> Self {
        Self {
            translation: Sampled::new(&track.translation, ticks),
            rotation: Sampled::new(&track.rotation, ticks),
            scale: Sampled::new(&track.scale, ticks),
        }
    }
}

struct Bone<'a> {
    /// Only a parent earlier in the list (the skeleton is parents first).
    parent: Option<usize>,
    bind: Transform,
    world: WorldChannels,
    channels: Option<Channels<'a>>,
    /// Where its keys go among the bones with world samples; `None` for the others.
    slot: Option<usize>,
    /// The local transform, where it is the same at every tick (no track, or constant channels).
    fixed_local: Option<Transform>,
    /// Its keys follow from its own samples and its parent's alone (see [`by_similarity`]).
    direct: bool,
}

impl Bone<'_> {
    /// The stated translations and rotations at `ticks`, where both channels have a key at every tick.
    fn on_tick_samples(&self, ticks: Range<usize>) -> Option<(&[Vec3], &[Quat])> {
        let c = self.channels.as_ref()?;
        let (t, r) = (&c.translation, &c.rotation);
        if !(self.world.translation && self.world.rotation && t.on_ticks && r.on_ticks) {
            return None;
        }
        Some((t.curve.values.get(ticks.clone())?, r.curve.values.get(ticks)?))
    }

    /// Whether the channels [`Self::local`] reads are all constant.
    fn local_is_fixed(&self) -> bool {
        let Some(c) = &self.channels else { return true };
        (self.world.translation || c.translation.is_fixed())
            && (self.world.rotation || c.rotation.is_fixed())
            && c.scale.is_fixed()
    }

    /// The node's local transform from its parent-relative channels (or the bind pose) at tick `i`.
    #[inline]
    fn local(&self, i: usize, time: f32) -> Transform {
        if let Some(fixed) = self.fixed_local {
            return fixed;
        }
        let Some(c) = &self.channels else { return self.bind };
        let bind = self.bind;
        Transform {
            translation: if self.world.translation {
                bind.translation
            } else {
                c.translation.at(i, time).unwrap_or(bind.translation)
            },
            rotation: if self.world.rotation {
                bind.rotation
            } else {
                c.rotation.at(i, time).map_or(bind.rotation, Quat::normalize)
            },
            scale: c.scale.at(i, time).unwrap_or(bind.scale),
        }
    }

    /// The world translation and rotation the file states at tick `i` (where the channel holds world values).
    #[inline]
    fn stated(&self, channels: &Channels, i: usize, time: f32) -> (Option<Vec3>, Option<Quat>) {
        let translation = self.world.translation.then(|| channels.translation.at(i, time).unwrap_or(Vec3::ZERO));
        let rotation =
            self.world.rotation.then(|| channels.rotation.at(i, time).map_or(Quat::IDENTITY, Quat::normalize));
        (translation, rotation)
    }

    /// Whether the bind scale and every key of the scale channel are uniform (see [`UNIFORM_SCALE`]).
    fn scales_are_uniform(&self) -> bool {
        uniform(self.bind.scale).is_some()
            && self.channels.as_ref().is_none_or(|c| c.scale.curve.values.iter().all(|&s| uniform(s).is_some()))
    }
}

/// The one factor of a uniform, positive scale.
fn uniform(s: Vec3) -> Option<f32> {
    let (low, high) = (s.min_element(), s.max_element());
    (low > 0.0 && high.is_finite() && high - low <= UNIFORM_SCALE * high).then(|| (s.x + s.y + s.z) / 3.0)
}

/// The keys made for each bone with world samples over a run of ticks: translations and rotations.
type Keys = Vec<(Vec<Vec3>, Vec<Quat>)>;

fn new_keys(slots: usize, ticks: usize) -> Keys {
    (0..slots).map(|_| (Vec::with_capacity(ticks), Vec::with_capacity(ticks))).collect()
}

/// Appends a key, its rotation in the hemisphere of the previous one (so interpolation takes the short way); the
/// first one with the sign a rotation matrix's quaternion gets (see [`matrix_sign`]).
#[inline]
fn push_key(keys: &mut (Vec<Vec3>, Vec<Quat>), translation: Vec3, rotation: Quat) {
    let mut rotation = rotation.normalize();
    let flip = match keys.1.last() {
        Some(p) => p.dot(rotation) < 0.0,
        None => !matrix_sign(rotation),
    };
    if flip {
        rotation = -rotation;
    }
    keys.0.push(translation);
    keys.1.push(rotation);
}

/// Whether `q` has the sign glam's quaternion of a rotation matrix has (`from_mat3`, which the matrix path's
/// decomposition uses): of x, y (when x² + y² ≥ z² + w²) or z, w, the larger in magnitude is positive. A track's
/// keys then start with the sign they had when every key was a decomposed matrix.
fn matrix_sign(q: Quat) -> bool {
    let [x, y, z, w] = q.to_array().map(|c| c * c);
    let leading = if x + y >= z + w {
        if x >= y { q.x } else { q.y }
    } else if z >= w {
        q.z
    } else {
        q.w
    };
    leading >= 0.0
}

/// Runs of keys → one run. A run starts in the hemisphere its first rotation happened to be in: where that is
/// not the previous run's, the whole run is negated, which gives exactly the keys one pass over all ticks would
/// (each key's hemisphere follows its predecessor's, and negating both keeps the sign of their dot product).
fn join(parts: Vec<Keys>, slots: usize) -> Keys {
    let mut parts = parts.into_iter();
    let Some(mut all) = parts.next() else { return new_keys(slots, 0) };
    for part in parts {
        for ((translations, rotations), (more_translations, mut more_rotations)) in all.iter_mut().zip(part) {
            if let (Some(last), Some(first)) = (rotations.last(), more_rotations.first())
                && last.dot(*first) < 0.0
            {
                more_rotations.iter_mut().for_each(|q| *q = -*q);
            }
            translations.extend(more_translations);
            rotations.extend(more_rotations);
        }
    }
    all
}

fn rotation_f64(q: Quat) -> DQuat {
    DQuat::from_xyzw(f64::from(q.x), f64::from(q.y), f64::from(q.z), f64::from(q.w)).normalize()
}

/// A world transform made of a rotation, a translation and a uniform scale: `p ↦ translation + rotation·(scale·p)`,
/// in f32. Precision: a world-sampled bone's key depends on its own sample and its parent's only (nothing
/// accumulates down the chain), so its error is a few f32 roundings of the bone's own offset and rotation; a test
/// holds the keys to the f64 matrices' within 1e-6 of the model's size and 5e-7 per quaternion component.
#[derive(Clone, Copy)]
struct Similarity {
    rotation: Quat,
    translation: Vec3,
    scale: f32,
}

impl Similarity {
    const IDENTITY: Self = Self { rotation: Quat::IDENTITY, translation: Vec3::ZERO, scale: 1.0 };

    /// `self · local` (scales checked uniform beforehand; the mean factor is used).
    #[inline]
    fn then(&self, local: &Transform) -> Self {
        let scale = uniform(local.scale).unwrap_or(1.0);
        Self {
            rotation: (self.rotation * local.rotation).normalize(),
            translation: self.translation + self.rotation * (local.translation * self.scale),
            scale: self.scale * scale,
        }
    }

    /// Rotation and translation of `self⁻¹ · (rotation, translation)` (its scale, `1 / self.scale`, is dropped as
    /// the matrix path drops it).
    #[inline]
    fn relative(&self, rotation: Quat, translation: Vec3) -> (Quat, Vec3) {
        let inverse = self.rotation.conjugate();
        (inverse * rotation, inverse * (translation - self.translation) / self.scale)
    }
}

/// The conversion over `ticks` with [`Similarity`] transforms.
///
/// A bone whose world position and rotation are both sampled, under a parent that is one too (with a constant
/// scale) or under no parent, needs nothing but its own samples and its parent's: its keys are made bone by bone
/// along the ticks (reading two arrays in order). Only where some other world-sampled bone remains (under a node
/// without samples, or with one channel sampled) are the world transforms of all nodes put together tick by tick;
/// the keys are the same either way (the same operations on the same values).
fn by_similarity(bones: &[Bone], times: &[f32], ticks: Range<usize>, slots: usize) -> Keys {
    let mut keys = new_keys(slots, ticks.len());
    let stated_world = |bone: &Bone, i: usize, time: f32| -> Option<Similarity> {
        let (Some(channels), Some(fixed)) = (&bone.channels, bone.fixed_local) else { return None };
        let (Some(translation), Some(rotation)) = bone.stated(channels, i, time) else { return None };
        Some(Similarity { rotation, translation, scale: uniform(fixed.scale).unwrap_or(1.0) })
    };
    let mut rest = false;
    for bone in bones {
        let Some(slot) = bone.slot else { continue };
        if !bone.direct {
            rest = true;
            continue;
        }
        let parent = bone.parent.and_then(|p| bones.get(p));
        // Samples at every tick, the bone's and its parent's (every bone of a real file): the same operations
        // on the arrays read in order.
        if let Some((translations, rotations)) = bone.on_tick_samples(ticks.clone()) {
            let parent_samples = match parent {
                Some(p) => match (p.on_tick_samples(ticks.clone()), p.fixed_local) {
                    (Some(samples), Some(fixed)) => Some((samples, uniform(fixed.scale).unwrap_or(1.0))),
                    _ => None,
                },
                None => Some(((&[][..], &[][..]), 1.0)),
            };
            if let Some(((parent_translations, parent_rotations), parent_scale)) = parent_samples {
                for (k, (&translation, &rotation)) in translations.iter().zip(rotations).enumerate() {
                    let parent_world = match (parent_translations.get(k), parent_rotations.get(k)) {
                        (Some(&t), Some(&r)) => {
                            Similarity { rotation: r.normalize(), translation: t, scale: parent_scale }
                        }
                        _ => Similarity::IDENTITY,
                    };
                    let (local_rotation, local_translation) = parent_world.relative(rotation.normalize(), translation);
                    push_key(&mut keys[slot], local_translation, local_rotation);
                }
                continue;
            }
        }
        for i in ticks.clone() {
            let time = times[i];
            let parent_world = parent.and_then(|p| stated_world(p, i, time)).unwrap_or(Similarity::IDENTITY);
            let Some(channels) = &bone.channels else { break };
            let (translation, rotation) = bone.stated(channels, i, time);
            let (local_rotation, local_translation) =
                parent_world.relative(rotation.unwrap_or(Quat::IDENTITY), translation.unwrap_or(Vec3::ZERO));
            push_key(&mut keys[slot], local_translation, local_rotation);
        }
    }
    if !rest {
        return keys;
    }
    let mut world_now = vec![Similarity::IDENTITY; bones.len()];
    for i in ticks {
        let time = times[i];
        for (b, bone) in bones.iter().enumerate() {
            let parent_world = bone.parent.map_or(Similarity::IDENTITY, |p| world_now[p]);
            let local = bone.local(i, time);
            let (Some(slot), Some(channels)) = (bone.slot, &bone.channels) else {
                world_now[b] = parent_world.then(&local);
                continue;
            };
            // A channel without world samples takes what the node's local transform gives.
            let (translation, rotation) = match bone.stated(channels, i, time) {
                (Some(t), Some(r)) => (t, r),
                (t, r) => {
                    let from_local = parent_world.then(&local);
                    (t.unwrap_or(from_local.translation), r.unwrap_or(from_local.rotation))
                }
            };
            if !bone.direct {
                let (local_rotation, local_translation) = parent_world.relative(rotation, translation);
                push_key(&mut keys[slot], local_translation, local_rotation);
            }
            // World samples hold position and rotation; the node's own scale channel (1 in every real file)
            // applies on top, as it does in the pose.
            world_now[b] = Similarity { rotation, translation, scale: uniform(local.scale).unwrap_or(1.0) };
        }
    }
    keys
}

fn to_dmat4(t: &Transform) -> DMat4 {
    DMat4::from_scale_rotation_translation(t.scale.as_dvec3(), rotation_f64(t.rotation), t.translation.as_dvec3())
}

/// The conversion over `ticks` with 4×4 matrices (any scale).
fn by_matrices(bones: &[Bone], times: &[f32], ticks: Range<usize>, slots: usize) -> Keys {
    let mut keys = new_keys(slots, ticks.len());
    let mut world_now = vec![DMat4::IDENTITY; bones.len()];
    // The inverse of a parent's world matrix at the current tick, made when a child with world samples needs it.
    let mut inverse_now: Vec<Option<DMat4>> = vec![None; bones.len()];
    for i in ticks {
        let time = times[i];
        inverse_now.fill(None);
        for (b, bone) in bones.iter().enumerate() {
            let parent_world = bone.parent.map_or(DMat4::IDENTITY, |p| world_now[p]);
            let local = bone.local(i, time);
            let (Some(slot), Some(channels)) = (bone.slot, &bone.channels) else {
                world_now[b] = parent_world * to_dmat4(&local);
                continue;
            };
            let (translation, rotation) = match bone.stated(channels, i, time) {
                (Some(t), Some(r)) => (t.as_dvec3(), rotation_f64(r)),
                (t, r) => {
                    let (_, from_local_rotation, from_local_translation) =
                        (parent_world * to_dmat4(&local)).to_scale_rotation_translation();
                    (t.map_or(from_local_translation, Vec3::as_dvec3), r.map_or(from_local_rotation, rotation_f64))
                }
            };
            let stated = DMat4::from_rotation_translation(rotation, translation);
            let parent_inverse = match bone.parent {
                Some(p) => *inverse_now[p].get_or_insert_with(|| parent_world.inverse()),
                None => DMat4::IDENTITY,
            };
            let (_, r, t) = (parent_inverse * stated).to_scale_rotation_translation();
            push_key(&mut keys[slot], t.as_vec3(), Quat::from_xyzw(r.x as f32, r.y as f32, r.z as f32, r.w as f32));
            world_now[b] = stated * DMat4::from_scale(local.scale.as_dvec3());
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::LoadOptions;
    use crate::io::ase::{build, parse};
    use crate::scene::Asset;
    use glam::Vec4;

    /// A chain of four bones, each with world samples at 300 ticks, whose rotations go round several times (so
    /// the hemisphere rule flips keys all along) and whose positions wander.
    fn chain() -> (Skeleton, Clip, Vec<Option<usize>>, Vec<WorldChannels>) {
        let mut skeleton = Skeleton::default();
        let mut clip = Clip::default();
        let times: Vec<f32> = (0..300).map(|i| i as f32 / 30.0).collect();
        for b in 0..4usize {
            let bind = Transform { translation: Vec3::new(0.0, 0.0, 10.0), ..Transform::IDENTITY };
            skeleton.push(format!("b{b}"), b.checked_sub(1), bind);
            let rotations = times
                .iter()
                .map(|&t| Quat::from_axis_angle(Vec3::new(1.0, b as f32, 2.0).normalize(), t * (1.0 + b as f32)))
                .collect();
            let translations = times.iter().map(|&t| Vec3::new(t.sin(), t.cos() * b as f32, 10.0 * b as f32)).collect();
            clip.tracks.push(BoneTrack {
                bone_name: format!("b{b}"),
                translation: Curve::linear(times.clone(), translations),
                rotation: Curve::linear(times.clone(), rotations),
                ..BoneTrack::default()
            });
        }
        let world = vec![WorldChannels { translation: true, rotation: true }; 4];
        (skeleton, clip, (0..4).map(Some).collect(), world)
    }

    #[test]
    fn runs_of_ticks_join_to_what_one_pass_gives() {
        let (skeleton, clip, tracks, world) = chain();
        // Also with the second bone's position parent-relative: it and its child are then put together tick by
        // tick, the last bone still bone by bone.
        let mut partly = world.clone();
        partly[1].translation = false;
        for (world, math) in [
            (&world, WorldMath::Fastest),
            (&world, WorldMath::Matrices),
            (&partly, WorldMath::Fastest),
            (&partly, WorldMath::Matrices),
        ] {
            let mut one = clip.clone();
            convert(&skeleton, &mut one, &tracks, world, math, |ticks, _| std::iter::once(0..ticks).collect()).unwrap();
            let flips = one.tracks[3].rotation.values.windows(2).filter(|w| w[0].dot(w[1]) < 0.9).count();
            let mut runs = clip.clone();
            let split = |ticks: usize, _| (0..ticks).step_by(37).map(|s| s..(s + 37).min(ticks)).collect();
            convert(&skeleton, &mut runs, &tracks, world, math, split).unwrap();
            assert_eq!(format!("{:?}", runs.tracks), format!("{:?}", one.tracks), "{math:?}");
            // The keys are parent-relative and stay in one hemisphere from key to key.
            assert_eq!(flips, 0, "{math:?}");
            assert_eq!(one.tracks[3].rotation.values.len(), 300);
        }
    }

    /// Both ways of putting world transforms together give the same keys, whichever bones are converted bone by
    /// bone and which tick by tick.
    #[test]
    fn similarities_give_the_matrices_keys_on_a_chain() {
        let (skeleton, clip, tracks, world) = chain();
        let mut partly = world.clone();
        partly[1].translation = false;
        for world in [&world, &partly] {
            let mut fast = clip.clone();
            convert(&skeleton, &mut fast, &tracks, world, WorldMath::Fastest, tick_runs).unwrap();
            let mut reference = clip.clone();
            convert(&skeleton, &mut reference, &tracks, world, WorldMath::Matrices, tick_runs).unwrap();
            for (a, b) in fast.tracks.iter().zip(&reference.tracks) {
                for (x, y) in a.translation.values.iter().zip(&b.translation.values) {
                    assert!((*x - *y).abs().max_element() < 2e-5, "{x} vs {y}");
                }
                for (x, y) in a.rotation.values.iter().zip(&b.rotation.values) {
                    assert!((Vec4::from(*x) - Vec4::from(*y)).abs().max_element() < 5e-7, "{x} vs {y}");
                }
            }
        }
    }

    /// Loads an ASE/ASC file with world samples converted one way or the other.
    fn load_with(bytes: &[u8], math: WorldMath) -> Asset {
        let text = crate::io::text::decode_text(bytes);
        build::build_with(parse::parse(&text).unwrap(), &LoadOptions::default(), math).unwrap()
    }

    /// The similarity path against the matrix path on every Gothic ASC animation and body of the corpus: every
    /// key's translation within 1e-6 of the model's size (the f32 path is a few f32 roundings of values up to a
    /// few hundred units off: 2e-7 of the size at most on the corpus) and its rotation within 5e-7 per quaternion
    /// component (about 1e-6 rad; 1.2e-7 on the corpus), in the same hemisphere; at least ten animations really
    /// converted.
    #[test]
    fn similarities_give_the_matrices_keys_on_the_corpus() {
        let Some(dir) = std::env::var_os("BONESCOPE_CORPUS") else { return };
        let mut stack = vec![std::path::Path::new(&dir).join("mds")];
        let mut files = Vec::new();
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).unwrap().flatten() {
                let p = entry.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("asc")) {
                    files.push(p);
                }
            }
        }
        let mut converted = 0;
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            let (fast, reference) = (load_with(&bytes, WorldMath::Fastest), load_with(&bytes, WorldMath::Matrices));
            let (Some(a), Some(b)) = (fast.clips.first(), reference.clips.first()) else { continue };
            let size =
                b.tracks.iter().flat_map(|t| &t.translation.values).fold(1.0f32, |m, v| m.max(v.abs().max_element()));
            let (mut worst_t, mut worst_r) = (0f32, 0f32);
            for (ta, tb) in a.tracks.iter().zip(&b.tracks) {
                assert_eq!(ta.translation.times, tb.translation.times);
                assert_eq!(ta.rotation.times, tb.rotation.times);
                for (x, y) in ta.translation.values.iter().zip(&tb.translation.values) {
                    worst_t = worst_t.max((*x - *y).abs().max_element());
                }
                for (x, y) in ta.rotation.values.iter().zip(&tb.rotation.values) {
                    // Same hemisphere too: interpolation between keys must not change.
                    assert!(x.dot(*y) > 0.0, "{}: {x} vs {y}", path.display());
                    worst_r = worst_r.max((Vec4::from(*x) - Vec4::from(*y)).abs().max_element());
                }
            }
            assert!(worst_t <= 1e-6 * size, "{}: translations off by {worst_t} (size {size})", path.display());
            assert!(worst_r <= 5e-7, "{}: rotation components off by {worst_r}", path.display());
            converted += usize::from(a.tracks.iter().any(|t| t.rotation.values.len() > 10));
        }
        assert!(converted >= 10, "only {converted} animated ASC files found");
    }
}
