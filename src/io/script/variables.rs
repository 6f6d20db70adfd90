//! QC variables: `$definevariable NAME VALUE` and the `$NAME$` that stands for the value later in the script
//! (Garry's Mod model templates write `$definevariable mdlname "props/crate"` once and `$mdlname$.smd`,
//! `"$mdlname$.mdl"`, `$include "$common$/bones.qci"` everywhere else).
//!
//! Behaviour, after the Source SDK's scriplib (`DefineVariable`, `ExpandVariableToken`): a variable exists from
//! its definition on, in the rest of that file and in every file read after it (includes included); names
//! match without regard to case; the value is pasted as it is, never expanded again (so a value naming a
//! variable cannot loop); a `$NAME$` may sit anywhere inside a word. Two departures, both from tools QC
//! authors also use: the substitution happens inside quoted strings too (Blender Source Tools' `readQC`, and
//! the newer studiomdl builds that Garry's Mod modders use, do it), and a `$NAME$` that names no variable is
//! left as written with a warning where studiomdl stops with an error, so that the rest of the model still
//! loads. A second definition of a name keeps the first value, as scriplib's lookup (first match) does.
//!
//! This module only rewrites text; `qc` decides when (after each definition) and reports the warnings.

use std::borrow::Cow;
use std::collections::HashMap;

/// The variables defined so far.
#[derive(Clone, Debug, Default)]
pub struct Variables {
    /// (name as written, value), in definition order.
    defined: Vec<(String, String)>,
    /// Lower-case name → index in `defined`: a script may use many variables many times.
    by_name: HashMap<String, usize>,
}

/// A `$NAME$` that names no variable: its 1-based line and the name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unknown {
    pub line: usize,
    pub name: String,
}

impl Variables {
    /// Defines `name`. `Err(value)` with the value it keeps when the name is already defined.
    pub fn define(&mut self, name: &str, value: &str) -> Result<(), String> {
        if let Some(existing) = self.get(name) {
            return Err(existing.to_owned());
        }
        self.by_name.insert(name.to_ascii_lowercase(), self.defined.len());
        self.defined.push((name.to_owned(), value.to_owned()));
        Ok(())
    }

    /// The value of `name` (any case).
    pub fn get(&self, name: &str) -> Option<&str> {
        let index = if name.bytes().any(|b| b.is_ascii_uppercase()) {
            self.by_name.get(&name.to_ascii_lowercase())
        } else {
            self.by_name.get(name)
        };
        index.and_then(|&i| self.defined.get(i)).map(|(_, v)| v.as_str())
    }

    /// How many are defined (a definition changes it; a repeated name does not).
    pub fn len(&self) -> usize {
        self.defined.len()
    }

    /// True when `text` holds a `$NAME$` of a variable defined after the first `since` (those that
    /// [`Variables::len`] counted then): only then does substituting again change it.
    pub fn any_used_since(&self, since: usize, text: &str) -> bool {
        let new = self.defined.get(since..).unwrap_or_default();
        !new.is_empty() && names_in(text).any(|name| new.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)))
    }

    /// `text` with every `$NAME$` of a defined variable replaced by its value; `first_line` is the line `text`
    /// starts on, for the `$NAME$`s left as written (only names made of letters, digits and `_` are reported:
    /// other text between two `$` is not meant as a variable).
    pub fn substitute<'t>(&self, text: &'t str, first_line: usize) -> (Cow<'t, str>, Vec<Unknown>) {
        let mut unknown = Vec::new();
        if !text.contains('$') {
            return (Cow::Borrowed(text), unknown);
        }
        let mut out = String::with_capacity(text.len());
        let mut line = first_line;
        let mut copied = 0usize;
        let mut at = 0usize;
        let bytes = text.as_bytes();
        while let Some(offset) = memchr::memchr2(b'$', b'\n', &bytes[at..]) {
            let dollar = at + offset;
            if bytes[dollar] == b'\n' {
                line += 1;
                at = dollar + 1;
                continue;
            }
            // The name runs to the next `$`, and may not hold white space or a quote (scriplib: bytes > 32).
            let name_len = bytes[dollar + 1..].iter().position(|&c| c <= b' ' || c == b'$' || c == b'"');
            let Some(name_len) = name_len.filter(|&n| n > 0 && bytes.get(dollar + 1 + n) == Some(&b'$')) else {
                at = dollar + 1;
                continue;
            };
            let name = &text[dollar + 1..dollar + 1 + name_len];
            match self.get(name) {
                Some(value) => {
                    out.push_str(&text[copied..dollar]);
                    out.push_str(value);
                    copied = dollar + name_len + 2;
                    at = copied;
                }
                None => {
                    if name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
                        unknown.push(Unknown { line, name: name.to_owned() });
                    }
                    // The closing `$` may open the next variable (`$a$b$`).
                    at = dollar + 1 + name_len;
                }
            }
        }
        if copied == 0 {
            return (Cow::Borrowed(text), unknown);
        }
        out.push_str(&text[copied..]);
        (Cow::Owned(out), unknown)
    }
}

