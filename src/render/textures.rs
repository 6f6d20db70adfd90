//! Material textures: decoding the files a loader resolved (`image` crate: TGA, BMP, PNG, JPEG, DDS; Source
//! VTF through [`crate::io::vtf`]; ZenGin `-C.TEX` through [`crate::io::zengin::tex`]), a mip chain made on the CPU, and the checker shown when a named texture is missing or unreadable (with a warning
//! that says which). Owns texture creation only; samplers and bind groups live with the pipelines.

use std::path::Path;

use crate::files::Files;

use image::{RgbaImage, imageops::FilterType};

/// The pixels of one material texture, decoded and ready for upload (level 0 first).
pub struct TextureImage {
    pub levels: Vec<RgbaImage>,
    /// True when this is the stand-in checker.
    pub placeholder: bool,
}

/// Side of the checker texture and of one square, in pixels.
const CHECKER_SIZE: u32 = 64;
const CHECKER_SQUARE: u32 = 8;

/// Grey / light-grey squares with a magenta tint: clearly "no texture here", yet the lighting stays readable.
pub fn checker() -> RgbaImage {
    RgbaImage::from_fn(CHECKER_SIZE, CHECKER_SIZE, |x, y| {
        if ((x / CHECKER_SQUARE) + (y / CHECKER_SQUARE)).is_multiple_of(2) {
            image::Rgba([200, 160, 200, 255])
        } else {
            image::Rgba([110, 100, 110, 255])
        }
    })
}

