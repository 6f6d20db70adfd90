//! Valve QC (studiomdl model script) → [`ModelScript`]: what the character is made of and how its sequences
//! play. Reading only; the files it names are loaded by `build`.
//!
//! Grammar, as studiomdl reads it (Half-Life SDK `studiomdl.c` and its descendants, checked against the
//! standalone Half-Life studiomdl's `parse_qc_file` / `cmd_sequence`, and Blender Source Tools' `readQC` for
//! the Source additions):
//! - A command is a `$word` followed by its arguments on the same line; a `{ … }` block may follow, on the same
//!   line or starting the next one. Anything at the top level that is not a `$command` is skipped to the end of
//!   its line (studiomdl looks for the next line starting with `$`), with a warning.
//! - `$cd` and `$cdtexture` are relative to the QC's folder (studiomdl: `qc_path.parent_path() / cd`), also
//!   when written in an included file; `$pushd`/`$popd` stack further folders on `$cd` (Source).
//!   `$cdmaterials` folders (Source) are kept as written: they are relative to a game's `materials` folder.
//! - `$include "file"` reads another script in place: relative to the including file's folder, else the QC's
//!   folder (Blender Source Tools resolves against the QC's folder), else `$cd`; `.qci` then `.qc` is tried
//!   when no extension is written. Includes nest up to [`MAX_INCLUDE_DEPTH`] deep (scriplib's
//!   `MAX_INCLUDES`); a file including itself (directly or not) is an error naming the line.
//! - `$body name file [reverse] [scale s]` is a body group with one choice; `$bodygroup name { studio file …
//!   | blank … }` lists the choices; `$model name file { … }` (Source) is a body whose block is not read.
//! - `$sequence name file… options…`: the words after the name up to the first option are animation files
//!   (several: a blend sequence; a name given to `$animation` stands for that animation). Options: `fps n`,
//!   `loop`, `frame a b`, `blend control start end`, `activity`/`ACT_… weight`, motion flags (`X`…`AZR`,
//!   `LXR`…), `animation file`, and `{ event id frame ["options"] }` blocks; other options are kept as
//!   written. The sequence ends at the end of its line unless a `{` is open: braces may span lines
//!   (`headcrabbed#1`), and a block may start on the next line (Blender Source Tools' `awaiting_brace`).
//! - `$hbox group bone minx miny minz maxx maxy maxz`, `$attachment name|index bone x y z …`, `$bbox`,
//!   `$cbox` (six numbers), `$eyeposition`.
//! - `$scale s` and `$origin x y z [angle]` take effect for the bodies and sequences read after them, as in
//!   studiomdl (which grabs each file when it reads its command): each body choice and sequence records the
//!   [`Placement`] in effect, which a body's `scale s` or a sequence's `origin x y z`, `scale s` and
//!   `rotate angle` options override for that one item.
//! - `$definevariable NAME VALUE` defines a variable that `$NAME$` stands for from there on, in names, paths
//!   and `$include`s, quoted or not (`variables`).
//! - Every other `$command` is read with its arguments and block and listed as ignored.
//! - `$IF`/`$ELIF`/`$ELSE`/`$ENDIF` belong to another compiler's dialect: the first branch of each block is read,
//!   with a warning (`conditionals`).
//!
//! Errors (a `LoadError` with the line, and the file when it is an included one): unbalanced braces, an
//! `$include` that is not found, too deep or circular. Bad numbers in a command are warnings: the command is
//! skipped and the rest of the character stays usable.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use glam::Vec3;

use super::files::DirCache;
use super::lex::{Cursor, Kind, Syntax, Token, tokenize};
use super::unique_names;
use super::variables::{Unknown, Variables};
use crate::io::{LoadError, LoadErrorKind};
use crate::scene::{
    Activity, Attachment, BlendRange, BodyChoice, BodyGroup, Bounds, Hitbox, IgnoredCommand, ModelScript, Placement,
    ScriptEvent, ScriptLanguage, ScriptSequence, SequenceKind, Warning,
};

/// Deepest `$include` nesting accepted (the script itself is level 0), as studiomdl's scriplib
/// (`MAX_INCLUDES` 8 stack entries).
pub const MAX_INCLUDE_DEPTH: usize = 7;

/// studiomdl's frame rate for sequences without `fps`.
pub const DEFAULT_FPS: f32 = 30.0;

/// A parsed QC and where its files are to be looked for.
#[derive(Debug)]
pub struct ParsedQc {
    pub script: ModelScript,
    /// Folder the mesh and animation files are relative to (`$cd`, else the QC's folder).
    pub cd: PathBuf,
    pub warnings: Vec<Warning>,
}

/// Parses the QC `text` at `path` (or, for in-memory data, a QC in `dir`), reading its includes from disk.
pub fn parse(text: &str, path: Option<&Path>, dir: &Path, dirs: &mut DirCache) -> Result<ParsedQc, LoadError> {
    let mut script = ModelScript::new(ScriptLanguage::ValveQc);
    script.files.push(path.map_or_else(|| dir.to_path_buf(), Path::to_path_buf));
    let open_file = path.map(|p| dirs.files.same_file_key(p));
    let mut parser = Parser {
        script,
        warnings: Vec::new(),
        root_dir: dir.to_path_buf(),
        cd: None,
        pushd: Vec::new(),
        dirs,
        open_files: vec![open_file],
        animations: HashMap::new(),
        placement: Placement::default(),
        variables: Variables::default(),
    };
    parser.file(text, 0)?;
    parser.unique_names();
    let cd = parser.cd_dir();
    Ok(ParsedQc { script: parser.script, cd, warnings: parser.warnings })
}

/// A `$animation` (Source): a named animation file that sequences refer to.
#[derive(Clone, Debug)]
struct NamedAnimation {
    file: String,
    fps: Option<f32>,
    looping: bool,
    frames: Option<(i32, i32)>,
    placement: Option<Placement>,
    /// `delta`, `predelta`, `subtract <sequence> <frame>`: the animation is a difference (`super::delta`).
    delta_options: Vec<String>,
}

/// Whether a sequence option makes its animation a difference to add to another pose (`super::delta`).
fn is_delta_option(option: &str) -> bool {
    let word = option.split_whitespace().next().unwrap_or_default().to_ascii_lowercase();
    matches!(word.as_str(), "delta" | "predelta" | "subtract" | "presubtract")
}

struct Parser<'d> {
    script: ModelScript,
    warnings: Vec<Warning>,
    root_dir: PathBuf,
    cd: Option<PathBuf>,
    pushd: Vec<String>,
    dirs: &'d mut DirCache,
    /// Canonical paths of the files being read, outermost first (cycle detection); `None` for in-memory data.
    open_files: Vec<Option<PathBuf>>,
    animations: HashMap<String, NamedAnimation>,
    /// The `$origin` and `$scale` in effect.
    placement: Placement,
    /// `$definevariable`s so far, shared by every file read.
    variables: Variables,
}

