//! A folder's compiled Gothic files as characters, the way the engine puts them together: a model (`.MDL`, or
//! the hierarchy `MODEL.MDH`) with the model meshes made for it (an `.MDM` binds to the hierarchy it found beside
//! it, by its name or its node-list checksum) and the animations named after it (`MODEL-ANI.MAN`, the engine's
//! `SaveMAN` naming). Morph meshes, static meshes and files of no model of the folder are characters of their
//! own. Everything else of the folder is left to the folder grouping.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bonescope::io::{LoadError, LoadOptions};
use bonescope::scene::{Asset, Format};

use super::pair::Pairing;
use super::run::{Loaded, bind_all};

/// Each file of a folder with what loading it gave.
type Results = Vec<(PathBuf, Result<Asset, LoadError>)>;

/// The upper-case file name without extension.
fn stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().to_uppercase()).unwrap_or_default()
}

/// Takes the compiled Gothic files out of `results` and makes characters of them.
pub(super) fn characters(results: Results, opts: &LoadOptions) -> (Results, Vec<Loaded>) {
    let compiled =
        |r: &Result<Asset, LoadError>| r.as_ref().is_ok_and(|a| bonescope::io::zengin::compiler::is_compiled(a.format));
    let (zen, rest): (Vec<_>, Vec<_>) = results.into_iter().partition(|(_, r)| compiled(r));
    let mut models: BTreeMap<String, (Asset, Vec<(Asset, Pairing)>)> = BTreeMap::new();
    let mut pending: Vec<(String, Asset, Pairing)> = Vec::new();
    let mut alone: Vec<Asset> = Vec::new();
    for (path, result) in zen {
        let Ok(asset) = result else { continue };
        match asset.format {
            Some(Format::ZenMdh | Format::ZenMdl) => {
                models.insert(stem(&path), (asset, Vec::new()));
            }
            Some(Format::ZenMdm) => {
                // The hierarchy it found beside it names its model.
                let model = asset.readings.iter().find(|r| r.topic == "hierarchy").map(|r| stem(Path::new(&r.choice)));
                match model {
                    Some(model) => {
                        let how = pairing(&asset, &model);
                        pending.push((model, asset, how));
                    }
                    None => alone.push(asset),
                }
            }
            Some(Format::ZenMan) => {
                let model = stem(&path).split_once('-').map(|(m, _)| m.to_owned());
                match model {
                    Some(model) => {
                        let how = pairing(&asset, &model);
                        pending.push((model, asset, how));
                    }
                    None => alone.push(asset),
                }
            }
            _ => alone.push(asset),
        }
    }
    for (model, asset, how) in pending {
        match models.get_mut(&model) {
            Some((_, parts)) => parts.push((asset, how)),
            None => alone.push(asset),
        }
    }
    let mut loaded: Vec<Loaded> = Vec::new();
    for (_, (main, mut parts)) in models {
        // Meshes first, so the animations bind to the whole model.
        parts.sort_by_key(|(a, _)| a.format != Some(Format::ZenMdm));
        let others = parts.into_iter().map(|(a, how)| (a.path.clone().unwrap_or_default(), how, Ok(a))).collect();
        loaded.push(bind_all(main, others, opts));
    }
    loaded.extend(alone.into_iter().map(|a| bind_all(a, Vec::new(), opts)));
    (rest, loaded)
}

/// How a compiled file was put with its model, as the report says it.
fn pairing(asset: &Asset, model: &str) -> Pairing {
    match asset.format {
        Some(Format::ZenMdm) => Pairing {
            method: "compiled",
            detail: format!("a model mesh made for the hierarchy of {model}, found beside it"),
        },
        _ => Pairing {
            method: "compiled",
            detail: format!("named {model}-ANI.MAN, as the engine names {model}'s animations"),
        },
    }
}
