//! Compiled model scripts (`.MSB`): the binary form the engine writes of an MDS, read into the same
//! [`ModelScript`] the text reader ([`crate::io::script`]'s `mds`) makes, so the character is built from it by
//! the same code — sequences, aliases, blends, combinations, disabled animations, model tags, events and
//! registered meshes alike.
//!
//! The layout follows ZenKit's `parse_binary_script` (`src/ModelScript.cc`) and the corpus's `waran.msb` (the
//! Gothic II WARAN, compiled from `\_WORK\DATA\ANIMS\WARAN.MDS` on 2002-08-28): a run of chunks, each a `u16`
//! type and a `u32` length, strings ending in `\n`. ROOT `F000` and SOURCE `F100` (a date and the source path)
//! open the file; `F200`/`F2FF` and `F500`/`F5FF` are the `Model` and `aniEnum` blocks; `F300` meshAndTree
//! (`u32` DONT_USE_MESH, the name), `F400` registerMesh, `F520` ani (name, layer, next, blend in and out,
//! flags, file, direction, first and last frame, fps, speed, collision volume scale), `F530` aniAlias, `F540`
//! aniBlend, `F570` aniComb, `F580` aniDisable, `F590` modelTag; `F5A0`…`F5AF` an events block (its count)
//! with `F5A1` eventSFX, `F5A2` eventSFXGrnd, `F5A3` eventTag, `F5A4` eventPFX, `F5A5` eventPFXStop, `F5A9`
//! eventMMStartAni and `F5AA` eventCamTremor. An events block belongs to the sequence before it.
//!
//! What the compiler changes, and how it is read back so the script reads as its source does:
//! - names are upper case (`S_FISTRUN` for `s_FistRun`); they are kept so (names match without case);
//! - `meshAndTree` loses its `.ASC` (`WAR_BODY` for `War_Body.asc`); it is given back, so the file is found;
//! - the defaults are written out: an ani's fps 25 and collision volume scale 1, a sound's range (2500 for
//!   eventSFX, 1000 for eventSFXGrnd: every sound of `waran.msb` without `R:` in WARAN.MDS has those), a particle
//!   effect's index 0. A default reads back as not written (`collision_scale` `None`, no `R:`);
//! - a sound's EMPTY_SLOT is a float after the range: 0 where the source says EMPTY_SLOT, 1 where it does not
//!   (every eventSFX of WARAN.MDS has EMPTY_SLOT and is stored 0; its eventSFXGrnds have none and are stored 1).
//!   ZenKit reads that float as the flag itself (true when non-zero); the source says otherwise;
//! - an eventTag's arguments are four strings, empty where the source had fewer: trailing empty ones are
//!   dropped. Where an eventTag's `ATTACH` goes is not known (ZenKit does not read it either).
//!
//! Positions: an item's `line` is the byte offset of its chunk (the script's warnings then say `byte N`, see
//! [`crate::io::script::load`]). Chunks this reader does not know are skipped, each kind named once in a warning.

use std::collections::BTreeSet;

use crate::io::binary::Reader;
use crate::io::script::mds::{ParsedMds, set_next};
use crate::io::{LoadError, LoadErrorKind};
use crate::scene::{
    AniBlend, AniComb, BodyChoice, BodyGroup, ModelScript, ModelTag, ScriptEvent, ScriptLanguage, ScriptSequence,
    SequenceKind, Warning,
};

