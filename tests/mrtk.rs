//! MRTK input animation recordings end to end: the writer and reader round-trip byte for byte for versions 1.0
//! and 1.1 (both key layouts), with and without each stream and the marker list; broken files give positioned
//! errors; the demo recording survives the trip and is written where the CLI and viewer can open it.

use bonescope::anim::recording::RecordingPose;
use bonescope::io::mrtk::read_recording;
use bonescope::io::mrtk_write::write;
use bonescope::io::{LoadErrorKind, LoadOptions, Position, detect_format, load_path};
use bonescope::scene::{
    BoolCurve, BoolKey, FloatCurve, Format, HAND_JOINT_COUNT, HandCurves, KeyLayout, Keyframe, Marker, PoseCurves,
    RayCurves, Recording, RecordingLayout, WrapMode,
};

/// Small deterministic generator (xorshift) so that failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn f32(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

fn float_curve(rng: &mut Rng, layout: KeyLayout, max_keys: u64) -> FloatCurve {
    let n = rng.below(max_keys + 1) as usize;
    let mut t = rng.f32(0.0, 0.5);
    let keys = (0..n)
        .map(|_| {
            t += rng.f32(0.01, 0.3);
            let value = rng.f32(-2.0, 2.0);
            match layout {
                KeyLayout::TimeValue => Keyframe::linear(t, value),
                KeyLayout::Full => Keyframe {
                    time: t,
                    value,
                    in_tangent: rng.f32(-3.0, 3.0),
                    out_tangent: if rng.below(10) == 0 { f32::INFINITY } else { rng.f32(-3.0, 3.0) },
                    in_weight: rng.f32(0.0, 1.0),
                    out_weight: rng.f32(0.0, 1.0),
                    weighted_mode: rng.below(4) as i32,
                },
            }
        })
        .collect();
    let modes = [WrapMode::Default, WrapMode::Once, WrapMode::Loop, WrapMode::PingPong, WrapMode::ClampForever];
    FloatCurve { pre_wrap: modes[rng.below(5) as usize], post_wrap: modes[rng.below(5) as usize], keys }
}

fn bool_curve(rng: &mut Rng) -> BoolCurve {
    let n = rng.below(5) as usize;
    let mut t = 0.0;
    let keys = (0..n)
        .map(|i| {
            let key = BoolKey { time: t, value: (i % 2) as f32 };
            t += rng.f32(0.1, 1.0);
            key
        })
        .collect();
    BoolCurve::new(keys)
}

fn pose(rng: &mut Rng, layout: KeyLayout, max_keys: u64) -> PoseCurves {
    let mut p = PoseCurves::default();
    for c in p.curves_mut() {
        *c = float_curve(rng, layout, max_keys);
    }
    p
}

struct Streams {
    camera: bool,
    hands: bool,
    gaze: bool,
    markers: bool,
}

fn recording(seed: u64, layout: RecordingLayout, s: &Streams, max_keys: u64) -> Recording {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let k = layout.key_layout;
    let camera = s.camera.then(|| {
        let mut c = pose(&mut rng, k, max_keys);
        // At least one float key, so that the key layout is visible in the bytes.
        c.position[0].keys.push(Keyframe { time: 10.0, ..Keyframe::linear(10.0, 1.0) });
        c
    });
    let hands = s.hands.then(|| {
        let mut hands: [HandCurves; 2] = Default::default();
        for h in &mut hands {
            h.tracked = bool_curve(&mut rng);
            h.pinch = bool_curve(&mut rng);
            // Some joints unrecorded, as MRTK leaves `None` and untracked ones.
            for j in h.joints.iter_mut().skip(1) {
                if rng.below(4) != 0 {
                    *j = pose(&mut rng, k, max_keys);
                }
            }
        }
        hands[0].joints[1].rotation[3].keys.push(Keyframe::linear(10.5, 1.0));
        hands
    });
    let gaze = s.gaze.then(|| {
        let mut g = RayCurves::default();
        for c in g.curves_mut() {
            *c = float_curve(&mut rng, k, max_keys);
        }
        g.direction[2].keys.push(Keyframe::linear(11.0, 1.0));
        g
    });
    let markers = if s.markers {
        vec![
            Marker { time: 0.5, name: "start".into() },
            Marker { time: 1.25, name: String::new() },
            Marker { time: 2.0, name: "마커 — ünïcode".into() },
            Marker { time: 3.0, name: "x".repeat(200) },
        ]
    } else {
        Vec::new()
    };
    let mut rec = Recording {
        name: String::new(),
        layout: RecordingLayout { marker_list: s.markers || seed.is_multiple_of(2), ..layout },
        camera,
        hands,
        gaze,
        markers,
        duration: 0.0,
    };
    rec.duration = rec.compute_duration();
    rec
}

