//! Sequences of a compiled GoldSrc model (`mstudioseqdesc_t`): each becomes a clip named after it, at its frame
//! rate, with its events as callback keys, and a [`ScriptSequence`] describing it (loop flag, activity and
//! weight, motion flags, blend parameters, nodes and transitions, sequence group).
//!
//! Frames. A sequence's animation is `numblends × numbones` records of six 16-bit offsets (`mstudioanim_t`),
//! in the main file for sequence group 0 (at the group's `data` plus `animindex`) and at `animindex` of the
//! group's own file (`<name>01.mdl` …, `IDSQ`) for the others. Each channel's values are decoded by
//! [`super::anim`]; a frame's position is `value + v · scale` and its Euler angles likewise (radians), turned
//! into a rotation as the bind pose is. One key per frame (linear between frames, as the engine interpolates);
//! a channel constant over the sequence is one key.
//!
//! What studiomdl did to a sequence and this reader undoes, so that a model and its QC source play alike:
//! - it turned every sequence's root bones by 90° about Z so the model faces the engine's forward axis
//!   (`Grab_Animation`: `zrotation`, `$origin`'s angle + 90°), but not the reference pose the vertices are bound
//!   in. Roots are turned back, so the sequences and the bind pose share one frame again (as the QC reading
//!   leaves the turn out);
//! - it took the linear motion of `LX`/`LY`/`LZ` sequences out of the root bones (`ExtractMotion`: the motion
//!   times `frame / (frames − 1)`), keeping it in `linearmovement` for the game to move the entity by. It is
//!   added back, so a walk walks, as in the game and in the source.
//!
//! Blend sequences: the first animation is the clip; the others are kept in [`ClipBlend`] and mixed by the
//! controller (`anim::studio_blend`): four animations are a 2 × 2 grid over two blend parameters and nine a
//! 3 × 3 one (the engine's `StudioSetupBones`, HLAM's `BoneTransformer::SetUpBones`); any other count mixes the
//! first two over one parameter, as they do.

use glam::{Quat, Vec3};

use super::bones::{BoneInfo, STUDIO_LX, STUDIO_LY, STUDIO_LZ, angles_to_quat};
use super::header::{ANIM_SIZE, EVENT_SIZE, GROUP_SIZE, Header, SEQUENCE_SIZE, Span};
use crate::io::LoadError;
use crate::io::binary::{Reader, slice_at};
use crate::scene::{
    Activity, BlendRange, BoneTrack, CallbackKey, Clip, ClipBlend, ClipScript, Curve, Position, ScriptEvent,
    ScriptSequence, SequenceKind, SharedTimes, Skeleton, Warning,
};

/// Most frames a sequence may declare (studiomdl writes at most `MAXSTUDIOANIMATIONS`, 2048; other compilers
/// raise it, none this far).
pub const MAX_FRAMES: usize = 1 << 16;

/// Most blends a sequence may have (Xash3D's `MAXSTUDIOBLENDS`; the Half-Life engine mixes up to 9). The
/// count sizes the loops below even where a model has no bones to size the animation table by.
pub const MAX_BLENDS: usize = 16;

/// studiomdl's fixed turn of every sequence's root bones, undone here (`Vec3::new(p.y, −p.x, p.z)` for
/// positions).
const STUDIOMDL_TURN_DEGREES: f32 = 90.0;

/// A sequence group: where its animations are read from.
pub struct Group<'a> {
    /// Group 0: the offset its `data` field adds to `animindex` (studiomdl writes 0).
    pub data: i32,
    /// The bytes animations are read from: the main file for group 0, the group's file for the others
    /// (`None` when it was not found: its sequences are listed, not played).
    pub bytes: Option<&'a [u8]>,
    /// Where the group's file is, for messages.
    pub file_label: String,
}

/// Reads the sequence-group table: each group's label, file name (as studiomdl wrote it: `models\man01.mdl`)
/// and data offset (group 0's).
pub fn read_groups(file: &[u8], header: &Header) -> Result<Vec<(String, String, i32)>, LoadError> {
    let mut r = header.groups.table(file, GROUP_SIZE, "the sequence group table")?;
    let mut out = Vec::with_capacity(header.groups.len("the sequence group table")?);
    while !r.at_end() {
        let label = r.fixed_str(32, "a sequence group label")?;
        let name = r.fixed_str(64, "a sequence group file name")?;
        let _cache = r.i32("a sequence group's cache")?;
        let data = r.i32("a sequence group's data offset")?;
        out.push((label, name, data));
    }
    Ok(out)
}

