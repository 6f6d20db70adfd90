//! `.MMB`: a compiled morph mesh with its animations (`zCMorphMeshProto::SaveMMB` / `LoadMMB` in ZenGin's
//! `zMorphMesh.cpp`; ZenKit `MorphMesh.cc`): `0xE000` marks the file; `0xE020` holds the version and the name,
//! followed by the mesh (`0xB100`) and, in the mesh's end chunk (`0xB1FF`), the reference positions; `0xE010` the
//! source files; `0xE030` the animations: name, blend-in and blend-out speeds (per millisecond), hold time
//! (milliseconds, negative: until stopped), layer, frame rate (frames per millisecond), flags (bits:
//! discontinuous, looping, shape, reference shape), the animated positions' indices and, frame by frame, one
//! vector per animated position.
//!
//! The vectors are differences from the reference positions (`GenerateMorphAni`: `frame − morphRef`), except in
//! a reference-shape animation (flag bit 8), which stores the positions themselves. The morph mesh is played as
//! the MMS heads built from the sources are ([`crate::io::script`]'s `morphAni`): each frame is a morph target
//! of the mesh (a one-frame animation's target is named after the animation, the others' `NAME frame K`), and
//! each animation is a clip whose weight tracks tween through its frames (`scene::vertex_animation`), with the
//! frames kept on the clip (`ClipScript::vertex_frames`) and a `morphMesh` model script describing the
//! animations as the MMS would.

use glam::Vec3;

use crate::io::{LoadError, LoadErrorKind, LoadOptions};
use crate::scene::vertex_animation::{MOVED_TOLERANCE, tween_tracks};
use crate::scene::{
    Asset, BodyChoice, BodyGroup, Clip, ClipScript, ClipVertexFrames, Format, ModelScript, MorphTarget, Position,
    Reading, ScriptLanguage, ScriptSequence, SequenceKind, Transform, VertexFrame, Warning,
};

use super::chunk::{Chunks, ZenDate, ZenRead};
use super::compiler::engine_axes;
use super::geometry::{build_mesh, materials, rigid};
use super::proto::{self, ProtoMesh};

pub const CHUNK_MARKER: u16 = 0xE000;
pub const CHUNK_SOURCES: u16 = 0xE010;
pub const CHUNK_HEADER: u16 = 0xE020;
pub const CHUNK_ANIMATIONS: u16 = 0xE030;
const CHUNK_MESH: u16 = 0xB100;
const CHUNK_MESH_END: u16 = 0xB1FF;

/// Flag bits of an animation (`zCMorphMeshAni::flags`).
pub const FLAG_DISCONTINUOUS: u8 = 1;
pub const FLAG_LOOPING: u8 = 2;
pub const FLAG_SHAPE: u8 = 4;
pub const FLAG_REFERENCE_SHAPE: u8 = 8;

/// The most vertices, over all frames of all animations, kept as full frames on the clips
/// (`ClipScript::vertex_frames`): a few hundred faces of a head; a file of long animations on a large mesh keeps
/// only its (sparse) targets.
pub const MAX_DENSE_FRAME_VERTICES: usize = 1 << 22;

/// The diagonal of the box around `positions` (0 when there are none or it is not finite).
fn mesh_size(positions: &[Vec3]) -> f32 {
    let (lo, hi) = positions.iter().fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    let size = (hi - lo).length();
    if size.is_finite() { size } else { 0.0 }
}

/// A morph-mesh animation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MorphAnimation {
    pub name: String,
    /// Per millisecond (the engine's `1 / (seconds · 1000)`, negative for blending out).
    pub blend_in_speed: f32,
    pub blend_out_speed: f32,
    /// Milliseconds; negative: held until stopped.
    pub hold: f32,
    pub layer: i32,
    /// Frames per millisecond.
    pub speed: f32,
    pub flags: u8,
    pub frame_count: u32,
    /// Indices of the animated reference positions.
    pub vertices: Vec<u32>,
    /// Frame by frame, one vector per animated position.
    pub samples: Vec<Vec3>,
}

