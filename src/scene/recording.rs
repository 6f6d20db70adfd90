//! Recordings of tracked input (MRTK input animation files): camera pose, two hands of 27 joints, eye gaze,
//! markers. Plain data; evaluation at a time lives in `anim`.

/// An input recording. Filled in by the MRTK reader.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recording {
    pub name: String,
    /// Largest last-key time over all curves, in seconds.
    pub duration: f32,
}
