//! Compiled model scripts (MSB): the corpus's `waran.msb` (Gothic II's WARAN) holds what ZenKit's
//! `tests/TestModelScript.cc` says it holds and what its source `WARAN.MDS` says; and BLOODFLY compiled here
//! (a test writer lays it out as `waran.msb` is laid out) opens as the same character as its text MDS: the
//! same script, bones, clips, events and meshes.

mod common;

#[path = "common/msb_writer.rs"]
mod msb_writer;

use std::path::Path;

use bonescope::io::{self, Files, LoadOptions, MemoryFiles};
use bonescope::scene::{Asset, Format, ModelScript, SequenceKind};
use msb_writer::{script_summary, write_msb};

/// `waran.msb` read on its own: the character cannot be built (its ASC files are not in the corpus), so the
/// script is read through a tree in memory holding a stand-in body, which makes the load succeed.
fn waran_script(corpus: &Path) -> ModelScript {
    let files = MemoryFiles::new();
    files.insert("/anims/WARAN.MSB", std::fs::read(corpus.join("zengin/waran.msb")).unwrap());
    // The Bloodfly's body stands in for WAR_BODY.ASC: only the script is looked at here.
    let body = std::fs::read(corpus.join("mds/gothic/Anims/ASC_BODIES/MONSTER/BLO_BODY.ASC")).unwrap();
    files.insert("/anims/WAR_BODY.ASC", body);
    let opts = LoadOptions { files: Files::new(files), ..LoadOptions::default() };
    let asset = io::load_path(Path::new("/anims/WARAN.MSB"), &opts).unwrap();
    assert_eq!(asset.format, Some(Format::ZenMsb));
    *asset.model_script.unwrap()
}

#[test]
fn waran_msb_holds_what_zenkit_and_its_source_say() {
    let Some(corpus) = common::corpus() else { return };
    let script = waran_script(&corpus);
    let anis: Vec<_> = script.sequences.iter().filter(|s| s.kind == SequenceKind::Ani).collect();
    let aliases: Vec<_> = script.sequences.iter().filter(|s| matches!(s.kind, SequenceKind::Alias { .. })).collect();
    // TestModelScript.cc, "ModelScript.load(GOTHIC?,BINARY)".
    assert_eq!((anis.len(), aliases.len(), script.ani_blends.len(), script.ani_combs.len()), (62, 38, 17, 1));
    let registered: Vec<&str> =
        script.body_groups.iter().flat_map(|g| g.choices.iter().map(|c| c.name.as_str())).collect();
    assert_eq!(registered, ["WAR_BODY.ASC", "WAR_FIRE_BODY.ASC"]);
    assert!(script.ani_disabled.is_empty());
    let first = anis[0];
    assert_eq!(first.name, "T_FISTRUN_2_FISTRUNL");
    assert_eq!((first.layer, first.next.as_deref()), (Some(1), Some("S_FISTRUNL")));
    assert_eq!((first.blend_in, first.blend_out, first.flags.as_str()), (0.0, 0.0, "M."));
    assert_eq!(first.files, ["WARAN_RUN_KM01.ASC"]);
    assert_eq!((first.reversed, first.first_frame, first.last_frame, first.fps), (false, Some(1), Some(8), 25.0));
    assert_eq!(first.collision_scale, None, "the default scale, 1");
    let sneak: Vec<_> = first.events.iter().map(|e| (e.frame, e.kind.as_str(), e.args.clone())).collect();
    assert_eq!(sneak, [(5, "eventSFXGrnd", vec!["SNEAK".to_owned()])]);
    let alias = aliases[0];
    assert_eq!(alias.name, "S_FISTRUN");
    assert_eq!(alias.kind, SequenceKind::Alias { of: "S_FISTWALK".into() });
    assert!(alias.looping && !alias.reversed && alias.flags == "MI");
    assert_eq!(
        (script.ani_blends[0].name.as_str(), script.ani_blends[0].next.as_str()),
        ("T_FISTRUNR_2_FISTRUN", "S_FISTRUN")
    );
    let comb = &script.ani_combs[0];
    assert_eq!((comb.name.as_str(), comb.layer, comb.next.as_str()), ("T_LOOK", 9, "T_LOOK"));
    assert_eq!((comb.blend_in, comb.blend_out, comb.prefix.as_str(), comb.count), (0.3, 0.3, "C_LOOK_", 9));
    // The 48th ani's fourth tag: DEF_WINDOW over frames 8 and 15.
    let tags: Vec<_> = anis[47].events.iter().filter(|e| e.kind == "eventTag").collect();
    assert_eq!(tags.len(), 4);
    assert_eq!(tags[3].frame, 0);
    assert_eq!(tags[3].args, ["DEF_WINDOW", "8\t15"]);
    // WARAN.MDS (gothic-devkit): `s_FistWalk` plays at FPS:10; `s_FistRunL`'s eventSFX has EMPTY_SLOT, its
    // eventSFXGrnds not, and none of its sounds gives a range.
    let walk = anis.iter().find(|s| s.name == "S_FISTWALK").unwrap();
    assert_eq!(walk.fps, 10.0);
    let run = anis.iter().find(|s| s.name == "S_FISTRUNL").unwrap();
    let sounds: Vec<_> = run.events.iter().map(|e| (e.frame, e.kind.as_str(), e.args.join(" "))).collect();
    assert_eq!(
        sounds,
        [
            (10, "eventSFX", "WAR_AMBIENT_SHORT EMPTY_SLOT".to_owned()),
            (9, "eventSFXGrnd", "SNEAK".to_owned()),
            (15, "eventSFXGrnd", "SNEAK".to_owned())
        ]
    );
    // The model is named after the source file the compiler read.
    assert_eq!(script.name, "WARAN");
}

