//! GPU tests of the renderer (run on lavapipe where there is no GPU): compute skinning against the CPU
//! reference, golden images of the demo character, the `render` command's PNG/GIF output, winding and culling,
//! the stretch view and instancing. Without an adapter they are skipped with a message, except under CI, where
//! that is a failure.

mod common;

use common::gpu;

use std::path::{Path, PathBuf};

use glam::{Mat4, Quat, Vec3};
use image::RgbaImage;

use bonescope::anim::{Pose, skin_mesh};
use bonescope::render::headless::{BACKGROUND, Framing, Scene};
use bonescope::render::skinned::stretch_ratios_cpu;
use bonescope::render::{
    BoneStyle, ComputeSkinner, OFFSCREEN_FORMAT, OffscreenTarget, Renderer, ShadingMode, SkeletonStyle,
};
use bonescope::scene::samples::demo::demo_asset;
use bonescope::scene::{Asset, AxisConversion, Material, Mesh, TextureRef};

fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("render-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

// ---------------------------------------------------------------- compute skinning vs the CPU reference

/// Largest relative difference between GPU and CPU skinning: positions relative to their magnitude (with a
/// floor of 1% of the model's size so points near the origin do not divide by ~0), normals absolute (unit).
fn compare_skinning(mesh: &Mesh, palette: &[Mat4]) -> (f32, f32, f32) {
    let ctx = gpu().unwrap();
    let skinner = ComputeSkinner::new(&ctx.device, &ctx.queue);
    let (gpu_p, gpu_n) = skinner.skin(mesh, palette).unwrap();
    let (mut cpu_p, mut cpu_n) = (Vec::new(), Vec::new());
    skin_mesh(mesh, palette, &mut cpu_p, &mut cpu_n);
    assert_eq!(gpu_p.len(), mesh.positions.len());
    let extent = cpu_p.iter().fold(0f32, |m, p| m.max(p.abs().max_element()));
    let floor = (extent * 0.01).max(1e-6);
    let mut worst_p = 0f32;
    let mut worst_n = 0f32;
    let mut moved = 0f32;
    for i in 0..cpu_p.len() {
        worst_p = worst_p.max((gpu_p[i] - cpu_p[i]).length() / cpu_p[i].length().max(floor));
        worst_n = worst_n.max((gpu_n[i] - cpu_n[i]).length());
        moved = moved.max((cpu_p[i] - mesh.positions[i]).length() / extent.max(1e-6));
    }
    (worst_p, worst_n, moved)
}

#[test]
fn gpu_skinning_matches_cpu_for_the_demo_mid_clip() {
    if gpu().is_none() {
        return;
    }
    let asset = demo_asset();
    for (clip, time) in [("Curl", 0.75), ("Sway", 0.6)] {
        let pose = Pose::from_clip(&asset.skeleton, asset.clip(clip).unwrap(), time);
        let (p, n, moved) = compare_skinning(&asset.meshes[0], &pose.palette);
        // The pose really deforms the mesh (so the comparison is not bind pose against bind pose).
        eprintln!(
            "{clip} at {time} s: GPU vs CPU position {p:.2e} relative, normal {n:.2e}; moved {moved:.3} of the size"
        );
        assert!(moved > 0.02, "{clip}: the pose moves vertices by only {moved} of the size");
        assert!(p <= 1e-4, "{clip}: positions differ by {p} relative");
        assert!(n <= 1e-4, "{clip}: normals differ by {n}");
    }
}

#[test]
fn gpu_stretch_ratios_match_cpu_and_show_the_curl() {
    let Some(ctx) = gpu() else { return };
    let asset = demo_asset();
    let mesh = &asset.meshes[0];
    let skinner = ComputeSkinner::new(&ctx.device, &ctx.queue);
    let bind = Pose::bind(&asset.skeleton);
    let at_bind = skinner.stretch(mesh, &bind.palette).unwrap();
    assert!(at_bind.iter().all(|r| (r - 1.0).abs() < 1e-5), "bind pose must not stretch");
    let pose = Pose::from_clip(&asset.skeleton, asset.clip("Curl").unwrap(), 0.75);
    let gpu_ratios = skinner.stretch(mesh, &pose.palette).unwrap();
    let cpu_ratios = stretch_ratios_cpu(mesh, &pose.palette);
    let worst = gpu_ratios.iter().zip(&cpu_ratios).fold(0f32, |m, (g, c)| m.max((g - c).abs() / c));
    let (lo, hi) = cpu_ratios.iter().fold((f32::MAX, f32::MIN), |(lo, hi), r| (lo.min(*r), hi.max(*r)));
    eprintln!("Curl at 0.75 s: edge ratios {lo:.3}..{hi:.3}, GPU vs CPU {worst:.2e} relative");
    assert!(worst <= 1e-4, "GPU and CPU edge ratios differ by {worst}");
    // Bending compresses the inside of each joint and stretches the outside.
    assert!(lo < 0.97 && hi > 1.03, "ratios {lo}..{hi}");
}

/// A pose for models without a clip: every bone turned a little, so the palette is far from identity.
fn synthetic_pose(asset: &Asset) -> Pose {
    let mut pose = Pose::bind(&asset.skeleton);
    for (i, local) in pose.local.iter_mut().enumerate() {
        local.rotation = Quat::from_euler(glam::EulerRot::XYZ, 0.3, 0.2 * i as f32, -0.25) * local.rotation;
        local.translation += Vec3::new(0.1, 0.0, -0.05) * local.translation.length().max(1.0);
    }
    pose.update(&asset.skeleton);
    pose
}

fn corpus_skinning(relative: &[&str]) {
    if gpu().is_none() {
        return;
    }
    let Some(paths) = relative.iter().map(|r| common::corpus_file(r)).collect::<Option<Vec<_>>>() else { return };
    let (asset, _) = bonescope::source::load_files(&paths, &Default::default())
        .into_result()
        .unwrap_or_else(|e| panic!("{} does not load: {e}", relative.join(" + ")));
    let pose = match asset.clips.first() {
        Some(clip) => Pose::from_clip(&asset.skeleton, clip, clip.duration * 0.5),
        None => synthetic_pose(&asset),
    };
    assert!(!asset.meshes.is_empty());
    for mesh in &asset.meshes {
        let (p, n, _) = compare_skinning(mesh, &pose.palette);
        assert!(p <= 1e-4, "{}: positions differ by {p} relative", mesh.name);
        assert!(n <= 1e-4, "{}: normals differ by {n}", mesh.name);
    }
}

#[test]
fn gpu_skinning_matches_cpu_for_corpus_wuson() {
    corpus_skinning(&["smd/WusonSMD.smd"]);
}

#[test]
fn gpu_skinning_matches_cpu_for_corpus_examplemesh_with_pendulum() {
    corpus_skinning(&["psk/examplemesh.psk", "psa/pendulum.psa"]);
}

#[test]
fn gpu_skinning_skips_bones_outside_the_palette_like_the_cpu() {
    if gpu().is_none() {
        return;
    }
    let mut asset = demo_asset();
    // Point some influences past the palette: both skinners must ignore them.
    for (i, j) in asset.meshes[0].joints.iter_mut().enumerate().step_by(7) {
        j[1] = 40 + (i % 3) as u16;
    }
    let pose = Pose::from_clip(&asset.skeleton, asset.clip("Curl").unwrap(), 0.5);
    let (p, n, _) = compare_skinning(&asset.meshes[0], &pose.palette);
    assert!(p <= 1e-4 && n <= 1e-4, "{p} {n}");
}

// ---------------------------------------------------------------- golden images

const GOLDEN_SIZE: (u32, u32) = (256, 256);

/// Mean absolute channel difference (0–255) and the 99th percentile of the per-pixel largest channel difference.
fn image_difference(a: &RgbaImage, b: &RgbaImage) -> (f64, u8) {
    assert_eq!(a.dimensions(), b.dimensions());
    let mut sum = 0u64;
    let mut per_pixel: Vec<u8> = Vec::with_capacity((a.width() * a.height()) as usize);
    for (pa, pb) in a.pixels().zip(b.pixels()) {
        let mut worst = 0u8;
        for c in 0..3 {
            let d = pa.0[c].abs_diff(pb.0[c]);
            sum += u64::from(d);
            worst = worst.max(d);
        }
        per_pixel.push(worst);
    }
    per_pixel.sort_unstable();
    let p99 = per_pixel[(per_pixel.len() - 1) * 99 / 100];
    (sum as f64 / (per_pixel.len() * 3) as f64, p99)
}

/// Compares with `tests/golden/<name>.png`, or writes it when BONESCOPE_UPDATE_GOLDEN=1.
fn check_golden(name: &str, image: &RgbaImage) {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(format!("{name}.png"));
    if std::env::var("BONESCOPE_UPDATE_GOLDEN").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
        image.save(&golden).unwrap();
        eprintln!("updated {}", golden.display());
        return;
    }
    let expected = match image::open(&golden) {
        Ok(i) => i.to_rgba8(),
        Err(e) => panic!("{}: {e}; run with BONESCOPE_UPDATE_GOLDEN=1 to create it", golden.display()),
    };
    let (mean, p99) = image_difference(image, &expected);
    let actual_path = out_dir().join(format!("{name}.actual.png"));
    if mean > 1.5 || p99 > 48 {
        image.save(&actual_path).unwrap();
        panic!(
            "{name}: differs from the golden image (mean {mean:.2}, 99th percentile {p99}; limits 1.5 and 48); \
             this render is at {}",
            actual_path.display()
        );
    }
}

