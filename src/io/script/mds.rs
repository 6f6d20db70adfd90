//! Gothic model scripts → [`ModelScript`]: MDS (`Model ("name") { … }`) and MMS (`morphMesh ("name") { … }`).
//! Reading only; the ASC files they name are loaded by `build`.
//!
//! The grammar follows ZenKit's `MdsParser` (`src/ModelScriptDsl.cc`), the reader Gothic tools and OpenGothic
//! use, and the Gothic Modding Community's MDS/MMS pages:
//! - MDS `Model` block: `meshAndTree ("file.asc" [DONT_USE_MESH])`, `registerMesh ("file.asc")`, `aniEnum { … }`.
//! - `aniEnum`: `ani ("name" layer "next" blendIn blendOut flags "file.asc" F|R first last [FPS:n] [CVS:n])`
//!   with an optional `{ *eventSFX (frame "name" [R:range] [EMPTY_SLOT]) … }` block; `aniAlias ("name" layer
//!   "next" blendIn blendOut flags "alias" [F|R])`; `aniBlend ("name" [layer] "next" [blendIn blendOut])`;
//!   `aniComb ("name" layer "next" blendIn blendOut flags "prefix" count)`; `aniDisable ("name")`;
//!   `modelTag ("DEF_HIT_LIMB" "bone")`. Every `*event…` keyword is read the same way (frame — optional for
//!   `*eventTag`, 0 then, as ZenKit — and its arguments), so `*eventPFX`, `*eventMMStartAni`, `*eventCamTremor`,
//!   `*eventSwapMesh` … are all kept with their text.
//! - MMS `morphMesh` block: `morphRef ("file.asc")`, `morphAni ("name" layer blendIn hold blendOut flags
//!   "file.asc" first last [SPD:fps])`; flag `L` loops.
//! - Flags are one word (`M.`, `MF`, `.`); a `:` after them (a quirk ZenKit notes) is skipped. Parentheses
//!   carry no meaning to ZenKit; here `)` ends a statement written on one line, and a statement missing its
//!   `)` ends at its line's end.
//! - The outer `Model`/`aniEnum`/`morphMesh` block may end at the end of the file without its `}` (ZenKit stops
//!   there; the game's own `BLOODFLY.MDS` is written so) — a warning. A stray `}` — one that would close the
//!   `aniEnum` or `Model` block while statements of that block follow it, or one after the `Model` block — is
//!   skipped with a warning naming its line: ZenKit ends the script there and drops the rest, mod scripts carry
//!   such braces, and the statements after one are meant to be read (they are what the game plays). An events
//!   block still open when the next `ani` starts, or open at the end of the file, is an error naming the line.
//!   A statement with missing or malformed arguments is a warning and is skipped. Names are trimmed.
//! - Frame numbers are the ASC file's own frame numbers (`*SCENE_FIRSTFRAME` based), as the Modding
//!   Community's page says ("on what frame from the source file the animation starts").

use super::lex::{Cursor, Kind, Syntax, Token, tokenize};
use crate::io::{LoadError, LoadErrorKind};
use crate::scene::{
    AniBlend, AniComb, BodyChoice, BodyGroup, IgnoredCommand, ModelScript, ModelTag, ScriptEvent, ScriptLanguage,
    ScriptSequence, SequenceKind, Warning,
};

/// The game's frame rate for `ani`s without `FPS:` (ZenKit's default).
pub const DEFAULT_FPS: f32 = 25.0;

/// A parsed MDS or MMS.
#[derive(Debug)]
pub struct ParsedMds {
    pub script: ModelScript,
    /// `meshAndTree` (the skeleton) and whether its mesh is used; MMS: the `morphRef`.
    pub skeleton: Option<(String, bool, usize)>,
    pub warnings: Vec<Warning>,
}

/// Parses an MDS or MMS (the top-level keyword decides which).
pub fn parse(text: &str) -> Result<ParsedMds, LoadError> {
    let (tokens, warnings) = tokenize(text, Syntax::Mds)?;
    let mut p = Parser {
        script: ModelScript::new(ScriptLanguage::GothicMds),
        skeleton: None,
        warnings,
        cur: Cursor::new(&tokens),
    };
    p.top()?;
    Ok(ParsedMds { script: p.script, skeleton: p.skeleton, warnings: p.warnings })
}