/// The clips and descriptions of the sequences.
pub struct Sequences {
    pub clips: Vec<Clip>,
    pub described: Vec<ScriptSequence>,
}

/// Everything reading the sequences needs besides the main file.
pub struct Context<'a> {
    pub skeleton: &'a Skeleton,
    pub bones: &'a [BoneInfo],
    pub groups: &'a [Group<'a>],
    /// Keys the sequences may make in all: a bound in proportion to the files' sizes, so a hostile frame
    /// count cannot make the reader allocate without end.
    pub key_budget: usize,
}

pub fn read(
    file: &[u8],
    header: &Header,
    cx: &Context<'_>,
    warnings: &mut Vec<Warning>,
) -> Result<Sequences, LoadError> {
    let mut r = header.sequences.table(file, SEQUENCE_SIZE, "the sequence table")?;
    let count = header.sequences.len("the sequence table")?;
    let mut out = Sequences { clips: Vec::with_capacity(count), described: Vec::with_capacity(count) };
    let mut keys_left = cx.key_budget;
    for index in 0..count {
        let record = read_record(&mut r)?;
        let label = record.label.clone();
        let (clip, described) = build(file, &record, index, cx, &mut keys_left, warnings).map_err(|mut e| {
            e.message = format!("sequence {index} (\"{label}\"): {}", e.message);
            e
        })?;
        if let Some(clip) = clip {
            out.clips.push(clip);
        }
        out.described.push(described);
    }
    Ok(out)
}

/// One `mstudioseqdesc_t`.
struct Record {
    at: u64,
    label: String,
    fps: f32,
    flags: i32,
    activity: i32,
    act_weight: i32,
    events: Span,
    frames: i32,
    pivots: i32,
    motion: i32,
    linear_movement: Vec3,
    blends: i32,
    anim_index: i32,
    blend_type: [i32; 2],
    blend_start: [f32; 2],
    blend_end: [f32; 2],
    group: i32,
    entry_node: i32,
    exit_node: i32,
    node_flags: i32,
    next: i32,
}

fn read_record(r: &mut Reader<'_>) -> Result<Record, LoadError> {
    let at = r.offset();
    let label = r.fixed_str(32, "a sequence name")?;
    let fps = r.f32("a sequence's frame rate")?;
    let flags = r.i32("a sequence's flags")?;
    let activity = r.i32("a sequence's activity")?;
    let act_weight = r.i32("a sequence's activity weight")?;
    let events_at = r.offset();
    let events =
        Span { count: r.i32("a sequence's event count")?, offset: r.i32("a sequence's event offset")?, at: events_at };
    let frames = r.i32("a sequence's frame count")?;
    let pivots = r.i32("a sequence's pivot count")?;
    let _pivot_index = r.i32("a sequence's pivot offset")?;
    let motion = r.i32("a sequence's motion type")?;
    let _motion_bone = r.i32("a sequence's motion bone")?;
    let linear_movement = r.vec3("a sequence's linear movement")?;
    let _auto_pos = r.i32("a sequence's automove positions")?;
    let _auto_angle = r.i32("a sequence's automove angles")?;
    let _bbmin = r.vec3("a sequence's bounding box")?;
    let _bbmax = r.vec3("a sequence's bounding box")?;
    let blends = r.i32("a sequence's blend count")?;
    let anim_index = r.i32("a sequence's animation offset")?;
    let blend_type = [r.i32("a blend type")?, r.i32("a blend type")?];
    let blend_start = [r.f32("a blend start")?, r.f32("a blend start")?];
    let blend_end = [r.f32("a blend end")?, r.f32("a blend end")?];
    let _blend_parent = r.i32("a sequence's blend parent")?;
    let group = r.i32("a sequence's group")?;
    let entry_node = r.i32("a sequence's entry node")?;
    let exit_node = r.i32("a sequence's exit node")?;
    let node_flags = r.i32("a sequence's node flags")?;
    let next = r.i32("a sequence's next sequence")?;
    Ok(Record {
        at,
        label,
        fps,
        flags,
        activity,
        act_weight,
        events,
        frames,
        pivots,
        motion,
        linear_movement,
        blends,
        anim_index,
        blend_type,
        blend_start,
        blend_end,
        group,
        entry_node,
        exit_node,
        node_flags,
        next,
    })
}

