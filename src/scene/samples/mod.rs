//! Built-in sample scenes, made by code rather than read from files: the demo character (a stalk creature on a
//! six-bone chain with two clips) and the demo hand-tracking recording. The viewer opens the demo character when
//! started without a file; tests and benches use both as known rigs. A user names them as [`Sample`]s (on the
//! command line `@demo` and `@demo-recording`); they are not a file format, and nothing in `io` knows them.

pub mod demo;
pub mod demo_recording;

use super::{Asset, AxisConversion};

/// A scene the program can open without a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sample {
    /// The demo character ([`demo::demo_asset`]).
    Demo,
    /// The demo MRTK recording: two hands pinching, head and gaze ([`demo_recording::demo_recording`]).
    DemoRecording,
}

impl Sample {
    pub const ALL: [Sample; 2] = [Sample::Demo, Sample::DemoRecording];

    /// The name a user gives it (after `@` on the command line).
    pub fn name(self) -> &'static str {
        match self {
            Sample::Demo => "demo",
            Sample::DemoRecording => "demo-recording",
        }
    }

    /// What to call it in titles and lists.
    pub fn title(self) -> &'static str {
        match self {
            Sample::Demo => "built-in demo",
            Sample::DemoRecording => "built-in demo recording",
        }
    }

    /// The sample named `name` (case-insensitive, without the `@`).
    pub fn named(name: &str) -> Option<Sample> {
        Self::ALL.into_iter().find(|s| s.name().eq_ignore_ascii_case(name))
    }

    /// The scene, made afresh.
    pub fn asset(self) -> Asset {
        match self {
            Sample::Demo => demo::demo_asset(),
            Sample::DemoRecording => {
                let mut asset = Asset::default();
                asset.recordings.push(demo_recording::demo_recording());
                // Recorded in Unity's frame, like the MRTK files it imitates.
                asset.axes = AxisConversion::unity_left_handed();
                asset
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_found_by_name_and_hold_what_they_say() {
        for sample in Sample::ALL {
            assert_eq!(Sample::named(sample.name()), Some(sample));
            let asset = sample.asset();
            assert_eq!(asset.format, None);
            assert!(asset.path.is_none());
        }
        assert_eq!(Sample::named("DEMO"), Some(Sample::Demo));
        assert_eq!(Sample::named("walk"), None);
        assert_eq!(Sample::Demo.asset().skeleton.len(), demo::BONES);
        let recording = Sample::DemoRecording.asset();
        assert_eq!(recording.recordings.len(), 1);
        assert!(recording.axes.mirrors());
    }
}