/// The demo at 256×256 from a fixed camera (framed on the whole Curl clip so bind and mid-clip frames line up).
fn render_demo(mode: ShadingMode, time: Option<f32>, skeleton: Option<BoneStyle>, wireframe: bool) -> RgbaImage {
    render_demo_with(mode, time, skeleton, wireframe, true)
}

fn render_demo_with(
    mode: ShadingMode,
    time: Option<f32>,
    skeleton: Option<BoneStyle>,
    wireframe: bool,
    floor: bool,
) -> RgbaImage {
    let ctx = gpu().unwrap();
    let samples = ctx.msaa_samples(OFFSCREEN_FORMAT);
    let mut renderer = Renderer::new(&ctx.device, &ctx.queue, OFFSCREEN_FORMAT, samples);
    let target = OffscreenTarget::new(&ctx.device, GOLDEN_SIZE.0, GOLDEN_SIZE.1, samples);
    let asset = demo_asset();
    let framing = Scene::new(&mut renderer, &asset, Some("Curl"), 1, Framing::WholeClip, GOLDEN_SIZE).unwrap();
    let mut scene = Scene::new(&mut renderer, &asset, time.map(|_| "Curl"), 1, Framing::At(0.0), GOLDEN_SIZE).unwrap();
    scene.bounds = framing.bounds;
    // From the front right, where the curl (about X) shows in profile.
    scene.reframe(55.0, 12.0);
    scene.frame.shading = mode;
    scene.frame.wireframe = wireframe;
    scene.frame.selected_bone = Some(3);
    scene.skeleton = skeleton.map(|bones| SkeletonStyle { bones, ..SkeletonStyle::default() });
    scene.floor = floor;
    scene.build(time.unwrap_or(0.0));
    target.render_image(&mut renderer, &scene.frame, BACKGROUND).unwrap()
}