const ROOT: u16 = 0xF000;
const SOURCE: u16 = 0xF100;
const MODEL: u16 = 0xF200;
const MODEL_END: u16 = 0xF2FF;
const MESH_AND_TREE: u16 = 0xF300;
const REGISTER_MESH: u16 = 0xF400;
const ANI_ENUM: u16 = 0xF500;
const ANI_ENUM_END: u16 = 0xF5FF;
const ANI: u16 = 0xF520;
const ALIAS: u16 = 0xF530;
const BLEND: u16 = 0xF540;
const COMB: u16 = 0xF570;
const DISABLE: u16 = 0xF580;
const MODEL_TAG: u16 = 0xF590;
const EVENTS: u16 = 0xF5A0;
const EVENTS_END: u16 = 0xF5AF;
const EVENT_SFX: u16 = 0xF5A1;
const EVENT_SFX_GROUND: u16 = 0xF5A2;
const EVENT_TAG: u16 = 0xF5A3;
const EVENT_PFX: u16 = 0xF5A4;
const EVENT_PFX_STOP: u16 = 0xF5A5;
const EVENT_MM_ANI: u16 = 0xF5A9;
const EVENT_CAM_TREMOR: u16 = 0xF5AA;
const END: u16 = 0xFFFF;

/// The collision volume scale the compiler writes for an ani without `CVS:`.
const DEFAULT_CVS: f32 = 1.0;
/// The range the compiler writes for an eventSFX without `R:`.
const DEFAULT_SFX_RANGE: f32 = 2500.0;
/// The range the compiler writes for an eventSFXGrnd without `R:`.
const DEFAULT_SFX_GROUND_RANGE: f32 = 1000.0;

/// True when `bytes` start as a compiled model script does: a ROOT chunk whose length fits the file.
pub fn is_msb(bytes: &[u8]) -> bool {
    let mut r = Reader::new(bytes);
    matches!((r.u16(""), r.u32("")), (Ok(ROOT), Ok(len)) if (len as usize) <= r.remaining())
}