fn build(
    file: &[u8],
    rec: &Record,
    index: usize,
    cx: &Context<'_>,
    keys_left: &mut usize,
    warnings: &mut Vec<Warning>,
) -> Result<(Option<Clip>, ScriptSequence), LoadError> {
    let fps = if rec.fps.is_finite() && rec.fps > 0.0 {
        rec.fps
    } else {
        warnings.push(Warning::new(
            Position::Byte(rec.at + 32),
            format!("sequence \"{}\": frame rate {} is not a rate; played at 30 fps", rec.label, rec.fps),
        ));
        30.0
    };
    let frames = match usize::try_from(rec.frames) {
        Ok(0) => {
            warnings.push(Warning::new(
                Position::Byte(rec.at + 56),
                format!("sequence \"{}\" has 0 frames; read as 1", rec.label),
            ));
            1
        }
        Ok(f) if f <= MAX_FRAMES => f,
        _ => {
            return Err(LoadError::at_byte(
                rec.at + 56,
                format!("{} frames (this reader takes up to {MAX_FRAMES}; studiomdl writes up to 2048)", rec.frames),
            ));
        }
    };
    let mut described = describe(rec, fps, frames, cx.groups);
    described.events = read_events(file, rec, frames, warnings)?;
    let blends = match usize::try_from(rec.blends) {
        Ok(b) if (1..=MAX_BLENDS).contains(&b) => b,
        _ => {
            return Err(LoadError::at_byte(
                rec.at + 120,
                format!("{} blends (a sequence has 1 to {MAX_BLENDS}; the engine mixes up to 9)", rec.blends),
            ));
        }
    };
    let group = usize::try_from(rec.group).ok().and_then(|g| cx.groups.get(g));
    let Some(group) = group else {
        return Err(LoadError::at_byte(
            rec.at + 156,
            format!("sequence group {}, but the model has {}", rec.group, cx.groups.len()),
        ));
    };
    let Some(data) = group.bytes else {
        let problem = format!("its animation is in {}, which was not found", group.file_label);
        described.problem = Some(problem);
        return Ok((None, described));
    };
    let base = if rec.group == 0 { i64::from(group.data) } else { 0 };
    let start = base + i64::from(rec.anim_index);
    let bones = cx.skeleton.len();
    let records = crate::io::binary::table(data, start, (blends * bones) as i64, ANIM_SIZE, "the animation offsets")
        .map_err(|e| relabel(e, &group.file_label, rec.group))?;
    let times: Vec<f32> = (0..frames).map(|f| f as f32 / fps).collect();
    let mut shared = SharedTimes::default();
    let mut animations = Vec::with_capacity(blends);
    let mut values: Vec<i16> = Vec::new();
    // `data` is a whole file, so the table's offsets index it directly.
    let record_base = records.offset() as usize;
    let motion = motion_vector(rec);
    for b in 0..blends {
        let mut tracks = Vec::with_capacity(bones);
        for bone in 0..bones {
            let rec_at = record_base + (b * bones + bone) * ANIM_SIZE;
            let offsets = read_offsets(data, rec_at)?;
            let info = cx.bones.get(bone).copied().unwrap_or_default();
            // Per channel: the decoded frames, or `None` for the default value throughout.
            let mut channels: [Option<Vec<i16>>; 6] = Default::default();
            for (c, &offset) in offsets.iter().enumerate() {
                if offset == 0 {
                    continue;
                }
                let what = || {
                    format!(
                        "blend {b}, bone \"{}\", channel {}",
                        cx.skeleton.names.get(bone).map_or("?", String::as_str),
                        ["X", "Y", "Z", "XR", "YR", "ZR"][c]
                    )
                };
                super::anim::decode_channel(data, rec_at + usize::from(offset), 0, frames, &mut values, &what)
                    .map_err(|e| relabel(e, &group.file_label, rec.group))?;
                // A channel that never changes is one value.
                if values.iter().all(|v| *v == values[0]) {
                    values.truncate(1);
                }
                channels[c] = Some(values.clone());
            }
            let value_at = |c: usize, f: usize| -> f32 {
                let raw = channels[c].as_ref().map_or(0, |v| v.get(f).or(v.first()).copied().unwrap_or(0));
                info.value[c] + f32::from(raw) * info.scale[c]
            };
            let is_root = cx.skeleton.parents.get(bone).is_some_and(Option::is_none);
            let moves = is_root && motion != Vec3::ZERO;
            let position_keys = if moves || channels[..3].iter().flatten().any(|v| v.len() > 1) { frames } else { 1 };
            let rotation_keys = if channels[3..].iter().flatten().any(|v| v.len() > 1) { frames } else { 1 };
            let cost = position_keys + rotation_keys;
            if cost > *keys_left {
                return Err(LoadError::at_byte(
                    rec.at + 56,
                    format!("{frames} frames of {bones} bones are more keyframes than these files' size supports"),
                ));
            }
            *keys_left -= cost;
            let turn = Quat::from_rotation_z(-STUDIOMDL_TURN_DEGREES.to_radians());
            let translations: Vec<Vec3> = (0..position_keys)
                .map(|f| {
                    let p = Vec3::new(value_at(0, f), value_at(1, f), value_at(2, f));
                    if !is_root {
                        return p;
                    }
                    let along = if frames > 1 { f as f32 / (frames - 1) as f32 } else { 0.0 };
                    let p = p + motion * along;
                    // Turned back by −90° about Z, exactly: (x, y) → (y, −x).
                    Vec3::new(p.y, -p.x, p.z)
                })
                .collect();
            let rotations: Vec<Quat> = (0..rotation_keys)
                .map(|f| {
                    let q = angles_to_quat(Vec3::new(value_at(3, f), value_at(4, f), value_at(5, f)));
                    if is_root { (turn * q).normalize() } else { q }
                })
                .collect();
            let translation = Curve::linear(shared.share(&times[..position_keys]), translations);
            let rotation = Curve::linear(shared.share(&times[..rotation_keys]), rotations);
            let bone_name = cx.skeleton.names.get(bone).cloned().unwrap_or_default();
            tracks.push(BoneTrack { bone_name, translation, rotation, scale: Curve::default() });
        }
        animations.push(Clip {
            name: if b == 0 { rec.label.clone() } else { format!("{} (blend {})", rec.label, b + 1) },
            duration: (frames - 1) as f32 / fps,
            frame_rate: fps,
            frame_count: frames as u32,
            tracks,
            ..Clip::default()
        });
    }
    let mut animations = animations.into_iter();
    let Some(mut clip) = animations.next() else { return Ok((None, described)) };
    let others: Vec<Clip> = animations.collect();
    let parameters = match others.len() + 1 {
        4 | 9 => 2,
        _ => 1,
    };
    if !matches!(others.len() + 1, 1 | 2 | 4 | 9) {
        warnings.push(Warning::new(
            Position::Byte(rec.at + 120),
            format!(
                "sequence \"{}\" has {} blends; the engine mixes the first two of any count but 4 and 9, and so does the viewer",
                rec.label,
                others.len() + 1
            ),
        ));
    }
    clip.callback_keys = described
        .events
        .iter()
        .map(|e| {
            let time = (e.frame as f32 / fps).clamp(0.0, clip.duration);
            CallbackKey::event(time, e.frame, e.kind.clone(), e.data_with_options())
        })
        .collect();
    clip.script = Some(Box::new(ClipScript {
        sequence: index,
        looping: described.looping,
        first_frame: 0,
        last_frame: frames as i32 - 1,
        blend: (!others.is_empty()).then(|| {
            let defaults = std::array::from_fn(|p| crate::anim::studio::blend_fraction(described.blends.get(p), 0.0));
            Box::new(ClipBlend { animations: others, parameters, defaults })
        }),
        ..ClipScript::default()
    }));
    described.loaded = true;
    Ok((Some(clip), described))
}

