//! The colour ramps of the analysis shading modes, defined once: bone weight (heat), dominant bone (a colour per
//! bone) and stretch. The GPU shader gets the heat and stretch ramps as WGSL generated from these same numbers
//! ([`wgsl`], put in front of `shaders/skinned.wgsl`), and the legends and the egui painter call the Rust
//! functions, so a colour in the viewport is the colour its legend names.
//!
//! Dominant-bone colours are a character's own ([`BoneColors`]): every bone a colour of its own, and bones whose
//! skin meets (or that are parent and child) colours far apart — picked from a palette spread evenly over hue and
//! lightness in a perceptual space (OKLab), neighbours first. The renderer writes each vertex's colour from this
//! table into its vertex (`MeshVertex::bone_color`); the egui painter and the legend read the same table.
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

/// The bone a vertex shows in the dominant-bone mode: its largest weight's (the first of equal ones), as the
/// renderer, the painter and the legend's counts all take it.
pub fn dominant(joints: [u16; 4], weights: [f32; 4]) -> u16 {
    let mut best = 0;
    for i in 1..4 {
        if weights[i] > weights[best] {
            best = i;
        }
    }
    joints[best]
}

/// The range of lightness of the bone palette (OKLab): dark enough to read on white, light enough on black.
const BONE_LIGHTNESS: [f32; 2] = [0.5, 0.9];
/// Chroma of the bone palette (OKLab): vivid, within sRGB for most hues.
const BONE_CHROMA: f32 = 0.13;

/// The fewest colours the bones on screen choose from.
const CHOICES: usize = 16;

/// A character's dominant-bone colours: one sRGB colour per bone.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoneColors {
    pub colors: Vec<[f32; 3]>,
}

impl BoneColors {
    /// Colours for `count` bones where the bone pairs in `neighbours` must be told apart at a glance. Bones
    /// marked in `shown` (those that dominate a vertex: the colours on screen) share out the palette; the others
    /// get colours past it.
    pub fn assign(count: usize, neighbours: &[(usize, usize)], shown: &[bool]) -> Self {
        let on_screen = |b: usize| shown.get(b).copied().unwrap_or(true);
        let visible = (0..count).filter(|&b| on_screen(b)).count();
        // Twice as many colours as bones on screen (at least CHOICES) to choose from, so the ones chosen are the
        // well spread ones; the bones off screen take what is left.
        let choices = (2 * visible).max(CHOICES);
        let palette: Vec<[f32; 3]> = bone_palette(count + choices);
        let visible = choices;
        let lab: Vec<[f32; 3]> = palette.iter().map(|c| srgb_to_oklab(*c)).collect();
        let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); count];
        for &(a, b) in neighbours {
            if a < count && b < count && a != b {
                adjacent[a].push(b);
                adjacent[b].push(a);
            }
        }
        // The bones on screen first, the most connected first: they have the most colours to keep away from.
        let mut order: Vec<usize> = (0..count).collect();
        order.sort_by_key(|&b| (!on_screen(b), std::cmp::Reverse(adjacent[b].len()), b));
        let mut slot: Vec<Option<usize>> = vec![None; count];
        let mut used = vec![false; palette.len()];
        for &bone in &order {
            let taken: Vec<usize> = adjacent[bone].iter().filter_map(|&n| slot[n]).collect();
            // Bones on screen choose among the first `visible` colours, the most spread; the rest after them.
            let range = if on_screen(bone) { 0..visible } else { visible..palette.len() };
            let others: Vec<usize> = (0..palette.len()).filter(|&c| used[c]).collect();
            let pick = range.filter(|&p| !used[p]).max_by(|&p, &q| {
                let nearest = |c: usize, among: &[usize]| {
                    among.iter().map(|&t| distance(lab[c], lab[t])).fold(f32::INFINITY, f32::min)
                };
                // Farthest from the neighbours' colours, and not too near any other bone's (that counts half as
                // much: a legend must tell every bone apart, the skin above all its neighbours); among equals the
                // palette's order.
                let score = |c: usize| nearest(c, &taken).min(2.0 * nearest(c, &others));
                score(p).total_cmp(&score(q)).then(q.cmp(&p))
            });
            if let Some(p) = pick {
                used[p] = true;
                slot[bone] = Some(p);
            }
        }
        Self { colors: slot.into_iter().map(|s| s.and_then(|p| palette.get(p).copied()).unwrap_or([1.0; 3])).collect() }
    }

    /// The colours of `asset`'s bones: bones are neighbours when their skin meets (an edge whose ends have them
    /// as dominant bones) or one is the other's parent.
    pub fn of(asset: &crate::scene::Asset) -> Self {
        let mut pairs: rustc_hash::FxHashSet<(usize, usize)> = rustc_hash::FxHashSet::default();
        for (bone, parent) in asset.skeleton.parents.iter().enumerate() {
            if let Some(p) = parent {
                pairs.insert((bone.min(*p), bone.max(*p)));
            }
        }
        for mesh in &asset.meshes {
            let bone_of = |v: u32| -> Option<usize> {
                let (j, w) = (mesh.joints.get(v as usize)?, mesh.weights.get(v as usize)?);
                Some(usize::from(dominant(*j, *w)))
            };
            for tri in mesh.indices.chunks_exact(3) {
                for (a, b) in [(tri[0], tri[1]), (tri[1], tri[2]), (tri[2], tri[0])] {
                    if let (Some(x), Some(y)) = (bone_of(a), bone_of(b))
                        && x != y
                    {
                        pairs.insert((x.min(y), x.max(y)));
                    }
                }
            }
        }
        let mut pairs: Vec<(usize, usize)> = pairs.into_iter().collect();
        pairs.sort_unstable();
        let mut shown = vec![false; asset.skeleton.len()];
        for mesh in &asset.meshes {
            for (j, w) in mesh.joints.iter().zip(&mesh.weights) {
                if let Some(s) = shown.get_mut(usize::from(dominant(*j, *w))) {
                    *s = true;
                }
            }
        }
        Self::assign(asset.skeleton.len(), &pairs, &shown)
    }

    /// The colour of `bone` (white for a bone the table does not know).
    pub fn get(&self, bone: usize) -> [f32; 3] {
        self.colors.get(bone).copied().unwrap_or([1.0; 3])
    }

    /// The colour as sRGB bytes, for vertices.
    pub fn rgba8(&self, bone: usize) -> [u8; 4] {
        let [r, g, b] = self.get(bone).map(|x| (x.clamp(0.0, 1.0) * 255.0).round() as u8);
        [r, g, b, 255]
    }
}