#[track_caller]
fn round_trip(rec: &Recording) -> Vec<u8> {
    let bytes = write(rec).unwrap();
    let (back, warnings) = read_recording(&bytes).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(back.layout, rec.layout);
    assert_eq!(&back, rec);
    assert_eq!(write(&back).unwrap(), bytes, "read → write must give the same bytes");
    bytes
}

#[test]
fn version_1_0_round_trips_with_and_without_markers() {
    for (i, markers) in [false, true].into_iter().enumerate() {
        for seed in [i as u64 * 2, i as u64 * 2 + 1] {
            let s = Streams { camera: true, hands: true, gaze: false, markers };
            let rec = recording(seed, RecordingLayout::V1_0, &s, 6);
            let bytes = round_trip(&rec);
            assert_eq!(&bytes[8..16], &[1, 0, 0, 0, 0, 0, 0, 0]);
            assert_eq!(rec.markers.len(), if markers { 4 } else { 0 });
        }
    }
}

#[test]
fn version_1_0_without_streams_writes_empty_curves_that_read_back_as_present() {
    let rec = Recording { layout: RecordingLayout::V1_0, ..Recording::default() };
    let bytes = write(&rec).unwrap();
    let (back, _) = read_recording(&bytes).unwrap();
    assert!(back.camera.as_ref().is_some_and(PoseCurves::is_empty));
    assert!(back.hands.as_ref().is_some_and(|h| h.iter().all(|h| h.recorded_joints() == 0)));
    assert_eq!(write(&back).unwrap(), bytes);
}

#[test]
fn version_1_1_round_trips_every_stream_combination_in_both_key_layouts() {
    for key_layout in [KeyLayout::TimeValue, KeyLayout::Full] {
        for mask in 0..16u32 {
            let s =
                Streams { camera: mask & 1 != 0, hands: mask & 2 != 0, gaze: mask & 4 != 0, markers: mask & 8 != 0 };
            let layout = RecordingLayout { key_layout, ..RecordingLayout::V1_1 };
            let rec = recording(u64::from(mask) + 100, layout, &s, 5);
            if rec.float_curves().all(|c| c.keys.is_empty()) {
                // No float keys: the two layouts are the same bytes and the reader reports the 8-byte one.
                let bytes = write(&rec).unwrap();
                let (back, _) = read_recording(&bytes).unwrap();
                assert_eq!(back.layout.key_layout, KeyLayout::TimeValue);
                assert_eq!(write(&back).unwrap(), bytes);
                continue;
            }
            let bytes = round_trip(&rec);
            assert_eq!(&bytes[16..19], &[u8::from(s.camera), u8::from(s.hands), u8::from(s.gaze)], "mask {mask}");
        }
    }
}

