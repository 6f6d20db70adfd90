//! Bones and bone controllers of a compiled GoldSrc model (`mstudiobone_t`, `mstudiobonecontroller_t`).
//!
//! A bone's default pose is its `value[6]`: position X, Y, Z and Euler angles X, Y, Z in radians, turned into a
//! rotation as the engine's `AngleQuaternion` does (about X, then Y, then Z: `Rz·Ry·Rx`, the SMD's order, so
//! [`crate::io::smd`] and this reader agree). `scale[6]` turns the 16-bit animation values into units and
//! radians; `bonecontroller[6]` names the controller (an index into the controller table) that drives each
//! channel. The default pose is the bind pose: studiomdl stores every vertex in its bone's frame at that pose
//! (`Grab_Triangles`), so a vertex's model-space bind position is the bone's bind to-root times the stored one.
//!
//! Parents must come before their children, as the engine's one forward pass over the bones needs
//! (`StudioSetupBones`); a bone naming a later or missing parent is an error naming its record.

use glam::{EulerRot, Quat, Vec3};

use super::header::{BONE_SIZE, CONTROLLER_SIZE, Header};
use crate::io::LoadError;
use crate::scene::{BoneController, ControllerChannel, Position, Skeleton, Transform, Warning};

/// studio.h `MAXSTUDIOBONES`: the engine refuses models with more.
pub const MAX_BONES: usize = 128;

/// studio.h motion / controller type flags.
pub const STUDIO_X: i32 = 0x0001;
pub const STUDIO_Y: i32 = 0x0002;
pub const STUDIO_Z: i32 = 0x0004;
pub const STUDIO_XR: i32 = 0x0008;
pub const STUDIO_YR: i32 = 0x0010;
pub const STUDIO_ZR: i32 = 0x0020;
pub const STUDIO_LX: i32 = 0x0040;
pub const STUDIO_LY: i32 = 0x0080;
pub const STUDIO_LZ: i32 = 0x0100;
pub const STUDIO_TYPES: i32 = 0x7fff;
pub const STUDIO_RLOOP: i32 = 0x8000;

/// What a bone's record says beyond the skeleton: the defaults and scales the animation values build on.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BoneInfo {
    pub value: [f32; 6],
    pub scale: [f32; 6],
    /// Controller table index per channel, −1 for none.
    pub controller: [i32; 6],
}

/// The rotation of Euler angles `(x, y, z)` in radians, as the engine's `AngleQuaternion`.
pub fn angles_to_quat(angles: Vec3) -> Quat {
    Quat::from_euler(EulerRot::ZYX, angles.z, angles.y, angles.x)
}

/// Reads the bone table into a skeleton (names made unique, parents checked) and each bone's [`BoneInfo`].
pub fn read_bones(
    file: &[u8],
    header: &Header,
    warnings: &mut Vec<Warning>,
) -> Result<(Skeleton, Vec<BoneInfo>), LoadError> {
    let mut r = header.bones.table(file, BONE_SIZE, "the bone table")?;
    let count = header.bones.len("the bone table")?;
    if count > MAX_BONES {
        warnings.push(Warning::new(
            Position::Byte(header.bones.at),
            format!("{count} bones: more than the {MAX_BONES} the Half-Life engine draws (shown all the same)"),
        ));
    }
    let mut skeleton = Skeleton::default();
    let mut infos = Vec::with_capacity(count);
    let mut starts = Vec::with_capacity(count);
    for i in 0..count {
        let at = r.offset();
        let raw_name = r.fixed_str(32, "a bone name")?;
        let parent = r.i32("a bone's parent")?;
        let _flags = r.i32("a bone's flags")?;
        let mut controller = [0i32; 6];
        for c in &mut controller {
            *c = r.i32("a bone's controller")?;
        }
        let mut value = [0f32; 6];
        for v in &mut value {
            *v = r.f32("a bone's default value")?;
        }
        let mut scale = [0f32; 6];
        for s in &mut scale {
            *s = r.f32("a bone's value scale")?;
        }
        if let Some(bad) = value.iter().chain(&scale).position(|v| !v.is_finite()) {
            return Err(LoadError::at_byte(
                at,
                format!(
                    "bone {i} (\"{raw_name}\"): its {} is not a finite number",
                    if bad < 6 { "default value" } else { "value scale" }
                ),
            ));
        }
        let parent = match parent {
            -1 => None,
            p if p >= 0 && (p as usize) < i => Some(p as usize),
            p => {
                return Err(LoadError::at_byte(
                    at,
                    format!("bone {i} (\"{raw_name}\") names bone {p} as its parent, which does not come before it"),
                ));
            }
        };
        let translation = Vec3::new(value[0], value[1], value[2]);
        let rotation = angles_to_quat(Vec3::new(value[3], value[4], value[5]));
        skeleton.push(raw_name, parent, Transform::from_translation_rotation(translation, rotation));
        starts.push(at);
        infos.push(BoneInfo { value, scale, controller });
    }
    // Empty and repeated names made unique as assimp names them (template `Bone`), so each bone can be reached.
    let written = skeleton.names.clone();
    for i in crate::io::script::make_unique(&mut skeleton.names, "Bone") {
        let what = if written[i].trim().is_empty() {
            "has no name".to_owned()
        } else {
            format!("repeats the name \"{}\"", written[i])
        };
        warnings.push(Warning::new(
            Position::Byte(starts[i]),
            format!("bone {i} {what}; called \"{}\"", skeleton.names[i]),
        ));
    }
    skeleton.recompute_inverse_bind();
    Ok((skeleton, infos))
}

