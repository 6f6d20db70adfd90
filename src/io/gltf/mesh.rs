//! The skeleton as nodes, the skin (joints and inverse bind matrices), materials with embedded textures, and
//! meshes with their attributes and morph targets.

use std::collections::BTreeMap;

use glam::Vec3;
use gltf::json;
use json::validation::Checked::Valid;

use super::builder::Builder;
use crate::scene::{Mesh, Skeleton};

impl Builder {
    pub(super) fn skeleton_nodes(&mut self, skeleton: &Skeleton) -> Vec<json::Index<json::Node>> {
        let nodes: Vec<_> = (0..skeleton.len())
            .map(|i| {
                let local = self.transform(&skeleton.bind_local[i]);
                self.root.push(json::Node {
                    name: Some(skeleton.names[i].clone()),
                    translation: Some(local.translation.to_array()),
                    rotation: Some(json::scene::UnitQuaternion(local.rotation.to_array())),
                    scale: Some(local.scale.to_array()),
                    ..Default::default()
                })
            })
            .collect();
        for (children, parent) in skeleton.children().iter().zip(&nodes) {
            if !children.is_empty() {
                self.root.nodes[parent.value()].children = Some(children.iter().map(|&c| nodes[c]).collect());
            }
        }
        nodes
    }

    pub(super) fn skin(
        &mut self,
        skeleton: &Skeleton,
        bone_nodes: &[json::Index<json::Node>],
    ) -> json::Index<json::Skin> {
        let matrices: Vec<[f32; 16]> = skeleton
            .inverse_bind
            .iter()
            .map(|m| {
                // glTF requires the last row to be exactly (0, 0, 0, 1).
                let mut a = self.conjugate(m).to_cols_array();
                a[3] = 0.0;
                a[7] = 0.0;
                a[11] = 0.0;
                a[15] = 1.0;
                a
            })
            .collect();
        let ibm = self.accessor(
            bytemuck::cast_slice(&matrices),
            matrices.len(),
            json::accessor::ComponentType::F32,
            json::accessor::Type::Mat4,
            None,
            false,
            None,
        );
        let root_bone = skeleton.parents.iter().position(Option::is_none).map(|i| bone_nodes[i]);
        self.root.push(json::Skin {
            extensions: None,
            extras: Default::default(),
            inverse_bind_matrices: Some(ibm),
            joints: bone_nodes.to_vec(),
            name: Some("skeleton".into()),
            skeleton: root_bone,
        })
    }

    pub(super) fn material(&mut self, material: &crate::scene::Material) -> json::Index<json::Material> {
        let texture = material.texture.as_ref().and_then(|t| match (&t.pixels, &t.path) {
            (Some(pixels), _) => match png_of_pixels(pixels) {
                Ok(png) => Some(self.image_texture(&t.name, &png, "image/png")),
                Err(why) => {
                    self.report.warnings.push(format!(
                        "texture '{}' of material '{}' (in the model) not embedded: {why}",
                        t.name, material.name
                    ));
                    None
                }
            },
            (None, Some(path)) => match embeddable_image(path) {
                Ok((bytes, mime)) => Some(self.image_texture(&t.name, &bytes, mime)),
                Err(why) => {
                    self.report.warnings.push(format!(
                        "texture {} of material '{}' not embedded: {why}",
                        path.display(),
                        material.name
                    ));
                    None
                }
            },
            (None, None) => {
                self.report
                    .warnings
                    .push(format!("texture '{}' of material '{}' was not found: not embedded", t.name, material.name));
                None
            }
        });
        // What glTF can say of a GoldSrc texture's flags: masked is an alpha cutoff; additive and chrome have no
        // core equivalent and are said in a note (and kept in the material's extras).
        let (alpha_mode, alpha_cutoff) = match material.alpha {
            crate::scene::AlphaMode::Mask { cutoff } if texture.is_some() => {
                (json::material::AlphaMode::Mask, Some(json::material::AlphaCutoff(cutoff)))
            }
            _ => (json::material::AlphaMode::Opaque, None),
        };
        let mut looks = Vec::new();
        if material.alpha == crate::scene::AlphaMode::Additive {
            looks.push("additive");
        }
        if material.chrome {
            looks.push("chrome");
        }
        if !looks.is_empty() {
            self.report.warnings.push(format!(
                "material '{}' is {} in the model; glTF has no such drawing, so it is exported opaque and textured (said in its extras)",
                material.name,
                looks.join(" and ")
            ));
        }
        let extras = (!looks.is_empty())
            .then(|| serde_json::value::to_raw_value(&serde_json::json!({ "studio_flags": looks })).ok())
            .flatten();
        let [r, g, b, a] = material.diffuse;
        let factor = if texture.is_some() { [1.0, 1.0, 1.0, a] } else { [r, g, b, a] };
        self.root.push(json::Material {
            name: Some(material.name.clone()),
            double_sided: material.two_sided,
            alpha_mode: Valid(alpha_mode),
            alpha_cutoff,
            extras,
            pbr_metallic_roughness: json::material::PbrMetallicRoughness {
                base_color_factor: json::material::PbrBaseColorFactor(factor.map(|c| c.clamp(0.0, 1.0))),
                base_color_texture: texture.map(|index| json::texture::Info {
                    index,
                    tex_coord: 0,
                    extensions: None,
                    extras: Default::default(),
                }),
                metallic_factor: json::material::StrengthFactor(0.0),
                roughness_factor: json::material::StrengthFactor(0.8),
                ..Default::default()
            },
            ..Default::default()
        })
    }