#[test]
fn golden_demo_bind_pose_lit_with_octahedral_skeleton() {
    if gpu().is_none() {
        return;
    }
    check_golden("demo_bind_lit", &render_demo(ShadingMode::Textured, None, Some(BoneStyle::Octahedral), false));
}

#[test]
fn golden_demo_bind_pose_dominant_bones_with_line_skeleton() {
    if gpu().is_none() {
        return;
    }
    check_golden("demo_bind_dominant", &render_demo(ShadingMode::DominantBone, None, Some(BoneStyle::Lines), false));
}

#[test]
fn golden_demo_mid_clip_lit_with_octahedral_skeleton() {
    if gpu().is_none() {
        return;
    }
    check_golden("demo_mid_lit", &render_demo(ShadingMode::Textured, Some(0.75), Some(BoneStyle::Octahedral), false));
}

#[test]
fn golden_demo_mid_clip_weights_with_wireframe_and_skeleton() {
    if gpu().is_none() {
        return;
    }
    check_golden("demo_mid_weights", &render_demo(ShadingMode::BoneWeight, Some(0.75), Some(BoneStyle::Lines), true));
}

#[test]
fn golden_demo_mid_clip_stretch() {
    if gpu().is_none() {
        return;
    }
    check_golden("demo_mid_stretch", &render_demo(ShadingMode::Stretch, Some(0.75), None, false));
}