/// Reads the bone controllers into the script's description. A controller of an unknown type or on a bone
/// that does not exist is left out with a warning (the engine would read past its arrays).
pub fn read_controllers(
    file: &[u8],
    header: &Header,
    skeleton: &Skeleton,
    infos: &mut [BoneInfo],
    warnings: &mut Vec<Warning>,
) -> Result<Vec<BoneController>, LoadError> {
    let mut r = header.controllers.table(file, CONTROLLER_SIZE, "the bone controller table")?;
    let count = header.controllers.len("the bone controller table")?;
    let mut out = Vec::with_capacity(count);
    // Controller table index → index in `out`, for the bones' channel links.
    let mut kept: Vec<Option<usize>> = Vec::with_capacity(count);
    for i in 0..count {
        let at = r.offset();
        let bone = r.i32("a controller's bone")?;
        let kind = r.i32("a controller's type")?;
        let start = r.f32("a controller's start")?;
        let end = r.f32("a controller's end")?;
        let _rest = r.i32("a controller's rest value")?;
        let index = r.i32("a controller's index")?;
        // studio.h: "-1 == 0".
        let bone = if bone == -1 { 0 } else { bone };
        let channel = match kind & STUDIO_TYPES {
            STUDIO_X => Some(ControllerChannel::X),
            STUDIO_Y => Some(ControllerChannel::Y),
            STUDIO_Z => Some(ControllerChannel::Z),
            STUDIO_XR => Some(ControllerChannel::XR),
            STUDIO_YR => Some(ControllerChannel::YR),
            STUDIO_ZR => Some(ControllerChannel::ZR),
            _ => None,
        };
        let bone_name = usize::try_from(bone).ok().and_then(|b| skeleton.names.get(b));
        let (Some(channel), Some(bone_name)) = (channel, bone_name) else {
            warnings.push(Warning::new(
                Position::Byte(at),
                format!("bone controller {i}: type {kind:#x} on bone {bone} is not a bone channel the engine drives; left out"),
            ));
            kept.push(None);
            continue;
        };
        if !start.is_finite() || !end.is_finite() {
            warnings.push(Warning::new(
                Position::Byte(at),
                format!("bone controller {i}: its range is not finite; left out"),
            ));
            kept.push(None);
            continue;
        }
        if !(0..=4).contains(&index) {
            warnings.push(Warning::new(
                Position::Byte(at),
                format!("bone controller {i}: index {index} (the engine knows 0–3 and 4, the mouth); shown as a slider all the same"),
            ));
        }
        kept.push(Some(out.len()));
        out.push(BoneController {
            index,
            bone: bone_name.clone(),
            channel,
            start,
            end,
            wraps: kind & STUDIO_RLOOP != 0,
            bone_angles: usize::try_from(bone)
                .ok()
                .and_then(|b| infos.get(b))
                .map(|i| Vec3::new(i.value[3], i.value[4], i.value[5])),
            file: 0,
            line: 0,
        });
    }
    // The bones' links now index `out`; a link to a left-out or missing controller is dropped.
    for (b, info) in infos.iter_mut().enumerate() {
        for (channel, link) in info.controller.iter_mut().enumerate() {
            if *link < 0 {
                continue;
            }
            let target = usize::try_from(*link).ok().and_then(|l| kept.get(l).copied().flatten());
            match target {
                Some(k) => *link = k as i32,
                None => {
                    warnings.push(Warning::new(
                        Position::Byte(header.bones.at),
                        format!(
                            "bone \"{}\" channel {channel} names bone controller {link}, which is not there; ignored",
                            skeleton.names.get(b).map_or("?", String::as_str)
                        ),
                    ));
                    *link = -1;
                }
            }
        }
    }
    Ok(out)
}
