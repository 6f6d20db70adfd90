//! Fuzz target: compiled model scripts (MSB) must read into a script and a character, or fail with an error,
//! for any bytes — never panic, hang or allocate without bound. The input is placed as `_COMPILED/FUZZ.MSB` in a
//! small Gothic tree held in memory (a body and an animation ASC in `ASC_*` folders), so inputs naming those
//! files reach the character building behind the reader; `plan` (what `check` runs) reads it too.
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use bonescope::io::{Files, LoadOptions, MemoryFiles, script, zengin};
use bonescope::scene::Format;
use libfuzzer_sys::fuzz_target;

fn asc(first: i32, last: i32, mesh: bool) -> String {
    let mut s = format!(
        "*3DSMAX_ASCIIEXPORT\t110\n*SCENE {{\n\t*SCENE_FIRSTFRAME {first}\n\t*SCENE_LASTFRAME {last}\n\t\
         *SCENE_FRAMESPEED 25\n\t*SCENE_TICKSPERFRAME 192\n}}\n*HELPEROBJECT {{\n\t*NODE_NAME \"Bip01\"\n\t\
         *NODE_TM {{\n\t\t*NODE_NAME \"Bip01\"\n\t\t*TM_ROW0 1 0 0\n\t\t*TM_ROW1 0 1 0\n\t\t*TM_ROW2 0 0 1\n\t\t\
         *TM_ROW3 0 0 0\n\t}}\n"
    );
    if !mesh {
        s += "\t*TM_ANIMATION {\n\t\t*NODE_NAME \"Bip01\"\n\t\t*CONTROL_POS_TRACK {\n";
        for f in first..=last {
            s += &format!("\t\t\t*CONTROL_POS_SAMPLE {} {f} 0 0\n", f * 192);
        }
        s += "\t\t}\n\t}\n";
    }
    s += "}\n";
    if mesh {
        s += "*GEOMOBJECT {\n\t*NODE_NAME \"Body\"\n\t*NODE_PARENT \"Bip01\"\n\t*MESH {\n\t\t*MESH_NUMVERTEX 3\n\t\t\
              *MESH_NUMFACES 1\n\t\t*MESH_VERTEX_LIST {\n\t\t\t*MESH_VERTEX 0 0 0 0\n\t\t\t*MESH_VERTEX 1 10 0 0\n\t\t\t\
              *MESH_VERTEX 2 0 10 0\n\t\t}\n\t\t*MESH_FACE_LIST {\n\t\t\t*MESH_FACE 0: A: 0 B: 1 C: 2\n\t\t}\n\t}\n}\n";
    }
    s
}

fn tree() -> &'static Files {
    static TREE: OnceLock<Files> = OnceLock::new();
    TREE.get_or_init(|| {
        let files = MemoryFiles::new();
        files.insert("/Anims/ASC_BODIES/BODY.ASC", asc(0, 0, true).into_bytes());
        files.insert("/Anims/ASC_ANIMS/FUZZ/RUN.ASC", asc(0, 9, false).into_bytes());
        Files::new(files)
    })
}

fuzz_target!(|data: &[u8]| {
    let _ = zengin::msb::parse(data);
    let path = Path::new("/Anims/_COMPILED/FUZZ.MSB");
    let opts = LoadOptions { files: tree().clone(), base_dir: Some("/Anims/_COMPILED".into()), ..LoadOptions::default() };
    let _ = script::load(Format::ZenMsb, data, Some(path), &opts);
    let _ = script::plan(tree(), Format::ZenMsb, data, path);
});
