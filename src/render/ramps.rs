//! The colour ramps of the analysis shading modes, defined once: bone weight (heat), dominant bone (a colour per
//! bone) and stretch. The GPU shader gets them as WGSL generated from these same numbers ([`wgsl`], put in front
//! of `shaders/skinned.wgsl`), and the legends and the egui painter call the Rust functions, so a colour in the
//! viewport is the colour its legend names.
//!
//! Every colour here is sRGB, as a legend shows it; the shader turns it to linear before lighting, so a surface
//! that faces the light is drawn in exactly the legend's colour (the analysis modes are lit by a factor of 0.55
//! to 1: [`ANALYSIS_LIGHT_FLOOR`]).
//!
//! Must not touch: wgpu, egui (plain numbers in, plain numbers out).

use std::fmt::Write as _;

/// Weight exactly 0: a dull blue, set apart from tiny weights.
pub const HEAT_NONE: [f32; 3] = [0.06, 0.08, 0.42];
/// The weight-paint ramp from just above 0 to 1: blue, cyan, green, yellow, red, evenly spaced.
pub const HEAT_STOPS: [[f32; 3]; 5] =
    [[0.10, 0.15, 0.60], [0.00, 0.70, 0.90], [0.10, 0.80, 0.20], [0.95, 0.85, 0.10], [0.90, 0.10, 0.05]];

/// Bone hues are spaced by the golden ratio, from this hue, at this saturation and value.
pub const BONE_HUE_STEP: f32 = 0.618_034;
pub const BONE_HUE_START: f32 = 0.1;
pub const BONE_SATURATION: f32 = 0.7;
pub const BONE_VALUE: f32 = 0.95;

/// Stretch: unchanged edges, edges shorter by the range or more, edges longer by the range or more.
pub const STRETCH_NEUTRAL: [f32; 3] = [0.62, 0.62, 0.62];
pub const STRETCH_SHORTER: [f32; 3] = [0.15, 0.30, 0.95];
pub const STRETCH_LONGER: [f32; 3] = [0.95, 0.15, 0.10];

/// The analysis modes are lit "mostly flat": `colour × (floor + (1 − floor) × max(n·l, 0))`.
pub const ANALYSIS_LIGHT_FLOOR: f32 = 0.55;

/// The heat ramp at weight `w` (clamped to 0..1); exactly 0 is [`HEAT_NONE`].
pub fn heat(w: f32) -> [f32; 3] {
    let w = if w.is_finite() { w.clamp(0.0, 1.0) } else { 0.0 };
    if w <= 0.0 {
        return HEAT_NONE;
    }
    let x = w * (HEAT_STOPS.len() - 1) as f32;
    let i = (x.floor() as usize).min(HEAT_STOPS.len() - 2);
    mix(HEAT_STOPS[i], HEAT_STOPS[i + 1], x - i as f32)
}

/// A distinct colour per bone.
pub fn bone_color(bone: u32) -> [f32; 3] {
    let hue = (bone as f32 * BONE_HUE_STEP + BONE_HUE_START).fract();
    hsv_to_rgb(hue, BONE_SATURATION, BONE_VALUE)
}

/// An edge length ratio (posed ÷ bind) → [`STRETCH_SHORTER`] at `1 − range` or less, [`STRETCH_NEUTRAL`] at 1,
/// [`STRETCH_LONGER`] at `1 + range` or more.
pub fn stretch_color(ratio: f32, range: f32) -> [f32; 3] {
    let t = ((ratio - 1.0) / range.max(1e-6)).clamp(-1.0, 1.0);
    let t = if t.is_finite() { t } else { 0.0 };
    if t < 0.0 { mix(STRETCH_NEUTRAL, STRETCH_SHORTER, -t) } else { mix(STRETCH_NEUTRAL, STRETCH_LONGER, t) }
}

/// The brightness factor the analysis modes give a surface whose normal makes `n_dot_l` with the light.
pub fn analysis_light(n_dot_l: f32) -> f32 {
    ANALYSIS_LIGHT_FLOOR + (1.0 - ANALYSIS_LIGHT_FLOOR) * n_dot_l.max(0.0)
}

/// The same hue → RGB as the shader's `hsv_to_rgb`.
fn hsv_to_rgb(h: f32, s: f32, v: f32) -> [f32; 3] {
    let channel = |offset: f32| {
        let p = (((h + offset).fract()) * 6.0 - 3.0).abs();
        v * (1.0 + ((p - 1.0).clamp(0.0, 1.0) - 1.0) * s)
    };
    [channel(1.0), channel(2.0 / 3.0), channel(1.0 / 3.0)]
}

fn mix(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]
}

