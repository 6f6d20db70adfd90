//! Animation blocks: `*TM_ANIMATION` (sampled and keyed position, rotation and scale controllers, read as
//! written: ticks and raw values) and `*MESH_ANIMATION` (whole meshes at `*TIMEVALUE`s).

use glam::{Vec3, Vec4};

use super::super::lexer::{Lexer, Token, unclosed};
use super::super::records::{KeyExtras, RawAnim, RawMesh, RawTrack, TrackKind};
use super::lists::{kw, parse_list, parse_list_of, warn};
use super::mesh;
use crate::io::LoadError;
use crate::io::text::decode_name;
use crate::scene::Warning;

pub(super) fn parse_mesh_animation(
    lx: &mut Lexer,
    warnings: &mut Vec<Warning>,
    open: usize,
) -> Result<Vec<RawMesh>, LoadError> {
    let mut frames = Vec::new();
    parse_list(lx, b"MESH_ANIMATION", open, |lx, key, _line| {
        if key != b"MESH" {
            return Ok(false);
        }
        let open = lx.expect_open("MESH")?;
        frames.push(mesh::parse_mesh(lx, warnings, open, false)?);
        Ok(true)
    })?;
    Ok(frames)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Channel {
    Pos,
    Rot,
    Scale,
}

pub(super) fn parse_tm_animation(
    lx: &mut Lexer,
    warnings: &mut Vec<Warning>,
    open: usize,
) -> Result<(Option<String>, RawAnim), LoadError> {
    let mut anim = RawAnim::default();
    let mut name = None;
    loop {
        lx.skip_space();
        let line = lx.line();
        match lx.next_token() {
            Token::Close => return Ok((name, anim)),
            Token::End => return Err(unclosed(b"TM_ANIMATION", open, lx.line())),
            Token::Keyword(k) => {
                let track = match k {
                    b"NODE_NAME" => {
                        name = Some(decode_name(lx.inline_word().unwrap_or_default()));
                        continue;
                    }
                    b"CONTROL_POS_TRACK" => Some((Channel::Pos, TrackKind::Sampled)),
                    b"CONTROL_POS_LINEAR" => Some((Channel::Pos, TrackKind::Linear)),
                    b"CONTROL_POS_BEZIER" => Some((Channel::Pos, TrackKind::Bezier)),
                    b"CONTROL_POS_TCB" => Some((Channel::Pos, TrackKind::Tcb)),
                    b"CONTROL_ROT_TRACK" => Some((Channel::Rot, TrackKind::Sampled)),
                    b"CONTROL_ROT_LINEAR" => Some((Channel::Rot, TrackKind::Linear)),
                    b"CONTROL_ROT_BEZIER" => Some((Channel::Rot, TrackKind::Bezier)),
                    b"CONTROL_ROT_TCB" => Some((Channel::Rot, TrackKind::Tcb)),
                    b"CONTROL_SCALE_TRACK" => Some((Channel::Scale, TrackKind::Sampled)),
                    b"CONTROL_SCALE_LINEAR" => Some((Channel::Scale, TrackKind::Linear)),
                    b"CONTROL_SCALE_BEZIER" => Some((Channel::Scale, TrackKind::Bezier)),
                    b"CONTROL_SCALE_TCB" => Some((Channel::Scale, TrackKind::Tcb)),
                    _ => None,
                };
                let Some((channel, kind)) = track else {
                    lx.skip_entry(k)?;
                    continue;
                };
                let open = lx.expect_open(&kw(k))?;
                let track = parse_track(lx, k, channel, kind, open)?;
                let slot = match channel {
                    Channel::Pos => &mut anim.pos,
                    Channel::Rot => &mut anim.rot,
                    Channel::Scale => &mut anim.scale,
                };
                if slot.is_some() {
                    warn(warnings, line, format!("a second *{} in one *TM_ANIMATION replaces the first", kw(k)));
                }
                *slot = Some(track);
            }
            Token::Open => lx.skip_block(b"TM_ANIMATION", line)?,
            _ => {}
        }
    }
}

/// The keywords of a channel's key lines, by key type: sampled, linear, TCB, Bezier.
fn key_keywords(channel: Channel) -> [&'static str; 4] {
    match channel {
        Channel::Pos => ["CONTROL_POS_SAMPLE", "CONTROL_POS_KEY", "CONTROL_TCB_POS_KEY", "CONTROL_BEZIER_POS_KEY"],
        Channel::Rot => ["CONTROL_ROT_SAMPLE", "CONTROL_ROT_KEY", "CONTROL_TCB_ROT_KEY", "CONTROL_BEZIER_ROT_KEY"],
        Channel::Scale => {
            ["CONTROL_SCALE_SAMPLE", "CONTROL_SCALE_KEY", "CONTROL_TCB_SCALE_KEY", "CONTROL_BEZIER_SCALE_KEY"]
        }
    }
}

/// The keyword of the key lines a controller block of this channel and kind is made of.
fn usual_key(channel: Channel, kind: TrackKind) -> &'static str {
    let [sampled, linear, tcb, bezier] = key_keywords(channel);
    match kind {
        TrackKind::Sampled => sampled,
        TrackKind::Linear => linear,
        TrackKind::Tcb => tcb,
        TrackKind::Bezier => bezier,
    }
}