#[test]
fn version_1_1_key_layout_is_found_and_reported() {
    let s = Streams { camera: true, hands: true, gaze: true, markers: true };
    let short = recording(7, RecordingLayout::V1_1, &s, 8);
    let full = recording(7, RecordingLayout { key_layout: KeyLayout::Full, ..RecordingLayout::V1_1 }, &s, 8);
    let (a, _) = read_recording(&write(&short).unwrap()).unwrap();
    let (b, _) = read_recording(&write(&full).unwrap()).unwrap();
    assert_eq!(a.layout.key_layout, KeyLayout::TimeValue);
    assert_eq!(b.layout.key_layout, KeyLayout::Full);
    assert!(a.summary().to_string().contains("8-byte keys"));
    assert!(b.summary().to_string().contains("28-byte keys"));
    // 28-byte keys keep tangents and weights; 8-byte keys are linear as MRTK's reader makes them.
    assert!(b.float_curves().flat_map(|c| &c.keys).any(|k| k.in_tangent != 0.0));
    assert!(a.float_curves().flat_map(|c| &c.keys).all(|k| *k == Keyframe::linear(k.time, k.value)));
}

#[test]
fn file_ending_after_the_curves_has_no_marker_list() {
    let s = Streams { camera: true, hands: false, gaze: true, markers: false };
    let mut rec = recording(3, RecordingLayout::V1_1, &s, 4);
    rec.layout.marker_list = false;
    let without = round_trip(&rec);
    rec.layout.marker_list = true;
    let with = round_trip(&rec);
    assert_eq!(with.len(), without.len() + 4);
    let (back, _) = read_recording(&without).unwrap();
    assert!(!back.layout.marker_list && back.markers.is_empty());
    assert!(back.summary().to_string().contains("no marker list"));
}

#[test]
fn summary_lists_streams_keys_and_markers() {
    let s = Streams { camera: false, hands: true, gaze: true, markers: true };
    let rec = recording(11, RecordingLayout::V1_1, &s, 3);
    let summary = rec.summary();
    let text = summary.to_string();
    assert!(text.contains("version 1.1"), "{text}");
    assert!(text.contains("camera pose") && text.contains("absent"), "{text}");
    assert!(text.contains("4 marker(s)") && text.contains("start"), "{text}");
    let json = serde_json::to_value(&summary).unwrap();
    assert_eq!(json["version"], "1.1");
    let joints = json["streams"].as_array().unwrap().iter().find(|s| s["name"] == "left hand joints").unwrap();
    assert_eq!(joints["keys"].as_u64().unwrap() as usize, rec.hands.as_ref().unwrap()[0].joint_key_count());
    assert_eq!(joints["curves"], 7 * HAND_JOINT_COUNT);
}

fn small_recording_bytes(layout: RecordingLayout) -> Vec<u8> {
    let s = Streams { camera: true, hands: true, gaze: layout.minor == 1, markers: true };
    let mut rec = recording(5, layout, &s, 2);
    // Keep it small: only a few joints keyed.
    for h in rec.hands.as_mut().unwrap() {
        for (j, joint) in h.joints.iter_mut().enumerate() {
            if j > 3 {
                *joint = PoseCurves::default();
            }
        }
    }
    rec.markers.truncate(2);
    write(&rec).unwrap()
}

#[test]
fn every_prefix_of_a_small_recording_is_a_positioned_error() {
    for layout in [
        RecordingLayout::V1_0,
        RecordingLayout::V1_1,
        RecordingLayout { key_layout: KeyLayout::Full, ..RecordingLayout::V1_1 },
    ] {
        let bytes = small_recording_bytes(layout);
        let (rec, _) = read_recording(&bytes).unwrap();
        // The one prefix that is a valid file: everything up to the marker list.
        let without_markers =
            write(&Recording { markers: vec![], layout: RecordingLayout { marker_list: false, ..rec.layout }, ..rec })
                .unwrap();
        for n in 0..bytes.len() {
            match read_recording(&bytes[..n]) {
                Ok(_) => assert_eq!(n, without_markers.len(), "{layout:?}: prefix of {n} bytes loaded"),
                Err(e) => {
                    let Position::Byte(at) = e.position else { panic!("no byte offset: {e}") };
                    assert!(at <= n as u64, "{layout:?} prefix {n}: offset {at} beyond the end: {e}");
                    assert!(!e.message.is_empty());
                }
            }
        }
    }
}