// ---------------------------------------------------------------- image properties

fn is_background(p: &image::Rgba<u8>) -> bool {
    // BACKGROUND in sRGB is about (47, 50, 55); the grid lines are grey. Model pixels are saturated or bright.
    let [r, g, b, _] = p.0;
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    max < 80 || max - min < 12
}

/// Bounding box of the non-background pixels: (min x, min y, max x, max y) and how many there are.
fn coverage(image: &RgbaImage) -> ((u32, u32, u32, u32), usize) {
    let mut b = (u32::MAX, u32::MAX, 0, 0);
    let mut n = 0;
    for (x, y, p) in image.enumerate_pixels() {
        if !is_background(p) {
            b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
            n += 1;
        }
    }
    (b, n)
}

fn count_where(image: &RgbaImage, f: impl Fn([u8; 4]) -> bool) -> usize {
    image.pixels().filter(|p| f(p.0)).count()
}

#[test]
fn stretch_view_is_neutral_at_bind_pose_and_shows_both_signs_when_curled() {
    if gpu().is_none() {
        return;
    }
    let red = |p: [u8; 4]| p[0] > 150 && p[0] as i32 - p[2] as i32 > 40;
    let blue = |p: [u8; 4]| p[2] > 150 && p[2] as i32 - p[0] as i32 > 40;
    // No floor: its X axis line is red.
    let bind = render_demo_with(ShadingMode::Stretch, None, None, false, false);
    assert_eq!(count_where(&bind, red), 0);
    assert_eq!(count_where(&bind, blue), 0);
    let curled = render_demo_with(ShadingMode::Stretch, Some(0.75), None, false, false);
    let (r, b) = (count_where(&curled, red), count_where(&curled, blue));
    assert!(r > 20 && b > 20, "stretched {r} px, compressed {b} px");
}

/// Reverses every triangle (so the file winds clockwise).
fn flip_winding(mesh: &mut Mesh) {
    for t in mesh.indices.chunks_exact_mut(3) {
        t.swap(1, 2);
    }
}

fn render_asset_bind(asset: &Asset, mode: ShadingMode) -> RgbaImage {
    let ctx = gpu().unwrap();
    let mut renderer = Renderer::new(&ctx.device, &ctx.queue, OFFSCREEN_FORMAT, 1);
    let target = OffscreenTarget::new(&ctx.device, 128, 128, 1);
    let reference = demo_asset();
    let framing = Scene::new(&mut renderer, &reference, None, 1, Framing::At(0.0), (128, 128)).unwrap();
    let mut scene = Scene::new(&mut renderer, asset, None, 1, Framing::At(0.0), (128, 128)).unwrap();
    scene.bounds = framing.bounds;
    scene.reframe(30.0, 15.0);
    scene.floor = false;
    scene.frame.shading = mode;
    scene.build(0.0);
    target.render_image(&mut renderer, &scene.frame, BACKGROUND).unwrap()
}

#[test]
fn culling_follows_the_file_winding_and_mirroring_conversions() {
    if gpu().is_none() {
        return;
    }
    let reference = render_asset_bind(&demo_asset(), ShadingMode::Normals);
    // A clockwise file that says so draws the same.
    let mut clockwise = demo_asset();
    flip_winding(&mut clockwise.meshes[0]);
    clockwise.meshes[0].clockwise = true;
    let (mean, _) = image_difference(&render_asset_bind(&clockwise, ShadingMode::Normals), &reference);
    assert!(mean < 0.5, "clockwise file: mean difference {mean}");
    // The same triangles without the flag show their insides (back faces where the front should be).
    clockwise.meshes[0].clockwise = false;
    let (mean, _) = image_difference(&render_asset_bind(&clockwise, ShadingMode::Normals), &reference);
    assert!(mean > 3.0, "wrongly wound file should look different, mean difference {mean}");
    // A mirroring axis conversion flips the on-screen winding; the demo is symmetric under x → −x, so the
    // mirrored model must look the same when culling accounts for it.
    let mut mirrored = demo_asset();
    mirrored.axes = AxisConversion { to_viewer: Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0)), description: "mirror x" };
    assert!(mirrored.axes.mirrors());
    let (mean, _) = image_difference(&render_asset_bind(&mirrored, ShadingMode::Normals), &reference);
    assert!(mean < 1.0, "mirrored: mean difference {mean}");
}