    /// `KHR_materials_variants` of a primitive drawn with `material`: for each skin family, the material it is
    /// drawn with there (grouped by material); `None` without skin families.
    fn variant_mappings(
        &self,
        material: usize,
        materials: &[json::Index<json::Material>],
    ) -> Option<Vec<json::extensions::mesh::Mapping>> {
        if self.skin_remaps.is_empty() {
            return None;
        }
        let mut mappings: Vec<json::extensions::mesh::Mapping> = Vec::new();
        for (variant, remap) in self.skin_remaps.iter().enumerate() {
            let drawn = remap.get(material).copied().unwrap_or(material);
            let Some(index) = materials.get(drawn) else { continue };
            let index = index.value() as u32;
            match mappings.iter_mut().find(|m| m.material == index) {
                Some(m) => m.variants.push(variant as u32),
                None => {
                    mappings.push(json::extensions::mesh::Mapping { material: index, variants: vec![variant as u32] })
                }
            }
        }
        Some(mappings)
    }

    pub(super) fn image_texture(&mut self, name: &str, bytes: &[u8], mime: &str) -> json::Index<json::Texture> {
        let view = self.view(bytes, None);
        let image = self.root.push(json::Image {
            buffer_view: Some(view),
            mime_type: Some(json::image::MimeType(mime.to_owned())),
            name: Some(name.to_owned()),
            uri: None,
            extensions: None,
            extras: Default::default(),
        });
        let sampler = self.root.push(json::texture::Sampler {
            wrap_s: Valid(json::texture::WrappingMode::Repeat),
            wrap_t: Valid(json::texture::WrappingMode::Repeat),
            ..Default::default()
        });
        self.root.push(json::Texture {
            name: None,
            sampler: Some(sampler),
            source: image,
            extensions: None,
            extras: Default::default(),
        })
    }

