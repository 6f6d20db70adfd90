//! `.MRM`: a static compiled mesh on its own (a `zCProgMeshProto` in a `0xB100` chunk, ended by `0xB1FF`;
//! ZenKit `MultiResolutionMesh.cc`), shown as a mesh on one bone in the engine's frame.

use crate::io::{LoadError, LoadErrorKind, LoadOptions};
use crate::scene::{Asset, Format, Reading, Transform};

use super::chunk::Chunks;
use super::compiler::engine_axes;
use super::geometry::{build_mesh, materials, rigid};
use super::proto::{self, ProtoMesh, VERSION_G2};

/// The `zCProgMeshProto` section's chunk id, and the id that ends it.
pub const CHUNK_MESH: u16 = 0xB100;
pub const CHUNK_END: u16 = 0xB1FF;

/// The mesh of an `.MRM` file.
pub fn read(bytes: &[u8]) -> Result<ProtoMesh, LoadError> {
    for chunk in Chunks::new(bytes) {
        let mut chunk = chunk?;
        if chunk.id == CHUNK_MESH {
            return proto::read(&mut chunk.body);
        }
    }
    Err(LoadError::whole_file("no mesh chunk (0xB100): not a compiled multi-resolution mesh")
        .with_kind(LoadErrorKind::NotThisFormat))
}

/// The name of the game a section's version says wrote it.
pub fn game_of(version: u16) -> &'static str {
    match version {
        VERSION_G2 => "Gothic 2",
        0x305 => "Gothic 1",
        _ => "an unknown version",
    }
}

pub fn load(bytes: &[u8], opts: &LoadOptions) -> Result<Asset, LoadError> {
    let proto = read(bytes)?;
    let mut asset = Asset::new(Format::ZenMrm);
    asset.axes = engine_axes();
    asset.skeleton.push("MRM", None, Transform::IDENTITY);
    asset.skeleton.recompute_inverse_bind();
    asset.materials = materials(&proto, opts);
    asset.meshes.push(build_mesh(&proto, "MRM", 0, |w| {
        rigid(proto.positions.get(usize::from(w.position)).copied().unwrap_or_default(), w.normal, 0)
    }));
    asset.readings.push(Reading::new(
        "mesh version",
        format!("0x{:03X}: {}", proto.version, game_of(proto.version)),
        "the version of the zCProgMeshProto section",
    ));
    asset.warnings.extend(proto.warnings);
    Ok(asset)
}