fn relabel(mut e: LoadError, file_label: &str, group: i32) -> LoadError {
    if group != 0 {
        e.message = format!("in {file_label}: {}", e.message);
    }
    e
}

/// The six channel offsets of the `mstudioanim_t` at `at`.
fn read_offsets(data: &[u8], at: usize) -> Result<[u16; 6], LoadError> {
    let bytes = slice_at(data, at, ANIM_SIZE)
        .ok_or_else(|| LoadError::truncated(at as u64, "animation offsets run past the end of the data"))?;
    let mut out = [0u16; 6];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]);
    }
    Ok(out)
}

/// The linear motion studiomdl took out of the roots, on the axes the sequence's `LX`/`LY`/`LZ` flags name.
fn motion_vector(rec: &Record) -> Vec3 {
    let m = rec.linear_movement;
    let keep = |flag: i32, v: f32| if rec.motion & flag != 0 && v.is_finite() { v } else { 0.0 };
    Vec3::new(keep(STUDIO_LX, m.x), keep(STUDIO_LY, m.y), keep(STUDIO_LZ, m.z))
}

/// The sequence's events (`mstudioevent_t`): frame (from the sequence's first), event number, options.
fn read_events(
    file: &[u8],
    rec: &Record,
    frames: usize,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<ScriptEvent>, LoadError> {
    let mut r = rec.events.table(file, EVENT_SIZE, "the sequence's events")?;
    let mut out = Vec::with_capacity(rec.events.len("events")?);
    let mut outside = Vec::new();
    while !r.at_end() {
        let frame = r.i32("an event's frame")?;
        let event = r.i32("an event's number")?;
        let _type = r.i32("an event's type")?;
        let options = r.fixed_str(64, "an event's options")?;
        if frame < 0 || frame as usize >= frames {
            outside.push(frame);
        }
        let kind = event.to_string();
        out.push(ScriptEvent {
            frame,
            kind_name: crate::io::script::event_name(&kind).map(str::to_owned),
            kind,
            args: if options.is_empty() { Vec::new() } else { vec![options.clone()] },
            text: options,
            line: 0,
        });
    }
    if !outside.is_empty() {
        warnings.push(Warning::new(
            Position::Byte(rec.events.at),
            format!(
                "sequence \"{}\": event frame(s) {outside:?} outside its {frames} frames; fired at the nearer end",
                rec.label
            ),
        ));
    }
    Ok(out)
}

/// The description `info` and the viewer show.
fn describe(rec: &Record, fps: f32, frames: usize, groups: &[Group<'_>]) -> ScriptSequence {
    let mut s = ScriptSequence::new(rec.label.clone(), SequenceKind::Sequence, fps, 0, 0);
    s.looping = rec.flags & 1 != 0;
    s.first_frame = Some(0);
    s.last_frame = Some(frames as i32 - 1);
    s.frame_count = frames as u32;
    s.motion = motion_names(rec.motion);
    if rec.activity != 0 {
        s.activity = Some(Activity { name: activity_name(rec.activity), weight: rec.act_weight });
    }
    let blends = rec.blends.max(1);
    if blends > 1 {
        let parameters = if matches!(blends, 4 | 9) { 2 } else { 1 };
        for p in 0..parameters {
            let names = motion_names(rec.blend_type[p]);
            s.blends.push(BlendRange {
                control: names.first().cloned().unwrap_or_default(),
                start: rec.blend_start[p],
                end: rec.blend_end[p],
            });
        }
    }
    match (rec.entry_node, rec.exit_node) {
        (0, 0) => {}
        (a, b) if a == b => s.options.push(format!("node {a}")),
        (a, b) if rec.node_flags & 1 != 0 => s.options.push(format!("rtransition {a} {b}")),
        (a, b) => s.options.push(format!("transition {a} {b}")),
    }
    if rec.group != 0 {
        let file = usize::try_from(rec.group).ok().and_then(|g| groups.get(g)).map_or("?", |g| g.file_label.as_str());
        s.options.push(format!("sequence group {} ({file})", rec.group));
    }
    if rec.next != 0 {
        s.options.push(format!("next sequence {}", rec.next));
    }
    if rec.pivots > 0 {
        s.options.push(format!("{} pivot(s)", rec.pivots));
    }
    let m = rec.linear_movement;
    if m != Vec3::ZERO {
        s.options.push(format!("linear movement ({} {} {})", m.x, m.y, m.z));
    }
    s
}

/// `LX`, `XR`, … for the bits of a motion type.
pub fn motion_names(flags: i32) -> Vec<String> {
    const NAMES: [&str; 15] =
        ["X", "Y", "Z", "XR", "YR", "ZR", "LX", "LY", "LZ", "AX", "AY", "AZ", "AXR", "AYR", "AZR"];
    NAMES.iter().enumerate().filter(|(i, _)| flags & (1 << i) != 0).map(|(_, n)| (*n).to_owned()).collect()
}

/// Half-Life's activities (SDK `dlls/activity.h`), by number.
pub fn activity_name(activity: i32) -> String {
    const NAMES: [&str; 77] = [
        "ACT_RESET",
        "ACT_IDLE",
        "ACT_GUARD",
        "ACT_WALK",
        "ACT_RUN",
        "ACT_FLY",
        "ACT_SWIM",
        "ACT_HOP",
        "ACT_LEAP",
        "ACT_FALL",
        "ACT_LAND",
        "ACT_STRAFE_LEFT",
        "ACT_STRAFE_RIGHT",
        "ACT_ROLL_LEFT",
        "ACT_ROLL_RIGHT",
        "ACT_TURN_LEFT",
        "ACT_TURN_RIGHT",
        "ACT_CROUCH",
        "ACT_CROUCHIDLE",
        "ACT_STAND",
        "ACT_USE",
        "ACT_SIGNAL1",
        "ACT_SIGNAL2",
        "ACT_SIGNAL3",
        "ACT_TWITCH",
        "ACT_COWER",
        "ACT_SMALL_FLINCH",
        "ACT_BIG_FLINCH",
        "ACT_RANGE_ATTACK1",
        "ACT_RANGE_ATTACK2",
        "ACT_MELEE_ATTACK1",
        "ACT_MELEE_ATTACK2",
        "ACT_RELOAD",
        "ACT_ARM",
        "ACT_DISARM",
        "ACT_EAT",
        "ACT_DIESIMPLE",
        "ACT_DIEBACKWARD",
        "ACT_DIEFORWARD",
        "ACT_DIEVIOLENT",
        "ACT_BARNACLE_HIT",
        "ACT_BARNACLE_PULL",
        "ACT_BARNACLE_CHOMP",
        "ACT_BARNACLE_CHEW",
        "ACT_SLEEP",
        "ACT_INSPECT_FLOOR",
        "ACT_INSPECT_WALL",
        "ACT_IDLE_ANGRY",
        "ACT_WALK_HURT",
        "ACT_RUN_HURT",
        "ACT_HOVER",
        "ACT_GLIDE",
        "ACT_FLY_LEFT",
        "ACT_FLY_RIGHT",
        "ACT_DETECT_SCENT",
        "ACT_SNIFF",
        "ACT_BITE",
        "ACT_THREAT_DISPLAY",
        "ACT_FEAR_DISPLAY",
        "ACT_EXCITED",
        "ACT_SPECIAL_ATTACK1",
        "ACT_SPECIAL_ATTACK2",
        "ACT_COMBAT_IDLE",
        "ACT_WALK_SCARED",
        "ACT_RUN_SCARED",
        "ACT_VICTORY_DANCE",
        "ACT_DIE_HEADSHOT",
        "ACT_DIE_CHESTSHOT",
        "ACT_DIE_GUTSHOT",
        "ACT_DIE_BACKSHOT",
        "ACT_FLINCH_HEAD",
        "ACT_FLINCH_CHEST",
        "ACT_FLINCH_STOMACH",
        "ACT_FLINCH_LEFTARM",
        "ACT_FLINCH_RIGHTARM",
        "ACT_FLINCH_LEFTLEG",
        "ACT_FLINCH_RIGHTLEG",
    ];
    usize::try_from(activity)
        .ok()
        .and_then(|a| NAMES.get(a))
        .map_or_else(|| format!("ACT_{activity}"), |n| (*n).to_owned())
}
