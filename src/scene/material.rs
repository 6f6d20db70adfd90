//! Materials: colours and the diffuse texture reference, with the path it was resolved to on disk (if any) or
//! the pixels the model file itself holds (compiled models embed their textures), and how the surface is drawn
//! where the format says more than "opaque" (masked, additive, chrome).

use std::path::PathBuf;
use std::sync::Arc;

/// Decoded RGBA pixels of a texture held inside a model file (a GoldSrc MDL's 8-bit indexed textures), rows
/// from the top, 4 bytes per pixel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TexturePixels {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

/// A texture as the file names it, where it was found, and what was searched for it.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct TextureRef {
    /// The name exactly as written in the file.
    pub name: String,
    /// The file found for it, `None` when nothing matched (reported as a warning).
    pub path: Option<PathBuf>,
    /// Which kind of folder `path` is in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found_in: Option<TextureFolder>,
    /// The folders searched, in order (up to the one it was found in).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub searched: Vec<PathBuf>,
    /// The file names tried in each folder (case-insensitively), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tried: Vec<String>,
    /// The Source material (`.vmt`) whose `$basetexture` named `path`, when it was found through one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub material_file: Option<PathBuf>,
    /// The image itself when the model file holds it (no file to find): the renderer, the web page and the
    /// glTF export use these pixels instead of reading `path`.
    #[serde(skip)]
    pub pixels: Option<Arc<TexturePixels>>,
}

impl TextureRef {
    /// A texture named `name` found at `path` (or not), with nothing recorded about the search.
    pub fn new(name: impl Into<String>, path: Option<PathBuf>) -> Self {
        Self { name: name.into(), path, ..Self::default() }
    }

    /// A texture the model file holds: `name` as the file names it, the decoded pixels.
    pub fn embedded(name: impl Into<String>, pixels: TexturePixels) -> Self {
        Self { name: name.into(), pixels: Some(Arc::new(pixels)), ..Self::default() }
    }

    /// True when there is an image to show: embedded pixels or a file that was found.
    pub fn is_available(&self) -> bool {
        self.pixels.is_some() || self.path.is_some()
    }
}

/// How a material's texture alpha is used when drawing.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AlphaMode {
    /// Drawn opaque; the texture's alpha is ignored.
    #[default]
    Opaque,
    /// Pixels whose alpha is below `cutoff` are not drawn (GoldSrc "masked": palette index 255 is a hole).
    Mask { cutoff: f32 },
    /// Added onto what is behind, without writing depth (GoldSrc "additive": glows, flames).
    Additive,
}

/// The kinds of folder a texture is looked for in, in the order they are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TextureFolder {
    /// The folder of the file that names the texture.
    NextToFile,
    /// A folder the user gave (`--textures DIR`, the viewer's Settings).
    User,
    /// A texture folder of the model script (QC `$cdtexture`).
    ModelScript,
    /// The model script's own folder (a QC's textures often lie beside it, as its SMDs do).
    NextToScript,
    /// A game's `materials` folder, through the `.vmt` material in a QC `$cdmaterials` folder.
    SourceMaterial,
    /// Not in any of those folders, but the only file of that name among the files given (files dropped on the
    /// web page without their folders).
    ByName,
    /// By its name anywhere in the VDFS volume the model is in, as the engine finds files in volumes.
    Volume,
    /// The TGA being absent, the engine's compiled texture (`NAME-C.TEX`) in a `_compiled` folder or a volume.
    Compiled,
}

impl TextureFolder {
    pub fn label(self) -> &'static str {
        match self {
            TextureFolder::NextToFile => "next to the file",
            TextureFolder::User => "in a texture folder of yours",
            TextureFolder::ModelScript => "in the model script's texture folder",
            TextureFolder::NextToScript => "next to the model script",
            TextureFolder::SourceMaterial => "through the Source material in the game's materials folder",
            TextureFolder::ByName => "by its name among the files given",
            TextureFolder::Volume => "by its name in the VDFS volume",
            TextureFolder::Compiled => "as the engine's compiled texture (-C.TEX), the TGA being absent",
        }
    }
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Material {
    pub name: String,
    pub diffuse: [f32; 4],
    pub ambient: [f32; 3],
    pub specular: [f32; 3],
    pub texture: Option<TextureRef>,
    /// Applied to texture coordinates: `uv * tiling + offset`.
    pub uv_offset: [f32; 2],
    pub uv_tiling: [f32; 2],
    pub two_sided: bool,
    /// How the texture's alpha is used.
    #[serde(skip_serializing_if = "is_opaque")]
    pub alpha: AlphaMode,
    /// Environment-mapped ("chrome"): texture coordinates come from the surface normal as seen from the eye,
    /// not from the mesh (GoldSrc `STUDIO_NF_CHROME`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub chrome: bool,
    /// Lit without the light's direction: one even shade (GoldSrc `STUDIO_NF_FLATSHADE`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub flat_shade: bool,
    /// Not lit at all: the texture at full brightness (GoldSrc `STUDIO_NF_FULLBRIGHT`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fullbright: bool,
}

fn is_opaque(mode: &AlphaMode) -> bool {
    *mode == AlphaMode::Opaque
}

impl Default for Material {
    fn default() -> Self {
        Self {
            name: String::new(),
            diffuse: [0.8, 0.8, 0.8, 1.0],
            ambient: [0.2, 0.2, 0.2],
            specular: [0.0, 0.0, 0.0],
            texture: None,
            uv_offset: [0.0, 0.0],
            uv_tiling: [1.0, 1.0],
            two_sided: false,
            alpha: AlphaMode::Opaque,
            chrome: false,
            flat_shade: false,
            fullbright: false,
        }
    }
}

impl Material {
    pub fn named(name: impl Into<String>) -> Self {
        Self { name: name.into(), ..Self::default() }
    }
}
