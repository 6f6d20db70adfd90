//! Materials: colours and the diffuse texture reference, with the path it was resolved to on disk (if any).

use std::path::PathBuf;

/// A texture as the file names it, and where it was found next to the model.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct TextureRef {
    /// The name exactly as written in the file.
    pub name: String,
    /// The file found for it, `None` when nothing matched (reported as a warning).
    pub path: Option<PathBuf>,
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
        }
    }
}

impl Material {
    pub fn named(name: impl Into<String>) -> Self {
        Self { name: name.into(), ..Self::default() }
    }
}