/// Reads a compiled model script.
pub fn parse(bytes: &[u8]) -> Result<ParsedMds, LoadError> {
    let mut script = ModelScript::new(ScriptLanguage::GothicMds);
    let mut skeleton: Option<(String, bool, usize)> = None;
    let mut warnings: Vec<Warning> = Vec::new();
    let mut unknown: BTreeSet<u16> = BTreeSet::new();
    let mut r = Reader::new(bytes);
    let mut first = true;
    while !r.at_end() {
        let at = r.offset();
        let kind = r.u16("MSB chunk type")?;
        let len = r.u32("MSB chunk length")? as usize;
        if first && kind != ROOT && kind != SOURCE && kind != MODEL {
            return Err(LoadError::at_byte(
                0,
                format!("not a compiled model script: it starts with chunk {kind:#06x}, not the root chunk 0xf000"),
            )
            .with_kind(LoadErrorKind::NotThisFormat));
        }
        first = false;
        let mut c = r.sub(len, &format!("MSB chunk {kind:#06x}"))?;
        let line = at as usize;
        match kind {
            ROOT | MODEL | MODEL_END | ANI_ENUM | ANI_ENUM_END | EVENTS | EVENTS_END => {}
            SOURCE => {
                c.skip(16, "MSB source date")?;
                // The source's file name is the model's: the compiled script keeps no `Model ("…")` name.
                let source = string(&mut c, "MSB source path")?;
                let stem = source.rsplit(['\\', '/']).next().unwrap_or_default();
                script.name = stem.rsplit_once('.').map_or(stem, |(s, _)| s).to_owned();
            }
            MESH_AND_TREE => {
                let dont_use_mesh = c.u32("meshAndTree DONT_USE_MESH")? != 0;
                let mut name = string(&mut c, "meshAndTree name")?;
                if !name.contains('.') {
                    name.push_str(".ASC");
                }
                if !dont_use_mesh {
                    push_choice(&mut script, "meshAndTree", &name, line);
                }
                skeleton = Some((name, !dont_use_mesh, line));
            }
            REGISTER_MESH => {
                let name = string(&mut c, "registerMesh name")?;
                push_choice(&mut script, "registerMesh", &name, line);
            }
            ANI => {
                let name = string(&mut c, "ani name")?;
                let layer = c.i32("ani layer")?;
                let next = string(&mut c, "ani next")?;
                let blend_in = c.f32("ani blend in")?;
                let blend_out = c.f32("ani blend out")?;
                let flags = string(&mut c, "ani flags")?;
                let file = string(&mut c, "ani file")?;
                let direction = string(&mut c, "ani direction")?;
                let first = c.i32("ani first frame")?;
                let last = c.i32("ani last frame")?;
                let fps = c.f32("ani fps")?;
                let _speed = c.f32("ani speed")?;
                let cvs = c.f32("ani collision volume scale")?;
                let fps = if fps.is_finite() && fps > 0.0 { fps } else { crate::io::script::mds::DEFAULT_FPS };
                let mut seq = ScriptSequence::new(&name, SequenceKind::Ani, fps, 0, line);
                seq.files.push(file);
                seq.layer = Some(layer);
                set_next(&mut seq, &next);
                seq.blend_in = blend_in;
                seq.blend_out = blend_out;
                seq.flags = flags;
                seq.reversed = direction.starts_with(['R', 'r']);
                seq.first_frame = Some(first.min(last));
                seq.last_frame = Some(first.max(last));
                if first > last {
                    warnings.push(Warning::new(
                        crate::io::Position::Byte(at),
                        format!("`ani \"{name}\"`: first frame {first} after last frame {last}; swapped"),
                    ));
                }
                seq.collision_scale = (cvs != DEFAULT_CVS).then_some(cvs);
                script.sequences.push(seq);
            }
            ALIAS => {
                let name = string(&mut c, "aniAlias name")?;
                let layer = c.i32("aniAlias layer")?;
                let next = string(&mut c, "aniAlias next")?;
                let blend_in = c.f32("aniAlias blend in")?;
                let blend_out = c.f32("aniAlias blend out")?;
                let flags = string(&mut c, "aniAlias flags")?;
                let of = string(&mut c, "aniAlias animation")?;
                let direction = string(&mut c, "aniAlias direction")?;
                let fps = crate::io::script::mds::DEFAULT_FPS;
                let mut seq = ScriptSequence::new(&name, SequenceKind::Alias { of }, fps, 0, line);
                seq.layer = Some(layer);
                set_next(&mut seq, &next);
                seq.blend_in = blend_in;
                seq.blend_out = blend_out;
                seq.flags = flags;
                seq.reversed = direction.starts_with(['R', 'r']);
                script.sequences.push(seq);
            }
            BLEND => {
                let name = string(&mut c, "aniBlend name")?;
                let next = string(&mut c, "aniBlend next")?;
                let blend_in = c.f32("aniBlend blend in")?;
                let blend_out = c.f32("aniBlend blend out")?;
                script.ani_blends.push(AniBlend { name, next, blend_in, blend_out, line });
            }
            COMB => {
                let comb = AniComb {
                    name: string(&mut c, "aniComb name")?,
                    layer: c.i32("aniComb layer")?,
                    next: string(&mut c, "aniComb next")?,
                    blend_in: c.f32("aniComb blend in")?,
                    blend_out: c.f32("aniComb blend out")?,
                    flags: string(&mut c, "aniComb flags")?,
                    prefix: string(&mut c, "aniComb prefix")?,
                    count: c.i32("aniComb count")?,
                    line,
                };
                script.ani_combs.push(comb);
            }
            DISABLE => script.ani_disabled.push(string(&mut c, "aniDisable name")?),
            MODEL_TAG => {
                let _frame = c.i32("modelTag frame")?;
                let kind = string(&mut c, "modelTag type")?;
                let bone = string(&mut c, "modelTag bone")?;
                script.model_tags.push(ModelTag { kind, bone, line });
            }
            EVENT_SFX | EVENT_SFX_GROUND | EVENT_TAG | EVENT_PFX | EVENT_PFX_STOP | EVENT_MM_ANI | EVENT_CAM_TREMOR => {
                let event = event(kind, &mut c, line)?;
                match script.sequences.last_mut() {
                    Some(seq) => seq.events.push(event),
                    None => warnings.push(Warning::new(
                        crate::io::Position::Byte(at),
                        format!("an `*{}` before any animation; ignored", event.kind),
                    )),
                }
            }
            END => break,
            _ => {
                unknown.insert(kind);
            }
        }
    }
    if !unknown.is_empty() {
        let kinds: Vec<String> = unknown.iter().map(|k| format!("{k:#06x}")).collect();
        warnings.push(Warning::new(
            crate::io::Position::File,
            format!("chunks of a kind this reader does not know were skipped: {}", kinds.join(", ")),
        ));
    }
    if skeleton.is_none() && script.body_groups.is_empty() && script.sequences.is_empty() {
        return Err(LoadError::whole_file("the compiled model script holds no meshAndTree, mesh or animation"));
    }
    Ok(ParsedMds { script, skeleton, warnings })
}