/// Why a texture file gave no image.
#[derive(Debug, thiserror::Error)]
pub enum TextureError {
    #[error("cannot open: {0}")]
    Open(#[source] std::io::Error),
    #[error("cannot read: {0}")]
    Read(#[source] std::io::Error),
    #[error("cannot decode: {0}")]
    Decode(#[source] image::ImageError),
    #[error("cannot decode: {0}")]
    Vtf(#[source] crate::io::vtf::VtfError),
    #[error("cannot decode: {0}")]
    Ztex(#[source] crate::io::LoadError),
}

/// Decodes an image file read through `files`, detecting the format from its bytes (falling back to the
/// extension).
pub fn decode(files: &Files, path: &Path) -> Result<RgbaImage, TextureError> {
    let bytes = files.read(path).map_err(TextureError::Open)?;
    decode_bytes(&bytes, image::ImageFormat::from_path(path).ok())
}

/// Decodes an image held in memory: a VTF by its magic, anything else by the `image` crate (its format guessed
/// from the bytes, else `hint`, the extension's).
pub fn decode_bytes(bytes: &[u8], hint: Option<image::ImageFormat>) -> Result<RgbaImage, TextureError> {
    use crate::io::vtf;
    if vtf::is_vtf(bytes) {
        let decoded = vtf::decode(bytes).map_err(TextureError::Vtf)?;
        let (w, h) = (decoded.width, decoded.height);
        let empty = || TextureError::Vtf(vtf::VtfError::EmptyImage(w as u16, h as u16));
        return RgbaImage::from_raw(w, h, decoded.rgba).ok_or_else(empty);
    }
    if crate::io::zengin::tex::is_ztex(bytes) {
        let decoded = crate::io::zengin::tex::decode(bytes).map_err(TextureError::Ztex)?;
        let size = (decoded.width, decoded.height);
        let empty = || TextureError::Ztex(crate::io::LoadError::whole_file(format!("{}×{} pixels", size.0, size.1)));
        return RgbaImage::from_raw(size.0, size.1, decoded.rgba).ok_or_else(empty);
    }
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes));
    if let Some(format) = hint {
        reader.set_format(format);
    }
    let reader = reader.with_guessed_format().map_err(TextureError::Read)?;
    let image = reader.decode().map_err(TextureError::Decode)?;
    Ok(image.to_rgba8())
}

/// A material's texture: the pixels the model file holds, else the file found for it ([`load_or_checker`]).
pub fn load_texture(
    files: &Files,
    texture: &crate::scene::TextureRef,
    max_dimension: u32,
) -> (TextureImage, Option<String>) {
    if let Some(pixels) = &texture.pixels
        && let Some(image) = RgbaImage::from_raw(pixels.width, pixels.height, pixels.rgba.clone())
    {
        return (TextureImage { levels: mip_chain(fit(image, max_dimension)), placeholder: false }, None);
    }
    load_or_checker(files, texture.path.as_deref(), &texture.name, max_dimension)
}

/// Loads a material's texture, or the checker with the reason in `warning`.
pub fn load_or_checker(
    files: &Files,
    path: Option<&Path>,
    name: &str,
    max_dimension: u32,
) -> (TextureImage, Option<String>) {
    let result = match path {
        None => Err(format!("texture '{name}' was not found next to the model; showing a checker")),
        Some(p) => decode(files, p).map_err(|e| format!("texture '{}' {e}; showing a checker", p.display())),
    };
    match result {
        Ok(image) => (TextureImage { levels: mip_chain(fit(image, max_dimension)), placeholder: false }, None),
        Err(warning) => (TextureImage { levels: mip_chain(checker()), placeholder: true }, Some(warning)),
    }
}

/// Scales down images larger than the device allows.
fn fit(image: RgbaImage, max_dimension: u32) -> RgbaImage {
    let (w, h) = image.dimensions();
    let max = max_dimension.max(1);
    if w <= max && h <= max {
        return image;
    }
    let scale = max as f32 / w.max(h) as f32;
    let nw = ((w as f32 * scale) as u32).clamp(1, max);
    let nh = ((h as f32 * scale) as u32).clamp(1, max);
    image::imageops::resize(&image, nw, nh, FilterType::Triangle)
}

/// Level 0 and every half-size level down to 1×1 (box-like filtering; colours stay in sRGB, which is the usual
/// compromise for a viewer).
pub fn mip_chain(level0: RgbaImage) -> Vec<RgbaImage> {
    let mut levels = vec![level0];
    while let Some(last) = levels.last() {
        let (w, h) = last.dimensions();
        if w <= 1 && h <= 1 {
            break;
        }
        let next = image::imageops::resize(last, (w / 2).max(1), (h / 2).max(1), FilterType::Triangle);
        levels.push(next);
    }
    levels
}

/// Uploads the levels as an sRGB texture and returns its view.
pub fn upload(device: &wgpu::Device, queue: &wgpu::Queue, label: &str, image: &TextureImage) -> wgpu::TextureView {
    let (width, height) = image.levels.first().map(|l| l.dimensions()).unwrap_or((1, 1));
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        mip_level_count: image.levels.len().max(1) as u32,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8UnormSrgb,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    for (level, pixels) in image.levels.iter().enumerate() {
        let (w, h) = pixels.dimensions();
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: level as u32,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            pixels.as_raw(),
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * w), rows_per_image: Some(h) },
            wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        );
    }
    texture.create_view(&wgpu::TextureViewDescriptor::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_texture_gives_checker_and_warning() {
        let (tex, warning) = load_or_checker(&Files::disk(), None, "skin.tga", 4096);
        assert!(tex.placeholder);
        assert!(warning.unwrap().contains("skin.tga"));
        // 64 → 32 → … → 1: seven levels.
        assert_eq!(tex.levels.len(), 7);
        assert_eq!(tex.levels.last().unwrap().dimensions(), (1, 1));
    }

    #[test]
    fn unreadable_texture_names_the_file() {
        let dir = std::env::temp_dir().join(format!("bonescope-tex-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("broken.png");
        std::fs::write(&path, b"not a png").unwrap();
        let (tex, warning) = load_or_checker(&Files::disk(), Some(&path), "broken.png", 4096);
        assert!(tex.placeholder);
        assert!(warning.unwrap().contains("broken.png"));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn decodes_a_tga_written_by_the_image_crate_and_fits_it() {
        let dir = std::env::temp_dir().join(format!("bonescope-tga-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("red.tga");
        RgbaImage::from_pixel(32, 16, image::Rgba([255, 0, 0, 255])).save(&path).unwrap();
        let (tex, warning) = load_or_checker(&Files::disk(), Some(&path), "red.tga", 8);
        assert!(warning.is_none());
        assert!(!tex.placeholder);
        assert_eq!(tex.levels[0].dimensions(), (8, 4));
        assert_eq!(tex.levels[0].get_pixel(3, 2).0, [255, 0, 0, 255]);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn embedded_pixels_are_used_as_they_are() {
        let pixels = crate::scene::TexturePixels { width: 2, height: 1, rgba: vec![255, 0, 0, 255, 0, 0, 255, 0] };
        let texture = crate::scene::TextureRef::embedded("skin.bmp", pixels);
        let (tex, warning) = load_texture(&Files::disk(), &texture, 64);
        assert!(warning.is_none() && !tex.placeholder);
        assert_eq!(tex.levels[0].get_pixel(1, 0).0, [0, 0, 255, 0], "alpha kept: a masked texture's holes");
    }

    #[test]
    fn decodes_a_texture_held_in_memory() {
        let files = crate::files::MemoryFiles::new();
        let mut png = Vec::new();
        RgbaImage::from_pixel(4, 4, image::Rgba([0, 255, 0, 255]))
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        files.insert("/dropped/skin.png", png);
        let files = Files::new(files);
        let (tex, warning) = load_or_checker(&files, Some(Path::new("/dropped/skin.png")), "skin.png", 64);
        assert!(warning.is_none() && !tex.placeholder);
        assert_eq!(tex.levels[0].get_pixel(1, 1).0, [0, 255, 0, 255]);
        let (_, warning) = load_or_checker(&files, Some(Path::new("/dropped/hair.png")), "hair.png", 64);
        assert!(warning.unwrap().contains("not among the files given"));
    }
}