/// A clip as compared: name, length in ms, rotation keys, event keys.
type ClipSummary = (String, u32, usize, usize);

/// Bones, clips and meshes (name, vertices): what a user compares.
fn character(asset: &Asset) -> (Vec<String>, Vec<ClipSummary>, Vec<(String, usize)>) {
    (
        asset.skeleton.names.clone(),
        asset
            .clips
            .iter()
            .map(|c| {
                let keys = c.tracks.iter().map(|t| t.rotation.len()).sum();
                (c.name.to_uppercase(), (c.duration * 1000.0).round() as u32, keys, c.callback_keys.len())
            })
            .collect(),
        asset.meshes.iter().map(|m| (m.name.clone(), m.positions.len())).collect(),
    )
}

#[test]
fn bloodfly_compiled_opens_as_its_text() {
    let Some(corpus) = common::corpus() else { return };
    let root = corpus.join("mds/gothic/Anims");
    let text = io::load_path(&root.join("BLOODFLY.MDS"), &LoadOptions::default()).unwrap();
    let script = text.model_script.as_deref().unwrap();
    let source = String::from_utf8_lossy(&std::fs::read(root.join("BLOODFLY.MDS")).unwrap()).into_owned();
    assert!(source.contains("meshAndTree (\"Blo_Body.asc\" DONT_USE_MESH)"));
    let msb = write_msb(script, Some(("Blo_Body.asc", false)), "BLOODFLY.MDS");

    // The compiled script beside the text one, in the same tree.
    let files = MemoryFiles::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files
                    .insert(Path::new("/Anims").join(path.strip_prefix(&root).unwrap()), std::fs::read(&path).unwrap());
            }
        }
    }
    files.insert("/Anims/_COMPILED/BLOODFLY.MSB", msb.clone());
    let opts = LoadOptions { files: Files::new(files), ..LoadOptions::default() };
    let compiled = io::load_path(Path::new("/Anims/_COMPILED/BLOODFLY.MSB"), &opts).unwrap();
    assert_eq!(compiled.format, Some(Format::ZenMsb));
    let compiled_script = compiled.model_script.as_deref().unwrap();
    assert_eq!(script_summary(compiled_script), script_summary(script));
    assert_eq!(character(&compiled), character(&text));
    assert!(compiled.clips.len() > 20 && compiled.clips.iter().any(|c| !c.callback_keys.is_empty()));
    assert_eq!(
        compiled.warnings.iter().filter(|w| w.is_error()).count(),
        text.warnings.iter().filter(|w| w.is_error()).count()
    );
    // Found by its first bytes whatever it is called.
    assert_eq!(io::detect_format(&msb, Some(Path::new("bloodfly.bin"))), Some(Format::ZenMsb));
}