impl MorphAnimation {
    /// Frames per second; 25 (the game's rate) where the file states none.
    pub fn fps(&self) -> f32 {
        let fps = self.speed * 1000.0;
        if fps.is_finite() && fps > 0.0 { fps } else { 25.0 }
    }

    /// Seconds a blend takes at a speed per millisecond (0 for the "no blending" marker).
    fn seconds(speed: f32) -> f32 {
        let s = 1.0 / (speed.abs() * 1000.0);
        if s.is_finite() && s > 1e-6 { s } else { 0.0 }
    }

    pub fn flags_text(&self) -> String {
        let mut out = String::new();
        for (bit, letter) in
            [(FLAG_DISCONTINUOUS, 'D'), (FLAG_LOOPING, 'L'), (FLAG_SHAPE, 'S'), (FLAG_REFERENCE_SHAPE, 'R')]
        {
            if self.flags & bit != 0 {
                out.push(letter);
            }
        }
        if out.is_empty() { ".".to_owned() } else { out }
    }

    pub fn looping(&self) -> bool {
        self.flags & FLAG_LOOPING != 0 || self.hold < 0.0
    }
}

/// A compiled morph mesh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MorphMesh {
    pub version: u32,
    pub name: String,
    pub proto: ProtoMesh,
    /// The reference positions (as many as the mesh has).
    pub morph_positions: Vec<Vec3>,
    pub sources: Vec<(ZenDate, String)>,
    pub animations: Vec<MorphAnimation>,
}

pub fn read(bytes: &[u8]) -> Result<MorphMesh, LoadError> {
    let mut m = MorphMesh::default();
    let mut seen = false;
    let mut mesh = false;
    for chunk in Chunks::new(bytes) {
        let mut chunk = chunk?;
        let r = &mut chunk.body;
        match chunk.id {
            CHUNK_MARKER => seen = true,
            CHUNK_HEADER => {
                m.version = r.u32("morph mesh version")?;
                m.name = r.zen_string_skip_space("morph mesh name")?;
                seen = true;
            }
            CHUNK_MESH => {
                m.proto = proto::read(r)?;
                mesh = true;
            }
            CHUNK_MESH_END if mesh => {
                let count = r.count(m.proto.positions.len() as u64, 12, "reference positions")?;
                m.morph_positions = (0..count).map(|_| r.vec3("reference position")).collect::<Result<_, _>>()?;
            }
            CHUNK_SOURCES => {
                let count = r.u16("source count")?;
                let count = r.count(u64::from(count), 17, "sources")?;
                for _ in 0..count {
                    let date = r.zen_date("source date")?;
                    m.sources.push((date, r.zen_string_skip_space("source file")?));
                }
            }
            CHUNK_ANIMATIONS => {
                let count = r.u16("animation count")?;
                // An animation is at least a line break, 26 bytes of fields and its two counts.
                let count = r.count(u64::from(count), 1 + 21 + 8, "animations")?;
                for i in 0..count {
                    let what = format!("animation {i}");
                    let name = r.zen_string(&what)?;
                    let blend_in_speed = r.f32(&what)?;
                    let blend_out_speed = r.f32(&what)?;
                    let hold = r.f32(&what)?;
                    let layer = r.i32(&what)?;
                    let speed = r.f32(&what)?;
                    let flags = r.u8(&what)?;
                    let vertex_count = r.u32(&what)?;
                    let frame_count = r.u32(&what)?;
                    let vertex_count = r.count(u64::from(vertex_count), 4, &format!("{what} vertices"))?;
                    let vertices: Vec<u32> = (0..vertex_count).map(|_| r.u32(&what)).collect::<Result<_, _>>()?;
                    let samples = r.count(
                        (vertex_count as u64).saturating_mul(u64::from(frame_count)),
                        12,
                        &format!("{what} samples"),
                    )?;
                    let samples: Vec<Vec3> = (0..samples).map(|_| r.vec3(&what)).collect::<Result<_, _>>()?;
                    m.animations.push(MorphAnimation {
                        name,
                        blend_in_speed,
                        blend_out_speed,
                        hold,
                        layer,
                        speed,
                        flags,
                        frame_count,
                        vertices,
                        samples,
                    });
                }
            }
            _ => {}
        }
    }
    if !seen || !mesh {
        return Err(LoadError::whole_file(if seen {
            "the morph mesh has no mesh chunk (0xB100)"
        } else {
            "no morph-mesh chunks (0xE000, 0xE020): not a compiled morph mesh"
        })
        .with_kind(if seen { LoadErrorKind::Truncated } else { LoadErrorKind::NotThisFormat }));
    }
    Ok(m)
}