impl Parser<'_> {
    fn cd_dir(&self) -> PathBuf {
        let mut dir = self.cd.clone().unwrap_or_else(|| self.root_dir.clone());
        for p in &self.pushd {
            dir = self.dirs_join(&dir, p);
        }
        dir
    }

    fn dirs_join(&self, base: &Path, relative: &str) -> PathBuf {
        let relative = relative.replace('\\', "/");
        let p = Path::new(&relative);
        if p.is_absolute() { p.to_path_buf() } else { base.join(p) }
    }

    fn at(&self, file: usize, line: usize) -> String {
        if file == 0 {
            format!("line {line}")
        } else {
            let name = self.script.files.get(file).and_then(|p| p.file_name()).and_then(|n| n.to_str());
            format!("{} line {line}", name.unwrap_or("included file"))
        }
    }

    fn warn(&mut self, file: usize, line: usize, message: impl Into<String>) {
        let at = self.at(file, line);
        self.warnings.push(Warning::new(at, message));
    }

    /// An error at `line` of file `file` (named when it is not the script itself).
    fn error(&self, file: usize, line: usize, message: impl Into<String>) -> LoadError {
        let e = LoadError::at_line(line, message);
        match self.script.files.get(file) {
            Some(path) if file > 0 => e.in_file(path),
            _ => e,
        }
    }

    /// Reads one script file. Variables are substituted before its text is tokenized; a `$definevariable`
    /// (here or in a file it includes) substitutes the rest of the file again from the line after it, so a
    /// `$NAME$` means what is defined above it, as studiomdl reads it token by token.
    fn file(&mut self, text: &str, file: usize) -> Result<(), LoadError> {
        // Another compiler's `$IF` blocks: their first branches are read (`conditionals`).
        let stripped = super::conditionals::strip(text);
        let text = match &stripped {
            Some((kept, notes)) => {
                for (line, note) in notes {
                    self.warn(file, *line, note.clone());
                }
                kept.as_str()
            }
            None => text,
        };
        // The text not read yet, substituted with the variables known when it was cut, and the number of lines
        // of the file before it.
        let (substituted, mut unknown) = self.variables.substitute(text, 1);
        let mut rest = substituted.into_owned();
        let mut before = 0usize;
        while let Some(line) = self.read_tokens(&rest, file, before)? {
            // The text after `line` again, with the variables as they are now. Values hold no line breaks, so
            // line numbers stay those of the file.
            let (again, found) = self.variables.substitute(&rest[line_end(&rest, line - before)..], line + 1);
            unknown.retain(|u| u.line <= line);
            unknown.extend(found);
            rest = again.into_owned();
            before = line;
        }
        // `$definemacro NAME PARAM… \\` bodies use `$PARAM$` for their parameters, which are not variables.
        let params = macro_parameters(text);
        unknown.retain(|u| !params.iter().any(|p| p.eq_ignore_ascii_case(&u.name)));
        let mut reported: Vec<&Unknown> = Vec::new();
        for u in &unknown {
            if !reported.iter().any(|r| r.line == u.line && r.name == u.name) {
                reported.push(u);
                self.warn(file, u.line, format!("`${}$` names no `$definevariable`; it was left as written", u.name));
            }
        }
        Ok(())
    }

    /// Reads the commands of `text`, which starts after line `before` of the file. Returns the line after
    /// which the rest must be substituted again (a variable defined since is used there); the caller does so and
    /// reads on from there.
    fn read_tokens(&mut self, text: &str, file: usize, before: usize) -> Result<Option<usize>, LoadError> {
        let (mut tokens, _) = tokenize(text, Syntax::Qc).map_err(|mut e| {
            if let crate::io::Position::Line(l) = e.position {
                e.position = crate::io::Position::Line(l + before);
            }
            match self.script.files.get(file) {
                Some(path) if file > 0 => e.in_file(path),
                _ => e,
            }
        })?;
        for t in &mut tokens {
            t.line += before;
        }
        let mut cur = Cursor::new(&tokens);
        // Variables defined since `text` was substituted: the count before the first of them. Consecutive
        // definitions are checked together, at the next other command, so that a script opening with many
        // definitions is substituted again once, not once per definition.
        let mut pending: Option<usize> = None;
        while let Some(tok) = cur.peek() {
            if let Some(since) = pending
                && !tok.text.eq_ignore_ascii_case("$definevariable")
                && cur.consumed_line().is_none_or(|l| l < tok.line)
            {
                pending = None;
                if self.variables.any_used_since(since, &text[line_end(text, tok.line - 1 - before)..]) {
                    return Ok(Some(tok.line - 1));
                }
            }
            cur.next();
            let defined = self.variables.len();
            match tok.kind {
                Kind::Close => return Err(self.error(file, tok.line, "`}` without a matching `{`")),
                Kind::Open => {
                    self.skip_block(&mut cur, tok, file)?;
                    self.warn(file, tok.line, "a `{ … }` block that belongs to no command was skipped");
                }
                _ if !tok.text.starts_with('$') => {
                    let rest = cur.rest_of_line(tok.line);
                    if rest.last().is_some_and(|t| t.kind == Kind::Open) {
                        self.skip_block(&mut cur, rest[rest.len() - 1], file)?;
                    }
                    self.warn(file, tok.line, format!("`{}` is not a QC command; the line was skipped", tok.text));
                }
                _ => self.command(&mut cur, tok, file)?,
            }
            if self.variables.len() != defined {
                // A definition, here or in an included file.
                pending.get_or_insert(defined);
            }
        }
        Ok(None)
    }

    fn command<'a>(&mut self, cur: &mut Cursor<'_, 'a>, head: Token<'a>, file: usize) -> Result<(), LoadError> {
        let name = head.text.to_ascii_lowercase();
        match name.as_str() {
            "$include" => self.include(cur, head, file),
            "$definevariable" => {
                let args = self.args_with_block(cur, head, file)?;
                self.define_variable(&args, head.line, file);
                Ok(())
            }
            "$sequence" => self.sequence(cur, head, file),
            "$animation" => self.animation(cur, head, file),
            "$bodygroup" => self.bodygroup(cur, head, file),
            "$body" | "$model" => self.body(cur, head, file),
            "$texturegroup" => self.texture_group(cur, head, file),
            _ => {
                let args = self.args_with_block(cur, head, file)?;
                let values: Vec<&str> = args.iter().filter(|t| t.is_value()).map(|t| t.text).collect();
                self.simple(&name, head, &values, file);
                Ok(())
            }
        }
    }

    /// The arguments of a command on its line; a following `{ … }` block (same line or next) is skipped. Lines
    /// ending in `\\` continue (`$definemacro`).
    fn args_with_block<'a>(
        &mut self,
        cur: &mut Cursor<'_, 'a>,
        head: Token<'a>,
        file: usize,
    ) -> Result<Vec<Token<'a>>, LoadError> {
        let mut args = cur.rest_of_line(head.line);
        while let Some(last) = args.last().filter(|t| t.text == "\\\\" || t.text == "\\").copied() {
            args.pop();
            // Only the next line continues it: a blank line ends a macro body (scriplib reads it line by line).
            let Some(next) = cur.peek().filter(|n| n.line == last.line + 1) else { break };
            args.extend(cur.rest_of_line(next.line));
        }
        if let Some(pos) = args.iter().position(|t| t.kind == Kind::Open) {
            let open = args[pos];
            let trailing = args.split_off(pos);
            // Tokens after the `{` on the same line are inside the block: rewind is not possible, so skip the
            // block counting what was already taken.
            let depth = trailing.iter().fold(0i32, |d, t| match t.kind {
                Kind::Open => d + 1,
                Kind::Close => d - 1,
                _ => d,
            });
            if depth > 0 {
                self.skip_open_block(cur, open, depth, file)?;
            }
        } else if cur.peek().is_some_and(|t| t.kind == Kind::Open)
            && let Some(open) = cur.next()
        {
            self.skip_block(cur, open, file)?;
        }
        Ok(args)
    }

    /// Skips a block whose `{` (`open`) was just read.
    fn skip_block(&self, cur: &mut Cursor, open: Token, file: usize) -> Result<(), LoadError> {
        self.skip_open_block(cur, open, 1, file)
    }

    fn skip_open_block(&self, cur: &mut Cursor, open: Token, mut depth: i32, file: usize) -> Result<(), LoadError> {
        while depth > 0 {
            let Some(t) = cur.next() else {
                return Err(self
                    .error(
                        file,
                        open.line,
                        format!(
                            "the `{{` opened here is not closed before the end of the file (line {})",
                            cur.last_line()
                        ),
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

    /// Commands that take their arguments on one line.
    fn simple(&mut self, name: &str, head: Token, args: &[&str], file: usize) {
        let line = head.line;
        let numbers = |n: usize| -> Option<Vec<f32>> {
            let v: Vec<f32> = args.iter().take(n).filter_map(|a| a.parse::<f32>().ok()).collect();
            (v.len() == n).then_some(v)
        };
        match name {
            "$modelname" => self.script.name = args.first().map(|s| (*s).to_owned()).unwrap_or_default(),
            "$cd" => match args.first() {
                Some(dir) => {
                    if self.cd.is_some() {
                        self.warn(file, line, "a second `$cd` (studiomdl stops here); the later one is used");
                    }
                    let root = self.root_dir.clone();
                    let found = self.dirs.find(&root, dir).filter(|p| self.dirs.files.is_folder(p));
                    if found.is_none() {
                        self.warn(file, line, format!("`$cd` folder \"{dir}\" does not exist"));
                    }
                    self.cd = Some(found.unwrap_or_else(|| self.dirs_join(&root, dir)));
                }
                None => self.warn(file, line, "`$cd` without a folder"),
            },
            "$cdtexture" => {
                for dir in args {
                    let root = self.root_dir.clone();
                    // Where studiomdl looks (the QC's folder), else beside the file that says it.
                    let here = self.script.files.get(file).and_then(|p| p.parent()).map(Path::to_path_buf);
                    let found = [Some(root.clone()), here]
                        .into_iter()
                        .flatten()
                        .find_map(|base| self.dirs.find(&base, dir).filter(|p| self.dirs.files.is_folder(p)));
                    let resolved = found.unwrap_or_else(|| {
                        self.warn(file, line, format!("`$cdtexture` folder \"{dir}\" does not exist"));
                        self.dirs_join(&root, dir)
                    });
                    self.script.texture_dirs.push(resolved);
                }
            }
            // Folders under the game's `materials`: each line adds its folders (studiomdl keeps a list), found
            // when the meshes' materials are looked up (`materials`).
            "$cdmaterials" => {
                if args.is_empty() {
                    self.warn(file, line, "`$cdmaterials` without a folder");
                }
                self.script.material_dirs.extend(args.iter().map(|d| (*d).to_owned()));
            }
            "$pushd" => match args.first() {
                Some(dir) => self.pushd.push((*dir).to_owned()),
                None => self.warn(file, line, "`$pushd` without a folder"),
            },
            "$popd" => {
                if self.pushd.pop().is_none() {
                    self.warn(file, line, "`$popd` without a `$pushd`");
                }
            }
            "$scale" => match numbers(1).filter(|v| v[0].is_finite() && v[0] > 0.0) {
                Some(v) => {
                    self.script.scale = Some(v[0]);
                    self.placement.scale = v[0];
                }
                None => self.warn(file, line, "`$scale` needs a positive number; ignored"),
            },
            "$origin" => match numbers(3) {
                Some(v) => {
                    let origin = Vec3::new(v[0], v[1], v[2]);
                    self.script.origin = Some(origin);
                    self.placement.origin = origin;
                    // The optional fourth number turns the model about Z (studiomdl: `defaultzrotation`).
                    if let Some(angle) = args.get(3).and_then(|a| a.parse::<f32>().ok()) {
                        self.placement.rotation_degrees = angle;
                    }
                }
                None => self.warn(file, line, "`$origin` needs three numbers; ignored"),
            },
            "$eyeposition" => match numbers(3) {
                Some(v) => self.script.eye_position = Some(Vec3::new(v[0], v[1], v[2])),
                None => self.warn(file, line, "`$eyeposition` needs three numbers; ignored"),
            },
            "$bbox" | "$cbox" => match numbers(6) {
                Some(v) => {
                    let b = Bounds { min: Vec3::new(v[0], v[1], v[2]), max: Vec3::new(v[3], v[4], v[5]) };
                    if name == "$bbox" {
                        self.script.bbox = Some(b);
                    } else {
                        self.script.cbox = Some(b);
                    }
                }
                None => self.warn(file, line, format!("`{name}` needs six numbers; ignored")),
            },
            "$hbox" => {
                let group = args.first().and_then(|g| g.parse::<i32>().ok());
                let bone = args.get(1);
                let v: Vec<f32> = args.iter().skip(2).take(6).filter_map(|a| a.parse::<f32>().ok()).collect();
                match (group, bone, v.len()) {
                    (Some(group), Some(bone), 6) => self.script.hitboxes.push(Hitbox {
                        group,
                        bone: (*bone).to_owned(),
                        min: Vec3::new(v[0], v[1], v[2]),
                        max: Vec3::new(v[3], v[4], v[5]),
                        file,
                        line,
                    }),
                    _ => self.warn(file, line, "`$hbox` needs a group, a bone and six numbers; ignored"),
                }
            }
            "$attachment" => {
                let v: Vec<f32> = args.iter().skip(2).take(3).filter_map(|a| a.parse::<f32>().ok()).collect();
                match (args.first(), args.get(1), v.len()) {
                    (Some(name), Some(bone), 3) => self.script.attachments.push(Attachment {
                        name: (*name).to_owned(),
                        bone: (*bone).to_owned(),
                        offset: Vec3::new(v[0], v[1], v[2]),
                        file,
                        line,
                    }),
                    _ => self.warn(file, line, "`$attachment` needs a name, a bone and three numbers; ignored"),
                }
            }
            "$controller" => match super::studio_qc::controller(args, file, line) {
                Ok(c) => self.script.controllers.push(c),
                Err(problem) => self.warn(file, line, format!("`$controller`: {problem}; ignored")),
            },
            _ => self.script.ignored.push(IgnoredCommand {
                name: head.text.to_owned(),
                args: args.iter().map(|a| (*a).to_owned()).collect(),
                file,
                line,
            }),
        }
    }

    /// `$texturegroup name { { "a.bmp" "b.bmp" } { "c.bmp" "d.bmp" } … }`: one skin family per inner block
    /// (studiomdl `Cmd_TextureGroup`). The families' materials are matched when the meshes are in (`build_qc`).
    fn texture_group<'a>(&mut self, cur: &mut Cursor<'_, 'a>, head: Token<'a>, file: usize) -> Result<(), LoadError> {
        let _name = cur.next_on_line(head.line).filter(Token::is_value);
        let open = match cur.peek() {
            Some(t) if t.kind == Kind::Open => t,
            _ => {
                self.warn(file, head.line, "`$texturegroup` has no `{ … }` block; ignored");
                return Ok(());
            }
        };
        cur.next();
        let mut rows: Vec<(Vec<String>, usize)> = Vec::new();
        let mut depth = 1;
        while depth > 0 {
            let Some(t) = cur.next() else {
                return Err(self
                    .error(file, open.line, "the `{` of `$texturegroup` is not closed before the end of the file")
                    .with_kind(LoadErrorKind::Truncated));
            };
            match t.kind {
                Kind::Open => {
                    depth += 1;
                    if depth == 2 {
                        rows.push((Vec::new(), t.line));
                    }
                }
                Kind::Close => depth -= 1,
                _ if depth == 2 && t.is_value() => {
                    if let Some((row, _)) = rows.last_mut() {
                        row.push(t.text.to_owned());
                    }
                }
                _ => {}
            }
        }
        match super::studio_qc::skin_families(rows, file) {
            Ok(families) if self.script.skin_families.is_empty() => self.script.skin_families = families,
            Ok(_) => self.warn(file, head.line, "a second `$texturegroup` (studiomdl uses the first); ignored"),
            Err(problem) => self.warn(file, head.line, format!("`$texturegroup`: {problem}; ignored")),
        }
        Ok(())
    }

    /// Gives every sequence and body group a unique, non-empty name (`unique_names`: assimp's rule) and says
    /// where a name was repeated or empty, so that each one can be reached by its name.
    fn unique_names(&mut self) {
        let mut names: Vec<String> = self.script.sequences.iter().map(|s| s.name.clone()).collect();
        let written = names.clone();
        for i in unique_names::make_unique(&mut names, "Sequence") {
            let (file, line) = (self.script.sequences[i].file, self.script.sequences[i].line);
            let message = if written[i].trim().is_empty() {
                format!("a sequence without a name; it is called \"{}\" here", names[i])
            } else {
                format!(
                    "a second sequence named \"{}\"; the engine plays the first, both are listed, this one as \"{}\"",
                    written[i], names[i]
                )
            };
            self.warn(file, line, message);
            self.script.sequences[i].name = std::mem::take(&mut names[i]);
        }
        // Names that differ only in case stay as written (assimp compares exactly), but the engine looks
        // sequences up without regard to case: the later ones are never played.
        for i in 0..self.script.sequences.len() {
            let (name, file, line) = {
                let s = &self.script.sequences[i];
                (s.name.clone(), s.file, s.line)
            };
            let earlier =
                self.script.sequences[..i].iter().find(|s| s.name.eq_ignore_ascii_case(&name) && s.name != name);
            if let Some(earlier) = earlier {
                let message = format!(
                    "sequence \"{name}\" differs from \"{}\" only in case; the engine plays the first, both are listed",
                    earlier.name
                );
                self.warn(file, line, message);
            }
        }
        let mut names: Vec<String> = self.script.body_groups.iter().map(|g| g.name.clone()).collect();
        let written = names.clone();
        for i in unique_names::make_unique(&mut names, "Bodypart") {
            let (file, line) = (self.script.body_groups[i].file, self.script.body_groups[i].line);
            let message = if written[i].trim().is_empty() {
                format!("a body group without a name; it is called \"{}\" here", names[i])
            } else {
                format!("a second body group named \"{}\"; this one is called \"{}\" here", written[i], names[i])
            };
            self.warn(file, line, message);
            self.script.body_groups[i].name = std::mem::take(&mut names[i]);
        }
    }

    /// `$definevariable NAME VALUE`: defined from here on (see `variables`).
    fn define_variable(&mut self, args: &[Token], line: usize, file: usize) {
        let values: Vec<&str> = args.iter().filter(|t| t.is_value()).map(|t| t.text).collect();
        let (Some(name), Some(value)) = (values.first(), values.get(1)) else {
            self.warn(file, line, "`$definevariable` needs a name and a value; ignored");
            return;
        };
        if values.len() > 2 {
            self.warn(file, line, format!("words after the value of `$definevariable {name}` were ignored"));
        }
        match self.variables.define(name, value) {
            Ok(()) => {}
            Err(kept) if kept == *value => {}
            Err(kept) => self.warn(
                file,
                line,
                format!("`{name}` is defined again; studiomdl keeps the first value, \"{kept}\", and so does this"),
            ),
        }
    }

    fn include<'a>(&mut self, cur: &mut Cursor<'_, 'a>, head: Token<'a>, file: usize) -> Result<(), LoadError> {
        let Some(name) = cur.next_on_line(head.line).filter(Token::is_value) else {
            return Err(self.error(file, head.line, "`$include` without a file name"));
        };
        let extra = cur.rest_of_line(head.line);
        if !extra.is_empty() {
            self.warn(file, head.line, "words after the `$include` file name were ignored");
        }
        let depth = self.open_files.len();
        if depth > MAX_INCLUDE_DEPTH {
            return Err(self
                .error(
                    file,
                    head.line,
                    format!("`$include \"{}\"` nests includes deeper than {MAX_INCLUDE_DEPTH} levels", name.text),
                )
                .with_kind(LoadErrorKind::Unsupported));
        }
        let mut bases: Vec<PathBuf> = Vec::new();
        if let Some(here) = self.script.files.get(file).and_then(|p| if file == 0 { None } else { p.parent() }) {
            bases.push(here.to_path_buf());
        }
        bases.push(self.root_dir.clone());
        bases.push(self.cd_dir());
        bases.dedup();
        let found = bases.iter().find_map(|b| self.dirs.find_with_extensions(b, name.text, &["qci", "qc"]));
        let Some(path) = found else {
            let looked: Vec<String> = bases.iter().map(|b| b.display().to_string()).collect();
            return Err(self
                .error(
                    file,
                    head.line,
                    format!("`$include \"{}\"`: file not found (looked in {})", name.text, looked.join(", ")),
                )
                .with_kind(LoadErrorKind::Io(std::io::ErrorKind::NotFound)));
        };
        let key = self.dirs.files.same_file_key(&path);
        if self.open_files.iter().flatten().any(|open| *open == key) {
            return Err(self.error(
                file,
                head.line,
                format!("`$include \"{}\"` includes a file that is already being read (an include cycle)", name.text),
            ));
        }
        let bytes = self.dirs.files.read(&path).map_err(|e| {
            self.error(file, head.line, format!("`$include \"{}\"`: cannot read {}: {e}", name.text, path.display()))
                .with_kind(LoadErrorKind::Io(e.kind()))
        })?;
        let text = super::lex::decode(&bytes);
        self.script.files.push(path);
        let index = self.script.files.len() - 1;
        self.open_files.push(Some(key));
        let result = self.file(&text, index);
        self.open_files.pop();
        result
    }

    fn body<'a>(&mut self, cur: &mut Cursor<'_, 'a>, head: Token<'a>, file: usize) -> Result<(), LoadError> {
        let args = self.args_with_block(cur, head, file)?;
        let values: Vec<&str> = args.iter().filter(|t| t.is_value()).map(|t| t.text).collect();
        let (Some(name), Some(mesh)) = (values.first(), values.get(1)) else {
            self.warn(file, head.line, format!("`{}` needs a name and a mesh file; ignored", head.text));
            return Ok(());
        };
        let placement = self.mesh_options(&values[2..], file, head.line);
        self.script.body_groups.push(BodyGroup {
            name: (*name).to_owned(),
            choices: vec![choice(mesh, placement, file, head.line)],
            file,
            line: head.line,
        });
        Ok(())
    }

    /// A body's options after its file (`reverse`, `scale s`): the scale places the mesh, the rest is listed as
    /// ignored. Returns the mesh's placement.
    fn mesh_options(&mut self, options: &[&str], file: usize, line: usize) -> Option<Placement> {
        let mut placement = self.placement;
        let mut ignored = Vec::new();
        let mut words = options.iter();
        while let Some(word) = words.next() {
            if word.eq_ignore_ascii_case("scale") {
                match words.next().and_then(|w| w.parse::<f32>().ok()).filter(|s| s.is_finite() && *s > 0.0) {
                    Some(scale) => placement.scale = scale,
                    None => self.warn(file, line, "`scale` after a mesh file needs a positive number; ignored"),
                }
            } else {
                ignored.push((*word).to_owned());
            }
        }
        if !ignored.is_empty() {
            self.script.ignored.push(IgnoredCommand { name: "mesh options".to_owned(), args: ignored, file, line });
        }
        placement.non_identity()
    }

    fn bodygroup<'a>(&mut self, cur: &mut Cursor<'_, 'a>, head: Token<'a>, file: usize) -> Result<(), LoadError> {
        let Some(name) = cur.next_on_line(head.line).filter(Token::is_value) else {
            self.warn(file, head.line, "`$bodygroup` without a name; ignored");
            return Ok(());
        };
        let mut group = BodyGroup { name: name.text.to_owned(), choices: Vec::new(), file, line: head.line };
        let open = match cur.peek() {
            Some(t) if t.kind == Kind::Open => {
                cur.next();
                t
            }
            _ => {
                self.warn(file, head.line, format!("`$bodygroup \"{}\"` has no `{{ … }}` block", group.name));
                self.script.body_groups.push(group);
                return Ok(());
            }
        };
        loop {
            let Some(t) = cur.next() else {
                return Err(self
                    .error(
                        file,
                        open.line,
                        format!("the `{{` of `$bodygroup \"{}\"` is not closed before the end of the file", group.name),
                    )
                    .with_kind(LoadErrorKind::Truncated));
            };
            match (t.kind, t.text.to_ascii_lowercase().as_str()) {
                (Kind::Close, _) => break,
                (Kind::Open, _) => self.skip_block(cur, t, file)?,
                (_, "studio") => {
                    let rest = cur.rest_of_line(t.line);
                    let values: Vec<&str> = rest.iter().filter(|r| r.is_value()).map(|r| r.text).collect();
                    match values.first() {
                        Some(mesh) => {
                            let placement = self.mesh_options(&values[1..], file, t.line);
                            group.choices.push(choice(mesh, placement, file, t.line));
                        }
                        None => self.warn(file, t.line, "`studio` without a mesh file; ignored"),
                    }
                    if let Some(close) = rest.iter().position(|r| r.kind == Kind::Close) {
                        // `studio "x" }` on one line closes the group.
                        if close + 1 < rest.len() {
                            self.warn(file, t.line, "words after `}` were ignored");
                        }
                        break;
                    }
                }
                (_, "blank") => group.choices.push(BodyChoice {
                    name: "blank".to_owned(),
                    path: None,
                    meshes: Vec::new(),
                    placement: None,
                    file,
                    line: t.line,
                }),
                _ => self.warn(
                    file,
                    t.line,
                    format!("`{}` in `$bodygroup \"{}\"` is not `studio` or `blank`; ignored", t.text, group.name),
                ),
            }
        }
        self.script.body_groups.push(group);
        Ok(())
    }

    fn animation<'a>(&mut self, cur: &mut Cursor<'_, 'a>, head: Token<'a>, file: usize) -> Result<(), LoadError> {
        let Some(seq) = self.read_sequence(cur, head, file)? else { return Ok(()) };
        let Some(first) = seq.files.first().cloned() else {
            self.warn(file, head.line, format!("`$animation \"{}\"` names no file; ignored", seq.name));
            return Ok(());
        };
        let frames = seq.first_frame.zip(seq.last_frame);
        let explicit_fps = seq.options.iter().any(|o| o == "fps");
        let named = NamedAnimation {
            file: first,
            fps: (explicit_fps || seq.fps != DEFAULT_FPS).then_some(seq.fps),
            looping: seq.looping,
            frames,
            placement: seq.placement,
            delta_options: seq.options.iter().filter(|o| is_delta_option(o)).cloned().collect(),
        };
        self.animations.insert(seq.name.to_lowercase(), named);
        self.script.ignored.push(IgnoredCommand {
            name: "$animation".to_owned(),
            args: vec![seq.name, seq.files.join(" ")],
            file,
            line: head.line,
        });
        Ok(())
    }

    fn sequence<'a>(&mut self, cur: &mut Cursor<'_, 'a>, head: Token<'a>, file: usize) -> Result<(), LoadError> {
        let Some(mut seq) = self.read_sequence(cur, head, file)? else { return Ok(()) };
        // Names of `$animation`s stand for their file and options.
        let mut files = Vec::with_capacity(seq.files.len());
        for f in std::mem::take(&mut seq.files) {
            match self.animations.get(&f.to_lowercase()) {
                Some(anim) => {
                    files.push(anim.file.clone());
                    if !seq.options.iter().any(|o| o == "fps")
                        && let Some(fps) = anim.fps
                    {
                        seq.fps = fps;
                    }
                    seq.looping |= anim.looping;
                    for option in &anim.delta_options {
                        if !seq.options.contains(option) {
                            seq.options.push(option.clone());
                        }
                    }
                    // The animation's own `origin`/`scale`/`rotate`, unless the sequence gives its own.
                    if seq.placement == self.placement.non_identity() {
                        seq.placement = anim.placement;
                    }
                    if seq.first_frame.is_none()
                        && let Some((a, b)) = anim.frames
                    {
                        seq.first_frame = Some(a);
                        seq.last_frame = Some(b);
                    }
                }
                None => files.push(f),
            }
        }
        seq.files = files;
        seq.options.retain(|o| o != "fps");
        if seq.files.is_empty() {
            self.warn(file, head.line, format!("`$sequence \"{}\"` names no animation file", seq.name));
        }
        // A repeated name is said once the names are made unique (`unique_names`), with the name it gets.
        self.script.sequences.push(seq);
        Ok(())
    }

    /// Reads `$sequence`/`$animation` after its keyword. `None` when it has no name (warned).
    fn read_sequence<'a>(
        &mut self,
        cur: &mut Cursor<'_, 'a>,
        head: Token<'a>,
        file: usize,
    ) -> Result<Option<ScriptSequence>, LoadError> {
        let Some(name) = cur.next_on_line(head.line).filter(Token::is_value) else {
            self.warn(file, head.line, format!("`{}` without a name; ignored", head.text));
            return Ok(None);
        };
        let mut seq = ScriptSequence::new(name.text, SequenceKind::Sequence, DEFAULT_FPS, file, head.line);
        seq.placement = self.placement.non_identity();
        let mut opens: Vec<usize> = Vec::new();
        let mut line = head.line;
        let mut options_started = false;
        let mut ever_opened = false;
        loop {
            let tok = if opens.is_empty() {
                match cur.next_on_line(line) {
                    Some(t) => Some(t),
                    // A block may open on the next line (Blender Source Tools' `awaiting_brace`).
                    None if !ever_opened && cur.peek().is_some_and(|t| t.kind == Kind::Open) => cur.next(),
                    None => None,
                }
            } else {
                cur.next()
            };
            let Some(tok) = tok else {
                if let Some(&open) = opens.last() {
                    return Err(self.error(
                        file,
                        open,
                        format!(
                            "the `{{` of `{} \"{}\"` opened here is not closed before the end of the file (line {})",
                            head.text,
                            seq.name,
                            cur.last_line()
                        ),
                    )
                    .with_kind(LoadErrorKind::Truncated));
                }
                break;
            };
            line = tok.line;
            match tok.kind {
                Kind::Open => {
                    opens.push(tok.line);
                    ever_opened = true;
                }
                Kind::Close => {
                    if opens.pop().is_none() {
                        return Err(self.error(
                            file,
                            tok.line,
                            format!("`}}` without a matching `{{` in `{} \"{}\"`", head.text, seq.name),
                        ));
                    }
                }
                _ => {
                    let word = tok.text.to_ascii_lowercase();
                    if word == "event" {
                        self.event(cur, tok, &mut seq, file);
                    } else if tok.kind == Kind::Word && tok.text.starts_with('$') && !opens.is_empty() {
                        // A command inside the block: its `}` is missing.
                        let open = opens.last().copied().unwrap_or(head.line);
                        return Err(self.error(
                            file,
                            open,
                            format!(
                                "the `{{` of `{} \"{}\"` opened here is not closed before `{}` at line {}",
                                head.text, seq.name, tok.text, tok.line
                            ),
                        ));
                    } else if opens.len() >= 2 {
                        // Inside a nested block other than an event (keyvalues, ikrule blocks): kept as written.
                        push_option_word(&mut seq, tok.text);
                    } else if let Some(block) = cur.peek().filter(|t| t.kind == Kind::Open && t.line == tok.line)
                        && !is_option(&word)
                        && options_started
                    {
                        // `keyvalues { … }` and similar option blocks.
                        cur.next();
                        self.skip_block(cur, block, file)?;
                        seq.options.push(format!("{} {{…}}", tok.text));
                    } else if is_motion_flag(&word) {
                        options_started = true;
                        seq.motion.push(tok.text.to_owned());
                    } else if word.starts_with("act_") {
                        options_started = true;
                        let weight = self.activity_weight(cur, tok, file);
                        seq.activity = Some(Activity { name: tok.text.to_owned(), weight });
                    } else if word == "activity" {
                        options_started = true;
                        match cur.next_on_line(tok.line).filter(Token::is_value) {
                            Some(name) => {
                                let weight = self.activity_weight(cur, name, file);
                                seq.activity = Some(Activity { name: name.text.to_owned(), weight });
                            }
                            None => self.warn(file, tok.line, "`activity` without a name; ignored"),
                        }
                    } else if let Some(arity) = option_arity(&word) {
                        options_started = true;
                        let args: Vec<Token> = (0..arity).map_while(|_| cur.next_on_line(tok.line)).collect();
                        self.option(&word, tok, &args, &mut seq, file);
                    } else if !options_started || (opens.is_empty() && tok.kind == Kind::Quoted) {
                        // studiomdl's `Cmd_Sequence` takes every word it does not know as an animation file,
                        // also after options: `"a" "b" blend XR -25 25 "c" "d" blend YR -30 30` blends four.
                        seq.files.push(tok.text.to_owned());
                    } else {
                        push_option_word(&mut seq, tok.text);
                    }
                }
            }
        }
        Ok(Some(seq))
    }

    fn activity_weight(&mut self, cur: &mut Cursor, after: Token, file: usize) -> i32 {
        match cur.peek().filter(|t| t.line == after.line && t.is_value()).and_then(|t| t.text.parse::<i32>().ok()) {
            Some(w) => {
                cur.next();
                w
            }
            None => {
                self.warn(file, after.line, format!("activity `{}` has no weight; 1 is used", after.text));
                1
            }
        }
    }

    fn option(&mut self, word: &str, tok: Token, args: &[Token], seq: &mut ScriptSequence, file: usize) {
        let num = |i: usize| args.get(i).and_then(|a| a.text.parse::<f32>().ok());
        let int = |i: usize| args.get(i).and_then(|a| a.text.parse::<i32>().ok());
        match word {
            "fps" => match num(0).filter(|f| f.is_finite() && *f > 0.0) {
                Some(f) => {
                    seq.fps = f;
                    seq.options.push("fps".to_owned());
                }
                None => self.warn(file, tok.line, format!("`fps` of \"{}\" needs a positive number", seq.name)),
            },
            "loop" => seq.looping = true,
            "frame" => match (int(0), int(1)) {
                (Some(a), Some(b)) if a <= b => {
                    seq.first_frame = Some(a);
                    seq.last_frame = Some(b);
                }
                _ => self.warn(file, tok.line, format!("`frame` of \"{}\" needs two frames, first ≤ last", seq.name)),
            },
            "blend" => match (args.first(), num(1), num(2)) {
                (Some(control), Some(start), Some(end)) => {
                    seq.blends.push(BlendRange { control: control.text.to_owned(), start, end })
                }
                _ => self.warn(file, tok.line, format!("`blend` of \"{}\" needs a control and two numbers", seq.name)),
            },
            "animation" => match args.first() {
                Some(f) => seq.files.push(f.text.to_owned()),
                None => self.warn(file, tok.line, "`animation` without a file"),
            },
            "origin" | "scale" | "rotate" => {
                let mut placement = seq.placement.unwrap_or_default();
                match (word, num(0), num(1), num(2)) {
                    ("origin", Some(x), Some(y), Some(z)) => placement.origin = Vec3::new(x, y, z),
                    ("scale", Some(s), _, _) if s.is_finite() && s > 0.0 => placement.scale = s,
                    ("rotate", Some(a), _, _) => placement.rotation_degrees = a,
                    _ => {
                        self.warn(file, tok.line, format!("`{word}` of \"{}\" needs numbers; ignored", seq.name));
                        return;
                    }
                }
                seq.placement = placement.non_identity();
            }
            _ => {
                let mut text = tok.text.to_owned();
                for a in args {
                    text.push(' ');
                    text.push_str(a.text);
                }
                seq.options.push(text);
            }
        }
    }

    /// `event id frame ["options"]`, as studiomdl's `cmd_sequence_option_event` reads it.
    fn event(&mut self, cur: &mut Cursor, tok: Token, seq: &mut ScriptSequence, file: usize) {
        let id = cur.next_on_line(tok.line).filter(Token::is_value);
        let frame = cur.next_on_line(tok.line).filter(Token::is_value);
        let (Some(id), Some(frame_tok)) = (id, frame) else {
            self.warn(file, tok.line, format!("an event of \"{}\" needs a number and a frame; ignored", seq.name));
            return;
        };
        let Some(frame) = frame_tok.text.parse::<i32>().ok() else {
            self.warn(file, tok.line, format!("event frame `{}` of \"{}\" is not a number", frame_tok.text, seq.name));
            return;
        };
        let options = cur.peek().filter(|t| t.line == tok.line && t.is_value()).map(|t| t.text.to_owned());
        if options.is_some() {
            cur.next();
        }
        seq.events.push(ScriptEvent {
            frame,
            kind: id.text.to_owned(),
            kind_name: event_name(id.text).map(str::to_owned),
            text: options.clone().unwrap_or_default(),
            args: options.into_iter().collect(),
            line: tok.line,
        });
    }
}