/// Reads the keys of one controller block. Each key line is `tick` and numbers whose meaning depends on the
/// channel and the key type; optional trailing parts (TCB parameters, Bezier tangents, the scale axis) may be
/// missing in hand-written files. A block holds key lines of its own kind (recognised in place, without
/// scanning the keyword first), but any key line of the channel is read.
fn parse_track(
    lx: &mut Lexer,
    block: &[u8],
    channel: Channel,
    kind: TrackKind,
    open: usize,
) -> Result<RawTrack, LoadError> {
    let mut track = RawTrack::new(open, kind);
    // Long sampled tracks (a key per frame) grew their arrays by doubling, a tenth of the whole load; the
    // shortest key line, `*CONTROL_POS_KEY 0 0 0 0`, is 23 bytes.
    let expected = lx.lines_before_brace(23);
    track.ticks.reserve_exact(expected);
    track.values.reserve_exact(expected);
    let usual = usual_key(channel, kind);
    let value_len = match channel {
        Channel::Pos => 3,
        Channel::Rot => 4,
        Channel::Scale => 3,
    };
    let mut nums = [0f32; 16];
    parse_list_of(lx, block, open, Some(usual.as_bytes()), |lx, key, line| {
        let name = if std::ptr::eq(key, usual.as_bytes()) || key == usual.as_bytes() {
            // The usual line of a sampled or linear track, in one pass.
            let read = match channel {
                Channel::Rot => lx.key_line::<4>().map(|(tick, v)| (tick, Vec4::from(v))),
                Channel::Pos | Channel::Scale => lx.key_line::<3>().map(|(tick, v)| (tick, Vec3::from(v).extend(0.0))),
            };
            if let Some((tick, value)) = read {
                track.push(tick, value, None);
                return Ok(true);
            }
            usual
        } else {
            // Any key line of the channel (the keyword for messages as a literal, no conversion per key line).
            match key_keywords(channel).into_iter().find(|name| name.as_bytes() == key) {
                Some(name) => name,
                None => return Ok(false),
            }
        };
        let tick = lx.arg_int(name)?;
        let mut n = 0;
        while n < nums.len() && !lx.at_line_end() {
            nums[n] = lx.arg_f32(name)?;
            n += 1;
        }
        if n < value_len {
            return Err(LoadError::at_line(
                line,
                format!("*{name}: expected {value_len} numbers after the tick, found {n}"),
            )
            .with_kind(lx.bad_value_kind()));
        }
        let value = Vec4::new(nums[0], nums[1], nums[2], if channel == Channel::Rot { nums[3] } else { 0.0 });
        let rest = &nums[value_len..n];
        let extras = if rest.is_empty() { None } else { key_extras(channel, kind, rest) };
        track.push(tick, value, extras);
        Ok(true)
    })?;
    Ok(track)
}

/// What the numbers after a key's value hold, by channel and key type (`None` when nothing the loader uses).
fn key_extras(channel: Channel, kind: TrackKind, mut rest: &[f32]) -> Option<KeyExtras> {
    let mut extras = KeyExtras::default();
    // Scale keys carry the scale axis (axis + angle) after the factors, unless the extras alone fit.
    let extra_len = match kind {
        TrackKind::Tcb => 5,
        TrackKind::Bezier => 7,
        _ => 0,
    };
    if channel == Channel::Scale && rest.len() >= 4 && rest.len() != extra_len {
        extras.scale_axis = Vec4::new(rest[0], rest[1], rest[2], rest[3]);
        rest = &rest[4..];
    }
    match kind {
        TrackKind::Tcb => {
            for (slot, v) in extras.tcb.iter_mut().zip(rest) {
                *slot = *v;
            }
        }
        TrackKind::Bezier if rest.len() >= 6 => {
            extras.tangents = Some((Vec3::new(rest[0], rest[1], rest[2]), Vec3::new(rest[3], rest[4], rest[5])));
        }
        _ => {}
    }
    (extras != KeyExtras::default()).then_some(extras)
}