    pub(super) fn mesh(
        &mut self,
        mesh: &Mesh,
        materials: &[json::Index<json::Material>],
        skinned: bool,
        default_weights: &[f32],
    ) -> json::Index<json::Mesh> {
        use json::accessor::{ComponentType, Type};
        use json::buffer::Target::{ArrayBuffer, ElementArrayBuffer};
        let n = mesh.positions.len();
        let positions: Vec<Vec3> = mesh.positions.iter().map(|p| self.point(*p)).collect();
        let normals: Vec<Vec3> = (0..n)
            .map(|i| self.point(mesh.normals.get(i).copied().unwrap_or(Vec3::Y)).try_normalize().unwrap_or(Vec3::Y))
            .collect();
        let mut attributes = BTreeMap::new();
        attributes
            .insert(Valid(json::mesh::Semantic::Positions), self.vec3_accessor(&positions, true, Some(ArrayBuffer)));
        attributes.insert(Valid(json::mesh::Semantic::Normals), self.vec3_accessor(&normals, false, Some(ArrayBuffer)));
        if mesh.uvs.len() == n {
            let uvs: Vec<[f32; 2]> = mesh.uvs.iter().map(|uv| uv.to_array()).collect();
            let acc = self.accessor(
                bytemuck::cast_slice(&uvs),
                n,
                ComponentType::F32,
                Type::Vec2,
                Some(ArrayBuffer),
                false,
                None,
            );
            attributes.insert(Valid(json::mesh::Semantic::TexCoords(0)), acc);
        }
        if mesh.colors.len() == n {
            let acc = self.accessor(
                bytemuck::cast_slice(&mesh.colors),
                n,
                ComponentType::U8,
                Type::Vec4,
                Some(ArrayBuffer),
                true,
                None,
            );
            attributes.insert(Valid(json::mesh::Semantic::Colors(0)), acc);
        }
        if skinned && mesh.joints.len() == n && mesh.weights.len() == n {
            // Unused slots must name joint 0 with weight 0; the reducer already writes them that way.
            let acc = self.accessor(
                bytemuck::cast_slice(&mesh.joints),
                n,
                ComponentType::U16,
                Type::Vec4,
                Some(ArrayBuffer),
                false,
                None,
            );
            attributes.insert(Valid(json::mesh::Semantic::Joints(0)), acc);
            let acc = self.accessor(
                bytemuck::cast_slice(&mesh.weights),
                n,
                ComponentType::F32,
                Type::Vec4,
                Some(ArrayBuffer),
                false,
                None,
            );
            attributes.insert(Valid(json::mesh::Semantic::Weights(0)), acc);
        }
        let targets = self.morph_targets(mesh);
        // glTF's front faces wind counter-clockwise: reverse a mesh whose triangles wind clockwise in the viewer
        // frame (a clockwise file, such as a PSK, or a mirroring conversion; both together cancel).
        let reverse_winding = mesh.clockwise != self.mirrors();
        let mut primitives = Vec::new();
        let subsets: Vec<crate::scene::Subset> = if mesh.subsets.is_empty() {
            vec![crate::scene::Subset { material: 0, first_index: 0, index_count: mesh.indices.len() as u32 }]
        } else {
            mesh.subsets.clone()
        };
        for subset in subsets {
            let start = subset.first_index as usize;
            let Some(indices) = mesh.indices.get(start..start + subset.index_count as usize) else { continue };
            let mut indices = indices.to_vec();
            if reverse_winding {
                for tri in indices.chunks_exact_mut(3) {
                    tri.swap(1, 2);
                }
            }
            if indices.is_empty() {
                continue;
            }
            let acc = self.accessor(
                bytemuck::cast_slice(&indices),
                indices.len(),
                ComponentType::U32,
                Type::Scalar,
                Some(ElementArrayBuffer),
                false,
                None,
            );
            let variants = self.variant_mappings(subset.material, materials);
            primitives.push(json::mesh::Primitive {
                attributes: attributes.clone(),
                extensions: variants.map(|mappings| json::extensions::mesh::Primitive {
                    khr_materials_variants: Some(json::extensions::mesh::KhrMaterialsVariants { mappings }),
                }),
                extras: Default::default(),
                indices: Some(acc),
                material: materials.get(subset.material).copied(),
                mode: Valid(json::mesh::Mode::Triangles),
                targets: (!targets.is_empty()).then(|| targets.clone()),
            });
        }
        let target_names: Vec<&str> = mesh.morph_targets.iter().map(|t| t.name.as_str()).collect();
        let extras = (!target_names.is_empty())
            .then(|| serde_json::value::to_raw_value(&serde_json::json!({ "targetNames": target_names })).ok())
            .flatten();
        self.root.push(json::Mesh {
            extensions: None,
            extras,
            name: Some(mesh.name.clone()),
            primitives,
            weights: (!targets.is_empty()).then(|| {
                (0..targets.len())
                    .map(|t| default_weights.get(t).copied().filter(|w| w.is_finite()).unwrap_or(0.0))
                    .collect()
            }),
        })
    }

