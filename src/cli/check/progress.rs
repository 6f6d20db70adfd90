//! Progress while characters are checked: a bar (indicatif) when stderr is a terminal, else one plain line per
//! character group, which reads well in a CI log.

use std::io::IsTerminal as _;

use super::report::CharacterReport;
use super::text::severities;

pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
    units: usize,
    done: std::sync::atomic::AtomicUsize,
}

impl Progress {
    /// `units` groups of `files` files in all.
    pub fn new(units: usize, files: usize) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(files as u64);
            let style = indicatif::ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] [{bar:30}] {pos}/{len} files, eta {eta} {wide_msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            bar.set_style(style);
            bar
        });
        Self { bar, units, done: std::sync::atomic::AtomicUsize::new(0) }
    }

    /// One group (`label`, `files` files) is checked.
    pub fn done(&self, label: &str, files: usize, reports: &[CharacterReport]) {
        let n = self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        let mut counts = super::report::Counts::default();
        for r in reports {
            counts.error += r.counts.error;
            counts.warning += r.counts.warning;
            counts.info += r.counts.info;
        }
        match &self.bar {
            Some(bar) => {
                bar.inc(files as u64);
                bar.set_message(label.to_owned());
            }
            None => eprintln!("[{n}/{}] {label}: {} character(s), {}", self.units, reports.len(), severities(&counts)),
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