struct Parser<'t, 'a> {
    script: ModelScript,
    skeleton: Option<(String, bool, usize)>,
    warnings: Vec<Warning>,
    cur: Cursor<'t, 'a>,
}

/// The arguments of one statement, parentheses removed.
struct Args<'a> {
    tokens: Vec<Token<'a>>,
    pos: usize,
}

impl<'a> Args<'a> {
    fn next(&mut self) -> Option<Token<'a>> {
        let t = self.tokens.get(self.pos).copied();
        self.pos += 1;
        t
    }

    fn peek(&self) -> Option<Token<'a>> {
        self.tokens.get(self.pos).copied()
    }

    /// A quoted argument without the spaces and tabs around it: the game finds `"s_Run\t"` as `s_Run` (mod
    /// scripts carry such tabs before the closing quote, and an alias of one was otherwise not found).
    fn string(&mut self) -> Option<&'a str> {
        self.next().filter(|t| t.kind == Kind::Quoted).map(|t| t.text.trim())
    }

    fn word(&mut self) -> Option<&'a str> {
        self.next().filter(|t| t.kind == Kind::Word).map(|t| t.text)
    }

    fn int(&mut self) -> Option<i32> {
        self.word().and_then(|w| w.parse::<i32>().ok())
    }

    fn num(&mut self) -> Option<f32> {
        self.word().and_then(|w| w.parse::<f32>().ok())
    }

    fn maybe_int(&mut self) -> Option<i32> {
        let v = self.peek().filter(|t| t.kind == Kind::Word).and_then(|t| t.text.parse::<i32>().ok())?;
        self.pos += 1;
        Some(v)
    }

    fn maybe_num(&mut self) -> Option<f32> {
        let v = self.peek().filter(|t| t.kind == Kind::Word).and_then(|t| t.text.parse::<f32>().ok())?;
        self.pos += 1;
        Some(v)
    }

    /// Flags: one word, and the `:` some scripts put after it.
    fn flags(&mut self) -> Option<&'a str> {
        let w = self.word()?;
        if self.peek().is_some_and(|t| t.kind == Kind::Colon) {
            self.pos += 1;
        }
        Some(w)
    }

    /// `NAME:value` options anywhere in the rest (`FPS:15`, `CVS:0.5`, `SPD:10`).
    fn named(&self, name: &str) -> Option<f32> {
        let rest = self.tokens.get(self.pos..)?;
        rest.windows(3).find_map(|w| {
            (w[0].kind == Kind::Word && w[0].text.eq_ignore_ascii_case(name) && w[1].kind == Kind::Colon)
                .then(|| w[2].text.parse::<f32>().ok())
                .flatten()
        })
    }

    fn texts(&self) -> Vec<String> {
        self.tokens.iter().map(|t| t.text.to_owned()).collect()
    }
}