#[test]
fn truncation_inside_a_curve_names_the_curve() {
    let bytes = small_recording_bytes(RecordingLayout::V1_0);
    let e = read_recording(&bytes[..16 + 12 + 3]).unwrap_err();
    assert_eq!(e.kind, LoadErrorKind::Truncated, "{e}");
    assert!(e.to_string().contains("camera position X"), "{e}");
    let e = read_recording(&bytes[..20]).unwrap_err();
    assert_eq!((e.position, e.kind), (Position::Byte(16), LoadErrorKind::Truncated));
    assert!(e.message.contains("header of curve 'camera position X'"), "{e}");
}

#[test]
fn version_1_1_that_fits_neither_key_layout_reports_both_attempts() {
    let bytes = small_recording_bytes(RecordingLayout::V1_1);
    let e = read_recording(&bytes[..bytes.len() - 3]).unwrap_err();
    let text = e.to_string();
    assert!(text.starts_with("byte "), "{text}");
    assert!(text.contains("8-byte keys") && text.contains("28-byte keys") && text.contains("fails at byte"), "{text}");
    // The 8-byte reading gets furthest (into the marker list), so it is the one reported first.
    assert!(text.contains("marker"), "{text}");
}

#[test]
fn wrong_magic_and_unknown_versions_are_refused() {
    let mut bytes = small_recording_bytes(RecordingLayout::V1_1);
    for (major, minor) in [(1, 2), (2, 0), (0, 9), (-1, 1)] {
        bytes[8..12].copy_from_slice(&i32::to_le_bytes(major));
        bytes[12..16].copy_from_slice(&i32::to_le_bytes(minor));
        let e = read_recording(&bytes).unwrap_err();
        assert_eq!((e.position, e.kind), (Position::Byte(8), LoadErrorKind::Unsupported));
        assert!(e.message.contains(&format!("{major}.{minor}")) && e.message.contains("1.0 and 1.1"), "{e}");
    }
    bytes[0] = b'P';
    let e = read_recording(&bytes).unwrap_err();
    assert_eq!((e.position, e.kind), (Position::Byte(0), LoadErrorKind::NotThisFormat));
    assert!(e.message.contains("not an MRTK input animation"), "{e}");
    let empty = read_recording(b"").unwrap_err();
    assert_eq!(empty.kind, LoadErrorKind::Truncated, "{empty}");
    assert!(empty.message.contains("magic"));
}

#[test]
fn counts_larger_than_the_file_are_refused_where_they_stand() {
    let bytes = small_recording_bytes(RecordingLayout::V1_0);
    // The first curve's key count sits at 16 + 8.
    for count in [i32::MAX, 1_000_000, 10_000, -1, i32::MIN] {
        let mut b = bytes.clone();
        b[24..28].copy_from_slice(&count.to_le_bytes());
        let e = read_recording(&b).unwrap_err();
        let kind = if count < 0 { LoadErrorKind::Malformed } else { LoadErrorKind::Truncated };
        assert_eq!((e.position, e.kind), (Position::Byte(24), kind), "{count}: {e}");
        assert!(e.message.contains("camera position X"), "{e}");
    }
    // The marker count: last bytes are 2 markers.
    let rec = read_recording(&bytes).unwrap().0;
    let markers_at =
        write(&Recording { markers: vec![], layout: RecordingLayout { marker_list: false, ..rec.layout }, ..rec })
            .unwrap()
            .len();
    let mut b = bytes.clone();
    b[markers_at..markers_at + 4].copy_from_slice(&0x7fff_0000i32.to_le_bytes());
    let e = read_recording(&b).unwrap_err();
    assert_eq!((e.position, e.kind), (Position::Byte(markers_at as u64), LoadErrorKind::Truncated));
    assert!(e.message.contains("marker"), "{e}");
}

