//! `generate humans GOTHIC_ANIMS OUT_DIR`: a model-script tree of the shape of Gothic's `HUMANS.MDS` (50
//! registered bodies, 1,126 `ani` lines over 560 animation files, an `*eventSFX` on every fifth), built from the
//! corpus Bloodfly (`../shared/corpus/mds/gothic/Anims`): its body ASC copied under 50 body names, its 18
//! animation ASCs under 560 names (hard links where the file system allows, else copies). For the viewer's
//! opening-time figure in BENCHMARKS.md: the real file is not public.

use std::fmt::Write as _;
use std::path::Path;

const BODIES: usize = 50;
const ANIMATION_FILES: usize = 560;
const ANI_LINES: usize = 1126;

pub fn main(args: &[String]) {
    let (Some(source), Some(out)) = (args.first(), args.get(1)) else {
        eprintln!("usage: generate humans GOTHIC_ANIMS OUT_DIR (GOTHIC_ANIMS: the corpus's mds/gothic/Anims)");
        std::process::exit(2);
    };
    let (source, out) = (Path::new(source), Path::new(out));
    let bodies = out.join("ASC_BODIES/HUMANS");
    let animations = out.join("ASC_ANIMS/HUMANS");
    for dir in [&bodies, &animations] {
        std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    }
    let link = |from: &Path, to: &Path| {
        if !to.exists() && std::fs::hard_link(from, to).is_err() {
            std::fs::copy(from, to).unwrap_or_else(|e| panic!("{} → {}: {e}", from.display(), to.display()));
        }
    };
    let body = source.join("ASC_BODIES/MONSTER/BLO_BODY.ASC");
    let body_names: Vec<String> = (0..BODIES).map(|i| format!("HUM_BODY_{i:02}.ASC")).collect();
    for name in &body_names {
        link(&body, &bodies.join(name));
    }
    let mut sources: Vec<_> = std::fs::read_dir(source.join("ASC_ANIMS/BLOODFLY"))
        .unwrap_or_else(|e| panic!("{}: {e}", source.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    sources.sort();
    let animation_names: Vec<String> = (0..ANIMATION_FILES)
        .map(|k| {
            let from = &sources[k % sources.len()];
            let name = format!("HUM_{k:03}_{}", from.file_name().unwrap_or_default().to_string_lossy());
            link(from, &animations.join(&name));
            name
        })
        .collect();
    let mut mds = String::from("Model (\"HuS\")\n{\n\tmeshAndTree (\"HUM_BODY_00.ASC\" DONT_USE_MESH)\n");
    for name in &body_names {
        let _ = writeln!(mds, "\tregisterMesh (\"{name}\")");
    }
    mds.push_str("\taniEnum\n\t{\n");
    for k in 0..ANI_LINES {
        let file = &animation_names[k % ANIMATION_FILES];
        let _ = writeln!(mds, "\t\tani\t(\"s_Anim{k:04}\"\t1\t\"s_Anim{k:04}\"\t0.1\t0.1\tM.\t\"{file}\"\tF\t1\t10)");
        if k % 5 == 0 {
            mds.push_str("\t\t{\n\t\t\t*eventSFX\t(2\t\"HUM_STEP\")\n\t\t}\n");
        }
    }
    mds.push_str("\t}\n}\n");
    let path = out.join("HUMANS.MDS");
    std::fs::write(&path, mds).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    eprintln!("{}: {BODIES} bodies, {ANI_LINES} ani lines over {ANIMATION_FILES} animation files", path.display());
}
