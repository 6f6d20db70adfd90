//! Export to binary glTF 2.0 (`.glb`): skinned meshes (four joints and weights), the skin with its inverse
//! bind matrices, the bone hierarchy as nodes, every clip as an animation, materials with their base-colour
//! textures embedded, and morph targets.
//!
//! glTF is right-handed, Y up, so the asset's axis conversion `C` is baked in once, here: positions and normals
//! become `C·v`, every bone matrix `C·M·C⁻¹` (which keeps local transforms proper rotations even when `C`
//! mirrors), and triangle winding is reversed when `C` mirrors. The JSON is built with `gltf-json`, the GLB
//! container with `gltf::binary`.

use std::borrow::Cow;
use std::collections::BTreeMap;

use glam::{Mat3, Mat4, Quat, Vec3};
use gltf::json;
use json::validation::Checked::Valid;
use json::validation::USize64;

use crate::anim::curve::sample_quat;
use crate::scene::{Asset, Clip, Curve, Interpolation, Mesh, Skeleton, Transform};

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("nothing to export: the file has no mesh, no skeleton and no recording")]
    Empty,
    #[error("the export is larger than the 4 GiB a .glb can hold")]
    TooLarge,
    #[error("glTF serialisation failed: {0}")]
    Serialize(String),
}

/// What an export wrote, and what it had to leave out or change.
#[derive(Clone, Debug, Default)]
pub struct ExportReport {
    pub nodes: usize,
    pub meshes: usize,
    pub animations: usize,
    pub images: usize,
    pub warnings: Vec<String>,
}

/// Exports the asset (with the clips bound to it) as a `.glb` byte buffer.
pub fn export_glb(asset: &Asset) -> Result<(Vec<u8>, ExportReport), ExportError> {
    if asset.meshes.is_empty() && asset.skeleton.is_empty() && asset.recordings.is_empty() {
        return Err(ExportError::Empty);
    }
    let mut builder = Builder::new(asset.axes.to_viewer);
    let bone_nodes = builder.skeleton_nodes(&asset.skeleton);
    let skin =
        (!asset.skeleton.is_empty() && !asset.meshes.is_empty()).then(|| builder.skin(&asset.skeleton, &bone_nodes));
    let materials: Vec<_> = asset.materials.iter().map(|m| builder.material(m)).collect();
    let mut scene_nodes: Vec<json::Index<json::Node>> =
        asset.skeleton.parents.iter().zip(&bone_nodes).filter(|(p, _)| p.is_none()).map(|(_, n)| *n).collect();
    for mesh in &asset.meshes {
        if mesh.indices.is_empty() {
            builder.report.warnings.push(format!("mesh '{}' has no triangles: not exported", mesh.name));
            continue;
        }
        let gltf_mesh = builder.mesh(mesh, &materials, skin.is_some());
        let node = builder.root.push(json::Node {
            mesh: Some(gltf_mesh),
            skin,
            name: Some(mesh.name.clone()),
            ..Default::default()
        });
        scene_nodes.push(node);
    }
    for clip in &asset.clips {
        builder.animation(clip, &asset.skeleton, &bone_nodes);
    }
    crate::io::gltf_recording::export_recordings(&mut builder, &asset.recordings, &mut scene_nodes);
    let scene = builder.root.push(json::Scene {
        extensions: None,
        extras: Default::default(),
        name: asset.path.as_ref().and_then(|p| p.file_stem()).map(|s| s.to_string_lossy().into_owned()),
        nodes: scene_nodes,
    });
    builder.root.scene = Some(scene);
    builder.finish()
}

/// Accumulates the JSON document and the binary buffer.
pub(crate) struct Builder {
    pub(crate) root: json::Root,
    bin: Vec<u8>,
    /// File frame → glTF frame (linear part; the conversions used are rotations or mirrors).
    convert: Mat3,
    convert_inverse: Mat3,
    pub(crate) report: ExportReport,
}

impl Builder {
    fn new(to_viewer: Mat4) -> Self {
        let convert = Mat3::from_mat4(to_viewer);
        let root = json::Root {
            asset: json::Asset {
                generator: Some(format!("bonescope {}", env!("CARGO_PKG_VERSION"))),
                ..Default::default()
            },
            ..Default::default()
        };
        Self { root, bin: Vec::new(), convert, convert_inverse: convert.inverse(), report: ExportReport::default() }
    }

    fn mirrors(&self) -> bool {
        self.convert.determinant() < 0.0
    }

    pub(crate) fn point(&self, v: Vec3) -> Vec3 {
        self.convert * v
    }

    /// `C·M·C⁻¹` for an affine matrix.
    fn conjugate(&self, m: &Mat4) -> Mat4 {
        Mat4::from_mat3(self.convert) * *m * Mat4::from_mat3(self.convert_inverse)
    }

