//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The conformance corpus (`../shared/corpus`), given by `BONESCOPE_CORPUS`. Tests that need it call this and
/// return early when it is `None`; under CI (`CI` set) a missing corpus is a failure, not a skip.
pub fn corpus() -> Option<PathBuf> {
    match std::env::var_os("BONESCOPE_CORPUS") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            assert!(dir.is_dir(), "BONESCOPE_CORPUS={} is not a directory", dir.display());
            Some(dir)
        }
        None => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI is set but BONESCOPE_CORPUS is not: the corpus tests must run in CI"
            );
            eprintln!("skipped: BONESCOPE_CORPUS is not set (point it at ../shared/corpus to run the corpus tests)");
            None
        }
    }
}

/// A corpus file, or `None` (test skipped) when the corpus is not configured.
pub fn corpus_file(relative: &str) -> Option<PathBuf> {
    corpus().map(|dir| dir.join(relative))
}
