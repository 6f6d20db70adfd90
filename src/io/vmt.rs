//! Valve material files (`.vmt`, Source engine) → the texture a material draws with. A VMT is KeyValues text:
//! `"VertexLitGeneric" { "$basetexture" "models/foo/skin" … }` — quoted or bare tokens, `//` comments, nested
//! `{ }` blocks (`Proxies`, `replace`), keys compared case-insensitively, the first of a repeated key winning
//! (KeyValues' `FindKey`), and `[$X360]`-style conditions after a value (a pair for consoles only is
//! dropped). A `patch` material names another (`include`) and overrides some of its parameters in `replace` /
//! `insert` blocks; [`Vmt::patch`] gives both, and the caller reads the included file.
//!
//! Parsing only: text in, the material out. Finding the `.vmt` for a model's material and the `.vtf` its
//! `$basetexture` names is the model script's job (QC `$cdmaterials`), and decoding the texture is [`vtf`].
//!
//! [`vtf`]: crate::io::vtf

use thiserror::Error;

/// A syntax error, with its line (1-based).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct VmtError {
    pub line: usize,
    pub message: String,
}

/// One key and its value: text or a block of pairs.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyValue {
    pub key: String,
    pub value: Value,
    /// Line of the key (1-based).
    pub line: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Text(String),
    Block(Vec<KeyValue>),
}

/// A material: its shader and the parameters in the shader's block.
#[derive(Clone, Debug, PartialEq)]
pub struct Vmt {
    /// `VertexLitGeneric`, `patch`, `EyeRefract`, … as written.
    pub shader: String,
    pub params: Vec<KeyValue>,
}

/// The parts of a `patch` material.
#[derive(Clone, Debug, PartialEq)]
pub struct Patch<'a> {
    /// The included material, as written: a path from the game folder (`materials/models/x/base.vmt`).
    pub include: Option<&'a str>,
    /// `$basetexture` set by its `replace` or `insert` block, if either sets it.
    pub base_texture: Option<&'a str>,
}

/// The value of the first text pair named `key` (any case) in `pairs`.
fn text<'a>(pairs: &'a [KeyValue], key: &str) -> Option<&'a str> {
    pairs.iter().find_map(|kv| match &kv.value {
        Value::Text(t) if kv.key.eq_ignore_ascii_case(key) => Some(t.as_str()),
        _ => None,
    })
}

/// The first block named `key` (any case) in `pairs`.
fn block<'a>(pairs: &'a [KeyValue], key: &str) -> Option<&'a [KeyValue]> {
    pairs.iter().find_map(|kv| match &kv.value {
        Value::Block(b) if kv.key.eq_ignore_ascii_case(key) => Some(b.as_slice()),
        _ => None,
    })
}

impl Vmt {
    /// The text parameter `key` (any case: `$BaseTexture` is `$basetexture`).
    pub fn get(&self, key: &str) -> Option<&str> {
        text(&self.params, key)
    }

    /// The colour texture, as written: `$basetexture`, else an eye shader's `$iris`. `None` for a material
    /// without one (and for a patch: see [`Vmt::patch`]).
    pub fn base_texture(&self) -> Option<&str> {
        self.get("$basetexture").or_else(|| self.get("$iris")).filter(|t| !t.trim().is_empty())
    }

    /// The include and overrides of a `patch` material; `None` for any other shader.
    pub fn patch(&self) -> Option<Patch<'_>> {
        if !self.shader.eq_ignore_ascii_case("patch") {
            return None;
        }
        let set = |name: &str| block(&self.params, name).and_then(|b| text(b, "$basetexture"));
        Some(Patch { include: self.get("include"), base_texture: set("replace").or_else(|| set("insert")) })
    }
}

/// `$basetexture "models\Foo\skin.vtf"` → `models/Foo/skin`: forward slashes, no leading slash or
/// `materials/`, no `.vtf`. The texture file is then `materials/<that>.vtf`.
pub fn texture_path(value: &str) -> String {
    let mut path = value.trim().replace('\\', "/");
    while path.starts_with('/') {
        path.remove(0);
    }
    if path.len() > 10 && path.get(..10).is_some_and(|p| p.eq_ignore_ascii_case("materials/")) {
        path.drain(..10);
    }
    if path.len() > 4 && path.get(path.len() - 4..).is_some_and(|e| e.eq_ignore_ascii_case(".vtf")) {
        path.truncate(path.len() - 4);
    }
    path
}

