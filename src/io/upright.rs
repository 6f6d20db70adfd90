//! The model of a file set standing up: where the file's axis convention would lay the character down (a
//! Blender export whose PSK keeps Blender's axes opens face-down under ActorX's Z up), its own bones say which
//! axis of the file is up ([`crate::anim::facing::standing_axis`]: the head above the feet, the left and right
//! bones across) and the model is turned so that axis points up. The choice is a [`Reading`] (topic
//! [`Reading::UP_AXIS`]) that `info` prints and the viewer's status line shows, with the override: `--up AXIS`
//! (the command line's [`super::LoadOptions::up`], the viewer's View › Up axis) takes the given axis instead.
//! Applied once, by [`super::LoadedSet::add`] to the set's model, so every command and the viewer open the same
//! upright character.

use crate::scene::{Asset, Reading, UpAxis};

/// Stands `asset` up: along `by_hand` when given, else along the axis its bones give where its convention does
/// not stand it up; records the reading.
pub(crate) fn stand_up(asset: &mut Asset, by_hand: Option<UpAxis>) {
    let convention = asset.axes.description;
    if let Some(up) = by_hand {
        asset.axes = asset.axes.with_file_up(up);
        asset.readings.push(Reading::new(
            Reading::UP_AXIS,
            format!("the file's {} is up", up.label()),
            format!("set by hand (--up); the format's convention: {convention}"),
        ));
        return;
    }
    let Some(standing) = crate::anim::facing::standing_axis(asset) else { return };
    asset.axes = asset.axes.turned_up(standing.up, "turned upright by the character's own bones (see \"up axis\")");
    asset.readings.push(Reading::new(
        Reading::UP_AXIS,
        format!("the file's {} is up", standing.up.label()),
        format!("{}; the format's convention: {convention}; --up sets another", standing.why),
    ));
}