/// `count` colours spread evenly over hue and lightness in OKLab: any first `n` of them are about as far apart as
/// `n` colours of this chroma can be.
fn bone_palette(count: usize) -> Vec<[f32; 3]> {
    (0..count)
        .map(|i| {
            // Hue and lightness from the plastic-number sequence (R2): any first n points spread evenly over both.
            let hue = (0.5 + i as f32 * 0.754_877_7).fract() * std::f32::consts::TAU;
            let lightness =
                BONE_LIGHTNESS[0] + (BONE_LIGHTNESS[1] - BONE_LIGHTNESS[0]) * (0.5 + i as f32 * 0.569_840_3).fract();
            // The most chroma up to BONE_CHROMA that sRGB can show at this hue and lightness: clipping a colour
            // into the gamut instead would make neighbouring hues alike.
            let (mut lo, mut hi) = (0.0f32, BONE_CHROMA);
            if !in_gamut([lightness, hi * hue.cos(), hi * hue.sin()]) {
                for _ in 0..20 {
                    let mid = 0.5 * (lo + hi);
                    if in_gamut([lightness, mid * hue.cos(), mid * hue.sin()]) { lo = mid } else { hi = mid }
                }
                hi = lo;
            }
            oklab_to_srgb([lightness, hi * hue.cos(), hi * hue.sin()])
        })
        .collect()
}

/// Perceptual distance of two OKLab colours.
pub fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// Whether an OKLab colour is inside the sRGB gamut.
fn in_gamut(lab: [f32; 3]) -> bool {
    oklab_to_linear(lab).iter().all(|c| (-1e-4..=1.0 + 1e-4).contains(c))
}

/// OKLab (Björn Ottosson's, 2020) → linear sRGB, unclamped.
fn oklab_to_linear([l, a, b]: [f32; 3]) -> [f32; 3] {
    let l_ = l + 0.396_337_78 * a + 0.215_803_76 * b;
    let m_ = l - 0.105_561_346 * a - 0.063_854_17 * b;
    let s_ = l - 0.089_484_18 * a - 1.291_485_5 * b;
    let (l3, m3, s3) = (l_.powi(3), m_.powi(3), s_.powi(3));
    [
        4.076_741_7 * l3 - 3.307_711_6 * m3 + 0.230_969_94 * s3,
        -1.268_438 * l3 + 2.609_757_4 * m3 - 0.341_319_38 * s3,
        -0.004_196_086_3 * l3 - 0.703_418_6 * m3 + 1.707_614_7 * s3,
    ]
}

