//! `--json FILE`: every finding with its location, in the versioned schema documented in docs/check-json.md.
//! Fields are only ever added within a version; renaming or removing one, or changing its meaning, makes a new
//! [`SCHEMA_VERSION`].

use serde_json::{Value, json};

use super::FailOn;
use super::report::Report;

/// The schema's name, in every document's `"schema"` field.
pub const SCHEMA: &str = "bonescope-check";
/// Raised when a field is renamed, removed or changes meaning. 2: one finding per defect (`count` counts
/// defects, `occurrences` the instances they stand for), the surface kinds, pairing of loose files.
pub const SCHEMA_VERSION: u32 = 2;

pub fn document(report: &Report, fail_on: FailOn) -> Value {
    let counts = report.counts();
    let by_kind: serde_json::Map<String, Value> = report
        .by_kind()
        .into_iter()
        .map(|(kind, c, _)| (kind.name().to_owned(), serde_json::to_value(c).unwrap_or(Value::Null)))
        .collect();
    let occurrences_by_kind: serde_json::Map<String, Value> = report
        .by_kind()
        .into_iter()
        .map(|(kind, _, o)| (kind.name().to_owned(), serde_json::to_value(o).unwrap_or(Value::Null)))
        .collect();
    let unpaired = report.characters.iter().filter(|c| c.grouping == super::report::Grouping::Unpaired).count();
    let failing = fail_on.severity().map_or(0, |level| counts.at_least(level));
    json!({
        "schema": SCHEMA,
        "version": SCHEMA_VERSION,
        "generator": format!("bonescope {}", env!("CARGO_PKG_VERSION")),
        "roots": report.roots,
        "grouping": super::walk::GROUPING_RULE,
        "summary": {
            "characters": report.characters.len(),
            "loaded": report.characters.iter().filter(|c| c.loaded).count(),
            "files": report.files,
            "other_files": report.other_files,
            "findings": counts,
            "occurrences": report.occurrences(),
            "by_kind": by_kind,
            "occurrences_by_kind": occurrences_by_kind,
            "unpaired_files": unpaired,
            "fail_on": fail_on.name(),
            "failing": failing,
        },
        "characters": report.characters,
    })
}