impl<'a> Parser<'_, 'a> {
    fn warn(&mut self, line: usize, message: impl Into<String>) {
        self.warnings.push(Warning::new(format!("line {line}"), message));
    }

    /// The arguments of the statement whose keyword is `head`: up to its `)`, or to the end of its line.
    fn statement(&mut self, head: Token<'a>) -> Args<'a> {
        let mut tokens = Vec::new();
        let mut last_line = head.line;
        let mut paren = false;
        while let Some(t) = self.cur.peek() {
            match t.kind {
                Kind::LParen if !paren && t.line == head.line => {
                    paren = true;
                    self.cur.next();
                }
                Kind::RParen => {
                    self.cur.next();
                    break;
                }
                Kind::Open | Kind::Close => break,
                _ if t.line != last_line => break,
                _ => {
                    tokens.push(t);
                    last_line = t.line;
                    self.cur.next();
                }
            }
        }
        Args { tokens, pos: 0 }
    }

    fn top(&mut self) -> Result<(), LoadError> {
        let Some(head) = self.cur.next() else {
            return Err(LoadError::at_line(1, "no `Model (\"…\")` or `morphMesh (\"…\")` block: the script is empty")
                .with_kind(LoadErrorKind::NotThisFormat));
        };
        let keyword = head.text.to_ascii_lowercase();
        let language = match (head.kind, keyword.as_str()) {
            (Kind::Word, "model") => ScriptLanguage::GothicMds,
            (Kind::Word, "morphmesh") => ScriptLanguage::GothicMms,
            _ => {
                return Err(LoadError::at_line(
                    head.line,
                    format!("expected `Model (\"name\")` or `morphMesh (\"name\")`, found `{}`", head.text),
                )
                .with_kind(LoadErrorKind::NotThisFormat));
            }
        };
        self.script.language = language;
        let mut args = self.statement(head);
        self.script.name = args.string().unwrap_or_default().to_owned();
        let Some(open) = self.cur.next().filter(|t| t.kind == Kind::Open) else {
            return Err(LoadError::at_line(head.line, format!("`{}` is not followed by a `{{` block", head.text)));
        };
        let closed = if language == ScriptLanguage::GothicMds { self.model_block()? } else { self.morph_block()? };
        if !closed {
            self.warn(
                open.line,
                format!(
                    "the `{}` block opened here is not closed before the end of the file; read as closed there (as \
                     ZenKit does)",
                    head.text
                ),
            );
        }
        while let Some(extra) = self.cur.peek().filter(|t| t.kind == Kind::Close) {
            self.warn(
                extra.line,
                format!("a `}}` after the end of the `{}` block, with nothing to close; skipped", head.text),
            );
            self.cur.next();
        }
        if let Some(extra) = self.cur.peek() {
            self.warn(extra.line, format!("text after the `{}` block was ignored", head.text));
        }
        Ok(())
    }

    /// A `}` that would close the block whose statements still follow it (`keywords` of that block): a stray
    /// brace, skipped with a warning naming its line.
    fn stray_close(&mut self, close: Token<'a>, block: &str, keywords: &[&str]) -> bool {
        let Some(next) = self.cur.peek() else { return false };
        let continues = next.kind == Kind::Word && keywords.iter().any(|k| next.text.eq_ignore_ascii_case(k));
        if continues {
            self.warn(
                close.line,
                format!(
                    "a `}}` with no block to close: the `{block}` block goes on with `{}` at line {}; skipped",
                    next.text, next.line
                ),
            );
        }
        continues
    }

    /// The inside of `Model { … }`; true when its `}` was found.
    fn model_block(&mut self) -> Result<bool, LoadError> {
        while let Some(t) = self.cur.next() {
            match t.kind {
                Kind::Close if self.stray_close(t, "Model", &["meshAndTree", "registerMesh", "aniEnum"]) => continue,
                Kind::Close => return Ok(true),
                Kind::Open => return Err(LoadError::at_line(t.line, "a `{` that belongs to no statement")),
                _ => {}
            }
            match t.text.to_ascii_lowercase().as_str() {
                "meshandtree" => {
                    let mut a = self.statement(t);
                    match a.string() {
                        Some(file) => {
                            let use_mesh = !a.word().is_some_and(|w| w.eq_ignore_ascii_case("DONT_USE_MESH"));
                            self.skeleton = Some((file.to_owned(), use_mesh, t.line));
                            if use_mesh {
                                self.push_choice("meshAndTree", file, t.line);
                            }
                        }
                        None => self.warn(t.line, "`meshAndTree` needs a file name; ignored"),
                    }
                }
                "registermesh" => {
                    let mut a = self.statement(t);
                    match a.string() {
                        Some(file) => self.push_choice("registerMesh", file, t.line),
                        None => self.warn(t.line, "`registerMesh` needs a file name; ignored"),
                    }
                }
                "anienum" => {
                    let Some(open) = self.cur.next().filter(|o| o.kind == Kind::Open) else {
                        return Err(LoadError::at_line(t.line, "`aniEnum` is not followed by a `{` block"));
                    };
                    if !self.ani_enum()? {
                        self.warn(
                            open.line,
                            "the `aniEnum` block opened here is not closed before the end of the file",
                        );
                        return Ok(false);
                    }
                }
                _ => self.ignore(t)?,
            }
        }
        Ok(false)
    }

    fn push_choice(&mut self, group: &str, file: &str, line: usize) {
        let choice =
            BodyChoice { name: file.to_owned(), path: None, meshes: Vec::new(), placement: None, file: 0, line };
        match self.script.body_groups.iter_mut().find(|g| g.name == group) {
            Some(g) => g.choices.push(choice),
            None => {
                self.script.body_groups.push(BodyGroup { name: group.to_owned(), choices: vec![choice], file: 0, line })
            }
        }
    }

    /// A statement that is read and not used; its block (if any) is skipped.
    fn ignore(&mut self, head: Token<'a>) -> Result<(), LoadError> {
        let args = self.statement(head);
        self.script.ignored.push(IgnoredCommand {
            name: head.text.to_owned(),
            args: args.texts(),
            file: 0,
            line: head.line,
        });
        if self.cur.peek().is_some_and(|t| t.kind == Kind::Open)
            && let Some(open) = self.cur.next()
        {
            self.skip_block(open)?;
        }
        Ok(())
    }

    fn skip_block(&mut self, open: Token) -> Result<(), LoadError> {
        let mut depth = 1;
        while depth > 0 {
            let Some(t) = self.cur.next() else {
                return Err(LoadError::at_line(
                    open.line,
                    "the `{` opened here is not closed before the end of the file",
                )
                .with_kind(LoadErrorKind::Truncated));
            };
            match t.kind {
                Kind::Open => depth += 1,
                Kind::Close => depth -= 1,
                _ => {}
            }
        }
        Ok(())
    }

    /// The inside of `aniEnum { … }`; true when its `}` was found.
    fn ani_enum(&mut self) -> Result<bool, LoadError> {
        const STATEMENTS: [&str; 6] = ["ani", "aniAlias", "aniBlend", "aniComb", "aniDisable", "modelTag"];
        while let Some(t) = self.cur.next() {
            match t.kind {
                Kind::Close if self.stray_close(t, "aniEnum", &STATEMENTS) => continue,
                Kind::Close => return Ok(true),
                Kind::Open => return Err(LoadError::at_line(t.line, "a `{` that belongs to no statement")),
                _ => {}
            }
            match t.text.to_ascii_lowercase().as_str() {
                "ani" => self.ani(t)?,
                "anialias" => self.alias(t)?,
                "aniblend" => self.blend(t)?,
                "anicomb" => self.comb(t)?,
                "anidisable" => {
                    let mut a = self.statement(t);
                    match a.string() {
                        Some(name) => self.script.ani_disabled.push(name.to_owned()),
                        None => self.warn(t.line, "`aniDisable` needs an animation name; ignored"),
                    }
                }
                "modeltag" => {
                    let mut a = self.statement(t);
                    match (a.string(), a.string()) {
                        (Some(kind), Some(bone)) => self.script.model_tags.push(ModelTag {
                            kind: kind.to_owned(),
                            bone: bone.to_owned(),
                            line: t.line,
                        }),
                        _ => self.warn(t.line, "`modelTag` needs a tag and a bone; ignored"),
                    }
                }
                _ => {
                    self.warn(t.line, format!("`{}` is not an `aniEnum` statement; read and ignored", t.text));
                    self.ignore(t)?;
                }
            }
        }
        Ok(false)
    }

    fn ani(&mut self, head: Token<'a>) -> Result<(), LoadError> {
        let mut a = self.statement(head);
        let parsed = (|| {
            let name = a.string()?;
            let layer = a.int()?;
            let next = a.string()?;
            let blend_in = a.num()?;
            let blend_out = a.num()?;
            let flags = a.flags()?;
            let file = a.string()?;
            let dir = a.word().filter(|d| d.eq_ignore_ascii_case("F") || d.eq_ignore_ascii_case("R"))?;
            let first = a.int()?;
            let last = a.int()?;
            Some((name, layer, next, blend_in, blend_out, flags, file, dir, first, last))
        })();
        let events = self.events_block(head)?;
        let Some((name, layer, next, blend_in, blend_out, flags, file, dir, first, last)) = parsed else {
            self.warn(
                head.line,
                "`ani` needs (\"name\" layer \"next\" blendIn blendOut flags \"file.asc\" F|R first last); skipped",
            );
            return Ok(());
        };
        let fps = a.named("FPS").filter(|f| f.is_finite() && *f > 0.0).unwrap_or(DEFAULT_FPS);
        let mut seq = ScriptSequence::new(name, SequenceKind::Ani, fps, 0, head.line);
        seq.files.push(file.to_owned());
        seq.layer = Some(layer);
        set_next(&mut seq, next);
        seq.blend_in = blend_in;
        seq.blend_out = blend_out;
        seq.flags = flags.to_owned();
        seq.reversed = dir.eq_ignore_ascii_case("R");
        seq.first_frame = Some(first.min(last));
        seq.last_frame = Some(first.max(last));
        if first > last {
            self.warn(head.line, format!("`ani \"{name}\"`: first frame {first} after last frame {last}; swapped"));
        }
        seq.collision_scale = a.named("CVS");
        seq.events = events;
        self.push_sequence(seq);
        Ok(())
    }

    fn push_sequence(&mut self, seq: ScriptSequence) {
        if self.script.sequences.iter().any(|s| s.name.eq_ignore_ascii_case(&seq.name)) {
            self.warn(seq.line, format!("a second animation named \"{}\"; both are listed", seq.name));
        }
        self.script.sequences.push(seq);
    }

    /// An optional `{ *event… }` block after an `ani` (its `{` may be on the next line).
    fn events_block(&mut self, owner: Token) -> Result<Vec<ScriptEvent>, LoadError> {
        let mut events = Vec::new();
        let Some(open) = self.cur.peek().filter(|t| t.kind == Kind::Open) else { return Ok(events) };
        self.cur.next();
        loop {
            let Some(t) = self.cur.next() else {
                return Err(LoadError::at_line(
                    open.line,
                    "the events block opened here is not closed before the end of the file",
                )
                .with_kind(LoadErrorKind::Truncated));
            };
            match t.kind {
                Kind::Close => break,
                Kind::Open => return Err(LoadError::at_line(t.line, "a `{` inside an events block")),
                _ if t.text.starts_with('*') => {
                    let mut a = self.statement(t);
                    let frame = a.maybe_int();
                    let is_tag = t.text.eq_ignore_ascii_case("*eventTag");
                    let Some(frame) = frame.or(is_tag.then_some(0)) else {
                        self.warn(t.line, format!("`{}` needs a frame number; ignored", t.text));
                        continue;
                    };
                    let rest: Vec<Token> = a.tokens[a.pos..].to_vec();
                    let args: Vec<String> = join_colons(&rest);
                    let text =
                        rest.iter().find(|r| r.kind == Kind::Quoted).map(|r| r.text.to_owned()).unwrap_or_default();
                    events.push(ScriptEvent {
                        frame,
                        kind: t.text.trim_start_matches('*').to_owned(),
                        kind_name: None,
                        text,
                        args,
                        line: t.line,
                    });
                }
                _ if is_statement_keyword(t.text) => {
                    return Err(LoadError::at_line(
                        open.line,
                        format!(
                            "the events block of `{}` opened here is not closed before `{}` at line {}",
                            owner.text, t.text, t.line
                        ),
                    ));
                }
                _ => {
                    self.warn(t.line, format!("`{}` is not an event; the line was skipped", t.text));
                    let _ = self.cur.rest_of_line(t.line);
                }
            }
        }
        Ok(events)
    }

    fn alias(&mut self, head: Token<'a>) -> Result<(), LoadError> {
        let mut a = self.statement(head);
        let parsed = (|| {
            let name = a.string()?;
            let layer = a.int()?;
            let next = a.string()?;
            let blend_in = a.num()?;
            let blend_out = a.num()?;
            let flags = a.flags()?;
            let of = a.string()?;
            Some((name, layer, next, blend_in, blend_out, flags, of))
        })();
        let dir = a.word();
        let events = self.events_block(head)?;
        let Some((name, layer, next, blend_in, blend_out, flags, of)) = parsed else {
            self.warn(
                head.line,
                "`aniAlias` needs (\"name\" layer \"next\" blendIn blendOut flags \"alias\" [F|R]); skipped",
            );
            return Ok(());
        };
        let mut seq = ScriptSequence::new(name, SequenceKind::Alias { of: of.to_owned() }, DEFAULT_FPS, 0, head.line);
        seq.layer = Some(layer);
        set_next(&mut seq, next);
        seq.blend_in = blend_in;
        seq.blend_out = blend_out;
        seq.flags = flags.to_owned();
        seq.reversed = dir.is_some_and(|d| d.eq_ignore_ascii_case("R"));
        // An alias's own events (its block) are its; without a block it keeps those of the animation it names.
        seq.events = events;
        self.push_sequence(seq);
        Ok(())
    }

    fn blend(&mut self, head: Token<'a>) -> Result<(), LoadError> {
        let mut a = self.statement(head);
        let name = a.string();
        let _layer = a.maybe_int();
        let next = a.string();
        let blend_in = a.maybe_num().unwrap_or(0.0);
        let blend_out = a.maybe_num().unwrap_or(0.0);
        let _ = self.events_block(head)?;
        match (name, next) {
            (Some(name), Some(next)) => self.script.ani_blends.push(AniBlend {
                name: name.to_owned(),
                next: next.to_owned(),
                blend_in,
                blend_out,
                line: head.line,
            }),
            _ => self.warn(head.line, "`aniBlend` needs (\"name\" \"next\" [blendIn blendOut]); skipped"),
        }
        Ok(())
    }

    fn comb(&mut self, head: Token<'a>) -> Result<(), LoadError> {
        let mut a = self.statement(head);
        let parsed = (|| {
            Some(AniComb {
                name: a.string()?.to_owned(),
                layer: a.int()?,
                next: a.string()?.to_owned(),
                blend_in: a.num()?,
                blend_out: a.num()?,
                flags: a.flags()?.to_owned(),
                prefix: a.string()?.to_owned(),
                count: a.int()?,
                line: head.line,
            })
        })();
        let _ = self.events_block(head)?;
        match parsed {
            Some(c) => self.script.ani_combs.push(c),
            None => self.warn(
                head.line,
                "`aniComb` needs (\"name\" layer \"next\" blendIn blendOut flags \"prefix\" count); skipped",
            ),
        }
        Ok(())
    }

    /// The inside of `morphMesh { … }`; true when its `}` was found.
    fn morph_block(&mut self) -> Result<bool, LoadError> {
        while let Some(t) = self.cur.next() {
            match t.kind {
                Kind::Close => return Ok(true),
                Kind::Open => return Err(LoadError::at_line(t.line, "a `{` that belongs to no statement")),
                _ => {}
            }
            match t.text.to_ascii_lowercase().as_str() {
                "morphref" => {
                    let mut a = self.statement(t);
                    match a.string() {
                        Some(file) => {
                            self.skeleton = Some((file.to_owned(), true, t.line));
                            self.push_choice("morphRef", file, t.line);
                        }
                        None => self.warn(t.line, "`morphRef` needs a file name; ignored"),
                    }
                }
                "morphani" => self.morph_ani(t),
                _ => {
                    self.warn(t.line, format!("`{}` is not a `morphMesh` statement; read and ignored", t.text));
                    self.ignore(t)?;
                }
            }
        }
        Ok(false)
    }

    fn morph_ani(&mut self, head: Token<'a>) {
        let mut a = self.statement(head);
        let parsed = (|| {
            let name = a.string()?;
            let layer = a.int()?;
            let blend_in = a.num()?;
            let hold = a.num()?;
            let blend_out = a.num()?;
            let flags = a.flags()?;
            let file = a.string()?;
            let first = a.int()?;
            let last = a.int()?;
            Some((name, layer, blend_in, hold, blend_out, flags, file, first, last))
        })();
        let Some((name, layer, blend_in, hold, blend_out, flags, file, first, last)) = parsed else {
            self.warn(
                head.line,
                "`morphAni` needs (\"name\" layer blendIn hold blendOut flags \"file.asc\" first last [SPD:fps]); skipped",
            );
            return;
        };
        let fps = a.named("SPD").filter(|f| f.is_finite() && *f > 0.0).unwrap_or(DEFAULT_FPS);
        let mut seq = ScriptSequence::new(name, SequenceKind::MorphAni, fps, 0, head.line);
        seq.files.push(file.to_owned());
        seq.layer = Some(layer);
        seq.blend_in = blend_in;
        seq.blend_out = blend_out;
        seq.hold = Some(hold);
        seq.flags = flags.to_owned();
        seq.looping = flags.contains(['L', 'l']);
        seq.first_frame = Some(first.min(last));
        seq.last_frame = Some(first.max(last));
        self.push_sequence(seq);
    }
}

