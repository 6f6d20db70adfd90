//! `bonescope render FILE… [--clip NAME] [--time T] [--size WxH] [--mode …] [--skeleton] [-o out.png]`, plus
//! `--frames N` (PNG sequence), `--gif out.gif` (animated GIF), `--grid N` (N×N instances with staggered times),
//! `--bench-frames N` (median frame time) and `--morph NAME=WEIGHT` (morph targets at fixed weights, drawn by
//! the GPU morph pass), `--skin`, `--body`, `--controller`, `--blend` (a GoldSrc model's controls). Loads the files, sets up a `render::headless::Scene` on a headless GPU context, and
//! writes what it draws.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use image::RgbaImage;

use bonescope::AppError;
use bonescope::anim::MorphLayout;
use bonescope::anim::diagnostics::{DiagnoseOptions, Finding, diagnose};
use bonescope::render::headless::{BACKGROUND, Framing, Scene, time_frames};
use bonescope::render::posed::heaviest_bone;
use bonescope::render::{
    BoneStyle, GpuContext, OFFSCREEN_FORMAT, OffscreenTarget, Renderer, ShadingMode, SkeletonStyle,
};
use bonescope::scene::Asset;
use bonescope::scene::samples::Sample;
use bonescope::source::Source;

#[derive(clap::Args, Debug, Clone)]
pub struct RenderArgs {
    /// The model, then animation files to bind to it by bone name (`@demo`: the built-in demo, also used when
    /// none is given).
    pub files: Vec<PathBuf>,
    /// Clip to play (name, case-insensitive). Without it: the first clip of the animation files given after the
    /// model, or with `--time`, `--frames`, `--gif`, `--grid` and `--bench-frames` the first clip there is; else
    /// the bind pose.
    #[arg(long)]
    pub clip: Option<String>,
    /// Time in seconds within the clip (clamped to its keys); 0 when not given.
    #[arg(long)]
    pub time: Option<f32>,
    /// Image size in pixels.
    #[arg(long, default_value = "800x600", value_parser = |s: &str| bonescope::args::parse_size(s, 1))]
    pub size: (u32, u32),
    /// ShadingMode.
    #[arg(long, value_enum, default_value_t = ShadingMode::Textured)]
    pub mode: ShadingMode,
    /// Bone for `--mode weights` (name or index); the bone with the most weight when absent.
    #[arg(long)]
    pub bone: Option<String>,
    /// Draw the skeleton over the model.
    #[arg(long)]
    pub skeleton: bool,
    /// Draw the skeleton as lines instead of octahedral bones.
    #[arg(long)]
    pub bone_lines: bool,
    /// Draw each bone's axes (with --skeleton).
    #[arg(long)]
    pub axes: bool,
    /// Draw triangle edges over the surfaces.
    #[arg(long)]
    pub wireframe: bool,
    /// Leave out the ground grid.
    #[arg(long)]
    pub no_floor: bool,
    /// Show back faces too (for files whose winding is wrong).
    #[arg(long)]
    pub no_cull: bool,
    /// Render without multisampling.
    #[arg(long)]
    pub no_msaa: bool,
    /// Camera angle around the vertical axis, degrees, from the character's front (0: the face, as the viewer's
    /// Front view; the front is the one its bones' side names give, +Z of the viewer frame without them).
    #[arg(long, default_value_t = 30.0, allow_hyphen_values = true)]
    pub yaw: f32,
    /// Camera angle above the horizon, degrees.
    #[arg(long, default_value_t = 15.0, allow_hyphen_values = true)]
    pub pitch: f32,
    /// Output image (PNG); with --frames, the name of the sequence (out.png → out_0000.png, …).
    #[arg(short = 'o', long, default_value = "render.png")]
    pub output: PathBuf,
    /// Show the N-th finding of the rig checks (1: the worst, as `info --check` lists them): its clip at its
    /// worst moment (unless --clip or --time say otherwise), what it is about ringed in red, the camera on it.
    #[arg(long, value_name = "N")]
    pub finding: Option<usize>,
    /// Render the clip as N frames spread over its length (a PNG sequence, or the GIF's frames).
    #[arg(long)]
    pub frames: Option<u32>,
    /// Write the clip as an animated GIF.
    #[arg(long)]
    pub gif: Option<PathBuf>,
    /// Draw N×N copies of the model, each with its own time offset and palette (stress test).
    #[arg(long)]
    pub grid: Option<u32>,
    /// Render N frames without writing images and print the median frame time.
    #[arg(long)]
    pub bench_frames: Option<u32>,
    #[command(flatten)]
    pub load: super::LoadArgs,
    /// Morph targets drawn at fixed weights (by the GPU morph pass), over what the clip drives.
    #[command(flatten)]
    pub morph: super::morph_args::MorphArgs,
    /// Skin family, body groups, bone controllers and blend parameters (compiled GoldSrc models, QCs).
    #[command(flatten)]
    pub studio: super::studio_args::StudioArgs,
}