/// The parameter names of every `$definemacro NAME PARAM… \\` line of `text`.
fn macro_parameters(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        if words.next().is_some_and(|w| w.eq_ignore_ascii_case("$definemacro")) {
            out.extend(words.skip(1).filter(|w| !w.starts_with('\\') && !w.starts_with("//")));
        }
    }
    out
}

/// Byte offset of the start of the line after `line` (1-based; 0 for the start) in `text`, or its length.
fn line_end(text: &str, line: usize) -> usize {
    match line.checked_sub(1) {
        None => 0,
        Some(n) => memchr::memchr_iter(b'\n', text.as_bytes()).nth(n).map_or(text.len(), |i| i + 1),
    }
}

fn push_option_word(seq: &mut ScriptSequence, word: &str) {
    match seq.options.last_mut() {
        Some(last) => {
            last.push(' ');
            last.push_str(word);
        }
        None => seq.options.push(word.to_owned()),
    }
}

fn choice(mesh: &str, placement: Option<Placement>, file: usize, line: usize) -> BodyChoice {
    BodyChoice { name: mesh.to_owned(), path: None, meshes: Vec::new(), placement, file, line }
}

/// studiomdl's motion controls (`lookup_control`), and the Source additions Blender Source Tools lists.
fn is_motion_flag(word: &str) -> bool {
    matches!(
        word,
        "x" | "y"
            | "z"
            | "xr"
            | "yr"
            | "zr"
            | "lx"
            | "ly"
            | "lz"
            | "ax"
            | "ay"
            | "az"
            | "axr"
            | "ayr"
            | "azr"
            | "lxr"
            | "lyr"
            | "lzr"
            | "lm"
            | "lq"
    )
}