#[test]
fn random_byte_flips_give_positioned_errors_or_faithful_recordings() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    for layout in [
        RecordingLayout::V1_0,
        RecordingLayout::V1_1,
        RecordingLayout { key_layout: KeyLayout::Full, ..RecordingLayout::V1_1 },
    ] {
        let bytes = small_recording_bytes(layout);
        let (mut ok, mut failed) = (0, 0);
        for _ in 0..1500 {
            let mut b = bytes.clone();
            for _ in 0..=rng.below(3) {
                let i = rng.below(b.len() as u64) as usize;
                b[i] ^= 1 << rng.below(8);
                if rng.below(4) == 0 {
                    b[i] = rng.next() as u8;
                }
            }
            match read_recording(&b) {
                Ok((rec, warnings)) => {
                    ok += 1;
                    if warnings.is_empty() {
                        assert_eq!(write(&rec).unwrap(), b, "a file loaded without warnings must write back the same");
                    }
                }
                Err(e) => {
                    failed += 1;
                    assert!(matches!(e.position, Position::Byte(at) if at <= b.len() as u64), "{e}");
                }
            }
        }
        assert!(ok > 0 && failed > 0, "{layout:?}: {ok} loaded, {failed} refused");
    }
}

#[test]
fn oddities_are_warnings_with_positions() {
    let s = Streams { camera: true, hands: false, gaze: false, markers: true };
    let rec = recording(21, RecordingLayout::V1_1, &s, 3);
    let mut b = write(&rec).unwrap();
    b[16] = 7; // "has camera pose" flag
    b[20] = 3; // camera position X pre-wrap: not a Unity wrap mode
    b.extend([0xde, 0xad]);
    let (back, warnings) = read_recording(&b).unwrap();
    assert!(back.camera.is_some());
    let text: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    assert!(text.iter().any(|w| w.starts_with("byte 16") && w.contains("neither 0 nor 1")), "{text:?}");
    assert!(text.iter().any(|w| w.starts_with("byte 19") && w.contains("wrap mode")), "{text:?}");
    assert!(text.iter().any(|w| w.contains("2 byte(s) after the marker list")), "{text:?}");
}

#[test]
fn demo_recording_is_written_loaded_and_evaluates_the_same() {
    let rec = bonescope::scene::samples::demo_recording::demo_recording();
    let bytes = write(&rec).unwrap();
    assert!(bytes.len() < 1 << 20, "{} bytes", bytes.len());
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("demo_recording.bin");
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(detect_format(&bytes, None), Some(Format::Mrtk));
    let asset = load_path(&path, &LoadOptions::default()).unwrap();
    assert_eq!(asset.format, Some(Format::Mrtk));
    assert!(asset.warnings.is_empty(), "{:?}", asset.warnings);
    assert!(asset.axes.mirrors());
    let back = &asset.recordings[0];
    assert_eq!(back, &Recording { name: String::new(), ..rec.clone() });
    assert_eq!(back.duration, 4.0);
    let mut a = RecordingPose::default();
    for i in 0..=48 {
        let t = i as f32 / 12.0;
        bonescope::anim::recording::evaluate(back, t, &mut a);
        let b = RecordingPose::at(&rec, t);
        assert_eq!(a.left, b.left);
        assert_eq!(a.right, b.right);
        assert_eq!(a.gaze, b.gaze);
        assert_eq!(a.camera, b.camera);
    }
}

#[test]
fn checked_in_demo_asset_matches_the_generator() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo_recording.bin");
    let asset = load_path(&path, &LoadOptions::default()).unwrap();
    let rec = &asset.recordings[0];
    let demo = bonescope::scene::samples::demo_recording::demo_recording();
    assert_eq!(rec.layout, RecordingLayout::V1_1);
    assert_eq!(rec.markers, demo.markers);
    assert_eq!(rec.duration, demo.duration);
    // Within float noise of the generator (sin/cos may differ in the last bits between platforms); regenerate
    // with `cargo run --example make_recording --no-default-features` when the demo changes.
    for (a, b) in rec.float_curves().zip(demo.float_curves()) {
        assert_eq!(a.keys.len(), b.keys.len());
        for (ka, kb) in a.keys.iter().zip(&b.keys) {
            assert!((ka.time - kb.time).abs() < 1e-6 && (ka.value - kb.value).abs() < 1e-5);
        }
    }
}
