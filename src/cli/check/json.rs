//! `--json FILE`: every finding with its location, in the versioned schema documented in docs/check-json.md.
//! Fields are only ever added within a version; renaming or removing one, or changing its meaning, makes a new
//! [`SCHEMA_VERSION`].

use serde_json::{Value, json};

use super::FailOn;
use super::report::Report;

/// The schema's name, in every document's `"schema"` field.
pub const SCHEMA: &str = "bonescope-check";
/// Raised when a field is renamed, removed or changes meaning.
pub const SCHEMA_VERSION: u32 = 1;

pub fn document(report: &Report, fail_on: FailOn) -> Value {
    let counts = report.counts();
    let by_kind: serde_json::Map<String, Value> = report
        .by_kind()
        .into_iter()
        .map(|(kind, c)| (kind.name().to_owned(), serde_json::to_value(c).unwrap_or(Value::Null)))
        .collect();
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
            "by_kind": by_kind,
            "fail_on": fail_on.name(),
            "failing": failing,
        },
        "characters": report.characters,
    })
}