/// Parses a VMT: the first top-level block is the material.
pub fn parse(text: &str) -> Result<Vmt, VmtError> {
    let pairs = parse_keyvalues(text)?;
    pairs
        .into_iter()
        .find_map(|kv| match kv.value {
            Value::Block(params) => Some(Vmt { shader: kv.key, params }),
            Value::Text(_) => None,
        })
        .ok_or(VmtError { line: 1, message: "no material block (`\"Shader\" { … }`)".into() })
}

#[derive(Debug, PartialEq)]
enum Token {
    Open,
    Close,
    Text(String),
    Condition(String),
}

fn tokenize(text: &str) -> Result<Vec<(Token, usize)>, VmtError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '\n' => line += 1,
            c if c.is_whitespace() => {}
            '/' if text.get(at + 1..at + 2) == Some("/") => while chars.next_if(|(_, c)| *c != '\n').is_some() {},
            '{' => tokens.push((Token::Open, line)),
            '}' => tokens.push((Token::Close, line)),
            '"' => {
                let start = line;
                let mut s = String::new();
                loop {
                    match chars.next() {
                        Some((_, '"')) => break,
                        Some((_, c)) => {
                            if c == '\n' {
                                line += 1;
                            }
                            s.push(c);
                        }
                        None => return Err(VmtError { line: start, message: "a quote that is never closed".into() }),
                    }
                }
                tokens.push((Token::Text(s), start));
            }
            c => {
                let mut s = String::from(c);
                while let Some((_, c)) = chars.next_if(|(_, c)| !c.is_whitespace() && !matches!(c, '"' | '{' | '}')) {
                    s.push(c);
                }
                let token = if s.starts_with('[') && s.ends_with(']') { Token::Condition(s) } else { Token::Text(s) };
                tokens.push((token, line));
            }
        }
    }
    Ok(tokens)
}

/// False for a condition that holds only on consoles (`[$X360]`, `[$PS3]`, `[$GAMECONSOLE]`) or never on a PC
/// (`[!$WIN32]`, `[!$WINDOWS]`); true for everything else, compound conditions included.
fn holds_on_pc(condition: &str) -> bool {
    let inner = condition.trim_start_matches('[').trim_end_matches(']').trim();
    if inner.contains("||") || inner.contains("&&") {
        return true;
    }
    let (negated, name) = match inner.strip_prefix('!') {
        Some(rest) => (true, rest.trim()),
        None => (false, inner),
    };
    let name = name.to_ascii_uppercase();
    let console = matches!(name.as_str(), "$X360" | "$PS3" | "$GAMECONSOLE" | "$XBOX");
    let pc = matches!(name.as_str(), "$WIN32" | "$WINDOWS" | "$PC");
    if negated { !pc } else { !console }
}

