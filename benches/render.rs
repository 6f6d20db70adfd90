//! Headless frame time of the renderer: the demo character alone and a 10×10 grid of instances (each with its
//! own palette and time offset). A frame is: sample the poses, upload, draw, wait for the GPU (no read-back).
//! On a machine without a GPU this measures lavapipe. Skipped with a message when there is no adapter.

use criterion::{Criterion, criterion_group, criterion_main};

use bonescope::render::headless::{BACKGROUND, Framing, Scene};
use bonescope::render::{GpuContext, OFFSCREEN_FORMAT, OffscreenTarget, Renderer, ShadingMode};
use bonescope::scene::samples::demo::demo_asset;

fn frames(c: &mut Criterion) {
    let ctx = match GpuContext::headless() {
        Ok(ctx) => ctx,
        Err(e) => {
            eprintln!("skipped: {e}");
            return;
        }
    };
    eprintln!("adapter: {}", ctx.describe());
    let size = (512, 512);
    let samples = ctx.msaa_samples(OFFSCREEN_FORMAT);
    let asset = demo_asset();
    let mut group = c.benchmark_group("render_frame");
    group.sample_size(20);
    for (name, grid, mode) in [
        ("demo", 1, ShadingMode::Textured),
        ("grid10", 10, ShadingMode::Textured),
        ("grid10_stretch", 10, ShadingMode::Stretch),
    ] {
        let mut renderer = Renderer::new(&ctx.device, &ctx.queue, OFFSCREEN_FORMAT, samples);
        let target = OffscreenTarget::new(&ctx.device, size.0, size.1, samples);
        let mut scene = Scene::new(&mut renderer, &asset, Some("Sway"), grid, Framing::WholeClip, size).unwrap();
        scene.reframe(30.0, 25.0);
        scene.frame.shading = mode;
        let mut t = 0.0;
        group.bench_function(name, |b| {
            b.iter(|| {
                t += 1.0 / 60.0;
                scene.build(t);
                target.render(&mut renderer, &scene.frame, BACKGROUND).unwrap();
            })
        });
    }
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
