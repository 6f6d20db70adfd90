//! Fuzz target: the model-script readers (QC with its `$include`s and `$definevariable`s, Gothic MDS and MMS)
//! must return a character or an error for any script — never panic, hang or allocate without bound — and so
//! must `plan`, which `check` runs on every script of a tree.
//!
//! A script names other files, so the input is read as a script placed in a small tree written once per run
//! (in the temporary folder): a reference and an animation SMD, a `.qci` that defines a variable and includes
//! nothing, and a Gothic `Anims` tree whose animation name is in two folders. Inputs that name those files
//! reach the loading, merging, cutting and renaming code behind the parsers. The first byte picks the
//! language (QC, MDS, MMS); the rest is the script.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use bonescope::io::{LoadOptions, script};
use bonescope::scene::Format;
use libfuzzer_sys::fuzz_target;

const REFERENCE_SMD: &str = "version 1\nnodes\n0 \"root\" -1\n1 \"head\" 0\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\n\
1 0 0 10 0 0 0\nend\ntriangles\nskin.bmp\n1 0 0 10 0 0 1 0 0\n1 1 0 10 0 0 1 1 0\n1 0 1 10 0 0 1 0 1\nend\n";

const WALK_SMD: &str = "version 1\nnodes\n0 \"root\" -1\n1 \"head\" 0\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\n\
time 1\n0 1 0 0 0 0 0\ntime 2\n0 2 0 0 0 0 0\n1 0 0 10 0 0 0\nend\n";

const QCI: &str =
    "// shared\n$definevariable anim walk\n$cdtexture \"../../textures\"\n$sequence shared $anim$ fps 10\n";

fn asc(first: i32, last: i32, mesh: bool) -> String {
    let tm = "\t*NODE_TM {\n\t\t*NODE_NAME \"Bip01\"\n\t\t*TM_ROW0 1 0 0\n\t\t*TM_ROW1 0 1 0\n\t\t*TM_ROW2 0 0 1\n\t\t\
              *TM_ROW3 0 0 0\n\t}\n";
    let mut s = format!(
        "*3DSMAX_ASCIIEXPORT\t110\n*COMMENT \"[ GothicSourcer v3.14 ]\"\n*SCENE {{\n\t*SCENE_FIRSTFRAME {first}\n\t\
         *SCENE_LASTFRAME {last}\n\t*SCENE_FRAMESPEED 25\n\t*SCENE_TICKSPERFRAME 192\n}}\n\
         *HELPEROBJECT {{\n\t*NODE_NAME \"Bip01\"\n{tm}"
    );
    if !mesh {
        s += "\t*TM_ANIMATION {\n\t\t*NODE_NAME \"Bip01\"\n\t\t*CONTROL_POS_TRACK {\n";
        for f in first..=last {
            s += &format!("\t\t\t*CONTROL_POS_SAMPLE {} {f} 0 0\n", first + (f - first) * 192);
        }
        s += "\t\t}\n\t}\n";
    }
    s += "}\n";
    if mesh {
        s += "*GEOMOBJECT {\n\t*NODE_NAME \"Body\"\n\t*NODE_PARENT \"Bip01\"\n\t*MESH {\n\t\t*TIMEVALUE 0\n\t\t\
              *MESH_NUMVERTEX 3\n\t\t*MESH_NUMFACES 1\n\t\t*MESH_VERTEX_LIST {\n\t\t\t*MESH_VERTEX 0 0 0 0\n\t\t\t\
              *MESH_VERTEX 1 10 0 0\n\t\t\t*MESH_VERTEX 2 0 10 0\n\t\t}\n\t\t*MESH_FACE_LIST {\n\t\t\t\
              *MESH_FACE 0: A: 0 B: 1 C: 2 AB: 1 BC: 1 CA: 1 *MESH_SMOOTHING 1 *MESH_MTLID 0\n\t\t}\n\t}\n}\n";
    }
    s
}

/// The tree the scripts are placed in: (QC path, MDS path), neither written (the input is the script).
fn tree() -> &'static (PathBuf, PathBuf) {
    static TREE: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    TREE.get_or_init(|| {
        let root = std::env::temp_dir().join(format!("bonescope-fuzz-scripts-{}", std::process::id()));
        let write = |relative: &str, text: &str| {
            let path = root.join(relative);
            if let Some(parent) = path.parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            let _ = std::fs::write(path, text);
        };
        write("models/m/ref.smd", REFERENCE_SMD);
        write("models/m/walk.smd", WALK_SMD);
        write("models/shared/inc.qci", QCI);
        write("textures/skin.bmp", "BM");
        write("Anims/ASC_BODIES/BODY.ASC", &asc(0, 0, true));
        write("Anims/ASC_ANIMS/M/RUN.ASC", &asc(0, 9, false));
        write("Anims/ASC_ANIMS/M_FUZZ/RUN.ASC", &asc(20, 29, false));
        (root.join("models/m/fuzz.qc"), root.join("Anims/MDS_OVERLAY/M_FUZZ.MDS"))
    })
}

fn read(format: Format, script: &[u8], path: &Path) {
    let _ = script::load(format, script, Some(path), &LoadOptions::default());
    let _ = script::plan(&bonescope::files::Files::disk(), format, script, path);
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, script)) = data.split_first() else { return };
    let (qc, mds) = tree();
    match pick % 3 {
        0 => read(Format::Qc, script, qc),
        1 => read(Format::Mds, script, mds),
        _ => read(Format::Mms, script, mds),
    }
    let _ = script::sniff(script);
});