pub fn load(bytes: &[u8], opts: &LoadOptions) -> Result<Asset, LoadError> {
    let m = read(bytes)?;
    let mut asset = Asset::new(Format::ZenMmb);
    asset.axes = engine_axes();
    let name = if m.name.trim().is_empty() { "MMB".to_owned() } else { m.name.trim().to_owned() };
    asset.skeleton.push(name.clone(), None, Transform::IDENTITY);
    asset.skeleton.recompute_inverse_bind();
    asset.materials = materials(&m.proto, opts);
    let base = |i: u16| m.morph_positions.get(usize::from(i)).or(m.proto.positions.get(usize::from(i))).copied();
    let mut mesh = build_mesh(&m.proto, &name, 0, |w| rigid(base(w.position).unwrap_or_default(), w.normal, 0));
    // Render vertex → reference position, for carrying the frames over.
    let wedge_positions: Vec<u16> =
        m.proto.submeshes.iter().flat_map(|s| s.wedges.iter().map(|w| w.position)).collect();
    let mut script = ModelScript::new(ScriptLanguage::GothicMms);
    script.name = name.clone();
    script.body_groups.push(BodyGroup {
        name: "morphRef".to_owned(),
        choices: vec![BodyChoice {
            name: name.clone(),
            path: None,
            meshes: vec![0],
            placement: None,
            file: 0,
            line: 0,
        }],
        file: 0,
        line: 0,
    });
    // Reference position → the render vertices standing at it.
    let mut vertices_at: Vec<Vec<u32>> = vec![Vec::new(); m.proto.positions.len()];
    for (v, &p) in wedge_positions.iter().enumerate() {
        if let Some(list) = vertices_at.get_mut(usize::from(p)) {
            list.push(v as u32);
        }
    }
    let tolerance = mesh_size(&mesh.positions) * MOVED_TOLERANCE;
    let mut warnings = Vec::new();
    let mut clips = Vec::new();
    let mut dense_left = MAX_DENSE_FRAME_VERTICES;
    for (index, a) in m.animations.iter().enumerate() {
        let fps = a.fps();
        // Frames without animated positions hold no data: only their count (the clip's length) is used.
        let frames = if a.vertices.is_empty() { 0 } else { a.frame_count as usize };
        let mut bad = 0usize;
        let single = a.frame_count == 1;
        let target_name = |f: usize| if single { a.name.clone() } else { format!("{} frame {f}", a.name) };
        // The full frames are kept on the clip while they are small (a face's); the targets are built sparse.
        let dense = frames.saturating_mul(mesh.positions.len()) <= dense_left;
        if dense {
            dense_left -= frames * mesh.positions.len();
        }
        let mut vertex_frames = Vec::new();
        let mut names: Vec<Option<String>> = Vec::with_capacity(frames);
        for f in 0..frames {
            let mut target = MorphTarget { name: target_name(f), ..MorphTarget::default() };
            let mut full = if dense { mesh.positions.clone() } else { Vec::new() };
            for (k, &v) in a.vertices.iter().enumerate() {
                let sample = a.samples.get(f * a.vertices.len() + k).copied().unwrap_or_default();
                let (Some(reference), Some(at)) =
                    (base(v as u16).filter(|_| v <= u32::from(u16::MAX)), vertices_at.get(v as usize))
                else {
                    bad += 1;
                    continue;
                };
                let moved = if a.flags & FLAG_REFERENCE_SHAPE != 0 { sample } else { reference + sample };
                let delta = moved - reference;
                for &r in at {
                    if let Some(p) = full.get_mut(r as usize) {
                        *p = moved;
                    }
                    if delta.is_finite() && delta.abs().max_element() > tolerance {
                        target.vertices.push(r);
                        target.position_deltas.push(delta);
                    }
                }
            }
            if dense {
                vertex_frames.push(VertexFrame { time: f as f32 / fps, positions: full, normals: Vec::new() });
            }
            if target.vertices.is_empty() {
                names.push(None);
            } else {
                names.push(Some(target.name.clone()));
                mesh.morph_targets.push(target);
            }
        }
        if bad > 0 {
            warnings.push(Warning::new(
                Position::File,
                format!(
                    "morph animation \"{}\": {bad} sample(s) name a position the mesh does not have; ignored",
                    a.name
                ),
            ));
        }
        let times: Vec<f32> = (0..frames).map(|f| f as f32 / fps).collect();
        let targets: Vec<Option<&str>> = names.iter().map(Option::as_deref).collect();
        let duration = a.frame_count.saturating_sub(1) as f32 / fps;
        let (blend_in, blend_out) =
            (MorphAnimation::seconds(a.blend_in_speed), MorphAnimation::seconds(a.blend_out_speed));
        let clip = Clip {
            name: a.name.clone(),
            duration,
            frame_rate: fps,
            frame_count: a.frame_count,
            morph_tracks: tween_tracks(&times, &targets, Some(&name)),
            script: Some(Box::new(ClipScript {
                sequence: index,
                looping: a.looping(),
                blend_in,
                blend_out,
                first_frame: 0,
                last_frame: i32::try_from(a.frame_count.saturating_sub(1)).unwrap_or(i32::MAX),
                vertex_frames: dense.then_some(ClipVertexFrames { mesh: 0, frames: vertex_frames }),
                ..ClipScript::default()
            })),
            ..Clip::default()
        };
        let mut seq = ScriptSequence::new(a.name.clone(), SequenceKind::MorphAni, fps, 0, 0);
        seq.layer = Some(a.layer);
        seq.blend_in = blend_in;
        seq.blend_out = blend_out;
        seq.hold = Some(a.hold / 1000.0);
        seq.flags = a.flags_text();
        seq.looping = a.looping();
        seq.first_frame = Some(0);
        seq.last_frame = Some(i32::try_from(a.frame_count.saturating_sub(1)).unwrap_or(i32::MAX));
        seq.frame_count = a.frame_count;
        seq.loaded = true;
        if let Some((_, file)) = m.sources.get(index) {
            seq.files.push(file.clone());
        }
        script.sequences.push(seq);
        clips.push(clip);
    }
    asset.meshes.push(mesh);
    asset.clips = clips;
    asset.model_script = Some(Box::new(script));
    asset.readings.push(Reading::new(
        "morph samples",
        "differences from the reference positions (reference-shape animations: the positions themselves)",
        "ZenGin's GenerateMorphAni stores frame − morphRef",
    ));
    asset.readings.push(Reading::assumed(
        "axes",
        "the engine's frame, as an item stands in the world",
        "a morph mesh does not say which node it hangs on; a head's is modelled in the head bone's frame and lies \
         on its side here (View › Up axis turns it)",
    ));
    asset.warnings.push(Warning::new(
        Position::File,
        "a morph mesh does not say which node it hangs on: shown in the engine's frame, as an item stands (a head \
         lies on its side; View › Up axis turns it)",
    ));
    asset.warnings.extend(m.proto.warnings.iter().cloned());
    asset.warnings.extend(warnings);
    Ok(asset)
}