    pub(super) fn morph_targets(&mut self, mesh: &Mesh) -> Vec<json::mesh::MorphTarget> {
        let n = mesh.positions.len();
        mesh.morph_targets
            .iter()
            .map(|target| {
                let mut deltas = vec![Vec3::ZERO; n];
                let mut normal_deltas = vec![Vec3::ZERO; n];
                for (k, &v) in target.vertices.iter().enumerate() {
                    let Some(slot) = deltas.get_mut(v as usize) else { continue };
                    *slot = self.point(target.position_deltas.get(k).copied().unwrap_or(Vec3::ZERO));
                    if let Some(d) = target.normal_deltas.get(k) {
                        normal_deltas[v as usize] = self.point(*d);
                    }
                }
                let positions = Some(self.vec3_accessor(&deltas, true, Some(json::buffer::Target::ArrayBuffer)));
                let normals = (!target.normal_deltas.is_empty())
                    .then(|| self.vec3_accessor(&normal_deltas, false, Some(json::buffer::Target::ArrayBuffer)));
                json::mesh::MorphTarget { positions, normals, tangents: None }
            })
            .collect()
    }
}

/// A texture the model file held, as PNG (with the image codecs of the default `gui` feature).
#[cfg(feature = "gui")]
fn png_of_pixels(pixels: &crate::scene::TexturePixels) -> Result<Vec<u8>, String> {
    let image = image::RgbaImage::from_raw(pixels.width, pixels.height, pixels.rgba.clone())
        .ok_or("its pixels do not fill its size")?;
    let mut png = std::io::Cursor::new(Vec::new());
    image.write_to(&mut png, image::ImageFormat::Png).map_err(|e| e.to_string())?;
    Ok(png.into_inner())
}

#[cfg(not(feature = "gui"))]
fn png_of_pixels(_pixels: &crate::scene::TexturePixels) -> Result<Vec<u8>, String> {
    Err("a build without image codecs cannot write PNG".into())
}

/// PNG and JPEG go in as they are; other formats (TGA, BMP, DDS, Source VTF, ZenGin TEX) are converted to PNG
/// when the image codecs are built in (the default `gui` feature). Read through the disk's files, so a texture
/// inside a VDFS volume is read there.
fn embeddable_image(path: &std::path::Path) -> Result<(Vec<u8>, &'static str), String> {
    let bytes = crate::files::Files::disk().read(path).map_err(|e| e.to_string())?.to_vec();
    if bytes.starts_with(&[0x89, b'P', b'N', b'G']) {
        return Ok((bytes, "image/png"));
    }
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        return Ok((bytes, "image/jpeg"));
    }
    convert_to_png(path, &bytes)
}

#[cfg(feature = "gui")]
fn convert_to_png(path: &std::path::Path, bytes: &[u8]) -> Result<(Vec<u8>, &'static str), String> {
    let decoded = if crate::io::vtf::is_vtf(bytes) {
        let vtf = crate::io::vtf::decode(bytes).map_err(|e| e.to_string())?;
        let rgba = image::RgbaImage::from_raw(vtf.width, vtf.height, vtf.rgba).ok_or("the VTF decoded to no image")?;
        image::DynamicImage::ImageRgba8(rgba)
    } else if crate::io::zengin::tex::is_ztex(bytes) {
        let tex = crate::io::zengin::tex::decode(bytes).map_err(|e| e.to_string())?;
        let rgba = image::RgbaImage::from_raw(tex.width, tex.height, tex.rgba).ok_or("the TEX decoded to no image")?;
        image::DynamicImage::ImageRgba8(rgba)
    } else {
        let format = image::ImageFormat::from_path(path).map_err(|e| e.to_string())?;
        image::load_from_memory_with_format(bytes, format).map_err(|e| e.to_string())?
    };
    let mut png = std::io::Cursor::new(Vec::new());
    decoded.write_to(&mut png, image::ImageFormat::Png).map_err(|e| e.to_string())?;
    Ok((png.into_inner(), "image/png"))
}

#[cfg(not(feature = "gui"))]
fn convert_to_png(_path: &std::path::Path, _bytes: &[u8]) -> Result<(Vec<u8>, &'static str), String> {
    Err("only PNG and JPEG can be embedded in a build without image codecs".into())
}
