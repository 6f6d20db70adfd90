//! The summary printed at the end of a run: characters and files, defects by severity and by kind with the
//! occurrences they stand for beside them, and the ten worst findings with their file, clip, frame and bone.

use std::fmt::Write as _;

use super::FailOn;
use super::report::{Counts, Report};

/// Findings listed in the "worst" table.
pub const WORST: usize = 10;

pub fn summary(report: &Report, fail_on: FailOn) -> String {
    let mut out = String::new();
    let counts = report.counts();
    let loaded = report.characters.iter().filter(|c| c.loaded).count();
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "checked {} character{} ({} loaded) from {} file{} ({} other files left alone) in {:.2} s",
        report.characters.len(),
        plural(report.characters.len()),
        loaded,
        report.files,
        plural(report.files),
        report.other_files,
        report.elapsed.as_secs_f64()
    );
    let occurrences = report.occurrences();
    let _ = writeln!(out, "findings: {} (one per defect)", severities(&counts));
    let _ = writeln!(
        out,
        "occurrences: {} errors, {} warnings, {} infos (the clips, vertices and characters the defects show in)",
        occurrences.error, occurrences.warning, occurrences.info
    );
    let unpaired = report.characters.iter().filter(|c| c.grouping == super::report::Grouping::Unpaired).count();
    if unpaired > 0 {
        let _ = writeln!(out, "unpaired: {unpaired} file{} paired with no character, checked alone", plural(unpaired));
    }
    let by_kind = report.by_kind();
    if !by_kind.is_empty() {
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "  {:<22} {:>7} {:>8} {:>7}   occurrences (errors/warnings/infos)",
            "kind", "errors", "warnings", "infos"
        );
        for (kind, c, o) in &by_kind {
            let _ = writeln!(
                out,
                "  {:<22} {:>7} {:>8} {:>7}   {}/{}/{}",
                kind.name(),
                c.error,
                c.warning,
                c.info,
                o.error,
                o.warning,
                o.info
            );
        }
    }
    let worst = report.worst(WORST);
    if !worst.is_empty() {
        let _ = writeln!(out);
        let _ = writeln!(out, "worst {}:", worst.len());
        for (character, f) in worst {
            let mut place =
                f.file.as_ref().map_or_else(|| character.main.display().to_string(), |p| p.display().to_string());
            if let Some(line) = f.line {
                let _ = write!(place, ":{line}");
            }
            if let Some(byte) = f.byte {
                let _ = write!(place, " @{byte}");
            }
            let mut at = Vec::new();
            if let Some(clip) = &f.clip {
                at.push(format!("clip \"{clip}\""));
            }
            if let Some(frame) = f.frame {
                at.push(format!("frame {frame}"));
            }
            if let Some(bone) = &f.bone {
                at.push(format!("bone \"{bone}\""));
            }
            let at = if at.is_empty() { String::new() } else { format!(" [{}]", at.join(", ")) };
            let times = if f.occurrences > 1 { format!(" ×{}", f.occurrences) } else { String::new() };
            let _ = writeln!(
                out,
                "  {:<7} {:<20} {}  {place}{at}{times}",
                f.severity.name(),
                f.kind.name(),
                character.name
            );
            let _ = writeln!(out, "          {}", f.message);
        }
    }
    let _ = writeln!(out);
    let failing = fail_on.severity().map_or(0, |level| counts.at_least(level));
    let level = fail_on.name();
    if failing > 0 {
        let _ = writeln!(out, "FAIL: {failing} finding{} at --fail-on {level} or worse", plural(failing));
    } else {
        let _ = writeln!(out, "OK: no findings at --fail-on {level} or worse");
    }
    out
}

pub fn severities(c: &Counts) -> String {
    format!(
        "{} error{}, {} warning{}, {} info{}",
        c.error,
        plural(c.error),
        c.warning,
        plural(c.warning),
        c.info,
        plural(c.info)
    )
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