fn is_option(word: &str) -> bool {
    option_arity(word).is_some() || is_motion_flag(word) || word == "activity" || word == "event"
}

/// Sequence options and how many words each takes on its line (studiomdl for Half-Life; the Source options
/// after the Valve Developer Community `$sequence` page and Blender Source Tools' option table). Options not
/// listed take the words that follow them up to the next option.
fn option_arity(word: &str) -> Option<usize> {
    Some(match word {
        "loop" | "hidden" | "delta" | "predelta" | "post" | "autoplay" | "realtime" | "snap" | "worldspace"
        | "noautoik" | "autoik" | "noanimation" | "noforceloop" | "motionrollback" | "noanimblock"
        | "noanimblockstall" | "noanimload" | "reverse" | "xfade" | "spline" => 0,
        "fps" | "rotate" | "scale" | "node" | "animation" | "fadein" | "fadeout" | "addlayer" | "blendwidth"
        | "blendref" | "blendcenter" | "weightlist" | "numframes" | "exitnode" | "entrynode" | "posecycle"
        | "startloop" | "alignto" | "rotateto" | "compress" | "exit" | "activitymodifier" => 1,
        "frame" | "transition" | "rtransition" | "fixuploop" | "subtract" | "presubtract" => 2,
        "origin" | "blend" | "calcblend" | "iklock" | "pivot" => 3,
        "ikrule" | "walkframe" | "cmd" | "blendlayer" | "localhierarchy" | "counterrotate" | "counterrotateto"
        | "align" | "alignbone" | "alignboneto" | "bonesaveframe" | "frames" | "derivative" => 0,
        _ => return None,
    })
}