/// OKLab (Björn Ottosson's, 2020) → sRGB, clamped into the gamut.
fn oklab_to_srgb([l, a, b]: [f32; 3]) -> [f32; 3] {
    let l_ = l + 0.396_337_78 * a + 0.215_803_76 * b;
    let m_ = l - 0.105_561_346 * a - 0.063_854_17 * b;
    let s_ = l - 0.089_484_18 * a - 1.291_485_5 * b;
    let (l3, m3, s3) = (l_.powi(3), m_.powi(3), s_.powi(3));
    let linear = [
        4.076_741_7 * l3 - 3.307_711_6 * m3 + 0.230_969_94 * s3,
        -1.268_438 * l3 + 2.609_757_4 * m3 - 0.341_319_38 * s3,
        -0.004_196_086_3 * l3 - 0.703_418_6 * m3 + 1.707_614_7 * s3,
    ];
    linear.map(|c| {
        let c = c.clamp(0.0, 1.0);
        if c <= 0.003_130_8 { 12.92 * c } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 }
    })
}

/// sRGB → OKLab.
pub fn srgb_to_oklab(c: [f32; 3]) -> [f32; 3] {
    let [r, g, b] = c.map(|c| if c <= 0.040_45 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) });
    let l = (0.412_221_46 * r + 0.536_332_55 * g + 0.051_445_995 * b).cbrt();
    let m = (0.211_903_5 * r + 0.680_699_5 * g + 0.107_396_96 * b).cbrt();
    let s = (0.088_302_46 * r + 0.281_718_85 * g + 0.629_978_7 * b).cbrt();
    [
        0.210_454_26 * l + 0.793_617_8 * m - 0.004_072_047 * s,
        1.977_998_5 * l - 2.428_592_2 * m + 0.450_593_7 * s,
        0.025_904_037 * l + 0.782_771_77 * m - 0.808_675_77 * s,
    ]
}

fn mix(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]
}

/// The WGSL of these ramps, from the same constants: `ramp_heat(w)`, `ramp_stretch(ratio, range)` (sRGB, as the
/// Rust functions) and `ANALYSIS_LIGHT_FLOOR`. (Bone colours come with the vertices.)
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
    fn bone_colours_are_all_different_and_neighbours_far_apart() {
        // A 44-bone chain (each bone the neighbour of the next) with side branches: every colour its own, every
        // pair of neighbours clearly apart.
        let mut neighbours: Vec<(usize, usize)> = (1..44).map(|b| (b - 1, b)).collect();
        neighbours.extend((0..40).step_by(4).map(|b| (b, b + 3)));
        let colors = BoneColors::assign(44, &neighbours, &[]);
        assert_eq!(colors.colors.len(), 44);
        let lab: Vec<[f32; 3]> = colors.colors.iter().map(|c| srgb_to_oklab(*c)).collect();
        for (i, a) in colors.colors.iter().enumerate() {
            assert!(a.iter().all(|c| (0.0..=1.0).contains(c)), "{a:?}");
            for (j, b) in lab.iter().enumerate().skip(i + 1) {
                assert!(distance(lab[i], *b) > 0.02, "bones {i} and {j} look alike: {a:?} {:?}", colors.colors[j]);
            }
        }
        let nearest = neighbours.iter().map(|&(a, b)| distance(lab[a], lab[b])).fold(f32::INFINITY, f32::min);
        assert!(nearest > 0.12, "neighbours only {nearest} apart");
        // The dominant bone is the first of equal weights, everywhere.
        assert_eq!(dominant([3, 7, 0, 0], [0.5, 0.5, 0.0, 0.0]), 3);
        assert_eq!(dominant([3, 7, 0, 0], [0.2, 0.8, 0.0, 0.0]), 7);
    }

    #[test]
    fn the_generated_wgsl_parses_and_names_the_same_numbers() {
        let source = wgsl();
        let module = naga::front::wgsl::parse_str(&source).unwrap_or_else(|e| panic!("{}\n{source}", e));
        assert!(module.functions.iter().any(|(_, f)| f.name.as_deref() == Some("ramp_heat")));
        assert!(source.contains(&format!("{:?}", HEAT_STOPS[1][2])));
    }
}