/// A `\n`-terminated string of a chunk (a last one may end with the chunk).
fn string(c: &mut Reader, what: &str) -> Result<String, LoadError> {
    let at = c.offset();
    c.line().ok_or_else(|| LoadError::truncated(at, format!("{what}: the chunk ends before it")))
}

fn push_choice(script: &mut ModelScript, group: &str, file: &str, line: usize) {
    let choice = BodyChoice { name: file.to_owned(), path: None, meshes: Vec::new(), placement: None, file: 0, line };
    match script.body_groups.iter_mut().find(|g| g.name == group) {
        Some(g) => g.choices.push(choice),
        None => script.body_groups.push(BodyGroup { name: group.to_owned(), choices: vec![choice], file: 0, line }),
    }
}

/// A number as the text would have it (`2000`, `67.4`).
fn number(v: f32) -> String {
    format!("{v}")
}

/// One event chunk as the text reader would have read its `*event…` line.
fn event(kind: u16, c: &mut Reader, line: usize) -> Result<ScriptEvent, LoadError> {
    let frame = c.i32("event frame")?;
    let (name, args): (&str, Vec<String>) = match kind {
        EVENT_SFX | EVENT_SFX_GROUND => {
            let sound = string(c, "sound name")?;
            let range = c.f32("sound range")?;
            let slot = c.f32("sound slot")?;
            let default = if kind == EVENT_SFX { DEFAULT_SFX_RANGE } else { DEFAULT_SFX_GROUND_RANGE };
            let mut args = vec![sound];
            if range != default {
                args.push(format!("R:{}", number(range)));
            }
            if slot == 0.0 {
                args.push("EMPTY_SLOT".into());
            }
            (if kind == EVENT_SFX { "eventSFX" } else { "eventSFXGrnd" }, args)
        }
        EVENT_TAG => {
            let mut args = vec![string(c, "eventTag type")?];
            for _ in 0..4 {
                match c.line() {
                    Some(s) => args.push(s),
                    None => break,
                }
            }
            while args.len() > 1 && args.last().is_some_and(String::is_empty) {
                args.pop();
            }
            ("eventTag", args)
        }
        EVENT_PFX => {
            let index = c.i32("eventPFX index")?;
            let effect = string(c, "eventPFX name")?;
            let position = string(c, "eventPFX position")?;
            let attached = c.u32("eventPFX attach")? != 0;
            let mut args = Vec::new();
            if index != 0 {
                args.push(index.to_string());
            }
            args.push(effect);
            args.push(position);
            if attached {
                args.push("ATTACH".into());
            }
            ("eventPFX", args)
        }
        EVENT_PFX_STOP => ("eventPFXStop", vec![c.i32("eventPFXStop index")?.to_string()]),
        EVENT_MM_ANI => {
            let mut args = vec![string(c, "eventMMStartAni animation")?];
            let node = string(c, "eventMMStartAni node")?;
            if !node.is_empty() {
                args.push(node);
            }
            ("eventMMStartAni", args)
        }
        _ => {
            let mut args = Vec::new();
            for _ in 0..4 {
                args.push(c.i32("eventCamTremor value")?.to_string());
            }
            ("eventCamTremor", args)
        }
    };
    // The text reader's `text` is the first quoted argument: numbers are not quoted.
    let text = match kind {
        EVENT_PFX_STOP | EVENT_CAM_TREMOR => String::new(),
        EVENT_PFX => args.iter().find(|a| a.parse::<i32>().is_err()).cloned().unwrap_or_default(),
        _ => args.first().cloned().unwrap_or_default(),
    };
    Ok(ScriptEvent { frame, kind: name.to_owned(), kind_name: None, text, args, line })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[allow(dead_code)]
    mod writer {
        use crate as bonescope;
        include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/common/msb_writer.rs"));
    }

    /// ZenKit's sample of the MDS grammar's corners (`waran.mds`: every kind of event, options, odd spacing)
    /// reads the same from its compiled form as from its text.
    #[test]
    fn every_statement_and_event_reads_back_from_the_compiled_form() {
        let Some(corpus) = std::env::var_os("BONESCOPE_CORPUS") else { return };
        let text = std::fs::read(std::path::Path::new(&corpus).join("zengin/waran.mds")).unwrap();
        let parsed = crate::io::script::mds::parse(&crate::io::script::lex::decode(&text)).unwrap();
        let skeleton = parsed.skeleton.as_ref().map(|(n, use_mesh, _)| (n.as_str(), *use_mesh));
        let source = format!("{}.MDS", parsed.script.name);
        let bytes = writer::write_msb(&parsed.script, skeleton, &source);
        let compiled = parse(&bytes).unwrap();
        // The sample misspells one option (`EMTPY_SLOT`): the text keeps it as written, a compiled script has
        // nowhere to keep it. Everything else reads back.
        let mut text_summary = writer::script_summary(&parsed.script);
        for line in &mut text_summary {
            *line = line.replace(", \"EMTPY_SLOT\"", "");
        }
        assert_eq!(writer::script_summary(&compiled.script), text_summary);
        assert_eq!(
            compiled.skeleton.map(|(n, u, _)| (n.to_uppercase(), u)),
            parsed.skeleton.map(|(n, u, _)| (n.to_uppercase(), u))
        );
        // Every kind of event was there to read.
        let kinds: BTreeSet<String> =
            compiled.script.sequences.iter().flat_map(|s| s.events.iter().map(|e| e.kind.clone())).collect();
        assert_eq!(kinds.len(), 7, "{kinds:?}");
        assert!(compiled.warnings.is_empty(), "{:?}", compiled.warnings);
    }

    fn chunk(kind: u16, body: &[u8]) -> Vec<u8> {
        let mut out = kind.to_le_bytes().to_vec();
        out.extend((body.len() as u32).to_le_bytes());
        out.extend_from_slice(body);
        out
    }

    #[test]
    fn hostile_chunks_are_errors_naming_where() {
        let mut bytes = chunk(ROOT, b"\x01\0\0\0\\X\\\n");
        assert!(is_msb(&bytes));
        // A chunk longer than the file.
        let mut long = bytes.clone();
        long.extend(chunk(MESH_AND_TREE, b"\x01\0\0\0BODY\n"));
        let n = long.len();
        long[n - 13..n - 9].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = parse(&long).unwrap_err();
        assert_eq!(e.kind, LoadErrorKind::Truncated);
        assert!(e.to_string().contains("0xf300"), "{e}");
        // An ani cut short inside its chunk.
        bytes.extend(chunk(ANI, b"S_RUN\n\x01\0\0\0"));
        let e = parse(&bytes).unwrap_err();
        assert_eq!(e.kind, LoadErrorKind::Truncated, "{e}");
        // Not an MSB at all.
        assert_eq!(parse(b"Model (\"x\") {}").unwrap_err().kind, LoadErrorKind::NotThisFormat);
        assert!(!is_msb(b"\0\xF0\xFF\xFF\xFF\x7F"));
    }
}