#[test]
fn missing_texture_shows_a_checker_and_warns() {
    let Some(ctx) = gpu() else { return };
    let mut asset = demo_asset();
    asset.materials[1] =
        Material { texture: Some(TextureRef::new("stripes.tga", None)), ..Material::named("textured") };
    let mut renderer = Renderer::new(&ctx.device, &ctx.queue, OFFSCREEN_FORMAT, 1);
    let id = renderer.upload(&asset);
    let info = renderer.model_info(id).unwrap();
    assert_eq!(info.warnings.len(), 1, "{:?}", info.warnings);
    assert!(info.warnings[0].contains("stripes.tga") && info.warnings[0].contains("checker"));
    assert_eq!(info.triangle_count as usize, asset.triangle_count());
    // The checker's magenta-grey replaces the blue stripes.
    let image = render_asset_bind(&asset, ShadingMode::Textured);
    let bluish = count_where(&image, |p| p[2] > 120 && p[2] as i32 - p[0] as i32 > 50);
    let reference = render_asset_bind(&demo_asset(), ShadingMode::Textured);
    let bluish_reference = count_where(&reference, |p| p[2] > 120 && p[2] as i32 - p[0] as i32 > 50);
    assert!(bluish_reference > 200 && bluish * 10 < bluish_reference, "{bluish} vs {bluish_reference}");
}

// ---------------------------------------------------------------- the render command

/// Runs `bonescope render ARGS… -o out` and fails the test with its output when it fails.
fn render_command(out: &Path, args: &[&str]) {
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_bonescope"))
        .arg("render")
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "bonescope render {args:?} failed: {}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
}

/// `render model anim --time T` without `--clip` draws the animation's first clip at T, as the viewer plays it
/// (not the bind pose); a `--time` with no clip to apply it to is a warning.
#[test]
fn render_command_plays_the_bound_animation_without_clip() {
    if gpu().is_none() {
        return;
    }
    let (Some(mesh), Some(anim)) =
        (common::corpus_file("psk/examplemesh.psk"), common::corpus_file("psa/pendulum.psa"))
    else {
        return;
    };
    let (mesh, anim) = (mesh.to_str().unwrap(), anim.to_str().unwrap());
    let dir = out_dir();
    let common_args = ["--size", "160x120", "--no-floor", "--time", "0.3"];
    let render = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let args: Vec<&str> = extra.iter().chain(&common_args).copied().collect();
        render_command(&out, &args);
        image::open(&out).unwrap().to_rgba8()
    };
    let default = render("pendulum_default.png", &[mesh, anim]);
    let named = render("pendulum_named.png", &[mesh, anim, "--clip", "Swinging"]);
    let (mean, _) = image_difference(&default, &named);
    assert!(mean < 0.01, "without --clip the first bound clip plays: mean difference {mean}");
    let still = std::process::Command::new(env!("CARGO_BIN_EXE_bonescope"))
        .args(["render", mesh, "--size", "160x120", "--no-floor", "--time", "0.3", "-o"])
        .arg(dir.join("pendulum_bind.png"))
        .output()
        .unwrap();
    assert!(still.status.success());
    let stderr = String::from_utf8_lossy(&still.stderr);
    assert!(stderr.contains("warning: --time 0.3: the file has no clips"), "{stderr}");
    let bind = image::open(dir.join("pendulum_bind.png")).unwrap().to_rgba8();
    let (mean, _) = image_difference(&default, &bind);
    assert!(mean > 0.5, "the swing at 0.3 s differs from the bind pose: mean difference {mean}");
}

