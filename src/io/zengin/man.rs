//! `.MAN`: a compiled model animation (`zCModelAni::SaveMAN` / `LoadMAN`; ZenKit `ModelAnimation.cc`):
//! `0xA000` marks the file; `0xA010` holds the source's date and path and the script line it was compiled from;
//! `0xA020` the header (`u16` version, name, `u32` layer, frame count and node count, frame rate, the source's
//! frame rate, the minimum and scale of the packed positions, the bounding box, the next animation); `0xA030`
//! the events; `0xA090` the checksum of the hierarchy it was made for, one `u32` hierarchy node index per
//! animated node and then the samples, frame by frame and within a frame node by node.
//!
//! A sample is six `u16`: a rotation and a translation, the node's whole local transform (the engine's
//! `CalcAniBBox` sets `trafo` from them). The rotation's x, y, z are `(v − 32767) · 2.1 / 65535`, and w is
//! `√(1 − x² − y² − z²)` (the packer made w ≥ 0); the translation is `v · scale + minimum`
//! (`zTMdl_AniSample::UnpackQuat`/`UnpackTrans`). The engine makes the rotation's matrix with
//! `zCQuat::QuatToMatrix4` (ZenGin's `zQuat.cpp`: `mat[0][1] = 2(xy + wz)`, …), the transpose of the usual
//! matrix of `(x, y, z, w)`: the stored quaternion is the conjugate of the rotation in glam's terms (the toes'
//! 90° turn of the corpus MAN comes out as the source body's only so). Frames are `1 / fps` apart: the compiler already resampled the
//! source frames to the script's `FPS:` (`AddTrafoMatrix`), keeping their timing, so the clip plays at `fps`.
//!
//! A MAN names no nodes: its indices only mean something on the hierarchy it was made for, which the engine
//! finds by name (`HUMANS-S_FISTRUN.MAN` belongs to `HUMANS.MDH`, `SaveMAN`'s `model-ani.MAN`) and checks with
//! the checksum. [`clip`] turns it into tracks for a given skeleton ([`super::compiler::NodeMap`]).

use glam::{Quat, Vec3};

use crate::io::LoadError;
use crate::io::LoadErrorKind;
use crate::scene::{BoneTrack, CallbackKey, Clip, ClipScript, Curve, Position, SharedTimes, Warning};

use super::chunk::{Chunks, ZenDate, ZenRead};
use super::compiler::{Frame, sample_in};

pub const CHUNK_MARKER: u16 = 0xA000;
pub const CHUNK_SOURCE: u16 = 0xA010;
pub const CHUNK_HEADER: u16 = 0xA020;
pub const CHUNK_EVENTS: u16 = 0xA030;
pub const CHUNK_SAMPLES: u16 = 0xA090;

/// The engine's names of event types (ZenKit `ModelAnimation.hh` `AnimationEventType`), as MDS keywords.
const EVENT_KINDS: [&str; 12] = [
    "eventTag",
    "eventSFX",
    "eventSFXGrnd",
    "aniBatch",
    "eventSwapMesh",
    "eventHeading",
    "eventPFX",
    "eventPFXGrnd",
    "eventPFXStop",
    "eventSetMesh",
    "eventMMStartAni",
    "eventCamTremor",
];

/// An event of a compiled animation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Event {
    pub kind: u32,
    pub frame: u32,
    pub tag: String,
    pub content: [String; 4],
    pub values: [f32; 4],
    pub probability: f32,
}

impl Event {
    pub fn kind_name(&self) -> String {
        EVENT_KINDS.get(self.kind as usize).map_or_else(|| format!("event {}", self.kind), |k| (*k).to_owned())
    }
}

/// A compiled animation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Animation {
    pub version: u16,
    pub name: String,
    pub layer: u32,
    pub frame_count: u32,
    pub node_count: u32,
    pub fps: f32,
    pub fps_source: f32,
    pub position_min: f32,
    pub position_scale: f32,
    pub bbox: (Vec3, Vec3),
    pub next: String,
    pub events: Vec<Event>,
    /// The checksum of the hierarchy it was made for.
    pub checksum: u32,
    /// Hierarchy node index of each animated node.
    pub node_indices: Vec<u32>,
    /// Frame by frame, node by node: rotation and translation.
    pub samples: Vec<(Quat, Vec3)>,
    pub source: Option<(ZenDate, String, String)>,
}

