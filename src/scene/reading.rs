//! How a loader read a file whose meaning depends on the tool that wrote it: one [`Reading`] per decision (which
//! exporter's conventions, what animation samples mean, where time zero is), with what in the file decided it.
//! Any format can record them; `info` prints them, so a file is never read one way silently.

/// One decision a loader made about how to read the file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Reading {
    /// What was decided, e.g. "exporter", "rotation samples", "sample times".
    pub topic: String,
    /// The reading used, e.g. "absolute world transforms".
    pub choice: String,
    /// What in the file decided it, e.g. "*COMMENT names GothicSourcer" or "detected from the data: …".
    pub basis: String,
    /// True when nothing in the file settled it and `choice` was assumed (a warning says so too).
    pub assumed: bool,
}

impl Reading {
    /// The topic of the reading that says which axis of the file was taken as up, where it is not the format's
    /// convention (turned upright by the character's own bones, or set by hand).
    pub const UP_AXIS: &'static str = "up axis";

    /// A reading the file itself settled.
    pub fn new(topic: impl Into<String>, choice: impl Into<String>, basis: impl Into<String>) -> Self {
        Self { topic: topic.into(), choice: choice.into(), basis: basis.into(), assumed: false }
    }

    /// A reading nothing in the file settled.
    pub fn assumed(topic: impl Into<String>, choice: impl Into<String>, basis: impl Into<String>) -> Self {
        Self { assumed: true, ..Self::new(topic, choice, basis) }
    }
}

impl std::fmt::Display for Reading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} ({}{})", self.topic, self.choice, if self.assumed { "assumed: " } else { "" }, self.basis)
    }
}