#[test]
fn render_command_writes_a_framed_lit_png_of_the_demo() {
    if gpu().is_none() {
        return;
    }
    let out = out_dir().join("cli_demo.png");
    // The floor's axis lines are saturated colours too; leave it out so every coloured pixel is the model.
    render_command(&out, &["--size", "320x240", "--clip", "Sway", "--time", "0.5", "--skeleton", "--no-floor"]);
    let image = image::open(&out).unwrap().to_rgba8();
    assert_eq!(image.dimensions(), (320, 240));
    let ((x0, y0, x1, y1), n) = coverage(&image);
    // Framed: the character fills most of the height and sits near the middle, inside the image.
    assert!(n > 3000, "only {n} model pixels");
    assert!(y1 - y0 > 240 * 6 / 10, "model spans rows {y0}..{y1}");
    let cx = (x0 + x1) as i32 / 2;
    assert!((cx - 160).abs() < 40, "model centred at column {cx}");
    assert!(x0 > 0 && y0 > 0 && x1 < 319 && y1 < 239, "model touches the border: {x0},{y0} {x1},{y1}");
    // Lit: the orange material spans a range of brightness (light side and shadow side).
    let orange: Vec<u8> =
        image.pixels().filter(|p| p.0[0] > 60 && p.0[0] as i32 - p.0[2] as i32 > 40).map(|p| p.0[0]).collect();
    assert!(orange.len() > 500, "{} orange pixels", orange.len());
    let (lo, hi) = (orange.iter().min().unwrap(), orange.iter().max().unwrap());
    assert!(hi - lo > 80, "orange brightness only spans {lo}..{hi}");
}

#[test]
fn render_command_renders_a_corpus_model() {
    if gpu().is_none() {
        return;
    }
    let Some(mesh) = common::corpus_file("psk/examplemesh.psk") else { return };
    let out = out_dir().join("cli_examplemesh.png");
    render_command(&out, &[mesh.to_str().unwrap(), "--size", "256x256", "--skeleton", "--no-floor"]);
    let image = image::open(&out).unwrap().to_rgba8();
    let ((x0, y0, x1, y1), n) = coverage(&image);
    assert!(n > 1000, "only {n} model pixels");
    assert!((x1 - x0).max(y1 - y0) > 128, "model spans {x0},{y0}..{x1},{y1}");
}

#[test]
fn render_command_writes_an_animated_gif_and_a_png_sequence() {
    if gpu().is_none() {
        return;
    }
    let dir = out_dir();
    let gif = dir.join("cli_curl.gif");
    let seq = dir.join("seq.png");
    let common = ["--size", "96x96", "--clip", "Curl"];
    render_command(&seq, &[&common[..], &["--frames", "5", "--gif", gif.to_str().unwrap()]].concat());
    use image::AnimationDecoder;
    let decoder =
        image::codecs::gif::GifDecoder::new(std::io::BufReader::new(std::fs::File::open(&gif).unwrap())).unwrap();
    let frames = decoder.into_frames().collect_frames().unwrap();
    assert_eq!(frames.len(), 5);
    let (mean, _) = image_difference(frames[0].buffer(), frames[2].buffer());
    assert!(mean > 0.5, "the GIF does not animate (frame 0 vs 2 differ by {mean})");
    // Without --gif, --frames writes numbered PNGs.
    render_command(&seq, &[&common[..], &["--frames", "3"]].concat());
    for k in 0..3 {
        assert!(dir.join(format!("seq_{k:04}.png")).is_file());
    }
}

#[test]
fn grid_instancing_draws_every_copy_with_its_own_pose() {
    let Some(ctx) = gpu() else { return };
    let size = (192, 192);
    let mut renderer = Renderer::new(&ctx.device, &ctx.queue, OFFSCREEN_FORMAT, 1);
    let target = OffscreenTarget::new(&ctx.device, size.0, size.1, 1);
    let asset = demo_asset();
    let mut scene = Scene::new(&mut renderer, &asset, Some("Sway"), 3, Framing::WholeClip, size).unwrap();
    scene.reframe(20.0, 35.0);
    scene.floor = false;
    scene.build(0.3);
    assert_eq!(scene.frame.instances.len(), 9);
    // Each copy has its own palette, and they differ (different time offsets).
    let bones = asset.skeleton.len();
    assert_eq!(scene.frame.palettes.len(), 9 * bones);
    assert_ne!(scene.frame.palettes[5], scene.frame.palettes[5 + bones]);
    let image = target.render_image(&mut renderer, &scene.frame, BACKGROUND).unwrap();
    // Every copy shows up where its placement projects: the stalk's axis a little above its root.
    for (k, (placement, _)) in scene.copies.iter().enumerate() {
        let p = placement.transform_point3(Vec3::new(0.0, 0.3, 0.0));
        let (x, y) = scene.frame.camera.project(p, size.0 as f32, size.1 as f32).unwrap();
        let hit = (-2i32..=2).flat_map(|dx| (-2i32..=2).map(move |dy| (dx, dy))).any(|(dx, dy)| {
            let (px, py) = ((x as i32 + dx).clamp(0, 191) as u32, (y as i32 + dy).clamp(0, 191) as u32);
            !is_background(image.get_pixel(px, py))
        });
        if !hit {
            let path = out_dir().join("grid_failure.png");
            image.save(&path).unwrap();
            panic!("copy {k} missing at ({x:.0}, {y:.0}); see {}", path.display());
        }
    }
}