impl Animation {
    /// Sample of animated node `node` at frame `frame`.
    pub fn sample(&self, frame: usize, node: usize) -> Option<(Quat, Vec3)> {
        self.samples.get(frame * self.node_count as usize + node).copied()
    }

    /// Frames per second: the file's, or the game's 25 where it states none.
    pub fn frame_rate(&self) -> f32 {
        if self.fps.is_finite() && self.fps > 0.0 { self.fps } else { 25.0 }
    }
}

/// The packed rotation's scale and middle (`zMDL_SAMPLE_QUAT_SCALER`, `zMDL_SAMPLE_QUAT_MIDDLE`).
const ROTATION_SCALE: f32 = 2.1 / 65535.0;
const ROTATION_MIDDLE: f32 = 32767.0;

fn unpack_rotation(v: [u16; 3]) -> Quat {
    let [x, y, z] = v.map(|c| (f32::from(c) - ROTATION_MIDDLE) * ROTATION_SCALE);
    let len = x * x + y * y + z * z;
    if len > 1.0 {
        let l = 1.0 / len.sqrt();
        Quat::from_xyzw(x * l, y * l, z * l, 0.0)
    } else {
        Quat::from_xyzw(x, y, z, (1.0 - len).sqrt())
    }
}

/// Bytes of one sample.
const SAMPLE_LEN: usize = 12;

pub fn read(bytes: &[u8]) -> Result<Animation, LoadError> {
    let mut a = Animation::default();
    let mut header = false;
    let mut samples = false;
    let mut any = false;
    for chunk in Chunks::new(bytes) {
        let mut chunk = chunk?;
        let r = &mut chunk.body;
        match chunk.id {
            CHUNK_MARKER => any = true,
            CHUNK_SOURCE => {
                let date = r.zen_date("source date")?;
                let path = r.zen_string("source file").unwrap_or_default();
                let script = r.zen_string("source script line").unwrap_or_default();
                a.source = Some((date, path, script));
            }
            CHUNK_HEADER => {
                a.version = r.u16("animation version")?;
                a.name = r.zen_string("animation name")?;
                a.layer = r.u32("layer")?;
                a.frame_count = r.u32("frame count")?;
                a.node_count = r.u32("node count")?;
                a.fps = r.f32("frame rate")?;
                a.fps_source = r.f32("source frame rate")?;
                a.position_min = r.f32("position minimum")?;
                a.position_scale = r.f32("position scale")?;
                a.bbox = r.zen_aabb("bounding box")?;
                a.next = r.zen_string("next animation")?;
                header = true;
            }
            CHUNK_EVENTS => {
                let count = r.u32("event count")?;
                // An event is at least its type, frame, five line breaks and five floats.
                let count = r.count(u64::from(count), 4 + 4 + 5 + 20, "events")?;
                for i in 0..count {
                    let what = format!("event {i}");
                    let kind = r.u32(&what)?;
                    let frame = r.u32(&what)?;
                    let tag = r.zen_string_skip_space(&what)?;
                    let mut content: [String; 4] = Default::default();
                    for c in &mut content {
                        *c = r.zen_string_skip_space(&what)?;
                    }
                    let mut values = [0.0f32; 4];
                    for v in &mut values {
                        *v = r.f32(&what)?;
                    }
                    let probability = r.f32(&what)?;
                    a.events.push(Event { kind, frame, tag, content, values, probability });
                }
            }
            CHUNK_SAMPLES => {
                if !header {
                    return Err(LoadError::at_byte(
                        chunk.at,
                        "the samples (chunk 0xA090) come before the header (0xA020) that says how many there are",
                    ));
                }
                a.checksum = r.u32("node-list checksum")?;
                let nodes = r.count(u64::from(a.node_count), 4, "node indices")?;
                a.node_indices = (0..nodes).map(|_| r.u32("node index")).collect::<Result<_, _>>()?;
                let total = u64::from(a.node_count) * u64::from(a.frame_count);
                let total = r.count(total, SAMPLE_LEN, "samples")?;
                a.samples.reserve(total);
                for _ in 0..total {
                    let rotation = unpack_rotation([r.u16("sample")?, r.u16("sample")?, r.u16("sample")?]);
                    let p = [r.u16("sample")?, r.u16("sample")?, r.u16("sample")?];
                    let position = Vec3::from_array(p.map(|c| f32::from(c) * a.position_scale + a.position_min));
                    a.samples.push((rotation, position));
                }
                samples = true;
            }
            _ => {}
        }
    }
    if !header && !any {
        return Err(LoadError::whole_file("no animation chunks (0xA000, 0xA020): not a compiled model animation")
            .with_kind(LoadErrorKind::NotThisFormat));
    }
    if !header {
        return Err(
            LoadError::whole_file("the animation has no header chunk (0xA020)").with_kind(LoadErrorKind::Truncated)
        );
    }
    if !samples && a.frame_count > 0 && a.node_count > 0 {
        return Err(
            LoadError::whole_file("the animation has no samples chunk (0xA090)").with_kind(LoadErrorKind::Truncated)
        );
    }
    Ok(a)
}