/// Parses KeyValues text into its top-level pairs.
pub fn parse_keyvalues(text: &str) -> Result<Vec<KeyValue>, VmtError> {
    let tokens = tokenize(text)?;
    // Blocks being read: the pairs around them, their key and line, and whether they hold on a PC.
    let mut stack: Vec<(Vec<KeyValue>, String, usize, bool)> = Vec::new();
    let mut current: Vec<KeyValue> = Vec::new();
    let mut i = 0;
    // Conditions at `i` and after: false when one of them does not hold on a PC.
    let conditions = |i: &mut usize| {
        let mut holds = true;
        while let Some((Token::Condition(c), _)) = tokens.get(*i) {
            holds &= holds_on_pc(c);
            *i += 1;
        }
        holds
    };
    while let Some((token, line)) = tokens.get(i) {
        i += 1;
        match token {
            Token::Close => {
                let Some((outer, key, key_line, holds)) = stack.pop() else {
                    return Err(VmtError { line: *line, message: "`}` without a matching `{`".into() });
                };
                let pairs = std::mem::replace(&mut current, outer);
                // A condition after the closing brace applies to the block too.
                if conditions(&mut i) && holds {
                    current.push(KeyValue { key, value: Value::Block(pairs), line: key_line });
                }
            }
            Token::Open => return Err(VmtError { line: *line, message: "`{` without a key before it".into() }),
            Token::Condition(_) => {}
            Token::Text(key) => {
                // Conditions between a key and its block (`"Proxies" [$WIN32] {`) are the block's.
                let holds = conditions(&mut i);
                match tokens.get(i) {
                    Some((Token::Open, _)) => {
                        i += 1;
                        stack.push((std::mem::take(&mut current), key.clone(), *line, holds));
                    }
                    Some((Token::Text(value), _)) => {
                        i += 1;
                        if conditions(&mut i) && holds {
                            current.push(KeyValue { key: key.clone(), value: Value::Text(value.clone()), line: *line });
                        }
                    }
                    _ => return Err(VmtError { line: *line, message: format!("\"{key}\" has no value") }),
                }
            }
        }
    }
    if let Some((_, key, key_line, _)) = stack.last() {
        return Err(VmtError { line: *key_line, message: format!("the block of \"{key}\" is never closed") });
    }
    Ok(current)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_comments_nesting_and_any_case() {
        let text = "\u{feff}// a comment\n\
                    \"VertexLitGeneric\"\n{\n\
                    \t\"$BaseTexture\" \"models\\Foo\\Skin\" // trailing\n\
                    \t$bumpmap models/foo/skin_normal\n\
                    \t\"$basetexture\" \"second/one/loses\"\n\
                    \t\"Proxies\"\n\t{\n\t\t\"AnimatedTexture\" { \"animatedtextureframerate\" 10 }\n\t}\n\
                    \t\"$envmap\" \"env_cubemap\" [$X360]\n\
                    \t\"$surfaceprop\" flesh [!$X360]\n\
                    }\n";
        let vmt = parse(text).unwrap();
        assert_eq!(vmt.shader, "VertexLitGeneric");
        assert_eq!(vmt.base_texture(), Some("models\\Foo\\Skin"));
        assert_eq!(texture_path(vmt.base_texture().unwrap()), "models/Foo/Skin");
        assert_eq!(vmt.get("$BUMPMAP"), Some("models/foo/skin_normal"));
        assert_eq!(vmt.get("$envmap"), None, "console only");
        assert_eq!(vmt.get("$surfaceprop"), Some("flesh"));
        let proxies = block(&vmt.params, "proxies").unwrap();
        assert_eq!(block(proxies, "AnimatedTexture").map(|b| b.len()), Some(1));
        assert!(vmt.patch().is_none());
    }

    #[test]
    fn texture_paths_lose_their_extension_and_materials_folder() {
        assert_eq!(texture_path("/materials/models/x/skin.VTF"), "models/x/skin");
        assert_eq!(texture_path(" models/x/skin "), "models/x/skin");
        assert_eq!(texture_path("vtf"), "vtf");
    }

    #[test]
    fn patch_materials_name_their_include_and_overrides() {
        let text = "patch\n{\n include \"materials/models/x/base.vmt\"\n replace\n {\n  \"$basetexture\" \"models/x/red\"\n }\n}\n";
        let vmt = parse(text).unwrap();
        let patch = vmt.patch().unwrap();
        assert_eq!(patch.include, Some("materials/models/x/base.vmt"));
        assert_eq!(patch.base_texture, Some("models/x/red"));
        let insert = parse("Patch { include x.vmt insert { $phong 1 } }").unwrap();
        assert_eq!(insert.patch().unwrap(), Patch { include: Some("x.vmt"), base_texture: None });
    }

    #[test]
    fn eyes_use_their_iris_and_errors_have_lines() {
        let eyes = parse("EyeRefract { $iris models/x/iris $corneatexture engine/eye-cornea }").unwrap();
        assert_eq!(eyes.base_texture(), Some("models/x/iris"));
        let e = parse("LightmappedGeneric\n{\n $basetexture x\n").unwrap_err();
        assert_eq!(e.to_string(), "line 1: the block of \"LightmappedGeneric\" is never closed");
        assert_eq!(parse("a { }\n}").unwrap_err().line, 2);
        assert_eq!(parse("a { $basetexture }").unwrap_err().to_string(), "line 1: \"$basetexture\" has no value");
        assert_eq!(parse("a { \"$basetexture x }").unwrap_err().message, "a quote that is never closed");
        assert!(parse("// nothing\n").is_err());
    }
}
