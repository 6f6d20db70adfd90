//! The glTF document being written: the JSON root, the binary buffer with its views and accessors, and the
//! file-frame → glTF-frame conversion every position, rotation and matrix goes through.

use std::borrow::Cow;

use glam::{Mat3, Mat4, Quat, Vec3};
use gltf::json;
use json::validation::Checked::Valid;
use json::validation::USize64;

use super::{ExportError, ExportReport};
use crate::scene::Transform;

/// Accumulates the JSON document and the binary buffer.
pub(super) struct Builder {
    pub(super) root: json::Root,
    bin: Vec<u8>,
    /// File frame → glTF frame (linear part; the conversions used are rotations or mirrors).
    convert: Mat3,
    convert_inverse: Mat3,
    pub(super) report: ExportReport,
    /// The model's skin families (each a material remap), written as `KHR_materials_variants`; empty: none.
    pub(super) skin_remaps: Vec<Vec<usize>>,
}

impl Builder {
    pub(super) fn new(to_viewer: Mat4) -> Self {
        let convert = Mat3::from_mat4(to_viewer);
        let root = json::Root {
            asset: json::Asset {
                generator: Some(format!("bonescope {}", env!("CARGO_PKG_VERSION"))),
                ..Default::default()
            },
            ..Default::default()
        };
        Self {
            root,
            bin: Vec::new(),
            convert,
            convert_inverse: convert.inverse(),
            report: ExportReport::default(),
            skin_remaps: Vec::new(),
        }
    }

    pub(super) fn mirrors(&self) -> bool {
        self.convert.determinant() < 0.0
    }

    pub(super) fn point(&self, v: Vec3) -> Vec3 {
        self.convert * v
    }

    /// `C·M·C⁻¹` for an affine matrix.
    pub(super) fn conjugate(&self, m: &Mat4) -> Mat4 {
        Mat4::from_mat3(self.convert) * *m * Mat4::from_mat3(self.convert_inverse)
    }

    pub(super) fn rotation(&self, q: Quat) -> Quat {
        Quat::from_mat3(&(self.convert * Mat3::from_quat(q.normalize()) * self.convert_inverse)).normalize()
    }

    pub(super) fn scale(&self, s: Vec3) -> Vec3 {
        // The conversions permute axes (with signs): scale factors move with their axes and stay positive.
        let m = self.convert * Mat3::from_diagonal(s) * self.convert_inverse;
        Vec3::new(m.x_axis.x, m.y_axis.y, m.z_axis.z).abs()
    }

    pub(super) fn transform(&self, t: &Transform) -> Transform {
        Transform {
            translation: self.point(t.translation),
            rotation: self.rotation(t.rotation),
            scale: self.scale(t.scale),
        }
    }

    pub(super) fn finish(mut self) -> Result<(Vec<u8>, ExportReport), ExportError> {
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
    pub(super) fn view(
        &mut self,
        bytes: &[u8],
        target: Option<json::buffer::Target>,
    ) -> json::Index<json::buffer::View> {
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
    pub(super) fn accessor(
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

    pub(super) fn vec3_accessor(
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

    pub(super) fn quat_accessor(&mut self, values: &[Quat]) -> json::Index<json::Accessor> {
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

    pub(super) fn time_accessor(&mut self, times: &[f32]) -> json::Index<json::Accessor> {
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
}

pub(super) fn bounds_of(values: &[[f32; 3]]) -> (Vec<f32>, Vec<f32>) {
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
