//! Textures and skin families of a compiled GoldSrc model (`mstudiotexture_t`, the `short
//! skinref[families][refs]` table), from the model itself or from its texture file (`<name>T.mdl`, written by
//! QC `$externaltextures`).
//!
//! A texture is `width × height` palette indices (rows from the top, as the engine uploads them) followed by
//! its 256-colour RGB palette. Flags (studio.h `STUDIO_NF_*`): masked — palette index 255 is a hole (alpha 0,
//! drawn with an alpha test as the engine's `GL_ALPHA_TEST` does); additive — added onto what is behind;
//! chrome — environment mapped; flat shade and full bright — lighting. Other bits are Xash3D's extensions
//! (normal maps, half-float texture coordinates), named in a warning where they change what is shown.
//!
//! One material per texture. The skin table maps each mesh's skin reference to a texture per family: family 0
//! gives the materials the meshes are drawn with; every family becomes a [`SkinFamily`] saying which material
//! replaces which.

use super::header::{Header, TEXTURE_SIZE};
use crate::io::LoadError;
use crate::io::binary::{Reader, check_count, slice_at};
use crate::scene::{AlphaMode, Material, Position, SkinFamily, TexturePixels, TextureRef, Warning};

pub const STUDIO_NF_FLATSHADE: u32 = 0x0001;
pub const STUDIO_NF_CHROME: u32 = 0x0002;
pub const STUDIO_NF_FULLBRIGHT: u32 = 0x0004;
pub const STUDIO_NF_NOMIPS: u32 = 0x0008;
pub const STUDIO_NF_ALPHA: u32 = 0x0010;
pub const STUDIO_NF_ADDITIVE: u32 = 0x0020;
pub const STUDIO_NF_MASKED: u32 = 0x0040;
/// Xash3D: the texture is a normal map.
pub const STUDIO_NF_NORMALMAP: u32 = 0x0080;
/// Xash3D: texture coordinates are half floats instead of texel numbers.
pub const STUDIO_NF_UV_COORDS: u32 = 1 << 31;
/// Xash3D: set at load time by its engine.
pub const STUDIO_NF_COLORMAP: u32 = 1 << 30;

/// Largest side the engine's software and GL paths accept for a model texture (studiomdl writes up to 512;
/// HLAM allows larger imports): sides past this are refused as corrupt.
const MAX_SIDE: u32 = 8192;

/// One texture as the file describes it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextureInfo {
    pub name: String,
    pub flags: u32,
    pub width: u32,
    pub height: u32,
}

/// The textures and skin table of a model.
#[derive(Clone, Debug, Default)]
pub struct Textures {
    pub infos: Vec<TextureInfo>,
    pub materials: Vec<Material>,
    /// `skins[family][skinref]`: the texture (= material) index.
    pub skins: Vec<Vec<usize>>,
}

impl Textures {
    /// The material a mesh with skin reference `skinref` is drawn with by default (family 0).
    pub fn material_of(&self, skinref: usize) -> Option<usize> {
        self.skins.first().and_then(|f| f.get(skinref)).copied()
    }

    /// The skin families as the script description has them; empty for a model with one skin.
    pub fn families(&self) -> Vec<SkinFamily> {
        if self.skins.len() <= 1 {
            return Vec::new();
        }
        let base = &self.skins[0];
        // The slots some family changes (QC `$texturegroup` lists only those).
        let replaceable: Vec<usize> =
            (0..base.len()).filter(|&r| self.skins.iter().any(|f| f.get(r) != base.get(r))).collect();
        self.skins
            .iter()
            .map(|family| {
                let mut remap: Vec<usize> = (0..self.materials.len()).collect();
                for (r, &from) in base.iter().enumerate() {
                    if let (Some(&to), Some(slot)) = (family.get(r), remap.get_mut(from)) {
                        *slot = to;
                    }
                }
                let textures = replaceable
                    .iter()
                    .filter_map(|&r| family.get(r).and_then(|&t| self.infos.get(t)).map(|t| t.name.clone()))
                    .collect();
                SkinFamily { textures, remap, file: 0, line: 0 }
            })
            .collect()
    }
}

