//! The QC commands that describe the same things a compiled GoldSrc model's tables do, read into the same
//! description so a QC and the MDL studiomdl made of it describe one character: `$controller` (bone
//! controllers, the sliders of HLMV) and `$texturegroup` (skin families).
//!
//! `$controller index|mouth bone type start end` as studiomdl's `Cmd_Controller` reads it (`mouth` is index 4;
//! the type is `X` … `ZR`; a rotation whose start and end are the same angle wraps round, `STUDIO_RLOOP`).
//! `$texturegroup name { { a b … } { c d … } … }` as `Cmd_TextureGroup`: the first row is the default skin's
//! textures, each further row replaces them one for one. The rows' textures are matched to the character's
//! materials by name once the meshes are in ([`apply_skin_families`]): a replacement no mesh uses becomes a
//! material of its own, its texture looked up as the meshes' are.

use crate::io::LoadOptions;
use crate::io::textures::find_texture;
use crate::scene::{Asset, BoneController, ControllerChannel, Material, SkinFamily, Warning};

/// A `$controller` line's arguments (after the command).
pub fn controller(args: &[&str], file: usize, line: usize) -> Result<BoneController, String> {
    let [index, bone, kind, start, end, ..] = args else {
        return Err("needs an index (or `mouth`), a bone, a channel (X … ZR) and a range".to_owned());
    };
    let index = if index.eq_ignore_ascii_case("mouth") {
        4
    } else {
        index.parse::<i32>().map_err(|_| format!("\"{index}\" is not a controller index"))?
    };
    let channel = ControllerChannel::parse(kind)
        .ok_or_else(|| format!("\"{kind}\" is not a bone channel (X, Y, Z, XR, YR, ZR)"))?;
    let number =
        |w: &str| w.parse::<f32>().ok().filter(|v| v.is_finite()).ok_or_else(|| format!("\"{w}\" is not a number"));
    let (start, end) = (number(start)?, number(end)?);
    // studiomdl: a rotation whose ends are the same angle is a full turn.
    let wraps = channel.is_rotation() && (start as i32 + 360) % 360 == (end as i32 + 360) % 360;
    Ok(BoneController { index, bone: (*bone).to_owned(), channel, start, end, wraps, bone_angles: None, file, line })
}

/// The rows of a `$texturegroup` block (textures and the line each row starts on) as skin families whose
/// `remap` is left empty until the materials are known.
pub fn skin_families(rows: Vec<(Vec<String>, usize)>, file: usize) -> Result<Vec<SkinFamily>, String> {
    let Some(width) = rows.first().map(|(r, _)| r.len()) else { return Err("the block lists no skins".to_owned()) };
    if let Some((_, line)) = rows.iter().find(|(r, _)| r.len() != width) {
        return Err(format!(
            "the skin on line {line} lists another number of textures than the first ({width}); studiomdl replaces one for one"
        ));
    }
    Ok(rows.into_iter().map(|(textures, line)| SkinFamily { textures, remap: Vec::new(), file, line }).collect())
}

/// Matches the skin families' textures to the character's materials (by name, any case, extension optional)
/// and fills each family's `remap`; a texture no mesh uses becomes a new material whose texture is looked up
/// next to the meshes and in `texture_dirs`.
pub fn apply_skin_families(
    character: &mut Asset,
    families: &mut [SkinFamily],
    texture_dirs: &[std::path::PathBuf],
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) {
    if families.is_empty() {
        return;
    }
    let base = families[0].textures.clone();
    let material_of = |name: &str, character: &mut Asset| -> usize {
        let stem = |s: &str| std::path::Path::new(s).file_stem().map(|x| x.to_string_lossy().to_lowercase());
        let found = character.materials.iter().position(|m| m.name.eq_ignore_ascii_case(name)).or_else(|| {
            character.materials.iter().position(|m| stem(&m.name).is_some() && stem(&m.name) == stem(name))
        });
        found.unwrap_or_else(|| {
            let texture = find_texture(opts, name, texture_dirs);
            character.materials.push(Material { texture: Some(texture), ..Material::named(name) });
            character.materials.len() - 1
        })
    };
    let base_materials: Vec<usize> = base.iter().map(|t| material_of(t, character)).collect();
    let mut unused = Vec::new();
    for (t, &m) in base.iter().zip(&base_materials) {
        let used = character.meshes.iter().any(|mesh| mesh.subsets.iter().any(|s| s.material == m));
        if !used {
            unused.push(t.clone());
        }
    }
    let targets: Vec<Vec<usize>> =
        families.iter().map(|f| f.textures.iter().map(|t| material_of(t, character)).collect()).collect();
    let count = character.materials.len();
    for (family, targets) in families.iter_mut().zip(targets) {
        let mut remap: Vec<usize> = (0..count).collect();
        for (&from, to) in base_materials.iter().zip(targets) {
            remap[from] = to;
        }
        family.remap = remap;
    }
    if !unused.is_empty() {
        warnings.push(Warning::new(
            format!("line {}", families[0].line),
            format!(
                "`$texturegroup`: the default skin names {} no mesh uses, so switching skins does not change it",
                unused.join(", ")
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Mesh, Subset};

    #[test]
    fn controllers_read_as_studiomdl_reads_them() {
        let c = controller(&["0", "Neck", "YR", "-60", "60"], 0, 3).unwrap();
        assert_eq!((c.index, c.channel, c.start, c.end, c.wraps), (0, ControllerChannel::YR, -60.0, 60.0, false));
        let turret = controller(&["1", "Gun", "ZR", "0", "360"], 0, 4).unwrap();
        assert!(turret.wraps, "0 and 360 are the same angle: a full turn");
        assert_eq!(controller(&["mouth", "Jaw", "XR", "0", "30"], 0, 5).unwrap().index, 4);
        assert!(controller(&["0", "Neck", "QR", "0", "1"], 0, 6).unwrap_err().contains("QR"));
        assert!(controller(&["0", "Neck"], 0, 7).is_err());
    }

    #[test]
    fn skin_families_map_materials_one_for_one_and_add_replacements() {
        let materials = vec![Material::named("Body.bmp"), Material::named("Face.bmp"), Material::named("Eyes.bmp")];
        let mut character = Asset { materials, ..Asset::default() };
        character.meshes.push(Mesh {
            subsets: (0..3).map(|m| Subset { material: m, first_index: 0, index_count: 0 }).collect(),
            ..Mesh::default()
        });
        let rows = vec![
            (vec!["body.bmp".to_owned(), "face".to_owned()], 2),
            (vec!["Body2.bmp".to_owned(), "Face2.bmp".to_owned()], 3),
        ];
        let mut families = skin_families(rows, 0).unwrap();
        let mut warnings = Vec::new();
        let opts =
            LoadOptions { files: crate::files::Files::new(crate::files::MemoryFiles::new()), ..LoadOptions::default() };
        apply_skin_families(&mut character, &mut families, &[], &opts, &mut warnings);
        assert_eq!(character.materials.len(), 5, "the two replacements are materials now");
        assert_eq!(families[0].remap, [0, 1, 2, 3, 4]);
        assert_eq!(families[1].remap, [3, 4, 2, 3, 4], "body and face replaced, eyes kept");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert!(skin_families(vec![(vec!["a".into()], 1), (vec![], 2)], 0).is_err());
    }
}