/// The `render` command.
pub fn run(args: &RenderArgs) -> Result<(), AppError> {
    let sources =
        if args.files.is_empty() { vec![Source::Sample(Sample::Demo)] } else { Source::from_args(&args.files) };
    let opts = args.load.options();
    let opened = super::Opened::sources(&sources, &opts)?;
    let asset = &opened.asset;
    for w in &asset.warnings {
        eprintln!("warning: {w}");
    }
    eprintln!("rendering {}", opened.summary());
    let animated = args.frames.is_some() || args.gif.is_some() || args.bench_frames.is_some() || args.grid.is_some();
    let finding = match args.finding {
        Some(n) => Some(nth_finding(asset, n)?),
        None => None,
    };
    let finding_clip =
        finding.as_ref().and_then(|f| f.at).and_then(|at| asset.clips.get(at.clip)).map(|c| c.name.clone());
    let clip = match (&finding_clip, &args.clip) {
        (Some(name), None) => Some(name.clone()),
        _ => opened.clip_to_play(args.clip.as_deref(), animated || args.time.is_some()),
    };
    if clip.is_none() && args.grid.is_none() {
        if let Some(t) = args.time {
            eprintln!("warning: --time {t}: the file has no clips to play; rendering the bind pose");
        } else if animated {
            eprintln!("note: the file has no clips; rendering the bind pose");
        }
    }
    let time = args.time.or(finding.as_ref().and_then(|f| f.at).map(|at| at.time)).unwrap_or(0.0);

    let ctx = GpuContext::headless()?;
    let samples = if args.no_msaa { 1 } else { ctx.msaa_samples(OFFSCREEN_FORMAT) };
    let mut renderer = Renderer::new(&ctx.device, &ctx.queue, OFFSCREEN_FORMAT, samples);
    let (w, h) = args.size;
    let target = OffscreenTarget::new(&ctx.device, w, h, samples);
    let framing = if animated { Framing::WholeClip } else { Framing::At(time) };
    let morphs = args.morph.resolve(asset, &MorphLayout::of_meshes(&asset.meshes))?;
    let grid = args.grid.unwrap_or(1);
    let studio = args.studio.resolve(asset, clip.as_deref().and_then(|c| asset.clip(c)))?;
    let mut scene = Scene::new_morphed(&mut renderer, asset, clip.as_deref(), morphs, grid, framing, args.size)?;
    scene.posed.set_adjustments(studio.adjustments);
    if let Some(parameters) = studio.blend {
        scene.posed.set_blend_parameters(parameters);
    }
    if !studio.bodies.is_empty() {
        let mut choices = Vec::new();
        for (group, choice) in studio.bodies {
            if choices.len() <= group {
                choices.resize(group + 1, 0);
            }
            choices[group] = choice;
        }
        scene.posed.hidden_meshes = asset.hidden_meshes(&choices, &[]);
        scene.frame.hidden_meshes.clone_from(&scene.posed.hidden_meshes);
    }
    scene.frame.material_remap = studio.material_remap;
    if let Some(info) = renderer.model_info(scene.model) {
        for w in &info.warnings {
            eprintln!("warning: {w}");
        }
    }
    // The yaw is measured from the character's front, as the viewer's Front view is.
    let front = bonescope::anim::facing::front_direction(asset).map_or(0.0, bonescope::anim::facing::yaw_facing);
    scene.reframe(args.yaw + front.to_degrees(), args.pitch);
    scene.floor = !args.no_floor;
    if args.skeleton {
        let radius = scene.bounds.radius() / args.grid.unwrap_or(1).max(1) as f32;
        scene.skeleton = Some(SkeletonStyle {
            bones: if args.bone_lines { BoneStyle::Lines } else { BoneStyle::Octahedral },
            axis_length: if args.axes { radius * 0.08 } else { 0.0 },
            ..SkeletonStyle::default()
        });
    }
    scene.frame.shading = args.mode;
    scene.frame.wireframe = args.wireframe;
    scene.frame.cull_back_faces = !args.no_cull;
    scene.frame.selected_bone = match &args.bone {
        Some(b) => Some(find_bone(asset, b)?),
        None => heaviest_bone(asset),
    };

    if let Some(n) = args.bench_frames {
        return bench(&ctx, &mut renderer, &target, &mut scene, n, time);
    }
    let duration = scene.posed.duration();
    if args.gif.is_some() || args.frames.is_some() {
        let count = args.frames.unwrap_or_else(|| default_frame_count(&scene)).max(1);
        let times: Vec<f32> = (0..count).map(|k| time + duration * k as f32 / count as f32).collect();
        let mut images = Vec::with_capacity(times.len());
        for &t in &times {
            scene.build(t);
            images.push(target.render_image(&mut renderer, &scene.frame, BACKGROUND)?);
        }
        if let Some(gif) = &args.gif {
            let delay_ms = if duration > 0.0 { duration * 1000.0 / count as f32 } else { 100.0 };
            write_gif(gif, &images, delay_ms)?;
            println!("wrote {} ({count} frames, {w}x{h})", gif.display());
        } else {
            for (k, image) in images.iter().enumerate() {
                let path = sequence_path(&args.output, k);
                save_png(&path, image)?;
            }
            println!(
                "wrote {count} frames: {} … {}",
                sequence_path(&args.output, 0).display(),
                sequence_path(&args.output, count as usize - 1).display()
            );
        }
        return opened.finish();
    }
    scene.build(time);
    if let Some(f) = &finding {
        // The camera on what the finding is about, with what is around it, and the place ringed.
        let points = super::marks::points(&scene, asset, Some(f.subject), f.edge);
        // The character's own size (its bind pose), not the posed box a flung piece stretches far out.
        let bind = bonescope::scene::Bounds::from_points(
            asset.meshes.iter().flat_map(|m| &m.positions).map(|p| asset.axes.to_viewer.transform_point3(*p)),
        );
        let character = if bind.is_empty() { scene.bounds.radius() } else { bind.radius() }.max(1e-3);
        // Skin flung far off: the place it leaves, the red line running out of the picture after it.
        let near =
            points.iter().copied().min_by(|a, b| a.distance(bind.center()).total_cmp(&b.distance(bind.center())));
        let spread = bonescope::scene::Bounds::from_points(points.iter().copied()).radius();
        let framed = if spread > character { near.into_iter().collect::<Vec<_>>() } else { points.clone() };
        // A piece flung whole (one vertex marked): it and the body it left.
        let flung = f.kind == bonescope::anim::diagnostics::FindingKind::VertexFlies && points.len() == 1;
        let region = if flung {
            points.first().map(|p| {
                let mut b = bind;
                b.add(*p);
                b
            })
        } else {
            super::marks::around(&framed, character, 0.45)
        };
        if let Some(region) = region {
            let aspect = w as f32 / h.max(1) as f32;
            scene.camera.frame(&region, aspect);
            scene.frame.camera = scene.camera.matrices(aspect);
            scene.build(time);
        }
        super::marks::ring(&mut scene, &points, character * 0.03);
        eprintln!("finding {}: {}", args.finding.unwrap_or(0), f);
    }
    let image = target.render_image(&mut renderer, &scene.frame, BACKGROUND)?;
    save_png(&args.output, &image)?;
    println!("wrote {} ({w}x{h})", args.output.display());
    opened.finish()
}

