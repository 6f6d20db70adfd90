//! Properties of MRTK recordings over arbitrary data: any bit patterns in keys, wrap modes and weighted modes
//! (NaN payloads included) survive write → read → write unchanged, and curve evaluation never panics, whatever
//! the keys.

use bonescope::anim::unity_curve::{evaluate, evaluate_bool};
use bonescope::io::mrtk::read_recording;
use bonescope::io::mrtk_write::write;
use bonescope::scene::{
    BoolCurve, BoolKey, FloatCurve, KeyLayout, Keyframe, Marker, PoseCurves, RayCurves, Recording, RecordingLayout,
    WrapMode,
};
use proptest::prelude::*;

fn any_f32() -> impl Strategy<Value = f32> {
    prop_oneof![any::<u32>().prop_map(f32::from_bits), -10.0f32..10.0, Just(f32::INFINITY), Just(f32::NAN)]
}

fn keyframe() -> impl Strategy<Value = Keyframe> {
    (any_f32(), any_f32(), any_f32(), any_f32(), any_f32(), any_f32(), any::<i32>()).prop_map(
        |(time, value, in_tangent, out_tangent, in_weight, out_weight, weighted_mode)| Keyframe {
            time,
            value,
            in_tangent,
            out_tangent,
            in_weight,
            out_weight,
            weighted_mode,
        },
    )
}

fn float_curve() -> impl Strategy<Value = FloatCurve> {
    (any::<i32>(), any::<i32>(), prop::collection::vec(keyframe(), 0..6)).prop_map(|(pre, post, keys)| FloatCurve {
        pre_wrap: WrapMode::from_raw(pre),
        post_wrap: WrapMode::from_raw(post),
        keys,
    })
}

fn bool_curve() -> impl Strategy<Value = BoolCurve> {
    (any::<i32>(), any::<i32>(), prop::collection::vec((any_f32(), any_f32()), 0..5)).prop_map(|(pre, post, keys)| {
        BoolCurve {
            pre_wrap: WrapMode::from_raw(pre),
            post_wrap: WrapMode::from_raw(post),
            keys: keys.into_iter().map(|(time, value)| BoolKey { time, value }).collect(),
        }
    })
}

fn pose() -> impl Strategy<Value = PoseCurves> {
    prop::collection::vec(float_curve(), 7).prop_map(|v| {
        let mut p = PoseCurves::default();
        for (dst, src) in p.curves_mut().zip(v) {
            *dst = src;
        }
        p
    })
}

fn recording() -> impl Strategy<Value = Recording> {
    (
        prop::option::of(pose()),
        prop::option::of((prop::collection::vec(bool_curve(), 4), pose(), pose())),
        prop::option::of(prop::collection::vec(float_curve(), 6)),
        prop::collection::vec((any_f32(), ".{0,40}"), 0..4),
        any::<bool>(),
    )
        .prop_map(|(camera, hands, gaze, markers, marker_list)| {
            let hands = hands.map(|(bools, a, b)| {
                let mut h: [bonescope::scene::HandCurves; 2] = Default::default();
                let [lt, rt, lp, rp]: [BoolCurve; 4] = bools.try_into().unwrap();
                (h[0].tracked, h[1].tracked, h[0].pinch, h[1].pinch) = (lt, rt, lp, rp);
                // Two joints per hand with arbitrary curves is enough to exercise every field.
                h[0].joints[1] = a.clone();
                h[1].joints[26] = b;
                h[0].joints[11] = a;
                h
            });
            let gaze = gaze.map(|v| {
                let mut g = RayCurves::default();
                for (dst, src) in g.curves_mut().zip(v) {
                    *dst = src;
                }
                g
            });
            Recording {
                name: String::new(),
                layout: RecordingLayout { key_layout: KeyLayout::Full, marker_list, ..RecordingLayout::V1_1 },
                camera,
                hands,
                gaze,
                markers: markers.into_iter().map(|(time, name)| Marker { time, name }).collect(),
                duration: 0.0,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_recordings_write_read_write_the_same_bytes(rec in recording()) {
        let bytes = write(&rec).unwrap();
        let (back, _warnings) = read_recording(&bytes).unwrap();
        prop_assert_eq!(write(&back).unwrap(), bytes);
        prop_assert_eq!(back.markers.len(), rec.markers.len());
    }

    #[test]
    fn evaluation_never_panics(curve in float_curve(), bools in bool_curve(), t in any_f32()) {
        let _ = evaluate(&curve, t);
        let mut hint = 0;
        let _ = evaluate_bool(&bools, t, &mut hint);
    }

    #[test]
    fn sorted_linear_curves_stay_within_their_key_values(
        mut points in prop::collection::vec((0.0f32..10.0, -5.0f32..5.0), 2..10),
        t in -5.0f32..15.0,
    ) {
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        let curve = FloatCurve::new(points.iter().map(|&(t, v)| Keyframe::linear(t, v)).collect());
        let v = evaluate(&curve, t);
        let lo = points.iter().map(|p| p.1).fold(f32::INFINITY, f32::min);
        let hi = points.iter().map(|p| p.1).fold(f32::NEG_INFINITY, f32::max);
        prop_assert!(v >= lo - 1e-4 && v <= hi + 1e-4, "{} outside [{}, {}]", v, lo, hi);
    }
}