/// The WGSL of these ramps, from the same constants: `ramp_heat(w)`, `ramp_bone(bone)`,
/// `ramp_stretch(ratio, range)` (sRGB, as the Rust functions) and `ANALYSIS_LIGHT_FLOOR`.
pub fn wgsl() -> String {
    let v = |c: [f32; 3]| format!("vec3<f32>({:?}, {:?}, {:?})", c[0], c[1], c[2]);
    let mut out = String::from("// Generated from src/render/ramps.rs: the analysis colour ramps, sRGB.\n");
    let stops: Vec<String> = HEAT_STOPS.iter().map(|c| v(*c)).collect();
    let _ = writeln!(out, "const RAMP_HEAT_NONE = {};", v(HEAT_NONE));
    let _ = writeln!(out, "const RAMP_HEAT_STOPS = array<vec3<f32>, {}>({});", HEAT_STOPS.len(), stops.join(", "));
    let _ = writeln!(out, "const ANALYSIS_LIGHT_FLOOR: f32 = {:?};", ANALYSIS_LIGHT_FLOOR);
    let _ = writeln!(
        out,
        "fn ramp_heat(w_in: f32) -> vec3<f32> {{
    let w = clamp(w_in, 0.0, 1.0);
    if (w <= 0.0) {{
        return RAMP_HEAT_NONE;
    }}
    let x = w * {last:?};
    let i = min(u32(floor(x)), {below}u);
    var stops = RAMP_HEAT_STOPS;
    return mix(stops[i], stops[i + 1u], x - f32(i));
}}",
        last = (HEAT_STOPS.len() - 1) as f32,
        below = HEAT_STOPS.len() - 2
    );
    let _ = writeln!(
        out,
        "fn ramp_hsv(h: f32, s: f32, v: f32) -> vec3<f32> {{
    let p = abs(fract(vec3<f32>(h) + vec3<f32>(1.0, 2.0 / 3.0, 1.0 / 3.0)) * 6.0 - 3.0);
    return v * (vec3<f32>(1.0) + (clamp(p - 1.0, vec3<f32>(0.0), vec3<f32>(1.0)) - vec3<f32>(1.0)) * s);
}}
fn ramp_bone(bone: u32) -> vec3<f32> {{
    return ramp_hsv(fract(f32(bone) * {:?} + {:?}), {:?}, {:?});
}}",
        BONE_HUE_STEP, BONE_HUE_START, BONE_SATURATION, BONE_VALUE
    );
    let _ = writeln!(
        out,
        "fn ramp_stretch(ratio: f32, range: f32) -> vec3<f32> {{
    let t = clamp((ratio - 1.0) / max(range, 1e-6), -1.0, 1.0);
    if (t < 0.0) {{
        return mix({n}, {s}, -t);
    }}
    return mix({n}, {l}, t);
}}",
        n = v(STRETCH_NEUTRAL),
        s = v(STRETCH_SHORTER),
        l = v(STRETCH_LONGER)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f32; 3], b: [f32; 3]) -> bool {
        a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-6)
    }

    #[test]
    fn heat_runs_from_its_none_colour_through_its_stops() {
        assert_eq!(heat(0.0), HEAT_NONE);
        assert!(close(heat(1.0), HEAT_STOPS[4]));
        assert!(close(heat(0.5), HEAT_STOPS[2]));
        assert_eq!(heat(f32::NAN), HEAT_NONE);
        let quarter = heat(0.125);
        assert!((quarter[1] - 0.425).abs() < 1e-6, "halfway between the first two stops: {quarter:?}");
    }

    #[test]
    fn stretch_is_neutral_at_one_and_saturates_at_the_range() {
        assert!(close(stretch_color(1.0, 0.25), STRETCH_NEUTRAL));
        assert!(close(stretch_color(1.25, 0.25), STRETCH_LONGER));
        assert!(close(stretch_color(0.5, 0.25), STRETCH_SHORTER));
    }

    #[test]
    fn bone_colours_differ_and_stay_in_range() {
        let colours: Vec<[f32; 3]> = (0..32).map(bone_color).collect();
        for (i, a) in colours.iter().enumerate() {
            assert!(a.iter().all(|c| (0.0..=1.0).contains(c)), "{a:?}");
            for b in &colours[i + 1..i + 2.min(colours.len() - i)] {
                assert!(a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f32>() > 0.1, "{a:?} {b:?}");
            }
        }
        // Hue 0 is red: full value in red, the others at v·(1 − s).
        let red = hsv_to_rgb(0.0, 0.7, 0.95);
        assert!((red[0] - 0.95).abs() < 1e-6 && (red[1] - 0.285).abs() < 1e-6 && (red[2] - 0.285).abs() < 1e-6);
    }

    #[test]
    fn the_generated_wgsl_parses_and_names_the_same_numbers() {
        let source = wgsl();
        let module = naga::front::wgsl::parse_str(&source).unwrap_or_else(|e| panic!("{}\n{source}", e));
        assert!(module.functions.iter().any(|(_, f)| f.name.as_deref() == Some("ramp_heat")));
        assert!(source.contains(&format!("{:?}", HEAT_STOPS[1][2])));
    }
}