/// Every `$NAME$` candidate of `text` (a name between two `$` with no white space or quote in it), each `$`
/// starting at most one.
fn names_in(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'$', bytes).filter_map(move |dollar| {
        let len = bytes[dollar + 1..].iter().position(|&c| c <= b' ' || c == b'$' || c == b'"')?;
        (len > 0 && bytes.get(dollar + 1 + len) == Some(&b'$')).then(|| &text[dollar + 1..dollar + 1 + len])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> Variables {
        let mut v = Variables::default();
        for (n, value) in pairs {
            v.define(n, value).unwrap();
        }
        v
    }

    #[test]
    fn names_are_replaced_anywhere_in_words_and_strings_in_any_case() {
        let v = vars(&[("mdlname", "props/crate"), ("Mesh", "crate_ref")]);
        let (text, unknown) = v.substitute("$modelname \"$MDLNAME$.mdl\"\n$body b $mesh$\nx$mesh$y $mesh$$mesh$\n", 1);
        assert_eq!(text, "$modelname \"props/crate.mdl\"\n$body b crate_ref\nxcrate_refy crate_refcrate_ref\n");
        assert!(unknown.is_empty());
    }

    #[test]
    fn commands_and_lone_dollars_are_left_alone_and_unknown_names_are_reported_with_their_line() {
        let v = vars(&[("b", "B")]);
        let (text, unknown) = v.substitute("$sequence a $x\n$cost 5$ // $ $\n$nothere$ and $a$b$\n", 10);
        assert_eq!(text, "$sequence a $x\n$cost 5$ // $ $\n$nothere$ and $aB\n");
        assert_eq!(
            unknown,
            [Unknown { line: 12, name: "nothere".into() }, Unknown { line: 12, name: "a".into() }],
            "`$cost 5$` holds a space: not a variable"
        );
    }

    #[test]
    fn only_a_new_name_in_the_text_asks_for_substituting_again() {
        let mut v = vars(&[("old", "x")]);
        let since = v.len();
        v.define("New", "y").unwrap();
        assert!(v.any_used_since(since, "$a $b\n\"$NEW$.smd\""));
        assert!(!v.any_used_since(since, "$old$ $new $ new$"), "only `$old$`, defined before");
        assert!(!v.any_used_since(v.len(), "$new$"), "nothing defined since");
    }

    #[test]
    fn values_are_pasted_once_and_the_first_definition_stays() {
        let mut v = vars(&[("a", "$a$$b$")]);
        assert_eq!(v.define("A", "other"), Err("$a$$b$".to_owned()));
        v.define("b", "x").unwrap();
        assert_eq!(v.substitute("$a$", 1).0, "$a$$b$", "not expanded again");
        assert!(matches!(v.substitute("no variables", 1).0, Cow::Borrowed(_)));
    }
}