/// The `n`-th finding (1-based) of the rig checks on `asset`, worst first.
fn nth_finding(asset: &Asset, n: usize) -> Result<Finding, AppError> {
    let findings = diagnose(asset, &DiagnoseOptions::default());
    let count = findings.len();
    n.checked_sub(1).and_then(|i| findings.into_iter().nth(i)).ok_or_else(|| {
        AppError::Invalid(format!(
            "--finding {n}: the rig checks have {count} finding(s) for these files (1 to {count})"
        ))
    })
}

fn default_frame_count(scene: &Scene<'_>) -> u32 {
    scene.posed.clip().map_or(1, |c| if c.frame_count > 1 { c.frame_count.min(120) } else { 30 })
}

fn find_bone(asset: &Asset, name: &str) -> Result<usize, AppError> {
    if let Some(i) = asset.skeleton.find(name) {
        return Ok(i);
    }
    match name.parse::<usize>() {
        Ok(i) if i < asset.skeleton.len() => Ok(i),
        _ => Err(AppError::Invalid(format!(
            "no bone '{name}' (the skeleton has {} bones{})",
            asset.skeleton.len(),
            if asset.skeleton.is_empty() { String::new() } else { format!(", e.g. '{}'", asset.skeleton.names[0]) }
        ))),
    }
}