/// What each animated node drives: per hierarchy node index, the bone's name and whether it is a root.
pub struct Binding<'a> {
    pub frame: Frame,
    pub node: &'a dyn Fn(usize) -> Option<(String, bool)>,
}

/// The clip of `a`: one track per animated node that `binding` knows, keyed at every frame, in the binding's
/// frame. Warns of nodes it does not know.
pub fn clip(a: &Animation, binding: &Binding<'_>) -> (Clip, Vec<Warning>) {
    let fps = a.frame_rate();
    // Keys only where there are samples: a header may claim billions of frames of no node (nothing read backs
    // them), which must not size the key times. The clip keeps its stated length either way.
    let frames = if a.samples.is_empty() { 0 } else { a.frame_count as usize };
    let mut shared = SharedTimes::default();
    let times: Vec<f32> = (0..frames).map(|f| f as f32 / fps).collect();
    let times = shared.share(&times);
    let mut tracks = Vec::with_capacity(a.node_indices.len());
    let mut unknown = Vec::new();
    for (k, &node) in a.node_indices.iter().enumerate() {
        let Some((bone_name, is_root)) = (binding.node)(node as usize) else {
            unknown.push(node);
            continue;
        };
        let mut translations = Vec::with_capacity(frames);
        let mut rotations: Vec<Quat> = Vec::with_capacity(frames);
        for f in 0..frames {
            let (q, t) = a.sample(f, k).unwrap_or((Quat::IDENTITY, Vec3::ZERO));
            // The engine's quaternion turns the other way than glam's (see the module notes).
            let local = sample_in(binding.frame, q.normalize().conjugate(), t, is_root);
            // Neighbouring keys on the same side of the quaternion sphere, so interpolation takes the short way.
            let mut r = local.rotation;
            if rotations.last().is_some_and(|p| p.dot(r) < 0.0) {
                r = -r;
            }
            rotations.push(r);
            translations.push(local.translation);
        }
        tracks.push(BoneTrack {
            bone_name,
            translation: Curve::linear(times.clone(), translations),
            rotation: Curve::linear(times.clone(), rotations),
            scale: Curve::default(),
        });
    }
    let duration = (a.frame_count as usize).saturating_sub(1) as f32 / fps;
    let mut callback_keys: Vec<CallbackKey> = a
        .events
        .iter()
        .map(|e| {
            let text: Vec<&str> = std::iter::once(e.tag.as_str())
                .chain(e.content.iter().map(String::as_str))
                .filter(|s| !s.trim().is_empty())
                .collect();
            let time = (e.frame as f32 / fps).clamp(0.0, duration);
            CallbackKey::event(time, i32::try_from(e.frame).unwrap_or(i32::MAX), e.kind_name(), text.join(" "))
        })
        .collect();
    callback_keys.sort_by(|x, y| x.time.total_cmp(&y.time));
    let next = (!a.next.trim().is_empty()).then(|| a.next.trim().to_owned());
    let looping = next.as_deref().is_some_and(|n| n.eq_ignore_ascii_case(a.name.trim()));
    let clip = Clip {
        name: a.name.trim().to_owned(),
        duration,
        frame_rate: fps,
        frame_count: a.frame_count,
        tracks,
        callback_keys,
        script: Some(Box::new(ClipScript {
            looping,
            next,
            first_frame: 0,
            last_frame: i32::try_from((a.frame_count as usize).saturating_sub(1)).unwrap_or(i32::MAX),
            ..ClipScript::default()
        })),
        ..Clip::default()
    };
    let mut warnings = Vec::new();
    if !unknown.is_empty() {
        warnings.push(Warning::new(
            Position::File,
            format!(
                "animation \"{}\": {} animated node(s) with hierarchy index {unknown:?} are not in the skeleton; ignored",
                clip.name,
                unknown.len()
            ),
        ));
    }
    (clip, warnings)
}