#[test]
fn corpus_tga_texture_decodes() {
    let Some(path) = common::corpus_file("smd/holygrail.tga") else { return };
    let image = bonescope::render::textures::decode(&bonescope::files::Files::disk(), &path).unwrap();
    assert!(image.width() >= 64 && image.height() >= 64, "{:?}", image.dimensions());
    // A real texture, not a flat fill.
    let first = image.get_pixel(0, 0).0;
    assert!(image.pixels().any(|p| p.0 != first));
}

#[test]
fn render_bench_reports_wall_and_gpu_time_per_frame() {
    let Some(ctx) = gpu() else { return };
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_bonescope"))
        .args(["render", "--size", "64x64", "--grid", "2", "--bench-frames", "5"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{out}{}", String::from_utf8_lossy(&run.stderr));
    assert!(out.contains("4 instance(s)"), "{out}");
    assert!(out.contains("5 frames: median"), "{out}");
    // GPU time from timestamp queries where the adapter has them; a plain statement where it has not.
    let gpu_line = out.lines().find(|l| l.starts_with("GPU time")).unwrap_or_else(|| panic!("{out}"));
    if ctx.adapter.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
        let median: f64 = gpu_line
            .split("median ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{gpu_line}"));
        assert!(median > 0.0 && median < 10_000.0, "{gpu_line}");
    } else {
        assert!(gpu_line.contains("not supported"), "{gpu_line}");
    }
}

// ---------------------------------------------------------------- legends match the viewport

fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

/// How far a rendered pixel is from the nearest legend colour lit by the analysis modes' light (a factor from
/// `ANALYSIS_LIGHT_FLOOR` to 1, applied in linear light), in linear units.
fn distance_to_legend(pixel: [u8; 4], legend: &[[f32; 3]]) -> f32 {
    let p: Vec<f32> = pixel[..3].iter().map(|&c| srgb_to_linear(f32::from(c) / 255.0)).collect();
    legend
        .iter()
        .map(|c| {
            let c: Vec<f32> = c.iter().map(|&x| srgb_to_linear(x)).collect();
            let dot: f32 = p.iter().zip(&c).map(|(a, b)| a * b).sum();
            let norm: f32 = c.iter().map(|b| b * b).sum::<f32>().max(1e-9);
            let f = (dot / norm).clamp(bonescope::render::ramps::ANALYSIS_LIGHT_FLOOR - 0.02, 1.02);
            p.iter().zip(&c).map(|(a, b)| (a - f * b).powi(2)).sum::<f32>().sqrt()
        })
        .fold(f32::INFINITY, f32::min)
}

/// The 95th percentile of the model pixels' distance to the legend, and the brightest model pixel.
fn legend_fit(image: &RgbaImage, legend: &[[f32; 3]]) -> (f32, [u8; 4]) {
    let bg = BACKGROUND.map(|c| (bonescope_linear_to_srgb(c as f32) * 255.0).round() as i32);
    let model: Vec<[u8; 4]> =
        image.pixels().map(|p| p.0).filter(|p| (0..3).any(|k| (i32::from(p[k]) - bg[k]).abs() > 6)).collect();
    assert!(model.len() > 500, "only {} model pixels", model.len());
    let mut d: Vec<f32> = model.iter().map(|p| distance_to_legend(*p, legend)).collect();
    d.sort_by(f32::total_cmp);
    let brightest = *model.iter().max_by_key(|p| p[..3].iter().map(|&c| u32::from(c)).sum::<u32>()).unwrap();
    (d[d.len() * 95 / 100], brightest)
}