/// Reads the textures of `header` (the model's, or its texture file's) from `file`.
pub fn read(file: &[u8], header: &Header, warnings: &mut Vec<Warning>) -> Result<Textures, LoadError> {
    let mut r = header.textures.table(file, TEXTURE_SIZE, "the texture table")?;
    let count = header.textures.len("the texture table")?;
    let mut infos = Vec::with_capacity(count);
    let mut materials = Vec::with_capacity(count);
    let mut flagged: Vec<String> = Vec::new();
    for i in 0..count {
        let at = r.offset();
        let name = r.fixed_str(64, "a texture name")?;
        let flags = r.u32("a texture's flags")?;
        let width = r.i32("a texture's width")?;
        let height = r.i32("a texture's height")?;
        let index = r.i32("a texture's data offset")?;
        let side = |v: i32| u32::try_from(v).ok().filter(|v| (1..=MAX_SIDE).contains(v));
        let (Some(w), Some(h), Ok(index)) = (side(width), side(height), usize::try_from(index)) else {
            return Err(LoadError::at_byte(
                at,
                format!("texture {i} (\"{name}\"): {width} × {height} pixels at byte {index} is not a texture"),
            ));
        };
        let pixels = (w as usize) * (h as usize);
        let data = slice_at(file, index, pixels + 768).ok_or_else(|| {
            LoadError::truncated(
                index as u64,
                format!(
                    "texture {i} (\"{name}\"): {pixels} pixels and a 768-byte palette at byte {index} run past the end of the file at byte {}",
                    file.len()
                ),
            )
        })?;
        let (indices, palette) = data.split_at(pixels);
        let masked = flags & STUDIO_NF_MASKED != 0;
        // Bounded by the file: the pixels were just found in it.
        let mut rgba = Vec::with_capacity(pixels * 4);
        for &p in indices {
            let c = usize::from(p) * 3;
            rgba.extend_from_slice(&palette[c..c + 3]);
            rgba.push(if masked && p == 255 { 0 } else { 255 });
        }
        let known = STUDIO_NF_FLATSHADE
            | STUDIO_NF_CHROME
            | STUDIO_NF_FULLBRIGHT
            | STUDIO_NF_NOMIPS
            | STUDIO_NF_ALPHA
            | STUDIO_NF_ADDITIVE
            | STUDIO_NF_MASKED
            | STUDIO_NF_UV_COORDS;
        if flags & STUDIO_NF_NORMALMAP != 0 {
            flagged.push(format!("\"{name}\" is a normal map (Xash3D): shown as a colour texture"));
        }
        if flags & !known & !STUDIO_NF_NORMALMAP & !STUDIO_NF_COLORMAP != 0 {
            flagged.push(format!("\"{name}\" has flags {:#x} bonescope does not know: ignored", flags & !known));
        }
        if flags & STUDIO_NF_ALPHA != 0 && !masked && flags & STUDIO_NF_ADDITIVE == 0 {
            flagged.push(format!(
                "\"{name}\" asks for alpha blending, which GoldSrc textures have no alpha for: drawn opaque"
            ));
        }
        let alpha = if flags & STUDIO_NF_ADDITIVE != 0 {
            AlphaMode::Additive
        } else if masked {
            AlphaMode::Mask { cutoff: 0.5 }
        } else {
            AlphaMode::Opaque
        };
        materials.push(Material {
            diffuse: [1.0, 1.0, 1.0, 1.0],
            texture: Some(TextureRef::embedded(name.clone(), TexturePixels { width: w, height: h, rgba })),
            alpha,
            chrome: flags & STUDIO_NF_CHROME != 0,
            flat_shade: flags & STUDIO_NF_FLATSHADE != 0,
            fullbright: flags & STUDIO_NF_FULLBRIGHT != 0,
            ..Material::named(name.clone())
        });
        infos.push(TextureInfo { name, flags, width: w, height: h });
    }
    if !flagged.is_empty() {
        warnings.push(Warning::new(Position::Byte(header.textures.at), format!("textures: {}", flagged.join("; "))));
    }
    let skins = read_skins(file, header, count)?;
    Ok(Textures { infos, materials, skins })
}

/// The skin table: `numskinfamilies × numskinref` shorts, each a texture index.
fn read_skins(file: &[u8], header: &Header, textures: usize) -> Result<Vec<Vec<usize>>, LoadError> {
    let at = header.skin_at;
    let (families, refs) = (header.skin_families, header.skin_refs);
    let (Ok(families), Ok(refs)) = (usize::try_from(families), usize::try_from(refs)) else {
        return Err(LoadError::at_byte(at, format!("{families} skin families of {refs} references")));
    };
    if families == 0 || refs == 0 {
        return Ok(Vec::new());
    }
    let cells = (families as u64).saturating_mul(refs as u64);
    let Ok(offset) = usize::try_from(header.skin_index) else {
        return Err(LoadError::at_byte(at + 8, format!("the skin table offset is {}", header.skin_index)));
    };
    let rest = file.get(offset..).ok_or_else(|| {
        LoadError::truncated(offset as u64, format!("the skin table at byte {offset} is past the end of the file"))
    })?;
    let mut r = Reader::with_base(rest, offset as u64);
    check_count(r.remaining(), offset as u64, cells, 2, "the skin table")?;
    let mut skins = Vec::with_capacity(families);
    for f in 0..families {
        let mut row = Vec::with_capacity(refs);
        for s in 0..refs {
            let cell_at = r.offset();
            let t = r.i16("a skin table entry")?;
            match usize::try_from(t).ok().filter(|&t| t < textures) {
                Some(t) => row.push(t),
                None => {
                    return Err(LoadError::at_byte(
                        cell_at,
                        format!("skin family {f}, reference {s}: texture {t}, but the file has {textures}"),
                    ));
                }
            }
        }
        skins.push(row);
    }
    Ok(skins)
}