/// `next`, and the loop flag it implies (an animation whose next is itself loops); shared with the compiled
/// form's reader (`io::zengin::msb`).
pub(crate) fn set_next(seq: &mut ScriptSequence, next: &str) {
    let next = next.trim();
    if !next.is_empty() {
        seq.looping = next.eq_ignore_ascii_case(&seq.name);
        seq.next = Some(next.to_owned());
    }
}

/// Arguments as written, with `R:2000`-style options put back together.
fn join_colons(tokens: &[Token]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut glue = false;
    for t in tokens {
        if t.kind == Kind::Colon {
            if let Some(last) = out.last_mut() {
                last.push(':');
                glue = true;
            }
            continue;
        }
        match (glue, out.last_mut()) {
            (true, Some(last)) => last.push_str(t.text),
            _ => out.push(t.text.to_owned()),
        }
        glue = false;
    }
    out
}

/// Keywords that start a statement of the `Model`/`aniEnum` level (their appearance inside an events block
/// means the block was not closed).
fn is_statement_keyword(word: &str) -> bool {
    matches!(
        word.to_ascii_lowercase().as_str(),
        "ani"
            | "anialias"
            | "aniblend"
            | "anicomb"
            | "anidisable"
            | "modeltag"
            | "anienum"
            | "meshandtree"
            | "registermesh"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const MDS: &str = r#"// header
Model ("Fly")
{
	meshAndTree ("Body.asc" DONT_USE_MESH)
	registerMesh ("Body.ASC")
	aniEnum
	{
		ani ("s_Run" 1 "s_Run" 0.0 0.1 M. "Run.asc" F 0 59)
		{
			*eventSFX (0 "WINGS")
			*eventSFX (20 "WINGS" EMPTY_SLOT)
			*eventTag (0 "DEF_WINDOW" "19	29")
		}
		aniBlend ("t_A_2_B" "s_B" 0.1 0.2)
		aniAlias ("t_Back" 1 "s_Run" 0.1 0.1 M. "s_Run" R)
		ani ("t_Warn" 1 "" 0.1 0.1 M. "Warn.asc" F 1 74 FPS:15)
		aniComb ("c_Look" 1 "c_Look" 0.1 0.1 M. "t_Look" 9)
		aniDisable ("s_Swim")
		modelTag ("DEF_HIT_LIMB" "BIP01 HEAD")
	}
"#;

    #[test]
    fn mds_statements_and_events() {
        let p = parse(MDS).unwrap();
        let s = &p.script;
        assert_eq!(s.language, ScriptLanguage::GothicMds);
        assert_eq!(s.name, "Fly");
        assert_eq!(p.skeleton, Some(("Body.asc".into(), false, 4)));
        assert_eq!(s.body_groups.len(), 1);
        assert_eq!(s.sequences.len(), 3);
        let run = &s.sequences[0];
        assert!(run.looping);
        assert_eq!((run.first_frame, run.last_frame, run.fps), (Some(0), Some(59), 25.0));
        assert_eq!(run.events.len(), 3);
        assert_eq!(run.events[1].args, ["WINGS", "EMPTY_SLOT"]);
        assert_eq!(run.events[2].args, ["DEF_WINDOW", "19\t29"]);
        assert_eq!(run.events[2].kind, "eventTag");
        let back = &s.sequences[1];
        assert_eq!(back.kind, SequenceKind::Alias { of: "s_Run".into() });
        assert!(back.reversed && !back.looping);
        assert_eq!(back.next.as_deref(), Some("s_Run"));
        let warn = &s.sequences[2];
        assert_eq!((warn.fps, warn.next.as_deref(), warn.looping), (15.0, None, false));
        assert_eq!(s.ani_blends[0].blend_out, 0.2);
        assert_eq!(s.ani_combs[0].count, 9);
        assert_eq!(s.ani_disabled, ["s_Swim"]);
        assert_eq!(s.model_tags[0].bone, "BIP01 HEAD");
        // The Model block is not closed: tolerated with a warning.
        assert!(p.warnings.iter().any(|w| w.message.contains("not closed")), "{:?}", p.warnings);
    }

    #[test]
    fn an_events_block_left_open_is_an_error_naming_its_line() {
        let text = "Model (\"x\")\n{\n aniEnum\n {\n  ani (\"a\" 1 \"\" 0 0 M. \"a.asc\" F 0 1)\n  {\n   *eventSFX (0 \"s\")\n  ani (\"b\" 1 \"\" 0 0 M. \"b.asc\" F 0 1)\n }\n}\n";
        let e = parse(text).unwrap_err();
        assert_eq!(e.position, crate::io::Position::Line(6), "{e}");
    }

    #[test]
    fn a_stray_brace_is_skipped_with_a_warning_naming_its_line() {
        // Line 8 closes nothing: the aniEnum goes on with `ani` on line 9, which is read.
        let text = "Model (\"x\")\n{\n aniEnum\n {\n  ani (\"a\" 1 \"\" 0 0 M. \"a.asc\" F 0 1)\n  {\n   *eventSFX (0 \"s\")\n  }\n  }\n  ani (\"b\" 1 \"\" 0 0 M. \"b.asc\" F 0 1)\n }\n}\n}\n";
        let p = parse(text).unwrap();
        assert_eq!(p.script.sequences.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        let stray: Vec<&Warning> = p.warnings.iter().filter(|w| w.message.contains("`}`")).collect();
        assert_eq!(stray.len(), 2, "{:?}", p.warnings);
        assert_eq!(stray[0].position, crate::io::Position::Line(9), "{:?}", stray[0]);
        assert!(stray[0].message.contains("goes on with `ani` at line 10"), "{}", stray[0].message);
        // And one after the Model block's end (line 13).
        assert_eq!(stray[1].position, crate::io::Position::Line(13), "{:?}", stray[1]);
    }

    #[test]
    fn names_are_trimmed() {
        let text = "Model (\"x\")\n{\n aniEnum\n {\n  ani (\"s_Run\t\" 1 \"s_Run\" 0 0 M. \" run.asc \" F 0 1)\n  aniAlias (\"t_Back\" 1 \"s_Run\" 0 0 M. \"s_Run\t\" R)\n }\n}\n";
        let p = parse(text).unwrap();
        assert_eq!(p.script.sequences[0].name, "s_Run");
        assert_eq!(p.script.sequences[0].files, ["run.asc"]);
        assert_eq!(p.script.sequences[1].kind, SequenceKind::Alias { of: "s_Run".into() });
    }

    #[test]
    fn mms_morph_anis() {
        let text = "morphMesh (\"Head\")\n{\n morphRef (\"HEAD.ASC\")\n morphAni (\"S_FRIGHTENED\" 1 1 -1 1 L \"HEAD_EMO.ASC\" 3 4 SPD:10)\n morphAni (\"R_BLINK\" 4 0.04 0 0.04 . \"HEAD_EMO.ASC\" 6 6 SPD:1)\n}\n";
        let p = parse(text).unwrap();
        assert_eq!(p.script.language, ScriptLanguage::GothicMms);
        assert_eq!(p.skeleton, Some(("HEAD.ASC".into(), true, 3)));
        let s = &p.script.sequences;
        assert_eq!(s.len(), 2);
        assert_eq!(
            (s[0].fps, s[0].looping, s[0].hold, s[0].first_frame, s[0].last_frame),
            (10.0, true, Some(-1.0), Some(3), Some(4))
        );
        assert_eq!((s[1].flags.as_str(), s[1].looping, s[1].blend_in), (".", false, 0.04));
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    }
}
