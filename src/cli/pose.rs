//! `bonescope pose FILE… [--clip NAME] [--time T] [--json] [--viewer-frame] [--morph NAME=WEIGHT]…`: the
//! evaluated pose, per bone its name, parent, local SRT, to-root, offset (inverse bind) and skinning matrices,
//! for scripts and for checking rigs from outside; for a file with morph targets, the weights in effect (the
//! clip's, then `--morph`) and each moved mesh's vertices, morphed and skinned. Matrices are column-major (16 floats). By default everything is in the file's own frame
//! and units; `--viewer-frame` conjugates every matrix by the format's axis conversion (`C · M · C⁻¹`), so
//! that skinned vertices come out converted (`C · v`).

use std::fmt::Write as _;
use std::path::PathBuf;

use glam::Mat4;
use serde_json::{Value, json};

use bonescope::AppError;
use bonescope::anim::recording::RecordingPose;
use bonescope::anim::{MorphLayout, Pose, apply_morphs, bind_pose_error, skin_mesh_morphed};
use bonescope::scene::{Asset, Transform};

use super::morph_args::{MorphArgs, displacement};

#[derive(clap::Args, Debug)]
pub struct PoseArgs {
    /// The model, then animation files to bind to it by bone name.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Clip to evaluate (name, case-insensitive). Without it: the first clip of the animation files given after
    /// the model, or with `--time` the first clip there is; else the bind pose.
    #[arg(long)]
    pub clip: Option<String>,
    /// Time in seconds within the clip (clamped to its keys); 0 when not given.
    #[arg(long)]
    pub time: Option<f32>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Convert to the viewer's frame (right-handed, Y up) instead of the file's own.
    #[arg(long)]
    pub viewer_frame: bool,
    #[command(flatten)]
    pub load: super::LoadArgs,
    /// Morph targets at fixed weights, over what the clip drives; the report then has the morphed vertices.
    #[command(flatten)]
    pub morph: MorphArgs,
    /// Bone controllers and blend parameters (compiled GoldSrc models, QCs); `--skin` and `--body` change no pose.
    #[command(flatten)]
    pub studio: super::studio_args::StudioArgs,
}

pub fn run(args: &PoseArgs) -> Result<(), AppError> {
    let opts = args.load.options();
    let opened = super::Opened::args(&args.files, &opts)?;
    let clip = opened.clip_to_play(args.clip.as_deref(), args.time.is_some());
    if let (None, Some(t)) = (&clip, args.time)
        && opened.asset.recordings.is_empty()
    {
        eprintln!("warning: --time {t}: the file has no clips to play; the bind pose is printed");
    }
    let mut report = evaluate(&opened.asset, args, clip.as_deref())?;
    report["bound"] = serde_json::to_value(&opened.reports).unwrap_or_default();
    let mut out = String::new();
    if args.json {
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&report).unwrap_or_default());
    } else {
        print_text(&mut out, &report);
    }
    super::emit(&out);
    opened.finish()
}

fn evaluate(asset: &Asset, args: &PoseArgs, clip: Option<&str>) -> Result<Value, AppError> {
    if let Some(recording) = asset.recordings.first()
        && asset.skeleton.is_empty()
    {
        return Ok(recording_pose(asset, recording, args));
    }
    let skeleton = &asset.skeleton;
    let clip = match clip {
        None => None,
        Some(name) => Some(asset.clip(name).ok_or_else(|| {
            let names: Vec<&str> = asset.clips.iter().map(|c| c.name.as_str()).collect();
            AppError::Invalid(format!(
                "no clip named '{name}'; clips: {}",
                if names.is_empty() { "none".into() } else { names.join(", ") }
            ))
        })?),
    };
    let studio = args.studio.resolve(asset, clip)?;
    let mut pose = match clip {
        None => Pose::bind(skeleton),
        Some(clip) => Pose::from_clip(skeleton, clip, args.time.unwrap_or(0.0)),
    };
    // A blend sequence's animations mixed, and the bone controllers turned, as the viewer shows them.
    if let Some(clip) = clip
        && let Some(mut sampler) = bonescope::anim::studio::BlendSampler::new(skeleton, clip)
    {
        let parameters =
            studio.blend.or_else(|| Some(clip.script.as_ref()?.blend.as_ref()?.defaults)).unwrap_or([0.0; 2]);
        let own = bonescope::anim::ClipBinding::new(skeleton, clip);
        sampler.sample(skeleton, clip, &own, args.time.unwrap_or(0.0), parameters, &mut pose.local);
    }
    if !studio.adjustments.is_empty() {
        bonescope::anim::studio::apply_adjustments(&mut pose.local, &studio.adjustments);
    }
    pose.update(skeleton);
    let morph_weights = args.morph.weights(asset, clip, args.time.unwrap_or(0.0))?;
    let convert = if args.viewer_frame { asset.axes.to_viewer } else { Mat4::IDENTITY };
    let inverse = convert.inverse();
    let conj = |m: &Mat4| convert * *m * inverse;
    let errors = bind_pose_error(skeleton);
    let bones: Vec<Value> = (0..skeleton.len())
        .map(|i| {
            let local = Transform::from_matrix(&conj(&pose.local[i].to_matrix()));
            json!({
                "index": i,
                "name": skeleton.names[i],
                "parent": skeleton.parents[i],
                "local": { "translation": local.translation, "rotation": local.rotation, "scale": local.scale },
                "to_root": conj(&pose.to_root[i]).to_cols_array(),
                "offset": conj(&skeleton.inverse_bind[i]).to_cols_array(),
                "skinning": conj(&pose.palette[i]).to_cols_array(),
                "bind_check_error": errors.get(i),
            })
        })
        .collect();
    let mut report = json!({
        "file": asset.path,
        "clip": clip.map(|c| c.name.clone()),
        "time": args.time.unwrap_or(0.0),
        "frame": if args.viewer_frame { "viewer (right-handed, Y up)" } else { "file" },
        "bones": bones,
    });
    if !morph_weights.is_empty() {
        report["morphs"] = morphs_json(asset, &pose, &morph_weights, &args.morph, convert);
    }
    Ok(report)
}