fn bonescope_linear_to_srgb(c: f32) -> f32 {
    if c <= 0.003_130_8 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 }
}

/// Each analysis mode draws the colours its legend shows (one definition in `render::ramps` feeds the shader, the
/// painter and the legends): every model pixel is a legend colour under the modes' light, and the surfaces that
/// face the light show it exactly.
#[test]
fn analysis_modes_draw_their_legends_colours() {
    use bonescope::render::ramps;
    if gpu().is_none() {
        return;
    }
    let asset = demo_asset();
    // Stretch at the bind pose: every edge at 1×, the legend's neutral grey.
    let image = render_asset_bind(&asset, ShadingMode::Stretch);
    let (p95, brightest) = legend_fit(&image, &[ramps::STRETCH_NEUTRAL]);
    assert!(p95 < 0.02, "stretch: 95 % of pixels within {p95} of the neutral grey");
    let neutral = (ramps::STRETCH_NEUTRAL[0] * 255.0).round() as i32;
    // The brightest surface faces the light almost head on: nearly the legend's grey, never brighter.
    assert!(
        (neutral - 12..=neutral + 3).contains(&i32::from(brightest[0])),
        "stretch: brightest {brightest:?}, legend {neutral}"
    );
    // Dominant bone: the legend's colour of each bone (the character's own table, which the vertices carry).
    let table = ramps::BoneColors::of(&asset);
    let bones: Vec<[f32; 3]> = (0..asset.skeleton.len()).map(|b| table.get(b)).collect();
    let (p95, _) = legend_fit(&render_asset_bind(&asset, ShadingMode::DominantBone), &bones);
    assert!(p95 < 0.02, "dominant bone: 95 % of pixels within {p95} of a bone's legend colour");
    // Weights: points of the heat ramp.
    let heat: Vec<[f32; 3]> = (0..=256).map(|i| ramps::heat(i as f32 / 256.0)).collect();
    let (p95, _) = legend_fit(&render_asset_bind(&asset, ShadingMode::BoneWeight), &heat);
    assert!(p95 < 0.02, "weights: 95 % of pixels within {p95} of the heat ramp");
    // Morph displacement: a target that moves each vertex in proportion to its height, at weight 1, over the
    // largest displacement: the whole heat ramp from the foot to the tip.
    let mut morphed = asset.clone();
    let mesh = &mut morphed.meshes[0];
    let top = mesh.positions.iter().map(|p| p.y).fold(f32::MIN, f32::max);
    let vertices: Vec<u32> = (0..mesh.positions.len() as u32).collect();
    let deltas: Vec<Vec3> = mesh.positions.iter().map(|p| Vec3::new(0.0, 0.0, 0.5 * p.y / top)).collect();
    mesh.morph_targets.push(bonescope::scene::MorphTarget {
        name: "lean".into(),
        vertices,
        position_deltas: deltas,
        ..Default::default()
    });
    let ctx = gpu().unwrap();
    let mut renderer = Renderer::new(&ctx.device, &ctx.queue, OFFSCREEN_FORMAT, 1);
    let target = OffscreenTarget::new(&ctx.device, 128, 128, 1);
    let mut scene =
        Scene::new_morphed(&mut renderer, &morphed, None, vec![(0, 1.0)], 1, Framing::At(0.0), (128, 128)).unwrap();
    scene.reframe(30.0, 15.0);
    scene.floor = false;
    scene.frame.shading = ShadingMode::MorphDisplacement;
    scene.frame.stretch_range = 0.5;
    scene.build(0.0);
    let image = target.render_image(&mut renderer, &scene.frame, BACKGROUND).unwrap();
    let (p95, _) = legend_fit(&image, &heat);
    assert!(p95 < 0.02, "morph displacement: 95 % of pixels within {p95} of the heat ramp");
    let reds = image.pixels().filter(|p| p[0] > 150 && p[1] < 90 && p[2] < 90).count();
    assert!(reds > 20, "the tip, moved the most, is the ramp's red ({reds} red pixels)");
}