    pub(crate) fn rotation(&self, q: Quat) -> Quat {
        Quat::from_mat3(&(self.convert * Mat3::from_quat(q.normalize()) * self.convert_inverse)).normalize()
    }

    fn scale(&self, s: Vec3) -> Vec3 {
        // The conversions permute axes (with signs): scale factors move with their axes and stay positive.
        let m = self.convert * Mat3::from_diagonal(s) * self.convert_inverse;
        Vec3::new(m.x_axis.x, m.y_axis.y, m.z_axis.z).abs()
    }

    pub(crate) fn transform(&self, t: &Transform) -> Transform {
        Transform {
            translation: self.point(t.translation),
            rotation: self.rotation(t.rotation),
            scale: self.scale(t.scale),
        }
    }

    fn finish(mut self) -> Result<(Vec<u8>, ExportReport), ExportError> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        if !self.bin.is_empty() {
            self.root.push(json::Buffer {
                byte_length: USize64::from(self.bin.len()),
                extensions: None,
                extras: Default::default(),
                name: None,
                uri: None,
            });
        }
        self.report.nodes = self.root.nodes.len();
        self.report.meshes = self.root.meshes.len();
        self.report.animations = self.root.animations.len();
        self.report.images = self.root.images.len();
        let json_text = json::serialize::to_string(&self.root).map_err(|e| ExportError::Serialize(e.to_string()))?;
        let mut json_bytes = json_text.into_bytes();
        while json_bytes.len() % 4 != 0 {
            json_bytes.push(b' ');
        }
        let length = 12 + 8 + json_bytes.len() + if self.bin.is_empty() { 0 } else { 8 + self.bin.len() };
        let length = u32::try_from(length).map_err(|_| ExportError::TooLarge)?;
        let glb = gltf::binary::Glb {
            header: gltf::binary::Header { magic: *b"glTF", version: 2, length },
            json: Cow::Owned(json_bytes),
            bin: (!self.bin.is_empty()).then_some(Cow::Owned(self.bin)),
        };
        let bytes = glb.to_vec().map_err(|e| ExportError::Serialize(e.to_string()))?;
        Ok((bytes, self.report))
    }

    /// Appends bytes to the binary buffer (4-byte aligned) and makes a view of them.
    fn view(&mut self, bytes: &[u8], target: Option<json::buffer::Target>) -> json::Index<json::buffer::View> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Valid),
            extensions: None,
            extras: Default::default(),
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn accessor(
        &mut self,
        bytes: &[u8],
        count: usize,
        component: json::accessor::ComponentType,
        kind: json::accessor::Type,
        target: Option<json::buffer::Target>,
        normalized: bool,
        bounds: Option<(Vec<f32>, Vec<f32>)>,
    ) -> json::Index<json::Accessor> {
        let view = self.view(bytes, target);
        let (min, max) = match bounds {
            Some((min, max)) => (Some(json::Value::from(min)), Some(json::Value::from(max))),
            None => (None, None),
        };
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64::from(count),
            component_type: Valid(json::accessor::GenericComponentType(component)),
            extensions: None,
            extras: Default::default(),
            type_: Valid(kind),
            min,
            max,
            name: None,
            normalized,
            sparse: None,
        })
    }

    pub(crate) fn vec3_accessor(
        &mut self,
        values: &[Vec3],
        bounds: bool,
        target: Option<json::buffer::Target>,
    ) -> json::Index<json::Accessor> {
        let flat: Vec<[f32; 3]> = values.iter().map(|v| v.to_array()).collect();
        let bounds = bounds.then(|| bounds_of(&flat));
        self.accessor(
            bytemuck::cast_slice(&flat),
            values.len(),
            json::accessor::ComponentType::F32,
            json::accessor::Type::Vec3,
            target,
            false,
            bounds,
        )
    }

    pub(crate) fn quat_accessor(&mut self, values: &[Quat]) -> json::Index<json::Accessor> {
        let flat: Vec<[f32; 4]> = values.iter().map(|q| q.to_array()).collect();
        self.accessor(
            bytemuck::cast_slice(&flat),
            values.len(),
            json::accessor::ComponentType::F32,
            json::accessor::Type::Vec4,
            None,
            false,
            None,
        )
    }

    pub(crate) fn time_accessor(&mut self, times: &[f32]) -> json::Index<json::Accessor> {
        let min = times.iter().copied().fold(f32::INFINITY, f32::min);
        let max = times.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        self.accessor(
            bytemuck::cast_slice(times),
            times.len(),
            json::accessor::ComponentType::F32,
            json::accessor::Type::Scalar,
            None,
            false,
            Some((vec![min], vec![max])),
        )
    }

    fn skeleton_nodes(&mut self, skeleton: &Skeleton) -> Vec<json::Index<json::Node>> {
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

    fn skin(&mut self, skeleton: &Skeleton, bone_nodes: &[json::Index<json::Node>]) -> json::Index<json::Skin> {
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

    fn material(&mut self, material: &crate::scene::Material) -> json::Index<json::Material> {
        let texture = material.texture.as_ref().and_then(|t| match &t.path {
            Some(path) => match embeddable_image(path) {
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
            None => {
                self.report
                    .warnings
                    .push(format!("texture '{}' of material '{}' was not found: not embedded", t.name, material.name));
                None
            }
        });
        let [r, g, b, a] = material.diffuse;
        let factor = if texture.is_some() { [1.0, 1.0, 1.0, a] } else { [r, g, b, a] };
        self.root.push(json::Material {
            name: Some(material.name.clone()),
            double_sided: material.two_sided,
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

    fn image_texture(&mut self, name: &str, bytes: &[u8], mime: &str) -> json::Index<json::Texture> {
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

    fn mesh(
        &mut self,
        mesh: &Mesh,
        materials: &[json::Index<json::Material>],
        skinned: bool,
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
        let mirrored = self.mirrors();
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
            if mirrored {
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
            primitives.push(json::mesh::Primitive {
                attributes: attributes.clone(),
                extensions: None,
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
            weights: (!targets.is_empty()).then(|| vec![0.0; targets.len()]),
        })
    }

    fn morph_targets(&mut self, mesh: &Mesh) -> Vec<json::mesh::MorphTarget> {
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

    fn animation(&mut self, clip: &Clip, skeleton: &Skeleton, bone_nodes: &[json::Index<json::Node>]) {
        let mut channels = Vec::new();
        let mut samplers = Vec::new();
        for track in &clip.tracks {
            let Some(bone) = skeleton.find(&track.bone_name) else { continue };
            let node = bone_nodes[bone];
            if let Some((input, output, interpolation)) = self.vec3_channel(&track.translation, |b, v| b.point(v)) {
                push_channel(
                    &mut channels,
                    &mut samplers,
                    node,
                    json::animation::Property::Translation,
                    input,
                    output,
                    interpolation,
                );
            }
            if let Some((input, output, interpolation)) = self.rotation_channel(&track.rotation, clip.frame_rate) {
                push_channel(
                    &mut channels,
                    &mut samplers,
                    node,
                    json::animation::Property::Rotation,
                    input,
                    output,
                    interpolation,
                );
            }
            if let Some((input, output, interpolation)) = self.vec3_channel(&track.scale, |b, v| b.scale(v)) {
                push_channel(
                    &mut channels,
                    &mut samplers,
                    node,
                    json::animation::Property::Scale,
                    input,
                    output,
                    interpolation,
                );
            }
        }
        if channels.is_empty() {
            self.report.warnings.push(format!("clip '{}' animates no bone of the skeleton: not exported", clip.name));
            return;
        }
        self.root.push(json::Animation {
            extensions: None,
            extras: Default::default(),
            channels,
            name: Some(clip.name.clone()),
            samplers,
        });
    }

    /// Translation or scale keys. Hermite curves map directly to glTF CUBICSPLINE (both use tangents per
    /// second, scaled by the segment length when sampled).
    fn vec3_channel(
        &mut self,
        curve: &Curve<Vec3>,
        convert: impl Fn(&Self, Vec3) -> Vec3,
    ) -> Option<(json::Index<json::Accessor>, json::Index<json::Accessor>, json::animation::Interpolation)> {
        let keep = increasing_keys(&curve.times[..curve.len()]);
        if keep.is_empty() {
            return None;
        }
        let times: Vec<f32> = keep.iter().map(|&i| curve.times[i].max(0.0)).collect();
        let hermite = curve.interpolation == Interpolation::Hermite && curve.tangents.len() >= curve.len();
        let (values, interpolation) = if hermite {
            // CUBICSPLINE output: in-tangent, value, out-tangent per key. Tangents are vectors: the linear part
            // of the conversion applies to them as to positions.
            let values: Vec<Vec3> = keep
                .iter()
                .flat_map(|&i| {
                    [
                        convert(self, curve.tangents[i].0),
                        convert(self, curve.values[i]),
                        convert(self, curve.tangents[i].1),
                    ]
                })
                .collect();
            (values, json::animation::Interpolation::CubicSpline)
        } else {
            let values: Vec<Vec3> = keep.iter().map(|&i| convert(self, curve.values[i])).collect();
            (values, gltf_interpolation(curve.interpolation))
        };
        let input = self.time_accessor(&times);
        let output = self.vec3_accessor(&values, false, None);
        Some((input, output, interpolation))
    }

    /// Rotation keys: Hermite rotations are resampled to linear keys at the clip's frame rate (their tangents
    /// do not survive the change of frame as glTF tangents); consecutive keys are kept in one hemisphere.
    fn rotation_channel(
        &mut self,
        curve: &Curve<Quat>,
        frame_rate: f32,
    ) -> Option<(json::Index<json::Accessor>, json::Index<json::Accessor>, json::animation::Interpolation)> {
        let keep = increasing_keys(&curve.times[..curve.len()]);
        if keep.is_empty() {
            return None;
        }
        let (times, raw, interpolation): (Vec<f32>, Vec<Quat>, _) = if curve.interpolation == Interpolation::Hermite {
            let start = curve.times[keep[0]].max(0.0);
            let end = curve.end_time();
            let fps = if frame_rate > 0.0 { frame_rate } else { 30.0 };
            let frames = (((end - start) * fps).ceil() as usize).clamp(1, 1 << 20);
            let times: Vec<f32> = (0..=frames).map(|f| (start + f as f32 / fps).min(end)).collect();
            let times = dedup_increasing(times);
            let values = times.iter().map(|&t| sample_quat(curve, t).unwrap_or(Quat::IDENTITY)).collect();
            (times, values, json::animation::Interpolation::Linear)
        } else {
            let times = keep.iter().map(|&i| curve.times[i].max(0.0)).collect();
            (times, keep.iter().map(|&i| curve.values[i]).collect(), gltf_interpolation(curve.interpolation))
        };
        let mut values: Vec<Quat> = raw.into_iter().map(|q| self.rotation(q)).collect();
        for i in 1..values.len() {
            if values[i - 1].dot(values[i]) < 0.0 {
                values[i] = -values[i];
            }
        }
        let input = self.time_accessor(&times);
        let output = self.quat_accessor(&values);
        Some((input, output, interpolation))
    }
}

pub(crate) fn push_channel(
    channels: &mut Vec<json::animation::Channel>,
    samplers: &mut Vec<json::animation::Sampler>,
    node: json::Index<json::Node>,
    path: json::animation::Property,
    input: json::Index<json::Accessor>,
    output: json::Index<json::Accessor>,
    interpolation: json::animation::Interpolation,
) {
    let sampler = json::Index::push(
        samplers,
        json::animation::Sampler {
            extensions: None,
            extras: Default::default(),
            input,
            interpolation: Valid(interpolation),
            output,
        },
    );
    channels.push(json::animation::Channel {
        sampler,
        target: json::animation::Target { extensions: None, extras: Default::default(), node, path: Valid(path) },
        extensions: None,
        extras: Default::default(),
    });
}

fn gltf_interpolation(interpolation: Interpolation) -> json::animation::Interpolation {
    match interpolation {
        Interpolation::Step => json::animation::Interpolation::Step,
        Interpolation::Linear | Interpolation::Hermite => json::animation::Interpolation::Linear,
    }
}

/// Indices of keys whose times strictly increase (glTF requires it; files sometimes repeat a time).
fn increasing_keys(times: &[f32]) -> Vec<usize> {
    let mut keep = Vec::with_capacity(times.len());
    let mut last = f32::NEG_INFINITY;
    for (i, &t) in times.iter().enumerate() {
        let t = t.max(0.0);
        if t.is_finite() && t > last {
            keep.push(i);
            last = t;
        }
    }
    keep
}

fn dedup_increasing(mut times: Vec<f32>) -> Vec<f32> {
    times.dedup_by(|b, a| *b <= *a);
    times
}

fn bounds_of(values: &[[f32; 3]]) -> (Vec<f32>, Vec<f32>) {
    let mut min = [f32::INFINITY; 3];
    let mut max = [f32::NEG_INFINITY; 3];
    for v in values {
        for k in 0..3 {
            min[k] = min[k].min(v[k]);
            max[k] = max[k].max(v[k]);
        }
    }
    if values.is_empty() { (vec![0.0; 3], vec![0.0; 3]) } else { (min.to_vec(), max.to_vec()) }
}

/// PNG and JPEG go in as they are; other formats (TGA, BMP, DDS) are converted to PNG when the image codecs
/// are built in (the default `gui` feature).
fn embeddable_image(path: &std::path::Path) -> Result<(Vec<u8>, &'static str), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
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
    let format = image::ImageFormat::from_path(path).map_err(|e| e.to_string())?;
    let decoded = image::load_from_memory_with_format(bytes, format).map_err(|e| e.to_string())?;
    let mut png = std::io::Cursor::new(Vec::new());
    decoded.write_to(&mut png, image::ImageFormat::Png).map_err(|e| e.to_string())?;
    Ok((png.into_inner(), "image/png"))
}

#[cfg(not(feature = "gui"))]
fn convert_to_png(_path: &std::path::Path, _bytes: &[u8]) -> Result<(Vec<u8>, &'static str), String> {
    Err("only PNG and JPEG can be embedded in a build without image codecs".into())
}
