//! The command line: `bonescope [FILES…]` opens the viewer; subcommands do batch work on files (`check` on whole
//! folder trees).

pub mod check;
pub mod export;
pub mod info;
#[cfg(feature = "gui")]
pub mod marks;
pub mod morph_args;
pub mod pose;
#[cfg(feature = "gui")]
pub mod render;
pub mod studio_args;

use std::path::PathBuf;

use clap::Args;

use bonescope::AppError;
use bonescope::io::LoadOptions;
use bonescope::scene::{Asset, BindReport, Retarget, RootMotion, TranslationMode};
use bonescope::source::{self, Source};

/// How files are opened, the same for every command.
#[derive(Args, Debug, Clone)]
pub struct LoadArgs {
    /// Frame rate for formats that do not store one (SMD animations).
    #[arg(long, default_value_t = 30.0)]
    pub fps: f32,
    /// A folder to look for textures in after the model's own folder (repeatable, searched in order, before a
    /// model script's texture folders).
    #[arg(long = "textures", value_name = "DIR")]
    pub textures: Vec<PathBuf>,
    /// Where the bones of animation files bound to the model take their translations from: `animation` (as the
    /// file says), `rotation-only` (the model's bind pose: for animations made for other proportions) or
    /// `scaled` (the animation's, scaled by the model's bone length over the animation's).
    #[arg(long, value_enum, value_name = "MODE", default_value = "animation")]
    pub retarget: TranslationMode,
    /// What happens to the root bones' motion in animation files bound to the model: `keep`, `lock` (in place)
    /// or `ground` (over the ground plane only).
    #[arg(long, value_enum, value_name = "MODE", default_value = "keep")]
    pub root: RootMotion,
    /// Play placeholder tracks too: keys of the identity, constant over a clip, for bones whose bind pose is
    /// elsewhere (exporters write them for bones the animation never moved; played, a face caves in). By
    /// default those bones keep their bind pose, and the bind report lists the tracks.
    #[arg(long)]
    pub apply_placeholder_tracks: bool,
    /// Which axis of the model's file points up: +x, -x, +y, -y, +z or -z. Without it, the format's
    /// convention, unless the character's own bones (head above feet) say that lays it down; `info` says which
    /// was taken and why.
    #[arg(long, value_enum, value_name = "AXIS", allow_hyphen_values = true)]
    pub up: Option<bonescope::scene::UpAxis>,
}

impl LoadArgs {
    pub fn options(&self) -> LoadOptions {
        LoadOptions {
            default_fps: self.fps,
            texture_dirs: self.textures.clone(),
            retarget: Retarget {
                translation: self.retarget,
                root: self.root,
                apply_placeholder_tracks: self.apply_placeholder_tracks,
                ..Retarget::default()
            },
            up: self.up,
            ..LoadOptions::default()
        }
    }
}

/// A scene opened from the command line's `FILE…` (the model, then files bound to it), and how many files
/// failed.
pub struct Opened {
    pub asset: Asset,
    pub reports: Vec<BindReport>,
    pub failed: usize,
}

impl Opened {
    /// The clip a command plays, as the viewer would: `named`; else the first clip of the animation files bound
    /// to the model; else, when time matters (`--time`, an animation), the first clip there is; else none (the
    /// bind pose).
    pub fn clip_to_play(&self, named: Option<&str>, time_matters: bool) -> Option<String> {
        if let Some(name) = named {
            return Some(name.to_owned());
        }
        let clips = &self.asset.clips;
        let bound = self.reports.iter().find_map(|r| r.clip_indices().next()).and_then(|i| clips.get(i));
        match bound {
            Some(clip) => Some(clip.name.clone()),
            None if time_matters => clips.first().map(|c| c.name.clone()),
            None => None,
        }
    }

    /// Opens `sources` as one scene with [`source::load_set`]: each file that fails to load or to bind is
    /// reported on stderr (`error: FILE: …`) and left out, the others are used. An error only when no file
    /// loaded at all.
    pub fn sources(sources: &[Source], opts: &LoadOptions) -> Result<Self, AppError> {
        let mut set = source::load_set(sources, opts);
        let asset = set.take_asset()?;
        for e in &set.errors {
            eprintln!("error: {e}");
        }
        Ok(Self { asset, reports: set.reports, failed: set.errors.len() })
    }

    /// [`Opened::sources`] of command-line arguments (`@demo` names the demo).
    pub fn args(files: &[PathBuf], opts: &LoadOptions) -> Result<Self, AppError> {
        Self::sources(&Source::from_args(files), opts)
    }

    /// What was opened, in one line: the model with the parts and animation files that joined it, and the
    /// character they make (`body.psk + 1 part + 1 animation file: 2 meshes, 92 bones, 1 clip`), as the viewer's
    /// title and `info` count it.
    pub fn summary(&self) -> String {
        let asset = &self.asset;
        let model = asset
            .path
            .as_deref()
            .and_then(std::path::Path::file_name)
            .map_or_else(|| asset.kind().to_owned(), |n| n.to_string_lossy().into_owned());
        let joined: Vec<&BindReport> = self.reports.iter().filter(|r| r.not_joined.is_none()).collect();
        let parts = joined.iter().filter(|r| r.part.is_some()).count();
        let animations = joined.len() - parts;
        let plural = |n: usize, one: &str| {
            let many = if one.ends_with('h') { "es" } else { "s" };
            format!("{n} {one}{}", if n == 1 { "" } else { many })
        };
        let mut line = model;
        if parts > 0 {
            line += &format!(" + {}", plural(parts, "part"));
        }
        if animations > 0 {
            line += &format!(" + {}", plural(animations, "animation file"));
        }
        format!(
            "{line}: {}, {}, {}",
            plural(asset.meshes.len(), "mesh"),
            plural(asset.skeleton.len(), "bone"),
            plural(asset.clips.len(), "clip")
        )
    }

    /// The command's result once its output is written: an error (a non-zero exit code) when a file failed.
    pub fn finish(&self) -> Result<(), AppError> {
        match self.failed {
            0 => Ok(()),
            n => Err(AppError::SomeFilesFailed(n)),
        }
    }
}

/// Writes command output to stdout. A closed pipe (`bonescope info … | head`) is not an error worth a panic.
pub fn emit(text: &str) {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush());
}