/// The morph weights in effect (the clip's, then `--morph`) and, for each mesh any of them moves, its vertices
/// morphed and skinned at the pose (in the output frame), with how many moved and how far at most before
/// skinning.
fn morphs_json(asset: &Asset, pose: &Pose, weights: &[f32], args: &MorphArgs, convert: Mat4) -> Value {
    let layout = MorphLayout::of_meshes(&asset.meshes);
    let set: Vec<usize> = args.resolve(asset, &layout).unwrap_or_default().into_iter().map(|(s, _)| s).collect();
    let mut targets = Vec::new();
    let mut meshes = Vec::new();
    for (m, mesh) in asset.meshes.iter().enumerate() {
        let range = layout.mesh_range(m);
        let mesh_weights = weights.get(range.clone()).unwrap_or_default();
        for (slot, (target, w)) in range.clone().zip(mesh.morph_targets.iter().zip(mesh_weights)) {
            targets.push(json!({
                "mesh": mesh.name,
                "target": target.name,
                "weight": w,
                "set_by": if set.contains(&slot) { "--morph" } else if *w != 0.0 { "clip" } else { "none" },
            }));
        }
        if mesh_weights.iter().all(|w| *w == 0.0) {
            continue;
        }
        let (mut morphed, mut normals) = (Vec::new(), Vec::new());
        apply_morphs(mesh, mesh_weights, &mut morphed, &mut normals);
        let (moved, largest) = displacement(&mesh.positions, &morphed);
        let (mut posed, mut posed_normals) = (Vec::new(), Vec::new());
        skin_mesh_morphed(mesh, &pose.palette, mesh_weights, &mut posed, &mut posed_normals);
        let positions: Vec<[f32; 3]> = posed.iter().map(|p| convert.transform_point3(*p).to_array()).collect();
        meshes.push(json!({
            "mesh": mesh.name,
            "vertices": mesh.vertex_count(),
            "moved_vertices": moved,
            "largest_displacement": largest,
            "positions": positions,
        }));
    }
    json!({ "weights": targets, "meshes": meshes })
}

/// A recording at `--time`: both hands (tracked, pinching, 27 joints), the gaze ray and the camera, in the
/// file's (Unity) frame unless `--viewer-frame`.
fn recording_pose(asset: &Asset, recording: &bonescope::scene::Recording, args: &PoseArgs) -> Value {
    let mut pose = RecordingPose::at(recording, args.time.unwrap_or(0.0));
    if args.viewer_frame {
        let c = asset.axes.to_viewer;
        let rotate = |q: glam::Quat| glam::Quat::from_mat4(&(c * Mat4::from_quat(q) * c.inverse())).normalize();
        for hand in [&mut pose.left, &mut pose.right] {
            for joint in &mut hand.joints {
                joint.position = c.transform_point3(joint.position);
                joint.rotation = rotate(joint.rotation);
            }
        }
        if let Some(gaze) = &mut pose.gaze {
            gaze.origin = c.transform_point3(gaze.origin);
            gaze.direction = c.transform_vector3(gaze.direction);
        }
        if let Some(camera) = &mut pose.camera {
            camera.position = c.transform_point3(camera.position);
            camera.rotation = rotate(camera.rotation);
        }
    }
    json!({
        "file": asset.path,
        "recording": recording.name,
        "time": args.time.unwrap_or(0.0),
        "duration": recording.duration,
        "frame": if args.viewer_frame { "viewer (right-handed, Y up)" } else { "file (Unity: left-handed, Y up)" },
        "pose": pose,
    })
}