/// `out.png` → `out_0007.png`.
fn sequence_path(output: &Path, index: usize) -> PathBuf {
    let stem = output.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "frame".into());
    let ext = output.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_else(|| "png".into());
    output.with_file_name(format!("{stem}_{index:04}.{ext}"))
}

fn save_png(path: &Path, image: &RgbaImage) -> Result<(), AppError> {
    image.save_with_format(path, image::ImageFormat::Png).map_err(|e| AppError::write(path, e))
}

/// Writes an endlessly looping GIF; `delay_ms` per frame.
fn write_gif(path: &Path, images: &[RgbaImage], delay_ms: f32) -> Result<(), AppError> {
    use image::codecs::gif::{GifEncoder, Repeat};
    let file = File::create(path).map_err(|e| AppError::write(path, e))?;
    // Speed 10 of 30: a good palette at a fraction of the slowest setting's time.
    let mut encoder = GifEncoder::new_with_speed(BufWriter::new(file), 10);
    encoder.set_repeat(Repeat::Infinite).map_err(|e| AppError::write(path, e))?;
    let delay = image::Delay::from_numer_denom_ms((delay_ms * 100.0).round().max(1.0) as u32, 100);
    for image in images {
        let frame = image::Frame::from_parts(image.clone(), 0, 0, delay);
        encoder.encode_frame(frame).map_err(|e| AppError::write(path, e))?;
    }
    Ok(())
}

fn bench(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    target: &OffscreenTarget,
    scene: &mut Scene<'_>,
    n: u32,
    start: f32,
) -> Result<(), AppError> {
    let t = time_frames(renderer, target, scene, n, start)?;
    let info = renderer.model_info(scene.model).cloned().unwrap_or_default();
    let instances = scene.copies.len();
    println!("adapter: {}", ctx.describe());
    println!(
        "{}x{} px, {} sample(s), mode {:?}: {instances} instance(s) × {} vertices / {} triangles, {} bones",
        target.width,
        target.height,
        target.sample_count,
        scene.frame.shading,
        info.vertex_count,
        info.triangle_count,
        info.bone_count
    );
    println!(
        "{} frames: median {:.2} ms/frame (p10 {:.2}, p90 {:.2}) = {:.1} frames/s",
        t.frames,
        t.median_ms,
        t.p10_ms,
        t.p90_ms,
        1000.0 / t.median_ms
    );
    match t.gpu_ms {
        Some([median, p10, p90]) => println!(
            "GPU time (timestamp queries): median {median:.3} ms/frame (p10 {p10:.3}, p90 {p90:.3}) = {:.1} frames/s if \
             GPU-bound",
            1000.0 / median
        ),
        None => println!("GPU time: not supported (the adapter has no timestamp queries); wall-clock time only"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_names() {
        assert_eq!(sequence_path(Path::new("out/walk.png"), 7), PathBuf::from("out/walk_0007.png"));
        assert_eq!(sequence_path(Path::new("x"), 0), PathBuf::from("x_0000.png"));
    }

    #[test]
    fn arguments_parse_into_files_clip_size_mode_and_grid() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            render: RenderArgs,
        }
        let cli = Cli::try_parse_from([
            "render",
            "a.psk",
            "b.psa",
            "--clip",
            "Walk",
            "--time",
            "0.5",
            "--size",
            "320x240",
            "--mode",
            "weights",
            "--skeleton",
            "-o",
            "x.png",
            "--grid",
            "3",
        ])
        .unwrap();
        let r = cli.render;
        assert_eq!(r.files.len(), 2);
        assert_eq!(r.mode, ShadingMode::BoneWeight);
        assert_eq!(r.size, (320, 240));
        assert_eq!(r.grid, Some(3));
        assert!(r.skeleton);
    }
}
