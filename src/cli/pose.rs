//! `bonescope pose FILE… [--clip NAME] [--time T] [--json] [--viewer-frame]`: the evaluated pose, per bone its
//! name, parent, local SRT, to-root, offset (inverse bind) and skinning matrices, for scripts and for checking
//! rigs from outside. Matrices are column-major (16 floats). By default everything is in the file's own frame
//! and units; `--viewer-frame` conjugates every matrix by the format's axis conversion (`C · M · C⁻¹`), so
//! that skinned vertices come out converted (`C · v`).

use std::path::PathBuf;

use glam::Mat4;
use serde_json::{Value, json};

use bonescope::anim::{Pose, bind_pose_error};
use bonescope::io::{self, LoadOptions};
use bonescope::scene::{Asset, Transform};

#[derive(clap::Args, Debug)]
pub struct PoseArgs {
    /// The model, then animation files to bind to it by bone name.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Clip to evaluate (name, case-insensitive); the bind pose when absent.
    #[arg(long)]
    pub clip: Option<String>,
    /// Time in seconds within the clip (clamped to its keys).
    #[arg(long, default_value_t = 0.0)]
    pub time: f32,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Convert to the viewer's frame (right-handed, Y up) instead of the file's own.
    #[arg(long)]
    pub viewer_frame: bool,
    /// Frame rate for formats that do not store one (SMD animations).
    #[arg(long, default_value_t = 30.0)]
    pub fps: f32,
}

pub fn run(args: &PoseArgs) -> Result<(), String> {
    let opts = LoadOptions { default_fps: args.fps, ..LoadOptions::default() };
    let (asset, _reports) = io::load_set(&args.files, &opts).map_err(|e| e.to_string())?;
    let report = evaluate(&asset, args)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
    } else {
        print_text(&report);
    }
    Ok(())
}

fn evaluate(asset: &Asset, args: &PoseArgs) -> Result<Value, String> {
    let skeleton = &asset.skeleton;
    let pose = match &args.clip {
        None => Pose::bind(skeleton),
        Some(name) => {
            let clip = asset.clip(name).ok_or_else(|| {
                let names: Vec<&str> = asset.clips.iter().map(|c| c.name.as_str()).collect();
                format!(
                    "no clip named '{name}'; clips: {}",
                    if names.is_empty() { "none".into() } else { names.join(", ") }
                )
            })?;
            Pose::from_clip(skeleton, clip, args.time)
        }
    };
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
    Ok(json!({
        "file": asset.path,
        "clip": args.clip,
        "time": args.time,
        "frame": if args.viewer_frame { "viewer (right-handed, Y up)" } else { "file" },
        "bones": bones,
    }))
}

fn print_text(report: &Value) {
    println!(
        "{} — {} at {} s, {} frame",
        report["file"].as_str().unwrap_or("?"),
        report["clip"].as_str().unwrap_or("bind pose"),
        report["time"],
        report["frame"].as_str().unwrap_or_default()
    );
    for bone in report["bones"].as_array().into_iter().flatten() {
        let v3 = |v: &Value| {
            let a: Vec<f64> = v.as_array().into_iter().flatten().filter_map(Value::as_f64).collect();
            a.iter().map(|x| format!("{x:.4}")).collect::<Vec<_>>().join(" ")
        };
        println!(
            "[{}] {} (parent {})",
            bone["index"],
            bone["name"].as_str().unwrap_or_default(),
            bone["parent"].as_u64().map_or("none".into(), |p| p.to_string())
        );
        println!(
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
                    println!(
                        "    {label:<9} {:>10.4} {:>10.4} {:>10.4} {:>10.4}",
                        m[row],
                        m[4 + row],
                        m[8 + row],
                        m[12 + row]
                    );
                }
            }
        }
        println!(
            "    bind check |offset × to_root − I| = {:.2e}",
            bone["bind_check_error"].as_f64().unwrap_or(f64::NAN)
        );
    }
}
