//! Source characters show their textures: a QC's `$cdmaterials` folders are found under a `materials` folder
//! above the sources tree, each mesh material's `.vmt` names its `$basetexture`, and the `.vtf` decodes to the
//! pixels written here. The VTF files are built in the test (header, thumbnail, every mip level, smallest
//! first), as VTF 7.2 and 7.4.

use std::path::{Path, PathBuf};
use std::process::Command;

use bonescope::io::{self, LoadOptions};
use bonescope::scene::{Asset, TextureFolder};

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-source-materials-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(path: &Path, bytes: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// A VTF of version 7.`minor` (a resource directory from 7.3 on) with a 1×1 DXT1 thumbnail and `levels`, the
/// smallest first, as VTF stores them.
fn vtf(minor: u32, format: i32, width: u16, height: u16, levels: &[Vec<u8>]) -> Vec<u8> {
    let header_size: u32 = if minor >= 3 { 96 } else { 80 };
    let mut b = b"VTF\0".to_vec();
    for v in [7, minor, header_size] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.extend_from_slice(&width.to_le_bytes());
    b.extend_from_slice(&height.to_le_bytes());
    b.extend_from_slice(&0x2000u32.to_le_bytes()); // flags: eight-bit alpha (read, not needed)
    b.extend_from_slice(&1u16.to_le_bytes()); // frames
    b.extend_from_slice(&0u16.to_le_bytes()); // first frame
    b.extend_from_slice(&[0; 4 + 12 + 4]); // padding, reflectivity, padding
    b.extend_from_slice(&1f32.to_le_bytes()); // bump scale
    b.extend_from_slice(&format.to_le_bytes());
    b.push(levels.len() as u8);
    b.extend_from_slice(&13i32.to_le_bytes()); // thumbnail format: DXT1
    b.extend_from_slice(&[1, 1]);
    b.extend_from_slice(&1u16.to_le_bytes()); // depth
    if minor >= 3 {
        b.extend_from_slice(&[0; 3]);
        b.extend_from_slice(&2u32.to_le_bytes());
        b.extend_from_slice(&[0; 8]);
        b.extend_from_slice(&[0x01, 0, 0, 0]);
        b.extend_from_slice(&header_size.to_le_bytes());
        b.extend_from_slice(&[0x30, 0, 0, 0]);
        b.extend_from_slice(&(header_size + 8).to_le_bytes());
    }
    b.resize(header_size as usize, 0);
    b.extend_from_slice(&[0; 8]); // the thumbnail
    for level in levels {
        b.extend_from_slice(level);
    }
    b
}

/// A DXT1 block of one colour (RGB565).
fn dxt1_block(colour: u16) -> Vec<u8> {
    let mut block = colour.to_le_bytes().to_vec();
    block.extend_from_slice(&0u16.to_le_bytes());
    block.extend_from_slice(&[0; 4]);
    block
}

const RED: u16 = 0xF800;
const BLUE: u16 = 0x001F;
const GREEN: u16 = 0x07E0;

/// 8×4 DXT1, left block red, right block blue; the smaller levels green (never to be seen).
fn skin_vtf() -> Vec<u8> {
    let small = || dxt1_block(GREEN);
    vtf(4, 13, 8, 4, &[small(), small(), small(), [dxt1_block(RED), dxt1_block(BLUE)].concat()])
}

/// A reference SMD with one triangle per material name.
fn reference_smd(materials: &[&str]) -> String {
    let mut s = String::from("version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\ntriangles\n");
    for m in materials {
        s += &format!("{m}\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1\n");
    }
    s + "end\n"
}

/// `root/sources/models/x/x.qc` and its SMD; `root/materials/models/x/…` and `root/materials/models/shared/…`.
fn source_tree(root: &Path) -> PathBuf {
    let qc = root.join("sources/models/x/x.qc");
    write(
        &qc,
        "$modelname \"x/x.mdl\"\n$cdmaterials \"models/x/\"\n$cdmaterials \"models\\shared\"\n\
         $body studio \"ref\"\n$sequence idle \"ref\"\n",
    );
    write(&root.join("sources/models/x/ref.smd"), reference_smd(&["skin", "Eyes.bmp", "hair.tga", "nothing"]));
    let materials = root.join("materials");
    write(
        &materials.join("models/x/Skin.VMT"),
        "// the body\n\"VertexLitGeneric\"\n{\n\t\"$basetexture\" \"models\\x\\skin\"\n\t\"$bumpmap\" \"models/x/skin_n\"\n}\n",
    );
    write(&materials.join("models/x/skin.vtf"), skin_vtf());
    // A patch of the body whose own texture is a format the viewer cannot decode.
    write(
        &materials.join("models/shared/eyes.vmt"),
        "patch\n{\n\tinclude \"materials/models/x/skin.vmt\"\n\treplace\n\t{\n\t\t\"$basetexture\" \"models/shared/eyes.vtf\"\n\t}\n}\n",
    );
    write(&materials.join("models/shared/eyes.vtf"), vtf(2, 24, 1, 1, &[vec![0; 8]]));
    // A patch that only adds a parameter: its texture is the included material's.
    write(
        &materials.join("models/shared/hair.vmt"),
        "patch { include materials/models/x/skin.vmt insert { $phong 1 } }",
    );
    qc
}

fn load(qc: &Path) -> Asset {
    io::load_path(qc, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn cdmaterials_find_the_vmt_and_its_vtf_in_a_materials_folder_above_the_sources() {
    let root = temp_dir("tree");
    let qc = source_tree(&root);
    let asset = load(&qc);
    let materials = root.join("materials");
    let texture = |name: &str| {
        let m = asset.materials.iter().find(|m| m.name.eq_ignore_ascii_case(name)).unwrap_or_else(|| panic!("{name}"));
        m.texture.clone().unwrap()
    };
    let skin = texture("skin");
    assert_eq!(skin.path, Some(materials.join("models/x/skin.vtf")), "{skin:?}");
    assert_eq!(skin.found_in, Some(TextureFolder::SourceMaterial));
    assert_eq!(skin.material_file, Some(materials.join("models/x/Skin.VMT")));
    assert!(skin.tried.contains(&"skin.vmt".to_owned()) && skin.tried.contains(&"models/x/skin.vtf".to_owned()));
    assert!(skin.searched.contains(&materials.join("models/x")), "{:?}", skin.searched);

    let eyes = texture("Eyes.bmp");
    assert_eq!(eyes.path, Some(materials.join("models/shared/eyes.vtf")), "{eyes:?}");
    assert_eq!(eyes.material_file, Some(materials.join("models/shared/eyes.vmt")));
    let hair = texture("hair.tga");
    assert_eq!(hair.path, Some(materials.join("models/x/skin.vtf")), "the included material's texture");

    // Not there: the search says where it looked.
    let nothing = texture("nothing");
    assert_eq!(nothing.path, None);
    assert!(nothing.tried.contains(&"nothing.vmt".to_owned()), "{nothing:?}");
    assert!(nothing.searched.contains(&materials.join("models/x")));
    assert!(nothing.searched.contains(&materials.join("models/shared")));

    // The unsupported format is a warning naming it, on that material and in the texture's file.
    let said: Vec<String> = asset.warnings.iter().map(ToString::to_string).collect();
    let unsupported = asset
        .warnings
        .iter()
        .find(|w| w.message.contains("VTF format RGBA16161616F is not supported"))
        .unwrap_or_else(|| panic!("{said:?}"));
    assert!(unsupported.message.starts_with("material 'Eyes.bmp'"), "{unsupported}");
    assert_eq!(unsupported.file.as_deref(), Some(materials.join("models/shared/eyes.vtf").as_path()));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_vtf_of_a_material_decodes_to_its_largest_mip() {
    let root = temp_dir("decode");
    let qc = source_tree(&root);
    let asset = load(&qc);
    let path = asset.materials.iter().find_map(|m| m.texture.as_ref()?.path.clone()).unwrap();
    let image = io::vtf::decode(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!((image.width, image.height), (8, 4));
    let px = |x: usize, y: usize| image.rgba[(y * 8 + x) * 4..(y * 8 + x) * 4 + 4].to_vec();
    assert_eq!(px(0, 0), [255, 0, 0, 255]);
    assert_eq!(px(3, 3), [255, 0, 0, 255]);
    assert_eq!(px(4, 0), [0, 0, 255, 255]);
    assert_eq!(px(7, 3), [0, 0, 255, 255]);
    // The same texture as 7.2 (no resource directory): same pixels.
    let old = vtf(
        2,
        13,
        8,
        4,
        &[dxt1_block(GREEN), dxt1_block(GREEN), dxt1_block(GREEN), { [dxt1_block(RED), dxt1_block(BLUE)].concat() }],
    );
    assert_eq!(io::vtf::decode(&old).unwrap(), image);
    let _ = std::fs::remove_dir_all(&root);
}

/// The renderer's texture path: the VTF decodes as a TGA or PNG does, and the unsupported one is a checker
/// with the warning that names its format.
#[cfg(feature = "gui")]
#[test]
fn the_renderer_decodes_vtf_and_shows_a_checker_for_an_unsupported_format() {
    use bonescope::render::textures;
    let root = temp_dir("render");
    let qc = source_tree(&root);
    let materials = root.join("materials");
    let image = textures::decode(&bonescope::files::Files::disk(), &materials.join("models/x/skin.vtf")).unwrap();
    assert_eq!(image.dimensions(), (8, 4));
    assert_eq!(image.get_pixel(5, 2).0, [0, 0, 255, 255]);
    let (tex, warning) = textures::load_or_checker(
        &bonescope::files::Files::disk(),
        Some(&materials.join("models/shared/eyes.vtf")),
        "Eyes.bmp",
        4096,
    );
    assert!(tex.placeholder);
    assert!(warning.unwrap().contains("cannot decode: VTF format RGBA16161616F is not supported"));
    drop(qc);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn info_says_where_each_texture_was_found_and_which_material_named_it() {
    let root = temp_dir("info");
    let qc = source_tree(&root);
    let out = Command::new(env!("CARGO_BIN_EXE_bonescope")).args(["info", qc.to_str().unwrap()]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let vtf = root.join("materials/models/x/skin.vtf");
    let vmt = root.join("materials/models/x/Skin.VMT");
    assert!(
        text.contains(&format!(
            "texture skin → {} (through the Source material in the game's materials folder, named by {})",
            vtf.display(),
            vmt.display()
        )),
        "{text}"
    );
    assert!(text.contains("VTF format RGBA16161616F is not supported"), "{text}");
    assert!(text.contains("texture nothing (not found; tried nothing"), "{text}");
    assert!(
        text.contains("no texture file found next to the model or in the texture folders for 1 material(s): nothing"),
        "only the one still missing: {text}"
    );
    let out =
        Command::new(env!("CARGO_BIN_EXE_bonescope")).args(["info", "--json", qc.to_str().unwrap()]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["script"]["material_dirs"], serde_json::json!(["models/x/", "models\\shared"]));
    let skin = v[0]["materials"].as_array().unwrap().iter().find(|m| m["name"] == "skin").unwrap();
    assert_eq!(skin["texture_material"], vmt.to_str().unwrap());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_users_texture_folder_serves_as_a_materials_folder() {
    // No `materials` above the QC: the game's folder given with --textures.
    let root = temp_dir("user");
    let qc = root.join("src/x.qc");
    write(&qc, "$cdmaterials models/x\n$body studio ref\n");
    write(&root.join("src/ref.smd"), reference_smd(&["skin"]));
    let game = root.join("game");
    write(&game.join("materials/models/x/skin.vmt"), "VertexLitGeneric { $basetexture models/x/skin }");
    write(&game.join("materials/models/x/skin.vtf"), skin_vtf());
    let plain = load(&qc);
    assert_eq!(plain.materials[0].texture.as_ref().unwrap().path, None);
    assert!(
        plain.warnings.iter().any(|w| w.message.contains("no `materials` folder above the script")),
        "{:?}",
        plain.warnings
    );
    let opts = LoadOptions { texture_dirs: vec![game.clone()], ..LoadOptions::default() };
    let asset = io::load_path(&qc, &opts).unwrap();
    let skin = asset.materials[0].texture.as_ref().unwrap();
    assert_eq!(skin.path, Some(game.join("materials/models/x/skin.vtf")), "{skin:?}");
    assert!(!asset.warnings.iter().any(|w| w.message.contains("no texture file found")), "{:?}", asset.warnings);
    let _ = std::fs::remove_dir_all(&root);
}

/// A QC whose textures lie beside it as `.vtf` files, with no `.vmt` anywhere (a decompiled model's folder):
/// the VTF is the texture, from beside the SMD or beside the QC; where a `.vmt` names a texture too, the
/// material's wins.
#[test]
fn a_vtf_beside_the_qc_or_the_smd_is_the_texture_when_no_vmt_names_one() {
    let root = temp_dir("vtf-only");
    let qc = root.join("trooper/trooper.qc");
    write(&qc, "$modelname trooper.mdl\n$body studio \"meshes/ref\"\n$sequence idle \"meshes/ref\"\n");
    // Materials named as studiomdl writes them (a `.bmp` name) and bare.
    write(&root.join("trooper/meshes/ref.smd"), reference_smd(&["trooper_body.bmp", "trooper_head", "visor"]));
    write(&root.join("trooper/meshes/trooper_body.vtf"), skin_vtf());
    write(&root.join("trooper/Trooper_Head.VTF"), skin_vtf());
    let asset = load(&qc);
    let texture = |name: &str| asset.materials.iter().find(|m| m.name == name).unwrap().texture.clone().unwrap();
    let body = texture("trooper_body.bmp");
    assert_eq!(body.path, Some(root.join("trooper/meshes/trooper_body.vtf")), "{body:?}");
    assert_eq!(body.found_in, Some(TextureFolder::NextToFile));
    let head = texture("trooper_head");
    assert_eq!(head.path, Some(root.join("trooper/Trooper_Head.VTF")), "{head:?}");
    assert_eq!(head.found_in, Some(TextureFolder::NextToScript));
    let visor = texture("visor");
    assert_eq!(visor.path, None);
    assert!(visor.tried.contains(&"visor.vtf".to_owned()), "{visor:?}");
    assert!(
        asset.warnings.iter().any(|w| w.message.contains("for 1 material(s): visor")),
        "only the visor is missing: {:?}",
        asset.warnings
    );
    // It decodes: the red and blue halves written.
    let image = io::vtf::decode(&std::fs::read(body.path.unwrap()).unwrap()).unwrap();
    assert_eq!((image.width, image.height), (8, 4));

    // An SMD opened alone finds its VTF beside it too.
    let smd = io::load_path(&root.join("trooper/meshes/ref.smd"), &LoadOptions::default()).unwrap();
    let alone = smd.materials.iter().find(|m| m.name == "trooper_body.bmp").unwrap().texture.clone().unwrap();
    assert_eq!(alone.path, Some(root.join("trooper/meshes/trooper_body.vtf")));

    // With `$cdmaterials` and a `.vmt` naming another texture, the material's texture is taken.
    write(&qc, "$modelname trooper.mdl\n$cdmaterials models/trooper\n$body studio \"meshes/ref\"\n");
    write(
        &root.join("materials/models/trooper/trooper_body.vmt"),
        "VertexLitGeneric { $basetexture models/trooper/body_hd }",
    );
    write(&root.join("materials/models/trooper/body_hd.vtf"), skin_vtf());
    let with_vmt = load(&qc);
    let body = with_vmt.materials.iter().find(|m| m.name == "trooper_body.bmp").unwrap().texture.clone().unwrap();
    assert_eq!(body.path, Some(root.join("materials/models/trooper/body_hd.vtf")), "{body:?}");
    assert_eq!(body.found_in, Some(TextureFolder::SourceMaterial));
    let _ = std::fs::remove_dir_all(&root);
}
