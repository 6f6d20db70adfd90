//! `$IF` / `$ELIF` / `$ELSE` / `$ENDIF` in a QC: conditional blocks of another compiler's QC dialect (a
//! community studiomdl); Valve's studiomdl (the Half-Life SDK's and Source's) has no such command and would
//! stop at the first of them. Their conditions name that compiler's own settings, which a viewer cannot know,
//! so they are not evaluated: each block's first branch is read (what the author wrote first, usually the
//! default build) and the other branches are left out, and a warning at the `$IF` says so. Everything else in
//! the file loads as usual. Runs on a file's text before it is tokenized; the lines it leaves out are blanked,
//! so every line keeps its number.

/// The text with the conditional commands and the branches not read blanked, and one warning per outermost
/// block: `(line, message)`. `None` when the text has no conditional command.
pub(super) fn strip(text: &str) -> Option<(String, Vec<(usize, String)>)> {
    if !text.lines().any(|l| command_of(l).is_some()) {
        return None;
    }
    // Open blocks: the `$IF` line, the branch being read (0 = the first), and whether every enclosing block is
    // in its first branch.
    struct Block {
        line: usize,
        branch: usize,
        reading: bool,
    }
    let mut open: Vec<Block> = Vec::new();
    let mut warnings = Vec::new();
    let mut out = String::with_capacity(text.len());
    let reading = |open: &[Block]| open.last().is_none_or(|b| b.reading && b.branch == 0);
    let mut skipped_lines = 0usize;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let number = i + 1;
        let ending = if line.ends_with("\r\n") {
            "\r\n"
        } else if line.ends_with('\n') {
            "\n"
        } else {
            ""
        };
        let keep = match command_of(line) {
            Some(Conditional::If) => {
                let enclosing = reading(&open);
                if open.is_empty() {
                    skipped_lines = 0;
                }
                open.push(Block { line: number, branch: 0, reading: enclosing });
                false
            }
            Some(Conditional::ElseIf | Conditional::Else) => {
                if let Some(block) = open.last_mut() {
                    block.branch += 1;
                } else {
                    warnings.push((
                        number,
                        "`$ELIF`/`$ELSE` without an `$IF` (another compiler's QC dialect); ignored".into(),
                    ));
                }
                false
            }
            Some(Conditional::EndIf) => {
                match open.pop() {
                    Some(block) if open.is_empty() => {
                        warnings.push((block.line, summary(block.line, Some(number), block.branch, skipped_lines)))
                    }
                    Some(_) => {}
                    None => warnings
                        .push((number, "`$ENDIF` without an `$IF` (another compiler's QC dialect); ignored".into())),
                }
                false
            }
            None => {
                let keep = reading(&open);
                if !keep && !line.trim().is_empty() {
                    skipped_lines += 1;
                }
                keep
            }
        };
        if keep {
            out.push_str(line);
        } else {
            out.push_str(ending);
        }
    }
    if let Some(first) = open.first() {
        let branches = open.first().map_or(0, |b| b.branch);
        warnings.push((first.line, summary(first.line, None, branches, skipped_lines)));
    }
    Some((out, warnings))
}

fn summary(line: usize, end: Option<usize>, other_branches: usize, skipped_lines: usize) -> String {
    let span = match end {
        Some(end) => format!("lines {line}–{end}"),
        None => format!("from line {line}, with no `$ENDIF` before the end of the file"),
    };
    format!(
        "`$IF` ({span}) is a conditional of another compiler's QC dialect, not a studiomdl command, and is not \
         supported here: its condition was not evaluated; its first branch was read{}",
        if other_branches == 0 {
            String::new()
        } else {
            format!(", the other {other_branches} branch(es) ({skipped_lines} line(s)) left out")
        }
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Conditional {
    If,
    ElseIf,
    Else,
    EndIf,
}

/// The conditional command a line starts with (any case), if any.
fn command_of(line: &str) -> Option<Conditional> {
    let word = line.trim_start().split(|c: char| c.is_whitespace() || c == '(').next()?;
    match word.to_ascii_lowercase().as_str() {
        "$if" | "$ifdef" | "$ifndef" => Some(Conditional::If),
        "$elif" | "$elseif" => Some(Conditional::ElseIf),
        "$else" => Some(Conditional::Else),
        "$endif" => Some(Conditional::EndIf),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_branch_is_read_and_lines_keep_their_numbers() {
        let qc = "$modelname x.mdl\n$IF HD\n$body studio hd_ref\n$ELIF LD\n$body studio ld_ref\n$ELSE\n$body studio \
                  old\n$ENDIF\n$sequence idle idle\n";
        let (text, warnings) = strip(qc).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), qc.lines().count());
        assert_eq!(lines[2], "$body studio hd_ref");
        assert_eq!(lines[4], "");
        assert_eq!(lines[6], "");
        assert_eq!(lines[8], "$sequence idle idle");
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].0, 2);
        assert!(warnings[0].1.contains("another compiler") && warnings[0].1.contains("lines 2–8"), "{warnings:?}");
        assert!(warnings[0].1.contains("other 2 branch(es) (2 line(s))"), "{warnings:?}");
        assert!(strip("$body a b\n").is_none());
    }

    #[test]
    fn nested_blocks_follow_their_outer_branch_and_an_open_one_is_said() {
        let qc = "$if A\n$if B\nab\n$else\na_not_b\n$endif\n$else\n$if C\nnot_a_c\n$endif\n$endif\n$if D\nd\n";
        let (text, warnings) = strip(qc).unwrap();
        let kept: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(kept, ["ab", "d"]);
        assert_eq!(warnings.len(), 2);
        assert!(warnings[1].1.contains("no `$ENDIF`"), "{warnings:?}");
        let (_, stray) = strip("$endif\n").unwrap();
        assert!(stray[0].1.contains("without an `$IF`"));
    }
}