fn print_text(out: &mut String, report: &Value) {
    if report.get("pose").is_some() {
        print_recording_text(out, report);
        return;
    }
    let _ = writeln!(
        out,
        "{} — {} at {:.3} s, {} frame",
        report["file"].as_str().unwrap_or("?"),
        report["clip"].as_str().unwrap_or("bind pose"),
        report["time"].as_f64().unwrap_or_default(),
        report["frame"].as_str().unwrap_or_default()
    );
    for bone in report["bones"].as_array().into_iter().flatten() {
        let v3 = |v: &Value| {
            let a: Vec<f64> = v.as_array().into_iter().flatten().filter_map(Value::as_f64).collect();
            a.iter().map(|x| format!("{x:.4}")).collect::<Vec<_>>().join(" ")
        };
        let _ = writeln!(
            out,
            "[{}] {} (parent {})",
            bone["index"],
            bone["name"].as_str().unwrap_or_default(),
            bone["parent"].as_u64().map_or("none".into(), |p| p.to_string())
        );
        let _ = writeln!(
            out,
            "    local T {} | R {} | S {}",
            v3(&bone["local"]["translation"]),
            v3(&bone["local"]["rotation"]),
            v3(&bone["local"]["scale"])
        );
        for key in ["to_root", "offset", "skinning"] {
            let m: Vec<f64> = bone[key].as_array().into_iter().flatten().filter_map(Value::as_f64).collect();
            if m.len() == 16 {
                // Printed as rows for reading, stored column-major.
                for row in 0..4 {
                    let label = if row == 0 { key } else { "" };
                    let _ = writeln!(
                        out,
                        "    {label:<9} {:>10.4} {:>10.4} {:>10.4} {:>10.4}",
                        m[row],
                        m[4 + row],
                        m[8 + row],
                        m[12 + row]
                    );
                }
            }
        }
        let _ = writeln!(
            out,
            "    bind check |offset × to_root − I| = {:.2e}",
            bone["bind_check_error"].as_f64().unwrap_or(f64::NAN)
        );
    }
    print_morphs_text(out, &report["morphs"]);
}

/// The morph weights that are set, and what they do to each mesh (the positions are in the JSON only).
fn print_morphs_text(out: &mut String, morphs: &Value) {
    if morphs.is_null() {
        return;
    }
    let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    let set: Vec<&Value> =
        morphs["weights"].as_array().into_iter().flatten().filter(|w| w["set_by"] != "none").collect();
    let _ = writeln!(out, "morph weights: {} set", set.len());
    for w in set {
        let _ = writeln!(
            out,
            "    {}/{} = {} ({})",
            s(&w["mesh"]),
            s(&w["target"]),
            w["weight"].as_f64().unwrap_or_default(),
            s(&w["set_by"])
        );
    }
    for m in morphs["meshes"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "    mesh '{}': {} of {} vertices moved, at most {:.6} (morphed positions: --json)",
            s(&m["mesh"]),
            m["moved_vertices"],
            m["vertices"],
            m["largest_displacement"].as_f64().unwrap_or_default()
        );
    }
}

fn print_recording_text(out: &mut String, report: &Value) {
    let _ = writeln!(
        out,
        "{} — recording at {:.3} s of {:.3} s, {} frame",
        report["file"].as_str().unwrap_or("?"),
        report["time"].as_f64().unwrap_or_default(),
        report["duration"].as_f64().unwrap_or_default(),
        report["frame"].as_str().unwrap_or_default()
    );
    let v3 = |v: &Value| {
        let a: Vec<String> =
            v.as_array().into_iter().flatten().filter_map(Value::as_f64).map(|x| format!("{x:.4}")).collect();
        a.join(" ")
    };
    let pose = &report["pose"];
    for hand in ["left", "right"] {
        let h = &pose[hand];
        let _ = writeln!(out, "{hand} hand: tracked {}, pinching {}", h["tracked"], h["pinching"]);
        for joint in h["joints"].as_array().into_iter().flatten().filter(|j| j["recorded"] == true) {
            let _ = writeln!(
                out,
                "    {:<22} position {} | rotation {}",
                joint["name"].as_str().unwrap_or_default(),
                v3(&joint["position"]),
                v3(&joint["rotation"])
            );
        }
    }
    if !pose["gaze"].is_null() {
        let _ =
            writeln!(out, "gaze: origin {} direction {}", v3(&pose["gaze"]["origin"]), v3(&pose["gaze"]["direction"]));
    }
    if !pose["camera"].is_null() {
        let _ = writeln!(
            out,
            "camera: position {} rotation {}",
            v3(&pose["camera"]["position"]),
            v3(&pose["camera"]["rotation"])
        );
    }
}