/// Half-Life's numbered script events (`scriptevent.h`).
pub(crate) fn event_name(id: &str) -> Option<&'static str> {
    Some(match id.parse::<i32>().ok()? {
        1000 => "SCRIPT_EVENT_DEAD",
        1001 => "SCRIPT_EVENT_NOINTERRUPT",
        1002 => "SCRIPT_EVENT_CANINTERRUPT",
        1003 => "SCRIPT_EVENT_FIREEVENT",
        1004 => "SCRIPT_EVENT_SOUND",
        1005 => "SCRIPT_EVENT_SENTENCE",
        1006 => "SCRIPT_EVENT_INAIR",
        1007 => "SCRIPT_EVENT_ENDANIMATION",
        1008 => "SCRIPT_EVENT_SOUND_VOICE",
        1009 => "SCRIPT_EVENT_SENTENCE_RND1",
        1010 => "SCRIPT_EVENT_NOT_DEAD",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> Result<ParsedQc, LoadError> {
        let dir = std::env::temp_dir();
        parse(text, None, &dir, &mut DirCache::default())
    }

    #[test]
    fn sequences_read_their_options_and_event_blocks() {
        let qc = "$sequence \"idle1\" \"idle1\" fps 20 loop ACT_IDLE 15\n\
                  $sequence \"walk\" \"walk\" LX fps 30 loop ACT_WALK 1\n\
                  $sequence \"jump\" \"jump\" fps 30 ACT_RANGE_ATTACK1 2 { event 2 0 }\n\
                  $sequence \"h1\" \"h1\" fps 20 {\n  { event 1000 1 }\n  { event 1003 110 \"splat\" }\n }\n\
                  $sequence \"after\" \"after\" frame 3 9 blend XR -45 45 node 2\n\
                  $sequence \"aim\" \"a1\" \"a2\" blend XR -25 25 \"a3\" \"a4\" blend YR -30 30 fps 25\n";
        let p = parse_text(qc).unwrap();
        let s = &p.script.sequences;
        assert_eq!(s.len(), 6);
        assert_eq!(
            s[5].files,
            ["a1", "a2", "a3", "a4"],
            "files after a `blend` option are files, as studiomdl reads them"
        );
        assert_eq!(s[5].blends.len(), 2);
        assert_eq!((s[0].fps, s[0].looping, s[0].files.as_slice()), (20.0, true, &["idle1".to_owned()][..]));
        assert_eq!(s[0].activity, Some(Activity { name: "ACT_IDLE".into(), weight: 15 }));
        assert_eq!(s[1].motion, ["LX"]);
        assert_eq!(s[2].events.len(), 1);
        assert_eq!((s[2].events[0].kind.as_str(), s[2].events[0].frame), ("2", 0));
        assert!(!s[2].looping);
        assert_eq!(s[3].events.len(), 2);
        assert_eq!(s[3].events[1].text, "splat");
        assert_eq!(s[3].events[1].kind_name.as_deref(), Some("SCRIPT_EVENT_FIREEVENT"));
        assert_eq!(s[3].events[1].line, 6);
        assert_eq!((s[4].first_frame, s[4].last_frame), (Some(3), Some(9)));
        assert_eq!(s[4].blends, [BlendRange { control: "XR".into(), start: -45.0, end: 45.0 }]);
        assert_eq!(s[4].options, ["node 2"]);
        assert_eq!(s[4].line, 8);
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    }

    #[test]
    fn cdmaterials_lines_accumulate_as_written() {
        let p = parse_text("$cdmaterials \"models/x/\"\n$cdmaterials models\\shared \"\"\n$cdmaterials\n").unwrap();
        assert_eq!(p.script.material_dirs, ["models/x/", "models\\shared", ""]);
        assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
        assert!(p.script.ignored.is_empty());
    }

    #[test]
    fn unbalanced_braces_name_the_line() {
        let e = parse_text("$cd .\n$sequence a a {\n{ event 1 2 }\n").unwrap_err();
        assert_eq!(e.position, crate::io::Position::Line(2), "{e}");
        assert!(e.message.contains("not closed"), "{e}");
        let e = parse_text("$cd .\n\n$sequence a a }\n").unwrap_err();
        assert_eq!(e.position, crate::io::Position::Line(3), "{e}");
        let e = parse_text("$scale 1\n}\n").unwrap_err();
        assert_eq!(e.position, crate::io::Position::Line(2), "{e}");
    }

    #[test]
    fn bodies_hitboxes_attachments_and_ignored_commands() {
        let qc = "$body \"studio\" \"reference\"\n\
                  $bodygroup heads\n{\n studio \"h1\"\n blank\n studio \"h2\" reverse\n}\n\
                  $hbox 0 \"Bip01\" 0 -5.9 -2.7 3 5.7 0\n\
                  $attachment 0 \"Bone05\" 1 2 3\n\
                  $bbox -12 -12 0 12 12 24\n$eyeposition 0 0 20\n\
                  $gamma 1.8\n$texturegroup skins\n{\n { \"a.bmp\" }\n { \"b.bmp\" }\n}\n$flags 0\n\
                  $controller 0 \"Neck\" YR -60 60\n$controller mouth \"Jaw\" XR 0 20\n";
        let p = parse_text(qc).unwrap();
        let s = &p.script;
        assert_eq!(s.body_groups.len(), 2);
        assert_eq!(s.body_groups[1].choices.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["h1", "blank", "h2"]);
        assert_eq!(s.hitboxes.len(), 1);
        assert_eq!(s.hitboxes[0].min, Vec3::new(0.0, -5.9, -2.7));
        assert_eq!(s.attachments[0].offset, Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(s.bbox.unwrap().max, Vec3::new(12.0, 12.0, 24.0));
        assert_eq!(s.eye_position, Some(Vec3::new(0.0, 0.0, 20.0)));
        assert_eq!(s.ignored_names(), ["mesh options", "$gamma", "$flags"]);
        assert_eq!(s.skin_families.iter().map(|f| f.textures.clone()).collect::<Vec<_>>(), [["a.bmp"], ["b.bmp"]]);
        assert_eq!(s.controllers.len(), 2);
        assert_eq!((s.controllers[1].index, s.controllers[1].bone.as_str(), s.controllers[1].end), (4, "Jaw", 20.0));
        let flags = s.ignored.iter().find(|c| c.name == "$flags").unwrap();
        assert_eq!(flags.line, 18);
    }

    #[test]
    fn scale_and_origin_apply_to_what_follows_and_options_override_them() {
        let qc = "$body a a_ref\n$scale 2\n$origin 1 2 3 90\n$body b b_ref reverse scale 0.5\n\
                  $sequence s1 s1\n$sequence s2 s2 origin 0 0 0 scale 4 rotate 45\n$origin 0 0 0 0\n$scale 1\n\
                  $sequence s3 s3\n$origin x y\n";
        let p = parse_text(qc).unwrap();
        let s = &p.script;
        assert_eq!(s.body_groups[0].choices[0].placement, None, "before any $scale");
        let b = s.body_groups[1].choices[0].placement.unwrap();
        assert_eq!((b.origin, b.scale, b.rotation_degrees), (Vec3::new(1.0, 2.0, 3.0), 0.5, 90.0));
        let s1 = s.sequences[0].placement.unwrap();
        assert_eq!((s1.origin, s1.scale, s1.rotation_degrees), (Vec3::new(1.0, 2.0, 3.0), 2.0, 90.0));
        let s2 = s.sequences[1].placement.unwrap();
        assert_eq!((s2.origin, s2.scale, s2.rotation_degrees), (Vec3::ZERO, 4.0, 45.0));
        assert!(
            s.sequences[1].options.is_empty(),
            "placement options are used, not listed: {:?}",
            s.sequences[1].options
        );
        assert_eq!(s.sequences[2].placement, None);
        assert_eq!(s.ignored.iter().find(|c| c.name == "mesh options").unwrap().args, ["reverse"]);
        assert_eq!(p.warnings.len(), 1, "the bad `$origin`: {:?}", p.warnings);
        assert!(p.warnings[0].message.contains("$origin"));
    }

    #[test]
    fn variables_are_substituted_from_their_definition_on_and_macro_parameters_are_not_variables() {
        let qc = "$sequence early \"$v$\"\n$definevariable v walk\n$sequence late \"$V$\" fps 10\n\
                  $definemacro m name \\\\\n$sequence $name$ x \\\\\n\n$sequence odd \"$other$\"\n";
        let p = parse_text(qc).unwrap();
        let files: Vec<&str> = p.script.sequences.iter().map(|s| s.files[0].as_str()).collect();
        assert_eq!(files, ["$v$", "walk", "$other$"], "a name means what is defined above it");
        let unknown: Vec<String> =
            p.warnings.iter().map(ToString::to_string).filter(|w| w.contains("names no")).collect();
        assert_eq!(
            unknown,
            [
                "line 1: `$v$` names no `$definevariable`; it was left as written",
                "line 7: `$other$` names no `$definevariable`; it was left as written"
            ]
        );
    }

    #[test]
    fn animations_stand_in_for_their_files() {
        let qc = "$animation a_walk \"walk_anim\" fps 24 loop\n$sequence walk a_walk ACT_WALK 1\n";
        let p = parse_text(qc).unwrap();
        let s = &p.script.sequences[0];
        assert_eq!((s.files.as_slice(), s.fps, s.looping), (&["walk_anim".to_owned()][..], 24.0, true));
    }
}
